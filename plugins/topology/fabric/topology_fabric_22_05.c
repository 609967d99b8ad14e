/*
 * topology/fabric — Slurm 22.05 glue of fabsched's fabric model.
 *
 * Reads the JSON fabric model named by FabricModel in fabsched.conf and
 * turns the library's Slurm tree (fst_slurm_tree_build, the same tree
 * `fabsched topo export` writes as topology.conf) into Slurm's switch table;
 * ranks nodes in fabric order; answers node addresses (SLURM_TOPOLOGY_ADDR)
 * as "spine01.leaf02.n005" with pattern "switch.switch.node".
 *
 * Where fabsched.conf is looked for: fs_plugin_conf.h.
 *
 * Failure never stops a daemon: a bad fabsched.conf or a missing or bad
 * model is logged with error() and the plugin falls back to no topology
 * (no switches, no ranking, addresses = node names) until the next
 * reconfiguration.
 *
 * Call order in slurmctld (read_slurm_conf, at start and on every
 * reconfigure): topo_generate_node_ranking, then topo_build_config.  The
 * model loaded for the ranking is kept for the table that follows, so both
 * come from one reading of the file.  slurmd calls topo_build_config and
 * topo_get_node_addr only.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/bitstring.h"
#include "src/common/hostlist.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/slurm_topology.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "fabric_model.h"
#include "fabsched_topo.h"

const char plugin_name[] = "fabsched fabric topology plugin";
const char plugin_type[] = "topology/fabric";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

#define SWITCH_MAX 0xfffe /* switch indices are uint16_t in Slurm */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct fst_slurm_tree *tree; /* the tree behind switch_record_table */

/* ------------------------------------------------------------ loading */

/* ------------------------------------------------------------ switch table */

static void _free_table(void)
{
	if (switch_record_table) {
		for (int i = 0; i < switch_record_cnt; i++) {
			switch_record_t *s = &switch_record_table[i];

			xfree(s->name);
			xfree(s->nodes);
			xfree(s->switches);
			xfree(s->switches_dist);
			xfree(s->switch_desc_index);
			xfree(s->switch_index);
			FREE_NULL_BITMAP(s->node_bitmap);
		}
		xfree(switch_record_table);
	}
	switch_record_cnt = 0;
	switch_levels = 0;
	fst_slurm_tree_free(tree);
	tree = NULL;
}

/* Build switch_record_table from the model; on failure the table stays empty. */
static void _build_table(const struct fst_model *m)
{
	struct fst_switch_graph *g = NULL;
	bitstr_t **bits;
	int n;

	if (!(tree = fabric_model_tree(m, plugin_type)))
		return;
	n = tree->nsw;
	if (n > SWITCH_MAX) {
		error("%s: %d switches, more than Slurm's %d: no fabric topology", plugin_type, n,
		      SWITCH_MAX);
		_free_table();
		return;
	}

	switch_record_table = xcalloc(n, sizeof(switch_record_t));
	switch_record_cnt = n;
	switch_levels = tree->max_level;
	bits = fabric_model_switch_nodes(tree);
	for (int i = 0; i < n; i++) {
		const struct fst_slurm_switch *s = &tree->sw[i];
		switch_record_t *r = &switch_record_table[i];

		r->name = xstrdup(s->name);
		r->level = s->level;
		r->link_speed = s->link_speed > UINT32_MAX ? UINT32_MAX : (uint32_t)s->link_speed;
		r->parent = s->parent >= 0 ? s->parent : i; /* a top is its own parent */
		r->node_bitmap = bits[i];
		r->nodes = s->level ? NULL : xstrdup(s->nodelist);
		r->switches = s->level ? xstrdup(s->childlist) : NULL;
		r->num_switches = s->nchildren;
		r->switch_index = xcalloc(s->nchildren + 1, sizeof(uint16_t));
		for (int k = 0; k < s->nchildren; k++)
			r->switch_index[k] = s->children[k];
	}
	xfree(bits);
	/* descendants and hop distances: topology/'s switch graph, copied
	 * into Slurm's (xmalloc'd) arrays */
	if (fst_switch_graph_build(tree, &g)) {
		error("%s: switch table: out of memory: no fabric topology", plugin_type);
		_free_table();
		return;
	}
	for (int i = 0; i < n; i++) {
		switch_record_t *r = &switch_record_table[i];

		r->switch_desc_index = xcalloc(n, sizeof(uint16_t));
		r->num_desc_switches = g->ndesc[i];
		for (int k = 0; k < g->ndesc[i]; k++)
			r->switch_desc_index[k] = g->desc[i][k];
		r->switches_dist = xcalloc(n, sizeof(uint32_t));
		for (int k = 0; k < n; k++)
			r->switches_dist[k] =
				g->dist[i][k] == FST_HOPS_NONE ? INFINITE : g->dist[i][k];
	}
	fst_switch_graph_free(g);
	info("%s: switch table: %d switches on %d levels%s, %d nodes", plugin_type, n,
	     tree->max_level + 1, tree->virtual_root >= 0 ? " (with a virtual root)" : "",
	     tree->nnodes);
	for (int i = 0; i < n; i++) {
		switch_record_t *r = &switch_record_table[i];

		debug("%s: switch %s level=%d link_speed=%u %s=%s", plugin_type, r->name, r->level,
		      r->link_speed, r->nodes ? "nodes" : "switches",
		      r->nodes ? r->nodes : r->switches);
	}
}

/* ------------------------------------------------------------ entry points */

extern int init(void)
{
	verbose("%s: %s loaded", plugin_type, plugin_name);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	pthread_mutex_lock(&lock);
	_free_table();
	fabric_model_drop();
	pthread_mutex_unlock(&lock);
	return SLURM_SUCCESS;
}

/*
 * slurmctld (start, reconfigure) and slurmd: rebuild the switch table from
 * the model.  Always SLURM_SUCCESS: a failure means no topology, logged.
 */
extern int topo_build_config(void)
{
	struct fst_model *m;

	pthread_mutex_lock(&lock);
	m = fabric_model_take(plugin_type);
	_free_table();
	if (m)
		_build_table(m);
	fabric_model_done(m);
	pthread_mutex_unlock(&lock);
	return SLURM_SUCCESS;
}

/*
 * slurmctld, before topo_build_config: node_rank in fabric order (the
 * model's host rank; nodes not in the model after them, in slurm.conf
 * order).  true only when ranks were set.
 */
extern bool topo_generate_node_ranking(void)
{
	bool ranked;

	pthread_mutex_lock(&lock);
	ranked = fabric_model_rank_keep(plugin_type);
	pthread_mutex_unlock(&lock);
	return ranked;
}

/* Address of a node in the fabric; the node alone when it is on no switch. */
extern int topo_get_node_addr(char *node_name, char **paddr, char **ppattern)
{
	int rc;

	if (!node_name || !find_node_record2(node_name))
		return SLURM_ERROR;
	pthread_mutex_lock(&lock);
	rc = fabric_model_node_addr(tree, node_name, paddr, ppattern);
	pthread_mutex_unlock(&lock);
	return rc;
}
