/*
 * fs_slurmconf.h - what fabsched's commands read from slurm.conf itself
 * (for hosts without libslurm or a running controller): the nodes its
 * NodeName= lines define.  No Slurm header.
 */
#ifndef FABSCHED_FS_SLURMCONF_H
#define FABSCHED_FS_SLURMCONF_H

#include <stddef.h>

/* Where Slurm's configuration lives (Slurm's and Debian's default). */
#ifndef FS_SLURM_CONFDIR
#define FS_SLURM_CONFDIR "/etc/slurm"
/*
 * Each regular file @file in the directories of @dirs (PluginDir form:
 * "dir[:dir...]"), in order, handed to @use until it takes one (returns
 * 0).  RET 0 when one was taken, -1 when none.
 */
int fs_plugin_dir_each(const char *dirs, const char *file, int (*use)(const char *path, void *arg),
		       void *arg);

#endif
/* A configless node's copy of the controller's files (slurmd's link to
 * its conf-cache). */
#define FS_SLURM_CONFIGLESS_DIR "/run/slurm/conf"

/*
 * The slurm.conf in use: $SLURM_CONF when set, else <confdir>/slurm.conf,
 * else a configless node's copy (/run/slurm/conf/slurm.conf); NULL when
 * none exists.  Returns a static string or the environment's.
 */
const char *fs_slurm_conf_path(void);

/*
 * The node names of @path's NodeName= lines (NodeName=DEFAULT skipped),
 * Include files followed (relative to @path's directory, 8 deep at most),
 * comma-joined as written ("n[001-064],gpu[1-4]"): *nodes malloc'ed, NULL
 * when no line names a node; *nlines the NodeName lines read.  -1 with a
 * message (the file and line) when a file cannot be read or a line is
 * longer than slurm.conf allows.
 */
int fs_slurm_conf_nodes(const char *path, char **nodes, size_t *nlines, char *err, size_t errlen);

/*
 * Each regular file @file in the directories of @dirs (PluginDir form:
 * "dir[:dir...]"), in order, handed to @use until it takes one (returns
 * 0).  RET 0 when one was taken, -1 when none.
 */
int fs_plugin_dir_each(const char *dirs, const char *file, int (*use)(const char *path, void *arg),
		       void *arg);

#endif
