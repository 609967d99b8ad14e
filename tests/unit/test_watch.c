/*
 * test_watch.c — what fabsched topo watch decides (cli/watch_decide.c),
 * without Slurm: small fabrics written here as ibnetdiscover text, Slurm's
 * nodes as plain records, the actions read back.  A rail down drains, back
 * up resumes, nodes drained by others stay so; an HCA that claims another
 * node's name (new, or bound to another node) drains, resumes and changes
 * nothing until the node-name map names it; fabric text with control
 * bytes reaches no action unescaped; an Ethernet interface its node's own
 * LLDP record lists moves the node before its switch has heard it.  Also
 * sinfo's fixed-width records (a reason cannot forge a node), the bindings
 * file, the map's GUIDs, and fw_apply through a recording seam.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "fabsched_topo.h"
#include "watch_decide.h"

/* ------------------------------------------------------------ fabrics */

/* One HCA: node GUID, description, plane, leaf (1, 2), leaf port, width. */
struct hca {
	uint64_t guid;
	const char *desc;
	int plane, leaf, port, width;
};

#define SW(plane, l) (0x200000u + 0x100u * (unsigned)(plane) + (unsigned)(l)) /* l 0: spine */

/* Eight nodes on plane 0: n001-n004 on leaf01 ports 1-4, n005-n008 on
 * leaf02; with @rail1, each an mlx5_1 on plane 1 too. */
static int _base(struct hca *h, int rail1)
{
	static char desc[2][8][16];
	int n = 0;

	for (int r = 0; r <= rail1; r++)
		for (int i = 0; i < 8; i++) {
			snprintf(desc[r][i], sizeof(desc[r][i]), "n%03d mlx5_%d", i + 1, r);
			h[n++] = (struct hca){ 0x1000 + 0x100 * (uint64_t)r + (uint64_t)i,
					       desc[r][i],
					       r,
					       1 + i / 4,
					       1 + i % 4,
					       4 };
		}
	return n;
}

static int _drop(struct hca *h, int n, uint64_t guid)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (h[i].guid != guid)
			h[k++] = h[i];
	return k;
}

/* The fabric as ibnetdiscover prints it: per plane a spine and two
 * leaves (port 10 of each leaf to the spine), then the HCAs. */
static char *_text(const struct hca *h, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int planes = 1;

	for (int i = 0; i < n; i++)
		planes = h[i].plane + 1 > planes ? h[i].plane + 1 : planes;
	for (int p = 0; p < planes; p++) {
		fprintf(f,
			"switchguid=0x%x(%x)\nSwitch\t36 \"S-%016x\"\t\t# \"spine01-r%d\" "
			"enhanced port 0 lid 1 lmc 0\n",
			SW(p, 0), SW(p, 0), SW(p, 0), p);
		for (int l = 1; l <= 2; l++)
			fprintf(f, "[%d]\t\"S-%016x\"[10]\t\t# \"leaf%02d-r%d\" lid 2 4xHDR\n", l,
				SW(p, l), l, p);
		fprintf(f, "\n");
		for (int l = 1; l <= 2; l++) {
			fprintf(f,
				"switchguid=0x%x(%x)\nSwitch\t36 \"S-%016x\"\t\t# \"leaf%02d-r%d\" "
				"enhanced port 0 lid 2 lmc 0\n",
				SW(p, l), SW(p, l), SW(p, l), l, p);
			for (int i = 0; i < n; i++)
				if (h[i].plane == p && h[i].leaf == l)
					fprintf(f,
						"[%d]\t\"H-%016" PRIx64 "\"[1](%" PRIx64
						")\t\t# \"%s\" "
						"lid 11 %dxHDR\n",
						h[i].port, h[i].guid, h[i].guid + 1, h[i].desc,
						h[i].width);
			fprintf(f, "[10]\t\"S-%016x\"[%d]\t\t# \"spine01-r%d\" lid 1 4xHDR\n\n",
				SW(p, 0), l, p);
		}
	}
	for (int i = 0; i < n; i++)
		fprintf(f,
			"caguid=0x%" PRIx64 "\nCa\t1 \"H-%016" PRIx64 "\"\t\t# \"%s\"\n"
			"[1](%" PRIx64 ") \t\"S-%016x\"[%d]\t\t# lid 13 lmc 0 \"leaf%02d-r%d\" "
			"lid 2 %dxHDR\n\n",
			h[i].guid, h[i].guid, h[i].desc, h[i].guid + 1, SW(h[i].plane, h[i].leaf),
			h[i].port, h[i].leaf, h[i].plane, h[i].width);
	fclose(f);
	return buf;
}

static struct fst_model *_model(const struct hca *h, int n)
{
	struct fst_opts o = { 0 };
	struct fst_model *m = NULL;
	char err[512] = "", *t = _text(h, n);
	int rc = fst_parse_ibnet_buf(&m, t, strlen(t), "test", err, sizeof(err));

	if (!rc)
		rc = fst_classify(m, &o, err, sizeof(err));
	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	free(t);
	return m;
}

/* The description of HCA @guid replaced after classification: the name
 * stays the one its first word gave. */
static void _set_desc(struct fst_model *m, uint64_t guid, const char *desc)
{
	for (int d = 0; d < m->ndevs; d++)
		if (m->devs[d].guid == guid) {
			free(m->devs[d].desc);
			m->devs[d].desc = strdup(desc);
			return;
		}
	fail_msg("no HCA 0x%" PRIx64, guid);
}

/* ------------------------------------------------------------ Slurm's nodes */

static struct fw_node _nodes[8];

/* n001-n008 idle, no reason, their place features already set (so that
 * only what a test changes gives actions). */
static struct fw_node *_slurm(void)
{
	static char name[8][8];
	static char feat[8][64];

	for (int i = 0; i < 8; i++) {
		snprintf(name[i], sizeof(name[i]), "n%03d", i + 1);
		snprintf(feat[i], sizeof(feat[i]), "rack_leaf%02d-r0,pod_pod0,plane_plane0",
			 1 + i / 4);
		_nodes[i] = (struct fw_node){ name[i], "idle", "none", feat[i], 0 };
	}
	return _nodes;
}

static struct fw_node *_node(const char *name)
{
	for (int i = 0; i < 8; i++)
		if (!strcmp(_nodes[i].name, name))
			return &_nodes[i];
	fail_msg("no node %s", name);
	return NULL;
}

/* ------------------------------------------------------------ deciding */

static struct fw_bindings _next;
static struct fw_actions _acts;

static void _decide(struct fw_input *in)
{
	char err[256];

	fw_actions_free(&_acts);
	fw_bindings_clear(&_next);
	assert_int_equal(fw_decide(in, &_next, &_acts, err, sizeof(err)), 0);
}

/* The action of @kind for @node (NULL: any node), NULL when none. */
static const struct fw_action *_find(enum fw_kind kind, const char *node)
{
	for (int i = 0; i < _acts.n; i++)
		if (_acts.v[i].kind == kind &&
		    (!node || (_acts.v[i].node && !strcmp(_acts.v[i].node, node))))
			return &_acts.v[i];
	return NULL;
}

static int _count(enum fw_kind kind)
{
	int n = 0;

	for (int i = 0; i < _acts.n; i++)
		n += _acts.v[i].kind == kind;
	return n;
}

/* A log line holding @text, NULL when none. */
static const char *_said(const char *text)
{
	for (int i = 0; i < _acts.n; i++)
		if (_acts.v[i].kind == FW_LOG && strstr(_acts.v[i].done, text))
			return _acts.v[i].done;
	return NULL;
}

/* Nothing at all for @node: no drain, resume or features. */
static void _untouched(const char *node)
{
	assert_null(_find(FW_DRAIN, node));
	assert_null(_find(FW_RESUME, node));
	assert_null(_find(FW_FEATURES, node));
}

static int _printable(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

static void _all_printable(void)
{
	for (int i = 0; i < _acts.n; i++) {
		assert_true(_printable(_acts.v[i].node));
		assert_true(_printable(_acts.v[i].arg));
		assert_true(_printable(_acts.v[i].done));
		assert_true(_printable(_acts.v[i].failed));
	}
}

/* The bindings of a model, as a cycle that saw it would keep them. */
static void _bound_from(const struct fst_model *m, struct fw_bindings *b)
{
	struct fw_input in = { .old = NULL, .cur = m };

	_decide(&in);
	*b = _next;
	memset(&_next, 0, sizeof(_next));
}

static const char *_bound_name(const struct fw_bindings *b, uint64_t guid)
{
	for (int i = 0; i < b->n; i++)
		if (b->v[i].guid == guid)
			return b->v[i].name;
	return NULL;
}

static int _teardown(void **state)
{
	(void)state;
	fw_actions_free(&_acts);
	fw_bindings_clear(&_next);
	return 0;
}

/* ------------------------------------------------------------ rails */

/* n003's only link unplugged: drained with its HCA and switch port; the
 * bindings come from the model in place (a first cycle after upgrading). */
static void test_rail_down_drains(void **state)
{
	struct hca h[16];
	int n = _base(h, 0);
	struct fst_model *old = _model(h, n), *cur;
	struct fw_input in = { .nodes = _slurm(), .nnodes = 8 };
	const struct fw_action *a;

	(void)state;
	n = _drop(h, n, 0x1002);
	cur = _model(h, n);
	in.old = old;
	in.cur = cur;
	_decide(&in);
	a = _find(FW_DRAIN, "n003");
	assert_non_null(a);
	assert_string_equal(a->arg, "fabsched: every rail down: mlx5_0 port 1 (leaf01-r0 port 3)");
	assert_string_equal(a->done, "n003: drained: fabsched: every rail down: mlx5_0 port 1 "
				     "(leaf01-r0 port 3)");
	assert_string_equal(a->failed, "n003: drain failed (scontrol update)");
	assert_int_equal(_count(FW_DRAIN), 1);
	assert_int_equal(_count(FW_RESUME), 0);
	assert_int_equal(_count(FW_FEATURES), 0);
	assert_int_equal(_count(FW_LOG), 0);
	assert_int_equal(_next.n, 8); /* n003's HCA stays bound while it is away */
	assert_string_equal(_bound_name(&_next, 0x1002), "n003");
	fst_model_free(old);
	fst_model_free(cur);
}

/* The switch port of HCA @guid's first link in @m gets @label, as
 * ibdiagnet names a split port. */
static void _label(struct fst_model *m, uint64_t guid, const char *label)
{
	for (int d = 0; d < m->ndevs; d++) {
		const struct fst_port *pt = &m->devs[d].ports[1];

		if (m->devs[d].guid != guid || pt->peer < 0)
			continue;
		snprintf(m->devs[pt->peer].ports[pt->peer_port].label, FST_PORT_LABEL_MAX, "%s",
			 label);
		return;
	}
	fail_msg("no HCA 0x%" PRIx64, guid);
}

/* A split port's label in the drain reasons: every rail down and degraded */
static void test_reason_port_labels(void **state)
{
	struct hca h[16];
	int n = _base(h, 0);
	struct fst_model *old = _model(h, n), *cur;
	struct fw_input in = { .nodes = _slurm(), .nnodes = 8, .on_degraded = 1 };
	const struct fw_action *a;

	(void)state;
	_label(old, 0x1002, "1/2/1");
	h[1].width = 1; /* n002 */
	n = _drop(h, n, 0x1002);
	cur = _model(h, n);
	_label(cur, 0x1001, "1/1/2");
	in.old = old;
	in.cur = cur;
	_decide(&in);
	a = _find(FW_DRAIN, "n003");
	assert_non_null(a);
	assert_string_equal(a->arg,
			    "fabsched: every rail down: mlx5_0 port 1 (leaf01-r0 port 3 (1/2/1))");
	a = _find(FW_DRAIN, "n002");
	assert_non_null(a);
	assert_string_equal(
		a->arg,
		"fabsched: degraded link: mlx5_0 port 1 (leaf01-r0 port 2 (1/1/2)) at 1xHDR");
	fst_model_free(old);
	fst_model_free(cur);
}

/* The link back: n003, drained by the watch, resumed; n006, drained by
 * an administrator, left as it is; a node drained by someone else that
 * went away too: said, left alone. */
static void test_back_up_resumes_ours_only(void **state)
{
	struct hca h[16];
	int n = _base(h, 0), n2;
	struct fst_model *full = _model(h, n), *part;
	struct fw_bindings b;
	struct fw_input in = { .nodes = _slurm(), .nnodes = 8 };
	const struct fw_action *a;

	(void)state;
	_bound_from(full, &b);
	n2 = _drop(h, n, 0x1002);
	part = _model(h, n2);
	_node("n003")->state = "drained";
	_node("n003")->reason = "fabsched: every rail down: mlx5_0 port 1 (leaf01-r0 port 3)";
	_node("n006")->state = "drained";
	_node("n006")->reason = "disk check by admin";
	in.old = part;
	in.cur = full;
	in.bound = &b;
	_decide(&in);
	a = _find(FW_RESUME, "n003");
	assert_non_null(a);
	assert_string_equal(a->done, "n003: links healthy again: resumed (was: fabsched: every "
				     "rail down: mlx5_0 port 1 (leaf01-r0 port 3))");
	assert_int_equal(_count(FW_RESUME), 1);
	assert_int_equal(_count(FW_DRAIN), 0);
	_untouched("n006");

	/* n006 unplugged while drained by its administrator */
	n2 = _drop(h, _base(h, 0), 0x1005);
	fst_model_free(part);
	part = _model(h, n2);
	_node("n003")->state = "idle";
	_node("n003")->reason = "none";
	in.old = full;
	in.cur = part;
	_decide(&in);
	_untouched("n006");
	assert_int_equal(_count(FW_DRAIN) + _count(FW_RESUME), 0);
	assert_non_null(_said("n006: every rail down (mlx5_0 port 1 (leaf02-r0 port 2)); already "
			      "drained (disk check by admin): left alone"));
	fw_bindings_clear(&b);
	fst_model_free(full);
	fst_model_free(part);
}

/* DrainOnDegradedLink: a link at 1x, and link errors, drain; back to
 * health, the watch's drain is resumed. */
static void test_degraded_and_errors(void **state)
{
	struct hca h[16];
	int n = _base(h, 0);
	struct fst_model *old = _model(h, n), *cur;
	struct fw_note errs[] = { { "n007",
				    "mlx5_0 port 1 (leaf02-r0 port 3) LinkDownedCounter +1" } };
	struct fw_input in = { .old = old,
			       .nodes = _slurm(),
			       .nnodes = 8,
			       .on_degraded = 1,
			       .errors = errs,
			       .nerrors = 1 };
	const struct fw_action *a;

	(void)state;
	h[1].width = 1; /* n002 */
	cur = _model(h, n);
	in.cur = cur;
	_decide(&in);
	a = _find(FW_DRAIN, "n002");
	assert_non_null(a);
	assert_string_equal(a->arg,
			    "fabsched: degraded link: mlx5_0 port 1 (leaf01-r0 port 2) at 1xHDR");
	a = _find(FW_DRAIN, "n007");
	assert_non_null(a);
	assert_string_equal(a->arg, "fabsched: link errors: mlx5_0 port 1 (leaf02-r0 port 3) "
				    "LinkDownedCounter +1");
	assert_int_equal(_count(FW_DRAIN), 2);
	in.on_degraded = 0;
	_decide(&in);
	assert_int_equal(_count(FW_DRAIN), 0);
	fst_model_free(old);
	fst_model_free(cur);
}

/* ------------------------------------------------------------ spoofing */

/* A new HCA whose description says "n003 mlx5_0", on n003's plane, its
 * link degraded and counting errors (a host flapping its own link): n003,
 * in service, is not drained; said every cycle. */
static void test_spoof_drains_nothing(void **state)
{
	struct hca h[16];
	int n = _base(h, 0);
	struct fst_model *old = _model(h, n), *cur;
	struct fw_bindings b;
	struct fw_note errs[] = { { "n003",
				    "mlx5_0 port 1 (leaf02-r0 port 5) LinkDownedCounter +9" } };
	struct fw_input in = { .old = old,
			       .nodes = _slurm(),
			       .nnodes = 8,
			       .on_degraded = 1,
			       .errors = errs,
			       .nerrors = 1 };

	(void)state;
	_bound_from(old, &b);
	h[n++] = (struct hca){ 0x9999, "n003 mlx5_0", 0, 2, 5, 1 };
	cur = _model(h, n);
	in.cur = cur;
	in.bound = &b;
	_decide(&in);
	_untouched("n003");
	assert_int_equal(_count(FW_DRAIN) + _count(FW_RESUME), 0);
	assert_non_null(_said("n003: HCA 0x0000000000009999 (\"n003 mlx5_0\") on plane0 claims "
			      "n003, which is bound to HCA 0x0000000000001002: n003 held (no "
			      "drain, resume or features) until the node-name map names that HCA"));
	assert_null(_bound_name(&_next, 0x9999));
	assert_string_equal(_bound_name(&_next, 0x1002), "n003");
	/* the next cycle, the same: still said, still nothing done */
	fw_bindings_clear(&b);
	b = _next;
	memset(&_next, 0, sizeof(_next));
	in.old = cur;
	_decide(&in);
	_untouched("n003");
	assert_non_null(_said("n003: HCA 0x0000000000009999"));
	fw_bindings_clear(&b);
	fst_model_free(old);
	fst_model_free(cur);
}

/* n003 dead and drained by the watch; a spoofing HCA claims its name: no
 * resume (the old watch saw n003's rails all up). */
static void test_spoof_resumes_nothing(void **state)
{
	struct hca h[16];
	int n = _base(h, 0);
	struct fst_model *full = _model(h, n), *old, *cur;
	struct fw_bindings b;
	struct fw_input in = { .nodes = _slurm(), .nnodes = 8 };

	(void)state;
	_bound_from(full, &b);
	n = _drop(h, n, 0x1002);
	old = _model(h, n);
	h[n++] = (struct hca){ 0x9999, "n003 mlx5_0", 0, 2, 5, 4 };
	cur = _model(h, n);
	_node("n003")->state = "drained";
	_node("n003")->reason = "fabsched: every rail down: mlx5_0 port 1 (leaf01-r0 port 3)";
	in.old = old;
	in.cur = cur;
	in.bound = &b;
	_decide(&in);
	_untouched("n003");
	assert_int_equal(_count(FW_RESUME), 0);
	assert_non_null(_said("n003 held"));
	fw_bindings_clear(&b);
	fst_model_free(full);
	fst_model_free(old);
	fst_model_free(cur);
}

/* n004's own HCA (bound to n004) renames itself "n003 mlx5_0": neither
 * n004 (gone under its name) is drained nor n003 touched. */
static void test_spoof_renamed(void **state)
{
	struct hca h[16];
	int n = _base(h, 0);
	struct fst_model *old = _model(h, n), *cur;
	struct fw_bindings b;
	struct fw_input in = { .old = old, .nodes = _slurm(), .nnodes = 8 };

	(void)state;
	_bound_from(old, &b);
	h[3].desc = "n003 mlx5_0";
	cur = _model(h, n);
	in.cur = cur;
	in.bound = &b;
	_decide(&in);
	_untouched("n003");
	_untouched("n004");
	assert_int_equal(_count(FW_DRAIN) + _count(FW_RESUME) + _count(FW_FEATURES), 0);
	assert_non_null(_said("n003: HCA 0x0000000000001003 (\"n003 mlx5_0\"), bound to n004, now "
			      "claims n003: n003 and n004 held"));
	assert_string_equal(_bound_name(&_next, 0x1003), "n004");
	/* an empty bindings file: every HCA bound afresh as it is seen now */
	fw_bindings_clear(&b);
	in.bound = &b;
	_decide(&in);
	assert_null(_said("held"));
	assert_non_null(_said("8 HCA(s) seen for the first time"));
	assert_string_equal(_bound_name(&_next, 0x1003), "n003");
	assert_non_null(_find(FW_DRAIN, "n004"));
	fst_model_free(old);
	fst_model_free(cur);
}

/* A new HCA claiming a node's name on a plane the watch already knew,
 * where that node has no HCA: held too (it would make a dead node look
 * alive, or drain it through its own link). */
static void test_spoof_other_plane(void **state)
{
	struct hca h[24];
	int n = _base(h, 1);
	struct fst_model *old, *cur;
	struct fw_bindings b;
	struct fw_input in = { .nodes = _slurm(), .nnodes = 8 };

	(void)state;
	n = _drop(h, n, 0x1106); /* n007 has no HCA on plane 1 */
	old = _model(h, n);
	_bound_from(old, &b);
	h[n++] = (struct hca){ 0x9999, "n007 mlx5_1", 1, 2, 5, 4 };
	cur = _model(h, n);
	in.old = old;
	in.cur = cur;
	in.bound = &b;
	_decide(&in);
	_untouched("n007");
	assert_non_null(
		_said("n007: HCA 0x0000000000009999 (\"n007 mlx5_1\") on plane1 claims n007"));
	fw_bindings_clear(&b);
	fst_model_free(old);
	fst_model_free(cur);
}

/* The node-name map names the HCAs: the administrator accepted them; the
 * nodes are acted on again (the new HCA's degraded link drains n003; the
 * renamed one is n003's now, so n004 is gone: drained). */
static void test_accepted_by_map(void **state)
{
	struct hca h[16];
	int n = _base(h, 0);
	struct fst_model *old = _model(h, n), *cur;
	struct fw_bindings b;
	uint64_t mapped[] = { 0x1003, 0x9999 };
	struct fw_input in = { .old = old,
			       .nodes = _slurm(),
			       .nnodes = 8,
			       .on_degraded = 1,
			       .mapped = mapped,
			       .nmapped = 1 };
	const struct fw_action *a;

	(void)state;
	_bound_from(old, &b);
	in.bound = &b;
	in.mapped = &mapped[1];
	h[n++] = (struct hca){ 0x9999, "n003 mlx5_1", 0, 2, 5, 1 };
	cur = _model(h, n);
	in.cur = cur;
	_decide(&in);
	assert_non_null(_said("n003: HCA 0x0000000000009999 bound by the node-name map"));
	assert_null(_said("held"));
	assert_string_equal(_bound_name(&_next, 0x9999), "n003");
	a = _find(FW_DRAIN, "n003");
	assert_non_null(a);
	assert_string_equal(a->arg,
			    "fabsched: degraded link: mlx5_1 port 1 (leaf02-r0 port 5) at 1xHDR");
	fst_model_free(cur);

	/* n004's HCA moved to n003 by the map */
	n = _base(h, 0);
	h[3].desc = "n003 mlx5_1";
	cur = _model(h, n);
	in.cur = cur;
	in.mapped = mapped;
	in.on_degraded = 0;
	_decide(&in);
	assert_non_null(_said(
		"n003: HCA 0x0000000000001003 bound by the node-name map (was bound to n004)"));
	assert_string_equal(_bound_name(&_next, 0x1003), "n003");
	a = _find(FW_DRAIN, "n004");
	assert_non_null(a);
	assert_string_equal(a->arg, "fabsched: every rail down: mlx5_0 port 1 (leaf01-r0 port 4)");
	fw_bindings_clear(&b);
	fst_model_free(old);
	fst_model_free(cur);
}

/* The first cycle binds every HCA it sees; a plane seen late (a local port
 * down the first time) binds its HCAs too, without holding anyone. */
static void test_first_seen_and_late_plane(void **state)
{
	struct hca h[24];
	int n = _base(h, 1);
	struct fst_model *both = _model(h, n), *one;
	struct fw_bindings b;
	struct fw_input in = { .nodes = _slurm(), .nnodes = 8 };

	(void)state;
	for (int i = 0; i < 8; i++) /* planes of the current model count */
		_nodes[i].features = "";
	n = 8;
	one = _model(h, n);
	in.cur = one;
	_decide(&in);
	assert_non_null(_said("8 HCA(s) seen for the first time bound to their nodes by GUID"));
	assert_int_equal(_next.n, 8);
	assert_int_equal(_count(FW_FEATURES), 8);
	b = _next;
	memset(&_next, 0, sizeof(_next));
	in.old = one;
	in.cur = both;
	in.bound = &b;
	_decide(&in);
	assert_non_null(_said("8 HCA(s) seen for the first time"));
	assert_null(_said("held"));
	assert_int_equal(_next.n, 16);
	assert_string_equal(_bound_name(&_next, 0x1105), "n006");
	fw_bindings_clear(&b);
	fst_model_free(one);
	fst_model_free(both);
}

/* ------------------------------------------------------------ hostile text */

/* Descriptions with a newline, escape sequences and quotes, and Slurm
 * reasons with the same: the same actions as with plain text, every
 * string printable. */
static void test_hostile_descriptions(void **state)
{
	static const char evil[] = "n003 mlx5_0\nn005 idle\x1b]0;pwned\x07\x1b[2J\"'|,=";
	struct hca h[16];
	int n = _base(h, 0);
	struct fst_model *old = _model(h, n), *cur;
	struct fw_bindings b;
	struct fw_input in = { .old = old, .nodes = _slurm(), .nnodes = 8 };
	const struct fw_action *a;

	(void)state;
	_bound_from(old, &b);
	_set_desc(old, 0x1002, evil);
	n = _drop(h, n, 0x1002);
	cur = _model(h, n);
	in.cur = cur;
	in.bound = &b;
	_decide(&in);
	assert_int_equal(_acts.n, 1);
	a = _find(FW_DRAIN, "n003");
	assert_non_null(a);
	assert_string_equal(a->arg, "fabsched: every rail down: mlx5_0\\x0an005 idle\\x1b]0;pwned"
				    "\\x07\\x1b[2J\"'|,= port 1 (leaf01-r0 port 3)");
	_all_printable();

	/* a spoofer with such a description: held, said in printable text */
	h[n++] = (struct hca){ 0x9999, "n005 x", 0, 2, 5, 4 };
	fst_model_free(cur);
	cur = _model(h, n);
	_set_desc(cur, 0x9999, "n005 \x1b[31m\r\nn006: links healthy again: resumed");
	_node("n005")->reason = "fabsched: x\nn006|drained|\x1b[2J";
	_node("n005")->state = "drained";
	_node("n006")->reason = "\x1b[2Jhand\ndrained";
	_node("n006")->state = "drained";
	in.cur = cur;
	_decide(&in);
	_untouched("n005");
	_untouched("n006");
	assert_non_null(_said("n005: HCA 0x0000000000009999 (\"n005 \\x1b[31m\\x0d\\x0an006: links "
			      "healthy again: resumed\")"));
	assert_int_equal(_count(FW_DRAIN), 1); /* n003, as before */
	_all_printable();

	/* Slurm's own text in the watch's lines */
	_node("n006")->reason = "fabsched: every rail down\n\x1b[2J";
	_decide(&in);
	a = _find(FW_RESUME, "n006");
	assert_non_null(a);
	assert_string_equal(a->done,
			    "n006: links healthy again: resumed (was: fabsched: every rail "
			    "down\\x0a\\x1b[2J)");
	_all_printable();
	fw_bindings_clear(&b);
	fst_model_free(old);
	fst_model_free(cur);
}

static void test_printable(void **state)
{
	char big[600], out[4096];

	(void)state;
	memset(big, 'a', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	fw_printable(out, sizeof(out), big);
	assert_int_equal(strlen(out), sizeof(big) - 2 + 4); /* not cut after 64 */
	assert_string_equal(out + sizeof(big) - 2, "\\x0a");
	fw_printable(out, 300, big); /* room for one piece only */
	assert_int_equal(strlen(out), 64);
	assert_true(_printable(fw_printable(out, sizeof(out), "\x1b\x7f\xff\t")));
}

/* ------------------------------------------------------------ formats */

/* One sinfo record, padded as sinfo pads (FW_SINFO_FORMAT). */
static void _rec(FILE *f, const char *name, const char *state, const char *features,
		 const char *reason)
{
	fprintf(f, "%-*.*s%-*.*s%-*.*s%-*.*s\n", FW_SINFO_NAME, FW_SINFO_NAME, name, FW_SINFO_STATE,
		FW_SINFO_STATE, state, FW_SINFO_FEATURES, FW_SINFO_FEATURES, features,
		FW_SINFO_REASON, FW_SINFO_REASON, reason);
}

static void test_sinfo_records(void **state)
{
	char *buf = NULL, err[256], forged[400], longname[80], longfeat[600];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fw_node *v;
	int n;

	(void)state;
	/* a reason holding what the old "%N|%T|%f|%E" form, or a record of
	 * this one, would have taken for the line of another node */
	snprintf(forged, sizeof(forged), "fabsched: x\nn003|idle|(null)|fabsched: y\n%-*s%-*s",
		 FW_SINFO_NAME, "n003", FW_SINFO_STATE, "drained");
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	memset(longfeat, 'f', sizeof(longfeat) - 1);
	longfeat[sizeof(longfeat) - 1] = '\0';
	_rec(f, "n001", "idle", "(null)", "none");
	_rec(f, "n002", "drained", "bigmem,rack_leaf01", forged);
	_rec(f, "n002", "drained", "bigmem,rack_leaf01", forged); /* second partition */
	_rec(f, longname, "idle", "(null)", "none");
	_rec(f, "n003", "mixed", longfeat, "none");
	fclose(f);
	assert_int_equal(fw_sinfo_parse(buf, len, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(v[0].name, "n001");
	assert_string_equal(v[0].features, "");
	assert_string_equal(v[1].name, "n002");
	assert_string_equal(v[1].state, "drained");
	assert_string_equal(v[1].features, "bigmem,rack_leaf01");
	assert_int_equal(strncmp(v[1].reason, "fabsched: x\nn003|idle|", 22), 0);
	assert_false(v[1].features_cut);
	assert_string_equal(v[2].name, "n003");
	assert_string_equal(v[2].state, "mixed");
	assert_true(v[2].features_cut);
	fw_nodes_free(v, n);
	/* not records of that form: refused whole */
	assert_int_equal(fw_sinfo_parse(buf, len - 1, &v, &n, err, sizeof(err)), -1);
	assert_null(v);
	buf[FW_SINFO_RECORD - 1] = 'x';
	assert_int_equal(fw_sinfo_parse(buf, len, &v, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "record 1 is not"));
	assert_int_equal(fw_sinfo_parse("", 0, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	fw_nodes_free(v, n);
	free(buf);
	assert_int_equal(strlen(FW_SINFO_FORMAT), strlen("%65N%32T%512f%96E"));
}

static void test_bindings_file(void **state)
{
	struct fw_binding one[] = { { 0x1002, 0x200001, "n003" }, { 0x9999, 0, "gpu-01.x_y" } };
	struct fw_bindings b = { one, 2, 2 }, r = { 0 };
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(fw_bindings_write(&b, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\n0x0000000000001002 n003 0x0000000000200001\n"));
	f = fmemopen(buf, len, "r");
	assert_int_equal(fw_bindings_read(&r, f, "b", err, sizeof(err)), 0);
	fclose(f);
	assert_true(fw_bindings_equal(&b, &r));
	free(buf);
	static const char *const bad[] = {
		"0x1002 n003\n",  "0x1002 n0\x1b[3 0x0\n",  "1002 n003 0x0\n",
		"0x0 n003 0x0\n", "0x1002 n003 0x0 more\n", "0x1002 n003 0xzz\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = fmemopen((void *)bad[i], strlen(bad[i]), "r");
		assert_int_equal(fw_bindings_read(&r, f, "b", err, sizeof(err)), -1);
		assert_string_equal(
			err, "b:1: bad binding; expected '0x<HCA GUID> <node> 0x<switch GUID>'");
		assert_int_equal(r.n, 0);
		fclose(f);
	}
	fw_bindings_clear(&r);
}

static void test_map_guids(void **state)
{
	char path[] = "/tmp/test_watch_map.XXXXXX", err[256];
	int fd = mkstemp(path), n;
	static const char map[] = "# comment\n0x0002c90300a1b2c3 \"n011 mlx5_0\"\n"
				  "  H-0000000000009999 n003\nnot a guid\n0x10\n";
	uint64_t *v;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, map, sizeof(map) - 1), (ssize_t)(sizeof(map) - 1));
	close(fd);
	assert_int_equal(fw_map_guids(path, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_true(v[0] == 0x9999 && v[1] == 0x0002c90300a1b2c3ULL);
	free(v);
	unlink(path);
	assert_int_equal(fw_map_guids(path, &v, &n, err, sizeof(err)), -1);
}

/* ------------------------------------------------------------ the seam */

struct rec {
	char log[4096];
	int drains, resumes, features;
};

static int _r_drain(void *arg, const char *node, const char *reason)
{
	struct rec *r = arg;

	r->drains++;
	return strcmp(node, "n002") ? 0 : 1; /* Slurm refuses n002 */
}

static int _r_resume(void *arg, const char *node)
{
	((struct rec *)arg)->resumes++;
	return 0;
}

static int _r_features(void *arg, const char *node, const char *features)
{
	((struct rec *)arg)->features++;
	return 0;
}

static void _r_log(void *arg, const char *line)
{
	struct rec *r = arg;
	size_t o = strlen(r->log);

	snprintf(r->log + o, sizeof(r->log) - o, "%s\n", line);
}

static void test_apply_through_seam(void **state)
{
	struct hca h[16];
	int n = _base(h, 0);
	struct fst_model *old = _model(h, n), *cur;
	struct fw_input in = { .old = old, .nodes = _slurm(), .nnodes = 8 };
	struct rec r = { "", 0, 0, 0 };
	struct fw_seam seam = { _r_drain, _r_resume, _r_features, _r_log, &r };

	(void)state;
	n = _drop(h, n, 0x1001);
	n = _drop(h, n, 0x1002);
	cur = _model(h, n);
	in.cur = cur;
	_node("n008")->features = "bigmem";
	_decide(&in);
	assert_int_equal(fw_apply(&_acts, &seam), 1);
	assert_int_equal(r.drains, 2);
	assert_int_equal(r.features, 1);
	assert_string_equal(
		r.log,
		"n002: drain failed (scontrol update)\n"
		"n003: drained: fabsched: every rail down: mlx5_0 port 1 (leaf01-r0 port 3)\n"
		"n008: features bigmem,rack_leaf02-r0,pod_pod0,plane_plane0 (were: bigmem)\n");
	/* a feature list sinfo may have cut is never written back */
	_node("n008")->features_cut = 1;
	_decide(&in);
	assert_null(_find(FW_FEATURES, "n008"));
	assert_non_null(_said("n008: features longer than 512 bytes, not read whole: left as they "
			      "are (no rack_leaf02-r0,pod_pod0,plane_plane0)"));
	fst_model_free(old);
	fst_model_free(cur);
}

/* ------------------------------------------------------------ Ethernet (LLDP) */

/* A json0 neighbour entry: interface @ifname sees @sys, its port @port
 * (MAC @mac, "" for a port id of the ifname type), a bridge when @bridge. */
static void _nb(FILE *f, int first, const char *ifname, const char *sys, const char *port,
		const char *mac, int bridge)
{
	fprintf(f,
		"%s{\"name\": \"%s\", \"chassis\": [{\"name\": [{\"value\": \"%s\"}], "
		"\"capability\": [{\"type\": \"Bridge\", \"enabled\": %s}]}], \"port\": [",
		first ? "" : ", ", ifname, sys, bridge ? "true" : "false");
	if (*mac)
		fprintf(f,
			"{\"id\": [{\"type\": \"mac\", \"value\": \"%s\"}], \"descr\": "
			"[{\"value\": \"%s\"}]}]}",
			mac, port);
	else
		fprintf(f, "{\"id\": [{\"type\": \"ifname\", \"value\": \"%s\"}]}]}", port);
}

/* The classified model of the LLDP records in @nd (nodes) and @sd
 * (switches), every host a compute node. */
static struct fst_model *_lldp_parse(const char *nd, const char *sd)
{
	struct fst_opts all = { .all_hosts = 1 };
	struct fst_model *m = NULL;
	char err[512] = "";

	if (fst_parse_lldp(&m, nd, sd, err, sizeof(err)) || fst_classify(m, &all, err, sizeof(err)))
		fail_msg("%s", err);
	return m;
}

/* Whether one of @m's issues says @text. */
static bool _issue_has(const struct fst_model *m, const char *text)
{
	for (int i = 0; i < m->nissues; i++)
		if (strstr(m->issues[i].msg, text))
			return true;
	return false;
}

/* Records under @dir (nodes/, switches/) of n001 and n002 on leaf01 and
 * leaf02 (port swp1 each, uplinks swp9 to spine01), as the nodes' and
 * the leaves' lldpd print them.  @n001_leaf: the leaf n001's own record
 * sees (its port swp2 on leaf02); @leaf_lists_n001: the leaves' records
 * list n001 where it is (else its new leaf has not heard it yet);
 * @rogue: leaf02 also hears a system calling itself n001 on swp5, its
 * port "eth9" (no MAC). */
static struct fst_model *_lldp_model(const char *dir, int n001_leaf, int leaf_lists_n001, int rogue)
{
	char nd[512], sd[512], path[600];
	const char *n001_port = n001_leaf == 1 ? "swp1" : "swp2";
	FILE *f;

	snprintf(nd, sizeof(nd), "%s/nodes", dir);
	snprintf(sd, sizeof(sd), "%s/switches", dir);
	mkdir(nd, 0700);
	mkdir(sd, 0700);
	for (int n = 1; n <= 2; n++) {
		snprintf(path, sizeof(path), "%s/n%03d.json", nd, n);
		assert_non_null(f = fopen(path, "w"));
		fprintf(f, "{\"lldp\": [{\"interface\": [");
		if (n == 1)
			_nb(f, 1, "eth0", n001_leaf == 1 ? "leaf01" : "leaf02", n001_port, "", 1);
		else
			_nb(f, 1, "eth0", "leaf02", "swp1", "", 1);
		fprintf(f, "]}]}\n");
		fclose(f);
	}
	for (int l = 1; l <= 2; l++) {
		snprintf(path, sizeof(path), "%s/leaf%02d.json", sd, l);
		assert_non_null(f = fopen(path, "w"));
		fprintf(f, "{\"lldp\": [{\"interface\": [");
		_nb(f, 1, "swp9", "spine01", l == 1 ? "swp1" : "swp2", "", 1);
		if (l == 2)
			_nb(f, 0, "swp1", "n002", "eth0", "02:00:00:00:00:02", 0);
		if (leaf_lists_n001 && l == n001_leaf)
			_nb(f, 0, n001_port, "n001", "eth0", "02:00:00:00:00:01", 0);
		if (rogue && l == 2)
			_nb(f, 0, "swp5", "n001", "eth9", "", 0);
		fprintf(f, "]}]}\n");
		fclose(f);
	}
	return _lldp_parse(nd, sd);
}

static int _collect(const char *line, void *arg)
{
	strcat(arg, line);
	strcat(arg, "\n");
	return 0;
}

/* n001 recabled from leaf01 to leaf02: its own record says so before
 * leaf02's does, so this cycle its interface has no MAC (GUID 0).  The
 * node's own word moves its rack feature; nothing held.  A system that
 * only a switch hears calling itself n001 (no record of n001 lists that
 * interface) still holds n001. */
static void test_lldp_recabled_before_switch(void **state)
{
	char dir[] = "/tmp/test_watch.XXXXXX", cmd[64], got[1024] = "", path[64], nd[48], sd[48];
	struct fst_model *old, *cur, *rogue;
	struct fw_bindings b;
	struct fw_node nodes[2] = { { "n001", "idle", "none", "", 0 },
				    { "n002", "idle", "none", "", 0 } };
	struct fw_input in = { .nodes = nodes, .nnodes = 2 };
	const struct fw_action *a;

	(void)state;
	assert_non_null(mkdtemp(dir));
	old = _lldp_model(dir, 1, 1, 0);
	_bound_from(old, &b);
	assert_string_equal(_bound_name(&b, 0x020000000001), "n001");
	cur = _lldp_model(dir, 2, 0, 0);
	in.old = old;
	in.cur = cur;
	in.bound = &b;
	_decide(&in);
	assert_null(_said("held"));
	/* one line: no other port of leaf01 or leaf02 renumbered */
	assert_int_equal(fst_model_changes(old, cur, _collect, got), 1);
	assert_string_equal(got, "n001 eth0: recabled from leaf01 port 1 (swp1) to leaf02 port 2 "
				 "(swp2)\n");
	assert_non_null(a = _find(FW_FEATURES, "n001"));
	assert_int_equal(strncmp(a->arg, "rack_leaf02,", 12), 0);
	assert_string_equal(_bound_name(&_next, 0x020000000001), "n001");
	/* the rogue: n001's own record lists eth0 alone, so the eth9 leaf02
	 * hears is left out of the model (a warning says so) and cannot hold
	 * n001: its own word moves it, as without the rogue */
	rogue = _lldp_model(dir, 2, 0, 1);
	assert_int_equal(fst_find_device(rogue, "H-n001-eth9"), -1);
	assert_true(_issue_has(rogue, "leaf02 port swp5: neighbour n001 eth9, which n001's own "
				      "record does not list, left out"));
	in.cur = rogue;
	_decide(&in);
	assert_null(_said("n001 held"));
	assert_non_null(a = _find(FW_FEATURES, "n001"));
	assert_int_equal(strncmp(a->arg, "rack_leaf02,", 12), 0);
	fst_model_free(rogue);
	/* n001 without a record: the switches' word is all there is, the
	 * rogue's interface in the model, and n001 held */
	snprintf(path, sizeof(path), "%s/nodes/n001.json", dir);
	assert_int_equal(unlink(path), 0);
	snprintf(nd, sizeof(nd), "%s/nodes", dir);
	snprintf(sd, sizeof(sd), "%s/switches", dir);
	rogue = _lldp_parse(nd, sd);
	assert_true(fst_find_device(rogue, "H-n001-eth9") >= 0);
	in.cur = rogue;
	_decide(&in);
	_untouched("n001");
	assert_non_null(_said("n001 held"));
	fw_bindings_clear(&b);
	fst_model_free(old);
	fst_model_free(cur);
	fst_model_free(rogue);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A switch's ports numbered by their names' numbers (swp3 is port 3 with
 * no swp1 or swp2 seen); names without distinct numbers from 1 to 255
 * (Ethernet0, Ethernet4) in the natural order of the names, and then a
 * port is the same port in two models by its name. */
static void test_lldp_port_numbers(void **state)
{
	char dir[] = "/tmp/test_watch.XXXXXX", nd[64], sd[64], path[128], cmd[64];
	const char *ports[2][2] = { { "swp7", "swp3" }, { "Ethernet4", "Ethernet0" } };
	struct fst_model *m, *m2;
	char got[1024] = "";
	int top[2] = { 7, 2 }, at[2][2] = { { 7, 3 }, { 2, 1 } };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(nd, sizeof(nd), "%s/nodes", dir);
	snprintf(sd, sizeof(sd), "%s/switches", dir);
	assert_int_equal(mkdir(nd, 0700) | mkdir(sd, 0700), 0);
	for (int w = 0; w < 2; w++) {
		snprintf(path, sizeof(path), "%s/sw%d.json", sd, w + 1);
		assert_non_null(f = fopen(path, "w"));
		fprintf(f, "{\"lldp\": [{\"interface\": [");
		for (int k = 0; k < 2; k++) {
			char host[8], mac[24];

			snprintf(host, sizeof(host), "h%d%d", w, k);
			snprintf(mac, sizeof(mac), "02:00:00:00:0%d:0%d", w, k);
			_nb(f, !k, ports[w][k], host, "eth0", mac, 0);
		}
		fprintf(f, "]}]}\n");
		fclose(f);
	}
	m = _lldp_parse(nd, sd);
	for (int w = 0; w < 2; w++) {
		char name[8];
		int d;

		snprintf(name, sizeof(name), "sw%d", w + 1);
		assert_true((d = fst_find_device(m, name)) >= 0);
		assert_int_equal(m->devs[d].nports, top[w]);
		for (int k = 0; k < 2; k++)
			assert_string_equal(m->devs[d].ports[at[w][k]].label, ports[w][k]);
	}
	/* Ethernet0's host gone: Ethernet4 is port 1 now, the same port by its
	 * name: the change is that host alone */
	snprintf(path, sizeof(path), "%s/sw2.json", sd);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "{\"lldp\": [{\"interface\": [");
	_nb(f, 1, "Ethernet4", "h10", "eth0", "02:00:00:00:01:00", 0);
	fprintf(f, "]}]}\n");
	fclose(f);
	m2 = _lldp_parse(nd, sd);
	assert_int_equal(fst_model_changes(m, m2, _collect, got), 2);
	assert_string_equal(got, "h11 eth0: gone\nsw2 port 1 (Ethernet0) (h11 eth0): link down\n");
	fst_model_free(m2);
	fst_model_free(m);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_rail_down_drains, _teardown),
		cmocka_unit_test_teardown(test_reason_port_labels, _teardown),
		cmocka_unit_test_teardown(test_back_up_resumes_ours_only, _teardown),
		cmocka_unit_test_teardown(test_degraded_and_errors, _teardown),
		cmocka_unit_test_teardown(test_spoof_drains_nothing, _teardown),
		cmocka_unit_test_teardown(test_spoof_resumes_nothing, _teardown),
		cmocka_unit_test_teardown(test_spoof_renamed, _teardown),
		cmocka_unit_test_teardown(test_spoof_other_plane, _teardown),
		cmocka_unit_test_teardown(test_accepted_by_map, _teardown),
		cmocka_unit_test_teardown(test_first_seen_and_late_plane, _teardown),
		cmocka_unit_test_teardown(test_hostile_descriptions, _teardown),
		cmocka_unit_test_teardown(test_lldp_recabled_before_switch, _teardown),
		cmocka_unit_test(test_lldp_port_numbers),
		cmocka_unit_test(test_printable),
		cmocka_unit_test(test_sinfo_records),
		cmocka_unit_test(test_bindings_file),
		cmocka_unit_test(test_map_guids),
		cmocka_unit_test_teardown(test_apply_through_seam, _teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
