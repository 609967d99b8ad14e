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

/* Whether s is a GID or GUID as sysfs prints them: 8 (or 4) groups of 4
 * hexadecimal digits separated by ':'. */
int fs_gres_hex_gid_ok(const char *s);
/* 0 when @gid (read from @path) is one; else -1 with a message naming the
 * file and the form expected. */
int fs_gres_gid_check(const char *path, const char *gid, char *err, size_t errlen);

/*
 * The RoCE part of port @pname of HCA @hca under @root (link layer
 * Ethernet) into pt's gid_v2_*, ngid_v2, netdev, mtu and operstate: the
 * GID table read up to its first missing gids/<i>; an empty entry (all
 * zero) and one whose type cannot be read are skipped; the net device is
 * that of the first RoCE v2 GID of an IPv4 address, else of an IPv6 one,
 * else of any entry.  -1 with a message naming the file on a malformed
 * GID, device name, MTU or operstate.
 */
int fs_gres_roce_port(const char *root, const char *hca, const char *pname, struct fs_gres_port *pt,
		      char *err, size_t errlen);

#endif
