/*
 * swf.c - reader of Standard Workload Format job logs, plain or gzip
 * (zlib reads both).  Rules for unknown (-1) fields: fabsched_sim.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fabsched_sim.h"
#include "fs_err.h"
#include "trace_private.h"

#define SWF_FIELDS 18
/* a bound on every field: sums and differences of times stay in int64 */
#define SWF_VALUE_MAX 1e15
#define LINE_MAX_LEN 4096


void fss_trace_free(struct fss_trace *tr)
{
	if (!tr)
		return;
	free(tr->name);
	free(tr->jobs);
	for (int i = 0; i < tr->nparts; i++)
		free(tr->parts[i]);
	free(tr->parts);
	free(tr);
}

int fss_trace_push(struct fss_trace *tr, long *cap, const struct fss_job *j)
{
	if (tr->njobs == *cap) {
		long ncap = *cap ? *cap * 2 : 1024;
		struct fss_job *nj = realloc(tr->jobs, ncap * sizeof(*nj));

		if (!nj)
			return -1;
		tr->jobs = nj;
		*cap = ncap;
	}
	tr->jobs[tr->njobs++] = *j;
	return 0;
}

/* "; Key: value" header line: value of key, or -1 when another key. */
static long _header_int(const char *line, const char *key)
{
	size_t kl = strlen(key);
	const char *p = line + 1;
	char *end;
	long v;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, key, kl) || p[kl] != ':')
		return -1;
	p += kl + 1;
	errno = 0;
	v = strtol(p, &end, 10);
	if (errno || end == p || v <= 0)
		return -1;
	return v;
}

/*
 * Processors per node named by a header note: "8 processors per node",
 * "8 cores per node", "8 CPUs per node", "8 processors each", "8 cores
 * each", "8-way".  0: none.
 */
static int _note_ppn(const char *line)
{
	static const char *const after[] = {
		" processors per node", " cores per node", " cpus per node",
		" processors each", " cores each", " cpus each",
		" processors/node", " cores/node", "-way", " way",
	};
	char low[LINE_MAX_LEN];
	size_t n = 0;

	for (; line[n] && n < sizeof(low) - 1; n++)
		low[n] = (char)tolower((unsigned char)line[n]);
	low[n] = 0;
	if (!strstr(low, "note"))
		return 0;
	for (const char *p = low; *p; p++) {
		char *end;
		long v;

		if (!isdigit((unsigned char)*p) ||
		    (p > low && isdigit((unsigned char)p[-1])))
			continue;
		v = strtol(p, &end, 10);
		for (size_t k = 0; k < sizeof(after) / sizeof(after[0]); k++)
			if (!strncmp(end, after[k], strlen(after[k])) && v > 0 &&
			    v <= 100000)
				return (int)v;
	}
	return 0;
}

/* The largest d in 2..1024 (at most @cap when > 0) that at least 3 in 4
 * jobs are multiples of; 0 none.  *share: that share. */
static int _common_divisor(const struct fss_trace *tr, int cap, double *share)
{
	int best = 0;

	*share = 0;
	if (tr->njobs < 20)
		return 0;	/* too few jobs to say */
	for (int d = 2; d <= 1024 && (cap <= 0 || d <= cap); d++) {
		long k = 0;

		for (long i = 0; i < tr->njobs; i++)
			k += tr->jobs[i].procs % d == 0;
		if (k * 4 >= tr->njobs * 3) {
			best = d;
			*share = (double)k / tr->njobs;
		}
	}
	return best;
}

/* Processors per node, and why (see fabsched_sim.h). */
static void _procs_per_node(struct fss_trace *tr, int opt)
{
	double share = 0;
	int d, cap = 0;
	bool ratio = tr->max_nodes > 0 && tr->max_procs > 0;

	if (ratio) {
		/* in 64 bits: the header's counts reach INT32_MAX */
		int64_t c = 2 * (((int64_t)tr->max_procs + tr->max_nodes - 1) /
				 tr->max_nodes);

		cap = c > INT32_MAX ? INT32_MAX : (int)c;
	}
	if (opt > 0) {
		tr->procs_per_node = opt;
		snprintf(tr->procs_why, sizeof(tr->procs_why), "--ppn");
	} else if (ratio && tr->max_procs % tr->max_nodes == 0) {
		tr->procs_per_node = tr->max_procs / tr->max_nodes;
		snprintf(tr->procs_why, sizeof(tr->procs_why),
			 "MaxProcs %d / MaxNodes %d", tr->max_procs,
			 tr->max_nodes);
	} else if (tr->ppn_note > 0) {
		tr->procs_per_node = tr->ppn_note;
		snprintf(tr->procs_why, sizeof(tr->procs_why),
			 "a header note says so");
	} else if ((d = _common_divisor(tr, cap, &share)) > 0) {
		tr->procs_per_node = d;
		snprintf(tr->procs_why, sizeof(tr->procs_why),
			 "the most common job width divisor: %.0f%% of the jobs ask a multiple of %d processors%s",
			 share * 100, d, ratio ? " (MaxProcs/MaxNodes is not whole)" : "");
	} else if (ratio) {
		tr->procs_per_node = (int)((double)tr->max_procs / tr->max_nodes + 0.5);
		if (tr->procs_per_node < 1)
			tr->procs_per_node = 1;
		snprintf(tr->procs_why, sizeof(tr->procs_why),
			 "MaxProcs %d / MaxNodes %d = %.2f, rounded", tr->max_procs,
			 tr->max_nodes, (double)tr->max_procs / tr->max_nodes);
	} else {
		tr->procs_per_node = 1;
		snprintf(tr->procs_why, sizeof(tr->procs_why),
			 "nothing in the trace says: 1 (give --ppn)");
	}
}

/* Jobs of the trace that ran but are not replayed (sacct: not the jobs
 * that never started, which asked nothing of the machine). */
static long _gone(const struct fss_trace *tr)
{
	return tr->dropped_too_wide + tr->dropped_no_run + tr->dropped_no_procs +
	       tr->sacct.running + tr->sacct.no_nodes + tr->sacct.bad_time;
}

double fss_trace_dropped(const struct fss_trace *tr)
{
	long gone = _gone(tr);

	return tr->lines > 0 ? (double)gone / tr->lines : 0;
}

double fss_trace_load(const struct fss_trace *tr)
{
	int64_t first = INT64_MAX, last = INT64_MIN;
	double work = 0;

	for (long i = 0; i < tr->njobs; i++) {
		const struct fss_job *j = &tr->jobs[i];

		work += (double)j->nodes * (double)j->run;
		if (j->submit < first)
			first = j->submit;
		if (j->submit + j->run > last)
			last = j->submit + j->run;
	}
	if (!tr->njobs || last <= first || tr->machine_nodes <= 0)
		return 0;
	return work / ((double)tr->machine_nodes * (double)(last - first));
}

int fss_trace_warnings(const struct fss_trace *tr, char *buf, size_t size)
{
	double dropped = fss_trace_dropped(tr), load = fss_trace_load(tr);
	size_t n = 0;
	int k = 0;

	if (size)
		buf[0] = 0;
	if (dropped > 0.01 && n < size && tr->format != FSS_TRACE_SWF) {
		n += snprintf(buf + n, size - n, "warning: %.1f%% of the trace's jobs that ran were dropped (%ld too wide for %d nodes, %ld still running, %ld without nodes, %ld ending before they started)\n",
			      dropped * 100, tr->dropped_too_wide, tr->machine_nodes,
			      tr->sacct.running, tr->sacct.no_nodes, tr->sacct.bad_time);
		k++;
	} else if (dropped > 0.01 && n < size) {
		n += snprintf(buf + n, size - n, "warning: %.1f%% of the trace's jobs were dropped (%ld too wide for %d nodes at %d processors per node, %ld without run time, %ld without processors)\n",
			      dropped * 100, tr->dropped_too_wide, tr->machine_nodes,
			      tr->procs_per_node, tr->dropped_no_run,
			      tr->dropped_no_procs);
		k++;
	}
	if (load > 1 && n < size) {
		snprintf(buf + n, size - n, "warning: the replay asks %.2f times what %d nodes give over the trace's span: waits will grow without bound (check the processors per node, or --nodes)\n",
			 load, tr->machine_nodes);
		k++;
	}
	return k;
}

static int _cmp_submit(const void *a, const void *b)
{
	const struct fss_job *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

void fss_trace_sort(struct fss_trace *tr)
{
	if (tr->njobs > 1)
		qsort(tr->jobs, tr->njobs, sizeof(*tr->jobs), _cmp_submit);
}

/* Fields of one job line; -1 with a message on junk. */
static int _fields(const char *line, double *f, int *nf, char *what,
		   size_t wlen)
{
	const char *p = line;
	int n = 0;

	for (;;) {
		char *end;

		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p)
			break;
		errno = 0;
		if (n < SWF_FIELDS) {
			f[n] = strtod(p, &end);
			if (end == p || errno || (*end && !isspace((unsigned char)*end)) ||
			    !isfinite(f[n])) {
				size_t l = strcspn(p, " \t\r\n");

				snprintf(what, wlen, "field %d is not a number: '%.*s'; "
					 "expected %d numbers per job line (SWF; -1: unknown)",
					 n + 1, (int)(l > 32 ? 32 : l), p, SWF_FIELDS);
				return -1;
			}
			/* seconds, counts and ids all fit far inside int64 */
			if (f[n] < -SWF_VALUE_MAX || f[n] > SWF_VALUE_MAX) {
				snprintf(what, wlen, "field %d is %g; expected a value from "
					 "-%.0f to %.0f (-1: unknown)", n + 1, f[n],
					 SWF_VALUE_MAX, SWF_VALUE_MAX);
				return -1;
			}
		} else {
			end = (char *)p + strcspn(p, " \t\r\n");
		}
		n++;
		p = end;
	}
	*nf = n;
	return 0;
}

int fss_swf_read(const char *path, const struct fss_swf_opts *opts,
		 struct fss_trace **out, char *err, size_t errlen)
{
	struct fss_swf_opts o = { 0 };
	struct fss_trace *tr = NULL;
	gzFile gz = NULL;
	char line[LINE_MAX_LEN];
	long lineno = 0, cap = 0;
	int widest = 0;

	if (opts)
		o = *opts;
	if (!path || !out) {
		fs_errf(err, errlen, "bad arguments");
		return -1;
	}
	*out = NULL;
	if (o.procs_per_node < 0 || o.machine_nodes < 0) {
		fs_errf(err, errlen, "bad arguments: negative procs per node or machine size");
		return -1;
	}
	gz = gzopen(path, "rb");
	if (!gz) {
		fs_errf(err, errlen, "%s: %s", path, errno ? strerror(errno) : "cannot open");
		return -1;
	}
	tr = calloc(1, sizeof(*tr));
	if (!tr || !(tr->name = strdup(path)))
		goto nomem;
	tr->max_nodes = tr->max_procs = -1;

	while (gzgets(gz, line, sizeof(line))) {
		size_t len = strlen(line);
		double f[SWF_FIELDS];
		char what[128];
		int nf = 0;
		struct fss_job j = { 0 };
		double procs;

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			fs_errf(err, errlen, "%s:%ld: line longer than %d bytes; expected "
				"SWF lines of at most that", path, lineno, LINE_MAX_LEN - 2);
			goto fail;
		}
		{
			const char *p = line;

			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == ';') {
				long v;

				if ((v = _header_int(p, "MaxNodes")) > 0)
					tr->max_nodes = v > INT32_MAX ? INT32_MAX : (int)v;
				else if ((v = _header_int(p, "MaxProcs")) > 0)
					tr->max_procs = v > INT32_MAX ? INT32_MAX : (int)v;
				else if (!tr->ppn_note)
					tr->ppn_note = _note_ppn(p);
				continue;
			}
		}
		if (_fields(line, f, &nf, what, sizeof(what))) {
			fs_errf(err, errlen, "%s:%ld: %s", path, lineno, what);
			goto fail;
		}
		if (nf == 0)
			continue;
		if (nf != SWF_FIELDS) {
			fs_errf(err, errlen, "%s:%ld: expected %d fields, found %d", path,
			     lineno, SWF_FIELDS, nf);
			goto fail;
		}
		tr->lines++;
		j.id = (long)f[0];
		j.line = lineno;
		j.part = -1;
		if (f[1] < 0) {
			fs_errf(err, errlen, "%s:%ld: job %ld: submit time unknown; "
				"expected field 2 (seconds from the log's start) of 0 or more",
				path, lineno, j.id);
			goto fail;
		}
		j.submit = (int64_t)f[1];
		if (f[3] < 0) {
			tr->dropped_no_run++;
			continue;
		}
		j.run = (int64_t)f[3];
		if (f[7] > 0) {
			procs = f[7];
		} else if (f[4] > 0) {
			procs = f[4];
			tr->procs_from_alloc++;
		} else {
			tr->dropped_no_procs++;
			continue;
		}
		if (procs > INT32_MAX)
			procs = INT32_MAX;
		j.procs = (int)procs;
		if (f[8] > 0) {
			j.req = (int64_t)f[8];
			if (j.req < j.run) {
				j.req = j.run;
				tr->req_raised++;
			}
		} else {
			j.req = j.run;
			tr->req_from_run++;
		}
		/* SWF's statuses are small (-1 unknown, 0 to 5); one beyond
		   an int is kept as unknown (found by fuzz_files) */
		j.status = f[10] >= INT32_MIN && f[10] <= INT32_MAX ? (int)f[10] : -1;
		if (fss_trace_push(tr, &cap, &j))
			goto nomem;
		if (o.limit > 0 && tr->njobs >= o.limit)
			break;
	}
	if (!gzeof(gz) && !(o.limit > 0 && tr->njobs >= o.limit)) {
		int zerr;
		const char *m = gzerror(gz, &zerr);

		fs_errf(err, errlen, "%s:%ld: read error: %s; expected a plain or "
			"gzip-compressed SWF file", path, lineno + 1,
			zerr == Z_ERRNO ? strerror(errno) : m);
		goto fail;
	}
	gzclose(gz);
	gz = NULL;

	/* processors -> nodes */
	_procs_per_node(tr, o.procs_per_node);
	for (long i = 0; i < tr->njobs; i++) {
		struct fss_job *j = &tr->jobs[i];

		j->nodes = (int)(((int64_t)j->procs + tr->procs_per_node - 1) /
				 tr->procs_per_node);
		if (j->nodes > widest)
			widest = j->nodes;
	}
	tr->machine_nodes = o.machine_nodes > 0 ? o.machine_nodes :
			    tr->max_nodes > 0 ? tr->max_nodes : widest;
	{
		long k = 0;

		for (long i = 0; i < tr->njobs; i++) {
			if (tr->jobs[i].nodes > tr->machine_nodes) {
				tr->dropped_too_wide++;
				continue;
			}
			tr->jobs[k++] = tr->jobs[i];
		}
		tr->njobs = k;
	}
	fss_trace_sort(tr);
	*out = tr;
	return 0;

nomem:
	fs_errf(err, errlen, "%s: out of memory", path);
fail:
	if (gz)
		gzclose(gz);
	fss_trace_free(tr);
	return -1;
}
