/*
 * place.c - the placement decision: smallest domain that fits, best fit
 * among domains, fewest racks when spanning, lowest rank on ties, all or
 * nothing.  See fabsched_select.h.
 *
 * Cost: one pass over the nodes (free nodes per rack) plus a sort of the
 * racks of each pod that could hold the job, O(N + R log R).
 */
#define _GNU_SOURCE	/* qsort_r */
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
	w->nodes = calloc(nn, sizeof(int));
	if (!w->rack_free || !w->order || !w->sel || !w->take || !w->cand ||
	    !w->cand_take || !w->racks || !w->nodes) {
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
	free(w->nodes);
	free(w);
}

struct ctx {
	const struct fse_topo *t;
	const struct fse_work *w;
};

/* Racks by free nodes, most first; then by rank. */
static int _cmp_free_desc(const void *a, const void *b, void *arg)
{
	const struct ctx *c = arg;
	int x = *(const int *)a, y = *(const int *)b;
	int fx = c->w->rack_free[x], fy = c->w->rack_free[y];

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

/*
 * Fewest racks among racks[0..len) holding n free nodes: the k-1 racks
 * with most free nodes, then the rack with the fewest free nodes that
 * covers the rest (best fit; lowest rank on ties).  Fills w->cand and
 * w->cand_take; returns k, or 0 when the racks cannot hold n.
 */
static int _span(const struct fse_topo *t, struct fse_work *w,
		 const int *racks, int len, int n)
{
	struct ctx c = { t, w };
	int *o = w->order, k = 0, sum = 0, rest, best = -1;

	memcpy(o, racks, len * sizeof(int));
	qsort_r(o, len, sizeof(int), _cmp_free_desc, &c);
	while (k < len && sum < n && w->rack_free[o[k]] > 0)
		sum += w->rack_free[o[k++]];
	if (sum < n)
		return 0;
	/* the first k-1 are taken whole */
	sum = 0;
	for (int i = 0; i < k - 1; i++) {
		w->cand[i] = o[i];
		w->cand_take[i] = w->rack_free[o[i]];
		sum += w->rack_free[o[i]];
	}
	rest = n - sum;
	/* sorted by free desc, rank asc: the first rack seen with a given
	 * free count is the lowest-ranked one with it */
	for (int i = k - 1; i < len && w->rack_free[o[i]] >= rest; i++)
		if (best < 0 || w->rack_free[o[i]] < w->rack_free[best])
			best = o[i];
	w->cand[k - 1] = best;
	w->cand_take[k - 1] = rest;
	return k;
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

int fse_place(const struct fse_topo *t, struct fse_work *w,
	      const struct fse_request *rq, const uint8_t *avail,
	      struct fse_result *res)
{
	uint32_t n, max, want;
	int64_t total_free = 0, max_pod_free = 0;
	int max_rack_free = 0, kcap, need_k = 0, nsel = 0;
	enum fse_level need_level, found_level = FSE_ANY;
	bool found = false;

	if (!res)
		return -1;
	memset(res, 0, sizeof(*res));
	if (!t || !w || !rq || (!avail && t->nnodes) || w->nracks != t->nracks ||
	    w->nnodes != t->nnodes || rq->min_nodes < 1 ||
	    rq->level < FSE_RACK || rq->level > FSE_ANY) {
		_reason(res, "bad arguments");
		return -1;
	}
	n = rq->min_nodes;
	max = rq->max_nodes ? rq->max_nodes : n;
	if (max < n) {
		_reason(res, "bad arguments: max_nodes %u < min_nodes %u", max, n);
		return -1;
	}
	want = rq->want_nodes < n ? n : rq->want_nodes > max ? max : rq->want_nodes;

	/* free nodes per rack, pod */
	for (int r = 0; r < t->nracks; r++) {
		int f = 0;

		if (!rq->skip_racks || !rq->skip_racks[r])
			for (int i = t->rack_start[r]; i < t->rack_start[r + 1]; i++)
				f += avail[t->rack_members[i]] != 0;
		w->rack_free[r] = f;
		total_free += f;
		if (f > max_rack_free)
			max_rack_free = f;
	}

	/* what can never be */
	if ((int64_t)n > t->nnodes) {
		res->status = FSE_NEVER;
		_reason(res, "%u nodes asked, the fabric has %d", n, t->nnodes);
		return 0;
	}
	kcap = fse_kmin(t->all_capsum, t->nracks, n);
	if (rq->max_racks && (uint32_t)kcap > rq->max_racks) {
		res->status = FSE_NEVER;
		_reason(res, "%u nodes need at least %d racks, at most %u allowed",
			n, kcap, rq->max_racks);
		return 0;
	}

	/* what the policy requires, given the sizes of the domains */
	need_level = rq->level;
	if (need_level == FSE_RACK && (int64_t)n > t->max_rack) {
		if ((int64_t)n <= t->max_pod) {
			need_level = FSE_POD;
			need_k = INT32_MAX;
			for (int p = 0; p < t->npods; p++) {
				int len = t->pod_start[p + 1] - t->pod_start[p];
				int k = fse_kmin(t->pod_capsum + t->pod_start[p],
						 len, n);
				if (k < need_k)
					need_k = k;
			}
		} else {
			need_level = FSE_ANY;
			need_k = kcap;
		}
	} else if (need_level == FSE_POD && (int64_t)n > t->max_pod) {
		need_level = FSE_ANY;
	}

	if (total_free < n) {
		res->status = FSE_NOT_NOW;
		_reason(res, "waiting for %u free nodes (%lld free)", n,
			(long long)total_free);
		return 0;
	}

	/* 1. one rack: the one with the fewest free nodes that holds n */
	{
		int best = -1;

		for (int r = 0; r < t->nracks; r++) {
			int f = w->rack_free[r];

			if (f < (int)n)
				continue;
			if (best < 0 || f < w->rack_free[best] ||
			    (f == w->rack_free[best] &&
			     t->rack_rank[r] < t->rack_rank[best]))
				best = r;
		}
		if (best >= 0) {
			w->sel[0] = best;
			w->take[0] = n;
			nsel = 1;
			found = true;
			found_level = FSE_RACK;
		}
	}

	/* 2. racks of one pod: fewest racks, then fewest free nodes */
	if (!found) {
		int best_k = 0, best_pod = -1;
		int64_t best_free = 0;

		for (int p = 0; p < t->npods; p++) {
			const int *pr = t->pod_racks + t->pod_start[p];
			int len = t->pod_start[p + 1] - t->pod_start[p], k;
			int64_t pf = 0;

			for (int i = 0; i < len; i++)
				pf += w->rack_free[pr[i]];
			if (pf > max_pod_free)
				max_pod_free = pf;
			if (pf < n)
				continue;
			k = _span(t, w, pr, len, n);
			if (!k || (rq->max_racks && (uint32_t)k > rq->max_racks))
				continue;
			/* pods are visited in index order; rank breaks ties */
			if (best_pod >= 0 &&
			    (k > best_k || (k == best_k && pf > best_free) ||
			     (k == best_k && pf == best_free &&
			      t->rack_rank[pr[0]] >=
				      t->rack_rank[t->pod_racks[t->pod_start[best_pod]]])))
				continue;
			best_k = k;
			best_pod = p;
			best_free = pf;
			memcpy(w->sel, w->cand, k * sizeof(int));
			memcpy(w->take, w->cand_take, k * sizeof(int));
		}
		if (best_pod >= 0) {
			nsel = best_k;
			found = true;
			found_level = FSE_POD;
		}
	}

	/* 3. racks of the whole fabric: fewest racks */
	if (!found) {
		int len = 0, k;

		for (int r = 0; r < t->nracks; r++)
			if (w->rack_free[r] > 0)
				w->racks[len++] = r;
		k = _span(t, w, w->racks, len, n);
		if (k && (!rq->max_racks || (uint32_t)k <= rq->max_racks)) {
			memcpy(w->sel, w->cand, k * sizeof(int));
			memcpy(w->take, w->cand_take, k * sizeof(int));
			nsel = k;
			found = true;
			found_level = FSE_ANY;
		}
	}

	if (!found) {
		res->status = FSE_NOT_NOW;
		_reason(res, "waiting for %u free nodes within %u racks", n,
			rq->max_racks);
		return 0;
	}

	/* does it meet the policy? */
	if (found_level > need_level || (need_k && nsel > need_k)) {
		if (!rq->relaxed) {
			res->status = FSE_NOT_NOW;
			res->could_relax = true;
			if (need_level == FSE_RACK)
				_reason(res, "waiting for one rack with %u free nodes (most free in a rack: %d)",
					n, max_rack_free);
			else if (need_level == FSE_POD && need_k)
				_reason(res, "waiting for %u free nodes in %d racks of one pod (now %d racks%s)",
					n, need_k, nsel,
					found_level == FSE_POD ? "" : ", several pods");
			else if (need_level == FSE_POD)
				_reason(res, "waiting for %u free nodes in one pod (most free in a pod: %lld)",
					n, (long long)max_pod_free);
			else
				_reason(res, "waiting for %u free nodes in %d racks (now %d racks)",
					n, need_k, nsel);
			return 0;
		}
		res->relaxed = true;
	}

	/* the nodes: lowest ranks of each chosen rack, then up to want */
	{
		uint32_t cnt = 0;

		for (int s = 0; s < nsel; s++) {
			int r = w->sel[s], got = 0;

			for (int i = t->rack_start[r];
			     i < t->rack_start[r + 1] && got < w->take[s]; i++) {
				int node = t->rack_members[i];

				if (avail[node]) {
					w->nodes[cnt++] = node;
					got++;
				}
			}
		}
		for (int s = 0; s < nsel && cnt < want; s++) {
			int r = w->sel[s], skip = w->take[s];

			for (int i = t->rack_start[r];
			     i < t->rack_start[r + 1] && cnt < want; i++) {
				int node = t->rack_members[i];

				if (!avail[node])
					continue;
				if (skip > 0) {
					skip--;
					continue;
				}
				w->nodes[cnt++] = node;
			}
		}
		qsort_r(w->nodes, cnt, sizeof(int), _cmp_node_rank, (void *)t);
		memcpy(w->racks, w->sel, nsel * sizeof(int));
		qsort_r(w->racks, nsel, sizeof(int), _cmp_rack_rank, (void *)t);
		res->count = cnt;
	}
	res->status = FSE_OK;
	res->level = found_level;
	res->nodes = w->nodes;
	res->racks = w->racks;
	res->nracks = nsel;
	if (found_level == FSE_RACK)
		_reason(res, "%u nodes in one rack%s", res->count,
			res->relaxed ? " (relaxed)" : "");
	else
		_reason(res, "%u nodes in %d racks%s%s", res->count, nsel,
			found_level == FSE_POD ? " of one pod" : "",
			res->relaxed ? " (relaxed)" : "");
	return 0;
}
