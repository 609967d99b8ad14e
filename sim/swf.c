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

/* One more header note (or set of node types) ignored: the first one's
 * reason is kept, "line N: " before it when line > 0. */
static void _ignored(struct fss_trace *tr, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void _ignored(struct fss_trace *tr, long line, const char *fmt, ...)
{
	size_t n = 0;
	va_list ap;

	if (tr->header_ignored++)
		return;
	if (line > 0)
		n = (size_t)snprintf(tr->header_why, sizeof(tr->header_why), "line %ld: ", line);
	va_start(ap, fmt);
	vsnprintf(tr->header_why + n, sizeof(tr->header_why) - n, fmt, ap);
	va_end(ap);
}

/* Does s start with the word w (not followed by a letter or digit)? */
static bool _word(const char *s, const char *w)
{
	size_t l = strlen(w);

	return !strncmp(s, w, l) && !isalnum((unsigned char)s[l]);
}

static const char *_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/*
 * One term of a node type note, lower case, trimmed: "5040 thin nodes"
 * (*procs false) or "80640 in thin nodes", "80640 cores in thin nodes"
 * (*procs true).  0, or -1 with what is wrong in why.
 */
static int _type_term(const char *s, struct fss_node_type *t, bool *procs, char *why, size_t wlen)
{
	static const char *const unit[] = {
		"processors",
		"procs",
		"cores",
		"cpus",
	};
	const char *p = s, *w, *name;
	bool has_unit = false;
	char *end;
	size_t l;
	long v;

	memset(t, 0, sizeof(*t));
	*procs = false;
	if (!isdigit((unsigned char)*p)) {
		snprintf(why, wlen, "does not start with a number");
		return -1;
	}
	errno = 0;
	v = strtol(p, &end, 10);
	if (errno || v < 1 || v > INT32_MAX) {
		snprintf(why, wlen, "has a number out of 1..%d", INT32_MAX);
		return -1;
	}
	p = _blank(end);
	for (size_t k = 0; k < sizeof(unit) / sizeof(unit[0]); k++)
		if (_word(p, unit[k])) {
			p = _blank(p + strlen(unit[k]));
			has_unit = true;
			break;
		}
	if (_word(p, "in")) {
		p = _blank(p + 2);
		*procs = true;
	} else if (has_unit) {
		snprintf(why, wlen, "counts processors but not 'in' a node type");
		return -1;
	}
	/* the type: the words before the word "nodes" (or "node") */
	name = p;
	for (w = p; *w; w++)
		if ((w == p || w[-1] == ' ' || w[-1] == '\t') &&
		    (_word(w, "nodes") || _word(w, "node")))
			break;
	if (!*w) {
		snprintf(why, wlen, "names no nodes");
		return -1;
	}
	for (l = (size_t)(w - name); l && (name[l - 1] == ' ' || name[l - 1] == '\t'); l--)
		;
	if (!l) {
		snprintf(why, wlen, "names no node type");
		return -1;
	}
	if (l >= sizeof(t->name)) {
		snprintf(why, wlen, "names a node type longer than %zu characters",
			 sizeof(t->name) - 1);
		return -1;
	}
	for (size_t k = 0; k < l; k++)
		if (!isalnum((unsigned char)name[k]) && !strchr(" \t-_.", name[k])) {
			snprintf(why, wlen, "names a node type with a '%c'", name[k]);
			return -1;
		}
	if (strspn(name, "0123456789") >= l) {
		snprintf(why, wlen, "names a number, not a node type");
		return -1;
	}
	memcpy(t->name, name, l);
	t->name[l] = 0;
	if (*procs)
		t->procs = (int)v;
	else
		t->nodes = (int)v;
	return 0;
}

/*
 * A note that adds node types up with '+' (low: the header line in lower
 * case, after its ';'): merged into tr->types.  0: not such a note; 1:
 * read; -1: ignored, why in tr->header_why.
 */
static int _note_types(struct fss_trace *tr, const char *low, long line)
{
	struct fss_node_type types[FSS_NODE_TYPES];
	int ntypes = tr->ntypes, term = 0;
	const char *p;

	if (strncmp(low, "note", 4) || *(p = _blank(low + 4)) != ':' || !strchr(p, '+') ||
	    !strstr(p, "node"))
		return 0;
	memcpy(types, tr->types, sizeof(types));
	for (p++; *p;) {
		char s[LINE_MAX_LEN], why[80];
		struct fss_node_type t;
		bool procs;
		size_t l;
		int k;

		term++;
		p = _blank(p);
		l = strcspn(p, "+");
		memcpy(s, p, l);
		while (l && isspace((unsigned char)s[l - 1]))
			l--;
		s[l] = 0;
		p += strcspn(p, "+");
		if (*p)
			p++;
		if (_type_term(s, &t, &procs, why, sizeof(why))) {
			_ignored(
				tr, line,
				"node type note ignored: term %d '%.40s' %s; expected '<count> <type> nodes' or '<processors> in <type> nodes' joined by '+'",
				term, s, why);
			return -1;
		}
		for (k = 0; k < ntypes && strcmp(types[k].name, t.name); k++)
			;
		if (k == ntypes) {
			if (ntypes == FSS_NODE_TYPES) {
				_ignored(tr, line,
					 "node type note ignored: more than %d node types",
					 FSS_NODE_TYPES);
				return -1;
			}
			types[ntypes++] = t;
			continue;
		}
		if ((procs && types[k].procs) || (!procs && types[k].nodes)) {
			_ignored(tr, line,
				 "node type note ignored: the %s of node type '%s' are given twice",
				 procs ? "processors" : "nodes", t.name);
			return -1;
		}
		if (procs)
			types[k].procs = t.procs;
		else
			types[k].nodes = t.nodes;
	}
	memcpy(tr->types, types, sizeof(types));
	tr->ntypes = ntypes;
	return 1;
}

/*
 * The node types of the notes, checked: sets type_major, type_nodes and
 * procs_why and returns the majority type's processors per node; 0 when
 * there are none or they are ignored (why in tr->header_why).
 */
static int _types_ppn(struct fss_trace *tr)
{
	const struct fss_node_type *m;
	int64_t nodes = 0, procs = 0;
	bool all = true;
	int major = 0;
	size_t n;

	tr->type_major = -1;
	if (!tr->ntypes)
		return 0;
	for (int i = 0; i < tr->ntypes; i++) {
		const struct fss_node_type *t = &tr->types[i];

		if (!t->nodes) {
			_ignored(
				tr, 0,
				"node types not used: type '%s' has processors (%d) but no node count; expected a note '<count> %s nodes + ...'",
				t->name, t->procs, t->name);
			return 0;
		}
		nodes += t->nodes;
		procs += t->procs;
		all = all && t->procs;
		if (t->nodes > tr->types[major].nodes)
			major = i;
	}
	if (tr->max_nodes > 0 && nodes != tr->max_nodes) {
		_ignored(tr, 0, "node types not used: their nodes add up to %lld, MaxNodes says %d",
			 (long long)nodes, tr->max_nodes);
		return 0;
	}
	if (nodes > INT32_MAX) {
		_ignored(tr, 0, "node types not used: their nodes add up to %lld, more than %d",
			 (long long)nodes, INT32_MAX);
		return 0;
	}
	if (all && tr->max_procs > 0 && procs != tr->max_procs) {
		_ignored(tr, 0,
			 "node types not used: their processors add up to %lld, MaxProcs says %d",
			 (long long)procs, tr->max_procs);
		return 0;
	}
	m = &tr->types[major];
	if (!m->procs) {
		_ignored(
			tr, 0,
			"node types not used: the majority type '%s' has no processor count; expected a note '<processors> in %s nodes + ...'",
			m->name, m->name);
		return 0;
	}
	if (m->procs % m->nodes) {
		_ignored(
			tr, 0,
			"node types not used: %d processors in %d %s nodes is no whole number per node",
			m->procs, m->nodes, m->name);
		return 0;
	}
	tr->type_major = major;
	tr->type_nodes = (int)nodes;
	n = (size_t)snprintf(tr->procs_why, sizeof(tr->procs_why),
			     "the log's %snode type, %s: %d of %lld nodes, %d/%d processors",
			     tr->ntypes > 1 ? "majority " : "", m->name, m->nodes, (long long)nodes,
			     m->procs, m->nodes);
	if (tr->ntypes > 1 && n < sizeof(tr->procs_why)) {
		n += (size_t)snprintf(tr->procs_why + n, sizeof(tr->procs_why) - n,
				      "; %lld nodes of other types (",
				      (long long)(nodes - m->nodes));
		for (int i = 0, k = 0; i < tr->ntypes && n < sizeof(tr->procs_why); i++) {
			const struct fss_node_type *t = &tr->types[i];

			if (i == major)
				continue;
			n += (size_t)snprintf(tr->procs_why + n, sizeof(tr->procs_why) - n, "%s%s",
					      k++ ? ", " : "", t->name);
			if (t->procs && t->procs % t->nodes == 0 && n < sizeof(tr->procs_why))
				n += (size_t)snprintf(tr->procs_why + n, sizeof(tr->procs_why) - n,
						      ": %d", t->procs / t->nodes);
		}
		if (n < sizeof(tr->procs_why))
			snprintf(tr->procs_why + n, sizeof(tr->procs_why) - n, ") modelled as %s",
				 m->name);
	}
	return m->procs / m->nodes;
}

/* A whole number in 1..max at p, not part of a larger one; 0 none.
 * *end: after it. */
static long _num_at(const char *low, const char *p, long max, const char **end)
{
	char *e;
	long v;

	if (!isdigit((unsigned char)*p) || (p > low && isdigit((unsigned char)p[-1])))
		return 0;
	errno = 0;
	v = strtol(p, &e, 10);
	if (errno || v < 1 || v > max)
		return 0;
	*end = e;
	return v;
}

/* The first number in low followed by one of the n suffixes; 0 none. */
static int _num_before(const char *low, const char *const *suffix, size_t n)
{
	for (const char *p = low; *p; p++) {
		const char *end;
		long v = _num_at(low, p, 100000, &end);

		if (!v)
			continue;
		for (size_t k = 0; k < n; k++)
			if (!strncmp(end, suffix[k], strlen(suffix[k])))
				return (int)v;
	}
	return 0;
}

/* "2 sockets with 12 cores", "dual-socket nodes of 8 cores each", "2
 * sockets x 8 cores per socket": sockets times cores; 0 none. */
static int _note_sockets(const char *low)
{
	static const struct {
		const char *word;
		int n;
	} words[] = { { "dual", 2 }, { "two", 2 }, { "quad", 4 }, { "four", 4 } };
	const char *p, *end = NULL;
	long sockets = 0;

	for (p = low; *p && !sockets; p++) {
		long v = _num_at(low, p, 64, &end);

		for (size_t k = 0; !v && k < sizeof(words) / sizeof(words[0]); k++)
			if ((p == low || !isalpha((unsigned char)p[-1])) &&
			    !strncmp(p, words[k].word, strlen(words[k].word))) {
				v = words[k].n;
				end = p + strlen(words[k].word);
			}
		if (v && (!strncmp(end, " socket", 7) || !strncmp(end, "-socket", 7)))
			sockets = v;
	}
	if (!sockets)
		return 0;
	for (p = end; *p; p++) {
		long v = _num_at(low, p, 1024, &end);

		if (v && (!strncmp(end, " core", 5) || !strncmp(end, "-core", 5)))
			return (int)(sockets * v);
	}
	return 0;
}

/*
 * Processors per node named by a header note (low: the line in lower
 * case): "8 processors per node", "8 cores per node", "8 CPUs per node",
 * "8 cores/node"; "2 sockets with 12 cores" (24); "8 processors each",
 * "8 cores each", "8-way", "8-core nodes".  0: none.
 */
static int _note_ppn(const char *low)
{
	static const char *const per_node[] = {
		" processors per node", " cores per node", " cpus per node",
		" processors/node",	" cores/node",	   " cpus/node",
	};
	static const char *const other[] = {
		" processors each", " cores each", " cpus each",       "-way", " way",
		"-core nodes",	    "-cpu nodes",  "-processor nodes",
	};
	int v;

	if (!strstr(low, "note"))
		return 0;
	if ((v = _num_before(low, per_node, sizeof(per_node) / sizeof(per_node[0]))))
		return v;
	if ((v = _note_sockets(low)))
		return v;
	return _num_before(low, other, sizeof(other) / sizeof(other[0]));
}

/* The divisor rule: a node size from job widths only when it is at least
 * DIVISOR_MIN and shared by 9 in 10 of at least DIVISOR_JOBS jobs of more
 * than one processor. */
#define DIVISOR_MIN 8
#define DIVISOR_JOBS 20

/* The largest d in 2..1024 (at most @cap when > 0) that at least 9 in 10
 * of the multi-processor jobs ask a multiple of; 0 none, or fewer than
 * DIVISOR_JOBS such jobs.  *share: that share; *multi: those jobs. */
static int _common_divisor(const struct fss_trace *tr, int cap, double *share, long *multi)
{
	long m = 0;

	*share = 0;
	for (long i = 0; i < tr->njobs; i++)
		m += tr->jobs[i].procs > 1;
	*multi = m;
	if (m < DIVISOR_JOBS)
		return 0; /* too few jobs to say */
	for (int d = cap > 0 && cap < 1024 ? cap : 1024; d >= 2; d--) {
		long k = 0;

		for (long i = 0; i < tr->njobs; i++)
			k += tr->jobs[i].procs > 1 && tr->jobs[i].procs % d == 0;
		if (k * 10 >= m * 9) {
			*share = (double)k / m;
			return d;
		}
	}
	return 0;
}

/* Processors per node, and why (see fabsched_sim.h). */
static void _procs_per_node(struct fss_trace *tr, int opt)
{
	char small[128] = "";
	double share = 0;
	long multi = 0;
	int d, cap = 0, types;
	bool ratio = tr->max_nodes > 0 && tr->max_procs > 0;

	if (ratio) {
		/* in 64 bits: the header's counts reach INT32_MAX */
		int64_t c = 2 * (((int64_t)tr->max_procs + tr->max_nodes - 1) / tr->max_nodes);

		cap = c > INT32_MAX ? INT32_MAX : (int)c;
	} else if (tr->max_procs > 0) {
		cap = tr->max_procs;
	}
	types = _types_ppn(tr);
	if (opt > 0) {
		tr->procs_per_node = opt;
		snprintf(tr->procs_why, sizeof(tr->procs_why), "--ppn");
		return;
	}
	if (types > 0) {
		tr->procs_per_node = types; /* procs_why set */
		return;
	}
	if (ratio && tr->max_procs % tr->max_nodes == 0) {
		tr->procs_per_node = tr->max_procs / tr->max_nodes;
		snprintf(tr->procs_why, sizeof(tr->procs_why), "MaxProcs %d / MaxNodes %d",
			 tr->max_procs, tr->max_nodes);
		return;
	}
	if (tr->ppn_note > 0) {
		tr->procs_per_node = tr->ppn_note;
		snprintf(tr->procs_why, sizeof(tr->procs_why), "a header note says so");
		return;
	}
	d = _common_divisor(tr, cap, &share, &multi);
	if (d > 0 && d < DIVISOR_MIN) {
		snprintf(
			small, sizeof(small),
			"; the job widths' divisor %d (%.0f%% of the %ld multi-processor jobs) is below %d: no node size",
			d, share * 100, multi, DIVISOR_MIN);
		d = 0;
	}
	if (d > 0) {
		tr->procs_per_node = d;
		snprintf(
			tr->procs_why, sizeof(tr->procs_why),
			"the job widths' divisor: %.0f%% of the %ld multi-processor jobs ask a multiple of %d processors%s",
			share * 100, multi, d, ratio ? " (MaxProcs/MaxNodes is not whole)" : "");
	} else if (ratio) {
		tr->procs_per_node = (int)((double)tr->max_procs / tr->max_nodes + 0.5);
		if (tr->procs_per_node < 1)
			tr->procs_per_node = 1;
		snprintf(tr->procs_why, sizeof(tr->procs_why),
			 "MaxProcs %d / MaxNodes %d = %.2f, rounded%s", tr->max_procs,
			 tr->max_nodes, (double)tr->max_procs / tr->max_nodes, small);
	} else {
		tr->procs_per_node = 1;
		snprintf(tr->procs_why, sizeof(tr->procs_why),
			 "nothing in the trace says: 1 (give --ppn)%s", small);
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
		n += snprintf(
			buf + n, size - n,
			"warning: %.1f%% of the trace's jobs that ran were dropped (%ld too wide for %d nodes, %ld still running, %ld without nodes, %ld ending before they started)\n",
			dropped * 100, tr->dropped_too_wide, tr->machine_nodes, tr->sacct.running,
			tr->sacct.no_nodes, tr->sacct.bad_time);
		k++;
	} else if (dropped > 0.01 && n < size) {
		n += snprintf(
			buf + n, size - n,
			"warning: %.1f%% of the trace's jobs were dropped (%ld too wide for %d nodes at %d processors per node, %ld without run time, %ld without processors)\n",
			dropped * 100, tr->dropped_too_wide, tr->machine_nodes, tr->procs_per_node,
			tr->dropped_no_run, tr->dropped_no_procs);
		k++;
	}
	if (load > 1 && n < size) {
		snprintf(
			buf + n, size - n,
			"warning: the replay asks %.2f times what %d nodes give over the trace's span: waits will grow without bound (check the processors per node, or --nodes)\n",
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
static int _fields(const char *line, double *f, int *nf, char *what, size_t wlen)
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

				snprintf(what, wlen,
					 "field %d is not a number: '%.*s'; "
					 "expected %d numbers per job line (SWF; -1: unknown)",
					 n + 1, (int)(l > 32 ? 32 : l), p, SWF_FIELDS);
				return -1;
			}
			/* seconds, counts and ids all fit far inside int64 */
			if (f[n] < -SWF_VALUE_MAX || f[n] > SWF_VALUE_MAX) {
				snprintf(what, wlen,
					 "field %d is %g; expected a value from "
					 "-%.0f to %.0f (-1: unknown)",
					 n + 1, f[n], SWF_VALUE_MAX, SWF_VALUE_MAX);
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

/* What the phases of fss_swf_read share: the file being read and the
 * trace made of it. */
struct swf_read {
	const char *path;
	struct fss_swf_opts o;
	gzFile gz;
	struct fss_trace *tr;
	long lineno; /* the line read last */
	long cap;    /* room in tr->jobs */
};

/* The options checked, the file opened, an empty trace made: 0, or -1
 * with a message (what was made is freed by the caller). */
static int _swf_open(struct swf_read *r, char *err, size_t errlen)
{
	if (r->o.procs_per_node < 0 || r->o.machine_nodes < 0) {
		fs_errf(err, errlen, "bad arguments: negative procs per node or machine size");
		return -1;
	}
	r->gz = gzopen(r->path, "rb");
	if (!r->gz) {
		fs_errf(err, errlen, "%s: %s", r->path, errno ? strerror(errno) : "cannot open");
		return -1;
	}
	r->tr = calloc(1, sizeof(*r->tr));
	if (!r->tr || !(r->tr->name = strdup(r->path))) {
		fs_errf(err, errlen, "%s: out of memory", r->path);
		return -1;
	}
	r->tr->max_nodes = r->tr->max_procs = -1;
	r->tr->type_major = -1;
	return 0;
}

/* A header line (p at its ';'): MaxNodes, MaxProcs, or a note of the
 * node types or of the processors per node; anything else is a comment. */
static void _header_line(struct fss_trace *tr, const char *p, long lineno)
{
	char low[LINE_MAX_LEN];
	const char *q = _blank(p + 1);
	size_t n = 0;
	long v;

	if ((v = _header_int(p, "MaxNodes")) > 0) {
		tr->max_nodes = v > INT32_MAX ? INT32_MAX : (int)v;
		return;
	}
	if ((v = _header_int(p, "MaxProcs")) > 0) {
		tr->max_procs = v > INT32_MAX ? INT32_MAX : (int)v;
		return;
	}
	for (; q[n] && n < sizeof(low) - 1; n++)
		low[n] = (char)tolower((unsigned char)q[n]);
	low[n] = 0;
	_note_types(tr, low, lineno);
	if (!tr->ppn_note)
		tr->ppn_note = _note_ppn(low);
}

/* The job of a job line's fields f, its unknowns filled (fabsched_sim.h)
 * into *j (zeroed): 1 a job, 0 dropped (counted in r->tr), or -1 with a
 * message. */
static int _swf_job(struct swf_read *r, const double *f, struct fss_job *j, char *err,
		    size_t errlen)
{
	struct fss_trace *tr = r->tr;
	double procs;

	tr->lines++;
	j->id = (long)f[0];
	j->line = r->lineno;
	j->part = -1;
	if (f[1] < 0) {
		fs_errf(err, errlen,
			"%s:%ld: job %ld: submit time unknown; "
			"expected field 2 (seconds from the log's start) of 0 or more",
			r->path, r->lineno, j->id);
		return -1;
	}
	j->submit = (int64_t)f[1];
	if (f[3] < 0) {
		tr->dropped_no_run++;
		return 0;
	}
	j->run = (int64_t)f[3];
	if (f[7] > 0) {
		procs = f[7];
	} else if (f[4] > 0) {
		procs = f[4];
		tr->procs_from_alloc++;
	} else {
		tr->dropped_no_procs++;
		return 0;
	}
	if (procs > INT32_MAX)
		procs = INT32_MAX;
	j->procs = (int)procs;
	if (f[8] > 0) {
		j->req = (int64_t)f[8];
		if (j->req < j->run) {
			j->req = j->run;
			tr->req_raised++;
		}
	} else {
		j->req = j->run;
		tr->req_from_run++;
	}
	/* SWF's statuses are small (-1 unknown, 0 to 5); one beyond
	   an int is kept as unknown (found by fuzz_files) */
	j->status = f[10] >= INT32_MIN && f[10] <= INT32_MAX ? (int)f[10] : -1;
	return 1;
}

/* A job line: its fields checked, its job kept or dropped; a blank line
 * is nothing.  0, or -1 with a message. */
static int _job_line(struct swf_read *r, const char *line, char *err, size_t errlen)
{
	double f[SWF_FIELDS];
	struct fss_job j = { 0 };
	char what[128];
	int nf = 0, rc;

	if (_fields(line, f, &nf, what, sizeof(what))) {
		fs_errf(err, errlen, "%s:%ld: %s", r->path, r->lineno, what);
		return -1;
	}
	if (nf == 0)
		return 0;
	if (nf != SWF_FIELDS) {
		fs_errf(err, errlen, "%s:%ld: expected %d fields, found %d", r->path, r->lineno,
			SWF_FIELDS, nf);
		return -1;
	}
	rc = _swf_job(r, f, &j, err, errlen);
	if (rc <= 0)
		return rc;
	if (fss_trace_push(r->tr, &r->cap, &j)) {
		fs_errf(err, errlen, "%s: out of memory", r->path);
		return -1;
	}
	return 0;
}

/* Has the trace the jobs that --limit asks? */
static bool _swf_full(const struct swf_read *r)
{
	return r->o.limit > 0 && r->tr->njobs >= r->o.limit;
}

/* Every line of the file, or up to the job that fills the limit; a file
 * that ends in a read error is refused.  0, or -1 with a message. */
static int _swf_lines(struct swf_read *r, char *err, size_t errlen)
{
	char line[LINE_MAX_LEN];

	while (gzgets(r->gz, line, sizeof(line))) {
		size_t len = strlen(line);
		const char *p = _blank(line);

		r->lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			fs_errf(err, errlen,
				"%s:%ld: line longer than %d bytes; expected "
				"SWF lines of at most that",
				r->path, r->lineno, LINE_MAX_LEN - 2);
			return -1;
		}
		if (*p == ';') {
			_header_line(r->tr, p, r->lineno);
			continue;
		}
		if (_job_line(r, line, err, errlen))
			return -1;
		if (_swf_full(r))
			break;
	}
	if (!gzeof(r->gz) && !_swf_full(r)) {
		int zerr;
		const char *m = gzerror(r->gz, &zerr);

		fs_errf(err, errlen,
			"%s:%ld: read error: %s; expected a plain or "
			"gzip-compressed SWF file",
			r->path, r->lineno + 1, zerr == Z_ERRNO ? strerror(errno) : m);
		return -1;
	}
	return 0;
}

/* Processors to nodes: each job's nodes at the trace's processors per
 * node (--ppn when > 0), the machine's nodes (--nodes, MaxNodes, the node
 * types or the widest job), the jobs wider than the machine dropped. */
static void _swf_nodes(struct fss_trace *tr, const struct fss_swf_opts *o)
{
	int widest = 0;
	long k = 0;

	_procs_per_node(tr, o->procs_per_node);
	for (long i = 0; i < tr->njobs; i++) {
		struct fss_job *j = &tr->jobs[i];

		j->nodes = (int)(((int64_t)j->procs + tr->procs_per_node - 1) / tr->procs_per_node);
		if (j->nodes > widest)
			widest = j->nodes;
	}
	tr->machine_nodes = o->machine_nodes > 0 ? o->machine_nodes
			    : tr->max_nodes > 0	 ? tr->max_nodes
			    : tr->type_nodes > 0 ? tr->type_nodes
						 : widest;
	for (long i = 0; i < tr->njobs; i++) {
		if (tr->jobs[i].nodes > tr->machine_nodes) {
			tr->dropped_too_wide++;
			continue;
		}
		tr->jobs[k++] = tr->jobs[i];
	}
	tr->njobs = k;
}

int fss_swf_read(const char *path, const struct fss_swf_opts *opts, struct fss_trace **out,
		 char *err, size_t errlen)
{
	struct swf_read r = { .path = path };

	if (opts)
		r.o = *opts;
	if (!path || !out) {
		fs_errf(err, errlen, "bad arguments");
		return -1;
	}
	*out = NULL;
	if (_swf_open(&r, err, errlen) || _swf_lines(&r, err, errlen)) {
		if (r.gz)
			gzclose(r.gz);
		fss_trace_free(r.tr);
		return -1;
	}
	gzclose(r.gz);

	/* processors -> nodes */
	_swf_nodes(r.tr, &r.o);
	fss_trace_sort(r.tr);
	*out = r.tr;
	return 0;
}
