/*
 * fuzz_env.c - fuzz target for the job as the prolog environment gives it
 * to the root-run node helpers (fs_pl_job_from_env: SLURM_JOB_ID,
 * SLURM_JOB_UID and _GID, FABSCHED_HUGEPAGES and _COUNT, the SPANK
 * hugepages request, --scratch, FABSCHED_RDMA_DEVICES, SLURM_JOB_ACCOUNT),
 * the account's P_Key from an AccountIbPkeys map (fs_pl_job_pkey), and the
 * --licenses values job_submit/fabsched adds the scratch license to
 * (fs_licenses_count, fs_licenses_add_scratch).
 *
 * The input is an environment, one NAME=VALUE a line (the last one of a
 * name counts); besides Slurm's names, PKEY_MAP is the AccountIbPkeys map
 * and LICENSES the job's --licenses.  Checks: a job read has at most
 * FS_PL_MAX_POOLS page pools, none of them empty, and NUL-terminated
 * strings; licenses with the scratch license added count it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_prolog.h"
#include "fs_env.h"
#include "fs_jobreq.h"
#include "fs_values.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "fuzz_env: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                            \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define MAX_VARS 64

static char *_names[MAX_VARS], *_values[MAX_VARS];
static size_t _nvars;

static const char *_get(const char *name)
{
	for (size_t i = _nvars; i-- > 0;)
		if (!strcmp(_names[i], name))
			return _values[i];
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char msg[FS_MSG_SIZE] = "", lic[256];
	struct fs_pl_job job;
	const char *s;
	uint64_t mem_kb;
	char *text;

	if (!(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	_nvars = 0;
	for (char *p = text, *nl; *p && _nvars < MAX_VARS; p = nl) {
		char *eq;

		nl = p + strcspn(p, "\n");
		if (*nl)
			*nl++ = '\0';
		if (!(eq = strchr(p, '=')))
			continue;
		*eq = '\0';
		_names[_nvars] = p;
		_values[_nvars++] = eq + 1;
	}
	/* the machine's memory: none known, or 64 GiB */
	mem_kb = size && (data[0] & 1) ? 64ull << 20 : 0;
	if (!fs_pl_job_from_env(_get, mem_kb, &job, msg, sizeof(msg))) {
		CHECK(job.npages <= FS_PL_MAX_POOLS);
		for (size_t i = 0; i < job.npages; i++)
			CHECK(job.pages[i].pages > 0 && fs_pl_page_type(job.pages[i].page_kb));
		CHECK(memchr(job.rdma, '\0', sizeof(job.rdma)));
		CHECK(memchr(job.account, '\0', sizeof(job.account)));
		CHECK(!job.account_unusable || !job.account[0]);
		if (!fs_pl_job_pkey(&job, _get("PKEY_MAP"), msg, sizeof(msg)) && !job.account[0])
			CHECK(job.ib_pkey == 0);
	}
	s = _get("LICENSES");
	(void)fs_licenses_count(s, FS_SCRATCH_LICENSE);
	if (!fs_licenses_add_scratch(s, 7, lic, sizeof(lic), msg, sizeof(msg)))
		CHECK(fs_licenses_count(lic, FS_SCRATCH_LICENSE) == 7);
	free(text);
	return 0;
}
