/*
 * gres_private.h - helpers shared by the files of the gres library.
 */
#ifndef FABSCHED_GRES_PRIVATE_H
#define FABSCHED_GRES_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "fabsched_gres.h"

#if defined(__GNUC__)
#define FS_GRES_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define FS_GRES_PRINTF(f, a)
#endif

/* Write a message to err (when not NULL) and return -1. */
#include "fs_err.h"

/* "<root><rel>" malloc'ed; NULL on ENOMEM. */
char *fs_gres_path(const char *root, const char *fmt, ...) FS_GRES_PRINTF(2, 3);

/*
 * Read a small sysfs file: contents without the trailing newline, in a
 * malloc'ed string.  Returns 0, or -1 with a message; *missing (when not
 * NULL) is set when the file does not exist, and then no message is
 * written.
 */
int fs_gres_read(const char *path, char **out, int *missing, char *err, size_t errlen);
/* Read a file holding one decimal unsigned number. */
int fs_gres_read_u64(const char *path, uint64_t *out, int *missing, char *err, size_t errlen);

/* printable copy of a value for messages (at most 64 bytes, escaped) */
void fs_gres_quote(const char *s, char *buf, size_t bufsz);

char *fs_gres_strdup(const char *s);

#endif
