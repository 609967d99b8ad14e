/*
 * scratch.c - the job's NVMe-oF scratch volume on this node: connect to the
 * pool's target, create and attach a namespace of the job's size, make the
 * filesystem, mount it at <ScratchBase>/<jobid> for the job's user; and
 * back: unmount, discard, delete, disconnect (when no other job of the node
 * uses the controller).  Every step is recorded in the job's ledger before
 * the next one, so that the epilog or the sweep can finish from any point.
 * Everything that touches the machine goes through ctx->nvme (the seam).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fabsched_prolog.h"
#include "fs_jobreq.h"
#include "prolog_private.h"

static const struct fs_pl_nvme_ops *_ops(struct fs_pl_ctx *ctx)
{
	return ctx->nvme ? ctx->nvme : fs_pl_nvme_ops_real();
}

static void _checkpoint(struct fs_pl_ctx *ctx, const char *step)
{
	if (ctx->checkpoint)
		ctx->checkpoint(step, ctx->checkpoint_arg);
}

static const char *_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* ------------------------------------------------------------ host files */

static int _read_small(const char *path, char *buf, size_t bufsz, char *err, size_t errlen)
{
	char tmp[512];
	size_t n;

	if (fs_pl_read_line(path, tmp, sizeof(tmp), err, errlen))
		return -1;
	n = strlen(tmp);
	while (n && isspace((unsigned char)tmp[n - 1]))
		tmp[--n] = 0;
	if (!n || n >= bufsz)
		return fs_errf(err, errlen, "%s: %s", path, n ? "too long" : "empty");
	memcpy(buf, tmp, n + 1);
	return 0;
}

int fs_pl_scratch_host(const char *nqn_file, const char *id_file, struct fs_pl_scratch_target *t,
		       char *err, size_t errlen)
{
	if (_read_small(nqn_file, t->hostnqn, sizeof(t->hostnqn), err, errlen))
		return -1;
	if (strncmp(t->hostnqn, "nqn.", 4))
		return fs_errf(err, errlen,
			       "%s: \"%.64s\" is not a host NQN; "
			       "expected nqn.<yyyy-mm>.<domain>:<name>",
			       nqn_file, t->hostnqn);
	for (const char *c = t->hostnqn; *c; c++)
		if (*c <= 0x20 || *c >= 0x7f || *c == ',' || *c == '=')
			return fs_errf(err, errlen,
				       "%s: the host NQN holds a "
				       "blank, ',', '=' or a non-ASCII byte; "
				       "expected printable ASCII",
				       nqn_file);
	if (_read_small(id_file, t->hostid, sizeof(t->hostid), err, errlen))
		return -1;
	/* a UUID: 8-4-4-4-12 hex digits */
	for (size_t i = 0; i < 36; i++) {
		char c = t->hostid[i];
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? c != '-' : !isxdigit((unsigned char)c))
			return fs_errf(err, errlen,
				       "%s: \"%.40s\" is not a host "
				       "ID; expected a UUID "
				       "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)",
				       id_file, t->hostid);
	}
	if (t->hostid[36])
		return fs_errf(err, errlen,
			       "%s: \"%.40s\" is not a host ID; "
			       "expected a UUID",
			       id_file, t->hostid);
	return 0;
}

/* ------------------------------------------------------------ setup */

/* Create <base>/<jobid> root-owned 0700 (or find the one we made). */
static int _mkdir(struct fs_pl_ctx *ctx, const char *path, char *err, size_t errlen)
{
	const char *name = _name(path);
	struct stat st;
	int bfd, fd;

	if ((bfd = fs_pl_open_root_dir(ctx->scratch_base, 1, 0755, err, errlen)) < 0)
		return -1;
	if (mkdirat(bfd, name, 0700) && errno != EEXIST) {
		fs_errf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
		close(bfd);
		return -1;
	}
	fd = openat(bfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(bfd);
	if (fd < 0)
		return fs_errf(err, errlen, "%s: %s: refusing to use it", path,
			       errno == ELOOP || errno == ENOTDIR
				       ? "not a directory (symbolic link?)"
				       : strerror(errno));
	if (fstat(fd, &st) || st.st_uid != 0 || (st.st_mode & 07777) != 0700) {
		fs_errf(err, errlen,
			"%s: exists, owned by uid %u mode %04o, "
			"not created by fabsched (root, 0700): refusing to use it",
			path, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		close(fd);
		return -1;
	}
	return fd;
}

int fs_pl_scratch_setup(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, char *path_out,
			size_t pathsz, char *err, size_t errlen)
{
	const struct fs_pl_nvme_ops *ops = _ops(ctx);
	struct fs_pl_scratch_rec *r = &l->scratch;
	int dfd = -1;

	if (path_out && pathsz)
		path_out[0] = 0;
	if (!ctx->has_target)
		return fs_errf(err, errlen,
			       "the job asks for a %" PRIu64 " GiB "
			       "scratch volume but fabsched.conf names no "
			       "scratch pool; expected ScratchTraddr and "
			       "ScratchSubsysNQN",
			       r->gib);
	if ((dfd = _mkdir(ctx, r->path, err, errlen)) < 0)
		return -1;
	_checkpoint(ctx, "scratch-mkdir");

	if (ops->connect(&ctx->target, r->ctrl, sizeof(r->ctrl), err, errlen))
		goto fail;
	r->state = FS_PL_SCRATCH_CONNECTED;
	if (fs_pl_ledger_save(ctx, l, err, errlen))
		goto fail;
	fs_pl_log(ctx, l->jobid, "scratch: %s connected to %s %s:%s %s", r->ctrl,
		  ctx->target.transport, ctx->target.traddr, ctx->target.trsvcid,
		  ctx->target.subsysnqn);
	_checkpoint(ctx, "scratch-connect");

	r->state = FS_PL_SCRATCH_CREATING;
	if (fs_pl_ledger_save(ctx, l, err, errlen))
		goto fail;
	/* the pool is the cluster's: a volume it cannot make now (full) is
	   the job's request not met, not this node's fault */
	if (ops->ns_create(r->ctrl, r->gib << 30, &r->nsid, err, errlen)) {
		ctx->fault = FS_PL_FAULT_JOB;
		goto fail;
	}
	r->state = FS_PL_SCRATCH_CREATED;
	if (fs_pl_ledger_save(ctx, l, err, errlen))
		goto fail;
	_checkpoint(ctx, "scratch-create");
	if (ops->ns_blockdev(r->ctrl, r->nsid, r->dev, sizeof(r->dev), err, errlen) ||
	    fs_pl_ledger_save(ctx, l, err, errlen))
		goto fail;
	fs_pl_log(ctx, l->jobid, "scratch: namespace %u of %" PRIu64 " GiB is %s", r->nsid, r->gib,
		  r->dev);

	if (ops->mkfs(r->dev, r->fs, err, errlen))
		goto fail;
	r->state = FS_PL_SCRATCH_FORMATTED;
	if (fs_pl_ledger_save(ctx, l, err, errlen))
		goto fail;
	_checkpoint(ctx, "scratch-mkfs");

	if (ops->mount(r->dev, r->fs, dfd, r->path, l->uid, l->gid, err, errlen))
		goto fail;
	close(dfd);
	dfd = -1;
	r->state = FS_PL_SCRATCH_MOUNTED;
	if (fs_pl_ledger_save(ctx, l, err, errlen))
		return -1;
	fs_pl_log(ctx, l->jobid, "scratch: %s (%s) mounted at %s for uid %u", r->dev,
		  fs_scratch_fs_name(r->fs), r->path, (unsigned)l->uid);
	ctx->scratch_set_up = true;
	_checkpoint(ctx, "scratch-mount");
	if (path_out)
		snprintf(path_out, pathsz, "%s", r->path);
	return 0;
fail:
	if (dfd >= 0)
		close(dfd);
	return -1;
}

/* ------------------------------------------------------------ release */

/* Does a ledger of another job use controller ctrl? */
static bool _ctrl_used_by_others(struct fs_pl_ctx *ctx, uint32_t self, const char *ctrl)
{
	static uint32_t ids[4096];
	static struct fs_pl_ledger o;
	long n = fs_pl_ledger_list(ctx, ids, 4096, NULL, 0);

	for (long i = 0; i < n; i++) {
		if (ids[i] == self || fs_pl_ledger_load(ctx, ids[i], &o, NULL, 0))
			continue;
		if (o.has_scratch && o.scratch.state != FS_PL_SCRATCH_GONE &&
		    !strcmp(o.scratch.ctrl, ctrl))
			return true;
	}
	return false;
}

static void _rmdir(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l)
{
	const char *path = l->scratch.path, *name = _name(path);
	char base[FS_PL_PATH];
	struct stat st;
	int bfd, fd;

	snprintf(base, sizeof(base), "%.*s", (int)(name - path - 1), path);
	if ((bfd = fs_pl_open_root_dir(base, 0, 0, NULL, 0)) < 0)
		return;
	fd = openat(bfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && !fstat(fd, &st) && st.st_uid == 0) {
		if (unlinkat(bfd, name, AT_REMOVEDIR) && errno != ENOENT)
			fs_pl_log(ctx, l->jobid, "%s: cannot remove: %s", path, strerror(errno));
	} else if (fd >= 0)
		fs_pl_log(ctx, l->jobid, "%s: owned by uid %u: left alone", path,
			  (unsigned)st.st_uid);
	if (fd >= 0)
		close(fd);
	close(bfd);
}

int fs_pl_scratch_release(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, char *err, size_t errlen)
{
	const struct fs_pl_nvme_ops *ops = _ops(ctx);
	struct fs_pl_scratch_rec *r = &l->scratch;
	char m1[FS_MSG_SIZE];

	if (!l->has_scratch || r->state == FS_PL_SCRATCH_GONE)
		return 0;
	for (int i = 0; i < 4 && ops->is_mounted(r->path) == 1; i++) {
		fs_pl_kill_users(ctx, l->jobid, r->path, l->uid);
		if (ops->umount(r->path, err, errlen) && i == 3)
			return -1;
	}
	if (ops->is_mounted(r->path) == 1)
		return fs_errf(err, errlen, "%s: still mounted", r->path);
	if (r->state == FS_PL_SCRATCH_MOUNTED) {
		r->state = FS_PL_SCRATCH_FORMATTED;
		if (fs_pl_ledger_save(ctx, l, err, errlen))
			return -1;
		fs_pl_log(ctx, l->jobid, "scratch: unmounted %s", r->path);
	}
	_rmdir(ctx, l);
	_checkpoint(ctx, "scratch-umount");
	if (r->nsid) {
		/* the blocks go back to the pool empty: nothing of this job is
		   readable by the next one, even on a target that does not
		   clear deleted namespaces */
		if (!r->dev[0])
			ops->ns_blockdev(r->ctrl, r->nsid, r->dev, sizeof(r->dev), NULL, 0);
		if (r->dev[0] && ops->discard(r->dev, m1, sizeof(m1)))
			fs_pl_log(ctx, l->jobid, "scratch: %s", m1);
		if (ops->ns_delete(r->ctrl, r->nsid, err, errlen))
			return -1;
		fs_pl_log(ctx, l->jobid,
			  "scratch: namespace %u (%s) discarded "
			  "and deleted",
			  r->nsid, r->dev[0] ? r->dev : "no device");
		r->nsid = 0;
		r->dev[0] = 0;
		r->state = FS_PL_SCRATCH_CONNECTED;
		if (fs_pl_ledger_save(ctx, l, err, errlen))
			return -1;
		_checkpoint(ctx, "scratch-delete");
	} else if (r->state == FS_PL_SCRATCH_CREATING) {
		fs_pl_log(ctx, l->jobid,
			  "scratch: the prolog stopped while the "
			  "target created a %" PRIu64 " GiB namespace; if the "
			  "target holds an unattached namespace of that size "
			  "from %s, delete it there",
			  r->gib, ctx->target.hostnqn[0] ? ctx->target.hostnqn : "this host");
	}
	if (r->ctrl[0]) {
		if (_ctrl_used_by_others(ctx, l->jobid, r->ctrl))
			fs_pl_log(ctx, l->jobid,
				  "scratch: %s still used by "
				  "another job: left connected",
				  r->ctrl);
		else if (ops->disconnect(r->ctrl, err, errlen))
			return -1;
		else
			fs_pl_log(ctx, l->jobid, "scratch: %s disconnected", r->ctrl);
		r->ctrl[0] = 0;
	}
	r->state = FS_PL_SCRATCH_GONE;
	return fs_pl_ledger_save(ctx, l, err, errlen);
}
