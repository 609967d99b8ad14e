/*
 * actions.c - the prolog (check, rdma limits, reserve, mount, limit) and
 * the release that the epilog and the sweep share.  Every change to the
 * machine is recorded in the job's ledger before it is made, so that a
 * release after a crash at any point gives back exactly what was done (the
 * rdma limits excepted: they go with the job's cgroup).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fabsched_gres.h"
#include "fabsched_prolog.h"
#include "prolog_private.h"

static void _checkpoint(struct fs_pl_ctx *ctx, const char *step)
{
	if (ctx->checkpoint)
		ctx->checkpoint(step, ctx->checkpoint_arg);
}

static int _save_step(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, const char *step, char *err,
		      size_t errlen)
{
	snprintf(l->step, sizeof(l->step), "%s", step);
	return fs_pl_ledger_save(ctx, l, err, errlen);
}

/* ------------------------------------------------------------ pools */

/*
 * Pages of pool (node, page_kb) that jobs other than self hold, per their
 * ledgers: a release never goes below this.
 */
static uint64_t _held_by_others(struct fs_pl_ctx *ctx, uint32_t self, int node, uint64_t page_kb)
{
	static uint32_t ids[4096];
	static struct fs_pl_ledger o;
	long n = fs_pl_ledger_list(ctx, ids, 4096, NULL, 0);
	uint64_t held = 0;

	for (long i = 0; i < n; i++) {
		if (ids[i] == self || fs_pl_ledger_load(ctx, ids[i], &o, NULL, 0))
			continue;
		for (size_t k = 0; k < o.npools; k++) {
			const struct fs_pl_pool_rec *p = &o.pools[k];

			if (p->node != node || p->page_kb != page_kb)
				continue;
			if (p->state == FS_PL_POOL_PLANNED || p->state == FS_PL_POOL_PENDING)
				held += p->want;
			else if (p->state != FS_PL_POOL_RELEASED)
				held += p->added;
		}
	}
	return held;
}

static const char *_node_name(int node)
{
	static char buf[16];

	if (node == FS_PL_NODE_ANY)
		return "any";
	snprintf(buf, sizeof(buf), "%d", node);
	return buf;
}

static int _release_pool(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, struct fs_pl_pool_rec *p,
			 char *err, size_t errlen)
{
	uint64_t cur, give, floor, target, got;
	const char *t = fs_pl_page_type(p->page_kb);

	if (p->state == FS_PL_POOL_PLANNED) {
		/* the prolog stopped before touching this pool: nothing to give */
		p->state = FS_PL_POOL_RELEASED;
		return fs_pl_ledger_save(ctx, l, err, errlen);
	}
	if (p->state == FS_PL_POOL_RELEASED)
		return 0;
	if (fs_pl_pool_get(p->node, p->page_kb, &cur, err, errlen))
		return -1;
	switch (p->state) {
	case FS_PL_POOL_PENDING: /* the write may or may not have happened */
		give = cur > p->before ? cur - p->before : 0;
		if (give > p->want)
			give = p->want;
		break;
	case FS_PL_POOL_RELEASING: /* a release died: done if it took */
		if (cur <= p->target) {
			give = 0;
			break;
		}
		/* the write did not happen, or only in part */
		give = p->give < cur - p->target ? p->give : cur - p->target;
		break;
	default:
		give = p->added;
	}
	floor = _held_by_others(ctx, l->jobid, p->node, p->page_kb);
	target = cur > give ? cur - give : 0;
	if (target < floor)
		target = floor < cur ? floor : cur;
	if (target != cur) {
		p->state = FS_PL_POOL_RELEASING;
		p->target = target;
		p->give = cur - target;
		if (fs_pl_ledger_save(ctx, l, err, errlen))
			return -1;
		if (fs_pl_pool_set(p->node, p->page_kb, target, err, errlen) ||
		    fs_pl_pool_get(p->node, p->page_kb, &got, err, errlen))
			return -1;
		if (got > target) {
			uint64_t surplus = 0;

			fs_pl_pool_read(p->node, p->page_kb, "surplus_hugepages", &surplus, NULL,
					0);
			if (surplus >= got - target) {
				/* in use: the kernel made them surplus pages and
				   frees them when their last user ends; the pool
				   itself is given back */
				p->state = FS_PL_POOL_RELEASED;
				p->added = 0;
			} else {
				/* the job keeps what the kernel could not take
				   back; a later epilog or sweep retries */
				p->state = FS_PL_POOL_HELD;
				p->added = got - target;
			}
			fs_pl_ledger_save(ctx, l, NULL, 0);
			return fs_errf(err, errlen,
				       "node %s: %" PRIu64 " pages of %s still in use "
				       "after the job (%s): the pool stays at %" PRIu64,
				       _node_name(p->node), got - target, t,
				       p->state == FS_PL_POOL_RELEASED
					       ? "surplus pages, freed by the kernel when unused"
					       : "not given back",
				       got);
		}
		fs_pl_log(ctx, l->jobid,
			  "node %s: gave back %" PRIu64 " pages of "
			  "%" PRIu64 "kB (%" PRIu64 " -> %" PRIu64 ")",
			  _node_name(p->node), cur - target, p->page_kb, cur, target);
	}
	p->state = FS_PL_POOL_RELEASED;
	p->added = 0;
	return fs_pl_ledger_save(ctx, l, err, errlen);
}

static int _reserve_pool(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, struct fs_pl_pool_rec *p,
			 char *err, size_t errlen)
{
	uint64_t cur, got;
	const char *node = _node_name(p->node);
	if (fs_pl_pool_get(p->node, p->page_kb, &cur, err, errlen))
		return -1;
	p->before = cur;
	p->state = FS_PL_POOL_PENDING;
	if (fs_pl_ledger_save(ctx, l, err, errlen))
		return -1;
	for (int attempt = 0;; attempt++) {
		if ((ctx->pool_set ? ctx->pool_set : fs_pl_pool_set)(p->node, p->page_kb,
								     cur + p->want, err, errlen) &&
		    errno != ENOMEM) /* short writes are judged by reading back */
			return -1;
		if (fs_pl_pool_get(p->node, p->page_kb, &got, err, errlen))
			return -1;
		if (got >= cur + p->want || attempt == 1 || ctx->compacted)
			break;
		fs_pl_log(ctx, l->jobid,
			  "node %s: %" PRIu64 " of %" PRIu64 " pages of %" PRIu64
			  "kB; compacting memory once and "
			  "retrying",
			  node, got > cur ? got - cur : 0, p->want, p->page_kb);
		fs_pl_write_str("/proc/sys/vm/compact_memory", "1", NULL, 0);
		ctx->compacted = true;
	}
	p->added = got > cur ? got - cur : 0;
	if (p->added > p->want) /* someone else wrote meanwhile */
		p->added = p->want;
	p->state = FS_PL_POOL_HELD;
	if (fs_pl_ledger_save(ctx, l, err, errlen))
		return -1;
	if (p->added < p->want) {
		/* the node holds too few free pages for this job now, and may
		   well run others: the job's request is what cannot be met */
		ctx->hugepages_short = true;
		ctx->fault = FS_PL_FAULT_JOB;
		return fs_errf(err, errlen,
			       "node %s: asked %" PRIu64 " pages of "
			       "%" PRIu64 "kB, got %" PRIu64,
			       node, p->want, p->page_kb, p->added);
	}
	fs_pl_log(ctx, l->jobid,
		  "node %s: reserved %" PRIu64 " pages of %" PRIu64 "kB (%" PRIu64 " -> %" PRIu64
		  ")",
		  node, p->want, p->page_kb, cur, got);
	return 0;
}

/* ------------------------------------------------------------ mounts */

static const char *_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int _mount(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, struct fs_pl_mount_rec *m,
		  char *err, size_t errlen)
{
	const char *name = _base_name(m->path);
	char opts[256], proc[64];
	struct stat st;
	int bfd, fd;

	if ((bfd = fs_pl_open_root_dir(ctx->mount_base, 1, 0755, err, errlen)) < 0)
		return -1;
	if (mkdirat(bfd, name, 0700) && errno != EEXIST) {
		fs_errf(err, errlen, "%s: cannot create: %s", m->path, strerror(errno));
		close(bfd);
		return -1;
	}
	fd = openat(bfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(bfd);
	if (fd < 0)
		return fs_errf(err, errlen, "%s: %s: refusing to use it", m->path,
			       errno == ELOOP || errno == ENOTDIR
				       ? "not a directory (symbolic link?)"
				       : strerror(errno));
	if (fstat(fd, &st) || st.st_uid != 0 || (st.st_mode & 07777) != 0700) {
		fs_errf(err, errlen,
			"%s: exists, owned by uid %u mode %04o, "
			"not created by fabsched (root, 0700): refusing to use it",
			m->path, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		close(fd);
		return -1;
	}
	_checkpoint(ctx, "mkdir");
	snprintf(opts, sizeof(opts), "uid=%u,gid=%u,mode=0700,pagesize=%" PRIu64 "K,size=%" PRIu64,
		 (unsigned)l->uid, (unsigned)l->gid, m->page_kb, m->bytes);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (mount("fabsched", proc, "hugetlbfs", MS_NOSUID | MS_NODEV, opts)) {
		fs_errf(err, errlen, "%s: mount -t hugetlbfs -o %s: %s", m->path, opts,
			strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	m->state = FS_PL_MOUNT_MOUNTED;
	fs_pl_log(ctx, l->jobid, "mounted hugetlbfs %s (%s)", m->path, opts);
	return fs_pl_ledger_save(ctx, l, err, errlen);
}

static int _unmount(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, struct fs_pl_mount_rec *m,
		    char *err, size_t errlen)
{
	char base[FS_PL_PATH];
	const char *name = _base_name(m->path);
	int bfd, fd;
	struct stat st;

	if (m->state == FS_PL_MOUNT_GONE)
		return 0;
	for (int i = 0; i < 8 && fs_pl_is_mounted(m->path) == 1; i++) {
		fs_pl_kill_users(ctx, l->jobid, m->path, l->uid);
		_checkpoint(ctx, "kill");
		if (umount2(m->path, UMOUNT_NOFOLLOW) == 0)
			continue;
		if (errno != EBUSY)
			return fs_errf(err, errlen, "%s: umount: %s", m->path, strerror(errno));
		fs_pl_log(ctx, l->jobid, "%s: busy; detaching it (lazy unmount)", m->path);
		if (umount2(m->path, UMOUNT_NOFOLLOW | MNT_DETACH))
			return fs_errf(err, errlen, "%s: umount -l: %s", m->path, strerror(errno));
	}
	if (fs_pl_is_mounted(m->path) == 1)
		return fs_errf(err, errlen, "%s: still mounted", m->path);
	_checkpoint(ctx, "umount");
	/* the directory: only ours (root, 0700) is removed */
	snprintf(base, sizeof(base), "%.*s", (int)(name - m->path - 1), m->path);
	bfd = fs_pl_open_root_dir(base, 0, 0, err, errlen);
	if (bfd >= 0) {
		fd = openat(bfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && !fstat(fd, &st) && st.st_uid == 0) {
			if (unlinkat(bfd, name, AT_REMOVEDIR) && errno != ENOENT)
				fs_pl_log(ctx, l->jobid, "%s: cannot remove: %s", m->path,
					  strerror(errno));
		} else if (fd >= 0)
			fs_pl_log(ctx, l->jobid, "%s: owned by uid %u: left alone", m->path,
				  (unsigned)st.st_uid);
		if (fd >= 0)
			close(fd);
		close(bfd);
	}
	m->state = FS_PL_MOUNT_GONE;
	fs_pl_log(ctx, l->jobid, "unmounted %s", m->path);
	return fs_pl_ledger_save(ctx, l, err, errlen);
}

/* ------------------------------------------------------------ release */

static int _release_ledger(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, char *err, size_t errlen)
{
	int rc = 0;
	char m1[FS_MSG_SIZE];

	for (size_t i = 0; i < l->nmounts; i++)
		if (_unmount(ctx, l, &l->mounts[i], m1, sizeof(m1))) {
			fs_pl_log(ctx, l->jobid, "%s", m1);
			if (!rc)
				fs_errf(err, errlen, "%s", m1);
			rc = -1;
		}
	if (l->cg_version) {
		struct stat st;

		if (!lstat(l->cgroup, &st) && S_ISDIR(st.st_mode)) {
			const char *max = l->cg_version == 2 ? "max" : "-1";

			for (size_t i = 0; i < l->nmounts; i++)
				fs_pl_cgroup_limit(l->cgroup, l->cg_version, l->mounts[i].page_kb,
						   max, NULL, 0);
			fs_pl_log(ctx, l->jobid, "%s: hugetlb limits reset", l->cgroup);
		}
		l->cg_version = 0;
		if (fs_pl_ledger_save(ctx, l, m1, sizeof(m1)) && !rc)
			rc = fs_errf(err, errlen, "%s", m1);
		_checkpoint(ctx, "cgroup");
	}
	if (l->has_scratch && fs_pl_scratch_release(ctx, l, m1, sizeof(m1))) {
		fs_pl_log(ctx, l->jobid, "%s", m1);
		if (!rc)
			fs_errf(err, errlen, "%s", m1);
		rc = -1;
	}
	if (rc) /* pages under a mount still in use cannot be given back */
		return rc;
	for (size_t i = 0; i < l->npools; i++)
		if (_release_pool(ctx, l, &l->pools[i], m1, sizeof(m1))) {
			fs_pl_log(ctx, l->jobid, "%s", m1);
			if (!rc)
				fs_errf(err, errlen, "%s", m1);
			rc = -1;
		}
	_checkpoint(ctx, "release");
	if (rc)
		return rc;
	/* leak check: nothing of the ledger may remain */
	for (size_t i = 0; i < l->nmounts; i++)
		if (fs_pl_is_mounted(l->mounts[i].path) == 1)
			return fs_errf(err, errlen, "leak: %s still mounted", l->mounts[i].path);
	return fs_pl_ledger_remove(ctx, l->jobid, err, errlen);
}

int fs_pl_release(struct fs_pl_ctx *ctx, uint32_t jobid, uid_t uid, char *err, size_t errlen)
{
	static struct fs_pl_ledger l;
	int rc = fs_pl_ledger_load(ctx, jobid, &l, err, errlen);

	if (rc == 1) {
		fs_pl_log(ctx, jobid, "no ledger: nothing to give back");
		return 0;
	}
	if (rc)
		return -1;
	if (uid != (uid_t)-1 && uid != l.uid)
		return fs_errf(err, errlen,
			       "job %u: ledger names uid %u, the "
			       "environment uid %u",
			       jobid, (unsigned)l.uid, (unsigned)uid);
	return _release_ledger(ctx, &l, err, errlen);
}

/* ------------------------------------------------------------ prolog */

/*
 * The prolog in phases, in the order they act on the node: an earlier
 * run's ledger given back, the HCAs checked, the bases checked, then the
 * job's ledger written before anything is taken (pools, mounts, cgroup
 * limits, scratch volume), each step saved to it so that whatever dies
 * half-way is given back by the next prolog, the epilog or the sweep.
 * A phase returns 0, or -1 with the message in err.
 */

/* A ledger of this job: a prolog that died (or a requeue): undo it.
   @l is the (static) ledger the caller reuses. */
static int _undo_earlier(struct fs_pl_ctx *ctx, const struct fs_pl_job *job, struct fs_pl_ledger *l,
			 char *err, size_t errlen)
{
	int rc = fs_pl_ledger_load(ctx, job->jobid, l, err, errlen);

	if (rc < 0)
		return -1;
	if (rc == 0) {
		fs_pl_log(ctx, job->jobid,
			  "ledger from an earlier run (step %s): "
			  "giving it back first",
			  l->step[0] ? l->step : "-");
		if (_release_ledger(ctx, l, err, errlen))
			return -1;
	}
	return 0;
}

/* The job's HCAs: ACTIVE ports, RdmaRate, the account's P_Key (into
   ctx->rdma_got, which the caller exports), then rdma.max. */
static int _rdma_check(struct fs_pl_ctx *ctx, const struct fs_pl_job *job, char *err, size_t errlen)
{
	struct fs_pl_rdma_want want = {
		.rate = ctx->rdma_rate,
		.pkey = job->ib_pkey,
		.account = job->account,
		.roce_ipv6 = ctx->roce_ipv6,
		.roce_mtu = ctx->roce_mtu,
		.roce_pfc = ctx->roce_pfc,
		.roce_tclass = ctx->roce_tclass,
		.roce_sl = ctx->roce_sl,
	};

	memset(&ctx->rdma_got, 0, sizeof(ctx->rdma_got));
	ctx->rdma_got.pkey_index = -1;
	if (!job->rdma[0])
		return 0;
	if (fs_pl_rdma_verify(ctx->sysfs_root, job->rdma, &want, &ctx->rdma_got, err, errlen)) {
		if (ctx->rdma_got.pkey_missing)
			ctx->fault = FS_PL_FAULT_JOB;
		return -1;
	}
	if (want.rate || want.pkey || ctx->rdma_got.nroce)
		fs_pl_log(ctx, job->jobid, "RDMA: %u port(s) ACTIVE%s%s%s%s%s%s",
			  ctx->rdma_got.nports, want.rate ? ", at RdmaRate or faster" : "",
			  ctx->rdma_got.nroce ? ", RoCE ones on a net device up with a RoCE v2 GID"
					      : "",
			  ctx->rdma_got.npfc ? " and PFC on for the jobs' priority" : "",
			  ctx->rdma_got.nodcb ? " (a net device without DCB: PFC not checked)" : "",
			  want.pkey ? ", holding the account's P_Key" : "",
			  want.pkey && ctx->rdma_got.pkey_index < 0
				  ? " (at different indexes: no NCCL_IB_PKEY)"
				  : "");
	/* rdma.max: kept in the job's cgroup, nothing to give back */
	if (fs_pl_rdma_limit(ctx, job->jobid, job->uid, job->rdma, err, errlen) < 0)
		return -1;
	return 0;
}

/* A mount base we cannot use: fail before touching any pool; the same
   for the scratch base, and a scratch pool must be configured. */
static int _bases_check(struct fs_pl_ctx *ctx, const struct fs_pl_job *job, char *err,
			size_t errlen)
{
	int fd;

	if (job->npages) {
		if ((fd = fs_pl_open_root_dir(ctx->mount_base, 1, 0755, err, errlen)) < 0)
			return -1;
		close(fd);
	}
	if (job->scratch_gib) {
		if (!ctx->has_target) {
			ctx->fault = FS_PL_FAULT_JOB; /* the job's option */
			return fs_errf(err, errlen,
				       "the job asks for a %" PRIu64
				       " GiB scratch volume but fabsched.conf "
				       "names no scratch pool; expected "
				       "ScratchTraddr and ScratchSubsysNQN",
				       job->scratch_gib);
		}
		if ((fd = fs_pl_open_root_dir(ctx->scratch_base, 1, 0755, err, errlen)) < 0)
			return -1;
		close(fd);
	}
	return 0;
}

/* The job's ledger @l as planned (a pool per NUMA node and page size, a
   mount per page size, the scratch volume), saved before anything is
   taken: nothing is to give back if this fails. */
static int _ledger_new(struct fs_pl_ctx *ctx, const struct fs_pl_job *job, struct fs_pl_ledger *l,
		       char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	l->jobid = job->jobid;
	l->uid = job->uid;
	l->gid = job->gid;
	if (job->scratch_gib) {
		l->has_scratch = true;
		l->scratch.gib = job->scratch_gib;
		l->scratch.fs = job->scratch_fs;
		if ((size_t)snprintf(l->scratch.path, sizeof(l->scratch.path), "%s/%u",
				     ctx->scratch_base, job->jobid) >= sizeof(l->scratch.path))
			return fs_errf(err, errlen, "ScratchBase too long");
	}
	for (size_t i = 0; i < job->npages; i++) {
		struct fs_pl_pool_rec *p = &l->pools[l->npools++];
		struct fs_pl_mount_rec *m = NULL;

		p->node = job->pages[i].node;
		p->page_kb = job->pages[i].page_kb;
		p->want = job->pages[i].pages;
		for (size_t k = 0; k < l->nmounts; k++)
			if (l->mounts[k].page_kb == p->page_kb)
				m = &l->mounts[k];
		if (!m) {
			m = &l->mounts[l->nmounts++];
			m->page_kb = p->page_kb;
			if ((size_t)snprintf(m->path, sizeof(m->path), "%s/%u-%s", ctx->mount_base,
					     job->jobid,
					     fs_pl_page_type(p->page_kb)) >= sizeof(m->path))
				return fs_errf(err, errlen, "HugepageMountBase too long");
		}
		m->bytes += p->want * p->page_kb * 1024;
	}
	if (_save_step(ctx, l, "ledger", err, errlen))
		return -1;
	_checkpoint(ctx, "ledger");
	return 0;
}

/* Every pool's pages reserved, then every page size's hugetlbfs mounted. */
static int _reserve_mount(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, char *err, size_t errlen)
{
	for (size_t i = 0; i < l->npools; i++)
		if (_reserve_pool(ctx, l, &l->pools[i], err, errlen))
			return -1;
	if (_save_step(ctx, l, "reserve", err, errlen))
		return -1;
	_checkpoint(ctx, "reserve");

	for (size_t i = 0; i < l->nmounts; i++)
		if (_mount(ctx, l, &l->mounts[i], err, errlen))
			return -1;
	if (_save_step(ctx, l, "mount", err, errlen))
		return -1;
	_checkpoint(ctx, "mount");
	return 0;
}

/* The hugetlb limits of the job's cgroup, where there is one with the
   controller (the ledger names it first, so that the release resets
   them). */
static int _cgroup_limits(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, char *err, size_t errlen)
{
	int rc = l->nmounts
			 ? fs_pl_cgroup_find(ctx, l, l->cgroup, sizeof(l->cgroup), &l->cg_version)
			 : 1;

	if (!l->nmounts) {
		l->cg_version = 0;
	} else if (!rc) {
		fs_pl_log(ctx, l->jobid,
			  "no job cgroup with the hugetlb controller "
			  "(e.g. proctrack/linuxproc, or not made yet: the SPANK "
			  "plugin sets the limits as the job's tasks start): "
			  "hugetlb limits skipped");
	} else {
		/* the same writer as the SPANK plugin's (jobcg.c) */
		if (fs_pl_ledger_save(ctx, l, err, errlen) ||
		    fs_pl_cgroup_apply(ctx, l->jobid, l->cgroup, l->cg_version, l, NULL, err,
				       errlen) < 0)
			return -1;
	}
	if (_save_step(ctx, l, "cgroup", err, errlen))
		return -1;
	_checkpoint(ctx, "cgroup");
	return 0;
}

/* The NVMe-oF scratch volume, when the job asks for one. */
static int _scratch(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, char *err, size_t errlen)
{
	/* the volume is the job's alone (its namespace, its mount
	   point, its ledger): set up without the helpers' lock, so
	   that a slow connect or mkfs never keeps other jobs' helpers
	   waiting, then the lock again for what is shared */
	bool locked = ctx->lockfd >= 0;
	char m1[FS_MSG_SIZE];
	int failed;

	if (!l->has_scratch)
		return 0;
	if (locked)
		fs_pl_unlock(ctx);
	failed = fs_pl_scratch_setup(ctx, l, ctx->scratch_path, sizeof(ctx->scratch_path), err,
				     errlen) ||
		 _save_step(ctx, l, "scratch", err, errlen);
	if (locked && fs_pl_lock(ctx, m1, sizeof(m1))) {
		if (!failed)
			fs_errf(err, errlen, "%s", m1);
		failed = 1;
		ctx->fault = FS_PL_FAULT_NODE;
	}
	if (failed)
		return -1;
	_checkpoint(ctx, "scratch");
	return 0;
}

/* A phase failed (@err says why): give back what this prolog took. */
static int _undo(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, const char *err)
{
	char m1[FS_MSG_SIZE];

	fs_pl_log(ctx, l->jobid, "%s; giving back what this prolog took", err);
	if (_release_ledger(ctx, l, m1, sizeof(m1))) {
		/* whatever the job asked, the node now holds what it cannot
		   give back: the node's fault */
		fs_pl_log(ctx, l->jobid, "giving back failed too: %s", m1);
		ctx->fault = FS_PL_FAULT_NODE;
	}
	return -1;
}

int fs_pl_prolog(struct fs_pl_ctx *ctx, const struct fs_pl_job *job, char *mount_out,
		 size_t mount_sz, char *err, size_t errlen)
{
	static struct fs_pl_ledger l;

	if (mount_out && mount_sz)
		mount_out[0] = 0;
	ctx->scratch_path[0] = 0;
	if (_undo_earlier(ctx, job, &l, err, errlen) || _rdma_check(ctx, job, err, errlen))
		return -1;
	if (!job->npages && !job->scratch_gib)
		return 0;
	if (_bases_check(ctx, job, err, errlen) || _ledger_new(ctx, job, &l, err, errlen))
		return -1;
	/* from here on the ledger holds what was taken: a failure gives it back */
	if (_reserve_mount(ctx, &l, err, errlen) || _cgroup_limits(ctx, &l, err, errlen) ||
	    _scratch(ctx, &l, err, errlen) || _save_step(ctx, &l, "done", err, errlen))
		return _undo(ctx, &l, err);
	_checkpoint(ctx, "done");
	if (mount_out && l.nmounts)
		snprintf(mount_out, mount_sz, "%s", l.mounts[0].path);
	return 0;
}
