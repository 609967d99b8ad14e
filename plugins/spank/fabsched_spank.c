/*
 * fabsched SPANK plugin: the job-side face of fabsched in srun/sbatch/salloc,
 * slurmd and slurmstepd.  Built against the installed public spank.h only.
 *
 *  - options (args.c): --fabric-locality=rack|pod|any[@wait], validated in
 *    sbatch/salloc/srun and handed to the controller in the job's SPANK
 *    job-control environment (FABSCHED_LOCALITY), where select/fabric
 *    reads it;
 *  - --scratch=SIZE[,fs=xfs|ext4] (args.c), validated in sbatch/salloc/srun;
 *    job_submit/fabsched charges it and hands it to the prolog;
 *  - every task runs with RLIMIT_MEMLOCK unlimited (RDMA registers memory),
 *    whatever the submitting shell's limit was (the node's hard limit where
 *    root may not raise it);
 *  - every task's environment gets FABSCHED_VERSION, so a job can tell it
 *    ran under fabsched;
 *  - the job cgroup's hugetlb and rdma limits, set from slurmstepd where the
 *    Prolog ran before the job's cgroup existed (task_limits.c);
 *  - with JobRecordDir, each task's CPUs and HCA in its job's record
 *    (task_rdma.c), for `fabsched job`.
 */
#include <string.h>

#include <slurm/spank.h>

#include "fs_env.h"
#include "fabsched_prolog.h"
#include "args.h"
#include "task_rdma.h"
#include "task_limits.h"
#include "fabsched_config.h"

SPANK_PLUGIN(fabsched, 1);

/* JobRecordDir, read in slurmstepd before the tasks are forked */
static const char *record_dir;

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 5, 0)
/* When slurm_spank_init fails in slurmstepd (an option value the
 * submitting side did not check: a forged forwarded option), the job is
 * at fault: it fails, and the node is not drained. */
int slurm_spank_init_failure_mode = ESPANK_JOB_FAILURE;
#endif

/* spank_context_t's names, in its order (spank.h) */
static const char *const ctx_names[] = { "unknown",   "local",	"remote",
					 "allocator", "slurmd", "job_script" };

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	spank_context_t ctx = spank_context();

	slurm_debug("fabsched: SPANK plugin %s loaded in %s context", PACKAGE_VERSION,
		    (unsigned)ctx < sizeof(ctx_names) / sizeof(ctx_names[0]) ? ctx_names[ctx]
									     : "unknown");
	if (ctx == S_CTX_REMOTE)
		record_dir = fabsched_record_dir(ac, av);
	/* options exist where users give them and where they are forwarded */
	if (ctx == S_CTX_LOCAL || ctx == S_CTX_ALLOCATOR || ctx == S_CTX_REMOTE) {
		for (struct spank_option *o = fabsched_spank_options; o->name; o++) {
			spank_err_t rc = spank_option_register(sp, o);

			if (rc != ESPANK_SUCCESS) {
				slurm_error("fabsched: cannot register --%s: %s", o->name,
					    spank_strerror(rc));
				return -1;
			}
		}
	}
	return ESPANK_SUCCESS;
}

/* sbatch/salloc/srun, after the options: hand them to the controller. */
int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	spank_context_t ctx = spank_context();
	const char *loc = fabsched_arg_locality();
	spank_err_t rc;

	if ((ctx != S_CTX_LOCAL && ctx != S_CTX_ALLOCATOR) || !loc)
		return ESPANK_SUCCESS;
	rc = spank_job_control_setenv(sp, FABSCHED_LOCALITY_ENV, loc, 1);
	if (rc != ESPANK_SUCCESS) {
		/* srun inside an existing allocation: nothing to place */
		slurm_debug("fabsched: --fabric-locality=%s not passed on: %s", loc,
			    spank_strerror(rc));
		return ESPANK_SUCCESS;
	}
	slurm_debug("fabsched: job control environment %s=%s", FABSCHED_LOCALITY_ENV, loc);
	return ESPANK_SUCCESS;
}

/*
 * slurmstepd, once per task, still root: lift the task's locked-memory limit
 * to unlimited.  Where even root may not raise a hard limit (no
 * CAP_SYS_RESOURCE, as in some containers), the soft limit is raised to the
 * hard one and the node's log says so; the task runs either way.
 */
int slurm_spank_task_init_privileged(spank_t sp, int ac, char **av)
{
	char msg[FS_MSG_SIZE];
	int rc = fs_pl_memlock_unlimited(msg, sizeof(msg));

	if (rc > 0)
		slurm_info("fabsched: %s", msg);
	else if (rc < 0)
		slurm_error("fabsched: %s", msg);
	return ESPANK_SUCCESS;
}

/* slurmstepd, once per task, as the job's user, before exec. */
int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	spank_err_t rc;

	/*
	 * Slurm applies the submitting shell's limits (SLURM_RLIMIT_*) after
	 * this call; a login node's small memlock limit would undo the one set
	 * above, so that one limit is not propagated.
	 */
	rc = spank_unsetenv(sp, "SLURM_RLIMIT_MEMLOCK");
	if (rc != ESPANK_SUCCESS && rc != ESPANK_ENV_NOEXIST)
		slurm_error("fabsched: cannot drop SLURM_RLIMIT_MEMLOCK: %s", spank_strerror(rc));
	/* the HCA nearest the task, and its line in the job's record
	 * (task_rdma.c) */
	fabsched_task_rdma(sp, record_dir);
	rc = spank_setenv(sp, FS_ENV_VERSION, PACKAGE_VERSION, 1);
	if (rc != ESPANK_SUCCESS) {
		slurm_error("fabsched: cannot set FABSCHED_VERSION in the task environment: %s",
			    spank_strerror(rc));
		return -1;
	}
	return ESPANK_SUCCESS;
}

/* slurmstepd, root, after each task was forked and put in its cgroup. */
int slurm_spank_task_post_fork(spank_t sp, int ac, char **av)
{
	fabsched_task_limits(sp, ac, av); /* task_limits.c: never fails it */
	return ESPANK_SUCCESS;
}
