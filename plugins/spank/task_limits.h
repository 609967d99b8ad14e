/*
 * task_limits.h - the job's cgroup limits from slurmstepd (fabsched SPANK
 * plugin).
 */
#ifndef FABSCHED_SPANK_TASK_LIMITS_H
#define FABSCHED_SPANK_TASK_LIMITS_H

#include <slurm/spank.h>

/*
 * In slurm_spank_task_post_fork (slurmstepd, root, the task already in the
 * step's cgroup), for local task 0 of each step: set the job cgroup's
 * hugetlb and rdma limits as the prolog would (fs_pl_task_limits), for the
 * Slurm versions whose slurmd runs the Prolog before the job's cgroup
 * exists.  av: the plugin's plugstack.conf arguments (conf=<fabsched.conf>).
 * Problems are logged; the task is never failed here.
 */
void fabsched_task_limits(spank_t sp, int ac, char **av);
/* JobRecordDir of fabsched.conf (the plugin's conf= argument, else the
 * usual places), NULL when unset or unreadable (logged). */
const char *fabsched_record_dir(int ac, char **av);

#endif
