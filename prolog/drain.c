/*
 * drain.c - how fabsched-prolog, -epilog and -sweep drain a node whose
 * set-up failed: "scontrol update NodeName=<node> State=DRAIN Reason=...",
 * with the scontrol of the Slurm that runs them.  Linked into the
 * executables only: libfabsched_prolog never runs a Slurm command (it
 * calls the drain seam of struct fs_pl_ctx).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fs_env.h"
#include "drain.h"

/*
 * The scontrol of the Slurm that runs us: the parent (slurmd, or
 * slurmstepd) is <prefix>/sbin/slurmd, so <prefix>/bin/scontrol, which
 * speaks its release's protocol and authentication.  Root-owned paths
 * only; "scontrol" from PATH otherwise.
 */
static const char *_scontrol(char *buf, size_t sz)
{
	char link[64], *slash;
	ssize_t n;
	struct stat st;

	snprintf(link, sizeof(link), "/proc/%ld/exe", (long)getppid());
	n = readlink(link, buf, sz - 1);
	if (n <= 0 || (size_t)n >= sz - 16)
		return "scontrol";
	buf[n] = '\0';
	if (!(slash = strrchr(buf, '/')) || slash - buf < 5 ||
	    strncmp(slash - 5, "/sbin", 5) ||
	    (strcmp(slash, "/slurmd") && strcmp(slash, "/slurmstepd")))
		return "scontrol";
	strcpy(slash - 5, "/bin/scontrol");
	if (stat(buf, &st) || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) || access(buf, X_OK))
		return "scontrol";
	return buf;
}

/*
 * Slurm drains a node whose prolog or epilog fails with the reason
 * "Prolog error"; drain it first with the precise reason, so that
 * "scontrol show node" tells the admin what is wrong.  Needs
 * SLURMD_NODENAME (set by slurmd); bounded to 15 s; best effort.
 */
void fs_pl_drain_scontrol(const char *prog, uint32_t jobid, const char *msg)
{
	const char *node = getenv("SLURMD_NODENAME"), *sc;
	char arg_node[300], arg_reason[300], path[4096];
	size_t k;
	pid_t pid;
	int st;

	if (!node || !*node || strlen(node) > 255 || getenv(FS_ENV_NO_DRAIN))
		return;
	for (const char *c = node; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789-_.", *c))
			return;
	snprintf(arg_node, sizeof(arg_node), "NodeName=%s", node);
	k = (size_t)snprintf(arg_reason, sizeof(arg_reason), "Reason=%s job %u: %s",
			     prog, jobid, msg);
	if (k >= sizeof(arg_reason))
		k = sizeof(arg_reason) - 1;
	for (size_t i = 7; i < k; i++)	/* printable, no quote */
		if (arg_reason[i] < 0x20 || arg_reason[i] > 0x7e || arg_reason[i] == '"')
			arg_reason[i] = '?';
	sc = _scontrol(path, sizeof(path));	/* before fork: our parent */
	if ((pid = fork()) == 0) {
		char *av[] = { "scontrol", "update", arg_node, "State=DRAIN",
			       arg_reason, NULL };

		alarm(15);
		execvp(sc, av);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
}
