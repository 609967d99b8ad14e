/*
 * watch.c — fabsched topo watch: rediscover the fabric every interval
 * through every source given (each local port of a plane or rail, or
 * recorded dumps), merge the planes into one model, and when it differs
 * from the model in place: log each change in one line, write the new
 * model atomically (the old one kept as <model>.prev).  Then decide
 * (watch_decide.c, fw_decide) which HCA is whose node, which nodes to
 * drain or resume and their place features, and carry that out through
 * Slurm's commands (sinfo, scontrol), run without a shell.  This file
 * reads and writes; the decision is made apart, from plain inputs.  Each
 * cycle runs in a child process (_cycle_apart).
 *
 * Every line of the log is made printable as it is written (_log): the
 * fabric's text (descriptions, switch names) reaches it in change lines,
 * errors and counters.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "fabsched_cli.h"
#include "fabsched_conf.h"
#include "fabsched_topo.h"
#include "fs_err.h"
#include "fs_file.h"
#include "fs_values.h"
#include "fs_run.h"
#include "topo_args.h"
#include "watch_decide.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void _on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void _log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void _log(const char *fmt, ...)
{
	va_list ap;
	char ts[32], *line = NULL, *safe = NULL;
	time_t t = time(NULL);
	struct tm tm;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0 || !(safe = malloc(4 * (size_t)n + 300))) {
		free(line);
		return;
	}
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", localtime_r(&t, &tm));
	printf("%s fabsched topo watch: %s\n", ts, fw_printable(safe, 4 * (size_t)n + 300, line));
	fflush(stdout);
	free(line);
	free(safe);
}

static int _change(const char *line, void *arg)
{
	(void)arg;
	_log("%s", line);
	return 0;
}

static int _classify(struct topo_args *a, struct fst_model *m, struct fst_model **out)
{
	char err[FS_MSG_SIZE];

	if (fst_classify(m, &a->opts, err, sizeof(err))) {
		_log("%s", err);
		fst_model_free(m);
		return -1;
	}
	*out = m;
	return 0;
}

/* Through every active local port of a plane not seen yet: a port whose
 * GUID the planes discovered so far hold is on one of them. */
static int _discover_local(struct topo_args *a, struct fst_model **out)
{
	struct fst_local_port lp[32];
	struct fst_model *m = NULL, *one;
	char err[FS_MSG_SIZE];
	int n = fst_local_ports(lp, 32, err, sizeof(err)), planes = 0;

	if (n < 0) {
		_log("%s", err);
		return -1;
	}
	if (n == 0) {
		_log("no active local InfiniBand port: nothing to discover through");
		return -1;
	}
	for (int i = 0; i < n && i < 32; i++) {
		if (m && fst_model_has_port_guid(m, lp[i].port_guid))
			continue;
		if (fst_discover_live(&one, lp[i].ca, lp[i].port, NULL, err, sizeof(err))) {
			_log("%s port %d: %s", lp[i].ca, lp[i].port, err);
			continue;
		}
		planes++;
		if (!m) {
			m = one;
		} else {
			int rc = fst_model_merge(m, one, err, sizeof(err));

			fst_model_free(one);
			if (rc) {
				_log("%s", err);
				fst_model_free(m);
				return -1;
			}
		}
	}
	if (!m)
		return -1;
	if (planes > 1)
		_log("%d planes merged", planes);
	return _classify(a, m, out);
}

/* Every source, merged into one model, classified. */
static int _discover(struct topo_args *a, struct fst_model **out)
{
	struct fst_model *m = NULL, *one;
	char err[FS_MSG_SIZE];
	int rc = 0;

	*out = NULL;
	if (!a->nsources)
		return _discover_local(a, out);
	for (int i = 0; i < a->nsources && !rc; i++) {
		const struct topo_source *s = &a->sources[i];

		if (s->kind == 'i')
			rc = fst_parse_ibnet_file(&one, s->arg, err, sizeof(err));
		else if (s->kind == 'C')
			rc = fst_load_cache(&one, s->arg, err, sizeof(err));
		else if (s->kind == 'E')
			rc = fst_parse_lldp_aged(&one, s->arg, a->lldp_switches, a->lldp_max_age,
						 time(NULL), err, sizeof(err));
		else
			rc = fst_discover_live(&one, s->arg, s->port, NULL, err, sizeof(err));
		if (rc) {
			_log("%s", err);
			break;
		}
		if (!m) {
			m = one;
			continue;
		}
		rc = fst_model_merge(m, one, err, sizeof(err));
		fst_model_free(one);
		if (rc)
			_log("%s", err);
	}
	if (rc) {
		fst_model_free(m);
		return -1;
	}
	return _classify(a, m, out);
}

/* The model written to a temporary file beside @path, synced, the model
 * in place kept as <path>.prev, then renamed over @path. */
static int _write_model(const struct fst_model *m, const char *path)
{
	char *tmp = NULL, *prev = NULL, err[FS_MSG_SIZE];
	FILE *f = NULL;
	int rc = -1, fd = -1;

	if (asprintf(&tmp, "%s.tmp.%d", path, (int)getpid()) < 0 ||
	    asprintf(&prev, "%s.prev", path) < 0) {
		_log("out of memory");
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		_log("%s: cannot write: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	if (fst_json_write(m, f, err, sizeof(err)) || fflush(f) || fsync(fileno(f))) {
		_log("%s: %s", tmp, err[0] ? err : strerror(errno));
		fclose(f);
		unlink(tmp);
		goto out;
	}
	fclose(f);
	unlink(prev);
	if (link(path, prev) && errno != ENOENT)
		_log("%s: cannot keep the previous model: %s", prev, strerror(errno));
	if (rename(tmp, path)) {
		_log("%s: cannot replace: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(tmp);
	free(prev);
	return rc;
}

/* ------------------------------------------------------------ Slurm */

/* Run argv (no shell, bounded to a minute); its stdout into *out
 * (malloc'ed) when out; its exit status. */
static int _run(char *const argv[], char **out)
{
	const struct fs_run o = { .timeout = 60 };

	return fs_run(argv, &o, out);
}

/*
 * Slurm's nodes, read as records of fixed width (watch_decide.h,
 * FW_SINFO_FORMAT): a node's reason or features, whatever they hold (a
 * newline, '|', the text of another node's line: anyone who may drain a
 * node writes a reason, and the watch's own reasons quote the fabric),
 * cannot pass for another node.  sinfo pads and cuts every field the same
 * way on every release fabsched supports.  Not sinfo --json: its form
 * differs between releases (22.05 prints openapi v0.0.38's node records,
 * 24.11 and later a data_parser plugin's sinfo records) and it needs
 * Slurm's JSON plugins, which a build without json-c lacks.  Not a reason
 * fetched per node: a command per drained node per cycle.
 */
static int _slurm_nodes(struct fw_node **out, int *n)
{
	char *const argv[] = { "sinfo", "-h", "-N", "-o", FW_SINFO_FORMAT, NULL };
	char *text = NULL, err[FS_MSG_SIZE];
	int rc = -1;

	*out = NULL;
	*n = 0;
	if (_run(argv, &text) == 0 && text) {
		rc = fw_sinfo_parse(text, strlen(text), out, n, err, sizeof(err));
		if (rc)
			_log("%s", err);
	}
	free(text);
	return rc;
}

/* scontrol update nodename=@node @k1=@v1 [@k2=@v2]: its exit status. */
static int _update_node(const char *node, const char *k1, const char *v1, const char *k2,
			const char *v2)
{
	char *nodearg = NULL, *arg1 = NULL, *arg2 = NULL;
	int rc = -1;

	if (asprintf(&nodearg, "nodename=%s", node) >= 0 && asprintf(&arg1, "%s=%s", k1, v1) >= 0 &&
	    (!v2 || asprintf(&arg2, "%s=%s", k2, v2) >= 0)) {
		char *const argv[] = { "scontrol", "update", nodearg, arg1, arg2, NULL };

		rc = _run(argv, NULL);
	}
	free(nodearg);
	free(arg1);
	free(arg2);
	return rc;
}

/* The seam of fw_apply: scontrol, and the log. */
static int _drain(void *arg, const char *node, const char *reason)
{
	(void)arg;
	return _update_node(node, "state", "drain", "reason", reason);
}

static int _resume(void *arg, const char *node)
{
	(void)arg;
	return _update_node(node, "state", "resume", NULL, NULL);
}

/* both lists: active features must stay a subset of available */
static int _set_features(void *arg, const char *node, const char *features)
{
	(void)arg;
	return _update_node(node, "availablefeatures", features, "activefeatures", features);
}

static void _log_line(void *arg, const char *line)
{
	(void)arg;
	_log("%s", line);
}

/* ------------------------------------------------------------ error counters */

/* The links whose error counters grew by more than FabricErrorLimits
 * since the last cycle, per host ("mlx5_0 port 1 (leaf01 port 2)
 * SymbolErrorCounter +25"). */
struct link_errors {
	const struct fst_model *m;
	const struct fs_ib_err_limits *lim;
	struct host_errors {
		int host;
		char text[400];
	} * v;
	int n;
};

static int _errors_grown(const struct fst_counter *c, int k, uint64_t grown, void *arg)
{
	struct link_errors *le = arg;
	const struct fst_model *m = le->m;
	const struct fst_device *d = &m->devs[c->dev], *hca;
	int h = c->dev, hp = c->port, i;
	const struct fst_port *pt;
	struct host_errors *he;
	const char *dev, *sw;
	char e1[FS_ESCAPE_SIZE], e2[FS_ESCAPE_SIZE];
	size_t o;

	if (d->type == FST_SWITCH) { /* counted at the switch end */
		h = d->ports[c->port].peer;
		hp = d->ports[c->port].peer_port;
	}
	if (h < 0 || (hca = &m->devs[h])->host < 0 || (pt = &hca->ports[hp])->peer < 0)
		return 0;
	dev = fw_hca_name(hca);
	sw = fw_dev_name(m, pt->peer);
	_log("%s port %d (%s %s): %s +%" PRIu64 " since the last cycle, more than %" PRIu64
	     " (counted at %s%s%s port %d)",
	     sw, pt->peer_port, m->hosts[hca->host].name, dev, fs_ib_counter_name(k), grown,
	     le->lim->most[k], d->type == FST_SWITCH ? "" : m->hosts[hca->host].name,
	     d->type == FST_SWITCH ? "" : " ", d->type == FST_SWITCH ? fw_dev_name(m, c->dev) : dev,
	     c->port);
	for (i = 0; i < le->n && le->v[i].host != hca->host; i++)
		;
	if (i == le->n) {
		if (!(he = realloc(le->v, sizeof(*he) * (size_t)(le->n + 1))))
			return 0;
		le->v = he;
		he[le->n].host = hca->host;
		he[le->n++].text[0] = '\0';
	}
	he = &le->v[i];
	o = strlen(he->text);
	snprintf(he->text + o, sizeof(he->text) - o, "%s%s port %d (%s port %d) %s +%" PRIu64,
		 o ? ", " : "", fs_escape(e1, sizeof(e1), dev, strlen(dev)), hp,
		 fs_escape(e2, sizeof(e2), sw, strlen(sw)), pt->peer_port, fs_ib_counter_name(k),
		 grown);
	return 0;
}

/* The local ports to read counters through: every one when the watch
 * discovers through the local ports, else those of its --live sources. */
static int _counter_ports(const struct topo_args *a, struct fst_local_port *lp, int max)
{
	char err[FS_MSG_SIZE];
	int n = fst_local_ports(lp, max, err, sizeof(err)), kept = 0;

	if (n > max)
		n = max;
	if (n <= 0 || !a->nsources)
		return n;
	for (int i = 0; i < n; i++)
		for (int s = 0; s < a->nsources; s++)
			if (a->sources[s].kind == 'L' &&
			    (!a->sources[s].arg || !strcmp(a->sources[s].arg, lp[i].ca)) &&
			    (!a->sources[s].port || a->sources[s].port == lp[i].port)) {
				lp[kept++] = lp[i];
				break;
			}
	return kept;
}

/* Read the error counters of every node's link, compare them with those
 * of the last cycle (<model>.counters) into @le, keep the new ones. */
static void _counters(const struct topo_args *a, const char *path, const struct fst_model *cur,
		      struct link_errors *le)
{
	struct fst_local_port lp[32];
	struct fst_counters now, prev;
	char err[FS_MSG_SIZE], *file = NULL, *tmp = NULL;
	int n, on = 0, rc;
	FILE *f;

	le->m = cur;
	le->lim = &a->limits;
	for (int k = 0; k < FS_IB_NCOUNTERS; k++)
		on |= a->limits.on[k];
	if (!on || (n = _counter_ports(a, lp, 32)) <= 0)
		return;
	if (fst_read_link_counters(cur, lp, n, 200, &now, err, sizeof(err))) {
		_log("%s", err);
		return;
	}
	if (now.unread)
		_log("link counters: %d port(s) not read (no LID: no subnet manager has "
		     "swept the fabric yet; or no answer in 200 ms)",
		     now.unread);
	if (asprintf(&file, "%s.counters", path) < 0 ||
	    asprintf(&tmp, "%s.counters.tmp.%d", path, (int)getpid()) < 0)
		goto out;
	if (access(file, F_OK) == 0) {
		if (fst_counters_read(&prev, file, err, sizeof(err)))
			_log("%s (the counters start anew)", err);
		else
			fst_counters_grown(&prev, &now, &a->limits, _errors_grown, le);
		fst_counters_clear(&prev);
	}
	{
		int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
			      0644);

		if (fd < 0 || !(f = fdopen(fd, "w"))) {
			_log("%s: cannot write: %s", tmp, strerror(errno));
			if (fd >= 0)
				close(fd);
			goto out;
		}
	}
	rc = fst_counters_write(&now, f); /* then closed, in that order */
	rc |= fclose(f);
	if (rc || rename(tmp, file)) {
		_log("%s: cannot write: %s", file, strerror(errno));
		unlink(tmp);
	}
out:
	fst_counters_clear(&now);
	free(file);
	free(tmp);
}

/* ------------------------------------------------------------ bindings and Slurm */

/* <model>.bindings into @b: 1 when read, 0 when there is none yet (or it
 * cannot be read: said, and the bindings start from the model in place). */
static int _read_bindings(const char *file, struct fw_bindings *b)
{
	char err[FS_MSG_SIZE], why[128];
	FILE *f;
	int rc;

	if (access(file, F_OK) && errno == ENOENT)
		return 0;
	if (!(f = fs_fopen_regular(file, why, sizeof(why)))) {
		_log("%s: cannot open: %s (the bindings start from the model in place)", file, why);
		return 0;
	}
	rc = fw_bindings_read(b, f, file, err, sizeof(err));
	fclose(f);
	if (rc)
		_log("%s (the bindings start from the model in place)", err);
	return !rc;
}

/* @b written beside @file, synced, renamed over it. */
static void _write_bindings(const char *file, const struct fw_bindings *b)
{
	char *tmp = NULL;
	FILE *f = NULL;
	int fd = -1;

	if (asprintf(&tmp, "%s.tmp.%d", file, (int)getpid()) < 0) {
		_log("out of memory");
		return;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		_log("%s: cannot write: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
	} else {
		int rc = fw_bindings_write(b, f);

		rc |= fflush(f);
		rc |= fsync(fileno(f));
		rc |= fclose(f);
		if (rc || rename(tmp, file)) {
			_log("%s: cannot write: %s", file, strerror(errno));
			unlink(tmp);
		}
	}
	free(tmp);
}

/* The HCAs the node-name map names (trusted: the administrator's). */
static void _map_guids(const struct topo_args *a, uint64_t **v, int *n)
{
	char err[FS_MSG_SIZE];

	*v = NULL;
	*n = 0;
	if (a->opts.name_map && fw_map_guids(a->opts.name_map, v, n, err, sizeof(err)))
		_log("%s (no HCA named by the map this cycle)", err);
}

/* Bind the HCAs of @cur to their nodes and, unless --no-drain, tell Slurm
 * what the fabric says of its nodes (fw_decide, carried out by fw_apply
 * through scontrol); the bindings kept in <path>.bindings. */
static void _act(const struct topo_args *a, const char *path, const struct fst_model *old,
		 const struct fst_model *cur, const struct link_errors *le)
{
	const struct fw_seam seam = { _drain, _resume, _set_features, _log_line, NULL };
	struct fw_input in = { .old = old, .cur = cur, .on_degraded = a->drain_degraded };
	struct fw_bindings bound = { 0 }, next = { 0 };
	struct fw_actions acts = { 0 };
	struct fw_node *nodes = NULL;
	struct fw_note *notes = NULL;
	uint64_t *mapped = NULL;
	char err[FS_MSG_SIZE], *file = NULL;
	int nnodes = 0, have;

	if (asprintf(&file, "%s.bindings", path) < 0 ||
	    !(notes = calloc((size_t)le->n + 1, sizeof(*notes)))) {
		_log("out of memory");
		free(file);
		return;
	}
	have = _read_bindings(file, &bound);
	in.bound = have ? &bound : NULL;
	_map_guids(a, &mapped, &in.nmapped);
	in.mapped = mapped;
	for (int i = 0; le->m == cur && i < le->n; i++)
		notes[in.nerrors++] =
			(struct fw_note){ cur->hosts[le->v[i].host].name, le->v[i].text };
	in.errors = notes;
	if (a->drain && _slurm_nodes(&nodes, &nnodes))
		_log("sinfo failed: no node drained or resumed this time");
	in.nodes = nodes;
	in.nnodes = nnodes;
	if (fw_decide(&in, &next, &acts, err, sizeof(err))) {
		_log("%s", err);
	} else {
		fw_apply(&acts, &seam);
		if (!have || !fw_bindings_equal(&bound, &next))
			_write_bindings(file, &next);
	}
	fw_actions_free(&acts);
	fw_bindings_clear(&next);
	fw_bindings_clear(&bound);
	fw_nodes_free(nodes, nnodes);
	free(mapped);
	free(notes);
	free(file);
}

/* ------------------------------------------------------------ the loop */

static int _switches(const struct fst_model *m)
{
	int n = 0;

	for (int d = 0; d < m->ndevs; d++)
		n += m->devs[d].type == FST_SWITCH;
	return n;
}

static int _cycle(struct topo_args *a, const char *path)
{
	struct fst_model *cur = NULL, *old = NULL;
	struct link_errors le = { 0 };
	char err[FS_MSG_SIZE];
	int changes;

	if (_discover(a, &cur))
		return -1;
	if (access(path, F_OK) == 0 && fst_json_read_file(&old, path, err, sizeof(err))) {
		_log("%s (replaced by the fabric as discovered now)", err);
		old = NULL;
	}
	changes = old ? fst_model_changes(old, cur, _change, NULL) : 1;
	if (!old)
		_log("%s: %d switches, %d nodes in %d racks", path, _switches(cur), cur->nhosts,
		     cur->nracks);
	if (changes > 0 && _write_model(cur, path) == 0 && old)
		_log("%s: %d change(s) written (previous model in %s.prev)", path, changes, path);
	_counters(a, path, cur, &le);
	_act(a, path, old, cur, &le);
	free(le.v);
	fst_model_free(old);
	fst_model_free(cur);
	return 0;
}

/*
 * One cycle in a child process, the watch waiting for it.  Discovery and
 * the link counters go through libibnetdisc and libibmad, which do not give
 * back all they allocate (rdma-core before 49.1 loses 64 bytes per switch
 * port at every discovery: add_to_portlid_hash) and may fail hard on a
 * fabric they do not expect.  The watch runs for months: it keeps neither.
 * Cycles share nothing but files (the model, its .counters and .bindings).  A signal
 * that stops the watch reaches the child too, which ends its cycle first.
 */
static int _cycle_apart(struct topo_args *a, const char *path)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		_log("cannot start a cycle apart (fork: %s): running it in the watch",
		     strerror(errno));
		return _cycle(a, path);
	}
	if (pid == 0) {
		/* exit, not _exit: the libraries' destructors run (libibumad
		 * closes its ports; ibsim's client library detaches) */
		exit(_cycle(a, path) ? 1 : 0);
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			_log("cycle %d: waitpid: %s", (int)pid, strerror(errno));
			return -1;
		}
	}
	if (WIFSIGNALED(st)) {
		_log("cycle ended by signal %d (%s); the model in place is kept", WTERMSIG(st),
		     strsignal(WTERMSIG(st)));
		return -1;
	}
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int fs_cli_topo_watch(struct topo_args *a)
{
	struct fs_errors *errs = fs_errors_new();
	struct fs_conf *conf = NULL;
	const char *path = a->output;
	uint64_t interval = a->interval;
	int rc = FS_EXIT_OK;

	if (!errs || fs_conf_load(a->conf_path, &conf, errs)) {
		fs_errors_print(errs, stderr);
		fs_errors_free(errs);
		return FS_EXIT_INPUT;
	}
	fs_errors_free(errs);
	if (!path)
		path = fs_conf_get_str(conf, "FabricModel");
	if (!interval)
		fs_conf_get_uint(conf, "FabricWatchInterval", &interval);
	if (!a->opts.compute_hca)
		a->opts.compute_hca = fs_conf_get_str(conf, "FabricComputeHca");
	/* the administrator's names: also those that accept an HCA */
	if (!a->opts.name_map)
		a->opts.name_map = fs_conf_get_str(conf, "NodeNameMap");
	{
		bool b = false;

		const char *lim = fs_conf_get_str(conf, "FabricErrorLimits");
		char err[FS_MSG_SIZE];

		fs_conf_get_bool(conf, "DrainOnDegradedLink", &b);
		a->drain_degraded = b;
		/* checked when fabsched.conf was loaded */
		if (fs_ib_parse_err_limits("FabricErrorLimits",
					   lim ? lim : FS_IB_ERR_LIMITS_DEFAULT, &a->limits, err,
					   sizeof(err)))
			_log("%s", err);
	}
	if (!path || !*path || !strcmp(path, "-")) {
		fprintf(stderr,
			"fabsched topo watch: no model file: expected -o FILE or "
			"FabricModel in %s\n",
			fs_conf_source(conf));
		fs_conf_destroy(conf);
		return FS_EXIT_USAGE;
	}
	if (!interval)
		interval = 60;
	signal(SIGTERM, _on_signal);
	signal(SIGINT, _on_signal);
	{
		char when[64], from[64];

		if (a->once)
			snprintf(when, sizeof(when), "one discovery");
		else
			snprintf(when, sizeof(when), "every %llu s", (unsigned long long)interval);
		if (a->nsources)
			snprintf(from, sizeof(from), "%d source%s given", a->nsources,
				 a->nsources > 1 ? "s" : "");
		else
			snprintf(from, sizeof(from), "every active local port, one per plane");
		_log("%s: %s, from %s%s%s", path, when, from,
		     a->drain ? "; drains nodes whose every rail is down" : "; reports only",
		     a->drain && a->drain_degraded ? " or whose link is degraded or counts errors"
						   : "");
	}
	do {
		if (_cycle_apart(a, path) && a->once)
			rc = FS_EXIT_INPUT;
		for (uint64_t s = 0; !a->once && !stop && s < interval; s++)
			sleep(1);
	} while (!a->once && !stop);
	fs_conf_destroy(conf);
	return rc;
}
