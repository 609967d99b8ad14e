/*
 * fabric_hook.c - locality in select/cons_tres_fabric (Slurm 22.05).
 *
 * In select_p_job_test(SELECT_MODE_RUN_NOW), fabric_place()
 * (plugins/common/fabric_place.c) chooses the locality domain and this file
 * runs cons_tres's job_test inside it.  The free nodes are the candidates
 * without jobs (slurmctld's idle_node_bitmap), then for jobs that share
 * nodes every candidate with the CPUs and memory cons_tres has not given
 * out (its node info, refreshed when a node with jobs is asked about),
 * and a job kept waiting for locality shows why in its state_desc: 22.05
 * keeps the text of a WAIT_BLOCK_MAX_ERR reason (node_scheduler.c,
 * select_nodes).
 *
 * In select_p_job_test(SELECT_MODE_WILL_RUN) (expected start times,
 * backfill's plans), fabric_plan() offers cons_tres's will-run test the
 * nodes the job would be placed on: its domain free now, or for a job
 * waiting for one rack the racks expected to hold it soonest, so that
 * backfill plans (and holds nodes for) the rack the job waits for, as on
 * 24.11 and later, where the will-run test goes through topology/fabric.
 * Without it, cons_tres's plan found the waiting job could start now on
 * any free nodes, the start was refused, and backfill held those nodes
 * for the job's whole time limit: free nodes idle while it waited.
 *
 * Left to cons_tres unchanged: TEST_ONLY, jobs with --switches (stock
 * topology handling), jobs with required nodes (--nodelist), calls with
 * preemption candidates, and every job while no fabric model is loaded.
 *
 * Nothing here stops the daemon: a bad fabsched.conf, a missing model or
 * a bad --fabric-locality value is logged and the job is handed to
 * cons_tres as is.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/select.h"
#include "src/slurmctld/slurmctld.h"

#include "fabric_hook.h"
#include "fabric_place.h"
#include "fabsched_select.h"
#include "select_backend.h"

#define PLUGIN "select/cons_tres_fabric"

/* One job_test call: what the backend needs besides the candidates. */
struct call {
	const slurm_select_ops_t *ops;
	fabric_job_test_f backend;
	job_record_t *job_ptr;
	bitstr_t *bitmap; /* the caller's: receives the selection */
	uint32_t min_nodes, max_nodes, req_nodes;
	uint16_t mode;
	List preemptee_candidates;
	List *preemptee_job_list;
	bitstr_t *exc_core_bitmap;
	bitstr_t **idle; /* slurmctld's idle nodes (NULL: unknown) */
	bool counted;	 /* cons_tres's node counts brought up to date */
};

static int _try(bitstr_t *cand, void *arg)
{
	struct call *c = arg;
	int rc = c->backend(c->job_ptr, cand, c->min_nodes, c->max_nodes, c->req_nodes, c->mode,
			    c->preemptee_candidates, c->preemptee_job_list, c->exc_core_bitmap);

	if (rc == SLURM_SUCCESS)
		bit_copybits(c->bitmap, cand);
	return rc;
}

/*
 * cons_tres's per-node counts (its node info) brought up to date, once per
 * call and only when an allocation may have changed since they were last
 * (fabric_alloc_gen) or slurmctld's last_node_update moved: 22.05's
 * select_nodeinfo_set_all recounts every node, and formats each node's
 * TRES string, at every call (its "nothing changed" test compares
 * last_node_update with a stamp taken from it, and never holds).  Called
 * with slurmctld's node write lock held, as every job_test is.
 */
static void _counts_refresh(const slurm_select_ops_t *ops)
{
	static time_t *node_update;
	static bool done;
	static unsigned long gen;
	static time_t update;
	unsigned long g = fabric_alloc_gen();

	if (!node_update)
		node_update = dlsym(RTLD_DEFAULT, "last_node_update");
	if (done && g == gen && node_update && *node_update == update)
		return;
	ops->nodeinfo_set_all();
	done = true;
	gen = g;
	update = node_update ? *node_update : 0;
}

/* What cons_tres has not given out on a node: its CPUs and memory. */
static void _node_free(int node, struct fse_node_res *r, void *arg)
{
	struct call *c = arg;
	node_record_t *node_ptr = node_record_table_ptr[node];
	uint16_t alloc_cpus = 0;
	uint64_t alloc_mem = 0;
	void *info;

	/* a node without jobs has nothing given out */
	if (c->idle && *c->idle && bit_test(*c->idle, node))
		return;
	if (!c->counted) {
		/* only when a node with jobs is asked about */
		_counts_refresh(c->ops);
		c->counted = true;
	}
	if (!node_ptr || !node_ptr->select_nodeinfo || !(info = node_ptr->select_nodeinfo->data))
		return;
	if (c->ops->nodeinfo_get(info, SELECT_NODEDATA_SUBCNT, NODE_STATE_ALLOCATED, &alloc_cpus) ==
	    SLURM_SUCCESS)
		r->cpus = r->cpus > alloc_cpus ? r->cpus - alloc_cpus : 0;
	if (r->mem != UINT64_MAX &&
	    c->ops->nodeinfo_get(info, SELECT_NODEDATA_MEM_ALLOC, NODE_STATE_ALLOCATED,
				 &alloc_mem) == SLURM_SUCCESS)
		r->mem = r->mem > alloc_mem ? r->mem - alloc_mem : 0;
}

int fabric_job_test(const slurm_select_ops_t *ops, job_record_t *job_ptr, bitstr_t *bitmap,
		    uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes, uint16_t mode,
		    List preemptee_candidates, List *preemptee_job_list, bitstr_t *exc_core_bitmap)
{
	static bitstr_t **idle;
	fabric_job_test_f backend = ops->job_test;
	struct call c = {
		.ops = ops,
		.backend = backend,
		.job_ptr = job_ptr,
		.bitmap = bitmap,
		.min_nodes = min_nodes,
		.max_nodes = max_nodes,
		.req_nodes = req_nodes,
		.mode = mode,
		.preemptee_candidates = preemptee_candidates,
		.preemptee_job_list = preemptee_job_list,
		.exc_core_bitmap = exc_core_bitmap,
	};
	struct fabric_ask ask = {
		.job = job_ptr,
		.cand = bitmap,
		.min_nodes = min_nodes,
		.max_nodes = max_nodes,
		.req_nodes = req_nodes,
		.switches_as_racks = false,
		.final = true,
		.try = _try,
		.node_free = _node_free,
		.arg = &c,
	};
	int rc;

	/* before fabric_applies, whose first call makes the engine (and
	 * names it in the log) */
	fabric_place_set_name(PLUGIN);
	if ((mode != SELECT_MODE_RUN_NOW && mode != SELECT_MODE_WILL_RUN) ||
	    (preemptee_candidates && list_count(preemptee_candidates)))
		return backend(job_ptr, bitmap, min_nodes, max_nodes, req_nodes, mode,
			       preemptee_candidates, preemptee_job_list, exc_core_bitmap);
	/* slurmctld's, looked up at run time: the commands load this plugin
	 * too and have no such symbol */
	if (!idle)
		idle = dlsym(RTLD_DEFAULT, "idle_node_bitmap");
	ask.idle = c.idle = idle;
	if (!fabric_applies(job_ptr, false)) {
		if (mode == SELECT_MODE_WILL_RUN || !fabric_observes(job_ptr, false))
			return backend(job_ptr, bitmap, min_nodes, max_nodes, req_nodes, mode,
				       preemptee_candidates, preemptee_job_list, exc_core_bitmap);
		/* Locality=observe: cons_tres's own choice, observed */
		return fabric_observe(&ask, bitmap);
	}
	rc = mode == SELECT_MODE_WILL_RUN ? fabric_plan(&ask) : fabric_place(&ask);
	return rc == SLURM_ERROR ? EINVAL : rc; /* cons_tres says EINVAL */
}

void fabric_reconfigure(void)
{
	fabric_place_reconfigure();
}

void fabric_fini(void)
{
	fabric_place_fini();
}
