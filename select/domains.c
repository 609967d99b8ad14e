/*
 * domains.c - locality domains (node -> rack -> pod -> plane) of the
 * placement engine, from plain arrays or from a fabric model.
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_select.h"
#include "fabsched_topo.h"
#include "fs_err.h"
#include "select_private.h"

void fse_topo_free(struct fse_topo *t)
{
	if (!t)
		return;
	free(t->node_rack);
	free(t->node_rank);
	free(t->rack_start);
	free(t->rack_members);
	free(t->rack_pod);
	free(t->rack_rank);
	free(t->pod_start);
	free(t->pod_racks);
	free(t->pod_capsum);
	free(t->all_capsum);
	free(t->pod_cap);
	free(t->pod_plane);
	free(t);
}

/* qsort_r comparators take the topology as context. */
static int _cmp_node_rank(const void *a, const void *b, void *ctx)
{
	const struct fse_topo *t = ctx;
	int x = *(const int *)a, y = *(const int *)b;

	if (t->node_rank[x] != t->node_rank[y])
		return t->node_rank[x] < t->node_rank[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static int _cmp_rack_rank(const void *a, const void *b, void *ctx)
{
	const struct fse_topo *t = ctx;
	int x = *(const int *)a, y = *(const int *)b;

	if (t->rack_rank[x] != t->rack_rank[y])
		return t->rack_rank[x] < t->rack_rank[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static int _cmp_int64_desc(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y) - (x > y);
}

/* Sort the len sizes at v largest first and turn them into prefix sums. */
static void _capsum(int64_t *v, int len)
{
	qsort(v, len, sizeof(*v), _cmp_int64_desc);
	for (int i = 1; i < len; i++)
		v[i] += v[i - 1];
}

int fse_kmin(const int64_t *capsum, int len, int64_t n)
{
	int lo = 0, hi = len; /* answer index in [lo, hi] */

	if (n <= 0)
		return 0;
	if (!len || capsum[len - 1] < n)
		return INT32_MAX;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (capsum[mid] >= n)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo + 1;
}

/* The spec's ranges: each node's rack, each rack's pod.  *extra: the nodes
 * without a rack (each then forms a rack of its own). */
static int _check_spec(const struct fse_spec *s, int *extra, char *err, size_t errlen)
{
	*extra = 0;
	if (!s || s->nnodes < 0 || s->nracks < 0 || s->npods < 0 || (s->nnodes && !s->node_rack))
		return fs_errf(err, errlen, "fse_topo_new: bad specification");
	for (int i = 0; i < s->nnodes; i++) {
		if (s->node_rack[i] >= s->nracks || s->node_rack[i] < -1)
			return fs_errf(err, errlen, "node %d: rack %d; expected -1..%d", i,
				       s->node_rack[i], s->nracks - 1);
		if (s->node_rack[i] < 0)
			(*extra)++;
	}
	for (int r = 0; s->rack_pod && r < s->nracks; r++)
		if (s->rack_pod[r] >= s->npods || s->rack_pod[r] < -1)
			return fs_errf(err, errlen, "rack %d: pod %d; expected -1..%d", r,
				       s->rack_pod[r], s->npods - 1);
	return 0;
}

/* The arrays of t for its nnodes, nracks and npods (one element at least),
 * and *fill, *nfill counters of scratch.  -1 when out of memory. */
static int _topo_alloc(struct fse_topo *t, int **fill, size_t *nfill)
{
	size_t nn = t->nnodes ? t->nnodes : 1, nr = t->nracks ? t->nracks : 1;
	size_t np = t->npods ? t->npods : 1;

	t->node_rack = calloc(nn, sizeof(int));
	t->node_rank = calloc(nn, sizeof(int));
	t->rack_start = calloc(nr + 1, sizeof(int));
	t->rack_members = calloc(nn, sizeof(int));
	t->rack_pod = calloc(nr, sizeof(int));
	t->rack_rank = calloc(nr, sizeof(int));
	t->pod_start = calloc(np + 1, sizeof(int));
	t->pod_racks = calloc(nr, sizeof(int));
	t->pod_capsum = calloc(nr, sizeof(int64_t));
	t->all_capsum = calloc(nr, sizeof(int64_t));
	t->pod_cap = calloc(np, sizeof(int64_t));
	t->pod_plane = calloc(np, sizeof(int));
	*nfill = nr > np ? nr : np;
	*fill = calloc(*nfill, sizeof(int));
	if (!t->node_rack || !t->node_rank || !t->rack_start || !t->rack_members || !t->rack_pod ||
	    !t->rack_rank || !t->pod_start || !t->pod_racks || !t->pod_capsum || !t->all_capsum ||
	    !t->pod_cap || !t->pod_plane || !*fill)
		return -1;
	return 0;
}

/* nodes: rack (own rack for those without) and rank; the racks' members */
static void _place_nodes(struct fse_topo *t, const struct fse_spec *s, int *fill)
{
	int extra = s->nracks;

	for (int i = 0; i < t->nnodes; i++) {
		t->node_rack[i] = s->node_rack[i] >= 0 ? s->node_rack[i] : extra++;
		t->node_rank[i] = s->node_rank ? s->node_rank[i] : i;
		t->rack_start[t->node_rack[i] + 1]++;
	}
	for (int r = 0; r < t->nracks; r++) {
		t->rack_start[r + 1] += t->rack_start[r];
		t->rack_pod[r] = (r < s->nracks && s->rack_pod) ? s->rack_pod[r] : -1;
		t->rack_rank[r] = 0;
	}
	for (int i = 0; i < t->nnodes; i++) {
		int r = t->node_rack[i];

		t->rack_members[t->rack_start[r] + fill[r]++] = i;
	}
}

/* racks: members in rank order, the rack's rank, sizes */
static void _order_racks(struct fse_topo *t)
{
	for (int r = 0; r < t->nracks; r++) {
		int *m = t->rack_members + t->rack_start[r];
		int len = t->rack_start[r + 1] - t->rack_start[r];

		qsort_r(m, len, sizeof(int), _cmp_node_rank, t);
		t->rack_rank[r] = len ? t->node_rank[m[0]] : INT32_MAX;
		if (len > t->max_rack)
			t->max_rack = len;
		t->all_capsum[r] = len;
	}
	_capsum(t->all_capsum, t->nracks);
}

/* pods: racks in rank order, capacities (fill: nfill counters, scratch) */
static void _fill_pods(struct fse_topo *t, const struct fse_spec *s, int *fill, size_t nfill)
{
	memset(fill, 0, nfill * sizeof(int));
	for (int r = 0; r < t->nracks; r++)
		if (t->rack_pod[r] >= 0)
			t->pod_start[t->rack_pod[r] + 1]++;
	for (int p = 0; p < t->npods; p++) {
		t->pod_start[p + 1] += t->pod_start[p];
		t->pod_plane[p] = s->pod_plane ? s->pod_plane[p] : 0;
	}
	for (int r = 0; r < t->nracks; r++) {
		int p = t->rack_pod[r];

		if (p >= 0)
			t->pod_racks[t->pod_start[p] + fill[p]++] = r;
	}
	for (int p = 0; p < t->npods; p++) {
		int *pr = t->pod_racks + t->pod_start[p];
		int len = t->pod_start[p + 1] - t->pod_start[p];
		int64_t *cs = t->pod_capsum + t->pod_start[p];

		qsort_r(pr, len, sizeof(int), _cmp_rack_rank, t);
		for (int i = 0; i < len; i++)
			cs[i] = t->rack_start[pr[i] + 1] - t->rack_start[pr[i]];
		_capsum(cs, len);
		t->pod_cap[p] = len ? cs[len - 1] : 0;
		if (t->pod_cap[p] > t->max_pod)
			t->max_pod = t->pod_cap[p];
	}
}

int fse_topo_new(const struct fse_spec *s, struct fse_topo **out, char *err, size_t errlen)
{
	struct fse_topo *t;
	int *fill = NULL, extra = 0;
	size_t nfill = 0;

	if (!out)
		return fs_errf(err, errlen, "fse_topo_new: no result pointer");
	*out = NULL;
	if (_check_spec(s, &extra, err, errlen))
		return -1;
	if (!(t = calloc(1, sizeof(*t))))
		return fs_errf(err, errlen, "out of memory");
	t->nnodes = s->nnodes;
	t->nracks = s->nracks + extra;
	t->npods = s->npods;
	if (_topo_alloc(t, &fill, &nfill)) {
		free(fill);
		fse_topo_free(t);
		return fs_errf(err, errlen, "out of memory");
	}
	_place_nodes(t, s, fill);
	_order_racks(t);
	_fill_pods(t, s, fill, nfill);
	free(fill);
	*out = t;
	return 0;
}

int fse_topo_from_model(const struct fst_model *m, const char *const *names, int n,
			struct fse_topo **out, int *unknown, char *err, size_t errlen)
{
	struct fse_spec s = { 0 };
	int *node_rack = NULL, *node_rank = NULL, *rack_pod = NULL;
	int *pod_plane = NULL, nunknown = 0, rc;

	if (out)
		*out = NULL;
	if (!m || !out || n < 0 || (n && !names))
		return fs_errf(err, errlen, "fse_topo_from_model: bad arguments");
	node_rack = calloc(n ? n : 1, sizeof(int));
	node_rank = calloc(n ? n : 1, sizeof(int));
	rack_pod = calloc(m->nracks ? m->nracks : 1, sizeof(int));
	pod_plane = calloc(m->npods ? m->npods : 1, sizeof(int));
	if (!node_rack || !node_rank || !rack_pod || !pod_plane) {
		rc = fs_errf(err, errlen, "out of memory");
		goto done;
	}
	for (int i = 0; i < n; i++) {
		int h = names[i] ? fst_find_host(m, names[i]) : -1;

		if (h < 0 || m->hosts[h].rack < 0 || m->hosts[h].rack >= m->nracks) {
			node_rack[i] = -1;
			node_rank[i] = m->nhosts + i;
			if (h < 0)
				nunknown++;
			continue;
		}
		node_rack[i] = m->hosts[h].rack;
		node_rank[i] = m->hosts[h].rank;
	}
	for (int r = 0; r < m->nracks; r++) {
		int p = m->racks[r].parent;

		rack_pod[r] = (p >= 0 && p < m->npods) ? p : -1;
	}
	for (int p = 0; p < m->npods; p++)
		pod_plane[p] = m->pods[p].parent >= 0 ? m->pods[p].parent : 0;
	s.nnodes = n;
	s.node_rack = node_rack;
	s.node_rank = node_rank;
	s.nracks = m->nracks;
	s.rack_pod = rack_pod;
	s.npods = m->npods;
	s.pod_plane = pod_plane;
	rc = fse_topo_new(&s, out, err, errlen);
	if (unknown)
		*unknown = nunknown;
done:
	free(node_rack);
	free(node_rank);
	free(rack_pod);
	free(pod_plane);
	return rc;
}

int fse_topo_nnodes(const struct fse_topo *t)
{
	return t ? t->nnodes : 0;
}

int fse_topo_nracks(const struct fse_topo *t)
{
	return t ? t->nracks : 0;
}

int fse_topo_rack_of(const struct fse_topo *t, int node)
{
	if (!t || node < 0 || node >= t->nnodes)
		return -1;
	return t->node_rack[node];
}

int fse_topo_pod_of(const struct fse_topo *t, int rack)
{
	if (!t || rack < 0 || rack >= t->nracks)
		return -1;
	return t->rack_pod[rack];
}

int fse_topo_max_rack(const struct fse_topo *t)
{
	return t ? t->max_rack : 0;
}

const char *fse_level_name(enum fse_level level)
{
	switch (level) {
	case FSE_RACK:
		return "rack";
	case FSE_POD:
		return "pod";
	case FSE_ANY:
		return "any";
	}
	return "?";
}

const char *fse_status_name(enum fse_status st)
{
	switch (st) {
	case FSE_OK:
		return "ok";
	case FSE_NOT_NOW:
		return "not now";
	case FSE_NEVER:
		return "never";
	}
	return "?";
}
