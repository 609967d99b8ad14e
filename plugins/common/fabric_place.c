/*
 * fabric_place.c - rack-local placement inside slurmctld, shared by the
 * plugin flavours (see fabric_place.h).  Every decision is select/ctl.c's
 * (fse_ctl_place: see there for the steps); this file turns Slurm's
 * records into a struct fse_job (the job's shape: fabric_shape.c; when
 * nodes free up and its time limit: fabric_time.c), runs
 * the flavour's node choice in the domains offered, and carries out the
 * outcome: the job's SystemComment and pending reason, and on 22.05 its
 * state_desc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "fabric_place.h"
#include "fabsched_conf.h"
#include "fs_plugin_conf.h"
#include "fabsched_select.h"
#include "fs_env.h"

static struct {
	pthread_mutex_t lock;
	const char *name; /* plugin type, for the log */
	bool loaded;	  /* tried since start or reconfigure ... */
	int tried_nodes;  /* ... for that many nodes (a failure is
				   logged once, not at every placement) */
	struct fse_ctl *ctl;
	uint8_t *cand, *idle; /* [nbuf] a job's candidates, idle nodes */
	uint8_t *got;	      /* [nbuf] Slurm's choice (Locality=observe) */
	int nbuf;
	fabric_model_f on_model; /* told of each model swapped in */
} fab = { .lock = PTHREAD_MUTEX_INITIALIZER, .name = "fabsched" };

/* slurmctld's count of main scheduling passes (sdiag), looked up, not
 * linked as find_job_record is; 0 in the commands. */
static uint32_t _pass(void)
{
	static const diag_stats_t *stats;
	static bool looked;

	if (!looked) {
		stats = dlsym(RTLD_DEFAULT, "slurmctld_diag_stats");
		looked = true;
	}
	return stats ? stats->schedule_cycle_counter : 0;
}

void fabric_place_on_model(fabric_model_f cb)
{
	slurm_mutex_lock(&fab.lock);
	fab.on_model = cb;
	slurm_mutex_unlock(&fab.lock);
}

void fabric_place_set_name(const char *plugin_type)
{
	fab.name = plugin_type;
}

static void _log(enum fse_log level, const char *msg, void *arg)
{
	switch (level) {
	case FSE_LOG_ERROR:
		error("%s", msg);
		break;
	case FSE_LOG_INFO:
		info("%s", msg);
		break;
	case FSE_LOG_VERBOSE:
		verbose("%s", msg);
		break;
	default:
		debug("%s", msg);
	}
}

/* The engine's log level from slurmctld's (the messages it would drop). */
static enum fse_log _log_most(void)
{
	int l = get_log_level();

	return l >= LOG_LEVEL_DEBUG	? FSE_LOG_DEBUG
	       : l >= LOG_LEVEL_VERBOSE ? FSE_LOG_VERBOSE
	       : l >= LOG_LEVEL_INFO	? FSE_LOG_INFO
					: FSE_LOG_ERROR;
}

static enum fse_job_state _task_state(uint32_t job_id, uint32_t task, void *arg);

/* Caller holds fab.lock.  RET true when the engine can be used. */
static bool _ready(void)
{
	const char **names;

	if (fab.ctl)
		fse_ctl_log_level(fab.ctl, _log_most());
	if (fab.loaded && fab.tried_nodes == node_record_count) {
		/* a new model file is swapped in without reconfigure */
		if (fse_ctl_refresh(fab.ctl, time(NULL)) == 1 && fab.on_model)
			fab.on_model(fse_ctl_model(fab.ctl));
		return fse_ctl_usable(fab.ctl);
	}
	fab.loaded = true;
	fab.tried_nodes = node_record_count;
	if (!fab.ctl) {
		if (!(fab.ctl = fse_ctl_new(fab.name, _log, NULL)))
			return false;
		fse_ctl_log_level(fab.ctl, _log_most());
		/* the locality record in StateSaveLocation, so that a
		 * restart of slurmctld (which is also how 24.11 and later
		 * reconfigure) does not forget it */
		fse_ctl_state_dir(fab.ctl, slurm_conf.state_save_location);
		fse_ctl_observe_state(fab.ctl, _task_state, NULL);
	}
	names = fs_plugin_node_names();
	fse_ctl_load(fab.ctl, fabsched_plugin_conf_load(fab.name), names, node_record_count);
	xfree(names);
	/* the model may have changed since the callback's owner read it */
	if (fse_ctl_usable(fab.ctl) && fab.on_model)
		fab.on_model(fse_ctl_model(fab.ctl));
	return fse_ctl_usable(fab.ctl);
}

/* Drop the waiting note from the job's SystemComment. */
static void _unwait(job_record_t *job_ptr)
{
	if (fse_note_drop_wait(job_ptr->system_comment))
		xfree(job_ptr->system_comment);
}

/* slurmctld's job table, for the locality record: looked up, not linked (the
 * commands load the plugins too). */
static enum fse_job_state _job_state(uint32_t job_id, void *arg)
{
	static job_record_t *(*find_job)(uint32_t);
	job_record_t *j;

	if (!find_job)
		find_job = (job_record_t * (*)(uint32_t)) dlsym(RTLD_DEFAULT, "find_job_record");
	j = find_job ? find_job(job_id) : NULL;
	if (j && IS_JOB_PENDING(j))
		return FSE_JOB_PENDING;
	if (j && j->job_resrcs) {
		debug("%s: %pJ started: counted in its partition's share", fab.name, j);
		_unwait(j); /* its wait is over (see fabric_place) */
		return FSE_JOB_STARTED;
	}
	return FSE_JOB_GONE;
}

/* The same for a task of a job array: its own record once it started
 * (the array's record, with the tasks still pending, keeps the array's
 * id: a started task is split off into a record of its own). */
static enum fse_job_state _task_state(uint32_t job_id, uint32_t task, void *arg)
{
	static job_record_t *(*find_task)(uint32_t, uint32_t);
	job_record_t *j;

	if (task == FSE_NO_TASK)
		return _job_state(job_id, arg);
	if (!find_task)
		find_task = (job_record_t * (*)(uint32_t, uint32_t))
			dlsym(RTLD_DEFAULT, "find_job_array_rec");
	j = find_task ? find_task(job_id, task) : NULL;
	if (j && IS_JOB_PENDING(j))
		return FSE_JOB_PENDING;
	return j && j->job_resrcs ? FSE_JOB_STARTED : FSE_JOB_GONE;
}

/*
 * Why the job waits, where users read it.  22.05 keeps a select plugin's
 * state_desc when the reason is one slurmctld was told the plugin set
 * (node_scheduler.c, select_nodes: WAIT_BLOCK_MAX_ERR or
 * WAIT_BLOCK_D_ACTION), so squeue's Reason shows it.  24.11 and later
 * replace any plugin's text with their own ("Resources"), so there (and
 * on every release, for one place to look) the job's SystemComment holds
 * it too: `squeue -O system_comment`, `scontrol show job`.
 */
static void _set_pending(job_record_t *job_ptr, const char *why)
{
	_unwait(job_ptr);
	xstrfmtcat(job_ptr->system_comment, "%s%s%s", job_ptr->system_comment ? "; " : "",
		   "fabsched: ", why);
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
	xfree(job_ptr->state_desc);
	job_ptr->state_desc = xstrdup(why);
	job_ptr->state_reason = WAIT_BLOCK_MAX_ERR;
#endif
}

/* The partition of @job (the one being tried) has Locality=off or
 * observe. */
static bool _part_off(const job_record_t *job)
{
	bool off;

	slurm_mutex_lock(&fab.lock);
	_ready(); /* the configuration, even without a usable model */
	off = fse_ctl_part_off(fab.ctl, job->part_ptr ? job->part_ptr->name : NULL);
	slurm_mutex_unlock(&fab.lock);
	if (off)
		debug2("%s: %pJ: partition %s has Locality=off or observe: Slurm's own placement",
		       fab.name, job, job->part_ptr ? job->part_ptr->name : "?");
	return off;
}

bool fabric_applies(const job_record_t *job, bool switches_as_racks)
{
	return job && job->details &&
	       fse_job_applies(job->req_switch && job->req_switch != NO_VAL, switches_as_racks,
			       job->details->req_node_bitmap &&
				       bit_set_count(job->details->req_node_bitmap)) &&
	       !_part_off(job);
}

bool fabric_place_all_off(void)
{
	bool off;

	slurm_mutex_lock(&fab.lock);
	_ready();
	off = fse_ctl_all_off(fab.ctl);
	slurm_mutex_unlock(&fab.lock);
	return off;
}

/* The flavour's node choice on the candidates of @in (NULL: all). */
struct try_arg {
	const struct fabric_ask *ask;
	int rc;
	bool all; /* the last try was on every candidate */
};

static bool _try(const uint8_t *in, void *arg)
{
	struct try_arg *t = arg;
	bitstr_t *b = bit_copy(t->ask->cand);

	if (in) {
		bit_clear_all(b);
		for (int i = 0; i < bit_size(b); i++)
			if (in[i])
				bit_set(b, i);
	}
	t->all = !in;
	t->rc = t->ask->try(b, t->ask->arg);
	FREE_NULL_BITMAP(b);
	return t->rc == SLURM_SUCCESS;
}

/* Bitmap to bytes, in @v (node_record_count of them). */
static uint8_t *_bytes(bitstr_t *b, uint8_t *v)
{
	int64_t first = bit_ffs(b), last = bit_fls(b);

	memset(v, 0, node_record_count);
	for (int64_t i = first; first >= 0 && i <= last; i++)
		v[i] = bit_test(b, i);
	return v;
}

/*
 * The job as the engine sees it (caller holds fab.lock, the engine is
 * ready): its shape, tasks per node (fse_ctl_tasks), candidates and idle
 * nodes as bytes in fab's buffers.  @label is the caller's to free.
 */
static void _job_of(const struct fabric_ask *ask, struct fse_job *j, char **label)
{
	job_record_t *job_ptr = ask->job;
	struct fse_shape shape;
	time_t now = time(NULL), since;
	struct timespec t0, t1;
	uint8_t *idle = NULL;
	int kept;
	uint64_t idle_key;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	*label = xstrdup_printf("%pJ", job_ptr);
	kept = fabric_job_tasks(ask, &shape, fse_ctl_tasks(fab.ctl, false),
				fse_ctl_tasks(fab.ctl, true), &idle_key);
	if (kept < 0)
		verbose("%s: %pJ: the idle machine's tasks per node kept for its shape differ from a recount (a node's settings changed in the last seconds); counted again",
			fab.name, job_ptr);
	if (fab.nbuf != node_record_count) {
		xrecalloc(fab.cand, node_record_count + 1, 1);
		xrecalloc(fab.idle, node_record_count + 1, 1);
		xrecalloc(fab.got, node_record_count + 1, 1);
		fab.nbuf = node_record_count;
	}
	_bytes(ask->cand, fab.cand);
	if (ask->idle && *ask->idle)
		idle = _bytes(*ask->idle, fab.idle);
	since = job_ptr->details->begin_time ? job_ptr->details->begin_time
					     : job_ptr->details->submit_time;
	*j = (struct fse_job){
		.job_id = job_ptr->job_id,
		.label = *label,
		.array_job_id = job_ptr->array_job_id,
		.array_task =
			job_ptr->array_task_id == NO_VAL ? FSE_NO_TASK : job_ptr->array_task_id,
		.part = job_ptr->part_ptr ? job_ptr->part_ptr->name : NULL,
		.env = (const char *const *)job_ptr->spank_job_env,
		.nenv = job_ptr->spank_job_env_size,
		.waited = (since && since < now) ? now - since : 0,
		.min_nodes = ask->min_nodes,
		.max_nodes = ask->max_nodes,
		.want_nodes = ask->req_nodes,
		.ntasks = shape.ntasks,
		.spread = job_ptr->bit_flags & SPREAD_JOB,
		.may_share = ask->idle && !job_ptr->details->whole_node,
		.final = ask->final,
		.pass = _pass(),
		.plan = job_ptr->bit_flags & BACKFILL_TEST,
		.cand = fab.cand,
		.idle = idle,
		.free_at = fabric_free_at,
		.time_limit = fabric_time_limit(job_ptr),
		.idle_kept = kept > 0,
		.idle_key = idle_key,
	};
	clock_gettime(CLOCK_MONOTONIC, &t1);
	j->prep_us = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
	if (ask->switches_as_racks && job_ptr->req_switch && job_ptr->req_switch != NO_VAL) {
		j->switches = true;
		j->switches_racks = job_ptr->req_switch;
		j->switches_wait = job_ptr->wait4switch;
	}
}

/* With fab.lock taken and the engine ready, the job as it sees it (true,
 * the lock held); else, the lock released, the flavour's node choice on
 * every candidate (false, its status in t->rc). */
static bool _engine_job(const struct fabric_ask *ask, struct try_arg *t, struct fse_job *j,
			char **label)
{
	slurm_mutex_lock(&fab.lock);
	if (!_ready() || bit_size(ask->cand) != node_record_count) {
		slurm_mutex_unlock(&fab.lock);
		_try(NULL, t);
		return false;
	}
	_job_of(ask, j, label);
	return true;
}

int fabric_place(const struct fabric_ask *ask)
{
	job_record_t *job_ptr = ask->job;
	struct try_arg t = { .ask = ask, .rc = SLURM_ERROR };
	struct fse_job j;
	struct fse_outcome o;
	char *label;

	if (!_engine_job(ask, &t, &j, &label))
		return t.rc;
	fse_ctl_place(fab.ctl, &j, _try, &t, _job_state, NULL, &o);
	/* an earlier call's note taken back: that placement was no start */
	if (fse_note_drop_last(job_ptr->system_comment, o.take_back))
		xfree(job_ptr->system_comment);
	if (o.unwait)
		_unwait(job_ptr);
	if (o.started && o.note)
		xstrfmtcat(job_ptr->system_comment, "%s%s", job_ptr->system_comment ? "; " : "",
			   o.note);
	if (o.waits)
		_set_pending(job_ptr, o.pending);
	if (o.started)
		fabric_free_at_stale();
	slurm_mutex_unlock(&fab.lock);
	xfree(label);
	if (o.started)
		return SLURM_SUCCESS;
	return (t.all && t.rc != SLURM_SUCCESS) ? t.rc : SLURM_ERROR;
}

int fabric_plan(const struct fabric_ask *ask)
{
	struct try_arg t = { .ask = ask, .rc = SLURM_ERROR };
	struct fse_job j;
	struct fse_plan o;
	char *label;

	if (!_engine_job(ask, &t, &j, &label))
		return t.rc;
	j.plan = true;
	fse_ctl_plan(fab.ctl, &j, _try, &t, &o);
	slurm_mutex_unlock(&fab.lock);
	xfree(label);
	if (o.placed)
		return SLURM_SUCCESS;
	return (t.all && t.rc != SLURM_SUCCESS) ? t.rc : SLURM_ERROR;
}

/* Why fabsched would leave @job to Slurm's choice; NULL: it would not. */
static const char *_stock_why(const job_record_t *job, bool switches_as_racks)
{
	if (job->details->req_node_bitmap && bit_set_count(job->details->req_node_bitmap))
		return "pinned to nodes";
	if (job->req_switch && job->req_switch != NO_VAL && !switches_as_racks)
		return "--switches (Slurm's own meaning)";
	return NULL;
}

bool fabric_observes(const job_record_t *job, bool switches_as_racks)
{
	bool obs;

	/* a job array's own record before a task is picked (Slurm's
	 * test-only question at submission): its tasks are observed as
	 * they start */
	if (!job || !job->details || (job->array_recs && job->array_task_id == NO_VAL))
		return false;
	slurm_mutex_lock(&fab.lock);
	_ready();
	obs = fse_ctl_part_observe(fab.ctl, job->part_ptr ? job->part_ptr->name : NULL);
	slurm_mutex_unlock(&fab.lock);
	return obs;
}

int fabric_observe(const struct fabric_ask *ask, bitstr_t *got)
{
	struct try_arg t = { .ask = ask, .rc = SLURM_ERROR };
	struct fse_job j;
	char *label;

	slurm_mutex_lock(&fab.lock);
	if (!_ready() || bit_size(ask->cand) != node_record_count ||
	    bit_size(got) != node_record_count) {
		slurm_mutex_unlock(&fab.lock);
		_try(NULL, &t);
		return t.rc;
	}
	/* what the engine needs, read before Slurm's choice changes it */
	_job_of(ask, &j, &label);
	j.stock_why = _stock_why(ask->job, ask->switches_as_racks);
	_try(NULL, &t);
	if (t.rc == SLURM_SUCCESS)
		fse_ctl_observe(fab.ctl, &j, _bytes(got, fab.got), _job_state, NULL);
	slurm_mutex_unlock(&fab.lock);
	xfree(label);
	return t.rc;
}

void fabric_place_refresh(void)
{
	slurm_mutex_lock(&fab.lock);
	(void)_ready();
	slurm_mutex_unlock(&fab.lock);
}

void fabric_place_reconfigure(void)
{
	slurm_mutex_lock(&fab.lock);
	fab.loaded = false;
	slurm_mutex_unlock(&fab.lock);
}

void fabric_place_fini(void)
{
	slurm_mutex_lock(&fab.lock);
	if (fab.ctl)
		fse_ctl_finish(fab.ctl);
	fse_ctl_free(fab.ctl);
	fab.ctl = NULL;
	xfree(fab.cand);
	xfree(fab.idle);
	xfree(fab.got);
	fabric_free_at_fini();
	fabric_job_tasks_fini();
	fab.nbuf = 0;
	fab.loaded = false;
	slurm_mutex_unlock(&fab.lock);
}
