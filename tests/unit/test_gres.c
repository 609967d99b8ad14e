/*
 * test_gres.c - unit tests of libfabsched_gres on the real hwloc XML
 * topologies (tests/fixtures/hwloc) and the sysfs trees of
 * tests/fixtures/sysfs (see SOURCES.md there).  cmocka, TAP output under
 * the harness.
 */
#define _GNU_SOURCE
#include <sched.h>
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

#include "fabsched_gres.h"

#define XML_LASSEN "coral-lassen.xml"
#define XML_32 "32em64t-2n8c+1mic.xml"
#define XML_40 "40intel64-2g2n4c+pci.xml"
#define XML_2S "synthetic-2pkg-2numa.xml"

static struct fs_gres_inventory *_load(const char *xml, const char *tree, unsigned what)
{
	struct fs_gres_inventory *inv = NULL;
	char xmlp[4096] = "", rootp[4096] = "", msg[FS_MSG_SIZE] = "";
	struct fs_gres_opts o = { 0 };
	int rc;

	if (xml) {
		snprintf(xmlp, sizeof(xmlp), "%s", tf_fixture("hwloc", xml));
		o.hwloc_xml = xmlp;
	}
	if (tree) {
		snprintf(rootp, sizeof(rootp), "%s", tf_fixture("sysfs", tree));
		o.sysfs_root = rootp;
	}
	o.what = what;
	rc = fs_gres_inventory_load(&o, &inv, msg, sizeof(msg));
	if (rc)
		print_error("%s\n", msg);
	assert_int_equal(rc, 0);
	assert_non_null(inv);
	return inv;
}

/* Loading must fail with a message holding each of the words. */
static void _load_fails(const char *tree, const char *w1, const char *w2)
{
	struct fs_gres_inventory *inv = (void *)1;
	char rootp[4096], msg[FS_MSG_SIZE] = "";
	struct fs_gres_opts o = { 0 };

	snprintf(rootp, sizeof(rootp), "%s", tf_fixture("sysfs", tree));
	o.sysfs_root = rootp;
	o.what = FS_GRES_HCA | FS_GRES_HUGEPAGES;
	assert_int_equal(fs_gres_inventory_load(&o, &inv, msg, sizeof(msg)), -1);
	assert_null(inv);
	if (!strstr(msg, w1) || !strstr(msg, w2) || !strstr(msg, rootp))
		print_error("message: %s\n", msg);
	assert_non_null(strstr(msg, w1));
	assert_non_null(strstr(msg, w2));
	assert_non_null(strstr(msg, rootp)); /* names the path */
	assert_non_null(strstr(msg, "expected"));
}

/* ------------------------------------------------------------ cpulists */

static void test_cpulist(void **state)
{
	unsigned char *b;
	size_t n;
	char *s, msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(fs_gres_cpulist_parse("0-3,8,10-11\n", &b, &n, msg, sizeof(msg)), 0);
	assert_int_equal(n, 12);
	s = fs_gres_cpulist_format(b, n);
	assert_string_equal(s, "0-3,8,10-11");
	free(s);
	free(b);
	assert_int_equal(fs_gres_cpulist_parse("", &b, &n, msg, sizeof(msg)), 0);
	assert_null(b);
	assert_int_equal(n, 0);
	assert_int_equal(fs_gres_cpulist_count("1,3,5-7"), 5);
	assert_int_equal(fs_gres_cpulist_count(""), 0);
	assert_int_equal(fs_gres_cpulist_overlap("0-7", "4-15"), 4);
	s = fs_gres_cpulist_union("0-3", "2,8-9");
	assert_string_equal(s, "0-3,8-9");
	free(s);
	static const char *const bad[] = { "a",	 "1-",	"3-1",	    "1,,2", "1,",
					   "-1", "1 2", "99999999", "0x1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		assert_int_equal(fs_gres_cpulist_parse(bad[i], &b, &n, msg, sizeof(msg)), -1);
		assert_non_null(strstr(msg, "expected"));
		assert_int_equal(fs_gres_cpulist_count(bad[i]), -1);
	}
}

/* GRES core affinity as each Slurm release accepts it (4 sockets x 10). */
static void _socket_cores(const char *in, bool one, int want_rc, const char *want)
{
	unsigned char *b = NULL, cores[40] = { 0 };
	size_t n = 0;
	char msg[FS_MSG_SIZE], *s;

	assert_int_equal(fs_gres_cpulist_parse(in, &b, &n, msg, sizeof(msg)), 0);
	memcpy(cores, b, n);
	free(b);
	assert_int_equal(fs_gres_socket_cores(cores, 4, 10, one), want_rc);
	s = fs_gres_cpulist_format(cores, 40);
	assert_string_equal(s, want);
	free(s);
}

static void test_socket_cores(void **state)
{
	(void)state;
	/* one socket, exactly: kept on every release */
	_socket_cores("10-19", false, 0, "10-19");
	_socket_cores("10-19", true, 0, "10-19");
	/* part of a socket (a NUMA node of half a socket): the socket */
	_socket_cores("10-14", false, 1, "10-19");
	_socket_cores("10-14", true, 1, "10-19");
	/* two whole sockets (a NUMA node over two): 24.11 keeps it, 25.11
	 * accepts one socket or every core */
	_socket_cores("20-39", false, 0, "20-39");
	_socket_cores("20-39", true, 1, "0-39");
	_socket_cores("5,25", false, 1, "0-9,20-29");
	/* every core: kept */
	_socket_cores("0-39", true, 0, "0-39");
	assert_int_equal(fs_gres_socket_cores(NULL, 4, 10, true), -1);
}

static void test_pick_nearest(void **state)
{
	const char *cand[] = { "0-7", "8-15", "8-15", "16-23" };
	char msg[FS_MSG_SIZE];
	size_t pick = 99;

	(void)state;
	assert_int_equal(fs_gres_pick_nearest("0-3", cand, 4, 0, &pick, msg, sizeof(msg)), 0);
	assert_int_equal(pick, 0);
	/* most overlap wins, wherever it is */
	assert_int_equal(fs_gres_pick_nearest("7-12", cand, 4, 0, &pick, msg, sizeof(msg)), 0);
	assert_int_equal(pick, 1);
	assert_int_equal(fs_gres_pick_nearest("15-23", cand, 4, 0, &pick, msg, sizeof(msg)), 0);
	assert_int_equal(pick, 3);
	/* equals (1 and 2 are the same CPUs): task 0 the first listed, task 1
	 * the second, task 2 the first again */
	assert_int_equal(fs_gres_pick_nearest("9", cand, 4, 0, &pick, msg, sizeof(msg)), 0);
	assert_int_equal(pick, 1);
	assert_int_equal(fs_gres_pick_nearest("9", cand, 4, 1, &pick, msg, sizeof(msg)), 0);
	assert_int_equal(pick, 2);
	assert_int_equal(fs_gres_pick_nearest("9", cand, 4, 2, &pick, msg, sizeof(msg)), 0);
	assert_int_equal(pick, 1);
	/* a spread never picks a candidate less near */
	assert_int_equal(fs_gres_pick_nearest("15-23", cand, 4, 1, &pick, msg, sizeof(msg)), 0);
	assert_int_equal(pick, 3);
	assert_int_equal(fs_gres_pick_nearest("0-23", cand, 4, 0, &pick, msg, sizeof(msg)), 0);
	assert_int_equal(pick, 0);
	/* no CPU in common, or no candidate: n (keep them all) */
	assert_int_equal(fs_gres_pick_nearest("30-31", cand, 4, 0, &pick, msg, sizeof(msg)), 0);
	assert_int_equal(pick, 4);
	assert_int_equal(fs_gres_pick_nearest("", cand, 4, 0, &pick, msg, sizeof(msg)), 0);
	assert_int_equal(pick, 4);
	assert_int_equal(fs_gres_pick_nearest("0-3", cand, 0, 0, &pick, msg, sizeof(msg)), 0);
	assert_int_equal(pick, 0);
	/* malformed lists, the task's or a candidate's */
	msg[0] = '\0';
	assert_int_equal(fs_gres_pick_nearest("x", cand, 4, 0, &pick, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "\"x\""));
	cand[2] = "8-";
	assert_int_equal(fs_gres_pick_nearest("0", cand, 4, 0, &pick, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "\"8-\""));
	assert_non_null(strstr(msg, "expected"));
}

static void test_task_cpus(void **state)
{
	cpu_set_t old, one;
	char msg[FS_MSG_SIZE], *s;
	int cpu = -1;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	for (int i = 0; i < CPU_SETSIZE && cpu < 0; i++)
		if (CPU_ISSET(i, &old))
			cpu = i;
	assert_true(cpu >= 0);
	s = fs_gres_task_cpus(msg, sizeof(msg));
	assert_non_null(s);
	assert_int_equal(fs_gres_cpulist_count(s), CPU_COUNT(&old));
	free(s);
	/* bound to one CPU: exactly that one */
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	s = fs_gres_task_cpus(msg, sizeof(msg));
	assert_int_equal(sched_setaffinity(0, sizeof(old), &old), 0);
	assert_non_null(s);
	{
		char want[16];

		snprintf(want, sizeof(want), "%d", cpu);
		assert_string_equal(s, want);
	}
	free(s);
}

/* ------------------------------------------------------------ hwloc */

static const struct fs_gres_pcidev *_pci(const struct fs_gres_inventory *inv, const char *name)
{
	for (size_t i = 0; i < inv->npci; i++)
		if (!strcmp(inv->pci[i].name, name))
			return &inv->pci[i];
	return NULL;
}

static void test_topo_32em64t(void **state)
{
	struct fs_gres_inventory *inv = _load(XML_32, NULL, FS_GRES_TOPO);
	const struct fs_gres_pcidev *d;

	(void)state;
	assert_int_equal(inv->npus, 16);
	assert_int_equal(inv->ncores, 16);
	assert_int_equal(inv->nnuma, 2);
	assert_int_equal(inv->numa[0].os_index, 0);
	assert_string_equal(inv->numa[0].cpus, "0-7");
	assert_int_equal(inv->numa[0].ncores, 8);
	assert_string_equal(inv->numa[1].cpus, "8-15");
	assert_non_null(d = _pci(inv, "mlx4_0"));
	assert_int_equal(d->kind, FS_GRES_PCI_HCA);
	assert_string_equal(d->numa, "1");
	assert_string_equal(d->cpus, "8-15");
	assert_string_equal(d->busid, "0000:82:00.0");
	assert_non_null(d = _pci(inv, "nvme0n1"));
	assert_int_equal(d->kind, FS_GRES_PCI_NVME);
	assert_string_equal(d->numa, "0");
	assert_string_equal(d->cpus, "0-7");
	assert_null(_pci(inv, "sda"));
	fs_gres_inventory_free(inv);
}

static void test_topo_40intel64(void **state)
{
	struct fs_gres_inventory *inv = _load(XML_40, NULL, FS_GRES_TOPO);
	const struct fs_gres_pcidev *d;

	(void)state;
	assert_int_equal(inv->npus, 40);
	assert_int_equal(inv->nnuma, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(inv->numa[i].os_index, i);
		assert_int_equal(inv->numa[i].ncores, 10);
	}
	assert_string_equal(inv->numa[1].cpus, "1,5,9,13,17,21,25,29,33,37");
	assert_non_null(d = _pci(inv, "qib0"));
	/* spans NUMA 1 and 3: the union of their CPUs */
	assert_string_equal(d->numa, "1,3");
	assert_int_equal(fs_gres_cpulist_count(d->cpus), 20);
	assert_int_equal(fs_gres_cpulist_overlap(d->cpus, inv->numa[1].cpus), 10);
	assert_int_equal(fs_gres_cpulist_overlap(d->cpus, inv->numa[3].cpus), 10);
	assert_int_equal(fs_gres_cpulist_overlap(d->cpus, inv->numa[0].cpus), 0);
	assert_null(_pci(inv, "nvme0n1"));
	fs_gres_inventory_free(inv);
}

static void test_topo_lassen(void **state)
{
	struct fs_gres_inventory *inv = _load(XML_LASSEN, NULL, FS_GRES_TOPO);
	static const char *const numa_of[] = { "0", "0", "8", "8" };
	char name[16];

	(void)state;
	assert_int_equal(inv->npus, 160);
	assert_int_equal(inv->ncores, 40);
	assert_int_equal(inv->nnuma, 2);
	assert_int_equal(inv->numa[0].os_index, 0);
	assert_int_equal(inv->numa[1].os_index, 8);
	assert_string_equal(inv->numa[0].cpus, "8-87");
	assert_string_equal(inv->numa[1].cpus, "96-175");
	assert_int_equal(inv->numa[1].ncores, 20);
	for (int i = 0; i < 4; i++) {
		const struct fs_gres_pcidev *d;

		snprintf(name, sizeof(name), "mlx5_%d", i);
		assert_non_null(d = _pci(inv, name));
		assert_string_equal(d->numa, numa_of[i]);
	}
	assert_string_equal(_pci(inv, "nvme0n1")->numa, "0");
	fs_gres_inventory_free(inv);
}

static void test_topo_bad_xml(void **state)
{
	struct fs_gres_inventory *inv = NULL;
	char msg[FS_MSG_SIZE] = "";
	struct fs_gres_opts o = { .hwloc_xml = "/nonexistent/topo.xml", .what = FS_GRES_TOPO };

	(void)state;
	assert_int_equal(fs_gres_inventory_load(&o, &inv, msg, sizeof(msg)), -1);
	assert_null(inv);
	assert_non_null(strstr(msg, "/nonexistent/topo.xml"));
	o.hwloc_xml = tf_fixture("sysfs", "SOURCES.md"); /* not XML */
	assert_int_equal(fs_gres_inventory_load(&o, &inv, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "SOURCES.md"));
}

/* ------------------------------------------------------------ sysfs HCAs */

static void test_hca_lassen(void **state)
{
	struct fs_gres_inventory *inv = _load(XML_LASSEN, "lassen", FS_GRES_ALL);
	const struct fs_gres_hca *h;

	(void)state;
	assert_int_equal(inv->nhca, 4);
	for (int i = 0; i < 4; i++) {
		char name[16], dev[64];

		h = &inv->hca[i];
		snprintf(name, sizeof(name), "mlx5_%d", i);
		snprintf(dev, sizeof(dev), "/dev/infiniband/uverbs%d", i);
		assert_string_equal(h->name, name);
		assert_string_equal(h->type, "mlx5");
		assert_string_equal(h->dev_path, dev);
		assert_string_equal(h->locality, "hwloc");
		assert_int_equal(h->nports, 1);
		assert_string_equal(h->ports[0].link_layer, "InfiniBand");
		assert_string_equal(h->cpus, i < 2 ? "8-87" : "96-175");
	}
	h = &inv->hca[0];
	assert_string_equal(h->node_guid, "0c42:a103:0016:0a10");
	assert_int_equal(h->ports[0].state, FS_PORT_ACTIVE);
	assert_true(h->ports[0].active);
	assert_string_equal(h->ports[0].state_name, "ACTIVE");
	assert_int_equal(h->ports[0].phys_state, 5);
	assert_string_equal(h->ports[0].phys_state_name, "LinkUp");
	assert_int_equal(h->ports[0].rate_gbps, 100);
	assert_string_equal(h->ports[0].rate, "100 Gb/sec (4X EDR)");
	assert_int_equal(h->ports[0].lid, 0x11);
	assert_string_equal(h->ports[0].gid, "fe80:0000:0000:0000:0c42:a103:0016:0a10");
	assert_int_equal(h->nactive, 1);
	/* the port DOWN */
	h = fs_gres_hca_find(inv, "mlx5_3");
	assert_non_null(h);
	assert_int_equal(h->nactive, 0);
	assert_false(h->ports[0].active);
	assert_int_equal(h->ports[0].state, FS_PORT_DOWN);
	assert_string_equal(h->ports[0].state_name, "DOWN");
	assert_string_equal(h->ports[0].phys_state_name, "Disabled");
	assert_ptr_equal(fs_gres_hca_by_uverbs(inv, "/dev/infiniband/uverbs2"),
			 fs_gres_hca_find(inv, "mlx5_2"));
	assert_ptr_equal(fs_gres_hca_by_uverbs(inv, "uverbs1"), fs_gres_hca_find(inv, "mlx5_1"));
	assert_null(fs_gres_hca_by_uverbs(inv, "uverbs9"));
	/* hugepages: 2m and 1g on both NUMA nodes */
	assert_int_equal(inv->npools, 4);
	assert_int_equal(inv->pools[0].numa_node, 0);
	assert_string_equal(inv->pools[0].type, "2m");
	assert_int_equal(inv->pools[0].total, 256);
	assert_int_equal(inv->pools[0].free, 250);
	assert_string_equal(inv->pools[1].type, "1g");
	assert_int_equal(inv->pools[1].page_kb, 1048576);
	assert_int_equal(inv->pools[3].numa_node, 8);
	assert_int_equal(inv->pools[3].free, 2);
	fs_gres_inventory_free(inv);
}

/* RoCE ports: the RoCE v2 GIDs of IPv4 and IPv6 addresses, the net device
 * with its MTU and state, and the notes slurmd logs */
static void test_hca_roce(void **state)
{
	struct fs_gres_inventory *inv = _load(XML_2S, "roce", FS_GRES_ALL);
	const struct fs_gres_port *pt;
	char notes[FS_GRES_PORTS_MAX][FS_MSG_SIZE];

	(void)state;
	assert_int_equal(inv->nhca, 3);
	pt = &fs_gres_hca_find(inv, "mlx5_0")->ports[0];
	assert_string_equal(pt->link_layer, "Ethernet");
	assert_true(pt->active);
	assert_int_equal(pt->gid_v2_ipv4, 3);
	assert_int_equal(pt->gid_v2_ipv6, 5);
	assert_int_equal(pt->ngid_v2, 3); /* the link-local one counted too */
	assert_string_equal(pt->netdev, "ens1f0np0");
	assert_int_equal(pt->mtu, 9000);
	assert_string_equal(pt->operstate, "up");
	assert_string_equal(fs_gres_hca_find(inv, "mlx5_0")->cpus, "0");
	/* IPv6 only, after an unused entry */
	pt = &fs_gres_hca_find(inv, "mlx5_1")->ports[0];
	assert_int_equal(pt->gid_v2_ipv4, -1);
	assert_int_equal(pt->gid_v2_ipv6, 4);
	assert_string_equal(pt->netdev, "ens2f0np0");
	assert_int_equal(pt->mtu, 4200);
	/* down, link-local GIDs only */
	pt = &fs_gres_hca_find(inv, "mlx5_2")->ports[0];
	assert_false(pt->active);
	assert_int_equal(pt->gid_v2_ipv4, -1);
	assert_int_equal(pt->gid_v2_ipv6, -1);
	assert_int_equal(pt->ngid_v2, 1);
	assert_string_equal(pt->netdev, "ens2f1np1");
	assert_string_equal(pt->operstate, "down");
	/* notes */
	assert_int_equal(fs_gres_hca_notes(fs_gres_hca_find(inv, "mlx5_0"), notes, 8), 1);
	assert_string_equal(notes[0], "mlx5_0 port 1: RoCE on ens1f0np0 (MTU 9000, up): "
				      "RoCE v2 GID index 3 for IPv4, 5 for IPv6");
	assert_int_equal(fs_gres_hca_notes(fs_gres_hca_find(inv, "mlx5_1"), notes, 8), 1);
	assert_string_equal(notes[0], "mlx5_1 port 1: RoCE on ens2f0np0 (MTU 4200, up): "
				      "RoCE v2 GID index none for IPv4, 4 for IPv6");
	assert_int_equal(fs_gres_hca_notes(fs_gres_hca_find(inv, "mlx5_2"), notes, 8), 1);
	assert_non_null(strstr(notes[0], "is DOWN"));
	fs_gres_inventory_free(inv);

	/* InfiniBand ports have none of it; a RoCE port without GID
	 * attributes (kernels before 4.8 and the pkeys tree) has no choice */
	inv = _load(XML_LASSEN, "lassen", FS_GRES_HCA);
	pt = &inv->hca[0].ports[0];
	assert_null(pt->netdev);
	assert_int_equal(pt->gid_v2_ipv4, -1);
	assert_int_equal(pt->gid_v2_ipv6, -1);
	fs_gres_inventory_free(inv);
	inv = _load(NULL, "pkeys", FS_GRES_HCA);
	pt = &fs_gres_hca_find(inv, "mlx5_6")->ports[0];
	assert_string_equal(pt->netdev, "");
	assert_int_equal(pt->gid_v2_ipv4, -1);
	assert_int_equal(fs_gres_hca_notes(fs_gres_hca_find(inv, "mlx5_6"), notes, 8), 1);
	assert_string_equal(notes[0], "mlx5_6 port 1: RoCE, no net device in its GID table");
	fs_gres_inventory_free(inv);
}

static void test_hca_spanning(void **state)
{
	struct fs_gres_inventory *inv = _load(XML_40, "40intel64", FS_GRES_ALL);
	const struct fs_gres_hca *h;

	(void)state;
	assert_int_equal(inv->nhca, 1);
	h = &inv->hca[0];
	assert_string_equal(h->name, "qib0");
	assert_string_equal(h->type, "qib");
	assert_int_equal(h->numa_node, -1);
	assert_string_equal(h->locality, "hwloc");
	assert_string_equal(h->numa, "1,3");
	assert_string_equal(h->cpus, "1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31,33,35,37,39");
	assert_int_equal(h->ports[0].rate_gbps, 40);
	assert_int_equal(inv->npools, 8);
	fs_gres_inventory_free(inv);

	/* without hwloc: numa_node -1 and no local_cpulist -> every CPU */
	inv = _load(NULL, "40intel64", FS_GRES_HCA);
	h = &inv->hca[0];
	assert_int_equal(inv->nnuma, 4);
	assert_string_equal(h->locality, "unknown");
	assert_string_equal(h->cpus, "0-39");
	fs_gres_inventory_free(inv);
}

static void test_hca_sysfs_locality(void **state)
{
	/* sysfs only: device/numa_node gives the node's cpulist */
	struct fs_gres_inventory *inv = _load(NULL, "32em64t", FS_GRES_HCA);
	const struct fs_gres_hca *h = &inv->hca[0];

	(void)state;
	assert_string_equal(h->name, "mlx4_0");
	assert_string_equal(h->type, "mlx4");
	assert_string_equal(h->locality, "sysfs numa_node");
	assert_string_equal(h->numa, "1");
	assert_string_equal(h->cpus, "8-15");
	assert_int_equal(inv->npools, 0); /* not asked */
	fs_gres_inventory_free(inv);
}

static void test_no_hca(void **state)
{
	struct fs_gres_inventory *inv = _load(XML_32, "nohca", FS_GRES_ALL);

	(void)state;
	assert_int_equal(inv->nhca, 0);
	assert_int_equal(inv->npools, 1);
	assert_int_equal(inv->pools[0].total, 128);
	/* hwloc still sees the XML's HCA; sysfs decides what exists */
	assert_non_null(_pci(inv, "mlx4_0"));
	fs_gres_inventory_free(inv);
}

static void test_no_1g(void **state)
{
	struct fs_gres_inventory *inv = _load(XML_32, "32em64t", FS_GRES_ALL);

	(void)state;
	assert_int_equal(inv->nhca, 1);
	assert_string_equal(inv->hca[0].cpus, "8-15");
	assert_int_equal(inv->npools, 2);
	for (size_t i = 0; i < inv->npools; i++)
		assert_string_equal(inv->pools[i].type, "2m");
	assert_int_equal(inv->pools[1].numa_node, 1);
	assert_int_equal(inv->pools[1].free, 500);
	fs_gres_inventory_free(inv);
}

static void test_malformed(void **state)
{
	(void)state;
	_load_fails("malformed/state", "ports/1/state", "\"4: ACTIVE\"");
	_load_fails("malformed/rate", "rate", "fast");
	_load_fails("malformed/numa", "numa_node", "zero");
	_load_fails("malformed/guid", "node_guid", "GUID");
	_load_fails("malformed/lid", "lid", "0xfffff");
	_load_fails("malformed/port", "ports/x", "port number");
	_load_fails("malformed/hugepages", "nr_hugepages", "12x");
	_load_fails("malformed/hugefree", "free_hugepages", "nr_hugepages");
	_load_fails("malformed/hugedir", "hugepages-2MB", "hugepages-<size>kB");
	_load_fails("malformed/empty", "ports/1/state", "malformed state");
	_load_fails("malformed/rocegid", "ports/1/gids/2", "malformed GID");
	_load_fails("malformed/rocedev", "gid_attrs/ndevs/0", "eth0;reboot");
	_load_fails("malformed/rocemtu", "class/net/eth0/mtu", "9k");
	/* above the kernel's unsigned int (the loopback device's 65536 is one) */
	_load_fails("malformed/rocemtubig", "class/net/eth0/mtu", "4294967296: not an MTU");
}

static void test_sysfs_root(void **state)
{
	char *out, msg[FS_MSG_SIZE], want[4096];

	(void)state;
	assert_int_equal(fs_gres_sysfs_root(NULL, NULL, &out, msg, sizeof(msg)), 0);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(fs_gres_sysfs_root("/", NULL, &out, msg, sizeof(msg)), 0);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(fs_gres_sysfs_root("sysfs", NULL, &out, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "absolute"));
	assert_int_equal(fs_gres_sysfs_root("/nonexistent", NULL, &out, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "/nonexistent/sys"));
	/* %h: the host name picks a tree */
	snprintf(want, sizeof(want), "%s", tf_fixture("sysfs", "lassen"));
	{
		char spec[4096];

		snprintf(spec, sizeof(spec), "%s", tf_fixture("sysfs", "%h/"));
		assert_int_equal(fs_gres_sysfs_root(spec, "lassen", &out, msg, sizeof(msg)), 0);
		assert_string_equal(out, want);
		free(out);
		assert_int_equal(fs_gres_sysfs_root(spec, "../x/y", &out, msg, sizeof(msg)), -1);
		assert_int_equal(fs_gres_sysfs_root(spec, "", &out, msg, sizeof(msg)), -1);
		assert_non_null(strstr(msg, "%h"));
		/* NULL: this machine's short name (no fixture of that name) */
		assert_int_equal(fs_gres_sysfs_root(spec, NULL, &out, msg, sizeof(msg)), -1);
		{
			char me[256] = "";

			assert_int_equal(gethostname(me, sizeof(me) - 1), 0);
			me[strcspn(me, ".")] = '\0';
			assert_non_null(strstr(msg, me));
		}
	}
}

static void test_page_type(void **state)
{
	char b[16];
	uint64_t kb;

	(void)state;
	assert_string_equal(fs_hp_page_name(2048, b, sizeof(b)), "2m");
	assert_string_equal(fs_hp_page_name(1048576, b, sizeof(b)), "1g");
	assert_string_equal(fs_hp_page_name(64, b, sizeof(b)), "64k");
	assert_int_equal(fs_hp_page_kb("2m", 2, &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(fs_hp_page_kb("1G", 2, &kb), 0);
	assert_int_equal(kb, 1048576);
	assert_int_equal(fs_hp_page_kb("2048k", 5, &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(fs_hp_page_kb("2mb", 3, &kb), -1);
	assert_int_equal(fs_hp_page_kb("m", 1, &kb), -1);
	assert_int_equal(fs_hp_page_kb("0m", 2, &kb), -1);
	assert_int_equal(fs_hp_page_kb(NULL, 0, &kb), -1);
}

/* ------------------------------------------------------------ env */

static const char *_env(const struct fs_gres_env *e, const char *name)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->name[i], name))
			return e->value[i];
	return NULL;
}

static void test_env(void **state)
{
	static const unsigned p1[] = { 1 }, p12[] = { 1, 2 };
	struct fs_gres_rdma_dev d[] = {
		{ "mlx5_0", p1, 1, NULL, NULL },
		{ "mlx5_2", p12, 2, NULL, NULL },
		{ "qib0", NULL, 0, NULL, NULL },
	};
	struct fs_gres_env e = { 0 };
	char msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(fs_gres_rdma_env(d, 1, &e, msg, sizeof(msg)), 0);
	assert_string_equal(_env(&e, "UCX_NET_DEVICES"), "mlx5_0:1");
	assert_string_equal(_env(&e, "NCCL_IB_HCA"), "=mlx5_0:1");
	assert_string_equal(_env(&e, "OMPI_MCA_btl_openib_if_include"), "mlx5_0:1");
	assert_string_equal(_env(&e, "FABSCHED_RDMA_DEVICES"), "mlx5_0");
	fs_gres_env_clear(&e);
	assert_int_equal(fs_gres_rdma_env(d, 3, &e, msg, sizeof(msg)), 0);
	assert_string_equal(_env(&e, "UCX_NET_DEVICES"), "mlx5_0:1,mlx5_2:1,mlx5_2:2,qib0");
	assert_string_equal(_env(&e, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_2:1,mlx5_2:2,qib0");
	assert_string_equal(_env(&e, "FABSCHED_RDMA_DEVICES"), "mlx5_0,mlx5_2,qib0");
	/* no CPUs given: no locality */
	assert_null(_env(&e, "FABSCHED_RDMA_LOCALITY"));
	fs_gres_env_clear(&e);
	/* with their CPUs: the locality too, every variable set */
	d[0].cpus = "0-19";
	d[1].cpus = "20-39";
	d[2].cpus = "";
	assert_int_equal(fs_gres_rdma_env(d, 3, &e, msg, sizeof(msg)), 0);
	assert_string_equal(_env(&e, "FABSCHED_RDMA_LOCALITY"),
			    "mlx5_0:1=0-19;mlx5_2:1,2=20-39;qib0=");
	for (size_t i = 0; fs_gres_rdma_env_names[i]; i++)
		assert_non_null(_env(&e, fs_gres_rdma_env_names[i]));
	fs_gres_env_clear(&e);
	/* one without CPUs: no locality at all */
	d[2].cpus = NULL;
	assert_int_equal(fs_gres_rdma_env(d, 3, &e, msg, sizeof(msg)), 0);
	assert_null(_env(&e, "FABSCHED_RDMA_LOCALITY"));
	fs_gres_env_clear(&e);
	d[1].cpus = "20-";
	assert_int_equal(fs_gres_rdma_env(d, 2, &e, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "mlx5_2"));
	assert_non_null(strstr(msg, "20-"));
	assert_int_equal(e.n, 0);
	d[0].name = "mlx5;rm";
	assert_int_equal(fs_gres_rdma_env(d, 1, &e, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "mlx5;rm"));
	assert_int_equal(e.n, 0);
}

/* RoCE HCAs: GID index, net devices, traffic class and service level, in
 * the step's variables, in its locality and in each task's */
static void test_env_roce(void **state)
{
	static const unsigned p1[] = { 1 };
	struct fs_gres_roce r0 = { 3, "ens1f0np0", 106, 3 }, r1 = { 3, "ens2f0np0", 106, 3 };
	struct fs_gres_rdma_dev d[] = {
		{ "mlx5_0", p1, 1, "0", &r0 },
		{ "mlx5_1", p1, 1, "1", &r1 },
		{ "mlx5_9", p1, 1, "1", NULL }, /* InfiniBand */
	};
	struct fs_gres_env e = { 0 };
	struct fs_gres_rdma_set set = { 0 };
	char msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(fs_gres_rdma_env(d, 2, &e, msg, sizeof(msg)), 0);
	assert_string_equal(_env(&e, "UCX_NET_DEVICES"), "mlx5_0:1,mlx5_1:1");
	assert_string_equal(_env(&e, "NCCL_IB_GID_INDEX"), "3");
	assert_string_equal(_env(&e, "UCX_IB_GID_INDEX"), "3");
	assert_string_equal(_env(&e, "NCCL_SOCKET_IFNAME"), "=ens1f0np0,ens2f0np0");
	assert_string_equal(_env(&e, "NCCL_IB_TC"), "106");
	assert_string_equal(_env(&e, "UCX_IB_TRAFFIC_CLASS"), "106");
	assert_string_equal(_env(&e, "NCCL_IB_SL"), "3");
	assert_string_equal(_env(&e, "UCX_IB_SL"), "3");
	assert_string_equal(_env(&e, "FABSCHED_RDMA_LOCALITY"),
			    "mlx5_0:1@3,ens1f0np0,106,3=0;mlx5_1:1@3,ens2f0np0,106,3=1");
	for (size_t i = 0; fs_gres_roce_env_names[i]; i++)
		assert_non_null(_env(&e, fs_gres_roce_env_names[i]));
	/* what the builder writes, the parser reads back */
	assert_int_equal(fs_gres_rdma_locality_parse(_env(&e, "FABSCHED_RDMA_LOCALITY"), &set, msg,
						     sizeof(msg)),
			 0);
	assert_int_equal(set.n, 2);
	assert_non_null(set.dev[1].roce);
	assert_int_equal(set.dev[1].roce->gid, 3);
	assert_string_equal(set.dev[1].roce->netdev, "ens2f0np0");
	assert_int_equal(set.dev[1].roce->tc, 106);
	assert_int_equal(set.dev[1].roce->sl, 3);
	assert_int_equal(set.dev[1].nports, 1);
	assert_string_equal(set.dev[1].cpus, "1");
	fs_gres_rdma_set_clear(&set);
	fs_gres_env_clear(&e);

	/* indexes that differ: none for the step, each task its HCA's */
	r1.gid = 4;
	r0.tc = r1.tc = r0.sl = r1.sl = -1;
	assert_int_equal(fs_gres_rdma_env(d, 2, &e, msg, sizeof(msg)), 0);
	assert_null(_env(&e, "NCCL_IB_GID_INDEX"));
	assert_null(_env(&e, "UCX_IB_GID_INDEX"));
	assert_null(_env(&e, "NCCL_IB_TC")); /* not set in fabsched.conf */
	assert_null(_env(&e, "UCX_IB_SL"));
	assert_string_equal(_env(&e, "FABSCHED_RDMA_LOCALITY"),
			    "mlx5_0:1@3,ens1f0np0,-1,-1=0;mlx5_1:1@4,ens2f0np0,-1,-1=1");
	{
		struct fs_gres_env t = { 0 };

		assert_int_equal(fs_gres_rdma_task_env(_env(&e, "FABSCHED_RDMA_LOCALITY"), "1", 0,
						       &t, msg, sizeof(msg)),
				 0);
		assert_string_equal(_env(&t, "UCX_NET_DEVICES"), "mlx5_1:1");
		assert_string_equal(_env(&t, "NCCL_IB_GID_INDEX"), "4");
		assert_string_equal(_env(&t, "UCX_IB_GID_INDEX"), "4");
		assert_string_equal(_env(&t, "NCCL_SOCKET_IFNAME"), "=ens2f0np0");
		assert_null(_env(&t, "FABSCHED_RDMA_LOCALITY"));
		fs_gres_env_clear(&t);
	}
	fs_gres_env_clear(&e);
	/* a port without GID of the family: no index; one net device once */
	r1.gid = -1;
	strcpy(r1.netdev, "ens1f0np0");
	assert_int_equal(fs_gres_rdma_env(d, 2, &e, msg, sizeof(msg)), 0);
	assert_null(_env(&e, "NCCL_IB_GID_INDEX"));
	assert_string_equal(_env(&e, "NCCL_SOCKET_IFNAME"), "=ens1f0np0");
	fs_gres_env_clear(&e);
	/* a node with a RoCE HCA (CPU 0, traffic class 106) and an InfiniBand
	 * one (CPU 1): the task on CPU 1 unsets the step's RoCE variables,
	 * the one on CPU 0 keeps them as its own */
	{
		static const char *const loc = "mlx5_0:1@3,ens1f0np0,106,-1=0;mlx5_9:1=1";
		static const char *const gone[] = { "NCCL_IB_GID_INDEX", "UCX_IB_GID_INDEX",
						    "NCCL_SOCKET_IFNAME", "NCCL_IB_TC",
						    "UCX_IB_TRAFFIC_CLASS" };
		struct fs_gres_env t = { 0 };

		assert_int_equal(fs_gres_rdma_task_env(loc, "1", 0, &t, msg, sizeof(msg)), 0);
		assert_string_equal(_env(&t, "UCX_NET_DEVICES"), "mlx5_9:1");
		for (size_t i = 0; fs_gres_roce_env_names[i]; i++)
			assert_null(_env(&t, fs_gres_roce_env_names[i]));
		assert_int_equal(t.nunset, sizeof(gone) / sizeof(gone[0]));
		for (size_t i = 0; i < t.nunset; i++)
			assert_string_equal(t.unset[i], gone[i]);
		fs_gres_env_clear(&t);
		assert_int_equal(t.nunset, 0);
		assert_int_equal(fs_gres_rdma_task_env(loc, "0", 0, &t, msg, sizeof(msg)), 0);
		assert_string_equal(_env(&t, "NCCL_IB_GID_INDEX"), "3");
		assert_string_equal(_env(&t, "NCCL_IB_TC"), "106");
		assert_int_equal(t.nunset, 0);
		fs_gres_env_clear(&t);
		/* no CPU near either: the step's HCAs, nothing unset */
		assert_int_equal(fs_gres_rdma_task_env(loc, "2", 0, &t, msg, sizeof(msg)), 0);
		assert_string_equal(_env(&t, "NCCL_IB_GID_INDEX"), "3");
		assert_int_equal(t.nunset, 0);
		fs_gres_env_clear(&t);
	}
	/* InfiniBand only: none of them */
	assert_int_equal(fs_gres_rdma_env(d + 2, 1, &e, msg, sizeof(msg)), 0);
	for (size_t i = 0; fs_gres_roce_env_names[i]; i++)
		assert_null(_env(&e, fs_gres_roce_env_names[i]));
	assert_string_equal(_env(&e, "FABSCHED_RDMA_LOCALITY"), "mlx5_9:1=1");
	fs_gres_env_clear(&e);
	/* a net device name unfit for the environment */
	strcpy(r0.netdev, "eth0;id");
	assert_int_equal(fs_gres_rdma_env(d, 1, &e, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "eth0;id"));
	assert_int_equal(e.n, 0);
	/* malformed RoCE parts of the locality */
	{
		static const char *const bad[] = {
			"mlx5_0:1@x,eth0,1,1=0",   "mlx5_0:1@3,eth0,300,1=0",
			"mlx5_0:1@3,eth0,1,16=0",  "mlx5_0@3,eth0=0",
			"mlx5_0:1@3,eth0,1,1,9=0", "mlx5_0:1@3,,1,1=0",
			"mlx5_0:1@-2,eth0,1,1=0",  "mlx5_0:1@3,eth0/x,1,1=0",
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			memset(&set, 0, sizeof(set));
			if (fs_gres_rdma_locality_parse(bad[i], &set, msg, sizeof(msg)) != -1)
				print_error("accepted: %s\n", bad[i]);
			assert_non_null(strstr(msg, "expected"));
			fs_gres_rdma_set_clear(&set);
		}
	}
}

/* slurmd's unit of a RoCE HCA: the GID of the family fabsched.conf asks,
 * kept through the unit table's text form */
static void test_units_roce(void **state)
{
	struct fs_gres_inventory *inv = _load(XML_2S, "roce", FS_GRES_ALL);
	struct fs_gres_roce_conf v4 = { false, 106, -1 }, v6 = { true, -1, 5 };
	struct fs_gres_units t = { 0 }, back = { 0 };
	struct fs_gres_unit *u;
	char msg[FS_MSG_SIZE], *text, *text2;

	(void)state;
	u = fs_gres_units_add(&t);
	u->first = 0;
	u->count = 1;
	assert_true(fs_gres_rdma_unit_set(u, inv, "/dev/infiniband/uverbs0", NULL, &v4));
	assert_string_equal(u->label, "mlx5_0");
	assert_string_equal(u->roce.netdev, "ens1f0np0");
	assert_int_equal(u->roce.gid, 3);
	assert_int_equal(u->roce.tc, 106);
	assert_int_equal(u->roce.sl, -1);
	u = fs_gres_units_add(&t);
	u->first = 1;
	u->count = 1;
	assert_true(fs_gres_rdma_unit_set(u, inv, "/dev/infiniband/uverbs1", NULL, &v4));
	assert_int_equal(u->roce.gid, -1); /* IPv6 only */
	u = fs_gres_units_add(&t);
	u->first = 2;
	u->count = 1;
	assert_true(fs_gres_rdma_unit_set(u, inv, "/dev/infiniband/uverbs1", NULL, &v6));
	assert_int_equal(u->roce.gid, 4);
	assert_int_equal(u->roce.tc, -1);
	assert_int_equal(u->roce.sl, 5);
	/* the port DOWN: no RoCE values */
	u = fs_gres_units_add(&t);
	u->first = 3;
	u->count = 1;
	assert_true(fs_gres_rdma_unit_set(u, inv, "/dev/infiniband/uverbs2", NULL, &v4));
	assert_string_equal(u->roce.netdev, "");
	assert_non_null(text = fs_gres_units_format(&t));
	assert_non_null(strstr(text, " 3,ens1f0np0,106,-1\n"));
	assert_non_null(strstr(text, " -1,ens2f0np0,106,-1\n"));
	assert_int_equal(fs_gres_units_parse(&back, text, false, msg, sizeof(msg)), 0);
	assert_int_equal(back.n, 4);
	assert_int_equal(back.u[2].roce.gid, 4);
	assert_int_equal(back.u[2].roce.sl, 5);
	assert_string_equal(back.u[3].roce.netdev, "");
	assert_non_null(text2 = fs_gres_units_format(&back));
	assert_string_equal(text, text2);
	/* what a step of units 0 and 2 is told */
	{
		struct fs_gres_rdma_sel sel;
		struct fs_gres_env e = { 0 };
		const uint8_t held[] = { 1, 0, 1, 0 };

		assert_int_equal(fs_gres_rdma_devs(&back, held, 4, &sel), 2);
		assert_int_equal(fs_gres_rdma_env(sel.dev, sel.n, &e, msg, sizeof(msg)), 0);
		assert_string_equal(_env(&e, "NCCL_SOCKET_IFNAME"), "=ens1f0np0,ens2f0np0");
		assert_null(_env(&e, "NCCL_IB_GID_INDEX")); /* 3 and 4 */
		assert_string_equal(_env(&e, "NCCL_IB_TC"), "106");
		fs_gres_env_clear(&e);
	}
	free(text2);
	fs_gres_units_clear(&back);
	/* malformed RoCE columns */
	assert_int_equal(
		fs_gres_units_parse(&back, "0 1 mlx5_0 0 1 0 3,eth0\n", false, msg, sizeof(msg)),
		-1);
	assert_non_null(strstr(msg, "gid,netdev,tc,sl"));
	assert_int_equal(fs_gres_units_parse(&back, "0 1 mlx5_0 0 1 0 3,eth;0,1,1\n", false, msg,
					     sizeof(msg)),
			 -1);
	free(text);
	fs_gres_units_clear(&t);
	fs_gres_inventory_free(inv);
}

static void test_locality_parse(void **state)
{
	struct fs_gres_rdma_set set = { 0 };
	struct fs_gres_env e = { 0 };
	char msg[FS_MSG_SIZE];
	static const struct {
		const char *value, *word;
	} bad[] = {
		{ "", "empty" },
		{ "mlx5_0:1", "no '='" },
		{ "=0-3", "no HCA name" },
		{ "mlx5 0:1=0", "after the HCA name" },
		{ "mlx5_0:=0", "empty port" },
		{ "mlx5_0:0=0", "1..255" },
		{ "mlx5_0:256=0", "1..255" },
		{ "mlx5_0:1,=0", "empty port" },
		{ "mlx5_0:1;2=0", "no '='" },
		{ "mlx5_0:1=0-", "not a cpulist" },
		{ "mlx5_0:1=0;mlx5_0:2=1", "named twice" },
		{ "mlx5_0:1=0;", "no '='" },
		{ "mlx5_0:1,2,3,4,5,6,7,8,9=0", "more than 8 ports" },
	};

	(void)state;
	assert_int_equal(fs_gres_rdma_locality_parse("mlx5_0:1=8-87;mlx5_2:1,2=96-175;qib0=", &set,
						     msg, sizeof(msg)),
			 0);
	assert_int_equal(set.n, 3);
	assert_string_equal(set.dev[0].name, "mlx5_0");
	assert_int_equal(set.dev[0].nports, 1);
	assert_int_equal(set.dev[0].ports[0], 1);
	assert_string_equal(set.dev[0].cpus, "8-87");
	assert_int_equal(set.dev[1].nports, 2);
	assert_int_equal(set.dev[1].ports[1], 2);
	assert_string_equal(set.dev[2].name, "qib0");
	assert_int_equal(set.dev[2].nports, 0);
	assert_string_equal(set.dev[2].cpus, "");
	fs_gres_rdma_set_clear(&set);
	/* what the builder writes, the parser reads back */
	{
		static const unsigned p1[] = { 1 };
		struct fs_gres_rdma_dev d[] = {
			{ "mlx5_0", p1, 1, "0-7", NULL },
			{ "mlx5_1", p1, 1, "8-15", NULL },
		};

		assert_int_equal(fs_gres_rdma_env(d, 2, &e, msg, sizeof(msg)), 0);
		assert_int_equal(fs_gres_rdma_locality_parse(_env(&e, "FABSCHED_RDMA_LOCALITY"),
							     &set, msg, sizeof(msg)),
				 0);
		assert_int_equal(set.n, 2);
		assert_string_equal(set.dev[1].cpus, "8-15");
		fs_gres_rdma_set_clear(&set);
		fs_gres_env_clear(&e);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		if (fs_gres_rdma_locality_parse(bad[i].value, &set, msg, sizeof(msg)) != -1 ||
		    !strstr(msg, bad[i].word) || !strstr(msg, "FABSCHED_RDMA_LOCALITY") ||
		    !strstr(msg, "expected"))
			fail_msg("\"%s\": %s", bad[i].value, msg);
		fs_gres_rdma_set_clear(&set);
	}
}

static void test_task_env(void **state)
{
	/* the lassen-like step: 2 HCAs on NUMA 0, 1 on NUMA 8 */
	const char *loc = "mlx5_0:1=8-87;mlx5_1:1=8-87;mlx5_2:1=96-175";
	struct fs_gres_env e = { 0 };
	char msg[FS_MSG_SIZE];

	(void)state;
	/* a task on NUMA 8: the HCA there */
	assert_int_equal(fs_gres_rdma_task_env(loc, "100-103", 0, &e, msg, sizeof(msg)), 0);
	assert_string_equal(_env(&e, "UCX_NET_DEVICES"), "mlx5_2:1");
	assert_string_equal(_env(&e, "NCCL_IB_HCA"), "=mlx5_2:1");
	assert_string_equal(_env(&e, "OMPI_MCA_btl_openib_if_include"), "mlx5_2:1");
	assert_string_equal(_env(&e, "FABSCHED_RDMA_DEVICES"), "mlx5_2");
	/* the step's locality is not the task's to change */
	assert_null(_env(&e, "FABSCHED_RDMA_LOCALITY"));
	assert_int_equal(e.n, 4);
	fs_gres_env_clear(&e);
	/* tasks on NUMA 0: two HCAs equally near, shared out by local id */
	assert_int_equal(fs_gres_rdma_task_env(loc, "8-11", 0, &e, msg, sizeof(msg)), 0);
	assert_string_equal(_env(&e, "UCX_NET_DEVICES"), "mlx5_0:1");
	fs_gres_env_clear(&e);
	assert_int_equal(fs_gres_rdma_task_env(loc, "12-15", 1, &e, msg, sizeof(msg)), 0);
	assert_string_equal(_env(&e, "UCX_NET_DEVICES"), "mlx5_1:1");
	fs_gres_env_clear(&e);
	/* one HCA nearest: the local id does not matter */
	assert_int_equal(fs_gres_rdma_task_env(loc, "100-103", 5, &e, msg, sizeof(msg)), 0);
	assert_string_equal(_env(&e, "UCX_NET_DEVICES"), "mlx5_2:1");
	fs_gres_env_clear(&e);
	/* straddling: the side holding more of its CPUs */
	assert_int_equal(fs_gres_rdma_task_env(loc, "86-87,96-99", 0, &e, msg, sizeof(msg)), 0);
	assert_string_equal(_env(&e, "FABSCHED_RDMA_DEVICES"), "mlx5_2");
	fs_gres_env_clear(&e);
	/* no CPU near any HCA: every HCA of the step */
	assert_int_equal(fs_gres_rdma_task_env(loc, "0-1", 0, &e, msg, sizeof(msg)), 0);
	assert_string_equal(_env(&e, "UCX_NET_DEVICES"), "mlx5_0:1,mlx5_1:1,mlx5_2:1");
	assert_string_equal(_env(&e, "FABSCHED_RDMA_DEVICES"), "mlx5_0,mlx5_1,mlx5_2");
	fs_gres_env_clear(&e);
	/* bad input: a message, nothing set */
	assert_int_equal(fs_gres_rdma_task_env("mlx5_0=0-", "0", 0, &e, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "FABSCHED_RDMA_LOCALITY"));
	assert_int_equal(e.n, 0);
	assert_int_equal(fs_gres_rdma_task_env(loc, "0,", 0, &e, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "\"0,\""));
	assert_int_equal(e.n, 0);
}

/* The calling task's choice: its own CPUs, its local id from the string. */
static void test_task_self(void **state)
{
	/* two HCAs near every CPU this test may run on */
	const char *loc = "mlx5_0:1=0-4095;mlx5_1:1=0-4095";
	static const struct {
		const char *id, *dev;
	} cases[] = {
		{ "1", "mlx5_1" },	     { "2", "mlx5_0" },
		{ NULL, "mlx5_0" },	     { "", "mlx5_0" },
		{ "x", "mlx5_0" },	     { "-1", "mlx5_0" },
		{ "99999999999", "mlx5_0" },
	};
	struct fs_gres_env e = { 0 };
	char msg[FS_MSG_SIZE], *cpus;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(fs_gres_rdma_task(loc, cases[i].id, &e, &cpus, msg, sizeof(msg)),
				 0);
		assert_non_null(cpus);
		assert_string_equal(_env(&e, "FABSCHED_RDMA_DEVICES"), cases[i].dev);
		fs_gres_env_clear(&e);
		free(cpus);
	}
	assert_int_equal(fs_gres_rdma_task("mlx5_0=0-", "0", &e, &cpus, msg, sizeof(msg)), -1);
	free(cpus);
}

/* ------------------------------------------------------------ hugepages */

static void test_huge_type(void **state)
{
	char b[32], msg[FS_MSG_SIZE];
	uint64_t kb, per;
	static const char *const bad[] = { "",	   "x8",    "2m x8", "2mx",
					   "2mx0", "2mx8x", "2mx-8", "2mx1073741825",
					   "3q",   "2mb",   "2mx8m" };

	(void)state;
	assert_string_equal(fs_hp_type_name(2048, 1, b, sizeof(b)), "2m");
	assert_string_equal(fs_hp_type_name(2048, 8, b, sizeof(b)), "2mx8");
	assert_string_equal(fs_hp_type_name(1048576, 2, b, sizeof(b)), "1gx2");
	assert_int_equal(fs_hp_type_parse("2m", &kb, &per, msg, sizeof(msg)), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(per, 1);
	assert_int_equal(fs_hp_type_parse("2mx8", &kb, &per, msg, sizeof(msg)), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(per, 8);
	assert_int_equal(fs_hp_type_parse("1Gx3", &kb, &per, msg, sizeof(msg)), 0);
	assert_int_equal(kb, 1048576);
	assert_int_equal(per, 3);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		if (fs_hp_type_parse(bad[i], &kb, &per, msg, sizeof(msg)) != -1 ||
		    !strstr(msg, "expected"))
			fail_msg("\"%s\": %s", bad[i], msg);
	}
	assert_int_equal(fs_hp_type_parse(NULL, &kb, &per, msg, sizeof(msg)), -1);
}

/* plan of a fixture's pools, as "type:numa=units[+left]" joined by ' ' */
static void _plan_fixed(const struct fs_gres_hugepool *pools, size_t n, uint64_t max,
			const struct fs_hp_units *fixed, char *out, size_t outsz)
{
	struct fs_gres_huge_rec *r = NULL;
	size_t nr = 0, o = 0;
	char msg[FS_MSG_SIZE];
	uint64_t units = 0;

	assert_int_equal(fs_gres_huge_plan(pools, n, max, fixed, &r, &nr, msg, sizeof(msg)), 0);
	out[0] = '\0';
	for (size_t i = 0; i < nr; i++) {
		o += (size_t)snprintf(out + o, outsz - o, "%s%s:%d=%llu", i ? " " : "", r[i].type,
				      r[i].numa_node, (unsigned long long)r[i].units);
		if (r[i].left)
			o += (size_t)snprintf(out + o, outsz - o, "+%llu",
					      (unsigned long long)r[i].left);
		units += r[i].units;
		/* every page is in a unit or in left */
		assert_int_equal(r[i].units * r[i].per_unit + r[i].left, pools[i].total);
	}
	assert_true(units <= max);
	free(r);
}

static void _plan_str(const struct fs_gres_hugepool *pools, size_t n, uint64_t max, char *out,
		      size_t outsz)
{
	_plan_fixed(pools, n, max, NULL, out, outsz);
}

/* nodes reserving tens of GiB: 32,768 2 MiB and 64 1 GiB pages on 2 and on
 * 8 NUMA nodes, and a smaller one; HugepageUnits gives all one unit */
static void test_huge_plan_units(void **state)
{
	struct fs_gres_hugepool two[4], eight[16], small[2];
	struct fs_hp_units u;
	struct fs_gres_huge_rec *r = NULL;
	size_t nr = 0;
	char s[1024], msg[FS_MSG_SIZE];

	(void)state;
	for (int i = 0; i < 2; i++) {
		two[2 * i] = (struct fs_gres_hugepool){ .numa_node = i,
							.page_kb = 2048,
							.total = 16384 };
		two[2 * i + 1] = (struct fs_gres_hugepool){ .numa_node = i,
							    .page_kb = 1048576,
							    .total = 32 };
		small[i] =
			(struct fs_gres_hugepool){ .numa_node = i, .page_kb = 2048, .total = 4096 };
	}
	for (int i = 0; i < 8; i++) {
		eight[2 * i] =
			(struct fs_gres_hugepool){ .numa_node = i, .page_kb = 2048, .total = 4096 };
		eight[2 * i + 1] =
			(struct fs_gres_hugepool){ .numa_node = i, .page_kb = 1048576, .total = 8 };
	}
	/* on their own: 2mx64 on the big nodes, 2mx8 on the small one, so no
	   one request in units fits all three */
	_plan_str(two, 4, FS_GRES_MAX_INDEXED, s, sizeof(s));
	assert_string_equal(s, "2mx64:0=256 1g:0=32 2mx64:1=256 1g:1=32");
	_plan_str(small, 2, FS_GRES_MAX_INDEXED, s, sizeof(s));
	assert_string_equal(s, "2mx8:0=512 2mx8:1=512");
	/* HugepageUnits=2m:64,1g:1: the same type everywhere */
	assert_int_equal(fs_hp_units_parse("HugepageUnits", "2m:64,1g:1", &u, msg, sizeof(msg)), 0);
	_plan_fixed(two, 4, FS_GRES_MAX_INDEXED, &u, s, sizeof(s));
	assert_string_equal(s, "2mx64:0=256 1g:0=32 2mx64:1=256 1g:1=32");
	_plan_fixed(eight, 16, FS_GRES_MAX_INDEXED, &u, s, sizeof(s));
	assert_string_equal(s, "2mx64:0=64 1g:0=8 2mx64:1=64 1g:1=8 "
			       "2mx64:2=64 1g:2=8 2mx64:3=64 1g:3=8 "
			       "2mx64:4=64 1g:4=8 2mx64:5=64 1g:5=8 "
			       "2mx64:6=64 1g:6=8 2mx64:7=64 1g:7=8");
	_plan_fixed(small, 2, FS_GRES_MAX_INDEXED, &u, s, sizeof(s));
	assert_string_equal(s, "2mx64:0=64 2mx64:1=64");
	/* a size it does not name is fitted as before */
	assert_int_equal(fs_hp_units_parse("HugepageUnits", "1g:1", &u, msg, sizeof(msg)), 0);
	_plan_fixed(two, 4, FS_GRES_MAX_INDEXED, &u, s, sizeof(s));
	assert_string_equal(s, "2mx64:0=256 1g:0=32 2mx64:1=256 1g:1=32");
	/* a unit too small for the node: refused, naming what would do */
	assert_int_equal(fs_hp_units_parse("HugepageUnits", "2m:16", &u, msg, sizeof(msg)), 0);
	assert_int_equal(
		fs_gres_huge_plan(two, 4, FS_GRES_MAX_INDEXED, &u, &r, &nr, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "2112 units"));
	assert_non_null(strstr(msg, "at least 2m:64"));
	assert_null(r);
}

static void test_huge_plan_fixtures(void **state)
{
	struct fs_gres_inventory *inv;
	char s[512];

	(void)state;
	/* 520 pages: counted in pages */
	inv = _load(XML_LASSEN, "lassen", FS_GRES_ALL);
	_plan_str(inv->pools, inv->npools, FS_GRES_MAX_INDEXED, s, sizeof(s));
	assert_string_equal(s, "2m:0=256 1g:0=4 2m:8=256 1g:8=4");
	fs_gres_inventory_free(inv);
	/* 1024 pages: still pages */
	inv = _load(XML_32, "32em64t", FS_GRES_ALL);
	_plan_str(inv->pools, inv->npools, FS_GRES_MAX_INDEXED, s, sizeof(s));
	assert_string_equal(s, "2m:0=512 2m:1=512");
	fs_gres_inventory_free(inv);
	/* 4 x 256 2m + 4 x 2 1g = 1032: the 2m pages in pairs */
	inv = _load(XML_40, "40intel64", FS_GRES_ALL);
	_plan_str(inv->pools, inv->npools, FS_GRES_MAX_INDEXED, s, sizeof(s));
	assert_string_equal(s, "2mx2:0=128 1g:0=2 2mx2:1=128 1g:1=2 "
			       "2mx2:2=128 1g:2=2 2mx2:3=128 1g:3=2");
	fs_gres_inventory_free(inv);
	/* 2 x 4096 2m: blocks of 8 pages, 512 per NUMA node */
	inv = _load(XML_2S, "twosocket", FS_GRES_ALL);
	_plan_str(inv->pools, inv->npools, FS_GRES_MAX_INDEXED, s, sizeof(s));
	assert_string_equal(s, "2mx8:0=512 2mx8:1=512");
	fs_gres_inventory_free(inv);
	inv = _load(XML_32, "nohca", FS_GRES_ALL);
	_plan_str(inv->pools, inv->npools, FS_GRES_MAX_INDEXED, s, sizeof(s));
	assert_string_equal(s, "2m:0=128");
	fs_gres_inventory_free(inv);
}

static void test_huge_plan(void **state)
{
	struct fs_gres_hugepool p[4] = {
		{ .numa_node = 0, .page_kb = 2048, .total = 100000 },
		{ .numa_node = 0, .page_kb = 1048576, .total = 16 },
		{ .numa_node = 1, .page_kb = 2048, .total = 3 },
		{ .numa_node = 1, .page_kb = 1048576, .total = 0 },
	};
	struct fs_gres_huge_rec *r = (void *)1;
	size_t nr = 9;
	char s[512], msg[FS_MSG_SIZE];

	(void)state;
	/* 2m in blocks of 128 (781 + 16 <= 1024); the 3-page pool and the
	   remainders are left over; the empty pool has no record */
	_plan_str(p, 3, FS_GRES_MAX_INDEXED, s, sizeof(s));
	assert_string_equal(s, "2mx128:0=781+32 1g:0=16 2mx128:1=0+3");
	_plan_str(p, 4, FS_GRES_MAX_INDEXED, s, sizeof(s));
	assert_string_equal(s, "2mx128:0=781+32 1g:0=16 2mx128:1=0+3");
	/* both sizes too big: the one with more units grows first */
	p[0].total = 600;
	p[1].total = 600;
	_plan_str(p, 2, 1000, s, sizeof(s));
	assert_string_equal(s, "2mx2:0=300 1g:0=600");
	/* 1g to 1gx2 (600 > 300 units), then equals: the smaller page */
	_plan_str(p, 2, 500, s, sizeof(s));
	assert_string_equal(s, "2mx4:0=150 1gx2:0=300");
	/* nothing to plan */
	assert_int_equal(fs_gres_huge_plan(p, 0, 1024, NULL, &r, &nr, msg, sizeof(msg)), 0);
	assert_null(r);
	assert_int_equal(nr, 0);
	/* more pools than units */
	assert_int_equal(fs_gres_huge_plan(p, 2, 1, NULL, &r, &nr, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "expected"));
	assert_null(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_socket_cores),
		cmocka_unit_test(test_pick_nearest),
		cmocka_unit_test(test_topo_32em64t),
		cmocka_unit_test(test_topo_40intel64),
		cmocka_unit_test(test_topo_lassen),
		cmocka_unit_test(test_topo_bad_xml),
		cmocka_unit_test(test_hca_lassen),
		cmocka_unit_test(test_hca_roce),
		cmocka_unit_test(test_hca_spanning),
		cmocka_unit_test(test_hca_sysfs_locality),
		cmocka_unit_test(test_no_hca),
		cmocka_unit_test(test_no_1g),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_sysfs_root),
		cmocka_unit_test(test_env_roce),
		cmocka_unit_test(test_units_roce),
		cmocka_unit_test(test_page_type),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_locality_parse),
		cmocka_unit_test(test_task_env),
		cmocka_unit_test(test_task_self),
		cmocka_unit_test(test_task_cpus),
		cmocka_unit_test(test_huge_type),
		cmocka_unit_test(test_huge_plan_fixtures),
		cmocka_unit_test(test_huge_plan),
		cmocka_unit_test(test_huge_plan_units),
	};

	return cmocka_run_group_tests_name("gres", tests, NULL, NULL);
}
