/*
 * fuzz_observe.c - fuzz target for the observation log of
 * Locality=observe (StateSaveLocation/fabsched_observe, read by fabsched
 * job, metrics and report: fse_obs_parse).  Each line of the input is
 * parsed; besides "no crash, no leak" it checks: a refused line names the
 * accepted form; an accepted one formats to a line that parses back to
 * the same record and formats to the same text.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_select.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                          \
	do {                                                                                 \
		if (!(cond)) {                                                               \
			fprintf(stderr, "fuzz_observe: %s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                                            \
			abort();                                                             \
		}                                                                            \
	} while (0)

static void _line(const char *line)
{
	struct fse_obs o, back;
	char err[256], t1[2048], t2[2048];

	if (fse_obs_parse(line, &o, err, sizeof(err))) {
		CHECK(strstr(err, "expected") != NULL);
		return;
	}
	CHECK(fse_obs_format(&o, t1, sizeof(t1)) < sizeof(t1));
	CHECK(fse_obs_parse(t1, &back, err, sizeof(err)) == 0);
	CHECK(back.job_id == o.job_id && back.task == o.task && back.time == o.time &&
	      back.got.kind == o.got.kind && back.would.kind == o.would.kind &&
	      !strcmp(back.why, o.why));
	fse_obs_format(&back, t2, sizeof(t2));
	CHECK(!strcmp(t1, t2));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *save = NULL;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		_line(l);
	free(buf);
	return 0;
}
