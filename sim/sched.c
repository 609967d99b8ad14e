/*
 * sched.c - event-driven FCFS + EASY backfill scheduler.
 *
 * Events are job submissions, job ends (submit/start + run time of the
 * log) and wait-bound expiries (a job that waits for locality becomes
 * relaxed).  After the events of one instant a scheduling pass runs:
 *  - jobs are taken in submit order and started while they can be placed;
 *  - the first that cannot gets the one EASY reservation, as Slurm's
 *    backfill makes it: the running jobs are released in the order of
 *    their expected ends (start + requested time) on a copy of the free
 *    nodes, and the policy is asked at each of those times (and at the
 *    job's wait bound, when it is relaxed then) until it places the job:
 *    that time is the shadow time, those nodes the reserved nodes;
 *  - the jobs after it are started when the policy places them now and
 *    either they end by their requested time before the shadow time or
 *    they use none of the reserved nodes (bf_depth of them tested per
 *    pass).
 * With reserve_all, backfill as Slurm's makes it: every blocked job tested
 * (bf_depth) gets a reservation of its own, the earliest time the policy
 * places it on the nodes free then and held by no earlier reservation over
 * its requested time; a job starts now only on nodes no earlier
 * reservation holds before it would end.  As in Slurm's backfill, the
 * pass keeps a node space (free nodes per time segment, _ns_*): a time is
 * tried only when every segment of the job's window has enough nodes.
 * Ties are broken by trace order, so runs are deterministic.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabsched_sim.h"

struct hent {
	int64_t key;
	long idx;
};

struct heap {
	struct hent *a;
	long n, cap;
};

static int _hless(const struct hent *x, const struct hent *y)
{
	return x->key < y->key || (x->key == y->key && x->idx < y->idx);
}

static int _hpush(struct heap *h, int64_t key, long idx)
{
	long i;

	if (h->n == h->cap) {
		long nc = h->cap ? h->cap * 2 : 256;
		struct hent *na = realloc(h->a, nc * sizeof(*na));

		if (!na)
			return -1;
		h->a = na;
		h->cap = nc;
	}
	i = h->n++;
	h->a[i].key = key;
	h->a[i].idx = idx;
	while (i > 0) {
		long p = (i - 1) / 2;
		struct hent tmp;

		if (!_hless(&h->a[i], &h->a[p]))
			break;
		tmp = h->a[i];
		h->a[i] = h->a[p];
		h->a[p] = tmp;
		i = p;
	}
	return 0;
}

static struct hent _hpop(struct heap *h)
{
	struct hent top = h->a[0];
	long i = 0;

	h->a[0] = h->a[--h->n];
	for (;;) {
		long l = 2 * i + 1, r = l + 1, s = i;
		struct hent tmp;

		if (l < h->n && _hless(&h->a[l], &h->a[s]))
			s = l;
		if (r < h->n && _hless(&h->a[r], &h->a[s]))
			s = r;
		if (s == i)
			break;
		tmp = h->a[i];
		h->a[i] = h->a[s];
		h->a[s] = tmp;
		i = s;
	}
	return top;
}

static double _now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int64_t _now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void _hist_add(struct fss_hist *h, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	h->n++;
	if (ns < 1000000)
		h->fine[ns / 100]++;
	else if (ns < 1000000 + (int64_t)FSS_HIST_COARSE * 10000)
		h->coarse[(ns - 1000000) / 10000]++;
	else
		h->over++;
}

double fss_hist_quantile(const struct fss_hist *h, double q)
{
	uint64_t want, acc = 0;

	if (!h->n)
		return 0;
	want = (uint64_t)(q * (double)(h->n - 1)) + 1;
	for (int i = 0; i < FSS_HIST_FINE; i++)
		if ((acc += h->fine[i]) >= want)
			return (i + 0.5) * 0.1;
	for (int i = 0; i < FSS_HIST_COARSE; i++)
		if ((acc += h->coarse[i]) >= want)
			return 1000 + (i + 0.5) * 10;
	return 1000 + FSS_HIST_COARSE * 10.0;
}

void fss_run_free(struct fss_run *r)
{
	if (!r)
		return;
	free(r->jobs);
	free(r->nodes);
	free(r);
}

struct state {
	const struct fss_machine *m;
	const struct fss_trace *tr;
	struct fss_run *run;
	struct fss_placer *pl;
	uint8_t *avail;
	int64_t *free_at; /* [nnodes] requested end of the job on each node */
	int nfree;
	long *queue, nqueue;
	long *running, nrunning;
	long *run_pos;	/* [njobs] position in running, -1 */
	uint8_t *woken; /* [njobs] wake event pushed */
	struct heap ends, wakes;
	int *tmp_nodes;
	uint8_t *fut;	 /* [nnodes] free nodes at a future time */
	uint8_t *masked; /* [nnodes] free and not reserved */
	/* the nodes set in avail, fut and masked per rack of the engine's
	 * domains, kept as nodes change (struct fse_request rack_free) */
	int *rf_avail, *rf_fut, *rf_masked;
	int *rf_check; /* [nracks] recount (check_tally) */
	int nracks;
	bool check_tally, tally_bad;
	int masked_free;
	struct hent *exp; /* scratch: running by expected end */
	long started;
	/* reserve_all: the pass's node space (_ns_bits) */
	int64_t *seg_t;
	int *seg_n;
	long *seg_next;
	uint8_t *seg_frees;
	uint64_t *seg_bits; /* [cap_seg * seg_words] */
	long nseg, cap_seg;
	int seg_words;
	uint64_t *seg_acc; /* [seg_words] scratch */
	uint8_t *cmask;	   /* [nnodes] scratch: free through a time, not reserved */
	int *rf_cmask;
};

/* Node @node of @v (counted per rack in @rf) set to @on. */
static void _set(const struct state *s, uint8_t *v, int *rf, int node, uint8_t on)
{
	if (v[node] == on)
		return;
	v[node] = on;
	rf[fse_topo_rack_of(s->m->topo, node)] += on ? 1 : -1;
}

/* The per-rack counts that go with @v. */
static int *_rf_of(const struct state *s, const uint8_t *v)
{
	return v == s->avail   ? s->rf_avail
	       : v == s->fut   ? s->rf_fut
	       : v == s->cmask ? s->rf_cmask
			       : s->rf_masked;
}

/* fss_place with the racks' counts of @from; with opts' check_tally,
 * those counts checked against a recount first (s->tally_bad when they
 * differ). */
static enum fss_place_status _place(struct state *s, const uint8_t *from, long j, int64_t now,
				    int *nracks, bool *locality_only)
{
	const struct fss_job *job = &s->tr->jobs[j];
	const int *rf = _rf_of(s, from);

	if (s->check_tally) {
		fse_rack_tally(s->m->topo, from, s->rf_check);
		if (memcmp(s->rf_check, rf, s->nracks * sizeof(int)))
			s->tally_bad = true;
	}
	fss_placer_clock(s->pl, s->free_at, now, job->req);
	fss_placer_racks(s->pl, rf);
	return fss_place(s->pl, from, job->nodes, now - job->submit, s->tmp_nodes, nracks,
			 locality_only);
}

/* Places job j now if the policy can; a fss_place_status, or -1 when
 * out of memory. */
static int _try(struct state *s, long j, int64_t now, const uint8_t *from, bool *locality_only)
{
	const struct fss_job *job = &s->tr->jobs[j];
	struct fss_jobrun *jr = &s->run->jobs[j];
	int nracks = 0;
	int64_t t0 = _now_ns();
	enum fss_place_status st;

	st = _place(s, from, j, now, &nracks, locality_only);
	_hist_add(&s->run->hist, _now_ns() - t0);
	s->run->decisions++;
	if (st == FSS_NEVER) {
		s->run->never++;
		return st;
	}
	if (st != FSS_PLACED)
		return st;
	fss_placer_started(s->pl);
	jr->start = now;
	jr->nracks = nracks;
	{
		int *dst = s->run->nodes + jr->node_off;

		memcpy(dst, s->tmp_nodes, job->nodes * sizeof(int));
		for (int i = 0; i < job->nodes; i++) {
			_set(s, s->avail, s->rf_avail, dst[i], 0);
			s->free_at[dst[i]] = now + job->req;
			if (s->masked[dst[i]]) {
				_set(s, s->masked, s->rf_masked, dst[i], 0);
				s->masked_free--;
			}
		}
	}
	s->nfree -= job->nodes;
	s->run_pos[j] = s->nrunning;
	s->running[s->nrunning++] = j;
	s->started++;
	if (_hpush(&s->ends, now + job->run, j))
		return -1;
	return FSS_PLACED;
}

static int _cmp_hent(const void *a, const void *b)
{
	return _hless(a, b) ? -1 : _hless(b, a) ? 1 : 0;
}

/*
 * EASY reservation for job j, blocked now: the shadow time (FSS_INFINITE
 * when none) and s->masked = the free nodes minus the reserved ones.
 */
static int64_t _reserve(struct state *s, long j, int64_t now)
{
	const struct fss_job *job = &s->tr->jobs[j];
	int64_t tb = FSS_INFINITE, w = s->run->policy.wait;
	long n = 0, i = 0;
	int nfut = s->nfree;

	memcpy(s->masked, s->avail, s->m->nnodes);
	memcpy(s->rf_masked, s->rf_avail, s->nracks * sizeof(int));
	s->masked_free = s->nfree;
	for (long k = 0; k < s->nrunning; k++) {
		long r = s->running[k];

		s->exp[n].key = s->run->jobs[r].start + s->tr->jobs[r].req;
		s->exp[n++].idx = r;
	}
	qsort(s->exp, n, sizeof(*s->exp), _cmp_hent);
	memcpy(s->fut, s->avail, s->m->nnodes);
	memcpy(s->rf_fut, s->rf_avail, s->nracks * sizeof(int));
	if ((s->run->policy.kind == FSS_POL_ENGINE || s->run->policy.kind == FSS_POL_SWITCHES) &&
	    w != FSS_INFINITE && now - job->submit < w)
		tb = job->submit + w;
	for (;;) {
		int64_t t, tn = i < n ? s->exp[i].key : FSS_INFINITE;
		int nracks = 0;
		bool loc;
		enum fss_place_status st;

		if (tb < tn) {
			t = tb; /* relaxed from then on */
			tb = FSS_INFINITE;
		} else if (tn != FSS_INFINITE) {
			t = tn;
			for (; i < n && s->exp[i].key == t; i++) {
				long r = s->exp[i].idx;
				const int *nodes = s->run->nodes + s->run->jobs[r].node_off;

				for (int k = 0; k < s->tr->jobs[r].nodes; k++)
					_set(s, s->fut, s->rf_fut, nodes[k], 1);
				nfut += s->tr->jobs[r].nodes;
			}
			if (tb <= t)
				tb = FSS_INFINITE;
		} else {
			return FSS_INFINITE;
		}
		if (nfut < job->nodes)
			continue;
		st = _place(s, s->fut, j, t, &nracks, &loc);
		if (st == FSS_NEVER)
			return FSS_INFINITE;
		if (st != FSS_PLACED)
			continue;
		for (int k = 0; k < job->nodes; k++)
			if (s->masked[s->tmp_nodes[k]]) {
				_set(s, s->masked, s->rf_masked, s->tmp_nodes[k], 0);
				s->masked_free--;
			}
		return t;
	}
}

static int _wake(struct state *s, long j, int64_t now)
{
	const struct fss_job *job = &s->tr->jobs[j];
	int64_t w = s->run->policy.wait;

	if (s->woken[j] || w == FSS_INFINITE || now - job->submit >= w)
		return 0;
	s->woken[j] = 1;
	return _hpush(&s->wakes, job->submit + w, j);
}

/* _try on @from, and a job kept waiting for locality woken at its wait
 * bound: FSS_PLACED, FSS_NEVER, another status when it stays queued, or
 * -1 when out of memory. */
static int _try_wake(struct state *s, long j, int64_t now, const uint8_t *from)
{
	bool loc = false;
	int st = _try(s, j, now, from, &loc);

	if (st < 0 || st == FSS_PLACED || st == FSS_NEVER || !loc)
		return st;
	return _wake(s, j, now) ? -1 : st;
}

static int _pass(struct state *s, int64_t now, int bf_depth)
{
	bool blocked = false;
	int64_t shadow = 0;
	long k = 0, tested = 0;

	for (long qi = 0; qi < s->nqueue; qi++) {
		long j = s->queue[qi];
		const struct fss_job *job = &s->tr->jobs[j];
		bool late;
		int st;

		if (!blocked) {
			if (job->nodes <= s->nfree) {
				st = _try_wake(s, j, now, s->avail);
				if (st < 0)
					return -1;
				if (st == FSS_PLACED || st == FSS_NEVER)
					continue;
			}
			blocked = true;
			shadow = _reserve(s, j, now);
			s->queue[k++] = j;
			continue;
		}
		late = now + job->req > shadow;
		if (tested >= bf_depth || job->nodes > s->nfree ||
		    (late && job->nodes > s->masked_free)) {
			s->queue[k++] = j;
			continue;
		}
		tested++;
		st = _try_wake(s, j, now, late ? s->masked : s->avail);
		if (st < 0)
			return -1;
		if (st == FSS_PLACED || st == FSS_NEVER)
			continue;
		s->queue[k++] = j;
	}
	s->nqueue = k;
	return 0;
}

/*
 * reserve_all's node space, as Slurm's backfill keeps it for one pass: a
 * list of segments in time order (seg_next from segment 0, which starts
 * now); segment k holds, from seg_t[k] until the next one starts, the
 * nodes free then (free now, or their running job expected to end by
 * then) that no reservation of the pass holds: seg_n[k] of them, a bit
 * each in _ns_bits(s, k).  seg_frees[k]: nodes come free at seg_t[k] (a
 * running job's expected end, a reservation's end), the times a
 * reservation is tried.
 */
static uint64_t *_ns_bits(const struct state *s, long k)
{
	return s->seg_bits + (size_t)k * s->seg_words;
}

/* Node @x of segment @k held (taken from the free ones) or freed. */
static void _ns_set(struct state *s, long k, int x, bool on)
{
	uint64_t *w = _ns_bits(s, k) + x / 64, b = UINT64_C(1) << (x % 64);

	if (!(*w & b) == !on)
		return;
	*w ^= b;
	s->seg_n[k] += on ? 1 : -1;
}

/* A new segment from @t with the nodes of segment @from (none: -1),
 * linked nowhere; its index, -1 when out of memory. */
static long _ns_new(struct state *s, int64_t t, long from)
{
	long k;

	if (s->nseg == s->cap_seg) {
		long nc = s->cap_seg ? 2 * s->cap_seg : 64;
		int64_t *t_ = realloc(s->seg_t, nc * sizeof(*t_));
		int *n_ = t_ ? realloc(s->seg_n, nc * sizeof(*n_)) : NULL;
		long *x_ = n_ ? realloc(s->seg_next, nc * sizeof(*x_)) : NULL;
		uint8_t *f_ = x_ ? realloc(s->seg_frees, nc) : NULL;
		uint64_t *m_ = f_ ? realloc(s->seg_bits, (size_t)nc * s->seg_words * 8) : NULL;

		s->seg_t = t_ ? t_ : s->seg_t;
		s->seg_n = n_ ? n_ : s->seg_n;
		s->seg_next = x_ ? x_ : s->seg_next;
		s->seg_frees = f_ ? f_ : s->seg_frees;
		s->seg_bits = m_ ? m_ : s->seg_bits;
		if (!m_)
			return -1;
		s->cap_seg = nc;
	}
	k = s->nseg++;
	s->seg_t[k] = t;
	s->seg_next[k] = -1;
	s->seg_frees[k] = 0;
	s->seg_n[k] = 0;
	if (from >= 0) {
		memcpy(_ns_bits(s, k), _ns_bits(s, from), s->seg_words * 8);
		s->seg_n[k] = s->seg_n[from];
	} else {
		memset(_ns_bits(s, k), 0, s->seg_words * 8);
	}
	return k;
}

/* The pass's node space from the free nodes and the running jobs. */
static int _ns_build(struct state *s, int64_t now)
{
	long n = 0, last;

	for (long k = 0; k < s->nrunning; k++) {
		long r = s->running[k];

		s->exp[n].key = s->run->jobs[r].start + s->tr->jobs[r].req;
		s->exp[n++].idx = r;
	}
	qsort(s->exp, n, sizeof(*s->exp), _cmp_hent);
	s->nseg = 0;
	last = _ns_new(s, now, -1);
	if (last < 0)
		return -1;
	for (int x = 0; x < s->m->nnodes; x++)
		if (s->avail[x])
			_ns_set(s, last, x, true);
	for (long i = 0; i < n; i++) {
		long r = s->exp[i].idx;
		const int *nodes = s->run->nodes + s->run->jobs[r].node_off;

		if (s->exp[i].key > s->seg_t[last]) {
			long k = _ns_new(s, s->exp[i].key, last);

			if (k < 0)
				return -1;
			s->seg_next[last] = k;
			s->seg_frees[k] = 1;
			last = k;
		}
		for (int x = 0; x < s->tr->jobs[r].nodes; x++)
			_ns_set(s, last, nodes[x], true);
	}
	return 0;
}

/* The segment starting at @t, made by splitting the one holding it when
 * none does, searched from segment @k (starting by @t); -1 when out of
 * memory. */
static long _ns_split(struct state *s, long k, int64_t t)
{
	long nk;

	while (s->seg_next[k] >= 0 && s->seg_t[s->seg_next[k]] <= t)
		k = s->seg_next[k];
	if (s->seg_t[k] == t)
		return k;
	nk = _ns_new(s, t, k);
	if (nk < 0)
		return -1;
	s->seg_next[nk] = s->seg_next[k];
	s->seg_next[k] = nk;
	return nk;
}

/* @nodes (@n of them) held during [@t0, @t1), @t0 in segment @k: a
 * reservation, or a job started now. */
static int _ns_take(struct state *s, long k, int64_t t0, int64_t t1, const int *nodes, int n)
{
	long a = _ns_split(s, k, t0), b = a < 0 ? -1 : _ns_split(s, a, t1);

	if (b < 0)
		return -1;
	s->seg_frees[b] = 1;
	for (k = a; k >= 0 && k != b; k = s->seg_next[k])
		for (int x = 0; x < n; x++)
			_ns_set(s, k, nodes[x], false);
	return 0;
}

/* The first segment from @k on that starts before @end with fewer than
 * @want nodes, or -1: no time from segment k's on whose window reaches it
 * can hold @want nodes. */
static long _ns_short(const struct state *s, long k, int64_t end, int want)
{
	for (; k >= 0 && s->seg_t[k] < end; k = s->seg_next[k])
		if (s->seg_n[k] < want)
			return k;
	return -1;
}

/* s->cmask (and its racks' counts) = the nodes free and held by no
 * reservation through [@t, @t + @len), @t in segment @k; RET how many
 * (s->cmask left as it was when fewer than @want). */
static int _ns_window(struct state *s, long k, int64_t t, int64_t len, int want)
{
	uint64_t *acc = s->seg_acc;
	int n = 0, nw = s->seg_words;

	memcpy(acc, _ns_bits(s, k), nw * 8);
	for (k = s->seg_next[k]; k >= 0 && s->seg_t[k] < t + len; k = s->seg_next[k]) {
		const uint64_t *b = _ns_bits(s, k);

		for (int i = 0; i < nw; i++)
			acc[i] &= b[i];
	}
	for (int i = 0; i < nw; i++)
		n += __builtin_popcountll(acc[i]);
	if (n < want)
		return n;
	for (int x = 0; x < s->m->nnodes; x++)
		s->cmask[x] = acc[x / 64] >> (x % 64) & 1;
	fse_rack_tally(s->m->topo, s->cmask, s->rf_cmask);
	return n;
}

/* reserve_all: job j's reservation, at the first of the times nodes come
 * free (running jobs' expected ends, reservations' ends, its wait bound)
 * where the policy places it on the nodes the node space holds through
 * its requested time.  0 (none found: FSS_NEVER or no such time), or -1
 * when out of memory. */
static int _reserve_own(struct state *s, long j, int64_t now)
{
	const struct fss_job *job = &s->tr->jobs[j];
	int64_t w = s->run->policy.wait, tb = FSS_INFINITE;

	if ((s->run->policy.kind == FSS_POL_ENGINE || s->run->policy.kind == FSS_POL_SWITCHES) &&
	    w != FSS_INFINITE && now - job->submit < w)
		tb = job->submit + w; /* relaxed from then on */
	for (long k = 0; k >= 0; k = s->seg_next[k]) {
		int64_t tk = s->seg_t[k],
			next = s->seg_next[k] >= 0 ? s->seg_t[s->seg_next[k]] : FSS_INFINITE;
		int64_t cand[2];
		int nc = 0;

		if (s->seg_frees[k] && tk > now)
			cand[nc++] = tk;
		if (tb > now && tb >= tk && tb < next && (!nc || tb != tk))
			cand[nc++] = tb;
		for (int c = 0; c < nc; c++) {
			int64_t t = cand[c];
			long bad = _ns_short(s, k, t + job->req, job->nodes);
			int nracks = 0;
			bool loc;
			enum fss_place_status st;

			if (bad >= 0) {
				/* every time from here to segment bad's end
				 * holds too few nodes somewhere */
				k = bad;
				break;
			}
			if (_ns_window(s, k, t, job->req, job->nodes) < job->nodes)
				continue;
			st = _place(s, s->cmask, j, t, &nracks, &loc);
			if (st == FSS_NEVER)
				return 0;
			if (st == FSS_PLACED)
				return _ns_take(s, k, t, t + job->req, s->tmp_nodes, job->nodes);
		}
	}
	return 0;
}

/* The pass with reserve_all: as _pass, every blocked job tested reserving
 * in the node space built when the first job blocks. */
static int _pass_all(struct state *s, int64_t now, int bf_depth)
{
	bool blocked = false;
	long k = 0, tested = 0;

	for (long qi = 0; qi < s->nqueue; qi++) {
		long j = s->queue[qi];
		const struct fss_job *job = &s->tr->jobs[j];
		int st;

		if (blocked && tested >= bf_depth) {
			s->queue[k++] = j;
			continue;
		}
		if (blocked)
			tested++;
		if (job->nodes <= s->nfree &&
		    (!blocked || (_ns_short(s, 0, now + job->req, job->nodes) < 0 &&
				  _ns_window(s, 0, now, job->req, job->nodes) >= job->nodes))) {
			st = _try_wake(s, j, now, blocked ? s->cmask : s->avail);
			if (st < 0)
				return -1;
			if (st == FSS_PLACED && blocked &&
			    _ns_take(s, 0, now, now + job->req, s->tmp_nodes, job->nodes))
				return -1;
			if (st == FSS_PLACED || st == FSS_NEVER)
				continue;
		}
		if (!blocked && _ns_build(s, now))
			return -1;
		blocked = true;
		if (_reserve_own(s, j, now))
			return -1;
		s->queue[k++] = j;
	}
	s->nqueue = k;
	return 0;
}

static void _progress(struct state *s, const char *label, double t0, int64_t now, bool last)
{
	double el = _now_s() - t0;
	long nj = s->tr->njobs, done = s->started + s->run->never;
	double eta = done ? el * (double)(nj - done) / (double)done : 0;

	fprintf(stderr,
		"\rsim %s: %ld/%ld jobs (%3.0f%%), simulated day %lld, %.0f s elapsed, about %.0f s left   %s",
		label ? label : s->run->policy.name, done, nj, nj ? 100.0 * done / nj : 100.0,
		(long long)((now - (nj ? s->tr->jobs[0].submit : 0)) / 86400), el, last ? 0 : eta,
		last ? "\n" : "");
	fflush(stderr);
}

/* The run of policy p and the scheduler's state in s (zeroed): every job
 * waiting, every node free.  -1 when out of memory (_state_free frees what
 * was made). */
static int _state_new(struct state *s, const struct fss_machine *m, const struct fss_trace *tr,
		      const struct fss_policy *p)
{
	long nj = tr->njobs, off = 0;
	struct fss_run *run = calloc(1, sizeof(*run));

	if (!run)
		return -1;
	run->policy = *p;
	run->trace = tr;
	run->machine = m;
	run->jobs = calloc(nj ? nj : 1, sizeof(*run->jobs));
	for (long j = 0; j < nj; j++)
		off += tr->jobs[j].nodes;
	run->nodes = malloc((off ? off : 1) * sizeof(int));
	s->m = m;
	s->tr = tr;
	s->run = run;
	s->pl = fss_placer_new(m, p);
	s->avail = malloc(m->nnodes);
	s->free_at = calloc(m->nnodes, sizeof(int64_t));
	s->queue = malloc((nj ? nj : 1) * sizeof(long));
	s->running = malloc((nj ? nj : 1) * sizeof(long));
	s->run_pos = malloc((nj ? nj : 1) * sizeof(long));
	s->woken = calloc(nj ? nj : 1, 1);
	s->tmp_nodes = malloc(m->nnodes * sizeof(int));
	s->fut = malloc(m->nnodes);
	s->masked = calloc(m->nnodes, 1);
	s->nracks = fse_topo_nracks(m->topo);
	s->rf_avail = calloc(s->nracks + 1, sizeof(int));
	s->rf_fut = calloc(s->nracks + 1, sizeof(int));
	s->rf_masked = calloc(s->nracks + 1, sizeof(int));
	s->rf_check = calloc(s->nracks + 1, sizeof(int));
	s->exp = malloc((nj ? nj : 1) * sizeof(*s->exp));
	s->cmask = calloc(m->nnodes, 1);
	s->rf_cmask = calloc(s->nracks + 1, sizeof(int));
	s->seg_words = (m->nnodes + 63) / 64;
	s->seg_acc = malloc((s->seg_words ? s->seg_words : 1) * sizeof(uint64_t));
	if (!s->cmask || !s->rf_cmask || !s->seg_acc)
		return -1;
	if (!run->jobs || !run->nodes || !s->pl || !s->avail || !s->queue || !s->running ||
	    !s->run_pos || !s->woken || !s->tmp_nodes || !s->exp || !s->fut || !s->masked ||
	    !s->free_at || !s->rf_avail || !s->rf_fut || !s->rf_masked || !s->rf_check)
		return -1;
	off = 0;
	for (long j = 0; j < nj; j++) {
		run->jobs[j].start = -1;
		run->jobs[j].node_off = off;
		off += tr->jobs[j].nodes;
		s->run_pos[j] = -1;
	}
	memset(s->avail, 1, m->nnodes);
	fse_rack_tally(m->topo, s->avail, s->rf_avail);
	s->nfree = m->nnodes;
	return 0;
}

static void _state_free(struct state *s)
{
	fss_run_free(s->run);
	fss_placer_free(s->pl);
	free(s->avail);
	free(s->free_at);
	free(s->queue);
	free(s->running);
	free(s->run_pos);
	free(s->woken);
	free(s->tmp_nodes);
	free(s->fut);
	free(s->masked);
	free(s->rf_avail);
	free(s->rf_fut);
	free(s->rf_masked);
	free(s->rf_check);
	free(s->exp);
	free(s->cmask);
	free(s->rf_cmask);
	free(s->seg_t);
	free(s->seg_n);
	free(s->seg_next);
	free(s->seg_frees);
	free(s->seg_bits);
	free(s->seg_acc);
	free(s->ends.a);
	free(s->wakes.a);
}

/* The time of the next event (job next's submission, an end, a wait
 * bound); FSS_INFINITE when none is left. */
static int64_t _next_event(const struct state *s, long next)
{
	int64_t t = FSS_INFINITE;

	if (next < s->tr->njobs)
		t = s->tr->jobs[next].submit;
	if (s->ends.n && s->ends.a[0].key < t)
		t = s->ends.a[0].key;
	if (s->wakes.n && s->wakes.a[0].key < t)
		t = s->wakes.a[0].key;
	return t;
}

/* The jobs ending at now give their nodes back. */
static void _end_jobs(struct state *s, int64_t now)
{
	while (s->ends.n && s->ends.a[0].key == now) {
		struct hent e = _hpop(&s->ends);
		long j = e.idx, pos = s->run_pos[j];
		const int *nodes = s->run->nodes + s->run->jobs[j].node_off;

		for (int i = 0; i < s->tr->jobs[j].nodes; i++)
			_set(s, s->avail, s->rf_avail, nodes[i], 1);
		s->nfree += s->tr->jobs[j].nodes;
		s->running[pos] = s->running[--s->nrunning];
		s->run_pos[s->running[pos]] = pos;
		s->run_pos[j] = -1;
	}
}

/* Every event in time order, a scheduling pass after those of each
 * instant (*now, the last); progress on stderr since t0 when asked.  -1
 * when out of memory. */
static int _events(struct state *s, const struct fss_sim_opts *o, double t0, int64_t *now)
{
	long nj = s->tr->njobs, next = 0, iter = 0;
	double last_print = t0;

	for (;;) {
		int64_t t = _next_event(s, next);

		if (t == FSS_INFINITE)
			break;
		*now = t;
		_end_jobs(s, t);
		while (next < nj && s->tr->jobs[next].submit == t)
			s->queue[s->nqueue++] = next++;
		while (s->wakes.n && s->wakes.a[0].key <= t)
			_hpop(&s->wakes);
		if (o->reserve_all ? _pass_all(s, t, o->bf_depth) : _pass(s, t, o->bf_depth))
			return -1;
		if (o->progress && (++iter & 1023) == 0) {
			double tn = _now_s();

			if (tn - last_print >= 1.0) {
				_progress(s, o->label, t0, t, false);
				last_print = tn;
			}
		}
	}
	return 0;
}

int fss_simulate(const struct fss_machine *m, const struct fss_trace *tr,
		 const struct fss_policy *p, const struct fss_sim_opts *opts, struct fss_run **out,
		 char *err, size_t errlen)
{
	struct fss_sim_opts o = { 0 };
	struct state s = { 0 };
	int64_t now = 0;
	double t0 = _now_s();
	int rc = -1;

	if (opts)
		o = *opts;
	if (o.bf_depth <= 0)
		o.bf_depth = 500;
	*out = NULL;
	s.check_tally = o.check_tally;
	if (_state_new(&s, m, tr, p) || _events(&s, &o, t0, &now)) {
		snprintf(err, errlen, "simulation: out of memory");
	} else if (s.tally_bad) {
		snprintf(err, errlen, "simulation: a rack's count of free nodes went wrong");
	} else {
		/* left in the queue with nothing running: can never start */
		s.run->never += s.nqueue;
		s.run->wall_s = _now_s() - t0;
		if (o.progress)
			_progress(&s, o.label, t0, now, true);
		*out = s.run;
		s.run = NULL;
		rc = 0;
	}
	_state_free(&s);
	return rc;
}
