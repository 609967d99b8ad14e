/*
 * test_slurm_tree.c — unit tests of the Slurm tree records of
 * libfabsched_topology (fst_slurm_tree_*, fst_host_rank): a small inline
 * fabric, the real dumps of tests/fixtures/ibnetdiscover, agreement with
 * fst_export_tree(), the JSON model round trip, node filters, addresses.
 * cmocka, TAP output under the harness.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_files.h"

#include "fabsched_topo.h"

/*
 * 2 leaves x 2 hosts under 2 spines, as an ibsim net file; spine02 comes
 * before spine01 (the primary parent goes by name, not by input order), and
 * the leaf02-spine01 cable runs at 1x.
 */
static const char SMALL[] = "Hca\t1 \"H-n001-mlx5_0\"\t# \"n001 mlx5_0\"\n"
			    "[1]\t\"S-leaf01\"[1]\t# lid 5 4xHDR\n\n"
			    "Hca\t1 \"H-n002-mlx5_0\"\t# \"n002 mlx5_0\"\n"
			    "[1]\t\"S-leaf01\"[2]\t# lid 6 4xHDR\n\n"
			    "Hca\t1 \"H-n003-mlx5_0\"\t# \"n003 mlx5_0\"\n"
			    "[1]\t\"S-leaf02\"[1]\t# lid 7 4xHDR\n\n"
			    "Hca\t1 \"H-n004-mlx5_0\"\t# \"n004 mlx5_0\"\n"
			    "[1]\t\"S-leaf02\"[2]\t# lid 8 4xHDR\n\n"
			    "Switch\t36 \"S-spine02\"\t# \"spine02\" enhanced port 0 lid 4 lmc 0\n"
			    "[1]\t\"S-leaf01\"[4]\t# \"leaf01\" lid 1 4xHDR\n"
			    "[2]\t\"S-leaf02\"[4]\t# \"leaf02\" lid 2 4xHDR\n\n"
			    "Switch\t36 \"S-leaf01\"\t# \"leaf01\" enhanced port 0 lid 1 lmc 0\n"
			    "[1]\t\"H-n001-mlx5_0\"[1]\t# \"n001 mlx5_0\" lid 5 4xHDR\n"
			    "[2]\t\"H-n002-mlx5_0\"[1]\t# \"n002 mlx5_0\" lid 6 4xHDR\n"
			    "[3]\t\"S-spine01\"[1]\t# \"spine01\" lid 3 4xHDR\n"
			    "[4]\t\"S-spine02\"[1]\t# \"spine02\" lid 4 4xHDR\n\n"
			    "Switch\t36 \"S-leaf02\"\t# \"leaf02\" enhanced port 0 lid 2 lmc 0\n"
			    "[1]\t\"H-n003-mlx5_0\"[1]\t# \"n003 mlx5_0\" lid 7 4xHDR\n"
			    "[2]\t\"H-n004-mlx5_0\"[1]\t# \"n004 mlx5_0\" lid 8 4xHDR\n"
			    "[3]\t\"S-spine01\"[2]\t# \"spine01\" lid 3 1xHDR\n"
			    "[4]\t\"S-spine02\"[2]\t# \"spine02\" lid 4 4xHDR\n\n"
			    "Switch\t36 \"S-spine01\"\t# \"spine01\" enhanced port 0 lid 3 lmc 0\n"
			    "[1]\t\"S-leaf01\"[3]\t# \"leaf01\" lid 1 4xHDR\n"
			    "[2]\t\"S-leaf02\"[3]\t# \"leaf02\" lid 2 1xHDR\n";

static struct fst_model *_classify(struct fst_model *m, const struct fst_opts *o)
{
	char err[512] = "";
	int rc = fst_classify(m, o, err, sizeof(err));

	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	return m;
}

static struct fst_model *_small(void)
{
	struct fst_model *m = NULL;
	char err[512] = "";
	int rc = fst_parse_ibnet_buf(&m, SMALL, sizeof(SMALL) - 1, "small.net", err, sizeof(err));

	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	return _classify(m, NULL);
}

/* 3.topo's hosts are named r-ufm*, marks of fabric managers: every named
 * host is a node there */
static const struct fst_opts r_ufm = { .all_hosts = 1 };

static struct fst_model *_file(const char *name, const struct fst_opts *o)
{
	struct fst_model *m = NULL;
	char err[512] = "";
	int rc = fst_parse_ibnet_file(&m, tf_fixture("ibnetdiscover", name), err, sizeof(err));

	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	return _classify(m, o);
}

static struct fst_slurm_tree *_tree(const struct fst_model *m, fst_node_filter keep, void *arg)
{
	struct fst_slurm_tree *t = NULL;
	char err[256] = "";
	int rc = fst_slurm_tree_build(m, NULL, keep, arg, &t, err, sizeof(err));

	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	assert_non_null(t);
	return t;
}

static const struct fst_slurm_switch *_sw(const struct fst_slurm_tree *t, const char *name)
{
	int i = fst_slurm_tree_find_switch(t, name);

	assert_true(i >= 0);
	return &t->sw[i];
}

static void _assert_addr(const struct fst_slurm_tree *t, const char *node, const char *want,
			 const char *want_pattern)
{
	char *a = NULL, *p = NULL, err[128];

	assert_int_equal(fst_slurm_tree_node_addr(t, node, &a, &p, err, sizeof(err)), 0);
	assert_string_equal(a, want);
	assert_string_equal(p, want_pattern);
	free(a);
	free(p);
}

/* ------------------------------------------------------------ small fabric */
static void test_small_records(void **state)
{
	struct fst_model *m = _small();
	struct fst_slurm_tree *t = _tree(m, NULL, NULL);
	const struct fst_slurm_switch *l1, *l2, *s1, *s2;

	assert_int_equal(t->nsw, 4);
	assert_int_equal(t->max_level, 1);
	assert_int_equal(t->virtual_root, -1); /* each spine spans every node */
	assert_int_equal(t->nnodes, 4);
	/* leaves first, in model order, then the spines */
	assert_int_equal(t->sw[0].level, 0);
	assert_int_equal(t->sw[1].level, 0);
	assert_int_equal(t->sw[2].level, 1);
	assert_int_equal(t->sw[3].level, 1);
	l1 = _sw(t, "leaf01");
	l2 = _sw(t, "leaf02");
	s1 = _sw(t, "spine01");
	s2 = _sw(t, "spine02");
	assert_int_equal(l1->nnodes, 2);
	assert_string_equal(l1->nodes[0], "n001");
	assert_string_equal(l1->nodes[1], "n002");
	assert_string_equal(l1->nodelist, "n[001-002]");
	assert_string_equal(l2->nodelist, "n[003-004]");
	assert_null(l1->childlist);
	assert_int_equal(l1->nchildren, 0);
	assert_null(s1->nodelist);
	assert_int_equal(s1->nnodes, 0);
	assert_string_equal(s1->childlist, "leaf[01-02]");
	assert_string_equal(s2->childlist, "leaf[01-02]");
	assert_int_equal(s1->nchildren, 2);
	assert_int_equal(s1->children[0], fst_slurm_tree_find_switch(t, "leaf01"));
	assert_int_equal(s1->children[1], fst_slurm_tree_find_switch(t, "leaf02"));
	/* two parents each; the primary one by name */
	assert_int_equal(l1->nparents, 2);
	assert_int_equal(l2->parent, fst_slurm_tree_find_switch(t, "spine01"));
	assert_int_equal(s1->parent, -1);
	assert_int_equal(s2->parent, -1);
	assert_int_equal(s1->nparents, 0);
	/* link speeds in Mb/s: 4xHDR = 200000; spine01 has one 4x and one 1x
	 * link down: a tie goes to the lower rate */
	assert_int_equal(l1->link_speed, 200000);
	assert_int_equal(s2->link_speed, 200000);
	assert_int_equal(s1->link_speed, 50000);
	assert_true(l1->dev >= 0);
	assert_string_equal(m->devs[l1->dev].name, "leaf01");
	/* lookups */
	assert_int_equal(fst_slurm_tree_node_leaf(t, "n003"),
			 fst_slurm_tree_find_switch(t, "leaf02"));
	assert_int_equal(fst_slurm_tree_node_leaf(t, "n999"), -1);
	assert_int_equal(fst_slurm_tree_node_leaf(t, NULL), -1);
	assert_int_equal(fst_slurm_tree_find_switch(t, "nope"), -1);
	fst_slurm_tree_free(t);
	fst_model_free(m);
}

static void test_small_addr_path_rank(void **state)
{
	struct fst_model *m = _small();
	struct fst_slurm_tree *t = _tree(m, NULL, NULL);
	char *a = NULL, *p = NULL, err[128] = "";
	int path[4], leaf2 = fst_slurm_tree_find_switch(t, "leaf02");

	_assert_addr(t, "n001", "spine01.leaf01.n001", "switch.switch.node");
	_assert_addr(t, "n004", "spine01.leaf02.n004", "switch.switch.node");
	assert_int_equal(fst_slurm_tree_node_addr(t, "n999", &a, &p, err, sizeof(err)), -1);
	assert_null(a);
	assert_non_null(strstr(err, "n999"));
	assert_int_equal(fst_slurm_tree_path(t, leaf2, path, 4), 2);
	assert_int_equal(path[0], fst_slurm_tree_find_switch(t, "spine01"));
	assert_int_equal(path[1], leaf2);
	assert_int_equal(fst_slurm_tree_path(t, leaf2, path, 1), 2); /* count, top only */
	assert_int_equal(path[0], fst_slurm_tree_find_switch(t, "spine01"));
	assert_int_equal(fst_slurm_tree_path(t, 99, path, 4), -1);
	/* fabric order: one rank per node, leaf by leaf */
	assert_int_equal(fst_host_rank(m, "n001"), 0);
	assert_int_equal(fst_host_rank(m, "n002"), 1);
	assert_int_equal(fst_host_rank(m, "n003"), 2);
	assert_int_equal(fst_host_rank(m, "n004"), 3);
	assert_int_equal(fst_host_rank(m, "leaf01"), -1);
	assert_int_equal(fst_host_rank(m, NULL), -1);
	{
		/* the scheduler's order: nodes not in the model after them */
		const char *names[] = { "n004", "x9", NULL, "n001" };
		const char *none[] = { "x1", "x2" };
		uint32_t rank[4] = { 7, 7, 7, 7 };

		assert_int_equal(fst_rank_nodes(m, names, 4, rank), 2);
		assert_int_equal(rank[0], 3);
		assert_int_equal(rank[1], m->nhosts + 1);
		assert_int_equal(rank[2], m->nhosts + 2);
		assert_int_equal(rank[3], 0);
		rank[0] = 7;
		assert_int_equal(fst_rank_nodes(m, none, 2, rank), 0);
		assert_int_equal(rank[0], 7); /* untouched */
	}
	fst_slurm_tree_free(t);
	fst_model_free(m);
}

/* scontrol show topology's lines, all or filtered. */
static void test_switch_lines(void **state)
{
	const struct fst_switch_line sw[] = {
		{ "leaf01", 0, 100, "n[001-003]", NULL },
		{ "leaf02", 0, 100, "n[004-006]", NULL },
		{ "spine01", 1, 200, NULL, "leaf[01-02]" },
	};
	char *t;

	(void)state;
	t = fst_switch_lines(sw, 3, NULL, NULL);
	assert_string_equal(t, "SwitchName=leaf01 Level=0 LinkSpeed=100 Nodes=n[001-003]\n"
			       "SwitchName=leaf02 Level=0 LinkSpeed=100 Nodes=n[004-006]\n"
			       "SwitchName=spine01 Level=1 LinkSpeed=200 Switches=leaf[01-02]\n");
	free(t);
	t = fst_switch_lines(sw, 3, "spine01", "");
	assert_string_equal(t, "SwitchName=spine01 Level=1 LinkSpeed=200 Switches=leaf[01-02]\n");
	free(t);
	t = fst_switch_lines(sw, 3, NULL, "n[005-006]");
	assert_string_equal(t, "SwitchName=leaf02 Level=0 LinkSpeed=100 Nodes=n[004-006]\n");
	free(t);
	/* nodes of two leaves: no leaf holds them all */
	assert_null(fst_switch_lines(sw, 3, NULL, "n[003-004]"));
	assert_null(fst_switch_lines(sw, 3, "leaf09", NULL));
	assert_null(fst_switch_lines(sw, 3, NULL, "n[bad"));
	assert_null(fst_switch_lines(sw, 0, NULL, NULL));
}

/* keeps the nodes whose name does not contain arg */
static int _keep_without(const char *node, void *arg)
{
	return strstr(node, (const char *)arg) == NULL;
}

static void test_small_filter(void **state)
{
	struct fst_model *m = _small();
	struct fst_slurm_tree *t;

	/* no node left: an empty tree, not an error */
	t = _tree(m, _keep_without, "n00");
	assert_int_equal(t->nsw, 0);
	assert_int_equal(t->max_level, -1);
	assert_int_equal(t->nnodes, 0);
	assert_int_equal(fst_slurm_tree_node_leaf(t, "n001"), -1);
	fst_slurm_tree_free(t);
	/* one node less: the same switches */
	t = _tree(m, _keep_without, "n003");
	assert_int_equal(t->nsw, 4);
	assert_int_equal(t->nnodes, 3);
	assert_int_equal(_sw(t, "leaf02")->nnodes, 1);
	assert_string_equal(_sw(t, "leaf02")->nodelist, "n004");
	fst_slurm_tree_free(t);
	fst_model_free(m);
}

static int _keep_leaf01(const char *node, void *arg)
{
	(*(int *)arg)++;
	return strcmp(node, "n001") == 0 || strcmp(node, "n002") == 0;
}

static void test_small_filter_leaf(void **state)
{
	struct fst_model *m = _small();
	int calls = 0;
	struct fst_slurm_tree *t = _tree(m, _keep_leaf01, &calls);

	assert_int_equal(calls, 4);
	assert_int_equal(t->nsw, 3);
	assert_int_equal(fst_slurm_tree_find_switch(t, "leaf02"), -1);
	assert_string_equal(_sw(t, "spine01")->childlist, "leaf01");
	assert_int_equal(_sw(t, "spine01")->nchildren, 1);
	/* the 1x link to leaf02 no longer counts */
	assert_int_equal(_sw(t, "spine01")->link_speed, 200000);
	_assert_addr(t, "n002", "spine01.leaf01.n002", "switch.switch.node");
	fst_slurm_tree_free(t);
	fst_model_free(m);
}

static void test_errors(void **state)
{
	struct fst_model *m = NULL;
	struct fst_slurm_tree *t = (void *)1;
	char err[256] = "", *a, *p;

	assert_int_equal(
		fst_parse_ibnet_buf(&m, SMALL, sizeof(SMALL) - 1, "small.net", err, sizeof(err)),
		0);
	assert_int_equal(fst_slurm_tree_build(m, NULL, NULL, NULL, &t, err, sizeof(err)), -1);
	assert_null(t);
	assert_string_equal(err, "model not classified");
	assert_int_equal(fst_slurm_tree_build(NULL, NULL, NULL, NULL, &t, err, sizeof(err)), -1);
	assert_int_equal(fst_slurm_tree_build(m, NULL, NULL, NULL, NULL, NULL, 0), -1);
	assert_int_equal(fst_host_rank(m, "n001"), -1); /* not classified */
	assert_int_equal(fst_slurm_tree_node_addr(NULL, "n001", &a, &p, NULL, 0), -1);
	assert_int_equal(fst_slurm_tree_find_switch(NULL, "leaf01"), -1);
	assert_int_equal(fst_slurm_tree_path(NULL, 0, NULL, 0), -1);
	fst_slurm_tree_free(NULL);
	fst_model_free(m);
}

/* ------------------------------------------------------------ agreement with the exporter */
static char *_export_tree(const struct fst_model *m, const struct fst_export_opts *o)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fst_export_tree(m, f, o, err, sizeof(err)), 0);
	fclose(f);
	return buf;
}

/* Every SwitchName line of the export is the record of the same index. */
static void _assert_agree(const struct fst_model *m, const struct fst_export_opts *o)
{
	char *conf = _export_tree(m, o), *save = NULL;
	struct fst_slurm_tree *t = NULL;
	char err[256];
	int i = 0;

	assert_int_equal(fst_slurm_tree_build(m, o, NULL, NULL, &t, err, sizeof(err)), 0);
	for (char *l = strtok_r(conf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const struct fst_slurm_switch *s;
		char want[8192];
		int n;

		if (l[0] == '#')
			continue;
		assert_true(i < t->nsw);
		s = &t->sw[i++];
		n = snprintf(want, sizeof(want), "SwitchName=%s %s=%s", s->name,
			     s->level == 0 ? "Nodes" : "Switches",
			     s->level == 0 ? s->nodelist : s->childlist);
		if (s->link_speed > 0)
			snprintf(want + n, sizeof(want) - n, " LinkSpeed=%ld", s->link_speed);
		assert_string_equal(l, want);
	}
	assert_int_equal(i, t->nsw);
	fst_slurm_tree_free(t);
	free(conf);
}

static void test_fixtures_agree(void **state)
{
	struct fst_opts x5 = { 0 };
	struct fst_export_opts all = { .plane = -1 }, p1 = { .plane = 1 },
			       nols = { .plane = -1, .no_link_speed = 1, .root_name = "top" };
	struct fst_model *m;
	char map[4096];

	m = _file("1.topo", NULL);
	_assert_agree(m, &all);
	_assert_agree(m, NULL);
	fst_model_free(m);
	m = _file("3.topo", &r_ufm);
	_assert_agree(m, &all);
	_assert_agree(m, &p1);
	_assert_agree(m, &nols);
	fst_model_free(m);
	snprintf(map, sizeof(map), "%s", tf_fixture("ibnetdiscover", "X5.map"));
	x5.name_map = map;
	m = _file("X5.topofile", &x5);
	_assert_agree(m, &all);
	fst_model_free(m);
}

/* 3.topo: no switch spans every node, so a virtual root tops the tree. */
static void test_virtual_root(void **state)
{
	struct fst_export_opts o = { .plane = -1, .root_name = "top" };
	struct fst_model *m = _file("3.topo", &r_ufm);
	struct fst_slurm_tree *t = NULL;
	const struct fst_slurm_switch *r;
	char err[256], *a = NULL, *p = NULL;
	int ntops = 0, below = 0;

	assert_int_equal(fst_slurm_tree_build(m, &o, NULL, NULL, &t, err, sizeof(err)), 0);
	assert_true(t->virtual_root >= 0);
	assert_int_equal(t->virtual_root, t->nsw - 1);
	r = &t->sw[t->virtual_root];
	assert_string_equal(r->name, "top");
	assert_int_equal(r->dev, -1);
	assert_int_equal(r->parent, -1);
	assert_int_equal(r->level, t->max_level);
	assert_true(r->nchildren >= 2);
	for (int i = 0; i < t->nsw; i++) {
		if (i == t->virtual_root)
			continue;
		assert_true(t->sw[i].level < r->level);
		assert_true(t->sw[i].parent >= 0);
		assert_true(t->sw[t->sw[i].parent].level > t->sw[i].level);
		if (t->sw[i].parent == t->virtual_root)
			ntops++;
		if (t->sw[i].level == 0)
			below += t->sw[i].nnodes;
	}
	assert_int_equal(ntops, r->nchildren);
	assert_int_equal(below, t->nnodes);
	/* every node's address starts at the root and has one part per level */
	for (int i = 0; i < t->nsw; i++) {
		const struct fst_slurm_switch *s = &t->sw[i];

		for (int j = 0; j < s->nnodes; j++) {
			int dots = 0, pdots = 0;

			assert_int_equal(
				fst_slurm_tree_node_addr(t, s->nodes[j], &a, &p, err, sizeof(err)),
				0);
			assert_int_equal(strncmp(a, "top.", 4), 0);
			for (char *c = a; *c; c++)
				dots += *c == '.';
			for (char *c = p; *c; c++)
				pdots += *c == '.';
			assert_int_equal(dots, t->max_level + 1);
			assert_int_equal(pdots, t->max_level + 1);
			assert_int_equal(strncmp(p, "switch.", 7), 0);
			/* ends with ".<leaf>.<node>" */
			{
				char tail[256];

				snprintf(tail, sizeof(tail), ".%s.%s", s->name, s->nodes[j]);
				assert_string_equal(a + strlen(a) - strlen(tail), tail);
			}
			free(a);
			free(p);
		}
	}
	fst_slurm_tree_free(t);
	fst_model_free(m);
}

/* The plugin reads the JSON model: the tree must be the same after a round trip. */
static void test_json_roundtrip_tree(void **state)
{
	struct fst_opts x5 = { 0 };
	struct fst_model *m, *back = NULL;
	char map[4096], err[512] = "", *json, *c1, *c2;
	struct fst_export_opts o = { .plane = -1 };

	snprintf(map, sizeof(map), "%s", tf_fixture("ibnetdiscover", "X5.map"));
	x5.name_map = map;
	m = _file("X5.topofile", &x5);
	json = fst_json_string(m, err, sizeof(err));
	assert_non_null(json);
	assert_int_equal(fst_json_read_buf(&back, json, strlen(json), "x5.json", err, sizeof(err)),
			 0);
	c1 = _export_tree(m, &o);
	c2 = _export_tree(back, &o);
	/* the header names the source; the lines after it must match */
	assert_string_equal(strchr(c1, '\n'), strchr(c2, '\n'));
	for (int h = 0; h < m->nhosts; h++)
		assert_int_equal(fst_host_rank(back, m->hosts[h].name), m->hosts[h].rank);
	_assert_agree(back, &o);
	free(c1);
	free(c2);
	free(json);
	fst_model_free(back);
	fst_model_free(m);
}

/* Descendants and hop distances (what Slurm's switch table holds). */
static void test_switch_graph(void **state)
{
	struct fst_model *m = _small();
	struct fst_slurm_tree *t = _tree(m, NULL, NULL);
	struct fst_switch_graph *g = NULL;
	int l1 = fst_slurm_tree_find_switch(t, "leaf01");
	int l2 = fst_slurm_tree_find_switch(t, "leaf02");
	int s1 = fst_slurm_tree_find_switch(t, "spine01");
	int s2 = fst_slurm_tree_find_switch(t, "spine02");

	(void)state;
	assert_int_equal(fst_switch_graph_build(t, &g), 0);
	assert_int_equal(g->n, 4);
	assert_int_equal(g->ndesc[l1], 0);
	assert_int_equal(g->ndesc[s1], 2);
	assert_true((g->desc[s1][0] == l1 && g->desc[s1][1] == l2) ||
		    (g->desc[s1][0] == l2 && g->desc[s1][1] == l1));
	assert_int_equal(g->dist[l1][l1], 0);
	assert_int_equal(g->dist[l1][s1], 1);
	assert_int_equal(g->dist[l1][l2], 2); /* up and down */
	assert_int_equal(g->dist[s1][s2], 2);
	assert_int_equal(g->dist[s2][l1], 1);
	fst_switch_graph_free(g);
	assert_int_equal(fst_switch_graph_build(NULL, &g), -1);
	fst_switch_graph_free(NULL);
	fst_slurm_tree_free(t);
	fst_model_free(m);

	/* three levels under a virtual root: descendants of the root are
	 * every other switch, each once; every switch reaches every other */
	{
		struct fst_export_opts o = { .plane = -1, .root_name = "top" };
		struct fst_model *m3 = _file("3.topo", &r_ufm);
		struct fst_slurm_tree *t3 = NULL;
		char err[256];
		int r;

		assert_int_equal(fst_slurm_tree_build(m3, &o, NULL, NULL, &t3, err, sizeof(err)),
				 0);
		assert_int_equal(fst_switch_graph_build(t3, &g), 0);
		r = t3->virtual_root;
		assert_int_equal(g->ndesc[r], t3->nsw - 1);
		for (int i = 0; i < t3->nsw; i++)
			for (int j = 0; j < t3->nsw; j++) {
				assert_true(g->dist[i][j] != FST_HOPS_NONE);
				assert_int_equal(g->dist[i][j], g->dist[j][i]);
			}
		fst_switch_graph_free(g);
		fst_slurm_tree_free(t3);
		fst_model_free(m3);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_records),
		cmocka_unit_test(test_small_addr_path_rank),
		cmocka_unit_test(test_switch_lines),
		cmocka_unit_test(test_small_filter),
		cmocka_unit_test(test_small_filter_leaf),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_fixtures_agree),
		cmocka_unit_test(test_virtual_root),
		cmocka_unit_test(test_json_roundtrip_tree),
		cmocka_unit_test(test_switch_graph),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
