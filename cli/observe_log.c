/*
 * observe_log.c - the observation log of Locality=observe (select/'s
 * struct fse_obs, one line per started job) for `fabsched job`, `metrics`
 * and `report`.  slurmctld writes it in StateSaveLocation, so a reader
 * run by an administrator must not be led elsewhere or fed without bound:
 * the files are opened with O_NOFOLLOW, only as regular files, read up to
 * FSE_OBSERVE_MAX bytes each, and every line goes through fse_obs_parse
 * (printable ASCII only, every field in its range).  A line that is not
 * of the form is counted and its file's first reported, never used.
 */
#define _GNU_SOURCE
#include "fabsched_cli.h"
#include "fabsched_select.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Each file: the writer moves it to ".1" before it would pass this. */
#define OBS_FILE_MAX ((size_t)FSE_OBSERVE_MAX)

/* @path opened for reading, never through a link, a regular file only.
 * RET the descriptor; -1 when it is not there; -2 with @why otherwise. */
static int _open(const char *path, char *why, size_t n)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;

	if (fd < 0 && errno == ENOENT)
		return -1;
	if (fd < 0) {
		/* O_NOFOLLOW fails with ELOOP on a link: say what it is */
		snprintf(why, n, "%s: cannot read: %s", path,
			 errno == ELOOP ? "it is a symbolic link; expected a regular file"
					: strerror(errno));
		return -2;
	}
	if (fstat(fd, &st)) {
		snprintf(why, n, "%s: cannot read: %s", path, strerror(errno));
		close(fd);
		return -2;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, n, "%s: cannot read: it is %s; expected a regular file", path,
			 S_ISDIR(st.st_mode)	? "a directory"
			 : S_ISFIFO(st.st_mode) ? "a FIFO"
						: "not a regular file");
		close(fd);
		return -2;
	}
	return fd;
}

/* At most OBS_FILE_MAX bytes of @fd, NUL-terminated, into *@buf; *@cut
 * when there was more (one byte past the limit is read to know).  RET the
 * length, or -1 with @why. */
static ssize_t _slurp(int fd, const char *path, char **buf, bool *cut, char *why, size_t n)
{
	size_t size = 64 << 10, len = 0;
	char *b = malloc(size + 1), *nb;
	ssize_t r = 0;

	while (b) {
		if (len == size) {
			if (size > OBS_FILE_MAX)
				break;
			size = size * 2 > OBS_FILE_MAX ? OBS_FILE_MAX + 1 : size * 2;
			if (!(nb = realloc(b, size + 1))) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
		}
		if ((r = read(fd, b + len, size - len)) <= 0)
			break;
		len += (size_t)r;
	}
	if (!b || r < 0) {
		snprintf(why, n, "%s: cannot read: %s", path,
			 b ? strerror(errno) : "out of memory");
		free(b);
		return -1;
	}
	*cut = len > OBS_FILE_MAX;
	if (*cut)
		len = OBS_FILE_MAX;
	b[len] = '\0';
	*buf = b;
	return (ssize_t)len;
}

static void _bad(struct fs_obs_log *l, int f, size_t lineno, const char *msg)
{
	if (!l->bad[f]++)
		snprintf(l->first_bad[f], sizeof(l->first_bad[f]), "%s:%zu: %s", l->file[f], lineno,
			 msg);
}

static int _keep(struct fs_obs_log *l, const char *text, uint64_t job)
{
	struct fs_obs_line *nl;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		if (!(nl = realloc(l->line, l->cap * sizeof(*nl))))
			return -1;
		l->line = nl;
	}
	l->line[l->n] = (struct fs_obs_line){ text, job, l->n };
	l->n++;
	return 0;
}

/* The lines of file @f (its text in l->buf[f], @len bytes) checked. */
static int _lines(struct fs_obs_log *l, int f, size_t len)
{
	char *p = l->buf[f], *end = p + len, err[512];
	struct fse_obs o;
	size_t lineno = 0;

	if (l->cut[f]) /* the last line read was cut at the limit: not a line */
		for (end = p + len; end > p && end[-1] != '\n'; end--)
			;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *nul;

		lineno++;
		if (!nl) { /* slurmctld writes whole lines: this one is cut */
			_bad(l, f, lineno, "no newline at its end; expected whole lines");
			break;
		}
		*nl = '\0';
		/* fse_obs_parse sees a line up to its first NUL: say it here */
		if ((nul = memchr(p, '\0', (size_t)(nl - p))))
			snprintf(err, sizeof(err),
				 "byte 0x00 at column %zu; expected printable ASCII",
				 (size_t)(nul - p) + 1);
		if (nul || fse_obs_parse(p, &o, err, sizeof(err)))
			_bad(l, f, lineno, err);
		else if (_keep(l, p, (uint64_t)o.job_id << 32 | o.task))
			return -1;
		p = nl + 1;
	}
	return 0;
}

static int _by_job(const void *a, const void *b)
{
	const struct fs_obs_line *x = a, *y = b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int _by_seq(const void *a, const void *b)
{
	const struct fs_obs_line *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Of each job's lines the last one stays (a requeued job starts again),
 * the rest in the log's order. */
static void _last_per_job(struct fs_obs_log *l)
{
	size_t k = 0;

	qsort(l->line, l->n, sizeof(*l->line), _by_job);
	for (size_t i = 0; i < l->n; i++)
		if (i + 1 == l->n || l->line[i + 1].job != l->line[i].job)
			l->line[k++] = l->line[i];
	l->n = k;
	qsort(l->line, l->n, sizeof(*l->line), _by_seq);
}

/* File @f of the log (@path) read and its lines checked; not there is
 * no error.  RET 0, or -1 with @why. */
static int _file(struct fs_obs_log *l, int f, const char *path, char *why, size_t n)
{
	int fd = _open(path, why, n);
	ssize_t len;

	if (fd == -1)
		return 0;
	if (fd < 0)
		return -1;
	len = _slurp(fd, path, &l->buf[f], &l->cut[f], why, n);
	close(fd);
	if (len < 0)
		return -1;
	if (!(l->file[f] = strdup(path)) || _lines(l, f, (size_t)len)) {
		snprintf(why, n, "%s: out of memory", path);
		return -1;
	}
	return 0;
}

int fs_cli_obs_read(const char *path, struct fs_obs_log **log, char *why, size_t n)
{
	struct fs_obs_log *l = calloc(1, sizeof(*l));
	char *old = NULL;
	int rc;

	*log = NULL;
	if (!l || asprintf(&old, "%s.1", path) < 0) {
		snprintf(why, n, "%s: out of memory", path);
		free(l);
		return -1;
	}
	rc = _file(l, 0, old, why, n) || _file(l, 1, path, why, n) ? -1 : 0;
	free(old);
	if (rc) {
		fs_cli_obs_free(l);
		return -1;
	}
	_last_per_job(l);
	*log = l;
	return 0;
}

void fs_cli_obs_free(struct fs_obs_log *l)
{
	if (!l)
		return;
	for (int f = 0; f < FS_OBS_FILES; f++) {
		free(l->file[f]);
		free(l->buf[f]);
	}
	free(l->line);
	free(l);
}

int fs_cli_obs_nfiles(const struct fs_obs_log *l)
{
	int k = 0;

	for (int f = 0; l && f < FS_OBS_FILES; f++)
		k += l->file[f] != NULL;
	return k;
}

int fs_cli_obs_get(const struct fs_obs_log *l, size_t i, struct fse_obs *o)
{
	return i < l->n ? fse_obs_parse(l->line[i].text, o, NULL, 0) : -1;
}

char *fs_cli_obs_job_name(const struct fse_obs *o, char *buf, size_t n)
{
	if (o->task == FSE_NO_TASK)
		snprintf(buf, n, "%" PRIu32, o->job_id);
	else
		snprintf(buf, n, "%" PRIu32 "_%" PRIu32, o->job_id, o->task);
	return buf;
}

int fs_cli_obs_job(const struct fs_obs_log *l, uint32_t id, uint32_t task, struct fse_obs *o)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (l->line[i].job == ((uint64_t)id << 32 | task))
			return fs_cli_obs_get(l, i, o);
	return -1;
}

unsigned long fs_cli_obs_warn(const struct fs_obs_log *l, const char *prog)
{
	unsigned long all = 0;

	for (int f = 0; l && f < FS_OBS_FILES; f++) {
		if (l->cut[f])
			fprintf(stderr,
				"%s: %s: longer than %zu bytes, the most slurmctld writes "
				"before it rotates the log; only its first %zu read\n",
				prog, l->file[f], OBS_FILE_MAX, OBS_FILE_MAX);
		if (!l->bad[f])
			continue;
		fprintf(stderr,
			"%s: %s (%lu line%s of %s not of the observation record's form, "
			"not counted)\n",
			prog, l->first_bad[f], l->bad[f], l->bad[f] == 1 ? "" : "s", l->file[f]);
		all += l->bad[f];
	}
	return all;
}

char *fs_cli_obs_place(const struct fse_obs_place *p, char *buf, size_t n)
{
	const char *where = p->kind == FSE_OBS_POD   ? " of one pod"
			    : p->kind == FSE_OBS_ANY ? " across pods"
						     : "";
	bool list = strcmp(p->racks, "-") != 0;

	snprintf(buf, n, "%" PRIu32 " rack%s%s%s%s%s", p->nracks, p->nracks == 1 ? "" : "s",
		 list ? " (" : "", list ? p->racks : "", list ? ")" : "", where);
	return buf;
}

char *fs_cli_obs_sentence(const struct fse_obs *o, char *buf, size_t n)
{
	char got[300], would[300];

	fs_cli_obs_place(&o->got, got, sizeof(got));
	if (o->would.kind == FSE_OBS_WAIT)
		snprintf(buf, n, "got %s; fabsched would have kept it waiting: %s", got, o->why);
	else if (o->would.kind == FSE_OBS_STOCK)
		snprintf(buf, n, "got %s; fabsched would have left it to Slurm's choice: %s", got,
			 o->why);
	else
		snprintf(buf, n, "got %s; fabsched would have placed it in %s", got,
			 fs_cli_obs_place(&o->would, would, sizeof(would)));
	return buf;
}

/* "r1,r2" as ["r1", "r2"]; "-" as []. */
static json_object *_racks(const char *racks)
{
	json_object *a = json_object_new_array();
	const char *p = racks;

	while (strcmp(racks, "-") && *p) {
		size_t k = strcspn(p, ",");

		json_object_array_add(a, json_object_new_string_len(p, (int)k));
		p += k + (p[k] == ',');
	}
	return a;
}

static json_object *_place_json(const struct fse_obs_place *p)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "kind",
			       json_object_new_string(fse_obs_kind_name(p->kind) ?: "?"));
	json_object_object_add(o, "racks", _racks(p->racks));
	json_object_object_add(o, "nracks", json_object_new_int64(p->nracks));
	return o;
}

json_object *fs_cli_obs_json(const struct fse_obs *o)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "time", json_object_new_int64(o->time));
	json_object_object_add(j, "level", json_object_new_string(fse_level_name(o->level)));
	json_object_object_add(j, "fits", json_object_new_boolean(o->fits));
	json_object_object_add(j, "nodes", json_object_new_int64(o->nodes));
	json_object_object_add(
		j, "waited",
		json_object_new_int64(o->waited > INT64_MAX ? INT64_MAX : (int64_t)o->waited));
	json_object_object_add(j, "got", _place_json(&o->got));
	json_object_object_add(j, "would", _place_json(&o->would));
	json_object_object_add(j, "why", json_object_new_string(o->why));
	return j;
}
