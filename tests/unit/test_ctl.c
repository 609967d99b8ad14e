/*
 * test_ctl.c - unit tests of the controller's whole decision for one job
 * (select/ctl.c), without Slurm: a fabric of two racks of three nodes,
 * fabsched.conf from text, and a node choice that records what it was
 * offered.  Covers: the domain offered, the next domain after a refusal,
 * waiting for locality and its pending reason, the relaxed placement after
 * the wait bound with its note, --fabric-locality from the job's
 * environment, a shape no domain holds going to every candidate, the
 * pending decisions of non-final calls (note taken back, counted once the
 * job started), when a success ends the job's wait (a start, not Slurm's
 * could-it-ever-run question nor backfill's plan), the notes edited in the
 * job's comment, and the locality record kept in its state file; Locality=observe:
 * no node choice made, what would have happened recorded beside what the
 * job got, once it started, in the observation log, and the record's
 * text read back (or refused when malformed).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "fabsched_conf.h"
#include "fabsched_select.h"
#include "fabsched_topo.h"

#define HCA(n, leaf, port)                         \
	"Hca\t1 \"H-" n "\"\t# \"" n " mlx5_0\"\n" \
	"[1]\t\"S-" leaf "\"[" port "]\t# lid 9 4xHDR\n\n"

static const char FABRIC[] = HCA("n001", "leaf01", "1") HCA("n002", "leaf01", "2")
	HCA("n003", "leaf01", "3") HCA("n004", "leaf02", "1") HCA("n005", "leaf02", "2")
		HCA("n006", "leaf02",
		    "3") "Switch\t36 \"S-leaf01\"\t# \"leaf01\" enhanced port 0 lid 1 lmc 0\n"
			 "[1]\t\"H-n001\"[1]\t# \"n001 mlx5_0\" lid 5 4xHDR\n"
			 "[2]\t\"H-n002\"[1]\t# \"n002 mlx5_0\" lid 6 4xHDR\n"
			 "[3]\t\"H-n003\"[1]\t# \"n003 mlx5_0\" lid 7 4xHDR\n"
			 "[9]\t\"S-spine01\"[1]\t# \"spine01\" lid 3 4xHDR\n\n"
			 "Switch\t36 \"S-leaf02\"\t# \"leaf02\" enhanced port 0 lid 2 lmc 0\n"
			 "[1]\t\"H-n004\"[1]\t# \"n004 mlx5_0\" lid 8 4xHDR\n"
			 "[2]\t\"H-n005\"[1]\t# \"n005 mlx5_0\" lid 9 4xHDR\n"
			 "[3]\t\"H-n006\"[1]\t# \"n006 mlx5_0\" lid 10 4xHDR\n"
			 "[9]\t\"S-spine01\"[2]\t# \"spine01\" lid 3 4xHDR\n\n"
			 "Switch\t36 \"S-spine01\"\t# \"spine01\" enhanced port 0 lid 3 lmc 0\n"
			 "[1]\t\"S-leaf01\"[9]\t# \"leaf01\" lid 1 4xHDR\n"
			 "[2]\t\"S-leaf02\"[9]\t# \"leaf02\" lid 2 4xHDR\n";

#define NN 6
static const char *const NAMES[NN] = { "n001", "n002", "n003", "n004", "n005", "n006" };

static char model_path[256], state_path[256];

/* What the node choice was offered, and what it answers. */
struct chooser {
	int calls;
	bool refuse_first; /* refuse the first domain offered */
	bool refuse;	   /* refuse every call */
	bool offered_all;  /* last call: every candidate */
	uint8_t in[NN];	   /* last call's domain */
};

static bool _choose(const uint8_t *in, void *arg)
{
	struct chooser *ch = arg;

	ch->calls++;
	ch->offered_all = !in;
	if (in)
		memcpy(ch->in, in, NN);
	return !ch->refuse && !(ch->refuse_first && ch->calls == 1);
}

/* Racks (leaf01 = 0, leaf02 = 1) the last domain touched, as a bit mask. */
static int _racks(const struct chooser *ch)
{
	int m = 0;

	for (int i = 0; i < NN; i++)
		if (ch->in[i])
			m |= 1 << (i / 3);
	return m;
}

static char *logged;	/* the messages, one per line */
static unsigned errors; /* of them, at FSE_LOG_ERROR */

static void _log(enum fse_log level, const char *msg, void *arg)
{
	size_t n = logged ? strlen(logged) : 0;

	(void)arg;
	errors += level == FSE_LOG_ERROR;
	logged = realloc(logged, n + strlen(msg) + 2);
	sprintf(logged + n, "%s\n", msg);
}

/* fabsched.conf: the test model and @conf_tail */
static struct fs_conf *_conf(const char *conf_tail)
{
	struct fs_errors *errs = fs_errors_new();
	struct fs_conf *conf = NULL;
	char text[4096];

	assert_true(snprintf(text, sizeof(text), "FabricModel=%s\n%s", model_path, conf_tail) <
		    (int)sizeof(text));
	if (fs_conf_parse("t.conf", text, strlen(text), &conf, errs))
		fail_msg("%s", fs_errors_get(errs, 0));
	fs_errors_free(errs);
	return conf;
}

/* a node-sized job: every node can run it (one "task" each) */
static void _node_sized(struct fse_ctl *c)
{
	for (int i = 0; i < NN; i++)
		fse_ctl_tasks(c, false)[i] = fse_ctl_tasks(c, true)[i] = 1;
}

static struct fse_ctl *_ctl(const char *conf_tail)
{
	struct fs_conf *conf = _conf(conf_tail);
	struct fse_ctl *c = fse_ctl_new("test", _log, NULL);

	assert_non_null(c);
	assert_int_equal(fse_ctl_state_file(c, state_path), 0);
	if (fse_ctl_load(c, conf, NAMES, NN))
		fail_msg("%s", logged ? logged : "fse_ctl_load failed");
	assert_true(fse_ctl_usable(c));
	_node_sized(c);
	return c;
}

/* A node-sized job of @n nodes in partition batch, on @cand. */
static struct fse_job _job(uint32_t id, uint32_t n, const uint8_t *cand)
{
	return (struct fse_job){ .job_id = id,
				 .label = "JobId=1",
				 .part = "batch",
				 .min_nodes = n,
				 .max_nodes = n,
				 .final = true,
				 .cand = cand };
}

static int setup(void **state)
{
	struct fst_model *m = NULL;
	char err[512] = "";
	FILE *f;

	(void)state;
	char cwd[128];

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(model_path, sizeof(model_path), "%s/test_ctl.%d.json", cwd, (int)getpid());
	snprintf(state_path, sizeof(state_path), "%s/test_ctl.%d.share", cwd, (int)getpid());
	assert_int_equal(fst_parse_ibnet_buf(&m, FABRIC, sizeof(FABRIC) - 1, "two-racks.net", err,
					     sizeof(err)),
			 0);
	assert_int_equal(fst_classify(m, NULL, err, sizeof(err)), 0);
	assert_int_equal(m->nracks, 2);
	assert_non_null(f = fopen(model_path, "w"));
	assert_int_equal(fst_json_write(m, f, err, sizeof(err)), 0);
	fclose(f);
	fst_model_free(m);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(model_path);
	unlink(state_path);
	free(logged);
	return 0;
}

static void test_one_rack(void **state)
{
	static const uint8_t all[NN] = { 1, 1, 1, 1, 1, 1 };
	/* leaf01 has two candidates, leaf02 three: best fit is leaf01 */
	static const uint8_t cand[NN] = { 1, 0, 1, 1, 1, 1 };
	struct fse_ctl *c = _ctl("PartitionName=batch Locality=rack LocalityWait=INFINITE\n");
	struct chooser ch = { 0 };
	struct fse_job j = _job(1, 2, cand);
	struct fse_outcome o;

	(void)state;
	assert_int_equal(fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o), 0);
	assert_true(o.started);
	assert_false(o.waits);
	assert_null(o.note);
	assert_int_equal(ch.calls, 1);
	assert_int_equal(_racks(&ch), 1);
	/* only candidates are offered */
	assert_int_equal(ch.in[1], 0);
	/* refused there: the next domain is offered */
	ch = (struct chooser){ .refuse_first = true };
	j = _job(2, 2, all);
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_true(o.started);
	assert_int_equal(ch.calls, 2);
	assert_int_equal(fse_ctl_stats(c)->started, 2);
	fse_ctl_free(c);
}

/* A job sized by tasks (-n 30) gets the rack whose room it fills: leaf02's
 * three nodes with 10 free cores each, not leaf01's one node with 64; and
 * with a job on n004 (not idle), leaf02 holds 20 and leaf01 it is. */
static void test_tasks_room(void **state)
{
	static const uint8_t all[NN] = { 1, 1, 1, 1, 1, 1 };
	static const uint8_t idle[NN] = { 1, 1, 1, 0, 1, 1 };
	static const uint32_t now[NN] = { 64, 0, 0, 10, 10, 10 };
	struct fse_ctl *c = _ctl("PartitionName=batch Locality=rack LocalityWait=INFINITE\n");
	struct chooser ch = { 0 };
	struct fse_job j = _job(1, 1, all);
	struct fse_outcome o;

	(void)state;
	for (int i = 0; i < NN; i++) {
		fse_ctl_tasks(c, false)[i] = now[i];
		fse_ctl_tasks(c, true)[i] = 64;
	}
	j.max_nodes = 30;
	j.ntasks = 30;
	assert_int_equal(fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o), 0);
	assert_true(o.started);
	assert_int_equal(_racks(&ch), 2);
	assert_int_equal(ch.in[3] + ch.in[4] + ch.in[5], 3);
	ch = (struct chooser){ 0 };
	j = _job(2, 1, all);
	j.max_nodes = 30;
	j.ntasks = 30;
	j.idle = idle;
	assert_int_equal(fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o), 0);
	assert_true(o.started);
	assert_int_equal(_racks(&ch), 1);
	fse_ctl_free(c);
}

static void test_wait_then_relax(void **state)
{
	/* one free node per rack: a two-node job waits for a rack */
	static const uint8_t cand[NN] = { 1, 0, 0, 1, 0, 0 };
	struct fse_ctl *c = _ctl("PartitionName=batch Locality=rack LocalityWait=10:00\n");
	struct chooser ch = { 0 };
	struct fse_job j = _job(3, 2, cand);
	struct fse_outcome o;

	(void)state;
	j.waited = 60;
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_false(o.started);
	assert_true(o.waits);
	assert_int_equal(ch.calls, 0);
	assert_non_null(strstr(o.pending, "Locality: "));
	assert_non_null(strstr(o.pending, "rack@00:10:00, waited 00:01:00"));
	/* past its bound: the tightest placement free now, with a note */
	j.waited = 600;
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_true(o.started);
	assert_int_equal(_racks(&ch), 3);
	assert_non_null(o.note);
	assert_non_null(strstr(
		o.note,
		"fabsched: locality rack@00:10:00 relaxed after 00:10:00: 2 racks (leaf01,leaf02)"));
	assert_non_null(strstr(
		logged, "test: JobId=1: locality rack@00:10:00 (partition) relaxed after 600s"));
	/* --fabric-locality=any in its environment: placed at once */
	{
		const char *env[] = { "OTHER=1", "FABSCHED_LOCALITY=any" };

		j.env = env;
		j.nenv = 2;
		j.waited = 0;
		ch.calls = 0;
		fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
		assert_true(o.started);
		assert_null(o.note);
	}
	/* a bad value there is logged and the partition's locality holds */
	{
		const char *env[] = { "SPANK_FABSCHED_LOCALITY=pods" };

		j.env = env;
		j.nenv = 1;
		fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
		assert_true(o.waits);
		assert_non_null(strstr(logged, "--fabric-locality"));
		/* an error once per job, not at every pass */
		errors = 0;
		fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
		assert_true(o.waits);
		assert_int_equal(errors, 0);
		j.job_id++;
		fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
		assert_int_equal(errors, 1);
	}
	fse_ctl_free(c);
}

/* Each partition's settings, read at its first decision and kept for the
 * load: decisions that alternate between partitions each get their own,
 * a new load reads them again, and past the partitions kept (64) they
 * are read at each decision. */
static void test_part_settings(void **state)
{
	/* one free node per rack: a two-node job waits for a rack */
	static const uint8_t cand[NN] = { 1, 0, 0, 1, 0, 0 };
	struct fse_ctl *c = _ctl("PartitionName=batch Locality=rack LocalityWait=INFINITE\n"
				 "PartitionName=free Locality=any\n"
				 "PartitionName=other Locality=off\n");
	struct chooser ch = { 0 };
	struct fse_job j = _job(1, 2, cand);
	struct fse_outcome o;
	char tail[4096] = "";

	(void)state;
	for (int round = 0; round < 2; round++) {
		j.part = "batch";
		fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
		assert_true(o.waits);
		j.part = "free";
		fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
		assert_true(o.started);
		assert_false(fse_ctl_part_off(c, "batch"));
		assert_false(fse_ctl_part_off(c, "free"));
		assert_true(fse_ctl_part_off(c, "other"));
		assert_false(fse_ctl_part_off(c, NULL)); /* DefaultLocality any */
		assert_false(fse_ctl_part_off(c, "BATCH2"));
	}
	/* loaded again: batch is off now, free waits for a rack */
	assert_int_equal(
		fse_ctl_load(c,
			     _conf("DefaultLocality=off\n"
				   "PartitionName=batch Locality=off\n"
				   "PartitionName=free Locality=rack LocalityWait=INFINITE\n"),
			     NAMES, NN),
		0);
	_node_sized(c);
	assert_true(fse_ctl_part_off(c, "batch"));
	assert_true(fse_ctl_part_off(c, NULL));
	assert_false(fse_ctl_part_observe(c, "batch"));
	j.part = "free";
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_true(o.waits);
	/* 70 partitions, each decided once; p69 alone waits for a rack */
	for (int i = 0; i < 70; i++)
		snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail),
			 "PartitionName=p%d Locality=%s\n", i,
			 i == 69 ? "rack LocalityWait=INFINITE" : "any");
	assert_int_equal(fse_ctl_load(c, _conf(tail), NAMES, NN), 0);
	_node_sized(c);
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < 70; i++) {
			char part[8];

			snprintf(part, sizeof(part), "p%d", i);
			j.part = part;
			fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
			assert_int_equal(o.waits, i == 69);
		}
	}
	fse_ctl_free(c);
}

static void test_too_big(void **state)
{
	/* seven nodes: no domain of six nodes holds it, Slurm decides */
	static const uint8_t all[NN] = { 1, 1, 1, 1, 1, 1 };
	struct fse_ctl *c = _ctl("PartitionName=batch Locality=rack\n");
	struct chooser ch = { 0 };
	struct fse_job j = _job(4, 7, all);
	struct fse_outcome o;

	(void)state;
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_int_equal(ch.calls, 1);
	assert_true(ch.offered_all);
	assert_true(o.started);
	assert_false(o.waits);
	fse_ctl_free(c);
}

/* The job table of the test: job 5 pending, then started. */
static enum fse_job_state job5 = FSE_JOB_PENDING;

static enum fse_job_state _state(uint32_t id, void *arg)
{
	(void)arg;
	return id == 5 ? job5 : FSE_JOB_GONE;
}

static void test_not_final_and_state_file(void **state)
{
	static const uint8_t cand[NN] = { 1, 0, 0, 1, 0, 0 };
	struct fse_ctl *c = _ctl("PartitionName=batch Locality=rack LocalityWait=0\n");
	struct chooser ch = { 0 };
	struct fse_job j = _job(5, 2, cand);
	struct fse_outcome o;
	unsigned n;
	FILE *f;
	char buf[256] = "";

	(void)state;
	unlink(state_path);
	j.final = false;
	fse_ctl_place(c, &j, _choose, &ch, _state, NULL, &o);
	assert_true(o.started);
	assert_non_null(o.note);
	assert_null(o.take_back);
	/* asked again: the first note is taken back, and the job counts
	 * once it is seen started (at most one scan a second) */
	fse_ctl_place(c, &j, _choose, &ch, _state, NULL, &o);
	assert_non_null(o.take_back);
	assert_non_null(strstr(o.take_back, "relaxed after"));
	job5 = FSE_JOB_STARTED;
	sleep(1);
	j.job_id = 6;
	fse_ctl_place(c, &j, _choose, &ch, _state, NULL, &o);
	fse_ctl_finish(c);
	fse_ctl_free(c);
	/* the record survives: a new controller reads it */
	assert_non_null(f = fopen(state_path, "r"));
	assert_true(fread(buf, 1, sizeof(buf) - 1, f) > 0);
	fclose(f);
	assert_non_null(strstr(buf, "share batch 0\n"));
	assert_non_null(strstr(buf, "pending 6 batch 10\n"));
	c = _ctl("PartitionName=batch Locality=rack LocalityWait=0\n");
	j.job_id = 7;
	j.final = true;
	fse_ctl_place(c, &j, _choose, &ch, _state, NULL, &o);
	fse_ctl_finish(c);
	fse_ctl_free(c);
	assert_non_null(
		strstr(logged,
		       "test: partition batch: 0.0% of the last 2 jobs that fit a domain got one"));
	(void)n;
}

/* When a success ends the job's wait (its waiting note goes). */
static void test_wait_over(void **state)
{
	static const uint8_t all[NN] = { 1, 1, 1, 1, 1, 1 };
	struct fse_ctl *c = _ctl("PartitionName=batch Locality=rack LocalityWait=INFINITE\n");
	struct chooser ch = { 0 };
	struct fse_job j = _job(21, 2, all);
	struct fse_outcome o;

	(void)state;
	/* a start on 22.05 (final) */
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_true(o.started);
	assert_true(o.unwait);
	/* 24.11+: the job fails in pass 7, then Slurm asks whether it could
	 * ever run: that success keeps the note */
	j.final = false;
	j.pass = 7;
	ch.refuse = true;
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_false(o.started);
	assert_true(o.waits);
	assert_false(o.unwait);
	ch.refuse = false;
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_true(o.started);
	assert_false(o.unwait);
	/* backfill's plan in a later pass: no start, and the failure stays */
	j.pass = 8;
	j.plan = true;
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_true(o.started);
	assert_false(o.unwait);
	/* its start in pass 8 (backfill's, or the main pass's) ends the wait */
	j.plan = false;
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_true(o.unwait);
	/* a success after another job's failure in the same pass is a start */
	j.job_id = 22;
	ch.refuse = true;
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	ch.refuse = false;
	j.job_id = 23;
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_true(o.unwait);
	/* ... and after the job's own success, the next success too */
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_true(o.unwait);
	fse_ctl_free(c);
}

/* The notes in a SystemComment, edited in place. */
static void test_notes(void **state)
{
	char a[] = "fabsched: Locality: waiting for one rack",
	     b[] = "admin note; fabsched: Locality: waiting for one rack",
	     d[] = "fabsched: Locality: waiting x; fabsched: relaxed after 5s",
	     e[] = "fabsched: relaxed after 5s", f[] = "other; fabsched: relaxed after 5s",
	     g[] = "otherfabsched: relaxed after 5s", h[] = "nothing of ours";

	(void)state;
	assert_true(fse_note_drop_wait(a));
	assert_string_equal(a, "");
	assert_false(fse_note_drop_wait(b));
	assert_string_equal(b, "admin note");
	assert_false(fse_note_drop_wait(d));
	assert_string_equal(d, "fabsched: relaxed after 5s");
	assert_false(fse_note_drop_wait(h));
	assert_string_equal(h, "nothing of ours");
	assert_false(fse_note_drop_wait(NULL));
	assert_true(fse_note_drop_last(e, "fabsched: relaxed after 5s"));
	assert_string_equal(e, "");
	assert_false(fse_note_drop_last(f, "fabsched: relaxed after 5s"));
	assert_string_equal(f, "other");
	/* not a part of its own: left alone */
	assert_false(fse_note_drop_last(g, "fabsched: relaxed after 5s"));
	assert_string_equal(g, "otherfabsched: relaxed after 5s");
	assert_false(fse_note_drop_last(h, "fabsched: relaxed after 5s"));
	assert_false(fse_note_drop_last(h, NULL));
	assert_string_equal(h, "nothing of ours");
}

static void test_applies(void **state)
{
	(void)state;
	assert_true(fse_job_applies(false, false, false));
	assert_true(fse_job_applies(true, true, false));   /* --switches as racks */
	assert_false(fse_job_applies(true, false, false)); /* stock --switches */
	assert_false(fse_job_applies(false, true, true));  /* --nodelist */
}

static void test_state_dir(void **state)
{
	static const uint8_t all[NN] = { 1, 1, 1, 1, 1, 1 };
	struct fse_ctl *c = _ctl("PartitionName=batch Locality=rack LocalityWait=0\n");
	struct chooser ch = { 0 };
	struct fse_job j = _job(31, 2, all);
	struct fse_outcome o;
	char dir[] = "/tmp/fabsched-test-ctl-XXXXXX", path[128];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, FSE_SHARE_FILE);
	assert_int_equal(fse_ctl_state_dir(c, dir), 0);
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	fse_ctl_finish(c);
	assert_int_equal(access(path, R_OK), 0); /* kept in StateSaveLocation */
	unlink(path);
	assert_int_equal(fse_ctl_state_dir(c, ""), 0); /* nowhere */
	j.job_id = 32;
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	fse_ctl_finish(c);
	assert_int_equal(access(path, F_OK), -1);
	fse_ctl_free(c);
	rmdir(dir);
}

static void test_bad_setup(void **state)
{
	struct fse_ctl *c = fse_ctl_new("test", _log, NULL);
	struct fs_errors *errs = fs_errors_new();
	struct fs_conf *conf = NULL;
	static const uint8_t all[NN] = { 1, 1, 1, 1, 1, 1 };
	struct chooser ch = { 0 };
	struct fse_job j = _job(8, 2, all);
	struct fse_outcome o;
	static const char text[] = "FabricModel=/nonexistent/fabric.json\n";

	(void)state;
	assert_int_equal(fse_ctl_load(c, NULL, NAMES, NN), -1);
	assert_non_null(strstr(logged, "no usable fabsched.conf"));
	assert_int_equal(fs_conf_parse("t.conf", text, strlen(text), &conf, errs), 0);
	assert_int_equal(fse_ctl_load(c, conf, NAMES, NN), -1);
	assert_non_null(strstr(logged, "fabric model /nonexistent/fabric.json: "));
	assert_false(fse_ctl_usable(c));
	/* not usable: the node choice on every candidate, once */
	assert_int_equal(fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o), -1);
	assert_true(o.started);
	assert_true(ch.offered_all);
	assert_int_equal(ch.calls, 1);
	fs_errors_free(errs);
	fse_ctl_free(c);
}

/* Write @text (NULL: the model of setup again) to the model's path
 * through a new file, as the watch does. */
static void _replace_model(const char *text)
{
	char tmp[300], *json = NULL;
	FILE *f;
	size_t len = 0;

	snprintf(tmp, sizeof(tmp), "%s.new", model_path);
	if (!text) {
		assert_non_null(f = fopen(model_path, "r"));
		json = calloc(1, 1 << 20);
		len = fread(json, 1, (1 << 20) - 1, f);
		fclose(f);
	}
	assert_non_null(f = fopen(tmp, "w"));
	fwrite(text ? text : json, 1, text ? strlen(text) : len, f);
	fclose(f);
	assert_int_equal(rename(tmp, model_path), 0);
	free(json);
}

static int _count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; p && (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* The state file is written by a thread of its own: it appears without
 * fse_ctl_finish, and after many placements in a row (more than it writes
 * a second) finish leaves the last record. */
static void _slurp(char *buf, size_t size)
{
	FILE *f = fopen(state_path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

static void test_saver(void **state)
{
	static const uint8_t all[NN] = { 1, 1, 1, 1, 1, 1 };
	struct fse_ctl *c;
	struct chooser ch = { 0 };
	struct fse_job j;
	struct fse_outcome o;
	char buf[512], want[64];
	int waited;

	(void)state;
	unlink(state_path);
	c = _ctl("PartitionName=batch Locality=rack LocalityWait=INFINITE\n");
	j = _job(1, 2, all);
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_true(o.started);
	for (waited = 0; waited < 100; waited++) { /* 5 s at most */
		_slurp(buf, sizeof(buf));
		if (strstr(buf, "share batch 1\n"))
			break;
		usleep(50000);
	}
	assert_non_null(strstr(buf, "share batch 1\n"));
	for (int k = 2; k <= 30; k++) {
		j = _job(k, 2, all);
		fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	}
	fse_ctl_finish(c);
	_slurp(buf, sizeof(buf));
	snprintf(want, sizeof(want), "share batch %.30s\n", "111111111111111111111111111111");
	assert_non_null(strstr(buf, want));
	fse_ctl_free(c);
	unlink(state_path);
}

/* the timing figures: split by kind of call (a start now, a plan), the
 * caller's preparation counted as fabsched's, logged at finish */
static void test_stats(void **state)
{
	static const uint8_t all[NN] = { 1, 1, 1, 1, 1, 1 };
	struct fse_ctl *c = _ctl("PartitionName=batch Locality=rack LocalityWait=INFINITE\n");
	struct chooser ch = { 0 };
	struct fse_job j = _job(1, 2, all);
	const struct fse_ctl_stats *s = fse_ctl_stats(c);
	struct fse_outcome o;

	(void)state;
	j.prep_us = 5e6;	/* 5 s: more than the call itself takes */
	ch.refuse_first = true; /* the first rack refused: the second taken */
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_true(o.started);
	assert_int_equal(s->backend_calls_by[0], 2);
	assert_int_equal(s->backend_refused_by[0], 1);
	j = _job(2, 2, all);
	j.plan = true;
	j.final = false;
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_int_equal(s->calls, 2);
	assert_int_equal(s->calls_by[0], 1);
	assert_int_equal(s->calls_by[1], 1);
	assert_true(s->hook_us_by[0] >= 5e6);
	assert_true(s->hook_us_by[1] < 5e6);
	assert_true(s->hook_us == s->hook_us_by[0] + s->hook_us_by[1]);
	assert_true(s->backend_us == s->backend_us_by[0] + s->backend_us_by[1]);
	assert_int_equal(s->backend_calls_by[1], 1);
	assert_int_equal(s->backend_refused_by[1], 0);
	free(logged);
	logged = NULL;
	fse_ctl_finish(c);
	assert_non_null(logged);
	assert_non_null(
		strstr(logged, "starts now (main scheduler): 1 placement decisions: fabsched 5"));
	assert_non_null(strstr(logged, "on average (2.00 node choices a decision, 1.00 refused)"));
	assert_non_null(strstr(logged, "plans (backfill): 1 placement decisions"));
	fse_ctl_free(c);
}

/* will-run plans (fse_ctl_plan): the domain free now; else, for a job
 * waiting for one rack, the racks expected to hold it soonest, one at a
 * time, and none when no rack of the candidates can; for a job waiting for
 * several racks, the racks expected to hold it soonest together, else
 * none; else every candidate; nothing recorded for the job */
static int64_t plan_free_at[NN];

static const int64_t *_plan_free_at(void *arg)
{
	(void)arg;
	return plan_free_at;
}

static void test_plan(void **state)
{
	static const uint8_t all[NN] = { 1, 1, 1, 1, 1, 1 };
	/* free now: n001 (leaf01), n004 and n005 (leaf02) */
	static const uint8_t idle[NN] = { 1, 0, 0, 1, 1, 0 };
	static const uint8_t idle01[NN] = { 1, 1, 1, 0, 0, 0 };
	/* n006 held by another job's plan: not a candidate */
	static const uint8_t no6[NN] = { 1, 1, 1, 1, 1, 0 };
	struct fse_ctl *c = _ctl("PartitionName=batch Locality=rack LocalityWait=10:00\n");
	const struct fse_ctl_stats *s = fse_ctl_stats(c);
	struct chooser ch = { 0 };
	struct fse_job j = _job(7, 3, all);
	struct fse_plan o;
	int64_t now = (int64_t)time(NULL);
	long in = -1;
	const char *p;

	(void)state;
	/* busy nodes expected free: leaf02 holds 3 at +100 (n006), leaf01
	 * at +600 (n003) */
	plan_free_at[0] = plan_free_at[3] = plan_free_at[4] = 0;
	plan_free_at[1] = now + 300;
	plan_free_at[2] = now + 600;
	plan_free_at[5] = now + 100;
	j.idle = idle;
	j.free_at = _plan_free_at;
	j.waited = 60;
	j.plan = true;
	j.final = false;
	assert_int_equal(fse_ctl_plan(c, &j, _choose, &ch, &o), 0);
	assert_true(o.placed);
	assert_true(o.in_domain);
	assert_int_equal(ch.calls, 1);
	assert_int_equal(_racks(&ch), 2); /* leaf02 alone ... */
	for (int i = 3; i < NN; i++)	  /* ... with its busy node n006 */
		assert_int_equal(ch.in[i], 1);
	assert_non_null(p = strstr(o.why, "rack leaf02, expected to hold it in "));
	in = strtol(p + strlen("rack leaf02, expected to hold it in "), NULL, 10);
	assert_true(in >= 99 && in <= 100);
	/* refused there (cores busy beyond the plan's window): leaf01 next */
	ch = (struct chooser){ .refuse_first = true };
	fse_ctl_plan(c, &j, _choose, &ch, &o);
	assert_true(o.placed);
	assert_int_equal(ch.calls, 2);
	assert_int_equal(_racks(&ch), 1);
	/* refused in both: no plan on these nodes, and no fall-back to every
	 * candidate (which would hold free nodes the job does not take) */
	ch = (struct chooser){ .refuse = true };
	fse_ctl_plan(c, &j, _choose, &ch, &o);
	assert_false(o.placed);
	assert_int_equal(ch.calls, 2);
	assert_false(ch.offered_all);
	assert_non_null(strstr(o.why, "no rack of these nodes holds it (2 tried)"));
	/* n006 not a candidate: leaf02 cannot hold 3, leaf01 is offered */
	ch = (struct chooser){ 0 };
	j.cand = no6;
	fse_ctl_plan(c, &j, _choose, &ch, &o);
	assert_true(o.placed);
	assert_int_equal(_racks(&ch), 1);
	assert_non_null(strstr(o.why, "rack leaf01"));
	/* a rack free now: the plan is there */
	ch = (struct chooser){ 0 };
	j.cand = all;
	j.idle = idle01;
	fse_ctl_plan(c, &j, _choose, &ch, &o);
	assert_true(o.placed && o.in_domain);
	assert_int_equal(_racks(&ch), 1);
	assert_string_equal(o.why, "leaf01");
	/* past its bound: relaxed now, over both racks' free nodes */
	ch = (struct chooser){ 0 };
	j.idle = idle;
	j.waited = 600;
	fse_ctl_plan(c, &j, _choose, &ch, &o);
	assert_true(o.placed);
	assert_int_equal(_racks(&ch), 3);
	/* wider than a rack: the racks expected to hold it soonest, together
	 * (3 free now, n006 at +100 makes 4 over both) */
	ch = (struct chooser){ 0 };
	j = _job(8, 4, all);
	j.idle = idle;
	j.free_at = _plan_free_at;
	fse_ctl_plan(c, &j, _choose, &ch, &o);
	assert_true(o.placed && o.in_domain);
	assert_false(ch.offered_all);
	assert_int_equal(_racks(&ch), 3);
	assert_non_null(p = strstr(o.why, "racks leaf01,leaf02, expected to hold it in "));
	in = strtol(p + strlen("racks leaf01,leaf02, expected to hold it in "), NULL, 10);
	assert_true(in >= 99 && in <= 100);
	/* refused there: no plan on these nodes, no fall-back to every
	 * candidate */
	ch = (struct chooser){ .refuse = true };
	fse_ctl_plan(c, &j, _choose, &ch, &o);
	assert_false(o.placed);
	assert_int_equal(ch.calls, 1);
	assert_false(ch.offered_all);
	assert_non_null(strstr(o.why, "no set of racks expected soonest of these nodes holds it"));
	/* n006 not a candidate, n002 and n003 never free: no set of racks
	 * ever holds 4, and no node choice is asked */
	ch = (struct chooser){ 0 };
	plan_free_at[1] = plan_free_at[2] = INT64_MAX;
	j.cand = no6;
	fse_ctl_plan(c, &j, _choose, &ch, &o);
	assert_false(o.placed);
	assert_int_equal(ch.calls, 0);
	assert_non_null(strstr(o.why, "no set of racks of these nodes holds it"));
	plan_free_at[1] = now + 300;
	plan_free_at[2] = now + 600;
	/* past its bound: relaxed, every candidate */
	ch = (struct chooser){ 0 };
	j.cand = all;
	j.waited = 600;
	fse_ctl_plan(c, &j, _choose, &ch, &o);
	assert_true(o.placed && ch.offered_all);
	assert_false(o.in_domain);
	/* nothing recorded as a placement; the plans counted apart */
	assert_int_equal(s->calls, 0);
	assert_int_equal(s->started + s->waits + s->relaxed, 0);
	assert_int_equal(s->plans, 10);
	assert_int_equal(s->plans_now, 2);
	assert_int_equal(s->plans_later, 3);
	assert_int_equal(s->plans_span, 1);
	assert_int_equal(s->plans_none, 3);
	assert_int_equal(s->plans_any, 1);
	fse_ctl_free(c);
	/* under a LocalityWaitRatio a job wider than a rack does not wait
	 * for its racks: every candidate */
	c = _ctl("PartitionName=batch Locality=rack LocalityWaitRatio=2\n");
	ch = (struct chooser){ 0 };
	j.waited = 60;
	fse_ctl_plan(c, &j, _choose, &ch, &o);
	assert_true(o.placed && ch.offered_all);
	fse_ctl_free(c);
}

/* a model file replaced under a running controller: swapped in when it
 * is valid, kept when not; the file looked at every FSE_CTL_RECHECK s */
static void test_refresh(void **state)
{
	static const uint8_t cand[NN] = { 1, 0, 0, 1, 0, 0 };
	struct fse_ctl *c;
	struct chooser ch = { 0 };
	struct fse_job j;
	struct fse_outcome o;
	time_t t = 1000;

	(void)state;
	free(logged);
	logged = NULL;
	c = _ctl("PartitionName=batch Locality=rack LocalityWait=INFINITE\n");
	assert_int_equal(fse_ctl_refresh(c, t), 0); /* same file */
	_replace_model(NULL);
	assert_int_equal(fse_ctl_refresh(c, t + 1), 0); /* not looked at yet */
	assert_int_equal(fse_ctl_refresh(c, t + 6), 1);
	assert_non_null(strstr(logged, "changed: 6 nodes in 2 racks"));
	assert_non_null(fse_ctl_model(c));
	/* fabsched.conf is still in force on the new model: a two-node job
	 * with one free node per rack waits for its partition's rack */
	for (int i = 0; i < NN; i++)
		fse_ctl_tasks(c, false)[i] = fse_ctl_tasks(c, true)[i] = 1;
	j = _job(1, 2, cand);
	fse_ctl_place(c, &j, _choose, &ch, NULL, NULL, &o);
	assert_false(o.started);
	assert_true(o.waits);
	assert_int_equal(ch.calls, 0);
	_replace_model("{\"format\": \"fabsched-topology\"");
	assert_int_equal(fse_ctl_refresh(c, t + 12), 0);
	assert_int_equal(fse_ctl_refresh(c, t + 18), 0);
	assert_int_equal(_count(logged, "changed but cannot be used"), 1);
	assert_non_null(strstr(logged, "the running one stays"));
	assert_true(fse_ctl_usable(c));
	fse_ctl_free(c);
	setup(NULL); /* the model of the other tests back */
}

/* ------------------------------------------------------------ observe */

static char obs_path[300];

static void _obs_slurp(char *buf, size_t size)
{
	FILE *f = fopen(obs_path, "r");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

static enum fse_job_state obs_state = FSE_JOB_PENDING;

static enum fse_job_state _obs_state(uint32_t id, void *arg)
{
	(void)arg;
	return id == 7 ? obs_state : FSE_JOB_GONE;
}

/* tasks 0 and 2 of array 9 started, task 1 pends */
static enum fse_job_state _task_state(uint32_t id, uint32_t task, void *arg)
{
	(void)arg;
	if (id == 9 && task != FSE_NO_TASK)
		return task == 1 ? FSE_JOB_PENDING : FSE_JOB_STARTED;
	return FSE_JOB_PENDING;
}

static void test_observe(void **state)
{
	/* Slurm put a 2-node job on n003 and n004 (two racks); leaf02 has
	 * three free nodes: fabsched would have used one rack */
	static const uint8_t cand[NN] = { 0, 0, 1, 1, 1, 1 };
	static const uint8_t got[NN] = { 0, 0, 1, 1, 0, 0 };
	/* one free node per rack: fabsched would have waited */
	static const uint8_t cand2[NN] = { 1, 0, 0, 1, 0, 0 };
	static const uint8_t got2[NN] = { 1, 0, 0, 1, 0, 0 };
	struct fse_ctl *c;
	struct fse_job j = _job(5, 2, cand);
	struct fse_obs ob;
	char buf[8192], *l2, *l3, err[256];

	(void)state;
	snprintf(obs_path, sizeof(obs_path), "%s.observe", state_path);
	unlink(obs_path);
	c = _ctl("PartitionName=batch Locality=observe LocalityWait=10\n"
		 "PartitionName=other Locality=off\n");
	assert_int_equal(fse_ctl_observe_file(c, obs_path), 0);
	assert_true(fse_ctl_part_observe(c, "batch"));
	assert_false(fse_ctl_part_observe(c, "other"));
	assert_true(fse_ctl_part_off(c, "batch")); /* placed stock */
	assert_false(fse_ctl_all_off(c));	   /* DefaultLocality any */
	/* not observed: another partition, or no choice made */
	j.part = "other";
	assert_int_equal(fse_ctl_observe(c, &j, got, NULL, NULL), -1);
	j.part = "batch";
	assert_int_equal(fse_ctl_observe(c, &j, NULL, NULL, NULL), -1);
	assert_int_equal(fse_ctl_observe(c, &j, got, NULL, NULL), 0);
	j = _job(6, 2, cand2);
	assert_int_equal(fse_ctl_observe(c, &j, got2, NULL, NULL), 0);
	j = _job(11, 2, cand);
	j.stock_why = "pinned to nodes";
	assert_int_equal(fse_ctl_observe(c, &j, got, NULL, NULL), 0);
	/* not final: kept until the job is seen started */
	j = _job(7, 2, cand);
	j.final = false;
	assert_int_equal(fse_ctl_observe(c, &j, got, _obs_state, NULL), 0);
	fse_ctl_finish(c); /* the writer thread has written the log */
	_obs_slurp(buf, sizeof(buf));
	assert_null(strstr(buf, "job=7 "));
	assert_non_null(l2 = strchr(buf, '\n'));
	*l2++ = '\0';
	assert_int_equal(fse_obs_parse(buf, &ob, err, sizeof(err)), 0);
	assert_int_equal(ob.job_id, 5);
	assert_string_equal(ob.part, "batch");
	assert_int_equal(ob.level, FSE_RACK);
	assert_int_equal(ob.nodes, 2);
	assert_true(ob.fits);
	assert_int_equal(ob.got.kind, FSE_OBS_POD); /* one spine */
	assert_int_equal(ob.got.nracks, 2);
	assert_string_equal(ob.got.racks, "leaf01,leaf02");
	assert_int_equal(ob.would.kind, FSE_OBS_RACK);
	assert_string_equal(ob.would.racks, "leaf02");
	assert_false(fse_obs_in_domain(&ob.got, ob.level));
	assert_true(fse_obs_in_domain(&ob.would, ob.level));
	assert_non_null(l3 = strchr(l2, '\n'));
	*l3++ = '\0';
	assert_int_equal(fse_obs_parse(l2, &ob, err, sizeof(err)), 0);
	assert_int_equal(ob.job_id, 6);
	assert_int_equal(ob.would.kind, FSE_OBS_WAIT);
	assert_non_null(strstr(ob.why, "Locality: "));
	assert_non_null(strstr(ob.why, "rack@00:10:00"));
	assert_int_equal(fse_obs_parse(l3, &ob, err, sizeof(err)), 0);
	assert_int_equal(ob.job_id, 11);
	assert_int_equal(ob.would.kind, FSE_OBS_STOCK);
	assert_string_equal(ob.why, "pinned to nodes");
	/* both count toward the share it would have kept (a held job as
	 * getting its rack): 2 of 2 */
	assert_int_equal(fse_ctl_stats(c)->observed, 4);
	assert_int_equal(fse_ctl_stats(c)->calls, 0); /* nothing placed */
	fse_ctl_free(c);

	/* the pending observation is written once the job has started */
	unlink(obs_path);
	c = _ctl("PartitionName=batch Locality=observe\n");
	assert_int_equal(fse_ctl_observe_file(c, obs_path), 0);
	j = _job(7, 2, cand);
	j.final = false;
	obs_state = FSE_JOB_PENDING;
	fse_ctl_observe(c, &j, got, _obs_state, NULL);
	sleep(1); /* commits are at most once a second */
	obs_state = FSE_JOB_STARTED;
	j = _job(8, 1, cand);
	j.final = false;
	fse_ctl_observe(c, &j, got, _obs_state, NULL);
	fse_ctl_finish(c);
	_obs_slurp(buf, sizeof(buf));
	assert_non_null(strstr(buf, "job=7 "));
	assert_null(strstr(buf, "job=8 ")); /* still pending */
	fse_ctl_free(c);

	/* tasks of an array, tried from the array's own record (job 9):
	 * one observation each, asked about by task */
	unlink(obs_path);
	c = _ctl("PartitionName=batch Locality=observe\n");
	assert_int_equal(fse_ctl_observe_file(c, obs_path), 0);
	fse_ctl_observe_state(c, _task_state, NULL);
	for (uint32_t t = 0; t < 3; t++) {
		j = _job(9, 1, cand);
		j.final = false;
		j.array_job_id = 9;
		j.array_task = t;
		fse_ctl_observe(c, &j, got, _obs_state, NULL);
	}
	sleep(1);
	j = _job(10, 1, cand);
	j.final = false;
	fse_ctl_observe(c, &j, got, _obs_state, NULL);
	fse_ctl_finish(c);
	_obs_slurp(buf, sizeof(buf));
	assert_non_null(strstr(buf, " job=9_0 "));
	assert_null(strstr(buf, " job=9_1 ")); /* still pending */
	assert_non_null(strstr(buf, " job=9_2 "));
	fse_ctl_free(c);
	unlink(obs_path);
}

/* The record's text: written and read back, and refused when it is not of
 * the form (the reader is the CLI, the file is in StateSaveLocation). */
static void test_observe_record(void **state)
{
	struct fse_obs o = { .time = 1764800000,
			     .job_id = 12,
			     .task = FSE_NO_TASK,
			     .part = "mpi",
			     .level = FSE_RACK,
			     .nodes = 4,
			     .fits = true,
			     .got = { FSE_OBS_ANY, 2, "r1,r2" },
			     .would = { FSE_OBS_WAIT, 0, "-" },
			     .waited = 30,
			     .why = "Locality: no rack has 4 free nodes" },
		       back;
	char line[2048], err[256];
	static const char *const bad[] = {
		"job=1 time=1 part=p level=rack nodes=1 fits=1 got=rack:1:r1 would=rack:1:r1 waited=0 why=x",
		"time=1 job=0 part=p level=rack nodes=1 fits=1 got=rack:1:r1 would=rack:1:r1 waited=0 why=x",
		"time=1 job=1_ part=p level=rack nodes=1 fits=1 got=rack:1:r1 would=rack:1:r1 waited=0 why=x",
		"time=1 job=1_x part=p level=rack nodes=1 fits=1 got=rack:1:r1 would=rack:1:r1 waited=0 why=x",
		"time=1 job=1 part=p level=off nodes=1 fits=1 got=rack:1:r1 would=rack:1:r1 waited=0 why=x",
		"time=1 job=1 part=p level=rack nodes=1 fits=2 got=rack:1:r1 would=rack:1:r1 waited=0 why=x",
		"time=1 job=1 part=p level=rack nodes=1 fits=1 got=wait:0:- would=rack:1:r1 waited=0 why=x",
		"time=1 job=1 part=p level=rack nodes=1 fits=1 got=rack:1:r1 would=rack:x:r1 waited=0 why=x",
		"time=1 job=1 part=p level=rack nodes=1 fits=1 got=rack:1:r<1 would=rack:1:r1 waited=0 why=x",
		"time=1 job=1 part=p level=rack nodes=1 fits=1 got=rack:1:r1 would=rack:1:r1 waited=0",
		"time=1 job=1 part=p level=rack nodes=1 fits=1 got=rack:1:r1 would=rack:1:r1 waited=0 why=\x1b[2J",
		"",
	};

	(void)state;
	fse_obs_format(&o, line, sizeof(line));
	assert_string_equal(
		line,
		"time=1764800000 job=12 part=mpi level=rack nodes=4 fits=1 got=any:2:r1,r2 would=wait:0:- waited=30 why=Locality: no rack has 4 free nodes\n");
	assert_int_equal(fse_obs_parse(line, &back, err, sizeof(err)), 0);
	assert_int_equal(back.time, o.time);
	assert_int_equal(back.job_id, 12);
	assert_int_equal(back.got.kind, FSE_OBS_ANY);
	assert_string_equal(back.got.racks, "r1,r2");
	assert_int_equal(back.would.kind, FSE_OBS_WAIT);
	assert_int_equal(back.waited, 30);
	assert_string_equal(back.why, o.why);
	assert_int_equal(back.task, FSE_NO_TASK);
	/* a task of a job array, as squeue names it */
	o.task = 3;
	fse_obs_format(&o, line, sizeof(line));
	assert_non_null(strstr(line, " job=12_3 part=mpi "));
	assert_int_equal(fse_obs_parse(line, &back, err, sizeof(err)), 0);
	assert_int_equal(back.job_id, 12);
	assert_int_equal(back.task, 3);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (!fse_obs_parse(bad[i], &back, err, sizeof(err)))
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(strstr(err, "expected"));
	}
	assert_null(fse_obs_kind_name((enum fse_obs_kind)5));
	assert_string_equal(fse_obs_kind_name(FSE_OBS_STOCK), "stock");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_rack),
		cmocka_unit_test(test_tasks_room),
		cmocka_unit_test(test_wait_then_relax),
		cmocka_unit_test(test_too_big),
		cmocka_unit_test(test_part_settings),
		cmocka_unit_test(test_not_final_and_state_file),
		cmocka_unit_test(test_wait_over),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_applies),
		cmocka_unit_test(test_state_dir),
		cmocka_unit_test(test_bad_setup),
		cmocka_unit_test(test_refresh),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_saver),
		cmocka_unit_test(test_observe),
		cmocka_unit_test(test_observe_record),
		cmocka_unit_test(test_plan),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
