/*
 * switch_table.c - topology/fabric's switch table on 24.11 and later (see
 * switch_table.h).  Compiled against each of those releases' headers.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/slurm_xlator.h"

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/pack.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "fabric_model.h"
#include "switch_table.h"

/* One switch as scontrol shows it, and the nodes below it. */
struct fab_switch {
	char *name;
	uint16_t level;
	uint32_t link_speed;
	char *nodes;	       /* leaves: ranged node list */
	char *switches;	       /* others: ranged child list */
	bitstr_t *node_bitmap; /* [node_record_count]; unused in copies */
};

/* What `scontrol show topology` receives (packed, unpacked). */
struct fabric_info {
	uint32_t count;
	struct fab_switch *sw;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct fab_switch *table;
static int table_count;
static struct fst_slurm_tree *tree; /* behind the table: node addresses */
static int *node_leaf;		    /* [node_record_count] leaf of each node, -1 */
static uint32_t *leaf_rank;	    /* [table_count] 1 + ordinal among leaves */
static uint64_t generation;	    /* bumped by each build */

static void _free_switch(struct fab_switch *s)
{
	xfree(s->name);
	xfree(s->nodes);
	xfree(s->switches);
	FREE_NULL_BITMAP(s->node_bitmap);
}

static void _free_locked(void)
{
	for (int i = 0; i < table_count; i++)
		_free_switch(&table[i]);
	xfree(table);
	xfree(node_leaf);
	xfree(leaf_rank);
	table_count = 0;
	fst_slurm_tree_free(tree);
	tree = NULL;
}

void fabric_table_free(void)
{
	pthread_mutex_lock(&lock);
	_free_locked();
	generation++;
	pthread_mutex_unlock(&lock);
}

void fabric_table_build(const struct fst_model *m, const char *plugin_type)
{
	bitstr_t **bits;

	pthread_mutex_lock(&lock);
	_free_locked();
	generation++;
	if (!m || !node_record_count || !(tree = fabric_model_tree(m, plugin_type))) {
		pthread_mutex_unlock(&lock);
		return;
	}
	table = xcalloc(tree->nsw, sizeof(*table));
	table_count = tree->nsw;
	bits = fabric_model_switch_nodes(tree);
	leaf_rank = xcalloc(table_count, sizeof(*leaf_rank));
	for (int i = 0, ord = 0; i < tree->nsw; i++) {
		const struct fst_slurm_switch *s = &tree->sw[i];
		struct fab_switch *r = &table[i];

		r->name = xstrdup(s->name);
		r->level = s->level;
		r->link_speed = s->link_speed > UINT32_MAX ? UINT32_MAX : (uint32_t)s->link_speed;
		r->nodes = s->level ? NULL : xstrdup(s->nodelist);
		r->switches = s->level ? xstrdup(s->childlist) : NULL;
		r->node_bitmap = bits[i];
		leaf_rank[i] = s->level ? 0 : ++ord;
	}
	xfree(bits);
	/* each node's leaf, for the per-node questions (get_rank asks them
	 * for every node of every allocation) */
	node_leaf = xcalloc(node_record_count, sizeof(*node_leaf));
	for (int i = 0; i < node_record_count; i++)
		node_leaf[i] =
			node_record_table_ptr[i]
				? fst_slurm_tree_node_leaf(tree, node_record_table_ptr[i]->name)
				: -1;
	info("%s: %d switches on %d levels%s, %d nodes", plugin_type, tree->nsw,
	     tree->max_level + 1, tree->virtual_root >= 0 ? " (with a virtual root)" : "",
	     tree->nnodes);
	pthread_mutex_unlock(&lock);
}

void fabric_table_whole_racks(bitstr_t *node_mask)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < table_count; i++)
		if (table[i].level == 0 && bit_overlap_any(table[i].node_bitmap, node_mask))
			bit_or(node_mask, table[i].node_bitmap);
	pthread_mutex_unlock(&lock);
}

bitstr_t *fabric_table_bitmap(const char *name)
{
	bitstr_t *b = NULL;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < table_count && !b; i++)
		if (!xstrcmp(table[i].name, name))
			b = table[i].node_bitmap;
	pthread_mutex_unlock(&lock);
	return b;
}

uint32_t fabric_table_fragmentation(bitstr_t *node_mask)
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

/* Caller holds the lock.  The leaf holding node index @i, -1: none. */
static int _leaf_of(int i)
{
	return (node_leaf && i >= 0 && i < node_record_count) ? node_leaf[i] : -1;
}

uint32_t fabric_table_leaf_rank(int node_index)
{
	uint32_t rank = 0;
	int leaf;

	pthread_mutex_lock(&lock);
	if ((leaf = _leaf_of(node_index)) >= 0)
		rank = leaf_rank[leaf];
	pthread_mutex_unlock(&lock);
	return rank;
}

bool fabric_table_path(int node_index, const char *prefix, char **out)
{
	int path[64], n = 0, leaf;

	pthread_mutex_lock(&lock);
	if ((leaf = _leaf_of(node_index)) >= 0 && tree)
		n = fst_slurm_tree_path(tree, leaf, path, 64);
	if (n > 64)
		n = 64;
	if (n > 0) {
		xstrfmtcat(*out, "%s%s", *out ? "," : "", prefix);
		for (int k = 0; k < n; k++) /* top first */
			xstrfmtcat(*out, ":%s", table[path[k]].name);
	}
	pthread_mutex_unlock(&lock);
	return n > 0;
}

int fabric_table_count(void)
{
	int n;

	pthread_mutex_lock(&lock);
	n = table_count;
	pthread_mutex_unlock(&lock);
	return n;
}

int fabric_table_switch_confs(struct fabric_switch_conf **out, uint64_t *gen)
{
	int n;

	pthread_mutex_lock(&lock);
	n = table_count;
	*gen = generation;
	*out = n ? xcalloc(n, sizeof(**out)) : NULL;
	for (int i = 0; i < n; i++) {
		(*out)[i].name = xstrdup(table[i].name);
		(*out)[i].nodes = xstrdup(table[i].nodes);
		(*out)[i].switches = xstrdup(table[i].switches);
		(*out)[i].link_speed = table[i].link_speed;
	}
	pthread_mutex_unlock(&lock);
	return n;
}

void fabric_switch_confs_free(struct fabric_switch_conf *sw, int n)
{
	for (int i = 0; sw && i < n; i++) {
		xfree(sw[i].name);
		xfree(sw[i].nodes);
		xfree(sw[i].switches);
	}
	xfree(sw);
}

int fabric_table_node_addr(const char *node_name, char **paddr, char **ppattern)
{
	int rc;

	pthread_mutex_lock(&lock);
	rc = fabric_model_node_addr(tree, node_name, paddr, ppattern);
	pthread_mutex_unlock(&lock);
	return rc;
}

/* ------------------------------------------------------------ scontrol */

void *fabric_info_get(uint32_t plugin_id)
{
	dynamic_plugin_data_t *out = xmalloc(sizeof(*out));
	struct fabric_info *info = xmalloc(sizeof(*info));

	pthread_mutex_lock(&lock);
	info->count = table_count;
	info->sw = xcalloc(table_count + 1, sizeof(*info->sw));
	for (int i = 0; i < table_count; i++) {
		info->sw[i].name = xstrdup(table[i].name);
		info->sw[i].level = table[i].level;
		info->sw[i].link_speed = table[i].link_speed;
		info->sw[i].nodes = xstrdup(table[i].nodes);
		info->sw[i].switches = xstrdup(table[i].switches);
	}
	pthread_mutex_unlock(&lock);
	out->data = info;
	out->plugin_id = plugin_id;
	return out;
}

int fabric_info_free(void *data)
{
	struct fabric_info *info = data;

	if (!info)
		return SLURM_SUCCESS;
	for (uint32_t i = 0; i < info->count; i++)
		_free_switch(&info->sw[i]);
	xfree(info->sw);
	xfree(info);
	return SLURM_SUCCESS;
}

int fabric_info_pack(void *data, buf_t *buffer)
{
	struct fabric_info *info = data;

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

int fabric_info_unpack(void **out, buf_t *buffer)
{
	struct fabric_info *info = xmalloc(sizeof(*info));

	*out = info;
	safe_unpack32(&info->count, buffer);
	if (info->count > remaining_buf(buffer)) /* at least a byte each */
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
	fabric_info_free(info);
	*out = NULL;
	return SLURM_ERROR;
}

int fabric_info_print(void *data, const char *nodes, const char *unit, char **out,
		      const char *plugin_type)
{
	struct fabric_info *info = data;
	struct fst_switch_line *sw;
	char *text;

	*out = NULL;
	if (!info || !info->count) {
		error("%s: no fabric topology is loaded (see slurmctld's log)", plugin_type);
		return SLURM_SUCCESS;
	}
	sw = xcalloc(info->count, sizeof(*sw));
	for (uint32_t i = 0; i < info->count; i++)
		sw[i] = (struct fst_switch_line){
			.name = info->sw[i].name,
			.level = info->sw[i].level,
			.link_speed = info->sw[i].link_speed,
			.nodes = info->sw[i].nodes,
			.switches = info->sw[i].switches,
		};
	if ((text = fst_switch_lines(sw, info->count, unit, nodes)))
		*out = xstrdup(text);
	else if ((unit && *unit) || (nodes && *nodes))
		error("%s: no switch%s%s%s%s in the fabric topology", plugin_type,
		      unit && *unit ? " named " : "", unit && *unit ? unit : "",
		      nodes && *nodes ? " with nodes " : "", nodes && *nodes ? nodes : "");
	free(text);
	xfree(sw);
	return SLURM_SUCCESS;
}
