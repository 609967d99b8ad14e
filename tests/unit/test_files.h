/*
 * test_files.h - small file helpers of the cmocka tests: fixture paths,
 * and fake trees (cgroup, sysfs) they build.  Include after <cmocka.h>.
 */
#ifndef FABSCHED_TEST_FILES_H
#define FABSCHED_TEST_FILES_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The path of fixture NAME of KIND, tests/fixtures/KIND/NAME: under
 * $FABSCHED_FIXTURES (make check sets it), else from the top of the source
 * tree, else from tests/unit (made absolute).  In a static buffer, valid until the next
 * call. */
static inline const char *tf_fixture(const char *kind, const char *name)
{
	static char path[4096], top[PATH_MAX];
	const char *dir = getenv("FABSCHED_FIXTURES");

	if (!dir || !*dir)
		dir = access("tests/fixtures", R_OK) == 0 ? "tests/fixtures" : "../fixtures";
	if (dir[0] != '/' && realpath(dir, top)) /* absolute, as make check's */
		dir = top;
	if (snprintf(path, sizeof(path), "%s/%s/%s", dir, kind, name) >= (int)sizeof(path))
		fail_msg("fixture path too long: %s/%s/%s", dir, kind, name);
	return path;
}

/* The whole file, NUL-terminated, malloc'd; its length in *len when len
 * is not NULL.  Fails the test when it cannot be read. */
static inline char *tf_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	b[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return b;
}

/* Write text to path (created or truncated); fails the test on error. */
static inline void tf_put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The whole file (up to 4 KiB) in a static buffer; "<none>" when it does
 * not exist. */
static inline const char *tf_get(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return "<none>";
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

#endif
