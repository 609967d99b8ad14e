/*
 * gres/rdma and gres/hugepages - Slurm glue of fabsched's node inventory
 * (gres/).  One source, built once per resource (FS_GRES_NAME) and per
 * release: 22.05 and 24.11 differ only in names (the interface header,
 * list_t, and the prolog/epilog hooks: epilog_build_env/epilog_set_env in
 * 22.05, prep_build_env/prep_set_env in 24.11), mapped below.
 *
 * slurmd (gres_p_node_config_load): unless gres.conf describes the
 * resource itself (records with File= or Cores=) or says AutoDetect=off,
 * the records of slurm.conf are replaced by what the node holds:
 *   rdma       one record per HCA with an ACTIVE port: Type=<model>
 *              File=/dev/infiniband/uverbsN Cores=<NUMA-local cores>
 *   hugepages  one record per NUMA node and page size: Type=2m|1g
 *              Count=<pages in the pool> Cores=<that node's cores>
 *              File=<the pool's sysfs directory>; when the node's pages
 *              exceed the 1024 units Slurm indexes per node, a page size
 *              is counted in blocks of 2^k pages instead (Type=2mx8)
 * A table of the records (gres index -> HCA or NUMA node) is kept, handed
 * to slurmstepd (send/recv_stepd) and used for the job, step, task and
 * prolog/epilog environment.  Bad input is logged, never fatal.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fs_env.h"
#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/bitstring.h"
#include "src/common/env.h"
#include "src/common/list.h"
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
#include "src/interfaces/gres.h"
typedef list_t *fs_list_t;
typedef hostlist_t *fs_hostlist_t;
typedef gres_prep_t fs_prep_t;
#define FS_PREP_BUILD_ENV gres_p_prep_build_env
#define FS_PREP_SET_ENV gres_p_prep_set_env
#else
#include "src/common/gres.h"
typedef List fs_list_t;
typedef hostlist_t fs_hostlist_t;
typedef gres_epilog_info_t fs_prep_t;
#define FS_PREP_BUILD_ENV gres_p_epilog_build_env
#define FS_PREP_SET_ENV gres_p_epilog_set_env
#endif
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/pack.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "fabsched_gres.h"

#ifndef FS_GRES_NAME
#error "FS_GRES_NAME must name the resource (rdma or hugepages)"
#endif

const char plugin_name[] = "fabsched gres/" FS_GRES_NAME " plugin";
const char plugin_type[] = "gres/" FS_GRES_NAME;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static int _is_rdma(void)
{
	return !strcmp(FS_GRES_NAME, "rdma");
}

/* ------------------------------------------------------------ unit table */

/* A run of gres indices [first, first + count) given by one record. */
struct unit {
	uint64_t first, count;
	char label[64];		/* rdma: HCA name; hugepages: gres type */
	int numa;		/* hugepages: NUMA node, -1 unknown */
	uint64_t page_kb;	/* hugepages: page size (0 unknown type) */
	uint64_t per_unit;	/* hugepages: pages per gres unit */
	char ports[64];		/* rdma: active ports "1,2", or "" */
	char *cpus;		/* machine CPUs (cpulist), malloc'ed */
};

static struct unit *_units;
static size_t _nunits;

static void _units_free(void)
{
	for (size_t i = 0; i < _nunits; i++)
		free(_units[i].cpus);
	free(_units);
	_units = NULL;
	_nunits = 0;
}

static struct unit *_unit_add(void)
{
	struct unit *n = realloc(_units, (_nunits + 1) * sizeof(*n));

	if (!n)
		return NULL;
	_units = n;
	memset(&n[_nunits], 0, sizeof(*n));
	n[_nunits].numa = -1;
	return &n[_nunits++];
}

/* hugepages: page size and pages per unit from the record's type */
static void _unit_type(struct unit *u)
{
	char msg[FS_MSG_SIZE];

	u->page_kb = 0;
	u->per_unit = 1;
	if (_is_rdma())
		return;
	if (fs_gres_huge_type_parse(u->label, &u->page_kb, &u->per_unit, msg,
				    sizeof(msg))) {
		error("%s: %s: its pages are not passed to the job", plugin_type,
		      msg);
		u->page_kb = 0;
		u->per_unit = 1;
	}
}

/* one line per unit: first count label numa ports cpus ('-' for empty) */
static char *_units_serialize(void)
{
	char *s = NULL;

	for (size_t i = 0; i < _nunits; i++) {
		struct unit *u = &_units[i];

		xstrfmtcat(s, "%" PRIu64 " %" PRIu64 " %s %d %s %s\n",
			   u->first, u->count, u->label[0] ? u->label : "-",
			   u->numa, u->ports[0] ? u->ports : "-",
			   u->cpus && u->cpus[0] ? u->cpus : "-");
	}
	return s;
}

static int _units_parse(const char *s)
{
	const char *p = s;

	_units_free();
	while (p && *p) {
		char label[64], ports[64], cpus[8192];
		unsigned long long first, count;
		struct unit *u;
		int numa, n = 0;

		if (sscanf(p, "%llu %llu %63s %d %63s %8191s%n", &first, &count,
			   label, &numa, ports, cpus, &n) != 6 || !n)
			return -1;
		if (!(u = _unit_add()))
			return -1;
		u->first = first;
		u->count = count;
		u->numa = numa;
		if (strcmp(label, "-"))
			snprintf(u->label, sizeof(u->label), "%s", label);
		if (strcmp(ports, "-"))
			snprintf(u->ports, sizeof(u->ports), "%s", ports);
		u->cpus = strdup(strcmp(cpus, "-") ? cpus : "");
		_unit_type(u);
		p += n;
		while (*p == '\n' || *p == ' ')
			p++;
	}
	return 0;
}

static struct unit *_unit_of(uint64_t index)
{
	for (size_t i = 0; i < _nunits; i++)
		if (index >= _units[i].first &&
		    index < _units[i].first + _units[i].count)
			return &_units[i];
	return NULL;
}

/* ------------------------------------------------------------ helpers */

static int _mine(void *x, void *arg)
{
	gres_slurmd_conf_t *rec = x;

	return rec->plugin_id == *(uint32_t *) arg;
}

struct scan {
	uint32_t id;
	int records, explicit_recs;
	uint64_t count;
};

static int _scan_rec(void *x, void *arg)
{
	gres_slurmd_conf_t *rec = x;
	struct scan *sc = arg;

	if (rec->plugin_id != sc->id)
		return 0;
	sc->records++;
	sc->count += rec->count;
	if (rec->file || rec->cpus)
		sc->explicit_recs++;
	return 0;
}

/* The sysfs root: $FABSCHED_SYSFS_ROOT (%h = short host name), else /. */
static int _sysfs_root(char **root)
{
	char host[256] = "", msg[FS_MSG_SIZE];
	const char *spec = getenv(FS_GRES_SYSFS_ENV);

	if (gethostname(host, sizeof(host) - 1) == 0) {
		char *dot = strchr(host, '.');

		if (dot)
			*dot = '\0';
	}
	if (fs_gres_sysfs_root(spec, host, root, msg, sizeof(msg))) {
		error("%s: %s=%s: %s", plugin_type, FS_GRES_SYSFS_ENV, spec,
		      msg);
		return -1;
	}
	return 0;
}

/*
 * Machine cpulist -> (machine bitmap of cpu_cnt bits, Slurm abstract core
 * range).  CPUs at or beyond cpu_cnt are dropped, as slurmd itself does.
 * Returns 0, or -1 when nothing usable is left.
 */
/*
 * From 23.02 on, slurmctld refuses a node (state INVAL) whose GRES core
 * affinity covers part of a socket (gres.c, _check_core_range_matches_sock),
 * as a NUMA-local HCA or hugepage pool does on machines with several NUMA
 * nodes per socket.  There each record's cores (@abs, a core list) are
 * widened to the whole sockets they touch, in the socket layout of this
 * node's slurm.conf record, and the widening is logged.  22.05 keeps the
 * NUMA-exact cores.
 */
static void _whole_sockets(char **abs)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
	char *name = slurm_conf_get_aliased_nodename(), *wide;
	node_record_t *np = name ? find_node_record2(name) : NULL;
	int per, n;
	bitstr_t *b;
	bool changed = false;

	if (!np || !*abs || !np->cores || !np->tot_sockets) {
		debug("%s: socket layout of %s unknown: cores %s kept",
		      plugin_type, name ? name : "this node", *abs ? *abs : "-");
		xfree(name);
		return;
	}
	per = np->cores;
	n = per * np->tot_sockets;
	b = bit_alloc(n);
	if (bit_unfmt(b, *abs) != SLURM_SUCCESS) {
		FREE_NULL_BITMAP(b);
		xfree(name);
		return;
	}
	for (int s = 0; s < np->tot_sockets; s++) {
		int have = bit_set_count_range(b, s * per, (s + 1) * per);

		if (have && have != per) {
			bit_nset(b, s * per, (s + 1) * per - 1);
			changed = true;
		}
	}
	if (changed) {
		wide = bit_fmt_full(b);
		info("%s: cores %s widened to whole sockets %s: Slurm %s binds a GRES to whole sockets (%d cores each on %s)",
		     plugin_type, *abs, wide, SLURM_VERSION_STRING, per, name);
		xfree(*abs);
		*abs = wide;
	}
	FREE_NULL_BITMAP(b);
	xfree(name);
#endif
}

static int _cores(node_config_load_t *config, const char *cpus,
		  bitstr_t **mac_out, char **abs_out)
{
	unsigned char *bits = NULL;
	size_t n = 0, dropped = 0;
	char msg[FS_MSG_SIZE], *range, *abs = NULL;
	bitstr_t *mac;

	*mac_out = NULL;
	*abs_out = NULL;
	if (fs_cpulist_parse(cpus, &bits, &n, msg, sizeof(msg))) {
		error("%s: %s", plugin_type, msg);
		return -1;
	}
	mac = bit_alloc(config->cpu_cnt);
	for (size_t i = 0; i < n; i++) {
		if (!bits[i])
			continue;
		if (i < config->cpu_cnt)
			bit_set(mac, i);
		else
			dropped++;
	}
	free(bits);
	if (dropped)
		verbose("%s: %zu CPU(s) of %s lie beyond the node's %u CPUs",
			plugin_type, dropped, cpus, config->cpu_cnt);
	if (!bit_set_count(mac)) {
		FREE_NULL_BITMAP(mac);
		return -1;
	}
	range = bit_fmt_full(mac);
	if (config->xcpuinfo_mac_to_abs &&
	    config->xcpuinfo_mac_to_abs(range, &abs)) {
		error("%s: CPUs %s: no core mapping", plugin_type, range);
		xfree(range);
		FREE_NULL_BITMAP(mac);
		return -1;
	}
	xfree(range);
	_whole_sockets(&abs);
	*mac_out = mac;
	*abs_out = abs;
	return 0;
}

static void _set_env(char ***env, const char *name, const char *value)
{
	if (!env)
		return;
	if (!*env)
		*env = env_array_create();
	env_array_overwrite(env, name, value);
}

static void _unset_env(char ***env, const char *name)
{
	if (env && *env)
		unsetenvp(*env, name);
}

/* ------------------------------------------------------------ rdma */

/* One autodetected record (Slurm's add_gres_to_list, whose arguments
 * changed between releases). */
static void _add_record(fs_list_t out, const char *name, uint64_t count,
			uint32_t cpu_cnt, char *abs, bitstr_t *mac,
			const char *file, const char *type)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
	gres_slurmd_conf_t rec = {
		.config_flags = GRES_CONF_AUTODETECT,
		.count = count,
		.cpu_cnt = cpu_cnt,
		.cpus = abs,
		.cpus_bitmap = mac,
		.file = (char *) file,
		.name = (char *) name,
		.type_name = (char *) type,
	};

	add_gres_to_list(out, &rec);
#else
	add_gres_to_list(out, (char *) name, count, cpu_cnt, abs, mac,
			 (char *) file, (char *) type, NULL, NULL, 0);
#endif
}

static void _rdma_log_ports(const struct fs_gres_hca *h)
{
	for (size_t p = 0; p < h->nports; p++) {
		const struct fs_gres_port *pt = &h->ports[p];

		if (pt->active)
			continue;
		info("%s: %s port %u is %s (physical state %s): not counted",
		     plugin_type, h->name, pt->num, pt->state_name,
		     pt->phys_state_name[0] ? pt->phys_state_name : "unknown");
	}
}

static void _ports_str(const struct fs_gres_hca *h, char *buf, size_t sz)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t p = 0; p < h->nports && o + 8 < sz; p++)
		if (h->ports[p].active)
			o += (size_t)snprintf(buf + o, sz - o, "%s%u",
					      o ? "," : "", h->ports[p].num);
}

/* Autodetected records; returns how many were added to out. */
static int _rdma_detect(const struct fs_gres_inventory *inv,
			node_config_load_t *config, fs_list_t out)
{
	int n = 0;

	for (size_t i = 0; i < inv->nhca; i++) {
		const struct fs_gres_hca *h = &inv->hca[i];
		bitstr_t *mac = NULL;
		char *abs = NULL;

		_rdma_log_ports(h);
		if (!h->nactive) {
			info("%s: %s has no ACTIVE port: no gres record",
			     plugin_type, h->name);
			continue;
		}
		if (!h->dev_path[0]) {
			error("%s: %s has no uverbs device under "
			      "/sys/class/infiniband_verbs: no gres record",
			      plugin_type, h->name);
			continue;
		}
		if (_cores(config, h->cpus, &mac, &abs))
			verbose("%s: %s: no usable local CPUs (%s): no Cores",
				plugin_type, h->name, h->cpus);
		_add_record(out, "rdma", 1, config->cpu_cnt, abs, mac,
			    h->dev_path, h->type);
		verbose("%s: %s Type=%s File=%s Cores=%s (CPUs %s, %s)",
			plugin_type, h->name, h->type, h->dev_path,
			abs ? abs : "-", h->cpus, h->locality);
		FREE_NULL_BITMAP(mac);
		xfree(abs);
		n++;
	}
	return n;
}

struct build {
	const struct fs_gres_inventory *inv;
	uint32_t id;
	uint64_t next;
};

/* unit table entry for one rdma device file of a record */
static void _rdma_unit(struct build *b, gres_slurmd_conf_t *rec,
		       const char *file)
{
	const struct fs_gres_hca *h = fs_gres_hca_by_uverbs(b->inv, file);
	struct unit *u = _unit_add();

	if (!u)
		return;
	u->first = b->next++;
	u->count = 1;
	if (h) {
		snprintf(u->label, sizeof(u->label), "%s", h->name);
		_ports_str(h, u->ports, sizeof(u->ports));
		u->cpus = strdup(h->cpus);
	} else {
		const char *base = file ? strrchr(file, '/') : NULL;

		snprintf(u->label, sizeof(u->label), "%s",
			 base ? base + 1 : (file ? file : "rdma"));
		u->cpus = rec->cpus_bitmap ? NULL : strdup("");
		if (rec->cpus_bitmap) {
			char *r = bit_fmt_full(rec->cpus_bitmap);

			u->cpus = strdup(r);
			xfree(r);
		}
		if (file)
			verbose("%s: File=%s is no uverbs device of a known "
				"HCA: named %s in the environment", plugin_type,
				file, u->label);
	}
}

static int _build_units(void *x, void *arg)
{
	gres_slurmd_conf_t *rec = x;
	struct build *b = arg;

	if (rec->plugin_id != b->id)
		return 0;
	if (_is_rdma()) {
		if (rec->file) {
			fs_hostlist_t hl = slurm_hostlist_create(rec->file);
			char *f;
			uint64_t k = 0;

			while (hl && k < rec->count &&
			       (f = slurm_hostlist_shift(hl))) {
				_rdma_unit(b, rec, f);
				free(f);
				k++;
			}
			if (hl)
				slurm_hostlist_destroy(hl);
			b->next += rec->count - k;
		} else {
			b->next += rec->count;
		}
		return 0;
	} else {
		struct unit *u = _unit_add();
		const char *p;

		if (!u)
			return 0;
		u->first = b->next;
		u->count = rec->count;
		b->next += rec->count;
		snprintf(u->label, sizeof(u->label), "%s",
			 rec->type_name ? rec->type_name : "-");
		for (p = rec->file; p && (p = strstr(p, "/node")); p += 5)
			if (isdigit((unsigned char) p[5])) {
				u->numa = atoi(p + 5);
				break;
			}
		u->cpus = strdup("");
		_unit_type(u);
	}
	return 0;
}

/* ------------------------------------------------------------ hugepages */

/*
 * Slurm 22.05 keeps one bit per unit of a gres whose records have File=,
 * and refuses more than FS_GRES_MAX_INDEXED (1024) units per node.
 * Per-NUMA placement needs File=, so a node whose pages do not fit is
 * counted in blocks of pages (fs_gres_huge_plan): Type=2mx8 is a unit of
 * 8 2 MiB pages.
 */
static int _huge_detect(const struct fs_gres_inventory *inv,
			node_config_load_t *config, fs_list_t out)
{
	struct fs_gres_huge_rec *recs = NULL;
	size_t nrecs = 0;
	char msg[FS_MSG_SIZE];
	int n = 0;

	if (fs_gres_huge_plan(inv->pools, inv->npools, FS_GRES_MAX_INDEXED,
			      &recs, &nrecs, msg, sizeof(msg))) {
		error("%s: %s", plugin_type, msg);
		return 0;
	}
	for (size_t i = 0; i < inv->npools; i++)
		if (!inv->pools[i].total)
			verbose("%s: NUMA node %d: no %s pages in the pool",
				plugin_type, inv->pools[i].numa_node,
				inv->pools[i].type);
	for (size_t i = 0; i < nrecs; i++) {
		const struct fs_gres_huge_rec *r = &recs[i];
		const struct fs_gres_numa *nu = fs_gres_numa_find(inv,
								  r->numa_node);
		bitstr_t *mac = NULL;
		char *abs = NULL, file[160];

		if (r->per_unit > 1)
			info("%s: NUMA node %d: %" PRIu64 " pages counted in "
			     "units of %" PRIu64 " (Type=%s): the node's pages "
			     "exceed the %d units Slurm indexes per node",
			     plugin_type, r->numa_node,
			     r->units * r->per_unit + r->left, r->per_unit,
			     r->type, FS_GRES_MAX_INDEXED);
		if (r->left)
			info("%s: NUMA node %d: %" PRIu64 " page(s) of %" PRIu64
			     " KiB short of a whole unit: not schedulable",
			     plugin_type, r->numa_node, r->left, r->page_kb);
		if (!r->units)
			continue;
		if (!nu || _cores(config, nu->cpus, &mac, &abs))
			verbose("%s: NUMA node %d: CPUs unknown: no Cores",
				plugin_type, r->numa_node);
		snprintf(file, sizeof(file),
			 "/sys/devices/system/node/node%d/hugepages/"
			 "hugepages-%" PRIu64 "kB", r->numa_node, r->page_kb);
		_add_record(out, "hugepages", r->units, config->cpu_cnt, abs,
			    mac, file, r->type);
		verbose("%s: NUMA node %d Type=%s Count=%" PRIu64
			" Cores=%s", plugin_type, r->numa_node, r->type,
			r->units, abs ? abs : "-");
		FREE_NULL_BITMAP(mac);
		xfree(abs);
		n++;
	}
	free(recs);
	return n;
}

/* ------------------------------------------------------------ entry points */

extern int init(void)
{
	debug("%s: %s loaded", plugin_type, plugin_name);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	_units_free();
	return SLURM_SUCCESS;
}

/* slurmd: gres.conf and slurm.conf are merged into gres_conf_list. */
extern int gres_p_node_config_load(fs_list_t gres_conf_list,
				   node_config_load_t *config)
{
	uint32_t id = gres_build_id(FS_GRES_NAME);
	struct scan sc = { .id = id };
	struct fs_gres_inventory *inv = NULL;
	struct fs_gres_opts opts = { 0 };
	char msg[FS_MSG_SIZE], *root = NULL;
	const char *why = NULL;
	int n;

	_units_free();
	if (gres_conf_list)
		list_for_each(gres_conf_list, _scan_rec, &sc);
	verbose("%s: node configuration loaded, %d gres.conf record(s)",
		plugin_type, sc.records);
	if (!gres_conf_list || !config || !config->in_slurmd)
		return SLURM_SUCCESS;

	if (gres_get_autodetect_flags() & GRES_AUTODETECT_GPU_OFF)
		why = "AutoDetect=off in gres.conf";
	else if (sc.explicit_recs)
		why = "gres.conf describes it (File= or Cores=)";

	if (_sysfs_root(&root) == 0) {
		opts.sysfs_root = root;
		opts.what = FS_GRES_TOPO | FS_GRES_VERBS |
			(_is_rdma() ? FS_GRES_HCA : FS_GRES_HUGEPAGES);
		if (fs_gres_inventory_load(&opts, &inv, msg, sizeof(msg))) {
			error("%s: node inventory: %s", plugin_type, msg);
			inv = NULL;
		}
	}

	if (!why && !inv)
		why = "the node inventory could not be read";
	if (!why) {
		fs_list_t found = list_create(destroy_gres_slurmd_conf);

		n = _is_rdma() ? _rdma_detect(inv, config, found) :
				 _huge_detect(inv, config, found);
		if (n > 0) {
			list_delete_all(gres_conf_list, _mine, &id);
			list_transfer(gres_conf_list, found);
			info("%s: autodetected %d record(s) (sysfs root %s)",
			     plugin_type, n, root && root[0] ? root : "/");
		} else {
			info("%s: autodetection found nothing under %s: "
			     "keeping the %d configured record(s) (count %"
			     PRIu64 ")", plugin_type,
			     root && root[0] ? root : "/", sc.records,
			     sc.count);
		}
		FREE_NULL_LIST(found);
	} else {
		info("%s: no autodetection: %s", plugin_type, why);
	}

	{
		struct build b = { .inv = inv, .id = id };

		list_for_each(gres_conf_list, _build_units, &b);
	}
	fs_gres_inventory_free(inv);
	free(root);
	return SLURM_SUCCESS;
}

/* --- environment */

/* Allocated units, as rdma devices (names, ports, CPUs) in index order. */
struct rdma_sel {
	size_t n;
	struct fs_gres_rdma_dev dev[FS_GRES_RDMA_MAX];
	unsigned ports[FS_GRES_RDMA_MAX][FS_GRES_PORTS_MAX];
};

static void _rdma_select(bitstr_t *alloc, struct rdma_sel *s)
{
	int64_t size = alloc ? bit_size(alloc) : 0;

	memset(s, 0, sizeof(*s));
	for (int64_t i = 0; i < size && s->n < FS_GRES_RDMA_MAX; i++) {
		struct unit *u;
		size_t np = 0;
		const char *p;

		if (!bit_test(alloc, i) || !(u = _unit_of((uint64_t) i)))
			continue;
		for (p = u->ports; *p && np < FS_GRES_PORTS_MAX;) {
			s->ports[s->n][np++] = (unsigned) strtoul(p, (char **) &p, 10);
			if (*p == ',')
				p++;
			else
				break;
		}
		s->dev[s->n].name = u->label;
		s->dev[s->n].ports = s->ports[s->n];
		s->dev[s->n].nports = np;
		s->dev[s->n].cpus = u->cpus ? u->cpus : "";
		s->n++;
	}
}

static void _rdma_clear_env(char ***env)
{
	for (size_t i = 0; fs_gres_rdma_env_names[i]; i++)
		_unset_env(env, fs_gres_rdma_env_names[i]);
}

static void _apply(char ***env, struct fs_gres_env *e)
{
	for (size_t i = 0; i < e->n; i++)
		_set_env(env, e->name[i], e->value[i]);
	fs_gres_env_clear(e);
}

/* The variables of the allocated HCAs, FABSCHED_RDMA_LOCALITY included. */
static void _rdma_env(char ***env, bitstr_t *alloc)
{
	struct fs_gres_env e = { 0 };
	char msg[FS_MSG_SIZE];
	struct rdma_sel *s = xmalloc(sizeof(*s));

	_rdma_select(alloc, s);
	_rdma_clear_env(env);
	if (s->n && fs_gres_rdma_env(s->dev, s->n, &e, msg, sizeof(msg)))
		error("%s: %s", plugin_type, msg);
	else
		_apply(env, &e);
	xfree(s);
}

/* pages of one size on one NUMA node (-1: any) */
struct huge_part {
	uint64_t page_kb, pages;
	int numa;
};

static void _huge_add(struct huge_part *parts, size_t *n, uint64_t page_kb,
		      int numa, uint64_t pages)
{
	size_t k;

	for (k = 0; k < *n; k++)
		if (parts[k].page_kb == page_kb && parts[k].numa == numa)
			break;
	if (k == *n) {
		parts[k].page_kb = page_kb;
		parts[k].numa = numa;
		parts[k].pages = 0;
		(*n)++;
	}
	parts[k].pages += pages;
}

/*
 * The job's pages on this node, in pages whatever unit the records count
 * in: "2m:0=256,2m:8=256" (*s, NULL when none) and their total.  Without
 * a bitmap (records without File=) the count is the node's one type's,
 * on any NUMA node.
 */
static void _huge_alloc(bitstr_t *alloc, uint64_t cnt, char **s,
			uint64_t *total)
{
	struct huge_part *parts = xcalloc(_nunits + 1, sizeof(*parts));
	size_t n = 0;
	char page[16];

	*s = NULL;
	*total = 0;
	for (size_t i = 0; alloc && i < _nunits; i++) {
		struct unit *u = &_units[i];
		int64_t size = bit_size(alloc), last;
		uint64_t c = 0;

		if ((int64_t) u->first >= size)
			continue;
		last = (int64_t) (u->first + u->count);
		if (last > size)
			last = size;
		if (last > (int64_t) u->first)
			c = (uint64_t) bit_set_count_range(alloc, (int64_t) u->first,
							   last);
		if (!c || !u->page_kb)
			continue;
		_huge_add(parts, &n, u->page_kb, u->numa, c * u->per_unit);
	}
	if (!alloc && cnt) {
		struct unit *u0 = _nunits ? &_units[0] : NULL;

		for (size_t i = 1; u0 && i < _nunits; i++)
			if (_units[i].page_kb != u0->page_kb ||
			    _units[i].per_unit != u0->per_unit)
				u0 = NULL;
		if (u0 && u0->page_kb) {
			_huge_add(parts, &n, u0->page_kb, -1,
				  cnt * u0->per_unit);
		} else {
			error("%s: %" PRIu64 " unit(s) of records without File= "
			      "of several types: their page sizes are unknown; "
			      "expected one type per node, or autodetected "
			      "records (gres_hugepages(8))", plugin_type, cnt);
			*total = cnt;
		}
	}
	for (size_t k = 0; k < n; k++) {
		fs_gres_page_type(parts[k].page_kb, page, sizeof(page));
		if (parts[k].numa >= 0)
			xstrfmtcat(*s, "%s%s:%d=%" PRIu64, *s ? "," : "", page,
				   parts[k].numa, parts[k].pages);
		else
			xstrfmtcat(*s, "%s%s:any=%" PRIu64, *s ? "," : "", page,
				   parts[k].pages);
		*total += parts[k].pages;
	}
	xfree(parts);
}

static void _huge_env(char ***env, bitstr_t *alloc, uint64_t cnt)
{
	char *s = NULL, num[32];
	uint64_t total = 0;

	_huge_alloc(alloc, cnt, &s, &total);
	_unset_env(env, FS_ENV_HUGEPAGES);
	if (!total && !s) {
		_unset_env(env, FS_ENV_HUGEPAGES_COUNT);
		return;
	}
	snprintf(num, sizeof(num), "%" PRIu64, total);
	_set_env(env, FS_ENV_HUGEPAGES_COUNT, num);
	if (s)
		_set_env(env, FS_ENV_HUGEPAGES, s);
	xfree(s);
}

static void _env(char ***env, bitstr_t *alloc, uint64_t cnt)
{
	if (_is_rdma())
		_rdma_env(env, alloc);
	else
		_huge_env(env, alloc, cnt);
}

extern void gres_p_job_set_env(char ***job_env_ptr, bitstr_t *gres_bit_alloc,
			       uint64_t gres_cnt, gres_internal_flags_t flags)
{
	_env(job_env_ptr, gres_bit_alloc, gres_cnt);
}

extern void gres_p_step_set_env(char ***step_env_ptr, bitstr_t *gres_bit_alloc,
				uint64_t gres_cnt, gres_internal_flags_t flags)
{
	_env(step_env_ptr, gres_bit_alloc, gres_cnt);
}

/*
 * Called in the task after its CPU binding, but by Slurm 22.05 only when
 * the step has a binding option (--gpu-bind, --accel-bind); the SPANK
 * plugin does the same for every step.  The task's variables name the
 * HCA nearest its CPUs (fs_gres_rdma_task_env); FABSCHED_RDMA_LOCALITY
 * keeps every HCA of the step.
 */
extern void gres_p_task_set_env(char ***step_env_ptr, bitstr_t *gres_bit_alloc,
				uint64_t gres_cnt, bitstr_t *usable_gres,
				gres_internal_flags_t flags)
{
	struct fs_gres_env e = { 0 };
	char msg[FS_MSG_SIZE], *cpus, *end = NULL;
	const char *loc, *lid;
	unsigned long local = 0;

	debug("%s: task environment (%" PRIu64 " allocated)", plugin_type,
	      gres_cnt);
	if (!_is_rdma()) {
		_huge_env(step_env_ptr, gres_bit_alloc, gres_cnt);
		return;
	}
	_rdma_env(step_env_ptr, usable_gres ? usable_gres : gres_bit_alloc);
	if (!step_env_ptr || !*step_env_ptr ||
	    !(loc = getenvp(*step_env_ptr, FS_GRES_RDMA_LOCALITY_ENV)))
		return;
	/* the local task id spreads tasks over equally near HCAs */
	if ((lid = getenvp(*step_env_ptr, "SLURM_LOCALID")) && *lid) {
		local = strtoul(lid, &end, 10);
		if (*end || local > UINT32_MAX)
			local = 0;
	}
	if (!(cpus = fs_gres_task_cpus(msg, sizeof(msg))) ||
	    fs_gres_rdma_task_env(loc, cpus, (unsigned)local, &e, msg,
				  sizeof(msg))) {
		error("%s: task HCAs: %s", plugin_type, msg);
		free(cpus);
		return;
	}
	if (flags & GRES_INTERNAL_FLAG_VERBOSE)
		info("%s: task on CPUs %s uses %s", plugin_type, cpus,
		     e.n > 3 ? e.value[3] : "?");
	_apply(step_env_ptr, &e);
	free(cpus);
}

/* slurmd -> slurmstepd: the unit table */
extern void gres_p_send_stepd(buf_t *buffer)
{
	char *s = _units_serialize();

	packstr(s, buffer);
	xfree(s);
}

extern void gres_p_recv_stepd(buf_t *buffer)
{
	char *s = NULL;
	uint32_t len;

	safe_unpackstr_xmalloc(&s, &len, buffer);
	if (s && _units_parse(s))
		error("%s: unreadable record table from slurmd", plugin_type);
	xfree(s);
	return;
unpack_error:
	error("%s: cannot unpack the record table from slurmd", plugin_type);
	xfree(s);
}

#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
/* 22.05 only: no job or step data beyond Slurm's own */
extern int gres_p_get_job_info(gres_job_state_t *gres_js, uint32_t node_inx,
			       enum gres_job_data_type data_type, void *data)
{
	return EINVAL;
}

extern int gres_p_get_step_info(gres_step_state_t *gres_ss, uint32_t node_inx,
				enum gres_step_data_type data_type, void *data)
{
	return EINVAL;
}
#endif

/* Device access is left to the prolog (fabsched's RDMA checks). */
extern fs_list_t gres_p_get_devices(void)
{
	return NULL;
}

extern void gres_p_step_hardware_init(bitstr_t *usable_gres, char *settings)
{
}

extern void gres_p_step_hardware_fini(void)
{
}

/* slurmctld: what the job holds on each node, for the prolog/epilog */
extern fs_prep_t *FS_PREP_BUILD_ENV(gres_job_state_t *gres_js)
{
	fs_prep_t *ei;

	if (!gres_js || !gres_js->node_cnt)
		return NULL;
	ei = xmalloc(sizeof(*ei));
	ei->node_cnt = gres_js->node_cnt;
	ei->gres_bit_alloc = xcalloc(ei->node_cnt, sizeof(bitstr_t *));
	ei->gres_cnt_node_alloc = xcalloc(ei->node_cnt, sizeof(uint64_t));
	for (uint32_t i = 0; i < ei->node_cnt; i++) {
		if (gres_js->gres_bit_alloc && gres_js->gres_bit_alloc[i])
			ei->gres_bit_alloc[i] =
				bit_copy(gres_js->gres_bit_alloc[i]);
		if (gres_js->gres_cnt_node_alloc)
			ei->gres_cnt_node_alloc[i] =
				gres_js->gres_cnt_node_alloc[i];
	}
	return ei;
}

/* slurmd: prolog/epilog environment of this node (index node_inx) */
extern void FS_PREP_SET_ENV(char ***epilog_env_ptr, fs_prep_t *gres_ei,
			    int node_inx)
{
	bitstr_t *alloc = NULL;
	uint64_t cnt = 0;

	if (!gres_ei || node_inx < 0 || (uint32_t) node_inx >= gres_ei->node_cnt)
		return;
	if (gres_ei->gres_bit_alloc)
		alloc = gres_ei->gres_bit_alloc[node_inx];
	if (gres_ei->gres_cnt_node_alloc)
		cnt = gres_ei->gres_cnt_node_alloc[node_inx];
	if (!alloc && !cnt)
		return;
	_env(epilog_env_ptr, alloc, cnt);
}
