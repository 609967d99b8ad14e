/*
 * sacct.c - a site's Slurm accounting history as a trace: the rules that
 * turn the job records of sacct --json (sacct_json.c) and sacct -P
 * (sacct_parsable.c) into jobs, the machine size from their node lists,
 * and the summary of what was read and dropped.  Rules: fabsched_sim.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fabsched_sim.h"
#include "fabsched_topo.h"
#include "fs_err.h"
#include "trace_private.h"

/* hosts expanded from one job's node list at the most */
#define JOB_HOSTS_MAX 262144

int fss_sacct_begin(struct sacct_build *b, const char *path, enum fss_trace_format fmt)
{
	memset(b, 0, sizeof(*b));
	b->tr = calloc(1, sizeof(*b->tr));
	if (!b->tr || !(b->tr->name = strdup(path)))
		return -1;
	b->tr->max_nodes = b->tr->max_procs = -1;
	b->tr->format = fmt;
	return 0;
}

static void _hosts_free(struct sacct_build *b)
{
	for (long i = 0; i < b->nhosts; i++)
		free(b->hosts[i]);
	free(b->hosts);
	b->hosts = NULL;
	b->nhosts = b->hsorted = b->hcap = 0;
}

void fss_sacct_abort(struct sacct_build *b)
{
	_hosts_free(b);
	fss_trace_free(b->tr);
	b->tr = NULL;
}

static int _cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the names seen and keeps one of each. */
static void _hosts_compact(struct sacct_build *b)
{
	long k = 0;

	if (b->nhosts > 1)
		qsort(b->hosts, b->nhosts, sizeof(*b->hosts), _cmp_name);
	for (long i = 0; i < b->nhosts; i++) {
		if (k && !strcmp(b->hosts[k - 1], b->hosts[i])) {
			free(b->hosts[i]);
			continue;
		}
		b->hosts[k++] = b->hosts[i];
	}
	b->nhosts = b->hsorted = k;
}

/* Adds the hosts of a node list (names taken); sorted and made unique
 * whenever the names doubled since the last time, so that memory stays
 * about twice the distinct hosts. */
static int _hosts_add(struct sacct_build *b, char **names, int n)
{
	if (b->nhosts + n > b->hcap) {
		long ncap = (b->nhosts + n) * 2 + 1024;
		char **nh = realloc(b->hosts, ncap * sizeof(*nh));

		if (!nh)
			return -1;
		b->hosts = nh;
		b->hcap = ncap;
	}
	memcpy(b->hosts + b->nhosts, names, n * sizeof(*names));
	b->nhosts += n;
	if (b->nhosts > 2 * b->hsorted + 1024)
		_hosts_compact(b);
	return 0;
}

/* The node list of a replayed job; one Slurm cannot have printed (or
 * "None assigned") counts no host. */
static int _job_hosts(struct sacct_build *b, const char *list, int64_t nodes)
{
	char **names = NULL, e[128];
	int n = 0;

	if (!*list || strchr(list, ' ') || !strcmp(list, "(null)"))
		return 0;
	if (fst_hostlist_expand_max(list, nodes > JOB_HOSTS_MAX ? JOB_HOSTS_MAX : (int)nodes,
				    &names, &n, e, sizeof(e)))
		return 0;
	if (_hosts_add(b, names, n)) {
		fst_strv_free(names, n);
		return -1;
	}
	free(names);
	return 0;
}

/* Index of partition name in tr->parts, added when new; -1 for "". */
static int _part(struct sacct_build *b, const char *name, int *idx)
{
	struct fss_trace *tr = b->tr;

	*idx = -1;
	if (!*name)
		return 0;
	for (int i = tr->nparts - 1; i >= 0; i--)
		if (!strcmp(tr->parts[i], name)) {
			*idx = i;
			return 0;
		}
	if (tr->nparts == b->part_cap) {
		int ncap = b->part_cap ? b->part_cap * 2 : 8;
		char **np = realloc(tr->parts, ncap * sizeof(*np));

		if (!np)
			return -1;
		tr->parts = np;
		b->part_cap = ncap;
	}
	if (!(tr->parts[tr->nparts] = strdup(name)))
		return -1;
	*idx = tr->nparts++;
	return 0;
}

/* SWF's status of a base state: 1 completed, 0 failed, 5 cancelled. */
static int _status(const char *state)
{
	static const char *const failed[] = {
		"FAILED",    "TIMEOUT",	 "NODE_FAIL",	  "PREEMPTED",
		"BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY",
	};

	if (!strcmp(state, "COMPLETED"))
		return 1;
	if (!strcmp(state, "CANCELLED"))
		return 5;
	for (size_t i = 0; i < sizeof(failed) / sizeof(failed[0]); i++)
		if (!strcmp(state, failed[i]))
			return 0;
	return -1;
}

/* False with the reason counted when the record is not replayed. */
static bool _replayed(struct fss_trace *tr, const struct sacct_rec *r)
{
	tr->lines++;
	if (r->start <= 0) {
		if (!strcmp(r->state, "CANCELLED"))
			tr->sacct.cancelled++;
		else
			tr->sacct.not_started++;
		return false;
	}
	if (r->end <= 0) {
		tr->sacct.running++;
		return false;
	}
	if (r->end < r->start) {
		tr->sacct.bad_time++;
		return false;
	}
	if (r->nodes <= 0) {
		tr->sacct.no_nodes++;
		return false;
	}
	return true;
}

int fss_sacct_add(struct sacct_build *b, const struct sacct_rec *r)
{
	struct fss_trace *tr = b->tr;
	struct fss_job j = { 0 };

	if (!_replayed(tr, r))
		return 0;
	j.id = r->id;
	j.line = r->line;
	/* a job eligible after its submission (held, --begin, a dependency)
	 * arrives when it became eligible: its wait before is not the
	 * scheduler's */
	j.submit = r->submit;
	if (r->eligible > r->submit && r->eligible <= r->start) {
		j.submit = r->eligible;
		tr->sacct.from_eligible++;
	}
	j.run = r->end - r->start;
	j.nodes = r->nodes > INT32_MAX ? INT32_MAX : (int)r->nodes;
	j.procs = r->cpus > INT32_MAX ? INT32_MAX : r->cpus > 0 ? (int)r->cpus : 0;
	j.status = _status(r->state);
	if (r->limit < 0) {
		j.req = j.run;
		tr->req_from_run++;
	} else {
		j.req = r->limit;
		if (j.req < j.run) {
			j.req = j.run;
			tr->req_raised++;
		}
	}
	tr->sacct.het_components += r->het;
	tr->sacct.array_tasks += r->array;
	if (_part(b, r->partition, &j.part) || fss_trace_push(tr, &b->cap, &j))
		return -1;
	return _job_hosts(b, r->nodelist, r->nodes);
}

/* The machine: the option, else the hosts seen or the widest job. */
static void _machine(struct sacct_build *b, const struct fss_swf_opts *o)
{
	struct fss_trace *tr = b->tr;
	int widest = 0;

	for (long i = 0; i < tr->njobs; i++)
		if (tr->jobs[i].nodes > widest)
			widest = tr->jobs[i].nodes;
	_hosts_compact(b);
	tr->hosts = b->nhosts > INT32_MAX ? INT32_MAX : (int)b->nhosts;
	if (o->machine_nodes > 0) {
		tr->machine_nodes = o->machine_nodes;
		snprintf(tr->nodes_why, sizeof(tr->nodes_why), "the machine given");
	} else if (tr->hosts >= widest && tr->hosts > 0) {
		tr->machine_nodes = tr->hosts;
		snprintf(tr->nodes_why, sizeof(tr->nodes_why),
			 "the distinct hosts of the jobs' node lists (widest job %d)", widest);
	} else {
		tr->machine_nodes = widest;
		snprintf(tr->nodes_why, sizeof(tr->nodes_why),
			 "the widest job (%d distinct hosts in the jobs' node lists)", tr->hosts);
	}
}

/* Drops the jobs wider than the machine, keeps the first limit ones and
 * counts submit times from the earliest. */
static void _keep(struct fss_trace *tr, long limit)
{
	long k = 0;

	for (long i = 0; i < tr->njobs; i++) {
		if (tr->jobs[i].nodes > tr->machine_nodes) {
			tr->dropped_too_wide++;
			continue;
		}
		if (limit > 0 && k >= limit)
			break;
		tr->jobs[k++] = tr->jobs[i];
	}
	tr->njobs = k;
	for (long i = k - 1; i >= 0; i--)
		tr->jobs[i].submit -= tr->jobs[0].submit;
}

int fss_sacct_finish(struct sacct_build *b, const struct fss_swf_opts *o, struct fss_trace **out,
		     char *err, size_t errlen)
{
	struct fss_trace *tr = b->tr;

	_machine(b, o);
	_hosts_free(b);
	fss_trace_sort(tr);
	_keep(tr, o->limit);
	if (!tr->njobs)
		return fs_errf(
			err, errlen,
			"%s: no job to replay among its %ld job records (%ld cancelled before they started, %ld never started, %ld still running, %ld too wide for %d nodes); expected jobs that started and ended",
			tr->name, tr->lines, tr->sacct.cancelled, tr->sacct.not_started,
			tr->sacct.running, tr->dropped_too_wide, tr->machine_nodes);
	*out = tr;
	b->tr = NULL;
	return 0;
}

int fss_sacct_read(const char *path, enum fss_trace_format fmt, const struct fss_swf_opts *opts,
		   struct fss_trace **out, char *err, size_t errlen)
{
	struct fss_swf_opts o = { 0 };
	struct sacct_build b;
	gzFile gz;
	int rc;

	if (opts)
		o = *opts;
	if (!path || !out || o.machine_nodes < 0 ||
	    (fmt != FSS_TRACE_SACCT_JSON && fmt != FSS_TRACE_SACCT_PARSABLE))
		return fs_errf(err, errlen, "bad arguments");
	*out = NULL;
	gz = gzopen(path, "rb");
	if (!gz)
		return fs_errf(err, errlen, "%s: %s", path,
			       errno ? strerror(errno) : "cannot open");
	if (fss_sacct_begin(&b, path, fmt)) {
		gzclose(gz);
		fss_sacct_abort(&b);
		return fs_errf(err, errlen, "%s: out of memory", path);
	}
	if (fmt == FSS_TRACE_SACCT_JSON)
		rc = fss_sacct_json_read(gz, path, &b, err, errlen);
	else
		rc = fss_sacct_parsable_read(gz, path, &b, err, errlen);
	gzclose(gz);
	if (!rc)
		rc = fss_sacct_finish(&b, &o, out, err, errlen);
	if (rc)
		fss_sacct_abort(&b);
	return rc;
}

/* " name N, name N" of the replayed jobs per partition, into buf. */
static size_t _parts(const struct fss_trace *tr, char *buf, size_t size)
{
	size_t n = 0;

	for (int p = 0; p < tr->nparts && n < size; p++) {
		long k = 0;

		for (long i = 0; i < tr->njobs; i++)
			k += tr->jobs[i].part == p;
		if (k)
			n += snprintf(buf + n, size - n, "%s%s %ld", n ? ", " : "", tr->parts[p],
				      k);
	}
	return n;
}

int fss_sacct_summary(const struct fss_trace *tr, char *buf, size_t size)
{
	const struct fss_sacct_counts *c = &tr->sacct;
	char parts[512] = "";

	_parts(tr, parts, sizeof(parts));
	return snprintf(
		buf, size,
		"%s: %ld job records, %ld jobs replayed (%ld array tasks, %ld heterogeneous job components as jobs of their own); "
		"not replayed: %ld cancelled before they started, %ld never started, %ld still running, "
		"%ld without nodes, %ld ending before they started, %ld too wide; %ld step lines skipped; "
		"%ld arriving when eligible, after their submission; "
		"time limit: %ld unlimited or none (run time used), %ld raised to the run time; "
		"partitions, replayed as one machine: %s; %d nodes: %s",
		tr->source, tr->lines, tr->njobs, c->array_tasks, c->het_components, c->cancelled,
		c->not_started, c->running, c->no_nodes, c->bad_time, tr->dropped_too_wide,
		c->steps, c->from_eligible, tr->req_from_run, tr->req_raised,
		*parts ? parts : "none named", tr->machine_nodes, tr->nodes_why);
}
