/* fabsched-sweep: see fabsched-prolog(8). */
#include "slurm_cmds.h"
#include "fabsched_prolog.h"

int main(int argc, char **argv)
{
	struct fs_pl_ctx seam = { .drain = fs_pl_drain_scontrol,
				  .running_jobs = fs_pl_squeue_running };

	return fs_pl_main_sweep(argc, argv, &seam);
}
