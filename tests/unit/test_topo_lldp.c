/*
 * test_topo_lldp.c — Ethernet fabrics from LLDP neighbour records
 * (fst_parse_lldp).  Fixtures in tests/fixtures/lldp (SOURCES.md there):
 * railopt/ and railopt-json/ are lldpd's own records of the cluster
 * harness's emulated fabric (8 nodes with 2 rails, 4 leaves, 2 spines) in
 * json0 and json form; railopt-snmp/ the same fabric's switches through
 * snmpd (LLDP-MIB walks) beside their JSON of the same run; speeds/
 * (SONiC leaves at 100G, one link at 40G; switches-snmp/ leaf-a's walk),
 * hostile/ and malformed/ are written by hand.  cmocka, TAP.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fabsched_topo.h"

static const char *_dir(const char *sub, char *buf, size_t n)
{
	const char *dir = getenv("FABSCHED_FIXTURES");

	if (!dir || !*dir)
		dir = access("tests/fixtures/lldp", R_OK) == 0 ? "tests/fixtures" : "../fixtures";
	snprintf(buf, n, "%s/lldp/%s", dir, sub);
	return buf;
}

/* The fixture @name (nodes/, and switches/ when @switches), classified. */
static struct fst_model *_load(const char *name, int switches, const struct fst_opts *o)
{
	struct fst_opts all = { .all_hosts = 1 };
	struct fst_model *m = NULL;
	char nd[4096], sd[4096], sub[256], err[1024] = "";

	snprintf(sub, sizeof(sub), "%s/nodes", name);
	_dir(sub, nd, sizeof(nd));
	snprintf(sub, sizeof(sub), "%s/switches", name);
	_dir(sub, sd, sizeof(sd));
	if (fst_parse_lldp(&m, nd, switches ? sd : NULL, err, sizeof(err)))
		fail_msg("%s: %s", nd, err);
	if (fst_classify(m, o ? o : &all, err, sizeof(err)))
		fail_msg("classify: %s", err);
	return m;
}

static char *_tree(const struct fst_model *m)
{
	struct fst_export_opts eo = { .plane = -1 };
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fst_export_tree(m, f, &eo, err, sizeof(err)), 0);
	fclose(f);
	/* the first line names the source directory */
	return buf;
}

static const char *_body(const char *tree)
{
	const char *nl = strchr(tree, '\n');

	return nl ? nl + 1 : tree;
}

static int _count(const struct fst_model *m, enum fst_issue_kind k)
{
	int n = 0;

	for (int i = 0; i < m->nissues; i++)
		n += m->issues[i].kind == k;
	return n;
}

static const struct fst_group *_rack(const struct fst_model *m, const char *name)
{
	for (int r = 0; r < m->nracks; r++)
		if (!strcmp(m->racks[r].name, name))
			return &m->racks[r];
	return NULL;
}

static void _rack_is(const struct fst_model *m, const char *rack, const char *hosts)
{
	const struct fst_group *g = _rack(m, rack);
	char **names = NULL, *got;

	assert_non_null(g);
	names = calloc((size_t)g->nmembers + 1, sizeof(*names));
	for (int i = 0; i < g->nmembers; i++)
		names[i] = m->hosts[g->members[i]].name;
	got = fst_hostlist_compress(names, g->nmembers);
	assert_string_equal(got, hosts);
	free(got);
	free(names);
}

/* lldpd's own json0 records of a two-rail leaf-spine fabric. */
static void test_railopt(void **state)
{
	struct fst_model *m = _load("railopt", 1, NULL);
	int leaf01 = fst_find_device(m, "leaf01"), n001 = fst_find_device(m, "H-n001-eth0");
	int sw = 0, hca = 0;

	(void)state;
	for (int d = 0; d < m->ndevs; d++) {
		sw += m->devs[d].type == FST_SWITCH;
		hca += m->devs[d].type == FST_HCA;
	}
	assert_int_equal(sw, 6);
	assert_int_equal(hca, 16);
	assert_int_equal(m->nhosts, 8);
	assert_int_equal(m->nlinks, 24);
	assert_int_equal(m->nplanes, 1);
	assert_int_equal(m->max_level, 1);
	assert_int_equal(m->nracks, 2);
	/* rail 0 (eth0, the first interface by name) makes racks */
	_rack_is(m, "leaf01", "n[001-004]");
	_rack_is(m, "leaf02", "n[005-008]");
	assert_true(leaf01 >= 0 && n001 >= 0);
	assert_int_equal(m->devs[leaf01].role, FST_ROLE_LEAF);
	assert_int_equal(m->devs[fst_find_device(m, "spine02")].role, FST_ROLE_SPINE);
	assert_string_equal(m->devs[n001].desc, "n001 eth0");
	/* n001 eth0 on leaf01 swp1: the port named, at the veth's 10 Gb/s */
	{
		const struct fst_port *pt = &m->devs[n001].ports[1];

		assert_int_equal(pt->peer, leaf01);
		assert_string_equal(m->devs[leaf01].ports[pt->peer_port].label, "swp1");
		assert_int_equal(m->links[pt->link].speed, FST_SPEED_GBE10);
		assert_int_equal(fst_link_mbps(m->links[pt->link].width, m->links[pt->link].speed),
				 10000);
	}
	/* leaf01: 4 hosts on swp1-4, spines on swp5-6 */
	assert_int_equal(m->devs[leaf01].nports, 6);
	assert_string_equal(m->devs[leaf01].ports[5].label, "swp5");
	assert_int_equal(_count(m, FST_ISSUE_DEGRADED_LINK), 0);
	assert_int_equal(_count(m, FST_ISSUE_ASYMMETRIC), 0);
	fst_model_free(m);
}

/* The same records in lldpcli's json form make the same fabric. */
static void test_json_form_same(void **state)
{
	struct fst_model *a = _load("railopt", 1, NULL), *b = _load("railopt-json", 1, NULL);
	char *ta = _tree(a), *tb = _tree(b);

	(void)state;
	assert_string_equal(_body(ta), _body(tb));
	assert_non_null(strstr(ta, "SwitchName=leaf01 Nodes=n[001-004] LinkSpeed=10000\n"));
	assert_non_null(strstr(ta, "SwitchName=spine01 Switches=leaf[01-02] LinkSpeed=10000\n"));
	assert_int_equal(a->nlinks, b->nlinks);
	free(ta);
	free(tb);
	fst_model_free(a);
	fst_model_free(b);
}

/* The nodes' records alone: the leaves (racks), no spines, a virtual root. */
static void test_nodes_only(void **state)
{
	struct fst_model *m = _load("railopt", 0, NULL);
	char *t = _tree(m);

	(void)state;
	assert_int_equal(m->nhosts, 8);
	assert_int_equal(m->nlinks, 16);
	assert_int_equal(m->max_level, 0);
	_rack_is(m, "leaf01", "n[001-004]");
	_rack_is(m, "leaf02", "n[005-008]");
	assert_non_null(strstr(t, "SwitchName=fabric Switches=leaf[01-02]\n"));
	free(t);
	fst_model_free(m);
}

/* --compute-hca eth1: the second rail's leaves make racks. */
static void test_compute_hca(void **state)
{
	struct fst_opts o = { .all_hosts = 1, .compute_hca = "eth1" };
	struct fst_model *m = _load("railopt", 1, &o);

	(void)state;
	_rack_is(m, "leaf03", "n[001-004]");
	_rack_is(m, "leaf04", "n[005-008]");
	assert_null(_rack(m, "leaf01"));
	fst_model_free(m);
}

/* MAU types give Ethernet speeds; a host link slower than its leaf's
 * others is degraded; SONiC's local port ids name the ports. */
static void test_speeds(void **state)
{
	struct fst_model *m = _load("speeds", 0, NULL);
	int g3 = fst_find_device(m, "H-gpu003-ens1f0np0"), found = 0;
	char *t = _tree(m), ws[32];

	(void)state;
	assert_true(g3 >= 0);
	assert_int_equal(m->links[m->devs[g3].ports[1].link].speed, FST_SPEED_GBE40);
	assert_non_null(strstr(t, "SwitchName=leaf-a Nodes=gpu[001-004] LinkSpeed=100000\n"));
	for (int i = 0; i < m->nissues; i++)
		if (m->issues[i].kind == FST_ISSUE_DEGRADED_LINK) {
			assert_non_null(strstr(m->issues[i].msg, "leaf-a port 3 (etp3): 40GbE"));
			assert_non_null(strstr(m->issues[i].msg, "runs 100GbE"));
			found++;
		}
	assert_int_equal(found, 1);
	assert_string_equal(fst_widthspeed(1, FST_SPEED_GBE100, ws, sizeof(ws)), "100GbE");
	assert_string_equal(fst_widthspeed(4, FST_SPEED_HDR, ws, sizeof(ws)), "4xHDR");
	free(t);
	fst_model_free(m);
}

/* Ethernet speeds and port labels through the JSON model. */
static void test_json_model(void **state)
{
	struct fst_model *m = _load("speeds", 0, NULL), *r = NULL;
	char err[512] = "", *js = fst_json_string(m, err, sizeof(err)), *t1, *t2;

	(void)state;
	assert_non_null(js);
	assert_non_null(strstr(js, "\"100GbE\""));
	assert_int_equal(fst_json_read_buf(&r, js, strlen(js), "mem", err, sizeof(err)), 0);
	t1 = _tree(m);
	t2 = _tree(r);
	assert_string_equal(_body(t1), _body(t2));
	assert_int_equal(
		r->links[r->devs[fst_find_device(r, "H-gpu003-ens1f0np0")].ports[1].link].speed,
		FST_SPEED_GBE40);
	free(t1);
	free(t2);
	free(js);
	fst_model_free(m);
	fst_model_free(r);
}

/* Strings off the wire that are not names are left out, with issues that
 * show them escaped; the rest of the record is read. */
static void test_hostile(void **state)
{
	struct fst_model *m = _load("hostile", 0, NULL);
	int n = 0;

	(void)state;
	assert_int_equal(m->nhosts, 1); /* n002, whose record is clean */
	assert_true(fst_find_device(m, "leaf02") >= 0);
	assert_int_equal(fst_find_device(m, "leaf03"), -1); /* its port was too long */
	for (int i = 0; i < m->nissues; i++) {
		const char *s = m->issues[i].msg;

		if (m->issues[i].kind != FST_ISSUE_IGNORED_LINE)
			continue;
		n++;
		for (; *s; s++)
			assert_true(*s >= ' ' && *s < 127);
	}
	assert_int_equal(n, 4);
	for (int d = 0; d < m->ndevs; d++) {
		assert_null(strchr(m->devs[d].id, ';'));
		assert_null(strchr(m->devs[d].id, '\033'));
		if (m->devs[d].name)
			assert_null(strchr(m->devs[d].name, '\033'));
	}
	fst_model_free(m);
}

static void _fails(const char *sub, const char *want)
{
	struct fst_model *m = (struct fst_model *)1;
	char dir[4096], err[1024] = "";

	if (sub[0] == '/')
		snprintf(dir, sizeof(dir), "%s", sub);
	else
		_dir(sub, dir, sizeof(dir));
	assert_int_equal(fst_parse_lldp(&m, dir, NULL, err, sizeof(err)), -1);
	assert_null(m);
	if (!strstr(err, want))
		fail_msg("%s: \"%s\" lacks \"%s\"", sub, err, want);
	if (!strstr(err, "expected") && !strstr(err, "cannot read"))
		fail_msg("%s: \"%s\" does not say what is expected", sub, err);
}

/* A json0 record at @dir/@name.json: @n neighbours, each "ifname system
 * port [mac]" (the neighbour's port id an interface name, or with a MAC
 * its MAC and the name as its description, as lldpd on Linux sends; a
 * system not called n0* says it bridges). */
static void _record(const char *dir, const char *name, const char *const *nb, int n)
{
	char path[4096], ifn[32], sys[32], port[32], mac[32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "{\"lldp\": [{\"interface\": [");
	for (int i = 0; i < n; i++) {
		int got = sscanf(nb[i], "%31s %31s %31s %31s", ifn, sys, port, mac);

		assert_true(got >= 3);
		fprintf(f,
			"%s{\"name\": \"%s\", \"chassis\": [{\"name\": [{\"value\": \"%s\"}], "
			"\"capability\": [{\"type\": \"Bridge\", \"enabled\": %s}]}], ",
			i ? ", " : "", ifn, sys, strncmp(sys, "n0", 2) ? "true" : "false");
		if (got == 4)
			fprintf(f,
				"\"port\": [{\"id\": [{\"type\": \"mac\", \"value\": \"%s\"}], "
				"\"descr\": [{\"value\": \"%s\"}]}]}",
				mac, port);
		else
			fprintf(f,
				"\"port\": [{\"id\": [{\"type\": \"ifname\", \"value\": \"%s\"}]}]}",
				port);
	}
	fprintf(f, "]}]}\n");
	fclose(f);
}

/* A sender on leaf02's ports calling itself n001 with three interfaces
 * n001's own record does not list: left out, each with a warning, and
 * n001 stays in leaf01's rack; with the interface n001's record sees on
 * leaf01 (eth0): left out as a problem, its MAC not taken for n001's.
 * Without a record of n001 (nothing to check against) the switch's word
 * is all there is, and is taken. */
static void test_spoofed_host(void **state)
{
	char dir[] = "/tmp/test_topo_lldp.XXXXXX", nd[64], sd[64], cmd[80], path[128];
	const char *l1[] = { "swp1 n001 eth0", "swp2 n002 eth0", "swp9 spine01 swp1" };
	const char *l2[] = { "swp1 n003 eth0",
			     "swp2 n004 eth0",
			     "swp9 spine01 swp2",
			     "swp5 n001 eth7",
			     "swp6 n001 eth8",
			     "swp7 n001 eth9",
			     "swp8 n001 eth0 02:00:00:00:00:66" };
	const char *hosts[] = { "eth0 leaf01 swp1", "eth0 leaf01 swp2", "eth0 leaf02 swp1",
				"eth0 leaf02 swp2" };
	struct fst_opts all = { .all_hosts = 1 };
	struct fst_model *m = NULL;
	char err[512] = "";
	int warned = 0, d;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(nd, sizeof(nd), "%s/nodes", dir);
	snprintf(sd, sizeof(sd), "%s/switches", dir);
	assert_int_equal(mkdir(nd, 0700), 0);
	assert_int_equal(mkdir(sd, 0700), 0);
	for (int h = 0; h < 4; h++) {
		char name[8];

		snprintf(name, sizeof(name), "n%03d", h + 1);
		_record(nd, name, &hosts[h], 1);
	}
	_record(sd, "leaf01", l1, 3);
	_record(sd, "leaf02", l2, 7);
	if (fst_parse_lldp(&m, nd, sd, err, sizeof(err)) || fst_classify(m, &all, err, sizeof(err)))
		fail_msg("%s", err);
	_rack_is(m, "leaf01", "n[001-002]");
	_rack_is(m, "leaf02", "n[003-004]");
	assert_int_equal(fst_find_device(m, "H-n001-eth8"), -1);
	for (int i = 0; i < m->nissues; i++)
		if (strstr(m->issues[i].msg, "which n001's own record does not list, left out")) {
			assert_int_equal(m->issues[i].kind, FST_ISSUE_ASYMMETRIC);
			warned++;
		}
	assert_int_equal(warned, 3);
	assert_true((d = fst_find_device(m, "H-n001-eth0")) >= 0);
	assert_true(m->devs[d].ports[1].guid == 0); /* leaf01 gives none, the sender's not taken */
	warned = 0;
	for (int i = 0; i < m->nissues; i++)
		if (strstr(m->issues[i].msg,
			   "leaf02 port swp8: neighbour n001 eth0, which n001's own "
			   "record sees linked elsewhere, left out")) {
			assert_int_equal(m->issues[i].severity, FST_PROBLEM);
			warned++;
		}
	assert_int_equal(warned, 1);
	fst_model_free(m);
	/* no record of n001 */
	snprintf(path, sizeof(path), "%s/n001.json", nd);
	assert_int_equal(unlink(path), 0);
	m = NULL;
	if (fst_parse_lldp(&m, nd, sd, err, sizeof(err)) || fst_classify(m, &all, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(fst_find_device(m, "H-n001-eth8") >= 0);
	for (int i = 0; i < m->nissues; i++)
		assert_null(strstr(m->issues[i].msg, "own record does not list"));
	fst_model_free(m);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_malformed(void **state)
{
	char tmp[] = "/tmp/test_topo_lldp.XXXXXX", path[256];
	FILE *f;

	(void)state;
	/* a file named other than <host>.json (made here: no such name in the tree) */
	assert_non_null(mkdtemp(tmp));
	snprintf(path, sizeof(path), "%s/n 001.json", tmp);
	assert_non_null(f = fopen(path, "w"));
	fputs("{\"lldp\": {}}\n", f);
	fclose(f);
	_fails(tmp, "n 001.json: the file's name is not a host name");
	unlink(path);
	rmdir(tmp);
	_fails("malformed/truncated/nodes", "n001.json:2: unexpected end of input");
	_fails("malformed/nolldp/nodes", "n001.json: no \"lldp\" object");
	_fails("malformed/ifnotobject/nodes", "\"eth0\" is not an object");
	_fails("malformed/empty/nodes", "no LLDP neighbour in any record");
	_fails("no-such-dir", "no-such-dir: cannot read the directory");
}

/* @path's modification time set to @t. */
static void _mtime(const char *path, time_t t)
{
	struct timespec ts[2] = { { t, 0 }, { t, 0 } };

	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* A record older than the maximum age is left out with an issue naming
 * its file and age (a node powered off keeps its last record); none is
 * stale without a maximum, nor when written after @now; all stale is an
 * error that says so. */
static void test_stale(void **state)
{
	char tmp[] = "/tmp/test_topo_lldp.XXXXXX", src[4096], cmd[8400], path[4200];
	char err[1024] = "";
	struct fst_model *m = NULL;
	struct fst_opts all = { .all_hosts = 1 };
	const time_t t0 = 1800000000;
	int found = 0;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	_dir("railopt/nodes", src, sizeof(src));
	snprintf(cmd, sizeof(cmd), "cp %s/*.json %s/", src, tmp);
	assert_int_equal(system(cmd), 0);
	for (int i = 1; i <= 8; i++) {
		snprintf(path, sizeof(path), "%s/n%03d.json", tmp, i);
		_mtime(path, i == 3 ? t0 - 7200 : t0 - 60);
	}
	assert_int_equal(fst_parse_lldp_aged(&m, tmp, NULL, 1800, t0, err, sizeof(err)), 0);
	assert_int_equal(fst_classify(m, &all, err, sizeof(err)), 0);
	assert_int_equal(fst_find_host(m, "n003"), -1);
	assert_true(fst_find_host(m, "n004") >= 0);
	for (int i = 0; i < m->nissues; i++)
		found |= m->issues[i].kind == FST_ISSUE_IGNORED_LINE &&
			 strstr(m->issues[i].msg, "n003.json: written 7200 s ago") &&
			 strstr(m->issues[i].msg, "maximum age of 1800 s");
	assert_true(found);
	assert_int_equal(m->nissues, 1);
	fst_model_free(m);
	/* no maximum; a maximum the record is within; a clock behind the file */
	assert_int_equal(fst_parse_lldp_aged(&m, tmp, NULL, 0, t0, err, sizeof(err)), 0);
	assert_int_equal(fst_classify(m, &all, err, sizeof(err)), 0);
	assert_true(fst_find_host(m, "n003") >= 0);
	fst_model_free(m);
	assert_int_equal(fst_parse_lldp_aged(&m, tmp, NULL, 7200, t0, err, sizeof(err)), 0);
	assert_int_equal(fst_classify(m, &all, err, sizeof(err)), 0);
	assert_true(fst_find_host(m, "n003") >= 0);
	fst_model_free(m);
	assert_int_equal(fst_parse_lldp_aged(&m, tmp, NULL, 10, t0 - 86400, err, sizeof(err)), 0);
	assert_int_equal(fst_classify(m, &all, err, sizeof(err)), 0);
	assert_true(fst_find_host(m, "n003") >= 0);
	fst_model_free(m);
	/* every record stale */
	m = (struct fst_model *)1;
	assert_int_equal(fst_parse_lldp_aged(&m, tmp, NULL, 30, t0, err, sizeof(err)), -1);
	assert_null(m);
	if (!strstr(err,
		    "no LLDP neighbour in a record written in the last 30 s (8 record(s) older); expected"))
		fail_msg("\"%s\"", err);
	snprintf(cmd, sizeof(cmd), "rm -r %s", tmp);
	assert_int_equal(system(cmd), 0);
}

static int _collect(const char *line, void *arg)
{
	strcat(arg, line);
	strcat(arg, "\n");
	return 0;
}

static struct fst_model *_ibnet(const char *text)
{
	struct fst_opts o = { .all_hosts = 1 };
	struct fst_model *m = NULL;
	char err[512] = "";

	assert_int_equal(fst_parse_ibnet_buf(&m, text, strlen(text), "t", err, sizeof(err)), 0);
	assert_int_equal(fst_classify(m, &o, err, sizeof(err)), 0);
	return m;
}

/* A host's cable moved to another switch port is one change line, not a
 * link down and a link up; a cable pulled out stays a link down. */
#define CA1 "Ca 1 \"H-1\" # \"n001 eth0\"\n[1] \"S-a\"[1]\n\n"
#define CA2(sw, p) "Ca 1 \"H-2\" # \"n002 eth0\"\n[1] \"" sw "\"[" p "]\n\n"
#define SWA_1 "Switch 8 \"S-a\" # \"leafA\"\n[1] \"H-1\"[1] # \"n001 eth0\" 1x100GbE\n"
#define SWA_2 "[2] \"H-2\"[1] # \"n002 eth0\" 1x100GbE\n"
#define SWB "Switch 8 \"S-b\" # \"leafB\"\n"
#define SWB_5 "[5] \"H-2\"[1] # \"n002 eth0\" 1x100GbE\n"
static void test_recabled(void **state)
{
	struct fst_model *old = _ibnet(SWA_1 SWA_2 "\n" SWB "\n" CA1 CA2("S-a", "2"));
	struct fst_model *cur = _ibnet(SWA_1 "\n" SWB SWB_5 "\n" CA1 CA2("S-b", "5"));
	struct fst_model *gone = _ibnet(SWA_1 "\n" SWB "\n" CA1);
	char got[2048] = "";

	(void)state;
	assert_int_equal(fst_model_changes(old, cur, _collect, got), 1);
	assert_string_equal(got, "n002 eth0: recabled from leafA port 2 to leafB port 5\n");
	got[0] = '\0';
	assert_int_equal(fst_model_changes(cur, old, _collect, got), 1);
	assert_string_equal(got, "n002 eth0: recabled from leafB port 5 to leafA port 2\n");
	/* pulled out: gone, and a link down */
	got[0] = '\0';
	assert_int_equal(fst_model_changes(old, gone, _collect, got), 2);
	assert_string_equal(got, "n002 eth0: gone\nleafA port 2 (n002 eth0): link down\n");
	fst_model_free(old);
	fst_model_free(cur);
	fst_model_free(gone);
}

static void test_mau(void **state)
{
	(void)state;
	assert_int_equal(fst_lldp_mau_mbps("100GbaseCR4 - 100GBASE-R"), 100000);
	assert_int_equal(fst_lldp_mau_mbps("10GigBaseR - 10GBASE-R PCS"), 10000);
	assert_int_equal(fst_lldp_mau_mbps("10GbaseT"), 10000);
	assert_int_equal(fst_lldp_mau_mbps("1000BaseTFD - Four-pair"), 1000);
	assert_int_equal(fst_lldp_mau_mbps("2p5GbaseT"), 2500);
	assert_int_equal(fst_lldp_mau_mbps("25GbaseCR"), 25000);
	assert_int_equal(fst_lldp_mau_mbps("400GbaseCR8"), 400000);
	assert_int_equal(fst_lldp_mau_mbps("Other"), 0);
	assert_int_equal(fst_lldp_mau_mbps(""), 0);
	assert_int_equal(fst_lldp_mau_mbps(NULL), 0);
	assert_int_equal(fst_lldp_mau_mbps("99999999999999GbaseT"), 0);
	assert_int_equal(fst_speed_from_mbps(100000), FST_SPEED_GBE100);
	assert_int_equal(fst_speed_from_mbps(2500), FST_SPEED_UNKNOWN);
}

/* A model of the nodes' records in @nodes and the switches' in @switches
 * (fixture subdirectories; @nodes NULL: an empty directory), classified. */
static struct fst_model *_load2(const char *nodes, const char *switches)
{
	struct fst_opts all = { .all_hosts = 1 };
	struct fst_model *m = NULL;
	char nd[4096], sd[4096], tmp[] = "/tmp/test_topo_lldp.XXXXXX", err[1024] = "";

	if (nodes)
		_dir(nodes, nd, sizeof(nd));
	else
		snprintf(nd, sizeof(nd), "%s", mkdtemp(tmp));
	_dir(switches, sd, sizeof(sd));
	if (fst_parse_lldp(&m, nd, sd, err, sizeof(err)))
		fail_msg("%s: %s", sd, err);
	if (!nodes)
		rmdir(tmp);
	if (fst_classify(m, &all, err, sizeof(err)))
		fail_msg("classify: %s", err);
	return m;
}

/* The switches' LLDP-MIB (snmpwalk -On through snmpd, lldpd its AgentX
 * subagent) and their lldpd JSON, of the same run: the same fabric. */
static void test_snmp_same(void **state)
{
	struct fst_model *a = _load2("railopt-snmp/nodes", "railopt-snmp/switches");
	struct fst_model *b = _load2("railopt-snmp/nodes", "railopt-snmp/switches-json");
	struct fst_model *c = _load2(NULL, "railopt-snmp/switches");
	char *ta = _tree(a), *tb = _tree(b), *tc = _tree(c);

	(void)state;
	assert_string_equal(_body(ta), _body(tb));
	assert_non_null(strstr(ta, "SwitchName=leaf01 Nodes=n[001-004] LinkSpeed=10000\n"));
	assert_non_null(strstr(ta, "SwitchName=spine02 Switches=leaf[01-02] LinkSpeed=10000\n"));
	assert_int_equal(a->nlinks, b->nlinks);
	assert_int_equal(a->ndevs, b->ndevs);
	assert_int_equal(_count(a, FST_ISSUE_IGNORED_LINE), 0);
	/* the switches' walks alone know every cable: the same tree */
	assert_string_equal(_body(ta), _body(tc));
	assert_int_equal(a->nlinks, c->nlinks);
	free(ta);
	free(tb);
	free(tc);
	fst_model_free(a);
	fst_model_free(b);
	fst_model_free(c);
}

/* A vendor's walk written by hand: port ids of the local kind, neighbours
 * named by FQDN, speeds from the remote MAU types (98: 100GbaseCR4, 71:
 * 40GbaseCR4) and, for the one without, IF-MIB's ifHighSpeed of the
 * interface of the port's name (ifIndex other than the LLDP port number);
 * a description over two lines, a Hex-STRING over two, "No Such Instance". */
static void test_snmp_vendor(void **state)
{
	struct fst_model *m = _load2(NULL, "speeds/switches-snmp");
	struct fst_model *both = _load2("speeds/nodes", "speeds/switches-snmp");
	struct fst_model *nodes = _load("speeds", 0, NULL);
	int g3 = fst_find_device(m, "H-gpu003.hpc.example.org-ens1f0np0");
	int g4 = fst_find_device(m, "H-gpu004.hpc.example.org-ens1f0np0");
	char *tb = _tree(both), *tn = _tree(nodes);

	(void)state;
	assert_true(g3 >= 0 && g4 >= 0);
	assert_int_equal(m->links[m->devs[g3].ports[1].link].speed, FST_SPEED_GBE40);
	assert_int_equal(m->links[m->devs[g4].ports[1].link].speed, FST_SPEED_GBE100);
	assert_int_equal(m->nhosts, 4);
	assert_int_equal(_count(m, FST_ISSUE_IGNORED_LINE), 0);
	/* with the nodes' records: the FQDNs are those nodes, nothing new */
	assert_string_equal(_body(tb), _body(tn));
	assert_int_equal(both->nlinks, nodes->nlinks);
	free(tb);
	free(tn);
	fst_model_free(m);
	fst_model_free(both);
	fst_model_free(nodes);
}

/* @text written to @dir/@name. */
static void _write(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

#define REM ".1.0.8802.1.1.2.1.4.1.1."
#define LOCP ".1.0.8802.1.1.2.1.3.7.1."

/* @walk as sw1.snmpwalk alone in a switch directory: fst_parse_lldp's
 * return, its error in @err. */
static int _walk(const char *walk, char *err, size_t errlen, struct fst_model **mp)
{
	char nodes[] = "/tmp/test_topo_lldp.XXXXXX", sw[] = "/tmp/test_topo_lldp.XXXXXX", p[512];
	struct fst_model *m = NULL;
	int rc;

	assert_non_null(mkdtemp(nodes));
	assert_non_null(mkdtemp(sw));
	_write(sw, "sw1.snmpwalk", walk);
	rc = fst_parse_lldp(&m, nodes, sw, err, errlen);
	snprintf(p, sizeof(p), "%s/sw1.snmpwalk", sw);
	unlink(p);
	rmdir(sw);
	rmdir(nodes);
	if (mp)
		*mp = m;
	else
		fst_model_free(m);
	return rc;
}

static void _walk_fails(const char *walk, const char *want)
{
	char err[1024] = "";

	assert_int_equal(_walk(walk, err, sizeof(err), NULL), -1);
	if (!strstr(err, want))
		fail_msg("error \"%s\" does not say \"%s\"", err, want);
	assert_non_null(strstr(err, "sw1.snmpwalk"));
}

/* What a switch's agent may hold that came off the wire, and walks that
 * are not snmpwalk -On output. */
static void test_snmp_hostile(void **state)
{
	struct fst_model *m = NULL;
	char err[1024] = "", tmp[] = "/tmp/test_topo_lldp.XXXXXX", p[512];
	int esc = 0, port = 0, quote = 0, noname = 0;

	(void)state;
	assert_int_equal(_walk(LOCP "2.1 = INTEGER: 5\n" LOCP "3.1 = STRING: \"swp1\"\n" LOCP
				    "2.2 = INTEGER: 5\n" LOCP "3.2 = STRING: \"swp2\"\n" LOCP
				    "3.3 = STRING: \"swp3\"\n"
			       /* port 1: a name with a terminal escape, a MAC chassis id */
			       REM "4.0.1.1 = INTEGER: 4\n" REM
				    "5.0.1.1 = Hex-STRING: 02 00 00 00 00 01 \n" REM
				    "6.0.1.1 = INTEGER: 5\n" REM "7.0.1.1 = STRING: \"eth0\"\n" REM
				    "9.0.1.1 = Hex-STRING: 6E 31 1B 5B 32 4A \n"
			       /* port 2: "n2\0n9" (a NUL is no end of the name), port "a;b" */
			       REM "4.0.2.1 = INTEGER: 7\n" REM "5.0.2.1 = STRING: \"x\"\n" REM
				    "6.0.2.1 = INTEGER: 5\n" REM "7.0.2.1 = STRING: \"a;b\"\n" REM
				    "9.0.2.1 = Hex-STRING: 6E 32 00 6E 39 \n"
			       /* port 3: a port id with an escaped quote */
			       REM "6.0.3.1 = INTEGER: 7\n" REM "7.0.3.1 = STRING: \"p\\\"q\"\n" REM
				    "8.0.3.1 = STRING: \"eth0\"\n" REM "9.0.3.1 = STRING: \"n3\"\n"
			       /* port 9: no name anywhere */
			       REM "6.0.9.1 = INTEGER: 5\n" REM "7.0.9.1 = STRING: \"eth0\"\n" REM
				    "9.0.9.1 = STRING: \"n4\"\n",
			       err, sizeof(err), &m),
			 0);
	for (int i = 0; i < m->nissues; i++) {
		const char *s = m->issues[i].msg;

		assert_null(strchr(s, 0x1b));
		esc += strstr(s, "interface swp1: neighbour's system name \"n1?[2J\"") != NULL;
		port += strstr(s, "interface swp2: neighbour's port \"a;b\"") != NULL;
		quote += strstr(s, "interface swp3: neighbour's port \"p\"q\"") != NULL;
		noname += strstr(s, "interface #9: local port without a name") != NULL;
	}
	assert_int_equal(esc + port + quote + noname, 4);
	assert_int_equal(m->nlinks, 1); /* to chassis-020000000001 */
	fst_model_free(m);
	m = NULL;
	/* "n2\0n9": its port is refused first; a clean port and that name */
	assert_int_equal(_walk(REM "6.0.1.1 = INTEGER: 5\n" REM "7.0.1.1 = STRING: \"eth0\"\n" REM
				   "9.0.1.1 = Hex-STRING: 6E 32 00 6E 39 \n" REM
				   "4.0.1.1 = INTEGER: 4\n" REM
				   "5.0.1.1 = Hex-STRING: 02 00 00 00 00 02 \n" LOCP
				   "2.1 = INTEGER: 5\n" LOCP "3.1 = STRING: \"swp1\"\n",
			       err, sizeof(err), &m),
			 0);
	assert_int_equal(_count(m, FST_ISSUE_IGNORED_LINE), 1);
	assert_non_null(strstr(m->issues[0].msg, "neighbour's system name \"n2?n9\""));
	fst_model_free(m);

	_walk_fails("LLDP-MIB::lldpRemSysName.0.1.1 = STRING: \"n1\"\n",
		    "sw1.snmpwalk:1: an OID by name (a MIB loaded): run snmpwalk with -On");
	_walk_fails(REM "9.0.1.1 = STRING: \"n1\"\nTimeout: No Response from 10.0.0.1\n",
		    "sw1.snmpwalk:2: not an snmpwalk line; expected the output of snmpwalk -On");
	_walk_fails(REM "9.0.1.1 = STRING: \"n1\n\n",
		    "sw1.snmpwalk:1: a STRING's closing quote missing");
	_walk_fails(REM "5.0.1.1 = Hex-STRING: 0G 11\n", "sw1.snmpwalk:1: a Hex-STRING of other");
	_walk_fails(".1.0.8802.1.1.2.1.5.4623.1.3.1.1.4.0.1.1 = STRING: \"fast\"\n",
		    "sw1.snmpwalk:1: a MAU type or speed that is not an integer");
	_walk_fails(REM "4.0.1.1 = INTEGER: many\n",
		    "sw1.snmpwalk:1: an integer value that is not");
	_walk_fails("", "sw1.snmpwalk: empty (did the switch answer?)");
	_walk_fails("\n\n", "sw1.snmpwalk: empty");
	/* line numbers count the lines a value runs over */
	_walk_fails(REM "10.0.1.1 = STRING: \"a\nb\nc\"\n" REM "5.0.1.1 = Hex-STRING: 01 02\n03\n"
			"bad\n",
		    "sw1.snmpwalk:6: not an snmpwalk line");
	/* "iso." for "1.", as snmpwalk prints without -On nor LLDP-MIB */
	assert_int_equal(_walk("iso.0.8802.1.1.2.1.3.7.1.3.1 = STRING: \"swp1\"\n"
			       "iso.0.8802.1.1.2.1.3.7.1.2.1 = INTEGER: 5\n"
			       "iso.0.8802.1.1.2.1.4.1.1.9.0.1.1 = STRING: \"n1\"\n"
			       "iso.0.8802.1.1.2.1.4.1.1.6.0.1.1 = INTEGER: 5\n"
			       "iso.0.8802.1.1.2.1.4.1.1.7.0.1.1 = STRING: \"eth0\"\n",
			       err, sizeof(err), &m),
			 0);
	assert_int_equal(m->nlinks, 1);
	fst_model_free(m);
	/* one switch, two records */
	assert_non_null(mkdtemp(tmp));
	_write(tmp, "sw1.json", "{\"lldp\": {}}\n");
	_write(tmp, "sw1.snmpwalk", REM "9.0.1.1 = STRING: \"n1\"\n");
	assert_int_equal(fst_parse_lldp(&m, tmp, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sw1 has two records (.json and .snmpwalk); expected one"));
	snprintf(p, sizeof(p), "%s/sw1.json", tmp);
	unlink(p);
	snprintf(p, sizeof(p), "%s/sw1.snmpwalk", tmp);
	unlink(p);
	rmdir(tmp);
}

/* lldpLocPortTable of a switch with ports swp1 and swp2 */
#define ORDER_LOC                                                                                \
	LOCP "2.1 = INTEGER: 5\n" LOCP "3.1 = STRING: \"swp1\"\n" LOCP "2.2 = INTEGER: 5\n" LOCP \
	     "3.2 = STRING: \"swp2\"\n"

/* The walk of ports 1 and 2's neighbours, port 1's at time mark T1 and
 * port 2's at T2, listed in time mark order. */
static char *_order_walk(const char *t1, const char *t2)
{
	bool two_first = strtol(t2, NULL, 10) < strtol(t1, NULL, 10);
	size_t len = 0;
	char *w = NULL;
	FILE *f = open_memstream(&w, &len);
	static const int cols[] = { 4, 5, 6, 7, 9 };

	assert_non_null(f);
	fputs(ORDER_LOC, f);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		for (int k = 0; k < 2; k++) {
			bool one = (k == 0) != two_first;
			int c = cols[i];

			fprintf(f, "%s%d.%s.%d.1 = ", REM, c, one ? t1 : t2, one ? 1 : 2);
			if (c == 4 || c == 6)
				fprintf(f, "INTEGER: %d\n", c == 4 ? 4 : 5);
			else if (c == 5)
				fprintf(f, "Hex-STRING: 02 00 00 00 00 0%d \n", one ? 1 : 2);
			else if (c == 7)
				fprintf(f, "STRING: \"eth0\"\n");
			else
				fprintf(f, "STRING: \"n%d\"\n", one ? 1 : 2);
		}
	fclose(f);
	return w;
}

/* The model's JSON (classified) without its "source" line (the records'
 * directory). */
static char *_json_nosource(struct fst_model *m)
{
	struct fst_opts all = { .all_hosts = 1 };
	char err[256] = "", *j = NULL, *src, *nl;

	if (fst_classify(m, &all, err, sizeof(err)) || !(j = fst_json_string(m, err, sizeof(err))))
		fail_msg("%s", err);
	assert_non_null(src = strstr(j, "\"source\":"));
	assert_non_null(nl = strchr(src, '\n'));
	memmove(src, nl + 1, strlen(nl + 1) + 1);
	return j;
}

/* The same neighbours give the same model whatever their time marks (port
 * 2's neighbour seen before port 1's, as after port 1 flapped): the walk's
 * rows are taken by local port, not in the walk's order. */
static void test_snmp_order(void **state)
{
	struct fst_model *a = NULL, *b = NULL;
	char err[1024] = "", *ja, *jb;

	(void)state;
	char *wa = _order_walk("0", "0"), *wb = _order_walk("700", "0");

	assert_int_equal(_walk(wa, err, sizeof(err), &a), 0);
	assert_int_equal(_walk(wb, err, sizeof(err), &b), 0);
	assert_non_null(strstr(wb, "9.0.2.1 = STRING: \"n2\"\n" REM "9.700.1.1"));
	free(wa);
	free(wb);
	assert_int_equal(a->nlinks, 2);
	ja = _json_nosource(a);
	jb = _json_nosource(b);
	assert_string_equal(ja, jb);
	free(ja);
	free(jb);
	fst_model_free(a);
	fst_model_free(b);
}

static void test_mau_type(void **state)
{
	(void)state;
	assert_int_equal(fst_lldp_mau_type_mbps(54), 10000);   /* 10GbaseT */
	assert_int_equal(fst_lldp_mau_type_mbps(98), 100000);  /* 100GbaseCR4 */
	assert_int_equal(fst_lldp_mau_type_mbps(71), 40000);   /* 40GbaseCR4 */
	assert_int_equal(fst_lldp_mau_type_mbps(88), 25000);   /* 25GbaseCR */
	assert_int_equal(fst_lldp_mau_type_mbps(117), 50000);  /* 50GbaseCR */
	assert_int_equal(fst_lldp_mau_type_mbps(131), 200000); /* 200GbaseCR4 */
	assert_int_equal(fst_lldp_mau_type_mbps(137), 400000); /* 400GbaseDR4 */
	assert_int_equal(fst_lldp_mau_type_mbps(30), 1000);    /* 1000BaseTFD */
	assert_int_equal(fst_lldp_mau_type_mbps(0), 0);
	assert_int_equal(fst_lldp_mau_type_mbps(60), 0); /* 10/1G asymmetric */
	assert_int_equal(fst_lldp_mau_type_mbps(100000), 0);
	assert_int_equal(fst_lldp_mau_type_mbps(-3), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_railopt),	     cmocka_unit_test(test_json_form_same),
		cmocka_unit_test(test_nodes_only),   cmocka_unit_test(test_compute_hca),
		cmocka_unit_test(test_speeds),	     cmocka_unit_test(test_json_model),
		cmocka_unit_test(test_hostile),	     cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_recabled),     cmocka_unit_test(test_mau),
		cmocka_unit_test(test_stale),	     cmocka_unit_test(test_snmp_same),
		cmocka_unit_test(test_snmp_vendor),  cmocka_unit_test(test_snmp_hostile),
		cmocka_unit_test(test_mau_type),     cmocka_unit_test(test_snmp_order),
		cmocka_unit_test(test_spoofed_host),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
