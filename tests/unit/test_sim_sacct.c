/*
 * test_sim_sacct.c - the sacct readers of sim/: sacct --json as 22.05
 * (openapi/dbv0.0.38) and 24.11+ (data_parser, {"set", "number"} numbers,
 * state lists) print it, sacct -P with step lines and columns in any
 * order, the format told by content, what is dropped and why, and errors
 * naming file and line.  Fixtures: tests/fixtures/sacct/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "test_files.h"

#include "fabsched_sim.h"

/* A temporary file of text, gzip-compressed when gz (else written
 * through zlib's transparent mode); its path. */
static const char *_tmp(const char *text, int gz)
{
	static char p[64];
	gzFile g;
	int fd;

	snprintf(p, sizeof(p), "/tmp/test_sim_sacct.XXXXXX");
	fd = mkstemp(p);
	assert_true(fd >= 0);
	g = gzdopen(fd, gz ? "wb" : "wbT");
	assert_non_null(g);
	assert_int_equal(gzputs(g, text), (int)strlen(text));
	assert_int_equal(gzclose(g), Z_OK);
	return p;
}

static struct fss_trace *_read(const char *path, const struct fss_swf_opts *o)
{
	struct fss_trace *tr = NULL;
	char err[2048] = "";

	if (fss_trace_read(path, o, &tr, err, sizeof(err)))
		fail_msg("%s", err);
	return tr;
}

struct want {
	long id, line;
	int64_t submit, run, req;
	int nodes, procs, status;
	const char *part;
};

static void _check_jobs(const struct fss_trace *tr, const struct want *w, long n)
{
	assert_int_equal(tr->njobs, n);
	for (long i = 0; i < n; i++) {
		const struct fss_job *j = &tr->jobs[i];

		assert_int_equal(j->id, w[i].id);
		assert_int_equal(j->line, w[i].line);
		assert_int_equal(j->submit, w[i].submit);
		assert_int_equal(j->run, w[i].run);
		assert_int_equal(j->req, w[i].req);
		assert_int_equal(j->nodes, w[i].nodes);
		assert_int_equal(j->procs, w[i].procs);
		assert_int_equal(j->status, w[i].status);
		assert_true(j->part >= 0 && j->part < tr->nparts);
		assert_string_equal(tr->parts[j->part], w[i].part);
	}
}

/* 22.05: plain numbers, null limit (UNLIMITED), a state string, a het job
 * of two components, steps nested in the job (ignored). */
static void test_json_2205(void **state)
{
	static const struct want w[] = {
		{ 101, 1, 0, 3600, 7200, 4, 128, 1, "batch" },
		{ 102, 2, 100, 60, 1800, 1, 32, 0, "batch" },
		{ 103, 3, 200, 3630, 3630, 2, 64, 0, "gpu" },	 /* TIMEOUT: raised */
		{ 105, 5, 500, 1000, 1000, 8, 256, 1, "batch" }, /* no limit */
		{ 108, 8, 3000, 300, 600, 1, 8, 1, "batch" },	 /* het 108+0 */
		{ 109, 9, 3000, 300, 600, 2, 16, 1, "gpu" },	 /* het 108+1 */
	};
	struct fss_trace *tr = _read(tf_fixture("sacct", "sacct-22.05.json"), NULL);

	(void)state;
	assert_int_equal(tr->format, FSS_TRACE_SACCT_JSON);
	assert_string_equal(tr->source, "sacct --json of Slurm 22.05.8 (openapi/dbv0.0.38)");
	assert_int_equal(tr->lines, 9);
	_check_jobs(tr, w, 6);
	assert_int_equal(tr->sacct.cancelled, 1);   /* 104 */
	assert_int_equal(tr->sacct.running, 1);	    /* 106 */
	assert_int_equal(tr->sacct.not_started, 1); /* 107 */
	assert_int_equal(tr->sacct.no_nodes + tr->sacct.bad_time + tr->sacct.steps, 0);
	assert_int_equal(tr->sacct.het_components, 2);
	assert_int_equal(tr->sacct.array_tasks, 0);
	assert_int_equal(tr->req_from_run, 1);
	assert_int_equal(tr->req_raised, 1);
	assert_int_equal(tr->dropped_too_wide, 0);
	assert_int_equal(tr->nparts, 2);
	assert_int_equal(tr->hosts, 8);
	assert_int_equal(tr->machine_nodes, 8);
	fss_trace_free(tr);
}

/* 24.11: {"set", "infinite", "number"} limits, state lists, an array of
 * two tasks done and two pending, a job cancelled while pending, one
 * still running, one cancelled while running (replayed). */
static void test_json_2411(void **state)
{
	static const struct want w[] = {
		{ 201, 1, 0, 1800, 3600, 2, 96, 1, "batch" },
		{ 301, 2, 100, 600, 1200, 1, 48, 1, "batch" },	/* task 300_0 */
		{ 302, 3, 100, 300, 1200, 1, 48, 1, "batch" },	/* task 300_1 */
		{ 207, 7, 500, 600, 600, 4, 192, 1, "batch" },	/* infinite */
		{ 208, 8, 600, 300, 1800, 1, 48, 5, "batch" },	/* cancelled */
		{ 209, 9, 800, 330, 330, 2, 16, 0, "gpu" },	/* TIMEOUT */
		{ 210, 10, 1000, 500, 3600, 8, 384, 0, "gpu" }, /* NODE_FAIL, REQUEUED */
	};
	struct fss_trace *tr = _read(tf_fixture("sacct", "sacct-24.11.json"), NULL);
	char line[2048];

	(void)state;
	assert_int_equal(tr->format, FSS_TRACE_SACCT_JSON);
	assert_string_equal(tr->source, "sacct --json of Slurm 24.11.5 (data_parser/v0.0.42)");
	assert_int_equal(tr->lines, 10);
	_check_jobs(tr, w, 7);
	assert_int_equal(tr->sacct.not_started, 1); /* 300, tasks 2-3 */
	assert_int_equal(tr->sacct.cancelled, 1);   /* 205 */
	assert_int_equal(tr->sacct.running, 1);	    /* 206 */
	assert_int_equal(tr->sacct.array_tasks, 2);
	assert_int_equal(tr->sacct.het_components, 0);
	assert_int_equal(tr->req_from_run, 1);
	assert_int_equal(tr->req_raised, 1);
	assert_int_equal(tr->hosts, 8);
	assert_int_equal(tr->machine_nodes, 8);
	fss_sacct_summary(tr, line, sizeof(line));
	assert_non_null(strstr(
		line,
		"sacct --json of Slurm 24.11.5 (data_parser/v0.0.42): 10 job records, 7 jobs replayed (2 array tasks, "));
	assert_non_null(strstr(
		line,
		"not replayed: 1 cancelled before they started, 1 never started, 1 still running, 0 without nodes, 0 ending before they started, 0 too wide; 0 step lines skipped"));
	assert_non_null(strstr(
		line,
		"partitions, replayed as one machine: batch 5, gpu 2; 8 nodes: the distinct hosts of the jobs' node lists (widest job 8)"));
	fss_trace_free(tr);
}

/* sacct -P without -X: step lines skipped; "CANCELLED by 1000" before the
 * start dropped, "CANCELLED by 0" after it replayed; UNLIMITED and
 * Partition_Limit: no limit; times in the local time zone (UTC here). */
static void test_parsable_steps(void **state)
{
	static const struct want w[] = {
		{ 401, 2, 0, 3600, 7200, 2, 64, 1, "batch" },
		{ 404, 8, 240, 86445, 86445, 2, 32, 0, "gpu" },
		{ 405, 10, 1800, 600, 600, 4, 128, 1, "batch" },
		{ 407, 12, 3900, 60, 60, 1, 8, 0, "batch" },
		{ 408, 13, 4200, 600, 1800, 1, 8, 5, "batch" },
	};
	struct fss_trace *tr = _read(tf_fixture("sacct", "sacct-steps.txt"), NULL);

	(void)state;
	assert_int_equal(tr->format, FSS_TRACE_SACCT_PARSABLE);
	assert_string_equal(tr->source, "sacct -P");
	assert_int_equal(tr->lines, 8);
	_check_jobs(tr, w, 5);
	assert_int_equal(tr->sacct.steps, 4);
	assert_int_equal(tr->sacct.cancelled, 1);   /* 402 */
	assert_int_equal(tr->sacct.running, 1);	    /* 403 */
	assert_int_equal(tr->sacct.not_started, 1); /* 406 */
	assert_int_equal(tr->req_from_run, 2);
	assert_int_equal(tr->req_raised, 1);
	assert_int_equal(tr->hosts, 6); /* n01 to n06 */
	assert_int_equal(tr->machine_nodes, 6);
	assert_non_null(strstr(tr->nodes_why, "distinct hosts"));
	fss_trace_free(tr);
}

/* Columns in any order, sacct's other spellings (TimelimitRaw, AllocCPUS),
 * -p's trailing '|', a column not read, epoch times, gzip; no NodeList:
 * the machine is the widest job. */
static void test_parsable_forms(void **state)
{
	struct fss_trace *tr;
	const char *p =
		_tmp("State|NNodes|JobName|End|Start|Submit|TimelimitRaw|AllocCPUS|JobIDRaw|\n"
		     "COMPLETED|3|a b|1700000900|1700000100|1700000000|20|12|7|\n"
		     "\n"
		     "FAILED|0|c|1700000300|1700000200|1700000050|5|0|8|\n"
		     "COMPLETED|1|d|1700000100|1700000200|1700000060|5|4|9|\n"
		     "completed|2|e|1700000400|1700000300|1700000070|UNLIMITED||10|\n",
		     1);

	(void)state;
	tr = _read(p, NULL);
	unlink(p);
	assert_int_equal(tr->format, FSS_TRACE_SACCT_PARSABLE);
	assert_int_equal(tr->lines, 4);
	assert_int_equal(tr->sacct.no_nodes, 1); /* 8 */
	assert_int_equal(tr->sacct.bad_time, 1); /* 9 */
	assert_int_equal(tr->njobs, 2);
	assert_int_equal(tr->jobs[0].id, 7);
	assert_int_equal(tr->jobs[0].run, 800);
	assert_int_equal(tr->jobs[0].req, 1200);
	assert_int_equal(tr->jobs[0].procs, 12);
	assert_int_equal(tr->jobs[0].part, -1);
	assert_int_equal(tr->jobs[1].id, 10);
	assert_int_equal(tr->jobs[1].submit, 70);
	assert_int_equal(tr->jobs[1].req, 100);
	assert_int_equal(tr->jobs[1].procs, 0);
	assert_int_equal(tr->jobs[1].status, 1);
	assert_int_equal(tr->nparts, 0);
	assert_int_equal(tr->hosts, 0);
	assert_int_equal(tr->machine_nodes, 3);
	assert_non_null(strstr(tr->nodes_why, "the widest job"));
	fss_trace_free(tr);
}

/* The machine given (--model, --nodes): wider jobs dropped; --limit: the
 * first jobs by submit time. */
static void test_options(void **state)
{
	struct fss_swf_opts o = { .machine_nodes = 4 };
	struct fss_trace *tr;
	char line[2048];

	(void)state;
	tr = _read(tf_fixture("sacct", "sacct-22.05.json"), &o);
	assert_int_equal(tr->machine_nodes, 4);
	assert_int_equal(tr->dropped_too_wide, 1); /* 105, 8 nodes */
	assert_int_equal(tr->njobs, 5);
	assert_string_equal(tr->nodes_why, "the machine given");
	assert_true(fss_trace_dropped(tr) > 0.2); /* 2 of 9: 105 and 106 */
	/* and 5 jobs ask 1.48 times the 4 nodes over their span */
	assert_int_equal(fss_trace_warnings(tr, line, sizeof(line)), 2);
	assert_non_null(strstr(
		line,
		"warning: 22.2% of the trace's jobs that ran were dropped (1 too wide for 4 nodes, 1 still running, 0 without nodes, 0 ending before they started)"));
	fss_trace_free(tr);
	o = (struct fss_swf_opts){ .limit = 2 };
	tr = _read(tf_fixture("sacct", "sacct-24.11.json"), &o);
	assert_int_equal(tr->njobs, 2);
	assert_int_equal(tr->jobs[0].id, 201);
	assert_int_equal(tr->jobs[1].id, 301);
	fss_trace_free(tr);
}

/* 25.11 and later dump an unset timestamp as NO_VAL64 cast to an int
 * (-2), the complex mode a limit as "Infinity" or null. */
static void test_json_placeholders(void **state)
{
	struct fss_trace *tr;
	const char *p = _tmp(
		"{\"jobs\": [\n"
		" {\"job_id\": 1, \"allocation_nodes\": 2, \"nodes\": \"x[1-2]\", \"state\": {\"current\": [\"RUNNING\"]},\n"
		"  \"time\": {\"submission\": 100, \"start\": 110, \"end\": -2, \"limit\": \"Infinity\"}},\n"
		" {\"job_id\": 2, \"allocation_nodes\": 2, \"nodes\": \"x[2-3]\", \"state\": {\"current\": [\"COMPLETED\"]},\n"
		"  \"time\": {\"submission\": 120, \"start\": 130, \"end\": 190, \"limit\": \"Infinity\"}},\n"
		" {\"job_id\": 3, \"allocation_nodes\": 1, \"nodes\": \"x4\", \"state\": {\"current\": [\"COMPLETED\"]},\n"
		"  \"time\": {\"submission\": 125, \"start\": 130, \"end\": 150, \"limit\": null}}\n"
		"]}\n",
		0);

	(void)state;
	tr = _read(p, NULL);
	unlink(p);
	assert_string_equal(tr->source, "sacct --json");
	assert_int_equal(tr->sacct.running, 1);
	assert_int_equal(tr->njobs, 2);
	assert_int_equal(tr->jobs[0].id, 2);
	assert_int_equal(tr->jobs[0].submit, 0);
	assert_int_equal(tr->jobs[0].req, 60);
	assert_int_equal(tr->jobs[1].submit, 5);
	assert_int_equal(tr->req_from_run, 2);
	assert_int_equal(tr->hosts, 3); /* x2, x3, x4 */
	assert_int_equal(tr->machine_nodes, 3);
	assert_int_equal(tr->jobs[0].part, -1);
	fss_trace_free(tr);
}

/* A job eligible after its submission (held, --begin, a dependency)
 * arrives at its eligible time; one eligible at submission, or with an
 * eligible time after its start (not a time the scheduler saw), at its
 * submission.  sacct --json and sacct -P with an Eligible column alike. */
static void test_eligible(void **state)
{
	struct fss_trace *tr;
	const char *p = _tmp(
		"{\"jobs\": [\n"
		" {\"job_id\": 1, \"allocation_nodes\": 1, \"nodes\": \"x1\", \"state\": {\"current\": [\"COMPLETED\"]},\n"
		"  \"time\": {\"submission\": 100, \"eligible\": 100, \"start\": 110, \"end\": 170, \"limit\": 5}},\n"
		" {\"job_id\": 2, \"allocation_nodes\": 1, \"nodes\": \"x2\", \"state\": {\"current\": [\"COMPLETED\"]},\n"
		"  \"time\": {\"submission\": 105, \"eligible\": 400, \"start\": 410, \"end\": 470, \"limit\": 5}},\n"
		" {\"job_id\": 3, \"allocation_nodes\": 1, \"nodes\": \"x3\", \"state\": {\"current\": [\"COMPLETED\"]},\n"
		"  \"time\": {\"submission\": 120, \"eligible\": 900, \"start\": 130, \"end\": 190, \"limit\": 5}}\n"
		"]}\n",
		0);
	char line[2048];

	(void)state;
	tr = _read(p, NULL);
	unlink(p);
	assert_int_equal(tr->njobs, 3);
	assert_int_equal(tr->sacct.from_eligible, 1);
	/* by arrival: 1 (0 s), 3 (20 s), 2 (300 s) */
	assert_int_equal(tr->jobs[0].id, 1);
	assert_int_equal(tr->jobs[1].id, 3);
	assert_int_equal(tr->jobs[1].submit, 20);
	assert_int_equal(tr->jobs[2].id, 2);
	assert_int_equal(tr->jobs[2].submit, 300);
	assert_true(fss_sacct_summary(tr, line, sizeof(line)) > 0);
	assert_non_null(strstr(line, "; 1 arriving when eligible, after their submission; "));
	fss_trace_free(tr);

	p = _tmp(
		"JobIDRaw|Submit|Eligible|Start|End|Timelimit|NNodes|State\n"
		"7|2023-11-14T10:00:00|2023-11-14T10:00:00|2023-11-14T10:01:00|2023-11-14T10:02:00|5|1|COMPLETED\n"
		"8|2023-11-14T10:00:30|2023-11-14T10:30:00|2023-11-14T10:31:00|2023-11-14T10:32:00|5|1|COMPLETED\n"
		"9|2023-11-14T10:00:40|Unknown|2023-11-14T10:01:00|2023-11-14T10:02:00|5|1|COMPLETED\n",
		0);
	tr = _read(p, NULL);
	unlink(p);
	assert_int_equal(tr->njobs, 3);
	assert_int_equal(tr->sacct.from_eligible, 1);
	assert_int_equal(tr->jobs[0].id, 7);
	assert_int_equal(tr->jobs[1].id, 9);
	assert_int_equal(tr->jobs[1].submit, 40);
	assert_int_equal(tr->jobs[2].id, 8);
	assert_int_equal(tr->jobs[2].submit, 1800);
	fss_trace_free(tr);
	/* an Eligible of another form: the line named */
	p = _tmp("JobIDRaw|Submit|Eligible|Start|End|Timelimit|NNodes|State\n"
		 "7|1700000000|soon|1700000060|1700000120|5|1|COMPLETED\n",
		 0);
	{
		char err[2048] = "";

		assert_int_not_equal(fss_trace_read(p, NULL, &tr, err, sizeof(err)), 0);
		assert_non_null(strstr(err, ":2: Eligible 'soon' is not a time"));
	}
	unlink(p);
}

static void test_detect(void **state)
{
	enum fss_trace_format f;
	char err[512] = "";
	const char *p;

	(void)state;
	assert_int_equal(fss_trace_detect(tf_fixture("swf", "rules.swf"), &f, err, sizeof(err)), 0);
	assert_int_equal(f, FSS_TRACE_SWF);
	assert_int_equal(
		fss_trace_detect(tf_fixture("sacct", "sacct-22.05.json"), &f, err, sizeof(err)), 0);
	assert_int_equal(f, FSS_TRACE_SACCT_JSON);
	assert_int_equal(
		fss_trace_detect(tf_fixture("sacct", "sacct-steps.txt"), &f, err, sizeof(err)), 0);
	assert_int_equal(f, FSS_TRACE_SACCT_PARSABLE);
	p = _tmp("\n  \n; Note: a|b\n1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", 1);
	assert_int_equal(fss_trace_detect(p, &f, err, sizeof(err)), 0);
	assert_int_equal(f, FSS_TRACE_SWF);
	unlink(p);
	assert_int_equal(fss_trace_detect("/nonexistent/h.json", &f, err, sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/h.json: No such file or directory");
}

/* fss_trace_read fails with "what" after the path. */
static void _expect_error(const char *path, const char *what)
{
	struct fss_trace *tr = (struct fss_trace *)1;
	char err[2048] = "", want[2600];

	snprintf(want, sizeof(want), "%s%s", path, what);
	assert_int_equal(fss_trace_read(path, NULL, &tr, err, sizeof(err)), -1);
	assert_null(tr);
	assert_string_equal(err, want);
}

struct bad {
	const char *text, *what;
};

/* Each text, in a file of its own (every other one gzip-compressed), fails
 * with its what. */
static void _expect_errors(const char *head, const struct bad *bad, size_t n)
{
	char text[512];

	for (size_t i = 0; i < n; i++) {
		const char *p;

		snprintf(text, sizeof(text), "%s%s", head, bad[i].text);
		p = _tmp(text, (int)(i % 2));
		_expect_error(p, bad[i].what);
		unlink(p);
	}
}

#define P_FORM                                                                        \
	"expected the output of sacct -P under its header line, naming at least "     \
	"JobIDRaw, Submit, Start, End, Timelimit, NNodes and State in any order, as " \
	"sacct -a -P -X -S START -E END -o "                                          \
	"JobIDRaw,Partition,Submit,Eligible,Start,End,Timelimit,NNodes,NCPUS,State,NodeList prints"
#define J_FORM "expected the output of sacct --json (an object with \"jobs\": [...])"

static void test_errors(void **state)
{
	static const struct bad bad[] = {
		{ "1|2023-11-14T10:00:00|Unknown|Unknown|1:00:00|1\n",
		  ":2: 6 fields, the header has 7; " P_FORM },
		{ "1|2023-11-14T10:00:00|Unknown|Unknown|1:00:00|1|PENDING|x\n",
		  ":2: more than 7 fields, the header has 7; " P_FORM },
		{ "1|yesterday|Unknown|Unknown|1:00:00|1|PENDING\n",
		  ":2: Submit 'yesterday' is not a time (YYYY-MM-DDTHH:MM:SS, or seconds since the epoch); " P_FORM },
		{ "1_4|2023-11-14T10:00:00|Unknown|Unknown|1:00:00|1|PENDING\n",
		  ":2: JobIDRaw '1_4' is not a job id (digits; a step: digits.step); " P_FORM },
		{ "1|2023-11-14T10:00:00|Unknown|Unknown|soon|1|PENDING\n",
		  ":2: Timelimit 'soon' is not a time limit (Slurm time format, UNLIMITED or Partition_Limit); " P_FORM },
		{ "1|Unknown|Unknown|Unknown|1:00:00|1|PENDING\n",
		  ":2: Submit 'Unknown' is not known: every job has a submit time; " P_FORM },
	};

	(void)state;
	_expect_error(tf_fixture("sacct", "sacct-no-end.txt"),
		      ":1: no End column in the header; " P_FORM);
	_expect_error(tf_fixture("sacct", "sacct-broken.json"),
		      ":6: not valid JSON: object value separator ',' expected; " J_FORM);
	_expect_errors("JobIDRaw|Submit|Start|End|Timelimit|NNodes|State\n", bad,
		       sizeof(bad) / sizeof(bad[0]));
}

static void test_json_errors(void **state)
{
	static const struct bad bad[] = {
		{ "{\"meta\": {}}\n", ": no \"jobs\" list; " J_FORM },
		{ "{\"jobs\": [\n {\"job_id\": 1,\n",
		  ":3: the JSON document ends early (a file cut short?); " J_FORM },
		{ "{\"jobs\": []}\n{}\n", ":2: data after the JSON document; " J_FORM },
		{ "{\"jobs\": [{\"job_id\": 4, \"time\": {}}]}",
		  ": job 4 (jobs[0]): no time/submission; expected a job of sacct --json" },
		{ "{\"jobs\": [{\"name\": \"x\"}]}",
		  ": jobs[0]: no job_id; expected a job of sacct --json" },
		{ "{\"jobs\": [{\"job_id\": 5, \"time\": {\"submission\": 9}, \"state\": {\"current\": \"PENDING\"}}]}",
		  ": no job to replay among its 1 job records (0 cancelled before they started, 1 never started, 0 still running, 0 too wide for 0 nodes); expected jobs that started and ended" },
	};

	(void)state;
	_expect_errors("", bad, sizeof(bad) / sizeof(bad[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_2205),      cmocka_unit_test(test_json_2411),
		cmocka_unit_test(test_parsable_steps), cmocka_unit_test(test_parsable_forms),
		cmocka_unit_test(test_options),	       cmocka_unit_test(test_json_placeholders),
		cmocka_unit_test(test_detect),	       cmocka_unit_test(test_errors),
		cmocka_unit_test(test_json_errors),    cmocka_unit_test(test_eligible),
	};

	/* sacct -P prints times in the local time zone: the fixtures' is UTC */
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
