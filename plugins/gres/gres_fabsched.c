/*
 * gres/rdma and gres/hugepages — Slurm 22.05 glue of fabsched's node
 * inventory.  One source, built once per resource (FS_GRES_NAME).
 *
 * Foundation stage: the plugins load in slurmctld, slurmd and slurmstepd with
 * the real 22.05 entry points and take the gres.conf records as they are
 * (count-only behaviour).  Autodetection, NUMA-local Cores= and the job
 * environment come with the node-resources change.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/gres.h"
#include "src/common/list.h"
#include "src/common/log.h"

#ifndef FS_GRES_NAME
#error "FS_GRES_NAME must name the resource (rdma or hugepages)"
#endif

const char plugin_name[] = "fabsched gres/" FS_GRES_NAME " plugin";
const char plugin_type[] = "gres/" FS_GRES_NAME;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static int _count_records(void *x, void *arg)
{
	gres_slurmd_conf_t *rec = x;

	if (rec->name && !strcmp(rec->name, FS_GRES_NAME))
		(*(int *) arg)++;
	return 0;
}

extern int init(void)
{
	debug("%s: %s loaded", plugin_type, plugin_name);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	return SLURM_SUCCESS;
}

/* slurmd: gres.conf has been read; report what names this resource. */
extern int gres_p_node_config_load(List gres_conf_list,
				   node_config_load_t *config)
{
	int n = 0;

	if (gres_conf_list)
		list_for_each(gres_conf_list, _count_records, &n);
	verbose("%s: node configuration loaded, %d gres.conf record(s)",
		plugin_type, n);
	return SLURM_SUCCESS;
}

extern void gres_p_job_set_env(char ***job_env_ptr, bitstr_t *gres_bit_alloc,
			       uint64_t gres_cnt, gres_internal_flags_t flags)
{
}

extern void gres_p_step_set_env(char ***step_env_ptr, bitstr_t *gres_bit_alloc,
				uint64_t gres_cnt, gres_internal_flags_t flags)
{
}

extern void gres_p_task_set_env(char ***step_env_ptr, bitstr_t *gres_bit_alloc,
				uint64_t gres_cnt, bitstr_t *usable_gres,
				gres_internal_flags_t flags)
{
}

extern void gres_p_send_stepd(buf_t *buffer)
{
}

extern void gres_p_recv_stepd(buf_t *buffer)
{
}

extern int gres_p_get_job_info(gres_job_state_t *gres_js, uint32_t node_inx,
			       enum gres_job_data_type data_type, void *data)
{
	return EINVAL;
}

extern int gres_p_get_step_info(gres_step_state_t *gres_ss, uint32_t node_inx,
				enum gres_step_data_type data_type, void *data)
{
	return EINVAL;
}

/* No device files are managed by this plugin yet. */
extern List gres_p_get_devices(void)
{
	return NULL;
}

extern void gres_p_step_hardware_init(bitstr_t *usable_gres, char *settings)
{
}

extern void gres_p_step_hardware_fini(void)
{
}

extern gres_epilog_info_t *gres_p_epilog_build_env(gres_job_state_t *gres_js)
{
	return NULL;
}

extern void gres_p_epilog_set_env(char ***epilog_env_ptr,
				  gres_epilog_info_t *gres_ei, int node_inx)
{
}
