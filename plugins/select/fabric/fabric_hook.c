/*
 * fabric_hook.c - locality in select/cons_tres_fabric (Slurm 22.05).
 *
 * In select_p_job_test(SELECT_MODE_RUN_NOW):
 *  1. the job's locality: the FABSCHED_LOCALITY entry of its SPANK job
 *     environment (sbatch/salloc/srun --fabric-locality, see
 *     fabsched_spank(8)); else its partition's Locality/LocalityWait in
 *     fabsched.conf; else DefaultLocality.  MaxRacks from the partition.
 *  2. the free nodes: candidates of @bitmap on which no job runs
 *     (idle_node_bitmap); for jobs that may share nodes, when that is not
 *     enough, every candidate.
 *  3. the placement engine (select/) picks the domain: one rack, else the
 *     fewest racks of one pod, else the fewest racks; best fit.
 *  4. cons_tres runs with the candidates narrowed to that domain and picks
 *     cores, memory and GRES there; if it cannot, the next-best domain is
 *     tried (at most FABRIC_TRIES domains).
 *  5. when the locality cannot be had now and the job's wait bound has not
 *     passed, the job stays pending: state_desc says why (squeue, scontrol);
 *     after the bound, the tightest placement available is taken and the
 *     job's SystemComment records that locality was relaxed.
 *
 * Left to cons_tres unchanged: TEST_ONLY and WILL_RUN (expected start
 * times, backfill planning), jobs with --switches (stock topology
 * handling), jobs with required nodes (--nodelist), calls with preemption
 * candidates, and every job while no fabric model is loaded.
 *
 * Nothing here stops the daemon: a bad fabsched.conf, a missing model or
 * a bad --fabric-locality value is logged and the job is handed to
 * cons_tres as is.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/select.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "fabric_hook.h"
#include "fabsched_conf.h"
#include "fs_plugin_conf.h"
#include "fabsched_select.h"
#include "fabsched_topo.h"
#include "fs_values.h"

#define PLUGIN "select/cons_tres_fabric"
#define FABRIC_TRIES 4		/* domains offered to cons_tres per job_test */
#define LOCALITY_ENV "FABSCHED_LOCALITY="
#define LOCALITY_ENV_PROLOG "SPANK_FABSCHED_LOCALITY="

static struct {
	pthread_mutex_t lock;
	bool loaded;		/* tried since start or reconfigure */
	bool usable;		/* conf, model and domains ready */
	int node_count;		/* node_record_count the domains were built for */
	struct fs_conf *conf;
	struct fst_model *model;
	struct fse_topo *topo;
	struct fse_work *work;
	uint8_t *avail;		/* [node_count] */
	uint8_t *skip;		/* [racks] */
	bitstr_t **idle;	/* &idle_node_bitmap of slurmctld */
	/* timing of RUN_NOW calls that the engine handled */
	uint64_t calls, started, waits, relaxed;
	double hook_us, hook_us_max, backend_us;
} fab = { .lock = PTHREAD_MUTEX_INITIALIZER };

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
	if (!fab.idle)
		fab.idle = dlsym(RTLD_DEFAULT, "idle_node_bitmap");

	if (!(fab.conf = fs_plugin_conf_load(PLUGIN))) {
		error("%s: no usable fabsched.conf: jobs are placed by cons_tres alone",
		      PLUGIN);
		return false;
	}
	path = fs_conf_get_str(fab.conf, "FabricModel");
	if (!path) {
		error("%s: FabricModel is not set in %s: jobs are placed by cons_tres alone",
		      PLUGIN, fs_conf_source(fab.conf));
		return false;
	}
	if (fst_json_read_file(&fab.model, path, err, sizeof(err))) {
		error("%s: fabric model %s: %s: jobs are placed by cons_tres alone",
		      PLUGIN, path, err);
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
		error("%s: locality domains of %s: %s", PLUGIN, path,
		      err[0] ? err : "out of memory");
		xfree(names);
		_unload();
		fab.loaded = true;
		return false;
	}
	xfree(names);
	fab.avail = xcalloc(node_record_count ? node_record_count : 1, 1);
	fab.skip = xcalloc(fse_topo_nracks(fab.topo) + 1, 1);
	fab.node_count = node_record_count;
	fab.usable = true;
	info("%s: fabric model %s: %d nodes in %d racks (largest %d), %d pods; %d Slurm nodes not in the model",
	     PLUGIN, path, node_record_count, fab.model->nracks,
	     fse_topo_max_rack(fab.topo), fab.model->npods, unknown);
	return true;
}

/* ------------------------------------------------------------ policy */

struct policy {
	struct fs_locality loc;
	uint32_t max_racks;
	const char *from;	/* "--fabric-locality" or "partition" */
};

static void _job_policy(job_record_t *job_ptr, struct policy *pol)
{
	const char *part = job_ptr->part_ptr ? job_ptr->part_ptr->name : NULL;
	struct fs_locality ploc = { .level = FS_LOCALITY_ANY, .wait_set = true };
	uint64_t mr = 0;

	memset(pol, 0, sizeof(*pol));
	if (fs_conf_part_locality(fab.conf, part, &ploc))
		ploc = (struct fs_locality){ .level = FS_LOCALITY_ANY,
					     .wait_set = true };
	if (!fs_conf_part_get_uint(fab.conf, part, "MaxRacks", &mr) &&
	    mr <= UINT32_MAX)
		pol->max_racks = (uint32_t)mr;
	pol->loc = ploc;
	pol->from = "partition";

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
			      PLUGIN, job_ptr, msg);
			break;
		}
		pol->loc.level = jloc.level;
		if (jloc.wait_set)
			pol->loc.wait = jloc.wait;
		pol->from = "--fabric-locality";
		break;
	}
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
	 * show state_desc, so users read the text below.
	 */
	xfree(job_ptr->state_desc);
	job_ptr->state_desc = xstrdup_printf("Locality: %s; %s, waited %s",
					     why, fs_format_locality(&pol->loc, loc, sizeof(loc)),
					     fs_format_duration(waited, w, sizeof(w)));
	job_ptr->state_reason = WAIT_BLOCK_MAX_ERR;
}

/* The job ran without its locality: say so in its SystemComment. */
static void _record_relaxed(job_record_t *job_ptr, const struct policy *pol,
			    time_t waited, const char *how)
{
	char loc[32], w[32];

	xstrfmtcat(job_ptr->system_comment,
		   "%sfabsched: locality %s relaxed after %s: %s",
		   job_ptr->system_comment ? "; " : "",
		   fs_format_locality(&pol->loc, loc, sizeof(loc)),
		   fs_format_duration(waited, w, sizeof(w)), how);
}

int fabric_job_test(fabric_job_test_f backend, job_record_t *job_ptr,
		    bitstr_t *bitmap, uint32_t min_nodes, uint32_t max_nodes,
		    uint32_t req_nodes, uint16_t mode,
		    List preemptee_candidates, List *preemptee_job_list,
		    bitstr_t *exc_core_bitmap)
{
	struct fse_request rq = { 0 };
	struct fse_result res;
	struct policy pol;
	double t0 = _now_us(), tb = 0, backend_us = 0;
	time_t now = time(NULL), since, waited;
	bool shared_pass = false, started = false;
	int rc = EINVAL, tries = 0;
	char *racks = NULL;

#define BACKEND(bm)                                                            \
	(tb = _now_us(),                                                       \
	 rc = backend(job_ptr, (bm), min_nodes, max_nodes, req_nodes, mode,    \
		      preemptee_candidates, preemptee_job_list,                \
		      exc_core_bitmap),                                        \
	 backend_us += _now_us() - tb, rc)

	if (mode != SELECT_MODE_RUN_NOW || !job_ptr || !job_ptr->details ||
	    job_ptr->req_switch ||
	    (job_ptr->details->req_node_bitmap &&
	     bit_set_count(job_ptr->details->req_node_bitmap)) ||
	    (preemptee_candidates && list_count(preemptee_candidates)))
		return backend(job_ptr, bitmap, min_nodes, max_nodes,
			       req_nodes, mode, preemptee_candidates,
			       preemptee_job_list, exc_core_bitmap);

	slurm_mutex_lock(&fab.lock);
	if (!_ready() || bit_size(bitmap) != fab.node_count) {
		slurm_mutex_unlock(&fab.lock);
		return backend(job_ptr, bitmap, min_nodes, max_nodes,
			       req_nodes, mode, preemptee_candidates,
			       preemptee_job_list, exc_core_bitmap);
	}
	_job_policy(job_ptr, &pol);

	since = job_ptr->details->begin_time ? job_ptr->details->begin_time :
		job_ptr->details->submit_time;
	waited = (since && since < now) ? now - since : 0;
	rq.min_nodes = min_nodes ? min_nodes : 1;
	rq.max_nodes = max_nodes < rq.min_nodes ? rq.min_nodes : max_nodes;
	rq.want_nodes = req_nodes;
	rq.level = (enum fse_level)pol.loc.level;
	rq.max_racks = pol.max_racks;
	rq.relaxed = pol.loc.wait != FS_DURATION_INFINITE &&
		     (uint64_t)waited >= pol.loc.wait;
	rq.skip_racks = fab.skip;
	memset(fab.skip, 0, fse_topo_nracks(fab.topo));

	/* free: candidates without jobs */
	for (int i = 0; i < fab.node_count; i++)
		fab.avail[i] = bit_test(bitmap, i) &&
			(!fab.idle || !*fab.idle || bit_test(*fab.idle, i));
	fse_place(fab.topo, fab.work, &rq, fab.avail, &res);
	if (res.status == FSE_NOT_NOW && !job_ptr->details->whole_node) {
		/* a job that shares nodes may fit beside others: let cons_tres
		 * check the candidates, domain by domain */
		for (int i = 0; i < fab.node_count; i++)
			fab.avail[i] = bit_test(bitmap, i);
		fse_place(fab.topo, fab.work, &rq, fab.avail, &res);
		shared_pass = true;
	}

	while (res.status == FSE_OK && tries < FABRIC_TRIES) {
		bitstr_t *narrowed = _narrow(bitmap, &res);

		tries++;
		if (BACKEND(narrowed) == SLURM_SUCCESS) {
			bit_copybits(bitmap, narrowed);
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
		racks = _rack_names(&res);
		fab.started++;
		if (res.relaxed) {
			char loc[32], *how = xstrdup_printf("%d racks (%s)",
							    res.nracks, racks);

			fab.relaxed++;
			_record_relaxed(job_ptr, &pol, waited, how);
			xfree(how);
			info("%s: %pJ: locality %s (%s) relaxed after %lds: %s",
			     PLUGIN, job_ptr,
			     fs_format_locality(&pol.loc, loc, sizeof(loc)),
			     pol.from, (long)waited, racks);
		}
		verbose("%s: %pJ: %s, racks %s (locality %s from %s, %d tries%s)",
			PLUGIN, job_ptr, res.reason, racks,
			fse_level_name(rq.level), pol.from, tries,
			shared_pass ? ", shared nodes" : "");
		xfree(racks);
	} else if (res.status == FSE_NEVER ||
		   (res.status == FSE_NOT_NOW && res.could_relax) ||
		   (tries && !rq.relaxed && rq.level != FSE_ANY)) {
		/* the locality is what keeps the job waiting */
		fab.waits++;
		_set_pending(job_ptr, &pol, tries ?
			     "no domain has the cores or memory free" :
			     res.reason, waited);
		debug("%s: %pJ: pending: %s", PLUGIN, job_ptr, job_ptr->state_desc);
		rc = EINVAL;
	} else if (rq.level == FSE_ANY || rq.relaxed) {
		/* any placement will do: cons_tres on every candidate */
		if (BACKEND(bitmap) == SLURM_SUCCESS && rq.level != FSE_ANY) {
			fab.relaxed++;
			_record_relaxed(job_ptr, &pol, waited,
					"placed by cons_tres on any nodes");
		}
	} else {
		rc = EINVAL;	/* not enough free nodes: plain Resources */
	}
	slurm_mutex_unlock(&fab.lock);

	{
		double hook = _now_us() - t0 - backend_us;

		fab.hook_us += hook;
		if (hook > fab.hook_us_max)
			fab.hook_us_max = hook;
		fab.backend_us += backend_us;
		debug("%s: %pJ: job_test %s: fabsched %.0f us, cons_tres %.0f us (%d calls); mean fabsched %.1f us over %" PRIu64 " calls, max %.0f us",
		      PLUGIN, job_ptr, rc == SLURM_SUCCESS ? "started" : "not now",
		      hook, backend_us, tries, fab.hook_us / fab.calls, fab.calls,
		      fab.hook_us_max);
	}
	return rc;
#undef BACKEND
}

void fabric_reconfigure(void)
{
	slurm_mutex_lock(&fab.lock);
	fab.loaded = false;
	slurm_mutex_unlock(&fab.lock);
}

void fabric_fini(void)
{
	slurm_mutex_lock(&fab.lock);
	if (fab.calls)
		info("%s: %" PRIu64 " placement decisions (%" PRIu64 " started, %" PRIu64 " waited, %" PRIu64 " relaxed): fabsched time mean %.1f us, max %.0f us; cons_tres mean %.1f us",
		     PLUGIN, fab.calls, fab.started, fab.waits, fab.relaxed,
		     fab.hook_us / fab.calls, fab.hook_us_max,
		     fab.backend_us / fab.calls);
	_unload();
	fab.loaded = false;
	slurm_mutex_unlock(&fab.lock);
}
