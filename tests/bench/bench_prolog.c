/*
 * bench_prolog - wall time of the prolog (reserve, mount, cgroup lookup,
 * ledger writes with fsync) and of the release the epilog does (unmount,
 * give back, ledger removal) for a job of PAGES 2 MiB pages (default 512,
 * 1 GiB) spread evenly over NUMA nodes 0..NODES-1 (default: every node of
 * this machine), over RUNS runs (default 50).  Root only: the pages are the
 * machine's, for real; the pool is back where it was at the end.
 * Prints p50, p99 and max in milliseconds, and whether compaction ran.
 * Then the same for a job with a 200 GiB scratch volume against a fake
 * NVMe-oF target (the ops seam, struct fs_pl_nvme_ops, whose operations
 * only record state): the prolog's own part of the scratch path (root-made
 * directories opened with O_NOFOLLOW, a ledger write with fsync per step,
 * the release), without the target's, the kernel's or mkfs's time.
 * Usage: bench_prolog [RUNS [PAGES [NODES]]]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fabsched_prolog.h"

static double _now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int _cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void _report(const char *what, double *t, int n)
{
	qsort(t, (size_t)n, sizeof(*t), _cmp);
	printf("%-9s p50 %7.2f ms   p99 %7.2f ms   max %7.2f ms\n", what, t[n / 2],
	       t[(int)(n * 0.99) < n ? (int)(n * 0.99) : n - 1], t[n - 1]);
}

/* ------------------------------------------------------------ fake target */

static struct {
	int connected;
	uint32_t nsid;
	char mounted[512];
} F;

static int f_connect(const struct fs_pl_scratch_target *t, char *ctrl, size_t ctrlsz, char *err,
		     size_t errlen)
{
	(void)t;
	(void)err;
	(void)errlen;
	F.connected = 1;
	snprintf(ctrl, ctrlsz, "nvme9");
	return 0;
}

static int f_disconnect(const char *ctrl, char *err, size_t errlen)
{
	(void)ctrl;
	(void)err;
	(void)errlen;
	F.connected = 0;
	return 0;
}

static int f_ns_create(const char *ctrl, uint64_t bytes, uint32_t *nsid, char *err, size_t errlen)
{
	(void)ctrl;
	(void)bytes;
	(void)err;
	(void)errlen;
	*nsid = F.nsid = 1;
	return 0;
}

static int f_ns_blockdev(const char *ctrl, uint32_t nsid, char *dev, size_t devsz, char *err,
			 size_t errlen)
{
	(void)err;
	(void)errlen;
	snprintf(dev, devsz, "/dev/%sn%u", ctrl, nsid);
	return 0;
}

static int f_ns_delete(const char *ctrl, uint32_t nsid, char *err, size_t errlen)
{
	(void)ctrl;
	(void)nsid;
	(void)err;
	(void)errlen;
	F.nsid = 0;
	return 0;
}

static int f_dev(const char *dev, char *err, size_t errlen)
{
	(void)dev;
	(void)err;
	(void)errlen;
	return 0;
}

static int f_mkfs(const char *dev, int fs, char *err, size_t errlen)
{
	(void)dev;
	(void)fs;
	(void)err;
	(void)errlen;
	return 0;
}

static int f_mount(const char *dev, int fs, int dirfd, const char *path, uid_t uid, gid_t gid,
		   char *err, size_t errlen)
{
	(void)dev;
	(void)fs;
	(void)dirfd;
	(void)uid;
	(void)gid;
	(void)err;
	(void)errlen;
	snprintf(F.mounted, sizeof(F.mounted), "%s", path);
	return 0;
}

static int f_umount(const char *path, char *err, size_t errlen)
{
	(void)path;
	(void)err;
	(void)errlen;
	F.mounted[0] = 0;
	return 0;
}

static int f_is_mounted(const char *path)
{
	return F.mounted[0] && !strcmp(F.mounted, path);
}

static const struct fs_pl_nvme_ops _fake = {
	.connect = f_connect,
	.disconnect = f_disconnect,
	.ns_create = f_ns_create,
	.ns_blockdev = f_ns_blockdev,
	.ns_delete = f_ns_delete,
	.discard = f_dev,
	.mkfs = f_mkfs,
	.mount = f_mount,
	.umount = f_umount,
	.is_mounted = f_is_mounted,
};

/* The scratch path against the fake target: RUNS set-ups and give-backs. */
static int _bench_scratch(const char *dir, int runs)
{
	char sd[128], sb[128], err[FS_MSG_SIZE], mnt[FS_PL_PATH];
	struct fs_pl_ctx ctx;
	struct fs_pl_job job;
	double *tp = calloc((size_t)runs, sizeof(double));
	double *te = calloc((size_t)runs, sizeof(double));
	int rc = 0, n = runs;

	if (!tp || !te) {
		free(tp);
		free(te);
		return 1;
	}
	snprintf(sd, sizeof(sd), "%s/state", dir);
	snprintf(sb, sizeof(sb), "%s/scratch", dir);
	fs_pl_ctx_init(&ctx, "bench_prolog");
	ctx.state_dir = sd;
	ctx.scratch_base = sb;
	ctx.log = NULL;
	ctx.nvme = &_fake;
	ctx.has_target = true;
	snprintf(ctx.target.transport, sizeof(ctx.target.transport), "tcp");
	snprintf(ctx.target.traddr, sizeof(ctx.target.traddr), "127.0.0.1");
	snprintf(ctx.target.trsvcid, sizeof(ctx.target.trsvcid), "4420");
	snprintf(ctx.target.subsysnqn, sizeof(ctx.target.subsysnqn),
		 "nqn.2014-08.org.example:bench");
	snprintf(ctx.target.hostnqn, sizeof(ctx.target.hostnqn),
		 "nqn.2014-08.org.example:bench-host");
	memset(&job, 0, sizeof(job));
	job.uid = 65534;
	job.gid = 65534;
	job.scratch_gib = 200;
	for (int r = 0; r < runs && !rc; r++) {
		double t0;

		job.jobid = 950000 + (uint32_t)r;
		t0 = _now();
		if (fs_pl_lock(&ctx, err, sizeof(err)) ||
		    fs_pl_prolog(&ctx, &job, mnt, sizeof(mnt), err, sizeof(err))) {
			fprintf(stderr, "scratch prolog run %d: %s\n", r, err);
			rc = 1;
		}
		fs_pl_unlock(&ctx);
		tp[r] = _now() - t0;
		t0 = _now();
		if (fs_pl_lock(&ctx, err, sizeof(err)) ||
		    fs_pl_release(&ctx, job.jobid, (uid_t)-1, err, sizeof(err))) {
			fprintf(stderr, "scratch epilog run %d: %s\n", r, err);
			rc = 1;
		}
		fs_pl_unlock(&ctx);
		te[r] = _now() - t0;
		if (rc)
			n = r + 1;
	}
	if (!rc && (F.connected || F.nsid || F.mounted[0])) {
		fprintf(stderr, "scratch: the fake target is not clean after the "
				"give-backs\n");
		rc = 1;
	}
	printf("scratch volume of 200 GiB, fake NVMe-oF target (seam), %d runs:\n", n);
	_report("set-up", tp, n);
	_report("give-back", te, n);
	free(tp);
	free(te);
	return rc;
}

static int _numa_nodes(void)
{
	int n = 0;
	char p[128];
	struct stat st;

	for (;; n++) {
		snprintf(p, sizeof(p), "/sys/devices/system/node/node%d", n);
		if (stat(p, &st))
			return n ? n : 1;
	}
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 50;
	unsigned long pages = argc > 2 ? strtoul(argv[2], NULL, 10) : 512;
	int nodes = argc > 3 ? atoi(argv[3]) : _numa_nodes();
	char dir[] = "/var/lib/fabsched-bench.XXXXXX", sd[64], mb[64];
	char err[FS_MSG_SIZE], mnt[FS_PL_PATH];
	uint64_t before[64];
	double *tp, *te;
	struct fs_pl_ctx ctx;
	struct fs_pl_job job;
	int compactions = 0, rc = 0;

	if (geteuid()) {
		printf("bench_prolog: SKIP: needs root (real hugepages and mounts)\n");
		return 0;
	}
	if (runs < 1 || pages < 1 || nodes < 1 || nodes > 64) {
		fprintf(stderr, "usage: %s [RUNS [PAGES [NODES]]]\n", argv[0]);
		return 2;
	}
	/* one test at a time changes the machine's pools */
	{
		int lk = open("/run/lock/fabsched-hugepages-test.lock",
			      O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

		if (lk < 0 || flock(lk, LOCK_EX)) {
			perror("/run/lock/fabsched-hugepages-test.lock");
			return 1;
		}
	}
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	chmod(dir, 0755);
	snprintf(sd, sizeof(sd), "%s/state", dir);
	snprintf(mb, sizeof(mb), "%s/mnt", dir);
	fs_pl_ctx_init(&ctx, "bench_prolog");
	ctx.state_dir = sd;
	ctx.mount_base = mb;
	ctx.log = NULL;
	memset(&job, 0, sizeof(job));
	job.uid = 65534;
	job.gid = 65534;
	job.npages = (size_t)nodes;
	for (int i = 0; i < nodes; i++) {
		job.pages[i].node = i;
		job.pages[i].page_kb = 2048;
		job.pages[i].pages = pages / nodes + (i < (int)(pages % nodes));
		fs_pl_pool_get(i, 2048, &before[i], NULL, 0);
	}
	tp = calloc((size_t)runs, sizeof(double));
	te = calloc((size_t)runs, sizeof(double));
	printf("bench_prolog: %d runs, a job of %lu pages of 2 MiB (%.2f GiB) over "
	       "%d NUMA node(s)%s\n",
	       runs, pages, pages / 512.0, nodes,
	       nodes == 1 ? " (this machine has one NUMA node)" : "");
	for (int r = 0; r < runs && !rc; r++) {
		double t0;

		job.jobid = 900000 + (uint32_t)r;
		ctx.compacted = false;
		t0 = _now();
		if (fs_pl_lock(&ctx, err, sizeof(err)) ||
		    fs_pl_prolog(&ctx, &job, mnt, sizeof(mnt), err, sizeof(err))) {
			fprintf(stderr, "prolog run %d: %s\n", r, err);
			rc = 1;
		}
		fs_pl_unlock(&ctx);
		tp[r] = _now() - t0;
		compactions += ctx.compacted;
		t0 = _now();
		if (fs_pl_lock(&ctx, err, sizeof(err)) ||
		    fs_pl_release(&ctx, job.jobid, (uid_t)-1, err, sizeof(err))) {
			fprintf(stderr, "epilog run %d: %s\n", r, err);
			rc = 1;
		}
		fs_pl_unlock(&ctx);
		te[r] = _now() - t0;
		if (rc)
			runs = r + 1;
	}
	_report("prolog", tp, runs);
	_report("epilog", te, runs);
	printf("compaction needed in %d of %d runs\n", compactions, runs);
	if (!rc)
		rc = _bench_scratch(dir, runs);
	for (int i = 0; i < nodes; i++) {
		uint64_t now = 0;

		fs_pl_pool_get(i, 2048, &now, NULL, 0);
		if (now != before[i]) {
			fprintf(stderr, "node %d: pool at %llu, was %llu: restoring\n", i,
				(unsigned long long)now, (unsigned long long)before[i]);
			fs_pl_pool_set(i, 2048, before[i], NULL, 0);
			rc = 1;
		}
	}
	if (rc)
		fprintf(stderr, "left %s for inspection\n", dir);
	else {
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			rc = 1;
	}
	free(tp);
	free(te);
	return rc;
}
