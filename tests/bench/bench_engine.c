/*
 * bench_engine.c - decision time and memory of the placement engine
 * (select/) on fabrics of 1k, 10k, 50k and 100k nodes: racks of 16 to 32 nodes
 * (sizes drawn per rack), 16 racks per pod, about 60 % of the nodes busy
 * in random runs, job sizes drawn from a mix of small (1-8), rack-sized
 * (9-32) and multi-rack (33-256) jobs.
 * Prints the median, 99th percentile and maximum of fse_place() per
 * decision (jobs sized by nodes; the same with the racks' free nodes kept
 * by the caller, struct fse_request rack_free, as the simulator keeps
 * them; jobs sized by tasks; the same with the racks' room for the tasks
 * kept, rack_room and rack_room_idle; jobs sized by nodes with the idle
 * machine's per-node counts given, tasks_idle, as slurmctld gives them,
 * and the same with their sums per rack kept, rack_room_idle, as
 * slurmctld keeps them per job shape), the time to build the domains, and
 * the heap bytes the engine holds (domains, one workspace, a
 * locality-target record), from malloc's own accounting (mallinfo2)
 * before and after building them, per node, and a digest of the
 * decisions (the same before and after a change that should only make
 * them faster).  Each fabric's jobs and occupancies are the same in all
 * six ways, so kept counts must give the digest of their own count (and
 * an idle machine where every node counts, that of none given): it exits
 * 1 when they do not.  Figures, not a test.
 *
 * Usage: bench_engine [decisions per size, default 2000]
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabsched_select.h"

#define RACK_MIN 16
#define RACK_MAX 32
#define RACKS_PER_POD 16

/* Heap bytes in use: small chunks plus mmapped ones. */
static size_t _heap(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static double _now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int _cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* xorshift: the same sequence on every run (reset for each fabric) */
#define SEED 88172645463325252ull
static uint64_t _rng = SEED;
static uint32_t _rand(void)
{
	_rng ^= _rng << 13;
	_rng ^= _rng >> 7;
	_rng ^= _rng << 17;
	return (uint32_t)_rng;
}

/* A digest of the decisions (status, nodes, reason): a change that only
 * makes the engine faster keeps it. */
static uint64_t _digest(uint64_t h, const struct fse_result *res)
{
	h = h * 31 + (uint64_t)res->status * 7 + (uint64_t)res->level * 131 + res->relaxed;
	for (uint32_t i = 0; res->status == FSE_OK && i < res->count; i++)
		h = h * 1000003u + (uint64_t)res->nodes[i];
	for (const char *c = res->reason; *c; c++)
		h = h * 33 + (uint8_t)*c;
	return h;
}

enum mode { BY_NODES, BY_NODES_KEPT, BY_TASKS, BY_TASKS_KEPT, BY_NODES_IDLE, BY_NODES_IDLE_KEPT };

/* BY_TASKS: jobs sized by tasks (sbatch -n) on nodes of 64 cores whose
 * free cores vary, instead of by nodes; BY_NODES_KEPT: by nodes, with the
 * racks' free nodes given (counted when the occupancy changes, outside
 * the decisions timed); BY_TASKS_KEPT: by tasks, with the racks' room now
 * and when idle given (the same).  The decisions' digest into @out. */
static int _bench(int nnodes, int decisions, enum mode mode, uint64_t *out)
{
	bool tasks = mode == BY_TASKS || mode == BY_TASKS_KEPT;
	bool nodes_idle = mode >= BY_NODES_IDLE;
	int *kept = NULL;
	int64_t *room = NULL, *room_idle = NULL;
	int nracks = 0, npods;
	int *node_rack = malloc(nnodes * sizeof(int));
	int *rack_pod = malloc(nnodes * sizeof(int));
	uint8_t *avail = malloc(nnodes);
	uint32_t *now = malloc(nnodes * sizeof(uint32_t));
	uint32_t *idle = malloc(nnodes * sizeof(uint32_t));
	double *t_us = malloc(decisions * sizeof(double)), t0, build;
	struct fse_spec s = { 0 };
	struct fse_topo *t;
	struct fse_work *w;
	struct fse_share *sh;
	struct fse_result res;
	int ok = 0, wait = 0, never = 0;
	uint64_t digest = 0;
	size_t heap0, heap_topo, heap_all;
	char err[256];

	if (!node_rack || !rack_pod || !avail || !t_us || !now || !idle)
		return -1;
	_rng = SEED;
	/* a job sized by nodes takes 1 on a node it can use, every node */
	for (int i = 0; i < nnodes; i++)
		idle[i] = nodes_idle ? 1 : 64;
	/* racks of RACK_MIN..RACK_MAX nodes, the last one what is left */
	for (int i = 0; i < nnodes; nracks++) {
		int size = RACK_MIN + _rand() % (RACK_MAX - RACK_MIN + 1);

		for (int j = 0; j < size && i < nnodes; j++)
			node_rack[i++] = nracks;
	}
	npods = (nracks + RACKS_PER_POD - 1) / RACKS_PER_POD;
	for (int r = 0; r < nracks; r++)
		rack_pod[r] = r / RACKS_PER_POD;
	s.nnodes = nnodes;
	s.node_rack = node_rack;
	s.nracks = nracks;
	s.rack_pod = rack_pod;
	s.npods = npods;
	heap0 = _heap();
	t0 = _now_us();
	if (fse_topo_new(&s, &t, err, sizeof(err))) {
		fprintf(stderr, "bench_engine: %s\n", err);
		return -1;
	}
	build = _now_us() - t0;
	heap_topo = _heap() - heap0;
	w = fse_work_new(t);
	sh = fse_share_new(0);
	kept = calloc(fse_topo_nracks(t) + 1, sizeof(int));
	room = calloc(fse_topo_nracks(t) + 1, sizeof(int64_t));
	room_idle = calloc(fse_topo_nracks(t) + 1, sizeof(int64_t));
	heap_all = _heap() - heap0;
	if (!w || !sh || !kept || !room || !room_idle) {
		fprintf(stderr, "bench_engine: out of memory\n");
		return -1;
	}

	for (int d = 0; d < decisions; d++) {
		struct fse_request rq = { .level = FSE_RACK };
		uint32_t kind = _rand() % 10;

		/* a fresh occupancy every 50 decisions: runs of busy nodes */
		if (d % 50 == 0)
			for (int i = 0; i < nnodes;) {
				int run = 1 + _rand() % 12, busy = _rand() % 10 < 6;

				for (int j = 0; j < run && i < nnodes; j++, i++) {
					avail[i] = !busy || tasks;
					now[i] = busy ? _rand() % 64 : 64;
				}
			}
		if (d % 50 == 0 && mode == BY_NODES_KEPT)
			fse_rack_tally(t, avail, kept);
		if (d == 0 && mode == BY_NODES_IDLE_KEPT)
			fse_rack_room(t, NULL, idle, room_idle);
		if (d % 50 == 0 && mode == BY_TASKS_KEPT) {
			fse_rack_room(t, avail, now, room);
			fse_rack_room(t, NULL, idle, room_idle);
		}
		rq.min_nodes = kind < 6	  ? 1 + _rand() % 8
			       : kind < 9 ? 9 + _rand() % 24
					  : 33 + _rand() % 224;
		rq.level = _rand() % 3;
		rq.relaxed = _rand() % 4 == 0;
		if (tasks) {
			rq.ntasks = rq.min_nodes * (1 + _rand() % 64);
			rq.max_nodes = rq.ntasks;
			rq.min_nodes = 1;
			rq.tasks_now = now;
			rq.tasks_idle = idle;
		}
		if (nodes_idle)
			rq.tasks_idle = idle;
		if (mode == BY_NODES_IDLE_KEPT)
			rq.rack_room_idle = room_idle;
		if (mode == BY_NODES_KEPT)
			rq.rack_free = kept;
		if (mode == BY_TASKS_KEPT) {
			rq.rack_room = room;
			rq.rack_room_idle = room_idle;
		}
		t0 = _now_us();
		fse_place(t, w, &rq, avail, &res);
		t_us[d] = _now_us() - t0;
		digest = _digest(digest, &res);
		ok += res.status == FSE_OK;
		wait += res.status == FSE_NOT_NOW;
		never += res.status == FSE_NEVER;
	}
	qsort(t_us, decisions, sizeof(double), _cmp_double);
	printf("%6d nodes %5d racks %4d pods  %s  build %8.1f us  decision median %7.1f us  p99 %7.1f us  max %7.1f us  (%d placed, %d wait, %d never; digest %016llx)\n",
	       nnodes, nracks, npods,
	       mode == BY_TASKS_KEPT	    ? "by tasks, kept           "
	       : mode == BY_TASKS	    ? "by tasks                 "
	       : mode == BY_NODES_KEPT	    ? "by nodes, kept           "
	       : mode == BY_NODES_IDLE	    ? "by nodes, idle given     "
	       : mode == BY_NODES_IDLE_KEPT ? "by nodes, idle given kept"
					    : "by nodes                 ",
	       build, t_us[decisions / 2], t_us[(int)(decisions * 0.99)], t_us[decisions - 1], ok,
	       wait, never, (unsigned long long)digest);
	if (mode == BY_NODES)
		printf("%6d nodes  memory: domains %9zu B (%5.1f B/node)  + workspace + target record %9zu B  = %9zu B (%5.1f B/node)\n",
		       nnodes, heap_topo, (double)heap_topo / nnodes, heap_all - heap_topo,
		       heap_all, (double)heap_all / nnodes);
	fse_share_free(sh);
	fse_work_free(w);
	fse_topo_free(t);
	free(node_rack);
	free(rack_pod);
	free(avail);
	free(now);
	free(idle);
	free(t_us);
	free(kept);
	free(room);
	free(room_idle);
	*out = digest;
	return 0;
}

int main(int argc, char **argv)
{
	int decisions = argc > 1 ? atoi(argv[1]) : 2000;
	static const int sizes[] = { 1000, 10000, 50000, 100000 };

	if (decisions < 10)
		decisions = 10;
	printf("fse_place: racks of %d-%d nodes, %d racks per pod, %d decisions per fabric\n",
	       RACK_MIN, RACK_MAX, RACKS_PER_POD, decisions);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t dg[BY_NODES_IDLE_KEPT + 1];

		for (int mode = BY_NODES; mode <= BY_NODES_IDLE_KEPT; mode++)
			if (_bench(sizes[i], decisions, (enum mode)mode, &dg[mode]))
				return 1;
		if (dg[BY_NODES] != dg[BY_NODES_KEPT] || dg[BY_TASKS] != dg[BY_TASKS_KEPT] ||
		    dg[BY_NODES] != dg[BY_NODES_IDLE] || dg[BY_NODES] != dg[BY_NODES_IDLE_KEPT]) {
			fprintf(stderr,
				"bench_engine: %d nodes: kept counts gave other decisions than "
				"counting (digests above)\n",
				sizes[i]);
			return 1;
		}
	}
	return 0;
}
