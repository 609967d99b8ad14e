/*
 * conf_load.c - finding and reading the fabsched.conf file (path,
 * permissions, size) and parsing it.
 * See fabsched_conf.h and fabsched.conf(5).
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* secure_getenv, GNU strerror_r */
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf_private.h"
#include "fs_ib.h"

/* ------------------------------------------------------------ loading */

static const char *_strerror(int e, char *buf, size_t bufsz)
{
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
	return strerror_r(e, buf, bufsz);
#else
	if (strerror_r(e, buf, bufsz))
		snprintf(buf, bufsz, "error %d", e);
	return buf;
#endif
}

/* Read a whole regular file; on error -1 with a message added to errs. */
static int _read_file(const char *path, char **buf, size_t *len,
		      struct fs_errors *errs, int *missing)
{
	char ebuf[128], *b = NULL;
	size_t n = 0, cap = 0;
	struct stat st;
	int fd, e;

	*missing = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		e = errno;
		*missing = e == ENOENT;
		fs_errors_add(errs, "%s: cannot open: %s; expected a readable "
			      "fabsched.conf", path,
			      _strerror(e, ebuf, sizeof(ebuf)));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fs_errors_add(errs, "%s: not a regular file; expected a "
			      "readable fabsched.conf", path);
		goto fail;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			size_t ncap = cap ? cap * 2 : 8192;
			char *nb;

			if (ncap > FS_CONF_MAX_FILE + 2)
				ncap = FS_CONF_MAX_FILE + 2;
			if (n + 1 >= ncap) {
				fs_errors_add(errs,
					      "%s: larger than %u bytes; "
					      "expected a configuration file",
					      path, FS_CONF_MAX_FILE);
				goto fail;
			}
			if (!(nb = realloc(b, ncap))) {
				fs_errors_add(errs, "%s: %s", path, fsc_oom_msg);
				goto fail;
			}
			b = nb;
			cap = ncap;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fs_errors_add(errs, "%s: cannot read: %s; expected a "
				      "readable fabsched.conf", path,
				      _strerror(errno, ebuf, sizeof(ebuf)));
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
fail:
	close(fd);
	free(b);
	return -1;
}

int fs_conf_load(const char *path, struct fs_conf **out,
		 struct fs_errors *errs)
{
	bool named = true;
	char *buf = NULL;
	size_t len = 0;
	int missing, rc;

	if (!out) {
		errno = EINVAL;
		return -1;
	}
	*out = NULL;
	if (!path) {
#if defined(__GLIBC__)
		const char *env = secure_getenv(FS_CONF_ENV);
#else
		const char *env = getenv(FS_CONF_ENV);
#endif
		if (env && *env) {
			path = env;
		} else {
			path = fs_conf_default_path();
			named = false;
		}
	}
	if (!named) {
		/* a missing default file means "all defaults", silently */
		struct stat st;

		if (stat(path, &st) && errno == ENOENT) {
			rc = fs_conf_parse(path, "", 0, out, errs);
			if (!rc)
				(*out)->builtin = true;
			return rc;
		}
	}
	if (_read_file(path, &buf, &len, errs, &missing)) {
		errno = missing ? ENOENT : EINVAL;
		return -1;
	}
	rc = fs_conf_parse(path, buf, len, out, errs);
	free(buf);
	return rc;
}
