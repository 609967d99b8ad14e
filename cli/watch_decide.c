/*
 * watch_decide.c — what fabsched topo watch decides each cycle
 * (watch_decide.h): the bindings of HCAs to nodes, then the drains,
 * resumes and place features of the nodes no binding holds, as a list of
 * actions; fw_apply carries them out through a seam.  Nothing here runs a
 * command, reads a file or prints.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "watch_decide.h"
#include "fs_err.h"
#include "fs_values.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PIECE 64 /* fs_escape echoes at most 64 source bytes */

char *fw_printable(char *dst, size_t n, const char *s)
{
	size_t o = 0, len = strlen(s);

	dst[0] = '\0';
	for (size_t i = 0; i < len && n - o > 4 * PIECE; i += PIECE) {
		fs_escape(dst + o, n - o, s + i, len - i < PIECE ? len - i : PIECE);
		o += strlen(dst + o);
	}
	return dst;
}

/* A name or description from the fabric, for a line or a reason. */
static const char *_esc(char buf[FS_ESCAPE_SIZE], const char *s)
{
	return fs_escape(buf, FS_ESCAPE_SIZE, s ? s : "", s ? strlen(s) : 0);
}

/* ------------------------------------------------------------ actions */

void fw_actions_free(struct fw_actions *a)
{
	for (int i = 0; i < a->n; i++) {
		free(a->v[i].node);
		free(a->v[i].arg);
		free(a->v[i].done);
		free(a->v[i].failed);
	}
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* Append an action; its lines (and a reason) made printable here, so
 * that no path around the escaping of each piece can reach the log. */
static int _add(struct fw_actions *a, enum fw_kind k, const char *node, const char *arg,
		const char *done, const char *failed)
{
	char safe[2048];
	struct fw_action *x;

	if (a->n == a->cap) {
		int cap = a->cap ? 2 * a->cap : 16;

		if (!(x = realloc(a->v, sizeof(*x) * (size_t)cap)))
			return -1;
		a->v = x;
		a->cap = cap;
	}
	x = &a->v[a->n];
	memset(x, 0, sizeof(*x));
	x->kind = k;
	if ((node && !(x->node = strdup(node))) ||
	    (arg &&
	     !(x->arg = strdup(k == FW_DRAIN ? fw_printable(safe, sizeof(safe), arg) : arg))) ||
	    !(x->done = strdup(fw_printable(safe, sizeof(safe), done))) ||
	    (failed && !(x->failed = strdup(fw_printable(safe, sizeof(safe), failed))))) {
		free(x->node);
		free(x->arg);
		free(x->done);
		return -1;
	}
	a->n++;
	return 0;
}

static int _say(struct fw_actions *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int _say(struct fw_actions *a, const char *fmt, ...)
{
	char line[1536];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return _add(a, FW_LOG, NULL, NULL, line, NULL);
}

int fw_apply(const struct fw_actions *a, const struct fw_seam *s)
{
	int failed = 0;

	for (int i = 0; i < a->n; i++) {
		const struct fw_action *x = &a->v[i];
		int rc = 0;

		if (x->kind == FW_DRAIN)
			rc = s->drain(s->arg, x->node, x->arg);
		else if (x->kind == FW_RESUME)
			rc = s->resume(s->arg, x->node);
		else if (x->kind == FW_FEATURES)
			rc = s->features(s->arg, x->node, x->arg);
		failed += rc != 0;
		s->log(s->arg, rc && x->failed ? x->failed : x->done);
	}
	return failed;
}

/* ------------------------------------------------------------ names held */

struct names {
	char **v;
	int n, cap;
	int sorted;
};

static int _hold(struct names *h, const char *name)
{
	if (h->n == h->cap) {
		int cap = h->cap ? 2 * h->cap : 8;
		char **v = realloc(h->v, sizeof(*v) * (size_t)cap);

		if (!v)
			return -1;
		h->v = v;
		h->cap = cap;
	}
	if (!(h->v[h->n] = strdup(name)))
		return -1;
	h->n++;
	h->sorted = 0;
	return 0;
}

static int _cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int _held(struct names *h, const char *name)
{
	if (!h->n)
		return 0;
	if (!h->sorted) {
		qsort(h->v, (size_t)h->n, sizeof(*h->v), _cmp_str);
		h->sorted = 1;
	}
	return bsearch(&name, h->v, (size_t)h->n, sizeof(*h->v), _cmp_str) != NULL;
}

static void _names_free(struct names *h)
{
	for (int i = 0; i < h->n; i++)
		free(h->v[i]);
	free(h->v);
}

/* ------------------------------------------------------------ bindings */

static int _put(struct fw_bindings *b, uint64_t guid, const char *name, uint64_t leaf)
{
	struct fw_binding *x;

	if (b->n == b->cap) {
		int cap = b->cap ? 2 * b->cap : 64;

		if (!(x = realloc(b->v, sizeof(*x) * (size_t)cap)))
			return -1;
		b->v = x;
		b->cap = cap;
	}
	x = &b->v[b->n++];
	x->guid = guid;
	x->leaf = leaf;
	snprintf(x->name, sizeof(x->name), "%s", name);
	return 0;
}

static int _cmp_binding(const void *a, const void *b)
{
	uint64_t x = ((const struct fw_binding *)a)->guid, y = ((const struct fw_binding *)b)->guid;

	return x < y ? -1 : x > y;
}

/* Sorted by GUID, a GUID once (the first kept). */
static void _sort_bindings(struct fw_bindings *b)
{
	int k = 0;

	qsort(b->v, (size_t)b->n, sizeof(*b->v), _cmp_binding);
	for (int i = 0; i < b->n; i++)
		if (!k || b->v[k - 1].guid != b->v[i].guid)
			b->v[k++] = b->v[i];
	b->n = k;
}

static struct fw_binding *_bound(const struct fw_bindings *b, uint64_t guid)
{
	struct fw_binding key = { .guid = guid };

	return b->n ? bsearch(&key, b->v, (size_t)b->n, sizeof(key), _cmp_binding) : NULL;
}

static int _cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether the node-name map names the HCA: the administrator's word. */
static int _mapped(const struct fw_input *in, uint64_t guid)
{
	return in->nmapped &&
	       bsearch(&guid, in->mapped, (size_t)in->nmapped, sizeof(guid), _cmp_u64);
}

/* The node GUID of the switch at the first port of HCA @d that reaches
 * one (the switch whose plane is the HCA's), 0 when none. */
static uint64_t _leaf(const struct fst_model *m, int d)
{
	for (int p = 1; p <= m->devs[d].nports; p++) {
		int r = m->devs[d].ports[p].peer;

		if (r >= 0 && m->devs[r].type == FST_SWITCH)
			return m->devs[r].guid;
	}
	return 0;
}

/* Devices of a model by node GUID. */
struct gix {
	uint64_t guid;
	int dev;
};

static int _cmp_gix(const void *a, const void *b)
{
	return _cmp_u64(&((const struct gix *)a)->guid, &((const struct gix *)b)->guid);
}

static struct gix *_gix(const struct fst_model *m, int switches_only, int *n)
{
	struct gix *v = calloc((size_t)m->ndevs + 1, sizeof(*v));

	*n = 0;
	for (int d = 0; v && d < m->ndevs; d++)
		if (m->devs[d].guid && (!switches_only || m->devs[d].type == FST_SWITCH))
			v[(*n)++] = (struct gix){ m->devs[d].guid, d };
	if (v)
		qsort(v, (size_t)*n, sizeof(*v), _cmp_gix);
	return v;
}

static int _gix_find(const struct gix *v, int n, uint64_t guid)
{
	struct gix key = { guid, -1 },
		   *x = n ? bsearch(&key, v, (size_t)n, sizeof(key), _cmp_gix) : NULL;

	return x ? x->dev : -1;
}

struct bind {
	const struct fw_input *in;
	const struct fst_model *cur;
	struct gix *cix; /* every device of cur by GUID */
	int ncix;
	char *newplane;			  /* per plane of cur: none of its switches in old */
	const struct fw_binding **byname; /* the bindings by name */
	int nbyname;
	struct names *held;
	struct fw_actions *out;
};

/* The plane in cur of a bound HCA: its own, else its switch's; -1 when
 * neither is in cur. */
static int _plane_of(const struct bind *c, const struct fw_binding *b)
{
	int d = _gix_find(c->cix, c->ncix, b->guid);

	if (d >= 0 && c->cur->devs[d].type == FST_HCA && c->cur->devs[d].plane >= 0)
		return c->cur->devs[d].plane;
	d = b->leaf ? _gix_find(c->cix, c->ncix, b->leaf) : -1;
	return d >= 0 && c->cur->devs[d].type == FST_SWITCH ? c->cur->devs[d].plane : -1;
}

/* The planes of cur none of whose switches @old has: planes seen late
 * (a local port down when the watch first ran).  Without @old, none. */
static char *_new_planes(const struct fst_model *cur, const struct fst_model *old)
{
	char *v = calloc((size_t)cur->nplanes + 1, 1);
	struct gix *oix;
	int n;

	if (!v || !old)
		return v;
	if (!(oix = _gix(old, 1, &n))) {
		free(v);
		return NULL;
	}
	memset(v, 1, (size_t)cur->nplanes);
	for (int d = 0; d < cur->ndevs; d++) {
		const struct fst_device *dv = &cur->devs[d];

		if (dv->type == FST_SWITCH && dv->plane >= 0 && dv->plane < cur->nplanes &&
		    _gix_find(oix, n, dv->guid) >= 0)
			v[dv->plane] = 0;
	}
	free(oix);
	return v;
}

/* The bindings kept so far, or, before any was kept (the first cycle,
 * or a model written before bindings were), those of the model in place. */
static int _seed(const struct fw_input *in, struct fw_bindings *next)
{
	const struct fst_model *old = in->old;

	if (in->bound) {
		for (int i = 0; i < in->bound->n; i++)
			if (_put(next, in->bound->v[i].guid, in->bound->v[i].name,
				 in->bound->v[i].leaf))
				return -1;
	} else {
		for (int d = 0; old && d < old->ndevs; d++) {
			const struct fst_device *dv = &old->devs[d];

			if (dv->type == FST_HCA && dv->host >= 0 && dv->guid &&
			    _put(next, dv->guid, old->hosts[dv->host].name, _leaf(old, d)))
				return -1;
		}
	}
	_sort_bindings(next);
	return 0;
}

static int _cmp_byname(const void *a, const void *b)
{
	return strcmp((*(const struct fw_binding *const *)a)->name,
		      (*(const struct fw_binding *const *)b)->name);
}

/* The range [*lo, return) of c->byname holding @name's bindings. */
static int _named(const struct bind *c, const char *name, int *lo)
{
	int a = 0, b = c->nbyname;

	while (a < b) {
		int mid = (a + b) / 2;

		if (strcmp(c->byname[mid]->name, name) < 0)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = a;
	while (b < c->nbyname && !strcmp(c->byname[b]->name, name))
		b++;
	return b;
}

/* First pass: HCAs the map names (bound to its name), HCAs bound to the
 * name they claim (kept), HCAs bound to another name (both names held);
 * the others, not bound, into @pending. */
static int _bind_known(struct bind *c, struct fw_bindings *next, int *pending, int *npending)
{
	const struct fst_model *cur = c->cur;
	struct fw_bindings added = { 0 };
	char e1[FS_ESCAPE_SIZE];
	int rc = 0;

	for (int d = 0; d < cur->ndevs && !rc; d++) {
		const struct fst_device *dv = &cur->devs[d];
		const char *name;
		struct fw_binding *b;
		uint64_t leaf;

		if (dv->type != FST_HCA || dv->host < 0)
			continue;
		name = cur->hosts[dv->host].name;
		leaf = _leaf(cur, d);
		b = dv->guid ? _bound(next, dv->guid) : NULL;
		if (b && !strcmp(b->name, name)) {
			b->leaf = leaf ? leaf : b->leaf; /* recabled: followed */
		} else if (dv->guid && _mapped(c->in, dv->guid)) {
			rc = _say(c->out,
				  "%s: HCA 0x%016" PRIx64 " bound by the node-name map%s%s%s", name,
				  dv->guid, b ? " (was bound to " : "", b ? b->name : "",
				  b ? ")" : "");
			if (b) {
				snprintf(b->name, sizeof(b->name), "%s", name);
				b->leaf = leaf;
			} else if (!rc) {
				rc = _put(&added, dv->guid, name, leaf);
			}
		} else if (b) {
			rc = _hold(c->held, name) || _hold(c->held, b->name) ||
			     _say(c->out,
				  "%s: HCA 0x%016" PRIx64 " (\"%s\"), bound to %s, now claims "
				  "%s: %s and %s held (no drain, resume or features) until the "
				  "node-name map names that HCA",
				  name, dv->guid, _esc(e1, dv->desc), b->name, name, name, b->name);
		} else {
			pending[(*npending)++] = d;
		}
	}
	for (int i = 0; i < added.n && !rc; i++)
		rc = _put(next, added.v[i].guid, added.v[i].name, added.v[i].leaf);
	fw_bindings_clear(&added);
	_sort_bindings(next);
	return rc;
}

/* Second pass: an HCA not bound claiming a name that has no binding is
 * bound (first seen; all of a new node's HCAs at once); claiming a bound
 * name, it is bound only on a plane seen late where that name has no
 * HCA; else the name is held.  An Ethernet interface whose MAC no switch
 * has reported yet (GUID 0) that its node's own LLDP record lists is the
 * node's word, not the fabric's: it neither binds nor holds (a node's
 * record written before its new switch's, after a recabling). */
static int _bind_new(struct bind *c, struct fw_bindings *next, const int *pending, int npending)
{
	const struct fst_model *cur = c->cur;
	struct fw_bindings fresh = { 0 };
	char e1[FS_ESCAPE_SIZE];
	int rc = 0;

	for (int i = 0; i < npending && !rc; i++) {
		const struct fst_device *dv = &cur->devs[pending[i]];
		const char *name = cur->hosts[dv->host].name;
		int lo, hi = _named(c, name, &lo), clash = hi > lo;

		if (!dv->guid && dv->own_record)
			continue;
		if (hi > lo && dv->guid && dv->plane >= 0 && c->newplane[dv->plane]) {
			clash = 0;
			for (int k = lo; k < hi && !clash; k++) {
				int p = _plane_of(c, c->byname[k]);

				clash = p < 0 || p == dv->plane;
			}
		}
		if (!clash) {
			rc = dv->guid ? _put(&fresh, dv->guid, name, _leaf(cur, pending[i])) : 0;
			continue;
		}
		rc = _hold(c->held, name) ||
		     _say(c->out,
			  "%s: HCA 0x%016" PRIx64 " (\"%s\") on %s claims %s, which is bound "
			  "to HCA 0x%016" PRIx64 "%s: %s held (no drain, resume or features) until "
			  "the node-name map names that HCA",
			  name, dv->guid, _esc(e1, dv->desc),
			  dv->plane >= 0 ? cur->planes[dv->plane].name : "no plane", name,
			  c->byname[lo]->guid, hi - lo > 1 ? " and others" : "", name);
	}
	if (!rc && fresh.n)
		rc = _say(c->out, "%d HCA(s) seen for the first time bound to their nodes by GUID",
			  fresh.n);
	for (int i = 0; i < fresh.n && !rc; i++)
		rc = _put(next, fresh.v[i].guid, fresh.v[i].name, fresh.v[i].leaf);
	fw_bindings_clear(&fresh);
	_sort_bindings(next);
	return rc;
}

static int _bind(const struct fw_input *in, struct fw_bindings *next, struct names *held,
		 struct fw_actions *out)
{
	struct bind c = { .in = in, .cur = in->cur, .held = held, .out = out };
	int *pending = calloc((size_t)in->cur->ndevs + 1, sizeof(int)), npending = 0, rc = -1;
	struct fw_bindings known = { 0 }; /* @next as it was before the second pass */

	c.cix = _gix(in->cur, 0, &c.ncix);
	c.newplane = _new_planes(in->cur, in->old);
	if (!pending || !c.cix || !c.newplane || _seed(in, next) ||
	    _bind_known(&c, next, pending, &npending))
		goto out;
	for (int i = 0; i < next->n; i++)
		if (_put(&known, next->v[i].guid, next->v[i].name, next->v[i].leaf))
			goto out;
	if (!(c.byname = calloc((size_t)known.n + 1, sizeof(*c.byname))))
		goto out;
	for (int i = 0; i < known.n; i++)
		c.byname[i] = &known.v[i];
	c.nbyname = known.n;
	qsort(c.byname, (size_t)c.nbyname, sizeof(*c.byname), _cmp_byname);
	rc = _bind_new(&c, next, pending, npending);
out:
	fw_bindings_clear(&known);
	free(c.byname);
	free(c.newplane);
	free(c.cix);
	free(pending);
	return rc;
}

/* ------------------------------------------------------------ links */

const char *fw_dev_name(const struct fst_model *m, int d)
{
	return m->devs[d].name ? m->devs[d].name : m->devs[d].id;
}

const char *fw_hca_name(const struct fst_device *d)
{
	return d->desc && strchr(d->desc, ' ') ? strchr(d->desc, ' ') + 1 : d->id;
}

/* The switch port at the other end of @pt ("leaf01 port 3", "leaf01 port
 * 3 (1/2/1)" with the label ibdiagnet gives a split port), escaped. */
static const char *_peer_port(const struct fst_model *m, const struct fst_port *pt,
			      char buf[FS_ESCAPE_SIZE + 64])
{
	const char *label = m->devs[pt->peer].ports[pt->peer_port].label;
	char e[FS_ESCAPE_SIZE];

	snprintf(buf, FS_ESCAPE_SIZE + 64, "%s port %d%s%s%s", _esc(e, fw_dev_name(m, pt->peer)),
		 pt->peer_port, label[0] ? " (" : "", label, label[0] ? ")" : "");
	return buf;
}

/* Why every rail of host @h of @old is down: its HCAs and switch ports. */
static void _rails_text(const struct fst_model *old, int h, char *out, size_t n)
{
	const struct fst_host *ho = &old->hosts[h];
	char e1[FS_ESCAPE_SIZE], e2[FS_ESCAPE_SIZE + 64];
	size_t o = 0;

	out[0] = '\0';
	for (int k = 0; k < ho->nhcas && o + 1 < n; k++) {
		const struct fst_device *d = &old->devs[ho->hcas[k]];

		for (int p = 1; p <= d->nports && o + 1 < n; p++) {
			const struct fst_port *pt = &d->ports[p];

			if (pt->peer < 0)
				continue;
			o += (size_t)snprintf(out + o, n - o, "%s%s port %d (%s)", o ? ", " : "",
					      _esc(e1, fw_hca_name(d)), p, _peer_port(old, pt, e2));
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

/* The degraded links of host @name in @m ("mlx5_0 port 1 (leaf01 port 3)
 * at 1xHDR"), "" when none. */
static void _degraded_text(const struct fst_model *m, const char *name, char *out, size_t n)
{
	int h = fst_find_host(m, name);
	char e1[FS_ESCAPE_SIZE], e2[FS_ESCAPE_SIZE + 64], ws[32];
	size_t o = 0;

	out[0] = '\0';
	for (int k = 0; h >= 0 && k < m->hosts[h].nhcas && o + 1 < n; k++) {
		const struct fst_device *d = &m->devs[m->hosts[h].hcas[k]];

		for (int p = 1; p <= d->nports && o + 1 < n; p++) {
			const struct fst_port *pt = &d->ports[p];
			const struct fst_link *l = pt->link >= 0 ? &m->links[pt->link] : NULL;

			if (!l || !l->degraded)
				continue;
			o += (size_t)snprintf(out + o, n - o, "%s%s port %d (%s) at %s",
					      o ? ", " : "", _esc(e1, fw_hca_name(d)), p,
					      _peer_port(m, pt, e2),
					      fst_widthspeed(l->width, l->speed, ws, sizeof(ws)));
		}
	}
}

static const char *_errors_of(const struct fw_input *in, const char *name)
{
	for (int i = 0; i < in->nerrors; i++)
		if (!strcmp(in->errors[i].node, name))
			return in->errors[i].text;
	return "";
}

static int _drained(const char *state)
{
	return strstr(state, "drain") || strstr(state, "down") || strstr(state, "DRAIN") ||
	       strstr(state, "DOWN");
}

/* Drain the nodes of old gone from cur, and (DrainOnDegradedLink) those
 * with a degraded link or whose error counters grew too fast; resume
 * fabsched's drains whose rails are all up and healthy in cur. */
static int _health(const struct fw_input *in, struct names *held, struct fw_actions *out)
{
	char why[900], reason[1024], deg[900], done[1536], failed[256];
	char e1[1024], e2[512]; /* fw_printable: more than 4 x 64 */
	int rc = 0;

	for (int i = 0; i < in->nnodes && !rc; i++) {
		const struct fw_node *ns = &in->nodes[i];
		int h = in->old ? fst_find_host(in->old, ns->name) : -1;
		const char *errs = in->on_degraded ? _errors_of(in, ns->name) : "";

		if (_held(held, ns->name))
			continue; /* said with the HCA that holds it */
		deg[0] = '\0';
		if (in->on_degraded)
			_degraded_text(in->cur, ns->name, deg, sizeof(deg));
		if (!strncmp(ns->reason, FW_REASON_PREFIX, strlen(FW_REASON_PREFIX))) {
			if (!_rails_up(in->cur, ns->name) || deg[0] || errs[0])
				continue;
			snprintf(done, sizeof(done), "%s: links healthy again: resumed (was: %s)",
				 ns->name, fw_printable(e1, sizeof(e1), ns->reason));
			snprintf(failed, sizeof(failed), "%s: resume failed (scontrol update)",
				 ns->name);
			rc = _add(out, FW_RESUME, ns->name, NULL, done, failed);
			continue;
		}
		snprintf(failed, sizeof(failed), "%s: drain failed (scontrol update)", ns->name);
		if ((deg[0] || errs[0]) && !_drained(ns->state)) {
			if (deg[0])
				snprintf(reason, sizeof(reason),
					 FW_REASON_PREFIX "degraded link: %s", deg);
			else
				snprintf(reason, sizeof(reason), FW_REASON_PREFIX "link errors: %s",
					 errs);
			snprintf(done, sizeof(done), "%s: drained (DrainOnDegradedLink): %s",
				 ns->name, reason);
			rc = _add(out, FW_DRAIN, ns->name, reason, done, failed);
			continue;
		}
		if (h < 0 || fst_find_host(in->cur, ns->name) >= 0)
			continue;
		_rails_text(in->old, h, why, sizeof(why));
		if (_drained(ns->state)) {
			rc = _say(out, "%s: every rail down (%s); already %s (%s): left alone",
				  ns->name, why, fw_printable(e2, sizeof(e2), ns->state),
				  fw_printable(e1, sizeof(e1), ns->reason));
			continue;
		}
		snprintf(reason, sizeof(reason), FW_REASON_PREFIX "every rail down: %s", why);
		snprintf(done, sizeof(done), "%s: drained: %s", ns->name, reason);
		rc = _add(out, FW_DRAIN, ns->name, reason, done, failed);
	}
	return rc;
}

/* ------------------------------------------------------------ features */

/* "rack_leaf03,pod_pod1,plane_plane0": host @name's places in @m (a name's
 * characters other than letters, digits, '.', '-' and '_' as '_'); "" when
 * the host is not in @m. */
static void _places(const struct fst_model *m, const char *name, char *out, size_t n)
{
	int h = m ? fst_find_host(m, name) : -1;
	const struct {
		const char *prefix;
		const struct fst_group *g;
		int idx;
	} p[] = {
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
static void _features_of(const char *have, const char *old_places, const char *places, char *out,
			 size_t n)
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
static int _features(const struct fw_input *in, struct names *held, struct fw_actions *out)
{
	char old_places[512], places[512], want[4096], done[1536], failed[1536], e1[1024];
	int rc = 0;

	for (int i = 0; i < in->nnodes && !rc; i++) {
		const struct fw_node *ns = &in->nodes[i];

		if (_held(held, ns->name))
			continue;
		_places(in->old, ns->name, old_places, sizeof(old_places));
		_places(in->cur, ns->name, places, sizeof(places));
		if (!*places)
			continue; /* not in the fabric now: its last place kept */
		_features_of(ns->features, old_places, places, want, sizeof(want));
		if (!strcmp(want, ns->features))
			continue;
		if (ns->features_cut) {
			rc = _say(out,
				  "%s: features longer than %d bytes, not read whole: left as "
				  "they are (no %s)",
				  ns->name, FW_SINFO_FEATURES, places);
			continue;
		}
		/* both lists: active features must stay a subset of available */
		snprintf(done, sizeof(done), "%s: features %s (were: %s)", ns->name, want,
			 *ns->features ? fw_printable(e1, sizeof(e1), ns->features) : "none");
		snprintf(failed, sizeof(failed), "%s: features %s: scontrol update failed",
			 ns->name, want);
		rc = _add(out, FW_FEATURES, ns->name, want, done, failed);
	}
	return rc;
}

int fw_decide(const struct fw_input *in, struct fw_bindings *next, struct fw_actions *out,
	      char *err, size_t errlen)
{
	struct names held = { 0 };
	int rc = _bind(in, next, &held, out);

	if (!rc && in->nodes)
		rc = _health(in, &held, out);
	if (!rc && in->nodes)
		rc = _features(in, &held, out);
	_names_free(&held);
	return rc ? fs_errf(err, errlen, "out of memory") : 0;
}
