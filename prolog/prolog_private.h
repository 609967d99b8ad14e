/*
 * prolog_private.h - helpers shared by the files of libfabsched_prolog.
 */
#ifndef FABSCHED_PROLOG_PRIVATE_H
#define FABSCHED_PROLOG_PRIVATE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "fabsched_prolog.h"

/* Format into err (when not NULL); always returns -1. */
#include "fs_err.h"

/*
 * Open an absolute directory path component by component, O_NOFOLLOW on
 * each; with create, missing components are made (mode, root-owned).
 * Each component must be a directory owned by root and not writable by
 * group or others; above the last one, a sticky shared directory (/tmp)
 * is accepted, the last one never.  Returns an fd or -1.
 */
/* An entry a helper reuses (@fd, at @path: a directory when @dir, else a
 * regular file) is root's and not writable by group or others; 0, or -1
 * with err. */
int fs_pl_check_root_entry(int fd, const char *path, bool dir, char *err, size_t errlen);
int fs_pl_open_root_dir(const char *path, int create, mode_t mode, char *err, size_t errlen);

/* Write a whole short string to a file (O_WRONLY|O_NOFOLLOW, no create). */
int fs_pl_write_str(const char *path, const char *s, char *err, size_t errlen);
/* Read a file's first line (up to bufsz - 1 bytes, newline cut). */
int fs_pl_read_line(const char *path, char *buf, size_t bufsz, char *err, size_t errlen);

/* Another file of a pool's sysfs directory (surplus_hugepages, ...). */
int fs_pl_pool_read(int node, uint64_t page_kb, const char *file, uint64_t *out, char *err,
		    size_t errlen);

/* Find a job cgroup; fills l->cgroup / cg_version, 0 when none. */
int fs_pl_cgroup_find(struct fs_pl_ctx *ctx, const struct fs_pl_ledger *l, char *path,
		      size_t pathsz, int *version);
/* The same from a job id and its user (rdma limits, which keep no ledger). */
int fs_pl_cgroup_find_job(struct fs_pl_ctx *ctx, uint32_t jobid, uid_t uid, char *path,
			  size_t pathsz, int *version);
/*
 * Set hugetlb.<size>.max and .rsvd.max (v2; v1: .limit_in_bytes and
 * .rsvd.limit_in_bytes) of the job cgroup cg to value, through
 * fs_pl_cgroup_open (jobcg.c).  A value already there is not written again.
 */
int fs_pl_cgroup_limit(const char *cg, int version, uint64_t page_kb, const char *value, char *err,
		       size_t errlen);
/* Mount point of the cgroup2 hierarchy (version 2) or of the v1 hugetlb
   one (version 1) in /proc/self/mountinfo: 1 found, 0 not. */
int fs_pl_cgroup_mount(int version, char *out, size_t outsz);
/*
 * Open the job cgroup directory cg ("<parent>/job_<id>"): the parent chain
 * through fs_pl_open_root_dir (root's, no link), then the job's directory
 * with O_NOFOLLOW, which must be root's.  Returns its fd and the parent's
 * in *pfd, or -1.
 */
int fs_pl_cgroup_open(const char *cg, int *pfd, char *err, size_t errlen);
/*
 * Write s to the existing file name of dirfd (dir: for messages) in one
 * write(2), never following a link.  Appending: a cgroup file takes each
 * write as one command, and a plain file (tests) keeps every line.
 */
int fs_pl_write_at(int dirfd, const char *dir, const char *name, const char *s, char *err,
		   size_t errlen);
/*
 * rdma.max lines for the HCAs of list into the job cgroup open as jfd (its
 * parent as pfd), as fs_pl_rdma_limit documents (rdmacg.c): 1 written, 0
 * skipped (logged), -1 error.
 */
int fs_pl_rdma_cg_write(struct fs_pl_ctx *ctx, uint32_t jobid, const char *cg, int version, int pfd,
			int jfd, const char *list, char *err, size_t errlen);

/* Kill processes of uid that have files of mount open or mapped. */
int fs_pl_kill_users(struct fs_pl_ctx *ctx, uint32_t jobid, const char *mount, uid_t uid);

#endif
