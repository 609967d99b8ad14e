/*
 * hops.c - how far apart two switches of a fabric model are: the fewest
 * switch-to-switch links between them (breadth-first over the model's
 * links), what `fabsched job` reports between the leaves of a job's nodes.
 */
#include "fabsched_config.h"
#include "topo_private.h"

#include <stdlib.h>

int fst_switch_hops(const struct fst_model *m, int a, int b)
{
	int *dist, *queue, head = 0, tail = 0, hops = -1;

	if (a < 0 || b < 0 || a >= m->ndevs || b >= m->ndevs || m->devs[a].type != FST_SWITCH ||
	    m->devs[b].type != FST_SWITCH)
		return -1;
	if (a == b)
		return 0;
	dist = malloc(sizeof(*dist) * (size_t)m->ndevs);
	queue = malloc(sizeof(*queue) * (size_t)m->ndevs);
	if (!dist || !queue) {
		free(dist);
		free(queue);
		return -1;
	}
	for (int d = 0; d < m->ndevs; d++)
		dist[d] = -1;
	dist[a] = 0;
	queue[tail++] = a;
	while (head < tail && hops < 0) {
		int d = queue[head++];

		for (int p = 1; p <= m->devs[d].nports; p++) {
			int e = m->devs[d].ports[p].peer;

			if (e < 0 || m->devs[e].type != FST_SWITCH || dist[e] >= 0)
				continue;
			dist[e] = dist[d] + 1;
			if (e == b) {
				hops = dist[e];
				break;
			}
			queue[tail++] = e;
		}
	}
	free(dist);
	free(queue);
	return hops;
}
