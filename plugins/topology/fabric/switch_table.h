/*
 * switch_table.h - topology/fabric's own switch table, for the releases
 * whose node choice goes through the topology plugin (24.11 and later:
 * they keep no global switch table).  Built from the library's Slurm tree
 * of the fabric model; one per process, behind its own lock.  What
 * `scontrol show topology` receives is a copy (struct fabric_info), packed
 * and printed here too.
 */
#ifndef FABSCHED_SWITCH_TABLE_H
#define FABSCHED_SWITCH_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "src/common/bitstring.h"
#include "src/common/pack.h"

#include "fabsched_topo.h"

/* Replace the table with the one of @m (NULL: empty); failures logged. */
void fabric_table_build(const struct fst_model *m, const char *plugin_type);
void fabric_table_free(void);

/* Grow @node_mask to the whole racks (leaf switches) it touches. */
void fabric_table_whole_racks(bitstr_t *node_mask);
/* Nodes below the switch named @name (owned by the table), NULL: none. */
bitstr_t *fabric_table_bitmap(const char *name);
/* Free nodes of @node_mask in racks only partly free (backfill's measure). */
uint32_t fabric_table_fragmentation(bitstr_t *node_mask);
/* The switch path of node index @i, from the root: "spine01:leaf02"
 * (xmalloc'd, appended to *out after ","); false when on no switch. */
bool fabric_table_path(int node_index, const char *prefix, char **out);
/* 1 + the ordinal of node index @i's leaf switch; 0: on none. */
uint32_t fabric_table_leaf_rank(int node_index);
int fabric_table_count(void);

/* One switch as topology.conf writes it (what Slurm's tree code reads). */
struct fabric_switch_conf {
	char *name;
	char *nodes;	/* leaves: ranged node list, else NULL */
	char *switches; /* others: ranged child list, else NULL */
	uint32_t link_speed;
};
/* Copies of the table's switches in *out (xmalloc'ed; free with
 * fabric_switch_confs_free) and the table's generation (changed by each
 * build) in *gen.  RET how many (0: no table). */
int fabric_table_switch_confs(struct fabric_switch_conf **out, uint64_t *gen);
void fabric_switch_confs_free(struct fabric_switch_conf *sw, int n);
/* SLURM_TOPOLOGY_ADDR and pattern of a node (fabric_model_node_addr). */
int fabric_table_node_addr(const char *node_name, char **paddr, char **ppattern);

/* The copy `scontrol show topology` receives (TOPO_DATA_TOPOLOGY_PTR). */
void *fabric_info_get(uint32_t plugin_id);
int fabric_info_free(void *data);
int fabric_info_pack(void *data, buf_t *buffer);
int fabric_info_unpack(void **out, buf_t *buffer);
/* The switches named @unit (NULL: any) holding the nodes @nodes (NULL:
 * any), as `SwitchName=... Level=...` lines; *out NULL when none (logged). */
int fabric_info_print(void *data, const char *nodes, const char *unit, char **out,
		      const char *plugin_type);

#endif
