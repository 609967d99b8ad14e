/*
 * fs_err.h — the one error-message helper of every fabsched library.
 *
 * The convention of every library (common/, topology/, select/, gres/,
 * prolog/): a function that can fail returns 0 on success and -1 on
 * failure with a one-line message in a caller-supplied buffer (buf, len;
 * NULL or 0: no message), naming the input, the place and the accepted
 * form.  Nothing prints, exits or aborts.  FS_MSG_SIZE is always enough
 * for one message.  fs_errf formats it and returns -1, so a failure path
 * reads
 *	return fs_errf(err, errlen, "%s:%d: ...; expected ...", file, line);
 * Header-only, so that libraries need not link libfabsched_common for it.
 */
#ifndef FS_ERR_H
#define FS_ERR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define FS_MSG_SIZE 2048 /* one message, with paths and the accepted form */

static inline int fs_errf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline int fs_errf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

#endif
