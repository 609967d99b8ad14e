/*
 * test_topo.c — unit tests of libfabsched_topology on real ibnetdiscover
 * dumps (tests/fixtures/ibnetdiscover, see SOURCES.md there) and on small
 * inline inputs.  cmocka, TAP output under the harness.
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
#include "topo_names.h"

static struct fst_model *_load(const char *file, const struct fst_opts *o)
{
	struct fst_model *m = NULL;
	char err[512] = "";
	int rc = fst_parse_ibnet_file(&m, file, err, sizeof(err));

	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	rc = fst_classify(m, o, err, sizeof(err));
	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	return m;
}

static int _count_role(const struct fst_model *m, enum fst_role r)
{
	int n = 0;

	for (int d = 0; d < m->ndevs; d++)
		n += m->devs[d].role == r;
	return n;
}

static int _count_issue(const struct fst_model *m, enum fst_issue_kind k)
{
	int n = 0;

	for (int i = 0; i < m->nissues; i++)
		n += m->issues[i].kind == k;
	return n;
}

static char *_export(const struct fst_model *m, int which)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fst_export_opts eo = { .plane = -1 };
	int rc;

	assert_non_null(f);
	rc = which == 0	  ? fst_export_tree(m, f, &eo, err, sizeof(err))
	     : which == 1 ? fst_export_block(m, f, &eo, err, sizeof(err))
			  : fst_export_yaml(m, f, &eo, err, sizeof(err));
	fclose(f);
	assert_int_equal(rc, 0);
	return buf;
}

/* Every tree line: SwitchName= first, never Nodes= and Switches= together,
 * names <= 64 characters, each node once. */
static void _assert_valid_tree(const char *conf, int expect_nodes)
{
	char *copy = strdup(conf), *save = NULL;
	int nodes = 0;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[128];

		if (l[0] == '#')
			continue;
		assert_int_equal(strncmp(l, "SwitchName=", 11), 0);
		assert_false(strstr(l, " Nodes=") && strstr(l, " Switches="));
		assert_int_equal(sscanf(l, "SwitchName=%127s", name), 1);
		assert_true(strlen(name) <= 64);
		if (strstr(l, " Nodes=")) {
			char **v, err[128], list[4096];
			int n;

			assert_int_equal(sscanf(strstr(l, " Nodes=") + 7, "%4095s", list), 1);
			assert_int_equal(fst_hostlist_expand(list, &v, &n, err, sizeof(err)), 0);
			nodes += n;
			fst_strv_free(v, n);
		}
	}
	assert_int_equal(nodes, expect_nodes);
	free(copy);
}

/* ------------------------------------------------------------ X5 */
/*
 * X5 (ENS Lyon, 2020): 11 switches, 89 HCAs that all keep the default
 * description "MT25408 ConnectX Mellanox Technologies"; host names come from
 * X5.map (86 entries).  Where our output differs from that site's
 * X5.topology.conf, and why:
 *  - the 3 HCAs absent from the map (H-003048c749450000, H-003048c74ae20000,
 *    H-78e7d1030024535c) are not nodes here: a default description is no
 *    host name, so they are reported (noncompute-hca, default-description)
 *    instead of appearing as fake nodes "H-<guid>" that Slurm does not know;
 *  - levels are computed, not hand-picked: the 6 switches with HCAs are
 *    leaves, 4 switches above them are level 1, and S-0008f105001086a2,
 *    cabled only to two level-1 switches, is level 2.  The site listed it
 *    among 5 "spines" and made 851e and 86a2 children of each other (a
 *    cycle); here every Switches= line points one level down;
 *  - switches whose description carries a name ("Voltaire 4036 # <name>")
 *    get that name (4036-8BBA, hoibp0013, ...); the others keep S-<guid>;
 *  - x5570comp1/2 run 4xDDR on a leaf whose other host links run 4xQDR:
 *    reported as degraded.  The r422 nodes' leaf runs DDR on every host
 *    link, so they are its tier's majority and are not reported.
 */
static void test_x5(void **state)
{
	struct fst_opts o = { 0 };
	struct fst_model *m;
	char *conf, map[4096];
	int ndiff = -1;
	char err[256];
	FILE *devnull;

	snprintf(map, sizeof(map), "%s", tf_fixture("ibnetdiscover", "X5.map"));
	o.name_map = map;
	o.all_hosts = 1; /* as the site's topology.conf: its storage too */
	m = _load(tf_fixture("ibnetdiscover", "X5.topofile"), &o);
	assert_int_equal(m->ndevs, 100);
	assert_int_equal(_count_role(m, FST_ROLE_LEAF), 6);
	assert_int_equal(_count_role(m, FST_ROLE_SPINE), 5);
	assert_int_equal(_count_role(m, FST_ROLE_HOST_LEAF), 0);
	assert_int_equal(m->max_level, 2);
	assert_int_equal(m->nhosts, 86);
	assert_int_equal(_count_role(m, FST_ROLE_NONCOMPUTE), 3);
	assert_int_equal(_count_issue(m, FST_ISSUE_DEGRADED_LINK), 2);
	assert_int_equal(m->devs[fst_find_device(m, "S-0008f105001086a2")].level, 2);
	assert_string_equal(m->devs[fst_find_device(m, "S-0008f105002036b4")].name, "hoibp0013");
	assert_int_equal(m->nplanes, 1);
	assert_int_equal(m->nracks, 6);
	/* sl390lin101-124 share a leaf */
	assert_int_equal(m->hosts[fst_find_host(m, "sl390lin101")].leaf,
			 m->hosts[fst_find_host(m, "sl390lin124")].leaf);
	conf = _export(m, 0);
	_assert_valid_tree(conf, 86);
	assert_non_null(
		strstr(conf, "SwitchName=hoibp0013 Nodes=sl390lin[101-124] LinkSpeed=40000"));
	assert_null(strstr(conf, "SwitchName=fabric")); /* level-1 switches span all */
	free(conf);
	/* the site's file: same groups, but 3 "H-<guid>" nodes we do not have */
	devnull = fopen("/dev/null", "w");
	assert_int_equal(fst_diff_tree(m, tf_fixture("ibnetdiscover", "X5.topology.conf"), devnull,
				       &ndiff, err, sizeof(err)),
			 0);
	fclose(devnull);
	assert_int_equal(ndiff, 3);
	fst_model_free(m);
}

/* 1.topo: the ibnetdiscover man page example.  Every HCA keeps its default
 * description, so there are no nodes: both switches are non-compute leaves
 * (never spines), 4 HCAs are reported.  The HCA port at 1xSDR among 4xSDR
 * host links is degraded.  The switch-to-switch pair (one 4x, one reported
 * 1x by one end) is a tie: no majority, nothing flagged there. */
static void test_1topo(void **state)
{
	struct fst_model *m = _load(tf_fixture("ibnetdiscover", "1.topo"), NULL);
	char *conf;

	assert_int_equal(m->ndevs, 6);
	assert_int_equal(m->nhosts, 0);
	assert_int_equal(_count_role(m, FST_ROLE_HOST_LEAF), 2);
	assert_int_equal(_count_role(m, FST_ROLE_SPINE), 0);
	assert_int_equal(_count_role(m, FST_ROLE_NONCOMPUTE), 4);
	assert_int_equal(_count_issue(m, FST_ISSUE_NONCOMPUTE_HCA), 4);
	assert_int_equal(_count_issue(m, FST_ISSUE_DEGRADED_LINK), 1);
	/* the dual-port HCA 0558 has both ports on one switch */
	assert_int_equal(m->nlinks, 7);
	conf = _export(m, 0);
	_assert_valid_tree(conf, 0);
	/* the header counts the levels: "1 level", "2 levels" */
	assert_non_null(strstr(conf, m->max_level ? " levels; " : " 1 level; "));
	free(conf);
	fst_model_free(m);
}

/* 1.topo with a map: H-0008f10403960558's two ports are one node. */
static void test_1topo_map(void **state)
{
	char map[] = "/tmp/fst_test_1map_XXXXXX";
	int fd = mkstemp(map);
	FILE *f = fdopen(fd, "w");
	struct fst_opts o = { .name_map = map };
	struct fst_model *m;

	fprintf(f, "# ibnetdiscover node-name-map form and H- form\n"
		   "0x0008f10403960558 \"n001 HCA-1\"\n0x8f10403961354 \"n002 mlx4_0\"\n"
		   "H-0008f10403960984 n003\nH-005442b100004900 localhost\n");
	fclose(f);
	m = _load(tf_fixture("ibnetdiscover", "1.topo"), &o);
	unlink(map);
	assert_int_equal(m->nhosts, 3);
	assert_int_equal(_count_role(m, FST_ROLE_LEAF), 2);
	assert_int_equal(m->hosts[fst_find_host(m, "n001")].nhcas, 1);
	assert_int_equal(m->devs[fst_find_device(m, "H-005442b100004900")].role,
			 FST_ROLE_NONCOMPUTE);
	assert_string_equal(m->devs[fst_find_device(m, "H-005442b100004900")].reason, "localhost");
	fst_model_free(m);
}

/* 3.topo: noisy first line (umad error) is reported, not fatal; three
 * self-loop cables on the SwitchIB are reported and kept out of the tree;
 * the SX6012 is named from "MF0;switch-de779e:SX6012/U1"; r-ufm101 has two
 * HCAs (multi-rail) on one leaf; r-ufm96 at 4xSDR among QDR is degraded.
 * The two leaves are cabled to each other with no switch above them, so a
 * virtual root joins them. */
static void test_3topo(void **state)
{
	/* its hosts are named r-ufm*: fabric managers by name, so every host */
	struct fst_opts all = { .all_hosts = 1 };
	struct fst_model *m = _load(tf_fixture("ibnetdiscover", "3.topo"), &all);
	char *conf, *blk, *yaml;

	assert_int_equal(_count_issue(m, FST_ISSUE_IGNORED_LINE), 1);
	assert_int_equal(_count_issue(m, FST_ISSUE_SELF_LOOP), 3);
	assert_int_equal(_count_issue(m, FST_ISSUE_DEGRADED_LINK), 1);
	assert_int_equal(_count_role(m, FST_ROLE_LEAF), 2);
	assert_int_equal(m->nhosts, 5);
	assert_int_equal(m->hosts[fst_find_host(m, "r-ufm101")].nhcas, 2);
	assert_true(fst_find_device(m, "switch-de779e") >= 0);
	conf = _export(m, 0);
	_assert_valid_tree(conf, 5);
	assert_non_null(strstr(conf, "SwitchName=switch-de779e Nodes=r-ufm[96,100-101]"));
	assert_non_null(strstr(conf, "SwitchName=fabric Switches="));
	blk = _export(m, 1);
	assert_non_null(strstr(blk, "BlockName=switch-de779e Nodes=r-ufm[96,100-101]"));
	assert_non_null(strstr(blk, "BlockSizes=2,4"));
	yaml = _export(m, 2);
	assert_non_null(strstr(yaml, "- topology: fabric_tree"));
	assert_non_null(strstr(yaml, "block_sizes:"));
	free(conf);
	free(blk);
	free(yaml);
	fst_model_free(m);
}

/* A file's contents, malloc'ed. */
/*
 * director.topo: one director chassis (CS7500), its line ASICs L01, L02
 * and spine ASICs S01, S02 under one system image GUID, every description
 * "MF0;core1:CS7500/<slot>/U1".  Each ASIC is named after the chassis and
 * its slot (they all named themselves "core1", so each fell back to its
 * S-<guid>); the export is the expected file beside it (but for its
 * first line, which names the input as given); the report shows one
 * chassis.
 */
static void test_director(void **state)
{
	struct fst_opts all = { .all_hosts = 1 };
	struct fst_model *m = _load(tf_fixture("ibnetdiscover", "director.topo"), &all);
	char want_path[4200], *conf, *want, *rep = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&rep, &len);
	char name[64];

	(void)state;
	fst_names_switch("MF0;lassen-ibcore2-mgt1:CS7500/S18/U1", name, sizeof(name));
	assert_string_equal(name, "lassen-ibcore2-mgt1-S18");
	fst_names_switch("MF0;ib-switch-sequoia:MQM9700/U1", name, sizeof(name));
	assert_string_equal(name, "ib-switch-sequoia");
	fst_names_switch("MF0;core1:CS8500/L05/U2", name, sizeof(name));
	assert_string_equal(name, "core1-L05-U2");
	assert_int_equal(_count_issue(m, FST_ISSUE_NAME), 0);
	assert_true(fst_find_device(m, "core1-S02") >= 0);
	conf = _export(m, 0);
	snprintf(want_path, sizeof(want_path), "%s.tree",
		 tf_fixture("ibnetdiscover", "director.topo"));
	want = tf_slurp(want_path, NULL);
	/* the first line names the input as given */
	assert_non_null(strchr(conf, '\n'));
	assert_non_null(strchr(want, '\n'));
	assert_string_equal(strchr(conf, '\n') + 1, strchr(want, '\n') + 1);
	assert_non_null(out);
	fst_report(m, out, 0);
	fclose(out);
	assert_non_null(strstr(rep, "director chassis: 1\n"));
	assert_non_null(strstr(rep, "  core1 0x7cfe900300a0b000: 4 switch ASICs; leaves core1-L01, "
				    "core1-L02; above them core1-S01, core1-S02\n"));
	free(rep);
	free(want);
	free(conf);
	fst_model_free(m);
}

/* JSON: write, read back, write again: identical. */
/* without a node list: the built-in names of hosts that are not compute */
static void test_noncompute_names(void **state)
{
	static const struct {
		const char *host, *why;
	} cases[] = {
		{ "ubuntu", "os-default-name" },
		{ "debian-12", "os-default-name" },
		{ "CentOS7", "os-default-name" },
		{ "localhost", "os-default-name" },
		{ "ufm01", "fabric-manager-host" },
		{ "ufm-server", "fabric-manager-host" },
		{ "sm-1", "fabric-manager-host" },
		{ "opensm", "fabric-manager-host" },
		{ "subnet-manager", "fabric-manager-host" },
		{ "r510gluster1", "storage-host" },
		{ "lustre-oss3", "storage-host" },
		{ "nas02", "storage-host" },
		{ "ddn-sfa1", "storage-host" },
		{ "pg-compute-ufm001", "fabric-manager-host" },
		{ "lassenufm2", "fabric-manager-host" },
		{ "r12-c03-CUFM-02", "fabric-manager-host" },
		{ "r-ufm216", "fabric-manager-host" },
		{ "pg-login-mgmt001", "management-host" },
		{ "head-mgt1", "management-host" },
		{ "clustermgmt3", "management-host" },
		{ "login2", "management-host" },
		{ "n001", NULL },
		{ "ubuntu-gpu1", NULL },
		{ "gpu-smx-4", NULL },
		{ "sl390lin101", NULL },
		{ "smp01", NULL },
		{ "boss1", NULL },
		{ "x5570comp1", NULL },
		{ "gpu-a100-07", NULL },
	};
	struct fst_opts o = { 0 };
	struct fst_model *m;
	char map[4096];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = fst_noncompute_name(cases[i].host);

		if ((why == NULL) != (cases[i].why == NULL) || (why && strcmp(why, cases[i].why)))
			fail_msg("%s: %s, expected %s", cases[i].host, why ? why : "compute",
				 cases[i].why ? cases[i].why : "compute");
	}
	/* X5: its 4 gluster servers are reported, the 82 others are nodes */
	snprintf(map, sizeof(map), "%s", tf_fixture("ibnetdiscover", "X5.map"));
	o.name_map = map;
	m = _load(tf_fixture("ibnetdiscover", "X5.topofile"), &o);
	assert_int_equal(m->nhosts, 82);
	assert_int_equal(fst_find_host(m, "r510gluster1"), -1);
	assert_true(fst_find_host(m, "x5570comp1") >= 0);
	assert_int_equal(_count_role(m, FST_ROLE_NONCOMPUTE), 7);
	fst_model_free(m);
	/* a node list, an --exclude or all_hosts: no built-in names */
	o.exclude_regex = "^nomatch$";
	m = _load(tf_fixture("ibnetdiscover", "X5.topofile"), &o);
	assert_int_equal(m->nhosts, 86);
	fst_model_free(m);
}

/* The HCA of host NAME (its first), -1 none. */
static int _hca_of(const struct fst_model *m, const char *name)
{
	for (int d = 0; d < m->ndevs; d++)
		if (m->devs[d].type == FST_HCA && m->devs[d].name && !strcmp(m->devs[d].name, name))
			return d;
	return -1;
}

/* Hosts with names of no mark that the cabling shows are not compute
 * nodes: on a spine, on a core switch, one HCA among dual-rail hosts of
 * another name form; a dead rail and a leaf of one host keep their hosts */
static void test_evidence(void **state)
{
	static const struct {
		const char *host, *why;
	} cases[] = {
		{ "fabmon1", "hca-on-spine" },
		{ "headnode2", "hca-on-core" },
		{ "jump01", "single-rail-host" },
	};
	struct fst_opts o = { 0 };
	struct fst_model *m;
	int d;

	(void)state;
	m = _load(tf_fixture("ibnetdiscover", "evidence.topo"), &o);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		d = _hca_of(m, cases[i].host);
		assert_true(d >= 0);
		assert_int_equal(m->devs[d].role, FST_ROLE_NONCOMPUTE);
		assert_string_equal(m->devs[d].reason, cases[i].why);
		assert_int_equal(fst_find_host(m, cases[i].host), -1);
	}
	assert_int_equal(m->nhosts, 9);		      /* gpu001..gpu009 */
	assert_true(fst_find_host(m, "gpu008") >= 0); /* its second rail is dead */
	assert_true(fst_find_host(m, "gpu009") >= 0); /* alone on leaf2c */
	assert_int_equal(m->devs[fst_find_device(m, "spine1a")].level, 1);
	assert_int_equal(m->devs[fst_find_device(m, "core1")].level, 2);
	assert_int_equal(m->devs[fst_find_device(m, "core1")].role, FST_ROLE_SPINE);
	assert_int_equal(m->devs[fst_find_device(m, "leaf2c")].role, FST_ROLE_LEAF);
	assert_int_equal(_count_role(m, FST_ROLE_LEAF), 6);
	assert_int_equal(m->max_level, 2);
	fst_model_free(m);
	/* the node list wins: a host it names is a compute node */
	o.nodelist = "gpu[001-009],fabmon1,headnode2,jump01";
	m = _load(tf_fixture("ibnetdiscover", "evidence.topo"), &o);
	assert_int_equal(m->nhosts, 12);
	fst_model_free(m);
	/* and so does --all-hosts */
	o.nodelist = NULL;
	o.all_hosts = 1;
	m = _load(tf_fixture("ibnetdiscover", "evidence.topo"), &o);
	assert_int_equal(m->nhosts, 12);
	fst_model_free(m);
}

static struct fst_model *_raw(const char *name)
{
	struct fst_model *m = NULL;
	char err[512] = "";

	if (fst_parse_ibnet_file(&m, tf_fixture("ibnetdiscover", name), err, sizeof(err)))
		fail_msg("%s", err);
	return m;
}

/* two rails of one fabric (ibnetdiscover from each plane under ibsim):
 * merged, each host is one node with an HCA on each plane */
static void test_merge_rails(void **state)
{
	struct fst_opts o = { 0 };
	struct fst_model *m = _raw("rail0.topo"), *r1 = _raw("rail1.topo");
	char err[512];
	int h;

	(void)state;
	o.all_hosts = 1;
	assert_int_equal(fst_model_merge(m, r1, err, sizeof(err)), 0);
	fst_model_free(r1);
	/* the same plane again changes nothing */
	r1 = _raw("rail0.topo");
	assert_int_equal(fst_model_merge(m, r1, err, sizeof(err)), 0);
	fst_model_free(r1);
	assert_int_equal(fst_classify(m, &o, err, sizeof(err)), 0);
	assert_int_equal(m->ndevs, 14);
	assert_int_equal(m->nlinks, 12);
	assert_int_equal(m->nplanes, 2);
	assert_int_equal(m->nhosts, 4);
	h = fst_find_host(m, "n003");
	assert_true(h >= 0);
	assert_int_equal(m->hosts[h].nhcas, 2);
	fst_model_free(m);
}

/* FabricComputeHca: the plane of the HCA named gives racks */
static void test_compute_hca(void **state)
{
	struct fst_opts o = { .all_hosts = 1 };
	struct fst_model *m = _raw("rail0.topo"), *r1 = _raw("rail1.topo");
	char err[512];
	int h, infos = 0, warns = 0;

	(void)state;
	assert_int_equal(fst_model_merge(m, r1, err, sizeof(err)), 0);
	fst_model_free(r1);
	o.compute_hca = "mlx5_1";
	assert_int_equal(fst_classify(m, &o, err, sizeof(err)), 0);
	for (h = 0; h < m->nhosts; h++)
		assert_non_null(strstr(m->devs[m->hosts[h].leaf].name, "-r1"));
	for (int i = 0; i < m->nissues; i++)
		if (m->issues[i].kind == FST_ISSUE_COMPUTE_HCA)
			infos +=
				!!strstr(m->issues[i].msg, "FabricComputeHca=mlx5_1: 4 of 4 nodes");
	assert_int_equal(infos, 1);
	fst_model_free(m);
	/* without it: the first plane; on a plane without that HCA: warned */
	o.compute_hca = NULL;
	m = _raw("rail0.topo");
	r1 = _raw("rail1.topo");
	assert_int_equal(fst_model_merge(m, r1, err, sizeof(err)), 0);
	fst_model_free(r1);
	assert_int_equal(fst_classify(m, &o, err, sizeof(err)), 0);
	for (h = 0; h < m->nhosts; h++)
		assert_non_null(strstr(m->devs[m->hosts[h].leaf].name, "-r0"));
	fst_model_free(m);
	o.compute_hca = "mlx5_1";
	m = _load(tf_fixture("ibnetdiscover", "rail0.topo"), &o);
	for (int i = 0; i < m->nissues; i++)
		warns += m->issues[i].kind == FST_ISSUE_COMPUTE_HCA &&
			 m->issues[i].severity == FST_WARNING;
	assert_int_equal(warns, 4);
	fst_model_free(m);
}

static int _collect(const char *line, void *arg)
{
	char *buf = arg;

	strcat(buf, line);
	strcat(buf, "\n");
	return 0;
}

/* one host unplugged between two discoveries: its lines; and back */
static void test_model_changes(void **state)
{
	struct fst_opts o = { 0 };
	struct fst_model *a = _load(tf_fixture("ibnetdiscover", "rail0.topo"), &o);
	struct fst_model *b = _load(tf_fixture("ibnetdiscover", "rail0-down.topo"), &o);
	struct fst_model *c = _load(tf_fixture("ibnetdiscover", "rail0.topo"), &o);
	char got[4096] = "";

	(void)state;
	assert_int_equal(fst_model_changes(a, c, _collect, got), 0);
	assert_string_equal(got, "");
	assert_int_equal(fst_model_changes(a, b, _collect, got), 2);
	assert_string_equal(got, "n002 mlx5_0: gone\n"
				 "leaf01-r0 port 2 (n002 mlx5_0): link down\n");
	got[0] = '\0';
	assert_int_equal(fst_model_changes(b, a, _collect, got), 2);
	assert_string_equal(got, "n002 mlx5_0: new\n"
				 "leaf01-r0 port 2 (n002 mlx5_0): link up (4xHDR)\n");
	fst_model_free(a);
	fst_model_free(b);
	fst_model_free(c);
}

static int _grown(const struct fst_counter *c, int k, uint64_t grown, void *arg)
{
	char *buf = arg;

	sprintf(buf + strlen(buf), "%llx:%d %s +%llu\n", (unsigned long long)c->guid, c->port,
		fs_ib_counter_name(k), (unsigned long long)grown);
	return 0;
}

/* link counters: text round trip, growth over the limits, a cleared
 * counter starting anew, a port new this cycle, malformed files */
static void test_link_counters(void **state)
{
	struct fst_counters prev = { 0 }, cur = { 0 }, back;
	struct fs_ib_err_limits lim;
	char path[] = "/tmp/fs-counters-XXXXXX", err[512], got[1024] = "";
	const uint64_t a[] = { 5, 1, 0 }, b[] = { 100, 0, 3 };
	const uint64_t a2[] = { 16, 2, 0 }, b2[] = { 3, 0, 14 }, c2[] = { 900, 9, 9 };
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(fs_ib_parse_err_limits("FabricErrorLimits", FS_IB_ERR_LIMITS_DEFAULT, &lim,
						err, sizeof(err)),
			 0);
	assert_int_equal(fst_counters_add(&prev, 0x20, 3, 0, a), 0);
	assert_int_equal(fst_counters_add(&prev, 0x10, 1, 1, b), 0);
	assert_non_null(f = fdopen(fd, "w"));
	assert_int_equal(fst_counters_write(&prev, f), 0);
	fclose(f);
	assert_int_equal(fst_counters_read(&back, path, err, sizeof(err)), 0);
	assert_int_equal(back.n, 2); /* read back sorted by node and port */
	assert_true(back.v[0].guid == 0x10 && back.v[0].port == 1 && back.v[0].dev == -1);
	assert_memory_equal(back.v[0].v, b, sizeof(b));
	/* 0x20:3 symbol +11 (> 10) and link downed +1 (> 0); 0x10:1 symbol
	   cleared (100 -> 3: no report), rcv +11; 0x30:2 new: nothing */
	assert_int_equal(fst_counters_add(&cur, 0x10, 1, 1, b2), 0);
	assert_int_equal(fst_counters_add(&cur, 0x20, 3, 0, a2), 0);
	assert_int_equal(fst_counters_add(&cur, 0x30, 2, 2, c2), 0);
	assert_int_equal(fst_counters_grown(&back, &cur, &lim, _grown, got), 3);
	assert_string_equal(got, "10:1 PortRcvErrors +11\n"
				 "20:3 SymbolErrorCounter +11\n"
				 "20:3 LinkDownedCounter +1\n");
	lim.on[FS_IB_SYMBOL_ERRORS] = false;
	assert_int_equal(fst_counters_grown(&back, &cur, &lim, NULL, NULL), 2);
	fst_counters_clear(&back);
	fst_counters_clear(&prev);
	fst_counters_clear(&cur);
	/* a malformed line: the file and line named, nothing kept */
	assert_non_null(f = fopen(path, "w"));
	fputs("# fabsched link counters 1\n0x10 1 0 0 0\n0x10 1 0 zero 0\n", f);
	fclose(f);
	assert_int_equal(fst_counters_read(&back, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":3: not a counter line; expected"));
	assert_int_equal(back.n, 0);
	/* a port twice */
	assert_non_null(f = fopen(path, "w"));
	fputs("0x10 1 0 0 0\n0x20 1 0 0 0\n0x10 1 5 0 0\n", f);
	fclose(f);
	assert_int_equal(fst_counters_read(&back, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "node 0x0000000000000010 port 1 is listed twice; expected"));
	unlink(path);
	assert_int_equal(fst_counters_read(&back, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open"));
}

/* switch hops between leaves: one leaf 0, two leaves under a spine 2 */
static void test_switch_hops(void **state)
{
	struct fst_opts o = { 0 };
	struct fst_model *m = _load(tf_fixture("ibnetdiscover", "rail0.topo"), &o);
	int l1 = m->hosts[fst_find_host(m, "n001")].leaf, other = -1;

	(void)state;
	for (int h = 0; h < m->nhosts && other < 0; h++)
		if (m->hosts[h].leaf != l1)
			other = m->hosts[h].leaf;
	assert_true(other >= 0);
	assert_int_equal(fst_switch_hops(m, l1, l1), 0);
	assert_int_equal(fst_switch_hops(m, l1, other), 2);
	assert_int_equal(fst_switch_hops(m, other, l1), 2);
	assert_int_equal(fst_switch_hops(m, l1, m->hosts[0].hcas[0]), -1);
	fst_model_free(m);
}

static void test_json_roundtrip(void **state)
{
	struct fst_opts o = { 0 };
	struct fst_model *m, *m2;
	char *a, *b, err[512], map[4096];

	snprintf(map, sizeof(map), "%s", tf_fixture("ibnetdiscover", "X5.map"));
	o.name_map = map;
	o.all_hosts = 1;
	m = _load(tf_fixture("ibnetdiscover", "X5.topofile"), &o);
	a = fst_json_string(m, err, sizeof(err));
	assert_non_null(a);
	assert_int_equal(fst_json_read_buf(&m2, a, strlen(a), "x5.json", err, sizeof(err)), 0);
	b = fst_json_string(m2, err, sizeof(err));
	assert_non_null(b);
	assert_string_equal(a, b);
	assert_int_equal(m2->nhosts, 86);
	assert_int_equal(m2->hosts[fst_find_host(m2, "sl390lin1")].rank,
			 m->hosts[fst_find_host(m, "sl390lin1")].rank);
	free(a);
	free(b);
	fst_model_free(m);
	fst_model_free(m2);
}

static void test_json_errors(void **state)
{
	struct fst_model *m = (void *)1;
	char err[512];
	const char *bad1 = "{\"format\": \"fabsched-topology\", \"version\": 1,\n \"switches\": [";
	const char *bad2 = "{\"format\": \"other\", \"version\": 1}";

	assert_int_equal(fst_json_read_buf(&m, bad1, strlen(bad1), "b.json", err, sizeof(err)), -1);
	assert_null(m);
	assert_non_null(strstr(err, "b.json:2:"));
	assert_int_equal(fst_json_read_buf(&m, bad2, strlen(bad2), "c.json", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "format"));
}

/* A copy of the cache fixture, one byte changed (at >= 0), cut to len
 * bytes (0: whole) or with a byte added (len < 0), in a temporary file;
 * at -2: the first switch's node type set to value. */
static const char *_cache_variant(long at, int value, long len)
{
	static char p[64];
	FILE *in = fopen(tf_fixture("ibnetdiscover", "fattree-4hosts.cache"), "rb"), *out;
	unsigned char b[8192];
	size_t n;
	int fd;

	assert_non_null(in);
	n = fread(b, 1, sizeof(b) - 1, in);
	fclose(in);
	if (at == -2) { /* the first switch's type */
		for (size_t o = 28; o + 207 <= n; o += 207 + 9 * (size_t)b[o + 206])
			if (b[o + 76] == 2) {
				b[o + 76] = (unsigned char)value;
				break;
			}
	} else if (at >= 0) {
		b[at] = (unsigned char)value;
	}
	if (len > 0)
		n = (size_t)len;
	else if (len < 0)
		b[n++] = 0;
	snprintf(p, sizeof(p), "/tmp/test_topo_cache.XXXXXX");
	fd = mkstemp(p);
	assert_true(fd >= 0);
	out = fdopen(fd, "wb");
	assert_non_null(out);
	assert_int_equal(fwrite(b, 1, n, out), n);
	fclose(out);
	return p;
}

/* ibnetdiscover cache files: checked before libibnetdisc reads them. */
static void test_cache_file(void **state)
{
	/* the first port record: after the header and the 8 nodes' records */
	const long port0 = 4180 - 24 * 95;
	struct fst_model *m = NULL;
	char err[512];
	const char *p;
	static const struct {
		long at;
		int value;
		long len;
		const char *why;
	} bad[] = {
		{ 0, 0, 0, "cache header" },
		{ -1, 0, 100, "beyond the file's size" },
		{ -1, 0, -1, "fill the rest of the file exactly" },
		/* LMC 16: libibnetdisc's LID table loops without end */
		{ port0 + 12, 16, 0, "LMC above 7" },
		/* the first node (a CA, 1 port) with 0 ports: its port 1 would
		   be written past its port array */
		{ 28 + 77, 0, 0, "fewer ports" },
		/* the node type */
		{ 28 + 76, 9, 0, "node type" },
		/* a switch made a CA: its port 0 (libibnetdisc leaked it) */
		{ -2, 1, 0, "port 0 on a CA" },
	};

	(void)state;
	if (!fst_have_ibnetdisc())
		skip();
	assert_int_equal(fst_load_cache(&m, tf_fixture("ibnetdiscover", "fattree-4hosts.cache"),
					err, sizeof(err)),
			 0);
	assert_int_equal(m->ndevs, 8);
	fst_model_free(m);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = _cache_variant(bad[i].at, bad[i].value, bad[i].len);
		m = (void *)1;
		err[0] = '\0';
		assert_int_equal(fst_load_cache(&m, p, err, sizeof(err)), -1);
		assert_null(m);
		if (!strstr(err, bad[i].why) || !strstr(err, "expected"))
			fail_msg("case %zu: %s", i, err);
		unlink(p);
	}
}

/* Malformed input: file:line and the expected form. */
static void test_parse_errors(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "Switch 8 \"S-1\"\n[99] \"H-2\"[1]\n", "<t>:2: port 99 out of range" },
		{ "Switch x \"S-1\"\n", "<t>:1: bad port count; expected" },
		{ "\n\n[1] \"H-2\"[1]\n", "<t>:3: port line outside" },
		{ "Ca 1 \"H-2\"\n[1] S-1[1]\n", "<t>:2: missing quoted remote id" },
		{ "Ca 1 \"H-2\"\n\nCa 1 \"H-2\"\n", "<t>:3: duplicate node record" },
		{ "just some text\n", "<t>:1: no 'Switch' or 'Ca' record" },
		{ "switchguid=0xZZ\n", "<t>:1: bad hexadecimal value" },
		{ "Switch 4 \"S-1\"\n[1] \"H-2\"[1]\n[1] \"H-3\"[1]\n",
		  "<t>:3: port listed twice" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fst_model *m = NULL;
		char err[512] = "";

		assert_int_equal(fst_parse_ibnet_buf(&m, cases[i].text, strlen(cases[i].text),
						     "<t>", err, sizeof(err)),
				 -1);
		assert_null(m);
		if (!strstr(err, cases[i].want))
			print_error("case %zu: got \"%s\", want \"%s\"\n", i, err, cases[i].want);
		assert_non_null(strstr(err, cases[i].want));
	}
}

/* Names: first word, default descriptions, SHARP, regex, node list,
 * multi-rail on two planes, non-compute leaf is not a spine. */
static const char *_fabric_text =
	"Switch 8 \"S-a1\" # \"leafA\"\n"
	"[1] \"H-01\"[1] # \"n001 mlx5_0\" lid 1 4xHDR\n"
	"[2] \"H-02\"[1] # \"n002.example.com mlx5_0\" lid 2 4xHDR\n"
	"[3] \"S-s1\"[1] # \"spine1\" lid 3 4xHDR\n"
	"[4] \"H-05\"[1] # \"localhost mlx5_0\" lid 4 4xHDR\n"
	"\n"
	"Switch 8 \"S-a2\" # \"MF0;leafB:MQM8700/U1\"\n"
	"[1] \"H-03\"[1] # \"MT4129 ConnectX7   Mellanox Technologies\" lid 5 4xHDR\n"
	"[2] \"S-s1\"[2] # \"spine1\" lid 3 4xHDR\n"
	"[3] \"H-07\"[1] # \"n003 mlx5_0\" lid 9 4xHDR\n"
	"\n"
	"Switch 8 \"S-s1\" # \"spine1\"\n"
	"[1] \"S-a1\"[3] # \"leafA\" lid 1 4xHDR\n"
	"[2] \"S-a2\"[2] # \"leafB\" lid 1 4xHDR\n"
	"[3] \"S-st\"[1] # \"storleaf\" lid 1 4xHDR\n"
	"[8] \"H-06\"[1] # \"Mellanox Technologies Aggregation Node\" lid 8 4xHDR\n"
	"\n"
	"Switch 8 \"S-st\" # \"storleaf\"\n"
	"[1] \"S-s1\"[3] # \"spine1\" lid 3 4xHDR\n"
	"[2] \"H-04\"[1] # \"nfs01 mlx5_0\" lid 7 4xHDR\n"
	"\n"
	"Switch 8 \"S-b1\" # \"rail1-leaf\"\n"
	"[1] \"H-11\"[1] # \"n001 mlx5_1\" lid 1 4xHDR\n"
	"[2] \"H-12\"[1] # \"n002 mlx5_1\" lid 1 4xHDR\n"
	"\n"
	"Ca 1 \"H-01\" # \"n001 mlx5_0\"\n[1] \"S-a1\"[1] # lid 1 lmc 0 \"leafA\" lid 9 4xHDR\n\n"
	"Ca 1 \"H-02\" # \"n002.example.com mlx5_0\"\n[1] \"S-a1\"[2]\n\n"
	"Ca 1 \"H-03\" # \"MT4129 ConnectX7   Mellanox Technologies\"\n[1] \"S-a2\"[1]\n\n"
	"Ca 1 \"H-04\" # \"nfs01 mlx5_0\"\n[1] \"S-st\"[2]\n\n"
	"Ca 1 \"H-05\" # \"localhost mlx5_0\"\n[1] \"S-a1\"[4]\n\n"
	"Ca 1 \"H-06\" # \"Mellanox Technologies Aggregation Node\"\n[1] \"S-s1\"[8]\n\n"
	"Ca 1 \"H-07\" # \"n003 mlx5_0\"\n[1] \"S-a2\"[3]\n\n"
	"Ca 1 \"H-11\" # \"n001 mlx5_1\"\n[1] \"S-b1\"[1]\n\n"
	"Ca 1 \"H-12\" # \"n002 mlx5_1\"\n[1] \"S-b1\"[2]\n";

static struct fst_model *_small(const struct fst_opts *o)
{
	struct fst_model *m;
	char err[512] = "";

	assert_int_equal(fst_parse_ibnet_buf(&m, _fabric_text, strlen(_fabric_text), "small", err,
					     sizeof(err)),
			 0);
	if (fst_classify(m, o, err, sizeof(err)))
		print_error("%s\n", err);
	assert_true(m->classified);
	return m;
}

static void test_names_and_roles(void **state)
{
	struct fst_opts o = { .exclude_regex = "^nfs" };
	struct fst_model *m = _small(&o);
	const struct fst_device *d;
	char *conf;

	assert_int_equal(m->nhosts, 3);				       /* n001 n002 n003 */
	assert_int_equal(m->hosts[fst_find_host(m, "n001")].nhcas, 2); /* two rails */
	assert_true(fst_find_host(m, "n002") >= 0);		       /* domain stripped */
	d = &m->devs[fst_find_device(m, "H-03")];
	assert_string_equal(d->reason, "default-description");
	assert_string_equal(m->devs[fst_find_device(m, "H-05")].reason, "localhost");
	assert_string_equal(m->devs[fst_find_device(m, "H-06")].reason, "sharp-aggregation-node");
	assert_string_equal(m->devs[fst_find_device(m, "H-04")].reason, "excluded");
	assert_int_equal(m->devs[fst_find_device(m, "storleaf")].role, FST_ROLE_HOST_LEAF);
	assert_int_equal(m->devs[fst_find_device(m, "spine1")].role, FST_ROLE_SPINE); /* SHARP AN */
	assert_int_equal(m->devs[fst_find_device(m, "spine1")].level, 1);
	assert_int_equal(m->devs[fst_find_device(m, "leafB")].role, FST_ROLE_LEAF);
	assert_int_equal(m->nplanes, 2);
	/* n001 is in plane0 under leafA only, once */
	assert_int_equal(m->hosts[fst_find_host(m, "n001")].leaf, fst_find_device(m, "leafA"));
	conf = _export(m, 0);
	_assert_valid_tree(conf, 3);
	assert_null(strstr(conf, "rail1-leaf")); /* nothing left for plane1 */
	assert_non_null(strstr(conf, "SwitchName=spine1 Switches=leaf[A-B]") ||
			strstr(conf, "SwitchName=spine1 Switches=leafA,leafB"));
	free(conf);
	fst_model_free(m);
}

static void test_nodelist_regex_racks(void **state)
{
	char rk[] = "/tmp/fst_test_racks_XXXXXX";
	int fd = mkstemp(rk);
	FILE *f = fdopen(fd, "w");
	struct fst_opts o = { .nodelist = "n[001-002],n999",
			      .host_regex = "^(n[0-9]+)",
			      .rack_map = rk };
	struct fst_model *m;

	fprintf(f, "# rack nodes\nrackX n[001-002]\n");
	fclose(f);
	m = _small(&o);
	unlink(rk);
	assert_int_equal(m->nhosts, 2);
	assert_string_equal(m->devs[fst_find_device(m, "H-07")].reason, "not-in-nodelist");
	assert_string_equal(m->devs[fst_find_device(m, "H-04")].reason, "regex-mismatch");
	assert_int_equal(_count_issue(m, FST_ISSUE_MISSING_NODE), 1);
	assert_int_equal(m->nracks, 1);
	assert_string_equal(m->racks[0].name, "rackX");
	/* leafB has no compute node left: not a leaf with nodes, not a spine */
	assert_int_equal(m->devs[fst_find_device(m, "leafB")].role, FST_ROLE_HOST_LEAF);
	fst_model_free(m);
	/* a rack line naming more hosts than a subnet has LIDs: refused,
	 * naming the file and line, before anything is expanded */
	{
		char rk2[] = "/tmp/fst_test_racks_XXXXXX", err[512] = "";
		int fd2 = mkstemp(rk2);
		FILE *f2 = fdopen(fd2, "w");
		struct fst_opts o2 = { .rack_map = rk2 };

		fprintf(f2, "rackX n[001-002]\nrackY x[0-999]y[0-999]\n");
		fclose(f2);
		assert_int_equal(fst_parse_ibnet_buf(&m, _fabric_text, strlen(_fabric_text),
						     "small", err, sizeof(err)),
				 0);
		assert_int_not_equal(fst_classify(m, &o2, err, sizeof(err)), 0);
		unlink(rk2);
		assert_non_null(strstr(err, ":2: hostlist"));
		assert_non_null(strstr(err, "at most 49151"));
		fst_model_free(m);
	}
}

static void test_hostlist(void **state)
{
	char **v, err[256], *s;
	int n;
	char *names[] = { "n003", "n001", "n002", "gpu10", "gpu9", "x", "n010" };

	assert_int_equal(fst_hostlist_expand("n[001-003,10],gpu[1-2]x,a", &v, &n, err, sizeof(err)),
			 0);
	assert_int_equal(n, 7);
	assert_string_equal(v[3], "n10");
	assert_string_equal(v[5], "gpu2x");
	fst_strv_free(v, n);
	assert_int_equal(fst_hostlist_expand("n[3-1]", &v, &n, err, sizeof(err)), -1);
	assert_int_equal(fst_hostlist_expand("n[1-", &v, &n, err, sizeof(err)), -1);
	/* counted before expanding: refused with nothing allocated */
	assert_int_equal(
		fst_hostlist_expand_max("a[0-9]b[0-9]c[0-9]", 1000, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1000);
	fst_strv_free(v, n);
	assert_int_equal(
		fst_hostlist_expand_max("a[0-9]b[0-9]c[0-9],x", 1000, &v, &n, err, sizeof(err)),
		-1);
	assert_null(v);
	assert_non_null(strstr(err, "more than 1000 hosts"));
	assert_int_equal(fst_hostlist_expand_max("n[1-40],m[1-40]", 79, &v, &n, err, sizeof(err)),
			 -1);
	assert_int_equal(fst_hostlist_expand_max("n[1-40],m[1-40]", 80, &v, &n, err, sizeof(err)),
			 0);
	fst_strv_free(v, n);
	/* the largest number a range can hold ends the range (found by
	 * fuzz_files: the loop wrapped round for ever) */
	assert_int_equal(fst_hostlist_expand("n[18446744073709551614-18446744073709551615]", &v, &n,
					     err, sizeof(err)),
			 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[1], "n18446744073709551615");
	fst_strv_free(v, n);
	/* a short line that names a trillion hosts */
	assert_int_equal(
		fst_hostlist_expand("a[0-9999]b[0-9999]c[0-9999]", &v, &n, err, sizeof(err)), -1);
	assert_int_equal(fst_hostlist_expand("a[0-99999999999999999999]", &v, &n, err, sizeof(err)),
			 -1);
	s = fst_hostlist_compress(names, 7);
	assert_string_equal(s, "gpu[9-10],n[001-003,010],x");
	free(s);
	/* one bracket per prefix, as Slurm writes it: an unpadded number
	 * joins the padded ones its digits reach */
	{
		char *v2[] = { "gpu-c10", "gpu-c11", "gpu-c17", "gpu-c01", "gpu-c09",
			       "gpu-c02", "n1",	     "n01",	"n100" };

		s = fst_hostlist_compress(v2, 9);
		assert_string_equal(s, "gpu-c[01-02,09-11,17],n[1,01,100]");
		free(s);
	}
}

/* One HCA and no switch: nothing Slurm 25.11+ would start with. */
static void test_no_switch(void **state)
{
	static const char one[] = "vendid=0x2c9\ndevid=0x1017\nsysimgguid=0x1\ncaguid=0x1\n"
				  "Hca\t1 \"H-0000000000000001\"\t\t# \"n001 mlx5_0\"\n";
	struct fst_model *m = NULL;
	char err[512] = "", *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int found = 0;

	(void)state;
	assert_int_equal(
		fst_parse_ibnet_buf(&m, one, sizeof(one) - 1, "one.topo", err, sizeof(err)), 0);
	assert_int_equal(fst_classify(m, NULL, err, sizeof(err)), 0);
	for (int i = 0; i < m->nissues; i++)
		if (m->issues[i].kind == FST_ISSUE_NO_SWITCH &&
		    m->issues[i].severity == FST_PROBLEM)
			found = 1;
	assert_true(found);
	assert_int_equal(fst_export_tree(m, f, NULL, err, sizeof(err)), -1);
	assert_non_null(
		strstr(err, "one.topo: no switch in the fabric (1 HCA(s), 1 host(s), 0 switches)"));
	err[0] = 0;
	assert_int_equal(fst_export_block(m, f, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no switch"));
	err[0] = 0;
	assert_int_equal(fst_export_yaml(m, f, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "Slurm 25.11"));
	fclose(f);
	assert_int_equal(len, 0); /* nothing half-written */
	free(buf);
	fst_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x5),
		cmocka_unit_test(test_noncompute_names),
		cmocka_unit_test(test_evidence),
		cmocka_unit_test(test_merge_rails),
		cmocka_unit_test(test_compute_hca),
		cmocka_unit_test(test_model_changes),
		cmocka_unit_test(test_no_switch),
		cmocka_unit_test(test_1topo),
		cmocka_unit_test(test_1topo_map),
		cmocka_unit_test(test_3topo),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_cache_file),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_names_and_roles),
		cmocka_unit_test(test_nodelist_regex_racks),
		cmocka_unit_test(test_hostlist),
		cmocka_unit_test(test_link_counters),
		cmocka_unit_test(test_switch_hops),
		cmocka_unit_test(test_director),
	};

	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
