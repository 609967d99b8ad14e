/*
 * fs_hugepages.c - hugepage sizes, gres/hugepages types and requests
 * (fs_hugepages.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs_err.h"
#include "fs_hugepages.h"
#include "fs_values.h"

/* ------------------------------------------------------------ sizes, types */

int fs_hp_page_kb(const char *s, size_t len, uint64_t *page_kb)
{
	uint64_t v = 0;
	size_t i;

	if (!s || len < 2)
		return -1;
	for (i = 0; i + 1 < len && s[i] >= '0' && s[i] <= '9'; i++) {
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > (1ULL << 32))
			return -1;
	}
	if (!i || i + 1 != len || !v)
		return -1;
	switch (s[i] | 0x20) {
	case 'k':
		*page_kb = v;
		break;
	case 'm':
		*page_kb = v << 10;
		break;
	case 'g':
		*page_kb = v << 20;
		break;
	default:
		return -1;
	}
	return 0;
}

const char *fs_hp_page_name(uint64_t page_kb, char *buf, size_t bufsz)
{
	if (page_kb && !(page_kb % (1024 * 1024)))
		snprintf(buf, bufsz, "%" PRIu64 "g", page_kb >> 20);
	else if (page_kb && !(page_kb % 1024))
		snprintf(buf, bufsz, "%" PRIu64 "m", page_kb >> 10);
	else
		snprintf(buf, bufsz, "%" PRIu64 "k", page_kb);
	return buf;
}

int fs_hp_type_parse(const char *type, uint64_t *page_kb, uint64_t *per_unit, char *err,
		     size_t errlen)
{
	char esc[FS_ESCAPE_SIZE];
	const char *x = type ? strchr(type, 'x') : NULL;
	uint64_t v = 0;

	if (!type || fs_hp_page_kb(type, x ? (size_t)(x - type) : strlen(type), page_kb))
		goto bad;
	*per_unit = 1;
	if (!x)
		return 0;
	for (x++; *x >= '0' && *x <= '9' && v <= FS_HP_MAX_PER_UNIT; x++)
		v = v * 10 + (uint64_t)(*x - '0');
	if (*x || !v || v > FS_HP_MAX_PER_UNIT)
		goto bad;
	*per_unit = v;
	return 0;
bad:
	return fs_errf(err, errlen,
		       "hugepages type \"%s\": not a page size and "
		       "unit; expected <size>[x<pages per unit>], size 2m, 1g "
		       "(k, m, g), pages 1..%llu, e.g. 2m or 2mx8",
		       type ? fs_escape(esc, sizeof(esc), type, strlen(type)) : "",
		       (unsigned long long)FS_HP_MAX_PER_UNIT);
}

const char *fs_hp_type_name(uint64_t page_kb, uint64_t per_unit, char *buf, size_t bufsz)
{
	char page[16];

	fs_hp_page_name(page_kb, page, sizeof(page));
	if (per_unit <= 1)
		snprintf(buf, bufsz, "%s", page);
	else
		snprintf(buf, bufsz, "%sx%" PRIu64, page, per_unit);
	return buf;
}

/* ------------------------------------------------------------ HugepageUnits */

/* Digits of s[0..len) in 1..max. */
/* Sums and products of page counts stop at UINT64_MAX instead of
 * wrapping: a request whose counts add up past 2^64 is larger than any
 * node, never a small one. */
static uint64_t _sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t _sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static int _number(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!len)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || v > max)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (!v || v > max)
		return -1;
	*out = v;
	return 0;
}

int fs_hp_units_parse(const char *key, const char *text, struct fs_hp_units *out, char *err,
		      size_t errlen)
{
	char esc[FS_ESCAPE_SIZE], esc2[FS_ESCAPE_SIZE], page[16];

	memset(out, 0, sizeof(*out));
	for (const char *p = text; p && *p;) {
		size_t len = strcspn(p, ",");
		const char *colon = memchr(p, ':', len);
		struct fs_hp_unit u;

		if (!colon || fs_hp_page_kb(p, (size_t)(colon - p), &u.page_kb) ||
		    _number(colon + 1, len - (size_t)(colon - p) - 1, FS_HP_MAX_PER_UNIT,
			    &u.per_unit))
			return fs_errf(err, errlen,
				       "%s=%s: bad entry \"%s\"; "
				       "expected " FS_HP_UNITS_FORM " (pages 1..%llu)",
				       key, fs_escape(esc, sizeof(esc), text, strlen(text)),
				       fs_escape(esc2, sizeof(esc2), p, len),
				       (unsigned long long)FS_HP_MAX_PER_UNIT);
		if (fs_hp_units_of(out, u.page_kb))
			return fs_errf(err, errlen,
				       "%s: page size %s given twice; "
				       "expected one unit per page size",
				       key, fs_hp_page_name(u.page_kb, page, sizeof(page)));
		if (out->n == FS_HP_SIZES_MAX)
			return fs_errf(err, errlen,
				       "%s: more than %d page sizes; "
				       "expected at most %d <size>:<pages> entries",
				       key, FS_HP_SIZES_MAX, FS_HP_SIZES_MAX);
		out->u[out->n++] = u;
		p += len + (p[len] ? 1 : 0);
		if (!*p && p[-1] == ',')
			return fs_errf(err, errlen,
				       "%s=%s: ends in a comma; "
				       "expected " FS_HP_UNITS_FORM,
				       key, fs_escape(esc, sizeof(esc), text, strlen(text)));
	}
	return 0;
}

uint64_t fs_hp_units_of(const struct fs_hp_units *u, uint64_t page_kb)
{
	for (size_t i = 0; u && i < u->n; i++)
		if (u->u[i].page_kb == page_kb)
			return u->u[i].per_unit;
	return 0;
}

/* ------------------------------------------------------------ nodes */

int fs_hp_node_add(struct fs_hp_node *nd, const char *type, uint64_t units, char *err,
		   size_t errlen)
{
	uint64_t kb, per;
	size_t i;

	if (fs_hp_type_parse(type, &kb, &per, err, errlen))
		return -1;
	for (i = 0; i < nd->n; i++)
		if (nd->p[i].page_kb == kb && nd->p[i].per_unit == per)
			break;
	if (i == nd->n) {
		if (nd->n == FS_HP_SIZES_MAX)
			return fs_errf(err, errlen,
				       "node %s: more than %d "
				       "hugepage types; expected at most %d",
				       nd->name ? nd->name : "?", FS_HP_SIZES_MAX, FS_HP_SIZES_MAX);
		nd->p[nd->n++] = (struct fs_hp_pool){ .page_kb = kb, .per_unit = per };
	}
	nd->p[i].units = _sat_add(nd->p[i].units, units);
	return 0;
}

uint64_t fs_hp_node_pages(const struct fs_hp_node *nd, uint64_t page_kb)
{
	uint64_t pages = 0;

	for (size_t i = 0; i < nd->n; i++)
		if (nd->p[i].page_kb == page_kb)
			pages = _sat_add(pages, _sat_mul(nd->p[i].units, nd->p[i].per_unit));
	return pages;
}

/* Units of (page_kb, per_unit) on nd. */
static uint64_t _units(const struct fs_hp_node *nd, uint64_t page_kb, uint64_t per_unit)
{
	for (size_t i = 0; i < nd->n; i++)
		if (nd->p[i].page_kb == page_kb && nd->p[i].per_unit == per_unit)
			return nd->p[i].units;
	return 0;
}

/* ------------------------------------------------------------ requests */

/* A count as Slurm writes it: digits, then k, m or g (times 1024). */
static int _count(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;
	int shift = 0;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == 0)
		return -1;
	if (i + 1 == len) {
		switch (s[i] | 0x20) {
		case 'k':
			shift = 10;
			break;
		case 'm':
			shift = 20;
			break;
		case 'g':
			shift = 30;
			break;
		default:
			return -1;
		}
	} else if (i != len)
		return -1;
	if (v > (UINT64_MAX >> shift))
		return -1;
	*out = v << shift;
	return 0;
}

/* One entry of the request. */
struct ent {
	const char *s;	    /* the entry in tres, len bytes */
	size_t len, prefix; /* "gres:" or "gres/": 5, else 0 */
	bool hp, typed, in_pages;
	uint64_t page_kb, per_unit, count;
};

#define HP_FORM                                            \
	"hugepages:<size>:<pages> (size 2m, 1g, ...), or " \
	"hugepages:<size>x<K>:<units of K pages>"

static int _parse_ent(struct ent *e, char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE], esc2[FS_ESCAPE_SIZE], type[40];
	const char *b = e->s + e->prefix, *end = e->s + e->len, *c1, *c2;
	size_t blen = (size_t)(end - b);

	c1 = memchr(b, ':', blen);
	if ((c1 ? (size_t)(c1 - b) : blen) != 9 || memcmp(b, "hugepages", 9))
		return 0;
	e->hp = true;
	e->count = 1;
	if (!c1)
		return 0;
	c2 = memchr(c1 + 1, ':', (size_t)(end - c1 - 1));
	if (c2 && memchr(c2 + 1, ':', (size_t)(end - c2 - 1)))
		goto bad;
	if (_count(c2 ? c2 + 1 : c1 + 1, (size_t)(end - (c2 ? c2 : c1) - 1), &e->count))
		goto bad;
	if (!c2)
		return 0;
	if ((size_t)(c2 - c1 - 1) >= sizeof(type))
		goto bad;
	memcpy(type, c1 + 1, (size_t)(c2 - c1 - 1));
	type[c2 - c1 - 1] = '\0';
	if (fs_hp_type_parse(type, &e->page_kb, &e->per_unit, NULL, 0))
		return fs_errf(err, errlen,
			       "gres request \"%s\": hugepage type "
			       "\"%s\" is not a page size; expected " HP_FORM,
			       fs_escape(esc, sizeof(esc), e->s, e->len),
			       fs_escape(esc2, sizeof(esc2), type, strlen(type)));
	e->typed = true;
	e->in_pages = !strchr(type, 'x');
	return 0;
bad:
	return fs_errf(err, errlen,
		       "gres request \"%s\": not a hugepage "
		       "request; expected " HP_FORM,
		       fs_escape(esc, sizeof(esc), e->s, e->len));
}

/* Whether a node holds units of exactly e's type; else *other is a unit
 * the nodes count its pages in (0: none holds any). */
static bool _type_held(const struct ent *e, const struct fs_hp_node *nodes, size_t nnodes,
		       uint64_t *other)
{
	*other = 0;
	for (size_t i = 0; i < nnodes; i++)
		for (size_t k = 0; k < nodes[i].n; k++) {
			const struct fs_hp_pool *p = &nodes[i].p[k];

			if (p->page_kb != e->page_kb || !p->units)
				continue;
			if (p->per_unit == e->per_unit)
				return true;
			*other = p->per_unit;
		}
	return false;
}

/* The pages-per-unit the nodes holding page_kb pages count them in: 0
 * when none holds any; -1 (message) when they differ. */
static int _unit_of_nodes(const struct ent *e, const char *where, const struct fs_hp_node *nodes,
			  size_t nnodes, uint64_t *unit, char *err, size_t errlen)
{
	const struct fs_hp_node *first = NULL;
	uint64_t first_unit = 0, big = 0;
	char page[16], t1[32], t2[32], esc[FS_ESCAPE_SIZE];

	*unit = 0;
	for (size_t i = 0; i < nnodes; i++)
		for (size_t k = 0; k < nodes[i].n; k++) {
			const struct fs_hp_pool *p = &nodes[i].p[k];

			if (p->page_kb != e->page_kb || !p->units)
				continue;
			if (p->per_unit > big)
				big = p->per_unit;
			if (!first) {
				first = &nodes[i];
				first_unit = p->per_unit;
			} else if (p->per_unit != first_unit && !*unit) {
				*unit = p->per_unit;
				fs_errf(err, errlen,
					"gres request \"%s\": the nodes "
					"of %s count %s pages in different units "
					"(%s on %s, %s on %s), so no one request "
					"fits them all; expected one unit for the "
					"cluster in fabsched.conf (HugepageUnits="
					"%s:<pages>, e.g. %s:%" PRIu64 "), or a "
					"request in one node's type",
					fs_escape(esc, sizeof(esc), e->s, e->len), where,
					fs_hp_page_name(e->page_kb, page, sizeof(page)),
					fs_hp_type_name(e->page_kb, first_unit, t1, sizeof(t1)),
					first->name ? first->name : "?",
					fs_hp_type_name(e->page_kb, p->per_unit, t2, sizeof(t2)),
					nodes[i].name ? nodes[i].name : "?", page, page, big);
			}
		}
	if (*unit)
		return -1;
	*unit = first_unit;
	return 0;
}

/* The pages asked of one size added up; -1 (with err) when a new size
 * would be one more than FS_HP_SIZES_MAX. */
static int _ask(struct fs_hp_plan *p, uint64_t page_kb, uint64_t pages, char *err, size_t errlen)
{
	size_t i;

	if (!pages)
		return 0; /* hugepages:2m:0 asks for no page */
	for (i = 0; i < p->n && p->a[i].page_kb != page_kb; i++)
		;
	if (i == p->n) {
		if (p->n == FS_HP_SIZES_MAX)
			return fs_errf(err, errlen,
				       "gres request: more than %d hugepage "
				       "sizes; expected at most %d page sizes in one "
				       "request",
				       FS_HP_SIZES_MAX, FS_HP_SIZES_MAX);
		p->a[p->n++] = (struct fs_hp_ask){ .page_kb = page_kb };
	}
	p->a[i].pages = _sat_add(p->a[i].pages, pages);
	return 0;
}

/* Does nd hold every entry (in its unit) and the untyped count? */
static bool _fits(const struct ent *ents, size_t n, uint64_t untyped, const struct fs_hp_node *nd)
{
	uint64_t need[FS_HP_SIZES_MAX] = { 0 }, free_pages = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ent *e = &ents[i];

		if (!e->hp || !e->typed)
			continue;
		for (size_t k = 0; k < nd->n; k++)
			if (nd->p[k].page_kb == e->page_kb && nd->p[k].per_unit == e->per_unit)
				need[k] = _sat_add(need[k], e->count);
	}
	for (size_t i = 0; i < n; i++) {
		const struct ent *e = &ents[i];

		if (e->hp && e->typed && !_units(nd, e->page_kb, e->per_unit))
			return false;
	}
	for (size_t k = 0; k < nd->n; k++) {
		if (need[k] > nd->p[k].units)
			return false;
		free_pages =
			_sat_add(free_pages, _sat_mul(nd->p[k].units - need[k], nd->p[k].per_unit));
	}
	return untyped <= free_pages;
}

/* The refusal when no node holds the request: the largest holdings. */
static int _no_node(const struct fs_hp_plan *p, const char *what, const char *where,
		    const struct fs_hp_node *nodes, size_t nnodes, char *err, size_t errlen)
{
	char part[512] = "", page[16];
	size_t o = 0;

	if (!nnodes)
		return fs_errf(err, errlen,
			       "%s: no node of %s has hugepages; "
			       "expected a partition whose nodes have "
			       "gres/hugepages",
			       what, where);
	for (size_t i = 0; i <= p->n && o < sizeof(part); i++) {
		const struct fs_hp_node *best = &nodes[0];
		uint64_t most = 0;

		if (i == p->n && !p->untyped)
			break;
		for (size_t k = 0; k < nnodes; k++) {
			uint64_t have = 0;

			if (i < p->n)
				have = fs_hp_node_pages(&nodes[k], p->a[i].page_kb);
			else
				for (size_t j = 0; j < nodes[k].n; j++)
					have = _sat_add(have, _sat_mul(nodes[k].p[j].units,
								       nodes[k].p[j].per_unit));
			if (have > most) {
				most = have;
				best = &nodes[k];
			}
		}
		if (i < p->n)
			o += (size_t)snprintf(part + o, sizeof(part) - o,
					      "%s%" PRIu64 " pages of %s (node %s)", o ? ", " : "",
					      most,
					      fs_hp_page_name(p->a[i].page_kb, page, sizeof(page)),
					      best->name ? best->name : "?");
		else
			o += (size_t)snprintf(part + o, sizeof(part) - o,
					      "%s%" PRIu64 " hugepages of any "
					      "size (node %s)",
					      o ? ", " : "", most, best->name ? best->name : "?");
	}
	return fs_errf(err, errlen,
		       "%s: more hugepages per node than any node "
		       "of %s holds; the largest hold %s; expected at most that",
		       what, where, part);
}

/* p->tres: every entry as given but those whose unit changed. */
static int _rewrite(const char *tres, const struct ent *ents, size_t n, struct fs_hp_plan *p,
		    char *err, size_t errlen)
{
	size_t cap = strlen(tres) + n * 48 + 1, o = 0;
	char type[32];

	if (!(p->tres = malloc(cap)))
		return fs_errf(err, errlen, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct ent *e = &ents[i];

		if (i)
			p->tres[o++] = ',';
		if (e->hp && e->typed && e->in_pages && e->per_unit > 1)
			o += (size_t)snprintf(
				p->tres + o, cap - o, "%.*shugepages:%s:%" PRIu64, (int)e->prefix,
				e->s, fs_hp_type_name(e->page_kb, e->per_unit, type, sizeof(type)),
				e->count);
		else {
			memcpy(p->tres + o, e->s, e->len);
			o += e->len;
		}
	}
	p->tres[o] = '\0';
	return 0;
}

/* A request against the nodes that could run it, through fs_hp_plan's
 * phases. */
struct req {
	const char *where; /* the nodes, for messages */
	const struct fs_hp_node *nodes;
	size_t nnodes;
	struct ent *ents; /* the request's entries, n of them */
	size_t n;
	bool blocks; /* a node counts pages in units of several */
	bool change; /* an entry's unit changed: p->tres is written */
	struct fs_hp_plan *p;
};

/* The entries of tres into q->ents (the caller frees it), each parsed;
 * -1 with a message at the first bad one. */
static int _split(const char *tres, struct req *q, char *err, size_t errlen)
{
	size_t cap = 1;

	for (const char *s = tres; *s; s++)
		cap += *s == ',';
	if (!(q->ents = calloc(cap, sizeof(*q->ents))))
		return fs_errf(err, errlen, "out of memory");
	for (const char *s = tres;;) {
		struct ent *e = &q->ents[q->n++];

		e->s = s;
		e->len = strcspn(s, ",");
		if (!strncmp(s, "gres:", 5) || !strncmp(s, "gres/", 5))
			e->prefix = 5;
		if (_parse_ent(e, err, errlen))
			return -1;
		s += e->len;
		if (!*s++)
			break;
	}
	return 0;
}

/* Whether a node counts its pages of some size in units of several. */
static bool _blocks(const struct fs_hp_node *nodes, size_t nnodes)
{
	bool blocks = false;

	for (size_t i = 0; i < nnodes; i++)
		for (size_t k = 0; k < nodes[i].n; k++)
			blocks |= nodes[i].p[k].per_unit > 1 && nodes[i].p[k].units;
	return blocks;
}

/* hugepages:<count>: pages of any size, ambiguous on nodes counting in
 * units of several pages. */
static int _plan_untyped(struct req *q, const struct ent *e, char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE];

	if (q->blocks)
		return fs_errf(err, errlen,
			       "gres request \"%s\": the nodes "
			       "of %s count hugepages in units of several "
			       "pages, so a count without a page size is "
			       "ambiguous; expected the size named, e.g. "
			       "hugepages:2m:%" PRIu64,
			       fs_escape(esc, sizeof(esc), e->s, e->len), q->where, e->count);
	q->p->untyped = _sat_add(q->p->untyped, e->count);
	return 0;
}

/* hugepages:<size>x<K>:<units>: as given, if the nodes count in units of
 * K pages. */
static int _plan_units(struct req *q, const struct ent *e, char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE], t[32], pg[16];
	uint64_t unit;

	if (e->count > UINT64_MAX / e->per_unit)
		return fs_errf(err, errlen,
			       "gres request \"%s\": too many "
			       "pages",
			       fs_escape(esc, sizeof(esc), e->s, e->len));
	if (_ask(q->p, e->page_kb, e->count * e->per_unit, err, errlen))
		return -1;
	if (!_type_held(e, q->nodes, q->nnodes, &unit))
		return fs_errf(err, errlen,
			       "gres request \"%s\": the nodes "
			       "of %s do not count hugepages in units of "
			       "%" PRIu64 " pages%s%s%s; expected the pages "
			       "asked, e.g. hugepages:%s:%" PRIu64,
			       fs_escape(esc, sizeof(esc), e->s, e->len), q->where, e->per_unit,
			       unit ? " (they count in " : "",
			       unit ? fs_hp_type_name(e->page_kb, unit, t, sizeof(t)) : "",
			       unit ? ")" : "", fs_hp_page_name(e->page_kb, pg, sizeof(pg)),
			       e->count * e->per_unit);
	return 0;
}

/* hugepages:<size>:<pages>: into the unit the nodes count that size in
 * (rounded up). */
static int _plan_pages(struct req *q, struct ent *e, char *err, size_t errlen)
{
	uint64_t unit;

	if (_ask(q->p, e->page_kb, e->count, err, errlen))
		return -1;
	if (_unit_of_nodes(e, q->where, q->nodes, q->nnodes, &unit, err, errlen))
		return -1;
	if (unit > 1) {
		e->count = e->count / unit + (e->count % unit != 0);
		e->per_unit = unit;
		q->change = true;
	}
	return 0;
}

/* Each hugepage entry: its pages asked, checked against the nodes'
 * units; -1 with a message at the first refused. */
static int _plan_ents(struct req *q, char *err, size_t errlen)
{
	for (size_t i = 0; i < q->n; i++) {
		struct ent *e = &q->ents[i];
		int rc;

		if (!e->hp)
			continue;
		q->p->found = true;
		if (!e->typed)
			rc = _plan_untyped(q, e, err, errlen);
		else if (!e->in_pages)
			rc = _plan_units(q, e, err, errlen);
		else
			rc = _plan_pages(q, e, err, errlen);
		if (rc)
			return -1;
	}
	return 0;
}

/* Whether some node holds the whole request. */
static bool _some_fits(const struct req *q)
{
	for (size_t i = 0; i < q->nnodes; i++)
		if (_fits(q->ents, q->n, q->p->untyped, &q->nodes[i]))
			return true;
	return false;
}

int fs_hp_plan(const char *tres, const char *what, const char *where,
	       const struct fs_hp_node *nodes, size_t nnodes, struct fs_hp_plan *p, char *err,
	       size_t errlen)
{
	struct req q = { .where = where, .nodes = nodes, .nnodes = nnodes, .p = p };
	int rc = -1;

	memset(p, 0, sizeof(*p));
	if (!tres || !*tres)
		return 0;
	if (_split(tres, &q, err, errlen))
		goto out;
	q.blocks = _blocks(nodes, nnodes);
	if (_plan_ents(&q, err, errlen))
		goto out;
	rc = 0;
	if (p->found && !_some_fits(&q))
		rc = _no_node(p, what, where, nodes, nnodes, err, errlen);
	if (!rc && q.change)
		rc = _rewrite(tres, q.ents, q.n, p, err, errlen);
out:
	free(q.ents);
	return rc;
}

void fs_hp_plan_free(struct fs_hp_plan *p)
{
	if (!p)
		return;
	free(p->tres);
	p->tres = NULL;
}

int fs_hp_asked_format(const struct fs_hp_plan *p, char *buf, size_t bufsz)
{
	size_t o = 0;
	char page[16];

	if (!bufsz)
		return -1;
	buf[0] = '\0';
	for (size_t i = 0; i < p->n; i++) {
		int w = snprintf(buf + o, bufsz - o, "%s%s:%" PRIu64, i ? "," : "",
				 fs_hp_page_name(p->a[i].page_kb, page, sizeof(page)),
				 p->a[i].pages);

		if (w < 0 || (size_t)w >= bufsz - o)
			return -1;
		o += (size_t)w;
	}
	return 0;
}

int fs_hp_asked_parse(const char *name, const char *s, struct fs_hp_ask *a, size_t *n, char *err,
		      size_t errlen)
{
	char esc[FS_ESCAPE_SIZE], esc2[FS_ESCAPE_SIZE];

	*n = 0;
	for (const char *p = s; p && *p;) {
		size_t len = strcspn(p, ",");
		const char *colon = memchr(p, ':', len);
		struct fs_hp_ask e;
		size_t i;

		if (!colon || fs_hp_page_kb(p, (size_t)(colon - p), &e.page_kb) ||
		    _number(colon + 1, len - (size_t)(colon - p) - 1, UINT64_MAX / 10, &e.pages))
			return fs_errf(err, errlen,
				       "%s=\"%s\": bad entry \"%s\"; "
				       "expected comma-separated <page size>:"
				       "<pages>, e.g. 2m:8200,1g:4",
				       name, fs_escape(esc, sizeof(esc), s, strlen(s)),
				       fs_escape(esc2, sizeof(esc2), p, len));
		for (i = 0; i < *n && a[i].page_kb != e.page_kb; i++)
			;
		if (i < *n || *n == FS_HP_SIZES_MAX)
			return fs_errf(err, errlen,
				       "%s=\"%s\": a page size given "
				       "twice or more than %d sizes; expected each "
				       "size once, at most %d",
				       name, fs_escape(esc, sizeof(esc), s, strlen(s)),
				       FS_HP_SIZES_MAX, FS_HP_SIZES_MAX);
		a[(*n)++] = e;
		p += len + (p[len] ? 1 : 0);
		if (!*p && p[-1] == ',')
			return fs_errf(err, errlen,
				       "%s=\"%s\": ends in a comma; "
				       "expected <page size>:<pages>, e.g. 2m:8200",
				       name, fs_escape(esc, sizeof(esc), s, strlen(s)));
	}
	return 0;
}

/* "gres:hugepages:2m:512,gres/rdma:1" -> "--gres=hugepages:2m:512,rdma:1"
 * (cut at bufsz: it is for messages) */
static void _user_form(const char *tres, char *buf, size_t bufsz)
{
	size_t o = (size_t)snprintf(buf, bufsz, "--gres=");

	for (const char *s = tres; *s && o < bufsz; s += *s == ',') {
		size_t len = strcspn(s, ","), skip = 0;

		if (!strncmp(s, "gres:", 5) || !strncmp(s, "gres/", 5))
			skip = 5;
		o += (size_t)snprintf(buf + o, bufsz - o, "%s%.*s", s == tres ? "" : ",",
				      (int)(len - skip), s + skip);
		s += len;
	}
}

int fs_hp_request(const char *tres, const char *parts, const struct fs_hp_node *nodes,
		  size_t nnodes, char **tres_out, char *asked, size_t askedsz, char *err,
		  size_t errlen)
{
	char what[FS_MSG_SIZE], where[FS_MSG_SIZE];
	struct fs_hp_plan p;
	int rc;

	*tres_out = NULL;
	if (askedsz)
		asked[0] = '\0';
	if (!tres || !*tres)
		return 0;
	_user_form(tres, what, sizeof(what));
	snprintf(where, sizeof(where), "partition%s %s", parts && strchr(parts, ',') ? "s" : "",
		 parts ? parts : "");
	rc = fs_hp_plan(tres, what, where, nodes, nnodes, &p, err, errlen);
	if (!rc && fs_hp_asked_format(&p, asked, askedsz))
		rc = fs_errf(err, errlen, "%s: too many page sizes asked", what);
	if (!rc) {
		*tres_out = p.tres;
		p.tres = NULL;
	}
	fs_hp_plan_free(&p);
	return rc;
}
