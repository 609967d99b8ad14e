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
	case 1:
		return 1;
	case 2:
		return 4;
	case 4:
		return 8;
	case 8:
		return 12;
	case 16:
		return 2;
	default:
		return 0;
	}
}

static enum fst_speed _speed(const ibnd_port_t *p)
{
	unsigned s = mad_get_field((void *)p->info, 0, IB_PORT_LINK_SPEED_ACTIVE_F);
	unsigned e = mad_get_field((void *)p->info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F);
	unsigned f = mad_get_field((void *)p->ext_info, 0, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F);

	switch (e) {
	case 1:
		return FST_SPEED_FDR;
	case 2:
		return FST_SPEED_EDR;
	case 4:
		return FST_SPEED_HDR;
	case 8:
		return FST_SPEED_NDR;
	case 16:
		return FST_SPEED_XDR;
	default:
		break;
	}
	if (f == 1)
		return FST_SPEED_FDR10;
	switch (s) {
	case 1:
		return FST_SPEED_SDR;
	case 2:
		return FST_SPEED_DDR;
	case 4:
		return FST_SPEED_QDR;
	default:
		return FST_SPEED_UNKNOWN;
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
		enum fst_devtype t = nd->type == IB_NODE_SWITCH	  ? FST_SWITCH
				     : nd->type == IB_NODE_ROUTER ? FST_ROUTER
								  : FST_HCA;
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
					_width(mad_get_field((void *)pt->info, 0,
							     IB_PORT_LINK_WIDTH_ACTIVE_F)),
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
		return fs_errf(
			err, errlen,
			"live discovery failed (ibnd_discover_fabric, CA %s port %d): "
			"expected an active InfiniBand port and access to /dev/infiniband/umad*",
			ca ? ca : "default", port);
	if (cache_out) {
		if (access(cache_out, F_OK) == 0) {
			ibnd_destroy_fabric(fab);
			return fs_errf(err, errlen, "%s: exists; expected a new cache file name",
				       cache_out);
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
		return fs_errf(err, errlen,
			       "libibumad: cannot initialise; expected the ib_umad module");
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
	size_t at; /* index of the node (node keys) or of the port */
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

/*
 * The checks in phases over the file's bytes: the header, the node
 * records (and the port keys each lists), the port records, no key twice
 * and the start node there, the ports' nodes and links, then every port
 * listed by exactly its own node.  A phase returns 0, or -1 with c->why
 * set (NULL: out of memory).  The order is the file's: the first fault
 * found is the one said.
 */
struct cache {
	uint8_t *b;
	size_t len, at;			 /* the bytes; the next record's offset */
	size_t nn, np;			 /* node and port records */
	struct cache_key *nodes, *ports; /* sorted once all are read */
	struct cache_key *refs;		 /* the port keys the nodes list; at: the node */
	size_t nrefs, cap;
	uint8_t *numports, *ntype; /* per node, in file order */
	uint64_t *nguid;	   /* node GUIDs in file order */
	uint8_t *used;		   /* per port (sorted): listed by a node */
	const char *why;
};

static int _cache_bad(struct cache *c, const char *why)
{
	c->why = why;
	return -1;
}

/* The whole file into c->b (at most CACHE_MAX_SIZE bytes); a file that
   cannot be read is said in err. */
static int _cache_read(const char *path, struct cache *c, char *err, size_t errlen)
{
	char ebuf[128];
	FILE *f = fs_fopen_regular(path, ebuf, sizeof(ebuf));
	long size;

	if (!f)
		return fs_errf(err, errlen, "%s: cannot open: %s", path, ebuf);
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return fs_errf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	}
	if (size > CACHE_MAX_SIZE) {
		fclose(f);
		return fs_errf(err, errlen,
			       "%s: %ld bytes; expected an ibnetdisc cache file "
			       "of at most %ld bytes",
			       path, size, CACHE_MAX_SIZE);
	}
	c->b = malloc((size_t)size + 1);
	if (!c->b) {
		fclose(f);
		return fs_errf(err, errlen, "out of memory");
	}
	c->len = fread(c->b, 1, (size_t)size, f);
	fclose(f);
	return 0;
}

/* The header, and node and port counts that the file's size allows;
   then the tables of the later phases. */
static int _cache_header(struct cache *c)
{
	const uint8_t *b = c->b;

	if (c->len < CACHE_HDR || _le(b, 4) != CACHE_MAGIC || _le(b + 4, 4) != 1)
		return _cache_bad(c, "no ibnetdisc cache header (magic 0x8FE7832B, version 1)");
	c->nn = _le(b + 8, 4);
	c->np = _le(b + 12, 4);
	if (!c->nn || c->nn > (c->len - CACHE_HDR) / CACHE_NODE ||
	    c->np > (c->len - CACHE_HDR - c->nn * CACHE_NODE) / CACHE_PORT)
		return _cache_bad(c, "node or port count beyond the file's size");
	c->nodes = calloc(c->nn, sizeof(*c->nodes));
	c->numports = calloc(c->nn, 1);
	c->ntype = calloc(c->nn, 1);
	c->nguid = calloc(c->nn, sizeof(*c->nguid));
	c->ports = calloc(c->np ? c->np : 1, sizeof(*c->ports));
	c->used = calloc(c->np ? c->np : 1, 1);
	if (!c->nodes || !c->numports || !c->ntype || !c->nguid || !c->ports || !c->used)
		return _cache_bad(c, NULL);
	c->at = CACHE_HDR;
	return 0;
}

/* The node records: type, GUID, port count, and the port keys each
   lists (into refs, checked once the ports are known). */
static int _cache_nodes(struct cache *c)
{
	const uint8_t *b = c->b;

	for (size_t i = 0; i < c->nn; i++) {
		const uint8_t *nd = b + c->at;
		unsigned type, nkeys;

		if (c->len - c->at < CACHE_NODE)
			return _cache_bad(c, "a node record cut short");
		type = nd[76];
		nkeys = nd[CACHE_NODE - 1];
		if (type < 1 || type > 3)
			return _cache_bad(c, "a node type other than CA, switch or router");
		c->nodes[i].guid = c->nguid[i] = _le(nd + 68, 8);
		c->nodes[i].at = i;
		c->numports[i] = nd[77];
		c->ntype[i] = (uint8_t)type;
		c->at += CACHE_NODE;
		if ((c->len - c->at) / CACHE_KEY < nkeys)
			return _cache_bad(c, "a node's port list cut short");
		if (c->nrefs + nkeys > c->cap) {
			struct cache_key *r;

			c->cap = c->cap * 2 + nkeys + 16;
			if (!(r = realloc(c->refs, c->cap * sizeof(*c->refs))))
				return _cache_bad(c, NULL);
			c->refs = r;
		}
		for (unsigned k = 0; k < nkeys; k++, c->at += CACHE_KEY) {
			c->refs[c->nrefs].guid = _le(b + c->at, 8);
			c->refs[c->nrefs].port = b[c->at + 8];
			c->refs[c->nrefs++].at = i;
		}
	}
	return 0;
}

/* The port records, exactly the rest of the file: key and LMC. */
static int _cache_ports(struct cache *c)
{
	const uint8_t *b = c->b;

	if (c->len - c->at != c->np * CACHE_PORT)
		return _cache_bad(c, "the port records do not fill the rest of the file exactly");
	for (size_t i = 0; i < c->np; i++, c->at += CACHE_PORT) {
		c->ports[i].guid = _le(b + c->at, 8);
		c->ports[i].port = b[c->at + 8];
		c->ports[i].at = c->at;
		if (b[c->at + 12] > 7)
			return _cache_bad(c, "a port LMC above 7");
	}
	return 0;
}

/* Nodes and ports sorted for bsearch: none twice, and the node that
   discovery started from among them. */
static int _cache_unique(struct cache *c)
{
	qsort(c->nodes, c->nn, sizeof(*c->nodes), _key_cmp);
	qsort(c->ports, c->np, sizeof(*c->ports), _key_cmp);
	for (size_t i = 1; i < c->nn; i++)
		if (c->nodes[i].guid == c->nodes[i - 1].guid)
			return _cache_bad(c, "a node GUID listed twice");
	for (size_t i = 1; i < c->np; i++)
		if (!_key_cmp(&c->ports[i], &c->ports[i - 1]))
			return _cache_bad(c, "a port (GUID and number) listed twice");
	if (!_key_find(c->nodes, c->nn, _le(c->b + 16, 8), 0))
		return _cache_bad(c, "the node discovery started from is not in the file");
	return 0;
}

/* Each port: its node there with that many ports, port 0 a switch's
   only, its link to a port in the file. */
static int _cache_links(struct cache *c)
{
	for (size_t i = 0; i < c->np; i++) {
		const uint8_t *pt = c->b + c->ports[i].at;
		const struct cache_key *n =
			_key_find(c->nodes, c->nn, _le(pt + 13 + CACHE_SMP, 8), 0);

		if (!n || c->ports[i].port > c->numports[n->at])
			return _cache_bad(c, "a port whose node is not in the file or has "
					     "fewer ports");
		/* port 0 is a switch's own; libibnetdisc leaks it on others */
		if (!c->ports[i].port && c->ntype[n->at] != 2)
			return _cache_bad(c, "a port 0 on a CA or router");
		if (pt[21 + CACHE_SMP] &&
		    !_key_find(c->ports, c->np, _le(pt + 22 + CACHE_SMP, 8), pt[30 + CACHE_SMP]))
			return _cache_bad(c, "a link to a port that is not in the file");
	}
	return 0;
}

/* Every port listed by exactly one node, its own, within its count. */
static int _cache_refs(struct cache *c)
{
	for (size_t i = 0; i < c->nrefs; i++) {
		const struct cache_key *p =
			_key_find(c->ports, c->np, c->refs[i].guid, c->refs[i].port);

		if (!p || c->used[p - c->ports] ||
		    _le(c->b + p->at + 13 + CACHE_SMP, 8) != c->nguid[c->refs[i].at] ||
		    p->port > c->numports[c->refs[i].at])
			return _cache_bad(c, "a node listing a port that is missing, another "
					     "node's, listed twice or beyond its port count");
		c->used[p - c->ports] = 1;
	}
	for (size_t i = 0; i < c->np; i++)
		if (!c->used[i])
			return _cache_bad(c, "a port that no node lists");
	return 0;
}

static int _cache_check(const char *path, char *err, size_t errlen)
{
	struct cache c = { 0 };
	int rc;

	if (_cache_read(path, &c, err, errlen))
		return -1;
	rc = (_cache_header(&c) || _cache_nodes(&c) || _cache_ports(&c) || _cache_unique(&c) ||
	      _cache_links(&c) || _cache_refs(&c))
		     ? -1
		     : 0;
	if (rc && !c.why)
		fs_errf(err, errlen, "out of memory");
	else if (rc)
		fs_errf(err, errlen,
			"%s: not a valid ibnetdiscover cache (%s); expected a file "
			"written by 'ibnetdiscover --cache'",
			path, c.why);
	free(c.b);
	free(c.nodes);
	free(c.numports);
	free(c.ntype);
	free(c.nguid);
	free(c.ports);
	free(c.used);
	free(c.refs);
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
		return fs_errf(err, errlen,
			       "%s: not a readable ibnetdiscover cache; expected a file "
			       "written by 'ibnetdiscover --cache'",
			       path);
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
	return fs_errf(err, errlen,
		       "live discovery unavailable: fabsched was built without libibnetdisc");
}

int fst_load_cache(struct fst_model **out, const char *path, char *err, size_t errlen)
{
	*out = NULL;
	return fs_errf(err, errlen, "%s: cache files need libibnetdisc, which this build lacks",
		       path);
}

int fst_local_ports(struct fst_local_port *out, int max, char *err, size_t errlen)
{
	(void)out;
	(void)max;
	return fs_errf(err, errlen,
		       "live discovery unavailable: fabsched was built without libibnetdisc");
}
#endif
