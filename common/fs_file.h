/*
 * fs_file.h — open an input file named by a path, as a regular file only.
 *
 * Every file fabsched reads by name (slurm.conf and what it includes, the
 * fabric model, fabric dumps, node-name-maps, rack maps, the watch's
 * counters, a job's locality record) is a regular file.  A FIFO, a
 * terminal or a socket given instead would block the reader for ever,
 * inside slurmctld when a plugin reads it, so it is refused at once with
 * a message saying what it is.  The open never blocks (O_NONBLOCK, which
 * has no effect on the regular file then read), and the descriptor is
 * close-on-exec.
 *
 *	char why[128];
 *	FILE *f = fs_fopen_regular(path, why, sizeof(why));
 *	if (!f)
 *		return fs_errf(err, errlen, "%s: cannot open: %s", path, why);
 *
 * Header-only, like fs_err.h, so that libraries need not link
 * libfabsched_common for it.
 */
#ifndef FS_FILE_H
#define FS_FILE_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* @path opened for reading if it is a regular file; else NULL with the
   reason in why (strerror's text, or what the file is instead). */
static inline FILE *fs_fopen_regular(const char *path, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	const char *what;
	struct stat st;
	FILE *f;

	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st)) {
		snprintf(why, whylen, "%s", strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		what = S_ISDIR(st.st_mode)    ? "a directory"
		       : S_ISFIFO(st.st_mode) ? "a FIFO"
		       : S_ISSOCK(st.st_mode) ? "a socket"
		       : S_ISCHR(st.st_mode)  ? "a character device"
		       : S_ISBLK(st.st_mode)  ? "a block device"
					      : "of another kind";
		snprintf(why, whylen, "it is %s; expected a regular file", what);
		close(fd);
		return NULL;
	}
	if (!(f = fdopen(fd, "r"))) {
		snprintf(why, whylen, "%s", strerror(errno));
		close(fd);
	}
	return f;
}

#endif
