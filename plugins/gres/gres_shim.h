/*
 * gres_shim.h - what gres/rdma and gres/hugepages share: the names that
 * differ between Slurm releases (22.05, and 23.02 on: 24.11, 25.11,
 * 26.05), the helpers of gres_common.c, and the hooks each resource's
 * entry file (gres_rdma.c, gres_hugepages.c) provides to the shared entry
 * points.
 */
#ifndef FABSCHED_GRES_SHIM_H
#define FABSCHED_GRES_SHIM_H

#include <stdint.h>

#include "slurm/slurm.h"
#include "src/common/bitstring.h"
#include "src/common/list.h"
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
#include "src/interfaces/gres.h"
typedef list_t *fs_list_t;
typedef hostlist_t *fs_hostlist_t;
typedef gres_prep_t fs_prep_t;
#define FS_PREP_BUILD_ENV gres_p_prep_build_env
#define FS_PREP_SET_ENV gres_p_prep_set_env
#else
#include "src/common/gres.h"
typedef List fs_list_t;
typedef hostlist_t fs_hostlist_t;
typedef gres_epilog_info_t fs_prep_t;
#define FS_PREP_BUILD_ENV gres_p_epilog_build_env
#define FS_PREP_SET_ENV gres_p_epilog_set_env
#endif
#include "src/common/node_conf.h"

#include "fabsched_gres.h"

/* ------------------------------------------------ provided by each entry file */

extern const char plugin_name[];
extern const char plugin_type[];	 /* "gres/rdma" */
extern const char fs_gres_name[];	 /* "rdma" */
extern const int fs_gres_inventory_what; /* FS_GRES_HCA or FS_GRES_HUGEPAGES */

/* slurmd: autodetected records of the node into @out; RET how many. */
int fabsched_gres_detect(const struct fs_gres_inventory *inv, node_config_load_t *config,
			 fs_list_t out);
/* The unit table entries of one record of this gres (next: its first
 * index, advanced by its count). */
void fabsched_gres_units_of_rec(const struct fs_gres_inventory *inv, gres_slurmd_conf_t *rec,
				uint64_t *next);
/* The job, step and prolog/epilog variables of what the job holds here
 * (@alloc: gres indices, NULL for records without File=; @cnt units). */
void fabsched_gres_set_env(char ***env, bitstr_t *alloc, uint64_t cnt);

/* ------------------------------------------------ gres_common.c */

extern struct fs_gres_units fs_units; /* this node's unit table */

/* Machine cpulist -> (machine bitmap, Slurm abstract cores), see there. */
int fabsched_gres_cores(node_config_load_t *config, const char *cpus, bitstr_t **mac_out,
			char **abs_out);
/* One autodetected record (Slurm's add_gres_to_list). */
void fabsched_gres_add_record(fs_list_t out, const char *name, uint64_t count, uint32_t cpu_cnt,
			      char *abs, bitstr_t *mac, const char *file, const char *type);
/* A gres bitmap as bytes (xmalloc'ed, *n of them). */
uint8_t *fs_gres_bytes(bitstr_t *b, size_t *n);
void fabsched_gres_env_set(char ***env, const char *name, const char *value);
void fabsched_gres_env_unset(char ***env, const char *name);

#endif
