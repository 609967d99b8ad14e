/*
 * jobcg.c - the job's cgroup limits (hugetlb.<size>.max, rdma.max), set by
 * the prolog when the job's cgroup exists when it runs, and by the SPANK
 * plugin from a task in slurmstepd (fs_pl_task_limits) when it does not:
 * Slurm 22.05's slurmd runs the Prolog before it creates the job's cgroup.
 * Both paths write through fs_pl_cgroup_apply.  Nothing here needs Slurm.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fabsched_prolog.h"
#include "prolog_private.h"

/* ------------------------------------------------------------ opening */

int fs_pl_cgroup_open(const char *cg, int *pfd, char *err, size_t errlen)
{
	char parent[FS_PL_PATH];
	const char *base = strrchr(cg, '/');
	struct stat st;
	int jfd;

	*pfd = -1;
	if (!base || base == cg || !base[1] || strlen(cg) >= sizeof(parent))
		return fs_errf(err, errlen, "%s: expected <parent>/job_<id>", cg);
	snprintf(parent, sizeof(parent), "%.*s", (int)(base - cg), cg);
	base++;
	if ((*pfd = fs_pl_open_root_dir(parent, 0, 0, err, errlen)) < 0)
		return -1;
	jfd = openat(*pfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (jfd < 0) {
		fs_errf(err, errlen, "%s: %s", cg,
			errno == ELOOP || errno == ENOTDIR ? "not a directory (symbolic link?): "
							     "refusing to use it"
							   : strerror(errno));
		goto fail;
	}
	if (fstat(jfd, &st)) {
		fs_errf(err, errlen, "%s: %s", cg, strerror(errno));
		goto fail_j;
	}
	if (st.st_uid != 0) {
		fs_errf(err, errlen,
			"%s: owned by uid %u, not root: refusing "
			"to use it",
			cg, (unsigned)st.st_uid);
		goto fail_j;
	}
	return jfd;
fail_j:
	close(jfd);
fail:
	close(*pfd);
	*pfd = -1;
	return -1;
}

/* ------------------------------------------------------------ hugetlb */

static const char *_cg_size(uint64_t page_kb)
{
	return page_kb == 2048 ? "2MB" : page_kb == 1048576 ? "1GB" : NULL;
}

/*
 * One hugetlb file of the job cgroup open as jfd: 1 written, 0 it already
 * held value, -2 no such file (no hugetlb controller there), -1 error.
 */
static int _hugetlb_file(int jfd, const char *cg, const char *name, const char *value, char *err,
			 size_t errlen)
{
	char cur[64];
	ssize_t n;
	int fd = openat(jfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT)
			return -2;
		return fs_errf(err, errlen, "%s/%s: %s", cg, name, strerror(errno));
	}
	n = read(fd, cur, sizeof(cur) - 1);
	close(fd);
	if (n >= 0) {
		cur[n] = 0;
		cur[strcspn(cur, "\n")] = 0;
		if (!strcmp(cur, value))
			return 0;
	}
	return fs_pl_write_at(jfd, cg, name, value, err, errlen) ? -1 : 1;
}

/* hugetlb limit of one page size; returns as _hugetlb_file (max of both) */
static int _hugetlb_set(int jfd, const char *cg, int version, uint64_t page_kb, const char *value,
			char *err, size_t errlen)
{
	static const char *const v2[] = { "max", "rsvd.max" };
	static const char *const v1[] = { "limit_in_bytes", "rsvd.limit_in_bytes" };
	const char *sz = _cg_size(page_kb);
	int rc = 0;

	if (!sz)
		return fs_errf(err, errlen,
			       "page size %" PRIu64 " kB has no "
			       "hugetlb controller file",
			       page_kb);
	for (int i = 0; i < 2; i++) {
		char f[64];
		int r;

		snprintf(f, sizeof(f), "hugetlb.%s.%s", sz, version == 2 ? v2[i] : v1[i]);
		r = _hugetlb_file(jfd, cg, f, value, err, errlen);
		if (r == -1)
			return -1;
		if (r == -2) {
			if (i == 0)
				return -2;
			continue; /* kernels without reservation limits */
		}
		if (r > rc)
			rc = r;
	}
	return rc;
}

int fs_pl_cgroup_limit(const char *cg, int version, uint64_t page_kb, const char *value, char *err,
		       size_t errlen)
{
	int pfd, jfd = fs_pl_cgroup_open(cg, &pfd, err, errlen), rc;

	if (jfd < 0)
		return -1;
	rc = _hugetlb_set(jfd, cg, version, page_kb, value, err, errlen);
	if (rc == -2)
		fs_errf(err, errlen, "%s/hugetlb.%s.%s: %s", cg, _cg_size(page_kb),
			version == 2 ? "max" : "limit_in_bytes", strerror(ENOENT));
	close(jfd);
	close(pfd);
	return rc < 0 ? -1 : 0;
}

/* ------------------------------------------------------------ both */

int fs_pl_cgroup_apply(struct fs_pl_ctx *ctx, uint32_t jobid, const char *cg, int version,
		       const struct fs_pl_ledger *l, const char *rdma, char *err, size_t errlen)
{
	bool want_rdma = rdma && *rdma && (ctx->rdma_max_handles || ctx->rdma_max_objects);
	size_t nmounted = 0, nset = 0;
	int pfd, jfd, rc = 0, r;

	for (size_t i = 0; l && i < l->nmounts; i++)
		nmounted += l->mounts[i].state == FS_PL_MOUNT_MOUNTED;
	if (!nmounted && !want_rdma)
		return 0;
	if ((jfd = fs_pl_cgroup_open(cg, &pfd, err, errlen)) < 0)
		return -1;
	for (size_t i = 0; nmounted && i < l->nmounts; i++) {
		const struct fs_pl_mount_rec *m = &l->mounts[i];
		char v[32];

		if (m->state != FS_PL_MOUNT_MOUNTED)
			continue;
		snprintf(v, sizeof(v), "%" PRIu64, m->bytes);
		r = _hugetlb_set(jfd, cg, version, m->page_kb, v, err, errlen);
		if (r == -1) {
			rc = -1;
			goto out;
		}
		if (r == -2) {
			fs_pl_log(ctx, jobid,
				  "%s: no hugetlb.%s.%s (no hugetlb "
				  "controller in the job's cgroup): hugetlb "
				  "limits skipped",
				  cg, _cg_size(m->page_kb),
				  version == 2 ? "max" : "limit_in_bytes");
			break;
		}
		nset += (size_t)r;
		rc = 1;
	}
	if (nset)
		fs_pl_log(ctx, jobid, "%s: hugetlb limits set (cgroup v%d)", cg, version);
	else if (rc && ctx->verbose)
		fs_pl_log(ctx, jobid, "%s: hugetlb limits already set", cg);
	if (want_rdma) {
		r = fs_pl_rdma_cg_write(ctx, jobid, cg, version, pfd, jfd, rdma, err, errlen);
		if (r < 0)
			rc = -1;
		else if (r > 0)
			rc = 1;
	}
out:
	close(jfd);
	close(pfd);
	return rc;
}

/* ------------------------------------------------------------ from a task */

/*
 * Length of the prefix of the cgroup path rel ("/a/job_7/step_0") that
 * ends with the component comp ("job_7"), 0 when no component is comp or
 * a component is "." or "..".
 */
static size_t _job_prefix(const char *rel, const char *comp)
{
	size_t clen = strlen(comp), end = 0;
	const char *p = rel;

	if (*p != '/')
		return 0;
	while (*p == '/') {
		size_t n = strcspn(p + 1, "/");

		if ((n == 1 && p[1] == '.') || (n == 2 && !strncmp(p + 1, "..", 2)))
			return 0;
		if (!end && n == clen && !strncmp(p + 1, comp, n))
			end = (size_t)(p + 1 + n - rel);
		p += 1 + n;
	}
	return end;
}

int fs_pl_cgroup_of_pid(struct fs_pl_ctx *ctx, pid_t pid, uint32_t jobid, char *path, size_t pathsz,
			int *version, char *err, size_t errlen)
{
	char f[FS_PL_PATH], buf[8192], comp[32], mp[FS_PL_PATH];
	const char *proc = ctx->proc_root ? ctx->proc_root : "/proc";
	char *rel[3] = { NULL, NULL, NULL }, *save = NULL;
	ssize_t n;
	int fd;

	*version = 0;
	path[0] = 0;
	if (pid <= 0)
		return fs_errf(err, errlen, "task pid %d: expected a process id", (int)pid);
	snprintf(f, sizeof(f), "%s/%d/cgroup", proc, (int)pid);
	if ((fd = open(f, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return fs_errf(err, errlen, "%s: %s", f, strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return fs_errf(err, errlen, "%s: %s", f, strerror(errno));
	buf[n] = 0;
	/* "<id>:<controllers>:<path>"; v2: "0::<path>" */
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			return fs_errf(err, errlen,
				       "%s: \"%.64s\": expected "
				       "<id>:<controllers>:<path>",
				       f, line);
		*c1 = *c2 = 0;
		if (!strcmp(line, "0") && !c1[1]) {
			rel[2] = c2 + 1;
			continue;
		}
		for (char *s2 = NULL, *o = strtok_r(c1 + 1, ",", &s2); o;
		     o = strtok_r(NULL, ",", &s2))
			if (!strcmp(o, "hugetlb"))
				rel[1] = c2 + 1;
	}
	snprintf(comp, sizeof(comp), "job_%u", jobid);
	for (int v = 2; v >= 1; v--) {
		size_t len;

		if (!rel[v])
			continue;
		/* 26.05's cgroup/v2 names the job by its SLUID unless
		 * CgroupJobIdPaths=yes */
		if (!(len = _job_prefix(rel[v], comp)) && ctx->job_sluid[0])
			len = _job_prefix(rel[v], ctx->job_sluid);
		if (!len)
			continue;
		if (ctx->cgroup_root)
			snprintf(mp, sizeof(mp), "%s%s", ctx->cgroup_root,
				 v == 2 ? "" : "/hugetlb");
		else if (!fs_pl_cgroup_mount(v, mp, sizeof(mp)))
			continue;
		if ((size_t)snprintf(path, pathsz, "%s%.*s", mp, (int)len, rel[v]) >= pathsz)
			return fs_errf(err, errlen,
				       "%s: job cgroup path longer "
				       "than %zu bytes",
				       f, pathsz - 1);
		*version = v;
		return 1;
	}
	path[0] = 0;
	fs_errf(err, errlen,
		"%s: neither the cgroup v2 path nor the v1 "
		"hugetlb one is under a %s%s%s directory",
		f, comp, ctx->job_sluid[0] ? " or " : "", ctx->job_sluid);
	return 0;
}

int fs_pl_task_limits(struct fs_pl_ctx *ctx, uint32_t jobid, uid_t uid, pid_t pid, const char *rdma,
		      char *err, size_t errlen)
{
	static struct fs_pl_ledger l;
	char cg[FS_PL_PATH];
	struct stat st;
	int version, rc, have = 0;

	if (err && errlen)
		err[0] = 0;
	rc = fs_pl_cgroup_of_pid(ctx, pid, jobid, cg, sizeof(cg), &version, err, errlen);
	if (rc <= 0)
		return rc;
	/* the pages the prolog reserved: its ledger (none: no hugepages) */
	if (stat(ctx->state_dir, &st) == 0 || errno != ENOENT) {
		rc = fs_pl_ledger_load(ctx, jobid, &l, err, errlen);
		if (rc < 0)
			return -1;
		if (rc == 0 && l.uid != uid)
			return fs_errf(err, errlen,
				       "%s/jobs/%u: names uid %u, "
				       "the job runs as uid %u: hugetlb limits "
				       "not set",
				       ctx->state_dir, jobid, (unsigned)l.uid, (unsigned)uid);
		have = rc == 0;
	}
	rc = fs_pl_cgroup_apply(ctx, jobid, cg, version, have ? &l : NULL, rdma, err, errlen);
	if (rc == 0 && err && errlen && !err[0])
		fs_errf(err, errlen,
			"%s: no limit to set (no hugepages in the "
			"ledger, no RDMA limit for the job's HCAs)",
			cg);
	return rc;
}
