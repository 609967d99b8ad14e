/*
 * fs_run.h - run a program and wait for it, without a shell: the one way
 * fabsched's command and root helpers start Slurm's commands, mkfs and
 * nvme tools.
 *
 * argv[0] is looked up in PATH unless it holds a '/'.  The child gets
 * @env (NULL: ours) and, unless captured, our stdout; stdin is /dev/null
 * with FS_RUN_QUIET, and stdout too.  With @timeout > 0 the child is
 * killed (SIGALRM) after that many seconds.
 */
#ifndef FABSCHED_FS_RUN_H
#define FABSCHED_FS_RUN_H

#include <stddef.h>

#define FS_RUN_QUIET 1 /* stdin and (uncaptured) stdout on /dev/null */

struct fs_run {
	char *const *env; /* NULL: this process's environment */
	unsigned timeout; /* seconds, 0: none */
	int flags;	  /* FS_RUN_QUIET */
};

/*
 * Runs argv; with @out, its stdout is read into *out (malloc'ed,
 * NUL-terminated; the caller frees it, also on failure).  Returns the
 * exit status (0-255; 127: could not be executed), 128 + the signal that
 * killed it, or -1 when it could not be started (errno set).
 */
int fs_run(char *const argv[], const struct fs_run *o, char **out);

/* "exit status 3", "killed by signal 14", "could not be started": what
 * fs_run's result @rc means, into buf. */
const char *fs_run_status(int rc, char *buf, size_t n);

#endif /* FABSCHED_FS_RUN_H */
