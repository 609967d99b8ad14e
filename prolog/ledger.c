/*
 * ledger.c - what each job got on this node, one file per job under
 * <StateDir>/jobs, written crash-safe (temporary file, fsync, rename,
 * fsync of the directory), root-only (0600 in a 0700 directory), and the
 * lock that serialises the helpers (<StateDir>/lock, flock).
 *
 * Text form:
 *   fabsched-ledger 1
 *   job <id> uid <uid> gid <gid> step <step>
 *   pool <node|any> <page_kb> <want> <before> <added> <target> <give> <state>
 *   mount <page_kb> <bytes> <state> <path>
 *   cgroup <version> <path>
 *   scratch <state> <xfs|ext4> <gib> <nsid> <ctrl|-> <dev|-> <path>
 *   end
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fabsched_prolog.h"
#include "prolog_private.h"

#define LEDGER_MAX 65536

static const char *const _pool_states[] = { "planned", "pending", "held", "releasing", "released" };
static const char *const _mount_states[] = { "planned", "mounted", "gone" };
static const char *const _scratch_states[] = { "planned",   "connected", "creating", "created",
					       "formatted", "mounted",	 "gone" };

void fs_pl_ctx_init(struct fs_pl_ctx *ctx, const char *prog)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->prog = prog;
	ctx->state_dir = "/var/lib/fabsched";
	ctx->mount_base = "/dev/hugepages-fabsched";
	ctx->sysfs_root = "";
	ctx->log = stderr;
	ctx->lockfd = -1;
	ctx->scratch_base = "/scratch";
	ctx->record_keep = 7 * 86400;
}

void fs_pl_log(struct fs_pl_ctx *ctx, uint32_t jobid, const char *fmt, ...)
{
	va_list ap;

	if (!ctx->log)
		return;
	if (jobid)
		fprintf(ctx->log, "%s: job %u: ", ctx->prog, jobid);
	else
		fprintf(ctx->log, "%s: ", ctx->prog);
	va_start(ap, fmt);
	vfprintf(ctx->log, fmt, ap);
	va_end(ap);
	fputc('\n', ctx->log);
	fflush(ctx->log);
}

int fs_pl_ledger_format(const struct fs_pl_ledger *l, char *buf, size_t bufsz)
{
	size_t off = 0;
	int n;

#define PUT(...)                                                   \
	do {                                                       \
		n = snprintf(buf + off, bufsz - off, __VA_ARGS__); \
		if (n < 0 || (size_t)n >= bufsz - off)             \
			return -1;                                 \
		off += (size_t)n;                                  \
	} while (0)
	PUT("fabsched-ledger 1\njob %u uid %u gid %u step %s\n", l->jobid, (unsigned)l->uid,
	    (unsigned)l->gid, l->step[0] ? l->step : "-");
	for (size_t i = 0; i < l->npools; i++) {
		const struct fs_pl_pool_rec *p = &l->pools[i];
		char node[16];

		if (p->node == FS_PL_NODE_ANY)
			strcpy(node, "any");
		else
			snprintf(node, sizeof(node), "%d", p->node);
		PUT("pool %s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		    " %s\n",
		    node, p->page_kb, p->want, p->before, p->added, p->target, p->give,
		    _pool_states[p->state]);
	}
	for (size_t i = 0; i < l->nmounts; i++) {
		const struct fs_pl_mount_rec *m = &l->mounts[i];

		if (strchr(m->path, '\n'))
			return -1;
		PUT("mount %" PRIu64 " %" PRIu64 " %s %s\n", m->page_kb, m->bytes,
		    _mount_states[m->state], m->path);
	}
	if (l->cg_version) {
		if (strchr(l->cgroup, '\n'))
			return -1;
		PUT("cgroup %d %s\n", l->cg_version, l->cgroup);
	}
	if (l->has_scratch) {
		const struct fs_pl_scratch_rec *r = &l->scratch;

		if (strpbrk(r->path, " \n") || strpbrk(r->ctrl, " \n") || strpbrk(r->dev, " \n") ||
		    r->state < 0 || r->state > FS_PL_SCRATCH_GONE)
			return -1;
		PUT("scratch %s %s %" PRIu64 " %u %s %s %s\n", _scratch_states[r->state],
		    r->fs ? "ext4" : "xfs", r->gib, r->nsid, r->ctrl[0] ? r->ctrl : "-",
		    r->dev[0] ? r->dev : "-", r->path);
	}
	PUT("end\n");
#undef PUT
	return (int)off;
}

static int _state(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* A job line "job <id> uid <uid> gid <gid> step <step>" into l; false when
 * the line is not one. */
static bool _job_line(const char *line, struct fs_pl_ledger *l)
{
	unsigned u1, u2, u3;

	if (sscanf(line, "job %u uid %u gid %u step %31s", &u1, &u2, &u3, l->step) != 4)
		return false;
	l->jobid = u1;
	l->uid = u2;
	l->gid = u3;
	if (!strcmp(l->step, "-"))
		l->step[0] = 0;
	return true;
}

/* A pool line into the next pool of l: 0, 1 when the line is not one, -1
 * with err. */
static int _pool_line(const char *line, int lineno, struct fs_pl_ledger *l, char *err,
		      size_t errlen)
{
	char st[32], node[16];
	unsigned long long a, b, c, d, e, f;
	struct fs_pl_pool_rec *r;
	int k;

	if (sscanf(line, "pool %15s %llu %llu %llu %llu %llu %llu %31s", node, &a, &b, &c, &d, &e,
		   &f, st) != 8)
		return 1;
	if (l->npools == FS_PL_MAX_POOLS || (k = _state(st, _pool_states, 5)) < 0 ||
	    !fs_pl_page_type(a))
		return fs_errf(err, errlen, "ledger line %d: bad pool", lineno);
	r = &l->pools[l->npools++];
	r->node = strcmp(node, "any") ? atoi(node) : FS_PL_NODE_ANY;
	if (r->node < FS_PL_NODE_ANY || r->node > FS_PL_MAX_NODE)
		return fs_errf(err, errlen, "ledger line %d: bad node", lineno);
	r->page_kb = a;
	r->want = b;
	r->before = c;
	r->added = d;
	r->target = e;
	r->give = f;
	r->state = k;
	return 0;
}

/* A mount line into the next mount of l: 0, 1 when the line is not one, -1
 * with err. */
static int _mount_line(const char *line, int lineno, struct fs_pl_ledger *l, char *err,
		       size_t errlen)
{
	char st[32];
	unsigned long long a, b;
	struct fs_pl_mount_rec *m;
	int k, pos = 0;

	if (sscanf(line, "mount %llu %llu %31s %n", &a, &b, st, &pos) != 3 || pos <= 0)
		return 1;
	if (l->nmounts == FS_PL_MAX_MOUNTS || (k = _state(st, _mount_states, 3)) < 0 ||
	    line[pos] != '/' || strlen(line + pos) >= FS_PL_PATH)
		return fs_errf(err, errlen, "ledger line %d: bad mount", lineno);
	m = &l->mounts[l->nmounts++];
	m->page_kb = a;
	m->bytes = b;
	m->state = k;
	strcpy(m->path, line + pos);
	return 0;
}

/* A line starting "scratch " into l's only scratch record: 0, or -1 with
 * err. */
static int _scratch_line(const char *line, int lineno, struct fs_pl_ledger *l, char *err,
			 size_t errlen)
{
	struct fs_pl_scratch_rec *r = &l->scratch;
	char st[32], fs[8], ctrl[32], dev[64];
	unsigned long long a;
	unsigned u1;
	int k, pos = 0;

	if (l->has_scratch ||
	    sscanf(line, "scratch %31s %7s %llu %u %31s %63s %n", st, fs, &a, &u1, ctrl, dev,
		   &pos) != 6 ||
	    pos <= 0 || (k = _state(st, _scratch_states, 7)) < 0 ||
	    (strcmp(fs, "xfs") && strcmp(fs, "ext4")) || line[pos] != '/' ||
	    strlen(line + pos) >= FS_PL_PATH)
		return fs_errf(err, errlen, "ledger line %d: bad scratch", lineno);
	l->has_scratch = true;
	r->state = k;
	r->fs = strcmp(fs, "xfs") ? 1 : 0;
	r->gib = a;
	r->nsid = u1;
	snprintf(r->ctrl, sizeof(r->ctrl), "%s", strcmp(ctrl, "-") ? ctrl : "");
	snprintf(r->dev, sizeof(r->dev), "%s", strcmp(dev, "-") ? dev : "");
	strcpy(r->path, line + pos);
	return 0;
}

/* A cgroup line "cgroup <1|2> /<path>" into l; false when the line is not
 * one. */
static bool _cgroup_line(const char *line, struct fs_pl_ledger *l)
{
	char path[FS_PL_PATH];
	unsigned u1;
	int pos = 0;

	/* a path too long for the record is refused, not cut (as mounts) */
	if (sscanf(line, "cgroup %u %n", &u1, &pos) != 1 || pos <= 0 || (u1 != 1 && u1 != 2) ||
	    line[pos] != '/' || strlen(line + pos) >= FS_PL_PATH)
		return false;
	l->cg_version = (int)u1;
	snprintf(path, sizeof(path), "%s", line + pos);
	strcpy(l->cgroup, path);
	return true;
}

/* One line after the header into l, each kind tried in turn: 1 for the end
 * line, 0 for a record, -1 with err. */
static int _ledger_line(const char *line, int lineno, struct fs_pl_ledger *l, char *err,
			size_t errlen)
{
	int rc;

	if (!strcmp(line, "end"))
		return 1;
	if (_job_line(line, l))
		return 0;
	if ((rc = _pool_line(line, lineno, l, err, errlen)) != 1)
		return rc;
	if ((rc = _mount_line(line, lineno, l, err, errlen)) != 1)
		return rc;
	if (!strncmp(line, "scratch ", 8))
		return _scratch_line(line, lineno, l, err, errlen);
	if (_cgroup_line(line, l))
		return 0;
	return fs_errf(err, errlen, "ledger line %d: \"%.60s\" not understood", lineno, line);
}

int fs_pl_ledger_parse(const char *buf, struct fs_pl_ledger *l, char *err, size_t errlen)
{
	const char *p = buf;
	int lineno = 0, ended = 0;

	memset(l, 0, sizeof(*l));
	while (*p && !ended) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[FS_PL_PATH + 256];

		lineno++;
		if (len >= sizeof(line))
			return fs_errf(err, errlen, "ledger line %d: too long", lineno);
		memcpy(line, p, len);
		line[len] = 0;
		p += len + (nl ? 1 : 0);
		if (lineno == 1) {
			if (strcmp(line, "fabsched-ledger 1"))
				return fs_errf(err, errlen, "ledger: bad header \"%.40s\"", line);
			continue;
		}
		if ((ended = _ledger_line(line, lineno, l, err, errlen)) < 0)
			return -1;
	}
	if (!ended || !l->jobid)
		return fs_errf(err, errlen, "ledger: truncated (no end line)");
	return 0;
}

/* ------------------------------------------------------------ files */

static int _jobs_dir(struct fs_pl_ctx *ctx, char *err, size_t errlen)
{
	char path[FS_PL_PATH + 8];
	int sfd = fs_pl_open_root_dir(ctx->state_dir, 1, 0700, err, errlen), jfd;

	if (sfd < 0)
		return -1;
	if (mkdirat(sfd, "jobs", 0700) && errno != EEXIST) {
		fs_errf(err, errlen, "%s/jobs: %s", ctx->state_dir, strerror(errno));
		close(sfd);
		return -1;
	}
	jfd = openat(sfd, "jobs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(sfd);
	if (jfd < 0)
		return fs_errf(err, errlen, "%s/jobs: %s", ctx->state_dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/jobs", ctx->state_dir);
	if (fs_pl_check_root_entry(jfd, path, true, err, errlen)) {
		close(jfd);
		return -1;
	}
	return jfd;
}

int fs_pl_lock(struct fs_pl_ctx *ctx, char *err, size_t errlen)
{
	char path[FS_PL_PATH + 8];
	int sfd = fs_pl_open_root_dir(ctx->state_dir, 1, 0700, err, errlen), fd;

	if (sfd < 0)
		return -1;
	fd = openat(sfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	close(sfd);
	if (fd < 0)
		return fs_errf(err, errlen, "%s/lock: %s", ctx->state_dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/lock", ctx->state_dir);
	if (fs_pl_check_root_entry(fd, path, false, err, errlen)) {
		close(fd);
		return -1;
	}
	/* bounded: 120 s, then fail rather than hang slurmd */
	for (int i = 0; flock(fd, LOCK_EX | LOCK_NB); i++) {
		if (errno != EWOULDBLOCK || i >= 1200) {
			close(fd);
			return fs_errf(err, errlen, "%s/lock: cannot lock: %s", ctx->state_dir,
				       strerror(errno));
		}
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
	ctx->lockfd = fd;
	return 0;
}

void fs_pl_unlock(struct fs_pl_ctx *ctx)
{
	if (ctx->lockfd >= 0)
		close(ctx->lockfd);
	ctx->lockfd = -1;
}

int fs_pl_ledger_save(struct fs_pl_ctx *ctx, const struct fs_pl_ledger *l, char *err, size_t errlen)
{
	char buf[LEDGER_MAX], name[32], tmp[48];
	int len = fs_pl_ledger_format(l, buf, sizeof(buf)), dfd, fd;

	if (len < 0)
		return fs_errf(err, errlen, "ledger of job %u: cannot format", l->jobid);
	if ((dfd = _jobs_dir(ctx, err, errlen)) < 0)
		return -1;
	snprintf(name, sizeof(name), "%u", l->jobid);
	snprintf(tmp, sizeof(tmp), ".%u.tmp", l->jobid);
	unlinkat(dfd, tmp, 0);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		goto fail;
	if (write(fd, buf, (size_t)len) != len || fsync(fd)) {
		close(fd);
		goto fail;
	}
	if (close(fd) || renameat(dfd, tmp, dfd, name) || fsync(dfd))
		goto fail;
	close(dfd);
	return 0;
fail:
	fs_errf(err, errlen, "%s/jobs/%s: cannot write: %s", ctx->state_dir, name, strerror(errno));
	unlinkat(dfd, tmp, 0);
	close(dfd);
	return -1;
}

int fs_pl_ledger_load(struct fs_pl_ctx *ctx, uint32_t jobid, struct fs_pl_ledger *l, char *err,
		      size_t errlen)
{
	char buf[LEDGER_MAX], name[32], pmsg[256];
	int dfd = _jobs_dir(ctx, err, errlen), fd;
	ssize_t n;
	struct stat st;

	if (dfd < 0)
		return -1;
	snprintf(name, sizeof(name), "%u", jobid);
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(dfd);
	if (fd < 0 && errno == ENOENT)
		return 1;
	if (fd < 0)
		return fs_errf(err, errlen, "%s/jobs/%s: %s", ctx->state_dir, name,
			       strerror(errno));
	if (fstat(fd, &st) || st.st_uid != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return fs_errf(err, errlen, "%s/jobs/%s: not a root-owned file", ctx->state_dir,
			       name);
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return fs_errf(err, errlen, "%s/jobs/%s: %s", ctx->state_dir, name,
			       strerror(errno));
	buf[n] = 0;
	if (fs_pl_ledger_parse(buf, l, pmsg, sizeof(pmsg)))
		return fs_errf(err, errlen, "%s/jobs/%s: %s", ctx->state_dir, name, pmsg);
	if (l->jobid != jobid)
		return fs_errf(err, errlen, "%s/jobs/%s: names job %u", ctx->state_dir, name,
			       l->jobid);
	return 0;
}

int fs_pl_ledger_remove(struct fs_pl_ctx *ctx, uint32_t jobid, char *err, size_t errlen)
{
	char name[32];
	int dfd = _jobs_dir(ctx, err, errlen);

	if (dfd < 0)
		return -1;
	snprintf(name, sizeof(name), "%u", jobid);
	if (unlinkat(dfd, name, 0) && errno != ENOENT) {
		fs_errf(err, errlen, "%s/jobs/%s: %s", ctx->state_dir, name, strerror(errno));
		close(dfd);
		return -1;
	}
	fsync(dfd);
	close(dfd);
	return 0;
}

static int _cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

long fs_pl_ledger_list(struct fs_pl_ctx *ctx, uint32_t *ids, size_t max, char *err, size_t errlen)
{
	int dfd = _jobs_dir(ctx, err, errlen);
	DIR *d;
	struct dirent *e;
	size_t n = 0;

	if (dfd < 0)
		return -1;
	if (!(d = fdopendir(dfd))) {
		close(dfd);
		return fs_errf(err, errlen, "%s/jobs: %s", ctx->state_dir, strerror(errno));
	}
	while ((e = readdir(d)) && n < max) {
		uint32_t id;

		if (e->d_name[0] == '.')
			continue;
		if (fs_pl_parse_jobid("ledger", e->d_name, &id, NULL, 0) == 0)
			ids[n++] = id;
	}
	closedir(d);
	qsort(ids, n, sizeof(*ids), _cmp);
	return (long)n;
}
