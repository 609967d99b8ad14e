/*
 * fabric_hook.c - locality in select/cons_tres_fabric (Slurm 22.05).
 *
 * In select_p_job_test(SELECT_MODE_RUN_NOW), fabric_place()
 * (plugins/common/fabric_place.c) chooses the locality domain and this file
 * runs cons_tres's job_test inside it.  The free nodes are the candidates
 * without jobs (slurmctld's idle_node_bitmap), then for jobs that share
 * nodes every candidate with the CPUs and memory cons_tres has not given
 * out (read, for the nodes with jobs asked about, from cons_tres's tables),
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
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/select.h"
#include "src/slurmctld/slurmctld.h"
/* cons_tres's tables of what it has given out (read by _alloc_on) */
#include "src/plugins/select/cons_common/node_data.h"
#include "src/plugins/select/cons_common/part_data.h"

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
 * What cons_tres has given out on node @n, counted as its
 * select_nodeinfo_set_all counts one node (22.05 cons_common.c): the cores
 * set in any row of any partition (at most the node's cores less its
 * specialised ones, in CPUs when a core has several threads) and the
 * memory of its usage table.  Read from cons_tres's own tables
 * (select_backend.h), which the node write lock every job_test holds keeps
 * still: set_all would recount, and format the TRES string of, every node
 * at each call.
 */
static void _alloc_on(int n, const node_record_t *node, uint16_t *cpus, uint64_t *mem)
{
	part_res_record_t *p = fabric_be_parts ? *(part_res_record_t **)fabric_be_parts : NULL;
	node_use_record_t *use = fabric_be_usage ? *(node_use_record_t **)fabric_be_usage : NULL;
	bitstr_t *first = NULL, *all = NULL;
	uint32_t cores = 0, usable = node->tot_cores - node->core_spec_cnt;

	for (; p; p = p->next) {
		for (int i = 0; p->row && i < p->num_rows; i++) {
			bitstr_t *b = p->row[i].row_bitmap ? p->row[i].row_bitmap[n] : NULL;

			if (!b)
				continue;
			if (!first)
				first = b;
			else if (!all)
				all = bit_copy(first);
			if (all)
				bit_or(all, b);
		}
	}
	if (all || first)
		cores = bit_set_count(all ? all : first);
	FREE_NULL_BITMAP(all);
	if (cores > usable)
		cores = usable;
	if (node->tot_cores < node->cpus)
		cores *= node->threads;
	*cpus = cores;
	*mem = use ? use[n].alloc_memory : 0;
}

/*
 * DebugFlags=SelectType: _alloc_on's counts against cons_tres's own full
 * recount (select_nodeinfo_set_all, then its node info), logged: "as
 * cons_tres counts" or, as an error, where they differ.
 */
static void _alloc_check(const slurm_select_ops_t *ops, const node_record_t *node, uint16_t cpus,
			 uint64_t mem)
{
	uint16_t be_cpus = 0;
	uint64_t be_mem = 0;
	void *info;

	ops->nodeinfo_set_all();
	if (!node->select_nodeinfo || !(info = node->select_nodeinfo->data) ||
	    ops->nodeinfo_get(info, SELECT_NODEDATA_SUBCNT, NODE_STATE_ALLOCATED, &be_cpus) ||
	    ops->nodeinfo_get(info, SELECT_NODEDATA_MEM_ALLOC, NODE_STATE_ALLOCATED, &be_mem)) {
		error("%s: node %s: cons_tres's node info cannot be read", PLUGIN, node->name);
		return;
	}
	if (cpus != be_cpus || mem != be_mem)
		error("%s: node %s: %u CPUs and %" PRIu64
		      " MB given out, cons_tres counts %u and %" PRIu64,
		      PLUGIN, node->name, cpus, mem, be_cpus, be_mem);
	else
		info("%s: node %s: %u CPUs and %" PRIu64 " MB given out, as cons_tres counts",
		     PLUGIN, node->name, cpus, mem);
}

/* What cons_tres has not given out on a node: its CPUs and memory. */
static void _node_free(int node, struct fse_node_res *r, void *arg)
{
	struct call *c = arg;
	node_record_t *node_ptr = node_record_table_ptr[node];
	uint16_t alloc_cpus;
	uint64_t alloc_mem;

	/* a node without jobs has nothing given out */
	if ((c->idle && *c->idle && bit_test(*c->idle, node)) || !node_ptr)
		return;
	_alloc_on(node, node_ptr, &alloc_cpus, &alloc_mem);
	if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE)
		_alloc_check(c->ops, node_ptr, alloc_cpus, alloc_mem);
	r->cpus = r->cpus > alloc_cpus ? r->cpus - alloc_cpus : 0;
	if (r->mem != UINT64_MAX)
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
