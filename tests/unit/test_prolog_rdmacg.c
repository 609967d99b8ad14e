/*
 * test_prolog_rdmacg.c - rdma cgroup limits (RdmaMaxHcaHandles,
 * RdmaMaxHcaObjects): the rdma.max lines, the two fabsched.conf keys with
 * their line numbers, and the prolog's writes on a fake cgroup v2 tree in
 * a temporary directory (--cgroup-parent), with and without "rdma" in
 * cgroup.controllers.  The fake tree must be root's (the prolog refuses
 * anything else), so those tests are skipped when not run as root.
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

#include "fabsched_conf.h"
#include "fabsched_prolog.h"

static char _msg[FS_MSG_SIZE];
static char _fix[1024], _sysfs[1100];
static char _tmp[256], _parent[320], _job[360], _sub[400], _max[400];
static char *_logbuf;
static size_t _loglen;

/* ------------------------------------------------------------ files */

static void _rm_tree(const char *dir)
{
	char cmd[600];

	if (dir[0] == '/' && strstr(dir, "/fabsched-rdmacg.")) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
}

/*
 * A fresh fake tree: <tmp>/cg (the parent, its cgroup.controllers listing
 * parent_ctl, an empty cgroup.subtree_control) and <tmp>/cg/job_77 (its
 * cgroup.controllers listing job_ctl; rdma.max, empty, when with_max).
 */
static void _tree(const char *parent_ctl, const char *job_ctl, int with_max)
{
	char p[480];

	if (_tmp[0])
		_rm_tree(_tmp);
	snprintf(_tmp, sizeof(_tmp), "%s/fabsched-rdmacg.XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(_tmp));
	snprintf(_parent, sizeof(_parent), "%s/cg", _tmp);
	snprintf(_job, sizeof(_job), "%s/job_77", _parent);
	snprintf(_sub, sizeof(_sub), "%s/cgroup.subtree_control", _parent);
	snprintf(_max, sizeof(_max), "%s/rdma.max", _job);
	assert_int_equal(mkdir(_parent, 0755), 0);
	assert_int_equal(mkdir(_job, 0755), 0);
	snprintf(p, sizeof(p), "%s/cgroup.controllers", _parent);
	tf_put(p, parent_ctl);
	tf_put(_sub, "");
	snprintf(p, sizeof(p), "%s/cgroup.controllers", _job);
	tf_put(p, job_ctl);
	if (with_max)
		tf_put(_max, "");
}

static void _ctx(struct fs_pl_ctx *ctx, uint32_t handles, uint32_t objects, FILE *log)
{
	fs_pl_ctx_init(ctx, "test");
	ctx->cgroup_parent = _parent;
	ctx->rdma_max_handles = handles;
	ctx->rdma_max_objects = objects;
	ctx->verbose = true;
	ctx->log = log;
}

/* fs_pl_rdma_limit of job 77 with its log captured in _logbuf */
static int _limit(uint32_t handles, uint32_t objects, int verbose, const char *list)
{
	struct fs_pl_ctx ctx;
	FILE *log;
	int rc;

	free(_logbuf);
	_logbuf = NULL;
	log = open_memstream(&_logbuf, &_loglen);
	assert_non_null(log);
	_ctx(&ctx, handles, objects, log);
	ctx.verbose = verbose;
	_msg[0] = 0;
	rc = fs_pl_rdma_limit(&ctx, 77, 1000, list, _msg, sizeof(_msg));
	fclose(log);
	return rc;
}

static int _root_only(void)
{
	if (geteuid() == 0)
		return 1;
	fprintf(stderr, "SKIP: the fake cgroup tree must be root's (the "
			"prolog refuses others): run as root\n");
	return 0;
}

static unsigned _lines(const char *s)
{
	unsigned n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* ------------------------------------------------------------ tests */

static void test_line(void **state)
{
	char b[128];
	char longname[80];

	(void)state;
	assert_int_equal(fs_pl_rdma_max_line("mlx5_0", 4, 1000, b, sizeof(b), _msg, sizeof(_msg)),
			 0);
	assert_string_equal(b, "mlx5_0 hca_handle=4 hca_object=1000");
	assert_int_equal(fs_pl_rdma_max_line("mlx5_1", 0, 1000, b, sizeof(b), _msg, sizeof(_msg)),
			 0);
	assert_string_equal(b, "mlx5_1 hca_handle=max hca_object=1000");
	assert_int_equal(
		fs_pl_rdma_max_line("rxe.0-a", 2147483646, 0, b, sizeof(b), _msg, sizeof(_msg)), 0);
	assert_string_equal(b, "rxe.0-a hca_handle=2147483646 hca_object=max");
	/* names the kernel's parser would split or misread */
	const char *bad[] = { "",    "mlx5 0",	 "mlx5_0\n",	 "../x",
			      "a/b", "mlx5_0:1", "hca_handle=1", NULL };
	for (int i = 0; bad[i]; i++)
		assert_int_equal(
			fs_pl_rdma_max_line(bad[i], 1, 1, b, sizeof(b), _msg, sizeof(_msg)), -1);
	assert_int_equal(fs_pl_rdma_max_line("mlx5 0", 1, 1, b, sizeof(b), _msg, sizeof(_msg)), -1);
	assert_string_equal(_msg, "HCA \"mlx5 0\": not a device name; expected "
				  "1 to 63 bytes of [A-Za-z0-9_.-]");
	memset(longname, 'm', 64);
	longname[64] = 0;
	assert_int_equal(fs_pl_rdma_max_line(longname, 1, 1, b, sizeof(b), _msg, sizeof(_msg)), -1);
	longname[63] = 0;
	assert_int_equal(fs_pl_rdma_max_line(longname, 1, 1, b, sizeof(b), _msg, sizeof(_msg)), 0);
	assert_int_equal(
		fs_pl_rdma_max_line("mlx5_0", 2147483647U, 1, b, sizeof(b), _msg, sizeof(_msg)),
		-1);
	assert_string_equal(_msg, "rdma limit 2147483647: out of range; "
				  "expected 1 to 2147483646, or unset");
}

/* fabsched.conf: the keys validated on load, with their line */
static void test_conf_keys(void **state)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "RdmaMaxHcaHandles=0\n",
		  "t.conf:1: RdmaMaxHcaHandles=0: out of range; expected an "
		  "integer from 1 to 2147483646" },
		{ "LogLevel=info\n\nRdmaMaxHcaObjects=lots\n",
		  "t.conf:3: RdmaMaxHcaObjects=lots: not an integer; expected "
		  "an integer from 1 to 2147483646" },
		{ "RdmaMaxHcaObjects=2147483647\n",
		  "t.conf:1: RdmaMaxHcaObjects=2147483647: out of range; "
		  "expected an integer from 1 to 2147483646" },
		{ "RdmaMaxHcaHandles=-4\n",
		  "t.conf:1: RdmaMaxHcaHandles=-4: not an integer; expected an "
		  "integer from 1 to 2147483646" },
		{ "RdmaMaxHcaHandles=\n", "t.conf:1: RdmaMaxHcaHandles=: empty value; expected an "
					  "integer from 1 to 2147483646" },
		{ "PartitionName=p RdmaMaxHcaHandles=4\n",
		  "t.conf:1: RdmaMaxHcaHandles is a global key, not a partition "
		  "one; expected it on a line without PartitionName=" },
	};
	struct fs_conf *c;
	struct fs_errors *e = fs_errors_new();
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fs_errors_clear(e);
		assert_int_equal(fs_conf_parse("t.conf", bad[i].text, strlen(bad[i].text), &c, e),
				 -1);
		assert_int_equal(fs_errors_count(e), 1);
		assert_string_equal(fs_errors_get(e, 0), bad[i].want);
	}
	{
		const char *good = "RdmaMaxHcaHandles=4\n"
				   "rdmamaxhcaobjects=2147483646\n";

		assert_int_equal(fs_conf_parse("t.conf", good, strlen(good), &c, e), 0);
	}
	assert_int_equal(fs_conf_get_uint(c, "RdmaMaxHcaHandles", &v), 0);
	assert_true(v == 4);
	assert_int_equal(fs_conf_get_uint(c, "RdmaMaxHcaObjects", &v), 0);
	assert_true(v == FS_PL_RDMA_MAX_LIMIT);
	fs_conf_destroy(c);
	assert_int_equal(fs_conf_parse("t.conf", "", 0, &c, e), 0);
	/* unset: no limit written */
	assert_int_equal(fs_conf_get_uint(c, "RdmaMaxHcaHandles", &v), -1);
	assert_int_equal(fs_conf_get_uint(c, "RdmaMaxHcaObjects", &v), -1);
	fs_conf_destroy(c);
	fs_errors_free(e);
}

/* the job cgroup offers rdma: one line per HCA, each once */
static void test_controller_present(void **state)
{
	(void)state;
	if (!_root_only()) {
		skip();
		return;
	}
	_tree("cpuset cpu io memory hugetlb pids rdma\n",
	      "cpuset cpu io memory hugetlb pids rdma\n", 1);
	assert_int_equal(_limit(4, 1000, 1, "mlx5_0,mlx5_1:1,mlx5_0:2"), 1);
	assert_string_equal(tf_get(_max), "mlx5_0 hca_handle=4 hca_object=1000\n"
					  "mlx5_1 hca_handle=4 hca_object=1000\n");
	assert_string_equal(tf_get(_sub), ""); /* nothing to enable */
	assert_non_null(strstr(_logbuf, "rdma limits set on 2 HCA(s) "
					"(hca_handle=4 hca_object=1000)"));
	/* one limit unset: "max" for it */
	_tree("rdma\n", "rdma\n", 1);
	assert_int_equal(_limit(0, 500, 0, "mlx5_2"), 1);
	assert_string_equal(tf_get(_max), "mlx5_2 hca_handle=max hca_object=500\n");
	_tree("rdma\n", "rdma\n", 1);
	assert_int_equal(_limit(8, 0, 0, "mlx5_2:1"), 1);
	assert_string_equal(tf_get(_max), "mlx5_2 hca_handle=8 hca_object=max\n");
}

/* the parent offers rdma but does not hand it down yet: enable, write */
static void test_controller_enable(void **state)
{
	(void)state;
	if (!_root_only()) {
		skip();
		return;
	}
	_tree("cpuset cpu io memory hugetlb pids rdma\n", "memory pids\n", 1);
	assert_int_equal(_limit(4, 0, 1, "mlx5_0"), 1);
	assert_string_equal(tf_get(_sub), "+rdma");
	assert_string_equal(tf_get(_max), "mlx5_0 hca_handle=4 hca_object=max\n");
	assert_non_null(strstr(_logbuf, "cgroup.subtree_control: rdma "
					"controller enabled"));
	/* enabled, but the job's cgroup shows no rdma.max: an error */
	_tree("rdma\n", "", 0);
	assert_int_equal(_limit(4, 0, 1, "mlx5_0"), -1);
	assert_non_null(strstr(_msg, "/job_77/rdma.max: No such file or directory; "
				     "expected an RDMA device the kernel knows"));
	/* the parent refuses (here: no subtree_control file): skipped */
	_tree("rdma\n", "", 1);
	assert_int_equal(unlink(_sub), 0);
	assert_int_equal(_limit(4, 0, 0, "mlx5_0"), 0);
	assert_string_equal(tf_get(_max), "");
	assert_non_null(strstr(_logbuf, "cannot enable the rdma controller for "
					"the job's cgroup"));
	assert_non_null(strstr(_logbuf, "rdma limits skipped"));
}

/* no rdma controller (this machine's kernel): nothing written, one note */
static void test_controller_missing(void **state)
{
	(void)state;
	if (!_root_only()) {
		skip();
		return;
	}
	_tree("cpuset cpu io memory hugetlb pids\n", "memory pids\n", 1);
	assert_int_equal(_limit(4, 1000, 1, "mlx5_0,mlx5_1"), 0);
	assert_string_equal(tf_get(_max), "");
	assert_string_equal(tf_get(_sub), "");
	assert_int_equal(_lines(_logbuf), 1);
	assert_non_null(strstr(_logbuf, "job 77: no rdma cgroup controller ("));
	assert_non_null(strstr(_logbuf, "/cg/cgroup.controllers does not list "
					"rdma): rdma limits skipped\n"));
	/* "rdmax" is not "rdma" */
	_tree("rdmax\n", "rdmax\n", 1);
	assert_int_equal(_limit(4, 1000, 1, "mlx5_0"), 0);
	assert_string_equal(tf_get(_max), "");
	/* the note is for LogLevel=verbose only */
	_tree("memory\n", "memory\n", 1);
	assert_int_equal(_limit(4, 1000, 0, "mlx5_0"), 0);
	assert_string_equal(_logbuf, "");
	/* no job cgroup at all (cgroup made after the prolog) */
	_tree("rdma\n", "rdma\n", 1);
	{
		struct fs_pl_ctx ctx;

		_ctx(&ctx, 4, 4, NULL);
		assert_int_equal(fs_pl_rdma_limit(&ctx, 78, 1000, "mlx5_0", _msg, sizeof(_msg)), 0);
	}
	assert_string_equal(tf_get(_max), "");
}

/* nothing asked: the cgroup is not even looked at */
static void test_nothing_to_do(void **state)
{
	(void)state;
	if (!_root_only()) {
		skip();
		return;
	}
	_tree("rdma\n", "rdma\n", 1);
	assert_int_equal(_limit(0, 0, 1, "mlx5_0"), 0); /* both unset */
	assert_int_equal(_limit(4, 4, 1, ""), 0);	/* no HCA */
	assert_string_equal(tf_get(_max), "");
	assert_string_equal(_logbuf, "");
	/* a bad list fails before any cgroup is touched */
	const char *bad[] = { "mlx5_0:x",	"mlx5_0:",    ",mlx5_0", "mlx5_0,",
			      "mlx5_0,,mlx5_1", "mlx5_0:1:2", ":1",	 NULL };
	for (int i = 0; bad[i]; i++) {
		assert_int_equal(_limit(4, 4, 1, bad[i]), -1);
		assert_non_null(strstr(_msg, "FABSCHED_RDMA_DEVICES=\""));
		assert_non_null(strstr(_msg, "expected comma-separated HCA "
					     "names"));
	}
	assert_string_equal(tf_get(_max), "");
}

/* links and foreign owners in the cgroup path are refused */
static void test_hostile_tree(void **state)
{
	char link[420];

	(void)state;
	if (!_root_only()) {
		skip();
		return;
	}
	/* job_78 a symbolic link to job_77 */
	_tree("rdma\n", "rdma\n", 1);
	snprintf(link, sizeof(link), "%s/job_78", _parent);
	assert_int_equal(symlink("job_77", link), 0);
	{
		struct fs_pl_ctx ctx;

		_ctx(&ctx, 4, 4, NULL);
		/* the lookup sees no directory job_78: nothing written */
		assert_int_equal(fs_pl_rdma_limit(&ctx, 78, 1000, "mlx5_0", _msg, sizeof(_msg)), 0);
	}
	assert_string_equal(tf_get(_max), "");
	/* rdma.max a symbolic link */
	_tree("rdma\n", "rdma\n", 0);
	snprintf(link, sizeof(link), "%s/victim", _tmp);
	tf_put(link, "");
	assert_int_equal(symlink(link, _max), 0);
	assert_int_equal(_limit(4, 4, 1, "mlx5_0"), -1);
	assert_non_null(strstr(_msg, "rdma.max: Too many levels of symbolic "
				     "links"));
	assert_string_equal(tf_get(link), "");
	/* the job's cgroup owned by a user */
	_tree("rdma\n", "rdma\n", 1);
	assert_int_equal(chown(_job, 1000, 1000), 0);
	assert_int_equal(_limit(4, 4, 1, "mlx5_0"), -1);
	assert_non_null(strstr(_msg, "/job_77: owned by uid 1000, not root: "
				     "refusing to use it"));
	assert_string_equal(tf_get(_max), "");
	/* a parent writable by others */
	_tree("rdma\n", "rdma\n", 1);
	assert_int_equal(chmod(_parent, 0777), 0);
	assert_int_equal(_limit(4, 4, 1, "mlx5_0"), -1);
	assert_non_null(strstr(_msg, "writable by group or others"));
	assert_string_equal(tf_get(_max), "");
}

/*
 * The whole prolog program (fabsched.conf read, ports checked on the
 * sysfs fixture, limits written), without hugepages: stdout and stderr
 * of fs_pl_main_prolog go to files.
 */
static void test_prolog_program(void **state)
{
	char conf[420], sd[420], mb[420], sb[420], out[420];
	char a_conf[440], a_sd[440], a_mb[440], a_sb[440], a_cg[440], a_sys[1120];
	char *argv[] = { "fabsched-prolog", a_conf, a_sd, a_mb, a_sb, a_cg, a_sys, NULL };
	int saved, fd, rc;

	(void)state;
	if (!_root_only()) {
		skip();
		return;
	}
	_tree("rdma\n", "rdma\n", 1);
	snprintf(conf, sizeof(conf), "%s/fabsched.conf", _tmp);
	snprintf(sd, sizeof(sd), "%s/state", _tmp);
	snprintf(mb, sizeof(mb), "%s/hp", _tmp);
	snprintf(sb, sizeof(sb), "%s/scratch", _tmp);
	snprintf(out, sizeof(out), "%s/stderr", _tmp);
	snprintf(a_conf, sizeof(a_conf), "--conf=%s", conf);
	snprintf(a_sd, sizeof(a_sd), "--state-dir=%s", sd);
	snprintf(a_mb, sizeof(a_mb), "--mount-base=%s", mb);
	snprintf(a_sb, sizeof(a_sb), "--scratch-base=%s", sb);
	snprintf(a_cg, sizeof(a_cg), "--cgroup-parent=%s", _parent);
	snprintf(a_sys, sizeof(a_sys), "--sysfs-root=%s", _sysfs);
	tf_put(conf, "LogLevel=verbose\nRdmaMaxHcaHandles=16\n"
		     "RdmaMaxHcaObjects=65536\n");
	setenv("SLURM_JOB_ID", "77", 1);
	setenv("SLURM_JOB_UID", "1000", 1);
	setenv("FABSCHED_RDMA_DEVICES", "mlx5_0,mlx5_1", 1);
	setenv("FABSCHED_NO_DRAIN", "1", 1);
	unsetenv("FABSCHED_HUGEPAGES");
	unsetenv("SLURM_SCRIPT_CONTEXT");
	fflush(stderr);
	saved = dup(2);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 2);
	close(fd);
	rc = fs_pl_main_prolog(7, argv, NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_int_equal(rc, 0);
	assert_string_equal(tf_get(_max), "mlx5_0 hca_handle=16 hca_object=65536\n"
					  "mlx5_1 hca_handle=16 hca_object=65536\n");
	assert_non_null(strstr(tf_get(out), "fabsched-prolog: job 77: "));
	assert_non_null(strstr(tf_get(out), "/job_77: rdma limits set on 2 "
					    "HCA(s) (hca_handle=16 hca_object=65536)"));

	/* the same without the controller: the prolog still succeeds, with
	   one note at LogLevel=verbose */
	_tree("memory\n", "memory\n", 1);
	snprintf(conf, sizeof(conf), "%s/fabsched.conf", _tmp);
	snprintf(sd, sizeof(sd), "%s/state", _tmp);
	snprintf(mb, sizeof(mb), "%s/hp", _tmp);
	snprintf(sb, sizeof(sb), "%s/scratch", _tmp);
	snprintf(out, sizeof(out), "%s/stderr", _tmp);
	snprintf(a_conf, sizeof(a_conf), "--conf=%s", conf);
	snprintf(a_sd, sizeof(a_sd), "--state-dir=%s", sd);
	snprintf(a_mb, sizeof(a_mb), "--mount-base=%s", mb);
	snprintf(a_sb, sizeof(a_sb), "--scratch-base=%s", sb);
	snprintf(a_cg, sizeof(a_cg), "--cgroup-parent=%s", _parent);
	tf_put(conf, "LogLevel=verbose\nRdmaMaxHcaHandles=16\n");
	fflush(stderr);
	saved = dup(2);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	close(fd);
	rc = fs_pl_main_prolog(7, argv, NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_int_equal(rc, 0);
	assert_string_equal(tf_get(_max), "");
	assert_non_null(strstr(tf_get(out), "no rdma cgroup controller"));
	assert_int_equal(_lines(tf_get(out)), 1);
}

int main(void)
{
	const char *fix = getenv("FABSCHED_FIXTURES");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_conf_keys),
		cmocka_unit_test(test_controller_present),
		cmocka_unit_test(test_controller_enable),
		cmocka_unit_test(test_controller_missing),
		cmocka_unit_test(test_nothing_to_do),
		cmocka_unit_test(test_hostile_tree),
		cmocka_unit_test(test_prolog_program),
	};
	int rc;

	snprintf(_fix, sizeof(_fix), "%s", fix ? fix : "tests/fixtures");
	snprintf(_sysfs, sizeof(_sysfs), "%s/sysfs/pkeys", _fix);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (_tmp[0])
		_rm_tree(_tmp);
	free(_logbuf);
	return rc;
}
