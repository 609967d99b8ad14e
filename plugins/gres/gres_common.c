/*
 * gres_common.c - the entry points gres/rdma and gres/hugepages share, and
 * their common helpers; each resource's own part is in its entry file
 * (gres_rdma.c, gres_hugepages.c: see gres_shim.h).  One source for every
 * release: 22.05 and 24.11 differ only in names (the interface header,
 * list_t, and the prolog/epilog hooks: epilog_build_env/epilog_set_env in
 * 22.05, prep_build_env/prep_set_env in 24.11), mapped in gres_shim.h.
 *
 * slurmd (gres_p_node_config_load): unless gres.conf describes the
 * resource itself (records with File= or Cores=) or says AutoDetect=off,
 * the records of slurm.conf are replaced by what the node holds (the entry
 * file's fabsched_gres_detect).  A table of the records (gres index -> HCA or
 * NUMA node, gres/ fs_gres_units) is kept, handed to slurmstepd
 * (send/recv_stepd) and used for the job, step, task and prolog/epilog
 * environment.  Bad input is logged, never fatal.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm/slurm_errno.h"
#include "src/common/env.h"
#include "src/common/log.h"
#include "src/common/pack.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "gres_shim.h"

const uint32_t plugin_version = SLURM_VERSION_NUMBER;

struct fs_gres_units fs_units;

static int _mine(void *x, void *arg)
{
	gres_slurmd_conf_t *rec = x;

	return rec->plugin_id == *(uint32_t *)arg;
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
	char msg[FS_MSG_SIZE];
	const char *spec = getenv(FS_GRES_SYSFS_ENV);

	if (fs_gres_sysfs_root(spec, NULL, root, msg, sizeof(msg))) {
		error("%s: %s=%s: %s", plugin_type, FS_GRES_SYSFS_ENV, spec, msg);
		return -1;
	}
	return 0;
}

/*
 * From 23.02 on, slurmctld refuses a node (state INVAL) whose GRES core
 * affinity covers part of a socket, and from 25.11 on one that covers
 * several sockets but not all (gres.c, _check_core_range_matches_sock), as
 * a NUMA-local HCA or hugepage pool does on machines with several NUMA
 * nodes per socket, or one NUMA node over several sockets.  Each record's
 * cores (@abs, a core list) are then widened as fs_gres_socket_cores says,
 * in the socket layout of this node's slurm.conf record, and the widening
 * is logged, as a warning with its remedy (SlurmdParameters=
 * numa_node_as_socket) unless Slurm's sockets are already the NUMA nodes.
 * 22.05 keeps the NUMA-exact cores.
 */
static void _whole_sockets(char **abs)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
	char *name = slurm_conf_get_aliased_nodename(), *wide = NULL;
	node_record_t *np = name ? find_node_record2(name) : NULL;
	bool one = SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0), numa;

	if (!np || !*abs || !np->cores || !np->tot_sockets) {
		debug("%s: socket layout of %s unknown: cores %s kept", plugin_type,
		      name ? name : "this node", *abs ? *abs : "-");
	} else if (fs_gres_widen_cores(*abs, np->tot_sockets, np->cores, one, &wide) == 1) {
		/* Slurm's sockets already the NUMA nodes (or L3 caches: from
		 * SlurmdParameters, from 25.11 also the node's Parameters=) */
		numa = slurm_conf.conf_flags & (CONF_FLAG_NNSOCK | CONF_FLAG_L3CSOCK);
#define WIDENED                                                                            \
	"%s: cores %s widened to %s: Slurm %s binds a GRES to %s (%d cores each on %s)%s", \
		plugin_type, *abs, wide, SLURM_VERSION_STRING,                             \
		one ? "one whole socket or every core" : "whole sockets", np->cores, name
		if (numa)
			info(WIDENED, "");
		else
			warning(WIDENED,
				", so this record's NUMA locality is lost (jobs get its units with cores of other NUMA nodes); to keep it, make Slurm's sockets the NUMA nodes: SlurmdParameters=numa_node_as_socket, and the node's Sockets= and CoresPerSocket= as 'slurmd -C' then prints");
#undef WIDENED
		xfree(*abs);
		*abs = xstrdup(wide);
	}
	free(wide);
	xfree(name);
#endif
}

/*
 * Machine cpulist -> (machine bitmap of cpu_cnt bits, Slurm abstract core
 * range).  CPUs at or beyond cpu_cnt are dropped, as slurmd itself does.
 * Returns 0, or -1 when nothing usable is left.
 */
int fabsched_gres_cores(node_config_load_t *config, const char *cpus, bitstr_t **mac_out,
			char **abs_out)
{
	char msg[FS_MSG_SIZE], *range = NULL, *abs = NULL;
	size_t dropped;

	*mac_out = NULL;
	*abs_out = NULL;
	if (fs_gres_clip_cpus(cpus, config->cpu_cnt, &range, &dropped, msg, sizeof(msg))) {
		error("%s: %s", plugin_type, msg);
		return -1;
	}
	if (dropped)
		verbose("%s: %zu CPU(s) of %s lie beyond the node's %u CPUs", plugin_type, dropped,
			cpus, config->cpu_cnt);
	if (!range)
		return -1;
	if (config->xcpuinfo_mac_to_abs && config->xcpuinfo_mac_to_abs(range, &abs)) {
		error("%s: CPUs %s: no core mapping", plugin_type, range);
		free(range);
		return -1;
	}
	*mac_out = bit_alloc(config->cpu_cnt);
	bit_unfmt(*mac_out, range);
	free(range);
	_whole_sockets(&abs);
	*abs_out = abs;
	return 0;
}

uint8_t *fs_gres_bytes(bitstr_t *b, size_t *n)
{
	uint8_t *v;

	*n = b ? (size_t)bit_size(b) : 0;
	v = xcalloc(*n + 1, 1);
	for (size_t i = 0; i < *n; i++)
		v[i] = bit_test(b, (bitoff_t)i) ? 1 : 0;
	return v;
}

void fabsched_gres_env_set(char ***env, const char *name, const char *value)
{
	if (!env)
		return;
	if (!*env)
		*env = env_array_create();
	env_array_overwrite(env, name, value);
}

void fabsched_gres_env_unset(char ***env, const char *name)
{
	if (env && *env)
		unsetenvp(*env, name);
}

/* One autodetected record (Slurm's add_gres_to_list, whose arguments
 * changed between releases). */
void fabsched_gres_add_record(fs_list_t out, const char *name, uint64_t count, uint32_t cpu_cnt,
			      char *abs, bitstr_t *mac, const char *file, const char *type)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
	gres_slurmd_conf_t rec = {
		.config_flags = GRES_CONF_AUTODETECT,
		.count = count,
		.cpu_cnt = cpu_cnt,
		.cpus = abs,
		.cpus_bitmap = mac,
		.file = (char *)file,
		.name = (char *)name,
		.type_name = (char *)type,
	};

	add_gres_to_list(out, &rec);
#else
	add_gres_to_list(out, (char *)name, count, cpu_cnt, abs, mac, (char *)file, (char *)type,
			 NULL, NULL, 0);
#endif
}

struct build {
	const struct fs_gres_inventory *inv;
	uint32_t id;
	uint64_t next;
};

static int _build_units(void *x, void *arg)
{
	gres_slurmd_conf_t *rec = x;
	struct build *b = arg;

	if (rec->plugin_id == b->id)
		fabsched_gres_units_of_rec(b->inv, rec, &b->next);
	return 0;
}

/* ------------------------------------------------------------ entry points */

extern int init(void)
{
	debug("%s: %s loaded", plugin_type, plugin_name);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	fs_gres_units_clear(&fs_units);
	return SLURM_SUCCESS;
}

/* slurmd: gres.conf and slurm.conf are merged into gres_conf_list. */
extern int gres_p_node_config_load(fs_list_t gres_conf_list, node_config_load_t *config)
{
	uint32_t id = gres_build_id((char *)fs_gres_name);
	struct scan sc = { .id = id };
	struct fs_gres_inventory *inv = NULL;
	struct fs_gres_opts opts = { 0 };
	char msg[FS_MSG_SIZE], *root = NULL;
	const char *why = NULL;
	int n;

	fs_gres_units_clear(&fs_units);
	if (gres_conf_list)
		list_for_each(gres_conf_list, _scan_rec, &sc);
	verbose("%s: node configuration loaded, %d gres.conf record(s)", plugin_type, sc.records);
	if (!gres_conf_list || !config || !config->in_slurmd)
		return SLURM_SUCCESS;

	if (_sysfs_root(&root) == 0) {
		opts.sysfs_root = root;
		opts.what = FS_GRES_TOPO | FS_GRES_VERBS | fs_gres_inventory_what;
		if (fs_gres_inventory_load(&opts, &inv, msg, sizeof(msg))) {
			error("%s: node inventory: %s", plugin_type, msg);
			inv = NULL;
		}
	}

	why = fs_gres_autodetect_skip(gres_get_autodetect_flags() & GRES_AUTODETECT_GPU_OFF,
				      sc.explicit_recs, inv);
	if (!why) {
		fs_list_t found = list_create(destroy_gres_slurmd_conf);

		n = fabsched_gres_detect(inv, config, found);
		if (n > 0) {
			list_delete_all(gres_conf_list, _mine, &id);
			list_transfer(gres_conf_list, found);
			info("%s: autodetected %d record(s) (sysfs root %s)", plugin_type, n,
			     root && root[0] ? root : "/");
		} else {
			info("%s: autodetection found nothing under %s: "
			     "keeping the %d configured record(s) (count %" PRIu64 ")",
			     plugin_type, root && root[0] ? root : "/", sc.records, sc.count);
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

extern void gres_p_job_set_env(char ***job_env_ptr, bitstr_t *gres_bit_alloc, uint64_t gres_cnt,
			       gres_internal_flags_t flags)
{
	fabsched_gres_set_env(job_env_ptr, gres_bit_alloc, gres_cnt);
}

extern void gres_p_step_set_env(char ***step_env_ptr, bitstr_t *gres_bit_alloc, uint64_t gres_cnt,
				gres_internal_flags_t flags)
{
	fabsched_gres_set_env(step_env_ptr, gres_bit_alloc, gres_cnt);
}

/* slurmd -> slurmstepd: the unit table */
extern void gres_p_send_stepd(buf_t *buffer)
{
	char *s = fs_gres_units_format(&fs_units);

	if (!s)
		error("%s: record table: out of memory", plugin_type);
	packstr(s, buffer);
	free(s);
}

extern void gres_p_recv_stepd(buf_t *buffer)
{
	char *s = NULL, msg[FS_MSG_SIZE];
	uint32_t len;

	safe_unpackstr_xmalloc(&s, &len, buffer);
	if (s && fs_gres_units_parse(&fs_units, s, fs_gres_inventory_what == FS_GRES_HUGEPAGES, msg,
				     sizeof(msg)))
		error("%s: record table from slurmd: %s", plugin_type, msg);
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
			ei->gres_bit_alloc[i] = bit_copy(gres_js->gres_bit_alloc[i]);
		if (gres_js->gres_cnt_node_alloc)
			ei->gres_cnt_node_alloc[i] = gres_js->gres_cnt_node_alloc[i];
	}
	return ei;
}

/* slurmd: prolog/epilog environment of this node (index node_inx) */
extern void FS_PREP_SET_ENV(char ***epilog_env_ptr, fs_prep_t *gres_ei, int node_inx)
{
	bitstr_t *alloc = NULL;
	uint64_t cnt = 0;

	if (!gres_ei || node_inx < 0 || (uint32_t)node_inx >= gres_ei->node_cnt)
		return;
	if (gres_ei->gres_bit_alloc)
		alloc = gres_ei->gres_bit_alloc[node_inx];
	if (gres_ei->gres_cnt_node_alloc)
		cnt = gres_ei->gres_cnt_node_alloc[node_inx];
	if (!alloc && !cnt)
		return;
	fabsched_gres_set_env(epilog_env_ptr, alloc, cnt);
}
