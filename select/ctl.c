/*
 * ctl.c - the controller's whole decision for one job, without Slurm.  For
 * each job that locality applies to (fse_ctl_place):
 *  1. its locality (fse_policy_resolve): the FABSCHED_LOCALITY entry of
 *     its SPANK job environment (sbatch/salloc/srun --fabric-locality);
 *     else its partition's Locality/LocalityWait in fabsched.conf; else
 *     DefaultLocality.  MaxRacks from the partition.  Where the flavour
 *     asks for it, --switches=N means at most N racks, waiting up to the
 *     job's --switches wait time.
 *  2. what each node can hold of it (the caller's fse_ctl_tasks, from the
 *     job's tasks, CPUs per task, memory and GRES against what each
 *     candidate has free, and on the idle partition), so that a job sized
 *     by tasks gets a domain that holds them.
 *  3. the domain (fse_place): one rack, else the fewest racks of one pod,
 *     else the fewest racks; best fit; first among candidates without
 *     jobs (when the caller knows them), then, for jobs that may share
 *     nodes, every candidate.
 *  4. the caller's node choice (fse_try_f) inside that domain picks cores,
 *     memory and GRES there; if it cannot, the next-best domain is tried
 *     (at most FSE_CTL_TRIES domains).
 *  5. when nothing was placed (fse_decide_unplaced, decide.c): the job
 *     waits for its locality while its wait bound has not passed (the
 *     outcome says why); after the bound, or under its partition's
 *     LocalityTarget (fse_decide_relaxed), the tightest placement
 *     available is taken and a note records it; a job no domain could
 *     ever hold goes to the caller's choice on every candidate.
 *  6. the outcome counts toward the partition's share (locality_record.c, saved to
 *     a state file), and whether the call ended the job's wait
 *     (_wait_over); timing figures are kept.
 * For a partition with Locality=observe, Slurm's own choice places the
 * job and fse_ctl_observe runs steps 1 to 3 and 5 without any node choice,
 * recording what the job would have got (observe.c) in the observation
 * log and counting it toward the partition's share.
 * The plugin flavours convert Slurm's records into a struct fse_job and
 * carry out the struct fse_outcome.  See fabsched_select.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fabsched_conf.h"
#include "fabsched_select.h"
#include "fabsched_topo.h"
#include "fs_env.h"
#include "fs_err.h"
#include "fs_values.h"

#define LOCALITY_ENV FS_ENV_LOCALITY "="
#define LOCALITY_ENV_PROLOG FS_ENV_SPANK FS_ENV_LOCALITY "="
#define SAVES_PER_SEC 4 /* state file writes per second, at most */
#define STATS_EVERY 60	/* s between timing figures in the log */

struct fse_ctl {
	char *name; /* log prefix */
	fse_log_f log;
	void *log_arg;
	enum fse_log log_most; /* messages past it are not even formatted */
	struct fs_conf *conf;
	struct fst_model *model;
	struct fse_topo *topo;
	struct fse_work *work;
	int nnodes;
	uint8_t *avail;	      /* [nnodes] */
	uint32_t *tasks_now;  /* [nnodes] */
	uint32_t *tasks_idle; /* [nnodes] */
	uint8_t *skip;	      /* [nracks + 1] */
	int *rack_free;	      /* [nracks + 1] avail nodes per rack */
	int64_t *rack_room;   /* [nracks + 1] their tasks_now */
	/* [nracks + 1] tasks_idle per rack, for the caller's idle_key (0:
	 * none kept) */
	int64_t *rack_room_idle;
	uint64_t room_idle_key;
	uint8_t *in; /* [nnodes] candidates of the domain tried */
	/* kept across loads */
	struct fse_locality *locality;
	char *state_file; /* NULL: not kept */
	bool locality_loaded;
	/* the state file's writer: a thread of its own, so that the
	 * scheduler's call does not wait for the file system (a create and a
	 * rename take hundreds of microseconds); it writes the latest record
	 * handed to it, at most SAVES_PER_SEC times a second */
	struct {
		pthread_mutex_t lock;
		pthread_cond_t cond;
		pthread_t thread;
		bool running, stop;
		char *path, *buf; /* the next write; NULL: none */
		size_t len;
		char *obs_path, *obs_buf; /* observations to append */
		size_t obs_len;
	} sv;
	/* Locality=observe: the observation log, the latest observation of
	 * each job not yet known to have started, and the lines of those
	 * that did, for the writer */
	char *obs_file;
	struct obs_pend {
		uint32_t job_id, task;
		char *line;
	} * obs_pend;
	fse_task_state_f obs_state;
	void *obs_state_arg;
	int nobs_pend;
	char *obs_out;
	size_t obs_out_len;
	time_t commit_sec;
	char take_back[FS_MSG_SIZE];
	char note[FS_MSG_SIZE];
	/* the last job whose node choice failed, and in which pass (see
	 * _question) */
	uint32_t failed_job, failed_pass;
	struct fse_ctl_stats st;
	time_t stats_sec; /* the timing figures last logged */
	/* the last jobs whose --fabric-locality was logged as bad: each
	   said once, not at every scheduling pass */
	uint32_t bad_loc[64];
	unsigned bad_loc_next;
	/* each partition's settings, read from conf at its first decision
	 * (_part_pol); forgotten with conf */
	struct part_pol *pols;
	int npols;
	/* the model file, watched for changes (fse_ctl_refresh) */
	char *model_path;
	const char **names; /* [nnodes_names] the scheduler's nodes, copied */
	int nnodes_names;
	struct fse_file_id {
		dev_t dev;
		ino_t ino;
		off_t size;
		struct timespec mtim;
	} id;
	bool id_set;
	time_t checked;
};

static void _log(const struct fse_ctl *c, enum fse_log level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void _saver_stop(struct fse_ctl *c);

static void _log(const struct fse_ctl *c, enum fse_log level, const char *fmt, ...)
{
	char msg[FS_MSG_SIZE];
	va_list ap;
	int n;

	if (!c->log || level > c->log_most)
		return;
	n = snprintf(msg, sizeof(msg), "%s: ", c->name);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	c->log(level, msg, c->log_arg);
}

static double _now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* ------------------------------------------------------------ life */

struct fse_ctl *fse_ctl_new(const char *name, fse_log_f log, void *log_arg)
{
	struct fse_ctl *c = calloc(1, sizeof(*c));
	pthread_condattr_t ca;

	if (!c)
		return NULL;
	if (!(c->name = strdup(name ? name : "fabsched")) || !(c->locality = fse_locality_new(0))) {
		free(c->name);
		free(c);
		return NULL;
	}
	c->log = log;
	c->log_arg = log_arg;
	c->log_most = FSE_LOG_DEBUG;
	pthread_mutex_init(&c->sv.lock, NULL);
	/* the writer's pause is timed on the monotonic clock: a wall clock
	 * stepped back must not hold the record back */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->sv.cond, &ca);
	pthread_condattr_destroy(&ca);
	return c;
}

void fse_ctl_log_level(struct fse_ctl *c, enum fse_log most)
{
	c->log_most = most;
}

/* The placement domains (model, topology, buffers) of c. */
static void _domains_free(struct fse_ctl *c)
{
	fst_model_free(c->model);
	fse_work_free(c->work);
	fse_topo_free(c->topo);
	free(c->avail);
	free(c->tasks_now);
	free(c->tasks_idle);
	free(c->skip);
	free(c->in);
	free(c->rack_free);
	free(c->rack_room);
	free(c->rack_room_idle);
	c->rack_free = NULL;
	c->rack_room = c->rack_room_idle = NULL;
	c->room_idle_key = 0;
	c->model = NULL;
	c->work = NULL;
	c->topo = NULL;
	c->avail = c->skip = c->in = NULL;
	c->tasks_now = c->tasks_idle = NULL;
	c->nnodes = 0;
}

static void _names_free(struct fse_ctl *c)
{
	for (int i = 0; c->names && i < c->nnodes_names; i++)
		free((char *)c->names[i]);
	free(c->names);
	c->names = NULL;
	c->nnodes_names = 0;
}

/* ------------------------------------------------------------ partitions */

/* At most this many partitions' settings are kept; more are read at
 * each decision. */
#define PART_POLS_MAX 64

/* A partition's settings, as the decisions read them. */
struct part_pol {
	char *name; /* NULL: no partition named (the DEFAULT settings) */
	bool off;   /* Locality=off or observe: not placed here */
	bool observe;
	struct fse_policy_in in; /* its part_* fields */
};

static void _pols_free(struct fse_ctl *c)
{
	for (int i = 0; i < c->npols; i++)
		free(c->pols[i].name);
	free(c->pols);
	c->pols = NULL;
	c->npols = 0;
}

/* Partition @part's settings read from @conf into @p (name not set). */
static void _part_read(const struct fs_conf *conf, const char *part, struct part_pol *p)
{
	struct fs_locality ploc = { .level = FS_LOCALITY_ANY,
				    .wait_set = true,
				    .wait = FS_DURATION_INFINITE };
	uint64_t mr = 0, ppm = 0;
	bool have = !fs_conf_part_locality(conf, part, &ploc);

	*p = (struct part_pol){ .off = have && ploc.level >= FS_LOCALITY_OFF,
				.observe = have && ploc.level == FS_LOCALITY_OBSERVE };
	if (!fs_conf_part_get_uint(conf, part, "LocalityTarget", &ppm))
		p->in.part_target = (double)ppm / 1e6;
	if (!fs_conf_part_get_uint(conf, part, "LocalityWaitRatio", &mr) && mr <= 1000)
		p->in.part_ratio = (uint32_t)mr;
	if (!have || ploc.level == FS_LOCALITY_OFF) /* not placed here (plugins) */
		ploc = (struct fs_locality){ .level = FS_LOCALITY_ANY, .wait_set = true };
	else if (ploc.level == FS_LOCALITY_OBSERVE) /* observed as rack */
		ploc.level = FS_LOCALITY_RACK;
	if (!fs_conf_part_get_uint(conf, part, "MaxRacks", &mr) && mr <= UINT32_MAX)
		p->in.part_max_racks = (uint32_t)mr;
	p->in.part_level = (enum fse_level)ploc.level;
	p->in.part_wait = ploc.wait;
}

/*
 * Partition @part's settings: kept from its first decision of this load
 * (fabsched.conf is the load's, read once), else read into @tmp.  Never
 * NULL.
 */
static const struct part_pol *_part_pol(struct fse_ctl *c, const char *part, struct part_pol *tmp)
{
	struct part_pol *p;

	for (int i = 0; i < c->npols; i++) {
		p = &c->pols[i];
		if (part ? p->name && !strcmp(p->name, part) : !p->name)
			return p;
	}
	_part_read(c->conf, part, tmp);
	if (!c->conf || c->npols >= PART_POLS_MAX ||
	    (!c->pols && !(c->pols = calloc(PART_POLS_MAX, sizeof(*c->pols)))))
		return tmp;
	p = &c->pols[c->npols];
	*p = *tmp;
	if (part && !(p->name = strdup(part)))
		return tmp;
	c->npols++;
	return p;
}

void fse_ctl_unload(struct fse_ctl *c)
{
	if (!c)
		return;
	_pols_free(c);
	fs_conf_destroy(c->conf);
	c->conf = NULL;
	_domains_free(c);
	_names_free(c);
	free(c->model_path);
	c->model_path = NULL;
	c->id_set = false;
}

static bool _file_id(const char *path, struct fse_file_id *id)
{
	struct stat st;

	if (!path || stat(path, &st))
		return false;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->size = st.st_size;
	id->mtim = st.st_mtim;
	return true;
}

static bool _same_file(const struct fse_file_id *a, const struct fse_file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtim.tv_sec == b->mtim.tv_sec && a->mtim.tv_nsec == b->mtim.tv_nsec;
}

/* The domains of model @path for names[0..n) into @c's domain fields
 * (empty before); -1 with a message. */
static int _domains(struct fse_ctl *c, const char *path, const char *const *names, int n,
		    int *unknown, char *err, size_t errlen)
{
	size_t k = n > 0 ? (size_t)n : 1;

	if (fst_json_read_file(&c->model, path, err, errlen)) {
		c->model = NULL;
		return -1;
	}
	if (fse_topo_from_model(c->model, names, n, &c->topo, unknown, err, errlen) ||
	    !(c->work = fse_work_new(c->topo)) || !(c->avail = calloc(k, 1)) ||
	    !(c->in = calloc(k, 1)) || !(c->tasks_now = calloc(k, sizeof(uint32_t))) ||
	    !(c->tasks_idle = calloc(k, sizeof(uint32_t))) ||
	    !(c->skip = calloc(fse_topo_nracks(c->topo) + 1, 1)) ||
	    !(c->rack_free = calloc(fse_topo_nracks(c->topo) + 1, sizeof(int))) ||
	    !(c->rack_room = calloc(fse_topo_nracks(c->topo) + 1, sizeof(int64_t))) ||
	    !(c->rack_room_idle = calloc(fse_topo_nracks(c->topo) + 1, sizeof(int64_t)))) {
		if (!err[0])
			snprintf(err, errlen, "out of memory");
		_domains_free(c);
		return -1;
	}
	c->nnodes = n;
	return 0;
}

void fse_ctl_free(struct fse_ctl *c)
{
	if (!c)
		return;
	fse_ctl_unload(c);
	_saver_stop(c);
	pthread_mutex_destroy(&c->sv.lock);
	pthread_cond_destroy(&c->sv.cond);
	fse_locality_free(c->locality);
	for (int i = 0; i < c->nobs_pend; i++)
		free(c->obs_pend[i].line);
	free(c->obs_pend);
	free(c->obs_out);
	free(c->obs_file);
	free(c->state_file);
	free(c->name);
	free(c);
}

int fse_ctl_load(struct fse_ctl *c, struct fs_conf *conf, const char *const *names, int n)
{
	char err[FS_MSG_SIZE] = "";
	const char *path;
	int unknown = 0;

	fse_ctl_unload(c);
	if (!(c->conf = conf)) {
		_log(c, FSE_LOG_ERROR, "no usable fabsched.conf: jobs are placed without locality");
		return -1;
	}
	if (!(path = fs_conf_get_str(conf, "FabricModel"))) {
		_log(c, FSE_LOG_ERROR,
		     "FabricModel is not set in %s: jobs are placed without locality",
		     fs_conf_source(conf));
		goto fail;
	}
	/* the file and the nodes, for fse_ctl_refresh */
	if (!(c->model_path = strdup(path)) ||
	    !(c->names = calloc(n > 0 ? (size_t)n : 1, sizeof(char *)))) {
		_log(c, FSE_LOG_ERROR, "out of memory");
		goto fail;
	}
	c->nnodes_names = n;
	for (int i = 0; i < n; i++)
		if (names[i] && !(c->names[i] = strdup(names[i]))) {
			_log(c, FSE_LOG_ERROR, "out of memory");
			goto fail;
		}
	c->id_set = _file_id(path, &c->id);
	if (_domains(c, path, names, n, &unknown, err, sizeof(err))) {
		_log(c, FSE_LOG_ERROR, "fabric model %s: %s: jobs are placed without locality",
		     path, err);
		return -1; /* the file is still watched */
	}
	_log(c, FSE_LOG_INFO,
	     "fabric model %s: %d nodes in %d racks (largest %d), %d pods; %d Slurm nodes not in the model",
	     path, n, c->model->nracks, fse_topo_max_rack(c->topo), c->model->npods, unknown);
	return 0;
fail:
	fse_ctl_unload(c);
	return -1;
}

int fse_ctl_refresh(struct fse_ctl *c, time_t now)
{
	struct fse_ctl t = { .name = c ? c->name : NULL };
	struct fse_file_id id;
	char err[FS_MSG_SIZE] = "";
	int unknown = 0;

	if (!c || !c->model_path || now - c->checked < FSE_CTL_RECHECK)
		return 0;
	c->checked = now;
	if (!_file_id(c->model_path, &id) || (c->id_set && _same_file(&id, &c->id)))
		return 0;
	c->id = id;
	c->id_set = true;
	if (_domains(&t, c->model_path, c->names, c->nnodes_names, &unknown, err, sizeof(err))) {
		_log(c, FSE_LOG_ERROR, "fabric model %s changed but cannot be used: %s; %s",
		     c->model_path, err,
		     c->topo ? "the running one stays" : "jobs are still placed without locality");
		return 0;
	}
	_domains_free(c);
	c->model = t.model;
	c->topo = t.topo;
	c->work = t.work;
	c->avail = t.avail;
	c->in = t.in;
	c->tasks_now = t.tasks_now;
	c->tasks_idle = t.tasks_idle;
	c->skip = t.skip;
	c->rack_free = t.rack_free;
	c->rack_room = t.rack_room;
	c->rack_room_idle = t.rack_room_idle;
	c->room_idle_key = 0;
	c->nnodes = t.nnodes;
	_log(c, FSE_LOG_INFO,
	     "fabric model %s changed: %d nodes in %d racks (largest %d), %d pods, %d Slurm nodes not in it: placement follows it",
	     c->model_path, c->model->nhosts, c->model->nracks, fse_topo_max_rack(c->topo),
	     c->model->npods, unknown);
	return 1;
}

const struct fst_model *fse_ctl_model(const struct fse_ctl *c)
{
	return c && c->topo ? c->model : NULL;
}

bool fse_ctl_usable(const struct fse_ctl *c)
{
	return c && c->topo;
}

bool fse_ctl_part_off(struct fse_ctl *c, const char *part)
{
	struct part_pol tmp;

	return c && c->conf && _part_pol(c, part, &tmp)->off;
}

bool fse_ctl_part_observe(struct fse_ctl *c, const char *part)
{
	struct part_pol tmp;

	return c && c->conf && _part_pol(c, part, &tmp)->observe;
}

bool fse_ctl_all_off(const struct fse_ctl *c)
{
	return c && fs_conf_all_off(c->conf);
}

int fse_ctl_nnodes(const struct fse_ctl *c)
{
	return c ? c->nnodes : 0;
}

uint32_t *fse_ctl_tasks(struct fse_ctl *c, bool idle)
{
	return idle ? c->tasks_idle : c->tasks_now;
}

const struct fse_ctl_stats *fse_ctl_stats(const struct fse_ctl *c)
{
	return &c->st;
}

/* ------------------------------------------------------------ state file */

static void _state_load(struct fse_ctl *c)
{
	char err[FS_MSG_SIZE];
	FILE *f;

	c->locality_loaded = true;
	if (!c->state_file)
		return;
	if (!(f = fopen(c->state_file, "re"))) {
		if (errno != ENOENT)
			_log(c, FSE_LOG_ERROR, "%s: %s: locality shares start empty", c->state_file,
			     strerror(errno));
		return;
	}
	if (fse_locality_read(c->locality, f, c->state_file, err, sizeof(err)))
		_log(c, FSE_LOG_ERROR, "%s", err);
	fclose(f);
}

/* Write @buf to @path through a temporary file and rename, so that a
 * crash leaves the old record or the new one. */
static void _write_file(const struct fse_ctl *c, const char *path, const char *buf, size_t len)
{
	char tmp[FS_MSG_SIZE];
	FILE *f = NULL;
	int rc, fd;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	/* a new file, never one already there (nor a link's target) */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		_log(c, FSE_LOG_ERROR, "%s: %s: locality shares not saved", tmp, strerror(errno));
		return;
	}
	rc = fwrite(buf, 1, len, f) != len;
	if (fclose(f) || rc || rename(tmp, path)) {
		_log(c, FSE_LOG_ERROR, "%s: %s: locality shares not saved", path, strerror(errno));
		unlink(tmp);
	}
}

/* Append observation lines to @path (never through a link), moving a log
 * past FSE_OBSERVE_MAX to "<path>.1" first, so that it stays bounded. */
static void _append_file(const struct fse_ctl *c, const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	struct stat st;
	char old[FS_MSG_SIZE];

	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    st.st_size + (off_t)len > FSE_OBSERVE_MAX) {
		close(fd);
		snprintf(old, sizeof(old), "%s.1", path);
		if (rename(path, old))
			_log(c, FSE_LOG_ERROR, "%s: %s: observation log not rotated", path,
			     strerror(errno));
		fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	}
	if (fd < 0 || fstat(fd, &st))
		_log(c, FSE_LOG_ERROR, "%s: %s: %zu bytes of observations lost", path,
		     strerror(errno), len);
	else if (!S_ISREG(st.st_mode))
		_log(c, FSE_LOG_ERROR, "%s: not a regular file: %zu bytes of observations lost",
		     path, len);
	else if (write(fd, buf, len) != (ssize_t)len)
		_log(c, FSE_LOG_ERROR, "%s: short write: %zu bytes of observations lost", path,
		     len);
	if (fd >= 0)
		close(fd);
}

/* The locality record as the state file's text, in *@buf (the caller frees it).
 * RET 0, or -1 when there is nothing to keep or no memory. */
static int _record(struct fse_ctl *c, char **buf, size_t *len)
{
	FILE *f;
	int rc;

	*buf = NULL;
	if (!c->state_file || !fse_locality_nparts(c->locality) || !(f = open_memstream(buf, len)))
		return -1;
	rc = fse_locality_write(c->locality, f);
	if (fclose(f) || rc) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return 0;
}

static void *_saver(void *arg)
{
	struct fse_ctl *c = arg;
	struct timespec until;

	pthread_mutex_lock(&c->sv.lock);
	for (;;) {
		char *path, *buf, *obs_path, *obs_buf;
		size_t len, obs_len;

		/* every 1/SAVES_PER_SEC s, or at once when told to stop: the
		 * scheduler's call never wakes this thread (a thread woken
		 * there would take the scheduler's CPU while it holds
		 * slurmctld's locks) */
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += 1000000000L / SAVES_PER_SEC;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (!c->sv.stop &&
		       pthread_cond_timedwait(&c->sv.cond, &c->sv.lock, &until) != ETIMEDOUT)
			;
		if (!c->sv.buf && !c->sv.obs_buf) {
			if (c->sv.stop)
				break; /* nothing left to write */
			continue;
		}
		path = c->sv.path;
		buf = c->sv.buf;
		len = c->sv.len;
		obs_path = c->sv.obs_path;
		obs_buf = c->sv.obs_buf;
		obs_len = c->sv.obs_len;
		c->sv.path = c->sv.buf = c->sv.obs_path = c->sv.obs_buf = NULL;
		c->sv.obs_len = 0;
		pthread_mutex_unlock(&c->sv.lock);
		if (buf)
			_write_file(c, path, buf, len);
		if (obs_buf)
			_append_file(c, obs_path, obs_buf, obs_len);
		free(path);
		free(buf);
		free(obs_path);
		free(obs_buf);
		pthread_mutex_lock(&c->sv.lock);
	}
	pthread_mutex_unlock(&c->sv.lock);
	return NULL;
}

/* Stop the writer once it has written what it was handed. */
static void _saver_stop(struct fse_ctl *c)
{
	bool running;

	pthread_mutex_lock(&c->sv.lock);
	running = c->sv.running;
	c->sv.stop = true;
	pthread_cond_broadcast(&c->sv.cond);
	pthread_mutex_unlock(&c->sv.lock);
	if (running)
		pthread_join(c->sv.thread, NULL);
	/* never started, or could not be: what it was handed */
	if (c->sv.buf)
		_write_file(c, c->sv.path, c->sv.buf, c->sv.len);
	if (c->sv.obs_buf)
		_append_file(c, c->sv.obs_path, c->sv.obs_buf, c->sv.obs_len);
	free(c->sv.path);
	free(c->sv.buf);
	free(c->sv.obs_path);
	free(c->sv.obs_buf);
	c->sv.path = c->sv.buf = c->sv.obs_path = c->sv.obs_buf = NULL;
	c->sv.obs_len = 0;
	c->sv.running = c->sv.stop = false;
}

/* Now, in the caller's thread (after what the writer holds). */
static void _state_save(struct fse_ctl *c)
{
	char *buf;
	size_t len;

	_saver_stop(c);
	if (_record(c, &buf, &len))
		return;
	_write_file(c, c->state_file, buf, len);
	free(buf);
}

/* In the scheduling path: the record is handed to the writer thread (the
 * latest replaces one not yet written).  Without the thread, written
 * here. */
static void _state_save_soon(struct fse_ctl *c)
{
	char *buf, *path;
	size_t len;

	if (!fse_locality_dirty(c->locality) || _record(c, &buf, &len))
		return;
	if (!(path = strdup(c->state_file))) {
		free(buf);
		return;
	}
	pthread_mutex_lock(&c->sv.lock);
	free(c->sv.path);
	free(c->sv.buf);
	c->sv.path = path;
	c->sv.buf = buf;
	c->sv.len = len;
	if (!c->sv.running && !pthread_create(&c->sv.thread, NULL, _saver, c))
		c->sv.running = true;
	if (c->sv.running) {
		buf = path = NULL; /* the writer takes it at its next turn */
	} else {
		c->sv.path = c->sv.buf = NULL;
	}
	pthread_mutex_unlock(&c->sv.lock);
	if (buf) {
		_write_file(c, path, buf, len);
		free(path);
		free(buf);
	}
}

/* *@dst = a copy of @path (NULL: none).  RET -1 out of memory. */
static int _set_path(char **dst, const char *path)
{
	char *p = path ? strdup(path) : NULL;

	if (path && !p)
		return -1;
	free(*dst);
	*dst = p;
	return 0;
}

int fse_ctl_state_file(struct fse_ctl *c, const char *path)
{
	return _set_path(&c->state_file, path);
}

void fse_ctl_observe_state(struct fse_ctl *c, fse_task_state_f state, void *arg)
{
	c->obs_state = state;
	c->obs_state_arg = arg;
}

int fse_ctl_observe_file(struct fse_ctl *c, const char *path)
{
	return _set_path(&c->obs_file, path);
}

int fse_ctl_state_dir(struct fse_ctl *c, const char *dir)
{
	char *path = NULL;
	int rc;

	if (dir && *dir && asprintf(&path, "%s/%s", dir, FSE_SHARE_FILE) < 0)
		return -1;
	rc = fse_ctl_state_file(c, path);
	free(path);
	path = NULL;
	if (dir && *dir && asprintf(&path, "%s/%s", dir, FSE_OBSERVE_FILE) < 0)
		return -1;
	rc |= fse_ctl_observe_file(c, path);
	free(path);
	return rc;
}

/* The locality record's index of a partition ("" for none); -1 out of memory. */
static int _share_of(struct fse_ctl *c, const char *part)
{
	if (!c->locality_loaded)
		_state_load(c);
	return fse_locality_part(c->locality, part ? part : "");
}

/* ------------------------------------------------------------ policy */

/* Is job @id's bad locality value new to the log?  Remembered when so. */
static bool _bad_loc_new(struct fse_ctl *c, uint32_t id)
{
	const unsigned n = sizeof(c->bad_loc) / sizeof(c->bad_loc[0]);

	for (unsigned i = 0; id && i < n; i++)
		if (c->bad_loc[i] == id)
			return false;
	c->bad_loc[c->bad_loc_next++ % n] = id;
	return true;
}

/* The job's locality as its partition, options and --switches resolve it. */
static void _policy(struct fse_ctl *c, const struct fse_job *j, struct fse_policy *pol)
{
	struct part_pol tmp;
	struct fse_policy_in in = _part_pol(c, j->part, &tmp)->in;

	for (uint32_t i = 0; j->env && i < j->nenv; i++) {
		const char *e = j->env[i], *v = NULL;
		struct fs_locality jloc;
		char msg[FS_MSG_SIZE];

		if (!e)
			continue;
		if (!strncmp(e, LOCALITY_ENV, strlen(LOCALITY_ENV)))
			v = e + strlen(LOCALITY_ENV);
		else if (!strncmp(e, LOCALITY_ENV_PROLOG, strlen(LOCALITY_ENV_PROLOG)))
			v = e + strlen(LOCALITY_ENV_PROLOG);
		if (!v)
			continue;
		if (fs_parse_locality("--fabric-locality", v, &jloc, msg, sizeof(msg))) {
			_log(c, _bad_loc_new(c, j->job_id) ? FSE_LOG_ERROR : FSE_LOG_DEBUG,
			     "%s: %s: using the partition's locality", j->label, msg);
			break;
		}
		in.job_set = true;
		in.job_level = (enum fse_level)jloc.level;
		in.job_wait_set = jloc.wait_set;
		in.job_wait = jloc.wait;
		break;
	}
	in.switches = j->switches;
	in.switches_racks = j->switches_racks;
	in.switches_wait = j->switches_wait;
	fse_policy_resolve(&in, pol);
}

/* ------------------------------------------------------------ one job */

struct run {
	struct fse_ctl *c;
	const struct fse_job *j;
	struct fse_policy pol;
	char loc[32], waited[32]; /* for messages */
	struct fse_request rq;
	struct fse_result res;
	int part, tries, calls, refused; /* domains tried; backend calls, refusals */
	bool by_target, shared_pass;
	struct fse_fit fit; /* of rq on the idle machine, once fit_known */
	bool fit_known;
	fse_try_f try;
	void *arg;
	double backend_us;
};

/* What the idle machine says of the request (a pass over every node the
 * job could use): found once a run, and given to every placement of the
 * run with the request (rq.fit). */
static const struct fse_fit *_fit(struct run *r)
{
	if (!r->fit_known) {
		r->rq.fit = NULL;
		if (fse_request_fit(r->c->topo, r->c->work, &r->rq, &r->fit))
			r->fit = (struct fse_fit){ .need_level = FSE_ANY, .kcap = INT32_MAX };
		else
			r->rq.fit = &r->fit;
		r->fit_known = true;
	}
	return &r->fit;
}

/* The node choice inside the racks of @res (NULL: every candidate). */
static bool _try(struct run *r, const struct fse_result *res)
{
	struct fse_ctl *c = r->c;
	double t = _now_us();
	bool ok;

	if (res) {
		memset(c->in, 0, c->nnodes);
		for (int k = 0; k < res->nracks; k++)
			c->skip[res->racks[k]] = 2; /* in the domain */
		for (int i = 0; i < c->nnodes; i++)
			c->in[i] = r->j->cand[i] && c->skip[fse_topo_rack_of(c->topo, i)] == 2;
		for (int k = 0; k < res->nracks; k++)
			c->skip[res->racks[k]] = 0;
	}
	ok = r->try(res ? c->in : NULL, r->arg);

	r->backend_us += _now_us() - t;
	r->calls++;
	r->refused += !ok;
	return ok;
}

/* "leaf01,leaf02" of a result */
static void _rack_names(const struct fse_ctl *c, const struct fse_result *res, char *buf,
			size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < res->nracks && n < size; k++) {
		int rk = res->racks[k];

		n += snprintf(buf + n, size - n, "%s%s", k ? "," : "",
			      rk < c->model->nracks ? c->model->racks[rk].name : "(none)");
	}
}

/* The note saying the job ran without its locality (for SystemComment). */
static void _relaxed_note(struct run *r, const char *how)
{
	snprintf(r->c->note, sizeof(r->c->note), "fabsched: locality %s relaxed after %s: %s",
		 r->loc, r->waited, how);
}

/* A placement the backend accepted: counted toward the partition's share,
 * at once when it is the start, else once the job is seen started. */
static void _outcome(struct run *r, const struct fse_result *res, struct fse_outcome *o)
{
	bool got = res->level <= r->rq.level;
	struct fse_ctl *c = r->c;

	o->note = c->note[0] ? c->note : NULL;
	if (r->part >= 0 && !r->j->final)
		fse_locality_pend(c->locality, r->j->job_id, r->part, res->fits_domain, got,
				  o->note);
	else if (r->part >= 0 && res->fits_domain)
		fse_locality_count(c->locality, r->part, got);
}

/* How a job placed under LocalityWaitRatio was relaxed. */
static void _expected_how(const struct run *r, const char *racks, char *how, size_t n)
{
	char in[32], limit[32];

	if (r->res.expected == INT64_MAX) {
		snprintf(how, n, "%d racks (%s); LocalityWaitRatio %u: %s", r->res.nracks, racks,
			 r->rq.wait_ratio,
			 r->res.fits_domain ? "no rack expected to hold it"
					    : "it needs more than one rack");
		return;
	}
	fs_format_duration((uint64_t)(r->res.expected - r->rq.now), in, sizeof(in));
	fs_format_duration((uint64_t)r->rq.time_limit, limit, sizeof(limit));
	snprintf(
		how, n,
		"%d racks (%s); LocalityWaitRatio %u: a rack expected in %s, over %u x its time limit %s",
		r->res.nracks, racks, r->rq.wait_ratio, in, r->rq.wait_ratio, limit);
}

static void _started(struct run *r, struct fse_outcome *o)
{
	struct fse_ctl *c = r->c;
	char racks[FS_MSG_SIZE / 4], how[FS_MSG_SIZE / 2];
	unsigned n = 0;
	double got = fse_share_get(fse_locality_share(c->locality, r->part), &n);

	_rack_names(c, &r->res, racks, sizeof(racks));
	c->st.started++;
	if (r->res.relaxed) {
		if (r->res.expected_far)
			_expected_how(r, racks, how, sizeof(how));
		else if (r->by_target)
			snprintf(
				how, sizeof(how),
				"%d racks (%s); LocalityTarget %g%%: %u of the last %u jobs got their domain",
				r->res.nracks, racks, r->pol.target * 100,
				(unsigned)(got * n + 0.5), n);
		else
			snprintf(how, sizeof(how), "%d racks (%s)", r->res.nracks, racks);
		_relaxed_note(r, how);
		c->st.relaxed++;
		_log(c, FSE_LOG_INFO, "%s: locality %s (%s) relaxed after %" PRIu64 "s: %s",
		     r->j->label, r->loc, fse_policy_from_name(r->pol.from), r->j->waited, racks);
	}
	_outcome(r, &r->res, o);
	_log(c, FSE_LOG_VERBOSE, "%s: %s, racks %s (locality %s from %s, %d tries%s)", r->j->label,
	     r->res.reason, racks, fse_level_name(r->rq.level), fse_policy_from_name(r->pol.from),
	     r->tries, r->shared_pass ? ", shared nodes" : "");
}

/* Nothing placed in a domain: what decide.c says, carried out. */
static void _unplaced(struct run *r, struct fse_outcome *o)
{
	struct fse_ctl *c = r->c;
	enum fse_action act = fse_decide_unplaced(&r->rq, &r->res, r->tries);

	switch (act) {
	case FSE_ACT_WAIT:
		c->st.waits++;
		o->waits = true;
		snprintf(o->pending, sizeof(o->pending), "Locality: %s, %s, waited %s",
			 r->tries ? "no domain has the cores or memory free" : r->res.reason,
			 r->loc, r->waited);
		_log(c, FSE_LOG_DEBUG, "%s: pending: %s", r->j->label, o->pending);
		return;
	case FSE_ACT_RESOURCES:
		return; /* not enough free: plain Resources */
	case FSE_ACT_BACKEND:
	case FSE_ACT_ANY:
		break;
	}
	/* FSE_ACT_BACKEND: by fabsched's count no domain could ever hold the
	 * job (its shape against the nodes as configured), so Slurm's own
	 * node choice decides as it would without fabsched.  FSE_ACT_ANY:
	 * any placement will do.  Both: the backend on every candidate. */
	o->started = _try(r, NULL);
	if (act == FSE_ACT_BACKEND) {
		_log(c, FSE_LOG_DEBUG, "%s: %s: placed by the backend on all candidates",
		     r->j->label, r->res.reason);
	} else if (o->started) {
		/* counted as a miss: no domain was chosen */
		struct fse_result any = { .status = FSE_OK,
					  .level = FSE_ANY,
					  .fits_domain = _fit(r)->fits_domain };

		if (r->rq.level != FSE_ANY) {
			c->st.relaxed++;
			_relaxed_note(r, "placed on any nodes");
		}
		_outcome(r, &any, o);
	}
}

/* The request from the job; tasks_now/idle already filled. */
static void _request(struct run *r)
{
	const struct fse_job *j = r->j;
	struct fse_ctl *c = r->c;
	struct fse_request *rq = &r->rq;

	rq->min_nodes = j->min_nodes ? j->min_nodes : 1;
	rq->max_nodes = j->max_nodes < rq->min_nodes ? rq->min_nodes : j->max_nodes;
	rq->want_nodes = j->want_nodes;
	rq->level = r->pol.level;
	rq->max_racks = r->pol.max_racks;
	if (j->ntasks) {
		/* a job sized by tasks (-n) gets the domain that holds its
		 * tasks, not only its node count */
		rq->ntasks = j->ntasks;
		rq->tasks_now = c->tasks_now;
		if (j->spread)
			/* --spread-job: one node per task, as far as the
			 * candidates go, as Slurm's own spreading does */
			rq->min_nodes = fse_spread_nodes(rq->ntasks, rq->min_nodes, rq->max_nodes,
							 c->tasks_now, j->cand, c->nnodes);
		if (rq->max_nodes < rq->min_nodes)
			rq->max_nodes = rq->min_nodes;
	}
	/* the nodes it could use at all, for every job: a job that fits a
	 * rack of the fabric but none of its partition's or features' nodes
	 * does not wait for one */
	rq->tasks_idle = c->tasks_idle;
	if (j->idle_key) {
		/* their sums per rack: a rack that holds the job on the idle
		 * machine is then found in O(racks) (place.c) */
		if (j->idle_key != c->room_idle_key) {
			fse_rack_room(c->topo, NULL, c->tasks_idle, c->rack_room_idle);
			c->room_idle_key = j->idle_key;
		}
		rq->rack_room_idle = c->rack_room_idle;
	}
	rq->skip_racks = c->skip;
	memset(c->skip, 0, fse_topo_nracks(c->topo));
	if (r->pol.ratio && j->free_at && (rq->free_at = j->free_at(j->free_at_arg))) {
		/* a rack expected soon enough, or no wait (place.c) */
		rq->wait_ratio = r->pol.ratio;
		rq->now = (int64_t)time(NULL);
		rq->time_limit = j->time_limit;
	}
}

/* An observation line for the writer (appended to the log). */
static void _obs_out(struct fse_ctl *c, const char *line)
{
	size_t n = strlen(line);
	char *b;

	if (!c->obs_file || !(b = realloc(c->obs_out, c->obs_out_len + n + 1)))
		return;
	memcpy(b + c->obs_out_len, line, n + 1);
	c->obs_out = b;
	c->obs_out_len += n;
}

/* Observations of jobs that started are logged, of jobs gone dropped. */
static void _obs_commit(struct fse_ctl *c, fse_job_state_f state, void *arg)
{
	int k = 0;

	for (int i = 0; i < c->nobs_pend; i++) {
		const struct obs_pend *p = &c->obs_pend[i];
		enum fse_job_state st = c->obs_state
						? c->obs_state(p->job_id, p->task, c->obs_state_arg)
						: state(p->job_id, arg);

		if (st == FSE_JOB_PENDING) {
			c->obs_pend[k++] = c->obs_pend[i];
			continue;
		}
		if (st == FSE_JOB_STARTED)
			_obs_out(c, c->obs_pend[i].line);
		free(c->obs_pend[i].line);
	}
	c->nobs_pend = k;
}

/* Keep the latest observation of a job until it is seen started. */
static void _obs_pend(struct fse_ctl *c, uint32_t job_id, uint32_t task, const char *line)
{
	char *copy = strdup(line);
	int i;
	struct obs_pend *p;

	if (!copy)
		return;
	for (i = 0;
	     i < c->nobs_pend && (c->obs_pend[i].job_id != job_id || c->obs_pend[i].task != task);
	     i++)
		;
	if (i < c->nobs_pend) {
		free(c->obs_pend[i].line);
		c->obs_pend[i].line = copy;
		return;
	}
	if (c->nobs_pend == FSE_LOCALITY_PEND_MAX) { /* forget the oldest */
		free(c->obs_pend[0].line);
		memmove(c->obs_pend, c->obs_pend + 1,
			(FSE_LOCALITY_PEND_MAX - 1) * sizeof(*c->obs_pend));
		c->nobs_pend--;
	}
	if (!(p = realloc(c->obs_pend, (c->nobs_pend + 1) * sizeof(*p)))) {
		free(copy);
		return;
	}
	c->obs_pend = p;
	p[c->nobs_pend++] = (struct obs_pend){ job_id, task, copy };
}

/* The logged observations handed to the writer thread (without it,
 * written here). */
static void _obs_save_soon(struct fse_ctl *c)
{
	char *path, *b;

	if (!c->obs_out_len || !(path = strdup(c->obs_file)))
		return;
	pthread_mutex_lock(&c->sv.lock);
	if (c->sv.obs_buf && (b = realloc(c->sv.obs_buf, c->sv.obs_len + c->obs_out_len + 1))) {
		memcpy(b + c->sv.obs_len, c->obs_out, c->obs_out_len + 1);
		c->sv.obs_buf = b;
		c->sv.obs_len += c->obs_out_len;
		free(c->obs_out);
		free(path);
	} else if (!c->sv.obs_buf) {
		free(c->sv.obs_path);
		c->sv.obs_path = path;
		c->sv.obs_buf = c->obs_out;
		c->sv.obs_len = c->obs_out_len;
	} else {
		free(c->obs_out); /* no memory: these are lost */
		free(path);
	}
	c->obs_out = NULL;
	c->obs_out_len = 0;
	if (!c->sv.running && !pthread_create(&c->sv.thread, NULL, _saver, c))
		c->sv.running = true;
	if (!c->sv.running && c->sv.obs_buf) {
		_append_file(c, c->sv.obs_path, c->sv.obs_buf, c->sv.obs_len);
		free(c->sv.obs_path);
		free(c->sv.obs_buf);
		c->sv.obs_path = c->sv.obs_buf = NULL;
		c->sv.obs_len = 0;
	}
	pthread_mutex_unlock(&c->sv.lock);
}

/* c->avail: the job's candidates with room for it (@idle_only: and no job,
 * where the caller knows), and, counted in the same pass, each rack's such
 * nodes and their tasks, given to the request (rack_free; rack_room for a
 * job sized by tasks) so that the engine does not count them again. */
static void _avail(struct run *r, bool idle_only)
{
	struct fse_ctl *c = r->c;
	const struct fse_job *j = r->j;
	int nr = fse_topo_nracks(c->topo);

	memset(c->rack_free, 0, nr * sizeof(*c->rack_free));
	memset(c->rack_room, 0, nr * sizeof(*c->rack_room));
	for (int i = 0; i < c->nnodes; i++) {
		int k;

		c->avail[i] =
			j->cand[i] && c->tasks_now[i] && (!idle_only || !j->idle || j->idle[i]);
		if (!c->avail[i])
			continue;
		k = fse_topo_rack_of(c->topo, i);
		c->rack_free[k]++;
		c->rack_room[k] += c->tasks_now[i];
	}
	r->rq.rack_free = c->rack_free;
	r->rq.rack_room = r->rq.ntasks ? c->rack_room : NULL;
}

/* Step 3: the domain, first among the candidates without jobs (where the
 * caller knows them) that can run the job; then, for a job that shares
 * nodes and may fit beside others, among what is free on every candidate
 * (the backend checks it domain by domain).  Into r->res. */
static void _domain(struct run *r)
{
	struct fse_ctl *c = r->c;
	const struct fse_job *j = r->j;

	_avail(r, true);
	fse_place(c->topo, c->work, &r->rq, c->avail, &r->res);
	if (r->res.status == FSE_NOT_NOW && j->idle && j->may_share) {
		_avail(r, false);
		fse_place(c->topo, c->work, &r->rq, c->avail, &r->res);
		r->shared_pass = true;
	}
}

/* The domains found for the job, best first, offered to the node choice
 * in turn (at most FSE_CTL_TRIES); true when it took one (r->res). */
static bool _domains_tried(struct run *r)
{
	struct fse_ctl *c = r->c;

	_domain(r);
	while (r->res.status == FSE_OK && r->tries < FSE_CTL_TRIES) {
		r->tries++;
		if (_try(r, &r->res))
			return true;
		for (int k = 0; k < r->res.nracks; k++)
			c->skip[r->res.racks[k]] = 1;
		fse_place(c->topo, c->work, &r->rq, c->avail, &r->res);
	}
	return false;
}

/* Pending decisions of jobs that now hold an allocation are counted, at
 * most once a second (placement calls come by the hundred per cycle). */
static void _commit(struct fse_ctl *c, fse_job_state_f state, void *arg)
{
	time_t now = time(NULL);

	if (!state || (!fse_locality_npend(c->locality) && !c->nobs_pend) || now == c->commit_sec)
		return;
	c->commit_sec = now;
	fse_locality_commit(c->locality, state, arg);
	_obs_commit(c, state, arg);
	_obs_save_soon(c);
}

static void _take_back(struct fse_ctl *c, uint32_t job_id)
{
	const char *note = fse_locality_note(c->locality, job_id);

	c->take_back[0] = '\0';
	if (note) {
		snprintf(c->take_back, sizeof(c->take_back), "%s", note);
		fse_locality_drop_note(c->locality, job_id);
	}
}

/*
 * Whether a success for @j may be a question, not its start.  Where Slurm
 * also asks the node choice whether a job could ever run (24.11 and later:
 * !final), it does so right after the job's own failed try, in the same
 * scheduling pass (node_scheduler.c, _pick_best_nodes:
 * SELECT_MODE_TEST_ONLY).  A success that follows no failure of the job in
 * the pass is its start; so is backfill's start of a job (its plans are
 * not counted as failures, and the pass that failed the job has ended).
 */
static bool _question(const struct fse_ctl *c, const struct fse_job *j)
{
	return !j->final && c->failed_job == j->job_id && c->failed_pass == j->pass;
}

/* Whether this call ends the job's wait (o->unwait), and the failure
 * it leaves for the next call's _question. */
static void _wait_over(struct fse_ctl *c, const struct fse_job *j, struct fse_outcome *o)
{
	bool question = _question(c, j);

	o->unwait = o->started && !question && !j->plan;
	if (j->plan)
		return; /* plans say nothing of the next call */
	if (!o->started) {
		c->failed_job = j->job_id;
		c->failed_pass = j->pass;
	} else if (!question) {
		c->failed_job = 0;
	}
}

/* The timing figures since the start, at @level. */
static void _stats_log(const struct fse_ctl *c, enum fse_log level)
{
	const struct fse_ctl_stats *s = &c->st;

	if (s->calls)
		_log(c, level,
		     "%" PRIu64 " placement decisions (%" PRIu64 " started, %" PRIu64
		     " waited, %" PRIu64
		     " relaxed): fabsched time mean %.1f us, max %.0f us; backend mean %.1f us",
		     s->calls, s->started, s->waits, s->relaxed, s->hook_us / s->calls,
		     s->hook_us_max, s->backend_us / s->calls);
	if (s->observed)
		_log(c, level,
		     "%" PRIu64 " observations (Locality=observe): fabsched time mean %.1f us",
		     s->observed, s->observe_us / s->observed);
	for (int k = 0; k < 2; k++)
		if (s->calls_by[k])
			_log(c, level,
			     "%s: %" PRIu64
			     " placement decisions: fabsched %.1f us, backend %.1f us on average (%.2f node choices a decision, %.2f refused); fabsched %.3f s in all",
			     k ? "plans (backfill)" : "starts now (main scheduler)", s->calls_by[k],
			     s->hook_us_by[k] / s->calls_by[k],
			     s->backend_us_by[k] / s->calls_by[k],
			     (double)s->backend_calls_by[k] / s->calls_by[k],
			     (double)s->backend_refused_by[k] / s->calls_by[k],
			     s->hook_us_by[k] / 1e6);
	if (s->plans)
		_log(c, level,
		     "plans (will-run): %" PRIu64 " (%" PRIu64 " in a domain free now, %" PRIu64
		     " in a rack expected later, %" PRIu64
		     " in racks expected later for a job wider than one, %" PRIu64
		     " in no rack of the nodes offered, %" PRIu64
		     " on every candidate): fabsched %.1f us, backend %.1f us on average",
		     s->plans, s->plans_now, s->plans_later, s->plans_span, s->plans_none,
		     s->plans_any, s->plan_us / s->plans, s->plan_backend_us / s->plans);
	if (s->calls || s->plans)
		_log(c, level,
		     "the idle machine's tasks per node: kept from an earlier decision in %" PRIu64
		     " of %" PRIu64 " decisions, counted in the others",
		     s->idle_kept, s->calls + s->plans);
}

/* The figures so far, at most once a minute (slurmctld may never call
 * fse_ctl_finish: 22.05 does not unload its select plugin). */
static void _stats_now_and_then(struct fse_ctl *c)
{
	time_t now;

	if (c->log_most < FSE_LOG_INFO)
		return;
	now = time(NULL);
	if (!c->stats_sec) {
		c->stats_sec = now;
	} else if (now - c->stats_sec >= STATS_EVERY) {
		c->stats_sec = now;
		_stats_log(c, FSE_LOG_INFO);
	}
}

bool fse_job_applies(bool switches, bool switches_as_racks, bool pinned)
{
	return !pinned && (!switches || switches_as_racks);
}

int fse_ctl_place(struct fse_ctl *c, const struct fse_job *j, fse_try_f try, void *arg,
		  fse_job_state_f state, void *state_arg, struct fse_outcome *o)
{
	struct run r = { .c = c, .j = j, .try = try, .arg = arg };
	struct fs_locality loc;
	double t0 = _now_us(), hook;

	memset(o, 0, sizeof(*o));
	c->note[0] = c->take_back[0] = '\0';
	if (!fse_ctl_usable(c) || !j || !j->cand) {
		o->started = try(NULL, arg);
		return -1;
	}
	_policy(c, j, &r.pol);
	loc = (struct fs_locality){ .level = (enum fs_locality_level)r.pol.level,
				    .wait_set = true,
				    .wait = r.pol.wait };
	fs_format_locality(&loc, r.loc, sizeof(r.loc));
	fs_format_duration(j->waited, r.waited, sizeof(r.waited));
	if (!j->final) {
		_take_back(c, j->job_id);
		o->take_back = c->take_back[0] ? c->take_back : NULL;
		_commit(c, state, state_arg);
	}
	_request(&r);
	r.part = _share_of(c, j->part);
	/* whether the job fits a domain of its level when idle (a pass over
	 * the nodes it could use), for a LocalityTarget and every placement */
	r.rq.relaxed =
		fse_decide_relaxed(&r.pol, j->waited, fse_locality_share(c->locality, r.part),
				   _fit(&r)->fits_domain && r.pol.target > 0, &r.by_target);

	o->started = _domains_tried(&r);

	_wait_over(c, j, o);
	c->st.calls++;
	c->st.idle_kept += j->idle_kept;
	if (o->started)
		_started(&r, o);
	else
		_unplaced(&r, o);
	_state_save_soon(c);

	hook = _now_us() - t0 - r.backend_us + (j->prep_us > 0 ? j->prep_us : 0);
	c->st.hook_us += hook;
	if (hook > c->st.hook_us_max)
		c->st.hook_us_max = hook;
	c->st.backend_us += r.backend_us;
	c->st.calls_by[j->plan]++;
	c->st.hook_us_by[j->plan] += hook;
	c->st.backend_us_by[j->plan] += r.backend_us;
	c->st.backend_calls_by[j->plan] += r.calls;
	c->st.backend_refused_by[j->plan] += r.refused;
	_log(c, FSE_LOG_DEBUG,
	     "%s: placement %s: fabsched %.0f us, backend %.0f us (%d calls, %d refused); mean fabsched %.1f us over %" PRIu64
	     " calls, max %.0f us",
	     j->label, o->started ? "started" : "not now", hook, r.backend_us, r.calls, r.refused,
	     c->st.hook_us / c->st.calls, c->st.calls, c->st.hook_us_max);
	_stats_now_and_then(c);
	return 0;
}

/* ------------------------------------------------------------ plan */

/* "rack leaf03, expected to hold it in 40 s", "racks leaf03,leaf04, ..." */
static void _plan_why(struct run *r, struct fse_plan *o, const struct fse_result *res, int64_t at)
{
	char names[100]; /* with the rest, within o->why */

	_rack_names(r->c, res, names, sizeof(names));
	snprintf(o->why, sizeof(o->why), "rack%s %s, expected to hold it in %" PRId64 " s",
		 res->nracks > 1 ? "s" : "", names, at > r->rq.now ? at - r->rq.now : 0);
}

int fse_ctl_plan(struct fse_ctl *c, const struct fse_job *j, fse_try_f try, void *arg,
		 struct fse_plan *o)
{
	struct run r = { .c = c, .j = j, .try = try, .arg = arg };
	int racks[FSE_CTL_TRIES], n;
	int64_t at[FSE_CTL_TRIES];
	double t0 = _now_us();
	bool rack_bound;

	memset(o, 0, sizeof(*o));
	if (!fse_ctl_usable(c) || !j || !j->cand) {
		o->placed = try(NULL, arg);
		return -1;
	}
	_policy(c, j, &r.pol);
	_request(&r);
	r.part = _share_of(c, j->part);
	r.rq.relaxed =
		fse_decide_relaxed(&r.pol, j->waited, fse_locality_share(c->locality, r.part),
				   _fit(&r)->fits_domain && r.pol.target > 0, &r.by_target);

	/* 1. a domain free now: the plan is a start there (or later, when
	 * the node choice finds its cores busy) */
	if (_domains_tried(&r)) {
		o->placed = o->in_domain = true;
		_rack_names(c, &r.res, o->why, sizeof(o->why));
		c->st.plans_now++;
		goto out;
	}
	/* 2. a job that waits for one rack: the racks expected to hold it
	 * soonest, each alone (the node choice says when); none: not in
	 * this plan's nodes (the scheduler tries a later time) */
	rack_bound = r.rq.level == FSE_RACK && !r.rq.relaxed && j->free_at && _fit(&r)->fits_domain;
	if (rack_bound) {
		r.rq.free_at = j->free_at(j->free_at_arg);
		r.rq.now = (int64_t)time(NULL);
		/* racks whose node choice failed in 1. stay out: it looked
		 * at their later times too */
		n = r.rq.free_at ? fse_place_expected(c->topo, c->work, &r.rq, c->avail, j->cand,
						      racks, at, FSE_CTL_TRIES)
				 : -1;
		for (int k = 0; k < n; k++) {
			struct fse_result one = {
				.status = FSE_OK, .level = FSE_RACK, .nracks = 1, .racks = &racks[k]
			};

			if (_try(&r, &one)) {
				o->placed = o->in_domain = true;
				_plan_why(&r, o, &one, at[k]);
				c->st.plans_later++;
				goto out;
			}
		}
		if (n >= 0) {
			snprintf(o->why, sizeof(o->why),
				 "no rack of these nodes holds it (%d tried)", n);
			c->st.plans_none++;
			goto out;
		}
	}
	/* 2b. a job that waits for several racks (wider than one; under a
	 * LocalityWaitRatio it does not wait): the racks expected to hold it
	 * soonest, together; none: a later time */
	if (!rack_bound && r.rq.level == FSE_RACK && !r.rq.relaxed && !r.rq.wait_ratio &&
	    j->free_at && (r.rq.free_at = j->free_at(j->free_at_arg))) {
		struct fse_result span = { .status = FSE_OK, .level = FSE_ANY };
		int64_t when = 0;

		r.rq.now = (int64_t)time(NULL);
		span.nracks = fse_place_expected_span(c->topo, c->work, &r.rq, c->avail, j->cand,
						      &span.racks, &when);
		if (span.nracks > 0 && _try(&r, &span)) {
			o->placed = o->in_domain = true;
			_plan_why(&r, o, &span, when);
			c->st.plans_span++;
			goto out;
		}
		if (span.nracks >= 0) {
			snprintf(o->why, sizeof(o->why), "no %s of these nodes holds it",
				 span.nracks ? "set of racks expected soonest" : "set of racks");
			c->st.plans_none++;
			goto out;
		}
	}
	/* 3. not bound to racks (relaxed, wider than a rack under a wait
	 * ratio, or no free times): every candidate, as the job may start */
	o->placed = _try(&r, NULL);
	snprintf(o->why, sizeof(o->why), "every candidate");
	c->st.plans_any++;
out:
	memset(c->skip, 0, fse_topo_nracks(c->topo));
	c->st.plans++;
	c->st.idle_kept += j->idle_kept;
	c->st.plan_us += _now_us() - t0 - r.backend_us + (j->prep_us > 0 ? j->prep_us : 0);
	c->st.plan_backend_us += r.backend_us;
	_log(c, FSE_LOG_DEBUG, "%s: plan %s: %s (%d node choices, %d refused)", j->label,
	     o->placed ? "placed" : "none", o->why, r.calls, r.refused);
	return 0;
}

/* ------------------------------------------------------------ observe */

/* The racks of the nodes with on[i] != 0 (or of @res when not NULL), as
 * an observation's place: one rack, racks of one pod, or across pods. */
static void _obs_place(struct fse_ctl *c, const uint8_t *on, const struct fse_result *res,
		       struct fse_obs_place *p)
{
	int nr = fse_topo_nracks(c->topo), pod = -2;
	size_t len = 0;

	memset(p, 0, sizeof(*p));
	memset(c->skip, 0, nr);
	if (res)
		for (int k = 0; k < res->nracks; k++)
			c->skip[res->racks[k]] = 1;
	else
		for (int i = 0; i < c->nnodes; i++)
			if (on[i])
				c->skip[fse_topo_rack_of(c->topo, i)] = 1;
	for (int rk = 0; rk < nr; rk++) {
		const char *name;
		int n;

		if (!c->skip[rk])
			continue;
		c->skip[rk] = 0;
		p->nracks++;
		if (pod == -2)
			pod = fse_topo_pod_of(c->topo, rk);
		else if (pod != fse_topo_pod_of(c->topo, rk))
			pod = -1;
		name = rk < c->model->nracks ? c->model->racks[rk].name : "none";
		n = snprintf(p->racks + len, sizeof(p->racks) - len, "%s%s", len ? "," : "", name);
		if (n < 0 || len + n >= sizeof(p->racks) - 4) {
			snprintf(p->racks + len, sizeof(p->racks) - len, "%s...", len ? "," : "");
			len = sizeof(p->racks); /* full: count only */
		} else {
			len += n;
		}
	}
	p->kind = p->nracks == 1 ? FSE_OBS_RACK : pod >= 0 ? FSE_OBS_POD : FSE_OBS_ANY;
	if (!p->nracks)
		snprintf(p->racks, sizeof(p->racks), "-");
}

/* What fse_ctl_place would have done for r->j with its candidates, free
 * resources and wait: its place, or that it would have waited (no node
 * choice is made: the fabric's count of free nodes and tasks decides). */
static void _obs_would(struct run *r, struct fse_obs *ob)
{
	struct fse_ctl *c = r->c;

	_domain(r);
	if (r->res.status == FSE_OK) {
		_obs_place(c, NULL, &r->res, &ob->would);
		snprintf(ob->why, sizeof(ob->why), "%s%s", r->res.reason,
			 !r->res.relaxed || r->res.expected_far ? ""
			 : r->by_target				? " (relaxed: LocalityTarget)"
					: " (relaxed: waited its LocalityWait)");
		return;
	}
	switch (fse_decide_unplaced(&r->rq, &r->res, 0)) {
	case FSE_ACT_WAIT:
		ob->would.kind = FSE_OBS_WAIT;
		snprintf(ob->would.racks, sizeof(ob->would.racks), "-");
		snprintf(ob->why, sizeof(ob->why), "Locality: %s, %s, waited %s", r->res.reason,
			 r->loc, r->waited);
		return;
	case FSE_ACT_ANY: /* any placement: as Slurm's */
		ob->would = ob->got;
		snprintf(ob->why, sizeof(ob->why), "%s: any placement", r->res.reason);
		return;
	case FSE_ACT_BACKEND:
	case FSE_ACT_RESOURCES:
		break;
	}
	ob->would.kind = FSE_OBS_STOCK;
	snprintf(ob->would.racks, sizeof(ob->would.racks), "-");
	snprintf(ob->why, sizeof(ob->why), "%s", r->res.reason);
}

int fse_ctl_observe(struct fse_ctl *c, const struct fse_job *j, const uint8_t *got,
		    fse_job_state_f state, void *state_arg)
{
	struct run r = { .c = c, .j = j };
	struct fse_obs ob = { 0 };
	struct fs_locality loc;
	char line[1536];
	double t0 = _now_us();
	bool in_domain;

	if (!fse_ctl_usable(c) || !j || !j->cand || !got || !fse_ctl_part_observe(c, j->part))
		return -1;
	_policy(c, j, &r.pol);
	loc = (struct fs_locality){ .level = (enum fs_locality_level)r.pol.level,
				    .wait_set = true,
				    .wait = r.pol.wait };
	fs_format_locality(&loc, r.loc, sizeof(r.loc));
	fs_format_duration(j->waited, r.waited, sizeof(r.waited));
	if (!j->final)
		_commit(c, state, state_arg);
	_request(&r);
	r.part = _share_of(c, j->part);
	ob.fits = _fit(&r)->fits_domain;
	r.rq.relaxed =
		fse_decide_relaxed(&r.pol, j->waited, fse_locality_share(c->locality, r.part),
				   r.pol.target > 0 && ob.fits, &r.by_target);
	ob.time = time(NULL);
	ob.job_id = j->job_id;
	ob.task = FSE_NO_TASK;
	if (j->array_task != FSE_NO_TASK && j->array_job_id) {
		ob.job_id = j->array_job_id;
		ob.task = j->array_task;
	}
	snprintf(ob.part, sizeof(ob.part), "%s", j->part ? j->part : "");
	ob.level = r.rq.level;
	ob.waited = j->waited;
	for (int i = 0; i < c->nnodes; i++)
		ob.nodes += got[i] != 0;
	_obs_place(c, got, NULL, &ob.got);
	if (j->stock_why) {
		ob.would.kind = FSE_OBS_STOCK;
		snprintf(ob.would.racks, sizeof(ob.would.racks), "-");
		snprintf(ob.why, sizeof(ob.why), "%s", j->stock_why);
	} else {
		_obs_would(&r, &ob);
	}
	fse_obs_format(&ob, line, sizeof(line));
	/* the share it would have kept: a job that would have waited for
	 * its domain is counted as getting it */
	in_domain = fse_obs_in_domain(&ob.would, ob.level) || ob.would.kind == FSE_OBS_WAIT;
	if (j->final) {
		if (r.part >= 0 && ob.fits)
			fse_locality_count(c->locality, r.part, in_domain);
		_obs_out(c, line);
		_obs_save_soon(c);
	} else {
		if (r.part >= 0)
			fse_locality_pend(c->locality, j->job_id, r.part, ob.fits, in_domain, NULL);
		_obs_pend(c, ob.job_id, ob.task, line);
	}
	_state_save_soon(c);
	c->st.observed++;
	c->st.observe_us += _now_us() - t0 + (j->prep_us > 0 ? j->prep_us : 0);
	_log(c, FSE_LOG_DEBUG, "%s: observed: got %s:%u, would %s:%u (%s)", j->label,
	     fse_obs_kind_name(ob.got.kind), ob.got.nracks, fse_obs_kind_name(ob.would.kind),
	     ob.would.nracks, ob.why);
	_stats_now_and_then(c);
	return 0;
}

void fse_ctl_finish(struct fse_ctl *c)
{
	_obs_save_soon(c);
	_saver_stop(c); /* what it holds is written */
	if (fse_locality_dirty(c->locality))
		_state_save(c);
	_stats_log(c, FSE_LOG_INFO);
	for (int i = 0; i < fse_locality_nparts(c->locality); i++) {
		const char *name = fse_locality_part_name(c->locality, i);
		unsigned n = 0;
		double got = fse_share_get(fse_locality_share(c->locality, i), &n);

		if (n)
			_log(c, FSE_LOG_INFO,
			     "partition %s: %.1f%% of the last %u jobs that fit a domain got one",
			     name[0] ? name : "(none)", got * 100, n);
	}
}
