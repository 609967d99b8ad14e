/*
 * fs_err.h — the one error-message helper of every fabsched library.
 *
 * Libraries report failures as "0 / -1 plus a message in a caller-supplied
 * buffer".  fs_errf formats that message (buf may be NULL or len 0: nothing
 * is written) and returns -1, so a failure path reads
 *	return fs_errf(err, errlen, "%s:%d: ...; expected ...", file, line);
 * Header-only, so that libraries need not link libfabsched_common for it.
 */
#ifndef FS_ERR_H
#define FS_ERR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

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
