/*
 * fabric_shape.c - what a job asks of each node, and what each node has
 * for it, from Slurm's records to the placement engine's plain structs
 * (struct fse_shape, struct fse_node_res -> tasks per node).  Shared by
 * the plugin flavours; compiled against either release's headers.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
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

/*
 * The idle machine's tasks of the last few job shapes counted in a
 * partition, for jobs without features whose candidates lie in their
 * partition: then a node's count depends only on the shape and the node's
 * and partition's settings, so jobs of one shape (an array's tasks, a
 * series) share it, and a backfill cycle's plans do not count every node
 * again, until Slurm records a change to a partition or reads its
 * configuration (last_part_update, slurm_conf.last_update), and for at
 * most FSE_KEPT_AGE seconds: Slurm's time of the last change to a node
 * moves with every job's start, and a node's counts here (configured
 * CPUs, memory, GRES) change only by an administrator's command
 * (fse_kept_fresh).  Every FSE_KEPT_CHECK-th reuse is counted again and
 * compared.  Held under fabric_place's lock.
 */
#define IDLE_KEPT 4

static struct idle_kept {
	struct job_shape js;
	const void *part, *table; /* the partition, the node table */
	int nnodes;
	struct fse_kept k;
	uint64_t key;	 /* names these counts (struct fse_job idle_key) */
	uint32_t *tasks; /* [nnodes] */
} idle_kept[IDLE_KEPT];
static int idle_next;
static uint64_t idle_keys;

static void _idle_count(const struct fabric_ask *ask, const struct job_shape *js, bitstr_t *part,
			const struct feature_terms *feat, uint32_t *tasks_idle)
{
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		struct fse_node_res r;

		tasks_idle[i] = 0;
		if (!node_ptr)
			continue;
		/* what it could use on the idle machine: its partition's
		 * nodes with its features, and its candidates now */
		if (bit_test(ask->cand, i) || ((!part || bit_test(part, i)) &&
					       fse_feature_allows(feat->t, feat->n, _has, i))) {
			_node_config(js, node_ptr, &r);
			tasks_idle[i] = fse_node_tasks(&js->s, &r);
		}
	}
}

/* slurmctld's time of the last change to a partition (0 outside it) */
static int64_t _part_gen(void)
{
	static time_t *gen;
	static bool looked;

	if (!looked) {
		gen = dlsym(RTLD_DEFAULT, "last_part_update");
		looked = true;
	}
	return gen ? (int64_t)*gen : 0;
}

/* The kept entry for the job (NULL: its counts are not kept: features, a
 * candidate outside its partition, or outside slurmctld), @hit when its
 * counts hold now. */
static struct idle_kept *_idle_entry(const struct fabric_ask *ask, const struct job_shape *js,
				     bitstr_t *part, const struct feature_terms *feat, bool *hit)
{
	int64_t pgen = _part_gen();
	struct idle_kept *e;

	*hit = false;
	if (feat->n || !pgen ||
	    (part && (bit_size(part) != bit_size(ask->cand) || !bit_super_set(ask->cand, part))))
		return NULL;
	for (int k = 0; k < IDLE_KEPT; k++) {
		e = &idle_kept[k];
		if (e->tasks && e->part == part && e->table == node_record_table_ptr &&
		    e->nnodes == node_record_count && !memcmp(&e->js, js, sizeof(*js))) {
			*hit = fse_kept_fresh(&e->k, pgen, slurm_conf.last_update, time(NULL));
			return e;
		}
	}
	e = &idle_kept[idle_next];
	idle_next = (idle_next + 1) % IDLE_KEPT;
	if (e->nnodes != node_record_count) {
		xfree(e->tasks);
		e->tasks = xcalloc(node_record_count, sizeof(*e->tasks));
	}
	memcpy(&e->js, js, sizeof(*js)); /* its padding too: memcmp above */
	e->part = part;
	e->table = node_record_table_ptr;
	e->nnodes = node_record_count;
	e->k.valid = false;
	e->key = 0;
	return e;
}

/* tasks_idle from the kept counts (1), or counted (0; and kept when they
 * may), -1 when counted at a check and the kept counts differed; @key
 * names them while they are kept (a new key whenever they change), else
 * 0. */
static int _idle_tasks(const struct fabric_ask *ask, const struct job_shape *js, bitstr_t *part,
		       const struct feature_terms *feat, uint32_t *tasks_idle, uint64_t *key)
{
	size_t len = node_record_count * sizeof(*tasks_idle);
	bool hit, differ;
	struct idle_kept *e = _idle_entry(ask, js, part, feat, &hit);

	if (hit && e->k.reuses % FSE_KEPT_CHECK) {
		memcpy(tasks_idle, e->tasks, len);
		*key = e->key;
		return 1;
	}
	*key = 0;
	_idle_count(ask, js, part, feat, tasks_idle);
	if (!e)
		return 0;
	differ = !e->key || memcmp(tasks_idle, e->tasks, len);
	if (differ) {
		memcpy(e->tasks, tasks_idle, len);
		e->key = ++idle_keys;
	}
	if (fse_kept_take(&e->k, _part_gen(), slurm_conf.last_update, time(NULL)))
		*key = e->key;
	return (hit && differ) ? -1 : 0;
}

void fabric_job_tasks_fini(void)
{
	for (int k = 0; k < IDLE_KEPT; k++)
		xfree(idle_kept[k].tasks);
	memset(idle_kept, 0, sizeof(idle_kept));
}

int fabric_job_tasks(const struct fabric_ask *ask, struct fse_shape *shape, uint32_t *tasks_now,
		     uint32_t *tasks_idle, uint64_t *idle_key)
{
	struct job_shape jsv, *js = &jsv;
	bitstr_t *part = ask->job->part_ptr ? ask->job->part_ptr->node_bitmap : NULL;
	bitstr_t *idle = (ask->idle && *ask->idle) ? *ask->idle : NULL;
	struct feature_terms feat = { 0 };
	int64_t first = bit_ffs(ask->cand), last = bit_fls(ask->cand);
	int kept;

	_feature_terms(ask->job, &feat);
	_job_shape(ask->job, ask->min_nodes ? ask->min_nodes : 1, js);
	*shape = js->s;
	kept = _idle_tasks(ask, js, part, &feat, tasks_idle, idle_key);
	memset(tasks_now, 0, node_record_count * sizeof(*tasks_now));
	for (int64_t i = first; first >= 0 && i <= last; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		struct fse_node_res r;

		if (!node_ptr || !bit_test(ask->cand, i))
			continue;
		_node_config(js, node_ptr, &r);
		r.busy = idle ? !bit_test(idle, i) : false;
		if (r.busy && js->s.whole_node)
			continue; /* no task of it there (fse_node_tasks) */
		_node_gres(js, node_ptr, true, &r);
		if (ask->node_free)
			ask->node_free(i, &r, ask->arg);
		tasks_now[i] = fse_node_tasks(&js->s, &r);
	}
	xfree(feat.t);
	return kept;
}
