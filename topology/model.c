/*
 * model.c — the fabric model: allocation, devices, links, issues, lookups.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	long lane_mbps;
} _speeds[] = {
	[FST_SPEED_UNKNOWN] = { "?", 0 },	   [FST_SPEED_SDR] = { "SDR", 2500 },
	[FST_SPEED_DDR] = { "DDR", 5000 },	   [FST_SPEED_QDR] = { "QDR", 10000 },
	[FST_SPEED_FDR10] = { "FDR10", 10000 },	   [FST_SPEED_FDR] = { "FDR", 14000 },
	[FST_SPEED_EDR] = { "EDR", 25000 },	   [FST_SPEED_HDR] = { "HDR", 50000 },
	[FST_SPEED_NDR] = { "NDR", 100000 },	   [FST_SPEED_XDR] = { "XDR", 200000 },
	[FST_SPEED_GBE1] = { "1GbE", 1000 },	   [FST_SPEED_GBE10] = { "10GbE", 10000 },
	[FST_SPEED_GBE25] = { "25GbE", 25000 },	   [FST_SPEED_GBE40] = { "40GbE", 40000 },
	[FST_SPEED_GBE50] = { "50GbE", 50000 },	   [FST_SPEED_GBE100] = { "100GbE", 100000 },
	[FST_SPEED_GBE200] = { "200GbE", 200000 }, [FST_SPEED_GBE400] = { "400GbE", 400000 },
	[FST_SPEED_GBE800] = { "800GbE", 800000 },
};
#define NSPEEDS ((int)(sizeof(_speeds) / sizeof(_speeds[0])))
_Static_assert(NSPEEDS == FST_SPEED_COUNT, "a name and rate for every speed");

const char *fst_speed_name(enum fst_speed s)
{
	if ((int)s < 0 || (int)s >= NSPEEDS)
		return "?";
	return _speeds[s].name;
}

int fst_speed_from_name(const char *s, enum fst_speed *out)
{
	for (int i = 1; i < NSPEEDS; i++)
		if (!strcmp(s, _speeds[i].name)) {
			*out = (enum fst_speed)i;
			return 0;
		}
	return -1;
}

long fst_lane_mbps(enum fst_speed s)
{
	if ((int)s < 0 || (int)s >= NSPEEDS)
		return 0;
	return _speeds[s].lane_mbps;
}

long fst_link_mbps(int width, enum fst_speed s)
{
	return (long)width * fst_lane_mbps(s);
}

int fst_speed_is_ethernet(enum fst_speed s)
{
	return s >= FST_SPEED_GBE1 && s < FST_SPEED_COUNT;
}

enum fst_speed fst_speed_from_mbps(long mbps)
{
	for (int i = FST_SPEED_GBE1; i < NSPEEDS; i++)
		if (_speeds[i].lane_mbps == mbps)
			return (enum fst_speed)i;
	return FST_SPEED_UNKNOWN;
}

const char *fst_widthspeed(int width, enum fst_speed s, char *buf, size_t n)
{
	if (fst_speed_is_ethernet(s) && width == 1)
		snprintf(buf, n, "%s", fst_speed_name(s));
	else
		snprintf(buf, n, "%dx%s", width, fst_speed_name(s));
	return buf;
}

int fst_parse_widthspeed(const char *s, int *width, enum fst_speed *speed)
{
	char *end;
	long w;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	if (!fst_speed_from_name(s, speed) && fst_speed_is_ethernet(*speed)) {
		*width = 1; /* "100GbE" */
		return 0;
	}
	w = strtol(s, &end, 10);
	if (*end != 'x' || (w != 1 && w != 2 && w != 4 && w != 8 && w != 12))
		return -1;
	if (fst_speed_from_name(end + 1, speed))
		return -1;
	*width = (int)w;
	return 0;
}

const char *fst_role_name(enum fst_role r)
{
	switch (r) {
	case FST_ROLE_LEAF:
		return "leaf";
	case FST_ROLE_HOST_LEAF:
		return "noncompute-leaf";
	case FST_ROLE_SPINE:
		return "spine";
	case FST_ROLE_ISOLATED:
		return "isolated";
	case FST_ROLE_COMPUTE:
		return "compute";
	case FST_ROLE_NONCOMPUTE:
		return "noncompute";
	default:
		return "none";
	}
}

const char *fst_issue_kind_name(enum fst_issue_kind k)
{
	switch (k) {
	case FST_ISSUE_IGNORED_LINE:
		return "ignored-line";
	case FST_ISSUE_NONCOMPUTE_HCA:
		return "noncompute-hca";
	case FST_ISSUE_DEGRADED_LINK:
		return "degraded-link";
	case FST_ISSUE_SELF_LOOP:
		return "self-loop";
	case FST_ISSUE_ASYMMETRIC:
		return "asymmetric-link";
	case FST_ISSUE_DANGLING:
		return "dangling-link";
	case FST_ISSUE_MULTI_LEAF:
		return "multi-leaf-node";
	case FST_ISSUE_NAME:
		return "name";
	case FST_ISSUE_NO_NODES:
		return "no-nodes";
	case FST_ISSUE_MISSING_NODE:
		return "missing-node";
	case FST_ISSUE_MISSING_LINK:
		return "missing-link";
	case FST_ISSUE_NO_SWITCH:
		return "no-switch";
	case FST_ISSUE_COMPUTE_HCA:
		return "compute-hca";
	}
	return "unknown";
}

void *fst_grow(void *arr, int *cap, int need, size_t elem)
{
	int ncap;
	void *p;

	if (need <= *cap)
		return arr;
	ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > (1 << 28))
			return NULL;
		ncap *= 2;
	}
	p = realloc(arr, (size_t)ncap * elem);
	if (!p)
		return NULL;
	memset((char *)p + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
	*cap = ncap;
	return p;
}

int fst_set_str(char **dst, const char *src)
{
	char *s = strdup(src ? src : "");

	if (!s)
		return -1;
	free(*dst);
	*dst = s;
	return 0;
}

/* ------------------------------------------------------------ index */
static uint64_t _hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int _index_grow(struct fst_index *ix)
{
	size_t ncap = ix->cap ? ix->cap * 2 : 64;
	char **keys = calloc(ncap, sizeof(*keys));
	int *vals = calloc(ncap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	for (size_t i = 0; i < ix->cap; i++) {
		size_t j;

		if (!ix->keys[i])
			continue;
		j = _hash(ix->keys[i]) & (ncap - 1);
		while (keys[j])
			j = (j + 1) & (ncap - 1);
		keys[j] = ix->keys[i];
		vals[j] = ix->vals[i];
	}
	free(ix->keys);
	free(ix->vals);
	ix->keys = keys;
	ix->vals = vals;
	ix->cap = ncap;
	return 0;
}

int fst_index_put(struct fst_index *ix, const char *key, int val)
{
	size_t j;

	if ((ix->n + 1) * 2 > ix->cap && _index_grow(ix))
		return -1;
	j = _hash(key) & (ix->cap - 1);
	while (ix->keys[j]) {
		if (!strcmp(ix->keys[j], key)) {
			ix->vals[j] = val;
			return 0;
		}
		j = (j + 1) & (ix->cap - 1);
	}
	ix->keys[j] = strdup(key);
	if (!ix->keys[j])
		return -1;
	ix->vals[j] = val;
	ix->n++;
	return 0;
}

int fst_index_get(const struct fst_index *ix, const char *key)
{
	size_t j;

	if (!ix->cap)
		return -1;
	j = _hash(key) & (ix->cap - 1);
	while (ix->keys[j]) {
		if (!strcmp(ix->keys[j], key))
			return ix->vals[j];
		j = (j + 1) & (ix->cap - 1);
	}
	return -1;
}

void fst_index_clear(struct fst_index *ix)
{
	for (size_t i = 0; i < ix->cap; i++)
		free(ix->keys[i]);
	free(ix->keys);
	free(ix->vals);
	memset(ix, 0, sizeof(*ix));
}

/* ------------------------------------------------------------ model */
struct fst_model *fst_model_new(void)
{
	struct fst_model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->priv = calloc(1, sizeof(*m->priv));
	if (!m->priv) {
		free(m);
		return NULL;
	}
	return m;
}

static void _groups_free(struct fst_group *g, int n)
{
	for (int i = 0; i < n; i++) {
		free(g[i].name);
		free(g[i].members);
	}
	free(g);
}

void fst_model_free(struct fst_model *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->ndevs; i++) {
		free(m->devs[i].id);
		free(m->devs[i].desc);
		free(m->devs[i].name);
		free(m->devs[i].ports);
	}
	free(m->devs);
	free(m->links);
	for (int i = 0; i < m->nhosts; i++) {
		free(m->hosts[i].name);
		free(m->hosts[i].hcas);
	}
	free(m->hosts);
	_groups_free(m->racks, m->nracks);
	_groups_free(m->pods, m->npods);
	_groups_free(m->planes, m->nplanes);
	for (int i = 0; i < m->nissues; i++)
		free(m->issues[i].msg);
	free(m->issues);
	free(m->source);
	if (m->priv) {
		fst_index_clear(&m->priv->ids);
		fst_index_clear(&m->priv->names);
		fst_index_clear(&m->priv->hostix);
		free(m->priv);
	}
	free(m);
}

int fst_add_device(struct fst_model *m, enum fst_devtype type, const char *id, uint64_t guid,
		   int nports)
{
	struct fst_device *d;
	struct fst_device *nd;

	if (nports < 0 || nports > 255)
		return -1;
	nd = fst_grow(m->devs, &m->cap_devs, m->ndevs + 1, sizeof(*m->devs));
	if (!nd)
		return -1;
	m->devs = nd;
	d = &m->devs[m->ndevs];
	memset(d, 0, sizeof(*d));
	d->type = type;
	d->guid = guid;
	d->nports = nports;
	d->ports = calloc((size_t)nports + 1, sizeof(*d->ports));
	d->id = strdup(id);
	d->desc = strdup("");
	if (!d->ports || !d->id || !d->desc) {
		free(d->ports);
		free(d->id);
		free(d->desc);
		return -1;
	}
	for (int p = 0; p <= nports; p++) {
		d->ports[p].num = p;
		d->ports[p].peer = -1;
		d->ports[p].link = -1;
	}
	d->level = -1;
	d->plane = -1;
	d->host = -1;
	d->rack = -1;
	d->pod = -1;
	if (fst_index_put(&m->priv->ids, id, m->ndevs)) {
		free(d->ports);
		free(d->id);
		free(d->desc);
		return -1;
	}
	return m->ndevs++;
}

int fst_add_link(struct fst_model *m, int a, int ap, int b, int bp, int width, enum fst_speed speed)
{
	struct fst_link *nl = fst_grow(m->links, &m->cap_links, m->nlinks + 1, sizeof(*m->links));
	struct fst_link *l;

	if (!nl)
		return -1;
	m->links = nl;
	l = &m->links[m->nlinks];
	memset(l, 0, sizeof(*l));
	l->a = a;
	l->a_port = ap;
	l->b = b;
	l->b_port = bp;
	l->width = width;
	l->speed = speed;
	l->self_loop = (a == b);
	l->tier = -1;
	return m->nlinks++;
}

int fst_add_issue(struct fst_model *m, enum fst_issue_kind kind, enum fst_severity sev, int dev,
		  int port, int peer, int peer_port, const char *fmt, ...)
{
	struct fst_issue *ni, *is;
	va_list ap;
	char buf[1024];

	ni = fst_grow(m->issues, &m->cap_issues, m->nissues + 1, sizeof(*m->issues));
	if (!ni)
		return -1;
	m->issues = ni;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	is = &m->issues[m->nissues];
	is->msg = strdup(buf);
	if (!is->msg)
		return -1;
	is->kind = kind;
	is->severity = sev;
	is->dev = dev;
	is->port = port;
	is->peer = peer;
	is->peer_port = peer_port;
	m->nissues++;
	return 0;
}

const char *fst_dev_label(const struct fst_model *m, int d)
{
	if (d < 0 || d >= m->ndevs)
		return "?";
	if (m->devs[d].name && m->devs[d].name[0])
		return m->devs[d].name;
	return m->devs[d].id;
}

const char *fst_port_label_text(const struct fst_model *m, int d, int p, const char *who, char *buf,
				size_t n)
{
	const char *label = d >= 0 && d < m->ndevs && p >= 0 && p <= m->devs[d].nports
				    ? m->devs[d].ports[p].label
				    : "";

	snprintf(buf, n, "%s port %d%s%s%s", who, p, label[0] ? " (" : "", label,
		 label[0] ? ")" : "");
	return buf;
}

const char *fst_port_text(const struct fst_model *m, int d, int p, char *buf, size_t n)
{
	return fst_port_label_text(m, d, p, fst_dev_label(m, d), buf, n);
}

int fst_connect(struct fst_model *m, int a, int ap, int b, int bp, int width, enum fst_speed speed)
{
	struct fst_port *pa = &m->devs[a].ports[ap];
	struct fst_port *pb = &m->devs[b].ports[bp];
	char ws[32];
	int l;

	if (pa->peer == b && pa->peer_port == bp) {
		/* second mention of a known link: each end reports its own
		 * active width and speed; the link runs at the lower one */
		struct fst_link *lk = &m->links[pa->link];

		if (width > 0) {
			pa->width = width;
			if (lk->width <= 0 || width < lk->width)
				lk->width = width;
		}
		if (speed != FST_SPEED_UNKNOWN) {
			pa->speed = speed;
			if (lk->speed == FST_SPEED_UNKNOWN || speed < lk->speed)
				lk->speed = speed;
		}
		return 0;
	}
	if (pa->peer >= 0 || (pb->peer >= 0 && !(pb->peer == a && pb->peer_port == ap))) {
		return fst_add_issue(
			m, FST_ISSUE_ASYMMETRIC, FST_PROBLEM, a, ap, b, bp,
			"%s port %d -> %s port %d conflicts with an earlier link of one of these ports",
			m->devs[a].id, ap, m->devs[b].id, bp);
	}
	if (a == b && ap == bp)
		return fst_add_issue(m, FST_ISSUE_ASYMMETRIC, FST_PROBLEM, a, ap, b, bp,
				     "%s port %d is connected to itself", m->devs[a].id, ap);
	l = fst_add_link(m, a, ap, b, bp, width, speed);
	if (l < 0)
		return -1;
	pa->peer = b;
	pa->peer_port = bp;
	pa->link = l;
	pa->width = width;
	pa->speed = speed;
	pb->peer = a;
	pb->peer_port = ap;
	pb->link = l;
	pb->width = width;
	pb->speed = speed;
	if (a == b)
		return fst_add_issue(
			m, FST_ISSUE_SELF_LOOP, FST_WARNING, a, ap, b, bp,
			"self-loop cable on switch %s: port %d <-> port %d (%s), ignored for the tree",
			m->devs[a].id, ap, bp, fst_widthspeed(width, speed, ws, sizeof(ws)));
	return 0;
}

int fst_find_device(const struct fst_model *m, const char *key)
{
	int d = fst_index_get(&m->priv->ids, key);

	if (d >= 0)
		return d;
	return fst_index_get(&m->priv->names, key);
}

int fst_find_host(const struct fst_model *m, const char *name)
{
	return fst_index_get(&m->priv->hostix, name);
}

int fst_host_name_ok(const char *s)
{
	if (!*s || strlen(s) > FST_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
			return 0;
	return 1;
}

/* Compare names so that "n2" < "n10". */
int fst_str_cmp_natural(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *sa = a, *sb = b;
			size_t la, lb;

			while (*sa == '0' && isdigit((unsigned char)sa[1]))
				sa++;
			while (*sb == '0' && isdigit((unsigned char)sb[1]))
				sb++;
			a = sa;
			b = sb;
			while (isdigit((unsigned char)*a))
				a++;
			while (isdigit((unsigned char)*b))
				b++;
			la = (size_t)(a - sa);
			lb = (size_t)(b - sb);
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = strncmp(sa, sb, la);
			if (c)
				return c;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : (*b ? -1 : 0);
}

int fst_read_file(const char *path, char **bufp, size_t *lenp, char *err, size_t errlen)
{
	char why[128], *buf = NULL;
	FILE *f = fs_fopen_regular(path, why, sizeof(why));
	size_t len = 0, cap = 0, n;

	*bufp = NULL;
	*lenp = 0;
	if (!f)
		return fs_errf(err, errlen, "%s: cannot open: %s", path, why);
	do {
		if (cap - len < 65536) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 1 << 20);

			if (!nb) {
				free(buf);
				fclose(f);
				return fs_errf(err, errlen, "%s: out of memory", path);
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return fs_errf(err, errlen, "%s: read error", path);
	}
	fclose(f);
	buf[len] = '\0'; /* the loop above always leaves room */
	*bufp = buf;
	*lenp = len;
	return 0;
}
