/*
 * task_rdma.h - per-task HCA choice of the fabsched SPANK plugin.
 */
#ifndef FABSCHED_SPANK_TASK_RDMA_H
#define FABSCHED_SPANK_TASK_RDMA_H

#include <slurm/spank.h>

/*
 * In a task (slurm_spank_task_init: as the job's user, CPU binding
 * applied): when the step's environment has FABSCHED_RDMA_LOCALITY, set
 * the task's UCX_NET_DEVICES, NCCL_IB_HCA, OMPI_MCA_btl_openib_if_include
 * and FABSCHED_RDMA_DEVICES to the HCA nearest its CPUs.  Problems are
 * logged, never fatal to the task.
 */
void fabsched_task_rdma(spank_t sp, const char *record_dir);

#endif
