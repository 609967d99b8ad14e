/*
 * swf.c - reader of Standard Workload Format job logs, plain or gzip
 * (zlib reads both).  Rules for unknown (-1) fields: fabsched_sim.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fabsched_sim.h"
#include "fs_err.h"

#define SWF_FIELDS 18
#define LINE_MAX_LEN 4096


void fss_trace_free(struct fss_trace *tr)
{
	if (!tr)
		return;
	free(tr->name);
	free(tr->jobs);
	free(tr);
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

static int _cmp_submit(const void *a, const void *b)
{
	const struct fss_job *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
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
			if (end == p || errno || (*end && !isspace((unsigned char)*end))) {
				size_t l = strcspn(p, " \t\r\n");

				snprintf(what, wlen, "field %d is not a number: '%.*s'",
					 n + 1, (int)(l > 32 ? 32 : l), p);
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
			fs_errf(err, errlen, "%s:%ld: line longer than %d bytes", path,
			     lineno, LINE_MAX_LEN - 2);
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
		if (f[1] < 0) {
			fs_errf(err, errlen, "%s:%ld: job %ld: submit time unknown",
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
		j.status = (int)f[10];
		if (tr->njobs == cap) {
			long ncap = cap ? cap * 2 : 1024;
			struct fss_job *nj = realloc(tr->jobs, ncap * sizeof(*nj));

			if (!nj)
				goto nomem;
			tr->jobs = nj;
			cap = ncap;
		}
		tr->jobs[tr->njobs++] = j;
		if (o.limit > 0 && tr->njobs >= o.limit)
			break;
	}
	if (!gzeof(gz) && !(o.limit > 0 && tr->njobs >= o.limit)) {
		int zerr;
		const char *m = gzerror(gz, &zerr);

		fs_errf(err, errlen, "%s:%ld: read error: %s", path, lineno + 1,
		     zerr == Z_ERRNO ? strerror(errno) : m);
		goto fail;
	}
	gzclose(gz);
	gz = NULL;

	/* processors -> nodes */
	if (o.procs_per_node > 0)
		tr->procs_per_node = o.procs_per_node;
	else if (tr->max_nodes > 0 && tr->max_procs > 0 &&
		 tr->max_procs % tr->max_nodes == 0)
		tr->procs_per_node = tr->max_procs / tr->max_nodes;
	else
		tr->procs_per_node = 1;
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
	if (tr->njobs > 1)
		qsort(tr->jobs, tr->njobs, sizeof(*tr->jobs), _cmp_submit);
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
