/*
 * slurm_cmds.h - the Slurm commands of the node helpers
 * (prolog/slurm_cmds.c), outside libfabsched_prolog: the executables set
 * them as the seams of their struct fs_pl_ctx, so that the library never
 * runs a Slurm command itself.
 */
#ifndef FABSCHED_PROLOG_SLURM_CMDS_H
#define FABSCHED_PROLOG_SLURM_CMDS_H

#include <stdint.h>

/* Drain this node (SLURMD_NODENAME) with "<prog> job <id>: <msg>" as the
 * reason, through the scontrol beside the slurmd that runs us; bounded to
 * 15 s, best effort; nothing when FABSCHED_NO_DRAIN is set. */
void fs_pl_drain_scontrol(const char *prog, uint32_t jobid, const char *msg);

/* Keep job @jobid, whose own request could not be met, from running while
 * the node stays up: "<prog> job <id>: <msg>" as its AdminComment, then
 * "scontrol requeuehold"; a job that cannot be requeued is cancelled while
 * it still starts (one Slurm already holds or ended is left as it is).
 * Each command bounded to 15 s.  0 when the job will not run, -1 when
 * that cannot be made sure (the caller then drains the node). */
int fs_pl_hold_scontrol(const char *prog, uint32_t jobid, const char *msg);

/* The ids of the jobs running on @node, one a line, into *out: squeue
 * (beside the slurmd that runs us, else from PATH), or the administrator's
 * @query command through /bin/sh -c; bounded to 60 s.  Returns the
 * command's exit status (fs_run). */
int fs_pl_squeue_running(const char *query, const char *node, char **out);

#endif
