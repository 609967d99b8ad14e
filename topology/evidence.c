/*
 * evidence.c — hosts that are not compute nodes, told by the fabric itself.
 *
 * Without a node list, names decide first (names.c); a host whose name
 * carries no mark is still not a compute node when the cabling says so:
 *   - hca-on-spine: its HCA hangs on a switch with at most two compute
 *     HCAs that links two or more switches with more compute HCAs each
 *     (leaves): a switch above leaves is a spine, whatever hangs on it;
 *   - hca-on-core: its HCA hangs on such a small switch whose neighbours
 *     have no compute HCAs but reach leaves of two or more separate groups
 *     (pods): a switch joining pods is a core switch.  A real leaf's
 *     uplinks all reach the leaves of its one pod;
 *   - single-rail-host: a host with one HCA, on a leaf whose two or more
 *     other hosts all have several HCAs (rails), and whose name is of
 *     another form than every one of theirs (digits aside: "gpu001" and
 *     "gpu017" are of one form).  A compute node with a dead rail keeps its
 *     name's form and stays a compute node.
 * Each decision is an issue (warning) naming its reason and evidence.
 * A switch found above leaves is marked in ABOVE, so that classify keeps
 * it a spine or core even with no compute HCA left on it.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define SMALL 2 /* compute HCAs a spine or core may carry */

struct ev {
	struct fst_model *m;
	const int *off, *nb;   /* switch adjacency */
	int *cnt;	       /* per switch: compute HCAs on it */
	int *sw;	       /* per HCA: the switch its first cabled port reaches */
	int *hoff, *hca;       /* per switch: its compute HCAs, hca[hoff[s]..] */
	int *stamp, *grp, *uf; /* scratch for the core test */
};

static int _find(int *uf, int x)
{
	while (uf[x] != x)
		x = uf[x] = uf[uf[x]];
	return x;
}

/* Switch neighbours of S with more compute HCAs than S, at least two. */
static int _leaves_below(const struct ev *e, int s)
{
	int k = 0;

	for (int j = e->off[s]; j < e->off[s + 1]; j++) {
		int t = e->nb[j];

		if (e->cnt[t] > e->cnt[s] && e->cnt[t] >= 2)
			k++;
	}
	return k;
}

/* Groups of leaves that S's neighbours reach without S, when no neighbour
 * carries compute HCAs itself (0 otherwise): two neighbours are in one
 * group when they share a leaf. */
static int _pods_joined(struct ev *e, int s)
{
	int base = e->off[s], k = e->off[s + 1] - base, groups = 0;

	for (int i = 0; i < k; i++) {
		if (e->cnt[e->nb[base + i]])
			return 0;
		e->uf[i] = i;
	}
	for (int i = 0; i < k; i++) {
		int t = e->nb[base + i];

		for (int j = e->off[t]; j < e->off[t + 1]; j++) {
			int u = e->nb[j];

			if (u == s || !e->cnt[u])
				continue;
			if (e->stamp[u] == s + 1)
				e->uf[_find(e->uf, i)] = _find(e->uf, e->grp[u]);
			else {
				e->stamp[u] = s + 1;
				e->grp[u] = i;
			}
		}
	}
	/* a group counts when it reaches a leaf */
	for (int i = 0; i < k; i++) {
		int t = e->nb[base + i], leaf = 0;

		if (_find(e->uf, i) != i)
			continue;
		for (int x = 0; x < k && !leaf; x++) {
			if (_find(e->uf, x) != i)
				continue;
			t = e->nb[base + x];
			for (int j = e->off[t]; j < e->off[t + 1] && !leaf; j++)
				leaf = e->nb[j] != s && e->cnt[e->nb[j]] > 0;
		}
		groups += leaf;
	}
	return groups;
}

/* The form of a host name: lower case, each run of digits one '#'. */
static void _form(const char *name, char *out, size_t n)
{
	size_t o = 0;

	for (const char *p = name; *p && o + 1 < n; p++) {
		if (isdigit((unsigned char)*p)) {
			if (!o || out[o - 1] != '#')
				out[o++] = '#';
		} else {
			out[o++] = (char)tolower((unsigned char)*p);
		}
	}
	out[o] = '\0';
}

static int _demote(struct fst_model *m, int d, const char *why, const char *detail)
{
	struct fst_device *dv = &m->devs[d];

	dv->role = FST_ROLE_NONCOMPUTE;
	dv->reason = why;
	return fst_add_issue(m, FST_ISSUE_NONCOMPUTE_HCA, FST_WARNING, d, -1, -1, -1,
			     "HCA %s \"%s\" host %s: not a compute node (%s: %s)", dv->id, dv->desc,
			     dv->name ? dv->name : "?", why, detail);
}

/* Switch S is above leaves for WHY: its compute HCAs demoted, and no
 * longer counted on it. */
static int _above(struct ev *e, int s, char *above, const char *why, const char *detail)
{
	above[s] = 1;
	for (int i = e->hoff[s]; i < e->hoff[s + 1]; i++)
		if (_demote(e->m, e->hca[i], why, detail))
			return -1;
	e->cnt[s] = 0;
	return 0;
}

/* Spines, then cores (whose spines may have carried a host), by their
 * neighbours. */
static int _above_leaves(struct ev *e, char *above)
{
	struct fst_model *m = e->m;
	char detail[256];

	for (int s = 0; s < m->ndevs; s++) {
		int k;

		if (m->devs[s].type != FST_SWITCH || !e->cnt[s] || e->cnt[s] > SMALL ||
		    (k = _leaves_below(e, s)) < 2)
			continue;
		snprintf(detail, sizeof(detail),
			 "on switch %s, which links %d switches with more compute HCAs",
			 fst_dev_label(m, s), k);
		if (_above(e, s, above, "hca-on-spine", detail))
			return -1;
	}
	for (int s = 0; s < m->ndevs; s++) {
		int pods;

		if (m->devs[s].type != FST_SWITCH || !e->cnt[s] || e->cnt[s] > SMALL ||
		    (pods = _pods_joined(e, s)) < 2)
			continue;
		snprintf(detail, sizeof(detail),
			 "on switch %s, whose %d neighbours reach leaves of %d separate groups",
			 fst_dev_label(m, s), e->off[s + 1] - e->off[s], pods);
		if (_above(e, s, above, "hca-on-core", detail))
			return -1;
	}
	return 0;
}

/* Hosts of one HCA among multi-rail hosts of another name form. */
static int _single_rail(struct ev *e)
{
	struct fst_model *m = e->m;
	struct fst_index hcas = { 0 };
	char detail[256];
	int rc = -1;

	for (int d = 0; d < m->ndevs; d++) {
		const struct fst_device *dv = &m->devs[d];
		int had;

		if (dv->type != FST_HCA || dv->role != FST_ROLE_COMPUTE)
			continue;
		had = fst_index_get(&hcas, dv->name);
		if (fst_index_put(&hcas, dv->name, had > 0 ? had + 1 : 1))
			goto out;
	}
	for (int d = 0; d < m->ndevs; d++) {
		struct fst_device *dv = &m->devs[d];
		char mine[256], theirs[256];
		int s = e->sw[d], others = 0, fewest = 0, unlike = 1;

		if (dv->type != FST_HCA || dv->role != FST_ROLE_COMPUTE || s < 0 ||
		    fst_index_get(&hcas, dv->name) != 1)
			continue;
		_form(dv->name, mine, sizeof(mine));
		for (int i = e->hoff[s]; i < e->hoff[s + 1] && unlike; i++) {
			const struct fst_device *o = &m->devs[e->hca[i]];
			int n;

			if (e->hca[i] == d || o->role != FST_ROLE_COMPUTE ||
			    !strcmp(o->name, dv->name))
				continue;
			n = fst_index_get(&hcas, o->name);
			_form(o->name, theirs, sizeof(theirs));
			unlike = n >= 2 && strcmp(mine, theirs) != 0;
			fewest = !others || n < fewest ? n : fewest;
			others++;
		}
		if (!unlike || others < 2)
			continue;
		snprintf(
			detail, sizeof(detail),
			"its only HCA is on leaf %s, whose %d other HCAs are of hosts named unlike it with %d or more HCAs each",
			fst_dev_label(m, s), others, fewest);
		if (_demote(m, d, "single-rail-host", detail))
			goto out;
	}
	rc = 0;
out:
	fst_index_clear(&hcas);
	return rc;
}

int fst_host_evidence(struct fst_model *m, const int *off, const int *nb, char *above)
{
	int n = m->ndevs, rc = -1;
	struct ev e = { .m = m, .off = off, .nb = nb };

	e.cnt = calloc((size_t)n + 1, sizeof(int));
	e.sw = malloc(sizeof(int) * ((size_t)n + 1));
	e.hoff = calloc((size_t)n + 2, sizeof(int));
	e.hca = malloc(sizeof(int) * ((size_t)n + 1));
	e.stamp = calloc((size_t)n + 1, sizeof(int));
	e.grp = calloc((size_t)n + 1, sizeof(int));
	e.uf = calloc((size_t)n + 1, sizeof(int));
	if (!e.cnt || !e.sw || !e.hoff || !e.hca || !e.stamp || !e.grp || !e.uf)
		goto out;
	/* each compute HCA counted on the switch of its first cabled port */
	for (int d = 0; d < n; d++) {
		const struct fst_device *dv = &m->devs[d];

		e.sw[d] = -1;
		if (dv->type != FST_HCA || dv->role != FST_ROLE_COMPUTE)
			continue;
		for (int p = 1; p <= dv->nports && e.sw[d] < 0; p++) {
			int r = dv->ports[p].peer;

			if (r >= 0 && m->devs[r].type == FST_SWITCH)
				e.sw[d] = r;
		}
		if (e.sw[d] >= 0)
			e.cnt[e.sw[d]]++;
	}
	/* per switch, its compute HCAs (stamp as the fill cursor, then reset) */
	for (int s = 0; s < n; s++)
		e.hoff[s + 1] = e.hoff[s] + e.cnt[s];
	for (int s = 0; s < n; s++)
		e.stamp[s] = e.hoff[s];
	for (int d = 0; d < n; d++)
		if (e.sw[d] >= 0)
			e.hca[e.stamp[e.sw[d]]++] = d;
	memset(e.stamp, 0, sizeof(int) * ((size_t)n + 1));
	if (_above_leaves(&e, above) || _single_rail(&e))
		goto out;
	rc = 0;
out:
	free(e.cnt);
	free(e.sw);
	free(e.hoff);
	free(e.hca);
	free(e.stamp);
	free(e.grp);
	free(e.uf);
	return rc;
}
