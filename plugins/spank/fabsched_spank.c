/*
 * fabsched SPANK plugin: the job-side face of fabsched in srun/sbatch/salloc,
 * slurmd and slurmstepd.  Built against the installed public spank.h only.
 *
 * Foundation stage: it loads in every context and marks each task's
 * environment with FABSCHED_VERSION, so a job can tell it ran under fabsched.
 * Options (--fabric-locality, --scratch) come with their features.
 */
#include <slurm/spank.h>

#include "fabsched_config.h"

SPANK_PLUGIN(fabsched, 1);

static const char *_context_name(spank_context_t ctx)
{
	switch (ctx) {
	case S_CTX_LOCAL:
		return "local";
	case S_CTX_REMOTE:
		return "remote";
	case S_CTX_ALLOCATOR:
		return "allocator";
	case S_CTX_SLURMD:
		return "slurmd";
	case S_CTX_JOB_SCRIPT:
		return "job_script";
	default:
		return "unknown";
	}
}

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	slurm_debug("fabsched: SPANK plugin %s loaded in %s context",
		    PACKAGE_VERSION, _context_name(spank_context()));
	return ESPANK_SUCCESS;
}

/* slurmstepd, once per task, as the job's user, before exec. */
int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	spank_err_t rc = spank_setenv(sp, "FABSCHED_VERSION", PACKAGE_VERSION, 1);

	if (rc != ESPANK_SUCCESS) {
		slurm_error("fabsched: cannot set FABSCHED_VERSION in the task environment: %s",
			    spank_strerror(rc));
		return -1;
	}
	return ESPANK_SUCCESS;
}
