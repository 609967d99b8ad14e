/*
 * fabsched report — what Locality=observe saw over a period, for an
 * administrator deciding whether to turn locality on: per partition the
 * observed jobs, those that fit one domain of their locality (rack-
 * fittable), the share of them that got one domain from Slurm beside the
 * share fabsched would have given one, the jobs it would have held back,
 * the racks per job got and would, and the jobs where the two differ most.
 * Text, --json, or --html FILE (a self-contained page with a plot per
 * partition, report_html.c).  Reads the observation log only
 * (observe_log.c): a line not of its form is counted, never used.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "fabsched_cli.h"
#include "opts.h"
#include "report.h"
#include "fs_err.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROG "fabsched report"
#define TIME_FORMS                                                            \
	"seconds since 1970 (e.g. 1764800000) or YYYY-MM-DD[THH:MM[:SS]] in " \
	"local time (e.g. 2025-12-03 or 2025-12-03T14:30)"
#define TIME_LAST 253402300799LL /* 9999-12-31T23:59:59 UTC */
#define HOUR 3600
#define DAY 86400
#define WEEK (7 * DAY)

enum { O_SINCE = 256, O_UNTIL, O_PART, O_OBSERVE, O_JSON, O_HTML };

/* fabsched(1), REPORT. */
static const struct fs_opt _report_opts[] = {
	{ O_SINCE, 0, "since", "TIME",
	  "observations from then on (seconds since 1970, or\n"
	  "YYYY-MM-DD[THH:MM[:SS]] local time)",
	  NULL, NULL },
	{ O_UNTIL, 0, "until", "TIME", "observations before then (the same forms)", NULL, NULL },
	{ O_PART, 0, "partition", "PARTITIONS",
	  "these partitions only (comma list;\n"
	  "repeatable)",
	  NULL, NULL },
	{ O_OBSERVE, 0, "observe", "FILE",
	  "the observation log (default: fabsched_observe in\n"
	  "StateSaveLocation, from scontrol show config)",
	  NULL, NULL },
	{ O_JSON, 0, "json", NULL, "one JSON object instead of text", NULL, NULL },
	{ O_HTML, 0, "html", "FILE",
	  "write a self-contained HTML page there (replaced\n"
	  "atomically)",
	  NULL, NULL },
	{ 'h', 'h', "help", NULL, "this help", NULL, NULL },
	{ 0, 0, NULL, NULL, NULL, NULL, NULL }
};

static void _usage(FILE *out)
{
	fprintf(out,
		"usage: fabsched report [--since TIME] [--until TIME] [--partition PARTITIONS]...\n"
		"                       [--observe FILE] [--json] [--html FILE]\n"
		"\n"
		"What Locality=observe saw over a period, per partition: the jobs, those\n"
		"that fit one domain of their locality, the share of them Slurm placed in\n"
		"one domain beside the share fabsched would have, the jobs fabsched would\n"
		"have held back, racks per job got and would, and the jobs where the two\n"
		"differ most (fabsched(1), REPORT).\n");
	fs_cli_opt_help(out, _report_opts);
	fprintf(out, "\nexit codes: 0 reported, 1 the log cannot be read or holds no observation\n"
		     "of the period, 2 usage error\n");
}

/* ------------------------------------------------------------ options */

/* "dddd-dd-dd", "dddd-dd-ddTdd:dd" or "dddd-dd-ddTdd:dd:dd": d a digit. */
static bool _form(const char *s)
{
	static const char *const forms[] = { "0000-00-00", "0000-00-00T00:00",
					     "0000-00-00T00:00:00" };

	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		size_t i;

		if (strlen(s) != strlen(forms[f]))
			continue;
		for (i = 0; s[i]; i++)
			if (forms[f][i] == '0' ? s[i] < '0' || s[i] > '9' : s[i] != forms[f][i])
				break;
		if (!s[i])
			return true;
	}
	return false;
}

static bool _date_ok(int y, int mo, int d)
{
	static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (y % 4 == 0 && y % 100) || y % 400 == 0;

	return y >= 1970 && mo >= 1 && mo <= 12 && d >= 1 && d <= days[mo - 1] - (mo == 2 && !leap);
}

/* @s of option @opt as seconds since 1970.  RET 0, or -1 said on stderr. */
static int _when(const char *opt, const char *s, int64_t *t)
{
	struct tm tm = { .tm_isdst = -1 };
	char *end;
	long long v;

	if (*s >= '0' && *s <= '9' && strspn(s, "0123456789") == strlen(s)) {
		errno = 0;
		v = strtoll(s, &end, 10);
		if (!errno && v <= TIME_LAST) {
			*t = v;
			return 0;
		}
	} else if (_form(s)) {
		tm.tm_year = atoi(s) - 1900;
		tm.tm_mon = atoi(s + 5) - 1;
		tm.tm_mday = atoi(s + 8);
		tm.tm_hour = s[10] ? atoi(s + 11) : 0;
		tm.tm_min = s[10] ? atoi(s + 14) : 0;
		tm.tm_sec = s[10] && s[16] ? atoi(s + 17) : 0;
		if (_date_ok(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday) && tm.tm_hour < 24 &&
		    tm.tm_min < 60 && tm.tm_sec < 60 && (*t = mktime(&tm)) != -1)
			return 0;
	}
	fprintf(stderr, PROG ": %s '%s': not a time; expected " TIME_FORMS "\n", opt, s);
	return -1;
}

static bool _asked(const struct report *r, const char *name, size_t k)
{
	for (int i = 0; i < r->np; i++)
		if (strlen(r->p[i].name) == k && !strncmp(r->p[i].name, name, k))
			return true;
	return false;
}

/* The partitions of a --partition value added to r->p.  RET 0, or -1
 * said on stderr. */
static int _parts_opt(struct report *r, const char *list)
{
	const char *p = list;

	do {
		size_t k = strcspn(p, ",");
		struct rep_part *np;

		if (!k || k >= sizeof(r->p->name)) {
			fprintf(stderr,
				PROG ": --partition '%s': expected partition names of 1 to "
				     "%zu characters, separated by commas\n",
				list, sizeof(r->p->name) - 1);
			return -1;
		}
		if (!_asked(r, p, k)) {
			if (!(np = realloc(r->p, sizeof(*np) * (size_t)(r->np + 1))))
				return -1;
			r->p = np;
			memset(&r->p[r->np], 0, sizeof(*r->p));
			snprintf(r->p[r->np++].name, sizeof(r->p->name), "%.*s", (int)k, p);
		}
		p += k;
	} while (*p++ == ',');
	return 0;
}

/* ------------------------------------------------------------ figures */

char *fs_cli_report_time(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!localtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, n, "%" PRId64, t);
	return buf;
}

char *fs_cli_report_share(unsigned long a, unsigned long b, char *buf, size_t n)
{
	if (!b)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.1f%% (%lu of %lu)", 100.0 * (double)a / (double)b, a, b);
	return buf;
}

static const char *_part_name(const struct fse_obs *o)
{
	return o->part[0] ? o->part : "-";
}

/* The partition of @o among those asked (NULL: not asked), or a new one
 * when none was asked (@open). */
static struct rep_part *_part(struct report *r, const struct fse_obs *o, bool open)
{
	struct rep_part *np;

	for (int i = 0; i < r->np; i++)
		if (!strcmp(r->p[i].name, _part_name(o)))
			return &r->p[i];
	if (!open || !(np = realloc(r->p, sizeof(*np) * (size_t)(r->np + 1))))
		return NULL;
	r->p = np;
	memset(&r->p[r->np], 0, sizeof(*r->p));
	snprintf(r->p[r->np].name, sizeof(r->p->name), "%s", _part_name(o));
	return &r->p[r->np++];
}

static bool _in_period(const struct report *r, const struct fse_obs *o)
{
	return (!r->since_set || o->time >= r->since) && (!r->until_set || o->time < r->until);
}

/* The start of the local hour, day or Monday of @t (steps of @unit s);
 * the arithmetic one where the C library has no local time for it. */
static int64_t _floor(int64_t t, int64_t unit)
{
	time_t tt = (time_t)t, f;
	struct tm tm;

	if (!localtime_r(&tt, &tm))
		return t - ((t % unit) + unit) % unit;
	tm.tm_sec = tm.tm_min = 0;
	if (unit >= DAY)
		tm.tm_hour = 0;
	if (unit >= WEEK)
		tm.tm_mday -= (tm.tm_wday + 6) % 7;
	tm.tm_isdst = -1;
	f = mktime(&tm);
	return f == (time_t)-1 || f > t ? t - ((t % unit) + unit) % unit : (int64_t)f;
}

/* The bucket after the one at @t: local days and weeks keep their
 * midnight across a change of summer time. */
static int64_t _next(int64_t t, int64_t unit)
{
	time_t tt = (time_t)t, f;
	struct tm tm;

	if (unit >= DAY && unit / DAY < 100000 && localtime_r(&tt, &tm)) {
		tm.tm_mday += (int)(unit / DAY);
		tm.tm_isdst = -1;
		if ((f = mktime(&tm)) != (time_t)-1 && f > tt)
			return (int64_t)f;
	}
	return t > INT64_MAX - unit ? INT64_MAX : t + unit;
}

/* Buckets over [lo, hi): hours, days or weeks, at most about
 * REPORT_BUCKETS of them (weeks several at a time past that). */
static int _buckets(struct report *r, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)(hi - lo);
	int64_t unit = span <= (uint64_t)REPORT_BUCKETS * HOUR	? HOUR
		       : span <= (uint64_t)REPORT_BUCKETS * DAY ? DAY
								: WEEK;
	int max = REPORT_BUCKETS + 3;

	if (unit == WEEK && span > (uint64_t)REPORT_BUCKETS * WEEK)
		unit *= (int64_t)(span / ((uint64_t)REPORT_BUCKETS * WEEK)) + 1;
	if (unit == HOUR || unit == DAY || unit == WEEK)
		snprintf(r->bucket, sizeof(r->bucket), "%s",
			 unit == HOUR  ? "hour"
			 : unit == DAY ? "day"
				       : "week");
	else
		snprintf(r->bucket, sizeof(r->bucket), "%" PRId64 " weeks", unit / WEEK);
	if (!(r->start = malloc(sizeof(*r->start) * (size_t)(max + 1))))
		return -1;
	r->start[0] = _floor(lo, unit);
	for (r->nb = 0; r->nb < max && r->start[r->nb] < hi; r->nb++)
		r->start[r->nb + 1] = _next(r->start[r->nb], unit);
	for (int i = 0; i < r->np; i++)
		if (!(r->p[i].b = calloc((size_t)r->nb + 1, sizeof(*r->p[i].b))))
			return -1;
	return 0;
}

static int _bucket_of(const struct report *r, int64_t t)
{
	int lo = 0, hi = r->nb - 1;

	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;

		if (r->start[mid] <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* @o into the jobs of @p where they differ most: fabsched would have used
 * one rack, Slurm used the most racks (then the older job first). */
static void _differ(struct rep_part *p, const struct fse_obs *o)
{
	int k;

	if (o->would.kind != FSE_OBS_RACK || o->got.nracks <= 1)
		return;
	for (k = p->ndiffer; k > 0 && p->differ[k - 1].got.nracks < o->got.nracks; k--)
		;
	if (k == REPORT_TOP)
		return;
	if (p->ndiffer < REPORT_TOP)
		p->ndiffer++;
	memmove(&p->differ[k + 1], &p->differ[k], sizeof(*o) * (size_t)(p->ndiffer - 1 - k));
	p->differ[k] = *o;
}

/* @o into the latest jobs fabsched would have held, newest first. */
static void _held(struct rep_part *p, const struct fse_obs *o)
{
	int k;

	for (k = p->nheld; k > 0 && p->held_last[k - 1].time < o->time; k--)
		;
	if (k == REPORT_TOP)
		return;
	if (p->nheld < REPORT_TOP)
		p->nheld++;
	memmove(&p->held_last[k + 1], &p->held_last[k], sizeof(*o) * (size_t)(p->nheld - 1 - k));
	p->held_last[k] = *o;
}

static void _count(struct report *r, struct rep_part *p, const struct fse_obs *o)
{
	struct rep_bucket *b = &p->b[_bucket_of(r, o->time)];
	bool held = o->would.kind == FSE_OBS_WAIT;
	bool got = fse_obs_in_domain(&o->got, o->level);
	bool would = fse_obs_in_domain(&o->would, o->level);

	p->jobs++;
	b->jobs++;
	if (held) {
		p->held++;
		_held(p, o);
	}
	if (o->would.kind <= FSE_OBS_ANY) {
		p->placed++;
		p->racks_got += o->got.nracks;
		p->racks_would += o->would.nracks;
	}
	_differ(p, o);
	if (!o->fits) /* the shares are of the jobs that fit one domain */
		return;
	p->fit++;
	b->fit++;
	p->got += got;
	b->got += got;
	p->would += would;
	p->held_fit += held;
	/* a held job waits until its domain is free: it would have got one */
	b->would += would || held;
}

/* The observations of the period and partitions: the first pass finds
 * their span (the buckets), the second counts them.  RET 0; 1 when none
 * is there; -1 out of memory. */
static int _figures(struct report *r, const struct fs_obs_log *log, bool open)
{
	struct fse_obs o;
	struct rep_part *p;

	for (size_t i = 0; i < log->n; i++) {
		if (fs_cli_obs_get(log, i, &o) || !_in_period(r, &o) || !_part(r, &o, open))
			continue;
		if (!r->jobs++ || o.time < r->first)
			r->first = o.time;
		if (o.time > r->last)
			r->last = o.time;
	}
	if (!r->jobs)
		return 1;
	if (_buckets(r, r->since_set ? r->since : r->first,
		     r->until_set	   ? r->until
		     : r->last < INT64_MAX ? r->last + 1
					   : INT64_MAX))
		return -1;
	for (size_t i = 0; i < log->n; i++)
		if (!fs_cli_obs_get(log, i, &o) && _in_period(r, &o) && (p = _part(r, &o, false)))
			_count(r, p, &o);
	return 0;
}

/* ------------------------------------------------------------ output */

static void _text_part(const struct rep_part *p)
{
	char a[64], b[64], t[32], line[1200], jn[32];

	printf("\npartition %s\n", p->name);
	if (!p->jobs) {
		printf("  no observation in the period\n");
		return;
	}
	printf("  jobs observed   %lu\n", p->jobs);
	printf("  rack-fittable   %lu (fit one domain of their locality on the idle machine)\n",
	       p->fit);
	if (p->fit)
		printf("  in one domain   got %s; would %s\n",
		       fs_cli_report_share(p->got, p->fit, a, sizeof(a)),
		       fs_cli_report_share(p->would + p->held_fit, p->fit, b, sizeof(b)));
	else
		printf("  in one domain   - (no rack-fittable job)\n");
	if (p->held_fit)
		printf("                  (would: %lu placed at once, %lu held until one was free)\n",
		       p->would, p->held_fit);
	printf("  held back       %lu job%s fabsched would have kept waiting for %s locality\n",
	       p->held, p->held == 1 ? "" : "s", p->held == 1 ? "its" : "their");
	if (p->placed)
		printf("  racks per job   got %.2f, would %.2f (the %lu job%s fabsched would have placed)\n",
		       (double)p->racks_got / p->placed, (double)p->racks_would / p->placed,
		       p->placed, p->placed == 1 ? "" : "s");
	for (int i = 0; i < p->ndiffer; i++)
		printf("  %-15s job %s at %s: %s\n", i ? "" : "differs most",
		       fs_cli_obs_job_name(&p->differ[i], jn, sizeof(jn)),
		       fs_cli_report_time(p->differ[i].time, t, sizeof(t)),
		       fs_cli_obs_sentence(&p->differ[i], line, sizeof(line)));
	for (int i = 0; i < p->nheld; i++) /* the log's text: printable ASCII */
		printf("  %-15s job %s at %s: %s\n", i ? "" : "held (latest)",
		       fs_cli_obs_job_name(&p->held_last[i], jn, sizeof(jn)),
		       fs_cli_report_time(p->held_last[i].time, t, sizeof(t)), p->held_last[i].why);
}

static void _text(const struct report *r)
{
	char t1[32], t2[32];

	printf("fabsched report: %lu job%s observed from %s to %s", r->jobs,
	       r->jobs == 1 ? "" : "s", fs_cli_report_time(r->first, t1, sizeof(t1)),
	       fs_cli_report_time(r->last, t2, sizeof(t2)));
	printf(" (period: from %s",
	       r->since_set ? fs_cli_report_time(r->since, t1, sizeof(t1)) : "the log's start");
	printf(" to %s; one bucket per %s)\n",
	       r->until_set ? fs_cli_report_time(r->until, t2, sizeof(t2)) : "its end", r->bucket);
	printf("log: %s%s%s; %lu bad line%s (not counted)\n", r->file[0] ? r->file[0] : "",
	       r->file[0] && r->file[1] ? ", " : "", r->file[1] ? r->file[1] : "", r->bad,
	       r->bad == 1 ? "" : "s");
	for (int i = 0; i < r->np; i++)
		_text_part(&r->p[i]);
}

static json_object *_jobs_json(const struct fse_obs *o, int n)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < n; i++) {
		json_object *j = fs_cli_obs_json(&o[i]);

		char jn[32];

		json_object_object_add(j, "job",
				       o[i].task == FSE_NO_TASK
					       ? json_object_new_int64(o[i].job_id)
					       : json_object_new_string(fs_cli_obs_job_name(
							 &o[i], jn, sizeof(jn))));
		json_object_object_add(j, "partition", json_object_new_string(_part_name(&o[i])));
		json_object_array_add(a, j);
	}
	return a;
}

static json_object *_ratio(unsigned long a, unsigned long b)
{
	return b ? json_object_new_double((double)a / (double)b) : NULL;
}

static json_object *_buckets_json(const struct report *r, const struct rep_part *p)
{
	json_object *a = json_object_new_array();

	for (int k = 0; k < r->nb; k++) {
		json_object *b = json_object_new_object();

		json_object_object_add(b, "start", json_object_new_int64(r->start[k]));
		json_object_object_add(b, "jobs", json_object_new_int64((int64_t)p->b[k].jobs));
		json_object_object_add(b, "fitting", json_object_new_int64((int64_t)p->b[k].fit));
		json_object_object_add(b, "got_one_domain",
				       json_object_new_int64((int64_t)p->b[k].got));
		json_object_object_add(b, "would_one_domain",
				       json_object_new_int64((int64_t)p->b[k].would));
		json_object_array_add(a, b);
	}
	return a;
}

static json_object *_part_json(const struct report *r, const struct rep_part *p)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "partition", json_object_new_string(p->name));
	json_object_object_add(o, "jobs", json_object_new_int64((int64_t)p->jobs));
	json_object_object_add(o, "fitting", json_object_new_int64((int64_t)p->fit));
	json_object_object_add(o, "got_one_domain", json_object_new_int64((int64_t)p->got));
	json_object_object_add(o, "would_one_domain", json_object_new_int64((int64_t)p->would));
	json_object_object_add(o, "held", json_object_new_int64((int64_t)p->held));
	json_object_object_add(o, "held_fitting", json_object_new_int64((int64_t)p->held_fit));
	json_object_object_add(o, "got_share", _ratio(p->got, p->fit));
	json_object_object_add(o, "would_share", _ratio(p->would + p->held_fit, p->fit));
	json_object_object_add(o, "placed", json_object_new_int64((int64_t)p->placed));
	json_object_object_add(o, "mean_racks_got",
			       p->placed ? json_object_new_double((double)p->racks_got / p->placed)
					 : NULL);
	json_object_object_add(
		o, "mean_racks_would",
		p->placed ? json_object_new_double((double)p->racks_would / p->placed) : NULL);
	json_object_object_add(o, "differs_most", _jobs_json(p->differ, p->ndiffer));
	json_object_object_add(o, "held_latest", _jobs_json(p->held_last, p->nheld));
	json_object_object_add(o, "buckets",
			       p->jobs ? _buckets_json(r, p) : json_object_new_array());
	return o;
}

static void _json(const struct report *r)
{
	json_object *o = json_object_new_object(), *files = json_object_new_array();
	json_object *parts = json_object_new_array();

	json_object_object_add(o, "since", r->since_set ? json_object_new_int64(r->since) : NULL);
	json_object_object_add(o, "until", r->until_set ? json_object_new_int64(r->until) : NULL);
	json_object_object_add(o, "first", json_object_new_int64(r->first));
	json_object_object_add(o, "last", json_object_new_int64(r->last));
	for (int f = 0; f < 2; f++)
		if (r->file[f])
			json_object_array_add(files, json_object_new_string(r->file[f]));
	json_object_object_add(o, "files", files);
	json_object_object_add(o, "bad_lines", json_object_new_int64((int64_t)r->bad));
	json_object_object_add(o, "jobs", json_object_new_int64((int64_t)r->jobs));
	json_object_object_add(o, "bucket", json_object_new_string(r->bucket));
	for (int i = 0; i < r->np; i++)
		json_object_array_add(parts, _part_json(r, &r->p[i]));
	json_object_object_add(o, "partitions", parts);
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* The page written to a new file renamed over @path.  RET 0, or -1 said. */
static int _write_html(const char *path, const struct report *r)
{
	char *tmp = NULL;
	FILE *f = NULL;
	int fd;

	if (asprintf(&tmp, "%s.tmp.%d", path, (int)getpid()) < 0)
		return -1;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		fprintf(stderr, PROG ": --html %s: cannot write: %s\n", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(tmp);
		return -1;
	}
	fs_cli_report_html(f, r);
	if (fflush(f) || ferror(f) | fclose(f) || rename(tmp, path)) {
		fprintf(stderr, PROG ": --html %s: cannot write: %s\n", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

/* ------------------------------------------------------------ the command */

static int _by_name(const void *a, const void *b)
{
	return strcmp(((const struct rep_part *)a)->name, ((const struct rep_part *)b)->name);
}

static void _free(struct report *r)
{
	for (int i = 0; i < r->np; i++)
		free(r->p[i].b);
	free(r->p);
	free(r->start);
}

/* The log at @path (NULL: StateSaveLocation's) into *@log.  RET 0, or
 * FS_EXIT_INPUT said on stderr: a log that cannot be read or is not there
 * is nothing to report on. */
static int _log(const char *path, struct fs_obs_log **log)
{
	char *dflt = path ? NULL : fs_cli_observe_file(), why[FS_MSG_SIZE];
	int rc = FS_EXIT_INPUT;

	*log = NULL;
	if (!path && !dflt)
		fprintf(stderr, PROG ": no observation log: StateSaveLocation unknown (scontrol "
				     "show config failed); expected --observe FILE\n");
	else if (fs_cli_obs_read(path ? path : dflt, log, why, sizeof(why)))
		fprintf(stderr, PROG ": %s\n", why);
	else if (!fs_cli_obs_nfiles(*log) && path)
		fprintf(stderr,
			PROG
			": --observe %s: no such file (nor %s.1); expected the "
			"observation log of Locality=observe (fabsched_observe in StateSaveLocation)\n",
			path, path);
	else if (!fs_cli_obs_nfiles(*log))
		fprintf(stderr,
			PROG
			": %s: no observation log there (nor %s.1): no partition has "
			"Locality=observe, or none of its jobs started yet; nothing to report\n",
			dflt, dflt);
	else
		rc = FS_EXIT_OK;
	if (rc) {
		fs_cli_obs_free(*log);
		*log = NULL;
	}
	free(dflt);
	return rc;
}

static void _nothing(const struct report *r, const struct fs_obs_log *log)
{
	char t1[32], t2[32];

	fprintf(stderr, PROG ": no observation from %s to %s",
		r->since_set ? fs_cli_report_time(r->since, t1, sizeof(t1)) : "the log's start",
		r->until_set ? fs_cli_report_time(r->until, t2, sizeof(t2)) : "its end");
	for (int i = 0; i < r->np; i++)
		fprintf(stderr, "%s%s", i ? "," : " in partition ", r->p[i].name);
	fprintf(stderr, " in %s%s%s (%zu jobs in all); nothing to report\n",
		log->file[0] ? log->file[0] : "", log->file[0] && log->file[1] ? " and " : "",
		log->file[1] ? log->file[1] : "", log->n);
}

/* The options into @r.  RET 0, or FS_EXIT_USAGE (said), or -1 for --help. */
static int _options(int argc, char **argv, struct report *r, const char **observe, bool *as_json,
		    const char **html)
{
	struct fs_optp op = { .prog = PROG, .tab = _report_opts };
	const char *since = NULL, *until = NULL;
	int c;

	while ((c = fs_cli_opt_next(&op, argc, argv)) != -1) {
		switch (c) {
		case O_SINCE:
			if (_when("--since", optarg, &r->since))
				return FS_EXIT_USAGE;
			r->since_set = true;
			since = optarg;
			break;
		case O_UNTIL:
			if (_when("--until", optarg, &r->until))
				return FS_EXIT_USAGE;
			r->until_set = true;
			until = optarg;
			break;
		case O_PART:
			if (_parts_opt(r, optarg))
				return FS_EXIT_USAGE;
			break;
		case O_OBSERVE:
			*observe = optarg;
			break;
		case O_JSON:
			*as_json = true;
			break;
		case O_HTML:
			*html = optarg;
			break;
		case 'h':
			_usage(stdout);
			return -1;
		default:
			return FS_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'; expected options only\n",
			argv[optind]);
		return FS_EXIT_USAGE;
	}
	if (r->since_set && r->until_set && r->since >= r->until) {
		fprintf(stderr,
			PROG ": --since %s is not before --until %s; expected a period "
			     "that ends after it starts\n",
			since, until);
		return FS_EXIT_USAGE;
	}
	return 0;
}

static int _run(int argc, char **argv)
{
	struct report r = { 0 };
	const char *observe = NULL, *html = NULL;
	bool as_json = false, asked;
	struct fs_obs_log *log = NULL;
	int rc = _options(argc, argv, &r, &observe, &as_json, &html);

	if (rc) {
		_free(&r);
		return rc < 0 ? FS_EXIT_OK : rc;
	}
	if ((rc = _log(observe, &log))) {
		_free(&r);
		return rc;
	}
	r.bad = fs_cli_obs_warn(log, PROG);
	r.file[0] = log->file[0];
	r.file[1] = log->file[1];
	asked = r.np > 0;
	rc = _figures(&r, log, !asked);
	if (rc > 0)
		_nothing(&r, log);
	if (rc < 0)
		fprintf(stderr, PROG ": out of memory\n");
	if (!rc && !asked)
		qsort(r.p, (size_t)r.np, sizeof(*r.p), _by_name);
	if (!rc && html && _write_html(html, &r))
		rc = -1;
	if (!rc && as_json)
		_json(&r);
	else if (!rc && !html)
		_text(&r);
	_free(&r);
	fs_cli_obs_free(log);
	return rc ? FS_EXIT_INPUT : FS_EXIT_OK;
}

const struct fs_cmd fs_cmd_report = {
	.name = "report",
	.summary = "what Locality=observe saw over a period, per partition",
	.run = _run,
	.usage = _usage,
	.opts = _report_opts,
};
