/*
 * fabric_model.h - what both flavours of topology/fabric do the same way:
 * read the fabric model that fabsched.conf names, and rank Slurm's nodes in
 * fabric order.  Compiled against either release's headers.
 */
#ifndef FABSCHED_FABRIC_MODEL_H
#define FABSCHED_FABRIC_MODEL_H

#include <stdbool.h>

#include "src/common/bitstring.h"

#include "fabsched_topo.h"

/* The fabric model named by FabricModel in fabsched.conf; NULL (logged
 * with error()) on any failure. */
struct fst_model *fabric_model_load(const char *plugin_type);

/*
 * node_rank of every Slurm node in fabric order (the model's host rank;
 * nodes not in the model after them, in slurm.conf order).  RET true when
 * at least one node is in the model (ranks were set).
 */
bool fabric_model_rank(const struct fst_model *m, const char *plugin_type);

/*
 * The library's Slurm tree of @m (fst_slurm_tree_build) with only the
 * nodes slurm.conf knows; the model's other nodes, and slurm.conf's nodes
 * on no switch, are logged.  NULL (logged with error()) when it cannot be
 * built or holds no node of slurm.conf.
 */
struct fst_slurm_tree *fabric_model_tree(const struct fst_model *m, const char *plugin_type);

/* The Slurm nodes below each switch of that tree (tree->nsw new node
 * bitmaps, in an xmalloc'ed array): a leaf's own, a higher switch's the
 * union of its children's. */
bitstr_t **fabric_model_switch_nodes(const struct fst_slurm_tree *tree);

/*
 * The model hand-off both flavours make: Slurm ranks the nodes
 * (generate_node_ranking) before it builds the topology (build_config), and
 * both want the same model read once.  fabric_model_rank_keep loads and
 * ranks, keeping the model; fabric_model_take returns the kept one, or
 * loads it when the ranking did not run (slurmd, reconfigure); the caller
 * frees it with fabric_model_done (NULL: no usable model, logged).
 * fabric_model_drop forgets a kept one.  Callers hold their plugin lock.
 */
bool fabric_model_rank_keep(const char *plugin_type);
struct fst_model *fabric_model_take(const char *plugin_type);
void fabric_model_drop(void);
/*
 * Free a model taken; outside slurmctld (slurmd, where each node reads the
 * whole fabric's model for its own address and switch table) also give the
 * heap its reading used back to the system: glibc keeps freed small blocks
 * otherwise, in every node's slurmd (about 2 MiB with a model of 256
 * nodes, 7 MiB with 1,024).
 */
void fabric_model_done(struct fst_model *m);

/* SLURM_TOPOLOGY_ADDR of a node in @tree (NULL: none): "spine01.leaf02.n005"
 * and "switch.switch.node", or the node alone ("node") when it is on no
 * switch; xmalloc'd.  SLURM_ERROR on bad arguments. */
int fabric_model_node_addr(const struct fst_slurm_tree *tree, const char *node_name, char **paddr,
			   char **ppattern);

#endif
