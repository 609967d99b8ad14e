/*
 * test_sim_sched.c - the simulator of sim/ on tiny hand-checked traces:
 * exact schedules (start times and nodes) under FCFS + EASY backfill
 * (reserved nodes included), Slurm's backfill (every blocked job
 * reserving) and each placement policy, the metrics of one run, the policy parser, and
 * determinism and consistency (no node used twice at once) on a larger
 * generated trace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_files.h"

#include "fabsched_sim.h"

/* Runs trace name on racks of 4 under policy; returns the run. */
static struct fss_run *_run(const char *name, int nodes, int rack, int rpp, const char *policy,
			    struct fss_trace **tr, struct fss_machine **m)
{
	struct fss_policy p;
	struct fss_run *r = NULL;
	char err[512] = "";

	assert_int_equal(fss_swf_read(tf_fixture("swf", name), NULL, tr, err, sizeof(err)), 0);
	assert_int_equal(fss_machine_fattree(nodes, rack, rpp, m, err, sizeof(err)), 0);
	assert_int_equal(fss_policy_parse(policy, &p, err, sizeof(err)), 0);
	assert_int_equal(fss_simulate(*m, *tr, &p, NULL, &r, err, sizeof(err)), 0);
	return r;
}

/* "start:n1 n2 ..." of job index j */
static const char *_job(const struct fss_run *r, long j)
{
	static char buf[256];
	const struct fss_jobrun *jr = &r->jobs[j];
	int o = snprintf(buf, sizeof(buf), "%lld:", (long long)jr->start);

	for (int k = 0; k < r->trace->jobs[j].nodes; k++)
		o += snprintf(buf + o, sizeof(buf) - o, "%s%d", k ? " " : "",
			      r->nodes[jr->node_off + k]);
	return buf;
}

static void _done(struct fss_run *r, struct fss_trace *tr, struct fss_machine *m)
{
	fss_run_free(r);
	fss_trace_free(tr);
	fss_machine_free(m);
}

/* Job 2 (4 nodes) waits for job 1; job 3 backfills before the shadow
 * time (100), job 4 (ends after it) in the 4 extra nodes. */
static void test_easy_backfill(void **state)
{
	struct fss_trace *tr;
	struct fss_machine *m;
	struct fss_run *r = _run("easy.swf", 8, 4, 0, "firstfit", &tr, &m);

	(void)state;
	assert_string_equal(_job(r, 0), "0:0 1 2 3 4 5");
	assert_string_equal(_job(r, 1), "100:0 1 2 3");
	assert_string_equal(_job(r, 2), "2:6 7");
	assert_string_equal(_job(r, 3), "52:6 7");
	assert_int_equal(r->never, 0);
	_done(r, tr, m);
}

/* The same schedule under tree: job 1 spans both racks, job 2 then
 * takes rack 0 whole at the shadow time. */
static void test_easy_no_delay(void **state)
{
	struct fss_trace *tr;
	struct fss_machine *m;
	struct fss_run *r = _run("easy.swf", 8, 4, 0, "tree", &tr, &m);

	(void)state;
	/* tree: job 1 takes rack 0 whole (most free first), then rack 1 */
	assert_string_equal(_job(r, 0), "0:0 1 2 3 4 5");
	assert_string_equal(_job(r, 1), "100:0 1 2 3");
	assert_string_equal(_job(r, 2), "2:6 7");
	assert_string_equal(_job(r, 3), "52:6 7");
	_done(r, tr, m);
}

/* Job 3 reserves rack 0 (0-3) at 100; job 4 runs past that and takes
 * node 7, not node 3 (which best fit alone would pick); job 5 finds no
 * unreserved node and waits. */
static void test_reserved_nodes(void **state)
{
	struct fss_trace *tr;
	struct fss_machine *m;
	struct fss_run *r = _run("reserve.swf", 8, 4, 0, "tree", &tr, &m);

	(void)state;
	assert_string_equal(_job(r, 0), "0:0 1 2");
	assert_string_equal(_job(r, 1), "0:4 5 6");
	assert_string_equal(_job(r, 2), "100:0 1 2 3");
	assert_string_equal(_job(r, 3), "2:7");
	assert_string_equal(_job(r, 4), "150:0");
	_done(r, tr, m);
}

/* Job 2 reserves nodes 0-6 at 100; job 3 (8 nodes) waits behind it.
 * EASY (only job 2 reserves): job 4, running past 100, starts now on node
 * 7 and delays job 3 to 253.  Slurm's backfill (every blocked job
 * reserves): job 3 holds every node from 200, so job 4 waits until 300. */
static void test_reserve_all(void **state)
{
	const struct fss_sim_opts all = { .reserve_all = true, .check_tally = true };
	struct fss_trace *tr;
	struct fss_machine *m;
	struct fss_policy p;
	struct fss_run *r = _run("resvall.swf", 8, 4, 0, "firstfit", &tr, &m);
	char err[512];

	(void)state;
	assert_string_equal(_job(r, 1), "100:0 1 2 3 4 5 6");
	assert_string_equal(_job(r, 2), "253:0 1 2 3 4 5 6 7");
	assert_string_equal(_job(r, 3), "3:7");
	fss_run_free(r);
	for (int k = 0; k < 2; k++) { /* and under tree: the same */
		assert_int_equal(fss_policy_parse(k ? "tree" : "firstfit", &p, err, sizeof(err)),
				 0);
		assert_int_equal(fss_simulate(m, tr, &p, &all, &r, err, sizeof(err)), 0);
		assert_string_equal(_job(r, 0), "0:0 1 2 3 4 5");
		assert_string_equal(_job(r, 1), "100:0 1 2 3 4 5 6");
		assert_string_equal(_job(r, 2), "200:0 1 2 3 4 5 6 7");
		assert_string_equal(_job(r, 3), "300:0");
		fss_run_free(r);
	}
	fss_trace_free(tr);
	fss_machine_free(m);
	/* the node space over time (see resvgap.swf's comments) */
	r = _run("resvgap.swf", 8, 4, 0, "firstfit", &tr, &m);
	fss_run_free(r);
	assert_int_equal(fss_policy_parse("firstfit", &p, err, sizeof(err)), 0);
	assert_int_equal(fss_simulate(m, tr, &p, &all, &r, err, sizeof(err)), 0);
	assert_string_equal(_job(r, 1), "100:0 1 2 3 4 5 6 7");
	assert_string_equal(_job(r, 2), "2:4 5");
	assert_string_equal(_job(r, 3), "200:0 1 2");
	assert_string_equal(_job(r, 4), "4:6 7");
	assert_string_equal(_job(r, 5), "200:3");  /* not at 52: job 2's nodes */
	assert_string_equal(_job(r, 6), "52:4 5"); /* ends by 100 */
	_done(r, tr, m);
	r = _run("resvwin.swf", 6, 2, 0, "firstfit", &tr, &m);
	fss_run_free(r);
	assert_int_equal(fss_simulate(m, tr, &p, &all, &r, err, sizeof(err)), 0);
	assert_string_equal(_job(r, 2), "100:0 1 2 3");
	assert_string_equal(_job(r, 3), "100:4 5");
	_done(r, tr, m);
}

static void test_engine_rack_waits(void **state)
{
	struct fss_trace *tr;
	struct fss_machine *m;
	struct fss_run *r = _run("locality.swf", 8, 4, 0, "rack", &tr, &m);
	struct fss_metrics mt;

	(void)state;
	assert_string_equal(_job(r, 0), "0:0 1");
	assert_string_equal(_job(r, 1), "0:4 5 6");
	assert_string_equal(_job(r, 2), "100:0 1 2"); /* waited for rack 0 */
	assert_string_equal(_job(r, 3), "2:7");	      /* backfilled, best fit */
	fss_metrics_compute(r, &mt);
	assert_int_equal(mt.rack_fit, 4);
	assert_int_equal(mt.rack_fit_one, 4);
	assert_true(mt.rack_fit_share == 1.0);
	_done(r, tr, m);
}

static void test_engine_wait_bound(void **state)
{
	struct fss_trace *tr;
	struct fss_machine *m;
	struct fss_run *r = _run("locality.swf", 8, 4, 0, "rack@0:20", &tr, &m);
	struct fss_metrics mt;

	(void)state;
	assert_string_equal(_job(r, 0), "0:0 1");
	assert_string_equal(_job(r, 1), "0:4 5 6");
	assert_string_equal(_job(r, 2), "21:2 3 7"); /* relaxed at 1 + 20 */
	assert_string_equal(_job(r, 3), "2:7");
	assert_int_equal(r->jobs[2].nracks, 2);
	fss_metrics_compute(r, &mt);
	assert_int_equal(mt.jobs, 4);
	assert_int_equal(mt.rack_fit, 4);
	assert_int_equal(mt.rack_fit_one, 3);
	assert_true(mt.rack_fit_share == 0.75);
	assert_true(mt.racks_mean == 1.25);
	assert_true(mt.racks_p95 == 2);
	assert_true(mt.wait_mean == 5);
	assert_true(mt.wait_p95 == 20);
	assert_int_equal(mt.makespan, 200);
	/* 960 node-seconds on 8 nodes over 200 s; 150 of them split */
	assert_true(mt.utilization == 0.6);
	assert_true(mt.split_nodehours_share == 0.15625);
	assert_true(mt.bsld_mean == 1.1);
	_done(r, tr, m);
}

/* Locality target 65 %: the share decides, not the wait (see the
 * comments of target.swf). */
static void test_engine_target(void **state)
{
	struct fss_trace *tr;
	struct fss_machine *m;
	struct fss_run *r = _run("target.swf", 8, 4, 0, "rack/65%", &tr, &m);
	struct fss_metrics mt;

	(void)state;
	assert_string_equal(_job(r, 0), "0:0 1");
	assert_string_equal(_job(r, 1), "0:4 5 6");
	assert_string_equal(_job(r, 2), "1:2 3 7");   /* 2/3 >= 65 %: now */
	assert_string_equal(_job(r, 3), "51:7");      /* best fit */
	assert_string_equal(_job(r, 4), "100:0 1 2"); /* 3/5 < 65 %: waits */
	assert_int_equal(r->jobs[2].nracks, 2);
	fss_metrics_compute(r, &mt);
	assert_int_equal(mt.rack_fit, 5);
	assert_int_equal(mt.rack_fit_one, 4);
	_done(r, tr, m);
	/* without a target the same wait bound never relaxes job 3 early */
	r = _run("target.swf", 8, 4, 0, "rack", &tr, &m);
	assert_string_equal(_job(r, 2), "100:0 1 2");
	_done(r, tr, m);
	/* a 100 % target: every job that fits a rack waits for one */
	r = _run("target.swf", 8, 4, 0, "rack/100", &tr, &m);
	assert_string_equal(_job(r, 2), "100:0 1 2");
	_done(r, tr, m);
}

/* Wait ratio: a job waits for a rack only when one is expected within
 * ratio x its requested time (see the comments of ratio.swf). */
static void test_engine_ratio(void **state)
{
	struct fss_trace *tr;
	struct fss_machine *m;
	struct fss_run *r = _run("ratio.swf", 8, 4, 0, "rack/1x", &tr, &m);

	(void)state;
	assert_string_equal(_job(r, 0), "0:0 1 2");
	assert_string_equal(_job(r, 1), "0:4 5 6");
	assert_string_equal(_job(r, 2), "1:3 7"); /* 99 s > 1 x 50 s: now */
	assert_int_equal(r->jobs[2].nracks, 2);
	_done(r, tr, m);
	r = _run("ratio.swf", 8, 4, 0, "rack/2x", &tr, &m);
	assert_string_equal(_job(r, 2), "100:4 5"); /* 99 s <= 100 s: waits */
	assert_int_equal(r->jobs[2].nracks, 1);
	_done(r, tr, m);
	/* with a target too: relaxed by either */
	r = _run("ratio.swf", 8, 4, 0, "rack/100%/1x", &tr, &m);
	assert_string_equal(_job(r, 2), "1:3 7");
	_done(r, tr, m);
}

static void test_tree(void **state)
{
	struct fss_trace *tr;
	struct fss_machine *m;
	struct fss_run *r = _run("locality.swf", 8, 4, 0, "tree", &tr, &m);

	(void)state;
	assert_string_equal(_job(r, 0), "0:0 1");
	assert_string_equal(_job(r, 1), "0:4 5 6");
	assert_string_equal(_job(r, 2), "1:2 3 7"); /* no waiting */
	assert_string_equal(_job(r, 3), "51:7");    /* best fit: rack 1 */
	_done(r, tr, m);
}

/* tree with --switches=1@wait on the jobs that fit in a rack */
static void test_switches(void **state)
{
	struct fss_trace *tr;
	struct fss_machine *m;
	struct fss_run *r = _run("locality.swf", 8, 4, 0, "switches@10:00", &tr, &m);
	struct fss_metrics mt;

	(void)state;
	assert_string_equal(_job(r, 0), "0:0 1");
	assert_string_equal(_job(r, 1), "0:4 5 6");
	assert_string_equal(_job(r, 2), "100:0 1 2"); /* waited for one leaf */
	assert_string_equal(_job(r, 3), "2:7");	      /* backfilled, best fit */
	fss_metrics_compute(r, &mt);
	assert_true(mt.rack_fit_share == 1.0);
	_done(r, tr, m);
	/* a wait shorter than the rack takes to free: tree's choice at 1 + 20 */
	r = _run("locality.swf", 8, 4, 0, "switches@0:20", &tr, &m);
	assert_string_equal(_job(r, 2), "21:2 3 7");
	assert_int_equal(r->jobs[2].nracks, 2);
	_done(r, tr, m);
}

static void test_firstfit(void **state)
{
	struct fss_trace *tr;
	struct fss_machine *m;
	struct fss_run *r = _run("locality.swf", 8, 4, 0, "firstfit", &tr, &m);

	(void)state;
	assert_string_equal(_job(r, 0), "0:0 1");
	assert_string_equal(_job(r, 1), "0:2 3 4");
	assert_string_equal(_job(r, 2), "1:5 6 7");
	assert_string_equal(_job(r, 3), "51:5");
	assert_int_equal(r->jobs[1].nracks, 2);
	assert_int_equal(r->jobs[2].nracks, 1);
	_done(r, tr, m);
}

/* tree on pods: 4 racks of 2 in 2 pods; lowest switch that fits wins */
static void test_tree_pods(void **state)
{
	struct fss_machine *m;
	struct fss_policy p;
	struct fss_placer *pl;
	uint8_t avail[8] = { 1, 0, 1, 0, 1, 1, 0, 1 };
	int nodes[8], nracks = 0;
	bool loc;
	char err[256];

	(void)state;
	assert_int_equal(fss_machine_fattree(8, 2, 2, &m, err, sizeof(err)), 0);
	assert_int_equal(m->npods, 2);
	assert_int_equal(fss_policy_parse("tree", &p, err, sizeof(err)), 0);
	assert_non_null(pl = fss_placer_new(m, &p));
	/* 2 nodes: rack 2 (4, 5) holds them */
	assert_int_equal(fss_place(pl, avail, 2, 0, nodes, &nracks, &loc), FSS_PLACED);
	assert_int_equal(nodes[0], 4);
	assert_int_equal(nodes[1], 5);
	assert_int_equal(nracks, 1);
	/* 3 nodes: pod 1 (racks 2, 3: 3 free) fits, pod 0 (2 free) not */
	assert_int_equal(fss_place(pl, avail, 3, 0, nodes, &nracks, &loc), FSS_PLACED);
	assert_int_equal(nodes[0], 4);
	assert_int_equal(nodes[1], 5);
	assert_int_equal(nodes[2], 7);
	/* 5 nodes: the root; leaf with most free first (rack 2), then the
	 * lowest index among the others with one free each */
	assert_int_equal(fss_place(pl, avail, 5, 0, nodes, &nracks, &loc), FSS_PLACED);
	assert_int_equal(nracks, 4);
	assert_int_equal(fss_place(pl, avail, 6, 0, nodes, &nracks, &loc), FSS_WAIT);
	assert_int_equal(fss_place(pl, avail, 9, 0, nodes, &nracks, &loc), FSS_NEVER);
	fss_placer_free(pl);
	fss_machine_free(m);
}

static void test_policy_parse(void **state)
{
	struct fss_policy p;
	char err[1024] = "";

	(void)state;
	assert_int_equal(fss_policy_parse("rack@30:00", &p, err, sizeof(err)), 0);
	assert_int_equal(p.kind, FSS_POL_ENGINE);
	assert_int_equal(p.level, FSE_RACK);
	assert_int_equal(p.wait, 1800);
	assert_string_equal(p.name, "rack@00:30:00");
	assert_int_equal(fss_policy_parse("pod", &p, err, sizeof(err)), 0);
	assert_true(p.wait == FSS_INFINITE);
	assert_string_equal(p.name, "pod");
	assert_int_equal(fss_policy_parse("Tree", &p, err, sizeof(err)), 0);
	assert_int_equal(p.kind, FSS_POL_TREE);
	assert_int_equal(fss_policy_parse("firstfit", &p, err, sizeof(err)), 0);
	assert_int_equal(p.kind, FSS_POL_FIRSTFIT);
	assert_int_equal(fss_policy_parse("switch", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "or tree, switches[@wait] or firstfit"));
	assert_int_equal(fss_policy_parse("switches", &p, err, sizeof(err)), 0);
	assert_int_equal(p.kind, FSS_POL_SWITCHES);
	assert_int_equal(p.wait, 300);
	assert_string_equal(p.name, "switches@00:05:00");
	assert_int_equal(fss_policy_parse("switches@10:00", &p, err, sizeof(err)), 0);
	assert_int_equal(p.wait, 600);
	assert_int_equal(fss_policy_parse("switches@soon", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "expected switches@<wait>"));
	assert_int_equal(fss_policy_parse("switches@INFINITE", &p, err, sizeof(err)), -1);
	assert_int_equal(fss_policy_parse("switchesx", &p, err, sizeof(err)), -1);
	/* locality targets */
	assert_int_equal(fss_policy_parse("rack@1-0/99%", &p, err, sizeof(err)), 0);
	assert_int_equal(p.wait, 86400);
	assert_true(p.target == 0.99);
	assert_string_equal(p.name, "rack@1-00:00:00/99%");
	assert_int_equal(fss_policy_parse("pod/98.5", &p, err, sizeof(err)), 0);
	assert_true(p.wait == FSS_INFINITE);
	assert_string_equal(p.name, "pod/98.5%");
	assert_int_equal(fss_policy_parse("rack@30", &p, err, sizeof(err)), 0);
	assert_true(p.target == 0);
	assert_int_equal(fss_policy_parse("any/99", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "needs rack or pod"));
	assert_int_equal(fss_policy_parse("rack/0", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "target '0'"));
	assert_int_equal(fss_policy_parse("rack/101%", &p, err, sizeof(err)), -1);
	assert_int_equal(fss_policy_parse("rack/", &p, err, sizeof(err)), -1);
	assert_int_equal(fss_policy_parse("rack/9y", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "expected a percentage"));
	/* wait ratios */
	assert_int_equal(fss_policy_parse("rack@2-0/2x", &p, err, sizeof(err)), 0);
	assert_int_equal(p.ratio, 2);
	assert_true(p.target == 0);
	assert_int_equal(fss_policy_parse("rack/99%/1000X", &p, err, sizeof(err)), 0);
	assert_int_equal(p.ratio, 1000);
	assert_true(p.target == 0.99);
	assert_int_equal(fss_policy_parse("pod/99%/2x", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "a wait ratio needs rack"));
	static const char *const bad_ratio[] = { "rack/0x",   "rack/1001x", "rack/x",
						 "rack/2.5x", "rack/99%/2", "rack/99%/2xx" };
	for (size_t i = 0; i < sizeof(bad_ratio) / sizeof(bad_ratio[0]); i++) {
		assert_int_equal(fss_policy_parse(bad_ratio[i], &p, err, sizeof(err)), -1);
		if (!strstr(err, "expected a whole number of 1 to 1000 and x") &&
		    !strstr(err, "expected a percentage"))
			fail_msg("%s: %s", bad_ratio[i], err);
	}
	assert_int_equal(fss_policy_parse("rack/2x/99%", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "expected the target before the wait ratio"));
	assert_int_equal(fss_policy_parse("any/2x", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "a wait ratio needs rack"));
	assert_int_equal(fss_policy_parse("rack@x/99", &p, err, sizeof(err)), -1);
}

/* Names show the wait in Slurm time format, as the input reads it (a
 * bare number is minutes), and parse back to the same policy. */
static void test_policy_name(void **state)
{
	static const struct {
		const char *in, *name;
		int64_t wait;
	} cases[] = {
		{ "switches@600", "switches@10:00:00", 36000 },
		{ "switches@10:00", "switches@00:10:00", 600 },
		{ "switches@1-0", "switches@1-00:00:00", 86400 },
		{ "rack@1:00:00", "rack@01:00:00", 3600 },
		{ "rack@60", "rack@01:00:00", 3600 },
		{ "rack@0", "rack@00:00:00", 0 },
		{ "rack@0:20", "rack@00:00:20", 20 },
		{ "pod@30:00", "pod@00:30:00", 1800 },
		{ "any@2-3:04:05", "any@2-03:04:05", 2 * 86400 + 3 * 3600 + 4 * 60 + 5 },
		{ "rack@60/99%", "rack@01:00:00/99%", 3600 },
		{ "rack@2-0/98.5", "rack@2-00:00:00/98.5%", 172800 },
		{ "pod@12:00:00/99.5%", "pod@12:00:00/99.5%", 43200 },
		{ "rack", "rack", FSS_INFINITE },
		{ "rack@INFINITE/99", "rack/99%", FSS_INFINITE },
		{ "rack@2-0/2x", "rack@2-00:00:00/2x", 172800 },
		{ "rack@2-0/99%/2x", "rack@2-00:00:00/99%/2x", 172800 },
	};
	struct fss_policy p, q;
	char err[1024] = "";

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(fss_policy_parse(cases[i].in, &p, err, sizeof(err)), 0);
		assert_string_equal(p.name, cases[i].name);
		assert_true(p.wait == cases[i].wait);
		/* the round trip: the name is the same policy, named alike */
		assert_int_equal(fss_policy_parse(p.name, &q, err, sizeof(err)), 0);
		assert_int_equal(q.kind, p.kind);
		assert_int_equal(q.level, p.level);
		assert_true(q.wait == p.wait);
		assert_true(q.target == p.target);
		assert_int_equal(q.ratio, p.ratio);
		assert_string_equal(q.name, p.name);
		/* a label in CSV, JSON and SVG: no comma, quote or markup */
		assert_null(strpbrk(p.name, ",\"<>&\\ "));
	}
}

/* xorshift: the same trace every time */
static uint64_t _rng = 88172645463325252ull;
static uint32_t _rand(void)
{
	_rng ^= _rng << 13;
	_rng ^= _rng >> 7;
	_rng ^= _rng << 17;
	return (uint32_t)_rng;
}

static const char *_gen_trace(void)
{
	static char p[64];
	int64_t t = 0;
	FILE *f;
	int fd;

	snprintf(p, sizeof(p), "/tmp/test_sim_sched.XXXXXX");
	assert_true((fd = mkstemp(p)) >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	fprintf(f, "; MaxNodes: 64\n; MaxProcs: 64\n");
	for (int j = 1; j <= 3000; j++) {
		int kind = _rand() % 10;
		int n = kind < 6 ? 1 + _rand() % 8 : kind < 9 ? 9 + _rand() % 8 : 17 + _rand() % 48;
		int run = 1 + _rand() % 3600, req = run + _rand() % 3600;

		t += _rand() % 120;
		fprintf(f, "%d %lld -1 %d %d -1 -1 %d %d -1 1 1 1 -1 -1 -1 -1 -1\n", j,
			(long long)t, run, n, _rand() % 5 ? n : -1, _rand() % 7 ? req : -1);
	}
	fclose(f);
	return p;
}

/* No node is used by two jobs at once; jobs start after submission. */
static void _consistent(const struct fss_run *r)
{
	const struct fss_trace *tr = r->trace;
	int64_t *busy_until = calloc(r->machine->nnodes, sizeof(int64_t));
	long *order = malloc(tr->njobs * sizeof(long)), n = 0;

	assert_non_null(busy_until);
	/* jobs by start time (insertion sort on a copy is fine here) */
	for (long j = 0; j < tr->njobs; j++) {
		long k = n++;

		assert_true(r->jobs[j].start >= tr->jobs[j].submit);
		while (k > 0 && r->jobs[order[k - 1]].start > r->jobs[j].start) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = j;
	}
	for (long i = 0; i < n; i++) {
		long j = order[i];
		const int *nodes = r->nodes + r->jobs[j].node_off;

		for (int k = 0; k < tr->jobs[j].nodes; k++) {
			assert_true(busy_until[nodes[k]] <= r->jobs[j].start);
			busy_until[nodes[k]] = r->jobs[j].start + tr->jobs[j].run;
		}
	}
	free(busy_until);
	free(order);
}

static void test_determinism(void **state)
{
	static const char *pols[] = { "rack@600", "pod",	  "any",
				      "rack",	  "rack@600/90%", "rack@600/90%/2x",
				      "tree",	  "switches@600", "firstfit" };
	/* the second run recounts every rack's free nodes at each decision
	 * against those the simulator keeps as jobs start and end */
	const struct fss_sim_opts check = { .check_tally = true }, all = { .check_tally = true,
									   .reserve_all = true,
									   .bf_depth = 20 };
	const char *p = _gen_trace();
	struct fss_trace *tr;
	struct fss_machine *m;
	char err[512];

	(void)state;
	assert_int_equal(fss_swf_read(p, NULL, &tr, err, sizeof(err)), 0);
	assert_int_equal(tr->njobs, 3000);
	assert_int_equal(fss_machine_fattree(64, 16, 2, &m, err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		struct fss_policy pol;
		struct fss_run *a, *b, *c;
		char *ta = NULL, *tb = NULL;
		size_t la = 0, lb = 0;
		FILE *fa, *fb;

		assert_int_equal(fss_policy_parse(pols[i], &pol, err, sizeof(err)), 0);
		assert_int_equal(fss_simulate(m, tr, &pol, NULL, &a, err, sizeof(err)), 0);
		if (fss_simulate(m, tr, &pol, &check, &b, err, sizeof(err)))
			fail_msg("%s: %s", pols[i], err);
		assert_int_equal(a->never, 0);
		_consistent(a);
		/* Slurm's backfill: as consistent, every job started */
		if (fss_simulate(m, tr, &pol, &all, &c, err, sizeof(err)))
			fail_msg("%s, every blocked job reserving: %s", pols[i], err);
		assert_int_equal(c->never, 0);
		_consistent(c);
		fss_run_free(c);
		fa = open_memstream(&ta, &la);
		fb = open_memstream(&tb, &lb);
		fss_schedule_csv(fa, a);
		fss_schedule_csv(fb, b);
		fclose(fa);
		fclose(fb);
		assert_true(la > 3000 * 10);
		assert_int_equal(la, lb);
		assert_memory_equal(ta, tb, la);
		free(ta);
		free(tb);
		fss_run_free(a);
		fss_run_free(b);
	}
	fss_trace_free(tr);
	fss_machine_free(m);
	unlink(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_easy_backfill),	  cmocka_unit_test(test_easy_no_delay),
		cmocka_unit_test(test_reserved_nodes),	  cmocka_unit_test(test_reserve_all),
		cmocka_unit_test(test_engine_rack_waits), cmocka_unit_test(test_engine_wait_bound),
		cmocka_unit_test(test_engine_target),	  cmocka_unit_test(test_tree),
		cmocka_unit_test(test_switches),	  cmocka_unit_test(test_firstfit),
		cmocka_unit_test(test_tree_pods),	  cmocka_unit_test(test_engine_ratio),
		cmocka_unit_test(test_policy_parse),	  cmocka_unit_test(test_policy_name),
		cmocka_unit_test(test_determinism),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
