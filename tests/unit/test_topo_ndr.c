/*
 * test_topo_ndr.c — NDR fabrics as ibdiagnet records them: port labels
 * after the port numbers ("[1](1/1/1)", "[7](1/4/1)"), CRLF line ends,
 * split ports (2x host links, 4x switch links) and the degraded-link rule
 * on them.  The dump, tests/fixtures/ibnetdiscover/ndr-split.ibdiagnet, is
 * written by hand (SOURCES.md there); its export is checked by
 * test_topo_fixtures.sh against ndr-split.ibdiagnet.tree.  The labels
 * through the JSON model (optional keys a_label, b_label of a link), into
 * fst_report and the watch's change lines.  cmocka, TAP.
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
		dir = access("tests/fixtures/ibnetdiscover", R_OK) == 0 ? "tests/fixtures"
									: "../fixtures";
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
	assert_non_null(strstr(text, "\r\n")); /* the fixture is CRLF */
	m = _parse(text, len, 0);
	assert_int_equal(m->ndevs, 11);
	assert_int_equal(m->nlinks, 12);
	h = fst_find_device(m, LEAF01);
	assert_int_equal(m->devs[h].nports, 129);
	assert_string_equal(m->devs[h].desc, "MF0;leaf01:MQM9790/U1"); /* no '\r' */
	assert_string_equal(m->devs[fst_find_device(m, GPU003)].desc, "gpu003 mlx5_0");
	assert_string_equal(_port(m, LEAF01, 1)->label, "1/1/1");
	assert_string_equal(_port(m, LEAF01, 3)->label, "1/2/1");
	assert_string_equal(_port(m, LEAF01, 4)->label, "1/2/2");
	assert_string_equal(_port(m, LEAF01, 65)->label, "1/33");
	assert_int_equal(_port(m, LEAF01, 3)->guid, 0); /* a label is no GUID */
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

static int _collect(const char *line, void *arg)
{
	strcat(arg, line);
	strcat(arg, "\n");
	return 0;
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
		{ "\"gpu003 mlx5_0\" lid 47", "# lid 47 lmc 0" }, /* both ends */
		{ "# lid 47 lmc 0", NULL },			  /* the HCA's line */
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

/* The model written as JSON and read back ("ndr.json"); @js (may be
 * NULL) receives the text, which the caller frees. */
static struct fst_model *_via_json(const struct fst_model *m, char **js)
{
	char err[512] = "", *text = fst_json_string(m, err, sizeof(err));
	struct fst_model *back = NULL;

	if (!text)
		fail_msg("json write: %s", err);
	if (fst_json_read_buf(&back, text, strlen(text), "ndr.json", err, sizeof(err)))
		fail_msg("json read: %s", err);
	if (js)
		*js = text;
	else
		free(text);
	return back;
}

/* fst_report's text (caller frees). */
static char *_report(const struct fst_model *m)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	assert_true(fst_report(m, f, 0) >= 0);
	fclose(f);
	return buf;
}

/* discover -> JSON -> read -> check: every link end keeps its label, the
 * degraded link and a non-compute HCA's line name the switch port with it
 * (the latter from the labels read back), and the model read back writes
 * the same JSON again. */
static void test_ndr_json_labels(void **state)
{
	struct fst_opts o = { .nodelist = "gpu[001-007]" }; /* gpu008: not a node */
	size_t len;
	char *text = _dump(&len), err[512], *js, *js2, *rep;
	struct fst_model *m = NULL, *back;
	int labels = 0;

	(void)state;
	_one_x(text, "\"gpu003 mlx5_0\" lid 47");
	_one_x(text, "# lid 47 lmc 0");
	if (fst_parse_ibnet_buf(&m, text, len, "ndr", err, sizeof(err)) ||
	    fst_classify(m, &o, err, sizeof(err)))
		fail_msg("%s", err);
	back = _via_json(m, &js);
	assert_non_null(strstr(js, "\"a_port\": 3, \"a_label\": \"1/2/1\", \"b\": \"" GPU003 "\""));
	for (int i = 0; i < m->nlinks; i++) {
		const struct fst_link *l = &m->links[i];
		const char *la = m->devs[l->a].ports[l->a_port].label;
		const char *lb = m->devs[l->b].ports[l->b_port].label;

		assert_string_equal(_port(back, m->devs[l->a].id, l->a_port)->label, la);
		assert_string_equal(_port(back, m->devs[l->b].id, l->b_port)->label, lb);
		labels += !!la[0] + !!lb[0];
	}
	assert_int_equal(labels, 16); /* 8 host ports, 4 + 4 ends of uplinks */
	rep = _report(back);
	if (!strstr(rep, "leaf01 port 3 (1/2/1) <-> gpu003 port 1: 1xNDR") ||
	    !strstr(rep, "gpu008 mlx5_0") || !strstr(rep, "; on leaf02 port 4 (1/2/2)\n"))
		fail_msg("report of the model read back:\n%s", rep);
	js2 = fst_json_string(back, err, sizeof(err));
	assert_non_null(js2);
	assert_string_equal(js2, js);
	free(js2);
	free(rep);
	free(js);
	fst_model_free(back);
	fst_model_free(m);
	free(text);
}

/* Without labels no label key is written: such models read as before. */
static void test_json_no_label_keys(void **state)
{
	static const char text[] =
		"Switch 8 \"S-a1\" # \"sw1\"\n[7] \"H-b1\"[1] # \"n1 mlx5_0\" lid 3 4xHDR\n\n"
		"Ca 1 \"H-b1\" # \"n1 mlx5_0\"\n[1](b1) \"S-a1\"[7] # lid 3 4xHDR\n";
	struct fst_model *m = _parse(text, strlen(text), 1), *back;
	char *js;

	(void)state;
	back = _via_json(m, &js);
	assert_null(strstr(js, "_label"));
	assert_non_null(
		strstr(js, "\"a\": \"S-a1\", \"a_port\": 7, \"b\": \"H-b1\", \"b_port\": 1,"));
	assert_string_equal(_port(back, "S-a1", 7)->label, "");
	free(js);
	fst_model_free(back);
	fst_model_free(m);
}

/* The JSON model of the fixture with @val in place of the first link's
 * a_label ("1/1/1"), read as "model.json": the read's return, *@out. */
static int _read_with_label(const char *js, const char *val, struct fst_model **out, char *err,
			    size_t errlen)
{
	const char *key = "\"a_label\": \"1/1/1\"", *at = strstr(js, key);
	size_t pre = at ? (size_t)(at - js) + strlen("\"a_label\": ") : 0;
	char *doc = malloc(strlen(js) + strlen(val) + 1);
	int rc;

	assert_non_null(at);
	assert_non_null(doc);
	sprintf(doc, "%.*s%s%s", (int)pre, js, val, at + strlen(key));
	err[0] = '\0';
	rc = fst_json_read_buf(out, doc, strlen(doc), "model.json", err, errlen);
	free(doc);
	return rc;
}

/* A malformed label in the JSON model: an error naming the file and the
 * key; null is no label, 15 characters are fine. */
static void test_json_bad_label(void **state)
{
	static const char *const bad[] = { "\"1/a/1\"",
					   "\"\"",
					   "\"1//1\"",
					   "\"/1\"",
					   "\"1/\"",
					   "\"1/2/3/4/5/6/7890\"",
					   "\"1 /1\"",
					   "5",
					   "[\"1/1\"]",
					   "\"1/1\\u0000\"",
					   "\"1a\"",
					   "\"swp1;x\"",
					   "\"Ethernet1/1/1/1/1\"" };
	static const struct {
		const char *val, *label;
	} good[] = {
		{ "null", "" },
		{ "\"1/2/3/4/5/6/789\"", "1/2/3/4/5/6/789" },
		{ "\"7\"", "7" },
		{ "\"swp1\"", "swp1" },
		{ "\"Ethernet1/1\"", "Ethernet1/1" },
	};
	size_t len;
	char *text = _dump(&len), *js, err[512];
	struct fst_model *m = _parse(text, len, 1), *back = NULL;

	(void)state;
	fst_model_free(_via_json(m, &js));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = _read_with_label(js, bad[i], &back, err, sizeof(err));

		if (rc != -1 || back ||
		    strcmp(err, "model.json: links[0].a_label: bad or missing value; expected "
				"a port label of numbers joined by '/' (\"1/4/1\") or a port name "
				"(\"swp1\": a letter, then letters, digits, ._:/@+-), at most 15 "
				"characters"))
			fail_msg("label %s: rc %d, \"%s\"", bad[i], rc, err);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (_read_with_label(js, good[i].val, &back, err, sizeof(err)))
			fail_msg("label %s: %s", good[i].val, err);
		assert_string_equal(_port(back, LEAF01, 1)->label, good[i].label);
		assert_string_equal(_port(back, LEAF01, 3)->label, "1/2/1");
		fst_model_free(back);
	}
	free(js);
	fst_model_free(m);
	free(text);
}

/* The watch's lines name a port with its label, the previous model read
 * from its JSON file as topo watch does: a host link and an uplink whose
 * width changed, each way. */
static void test_watch_lines_labels(void **state)
{
	size_t len;
	char *text = _dump(&len), *slow = _dump(&len), got[2048] = "";
	struct fst_model *plain = _parse(text, len, 1), *old, *cur;

	(void)state;
	_one_x(slow, "\"gpu003 mlx5_0\" lid 47");
	_one_x(slow, "# lid 47 lmc 0");
	for (const char *const *k =
		     (const char *const[]){ "[65](1/33)\t", "[1](1/1)\t\"" LEAF01 "\"", NULL };
	     *k; k++) { /* both ends */
		char *p = strstr(slow, *k), *w = p ? strstr(p, "4xNDR") : NULL;

		assert_true(w && w < strchr(p, '\n'));
		w[0] = '2';
	}
	cur = _parse(slow, len, 1);
	old = _via_json(plain, NULL);
	assert_int_equal(fst_model_changes(old, cur, _collect, got), 2);
	assert_string_equal(got, "leaf01 port 3 (1/2/1) (gpu003 mlx5_0): 2xNDR -> 1xNDR\n"
				 "leaf01 port 65 (1/33) - spine01 port 1 (1/1): 4xNDR -> 2xNDR\n");
	fst_model_free(old);
	old = _via_json(cur, NULL);
	got[0] = '\0';
	assert_int_equal(fst_model_changes(old, plain, _collect, got), 2);
	assert_string_equal(got, "leaf01 port 3 (1/2/1) (gpu003 mlx5_0): 1xNDR -> 2xNDR\n"
				 "leaf01 port 65 (1/33) - spine01 port 1 (1/1): 2xNDR -> 4xNDR\n");
	fst_model_free(old);
	fst_model_free(cur);
	fst_model_free(plain);
	free(slow);
	free(text);
}

/* The watch merges the planes seen from several ports into one model:
 * the ports keep their labels. */
static void test_merge_keeps_labels(void **state)
{
	size_t len;
	char *text = _dump(&len), err[512];
	struct fst_model *src = _parse(text, len, 0), *dst = fst_model_new();

	(void)state;
	assert_non_null(dst);
	if (fst_model_merge(dst, src, err, sizeof(err)))
		fail_msg("merge: %s", err);
	assert_string_equal(_port(dst, LEAF01, 3)->label, "1/2/1");
	assert_string_equal(_port(dst, SPINE01, 4)->label, "1/4");
	assert_string_equal(_port(dst, GPU003, 1)->label, "");
	fst_model_free(dst);
	fst_model_free(src);
	free(text);
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
		{ "[7](12) \"H-b1\"[1]", "", "", 0x12 }, /* no '/': a GUID */
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

		snprintf(text, sizeof(text),
			 "Switch 8 \"S-a1\"\r\n%s # \"n1\" 2xNDR\r\n\r\n"
			 "Ca 1 \"H-b1\"\r\n[1](b1) \"S-a1\"[7] # lid 3 2xNDR\r\n",
			 good[i].ports);
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
		assert_int_equal(
			fst_parse_ibnet_buf(&m, text, strlen(text), "<t>", err, sizeof(err)), -1);
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
		cmocka_unit_test(test_ndr_json_labels),
		cmocka_unit_test(test_json_no_label_keys),
		cmocka_unit_test(test_json_bad_label),
		cmocka_unit_test(test_watch_lines_labels),
		cmocka_unit_test(test_merge_keeps_labels),
	};

	return cmocka_run_group_tests_name("topology-ndr", tests, NULL, NULL);
}
