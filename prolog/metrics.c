/*
 * metrics.c - the node's figures across runs of fabsched-prolog and
 * fabsched-epilog (see fabsched_prolog.h): kept in <StateDir>/metrics, and
 * written as Prometheus text for node_exporter's textfile collector when
 * MetricsTextfile is set.  Called under the helpers' lock; every failure
 * is logged and leaves the job's set-up alone.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fabsched_prolog.h"
#include "prolog_private.h"

const double fs_pl_metrics_le[FS_PL_METRICS_BUCKETS] = {
	0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
};
static const char *const helper_name[2] = { "prolog", "epilog" };

void fs_pl_metrics_add(struct fs_pl_metrics *mx, int helper, double secs, bool failed)
{
	if (helper < 0 || helper > 1)
		return;
	mx->runs[helper]++;
	mx->failed[helper] += failed;
	mx->seconds[helper] += secs > 0 ? secs : 0;
	for (int b = 0; b < FS_PL_METRICS_BUCKETS; b++)
		mx->bucket[helper][b] += secs <= fs_pl_metrics_le[b];
}

/* The state: "runs <h> <n> <failed> <seconds> <b0>..<b9>" and "<name> <n>". */
void fs_pl_metrics_write_state(const struct fs_pl_metrics *mx, FILE *f)
{
	fprintf(f, "# fabsched node metrics 1\n");
	for (int h = 0; h < 2; h++) {
		fprintf(f, "runs %s %" PRIu64 " %" PRIu64 " %.6f", helper_name[h], mx->runs[h],
			mx->failed[h], mx->seconds[h]);
		for (int b = 0; b < FS_PL_METRICS_BUCKETS; b++)
			fprintf(f, " %" PRIu64, mx->bucket[h][b]);
		fputc('\n', f);
	}
	fprintf(f,
		"hugepages_short %" PRIu64 "\nscratch_set_up %" PRIu64 "\n"
		"ports_inactive %" PRIu64 "\n",
		mx->hugepages_short, mx->scratch_set_up, mx->ports_inactive);
}

int fs_pl_metrics_read(struct fs_pl_metrics *mx, const char *text, char *err, size_t errlen)
{
	char *buf = strdup(text ? text : ""), *save = NULL;
	int ln = 0, rc = 0;

	memset(mx, 0, sizeof(*mx));
	if (!buf)
		return fs_errf(err, errlen, "out of memory");
	for (char *l = strtok_r(buf, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save)) {
		char name[32];
		uint64_t v, b[FS_PL_METRICS_BUCKETS], n, failed;
		double secs;
		int used = -1, h;

		ln++;
		if (l[0] == '#')
			continue;
		if (sscanf(l,
			   "runs %31s %" SCNu64 " %" SCNu64 " %lf %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64 "%n",
			   name, &n, &failed, &secs, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
			   &b[6], &b[7], &b[8], &b[9], &used) == 14 &&
		    !l[used] &&
		    (h = !strcmp(name, "epilog")   ? 1
			 : !strcmp(name, "prolog") ? 0
						   : -1) >= 0 &&
		    secs >= 0) {
			mx->runs[h] = n;
			mx->failed[h] = failed;
			mx->seconds[h] = secs;
			memcpy(mx->bucket[h], b, sizeof(b));
		} else if (sscanf(l, "%31s %" SCNu64 "%n", name, &v, &used) == 2 && !l[used] &&
			   (!strcmp(name, "hugepages_short") || !strcmp(name, "scratch_set_up") ||
			    !strcmp(name, "ports_inactive"))) {
			*(name[0] == 'h'   ? &mx->hugepages_short
			  : name[0] == 's' ? &mx->scratch_set_up
					   : &mx->ports_inactive) = v;
		} else {
			rc = fs_errf(err, errlen,
				     "line %d: not a metrics line; expected 'runs "
				     "prolog|epilog <runs> <failed> <seconds> <%d buckets>' or "
				     "'<counter> <n>'",
				     ln, FS_PL_METRICS_BUCKETS);
		}
	}
	free(buf);
	if (rc)
		memset(mx, 0, sizeof(*mx));
	return rc;
}

void fs_pl_metrics_write_prom(const struct fs_pl_metrics *mx, FILE *f)
{
	fprintf(f,
		"# HELP fabsched_helper_run_seconds How long fabsched-prolog and fabsched-epilog "
		"ran on this node.\n# TYPE fabsched_helper_run_seconds histogram\n");
	for (int h = 0; h < 2; h++) {
		for (int b = 0; b < FS_PL_METRICS_BUCKETS; b++)
			fprintf(f,
				"fabsched_helper_run_seconds_bucket{helper=\"%s\",le=\"%g\"} %" PRIu64
				"\n",
				helper_name[h], fs_pl_metrics_le[b], mx->bucket[h][b]);
		fprintf(f,
			"fabsched_helper_run_seconds_bucket{helper=\"%s\",le=\"+Inf\"} %" PRIu64
			"\n"
			"fabsched_helper_run_seconds_sum{helper=\"%s\"} %.6f\n"
			"fabsched_helper_run_seconds_count{helper=\"%s\"} %" PRIu64 "\n",
			helper_name[h], mx->runs[h], helper_name[h], mx->seconds[h], helper_name[h],
			mx->runs[h]);
	}
	fprintf(f, "# HELP fabsched_helper_failures_total Runs of fabsched-prolog and "
		   "fabsched-epilog that failed (the node was drained).\n"
		   "# TYPE fabsched_helper_failures_total counter\n");
	for (int h = 0; h < 2; h++)
		fprintf(f, "fabsched_helper_failures_total{helper=\"%s\"} %" PRIu64 "\n",
			helper_name[h], mx->failed[h]);
	fprintf(f,
		"# HELP fabsched_hugepage_reservations_short_total Prolog runs whose hugepage "
		"pool could not grow by the pages asked.\n"
		"# TYPE fabsched_hugepage_reservations_short_total counter\n"
		"fabsched_hugepage_reservations_short_total %" PRIu64 "\n"
		"# HELP fabsched_scratch_setups_total Scratch volumes the prolog set up.\n"
		"# TYPE fabsched_scratch_setups_total counter\n"
		"fabsched_scratch_setups_total %" PRIu64 "\n"
		"# HELP fabsched_hca_ports_inactive_total HCA ports of a job the prolog found not "
		"ACTIVE.\n# TYPE fabsched_hca_ports_inactive_total counter\n"
		"fabsched_hca_ports_inactive_total %" PRIu64 "\n",
		mx->hugepages_short, mx->scratch_set_up, mx->ports_inactive);
}

/* @path written by @write through a new file beside it, then renamed. */
static int _replace(struct fs_pl_ctx *ctx, int dirfd, const char *dir_path, const char *name,
		    mode_t mode, void (*write)(const struct fs_pl_metrics *, FILE *),
		    const struct fs_pl_metrics *mx)
{
	char tmp[96];
	FILE *f;
	int fd;

	snprintf(tmp, sizeof(tmp), ".%s.%d", name, (int)getpid());
	/* a new file of ours: one left by an earlier process of this pid
	   goes first (the directory is root's, checked by the caller) */
	unlinkat(dirfd, tmp, 0);
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		fs_pl_log(ctx, 0, "metrics: %s/%s: cannot write: %s", dir_path, tmp,
			  strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fchmod(fd, mode);
	write(mx, f);
	if (fflush(f) || ferror(f) | fclose(f) || renameat(dirfd, tmp, dirfd, name)) {
		fs_pl_log(ctx, 0, "metrics: %s/%s: cannot write: %s", dir_path, name,
			  strerror(errno));
		unlinkat(dirfd, tmp, 0);
		return -1;
	}
	return 0;
}

void fs_pl_metrics_record(struct fs_pl_ctx *ctx, int helper, double secs, bool failed)
{
	struct fs_pl_metrics mx;
	char err[FS_MSG_SIZE], buf[4096], dir[FS_PL_PATH];
	const char *slash;
	int sfd, fd, dfd;
	ssize_t n;

	if (!ctx->metrics_file || !*ctx->metrics_file)
		return;
	if ((sfd = fs_pl_open_root_dir(ctx->state_dir, 1, 0700, err, sizeof(err))) < 0) {
		fs_pl_log(ctx, 0, "metrics: %s", err);
		return;
	}
	memset(&mx, 0, sizeof(mx));
	if ((fd = openat(sfd, "metrics", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		if (fs_pl_metrics_read(&mx, buf, err, sizeof(err)))
			fs_pl_log(ctx, 0, "metrics: %s/metrics: %s (counted anew)", ctx->state_dir,
				  err);
	}
	fs_pl_metrics_add(&mx, helper, secs, failed);
	mx.hugepages_short += ctx->hugepages_short;
	mx.scratch_set_up += ctx->scratch_set_up;
	mx.ports_inactive += ctx->rdma_got.inactive;
	_replace(ctx, sfd, ctx->state_dir, "metrics", 0600, fs_pl_metrics_write_state, &mx);
	close(sfd);
	/* the textfile, world-readable, in a root-owned directory */
	if (!(slash = strrchr(ctx->metrics_file, '/')) || !slash[1] ||
	    (size_t)(slash - ctx->metrics_file) >= sizeof(dir)) {
		fs_pl_log(ctx, 0, "metrics: MetricsTextfile=%s: expected an absolute file path",
			  ctx->metrics_file);
		return;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - ctx->metrics_file), ctx->metrics_file);
	if ((dfd = fs_pl_open_root_dir(dir[0] ? dir : "/", 0, 0, err, sizeof(err))) < 0) {
		fs_pl_log(ctx, 0, "metrics: %s", err);
		return;
	}
	_replace(ctx, dfd, dir, slash + 1, 0644, fs_pl_metrics_write_prom, &mx);
	close(dfd);
}
