/*
 * shape.c - how many of a job's tasks a node can take, from what one task
 * needs (CPUs, memory, GRES) and what the node has free, and which nodes
 * its --constraint allows.  See fabsched_select.h (struct fse_shape).
 */
#include <stdint.h>

#include "fabsched_select.h"

static uint64_t _min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint32_t fse_node_tasks(const struct fse_shape *s, const struct fse_node_res *r)
{
	uint64_t t, cpt, want;

	if (!s || !r)
		return 0;
	want = s->ntasks ? s->ntasks : 1;
	if (s->whole_node && r->busy)
		return 0;
	cpt = s->cpus_per_task ? s->cpus_per_task : 1;
	if (!r->cpus)
		return 0;
	/* --overcommit: one CPU per node runs any number of tasks */
	t = s->overcommit ? want : r->cpus / cpt;
	if (s->tasks_per_node)
		t = _min(t, s->tasks_per_node);
	if (r->mem != UINT64_MAX) {
		if (s->mem_per_node && r->mem < s->mem_per_node)
			return 0;
		if (s->mem_per_cpu)
			t = _min(t, r->mem / (s->mem_per_cpu * cpt));
	}
	for (int g = 0; g < s->ngres && g < FSE_SHAPE_GRES; g++) {
		if (s->gres[g].per_node && r->gres[g] < s->gres[g].per_node)
			return 0;
		if (s->gres[g].per_task)
			t = _min(t, r->gres[g] / s->gres[g].per_task);
	}
	return (uint32_t)_min(t, want);
}

uint32_t fse_spread_nodes(uint32_t ntasks, uint32_t min_nodes, uint32_t max_nodes,
			  const uint32_t *tasks_now, const uint8_t *cand, int nnodes)
{
	uint64_t usable = 0, want;

	if (!ntasks || !tasks_now)
		return min_nodes;
	for (int i = 0; i < nnodes; i++)
		usable += (!cand || cand[i]) && tasks_now[i];
	want = _min(ntasks, max_nodes ? max_nodes : ntasks);
	want = _min(want, usable);
	return want > min_nodes ? (uint32_t)want : min_nodes;
}

uint64_t fse_gres_units(uint64_t avail, uint64_t alloc, uint32_t want, const uint32_t *type_id,
			const uint64_t *type_avail, const uint64_t *type_alloc, int ntypes,
			bool now)
{
	if (want) {
		avail = alloc = 0;
		for (int k = 0; k < ntypes; k++)
			if (type_id[k] == want) {
				avail = type_avail[k];
				alloc = type_alloc[k];
			}
	}
	return now ? (avail > alloc ? avail - alloc : 0) : avail;
}

uint64_t fse_node_mem(bool counted, uint64_t real, uint64_t spec)
{
	if (!counted)
		return UINT64_MAX;
	return real > spec ? real - spec : 0;
}

int fse_feature_folds(const struct fse_feature_term *t, size_t nterms)
{
	if (nterms && !t)
		return -1;
	if (!nterms)
		return 0;
	/* counts and parentheses are Slurm's to weigh; a feature whose nodes
	 * are not known allows any */
	for (size_t k = 0; k < nterms; k++)
		if (t[k].counted || t[k].paren || !t[k].set)
			return 0;
	return 1;
}

bool fse_feature_allows(const struct fse_feature_term *t, size_t nterms,
			bool (*has)(const void *set, size_t node), size_t node)
{
	bool in;

	if (!nterms || !t || !has)
		return true;
	in = has(t[0].set, node);
	for (size_t k = 1; k < nterms; k++)
		in = t[k - 1].and_next ? (in && has(t[k].set, node)) : (in || has(t[k].set, node));
	return in;
}

bool fse_kept_take(struct fse_kept *k, int64_t gen0, int64_t gen1, int64_t now)
{
	k->gen[0] = gen0;
	k->gen[1] = gen1;
	k->at = now;
	k->reuses = 0;
	k->valid = now > gen0 && now > gen1;
	return k->valid;
}

bool fse_kept_fresh(struct fse_kept *k, int64_t gen0, int64_t gen1, int64_t now)
{
	if (!k->valid || k->gen[0] != gen0 || k->gen[1] != gen1 || now < k->at ||
	    now - k->at >= FSE_KEPT_AGE)
		return false;
	k->reuses++;
	return true;
}
