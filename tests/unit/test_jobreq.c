/*
 * test_jobreq.c - unit tests of common/fs_jobreq.c: --scratch values
 * (sizes, rounding, absurd sizes, fs=), the scratch charge and license
 * merge, hugepage gres requests against node capacities, with the exact
 * messages users see.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fs_hugepages.h"
#include "fs_jobreq.h"
#include "fs_values.h"

static void test_scratch_valid(void **state)
{
	static const struct {
		const char *in;
		uint64_t gib;
		enum fs_scratch_fs fs;
		const char *canon;
	} c[] = {
		{ "200G", 200, FS_SCRATCH_XFS, "200G,fs=xfs" },
		{ "1G", 1, FS_SCRATCH_XFS, "1G,fs=xfs" },
		{ "2T,fs=ext4", 2048, FS_SCRATCH_EXT4, "2048G,fs=ext4" },
		{ "10GiB,FS=XFS", 10, FS_SCRATCH_XFS, "10G,fs=xfs" },
		{ "1025M", 2, FS_SCRATCH_XFS, "2G,fs=xfs" },	  /* rounded up */
		{ "1073741824", 1, FS_SCRATCH_XFS, "1G,fs=xfs" }, /* bytes */
		{ "1024T", 1048576, FS_SCRATCH_XFS, "1048576G,fs=xfs" },
		{ "5g,fs=xfs,fs=ext4", 5, FS_SCRATCH_EXT4, "5G,fs=ext4" },
	};
	char msg[FS_MSG_SIZE], buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct fs_scratch sc;

		assert_int_equal(fs_parse_scratch(NULL, c[i].in, &sc, msg, sizeof(msg)), 0);
		assert_int_equal(sc.gib, c[i].gib);
		assert_int_equal(sc.fs, c[i].fs);
		assert_string_equal(fs_format_scratch(&sc, buf, sizeof(buf)), c[i].canon);
		/* the canonical form parses back to the same */
		struct fs_scratch back;
		assert_int_equal(fs_parse_scratch(NULL, buf, &back, msg, sizeof(msg)), 0);
		assert_int_equal(back.gib, sc.gib);
		assert_int_equal(back.fs, sc.fs);
	}
}

static void test_scratch_invalid(void **state)
{
	static const struct {
		const char *in, *msg;
	} c[] = {
		{ "", "--scratch=: empty value; expected SIZE[,fs=xfs|ext4]" },
		{ "abc", "--scratch=abc: \"abc\" is not a size; expected SIZE" },
		{ "-5G", "--scratch=-5G: \"-5G\" is not a size" },
		{ "100", "--scratch=100: 100 bytes is less than 1 GiB (a size "
			 "without suffix is in bytes)" },
		{ "0G", "--scratch=0G: 0 bytes is less than 1 GiB" },
		{ "1025T", "--scratch=1025T: more than 1048576 GiB (1 PiB) per node" },
		{ "99999999999T", "--scratch=99999999999T: \"99999999999T\" is not a size" },
		{ "100G,fs=btrfs", "--scratch=100G,fs=btrfs: \"fs=btrfs\" not "
				   "understood (filesystems: xfs, ext4)" },
		{ "100G,", "--scratch=100G,: \"\" not understood" },
		{ ",fs=xfs", "--scratch=,fs=xfs: no size" },
		{ "100G fs=xfs", "--scratch=100G fs=xfs: \"100G fs=xfs\" is not a size" },
		{ "1\x01G", "--scratch=1\\x01G: " },
	};
	char msg[FS_MSG_SIZE];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct fs_scratch sc = { 77, FS_SCRATCH_EXT4 };

		assert_int_equal(fs_parse_scratch("--scratch", c[i].in, &sc, msg, sizeof(msg)), -1);
		if (strncmp(msg, c[i].msg, strlen(c[i].msg)))
			fail_msg("\"%s\": got \"%s\", want prefix \"%s\"", c[i].in, msg, c[i].msg);
		assert_int_equal(sc.gib, 77); /* untouched */
	}
	assert_int_equal(fs_parse_scratch(NULL, NULL, NULL, NULL, 0), -1);
}

static void test_scratch_charge(void **state)
{
	struct fs_scratch sc = { 100, FS_SCRATCH_XFS };
	char msg[FS_MSG_SIZE];
	uint64_t total;
	uint32_t cap;

	(void)state;
	assert_int_equal(fs_scratch_charge(&sc, 0, 0, &total, &cap, msg, sizeof(msg)), 0);
	assert_int_equal(total, 100);
	assert_int_equal(cap, 1);
	assert_int_equal(fs_scratch_charge(&sc, 4, 0, &total, &cap, msg, sizeof(msg)), 0);
	assert_int_equal(total, 400);
	assert_int_equal(cap, 4);
	assert_int_equal(fs_scratch_charge(&sc, 2, 8, &total, &cap, msg, sizeof(msg)), 0);
	assert_int_equal(total, 800); /* the most nodes it may get */
	assert_int_equal(cap, 8);
	assert_int_equal(fs_scratch_charge(&sc, 9, 8, &total, &cap, msg, sizeof(msg)), -1);
	sc.gib = FS_SCRATCH_MAX_GIB;
	assert_int_equal(fs_scratch_charge(&sc, 5000, 0, &total, &cap, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "more than a Slurm license count can hold"));
}

static void test_pool_check(void **state)
{
	char msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(
		fs_scratch_pool_check("--scratch=10G,fs=xfs", 20, 2, 100, msg, sizeof(msg)), 0);
	assert_int_equal(
		fs_scratch_pool_check("--scratch=10G,fs=xfs", 100, 10, 100, msg, sizeof(msg)), 0);
	assert_int_equal(
		fs_scratch_pool_check("--scratch=60G,fs=xfs", 120, 2, 100, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "--scratch=60G,fs=xfs on 2 node(s): 120 GiB in "
				 "all, more than the whole scratch pool (100 GiB); "
				 "expected at most 50 GiB per node");
	assert_int_equal(fs_scratch_pool_check("--scratch=1G,fs=xfs", 1, 1, 0, msg, sizeof(msg)),
			 -1);
	assert_string_equal(msg, "--scratch=1G,fs=xfs: this cluster has no "
				 "scratch pool; expected slurm.conf to declare "
				 "Licenses=scratch:<GiB> (ask the administrators)");
}

/* job_submit's whole --scratch decision. */
static void test_scratch_submit(void **state)
{
	struct fs_scratch_grant g;
	char msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(
		fs_scratch_submit("100g,fs=EXT4", 2, 0, 1000, "matlab:1", &g, msg, sizeof(msg)), 0);
	assert_string_equal(g.canon, "100G,fs=ext4");
	assert_int_equal(g.gib, 200);
	assert_int_equal(g.max_nodes, 2);
	assert_string_equal(g.licenses, "matlab:1,scratch:200");
	/* charged for the most nodes it may get */
	assert_int_equal(fs_scratch_submit("10G", 1, 4, 1000, NULL, &g, msg, sizeof(msg)), 0);
	assert_int_equal(g.gib, 40);
	assert_int_equal(g.max_nodes, 4);
	assert_string_equal(g.licenses, "scratch:40");
	/* refused: a bad value, a pool too small, the license given by hand */
	assert_int_equal(fs_scratch_submit("10Q", 1, 0, 1000, NULL, &g, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "--scratch=10Q"));
	assert_int_equal(fs_scratch_submit("600G", 2, 0, 1000, NULL, &g, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "more than the whole scratch pool"));
	assert_int_equal(fs_scratch_submit("1G", 1, 0, 0, NULL, &g, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "no scratch pool"));
	assert_int_equal(fs_scratch_submit("1G", 1, 0, 10, "scratch:5", &g, msg, sizeof(msg)), -1);
}

static void test_licenses(void **state)
{
	char out[64], msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(fs_licenses_add_scratch(NULL, 5, out, sizeof(out), msg, sizeof(msg)), 0);
	assert_string_equal(out, "scratch:5");
	assert_int_equal(fs_licenses_add_scratch("", 5, out, sizeof(out), msg, sizeof(msg)), 0);
	assert_string_equal(out, "scratch:5");
	assert_int_equal(
		fs_licenses_add_scratch("matlab:2,fluent", 300, out, sizeof(out), msg, sizeof(msg)),
		0);
	assert_string_equal(out, "matlab:2,fluent,scratch:300");
	/* a license merely starting with "scratch" is another license */
	assert_int_equal(
		fs_licenses_add_scratch("scratchy:1", 3, out, sizeof(out), msg, sizeof(msg)), 0);
	assert_string_equal(out, "scratchy:1,scratch:3");
	assert_int_equal(
		fs_licenses_add_scratch("a,scratch:9", 5, out, sizeof(out), msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "names the \"scratch\" license, which --scratch sets"));
	assert_int_equal(fs_licenses_add_scratch("scratch", 5, out, sizeof(out), msg, sizeof(msg)),
			 -1);
	assert_int_equal(fs_licenses_add_scratch("a|b", 5, out, sizeof(out), msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "either-or licenses"));
	assert_int_equal(fs_licenses_add_scratch("a", 5, out, 8, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "too long"));

	assert_int_equal(fs_licenses_count("a:2,scratch:300", "scratch"), 300);
	assert_int_equal(fs_licenses_count("scratch,b", "scratch"), 1);
	assert_int_equal(fs_licenses_count("scratchy:4", "scratch"), 0);
	assert_int_equal(fs_licenses_count(NULL, "scratch"), 0);
}

/* a node of @n pools "type=units" */
static struct fs_hp_node _node(const char *name, const char *pools)
{
	struct fs_hp_node nd = { .name = name };
	char buf[256], *save = NULL, msg[FS_MSG_SIZE];

	snprintf(buf, sizeof(buf), "%s", pools);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');

		*eq = '\0';
		assert_int_equal(
			fs_hp_node_add(&nd, t, strtoull(eq + 1, NULL, 10), msg, sizeof(msg)), 0);
	}
	return nd;
}

static int _plan(const char *tres, const struct fs_hp_node *nodes, size_t n, char *tres_out,
		 char *asked, char *msg)
{
	struct fs_hp_plan p;
	int rc = fs_hp_plan(tres, "--gres=x", "partition batch", nodes, n, &p, msg, FS_MSG_SIZE);

	tres_out[0] = asked[0] = '\0';
	if (!rc) {
		snprintf(tres_out, 256, "%s", p.tres ? p.tres : "-");
		assert_int_equal(fs_hp_asked_format(&p, asked, 256), 0);
		if (p.untyped)
			snprintf(asked + strlen(asked), 256 - strlen(asked), " any=%llu",
				 (unsigned long long)p.untyped);
		if (!p.found)
			snprintf(asked, 256, "none");
	}
	fs_hp_plan_free(&p);
	return rc;
}

static void test_hp_plan_pages(void **state)
{
	const struct fs_hp_node nodes[] = {
		_node("n1", "2m=1024"),
		_node("n2", "2m=4096 1g=2"),
		_node("n3", "2m=2048 1g=8"),
	};
	char t[256], a[256], msg[FS_MSG_SIZE];

	(void)state;
	/* pages counted in pages: no change */
	assert_int_equal(_plan("gres:hugepages:2m:512", nodes, 3, t, a, msg), 0);
	assert_string_equal(t, "-");
	assert_string_equal(a, "2m:512");
	assert_int_equal(
		_plan("gres/rdma:1,gres/hugepages:1g:2,gres/hugepages:2m:1k", nodes, 3, t, a, msg),
		0);
	assert_string_equal(a, "1g:2,2m:1024");
	assert_int_equal(_plan("gres:hugepages:64", nodes, 3, t, a, msg), 0);
	assert_string_equal(a, " any=64");
	assert_int_equal(_plan("gres:rdma:2,gres:hugepagesx:1", nodes, 3, t, a, msg), 0);
	assert_string_equal(a, "none");
	assert_int_equal(_plan(NULL, nodes, 3, t, a, msg), 0);
	assert_string_equal(a, "none");
	/* no one node holds both */
	assert_int_equal(_plan("gres:hugepages:2m:4096,gres:hugepages:1g:4", nodes, 3, t, a, msg),
			 -1);
	assert_string_equal(msg, "--gres=x: more hugepages per node than any node "
				 "of partition batch holds; the largest hold 4096 pages "
				 "of 2m (node n2), 8 pages of 1g (node n3); expected at "
				 "most that");
	/* a size no node holds */
	assert_int_equal(_plan("gres:hugepages:4m:8", nodes, 3, t, a, msg), -1);
	assert_non_null(strstr(msg, "the largest hold 0 pages of 4m"));
	assert_int_equal(_plan("gres:hugepages:2q:8", nodes, 3, t, a, msg), -1);
	assert_string_equal(msg, "gres request \"gres:hugepages:2q:8\": hugepage "
				 "type \"2q\" is not a page size; expected "
				 "hugepages:<size>:<pages> (size 2m, 1g, ...), or "
				 "hugepages:<size>x<K>:<units of K pages>");
	assert_int_equal(_plan("gres:hugepages:2m:lots", nodes, 3, t, a, msg), -1);
	assert_int_equal(_plan("gres:hugepages:2m:99999999999999999999", nodes, 3, t, a, msg), -1);
	assert_int_equal(_plan("gres:hugepages:2m:1:2", nodes, 3, t, a, msg), -1);
	/* any size: counted in pages of either */
	assert_int_equal(_plan("gres:hugepages:2056", nodes, 3, t, a, msg), 0);
	assert_int_equal(_plan("gres:hugepages:4099", nodes, 3, t, a, msg), -1);
	assert_non_null(strstr(msg, "4098 hugepages of any size (node n2)"));
	assert_int_equal(_plan("gres:hugepages:2m:1", nodes, 0, t, a, msg), -1);
	assert_non_null(strstr(msg, "no node of partition batch has hugepages"));
}

/* nodes counting 2m pages in units of 64 (HugepageUnits=2m:64) */
static void test_hp_plan_units(void **state)
{
	const struct fs_hp_node same[] = {
		_node("big2", "2mx64=512 1g=64"), /* 2 NUMA nodes, summed */
		_node("big8", "2mx64=512 1g=64"),
		_node("small", "2mx64=128"),
	};
	const struct fs_hp_node mixed[] = {
		_node("big2", "2mx64=512"),
		_node("small", "2mx8=1024"),
	};
	char t[256], a[256], msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(fs_hp_node_pages(&same[0], 2048), 32768);
	/* in pages: into the nodes' units, rounded up; the pages kept */
	assert_int_equal(_plan("gres/hugepages:2m:8200,gres/rdma:1", same, 3, t, a, msg), 0);
	assert_string_equal(t, "gres/hugepages:2mx64:129,gres/rdma:1");
	assert_string_equal(a, "2m:8200");
	assert_int_equal(_plan("gres:hugepages:2m:32k,gres:hugepages:1g:64", same, 3, t, a, msg),
			 0);
	assert_string_equal(t, "gres:hugepages:2mx64:512,gres:hugepages:1g:64");
	assert_string_equal(a, "2m:32768,1g:64");
	/* beyond every node, in pages */
	assert_int_equal(_plan("gres:hugepages:2m:32769", same, 3, t, a, msg), -1);
	assert_non_null(strstr(msg, "the largest hold 32768 pages of 2m (node big2)"));
	/* in the nodes' own type: as given */
	assert_int_equal(_plan("gres:hugepages:2mx64:4", same, 3, t, a, msg), 0);
	assert_string_equal(t, "-");
	assert_string_equal(a, "2m:256");
	assert_int_equal(_plan("gres:hugepages:2mx8:4", same, 3, t, a, msg), -1);
	assert_string_equal(msg, "gres request \"gres:hugepages:2mx8:4\": the nodes "
				 "of partition batch do not count hugepages in units "
				 "of 8 pages (they count in 2mx64); expected the pages "
				 "asked, e.g. hugepages:2m:32");
	/* a count without a size cannot be told in pages */
	assert_int_equal(_plan("gres:hugepages:100", same, 3, t, a, msg), -1);
	assert_non_null(strstr(msg, "expected the size named, e.g. hugepages:2m:100"));
	/* nodes in different units: one request cannot fit both */
	assert_int_equal(_plan("gres:hugepages:2m:100", mixed, 2, t, a, msg), -1);
	assert_string_equal(msg, "gres request \"gres:hugepages:2m:100\": the nodes "
				 "of partition batch count 2m pages in different units "
				 "(2mx64 on big2, 2mx8 on small), so no one request fits "
				 "them all; expected one unit for the cluster in "
				 "fabsched.conf (HugepageUnits=2m:<pages>, e.g. 2m:64), "
				 "or a request in one node's type");
	assert_int_equal(_plan("gres:hugepages:2mx8:10", mixed, 2, t, a, msg), 0);
	assert_string_equal(a, "2m:80");
}

static void test_hp_units_asked(void **state)
{
	struct fs_hp_units u;
	struct fs_hp_ask a[FS_HP_SIZES_MAX];
	size_t n;
	char msg[FS_MSG_SIZE];
	static const char *const bad[] = { "2m",	"2m:",	 "2m:0",	  "2q:4", ":4",
					   "2m:4,2m:8", "2m:4,", "2m:1073741825", "2m:4x" };

	(void)state;
	assert_int_equal(fs_hp_units_parse("K", "2m:64,1g:1", &u, msg, sizeof(msg)), 0);
	assert_int_equal(u.n, 2);
	assert_int_equal(fs_hp_units_of(&u, 2048), 64);
	assert_int_equal(fs_hp_units_of(&u, 1048576), 1);
	assert_int_equal(fs_hp_units_of(&u, 64), 0);
	assert_int_equal(fs_hp_units_parse("K", "", &u, msg, sizeof(msg)), 0);
	assert_int_equal(u.n, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		if (fs_hp_units_parse("HugepageUnits", bad[i], &u, msg, sizeof(msg)) != -1 ||
		    !strstr(msg, "HugepageUnits") || !strstr(msg, "expected"))
			fail_msg("\"%s\": %s", bad[i], msg);
	}
	assert_int_equal(fs_hp_asked_parse("A", "2m:8200,1g:4", a, &n, msg, sizeof(msg)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(a[0].page_kb, 2048);
	assert_int_equal(a[0].pages, 8200);
	assert_int_equal(a[1].pages, 4);
	assert_int_equal(fs_hp_asked_parse("A", "2m:8,2m:9", a, &n, msg, sizeof(msg)), -1);
	assert_int_equal(fs_hp_asked_parse("A", "2m:-8", a, &n, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "A=\"2m:-8\": bad entry"));
}

/* job_submit's request: the user's form in messages, pages asked, units. */
static void test_hp_request(void **state)
{
	const struct fs_hp_node nodes[] = {
		_node("n1", "2mx64=32"),
		_node("n2", "2mx64=16"),
	};
	char asked[64], msg[FS_MSG_SIZE], *out = (char *)"x";

	(void)state;
	assert_int_equal(fs_hp_request("gres:hugepages:2m:100,gres:rdma:1", "batch", nodes, 2, &out,
				       asked, sizeof(asked), msg, sizeof(msg)),
			 0);
	assert_string_equal(out, "gres:hugepages:2mx64:2,gres:rdma:1");
	assert_string_equal(asked, "2m:100");
	free(out);
	/* refused: the message names what the user wrote and the partitions */
	assert_int_equal(fs_hp_request("gres/rdma:1,gres/hugepages:2m:4000", "a,b", nodes, 2, &out,
				       asked, sizeof(asked), msg, sizeof(msg)),
			 -1);
	assert_null(out);
	assert_non_null(strstr(msg, "--gres=rdma:1,hugepages:2m:4000"));
	assert_non_null(strstr(msg, "partitions a,b"));
	/* nothing of ours: unchanged, no pages asked */
	assert_int_equal(fs_hp_request("gres:rdma:1", "batch", nodes, 2, &out, asked, sizeof(asked),
				       msg, sizeof(msg)),
			 0);
	assert_null(out);
	assert_string_equal(asked, "");
	assert_int_equal(fs_hp_request(NULL, "batch", nodes, 2, &out, asked, sizeof(asked), msg,
				       sizeof(msg)),
			 0);
	assert_null(out);
	/* counts whose sum passes 2^64: saturated, never wrapped into a
	   small request that fits (2^63 + 2^63 + 1 pages were once 1) */
	{
		const struct fs_hp_node plain[] = { _node("p1", "2m=128") };

		assert_int_equal(fs_hp_request("gres:hugepages:2m:9223372036854775808,"
					       "gres:hugepages:2m:9223372036854775809",
					       "batch", plain, 1, &out, asked, sizeof(asked), msg,
					       sizeof(msg)),
				 -1);
		assert_null(out);
		assert_non_null(strstr(msg, "more hugepages per node than any node"));
		assert_int_equal(fs_hp_request("gres:hugepages:9223372036854775808,"
					       "gres:hugepages:9223372036854775809",
					       "batch", plain, 1, &out, asked, sizeof(asked), msg,
					       sizeof(msg)),
				 -1);
		assert_null(out);
	}
	assert_int_equal(fs_hp_request("gres:hugepages:2mx64:18446744073709551615,"
				       "gres:hugepages:2mx64:1",
				       "batch", nodes, 2, &out, asked, sizeof(asked), msg,
				       sizeof(msg)),
			 -1);
	assert_null(out);
	assert_int_equal(fs_hp_request("gres:hugepages:18446744073709551615,"
				       "gres:hugepages:1",
				       "batch", nodes, 2, &out, asked, sizeof(asked), msg,
				       sizeof(msg)),
			 -1);
	assert_null(out);
}

/* job_modify of a job holding a scratch charge (100 GiB on 2 nodes). */
static void test_scratch_modify(void **state)
{
	char msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(fs_scratch_modify_check(NULL, NULL, "scratch:1", 9, 9, msg, sizeof(msg)),
			 FS_SCRATCH_MOD_OK);
	assert_int_equal(
		fs_scratch_modify_check("100G,fs=xfs", "200", NULL, 0, 2, msg, sizeof(msg)),
		FS_SCRATCH_MOD_OK);
	assert_int_equal(fs_scratch_modify_check("100G,fs=xfs", "200", "foo:1,scratch:200", 1, 0,
						 msg, sizeof(msg)),
			 FS_SCRATCH_MOD_OK);
	assert_int_equal(
		fs_scratch_modify_check("100G,fs=xfs", "200", "foo:1", 0, 0, msg, sizeof(msg)),
		FS_SCRATCH_MOD_LICENSES);
	assert_non_null(strstr(
		msg, "licenses foo:1 refused: --scratch=100G,fs=xfs is charged scratch:200"));
	assert_int_equal(
		fs_scratch_modify_check("100G,fs=xfs", "200", NULL, 0, 3, msg, sizeof(msg)),
		FS_SCRATCH_MOD_NODES);
	assert_non_null(strstr(msg, "charged for 2 node(s)"));
	assert_int_equal(
		fs_scratch_modify_check("100G,fs=xfs", "200", NULL, 3, 0, msg, sizeof(msg)),
		FS_SCRATCH_MOD_NODES);
	/* a charge that does not parse is no charge of ours */
	assert_int_equal(fs_scratch_modify_check("100G", "0", NULL, 3, 0, msg, sizeof(msg)),
			 FS_SCRATCH_MOD_OK);
}

static int released;

static void _count_release(char *entry)
{
	(void)entry;
	released++;
}

static void test_env(void **state)
{
	char a[] = "FABSCHED_SCRATCH=1G", b[] = "X=1", c[] = "FABSCHED_SCRATCH_CHARGE=2",
	     d[] = "FABSCHED_SCRATCH=2G";
	char *env[] = { a, NULL, b, c, d };

	(void)state;
	assert_string_equal(fs_env_find(env, 5, "FABSCHED_SCRATCH="), "1G");
	assert_string_equal(fs_env_find(env, 5, "FABSCHED_SCRATCH_CHARGE="), "2");
	assert_null(fs_env_find(env, 5, "Y="));
	assert_null(fs_env_find(NULL, 0, "X="));
	assert_int_equal(fs_env_remove(env, 5, "FABSCHED_SCRATCH=", _count_release), 3);
	assert_int_equal(released, 2);
	assert_null(env[0]);
	assert_ptr_equal(env[1], b);
	assert_ptr_equal(env[2], c);
}

/* What only fabsched writes never passes as a user sent it: the values
 * job_submit writes, and every prefixed form the prolog would read. */
static void test_env_controlled(void **state)
{
	const char *drop[] = {
		"FABSCHED_SCRATCH=1G",
		"FABSCHED_SCRATCH_CHARGE=0",
		"FABSCHED_HUGEPAGES_ASKED=2m:64",
		"FABSCHED_SCRATCH",
		"SPANK_FABSCHED_SCRATCH=1024T",
		"SPANK_FABSCHED_SCRATCH_CHARGE=0",
		"SPANK_FABSCHED_HUGEPAGES_ASKED=garbage",
		"SPANK_FABSCHED_HUGEPAGES=2m:0=64",
		"SPANK_FABSCHED_RDMA_DEVICES=mlx5_0",
		"SPANK_FABSCHED_LOCALITY=rack",
		"SPANK__SLURM_SPANK_OPTION_fabsched_scratch=1024T",
		"SPANK__SLURM_SPANK_OPTION_fabsched_fabric_locality=rack",
	};
	const char *keep[] = {
		"FABSCHED_LOCALITY=rack@0",
		"_SLURM_SPANK_OPTION_fabsched_scratch=10G",
		"FABSCHED_SCRATCHY=1",
		"FABSCHED_HUGEPAGES=2m:0=4",
		"X=FABSCHED_SCRATCH=1",
		"SPANK_OTHER=1",
		"_SLURM_SPANK_OPTION_other_scratch=1",
		"",
	};
	char *env[32];
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++) {
		assert_true(fs_env_controlled(drop[i]));
		env[n++] = (char *)drop[i];
	}
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		assert_false(fs_env_controlled(keep[i]));
		env[n++] = (char *)keep[i];
	}
	assert_false(fs_env_controlled(NULL));
	env[n++] = NULL;
	released = 0;
	n = fs_env_remove_controlled(env, n, _count_release);
	assert_int_equal(released, sizeof(drop) / sizeof(drop[0]));
	assert_int_equal(n, sizeof(keep) / sizeof(keep[0]) + 1);
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		assert_string_equal(env[i], keep[i]);
	assert_null(env[n - 1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scratch_valid),  cmocka_unit_test(test_scratch_invalid),
		cmocka_unit_test(test_scratch_charge), cmocka_unit_test(test_pool_check),
		cmocka_unit_test(test_licenses),       cmocka_unit_test(test_hp_plan_pages),
		cmocka_unit_test(test_hp_plan_units),  cmocka_unit_test(test_hp_units_asked),
		cmocka_unit_test(test_hp_request),     cmocka_unit_test(test_scratch_modify),
		cmocka_unit_test(test_scratch_submit), cmocka_unit_test(test_env),
		cmocka_unit_test(test_env_controlled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
