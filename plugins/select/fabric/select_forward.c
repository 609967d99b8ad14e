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
 * The entry points, in the order of slurm_select_ops_t (jobinfo_sprint,
 * which clears its buffer on failure, last).  Each forwards its
 * arguments unchanged to cons_tres's @field; when cons_tres cannot be
 * opened, it returns @fail, the failure value its caller in
 * src/common/select.c expects.
 */
#define FORWARD(ret, name, field, fail, params, args) \
	extern ret select_p_##name params             \
	{                                             \
		if (!fabric_backend_ready())          \
			return fail;                  \
		return fabric_be.field args;          \
	}
FORWARD(int, state_save, state_save, SLURM_ERROR, (char *dir_name), (dir_name))
FORWARD(int, state_restore, state_restore, SLURM_ERROR, (char *dir_name), (dir_name))
FORWARD(int, job_init, job_init, SLURM_ERROR, (List job_list), (job_list))
FORWARD(int, node_init, node_init, SLURM_ERROR, (void), ())
FORWARD(int, job_begin, job_begin, SLURM_ERROR, (job_record_t * job_ptr), (job_ptr))
FORWARD(int, job_ready, job_ready, -1, (job_record_t * job_ptr), (job_ptr))
FORWARD(int, job_expand, job_expand, SLURM_ERROR,
	(job_record_t * from_job_ptr, job_record_t *to_job_ptr), (from_job_ptr, to_job_ptr))
FORWARD(int, job_resized, job_resized, SLURM_ERROR,
	(job_record_t * job_ptr, node_record_t *node_ptr), (job_ptr, node_ptr))
FORWARD(int, job_signal, job_signal, SLURM_ERROR, (job_record_t * job_ptr, int signal),
	(job_ptr, signal))
FORWARD(int, job_fini, job_fini, SLURM_ERROR, (job_record_t * job_ptr), (job_ptr))
FORWARD(int, job_suspend, job_suspend, SLURM_ERROR, (job_record_t * job_ptr, bool indf_susp),
	(job_ptr, indf_susp))
FORWARD(int, job_resume, job_resume, SLURM_ERROR, (job_record_t * job_ptr, bool indf_susp),
	(job_ptr, indf_susp))
FORWARD(bitstr_t *, step_pick_nodes, step_pick_nodes, NULL,
	(job_record_t * job_ptr, select_jobinfo_t *step_jobinfo, uint32_t node_count,
	 bitstr_t **avail_nodes),
	(job_ptr, step_jobinfo, node_count, avail_nodes))
FORWARD(int, step_start, step_start, SLURM_ERROR, (step_record_t * step_ptr), (step_ptr))
FORWARD(int, step_finish, step_finish, SLURM_ERROR, (step_record_t * step_ptr, bool killing_step),
	(step_ptr, killing_step))
FORWARD(int, select_nodeinfo_pack, nodeinfo_pack, SLURM_ERROR,
	(select_nodeinfo_t * nodeinfo, buf_t *buffer, uint16_t protocol_version),
	(nodeinfo, buffer, protocol_version))
FORWARD(int, select_nodeinfo_unpack, nodeinfo_unpack, SLURM_ERROR,
	(select_nodeinfo_t * *nodeinfo, buf_t *buffer, uint16_t protocol_version),
	(nodeinfo, buffer, protocol_version))
FORWARD(select_nodeinfo_t *, select_nodeinfo_alloc, nodeinfo_alloc, NULL, (void), ())
FORWARD(int, select_nodeinfo_free, nodeinfo_free, SLURM_ERROR, (select_nodeinfo_t * nodeinfo),
	(nodeinfo))
FORWARD(int, select_nodeinfo_set_all, nodeinfo_set_all, SLURM_ERROR, (void), ())
FORWARD(int, select_nodeinfo_set, nodeinfo_set, SLURM_ERROR, (job_record_t * job_ptr), (job_ptr))
FORWARD(int, select_nodeinfo_get, nodeinfo_get, SLURM_ERROR,
	(select_nodeinfo_t * nodeinfo, enum select_nodedata_type dinfo, enum node_states state,
	 void *data),
	(nodeinfo, dinfo, state, data))
FORWARD(select_jobinfo_t *, select_jobinfo_alloc, jobinfo_alloc, NULL, (void), ())
FORWARD(int, select_jobinfo_free, jobinfo_free, SLURM_ERROR, (select_jobinfo_t * jobinfo),
	(jobinfo))
FORWARD(int, select_jobinfo_set, jobinfo_set, SLURM_ERROR,
	(select_jobinfo_t * jobinfo, enum select_jobdata_type data_type, void *data),
	(jobinfo, data_type, data))
FORWARD(int, select_jobinfo_get, jobinfo_get, SLURM_ERROR,
	(select_jobinfo_t * jobinfo, enum select_jobdata_type data_type, void *data),
	(jobinfo, data_type, data))
FORWARD(select_jobinfo_t *, select_jobinfo_copy, jobinfo_copy, NULL, (select_jobinfo_t * jobinfo),
	(jobinfo))
FORWARD(int, select_jobinfo_pack, jobinfo_pack, SLURM_ERROR,
	(select_jobinfo_t * jobinfo, buf_t *buffer, uint16_t protocol_version),
	(jobinfo, buffer, protocol_version))
FORWARD(int, select_jobinfo_unpack, jobinfo_unpack, SLURM_ERROR,
	(select_jobinfo_t * *jobinfo_pptr, buf_t *buffer, uint16_t protocol_version),
	(jobinfo_pptr, buffer, protocol_version))
FORWARD(char *, select_jobinfo_xstrdup, jobinfo_xstrdup, NULL,
	(select_jobinfo_t * jobinfo, int mode), (jobinfo, mode))
FORWARD(int, get_info_from_plugin, get_info_from_plugin, SLURM_ERROR,
	(enum select_plugindata_info dinfo, job_record_t *job_ptr, void *data),
	(dinfo, job_ptr, data))
FORWARD(int, update_node_config, update_node_config, SLURM_ERROR, (int index), (index))
FORWARD(bitstr_t *, resv_test, resv_test, NULL,
	(resv_desc_msg_t * resv_desc_ptr, uint32_t node_cnt, bitstr_t *avail_bitmap,
	 bitstr_t **core_bitmap),
	(resv_desc_ptr, node_cnt, avail_bitmap, core_bitmap))

extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo, char *buf, size_t size,
					    int mode)
{
	if (!fabric_backend_ready()) {
		if (buf && size)
			buf[0] = '\0';
		return buf;
	}
	return fabric_be.jobinfo_sprint(jobinfo, buf, size, mode);
}
