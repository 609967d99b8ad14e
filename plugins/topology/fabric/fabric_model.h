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
struct fst_slurm_tree *fabric_model_tree(const struct fst_model *m,
					 const char *plugin_type);

/* The Slurm nodes of a leaf switch of that tree, as a new node bitmap. */
bitstr_t *fabric_model_leaf_nodes(const struct fst_slurm_switch *s);

#endif
