/*
 * test_job_record.c - `fabsched job`'s reading of a node's job records
 * (cli/job_record.c), which sit in a directory of the job's owner: a good
 * record read whole; escape bytes, oversized lines and counts, and a
 * record made to cost hours never reach the output nor take long; a file
 * the owner made or moved there is no record.  Root only (records are
 * root's): skipped otherwise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "fabsched_cli.h"

static char _dir[] = "/tmp/test_job_record.XXXXXX";

static void _write(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/7/%s", _dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

/* The record of job 7 on n1, as text (malloc'ed) and JSON (*r). */
static char *_read(json_object **r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*r = fs_cli_job_record(_dir, 7, "n1", f);
	fclose(f);
	return buf;
}

static int _malformed(json_object *r)
{
	json_object *v;

	assert_true(json_object_object_get_ex(r, "malformed_lines", &v));
	return json_object_get_int(v);
}

static void test_good(void **state)
{
	json_object *r, *t;
	char *text;

	(void)state;
	_write("n1", "fabsched-record 1\nnode n1 job 7\nnuma 0 cpus 0-3\nnuma 1 cpus 4-7\n"
		     "hca mlx5_0 ports 1 numa 1 cpus 4-7\nhugepages 2m numa 1 pages 8\n");
	_write("n1.tasks", "task 0 1 1 cpus 4-5 hca mlx5_0:1\ntask 0 0 0 cpus 0,4 hca -\n");
	text = _read(&r);
	assert_non_null(r);
	assert_int_equal(_malformed(r), 0);
	assert_non_null(strstr(text, "hca mlx5_0 port 1: NUMA 1, CPUs 4-7"));
	assert_non_null(strstr(text, "step 0 task 0 (rank 0): CPUs 0,4 (NUMA 0,1), HCA -"));
	assert_non_null(
		strstr(text, "step 0 task 1 (rank 1): CPUs 4-5 (NUMA 1), HCA mlx5_0:1 (NUMA 1)"));
	assert_non_null(strstr(text, "NUMA nodes of its tasks: 0,1"));
	assert_true(json_object_object_get_ex(r, "tasks", &t));
	assert_int_equal(json_object_array_length(t), 2);
	json_object_put(r);
	free(text);
}

/* Escape bytes and other control characters: the line is not trusted,
 * and nothing of it is printed. */
static void test_escapes(void **state)
{
	json_object *r;
	char *text;

	(void)state;
	_write("n1", "fabsched-record 1\nnode n1 job 7\nnuma 0 cpus 0-3\n"
		     "hca mlx5_0\x1b]0;pwned\x07 ports 1 numa 0 cpus 0-3\n"
		     "mount 2m /dev/hp/7\x1b[2J\n"
		     "scratch /scratch/7\r 10 xfs\n");
	_write("n1.tasks", "task 0 0 0 cpus 0 hca mlx5_0\x1b[31m\n");
	text = _read(&r);
	assert_non_null(r);
	assert_int_equal(_malformed(r), 4);
	for (const char *p = text; *p; p++)
		assert_true(*p == '\n' || (*p >= 0x20 && *p <= 0x7e));
	assert_null(strstr(text, "pwned"));
	assert_non_null(strstr(text, "(4 line(s) of the record not understood)"));
	json_object_put(r);
	free(text);
}

/* A record made to be costly: the most CPUs in every line, a NUMA map of
 * 1,000 nodes, 100,000 task lines, NUMA numbers out of range: read in
 * bounded time, the excess counted as not understood. */
static void test_costly(void **state)
{
	json_object *r, *t;
	char *node = NULL, *tasks = NULL, *text;
	size_t nl = 0, tl = 0;
	FILE *f;
	struct timespec t0, t1;

	(void)state;
	assert_non_null(f = open_memstream(&node, &nl));
	fputs("fabsched-record 1\nnode n1 job 7\n", f);
	for (int i = 0; i < 1000; i++)
		fprintf(f, "numa %d cpus 0-65535\n", i);
	fputs("numa 5000 cpus 0\nnuma -1 cpus 0\nnuma 99999999999999999999 cpus 0\n", f);
	for (int i = 0; i < 5000; i++)
		fputs("hugepages 2m numa 0 pages 1\n", f);
	fclose(f);
	assert_non_null(f = open_memstream(&tasks, &tl));
	for (int i = 0; i < 100000; i++)
		fprintf(f, "task 0 %d %d cpus 0-65535 hca -\n", i, i);
	fclose(f);
	_write("n1", node);
	_write("n1.tasks", tasks);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	text = _read(&r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_non_null(r);
	/* 3 numa lines out of range, the node lines past 4,096, the task
	   lines past 16,384 */
	assert_int_equal(_malformed(r), 3 + (2 + 1003 + 5000 - 4096) + (100000 - 16384));
	assert_true(json_object_object_get_ex(r, "tasks", &t));
	assert_int_equal(json_object_array_length(t), 16384);
	print_message("# a costly record read in %.2f s\n",
		      (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	json_object_put(r);
	free(text);
	free(node);
	free(tasks);
}

/* A file the owner made, or another job's record moved in: no record. */
static void test_not_ours(void **state)
{
	char path[256];
	json_object *r;
	char *text;

	(void)state;
	_write("n1", "fabsched-record 1\nnode n1 job 7\nnuma 0 cpus 0-3\n");
	snprintf(path, sizeof(path), "%s/7/n1", _dir);
	assert_int_equal(chown(path, 4242, 4242), 0);
	text = _read(&r);
	assert_null(r);
	assert_non_null(strstr(text, "is owned by uid 4242, not root"));
	free(text);
	_write("n1", "fabsched-record 1\nnode n1 job 8\nnuma 0 cpus 0-3\n");
	assert_int_equal(chown(path, 0, 0), 0);
	text = _read(&r);
	assert_null(r);
	assert_non_null(strstr(text, "the record of another job or node"));
	free(text);
	_write("n1", "fabsched-record 1\nnuma 0 cpus 0-3\nnode n1 job 7\n");
	text = _read(&r);
	assert_null(r);
	free(text);
}

/* Not a regular file (a FIFO would block the reader): no record. */
static void test_fifo(void **state)
{
	char path[256];
	json_object *r;
	char *text;

	(void)state;
	snprintf(path, sizeof(path), "%s/7/n1", _dir);
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	text = _read(&r);
	assert_null(r);
	assert_non_null(strstr(text, "(no record:"));
	free(text);
	unlink(path);
}

static int _setup(void **state)
{
	char path[256];

	(void)state;
	assert_non_null(mkdtemp(_dir));
	snprintf(path, sizeof(path), "%s/7", _dir);
	return mkdir(path, 0700);
}

static int _teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", _dir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),   cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_costly), cmocka_unit_test(test_not_ours),
		cmocka_unit_test(test_fifo),
	};

	if (geteuid()) {
		printf("1..0 # SKIP not root: the records are root's\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, _setup, _teardown);
}
