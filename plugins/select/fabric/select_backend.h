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
 * A count that moves at every entry point through which cons_tres's
 * allocations, or its node info records, may change (select_forward.c's
 * FORWARD_CHANGE, select_p_reconfigure): fabric_hook.c has cons_tres
 * recount its nodes only when it moved.
 */
void fabric_alloc_changed(void);
unsigned long fabric_alloc_gen(void);

#endif
