/*
 * topology/fabric — the glue of fabsched's fabric model for the Slurm
 * releases whose node choice goes through the topology plugin: 24.11,
 * 25.11 and 26.05 (one source; the entry points differ by release as
 * marked below).
 *
 * From 23.11 on, cons_tres calls topology_g_eval_nodes for a job's nodes,
 * so this plugin does what select/cons_tres_fabric does on 22.05:
 * fabric_place() (the same placement engine, plugins/common/fabric_place.c)
 * picks the locality domain and Slurm's common node choice
 * (common_topo_choose_nodes, from Slurm's own topology/common library)
 * picks nodes, cores and GRES inside it.  SelectType stays
 * select/cons_tres.
 *
 * The rest mirrors the 22.05 flavour: the switches of the JSON fabric model
 * for `scontrol show topology` (switch_table.c), node sets named after
 * switches, whole-rack masks and fragmentation for backfill; node ranking
 * in fabric order; node addresses "spine01.leaf02.n005" with pattern
 * "switch.switch.node".
 *
 * 25.11 and later: every entry point takes a topology context.  The plugin
 * keeps its state in its own statics (one fabric per cluster), so it
 * accepts one context, the default one Slurm makes when there is no
 * topology.yaml (topology.yaml names only Slurm's own plugins and makes
 * Slurm ignore TopologyPlugin=).  26.05: one-node jobs are not taken off
 * the placement path (allow_one_node false), and task ranks follow the
 * racks (get_rank), as topology/tree's do.
 *
 * --switches=N[@wait] means at most N racks (leaf switches), waiting up to
 * the given time (or the partition's bound), then relaxed.
 *
 * Failure never stops a daemon: a bad fabsched.conf or a missing or bad
 * model is logged with error() and the plugin behaves like topology/flat
 * until the next reconfiguration.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "src/common/slurm_xlator.h"

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/bitstring.h"
#include "src/common/core_array.h"
#include "src/common/hostlist.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/pack.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/interfaces/topology.h"
#include "src/slurmctld/slurmctld.h"
#include "src/plugins/topology/common/common_topo.h"

#include "fabric_model.h"
#include "fabric_place.h"
#include "fabsched_select.h"
#include "stock_tree.h"
#include "switch_table.h"

const char plugin_name[] = "fabsched fabric topology plugin";
const char plugin_type[] = "topology/fabric";
/* unique among topology plugins (Slurm's own are 100-106); it tags the
 * packed `scontrol show topology` data, which only this plugin reads */
const uint32_t plugin_id = 4021;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* the model hand-off from the ranking to the table (fabric_model.h) */
static pthread_mutex_t model_lock = PTHREAD_MUTEX_INITIALIZER;

#define SINCE_2511 (SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0))
#define SINCE_2605 (SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0))

#if SINCE_2511
/* Exclusive=TOPO partitions and --exclusive=topo: whole racks (whole_topo) */
const bool supports_exclusive_topo = true;
#define CTX_ARG , void *tctx __attribute__((unused))
#define CTX_PARAM topology_ctx_t *tctx
#else
#define CTX_ARG
#define CTX_PARAM void
#endif

/* ------------------------------------------------------------ entry points */

/* A new model file swapped in by fabric_place: the switch table follows
 * (scontrol show topology, ranks, whole racks), no reconfigure. */
static void _model_changed(const struct fst_model *m)
{
	fabric_table_build(m, plugin_type);
}

extern int init(void)
{
	fabric_place_set_name(plugin_type);
	fabric_place_on_model(_model_changed);
	verbose("%s: %s loaded", plugin_type, plugin_name);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	fabric_stock_free();
	fabric_table_free();
	pthread_mutex_lock(&model_lock);
	fabric_model_drop();
	pthread_mutex_unlock(&model_lock);
	if (running_in_slurmctld())
		fabric_place_fini();
	return SLURM_SUCCESS;
}

/* slurmctld (start, reconfigure) and slurmd.  Always SLURM_SUCCESS. */
extern int topology_p_build_config(CTX_PARAM)
{
	struct fst_model *m;

#if SINCE_2511
	if (tctx && tctx->plugin) /* from topology.yaml: Slurm's types only */
		error("%s: topology.yaml context %s names plugin %s; topology/fabric is configured with TopologyPlugin=topology/fabric and no topology.yaml",
		      plugin_type, tctx->name, tctx->plugin);
#endif
	pthread_mutex_lock(&model_lock);
	m = fabric_model_take(plugin_type);
	fabric_table_build(m, plugin_type);
	pthread_mutex_unlock(&model_lock);
	fabric_model_done(m);
	if (running_in_slurmctld())
		fabric_place_reconfigure();
	return SLURM_SUCCESS;
}

extern bool topology_p_generate_node_ranking(CTX_PARAM)
{
	bool ranked;

	pthread_mutex_lock(&model_lock);
	ranked = fabric_model_rank_keep(plugin_type);
	pthread_mutex_unlock(&model_lock);
	return ranked;
}

/* State of topo_eval before the first try, restored before each next
 * one: the cores of the first try's candidates (Slurm's node choice
 * changes the cores of the nodes it is given, and only those) */
struct eval_call {
	topology_eval_t *te;
	bitstr_t **cores; /* [node_record_count], NULL but the copied */
	bitstr_t *copied; /* the nodes whose cores were copied */
	uint32_t max_nodes;
	uint16_t avail_cpus;
	int tries;
};

static void _save_cores(struct eval_call *c, bitstr_t *cand)
{
	bitstr_t **from = c->te->avail_core;

	c->copied = bit_copy(cand);
	c->cores = xcalloc(node_record_count, sizeof(*c->cores));
	for (int i = 0; next_node_bitmap(cand, &i); i++)
		if (from[i])
			c->cores[i] = bit_copy(from[i]);
}

static void _restore_cores(struct eval_call *c)
{
	bitstr_t **to = c->te->avail_core, **from = c->cores;

	for (int i = 0; next_node_bitmap(c->copied, &i); i++) {
		if (!from[i]) {
			FREE_NULL_BITMAP(to[i]);
		} else if (to[i] && bit_size(to[i]) == bit_size(from[i])) {
			bit_copybits(to[i], from[i]);
		} else {
			FREE_NULL_BITMAP(to[i]);
			to[i] = bit_copy(from[i]);
		}
	}
}

/* fabric_place's backend: Slurm's common node choice inside @cand. */
static int _try(bitstr_t *cand, void *arg)
{
	struct eval_call *c = arg;
	topology_eval_t *te = c->te;

	if (!c->tries++) {
		/* saved only now, and only the candidates' cores: most
		 * calls place the job in its first domain (a rack), or wait
		 * without trying one */
		_save_cores(c, cand);
	} else {
		_restore_cores(c);
		te->max_nodes = c->max_nodes;
		te->avail_cpus = c->avail_cpus;
#if SINCE_2605
		te->eval_action = EVAL_ACTION_NONE;
#endif
	}
	bit_copybits(te->node_map, cand);
	return common_topo_choose_nodes(te);
}

/* Locality=observe: topology/tree's choice on @cand (every candidate). */
static int _stock_try(bitstr_t *cand, void *arg)
{
	struct eval_call *c = arg;

	bit_copybits(c->te->node_map, cand);
	return fabric_stock_eval(c->te, plugin_type);
}

/* What cons_tres found usable for the job on a node: its available CPUs
 * already count the job's memory and GRES there. */
static void _node_free(int node, struct fse_node_res *r, void *arg)
{
	struct eval_call *c = arg;
	avail_res_t *ar = c->te->avail_res_array ? c->te->avail_res_array[node] : NULL;

	r->cpus = ar ? ar->avail_cpus : 0;
	r->mem = UINT64_MAX;
	for (int g = 0; g < FSE_SHAPE_GRES; g++)
		r->gres[g] = UINT64_MAX;
}

extern int topology_p_eval_nodes(topology_eval_t *te)
{
	struct eval_call c = { .te = te };
	struct fabric_ask ask = {
		.job = te->job_ptr,
		.min_nodes = te->min_nodes,
		.max_nodes = te->max_nodes,
		.req_nodes = te->req_nodes,
		.switches_as_racks = true,
		.try = _try,
		.node_free = _node_free,
		.arg = &c,
	};
	int rc;

	/* not fabsched's to place (Locality=off, pinned): topology/tree's
	 * choice, as stock Slurm makes it; with Locality=observe, what
	 * fabsched would have chosen is recorded beside it */
	if (!te->avail_core || !fabric_applies(te->job_ptr, true)) {
		if (!te->avail_core || !fabric_observes(te->job_ptr, true))
			return fabric_stock_eval(te, plugin_type);
		ask.try = _stock_try;
		ask.cand = bit_copy(te->node_map);
		rc = fabric_observe(&ask, te->node_map);
		FREE_NULL_BITMAP(ask.cand);
		return rc;
	}
	c.max_nodes = te->max_nodes;
	c.avail_cpus = te->avail_cpus;
	ask.cand = bit_copy(te->node_map);
	rc = fabric_place(&ask);
	FREE_NULL_BITMAP(ask.cand);
	if (c.cores)
		free_core_array(&c.cores);
	FREE_NULL_BITMAP(c.copied);
	return rc == SLURM_SUCCESS ? SLURM_SUCCESS : SLURM_ERROR;
}

/* Grow @node_mask to whole racks (leaf switches) it touches. */
extern int topology_p_whole_topo(bitstr_t *node_mask CTX_ARG)
{
	fabric_table_whole_racks(node_mask);
	return SLURM_SUCCESS;
}

/* Nodes below the switch named @name (the caller does not free it). */
extern bitstr_t *topology_p_get_bitmap(char *name CTX_ARG)
{
	return fabric_table_bitmap(name);
}

/* Address of a node in the fabric ("spine01.leaf02.n005", pattern
 * "switch.switch.node"); the node alone when it is on no switch. */
extern int topology_p_get_node_addr(char *node_name, char **paddr, char **ppattern CTX_ARG)
{
	return fabric_table_node_addr(node_name, paddr, ppattern);
}

extern int topology_p_split_hostlist(hostlist_t *hl, hostlist_t ***sp_hl, int *count,
				     uint16_t tree_width CTX_ARG)
{
	return common_topo_split_hostlist_treewidth(hl, sp_hl, count, tree_width);
}

extern int topology_p_get(topology_data_t type, void *data CTX_ARG)
{
	switch (type) {
	case TOPO_DATA_TOPOLOGY_PTR:
		if (running_in_slurmctld())
			fabric_place_refresh();
		*(dynamic_plugin_data_t **)data = fabric_info_get(plugin_id);
		return SLURM_SUCCESS;
	case TOPO_DATA_REC_CNT:
		*(int *)data = fabric_table_count();
		return SLURM_SUCCESS;
	case TOPO_DATA_EXCLUSIVE_TOPO: /* named contexts (25.11+), 24.11 */
		*(int *)data = 1;
		return SLURM_SUCCESS;
	default:
		error("%s: topology data type %d is not known", plugin_type, (int)type);
		return SLURM_ERROR;
	}
}

/*
 * Fragmentation of the free nodes @node_mask, lower is better (backfill's
 * bf_topopt compares placements by it): the free nodes that lie in racks
 * which are only partly free.
 */
extern uint32_t topology_p_get_fragmentation(bitstr_t *node_mask CTX_ARG)
{
	if (fabric_place_all_off())
		return 0; /* topology/tree's answer */
	return fabric_table_fragmentation(node_mask);
}

#if SINCE_2511
#define TOPOINFO(name) topology_p_topoinfo_##name
#else
#define TOPOINFO(name) topology_p_topology_##name
#endif

extern int TOPOINFO(free)(void *data)
{
	return fabric_info_free(data);
}

extern int TOPOINFO(pack)(void *data, buf_t *buffer, uint16_t protocol_version)
{
	return fabric_info_pack(data, buffer);
}

extern int TOPOINFO(unpack)(void **out, buf_t *buffer, uint16_t protocol_version)
{
	return fabric_info_unpack(out, buffer);
}

#if SINCE_2511
/* The switch named @unit, or the leaves holding @nodes_list. */
extern int topology_p_topoinfo_print(void *data, char *nodes_list, char *unit, char **out)
{
	return fabric_info_print(data, nodes_list, unit, out, plugin_type);
}
#else
/* All switches; or the one named @name; or the leaves holding node @name. */
extern int topology_p_topology_print(void *data, char *name, char **out)
{
	fabric_info_print(data, NULL, name, out, plugin_type);
	if (!*out && name && *name)
		fabric_info_print(data, name, NULL, out, plugin_type);
	return SLURM_SUCCESS;
}
#endif

#if SINCE_2511
/* A node's place comes from the fabric model: a Topology= string of
 * slurm.conf or `scontrol update` is not read. */
extern int topology_p_add_rm_node(node_record_t *node_ptr, char *unit, topology_ctx_t *tctx)
{
	if (unit)
		verbose("%s: %s: Topology=%s not used, the fabric model places the node",
			plugin_type, node_ptr->name, unit);
	return SLURM_SUCCESS;
}

extern int topology_p_destroy_config(topology_ctx_t *tctx)
{
	fabric_table_free();
	return SLURM_SUCCESS;
}

/* No per-job topology data. */
extern void topology_p_jobinfo_free(void *topo_jobinfo)
{
}

extern void topology_p_jobinfo_pack(void *topo_jobinfo, buf_t *buffer, uint16_t protocol_version)
{
}

extern int topology_p_jobinfo_unpack(void **topo_jobinfo, buf_t *buffer, uint16_t protocol_version)
{
	*topo_jobinfo = NULL;
	return SLURM_SUCCESS;
}

extern int topology_p_jobinfo_get(topology_jobinfo_type_t type, void *topo_jobinfo, void *data)
{
	return ESLURM_NOT_SUPPORTED;
}

/* "default:spine01:leaf02" for a node (kept by power saving). */
extern void topology_p_get_topology_str(node_record_t *node_ptr, char **topology_str_ptr,
					topology_ctx_t *tctx)
{
	fabric_table_path(node_ptr->index, tctx && tctx->name ? tctx->name : "default",
			  topology_str_ptr);
}
#endif

#if SINCE_2605
/* One-node jobs stay on the placement path (best fit among racks),
 * unless every partition has Locality=off: then they take Slurm's own
 * one-node path, as with topology/tree.  (The call names no job: with
 * some partitions off and others not, a one-node job of an off partition
 * gets topology/tree's node choice through eval_nodes.) */
extern bool topology_p_allow_one_node(void *tctx)
{
	return fabric_place_all_off();
}

extern int topology_p_eval_node(topology_eval_t *te, int node_inx)
{
	return common_test_node(te, node_inx);
}

/* Tasks in rack order: each node's rank is its leaf switch's. */
extern int topology_p_get_rank(bitstr_t *node_bitmap, uint32_t **node_rank, uint32_t *size,
			       void *tctx)
{
	uint32_t n = 0;

	*node_rank = NULL;
	*size = 0;
	if (!node_bitmap || !fabric_table_count() || !(n = bit_set_count(node_bitmap)))
		return SLURM_SUCCESS;
	*node_rank = xcalloc(n, sizeof(**node_rank));
	*size = n;
	n = 0;
	for (int i = 0; i < bit_size(node_bitmap) && n < *size; i++)
		if (bit_test(node_bitmap, i))
			(*node_rank)[n++] = fabric_table_leaf_rank(i) << TOPO_RANK_ID_SHIFT;
	return SLURM_SUCCESS;
}
#endif
