/*
 * test_sim_swf.c - the SWF reader of sim/: the -1 rules, header MaxNodes
 * and MaxProcs, node types and other notes, processors to nodes, jobs
 * wider than the machine, gzip, and errors naming file and line.
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

#include "test_files.h"

#include "fabsched_sim.h"

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
	assert_int_equal(tr->jobs[1].req, 300); /* raised from 100 */
	assert_int_equal(tr->jobs[1].status, 0);
	assert_int_equal(tr->jobs[2].id, 2);
	assert_int_equal(tr->jobs[2].procs, 3); /* allocated */
	assert_int_equal(tr->jobs[2].nodes, 2); /* ceil(3 / 2) */
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
	assert_int_equal(fss_swf_read(tf_fixture("swf", "rules.swf"), NULL, &tr, err, sizeof(err)),
			 0);
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
	f = fopen(tf_fixture("swf", "rules.swf"), "r");
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
	assert_int_equal(fss_swf_read(tf_fixture("swf", "rules.swf"), &o, &tr, err, sizeof(err)),
			 0);
	assert_int_equal(tr->procs_per_node, 4);
	assert_int_equal(tr->machine_nodes, 2);
	assert_int_equal(tr->njobs, 3);
	assert_int_equal(tr->dropped_too_wide, 2);
	assert_int_equal(tr->jobs[0].nodes, 1);
	assert_int_equal(tr->jobs[1].id, 2);
	fss_trace_free(tr);

	o = (struct fss_swf_opts){ .limit = 2 };
	assert_int_equal(fss_swf_read(tf_fixture("swf", "rules.swf"), &o, &tr, err, sizeof(err)),
			 0);
	assert_int_equal(tr->njobs, 2);
	assert_int_equal(tr->jobs[1].id, 2);
	fss_trace_free(tr);
}

static void test_no_header(void **state)
{
	struct fss_trace *tr = NULL;
	char err[512] = "";
	const char *p = _tmp("1 0 -1 10 3 -1 -1 3 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
			     "2 0 -1 10 5 -1 -1 5 20 -1 1 1 1 -1 -1 -1 -1 -1\n",
			     0);

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
static const char *_trace(const char *hdr, const int *procs, int np, int n, int run)
{
	static char text[65536];
	size_t k = (size_t)snprintf(text, sizeof(text), "%s", hdr);

	for (int i = 0; i < n && k < sizeof(text) - 128; i++)
		k += (size_t)snprintf(text + k, sizeof(text) - k,
				      "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 -1 -1 -1 -1 -1\n", i + 1,
				      i * 100, run, procs[i % np], procs[i % np], run);
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
	assert_string_equal(
		tr->procs_why,
		"the job widths' divisor: 100% of the 40 multi-processor jobs ask a multiple of 8 processors (MaxProcs/MaxNodes is not whole)");
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

/* Widths of which 76 % are even but none a multiple of 4, the rest odd:
 * the old rule (3 in 4 of all jobs) took 2 processors per node. */
static const int _even76[] = {
	2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 46, 50, 54, 58, 62, 66, 70, 74, 1, 3, 5, 7, 9, 11,
};

/* The header of a machine of three node types (the reported case). */
#define TYPES_HDR                                                      \
	"; MaxNodes: 5544\n"                                           \
	"; Note: 5040 thin nodes + 360 fat nodes + 144 hybrid nodes\n" \
	"; MaxProcs: 93312\n"                                          \
	"; Note: 80640 in thin nodes + 11520 in fat nodes + 1152 in hybrid nodes\n"

/* Node types of the header notes: the majority type gives the node size
 * (the machine model holds one size), never the width divisor 2. */
static void test_node_types(void **state)
{
	struct fss_trace *tr;

	(void)state;
	tr = _read(_trace(TYPES_HDR, _even76, 25, 100, 50));
	assert_int_equal(tr->ntypes, 3);
	assert_string_equal(tr->types[0].name, "thin");
	assert_int_equal(tr->types[0].nodes, 5040);
	assert_int_equal(tr->types[0].procs, 80640);
	assert_string_equal(tr->types[1].name, "fat");
	assert_int_equal(tr->types[1].nodes, 360);
	assert_int_equal(tr->types[1].procs, 11520);
	assert_string_equal(tr->types[2].name, "hybrid");
	assert_int_equal(tr->types[2].nodes, 144);
	assert_int_equal(tr->types[2].procs, 1152);
	assert_int_equal(tr->type_major, 0);
	assert_int_equal(tr->procs_per_node, 16);
	assert_string_equal(
		tr->procs_why,
		"the log's majority node type, thin: 5040 of 5544 nodes, 80640/5040 processors; 504 nodes of other types (fat: 32, hybrid: 8) modelled as thin");
	assert_int_equal(tr->header_ignored, 0);
	assert_string_equal(tr->header_why, "");
	assert_int_equal(tr->machine_nodes, 5544);
	assert_int_equal(tr->jobs[18].procs, 74);
	assert_int_equal(tr->jobs[18].nodes, 5); /* ceil(74 / 16) */
	assert_int_equal(tr->dropped_too_wide, 0);
	fss_trace_free(tr);

	/* processors first, with a unit, no MaxNodes or MaxProcs: the
	 * types' nodes are the machine; the type names match in any case */
	tr = _read(_trace("; Note: 3072 cores in Thin nodes + 2048 cores in fat nodes\n"
			  "; Note: 96 thin nodes + 32 FAT nodes\n",
			  _even76, 25, 100, 50));
	assert_int_equal(tr->ntypes, 2);
	assert_int_equal(tr->procs_per_node, 32);
	assert_string_equal(
		tr->procs_why,
		"the log's majority node type, thin: 96 of 128 nodes, 3072/96 processors; 32 nodes of other types (fat: 64) modelled as thin");
	assert_int_equal(tr->machine_nodes, 128);
	fss_trace_free(tr);

	/* a type without processors is fine when it is not the majority */
	tr = _read(_trace("; MaxNodes: 100\n"
			  "; Note: 90 compute nodes + 6 gpu nodes + 4 service nodes\n"
			  "; Note: 2160 in compute nodes + 192 in gpu nodes\n",
			  _even76, 25, 100, 50));
	assert_int_equal(tr->procs_per_node, 24);
	assert_string_equal(
		tr->procs_why,
		"the log's majority node type, compute: 90 of 100 nodes, 2160/90 processors; 10 nodes of other types (gpu: 32, service) modelled as compute");
	fss_trace_free(tr);
}

/* MaxProcs / MaxNodes whole: that, whatever the widths. */
static void test_node_size_ratio(void **state)
{
	struct fss_trace *tr;

	(void)state;
	tr = _read(_trace("; MaxNodes: 128\n; MaxProcs: 1024\n", _even76, 25, 100, 50));
	assert_int_equal(tr->procs_per_node, 8);
	assert_string_equal(tr->procs_why, "MaxProcs 1024 / MaxNodes 128");
	assert_int_equal(tr->machine_nodes, 128);
	fss_trace_free(tr);
}

/* MaxProcs / MaxNodes not whole, no note: a width divisor only when it is
 * 8 or more and 9 in 10 multi-processor jobs share it, else the ratio
 * rounded. */
static void test_node_size_divisor(void **state)
{
	/* 30 % serial jobs, the rest multiples of 8 */
	static const int serial[] = { 1, 1, 1, 8, 16, 8, 32, 64, 8, 24 };
	/* 85 % of the multi-processor jobs multiples of 8 */
	static const int by8_85[] = {
		8, 16, 8, 32, 8, 8, 24, 8, 16, 8, 8, 64, 8, 8, 16, 8, 8, 14, 6, 10,
	};
	struct fss_trace *tr;

	(void)state;
	/* widths mostly even: 2 is no node size */
	tr = _read(_trace("; MaxNodes: 150\n; MaxProcs: 1000\n", _even76, 25, 100, 50));
	assert_int_equal(tr->procs_per_node, 7);
	assert_string_equal(tr->procs_why, "MaxProcs 1000 / MaxNodes 150 = 6.67, rounded");
	fss_trace_free(tr);
	/* serial jobs do not count against the divisor */
	tr = _read(_trace("; MaxNodes: 150\n; MaxProcs: 1000\n", serial, 10, 100, 50));
	assert_int_equal(tr->procs_per_node, 8);
	assert_string_equal(
		tr->procs_why,
		"the job widths' divisor: 100% of the 70 multi-processor jobs ask a multiple of 8 processors (MaxProcs/MaxNodes is not whole)");
	fss_trace_free(tr);
	/* 85 % is not enough */
	tr = _read(_trace("; MaxNodes: 150\n; MaxProcs: 1000\n", by8_85, 20, 100, 50));
	assert_int_equal(tr->procs_per_node, 7);
	assert_string_equal(
		tr->procs_why,
		"MaxProcs 1000 / MaxNodes 150 = 6.67, rounded; the job widths' divisor 2 (100% of the 100 multi-processor jobs) is below 8: no node size");
	fss_trace_free(tr);
	/* only MaxProcs: the divisor is at most that */
	tr = _read(_trace("; MaxProcs: 1024\n", serial, 10, 100, 50));
	assert_int_equal(tr->procs_per_node, 8);
	assert_int_equal(tr->machine_nodes, 8); /* the widest job */
	fss_trace_free(tr);
	tr = _read(_trace("; MaxProcs: 4\n", serial, 10, 100, 50));
	assert_int_equal(tr->procs_per_node, 1);
	assert_string_equal(
		tr->procs_why,
		"nothing in the trace says: 1 (give --ppn); the job widths' divisor 4 (100% of the 70 multi-processor jobs) is below 8: no node size");
	fss_trace_free(tr);
}

/* No header, widths multiples of 2 only: not 2 but 1, saying why and
 * asking for --ppn. */
static void test_node_size_no_header(void **state)
{
	struct fss_trace *tr;

	(void)state;
	tr = _read(_trace("", _even76, 19, 40, 50));
	assert_int_equal(tr->procs_per_node, 1);
	assert_string_equal(
		tr->procs_why,
		"nothing in the trace says: 1 (give --ppn); the job widths' divisor 2 (100% of the 40 multi-processor jobs) is below 8: no node size");
	assert_int_equal(tr->machine_nodes, 74); /* the widest job */
	assert_int_equal(tr->dropped_too_wide, 0);
	fss_trace_free(tr);
}

/* The simple note forms of real headers. */
static void test_node_size_notes(void **state)
{
	static const struct {
		const char *note;
		int ppn;
	} c[] = {
		{ "; Note: Each node has 2 sockets with 12 cores\n", 24 },
		{ "; Note: dual-socket nodes, 8 cores per socket\n", 16 },
		{ "; Note: 2 sockets x 8 cores each\n", 16 },
		{ "; Note: 16 cores per node\n", 16 },
		{ "; Note: 2 sockets, 32 cores per node\n", 32 },
		{ "; Note: 128 16-core nodes\n", 16 },
		{ "; Note: 4-way SMP nodes\n", 4 },
	};
	static const int odd[] = { 1, 3, 5, 7, 9, 11, 13 };

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char hdr[256];
		struct fss_trace *tr;

		snprintf(hdr, sizeof(hdr), "; MaxNodes: 150\n; MaxProcs: 1000\n%s", c[i].note);
		tr = _read(_trace(hdr, odd, 7, 40, 50));
		if (tr->procs_per_node != c[i].ppn)
			fail_msg("%s: %d processors per node (%s), expected %d", c[i].note,
				 tr->procs_per_node, tr->procs_why, c[i].ppn);
		assert_string_equal(tr->procs_why, "a header note says so");
		assert_int_equal(tr->header_ignored, 0);
		fss_trace_free(tr);
	}
}

/* A node type note of another form is ignored with the reason, and so
 * are types that disagree with the header; never a failed read. */
static void test_node_types_malformed(void **state)
{
	static const struct {
		const char *hdr;
		const char *why;
		int ignored;
	} c[] = {
		{ "; Note: 5040 thin nodes + 360\n",
		  "line 1: node type note ignored: term 2 '360' names no nodes; expected '<count> <type> nodes' or '<processors> in <type> nodes' joined by '+'",
		  1 },
		{ "; Note: 5040 thin nodes + 360 fat nodes +\n",
		  "line 1: node type note ignored: term 3 '' does not start with a number;", 1 },
		{ "; Note: 5040 thin nodes + + 360 fat nodes\n",
		  "line 1: node type note ignored: term 2 '' does not start with a number;", 1 },
		{ "; Note: 80640 cores thin nodes + 1 fat node\n",
		  "term 1 '80640 cores thin nodes' counts processors but not 'in' a node type;",
		  1 },
		{ "; Note: 99999999999 thin nodes + 1 fat nodes\n",
		  "term 1 '99999999999 thin nodes' has a number out of 1..2147483647;", 1 },
		{ "; Note: 5 nodes + 3 fat nodes\n", "term 1 '5 nodes' names no node type;", 1 },
		{ "; Note: 5 in 128 nodes + 3 fat nodes\n",
		  "term 1 '5 in 128 nodes' names a number, not a node type;", 1 },
		{ "; Note: 5 th!n nodes + 3 fat nodes\n",
		  "term 1 '5 th!n nodes' names a node type with a '!';", 1 },
		{ "; Note: 5 a-very-long-name-of-a-type-of-node nodes + 1 x nodes\n",
		  "names a node type longer than 31 characters;", 1 },
		{ "; Note: 5 thin nodes + 3 thin nodes\n",
		  "line 1: node type note ignored: the nodes of node type 'thin' are given twice",
		  1 },
		{ "; Note: 1 a nodes + 1 b nodes + 1 c nodes + 1 d nodes + 1 e nodes + 1 f nodes\n"
		  "; Note: 1 g nodes + 1 h nodes + 1 i nodes + 1 j nodes + 1 k nodes + 1 l nodes\n"
		  "; Note: 1 m nodes + 1 n nodes + 1 o nodes + 1 p nodes + 1 q nodes\n",
		  "line 3: node type note ignored: more than 16 node types", 2 },
		{ "; MaxNodes: 100\n; Note: 90 thin nodes + 20 fat nodes\n",
		  "node types not used: their nodes add up to 110, MaxNodes says 100", 1 },
		{ "; MaxProcs: 100\n; Note: 9 thin nodes + 1 fat nodes\n"
		  "; Note: 72 in thin nodes + 32 in fat nodes\n",
		  "node types not used: their processors add up to 104, MaxProcs says 100", 1 },
		{ "; Note: 9 thin nodes + 1 fat nodes\n; Note: 32 in fat nodes + 8 in gpu nodes\n",
		  "node types not used: type 'gpu' has processors (8) but no node count; expected a note '<count> gpu nodes + ...'",
		  1 },
		{ "; Note: 9 thin nodes + 1 fat nodes\n; Note: 32 in fat nodes\n",
		  "node types not used: the majority type 'thin' has no processor count; expected a note '<processors> in thin nodes + ...'",
		  1 },
		{ "; Note: 9 thin nodes + 1 fat nodes\n; Note: 80 in thin nodes + 32 in fat nodes\n",
		  "node types not used: 80 processors in 9 thin nodes is no whole number per node",
		  1 },
	};
	struct fss_trace *tr;

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		tr = _read(_trace(c[i].hdr, _even76, 25, 100, 50));
		if (!strstr(tr->header_why, c[i].why))
			fail_msg("%s: header_why '%s', expected '%s'", c[i].hdr, tr->header_why,
				 c[i].why);
		assert_int_equal(tr->header_ignored, c[i].ignored);
		assert_int_equal(tr->type_major, -1);
		assert_int_equal(tr->procs_per_node, 1); /* the widths say nothing */
		fss_trace_free(tr);
	}
	/* the reported header with a broken count note: both notes are
	 * ignored (the second for its lack of counts), the ratio rounded */
	tr = _read(
		_trace("; MaxNodes: 5544\n"
		       "; Note: 5040 thin nodes + 360 fat nodes + many hybrid nodes\n"
		       "; MaxProcs: 93312\n"
		       "; Note: 80640 in thin nodes + 11520 in fat nodes + 1152 in hybrid nodes\n",
		       _even76, 25, 100, 50));
	assert_int_equal(tr->header_ignored, 2);
	assert_string_equal(
		tr->header_why,
		"line 2: node type note ignored: term 3 'many hybrid nodes' does not start with a number; expected '<count> <type> nodes' or '<processors> in <type> nodes' joined by '+'");
	assert_int_equal(tr->procs_per_node, 17);
	assert_string_equal(tr->procs_why, "MaxProcs 93312 / MaxNodes 5544 = 16.83, rounded");
	fss_trace_free(tr);
	/* the cleaned logs' notes, and other notes, are no node type notes */
	tr = _read(
		_trace("; Note: uses MAUI scheduler\n"
		       "; Note: THIS IS A CLEANED VERSION OF THE LOG!\n"
		       ";         user=60 and (job>=254200 and job<=271542) (12333 jobs removed)\n"
		       "; Note: 2+2 is not a node\n",
		       _even76, 25, 100, 50));
	assert_int_equal(tr->header_ignored, 1); /* the last one */
	assert_int_equal(tr->ntypes, 0);
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
			"3 9 -1 300 -1 -1 -1 4 100 -1 5 1 1 -1 -1 -1 -1 -1\n",
			0));
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
	assert_non_null(strstr(
		warn,
		"warning: 10.0% of the trace's jobs were dropped (10 too wide for 10 nodes at 16 processors per node"));
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
		      "2 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1\n",
		      0, "3: expected 18 fields, found 17");
	_expect_error("1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1 7\n", 1,
		      "1: expected 18 fields, found 19");
	_expect_error(
		"; x\n\n1 0x -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", 0,
		"3: field 2 is not a number: '0x'; expected 18 numbers per job line (SWF; -1: unknown)");
	_expect_error(
		"1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
		"9 -1 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n",
		1,
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

/* 200 one-node jobs, one every 100 s, read into *tr; their submit
 * times by id into at[] (ids 1-200). */
static void _jobs_every_100s(struct fss_trace **tr, int64_t *at)
{
	char *text = malloc(200 * 64 + 64);
	const char *p;
	size_t n;

	assert_non_null(text);
	n = (size_t)sprintf(text, "; MaxNodes: 8\n; MaxProcs: 8\n");
	for (int i = 1; i <= 200; i++)
		n += (size_t)sprintf(text + n, "%d %d 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n",
				     i, 1000 + 100 * i);
	p = _tmp(text, 0);
	assert_int_equal(fss_swf_read(p, NULL, tr, NULL, 0), 0);
	unlink(p);
	free(text);
	assert_int_equal((*tr)->njobs, 200);
	for (long i = 0; i < (*tr)->njobs; i++)
		at[(*tr)->jobs[i].id] = (*tr)->jobs[i].submit;
}

static void test_jitter(void **state)
{
	struct fss_trace *a = NULL, *b = NULL;
	int64_t at[201], dmin = INT64_MAX, dmax = INT64_MIN, first = INT64_MAX;
	bool differs = false;

	(void)state;
	_jobs_every_100s(&a, at);
	/* 0 seconds: nothing moves; a negative span is refused */
	assert_int_equal(fss_trace_jitter(a, 0, 1), 0);
	for (long i = 0; i < a->njobs; i++)
		assert_int_equal(a->jobs[i].submit, at[a->jobs[i].id]);
	assert_int_equal(fss_trace_jitter(a, -1, 1), -1);
	assert_int_equal(fss_trace_jitter(NULL, 60, 1), -1);

	/* 60 s either way: every job moved by the same base (the times are
	 * counted from the earliest again) plus at most 120 s of spread,
	 * most of that spread used, in submit order, lines on ties */
	assert_int_equal(fss_trace_jitter(a, 60, 1), 0);
	for (long i = 0; i < a->njobs; i++) {
		int64_t d = a->jobs[i].submit - at[a->jobs[i].id];

		dmin = d < dmin ? d : dmin;
		dmax = d > dmax ? d : dmax;
		first = a->jobs[i].submit < first ? a->jobs[i].submit : first;
		if (i)
			assert_true(a->jobs[i - 1].submit < a->jobs[i].submit ||
				    (a->jobs[i - 1].submit == a->jobs[i].submit &&
				     a->jobs[i - 1].line < a->jobs[i].line));
	}
	assert_int_equal(first, 0);
	assert_true(dmax - dmin <= 120);
	assert_true(dmax - dmin >= 100);

	/* the same seed, the same copy; another seed, another copy */
	_jobs_every_100s(&b, at);
	assert_int_equal(fss_trace_jitter(b, 60, 1), 0);
	for (long i = 0; i < a->njobs; i++) {
		assert_int_equal(a->jobs[i].id, b->jobs[i].id);
		assert_int_equal(a->jobs[i].submit, b->jobs[i].submit);
	}
	fss_trace_free(b);
	_jobs_every_100s(&b, at);
	assert_int_equal(fss_trace_jitter(b, 60, 2), 0);
	for (long i = 0; i < a->njobs; i++)
		differs |= a->jobs[i].submit != b->jobs[i].submit;
	assert_true(differs);
	fss_trace_free(a);
	fss_trace_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_no_header),
		cmocka_unit_test(test_node_size),
		cmocka_unit_test(test_node_types),
		cmocka_unit_test(test_node_size_ratio),
		cmocka_unit_test(test_node_size_divisor),
		cmocka_unit_test(test_node_size_no_header),
		cmocka_unit_test(test_node_size_notes),
		cmocka_unit_test(test_node_types_malformed),
		cmocka_unit_test(test_status_range),
		cmocka_unit_test(test_trace_warnings),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_jitter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
