/*
 * sacct_parsable.c - the job records of sacct -P (or -p): '|'-separated
 * fields under a header line that names them, in any order.  Columns and
 * rules: fabsched_sim.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <zlib.h>

#include "fabsched_sim.h"
#include "fs_err.h"
#include "fs_values.h"
#include "trace_private.h"

/* a limit beyond this is none (sums of times stay far inside int64) */
#define LIMIT_MAX 1000000000000000LL

#define FORM                                                                          \
	"expected the output of sacct -P under its header line, naming at least "     \
	"JobIDRaw, Submit, Start, End, Timelimit, NNodes and State in any order, as " \
	"sacct -a -P -X -S START -E END -o "                                          \
	"JobIDRaw,Partition,Submit,Eligible,Start,End,Timelimit,NNodes,NCPUS,State,NodeList prints"

enum col {
	C_ID,
	C_SUBMIT,
	C_START,
	C_END,
	C_LIMIT,
	C_NNODES,
	C_STATE,
	C_PART,
	C_NCPUS,
	C_NODELIST,
	C_ELIGIBLE,
	C_N
};

/* The header names of each column, in sacct's spelling (any case). */
static const struct {
	const char *name, *alt;
	bool required;
} _cols[C_N] = {
	[C_ID] = { "JobIDRaw", NULL, true },
	[C_SUBMIT] = { "Submit", NULL, true },
	[C_START] = { "Start", NULL, true },
	[C_END] = { "End", NULL, true },
	[C_LIMIT] = { "Timelimit", "TimelimitRaw", true },
	[C_NNODES] = { "NNodes", NULL, true },
	[C_STATE] = { "State", NULL, true },
	[C_PART] = { "Partition", NULL, false },
	[C_NCPUS] = { "NCPUS", "AllocCPUS", false },
	[C_NODELIST] = { "NodeList", NULL, false },
	[C_ELIGIBLE] = { "Eligible", NULL, false },
};

struct parsable {
	const char *path;
	long line;
	int col[C_N];	/* field of each column, -1 absent */
	int nfields;	/* of the header; 0 before it */
	char **f;	/* [nfields] fields of the current line */
	char state[32]; /* base state of the current record */
};

/* Splits line in place into at most max fields; their count, or max + 1
 * when there are more. */
static int _split(char *line, char **f, int max)
{
	int n = 0;

	for (char *p = line;; p++) {
		if (n > max)
			return n;
		if (n < max)
			f[n] = p;
		n++;
		p = strchr(p, '|');
		if (!p)
			return n;
		*p = 0;
	}
}

static int _header(struct parsable *p, char *line, char *err, size_t errlen)
{
	int n = 1;

	for (const char *c = line; (c = strchr(c, '|')); c++)
		n++;
	if (!(p->f = calloc(n, sizeof(*p->f))))
		return fs_errf(err, errlen, "%s: out of memory", p->path);
	p->nfields = _split(line, p->f, n);
	for (int c = 0; c < C_N; c++) {
		p->col[c] = -1;
		for (int i = 0; i < n && p->col[c] < 0; i++)
			if (!strcasecmp(p->f[i], _cols[c].name) ||
			    (_cols[c].alt && !strcasecmp(p->f[i], _cols[c].alt)))
				p->col[c] = i;
		if (p->col[c] < 0 && _cols[c].required)
			return fs_errf(err, errlen, "%s:%ld: no %s column in the header; %s",
				       p->path, p->line, _cols[c].name, FORM);
	}
	return 0;
}

/* The value of column c on the current line, "" when absent. */
static const char *_val(const struct parsable *p, enum col c)
{
	return p->col[c] < 0 ? "" : p->f[p->col[c]];
}

static int _bad(const struct parsable *p, enum col c, const char *want, char *err, size_t errlen)
{
	return fs_errf(err, errlen, "%s:%ld: %s '%.40s' is not %s; %s", p->path, p->line,
		       _cols[c].name, _val(p, c), want, FORM);
}

/* A time as sacct prints it: -1 for Unknown, None or nothing. */
static int _time(const struct parsable *p, enum col c, int64_t *t, char *err, size_t errlen)
{
	const char *s = _val(p, c);
	struct tm tm = { 0 };
	int n = -1;

	*t = -1;
	if (!*s || !strcmp(s, "Unknown") || !strcmp(s, "None"))
		return 0;
	if (s[strspn(s, "0123456789")] == 0) {
		errno = 0;
		*t = strtoll(s, NULL, 10);
		if (errno == ERANGE || *t > SACCT_TIME_MAX)
			return _bad(p, c, "a time (seconds since the epoch up to 10^11)", err,
				    errlen);
		if (*t == 0)
			*t = -1;
		return 0;
	}
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
	    s[n])
		return _bad(p, c, "a time (YYYY-MM-DDTHH:MM:SS, or seconds since the epoch)", err,
			    errlen);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_isdst = -1;
	*t = mktime(&tm);
	return 0;
}

/* A count: -1 when empty. */
static int _count(const struct parsable *p, enum col c, int64_t *v, char *err, size_t errlen)
{
	const char *s = _val(p, c);

	*v = -1;
	if (!*s)
		return 0;
	if (s[strspn(s, "0123456789")] || strlen(s) > 9)
		return _bad(p, c, "a count", err, errlen);
	*v = strtoll(s, NULL, 10);
	return 0;
}

/* The time limit in seconds: -1 when none (UNLIMITED, Partition_Limit). */
static int _limit(const struct parsable *p, int64_t *v, char *err, size_t errlen)
{
	const char *s = _val(p, C_LIMIT);
	char msg[FS_MSG_SIZE];
	uint64_t secs;

	*v = -1;
	if (!*s || !strcmp(s, "Partition_Limit") || !strcmp(s, "UNLIMITED"))
		return 0;
	if (fs_parse_duration(NULL, s, &secs, msg, sizeof(msg)))
		return _bad(p, C_LIMIT,
			    "a time limit (Slurm time format, UNLIMITED or Partition_Limit)", err,
			    errlen);
	if (secs > 0 && secs <= LIMIT_MAX)
		*v = (int64_t)secs;
	return 0;
}

/* The base state: the first word, "CANCELLED" of "CANCELLED by 1000". */
static const char *_state(struct parsable *p)
{
	const char *s = _val(p, C_STATE);
	size_t n = strcspn(s, " ");

	if (n >= sizeof(p->state))
		n = sizeof(p->state) - 1;
	for (size_t i = 0; i < n; i++)
		p->state[i] = (char)toupper((unsigned char)s[i]);
	p->state[n] = 0;
	return p->state;
}

/* The current line's fields as a record; 1 for a step line. */
static int _fill(struct parsable *p, struct sacct_rec *r, char *err, size_t errlen)
{
	const char *id = _val(p, C_ID);
	size_t digits = strspn(id, "0123456789");

	if (digits && id[digits] == '.')
		return 1;
	if (!digits || id[digits] || digits > 18)
		return _bad(p, C_ID, "a job id (digits; a step: digits.step)", err, errlen);
	memset(r, 0, sizeof(*r));
	r->id = strtol(id, NULL, 10);
	r->line = p->line;
	if (_time(p, C_SUBMIT, &r->submit, err, errlen) ||
	    _time(p, C_ELIGIBLE, &r->eligible, err, errlen) ||
	    _time(p, C_START, &r->start, err, errlen) || _time(p, C_END, &r->end, err, errlen) ||
	    _limit(p, &r->limit, err, errlen) || _count(p, C_NNODES, &r->nodes, err, errlen) ||
	    _count(p, C_NCPUS, &r->cpus, err, errlen))
		return -1;
	if (r->submit < 0)
		return _bad(p, C_SUBMIT, "known: every job has a submit time", err, errlen);
	r->state = _state(p);
	r->partition = _val(p, C_PART);
	r->nodelist = _val(p, C_NODELIST);
	return 0;
}

static int _record(struct parsable *p, char *line, struct sacct_build *b, char *err, size_t errlen)
{
	struct sacct_rec r;
	int n = _split(line, p->f, p->nfields), rc;

	if (n != p->nfields)
		return fs_errf(err, errlen, "%s:%ld: %s%d fields, the header has %d; %s", p->path,
			       p->line, n > p->nfields ? "more than " : "",
			       n > p->nfields ? p->nfields : n, p->nfields, FORM);
	rc = _fill(p, &r, err, errlen);
	if (rc == 1) {
		b->tr->sacct.steps++;
		return 0;
	}
	if (!rc && fss_sacct_add(b, &r))
		return fs_errf(err, errlen, "%s: out of memory", p->path);
	return rc;
}

int fss_sacct_parsable_read(gzFile gz, const char *path, struct sacct_build *b, char *err,
			    size_t errlen)
{
	struct parsable p = { .path = path };
	char *line = NULL;
	size_t cap = 0;
	int rc = 0, got = 0;

	while (!rc && (got = fss_gz_line(gz, &line, &cap)) > 0) {
		p.line++;
		if (!line[strspn(line, " \t")])
			continue;
		rc = p.nfields ? _record(&p, line, b, err, errlen) : _header(&p, line, err, errlen);
	}
	if (!rc && got < 0)
		rc = fs_errf(err, errlen, "%s: out of memory", path);
	else if (!rc && !gzeof(gz))
		rc = fs_errf(err, errlen, "%s:%ld: read error; %s", path, p.line + 1, FORM);
	else if (!rc && !p.nfields)
		rc = fs_errf(err, errlen, "%s: no header line; %s", path, FORM);
	snprintf(b->tr->source, sizeof(b->tr->source), "sacct -P");
	free(line);
	free(p.f);
	return rc;
}
