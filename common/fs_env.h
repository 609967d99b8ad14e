/*
 * fs_env.h - the names of fabsched's environment protocol, in one place.
 *
 * Who sets what, and who reads it:
 *   sbatch/salloc/srun options -> fabsched.so (SPANK, job control
 *   environment) -> slurmctld (job_submit, placement) and, with Slurm's
 *   SPANK_ prefix, the prolog and epilog;
 *   gres/rdma, gres/hugepages (slurmd) -> job, step, prolog and tasks;
 *   slurmd's own environment -> the gres plugins (recorded sysfs trees).
 */
#ifndef FABSCHED_FS_ENV_H
#define FABSCHED_FS_ENV_H

/* Slurm's prefix of SPANK job control variables in the prolog/epilog */
#define FS_ENV_SPANK "SPANK_"

/* --fabric-locality=LEVEL[@WAIT] as given (fabsched.so -> slurmctld) */
#define FS_ENV_LOCALITY "FABSCHED_LOCALITY"
/* --scratch=SIZE[,fs=] as given (fabsched.so -> job_submit, prolog) */
#define FS_ENV_SCRATCH "FABSCHED_SCRATCH"
/* the scratch pool charge job_submit made (job_submit -> prolog) */
#define FS_ENV_SCRATCH_CHARGE "FABSCHED_SCRATCH_CHARGE"
/* hugepages per NUMA node "2m:<numa>=<pages>,..." and their count
 * (gres/hugepages -> prolog, epilog, job) */
#define FS_ENV_HUGEPAGES "FABSCHED_HUGEPAGES"
#define FS_ENV_HUGEPAGES_COUNT "FABSCHED_HUGEPAGES_COUNT"
/* the pages a job asked per node "2m:8200,1g:4", which its gres units may
 * round up (job_submit -> prolog, with the SPANK_ prefix) */
#define FS_ENV_HUGEPAGES_ASKED "FABSCHED_HUGEPAGES_ASKED"
/* the job's private hugetlbfs mount (task prolog -> tasks) */
#define FS_ENV_HUGEPAGES_MOUNT "FABSCHED_HUGEPAGES_MOUNT"
/* the job's HCAs, and each with its local CPUs (gres/rdma -> prolog,
 * fabsched.so task hook) */
#define FS_ENV_RDMA_DEVICES "FABSCHED_RDMA_DEVICES"
#define FS_ENV_RDMA_LOCALITY "FABSCHED_RDMA_LOCALITY"
/* the InfiniBand partition key of the job's account (task prolog -> tasks) */
#define FS_ENV_IB_PKEY "FABSCHED_IB_PKEY"
/* a recorded sysfs tree instead of /sys (slurmd's environment, tests) */
#define FS_ENV_SYSFS_ROOT "FABSCHED_SYSFS_ROOT"
/* fabsched's version, in every task (fabsched.so) */
#define FS_ENV_VERSION "FABSCHED_VERSION"
/* the helpers do not drain the node (tests) */
#define FS_ENV_NO_DRAIN "FABSCHED_NO_DRAIN"
/* fabsched.conf path instead of the default */
#define FS_ENV_CONF "FABSCHED_CONF"

/* Not the environment, the same protocol: the note select/cons_tres_fabric
 * puts in a pending job's SystemComment while it waits for its locality
 * ("fabsched: Locality: waiting for one rack ..."), which users read with
 * squeue -O system_comment and fabsched metrics counts. */
#define FS_WAIT_NOTE "fabsched: Locality: "

#endif
