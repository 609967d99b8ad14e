/*
 * classify.c — from a parsed fabric to compute nodes, levels, planes, racks,
 * pods, ranks and degraded links.
 *
 * - A leaf is a switch with at least one compute HCA (level 0).  Levels grow
 *   outward from the leaves (breadth-first over switch-to-switch links).
 * - A switch with HCAs but no compute HCA (storage, UFM) that is not next to
 *   a compute leaf is a non-compute leaf (level 0, no nodes), never a spine.
 *   SHARP aggregation nodes do not make a switch a leaf.
 * - Planes are the connected switch fabrics (dual rail = two planes).  A
 *   node belongs to the first plane (most compute nodes first) it reaches;
 *   there, to the leaf most of its ports reach.
 * - Pods: leaves joined through common level-1 switches (or direct links).
 * - A link is degraded when its width or speed is below the most common
 *   value of its tier (host links of one switch; switch links between the
 *   same pair of levels in one plane).  Ties choose the lower value.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"
#include "topo_names.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct adj {
	int *off; /* ndevs + 1 */
	int *nb;  /* neighbour switch devices (deduplicated) */
};

static int _build_adj(const struct fst_model *m, struct adj *a)
{
	int n = m->ndevs, k = 0;

	a->off = calloc((size_t)n + 1, sizeof(int));
	a->nb = calloc((size_t)m->nlinks * 2 + 1, sizeof(int));
	if (!a->off || !a->nb)
		return -1;
	for (int d = 0; d < n; d++) {
		const struct fst_device *dv = &m->devs[d];

		a->off[d] = k;
		if (dv->type != FST_SWITCH)
			continue;
		for (int p = 1; p <= dv->nports; p++) {
			int r = dv->ports[p].peer, dup = 0;

			if (r < 0 || r == d || m->devs[r].type != FST_SWITCH)
				continue;
			for (int j = a->off[d]; j < k; j++)
				if (a->nb[j] == r) {
					dup = 1;
					break;
				}
			if (!dup)
				a->nb[k++] = r;
		}
	}
	a->off[n] = k;
	return 0;
}

static void _bfs(const struct fst_model *m, const struct adj *a, int *dist, const char *skip,
		 int *queue)
{
	int qh = 0, qt = 0;

	for (int d = 0; d < m->ndevs; d++)
		if (dist[d] == 0)
			queue[qt++] = d;
	while (qh < qt) {
		int d = queue[qh++];

		for (int j = a->off[d]; j < a->off[d + 1]; j++) {
			int r = a->nb[j];

			if (dist[r] >= 0 || (skip && skip[r]))
				continue;
			dist[r] = dist[d] + 1;
			queue[qt++] = r;
		}
	}
}

static int _uf_find(int *uf, int x)
{
	while (uf[x] != x) {
		uf[x] = uf[uf[x]];
		x = uf[x];
	}
	return x;
}

static int _add_group(struct fst_group **g, int *n, int *cap, const char *name, int parent,
		      int leaf)
{
	struct fst_group *ng = fst_grow(*g, cap, *n + 1, sizeof(**g));

	if (!ng)
		return -1;
	*g = ng;
	memset(&ng[*n], 0, sizeof(ng[*n]));
	ng[*n].name = strdup(name);
	if (!ng[*n].name)
		return -1;
	ng[*n].parent = parent;
	ng[*n].leaf = leaf;
	return (*n)++;
}

static int _add_member(struct fst_group *g, int x)
{
	int *nm = realloc(g->members, (size_t)(g->nmembers + 1) * sizeof(int));

	if (!nm)
		return -1;
	g->members = nm;
	g->members[g->nmembers++] = x;
	return 0;
}

static int _host_cmp(const void *a, const void *b, void *arg)
{
	const struct fst_model *m = arg;
	const struct fst_host *x = &m->hosts[*(const int *)a];
	const struct fst_host *y = &m->hosts[*(const int *)b];

	if (x->plane != y->plane)
		return (unsigned)x->plane < (unsigned)y->plane ? -1 : 1;
	if (x->pod != y->pod)
		return (unsigned)x->pod < (unsigned)y->pod ? -1 : 1;
	if (x->rack != y->rack)
		return (unsigned)x->rack < (unsigned)y->rack ? -1 : 1;
	return fst_str_cmp_natural(x->name, y->name);
}

/* ------------------------------------------------------------ names */
static int _name_switches(struct fst_model *m, const struct fst_names *nm)
{
	struct fst_index count = { 0 };
	char buf[256];

	for (int d = 0; d < m->ndevs; d++) {
		struct fst_device *dv = &m->devs[d];
		const char *mapped;

		if (dv->type == FST_HCA)
			continue;
		mapped = fst_names_mapped(nm, dv->guid);
		buf[0] = '\0';
		if (mapped) {
			fst_names_switch(mapped, buf, sizeof(buf));
			if (!buf[0] && fst_host_name_ok(mapped))
				snprintf(buf, sizeof(buf), "%s", mapped);
		} else {
			fst_names_switch(dv->desc, buf, sizeof(buf));
		}
		if (!buf[0] || !fst_host_name_ok(buf))
			snprintf(buf, sizeof(buf), "%s", dv->id);
		if (fst_set_str(&dv->name, buf))
			goto oom;
		int c = fst_index_get(&count, buf);
		if (fst_index_put(&count, buf, c < 0 ? 1 : c + 1))
			goto oom;
	}
	for (int d = 0; d < m->ndevs; d++) {
		struct fst_device *dv = &m->devs[d];

		if (dv->type == FST_HCA)
			continue;
		if (fst_index_get(&count, dv->name) > 1 && strcmp(dv->name, dv->id)) {
			if (fst_add_issue(
				    m, FST_ISSUE_NAME, FST_WARNING, d, -1, -1, -1,
				    "switch %s: name \"%s\" from its description is not unique, using %s",
				    dv->id, dv->name, dv->id) ||
			    fst_set_str(&dv->name, dv->id))
				goto oom;
		}
		if (fst_index_put(&m->priv->names, dv->name, d))
			goto oom;
	}
	fst_index_clear(&count);
	return 0;
oom:
	fst_index_clear(&count);
	return -1;
}

/* Each HCA's host name, or why it is not a compute node (with its issue). */
static int _name_hcas(struct fst_model *m, const struct fst_names *nm, const struct fst_opts *o)
{
	char name[256];

	for (int d = 0; d < m->ndevs; d++) {
		struct fst_device *dv = &m->devs[d];
		const char *why;

		if (dv->type != FST_HCA)
			continue;
		why = fst_names_host(nm, o, dv, name, sizeof(name));
		if (why) {
			dv->role = FST_ROLE_NONCOMPUTE;
			dv->reason = why;
			int benign = !strcmp(why, "sharp-aggregation-node") ||
				     !strcmp(why, "excluded") || !strcmp(why, "not-in-nodelist") ||
				     !strcmp(why, "fabric-manager-host") ||
				     !strcmp(why, "storage-host");
			if (fst_add_issue(m, FST_ISSUE_NONCOMPUTE_HCA,
					  benign ? FST_INFO : FST_WARNING, d, -1, -1, -1,
					  "HCA %s \"%s\"%s%s: not a compute node (%s)", dv->id,
					  dv->desc, name[0] ? " host " : "", name, why))
				return -1;
			if (name[0] && fst_set_str(&dv->name, name))
				return -1;
			continue;
		}
		if (fst_set_str(&dv->name, name))
			return -1;
		dv->role = FST_ROLE_COMPUTE;
	}
	return 0;
}

/* The compute nodes: one per host name of the compute HCAs, and the node
 * list's hosts that the fabric lacks. */
static int _make_hosts(struct fst_model *m, const struct fst_names *nm)
{
	int cap_hosts = 0;

	for (int d = 0; d < m->ndevs; d++) {
		struct fst_device *dv = &m->devs[d];
		const char *name = dv->name;
		int h;

		if (dv->type != FST_HCA || dv->role != FST_ROLE_COMPUTE)
			continue;
		h = fst_index_get(&m->priv->hostix, name);
		if (h < 0) {
			struct fst_host *nh =
				fst_grow(m->hosts, &cap_hosts, m->nhosts + 1, sizeof(*m->hosts));

			if (!nh)
				return -1;
			m->hosts = nh;
			h = m->nhosts;
			memset(&nh[h], 0, sizeof(nh[h]));
			nh[h].name = strdup(name);
			nh[h].leaf = nh[h].plane = nh[h].rack = nh[h].pod = -1;
			if (!nh[h].name || fst_index_put(&m->priv->hostix, name, h))
				return -1;
			m->nhosts++;
		}
		{
			struct fst_host *ho = &m->hosts[h];
			int *nh = realloc(ho->hcas, (size_t)(ho->nhcas + 1) * sizeof(int));

			if (!nh)
				return -1;
			ho->hcas = nh;
			ho->hcas[ho->nhcas++] = d;
		}
		dv->host = h;
	}
	if (nm->have_nodelist) {
		char **miss = calloc((size_t)nm->nodelist_n + 1, sizeof(char *));
		int nmiss = 0;

		if (!miss)
			return -1;
		for (int i = 0; i < nm->nodelist_n; i++)
			if (fst_index_get(&m->priv->hostix, nm->nodelist_v[i]) < 0)
				miss[nmiss++] = nm->nodelist_v[i];
		if (nmiss) {
			char *hl = fst_hostlist_compress(miss, nmiss);
			int rc = fst_add_issue(
				m, FST_ISSUE_MISSING_NODE, FST_WARNING, -1, -1, -1, -1,
				"%d node(s) of the node list not found in the fabric: %s", nmiss,
				hl ? hl : "?");

			free(hl);
			if (rc) {
				free(miss);
				return -1;
			}
		}
		free(miss);
	}
	return 0;
}

/* ------------------------------------------------------------ degraded links */
struct tierlink {
	long key;
	int link;
};

static int _tl_cmp(const void *a, const void *b)
{
	const struct tierlink *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->link - y->link;
}

static int _mode(const int *count, int n)
{
	int best = -1;

	for (int i = 0; i < n; i++)
		if (count[i] > 0 && (best < 0 || count[i] > count[best]))
			best = i; /* strictly more: ties keep the lower value */
	return best;
}

/* Flag each link of a tier (see the top of this file) whose width or speed
 * is below its tier's most common one.  A tier of split ports (2x links on
 * NDR switches in split mode) runs at 2x: its 2x links are not degraded, a
 * 1x link among them is. */
static int _degraded(struct fst_model *m)
{
	struct tierlink *tl = calloc((size_t)m->nlinks + 1, sizeof(*tl));
	int n = 0;

	if (!tl)
		return -1;
	for (int i = 0; i < m->nlinks; i++) {
		struct fst_link *l = &m->links[i];
		const struct fst_device *a = &m->devs[l->a], *b = &m->devs[l->b];

		if (l->self_loop || l->width <= 0 || l->speed == FST_SPEED_UNKNOWN)
			continue;
		if (a->type == FST_SWITCH && b->type == FST_SWITCH) {
			int lo = a->level < b->level ? a->level : b->level;
			int hi = a->level < b->level ? b->level : a->level;

			l->tier = lo;
			tl[n].key = (long)m->ndevs + 1 +
				    (((long)(a->plane + 1) * 64 + (lo + 1)) * 64 + hi + 1);
		} else {
			int sw = a->type == FST_SWITCH ? l->a : l->b;

			l->tier = -1;
			tl[n].key = sw; /* host links of one switch */
		}
		tl[n++].link = i;
	}
	qsort(tl, (size_t)n, sizeof(*tl), _tl_cmp);
	for (int i = 0; i < n;) {
		int j = i, wc[13] = { 0 }, sc[FST_SPEED_COUNT] = { 0 }, mw, ms;
		char w1[32], w2[32];

		while (j < n && tl[j].key == tl[i].key) {
			wc[m->links[tl[j].link].width]++;
			sc[m->links[tl[j].link].speed]++;
			j++;
		}
		mw = _mode(wc, 13);
		ms = _mode(sc, FST_SPEED_COUNT);
		for (int k = i; k < j; k++) {
			struct fst_link *l = &m->links[tl[k].link];
			char pa[320], pb[320];

			if (l->width >= mw && (int)l->speed >= ms)
				continue;
			l->degraded = 1;
			if (fst_add_issue(
				    m, FST_ISSUE_DEGRADED_LINK, FST_PROBLEM, l->a, l->a_port, l->b,
				    l->b_port, "degraded link %s <-> %s: %s, its tier (%s) runs %s",
				    fst_port_text(m, l->a, l->a_port, pa, sizeof(pa)),
				    fst_port_text(m, l->b, l->b_port, pb, sizeof(pb)),
				    fst_widthspeed(l->width, l->speed, w1, sizeof(w1)),
				    l->tier < 0 ? "host links of this switch" : "switch links",
				    fst_widthspeed(mw, (enum fst_speed)ms, w2, sizeof(w2)))) {
				free(tl);
				return -1;
			}
		}
		i = j;
	}
	free(tl);
	return 0;
}

/* Uplink cables per switch against the most common count of its level and
 * plane: fewer means a cable is missing or down. */
static int _missing_uplinks(struct fst_model *m)
{
	int *up = calloc((size_t)m->ndevs + 1, sizeof(int));

	if (!up)
		return -1;
	for (int d = 0; d < m->ndevs; d++) {
		const struct fst_device *dv = &m->devs[d];

		if (dv->role != FST_ROLE_LEAF && dv->role != FST_ROLE_SPINE)
			continue;
		for (int p = 1; p <= dv->nports; p++) {
			int r = dv->ports[p].peer;

			if (r >= 0 && r != d && m->devs[r].type == FST_SWITCH &&
			    m->devs[r].level == dv->level + 1)
				up[d]++;
		}
	}
	for (int pl = 0; pl < m->nplanes; pl++)
		for (int lv = 0; lv < m->max_level; lv++) {
			int cnt[256] = { 0 }, ref = -1;

			for (int d = 0; d < m->ndevs; d++)
				if (m->devs[d].plane == pl && m->devs[d].level == lv && up[d] &&
				    (m->devs[d].role == FST_ROLE_LEAF ||
				     m->devs[d].role == FST_ROLE_SPINE))
					cnt[up[d] > 255 ? 255 : up[d]]++;
			for (int i = 255; i > 0; i--)
				if (cnt[i] && (ref < 0 || cnt[i] > cnt[ref]))
					ref = i;
			if (ref < 0)
				continue;
			for (int d = 0; d < m->ndevs; d++)
				if (m->devs[d].plane == pl && m->devs[d].level == lv && up[d] &&
				    up[d] < ref &&
				    (m->devs[d].role == FST_ROLE_LEAF ||
				     m->devs[d].role == FST_ROLE_SPINE) &&
				    fst_add_issue(
					    m, FST_ISSUE_MISSING_LINK, FST_WARNING, d, -1, -1, -1,
					    "switch %s has %d uplink(s), most level-%d switches of plane%d have %d: cable missing or down?",
					    m->devs[d].name, up[d], lv, pl, ref)) {
					free(up);
					return -1;
				}
		}
	free(up);
	return 0;
}

/* ------------------------------------------------------------ main */
/* A fabric without a switch (one HCA, or HCAs cabled back to back): Slurm
 * 25.11 and later refuse to start on a topology without a switch or block.
 * RET -1 out of memory. */
static int _no_switch(struct fst_model *m)
{
	int nsw = 0;

	for (int d = 0; d < m->ndevs; d++)
		nsw += m->devs[d].type == FST_SWITCH;
	if (nsw)
		return 0;
	return fst_add_issue(
		       m, FST_ISSUE_NO_SWITCH, FST_PROBLEM, -1, -1, -1, -1,
		       "no switch in the fabric (%d HCA(s), %d host(s)): nothing to export as a topology; Slurm 25.11 and later refuse to start without a switch (topology/tree) or a block (topology/block)",
		       m->ndevs, m->nhosts)
		       ? -1
		       : 0;
}

/* Whether HCA @dv is the device @name: the second word of its description
 * ("n001 mlx5_0"), or its whole description. */
static bool _is_hca(const struct fst_device *dv, const char *name)
{
	const char *sp = dv->desc ? strchr(dv->desc, ' ') : NULL;
	size_t n = strlen(name);

	if (!dv->desc)
		return false;
	if (sp)
		return !strncmp(sp + 1, name, n) && (!sp[1 + n] || sp[1 + n] == ' ');
	return !strcmp(dv->desc, name);
}

/* What the phases of fst_classify share: the model, its switch
 * adjacency, and scratch arrays of ndevs + 1 entries. */
struct cls {
	struct fst_model *m;
	const struct fst_opts *opts;
	const struct fst_names *nm;
	struct adj a;
	int *dist, *queue, *comp, *uf, *tmp;
	char *skip, *above;
};

/* Levels and roles of the switches: leaves (compute HCAs), non-compute
 * leaves (host HCAs, no compute HCA, not next to a compute leaf, not
 * found above leaves by the evidence), spines by distance from the leaves,
 * isolated switches.  Sets each switch's nhosts. */
static void _levels(struct cls *c)
{
	struct fst_model *m = c->m;
	int n = m->ndevs, *dist = c->dist, *hosthcas = c->tmp;

	for (int d = 0; d < n; d++) {
		struct fst_device *dv = &m->devs[d];

		dist[d] = -1;
		hosthcas[d] = 0;
		if (dv->type != FST_SWITCH)
			continue;
		for (int p = 1; p <= dv->nports; p++) {
			int r = dv->ports[p].peer;

			if (r < 0 || m->devs[r].type != FST_HCA)
				continue;
			if (m->devs[r].role == FST_ROLE_COMPUTE)
				dv->nhosts++;
			else if (!fst_is_aggregation_node(m->devs[r].desc))
				hosthcas[d]++;
		}
		if (dv->nhosts)
			dist[d] = 0;
	}
	_bfs(m, &c->a, dist, NULL, c->queue);
	for (int d = 0; d < n; d++)
		c->skip[d] = m->devs[d].type == FST_SWITCH && !m->devs[d].nhosts && hosthcas[d] &&
			     dist[d] != 1 && !c->above[d];
	for (int d = 0; d < n; d++)
		dist[d] = (m->devs[d].type == FST_SWITCH && m->devs[d].nhosts) ? 0 : -1;
	_bfs(m, &c->a, dist, c->skip, c->queue);
	m->max_level = 0;
	for (int d = 0; d < n; d++) {
		struct fst_device *dv = &m->devs[d];

		if (dv->type != FST_SWITCH)
			continue;
		if (c->skip[d]) {
			dv->role = FST_ROLE_HOST_LEAF;
			dv->level = 0;
		} else if (dist[d] == 0) {
			dv->role = FST_ROLE_LEAF;
			dv->level = 0;
		} else if (dist[d] > 0) {
			dv->role = FST_ROLE_SPINE;
			dv->level = dist[d];
			if (dist[d] > m->max_level)
				m->max_level = dist[d];
		} else {
			dv->role = FST_ROLE_ISOLATED;
			dv->level = -1;
		}
	}
}

/* Planes: the connected switch fabrics, most compute ports first (then
 * discovery order), named plane0..; each device's plane (an HCA: that of
 * its first switch). */
static int _planes(struct cls *c)
{
	struct fst_model *m = c->m;
	int n = m->ndevs, *comp = c->comp, *queue = c->queue, nplanes = 0, cap = 0, rc = -1;
	int *compute = NULL, *order = NULL, *rank = NULL;
	char buf[32];

	for (int d = 0; d < n; d++)
		comp[d] = -1;
	for (int d = 0; d < n; d++) {
		int qh = 0, qt = 0, *npc;

		if (m->devs[d].type != FST_SWITCH || comp[d] >= 0)
			continue;
		npc = realloc(compute, sizeof(int) * (size_t)(nplanes + 1));
		if (!npc)
			goto out;
		compute = npc;
		compute[nplanes] = 0;
		comp[d] = nplanes;
		queue[qt++] = d;
		while (qh < qt) {
			int x = queue[qh++];

			compute[nplanes] += m->devs[x].nhosts;
			for (int j = c->a.off[x]; j < c->a.off[x + 1]; j++)
				if (comp[c->a.nb[j]] < 0) {
					comp[c->a.nb[j]] = nplanes;
					queue[qt++] = c->a.nb[j];
				}
		}
		nplanes++;
	}
	order = calloc((size_t)nplanes + 1, sizeof(int));
	rank = calloc((size_t)nplanes + 1, sizeof(int));
	if (!order || !rank)
		goto out;
	for (int i = 0; i < nplanes; i++)
		order[i] = i;
	for (int i = 1; i < nplanes; i++) /* stable insertion sort */
		for (int j = i; j > 0 && compute[order[j]] > compute[order[j - 1]]; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int i = 0; i < nplanes; i++)
		rank[order[i]] = i;
	for (int i = 0; i < nplanes; i++) {
		snprintf(buf, sizeof(buf), "plane%d", i);
		if (_add_group(&m->planes, &m->nplanes, &cap, buf, -1, -1) < 0)
			goto out;
		if (!compute[order[i]] && fst_add_issue(m, FST_ISSUE_NO_NODES, FST_INFO, -1, -1, -1,
							-1, "plane%d has no compute nodes", i))
			goto out;
	}
	for (int d = 0; d < n; d++)
		if (comp[d] >= 0)
			m->devs[d].plane = rank[comp[d]];
	for (int d = 0; d < n; d++) {
		struct fst_device *dv = &m->devs[d];

		if (dv->type == FST_SWITCH)
			continue;
		for (int p = 1; p <= dv->nports; p++) {
			int r = dv->ports[p].peer;

			if (r >= 0 && m->devs[r].type == FST_SWITCH) {
				dv->plane = m->devs[r].plane;
				break;
			}
		}
	}
	rc = 0;
out:
	free(compute);
	free(order);
	free(rank);
	return rc;
}

/* The HCA's own name: the word after the host in its description
 * ("mlx5_0" of "n001 mlx5_0"), else the description, else its id. */
static const char *_hca_word(const struct fst_device *dv)
{
	const char *sp = dv->desc ? strchr(dv->desc, ' ') : NULL;

	return sp ? sp + 1 : dv->desc && *dv->desc ? dv->desc : dv->id;
}

/* Host @ho's primary plane (the first its HCAs' leaves are in; with a
 * compute HCA given and held (@only), that HCA's) and there the leaf most
 * of its ports reach (the compute HCA's first, when @only).  Ties go to
 * the leaf of the HCA first by name (mlx5_0 before mlx5_1: on a
 * rail-optimized fabric, rail 0 makes racks), never to the order of the
 * input, so that a rediscovery names the same racks.  Uses c->tmp, all 0
 * on entry and on return, as a per-leaf counter. */
static void _host_leaf(struct cls *c, struct fst_host *ho, bool only)
{
	struct fst_model *m = c->m;
	int best_plane = -1, best = -1, bestc = 0, nl = 0, *cnt = c->tmp;
	int ord[64], n = ho->nhcas < 64 ? ho->nhcas : 64;

	for (int i = 0; i < ho->nhcas; i++) {
		const struct fst_device *dv = &m->devs[ho->hcas[i]];

		if (only && !_is_hca(dv, c->opts->compute_hca))
			continue;
		for (int p = 1; p <= dv->nports; p++) {
			int r = dv->ports[p].peer;

			if (r >= 0 && m->devs[r].role == FST_ROLE_LEAF &&
			    (best_plane < 0 || m->devs[r].plane < best_plane))
				best_plane = m->devs[r].plane;
		}
	}
	if (best_plane < 0)
		return;
	/* the HCAs in name order (insertion sort: a host has a few) */
	for (int i = 0; i < n; i++) {
		int j = i;

		for (; j > 0 && fst_str_cmp_natural(_hca_word(&m->devs[ho->hcas[i]]),
						    _hca_word(&m->devs[ord[j - 1]])) < 0;
		     j--)
			ord[j] = ord[j - 1];
		ord[j] = ho->hcas[i];
	}
	for (int i = 0; i < n; i++) {
		const struct fst_device *dv = &m->devs[ord[i]];
		/* the compute HCA's ports outweigh all others */
		int w = only && _is_hca(dv, c->opts->compute_hca) ? 1 << 16 : 1;

		for (int p = 1; p <= dv->nports; p++) {
			int r = dv->ports[p].peer;

			if (r >= 0 && m->devs[r].role == FST_ROLE_LEAF &&
			    m->devs[r].plane == best_plane)
				cnt[r] += w;
		}
	}
	for (int i = 0; i < n; i++) {
		const struct fst_device *dv = &m->devs[ord[i]];

		for (int p = 1; p <= dv->nports; p++) {
			int r = dv->ports[p].peer;

			if (r < 0 || !cnt[r])
				continue;
			nl++;
			if (cnt[r] > bestc) {
				bestc = cnt[r];
				best = r;
			}
			cnt[r] = 0;
		}
	}
	ho->plane = best_plane;
	ho->leaf = best;
	ho->nleaves = nl;
}

/* Every host's primary plane and leaf (with a compute HCA named: the
 * plane of that HCA, so that a storage or management rail never makes
 * racks), with the issues of hosts on several leaves or without that HCA. */
static int _host_leaves(struct cls *c)
{
	struct fst_model *m = c->m;
	const char *chca =
		c->opts->compute_hca && *c->opts->compute_hca ? c->opts->compute_hca : NULL;
	int by_hca = 0;

	for (int d = 0; d < m->ndevs; d++)
		c->tmp[d] = 0;
	for (int h = 0; h < m->nhosts; h++) {
		struct fst_host *ho = &m->hosts[h];
		bool only = false;

		for (int i = 0; chca && i < ho->nhcas && !only; i++)
			only = _is_hca(&m->devs[ho->hcas[i]], chca);
		by_hca += only;
		if (chca && !only &&
		    fst_add_issue(
			    m, FST_ISSUE_COMPUTE_HCA, FST_WARNING, ho->hcas[0], -1, -1, -1,
			    "node %s has no HCA %s (FabricComputeHca): placed by its other HCAs",
			    ho->name, chca))
			return -1;
		_host_leaf(c, ho, only);
		if (ho->nleaves > 1 &&
		    fst_add_issue(m, FST_ISSUE_MULTI_LEAF, FST_INFO, ho->leaf, -1, -1, -1,
				  "node %s reaches %d leaves of plane%d; placed under %s", ho->name,
				  ho->nleaves, ho->plane, m->devs[ho->leaf].name))
			return -1;
	}
	if (chca &&
	    fst_add_issue(
		    m, FST_ISSUE_COMPUTE_HCA, FST_INFO, -1, -1, -1, -1,
		    "FabricComputeHca=%s: %d of %d nodes have their leaf and rack in that HCA's plane",
		    chca, by_hca, m->nhosts))
		return -1;
	return 0;
}

/* Pods: leaves joined through level-1 switches and direct links, named
 * pod0.. plane by plane. */
static int _pods(struct cls *c)
{
	struct fst_model *m = c->m;
	int n = m->ndevs, *uf = c->uf, *pod = c->comp, cap = 0;
	char buf[32];

	for (int d = 0; d < n; d++)
		uf[d] = d;
	for (int d = 0; d < n; d++) {
		const struct fst_device *dv = &m->devs[d];
		int first = -1;

		if (dv->role == FST_ROLE_LEAF) {
			for (int j = c->a.off[d]; j < c->a.off[d + 1]; j++)
				if (m->devs[c->a.nb[j]].role == FST_ROLE_LEAF)
					uf[_uf_find(uf, c->a.nb[j])] = _uf_find(uf, d);
			continue;
		}
		if (dv->role != FST_ROLE_SPINE || dv->level != 1)
			continue;
		for (int j = c->a.off[d]; j < c->a.off[d + 1]; j++) {
			int r = c->a.nb[j];

			if (m->devs[r].role != FST_ROLE_LEAF)
				continue;
			if (first < 0)
				first = r;
			else
				uf[_uf_find(uf, r)] = _uf_find(uf, first);
		}
	}
	for (int d = 0; d < n; d++)
		pod[d] = -1;
	for (int pl = 0; pl < m->nplanes; pl++)
		for (int d = 0; d < n; d++) {
			struct fst_device *dv = &m->devs[d];
			int root;

			if (dv->role != FST_ROLE_LEAF || dv->plane != pl)
				continue;
			root = _uf_find(uf, d);
			if (pod[root] < 0) {
				snprintf(buf, sizeof(buf), "pod%d", m->npods);
				pod[root] = _add_group(&m->pods, &m->npods, &cap, buf, pl, -1);
				if (pod[root] < 0 || _add_member(&m->planes[pl], pod[root]))
					return -1;
			}
			dv->pod = pod[root];
		}
	return 0;
}

/* Racks: the rack map's first, else each host's leaf; each in its leaf's
 * pod. */
static int _racks(struct cls *c)
{
	struct fst_model *m = c->m;
	const struct fst_names *nm = c->nm;
	int *leafrack = c->tmp, *maprack = NULL, cap = 0, rc = -1;

	for (int d = 0; d < m->ndevs; d++)
		leafrack[d] = -1;
	if (nm->nracknames) {
		maprack = malloc(sizeof(int) * (size_t)nm->nracknames);
		if (!maprack)
			return -1;
		for (int i = 0; i < nm->nracknames; i++)
			maprack[i] = -1;
	}
	for (int h = 0; h < m->nhosts; h++) {
		struct fst_host *ho = &m->hosts[h];
		int rk = nm->nracknames ? fst_index_get(&nm->rackof, ho->name) : -1;
		int pod = ho->leaf >= 0 ? m->devs[ho->leaf].pod : -1;
		int *slot;

		if (rk >= 0)
			slot = &maprack[rk];
		else if (ho->leaf >= 0)
			slot = &leafrack[ho->leaf];
		else
			continue;
		if (*slot < 0) {
			*slot = _add_group(&m->racks, &m->nracks, &cap,
					   rk >= 0 ? nm->racknames[rk] : m->devs[ho->leaf].name,
					   pod, rk >= 0 ? -1 : ho->leaf);
			if (*slot < 0 || (pod >= 0 && _add_member(&m->pods[pod], *slot)))
				goto out;
			if (rk < 0)
				m->devs[ho->leaf].rack = *slot;
		}
		ho->rack = *slot;
		ho->pod = pod;
		if (_add_member(&m->racks[*slot], h))
			goto out;
	}
	rc = 0;
out:
	free(maprack);
	return rc;
}

/* Ranks: the hosts in locality order (plane, pod, rack, name). */
static int _ranks(struct fst_model *m)
{
	int *ord = malloc(sizeof(int) * (size_t)(m->nhosts + 1));

	if (!ord)
		return -1;
	for (int h = 0; h < m->nhosts; h++)
		ord[h] = h;
	qsort_r(ord, (size_t)m->nhosts, sizeof(int), _host_cmp, m);
	for (int i = 0; i < m->nhosts; i++)
		m->hosts[ord[i]].rank = i;
	free(ord);
	return 0;
}

int fst_classify(struct fst_model *m, const struct fst_opts *opts, char *err, size_t errlen)
{
	static const struct fst_opts none = { 0 };
	struct fst_names nm = { 0 };
	struct cls c = { .m = m, .opts = opts ? opts : &none, .nm = &nm };
	size_t n = (size_t)m->ndevs + 1;
	int rc = -1;

	if (m->classified)
		return fs_errf(err, errlen, "model already classified");
	if (fst_names_setup(&nm, c.opts, err, errlen))
		goto out;
	c.dist = malloc(sizeof(int) * n);
	c.queue = malloc(sizeof(int) * n);
	c.comp = malloc(sizeof(int) * n);
	c.uf = malloc(sizeof(int) * n);
	c.tmp = calloc(n, sizeof(int));
	c.skip = calloc(n, 1);
	c.above = calloc(n, 1);
	if (!c.dist || !c.queue || !c.comp || !c.uf || !c.tmp || !c.skip || !c.above)
		goto oom;
	if (_name_switches(m, &nm) || _name_hcas(m, &nm, c.opts) || _build_adj(m, &c.a))
		goto oom;
	/* without a node list, the fabric's own evidence as well as names */
	if (!nm.have_nodelist && !nm.have_ex && !c.opts->all_hosts &&
	    fst_host_evidence(m, c.a.off, c.a.nb, c.above))
		goto oom;
	if (_make_hosts(m, &nm))
		goto oom;
	_levels(&c);
	if (_planes(&c) || _host_leaves(&c) || _pods(&c) || _racks(&c) || _ranks(m) ||
	    _degraded(m) || _missing_uplinks(m) || _no_switch(m))
		goto oom;
	m->classified = 1;
	rc = 0;
	goto out;
oom:
	fs_errf(err, errlen, "out of memory");
out:
	free(c.a.off);
	free(c.a.nb);
	free(c.dist);
	free(c.queue);
	free(c.comp);
	free(c.uf);
	free(c.tmp);
	free(c.skip);
	free(c.above);
	fst_names_free(&nm);
	return rc;
}
