/*
 * fabsched sim — replay a job log (SWF, or a site's own sacct --json or
 * sacct -P history, told apart by content) on a fat tree or the site's
 * fabric model with FCFS + EASY backfill under several placement policies
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
	O_DEPTH,
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
	{ 'p', 'p', "policy", "LIST",
	  "comma-separated, repeatable: rack|pod|any[@WAIT]\n"
	  "(fabsched engine), rack|pod[@WAIT]/TARGET% (engine\n"
	  "with a locality target, e.g. rack@2-0/99%),\n"
	  "tree (stock Slurm topology/tree),\n"
	  "switches[@WAIT] (tree, --switches=1@WAIT on jobs that\n"
	  "fit a rack; default 5:00), firstfit; WAIT in Slurm\n"
	  "time format (a bare number is minutes, e.g. 10:00);\n"
	  "default " DEFAULT_POLICIES,
	  "scheduling", NULL },
	{ O_DEPTH, 0, "bf-depth", "N", "jobs tested per backfill pass (default 500)", NULL, NULL },
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
		"Replay a job log with FCFS + EASY backfill.  TRACE, plain or .gz, is\n"
		"told by its content: an SWF log, the output of sacct --json, or that of\n"
		"  sacct -a -P -X -S START -E END \\\n"
		"    -o JobIDRaw,Partition,Submit,Start,End,Timelimit,NNodes,NCPUS,State,NodeList\n"
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

static int _sim_run(int argc, char **argv)
{
	struct fs_optp op = { .prog = "fabsched sim", .tab = _sim_opts };
	const char *model = NULL, *csv = NULL, *json = NULL, *svg = NULL;
	const char *occ = NULL, *sched = NULL, *title = NULL, *trace_path;
	int nodes = 0, rack = 32, rpp = 0, ppn = 0, limit = 0, depth = 0, np = 0;
	int progress = isatty(2), c, rc = FS_EXIT_INPUT;
	struct fss_policy pol[MAX_POLICIES];
	struct fss_run *runs[MAX_POLICIES] = { 0 };
	struct fss_swf_opts so = { 0 };
	struct fss_trace *tr = NULL;
	struct fss_machine *m = NULL;
	char err[1024];

	while ((c = fs_cli_opt_next(&op, argc, argv)) != -1) {
		switch (c) {
		case 'N':
			if (_uint("--nodes", optarg, 10000000, &nodes))
				return FS_EXIT_USAGE;
			break;
		case 'r':
			if (_uint("--rack-size", optarg, 100000, &rack) || !rack) {
				if (!rack)
					fprintf(stderr, "fabsched sim: --rack-size must be >= 1\n");
				return FS_EXIT_USAGE;
			}
			break;
		case 'P':
			if (_uint("--racks-per-pod", optarg, 100000, &rpp))
				return FS_EXIT_USAGE;
			break;
		case 'M':
			model = optarg;
			break;
		case 'p':
			if (_add_policies(optarg, pol, &np))
				return FS_EXIT_USAGE;
			break;
		case O_PPN:
			if (_uint("--ppn", optarg, 1000000, &ppn))
				return FS_EXIT_USAGE;
			break;
		case O_LIMIT:
			if (_uint("--limit", optarg, INT32_MAX, &limit))
				return FS_EXIT_USAGE;
			break;
		case O_DEPTH:
			if (_uint("--bf-depth", optarg, INT32_MAX, &depth))
				return FS_EXIT_USAGE;
			break;
		case O_CSV:
			csv = optarg;
			break;
		case O_JSON:
			json = optarg;
			break;
		case O_SVG:
			svg = optarg;
			break;
		case O_OCC:
			occ = optarg;
			break;
		case O_SCHED:
			sched = optarg;
			break;
		case O_TITLE:
			title = optarg;
			break;
		case O_PROGRESS:
			progress = 1;
			break;
		case O_NOPROGRESS:
			progress = 0;
			break;
		case 'h':
			_sim_usage(stdout);
			return FS_EXIT_OK;
		default:
			return FS_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "fabsched sim: give one trace file\n");
		_sim_usage(stderr);
		return FS_EXIT_USAGE;
	}
	trace_path = argv[optind];
	if (!np && _add_policies(DEFAULT_POLICIES, pol, &np))
		return FS_EXIT_USAGE;
	if (sched && np != 1) {
		fprintf(stderr, "fabsched sim: --schedule needs exactly one policy\n");
		return FS_EXIT_USAGE;
	}
	if (model && nodes) {
		fprintf(stderr, "fabsched sim: --model and --nodes exclude each other\n");
		return FS_EXIT_USAGE;
	}

	if (model && fss_machine_from_model(model, &m, err, sizeof(err))) {
		fprintf(stderr, "fabsched sim: %s\n", err);
		goto out;
	}
	so.procs_per_node = ppn;
	so.machine_nodes = m ? m->nnodes : nodes;
	so.limit = limit;
	if (fss_trace_read(trace_path, &so, &tr, err, sizeof(err))) {
		fprintf(stderr, "fabsched sim: %s\n", err);
		goto out;
	}
	if (!m && fss_machine_fattree(tr->machine_nodes, rack, rpp, &m, err, sizeof(err))) {
		fprintf(stderr, "fabsched sim: %s\n", err);
		goto out;
	}
	_summary(trace_path, tr, m, ppn);
	{
		char warn[1024];

		if (fss_trace_warnings(tr, warn, sizeof(warn)))
			fprintf(stderr, "%s", warn);
	}
	for (int i = 0; i < np; i++) {
		struct fss_sim_opts o = { .bf_depth = depth,
					  .progress = progress,
					  .label = pol[i].name };

		if (fss_simulate(m, tr, &pol[i], &o, &runs[i], err, sizeof(err))) {
			fprintf(stderr, "fabsched sim: %s\n", err);
			goto out;
		}
	}
	fss_report_text(stdout, runs, np);
	{
		FILE *f;

		if (csv) {
			if (!(f = _open(csv)))
				goto out;
			fss_report_csv(f, runs, np, true);
			if (_close(f, csv))
				goto out;
		}
		if (json) {
			if (!(f = _open(json)))
				goto out;
			fss_report_json(f, runs, np);
			if (_close(f, json))
				goto out;
		}
		if (svg) {
			if (!(f = _open(svg)))
				goto out;
			fss_svg_compare(f, runs, np, title ? title : trace_path);
			if (_close(f, svg))
				goto out;
		}
		if (occ) {
			if (!(f = _open(occ)))
				goto out;
			fss_svg_occupancy(f, runs, np, title ? title : trace_path);
			if (_close(f, occ))
				goto out;
		}
		if (sched) {
			if (!(f = _open(sched)))
				goto out;
			fss_schedule_csv(f, runs[0]);
			if (_close(f, sched))
				goto out;
		}
	}
	rc = FS_EXIT_OK;
out:
	for (int i = 0; i < np; i++)
		fss_run_free(runs[i]);
	fss_trace_free(tr);
	fss_machine_free(m);
	return rc;
}

const struct fs_cmd fs_cmd_sim = {
	.name = "sim",
	.summary = "replay a job log (SWF or sacct) and compare placement policies",
	.run = _sim_run,
	.usage = _sim_usage,
	.opts = _sim_opts,
};
