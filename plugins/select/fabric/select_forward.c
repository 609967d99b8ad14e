/*
 * select_forward.c - the select/cons_tres_fabric entry points that only
 * forward to select/cons_tres (all but init, fini, job_test and
 * reconfigure, which are in select_fabric.c), in the order of
 * slurm_select_ops_t.
 */
#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/select.h"
#include "src/slurmctld/slurmctld.h"

#include "select_backend.h"

/*
 * The entry points, in the order of slurm_select_ops_t.  Each forwards its
 * arguments unchanged; when cons_tres cannot be opened, it returns the
 * failure value its caller in src/common/select.c expects.
 */

extern int select_p_state_save(char *dir_name)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.state_save(dir_name);
}

extern int select_p_state_restore(char *dir_name)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.state_restore(dir_name);
}

extern int select_p_job_init(List job_list)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.job_init(job_list);
}

extern int select_p_node_init(void)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.node_init();
}

extern int select_p_job_begin(job_record_t *job_ptr)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.job_begin(job_ptr);
}

extern int select_p_job_ready(job_record_t *job_ptr)
{
	if (!fabric_backend_ready())
		return -1;	/* "try again" */
	return fabric_be.job_ready(job_ptr);
}

extern int select_p_job_expand(job_record_t *from_job_ptr,
			       job_record_t *to_job_ptr)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.job_expand(from_job_ptr, to_job_ptr);
}

extern int select_p_job_resized(job_record_t *job_ptr, node_record_t *node_ptr)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.job_resized(job_ptr, node_ptr);
}

extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.job_signal(job_ptr, signal);
}

extern int select_p_job_fini(job_record_t *job_ptr)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.job_fini(job_ptr);
}

extern int select_p_job_suspend(job_record_t *job_ptr, bool indf_susp)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.job_suspend(job_ptr, indf_susp);
}

extern int select_p_job_resume(job_record_t *job_ptr, bool indf_susp)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.job_resume(job_ptr, indf_susp);
}

extern bitstr_t *select_p_step_pick_nodes(job_record_t *job_ptr,
					  select_jobinfo_t *step_jobinfo,
					  uint32_t node_count,
					  bitstr_t **avail_nodes)
{
	if (!fabric_backend_ready())
		return NULL;
	return fabric_be.step_pick_nodes(job_ptr, step_jobinfo, node_count,
					   avail_nodes);
}

extern int select_p_step_start(step_record_t *step_ptr)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.step_start(step_ptr);
}

extern int select_p_step_finish(step_record_t *step_ptr, bool killing_step)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.step_finish(step_ptr, killing_step);
}

extern int select_p_select_nodeinfo_pack(select_nodeinfo_t *nodeinfo,
					 buf_t *buffer,
					 uint16_t protocol_version)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.nodeinfo_pack(nodeinfo, buffer, protocol_version);
}

extern int select_p_select_nodeinfo_unpack(select_nodeinfo_t **nodeinfo,
					   buf_t *buffer,
					   uint16_t protocol_version)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.nodeinfo_unpack(nodeinfo, buffer, protocol_version);
}

extern select_nodeinfo_t *select_p_select_nodeinfo_alloc(void)
{
	if (!fabric_backend_ready())
		return NULL;
	return fabric_be.nodeinfo_alloc();
}

extern int select_p_select_nodeinfo_free(select_nodeinfo_t *nodeinfo)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.nodeinfo_free(nodeinfo);
}

extern int select_p_select_nodeinfo_set_all(void)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.nodeinfo_set_all();
}

extern int select_p_select_nodeinfo_set(job_record_t *job_ptr)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.nodeinfo_set(job_ptr);
}

extern int select_p_select_nodeinfo_get(select_nodeinfo_t *nodeinfo,
					enum select_nodedata_type dinfo,
					enum node_states state,
					void *data)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.nodeinfo_get(nodeinfo, dinfo, state, data);
}

extern select_jobinfo_t *select_p_select_jobinfo_alloc(void)
{
	if (!fabric_backend_ready())
		return NULL;
	return fabric_be.jobinfo_alloc();
}

extern int select_p_select_jobinfo_free(select_jobinfo_t *jobinfo)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.jobinfo_free(jobinfo);
}

extern int select_p_select_jobinfo_set(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.jobinfo_set(jobinfo, data_type, data);
}

extern int select_p_select_jobinfo_get(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.jobinfo_get(jobinfo, data_type, data);
}

extern select_jobinfo_t *select_p_select_jobinfo_copy(select_jobinfo_t *jobinfo)
{
	if (!fabric_backend_ready())
		return NULL;
	return fabric_be.jobinfo_copy(jobinfo);
}

extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.jobinfo_pack(jobinfo, buffer, protocol_version);
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo_pptr,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.jobinfo_unpack(jobinfo_pptr, buffer,
					  protocol_version);
}

extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo,
					    char *buf, size_t size, int mode)
{
	if (!fabric_backend_ready()) {
		if (buf && size)
			buf[0] = '\0';
		return buf;
	}
	return fabric_be.jobinfo_sprint(jobinfo, buf, size, mode);
}

extern char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *jobinfo,
					     int mode)
{
	if (!fabric_backend_ready())
		return NULL;
	return fabric_be.jobinfo_xstrdup(jobinfo, mode);
}

extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.get_info_from_plugin(dinfo, job_ptr, data);
}

extern int select_p_update_node_config(int index)
{
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.update_node_config(index);
}

extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt,
				    bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	if (!fabric_backend_ready())
		return NULL;
	return fabric_be.resv_test(resv_desc_ptr, node_cnt, avail_bitmap,
				     core_bitmap);
}
