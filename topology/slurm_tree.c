/*
 * slurm_tree.c — the Slurm switch tree of a classified model, as records.
 *
 * One builder for the topology.conf exporter (export_slurm.c) and the
 * topology/fabric plugin.  Rules in fabsched_topo.h ("Slurm tree").
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <stdlib.h>
#include <string.h>

struct fst_tree_priv {
	struct fst_index nodes; /* node name -> leaf index in sw */
};

/* Working state over the model's devices. */
struct work {
	const struct fst_model *m;
	int *active;   /* switch has kept nodes below it */
	char ***lists; /* leaf: its kept node names (the model's) */
	int *nlist;
	int *is_top;
	int ntop;
	int *rec; /* device -> record index, -1 */
};

static void _work_free(struct work *w)
{
	if (w->lists)
		for (int d = 0; d < w->m->ndevs; d++)
			free(w->lists[d]);
	free(w->lists);
	free(w->nlist);
	free(w->active);
	free(w->is_top);
	free(w->rec);
}

/* r is a switch one level below switch d (a possible child of d). */
static int _child(const struct fst_model *m, int d, int r)
{
	const struct fst_device *a = &m->devs[d], *b = &m->devs[r];

	return b->type == FST_SWITCH && a->level >= 1 && b->level == a->level - 1 &&
	       (b->role == FST_ROLE_LEAF || b->role == FST_ROLE_SPINE);
}

/* Most common link rate (Mb/s) from d to its compute HCAs (leaves) or its
 * active children (above); ties go to the lower rate. */
static long _link_speed(const struct work *w, int d)
{
	const struct fst_model *m = w->m;
	const struct fst_device *dv = &m->devs[d];
	long vals[256];
	int cnt[256], nv = 0, best = -1;

	for (int p = 1; p <= dv->nports; p++) {
		int r = dv->ports[p].peer, k;
		long v;

		if (r < 0 || r == d)
			continue;
		if (dv->level == 0 ? (m->devs[r].role != FST_ROLE_COMPUTE)
				   : !(_child(m, d, r) && w->active[r]))
			continue;
		v = fst_link_mbps(dv->ports[p].width, dv->ports[p].speed);
		if (v <= 0)
			continue;
		for (k = 0; k < nv && vals[k] != v; k++)
			;
		if (k == nv) {
			if (nv == 256)
				continue;
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

/* Each leaf's kept nodes (w->lists): those of plane o->plane (all when
 * -1) that keep accepts.  -1 when out of memory. */
static int _collect_nodes(struct work *w, const struct fst_export_opts *o, fst_node_filter keep,
			  void *arg)
{
	const struct fst_model *m = w->m;

	for (int h = 0; h < m->nhosts; h++) {
		int l = m->hosts[h].leaf;

		if (l < 0 || (o && o->plane >= 0 && m->devs[l].plane != o->plane))
			continue;
		if (keep && !keep(m->hosts[h].name, arg))
			continue;
		if (!w->lists[l] &&
		    !(w->lists[l] = calloc((size_t)m->devs[l].nports + 1, sizeof(char *))))
			return -1;
		if (w->nlist[l] >= m->devs[l].nports) /* cannot happen in a classified model */
			continue;
		w->lists[l][w->nlist[l]++] = m->hosts[h].name;
	}
	return 0;
}

/* Active switches: the leaves with kept nodes, then level by level the
 * spines above an active child.  Returns the number of active leaves. */
static int _activate(struct work *w)
{
	const struct fst_model *m = w->m;
	int n = m->ndevs, nactive_leaves = 0;

	for (int d = 0; d < n; d++)
		if (w->nlist[d]) {
			w->active[d] = 1;
			nactive_leaves++;
		}
	for (int lv = 1; lv <= m->max_level; lv++)
		for (int d = 0; d < n; d++) {
			const struct fst_device *dv = &m->devs[d];

			if (dv->level != lv || dv->role != FST_ROLE_SPINE)
				continue;
			for (int p = 1; p <= dv->nports; p++) {
				int r = dv->ports[p].peer;

				if (r >= 0 && _child(m, d, r) && w->active[r])
					w->active[d] = 1;
			}
		}
	return nactive_leaves;
}

/* tops: active switches without an active parent */
static void _find_tops(struct work *w)
{
	const struct fst_model *m = w->m;

	for (int d = 0; d < m->ndevs; d++) {
		const struct fst_device *dv = &m->devs[d];
		int parent = 0;

		if (!w->active[d])
			continue;
		for (int p = 1; p <= dv->nports; p++) {
			int r = dv->ports[p].peer;

			if (r >= 0 && _child(m, r, d) && w->active[r])
				parent = 1;
		}
		if (!parent) {
			w->is_top[d] = 1;
			w->ntop++;
		}
	}
}

/* The active leaves below top d, depth first over active children;
 * stamp[] marks with stampv the switches seen, stack[] is scratch. */
static int _leaves_below(const struct work *w, int d, int stampv, int *stamp, int *stack)
{
	const struct fst_model *m = w->m;
	int sp = 0, leaves = 0;

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

			if (r >= 0 && _child(m, x, r) && w->active[r] && stamp[r] != stampv) {
				stamp[r] = stampv;
				stack[sp++] = r;
			}
		}
	}
	return leaves;
}

/* Whether no top reaches every active leaf (of the first 64 tops). */
static int _need_root(const struct work *w, int nactive_leaves, int *stamp, int *stack)
{
	int covered = 0, stampv = 0;

	for (int d = 0; d < w->m->ndevs; d++) {
		if (!w->is_top[d])
			continue;
		if (++covered > 64) /* enough tops tried: they are alike */
			break;
		if (_leaves_below(w, d, ++stampv, stamp, stack) == nactive_leaves)
			return 0;
	}
	return 1;
}

/* Active switches, tops; *need_root when no top reaches every active leaf. */
static int _mark(struct work *w, const struct fst_export_opts *o, fst_node_filter keep, void *arg,
		 int *need_root)
{
	int n = w->m->ndevs, nactive_leaves, rc = -1;
	int *stamp = calloc((size_t)n + 1, sizeof(int)),
	    *stack = calloc((size_t)n + 1, sizeof(int));

	*need_root = 0;
	if (!stamp || !stack || _collect_nodes(w, o, keep, arg))
		goto out;
	nactive_leaves = _activate(w);
	_find_tops(w);
	if (w->ntop > 1)
		*need_root = _need_root(w, nactive_leaves, stamp, stack);
	rc = 0;
out:
	free(stamp);
	free(stack);
	return rc;
}

static int _cmp_name(const void *a, const void *b)
{
	return fst_str_cmp_natural(*(char *const *)a, *(char *const *)b);
}

static int _cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Names of the children of record i, compressed. */
static char *_childlist(const struct fst_slurm_tree *t, int i)
{
	const struct fst_slurm_switch *s = &t->sw[i];
	char **v = calloc((size_t)s->nchildren + 1, sizeof(char *));
	char *r;

	if (!v)
		return NULL;
	for (int k = 0; k < s->nchildren; k++)
		v[k] = t->sw[s->children[k]].name;
	r = fst_hostlist_compress(v, s->nchildren);
	free(v);
	return r;
}

/* Children (and parents) of the model switch of record i. */
static int _link_records(struct fst_slurm_tree *t, const struct work *w, int i)
{
	const struct fst_model *m = w->m;
	struct fst_slurm_switch *s = &t->sw[i];
	const struct fst_device *dv = &m->devs[s->dev];

	s->children = calloc((size_t)dv->nports + 1, sizeof(int));
	if (!s->children)
		return -1;
	for (int p = 1; p <= dv->nports; p++) {
		int r = dv->ports[p].peer, c, dup = 0;

		if (r < 0 || !_child(m, s->dev, r) || !w->active[r])
			continue;
		c = w->rec[r];
		for (int k = 0; k < s->nchildren; k++)
			dup |= s->children[k] == c;
		if (dup)
			continue;
		s->children[s->nchildren++] = c;
		t->sw[c].nparents++;
		if (t->sw[c].parent < 0 ||
		    fst_str_cmp_natural(s->name, t->sw[t->sw[c].parent].name) < 0)
			t->sw[c].parent = i;
	}
	qsort(s->children, (size_t)s->nchildren, sizeof(int), _cmp_int);
	return 0;
}

/* The working arrays over the model's devices and the empty tree (*tp,
 * set as soon as made).  -1 when out of memory. */
static int _start(struct work *w, struct fst_slurm_tree **tp)
{
	int n = w->m->ndevs;
	struct fst_slurm_tree *t;

	w->active = calloc((size_t)n + 1, sizeof(int));
	w->is_top = calloc((size_t)n + 1, sizeof(int));
	w->lists = calloc((size_t)n + 1, sizeof(char **));
	w->nlist = calloc((size_t)n + 1, sizeof(int));
	w->rec = calloc((size_t)n + 1, sizeof(int));
	t = *tp = calloc(1, sizeof(*t));
	if (!w->active || !w->is_top || !w->lists || !w->nlist || !w->rec || !t)
		return -1;
	t->virtual_root = -1;
	t->max_level = -1;
	if (!(t->priv = calloc(1, sizeof(*t->priv))))
		return -1;
	return 0;
}

/* records: level ascending, then model order (w->rec: each active
 * switch's record) */
static int _make_records(struct fst_slurm_tree *t, struct work *w)
{
	const struct fst_model *m = w->m;
	int n = m->ndevs, nrec = 0;

	for (int d = 0; d < n; d++) {
		w->rec[d] = -1;
		nrec += w->active[d];
	}
	t->sw = calloc((size_t)nrec + 2, sizeof(*t->sw));
	if (!t->sw)
		return -1;
	for (int lv = 0; lv <= m->max_level; lv++)
		for (int d = 0; d < n; d++) {
			struct fst_slurm_switch *s;

			if (!w->active[d] || m->devs[d].level != lv)
				continue;
			s = &t->sw[t->nsw];
			w->rec[d] = t->nsw++;
			s->dev = d;
			s->level = lv;
			s->parent = -1;
			if (!(s->name = strdup(m->devs[d].name ? m->devs[d].name : m->devs[d].id)))
				return -1;
			if (lv > t->max_level)
				t->max_level = lv;
		}
	return 0;
}

/* Leaf record i: its kept nodes, in natural order, compressed, indexed. */
static int _leaf_nodes(struct fst_slurm_tree *t, const struct work *w, int i)
{
	struct fst_slurm_switch *s = &t->sw[i];
	int k = w->nlist[s->dev];

	s->nodes = calloc((size_t)k + 1, sizeof(char *));
	if (!s->nodes)
		return -1;
	for (int j = 0; j < k; j++) {
		if (!(s->nodes[j] = strdup(w->lists[s->dev][j])))
			return -1;
		s->nnodes++;
	}
	qsort(s->nodes, (size_t)s->nnodes, sizeof(char *), _cmp_name);
	if (!(s->nodelist = fst_hostlist_compress(s->nodes, s->nnodes)))
		return -1;
	for (int j = 0; j < s->nnodes; j++)
		if (fst_index_put(&t->priv->nodes, s->nodes[j], i))
			return -1;
	t->nnodes += s->nnodes;
	return 0;
}

/* Each record's nodes (leaves) or children (above), and its link speed. */
static int _fill_records(struct fst_slurm_tree *t, const struct work *w,
			 const struct fst_export_opts *o)
{
	for (int i = 0; i < t->nsw; i++) {
		struct fst_slurm_switch *s = &t->sw[i];

		if (s->level == 0 ? _leaf_nodes(t, w, i) : _link_records(t, w, i))
			return -1;
		s->link_speed = (o && o->no_link_speed) ? 0 : _link_speed(w, s->dev);
	}
	return 0;
}

/* The virtual root above the tops, the last record: o->root_name
 * (default "fabric"), numbered when a device or host has that name. */
static int _virtual_root(struct fst_slurm_tree *t, const struct work *w,
			 const struct fst_export_opts *o)
{
	const struct fst_model *m = w->m;
	const char *base = (o && o->root_name) ? o->root_name : "fabric";
	size_t len = strlen(base) + 16;
	struct fst_slurm_switch *r = &t->sw[t->nsw];
	int ri = t->nsw++;

	r->dev = -1;
	r->parent = -1;
	r->level = t->max_level + 1;
	t->max_level = r->level;
	t->virtual_root = ri;
	if (!(r->name = malloc(len)) || !(r->children = calloc((size_t)ri + 1, sizeof(int))))
		return -1;
	snprintf(r->name, len, "%s", base);
	for (int i = 1; fst_find_device(m, r->name) >= 0 || fst_find_host(m, r->name) >= 0; i++)
		snprintf(r->name, len, "%s_%d", base, i);
	for (int i = 0; i < ri; i++)
		if (w->is_top[t->sw[i].dev]) {
			r->children[r->nchildren++] = i;
			t->sw[i].parent = ri;
			t->sw[i].nparents = 1;
		}
	return 0;
}

int fst_slurm_tree_build(const struct fst_model *m, const struct fst_export_opts *o,
			 fst_node_filter keep, void *arg, struct fst_slurm_tree **out, char *err,
			 size_t errlen)
{
	struct work w = { .m = m };
	struct fst_slurm_tree *t = NULL;
	int need_root = 0;

	if (!out)
		return fs_errf(err, errlen, "no result pointer");
	*out = NULL;
	if (!m)
		return fs_errf(err, errlen, "no model");
	if (!m->classified)
		return fs_errf(err, errlen, "model not classified");
	if (_start(&w, &t) || _mark(&w, o, keep, arg, &need_root) || _make_records(t, &w) ||
	    _fill_records(t, &w, o) || (need_root && _virtual_root(t, &w, o)))
		goto oom;
	for (int i = 0; i < t->nsw; i++)
		if (t->sw[i].level > 0 && !(t->sw[i].childlist = _childlist(t, i)))
			goto oom;
	_work_free(&w);
	*out = t;
	return 0;
oom:
	_work_free(&w);
	fst_slurm_tree_free(t);
	return fs_errf(err, errlen, "out of memory");
}

void fst_slurm_tree_free(struct fst_slurm_tree *t)
{
	if (!t)
		return;
	for (int i = 0; t->sw && i < t->nsw; i++) {
		struct fst_slurm_switch *s = &t->sw[i];

		free(s->name);
		fst_strv_free(s->nodes, s->nnodes);
		free(s->nodelist);
		free(s->children);
		free(s->childlist);
	}
	free(t->sw);
	if (t->priv) {
		fst_index_clear(&t->priv->nodes);
		free(t->priv);
	}
	free(t);
}

int fst_slurm_tree_find_switch(const struct fst_slurm_tree *t, const char *name)
{
	if (!t || !name)
		return -1;
	for (int i = 0; i < t->nsw; i++)
		if (strcmp(t->sw[i].name, name) == 0)
			return i;
	return -1;
}

int fst_slurm_tree_node_leaf(const struct fst_slurm_tree *t, const char *node)
{
	if (!t || !node || !t->priv)
		return -1;
	return fst_index_get(&t->priv->nodes, node);
}

int fst_slurm_tree_path(const struct fst_slurm_tree *t, int sw, int *path, int max)
{
	int n = 0;

	if (!t || sw < 0 || sw >= t->nsw)
		return -1;
	/* length first (parents are always one level up: no cycle, bounded) */
	for (int x = sw; x >= 0 && n <= t->nsw; x = t->sw[x].parent)
		n++;
	if (path) {
		int k = n;

		for (int x = sw; x >= 0 && k > 0; x = t->sw[x].parent)
			if (--k < max)
				path[k] = x;
	}
	return n;
}

int fst_slurm_tree_node_addr(const struct fst_slurm_tree *t, const char *node, char **addr,
			     char **pattern, char *err, size_t errlen)
{
	int leaf = fst_slurm_tree_node_leaf(t, node), n, *path = NULL;
	size_t alen, plen;
	char *a = NULL, *p = NULL;

	if (!addr || !pattern)
		return fs_errf(err, errlen, "no result pointer");
	if (leaf < 0)
		return fs_errf(err, errlen, "node %s is not in the fabric tree",
			       node ? node : "(null)");
	n = fst_slurm_tree_path(t, leaf, NULL, 0);
	if (n <= 0 || !(path = calloc((size_t)n, sizeof(int))))
		return fs_errf(err, errlen, "out of memory");
	fst_slurm_tree_path(t, leaf, path, n);
	alen = strlen(node) + 1;
	for (int k = 0; k < n; k++)
		alen += strlen(t->sw[path[k]].name) + 1;
	alen += (size_t)t->max_level + 2; /* dots of skipped levels */
	plen = 7 * ((size_t)t->max_level + 1) + 5;
	a = malloc(alen);
	p = malloc(plen);
	if (!a || !p) {
		free(a);
		free(p);
		free(path);
		return fs_errf(err, errlen, "out of memory");
	}
	a[0] = p[0] = '\0';
	for (int lv = t->max_level, k = 0; lv >= 0; lv--) {
		if (k < n && t->sw[path[k]].level == lv)
			strcat(a, t->sw[path[k++]].name);
		strcat(a, ".");
		strcat(p, "switch.");
	}
	strcat(a, node);
	strcat(p, "node");
	free(path);
	*addr = a;
	*pattern = p;
	return 0;
}

int fst_host_rank(const struct fst_model *m, const char *node)
{
	int h;

	if (!m || !node || !m->classified)
		return -1;
	h = fst_find_host(m, node);
	return h < 0 ? -1 : m->hosts[h].rank;
}

int fst_rank_nodes(const struct fst_model *m, const char *const *names, int n, uint32_t *rank)
{
	int known = 0;

	for (int i = 0; i < n; i++)
		known += fst_host_rank(m, names[i]) >= 0;
	if (!known)
		return 0;
	for (int i = 0; i < n; i++) {
		int r = fst_host_rank(m, names[i]);

		rank[i] = r >= 0 ? (uint32_t)r : (uint32_t)(m->nhosts + i);
	}
	return known;
}

/* Whether every node of the hostlist @nodes is in the hostlist @in. */
static bool _within(const char *in, const char *nodes)
{
	char **a = NULL, **b = NULL, err[FS_MSG_SIZE];
	int na = 0, nb = 0, k = 0;

	if (!in || fst_hostlist_expand(in, &a, &na, err, sizeof(err)))
		return false;
	if (!fst_hostlist_expand(nodes, &b, &nb, err, sizeof(err)))
		for (k = 0; k < nb; k++) {
			int i = 0;

			while (i < na && strcmp(a[i], b[k]))
				i++;
			if (i == na)
				break;
		}
	fst_strv_free(a, na);
	fst_strv_free(b, nb);
	return nb > 0 && k == nb;
}

char *fst_switch_lines(const struct fst_switch_line *sw, size_t n, const char *unit,
		       const char *nodes)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const struct fst_switch_line *s = &sw[i];

		if ((unit && *unit && strcmp(s->name, unit)) ||
		    (nodes && *nodes && !_within(s->nodes, nodes)))
			continue;
		fprintf(f, "SwitchName=%s Level=%u LinkSpeed=%u", s->name, s->level, s->link_speed);
		if (s->nodes)
			fprintf(f, " Nodes=%s", s->nodes);
		if (s->switches)
			fprintf(f, " Switches=%s", s->switches);
		fputc('\n', f);
	}
	if (fclose(f) || !len) {
		free(out);
		return NULL;
	}
	return out;
}
