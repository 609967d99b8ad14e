/*
 * test_topo_ndr.c — NDR fabrics as ibdiagnet records them: port labels
 * after the port numbers ("[1](1/1/1)", "[7](1/4/1)"), CRLF line ends,
 * split ports (2x host links, 4x switch links) and the degraded-link rule
 * on them.  The dump, tests/fixtures/ibnetdiscover/ndr-split.ibdiagnet, is
 * written by hand (SOURCES.md there); its export is checked by
 * test_topo_fixtures.sh against ndr-split.ibdiagnet.tree.  cmocka, TAP.
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

#include "fabsched_topo.h"

#define LEAF01 "S-fc6a1c030091cf00"
#define SPINE01 "S-fc6a1c03008b2a80"
#define GPU003 "H-b8cef603004a8b50"

/* The fixture's text, read whole (caller frees). */
static char *_dump(size_t *len)
{
	const char *dir = getenv("FABSCHED_FIXTURES");
	char path[4096], *buf;
	FILE *f;
	long n;

	if (!dir || !*dir)
		dir = access("tests/fixtures/ibnetdiscover", R_OK) == 0 ? "tests/fixtures" :
		      "../fixtures";
	snprintf(path, sizeof(path), "%s/ibnetdiscover/ndr-split.ibdiagnet", dir);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: cannot open", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static struct fst_model *_parse(const char *text, size_t len, int classify)
{
	struct fst_model *m = NULL;
	struct fst_opts o = { .all_hosts = 1 };
	char err[512] = "";

	if (fst_parse_ibnet_buf(&m, text, len, "ndr", err, sizeof(err)))
		fail_msg("parse: %s", err);
	if (classify && fst_classify(m, &o, err, sizeof(err)))
		fail_msg("classify: %s", err);
	return m;
}

static const struct fst_port *_port(const struct fst_model *m, const char *id, int p)
{
	int d = fst_find_device(m, id);

	assert_true(d >= 0);
	assert_true(p >= 0 && p <= m->devs[d].nports);
	return &m->devs[d].ports[p];
}

static int _ndegraded(const struct fst_model *m, char *msg, size_t n)
{
	int k = 0;

	for (int i = 0; i < m->nissues; i++)
		if (m->issues[i].kind == FST_ISSUE_DEGRADED_LINK) {
			if (msg)
				snprintf(msg, n, "%s", m->issues[i].msg);
			k++;
		}
	return k;
}

/* Every device, port, GUID and label of the CRLF dump; labels from the
 * port's own line and from the far end's line. */
static void test_ndr_split_parse(void **state)
{
	size_t len;
	char *text = _dump(&len);
	struct fst_model *m;
	int h;

	(void)state;
	assert_non_null(strstr(text, "\r\n"));		/* the fixture is CRLF */
	m = _parse(text, len, 0);
	assert_int_equal(m->ndevs, 11);
	assert_int_equal(m->nlinks, 12);
	h = fst_find_device(m, LEAF01);
	assert_int_equal(m->devs[h].nports, 129);
	assert_string_equal(m->devs[h].desc, "MF0;leaf01:MQM9790/U1");	/* no '\r' */
	assert_string_equal(m->devs[fst_find_device(m, GPU003)].desc, "gpu003 mlx5_0");
	assert_string_equal(_port(m, LEAF01, 1)->label, "1/1/1");
	assert_string_equal(_port(m, LEAF01, 3)->label, "1/2/1");
	assert_string_equal(_port(m, LEAF01, 4)->label, "1/2/2");
	assert_string_equal(_port(m, LEAF01, 65)->label, "1/33");
	assert_int_equal(_port(m, LEAF01, 3)->guid, 0);	/* a label is no GUID */
	assert_int_equal(_port(m, LEAF01, 3)->lid, 0);
	assert_int_equal(_port(m, LEAF01, 3)->peer, fst_find_device(m, GPU003));
	/* spine01's lines carry no remote label; its own ports' labels do */
	assert_string_equal(_port(m, SPINE01, 1)->label, "1/1");
	assert_string_equal(_port(m, SPINE01, 4)->label, "1/4");
	/* the HCA's port: a GUID, no label; its LID from "# lid 47 lmc 0" */
	assert_string_equal(_port(m, GPU003, 1)->label, "");
	assert_true(_port(m, GPU003, 1)->guid == 0xb8cef603004a8b50ULL);
	assert_int_equal(_port(m, GPU003, 1)->lid, 47);
	assert_int_equal(_port(m, GPU003, 1)->width, 2);
	assert_int_equal(_port(m, GPU003, 1)->speed, FST_SPEED_NDR);
	assert_int_equal(_port(m, LEAF01, 65)->width, 4);
	fst_model_free(m);
	free(text);
}

/* Split ports: host links 2xNDR, spine links 4xNDR: nothing degraded. */
static void test_ndr_split_not_degraded(void **state)
{
	size_t len;
	char *text = _dump(&len);
	struct fst_model *m = _parse(text, len, 1);

	(void)state;
	assert_int_equal(m->nhosts, 8);
	assert_int_equal(m->max_level, 1);
	assert_int_equal(_ndegraded(m, NULL, 0), 0);
	for (int i = 0; i < m->nlinks; i++) {
		const struct fst_link *l = &m->links[i];

		assert_false(l->degraded);
		assert_int_equal(l->width, l->tier < 0 ? 2 : 4);
		assert_int_equal(l->speed, FST_SPEED_NDR);
	}
	fst_model_free(m);
	free(text);
}

/* Replace "2xNDR" by "1xNDR" on the lines holding @key (one end, or
 * both); in place. */
static void _one_x(char *text, const char *key)
{
	for (char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
		char *eol = strchr(p, '\n'), *w = strstr(p, "2xNDR");

		assert_true(w && eol && w < eol);
		w[0] = '1';
	}
}

/* One host link at 1xNDR among 2xNDR ones: exactly that one degraded,
 * named with its switch port's label; when only one end says 1x, too
 * (the link runs at the lower width). */
static void test_ndr_split_one_degraded(void **state)
{
	static const char *const keys[][2] = {
		{ "\"gpu003 mlx5_0\" lid 47", "# lid 47 lmc 0" },	/* both ends */
		{ "# lid 47 lmc 0", NULL },				/* the HCA's line */
	};
	char msg[1024];

	(void)state;
	for (size_t c = 0; c < sizeof(keys) / sizeof(keys[0]); c++) {
		size_t len;
		char *text = _dump(&len);
		struct fst_model *m;
		const struct fst_link *l;

		for (int k = 0; k < 2 && keys[c][k]; k++)
			_one_x(text, keys[c][k]);
		m = _parse(text, len, 1);
		assert_int_equal(_ndegraded(m, msg, sizeof(msg)), 1);
		l = &m->links[_port(m, GPU003, 1)->link];
		assert_true(l->degraded);
		assert_int_equal(l->width, 1);
		for (int i = 0; i < m->nlinks; i++)
			assert_int_equal(m->links[i].degraded, &m->links[i] == l);
		if (!strstr(msg, "leaf01 port 3 (1/2/1) <-> gpu003 port 1: 1xNDR") ||
		    !strstr(msg, "runs 2xNDR"))
			fail_msg("case %zu: %s", c, msg);
		fst_model_free(m);
		free(text);
	}
}

/* What may follow a port number, and what may not. */
static void test_port_suffixes(void **state)
{
	static const struct {
		const char *ports, *label, *rlabel;
		uint64_t guid;
	} good[] = {
		{ "[7](1/4/1) \"H-b1\"[1](b1)", "1/4/1", "", 0 },
		{ "[7](4/1)(0x00000000000000a7) \"H-b1\"[1]", "4/1", "", 0xa7 },
		{ "[7](A7)(4/1) \"H-b1\"[1](b1)", "4/1", "", 0xa7 },
		{ "[7](ffffffffffffffff) \"H-b1\"[1](1/1)", "", "1/1", UINT64_MAX },
		{ "[7](12) \"H-b1\"[1]", "", "", 0x12 },		/* no '/': a GUID */
		{ "[7](123456789/123) \"H-b1\"[1]", "123456789/123", "", 0 },
	};
	static const struct {
		const char *ports, *want;
	} bad[] = {
		{ "[7](1//1) \"H-b1\"[1]", "bad port GUID or label" },
		{ "[7](/1) \"H-b1\"[1]", "bad port GUID or label" },
		{ "[7](1/) \"H-b1\"[1]", "bad port GUID or label" },
		{ "[7](1/1)(2/2) \"H-b1\"[1]", "bad port GUID or label" },
		{ "[7](a1)(b2) \"H-b1\"[1]", "bad port GUID or label" },
		{ "[7](1/a) \"H-b1\"[1]", "bad port GUID or label" },
		{ "[7]() \"H-b1\"[1]", "bad port GUID or label" },
		{ "[7](0x) \"H-b1\"[1]", "bad port GUID or label" },
		{ "[7](12345678901234567) \"H-b1\"[1]", "bad port GUID or label" },
		{ "[7](1 /1) \"H-b1\"[1]", "bad port GUID or label" },
		{ "[7](1/1/1/1/1/1/1/11) \"H-b1\"[1]", "port label longer than 15" },
		{ "[7](1/1/1 \"H-b1\"[1]", "'(' without ')' after the port" },
		{ "[7] \"H-b1\"[1](1/1", "'(' without ')' after the port" },
		{ "[7] \"H-b1\"[1](x/1)", "bad remote port GUID or label" },
		{ "[7] \"H-b1\"[1](1/1)x", "unexpected text after the remote port" },
	};
	char text[512], err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct fst_model *m = NULL;
		const struct fst_port *p;

		snprintf(text, sizeof(text), "Switch 8 \"S-a1\"\r\n%s # \"n1\" 2xNDR\r\n\r\n"
			 "Ca 1 \"H-b1\"\r\n[1](b1) \"S-a1\"[7] # lid 3 2xNDR\r\n", good[i].ports);
		if (fst_parse_ibnet_buf(&m, text, strlen(text), "<t>", err, sizeof(err)))
			fail_msg("good %zu: %s", i, err);
		p = _port(m, "S-a1", 7);
		assert_string_equal(p->label, good[i].label);
		assert_true(p->guid == good[i].guid);
		assert_string_equal(_port(m, "H-b1", 1)->label, good[i].rlabel);
		assert_int_equal(p->peer, fst_find_device(m, "H-b1"));
		fst_model_free(m);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fst_model *m = NULL;

		snprintf(text, sizeof(text), "Switch 8 \"S-a1\"\n%s # 2xNDR\n", bad[i].ports);
		err[0] = '\0';
		assert_int_equal(fst_parse_ibnet_buf(&m, text, strlen(text), "<t>", err,
						     sizeof(err)), -1);
		assert_null(m);
		if (strncmp(err, "<t>:2: ", 7) || !strstr(err, bad[i].want) ||
		    !strstr(err, "expected '[<port>][(<GUID>|<label>)]"))
			fail_msg("bad %zu: got \"%s\", want \"%s\"", i, err, bad[i].want);
	}
}

/* A port's own line names it; the far end's label never overrides it. */
static void test_label_own_line_first(void **state)
{
	static const char text[] =
		"Ca 1 \"H-b1\" # \"n1 mlx5_0\"\n[1](b1) \"S-a1\"[7](1/4/2) # lid 3 2xNDR\n\n"
		"Switch 8 \"S-a1\" # \"MF0;sw1:MQM9790/U1\"\n"
		"[7](1/4/1) \"H-b1\"[1](b1) # \"n1 mlx5_0\" lid 3 2xNDR\n"
		"[8] \"H-b2\"[1] # \"n2 mlx5_0\" lid 4 2xNDR\n\n"
		"Ca 1 \"H-b2\" # \"n2 mlx5_0\"\n[1](b2) \"S-a1\"[8](1/4/2) # lid 4 2xNDR\n";
	struct fst_model *m = _parse(text, strlen(text), 0);

	(void)state;
	assert_string_equal(_port(m, "S-a1", 7)->label, "1/4/1");
	assert_string_equal(_port(m, "S-a1", 8)->label, "1/4/2");
	fst_model_free(m);
}

/* Every prefix of the dump (a file cut short): an error or a model,
 * never a crash. */
static void test_ndr_split_cut(void **state)
{
	size_t len;
	char *text = _dump(&len);

	(void)state;
	for (size_t n = 0; n <= len; n++) {
		struct fst_model *m = NULL;
		char err[512];

		if (fst_parse_ibnet_buf(&m, text, n, "cut", err, sizeof(err)) == 0) {
			assert_int_equal(fst_classify(m, NULL, err, sizeof(err)), 0);
			fst_model_free(m);
		} else {
			assert_null(m);
		}
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ndr_split_parse),
		cmocka_unit_test(test_ndr_split_not_degraded),
		cmocka_unit_test(test_ndr_split_one_degraded),
		cmocka_unit_test(test_port_suffixes),
		cmocka_unit_test(test_label_own_line_first),
		cmocka_unit_test(test_ndr_split_cut),
	};

	return cmocka_run_group_tests_name("topology-ndr", tests, NULL, NULL);
}
