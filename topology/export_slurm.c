/*
 * export_slurm.c — Slurm topology.conf (tree, block) and topology.yaml.
 *
 * Tree rules: each node appears once (under its primary leaf, in its
 * primary plane), a line has either Nodes= or Switches=, switches without
 * nodes below them are left out, and when no switch spans every node a
 * virtual root is added so that jobs may span the whole fabric.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <stdlib.h>
#include <string.h>

struct tree {
	const struct fst_model *m;
	int *active;		/* switch has nodes below it */
	char **leafnodes;	/* leaf: compressed host list */
	int *is_top;
	int ntop;
	char *root;		/* virtual root name or NULL */
};

static void _tree_free(struct tree *t)
{
	if (t->leafnodes)
		for (int d = 0; d < t->m->ndevs; d++)
			free(t->leafnodes[d]);
	free(t->leafnodes);
	free(t->active);
	free(t->is_top);
	free(t->root);
}

static int _child(const struct fst_model *m, int d, int r)
{
	const struct fst_device *a = &m->devs[d], *b = &m->devs[r];

	return b->type == FST_SWITCH && a->level >= 1 && b->level == a->level - 1 &&
	       (b->role == FST_ROLE_LEAF || b->role == FST_ROLE_SPINE);
}

/* Most common link rate (Mb/s) from d to the ports that pass `want`. */
static long _link_speed(const struct tree *t, int d)
{
	const struct fst_model *m = t->m;
	const struct fst_device *dv = &m->devs[d];
	long vals[256];
	int cnt[256], nv = 0, best = -1;

	for (int p = 1; p <= dv->nports; p++) {
		int r = dv->ports[p].peer, k;
		long v;

		if (r < 0 || r == d)
			continue;
		if (dv->level == 0 ? (m->devs[r].role != FST_ROLE_COMPUTE)
				   : !(_child(m, d, r) && t->active[r]))
			continue;
		v = fst_link_mbps(dv->ports[p].width, dv->ports[p].speed);
		if (v <= 0)
			continue;
		for (k = 0; k < nv && vals[k] != v; k++)
			;
		if (k == nv) {
			vals[nv] = v;
			cnt[nv++] = 0;
		}
		cnt[k]++;
	}
	for (int k = 0; k < nv; k++)
		if (best < 0 || cnt[k] > cnt[best] || (cnt[k] == cnt[best] && vals[k] < vals[best]))
			best = k;
	return best < 0 ? 0 : vals[best];
}

static int _tree_build(struct tree *t, const struct fst_model *m, const struct fst_export_opts *o,
		       char *err, size_t errlen)
{
	int n = m->ndevs, nactive_leaves = 0;
	char ***lists = NULL;
	int *nlist = NULL;
	int *stamp = NULL, *stack = NULL;
	int need_root = 0, rc = -1;

	memset(t, 0, sizeof(*t));
	t->m = m;
	if (!m->classified)
		return fst_err(err, errlen, "model not classified");
	t->active = calloc((size_t)n + 1, sizeof(int));
	t->is_top = calloc((size_t)n + 1, sizeof(int));
	t->leafnodes = calloc((size_t)n + 1, sizeof(char *));
	lists = calloc((size_t)n + 1, sizeof(char **));
	nlist = calloc((size_t)n + 1, sizeof(int));
	stamp = calloc((size_t)n + 1, sizeof(int));
	stack = calloc((size_t)n + 1, sizeof(int));
	if (!t->active || !t->is_top || !t->leafnodes || !lists || !nlist || !stamp || !stack)
		goto oom;
	for (int h = 0; h < m->nhosts; h++) {
		int l = m->hosts[h].leaf;

		if (l < 0 || (o && o->plane >= 0 && m->devs[l].plane != o->plane))
			continue;
		if (!lists[l] && !(lists[l] = calloc((size_t)m->devs[l].nports + 1, sizeof(char *))))
			goto oom;
		lists[l][nlist[l]++] = m->hosts[h].name;
	}
	for (int d = 0; d < n; d++)
		if (nlist[d]) {
			t->leafnodes[d] = fst_hostlist_compress(lists[d], nlist[d]);
			if (!t->leafnodes[d])
				goto oom;
			t->active[d] = 1;
			nactive_leaves++;
		}
	for (int lv = 1; lv <= m->max_level; lv++)
		for (int d = 0; d < n; d++) {
			const struct fst_device *dv = &m->devs[d];

			if (dv->level != lv || dv->role != FST_ROLE_SPINE)
				continue;
			for (int p = 1; p <= dv->nports; p++) {
				int r = dv->ports[p].peer;

				if (r >= 0 && _child(m, d, r) && t->active[r])
					t->active[d] = 1;
			}
		}
	/* tops: active switches without an active parent */
	for (int d = 0; d < n; d++) {
		const struct fst_device *dv = &m->devs[d];
		int parent = 0;

		if (!t->active[d])
			continue;
		for (int p = 1; p <= dv->nports; p++) {
			int r = dv->ports[p].peer;

			if (r >= 0 && _child(m, r, d) && t->active[r])
				parent = 1;
		}
		if (!parent) {
			t->is_top[d] = 1;
			t->ntop++;
		}
	}
	if (t->ntop > 1) {
		int covered = 0, stampv = 0;

		need_root = 1;
		for (int d = 0; d < n && need_root; d++) {
			int sp = 0, leaves = 0;

			if (!t->is_top[d])
				continue;
			if (++covered > 64)	/* enough tops tried: they are alike */
				break;
			stampv++;
			stack[sp++] = d;
			stamp[d] = stampv;
			while (sp) {
				int x = stack[--sp];

				if (m->devs[x].level == 0) {
					leaves++;
					continue;
				}
				for (int p = 1; p <= m->devs[x].nports; p++) {
					int r = m->devs[x].ports[p].peer;

					if (r >= 0 && _child(m, x, r) && t->active[r] && stamp[r] != stampv) {
						stamp[r] = stampv;
						stack[sp++] = r;
					}
				}
			}
			if (leaves == nactive_leaves)
				need_root = 0;
		}
	}
	if (need_root) {
		const char *base = (o && o->root_name) ? o->root_name : "fabric";
		size_t len = strlen(base) + 16;

		t->root = malloc(len);
		if (!t->root)
			goto oom;
		snprintf(t->root, len, "%s", base);
		for (int i = 1; fst_find_device(m, t->root) >= 0 || fst_find_host(m, t->root) >= 0; i++)
			snprintf(t->root, len, "%s_%d", base, i);
	}
	rc = 0;
	goto out;
oom:
	fst_err(err, errlen, "out of memory");
out:
	if (lists)
		for (int d = 0; d < n; d++)
			free(lists[d]);
	free(lists);
	free(nlist);
	free(stamp);
	free(stack);
	if (rc)
		_tree_free(t);
	return rc;
}

/* Children switch names of d (or tops for the virtual root), compressed. */
static char *_children(const struct tree *t, int d)
{
	const struct fst_model *m = t->m;
	char **v = calloc((size_t)m->ndevs + 1, sizeof(char *));
	int n = 0;
	char *s;

	if (!v)
		return NULL;
	if (d < 0) {
		for (int x = 0; x < m->ndevs; x++)
			if (t->is_top[x])
				v[n++] = m->devs[x].name;
	} else {
		for (int p = 1; p <= m->devs[d].nports; p++) {
			int r = m->devs[d].ports[p].peer, dup = 0;

			if (r < 0 || !_child(m, d, r) || !t->active[r])
				continue;
			for (int i = 0; i < n; i++)
				if (v[i] == m->devs[r].name)
					dup = 1;
			if (!dup)
				v[n++] = m->devs[r].name;
		}
	}
	s = fst_hostlist_compress(v, n);
	free(v);
	return s;
}

int fst_export_tree(const struct fst_model *m, FILE *out, const struct fst_export_opts *o,
		    char *err, size_t errlen)
{
	struct tree t;

	if (_tree_build(&t, m, o, err, errlen))
		return -1;
	fprintf(out, "# topology.conf (topology/tree) generated by fabsched from %s\n"
		     "# %d nodes, %d levels; each node appears once\n",
		m->source ? m->source : "?", m->nhosts, m->max_level + 1);
	for (int lv = 0; lv <= m->max_level; lv++)
		for (int d = 0; d < m->ndevs; d++) {
			const struct fst_device *dv = &m->devs[d];
			long sp;

			if (!t.active[d] || dv->level != lv)
				continue;
			fprintf(out, "SwitchName=%s ", dv->name);
			if (lv == 0) {
				fprintf(out, "Nodes=%s", t.leafnodes[d]);
			} else {
				char *c = _children(&t, d);

				if (!c) {
					_tree_free(&t);
					return fst_err(err, errlen, "out of memory");
				}
				fprintf(out, "Switches=%s", c);
				free(c);
			}
			sp = (o && o->no_link_speed) ? 0 : _link_speed(&t, d);
			if (sp > 0)
				fprintf(out, " LinkSpeed=%ld", sp);
			fputc('\n', out);
		}
	if (t.root) {
		char *c = _children(&t, -1);

		if (!c) {
			_tree_free(&t);
			return fst_err(err, errlen, "out of memory");
		}
		fprintf(out, "# virtual root: no switch of the fabric spans every node\n"
			     "SwitchName=%s Switches=%s\n", t.root, c);
		free(c);
	}
	_tree_free(&t);
	if (ferror(out))
		return fst_err(err, errlen, "write error");
	return 0;
}

/* Blocks: racks (or pods) with their compressed node lists. */
static int _blocks(const struct fst_model *m, const struct fst_export_opts *o, char ***names,
		   char ***lists, int **sizes, int *nb)
{
	int by_pod = o && o->block_by_pod;
	int ng = by_pod ? m->npods : m->nracks;
	const struct fst_group *g = by_pod ? m->pods : m->racks;
	char **v = calloc((size_t)m->nhosts + 1, sizeof(char *));

	*names = calloc((size_t)ng + 1, sizeof(char *));
	*lists = calloc((size_t)ng + 1, sizeof(char *));
	*sizes = calloc((size_t)ng + 1, sizeof(int));
	*nb = 0;
	if (!v || !*names || !*lists || !*sizes) {
		free(v);
		return -1;
	}
	for (int i = 0; i < ng; i++) {
		int n = 0;

		for (int h = 0; h < m->nhosts; h++)
			if ((by_pod ? m->hosts[h].pod : m->hosts[h].rack) == i &&
			    (!o || o->plane < 0 || m->hosts[h].plane == o->plane))
				v[n++] = m->hosts[h].name;
		if (!n)
			continue;
		(*names)[*nb] = g[i].name;
		(*lists)[*nb] = fst_hostlist_compress(v, n);
		(*sizes)[*nb] = n;
		if (!(*lists)[*nb]) {
			free(v);
			return -1;
		}
		(*nb)++;
	}
	free(v);
	return 0;
}

static void _blocks_free(char **names, char **lists, int *sizes, int nb)
{
	for (int i = 0; lists && i < nb; i++)
		free(lists[i]);
	free(names);
	free(lists);
	free(sizes);
}

/* Base block size = smallest block; then doublings while they fit. */
static int _block_sizes(const int *sizes, int nb, int *out)
{
	int base = 0, n = 0;

	for (int i = 0; i < nb; i++)
		if (!base || sizes[i] < base)
			base = sizes[i];
	if (!base)
		return 0;
	for (int k = 1; k <= nb && n < 16; k *= 2)
		out[n++] = base * k;
	return n;
}

int fst_export_block(const struct fst_model *m, FILE *out, const struct fst_export_opts *o,
		     char *err, size_t errlen)
{
	char **names, **lists;
	int *sizes, nb, bs[16], nbs;

	if (!m->classified)
		return fst_err(err, errlen, "model not classified");
	if (_blocks(m, o, &names, &lists, &sizes, &nb)) {
		_blocks_free(names, lists, sizes, nb);
		return fst_err(err, errlen, "out of memory");
	}
	fprintf(out, "# topology.conf (topology/block, Slurm 23.11+) generated by fabsched from %s\n"
		     "# one block per %s\n", m->source ? m->source : "?",
		o && o->block_by_pod ? "pod (leaves sharing spines)" : "rack (leaf switch)");
	for (int i = 0; i < nb; i++)
		fprintf(out, "BlockName=%s Nodes=%s\n", names[i], lists[i]);
	nbs = _block_sizes(sizes, nb, bs);
	if (nbs) {
		fprintf(out, "BlockSizes=");
		for (int i = 0; i < nbs; i++)
			fprintf(out, "%s%d", i ? "," : "", bs[i]);
		fputc('\n', out);
	}
	_blocks_free(names, lists, sizes, nb);
	return ferror(out) ? fst_err(err, errlen, "write error") : 0;
}

int fst_export_yaml(const struct fst_model *m, FILE *out, const struct fst_export_opts *o,
		    char *err, size_t errlen)
{
	struct tree t;
	char **names, **lists;
	int *sizes, nb, bs[16], nbs;

	if (_tree_build(&t, m, o, err, errlen))
		return -1;
	fprintf(out, "# topology.yaml (Slurm 25.05+) generated by fabsched from %s\n---\n"
		     "- topology: fabric_tree\n  cluster_default: true\n  tree:\n    switches:\n",
		m->source ? m->source : "?");
	if (t.root) {
		char *c = _children(&t, -1);

		fprintf(out, "      - switch: %s\n        children: \"%s\"\n", t.root, c ? c : "");
		free(c);
	}
	for (int lv = m->max_level; lv >= 0; lv--)
		for (int d = 0; d < m->ndevs; d++) {
			const struct fst_device *dv = &m->devs[d];

			if (!t.active[d] || dv->level != lv)
				continue;
			fprintf(out, "      - switch: %s\n", dv->name);
			if (lv == 0) {
				fprintf(out, "        nodes: \"%s\"\n", t.leafnodes[d]);
			} else {
				char *c = _children(&t, d);

				fprintf(out, "        children: \"%s\"\n", c ? c : "");
				free(c);
			}
		}
	_tree_free(&t);
	if (_blocks(m, o, &names, &lists, &sizes, &nb)) {
		_blocks_free(names, lists, sizes, nb);
		return fst_err(err, errlen, "out of memory");
	}
	fprintf(out, "- topology: fabric_block\n  cluster_default: false\n  block:\n");
	nbs = _block_sizes(sizes, nb, bs);
	if (nbs) {
		fprintf(out, "    block_sizes:\n");
		for (int i = 0; i < nbs; i++)
			fprintf(out, "      - %d\n", bs[i]);
	}
	fprintf(out, "    blocks:\n");
	for (int i = 0; i < nb; i++)
		fprintf(out, "      - block: %s\n        nodes: \"%s\"\n", names[i], lists[i]);
	_blocks_free(names, lists, sizes, nb);
	return ferror(out) ? fst_err(err, errlen, "write error") : 0;
}
