/*
 * fabsched sim — replay a job log (SWF, or a site's own sacct --json or
 * sacct -P history, told apart by content) on a fat tree or the site's
 * fabric model with FCFS + backfill under several placement policies
 * and report what each buys and costs (libfabsched_sim).
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "fabsched_cli.h"
#include "fabsched_sim.h"
#include "fs_values.h"
#include "opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_POLICIES 16
#define DEFAULT_POLICIES "rack@30:00,pod@30:00,any,tree,firstfit"

enum {
	O_PPN = 256,
	O_LIMIT,
	O_JITTER,
	O_SEED,
	O_DEPTH,
	O_BACKFILL,
	O_CSV,
	O_JSON,
	O_SVG,
	O_OCC,
	O_SCHED,
	O_TITLE,
	O_PROGRESS,
	O_NOPROGRESS
};

/* fabsched(1), SIM. */
static const struct fs_opt _sim_opts[] = {
	{ 'N', 'N', "nodes", "N", "nodes of the generated fat tree",
	  "machine (default: a fat tree of the trace's MaxNodes; sacct: of its hosts)", NULL },
	{ 'r', 'r', "rack-size", "N", "nodes per rack (default 32)", NULL, NULL },
	{ 'P', 'P', "racks-per-pod", "N", "racks per pod switch (default 0: one pod)", NULL, NULL },
	{ 'M', 'M', "model", "FILE", "a fabric model (fabsched topo discover JSON)", NULL, NULL },
	{ O_PPN, 0, "ppn", "N",
	  "processors per node of an SWF trace (default: derived\n"
	  "from the trace, printed with the reason: see fabsched(1))",
	  "trace", NULL },
	{ O_LIMIT, 0, "limit", "N", "only the first N jobs", NULL, NULL },
	{ O_JITTER, 0, "jitter", "S",
	  "move each submit time by up to S seconds either\n"
	  "way (a copy of the log, to tell a policy's effect\n"
	  "from the chaos of a loaded queue; default 0)",
	  NULL, NULL },
	{ O_SEED, 0, "seed", "N", "which copy --jitter makes (default 1)", NULL, NULL },
	{ 'p', 'p', "policy", "LIST",
	  "comma-separated, repeatable: rack|pod|any[@WAIT]\n"
	  "(fabsched engine), rack|pod[@WAIT]/TARGET% (engine\n"
	  "with a locality target, e.g. rack@2-0/99%),\n"
	  "rack[@WAIT][/TARGET%]/Nx (waiting only for a rack\n"
	  "expected within N times the job's time, e.g. /2x),\n"
	  "tree (stock Slurm topology/tree),\n"
	  "switches[@WAIT] (tree, --switches=1@WAIT on jobs that\n"
	  "fit a rack; default 5:00), firstfit; WAIT in Slurm\n"
	  "time format (a bare number is minutes, e.g. 10:00);\n"
	  "default " DEFAULT_POLICIES,
	  "scheduling", NULL },
	{ O_DEPTH, 0, "bf-depth", "N", "jobs tested per backfill pass (default 500)", NULL, NULL },
	{ O_BACKFILL, 0, "backfill", "KIND",
	  "slurm (default: every blocked job tested reserves,\n"
	  "as Slurm's) or easy (the first blocked job only)",
	  NULL, NULL },
	{ O_CSV, 0, "csv", "FILE", "one row per policy", "output (the table goes to stdout)",
	  NULL },
	{ O_JSON, 0, "json", "FILE", "trace facts and one object per policy", NULL, NULL },
	{ O_SVG, 0, "svg", "FILE", "locality share vs mean wait, policies side by side", NULL,
	  NULL },
	{ O_OCC, 0, "occupancy-svg", "FILE", "busy share of each rack over time, per policy", NULL,
	  NULL },
	{ O_SCHED, 0, "schedule", "FILE", "every job's start and nodes (one policy only)", NULL,
	  NULL },
	{ O_TITLE, 0, "title", "TEXT", "title of the pictures", NULL, NULL },
	{ O_PROGRESS, 0, "progress", NULL,
	  "progress and time left on stderr (default: when\n"
	  "stderr is a terminal)",
	  NULL, NULL },
	{ O_NOPROGRESS, 0, "no-progress", NULL, "no progress on stderr", NULL, NULL },
	{ 'h', 'h', "help", NULL, "this help", NULL, NULL },
	{ 0, 0, NULL, NULL, NULL, NULL, NULL }
};

static void _sim_usage(FILE *out)
{
	fprintf(out,
		"usage: fabsched sim TRACE [options]\n"
		"Replay a job log with FCFS + backfill.  TRACE, plain or .gz, is\n"
		"told by its content: an SWF log, the output of sacct --json, or that of\n"
		"  sacct -a -P -X -S START -E END \\\n"
		"    -o JobIDRaw,Partition,Submit,Eligible,Start,End,Timelimit,NNodes,NCPUS,State,NodeList\n"
		"(sacct -P: columns in any order, at least JobIDRaw, Submit, Start, End,\n"
		"Timelimit, NNodes and State; step lines skipped).  Jobs that never\n"
		"started or still run are dropped, counted by reason on stderr.\n");
	fs_cli_opt_help(out, _sim_opts);
	fprintf(out, "exit codes: 0 ok, 1 input error, 2 usage error\n");
}

static int _uint(const char *name, const char *s, uint64_t max, int *out)
{
	char msg[FS_MSG_SIZE];
	uint64_t v;

	if (fs_parse_uint(name, s, 0, max, &v, msg, sizeof(msg))) {
		fprintf(stderr, "fabsched sim: %s\n", msg);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int _add_policies(const char *list, struct fss_policy *p, int *np)
{
	char *dup = strdup(list), *save = NULL, *tok;
	char err[FS_MSG_SIZE];
	int rc = 0;

	if (!dup)
		return -1;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*np >= MAX_POLICIES) {
			fprintf(stderr, "fabsched sim: at most %d policies\n", MAX_POLICIES);
			rc = -1;
			break;
		}
		if (fss_policy_parse(tok, &p[*np], err, sizeof(err))) {
			fprintf(stderr, "fabsched sim: %s\n", err);
			rc = -1;
			break;
		}
		(*np)++;
	}
	free(dup);
	return rc;
}

static FILE *_open(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "fabsched sim: %s: %s\n", path, strerror(errno));
	return f;
}

static int _close(FILE *f, const char *path)
{
	if (fclose(f)) {
		fprintf(stderr, "fabsched sim: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* What was read and dropped, on stderr. */
static void _summary(const char *path, const struct fss_trace *tr, const struct fss_machine *m,
		     int ppn)
{
	char line[2048];

	if (tr->format == FSS_TRACE_SWF) {
		fprintf(stderr,
			"fabsched sim: %s: %ld jobs (%ld too wide, %ld without run time, %ld without processors dropped), %d procs per node (%s); machine %s; load %.2f\n",
			path, tr->njobs, tr->dropped_too_wide, tr->dropped_no_run,
			tr->dropped_no_procs, tr->procs_per_node, tr->procs_why, m->desc,
			fss_trace_load(tr));
		if (tr->header_ignored > 1)
			fprintf(stderr, "fabsched sim: %s: header: %s (and %d more)\n", path,
				tr->header_why, tr->header_ignored - 1);
		else if (tr->header_ignored)
			fprintf(stderr, "fabsched sim: %s: header: %s\n", path, tr->header_why);
		return;
	}
	if (ppn)
		fprintf(stderr,
			"fabsched sim: %s: --ppn is for SWF traces; sacct gives the nodes, ignored\n",
			path);
	fss_sacct_summary(tr, line, sizeof(line));
	fprintf(stderr, "fabsched sim: %s: %s; machine %s; load %.2f\n", path, line, m->desc,
		fss_trace_load(tr));
}

/* What the command line asks (fabsched(1), SIM). */
struct sim_args {
	const char *model, *csv, *json, *svg, *occ, *sched, *title, *trace_path;
	int nodes, rack, rpp, ppn, limit, depth, progress, jitter, seed;
	bool easy;     /* --backfill easy */
	bool seed_set; /* --seed given */
	int np;	       /* policies in pol */
	struct fss_policy pol[MAX_POLICIES];
};

/* What a replay makes: the machine, the trace, one run per policy (NULL
 * where not made). */
struct sim {
	struct fss_machine *m;
	struct fss_trace *tr;
	struct fss_run *runs[MAX_POLICIES];
};

/* One option (key c, its value in optarg) into @a: -1 to go on, or the
 * exit code (--help, usage error). */
static int _sim_option(struct sim_args *a, int c)
{
	switch (c) {
	case 'N':
		if (_uint("--nodes", optarg, 10000000, &a->nodes))
			return FS_EXIT_USAGE;
		break;
	case 'r':
		if (_uint("--rack-size", optarg, 100000, &a->rack) || !a->rack) {
			if (!a->rack)
				fprintf(stderr, "fabsched sim: --rack-size must be >= 1\n");
			return FS_EXIT_USAGE;
		}
		break;
	case 'P':
		if (_uint("--racks-per-pod", optarg, 100000, &a->rpp))
			return FS_EXIT_USAGE;
		break;
	case 'M':
		a->model = optarg;
		break;
	case 'p':
		if (_add_policies(optarg, a->pol, &a->np))
			return FS_EXIT_USAGE;
		break;
	case O_PPN:
		if (_uint("--ppn", optarg, 1000000, &a->ppn))
			return FS_EXIT_USAGE;
		break;
	case O_LIMIT:
		if (_uint("--limit", optarg, INT32_MAX, &a->limit))
			return FS_EXIT_USAGE;
		break;
	case O_JITTER:
		if (_uint("--jitter", optarg, 1000000, &a->jitter))
			return FS_EXIT_USAGE;
		break;
	case O_SEED:
		if (_uint("--seed", optarg, INT32_MAX, &a->seed))
			return FS_EXIT_USAGE;
		a->seed_set = true;
		break;
	case O_DEPTH:
		if (_uint("--bf-depth", optarg, INT32_MAX, &a->depth))
			return FS_EXIT_USAGE;
		break;
	case O_BACKFILL:
		if (strcmp(optarg, "easy") && strcmp(optarg, "slurm")) {
			fprintf(stderr, "fabsched sim: --backfill '%s': expected easy or slurm\n",
				optarg);
			return FS_EXIT_USAGE;
		}
		a->easy = !strcmp(optarg, "easy");
		break;
	case O_CSV:
		a->csv = optarg;
		break;
	case O_JSON:
		a->json = optarg;
		break;
	case O_SVG:
		a->svg = optarg;
		break;
	case O_OCC:
		a->occ = optarg;
		break;
	case O_SCHED:
		a->sched = optarg;
		break;
	case O_TITLE:
		a->title = optarg;
		break;
	case O_PROGRESS:
		a->progress = 1;
		break;
	case O_NOPROGRESS:
		a->progress = 0;
		break;
	case 'h':
		_sim_usage(stdout);
		return FS_EXIT_OK;
	default:
		return FS_EXIT_USAGE;
	}
	return -1;
}

/* The options and the trace into @a, the default policies when none is
 * given, the options that exclude each other refused: -1 to go on, or
 * the exit code (--help, usage error). */
static int _sim_args(int argc, char **argv, struct sim_args *a)
{
	struct fs_optp op = { .prog = "fabsched sim", .tab = _sim_opts };
	int c, rc;

	a->rack = 32;
	a->seed = 1;
	a->progress = isatty(2);
	while ((c = fs_cli_opt_next(&op, argc, argv)) != -1)
		if ((rc = _sim_option(a, c)) >= 0)
			return rc;
	if (optind != argc - 1) {
		fprintf(stderr, "fabsched sim: give one trace file\n");
		_sim_usage(stderr);
		return FS_EXIT_USAGE;
	}
	a->trace_path = argv[optind];
	if (!a->np && _add_policies(DEFAULT_POLICIES, a->pol, &a->np))
		return FS_EXIT_USAGE;
	if (a->sched && a->np != 1) {
		fprintf(stderr, "fabsched sim: --schedule needs exactly one policy\n");
		return FS_EXIT_USAGE;
	}
	if (a->model && a->nodes) {
		fprintf(stderr, "fabsched sim: --model and --nodes exclude each other\n");
		return FS_EXIT_USAGE;
	}
	return -1;
}

/* The machine (the model, or a fat tree of the trace's size) and the
 * trace into @s: 0, or -1 said on stderr. */
static int _sim_load(const struct sim_args *a, struct sim *s)
{
	struct fss_swf_opts so = { 0 };
	char err[1024];

	if (a->model && fss_machine_from_model(a->model, &s->m, err, sizeof(err))) {
		fprintf(stderr, "fabsched sim: %s\n", err);
		return -1;
	}
	so.procs_per_node = a->ppn;
	so.machine_nodes = s->m ? s->m->nnodes : a->nodes;
	so.limit = a->limit;
	if (fss_trace_read(a->trace_path, &so, &s->tr, err, sizeof(err))) {
		fprintf(stderr, "fabsched sim: %s\n", err);
		return -1;
	}
	if (fss_trace_jitter(s->tr, a->jitter, (uint64_t)a->seed)) {
		fprintf(stderr, "fabsched sim: --jitter %d: expected 0 to 1000000 seconds\n",
			a->jitter);
		return -1;
	}
	if (!s->m &&
	    fss_machine_fattree(s->tr->machine_nodes, a->rack, a->rpp, &s->m, err, sizeof(err))) {
		fprintf(stderr, "fabsched sim: %s\n", err);
		return -1;
	}
	return 0;
}

/* One replay per policy into s->runs: 0, or -1 said on stderr. */
static int _sim_policies(const struct sim_args *a, struct sim *s)
{
	char err[1024];

	for (int i = 0; i < a->np; i++) {
		struct fss_sim_opts o = { .bf_depth = a->depth,
					  .reserve_all = !a->easy,
					  .progress = a->progress,
					  .label = a->pol[i].name };

		if (fss_simulate(s->m, s->tr, &a->pol[i], &o, &s->runs[i], err, sizeof(err))) {
			fprintf(stderr, "fabsched sim: %s\n", err);
			return -1;
		}
	}
	return 0;
}

/* The files asked besides the table on stdout: 0, or -1 said on stderr
 * (the files before the one that failed are written). */
static int _sim_files(const struct sim_args *a, const struct sim *s)
{
	const char *title = a->title ? a->title : a->trace_path;
	FILE *f;

	if (a->csv) {
		if (!(f = _open(a->csv)))
			return -1;
		fss_report_csv(f, s->runs, a->np, true);
		if (_close(f, a->csv))
			return -1;
	}
	if (a->json) {
		if (!(f = _open(a->json)))
			return -1;
		fss_report_json(f, s->runs, a->np);
		if (_close(f, a->json))
			return -1;
	}
	if (a->svg) {
		if (!(f = _open(a->svg)))
			return -1;
		fss_svg_compare(f, s->runs, a->np, title);
		if (_close(f, a->svg))
			return -1;
	}
	if (a->occ) {
		if (!(f = _open(a->occ)))
			return -1;
		fss_svg_occupancy(f, s->runs, a->np, title);
		if (_close(f, a->occ))
			return -1;
	}
	if (a->sched) {
		if (!(f = _open(a->sched)))
			return -1;
		fss_schedule_csv(f, s->runs[0]);
		if (_close(f, a->sched))
			return -1;
	}
	return 0;
}

static int _sim_run(int argc, char **argv)
{
	struct sim_args a = { 0 };
	struct sim s = { 0 };
	char warn[1024];
	int rc = _sim_args(argc, argv, &a);

	if (rc >= 0)
		return rc;
	rc = FS_EXIT_INPUT;
	if (_sim_load(&a, &s))
		goto out;
	_summary(a.trace_path, s.tr, s.m, a.ppn);
	if (a.jitter)
		fprintf(stderr,
			"fabsched sim: %s: submit times moved by up to %d s either way (copy %d)\n",
			a.trace_path, a.jitter, a.seed);
	else if (a.seed_set)
		fprintf(stderr,
			"fabsched sim: --seed without --jitter: the log's own submit times\n");
	if (fss_trace_warnings(s.tr, warn, sizeof(warn)))
		fprintf(stderr, "%s", warn);
	if (_sim_policies(&a, &s))
		goto out;
	fss_report_text(stdout, s.runs, a.np);
	if (!_sim_files(&a, &s))
		rc = FS_EXIT_OK;
out:
	for (int i = 0; i < a.np; i++)
		fss_run_free(s.runs[i]);
	fss_trace_free(s.tr);
	fss_machine_free(s.m);
	return rc;
}

const struct fs_cmd fs_cmd_sim = {
	.name = "sim",
	.summary = "replay a job log (SWF or sacct) and compare placement policies",
	.run = _sim_run,
	.usage = _sim_usage,
	.opts = _sim_opts,
};
