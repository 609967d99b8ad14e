/*
 * bench_topo — parse + classify + export wall time and peak RSS on an
 * ibnetdiscover dump (generate one with gen_fattree, e.g.
 *   gen_fattree -l 3 -H 20000 -k 40 -f ibnet -o big.ibnet,
 * with -c 20 for director chassis).
 * Prints figures, the director chassis (switches sharing a system image
 * GUID) and the switch name warnings; not a pass/fail test.  Targets:
 * < 1 s, < 256 MiB.  `bench_topo --lldp DIR`: the LLDP records gen_lldp
 * wrote (DIR/nodes, DIR/switches) instead of a dump.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "fabsched_topo.h"

static int _by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Director chassis: system image GUIDs shared by 2 switches or more. */
static int _chassis(const struct fst_model *m)
{
	uint64_t *v = calloc((size_t)m->ndevs + 1, sizeof(*v));
	int n = 0, nch = 0;

	if (!v)
		return -1;
	for (int d = 0; d < m->ndevs; d++)
		if (m->devs[d].type == FST_SWITCH && m->devs[d].sysimgguid)
			v[n++] = m->devs[d].sysimgguid;
	qsort(v, (size_t)n, sizeof(*v), _by_u64);
	for (int i = 1; i < n; i++)
		nch += v[i] == v[i - 1] && (i == 1 || v[i - 1] != v[i - 2]);
	free(v);
	return nch;
}

static double _now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct fst_model *m;
	char err[512];
	double t0, t1, t2, t3, t4;
	struct rusage ru;
	FILE *null = fopen("/dev/null", "w");
	struct fst_export_opts eo = { .plane = -1 };
	int nnames = 0;

	if (argc < 2 || !null || (!strcmp(argv[1], "--lldp") && argc < 3)) {
		fprintf(stderr, "usage: bench_topo <ibnetdiscover dump> | --lldp DIR\n");
		return 2;
	}
	t0 = _now();
	if (!strcmp(argv[1], "--lldp")) {
		char nd[4096], sd[4096];

		snprintf(nd, sizeof(nd), "%s/nodes", argv[2]);
		snprintf(sd, sizeof(sd), "%s/switches", argv[2]);
		argv++;
		if (fst_parse_lldp(&m, nd, sd, err, sizeof(err))) {
			fprintf(stderr, "bench_topo: %s\n", err);
			return 1;
		}
	} else if (fst_parse_ibnet_file(&m, argv[1], err, sizeof(err))) {
		fprintf(stderr, "bench_topo: %s\n", err);
		return 1;
	}
	t1 = _now();
	if (fst_classify(m, NULL, err, sizeof(err))) {
		fprintf(stderr, "bench_topo: %s\n", err);
		return 1;
	}
	t2 = _now();
	if (fst_export_tree(m, null, &eo, err, sizeof(err)) ||
	    fst_export_block(m, null, &eo, err, sizeof(err))) {
		fprintf(stderr, "bench_topo: %s\n", err);
		return 1;
	}
	t3 = _now();
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS after parse+classify+export: %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
	if (fst_json_write(m, null, err, sizeof(err))) {
		fprintf(stderr, "bench_topo: %s\n", err);
		return 1;
	}
	t4 = _now();
	getrusage(RUSAGE_SELF, &ru);
	printf("input      %s: %d devices, %d links, %d nodes, %d levels\n", argv[1], m->ndevs,
	       m->nlinks, m->nhosts, m->max_level + 1);
	for (int i = 0; i < m->nissues; i++)
		nnames += m->issues[i].kind == FST_ISSUE_NAME;
	printf("chassis    %d director chassis; %d switch name warning(s)\n", _chassis(m), nnames);
	printf("parse      %.3f s\nclassify   %.3f s\nexport     %.3f s (tree + block)\n"
	       "json       %.3f s\ntotal      %.3f s (parse+classify+export: %.3f s)\n"
	       "peak RSS   %.1f MiB\n",
	       t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0, t3 - t0, (double)ru.ru_maxrss / 1024.0);
	fst_model_free(m);
	fclose(null);
	return 0;
}
