/*
 * task_limits.c - the fabsched SPANK plugin's job cgroup limits.
 *
 * Slurm 22.05's slurmd runs the Prolog before it creates the job's cgroup,
 * so fabsched-prolog finds none and cannot set hugetlb.<size>.max or
 * rdma.max.  Here, in slurmstepd after the first task of a step was placed
 * in its cgroup, the prolog library finds the job's cgroup from the task's
 * /proc/<pid>/cgroup and writes the same limits through the same code
 * (fs_pl_task_limits, prolog/jobcg.c): the pages from the job's ledger,
 * the HCAs from the step's FABSCHED_RDMA_DEVICES, the counts from
 * fabsched.conf.  This file only gathers the inputs and logs.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/spank.h>

#include "fs_env.h"
#include "fabsched_conf.h"
#include "fabsched_prolog.h"
#include "task_limits.h"

#define CONF_ARG "conf="

/* fabsched.conf into ctx; 0 ok, -1 (logged) */
static int _conf(struct fs_pl_ctx *ctx, int ac, char **av, struct fs_conf **cf)
{
	const char *path = NULL;
	struct fs_errors *errs = fs_errors_new();
	char msg[FS_MSG_SIZE];

	for (int i = 0; i < ac; i++)
		if (!strncmp(av[i], CONF_ARG, strlen(CONF_ARG)))
			path = av[i] + strlen(CONF_ARG);
	if (!errs)
		return -1;
	if (fs_conf_load(path && *path ? path : NULL, cf, errs)) {
		for (size_t i = 0; i < fs_errors_count(errs); i++)
			slurm_error("fabsched: job cgroup limits not set: %s",
				    fs_errors_get(errs, i));
		fs_errors_free(errs);
		return -1;
	}
	fs_errors_free(errs);
	if (fs_pl_ctx_conf(ctx, *cf, msg, sizeof(msg))) {
		slurm_error("fabsched: job cgroup limits not set: %s", msg);
		return -1;
	}
	return 0;
}

const char *fabsched_record_dir(int ac, char **av)
{
	static char dir[FS_PL_PATH];
	struct fs_pl_ctx ctx;
	struct fs_conf *cf = NULL;

	fs_pl_ctx_init(&ctx, "fabsched");
	if (!_conf(&ctx, ac, av, &cf) && ctx.record_dir &&
	    (size_t)snprintf(dir, sizeof(dir), "%s", ctx.record_dir) >= sizeof(dir)) {
		slurm_error("fabsched: JobRecordDir is longer than %zu bytes: no task records",
			    sizeof(dir) - 1);
		dir[0] = '\0';
	}
	fs_conf_destroy(cf);
	return dir[0] ? dir : NULL;
}

/* the library's log lines, one slurm_debug each */
static void _forward(char *buf)
{
	char *save = NULL;

	for (char *l = buf ? strtok_r(buf, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		slurm_debug("%s", l);
}

void fabsched_task_limits(spank_t sp, int ac, char **av)
{
	static char rdma[1024];
	struct fs_pl_ctx ctx;
	struct fs_conf *cf = NULL;
	char msg[FS_MSG_SIZE], *logbuf = NULL;
	size_t loglen = 0;
	uint32_t jobid = 0;
	uid_t uid = 0;
	pid_t pid = 0;
	int task = -1, rc;
	spank_err_t e;

	/* once per step and node: its first task (the extern step has none) */
	if (spank_get_item(sp, S_TASK_ID, &task) != ESPANK_SUCCESS || task != 0)
		return;
	if (spank_get_item(sp, S_JOB_ID, &jobid) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_UID, &uid) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_TASK_PID, &pid) != ESPANK_SUCCESS) {
		slurm_error("fabsched: job cgroup limits not set: no job id, "
			    "user or task pid from slurmstepd");
		return;
	}
	fs_pl_ctx_init(&ctx, "fabsched");
	if (_conf(&ctx, ac, av, &cf))
		goto out;
	/* 26.05's cgroup/v2 names the job's cgroup by its SLUID */
	if (spank_getenv(sp, "SLURM_JOB_SLUID", rdma, sizeof(rdma)) == ESPANK_SUCCESS &&
	    fs_pl_parse_sluid("SLURM_JOB_SLUID", rdma, ctx.job_sluid, msg, sizeof(msg)))
		slurm_error("fabsched: job %u: %s: ignored", jobid, msg);
	e = spank_getenv(sp, FS_ENV_RDMA_DEVICES, rdma, sizeof(rdma));
	if (e == ESPANK_ENV_NOEXIST)
		rdma[0] = 0;
	else if (e != ESPANK_SUCCESS) {
		slurm_error("fabsched: job %u: FABSCHED_RDMA_DEVICES: %s (at most "
			    "%zu bytes): rdma limits not set",
			    jobid, spank_strerror(e), sizeof(rdma) - 1);
		rdma[0] = 0;
	}
	ctx.log = open_memstream(&logbuf, &loglen);
	rc = fs_pl_task_limits(&ctx, jobid, uid, pid, rdma, msg, sizeof(msg));
	if (ctx.log)
		fclose(ctx.log);
	_forward(logbuf);
	free(logbuf);
	/*
	 * A limit the kernel refuses leaves the job without it; the job runs
	 * (the pages stay the job's own: its hugetlbfs mount is size-limited
	 * and nr_hugepages was raised only by what it asked).
	 */
	if (rc < 0)
		slurm_error("fabsched: job %u: job cgroup limits: %s", jobid, msg);
	else if (rc == 0)
		slurm_debug("fabsched: job %u: no job cgroup limits set: %s", jobid, msg);
out:
	fs_conf_destroy(cf);
}
