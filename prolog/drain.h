/*
 * drain.h - the drain of the node helpers (prolog/drain.c), outside
 * libfabsched_prolog: the executables set it as the drain seam of their
 * struct fs_pl_ctx.
 */
#ifndef FABSCHED_PROLOG_DRAIN_H
#define FABSCHED_PROLOG_DRAIN_H

#include <stdint.h>

/* Drain this node (SLURMD_NODENAME) with "<prog> job <id>: <msg>" as the
 * reason, through the scontrol beside the slurmd that runs us; bounded to
 * 15 s, best effort; nothing when FABSCHED_NO_DRAIN is set. */
void fs_pl_drain_scontrol(const char *prog, uint32_t jobid, const char *msg);

#endif
