/*
 * test_decide.c - unit tests of the controller's decisions in select/:
 * which setting wins for a job (partition, --fabric-locality, --switches),
 * the wait/relax decision (bound and LocalityTarget), what to do with a
 * job the engine did not place, and the locality record (shares per
 * partition, decisions pending until the job starts, state text round
 * trip, malformed lines).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabsched_select.h"

static void test_policy(void **state)
{
	struct fse_policy_in in = {
		.part_level = FSE_RACK, .part_wait = 600, .part_max_racks = 3, .part_target = 0.9
	};
	struct fse_policy p;

	(void)state;
	fse_policy_resolve(&in, &p);
	assert_int_equal(p.level, FSE_RACK);
	assert_true(p.wait == 600);
	assert_int_equal(p.max_racks, 3);
	assert_int_equal(p.from, FSE_FROM_PARTITION);
	assert_string_equal(fse_policy_from_name(p.from), "partition");
	/* --fabric-locality=pod: its level, the partition's wait */
	in.job_set = true;
	in.job_level = FSE_POD;
	fse_policy_resolve(&in, &p);
	assert_int_equal(p.level, FSE_POD);
	assert_true(p.wait == 600);
	assert_int_equal(p.from, FSE_FROM_OPTION);
	/* --fabric-locality=any@0 */
	in.job_level = FSE_ANY;
	in.job_wait_set = true;
	in.job_wait = 0;
	fse_policy_resolve(&in, &p);
	assert_int_equal(p.level, FSE_ANY);
	assert_true(p.wait == 0);
	assert_int_equal(p.max_racks, 3);
	/* --switches=2@60 wins, sets the racks */
	in.switches = true;
	in.switches_racks = 2;
	in.switches_wait = 60;
	fse_policy_resolve(&in, &p);
	assert_int_equal(p.level, FSE_RACK);
	assert_true(p.wait == 60);
	assert_int_equal(p.max_racks, 2);
	assert_string_equal(fse_policy_from_name(p.from), "--switches");
	assert_true(p.target > 0.89 && p.target < 0.91);
}

static void test_relaxed(void **state)
{
	struct fse_policy p = { .level = FSE_RACK, .wait = 60 };
	struct fse_share *s = fse_share_new(10);
	bool by = true;

	(void)state;
	assert_false(fse_decide_relaxed(&p, 59, NULL, true, &by));
	assert_false(by);
	assert_true(fse_decide_relaxed(&p, 60, NULL, true, &by));
	assert_false(by);
	p.wait = FSE_WAIT_INFINITE;
	assert_false(fse_decide_relaxed(&p, 1u << 30, NULL, true, NULL));
	/* a target: 9 of 10 got their domain, this one a miss: 9/11 */
	p.target = 0.8;
	for (int i = 0; i < 9; i++)
		fse_share_push(s, true);
	fse_share_push(s, false);
	assert_true(fse_decide_relaxed(&p, 0, s, true, &by));
	assert_true(by);
	p.target = 0.85;
	assert_false(fse_decide_relaxed(&p, 0, s, true, &by));
	/* a job that fits no domain of its level never waits under a target */
	assert_true(fse_decide_relaxed(&p, 0, s, false, &by));
	assert_true(by);
	fse_share_free(s);
}

static void test_unplaced(void **state)
{
	struct fse_request rq = { .min_nodes = 4, .level = FSE_RACK };
	struct fse_result res = { .status = FSE_NEVER };

	(void)state;
	/* capacity: Slurm decides; MaxRacks: the policy keeps it waiting */
	assert_int_equal(fse_decide_unplaced(&rq, &res, 0), FSE_ACT_BACKEND);
	rq.max_racks = 1;
	assert_int_equal(fse_decide_unplaced(&rq, &res, 0), FSE_ACT_WAIT);
	rq.max_racks = 0;
	res.status = FSE_NOT_NOW;
	res.could_relax = true;
	assert_int_equal(fse_decide_unplaced(&rq, &res, 0), FSE_ACT_WAIT);
	res.could_relax = false;
	assert_int_equal(fse_decide_unplaced(&rq, &res, 0), FSE_ACT_RESOURCES);
	/* domains tried, the backend refused each */
	assert_int_equal(fse_decide_unplaced(&rq, &res, 2), FSE_ACT_WAIT);
	rq.relaxed = true;
	assert_int_equal(fse_decide_unplaced(&rq, &res, 2), FSE_ACT_ANY);
	rq.relaxed = false;
	rq.level = FSE_ANY;
	assert_int_equal(fse_decide_unplaced(&rq, &res, 0), FSE_ACT_ANY);
	assert_int_equal(fse_decide_unplaced(NULL, &res, 0), FSE_ACT_RESOURCES);
}

/* job states for fse_locality_commit: 1 pending, 2 started, else gone */
static enum fse_job_state _state(uint32_t id, void *arg)
{
	const int *st = arg;

	return st[id] == 1 ? FSE_JOB_PENDING : st[id] == 2 ? FSE_JOB_STARTED : FSE_JOB_GONE;
}

static char *_text(struct fse_locality *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fse_locality_write(l, f), 0);
	fclose(f);
	return buf;
}

static void test_locality_record(void **state)
{
	struct fse_locality *l = fse_locality_new(3), *r;
	int st[10] = { 0 }, batch, none;
	unsigned n;
	char *text, *again, err[512];
	FILE *f;

	(void)state;
	assert_non_null(l);
	batch = fse_locality_part(l, "batch");
	none = fse_locality_part(l, NULL);
	assert_int_equal(fse_locality_part(l, "batch"), batch);
	assert_int_equal(fse_locality_nparts(l), 2);
	assert_string_equal(fse_locality_part_name(l, none), "");
	fse_locality_count(l, batch, true);
	fse_locality_count(l, batch, false);
	assert_true(fse_locality_dirty(l));
	/* decisions pending: 1 and 2 counted, 3 did not fit a domain */
	assert_int_equal(fse_locality_pend(l, 1, batch, true, true, "n1"), 0);
	assert_int_equal(fse_locality_pend(l, 2, none, true, false, NULL), 0);
	assert_int_equal(fse_locality_pend(l, 3, batch, false, false, "n3"), 0);
	assert_string_equal(fse_locality_note(l, 1), "n1");
	fse_locality_drop_note(l, 1);
	assert_null(fse_locality_note(l, 1));
	assert_int_equal(fse_locality_pend(l, 9, 7, true, true, NULL), -1);

	/* state text round trip (a partition with nothing remembered has no
	 * share line) */
	text = _text(l);
	assert_false(fse_locality_dirty(l));
	assert_string_equal(strchr(text, '\n') + 1,
			    "share batch 10\npending 1 batch 11\npending 2 - 10\n");
	r = fse_locality_new(0);
	f = fmemopen(text, strlen(text), "r");
	assert_int_equal(fse_locality_read(r, f, "state", err, sizeof(err)), 0);
	fclose(f);
	again = _text(r);
	assert_string_equal(again, text);
	free(again);
	fse_locality_free(r);

	/* 1 started (counted: got), 2 still pending, 3 gone */
	st[1] = 2;
	st[2] = 1;
	assert_int_equal(fse_locality_commit(l, _state, st), 1);
	assert_int_equal(fse_locality_npend(l), 1);
	assert_true(fse_share_get(fse_locality_share(l, batch), &n) > 0.66);
	assert_int_equal(n, 3);
	/* a full locality record forgets its oldest */
	fse_locality_pend(l, 4, batch, true, true, NULL);
	fse_locality_pend(l, 5, batch, true, true, NULL);
	fse_locality_pend(l, 6, batch, true, true, NULL);
	assert_int_equal(fse_locality_npend(l), 3);
	st[2] = 2;
	st[4] = st[5] = st[6] = 1;
	assert_int_equal(fse_locality_commit(l, _state, st), 0); /* 2 dropped */
	free(text);
	fse_locality_free(l);
}

static void test_locality_record_bad(void **state)
{
	static const char bad[] = "# comment\n"
				  "share batch 1101\n"
				  "share batch 12\n"
				  "pending 0 batch 11\n"
				  "pending 5 batch 1\n"
				  "pending -3 batch 11\n"
				  "pending 18446744073709551616 batch 11\n"
				  "junk\n"
				  "pending 7 batch 10\n";
	struct fse_locality *l = fse_locality_new(0);
	char err[512];
	unsigned n;
	FILE *f = fmemopen((void *)bad, strlen(bad), "r");

	(void)state;
	assert_int_equal(fse_locality_read(l, f, "fabsched_locality_share", err, sizeof(err)), -1);
	fclose(f);
	assert_non_null(strstr(
		err, "fabsched_locality_share:3: 6 malformed line(s) of 9 ignored; expected"));
	/* the good lines are kept */
	fse_share_get(fse_locality_share(l, 0), &n);
	assert_int_equal(n, 4);
	assert_int_equal(fse_locality_npend(l), 1);
	fse_locality_free(l);
	assert_null(fse_locality_share(NULL, 0));
	fse_locality_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy),
		cmocka_unit_test(test_relaxed),
		cmocka_unit_test(test_unplaced),
		cmocka_unit_test(test_locality_record),
		cmocka_unit_test(test_locality_record_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
