/*
 * test_gres_units.c - the gres plugins' unit table (gres/units.c): its
 * text form round trip (slurmd -> slurmstepd), bad tables, the units of a
 * gres index, FABSCHED_HUGEPAGES written from the units a job holds and
 * read back by the prolog's reader (fs_pl_parse_hugepages), blocks of
 * pages (2mx8) counted in pages, and the rdma devices of an allocation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabsched_gres.h"
#include "fabsched_prolog.h"

static struct fs_gres_unit *_unit(struct fs_gres_units *t, uint64_t first, uint64_t count,
				  const char *label, int numa)
{
	struct fs_gres_unit *u = fs_gres_units_add(t);

	assert_non_null(u);
	u->first = first;
	u->count = count;
	u->numa = numa;
	snprintf(u->label, sizeof(u->label), "%s", label);
	u->cpus = strdup("");
	return u;
}

/* a node with 2m pages on NUMA 0 and 8 (in blocks of 8 on 8) and 1g on 0 */
static void _huge_node(struct fs_gres_units *t)
{
	memset(t, 0, sizeof(*t));
	assert_int_equal(fs_gres_unit_huge_type(_unit(t, 0, 512, "2m", 0), NULL, 0), 0);
	assert_int_equal(fs_gres_unit_huge_type(_unit(t, 512, 64, "2mx8", 8), NULL, 0), 0);
	assert_int_equal(fs_gres_unit_huge_type(_unit(t, 576, 4, "1g", 0), NULL, 0), 0);
}

static void test_text_roundtrip(void **state)
{
	struct fs_gres_units t, back = { 0 };
	struct fs_gres_unit *u;
	char *s, *s2, msg[FS_MSG_SIZE];

	(void)state;
	_huge_node(&t);
	u = _unit(&t, 580, 1, "mlx5_0", -1);
	snprintf(u->ports, sizeof(u->ports), "1,2");
	free(u->cpus);
	u->cpus = strdup("0-19,40-59");
	assert_non_null(s = fs_gres_units_format(&t));
	assert_int_equal(fs_gres_units_parse(&back, s, true, msg, sizeof(msg)), 0);
	assert_int_equal(back.n, 4);
	assert_int_equal(back.u[1].page_kb, 2048);
	assert_int_equal(back.u[1].per_unit, 8);
	assert_int_equal(back.u[1].numa, 8);
	assert_string_equal(back.u[3].ports, "1,2");
	assert_string_equal(back.u[3].cpus, "0-19,40-59");
	assert_non_null(s2 = fs_gres_units_format(&back));
	assert_string_equal(s, s2);
	/* which unit holds an index */
	assert_ptr_equal(fs_gres_units_of(&back, 511), &back.u[0]);
	assert_ptr_equal(fs_gres_units_of(&back, 512), &back.u[1]);
	assert_null(fs_gres_units_of(&back, 581));
	/* bad tables: nothing kept, the line named */
	assert_int_equal(
		fs_gres_units_parse(&back, "0 1 2m 0 - - -\nrubbish\n", true, msg, sizeof(msg)),
		-1);
	assert_int_equal(back.n, 0);
	assert_non_null(strstr(msg, "line 2"));
	assert_int_equal(fs_gres_units_parse(&back, "", true, msg, sizeof(msg)), 0);
	assert_non_null(s2 = (free(s2), fs_gres_units_format(&back)));
	assert_string_equal(s2, "");
	free(s);
	free(s2);
	fs_gres_units_clear(&t);
	fs_gres_units_clear(&back);
}

/* What the gres plugin writes, the prolog reads back as the same pages. */
static void test_hugepages_roundtrip(void **state)
{
	struct fs_gres_units t;
	uint64_t held[3] = { 256, 16, 2 }, total;
	struct fs_pl_job job;
	char *v, count[32], msg[FS_MSG_SIZE];

	(void)state;
	_huge_node(&t);
	assert_int_equal(fs_gres_huge_value(&t, held, 0, &v, &total, msg, sizeof(msg)), 0);
	assert_string_equal(v, "2m:0=256,2m:8=128,1g:0=2");
	assert_int_equal(total, 256 + 128 + 2);
	snprintf(count, sizeof(count), "%llu", (unsigned long long)total);
	memset(&job, 0, sizeof(job));
	assert_int_equal(fs_pl_parse_hugepages(v, count, 64ULL << 20, &job, msg, sizeof(msg)), 0);
	assert_int_equal(job.npages, 3);
	for (size_t i = 0; i < job.npages; i++) {
		const struct fs_pl_pages *p = &job.pages[i];

		if (p->page_kb == 2048 && p->node == 0)
			assert_int_equal(p->pages, 256);
		else if (p->page_kb == 2048 && p->node == 8)
			assert_int_equal(p->pages, 128);
		else if (p->page_kb == 1048576 && p->node == 0)
			assert_int_equal(p->pages, 2);
		else
			fail_msg("unexpected pages: node %d, %llu KiB", p->node,
				 (unsigned long long)p->page_kb);
	}
	free(v);
	/* nothing held: no variable */
	memset(held, 0, sizeof(held));
	assert_int_equal(fs_gres_huge_value(&t, held, 0, &v, &total, msg, sizeof(msg)), 0);
	assert_null(v);
	assert_int_equal(total, 0);
	/* records without File=: one type, any NUMA node */
	fs_gres_units_clear(&t);
	assert_int_equal(fs_gres_unit_huge_type(_unit(&t, 0, 100, "2mx2", -1), NULL, 0), 0);
	assert_int_equal(fs_gres_huge_value(&t, NULL, 10, &v, &total, msg, sizeof(msg)), 0);
	assert_string_equal(v, "2m:any=20");
	memset(&job, 0, sizeof(job));
	assert_int_equal(fs_pl_parse_hugepages(v, "20", 64ULL << 20, &job, msg, sizeof(msg)), 0);
	assert_int_equal(job.pages[0].pages, 20);
	free(v);
	/* several types without File=: an error naming the form */
	assert_int_equal(fs_gres_unit_huge_type(_unit(&t, 100, 4, "1g", -1), NULL, 0), 0);
	assert_int_equal(fs_gres_huge_value(&t, NULL, 3, &v, &total, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "expected one type per node"));
	/* a label that is no type */
	assert_int_equal(fs_gres_unit_huge_type(_unit(&t, 104, 1, "huge", -1), msg, sizeof(msg)),
			 -1);
	fs_gres_units_clear(&t);
}

static void test_rdma_devs(void **state)
{
	struct fs_gres_units t = { 0 };
	struct fs_gres_rdma_sel s;
	struct fs_gres_unit *u;
	uint8_t held[3] = { 0, 1, 1 };

	(void)state;
	u = _unit(&t, 0, 1, "mlx5_0", -1);
	snprintf(u->ports, sizeof(u->ports), "1");
	u = _unit(&t, 1, 1, "mlx5_1", -1);
	snprintf(u->ports, sizeof(u->ports), "1,2");
	assert_int_equal(fs_gres_rdma_devs(&t, held, 3, &s), 1); /* index 2: none */
	assert_string_equal(s.dev[0].name, "mlx5_1");
	assert_int_equal(s.dev[0].nports, 2);
	assert_int_equal(s.dev[0].ports[1], 2);
	held[0] = 1;
	assert_int_equal(fs_gres_rdma_devs(&t, held, 3, &s), 2);
	assert_int_equal(fs_gres_rdma_devs(&t, NULL, 0, &s), 0);
	fs_gres_units_clear(&t);
}

/* slurmd's record decisions (gres/records.c). */
static void test_records(void **state)
{
	struct fs_gres_port ports[2] = { { .num = 1, .active = true },
					 { .num = 2, .active = false } };
	struct fs_gres_hca hca = { .name = "mlx5_0",
				   .uverbs = "uverbs0",
				   .dev_path = "/dev/infiniband/uverbs0",
				   .cpus = "0-7",
				   .nports = 2,
				   .ports = ports,
				   .nactive = 1 };
	struct fs_gres_inventory inv = { .nhca = 1, .hca = &hca };
	struct fs_gres_units t = { 0 };
	struct fs_gres_unit *u;
	char *s = NULL, msg[FS_MSG_SIZE];
	size_t dropped;
	uint8_t bits[12] = { 1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1 };
	uint64_t held[3];

	(void)state;
	assert_null(fs_gres_autodetect_skip(false, 0, true));
	assert_string_equal(fs_gres_autodetect_skip(true, 0, true), "AutoDetect=off in gres.conf");
	assert_non_null(strstr(fs_gres_autodetect_skip(false, 2, true), "File="));
	assert_non_null(strstr(fs_gres_autodetect_skip(false, 0, false), "inventory"));
	/* CPUs beyond the node's count are dropped */
	assert_int_equal(fs_gres_clip_cpus("2-5,30-31", 8, &s, &dropped, msg, sizeof(msg)), 0);
	assert_string_equal(s, "2-5");
	assert_int_equal(dropped, 2);
	free(s);
	assert_int_equal(fs_gres_clip_cpus("30", 8, &s, &dropped, msg, sizeof(msg)), 0);
	assert_null(s);
	assert_int_equal(fs_gres_clip_cpus("x", 8, &s, &dropped, msg, sizeof(msg)), -1);
	/* 2 sockets of 4 cores: part of socket 0 -> socket 0; both -> all
	 * on 25.11 (one) */
	assert_int_equal(fs_gres_widen_cores("1-2", 2, 4, false, &s), 1);
	assert_string_equal(s, "0-3");
	free(s);
	assert_int_equal(fs_gres_widen_cores("0-3", 2, 4, false, &s), 0);
	assert_null(s);
	assert_int_equal(fs_gres_widen_cores("3-4", 2, 4, true, &s), 1);
	assert_string_equal(s, "0-7");
	free(s);
	assert_int_equal(fs_gres_widen_cores("0", 0, 4, true, &s), -1);
	assert_int_equal(fs_gres_widen_cores("6-9", 2, 4, false, &s), -1);
	assert_null(s);
	/* HCAs */
	{
		char notes[2][FS_MSG_SIZE];

		ports[1].state_name = "DOWN";
		ports[1].phys_state_name = "Disabled";
		assert_int_equal(fs_gres_hca_notes(&hca, notes, 2), 1);
		assert_string_equal(notes[0],
				    "mlx5_0 port 2 is DOWN (physical state Disabled): not counted");
		assert_int_equal(fs_gres_hca_notes(&hca, notes, 0), 0);
	}
	assert_null(fs_gres_hca_skip(&hca));
	hca.nactive = 0;
	assert_string_equal(fs_gres_hca_skip(&hca), "has no ACTIVE port");
	hca.nactive = 1;
	hca.dev_path = "";
	assert_non_null(strstr(fs_gres_hca_skip(&hca), "no uverbs device"));
	hca.dev_path = "/dev/infiniband/uverbs0";
	u = fs_gres_units_add(&t);
	assert_true(fs_gres_rdma_unit_set(u, &inv, "/dev/infiniband/uverbs0", "9", NULL));
	assert_string_equal(u->label, "mlx5_0");
	assert_string_equal(u->ports, "1");
	assert_string_equal(u->cpus, "0-7");
	u = fs_gres_units_add(&t);
	assert_false(fs_gres_rdma_unit_set(u, &inv, "/dev/infiniband/uverbs7", "9", NULL));
	assert_string_equal(u->label, "uverbs7");
	assert_string_equal(u->cpus, "9");
	fs_gres_units_clear(&t);
	/* hugepage units from File= and Type= */
	u = fs_gres_units_add(&t);
	u->first = 0;
	u->count = 4;
	assert_int_equal(fs_gres_huge_unit_set(
				 u, "/sys/devices/system/node/node1/hugepages/hugepages-2048kB",
				 "2mx64", msg, sizeof(msg)),
			 0);
	assert_int_equal(u->numa, 1);
	assert_int_equal(u->page_kb, 2048);
	assert_int_equal(u->per_unit, 64);
	u = fs_gres_units_add(&t);
	u->first = 4;
	u->count = 8;
	assert_int_equal(fs_gres_huge_unit_set(u, NULL, "bogus", msg, sizeof(msg)), -1);
	assert_int_equal(u->numa, -1);
	fs_gres_units_held(&t, bits, 12, held);
	assert_int_equal(held[0], 3);
	assert_int_equal(held[1], 4);
	fs_gres_units_held(&t, bits, 6, held); /* a shorter allocation */
	assert_int_equal(held[1], 0);
	fs_gres_units_clear(&t);
}

/* A node's hugepage records: in the cluster's units, or its own. */
static void test_huge_node_plan(void **state)
{
	struct fs_gres_hugepool pools[] = {
		{ .numa_node = 0, .page_kb = 2048, .type = "2m", .total = 4100 },
	};
	struct fs_gres_inventory inv = { .npools = 1, .pools = pools };
	struct fs_hp_units fixed = { 0 };
	struct fs_gres_huge_rec *recs;
	size_t n;
	char warn[FS_MSG_SIZE], msg[FS_MSG_SIZE], notes[2][FS_MSG_SIZE], file[160];

	(void)state;
	assert_int_equal(fs_hp_units_parse("HugepageUnits", "2m:2", &fixed, msg, sizeof(msg)), 0);
	/* 2050 units of 2 are more than Slurm indexes: the node's own unit */
	assert_int_equal(fs_gres_huge_node_plan(&inv, &fixed, &recs, &n, warn, sizeof(warn), msg,
						sizeof(msg)),
			 0);
	assert_non_null(strstr(warn, "units of its own"));
	assert_int_equal(fixed.n, 0);
	assert_int_equal(n, 1);
	assert_string_equal(recs[0].type, "2mx8");
	assert_int_equal(fs_gres_huge_rec_notes(&recs[0], &fixed, notes, file, sizeof(file)), 2);
	assert_string_equal(file, "/sys/devices/system/node/node0/hugepages/hugepages-2048kB");
	assert_non_null(strstr(
		notes[0], "4100 pages counted in units of 8 (Type=2mx8): the node's pages exceed"));
	assert_non_null(strstr(notes[1], "4 page(s) of 2048 KiB short of a whole unit"));
	free(recs);
	assert_int_equal(fs_hp_units_parse("HugepageUnits", "2m:64", &fixed, msg, sizeof(msg)), 0);
	assert_int_equal(fs_gres_huge_node_plan(&inv, &fixed, &recs, &n, warn, sizeof(warn), msg,
						sizeof(msg)),
			 0);
	assert_string_equal(warn, "");
	assert_string_equal(recs[0].type, "2mx64");
	assert_int_equal(fs_gres_huge_rec_notes(&recs[0], &fixed, notes, file, sizeof(file)), 2);
	assert_non_null(strstr(notes[0], "HugepageUnits in fabsched.conf"));
	free(recs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_roundtrip), cmocka_unit_test(test_hugepages_roundtrip),
		cmocka_unit_test(test_rdma_devs),      cmocka_unit_test(test_records),
		cmocka_unit_test(test_huge_node_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
