/*
 * record.c - what a job got on this node, kept for `fabsched job`
 * (JobRecordDir in fabsched.conf; see fabsched_prolog.h):
 *
 *   <JobRecordDir>/                 root's, not writable by others
 *   <JobRecordDir>/<jobid>/         the job owner's, 0700 (the first
 *                                   prolog of the job makes it)
 *   <JobRecordDir>/<jobid>/<node>   the prolog's record of the node,
 *                                   root's, 0644 (the owner reads it
 *                                   through its directory; nobody else
 *                                   can), so that `fabsched job` can tell
 *                                   it from a file the owner made
 *   <JobRecordDir>/<jobid>/<node>.tasks
 *                                   one line per task, appended by the
 *                                   SPANK plugin as the user
 *                                   (record_task.c)
 *
 * The node record, text:
 *   fabsched-record 1
 *   node <name> job <id>
 *   numa <n> cpus <cpulist>            (every NUMA node of the machine)
 *   hca <name> ports <p,...|-> numa <n|-> cpus <cpulist|->
 *   hugepages <2m|1g> numa <n|any> pages <pages>
 *   mount <2m|1g> <path>
 *   scratch <path> <GiB> <xfs|ext4>
 *
 * Root never follows a path the user controls: the job's directory is
 * opened with O_NOFOLLOW from the root-owned base, the record is written
 * to a new file (O_EXCL, O_NOFOLLOW) kept root's, then renamed over the
 * name.  A record that cannot be written is logged, never a
 * prolog failure.  fabsched-sweep removes the directories of jobs that
 * ended more than JobRecordKeep days ago.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fabsched_gres.h"
#include "fabsched_prolog.h"
#include "fs_jobreq.h"
#include "prolog_private.h"

/* The HCA's NUMA node in @inv (gres/'s sysfs scan), "-" when unknown. */
static void _hca_numa(FILE *f, const struct fs_gres_inventory *inv, const char *hca)
{
	const struct fs_gres_hca *h = fs_gres_hca_find(inv, hca);

	if (h && h->numa_node >= 0)
		fprintf(f, "%d", h->numa_node);
	else
		fputc('-', f);
}

/* The HCA lines: from the locality (with CPUs) when given, else the
 * device list. */
static void _hcas(FILE *f, const struct fs_gres_inventory *inv, const char *devices,
		  const char *locality)
{
	struct fs_gres_rdma_set set = { 0 };
	char err[FS_MSG_SIZE];

	if (locality && *locality &&
	    !fs_gres_rdma_locality_parse(locality, &set, err, sizeof(err))) {
		for (size_t i = 0; i < set.n; i++) {
			const struct fs_gres_rdma_dev *d = &set.dev[i];

			fprintf(f, "hca %s ports ", d->name);
			for (size_t p = 0; p < d->nports; p++)
				fprintf(f, "%s%u", p ? "," : "", d->ports[p]);
			fprintf(f, "%s numa ", d->nports ? "" : "-");
			_hca_numa(f, inv, d->name);
			fprintf(f, " cpus %s\n", d->cpus && *d->cpus ? d->cpus : "-");
		}
		fs_gres_rdma_set_clear(&set);
		return;
	}
	fs_gres_rdma_set_clear(&set);
	/* "mlx5_0:1,mlx5_1" (checked by fs_pl_parse_rdma) */
	for (const char *p = devices; p && *p;) {
		size_t n = strcspn(p, ","), k = strcspn(p, ":,");
		char name[64];

		if (k && k < sizeof(name)) {
			memcpy(name, p, k);
			name[k] = '\0';
			fprintf(f, "hca %s ports %.*s numa ", name, k < n ? (int)(n - k - 1) : 1,
				k < n ? p + k + 1 : "-");
			_hca_numa(f, inv, name);
			fputs(" cpus -\n", f);
		}
		p += n;
		if (*p == ',')
			p++;
	}
}

/* The machine's NUMA nodes with their CPUs (gres/'s sysfs reading), so
 * that the reader can tell each task's NUMA nodes from its CPUs. */
static void _numa_map(FILE *f, const struct fs_gres_inventory *inv)
{
	for (size_t i = 0; i < inv->nnuma; i++)
		if (inv->numa[i].cpus && *inv->numa[i].cpus)
			fprintf(f, "numa %d cpus %s\n", inv->numa[i].os_index, inv->numa[i].cpus);
}

/* The job's directory under the base, made the owner's; -1 with err. */
static int _job_dir(int base, const char *dir, uint32_t jobid, uid_t uid, gid_t gid, bool create,
		    char *err, size_t errlen)
{
	char name[16];
	struct stat st;
	int fd;

	snprintf(name, sizeof(name), "%u", jobid);
	if (create && mkdirat(base, name, 0700) && errno != EEXIST)
		return fs_errf(err, errlen, "%s/%s: cannot create: %s", dir, name, strerror(errno));
	fd = openat(base, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fs_errf(err, errlen, "%s/%s: %s", dir, name,
			       errno == ELOOP || errno == ENOTDIR ? "not a directory"
								  : strerror(errno));
	if (fstat(fd, &st)) {
		close(fd);
		return fs_errf(err, errlen, "%s/%s: %s", dir, name, strerror(errno));
	}
	/* made just now (by this node or another): the owner's from now on */
	if (st.st_uid == 0 && uid != 0 && create && (fchown(fd, uid, gid) || fchmod(fd, 0700))) {
		close(fd);
		return fs_errf(err, errlen, "%s/%s: cannot hand it to uid %u: %s", dir, name,
			       (unsigned)uid, strerror(errno));
	}
	if (st.st_uid != uid && st.st_uid != 0) {
		close(fd);
		return fs_errf(err, errlen,
			       "%s/%s: owned by uid %u, not the job's "
			       "(%u): left alone",
			       dir, name, (unsigned)st.st_uid, (unsigned)uid);
	}
	return fd;
}

int fs_pl_record_node(struct fs_pl_ctx *ctx, const struct fs_pl_job *job,
		      const struct fs_pl_ledger *l, const char *node, const char *locality,
		      char *err, size_t errlen)
{
	struct fs_gres_inventory *inv;
	char tmp[96];
	int base, dfd, fd;
	FILE *f;
	int rc = 0;

	if (!ctx->record_dir || !*ctx->record_dir)
		return 0;
	if (!fs_pl_node_name_ok(node))
		return fs_errf(err, errlen,
			       "SLURMD_NODENAME \"%.64s\": expected a node "
			       "name of letters, digits, '.', '_' and '-'",
			       node ? node : "");
	if ((base = fs_pl_open_root_dir(ctx->record_dir, 1, 0755, err, errlen)) < 0)
		return -1;
	dfd = _job_dir(base, ctx->record_dir, job->jobid, job->uid, job->gid, true, err, errlen);
	close(base);
	if (dfd < 0)
		return -1;
	snprintf(tmp, sizeof(tmp), ".%s.%ld", node, (long)getpid());
	unlinkat(dfd, tmp, 0); /* a leftover of this very process id */
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		rc = fs_errf(err, errlen, "%s/%u/%s: %s", ctx->record_dir, job->jobid, tmp,
			     strerror(errno));
		if (fd >= 0)
			close(fd);
		close(dfd);
		return rc;
	}
	fprintf(f, "fabsched-record 1\nnode %s job %u\n", node, job->jobid);
	/* the machine's NUMA nodes and HCAs, as the gres plugins read them
	 * (what cannot be read is left out of the record) */
	if ((inv = calloc(1, sizeof(*inv)))) {
		char m2[FS_MSG_SIZE];

		if (fs_gres_sysfs_numa(ctx->sysfs_root, inv, m2, sizeof(m2)))
			fs_pl_log(ctx, job->jobid, "job record: no NUMA nodes: %s", m2);
		if (job->rdma[0] && fs_gres_hca_scan(ctx->sysfs_root, inv, m2, sizeof(m2)))
			fs_pl_log(ctx, job->jobid, "job record: HCAs' NUMA nodes unknown: %s", m2);
		_numa_map(f, inv);
	}
	_hcas(f, inv, job->rdma, locality);
	fs_gres_inventory_free(inv);
	for (size_t i = 0; l && i < l->npools; i++) {
		const struct fs_pl_pool_rec *p = &l->pools[i];

		if (p->node == FS_PL_NODE_ANY)
			fprintf(f, "hugepages %s numa any pages %" PRIu64 "\n",
				fs_pl_page_type(p->page_kb), p->want);
		else
			fprintf(f, "hugepages %s numa %d pages %" PRIu64 "\n",
				fs_pl_page_type(p->page_kb), p->node, p->want);
	}
	for (size_t i = 0; l && i < l->nmounts; i++)
		if (l->mounts[i].state == FS_PL_MOUNT_MOUNTED)
			fprintf(f, "mount %s %s\n", fs_pl_page_type(l->mounts[i].page_kb),
				l->mounts[i].path);
	if (l && l->has_scratch && l->scratch.state == FS_PL_SCRATCH_MOUNTED)
		fprintf(f, "scratch %s %" PRIu64 " %s\n", l->scratch.path, l->scratch.gib,
			l->scratch.fs == FS_SCRATCH_EXT4 ? "ext4" : "xfs");
	if (fflush(f) || ferror(f) || fchmod(fd, 0644))
		rc = fs_errf(err, errlen, "%s/%u/%s: %s", ctx->record_dir, job->jobid, tmp,
			     strerror(errno));
	if (fclose(f) && !rc)
		rc = fs_errf(err, errlen, "%s/%u/%s: %s", ctx->record_dir, job->jobid, tmp,
			     strerror(errno));
	if (!rc && renameat(dfd, tmp, dfd, node))
		rc = fs_errf(err, errlen, "%s/%u/%s: %s", ctx->record_dir, job->jobid, node,
			     strerror(errno));
	if (rc)
		unlinkat(dfd, tmp, 0);
	close(dfd);
	return rc;
}

/* When a file last changed: its mtime, but never later than its ctime
 * (the owner can set the mtime to any date, the ctime only to the
 * present), so that a future date keeps nothing. */
static time_t _changed(const struct stat *st)
{
	return st->st_mtime < st->st_ctime ? st->st_mtime : st->st_ctime;
}

/* The newest change in a job's directory: the directory's own, or a
 * file's (a task's line appended); -1 when it cannot be read. */
static time_t _newest(int base, const char *name)
{
	int fd = openat(base, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	time_t t;
	DIR *d;
	struct dirent *e;

	if (fd < 0 || fstat(fd, &st) || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	t = _changed(&st);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    !fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) && _changed(&st) > t)
			t = _changed(&st);
	closedir(d);
	return t;
}

/* Remove directory @name of @base with all it holds (the owner may have
 * made directories in it), never following a link; @depth levels at
 * most.  0, or -1 when something stays. */
static int _remove_tree(int base, const char *name, int depth)
{
	int fd = openat(base, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *e;

	if (fd < 0)
		return -1;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return -1;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode)) {
			if (depth > 0)
				_remove_tree(fd, e->d_name, depth - 1);
		} else {
			unlinkat(fd, e->d_name, 0);
		}
	}
	closedir(d);
	return unlinkat(base, name, AT_REMOVEDIR);
}

long fs_pl_record_sweep(struct fs_pl_ctx *ctx, time_t keep, time_t now, const uint32_t *running,
			size_t nrunning, char *err, size_t errlen)
{
	int base;
	DIR *d;
	struct dirent *e;
	long removed = 0;

	if (!ctx->record_dir || !*ctx->record_dir)
		return 0;
	if ((base = fs_pl_open_root_dir(ctx->record_dir, 0, 0755, err, errlen)) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!(d = fdopendir(base))) {
		close(base);
		return fs_errf(err, errlen, "%s: %s", ctx->record_dir, strerror(errno));
	}
	while ((e = readdir(d))) {
		uint32_t id;
		struct stat st;
		bool live = false;

		if (fs_pl_parse_jobid("record", e->d_name, &id, NULL, 0) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode))
			continue;
		for (size_t i = 0; i < nrunning && !live; i++)
			live = running[i] == id;
		/* the last change in it (a task's line, the prolog's record)
		 * is when the job was last seen */
		if (live || _changed(&st) + keep > now || _newest(dirfd(d), e->d_name) + keep > now)
			continue;
		if (!_remove_tree(dirfd(d), e->d_name, 16)) {
			removed++;
			fs_pl_log(ctx, id, "job record removed (older than %ld days)",
				  (long)(keep / 86400));
		}
	}
	closedir(d);
	return removed;
}
