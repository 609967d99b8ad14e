/*
 * task_rdma.c - the fabsched SPANK plugin's per-task HCA choice.
 *
 * gres/rdma puts the step's HCAs with their local CPUs in the step's
 * environment (FABSCHED_RDMA_LOCALITY).  Slurm 22.05 calls the gres
 * plugin's own task hook only for steps with a binding option, so the
 * choice is made here, for every task of every step: this runs in
 * slurm_spank_task_init, after slurmstepd applied the task's CPU binding.
 * The choosing is the gres library's (fs_gres_rdma_task_env); this file
 * only reads and writes the task's environment.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>
#include <slurm/spank.h>

#include "fabsched_gres.h"
#include "fabsched_prolog.h"
#include "task_rdma.h"

/* longest FABSCHED_RDMA_LOCALITY read: 64 HCAs with long CPU lists */
#define LOC_MAX (1 << 20)

/* the variable's value (malloc'ed), NULL when unset or unreadable */
static char *_getenv(spank_t sp, const char *name)
{
	for (int len = 4096; len <= LOC_MAX; len *= 2) {
		char *buf = malloc((size_t)len);
		spank_err_t rc;

		if (!buf)
			return NULL;
		rc = spank_getenv(sp, name, buf, len);
		if (rc == ESPANK_SUCCESS)
			return buf;
		free(buf);
		if (rc != ESPANK_NOSPACE) {
			if (rc != ESPANK_ENV_NOEXIST)
				slurm_error("fabsched: cannot read %s: %s", name,
					    spank_strerror(rc));
			return NULL;
		}
	}
	slurm_error("fabsched: %s is longer than %d bytes: task HCAs left "
		    "as the step's",
		    name, LOC_MAX);
	return NULL;
}

/* The task's line in its job's record (JobRecordDir): its step, ids,
 * CPUs and HCA (@hca "": none chosen). */
static void _record(spank_t sp, const char *dir, uint32_t step, const char *cpus, const char *hca)
{
	char msg[FS_MSG_SIZE], node[72], st[16], *own = NULL;
	uint32_t jobid = 0;
	int local = -1, rank = -1;

	if (step == SLURM_EXTERN_CONT)
		return;
	if (step == SLURM_BATCH_SCRIPT)
		snprintf(st, sizeof(st), "batch");
	else if (step == SLURM_INTERACTIVE_STEP)
		snprintf(st, sizeof(st), "interactive");
	else
		snprintf(st, sizeof(st), "%u", step);
	if (spank_get_item(sp, S_JOB_ID, &jobid) != ESPANK_SUCCESS ||
	    spank_getenv(sp, "SLURMD_NODENAME", node, sizeof(node)) != ESPANK_SUCCESS) {
		slurm_error("fabsched: no job id or node name: task not recorded");
		return;
	}
	spank_get_item(sp, S_TASK_ID, &local);
	spank_get_item(sp, S_TASK_GLOBAL_ID, &rank);
	if (!cpus && !(cpus = own = fs_gres_task_cpus(msg, sizeof(msg)))) {
		slurm_error("fabsched: job %u: task not recorded: %s", jobid, msg);
		return;
	}
	switch (fs_pl_record_task(dir, jobid, node, st, local, rank, cpus, hca, msg, sizeof(msg))) {
	case 0:
		break;
	case 1:
		slurm_debug("fabsched: job %u: task not recorded: %s", jobid, msg);
		break;
	default:
		slurm_error("fabsched: job %u: task not recorded: %s", jobid, msg);
	}
	free(own);
}

void fabsched_task_rdma(spank_t sp, const char *record_dir)
{
	struct fs_gres_env env = { 0 };
	char msg[FS_MSG_SIZE], *loc, *cpus = NULL, id[16] = "";
	const char *hca = "";
	uint32_t step = 0;
	int local = 0;

	spank_get_item(sp, S_JOB_STEPID, &step);
	/* the batch script keeps the job's HCAs (its steps choose per task) */
	if (step == SLURM_BATCH_SCRIPT || !(loc = _getenv(sp, FS_GRES_RDMA_LOCALITY_ENV))) {
		if (record_dir)
			_record(sp, record_dir, step, NULL, "");
		return;
	}
	/* the local task id spreads tasks over equally near HCAs */
	if (spank_get_item(sp, S_TASK_ID, &local) == ESPANK_SUCCESS)
		snprintf(id, sizeof(id), "%d", local);
	if (fs_gres_rdma_task(loc, id, &env, &cpus, msg, sizeof(msg))) {
		slurm_error("fabsched: task HCAs left as the step's: %s", msg);
		goto out;
	}
	/* the step's RoCE variables, when the task's HCA is not RoCE */
	for (size_t i = 0; i < env.nunset; i++)
		spank_unsetenv(sp, env.unset[i]);
	for (size_t i = 0; i < env.n; i++) {
		spank_err_t rc = spank_setenv(sp, env.name[i], env.value[i], 1);

		if (rc != ESPANK_SUCCESS)
			slurm_error("fabsched: cannot set %s=%s: %s", env.name[i], env.value[i],
				    spank_strerror(rc));
		if (!strcmp(env.name[i], "UCX_NET_DEVICES"))
			hca = env.value[i]; /* "mlx5_0:1" */
	}
	slurm_debug("fabsched: task on CPUs %s: %s", cpus, env.n > 3 ? env.value[3] : "");
out:
	if (record_dir)
		_record(sp, record_dir, step, cpus, hca);
	fs_gres_env_clear(&env);
	free(cpus);
	free(loc);
}
