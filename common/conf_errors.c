/*
 * conf_errors.c - the list of fabsched.conf errors, collected so that
 * every error of a file is reported at once.
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

/* ------------------------------------------------------------ error list */

struct fs_errors {
	char **msg;
	size_t n, cap;
	bool oom; /* a message was lost: the list ends with "out of memory" */
};

const char fsc_oom_msg[] = "out of memory";

struct fs_errors *fs_errors_new(void)
{
	return calloc(1, sizeof(struct fs_errors));
}

void fs_errors_clear(struct fs_errors *errs)
{
	if (!errs)
		return;
	for (size_t i = 0; i < errs->n; i++)
		free(errs->msg[i]);
	errs->n = 0;
	errs->oom = false;
}

void fs_errors_free(struct fs_errors *errs)
{
	if (!errs)
		return;
	fs_errors_clear(errs);
	free(errs->msg);
	free(errs);
}

size_t fs_errors_count(const struct fs_errors *errs)
{
	return errs ? errs->n + (errs->oom ? 1 : 0) : 0;
}

const char *fs_errors_get(const struct fs_errors *errs, size_t i)
{
	if (!errs)
		return NULL;
	if (i < errs->n)
		return errs->msg[i];
	if (i == errs->n && errs->oom)
		return fsc_oom_msg;
	return NULL;
}

/* malloc'ed result of a printf format, or NULL */
char *fsc_vformat(const char *fmt, va_list ap) FS_PRINTF(1, 0);

char *fsc_vformat(const char *fmt, va_list ap)
{
	va_list ap2;
	char *s;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0 || !(s = malloc((size_t)n + 1)))
		return NULL;
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static int _errors_take(struct fs_errors *errs, char *s)
{
	if (!s)
		goto oom;
	if (errs->n == errs->cap) {
		size_t cap = errs->cap ? errs->cap * 2 : 8;
		char **m = realloc(errs->msg, cap * sizeof(*m));

		if (!m) {
			free(s);
			goto oom;
		}
		errs->msg = m;
		errs->cap = cap;
	}
	errs->msg[errs->n++] = s;
	return 0;
oom:
	errs->oom = true;
	return -1;
}

int fs_errors_add(struct fs_errors *errs, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (!errs || !fmt)
		return -1;
	va_start(ap, fmt);
	s = fsc_vformat(fmt, ap);
	va_end(ap);
	return _errors_take(errs, s);
}

int fs_errors_print(const struct fs_errors *errs, FILE *out)
{
	size_t n = fs_errors_count(errs);

	for (size_t i = 0; i < n; i++)
		if (fprintf(out, "%s\n", fs_errors_get(errs, i)) < 0)
			return -1;
	return 0;
}
