/*
 * stock_tree.h - Slurm's topology/tree node choice on the switches of
 * topology/fabric's table (24.11 and later, slurmctld), for the jobs that
 * fabsched does not place: Locality=off partitions, jobs pinned to nodes.
 */
#ifndef FABSCHED_STOCK_TREE_H
#define FABSCHED_STOCK_TREE_H

#include "src/interfaces/topology.h"

/*
 * The nodes of @te's job as topology/tree chooses them (its
 * eval_nodes_tree through Slurm's common_topo_choose_nodes), on Slurm's
 * own switch records made from the table when it changed; Slurm's common
 * node choice when the table cannot be made into a tree (logged).
 */
int fabric_stock_eval(topology_eval_t *te, const char *plugin_type);
void fabric_stock_free(void);

#endif
