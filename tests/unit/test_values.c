/*
 * test_values.c - unit tests of common/fs_values.c: every parser's
 * accepted forms, edges (overflow at 2^64, empty fields, signs, junk)
 * and exact messages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fs_ib.h"
#include "fs_values.h"

#define INF FS_DURATION_INFINITE
#define DUR_FORM                                                          \
	"expected minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS " \
	"(Slurm time format)"

struct ok_case {
	const char *in;
	uint64_t want;
};

/* ------------------------------------------------------------ duration */

static void test_duration_valid(void **state)
{
	static const struct ok_case cases[] = {
		{ "0", 0 },
		{ "1", 60 },
		{ "30", 1800 },
		{ "00000000000000000000000000001", 60 },
		{ "0:0", 0 },
		{ "1:30", 90 },
		{ "30:00", 1800 },
		{ "90:00", 5400 }, /* leading field unbounded */
		{ "0:59", 59 },
		{ "1:00:00", 3600 },
		{ "01:02:03", 3723 },
		{ "100:00:00", 360000 },
		{ "1-0", 86400 },
		{ "1-2", 93600 },
		{ "1-23", 86400 + 23 * 3600 },
		{ "1-2:03", 93780 },
		{ "1-2:03:04", 93784 },
		{ "0-0:0:0", 0 },
		{ "365-0", 365ull * 86400 },
		{ "INFINITE", INF },
		{ "infinite", INF },
		{ "Unlimited", INF },
		{ "UNLIMITED", INF },
		/* largest minute count that fits in 64 bits of seconds */
		{ "307445734561825860", 307445734561825860ull * 60 },
		{ "213503982334601-7:00:14", 18446744073709551614ull },
	};
	char msg[FS_MSG_SIZE];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;

		msg[0] = '\0';
		if (fs_parse_duration("W", cases[i].in, &v, msg, sizeof(msg)))
			fail_msg("'%s' rejected: %s", cases[i].in, msg);
		if (v != cases[i].want)
			fail_msg("'%s' -> %llu, want %llu", cases[i].in, (unsigned long long)v,
				 (unsigned long long)cases[i].want);
	}
}

static void test_duration_invalid(void **state)
{
	static const struct {
		const char *in, *why;
	} cases[] = {
		{ "", "empty value" },
		{ "abc", "not a duration" },
		{ "1-", "not a duration" },
		{ ":30", "not a duration" },
		{ "1:", "not a duration" },
		{ "1::2", "not a duration" },
		{ "1:2:", "not a duration" },
		{ "1:2:3:4", "not a duration" },
		{ "1-2:3:4:5", "not a duration" },
		{ "1-2:", "not a duration" },
		{ "1-:30", "not a duration" },
		{ "1-2-3", "not a duration" },
		{ "-1", "not a duration" },
		{ "+1", "not a duration" },
		{ " 1", "not a duration" },
		{ "1 ", "not a duration" },
		{ "1\t", "not a duration" },
		{ "1.5", "not a duration" },
		{ "1h", "not a duration" },
		{ "0x10", "not a duration" },
		{ "INFINITEx", "not a duration" },
		{ "INFINIT", "not a duration" },
		{ "1@2", "not a duration" },
		{ "1:60", "seconds must be 0-59" },
		{ "1:60:00", "minutes must be 0-59" },
		{ "1:00:60", "seconds must be 0-59" },
		{ "1-24", "hours after D- must be 0-23" },
		{ "1-2:60", "minutes must be 0-59" },
		{ "0-2:60", "minutes must be 0-59" },
		{ "1-2:3:60", "seconds must be 0-59" },
		/* 2^64 and more */
		{ "18446744073709551616", "too large" },
		{ "99999999999999999999999999999", "too large" },
		{ "307445734561825861", "too large" }, /* minutes * 60 */
		{ "18446744073709551615:00", "too large" },
		{ "213503982334602-0", "too large" },
		{ "213503982334601-7:00:15", "too large" }, /* == INFINITE */
		{ "213503982334601-7:00:16", "too large" },
		{ "1-99999999999999999999", "too large" },
	};
	char msg[FS_MSG_SIZE], want[FS_MSG_SIZE];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 777;

		if (!fs_parse_duration(NULL, cases[i].in, &v, msg, sizeof(msg)))
			fail_msg("'%s' accepted as %llu", cases[i].in, (unsigned long long)v);
		assert_int_equal(v, 777); /* untouched on error */
		snprintf(want, sizeof(want), "%s; %s", cases[i].why, DUR_FORM);
		if (!strstr(msg, want))
			fail_msg("'%s': got \"%s\", want \"...%s\"", cases[i].in, msg, want);
	}
}

static void test_duration_messages(void **state)
{
	char msg[FS_MSG_SIZE];
	uint64_t v;

	(void)state;
	assert_int_equal(fs_parse_duration("LocalityWait", "abc", &v, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "LocalityWait=abc: not a duration; "
				 "expected minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM "
				 "or D-HH:MM:SS (Slurm time format)");
	assert_int_equal(fs_parse_duration(NULL, "1-", &v, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "'1-': not a duration; " DUR_FORM);
	assert_int_equal(fs_parse_duration("--wait", "", &v, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "--wait=: empty value; " DUR_FORM);
	/* NULL input, NULL or tiny message buffers */
	assert_int_equal(fs_parse_duration("x", NULL, &v, msg, sizeof(msg)), -1);
	assert_int_equal(fs_parse_duration("x", "y", &v, NULL, 0), -1);
	memset(msg, 'Z', sizeof(msg));
	assert_int_equal(fs_parse_duration("x", "y", &v, msg, 8), -1);
	assert_int_equal(strlen(msg), 7);
	assert_int_equal(fs_parse_duration("x", "y", &v, msg, 1), -1);
	assert_string_equal(msg, "");
	/* non-printable bytes and long values are escaped and cut */
	assert_int_equal(fs_parse_duration("W", "\x01\xff", &v, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "W=\\x01\\xff: not a duration; " DUR_FORM);
}

static void test_duration_format(void **state)
{
	static const uint64_t vals[] = {
		0,	 1,  59, 60, 1800, 3599, 3600, 86399, 86400, 93784, 10ull * 365 * 86400,
		INF - 1, INF
	};
	char buf[32];
	uint64_t back;

	(void)state;
	assert_string_equal(fs_format_duration(0, buf, sizeof(buf)), "00:00:00");
	assert_string_equal(fs_format_duration(1800, buf, sizeof(buf)), "00:30:00");
	assert_string_equal(fs_format_duration(93784, buf, sizeof(buf)), "1-02:03:04");
	assert_string_equal(fs_format_duration(INF, buf, sizeof(buf)), "INFINITE");
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		fs_format_duration(vals[i], buf, sizeof(buf));
		assert_int_equal(fs_parse_duration(NULL, buf, &back, NULL, 0), 0);
		assert_true(back == vals[i]);
	}
	/* truncation keeps a NUL */
	assert_string_equal(fs_format_duration(93784, buf, 3), "1-");
}

/* ------------------------------------------------------------ size */

static void test_size(void **state)
{
	static const struct ok_case ok[] = {
		{ "0", 0 },
		{ "1", 1 },
		{ "1K", 1024 },
		{ "1k", 1024 },
		{ "1KiB", 1024 },
		{ "1kib", 1024 },
		{ "2M", 2ull << 20 },
		{ "2MiB", 2ull << 20 },
		{ "3G", 3ull << 30 },
		{ "3GIB", 3ull << 30 },
		{ "4T", 4ull << 40 },
		{ "4TiB", 4ull << 40 },
		{ "0G", 0 },
		{ "16777215T", 16777215ull << 40 },
		{ "18446744073709551615", UINT64_MAX },
	};
	static const struct {
		const char *in, *why;
	} bad[] = {
		{ "", "empty value" },
		{ "K", "not a size" },
		{ "1KB", "not a size" },
		{ "1 K", "not a size" },
		{ " 1K", "not a size" },
		{ "1K ", "not a size" },
		{ "1.5G", "not a size" },
		{ "-1", "not a size" },
		{ "+1", "not a size" },
		{ "1P", "not a size" },
		{ "1Ki", "not a size" },
		{ "1KiBx", "not a size" },
		{ "1iB", "not a size" },
		{ "1B", "not a size" },
		{ "0x10", "not a size" },
		{ "16777216T", "too large" },
		{ "18014398509481984K", "too large" },
		{ "18446744073709551616", "too large" },
		{ "99999999999999999999999G", "too large" },
	};
	char msg[FS_MSG_SIZE], want[FS_MSG_SIZE];
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (fs_parse_size("S", ok[i].in, &v, msg, sizeof(msg)))
			fail_msg("'%s' rejected: %s", ok[i].in, msg);
		assert_true(v == ok[i].want);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 5;
		if (!fs_parse_size("S", bad[i].in, &v, msg, sizeof(msg)))
			fail_msg("'%s' accepted", bad[i].in);
		assert_int_equal(v, 5);
		snprintf(want, sizeof(want), ": %s; expected %s", bad[i].why, FS_SIZE_FORM);
		if (!strstr(msg, want))
			fail_msg("'%s': got \"%s\"", bad[i].in, msg);
	}
	assert_int_equal(fs_parse_size("--hugepages", "2X", &v, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "--hugepages=2X: not a size; expected a "
				 "number of bytes with an optional binary suffix "
				 "K, M, G or T (or KiB, MiB, GiB, TiB), e.g. 512M");
}

/* ------------------------------------------------------------ uint */

static void test_uint(void **state)
{
	char msg[FS_MSG_SIZE];
	uint64_t v;

	(void)state;
	assert_int_equal(fs_parse_uint("N", "0", 0, 10, &v, msg, sizeof(msg)), 0);
	assert_int_equal(v, 0);
	assert_int_equal(fs_parse_uint("N", "10", 0, 10, &v, msg, sizeof(msg)), 0);
	assert_int_equal(v, 10);
	assert_int_equal(fs_parse_uint("N", "007", 0, 10, &v, msg, sizeof(msg)), 0);
	assert_int_equal(v, 7);
	assert_int_equal(
		fs_parse_uint("N", "18446744073709551615", 0, UINT64_MAX, &v, msg, sizeof(msg)), 0);
	assert_true(v == UINT64_MAX);

	v = 3;
	assert_int_equal(fs_parse_uint("MaxRacks", "70000", 0, 65535, &v, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "MaxRacks=70000: out of range; expected an "
				 "integer from 0 to 65535");
	assert_int_equal(v, 3);
	assert_int_equal(fs_parse_uint("N", "0", 1, 5, &v, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "N=0: out of range; expected an integer "
				 "from 1 to 5");
	assert_int_equal(
		fs_parse_uint("N", "18446744073709551616", 0, UINT64_MAX, &v, msg, sizeof(msg)),
		-1);
	assert_string_equal(msg, "N=18446744073709551616: out of range; "
				 "expected a non-negative integer");
	assert_int_equal(fs_parse_uint("N", "-1", 0, UINT64_MAX, &v, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "N=-1: not an integer; expected a "
				 "non-negative integer");
	assert_int_equal(fs_parse_uint("N", "", 0, 9, &v, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "N=: empty value; expected an integer from "
				 "0 to 9");
	static const char *const bad[] = { "+1", " 1", "1 ", "1x", "0x1", "1e3", "1.0", "١" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!fs_parse_uint("N", bad[i], 0, UINT64_MAX, &v, msg, sizeof(msg)))
			fail_msg("'%s' accepted", bad[i]);
}

/* ------------------------------------------------------------ bool */

static void test_percent(void **state)
{
	static const struct {
		const char *s;
		uint64_t ppm;
	} ok[] = {
		{ "0", 0 },	    { "99", 990000 },	   { "99%", 990000 }, { "98.5%", 985000 },
		{ "100", 1000000 }, { "100.0%", 1000000 }, { "0.0001", 1 },   { "007", 70000 },
	};
	static const char *const bad[] = {
		"",	    "%",    "-1",  "+5",  "1e2", "99.",	  ".5",
		"99.12345", "50%%", " 50", "50 ", "abc", "10000",
	};
	char msg[FS_MSG_SIZE];
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = 12345;
		assert_int_equal(fs_parse_percent("T", ok[i].s, &v, msg, sizeof(msg)), 0);
		assert_true(v == ok[i].ppm);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 7;
		assert_int_equal(fs_parse_percent("T", bad[i], &v, msg, sizeof(msg)), -1);
		assert_true(v == 7);
	}
	assert_int_equal(fs_parse_percent("LocalityTarget", "100.5", &v, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "LocalityTarget=100.5: above 100; expected "
				 "a percentage from 0 to 100, e.g. 99% or 98.5%");
	assert_int_equal(fs_parse_percent("LocalityTarget", "ninety", &v, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "LocalityTarget=ninety: not a percentage; "
				 "expected a percentage from 0 to 100, e.g. 99% "
				 "or 98.5%");
}

static void test_bool(void **state)
{
	static const char *const yes[] = { "yes", "YES", "Yes", "true", "TRUE", "1" };
	static const char *const no[] = { "no", "NO", "false", "False", "0" };
	static const char *const bad[] = { "",	   "y",	 "n",	"on", "off", "2",
					   "yess", "1 ", " no", "00", "t" };
	char msg[FS_MSG_SIZE];
	bool b;

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		assert_int_equal(fs_parse_bool("B", yes[i], &b, msg, sizeof(msg)), 0);
		assert_true(b);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = true;
		assert_int_equal(fs_parse_bool("B", no[i], &b, msg, sizeof(msg)), 0);
		assert_false(b);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!fs_parse_bool("B", bad[i], &b, msg, sizeof(msg)))
			fail_msg("'%s' accepted", bad[i]);
	fs_parse_bool("Flag", "on", &b, msg, sizeof(msg));
	assert_string_equal(msg, "Flag=on: not a boolean; expected yes, no, "
				 "true, false, 1 or 0");
}

/* ------------------------------------------------------------ enum */

static void test_enum(void **state)
{
	char msg[FS_MSG_SIZE];
	unsigned idx = 99;

	(void)state;
	assert_int_equal(
		fs_parse_enum("L", "quiet", "quiet|info|verbose|debug", &idx, msg, sizeof(msg)), 0);
	assert_int_equal(idx, 0);
	assert_int_equal(
		fs_parse_enum("L", "DEBUG", "quiet|info|verbose|debug", &idx, msg, sizeof(msg)), 0);
	assert_int_equal(idx, 3);
	assert_int_equal(fs_parse_enum("LogLevel", "loud", "quiet|info|verbose|debug", &idx, msg,
				       sizeof(msg)),
			 -1);
	assert_string_equal(msg, "LogLevel=loud: unknown value; expected one "
				 "of quiet, info, verbose or debug");
	assert_int_equal(fs_parse_enum("L", "info|debug", "quiet|info|verbose|debug", &idx, msg,
				       sizeof(msg)),
			 -1);
	assert_int_equal(fs_parse_enum("L", "inf", "quiet|info", &idx, msg, sizeof(msg)), -1);
	assert_int_equal(fs_parse_enum("L", "infoo", "quiet|info", &idx, msg, sizeof(msg)), -1);
	assert_int_equal(fs_parse_enum("L", "", "a|b", &idx, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "L=: empty value; expected one of a or b");
	assert_int_equal(fs_parse_enum("L", "b", "a", &idx, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "L=b: unknown value; expected a");
	assert_int_equal(idx, 3);
}

/* ------------------------------------------------------------ locality */

static void test_locality_valid(void **state)
{
	static const struct {
		const char *in;
		enum fs_locality_level level;
		bool wait_set;
		uint64_t wait;
	} cases[] = {
		{ "rack", FS_LOCALITY_RACK, false, 0 },
		{ "pod", FS_LOCALITY_POD, false, 0 },
		{ "any", FS_LOCALITY_ANY, false, 0 },
		{ "RACK", FS_LOCALITY_RACK, false, 0 },
		{ "Pod", FS_LOCALITY_POD, false, 0 },
		{ "rack@30:00", FS_LOCALITY_RACK, true, 1800 },
		{ "rack@0", FS_LOCALITY_RACK, true, 0 },
		{ "rack@30", FS_LOCALITY_RACK, true, 1800 },
		{ "pod@1-0", FS_LOCALITY_POD, true, 86400 },
		{ "any@INFINITE", FS_LOCALITY_ANY, true, INF },
		{ "rack@unlimited", FS_LOCALITY_RACK, true, INF },
	};
	struct fs_locality loc;
	char msg[FS_MSG_SIZE];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&loc, 0x55, sizeof(loc));
		if (fs_parse_locality("--fabric-locality", cases[i].in, &loc, msg, sizeof(msg)))
			fail_msg("'%s' rejected: %s", cases[i].in, msg);
		assert_int_equal(loc.level, cases[i].level);
		assert_int_equal(loc.wait_set, cases[i].wait_set);
		assert_true(loc.wait == cases[i].wait);
	}
}

static void test_locality_invalid(void **state)
{
	static const struct {
		const char *in, *msg;
	} cases[] = {
		{ "rackk", "--fabric-locality=rackk: expected rack, pod or any, "
			   "optionally followed by @<wait> in Slurm time format "
			   "(e.g. rack@30:00)" },
		{ "", "--fabric-locality=: empty value; expected rack, pod or "
		      "any, optionally followed by @<wait> in Slurm time "
		      "format (e.g. rack@30:00)" },
		{ "rack@", "--fabric-locality=rack@: missing wait after '@'; "
			   "expected rack, pod or any, optionally followed by "
			   "@<wait> in Slurm time format (e.g. rack@30:00)" },
		{ "rack@abc", "--fabric-locality=rack@abc: wait 'abc' is not a "
			      "duration; expected rack, pod or any, optionally "
			      "followed by @<wait> in Slurm time format (e.g. "
			      "rack@30:00)" },
		{ "@30", NULL },
		{ "rack@30:00@5", NULL },
		{ "rack@-1", NULL },
		{ "rack@1-", NULL },
		{ "rack@:30", NULL },
		{ "rack ", NULL },
		{ " rack", NULL },
		{ "rack@ 5", NULL },
		{ "racks", NULL },
		{ "rac", NULL },
		{ "node", NULL },
		{ "rack@18446744073709551616", NULL },
	};
	struct fs_locality loc = { .level = FS_LOCALITY_POD, .wait = 9 };
	char msg[FS_MSG_SIZE];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (!fs_parse_locality("--fabric-locality", cases[i].in, &loc, msg, sizeof(msg)))
			fail_msg("'%s' accepted", cases[i].in);
		if (cases[i].msg)
			assert_string_equal(msg, cases[i].msg);
		else
			assert_non_null(strstr(msg, "expected rack, pod or "
						    "any, optionally"));
	}
	assert_int_equal(loc.level, FS_LOCALITY_POD);
	assert_int_equal(loc.wait, 9);

	/* the longest message (value and wait echoed, all escaped) fits */
	char big[400];
	memset(big, 0xd5, sizeof(big) - 1);
	memcpy(big, "rack@", 5);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(fs_parse_locality("--fabric-locality", big, &loc, msg, sizeof(msg)), -1);
	assert_true(strlen(msg) > 600);
	assert_string_equal(msg + strlen(msg) - 17, "(e.g. rack@30:00)");
}

static void test_locality_format(void **state)
{
	struct fs_locality loc = { FS_LOCALITY_RACK, true, 1800 }, back;
	char buf[32];

	(void)state;
	assert_string_equal(fs_format_locality(&loc, buf, sizeof(buf)), "rack@00:30:00");
	assert_int_equal(fs_parse_locality(NULL, buf, &back, NULL, 0), 0);
	assert_int_equal(back.level, FS_LOCALITY_RACK);
	assert_true(back.wait_set && back.wait == 1800);
	loc.level = FS_LOCALITY_POD;
	loc.wait_set = false;
	assert_string_equal(fs_format_locality(&loc, buf, sizeof(buf)), "pod");
	assert_string_equal(fs_locality_name(FS_LOCALITY_ANY), "any");
	assert_string_equal(fs_locality_name(FS_LOCALITY_OFF), "off");
	assert_string_equal(fs_locality_name(FS_LOCALITY_OBSERVE), "observe");
	assert_null(fs_locality_name((enum fs_locality_level)5));
}

/* off: fabsched.conf's alone, never a job's, and without a wait */
static void test_locality_off(void **state)
{
	struct fs_locality loc = { .level = FS_LOCALITY_POD };
	char msg[FS_MSG_SIZE];

	(void)state;
	assert_int_equal(fs_parse_locality("--fabric-locality", "off", &loc, msg, sizeof(msg)), -1);
	assert_string_equal(
		msg,
		"--fabric-locality=off: off is an administrator's setting (fabsched.conf); expected rack, pod or any, optionally followed by @<wait> in Slurm time format (e.g. rack@30:00)");
	assert_int_equal(loc.level, FS_LOCALITY_POD);
	assert_int_equal(fs_parse_locality_conf("DefaultLocality", "OFF", &loc, msg, sizeof(msg)),
			 0);
	assert_int_equal(loc.level, FS_LOCALITY_OFF);
	assert_false(loc.wait_set);
	assert_int_equal(
		fs_parse_locality_conf("DefaultLocality", "off@10", &loc, msg, sizeof(msg)), -1);
	assert_string_equal(
		msg,
		"DefaultLocality=off@10: off takes no @<wait>; expected off, or rack, pod, any or observe optionally followed by @<wait> in Slurm time format (e.g. rack@30:00)");
	assert_int_equal(
		fs_parse_locality_conf("DefaultLocality", "rack@10", &loc, msg, sizeof(msg)), 0);
	assert_int_equal(loc.level, FS_LOCALITY_RACK);
	assert_int_equal(fs_parse_locality_conf("DefaultLocality", "of", &loc, msg, sizeof(msg)),
			 -1);
	assert_non_null(strstr(msg, "expected off, or rack"));
}

/* ------------------------------------------------------------ helpers */

static void test_escape(void **state)
{
	char buf[FS_ESCAPE_SIZE], big[200];

	(void)state;
	assert_string_equal(fs_escape(buf, sizeof(buf), "a\tb\x7f\xc3\xa9", 6),
			    "a\\x09b\\x7f\\xc3\\xa9");
	assert_string_equal(fs_escape(buf, sizeof(buf), "a\0b", 3), "a\\x00b");
	memset(big, 'x', sizeof(big));
	fs_escape(buf, sizeof(buf), big, sizeof(big));
	assert_int_equal(strlen(buf), 64 + 3);
	assert_string_equal(buf + 64, "...");
	memset(big, 0xff, sizeof(big));
	fs_escape(buf, sizeof(buf), big, sizeof(big));
	assert_int_equal(strlen(buf), 64 * 4 + 3);
	/* small buffers: whole units only, always terminated */
	assert_string_equal(fs_escape(buf, 4, "abcdef", 6), "abc");
	assert_string_equal(fs_escape(buf, 4,
				      "\x01"
				      "a",
				      2),
			    "");
	assert_string_equal(fs_escape(buf, 1, "abc", 3), "");
}

/* FabricErrorLimits: counters by name in any case, each once, or none */
static void test_err_limits(void **state)
{
	struct fs_ib_err_limits l;
	char msg[FS_MSG_SIZE];
	const char *bad[][2] = {
		{ "", "empty value" },
		{ "SymbolErrorCounter", "no ':' between counter and limit" },
		{ "SymbolErrors:10", "not a counter fabsched follows" },
		{ "LinkDownedCounter:-1", "FabricErrorLimits=-1" },
		{ "LinkDownedCounter:1,linkdownedcounter:2", "LinkDownedCounter is given twice" },
		{ "PortRcvErrors:4294967296", "FabricErrorLimits=4294967296" },
		{ "PortRcvErrors:1,", "entry ''" },
	};

	(void)state;
	assert_int_equal(fs_ib_parse_err_limits("FabricErrorLimits", FS_IB_ERR_LIMITS_DEFAULT, &l,
						msg, sizeof(msg)),
			 0);
	assert_true(l.on[FS_IB_SYMBOL_ERRORS] && l.on[FS_IB_LINK_DOWNED] && l.on[FS_IB_RCV_ERRORS]);
	assert_int_equal(l.most[FS_IB_SYMBOL_ERRORS], 10);
	assert_int_equal(l.most[FS_IB_LINK_DOWNED], 0);
	assert_int_equal(fs_ib_parse_err_limits("FabricErrorLimits", "portrcverrors:7", &l, msg,
						sizeof(msg)),
			 0);
	assert_false(l.on[FS_IB_SYMBOL_ERRORS] || l.on[FS_IB_LINK_DOWNED]);
	assert_true(l.on[FS_IB_RCV_ERRORS] && l.most[FS_IB_RCV_ERRORS] == 7);
	assert_int_equal(fs_ib_parse_err_limits("FabricErrorLimits", "None", &l, msg, sizeof(msg)),
			 0);
	assert_false(l.on[0] || l.on[1] || l.on[2]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		assert_int_equal(fs_ib_parse_err_limits("FabricErrorLimits", bad[i][0], &l, msg,
							sizeof(msg)),
				 -1);
		if (!strstr(msg, bad[i][1]) || !strstr(msg, "FabricErrorLimits"))
			fail_msg("'%s': %s", bad[i][0], msg);
	}
	assert_string_equal(fs_ib_counter_name(FS_IB_RCV_ERRORS), "PortRcvErrors");
	assert_null(fs_ib_counter_name(FS_IB_NCOUNTERS));
}

static void test_case(void **state)
{
	(void)state;
	assert_true(fs_strcaseeq("LogLevel", "LOGLEVEL"));
	assert_false(fs_strcaseeq("LogLevel", "LogLeve"));
	assert_false(fs_strcaseeq("a", "ab"));
	assert_true(fs_strcaseeq("", ""));
	assert_false(fs_strcaseeq("\xc3\xa9", "\xc3\x89")); /* ASCII only */
	assert_true(fs_strncaseeq("RACK@5", "rack", 4));
	assert_false(fs_strncaseeq("RAC", "rack", 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration_valid),
		cmocka_unit_test(test_duration_invalid),
		cmocka_unit_test(test_duration_messages),
		cmocka_unit_test(test_duration_format),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_uint),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_enum),
		cmocka_unit_test(test_locality_valid),
		cmocka_unit_test(test_locality_invalid),
		cmocka_unit_test(test_locality_format),
		cmocka_unit_test(test_locality_off),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_case),
		cmocka_unit_test(test_err_limits),
	};

	return cmocka_run_group_tests_name("fs_values", tests, NULL, NULL);
}
