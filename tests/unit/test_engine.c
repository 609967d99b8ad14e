/*
 * test_engine.c - unit tests of the placement engine (select/): job
 * sizes from 1 to a rack plus one, best fit, fragmentation, ties,
 * multi-rail nodes (from a parsed fabric), drained and down nodes,
 * heterogeneous racks, pods, MaxRacks, relaxed placement, skipped racks,
 * the locality target (share record and the wait decision it drives),
 * jobs sized by tasks (sbatch -n, -c, --mem-per-cpu, gres per task).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabsched_select.h"
#include "fabsched_topo.h"

#define MAXN 64

/* A fabric of racks of the given sizes; rack r is in pod rack_pod[r]
 * (NULL: all in pod 0).  Nodes are numbered rack by rack. */
struct fab {
	struct fse_topo *t;
	struct fse_work *w;
	int nnodes;
	uint8_t avail[MAXN];
	struct fse_result res;
};

static void _fab(struct fab *f, int nracks, const int *sizes, const int *rack_pod, int npods,
		 const int *rank)
{
	int node_rack[MAXN], pods[MAXN], n = 0;
	char err[256] = "";
	struct fse_spec s = { 0 };

	memset(f, 0, sizeof(*f));
	for (int r = 0; r < nracks; r++) {
		for (int i = 0; i < sizes[r]; i++)
			node_rack[n++] = r;
		pods[r] = rack_pod ? rack_pod[r] : 0;
	}
	s.nnodes = n;
	s.node_rack = node_rack;
	s.node_rank = rank;
	s.nracks = nracks;
	s.rack_pod = pods;
	s.npods = rack_pod ? npods : 1;
	assert_int_equal(fse_topo_new(&s, &f->t, err, sizeof(err)), 0);
	assert_non_null(f->w = fse_work_new(f->t));
	f->nnodes = n;
	memset(f->avail, 1, n);
}

static void _free(struct fab *f)
{
	fse_work_free(f->w);
	fse_topo_free(f->t);
}

static int _place(struct fab *f, uint32_t n, enum fse_level level, uint32_t max_racks, bool relaxed)
{
	struct fse_request rq = {
		.min_nodes = n, .level = level, .max_racks = max_racks, .relaxed = relaxed
	};

	assert_int_equal(fse_place(f->t, f->w, &rq, f->avail, &f->res), 0);
	return f->res.status;
}

/* "0,1,2" of the chosen nodes */
static const char *_nodes(const struct fab *f)
{
	static char buf[512];
	size_t o = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < f->res.count && o < sizeof(buf) - 8; i++)
		o += snprintf(buf + o, sizeof(buf) - o, "%s%d", i ? "," : "", f->res.nodes[i]);
	return buf;
}

static const char *_racks(const struct fab *f)
{
	static char buf[256];
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < f->res.nracks && o < sizeof(buf) - 8; i++)
		o += snprintf(buf + o, sizeof(buf) - o, "%s%d", i ? "," : "", f->res.racks[i]);
	return buf;
}

static void _busy(struct fab *f, const char *nodes)
{
	char *copy = strdup(nodes), *save = NULL;

	for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
		f->avail[atoi(p)] = 0;
	free(copy);
}

static const int four[] = { 4, 4, 4, 4 };

/* ------------------------------------------------------------ sizes */

/* Every size from 1 to a rack plus one on an empty 4x4 fabric, for every
 * policy: up to 4 nodes one rack (the lowest-ranked), 5 nodes two racks. */
static void test_every_size(void **state)
{
	struct fab f;

	_fab(&f, 4, four, NULL, 0, NULL);
	for (int lvl = FSE_RACK; lvl <= FSE_ANY; lvl++) {
		for (uint32_t n = 1; n <= 4; n++) {
			assert_int_equal(_place(&f, n, lvl, 0, false), FSE_OK);
			assert_int_equal(f.res.count, n);
			assert_int_equal(f.res.level, FSE_RACK);
			assert_int_equal(f.res.nracks, 1);
			assert_string_equal(_racks(&f), "0");
			assert_false(f.res.relaxed);
			for (uint32_t i = 0; i < n; i++)
				assert_int_equal(f.res.nodes[i], (int)i);
		}
		assert_int_equal(_place(&f, 5, lvl, 0, false), FSE_OK);
		assert_int_equal(f.res.count, 5);
		assert_int_equal(f.res.level, FSE_POD);
		assert_int_equal(f.res.nracks, 2);
		assert_string_equal(_nodes(&f), "0,1,2,3,4");
		assert_false(f.res.relaxed);
	}
	/* 16 is all, 17 never */
	assert_int_equal(_place(&f, 16, FSE_RACK, 0, false), FSE_OK);
	assert_int_equal(f.res.nracks, 4);
	assert_int_equal(_place(&f, 17, FSE_ANY, 0, false), FSE_NEVER);
	assert_int_equal(f.res.count, 0);
	_free(&f);
}

/* Same with one busy node per rack except the last: sizes 1..3 take the
 * best fit (a rack with 3 free), 4 takes the only full rack. */
static void test_every_size_busy(void **state)
{
	struct fab f;

	_fab(&f, 4, four, NULL, 0, NULL);
	_busy(&f, "0,4,8");
	for (uint32_t n = 1; n <= 3; n++) {
		assert_int_equal(_place(&f, n, FSE_RACK, 0, false), FSE_OK);
		assert_string_equal(_racks(&f), "0");
		assert_int_equal(f.res.nodes[0], 1);
	}
	assert_int_equal(_place(&f, 4, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "3");
	assert_string_equal(_nodes(&f), "12,13,14,15");
	/* 5: 4 of rack 3 plus 1 from the best-fitting other rack */
	assert_int_equal(_place(&f, 5, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "0,3");
	assert_string_equal(_nodes(&f), "1,12,13,14,15");
	_free(&f);
}

/* ------------------------------------------------------------ best fit */

static void test_best_fit(void **state)
{
	struct fab f;

	_fab(&f, 4, four, NULL, 0, NULL);
	/* free: rack0 4, rack1 2, rack2 3, rack3 1 */
	_busy(&f, "4,5,8,12,13,14");
	assert_int_equal(_place(&f, 1, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_nodes(&f), "15");
	assert_int_equal(_place(&f, 2, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_nodes(&f), "6,7");
	assert_int_equal(_place(&f, 3, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_nodes(&f), "9,10,11");
	assert_int_equal(_place(&f, 4, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_nodes(&f), "0,1,2,3");
	/* 6: rack0 (4) + the smallest rack holding 2 (rack1) */
	assert_int_equal(_place(&f, 6, FSE_ANY, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "0,1");
	/* 9: 4 + 3 + 2 */
	assert_int_equal(_place(&f, 9, FSE_ANY, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "0,1,2");
	assert_int_equal(f.res.count, 9);
	_free(&f);
}

/* ------------------------------------------------------------ fragmentation */

static void test_fragmentation(void **state)
{
	struct fab f;

	_fab(&f, 4, four, NULL, 0, NULL);
	_busy(&f, "0,4,8,12"); /* 12 free, 3 per rack */
	/* rack: wait, not a partial start */
	assert_int_equal(_place(&f, 4, FSE_RACK, 0, false), FSE_NOT_NOW);
	assert_true(f.res.could_relax);
	assert_int_equal(f.res.count, 0);
	assert_string_equal(f.res.reason,
			    "waiting for one rack with 4 free nodes (most free in a rack: 3)");
	/* pod allows two racks of the pod */
	assert_int_equal(_place(&f, 4, FSE_POD, 0, false), FSE_OK);
	assert_int_equal(f.res.nracks, 2);
	assert_false(f.res.relaxed);
	/* relaxed rack: the tightest there is, marked */
	assert_int_equal(_place(&f, 4, FSE_RACK, 0, true), FSE_OK);
	assert_int_equal(f.res.nracks, 2);
	assert_true(f.res.relaxed);
	assert_string_equal(_nodes(&f), "1,2,3,5");
	/* 5 nodes fit 2 racks by size; free they need 2 as well */
	assert_int_equal(_place(&f, 5, FSE_RACK, 0, false), FSE_OK);
	assert_int_equal(f.res.nracks, 2);
	/* 7 nodes: 2 racks by size, 3 now: wait under rack, run under any */
	assert_int_equal(_place(&f, 7, FSE_RACK, 0, false), FSE_NOT_NOW);
	assert_string_equal(f.res.reason,
			    "waiting for 7 free nodes in 2 racks of one pod (now 3 racks)");
	assert_int_equal(_place(&f, 7, FSE_ANY, 0, false), FSE_OK);
	assert_int_equal(f.res.nracks, 3);
	/* not enough free nodes at all */
	assert_int_equal(_place(&f, 13, FSE_ANY, 0, false), FSE_NOT_NOW);
	assert_false(f.res.could_relax);
	assert_string_equal(f.res.reason, "waiting for 13 free nodes (12 free)");
	_free(&f);
}

/* A request with a wait ratio on @f: free_at[] by node, now 1000, the
 * job's time limit @limit. */
static int _place_ratio(struct fab *f, uint32_t n, const int64_t *free_at, int64_t limit,
			uint32_t ratio, const uint32_t *idle)
{
	struct fse_request rq = { .min_nodes = n,
				  .level = FSE_RACK,
				  .wait_ratio = ratio,
				  .free_at = free_at,
				  .now = 1000,
				  .time_limit = limit,
				  .tasks_idle = idle };

	assert_int_equal(fse_place(f->t, f->w, &rq, f->avail, &f->res), 0);
	return f->res.status;
}

/* The racks expected to hold a job, soonest first (a will-run plan's
 * offers): a node in avail is free now, another candidate at its free
 * time; non-candidates, nodes the job cannot use and skipped racks do not
 * count; ties by rank; at most max. */
static void test_expected(void **state)
{
	struct fab f;
	int64_t fa[16] = { 0 };
	uint32_t idle[16];
	uint8_t cand[16], skip[4] = { 0 };
	int racks[4];
	int64_t at[4];
	struct fse_request rq = { .min_nodes = 3, .level = FSE_RACK, .now = 1000 };

	(void)state;
	_fab(&f, 4, four, NULL, 0, NULL);
	for (int i = 0; i < 16; i++) {
		idle[i] = 1;
		cand[i] = 1;
		fa[i] = 1000;
	}
	/* rack 0: 2 free, then 1300, 1400; rack 1: 1 free, then 1200 x3;
	 * rack 2: 3 free, rack 3: 3 free (a tie with rack 2, by rank) */
	_busy(&f, "2,3,5,6,7,11,15");
	fa[2] = 1300, fa[3] = 1400;
	fa[5] = fa[6] = fa[7] = 1200;
	fa[11] = fa[15] = INT64_MAX;
	assert_int_equal(fse_place_expected(f.t, f.w, &rq, f.avail, NULL, racks, at, 4), -1);
	rq.free_at = fa;
	assert_int_equal(fse_place_expected(f.t, f.w, &rq, f.avail, NULL, racks, at, 4), 4);
	assert_int_equal(racks[0], 2);
	assert_int_equal(at[0], 1000);
	assert_int_equal(racks[1], 3);
	assert_int_equal(at[1], 1000);
	assert_int_equal(racks[2], 1);
	assert_int_equal(at[2], 1200);
	assert_int_equal(racks[3], 0);
	assert_int_equal(at[3], 1300);
	/* at most 2 */
	assert_int_equal(fse_place_expected(f.t, f.w, &rq, f.avail, NULL, racks, at, 2), 2);
	/* node 8 not a candidate, node 12 unusable on the idle machine,
	 * rack 1 skipped: rack 2 is short of a node (11 never frees), rack 3
	 * too (15 never frees), rack 0 remains */
	cand[8] = 0;
	idle[12] = 0;
	skip[1] = 1;
	rq.tasks_idle = idle;
	rq.skip_racks = skip;
	assert_int_equal(fse_place_expected(f.t, f.w, &rq, f.avail, cand, racks, at, 4), 1);
	assert_int_equal(racks[0], 0);
	assert_int_equal(at[0], 1300);
	/* free times already past count as now */
	fa[2] = 500;
	assert_int_equal(fse_place_expected(f.t, f.w, &rq, f.avail, cand, racks, at, 4), 1);
	assert_int_equal(at[0], 1000);
	_free(&f);
}

/* A job wider than a rack: the racks expected to hold it soonest,
 * together (the fewest the policy asks, of one pod where it asks one), and
 * when; a job that fits a rack: the one rack expected soonest. */
static void test_expected_span(void **state)
{
	static const int pods[] = { 0, 0, 1, 1 };
	struct fab f;
	int64_t fa[16];
	uint8_t cand[16], skip[4] = { 0 };
	const int *racks = NULL;
	int64_t at = 0;
	uint32_t tn[16];
	struct fse_fit fit;
	struct fse_request rq = { .min_nodes = 6, .level = FSE_RACK, .now = 1000 };

	(void)state;
	_fab(&f, 4, four, NULL, 0, NULL);
	for (int i = 0; i < 16; i++) {
		cand[i] = 1;
		fa[i] = 1000;
	}
	/* free now: 2 in rack 0, 1 in rack 1; rack 0's others at 1500,
	 * rack 1's at 1200, rack 2 whole at 1100, rack 3's never or late */
	_busy(&f, "0,1,4,5,6,8,9,10,11,12,13,14,15");
	fa[0] = fa[1] = 1500;
	fa[4] = fa[5] = fa[6] = 1200;
	fa[8] = fa[9] = fa[10] = fa[11] = 1100;
	fa[12] = fa[13] = 2000;
	fa[14] = fa[15] = INT64_MAX;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, NULL, &racks, &at), -1);
	rq.free_at = fa;
	/* at 1100: rack 2's 4 and rack 0's 2 (rack 1's 1 does not complete
	 * it: best fit) */
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, NULL, &racks, &at), 2);
	assert_int_equal(racks[0], 0);
	assert_int_equal(racks[1], 2);
	assert_int_equal(at, 1100);
	/* rack 2 skipped: racks 0 and 1 at 1200 */
	rq.skip_racks = skip;
	skip[2] = 1;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, NULL, &racks, &at), 2);
	assert_int_equal(racks[0], 0);
	assert_int_equal(racks[1], 1);
	assert_int_equal(at, 1200);
	/* node 4 not a candidate: 5 in racks 0 and 1 at 1200, 7 at 1500 */
	cand[4] = 0;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, cand, &racks, &at), 2);
	assert_int_equal(at, 1500);
	/* 9 nodes: 3 racks at least; rack 3's two at 2000 make 9 */
	rq.min_nodes = 9;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, cand, &racks, &at), 3);
	assert_int_equal(at, 2000);
	/* 10: the policy's 3 racks never hold it (rack 2 skipped) */
	rq.min_nodes = 10;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, cand, &racks, &at), 0);
	/* more than the fabric: never */
	rq.min_nodes = 17;
	rq.skip_racks = NULL;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, NULL, &racks, &at), 0);
	/* a job that fits a rack: the one expected soonest, as
	 * fse_place_expected has it */
	rq.min_nodes = 3;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, NULL, &racks, &at), 1);
	assert_int_equal(racks[0], 2);
	assert_int_equal(at, 1100);
	/* past free times count as now */
	fa[8] = fa[9] = fa[10] = fa[11] = 900;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, NULL, &racks, &at), 1);
	assert_int_equal(at, 1000);
	_free(&f);

	/* two pods of two racks: 6 nodes in one pod; rack 2 (pod 1) at 1100
	 * has no partner in its pod before 2000, pod 0 holds 6 at 1200 */
	_fab(&f, 4, four, pods, 2, NULL);
	_busy(&f, "0,1,4,5,6,8,9,10,11,12,13,14,15");
	fa[8] = fa[9] = fa[10] = fa[11] = 1100;
	rq.min_nodes = 6;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, NULL, &racks, &at), 2);
	assert_int_equal(racks[0], 0);
	assert_int_equal(racks[1], 1);
	assert_int_equal(at, 1200);
	/* the caller's fit (fse_request_fit) gives the same answer; a fit
	 * saying "never" is taken as given */
	assert_int_equal(fse_request_fit(f.t, f.w, &rq, &fit), 0);
	assert_int_equal(fit.need_level, FSE_POD);
	assert_int_equal(fit.need_k, 2);
	assert_false(fit.fits_domain);
	rq.fit = &fit;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, NULL, &racks, &at), 2);
	assert_int_equal(racks[0], 0);
	assert_int_equal(racks[1], 1);
	assert_int_equal(at, 1200);
	fit.kcap = INT32_MAX;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, NULL, &racks, &at), 0);
	rq.fit = NULL;
	assert_int_equal(fse_request_fit(f.t, f.w, &rq, NULL), -1);
	rq.min_nodes = 0;
	assert_int_equal(fse_request_fit(f.t, f.w, &rq, &fit), -1);
	_free(&f);

	/* a job sized by tasks: a rack's tasks are those of the max_nodes
	 * nodes holding most (each rack: one node of 8 tasks, three of 1; 2
	 * nodes hold 9 there, all four 11), so 10 tasks on at most 2 nodes
	 * take two racks, not one */
	_fab(&f, 4, four, NULL, 0, NULL);
	for (int i = 0; i < 16; i++) {
		tn[i] = i % 4 ? 1 : 8;
		fa[i] = 1000;
	}
	rq = (struct fse_request){ .min_nodes = 1,
				   .max_nodes = 2,
				   .ntasks = 10,
				   .level = FSE_RACK,
				   .tasks_now = tn,
				   .tasks_idle = tn,
				   .free_at = fa,
				   .now = 1000 };
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, NULL, &racks, &at), 2);
	assert_int_equal(racks[0], 0);
	assert_int_equal(racks[1], 1);
	assert_int_equal(at, 1000);
	/* on 4 nodes one rack holds 11 */
	rq.max_nodes = 4;
	assert_int_equal(fse_place_expected_span(f.t, f.w, &rq, f.avail, NULL, &racks, &at), 1);
	_free(&f);
}

/* With a wait ratio a job waits for one rack only when the running jobs'
 * ends free one within ratio x its time limit: else it takes the tightest
 * placement now, marked; one that needs several racks never waits. */
static void test_wait_ratio(void **state)
{
	struct fab f;
	int64_t fa[16] = { 0 };
	uint32_t idle[16];

	(void)state;
	_fab(&f, 4, four, NULL, 0, NULL);
	_busy(&f, "0,4,8,12"); /* 3 free per rack */
	for (int i = 0; i < 16; i++)
		idle[i] = 1;
	fa[0] = 1000 + 5000; /* rack 0 whole at 6000 */
	fa[4] = 1000 + 900;  /* rack 1 whole at 1900 */
	fa[8] = fa[12] = INT64_MAX;
	/* 900 s away, limit 600, ratio 2 (1200 s): wait */
	assert_int_equal(_place_ratio(&f, 4, fa, 600, 2, NULL), FSE_NOT_NOW);
	assert_true(f.res.could_relax);
	assert_false(f.res.expected_far);
	/* ratio 1 (600 s): no rack soon enough, placed now over 2 racks */
	assert_int_equal(_place_ratio(&f, 4, fa, 600, 1, NULL), FSE_OK);
	assert_true(f.res.relaxed);
	assert_true(f.res.expected_far);
	assert_int_equal(f.res.expected, 1900);
	assert_int_equal(f.res.nracks, 2);
	assert_string_equal(f.res.reason,
			    "4 nodes in 2 racks of one pod (relaxed: a rack expected in 900 s, "
			    "over 1 x its "
			    "time limit)");
	/* no ratio, or no free times: waits as before */
	assert_int_equal(_place_ratio(&f, 4, fa, 600, 0, NULL), FSE_NOT_NOW);
	assert_int_equal(_place_ratio(&f, 4, NULL, 600, 1, NULL), FSE_NOT_NOW);
	/* n004 cannot hold the job (tasks_idle 0): rack 1 never whole, the
	 * next is rack 0 at 6000, 5000 s away: over 2 x 600 */
	idle[5] = 0;
	assert_int_equal(_place_ratio(&f, 4, fa, 600, 2, idle), FSE_OK);
	assert_true(f.res.expected_far);
	assert_int_equal(f.res.expected, 6000);
	/* ... within 5 x 1200 */
	assert_int_equal(_place_ratio(&f, 4, fa, 1200, 5, idle), FSE_NOT_NOW);
	idle[5] = 1;
	/* no rack expected at all: relaxed even without a time limit */
	fa[0] = fa[4] = INT64_MAX;
	assert_int_equal(_place_ratio(&f, 4, fa, INT64_MAX, 2, NULL), FSE_OK);
	assert_true(f.res.expected_far);
	assert_int_equal(f.res.expected, INT64_MAX);
	assert_string_equal(f.res.reason,
			    "4 nodes in 2 racks of one pod (relaxed: no rack expected to hold it)");
	/* a rack expected at all, no time limit: waits */
	fa[4] = 999999;
	assert_int_equal(_place_ratio(&f, 4, fa, INT64_MAX, 2, NULL), FSE_NOT_NOW);
	/* one rack free now: placed there, nothing relaxed */
	f.avail[4] = 1;
	assert_int_equal(_place_ratio(&f, 4, fa, 600, 1, NULL), FSE_OK);
	assert_false(f.res.relaxed);
	assert_int_equal(f.res.nracks, 1);
	_free(&f);
	/* 6 nodes need 2 racks of 4: they never wait for locality with a
	 * ratio, even with racks expected free at once */
	_fab(&f, 4, four, NULL, 0, NULL);
	_busy(&f, "0,1,4,5,8,9,12"); /* free 2, 2, 2, 3 */
	memset(fa, 0, sizeof(fa));
	assert_int_equal(_place_ratio(&f, 6, fa, 600, 1000, NULL), FSE_OK);
	assert_true(f.res.expected_far);
	assert_int_equal(f.res.nracks, 3);
	assert_string_equal(f.res.reason,
			    "6 nodes in 3 racks of one pod (relaxed: no rack expected to hold it, "
			    "it needs several)");
	/* without a ratio it waits for 2 racks */
	assert_int_equal(_place_ratio(&f, 6, fa, 600, 0, NULL), FSE_NOT_NOW);
	_free(&f);
}

/* The racks' free nodes kept by the caller (rack_free) give the very
 * decisions counted here: every size and level on busy patterns of a
 * fabric of 2 pods; and a rack the counts say is full is not used. */
static void test_rack_free(void **state)
{
	static const int sizes[] = { 4, 3, 4, 2, 4, 4 }, pods[] = { 0, 0, 0, 1, 1, 1 };
	struct fab f;
	int kept[6];
	unsigned seed = 7;

	(void)state;
	_fab(&f, 6, sizes, pods, 2, NULL);
	for (int round = 0; round < 200; round++) {
		for (int i = 0; i < f.nnodes; i++)
			f.avail[i] = (seed = seed * 1103515245 + 12345) >> 16 & 1;
		fse_rack_tally(f.t, f.avail, kept);
		for (uint32_t n = 1; n <= (uint32_t)f.nnodes + 1; n++)
			for (int level = FSE_RACK; level <= FSE_ANY; level++) {
				struct fse_request rq = { .min_nodes = n,
							  .level = (enum fse_level)level,
							  .relaxed = round & 1 };
				struct fse_result a, b;
				int na[MAXN];

				assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &a), 0);
				memcpy(na, a.nodes ? a.nodes : na, a.count * sizeof(int));
				rq.rack_free = kept;
				assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &b), 0);
				assert_int_equal(a.status, b.status);
				assert_int_equal(a.count, b.count);
				assert_memory_equal(na, b.nodes ? b.nodes : na,
						    a.count * sizeof(int));
				assert_string_equal(a.reason, b.reason);
			}
	}
	/* rack 0 free, but counted full: the job goes to rack 2 */
	memset(f.avail, 1, f.nnodes);
	fse_rack_tally(f.t, f.avail, kept);
	kept[0] = 0;
	{
		struct fse_request rq = { .min_nodes = 4, .level = FSE_RACK, .rack_free = kept };

		assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
		assert_int_equal(f.res.status, FSE_OK);
		assert_string_equal(_racks(&f), "2");
	}
	_free(&f);
}

/* ------------------------------------------------------------ ties */

static void test_ties(void **state)
{
	struct fab f;
	int rank[16];

	_fab(&f, 4, four, NULL, 0, NULL);
	_busy(&f, "0,1,4,5"); /* racks 0 and 1 both have 2 free */
	assert_int_equal(_place(&f, 2, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_nodes(&f), "2,3");
	/* same decision every time */
	for (int i = 0; i < 5; i++) {
		assert_int_equal(_place(&f, 2, FSE_RACK, 0, false), FSE_OK);
		assert_string_equal(_nodes(&f), "2,3");
	}
	_free(&f);

	/* reversed ranks: the highest-numbered nodes rank first */
	for (int i = 0; i < 16; i++)
		rank[i] = 15 - i;
	_fab(&f, 4, four, NULL, 0, rank);
	assert_int_equal(_place(&f, 3, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "3");
	assert_string_equal(_nodes(&f), "15,14,13"); /* rank order */
	_busy(&f, "0,1,4,5");
	assert_int_equal(_place(&f, 2, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_nodes(&f), "7,6");
	_free(&f);
}

/* ------------------------------------------------------------ drained/down */

static void test_unavailable(void **state)
{
	struct fab f;

	_fab(&f, 4, four, NULL, 0, NULL);
	/* a drained node in rack 0, a down one in rack 1: a 4-node job goes to
	 * rack 2, a 3-node job to the best fit among 0 and 1 (rank: 0) */
	_busy(&f, "2,7");
	assert_int_equal(_place(&f, 4, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_nodes(&f), "8,9,10,11");
	assert_int_equal(_place(&f, 3, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_nodes(&f), "0,1,3");
	/* every node of every rack down but one: nothing for 2 nodes */
	memset(f.avail, 0, 16);
	f.avail[5] = 1;
	assert_int_equal(_place(&f, 2, FSE_ANY, 0, false), FSE_NOT_NOW);
	assert_int_equal(_place(&f, 1, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_nodes(&f), "5");
	_free(&f);
}

/* ------------------------------------------------------------ heterogeneous */

static void test_heterogeneous(void **state)
{
	static const int sizes[] = { 8, 4, 2 };
	struct fab f;

	_fab(&f, 3, sizes, NULL, 0, NULL);
	/* nodes 0-7 rack0, 8-11 rack1, 12-13 rack2 */
	assert_int_equal(_place(&f, 2, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "2");
	assert_int_equal(_place(&f, 3, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "1");
	assert_int_equal(_place(&f, 5, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "0");
	assert_int_equal(_place(&f, 8, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "0");
	/* 9: the big rack and the smallest covering one */
	assert_int_equal(_place(&f, 9, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "0,2");
	assert_string_equal(_nodes(&f), "0,1,2,3,4,5,6,7,12");
	/* big rack busy: 5 nodes cannot have one rack; rack policy waits */
	_busy(&f, "0");
	assert_int_equal(_place(&f, 8, FSE_RACK, 0, false), FSE_NOT_NOW);
	assert_int_equal(_place(&f, 5, FSE_RACK, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "0");
	_free(&f);
}

/* ------------------------------------------------------------ pods */

static void test_pods(void **state)
{
	static const int pods[] = { 0, 0, 1, 1 };
	struct fab f;

	_fab(&f, 4, four, pods, 2, NULL);
	/* 6 nodes: two racks of one pod */
	assert_int_equal(_place(&f, 6, FSE_RACK, 0, false), FSE_OK);
	assert_int_equal(f.res.level, FSE_POD);
	assert_string_equal(_racks(&f), "0,1");
	/* pod 0 has 3+3 free, pod 1 4+4: both hold 6 nodes in 2 racks; best
	 * fit takes pod 0 exactly and leaves pod 1 whole */
	_busy(&f, "0,4");
	assert_int_equal(_place(&f, 6, FSE_POD, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "0,1");
	/* 5 nodes: both pods can do it in 2 racks, pod 0 has fewer free */
	assert_int_equal(_place(&f, 5, FSE_POD, 0, false), FSE_OK);
	assert_string_equal(_racks(&f), "0,1");
	/* pod 1 as busy: 7 nodes need 3 racks over 2 pods */
	_busy(&f, "8,12");
	assert_int_equal(_place(&f, 7, FSE_POD, 0, false), FSE_NOT_NOW);
	assert_true(f.res.could_relax);
	assert_int_equal(_place(&f, 7, FSE_ANY, 0, false), FSE_OK);
	assert_int_equal(f.res.level, FSE_ANY);
	assert_int_equal(f.res.nracks, 3);
	/* larger than any pod: pod policy accepts the fewest racks */
	memset(f.avail, 1, 16);
	assert_int_equal(_place(&f, 9, FSE_POD, 0, false), FSE_OK);
	assert_int_equal(f.res.nracks, 3);
	assert_false(f.res.relaxed);
	_free(&f);
}

/* ------------------------------------------------------------ MaxRacks */

static void test_max_racks(void **state)
{
	struct fab f;

	_fab(&f, 4, four, NULL, 0, NULL);
	assert_int_equal(_place(&f, 5, FSE_ANY, 1, false), FSE_NEVER);
	assert_string_equal(f.res.reason, "5 nodes need at least 2 racks, at most 1 allowed");
	assert_int_equal(_place(&f, 5, FSE_ANY, 2, false), FSE_OK);
	_busy(&f, "0,4,8,12");
	/* 7 nodes need 3 racks now: wait, even relaxed */
	assert_int_equal(_place(&f, 7, FSE_ANY, 2, true), FSE_NOT_NOW);
	assert_int_equal(_place(&f, 7, FSE_ANY, 3, true), FSE_OK);
	_free(&f);
}

/* ------------------------------------------------------------ node counts */

static void test_min_max(void **state)
{
	struct fab f;
	struct fse_request rq = {
		.min_nodes = 2, .max_nodes = 4, .want_nodes = 4, .level = FSE_RACK
	};

	_fab(&f, 4, four, NULL, 0, NULL);
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
	assert_int_equal(f.res.status, FSE_OK);
	assert_string_equal(_nodes(&f), "0,1,2,3");
	/* best fit by the minimum: rack 1 has 2 free, the job gets those 2 */
	_busy(&f, "4,5");
	_busy(&f, "12");
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
	assert_string_equal(_nodes(&f), "6,7");
	/* bad requests */
	rq.max_nodes = 1;
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), -1);
	rq.min_nodes = 0;
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), -1);
	_free(&f);
}

static void test_skip_racks(void **state)
{
	struct fab f;
	uint8_t skip[4] = { 1, 0, 0, 0 };
	struct fse_request rq = { .min_nodes = 3, .level = FSE_RACK, .skip_racks = skip };

	_fab(&f, 4, four, NULL, 0, NULL);
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
	assert_string_equal(_racks(&f), "1");
	memset(skip, 1, 4);
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
	assert_int_equal(f.res.status, FSE_NOT_NOW);
	_free(&f);
}

/* Nodes without a rack are racks of their own. */
static void test_rackless(void **state)
{
	int node_rack[] = { 0, 0, -1, -1 };
	struct fse_spec s = { .nnodes = 4, .node_rack = node_rack, .nracks = 1 };
	struct fse_topo *t;
	struct fse_work *w;
	struct fse_result res;
	uint8_t avail[4] = { 1, 1, 1, 1 };
	struct fse_request rq = { .min_nodes = 2, .level = FSE_RACK };

	assert_int_equal(fse_topo_new(&s, &t, NULL, 0), 0);
	assert_int_equal(fse_topo_nracks(t), 3);
	assert_int_equal(fse_topo_rack_of(t, 3), 2);
	w = fse_work_new(t);
	assert_int_equal(fse_place(t, w, &rq, avail, &res), 0);
	assert_int_equal(res.nodes[0], 0);
	assert_int_equal(res.nodes[1], 1);
	avail[0] = 0;
	assert_int_equal(fse_place(t, w, &rq, avail, &res), 0);
	assert_int_equal(res.status, FSE_NOT_NOW);
	rq.level = FSE_ANY;
	assert_int_equal(fse_place(t, w, &rq, avail, &res), 0);
	assert_int_equal(res.status, FSE_OK);
	assert_int_equal(res.nracks, 2);
	fse_work_free(w);
	fse_topo_free(t);

	/* bad input */
	node_rack[0] = 5;
	assert_int_equal(fse_topo_new(&s, &t, NULL, 0), -1);
}

/* ------------------------------------------------------------ multi-rail */

/* Two rails (planes), two leaves per rail, two hosts per leaf: each host
 * has one HCA on each rail.  A host is one node in one rack. */
static const char multirail_net[] =
	"Hca\t1 \"H-n001-mlx5_0\"\t# \"n001 mlx5_0\"\n[1]\t\"S-leaf01-r0\"[1]\n\n"
	"Hca\t1 \"H-n001-mlx5_1\"\t# \"n001 mlx5_1\"\n[1]\t\"S-leaf01-r1\"[1]\n\n"
	"Hca\t1 \"H-n002-mlx5_0\"\t# \"n002 mlx5_0\"\n[1]\t\"S-leaf01-r0\"[2]\n\n"
	"Hca\t1 \"H-n002-mlx5_1\"\t# \"n002 mlx5_1\"\n[1]\t\"S-leaf01-r1\"[2]\n\n"
	"Hca\t1 \"H-n003-mlx5_0\"\t# \"n003 mlx5_0\"\n[1]\t\"S-leaf02-r0\"[1]\n\n"
	"Hca\t1 \"H-n003-mlx5_1\"\t# \"n003 mlx5_1\"\n[1]\t\"S-leaf02-r1\"[1]\n\n"
	"Hca\t1 \"H-n004-mlx5_0\"\t# \"n004 mlx5_0\"\n[1]\t\"S-leaf02-r0\"[2]\n\n"
	"Hca\t1 \"H-n004-mlx5_1\"\t# \"n004 mlx5_1\"\n[1]\t\"S-leaf02-r1\"[2]\n\n"
	"Switch\t36 \"S-leaf01-r0\"\t# \"leaf01-r0\" enhanced port 0 lid 1 lmc 0\n"
	"[1]\t\"H-n001-mlx5_0\"[1]\n[2]\t\"H-n002-mlx5_0\"[1]\n[3]\t\"S-spine01-r0\"[1]\n\n"
	"Switch\t36 \"S-leaf02-r0\"\t# \"leaf02-r0\" enhanced port 0 lid 2 lmc 0\n"
	"[1]\t\"H-n003-mlx5_0\"[1]\n[2]\t\"H-n004-mlx5_0\"[1]\n[3]\t\"S-spine01-r0\"[2]\n\n"
	"Switch\t36 \"S-spine01-r0\"\t# \"spine01-r0\" enhanced port 0 lid 3 lmc 0\n"
	"[1]\t\"S-leaf01-r0\"[3]\n[2]\t\"S-leaf02-r0\"[3]\n\n"
	"Switch\t36 \"S-leaf01-r1\"\t# \"leaf01-r1\" enhanced port 0 lid 4 lmc 0\n"
	"[1]\t\"H-n001-mlx5_1\"[1]\n[2]\t\"H-n002-mlx5_1\"[1]\n[3]\t\"S-spine01-r1\"[1]\n\n"
	"Switch\t36 \"S-leaf02-r1\"\t# \"leaf02-r1\" enhanced port 0 lid 5 lmc 0\n"
	"[1]\t\"H-n003-mlx5_1\"[1]\n[2]\t\"H-n004-mlx5_1\"[1]\n[3]\t\"S-spine01-r1\"[2]\n\n"
	"Switch\t36 \"S-spine01-r1\"\t# \"spine01-r1\" enhanced port 0 lid 6 lmc 0\n"
	"[1]\t\"S-leaf01-r1\"[3]\n[2]\t\"S-leaf02-r1\"[3]\n";

static void test_multirail_model(void **state)
{
	struct fst_model *m = NULL;
	struct fse_topo *t = NULL;
	struct fse_work *w;
	struct fse_result res;
	char err[512] = "";
	/* Slurm's node order need not be the model's */
	const char *names[] = { "n004", "n001", "n003", "n002", "x999" };
	uint8_t avail[5] = { 1, 1, 1, 1, 1 };
	struct fse_request rq = { .min_nodes = 2, .level = FSE_RACK };
	int unknown = -1;

	if (fst_parse_ibnet_buf(&m, multirail_net, sizeof(multirail_net) - 1, "multirail", err,
				sizeof(err)) ||
	    fst_classify(m, NULL, err, sizeof(err)))
		fail_msg("model: %s", err);
	assert_int_equal(m->nhosts, 4);
	assert_int_equal(fse_topo_from_model(m, names, 5, &t, &unknown, err, sizeof(err)), 0);
	assert_int_equal(unknown, 1);
	assert_int_equal(fse_topo_nnodes(t), 5);
	/* each host in exactly one rack: n001/n002 together, n003/n004 */
	assert_int_equal(fse_topo_rack_of(t, 1), fse_topo_rack_of(t, 3));
	assert_int_equal(fse_topo_rack_of(t, 0), fse_topo_rack_of(t, 2));
	assert_int_not_equal(fse_topo_rack_of(t, 0), fse_topo_rack_of(t, 1));
	assert_int_equal(fse_topo_max_rack(t), 2);
	w = fse_work_new(t);
	/* 2 nodes: one rack, n001 and n002 (lowest ranks) */
	assert_int_equal(fse_place(t, w, &rq, avail, &res), 0);
	assert_int_equal(res.status, FSE_OK);
	assert_int_equal(res.nracks, 1);
	assert_int_equal(res.count, 2);
	assert_int_equal(res.nodes[0], 1);
	assert_int_equal(res.nodes[1], 3);
	/* n001 busy: n003 and n004 */
	avail[1] = 0;
	assert_int_equal(fse_place(t, w, &rq, avail, &res), 0);
	assert_int_equal(res.nodes[0], 2);
	assert_int_equal(res.nodes[1], 0);
	/* 3 known nodes cannot share a rack: rack policy takes 2 racks as
	 * the fewest possible (racks of 2) */
	avail[1] = 1;
	rq.min_nodes = 3;
	assert_int_equal(fse_place(t, w, &rq, avail, &res), 0);
	if (res.status != FSE_OK)
		fail_msg("3 nodes: %s", res.reason);
	assert_int_equal(res.nracks, 2);
	fse_work_free(w);
	fse_topo_free(t);
	fst_model_free(m);
}

/* ------------------------------------------------------------ locality target */

/* Records place-by-place on a 4x4 fabric in two pods: which jobs count,
 * the share, the sliding window, and the relax decision. */
/* the record as text and back: oldest first, the window keeps the newest */
static void test_share_text(void **state)
{
	struct fse_share *a, *b;
	char buf[16];
	unsigned n = 0;

	(void)state;
	assert_non_null(a = fse_share_new(4));
	assert_int_equal(fse_share_format(a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(fse_share_parse(a, "110"), 0);
	assert_int_equal(fse_share_format(a, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "110");
	/* past the window: the oldest go */
	assert_int_equal(fse_share_parse(a, "101"), 0);
	assert_int_equal(fse_share_format(a, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "0101");
	assert_true(fse_share_get(a, &n) == 0.5);
	assert_int_equal(n, 4);
	/* too small a buffer: the size needed, nothing written */
	buf[0] = 'x';
	assert_int_equal(fse_share_format(a, buf, 4), 4);
	assert_int_equal(buf[0], 'x');
	/* anything but 0 and 1: refused, record unchanged */
	assert_int_equal(fse_share_parse(a, "10x1"), -1);
	assert_int_equal(fse_share_parse(a, NULL), -1);
	assert_int_equal(fse_share_format(a, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "0101");
	/* round trip into a fresh record */
	assert_non_null(b = fse_share_new(4));
	assert_int_equal(fse_share_parse(b, buf), 0);
	assert_true(fse_share_get(b, &n) == 0.5);
	fse_share_free(a);
	fse_share_free(b);
}

static void test_share(void **state)
{
	static const int pods[] = { 0, 0, 1, 1 };
	struct fse_request rq = { .level = FSE_RACK };
	struct fse_share *sh;
	struct fab f;
	unsigned cnt = 99;

	(void)state;
	_fab(&f, 4, four, pods, 2, NULL);
	assert_null(fse_share_new(10000001));
	assert_non_null(sh = fse_share_new(4));
	/* what counts: fits one domain of its level */
	assert_true(fse_share_counts(f.t, 4, FSE_RACK));
	assert_false(fse_share_counts(f.t, 5, FSE_RACK));
	assert_true(fse_share_counts(f.t, 8, FSE_POD));
	assert_false(fse_share_counts(f.t, 9, FSE_POD));
	assert_false(fse_share_counts(f.t, 1, FSE_ANY));
	assert_false(fse_share_counts(f.t, 0, FSE_RACK));
	/* empty record: share 1, but a miss now would make it 0 */
	assert_true(fse_share_get(sh, &cnt) == 1.0);
	assert_int_equal(cnt, 0);
	assert_false(fse_share_relax(sh, f.t, 0.01, 3, FSE_RACK));
	/* no target: never relaxed by the share */
	assert_false(fse_share_relax(sh, f.t, 0, 3, FSE_RACK));
	assert_false(fse_share_relax(sh, f.t, 0, 9, FSE_RACK));
	/* a job wider than a rack never waits under a target */
	assert_true(fse_share_relax(sh, f.t, 1.0, 5, FSE_RACK));

	/* 3 nodes in one rack: got */
	rq.min_nodes = 3;
	assert_int_equal(_place(&f, 3, FSE_RACK, 0, false), FSE_OK);
	fse_share_record(sh, f.t, &rq, &f.res);
	_busy(&f, _nodes(&f));
	/* 3 nodes again: one rack (rack 1) */
	assert_int_equal(_place(&f, 3, FSE_RACK, 0, false), FSE_OK);
	fse_share_record(sh, f.t, &rq, &f.res);
	_busy(&f, _nodes(&f));
	assert_true(fse_share_get(sh, &cnt) == 1.0);
	assert_int_equal(cnt, 2);
	/* 2 got of 2: a miss makes 2/3 */
	assert_true(fse_share_relax(sh, f.t, 0.6, 3, FSE_RACK));
	assert_false(fse_share_relax(sh, f.t, 0.7, 3, FSE_RACK));
	assert_false(fse_share_relax(sh, f.t, 1.0, 3, FSE_RACK));
	/* racks 2 and 3 taken down to 1 free each: 2 nodes only relaxed,
	 * over two racks: not got */
	_busy(&f, "8,9,10,12,13,14");
	rq.min_nodes = 2;
	assert_int_equal(_place(&f, 2, FSE_RACK, 0, false), FSE_NOT_NOW);
	assert_true(f.res.could_relax);
	assert_int_equal(_place(&f, 2, FSE_RACK, 0, true), FSE_OK);
	assert_int_equal(f.res.nracks, 2);
	fse_share_record(sh, f.t, &rq, &f.res);
	assert_true(fse_share_get(sh, &cnt) == 2.0 / 3.0);
	assert_int_equal(cnt, 3);
	/* another miss would make 2/4 */
	assert_false(fse_share_relax(sh, f.t, 0.6, 2, FSE_RACK));
	assert_true(fse_share_relax(sh, f.t, 0.5, 2, FSE_RACK));
	/* a wide job is not recorded; a failed result is not recorded */
	memset(f.avail, 1, 16);
	rq.min_nodes = 6;
	assert_int_equal(_place(&f, 6, FSE_RACK, 0, false), FSE_OK);
	fse_share_record(sh, f.t, &rq, &f.res);
	f.res.status = FSE_NOT_NOW;
	rq.min_nodes = 2;
	fse_share_record(sh, f.t, &rq, &f.res);
	assert_true(fse_share_get(sh, &cnt) == 2.0 / 3.0);
	assert_int_equal(cnt, 3);
	/* the window keeps the last 4: two more got, then the oldest go */
	assert_int_equal(_place(&f, 2, FSE_RACK, 0, false), FSE_OK);
	fse_share_record(sh, f.t, &rq, &f.res);
	assert_true(fse_share_get(sh, &cnt) == 3.0 / 4.0);
	assert_int_equal(cnt, 4);
	/* window full: a miss drops the oldest (a got): 2/4 */
	assert_true(fse_share_relax(sh, f.t, 0.5, 2, FSE_RACK));
	assert_false(fse_share_relax(sh, f.t, 0.51, 2, FSE_RACK));
	fse_share_record(sh, f.t, &rq, &f.res); /* drops a got */
	assert_true(fse_share_get(sh, &cnt) == 3.0 / 4.0);
	fse_share_record(sh, f.t, &rq, &f.res); /* drops a got */
	fse_share_record(sh, f.t, &rq, &f.res); /* drops the miss */
	assert_true(fse_share_get(sh, &cnt) == 1.0);
	assert_int_equal(cnt, 4);
	/* pod level: a 6-node job in two racks of one pod got its pod */
	rq.min_nodes = 6;
	rq.level = FSE_POD;
	assert_int_equal(_place(&f, 6, FSE_POD, 0, false), FSE_OK);
	assert_int_equal(f.res.level, FSE_POD);
	fse_share_record(sh, f.t, &rq, &f.res);
	assert_true(fse_share_get(sh, NULL) == 1.0);
	fse_share_free(sh);
	fse_share_free(NULL);
	_free(&f);
}

/* ------------------------------------------------------------ task-sized jobs */

/* A task-sized request on f: ntasks tasks on min..max nodes. */
static int _place_tasks(struct fab *f, uint32_t ntasks, uint32_t min, uint32_t max,
			enum fse_level level, const uint32_t *now, const uint32_t *idle)
{
	struct fse_request rq = { .min_nodes = min,
				  .max_nodes = max,
				  .level = level,
				  .ntasks = ntasks,
				  .tasks_now = now,
				  .tasks_idle = idle };

	assert_int_equal(fse_place(f->t, f->w, &rq, f->avail, &f->res), 0);
	return f->res.status;
}

/* -N 3 -n 6 within one rack (max_racks 1): the rack whose nodes hold
 * most tasks has too few nodes, the other holds the job alone, so the job
 * needs one rack, not two, and runs there. */
static void test_tasks_one_rack_of_nodes(void **state)
{
	static const int sizes[] = { 2, 3 };
	uint32_t caps[5] = { 8, 8, 2, 2, 2 };
	struct fab f;
	struct fse_request rq = { .min_nodes = 3,
				  .max_nodes = 3,
				  .level = FSE_RACK,
				  .max_racks = 1,
				  .ntasks = 6,
				  .tasks_now = caps,
				  .tasks_idle = caps };

	(void)state;
	_fab(&f, 2, sizes, NULL, 0, NULL);
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
	assert_int_equal(f.res.status, FSE_OK);
	assert_int_equal(f.res.level, FSE_RACK);
	assert_string_equal(_nodes(&f), "2,3,4");
	_free(&f);
}

/* One rack's best fit for a job sized by tasks is by the rack's room for
 * them, uncapped: 30 tasks go to the rack of three nodes with 10 free
 * cores each that they fill, not to the one node with 64 free, which a
 * larger job needs; counted here or given (rack_room), either rack order. */
static void test_tasks_room_best_fit(void **state)
{
	static const int a[] = { 1, 3 }, b[] = { 3, 1 };
	const int *sizes[] = { a, b };

	(void)state;
	for (int k = 0; k < 2; k++)
		for (int given = 0; given < 2; given++) {
			uint32_t now[4];
			int64_t room[2];
			struct fab f;
			int big = k ? 3 : 0;
			struct fse_request rq = { .min_nodes = 1,
						  .max_nodes = 30,
						  .level = FSE_RACK,
						  .ntasks = 30,
						  .tasks_now = now,
						  .tasks_idle = now };

			_fab(&f, 2, sizes[k], NULL, 0, NULL);
			for (int i = 0; i < 4; i++)
				now[i] = i == big ? 64 : 10;
			fse_rack_room(f.t, f.avail, now, room);
			assert_int_equal(room[k ? 1 : 0], 64);
			assert_int_equal(room[k ? 0 : 1], 30);
			if (given) {
				rq.rack_room = room;
				rq.rack_room_idle = room;
			}
			assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
			assert_int_equal(f.res.status, FSE_OK);
			assert_int_equal(f.res.count, 3);
			assert_string_equal(_racks(&f), k ? "0" : "1");
			_free(&f);
		}
}

/* Two answers of fse_request_fit are the same. */
static void _same_fit(const struct fse_fit *a, const struct fse_fit *b)
{
	assert_int_equal(a->need_level, b->need_level);
	assert_int_equal(a->need_k, b->need_k);
	assert_int_equal(a->kcap, b->kcap);
	assert_int_equal(a->fits_domain, b->fits_domain);
}

/* The racks' room kept by the caller (rack_room, rack_room_idle) gives the
 * very decisions and idle fits counted here, on random occupancies, sizes,
 * node bounds, levels, rack limits and skipped racks of a fabric of 2 pods
 * and a rack in none; and so does more room said of racks that cannot hold
 * the job (an upper bound): they are counted and not taken. */
static void test_tasks_room_kept(void **state)
{
	static const int sizes[] = { 4, 3, 4, 2, 4, 4, 3 }, pods[] = { 0, 0, 0, 1, 1, 1, -1 };
	enum { NR = 7 };
	struct fab f;
	uint32_t now[MAXN], idle[MAXN];
	int64_t room[NR], iroom[NR], broom[NR], biroom[NR];
	uint8_t skip[NR];
	unsigned seed = 11;
	int fast = 0;

	(void)state;
	_fab(&f, NR, sizes, pods, 2, NULL);
	for (int round = 0; round < 3000; round++) {
		uint32_t total = 0;

#define RND(m) (((seed = seed * 1103515245 + 12345) >> 16) % (m))
		for (int i = 0; i < f.nnodes; i++) {
			idle[i] = RND(5) ? 4 : RND(9);
			now[i] = RND(3) ? RND(idle[i] + 1) : idle[i];
			f.avail[i] = RND(4) != 0;
			total += f.avail[i] ? now[i] : 0;
		}
		for (int r = 0; r < NR; r++)
			skip[r] = RND(8) == 0;
		fse_rack_room(f.t, f.avail, now, room);
		fse_rack_room(f.t, NULL, idle, iroom);
		{
			uint32_t n = 1 + RND(3), t = 1 + RND(total + 3);
			struct fse_request rq = { .min_nodes = n,
						  .max_nodes = RND(2) && t > n ? t : n + RND(4),
						  .level = (enum fse_level)RND(3),
						  .max_racks = RND(3),
						  .relaxed = RND(2),
						  .skip_racks = RND(3) ? NULL : skip,
						  .ntasks = t,
						  .tasks_now = now,
						  .tasks_idle = RND(4) ? idle : NULL };
			struct fse_result a, b, c;
			struct fse_fit fa, fb;
			int na[MAXN];

			if (!rq.tasks_idle)
				fse_rack_room(f.t, NULL, now, iroom);
			for (int r = 0; r < NR; r++) {
				broom[r] = room[r] < t ? room[r] + RND(2 * t) : room[r];
				biroom[r] = iroom[r] < t ? iroom[r] + RND(2 * t) : iroom[r];
			}
			assert_int_equal(fse_request_fit(f.t, f.w, &rq, &fa), 0);
			assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &a), 0);
			memcpy(na, a.nodes ? a.nodes : na, a.count * sizeof(int));
			for (int bound = 0; bound < 2; bound++) {
				struct fse_result *x = bound ? &c : &b;

				rq.rack_room = bound ? broom : room;
				rq.rack_room_idle = bound ? biroom : iroom;
				assert_int_equal(fse_request_fit(f.t, f.w, &rq, &fb), 0);
				_same_fit(&fa, &fb);
				assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, x), 0);
				assert_int_equal(a.status, x->status);
				assert_int_equal(a.level, x->level);
				assert_int_equal(a.relaxed, x->relaxed);
				assert_int_equal(a.could_relax, x->could_relax);
				assert_int_equal(a.fits_domain, x->fits_domain);
				assert_int_equal(a.count, x->count);
				assert_memory_equal(na, x->nodes ? x->nodes : na,
						    a.count * sizeof(int));
				assert_string_equal(a.reason, x->reason);
			}
			fast += a.status == FSE_OK && a.level == FSE_RACK;
#undef RND
		}
	}
	/* the one-rack path ran often enough to say something */
	assert_true(fast > 300);
	_free(&f);

	/* only the rack in no pod holds 3 tasks: no pod does, so a job that
	 * asks for one pod needs any racks, kept room or not */
	{
		static const int sz[] = { 1, 1, 3 }, pd[] = { 0, 0, -1 };
		uint32_t one[5] = { 1, 1, 1, 1, 1 };
		int64_t r3[3] = { 1, 1, 3 };
		struct fse_request rq = { .min_nodes = 1,
					  .max_nodes = 3,
					  .level = FSE_POD,
					  .ntasks = 3,
					  .tasks_now = one,
					  .tasks_idle = one };
		struct fse_fit fit;

		_fab(&f, 3, sz, pd, 1, NULL);
		for (int given = 0; given < 2; given++) {
			rq.rack_room_idle = given ? r3 : NULL;
			assert_int_equal(fse_request_fit(f.t, f.w, &rq, &fit), 0);
			assert_int_equal(fit.need_level, FSE_ANY);
			assert_false(fit.fits_domain);
		}
		_free(&f);
	}
}

/* A job sized by nodes (-N) whose caller keeps the racks' idle room (the
 * nodes it can use per rack, or an upper bound): the same fit and the
 * same placement as counting every node. */
static void test_nodes_room_idle_kept(void **state)
{
	static const int sizes[] = { 4, 3, 4, 2, 4, 4, 3 }, pods[] = { 0, 0, 0, 1, 1, 1, -1 };
	enum { NR = 7 };
	struct fab f;
	uint32_t idle[MAXN];
	int64_t iroom[NR], biroom[NR];
	unsigned seed = 23;
	int kept = 0;

	(void)state;
	_fab(&f, NR, sizes, pods, 2, NULL);
	for (int round = 0; round < 3000; round++) {
#define RND(m) (((seed = seed * 1103515245 + 12345) >> 16) % (m))
		for (int i = 0; i < f.nnodes; i++) {
			idle[i] = RND(4) != 0; /* fse_node_tasks' 0 or 1 */
			f.avail[i] = idle[i] && RND(3) != 0;
		}
		fse_rack_room(f.t, NULL, idle, iroom);
		{
			uint32_t n = 1 + RND(6);
			struct fse_request rq = { .min_nodes = n,
						  .max_nodes = n + RND(3),
						  .level = (enum fse_level)RND(3),
						  .max_racks = RND(3),
						  .relaxed = RND(2),
						  .tasks_idle = idle };
			struct fse_result a, b;
			struct fse_fit fa, fb;
			int na[MAXN];

			for (int r = 0; r < NR; r++)
				biroom[r] = iroom[r] + (RND(2) ? RND(4) : 0);
			assert_int_equal(fse_request_fit(f.t, f.w, &rq, &fa), 0);
			assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &a), 0);
			memcpy(na, a.nodes ? a.nodes : na, a.count * sizeof(int));
			for (int bound = 0; bound < 2; bound++) {
				rq.rack_room_idle = bound ? biroom : iroom;
				assert_int_equal(fse_request_fit(f.t, f.w, &rq, &fb), 0);
				_same_fit(&fa, &fb);
				assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &b), 0);
				assert_int_equal(a.status, b.status);
				assert_int_equal(a.level, b.level);
				assert_int_equal(a.count, b.count);
				assert_memory_equal(na, b.nodes ? b.nodes : na,
						    a.count * sizeof(int));
				assert_string_equal(a.reason, b.reason);
			}
			kept += fa.fits_domain && fa.kcap == 1;
#undef RND
		}
	}
	/* racks held the job on the idle machine often enough */
	assert_true(kept > 300);
	_free(&f);
}

/* 4 racks of 4 nodes of 4 cores, one pod: what sbatch -n asks. */
static void test_tasks(void **state)
{
	static const int sizes[] = { 4, 4, 4, 4 };
	uint32_t idle[16], now[16];
	struct fab f;

	(void)state;
	_fab(&f, 4, sizes, NULL, 0, NULL);
	for (int i = 0; i < 16; i++)
		idle[i] = now[i] = 4;

	/* below, at and above a rack's 16 cores */
	assert_int_equal(_place_tasks(&f, 12, 1, 12, FSE_RACK, now, idle), FSE_OK);
	assert_int_equal(f.res.level, FSE_RACK);
	assert_int_equal(f.res.count, 3);
	assert_true(f.res.fits_domain);
	assert_int_equal(_place_tasks(&f, 16, 1, 16, FSE_RACK, now, idle), FSE_OK);
	assert_int_equal(f.res.nracks, 1);
	assert_int_equal(f.res.count, 4);
	/* 30 tasks fit no rack even when idle: the tightest level that holds
	 * them (two racks of the pod) at once, not relaxed, not counted */
	assert_int_equal(_place_tasks(&f, 30, 1, 30, FSE_RACK, now, idle), FSE_OK);
	assert_int_equal(f.res.level, FSE_POD);
	assert_int_equal(f.res.nracks, 2);
	assert_int_equal(f.res.count, 8);
	assert_false(f.res.relaxed);
	assert_false(f.res.fits_domain);
	/* more than the machine */
	assert_int_equal(_place_tasks(&f, 65, 1, 65, FSE_RACK, now, idle), FSE_NEVER);
	/* at most one node of 4 cores cannot hold 8 tasks */
	assert_int_equal(_place_tasks(&f, 8, 1, 1, FSE_RACK, now, idle), FSE_NEVER);
	/* -N 2 -n 4: two nodes even though one holds the tasks */
	assert_int_equal(_place_tasks(&f, 4, 2, 4, FSE_RACK, now, idle), FSE_OK);
	assert_int_equal(f.res.count, 2);

	/* best fit on task room: rack 1 has 10 free tasks, the others 16 */
	now[4] = 4;
	now[5] = 4;
	now[6] = 2;
	now[7] = 0;
	assert_int_equal(_place_tasks(&f, 10, 1, 10, FSE_RACK, now, idle), FSE_OK);
	assert_int_equal(f.res.level, FSE_RACK);
	assert_string_equal(_nodes(&f), "4,5,6");
	/* 12 no longer fits rack 1: another rack */
	assert_int_equal(_place_tasks(&f, 12, 1, 12, FSE_RACK, now, idle), FSE_OK);
	assert_int_not_equal(fse_topo_rack_of(f.t, f.res.nodes[0]), 1);

	/* every rack half busy: 12 tasks fit a rack when idle, not now */
	for (int i = 0; i < 16; i++)
		now[i] = 2;
	assert_int_equal(_place_tasks(&f, 12, 1, 12, FSE_RACK, now, idle), FSE_NOT_NOW);
	assert_true(f.res.could_relax);
	assert_true(f.res.fits_domain);
	assert_string_equal(f.res.reason,
			    "waiting for one rack with room for 12 tasks (most in a rack: 8)");
	/* not enough room anywhere: plain wait */
	assert_int_equal(_place_tasks(&f, 40, 1, 40, FSE_RACK, now, idle), FSE_NOT_NOW);
	assert_false(f.res.could_relax);

	/* at most 2 nodes: a rack counts the room of its 2 roomiest nodes */
	for (int i = 0; i < 16; i++)
		now[i] = 1;
	now[9] = 3;
	now[10] = 2; /* rack 2: 1 3 2 1 */
	now[13] = 4; /* rack 3: 1 4 1 1 */
	assert_int_equal(_place_tasks(&f, 5, 1, 2, FSE_RACK, now, idle), FSE_OK);
	assert_int_equal(f.res.count, 2);
	assert_string_equal(_nodes(&f), "9,10"); /* 3+2: the least room */
	assert_int_equal(_place_tasks(&f, 6, 1, 2, FSE_RACK, now, idle), FSE_NOT_NOW);
	assert_true(f.res.could_relax); /* 4+2 across racks 2 and 3 */
	_free(&f);
}

/* Several pods: a job too big for a rack takes the fewest racks of one
 * pod; too big for a pod, the fewest racks of the fabric. */
static void test_tasks_pods(void **state)
{
	static const int sizes[] = { 2, 2, 2, 2 };
	static const int pods[] = { 0, 0, 1, 1 };
	uint32_t idle[8];
	struct fab f;

	(void)state;
	_fab(&f, 4, sizes, pods, 2, NULL);
	for (int i = 0; i < 8; i++)
		idle[i] = 8; /* 16 tasks a rack, 32 a pod */
	assert_int_equal(_place_tasks(&f, 20, 1, 20, FSE_RACK, idle, NULL), FSE_OK);
	assert_int_equal(f.res.level, FSE_POD);
	assert_int_equal(f.res.nracks, 2);
	assert_int_equal(_place_tasks(&f, 40, 1, 40, FSE_POD, idle, NULL), FSE_OK);
	assert_int_equal(f.res.level, FSE_ANY);
	assert_int_equal(f.res.nracks, 3);
	assert_false(f.res.relaxed);
	/* MaxRacks 2 cannot hold 40 */
	{
		struct fse_request rq = { .min_nodes = 1,
					  .max_nodes = 40,
					  .level = FSE_RACK,
					  .ntasks = 40,
					  .tasks_now = idle,
					  .max_racks = 2 };

		assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
		assert_int_equal(f.res.status, FSE_NEVER);
		assert_true(fse_request_fits_domain(f.t, f.w,
						    &(struct fse_request){ .min_nodes = 1,
									   .max_nodes = 16,
									   .level = FSE_RACK,
									   .ntasks = 16,
									   .tasks_now = idle }));
		assert_false(fse_request_fits_domain(f.t, f.w,
						     &(struct fse_request){ .min_nodes = 1,
									    .max_nodes = 17,
									    .level = FSE_RACK,
									    .ntasks = 17,
									    .tasks_now = idle }));
	}
	_free(&f);
}

/* The GRES units a job can get on a node, by type. */
static void test_gres_units(void **state)
{
	const uint32_t id[] = { 11, 22 };
	const uint64_t av[] = { 4, 8 }, al[] = { 1, 8 };

	(void)state;
	assert_int_equal(fse_gres_units(12, 9, 0, id, av, al, 2, true), 3);
	assert_int_equal(fse_gres_units(12, 9, 0, id, av, al, 2, false), 12);
	assert_int_equal(fse_gres_units(12, 9, 11, id, av, al, 2, true), 3);
	assert_int_equal(fse_gres_units(12, 9, 22, id, av, al, 2, true), 0);
	assert_int_equal(fse_gres_units(12, 9, 22, id, av, al, 2, false), 8);
	assert_int_equal(fse_gres_units(12, 9, 33, id, av, al, 2, false), 0);
	assert_int_equal(fse_gres_units(1, 5, 0, NULL, NULL, NULL, 0, true), 0);
	/* memory: RealMemory less MemSpecLimit, where it is counted */
	assert_true(fse_node_mem(false, 1000, 100) == UINT64_MAX);
	assert_int_equal(fse_node_mem(true, 1000, 100), 900);
	assert_int_equal(fse_node_mem(true, 100, 1000), 0);
}

/* Counts kept while their generations stand and for FSE_KEPT_AGE
 * seconds (slurmctld's idle machine per job shape): never those taken in
 * the newest generation's second, which a later change in that second
 * would leave unchanged. */
static void test_kept(void **state)
{
	struct fse_kept k = { 0 };

	(void)state;
	assert_false(fse_kept_fresh(&k, 0, 0, 1)); /* nothing taken */
	/* taken in the second of the last partition change: not kept */
	assert_false(fse_kept_take(&k, 100, 50, 100));
	assert_false(fse_kept_fresh(&k, 100, 50, 100));
	/* nor of the last reconfiguration */
	assert_false(fse_kept_take(&k, 100, 101, 101));
	assert_false(fse_kept_fresh(&k, 100, 101, 101));
	/* a second later: kept while neither generation moves */
	assert_true(fse_kept_take(&k, 100, 50, 101));
	assert_true(fse_kept_fresh(&k, 100, 50, 101));
	assert_true(fse_kept_fresh(&k, 100, 50, 101 + FSE_KEPT_AGE - 1));
	assert_int_equal(k.reuses, 2);
	assert_false(fse_kept_fresh(&k, 101, 50, 102));		       /* a partition changed */
	assert_false(fse_kept_fresh(&k, 100, 102, 102));	       /* slurm.conf read */
	assert_false(fse_kept_fresh(&k, 100, 50, 101 + FSE_KEPT_AGE)); /* too old */
	assert_false(fse_kept_fresh(&k, 100, 50, 100));		       /* the clock went back */
	assert_int_equal(k.reuses, 2);
	/* taken again: reuses from 0 */
	assert_true(fse_kept_take(&k, 101, 50, 105));
	assert_int_equal(k.reuses, 0);
	assert_false(fse_kept_fresh(&k, 100, 50, 105)); /* an older generation */
	assert_true(fse_kept_fresh(&k, 101, 50, 105));
}

/* What one node holds of a job's tasks. */
static void test_node_tasks(void **state)
{
	struct fse_shape s = { .ntasks = 100 };
	struct fse_node_res r = { .cpus = 8, .mem = UINT64_MAX };

	(void)state;
	assert_int_equal(fse_node_tasks(&s, &r), 8);
	s.cpus_per_task = 3;
	assert_int_equal(fse_node_tasks(&s, &r), 2);
	s.cpus_per_task = 0;
	s.tasks_per_node = 5;
	assert_int_equal(fse_node_tasks(&s, &r), 5);
	s.tasks_per_node = 0;
	r.mem = 3000;
	s.mem_per_cpu = 1000;
	assert_int_equal(fse_node_tasks(&s, &r), 3);
	s.mem_per_cpu = 0;
	s.mem_per_node = 4000;
	assert_int_equal(fse_node_tasks(&s, &r), 0);
	s.mem_per_node = 2000;
	assert_int_equal(fse_node_tasks(&s, &r), 8);
	s.whole_node = true;
	r.busy = true;
	assert_int_equal(fse_node_tasks(&s, &r), 0);
	r.busy = false;
	assert_int_equal(fse_node_tasks(&s, &r), 8);
	s.whole_node = false;
	s.ngres = 1;
	s.gres[0].per_node = 1;
	assert_int_equal(fse_node_tasks(&s, &r), 0); /* no HCA free */
	r.gres[0] = 2;
	assert_int_equal(fse_node_tasks(&s, &r), 8);
	s.gres[0].per_node = 0;
	s.gres[0].per_task = 1;
	assert_int_equal(fse_node_tasks(&s, &r), 2);
	s.ngres = 0;
	s.overcommit = true;
	assert_int_equal(fse_node_tasks(&s, &r), 100);
	s.ntasks = 0; /* sized by nodes: usable or not */
	assert_int_equal(fse_node_tasks(&s, &r), 1);
	r.cpus = 0;
	assert_int_equal(fse_node_tasks(&s, &r), 0);
	assert_int_equal(fse_node_tasks(NULL, &r), 0);
}

/* --spread-job: one node per task, as far as the candidates go. */
static void test_spread(void **state)
{
	uint32_t now[6] = { 4, 0, 4, 4, 4, 4 };
	uint8_t cand[6] = { 1, 1, 1, 1, 1, 0 };

	(void)state;
	assert_int_equal(fse_spread_nodes(4, 1, 4, now, cand, 6), 4);
	assert_int_equal(fse_spread_nodes(8, 1, 8, now, cand, 6), 4); /* 4 usable */
	assert_int_equal(fse_spread_nodes(8, 1, 2, now, cand, 6), 2); /* max */
	assert_int_equal(fse_spread_nodes(8, 5, 8, now, cand, 6), 5); /* min */
	assert_int_equal(fse_spread_nodes(8, 1, 0, now, NULL, 6), 5);
	assert_int_equal(fse_spread_nodes(0, 3, 8, now, cand, 6), 3);
}

/* Node sets of a test constraint: one string of '0'/'1' per feature. */
static bool _has_char(const void *set, size_t node)
{
	return ((const char *)set)[node] == '1';
}

static const char *_fold(const struct fse_feature_term *t, size_t n, int *rc)
{
	static char text[9];
	*rc = fse_feature_folds(t, n);
	for (size_t i = 0; i < 8; i++)
		text[i] = *rc == 1 ? (char)('0' + fse_feature_allows(t, n, _has_char, i)) : '-';
	text[8] = '\0';
	return text;
}

/* --constraint as Slurm lists it: '&' intersects, '|' and brackets unite
 * (all of the job's nodes from one alternative: either may give a node),
 * left to right; counts, parentheses and features whose nodes are not
 * known leave every node counting. */
static void test_feature_nodes(void **state)
{
	const char *big = "11001100", *fast = "10101010", *gpu = "00001111";
	struct fse_feature_term t[3];
	int rc;

	(void)state;
	/* big */
	t[0] = (struct fse_feature_term){ .set = big };
	assert_string_equal(_fold(t, 1, &rc), big);
	assert_int_equal(rc, 1);
	/* big&fast */
	t[0].and_next = true;
	t[1] = (struct fse_feature_term){ .set = fast };
	assert_string_equal(_fold(t, 2, &rc), "10001000");
	/* big|fast, and [big|fast] (the plugin gives its separator as not
	 * '&'): the union */
	t[0].and_next = false;
	assert_string_equal(_fold(t, 2, &rc), "11101110");
	/* big|fast&gpu: left to right, (big|fast)&gpu */
	t[1].and_next = true;
	t[2] = (struct fse_feature_term){ .set = gpu };
	assert_string_equal(_fold(t, 3, &rc), "00001110");
	/* big&fast|gpu: (big&fast)|gpu */
	t[0].and_next = true;
	t[1].and_next = false;
	assert_string_equal(_fold(t, 3, &rc), "10001111");
	/* a count (big*2&fast): Slurm's to weigh, every node counts */
	t[0].counted = true;
	assert_string_equal(_fold(t, 3, &rc), "--------");
	assert_int_equal(rc, 0);
	t[0].counted = false;
	/* parentheses ((big|fast)&gpu) */
	t[1].paren = true;
	assert_string_equal(_fold(t, 3, &rc), "--------");
	assert_int_equal(rc, 0);
	t[1].paren = false;
	/* a feature whose nodes are not known */
	t[2].set = NULL;
	assert_string_equal(_fold(t, 3, &rc), "--------");
	assert_int_equal(rc, 0);
	/* a feature no node has: none allowed (not "no filter") */
	t[0] = (struct fse_feature_term){ .set = "00000000" };
	assert_string_equal(_fold(t, 1, &rc), "00000000");
	assert_int_equal(rc, 1);
	/* no feature; bad arguments */
	assert_int_equal(fse_feature_folds(t, 0), 0);
	assert_int_equal(fse_feature_folds(NULL, 1), -1);
	assert_true(fse_feature_allows(t, 0, _has_char, 0));
	assert_true(fse_feature_allows(t, 1, NULL, 0));
}

/* A job sized by nodes that can use only some nodes (tasks_idle: its
 * partition, features, memory per node): its level is that of the domains
 * those nodes fill, not of the fabric's racks.  Two usable nodes a rack:
 * -N 3 fits no rack, so it takes two racks now instead of waiting for one
 * that never comes; -N 2 still gets one rack; -N 9 can never run. */
static void test_idle_nodes(void **state)
{
	struct fab f;
	uint32_t idle[16], all[16];
	struct fse_request rq = { .min_nodes = 3, .level = FSE_RACK, .tasks_idle = idle };

	(void)state;
	_fab(&f, 4, four, NULL, 0, NULL);
	for (int i = 0; i < 16; i++) {
		idle[i] = i % 4 < 2;
		all[i] = 1;
		f.avail[i] = (uint8_t)idle[i];
	}
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
	assert_int_equal(f.res.status, FSE_OK);
	assert_int_equal(f.res.nracks, 2);
	assert_int_equal(f.res.count, 3);
	assert_false(f.res.fits_domain);
	assert_false(f.res.relaxed);
	assert_false(fse_request_fits_domain(f.t, f.w, &rq));
	/* the fabric's racks alone: it waits for one with 3 free nodes */
	rq.tasks_idle = NULL;
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
	assert_int_equal(f.res.status, FSE_NOT_NOW);
	assert_true(f.res.fits_domain);
	assert_true(fse_request_fits_domain(f.t, f.w, &rq));
	/* every node usable: as without tasks_idle */
	rq.tasks_idle = all;
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
	assert_int_equal(f.res.status, FSE_NOT_NOW);
	assert_true(f.res.fits_domain);
	/* 2 nodes: one rack */
	rq.tasks_idle = idle;
	rq.min_nodes = 2;
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
	assert_int_equal(f.res.status, FSE_OK);
	assert_int_equal(f.res.nracks, 1);
	assert_true(f.res.fits_domain);
	/* 9 nodes: 8 usable */
	rq.min_nodes = 9;
	assert_int_equal(fse_place(f.t, f.w, &rq, f.avail, &f.res), 0);
	assert_int_equal(f.res.status, FSE_NEVER);
	_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_size),
		cmocka_unit_test(test_every_size_busy),
		cmocka_unit_test(test_best_fit),
		cmocka_unit_test(test_fragmentation),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_unavailable),
		cmocka_unit_test(test_heterogeneous),
		cmocka_unit_test(test_pods),
		cmocka_unit_test(test_max_racks),
		cmocka_unit_test(test_min_max),
		cmocka_unit_test(test_skip_racks),
		cmocka_unit_test(test_rackless),
		cmocka_unit_test(test_multirail_model),
		cmocka_unit_test(test_share),
		cmocka_unit_test(test_share_text),
		cmocka_unit_test(test_tasks),
		cmocka_unit_test(test_tasks_pods),
		cmocka_unit_test(test_gres_units),
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_nodes_room_idle_kept),
		cmocka_unit_test(test_node_tasks),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_wait_ratio),
		cmocka_unit_test(test_rack_free),
		cmocka_unit_test(test_expected),
		cmocka_unit_test(test_expected_span),
		cmocka_unit_test(test_idle_nodes),
		cmocka_unit_test(test_feature_nodes),
		cmocka_unit_test(test_tasks_one_rack_of_nodes),
		cmocka_unit_test(test_tasks_room_best_fit),
		cmocka_unit_test(test_tasks_room_kept),
	};

	return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
