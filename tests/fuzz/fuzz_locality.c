/*
 * fuzz_locality.c - fuzz target for the locality record's state text
 * (StateSaveLocation/fabsched_locality_share, read back by slurmctld at
 * start: fse_locality_read).  Besides "no crash, no leak" it checks: a
 * rejected text names the accepted form; whatever was read writes out to a
 * text that reads back without error to the same text.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_select.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                           \
	do {                                                                                  \
		if (!(cond)) {                                                                \
			fprintf(stderr, "fuzz_locality: %s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                                             \
			abort();                                                              \
		}                                                                             \
	} while (0)

static char *_write(struct fse_locality *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	CHECK(fse_locality_write(l, f) == 0);
	fclose(f);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fse_locality *l = fse_locality_new(64), *r = NULL;
	char err[FS_MSG_SIZE], *t1 = NULL, *t2 = NULL;
	FILE *f;

	if (!l || !size)
		goto out;
	if (!(f = fmemopen((void *)data, size, "r")))
		goto out;
	if (fse_locality_read(l, f, "fuzz", err, sizeof(err)))
		CHECK(strstr(err, "expected") != NULL);
	fclose(f);
	if (!(t1 = _write(l)) || !(r = fse_locality_new(64)))
		goto out;
	if (!(f = fmemopen(t1, strlen(t1), "r")))
		goto out;
	CHECK(fse_locality_read(r, f, "again", err, sizeof(err)) == 0);
	fclose(f);
	if ((t2 = _write(r)))
		CHECK(!strcmp(t1, t2));
out:
	free(t1);
	free(t2);
	fse_locality_free(l);
	fse_locality_free(r);
	return 0;
}
