/*
 * fabsched metrics — what fabsched decided, in the Prometheus text format
 * (version 0.0.4), for a scrape by node_exporter's textfile collector or
 * any exporter that runs a command:
 *   - per partition, the running jobs in one rack and across racks (their
 *     nodes against the fabric model), and the pending jobs that wait for
 *     their locality domain (squeue; fabsched's note in SystemComment);
 *   - per partition, slurmctld's locality record (StateSaveLocation's
 *     fabsched_locality_share): recent jobs that got their domain and that
 *     were relaxed, the share against LocalityTarget (fabsched.conf);
 *   - per Locality=observe partition, the observation log (fabsched_observe
 *     in StateSaveLocation): what its jobs got in one domain beside what
 *     fabsched would have done;
 *   - the fabric model: switches, nodes, links by tier, degraded links,
 *     compute nodes of slurm.conf without a link in it.
 * Slurm is asked through its commands (squeue, scontrol), run without a
 * shell; each source that cannot be read is one comment line and a
 * fabsched_source_up 0 sample, never a guess.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "fabsched_cli.h"
#include "opts.h"
#include "fabsched_conf.h"
#include "fabsched_select.h"
#include "fabsched_topo.h"
#include "fs_env.h"
#include "fs_err.h"
#include "fs_run.h"
#include "fs_slurmconf.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WAIT_NOTE FS_WAIT_NOTE "waiting"

/* Of a partition's observed jobs: all, those that fit one domain, of them
 * those that got one, that fabsched would have placed in one at once and
 * would have held for one; held: all it would have kept waiting. */
enum { OBS_JOBS, OBS_FIT, OBS_GOT, OBS_WOULD, OBS_HELD_FIT, OBS_HELD, OBS_N };

struct part {
	char name[128];
	long one_rack, across, unknown, waiting;
	bool seen_share;
	unsigned got, relaxed;
	double target;
	bool has_target;
	bool seen_obs;
	unsigned long obs[OBS_N]; /* the observation log's counts */
};

struct metrics {
	struct part *p;
	int n;
	const struct fst_model *m;
};

/* fabsched(1), METRICS. */
static const struct fs_opt _metrics_opts[] = {
	FS_OPTS_CONF_MODEL,
	{ 's', 0, "state", "FILE",
	  "the locality record (default: fabsched_locality_share in\n"
	  "StateSaveLocation, from scontrol show config)",
	  NULL, NULL },
	{ 'O', 0, "observe", "FILE",
	  "the observation log of Locality=observe (default:\n"
	  "fabsched_observe in StateSaveLocation)",
	  NULL, NULL },
	{ 'n', 0, "no-slurm", NULL, "ask Slurm nothing (no job figures)", NULL, NULL },
	{ 'h', 'h', "help", NULL, "this help", NULL, NULL },
	{ 0, 0, NULL, NULL, NULL, NULL, NULL }
};

static void _usage(FILE *out)
{
	fprintf(out, "usage: fabsched metrics [--conf FILE] [--model FILE] [--state FILE]\n"
		     "                        [--observe FILE] [--no-slurm]\n"
		     "\n"
		     "Prints fabsched's placement figures in the Prometheus text format:\n"
		     "running jobs in one rack and across racks, jobs waiting for their\n"
		     "locality, slurmctld's locality record against LocalityTarget, what\n"
		     "Locality=observe partitions got beside what fabsched would have done,\n"
		     "and the fabric model's links (see fabsched(1), METRICS).\n");
	fs_cli_opt_help(out, _metrics_opts);
	fprintf(out,
		"\nexit codes: 0 printed (a source that could not be read says so), 2 usage error\n");
}

static struct part *_part(struct metrics *mx, const char *name)
{
	struct part *p;

	for (int i = 0; i < mx->n; i++)
		if (!strcmp(mx->p[i].name, name))
			return &mx->p[i];
	if (!(p = realloc(mx->p, sizeof(*p) * (size_t)(mx->n + 1))))
		return NULL;
	mx->p = p;
	p = &mx->p[mx->n++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	return p;
}

/* A label value: backslash, double quote and newline escaped. */
static const char *_label(const char *s, char *buf, size_t n)
{
	size_t o = 0;

	for (; *s && o + 3 < n; s++) {
		if (*s == '\\' || *s == '"' || *s == '\n') {
			buf[o++] = '\\';
			buf[o++] = *s == '\n' ? 'n' : *s;
		} else {
			buf[o++] = *s;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* Racks of a job's nodes: 1, 2.., or 0 when a node is not in the model. */
static int _racks(const struct fst_model *m, const char *nodes)
{
	char **names = NULL, err[256];
	int n = 0, nr = 0, seen[64], unknown = 0;

	if (!m || fst_hostlist_expand(nodes, &names, &n, err, sizeof(err)))
		return 0;
	for (int i = 0; i < n; i++) {
		int h = fst_find_host(m, names[i]), r = h >= 0 ? m->hosts[h].rack : -1, k;

		if (r < 0) {
			unknown = 1;
			continue;
		}
		for (k = 0; k < nr && seen[k] != r; k++)
			;
		if (k == nr && nr < 64)
			seen[nr++] = r;
	}
	fst_strv_free(names, n);
	return unknown ? 0 : nr;
}

/* squeue's running and pending jobs into the partitions. */
static int _jobs(struct metrics *mx)
{
	char *const run[] = { "squeue", "--noheader", "--states=RUNNING", "--format=%P %N", NULL };
	char *const pend[] = { "squeue", "--noheader", "--states=PENDING",
			       "--Format=partition:128,system_comment:1024", NULL };
	const struct fs_run o = { .timeout = 60 };
	char *out = NULL, *save = NULL;
	int rc = fs_run(run, &o, &out);

	for (char *l = rc ? NULL : strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char part[128], nodes[4096];
		struct part *p;
		int r;

		if (sscanf(l, "%127s %4095s", part, nodes) != 2 || !(p = _part(mx, part)))
			continue;
		r = _racks(mx->m, nodes);
		if (r == 1)
			p->one_rack++;
		else if (r > 1)
			p->across++;
		else
			p->unknown++;
	}
	free(out);
	out = NULL;
	if (rc)
		return -1;
	rc = fs_run(pend, &o, &out);
	for (char *l = rc ? NULL : strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char part[129];
		struct part *p;

		if (sscanf(l, "%128s", part) != 1 || !(p = _part(mx, part)))
			continue;
		if (strlen(l) > 128 && strstr(l + 128, WAIT_NOTE))
			p->waiting++;
	}
	free(out);
	return rc ? -1 : 0;
}

/* The locality record into the partitions; 0, or -1 with *why. */
static int _share(struct metrics *mx, const char *path, char *why, size_t n)
{
	struct fse_locality *l = fs_cli_read_record(path, why, n);

	for (int k = 0; l && k < fse_locality_nparts(l); k++) {
		struct part *p = _part(mx, fse_locality_part_name(l, k));
		unsigned count = 0;

		if (!p)
			continue;
		p->seen_share = true;
		fs_cli_record_counts(l, k, &p->got, &count);
		p->relaxed = count - p->got;
	}
	fse_locality_free(l);
	return !l || why[0] ? -1 : 0;
}

/* One observation into its partition's counts. */
static void _observation(struct metrics *mx, const struct fse_obs *o)
{
	struct part *p = _part(mx, o->part[0] ? o->part : "-");
	bool held = o->would.kind == FSE_OBS_WAIT;

	if (!p)
		return;
	p->seen_obs = true;
	p->obs[OBS_JOBS]++;
	p->obs[OBS_HELD] += held;
	if (!o->fits) /* the shares count the jobs that fit one domain */
		return;
	p->obs[OBS_FIT]++;
	p->obs[OBS_GOT] += fse_obs_in_domain(&o->got, o->level);
	p->obs[OBS_WOULD] += fse_obs_in_domain(&o->would, o->level);
	p->obs[OBS_HELD_FIT] += held;
}

/* The observation log into the partitions; 0, or -1 with *why (also when
 * it is not there: no partition observes, or none of its jobs started).
 * *bad: its lines not of the form. */
static int _observe(struct metrics *mx, const char *path, unsigned long *bad, char *why, size_t n)
{
	struct fs_obs_log *log = NULL;
	struct fse_obs o;

	*bad = 0;
	if (fs_cli_obs_read(path, &log, why, n))
		return -1;
	if (!fs_cli_obs_nfiles(log)) {
		snprintf(why, n,
			 "%s: not there (nor %s.1): no Locality=observe partition, or "
			 "none of its jobs started yet",
			 path, path);
		fs_cli_obs_free(log);
		return -1;
	}
	for (size_t i = 0; i < log->n; i++)
		if (!fs_cli_obs_get(log, i, &o))
			_observation(mx, &o);
	*bad = fs_cli_obs_warn(log, "fabsched metrics");
	fs_cli_obs_free(log);
	return 0;
}

static void _head(const char *name, const char *type, const char *help)
{
	printf("# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void _source(const char *what, int up, const char *why)
{
	if (!up && why && *why)
		printf("# %s: %s\n", what, why);
	printf("fabsched_source_up{source=\"%s\"} %d\n", what, up);
}

static void _fabric(const struct fst_model *m, const char *slurm_nodes)
{
	long sw = 0, host_links = 0, sw_links = 0, degraded = 0, absent = 0;

	for (int d = 0; d < m->ndevs; d++)
		sw += m->devs[d].type == FST_SWITCH;
	for (int i = 0; i < m->nlinks; i++) {
		if (m->links[i].self_loop)
			continue;
		if (m->links[i].tier < 0)
			host_links++;
		else
			sw_links++;
		degraded += m->links[i].degraded != 0;
	}
	if (slurm_nodes) {
		char **names = NULL, err[256];
		int n = 0;

		if (!fst_hostlist_expand(slurm_nodes, &names, &n, err, sizeof(err))) {
			for (int i = 0; i < n; i++)
				absent += fst_find_host(m, names[i]) < 0;
			fst_strv_free(names, n);
		}
	}
	_head("fabsched_fabric_switches", "gauge", "Switches in the fabric model.");
	printf("fabsched_fabric_switches %ld\n", sw);
	_head("fabsched_fabric_nodes", "gauge", "Compute nodes in the fabric model.");
	printf("fabsched_fabric_nodes %d\n", m->nhosts);
	_head("fabsched_fabric_racks", "gauge",
	      "Racks (locality domains of one leaf) in the fabric model.");
	printf("fabsched_fabric_racks %d\n", m->nracks);
	_head("fabsched_fabric_links", "gauge", "Links of the fabric model, by tier.");
	printf("fabsched_fabric_links{tier=\"host\"} %ld\n", host_links);
	printf("fabsched_fabric_links{tier=\"switch\"} %ld\n", sw_links);
	_head("fabsched_fabric_links_degraded", "gauge",
	      "Links running below their tier's width or speed.");
	printf("fabsched_fabric_links_degraded %ld\n", degraded);
	if (slurm_nodes) {
		_head("fabsched_fabric_nodes_absent", "gauge",
		      "Compute nodes of slurm.conf with no link in the fabric model (every rail down).");
		printf("fabsched_fabric_nodes_absent %ld\n", absent);
	}
}

static void _obs_count(const struct metrics *mx, const char *name, const char *help, int k)
{
	char lab[300];

	_head(name, "gauge", help);
	for (int i = 0; i < mx->n; i++)
		if (mx->p[i].seen_obs)
			printf("%s{partition=\"%s\"} %lu\n", name,
			       _label(mx->p[i].name, lab, sizeof(lab)), mx->p[i].obs[k]);
}

/* The observation log's figures per partition that has observations. */
static void _observed(const struct metrics *mx, bool read, unsigned long bad)
{
	char lab[300];

	_obs_count(mx, "fabsched_observed_jobs",
		   "Jobs of the observation log of Locality=observe "
		   "(the last line of each job).",
		   OBS_JOBS);
	_obs_count(mx, "fabsched_observed_fitting_jobs",
		   "Observed jobs that fit one domain of "
		   "their locality on the idle machine.",
		   OBS_FIT);
	_obs_count(mx, "fabsched_observed_one_domain_got",
		   "Observed fitting jobs that got one "
		   "domain of their locality from Slurm.",
		   OBS_GOT);
	_obs_count(mx, "fabsched_observed_one_domain_would",
		   "Observed fitting jobs fabsched would "
		   "have placed in one domain at once (held jobs not counted).",
		   OBS_WOULD);
	_obs_count(mx, "fabsched_observed_held_jobs",
		   "Observed jobs fabsched would have kept "
		   "waiting for their locality (would=wait).",
		   OBS_HELD);
	_head("fabsched_observed_one_domain_got_ratio", "gauge",
	      "Share of the observed fitting jobs that got one domain.");
	for (int i = 0; i < mx->n; i++)
		if (mx->p[i].seen_obs && mx->p[i].obs[OBS_FIT])
			printf("fabsched_observed_one_domain_got_ratio{partition=\"%s\"} %g\n",
			       _label(mx->p[i].name, lab, sizeof(lab)),
			       (double)mx->p[i].obs[OBS_GOT] / mx->p[i].obs[OBS_FIT]);
	/* a held job waits until its domain is free: it would have got one */
	_head("fabsched_observed_one_domain_would_ratio", "gauge",
	      "Share of the observed fitting jobs fabsched would have placed in one domain, "
	      "at once or after holding them for it (held jobs count as one domain here).");
	for (int i = 0; i < mx->n; i++)
		if (mx->p[i].seen_obs && mx->p[i].obs[OBS_FIT])
			printf("fabsched_observed_one_domain_would_ratio{partition=\"%s\"} %g\n",
			       _label(mx->p[i].name, lab, sizeof(lab)),
			       (double)(mx->p[i].obs[OBS_WOULD] + mx->p[i].obs[OBS_HELD_FIT]) /
				       mx->p[i].obs[OBS_FIT]);
	if (read) {
		_head("fabsched_observed_bad_lines", "gauge",
		      "Lines of the observation log not of its form (not counted).");
		printf("fabsched_observed_bad_lines %lu\n", bad);
	}
}

/* One run: what the command line names, then what was read (NULL where
 * not read; spath and opath: the defaults asked of Slurm, malloc'ed). */
struct metrics_run {
	const char *conf_path, *model_path, *state, *observe;
	bool slurm;
	struct fs_conf *conf;
	struct fst_model *m;
	char *spath, *opath;
	bool obs_read;	   /* the observation log was read */
	unsigned long bad; /* its lines not of the form */
	struct metrics mx;
};

/* The options into @r: -1 to go on, or the exit code (--help, usage
 * error). */
static int _args(int argc, char **argv, struct metrics_run *r)
{
	struct fs_optp op = { .prog = "fabsched metrics", .tab = _metrics_opts };
	int c;

	r->slurm = true;
	while ((c = fs_cli_opt_next(&op, argc, argv)) != -1) {
		switch (c) {
		case 'c':
			r->conf_path = optarg;
			break;
		case 'm':
			r->model_path = optarg;
			break;
		case 's':
			r->state = optarg;
			break;
		case 'O':
			r->observe = optarg;
			break;
		case 'n':
			r->slurm = false;
			break;
		case 'h':
			_usage(stdout);
			return FS_EXIT_OK;
		default:
			return FS_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "fabsched metrics: unexpected argument '%s'\n", argv[optind]);
		return FS_EXIT_USAGE;
	}
	return -1;
}

/* fabsched.conf into r->conf, said as the first source. */
static void _conf_source(struct metrics_run *r)
{
	struct fs_errors *errs = fs_errors_new();
	char why[FS_MSG_SIZE] = "";
	int up = errs && fs_conf_load(r->conf_path, &r->conf, errs) == 0;

	if (!up && errs && fs_errors_count(errs))
		snprintf(why, sizeof(why), "%s", fs_errors_get(errs, 0));
	_head("fabsched_source_up", "gauge", "Whether a source of these figures could be read.");
	_source("fabsched.conf", up, why);
	fs_errors_free(errs);
}

/* The model, squeue's jobs, the locality record and the observation log
 * into @r, each said as a source; the record and the log are asked of
 * Slurm (StateSaveLocation) when not named and Slurm may be asked. */
static void _read_sources(struct metrics_run *r)
{
	char why[FS_MSG_SIZE] = "";
	int up;

	if (!r->model_path && r->conf)
		r->model_path = fs_conf_get_str(r->conf, "FabricModel");
	up = r->model_path && fst_json_read_file(&r->m, r->model_path, why, sizeof(why)) == 0;
	_source("model", up, r->model_path ? why : "no FabricModel");
	r->mx.m = r->m;
	if (r->slurm) {
		up = _jobs(&r->mx) == 0;
		_source("squeue", up, "squeue failed");
	}
	if (!r->state && r->slurm)
		r->state = r->spath = fs_cli_share_file();
	if (r->state) {
		why[0] = '\0';
		up = _share(&r->mx, r->state, why, sizeof(why)) == 0;
		_source("locality_record", up, why);
	}
	if (!r->observe && r->slurm)
		r->observe = r->opath = fs_cli_observe_file();
	if (r->observe) {
		why[0] = '\0';
		r->obs_read = _observe(&r->mx, r->observe, &r->bad, why, sizeof(why)) == 0;
		_source("observe_log", r->obs_read, why);
	}
}

/* The LocalityTarget of each partition of fabsched.conf into its part. */
static void _targets(struct metrics *mx, const struct fs_conf *conf)
{
	for (int i = 0; conf && i < (int)fs_conf_part_count(conf); i++) {
		struct part *p = _part(mx, fs_conf_part_name(conf, i));
		uint64_t ppm;

		if (p && !fs_conf_part_get_uint(conf, p->name, "LocalityTarget", &ppm) && ppm) {
			p->target = (double)ppm / 1e6;
			p->has_target = true;
		}
	}
}

/* squeue's figures per partition: running jobs by racks, waiting jobs. */
static void _running(const struct metrics *mx)
{
	char lab[300];

	_head("fabsched_jobs_running", "gauge",
	      "Running jobs by the racks of the fabric model their nodes span "
	      "(unknown: a node not in the model).");
	for (int i = 0; i < mx->n; i++) {
		_label(mx->p[i].name, lab, sizeof(lab));
		printf("fabsched_jobs_running{partition=\"%s\",racks=\"one\"} %ld\n", lab,
		       mx->p[i].one_rack);
		printf("fabsched_jobs_running{partition=\"%s\",racks=\"several\"} %ld\n", lab,
		       mx->p[i].across);
		printf("fabsched_jobs_running{partition=\"%s\",racks=\"unknown\"} %ld\n", lab,
		       mx->p[i].unknown);
	}
	_head("fabsched_jobs_waiting_locality", "gauge",
	      "Pending jobs that wait for a domain of their locality.");
	for (int i = 0; i < mx->n; i++)
		printf("fabsched_jobs_waiting_locality{partition=\"%s\"} %ld\n",
		       _label(mx->p[i].name, lab, sizeof(lab)), mx->p[i].waiting);
}

/* The locality record's figures per partition, and LocalityTarget. */
static void _record(const struct metrics *mx)
{
	char lab[300];

	_head("fabsched_locality_recent_jobs", "gauge",
	      "slurmctld's locality record: recent jobs that fit one domain of their "
	      "locality, by whether they got one.");
	for (int i = 0; i < mx->n; i++) {
		if (!mx->p[i].seen_share)
			continue;
		_label(mx->p[i].name, lab, sizeof(lab));
		printf("fabsched_locality_recent_jobs{partition=\"%s\",outcome=\"got_domain\"} %u\n",
		       lab, mx->p[i].got);
		printf("fabsched_locality_recent_jobs{partition=\"%s\",outcome=\"relaxed\"} %u\n",
		       lab, mx->p[i].relaxed);
	}
	_head("fabsched_locality_share_ratio", "gauge",
	      "Share of the recent jobs of the record that got their domain.");
	for (int i = 0; i < mx->n; i++)
		if (mx->p[i].seen_share && mx->p[i].got + mx->p[i].relaxed)
			printf("fabsched_locality_share_ratio{partition=\"%s\"} %g\n",
			       _label(mx->p[i].name, lab, sizeof(lab)),
			       (double)mx->p[i].got / (mx->p[i].got + mx->p[i].relaxed));
	_head("fabsched_locality_target_ratio", "gauge",
	      "LocalityTarget of the partition (fabsched.conf).");
	for (int i = 0; i < mx->n; i++)
		if (mx->p[i].has_target)
			printf("fabsched_locality_target_ratio{partition=\"%s\"} %g\n",
			       _label(mx->p[i].name, lab, sizeof(lab)), mx->p[i].target);
}

/* The fabric model's figures, with the compute nodes of slurm.conf
 * ($SLURM_CONF, else the default) that it lacks when slurm.conf is read. */
static void _fabric_figures(const struct fst_model *m)
{
	char *nodes = NULL, msg[256];
	size_t nl = 0;

	if (fs_slurm_conf_nodes(getenv("SLURM_CONF") ? getenv("SLURM_CONF")
						     : FS_SLURM_CONFDIR "/slurm.conf",
				&nodes, &nl, msg, sizeof(msg)))
		nodes = NULL;
	_fabric(m, nodes);
	free(nodes);
}

static int _run(int argc, char **argv)
{
	struct metrics_run r = { 0 };
	int rc = _args(argc, argv, &r);

	if (rc >= 0)
		return rc;
	_conf_source(&r);
	_read_sources(&r);
	_targets(&r.mx, r.conf);
	if (r.slurm)
		_running(&r.mx);
	_record(&r.mx);
	_observed(&r.mx, r.obs_read, r.bad);
	if (r.m)
		_fabric_figures(r.m);
	free(r.mx.p);
	free(r.spath);
	free(r.opath);
	fst_model_free(r.m);
	fs_conf_destroy(r.conf);
	return FS_EXIT_OK;
}

const struct fs_cmd fs_cmd_metrics = {
	.name = "metrics",
	.summary = "placement and fabric figures in the Prometheus text format",
	.run = _run,
	.usage = _usage,
	.opts = _metrics_opts,
};
