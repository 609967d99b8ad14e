/*
 * fs_plugin_conf.h — how every fabsched Slurm plugin finds and reads
 * fabsched.conf (plugins only: uses Slurm's logging and xmalloc).
 *
 * Where: $FABSCHED_CONF when set; else fabsched.conf beside the slurm.conf
 * in use, when it exists (as Slurm finds topology.conf and gres.conf);
 * else the library's search (common/conf_load.c, fabsched.conf(5) FILES).
 */
#ifndef FS_PLUGIN_CONF_H
#define FS_PLUGIN_CONF_H

#include "fabsched_conf.h"

/*
 * Load fabsched.conf for the plugin named `who` (log prefix).  Every error
 * of the file is logged with error(), one line each.  RET a configuration
 * the caller frees with fs_conf_destroy(), or NULL (logged) on failure.
 */
struct fs_conf *fabsched_plugin_conf_load(const char *who);

/* The names of slurmctld's nodes by node index (node_record_count of
 * them, NULL for a gap), in an xmalloc'ed array; the names are Slurm's. */
const char **fs_plugin_node_names(void);

#endif
