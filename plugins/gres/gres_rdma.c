/*
 * gres_rdma.c - gres/rdma: one unit per InfiniBand HCA with an ACTIVE port
 * (Type=<model> File=/dev/infiniband/uverbsN Cores=<NUMA-local cores>),
 * and the job's HCA variables.  The entry points it shares with
 * gres/hugepages are in gres_common.c.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_conf.h"
#include "fs_env.h"
#include "fs_plugin_conf.h"
#include "slurm/slurm.h"
#include "src/common/env.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "gres_shim.h"

const char plugin_name[] = "fabsched gres/rdma plugin";
const char plugin_type[] = "gres/rdma";
const char fs_gres_name[] = "rdma";
const int fs_gres_inventory_what = FS_GRES_HCA;

/* Autodetected records; returns how many were added to out. */
int fabsched_gres_detect(const struct fs_gres_inventory *inv, node_config_load_t *config,
			 fs_list_t out)
{
	int n = 0;

	for (size_t i = 0; i < inv->nhca; i++) {
		const struct fs_gres_hca *h = &inv->hca[i];
		bitstr_t *mac = NULL;
		char *abs = NULL;
		const char *skip = fs_gres_hca_skip(h);
		char notes[FS_GRES_PORTS_MAX][FS_MSG_SIZE];

		for (size_t k = fs_gres_hca_notes(h, notes, FS_GRES_PORTS_MAX), j = 0; j < k; j++)
			info("%s: %s", plugin_type, notes[j]);
		if (skip && h->nactive) /* active, yet no device file */
			error("%s: %s %s: no gres record", plugin_type, h->name, skip);
		else if (skip)
			info("%s: %s %s: no gres record", plugin_type, h->name, skip);
		if (skip)
			continue;
		if (fabsched_gres_cores(config, h->cpus, &mac, &abs))
			verbose("%s: %s: no usable local CPUs (%s): no Cores", plugin_type, h->name,
				h->cpus);
		fabsched_gres_add_record(out, "rdma", 1, config->cpu_cnt, abs, mac, h->dev_path,
					 h->type);
		verbose("%s: %s Type=%s File=%s Cores=%s (CPUs %s, %s)", plugin_type, h->name,
			h->type, h->dev_path, abs ? abs : "-", h->cpus, h->locality);
		FREE_NULL_BITMAP(mac);
		xfree(abs);
		n++;
	}
	return n;
}

/* fabsched.conf's RoCE keys (validated when the file is read). */
static void _conf_roce(struct fs_gres_roce_conf *rc)
{
	struct fs_conf *conf = fabsched_plugin_conf_load(plugin_type);
	const char *fam = conf ? fs_conf_get_str(conf, "RoceGidFamily") : NULL;
	uint64_t v;

	rc->ipv6 = fam && !strcmp(fam, "ipv6");
	rc->tc = conf && !fs_conf_get_uint(conf, "RoceTrafficClass", &v) ? (int)v : -1;
	rc->sl = conf && !fs_conf_get_uint(conf, "RoceServiceLevel", &v) ? (int)v : -1;
	fs_conf_destroy(conf);
}

/* unit table entry for one rdma device file of a record */
static void _rdma_unit(const struct fs_gres_inventory *inv, uint64_t *next, gres_slurmd_conf_t *rec,
		       const char *file, const struct fs_gres_roce_conf *rc)
{
	struct fs_gres_unit *u = fs_gres_units_add(&fs_units);
	char *cpus = rec->cpus_bitmap ? bit_fmt_full(rec->cpus_bitmap) : NULL;

	if (!u)
		return;
	u->first = (*next)++;
	u->count = 1;
	if (!fs_gres_rdma_unit_set(u, inv, file, cpus, rc) && file)
		verbose("%s: File=%s is no uverbs device of a known HCA: "
			"named %s in the environment",
			plugin_type, file, u->label);
	xfree(cpus);
}

void fabsched_gres_units_of_rec(const struct fs_gres_inventory *inv, gres_slurmd_conf_t *rec,
				uint64_t *next)
{
	struct fs_gres_roce_conf rc;
	fs_hostlist_t hl;
	uint64_t k = 0;
	char *f;

	if (!rec->file) {
		*next += rec->count;
		return;
	}
	_conf_roce(&rc);
	hl = slurm_hostlist_create(rec->file);
	while (hl && k < rec->count && (f = slurm_hostlist_shift(hl))) {
		_rdma_unit(inv, next, rec, f, &rc);
		free(f);
		k++;
	}
	if (hl)
		slurm_hostlist_destroy(hl);
	*next += rec->count - k;
}

/* --- environment */

static void _rdma_clear_env(char ***env)
{
	for (size_t i = 0; fs_gres_rdma_env_names[i]; i++)
		fabsched_gres_env_unset(env, fs_gres_rdma_env_names[i]);
}

static void _apply(char ***env, struct fs_gres_env *e)
{
	for (size_t i = 0; i < e->nunset; i++)
		fabsched_gres_env_unset(env, e->unset[i]);
	for (size_t i = 0; i < e->n; i++)
		fabsched_gres_env_set(env, e->name[i], e->value[i]);
	fs_gres_env_clear(e);
}

/* The variables of the allocated HCAs, FABSCHED_RDMA_LOCALITY included. */
void fabsched_gres_set_env(char ***env, bitstr_t *alloc, uint64_t cnt)
{
	struct fs_gres_env e = { 0 };
	char msg[FS_MSG_SIZE];
	struct fs_gres_rdma_sel *s = xmalloc(sizeof(*s));
	size_t size;
	uint8_t *held = fs_gres_bytes(alloc, &size);

	(void)cnt;
	fs_gres_rdma_devs(&fs_units, held, size, s);
	_rdma_clear_env(env);
	if (s->n && fs_gres_rdma_env(s->dev, s->n, &e, msg, sizeof(msg)))
		error("%s: %s", plugin_type, msg);
	else
		_apply(env, &e);
	xfree(held);
	xfree(s);
}

/*
 * Called in the task after its CPU binding, but by Slurm 22.05 only when
 * the step has a binding option (--gpu-bind, --accel-bind); the SPANK
 * plugin does the same for every step.  The task's variables name the
 * HCA nearest its CPUs (fs_gres_rdma_task_env); FABSCHED_RDMA_LOCALITY
 * keeps every HCA of the step.
 */
extern void gres_p_task_set_env(char ***step_env_ptr, bitstr_t *gres_bit_alloc, uint64_t gres_cnt,
				bitstr_t *usable_gres, gres_internal_flags_t flags)
{
	struct fs_gres_env e = { 0 };
	char msg[FS_MSG_SIZE], *cpus = NULL;
	const char *loc;

	debug("%s: task environment (%" PRIu64 " allocated)", plugin_type, gres_cnt);
	fabsched_gres_set_env(step_env_ptr, usable_gres ? usable_gres : gres_bit_alloc, gres_cnt);
	if (!step_env_ptr || !*step_env_ptr ||
	    !(loc = getenvp(*step_env_ptr, FS_GRES_RDMA_LOCALITY_ENV)))
		return;
	if (fs_gres_rdma_task(loc, getenvp(*step_env_ptr, "SLURM_LOCALID"), &e, &cpus, msg,
			      sizeof(msg))) {
		error("%s: task HCAs: %s", plugin_type, msg);
		free(cpus);
		return;
	}
	if (flags & GRES_INTERNAL_FLAG_VERBOSE)
		info("%s: task on CPUs %s uses %s", plugin_type, cpus, e.n > 3 ? e.value[3] : "?");
	_apply(step_env_ptr, &e);
	free(cpus);
}
