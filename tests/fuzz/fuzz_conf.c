/*
 * fuzz_conf.c - fuzz target for fabsched.conf and the value parsers.
 *
 * Built two ways (tests/fuzz/fuzz.mk): with driver.c into a smoke test
 * that make check runs under AddressSanitizer and UBSan, and with clang's
 * -fsanitize=fuzzer into a libFuzzer binary (make fuzz).
 *
 * Besides "no crash, no leak", it checks properties that must hold for
 * every input, and aborts when one does not:
 *  - fs_conf_parse returns 0 with a configuration, or -1 with NULL and at
 *    least one message, each "<name>:..." with an "expected" part;
 *  - a configuration's dump parses back, and the dump of that parses to
 *    the same dump (text equality from the second round on);
 *  - a duration or locality that parses formats to text that parses back
 *    to the same value; failed value parsers leave a message naming the
 *    accepted form.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                       \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "fuzz_conf: %s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                                         \
			abort();                                                          \
		}                                                                         \
	} while (0)

static char *_dump(const struct fs_conf *c, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	CHECK(f);
	CHECK(fs_conf_dump(c, f) == 0);
	CHECK(fclose(f) == 0);
	return buf;
}

static struct fs_conf *_parse_ok(const char *text, size_t len)
{
	struct fs_errors *e = fs_errors_new();
	struct fs_conf *c = NULL;

	CHECK(e);
	if (fs_conf_parse("dump", text, len, &c, e)) {
		fs_errors_print(e, stderr);
		fprintf(stderr, "--- dump that does not parse:\n%.*s\n", (int)len, text);
		CHECK(!"a dump parses back");
	}
	fs_errors_free(e);
	return c;
}

static void _conf(const uint8_t *data, size_t size)
{
	struct fs_errors *e = fs_errors_new();
	struct fs_conf *c = (struct fs_conf *)&c;
	size_t n;

	CHECK(e);
	if (fs_conf_parse("f.conf", (const char *)data, size, &c, e)) {
		CHECK(c == NULL);
		n = fs_errors_count(e);
		CHECK(n >= 1 && n <= FS_CONF_MAX_ERRORS + 1);
		for (size_t i = 0; i < n; i++) {
			const char *m = fs_errors_get(e, i);

			if (!m || strncmp(m, "f.conf", 6) ||
			    !(strstr(m, "expected") || strstr(m, "accepted") ||
			      strstr(m, "memory"))) {
				fprintf(stderr, "bad message: %s\n", m ? m : "(null)");
				CHECK(!"messages name the file and the form");
			}
		}
	} else {
		struct fs_locality loc;
		size_t l1, l2, l3;
		char *d1, *d2, *d3;
		struct fs_conf *c2, *c3;

		CHECK(c && fs_errors_count(e) == 0);
		CHECK(fs_conf_part_locality(c, NULL, &loc) == 0);
		for (size_t i = 0; i < fs_conf_part_count(c); i++)
			CHECK(fs_conf_part_locality(c, fs_conf_part_name(c, i), &loc) == 0);
		d1 = _dump(c, &l1);
		c2 = _parse_ok(d1, l1);
		d2 = _dump(c2, &l2);
		c3 = _parse_ok(d2, l2);
		d3 = _dump(c3, &l3);
		CHECK(fs_conf_part_count(c) == fs_conf_part_count(c3));
		/* "line N" comments refer to the previous text's layout,
		 * which is stable from the second dump on */
		c2 = (fs_conf_destroy(c2), _parse_ok(d3, l3));
		free(d2);
		d2 = _dump(c2, &l2);
		CHECK(l2 == l3 && !memcmp(d2, d3, l2));
		free(d1);
		free(d2);
		free(d3);
		fs_conf_destroy(c2);
		fs_conf_destroy(c3);
		fs_conf_destroy(c);
	}
	fs_errors_free(e);
}

static void _values(const char *s)
{
	char msg[FS_MSG_SIZE], buf[32];
	struct fs_locality loc, loc2;
	uint64_t u, u2;
	unsigned idx;
	bool b;

	if (!fs_parse_duration("D", s, &u, msg, sizeof(msg))) {
		fs_format_duration(u, buf, sizeof(buf));
		CHECK(fs_parse_duration(NULL, buf, &u2, NULL, 0) == 0);
		CHECK(u == u2);
	} else {
		CHECK(strstr(msg, "(Slurm time format)"));
	}
	if (!fs_parse_locality("--fabric-locality", s, &loc, msg, sizeof(msg))) {
		fs_format_locality(&loc, buf, sizeof(buf));
		CHECK(fs_parse_locality(NULL, buf, &loc2, NULL, 0) == 0);
		CHECK(loc.level == loc2.level && loc.wait_set == loc2.wait_set &&
		      loc.wait == loc2.wait);
	} else {
		CHECK(!strncmp(msg, "--fabric-locality=", 18));
		CHECK(strstr(msg, "(e.g. rack@30:00)"));
	}
	if (fs_parse_size("S", s, &u, msg, sizeof(msg)))
		CHECK(strstr(msg, "e.g. 512M"));
	if (fs_parse_uint("U", s, 3, 1000, &u, msg, sizeof(msg)))
		CHECK(strstr(msg, "expected an integer from 3 to 1000"));
	else
		CHECK(u >= 3 && u <= 1000);
	if (fs_parse_bool("B", s, &b, msg, sizeof(msg)))
		CHECK(strstr(msg, "expected yes, no"));
	if (fs_parse_enum("E", s, "quiet|info|verbose|debug", &idx, msg, sizeof(msg)))
		CHECK(strstr(msg, "expected one of quiet"));
	else
		CHECK(idx < 4);
	CHECK(strlen(msg) < sizeof(msg));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[256];
	size_t n = size < sizeof(s) - 1 ? size : sizeof(s) - 1;

	_conf(data, size);
	/* the value parsers take C strings: up to the first NUL */
	memcpy(s, data, n);
	s[n] = '\0';
	_values(s);
	return 0;
}
