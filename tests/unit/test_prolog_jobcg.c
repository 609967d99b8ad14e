/*
 * test_prolog_jobcg.c - the job's cgroup limits set from a task
 * (fs_pl_task_limits, what the SPANK plugin calls in slurmstepd): the job
 * cgroup found from a fake /proc/<pid>/cgroup (cgroup v2 and the v1
 * hugetlb line) under a fake cgroup mount (ctx->proc_root,
 * ctx->cgroup_root), the hugetlb limits from the job's ledger, rdma.max
 * for the step's HCAs, writing each value only once, and hostile trees
 * (symbolic link, a directory owned by a user, a writable parent, a
 * missing controller, a ledger of another user).  The fake trees must be
 * root's (the library refuses anything else): those tests are skipped when
 * not run as root.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_files.h"

#include "fabsched_prolog.h"

#define JOB 77
#define UID 1000
#define PID 4242

static char _msg[FS_MSG_SIZE];
static char _tmp[256], _proc[300], _cgr[300], _state[300], _v2job[400];
static char _v1job[400];
static char *_logbuf;
static size_t _loglen;

/* ------------------------------------------------------------ files */

static void _mkdirs(const char *path)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "mkdir -p -m 0755 '%s'", path);
	assert_int_equal(system(cmd), 0);
}

static void _rm_tree(void)
{
	char cmd[600];

	if (_tmp[0] == '/' && strstr(_tmp, "/fabsched-jobcg.")) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", _tmp);
		assert_int_equal(system(cmd), 0);
	}
	_tmp[0] = 0;
}

/* <tmp>/proc/<PID>/cgroup holding text */
static void _proc_cgroup(const char *text)
{
	char p[420];

	snprintf(p, sizeof(p), "%s/%d", _proc, PID);
	_mkdirs(p);
	snprintf(p, sizeof(p), "%s/%d/cgroup", _proc, PID);
	tf_put(p, text);
}

/*
 * A fresh tree in a temporary directory: proc/, state/ (StateDir, made by
 * the ledger code), cg/ standing for /sys/fs/cgroup with the v2 job cgroup
 * cg/system.slice/n1_slurmstepd.scope/job_77 (empty hugetlb.2MB.max and
 * .rsvd.max; rdma.max; cgroup.controllers "hugetlb rdma") and the v1 one
 * cg/hugetlb/slurm/uid_1000/job_77 (hugetlb.2MB.limit_in_bytes).
 */
static void _tree(void)
{
	char p[480];

	_rm_tree();
	snprintf(_tmp, sizeof(_tmp), "%s/fabsched-jobcg.XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(_tmp));
	snprintf(_proc, sizeof(_proc), "%s/proc", _tmp);
	snprintf(_cgr, sizeof(_cgr), "%s/cg", _tmp);
	snprintf(_state, sizeof(_state), "%s/state", _tmp);
	snprintf(_v2job, sizeof(_v2job), "%s/system.slice/n1_slurmstepd.scope/job_%d", _cgr, JOB);
	snprintf(_v1job, sizeof(_v1job), "%s/hugetlb/slurm/uid_%d/job_%d", _cgr, UID, JOB);
	_mkdirs(_v2job);
	snprintf(p, sizeof(p), "%s/step_0", _v2job);
	_mkdirs(p);
	_mkdirs(_v1job);
	snprintf(p, sizeof(p), "%s/hugetlb.2MB.max", _v2job);
	tf_put(p, "");
	snprintf(p, sizeof(p), "%s/hugetlb.2MB.rsvd.max", _v2job);
	tf_put(p, "");
	snprintf(p, sizeof(p), "%s/rdma.max", _v2job);
	tf_put(p, "");
	snprintf(p, sizeof(p), "%s/cgroup.controllers", _v2job);
	tf_put(p, "hugetlb rdma\n");
	snprintf(p, sizeof(p), "%s/hugetlb.2MB.limit_in_bytes", _v1job);
	tf_put(p, "");
}

static void _ctx(struct fs_pl_ctx *ctx, FILE *log)
{
	fs_pl_ctx_init(ctx, "test");
	ctx->state_dir = _state;
	ctx->proc_root = _proc;
	ctx->cgroup_root = _cgr;
	ctx->rdma_max_handles = 16;
	ctx->rdma_max_objects = 0;
	ctx->verbose = true;
	ctx->log = log;
}

/* a ledger of job 77 holding 4 mounted 2 MiB pages (8 MiB) for uid */
static void _ledger(uid_t uid)
{
	struct fs_pl_ctx ctx;
	static struct fs_pl_ledger l;

	_ctx(&ctx, NULL);
	memset(&l, 0, sizeof(l));
	l.jobid = JOB;
	l.uid = uid;
	l.gid = uid;
	snprintf(l.step, sizeof(l.step), "done");
	l.npools = 1;
	l.pools[0].node = 0;
	l.pools[0].page_kb = 2048;
	l.pools[0].want = 4;
	l.pools[0].added = 4;
	l.pools[0].state = FS_PL_POOL_HELD;
	l.nmounts = 1;
	l.mounts[0].page_kb = 2048;
	l.mounts[0].bytes = 8388608;
	l.mounts[0].state = FS_PL_MOUNT_MOUNTED;
	snprintf(l.mounts[0].path, sizeof(l.mounts[0].path), "/dev/hp/77-2m");
	l.scratch.state = -1;
	assert_int_equal(fs_pl_ledger_save(&ctx, &l, _msg, sizeof(_msg)), 0);
}

/* fs_pl_task_limits of job 77, task PID, its log in _logbuf */
static int _limits(const char *rdma)
{
	struct fs_pl_ctx ctx;
	FILE *log;
	int rc;

	free(_logbuf);
	_logbuf = NULL;
	log = open_memstream(&_logbuf, &_loglen);
	assert_non_null(log);
	_ctx(&ctx, log);
	rc = fs_pl_task_limits(&ctx, JOB, UID, PID, rdma, _msg, sizeof(_msg));
	fclose(log);
	return rc;
}

static int _root_only(void)
{
	if (geteuid() == 0)
		return 1;
	fprintf(stderr, "SKIP: the fake cgroup tree must be root's (the "
			"library refuses others): run as root\n");
	return 0;
}

static int _teardown(void **state)
{
	(void)state;
	_rm_tree();
	free(_logbuf);
	_logbuf = NULL;
	return 0;
}

static const char *_f(const char *dir, const char *name)
{
	static char p[4][1024];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	return p[i];
}

/* ------------------------------------------------------------ lookup */

static int _find(char *path, size_t pathsz, int *version)
{
	struct fs_pl_ctx ctx;

	_ctx(&ctx, NULL);
	_msg[0] = 0;
	return fs_pl_cgroup_of_pid(&ctx, PID, JOB, path, pathsz, version, _msg, sizeof(_msg));
}

static void test_find(void **state)
{
	char path[FS_PL_PATH], want[FS_PL_PATH];
	int v;

	(void)state;
	_tree();
	/* cgroup v2: the job_<id> directory of the task's path */
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0/"
		     "user/task_0\n");
	assert_int_equal(_find(path, sizeof(path), &v), 1);
	assert_int_equal(v, 2);
	assert_string_equal(path, _v2job);
	/* hybrid v1: the unified line has no job, the hugetlb one has */
	_proc_cgroup("9:name=systemd:/\n8:pids:/\n"
		     "7:hugetlb:/slurm/uid_1000/job_77/step_batch\n"
		     "4:memory:/slurm/uid_1000/job_77/step_batch/task_0\n0::/\n");
	assert_int_equal(_find(path, sizeof(path), &v), 1);
	assert_int_equal(v, 1);
	snprintf(want, sizeof(want), "%s/hugetlb/slurm/uid_1000/job_77", _cgr);
	assert_string_equal(path, want);
	/* v2 is preferred when both name the job */
	_proc_cgroup("7:hugetlb:/slurm/uid_1000/job_77/step_0\n"
		     "0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	assert_int_equal(_find(path, sizeof(path), &v), 1);
	assert_int_equal(v, 2);
	/* the hybrid layout of Slurm's cgroup/v1: no hugetlb job cgroup */
	_proc_cgroup("9:name=systemd:/\n7:hugetlb:/\n"
		     "4:memory:/slurm/uid_1000/job_77/step_0/task_0\n0::/\n");
	assert_int_equal(_find(path, sizeof(path), &v), 0);
	assert_int_equal(v, 0);
	assert_string_equal(path, "");
	assert_non_null(strstr(_msg, "/cgroup: neither the cgroup v2 path nor "
				     "the v1 hugetlb one is under a job_77 directory"));
	/* another job's directory, or a longer name, is not this job's */
	_proc_cgroup("0::/system.slice/slurmstepd.scope/job_770/step_0\n");
	assert_int_equal(_find(path, sizeof(path), &v), 0);
	_proc_cgroup("0::/system.slice/slurmstepd.scope/job_7/step_0\n");
	assert_int_equal(_find(path, sizeof(path), &v), 0);
	/* ".." in the path: refused */
	_proc_cgroup("0::/system.slice/../job_77/step_0\n");
	assert_int_equal(_find(path, sizeof(path), &v), 0);
	/* not the kernel's format */
	_proc_cgroup("garbage\n");
	assert_int_equal(_find(path, sizeof(path), &v), -1);
	assert_non_null(strstr(_msg, "expected <id>:<controllers>:<path>"));
	/* no such process */
	{
		struct fs_pl_ctx ctx;

		_ctx(&ctx, NULL);
		assert_int_equal(fs_pl_cgroup_of_pid(&ctx, PID + 1, JOB, path, sizeof(path), &v,
						     _msg, sizeof(_msg)),
				 -1);
		assert_non_null(strstr(_msg, "/4243/cgroup: No such file"));
		assert_int_equal(fs_pl_cgroup_of_pid(&ctx, 0, JOB, path, sizeof(path), &v, _msg,
						     sizeof(_msg)),
				 -1);
	}
}

/* 26.05's cgroup/v2 names job cgroups by SLUID (no CgroupJobIdPaths). */
static void test_sluid(void **state)
{
	static const char sl[] = "s0ABCDEFGHJK12";
	struct fs_pl_ctx ctx;
	char path[FS_PL_PATH], want[FS_PL_PATH], out[16];
	int v;

	(void)state;
	/* the form Slurm prints, and nothing else */
	assert_int_equal(fs_pl_parse_sluid("SLURM_JOB_SLUID", sl, out, _msg, sizeof(_msg)), 0);
	assert_string_equal(out, sl);
	assert_int_equal(
		fs_pl_parse_sluid("SLURM_JOB_SLUID", "s0ABCDEFGHJKI2", out, _msg, sizeof(_msg)),
		-1);
	assert_non_null(strstr(_msg, "SLURM_JOB_SLUID=\"s0ABCDEFGHJKI2\": expected a job SLUID"));
	assert_int_equal(fs_pl_parse_sluid("X", "s0ABC/../../x", out, _msg, sizeof(_msg)), -1);
	assert_int_equal(fs_pl_parse_sluid("X", "77", out, _msg, sizeof(_msg)), -1);
	assert_int_equal(fs_pl_parse_sluid("X", NULL, out, _msg, sizeof(_msg)), -1);
	assert_string_equal(out, "");

	_tree();
	snprintf(want, sizeof(want), "%s/system.slice/n1_slurmstepd.scope/%s", _cgr, sl);
	_mkdirs(want);
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/s0ABCDEFGHJK12/"
		     "step_0/user/task_0\n");
	/* without the job's SLUID: not this job's (job_77 is looked for) */
	_ctx(&ctx, NULL);
	assert_int_equal(
		fs_pl_cgroup_of_pid(&ctx, PID, JOB, path, sizeof(path), &v, _msg, sizeof(_msg)), 0);
	/* another job's SLUID: neither */
	snprintf(ctx.job_sluid, sizeof(ctx.job_sluid), "s0ABCDEFGHJK13");
	assert_int_equal(
		fs_pl_cgroup_of_pid(&ctx, PID, JOB, path, sizeof(path), &v, _msg, sizeof(_msg)), 0);
	assert_non_null(strstr(_msg, "under a job_77 or s0ABCDEFGHJK13 directory"));
	/* its own */
	snprintf(ctx.job_sluid, sizeof(ctx.job_sluid), "%s", sl);
	assert_int_equal(
		fs_pl_cgroup_of_pid(&ctx, PID, JOB, path, sizeof(path), &v, _msg, sizeof(_msg)), 1);
	assert_int_equal(v, 2);
	assert_string_equal(path, want);
	/* job_<id> still wins where both exist (CgroupJobIdPaths=yes) */
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	assert_int_equal(
		fs_pl_cgroup_of_pid(&ctx, PID, JOB, path, sizeof(path), &v, _msg, sizeof(_msg)), 1);
	assert_string_equal(path, _v2job);
}

/* ------------------------------------------------------------ limits */

static void test_v2(void **state)
{
	(void)state;
	if (!_root_only()) {
		skip();
		return;
	}
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0/"
		     "user/task_0\n");
	_ledger(UID);
	assert_int_equal(_limits("mlx5_0:1,mlx5_1,mlx5_0:2"), 1);
	assert_string_equal(tf_get(_f(_v2job, "hugetlb.2MB.max")), "8388608");
	assert_string_equal(tf_get(_f(_v2job, "hugetlb.2MB.rsvd.max")), "8388608");
	assert_string_equal(tf_get(_f(_v2job, "rdma.max")),
			    "mlx5_0 hca_handle=16 hca_object=max\n"
			    "mlx5_1 hca_handle=16 hca_object=max\n");
	assert_non_null(strstr(_logbuf, "job 77: "));
	assert_non_null(strstr(_logbuf, "/job_77: hugetlb limits set "
					"(cgroup v2)"));
	assert_non_null(strstr(_logbuf, "/job_77: rdma limits set on 2 HCA(s)"));
	/* the next step: hugetlb values already there are not written again
	   (a plain file would show a second write appended) */
	assert_int_equal(_limits(""), 1);
	assert_string_equal(tf_get(_f(_v2job, "hugetlb.2MB.max")), "8388608");
	assert_string_equal(tf_get(_f(_v2job, "hugetlb.2MB.rsvd.max")), "8388608");
	assert_non_null(strstr(_logbuf, "hugetlb limits already set"));
	assert_null(strstr(_logbuf, "hugetlb limits set"));
	/* a kernel without reservation limits: .max only */
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	_ledger(UID);
	assert_int_equal(unlink(_f(_v2job, "hugetlb.2MB.rsvd.max")), 0);
	assert_int_equal(_limits(NULL), 1);
	assert_string_equal(tf_get(_f(_v2job, "hugetlb.2MB.max")), "8388608");
	assert_string_equal(tf_get(_f(_v2job, "rdma.max")), "");
}

static void test_v1(void **state)
{
	(void)state;
	if (!_root_only()) {
		skip();
		return;
	}
	_tree();
	_proc_cgroup("9:name=systemd:/\n"
		     "7:hugetlb:/slurm/uid_1000/job_77/step_batch\n0::/\n");
	_ledger(UID);
	assert_int_equal(_limits("mlx5_0"), 1);
	assert_string_equal(tf_get(_f(_v1job, "hugetlb.2MB.limit_in_bytes")), "8388608");
	assert_non_null(strstr(_logbuf, "hugetlb limits set (cgroup v1)"));
	/* rdma.max is a cgroup v2 file */
	assert_non_null(strstr(_logbuf, "cgroup v1; rdma limits are written "
					"on cgroup v2 only: skipped"));
}

/* nothing to set, or nothing that can be: 0, the task runs */
static void test_nothing(void **state)
{
	char p[480];

	(void)state;
	if (!_root_only()) {
		skip();
		return;
	}
	/* no ledger (a job without hugepages), no HCA */
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	assert_int_equal(_limits(""), 0);
	assert_non_null(strstr(_msg, "no limit to set"));
	assert_string_equal(tf_get(_f(_v2job, "hugetlb.2MB.max")), "");
	/* no StateDir at all: rdma limits only, StateDir not created */
	assert_int_equal(_limits("mlx5_0"), 1);
	assert_string_equal(tf_get(_f(_v2job, "rdma.max")),
			    "mlx5_0 hca_handle=16 hca_object=max\n");
	assert_int_equal(access(_state, F_OK), -1);
	/* no hugetlb controller in the job's cgroup: logged, skipped */
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	_ledger(UID);
	assert_int_equal(unlink(_f(_v2job, "hugetlb.2MB.max")), 0);
	assert_int_equal(unlink(_f(_v2job, "hugetlb.2MB.rsvd.max")), 0);
	assert_int_equal(_limits(""), 0);
	assert_non_null(strstr(_logbuf, "no hugetlb.2MB.max (no hugetlb "
					"controller in the job's cgroup): hugetlb limits "
					"skipped"));
	/* no rdma controller anywhere: skipped */
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	snprintf(p, sizeof(p), "%s/cgroup.controllers", _v2job);
	tf_put(p, "hugetlb\n");
	assert_int_equal(_limits("mlx5_0"), 0);
	assert_non_null(strstr(_logbuf, "no rdma cgroup controller"));
	assert_string_equal(tf_get(_f(_v2job, "rdma.max")), "");
	/* the task is in no job cgroup */
	_proc_cgroup("0::/user.slice\n");
	assert_int_equal(_limits("mlx5_0"), 0);
	assert_non_null(strstr(_msg, "under a job_77 directory"));
}

static void test_hostile(void **state)
{
	char p[1400], other[480];

	(void)state;
	if (!_root_only()) {
		skip();
		return;
	}
	/* the job's directory a symbolic link to another one */
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	_ledger(UID);
	snprintf(other, sizeof(other), "%s/other", _tmp);
	_mkdirs(other);
	tf_put(_f(other, "hugetlb.2MB.max"), "");
	snprintf(p, sizeof(p), "rm -rf '%s' && ln -s '%s' '%s'", _v2job, other, _v2job);
	assert_int_equal(system(p), 0);
	assert_int_equal(_limits("mlx5_0"), -1);
	assert_non_null(strstr(_msg, "/job_77: not a directory (symbolic "
				     "link?): refusing to use it"));
	assert_string_equal(tf_get(_f(other, "hugetlb.2MB.max")), "");
	/* a directory of the path a symbolic link */
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	_ledger(UID);
	snprintf(p, sizeof(p),
		 "cd '%s' && mv system.slice real && "
		 "ln -s real system.slice",
		 _cgr);
	assert_int_equal(system(p), 0);
	assert_int_equal(_limits(""), -1);
	assert_non_null(strstr(_msg, "/system.slice: is a symbolic link: "
				     "refusing to follow it"));
	/* the job's directory owned by a user */
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	_ledger(UID);
	assert_int_equal(chown(_v2job, UID, UID), 0);
	assert_int_equal(_limits("mlx5_0"), -1);
	assert_non_null(strstr(_msg, "/job_77: owned by uid 1000, not root: "
				     "refusing to use it"));
	assert_string_equal(tf_get(_f(_v2job, "hugetlb.2MB.max")), "");
	assert_string_equal(tf_get(_f(_v2job, "rdma.max")), "");
	/* a parent writable by others */
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	_ledger(UID);
	snprintf(p, sizeof(p), "%s/system.slice", _cgr);
	assert_int_equal(chmod(p, 0777), 0);
	assert_int_equal(_limits(""), -1);
	assert_non_null(strstr(_msg, "writable by group or others"));
	assert_string_equal(tf_get(_f(_v2job, "hugetlb.2MB.max")), "");
	/* hugetlb.2MB.max a symbolic link */
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	_ledger(UID);
	tf_put(_f(_tmp, "victim"), "");
	assert_int_equal(unlink(_f(_v2job, "hugetlb.2MB.max")), 0);
	assert_int_equal(symlink(_f(_tmp, "victim"), _f(_v2job, "hugetlb.2MB.max")), 0);
	assert_int_equal(_limits(""), -1);
	assert_non_null(strstr(_msg, "hugetlb.2MB.max: Too many levels of "
				     "symbolic links"));
	assert_string_equal(tf_get(_f(_tmp, "victim")), "");
	/* a ledger of another user: no limit from it */
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	_ledger(UID + 1);
	assert_int_equal(_limits(""), -1);
	assert_non_null(strstr(_msg, "names uid 1001, the job runs as uid "
				     "1000: hugetlb limits not set"));
	assert_string_equal(tf_get(_f(_v2job, "hugetlb.2MB.max")), "");
	/* a bad FABSCHED_RDMA_DEVICES: refused, nothing written */
	_tree();
	_proc_cgroup("0::/system.slice/n1_slurmstepd.scope/job_77/step_0\n");
	assert_int_equal(_limits("mlx5_0/../x"), -1);
	assert_non_null(strstr(_msg, "FABSCHED_RDMA_DEVICES=\""));
	assert_string_equal(tf_get(_f(_v2job, "rdma.max")), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_find, _teardown),
		cmocka_unit_test_teardown(test_sluid, _teardown),
		cmocka_unit_test_teardown(test_v2, _teardown),
		cmocka_unit_test_teardown(test_v1, _teardown),
		cmocka_unit_test_teardown(test_nothing, _teardown),
		cmocka_unit_test_teardown(test_hostile, _teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
