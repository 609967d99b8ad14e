/*
 * slurm_cmds.c - the Slurm commands of fabsched-prolog, -epilog and -sweep:
 * draining a node whose set-up failed ("scontrol update NodeName=<node>
 * State=DRAIN Reason=..."), holding a job whose own request could not be
 * met (AdminComment, "scontrol requeuehold", else scancel), and the jobs
 * running on the node (squeue), with
 * the commands of the Slurm that runs them.  Linked into the executables
 * only: libfabsched_prolog never runs a Slurm command (it calls the seams
 * of struct fs_pl_ctx).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs_env.h"
#include "fs_run.h"
#include "slurm_cmds.h"

/* The parent of process @pid (/proc/<pid>/stat), or -1. */
static long _ppid(long pid)
{
	char path[64], buf[512], *rp;
	long pp = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "re")))
		return -1;
	if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')))
		if (sscanf(rp + 1, " %*c %ld", &pp) != 1)
			pp = -1;
	fclose(f);
	return pp;
}

/*
 * Slurm's command @name beside the Slurm that runs us: the nearest of our
 * first 4 ancestors (a wrapper script may stand between) that is
 * <prefix>/sbin/slurmd or slurmstepd gives <prefix>/bin/<name>, which
 * speaks its release's protocol and authentication.  Root-owned paths
 * only; @name from PATH otherwise.
 */
static const char *_slurm_cmd(const char *name, char *buf, size_t sz)
{
	long pid = (long)getppid();

	for (int up = 0; up < 4 && pid > 1; up++, pid = _ppid(pid)) {
		char link[64], *slash;
		ssize_t n;
		struct stat st;

		snprintf(link, sizeof(link), "/proc/%ld/exe", pid);
		n = readlink(link, buf, sz - 1);
		if (n <= 0 || (size_t)n + strlen(name) + 6 >= sz)
			continue;
		buf[n] = '\0';
		if (!(slash = strrchr(buf, '/')) || slash - buf < 5 ||
		    strncmp(slash - 5, "/sbin", 5) ||
		    (strcmp(slash, "/slurmd") && strcmp(slash, "/slurmstepd")))
			continue;
		snprintf(slash - 5, sz - (size_t)(slash - 5 - buf), "/bin/%s", name);
		if (stat(buf, &st) || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
		    (st.st_mode & (S_IWGRP | S_IWOTH)) || access(buf, X_OK))
			return name;
		return buf;
	}
	return name;
}

/* "<prefix><prog> job <id>: <msg>" into @buf, printable ASCII without a
 * double quote (scontrol's parser), cut to fit. */
static void _reason(char *buf, size_t sz, const char *prefix, const char *prog, uint32_t jobid,
		    const char *msg)
{
	size_t k = (size_t)snprintf(buf, sz, "%s%s job %u: %s", prefix, prog, jobid, msg);

	if (k >= sz)
		k = sz - 1;
	for (size_t i = strlen(prefix); i < k; i++)
		if (buf[i] < 0x20 || buf[i] > 0x7e || buf[i] == '"')
			buf[i] = '?';
}

/*
 * Slurm drains a node whose prolog or epilog fails with the reason
 * "Prolog error"; drain it first with the precise reason, so that
 * "scontrol show node" tells the admin what is wrong.  Needs
 * SLURMD_NODENAME (set by slurmd); bounded to 15 s; best effort.
 */
void fs_pl_drain_scontrol(const char *prog, uint32_t jobid, const char *msg)
{
	const char *node = getenv("SLURMD_NODENAME");
	char arg_node[300], arg_reason[300], path[4096];

	if (!node || !*node || strlen(node) > 255 || getenv(FS_ENV_NO_DRAIN))
		return;
	for (const char *c = node; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789-_.",
			    *c))
			return;
	snprintf(arg_node, sizeof(arg_node), "NodeName=%s", node);
	_reason(arg_reason, sizeof(arg_reason), "Reason=", prog, jobid, msg);
	{
		char *av[] = { (char *)_slurm_cmd("scontrol", path, sizeof(path)),
			       "update",
			       arg_node,
			       "State=DRAIN",
			       arg_reason,
			       NULL };
		struct fs_run o = { .timeout = 15 };

		fs_run(av, &o, NULL);
	}
}

/* Slurm's state of job @id (squeue %T: "RUNNING", "PENDING", ...) into
 * @buf, "" when it cannot be told. */
static void _job_state(const char *id, char *buf, size_t sz)
{
	char path[4096], *out = NULL;
	char *av[] = { (char *)_slurm_cmd("squeue", path, sizeof(path)),
		       "--noheader",
		       "--format=%T",
		       "--jobs",
		       (char *)id,
		       NULL };
	struct fs_run o = { .timeout = 15 };

	buf[0] = '\0';
	if (fs_run(av, &o, &out) == 0 && out)
		snprintf(buf, sz, "%.*s", (int)strcspn(out, " \n"), out);
	free(out);
}

int fs_pl_hold_scontrol(const char *prog, uint32_t jobid, const char *msg)
{
	char id[16], arg_job[32], arg_comment[400], path[4096], state[64];
	struct fs_run o = { .timeout = 15 };

	snprintf(id, sizeof(id), "%u", jobid);
	snprintf(arg_job, sizeof(arg_job), "JobId=%u", jobid);
	_reason(arg_comment, sizeof(arg_comment), "AdminComment=", prog, jobid, msg);
	{ /* the reason where the owner sees it: best effort */
		char *av[] = { (char *)_slurm_cmd("scontrol", path, sizeof(path)), "update",
			       arg_job, arg_comment, NULL };

		fs_run(av, &o, NULL);
	}
	{
		char *av[] = { (char *)_slurm_cmd("scontrol", path, sizeof(path)), "requeuehold",
			       id, NULL };

		if (fs_run(av, &o, NULL) == 0)
			return 0;
	}
	/* not requeued: held already (another node's prolog of the same
	   job), or a job that cannot be requeued (salloc, srun, --no-requeue):
	   only one still starting is cancelled */
	_job_state(id, state, sizeof(state));
	if (strcmp(state, "RUNNING") && strcmp(state, "CONFIGURING"))
		return state[0] ? 0 : -1;
	{
		char *av[] = { (char *)_slurm_cmd("scancel", path, sizeof(path)), id, NULL };

		return fs_run(av, &o, NULL) == 0 ? 0 : -1;
	}
}

int fs_pl_squeue_running(const char *query, const char *node, char **out)
{
	char arg_node[300], path[4096];
	struct fs_run o = { .timeout = 60 };

	if (query) {
		char *av[] = { "/bin/sh", "-c", (char *)query, NULL };

		return fs_run(av, &o, out);
	}
	snprintf(arg_node, sizeof(arg_node), "--nodelist=%s", node);
	{
		char *av[] = { (char *)_slurm_cmd("squeue", path, sizeof(path)), "--noheader",
			       "--format=%A", arg_node, NULL };

		return fs_run(av, &o, out);
	}
}
