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

int fst_load_cache(struct fst_model **out, const char *path, char *err, size_t errlen)
{
	ibnd_fabric_t *fab;
	int rc;

	*out = NULL;
	if (access(path, R_OK))
		return fs_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
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
