/*
 * fs_plugin_conf.h — how every fabsched Slurm plugin finds and reads
 * fabsched.conf (plugins only: uses Slurm's logging and xmalloc).
 *
 * Where: $FABSCHED_CONF when set; else fabsched.conf beside the slurm.conf
 * in use, when it exists (as Slurm finds topology.conf and gres.conf);
 * else the library default (/etc/slurm/fabsched.conf; built-in defaults
 * when that is missing).
 */
#ifndef FS_PLUGIN_CONF_H
#define FS_PLUGIN_CONF_H

#include "fabsched_conf.h"

/*
 * Load fabsched.conf for the plugin named `who` (log prefix).  Every error
 * of the file is logged with error(), one line each.  RET a configuration
 * the caller frees with fs_conf_destroy(), or NULL (logged) on failure.
 */
struct fs_conf *fs_plugin_conf_load(const char *who);

#endif
