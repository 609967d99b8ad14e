/*
 * sys.c - the kernel interfaces: hugepage pools, /proc/self/mountinfo,
 * MemTotal, root-owned directory chains opened without following links,
 * cgroup hugetlb files, and the scan for processes using a mount.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fabsched_prolog.h"
#include "prolog_private.h"

int fs_pl_read_line(const char *path, char *buf, size_t bufsz, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return fs_errf(err, errlen, "%s: %s", path, strerror(errno));
	n = read(fd, buf, bufsz - 1);
	close(fd);
	if (n < 0)
		return fs_errf(err, errlen, "%s: %s", path, strerror(errno));
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int fs_pl_write_str(const char *path, const char *s, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	size_t len = strlen(s);
	ssize_t n;

	if (fd < 0)
		return fs_errf(err, errlen, "%s: %s", path, strerror(errno));
	n = write(fd, s, len);
	if (n != (ssize_t)len) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		return fs_errf(err, errlen, "%s: writing \"%s\": %s", path, s, strerror(e));
	}
	if (close(fd))
		return fs_errf(err, errlen, "%s: %s", path, strerror(errno));
	return 0;
}

/* ------------------------------------------------------------ pools */

static void _pool_path(int node, uint64_t page_kb, char *buf, size_t sz, const char *file)
{
	if (node == FS_PL_NODE_ANY)
		snprintf(buf, sz, "/sys/kernel/mm/hugepages/hugepages-%" PRIu64 "kB/%s", page_kb,
			 file);
	else
		snprintf(buf, sz,
			 "/sys/devices/system/node/node%d/hugepages/"
			 "hugepages-%" PRIu64 "kB/%s",
			 node, page_kb, file);
}

int fs_pl_pool_get(int node, uint64_t page_kb, uint64_t *out, char *err, size_t errlen)
{
	return fs_pl_pool_read(node, page_kb, "nr_hugepages", out, err, errlen);
}

int fs_pl_pool_read(int node, uint64_t page_kb, const char *file, uint64_t *out, char *err,
		    size_t errlen)
{
	char path[256], buf[64], *end;

	_pool_path(node, page_kb, path, sizeof(path), file);
	if (fs_pl_read_line(path, buf, sizeof(buf), err, errlen))
		return -1;
	errno = 0;
	*out = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return fs_errf(err, errlen, "%s: \"%s\": not a page count", path, buf);
	return 0;
}

int fs_pl_pool_set(int node, uint64_t page_kb, uint64_t n, char *err, size_t errlen)
{
	char path[256], buf[32];

	_pool_path(node, page_kb, path, sizeof(path), "nr_hugepages");
	snprintf(buf, sizeof(buf), "%" PRIu64, n);
	return fs_pl_write_str(path, buf, err, errlen);
}

uint64_t fs_pl_mem_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* ------------------------------------------------------------ mounts */

/* Undo mountinfo's octal escapes (\040 for a blank) in place. */
static void _unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else
			*d++ = *s;
	}
	*d = 0;
}

int fs_pl_is_mounted(const char *path)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return -1;
	while (!found && getline(&line, &cap, f) > 0) {
		char *save = NULL, *tok = strtok_r(line, " ", &save);

		for (int i = 1; tok && i < 5; i++)
			tok = strtok_r(NULL, " ", &save);
		if (tok) {
			_unescape(tok);
			found = !strcmp(tok, path);
		}
	}
	free(line);
	fclose(f);
	return found;
}

/* ------------------------------------------------------------ directories */

/*
 * A directory on the way to a base: root's, and not writable by group or
 * others, except that a component above the base may be a sticky shared
 * directory (/tmp): nobody but root can rename or remove root's entry in
 * it.  The base itself (@last) is never shared: in a world-writable
 * directory, sticky or not, any user could make the entries the helpers
 * make next (a job's mount point, the lock, the jobs directory).
 */
static int _check_dir(int fd, const char *path, bool last, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st))
		return fs_errf(err, errlen, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fs_errf(err, errlen, "%s: not a directory", path);
	if (st.st_uid != 0)
		return fs_errf(err, errlen,
			       "%s: owned by uid %u, not root: refusing to "
			       "use it",
			       path, (unsigned)st.st_uid);
	if ((st.st_mode & 022) && (last || !(st.st_mode & S_ISVTX)))
		return fs_errf(err, errlen,
			       "%s: writable by group or others (mode %04o%s): "
			       "refusing to use it; expected a root-owned "
			       "directory of mode 0755 or 0700%s",
			       path, (unsigned)(st.st_mode & 07777),
			       (st.st_mode & S_ISVTX) ? ", a shared directory" : "",
			       last ? " (a directory of its own, e.g. inside it)" : "");
	return 0;
}

int fs_pl_check_root_entry(int fd, const char *path, bool dir, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st))
		return fs_errf(err, errlen, "%s: %s", path, strerror(errno));
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		return fs_errf(err, errlen, "%s: not a %s: refusing to use it", path,
			       dir ? "directory" : "regular file");
	if (st.st_uid != 0 || (st.st_mode & 022))
		return fs_errf(err, errlen,
			       "%s: owned by uid %u, mode %04o: "
			       "refusing to use it; expected root's, not "
			       "writable by group or others (made by someone "
			       "else? remove it)",
			       path, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	return 0;
}

int fs_pl_open_root_dir(const char *path, int create, mode_t mode, char *err, size_t errlen)
{
	char buf[FS_PL_PATH], sofar[FS_PL_PATH] = "";
	char *save = NULL, *comp;
	int fd;

	if (path[0] != '/' || strlen(path) >= sizeof(buf))
		return fs_errf(err, errlen,
			       "%s: expected an absolute path "
			       "shorter than %d bytes",
			       path, FS_PL_PATH);
	strcpy(buf, path);
	if ((fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return fs_errf(err, errlen, "/: %s", strerror(errno));
	for (comp = strtok_r(buf, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		int next;

		if (!strcmp(comp, "..") || !strcmp(comp, ".")) {
			close(fd);
			return fs_errf(err, errlen, "%s: \".\" or \"..\" in path", path);
		}
		strcat(sofar, "/");
		strcat(sofar, comp);
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && create) {
			if (mkdirat(fd, comp, mode) && errno != EEXIST) {
				int e = errno;

				close(fd);
				return fs_errf(err, errlen, "%s: cannot create: %s", sofar,
					       strerror(e));
			}
			next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		close(fd);
		if (next < 0) {
			int e = errno;

			if (e == ELOOP || e == ENOTDIR) {
				struct stat st;

				if (!lstat(sofar, &st) && S_ISLNK(st.st_mode))
					return fs_errf(err, errlen,
						       "%s: is a symbolic link: "
						       "refusing to follow it",
						       sofar);
				return fs_errf(err, errlen, "%s: not a directory", sofar);
			}
			return fs_errf(err, errlen, "%s: %s", sofar, strerror(e));
		}
		fd = next;
		if (_check_dir(fd, sofar, !save || !save[strspn(save, "/")], err, errlen)) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* ------------------------------------------------------------ cgroups */

int fs_pl_cgroup_mount(int version, char *out, size_t outsz)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		char *sep = strstr(line, " - ");
		char mp[FS_PL_PATH], fstype[64], src[256], opts[512];

		if (!sep || sscanf(line, "%*s %*s %*s %*s %511s", mp) != 1 ||
		    sscanf(sep + 3, "%63s %255s %511s", fstype, src, opts) != 3)
			continue;
		_unescape(mp);
		if (version == 2 && !strcmp(fstype, "cgroup2"))
			found = 1;
		else if (version == 1 && !strcmp(fstype, "cgroup")) {
			for (char *s = NULL, *o = strtok_r(opts, ",", &s); o;
			     o = strtok_r(NULL, ",", &s))
				if (!strcmp(o, "hugetlb"))
					found = 1;
		}
		if (found)
			snprintf(out, outsz, "%s", mp);
	}
	free(line);
	fclose(f);
	return found;
}

static int _is_dir(const char *p)
{
	struct stat st;

	return !lstat(p, &st) && S_ISDIR(st.st_mode);
}

/* <base>/job_<id>, else <base>/<the job's SLUID>, when a directory. */
static int _job_dir(const struct fs_pl_ctx *ctx, const char *base, uint32_t jobid, char *path,
		    size_t pathsz)
{
	snprintf(path, pathsz, "%s/job_%u", base, jobid);
	if (_is_dir(path))
		return 1;
	if (ctx->job_sluid[0]) {
		snprintf(path, pathsz, "%s/%s", base, ctx->job_sluid);
		if (_is_dir(path))
			return 1;
	}
	return 0;
}

int fs_pl_cgroup_find(struct fs_pl_ctx *ctx, const struct fs_pl_ledger *l, char *path,
		      size_t pathsz, int *version)
{
	return fs_pl_cgroup_find_job(ctx, l->jobid, l->uid, path, pathsz, version);
}

int fs_pl_cgroup_find_job(struct fs_pl_ctx *ctx, uint32_t jobid, uid_t uid, char *path,
			  size_t pathsz, int *version)
{
	char mp[FS_PL_PATH], f[FS_PL_PATH + 64];

	*version = 0;
	path[0] = 0;
	if (ctx->cgroup_parent) {
		if (!_job_dir(ctx, ctx->cgroup_parent, jobid, path, pathsz))
			return path[0] = 0;
		snprintf(f, sizeof(f), "%s/cgroup.controllers", path);
		*version = access(f, F_OK) ? 1 : 2;
		return 1;
	}
	/* run inside the job's cgroup (24.11 PrologFlags=RunInJob): ours,
	 * whatever the layout */
	{
		char m[FS_MSG_SIZE];

		if (fs_pl_cgroup_of_pid(ctx, getpid(), jobid, path, pathsz, version, m,
					sizeof(m)) == 1)
			return 1;
		*version = 0;
		path[0] = 0;
	}
	/* cgroup/v2: <root>/system.slice/slurmstepd.scope/job_<id> (or
	 * <sluid>) */
	if (fs_pl_cgroup_mount(2, mp, sizeof(mp))) {
		snprintf(f, sizeof(f), "%s/system.slice/slurmstepd.scope", mp);
		if (_job_dir(ctx, f, jobid, path, pathsz))
			return *version = 2, 1;
	}
	/* cgroup/v1: <hugetlb>/slurm/uid_<uid>/job_<id> */
	if (fs_pl_cgroup_mount(1, mp, sizeof(mp))) {
		snprintf(path, pathsz, "%s/slurm/uid_%u/job_%u", mp, (unsigned)uid, jobid);
		if (_is_dir(path))
			return *version = 1, 1;
	}
	return path[0] = 0;
}

/* ------------------------------------------------------------ processes */

static int _uses(const char *pid, const char *mount)
{
	char p[64], link[FS_PL_PATH + 64];
	size_t mlen = strlen(mount);
	DIR *d;
	struct dirent *e;
	int hit = 0;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%s/fd", pid);
	if ((d = opendir(p))) {
		while (!hit && (e = readdir(d))) {
			char fp[320];
			ssize_t n;

			if (e->d_name[0] == '.')
				continue;
			snprintf(fp, sizeof(fp), "/proc/%s/fd/%s", pid, e->d_name);
			n = readlink(fp, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = 0;
			if (!strncmp(link, mount, mlen) && (link[mlen] == '/' || !link[mlen]))
				hit = 1;
		}
		closedir(d);
	}
	snprintf(p, sizeof(p), "/proc/%s/cwd", pid);
	if (!hit) {
		ssize_t n = readlink(p, link, sizeof(link) - 1);

		if (n > 0) {
			link[n] = 0;
			hit = !strncmp(link, mount, mlen) && (link[mlen] == '/' || !link[mlen]);
		}
	}
	snprintf(p, sizeof(p), "/proc/%s/maps", pid);
	if (!hit && (f = fopen(p, "re"))) {
		char *line = NULL, *s;
		size_t cap = 0;

		while (!hit && getline(&line, &cap, f) > 0)
			if ((s = strchr(line, '/')) && !strncmp(s, mount, mlen) && s[mlen] == '/')
				hit = 1;
		free(line);
		fclose(f);
	}
	return hit;
}

static int _owner(const char *pid, uid_t *uid)
{
	char p[64], line[256];
	FILE *f;
	int ok = 0;

	snprintf(p, sizeof(p), "/proc/%s/status", pid);
	if (!(f = fopen(p, "re")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned r, e;

		if (sscanf(line, "Uid: %u %u", &r, &e) == 2) {
			*uid = r;
			ok = (r == e); /* mixed ids: not a plain user process */
			break;
		}
	}
	fclose(f);
	return ok ? 0 : -1;
}

int fs_pl_kill_users(struct fs_pl_ctx *ctx, uint32_t jobid, const char *mount, uid_t uid)
{
	pid_t pids[1024];
	size_t n = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < sizeof(pids) / sizeof(pids[0])) {
		uid_t u;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if (_owner(e->d_name, &u) || u != uid || u == 0)
			continue;
		if (_uses(e->d_name, mount)) {
			pids[n] = (pid_t)atoi(e->d_name);
			fs_pl_log(ctx, jobid,
				  "killing pid %d (uid %u): still "
				  "using %s",
				  (int)pids[n], (unsigned)u, mount);
			kill(pids[n], SIGKILL);
			n++;
		}
	}
	closedir(d);
	/* wait (bounded, 5 s) until they are gone and their mappings too */
	for (int t = 0; t < 100 && n; t++) {
		size_t alive = 0;

		for (size_t i = 0; i < n; i++) {
			char p[64];
			uid_t u;

			snprintf(p, sizeof(p), "%d", (int)pids[i]);
			if (!_owner(p, &u) && _uses(p, mount))
				alive++;
		}
		if (!alive)
			break;
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	}
	return (int)n;
}
