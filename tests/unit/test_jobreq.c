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
#include <string.h>

#include <cmocka.h>

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
		{ "1025M", 2, FS_SCRATCH_XFS, "2G,fs=xfs" },	/* rounded up */
		{ "1073741824", 1, FS_SCRATCH_XFS, "1G,fs=xfs" }, /* bytes */
		{ "1024T", 1048576, FS_SCRATCH_XFS, "1048576G,fs=xfs" },
		{ "5g,fs=xfs,fs=ext4", 5, FS_SCRATCH_EXT4, "5G,fs=ext4" },
	};
	char msg[FS_MSG_SIZE], buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct fs_scratch sc;

		assert_int_equal(fs_parse_scratch(NULL, c[i].in, &sc, msg,
						  sizeof(msg)), 0);
		assert_int_equal(sc.gib, c[i].gib);
		assert_int_equal(sc.fs, c[i].fs);
		assert_string_equal(fs_format_scratch(&sc, buf, sizeof(buf)),
				    c[i].canon);
		/* the canonical form parses back to the same */
		struct fs_scratch back;
		assert_int_equal(fs_parse_scratch(NULL, buf, &back, msg,
						  sizeof(msg)), 0);
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

		assert_int_equal(fs_parse_scratch("--scratch", c[i].in, &sc, msg,
						  sizeof(msg)), -1);
		if (strncmp(msg, c[i].msg, strlen(c[i].msg)))
			fail_msg("\"%s\": got \"%s\", want prefix \"%s\"",
				 c[i].in, msg, c[i].msg);
		assert_int_equal(sc.gib, 77);	/* untouched */
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
	assert_int_equal(fs_scratch_charge(&sc, 0, 0, &total, &cap, msg,
					   sizeof(msg)), 0);
	assert_int_equal(total, 100);
	assert_int_equal(cap, 1);
	assert_int_equal(fs_scratch_charge(&sc, 4, 0, &total, &cap, msg,
					   sizeof(msg)), 0);
	assert_int_equal(total, 400);
	assert_int_equal(cap, 4);
	assert_int_equal(fs_scratch_charge(&sc, 2, 8, &total, &cap, msg,
					   sizeof(msg)), 0);
	assert_int_equal(total, 800);	/* the most nodes it may get */
	assert_int_equal(cap, 8);
	assert_int_equal(fs_scratch_charge(&sc, 9, 8, &total, &cap, msg,
					   sizeof(msg)), -1);
	sc.gib = FS_SCRATCH_MAX_GIB;
	assert_int_equal(fs_scratch_charge(&sc, 5000, 0, &total, &cap, msg,
					   sizeof(msg)), -1);
	assert_non_null(strstr(msg, "more than a Slurm license count can hold"));
}

static void test_pool_check(void **state)
{
	char msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(fs_scratch_pool_check("--scratch=10G,fs=xfs", 20, 2, 100,
					       msg, sizeof(msg)), 0);
	assert_int_equal(fs_scratch_pool_check("--scratch=10G,fs=xfs", 100, 10, 100,
					       msg, sizeof(msg)), 0);
	assert_int_equal(fs_scratch_pool_check("--scratch=60G,fs=xfs", 120, 2, 100,
					       msg, sizeof(msg)), -1);
	assert_string_equal(msg, "--scratch=60G,fs=xfs on 2 node(s): 120 GiB in "
			    "all, more than the whole scratch pool (100 GiB); "
			    "expected at most 50 GiB per node");
	assert_int_equal(fs_scratch_pool_check("--scratch=1G,fs=xfs", 1, 1, 0,
					       msg, sizeof(msg)), -1);
	assert_string_equal(msg, "--scratch=1G,fs=xfs: this cluster has no "
			    "scratch pool; expected slurm.conf to declare "
			    "Licenses=scratch:<GiB> (ask the administrators)");
}

static void test_licenses(void **state)
{
	char out[64], msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(fs_licenses_add_scratch(NULL, 5, out, sizeof(out), msg,
						 sizeof(msg)), 0);
	assert_string_equal(out, "scratch:5");
	assert_int_equal(fs_licenses_add_scratch("", 5, out, sizeof(out), msg,
						 sizeof(msg)), 0);
	assert_string_equal(out, "scratch:5");
	assert_int_equal(fs_licenses_add_scratch("matlab:2,fluent", 300, out,
						 sizeof(out), msg, sizeof(msg)), 0);
	assert_string_equal(out, "matlab:2,fluent,scratch:300");
	/* a license merely starting with "scratch" is another license */
	assert_int_equal(fs_licenses_add_scratch("scratchy:1", 3, out,
						 sizeof(out), msg, sizeof(msg)), 0);
	assert_string_equal(out, "scratchy:1,scratch:3");
	assert_int_equal(fs_licenses_add_scratch("a,scratch:9", 5, out,
						 sizeof(out), msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "names the \"scratch\" license, which --scratch sets"));
	assert_int_equal(fs_licenses_add_scratch("scratch", 5, out, sizeof(out),
						 msg, sizeof(msg)), -1);
	assert_int_equal(fs_licenses_add_scratch("a|b", 5, out, sizeof(out), msg,
						 sizeof(msg)), -1);
	assert_non_null(strstr(msg, "either-or licenses"));
	assert_int_equal(fs_licenses_add_scratch("a", 5, out, 8, msg,
						 sizeof(msg)), -1);
	assert_non_null(strstr(msg, "too long"));

	assert_int_equal(fs_licenses_count("a:2,scratch:300", "scratch"), 300);
	assert_int_equal(fs_licenses_count("scratch,b", "scratch"), 1);
	assert_int_equal(fs_licenses_count("scratchy:4", "scratch"), 0);
	assert_int_equal(fs_licenses_count(NULL, "scratch"), 0);
}

static void test_hp_parse(void **state)
{
	struct fs_hp_req r;
	char msg[FS_MSG_SIZE];
	bool found;

	(void)state;
	assert_int_equal(fs_hp_parse_request("gres:hugepages:2m:512", &r, &found,
					     msg, sizeof(msg)), 0);
	assert_true(found);
	assert_int_equal(r.pages_2m, 512);
	assert_int_equal(r.pages_1g, 0);
	assert_int_equal(fs_hp_parse_request("gres:rdma:1,gres/hugepages:1g:2,"
					     "gres:hugepages:2m:1k", &r, &found,
					     msg, sizeof(msg)), 0);
	assert_int_equal(r.pages_2m, 1024);
	assert_int_equal(r.pages_1g, 2);
	assert_int_equal(fs_hp_parse_request("gres:hugepages:64", &r, &found, msg,
					     sizeof(msg)), 0);
	assert_int_equal(r.pages_any, 64);
	assert_int_equal(fs_hp_parse_request("gres:rdma:2,gres:hugepagesx:1", &r,
					     &found, msg, sizeof(msg)), 0);
	assert_false(found);
	assert_int_equal(fs_hp_parse_request(NULL, &r, &found, msg, sizeof(msg)), 0);
	assert_false(found);
	assert_int_equal(fs_hp_parse_request("gres:hugepages:4m:8", &r, &found,
					     msg, sizeof(msg)), -1);
	assert_string_equal(msg, "gres request hugepages:4m:8: hugepage type "
			    "must be 2m or 1g; expected hugepages:2m|1g:<pages>");
	assert_int_equal(fs_hp_parse_request("gres:hugepages:2m:lots", &r, &found,
					     msg, sizeof(msg)), -1);
	assert_int_equal(fs_hp_parse_request("gres:hugepages:2m:99999999999999999999",
					     &r, &found, msg, sizeof(msg)), -1);
}

static void test_hp_check(void **state)
{
	const struct fs_hp_node nodes[] = {
		{ "n1", 1024, 0 },
		{ "n2", 4096, 2 },
		{ "n3", 2048, 8 },
	};
	struct fs_hp_req r = { 0 };
	char msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(fs_hp_check(&r, "x", "p", nodes, 3, msg, sizeof(msg)), 0);
	r.pages_2m = 4096;
	assert_int_equal(fs_hp_check(&r, "x", "p", nodes, 3, msg, sizeof(msg)), 0);
	r.pages_1g = 4;		/* 2m fits n2, 1g fits n3: no one node holds both */
	assert_int_equal(fs_hp_check(&r, "--gres=hugepages:2m:4096,hugepages:1g:4",
				     "partition batch", nodes, 3, msg,
				     sizeof(msg)), -1);
	assert_string_equal(msg, "--gres=hugepages:2m:4096,hugepages:1g:4: more "
			    "hugepages per node than any node of partition batch "
			    "holds; the largest hold 4096 pages of 2m (node n2), "
			    "8 pages of 1g (node n3); expected at most that");
	r.pages_2m = 5000;
	r.pages_1g = 0;
	assert_int_equal(fs_hp_check(&r, "gres:hugepages:2m:5000", "partition batch",
				     nodes, 3, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "gres:hugepages:2m:5000: more hugepages per node "
			    "than any node of partition batch holds; the largest "
			    "hold 4096 pages of 2m (node n2); expected at most that");
	r.pages_2m = 0;
	r.pages_any = 2056;	/* n3: 2048 + 8 */
	assert_int_equal(fs_hp_check(&r, "x", "p", nodes, 3, msg, sizeof(msg)), 0);
	r.pages_any = 4099;
	assert_int_equal(fs_hp_check(&r, "x", "p", nodes, 3, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "4098 hugepages of any size (node n2)"));
	assert_int_equal(fs_hp_check(&r, "x", "partition empty", nodes, 0, msg,
				     sizeof(msg)), -1);
	assert_non_null(strstr(msg, "no node of partition empty has hugepages"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scratch_valid),
		cmocka_unit_test(test_scratch_invalid),
		cmocka_unit_test(test_scratch_charge),
		cmocka_unit_test(test_pool_check),
		cmocka_unit_test(test_licenses),
		cmocka_unit_test(test_hp_parse),
		cmocka_unit_test(test_hp_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
