/*
 * fabsched job JOBID — what fabsched decided for one job and why, from
 * Slurm's own JSON (squeue --json: every release's data_parser schema,
 * numbers plain or as {"set", "number"}, states as a string or a list),
 * slurmctld's locality record and the fabric model:
 *   - pending: fabsched's note (what it waits for), since when, until when
 *     (LocalityWait of its partition), and the partition's locality share
 *     against its LocalityTarget;
 *   - running or ended: its nodes' racks and pods, the most switch hops
 *     between the leaves of two of its nodes, fabsched's note when its
 *     locality was relaxed, and per node the CPUs and gres Slurm gave it
 *     and the node's record (JobRecordDir, job_record.c);
 *   - in a Locality=observe partition, what fabsched would have done
 *     beside what the job got (the observation log, observe_log.c).
 * Human text, or --json for scripts.  Never parses slurmctld's log.
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
#include "fs_json.h"
#include "fs_run.h"
#include "fs_values.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* fabsched(1), JOB. */
static const struct fs_opt _job_opts[] = {
	{ 'j', 0, "json", NULL, "one JSON object instead of text", NULL, NULL },
	FS_OPTS_CONF_MODEL,
	{ 's', 0, "state", "FILE", "slurmctld's locality record (default: in StateSaveLocation)",
	  NULL, NULL },
	{ 'r', 0, "records", "DIR",
	  "the nodes' job records (default: JobRecordDir of\nfabsched.conf)", NULL, NULL },
	{ 'O', 0, "observe", "FILE",
	  "the observation log of Locality=observe (default:\n"
	  "fabsched_observe in StateSaveLocation)",
	  NULL, NULL },
	{ 'h', 'h', "help", NULL, "this help", NULL, NULL },
	{ 0, 0, NULL, NULL, NULL, NULL, NULL }
};

static void _usage(FILE *out)
{
	fprintf(out,
		"usage: fabsched job JOBID [--json] [--conf FILE] [--model FILE] [--state FILE]\n"
		"                          [--records DIR] [--observe FILE]\n"
		"\n"
		"What fabsched decided for the job and why: for a pending job what it\n"
		"waits for, since and until when, and its partition's locality share;\n"
		"for a running or ended job its racks, pods, the switch hops between\n"
		"its nodes and, per node, the CPUs and gres Slurm gave it and what the\n"
		"node recorded: HCAs and hugepages per NUMA node, scratch, each task's\n"
		"CPUs and HCA; in a Locality=observe partition, what fabsched would\n"
		"have done beside what the job got (fabsched(1), JOB).\n");
	fs_cli_opt_help(out, _job_opts);
	fprintf(out, "\nexit codes: 0 shown, 1 the job is not known to slurmctld or Slurm\n"
		     "cannot be asked, 2 usage error\n");
}

/* The job's record in squeue --json, or NULL (*all holds the document). */
static json_object *_find_job(uint32_t id, json_object **all, char *why, size_t n)
{
	/* every state: a job that ended is kept MinJobAge, and shown */
	char *const argv[] = { "squeue", "--json", "--states=all", NULL };
	const struct fs_run o = { .timeout = 60 };
	char *out = NULL;
	json_object *jobs;
	int rc = fs_run(argv, &o, &out);

	*all = NULL;
	if (rc) {
		char how[96];

		snprintf(why, n, "squeue --json: %s", fs_run_status(rc, how, sizeof(how)));
		free(out);
		return NULL;
	}
	*all = out ? json_tokener_parse(out) : NULL;
	free(out);
	if (!*all || !json_object_object_get_ex(*all, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array)) {
		snprintf(why, n,
			 "squeue --json: not the JSON of Slurm's data_parser (no \"jobs\" list)");
		return NULL;
	}
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *j = json_object_array_get_idx(jobs, i);
		int64_t v;

		if (fs_json_num(j, "job_id", &v) && v == (int64_t)id)
			return j;
	}
	snprintf(why, n,
		 "job %u: not known to slurmctld (ended more than MinJobAge ago, or "
		 "never submitted)",
		 id);
	return NULL;
}

/* Per node: name, CPUs, the cores by socket, gres, from job_resources of
 * either schema. */
struct node_use {
	char name[128];
	int64_t cpus;
	char cores[512]; /* "s0:c0,c1 s1:c8" */
	char gres[256];
};

static bool _allocated(json_object *st)
{
	if (json_object_is_type(st, json_type_string))
		return strstr(json_object_get_string(st), "allocated") ||
		       strstr(json_object_get_string(st), "ALLOCATED");
	for (size_t i = 0;
	     json_object_is_type(st, json_type_array) && i < json_object_array_length(st); i++)
		if (_allocated(json_object_array_get_idx(st, i)))
			return true;
	return false;
}

/* The allocated cores of one node: sockets{"0": {cores{"0": "allocated"}}}
 * (0.0.38-0.0.39) or sockets[{index, cores[{index, status[]}]}]. */
static int _cores(json_object *a, char *out, size_t n)
{
	json_object *socks;
	size_t o = 0;
	int count = 0;

	out[0] = '\0';
	if (!json_object_object_get_ex(a, "sockets", &socks) || !socks)
		return 0;
	if (json_object_is_type(socks, json_type_object)) {
		json_object_object_foreach(socks, sk, sv)
		{
			json_object *cores;
			bool first = true;

			if (!json_object_object_get_ex(sv, "cores", &cores) ||
			    !json_object_is_type(cores, json_type_object))
				continue;
			json_object_object_foreach(cores, ck, cv)
			{
				if (!_allocated(cv) || o + 16 >= n)
					continue;
				if (first)
					o += (size_t)snprintf(out + o, n - o,
							      "%ss%s:", o ? " " : "", sk);
				o += (size_t)snprintf(out + o, n - o, "%sc%s", first ? "" : ",",
						      ck);
				first = false;
				count++;
			}
		}
	} else if (json_object_is_type(socks, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(socks); i++) {
			json_object *sv = json_object_array_get_idx(socks, i), *cores;
			int64_t si = (int64_t)i;
			bool first = true;

			fs_json_num(sv, "index", &si);
			if (!json_object_object_get_ex(sv, "cores", &cores) ||
			    !json_object_is_type(cores, json_type_array))
				continue;
			for (size_t k = 0; k < json_object_array_length(cores); k++) {
				json_object *cv = json_object_array_get_idx(cores, k), *status;
				int64_t ci = (int64_t)k;

				fs_json_num(cv, "index", &ci);
				if (!json_object_object_get_ex(cv, "status", &status) ||
				    !_allocated(status) || o + 24 >= n)
					continue;
				if (first)
					o += (size_t)snprintf(out + o, n - o, "%ss%" PRId64 ":",
							      o ? " " : "", si);
				o += (size_t)snprintf(out + o, n - o, "%sc%" PRId64,
						      first ? "" : ",", ci);
				first = false;
				count++;
			}
		}
	}
	return count;
}

static int _nodes_used(json_object *j, struct node_use *u, int max)
{
	json_object *res, *nodes, *list = NULL, *gres = NULL;
	int n = 0;

	if (!json_object_object_get_ex(j, "job_resources", &res) || !res)
		return 0;
	/* 0.0.38-0.0.39: allocated_nodes[]{nodename, cpus}; later:
	   nodes{allocation[]{name, cpus{count}}} */
	if (!json_object_object_get_ex(res, "allocated_nodes", &list) &&
	    json_object_object_get_ex(res, "nodes", &nodes) &&
	    json_object_is_type(nodes, json_type_object))
		json_object_object_get_ex(nodes, "allocation", &list);
	json_object_object_get_ex(j, "gres_detail", &gres);
	for (size_t i = 0; list && json_object_is_type(list, json_type_array) &&
			   i < json_object_array_length(list) && n < max;
	     i++) {
		json_object *a = json_object_array_get_idx(list, i), *c;
		const char *name = fs_json_str(a, "nodename");
		int64_t cpus = -1;

		if (!*name)
			name = fs_json_str(a, "name");
		int cores;

		if (!fs_json_num(a, "cpus", &cpus) && json_object_object_get_ex(a, "cpus", &c))
			fs_json_num(c, "count", &cpus);
		snprintf(u[n].name, sizeof(u[n].name), "%s", name);
		cores = _cores(a, u[n].cores, sizeof(u[n].cores));
		u[n].cpus = cpus >= 0 ? cpus : cores ? cores : -1;
		u[n].gres[0] = '\0';
		if (gres && json_object_is_type(gres, json_type_array) &&
		    i < json_object_array_length(gres))
			snprintf(u[n].gres, sizeof(u[n].gres), "%s",
				 json_object_get_string(json_object_array_get_idx(gres, i)));
		n++;
	}
	return n;
}

static char *_time(int64_t t, char *buf, size_t n)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (t <= 0 || !localtime_r(&tt, &tm))
		snprintf(buf, n, "-");
	else
		strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm);
	return buf;
}

/*
 * fabsched's notes in a SystemComment ("fabsched: ..." parts), into @out.
 * A job no longer pending is past its wait: the waiting note, which
 * slurmctld drops at the job's start (on 24.11 and later at worst at its
 * next placement call), is not shown for it.
 */
static void _notes(const char *sc, bool pending, json_object *arr, FILE *text)
{
	const char *p = sc;

	while (p && (p = strstr(p, "fabsched: "))) {
		const char *end = strstr(p, "; fabsched: ");
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (!pending && !strncmp(p, FS_WAIT_NOTE, strlen(FS_WAIT_NOTE))) {
			p += len;
			continue;
		}
		if (arr)
			json_object_array_add(arr, json_object_new_string_len(p, (int)len));
		if (text) {
			char esc[FS_ESCAPE_SIZE];

			fprintf(text, "  note       %s\n", fs_escape(esc, sizeof(esc), p, len));
		}
		p += len;
	}
}

/* The partition's line of the locality record: got of count. */
static bool _record(const char *path, const char *part, unsigned *got, unsigned *count)
{
	char why[512];
	struct fse_locality *l = fs_cli_read_record(path, why, sizeof(why));
	bool ok = false;

	for (int k = 0; l && k < fse_locality_nparts(l) && !ok; k++)
		if (!strcmp(fse_locality_part_name(l, k), part)) {
			fs_cli_record_counts(l, k, got, count);
			ok = true;
		}
	fse_locality_free(l);
	return ok;
}

/* Racks, pods and the most switch hops between two of the nodes' leaves. */
static void _place(const struct fst_model *m, const char *nodes, json_object *jo, FILE *text)
{
	char **names = NULL, err[256], racks[1024] = "", pods[1024] = "";
	int n = 0, leaves[256], nl = 0, nr = 0, np = 0, hops = 0, unknown = 0;
	int rk[256], pd[256];
	json_object *jr = json_object_new_array(), *jp = json_object_new_array();

	if (m && !fst_hostlist_expand(nodes, &names, &n, err, sizeof(err))) {
		for (int i = 0; i < n; i++) {
			int h = fst_find_host(m, names[i]), k;

			if (h < 0) {
				unknown++;
				continue;
			}
			for (k = 0; k < nl && leaves[k] != m->hosts[h].leaf; k++)
				;
			if (k == nl && nl < 256)
				leaves[nl++] = m->hosts[h].leaf;
			for (k = 0; k < nr && rk[k] != m->hosts[h].rack; k++)
				;
			if (k == nr && nr < 256 && m->hosts[h].rack >= 0) {
				rk[nr++] = m->hosts[h].rack;
				json_object_array_add(jr, json_object_new_string(
								  m->racks[m->hosts[h].rack].name));
				snprintf(racks + strlen(racks), sizeof(racks) - strlen(racks),
					 "%s%s", nr > 1 ? "," : "",
					 m->racks[m->hosts[h].rack].name);
			}
			for (k = 0; k < np && pd[k] != m->hosts[h].pod; k++)
				;
			if (k == np && np < 256 && m->hosts[h].pod >= 0) {
				pd[np++] = m->hosts[h].pod;
				json_object_array_add(
					jp, json_object_new_string(m->pods[m->hosts[h].pod].name));
				snprintf(pods + strlen(pods), sizeof(pods) - strlen(pods), "%s%s",
					 np > 1 ? "," : "", m->pods[m->hosts[h].pod].name);
			}
		}
		for (int a = 0; a < nl; a++)
			for (int b = a + 1; b < nl; b++) {
				int d = fst_switch_hops(m, leaves[a], leaves[b]);

				if (d > hops)
					hops = d;
			}
		fst_strv_free(names, n);
	}
	json_object_object_add(jo, "racks", jr);
	json_object_object_add(jo, "pods", jp);
	json_object_object_add(jo, "switch_hops", m && n ? json_object_new_int(hops) : NULL);
	json_object_object_add(jo, "nodes_not_in_model", json_object_new_int(unknown));
	if (text && m) {
		fprintf(text, "  racks      %d (%s)\n  pods       %d (%s)\n", nr, racks, np, pods);
		fprintf(text,
			"  hops       %d switch-to-switch link(s) at most between two of its nodes\n",
			hops);
		if (unknown)
			fprintf(text, "  note       %d node(s) not in the fabric model\n", unknown);
	}
}

/*
 * Job @id's observation (Locality=observe) from the log at @path (NULL:
 * the one in StateSaveLocation) into jo's "observed" (null: none) and a
 * line of @text.  A log named by --observe that is not there is said; the
 * default one is not there where no partition observes.
 */
static void _observed(const char *path, uint32_t id, uint32_t task, json_object *jo, FILE *text)
{
	char *dflt = path ? NULL : fs_cli_observe_file(), why[FS_MSG_SIZE], line[1200];
	struct fs_obs_log *log = NULL;
	struct fse_obs o;
	bool found = false;

	if (path || (path = dflt)) {
		if (fs_cli_obs_read(path, &log, why, sizeof(why)))
			fprintf(stderr, "fabsched job: %s (observation not shown)\n", why);
		else if (!fs_cli_obs_nfiles(log) && !dflt)
			fprintf(stderr,
				"fabsched job: %s: no observation log there (nor %s.1); "
				"expected the fabsched_observe of a Locality=observe partition\n",
				path, path);
		fs_cli_obs_warn(log, "fabsched job");
		found = log && !fs_cli_obs_job(log, id, task, &o);
	}
	json_object_object_add(jo, "observed", found ? fs_cli_obs_json(&o) : NULL);
	if (found && text) /* the log's text is printable ASCII (fse_obs_parse) */
		fprintf(text, "  observed   %s\n", fs_cli_obs_sentence(&o, line, sizeof(line)));
	fs_cli_obs_free(log);
	free(dflt);
}

/* What the command line asks: the job, the output, where to read. */
struct job_args {
	const char *conf_path, *model_path, *state, *records, *observe;
	bool as_json;
	unsigned long id;
};

/* The job being shown, and where: jo always (printed with --json), text
 * (stdout) unless --json.  conf and m are NULL where not read. */
struct job_view {
	unsigned long id;
	json_object *j; /* squeue's object of the job */
	json_object *jo;
	FILE *text;
	const struct fs_conf *conf;
	const struct fst_model *m;
	const char *st, *part; /* its state and partition */
};

/* The options and the job id into @a: -1 to go on, or the exit code
 * (--help, usage error). */
static int _args(int argc, char **argv, struct job_args *a)
{
	struct fs_optp op = { .prog = "fabsched job", .tab = _job_opts };
	char *end;
	int c;

	while ((c = fs_cli_opt_next(&op, argc, argv)) != -1) {
		switch (c) {
		case 'j':
			a->as_json = true;
			break;
		case 'c':
			a->conf_path = optarg;
			break;
		case 'm':
			a->model_path = optarg;
			break;
		case 's':
			a->state = optarg;
			break;
		case 'r':
			a->records = optarg;
			break;
		case 'O':
			a->observe = optarg;
			break;
		case 'h':
			_usage(stdout);
			return FS_EXIT_OK;
		default:
			return FS_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		_usage(stderr);
		return FS_EXIT_USAGE;
	}
	errno = 0;
	a->id = strtoul(argv[optind], &end, 10);
	if (errno || *end || !a->id || a->id > UINT32_MAX) {
		fprintf(stderr,
			"fabsched job: '%s': not a job id; expected a number from 1 to %u\n",
			argv[optind], UINT32_MAX);
		return FS_EXIT_USAGE;
	}
	return -1;
}

/* fabsched.conf and the fabric model into *conf and *m: each optional,
 * what cannot be read is said and what it would show is left out. */
static void _settings(const struct job_args *a, struct fs_conf **conf, struct fst_model **m)
{
	const char *model_path = a->model_path;
	struct fs_errors *errs = fs_errors_new();
	char why[1024];

	if (errs && fs_conf_load(a->conf_path, conf, errs) && fs_errors_count(errs))
		fprintf(stderr, "fabsched job: %s (settings of fabsched.conf not shown)\n",
			fs_errors_get(errs, 0));
	fs_errors_free(errs);
	if (!model_path && *conf)
		model_path = fs_conf_get_str(*conf, "FabricModel");
	if (model_path && fst_json_read_file(m, model_path, why, sizeof(why)))
		fprintf(stderr, "fabsched job: %s (racks not shown)\n", why);
}

/* Who, where, in what state, submitted when, and fabsched's notes. */
static void _header(const struct job_view *v, int64_t submit)
{
	json_object *notes;
	char t1[32];

	json_object_object_add(v->jo, "job_id", json_object_new_int64((int64_t)v->id));
	json_object_object_add(v->jo, "name", json_object_new_string(fs_json_str(v->j, "name")));
	json_object_object_add(v->jo, "user",
			       json_object_new_string(fs_json_str(v->j, "user_name")));
	json_object_object_add(v->jo, "partition", json_object_new_string(v->part));
	json_object_object_add(v->jo, "state", json_object_new_string(v->st));
	json_object_object_add(v->jo, "reason",
			       json_object_new_string(fs_json_str(v->j, "state_reason")));
	json_object_object_add(v->jo, "submit_time", json_object_new_int64(submit));
	if (v->text) { /* the job's name is its user's text: shown printable */
		char e1[FS_ESCAPE_SIZE], e2[FS_ESCAPE_SIZE], e3[FS_ESCAPE_SIZE];
		const char *nm = fs_json_str(v->j, "name"), *us = fs_json_str(v->j, "user_name");

		fprintf(v->text, "job %lu (%s) of %s, partition %s: %s\n  submitted  %s\n", v->id,
			fs_escape(e1, sizeof(e1), nm, strlen(nm)),
			fs_escape(e2, sizeof(e2), us, strlen(us)),
			fs_escape(e3, sizeof(e3), v->part, strlen(v->part)), v->st,
			_time(submit, t1, sizeof(t1)));
	}
	notes = json_object_new_array();
	_notes(fs_json_str(v->j, "system_comment"), !strcmp(v->st, "PENDING"), notes, v->text);
	json_object_object_add(v->jo, "fabsched_notes", notes);
}

/* A pending job: since and until when it waits (LocalityWait of its
 * partition), and the partition's share in the locality record at
 * @state (NULL: the one in StateSaveLocation) against LocalityTarget. */
static void _pending(const struct job_view *v, const char *state, int64_t submit, int64_t eligible)
{
	const struct fs_conf *conf = v->conf;
	const char *part = v->part;
	FILE *text = v->text;
	int64_t since = eligible > 0 ? eligible : submit;
	uint64_t wait = 0, ppm = 0;
	json_object *w = json_object_new_object();
	unsigned got = 0, count = 0;
	bool has_loc = conf && !fs_conf_part_get_uint(conf, part, "LocalityWait", &wait);
	char t1[32], t2[32], *spath = NULL;

	if (conf)
		fs_conf_part_get_uint(conf, part, "LocalityTarget", &ppm);
	json_object_object_add(
		w, "locality",
		conf ? json_object_new_string(fs_conf_part_get_str(conf, part, "Locality") ?: "any")
		     : NULL);
	json_object_object_add(w, "since", json_object_new_int64(since));
	json_object_object_add(w, "until",
			       has_loc && wait != FS_DURATION_INFINITE
				       ? json_object_new_int64(since + (int64_t)wait)
				       : NULL);
	if (text)
		fprintf(text,
			"  waits      since %s, until %s (Locality %s, LocalityWait %s of "
			"partition %s)\n",
			_time(since, t1, sizeof(t1)),
			has_loc && wait != FS_DURATION_INFINITE
				? _time(since + (int64_t)wait, t2, sizeof(t2))
				: "no bound",
			conf ? fs_conf_part_get_str(conf, part, "Locality") ?: "any" : "?",
			conf ? fs_conf_part_get_str(conf, part, "LocalityWait") ?: "0" : "?", part);
	if (!state)
		state = spath = fs_cli_share_file();
	if (_record(state, part, &got, &count)) {
		json_object_object_add(w, "record_got_domain", json_object_new_int((int)got));
		json_object_object_add(w, "record_jobs", json_object_new_int((int)count));
		if (text)
			fprintf(text,
				"  share      %u of the last %u jobs of %s that fit one domain "
				"got one%s\n",
				got, count, part, ppm ? "" : " (no LocalityTarget)");
	}
	json_object_object_add(w, "target", ppm ? json_object_new_double((double)ppm / 1e6) : NULL);
	if (text && ppm)
		fprintf(text, "  target     LocalityTarget %g%%\n", (double)ppm / 1e4);
	json_object_object_add(v->jo, "waiting", w);
	json_object_object_add(v->jo, "observed", NULL); /* recorded at its start */
	free(spath);
}

/* Per node of a started job: the CPUs, cores and gres Slurm gave it, and
 * what the node's prolog and the tasks recorded in @rdir (NULL: none). */
static void _per_node(const struct job_view *v, const char *rdir)
{
	struct node_use use[256];
	int nuse = _nodes_used(v->j, use, 256);
	json_object *per = json_object_new_array();
	char t1[32];

	for (int i = 0; i < nuse; i++) {
		json_object *u = json_object_new_object();

		json_object_object_add(u, "name", json_object_new_string(use[i].name));
		json_object_object_add(
			u, "cpus", use[i].cpus >= 0 ? json_object_new_int64(use[i].cpus) : NULL);
		json_object_object_add(u, "cores", json_object_new_string(use[i].cores));
		json_object_object_add(u, "gres", json_object_new_string(use[i].gres));
		json_object_array_add(per, u);
		if (v->text)
			fprintf(v->text, "  %-10s cpus %s%s%s%s%s\n", use[i].name,
				use[i].cpus >= 0
					? (snprintf(t1, sizeof(t1), "%" PRId64, use[i].cpus), t1)
					: "?",
				use[i].cores[0] ? "  cores " : "", use[i].cores,
				use[i].gres[0] ? "  gres " : "", use[i].gres);
		/* what the node's prolog and the tasks recorded */
		json_object_object_add(
			u, "record",
			rdir ? fs_cli_job_record(rdir, (uint32_t)v->id, use[i].name, v->text)
			     : NULL);
	}
	json_object_object_add(v->jo, "per_node", per);
	if (v->text && !rdir && nuse)
		fprintf(v->text,
			"  records    (no record: JobRecordDir is not set in fabsched.conf)\n");
}

/* A running or ended job: its nodes, their racks and pods, what
 * Locality=observe would have done, then per node. */
static void _started(const struct job_view *v, const struct job_args *a, int64_t start,
		     int64_t endt)
{
	const char *nodes = fs_json_str(v->j, "nodes"), *rdir;
	int64_t aj = 0, at = -1;
	char t1[32];

	json_object_object_add(v->jo, "nodes", json_object_new_string(nodes));
	json_object_object_add(v->jo, "start_time", json_object_new_int64(start));
	json_object_object_add(v->jo, "end_time", json_object_new_int64(endt));
	if (v->text)
		fprintf(v->text, "  started    %s on %s\n", _time(start, t1, sizeof(t1)), nodes);
	_place(v->m, nodes, v->jo, v->text);
	/* a task of an array is recorded as squeue names it */
	if (fs_json_num(v->j, "array_job_id", &aj) && aj > 0 && aj <= UINT32_MAX &&
	    fs_json_num(v->j, "array_task_id", &at) && at >= 0 && at < FSE_NO_TASK - 1)
		_observed(a->observe, (uint32_t)aj, (uint32_t)at, v->jo, v->text);
	else
		_observed(a->observe, (uint32_t)v->id, FSE_NO_TASK, v->jo, v->text);
	rdir = a->records ? a->records : v->conf ? fs_conf_get_str(v->conf, "JobRecordDir") : NULL;
	if (rdir && !*rdir)
		rdir = NULL;
	_per_node(v, rdir);
}

static int _run(int argc, char **argv)
{
	struct job_args a = { 0 };
	struct job_view v = { 0 };
	struct fs_conf *conf = NULL;
	struct fst_model *m = NULL;
	json_object *all = NULL;
	int64_t submit = 0, eligible = 0, start = 0, endt = 0;
	char why[1024];
	int rc = _args(argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (!(v.j = _find_job((uint32_t)a.id, &all, why, sizeof(why)))) {
		fprintf(stderr, "fabsched job: %s\n", why);
		json_object_put(all);
		return FS_EXIT_INPUT;
	}
	_settings(&a, &conf, &m);
	v.id = a.id;
	v.conf = conf;
	v.m = m;
	v.st = fs_json_str(v.j, "job_state");
	v.part = fs_json_str(v.j, "partition");
	fs_json_num(v.j, "submit_time", &submit);
	fs_json_num(v.j, "eligible_time", &eligible);
	fs_json_num(v.j, "start_time", &start);
	fs_json_num(v.j, "end_time", &endt);
	v.text = a.as_json ? NULL : stdout;
	v.jo = json_object_new_object();
	_header(&v, submit);
	if (!strcmp(v.st, "PENDING"))
		_pending(&v, a.state, submit, eligible);
	else
		_started(&v, &a, start, endt);
	if (a.as_json)
		printf("%s\n",
		       json_object_to_json_string_ext(
			       v.jo, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(v.jo);
	json_object_put(all);
	fst_model_free(m);
	fs_conf_destroy(conf);
	return FS_EXIT_OK;
}

const struct fs_cmd fs_cmd_job = {
	.name = "job",
	.summary = "what fabsched decided for one job, and why",
	.run = _run,
	.usage = _usage,
	.opts = _job_opts,
};
