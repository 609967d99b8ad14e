/* fabsched-prolog: see fabsched-prolog(8). */
#include "slurm_cmds.h"
#include "fabsched_prolog.h"

int main(int argc, char **argv)
{
	struct fs_pl_ctx seam = { .drain = fs_pl_drain_scontrol, .hold = fs_pl_hold_scontrol };

	return fs_pl_main_prolog(argc, argv, &seam);
}
