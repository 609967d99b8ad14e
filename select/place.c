/*
 * place.c - the placement decision: smallest domain that fits, best fit
 * among domains, fewest racks when spanning, lowest rank on ties, all or
 * nothing.  See fabsched_select.h.
 *
 * A job is sized by its node count, or by its tasks (struct fse_request
 * ntasks): then every node holds some number of the job's tasks, now and on
 * the idle machine, and a domain fits when it has the nodes and the room
 * for the tasks.  One code path for both: a rack holds `nodes` usable nodes
 * and `units` tasks (a node-sized job counts nodes only).
 *
 * Cost: one pass over the nodes (usable nodes and tasks per rack; a job
 * sized by tasks or usable on some nodes only, a second one for the idle
 * machine unless the caller gives it, struct fse_request fit), then, for
 * a job that no rack holds, the k racks it spans drawn from a heap of the
 * racks (of each pod that could hold it, then of the fabric):
 * O(N + R + k log R).  For a job sized by nodes whose caller keeps the
 * racks' free nodes (struct fse_request rack_free), O(R + k log R) plus
 * the nodes of the racks taken.  For a job sized by tasks that one rack
 * holds, whose caller keeps the racks' room for its tasks (rack_room,
 * rack_room_idle), O(R) plus the nodes of the racks with room enough,
 * counted least room first until one holds it.
 */
#define _GNU_SOURCE /* qsort_r */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_select.h"
#include "select_private.h"

struct fse_work *fse_work_new(const struct fse_topo *t)
{
	struct fse_work *w;
	size_t nr, nn;

	if (!t || !(w = calloc(1, sizeof(*w))))
		return NULL;
	nr = t->nracks ? t->nracks : 1;
	nn = t->nnodes ? t->nnodes : 1;
	w->nracks = t->nracks;
	w->nnodes = t->nnodes;
	w->rack_free = calloc(nr, sizeof(int));
	w->order = calloc(nr, sizeof(int));
	w->sel = calloc(nr, sizeof(int));
	w->take = calloc(nr, sizeof(int));
	w->cand = calloc(nr, sizeof(int));
	w->cand_take = calloc(nr, sizeof(int));
	w->racks = calloc(nr, sizeof(int));
	w->rack_units = calloc(nr, sizeof(int64_t));
	w->rack_room = calloc(nr, sizeof(int64_t));
	w->rack_inodes = calloc(nr, sizeof(int));
	w->rack_iunits = calloc(nr, sizeof(int64_t));
	w->caps = calloc(nn, sizeof(uint32_t));
	w->slots = calloc(nn, sizeof(*w->slots));
	w->times = calloc(nn, sizeof(int64_t));
	w->nodes = calloc(nn, sizeof(int));
	if (!w->rack_free || !w->order || !w->sel || !w->take || !w->cand || !w->cand_take ||
	    !w->racks || !w->rack_units || !w->rack_room || !w->rack_inodes || !w->rack_iunits ||
	    !w->caps || !w->slots || !w->times || !w->nodes) {
		fse_work_free(w);
		return NULL;
	}
	return w;
}

void fse_work_free(struct fse_work *w)
{
	if (!w)
		return;
	free(w->rack_free);
	free(w->order);
	free(w->sel);
	free(w->take);
	free(w->cand);
	free(w->cand_take);
	free(w->racks);
	free(w->rack_units);
	free(w->rack_room);
	free(w->rack_inodes);
	free(w->rack_iunits);
	free(w->caps);
	free(w->slots);
	free(w->times);
	free(w->nodes);
	free(w);
}

/* What the job needs of a domain. */
struct need {
	uint32_t n;    /* nodes at least */
	uint32_t max;  /* nodes at most */
	int64_t tasks; /* tasks in all; 0: sized by nodes */
};

static bool _fits(const struct need *nd, int64_t nodes, int64_t units)
{
	return nodes >= nd->n && (!nd->tasks || units >= nd->tasks);
}

/* What best fit and spanning compare racks by. */
static int64_t _key(const struct need *nd, int64_t nodes, int64_t units)
{
	return nd->tasks ? units : nodes;
}

struct ctx {
	const struct fse_topo *t;
	const struct need *nd;
	const int *rn;	      /* [nracks] usable nodes */
	const int64_t *ru;    /* [nracks] tasks */
	const uint32_t *caps; /* [nnodes] tasks per node (node sort) */
};

/* Racks by what they hold, most first; then by rank. */
static int _cmp_free_desc(const void *a, const void *b, void *arg)
{
	const struct ctx *c = arg;
	int x = *(const int *)a, y = *(const int *)b;
	int64_t fx = _key(c->nd, c->rn[x], c->ru[x]);
	int64_t fy = _key(c->nd, c->rn[y], c->ru[y]);

	if (fx != fy)
		return fx > fy ? -1 : 1;
	if (c->t->rack_rank[x] != c->t->rack_rank[y])
		return c->t->rack_rank[x] < c->t->rack_rank[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static int _cmp_rack_rank(const void *a, const void *b, void *arg)
{
	const struct fse_topo *t = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (t->rack_rank[x] != t->rack_rank[y])
		return t->rack_rank[x] < t->rack_rank[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static int _cmp_node_rank(const void *a, const void *b, void *arg)
{
	const struct fse_topo *t = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (t->node_rank[x] != t->node_rank[y])
		return t->node_rank[x] < t->node_rank[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* Nodes by tasks they hold, most first; then by rank. */
static int _cmp_node_caps(const void *a, const void *b, void *arg)
{
	const struct ctx *c = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (c->caps[x] != c->caps[y])
		return c->caps[x] > c->caps[y] ? -1 : 1;
	return _cmp_node_rank(a, b, (void *)c->t);
}

/* Whether rack @x, holding @kx, fits tighter than rack @best holding @kb
 * (best -1: none yet): it holds less, then it comes first by rank, then
 * by index. */
static bool _tighter(const struct fse_topo *t, int x, int64_t kx, int best, int64_t kb)
{
	if (best < 0 || kx != kb)
		return best < 0 || kx < kb;
	return _cmp_rack_rank(&x, &best, (void *)t) < 0;
}

/* Sum of the k largest of a[0..m) (reorders a): quickselect, O(m). */
static int64_t _top_sum(uint32_t *a, int m, uint32_t k)
{
	int lo = 0, hi = m - 1;
	int64_t sum = 0;

	if ((uint32_t)m <= k) {
		for (int i = 0; i < m; i++)
			sum += a[i];
		return sum;
	}
	/* move the k largest to a[0..k) */
	while (lo < hi) {
		uint32_t pivot = a[lo + (hi - lo) / 2], t;
		int i = lo, j = hi;

		while (i <= j) {
			while (a[i] > pivot)
				i++;
			while (a[j] < pivot)
				j--;
			if (i <= j) {
				t = a[i];
				a[i++] = a[j];
				a[j--] = t;
			}
		}
		if ((int)k - 1 <= j)
			hi = j;
		else if ((int)k - 1 >= i)
			lo = i;
		else
			break;
	}
	for (uint32_t i = 0; i < k; i++)
		sum += a[i];
	return sum;
}

/*
 * Usable nodes and tasks of rack r for the job, from the per-node task
 * counts @caps (NULL: a node-sized job, usable where avail) and @avail
 * (NULL: every node).  The tasks are those of the nd->max nodes holding
 * most, since the job gets no more nodes than that, each up to the job's
 * own; @room (NULL: not wanted) gets them all, uncapped, what a one-rack
 * best fit compares.
 */
static void _tally(const struct fse_topo *t, struct fse_work *w, const struct need *nd, int r,
		   const uint8_t *avail, const uint32_t *caps, int *nodes, int64_t *units,
		   int64_t *room)
{
	int m = 0;
	int64_t u = 0, all = 0;

	for (int i = t->rack_start[r]; i < t->rack_start[r + 1]; i++) {
		int node = t->rack_members[i];
		uint32_t c;

		if (avail && !avail[node])
			continue;
		c = caps ? caps[node] : 1;
		if (!c)
			continue;
		all += c;
		if (nd->tasks && c > nd->tasks)
			c = (uint32_t)nd->tasks;
		w->caps[m++] = c;
		u += c;
	}
	if (nd->tasks && (uint32_t)m > nd->max)
		u = _top_sum(w->caps, m, nd->max);
	*nodes = m;
	*units = u;
	if (room)
		*room = all;
}

/* Tasks the job's nodes can hold at most over the whole fabric: those of
 * the nd->max nodes holding most (@avail NULL: every node). */
static int64_t _fabric_units(const struct fse_topo *t, struct fse_work *w, const struct need *nd,
			     const uint8_t *avail, const uint32_t *caps)
{
	int m = 0;

	for (int i = 0; i < t->nnodes; i++) {
		uint32_t c = (avail && !avail[i]) ? 0 : caps[i];

		if (c)
			w->caps[m++] = c > nd->tasks ? (uint32_t)nd->tasks : c;
	}
	return _top_sum(w->caps, m, nd->max);
}

/* Sift o[i] down the heap o[0..h) whose root comes first by @cmp. */
static void _sift(int *o, int h, int i, int (*cmp)(const void *, const void *, void *), void *c)
{
	for (;;) {
		int l = 2 * i + 1, m = i, x;

		if (l < h && cmp(&o[l], &o[m], c) < 0)
			m = l;
		if (l + 1 < h && cmp(&o[l + 1], &o[m], c) < 0)
			m = l + 1;
		if (m == i)
			return;
		x = o[i];
		o[i] = o[m];
		o[m] = x;
		i = m;
	}
}

/*
 * Fewest racks among racks[0..len) that together fit the job, by what
 * (rn, ru) say they hold: the k-1 racks holding most, then the rack
 * holding least that completes them (best fit; lowest rank on ties).
 * With @fill, the racks go to w->cand and, for a node-sized job, the nodes
 * to take of each to w->cand_take.  RET k, or 0 when they cannot.
 */
static int _span(const struct fse_topo *t, struct fse_work *w, const struct need *nd,
		 const int *racks, int len, const int *rn, const int64_t *ru, bool fill)
{
	struct ctx c = { .t = t, .nd = nd, .rn = rn, .ru = ru };
	int *o = w->order, k = 0, h = len, best = -1;
	int64_t sn = 0, su = 0, bn, bu;

	/* the racks holding most, one at a time and only as many as the job
	 * needs, from a heap of o[0..h) to o's end (o[len - 1] first): no
	 * sort of every rack */
	memcpy(o, racks, len * sizeof(int));
	for (int i = len / 2 - 1; i >= 0; i--)
		_sift(o, len, i, _cmp_free_desc, &c);
	while (h > 0 && !_fits(nd, sn, su) && rn[o[0]] > 0) {
		int x = o[0];

		o[0] = o[--h];
		o[h] = x;
		_sift(o, h, 0, _cmp_free_desc, &c);
		sn += rn[x];
		su += ru[x];
		k++;
	}
	if (!k || !_fits(nd, sn, su))
		return 0;
	if (!fill)
		return k;
	/* the first k-1 are taken whole */
	bn = sn - rn[o[len - k]];
	bu = su - ru[o[len - k]];
	for (int i = 0; i < k - 1; i++) {
		w->cand[i] = o[len - 1 - i];
		w->cand_take[i] = rn[o[len - 1 - i]];
	}
	/* the last: the k-th (o[h]) or one left in the heap, holding least
	 * (lowest rank on ties) */
	for (int i = h; i >= 0; i--) {
		int x = o[i];

		if (!_fits(nd, bn + rn[x], bu + ru[x]))
			continue;
		if (_tighter(t, x, _key(nd, rn[x], ru[x]), best,
			     best < 0 ? 0 : _key(nd, rn[best], ru[best])))
			best = x;
	}
	w->cand[k - 1] = best;
	w->cand_take[k - 1] = bn < nd->n ? (int)(nd->n - bn) : 0;
	return k;
}

/* Tallies of every rack of pod p (or of the fabric when p < 0). */
static void _pod_sum(const struct fse_topo *t, int p, const int *rn, const int64_t *ru,
		     int64_t *nodes, int64_t *units)
{
	int64_t sn = 0, su = 0;

	if (p < 0) {
		for (int r = 0; r < t->nracks; r++) {
			sn += rn[r];
			su += ru[r];
		}
	} else {
		for (int i = t->pod_start[p]; i < t->pod_start[p + 1]; i++) {
			sn += rn[t->pod_racks[i]];
			su += ru[t->pod_racks[i]];
		}
	}
	*nodes = sn;
	*units = su;
}

static void _reason(struct fse_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void _reason(struct fse_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->reason, sizeof(res->reason), fmt, ap);
	va_end(ap);
}

/* "30 tasks on 1-8 nodes" or "4 nodes", for reasons */
static const char *_what(const struct need *nd, char *buf, size_t size)
{
	if (nd->tasks)
		snprintf(buf, size, "%lld tasks", (long long)nd->tasks);
	else
		snprintf(buf, size, "%u nodes", nd->n);
	return buf;
}

/* Whether rack @r may hold the job by its @room: room for its tasks (a
 * job sized by nodes: room on nodes enough, each usable node holding at
 * least one) and nodes enough (only counting its nodes tells). */
static bool _may_hold(const struct fse_topo *t, int r, const int64_t *room, const struct need *nd)
{
	return room[r] >= (nd->tasks ? nd->tasks : (int64_t)nd->n) &&
	       t->rack_start[r + 1] - t->rack_start[r] >= (int64_t)nd->n;
}

/* A rack that holds the job on the idle machine, from the racks' idle room
 * (rq->rack_room_idle), counting node by node only racks with room enough:
 * RET the rack; -1 when no room is given, no rack holds the job, or the
 * one found is in no pod while there are pods (whether one holds it is then
 * the full count's to say). */
static int _idle_rack_kept(const struct fse_topo *t, struct fse_work *w,
			   const struct fse_request *rq, const struct need *nd,
			   const uint32_t *caps)
{
	for (int r = 0; rq->rack_room_idle && r < t->nracks; r++) {
		int m;
		int64_t u;

		if (!_may_hold(t, r, rq->rack_room_idle, nd))
			continue;
		_tally(t, w, nd, r, NULL, caps, &m, &u, NULL);
		if (_fits(nd, m, u))
			return (t->npods > 0 && t->rack_pod[r] < 0) ? -1 : r;
	}
	return -1;
}

/* The idle machine: struct fse_fit (fabsched_select.h). */
static void _idle(const struct fse_topo *t, struct fse_work *w, const struct fse_request *rq,
		  const struct need *nd, struct fse_fit *f)
{
	bool rack_ok = false, pod_ok = false;
	int pod_k = INT32_MAX;

	if (rq->fit) {
		*f = *rq->fit;
		return;
	}
	memset(f, 0, sizeof(*f));
	f->need_level = rq->level;
	if (!nd->tasks && !rq->tasks_idle) {
		/* sized by nodes, every node usable: the fabric's own counts */
		uint32_t n = nd->n;

		f->kcap = fse_kmin(t->all_capsum, t->nracks, n);
		rack_ok = (int64_t)n <= t->max_rack;
		pod_ok = t->npods > 0 && (int64_t)n <= t->max_pod;
		if (rq->level == FSE_RACK && !rack_ok && pod_ok)
			for (int p = 0; p < t->npods; p++) {
				int len = t->pod_start[p + 1] - t->pod_start[p];
				int k = fse_kmin(t->pod_capsum + t->pod_start[p], len, n);

				if (k < pod_k)
					pod_k = k;
			}
	} else if (_idle_rack_kept(t, w, rq, nd, rq->tasks_idle ? rq->tasks_idle : rq->tasks_now) >=
		   0) {
		/* a rack holds it: one, and its pod holds it too */
		rack_ok = true;
		pod_ok = t->npods > 0;
		f->kcap = 1;
	} else {
		const uint32_t *caps = rq->tasks_idle ? rq->tasks_idle : rq->tasks_now;
		int *all = w->racks;

		for (int r = 0; r < t->nracks; r++) {
			_tally(t, w, nd, r, NULL, caps, &w->rack_inodes[r], &w->rack_iunits[r],
			       NULL);
			rack_ok |= _fits(nd, w->rack_inodes[r], w->rack_iunits[r]);
			all[r] = r;
		}
		for (int p = 0; p < t->npods; p++) {
			int64_t pn, pu;
			int k;

			_pod_sum(t, p, w->rack_inodes, w->rack_iunits, &pn, &pu);
			if (!_fits(nd, pn, pu))
				continue;
			pod_ok = true;
			if (rack_ok)
				continue; /* the racks of a pod count only without one */
			k = _span(t, w, nd, t->pod_racks + t->pod_start[p],
				  t->pod_start[p + 1] - t->pod_start[p], w->rack_inodes,
				  w->rack_iunits, false);
			if (k && k < pod_k)
				pod_k = k;
		}
		/* a rack that holds it alone: one, with no sort of the racks nor
		 * a count of the fabric's tasks (that rack's are among them) */
		f->kcap = rack_ok ? 1
				  : _span(t, w, nd, all, t->nracks, w->rack_inodes, w->rack_iunits,
					  false);
		if (!f->kcap ||
		    (!rack_ok && nd->tasks && _fabric_units(t, w, nd, NULL, caps) < nd->tasks))
			f->kcap = INT32_MAX;
	}
	if (rq->level == FSE_RACK && !rack_ok) {
		if (pod_ok) {
			f->need_level = FSE_POD;
			f->need_k = pod_k;
		} else {
			f->need_level = FSE_ANY;
			f->need_k = f->kcap;
		}
	} else if (rq->level == FSE_POD && !pod_ok) {
		f->need_level = FSE_ANY;
	}
	f->fits_domain = (rq->level == FSE_RACK && rack_ok) || (rq->level == FSE_POD && pod_ok);
}

/* Why a node-sized job waits for its locality. */
static void _why_nodes(struct fse_result *res, const struct fse_fit *f, uint32_t n, int nsel,
		       enum fse_level found_level, int64_t max_rack_free, int64_t max_pod_free)
{
	if (f->need_level == FSE_RACK)
		_reason(res, "waiting for one rack with %u free nodes (most free in a rack: %lld)",
			n, (long long)max_rack_free);
	else if (f->need_level == FSE_POD && f->need_k)
		_reason(res, "waiting for %u free nodes in %d racks of one pod (now %d racks%s)", n,
			f->need_k, nsel, found_level == FSE_POD ? "" : ", several pods");
	else if (f->need_level == FSE_POD)
		_reason(res, "waiting for %u free nodes in one pod (most free in a pod: %lld)", n,
			(long long)max_pod_free);
	else
		_reason(res, "waiting for %u free nodes in %d racks (now %d racks)", n, f->need_k,
			nsel);
}

static bool _bad(const struct fse_topo *t, const struct fse_work *w, const struct fse_request *rq,
		 const uint8_t *avail)
{
	return !t || !w || !rq || (!avail && t->nnodes) || w->nracks != t->nracks ||
	       w->nnodes != t->nnodes || rq->min_nodes < 1 || rq->level < FSE_RACK ||
	       rq->level > FSE_ANY || (rq->ntasks && !rq->tasks_now);
}

int fse_request_fit(const struct fse_topo *t, struct fse_work *w, const struct fse_request *rq,
		    struct fse_fit *f)
{
	struct need nd;

	if (!t || !w || !rq || !f || w->nracks != t->nracks || w->nnodes != t->nnodes ||
	    rq->min_nodes < 1 || rq->level < FSE_RACK || rq->level > FSE_ANY ||
	    (rq->ntasks && !rq->tasks_now))
		return -1;
	nd.n = rq->min_nodes;
	nd.max = rq->max_nodes > nd.n ? rq->max_nodes : nd.n;
	nd.tasks = rq->ntasks;
	_idle(t, w, rq, &nd, f);
	return 0;
}

bool fse_request_fits_domain(const struct fse_topo *t, struct fse_work *w,
			     const struct fse_request *rq)
{
	struct fse_fit f;

	return !fse_request_fit(t, w, rq, &f) && f.fits_domain;
}

/* One decision's state, passed from phase to phase. */
struct plan {
	const struct fse_topo *t;
	struct fse_work *w;
	const struct fse_request *rq;
	const uint8_t *avail;
	struct need nd;
	uint32_t want;			     /* nodes wanted, within [n, max] */
	const uint32_t *caps;		     /* tasks per node now; NULL by nodes */
	char what[64];			     /* the tasks, for reasons */
	int64_t total_free, total_units;     /* what the job can use now */
	int64_t max_rack_free, max_pod_free; /* most in a rack, a pod */
	struct fse_fit idle;		     /* what the idle machine allows */
	int nsel;			     /* racks chosen: w->sel, w->take */
	enum fse_level level;		     /* their domain */
};

/* What the job can use now, per rack (w->rack_free, w->rack_units) and in
 * all. */
static void _tally_racks(struct plan *p)
{
	const struct fse_topo *t = p->t;
	struct fse_work *w = p->w;

	for (int r = 0; r < t->nracks; r++) {
		/* a skipped rack fails _fits and a job sized by nodes has no
		 * room (_room): rack_room is left as it is */
		if (p->rq->skip_racks && p->rq->skip_racks[r]) {
			w->rack_free[r] = w->rack_units[r] = 0;
		} else if (!p->caps && p->rq->rack_free) {
			w->rack_free[r] = p->rq->rack_free[r];
			w->rack_units[r] = w->rack_free[r];
		} else {
			_tally(t, w, &p->nd, r, p->avail, p->caps, &w->rack_free[r],
			       &w->rack_units[r], p->rq->rack_room ? NULL : &w->rack_room[r]);
		}
		p->total_free += w->rack_free[r];
		p->total_units += w->rack_units[r];
		if (_key(&p->nd, w->rack_free[r], w->rack_units[r]) > p->max_rack_free)
			p->max_rack_free = _key(&p->nd, w->rack_free[r], w->rack_units[r]);
	}
}

void fse_rack_tally(const struct fse_topo *t, const uint8_t *avail, int *out)
{
	for (int r = 0; t && r < t->nracks; r++) {
		int n = 0;

		for (int i = t->rack_start[r]; i < t->rack_start[r + 1]; i++)
			n += avail[t->rack_members[i]] != 0;
		out[r] = n;
	}
}

void fse_rack_room(const struct fse_topo *t, const uint8_t *avail, const uint32_t *tasks,
		   int64_t *out)
{
	for (int r = 0; t && r < t->nracks; r++) {
		int64_t u = 0;

		for (int i = t->rack_start[r]; i < t->rack_start[r + 1]; i++) {
			int node = t->rack_members[i];

			if (!avail || avail[node])
				u += tasks[node];
		}
		out[r] = u;
	}
}

/* Whether one rack holds the job now (w->rack_free, w->rack_units). */
static bool _rack_now(const struct plan *p)
{
	for (int r = 0; r < p->t->nracks; r++)
		if (_fits(&p->nd, p->w->rack_free[r], p->w->rack_units[r]))
			return true;
	return false;
}

/* Whether the job can never run (res says why); else the idle machine
 * (p->idle) is known. */
static bool _never(struct plan *p, struct fse_result *res)
{
	const struct fse_topo *t = p->t;
	const struct need *nd = &p->nd;

	if ((int64_t)nd->n > t->nnodes) {
		res->status = FSE_NEVER;
		_reason(res, "%u nodes asked, the fabric has %d", nd->n, t->nnodes);
		return true;
	}
	_idle(t, p->w, p->rq, nd, &p->idle);
	res->fits_domain = p->idle.fits_domain;
	if (p->idle.kcap == INT32_MAX) {
		res->status = FSE_NEVER;
		_reason(res, "%s on %u-%u nodes asked, more than the nodes hold even when idle",
			p->what, nd->n, nd->max);
		return true;
	}
	if (p->rq->max_racks && (uint32_t)p->idle.kcap > p->rq->max_racks) {
		res->status = FSE_NEVER;
		_reason(res, "%s need at least %d racks, at most %u allowed", p->what, p->idle.kcap,
			p->rq->max_racks);
		return true;
	}
	return false;
}

/* Whether the job, which can run (_never), cannot run now (res says
 * why), from the racks' counts (_tally_racks). */
static bool _not_now(struct plan *p, struct fse_result *res)
{
	const struct fse_topo *t = p->t;
	const struct need *nd = &p->nd;

	/* the racks' tasks add up to the fabric's unless more nodes than the
	 * job takes are free; and a rack that holds it now says it fits */
	if (nd->tasks && p->total_free > nd->max && !_rack_now(p))
		p->total_units = _fabric_units(t, p->w, nd, p->avail, p->caps);
	if (!_fits(nd, p->total_free, p->total_units)) {
		res->status = FSE_NOT_NOW;
		if (nd->tasks)
			_reason(res, "waiting for room for %s (%lld free on %lld nodes)", p->what,
				(long long)p->total_units, (long long)p->total_free);
		else
			_reason(res, "waiting for %u free nodes (%lld free)", nd->n,
				(long long)p->total_free);
		return true;
	}
	return false;
}

/* What one rack's best fit compares: a node-sized job's usable nodes; a
 * task-sized job's room for its tasks (the caller's rq->rack_room, else
 * the rack's tasks_now, uncapped: so a rack whose room the job fills goes
 * before one where it takes a part of a larger node). */
static int64_t _room(const struct plan *p, int r)
{
	if (!p->nd.tasks)
		return p->w->rack_free[r];
	return p->rq->rack_room ? p->rq->rack_room[r] : p->w->rack_room[r];
}

/* 1. one rack: the one holding least that fits the job. */
static bool _one_rack(struct plan *p)
{
	const struct fse_topo *t = p->t;
	struct fse_work *w = p->w;
	int best = -1;
	int64_t kb = 0;

	for (int r = 0; r < t->nracks; r++) {
		int64_t k = _room(p, r);

		if (_fits(&p->nd, w->rack_free[r], w->rack_units[r]) &&
		    _tighter(t, r, k, best, kb)) {
			best = r;
			kb = k;
		}
	}
	if (best < 0)
		return false;
	w->sel[0] = best;
	w->take[0] = p->nd.n;
	p->nsel = 1;
	p->level = FSE_RACK;
	return true;
}

/* Racks by ctx's ru (their room, or their expected times), least first;
 * then by rank. */
static int _cmp_ru_asc(const void *a, const void *b, void *arg)
{
	const struct ctx *c = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (c->ru[x] != c->ru[y])
		return c->ru[x] < c->ru[y] ? -1 : 1;
	return _cmp_rack_rank(a, b, (void *)c->t);
}

/* The racks that may hold the job by their @room (_may_hold), not
 * skipped, into a heap in w->order, least room first: RET how many. */
static int _room_heap(const struct fse_topo *t, struct fse_work *w, const int64_t *room,
		      const struct need *nd, const uint8_t *skip, struct ctx *c)
{
	int h = 0;

	for (int r = 0; r < t->nracks; r++)
		if (_may_hold(t, r, room, nd) && !(skip && skip[r]))
			w->order[h++] = r;
	for (int i = h / 2 - 1; i >= 0; i--)
		_sift(w->order, h, i, _cmp_ru_asc, c);
	return h;
}

/*
 * 1, in O(racks) for a job that can run (_never) sized by tasks whose
 * caller gives the racks' room (rq->rack_room): the racks with room for
 * its tasks, least first, are counted node by node until one holds it,
 * the rack _one_rack would take.  False, with nothing decided, when none
 * does: the full path decides.
 */
static bool _one_rack_kept(struct plan *p)
{
	const struct fse_topo *t = p->t;
	struct fse_work *w = p->w;
	const struct fse_request *rq = p->rq;
	struct ctx c = { .t = t, .ru = rq->rack_room };
	int h;

	if (!p->nd.tasks || !rq->rack_room)
		return false;
	h = _room_heap(t, w, rq->rack_room, &p->nd, rq->skip_racks, &c);
	while (h > 0) {
		int r = w->order[0];

		w->order[0] = w->order[--h];
		_sift(w->order, h, 0, _cmp_ru_asc, &c);
		_tally(t, w, &p->nd, r, p->avail, p->caps, &w->rack_free[r], &w->rack_units[r],
		       NULL);
		if (_fits(&p->nd, w->rack_free[r], w->rack_units[r])) {
			w->sel[0] = r;
			w->take[0] = p->nd.n;
			p->nsel = 1;
			p->level = FSE_RACK;
			return true;
		}
	}
	return false;
}

/* 2. racks of one pod: fewest racks, then least free (and the most any
 * pod holds, for the reason). */
static bool _one_pod(struct plan *p)
{
	const struct fse_topo *t = p->t;
	struct fse_work *w = p->w;
	int best_k = 0, best_pod = -1;
	int64_t best_free = 0;

	for (int q = 0; q < t->npods; q++) {
		const int *pr = t->pod_racks + t->pod_start[q];
		int len = t->pod_start[q + 1] - t->pod_start[q], k;
		int64_t pn, pu, pf;

		_pod_sum(t, q, w->rack_free, w->rack_units, &pn, &pu);
		pf = _key(&p->nd, pn, pu);
		if (pf > p->max_pod_free)
			p->max_pod_free = pf;
		if (!_fits(&p->nd, pn, pu))
			continue;
		k = _span(t, w, &p->nd, pr, len, w->rack_free, w->rack_units, true);
		if (!k || (p->rq->max_racks && (uint32_t)k > p->rq->max_racks))
			continue;
		/* pods are visited in index order; rank breaks ties */
		if (best_pod >= 0 &&
		    (k > best_k || (k == best_k && pf > best_free) ||
		     (k == best_k && pf == best_free &&
		      t->rack_rank[pr[0]] >= t->rack_rank[t->pod_racks[t->pod_start[best_pod]]])))
			continue;
		best_k = k;
		best_pod = q;
		best_free = pf;
		memcpy(w->sel, w->cand, k * sizeof(int));
		memcpy(w->take, w->cand_take, k * sizeof(int));
	}
	if (best_pod < 0)
		return false;
	p->nsel = best_k;
	p->level = FSE_POD;
	return true;
}

/* 3. racks of the whole fabric: fewest racks. */
static bool _any_racks(struct plan *p)
{
	const struct fse_topo *t = p->t;
	struct fse_work *w = p->w;
	int len = 0, k;

	for (int r = 0; r < t->nracks; r++)
		if (w->rack_free[r] > 0)
			w->racks[len++] = r;
	k = _span(t, w, &p->nd, w->racks, len, w->rack_free, w->rack_units, true);
	if (!k || (p->rq->max_racks && (uint32_t)k > p->rq->max_racks))
		return false;
	memcpy(w->sel, w->cand, k * sizeof(int));
	memcpy(w->take, w->cand_take, k * sizeof(int));
	p->nsel = k;
	p->level = FSE_ANY;
	return true;
}

static int _cmp_slot(const void *a, const void *b)
{
	const struct fse_slot *x = a, *y = b;

	return (x->t > y->t) - (x->t < y->t);
}

/* When rack @r is first expected to hold the job (need @nd), from the
 * nodes' free times; INT64_MAX: not before @bound (or never).  A node
 * counts when the job could use it on the idle machine (rq->tasks_idle,
 * when given) and, with @cand, when it is one of the candidates; it is free
 * now when in @avail with room for its share (@caps), else at its
 * rq->free_at.  O(R log R) for a rack of R nodes, in @sl. */
/* Whether @node counts for the job (see _rack_expected), and its slot:
 * when it is expected free for it and the tasks it takes. */
static bool _slot_of(const struct fse_request *rq, const struct need *nd, const uint8_t *avail,
		     const uint32_t *caps, const uint8_t *cand, int node, struct fse_slot *s)
{
	uint32_t cap = rq->tasks_idle ? rq->tasks_idle[node] : 1;
	bool now = avail[node] && (!caps || caps[node] >= cap);

	if (!cap || (cand && !cand[node]))
		return false;
	s->cap = nd->tasks && cap > nd->tasks ? (uint32_t)nd->tasks : cap;
	s->t = now || rq->free_at[node] < rq->now ? rq->now : rq->free_at[node];
	return true;
}

static int64_t _rack_expected(const struct fse_topo *t, const struct fse_request *rq,
			      const struct need *nd, const uint8_t *avail, const uint32_t *caps,
			      const uint8_t *cand, struct fse_slot *sl, int r, int64_t bound)
{
	int m = 0;
	int64_t nodes = 0, units = 0;

	for (int i = t->rack_start[r]; i < t->rack_start[r + 1]; i++)
		m += _slot_of(rq, nd, avail, caps, cand, t->rack_members[i], &sl[m]);
	qsort(sl, m, sizeof(*sl), _cmp_slot);
	for (int i = 0; i < m && sl[i].t < bound; i++) {
		nodes++;
		units += sl[i].cap;
		if (_fits(nd, nodes, units))
			return sl[i].t;
	}
	return INT64_MAX;
}

/* When one rack is first expected to hold the job, from the nodes' free
 * times (INT64_MAX: none is): O(N log R) over racks of R nodes. */
static int64_t _expected(const struct plan *p)
{
	int64_t best = INT64_MAX;

	for (int r = 0; r < p->t->nracks; r++) {
		int64_t at = _rack_expected(p->t, p->rq, &p->nd, p->avail, p->caps, NULL,
					    p->w->slots, r, best);

		if (at < best)
			best = at;
	}
	return best;
}

/* Whether a request with a wait ratio takes the placement found now (no
 * rack expected soon enough, or the job needs more than one); sets
 * res->expected. */
static bool _expected_far(const struct plan *p, struct fse_result *res)
{
	const struct fse_request *rq = p->rq;

	if (!rq->wait_ratio || !rq->free_at || rq->level != FSE_RACK)
		return false;
	if (p->idle.need_level != FSE_RACK) {
		res->expected = INT64_MAX;
		return true;
	}
	res->expected = _expected(p);
	if (rq->time_limit <= 0 || rq->time_limit == INT64_MAX)
		return res->expected == INT64_MAX;
	return res->expected == INT64_MAX ||
	       (double)(res->expected - rq->now) > (double)rq->wait_ratio * (double)rq->time_limit;
}

/* Whether the racks found miss the policy and the job waits (res says
 * why); a relaxed request takes them (res->relaxed), and so does one
 * with a wait ratio whose rack is not expected soon enough
 * (res->expected_far). */
static bool _policy_waits(struct plan *p, struct fse_result *res)
{
	const struct fse_fit *idle = &p->idle;

	if (p->level <= idle->need_level && !(idle->need_k && p->nsel > idle->need_k))
		return false;
	if (p->rq->relaxed) {
		res->relaxed = true;
		return false;
	}
	if (_expected_far(p, res)) {
		res->relaxed = res->expected_far = true;
		return false;
	}
	res->status = FSE_NOT_NOW;
	res->could_relax = true;
	if (!p->nd.tasks)
		_why_nodes(res, idle, p->nd.n, p->nsel, p->level, p->max_rack_free,
			   p->max_pod_free);
	else if (idle->need_level == FSE_RACK)
		_reason(res, "waiting for one rack with room for %s (most in a rack: %lld)",
			p->what, (long long)p->max_rack_free);
	else if (idle->need_level == FSE_POD && idle->need_k)
		_reason(res, "waiting for room for %s in %d racks of one pod (now %d racks%s)",
			p->what, idle->need_k, p->nsel,
			p->level == FSE_POD ? "" : ", several pods");
	else if (idle->need_level == FSE_POD)
		_reason(res, "waiting for room for %s in one pod (most in a pod: %lld)", p->what,
			(long long)p->max_pod_free);
	else
		_reason(res, "waiting for room for %s in %d racks (now %d racks)", p->what,
			idle->need_k, p->nsel);
	return true;
}

/* The nodes of a job sized by nodes: the lowest ranks of each chosen rack
 * (its share), then up to want.  Returns how many, in w->nodes. */
static uint32_t _nodes_by_count(const struct plan *p)
{
	const struct fse_topo *t = p->t;
	struct fse_work *w = p->w;
	uint32_t cnt = 0;

	for (int s = 0; s < p->nsel; s++) {
		int r = w->sel[s], got = 0;

		for (int i = t->rack_start[r]; i < t->rack_start[r + 1] && got < w->take[s]; i++) {
			int node = t->rack_members[i];

			if (p->avail[node]) {
				w->nodes[cnt++] = node;
				got++;
			}
		}
	}
	for (int s = 0; s < p->nsel && cnt < p->want; s++) {
		int r = w->sel[s], skip = w->take[s];

		for (int i = t->rack_start[r]; i < t->rack_start[r + 1] && cnt < p->want; i++) {
			int node = t->rack_members[i];

			if (!p->avail[node])
				continue;
			if (skip > 0) {
				skip--;
				continue;
			}
			w->nodes[cnt++] = node;
		}
	}
	return cnt;
}

/* The nodes of a job sized by tasks: the fewest nodes of the chosen racks
 * that hold the tasks (most room first), then up to want. */
static uint32_t _nodes_by_tasks(const struct plan *p)
{
	const struct fse_topo *t = p->t;
	struct fse_work *w = p->w;
	struct ctx c = { .t = t, .nd = &p->nd, .caps = p->caps };
	uint32_t m = 0, cnt = 0;
	int64_t u = 0;

	for (int s = 0; s < p->nsel; s++) {
		int r = w->sel[s];

		for (int i = t->rack_start[r]; i < t->rack_start[r + 1]; i++) {
			int node = t->rack_members[i];

			if (p->avail[node] && p->caps[node])
				w->nodes[m++] = node;
		}
	}
	qsort_r(w->nodes, m, sizeof(int), _cmp_node_caps, &c);
	while (cnt < m && cnt < p->nd.max && (cnt < p->want || !_fits(&p->nd, cnt, u)))
		u += p->caps[w->nodes[cnt++]];
	return cnt;
}

int fse_place_expected(const struct fse_topo *t, struct fse_work *w, const struct fse_request *rq,
		       const uint8_t *avail, const uint8_t *cand, int *racks, int64_t *at, int max)
{
	struct need nd;
	struct ctx c;
	int n = 0;

	if (_bad(t, w, rq, avail) || !rq->free_at || !racks || !at || max < 0)
		return -1;
	nd.n = rq->min_nodes;
	nd.max = rq->max_nodes > nd.n ? rq->max_nodes : nd.n;
	nd.tasks = rq->ntasks;
	for (int r = 0; r < t->nracks; r++) {
		if (rq->skip_racks && rq->skip_racks[r])
			continue;
		w->rack_units[r] =
			_rack_expected(t, rq, &nd, avail, nd.tasks ? rq->tasks_now : NULL, cand,
				       w->slots, r, INT64_MAX);
		if (w->rack_units[r] != INT64_MAX)
			w->order[n++] = r;
	}
	c = (struct ctx){ .t = t, .nd = &nd, .ru = w->rack_units };
	qsort_r(w->order, n, sizeof(int), _cmp_ru_asc, &c);
	if (n > max)
		n = max;
	for (int k = 0; k < n; k++) {
		racks[k] = w->order[k];
		at[k] = w->rack_units[w->order[k]];
	}
	return n;
}

static int _cmp_time(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Every usable node's slot (as _rack_expected counts them) at its place
 * among its rack's members in w->slots, each rack's sorted by time (a node
 * that does not count: INT64_MAX); the finite times, sorted, in w->times.
 * RET how many. */
static int _all_slots(const struct fse_topo *t, struct fse_work *w, const struct fse_request *rq,
		      const struct need *nd, const uint8_t *avail, const uint8_t *cand)
{
	const uint32_t *caps = nd->tasks ? rq->tasks_now : NULL;
	int m = 0;

	for (int r = 0; r < t->nracks; r++) {
		int a = t->rack_start[r], b = t->rack_start[r + 1];

		for (int i = a; i < b; i++) {
			struct fse_slot *s = &w->slots[i];

			if ((rq->skip_racks && rq->skip_racks[r]) ||
			    !_slot_of(rq, nd, avail, caps, cand, t->rack_members[i], s)) {
				s->t = INT64_MAX;
				s->cap = 0;
			} else if (s->t != INT64_MAX) {
				w->times[m++] = s->t;
			}
		}
		qsort(w->slots + a, b - a, sizeof(*w->slots), _cmp_slot);
	}
	qsort(w->times, m, sizeof(*w->times), _cmp_time);
	return m;
}

/* Each rack's nodes and tasks free by @at (w->rack_free, w->rack_units),
 * from _all_slots; the tasks, as _tally counts them, those of the nd->max
 * nodes holding most. */
static void _free_by(const struct fse_topo *t, struct fse_work *w, const struct need *nd,
		     int64_t at)
{
	for (int r = 0; r < t->nracks; r++) {
		int a = t->rack_start[r], n = 0;
		int64_t u = 0;

		for (int i = a; i < t->rack_start[r + 1] && w->slots[i].t <= at; i++) {
			n++;
			u += w->slots[i].cap;
		}
		if (nd->tasks && (uint32_t)n > nd->max) {
			for (int i = 0; i < n; i++)
				w->caps[i] = w->slots[a + i].cap;
			u = _top_sum(w->caps, n, nd->max);
		}
		w->rack_free[r] = n;
		w->rack_units[r] = u;
	}
}

/* The fewest racks, at most @kmax, of one pod (@level FSE_POD) or of the
 * fabric that hold the job by w->rack_free and w->rack_units: RET how many
 * (0: none); with @fill, the racks in w->sel (the first pod of the fewest). */
static int _span_in(const struct fse_topo *t, struct fse_work *w, const struct need *nd,
		    enum fse_level level, int kmax, bool fill)
{
	int best = 0, len = 0, k;

	if (level == FSE_POD) {
		for (int p = 0; p < t->npods; p++) {
			k = _span(t, w, nd, t->pod_racks + t->pod_start[p],
				  t->pod_start[p + 1] - t->pod_start[p], w->rack_free,
				  w->rack_units, fill);
			if (!k || k > kmax || (best && k >= best))
				continue;
			best = k;
			if (fill)
				memcpy(w->sel, w->cand, k * sizeof(int));
		}
		return best;
	}
	for (int r = 0; r < t->nracks; r++)
		w->racks[len++] = r;
	k = _span(t, w, nd, w->racks, len, w->rack_free, w->rack_units, fill);
	if (!k || k > kmax)
		return 0;
	if (fill)
		memcpy(w->sel, w->cand, k * sizeof(int));
	return k;
}

int fse_place_expected_span(const struct fse_topo *t, struct fse_work *w,
			    const struct fse_request *rq, const uint8_t *avail, const uint8_t *cand,
			    const int **racks, int64_t *at)
{
	struct need nd;
	struct fse_fit f;
	enum fse_level level;
	int m, lo, hi, kmax, k;

	if (_bad(t, w, rq, avail) || !rq->free_at || !racks || !at)
		return -1;
	nd.n = rq->min_nodes;
	nd.max = rq->max_nodes > nd.n ? rq->max_nodes : nd.n;
	nd.tasks = rq->ntasks;
	_idle(t, w, rq, &nd, &f);
	if (f.kcap == INT32_MAX || (rq->max_racks && (uint32_t)f.kcap > rq->max_racks))
		return 0;
	/* the racks the policy waits for: one (a rack as a span of one),
	 * need_k of one pod, need_k of the fabric; any number of one pod or
	 * of the fabric when it asks no count */
	level = f.need_level == FSE_POD ? FSE_POD : FSE_ANY;
	kmax = f.need_level == FSE_RACK ? 1 : f.need_k ? f.need_k : INT32_MAX;
	if (rq->max_racks && (uint32_t)kmax > rq->max_racks)
		kmax = (int)rq->max_racks;
	m = _all_slots(t, w, rq, &nd, avail, cand);
	if (!m)
		return 0;
	/* the earliest free time by which enough racks hold it: holding is
	 * monotone in time, so a binary search over the nodes' times */
	_free_by(t, w, &nd, w->times[m - 1]);
	if (!_span_in(t, w, &nd, level, kmax, false))
		return 0;
	lo = 0;
	hi = m - 1;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		_free_by(t, w, &nd, w->times[mid]);
		if (_span_in(t, w, &nd, level, kmax, false))
			hi = mid;
		else
			lo = mid + 1;
	}
	_free_by(t, w, &nd, w->times[hi]);
	k = _span_in(t, w, &nd, level, kmax, true);
	memcpy(w->racks, w->sel, k * sizeof(int));
	qsort_r(w->racks, k, sizeof(int), _cmp_rack_rank, (void *)t);
	*racks = w->racks;
	*at = w->times[hi];
	return k;
}

int fse_place(const struct fse_topo *t, struct fse_work *w, const struct fse_request *rq,
	      const uint8_t *avail, struct fse_result *res)
{
	struct plan p = { .t = t, .w = w, .rq = rq, .avail = avail, .level = FSE_ANY };
	uint32_t n, max;
	char why[96];

	if (!res)
		return -1;
	memset(res, 0, sizeof(*res));
	if (_bad(t, w, rq, avail)) {
		_reason(res, "bad arguments");
		return -1;
	}
	n = rq->min_nodes;
	max = rq->max_nodes ? rq->max_nodes : n;
	if (max < n) {
		_reason(res, "bad arguments: max_nodes %u < min_nodes %u", max, n);
		return -1;
	}
	p.want = rq->want_nodes < n ? n : rq->want_nodes > max ? max : rq->want_nodes;
	p.nd.n = n;
	p.nd.max = max;
	p.nd.tasks = rq->ntasks;
	p.caps = p.nd.tasks ? rq->tasks_now : NULL;
	_what(&p.nd, p.what, sizeof(p.what));

	if (_never(&p, res))
		return 0;
	if (!_one_rack_kept(&p)) {
		_tally_racks(&p);
		if (_not_now(&p, res))
			return 0;
		if (!_one_rack(&p) && !_one_pod(&p) && !_any_racks(&p)) {
			res->status = FSE_NOT_NOW;
			if (p.nd.tasks)
				_reason(res, "waiting for room for %s within %u racks", p.what,
					rq->max_racks);
			else
				_reason(res, "waiting for %u free nodes within %u racks", n,
					rq->max_racks);
			return 0;
		}
	}
	if (_policy_waits(&p, res))
		return 0;

	res->count = p.nd.tasks ? _nodes_by_tasks(&p) : _nodes_by_count(&p);
	qsort_r(w->nodes, res->count, sizeof(int), _cmp_node_rank, (void *)t);
	memcpy(w->racks, w->sel, p.nsel * sizeof(int));
	qsort_r(w->racks, p.nsel, sizeof(int), _cmp_rack_rank, (void *)t);
	res->status = FSE_OK;
	res->level = p.level;
	res->nodes = w->nodes;
	res->racks = w->racks;
	res->nracks = p.nsel;
	if (res->expected_far && res->expected == INT64_MAX)
		snprintf(why, sizeof(why), " (relaxed: no rack expected to hold it%s)",
			 p.idle.need_level == FSE_RACK ? "" : ", it needs several");
	else if (res->expected_far)
		snprintf(why, sizeof(why),
			 " (relaxed: a rack expected in %" PRId64 " s, over %u x its time limit)",
			 res->expected - rq->now, rq->wait_ratio);
	else
		snprintf(why, sizeof(why), "%s", res->relaxed ? " (relaxed)" : "");
	if (p.level == FSE_RACK)
		_reason(res, "%u nodes in one rack%s", res->count, why);
	else
		_reason(res, "%u nodes in %d racks%s%s", res->count, p.nsel,
			p.level == FSE_POD ? " of one pod" : "", why);
	return 0;
}
