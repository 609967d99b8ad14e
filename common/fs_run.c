/*
 * fs_run.c - run a program and wait for it, without a shell (fs_run.h).
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* execvpe */
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fs_run.h"

extern char **environ;

/* The child: stdio as asked, then the program. */
static void _child(char *const argv[], const struct fs_run *o, int outfd)
{
	int null = -1;

	if (o && (o->flags & FS_RUN_QUIET))
		null = open("/dev/null", O_RDWR);
	if (null >= 0)
		dup2(null, 0);
	if (outfd >= 0)
		dup2(outfd, 1);
	else if (null >= 0)
		dup2(null, 1);
	if (o && o->timeout)
		alarm(o->timeout);
	execvpe(argv[0], argv, o && o->env ? o->env : environ);
	_exit(127);
}

/* The child's stdout until it closes it. */
static char *_slurp(int fd)
{
	size_t len = 0, cap = 8192;
	char *buf = malloc(cap);
	ssize_t r;

	if (!buf)
		return NULL;
	for (;;) {
		if (len + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb)
				break;
			buf = nb;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	return buf;
}

int fs_run(char *const argv[], const struct fs_run *o, char **out)
{
	int fds[2] = { -1, -1 }, st;
	pid_t pid;

	if (out)
		*out = NULL;
	if (out && pipe2(fds, O_CLOEXEC))
		return -1;
	if ((pid = fork()) < 0) {
		int e = errno;

		if (out) {
			close(fds[0]);
			close(fds[1]);
		}
		errno = e;
		return -1;
	}
	if (pid == 0)
		_child(argv, o, fds[1]);
	if (out) {
		close(fds[1]);
		*out = _slurp(fds[0]);
		close(fds[0]);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

const char *fs_run_status(int rc, char *buf, size_t n)
{
	if (rc < 0)
		snprintf(buf, n, "could not be started: %s", strerror(errno));
	else if (rc > 128)
		snprintf(buf, n, "killed by signal %d", rc - 128);
	else if (rc == 127)
		snprintf(buf, n, "exit status 127 (not found or not executable)");
	else
		snprintf(buf, n, "exit status %d", rc);
	return buf;
}
