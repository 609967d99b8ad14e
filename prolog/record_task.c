/*
 * record_task.c - a task's line in its job's record on this node
 * (<JobRecordDir>/<jobid>/<node>.tasks, see record.c): written by the
 * SPANK plugin in the task, as the job's user, once its CPUs are bound and
 * its HCA chosen.  In libfabsched_prolog_cg: the SPANK plugin links it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabsched_prolog.h"

bool fs_pl_node_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || n > 64 || s[0] == '.' || s[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= 'A' && s[i] <= 'Z') &&
		    !(s[i] >= '0' && s[i] <= '9') && !strchr("._-", s[i]))
			return false;
	return true;
}

/* A CPU list or HCA list as written in a record: no blank, bounded. */
static bool _word_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || n > 4096)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return false;
	return true;
}

int fs_pl_record_task(const char *dir, uint32_t jobid, const char *node, const char *step,
		      int local, int rank, const char *cpus, const char *hca, char *err,
		      size_t errlen)
{
	char path[FS_PL_PATH], *line = NULL;
	int fd, n, rc = 0;

	if (!dir || !*dir)
		return 0;
	if (!fs_pl_node_name_ok(node) || !_word_ok(step) || !_word_ok(cpus) ||
	    (hca && *hca && !_word_ok(hca)))
		return fs_errf(err, errlen,
			       "job record: node \"%.64s\", step \"%.32s\", "
			       "CPUs \"%.64s\" or HCA \"%.64s\" not recordable "
			       "(expected a node name and words without blanks)",
			       node ? node : "", step ? step : "", cpus ? cpus : "",
			       hca ? hca : "");
	if ((size_t)snprintf(path, sizeof(path), "%s/%u/%s.tasks", dir, jobid, node) >=
	    sizeof(path))
		return fs_errf(err, errlen, "%s/%u/%s.tasks: path too long", dir, jobid, node);
	/* as the user: the job's own directory (the prolog made it) */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == ENOENT) {
		/* no job directory: the node's Prolog is not fabsched-prolog,
		   or it could not write the job's record (it logged why) */
		snprintf(err, errlen, "%s/%u: no such directory (made by fabsched-prolog)", dir,
			 jobid);
		return 1;
	}
	if (fd < 0)
		return fs_errf(err, errlen, "%s: %s", path, strerror(errno));
	n = asprintf(&line, "task %s %d %d cpus %s hca %s\n", step, local, rank, cpus,
		     hca && *hca ? hca : "-");
	/* one write: lines of tasks writing at once do not interleave */
	if (n < 0 || write(fd, line, (size_t)n) != n)
		rc = fs_errf(err, errlen, "%s: %s", path, strerror(errno));
	free(line);
	if (close(fd) && !rc)
		rc = fs_errf(err, errlen, "%s: %s", path, strerror(errno));
	return rc;
}
