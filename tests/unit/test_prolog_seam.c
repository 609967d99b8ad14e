/*
 * test_prolog_seam - fabsched-prolog, -epilog and -sweep with the failure
 * injection seam: "test_prolog_seam prolog|epilog|sweep [options]"; when
 * FABSCHED_FAIL_AFTER names a step (see fabsched_prolog.h), the program
 * dies right after that step (exit 70), as a crash would leave things.
 * FABSCHED_TEST_POOL_CAP=N makes every pool look able to grow to N pages
 * at most (writes are clamped to N, for real), so that a shortfall, the
 * compaction retry and the give-back can be tested without exhausting
 * the machine's memory.  FABSCHED_TEST_HOLD_LOG=FILE: a job at fault is
 * "held" by appending "job <id>: <err>" to FILE (the executables run
 * scontrol); unset, no hold: every failure is the node's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabsched_prolog.h"
#include "slurm_cmds.h"

static void _die_after(const char *step, void *arg)
{
	const char *want = getenv("FABSCHED_FAIL_AFTER");

	(void)arg;
	if (want && !strcmp(want, step)) {
		fprintf(stderr, "test_prolog_seam: injected failure after %s\n", step);
		fflush(NULL);
		_exit(70);
	}
}

static int _capped_set(int node, uint64_t page_kb, uint64_t n, char *err, size_t errlen)
{
	uint64_t cap = strtoull(getenv("FABSCHED_TEST_POOL_CAP"), NULL, 10);

	return fs_pl_pool_set(node, page_kb, n < cap ? n : cap, err, errlen);
}

static int _hold_log(const char *prog, uint32_t jobid, const char *err)
{
	FILE *f = fopen(getenv("FABSCHED_TEST_HOLD_LOG"), "a");

	if (!f)
		return -1;
	fprintf(f, "%s job %u: %s\n", prog, jobid, err);
	return fclose(f) ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct fs_pl_ctx seam;

	memset(&seam, 0, sizeof(seam));
	seam.checkpoint = _die_after;
	seam.running_jobs = fs_pl_squeue_running; /* the sweep's --query */
	if (getenv("FABSCHED_TEST_POOL_CAP"))
		seam.pool_set = _capped_set;
	if (getenv("FABSCHED_TEST_HOLD_LOG"))
		seam.hold = _hold_log;
	if (argc < 2) {
		fprintf(stderr, "usage: %s prolog|epilog|sweep [options]\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "prolog"))
		return fs_pl_main_prolog(argc - 1, argv + 1, &seam);
	if (!strcmp(argv[1], "epilog"))
		return fs_pl_main_epilog(argc - 1, argv + 1, &seam);
	if (!strcmp(argv[1], "sweep"))
		return fs_pl_main_sweep(argc - 1, argv + 1, &seam);
	fprintf(stderr, "%s: unknown program %s\n", argv[0], argv[1]);
	return 2;
}
