/*
 * rdmacg.c - rdma cgroup limits: rdma.max of the job's cgroup (v2), one
 * line per HCA allocated to the job, where the kernel has the rdma
 * controller (RdmaMaxHcaHandles, RdmaMaxHcaObjects; fabsched-prolog(8)).
 *
 * Nothing is recorded in the ledger: the limits live in the job's cgroup
 * and go with it, so the epilog and the sweep have nothing to give back.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fabsched_prolog.h"
#include "fs_values.h"
#include "prolog_private.h"

#define HCA_NAME_MAX 63 /* the kernel's IB_DEVICE_NAME_MAX less NUL */
#define MAX_HCAS 64	/* distinct HCAs of one job */
#define LINE_SIZE 128

static int _hca_ok(const char *s, size_t n)
{
	if (!n || n > HCA_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || strchr("_.-", s[i])))
			return 0;
	return 1;
}

static const char *_count(uint32_t v, char *buf, size_t sz)
{
	if (!v)
		return "max";
	snprintf(buf, sz, "%" PRIu32, v);
	return buf;
}

int fs_pl_rdma_max_line(const char *hca, uint32_t handles, uint32_t objects, char *buf,
			size_t bufsz, char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE], h[16], o[16];
	size_t n = strlen(hca);

	if (!_hca_ok(hca, n))
		return fs_errf(err, errlen,
			       "HCA \"%s\": not a device name; "
			       "expected 1 to %d bytes of [A-Za-z0-9_.-]",
			       fs_escape(esc, sizeof(esc), hca, n), HCA_NAME_MAX);
	if (handles > FS_PL_RDMA_MAX_LIMIT || objects > FS_PL_RDMA_MAX_LIMIT)
		return fs_errf(err, errlen,
			       "rdma limit %" PRIu32 ": out of "
			       "range; expected 1 to %u, or unset",
			       handles > FS_PL_RDMA_MAX_LIMIT ? handles : objects,
			       FS_PL_RDMA_MAX_LIMIT);
	if ((size_t)snprintf(buf, bufsz, "%s hca_handle=%s hca_object=%s", hca,
			     _count(handles, h, sizeof(h)), _count(objects, o, sizeof(o))) >= bufsz)
		return fs_errf(err, errlen, "HCA %s: rdma.max line too long", hca);
	return 0;
}

/*
 * Does file name of the directory dirfd (dir, for messages) hold word
 * among its blank-separated words?  1 yes, 0 no (or no such file), -1 error.
 */
static int _lists(int dirfd, const char *dir, const char *name, const char *word, char *err,
		  size_t errlen)
{
	char buf[4096], *save = NULL;
	ssize_t n;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return fs_errf(err, errlen, "%s/%s: %s", dir, name, strerror(errno));
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return fs_errf(err, errlen, "%s/%s: %s", dir, name, strerror(errno));
	buf[n] = 0;
	for (char *t = strtok_r(buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save))
		if (!strcmp(t, word))
			return 1;
	return 0;
}

/* (prolog_private.h) */
int fs_pl_write_at(int dirfd, const char *dir, const char *name, const char *s, char *err,
		   size_t errlen)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd = openat(dirfd, name, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return fs_errf(err, errlen, "%s/%s: %s", dir, name, strerror(errno));
	n = write(fd, s, len);
	if (n != (ssize_t)len) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		return fs_errf(err, errlen, "%s/%s: writing \"%.*s\": %s", dir, name,
			       (int)strcspn(s, "\n"), s, strerror(e));
	}
	if (close(fd))
		return fs_errf(err, errlen, "%s/%s: %s", dir, name, strerror(errno));
	return 0;
}

/* The rdma.max lines of list, each HCA once; returns the count or -1. */
static long _lines(const struct fs_pl_ctx *ctx, const char *list, char lines[][LINE_SIZE],
		   char names[][HCA_NAME_MAX + 1], char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE];
	const char *p = list;
	long nh = 0;

	while (*p) {
		size_t len = strcspn(p, ","), nlen = strcspn(p, ":,");
		const char *port = p + nlen;
		int dup = 0;

		if (*port == ':') { /* a port: digits; rdma.max is per HCA */
			size_t pl = len - nlen - 1;

			if (!pl || pl > 5 || strspn(port + 1, "0123456789") != pl)
				goto bad;
		}
		if (!_hca_ok(p, nlen))
			goto bad;
		for (long i = 0; i < nh && !dup; i++)
			dup = strlen(names[i]) == nlen && !strncmp(names[i], p, nlen);
		if (!dup) {
			if (nh == MAX_HCAS)
				return fs_errf(err, errlen,
					       "FABSCHED_RDMA_DEVICES: "
					       "more than %d HCAs",
					       MAX_HCAS);
			memcpy(names[nh], p, nlen);
			names[nh][nlen] = 0;
			if (fs_pl_rdma_max_line(names[nh], ctx->rdma_max_handles,
						ctx->rdma_max_objects, lines[nh], LINE_SIZE, err,
						errlen))
				return -1;
			nh++;
		}
		p += len;
		if (*p == ',' && !*++p)
			goto bad; /* a trailing comma */
	}
	return nh;
bad:
	return fs_errf(err, errlen,
		       "FABSCHED_RDMA_DEVICES=\"%s\": expected "
		       "comma-separated HCA names [A-Za-z0-9_.-] (at most %d "
		       "bytes) with an optional :<port>",
		       fs_escape(esc, sizeof(esc), list, strlen(list)), HCA_NAME_MAX);
}

int fs_pl_rdma_limit(struct fs_pl_ctx *ctx, uint32_t jobid, uid_t uid, const char *list, char *err,
		     size_t errlen)
{
	static char lines[MAX_HCAS][LINE_SIZE];
	static char names[MAX_HCAS][HCA_NAME_MAX + 1];
	char cg[FS_PL_PATH];
	int version;

	if ((!ctx->rdma_max_handles && !ctx->rdma_max_objects) || !list || !*list)
		return 0;
	if (_lines(ctx, list, lines, names, err, errlen) < 0)
		return -1;
	if (!fs_pl_cgroup_find_job(ctx, jobid, uid, cg, sizeof(cg), &version)) {
		if (ctx->verbose)
			fs_pl_log(ctx, jobid,
				  "no job cgroup (e.g. "
				  "proctrack/linuxproc): rdma limits skipped");
		return 0;
	}
	/* the same writes as from a task (fs_pl_task_limits) */
	return fs_pl_cgroup_apply(ctx, jobid, cg, version, NULL, list, err, errlen);
}

int fs_pl_rdma_cg_write(struct fs_pl_ctx *ctx, uint32_t jobid, const char *cg, int version, int pfd,
			int jfd, const char *list, char *err, size_t errlen)
{
	static char lines[MAX_HCAS][LINE_SIZE];
	static char names[MAX_HCAS][HCA_NAME_MAX + 1];
	char parent[FS_PL_PATH], m1[FS_MSG_SIZE];
	char h[16], o[16];
	const char *base;
	long nh;
	int has;

	if ((!ctx->rdma_max_handles && !ctx->rdma_max_objects) || !list || !*list)
		return 0;
	if ((nh = _lines(ctx, list, lines, names, err, errlen)) < 0)
		return -1;
	if (version != 2) {
		if (ctx->verbose)
			fs_pl_log(ctx, jobid,
				  "%s: cgroup v1; rdma limits are "
				  "written on cgroup v2 only: skipped",
				  cg);
		return 0;
	}
	if (!(base = strrchr(cg, '/')) || base == cg)
		return fs_errf(err, errlen, "%s: expected <parent>/job_%u", cg, jobid);
	snprintf(parent, sizeof(parent), "%.*s", (int)(base - cg), cg);
	if ((has = _lists(jfd, cg, "cgroup.controllers", "rdma", err, errlen)) < 0)
		return -1;
	if (!has) {
		/* what the parent may hand down: the kernel's controllers */
		if ((has = _lists(pfd, parent, "cgroup.controllers", "rdma", err, errlen)) < 0)
			return -1;
		if (!has) {
			if (ctx->verbose)
				fs_pl_log(ctx, jobid,
					  "no rdma cgroup controller "
					  "(%s/cgroup.controllers does not list "
					  "rdma): rdma limits skipped",
					  parent);
			return 0;
		}
		if (fs_pl_write_at(pfd, parent, "cgroup.subtree_control", "+rdma", m1,
				   sizeof(m1))) {
			fs_pl_log(ctx, jobid,
				  "cannot enable the rdma controller "
				  "for the job's cgroup: %s; rdma limits skipped",
				  m1);
			return 0;
		}
		fs_pl_log(ctx, jobid,
			  "%s/cgroup.subtree_control: rdma "
			  "controller enabled",
			  parent);
	}
	for (long i = 0; i < nh; i++) {
		char line[LINE_SIZE + 1];

		snprintf(line, sizeof(line), "%s\n", lines[i]);
		if (fs_pl_write_at(jfd, cg, "rdma.max", line, m1, sizeof(m1)))
			return fs_errf(err, errlen,
				       "%s; expected an RDMA device "
				       "the kernel knows (RdmaMaxHcaHandles, "
				       "RdmaMaxHcaObjects)",
				       m1);
	}
	fs_pl_log(ctx, jobid,
		  "%s: rdma limits set on %ld HCA(s) (hca_handle=%s "
		  "hca_object=%s)",
		  cg, nh, _count(ctx->rdma_max_handles, h, sizeof(h)),
		  _count(ctx->rdma_max_objects, o, sizeof(o)));
	return 1;
}
