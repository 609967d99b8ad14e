/*
 * select_private.h - internals of libfabsched_select shared by its files.
 */
#ifndef FABSCHED_SELECT_PRIVATE_H
#define FABSCHED_SELECT_PRIVATE_H

#include <stdint.h>

#include "fabsched_select.h"

/*
 * Racks are numbered 0..nracks-1: first the caller's racks, then one
 * rack per node that had none.  Members of each rack and racks of each
 * pod are in rank order (CSR arrays).
 */
struct fse_topo {
	int nnodes, nracks, npods;
	int *node_rack;	     /* [nnodes] */
	int *node_rank;	     /* [nnodes] */
	int *rack_start;     /* [nracks + 1] offsets into rack_members */
	int *rack_members;   /* [nnodes] */
	int *rack_pod;	     /* [nracks], -1 none */
	int *rack_rank;	     /* [nracks] lowest rank of its nodes */
	int *pod_start;	     /* [npods + 1] offsets into pod_racks */
	int *pod_racks;	     /* racks of each pod, rank order */
	int64_t *pod_capsum; /* per pod: prefix sums of its rack sizes
				   sorted largest first (same offsets) */
	int64_t *all_capsum; /* [nracks] same over every rack */
	int64_t *pod_cap;    /* [npods] nodes in each pod */
	int *pod_plane;	     /* [npods] */
	int max_rack;	     /* nodes in the largest rack */
	int64_t max_pod;     /* nodes in the largest pod */
};

struct fse_work {
	int nracks, nnodes;
	int *rack_free;	      /* [nracks] available nodes per rack */
	int *order;	      /* [nracks] scratch: racks being sorted */
	int *sel;	      /* [nracks] racks of the best placement */
	int *take;	      /* [nracks] nodes taken from sel[i] */
	int *cand;	      /* [nracks] racks of the placement being built */
	int *cand_take;	      /* [nracks] */
	int64_t *rack_units;  /* [nracks] tasks the rack can take now */
	int64_t *rack_room;   /* [nracks] the same, uncapped (best fit) */
	int *rack_inodes;     /* [nracks] usable nodes when idle */
	int64_t *rack_iunits; /* [nracks] tasks when idle */
	uint32_t *caps;	      /* [nnodes] scratch: task counts of a rack */
	struct fse_slot {     /* scratch: a node's free time and tasks */
		int64_t t;
		uint32_t cap;
	} * slots;	/* [nnodes] */
	int64_t *times; /* [nnodes] scratch: free times, sorted */
	int *nodes;	/* [nnodes] result */
	int *racks;	/* [nracks] result */
};

/* Smallest k with capsum[k - 1] >= n over a prefix-sum array of len
 * entries; INT32_MAX when they cannot hold n. */
int fse_kmin(const int64_t *capsum, int len, int64_t n);

#endif /* FABSCHED_SELECT_PRIVATE_H */
