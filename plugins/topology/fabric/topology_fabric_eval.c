/*
 * topology/fabric — Slurm 24.11 glue of fabsched's fabric model.
 *
 * From 23.11 on, Slurm's node choice for a job goes through the topology
 * plugin (cons_tres calls topology_g_eval_nodes), so on 24.11 this plugin
 * does what select/cons_tres_fabric does on 22.05: fabric_place() (the
 * same placement engine, plugins/common/fabric_place.c) picks the locality
 * domain and Slurm's common node choice (common_topo_choose_nodes, from
 * Slurm's own topology/common library) picks nodes, cores and GRES inside
 * it.  SelectType stays select/cons_tres.
 *
 * The rest mirrors the 22.05 flavour: the switches of the JSON fabric model
 * (the library's Slurm tree, fst_slurm_tree_build) for `scontrol show
 * topology`, node sets named after switches, whole-rack masks and
 * fragmentation for backfill; node ranking in fabric order; node addresses
 * "spine01.leaf02.n005" with pattern "switch.switch.node".  The switch
 * table is this plugin's own: 24.11 has no global one.
 *
 * --switches=N[@wait] means at most N racks (leaf switches), waiting up to
 * the given time (or the partition's bound), then relaxed.
 *
 * Failure never stops a daemon: a bad fabsched.conf or a missing or bad
 * model is logged with error() and the plugin behaves like topology/default
 * until the next reconfiguration.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
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
#include "fabsched_topo.h"

const char plugin_name[] = "fabsched fabric topology plugin";
const char plugin_type[] = "topology/fabric";
/* unique among topology plugins (Slurm's own are 100-103); it tags the
 * packed `scontrol show topology` data, which only this plugin reads */
const uint32_t plugin_id = 4021;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* One switch as scontrol shows it, and the nodes below it. */
struct fab_switch {
	char *name;
	uint16_t level;
	uint32_t link_speed;
	char *nodes;		/* leaves: ranged node list */
	char *switches;		/* others: ranged child list */
	bitstr_t *node_bitmap;	/* [node_record_count] */
};

/* What `scontrol show topology` receives (packed, unpacked). */
struct fab_info {
	uint32_t count;
	struct fab_switch *sw;	/* node_bitmap unused */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct fab_switch *table;
static int table_count;
static struct fst_slurm_tree *tree;	/* behind the table: node addresses */

/* ------------------------------------------------------------ switch table */

static void _free_switch(struct fab_switch *s)
{
	xfree(s->name);
	xfree(s->nodes);
	xfree(s->switches);
	FREE_NULL_BITMAP(s->node_bitmap);
}

static void _free_table(void)
{
	for (int i = 0; i < table_count; i++)
		_free_switch(&table[i]);
	xfree(table);
	table_count = 0;
	fst_slurm_tree_free(tree);
	tree = NULL;
}

/* The table from the model; on failure it stays empty (logged). */
static void _build_table(const struct fst_model *m)
{
	if (!(tree = fabric_model_tree(m, plugin_type)))
		return;
	table = xcalloc(tree->nsw, sizeof(*table));
	table_count = tree->nsw;
	/* records come leaves first: children always precede their parents */
	for (int i = 0; i < tree->nsw; i++) {
		const struct fst_slurm_switch *s = &tree->sw[i];
		struct fab_switch *r = &table[i];

		r->name = xstrdup(s->name);
		r->level = s->level;
		r->link_speed = s->link_speed > UINT32_MAX ? UINT32_MAX :
			(uint32_t)s->link_speed;
		if (s->level == 0) {
			r->nodes = xstrdup(s->nodelist);
			r->node_bitmap = fabric_model_leaf_nodes(s);
		} else {
			r->node_bitmap = bit_alloc(node_record_count);
			r->switches = xstrdup(s->childlist);
			for (int k = 0; k < s->nchildren; k++)
				bit_or(r->node_bitmap,
				       table[s->children[k]].node_bitmap);
		}
	}
	info("%s: %d switches on %d levels%s, %d nodes", plugin_type,
	     tree->nsw, tree->max_level + 1,
	     tree->virtual_root >= 0 ? " (with a virtual root)" : "",
	     tree->nnodes);
}

/* ------------------------------------------------------------ entry points */

extern int init(void)
{
	fabric_place_set_name(plugin_type);
	verbose("%s: %s loaded", plugin_type, plugin_name);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	pthread_mutex_lock(&lock);
	_free_table();
	fabric_model_drop();
	pthread_mutex_unlock(&lock);
	if (running_in_slurmctld())
		fabric_place_fini();
	return SLURM_SUCCESS;
}

/* slurmctld (start, reconfigure) and slurmd.  Always SLURM_SUCCESS. */
extern int topology_p_build_config(void)
{
	struct fst_model *m;

	pthread_mutex_lock(&lock);
	m = fabric_model_take(plugin_type);
	_free_table();
	if (m && node_record_count)
		_build_table(m);
	fst_model_free(m);
	pthread_mutex_unlock(&lock);
	if (running_in_slurmctld())
		fabric_place_reconfigure();
	return SLURM_SUCCESS;
}

/* State of topo_eval before the first try, restored before each next one. */
struct eval_call {
	topology_eval_t *te;
	bitstr_t **cores;
	uint32_t max_nodes;
	uint16_t avail_cpus;
	int tries;
};

static void _restore_cores(bitstr_t **to, bitstr_t **from)
{
	for (int i = 0; i < node_record_count; i++) {
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

	if (c->tries++) {
		_restore_cores(te->avail_core, c->cores);
		te->max_nodes = c->max_nodes;
		te->avail_cpus = c->avail_cpus;
	}
	bit_copybits(te->node_map, cand);
	return common_topo_choose_nodes(te);
}

/* What cons_tres found usable for the job on a node: its available CPUs
 * already count the job's memory and GRES there. */
static void _node_free(int node, struct fse_node_res *r, void *arg)
{
	struct eval_call *c = arg;
	avail_res_t *ar = c->te->avail_res_array ?
		c->te->avail_res_array[node] : NULL;

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
		.min_nodes = te->min_nodes, .max_nodes = te->max_nodes,
		.req_nodes = te->req_nodes, .switches_as_racks = true,
		.try = _try, .node_free = _node_free, .arg = &c,
	};
	int rc;

	if (!fabric_applies(te->job_ptr, true) || !te->avail_core)
		return common_topo_choose_nodes(te);
	c.cores = copy_core_array(te->avail_core);
	c.max_nodes = te->max_nodes;
	c.avail_cpus = te->avail_cpus;
	ask.cand = bit_copy(te->node_map);
	rc = fabric_place(&ask);
	FREE_NULL_BITMAP(ask.cand);
	free_core_array(&c.cores);
	return rc == SLURM_SUCCESS ? SLURM_SUCCESS : SLURM_ERROR;
}

/* Grow @node_mask to whole racks (leaf switches) it touches. */
extern int topology_p_whole_topo(bitstr_t *node_mask)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < table_count; i++)
		if (table[i].level == 0 &&
		    bit_overlap_any(table[i].node_bitmap, node_mask))
			bit_or(node_mask, table[i].node_bitmap);
	pthread_mutex_unlock(&lock);
	return SLURM_SUCCESS;
}

/* Nodes below the switch named @name (the caller does not free it). */
extern bitstr_t *topology_p_get_bitmap(char *name)
{
	bitstr_t *b = NULL;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < table_count && !b; i++)
		if (!xstrcmp(table[i].name, name))
			b = table[i].node_bitmap;
	pthread_mutex_unlock(&lock);
	return b;
}

extern bool topology_p_generate_node_ranking(void)
{
	bool ranked;

	pthread_mutex_lock(&lock);
	ranked = fabric_model_rank_keep(plugin_type);
	pthread_mutex_unlock(&lock);
	return ranked;
}

/* Address of a node in the fabric ("spine01.leaf02.n005", pattern
 * "switch.switch.node"); the node alone when it is on no switch. */
extern int topology_p_get_node_addr(char *node_name, char **paddr,
				    char **ppattern)
{
	int rc;

	pthread_mutex_lock(&lock);
	rc = fabric_model_node_addr(tree, node_name, paddr, ppattern);
	pthread_mutex_unlock(&lock);
	return rc;
}

extern int topology_p_split_hostlist(hostlist_t *hl, hostlist_t ***sp_hl,
				     int *count, uint16_t tree_width)
{
	return common_topo_split_hostlist_treewidth(hl, sp_hl, count,
						    tree_width);
}

extern int topology_p_topology_free(void *data)
{
	struct fab_info *info = data;

	if (!info)
		return SLURM_SUCCESS;
	for (uint32_t i = 0; i < info->count; i++)
		_free_switch(&info->sw[i]);
	xfree(info->sw);
	xfree(info);
	return SLURM_SUCCESS;
}

extern int topology_p_get(topology_data_t type, void *data)
{
	int rc = SLURM_SUCCESS;

	pthread_mutex_lock(&lock);
	switch (type) {
	case TOPO_DATA_TOPOLOGY_PTR: {
		dynamic_plugin_data_t **out = data;
		struct fab_info *info = xmalloc(sizeof(*info));

		info->count = table_count;
		info->sw = xcalloc(table_count + 1, sizeof(*info->sw));
		for (int i = 0; i < table_count; i++) {
			info->sw[i].name = xstrdup(table[i].name);
			info->sw[i].level = table[i].level;
			info->sw[i].link_speed = table[i].link_speed;
			info->sw[i].nodes = xstrdup(table[i].nodes);
			info->sw[i].switches = xstrdup(table[i].switches);
		}
		*out = xmalloc(sizeof(**out));
		(*out)->data = info;
		(*out)->plugin_id = plugin_id;
		break;
	}
	case TOPO_DATA_REC_CNT:
		*(int *)data = table_count;
		break;
	case TOPO_DATA_EXCLUSIVE_TOPO:
		*(int *)data = 0;
		break;
	default:
		error("%s: topology data type %d is not known", plugin_type,
		      (int)type);
		rc = SLURM_ERROR;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

extern int topology_p_topology_pack(void *data, buf_t *buffer,
				    uint16_t protocol_version)
{
	struct fab_info *info = data;

	pack32(info->count, buffer);
	for (uint32_t i = 0; i < info->count; i++) {
		packstr(info->sw[i].name, buffer);
		pack16(info->sw[i].level, buffer);
		pack32(info->sw[i].link_speed, buffer);
		packstr(info->sw[i].nodes, buffer);
		packstr(info->sw[i].switches, buffer);
	}
	return SLURM_SUCCESS;
}

extern int topology_p_topology_unpack(void **out, buf_t *buffer,
				      uint16_t protocol_version)
{
	struct fab_info *info = xmalloc(sizeof(*info));

	*out = info;
	safe_unpack32(&info->count, buffer);
	if (info->count > remaining_buf(buffer))	/* at least a byte each */
		goto unpack_error;
	info->sw = xcalloc(info->count + 1, sizeof(*info->sw));
	for (uint32_t i = 0; i < info->count; i++) {
		safe_unpackstr(&info->sw[i].name, buffer);
		safe_unpack16(&info->sw[i].level, buffer);
		safe_unpack32(&info->sw[i].link_speed, buffer);
		safe_unpackstr(&info->sw[i].nodes, buffer);
		safe_unpackstr(&info->sw[i].switches, buffer);
	}
	return SLURM_SUCCESS;

unpack_error:
	topology_p_topology_free(info);
	*out = NULL;
	return SLURM_ERROR;
}

static void _print_switch(const struct fab_switch *s, char **out)
{
	xstrfmtcat(*out, "SwitchName=%s Level=%u LinkSpeed=%u", s->name,
		   s->level, s->link_speed);
	if (s->nodes)
		xstrfmtcat(*out, " Nodes=%s", s->nodes);
	if (s->switches)
		xstrfmtcat(*out, " Switches=%s", s->switches);
	xstrcat(*out, "\n");
}

/* All switches; or the one named @name; or the leaves holding node @name. */
extern int topology_p_topology_print(void *data, char *name, char **out)
{
	struct fab_info *info = data;

	*out = NULL;
	if (!info || !info->count) {
		error("%s: no fabric topology is loaded (see slurmctld's log)",
		      plugin_type);
		return SLURM_SUCCESS;
	}
	for (uint32_t i = 0; i < info->count; i++)
		if (!name || !*name || !xstrcmp(info->sw[i].name, name))
			_print_switch(&info->sw[i], out);
	if (*out || !name || !*name)
		return SLURM_SUCCESS;
	for (uint32_t i = 0; i < info->count; i++) {
		hostset_t *hs;

		if (!info->sw[i].nodes ||
		    !(hs = hostset_create(info->sw[i].nodes)))
			continue;
		if (hostset_within(hs, name))
			_print_switch(&info->sw[i], out);
		hostset_destroy(hs);
	}
	if (!*out)
		error("%s: no switch or node named %s in the fabric topology",
		      plugin_type, name);
	return SLURM_SUCCESS;
}

/*
 * Fragmentation of the free nodes @node_mask, lower is better (backfill's
 * bf_topopt compares placements by it): the free nodes that lie in racks
 * which are only partly free.
 */
extern uint32_t topology_p_get_fragmentation(bitstr_t *node_mask)
{
	uint32_t frag = 0;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < table_count; i++) {
		int free_n, all;

		if (table[i].level != 0)
			continue;
		free_n = bit_overlap(table[i].node_bitmap, node_mask);
		all = bit_set_count(table[i].node_bitmap);
		if (free_n && free_n < all)
			frag += free_n;
	}
	pthread_mutex_unlock(&lock);
	return frag;
}
