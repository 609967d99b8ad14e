/*
 * fabric_shape.c - what a job asks of each node, and what each node has
 * for it, from Slurm's records to the placement engine's plain structs
 * (struct fse_shape, struct fse_node_res -> tasks per node).  Shared by
 * the plugin flavours; compiled against either release's headers.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "slurm/slurm.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/read_config.h"
#include "src/slurmctld/slurmctld.h"
#if __has_include("src/common/job_features.h")
#include "src/common/job_features.h" /* job_feature_t from 23.02 */
#endif
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
#include "src/interfaces/gres.h"
#else
#include "src/common/gres.h"
#endif

#include "fabric_place.h"
#include "fabsched_select.h"

#ifndef CR_MEMORY
#define CR_MEMORY SELECT_MEMORY /* 25.11 renamed it */
#endif

/*
 * What the job asks of each node, for the engine: its tasks, CPUs per
 * task, tasks per node, memory, GRES per node or task, --exclusive,
 * --overcommit (struct fse_shape), and the GRES it names (plugin and type,
 * to find them in the nodes' GRES lists).
 */
struct job_shape {
	struct fse_shape s;
	uint32_t gres_plugin[FSE_SHAPE_GRES];
	uint32_t gres_type[FSE_SHAPE_GRES]; /* 0: any type */
	bool mem_counted;		    /* memory is a consumable resource */
};

static int _shape_gres(void *x, void *arg)
{
	gres_state_t *gs = x;
	gres_job_state_t *gj = gs ? gs->gres_data : NULL;
	struct job_shape *js = arg;
	int g = js->s.ngres;

	if (!gj || (!gj->gres_per_node && !gj->gres_per_task) || g >= FSE_SHAPE_GRES)
		return 0;
	js->gres_plugin[g] = gs->plugin_id;
	js->gres_type[g] = gj->type_id;
	js->s.gres[g].per_node = gj->gres_per_node;
	js->s.gres[g].per_task = gj->gres_per_task;
	js->s.ngres++;
	return 0;
}

static void _job_shape(job_record_t *job_ptr, uint32_t min_nodes, struct job_shape *js)
{
	__typeof__(job_ptr->details) d = job_ptr->details;
	uint64_t mem = d->pn_min_memory;

	memset(js, 0, sizeof(*js));
	/* sized by tasks when it asked for tasks (-n); by nodes otherwise */
	if (d->num_tasks && d->num_tasks != NO_VAL)
		js->s.ntasks = d->num_tasks > min_nodes ? d->num_tasks : min_nodes;
	js->s.cpus_per_task =
		(d->cpus_per_task && d->cpus_per_task != NO_VAL16) ? d->cpus_per_task : 1;
	if (d->ntasks_per_node && d->ntasks_per_node != NO_VAL16)
		js->s.tasks_per_node = d->ntasks_per_node;
	js->mem_counted = slurm_conf.select_type_param & CR_MEMORY;
	if (mem && mem != NO_VAL64) {
		if (mem & MEM_PER_CPU)
			js->s.mem_per_cpu = mem & ~MEM_PER_CPU;
		else
			js->s.mem_per_node = mem;
	}
	js->s.whole_node = d->whole_node == 1;
	js->s.overcommit = d->overcommit;
	if (job_ptr->gres_list_req)
		list_for_each(job_ptr->gres_list_req, _shape_gres, js);
}

/* Free (@now) or configured GRES of the kinds the job names on a node. */
static void _node_gres(const struct job_shape *js, node_record_t *node_ptr, bool now,
		       struct fse_node_res *r)
{
	for (int g = 0; g < js->s.ngres; g++) {
		gres_state_t *gs = NULL;
		gres_node_state_t *gn;

		r->gres[g] = 0;
		if (node_ptr->gres_list)
			gs = list_find_first(node_ptr->gres_list, gres_find_id,
					     (void *)&js->gres_plugin[g]);
		if (gs && (gn = gs->gres_data))
			r->gres[g] =
				fse_gres_units(gn->gres_cnt_avail, gn->gres_cnt_alloc,
					       js->gres_type[g], gn->type_id, gn->type_cnt_avail,
					       gn->type_cnt_alloc, gn->type_cnt, now);
	}
}

/* A node's configured CPUs, memory and GRES (what the job could get on an
 * idle node). */
static void _node_config(const struct job_shape *js, node_record_t *node_ptr,
			 struct fse_node_res *r)
{
	memset(r, 0, sizeof(*r));
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
	r->cpus = node_ptr->cpus_efctv;
#else
	r->cpus = node_ptr->cpus;
#endif
	r->mem = fse_node_mem(js->mem_counted, node_ptr->real_memory, node_ptr->mem_spec_limit);
	_node_gres(js, node_ptr, false, r);
}

static bool _has(const void *set, size_t node)
{
	return bit_test((bitstr_t *)set, node);
}

struct feature_terms {
	struct fse_feature_term *t;
	size_t n, cap;
};

static int _feature_term(void *x, void *arg)
{
	job_feature_t *f = x;
	struct feature_terms *ft = arg;
	struct fse_feature_term *t;
	bitstr_t *b = f->node_bitmap_avail;

	if (ft->n == ft->cap)
		return -1;
	t = &ft->t[ft->n++];

	t->set = (b && bit_size(b) == node_record_count) ? b : NULL;
	t->and_next = f->op_code == FEATURE_OP_AND;
	t->counted = f->count;
	t->paren = f->paren;
	return 0;
}

/* The features the job is tried with into @ft (the caller xfrees ft->t),
 * when fabsched weighs them (fse_feature_folds); else ft->n is 0 and
 * every node counts.  Those are the ones Slurm has just looked up for this
 * try: its --prefer while it tries the job on its preferred nodes (a job
 * with --prefer is tried so first, then with its --constraint alone), else
 * its --constraint.  Read only: a feature whose bitmap Slurm has not
 * looked up, or for another node count, is not known. */
static void _feature_terms(job_record_t *job_ptr, struct feature_terms *ft)
{
	__typeof__(job_ptr->details->feature_list) use;
	int n;

	if (!job_ptr->details)
		return;
	use = job_ptr->details->feature_list_use ? job_ptr->details->feature_list_use
						 : job_ptr->details->feature_list;
	if (!use || (n = list_count(use)) <= 0)
		return;
	ft->t = xcalloc(n, sizeof(*ft->t));
	ft->cap = n;
	list_for_each_ro(use, _feature_term, ft);
	if (fse_feature_folds(ft->t, ft->n) != 1)
		ft->n = 0;
}

void fabric_job_tasks(const struct fabric_ask *ask, struct fse_shape *shape, uint32_t *tasks_now,
		      uint32_t *tasks_idle)
{
	struct job_shape jsv, *js = &jsv;
	bitstr_t *part = ask->job->part_ptr ? ask->job->part_ptr->node_bitmap : NULL;
	bitstr_t *idle = (ask->idle && *ask->idle) ? *ask->idle : NULL;
	struct feature_terms feat = { 0 };

	_feature_terms(ask->job, &feat);
	_job_shape(ask->job, ask->min_nodes ? ask->min_nodes : 1, js);
	*shape = js->s;
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		struct fse_node_res r;

		tasks_now[i] = tasks_idle[i] = 0;
		if (!node_ptr)
			continue;
		_node_config(js, node_ptr, &r);
		/* what it could use on the idle machine: its partition's
		 * nodes with its features, and its candidates now */
		if (bit_test(ask->cand, i) ||
		    ((!part || bit_test(part, i)) && fse_feature_allows(feat.t, feat.n, _has, i)))
			tasks_idle[i] = fse_node_tasks(&js->s, &r);
		if (!bit_test(ask->cand, i))
			continue;
		r.busy = idle ? !bit_test(idle, i) : false;
		if (r.busy && js->s.whole_node)
			continue; /* no task of it there (fse_node_tasks) */
		_node_gres(js, node_ptr, true, &r);
		if (ask->node_free)
			ask->node_free(i, &r, ask->arg);
		tasks_now[i] = fse_node_tasks(&js->s, &r);
	}
	xfree(feat.t);
}
