/*
 * fabric_place.c - rack-local placement inside slurmctld, shared by the
 * plugin flavours (see fabric_place.h).
 *
 * For each job that locality applies to:
 *  1. the job's locality: the FABSCHED_LOCALITY entry of its SPANK job
 *     environment (sbatch/salloc/srun --fabric-locality, see
 *     fabsched_spank(8)); else its partition's Locality/LocalityWait in
 *     fabsched.conf; else DefaultLocality.  MaxRacks from the partition.
 *     Where the flavour asks for it, --switches=N means at most N racks,
 *     waiting up to the job's --switches wait time.
 *  2. the free nodes: candidates on which no job runs (when the flavour
 *     knows them); for jobs that may share nodes, when that is not enough,
 *     every candidate.
 *  3. the placement engine (select/) picks the domain: one rack, else the
 *     fewest racks of one pod, else the fewest racks; best fit.
 *  4. the backend runs with the candidates narrowed to that domain and
 *     picks cores, memory and GRES there; if it cannot, the next-best
 *     domain is tried (at most FABRIC_TRIES domains).
 *  5. when the locality cannot be had now and the job's wait bound has not
 *     passed, the job stays pending (state_desc says why where the release
 *     keeps it); after the bound, the tightest placement available is taken
 *     and the job's SystemComment records that locality was relaxed.
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

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
#include "src/interfaces/gres.h"
#else
#include "src/common/gres.h"
#endif

#include "fabric_place.h"
#include "fabsched_conf.h"
#include "fs_plugin_conf.h"
#include "fabsched_select.h"
#include "fabsched_topo.h"
#include "fs_values.h"

#define FABRIC_TRIES 4		/* domains offered to the backend per call */
#define LOCALITY_ENV "FABSCHED_LOCALITY="
#define LOCALITY_ENV_PROLOG "SPANK_FABSCHED_LOCALITY="

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
	/* per partition: did recent jobs that fit a domain get one (kept
	 * across reconfigurations; LocalityTarget reads it) */
	struct part_share {
		char *part;
		struct fse_share *share;
	} *shares;
	int nshares;
	bool shares_loaded;	/* the state file was read (once) */
	bool shares_dirty;	/* changed since it was written */
	/* decisions not known to be starts yet (flavours whose backend also
	 * runs for will-run and test-only calls): counted once the job holds
	 * an allocation */
	struct pending_rec {
		uint32_t job_id;
		int part;		/* index in shares */
		bool counts;		/* fits one domain of its level */
		bool got;		/* and got one */
		char *note;		/* added to SystemComment, or NULL */
	} *pend;
	int npend;
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

/* ------------------------------------------------------------ policy */

struct policy {
	struct fs_locality loc;
	uint32_t max_racks;
	double target;		/* LocalityTarget, 0-1; 0: none */
	const char *from;	/* "--fabric-locality" or "partition" */
};

/*
 * The share records are kept in StateSaveLocation, so that a restart of
 * slurmctld (which is also how 24.11 reconfigures) does not forget them:
 *   share <partition|-> <outcomes, oldest first: 1 got its domain>
 *   pending <job id> <partition|-> <counts 0|1><got 0|1>
 * Written through a temporary file and rename when they change (at most a
 * few times a second from the scheduling path, see _shares_save_soon).
 */
#define SHARE_FILE "fabsched_locality_share"

static char *_share_path(void)
{
	if (!slurm_conf.state_save_location || !*slurm_conf.state_save_location)
		return NULL;
	return xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			      SHARE_FILE);
}

/* Index of a partition's record, made when missing; -1: out of memory. */
static int _share_index(const char *name)
{
	struct fse_share *sh;

	for (int i = 0; i < fab.nshares; i++)
		if (!strcmp(fab.shares[i].part, name))
			return i;
	if (!(sh = fse_share_new(0)))
		return -1;
	xrecalloc(fab.shares, fab.nshares + 1, sizeof(*fab.shares));
	fab.shares[fab.nshares].part = xstrdup(name);
	fab.shares[fab.nshares].share = sh;
	return fab.nshares++;
}

static void _pend(uint32_t job_id, int part, bool counts, bool got,
		  char *note);

/* One line of the state file; -1 when malformed. */
static int _shares_load_line(char *line)
{
	char *f[5], *save = NULL, *end = NULL;
	int n = 0, k;
	unsigned long id;

	for (char *t = strtok_r(line, " ", &save); t && n < 5;
	     t = strtok_r(NULL, " ", &save))
		f[n++] = t;
	if (n == 3 && !strcmp(f[0], "share")) {
		k = _share_index(!strcmp(f[1], "-") ? "" : f[1]);
		return (k < 0 || fse_share_parse(fab.shares[k].share, f[2])) ?
			-1 : 0;
	}
	if (n != 4 || strcmp(f[0], "pending"))
		return -1;
	errno = 0;
	id = strtoul(f[1], &end, 10);
	if (errno || *end || !id || id > UINT32_MAX || strlen(f[3]) != 2 ||
	    !strchr("01", f[3][0]) || !strchr("01", f[3][1]))
		return -1;
	if ((k = _share_index(!strcmp(f[2], "-") ? "" : f[2])) < 0)
		return -1;
	_pend((uint32_t)id, k, f[3][0] == '1', f[3][1] == '1', NULL);
	return 0;
}

static void _shares_load(void)
{
	char *path = _share_path(), *line = NULL;
	size_t cap = 0;
	int lineno = 0, bad = 0;
	ssize_t len;
	FILE *f;

	fab.shares_loaded = true;
	if (!path)
		return;
	if (!(f = fopen(path, "re"))) {
		if (errno != ENOENT)
			error("%s: %s: %m: locality shares start empty",
			      fab.name, path);
		xfree(path);
		return;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		if (_shares_load_line(line))
			bad++;
	}
	if (bad)
		error("%s: %s: %d malformed line(s) of %d ignored; expected \"share <partition> <0|1 per job>\" or \"pending <job id> <partition> <0|1><0|1>\"",
		      fab.name, path, bad, lineno);
	fab.shares_dirty = false;
	free(line);
	fclose(f);
	xfree(path);
}

static const char *_part_name(int k)
{
	return fab.shares[k].part[0] ? fab.shares[k].part : "-";
}

static void _shares_save(void)
{
	char *path, *tmp, *buf = NULL;
	size_t cap = 0;
	FILE *f;
	int rc = 0;

	if (!fab.nshares || !(path = _share_path()))
		return;
	fab.shares_dirty = false;
	tmp = xstrdup_printf("%s.new", path);
	if (!(f = fopen(tmp, "we"))) {
		error("%s: %s: %m: locality shares not saved", fab.name, tmp);
		goto out;
	}
	fprintf(f, "# fabsched: per partition, recent jobs that fit one locality domain, oldest first (1: got it)\n");
	for (int i = 0; i < fab.nshares; i++) {
		size_t n = fse_share_format(fab.shares[i].share, NULL, 0);

		if (n + 1 > cap) {
			cap = n + 1;
			xrealloc(buf, cap);
		}
		fse_share_format(fab.shares[i].share, buf, cap);
		fprintf(f, "share %s %s\n", _part_name(i), buf);
	}
	for (int i = 0; i < fab.npend; i++)
		if (fab.pend[i].counts)
			fprintf(f, "pending %u %s %d%d\n", fab.pend[i].job_id,
				_part_name(fab.pend[i].part), 1,
				fab.pend[i].got ? 1 : 0);
	if (fflush(f) || ferror(f))
		rc = -1;
	if (fclose(f) || rc || rename(tmp, path)) {
		error("%s: %s: %m: locality shares not saved", fab.name, path);
		unlink(tmp);
	}
out:
	xfree(buf);
	xfree(tmp);
	xfree(path);
}

/*
 * In the scheduling path: save now, unless this second already saw a few
 * saves (a backfill cycle decides for hundreds of jobs); then the next
 * call after it does.
 */
static void _shares_save_soon(void)
{
	static time_t sec;
	static int n;
	time_t now = time(NULL);

	if (now != sec) {
		sec = now;
		n = 0;
	}
	if (n < 4) {
		n++;
		_shares_save();
	}
}

/* The share record index of a partition ("" for none); -1 when out of
 * memory. */
static int _share_of(const char *part)
{
	if (!fab.shares_loaded)
		_shares_load();
	return _share_index(part ? part : "");
}

static void _job_policy(job_record_t *job_ptr, bool switches_as_racks,
			struct policy *pol)
{
	const char *part = job_ptr->part_ptr ? job_ptr->part_ptr->name : NULL;
	struct fs_locality ploc = { .level = FS_LOCALITY_ANY, .wait_set = true };
	uint64_t mr = 0, ppm = 0;

	memset(pol, 0, sizeof(*pol));
	if (!fs_conf_part_get_uint(fab.conf, part, "LocalityTarget", &ppm))
		pol->target = (double)ppm / 1e6;
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
			      fab.name, job_ptr, msg);
			break;
		}
		pol->loc.level = jloc.level;
		if (jloc.wait_set)
			pol->loc.wait = jloc.wait;
		pol->from = "--fabric-locality";
		break;
	}
	if (switches_as_racks && job_ptr->req_switch &&
	    job_ptr->req_switch != NO_VAL) {
		/* --switches=N[@wait]: at most N leaf switches (racks) */
		pol->loc.level = FS_LOCALITY_RACK;
		pol->loc.wait = job_ptr->wait4switch;
		pol->loc.wait_set = true;
		pol->max_racks = job_ptr->req_switch;
		pol->from = "--switches";
	}
}

/* ------------------------------------------------------------ job shape */

/*
 * What the job asks of each node, for the engine: its tasks, CPUs per
 * task, tasks per node, memory, GRES per node or task, --exclusive,
 * --overcommit (struct fse_shape), and the GRES it names (plugin and type,
 * to find them in the nodes' GRES lists).
 */
struct job_shape {
	struct fse_shape s;
	uint32_t gres_plugin[FSE_SHAPE_GRES];
	uint32_t gres_type[FSE_SHAPE_GRES];	/* 0: any type */
	bool mem_counted;	/* memory is a consumable resource */
};

static int _shape_gres(void *x, void *arg)
{
	gres_state_t *gs = x;
	gres_job_state_t *gj = gs ? gs->gres_data : NULL;
	struct job_shape *js = arg;
	int g = js->s.ngres;

	if (!gj || (!gj->gres_per_node && !gj->gres_per_task) ||
	    g >= FSE_SHAPE_GRES)
		return 0;
	js->gres_plugin[g] = gs->plugin_id;
	js->gres_type[g] = gj->type_id;
	js->s.gres[g].per_node = gj->gres_per_node;
	js->s.gres[g].per_task = gj->gres_per_task;
	js->s.ngres++;
	return 0;
}

static void _job_shape(job_record_t *job_ptr, uint32_t min_nodes,
		       struct job_shape *js)
{
	__typeof__(job_ptr->details) d = job_ptr->details;
	uint64_t mem = d->pn_min_memory;

	memset(js, 0, sizeof(*js));
	/* sized by tasks when it asked for tasks (-n); by nodes otherwise */
	if (d->num_tasks && d->num_tasks != NO_VAL)
		js->s.ntasks = d->num_tasks > min_nodes ? d->num_tasks :
			min_nodes;
	js->s.cpus_per_task = (d->cpus_per_task && d->cpus_per_task != NO_VAL16) ?
		d->cpus_per_task : 1;
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
static void _node_gres(const struct job_shape *js, node_record_t *node_ptr,
		       bool now, struct fse_node_res *r)
{
	for (int g = 0; g < js->s.ngres; g++) {
		gres_state_t *gs = NULL;
		gres_node_state_t *gn;
		uint64_t avail = 0, alloc = 0;

		r->gres[g] = 0;
		if (node_ptr->gres_list)
			gs = list_find_first(node_ptr->gres_list,
					     gres_find_id,
					     (void *)&js->gres_plugin[g]);
		if (!gs || !(gn = gs->gres_data))
			continue;
		avail = gn->gres_cnt_avail;
		alloc = gn->gres_cnt_alloc;
		if (js->gres_type[g]) {
			avail = alloc = 0;
			for (int k = 0; k < gn->type_cnt; k++)
				if (gn->type_id[k] == js->gres_type[g]) {
					avail = gn->type_cnt_avail[k];
					alloc = gn->type_cnt_alloc[k];
				}
		}
		r->gres[g] = now ? (avail > alloc ? avail - alloc : 0) : avail;
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
	r->mem = UINT64_MAX;
	if (js->mem_counted && node_ptr->real_memory > node_ptr->mem_spec_limit)
		r->mem = node_ptr->real_memory - node_ptr->mem_spec_limit;
	else if (js->mem_counted)
		r->mem = 0;
	_node_gres(js, node_ptr, false, r);
}

/*
 * The job's tasks per node, now (candidates, with what is free) and on the
 * idle partition (its nodes, as configured): fab.tasks_now, fab.tasks_idle.
 */
static void _job_tasks(const struct fabric_ask *ask, const struct job_shape *js)
{
	bitstr_t *part = ask->job->part_ptr ? ask->job->part_ptr->node_bitmap :
		NULL;
	bitstr_t *idle = (ask->idle && *ask->idle) ? *ask->idle : NULL;

	for (int i = 0; i < fab.node_count; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];
		struct fse_node_res r;

		fab.tasks_now[i] = fab.tasks_idle[i] = 0;
		if (!node_ptr)
			continue;
		_node_config(js, node_ptr, &r);
		if (!part || bit_test(part, i) || bit_test(ask->cand, i))
			fab.tasks_idle[i] = fse_node_tasks(&js->s, &r);
		if (!bit_test(ask->cand, i))
			continue;
		r.busy = idle ? !bit_test(idle, i) : false;
		_node_gres(js, node_ptr, true, &r);
		if (ask->node_free)
			ask->node_free(i, &r, ask->arg);
		fab.tasks_now[i] = fse_node_tasks(&js->s, &r);
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

/* Count one job that fits a domain of its level toward a share. */
static void _count(int part, bool got)
{
	if (part >= 0 && !fse_share_parse(fab.shares[part].share,
					   got ? "1" : "0"))
		fab.shares_dirty = true;
}

/*
 * A placement the backend accepted: count it toward the partition's share
 * (index @part, -1: none) and add @note (taken) to the SystemComment.
 * When the try may not have been the start (!ask->final), the note is
 * taken back if the job is asked about again, and the share counts the job
 * once it is seen holding an allocation.
 */
static void _outcome(const struct fabric_ask *ask, int part,
		     const struct fse_request *rq, const struct fse_result *res,
		     char *note)
{
	bool counts = res->fits_domain;
	bool got = res->level <= rq->level;

	if (note)
		_note(ask->job, note);
	if (!ask->final) {
		_pend(ask->job->job_id, part, counts, got, note);
		return;
	}
	if (counts)
		_count(part, got);
	xfree(note);
}

#define PEND_MAX 1024

/* Keep the latest successful decision of a job until it is known to have
 * started (or gone).  @note (taken) is what it added to SystemComment. */
static void _pend(uint32_t job_id, int part, bool counts, bool got,
		  char *note)
{
	int i;

	for (i = 0; i < fab.npend && fab.pend[i].job_id != job_id; i++)
		;
	if (i == fab.npend) {
		if (!fab.pend)
			fab.pend = xcalloc(PEND_MAX, sizeof(*fab.pend));
		if (fab.npend == PEND_MAX) {	/* drop the oldest */
			xfree(fab.pend[0].note);
			memmove(fab.pend, fab.pend + 1,
				(PEND_MAX - 1) * sizeof(*fab.pend));
			fab.npend--;
		}
		i = fab.npend++;
		fab.pend[i].note = NULL;
		fab.pend[i].counts = !counts;	/* differs: saved below */
	}
	if (counts && (fab.pend[i].counts != counts ||
		       fab.pend[i].got != got || fab.pend[i].part != part))
		fab.shares_dirty = true;
	xfree(fab.pend[i].note);
	fab.pend[i].job_id = job_id;
	fab.pend[i].part = part;
	fab.pend[i].counts = counts;
	fab.pend[i].got = got;
	fab.pend[i].note = note;
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
	char *c = job_ptr->system_comment, *note;
	size_t lc, ln;
	int i;

	for (i = 0; i < fab.npend && fab.pend[i].job_id != job_ptr->job_id; i++)
		;
	if (i == fab.npend || !(note = fab.pend[i].note))
		return;
	if (c && (lc = strlen(c)) >= (ln = strlen(note)) &&
	    !strcmp(c + lc - ln, note)) {
		if (lc == ln)
			xfree(job_ptr->system_comment);
		else if (lc >= ln + 2 && !strncmp(c + lc - ln - 2, "; ", 2))
			c[lc - ln - 2] = '\0';
	}
	xfree(fab.pend[i].note);
}

/* Count the kept decisions of jobs that now hold an allocation; forget
 * those of jobs that are gone or ended without one. */
static void _commit_pending(void)
{
	static job_record_t *(*find_job)(uint32_t);
	static time_t last;
	time_t now = time(NULL);
	int k = 0;

	/* a scan per second at most: placement calls come by the hundred in
	 * a backfill cycle, and starts are counted soon enough */
	if (!fab.npend || now == last)
		return;
	last = now;
	if (!find_job)	/* slurmctld's; looked up, not linked */
		find_job = (job_record_t *(*)(uint32_t))
			dlsym(RTLD_DEFAULT, "find_job_record");
	for (int i = 0; i < fab.npend; i++) {
		job_record_t *j = find_job ? find_job(fab.pend[i].job_id) :
			NULL;

		if (j && IS_JOB_PENDING(j)) {
			fab.pend[k++] = fab.pend[i];
			continue;
		}
		if (fab.pend[i].counts) {
			if (j && j->job_resrcs) {
				_count(fab.pend[i].part, fab.pend[i].got);
				debug("%s: %pJ started: counted in its partition's share (%s its domain)",
				      fab.name, j, fab.pend[i].got ?
				      "got" : "missed");
			}
			fab.shares_dirty = true;
		}
		xfree(fab.pend[i].note);
	}
	fab.npend = k;
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
	struct job_shape js;
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
	rq.level = (enum fse_level)pol.loc.level;
	rq.max_racks = pol.max_racks;
	rq.relaxed = pol.loc.wait != FS_DURATION_INFINITE &&
		     (uint64_t)waited >= pol.loc.wait;
	/* what the job needs of each node: a job sized by tasks (-n) gets the
	 * domain that holds its tasks, not only its node count */
	_job_shape(job_ptr, rq.min_nodes, &js);
	_job_tasks(ask, &js);
	if (js.s.ntasks) {
		rq.ntasks = js.s.ntasks;
		rq.tasks_now = fab.tasks_now;
		rq.tasks_idle = fab.tasks_idle;
		if (rq.max_nodes < rq.min_nodes)
			rq.max_nodes = rq.min_nodes;
	}
	part = _share_of(job_ptr->part_ptr ? job_ptr->part_ptr->name : NULL);
	if (part >= 0)
		share = fab.shares[part].share;
	if (!rq.relaxed && share && pol.target > 0 &&
	    fse_share_relax_fit(share, pol.target,
				fse_request_fits_domain(fab.topo, fab.work, &rq)))
		by_target = rq.relaxed = true;
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
					       res.nracks, racks, pol.target * 100,
					       (unsigned)(got * n + 0.5), n) :
				xstrdup_printf("%d racks (%s)", res.nracks,
					       racks);
			note = _relaxed_note(&pol, waited, how);
			xfree(how);
			fab.relaxed++;
			info("%s: %pJ: locality %s (%s) relaxed after %lds: %s",
			     fab.name, job_ptr,
			     fs_format_locality(&pol.loc, loc, sizeof(loc)),
			     pol.from, (long)waited, racks);
		}
		_outcome(ask, part, &rq, &res, note);
		verbose("%s: %pJ: %s, racks %s (locality %s from %s, %d tries%s)",
			fab.name, job_ptr, res.reason, racks,
			fse_level_name(rq.level), pol.from, tries,
			shared_pass ? ", shared nodes" : "");
		xfree(racks);
	} else if (res.status == FSE_NEVER && !rq.max_racks) {
		/* no domain could ever hold the job as far as the engine
		 * sees (its shape against the nodes' configured resources):
		 * Slurm's own node choice decides, on every candidate, as
		 * it would without fabsched */
		bitstr_t *all = bit_copy(bitmap);

		debug("%s: %pJ: %s: placed by the backend on all candidates",
		      fab.name, job_ptr, res.reason);
		(void)BACKEND(all);
		FREE_NULL_BITMAP(all);
	} else if (res.status == FSE_NEVER ||
		   (res.status == FSE_NOT_NOW && res.could_relax) ||
		   (tries && !rq.relaxed && rq.level != FSE_ANY)) {
		/* the locality is what keeps the job waiting */
		fab.waits++;
		_set_pending(job_ptr, &pol, tries ?
			     "no domain has the cores or memory free" :
			     res.reason, waited);
		debug("%s: %pJ: pending: %s", fab.name, job_ptr,
		      job_ptr->state_desc);
		rc = SLURM_ERROR;
	} else if (rq.level == FSE_ANY || rq.relaxed) {
		/* any placement will do: the backend on every candidate */
		bitstr_t *all = bit_copy(bitmap);

		if (BACKEND(all) == SLURM_SUCCESS) {
			/* counted as a miss: no domain was chosen */
			struct fse_result any = {
				.status = FSE_OK, .level = FSE_ANY,
				.fits_domain = fse_request_fits_domain(
					fab.topo, fab.work, &rq) };

			if (rq.level != FSE_ANY)
				fab.relaxed++;
			_outcome(ask, part, &rq, &any,
				 rq.level == FSE_ANY ? NULL :
				 _relaxed_note(&pol, waited,
					       "placed on any nodes"));
		}
		FREE_NULL_BITMAP(all);
	} else {
		rc = SLURM_ERROR;	/* not enough free nodes: plain Resources */
	}
	if (fab.shares_dirty)
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
	if (fab.shares_dirty)
		_shares_save();
	if (fab.calls)
		info("%s: %" PRIu64 " placement decisions (%" PRIu64 " started, %" PRIu64 " waited, %" PRIu64 " relaxed): fabsched time mean %.1f us, max %.0f us; backend mean %.1f us",
		     fab.name, fab.calls, fab.started, fab.waits, fab.relaxed,
		     fab.hook_us / fab.calls, fab.hook_us_max,
		     fab.backend_us / fab.calls);
	for (int i = 0; i < fab.nshares; i++) {
		unsigned n = 0;
		double got = fse_share_get(fab.shares[i].share, &n);

		if (n)
			info("%s: partition %s: %.1f%% of the last %u jobs that fit a domain got one",
			     fab.name, fab.shares[i].part[0] ?
			     fab.shares[i].part : "(none)", got * 100, n);
		fse_share_free(fab.shares[i].share);
		xfree(fab.shares[i].part);
	}
	xfree(fab.shares);
	fab.nshares = 0;
	for (int i = 0; i < fab.npend; i++)
		xfree(fab.pend[i].note);
	xfree(fab.pend);
	fab.npend = 0;
	_unload();
	fab.loaded = false;
	slurm_mutex_unlock(&fab.lock);
}
