/*
 * fuzz_values.c - fuzz target for the parsers of job and environment
 * values that reach root-run helpers and slurmctld: --scratch
 * (fs_parse_scratch), the hugepages part of a gres request
 * (fs_hp_parse_request), RdmaRate and sysfs rate texts, partition keys and
 * AccountIbPkeys maps (fs_ib), LocalityTarget percentages, and
 * FABSCHED_RDMA_LOCALITY with a task's CPU list (fs_gres_rdma_task_env).
 *
 * The first byte picks the parser; the rest, up to a NUL, is the value
 * (for the locality, "<value>\n<task cpus>").  Besides "no crash, no
 * leak" it checks: a failed parser leaves a message with an "expected"
 * part; a --scratch value that parses formats to text that parses back to
 * the same value; a rate that parses formats back to itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_gres.h"
#include "fs_ib.h"
#include "fs_hugepages.h"
#include "fs_jobreq.h"
#include "fs_values.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                         \
	do {                                                                                \
		if (!(cond)) {                                                              \
			fprintf(stderr, "fuzz_values: %s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                                           \
			abort();                                                            \
		}                                                                           \
	} while (0)

static void _failed(int rc, const char *msg)
{
	if (rc && !strstr(msg, "expected") && !strstr(msg, "out of memory")) {
		fprintf(stderr, "fuzz_values: message without the accepted form: %s\n", msg);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char msg[FS_MSG_SIZE] = "", buf[64], *s, *cpus;
	unsigned which;

	if (!size)
		return 0;
	which = data[0] % 7;
	if (!(s = malloc(size)))
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';

	switch (which) {
	case 0: {
		struct fs_scratch a, b;
		int rc = fs_parse_scratch("--scratch", s, &a, msg, sizeof(msg));

		_failed(rc, msg);
		if (!rc) {
			fs_format_scratch(&a, buf, sizeof(buf));
			CHECK(!fs_parse_scratch("--scratch", buf, &b, msg, sizeof(msg)));
			CHECK(a.gib == b.gib && a.fs == b.fs);
		}
		break;
	}
	case 1: {
		/* a request against nodes in pages and in units */
		static struct fs_hp_node nodes[2] = {
			{ .name = "a", .n = 2, .p = { { 2048, 1, 512 }, { 1048576, 1, 4 } } },
			{ .name = "b", .n = 1, .p = { { 2048, 64, 512 } } },
		};
		struct fs_hp_plan p;
		struct fs_hp_units u;
		struct fs_hp_ask a[FS_HP_SIZES_MAX];
		size_t n;
		int rc;

		for (size_t k = 1; k <= 2; k++) {
			rc = fs_hp_plan(s, "x", "p", nodes + 2 - k, k, &p, msg, sizeof(msg));
			_failed(rc, msg);
			if (!rc && !fs_hp_asked_format(&p, buf, sizeof(buf)))
				CHECK(!fs_hp_asked_parse("A", buf, a, &n, msg, sizeof(msg)) &&
				      n == p.n);
			fs_hp_plan_free(&p);
		}
		_failed(fs_hp_units_parse("HugepageUnits", s, &u, msg, sizeof(msg)), msg);
		break;
	}
	case 2: {
		uint64_t a, b;
		int rc = fs_parse_rate("RdmaRate", s, &a, msg, sizeof(msg));

		_failed(rc, msg);
		if (!rc && fs_format_rate(a, buf, sizeof(buf)))
			CHECK(!fs_parse_rate("RdmaRate", buf, &b, msg, sizeof(msg)) && a == b);
		(void)fs_parse_sysfs_rate(s, &a);
		break;
	}
	case 3: {
		uint16_t k;

		_failed(fs_parse_pkey("pkey", s, &k, msg, sizeof(msg)), msg);
		(void)fs_account_ok(s);
		break;
	}
	case 4: {
		uint16_t k;
		char *acct = strchr(s, '\n');

		if (acct)
			*acct++ = '\0';
		_failed(fs_pkey_map_find("AccountIbPkeys", s, acct ? acct : "chem", &k, msg,
					 sizeof(msg)) < 0
				? -1
				: 0,
			msg);
		break;
	}
	case 5: {
		uint64_t ppm;
		int rc = fs_parse_percent("LocalityTarget", s, &ppm, msg, sizeof(msg));

		_failed(rc, msg);
		if (!rc)
			CHECK(ppm <= 1000000);
		break;
	}
	default: {
		struct fs_gres_env env = { 0 };

		cpus = strchr(s, '\n');
		if (cpus)
			*cpus++ = '\0';
		_failed(fs_gres_rdma_task_env(s, cpus ? cpus : "0-3", data[0] / 7, &env, msg,
					      sizeof(msg)),
			msg);
		fs_gres_env_clear(&env);
		break;
	}
	}
	free(s);
	return 0;
}
