/*
 * gres_hugepages.c - gres/hugepages: one record per NUMA node and page
 * size (Type=2m|1g Count=<pages> Cores=<that node's cores> File=<the
 * pool's sysfs directory>; counted in blocks of pages, Type=2mx8, when the
 * node's pages exceed the units Slurm indexes), and the job's
 * FABSCHED_HUGEPAGES.  The entry points it shares with gres/rdma are in
 * gres_common.c.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs_env.h"
#include "slurm/slurm.h"
#include "src/common/env.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "fabsched_conf.h"
#include "fs_plugin_conf.h"
#include "gres_shim.h"

const char plugin_name[] = "fabsched gres/hugepages plugin";
const char plugin_type[] = "gres/hugepages";
const char fs_gres_name[] = "hugepages";
const int fs_gres_inventory_what = FS_GRES_HUGEPAGES;

/* fabsched.conf's HugepageUnits (validated when the file is read). */
static void _conf_units(struct fs_hp_units *u)
{
	struct fs_conf *conf = fabsched_plugin_conf_load(plugin_type);
	const char *v = conf ? fs_conf_get_str(conf, "HugepageUnits") : NULL;
	char msg[FS_MSG_SIZE];

	if (v && fs_hp_units_parse("HugepageUnits", v, u, msg, sizeof(msg)))
		error("%s: %s", plugin_type, msg);
	fs_conf_destroy(conf);
}

/*
 * Slurm keeps one bit per unit of a gres whose records have File=, and
 * refuses more than FS_GRES_MAX_INDEXED (1024) units per node.  Per-NUMA
 * placement needs File=, so pages are counted in units of several pages:
 * Type=2mx8 is a unit of 8 2 MiB pages.  The unit is fabsched.conf's
 * HugepageUnits (the same on every node, so that one request fits every
 * node); for sizes it does not name, or when it makes too many units,
 * the least that fits this node (fs_gres_huge_plan).
 */
int fabsched_gres_detect(const struct fs_gres_inventory *inv, node_config_load_t *config,
			 fs_list_t out)
{
	struct fs_gres_huge_rec *recs = NULL;
	struct fs_hp_units fixed = { 0 };
	size_t nrecs = 0;
	char msg[FS_MSG_SIZE], warn[FS_MSG_SIZE], notes[2][FS_MSG_SIZE];
	int n = 0, rc;

	_conf_units(&fixed);
	rc = fs_gres_huge_node_plan(inv, &fixed, &recs, &nrecs, warn, sizeof(warn), msg,
				    sizeof(msg));
	if (warn[0])
		error("%s: %s", plugin_type, warn);
	if (rc) {
		error("%s: %s", plugin_type, msg);
		return 0;
	}
	for (size_t i = 0; i < inv->npools; i++)
		if (!inv->pools[i].total)
			verbose("%s: NUMA node %d: no %s pages in the pool", plugin_type,
				inv->pools[i].numa_node, inv->pools[i].type);
	for (size_t i = 0; i < nrecs; i++) {
		const struct fs_gres_huge_rec *r = &recs[i];
		const struct fs_gres_numa *nu = fs_gres_numa_find(inv, r->numa_node);
		bitstr_t *mac = NULL;
		char *abs = NULL, file[160];

		for (size_t k = fs_gres_huge_rec_notes(r, &fixed, notes, file, sizeof(file)), j = 0;
		     j < k; j++)
			info("%s: %s", plugin_type, notes[j]);
		if (!r->units)
			continue;
		if (!nu || fabsched_gres_cores(config, nu->cpus, &mac, &abs))
			verbose("%s: NUMA node %d: CPUs unknown: no Cores", plugin_type,
				r->numa_node);
		fabsched_gres_add_record(out, "hugepages", r->units, config->cpu_cnt, abs, mac,
					 file, r->type);
		verbose("%s: NUMA node %d Type=%s Count=%" PRIu64 " Cores=%s", plugin_type,
			r->numa_node, r->type, r->units, abs ? abs : "-");
		FREE_NULL_BITMAP(mac);
		xfree(abs);
		n++;
	}
	free(recs);
	return n;
}

void fabsched_gres_units_of_rec(const struct fs_gres_inventory *inv, gres_slurmd_conf_t *rec,
				uint64_t *next)
{
	struct fs_gres_unit *u = fs_gres_units_add(&fs_units);
	char msg[FS_MSG_SIZE];

	(void)inv;
	if (!u)
		return;
	u->first = *next;
	u->count = rec->count;
	*next += rec->count;
	if (fs_gres_huge_unit_set(u, rec->file, rec->type_name, msg, sizeof(msg)))
		error("%s: %s: its pages are not passed to the job", plugin_type, msg);
}

/* The job's pages on this node (gres/ fs_gres_huge_value): units held of
 * each record, counted from the allocation's bits. */
void fabsched_gres_set_env(char ***env, bitstr_t *alloc, uint64_t cnt)
{
	uint64_t *held = NULL, total = 0;
	char *s = NULL, num[32], msg[FS_MSG_SIZE];

	if (alloc) {
		size_t size;
		uint8_t *bits = fs_gres_bytes(alloc, &size);

		held = xcalloc(fs_units.n + 1, sizeof(uint64_t));
		fs_gres_units_held(&fs_units, bits, size, held);
		xfree(bits);
	}
	if (fs_gres_huge_value(&fs_units, held, cnt, &s, &total, msg, sizeof(msg)))
		error("%s: %s", plugin_type, msg);
	xfree(held);
	fabsched_gres_env_unset(env, FS_ENV_HUGEPAGES);
	if (!total && !s) {
		fabsched_gres_env_unset(env, FS_ENV_HUGEPAGES_COUNT);
		return;
	}
	snprintf(num, sizeof(num), "%" PRIu64, total);
	fabsched_gres_env_set(env, FS_ENV_HUGEPAGES_COUNT, num);
	if (s)
		fabsched_gres_env_set(env, FS_ENV_HUGEPAGES, s);
	free(s);
}

/* In the task: the step's pages, as for the job. */
extern void gres_p_task_set_env(char ***step_env_ptr, bitstr_t *gres_bit_alloc, uint64_t gres_cnt,
				bitstr_t *usable_gres, gres_internal_flags_t flags)
{
	(void)usable_gres;
	(void)flags;
	fabsched_gres_set_env(step_env_ptr, gres_bit_alloc, gres_cnt);
}
