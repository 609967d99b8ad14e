/*
 * test_prolog.c - unit tests of prolog/ that need no root: the values read
 * from the prolog environment, the ledger's text form, and the RDMA port
 * checks on the recorded sysfs trees (tests/fixtures/sysfs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fabsched_prolog.h"
#include "prolog_private.h"

static char _msg[FS_MSG_SIZE];

static int _hp(const char *s, const char *count, struct fs_pl_job *job)
{
	memset(job, 0, sizeof(*job));
	_msg[0] = 0;
	return fs_pl_parse_hugepages(s, count, 24ULL << 20, job, _msg, sizeof(_msg));
}

static void test_hugepages_good(void **state)
{
	struct fs_pl_job job;

	(void)state;
	assert_int_equal(_hp("2m:0=256,2m:1=256", "512", &job), 0);
	assert_int_equal(job.npages, 2);
	assert_int_equal(job.pages[1].node, 1);
	assert_int_equal(job.pages[1].page_kb, 2048);
	assert_int_equal(job.pages[1].pages, 256);
	assert_int_equal(_hp("1g:3=2,2m:any=7", NULL, &job), 0);
	assert_int_equal(job.pages[0].page_kb, 1048576);
	assert_int_equal(job.pages[1].node, FS_PL_NODE_ANY);
	assert_int_equal(_hp("", NULL, &job), 0);
	assert_int_equal(job.npages, 0);
	assert_int_equal(_hp(NULL, "0", &job), 0);
}

/* the pages asked (job_submit) cut the gres units' pages to the request */
static void test_hugepages_asked(void **state)
{
	struct fs_pl_job job;
	char msg[FS_MSG_SIZE];

	(void)state;
	/* 129 units of 64 pages on three NUMA nodes; 8200 asked */
	assert_int_equal(_hp("2m:0=4096,2m:1=4096,1g:1=4,2m:2=64", "8260", &job), 0);
	assert_int_equal(fs_pl_trim_hugepages("2m:8200", &job, msg, sizeof(msg)), 0);
	assert_int_equal(job.npages, 4);
	assert_int_equal(job.pages[0].pages, 4096);
	assert_int_equal(job.pages[1].pages, 4096);
	assert_int_equal(job.pages[2].pages, 4); /* 1g: not named */
	assert_int_equal(job.pages[3].pages, 8);
	/* a cut that empties the last pool drops it */
	assert_int_equal(_hp("2m:0=64,2m:1=64", "128", &job), 0);
	assert_int_equal(fs_pl_trim_hugepages("2m:50", &job, msg, sizeof(msg)), 0);
	assert_int_equal(job.npages, 1);
	assert_int_equal(job.pages[0].node, 0);
	assert_int_equal(job.pages[0].pages, 50);
	/* exactly the units: unchanged; none asked: unchanged */
	assert_int_equal(_hp("2m:0=64", "64", &job), 0);
	assert_int_equal(fs_pl_trim_hugepages("2m:64", &job, msg, sizeof(msg)), 0);
	assert_int_equal(job.pages[0].pages, 64);
	assert_int_equal(fs_pl_trim_hugepages(NULL, &job, msg, sizeof(msg)), 0);
	assert_int_equal(job.pages[0].pages, 64);
	/* more than the job holds, or malformed: refused */
	assert_int_equal(fs_pl_trim_hugepages("2m:65", &job, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "65 pages of 2m asked but FABSCHED_HUGEPAGES "
				    "gives the job 64"));
	assert_int_equal(fs_pl_trim_hugepages("1g:1", &job, msg, sizeof(msg)), -1);
	assert_int_equal(fs_pl_trim_hugepages("2m:6;4", &job, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "SPANK_FABSCHED_HUGEPAGES_ASKED"));
}

static void test_hugepages_bad(void **state)
{
	static const struct {
		const char *s, *count, *want;
	} cases[] = {
		{ "2m:0=-1", NULL, "not a number" },
		{ "2m:0=+5", NULL, "not a number" },
		{ "2m:0= 5", NULL, "not a number" },
		{ "2m:0=0", NULL, "out of range" },
		{ "2m:0=99999999999999999999", NULL, "too many digits" },
		{ "2m:0=4294967296", NULL, "out of range" },
		{ "4m:0=5", NULL, "page size \"4m\" unknown" },
		{ "2M:0=5", NULL, "page size \"2M\" unknown" },
		{ "2m:1024=5", NULL, "out of range" },
		{ "2m:x=5", NULL, "not a number" },
		{ "2m:0=5,2m:0=6", NULL, "given twice" },
		{ "2m:0=5,", NULL, "bad entry" },
		{ "2m0=5", NULL, "bad entry" },
		{ "2m:0=5,2m1=3", NULL, "bad entry \"2m1=3\"" }, /* the entry itself */
		{ "2m:0=5", "6", "does not match" },
		{ "2m:0=5", "5x", "not a number" },
		{ "", "3", "but FABSCHED_HUGEPAGES is empty" },
		{ "1g:0=100", NULL, "more than the machine's memory" },
		{ "2m:0=5\n", NULL, "not a number" },
	};
	struct fs_pl_job job;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = _hp(cases[i].s, cases[i].count, &job);

		if (rc != -1 || !strstr(_msg, cases[i].want))
			fail_msg("\"%s\" count %s: rc %d msg \"%s\", expected \"%s\"", cases[i].s,
				 cases[i].count ? cases[i].count : "-", rc, _msg, cases[i].want);
	}
}

static const char *_env[16][2];

static const char *_get(const char *n)
{
	for (int i = 0; _env[i][0]; i++)
		if (!strcmp(_env[i][0], n))
			return _env[i][1];
	return NULL;
}

static void test_job_env(void **state)
{
	struct fs_pl_job job;

	(void)state;
	memset(_env, 0, sizeof(_env));
	_env[0][0] = "SLURM_JOB_ID";
	_env[0][1] = "42";
	_env[1][0] = "SLURM_JOB_UID";
	_env[1][1] = "1000";
	_env[2][0] = "SLURM_JOB_GID";
	_env[2][1] = "100";
	_env[3][0] = "FABSCHED_HUGEPAGES";
	_env[3][1] = "2m:0=4";
	_env[4][0] = "FABSCHED_RDMA_DEVICES";
	_env[4][1] = "mlx5_0,mlx5_1:1";
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), 0);
	assert_int_equal(job.jobid, 42);
	assert_int_equal(job.uid, 1000);
	assert_int_equal(job.gid, 100);
	assert_string_equal(job.rdma, "mlx5_0,mlx5_1:1");
	_env[0][1] = "0";
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "SLURM_JOB_ID=\"0\": out of range"));
	_env[0][1] = "42;rm";
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), -1);
	_env[0][1] = "42";
	_env[1][1] = "-1";
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "SLURM_JOB_UID"));
	_env[1][1] = "1000";
	_env[4][1] = "mlx5_0;reboot";
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "FABSCHED_RDMA_DEVICES"));
	_env[4][1] = "mlx5_0";
	/* --scratch without job_submit/fabsched: refused, not run without it */
	_env[5][0] = "SPANK__SLURM_SPANK_OPTION_fabsched_scratch";
	_env[5][1] = "200G";
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), -1);
	assert_string_equal(_msg, "the job asked --scratch=200G "
				  "(SPANK__SLURM_SPANK_OPTION_fabsched_scratch) but "
				  "SPANK_FABSCHED_SCRATCH is not set: job_submit/fabsched "
				  "did not accept it (expected JobSubmitPlugins=fabsched in "
				  "slurm.conf); not running it without its volume");
	_env[6][0] = "SPANK_FABSCHED_SCRATCH";
	_env[6][1] = "200G,fs=xfs";
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), 0);
	assert_int_equal(job.scratch_gib, 200);
	_env[5][0] = _env[6][0] = NULL;
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), 0);
	assert_int_equal(job.scratch_gib, 0);
	_env[0][0] = "X";
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "SLURM_JOB_ID is not set"));
}

static void test_ledger_roundtrip(void **state)
{
	struct fs_pl_ledger a, b;
	char buf[8192], buf2[8192];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.jobid = 77;
	a.uid = 1000;
	a.gid = 1000;
	strcpy(a.step, "mount");
	a.npools = 2;
	a.pools[0] = (struct fs_pl_pool_rec){ 0, 2048, 5, 10, 5, 0, 0, FS_PL_POOL_HELD };
	a.pools[1] = (struct fs_pl_pool_rec){ FS_PL_NODE_ANY,	 1048576, 1, 0, 0, 0, 0,
					      FS_PL_POOL_PENDING };
	a.nmounts = 1;
	a.mounts[0] = (struct fs_pl_mount_rec){ 2048, 10485760, FS_PL_MOUNT_MOUNTED,
						"/dev/huge pages/77-2m" };
	a.cg_version = 2;
	strcpy(a.cgroup, "/sys/fs/cgroup/x/job_77");
	assert_true(fs_pl_ledger_format(&a, buf, sizeof(buf)) > 0);
	assert_int_equal(fs_pl_ledger_parse(buf, &b, _msg, sizeof(_msg)), 0);
	assert_true(fs_pl_ledger_format(&b, buf2, sizeof(buf2)) > 0);
	assert_string_equal(buf, buf2);
	assert_string_equal(b.mounts[0].path, "/dev/huge pages/77-2m");
	assert_int_equal(b.pools[1].node, FS_PL_NODE_ANY);
	/* a ledger cut short is refused */
	buf[strlen(buf) - 4] = 0;
	assert_int_equal(fs_pl_ledger_parse(buf, &b, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "truncated"));
	assert_int_equal(fs_pl_ledger_parse("fabsched-ledger 1\njob 1 uid 0 gid 0 step -\n"
					    "pool 0 4096 1 1 1 0 0 held\nend\n",
					    &b, _msg, sizeof(_msg)),
			 -1);
	assert_int_equal(fs_pl_ledger_parse("fabsched-ledger 1\njob 1 uid 0 gid 0 step -\n"
					    "mount 2048 1 mounted relative\nend\n",
					    &b, _msg, sizeof(_msg)),
			 -1);
	/* a cgroup path longer than the record holds is refused, not cut to
	 * a prefix (another cgroup) */
	{
		char big[FS_PL_PATH + 128];
		int n = snprintf(big, sizeof(big),
				 "fabsched-ledger 1\njob 1 uid 0 gid 0 step -\n"
				 "cgroup 2 /sys/fs/cgroup/");

		memset(big + n, 'x', FS_PL_PATH - 15); /* 512 bytes in all */
		strcpy(big + n + FS_PL_PATH - 15, "\nend\n");
		assert_int_equal(fs_pl_ledger_parse(big, &b, _msg, sizeof(_msg)), -1);
		assert_non_null(strstr(_msg, "not understood"));
	}
}

static char _root[1024];

static void test_rdma(void **state)
{
	(void)state;
	assert_int_equal(fs_pl_rdma_check(_root, "mlx5_0,mlx5_1,mlx5_2", _msg, sizeof(_msg)), 0);
	assert_int_equal(fs_pl_rdma_check(_root, "mlx5_0:1", _msg, sizeof(_msg)), 0);
	assert_int_equal(fs_pl_rdma_check(_root, "mlx5_0,mlx5_3", _msg, sizeof(_msg)), -1);
	assert_string_equal(_msg, "RDMA device mlx5_3 port 1: state DOWN "
				  "(physical state Disabled), expected ACTIVE");
	assert_int_equal(fs_pl_rdma_check(_root, "mlx5_9", _msg, sizeof(_msg)), -1);
	assert_string_equal(_msg, "RDMA device mlx5_9: not found on this node");
	assert_int_equal(fs_pl_rdma_check(_root, "mlx5_0:2", _msg, sizeof(_msg)), -1);
	assert_string_equal(_msg, "RDMA device mlx5_0: no port 2");
}

/* node metrics: runs into the histogram, the state text round trip, the
 * Prometheus text, a malformed state refused */
static void test_metrics(void **state)
{
	struct fs_pl_metrics mx, back;
	char *buf = NULL, msg[FS_MSG_SIZE];
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&mx, 0, sizeof(mx));
	fs_pl_metrics_add(&mx, 0, 0.07, false);
	fs_pl_metrics_add(&mx, 0, 3.0, true);
	fs_pl_metrics_add(&mx, 1, 0.01, false);
	mx.ports_inactive = 2;
	assert_int_equal(mx.runs[0], 2);
	assert_int_equal(mx.failed[0], 1);
	assert_int_equal(mx.bucket[0][0], 0); /* le 0.05 */
	assert_int_equal(mx.bucket[0][1], 1); /* le 0.1 */
	assert_int_equal(mx.bucket[0][6], 2); /* le 5 */
	assert_int_equal(mx.bucket[1][0], 1);
	assert_non_null(f = open_memstream(&buf, &len));
	fs_pl_metrics_write_state(&mx, f);
	fclose(f);
	assert_int_equal(fs_pl_metrics_read(&back, buf, msg, sizeof(msg)), 0);
	assert_memory_equal(back.bucket, mx.bucket, sizeof(mx.bucket));
	assert_true(back.runs[0] == 2 && back.failed[0] == 1 && back.ports_inactive == 2);
	free(buf);
	buf = NULL;
	assert_non_null(f = open_memstream(&buf, &len));
	fs_pl_metrics_write_prom(&mx, f);
	fclose(f);
	assert_non_null(strstr(
		buf, "fabsched_helper_run_seconds_bucket{helper=\"prolog\",le=\"0.1\"} 1\n"));
	assert_non_null(strstr(
		buf, "fabsched_helper_run_seconds_bucket{helper=\"prolog\",le=\"+Inf\"} 2\n"));
	assert_non_null(strstr(buf, "fabsched_helper_failures_total{helper=\"prolog\"} 1\n"));
	assert_non_null(strstr(buf, "fabsched_hca_ports_inactive_total 2\n"));
	free(buf);
	assert_int_equal(fs_pl_metrics_read(&back, "runs prolog 1 0 0.5 1 1\n", msg, sizeof(msg)),
			 -1);
	assert_non_null(strstr(msg, "line 1: not a metrics line; expected"));
	assert_int_equal(back.runs[0], 0);
}

/* The task's memlock limit, in a child (the limits are the process's). */
static void test_memlock(void **state)
{
	int st;
	pid_t pid = fork();

	(void)state;
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit r = { .rlim_cur = 1 << 20, .rlim_max = 1 << 22 };
		char msg[FS_MSG_SIZE];
		int rc;

		/* a hard limit this process may not raise unless root with
		 * CAP_SYS_RESOURCE: unlimited (0), or at the hard limit (1) */
		if (setrlimit(RLIMIT_MEMLOCK, &r))
			_exit(10);
		rc = fs_pl_memlock_unlimited(msg, sizeof(msg));
		if (getrlimit(RLIMIT_MEMLOCK, &r))
			_exit(11);
		if (rc == 0 && r.rlim_cur == RLIM_INFINITY)
			_exit(0);
		if (rc == 1 && r.rlim_cur == r.rlim_max && strstr(msg, "CAP_SYS_RESOURCE"))
			_exit(0);
		_exit(12);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static char _two[1024]; /* the twosocket sysfs tree: mlx5_0 on NUMA 0, mlx5_1 on 1 */

static char *_read(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/* The job records (JobRecordDir): the prolog's node record (the NUMA
 * nodes from sysfs too), the tasks' lines, what root refuses, the sweep by age.  Root only (the record
 * base must be root's; the files are handed to the job's owner). */
/* Shared directories (mode 1777) as a base: refused, whatever sits
 * above; what a user planted in a root base is never reused. */
static void test_shared_bases(void **state)
{
	char dir[] = "/tmp/test_bases.XXXXXX", p[512], q[600];
	struct fs_pl_ctx ctx;
	static struct fs_pl_ledger l;
	int fd;

	(void)state;
	if (geteuid())
		skip();
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0755), 0);
	snprintf(p, sizeof(p), "%s/shared", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(chmod(p, 01777), 0);
	fs_pl_ctx_init(&ctx, "test");
	ctx.log = NULL;

	/* the base itself shared: every helper refuses it */
	ctx.state_dir = p;
	assert_int_equal(fs_pl_lock(&ctx, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(
		_msg, "shared: writable by group or others (mode 1777, a shared directory)"));
	assert_int_equal(fs_pl_open_root_dir(p, 0, 0, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "refusing to use it"));
	snprintf(q, sizeof(q), "%s/", p); /* a trailing slash changes nothing */
	assert_int_equal(fs_pl_open_root_dir(q, 0, 0, _msg, sizeof(_msg)), -1);
	/* a directory of its own inside it (root's, 0700): fine */
	snprintf(q, sizeof(q), "%s/own", p);
	ctx.state_dir = q;
	assert_int_equal(fs_pl_lock(&ctx, _msg, sizeof(_msg)), 0);
	fs_pl_unlock(&ctx);
	/* a group-writable directory above is still refused */
	assert_int_equal(chmod(p, 0775), 0);
	assert_int_equal(fs_pl_lock(&ctx, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "mode 0775"));
	assert_int_equal(chmod(p, 01777), 0);

	/* a lock file or jobs directory that is not root's: never reused */
	snprintf(p, sizeof(p), "%s/state", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	ctx.state_dir = p;
	snprintf(q, sizeof(q), "%s/lock", p);
	assert_true((fd = open(q, O_CREAT | O_WRONLY, 0600)) >= 0);
	assert_int_equal(fchown(fd, 4242, 4242), 0);
	close(fd);
	assert_int_equal(fs_pl_lock(&ctx, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "lock: owned by uid 4242"));
	assert_int_equal(chown(q, 0, 0), 0);
	assert_int_equal(chmod(q, 0666), 0);
	assert_int_equal(fs_pl_lock(&ctx, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "mode 0666"));
	assert_int_equal(chmod(q, 0600), 0);
	assert_int_equal(fs_pl_lock(&ctx, _msg, sizeof(_msg)), 0);
	fs_pl_unlock(&ctx);
	snprintf(q, sizeof(q), "%s/jobs", p);
	assert_int_equal(mkdir(q, 0700), 0);
	assert_int_equal(chown(q, 4242, 4242), 0);
	l.jobid = 5;
	assert_int_equal(fs_pl_ledger_save(&ctx, &l, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "jobs: owned by uid 4242"));
	assert_int_equal(chown(q, 0, 0), 0);
	assert_int_equal(fs_pl_ledger_save(&ctx, &l, _msg, sizeof(_msg)), 0);

	snprintf(q, sizeof(q), "rm -rf '%s'", dir);
	assert_int_equal(system(q), 0);
}

static void test_record(void **state)
{
	char dir[] = "/tmp/test_record.XXXXXX", base[256], path[512], *t;
	struct fs_pl_ctx ctx;
	struct fs_pl_job job = { .jobid = 77, .uid = 4242, .gid = 4243 };
	static struct fs_pl_ledger l;
	struct stat st;
	struct timespec old[2] = { { .tv_sec = 1000 }, { .tv_sec = 1000 } };

	(void)state;
	if (geteuid())
		skip();
	assert_non_null(mkdtemp(dir));
	snprintf(base, sizeof(base), "%s/records", dir);
	fs_pl_ctx_init(&ctx, "test");
	ctx.log = NULL;
	ctx.record_dir = base;
	ctx.sysfs_root = _two;
	strcpy(job.rdma, "mlx5_0:1,mlx5_1:1");
	l.npools = 2;
	l.pools[0] = (struct fs_pl_pool_rec){ .node = 0, .page_kb = 2048, .want = 4 };
	l.pools[1] = (struct fs_pl_pool_rec){ .node = 1, .page_kb = 2048, .want = 6 };
	l.nmounts = 1;
	l.mounts[0] = (struct fs_pl_mount_rec){ .page_kb = 2048, .state = FS_PL_MOUNT_MOUNTED };
	strcpy(l.mounts[0].path, "/dev/hugepages-fabsched/77-2m");
	l.has_scratch = true;
	l.scratch = (struct fs_pl_scratch_rec){ .state = FS_PL_SCRATCH_MOUNTED, .gib = 200 };
	strcpy(l.scratch.path, "/scratch/77");

	/* HCAs from the locality: NUMA node from sysfs, CPUs from it */
	assert_int_equal(fs_pl_record_node(&ctx, &job, &l, "n001", "mlx5_0:1=0;mlx5_1:1=1", _msg,
					   sizeof(_msg)),
			 0);
	snprintf(path, sizeof(path), "%s/77/n001", base);
	assert_non_null(t = _read(path));
	assert_string_equal(
		t, "fabsched-record 1\nnode n001 job 77\n"
		   "numa 0 cpus 0\nnuma 1 cpus 1\n"
		   "hca mlx5_0 ports 1 numa 0 cpus 0\nhca mlx5_1 ports 1 numa 1 cpus 1\n"
		   "hugepages 2m numa 0 pages 4\nhugepages 2m numa 1 pages 6\n"
		   "mount 2m /dev/hugepages-fabsched/77-2m\nscratch /scratch/77 200 xfs\n");
	/* the record is root's, readable through the job's directory, which
	   is its owner's alone */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	snprintf(path, sizeof(path), "%s/77", base);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_uid, 4242);
	assert_int_equal(st.st_mode & 0777, 0700);
	/* without the locality: the device list, CPUs unknown; written over */
	assert_int_equal(fs_pl_record_node(&ctx, &job, NULL, "n001", NULL, _msg, sizeof(_msg)), 0);
	assert_string_equal(_read(strcat(path, "/n001")),
			    "fabsched-record 1\nnode n001 job 77\n"
			    "numa 0 cpus 0\nnuma 1 cpus 1\n"
			    "hca mlx5_0 ports 1 numa 0 cpus -\nhca mlx5_1 ports 1 numa 1 cpus -\n");
	/* a node name that is a path, a job directory that is a link */
	assert_int_equal(fs_pl_record_node(&ctx, &job, NULL, "../n1", NULL, _msg, sizeof(_msg)),
			 -1);
	assert_non_null(strstr(_msg, "SLURMD_NODENAME"));
	snprintf(path, sizeof(path), "%s/78", base);
	assert_int_equal(symlink(dir, path), 0);
	job.jobid = 78;
	assert_int_equal(fs_pl_record_node(&ctx, &job, NULL, "n001", NULL, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "78: not a directory"));
	snprintf(path, sizeof(path), "%s/n001", dir);
	assert_int_equal(access(path, F_OK), -1); /* nothing written through it */

	/* the tasks' lines, appended */
	assert_int_equal(
		fs_pl_record_task(base, 77, "n001", "0", 0, 0, "0", "mlx5_0:1", _msg, sizeof(_msg)),
		0);
	assert_int_equal(
		fs_pl_record_task(base, 77, "n001", "batch", 0, 0, "0-1", "", _msg, sizeof(_msg)),
		0);
	assert_int_equal(
		fs_pl_record_task(base, 77, "n001", "0", 1, 1, "1 2", "", _msg, sizeof(_msg)), -1);
	/* no directory for the job (no fabsched-prolog): said, nothing made */
	assert_int_equal(
		fs_pl_record_task(base, 99, "n001", "0", 0, 0, "0", "", _msg, sizeof(_msg)), 1);
	assert_non_null(strstr(_msg, "/99: no such directory"));
	snprintf(path, sizeof(path), "%s/77/n001.tasks", base);
	assert_string_equal(_read(path), "task 0 0 0 cpus 0 hca mlx5_0:1\n"
					 "task batch 0 0 cpus 0-1 hca -\n");

	/* the sweep: a job seen recently, or running here, stays */
	assert_int_equal(fs_pl_record_sweep(&ctx, 86400, time(NULL), NULL, 0, _msg, sizeof(_msg)),
			 0);
	snprintf(path, sizeof(path), "%s/77", base);
	assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
	assert_int_equal(fs_pl_record_sweep(&ctx, 86400, time(NULL), NULL, 0, _msg, sizeof(_msg)),
			 0);
	strcat(path, "/n001.tasks");
	assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
	snprintf(path, sizeof(path), "%s/77/n001", base);
	assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
	snprintf(path, sizeof(path), "%s/77", base);
	assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
	/* a date in the future keeps nothing past its change time, and a
	   directory the owner made in it does not block the removal */
	{
		struct timespec future[2] = { { .tv_sec = time(NULL) + 86400 * 3650 },
					      { .tv_sec = time(NULL) + 86400 * 3650 } };
		char sub[600];

		snprintf(sub, sizeof(sub), "%s/77/sub", base);
		assert_int_equal(mkdir(sub, 0700), 0);
		strcat(sub, "/deeper");
		assert_int_equal(mkdir(sub, 0700), 0);
		assert_int_equal(utimensat(AT_FDCWD, sub, future, 0), 0);
		assert_int_equal(fs_pl_record_sweep(&ctx, 86400, time(NULL) + 2 * 86400, NULL, 0,
						    _msg, sizeof(_msg)),
				 1);
		assert_int_equal(access(path, F_OK), -1);
		job.jobid = 77;
		assert_int_equal(
			fs_pl_record_node(&ctx, &job, &l, "n001", NULL, _msg, sizeof(_msg)), 0);
		strcat(path, "/n001");
		assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
		snprintf(path, sizeof(path), "%s/77", base);
		assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
	}
	{
		uint32_t running[] = { 77 };

		assert_int_equal(
			fs_pl_record_sweep(&ctx, 86400, time(NULL), running, 1, _msg, sizeof(_msg)),
			0);
	}
	{
		long n = fs_pl_record_sweep(&ctx, 86400, time(NULL), NULL, 0, _msg, sizeof(_msg));

		if (n != 1)
			print_error("sweep: %ld: %s\n", n, _msg);
		assert_int_equal(n, 1);
	}
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/78", base);
	assert_int_equal(lstat(path, &st), 0); /* a link is no job's record: left */
	unlink(path);
	rmdir(base);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const char *fix = getenv("FABSCHED_FIXTURES");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hugepages_good),	 cmocka_unit_test(test_hugepages_bad),
		cmocka_unit_test(test_hugepages_asked),	 cmocka_unit_test(test_job_env),
		cmocka_unit_test(test_ledger_roundtrip), cmocka_unit_test(test_rdma),
		cmocka_unit_test(test_metrics),		 cmocka_unit_test(test_memlock),
		cmocka_unit_test(test_shared_bases),	 cmocka_unit_test(test_record),
	};

	snprintf(_root, sizeof(_root), "%s/sysfs/lassen", fix ? fix : "tests/fixtures");
	snprintf(_two, sizeof(_two), "%s/sysfs/twosocket", fix ? fix : "tests/fixtures");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
