/*
 * switch_graph.c - what Slurm's switch table needs of a switch tree beyond
 * its records: every switch's descendant switches and the hop distances
 * between switches (links up and down).  See fabsched_topo.h
 * (struct fst_switch_graph).
 */
#include <stdint.h>
#include <stdlib.h>

#include "fabsched_topo.h"

void fst_switch_graph_free(struct fst_switch_graph *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->n; i++) {
		if (g->desc)
			free(g->desc[i]);
		if (g->dist)
			free(g->dist[i]);
	}
	free(g->desc);
	free(g->ndesc);
	free(g->dist);
	free(g);
}

/* Descendants of switch i, unique, depth first from its last child. */
static int _descendants(const struct fst_slurm_tree *t, int i, int *stamp, int mark, int *stack,
			struct fst_switch_graph *g)
{
	const struct fst_slurm_switch *s = &t->sw[i];
	int sp = 0;

	if (!(g->desc[i] = calloc(t->nsw + 1, sizeof(int))))
		return -1;
	for (int k = 0; k < s->nchildren; k++)
		stack[sp++] = s->children[k];
	while (sp) {
		int x = stack[--sp];

		if (stamp[x] == mark)
			continue;
		stamp[x] = mark;
		g->desc[i][g->ndesc[i]++] = x;
		for (int k = 0; k < t->sw[x].nchildren; k++)
			if (sp < t->nsw)
				stack[sp++] = t->sw[x].children[k];
	}
	return 0;
}

/* Hops from switch i to every switch, breadth first over the links
 * (first/list: each switch's neighbours, children and parents). */
static int _distances(int n, int i, const int *first, const int *list, int *queue,
		      struct fst_switch_graph *g)
{
	uint32_t *dist = malloc((n + 1) * sizeof(uint32_t));
	int head = 0, tail = 0;

	if (!dist)
		return -1;
	for (int j = 0; j < n; j++)
		dist[j] = FST_HOPS_NONE;
	dist[i] = 0;
	queue[tail++] = i;
	while (head < tail) {
		int x = queue[head++];

		for (int k = first[x]; k < first[x + 1]; k++) {
			int y = list[k];

			if (dist[y] == FST_HOPS_NONE) {
				dist[y] = dist[x] + 1;
				queue[tail++] = y;
			}
		}
	}
	g->dist[i] = dist;
	return 0;
}

int fst_switch_graph_build(const struct fst_slurm_tree *t, struct fst_switch_graph **out)
{
	struct fst_switch_graph *g;
	int n, *first = NULL, *list = NULL, *fill = NULL, *stamp = NULL;
	int *stack = NULL, rc = -1;

	if (!t || !out)
		return -1;
	*out = NULL;
	n = t->nsw;
	if (!(g = calloc(1, sizeof(*g))))
		return -1;
	g->n = n;
	g->desc = calloc(n + 1, sizeof(int *));
	g->ndesc = calloc(n + 1, sizeof(int));
	g->dist = calloc(n + 1, sizeof(uint32_t *));
	first = calloc(n + 2, sizeof(int));
	fill = calloc(n + 1, sizeof(int));
	stamp = calloc(n + 1, sizeof(int));
	stack = calloc(n + 1, sizeof(int));
	if (!g->desc || !g->ndesc || !g->dist || !first || !fill || !stamp || !stack)
		goto out;
	/* neighbours of each switch: its children and all its parents */
	for (int i = 0; i < n; i++)
		for (int k = 0; k < t->sw[i].nchildren; k++) {
			first[i + 1]++;
			first[t->sw[i].children[k] + 1]++;
		}
	for (int i = 0; i < n; i++)
		first[i + 1] += first[i];
	if (!(list = calloc(first[n] + 1, sizeof(int))))
		goto out;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < t->sw[i].nchildren; k++) {
			int c = t->sw[i].children[k];

			list[first[i] + fill[i]++] = c;
			list[first[c] + fill[c]++] = i;
		}
	for (int i = 0; i < n; i++)
		if (_descendants(t, i, stamp, i + 1, stack, g) ||
		    _distances(n, i, first, list, stack, g))
			goto out;
	rc = 0;
out:
	free(first);
	free(list);
	free(fill);
	free(stamp);
	free(stack);
	if (rc)
		fst_switch_graph_free(g);
	else
		*out = g;
	return rc;
}
