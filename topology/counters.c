/*
 * counters.c — the port error counters of every compute node's link
 * (SymbolErrorCounter, LinkDownedCounter, PortRcvErrors), read with
 * libibmad's performance queries (pma_query_via, PortCounters) at both
 * ends of the link; their text form, kept between two watch cycles; and
 * which of them grew by more than the administrator's limits.  The
 * queries are libibmad's; this file only chooses the ports and compares.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define COUNTERS_HEADER                                                  \
	"# fabsched link counters 1: node-guid port SymbolErrorCounter " \
	"LinkDownedCounter PortRcvErrors"

void fst_counters_clear(struct fst_counters *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}

int fst_counters_add(struct fst_counters *c, uint64_t guid, int port, int dev,
		     const uint64_t v[FS_IB_NCOUNTERS])
{
	struct fst_counter *e;

	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 256;

		if (!(e = realloc(c->v, sizeof(*e) * (size_t)cap)))
			return -1;
		c->v = e;
		c->cap = cap;
	}
	e = &c->v[c->n++];
	e->guid = guid;
	e->port = port;
	e->dev = dev;
	memcpy(e->v, v, sizeof(e->v));
	c->sorted = 0;
	return 0;
}

static int _cmp(const void *a, const void *b)
{
	const struct fst_counter *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (x->port > y->port) - (x->port < y->port);
}

int fst_counters_write(const struct fst_counters *c, FILE *f)
{
	fprintf(f, "%s\n", COUNTERS_HEADER);
	for (int i = 0; i < c->n; i++)
		fprintf(f, "0x%016" PRIx64 " %d %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			c->v[i].guid, c->v[i].port, c->v[i].v[0], c->v[i].v[1], c->v[i].v[2]);
	return ferror(f) ? -1 : 0;
}

int fst_counters_read(struct fst_counters *c, const char *path, char *err, size_t errlen)
{
	char line[256], why[128];
	FILE *f = fs_fopen_regular(path, why, sizeof(why));
	int ln = 0, rc = 0;

	memset(c, 0, sizeof(*c));
	if (!f)
		return fs_errf(err, errlen, "%s: cannot open: %s", path, why);
	while (!rc && fgets(line, sizeof(line), f)) {
		uint64_t guid, v[FS_IB_NCOUNTERS];
		int port, used = -1;

		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "0x%" SCNx64 " %d %" SCNu64 " %" SCNu64 " %" SCNu64 " %n", &guid,
			   &port, &v[0], &v[1], &v[2], &used) != 5 ||
		    used < 0 || line[used] || port < 0 || port > 254)
			rc = fs_errf(err, errlen,
				     "%s:%d: not a counter line; expected "
				     "'0x<node guid> <port 0-254> <SymbolErrorCounter> "
				     "<LinkDownedCounter> <PortRcvErrors>'",
				     path, ln);
		else if (fst_counters_add(c, guid, port, -1, v))
			rc = fs_errf(err, errlen, "out of memory");
	}
	fclose(f);
	if (!rc && c->n) {
		qsort(c->v, (size_t)c->n, sizeof(*c->v), _cmp);
		c->sorted = 1;
		for (int i = 1; i < c->n && !rc; i++)
			if (!_cmp(&c->v[i - 1], &c->v[i]))
				rc = fs_errf(err, errlen,
					     "%s: node 0x%016" PRIx64 " port %d is listed "
					     "twice; expected each port once",
					     path, c->v[i].guid, c->v[i].port);
	}
	if (rc)
		fst_counters_clear(c);
	return rc;
}

int fst_counters_grown(struct fst_counters *prev, const struct fst_counters *cur,
		       const struct fs_ib_err_limits *lim, fst_counter_cb cb, void *arg)
{
	int reports = 0;

	if (!prev->sorted && prev->n)
		qsort(prev->v, (size_t)prev->n, sizeof(*prev->v), _cmp);
	prev->sorted = 1;
	for (int i = 0; i < cur->n; i++) {
		const struct fst_counter *was =
			prev->n ? bsearch(&cur->v[i], prev->v, (size_t)prev->n, sizeof(*prev->v),
					  _cmp)
				: NULL;

		for (int k = 0; was && k < FS_IB_NCOUNTERS; k++) {
			uint64_t now = cur->v[i].v[k], then = was->v[k];
			int rc;

			if (!lim->on[k] || now < then || now - then <= lim->most[k])
				continue;
			if (cb && (rc = cb(&cur->v[i], k, now - then, arg)))
				return rc;
			reports++;
		}
	}
	return reports;
}

#ifdef HAVE_IBNETDISC
#include <infiniband/mad.h>

/* One port's counters into @out, or 1 when it cannot be read. */
static int _query(struct ibmad_port *src, int lid, int port, int timeout_ms,
		  uint64_t out[FS_IB_NCOUNTERS])
{
	uint8_t buf[1024] = { 0 };
	ib_portid_t id = { 0 };

	if (!lid || !src)
		return 1;
	ib_portid_set(&id, lid, 1, IB_DEFAULT_QP1_QKEY);
	if (!pma_query_via(buf, &id, port, (unsigned)timeout_ms, IB_GSI_PORT_COUNTERS, src))
		return 1;
	out[FS_IB_SYMBOL_ERRORS] = mad_get_field(buf, 0, IB_PC_ERR_SYM_F);
	out[FS_IB_LINK_DOWNED] = mad_get_field(buf, 0, IB_PC_LINK_DOWNED_F);
	out[FS_IB_RCV_ERRORS] = mad_get_field(buf, 0, IB_PC_ERR_RCV_F);
	return 0;
}

int fst_read_link_counters(const struct fst_model *m, const struct fst_local_port *lp, int nlp,
			   int timeout_ms, struct fst_counters *out, char *err, size_t errlen)
{
	int classes[] = { IB_PERFORMANCE_CLASS };
	struct ibmad_port **src = calloc((size_t)(m->nplanes ? m->nplanes : 1), sizeof(*src));
	int opened = 0, rc = 0;

	memset(out, 0, sizeof(*out));
	if (!src)
		return fs_errf(err, errlen, "out of memory");
	/* each plane read through the first local port linked to it */
	for (int i = 0; i < nlp; i++) {
		int d = fst_port_guid_peer(m, lp[i].port_guid), pl = d >= 0 ? m->devs[d].plane : -1;

		if (pl < 0 || pl >= m->nplanes || src[pl])
			continue;
		src[pl] = mad_rpc_open_port((char *)lp[i].ca, lp[i].port, classes, 1);
		if (src[pl]) {
			mad_rpc_set_retries(src[pl], 1);
			opened++;
		}
	}
	if (!opened) {
		free(src);
		return fs_errf(err, errlen,
			       "link counters: no local port could be opened for "
			       "performance queries (libibmad mad_rpc_open_port); expected "
			       "access to /dev/infiniband/umad*");
	}
	for (int h = 0; h < m->nhosts && !rc; h++) {
		const struct fst_host *ho = &m->hosts[h];

		for (int k = 0; k < ho->nhcas && !rc; k++) {
			const struct fst_device *d = &m->devs[ho->hcas[k]];

			/* each port through the local port on its switch's plane */
			for (int p = 1; p <= d->nports && !rc; p++) {
				const struct fst_port *pt = &d->ports[p];
				const struct fst_device *sw;
				struct ibmad_port *s;
				uint64_t v[FS_IB_NCOUNTERS];

				if (pt->peer < 0)
					continue;
				sw = &m->devs[pt->peer];
				s = sw->plane >= 0 && sw->plane < m->nplanes ? src[sw->plane]
									     : NULL;
				if (_query(s, pt->lid, p, timeout_ms, v))
					out->unread++;
				else if (fst_counters_add(out, d->guid, p, ho->hcas[k], v))
					rc = -1;
				if (_query(s, sw->ports[0].lid, pt->peer_port, timeout_ms, v))
					out->unread++;
				else if (fst_counters_add(out, sw->guid, pt->peer_port, pt->peer,
							  v))
					rc = -1;
			}
		}
	}
	for (int pl = 0; pl < m->nplanes; pl++)
		if (src[pl])
			mad_rpc_close_port(src[pl]);
	free(src);
	if (rc) {
		fst_counters_clear(out);
		return fs_errf(err, errlen, "out of memory");
	}
	return 0;
}

#else /* !HAVE_IBNETDISC */

int fst_read_link_counters(const struct fst_model *m, const struct fst_local_port *lp, int nlp,
			   int timeout_ms, struct fst_counters *out, char *err, size_t errlen)
{
	(void)m;
	(void)lp;
	(void)nlp;
	(void)timeout_ms;
	memset(out, 0, sizeof(*out));
	return fs_errf(err, errlen,
		       "link counters unavailable: fabsched was built without libibmad");
}
#endif
