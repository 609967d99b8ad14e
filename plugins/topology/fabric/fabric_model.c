/*
 * fabric_model.c - model loading and node ranking shared by the flavours of
 * topology/fabric (see fabric_model.h).
 */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "src/common/hostlist.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/run_in_daemon.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "fabric_model.h"
#include "fabsched_conf.h"
#include "fs_plugin_conf.h"

/* hostlist_t became the struct (not a pointer to it) in 23.02 */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
typedef hostlist_t *fs_hostlist_t;
#else
typedef hostlist_t fs_hostlist_t;
#endif

/* The model of @conf; @all_off (may be NULL) told whether every partition
 * has Locality=off. */
static struct fst_model *_load(const char *plugin_type, bool *all_off)
{
	struct fs_conf *conf = fabsched_plugin_conf_load(plugin_type);
	struct fst_model *m = NULL;
	const char *path;
	char err[1024] = "";

	if (!conf) {
		error("%s: no usable fabsched.conf: no fabric topology", plugin_type);
		return NULL;
	}
	if (all_off)
		*all_off = fs_conf_all_off(conf);
	path = fs_conf_get_str(conf, "FabricModel");
	if (!path || !*path) {
		error("%s: FabricModel is not set in %s: no fabric topology", plugin_type,
		      fs_conf_source(conf));
	} else if (!running_in_slurmctld() && access(path, F_OK) && errno == ENOENT) {
		/* a configless node: the model lives on the controller */
		info("%s: fabric model %s is not on this node: SLURM_TOPOLOGY_ADDR of its jobs is the node name alone",
		     plugin_type, path);
	} else if (fst_json_read_file(&m, path, err, sizeof(err)) != 0) {
		error("%s: cannot use fabric model %s: %s; no fabric topology", plugin_type, path,
		      err[0] ? err : "unknown error");
		m = NULL;
	} else {
		verbose("%s: fabric model %s: %d devices, %d nodes", plugin_type, path, m->ndevs,
			m->nhosts);
	}
	fs_conf_destroy(conf);
	return m;
}

struct fst_model *fabric_model_load(const char *plugin_type)
{
	return _load(plugin_type, NULL);
}

bool fabric_model_rank(const struct fst_model *m, const char *plugin_type)
{
	const char **names;
	uint32_t *rank;
	int known;

	if (!m)
		return false;
	names = fs_plugin_node_names();
	rank = xcalloc(node_record_count + 1, sizeof(*rank));
	known = fst_rank_nodes(m, names, node_record_count, rank);
	for (int i = 0; known && i < node_record_count; i++)
		if (node_record_table_ptr[i])
			node_record_table_ptr[i]->node_rank = rank[i];
	if (known)
		verbose("%s: %d nodes ranked in fabric order", plugin_type, known);
	xfree(names);
	xfree(rank);
	return known > 0;
}

/* Filter of the tree: nodes Slurm knows; the others are collected. */
static int _known(const char *node, void *arg)
{
	fs_hostlist_t *unknown = arg;

	if (find_node_record2((char *)node))
		return 1;
	if (!*unknown)
		*unknown = hostlist_create(NULL);
	hostlist_push_host(*unknown, node);
	return 0;
}

static void _log_hostlist(fs_hostlist_t hl, const char *plugin_type, const char *what,
			  bool as_error)
{
	char *s;
	int n;

	if (!hl)
		return;
	hostlist_uniq(hl);
	n = hostlist_count(hl);
	s = hostlist_ranged_string_xmalloc(hl);
	if (as_error)
		error("%s: %d %s: %s", plugin_type, n, what, s);
	else
		info("%s: %d %s: %s", plugin_type, n, what, s);
	xfree(s);
}

struct fst_slurm_tree *fabric_model_tree(const struct fst_model *m, const char *plugin_type)
{
	struct fst_slurm_tree *tree = NULL;
	fs_hostlist_t unknown = NULL, missing = NULL;
	char err[512] = "";

	if (fst_slurm_tree_build(m, NULL, _known, &unknown, &tree, err, sizeof(err)) != 0) {
		error("%s: cannot build the switch tree of %s: %s; no fabric topology", plugin_type,
		      m->source ? m->source : "the model", err);
		FREE_NULL_HOSTLIST(unknown);
		return NULL;
	}
	_log_hostlist(unknown, plugin_type,
		      "nodes of the fabric model are not in slurm.conf, left out", false);
	FREE_NULL_HOSTLIST(unknown);
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *np = node_record_table_ptr[i];

		if (!np || fst_slurm_tree_node_leaf(tree, np->name) >= 0)
			continue;
		if (!missing)
			missing = hostlist_create(NULL);
		hostlist_push_host(missing, np->name);
	}
	_log_hostlist(missing, plugin_type,
		      "nodes of slurm.conf are not in the fabric model: they are on no switch",
		      true);
	FREE_NULL_HOSTLIST(missing);
	if (tree->nsw == 0) {
		error("%s: no node of the fabric model %s is in slurm.conf: no fabric topology",
		      plugin_type, m->source ? m->source : "");
		fst_slurm_tree_free(tree);
		return NULL;
	}
	return tree;
}

bitstr_t **fabric_model_switch_nodes(const struct fst_slurm_tree *tree)
{
	bitstr_t **b = xcalloc(tree->nsw + 1, sizeof(*b));

	/* records come leaves first: children always precede their parents */
	for (int i = 0; i < tree->nsw; i++) {
		const struct fst_slurm_switch *s = &tree->sw[i];
		node_record_t *np;

		b[i] = bit_alloc(node_record_count);
		for (int k = 0; k < s->nnodes && s->level == 0; k++)
			if ((np = find_node_record2(s->nodes[k])))
				bit_set(b[i], np->index);
		for (int k = 0; k < s->nchildren && s->level > 0; k++)
			bit_or(b[i], b[s->children[k]]);
	}
	return b;
}

/* ------------------------------------------------------------ hand-off */

static struct fst_model *kept; /* loaded by the ranking, for the build */
static bool have_kept;	       /* the ranking ran (kept may be NULL) */

void fabric_model_drop(void)
{
	fst_model_free(kept);
	kept = NULL;
	have_kept = false;
}

bool fabric_model_rank_keep(const char *plugin_type)
{
	bool all_off = false;

	fabric_model_drop();
	kept = _load(plugin_type, &all_off);
	have_kept = true;
	if (all_off) {
		info("%s: every partition has Locality=off: nodes keep the order of slurm.conf, as with topology/tree",
		     plugin_type);
		return false;
	}
	return fabric_model_rank(kept, plugin_type);
}

struct fst_model *fabric_model_take(const char *plugin_type)
{
	struct fst_model *m;

	if (!have_kept)
		return fabric_model_load(plugin_type);
	m = kept;
	kept = NULL;
	have_kept = false;
	return m;
}

void fabric_model_done(struct fst_model *m)
{
	if (!m)
		return;
	fst_model_free(m);
#ifdef __GLIBC__
	if (!running_in_slurmctld())
		malloc_trim(0);
#endif
}

int fabric_model_node_addr(const struct fst_slurm_tree *tree, const char *node_name, char **paddr,
			   char **ppattern)
{
	char *addr = NULL, *pattern = NULL;

	if (!node_name || !paddr || !ppattern)
		return SLURM_ERROR;
	if (tree && fst_slurm_tree_node_addr(tree, node_name, &addr, &pattern, NULL, 0) == 0) {
		*paddr = xstrdup(addr);
		*ppattern = xstrdup(pattern);
	} else {
		*paddr = xstrdup(node_name);
		*ppattern = xstrdup("node");
	}
	free(addr);
	free(pattern);
	return SLURM_SUCCESS;
}
