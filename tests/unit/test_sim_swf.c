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

/* A trace of n jobs of procs[i % np] processors, one every 100 s, each
 * running run s, after header lines hdr. */
static const char *_trace(const char *hdr, const int *procs, int np, int n,
			  int run)
{
	static char text[65536];
	size_t k = (size_t)snprintf(text, sizeof(text), "%s", hdr);

	for (int i = 0; i < n && k < sizeof(text) - 128; i++)
		k += (size_t)snprintf(text + k, sizeof(text) - k,
				      "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 -1 -1 -1 -1 -1\n",
				      i + 1, i * 100, run, procs[i % np],
				      procs[i % np], run);
	return _tmp(text, 0);
}

static struct fss_trace *_read(const char *p)
{
	struct fss_trace *tr = NULL;
	char err[512] = "";

	if (fss_swf_read(p, NULL, &tr, err, sizeof(err)))
		fail_msg("%s", err);
	unlink(p);
	return tr;
}

/* Mixed node types: MaxProcs is no multiple of MaxNodes. */
static void test_node_size(void **state)
{
	static const int by8[] = { 8, 16, 32, 64, 8, 24, 40, 8 };
	static const int odd[] = { 1, 3, 5, 7, 9, 11, 13 };
	struct fss_trace *tr;
	char warn[1024];

	(void)state;
	/* jobs in whole 8-processor nodes: 8, not 1 (each job 8 times too
	 * wide, the wide ones dropped) */
	tr = _read(_trace("; MaxNodes: 150\n; MaxProcs: 1000\n", by8, 8, 40, 50));
	assert_int_equal(tr->procs_per_node, 8);
	assert_non_null(strstr(tr->procs_why, "100% of the jobs ask a multiple of 8 processors (MaxProcs/MaxNodes is not whole)"));
	assert_int_equal(tr->dropped_too_wide, 0);
	assert_int_equal(tr->jobs[3].nodes, 8);
	assert_int_equal(fss_trace_warnings(tr, warn, sizeof(warn)), 0);
	fss_trace_free(tr);
	/* a header note says it */
	tr = _read(_trace("; MaxNodes: 130\n; MaxProcs: 2050\n"
			  "; Note: 128 nodes with 16 cores each, 2 login nodes\n",
			  odd, 7, 40, 50));
	assert_int_equal(tr->procs_per_node, 16);
	assert_string_equal(tr->procs_why, "a header note says so");
	fss_trace_free(tr);
	tr = _read(_trace("; Note: the machine has 4-way SMP nodes\n", odd, 7, 40, 50));
	assert_int_equal(tr->procs_per_node, 4);
	fss_trace_free(tr);
	/* no common divisor: the ratio, rounded */
	tr = _read(_trace("; MaxNodes: 150\n; MaxProcs: 1000\n", odd, 7, 40, 50));
	assert_int_equal(tr->procs_per_node, 7);
	assert_non_null(strstr(tr->procs_why, "MaxProcs 1000 / MaxNodes 150 = 6.67, rounded"));
	fss_trace_free(tr);
	/* a MaxProcs beyond 32 bits (held as INT32_MAX): the divisor's cap
	 * is computed without overflow (found by fuzz_files) */
	tr = _read(_trace("; MaxNodes: 7\n; MaxProcs: 16020000000\n", by8, 8, 40, 50));
	assert_int_equal(tr->max_procs, INT32_MAX);
	assert_int_equal(tr->procs_per_node, 8);
	fss_trace_free(tr);
	/* nothing says: 1, and the reason tells to give --ppn */
	tr = _read(_trace("", odd, 7, 40, 50));
	assert_int_equal(tr->procs_per_node, 1);
	assert_non_null(strstr(tr->procs_why, "give --ppn"));
	fss_trace_free(tr);
}

/* A status (field 11) beyond an int is kept as unknown, without the
 * conversion overflowing (found by fuzz_files). */
static void test_status_range(void **state)
{
	struct fss_trace *tr;

	(void)state;
	tr = _read(_tmp("1 0 -1 300 -1 -1 -1 4 100 -1 3777777777731 1 1 -1 -1 -1 -1 -1\n"
			"2 5 -1 300 -1 -1 -1 4 100 -1 -3777777777731 1 1 -1 -1 -1 -1 -1\n"
			"3 9 -1 300 -1 -1 -1 4 100 -1 5 1 1 -1 -1 -1 -1 -1\n", 0));
	assert_int_equal(tr->njobs, 3);
	assert_int_equal(tr->jobs[0].status, -1);
	assert_int_equal(tr->jobs[1].status, -1);
	assert_int_equal(tr->jobs[2].status, 5);
	fss_trace_free(tr);
}

/* Warnings: jobs dropped, and a replay asking more than the machine. */
static void test_trace_warnings(void **state)
{
	static const int sz[] = { 16, 16, 16, 16, 16, 16, 16, 16, 16, 400 };
	struct fss_trace *tr;
	char warn[1024];

	(void)state;
	/* 100 nodes of 16: a job every 100 s for 2000 s, one in ten of 25
	 * nodes: about half the machine */
	tr = _read(_trace("; MaxNodes: 100\n; MaxProcs: 1600\n", sz, 10, 100, 2000));
	assert_int_equal(tr->dropped_too_wide, 0);
	assert_true(fss_trace_load(tr) > 0.3 && fss_trace_load(tr) < 1);
	assert_int_equal(fss_trace_warnings(tr, warn, sizeof(warn)), 0);
	fss_trace_free(tr);
	/* 10 nodes of 16: the 400-processor jobs (25 nodes) are dropped
	 * (10%), and the rest asks 4.5 times the machine */
	tr = _read(_trace("; MaxNodes: 10\n; MaxProcs: 160\n", sz, 10, 100, 5000));
	assert_int_equal(tr->dropped_too_wide, 10);
	assert_int_equal(fss_trace_warnings(tr, warn, sizeof(warn)), 2);
	assert_non_null(strstr(warn, "warning: 10.0% of the trace's jobs were dropped (10 too wide for 10 nodes at 16 processors per node"));
	assert_non_null(strstr(warn, "warning: the replay asks 3."));
	fss_trace_free(tr);
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
		      "3: field 2 is not a number: '0x'; expected 18 numbers per job line (SWF; -1: unknown)");
	_expect_error("1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
		      "9 -1 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", 1,
		      "2: job 9: submit time unknown; expected field 2 (seconds from the log's start) of 0 or more");
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
		cmocka_unit_test(test_node_size),
		cmocka_unit_test(test_status_range),
		cmocka_unit_test(test_trace_warnings),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
