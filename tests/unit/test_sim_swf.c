/*
 * test_sim_swf.c - the SWF reader of sim/: the -1 rules, header MaxNodes
 * and MaxProcs, processors to nodes, jobs wider than the machine, gzip,
 * and errors naming file and line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "fabsched_sim.h"

static char _path[1024];

static const char *_fixture(const char *name)
{
	const char *dir = getenv("FABSCHED_FIXTURES");

	snprintf(_path, sizeof(_path), "%s/swf/%s", dir ? dir : "tests/fixtures", name);
	return _path;
}

/* Writes text to a temporary file (gzip when gz); returns its path. */
static const char *_tmp(const char *text, int gz)
{
	static char p[64];
	int fd;

	snprintf(p, sizeof(p), "/tmp/test_sim_swf.XXXXXX");
	fd = mkstemp(p);
	assert_true(fd >= 0);
	close(fd);
	if (gz) {
		gzFile g = gzopen(p, "wb");

		assert_non_null(g);
		assert_int_equal(gzwrite(g, text, strlen(text)), (int)strlen(text));
		gzclose(g);
	} else {
		FILE *f = fopen(p, "w");

		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	}
	return p;
}

static void _check_rules(const struct fss_trace *tr)
{
	assert_int_equal(tr->max_nodes, 8);
	assert_int_equal(tr->max_procs, 16);
	assert_int_equal(tr->procs_per_node, 2);
	assert_int_equal(tr->machine_nodes, 8);
	assert_int_equal(tr->lines, 7);
	assert_int_equal(tr->njobs, 4);
	assert_int_equal(tr->dropped_no_run, 1);
	assert_int_equal(tr->dropped_no_procs, 1);
	assert_int_equal(tr->dropped_too_wide, 1);
	assert_int_equal(tr->req_from_run, 1);
	assert_int_equal(tr->req_raised, 1);
	assert_int_equal(tr->procs_from_alloc, 1);
	/* by submit time: 1 (0), 3 (5), 2 (10), 7 (50) */
	assert_int_equal(tr->jobs[0].id, 1);
	assert_int_equal(tr->jobs[0].line, 6);
	assert_int_equal(tr->jobs[0].procs, 4);
	assert_int_equal(tr->jobs[0].nodes, 2);
	assert_int_equal(tr->jobs[0].run, 100);
	assert_int_equal(tr->jobs[0].req, 200);
	assert_int_equal(tr->jobs[1].id, 3);
	assert_int_equal(tr->jobs[1].line, 9);
	assert_int_equal(tr->jobs[1].submit, 5);
	assert_int_equal(tr->jobs[1].nodes, 8);
	assert_int_equal(tr->jobs[1].run, 300);
	assert_int_equal(tr->jobs[1].req, 300);	/* raised from 100 */
	assert_int_equal(tr->jobs[1].status, 0);
	assert_int_equal(tr->jobs[2].id, 2);
	assert_int_equal(tr->jobs[2].procs, 3);	/* allocated */
	assert_int_equal(tr->jobs[2].nodes, 2);	/* ceil(3 / 2) */
	assert_int_equal(tr->jobs[2].req, 50);	/* run time */
	assert_int_equal(tr->jobs[3].id, 7);
	assert_int_equal(tr->jobs[3].nodes, 1);
	assert_int_equal(tr->jobs[3].run, 0);
	assert_int_equal(tr->jobs[3].req, 30);
}

static void test_rules(void **state)
{
	struct fss_trace *tr = NULL;
	char err[512] = "";

	(void)state;
	assert_int_equal(fss_swf_read(_fixture("rules.swf"), NULL, &tr, err, sizeof(err)), 0);
	_check_rules(tr);
	fss_trace_free(tr);
}

static void test_gzip(void **state)
{
	struct fss_trace *tr = NULL;
	char err[512] = "", *text;
	FILE *f;
	long len;
	const char *p;

	(void)state;
	f = fopen(_fixture("rules.swf"), "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, len + 1);
	assert_int_equal(fread(text, 1, len, f), (size_t)len);
	fclose(f);
	p = _tmp(text, 1);
	assert_int_equal(fss_swf_read(p, NULL, &tr, err, sizeof(err)), 0);
	_check_rules(tr);
	fss_trace_free(tr);
	unlink(p);
	free(text);
}

static void test_options(void **state)
{
	struct fss_swf_opts o = { .procs_per_node = 4, .machine_nodes = 2 };
	struct fss_trace *tr = NULL;
	char err[512] = "";

	(void)state;
	/* 4 procs per node: nodes 1, 4 (too wide for 2), 1, 1 */
	assert_int_equal(fss_swf_read(_fixture("rules.swf"), &o, &tr, err, sizeof(err)), 0);
	assert_int_equal(tr->procs_per_node, 4);
	assert_int_equal(tr->machine_nodes, 2);
	assert_int_equal(tr->njobs, 3);
	assert_int_equal(tr->dropped_too_wide, 2);
	assert_int_equal(tr->jobs[0].nodes, 1);
	assert_int_equal(tr->jobs[1].id, 2);
	fss_trace_free(tr);

	o = (struct fss_swf_opts){ .limit = 2 };
	assert_int_equal(fss_swf_read(_fixture("rules.swf"), &o, &tr, err, sizeof(err)), 0);
	assert_int_equal(tr->njobs, 2);
	assert_int_equal(tr->jobs[1].id, 2);
	fss_trace_free(tr);
}

static void test_no_header(void **state)
{
	struct fss_trace *tr = NULL;
	char err[512] = "";
	const char *p = _tmp("1 0 -1 10 3 -1 -1 3 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
			     "2 0 -1 10 5 -1 -1 5 20 -1 1 1 1 -1 -1 -1 -1 -1\n", 0);

	(void)state;
	/* no MaxNodes, MaxProcs: 1 proc per node, machine = widest job */
	assert_int_equal(fss_swf_read(p, NULL, &tr, err, sizeof(err)), 0);
	assert_int_equal(tr->max_nodes, -1);
	assert_int_equal(tr->procs_per_node, 1);
	assert_int_equal(tr->machine_nodes, 5);
	assert_int_equal(tr->njobs, 2);
	fss_trace_free(tr);
	unlink(p);
}

static void _expect_error(const char *text, int gz, const char *what)
{
	struct fss_trace *tr = (struct fss_trace *)1;
	char err[512] = "", want[600];
	const char *p = _tmp(text, gz);

	snprintf(want, sizeof(want), "%s:%s", p, what);
	assert_int_equal(fss_swf_read(p, NULL, &tr, err, sizeof(err)), -1);
	assert_null(tr);
	assert_string_equal(err, want);
	unlink(p);
}

static void test_errors(void **state)
{
	(void)state;
	_expect_error("; MaxNodes: 4\n"
		      "1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
		      "2 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1\n", 0,
		      "3: expected 18 fields, found 17");
	_expect_error("1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1 7\n", 1,
		      "1: expected 18 fields, found 19");
	_expect_error("; x\n\n1 0x -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", 0,
		      "3: field 2 is not a number: '0x'");
	_expect_error("1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
		      "9 -1 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", 1,
		      "2: job 9: submit time unknown");
}

static void test_missing(void **state)
{
	struct fss_trace *tr = NULL;
	char err[512] = "";

	(void)state;
	assert_int_equal(fss_swf_read("/nonexistent/x.swf", NULL, &tr, err, sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/x.swf: No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_no_header),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
