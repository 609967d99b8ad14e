/*
 * discover.c — fabric model from libibnetdisc: live discovery
 * (ibnd_discover_fabric) and ibnetdiscover cache files (ibnd_load_fabric).
 * The traversal and the cache format are libibnetdisc's; this file only
 * converts its structures into the model.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_IBNETDISC
#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

int fst_have_ibnetdisc(void)
{
	return 1;
}

static int _width(unsigned w)
{
	switch (w) {
	case 1: return 1;
	case 2: return 4;
	case 4: return 8;
	case 8: return 12;
	case 16: return 2;
	default: return 0;
	}
}

static enum fst_speed _speed(const ibnd_port_t *p)
{
	unsigned s = mad_get_field((void *)p->info, 0, IB_PORT_LINK_SPEED_ACTIVE_F);
	unsigned e = mad_get_field((void *)p->info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F);
	unsigned f = mad_get_field((void *)p->ext_info, 0, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F);

	switch (e) {
	case 1: return FST_SPEED_FDR;
	case 2: return FST_SPEED_EDR;
	case 4: return FST_SPEED_HDR;
	case 8: return FST_SPEED_NDR;
	case 16: return FST_SPEED_XDR;
	default: break;
	}
	if (f == 1)
		return FST_SPEED_FDR10;
	switch (s) {
	case 1: return FST_SPEED_SDR;
	case 2: return FST_SPEED_DDR;
	case 4: return FST_SPEED_QDR;
	default: return FST_SPEED_UNKNOWN;
	}
}

static void _id(char *buf, size_t n, const ibnd_node_t *nd)
{
	char t = nd->type == IB_NODE_SWITCH ? 'S' : nd->type == IB_NODE_ROUTER ? 'R' : 'H';

	snprintf(buf, n, "%c-%016" PRIx64, t, nd->guid);
}

static int _convert(ibnd_fabric_t *fab, const char *source, struct fst_model **out, char *err,
		    size_t errlen)
{
	struct fst_model *m = fst_model_new();
	char id[32];

	if (!m)
		return fs_errf(err, errlen, "out of memory");
	if (fst_set_str(&m->source, source))
		goto oom;
	for (ibnd_node_t *nd = fab->nodes; nd; nd = nd->next) {
		enum fst_devtype t = nd->type == IB_NODE_SWITCH ? FST_SWITCH :
				     nd->type == IB_NODE_ROUTER ? FST_ROUTER : FST_HCA;
		int d;

		_id(id, sizeof(id), nd);
		if (fst_index_get(&m->priv->ids, id) >= 0)
			continue;
		d = fst_add_device(m, t, id, nd->guid, nd->numports > 254 ? 254 : nd->numports);
		if (d < 0)
			goto oom;
		m->devs[d].sysimgguid = mad_get_field64(nd->info, 0, IB_NODE_SYSTEM_GUID_F);
		if (fst_set_str(&m->devs[d].desc, nd->nodedesc))
			goto oom;
		for (int p = 0; p <= m->devs[d].nports; p++) {
			const ibnd_port_t *pt = nd->ports ? nd->ports[p] : NULL;

			if (!pt)
				continue;
			m->devs[d].ports[p].guid = pt->guid;
			m->devs[d].ports[p].lid = pt->base_lid;
		}
	}
	for (ibnd_node_t *nd = fab->nodes; nd; nd = nd->next) {
		int a;

		_id(id, sizeof(id), nd);
		a = fst_index_get(&m->priv->ids, id);
		for (int p = 1; p <= m->devs[a].nports; p++) {
			const ibnd_port_t *pt = nd->ports ? nd->ports[p] : NULL;
			const ibnd_port_t *rp;
			int b;

			if (!pt || !(rp = pt->remoteport) || !rp->node)
				continue;
			_id(id, sizeof(id), rp->node);
			b = fst_index_get(&m->priv->ids, id);
			if (b < 0 || rp->portnum < 1 || rp->portnum > m->devs[b].nports)
				continue;
			if (fst_connect(m, a, p, b, rp->portnum,
					_width(mad_get_field((void *)pt->info, 0, IB_PORT_LINK_WIDTH_ACTIVE_F)),
					_speed(pt)))
				goto oom;
		}
	}
	if (!m->ndevs) {
		fst_model_free(m);
		return fs_errf(err, errlen, "%s: the fabric has no nodes", source);
	}
	*out = m;
	return 0;
oom:
	fst_model_free(m);
	return fs_errf(err, errlen, "out of memory");
}

int fst_discover_live(struct fst_model **out, const char *ca, int port, const char *cache_out,
		      char *err, size_t errlen)
{
	struct ibnd_config cfg = { 0 };
	ibnd_fabric_t *fab;
	int rc;

	*out = NULL;
	cfg.timeout_ms = 1000;
	cfg.retries = 2;
	fab = ibnd_discover_fabric((char *)ca, port, NULL, &cfg);
	if (!fab)
		return fs_errf(err, errlen, "live discovery failed (ibnd_discover_fabric, CA %s port %d): "
			       "expected an active InfiniBand port and access to /dev/infiniband/umad*",
			       ca ? ca : "default", port);
	if (cache_out) {
		if (access(cache_out, F_OK) == 0) {
			ibnd_destroy_fabric(fab);
			return fs_errf(err, errlen, "%s: exists; expected a new cache file name", cache_out);
		}
		if (ibnd_cache_fabric(fab, cache_out, 0)) {
			ibnd_destroy_fabric(fab);
			return fs_errf(err, errlen, "%s: cannot write the cache file", cache_out);
		}
	}
	rc = _convert(fab, "live", out, err, errlen);
	ibnd_destroy_fabric(fab);
	return rc;
}

int fst_local_ports(struct fst_local_port *out, int max, char *err, size_t errlen)
{
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
	int nca, n = 0;

	if (umad_init() < 0)
		return fs_errf(err, errlen, "libibumad: cannot initialise; expected the ib_umad module");
	nca = umad_get_cas_names(names, UMAD_MAX_DEVICES);
	if (nca < 0)
		return fs_errf(err, errlen, "libibumad: cannot list the local HCAs");
	for (int i = 0; i < nca; i++) {
		umad_ca_t ca;

		if (umad_get_ca(names[i], &ca) < 0)
			continue;
		for (int p = 1; p <= ca.numports && p < UMAD_CA_MAX_PORTS; p++) {
			umad_port_t *pt = ca.ports[p];

			/* INIT, ARMED or ACTIVE: the link is up, and directed
			   route discovery needs no subnet manager */
			if (!pt || pt->state < 2 ||
			    (pt->link_layer[0] && strcmp(pt->link_layer, "InfiniBand") &&
			     strcmp(pt->link_layer, "IB")))
				continue;
			if (n < max) {
				snprintf(out[n].ca, sizeof(out[n].ca), "%.63s", names[i]);
				out[n].port = p;
				out[n].port_guid = be64toh(pt->port_guid);
			}
			n++;
		}
		umad_release_ca(&ca);
	}
	return n;
}

/*
 * The cache file checked before libibnetdisc reads it: ibnd_load_fabric
 * trusts the file (a port number beyond its node's ports writes past the
 * node's port array, an LMC above 7 makes its LID table loop without end,
 * a port no node lists is freed while still in that table).  The
 * layout is libibnetdisc's (ibnetdisc_cache.c, version 1, little endian):
 * a 28-byte header (magic, version, node count, port count, from-node
 * GUID, hops), nodes of 207 bytes plus 9 per port key (GUID, port), ports
 * of 95 bytes.
 */
#define CACHE_MAGIC 0x8FE7832Bu
#define CACHE_HDR 28
#define CACHE_SMP 64
#define CACHE_NODE (15 + 3 * CACHE_SMP)
#define CACHE_KEY 9
#define CACHE_PORT (31 + CACHE_SMP)
#define CACHE_MAX_SIZE (1024L * 1024 * 1024)

struct cache_key {
	uint64_t guid;
	unsigned port;
	size_t at;	/* index of the node (node keys) or of the port */
};

static uint64_t _le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int _key_cmp(const void *a, const void *b)
{
	const struct cache_key *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (x->port > y->port) - (x->port < y->port);
}

static const struct cache_key *_key_find(const struct cache_key *k, size_t n, uint64_t guid,
					 unsigned port)
{
	struct cache_key want = { .guid = guid, .port = port };

	return bsearch(&want, k, n, sizeof(*k), _key_cmp);
}

static int _cache_check(const char *path, char *err, size_t errlen)
{
	struct cache_key *nodes = NULL, *ports = NULL, *refs = NULL;
	uint8_t *b = NULL, *numports = NULL, *ntype = NULL, *used = NULL;
	uint64_t *nguid = NULL;	/* node GUIDs in file order */
	size_t len = 0, at, nn, np, nrefs = 0, cap = 0;
	const char *why = NULL;
	char ebuf[128];
	FILE *f = fs_fopen_regular(path, ebuf, sizeof(ebuf));
	long size;
	int rc = -1;

	if (!f)
		return fs_errf(err, errlen, "%s: cannot open: %s", path, ebuf);
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return fs_errf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	}
	if (size > CACHE_MAX_SIZE) {
		fclose(f);
		return fs_errf(err, errlen, "%s: %ld bytes; expected an ibnetdisc cache file "
			       "of at most %ld bytes", path, size, CACHE_MAX_SIZE);
	}
	b = malloc((size_t)size + 1);
	if (!b) {
		fclose(f);
		return fs_errf(err, errlen, "out of memory");
	}
	len = fread(b, 1, (size_t)size, f);
	fclose(f);
	if (len < CACHE_HDR || _le(b, 4) != CACHE_MAGIC || _le(b + 4, 4) != 1) {
		why = "no ibnetdisc cache header (magic 0x8FE7832B, version 1)";
		goto out;
	}
	nn = _le(b + 8, 4);
	np = _le(b + 12, 4);
	if (!nn || nn > (len - CACHE_HDR) / CACHE_NODE ||
	    np > (len - CACHE_HDR - nn * CACHE_NODE) / CACHE_PORT) {
		why = "node or port count beyond the file's size";
		goto out;
	}
	nodes = calloc(nn, sizeof(*nodes));
	numports = calloc(nn, 1);
	ntype = calloc(nn, 1);
	nguid = calloc(nn, sizeof(*nguid));
	ports = calloc(np ? np : 1, sizeof(*ports));
	used = calloc(np ? np : 1, 1);
	if (!nodes || !numports || !ntype || !nguid || !ports || !used)
		goto oom;
	at = CACHE_HDR;
	for (size_t i = 0; i < nn; i++) {
		const uint8_t *nd = b + at;
		unsigned type, nkeys;

		if (len - at < CACHE_NODE) {
			why = "a node record cut short";
			goto out;
		}
		type = nd[76];
		nkeys = nd[CACHE_NODE - 1];
		if (type < 1 || type > 3) {
			why = "a node type other than CA, switch or router";
			goto out;
		}
		nodes[i].guid = nguid[i] = _le(nd + 68, 8);
		nodes[i].at = i;
		numports[i] = nd[77];
		ntype[i] = (uint8_t)type;
		at += CACHE_NODE;
		if ((len - at) / CACHE_KEY < nkeys) {
			why = "a node's port list cut short";
			goto out;
		}
		if (nrefs + nkeys > cap) {
			struct cache_key *r;

			cap = cap * 2 + nkeys + 16;
			if (!(r = realloc(refs, cap * sizeof(*refs))))
				goto oom;
			refs = r;
		}
		for (unsigned k = 0; k < nkeys; k++, at += CACHE_KEY) {
			refs[nrefs].guid = _le(b + at, 8);
			refs[nrefs].port = b[at + 8];
			refs[nrefs++].at = i;
		}
	}
	if (len - at != np * CACHE_PORT) {
		why = "the port records do not fill the rest of the file exactly";
		goto out;
	}
	for (size_t i = 0; i < np; i++, at += CACHE_PORT) {
		ports[i].guid = _le(b + at, 8);
		ports[i].port = b[at + 8];
		ports[i].at = at;
		if (b[at + 12] > 7) {
			why = "a port LMC above 7";
			goto out;
		}
	}
	qsort(nodes, nn, sizeof(*nodes), _key_cmp);
	qsort(ports, np, sizeof(*ports), _key_cmp);
	for (size_t i = 1; i < nn; i++)
		if (nodes[i].guid == nodes[i - 1].guid) {
			why = "a node GUID listed twice";
			goto out;
		}
	for (size_t i = 1; i < np; i++)
		if (!_key_cmp(&ports[i], &ports[i - 1])) {
			why = "a port (GUID and number) listed twice";
			goto out;
		}
	if (!_key_find(nodes, nn, _le(b + 16, 8), 0)) {
		why = "the node discovery started from is not in the file";
		goto out;
	}
	for (size_t i = 0; i < np; i++) {
		const uint8_t *pt = b + ports[i].at;
		const struct cache_key *n = _key_find(nodes, nn, _le(pt + 13 + CACHE_SMP, 8), 0);

		if (!n || ports[i].port > numports[n->at]) {
			why = "a port whose node is not in the file or has fewer ports";
			goto out;
		}
		/* port 0 is a switch's own; libibnetdisc leaks it on others */
		if (!ports[i].port && ntype[n->at] != 2) {
			why = "a port 0 on a CA or router";
			goto out;
		}
		if (pt[21 + CACHE_SMP] &&
		    !_key_find(ports, np, _le(pt + 22 + CACHE_SMP, 8), pt[30 + CACHE_SMP])) {
			why = "a link to a port that is not in the file";
			goto out;
		}
	}
	for (size_t i = 0; i < nrefs; i++) {
		const struct cache_key *p = _key_find(ports, np, refs[i].guid, refs[i].port);

		if (!p || used[p - ports] ||
		    _le(b + p->at + 13 + CACHE_SMP, 8) != nguid[refs[i].at] ||
		    p->port > numports[refs[i].at]) {
			why = "a node listing a port that is missing, another node's, listed twice "
			      "or beyond its port count";
			goto out;
		}
		used[p - ports] = 1;
	}
	for (size_t i = 0; i < np; i++)
		if (!used[i]) {
			why = "a port that no node lists";
			goto out;
		}
	rc = 0;
	goto out;
oom:
	why = NULL;
	rc = fs_errf(err, errlen, "out of memory");
	goto done;
out:
	if (why)
		fs_errf(err, errlen, "%s: not a valid ibnetdiscover cache (%s); expected a file "
			"written by 'ibnetdiscover --cache'", path, why);
done:
	free(b);
	free(nodes);
	free(numports);
	free(ntype);
	free(nguid);
	free(ports);
	free(used);
	free(refs);
	return rc;
}

int fst_load_cache(struct fst_model **out, const char *path, char *err, size_t errlen)
{
	ibnd_fabric_t *fab;
	int rc;

	*out = NULL;
	if (access(path, R_OK))
		return fs_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
	if (_cache_check(path, err, errlen))
		return -1;
	fab = ibnd_load_fabric(path, 0);
	if (!fab)
		return fs_errf(err, errlen, "%s: not a readable ibnetdiscover cache; expected a file "
			       "written by 'ibnetdiscover --cache'", path);
	rc = _convert(fab, path, out, err, errlen);
	ibnd_destroy_fabric(fab);
	return rc;
}

#else /* !HAVE_IBNETDISC */

int fst_have_ibnetdisc(void)
{
	return 0;
}

int fst_discover_live(struct fst_model **out, const char *ca, int port, const char *cache_out,
		      char *err, size_t errlen)
{
	*out = NULL;
	return fs_errf(err, errlen, "live discovery unavailable: fabsched was built without libibnetdisc");
}

int fst_load_cache(struct fst_model **out, const char *path, char *err, size_t errlen)
{
	*out = NULL;
	return fs_errf(err, errlen, "%s: cache files need libibnetdisc, which this build lacks", path);
}

int fst_local_ports(struct fst_local_port *out, int max, char *err, size_t errlen)
{
	(void)out;
	(void)max;
	return fs_errf(err, errlen, "live discovery unavailable: fabsched was built without libibnetdisc");
}
#endif
