/*
 * policy.c - the three placement policies of the simulator.
 *
 * engine   fse_place() of select/ (the code the Slurm plugins call): the
 *          job asks for its level; once it has waited the policy's wait
 *          bound it is "relaxed" and takes the tightest placement free.
 *          With a locality target (rack@W/P%), it is also relaxed while
 *          the recent share of jobs that got their domain is at least P
 *          (fse_share_relax; started jobs recorded by fss_placer_started).
 * tree     stock Slurm with topology/tree (select/cons_tres,
 *          _eval_nodes_topo): among the switches whose free nodes hold the
 *          job, the lowest level wins, and at that level the one with the
 *          fewest free nodes (best fit; lowest index on ties).  Under it,
 *          leaf switches are taken one by one: a leaf whose free nodes
 *          hold the rest of the job, the one with the fewest such; else the
 *          leaf with the most free nodes.  Nodes of a leaf in index order.
 *          It never waits for locality: enough free nodes, it places.
 * firstfit the first n free nodes in node order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fabsched_sim.h"
#include "fs_values.h"

struct fss_placer {
	const struct fss_machine *m;
	struct fss_policy p;
	struct fse_work *w;	    /* engine */
	struct fse_share *share;    /* engine with a target */
	struct fse_request last_rq; /* engine: last placement */
	const int64_t *free_at;	    /* fss_placer_clock */
	int64_t now, limit;
	const int *racks_kept; /* fss_placer_racks */
	struct fse_result last_res;
	int *rack_free;	   /* [nracks] */
	int64_t *pod_free; /* [npods] */
	uint8_t *used;	   /* [nracks] tree: leaf taken */
	unsigned *seen;	   /* [nracks] firstfit: rack seen at stamp */
	unsigned stamp;
};

/* The target of "rack@W/P%": P in (0, 100], '%' optional, into (0, 1]. */
static int _target(const char *pol, const char *v, double *out, char *err, size_t errlen)
{
	char *end = NULL;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (end && *end == '%')
		end++;
	if (!*v || end == v || !end || *end || errno || !(x > 0 && x <= 100))
		return fs_errf(
			err, errlen,
			"policy '%s': target '%s': expected a percentage above 0 and at most 100 (e.g. /99%%)",
			pol, v);
	*out = x / 100;
	return 0;
}

/* A wait ratio "<N>x", N in 1-1000. */
static int _ratio(const char *pol, const char *v, size_t len, uint32_t *out, char *err,
		  size_t errlen)
{
	unsigned long x = 0;
	size_t i = 0;

	for (; i + 1 < len && v[i] >= '0' && v[i] <= '9' && x <= 1000; i++)
		x = x * 10 + (unsigned long)(v[i] - '0');
	if (!i || i + 1 != len || (v[i] != 'x' && v[i] != 'X') || x < 1 || x > 1000)
		return fs_errf(
			err, errlen,
			"policy '%s': wait ratio '%.*s': expected a whole number of 1 to 1000 and x (e.g. /2x)",
			pol, (int)len, v);
	*out = (uint32_t)x;
	return 0;
}

/* What follows the first '/' of an engine policy: "target[%]",
 * "<ratio>x", or the target then the ratio. */
static int _suffixes(const char *pol, const char *v, struct fss_policy *p, char *err, size_t errlen)
{
	const char *slash = strchr(v, '/');
	size_t len = slash ? (size_t)(slash - v) : strlen(v);
	char first[32];

	if (len && (v[len - 1] == 'x' || v[len - 1] == 'X')) {
		if (slash)
			return fs_errf(
				err, errlen,
				"policy '%s': expected the target before the wait ratio (e.g. rack@2-0/99%%/2x)",
				pol);
		return _ratio(pol, v, len, &p->ratio, err, errlen);
	}
	if (len >= sizeof(first))
		return _target(pol, v, &p->target, err, errlen);
	snprintf(first, sizeof(first), "%.*s", (int)len, v);
	if (_target(pol, first, &p->target, err, errlen))
		return -1;
	return slash ? _ratio(pol, slash + 1, strlen(slash + 1), &p->ratio, err, errlen) : 0;
}

/*
 * The name shows the wait as fs_format_duration writes it ("HH:MM:SS" or
 * "D-HH:MM:SS"), Slurm time format like the input, so a name parses back
 * to the same policy: "switches@600" (600 minutes) is "switches@10:00:00",
 * "rack@2-0/99%" is "rack@2-00:00:00/99%".  No commas (CSV).
 */
int fss_policy_parse(const char *s, struct fss_policy *p, char *err, size_t errlen)
{
	struct fs_locality loc;
	char msg[FS_MSG_SIZE], base[64], dur[32];
	const char *slash;
	int o;

	memset(p, 0, sizeof(*p));
	if (!s)
		return fs_errf(err, errlen, "policy missing");
	if (fs_strcaseeq(s, "tree")) {
		p->kind = FSS_POL_TREE;
		snprintf(p->name, sizeof(p->name), "tree");
		return 0;
	}
	if (!strncasecmp(s, "switches", 8) && (!s[8] || s[8] == '@')) {
		uint64_t w = FSS_SWITCH_WAIT_DEFAULT;

		if (s[8] && fs_parse_duration("policy switches@", s + 9, &w, msg, sizeof(msg))) {
			return fs_errf(err, errlen,
				       "%s; expected switches@<wait>, e.g. switches@10:00", msg);
		}
		if (w == FS_DURATION_INFINITE || w > INT32_MAX)
			return fs_errf(
				err, errlen,
				"policy '%s': expected a finite wait (Slurm caps it at max_switch_wait)",
				s);
		p->kind = FSS_POL_SWITCHES;
		p->wait = (int64_t)w;
		snprintf(p->name, sizeof(p->name), "switches@%s",
			 fs_format_duration(w, dur, sizeof(dur)));
		return 0;
	}
	if (fs_strcaseeq(s, "firstfit")) {
		p->kind = FSS_POL_FIRSTFIT;
		snprintf(p->name, sizeof(p->name), "firstfit");
		return 0;
	}
	slash = strchr(s, '/');
	if (slash && _suffixes(s, slash + 1, p, err, errlen))
		return -1;
	if (slash) {
		snprintf(base, sizeof(base), "%.*s", (int)(slash - s), s);
		if ((size_t)(slash - s) >= sizeof(base))
			return fs_errf(err, errlen, "policy '%s': too long", s);
	}
	if (fs_parse_locality("policy", slash ? base : s, &loc, msg, sizeof(msg))) {
		return fs_errf(
			err, errlen,
			"%s; then optionally /target%% (e.g. rack@1-0/99%%); or tree, switches[@wait] or firstfit",
			msg);
	}
	p->kind = FSS_POL_ENGINE;
	p->level = (enum fse_level)loc.level;
	if (p->target > 0 && p->level == FSE_ANY)
		return fs_errf(
			err, errlen,
			"policy '%s': a locality target needs rack or pod (any has no domain to keep)",
			s);
	if (p->ratio && p->level != FSE_RACK)
		return fs_errf(
			err, errlen,
			"policy '%s': a wait ratio needs rack (it waits for racks expected free)",
			s);
	p->wait = !loc.wait_set || loc.wait == FS_DURATION_INFINITE ? FSS_INFINITE
								    : (int64_t)loc.wait;
	o = p->wait == FSS_INFINITE
		    ? snprintf(p->name, sizeof(p->name), "%s", fse_level_name(p->level))
		    : snprintf(p->name, sizeof(p->name), "%s@%s", fse_level_name(p->level),
			       fs_format_duration((uint64_t)p->wait, dur, sizeof(dur)));
	if (p->target > 0 && o > 0 && (size_t)o < sizeof(p->name))
		o += snprintf(p->name + o, sizeof(p->name) - o, "/%g%%", 100 * p->target);
	if (p->ratio && o > 0 && (size_t)o < sizeof(p->name))
		snprintf(p->name + o, sizeof(p->name) - o, "/%ux", p->ratio);
	return 0;
}

struct fss_placer *fss_placer_new(const struct fss_machine *m, const struct fss_policy *p)
{
	struct fss_placer *pl = calloc(1, sizeof(*pl));

	if (!pl)
		return NULL;
	pl->m = m;
	pl->p = *p;
	pl->rack_free = calloc(m->nracks, sizeof(int));
	pl->pod_free = calloc(m->npods ? m->npods : 1, sizeof(int64_t));
	pl->used = calloc(m->nracks, 1);
	pl->seen = calloc(m->nracks, sizeof(unsigned));
	if (!pl->rack_free || !pl->pod_free || !pl->used || !pl->seen ||
	    (p->kind == FSS_POL_ENGINE && !(pl->w = fse_work_new(m->topo))) ||
	    (p->kind == FSS_POL_ENGINE && p->target > 0 && !(pl->share = fse_share_new(0)))) {
		fss_placer_free(pl);
		return NULL;
	}
	return pl;
}

void fss_placer_free(struct fss_placer *pl)
{
	if (!pl)
		return;
	fse_work_free(pl->w);
	fse_share_free(pl->share);
	free(pl->rack_free);
	free(pl->pod_free);
	free(pl->used);
	free(pl->seen);
	free(pl);
}

static int _cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Distinct racks of nodes[0..n), with the placer's per-rack stamps. */
static int _count_racks(struct fss_placer *pl, const int *nodes, int n)
{
	int k = 0;

	pl->stamp++;
	for (int i = 0; i < n; i++) {
		int r = pl->m->node_rack[nodes[i]];

		if (pl->seen[r] != pl->stamp) {
			pl->seen[r] = pl->stamp;
			k++;
		}
	}
	return k;
}

static enum fss_place_status _engine(struct fss_placer *pl, const uint8_t *avail, int n,
				     int64_t waited, int *nodes, int *nracks, bool *locality_only)
{
	struct fse_request rq = { 0 };
	struct fse_result res;

	rq.min_nodes = (uint32_t)n;
	rq.level = pl->p.level;
	rq.wait_ratio = pl->p.ratio;
	rq.free_at = pl->free_at;
	rq.now = pl->now;
	rq.time_limit = pl->limit;
	rq.rack_free = pl->racks_kept;
	rq.relaxed = (pl->p.wait != FSS_INFINITE && waited >= pl->p.wait) ||
		     fse_share_relax(pl->share, pl->m->topo, pl->p.target, rq.min_nodes, rq.level);
	if (fse_place(pl->m->topo, pl->w, &rq, avail, &res))
		return FSS_NEVER;
	pl->last_rq = rq;
	pl->last_res = res;
	if (res.status == FSE_NEVER)
		return FSS_NEVER;
	if (res.status == FSE_NOT_NOW) {
		*locality_only = res.could_relax;
		return FSS_WAIT;
	}
	memcpy(nodes, res.nodes, n * sizeof(int));
	qsort(nodes, n, sizeof(int), _cmp_int);
	*nracks = res.nracks;
	return FSS_PLACED;
}

/* Take up to want free nodes of rack r (index order) into nodes. */
static int _take(const struct fss_machine *m, const uint8_t *avail, int r, int want, int *nodes)
{
	int got = 0;

	for (int i = m->rack_start[r]; i < m->rack_start[r + 1] && got < want; i++)
		if (avail[m->rack_nodes[i]])
			nodes[got++] = m->rack_nodes[i];
	return got;
}

static enum fss_place_status _tree(struct fss_placer *pl, const uint8_t *avail, int n,
				   int64_t waited, int *nodes, int *nracks, bool *locality_only)
{
	const struct fss_machine *m = pl->m;
	int64_t total = 0;
	int best_rack = -1, best_pod = -1, got = 0, k = 0;

	if (n > m->nnodes)
		return FSS_NEVER;
	memset(pl->pod_free, 0, (m->npods ? m->npods : 1) * sizeof(int64_t));
	for (int r = 0; r < m->nracks; r++) {
		int f = 0;

		for (int i = m->rack_start[r]; i < m->rack_start[r + 1]; i++)
			f += avail[m->rack_nodes[i]] != 0;
		pl->rack_free[r] = f;
		total += f;
		if (m->rack_pod[r] >= 0)
			pl->pod_free[m->rack_pod[r]] += f;
		if (f >= n && (best_rack < 0 || f < pl->rack_free[best_rack]))
			best_rack = r;
	}
	if (total < n)
		return FSS_WAIT;
	memset(pl->used, 0, m->nracks);
	if (best_rack >= 0) {
		/* a leaf switch holds it */
		_take(m, avail, best_rack, n, nodes);
		*nracks = 1;
		return FSS_PLACED;
	}
	/* --switches=1@wait: a job that fits in a rack waits for one */
	if (pl->p.kind == FSS_POL_SWITCHES && n <= m->max_rack && waited < pl->p.wait) {
		*locality_only = true;
		return FSS_WAIT;
	}
	for (int p = 0; p < m->npods; p++)
		if (pl->pod_free[p] >= n &&
		    (best_pod < 0 || pl->pod_free[p] < pl->pod_free[best_pod]))
			best_pod = p;
	/* best_pod < 0: the root switch, every leaf */
	while (got < n) {
		int rest = n - got, leaf = -1;
		bool leaf_suff = false;

		for (int r = 0; r < m->nracks; r++) {
			int f = pl->rack_free[r];
			bool suff = f >= rest;

			if (pl->used[r] || f == 0 || (best_pod >= 0 && m->rack_pod[r] != best_pod))
				continue;
			if (leaf < 0 || (suff && !leaf_suff) ||
			    (suff && leaf_suff && f < pl->rack_free[leaf]) ||
			    (!suff && !leaf_suff && f > pl->rack_free[leaf])) {
				leaf = r;
				leaf_suff = suff;
			}
		}
		if (leaf < 0)
			return FSS_WAIT; /* cannot happen: total >= n */
		pl->used[leaf] = 1;
		got += _take(m, avail, leaf, rest, nodes + got);
		k++;
	}
	qsort(nodes, n, sizeof(int), _cmp_int);
	*nracks = k;
	return FSS_PLACED;
}

static enum fss_place_status _firstfit(struct fss_placer *pl, const uint8_t *avail, int n,
				       int *nodes, int *nracks)
{
	int got = 0;

	if (n > pl->m->nnodes)
		return FSS_NEVER;
	for (int i = 0; i < pl->m->nnodes && got < n; i++)
		if (avail[i])
			nodes[got++] = i;
	if (got < n)
		return FSS_WAIT;
	*nracks = _count_racks(pl, nodes, n);
	return FSS_PLACED;
}

enum fss_place_status fss_place(struct fss_placer *pl, const uint8_t *avail, int n, int64_t waited,
				int *nodes, int *nracks, bool *locality_only)
{
	*locality_only = false;
	if (n < 1)
		return FSS_NEVER;
	switch (pl->p.kind) {
	case FSS_POL_ENGINE:
		return _engine(pl, avail, n, waited, nodes, nracks, locality_only);
	case FSS_POL_TREE:
	case FSS_POL_SWITCHES:
		return _tree(pl, avail, n, waited, nodes, nracks, locality_only);
	case FSS_POL_FIRSTFIT:
		return _firstfit(pl, avail, n, nodes, nracks);
	}
	return FSS_NEVER;
}

void fss_placer_clock(struct fss_placer *pl, const int64_t *free_at, int64_t now, int64_t limit)
{
	pl->free_at = free_at;
	pl->now = now;
	pl->limit = limit;
}

void fss_placer_racks(struct fss_placer *pl, const int *rack_free)
{
	pl->racks_kept = rack_free;
}

void fss_placer_started(struct fss_placer *pl)
{
	if (pl && pl->share)
		fse_share_record(pl->share, pl->m->topo, &pl->last_rq, &pl->last_res);
}
