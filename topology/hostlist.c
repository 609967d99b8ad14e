/*
 * hostlist.c — Slurm hostlist expressions: "n[001-004,7],gpu1" <-> names.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* At most this much of a faulty term is echoed, so that the message still
 * ends with the accepted form. */
#define ECHO(len) ((int)((size_t)(len) > 64 ? 64 : (size_t)(len)))

#define HOSTLIST_MAX 1000000

struct strv {
	char **v;
	int n, cap;
};

static int _push(struct strv *sv, const char *s, size_t len)
{
	char **nv;

	if (sv->n >= HOSTLIST_MAX)
		return -1;
	nv = fst_grow(sv->v, &sv->cap, sv->n + 1, sizeof(*sv->v));
	if (!nv)
		return -1;
	sv->v = nv;
	sv->v[sv->n] = strndup(s, len);
	if (!sv->v[sv->n])
		return -1;
	sv->n++;
	return 0;
}

void fst_strv_free(char **v, int n)
{
	if (!v)
		return;
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Expand one term (no top-level comma), e.g. "n[01-03]x[1-2]". */
static int _expand_term(struct strv *sv, const char *term, size_t len, char *err, size_t errlen)
{
	const char *lb = memchr(term, '[', len), *rb, *p;
	char buf[512];

	if (!lb) {
		if (!len)
			return 0;
		if (memchr(term, ']', len))
			return fs_errf(err, errlen,
				       "unbalanced ']' in \"%.*s\"; expected prefix[lo-hi,...]",
				       ECHO(len), term);
		return _push(sv, term, len) ? fs_errf(err, errlen,
						      "hostlist too large; expected "
						      "at most %d names",
						      HOSTLIST_MAX)
					    : 0;
	}
	rb = memchr(lb, ']', len - (size_t)(lb - term));
	if (!rb)
		return fs_errf(err, errlen, "missing ']' in \"%.*s\"; expected prefix[lo-hi,...]",
			       ECHO(len), term);
	p = lb + 1;
	while (p < rb) {
		const char *q = p, *dash = NULL;
		unsigned long lo, hi;
		int width;
		char *end;

		while (q < rb && *q != ',')
			q++;
		for (const char *c = p; c < q; c++)
			if (*c == '-')
				dash = c;
			else if (!isdigit((unsigned char)*c))
				return fs_errf(err, errlen,
					       "bad range \"%.*s\"; expected digits lo or lo-hi",
					       ECHO(q - p), p);
		if (q == p || dash == p || dash == q - 1)
			return fs_errf(err, errlen, "empty range in \"%.*s\"; expected lo or lo-hi",
				       ECHO(len), term);
		errno = 0;
		lo = strtoul(p, &end, 10);
		hi = dash ? strtoul(dash + 1, &end, 10) : lo;
		width = (int)((dash ? dash : q) - p);
		if (errno || hi < lo || hi - lo >= HOSTLIST_MAX)
			return fs_errf(err, errlen, "bad range \"%.*s\"; expected lo <= hi",
				       ECHO(q - p), p);
		/* counted from 0: "i <= hi" never ends when hi is ULONG_MAX */
		for (unsigned long k = 0, i = lo; k <= hi - lo; k++, i++) {
			int n = snprintf(buf, sizeof(buf), "%.*s%0*lu%.*s", (int)(lb - term), term,
					 width, i, (int)(len - (size_t)(rb + 1 - term)), rb + 1);

			if (n < 0 || (size_t)n >= sizeof(buf))
				return fs_errf(err, errlen,
					       "host name too long in \"%.*s\"; expected "
					       "names of at most %zu bytes",
					       ECHO(len), term, sizeof(buf) - 1);
			if (memchr(rb + 1, '[', len - (size_t)(rb + 1 - term))) {
				if (_expand_term(sv, buf, (size_t)n, err, errlen))
					return -1;
			} else if (_push(sv, buf, (size_t)n)) {
				return fs_errf(err, errlen,
					       "hostlist too large; expected at most %d names",
					       HOSTLIST_MAX);
			}
		}
		p = q + 1;
	}
	return 0;
}

/*
 * How many names one term expands to, without expanding it: the product,
 * over its bracket groups, of the numbers each group lists; at most @cap + 1
 * (anything beyond @cap is "too many").  Malformed groups count as what
 * they would add before _expand_term refuses them.
 */
static unsigned long _count_term(const char *term, size_t len, unsigned long cap)
{
	const char *end = term + len, *p = term;
	unsigned long total = 1;

	if (!len)
		return 0;
	while ((p = memchr(p, '[', (size_t)(end - p)))) {
		const char *rb = memchr(p, ']', (size_t)(end - p));
		unsigned long group = 0;

		if (!rb)
			break;
		for (const char *q = p + 1; q < rb;) {
			const char *c = q;
			unsigned long lo, hi;

			while (c < rb && *c != ',')
				c++;
			lo = strtoul(q, NULL, 10);
			hi = lo;
			for (const char *d = q; d < c; d++)
				if (*d == '-')
					hi = strtoul(d + 1, NULL, 10);
			if (hi >= lo && hi - lo >= cap)
				return cap + 1;
			group += hi >= lo ? hi - lo + 1 : 1;
			if (group > cap)
				return cap + 1;
			q = c + 1;
		}
		if (group && total > cap / group)
			return cap + 1;
		total *= group ? group : 1;
		p = rb + 1;
	}
	return total;
}

/* The end of the term starting at @p: a top-level comma or blank, or the
 * end; *depth follows the brackets. */
static const char *_term_end(const char *p, int *depth)
{
	for (;; p++) {
		if (*p == '[')
			(*depth)++;
		else if (*p == ']')
			(*depth)--;
		if ((*p == ',' && !*depth) || !*p || ((*p == ' ' || *p == '\t') && !*depth))
			return p;
	}
}

int fst_hostlist_expand_max(const char *expr, int max, char ***names, int *n, char *err,
			    size_t errlen)
{
	struct strv sv = { 0 };
	const char *p, *start;
	unsigned long count = 0, cap;
	int depth = 0;

	*names = NULL;
	*n = 0;
	cap = (max > 0 && max < HOSTLIST_MAX) ? (unsigned long)max : HOSTLIST_MAX;
	/* counted first: a short expression can name a million hosts, and
	 * none is allocated when they are more than the caller takes */
	for (start = expr;; start = p + 1) {
		p = _term_end(start, &depth);
		count += _count_term(start, (size_t)(p - start), cap);
		if (count > cap)
			return fs_errf(err, errlen,
				       "hostlist \"%.*s\" names more than %lu hosts; "
				       "expected at most %lu",
				       ECHO(strlen(expr)), expr, cap, cap);
		if (!*p)
			break;
	}
	depth = 0;
	for (start = expr;; start = p + 1) {
		p = _term_end(start, &depth);
		if (_expand_term(&sv, start, (size_t)(p - start), err, errlen)) {
			fst_strv_free(sv.v, sv.n);
			return -1;
		}
		if (!*p)
			break;
	}
	if (depth) {
		fst_strv_free(sv.v, sv.n);
		return fs_errf(err, errlen,
			       "unbalanced brackets in \"%.*s\"; expected "
			       "prefix[lo-hi,...]",
			       ECHO(strlen(expr)), expr);
	}
	*names = sv.v;
	*n = sv.n;
	return 0;
}

int fst_hostlist_expand(const char *expr, char ***names, int *n, char *err, size_t errlen)
{
	return fst_hostlist_expand_max(expr, HOSTLIST_MAX, names, n, err, errlen);
}

/*
 * One name for compression: prefix, number and how Slurm's hostlist reads
 * it.  A number is zero-padded to its width when it has leading zeros
 * ("n007": width 3); an unpadded number ("n10") combines with padded ones
 * whose width its digits reach ("n09,n10" is "n[09-10]"), and with other
 * unpadded ones ("n9,n10" is "n[9-10]"), as Slurm's _width_equiv has it.
 * cw is the width the name is printed at within its prefix's bracket.
 */
struct hn {
	const char *name;
	size_t plen; /* prefix length */
	int digits;  /* digits of the number, -1 no number */
	bool padded;
	int cw; /* class width: 0 unpadded, else the padding */
	unsigned long num;
};

static int _prefix_cmp(const struct hn *x, const struct hn *y)
{
	size_t l = x->plen < y->plen ? x->plen : y->plen;
	int c = strncmp(x->name, y->name, l);

	if (c)
		return c;
	if (x->plen != y->plen)
		return x->plen < y->plen ? -1 : 1;
	return 0;
}

/* By prefix, names without a number first, then class width, number. */
static int _hn_cmp(const void *a, const void *b)
{
	const struct hn *x = a, *y = b;
	int c = _prefix_cmp(x, y);

	if (c)
		return c;
	if ((x->digits < 0) != (y->digits < 0))
		return x->digits < 0 ? -1 : 1;
	if (x->digits < 0)
		return strcmp(x->name, y->name);
	if (x->cw != y->cw)
		return x->cw < y->cw ? -1 : 1;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return 0;
}

struct sbuf {
	char *s;
	size_t len, cap;
	int failed;
};

static void _sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 256;
		char *ns;

		while (nc < b->len + n + 1)
			nc *= 2;
		ns = realloc(b->s, nc);
		if (!ns) {
			b->failed = 1;
			return;
		}
		b->s = ns;
		b->cap = nc;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* Class widths: a padded name's own; an unpadded one's the largest padding
 * of its prefix its digits reach, else 0.  h sorted by prefix. */
static void _classes(struct hn *h, int n)
{
	for (int i = 0; i < n;) {
		int j = i;

		while (j < n && !_prefix_cmp(&h[i], &h[j]))
			j++;
		for (int k = i; k < j; k++) {
			if (h[k].digits < 0 || h[k].padded)
				continue;
			h[k].cw = 0;
			for (int m = i; m < j; m++)
				if (h[m].padded && h[m].cw <= h[k].digits && h[m].cw > h[k].cw)
					h[k].cw = h[m].cw;
		}
		i = j;
	}
}

char *fst_hostlist_compress(char *const *names, int n)
{
	struct hn *h = calloc((size_t)(n ? n : 1), sizeof(*h));
	struct sbuf b = { 0 };
	char tmp[64];

	if (!h)
		return NULL;
	for (int i = 0; i < n; i++) {
		const char *s = names[i];
		size_t len = strlen(s), d = len;

		while (d > 0 && isdigit((unsigned char)s[d - 1]))
			d--;
		h[i].name = s;
		h[i].plen = d;
		if (d == len || len - d > 9 || strchr(s, '[') || strchr(s, ',')) {
			h[i].digits = -1;
			h[i].plen = len;
		} else {
			h[i].num = strtoul(s + d, NULL, 10);
			h[i].digits = (int)(len - d);
			h[i].padded = s[d] == '0' && len - d > 1;
			h[i].cw = h[i].padded ? h[i].digits : 0;
		}
	}
	/* prefixes together, then the widths each unpadded name joins */
	qsort(h, (size_t)n, sizeof(*h), _hn_cmp);
	_classes(h, n);
	qsort(h, (size_t)n, sizeof(*h), _hn_cmp);
	_sb_add(&b, "", 0);
	for (int i = 0; i < n;) {
		int j = i + 1;

		if (b.len)
			_sb_add(&b, ",", 1);
		if (h[i].digits < 0) {
			_sb_add(&b, h[i].name, strlen(h[i].name));
			while (j < n && !strcmp(h[j].name, h[i].name))
				j++;
			i = j;
			continue;
		}
		/* one bracket per prefix */
		while (j < n && h[j].digits >= 0 && !_prefix_cmp(&h[i], &h[j]))
			j++;
		_sb_add(&b, h[i].name, h[i].plen);
		if (j == i + 1 ||
		    (j == i + 2 && h[i + 1].cw == h[i].cw && h[i + 1].num == h[i].num)) {
			_sb_add(&b, h[i].name + h[i].plen, strlen(h[i].name + h[i].plen));
			i = j;
			continue;
		}
		_sb_add(&b, "[", 1);
		for (int k = i; k < j;) {
			int e = k;

			while (e + 1 < j && h[e + 1].cw == h[k].cw &&
			       (h[e + 1].num == h[e].num + 1 || h[e + 1].num == h[e].num))
				e++;
			if (k > i)
				_sb_add(&b, ",", 1);
			if (e > k && h[e].num != h[k].num)
				snprintf(tmp, sizeof(tmp), "%0*lu-%0*lu", h[k].cw, h[k].num,
					 h[k].cw, h[e].num);
			else
				snprintf(tmp, sizeof(tmp), "%0*lu", h[k].cw, h[k].num);
			_sb_add(&b, tmp, strlen(tmp));
			k = e + 1;
		}
		_sb_add(&b, "]", 1);
		i = j;
	}
	free(h);
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
