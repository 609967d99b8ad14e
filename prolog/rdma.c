/*
 * rdma.c - the checks of the job's HCA ports (FABSCHED_RDMA_DEVICES) under
 * a sysfs root: each port ACTIVE, at RdmaRate or faster, and holding the
 * P_Key of the job's account (AccountIbPkeys); a RoCE port's net device up
 * (at RoceMtu or more) with a RoCE v2 GID (RoceGidFamily); and the
 * variables that tell the job's tasks which key to use.
 *
 * sysfs: /sys/class/infiniband/<dev>/ports/<n>/{state,phys_state,rate,
 * link_layer} through the gres inventory; ports/<n>/pkeys/<index> ("0x%04x"
 * per entry, 0x0000 for an empty slot) read here.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs_env.h"
#include "fabsched_gres.h"
#include "fabsched_prolog.h"
#include "fs_ib.h"
#include "prolog_private.h"

#define PKEY_TABLE_MAX 65536 /* entries read from one port */
#define PKEY_LIST_SHOWN 6    /* entries quoted in a message */

struct _entry {
	unsigned idx;
	uint16_t key;
};

static int _cmp_entry(const void *a, const void *b)
{
	const struct _entry *x = a, *y = b;

	return (x->idx > y->idx) - (x->idx < y->idx);
}

/*
 * Read the P_Key table of <root>/.../<dev>/ports/<port> into *tab (malloc'ed,
 * *n entries, by index; empty slots 0x0000 left out).  -1 with a message
 * on an unreadable or malformed table.
 */
static int _pkey_table(const char *root, const char *dev, unsigned port, uint16_t key,
		       struct _entry **tab, size_t *n, char *err, size_t errlen)
{
	char dir[FS_PL_PATH + 128], path[FS_PL_PATH + 128 + 258], line[32];
	char esc[FS_ESCAPE_SIZE];
	struct _entry *t = NULL;
	size_t cnt = 0, cap = 0, seen = 0;
	struct dirent *e;
	DIR *d;

	*tab = NULL;
	*n = 0;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/sys/class/infiniband/%s/ports/%u/pkeys", root,
			     dev, port) >= sizeof(dir))
		return fs_errf(err, errlen, "sysfs root too long");
	if (!(d = opendir(dir)))
		return fs_errf(err, errlen,
			       "RDMA device %s port %u: no P_Key "
			       "table to look for P_Key 0x%04x in (%s: %s)",
			       dev, port, key, dir, strerror(errno));
	while ((e = readdir(d))) {
		char *end;
		unsigned long idx;
		uint16_t k;

		if (e->d_name[0] == '.')
			continue;
		errno = 0;
		idx = strtoul(e->d_name, &end, 10);
		if (!isdigit((unsigned char)e->d_name[0]) || *end || errno ||
		    idx >= PKEY_TABLE_MAX || ++seen > PKEY_TABLE_MAX) {
			fs_errf(err, errlen,
				"%s/%s: unexpected entry; expected "
				"P_Key indexes 0..65535",
				dir, fs_escape(esc, sizeof(esc), e->d_name, strlen(e->d_name)));
			goto fail;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (fs_pl_read_line(path, line, sizeof(line), err, errlen))
			goto fail;
		if (strlen(line) != 6 || line[0] != '0' || line[1] != 'x' ||
		    !isxdigit((unsigned char)line[2]) || !isxdigit((unsigned char)line[3]) ||
		    !isxdigit((unsigned char)line[4]) || !isxdigit((unsigned char)line[5])) {
			fs_errf(err, errlen,
				"%s: \"%s\": malformed P_Key; "
				"expected 0x and 4 hexadecimal digits, e.g. "
				"0xffff",
				path, fs_escape(esc, sizeof(esc), line, strlen(line)));
			goto fail;
		}
		k = (uint16_t)strtoul(line + 2, NULL, 16);
		if (!(k & FS_PKEY_PARTITION))
			continue; /* empty slot (0x0000), or invalid */
		if (cnt == cap) {
			struct _entry *nt;

			cap = cap ? cap * 2 : 16;
			if (!(nt = realloc(t, cap * sizeof(*t)))) {
				fs_errf(err, errlen, "out of memory");
				goto fail;
			}
			t = nt;
		}
		t[cnt].idx = (unsigned)idx;
		t[cnt++].key = k;
	}
	closedir(d);
	if (cnt > 1)
		qsort(t, cnt, sizeof(*t), _cmp_entry);
	*tab = t;
	*n = cnt;
	return 0;
fail:
	closedir(d);
	free(t);
	return -1;
}

/*
 * Where key sits in the table: its index, or -1.  A full member key needs
 * a full member entry; a limited one takes either, a full member entry
 * first (as UCX picks it), then the lowest index.
 */
static int _pkey_index(const struct _entry *t, size_t n, uint16_t key)
{
	int limited = -1;

	for (size_t i = 0; i < n; i++) {
		if ((t[i].key & FS_PKEY_PARTITION) != (key & FS_PKEY_PARTITION))
			continue;
		if (t[i].key & FS_PKEY_FULL)
			return (int)t[i].idx;
		if (!(key & FS_PKEY_FULL) && limited < 0)
			limited = (int)t[i].idx;
	}
	return limited;
}

/* The table's entries for a message: "0xffff 0x0002", "empty". */
static const char *_pkey_list(const struct _entry *t, size_t n, char *buf, size_t bufsz)
{
	size_t o = 0;

	snprintf(buf, bufsz, "empty");
	for (size_t i = 0; i < n && i <= PKEY_LIST_SHOWN && o < bufsz; i++)
		o += (size_t)(i == PKEY_LIST_SHOWN ? snprintf(buf + o, bufsz - o, " ...")
						   : snprintf(buf + o, bufsz - o, "%s0x%04x",
							      i ? " " : "", t[i].key));
	return buf;
}

/* A RoCE port whose GID table names its net device (kernels from 4.8):
 * the device up (or of unknown state), its MTU at least RoceMtu, a RoCE v2
 * GID of the family RoceGidFamily names. */
/* RocePfc: PFC on for the priority of the job's RoCE traffic on the
 * port's net device, where its driver has DCB. */
static int _check_pfc(const char *dev, const struct fs_gres_port *p,
		      const struct fs_pl_rdma_want *want, struct fs_pl_rdma_got *got, char *err,
		      size_t errlen)
{
	struct fs_dcb *d = calloc(1, sizeof(*d));
	char m[FS_MSG_SIZE], on[32], why[96];
	bool by_dscp;
	int rc, prio;

	if (!d)
		return fs_errf(err, errlen, "out of memory");
	rc = (want->dcb_read ? want->dcb_read : fs_dcb_read)(p->netdev, d, m, sizeof(m));
	if (rc < 0) {
		free(d);
		return fs_errf(err, errlen,
			       "RDMA device %s port %u: cannot read the DCB settings of its net "
			       "device (RocePfc): %s",
			       dev, p->num, m);
	}
	if (rc > 0 || !d->has_pfc) {
		got->nodcb++; /* no DCB in its driver: nothing to check */
		free(d);
		return 0;
	}
	prio = fs_dcb_job_prio(d, want->roce_tclass, want->roce_sl, &by_dscp);
	if (!(d->pfc_en & (1u << prio))) {
		if (by_dscp)
			snprintf(why, sizeof(why),
				 "DSCP %d (RoceTrafficClass %d) in its DSCP table",
				 want->roce_tclass > 0 ? want->roce_tclass >> 2 : 0,
				 want->roce_tclass < 0 ? 0 : want->roce_tclass);
		else
			snprintf(why, sizeof(why), "VLAN priority (RoceServiceLevel %d)",
				 want->roce_sl < 0 ? 0 : want->roce_sl);
		rc = fs_errf(
			err, errlen,
			"RDMA device %s port %u: its net device %s has PFC off for priority %d, "
			"that of the jobs' RoCE traffic by %s (PFC on: %s); expected on (RocePfc)",
			dev, p->num, p->netdev, prio, why, fs_dcb_pfc_list(d, on, sizeof(on)));
		free(d);
		return rc;
	}
	got->npfc++;
	free(d);
	return 0;
}

static int _check_roce(const char *dev, const struct fs_gres_port *p,
		       const struct fs_pl_rdma_want *want, struct fs_pl_rdma_got *got, char *err,
		       size_t errlen)
{
	const char *fam = want->roce_ipv6 ? "IPv6" : "IPv4";

	if (!p->netdev || !p->netdev[0])
		return 0;
	got->nroce++;
	if (p->operstate && p->operstate[0] && strcmp(p->operstate, "up") &&
	    strcmp(p->operstate, "unknown"))
		return fs_errf(err, errlen,
			       "RDMA device %s port %u: its net device %s is %s, expected up", dev,
			       p->num, p->netdev, p->operstate);
	if (want->roce_mtu && p->mtu && p->mtu < want->roce_mtu)
		return fs_errf(err, errlen,
			       "RDMA device %s port %u: its net device %s has MTU %u, expected at "
			       "least %u (RoceMtu)",
			       dev, p->num, p->netdev, p->mtu, want->roce_mtu);
	if ((want->roce_ipv6 ? p->gid_v2_ipv6 : p->gid_v2_ipv4) < 0)
		return fs_errf(err, errlen,
			       "RDMA device %s port %u: no RoCE v2 GID of an %s address in its GID "
			       "table (RoceGidFamily=%s); expected the %s address of %s there",
			       dev, p->num, fam, want->roce_ipv6 ? "ipv6" : "ipv4",
			       want->roce_ipv6 ? "global IPv6" : "IPv4", p->netdev);
	return want->roce_pfc ? _check_pfc(dev, p, want, got, err, errlen) : 0;
}

static int _check_port(const char *root, const char *dev, const struct fs_gres_port *p,
		       const struct fs_pl_rdma_want *want, struct fs_pl_rdma_got *got, char *err,
		       size_t errlen)
{
	char a[32], b[32];
	uint64_t mbps;

	got->nports++;
	got->inactive += !p->active;
	if (!p->active)
		return fs_errf(err, errlen,
			       "RDMA device %s port %u: state %s "
			       "(physical state %s), expected ACTIVE",
			       dev, p->num, p->state_name,
			       p->phys_state_name && *p->phys_state_name ? p->phys_state_name
									 : "unknown");
	if (!want)
		return 0;
	if (want->rate) {
		fs_format_rate(want->rate, b, sizeof(b));
		if (!p->rate || !p->rate[0])
			return fs_errf(err, errlen,
				       "RDMA device %s port %u: rate "
				       "unknown (no sysfs rate file), expected "
				       "at least %s Gb/s (RdmaRate)",
				       dev, p->num, b);
		if (fs_parse_sysfs_rate(p->rate, &mbps)) {
			char esc[FS_ESCAPE_SIZE];

			return fs_errf(err, errlen,
				       "RDMA device %s port %u: rate "
				       "\"%s\" not understood, expected at least "
				       "%s Gb/s (RdmaRate) in the form \"100 "
				       "Gb/sec (4X EDR)\"",
				       dev, p->num,
				       fs_escape(esc, sizeof(esc), p->rate, strlen(p->rate)), b);
		}
		if (mbps < want->rate)
			return fs_errf(err, errlen,
				       "RDMA device %s port %u: rate "
				       "%s Gb/s (%s), expected at least %s Gb/s "
				       "(RdmaRate)",
				       dev, p->num, fs_format_rate(mbps, a, sizeof(a)), p->rate, b);
	}
	if (_check_roce(dev, p, want, got, err, errlen))
		return -1;
	if (want->pkey && !(p->link_layer && !strcmp(p->link_layer, "Ethernet"))) {
		char shown[128];
		struct _entry *t;
		size_t n;
		int idx;

		if (_pkey_table(root, dev, p->num, want->pkey, &t, &n, err, errlen))
			return -1;
		idx = _pkey_index(t, n, want->pkey);
		if (idx < 0) {
			_pkey_list(t, n, shown, sizeof(shown));
			free(t);
			if (got)
				got->pkey_missing = true;
			return fs_errf(err, errlen,
				       "RDMA device %s port %u: P_Key "
				       "0x%04x of account %s not in the port's "
				       "P_Key table (%s); expected a %s member "
				       "entry set by the subnet manager",
				       dev, p->num, want->pkey, want->account ? want->account : "?",
				       shown,
				       want->pkey & FS_PKEY_FULL ? "full" : "full or limited");
		}
		free(t);
		if (!got->npkey++)
			got->pkey_index = idx;
		else if (got->pkey_index != idx)
			got->pkey_index = -2; /* differs: none for NCCL */
	}
	return 0;
}

int fs_pl_rdma_verify(const char *sysfs_root, const char *list, const struct fs_pl_rdma_want *want,
		      struct fs_pl_rdma_got *got, char *err, size_t errlen)
{
	struct fs_gres_inventory *inv = calloc(1, sizeof(*inv));
	struct fs_pl_rdma_got g = { .pkey_index = -1 };
	char buf[1024], gmsg[FS_MSG_SIZE], *save = NULL;
	const char *root = sysfs_root ? sysfs_root : "";
	int rc = 0;

	if (got)
		*got = g;
	if (!inv)
		return fs_errf(err, errlen, "RDMA: out of memory");
	if (fs_gres_hca_scan(root, inv, gmsg, sizeof(gmsg))) {
		fs_gres_inventory_free(inv);
		return fs_errf(err, errlen, "RDMA: %s", gmsg);
	}
	snprintf(buf, sizeof(buf), "%s", list ? list : "");
	for (char *d = strtok_r(buf, ",", &save); d && !rc; d = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(d, ':');
		unsigned port = 0;
		const struct fs_gres_hca *h;
		bool seen = false;

		if (colon) {
			*colon = 0;
			port = (unsigned)strtoul(colon + 1, NULL, 10);
		}
		if (!(h = fs_gres_hca_find(inv, d))) {
			rc = fs_errf(err, errlen,
				     "RDMA device %s: not found on "
				     "this node",
				     d);
			break;
		}
		for (size_t k = 0; k < h->nports && !rc; k++) {
			if (port && h->ports[k].num != port)
				continue;
			seen = true;
			rc = _check_port(root, d, &h->ports[k], want, &g, err, errlen);
		}
		if (!rc && !seen)
			rc = fs_errf(err, errlen, "RDMA device %s: no port %u", d, port);
	}
	if (g.pkey_index < 0)
		g.pkey_index = -1;
	if (got)
		*got = g;
	fs_gres_inventory_free(inv);
	return rc;
}

int fs_pl_rdma_check(const char *sysfs_root, const char *list, char *err, size_t errlen)
{
	return fs_pl_rdma_verify(sysfs_root, list, NULL, NULL, err, errlen);
}

void fs_pl_pkey_print(FILE *out, const char *prefix, uint16_t pkey,
		      const struct fs_pl_rdma_got *got)
{
	if (!pkey)
		return;
	fprintf(out, "%s" FS_ENV_IB_PKEY "=0x%04x\n", prefix, pkey);
	/* UCX and Open MPI's openib take the 15-bit partition and find its
	   entry in each port's table themselves */
	fprintf(out, "%sUCX_IB_PKEY=0x%04x\n", prefix, pkey & FS_PKEY_PARTITION);
	fprintf(out, "%sOMPI_MCA_btl_openib_pkey=0x%04x\n", prefix, pkey & FS_PKEY_PARTITION);
	/* NCCL takes an index into the table, one for all its ports */
	if (got && got->npkey && got->pkey_index >= 0)
		fprintf(out, "%sNCCL_IB_PKEY=%d\n", prefix, got->pkey_index);
}
