/*
 * args.h - options of the fabsched SPANK plugin (sbatch, salloc, srun).
 */
#ifndef FABSCHED_SPANK_ARGS_H
#define FABSCHED_SPANK_ARGS_H

#include <stdbool.h>
#include <slurm/spank.h>

#include "fs_env.h"

/* Name of the job-control variable carrying --fabric-locality to the
 * controller: job_desc->spank_job_env holds "FABSCHED_LOCALITY=<value>",
 * prolog and epilog see it as SPANK_FABSCHED_LOCALITY. */
#define FABSCHED_LOCALITY_ENV FS_ENV_LOCALITY

/* The option table, terminated by SPANK_OPTIONS_TABLE_END. */
extern struct spank_option fabsched_spank_options[];

/* --fabric-locality as given and validated, canonical spelling ("rack",
 * "rack@00:30:00"); NULL when the option was not given. */
const char *fabsched_arg_locality(void);

/* --scratch as given and validated, canonical spelling ("200G,fs=xfs");
 * NULL when the option was not given.  The controller reads the option
 * itself (job_submit/fabsched, from the job's SPANK environment entry
 * FABSCHED_SCRATCH_OPTION_ENV) and charges it to the scratch pool. */
#define FABSCHED_SCRATCH_OPTION_ENV "_SLURM_SPANK_OPTION_fabsched_scratch"
const char *fabsched_arg_scratch(void);

#endif
