/*
 * fabric_hook.h - the fabric-aware part of select/cons_tres_fabric (Slurm
 * 22.05): narrows select_p_job_test's candidate nodes to the locality
 * domain the placement engine (select/) chooses, then lets cons_tres pick
 * cores, memory and GRES inside it.
 */
#ifndef FABSCHED_FABRIC_HOOK_H
#define FABSCHED_FABRIC_HOOK_H

#include "src/common/select.h"
#include "src/slurmctld/slurmctld.h"

/* cons_tres's select_p_job_test */
typedef int (*fabric_job_test_f)(job_record_t *job_ptr, bitstr_t *bitmap, uint32_t min_nodes,
				 uint32_t max_nodes, uint32_t req_nodes, uint16_t mode,
				 List preemptee_candidates, List *preemptee_job_list,
				 bitstr_t *exc_core_bitmap);

/*
 * select_p_job_test with locality: same arguments and result as cons_tres's,
 * which it calls (one or more times, with narrowed bitmaps) through
 * backend.  In slurmctld only; never fails for a fabsched reason other
 * than "not now" (the job stays pending, its reason says why).
 */
int fabric_job_test(const slurm_select_ops_t *backend, job_record_t *job_ptr, bitstr_t *bitmap,
		    uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes, uint16_t mode,
		    List preemptee_candidates, List *preemptee_job_list, bitstr_t *exc_core_bitmap);

/* Reload fabsched.conf and the fabric model at the next job_test. */
void fabric_reconfigure(void);

/* Free the cached configuration and model, log the timing summary. */
void fabric_fini(void);

#endif
