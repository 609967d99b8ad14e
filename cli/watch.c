/*
 * watch.c — fabsched topo watch: rediscover the fabric every interval
 * through every source given (each local port of a plane or rail, or
 * recorded dumps), merge the planes into one model, and when it differs
 * from the model in place: log each change in one line, write the new
 * model atomically (the old one kept as <model>.prev), and tell Slurm:
 * drain a node whose every rail went down, resume a node fabsched drained
 * once all its rails are back.  Nodes drained by anyone else are left
 * alone.  Slurm is reached through its commands (sinfo, scontrol), run
 * without a shell.  Each cycle runs in a child process (_cycle_apart).
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "fabsched_cli.h"
#include "fabsched_conf.h"
#include "fabsched_topo.h"
#include "fs_err.h"
#include "fs_run.h"
#include "topo_args.h"

#include <ctype.h>
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

#define REASON_PREFIX "fabsched: "

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
	char ts[32];
	time_t t = time(NULL);
	struct tm tm;

	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", localtime_r(&t, &tm));
	printf("%s fabsched topo watch: ", ts);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
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

struct node_state {
	char *name, *state, *reason, *features;
};

/* sinfo's view of every node: name, state, reason. */
static int _slurm_nodes(struct node_state **out, int *n)
{
	char *const argv[] = { "sinfo", "-h", "-N", "-o", "%N|%T|%f|%E", NULL };
	char *text = NULL, *save = NULL;
	int cap = 0;

	*out = NULL;
	*n = 0;
	if (_run(argv, &text) || !text) {
		free(text);
		return -1;
	}
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *s1 = strchr(l, '|'), *s2 = s1 ? strchr(s1 + 1, '|') : NULL;
		char *s3 = s2 ? strchr(s2 + 1, '|') : NULL;
		struct node_state *ns;

		if (!s3)
			continue;
		*s1 = *s2 = *s3 = '\0';
		if (*n && !strcmp((*out)[*n - 1].name, l))
			continue;	/* sinfo -N: once per partition */
		if (*n == cap) {
			ns = realloc(*out, sizeof(**out) * (size_t)(cap = cap ? 2 * cap : 64));
			if (!ns)
				break;
			*out = ns;
		}
		ns = &(*out)[(*n)++];
		ns->name = strdup(l);
		ns->state = strdup(s1 + 1);
		ns->features = strdup(strcmp(s2 + 1, "(null)") ? s2 + 1 : "");
		ns->reason = strdup(s3 + 1);
	}
	free(text);
	return 0;
}

static void _free_nodes(struct node_state *v, int n)
{
	for (int i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].state);
		free(v[i].reason);
		free(v[i].features);
	}
	free(v);
}

/* scontrol update nodename=@node @k1=@v1 [@k2=@v2]: its exit status. */
static int _update_node(const char *node, const char *k1, const char *v1, const char *k2,
			const char *v2)
{
	char *nodearg = NULL, *arg1 = NULL, *arg2 = NULL;
	int rc = -1;

	if (asprintf(&nodearg, "nodename=%s", node) >= 0 &&
	    asprintf(&arg1, "%s=%s", k1, v1) >= 0 &&
	    (!v2 || asprintf(&arg2, "%s=%s", k2, v2) >= 0)) {
		char *const argv[] = { "scontrol", "update", nodearg, arg1, arg2, NULL };

		rc = _run(argv, NULL);
	}
	free(nodearg);
	free(arg1);
	free(arg2);
	return rc;
}

static int _scontrol_update(const char *node, const char *state, const char *reason)
{
	return _update_node(node, "state", state, "reason", reason);
}

/* A switch's name, else its id. */
static const char *_name(const struct fst_model *m, int d)
{
	return m->devs[d].name ? m->devs[d].name : m->devs[d].id;
}

/* An HCA's device name ("mlx5_0", from "n011 mlx5_0"), else its id. */
static const char *_hca_name(const struct fst_device *d)
{
	return d->desc && strchr(d->desc, ' ') ? strchr(d->desc, ' ') + 1 : d->id;
}

/* Why every rail of host @h of @old is down: its HCAs and switch ports. */
static void _rails_text(const struct fst_model *old, int h, char *out, size_t n)
{
	const struct fst_host *ho = &old->hosts[h];
	size_t o = 0;

	out[0] = '\0';
	for (int k = 0; k < ho->nhcas && o + 1 < n; k++) {
		const struct fst_device *d = &old->devs[ho->hcas[k]];
		const char *dev = _hca_name(d);

		for (int p = 1; p <= d->nports && o + 1 < n; p++) {
			const struct fst_port *pt = &d->ports[p];

			if (pt->peer < 0)
				continue;
			o += (size_t)snprintf(out + o, n - o, "%s%s port %d (%s port %d)",
					      o ? ", " : "", dev, p, _name(old, pt->peer),
					      pt->peer_port);
		}
	}
}

/* Whether every HCA of host @name in @m has a link. */
static int _rails_up(const struct fst_model *m, const char *name)
{
	int h = fst_find_host(m, name);

	if (h < 0)
		return 0;
	for (int k = 0; k < m->hosts[h].nhcas; k++) {
		const struct fst_device *d = &m->devs[m->hosts[h].hcas[k]];
		int up = 0;

		for (int p = 1; p <= d->nports; p++)
			up |= d->ports[p].peer >= 0;
		if (!up)
			return 0;
	}
	return 1;
}

static int _drained(const char *state)
{
	return strstr(state, "drain") || strstr(state, "down") || strstr(state, "DRAIN") ||
	       strstr(state, "DOWN");
}

/* ------------------------------------------------------------ features */

/* "rack_leaf03,pod_pod1,plane_plane0": host @name's places in @m (a name's
 * characters other than letters, digits, '.', '-' and '_' as '_'); "" when
 * the host is not in @m. */
static void _places(const struct fst_model *m, const char *name, char *out, size_t n)
{
	int h = m ? fst_find_host(m, name) : -1;
	const struct { const char *prefix; const struct fst_group *g; int idx; } p[] = {
		{ "rack_", m ? m->racks : NULL, h >= 0 ? m->hosts[h].rack : -1 },
		{ "pod_", m ? m->pods : NULL, h >= 0 ? m->hosts[h].pod : -1 },
		{ "plane_", m ? m->planes : NULL, h >= 0 ? m->hosts[h].plane : -1 },
	};
	size_t o = 0;

	out[0] = '\0';
	for (size_t k = 0; k < 3; k++) {
		const char *g;

		if (p[k].idx < 0 || !(g = p[k].g[p[k].idx].name) || o + 2 >= n)
			continue;
		o += (size_t)snprintf(out + o, n - o, "%s%s", o ? "," : "", p[k].prefix);
		for (; *g && o + 1 < n; g++)
			out[o++] = (isalnum((unsigned char)*g) || strchr(".-_", *g)) ? *g : '_';
		out[o] = '\0';
	}
}

static int _in_list(const char *list, const char *w, size_t len)
{
	for (const char *p = list; p && *p;) {
		size_t l = strcspn(p, ",");

		if (l == len && !strncmp(p, w, len))
			return 1;
		p += l + (p[l] ? 1 : 0);
	}
	return 0;
}

/* The node's features with its fabric places of @old taken out and those
 * of @cur put in; every other feature as it is. */
static void _features_of(const char *have, const char *old_places, const char *places,
			 char *out, size_t n)
{
	size_t o = 0;

	out[0] = '\0';
	for (const char *p = have; p && *p && o + 1 < n;) {
		size_t l = strcspn(p, ",");

		if (l && !_in_list(old_places, p, l) && !_in_list(places, p, l))
			o += (size_t)snprintf(out + o, n - o, "%s%.*s", o ? "," : "", (int)l, p);
		p += l + (p[l] ? 1 : 0);
	}
	if (*places && o + 1 < n)
		snprintf(out + o, n - o, "%s%s", o ? "," : "", places);
}

/* Each node's rack, pod and plane as node features, kept true every cycle
 * (also after slurmctld forgot them); other features left as they are. */
static void _features(const struct node_state *ns, int n, const struct fst_model *old,
		      const struct fst_model *cur)
{
	char old_places[512], places[512], want[4096];

	for (int i = 0; i < n; i++) {
		_places(old, ns[i].name, old_places, sizeof(old_places));
		_places(cur, ns[i].name, places, sizeof(places));
		if (!*places)
			continue;	/* not in the fabric now: its last place kept */
		_features_of(ns[i].features, old_places, places, want, sizeof(want));
		if (!strcmp(want, ns[i].features))
			continue;
		/* both lists: active features must stay a subset of available */
		if (_update_node(ns[i].name, "availablefeatures", want, "activefeatures", want))
			_log("%s: features %s: scontrol update failed", ns[i].name, want);
		else
			_log("%s: features %s (were: %s)", ns[i].name, want,
			     *ns[i].features ? ns[i].features : "none");
	}
}

/* The degraded links of host @name in @m ("mlx5_0 port 1 (leaf01 port 3)
 * at 1xHDR"), "" when none. */
static void _degraded_text(const struct fst_model *m, const char *name, char *out, size_t n)
{
	int h = fst_find_host(m, name);
	size_t o = 0;

	out[0] = '\0';
	for (int k = 0; h >= 0 && k < m->hosts[h].nhcas && o + 1 < n; k++) {
		const struct fst_device *d = &m->devs[m->hosts[h].hcas[k]];
		const char *dev = _hca_name(d);

		for (int p = 1; p <= d->nports && o + 1 < n; p++) {
			const struct fst_port *pt = &d->ports[p];
			const struct fst_link *l = pt->link >= 0 ? &m->links[pt->link] : NULL;

			if (!l || !l->degraded)
				continue;
			o += (size_t)snprintf(out + o, n - o, "%s%s port %d (%s port %d) at %dx%s",
					      o ? ", " : "", dev, p, _name(m, pt->peer),
					      pt->peer_port, l->width, fst_speed_name(l->speed));
		}
	}
}

/* ------------------------------------------------------------ error counters */

/* The links whose error counters grew by more than FabricErrorLimits
 * since the last cycle, per host ("mlx5_0 port 1 (leaf01 port 2)
 * SymbolErrorCounter +25"). */
struct link_errors {
	const struct fst_model *m;
	const struct fs_ib_err_limits *lim;
	struct host_errors { int host; char text[400]; } *v;
	int n;
};

static const char *_errors_of(const struct link_errors *le, const struct fst_model *m,
			      const char *name)
{
	int h = fst_find_host(m, name);

	for (int i = 0; h >= 0 && m == le->m && i < le->n; i++)
		if (le->v[i].host == h)
			return le->v[i].text;
	return "";
}

static int _errors_grown(const struct fst_counter *c, int k, uint64_t grown, void *arg)
{
	struct link_errors *le = arg;
	const struct fst_model *m = le->m;
	const struct fst_device *d = &m->devs[c->dev], *hca;
	int h = c->dev, hp = c->port, i;
	const struct fst_port *pt;
	struct host_errors *he;
	size_t o;

	if (d->type == FST_SWITCH) {	/* counted at the switch end */
		h = d->ports[c->port].peer;
		hp = d->ports[c->port].peer_port;
	}
	if (h < 0 || (hca = &m->devs[h])->host < 0 || (pt = &hca->ports[hp])->peer < 0)
		return 0;
	_log("%s port %d (%s %s): %s +%" PRIu64 " since the last cycle, more than %" PRIu64
	     " (counted at %s%s%s port %d)", _name(m, pt->peer), pt->peer_port,
	     m->hosts[hca->host].name, _hca_name(hca), fs_ib_counter_name(k), grown,
	     le->lim->most[k], d->type == FST_SWITCH ? "" : m->hosts[hca->host].name,
	     d->type == FST_SWITCH ? "" : " ", d->type == FST_SWITCH ? _name(m, c->dev) :
	     _hca_name(hca), c->port);
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
		 o ? ", " : "", _hca_name(hca), hp, _name(m, pt->peer), pt->peer_port,
		 fs_ib_counter_name(k), grown);
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
			if (a->sources[s].kind == 'L' && (!a->sources[s].arg ||
			    !strcmp(a->sources[s].arg, lp[i].ca)) &&
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
	int n, on = 0;
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
		     "swept the fabric yet; or no answer in 200 ms)", now.unread);
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
		int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);

		if (fd < 0 || !(f = fdopen(fd, "w"))) {
			_log("%s: cannot write: %s", tmp, strerror(errno));
			if (fd >= 0)
				close(fd);
			goto out;
		}
	}
	if (fst_counters_write(&now, f) | fclose(f) || rename(tmp, file)) {
		_log("%s: cannot write: %s", file, strerror(errno));
		unlink(tmp);
	}
out:
	fst_counters_clear(&now);
	free(file);
	free(tmp);
}

/* Drain the nodes of @old gone from @cur, and (DrainOnDegradedLink) those
 * with a degraded link or whose error counters grew too fast; resume
 * fabsched's drains whose rails are all up and healthy in @cur. */
static void _health(const struct fst_model *old, const struct fst_model *cur, bool on_degraded,
		    const struct link_errors *le)
{
	struct node_state *ns = NULL;
	int n = 0;
	char why[900], reason[1024], deg[900];

	if (_slurm_nodes(&ns, &n)) {
		_log("sinfo failed: no node drained or resumed this time");
		return;
	}
	for (int i = 0; i < n; i++) {
		int h = old ? fst_find_host(old, ns[i].name) : -1;

		const char *errs = on_degraded ? _errors_of(le, cur, ns[i].name) : "";

		deg[0] = '\0';
		if (on_degraded)
			_degraded_text(cur, ns[i].name, deg, sizeof(deg));
		if (!strncmp(ns[i].reason, REASON_PREFIX, strlen(REASON_PREFIX))) {
			if (_rails_up(cur, ns[i].name) && !deg[0] && !errs[0]) {
				if (_scontrol_update(ns[i].name, "resume", NULL))
					_log("%s: resume failed (scontrol update)", ns[i].name);
				else
					_log("%s: links healthy again: resumed (was: %s)", ns[i].name,
					     ns[i].reason);
			}
			continue;
		}
		if ((deg[0] || errs[0]) && !_drained(ns[i].state)) {
			if (deg[0])
				snprintf(reason, sizeof(reason), REASON_PREFIX "degraded link: %s", deg);
			else
				snprintf(reason, sizeof(reason), REASON_PREFIX "link errors: %s", errs);
			if (_scontrol_update(ns[i].name, "drain", reason))
				_log("%s: drain failed (scontrol update)", ns[i].name);
			else
				_log("%s: drained (DrainOnDegradedLink): %s", ns[i].name, reason);
			continue;
		}
		if (h < 0 || fst_find_host(cur, ns[i].name) >= 0)
			continue;
		_rails_text(old, h, why, sizeof(why));
		if (_drained(ns[i].state)) {
			_log("%s: every rail down (%s); already %s (%s): left alone",
			     ns[i].name, why, ns[i].state, ns[i].reason);
			continue;
		}
		snprintf(reason, sizeof(reason), REASON_PREFIX "every rail down: %s", why);
		if (_scontrol_update(ns[i].name, "drain", reason))
			_log("%s: drain failed (scontrol update)", ns[i].name);
		else
			_log("%s: drained: %s", ns[i].name, reason);
	}
	_features(ns, n, old, cur);
	_free_nodes(ns, n);
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
	if (a->drain)
		_health(old, cur, a->drain_degraded, &le);
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
 * Cycles share nothing but files (the model, its .counters).  A signal
 * that stops the watch reaches the child too, which ends its cycle first.
 */
static int _cycle_apart(struct topo_args *a, const char *path)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		_log("cannot start a cycle apart (fork: %s): running it in the watch", strerror(errno));
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

int fs_topo_watch(struct topo_args *a)
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
	{
		bool b = false;

		const char *lim = fs_conf_get_str(conf, "FabricErrorLimits");
		char err[FS_MSG_SIZE];

		fs_conf_get_bool(conf, "DrainOnDegradedLink", &b);
		a->drain_degraded = b;
		/* checked when fabsched.conf was loaded */
		if (fs_ib_parse_err_limits("FabricErrorLimits", lim ? lim : FS_IB_ERR_LIMITS_DEFAULT,
					   &a->limits, err, sizeof(err)))
			_log("%s", err);
	}
	if (!path || !*path || !strcmp(path, "-")) {
		fprintf(stderr, "fabsched topo watch: no model file: expected -o FILE or "
			"FabricModel in %s\n", fs_conf_source(conf));
		fs_conf_destroy(conf);
		return FS_EXIT_USAGE;
	}
	if (!interval)
		interval = 60;
	signal(SIGTERM, _on_signal);
	signal(SIGINT, _on_signal);
	_log("%s every %llu s from %d source(s)%s%s", path, (unsigned long long)interval,
	     a->nsources, a->drain ? "; drains nodes whose every rail is down" : "",
	     a->drain && a->drain_degraded ? " or whose link is degraded or counts errors" : "");
	do {
		if (_cycle_apart(a, path) && a->once)
			rc = FS_EXIT_INPUT;
		for (uint64_t s = 0; !a->once && !stop && s < interval; s++)
			sleep(1);
	} while (!a->once && !stop);
	fs_conf_destroy(conf);
	return rc;
}
