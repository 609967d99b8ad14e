/*
 * fabric_place.c - rack-local placement inside slurmctld, shared by the
 * plugin flavours (see fabric_place.h).
 *
 * For each job that locality applies to (the decisions are select/'s; this
 * file converts Slurm's records and carries them out):
 *  1. the job's locality (fse_policy_resolve): the FABSCHED_LOCALITY entry
 *     of its SPANK job environment (sbatch/salloc/srun --fabric-locality,
 *     see fabsched_spank(8)); else its partition's Locality/LocalityWait in
 *     fabsched.conf; else DefaultLocality.  MaxRacks from the partition.
 *     Where the flavour asks for it, --switches=N means at most N racks,
 *     waiting up to the job's --switches wait time.
 *  2. what the job needs of each node (fabric_shape.c): its tasks, CPUs
 *     per task, memory and GRES against what each candidate has free (and
 *     on the idle partition), so that a job sized by tasks gets a domain
 *     that holds them.
 *  3. the placement engine (fse_place) picks the domain: one rack, else
 *     the fewest racks of one pod, else the fewest racks; best fit; first
 *     among candidates without jobs (when the flavour knows them), then,
 *     for jobs that may share nodes, every candidate.
 *  4. the backend runs with the candidates narrowed to that domain and
 *     picks cores, memory and GRES there; if it cannot, the next-best
 *     domain is tried (at most FABRIC_TRIES domains).
 *  5. when nothing was placed (fse_decide_unplaced): the job waits for its
 *     locality while its wait bound has not passed (state_desc says why
 *     where the release keeps it); after the bound, or under its
 *     partition's LocalityTarget (fse_decide_relaxed), the tightest
 *     placement available is taken and the SystemComment records it; a job
 *     no domain could ever hold goes to the backend as without fabsched.
 *  6. the outcome counts toward the partition's share (fse_ledger), kept
 *     in StateSaveLocation.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fs_env.h"
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
#include "fabsched_topo.h"
#include "fs_values.h"

#define FABRIC_TRIES 4		/* domains offered to the backend per call */
#define LOCALITY_ENV FS_ENV_LOCALITY "="
#define LOCALITY_ENV_PROLOG FS_ENV_SPANK FS_ENV_LOCALITY "="

static struct {
	pthread_mutex_t lock;
	const char *name;	/* plugin type, for the log */
	bool loaded;		/* tried since start or reconfigure */
	bool usable;		/* conf, model and domains ready */
	int node_count;		/* node_record_count the domains were built for */
	struct fs_conf *conf;
	struct fst_model *model;
	struct fse_topo *topo;
	struct fse_work *work;
	uint8_t *avail;		/* [node_count] */
	uint32_t *tasks_now;	/* [node_count] job's tasks per node, now */
	uint32_t *tasks_idle;	/* [node_count] and on the idle partition */
	uint8_t *skip;		/* [racks] */
	/* per partition: did recent jobs that fit a domain get one, and the
	 * decisions not known to be starts yet (kept across
	 * reconfigurations; LocalityTarget reads it) */
	struct fse_ledger *ledger;
	bool ledger_loaded;	/* the state file was read (once) */
	time_t save_sec;	/* saves in the current second ... */
	int save_n;		/* ... at most a few */
	time_t commit_sec;	/* last scan of the pending decisions */
	/* timing of the calls that the engine handled */
	uint64_t calls, started, waits, relaxed;
	double hook_us, hook_us_max, backend_us;
} fab = { .lock = PTHREAD_MUTEX_INITIALIZER, .name = "fabsched" };

void fabric_place_set_name(const char *plugin_type)
{
	fab.name = plugin_type;
}

static double _now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* ------------------------------------------------------------ loading */

static void _unload(void)
{
	fs_conf_destroy(fab.conf);
	fst_model_free(fab.model);
	fse_work_free(fab.work);
	fse_topo_free(fab.topo);
	xfree(fab.avail);
	xfree(fab.tasks_now);
	xfree(fab.tasks_idle);
	xfree(fab.skip);
	fab.conf = NULL;
	fab.model = NULL;
	fab.work = NULL;
	fab.topo = NULL;
	fab.usable = false;
	fab.node_count = 0;
}


/* Caller holds fab.lock.  RET true when the engine can be used. */
static bool _ready(void)
{
	const char *path;
	const char **names = NULL;
	char err[1024] = "";
	int unknown = 0;

	if (fab.loaded && fab.node_count == node_record_count)
		return fab.usable;
	_unload();
	fab.loaded = true;

	if (!(fab.conf = fs_plugin_conf_load(fab.name))) {
		error("%s: no usable fabsched.conf: jobs are placed without locality",
		      fab.name);
		return false;
	}
	path = fs_conf_get_str(fab.conf, "FabricModel");
	if (!path) {
		error("%s: FabricModel is not set in %s: jobs are placed without locality",
		      fab.name, fs_conf_source(fab.conf));
		return false;
	}
	if (fst_json_read_file(&fab.model, path, err, sizeof(err))) {
		error("%s: fabric model %s: %s: jobs are placed without locality",
		      fab.name, path, err);
		fab.model = NULL;
		return false;
	}
	names = xcalloc(node_record_count ? node_record_count : 1,
			sizeof(char *));
	for (int i = 0; i < node_record_count; i++)
		names[i] = node_record_table_ptr[i] ?
			node_record_table_ptr[i]->name : NULL;
	if (fse_topo_from_model(fab.model, names, node_record_count,
				&fab.topo, &unknown, err, sizeof(err)) ||
	    !(fab.work = fse_work_new(fab.topo))) {
		error("%s: locality domains of %s: %s", fab.name, path,
		      err[0] ? err : "out of memory");
		xfree(names);
		_unload();
		fab.loaded = true;
		return false;
	}
	xfree(names);
	fab.avail = xcalloc(node_record_count ? node_record_count : 1, 1);
	fab.tasks_now = xcalloc(node_record_count ? node_record_count : 1,
				sizeof(uint32_t));
	fab.tasks_idle = xcalloc(node_record_count ? node_record_count : 1,
				 sizeof(uint32_t));
	fab.skip = xcalloc(fse_topo_nracks(fab.topo) + 1, 1);
	fab.node_count = node_record_count;
	fab.usable = true;
	info("%s: fabric model %s: %d nodes in %d racks (largest %d), %d pods; %d Slurm nodes not in the model",
	     fab.name, path, node_record_count, fab.model->nracks,
	     fse_topo_max_rack(fab.topo), fab.model->npods, unknown);
	return true;
}

/* ------------------------------------------------------------ ledger */

/*
 * The locality record (fse_ledger of select/) is kept in StateSaveLocation,
 * so that a restart of slurmctld (which is also how 24.11 reconfigures)
 * does not forget it; written through a temporary file and rename when it
 * changed (at most a few times a second from the scheduling path).
 */
#define SHARE_FILE "fabsched_locality_share"

static char *_share_path(void)
{
	if (!slurm_conf.state_save_location || !*slurm_conf.state_save_location)
		return NULL;
	return xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			      SHARE_FILE);
}

static void _shares_load(void)
{
	char *path = _share_path(), err[FS_MSG_SIZE];
	FILE *f;

	fab.ledger_loaded = true;
	if (!path)
		return;
	if (!(f = fopen(path, "re"))) {
		if (errno != ENOENT)
			error("%s: %s: %m: locality shares start empty",
			      fab.name, path);
	} else {
		if (fse_ledger_read(fab.ledger, f, path, err, sizeof(err)))
			error("%s: %s", fab.name, err);
		fclose(f);
	}
	xfree(path);
}

static void _shares_save(void)
{
	char *path, *tmp;
	FILE *f;
	int rc;

	if (!fse_ledger_nparts(fab.ledger) || !(path = _share_path()))
		return;
	tmp = xstrdup_printf("%s.new", path);
	if (!(f = fopen(tmp, "we"))) {
		error("%s: %s: %m: locality shares not saved", fab.name, tmp);
	} else {
		rc = fse_ledger_write(fab.ledger, f);
		if (fclose(f) || rc || rename(tmp, path)) {
			error("%s: %s: %m: locality shares not saved", fab.name,
			      path);
			unlink(tmp);
		}
	}
	xfree(tmp);
	xfree(path);
}

/* In the scheduling path: save now, unless this second already saw a few
 * saves (a backfill cycle decides for hundreds of jobs); then the next
 * call after it does. */
static void _shares_save_soon(void)
{
	time_t now = time(NULL);

	if (now != fab.save_sec) {
		fab.save_sec = now;
		fab.save_n = 0;
	}
	if (fab.save_n < 4) {
		fab.save_n++;
		_shares_save();
	}
}

/* The ledger's index of a partition ("" for none); -1 out of memory. */
static int _share_of(const char *part)
{
	if (!fab.ledger && !(fab.ledger = fse_ledger_new(0)))
		return -1;
	if (!fab.ledger_loaded)
		_shares_load();
	return fse_ledger_part(fab.ledger, part ? part : "");
}

/* slurmctld's job table, for the ledger: looked up, not linked (the
 * commands load the plugins too). */
static enum fse_job_state _job_state(uint32_t job_id, void *arg)
{
	job_record_t *(*find_job)(uint32_t) = arg;
	job_record_t *j = find_job ? find_job(job_id) : NULL;

	if (j && IS_JOB_PENDING(j))
		return FSE_JOB_PENDING;
	if (j && j->job_resrcs) {
		debug("%s: %pJ started: counted in its partition's share",
		      fab.name, j);
		return FSE_JOB_STARTED;
	}
	return FSE_JOB_GONE;
}

/* Count the kept decisions of jobs that now hold an allocation, at most
 * once a second (placement calls come by the hundred per backfill cycle). */
static void _commit_pending(void)
{
	static job_record_t *(*find_job)(uint32_t);
	time_t now = time(NULL);

	if (!fse_ledger_npend(fab.ledger) || now == fab.commit_sec)
		return;
	fab.commit_sec = now;
	if (!find_job)
		find_job = (job_record_t *(*)(uint32_t))
			dlsym(RTLD_DEFAULT, "find_job_record");
	fse_ledger_commit(fab.ledger, _job_state, (void *)find_job);
}

/* ------------------------------------------------------------ policy */

struct policy {
	struct fse_policy p;
	struct fs_locality loc;	/* p's locality, for messages */
};

static void _job_policy(job_record_t *job_ptr, bool switches_as_racks,
			struct policy *pol)
{
	const char *part = job_ptr->part_ptr ? job_ptr->part_ptr->name : NULL;
	struct fs_locality ploc = { .level = FS_LOCALITY_ANY, .wait_set = true,
				    .wait = FS_DURATION_INFINITE };
	struct fse_policy_in in = { 0 };
	uint64_t mr = 0, ppm = 0;

	if (!fs_conf_part_get_uint(fab.conf, part, "LocalityTarget", &ppm))
		in.part_target = (double)ppm / 1e6;
	if (fs_conf_part_locality(fab.conf, part, &ploc))
		ploc = (struct fs_locality){ .level = FS_LOCALITY_ANY,
					     .wait_set = true };
	if (!fs_conf_part_get_uint(fab.conf, part, "MaxRacks", &mr) &&
	    mr <= UINT32_MAX)
		in.part_max_racks = (uint32_t)mr;
	in.part_level = (enum fse_level)ploc.level;
	in.part_wait = ploc.wait;

	for (uint32_t i = 0; i < job_ptr->spank_job_env_size; i++) {
		const char *e = job_ptr->spank_job_env[i], *v = NULL;
		struct fs_locality jloc;
		char msg[FS_MSG_SIZE];

		if (!e)
			continue;
		if (!strncmp(e, LOCALITY_ENV, strlen(LOCALITY_ENV)))
			v = e + strlen(LOCALITY_ENV);
		else if (!strncmp(e, LOCALITY_ENV_PROLOG,
				  strlen(LOCALITY_ENV_PROLOG)))
			v = e + strlen(LOCALITY_ENV_PROLOG);
		if (!v)
			continue;
		if (fs_parse_locality("--fabric-locality", v, &jloc, msg,
				      sizeof(msg))) {
			error("%s: %pJ: %s: using the partition's locality",
			      fab.name, job_ptr, msg);
			break;
		}
		in.job_set = true;
		in.job_level = (enum fse_level)jloc.level;
		in.job_wait_set = jloc.wait_set;
		in.job_wait = jloc.wait;
		break;
	}
	if (switches_as_racks && job_ptr->req_switch &&
	    job_ptr->req_switch != NO_VAL) {
		in.switches = true;
		in.switches_racks = job_ptr->req_switch;
		in.switches_wait = job_ptr->wait4switch;
	}
	fse_policy_resolve(&in, &pol->p);
	pol->loc = (struct fs_locality){ .level =
		(enum fs_locality_level)pol->p.level, .wait_set = true,
		.wait = pol->p.wait };
}

/* ------------------------------------------------------------ job_test */

/* Candidates of @bitmap inside the chosen racks, as a new bitmap. */
static bitstr_t *_narrow(bitstr_t *bitmap, const struct fse_result *res)
{
	bitstr_t *b = bit_alloc(bit_size(bitmap));

	for (int i = 0; i < fab.node_count; i++) {
		int r = fse_topo_rack_of(fab.topo, i);

		for (int k = 0; k < res->nracks; k++)
			if (res->racks[k] == r) {
				if (bit_test(bitmap, i))
					bit_set(b, i);
				break;
			}
	}
	return b;
}

/* "leaf01,leaf02" of a result */
static char *_rack_names(const struct fse_result *res)
{
	char *s = NULL;

	for (int k = 0; k < res->nracks; k++) {
		int r = res->racks[k];

		xstrfmtcat(s, "%s%s", k ? "," : "",
			   (r < fab.model->nracks) ? fab.model->racks[r].name :
			   "(none)");
	}
	return s;
}

static void _set_pending(job_record_t *job_ptr, const struct policy *pol,
			 const char *why, time_t waited)
{
	char loc[32], w[32];

	/*
	 * slurmctld replaces the state_desc of a job whose job_test failed
	 * with plain "Resources" unless the reason is one it was told the
	 * select plugin set (node_scheduler.c, select_nodes): in 22.05 that is
	 * WAIT_BLOCK_MAX_ERR or WAIT_BLOCK_D_ACTION.  squeue and scontrol
	 * show state_desc, so users read the text below.  24.11 has no such
	 * reason: there the main scheduler shows "Resources" (the text stays
	 * in slurmctld's log at debug level).
	 */
	xfree(job_ptr->state_desc);
	job_ptr->state_desc = xstrdup_printf("Locality: %s; %s, waited %s",
					     why, fs_format_locality(&pol->loc, loc, sizeof(loc)),
					     fs_format_duration(waited, w, sizeof(w)));
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
	job_ptr->state_reason = WAIT_BLOCK_MAX_ERR;
#endif
}

static void _note(job_record_t *job_ptr, const char *note);

/* The note saying the job ran without its locality (for SystemComment). */
static char *_relaxed_note(const struct policy *pol, time_t waited,
			   const char *how)
{
	char loc[32], w[32];

	return xstrdup_printf("fabsched: locality %s relaxed after %s: %s",
			      fs_format_locality(&pol->loc, loc, sizeof(loc)),
			      fs_format_duration(waited, w, sizeof(w)), how);
}

/*
 * A placement the backend accepted: count it toward the partition's share
 * (ledger index @part, -1: none) and add @note (taken) to the
 * SystemComment.  When the try may not have been the start (!ask->final),
 * the note is taken back if the job is asked about again, and the share
 * counts the job once it is seen holding an allocation.
 */
static void _outcome(const struct fabric_ask *ask, int part,
		     const struct fse_request *rq, const struct fse_result *res,
		     char *note)
{
	bool got = res->level <= rq->level;

	if (note)
		_note(ask->job, note);
	if (part >= 0 && !ask->final)
		fse_ledger_pend(fab.ledger, ask->job->job_id, part,
				res->fits_domain, got, note);
	else if (part >= 0 && res->fits_domain)
		fse_ledger_count(fab.ledger, part, got);
	xfree(note);
}

/* Add a note to the job's SystemComment. */
static void _note(job_record_t *job_ptr, const char *note)
{
	xstrfmtcat(job_ptr->system_comment, "%s%s",
		   job_ptr->system_comment ? "; " : "", note);
}

/* Take back the note the last call added: the job is asked about again,
 * so that placement was not its start. */
static void _unnote(job_record_t *job_ptr)
{
	char *c = job_ptr->system_comment;
	const char *note = fse_ledger_note(fab.ledger, job_ptr->job_id);
	size_t lc, ln;

	if (!note)
		return;
	if (c && (lc = strlen(c)) >= (ln = strlen(note)) &&
	    !strcmp(c + lc - ln, note)) {
		if (lc == ln)
			xfree(job_ptr->system_comment);
		else if (lc >= ln + 2 && !strncmp(c + lc - ln - 2, "; ", 2))
			c[lc - ln - 2] = '\0';
	}
	fse_ledger_drop_note(fab.ledger, job_ptr->job_id);
}

bool fabric_applies(const job_record_t *job, bool switches_as_racks)
{
	if (!job || !job->details)
		return false;
	if (job->req_switch && job->req_switch != NO_VAL && !switches_as_racks)
		return false;	/* stock --switches handling */
	if (job->details->req_node_bitmap &&
	    bit_set_count(job->details->req_node_bitmap))
		return false;	/* pinned to nodes (--nodelist) */
	return true;
}

/*
 * A job the engine and the backend did not place: what select/ decides
 * (fse_decide_unplaced), carried out.  *rc the backend's, SLURM_ERROR when
 * the job waits.
 */
static void _unplaced(const struct fabric_ask *ask, int part,
		      const struct policy *pol, const struct fse_request *rq,
		      const struct fse_result *res, int tries, time_t waited,
		      int *rc, double *backend_us)
{
	job_record_t *job_ptr = ask->job;
	enum fse_action act = fse_decide_unplaced(rq, res, tries);
	bitstr_t *all;
	double tb;

	*rc = SLURM_ERROR;
	switch (act) {
	case FSE_ACT_WAIT:
		fab.waits++;
		_set_pending(job_ptr, pol, tries ?
			     "no domain has the cores or memory free" :
			     res->reason, waited);
		debug("%s: %pJ: pending: %s", fab.name, job_ptr,
		      job_ptr->state_desc);
		return;
	case FSE_ACT_RESOURCES:
		return;		/* not enough free: plain Resources */
	case FSE_ACT_BACKEND:
	case FSE_ACT_ANY:
		break;
	}
	/* FSE_ACT_BACKEND: by fabsched's count no domain could ever hold the
	 * job (its shape against the nodes as configured), so Slurm's own
	 * node choice decides as it would without fabsched.  FSE_ACT_ANY:
	 * any placement will do.  Both: the backend on every candidate. */
	all = bit_copy(ask->cand);
	tb = _now_us();
	*rc = ask->try(all, ask->arg);
	*backend_us += _now_us() - tb;
	FREE_NULL_BITMAP(all);
	if (act == FSE_ACT_BACKEND) {
		debug("%s: %pJ: %s: placed by the backend on all candidates",
		      fab.name, job_ptr, res->reason);
	} else if (*rc == SLURM_SUCCESS) {
		/* counted as a miss: no domain was chosen */
		struct fse_result any = {
			.status = FSE_OK, .level = FSE_ANY,
			.fits_domain = fse_request_fits_domain(fab.topo,
							       fab.work, rq) };

		if (rq->level != FSE_ANY)
			fab.relaxed++;
		_outcome(ask, part, rq, &any, rq->level == FSE_ANY ? NULL :
			 _relaxed_note(pol, waited, "placed on any nodes"));
	}
}

int fabric_place(const struct fabric_ask *ask)
{
	job_record_t *job_ptr = ask->job;
	bitstr_t *bitmap = ask->cand;
	struct fse_request rq = { 0 };
	struct fse_result res;
	struct policy pol;
	double t0 = _now_us(), tb = 0, backend_us = 0;
	time_t now = time(NULL), since, waited;
	bool shared_pass = false, started = false, by_target = false;
	int rc = SLURM_ERROR, tries = 0, part;
	struct fse_share *share = NULL;
	struct fse_shape shape;
	char *racks = NULL;

#define BACKEND(bm)                                                            \
	(tb = _now_us(), rc = ask->try((bm), ask->arg),                        \
	 backend_us += _now_us() - tb, rc)

	slurm_mutex_lock(&fab.lock);
	if (!_ready() || bit_size(bitmap) != fab.node_count) {
		bitstr_t *all = bit_copy(bitmap);

		slurm_mutex_unlock(&fab.lock);
		rc = ask->try(all, ask->arg);
		FREE_NULL_BITMAP(all);
		return rc;
	}
	_job_policy(job_ptr, ask->switches_as_racks, &pol);
	if (!ask->final) {
		_unnote(job_ptr);
		_commit_pending();
	}

	since = job_ptr->details->begin_time ? job_ptr->details->begin_time :
		job_ptr->details->submit_time;
	waited = (since && since < now) ? now - since : 0;
	rq.min_nodes = ask->min_nodes ? ask->min_nodes : 1;
	rq.max_nodes = ask->max_nodes < rq.min_nodes ? rq.min_nodes :
		ask->max_nodes;
	rq.want_nodes = ask->req_nodes;
	rq.level = pol.p.level;
	rq.max_racks = pol.p.max_racks;
	/* what the job needs of each node: a job sized by tasks (-n) gets the
	 * domain that holds its tasks, not only its node count */
	fabric_job_tasks(ask, &shape, fab.tasks_now, fab.tasks_idle);
	if (shape.ntasks) {
		rq.ntasks = shape.ntasks;
		rq.tasks_now = fab.tasks_now;
		rq.tasks_idle = fab.tasks_idle;
		if (job_ptr->bit_flags & SPREAD_JOB) {
			/* --spread-job: one node per task, as far as the
			 * candidates go, as Slurm's own spreading does */
			for (int i = 0; i < fab.node_count; i++)
				fab.avail[i] = bit_test(bitmap, i);
			rq.min_nodes = fse_spread_nodes(rq.ntasks, rq.min_nodes,
							rq.max_nodes,
							fab.tasks_now, fab.avail,
							fab.node_count);
		}
		if (rq.max_nodes < rq.min_nodes)
			rq.max_nodes = rq.min_nodes;
	}
	part = _share_of(job_ptr->part_ptr ? job_ptr->part_ptr->name : NULL);
	share = fse_ledger_share(fab.ledger, part);
	/* whether the job fits a domain of its level when idle: a pass over
	 * every node, needed only under a LocalityTarget */
	rq.relaxed = fse_decide_relaxed(&pol.p, (uint64_t)waited, share,
					pol.p.target > 0 &&
					fse_request_fits_domain(fab.topo,
								fab.work, &rq),
					&by_target);
	rq.skip_racks = fab.skip;
	memset(fab.skip, 0, fse_topo_nracks(fab.topo));

	/* first the candidates without jobs (where the flavour knows them),
	 * that can run the job */
	for (int i = 0; i < fab.node_count; i++)
		fab.avail[i] = bit_test(bitmap, i) && fab.tasks_now[i] &&
			(!ask->idle || !*ask->idle || bit_test(*ask->idle, i));
	fse_place(fab.topo, fab.work, &rq, fab.avail, &res);
	if (res.status == FSE_NOT_NOW && ask->idle &&
	    !job_ptr->details->whole_node) {
		/* a job that shares nodes may fit beside others: what is
		 * free on every candidate, and the backend checks it domain
		 * by domain */
		for (int i = 0; i < fab.node_count; i++)
			fab.avail[i] = bit_test(bitmap, i) && fab.tasks_now[i];
		fse_place(fab.topo, fab.work, &rq, fab.avail, &res);
		shared_pass = true;
	}

	while (res.status == FSE_OK && tries < FABRIC_TRIES) {
		bitstr_t *narrowed = _narrow(bitmap, &res);

		tries++;
		if (BACKEND(narrowed) == SLURM_SUCCESS) {
			FREE_NULL_BITMAP(narrowed);
			started = true;
			break;
		}
		FREE_NULL_BITMAP(narrowed);
		for (int k = 0; k < res.nracks; k++)
			fab.skip[res.racks[k]] = 1;
		fse_place(fab.topo, fab.work, &rq, fab.avail, &res);
	}

	fab.calls++;
	if (started) {
		unsigned n = 0;
		double got = share ? fse_share_get(share, &n) : 1;

		char *note = NULL;

		racks = _rack_names(&res);
		fab.started++;
		if (res.relaxed) {
			char loc[32], *how;

			/* the share before this job */
			how = by_target ?
				xstrdup_printf("%d racks (%s); LocalityTarget %g%%: %u of the last %u jobs got their domain",
					       res.nracks, racks, pol.p.target * 100,
					       (unsigned)(got * n + 0.5), n) :
				xstrdup_printf("%d racks (%s)", res.nracks,
					       racks);
			note = _relaxed_note(&pol, waited, how);
			xfree(how);
			fab.relaxed++;
			info("%s: %pJ: locality %s (%s) relaxed after %lds: %s",
			     fab.name, job_ptr,
			     fs_format_locality(&pol.loc, loc, sizeof(loc)),
			     fse_policy_from_name(pol.p.from), (long)waited,
			     racks);
		}
		_outcome(ask, part, &rq, &res, note);
		verbose("%s: %pJ: %s, racks %s (locality %s from %s, %d tries%s)",
			fab.name, job_ptr, res.reason, racks,
			fse_level_name(rq.level),
			fse_policy_from_name(pol.p.from), tries,
			shared_pass ? ", shared nodes" : "");
		xfree(racks);
	} else {
		_unplaced(ask, part, &pol, &rq, &res, tries, waited, &rc,
			  &backend_us);
	}
	if (fse_ledger_dirty(fab.ledger))
		_shares_save_soon();
	slurm_mutex_unlock(&fab.lock);

	{
		double hook = _now_us() - t0 - backend_us;

		fab.hook_us += hook;
		if (hook > fab.hook_us_max)
			fab.hook_us_max = hook;
		fab.backend_us += backend_us;
		debug("%s: %pJ: placement %s: fabsched %.0f us, backend %.0f us (%d calls); mean fabsched %.1f us over %" PRIu64 " calls, max %.0f us",
		      fab.name, job_ptr, rc == SLURM_SUCCESS ? "started" : "not now",
		      hook, backend_us, tries, fab.hook_us / fab.calls, fab.calls,
		      fab.hook_us_max);
	}
	return rc;
#undef BACKEND
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
	if (fse_ledger_dirty(fab.ledger))
		_shares_save();
	if (fab.calls)
		info("%s: %" PRIu64 " placement decisions (%" PRIu64 " started, %" PRIu64 " waited, %" PRIu64 " relaxed): fabsched time mean %.1f us, max %.0f us; backend mean %.1f us",
		     fab.name, fab.calls, fab.started, fab.waits, fab.relaxed,
		     fab.hook_us / fab.calls, fab.hook_us_max,
		     fab.backend_us / fab.calls);
	for (int i = 0; i < fse_ledger_nparts(fab.ledger); i++) {
		const char *name = fse_ledger_part_name(fab.ledger, i);
		unsigned n = 0;
		double got = fse_share_get(fse_ledger_share(fab.ledger, i), &n);

		if (n)
			info("%s: partition %s: %.1f%% of the last %u jobs that fit a domain got one",
			     fab.name, name[0] ? name : "(none)", got * 100, n);
	}
	fse_ledger_free(fab.ledger);
	fab.ledger = NULL;
	fab.ledger_loaded = false;
	_unload();
	fab.loaded = false;
	slurm_mutex_unlock(&fab.lock);
}
