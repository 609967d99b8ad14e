/*
 * records.c - what slurmd's gres plugins decide for the records of a node
 * and for their unit table: whether to autodetect, which HCAs and pools
 * make records, the records' cores as Slurm accepts them, and each unit's
 * name (see fabsched_gres.h).  The plugins only convert to and from
 * Slurm's records, bitmaps and lists.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_gres.h"
#include "gres_private.h"

const char *fs_gres_autodetect_skip(bool off, int explicit_recs, bool inv)
{
	if (off)
		return "AutoDetect=off in gres.conf";
	if (explicit_recs)
		return "gres.conf describes it (File= or Cores=)";
	if (!inv)
		return "the node inventory could not be read";
	return NULL;
}

int fs_gres_clip_cpus(const char *cpus, uint32_t cpu_cnt, char **range, size_t *dropped, char *err,
		      size_t errlen)
{
	unsigned char *bits = NULL;
	size_t n = 0, keep = 0;

	*range = NULL;
	*dropped = 0;
	if (fs_gres_cpulist_parse(cpus, &bits, &n, err, errlen))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!bits[i])
			continue;
		if (i < cpu_cnt)
			keep++;
		else
			(*dropped)++;
	}
	if (keep && !(*range = fs_gres_cpulist_format(bits, n < cpu_cnt ? n : cpu_cnt))) {
		free(bits);
		return fs_errf(err, errlen, "out of memory");
	}
	free(bits);
	return 0;
}

int fs_gres_widen_cores(const char *cores, int sockets, int per, bool one, char **wide)
{
	unsigned char *bits = NULL, *all;
	size_t n = 0, total;
	char err[FS_MSG_SIZE];
	int rc;

	*wide = NULL;
	if (!cores || sockets <= 0 || per <= 0)
		return -1;
	total = (size_t)sockets * (size_t)per;
	if (fs_gres_cpulist_parse(cores, &bits, &n, err, sizeof(err)))
		return -1;
	if (!(all = calloc(total, 1))) {
		free(bits);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (bits[i] && i >= total) { /* not in this layout: kept */
			free(bits);
			free(all);
			return -1;
		}
		if (i < total)
			all[i] = bits[i];
	}
	free(bits);
	rc = fs_gres_socket_cores(all, sockets, per, one);
	if (rc == 1 && !(*wide = fs_gres_cpulist_format(all, total)))
		rc = -1;
	free(all);
	return rc;
}

const char *fs_gres_hca_skip(const struct fs_gres_hca *h)
{
	if (!h->nactive)
		return "has no ACTIVE port";
	if (!h->dev_path || !h->dev_path[0])
		return "has no uverbs device under /sys/class/infiniband_verbs";
	return NULL;
}

void fs_gres_roce_note(const struct fs_gres_hca *h, const struct fs_gres_port *pt, char *buf,
		       size_t size)
{
	char v4[16] = "none", v6[16] = "none", mtu[16] = "unknown";

	if (pt->gid_v2_ipv4 >= 0)
		snprintf(v4, sizeof(v4), "%d", pt->gid_v2_ipv4);
	if (pt->gid_v2_ipv6 >= 0)
		snprintf(v6, sizeof(v6), "%d", pt->gid_v2_ipv6);
	if (pt->mtu)
		snprintf(mtu, sizeof(mtu), "%u", pt->mtu);
	if (!pt->netdev || !pt->netdev[0])
		snprintf(buf, size, "%s port %u: RoCE, no net device in its GID table", h->name,
			 pt->num);
	else
		snprintf(
			buf, size,
			"%s port %u: RoCE on %s (MTU %s, %s): RoCE v2 GID index %s for IPv4, %s for IPv6",
			h->name, pt->num, pt->netdev, mtu,
			pt->operstate && pt->operstate[0] ? pt->operstate : "state unknown", v4,
			v6);
}

size_t fs_gres_hca_notes(const struct fs_gres_hca *h, char notes[][FS_MSG_SIZE], size_t max)
{
	size_t n = 0;

	for (size_t p = 0; p < h->nports && n < max; p++) {
		const struct fs_gres_port *pt = &h->ports[p];

		if (!pt->active)
			snprintf(notes[n++], FS_MSG_SIZE,
				 "%s port %u is %s "
				 "(physical state %s): not counted",
				 h->name, pt->num, pt->state_name ? pt->state_name : "?",
				 pt->phys_state_name && pt->phys_state_name[0] ? pt->phys_state_name
									       : "unknown");
		else if (pt->netdev)
			fs_gres_roce_note(h, pt, notes[n++], FS_MSG_SIZE);
	}
	return n;
}

/* The RoCE part of HCA h's unit: its first active port on Ethernet with a
 * net device. */
static void _roce_unit(struct fs_gres_unit *u, const struct fs_gres_hca *h,
		       const struct fs_gres_roce_conf *rc)
{
	for (size_t p = 0; p < h->nports; p++) {
		const struct fs_gres_port *pt = &h->ports[p];

		if (!pt->active || !pt->netdev || !pt->netdev[0] ||
		    strlen(pt->netdev) >= sizeof(u->roce.netdev))
			continue;
		snprintf(u->roce.netdev, sizeof(u->roce.netdev), "%s", pt->netdev);
		u->roce.gid = rc && rc->ipv6 ? pt->gid_v2_ipv6 : pt->gid_v2_ipv4;
		u->roce.tc = rc ? rc->tc : -1;
		u->roce.sl = rc ? rc->sl : -1;
		return;
	}
}

bool fs_gres_rdma_unit_set(struct fs_gres_unit *u, const struct fs_gres_inventory *inv,
			   const char *file, const char *rec_cpus,
			   const struct fs_gres_roce_conf *rc)
{
	const struct fs_gres_hca *h = file ? fs_gres_hca_by_uverbs(inv, file) : NULL;
	const char *base = file ? strrchr(file, '/') : NULL;
	size_t o = 0;

	u->ports[0] = '\0';
	if (!h) {
		snprintf(u->label, sizeof(u->label), "%s",
			 base ? base + 1 : (file ? file : "rdma"));
		u->cpus = strdup(rec_cpus ? rec_cpus : "");
		return false;
	}
	snprintf(u->label, sizeof(u->label), "%s", h->name);
	for (size_t p = 0; p < h->nports && o + 8 < sizeof(u->ports); p++)
		if (h->ports[p].active)
			o += (size_t)snprintf(u->ports + o, sizeof(u->ports) - o, "%s%u",
					      o ? "," : "", h->ports[p].num);
	u->cpus = strdup(h->cpus ? h->cpus : "");
	_roce_unit(u, h, rc);
	return true;
}

int fs_gres_huge_unit_set(struct fs_gres_unit *u, const char *file, const char *type, char *err,
			  size_t errlen)
{
	snprintf(u->label, sizeof(u->label), "%s", type ? type : "-");
	for (const char *p = file; p && (p = strstr(p, "/node")); p += 5)
		if (isdigit((unsigned char)p[5])) {
			u->numa = atoi(p + 5);
			break;
		}
	u->cpus = strdup("");
	return fs_gres_unit_huge_type(u, err, errlen);
}

void fs_gres_units_held(const struct fs_gres_units *t, const uint8_t *bits, size_t nbits,
			uint64_t *held)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct fs_gres_unit *u = &t->u[i];

		held[i] = 0;
		for (uint64_t k = u->first; k < u->first + u->count && k < nbits; k++)
			held[i] += bits[k] != 0;
	}
}

int fs_gres_huge_node_plan(const struct fs_gres_inventory *inv, struct fs_hp_units *fixed,
			   struct fs_gres_huge_rec **recs, size_t *nrecs, char *warn, size_t warnsz,
			   char *err, size_t errlen)
{
	char m[FS_MSG_SIZE];

	*recs = NULL;
	*nrecs = 0;
	if (warnsz)
		warn[0] = '\0';
	if (fixed->n && fs_gres_huge_plan(inv->pools, inv->npools, FS_GRES_MAX_INDEXED, fixed, recs,
					  nrecs, m, sizeof(m))) {
		snprintf(warn, warnsz,
			 "%s; counting this node's pages in units "
			 "of its own, which requests in pages on several nodes "
			 "will not fit",
			 m);
		fixed->n = 0;
	}
	if (!fixed->n)
		return fs_gres_huge_plan(inv->pools, inv->npools, FS_GRES_MAX_INDEXED, NULL, recs,
					 nrecs, err, errlen);
	return 0;
}

size_t fs_gres_huge_rec_notes(const struct fs_gres_huge_rec *r, const struct fs_hp_units *fixed,
			      char notes[][FS_MSG_SIZE], char *file, size_t filesz)
{
	size_t n = 0;

	snprintf(file, filesz,
		 "/sys/devices/system/node/node%d/hugepages/"
		 "hugepages-%" PRIu64 "kB",
		 r->numa_node, r->page_kb);
	if (r->per_unit > 1)
		snprintf(notes[n++], FS_MSG_SIZE,
			 "NUMA node %d: %" PRIu64 " pages counted in units of %" PRIu64
			 " (Type=%s): %s",
			 r->numa_node, r->units * r->per_unit + r->left, r->per_unit, r->type,
			 fs_hp_units_of(fixed, r->page_kb)
				 ? "HugepageUnits in fabsched.conf"
				 : "the node's pages exceed the units Slurm indexes per node");
	if (r->left)
		snprintf(notes[n++], FS_MSG_SIZE,
			 "NUMA node %d: %" PRIu64 " page(s) of %" PRIu64
			 " KiB short of a whole unit: not "
			 "schedulable",
			 r->numa_node, r->left, r->page_kb);
	return n;
}
