/*
 * main.c - command lines of fabsched-prolog, fabsched-epilog and
 * fabsched-sweep (fabsched-prolog(8)).  Exit 0 on success, and after a
 * failure that is the job's own (the job held through the hold seam);
 * 1 on failure (slurmd then drains the node with the message), 2 on
 * usage errors.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "fs_env.h"
#include "fs_run.h"
#include "fabsched_conf.h"
#include "fabsched_gres.h"
#include "fabsched_prolog.h"
#include "fs_ib.h"
#include "prolog_private.h"

enum {
	OPT_STATE = 256,
	OPT_BASE,
	OPT_SYSFS,
	OPT_CGROUP,
	OPT_RUNNING,
	OPT_QUERY,
	OPT_NODE,
	OPT_TASK,
	OPT_SCRATCH
};

static const struct option _opts[] = {
	{ "conf", required_argument, NULL, 'f' },
	{ "state-dir", required_argument, NULL, OPT_STATE },
	{ "mount-base", required_argument, NULL, OPT_BASE },
	{ "scratch-base", required_argument, NULL, OPT_SCRATCH },
	{ "sysfs-root", required_argument, NULL, OPT_SYSFS },
	{ "cgroup-parent", required_argument, NULL, OPT_CGROUP },
	{ "running", required_argument, NULL, OPT_RUNNING },
	{ "query", required_argument, NULL, OPT_QUERY },
	{ "node", required_argument, NULL, OPT_NODE },
	{ "task", no_argument, NULL, OPT_TASK },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct args {
	const char *conf, *running, *query, *node;
	/* --state-dir, --mount-base, --scratch-base; NULL when not given */
	const char *state_dir, *mount_base, *scratch_base;
	const char *hostnqn_file, *hostid_file;
	const char *pkey_map; /* AccountIbPkeys, NULL when unset */
	bool task;
	struct fs_conf *cf;
};

static const char *_getenv(const char *n)
{
	return getenv(n);
}

static void _usage(const char *prog, FILE *out)
{
	fprintf(out,
		"Usage: %s [options]\n"
		"  -f, --conf FILE        fabsched.conf (default: $FABSCHED_CONF, else beside\n"
		"                         $SLURM_CONF, else %s, else fabsched.so's\n"
		"                         arguments in plugstack.conf: fabsched.conf(5))\n"
		"      --state-dir DIR    instead of StateDir\n"
		"      --mount-base DIR   instead of HugepageMountBase\n"
		"      --scratch-base DIR instead of ScratchBase\n"
		"      --sysfs-root DIR   sysfs tree for the RDMA checks "
		"(default $FABSCHED_SYSFS_ROOT or /)\n"
		"      --cgroup-parent D  job cgroups are D/job_<id>\n"
		"      --task             (fabsched-prolog) TaskProlog mode: print\n"
		"                         export FABSCHED_HUGEPAGES_MOUNT=...,\n"
		"                         FABSCHED_SCRATCH=...\n"
		"      --running IDS      (fabsched-sweep) jobs running here, comma-separated\n"
		"      --query CMD        (fabsched-sweep) command printing running job ids\n"
		"      --node NAME        (fabsched-sweep) Slurm node name for squeue\n"
		"  -q, --quiet            log errors only\n"
		"See fabsched-prolog(8).\n",
		prog, fs_conf_default_path());
}

/* The context before the options: the defaults, the job's SLUID (a bad one
 * logged and ignored), the caller's seams (NULL: none), the sysfs root of
 * the environment. */
static void _ctx_start(struct fs_pl_ctx *ctx, const char *prog, struct fs_pl_ctx *seam)
{
	const char *s;
	char m[FS_MSG_SIZE];

	fs_pl_ctx_init(ctx, prog);
	/* from slurmd (25.11 and later): the job cgroup's name on 26.05 */
	if ((s = getenv("SLURM_JOB_SLUID")) && *s &&
	    fs_pl_parse_sluid("SLURM_JOB_SLUID", s, ctx->job_sluid, m, sizeof(m)))
		fs_pl_log(ctx, 0, "%s: ignored", m);
	if (seam) {
		ctx->checkpoint = seam->checkpoint;
		ctx->checkpoint_arg = seam->checkpoint_arg;
		ctx->pool_set = seam->pool_set;
		ctx->nvme = seam->nvme;
		ctx->drain = seam->drain;
		ctx->hold = seam->hold;
		ctx->running_jobs = seam->running_jobs;
	}
	if ((s = getenv(FS_GRES_SYSFS_ENV)) && *s)
		ctx->sysfs_root = s;
}

/* The command line into a (zeroed first) and ctx; 0 ok, 2 usage, 3 --help
 * (the usage printed). */
static int _options(int argc, char **argv, const char *prog, struct fs_pl_ctx *ctx, struct args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:qh", _opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			a->conf = optarg;
			break;
		case OPT_STATE:
			a->state_dir = optarg;
			break;
		case OPT_BASE:
			a->mount_base = optarg;
			break;
		case OPT_SCRATCH:
			a->scratch_base = optarg;
			break;
		case OPT_SYSFS:
			ctx->sysfs_root = optarg;
			break;
		case OPT_CGROUP:
			ctx->cgroup_parent = optarg;
			break;
		case OPT_RUNNING:
			a->running = optarg;
			break;
		case OPT_QUERY:
			a->query = optarg;
			break;
		case OPT_NODE:
			a->node = optarg;
			break;
		case OPT_TASK:
			a->task = true;
			break;
		case 'q':
			ctx->log = NULL;
			break;
		case 'h':
			_usage(prog, stdout);
			return 3;
		default:
			_usage(prog, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument \"%s\"\n", prog, argv[optind]);
		return 2;
	}
	return 0;
}

/* fabsched.conf (a->conf, else the default one) into a->cf and ctx, the
 * options' bases winning; 0 ok, 1 error (printed). */
static int _conf(const char *prog, struct fs_pl_ctx *ctx, struct args *a)
{
	struct fs_errors *errs;
	char m[FS_MSG_SIZE];

	if (!(errs = fs_errors_new()))
		return 1;
	if (fs_conf_load(a->conf, &a->cf, errs)) {
		for (size_t i = 0; i < fs_errors_count(errs); i++)
			fprintf(stderr, "%s: %s\n", prog, fs_errors_get(errs, i));
		fs_errors_free(errs);
		return 1;
	}
	fs_errors_free(errs);
	ctx->state_dir = a->state_dir;
	ctx->mount_base = a->mount_base;
	ctx->scratch_base = a->scratch_base;
	if (fs_pl_ctx_conf(ctx, a->cf, m, sizeof(m))) {
		fprintf(stderr, "%s: %s\n", prog, m);
		return 1;
	}
	a->pkey_map = fs_conf_get_str(a->cf, "AccountIbPkeys");
	a->hostnqn_file = fs_conf_get_str(a->cf, "ScratchHostNQNFile");
	a->hostid_file = fs_conf_get_str(a->cf, "ScratchHostIDFile");
	return 0;
}

/* Options and fabsched.conf into ctx; 0 ok, 2 usage, 3 --help, 1 error. */
static int _setup(int argc, char **argv, const char *prog, struct fs_pl_ctx *ctx,
		  struct fs_pl_ctx *seam, struct args *a)
{
	int rc;

	_ctx_start(ctx, prog, seam);
	if ((rc = _options(argc, argv, prog, ctx, a)))
		return rc;
	return _conf(prog, ctx, a);
}

static int _fail(const char *prog, uint32_t jobid, const char *msg)
{
	fprintf(stderr, "%s: job %u: %s\n", prog, jobid, msg);
	openlog(prog, LOG_PID, LOG_DAEMON);
	syslog(LOG_ERR, "job %u: %s", jobid, msg);
	closelog();
	return 1;
}

/* Drain the node with the precise reason, through the program's drain
 * seam (the executables: fs_pl_drain_scontrol; none in tests). */
static void _drain(const struct fs_pl_ctx *ctx, uint32_t jobid, const char *msg)
{
	if (ctx->drain)
		ctx->drain(ctx->prog, jobid, msg);
}

/*
 * The prolog failed with @msg (what it took already given back): the
 * exit status.  The job's fault (ctx->fault, said by the failing step):
 * the job is held (or cancelled) through the hold seam with the reason,
 * and the prolog succeeds so that Slurm leaves the node up; the node's
 * fault, or a job that could not be held: the node is drained with the
 * reason and the prolog fails (Slurm then requeues the job held).
 */
static int _prolog_failed(struct fs_pl_ctx *ctx, uint32_t jobid, const char *msg, bool *failed)
{
	char m[FS_MSG_SIZE + 96];

	*failed = true; /* counted as a failed run either way */
	if (ctx->fault == FS_PL_FAULT_JOB && jobid && ctx->hold &&
	    !ctx->hold(ctx->prog, jobid, msg)) {
		snprintf(m, sizeof(m),
			 "%s (the job's request: the job is held, "
			 "the node stays up)",
			 msg);
		_fail(ctx->prog, jobid, m);
		return 0;
	}
	_fail(ctx->prog, jobid, msg);
	_drain(ctx, jobid, msg);
	return 1;
}

/*
 * TaskProlog: the account's P_Key variables.  The task prolog runs as the
 * user with the task's environment, so it looks the key up again from the
 * same inputs the prolog had (fabsched.conf, SLURM_JOB_ACCOUNT,
 * FABSCHED_RDMA_DEVICES): the prolog checked them, or the job would not
 * run.  The index for NCCL needs the ports' tables; when they cannot be
 * read now, NCCL_IB_PKEY is left out and the rest printed.
 */
static void _task_pkey(struct fs_pl_ctx *ctx, struct args *a)
{
	const char *acct = getenv("SLURM_JOB_ACCOUNT");
	const char *devs = getenv(FS_ENV_RDMA_DEVICES);
	struct fs_pl_job job;
	struct fs_pl_rdma_got got = { .pkey_index = -1 };
	char msg[FS_MSG_SIZE];

	if (!a->pkey_map || !acct || !fs_account_ok(acct) || strlen(acct) >= sizeof(job.account))
		return;
	memset(&job, 0, sizeof(job));
	strcpy(job.account, acct);
	if (fs_pl_job_pkey(&job, a->pkey_map, msg, sizeof(msg)) || !job.ib_pkey)
		return;
	if (devs && *devs &&
	    !fs_pl_parse_rdma(devs, job.rdma, sizeof(job.rdma), msg, sizeof(msg))) {
		struct fs_pl_rdma_want want = { .pkey = job.ib_pkey, .account = job.account };

		if (fs_pl_rdma_verify(ctx->sysfs_root, job.rdma, &want, &got, msg, sizeof(msg))) {
			fs_pl_log(ctx, 0, "%s: NCCL_IB_PKEY left out", msg);
			got.npkey = 0;
		}
	}
	fs_pl_pkey_print(stdout, "export ", job.ib_pkey, &got);
}

/* TaskProlog: runs as the user; the mount exists when the prolog made it. */
static int _task(struct fs_pl_ctx *ctx, struct args *a)
{
	const char *id = getenv("SLURM_JOB_ID");
	uint32_t jobid;
	char path[FS_PL_PATH];
	struct stat st;

	if (fs_pl_parse_jobid("SLURM_JOB_ID", id, &jobid, NULL, 0))
		return 0;
	for (int i = 0; i < 2; i++) {
		const char *t = i ? "1g" : "2m";

		snprintf(path, sizeof(path), "%s/%u-%s", ctx->mount_base, jobid, t);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode) && st.st_uid == getuid())
			printf("export FABSCHED_HUGEPAGES_MOUNT%s=%s\n", i ? "_1G" : "", path);
	}
	/* the scratch volume's root is the user's once mounted */
	snprintf(path, sizeof(path), "%s/%u", ctx->scratch_base, jobid);
	if (!lstat(path, &st) && S_ISDIR(st.st_mode) && st.st_uid == getuid())
		printf("export " FS_ENV_SCRATCH "=%s\n", path);
	_task_pkey(ctx, a);
	return 0;
}

/* What the job got here, for `fabsched job` (JobRecordDir; never a
 * failure of the prolog). */
static void _record(struct fs_pl_ctx *ctx, const struct fs_pl_job *job)
{
	static struct fs_pl_ledger l;
	char msg[FS_MSG_SIZE];
	bool have;

	if (!ctx->record_dir)
		return;
	have = !fs_pl_ledger_load(ctx, job->jobid, &l, msg, sizeof(msg));
	if (fs_pl_record_node(ctx, job, have ? &l : NULL, getenv("SLURMD_NODENAME"),
			      getenv(FS_ENV_RDMA_LOCALITY), msg, sizeof(msg)))
		fs_pl_log(ctx, job->jobid, "job record not written: %s", msg);
}

/* One run of the prolog (0) or epilog (1) into the node's metrics, under
 * the helpers' lock. */
static void _metrics(struct fs_pl_ctx *ctx, int helper, int rc)
{
	struct timespec now;
	char msg[FS_MSG_SIZE];

	if (!ctx->metrics_file || !*ctx->metrics_file)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (fs_pl_lock(ctx, msg, sizeof(msg))) {
		fs_pl_log(ctx, 0, "metrics: %s", msg);
		return;
	}
	fs_pl_metrics_record(ctx, helper,
			     (double)(now.tv_sec - ctx->started.tv_sec) +
				     (now.tv_nsec - ctx->started.tv_nsec) / 1e9,
			     rc != 0);
	fs_pl_unlock(ctx);
}

int fs_pl_main_prolog(int argc, char **argv, struct fs_pl_ctx *seam)
{
	struct fs_pl_ctx ctx;
	struct fs_pl_job job;
	struct args a;
	char msg[FS_MSG_SIZE], mnt[FS_PL_PATH];
	const char *sc = getenv("SLURM_SCRIPT_CONTEXT");
	bool failed = false;
	int rc = _setup(argc, argv, "fabsched-prolog", &ctx, seam, &a);

	if (rc)
		return rc == 3 ? 0 : rc;
	if (a.task || (sc && !strcmp(sc, "prolog_task"))) {
		rc = _task(&ctx, &a); /* as the user: no node metrics */
		fs_conf_destroy(a.cf);
		return rc;
	}
	if (fs_pl_job_from_env(_getenv, fs_pl_mem_kb(), &job, msg, sizeof(msg))) {
		const char *id = getenv("SLURM_JOB_ID");
		uint32_t jobid = 0;

		/* a value of the job's that cannot be trusted: the job's
		   fault (with no job id, slurmd's: the node's) */
		if (id && !fs_pl_parse_jobid("SLURM_JOB_ID", id, &jobid, NULL, 0))
			ctx.fault = FS_PL_FAULT_JOB;
		rc = _prolog_failed(&ctx, jobid, msg, &failed);
		goto out;
	}
	if (job.account_unusable && a.pkey_map)
		fs_pl_log(&ctx, job.jobid,
			  "SLURM_JOB_ACCOUNT is not an account "
			  "name AccountIbPkeys can list (letters, digits, _ - ., "
			  "at most 64 bytes): no P_Key for this job");
	if (fs_pl_job_pkey(&job, a.pkey_map, msg, sizeof(msg))) {
		rc = _fail(ctx.prog, job.jobid, msg);
		_drain(&ctx, job.jobid, msg);
		goto out;
	}
	if (job.scratch_gib && ctx.has_target &&
	    fs_pl_scratch_host(a.hostnqn_file, a.hostid_file, &ctx.target, msg, sizeof(msg))) {
		rc = _fail(ctx.prog, job.jobid, msg);
		_drain(&ctx, job.jobid, msg);
		goto out;
	}
	if (fs_pl_lock(&ctx, msg, sizeof(msg))) {
		rc = _fail(ctx.prog, job.jobid, msg);
		_drain(&ctx, job.jobid, msg);
		goto out;
	}
	if (fs_pl_prolog(&ctx, &job, mnt, sizeof(mnt), msg, sizeof(msg))) {
		rc = _prolog_failed(&ctx, job.jobid, msg, &failed);
	} else {
		if (mnt[0])
			printf(FS_ENV_HUGEPAGES_MOUNT "=%s\n", mnt);
		if (ctx.scratch_path[0])
			printf("FABSCHED_SCRATCH=%s\n", ctx.scratch_path);
		fs_pl_pkey_print(stdout, "", job.ib_pkey, &ctx.rdma_got);
		_record(&ctx, &job);
	}
	fs_pl_unlock(&ctx);
out:
	_metrics(&ctx, 0, rc || failed);
	fs_conf_destroy(a.cf);
	return rc;
}

int fs_pl_main_epilog(int argc, char **argv, struct fs_pl_ctx *seam)
{
	struct fs_pl_ctx ctx;
	struct args a;
	char msg[FS_MSG_SIZE];
	uint32_t jobid;
	uid_t uid = (uid_t)-1;
	const char *s;
	int rc = _setup(argc, argv, "fabsched-epilog", &ctx, seam, &a);

	if (rc)
		return rc == 3 ? 0 : rc;
	if (fs_pl_parse_jobid("SLURM_JOB_ID", getenv("SLURM_JOB_ID"), &jobid, msg, sizeof(msg))) {
		rc = _fail(ctx.prog, 0, msg);
		goto out;
	}
	if ((s = getenv("SLURM_JOB_UID"))) {
		uint32_t u;

		/* uid 0 is valid: parse as a job id shifted by one */
		if (!strcmp(s, "0"))
			uid = 0;
		else if (fs_pl_parse_jobid("SLURM_JOB_UID", s, &u, msg, sizeof(msg))) {
			rc = _fail(ctx.prog, jobid, msg);
			goto out;
		} else
			uid = u;
	}
	if (fs_pl_lock(&ctx, msg, sizeof(msg)) ||
	    fs_pl_release(&ctx, jobid, uid, msg, sizeof(msg))) {
		rc = _fail(ctx.prog, jobid, msg);
		_drain(&ctx, jobid, msg);
	}
	fs_pl_unlock(&ctx);
out:
	_metrics(&ctx, 1, rc);
	fs_conf_destroy(a.cf);
	return rc;
}

static bool _in_list(const uint32_t *ids, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* Running job ids: --running, then what Slurm (or the query command)
 * says through the running_jobs seam. */
static int _running(struct fs_pl_ctx *ctx, struct args *a, uint32_t *ids, size_t max, size_t *n)
{
	char host[256], line[256], how[64], *out = NULL, *save = NULL;
	const char *q = a->query ? a->query : "squeue";
	int st;

	*n = 0;
	if (a->running) {
		char buf[4096];

		snprintf(buf, sizeof(buf), "%s", a->running);
		for (char *t = strtok_r(buf, ",", &save); t && *n < max;
		     t = strtok_r(NULL, ",", &save))
			if (fs_pl_parse_jobid("--running", t, &ids[*n], line, sizeof(line)) == 0)
				(*n)++;
			else {
				fs_pl_log(ctx, 0, "%s", line);
				return -1;
			}
	}
	if (a->query && !*a->query) /* --query '': only --running */
		return 0;
	if (a->node)
		snprintf(host, sizeof(host), "%s", a->node);
	else if (gethostname(host, sizeof(host)))
		return -1;
	host[strcspn(host, ".")] = 0;
	for (char *c = host; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", *c))
			return -1;
	if (!ctx->running_jobs) {
		fs_pl_log(ctx, 0, "no way to ask Slurm which jobs run here: touching nothing");
		return -1;
	}
	st = ctx->running_jobs(a->query, host, &out);
	for (char *l = out ? strtok_r(out, "\n", &save) : NULL; l && *n < max;
	     l = strtok_r(NULL, "\n", &save)) {
		if (fs_pl_parse_jobid("running job", l, &ids[*n], NULL, 0) == 0)
			(*n)++;
		else
			fs_pl_log(ctx, 0, "query %s: %s", q, l);
	}
	free(out);
	if (st != 0) {
		fs_pl_log(ctx, 0, "query %s failed (%s): touching nothing", q,
			  fs_run_status(st, how, sizeof(how)));
		return -1;
	}
	return 0;
}

int fs_pl_main_sweep(int argc, char **argv, struct fs_pl_ctx *seam)
{
	static uint32_t running[65536], ledgers[4096];
	struct fs_pl_ctx ctx;
	struct args a;
	char msg[FS_MSG_SIZE];
	size_t nrun = 0;
	long n;
	int rc = _setup(argc, argv, "fabsched-sweep", &ctx, seam, &a), released = 0;

	if (rc)
		return rc == 3 ? 0 : rc;
	/* the ledgers first, under the lock, then Slurm: a job whose ledger
	   is listed was allocated before the question, so a running one is
	   in the answer; a prolog starting meanwhile waits for the lock */
	if (fs_pl_lock(&ctx, msg, sizeof(msg))) {
		rc = _fail(ctx.prog, 0, msg);
		goto out;
	}
	n = fs_pl_ledger_list(&ctx, ledgers, 4096, msg, sizeof(msg));
	if (n < 0)
		rc = _fail(ctx.prog, 0, msg);
	if (n > 0 && _running(&ctx, &a, running, 65536, &nrun)) {
		rc = _fail(ctx.prog, 0, "cannot tell which jobs are running: nothing released");
		fs_pl_unlock(&ctx);
		goto out;
	}
	for (long i = 0; i < n; i++) {
		if (_in_list(running, nrun, ledgers[i])) {
			fs_pl_log(&ctx, ledgers[i], "running: left alone");
			continue;
		}
		fs_pl_log(&ctx, ledgers[i], "not running: giving back its resources");
		if (fs_pl_release(&ctx, ledgers[i], (uid_t)-1, msg, sizeof(msg)))
			rc = _fail(ctx.prog, ledgers[i], msg);
		else
			released++;
	}
	fs_pl_unlock(&ctx);
	if (n >= 0)
		fs_pl_log(&ctx, 0, "%ld ledger(s), %d released", n, released);
	/* job records past JobRecordKeep (never one of this node's running
	   jobs); a record left is no resource: logged, not a failure */
	if (fs_pl_record_sweep(&ctx, ctx.record_keep, time(NULL), running, nrun, msg, sizeof(msg)) <
	    0)
		fs_pl_log(&ctx, 0, "job records: %s", msg);
out:
	fs_conf_destroy(a.cf);
	return rc;
}
