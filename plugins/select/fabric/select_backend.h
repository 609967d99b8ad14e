/*
 * select_backend.h - select/cons_tres as select/cons_tres_fabric opened it
 * (select_fabric.c), for the forwarding entry points (select_forward.c).
 */
#ifndef FABSCHED_SELECT_BACKEND_H
#define FABSCHED_SELECT_BACKEND_H

#include <stdbool.h>

#include "src/common/select.h"

/* cons_tres's entry points, valid once fabric_backend_ready() said true. */
extern slurm_select_ops_t fabric_be;

/* Open cons_tres unless done already.  RET true when it can be called. */
bool fabric_backend_ready(void);

/*
 * The addresses of cons_tres's select_part_record (part_res_record_t *)
 * and select_node_usage (node_use_record_t *), its tables of what it has
 * given out (src/plugins/select/cons_common: part_data.h, node_data.h),
 * set with fabric_be.  Their layout is that of the release this plugin is
 * built against; _backend_bind accepts only that release's cons_tres.
 */
extern void *fabric_be_parts;
extern void *fabric_be_usage;

#endif
