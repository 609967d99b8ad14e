/*
 * test_prolog_scratch.c - the prolog's NVMe-oF scratch path against a fake
 * target behind struct fs_pl_nvme_ops: set up and give back, a crash
 * after every step then the epilog, an operation failing, hostile inputs
 * (symlinked base, a per-job directory made by another user, no pool),
 * two jobs sharing the node's controller; the values (SPANK_FABSCHED_SCRATCH,
 * host NQN and ID files, the ledger's scratch line) and the scratch keys
 * of fabsched.conf.  Directories must be root-owned: SKIP unless root.
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
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fabsched_conf.h"
#include "fabsched_prolog.h"

/* ------------------------------------------------------------ fake target */

#define MAXNS 16
static struct {
	int connected; /* controllers live (0 or 1: one per node) */
	int connects, disconnects;
	uint64_t ns_bytes[MAXNS + 1]; /* by nsid; 0: none */
	int discarded[MAXNS + 1];
	int mkfs_fs[MAXNS + 1]; /* -1 none */
	const char *lock_path;	/* the helpers' lock, checked at mkfs */
	int mkfs_lock_free;	/* 1: another helper could take it */
	char mounted[4][512];	/* paths */
	uid_t mount_uid;
	const char *fail_op; /* op that fails */
	char log[4096];
} F;

static void _op(const char *fmt, ...)
{
	va_list ap;
	size_t n = strlen(F.log);

	va_start(ap, fmt);
	vsnprintf(F.log + n, sizeof(F.log) - n, fmt, ap);
	va_end(ap);
	strncat(F.log, ";", sizeof(F.log) - strlen(F.log) - 1);
}

static int _fails(const char *op, char *err, size_t errlen)
{
	if (F.fail_op && !strcmp(F.fail_op, op)) {
		snprintf(err, errlen, "fake target: %s failed", op);
		return 1;
	}
	return 0;
}

static int f_connect(const struct fs_pl_scratch_target *t, char *ctrl, size_t ctrlsz, char *err,
		     size_t errlen)
{
	if (_fails("connect", err, errlen))
		return -1;
	assert_string_equal(t->subsysnqn, "nqn.2014-08.org.example:scratch");
	assert_string_equal(t->hostnqn, "nqn.2014-08.org.example:node1");
	if (!F.connected) {
		F.connected = 1;
		F.connects++;
		_op("connect %s:%s", t->traddr, t->trsvcid);
	}
	snprintf(ctrl, ctrlsz, "nvme7");
	return 0;
}

static int f_disconnect(const char *ctrl, char *err, size_t errlen)
{
	if (_fails("disconnect", err, errlen))
		return -1;
	assert_string_equal(ctrl, "nvme7");
	if (F.connected) {
		F.connected = 0;
		F.disconnects++;
		_op("disconnect");
	}
	return 0;
}

static int f_ns_create(const char *ctrl, uint64_t bytes, uint32_t *nsid, char *err, size_t errlen)
{
	if (_fails("ns_create", err, errlen))
		return -1;
	assert_true(F.connected);
	for (uint32_t i = 1; i <= MAXNS; i++)
		if (!F.ns_bytes[i]) {
			F.ns_bytes[i] = bytes;
			F.discarded[i] = 0;
			F.mkfs_fs[i] = -1;
			*nsid = i;
			_op("create %u %llu", i, (unsigned long long)bytes);
			return 0;
		}
	snprintf(err, errlen, "fake target full");
	return -1;
}

static int f_ns_blockdev(const char *ctrl, uint32_t nsid, char *dev, size_t devsz, char *err,
			 size_t errlen)
{
	if (_fails("ns_blockdev", err, errlen))
		return -1;
	if (nsid > MAXNS || !F.ns_bytes[nsid]) {
		snprintf(err, errlen, "no namespace %u", nsid);
		return -1;
	}
	snprintf(dev, devsz, "/dev/%sn%u", ctrl, nsid);
	return 0;
}

static uint32_t _nsid(const char *dev)
{
	const char *n = strrchr(dev, 'n');

	return n ? (uint32_t)atoi(n + 1) : 0;
}

static int f_ns_delete(const char *ctrl, uint32_t nsid, char *err, size_t errlen)
{
	if (_fails("ns_delete", err, errlen))
		return -1;
	if (nsid <= MAXNS && F.ns_bytes[nsid]) {
		F.ns_bytes[nsid] = 0;
		_op("delete %u", nsid);
	}
	return 0;
}

static int f_discard(const char *dev, char *err, size_t errlen)
{
	if (_fails("discard", err, errlen))
		return -1;
	F.discarded[_nsid(dev)] = 1;
	_op("discard %s", dev);
	return 0;
}

static int f_mkfs(const char *dev, int fs, char *err, size_t errlen)
{
	if (_fails("mkfs", err, errlen))
		return -1;
	F.mkfs_fs[_nsid(dev)] = fs;
	_op("mkfs %s %s", fs ? "ext4" : "xfs", dev);
	if (F.lock_path) { /* as another job's helper would try */
		int fd = open(F.lock_path, O_RDWR | O_CLOEXEC);

		F.mkfs_lock_free = fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB);
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

static int f_mount(const char *dev, int fs, int dirfd, const char *path, uid_t uid, gid_t gid,
		   char *err, size_t errlen)
{
	struct stat st;

	if (_fails("mount", err, errlen))
		return -1;
	/* the directory is the one the prolog made: root, 0700 */
	assert_int_equal(fstat(dirfd, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	for (int i = 0; i < 4; i++)
		if (!F.mounted[i][0]) {
			snprintf(F.mounted[i], sizeof(F.mounted[i]), "%s", path);
			break;
		}
	F.mount_uid = uid;
	_op("mount %s %s", dev, fs ? "ext4" : "xfs");
	return 0;
}

static int f_is_mounted(const char *path)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(F.mounted[i], path))
			return 1;
	return 0;
}

static int f_umount(const char *path, char *err, size_t errlen)
{
	if (_fails("umount", err, errlen))
		return -1;
	for (int i = 0; i < 4; i++)
		if (!strcmp(F.mounted[i], path)) {
			F.mounted[i][0] = 0;
			_op("umount");
		}
	return 0;
}

static const struct fs_pl_nvme_ops _fake = {
	.connect = f_connect,
	.disconnect = f_disconnect,
	.ns_create = f_ns_create,
	.ns_blockdev = f_ns_blockdev,
	.ns_delete = f_ns_delete,
	.discard = f_discard,
	.mkfs = f_mkfs,
	.mount = f_mount,
	.umount = f_umount,
	.is_mounted = f_is_mounted,
};

static bool _target_clean(void)
{
	for (int i = 1; i <= MAXNS; i++)
		if (F.ns_bytes[i])
			return false;
	for (int i = 0; i < 4; i++)
		if (F.mounted[i][0])
			return false;
	return !F.connected;
}

/* ------------------------------------------------------------ context */

static char T[64];
static char _sd[128], _base[128], _msg[FS_MSG_SIZE];
static jmp_buf _crash;
static const char *_crash_at;

static void _cp(const char *step, void *arg)
{
	(void)arg;
	if (_crash_at && !strcmp(step, _crash_at))
		longjmp(_crash, 1);
}

static void _ctx(struct fs_pl_ctx *ctx)
{
	fs_pl_ctx_init(ctx, "test");
	ctx->log = NULL;
	ctx->state_dir = _sd;
	ctx->scratch_base = _base;
	ctx->nvme = &_fake;
	ctx->has_target = true;
	ctx->checkpoint = _cp;
	snprintf(ctx->target.transport, sizeof(ctx->target.transport), "tcp");
	snprintf(ctx->target.traddr, sizeof(ctx->target.traddr), "127.0.0.1");
	snprintf(ctx->target.trsvcid, sizeof(ctx->target.trsvcid), "4420");
	snprintf(ctx->target.subsysnqn, sizeof(ctx->target.subsysnqn),
		 "nqn.2014-08.org.example:scratch");
	snprintf(ctx->target.hostnqn, sizeof(ctx->target.hostnqn), "nqn.2014-08.org.example:node1");
}

static void _job(struct fs_pl_job *job, uint32_t id, uint64_t gib, int fs)
{
	memset(job, 0, sizeof(*job));
	job->jobid = id;
	job->uid = 4242;
	job->gid = 4343;
	job->scratch_gib = gib;
	job->scratch_fs = fs;
}

static int _setup(void **state)
{
	(void)state;
	memset(&F, 0, sizeof(F));
	_crash_at = NULL;
	if (geteuid() != 0)
		return 0;
	snprintf(T, sizeof(T), "/tmp/fs-scratch-XXXXXX");
	if (!mkdtemp(T))
		return -1;
	snprintf(_sd, sizeof(_sd), "%s/state", T);
	snprintf(_base, sizeof(_base), "%s/scratch", T);
	return 0;
}

static int _teardown(void **state)
{
	char cmd[128];

	(void)state;
	if (T[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", T);
		if (system(cmd)) { /* best effort */
		}
	}
	T[0] = 0;
	return 0;
}

#define NEED_ROOT()                   \
	do {                          \
		if (geteuid() != 0) { \
			skip();       \
			return;       \
		}                     \
	} while (0)

static bool _exists(const char *p)
{
	struct stat st;

	return !lstat(p, &st);
}

/* ------------------------------------------------------------ tests */

static void test_setup_release(void **state)
{
	struct fs_pl_ctx ctx;
	struct fs_pl_job job;
	struct fs_pl_ledger l;
	char path[256], mnt[256];

	(void)state;
	NEED_ROOT();
	_ctx(&ctx);
	_job(&job, 101, 10, 1);
	/* as fabsched-prolog runs it: under the helpers' lock, which the
	   volume's set-up gives up while it connects and formats */
	assert_int_equal(fs_pl_lock(&ctx, _msg, sizeof(_msg)), 0);
	snprintf(path, sizeof(path), "%s/lock", ctx.state_dir);
	F.lock_path = path;
	assert_int_equal(fs_pl_prolog(&ctx, &job, mnt, sizeof(mnt), _msg, sizeof(_msg)), 0);
	assert_int_equal(F.mkfs_lock_free, 1);
	assert_true(ctx.lockfd >= 0); /* held again at the end */
	fs_pl_unlock(&ctx);
	F.lock_path = NULL;
	snprintf(path, sizeof(path), "%s/101", _base);
	assert_string_equal(ctx.scratch_path, path);
	assert_string_equal(mnt, ""); /* no hugepages */
	assert_string_equal(F.log, "connect 127.0.0.1:4420;create 1 10737418240;"
				   "mkfs ext4 /dev/nvme7n1;mount /dev/nvme7n1 ext4;");
	assert_int_equal(F.mount_uid, 4242);
	assert_int_equal(fs_pl_ledger_load(&ctx, 101, &l, _msg, sizeof(_msg)), 0);
	assert_true(l.has_scratch);
	assert_int_equal(l.scratch.state, FS_PL_SCRATCH_MOUNTED);
	assert_int_equal(l.scratch.nsid, 1);
	assert_string_equal(l.scratch.dev, "/dev/nvme7n1");
	assert_string_equal(l.step, "done");

	F.log[0] = 0;
	assert_int_equal(fs_pl_release(&ctx, 101, 4242, _msg, sizeof(_msg)), 0);
	assert_string_equal(F.log, "umount;discard /dev/nvme7n1;delete 1;disconnect;");
	assert_true(F.discarded[1]);
	assert_true(_target_clean());
	assert_false(_exists(path));
	assert_int_equal(fs_pl_ledger_load(&ctx, 101, &l, _msg, sizeof(_msg)), 1);
	/* idempotent: again, nothing to do */
	F.log[0] = 0;
	assert_int_equal(fs_pl_release(&ctx, 101, 4242, _msg, sizeof(_msg)), 0);
	assert_string_equal(F.log, "");
}

/* A crash after each step, then the epilog: the target is clean again. */
static void test_crash_then_epilog(void **state)
{
	static const char *const steps[] = {
		"ledger",	"scratch-mkdir", "scratch-connect", "scratch-create",
		"scratch-mkfs", "scratch-mount", "scratch",	    "done",
	};
	char path[256];

	(void)state;
	NEED_ROOT();
	snprintf(path, sizeof(path), "%s/202", _base);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		struct fs_pl_ctx ctx;
		struct fs_pl_job job;
		struct fs_pl_ledger l;

		_ctx(&ctx);
		_job(&job, 202, 3, 0);
		_crash_at = steps[i];
		if (!setjmp(_crash)) {
			fs_pl_prolog(&ctx, &job, NULL, 0, _msg, sizeof(_msg));
			fail_msg("no crash at %s", steps[i]);
		}
		_crash_at = NULL;
		fs_pl_unlock(&ctx);
		assert_int_equal(fs_pl_ledger_load(&ctx, 202, &l, _msg, sizeof(_msg)), 0);
		assert_true(l.has_scratch);
		/* the epilog (or the sweep: same release) */
		_ctx(&ctx);
		if (fs_pl_release(&ctx, 202, (uid_t)-1, _msg, sizeof(_msg)))
			fail_msg("crash after %s: release: %s", steps[i], _msg);
		if (!_target_clean())
			fail_msg("crash after %s: target not clean: %s", steps[i], F.log);
		assert_false(_exists(path));
		assert_int_equal(fs_pl_ledger_load(&ctx, 202, &l, _msg, sizeof(_msg)), 1);
	}
}

/* A crash, then the prolog of the same job again (requeue): it first gives
 * back what the dead one left. */
static void test_crash_then_prolog_again(void **state)
{
	struct fs_pl_ctx ctx;
	struct fs_pl_job job;

	(void)state;
	NEED_ROOT();
	_ctx(&ctx);
	_job(&job, 303, 2, 0);
	_crash_at = "scratch-mkfs";
	if (!setjmp(_crash))
		fs_pl_prolog(&ctx, &job, NULL, 0, _msg, sizeof(_msg));
	_crash_at = NULL;
	_ctx(&ctx);
	assert_int_equal(fs_pl_prolog(&ctx, &job, NULL, 0, _msg, sizeof(_msg)), 0);
	/* the dead prolog's namespace was deleted before a new one was made:
	   one namespace only */
	assert_string_equal(F.log, "connect 127.0.0.1:4420;create 1 2147483648;"
				   "mkfs xfs /dev/nvme7n1;discard /dev/nvme7n1;"
				   "delete 1;disconnect;connect 127.0.0.1:4420;"
				   "create 1 2147483648;mkfs xfs /dev/nvme7n1;"
				   "mount /dev/nvme7n1 xfs;");
	assert_int_equal(F.ns_bytes[1], 2ULL << 30);
	assert_int_equal(F.ns_bytes[2], 0);
	assert_int_equal(fs_pl_release(&ctx, 303, 4242, _msg, sizeof(_msg)), 0);
	assert_true(_target_clean());
}

/* Each operation failing: the prolog fails with it and gives all back. */
static void test_op_fails(void **state)
{
	static const char *const ops[] = { "connect", "ns_create", "ns_blockdev", "mkfs", "mount" };

	(void)state;
	NEED_ROOT();
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct fs_pl_ctx ctx;
		struct fs_pl_job job;
		char want[64];

		_ctx(&ctx);
		_job(&job, 404, 1, 0);
		F.fail_op = ops[i];
		assert_int_equal(fs_pl_prolog(&ctx, &job, NULL, 0, _msg, sizeof(_msg)), -1);
		snprintf(want, sizeof(want), "fake target: %s failed", ops[i]);
		assert_string_equal(_msg, want);
		/* a pool that cannot make the volume is the job's request not
		   met; the rest is the node's */
		assert_int_equal(ctx.fault,
				 !strcmp(ops[i], "ns_create") ? FS_PL_FAULT_JOB : FS_PL_FAULT_NODE);
		F.fail_op = NULL;
		if (!_target_clean())
			fail_msg("%s failed: target not clean: %s", ops[i], F.log);
		assert_string_equal(ctx.scratch_path, "");
	}
	/* the give-back failing keeps the ledger for a later try */
	{
		struct fs_pl_ctx ctx;
		struct fs_pl_job job;
		struct fs_pl_ledger l;

		_ctx(&ctx);
		_job(&job, 405, 1, 0);
		assert_int_equal(fs_pl_prolog(&ctx, &job, NULL, 0, _msg, sizeof(_msg)), 0);
		F.fail_op = "ns_delete";
		assert_int_equal(fs_pl_release(&ctx, 405, 4242, _msg, sizeof(_msg)), -1);
		assert_string_equal(_msg, "fake target: ns_delete failed");
		assert_int_equal(fs_pl_ledger_load(&ctx, 405, &l, _msg, sizeof(_msg)), 0);
		F.fail_op = NULL;
		assert_int_equal(fs_pl_release(&ctx, 405, 4242, _msg, sizeof(_msg)), 0);
		assert_true(_target_clean());
	}
}

static void test_hostile(void **state)
{
	struct fs_pl_ctx ctx;
	struct fs_pl_job job;
	char real[256], dir[256];

	(void)state;
	NEED_ROOT();
	/* the base is a symbolic link */
	snprintf(real, sizeof(real), "%s/elsewhere", T);
	assert_int_equal(mkdir(real, 0755), 0);
	assert_int_equal(symlink(real, _base), 0);
	_ctx(&ctx);
	_job(&job, 505, 1, 0);
	assert_int_equal(fs_pl_prolog(&ctx, &job, NULL, 0, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "is a symbolic link: refusing to follow it"));
	assert_int_equal(F.connects, 0);
	assert_int_equal(unlink(_base), 0);

	/* a per-job directory made beforehand by another user */
	assert_int_equal(mkdir(_base, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/506", _base);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(chown(dir, 4242, 4343), 0);
	_job(&job, 506, 1, 0);
	assert_int_equal(fs_pl_prolog(&ctx, &job, NULL, 0, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "exists, owned by uid 4242 mode 0700, not "
				     "created by fabsched (root, 0700): refusing to use it"));
	assert_int_equal(F.connects, 0);
	assert_true(_exists(dir)); /* the user's directory is left alone */
	assert_true(_target_clean());

	/* a symbolic link as the per-job directory */
	snprintf(dir, sizeof(dir), "%s/507", _base);
	assert_int_equal(symlink(real, dir), 0);
	_job(&job, 507, 1, 0);
	assert_int_equal(fs_pl_prolog(&ctx, &job, NULL, 0, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "not a directory (symbolic link?): refusing"));
	assert_int_equal(F.connects, 0);

	/* a base writable by others */
	assert_int_equal(chmod(_base, 0777), 0);
	_job(&job, 508, 1, 0);
	assert_int_equal(fs_pl_prolog(&ctx, &job, NULL, 0, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "writable by group or others"));
	assert_int_equal(chmod(_base, 0755), 0);

	/* no pool configured */
	ctx.has_target = false;
	_job(&job, 509, 1, 0);
	assert_int_equal(fs_pl_prolog(&ctx, &job, NULL, 0, _msg, sizeof(_msg)), -1);
	assert_string_equal(_msg, "the job asks for a 1 GiB scratch volume but "
				  "fabsched.conf names no scratch pool; expected "
				  "ScratchTraddr and ScratchSubsysNQN");
	assert_int_equal(F.connects, 0);
}

/* Two jobs on the node share its controller: it stays up for the second. */
static void test_shared_controller(void **state)
{
	struct fs_pl_ctx ctx;
	struct fs_pl_job a, b;

	(void)state;
	NEED_ROOT();
	_ctx(&ctx);
	_job(&a, 601, 1, 0);
	_job(&b, 602, 2, 1);
	assert_int_equal(fs_pl_prolog(&ctx, &a, NULL, 0, _msg, sizeof(_msg)), 0);
	assert_int_equal(fs_pl_prolog(&ctx, &b, NULL, 0, _msg, sizeof(_msg)), 0);
	assert_int_equal(F.connects, 1);
	assert_int_equal(fs_pl_release(&ctx, 601, 4242, _msg, sizeof(_msg)), 0);
	assert_true(F.connected);
	assert_int_equal(F.ns_bytes[1], 0);
	assert_int_equal(F.ns_bytes[2], 2ULL << 30);
	assert_int_equal(fs_pl_release(&ctx, 602, 4242, _msg, sizeof(_msg)), 0);
	assert_int_equal(F.disconnects, 1);
	assert_true(_target_clean());
}

/* ------------------------------------------------------------ values */

static void test_values(void **state)
{
	struct fs_pl_job job;
	struct fs_pl_ledger l, back;
	char buf[4096];

	(void)state;
	memset(&job, 0, sizeof(job));
	assert_int_equal(fs_pl_parse_scratch("200G,fs=ext4", &job, _msg, sizeof(_msg)), 0);
	assert_int_equal(job.scratch_gib, 200);
	assert_int_equal(job.scratch_fs, 1);
	assert_int_equal(fs_pl_parse_scratch(NULL, &job, _msg, sizeof(_msg)), 0);
	assert_int_equal(job.scratch_gib, 0);
	assert_int_equal(fs_pl_parse_scratch("2000T", &job, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "SPANK_FABSCHED_SCRATCH=2000T: more than"));
	assert_int_equal(fs_pl_parse_scratch("1G,fs=ntfs", &job, _msg, sizeof(_msg)), -1);

	memset(&l, 0, sizeof(l));
	l.jobid = 7;
	l.uid = 1000;
	l.gid = 1000;
	l.has_scratch = true;
	l.scratch.state = FS_PL_SCRATCH_CREATED;
	l.scratch.fs = 1;
	l.scratch.gib = 64;
	l.scratch.nsid = 3;
	strcpy(l.scratch.ctrl, "nvme2");
	strcpy(l.scratch.path, "/scratch/7");
	assert_true(fs_pl_ledger_format(&l, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "\nscratch created ext4 64 3 nvme2 - /scratch/7\n"));
	assert_int_equal(fs_pl_ledger_parse(buf, &back, _msg, sizeof(_msg)), 0);
	assert_true(back.has_scratch);
	assert_int_equal(back.scratch.state, FS_PL_SCRATCH_CREATED);
	assert_int_equal(back.scratch.nsid, 3);
	assert_string_equal(back.scratch.ctrl, "nvme2");
	assert_string_equal(back.scratch.dev, "");
	assert_string_equal(back.scratch.path, "/scratch/7");
	assert_int_equal(fs_pl_ledger_parse("fabsched-ledger 1\njob 7 uid 1 gid 1 step -\n"
					    "scratch weird xfs 1 0 - - /s/7\nend\n",
					    &back, _msg, sizeof(_msg)),
			 -1);
	assert_string_equal(_msg, "ledger line 3: bad scratch");
	strcpy(l.scratch.path, "/scratch/a b");
	assert_int_equal(fs_pl_ledger_format(&l, buf, sizeof(buf)), -1);
}

static void test_host_files(void **state)
{
	struct fs_pl_scratch_target t;
	char dir[] = "/tmp/fs-host-XXXXXX", nqn[64], id[64];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(nqn, sizeof(nqn), "%s/hostnqn", dir);
	snprintf(id, sizeof(id), "%s/hostid", dir);
	f = fopen(nqn, "w");
	fputs("nqn.2014-08.org.nvmexpress:uuid:6a1b2c3d-0000-4000-8000-00000000abcd\n", f);
	fclose(f);
	f = fopen(id, "w");
	fputs("6a1b2c3d-0000-4000-8000-00000000abcd\n", f);
	fclose(f);
	memset(&t, 0, sizeof(t));
	assert_int_equal(fs_pl_scratch_host(nqn, id, &t, _msg, sizeof(_msg)), 0);
	assert_string_equal(t.hostid, "6a1b2c3d-0000-4000-8000-00000000abcd");
	f = fopen(id, "w");
	fputs("not-a-uuid\n", f);
	fclose(f);
	assert_int_equal(fs_pl_scratch_host(nqn, id, &t, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "is not a host ID; expected a UUID"));
	f = fopen(nqn, "w");
	fputs("host1,trsvcid=1\n", f);
	fclose(f);
	assert_int_equal(fs_pl_scratch_host(nqn, id, &t, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "is not a host NQN"));
	unlink(nqn);
	assert_int_equal(fs_pl_scratch_host(nqn, id, &t, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "No such file or directory"));
	unlink(id);
	rmdir(dir);
}

static void test_conf_keys(void **state)
{
	static const char good[] =
		"ScratchBase=/scratch\n"
		"ScratchTransport=RDMA ScratchTraddr=192.168.7.10 ScratchTrsvcid=4421\n"
		"ScratchSubsysNQN=nqn.2014-08.org.example:scratch\n"
		"ScratchCapacity=4T\n";
	static const struct {
		const char *in, *err;
	} bad[] = {
		{ "ScratchTraddr=10.0.0.1\n",
		  "t:1: ScratchTraddr is set but ScratchSubsysNQN is not; expected "
		  "both (the scratch pool's target) or neither (no scratch pool)" },
		{ "\nScratchSubsysNQN=nqn.x:y\n",
		  "t:2: ScratchSubsysNQN is set but ScratchTraddr is not" },
		{ "ScratchTraddr=host;rm ScratchSubsysNQN=nqn.2014-08.a:b\n",
		  "t:1: ScratchTraddr=host;rm: not an IP address; expected an IPv4 "
		  "or IPv6 address of the NVMe-oF target" },
		{ "ScratchTraddr=10.0.0.1\nScratchSubsysNQN=scratch\n",
		  "t:2: ScratchSubsysNQN=scratch: not an NQN; expected "
		  "nqn.<yyyy-mm>.<reverse domain>:<name>" },
		{ "ScratchTransport=fc\n", "t:1: ScratchTransport=fc: " },
		{ "ScratchTrsvcid=70000\n", "t:1: ScratchTrsvcid=70000: " },
		{ "ScratchCapacity=100M\n", "t:1: ScratchCapacity=100M: less than 1 GiB" },
		{ "ScratchHostNQNFile=etc/nvme/hostnqn\n",
		  "t:1: ScratchHostNQNFile=etc/nvme/hostnqn: not an absolute path" },
	};
	struct fs_conf *c;
	struct fs_errors *e = fs_errors_new();
	uint64_t u;

	(void)state;
	assert_int_equal(fs_conf_parse("t", good, strlen(good), &c, e), 0);
	assert_string_equal(fs_conf_get_str(c, "ScratchTransport"), "rdma");
	assert_string_equal(fs_conf_get_str(c, "ScratchTraddr"), "192.168.7.10");
	assert_int_equal(fs_conf_get_uint(c, "ScratchTrsvcid", &u), 0);
	assert_int_equal(u, 4421);
	assert_int_equal(fs_conf_get_uint(c, "ScratchCapacity", &u), 0);
	assert_int_equal(u, 4ULL << 40);
	assert_string_equal(fs_conf_get_str(c, "ScratchHostNQNFile"), "/etc/nvme/hostnqn");
	fs_conf_destroy(c);
	/* defaults: no pool */
	assert_int_equal(fs_conf_parse("t", "", 0, &c, e), 0);
	assert_null(fs_conf_get_str(c, "ScratchTraddr"));
	assert_string_equal(fs_conf_get_str(c, "ScratchTrsvcid"), "4420");
	fs_conf_destroy(c);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fs_errors_clear(e);
		assert_int_equal(fs_conf_parse("t", bad[i].in, strlen(bad[i].in), &c, e), -1);
		if (strncmp(fs_errors_get(e, 0), bad[i].err, strlen(bad[i].err)))
			fail_msg("\"%s\": got \"%s\"", bad[i].in, fs_errors_get(e, 0));
	}
	fs_errors_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_setup_release, _setup, _teardown),
		cmocka_unit_test_setup_teardown(test_crash_then_epilog, _setup, _teardown),
		cmocka_unit_test_setup_teardown(test_crash_then_prolog_again, _setup, _teardown),
		cmocka_unit_test_setup_teardown(test_op_fails, _setup, _teardown),
		cmocka_unit_test_setup_teardown(test_hostile, _setup, _teardown),
		cmocka_unit_test_setup_teardown(test_shared_controller, _setup, _teardown),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_host_files),
		cmocka_unit_test(test_conf_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
