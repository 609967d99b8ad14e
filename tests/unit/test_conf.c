/*
 * test_conf.c - unit tests of the fabsched.conf parser (common/conf_*.c): fixtures, defaults,
 * the partition fallback chain, quoting, case, long lines, bad bytes,
 * every error kind with its exact file:line, collection of all errors,
 * getters, dump round trip, and the schema against the man page.
 *
 * Fixtures come from $FABSCHED_FIXTURES/conf (set by make check), else
 * from tests/fixtures/conf relative to the current directory.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_files.h"

#include "fabsched_conf.h"
#include "fs_slurmconf.h"

static char fixtures[4096];

static const char *fixture(const char *name, char *buf, size_t bufsz)
{
	snprintf(buf, bufsz, "%s/%s", fixtures, name);
	return buf;
}

/* Parse text that must be valid. */
static struct fs_conf *ok(const char *text)
{
	struct fs_errors *e = fs_errors_new();
	struct fs_conf *c = NULL;

	assert_non_null(e);
	if (fs_conf_parse("t.conf", text, strlen(text), &c, e)) {
		fs_errors_print(e, stderr);
		fail_msg("valid text rejected: %s", text);
	}
	assert_non_null(c);
	assert_int_equal(fs_errors_count(e), 0);
	fs_errors_free(e);
	return c;
}

/*
 * Parse len bytes that must be rejected with exactly the given messages
 * (NULL-terminated list, file named t.conf).
 */
static void bad_n(const char *text, size_t len, ...)
{
	struct fs_errors *e = fs_errors_new();
	struct fs_conf *c = (struct fs_conf *)1;
	const char *want;
	size_t i = 0;
	va_list ap;

	assert_non_null(e);
	assert_int_equal(fs_conf_parse("t.conf", text, len, &c, e), -1);
	assert_null(c);
	va_start(ap, len);
	while ((want = va_arg(ap, const char *))) {
		const char *got = fs_errors_get(e, i++);

		if (!got || strcmp(got, want)) {
			fs_errors_print(e, stderr);
			va_end(ap);
			fail_msg("message %zu: got \"%s\", want \"%s\"", i, got ? got : "(none)",
				 want);
		}
	}
	va_end(ap);
	if (fs_errors_count(e) != i) {
		fs_errors_print(e, stderr);
		fail_msg("%zu messages, want %zu", fs_errors_count(e), i);
	}
	fs_errors_free(e);
}

#define bad(text, ...) bad_n(text, strlen(text), __VA_ARGS__, (const char *)NULL)

/* ------------------------------------------------------------ valid files */

static void test_defaults(void **state)
{
	struct fs_conf *c = ok("");
	struct fs_locality loc;
	uint64_t u;

	(void)state;
	assert_string_equal(fs_conf_source(c), "t.conf");
	assert_false(fs_conf_is_builtin(c));
	assert_string_equal(fs_conf_get_str(c, "FabricModel"), "/etc/slurm/fabsched/fabric.json");
	errno = 0;
	assert_null(fs_conf_get_str(c, "NodeNameMap"));
	assert_int_equal(errno, ENOENT);
	assert_null(fs_conf_get_str(c, "RackMap"));
	assert_string_equal(fs_conf_get_str(c, "LogLevel"), "info");
	assert_int_equal(fs_conf_get_uint(c, "LogLevel", &u), 0);
	assert_int_equal(u, FS_LOG_INFO);
	assert_string_equal(fs_conf_get_str(c, "StateDir"), "/var/lib/fabsched");
	assert_string_equal(fs_conf_get_str(c, "HugepageMountBase"), "/dev/hugepages-fabsched");
	assert_string_equal(fs_conf_get_str(c, "ScratchBase"), "/scratch");
	assert_int_equal(fs_conf_get_locality(c, "DefaultLocality", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_ANY);
	assert_false(loc.wait_set);
	/* any partition, named or not */
	assert_int_equal(fs_conf_part_count(c), 0);
	assert_int_equal(fs_conf_part_locality(c, "batch", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_ANY);
	assert_true(loc.wait_set);
	assert_int_equal(loc.wait, 0);
	assert_int_equal(fs_conf_part_get_uint(c, NULL, "MaxRacks", &u), 0);
	assert_int_equal(u, 0);
	assert_string_equal(fs_conf_part_get_str(c, "x", "Locality"), "any");
	assert_string_equal(fs_conf_part_get_str(c, "x", "LocalityWait"), "0");
	fs_conf_destroy(c);
}

static void test_schema(void **state)
{
	size_t n, nglobal = 0;
	const struct fs_conf_key *k = fs_conf_keys(&n);
	struct fs_conf *c = ok("");
	unsigned idx;

	(void)state;
	assert_true(n >= 11);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(k[i].name);
		assert_non_null(k[i].doc);
		assert_ptr_equal(fs_conf_key_find(k[i].name), &k[i]);
		if (k[i].scope == FS_SCOPE_GLOBAL) {
			/* global keys come first, and each default parses */
			assert_int_equal(nglobal, i);
			nglobal++;
			if (k[i].def)
				assert_non_null(fs_conf_get_str(c, k[i].name));
		} else {
			assert_non_null(fs_conf_part_get_str(c, NULL, k[i].name));
		}
		if (k[i].type == FS_TYPE_ENUM)
			assert_non_null(k[i].values);
		if (k[i].fallback)
			assert_non_null(fs_conf_key_find(k[i].fallback));
		for (size_t j = 0; j < i; j++)
			assert_false(fs_strcaseeq(k[i].name, k[j].name));
		assert_non_null(fs_conf_type_name(k[i].type));
	}
	assert_null(fs_conf_key_find("Nope"));
	assert_ptr_equal(fs_conf_key_find("loglevel"), fs_conf_key_find("LOGLEVEL"));
	assert_ptr_equal(fs_conf_key_find("lOCALITYwAIT"), fs_conf_key_find("LocalityWait"));
	assert_null(fs_conf_key_find(""));
	assert_null(fs_conf_key_find("LocalityWai"));
	assert_null(fs_conf_key_find("[ocality"));
	/* the enum orders match the C enums */
	assert_int_equal(
		fs_parse_enum(NULL, "debug", fs_conf_key_find("LogLevel")->values, &idx, NULL, 0),
		0);
	assert_int_equal(idx, FS_LOG_DEBUG);
	assert_int_equal(
		fs_parse_enum(NULL, "verbose", fs_conf_key_find("LogLevel")->values, &idx, NULL, 0),
		0);
	assert_int_equal(idx, FS_LOG_VERBOSE);
	for (int l = FS_LOCALITY_RACK; l <= FS_LOCALITY_OBSERVE; l++) {
		assert_int_equal(fs_parse_enum(NULL, fs_locality_name(l),
					       fs_conf_key_find("Locality")->values, &idx, NULL, 0),
				 0);
		assert_int_equal(idx, l);
	}
	assert_string_equal(fs_conf_default_path(), "/etc/slurm/fabsched.conf");
	fs_conf_destroy(c);
}

static void test_full_fixture(void **state)
{
	char path[4200];
	struct fs_errors *e = fs_errors_new();
	struct fs_conf *c = NULL;
	struct fs_locality loc;
	uint64_t u;

	(void)state;
	fixture("full.conf", path, sizeof(path));
	if (fs_conf_load(path, &c, e)) {
		fs_errors_print(e, stderr);
		fail();
	}
	assert_string_equal(fs_conf_source(c), path);
	assert_string_equal(fs_conf_get_str(c, "FabricModel"), "/etc/slurm/fabsched/fabric-a.json");
	assert_string_equal(fs_conf_get_str(c, "NodeNameMap"), "/etc/slurm/fabsched/node-name-map");
	assert_string_equal(fs_conf_get_str(c, "RackMap"), "/etc/slurm/fabsched/racks");
	assert_string_equal(fs_conf_get_str(c, "LogLevel"), "verbose");
	assert_int_equal(fs_conf_get_uint(c, "loglevel", &u), 0);
	assert_int_equal(u, FS_LOG_VERBOSE);
	assert_string_equal(fs_conf_get_str(c, "StateDir"), "/var/lib/fab sched");
	assert_string_equal(fs_conf_get_str(c, "HugepageMountBase"), "/dev/hugepages-fs");
	assert_string_equal(fs_conf_get_str(c, "ScratchBase"), "/scratch#local");
	assert_int_equal(fs_conf_get_locality(c, "DefaultLocality", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_POD);
	assert_true(loc.wait_set && loc.wait == 600);

	assert_int_equal(fs_conf_part_count(c), 3);
	assert_string_equal(fs_conf_part_name(c, 0), "batch");
	assert_string_equal(fs_conf_part_name(c, 1), "debug");
	assert_string_equal(fs_conf_part_name(c, 2), "long");
	assert_null(fs_conf_part_name(c, 3));
	assert_true(fs_conf_has_part(c, "debug"));
	assert_false(fs_conf_has_part(c, "DEBUG")); /* names are exact */
	assert_false(fs_conf_has_part(c, "DEFAULT"));

	/* batch: its own line, continued with a backslash */
	assert_int_equal(fs_conf_part_locality(c, "batch", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_RACK);
	assert_int_equal(loc.wait, 1800);
	assert_int_equal(fs_conf_part_get_uint(c, "batch", "MaxRacks", &u), 0);
	assert_int_equal(u, 2);
	/* debug: Locality its own, the rest from DEFAULT */
	assert_int_equal(fs_conf_part_locality(c, "debug", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_ANY);
	assert_int_equal(loc.wait, 300);
	assert_int_equal(fs_conf_part_get_uint(c, "debug", "MaxRacks", &u), 0);
	assert_int_equal(u, 8);
	/* long: Locality from DefaultLocality, wait from DEFAULT */
	assert_int_equal(fs_conf_part_locality(c, "long", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_POD);
	assert_int_equal(loc.wait, 300);
	assert_int_equal(fs_conf_part_get_uint(c, "long", "MaxRacks", &u), 0);
	assert_int_equal(u, 0);
	/* a partition not in the file, and the DEFAULT itself */
	assert_int_equal(fs_conf_part_locality(c, "other", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_POD);
	assert_int_equal(loc.wait, 300);
	assert_int_equal(fs_conf_part_get_uint(c, "DEFAULT", "MaxRacks", &u), 0);
	assert_int_equal(u, 8);
	assert_int_equal(fs_conf_part_get_uint(c, "default", "MaxRacks", &u), 0);
	assert_int_equal(u, 8);
	fs_conf_destroy(c);
	fs_errors_free(e);
}

static void test_slurm_style_fixture(void **state)
{
	char path[4200];
	struct fs_conf *c = NULL;
	struct fs_locality loc;
	uint64_t u;

	(void)state;
	assert_int_equal(fs_conf_load(fixture("slurm-style.conf", path, sizeof(path)), &c, NULL),
			 0);
	/* DEFAULT applies to the partition lines after it, as in slurm.conf */
	assert_int_equal(fs_conf_part_locality(c, "mpi", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_RACK);
	assert_int_equal(loc.wait, 86400);
	assert_int_equal(fs_conf_part_get_uint(c, "mpi", "MaxRacks", &u), 0);
	assert_int_equal(u, 4);
	assert_int_equal(fs_conf_part_locality(c, "gpu", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_POD);
	assert_int_equal(loc.wait, 120);
	assert_int_equal(fs_conf_part_locality(c, "interactive", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_ANY);
	assert_int_equal(loc.wait, 0);
	/* unnamed partitions: the DEFAULT values at the end of the file */
	assert_int_equal(fs_conf_part_locality(c, NULL, &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_POD);
	assert_int_equal(loc.wait, 120);
	fs_conf_destroy(c);
}

static void test_minimal_fixture(void **state)
{
	char path[4200];
	struct fs_conf *c = NULL;

	(void)state;
	assert_int_equal(fs_conf_load(fixture("minimal.conf", path, sizeof(path)), &c, NULL), 0);
	assert_string_equal(fs_conf_get_str(c, "ScratchBase"), "/scratch");
	fs_conf_destroy(c);
}

static void test_fallback_chain(void **state)
{
	struct fs_conf *c;
	struct fs_locality loc;

	(void)state;
	/* 3: the global DefaultLocality, level and wait */
	c = ok("DefaultLocality=rack@10:00\nPartitionName=a\n");
	assert_int_equal(fs_conf_part_locality(c, "a", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_RACK);
	assert_int_equal(loc.wait, 600);
	assert_string_equal(fs_conf_part_get_str(c, "a", "LocalityWait"), "00:10:00");
	fs_conf_destroy(c);
	/* DefaultLocality without @wait: the wait is LocalityWait's default */
	c = ok("DefaultLocality=pod\nPartitionName=a\n");
	assert_int_equal(fs_conf_part_locality(c, "a", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_POD);
	assert_int_equal(loc.wait, 0);
	fs_conf_destroy(c);
	/* 2 beats 3, 1 beats 2; a global line after a partition is global */
	c = ok("PartitionName=DEFAULT LocalityWait=5\n"
	       "PartitionName=a\n"
	       "PartitionName=b LocalityWait=7 Locality=any\n"
	       "DefaultLocality=rack@10:00\n");
	assert_int_equal(fs_conf_part_locality(c, "a", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_RACK);
	assert_int_equal(loc.wait, 300);
	assert_int_equal(fs_conf_part_locality(c, "b", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_ANY);
	assert_int_equal(loc.wait, 420);
	assert_int_equal(fs_conf_part_locality(c, "zzz", &loc), 0);
	assert_int_equal(loc.level, FS_LOCALITY_RACK);
	assert_int_equal(loc.wait, 300);
	fs_conf_destroy(c);
	/* a DEFAULT line does not reach back to earlier partitions */
	c = ok("PartitionName=a\nPartitionName=DEFAULT MaxRacks=3\n"
	       "PartitionName=b\n");
	uint64_t u;
	assert_int_equal(fs_conf_part_get_uint(c, "a", "MaxRacks", &u), 0);
	assert_int_equal(u, 0);
	assert_int_equal(fs_conf_part_get_uint(c, "b", "MaxRacks", &u), 0);
	assert_int_equal(u, 3);
	assert_int_equal(fs_conf_part_get_uint(c, "c", "MaxRacks", &u), 0);
	assert_int_equal(u, 3);
	fs_conf_destroy(c);
	/* several DEFAULT lines add up; a later one overrides a key */
	c = ok("PartitionName=DEFAULT MaxRacks=3\n"
	       "PartitionName=default Locality=pod\n"
	       "PartitionName=Default MaxRacks=4\n"
	       "PartitionName=p\n");
	assert_int_equal(fs_conf_part_get_uint(c, "p", "MaxRacks", &u), 0);
	assert_int_equal(u, 4);
	assert_string_equal(fs_conf_part_get_str(c, "p", "Locality"), "pod");
	assert_int_equal(fs_conf_part_count(c), 1);
	fs_conf_destroy(c);
}

static void test_syntax_accepted(void **state)
{
	struct fs_conf *c;
	uint64_t u;

	(void)state;
	/* case, blanks, tabs, comments, CRLF, a byte order mark, no final
	 * newline, several pairs per line */
	c = ok("\xef\xbb\xbf# caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\r\n"
	       "  \tLOGLEVEL=Debug\t ScratchBase=/s   # trailing\r\n"
	       "\r\n"
	       "partitionname=p locality=RACK maxracks=12\r\n"
	       "StateDir=/var/lib/x=y");
	assert_string_equal(fs_conf_get_str(c, "LogLevel"), "debug");
	assert_string_equal(fs_conf_get_str(c, "loglevel"), "debug");
	assert_string_equal(fs_conf_get_str(c, "ScratchBase"), "/s");
	assert_string_equal(fs_conf_get_str(c, "StateDir"), "/var/lib/x=y");
	assert_string_equal(fs_conf_part_get_str(c, "p", "Locality"), "rack");
	assert_int_equal(fs_conf_part_get_uint(c, "p", "maxRACKS", &u), 0);
	assert_int_equal(u, 12);
	fs_conf_destroy(c);
	/* quoting: blanks, '#', '=', UTF-8 inside quotes; quoted value
	 * followed by a comment */
	c = ok("ScratchBase=\"/a b\t#c=d \xc3\xa9\"# comment\n"
	       "StateDir=\"/x\" HugepageMountBase=\"/h\"\n"
	       "PartitionName=\"q\" Locality=\"pod\"\n");
	assert_string_equal(fs_conf_get_str(c, "ScratchBase"), "/a b\t#c=d \xc3\xa9");
	assert_string_equal(fs_conf_get_str(c, "StateDir"), "/x");
	assert_string_equal(fs_conf_get_str(c, "HugepageMountBase"), "/h");
	assert_string_equal(fs_conf_part_get_str(c, "q", "Locality"), "pod");
	fs_conf_destroy(c);
	/* continuation lines, blanks after the backslash, a continued
	 * token, a comment ending in a backslash does not continue */
	c = ok("PartitionName=p \\\n  Locality=rack \\  \n MaxRacks=1\\\n2\n"
	       "# comment \\\nLogLevel=quiet\n");
	assert_int_equal(fs_conf_part_get_uint(c, "p", "MaxRacks", &u), 0);
	assert_int_equal(u, 12);
	assert_string_equal(fs_conf_part_get_str(c, "p", "Locality"), "rack");
	assert_string_equal(fs_conf_get_str(c, "LogLevel"), "quiet");
	fs_conf_destroy(c);
}

static void test_long_lines(void **state)
{
	size_t n = FS_CONF_MAX_LINE + 100;
	char *b = malloc(n + 64);
	struct fs_conf *c;

	(void)state;
	assert_non_null(b);
	/* every UTF-8 length, at the edges of the valid ranges */
	c = ok("# \xc2\x80 \xdf\xbf \xe0\xa0\x80 \xed\x9f\xbf \xee\x80\x80 "
	       "\xf0\x90\x80\x80 \xf4\x8f\xbf\xbf\n");
	fs_conf_destroy(c);
	/* a line of exactly FS_CONF_MAX_LINE bytes (plus CRLF) is fine */
	memset(b, ' ', FS_CONF_MAX_LINE);
	memcpy(b, "LogLevel=debug", 14);
	b[FS_CONF_MAX_LINE - 1] = '#';
	strcpy(b + FS_CONF_MAX_LINE, "\r\nStateDir=/x\n");
	c = ok(b);
	assert_string_equal(fs_conf_get_str(c, "LogLevel"), "debug");
	fs_conf_destroy(c);
	/* one more byte is an error, reported once, and the next lines
	 * are still read */
	memset(b, 'x', FS_CONF_MAX_LINE + 1);
	b[0] = '#';
	strcpy(b + FS_CONF_MAX_LINE + 1, "\nLogLevel=loud\n");
	bad(b,
	    "t.conf:1: line is longer than 65536 bytes; expected shorter "
	    "lines (end a line with '\\' to continue it on the next)",
	    "t.conf:2: LogLevel=loud: unknown value; expected one of quiet, "
	    "info, verbose or debug");
	/* long values are cut in messages */
	memset(b, 'a', 4104);
	memcpy(b, "RackMap=", 8);
	b[4104] = '\0';
	bad(b, "t.conf:1: RackMap=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	       "aaaaaaaaaaaaaaaaaa...: not an absolute path; expected an "
	       "absolute path (starting with '/')");
	b[8] = '/';
	bad(b, "t.conf:1: RackMap=/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	       "aaaaaaaaaaaaaaaaaa...: path too long; expected at most 4095 "
	       "bytes");
	/* values are limited to FS_CONF_MAX_VALUE bytes */
	b[4104] = 'a';
	b[4105] = '\0';
	bad(b, "t.conf:1: the value of 'RackMap' is longer than 4096 bytes; "
	       "expected a shorter value");
	free(b);
}

/* ------------------------------------------------------------ errors */

static void test_error_kinds(void **state)
{
	(void)state;
	/* unknown keys, with and without a near miss */
	bad("# x\n\nLocalty=rack\n",
	    "t.conf:3: unknown key 'Localty' (did you mean Locality, a "
	    "partition key?); accepted global keys: FabricModel, NodeNameMap, "
	    "RackMap, LogLevel, StateDir, HugepageMountBase, HugepageUnits, MetricsTextfile, JobRecordDir, JobRecordKeep, ScratchBase, "
	    "ScratchTransport, ScratchTraddr, ScratchTrsvcid, ScratchSubsysNQN, "
	    "ScratchHostNQNFile, ScratchHostIDFile, ScratchCapacity, "
	    "RdmaRate, AccountIbPkeys, RdmaMaxHcaHandles, RdmaMaxHcaObjects, RoceGidFamily, RoceTrafficClass, RoceServiceLevel, RoceMtu, RocePfc, FabricComputeHca, DrainOnDegradedLink, FabricErrorLimits, FabricWatchInterval, DefaultLocality, PartitionName");
	bad("PartitionName=p MaxRack=2\n",
	    "t.conf:1: unknown key 'MaxRack' (did you mean MaxRacks?); "
	    "accepted partition keys: Locality, LocalityWait, LocalityTarget, LocalityWaitRatio, MaxRacks");
	bad("Fabricmodle=/x\n",
	    "t.conf:1: unknown key 'Fabricmodle' (did you mean FabricModel?); "
	    "accepted global keys: FabricModel, NodeNameMap, RackMap, "
	    "LogLevel, StateDir, HugepageMountBase, HugepageUnits, MetricsTextfile, JobRecordDir, JobRecordKeep, ScratchBase, "
	    "ScratchTransport, ScratchTraddr, ScratchTrsvcid, ScratchSubsysNQN, "
	    "ScratchHostNQNFile, ScratchHostIDFile, ScratchCapacity, "
	    "RdmaRate, AccountIbPkeys, RdmaMaxHcaHandles, RdmaMaxHcaObjects, RoceGidFamily, RoceTrafficClass, RoceServiceLevel, RoceMtu, RocePfc, FabricComputeHca, DrainOnDegradedLink, FabricErrorLimits, FabricWatchInterval, DefaultLocality, PartitionName");
	bad("PartitionNam=p\n",
	    "t.conf:1: unknown key 'PartitionNam' (did you mean "
	    "PartitionName?); accepted global keys: FabricModel, NodeNameMap, "
	    "RackMap, LogLevel, StateDir, HugepageMountBase, HugepageUnits, MetricsTextfile, JobRecordDir, JobRecordKeep, ScratchBase, "
	    "ScratchTransport, ScratchTraddr, ScratchTrsvcid, ScratchSubsysNQN, "
	    "ScratchHostNQNFile, ScratchHostIDFile, ScratchCapacity, "
	    "RdmaRate, AccountIbPkeys, RdmaMaxHcaHandles, RdmaMaxHcaObjects, RoceGidFamily, RoceTrafficClass, RoceServiceLevel, RoceMtu, RocePfc, FabricComputeHca, DrainOnDegradedLink, FabricErrorLimits, FabricWatchInterval, DefaultLocality, PartitionName");
	bad("Foo=1\n",
	    "t.conf:1: unknown key 'Foo'; accepted global keys: FabricModel, "
	    "NodeNameMap, RackMap, LogLevel, StateDir, HugepageMountBase, HugepageUnits, MetricsTextfile, JobRecordDir, JobRecordKeep, "
	    "ScratchBase, ScratchTransport, ScratchTraddr, ScratchTrsvcid, "
	    "ScratchSubsysNQN, ScratchHostNQNFile, ScratchHostIDFile, "
	    "ScratchCapacity, RdmaRate, AccountIbPkeys, RdmaMaxHcaHandles, RdmaMaxHcaObjects, RoceGidFamily, RoceTrafficClass, RoceServiceLevel, RoceMtu, RocePfc, FabricComputeHca, DrainOnDegradedLink, FabricErrorLimits, FabricWatchInterval, DefaultLocality, PartitionName");
	/* at the limit (3 for long keys: a deletion and two
	 * transpositions) and one past it */
	bad("PartitionName=p LcalityTragte=4\n",
	    "t.conf:1: unknown key 'LcalityTragte' (did you mean "
	    "LocalityTarget?); accepted partition keys: Locality, "
	    "LocalityWait, LocalityTarget, LocalityWaitRatio, MaxRacks");
	bad("PartitionName=p LcalityTragtee=4\n",
	    "t.conf:1: unknown key 'LcalityTragtee'; accepted partition keys: "
	    "Locality, LocalityWait, LocalityTarget, LocalityWaitRatio, MaxRacks");
	bad("PartitionName=p LogLevl=info\n",
	    "t.conf:1: unknown key 'LogLevl' (did you mean LogLevel, a global "
	    "key?); accepted partition keys: Locality, LocalityWait, LocalityTarget, LocalityWaitRatio, MaxRacks");
	/* bad values, one per type */
	bad("\n\n\n\n\n\nPartitionName=p LocalityWait=abc\n",
	    "t.conf:7: LocalityWait=abc: not a duration; expected minutes, "
	    "MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (Slurm time format)");
	bad("PartitionName=p MaxRacks=65536\n",
	    "t.conf:1: MaxRacks=65536: out of range; expected an integer from "
	    "0 to 65535");
	bad("PartitionName=p LocalityWaitRatio=1001\n",
	    "t.conf:1: LocalityWaitRatio=1001: out of range; expected an integer from "
	    "0 to 1000");
	bad("PartitionName=p LocalityWaitRatio=2x\n",
	    "t.conf:1: LocalityWaitRatio=2x: not an integer; expected an integer from "
	    "0 to 1000");
	bad("DefaultLocality=rack@\n",
	    "t.conf:1: DefaultLocality=rack@: missing wait after '@'; expected "
	    "off, or rack, pod, any or observe optionally followed by @<wait> in Slurm "
	    "time format (e.g. rack@30:00)");
	bad("StateDir=var/lib\n", "t.conf:1: StateDir=var/lib: not an absolute path; expected an "
				  "absolute path (starting with '/')");
	bad("StateDir=\n", "t.conf:1: StateDir=: empty value; expected an absolute path "
			   "(starting with '/')");
	bad("StateDir=\"\"\n", "t.conf:1: StateDir=: empty value; expected an absolute path "
			       "(starting with '/')");
	bad("LogLevel= \n", "t.conf:1: LogLevel=: empty value; expected one of quiet, info, "
			    "verbose or debug");
	bad("LogLevel=\"in fo\"\n",
	    "t.conf:1: LogLevel=in fo: unknown value; expected one of quiet, "
	    "info, verbose or debug");
	/* scope */
	bad("Locality=pod\n", "t.conf:1: Locality is a partition key, not a global one; expected "
			      "it on a PartitionName= line (PartitionName=DEFAULT sets it for "
			      "every partition)");
	bad("PartitionName=p ScratchBase=/s\n",
	    "t.conf:1: ScratchBase is a global key, not a partition one; "
	    "expected it on a line without PartitionName=");
	/* duplicates */
	bad("PartitionName=p MaxRacks=1 maxracks=2\n",
	    "t.conf:1: maxracks given twice on this line; expected each key "
	    "once per line");
	bad("LogLevel=info\n#\nloglevel=debug\n",
	    "t.conf:3: LogLevel=debug: LogLevel is already set at line 1; "
	    "expected each global key once");
	bad("PartitionName=p\nPartitionName=q\nPartitionName=p MaxRacks=1\n",
	    "t.conf:3: partition 'p' is already defined at line 1; expected "
	    "one PartitionName line per partition, with all its keys");
	bad("PartitionName=p PartitionName=q\n",
	    "t.conf:1: PartitionName given twice on this line; expected each "
	    "key once per line");
	bad("LogLevel=info PartitionName=q\n",
	    "t.conf:1: PartitionName must be the first key of its line; "
	    "expected PartitionName=<name> followed by that partition's keys");
	/* partition names */
	bad("PartitionName=a,b\n",
	    "t.conf:1: PartitionName=a,b: not a valid partition name; expected "
	    "a partition name (printable ASCII without blanks or , = # \" ' \\)");
	bad("PartitionName=\"a b\" MaxRacks=x\n",
	    "t.conf:1: PartitionName=a b: not a valid partition name; expected "
	    "a partition name (printable ASCII without blanks or , = # \" ' \\)",
	    "t.conf:1: MaxRacks=x: not an integer; expected an integer from 0 "
	    "to 65535");
	bad("PartitionName= MaxRacks=1\n",
	    "t.conf:1: PartitionName=: empty value; expected a partition name "
	    "(printable ASCII without blanks or , = # \" ' \\)");
	/* syntax */
	bad("LogLevel=info ScratchBase\n",
	    "t.conf:1: 'ScratchBase' has no '='; expected Key=Value, with no "
	    "blanks around '='");
	bad("ScratchBase = /s\n", "t.conf:1: 'ScratchBase' has no '='; expected Key=Value, with no "
				  "blanks around '='");
	bad("=x\n", "t.conf:1: '=' without a key; expected Key=Value");
	bad("a\n\nScratchBase=\"/s\n",
	    "t.conf:1: 'a' has no '='; expected Key=Value, with no blanks "
	    "around '='",
	    "t.conf:3: unterminated quote (opened at column 13); expected a "
	    "closing '\"' on the same line");
	bad("ScratchBase=\"/s\"x\n",
	    "t.conf:1: text after the closing quote of ScratchBase=\"/s\"; "
	    "expected a blank or the end of the line");
	bad("ScratchBase=/s\"x\"\n",
	    "t.conf:1: stray '\"' in the value of 'ScratchBase'; expected a "
	    "value quoted as a whole (Key=\"...\")");
	bad("include /etc/other.conf\n",
	    "t.conf:1: Include is not supported; expected Key=Value pairs "
	    "(fabsched.conf is a single file)");
	bad("LogLevel=info \\\n", "t.conf:1: the last line ends with '\\'; expected a line to "
				  "continue it");
	/* the line of a continued logical line's token */
	bad("PartitionName=p \\\n  MaxRacks=1 \\\n  Localityy=rack\n",
	    "t.conf:3: unknown key 'Localityy' (did you mean Locality?); "
	    "accepted partition keys: Locality, LocalityWait, LocalityTarget, LocalityWaitRatio, MaxRacks");
}

static void test_bad_bytes(void **state)
{
	(void)state;
#define NUL_TEXT "LogLevel=info\nStateDir=/x\0y\nScratchBase=rel\n"
	bad_n(NUL_TEXT, sizeof(NUL_TEXT) - 1, "t.conf:2: NUL byte at column 12; expected text",
	      "t.conf:3: ScratchBase=rel: not an absolute path; expected an "
	      "absolute path (starting with '/')",
	      (const char *)NULL);
	bad_n("\0", 1, "t.conf:1: NUL byte at column 1; expected text", (const char *)NULL);
	bad("# \xff\n", "t.conf:1: invalid UTF-8 at column 3; expected UTF-8 "
			"text");
	bad("StateDir=/\xc0\xaf\n", /* overlong '/' */
	    "t.conf:1: invalid UTF-8 at column 11; expected UTF-8 text");
	bad("StateDir=/\xe0\x80\xaf\n", /* overlong '/' in 3 bytes */
	    "t.conf:1: invalid UTF-8 at column 11; expected UTF-8 text");
	bad("StateDir=/\xf0\x80\x80\xaf\n", /* overlong '/' in 4 bytes */
	    "t.conf:1: invalid UTF-8 at column 11; expected UTF-8 text");
	bad("StateDir=/\xed\xa0\x80\n", /* surrogate */
	    "t.conf:1: invalid UTF-8 at column 11; expected UTF-8 text");
	bad("StateDir=/\xf4\x90\x80\x80\n", /* > U+10FFFF */
	    "t.conf:1: invalid UTF-8 at column 11; expected UTF-8 text");
	bad("StateDir=/\xe2\x82\n", /* cut short */
	    "t.conf:1: invalid UTF-8 at column 11; expected UTF-8 text");
	bad("LogLevel=info\x1b[0m\n",
	    "t.conf:1: control character 0x1b at column 14; expected printable "
	    "text");
	bad("a=b\rc=d\n", "t.conf:1: control character 0x0d at column 4; expected printable "
			  "text");
	/* a bad line inside a continued line drops the whole logical line */
	bad("PartitionName=p \\\nMaxRacks=\x01 \\\nLocality=x\nLogLevel=x\n",
	    "t.conf:2: control character 0x01 at column 10; expected printable "
	    "text",
	    "t.conf:4: LogLevel=x: unknown value; expected one of quiet, info, "
	    "verbose or debug");
}

static void test_all_errors_collected(void **state)
{
	char path[4200], epath[4200], *text, *want, *line, *save = NULL;
	struct fs_errors *e = fs_errors_new();
	struct fs_conf *c = NULL;
	size_t len, wlen, i = 0;

	(void)state;
	text = tf_slurp(fixture("errors.conf", path, sizeof(path)), &len);
	want = tf_slurp(fixture("errors.expected", epath, sizeof(epath)), &wlen);
	assert_int_equal(fs_conf_parse("errors.conf", text, len, &c, e), -1);
	assert_null(c);
	for (line = strtok_r(want, "\n", &save); line; line = strtok_r(NULL, "\n", &save), i++) {
		const char *got = fs_errors_get(e, i);

		if (!got || strcmp(got, line)) {
			fs_errors_print(e, stderr);
			fail_msg("message %zu: got \"%s\"\nwant \"%s\"", i, got ? got : "(none)",
				 line);
		}
	}
	assert_int_equal(fs_errors_count(e), i);
	/* through fs_conf_load: the same messages, named by the path */
	fs_errors_clear(e);
	assert_int_equal(fs_errors_count(e), 0);
	assert_int_equal(fs_conf_load(path, &c, e), -1);
	assert_int_equal(fs_errors_count(e), i);
	assert_memory_equal(fs_errors_get(e, 0), path, strlen(path));
	assert_string_equal(
		fs_errors_get(e, 0) + strlen(path),
		":2: unknown key 'Localty' (did you mean Locality, "
		"a partition key?); accepted global keys: "
		"FabricModel, NodeNameMap, RackMap, LogLevel, "
		"StateDir, HugepageMountBase, HugepageUnits, MetricsTextfile, JobRecordDir, JobRecordKeep, ScratchBase, "
		"ScratchTransport, ScratchTraddr, ScratchTrsvcid, ScratchSubsysNQN, "
		"ScratchHostNQNFile, ScratchHostIDFile, ScratchCapacity, "
		"RdmaRate, AccountIbPkeys, RdmaMaxHcaHandles, RdmaMaxHcaObjects, RoceGidFamily, RoceTrafficClass, RoceServiceLevel, RoceMtu, RocePfc, FabricComputeHca, DrainOnDegradedLink, FabricErrorLimits, FabricWatchInterval, DefaultLocality, PartitionName");
	/* errors are appended to what the list already holds */
	assert_int_equal(fs_conf_load(path, &c, e), -1);
	assert_int_equal(fs_errors_count(e), 2 * i);
	/* no list: still -1 */
	assert_int_equal(fs_conf_parse("x", text, len, &c, NULL), -1);
	assert_null(c);
	free(text);
	free(want);
	fs_errors_free(e);
}

static void test_too_many_errors(void **state)
{
	size_t n = 150, len = 0;
	char *b = malloc(n * 8 + 1);
	struct fs_errors *e = fs_errors_new();
	struct fs_conf *c = NULL;

	(void)state;
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(b + len, "Bad=%02zu\n", i % 100);
	assert_int_equal(fs_conf_parse("t.conf", b, len, &c, e), -1);
	assert_int_equal(fs_errors_count(e), FS_CONF_MAX_ERRORS + 1);
	assert_string_equal(fs_errors_get(e, FS_CONF_MAX_ERRORS),
			    "t.conf:101: too many errors (more than 100); "
			    "expected fewer: fix these and load again");
	free(b);
	fs_errors_free(e);
}

static void test_many_partitions(void **state)
{
	size_t n = FS_CONF_MAX_PARTITIONS + 1, len = 0;
	char *b = malloc(n * 32);
	struct fs_conf *c;

	(void)state;
	assert_non_null(b);
	for (size_t i = 0; i < n - 1; i++)
		len += (size_t)sprintf(b + len, "PartitionName=p%zu\n", i);
	b[len] = '\0';
	c = ok(b);
	assert_int_equal(fs_conf_part_count(c), FS_CONF_MAX_PARTITIONS);
	assert_string_equal(fs_conf_part_name(c, 9999), "p9999");
	fs_conf_destroy(c);
	sprintf(b + len, "PartitionName=one-too-many\n");
	bad(b, "t.conf:10001: more than 10000 partitions; expected at most "
	       "10000 PartitionName lines");
	free(b);
}

static void test_load(void **state)
{
	char path[4200];
	struct fs_errors *e = fs_errors_new();
	struct fs_conf *c = (struct fs_conf *)1;

	(void)state;
	/* a named file that is missing is an error */
	assert_int_equal(fs_conf_load("/nonexistent/fabsched.conf", &c, e), -1);
	assert_int_equal(errno, ENOENT);
	assert_null(c);
	assert_int_equal(fs_errors_count(e), 1);
	assert_string_equal(fs_errors_get(e, 0), "/nonexistent/fabsched.conf: cannot open: No such "
						 "file or directory; expected a readable "
						 "fabsched.conf");
	fs_errors_clear(e);
	/* a directory */
	assert_int_equal(fs_conf_load(fixtures, &c, e), -1);
	assert_int_equal(fs_errors_count(e), 1);
	assert_non_null(strstr(fs_errors_get(e, 0), ": not a regular file; expected a readable "
						    "fabsched.conf"));
	fs_errors_clear(e);
	/* a file over the size limit (sparse: no disk space used) */
	{
		char tmp[] = "/tmp/fabsched-test-conf-XXXXXX";
		int fd = mkstemp(tmp);

		assert_true(fd >= 0);
		assert_int_equal(ftruncate(fd, (off_t)FS_CONF_MAX_FILE + 1), 0);
		close(fd);
		assert_int_equal(fs_conf_load(tmp, &c, e), -1);
		assert_int_equal(fs_errors_count(e), 1);
		assert_string_equal(fs_errors_get(e, 0) + strlen(tmp),
				    ": larger than 16777216 bytes; expected a "
				    "configuration file");
		unlink(tmp);
		fs_errors_clear(e);
	}
	/* $FABSCHED_CONF names the file */
	setenv(FS_CONF_ENV, fixture("full.conf", path, sizeof(path)), 1);
	assert_int_equal(fs_conf_load(NULL, &c, e), 0);
	assert_string_equal(fs_conf_source(c), path);
	assert_string_equal(fs_conf_get_str(c, "LogLevel"), "verbose");
	fs_conf_destroy(c);
	setenv(FS_CONF_ENV, "/nonexistent/x.conf", 1);
	assert_int_equal(fs_conf_load(NULL, &c, e), -1);
	assert_int_equal(fs_errors_count(e), 1);
	fs_errors_clear(e);
	/* unset or empty: the default file, built-in defaults if missing */
	setenv(FS_CONF_ENV, "", 1);
	if (access(fs_conf_default_path(), F_OK) == 0) {
		print_message("# %s exists: default-file case not checked\n",
			      fs_conf_default_path());
	} else {
		assert_int_equal(fs_conf_load(NULL, &c, e), 0);
		assert_true(fs_conf_is_builtin(c));
		assert_string_equal(fs_conf_source(c), fs_conf_default_path());
		assert_string_equal(fs_conf_get_str(c, "LogLevel"), "info");
		fs_conf_destroy(c);
		unsetenv(FS_CONF_ENV);
		assert_int_equal(fs_conf_load(NULL, &c, e), 0);
		assert_true(fs_conf_is_builtin(c));
		fs_conf_destroy(c);
	}
	unsetenv(FS_CONF_ENV);
	assert_int_equal(fs_errors_count(e), 0);
	/* bad arguments */
	assert_int_equal(fs_conf_load("x", NULL, e), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(fs_conf_parse("x", NULL, 1, &c, e), -1);
	assert_int_equal(fs_conf_parse(NULL, NULL, 0, &c, e), 0);
	assert_string_equal(fs_conf_source(c), "fabsched.conf");
	fs_conf_destroy(c);
	fs_conf_destroy(NULL);
	fs_errors_free(e);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

/* No file named: the site's fabsched.conf beside $SLURM_CONF, else the
 * fabsched.so line of plugstack.conf there (a configless node). */
/* fs_plugin_dir_each: PluginDir's directories in order, regular files only. */
static int _take_second(const char *path, void *arg)
{
	char *seen = arg;

	strcat(seen, path);
	strcat(seen, ";");
	return strstr(path, "/b/") ? 0 : -1;
}

static void test_plugin_dir(void **state)
{
	char dir[] = "/tmp/fabsched-test-pd-XXXXXX", dirs[512], seen[1024] = "", p[300];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/a", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/a/x.so", dir);
	assert_int_equal(mkdir(p, 0700), 0); /* a directory: skipped */
	snprintf(p, sizeof(p), "%s/b", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	put(p, "x.so", "");
	snprintf(p, sizeof(p), "%s/c", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	put(p, "x.so", "");
	snprintf(dirs, sizeof(dirs), "%s/none::%s/a:%s/b:%s/c", dir, dir, dir, dir);
	assert_int_equal(fs_plugin_dir_each(dirs, "x.so", _take_second, seen), 0);
	snprintf(p, sizeof(p), "%s/b/x.so;", dir);
	assert_string_equal(seen, p); /* b taken, c not tried */
	seen[0] = '\0';
	snprintf(dirs, sizeof(dirs), "%s/c", dir);
	assert_int_equal(fs_plugin_dir_each(dirs, "x.so", _take_second, seen), -1);
	assert_int_equal(fs_plugin_dir_each(NULL, "x.so", _take_second, seen), -1);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

static void test_site_search(void **state)
{
	char dir[] = "/tmp/fabsched-test-site-XXXXXX", sc[4200], p[4300];
	struct fs_errors *e = fs_errors_new();
	struct fs_conf *c = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sc, sizeof(sc), "%s/slurm.conf", dir);
	put(dir, "slurm.conf", "ClusterName=x\n");
	unsetenv(FS_CONF_ENV);
	setenv("SLURM_CONF", sc, 1);
	/* the arguments of the fabsched.so line, other plugins and comments
	 * left alone */
	put(dir, "plugstack.conf",
	    "# node settings\n"
	    "optional /usr/lib/x/other.so StateDir=/nope\n"
	    "required /usr/lib/x86_64-linux-gnu/slurm-wlm/fabsched.so StateDir=/var/lib/fs-site  MetricsTextfile=/var/lib/prom/fs.prom # here\n"
	    "required fabsched.so StateDir=/second\n");
	assert_int_equal(fs_conf_load(NULL, &c, e), 0);
	snprintf(p, sizeof(p), "%s/plugstack.conf:3 (fabsched.so arguments)", dir);
	assert_string_equal(fs_conf_source(c), p);
	assert_false(fs_conf_is_builtin(c));
	assert_string_equal(fs_conf_get_str(c, "StateDir"), "/var/lib/fs-site");
	assert_string_equal(fs_conf_get_str(c, "MetricsTextfile"), "/var/lib/prom/fs.prom");
	fs_conf_destroy(c);
	/* a bad value names the line and the accepted form */
	put(dir, "plugstack.conf", "required fabsched.so StateDir=relative\n");
	assert_int_equal(fs_conf_load(NULL, &c, e), -1);
	assert_null(c);
	assert_int_equal(fs_errors_count(e), 1);
	snprintf(p, sizeof(p), "%s/plugstack.conf:1 (fabsched.so arguments):1:", dir);
	assert_memory_equal(fs_errors_get(e, 0), p, strlen(p));
	assert_non_null(strstr(fs_errors_get(e, 0), "absolute path"));
	fs_errors_clear(e);
	/* conf=FILE on the line: that file, and it must exist */
	put(dir, "other.conf", "StateDir=/var/lib/fs-other\n");
	snprintf(p, sizeof(p), "required fabsched.so conf=%s/other.conf StateDir=/ignored\n", dir);
	put(dir, "plugstack.conf", p);
	assert_int_equal(fs_conf_load(NULL, &c, e), 0);
	assert_string_equal(fs_conf_get_str(c, "StateDir"), "/var/lib/fs-other");
	fs_conf_destroy(c);
	snprintf(p, sizeof(p), "required fabsched.so conf=%s/missing.conf\n", dir);
	put(dir, "plugstack.conf", p);
	assert_int_equal(fs_conf_load(NULL, &c, e), -1);
	assert_int_equal(errno, ENOENT);
	fs_errors_clear(e);
	/* fabsched.conf beside slurm.conf wins over the line */
	put(dir, "fabsched.conf", "StateDir=/var/lib/fs-file\n");
	assert_int_equal(fs_conf_load(NULL, &c, e), 0);
	snprintf(p, sizeof(p), "%s/fabsched.conf", dir);
	assert_string_equal(fs_conf_source(c), p);
	assert_string_equal(fs_conf_get_str(c, "StateDir"), "/var/lib/fs-file");
	fs_conf_destroy(c);
	/* a line without settings, and no file: the built-in defaults (when
	 * this machine's own Slurm directory holds no fabsched settings) */
	unlink(p);
	put(dir, "plugstack.conf", "required fabsched.so\n");
	assert_int_equal(fs_conf_load(NULL, &c, e), 0);
	if (access("/etc/slurm/fabsched.conf", F_OK) &&
	    access("/run/slurm/conf/fabsched.conf", F_OK))
		assert_true(fs_conf_is_builtin(c));
	fs_conf_destroy(c);
	/* $SLURM_CONF relative: not a place to look */
	setenv("SLURM_CONF", "slurm.conf", 1);
	assert_int_equal(fs_conf_load(NULL, &c, e), 0);
	fs_conf_destroy(c);
	unsetenv("SLURM_CONF");
	assert_int_equal(fs_errors_count(e), 0);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
	fs_errors_free(e);
}

static void test_getters(void **state)
{
	struct fs_conf *c = ok("PartitionName=p MaxRacks=3\n");
	struct fs_locality loc;
	uint64_t u = 42;
	bool b;

	(void)state;
	errno = 0;
	assert_int_equal(fs_conf_get_uint(c, "Nope", &u), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(fs_conf_get_uint(c, "MaxRacks", &u), -1); /* scope */
	assert_int_equal(errno, EINVAL);
	assert_null(fs_conf_get_str(c, "MaxRacks"));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(fs_conf_get_uint(c, "StateDir", &u), -1); /* type */
	assert_int_equal(errno, EINVAL);
	assert_int_equal(fs_conf_get_bool(c, "StateDir", &b), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(fs_conf_get_bool(c, "Nope", &b), -1);
	assert_int_equal(fs_conf_get_locality(c, "StateDir", &loc), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(fs_conf_get_locality(c, "Nope", &loc), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(fs_conf_get_uint(c, "NodeNameMap", &u), -1); /* unset */
	assert_int_equal(errno, ENOENT);
	assert_int_equal(u, 42);
	assert_null(fs_conf_part_get_str(c, "p", "LogLevel"));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(fs_conf_part_get_uint(c, "p", "MaxRacks", &u), 0);
	assert_int_equal(u, 3);
	assert_int_equal(fs_conf_part_get_bool(c, "p", "MaxRacks", &b), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(fs_conf_part_get_bool(c, "p", "Nope", &b), -1);
	assert_int_equal(errno, ENOENT);
	/* NULL configuration */
	assert_null(fs_conf_get_str(NULL, "LogLevel"));
	assert_int_equal(fs_conf_part_locality(NULL, "p", &loc), -1);
	assert_int_equal(fs_conf_part_count(NULL), 0);
	assert_null(fs_conf_part_name(NULL, 0));
	assert_false(fs_conf_has_part(NULL, "p"));
	assert_null(fs_conf_source(NULL));
	assert_false(fs_conf_is_builtin(NULL));
	fs_conf_destroy(c);
}

static void test_errors_list(void **state)
{
	struct fs_errors *e = fs_errors_new();
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(fs_errors_count(NULL), 0);
	assert_null(fs_errors_get(NULL, 0));
	assert_int_equal(fs_errors_add(NULL, "x"), -1);
	fs_errors_clear(NULL);
	fs_errors_free(NULL);
	for (int i = 0; i < 20; i++)
		assert_int_equal(fs_errors_add(e, "m%d %s", i, "x"), 0);
	assert_int_equal(fs_errors_count(e), 20);
	assert_string_equal(fs_errors_get(e, 19), "m19 x");
	assert_null(fs_errors_get(e, 20));
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(fs_errors_print(e, f), 0);
	fclose(f);
	assert_int_equal(strncmp(buf, "m0 x\nm1 x\n", 10), 0);
	assert_int_equal(buf[len - 1], '\n');
	free(buf);
	fs_errors_free(e);
}

/* dump, parse the dump, dump again: same text and same values */
static char *dump(const struct fs_conf *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fs_conf_dump(c, f), 0);
	fclose(f);
	return buf;
}

static void check_round_trip(struct fs_conf *c)
{
	size_t n;
	const struct fs_conf_key *k = fs_conf_keys(&n);
	char *d1 = dump(c), *d2, *d3, *d4;
	struct fs_conf *c2 = ok(d1), *c3, *c4;

	for (size_t i = 0; i < n; i++) {
		const char *a, *b;

		if (k[i].scope == FS_SCOPE_GLOBAL) {
			a = fs_conf_get_str(c, k[i].name);
			b = fs_conf_get_str(c2, k[i].name);
			if (a || b)
				assert_string_equal(a, b);
			continue;
		}
		for (size_t p = 0; p <= fs_conf_part_count(c); p++) {
			const char *pn = fs_conf_part_name(c, p);
			struct fs_locality l1, l2;

			assert_int_equal(fs_conf_part_locality(c, pn, &l1), 0);
			assert_int_equal(fs_conf_part_locality(c2, pn, &l2), 0);
			assert_int_equal(l1.level, l2.level);
			assert_true(l1.wait == l2.wait);
			a = fs_conf_part_get_str(c, pn, k[i].name);
			b = fs_conf_part_get_str(c2, pn, k[i].name);
			assert_non_null(a);
			assert_non_null(b);
			if (k[i].type != FS_TYPE_DURATION)
				assert_string_equal(a, b);
		}
	}
	/* the dump of a dump sets every key on its own line: from then on,
	 * dumps are the same text */
	d2 = dump(c2);
	c3 = ok(d2);
	d3 = dump(c3);
	c4 = ok(d3);
	d4 = dump(c4);
	assert_string_equal(d3, d4);
	free(d1);
	free(d2);
	free(d3);
	free(d4);
	fs_conf_destroy(c2);
	fs_conf_destroy(c3);
	fs_conf_destroy(c4);
}

/* Locality=off: which partitions fabsched leaves to stock Slurm. */
static void test_locality_off(void **state)
{
	struct fs_conf *c;

	(void)state;
	/* the built-in default places every partition */
	c = ok("");
	assert_false(fs_conf_part_off(c, NULL));
	assert_false(fs_conf_all_off(c));
	fs_conf_destroy(c);
	/* adoption: nothing placed until a partition opts in */
	c = ok("DefaultLocality=off\nPartitionName=quiet LocalityWait=5\n");
	assert_true(fs_conf_part_off(c, NULL));
	assert_true(fs_conf_part_off(c, "quiet"));
	assert_true(fs_conf_part_off(c, "unnamed"));
	assert_true(fs_conf_all_off(c));
	fs_conf_destroy(c);
	c = ok("DefaultLocality=off\nPartitionName=batch Locality=rack\n");
	assert_true(fs_conf_part_off(c, "debug"));
	assert_false(fs_conf_part_off(c, "batch"));
	assert_false(fs_conf_all_off(c));
	fs_conf_destroy(c);
	/* the other way: one partition kept stock */
	c = ok("DefaultLocality=rack\nPartitionName=legacy Locality=OFF\n");
	assert_true(fs_conf_part_off(c, "legacy"));
	assert_false(fs_conf_part_off(c, "batch"));
	assert_false(fs_conf_all_off(c));
	fs_conf_destroy(c);
	c = ok("PartitionName=DEFAULT Locality=off\n");
	assert_true(fs_conf_all_off(c));
	fs_conf_destroy(c);
	/* observe is placed stock as well, and observed */
	c = ok("DefaultLocality=off\nPartitionName=mpi Locality=observe\n");
	assert_true(fs_conf_part_off(c, "mpi"));
	assert_true(fs_conf_part_observe(c, "mpi"));
	assert_false(fs_conf_part_observe(c, "batch"));
	assert_true(fs_conf_all_off(c));
	fs_conf_destroy(c);
	c = ok("DefaultLocality=observe@10:00\n");
	assert_true(fs_conf_part_observe(c, "any"));
	fs_conf_destroy(c);
	assert_false(fs_conf_part_observe(NULL, "mpi"));
	assert_false(fs_conf_part_off(NULL, "batch"));
	assert_false(fs_conf_all_off(NULL));
}

static void test_dump(void **state)
{
	char path[4200], *d;
	struct fs_conf *c = NULL;

	(void)state;
	assert_int_equal(fs_conf_load(fixture("full.conf", path, sizeof(path)), &c, NULL), 0);
	d = dump(c);
	assert_non_null(strstr(d, "\nStateDir=\"/var/lib/fab sched\"\t# line 7\n"));
	assert_non_null(strstr(d, "\nScratchBase=\"/scratch#local\"\t# line 9\n"));
	assert_non_null(strstr(d, "\nPartitionName=batch Locality=rack "
				  "LocalityWait=30:00 LocalityTarget=0 LocalityWaitRatio=0 \\\n"
				  "    MaxRacks=2\t# line 15\n"));
	assert_non_null(strstr(d, "\nPartitionName=long Locality=pod "
				  "LocalityWait=5 LocalityTarget=0 LocalityWaitRatio=0 \\\n"
				  "    MaxRacks=0\t# line 18\n"
				  "#   Locality: from DefaultLocality\n"
				  "#   LocalityWait: PartitionName=DEFAULT at "
				  "line 13\n"));
	free(d);
	check_round_trip(c);
	fs_conf_destroy(c);

	c = ok("");
	d = dump(c);
	assert_non_null(strstr(d, "\n#NodeNameMap=\t# not set\n"));
	assert_non_null(strstr(d, "\nLogLevel=info\t# built-in default\n"));
	free(d);
	check_round_trip(c);
	fs_conf_destroy(c);

	c = ok("DefaultLocality=rack@1-0 ScratchBase=/s\\\n"
	       "PartitionName=a\nPartitionName=b LocalityWait=INFINITE\n");
	check_round_trip(c);
	fs_conf_destroy(c);
	/* long partition lines are dumped as continued lines */
	c = ok("PartitionName=p LocalityWait=0000000000000000000000000000000"
	       "00000000000000000000000000000000000000000000000000000000000005"
	       " Locality=pod\n");
	d = dump(c);
	assert_non_null(strstr(d, "\nPartitionName=p Locality=pod \\\n   "
				  " LocalityWait=00000"));
	free(d);
	check_round_trip(c);
	fs_conf_destroy(c);
	assert_int_equal(fs_conf_dump(NULL, stdout), -1);
}

/*
 * No shared state: threads parsing and reading at once get what one
 * thread gets (run under -fsanitize=thread or helgrind to see races).
 */
struct thread_arg {
	const char *text;
	size_t len;
	const struct fs_conf *shared;
	int bad;
};

static void *parse_thread(void *p)
{
	struct thread_arg *a = p;

	for (int i = 0; i < 200; i++) {
		struct fs_errors *e = fs_errors_new();
		struct fs_conf *c = NULL;
		struct fs_locality loc;
		char *d;
		size_t n;
		FILE *f;

		if (!e || fs_conf_parse("t", a->text, a->len, &c, e) ||
		    fs_conf_part_locality(c, "long", &loc) || loc.level != FS_LOCALITY_POD)
			a->bad++;
		fs_conf_destroy(c);
		if (fs_conf_parse("t", "Bad=1", 5, &c, e) != -1 || fs_errors_count(e) != 1 ||
		    fs_conf_part_locality(a->shared, "batch", &loc) || loc.wait != 1800)
			a->bad++;
		f = open_memstream(&d, &n);
		if (!f || fs_conf_dump(a->shared, f))
			a->bad++;
		if (f) {
			fclose(f);
			free(d);
		}
		fs_errors_free(e);
	}
	return NULL;
}

static void test_threads(void **state)
{
	char path[4200];
	struct thread_arg args[4];
	pthread_t tid[4];
	struct fs_conf *shared = NULL;
	size_t len;
	char *text;

	(void)state;
	text = tf_slurp(fixture("full.conf", path, sizeof(path)), &len);
	assert_int_equal(fs_conf_parse("full", text, len, &shared, NULL), 0);
	for (int i = 0; i < 4; i++) {
		args[i] = (struct thread_arg){ text, len, shared, 0 };
		assert_int_equal(pthread_create(&tid[i], NULL, parse_thread, &args[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(tid[i], NULL), 0);
		assert_int_equal(args[i].bad, 0);
	}
	fs_conf_destroy(shared);
	free(text);
}

/* The EXAMPLES file of the man page parses and means what it says. */
static void check_man_example(const char *man)
{
	const char *start = strstr(man, "\n# /etc/slurm/fabsched.conf\n");
	const char *end = start ? strstr(start, "\n.fi\n") : NULL;
	char *text, *o;
	struct fs_conf *c;
	struct fs_locality loc;
	uint64_t u;

	assert_non_null(end);
	text = o = malloc((size_t)(end - start) + 2);
	assert_non_null(text);
	for (const char *p = start + 1; p <= end; p++) {
		/* roff escapes used there: \e (backslash), \- (minus) */
		if (p[0] == '\\' && (p[1] == 'e' || p[1] == '-')) {
			*o++ = p[1] == 'e' ? '\\' : '-';
			p++;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	c = ok(text);
	assert_string_equal(fs_conf_get_str(c, "ScratchBase"), "/local scratch");
	assert_int_equal(fs_conf_part_locality(c, "mpi", &loc), 0);
	assert_true(loc.level == FS_LOCALITY_RACK && loc.wait == 1800);
	assert_int_equal(fs_conf_part_get_uint(c, "mpi", "MaxRacks", &u), 0);
	assert_int_equal(u, 2);
	assert_int_equal(fs_conf_part_locality(c, "long", &loc), 0);
	assert_true(loc.level == FS_LOCALITY_POD && loc.wait == 86400);
	assert_int_equal(fs_conf_part_get_uint(c, "long", "MaxRacks", &u), 0);
	assert_int_equal(u, 8);
	assert_int_equal(fs_conf_part_locality(c, "batch", &loc), 0);
	assert_true(loc.level == FS_LOCALITY_POD && loc.wait == 300);
	assert_int_equal(fs_conf_part_get_uint(c, "batch", "MaxRacks", &u), 0);
	assert_int_equal(u, 8);
	fs_conf_destroy(c);
	free(text);
}

/* every key of the schema has its entry in fabsched.conf(5) */
static void test_man_page(void **state)
{
	const char *src = getenv("FABSCHED_SRCDIR");
	char path[4200], want[128], *man;
	const struct fs_conf_key *k;
	size_t n, len;

	(void)state;
	snprintf(path, sizeof(path), "%s/doc/fabsched.conf.5", src ? src : ".");
	if (access(path, R_OK)) {
		skip();
		return;
	}
	man = tf_slurp(path, &len);
	k = fs_conf_keys(&n);
	for (size_t i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "\n.BI %s= ", k[i].name);
		if (!strstr(man, want))
			fail_msg("%s: no \"%s\" entry for key %s", path, want + 1, k[i].name);
	}
	check_man_example(man);
	free(man);
}

int main(void)
{
	const char *fx = getenv("FABSCHED_FIXTURES");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_full_fixture),
		cmocka_unit_test(test_slurm_style_fixture),
		cmocka_unit_test(test_minimal_fixture),
		cmocka_unit_test(test_fallback_chain),
		cmocka_unit_test(test_syntax_accepted),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_error_kinds),
		cmocka_unit_test(test_bad_bytes),
		cmocka_unit_test(test_all_errors_collected),
		cmocka_unit_test(test_too_many_errors),
		cmocka_unit_test(test_many_partitions),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_plugin_dir),
		cmocka_unit_test(test_site_search),
		cmocka_unit_test(test_getters),
		cmocka_unit_test(test_errors_list),
		cmocka_unit_test(test_locality_off),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_man_page),
	};

	snprintf(fixtures, sizeof(fixtures), "%s/conf", fx && *fx ? fx : "tests/fixtures");
	return cmocka_run_group_tests_name("fabsched_conf", tests, NULL, NULL);
}
