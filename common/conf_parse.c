/*
 * conf_parse.c - reading fabsched.conf text: physical and logical
 * lines, KEY=VALUE pairs, global and PartitionName lines, then resolving
 * defaults and fallbacks and checking keys that go together.
 * See fabsched_conf.h and fabsched.conf(5).
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* secure_getenv, GNU strerror_r */
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf_private.h"
#include "fs_ib.h"

/* ------------------------------------------------------------ parser */

static void _oom(struct _parser *P)
{
	if (!P->stop) {
		P->nerr++;
		if (P->errs)
			fs_errors_add(P->errs, "%s: %s", P->name, fsc_oom_msg);
	}
	P->stop = true;
}

/* Report an error at line (0: of the whole file). */
static void _err(struct _parser *P, unsigned line, const char *fmt, ...) FS_PRINTF(3, 4);

static void _err(struct _parser *P, unsigned line, const char *fmt, ...)
{
	va_list ap;
	char *body;

	if (P->stop)
		return;
	if (++P->nerr > FS_CONF_MAX_ERRORS) {
		if (P->errs)
			fs_errors_add(P->errs,
				      "%s:%u: too many errors (more than %d); "
				      "expected fewer: fix these and load "
				      "again",
				      P->name, line, FS_CONF_MAX_ERRORS);
		P->stop = true;
		return;
	}
	if (!P->errs)
		return;
	va_start(ap, fmt);
	body = fsc_vformat(fmt, ap);
	va_end(ap);
	if (!body) {
		_oom(P);
		return;
	}
	if (line)
		fs_errors_add(P->errs, "%s:%u: %s", P->name, line, body);
	else
		fs_errors_add(P->errs, "%s: %s", P->name, body);
	free(body);
}

static int _blank(int c)
{
	return c == ' ' || c == '\t';
}

static int _grow(void **p, size_t *cap, size_t need, size_t elsize)
{
	size_t c = *cap ? *cap : 16;
	void *n;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	if (!(n = realloc(*p, c * elsize)))
		return -1;
	*p = n;
	*cap = c;
	return 0;
}

/*
 * Check a physical line's bytes: no NUL, no control character but TAB,
 * valid UTF-8.  Reports the first problem and returns -1.
 */
static int _check_bytes(struct _parser *P, unsigned line, const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned c = s[i], need, lo = 0x80, hi = 0xbf;

		if (c == 0) {
			_err(P, line, "NUL byte at column %zu; expected text", i + 1);
			return -1;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			_err(P, line,
			     "control character 0x%02x at column %zu; "
			     "expected printable text",
			     c, i + 1);
			return -1;
		}
		if (c < 0x80)
			continue;
		if (c >= 0xc2 && c <= 0xdf) {
			need = 1;
		} else if (c >= 0xe0 && c <= 0xef) {
			need = 2;
			if (c == 0xe0)
				lo = 0xa0; /* overlong */
			else if (c == 0xed)
				hi = 0x9f; /* surrogates */
		} else if (c >= 0xf0 && c <= 0xf4) {
			need = 3;
			if (c == 0xf0)
				lo = 0x90; /* overlong */
			else if (c == 0xf4)
				hi = 0x8f; /* > U+10FFFF */
		} else {
			goto bad;
		}
		for (unsigned j = 1; j <= need; j++) {
			unsigned d = i + j < n ? s[i + j] : 0;

			if (d < lo || d > hi)
				goto bad;
			lo = 0x80;
			hi = 0xbf;
		}
		i += need;
		continue;
	bad:
		_err(P, line, "invalid UTF-8 at column %zu; expected UTF-8 text", i + 1);
		return -1;
	}
	return 0;
}

/* Offset off of lbuf -> the physical line it came from. */
static unsigned _line_at(const struct _parser *P, size_t off)
{
	size_t lo = 0, hi = P->nseg; /* last segment starting at or before off */

	if (!P->nseg)
		return 0;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (P->segs[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return P->segs[lo].line;
}

static const char *_esc(char *buf, size_t bufsz, const char *s)
{
	return fs_escape(buf, bufsz, s, strlen(s));
}

/*
 * Unknown key: say which keys the line accepts, and the nearest one.
 * _distance is the optimal string alignment distance of a and b (ASCII case
 * folded), or max + 1 as soon as it is known to exceed max: keys that
 * differ in length by more than max are not compared, and a row whose every
 * cell exceeds max ends the comparison.  A file full of unknown keys costs
 * little more than one of known keys.
 */
static unsigned _distance(const char *a, const char *b, unsigned max)
{
	unsigned d[3][41], prevmin = 0; /* prevmin: the row before's smallest */
	size_t la = strlen(a), lb = strlen(b);

	if (la > 40 || lb > 40)
		return max + 1;
	if ((la > lb ? la - lb : lb - la) > max)
		return max + 1;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *cur = d[i % 3], *prev = d[(i + 2) % 3], *prev2 = d[(i + 1) % 3];
		unsigned rowmin;

		cur[0] = rowmin = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = a[i - 1] | 0x20, cb = b[j - 1] | 0x20;
			unsigned cost = ca != cb, v = prev[j] + 1;

			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + cost < v)
				v = prev[j - 1] + cost;
			if (i > 1 && j > 1 && ca == (b[j - 2] | 0x20) && (a[i - 2] | 0x20) == cb &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
			if (v < rowmin)
				rowmin = v;
		}
		/* a transposition reaches back two rows: both must be over */
		if (rowmin > max && prevmin > max)
			return max + 1;
		prevmin = rowmin;
	}
	return d[la % 3][lb] > max ? max + 1 : d[la % 3][lb];
}

static void _unknown_key(struct _parser *P, const struct _pair *pr, enum fs_conf_scope scope)
{
	char esc[FS_ESCAPE_SIZE], list[1024], hint[128] = "";
	const char *best = NULL;
	enum fs_conf_scope best_scope = scope;
	unsigned bestd = 99;
	size_t o = 0;

	if (P->stop || P->nerr >= FS_CONF_MAX_ERRORS) {
		/* the message would not be kept: only count it */
		_err(P, pr->line, "unknown key");
		return;
	}
	list[0] = '\0';
	for (size_t i = 0; i <= fsc_nkeys; i++) {
		const char *name = i < fsc_nkeys ? fsc_keys[i].name : PARTITION_KEY;
		enum fs_conf_scope sc = i < fsc_nkeys ? fsc_keys[i].scope : FS_SCOPE_GLOBAL;
		size_t len = strlen(name);
		unsigned limit = len <= 5 ? 1 : len < 12 ? 2 : 3;
		unsigned d = _distance(pr->key, name, limit);

		if (d <= limit &&
		    (d < bestd || (d == bestd && sc == scope && best_scope != scope))) {
			bestd = d;
			best = name;
			best_scope = sc;
		}
		if (sc != scope)
			continue;
		if (o + len + 3 < sizeof(list))
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", o ? ", " : "",
					      name);
	}
	if (best)
		snprintf(hint, sizeof(hint), " (did you mean %s%s?)", best,
			 best_scope == scope		 ? ""
			 : best_scope == FS_SCOPE_GLOBAL ? ", a global key"
							 : ", a partition key");
	_err(P, pr->line, "unknown key '%s'%s; accepted %s keys: %s",
	     _esc(esc, sizeof(esc), pr->key), hint,
	     scope == FS_SCOPE_GLOBAL ? "global" : "partition", list);
}

/* Set key k of vals from the pair; reports a bad value. */
static void _set(struct _parser *P, const struct _pair *pr, int k, struct _val *vals)
{
	char msg[FS_MSG_SIZE];

	if (fsc_val_parse(&fsc_keys[k], pr->val, &vals[k], msg, sizeof(msg))) {
		_err(P, pr->line, "%s", msg);
		return;
	}
	vals[k].origin = O_FILE;
	vals[k].line = pr->line;
}

static void _global_line(struct _parser *P)
{
	char esc[FS_ESCAPE_SIZE];

	for (size_t i = 0; i < P->npairs && !P->stop; i++) {
		const struct _pair *pr = &P->pairs[i];
		int k;

		if (pr->skip)
			continue;
		k = fsc_key_index(pr->key);
		if (k < 0) {
			_unknown_key(P, pr, FS_SCOPE_GLOBAL);
		} else if (fsc_keys[k].scope != FS_SCOPE_GLOBAL) {
			_err(P, pr->line,
			     "%s is a partition key, not a global one; "
			     "expected it on a PartitionName= line "
			     "(PartitionName=DEFAULT sets it for every "
			     "partition)",
			     fsc_keys[k].name);
		} else if (P->gseen[k]) {
			_err(P, pr->line,
			     "%s=%s: %s is already set at line %u; expected "
			     "each global key once",
			     fsc_keys[k].name, _esc(esc, sizeof(esc), pr->val), fsc_keys[k].name,
			     P->gseen[k]);
		} else {
			P->gseen[k] = pr->line;
			_set(P, pr, k, P->conf->g);
		}
	}
}

struct _part *fsc_find_part(const struct fs_conf *conf, const char *name)
{
	for (size_t i = 0; name && i < conf->nparts; i++)
		if (!strcmp(conf->parts[i]->name, name))
			return conf->parts[i];
	return NULL;
}

static int _valid_part_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= 0x20 || c >= 0x7f || strchr(",=#\"'\\", c))
			return 0;
	}
	return 1;
}

static void _partition_line(struct _parser *P)
{
	const struct _pair *first = &P->pairs[0];
	struct _part *target = NULL, *scratch = NULL, *prev;
	char esc[FS_ESCAPE_SIZE];

	if (!_valid_part_name(first->val)) {
		_err(P, first->line,
		     "PartitionName=%s: %s; expected a partition name "
		     "(printable ASCII without blanks or , = # \" ' \\)",
		     _esc(esc, sizeof(esc), first->val),
		     *first->val ? "not a valid partition name" : "empty value");
	} else if (fs_strcaseeq(first->val, "DEFAULT")) {
		target = &P->conf->dflt;
		target->line = first->line;
	} else if ((prev = fsc_find_part(P->conf, first->val))) {
		_err(P, first->line,
		     "partition '%s' is already defined at line %u; expected "
		     "one PartitionName line per partition, with all its keys",
		     first->val, prev->line);
	} else if (P->conf->nparts == FS_CONF_MAX_PARTITIONS) {
		_err(P, first->line,
		     "more than %d partitions; expected at most %d "
		     "PartitionName lines",
		     FS_CONF_MAX_PARTITIONS, FS_CONF_MAX_PARTITIONS);
	} else {
		struct fs_conf *c = P->conf;

		if (_grow((void **)&c->parts, &c->cap, c->nparts + 1, sizeof(*c->parts)) ||
		    !(target = calloc(1, sizeof(*target))))
			goto oom;
		c->parts[c->nparts++] = target;
		target->line = first->line;
		if (!(target->name = strdup(first->val)))
			goto oom;
		/* as in slurm.conf: the DEFAULT values seen so far */
		for (size_t k = 0; k < fsc_nkeys; k++) {
			if (c->dflt.v[k].origin != O_FILE)
				continue;
			if (fsc_val_copy(&target->v[k], &c->dflt.v[k]))
				goto oom;
			target->v[k].origin = O_DEFAULT_PART;
		}
	}
	if (!target) {
		/* still check the keys of a rejected line */
		if (!(scratch = calloc(1, sizeof(*scratch))))
			goto oom;
		target = scratch;
	}
	for (size_t i = 1; i < P->npairs && !P->stop; i++) {
		const struct _pair *pr = &P->pairs[i];
		int k;

		if (pr->skip)
			continue;
		k = fsc_key_index(pr->key);
		if (k < 0)
			_unknown_key(P, pr, FS_SCOPE_PARTITION);
		else if (fsc_keys[k].scope != FS_SCOPE_PARTITION)
			_err(P, pr->line,
			     "%s is a global key, not a partition one; "
			     "expected it on a line without PartitionName=",
			     fsc_keys[k].name);
		else
			_set(P, pr, k, target->v);
	}
	fsc_part_free(scratch);
	free(scratch);
	return;
oom:
	fsc_part_free(scratch);
	free(scratch);
	_oom(P);
}

/*
 * The value of key, from b[*pos] just after its '=': quoted as a whole, or
 * bare up to a blank; cut with a NUL, *pos left on the blank or end after
 * it.  NULL when it is bad (reported).
 */
static char *_value(struct _parser *P, unsigned line, const char *key, size_t *pos)
{
	char *b = P->lbuf, esc[FS_ESCAPE_SIZE];
	size_t i = *pos, n = P->llen, vs;

	if (i < n && b[i] == '"') {
		vs = ++i;
		while (i < n && b[i] != '"')
			i++;
		if (i >= n) { /* _physical_line saw no such line */
			_err(P, line,
			     "unterminated quote in the "
			     "value of '%s'; expected a closing '\"' "
			     "on the same line",
			     _esc(esc, sizeof(esc), key));
			return NULL;
		}
		b[i++] = '\0';
		if (i < n && !_blank(b[i])) {
			char esc2[FS_ESCAPE_SIZE];

			_err(P, line,
			     "text after the closing quote of %s=\"%s\"; "
			     "expected a blank or the end of the line",
			     _esc(esc, sizeof(esc), key), _esc(esc2, sizeof(esc2), b + vs));
			return NULL;
		}
	} else {
		vs = i;
		while (i < n && !_blank(b[i]) && b[i] != '"')
			i++;
		if (i < n && b[i] == '"') {
			_err(P, line,
			     "stray '\"' in the value of '%s'; "
			     "expected a value quoted as a whole "
			     "(Key=\"...\")",
			     _esc(esc, sizeof(esc), key));
			return NULL;
		}
		b[i] = '\0'; /* b[n] is the terminating NUL */
	}
	if (strlen(b + vs) > FS_CONF_MAX_VALUE) {
		_err(P, line,
		     "the value of '%s' is longer than %d "
		     "bytes; expected a shorter value",
		     _esc(esc, sizeof(esc), key), FS_CONF_MAX_VALUE);
		return NULL;
	}
	*pos = i;
	return b + vs;
}

/*
 * The Key=Value pair at b[*pos] (after blanks) into P->pairs, *pos moved
 * past it.  false at the end of the line, or at a bad pair (reported).
 */
static bool _next_pair(struct _parser *P, size_t *pos)
{
	char *b = P->lbuf, esc[FS_ESCAPE_SIZE];
	size_t i = *pos, n = P->llen, ks;
	unsigned line;
	char *key, *val;

	while (i < n && _blank(b[i]))
		i++;
	if (i >= n)
		return false;
	ks = i;
	line = _line_at(P, ks);
	while (i < n && b[i] != '=' && !_blank(b[i]))
		i++;
	if (i >= n || b[i] != '=') {
		if (i - ks == 7 && fs_strncaseeq(b + ks, "include", 7))
			_err(P, line,
			     "Include is not supported; expected "
			     "Key=Value pairs (fabsched.conf is a "
			     "single file)");
		else
			_err(P, line,
			     "'%s' has no '='; expected Key=Value, "
			     "with no blanks around '='",
			     fs_escape(esc, sizeof(esc), b + ks, i - ks));
		return false;
	}
	if (i == ks) {
		_err(P, line, "'=' without a key; expected Key=Value");
		return false;
	}
	b[i++] = '\0';
	key = b + ks;
	if (!(val = _value(P, line, key, &i)))
		return false;
	*pos = i + 1;
	if (_grow((void **)&P->pairs, &P->paircap, P->npairs + 1, sizeof(*P->pairs))) {
		_oom(P);
		return false;
	}
	P->pairs[P->npairs++] = (struct _pair){ key, val, line, false };
	return true;
}

/* known keys (and PartitionName) once per line; unknown ones are
 * each reported by the line's handler */
static void _check_repeats(struct _parser *P)
{
	char esc[FS_ESCAPE_SIZE];
	bool seen[FSC_KEYS_MAX + 1] = { false };

	for (size_t j = 0; j < P->npairs && !P->stop; j++) {
		struct _pair *pj = &P->pairs[j];
		int k = fs_strcaseeq(pj->key, PARTITION_KEY) ? (int)fsc_nkeys
							     : fsc_key_index(pj->key);

		if (k < 0)
			continue;
		if (seen[k]) {
			_err(P, pj->line,
			     "%s given twice on this line; expected each key "
			     "once per line",
			     _esc(esc, sizeof(esc), pj->key));
			pj->skip = true;
		}
		seen[k] = true;
		if (j && !pj->skip && k == (int)fsc_nkeys) {
			_err(P, pj->line,
			     "PartitionName must be the first key of its line; "
			     "expected PartitionName=<name> followed by that "
			     "partition's keys");
			pj->skip = true;
		}
	}
}

/* Split the logical line into Key=Value pairs, then act on them. */
static void _logical_line(struct _parser *P)
{
	size_t i = 0;

	P->npairs = 0;
	while (!P->stop && _next_pair(P, &i))
		;
	if (!P->npairs || P->stop)
		return;
	_check_repeats(P);
	if (P->stop)
		return;
	if (fs_strcaseeq(P->pairs[0].key, PARTITION_KEY))
		_partition_line(P);
	else
		_global_line(P);
}

/* Length of s[0..n) without trailing blanks. */
static size_t _rtrim(const char *s, size_t n)
{
	while (n && _blank(s[n - 1]))
		n--;
	return n;
}

/*
 * Read one physical line into the logical line.  Returns 1 when the line
 * continues (ends with a backslash outside quotes and comments), 0 when
 * it does not, -1 when it is bad (already reported).
 */
static int _physical_line(struct _parser *P, unsigned line, const char *s, size_t n)
{
	size_t content = n, q = 0;
	bool inq = false, comment = false, cont = false;

	if (n && s[n - 1] == '\r')
		n--, content--;
	if (n > FS_CONF_MAX_LINE) {
		_err(P, line,
		     "line is longer than %d bytes; expected shorter lines "
		     "(end a line with '\\' to continue it on the next)",
		     FS_CONF_MAX_LINE);
		return -1;
	}
	if (_check_bytes(P, line, (const unsigned char *)s, n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"') {
			inq = !inq;
			q = i;
		} else if (s[i] == '#' && !inq) {
			content = i;
			comment = true;
			break;
		}
	}
	if (inq) {
		_err(P, line,
		     "unterminated quote (opened at column %zu); expected a "
		     "closing '\"' on the same line",
		     q + 1);
		return -1;
	}
	if (!comment) {
		content = _rtrim(s, content);
		if (content && s[content - 1] == '\\') {
			cont = true;
			content--;
		}
	}
	if (_grow((void **)&P->segs, &P->segcap, P->nseg + 1, sizeof(*P->segs)) ||
	    _grow((void **)&P->lbuf, &P->lcap, P->llen + content + 1, 1)) {
		_oom(P);
		return -1;
	}
	P->segs[P->nseg++] = (struct _seg){ P->llen, line };
	memcpy(P->lbuf + P->llen, s, content);
	P->llen += content;
	P->lbuf[P->llen] = '\0';
	return cont;
}

static void _parse_buf(struct _parser *P, const char *buf, size_t len)
{
	size_t pos = 0;
	unsigned line = 0;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3; /* UTF-8 byte order mark */
	while (pos < len && !P->stop) {
		bool bad = false;
		int rc;

		P->llen = 0;
		P->nseg = 0;
		do {
			const char *s = buf + pos;
			const char *nl = memchr(s, '\n', len - pos);
			size_t n = nl ? (size_t)(nl - s) : len - pos;

			line++;
			pos += n + (nl ? 1 : 0);
			if (bad) {
				/* the rest of a bad logical line: skip it */
				size_t t = _rtrim(s, n && s[n - 1] == '\r' ? n - 1 : n);

				rc = t && s[t - 1] == '\\';
			} else {
				rc = _physical_line(P, line, s, n);
				if (rc < 0) {
					size_t t = _rtrim(s, n && s[n - 1] == '\r' ? n - 1 : n);

					bad = true;
					rc = t && s[t - 1] == '\\';
				}
			}
			if (rc == 1 && pos >= len && !bad) {
				_err(P, line,
				     "the last line ends with '\\'; expected "
				     "a line to continue it");
				bad = true;
				rc = 0;
			}
		} while (rc == 1 && !P->stop);
		if (!bad && !P->stop)
			_logical_line(P);
	}
}

/* ------------------------------------------------------------ resolving */

/*
 * A partition key's value from its fallback global key: the level of a
 * locality for an enum, its wait for a duration.  0 when converted.
 */
static int _from_fallback(const struct fs_conf_key *k, const struct _val *g, struct _val *v)
{
	char buf[32];
	const char *text = NULL;
	unsigned idx;

	if (g->origin == O_UNSET)
		return -1;
	fsc_val_clear(v);
	if (fsc_keys[fsc_key_index(k->fallback)].type == k->type) {
		if (fsc_val_copy(v, g))
			return -2;
	} else if (k->type == FS_TYPE_ENUM &&
		   fsc_keys[fsc_key_index(k->fallback)].type == FS_TYPE_LOCALITY) {
		text = fs_locality_name(g->loc.level);
		if (fs_parse_enum(NULL, text, k->values, &idx, NULL, 0))
			return -1;
		v->u = idx;
	} else if (k->type == FS_TYPE_DURATION && g->loc.wait_set &&
		   fsc_keys[fsc_key_index(k->fallback)].type == FS_TYPE_LOCALITY) {
		v->u = g->loc.wait;
		text = fs_format_duration(g->loc.wait, buf, sizeof(buf));
	} else {
		return -1;
	}
	if (text && !(v->text = strdup(text)))
		return -2;
	v->origin = O_GLOBAL;
	v->line = g->line;
	return 0;
}

static int _builtin(struct _parser *P, int k, struct _val *v)
{
	char msg[FS_MSG_SIZE];

	if (!fsc_keys[k].def)
		return 0;
	if (fsc_val_parse(&fsc_keys[k], fsc_keys[k].def, v, msg, sizeof(msg))) {
		_err(P, 0, "built-in default: %s", msg);
		return -1;
	}
	v->origin = O_BUILTIN;
	return 0;
}

static void _resolve_part(struct _parser *P, struct _part *p)
{
	for (size_t k = 0; k < fsc_nkeys && !P->stop; k++) {
		int rc = -1;

		if (fsc_keys[k].scope != FS_SCOPE_PARTITION || p->v[k].origin != O_UNSET)
			continue;
		if (fsc_keys[k].fallback) {
			rc = _from_fallback(&fsc_keys[k],
					    &P->conf->g[fsc_key_index(fsc_keys[k].fallback)],
					    &p->v[k]);
			if (rc == -2)
				_oom(P);
		}
		if (rc == -1)
			_builtin(P, (int)k, &p->v[k]);
	}
}

static void _resolve(struct _parser *P)
{
	struct fs_conf *c = P->conf;

	for (size_t k = 0; k < fsc_nkeys; k++)
		if (fsc_keys[k].scope == FS_SCOPE_GLOBAL && c->g[k].origin == O_UNSET)
			_builtin(P, (int)k, &c->g[k]);
	_resolve_part(P, &c->dflt);
	for (size_t i = 0; i < c->nparts; i++)
		_resolve_part(P, c->parts[i]);
}

/* One value against its row's check. */
static void _check_val(struct _parser *P, const struct fs_conf_key *k, const struct _val *v)
{
	char msg[FS_MSG_SIZE];

	if (v->origin == O_FILE && k->check && k->check(k->name, v->text, v->u, msg, sizeof(msg)))
		_err(P, v->line, "%s", msg);
}

/*
 * What the schema rows say beyond each value's type: its form (check, on
 * every value set in the file, global or per partition), and the keys that
 * go together (with: both or neither, said once per pair).
 */
static void _check_rows(struct _parser *P)
{
	for (size_t i = 0; i < fsc_nkeys; i++) {
		const struct fs_conf_key *k = &fsc_keys[i];
		const struct _val *v = &P->conf->g[i];
		int w = k->with ? fsc_key_index(k->with) : -1;

		_check_val(P, k, v);
		for (size_t j = 0; k->check && j < P->conf->nparts; j++)
			_check_val(P, k, &P->conf->parts[j]->v[i]);
		if (w >= 0 && v->origin == O_FILE && P->conf->g[w].origin != O_FILE)
			_err(P, v->line, "%s is set but %s is not; expected %s", k->name,
			     fsc_keys[w].name, k->with_why ? k->with_why : "both or neither");
	}
}

int fs_conf_parse(const char *name, const char *buf, size_t len, struct fs_conf **out,
		  struct fs_errors *errs)
{
	struct _parser P = { .name = name ? name : "fabsched.conf", .errs = errs };

	if (!out) {
		errno = EINVAL;
		return -1;
	}
	*out = NULL;
	if (!buf && len) {
		errno = EINVAL;
		return -1;
	}
	if (!(P.conf = calloc(1, sizeof(*P.conf))) || !(P.conf->source = strdup(P.name)) ||
	    !(P.conf->dflt.name = strdup("DEFAULT"))) {
		_oom(&P);
		goto done;
	}
	if (len)
		_parse_buf(&P, buf, len);
	if (!P.nerr)
		_resolve(&P);
	if (!P.nerr)
		_check_rows(&P);
done:
	free(P.lbuf);
	free(P.segs);
	free(P.pairs);
	if (P.nerr) {
		fs_conf_destroy(P.conf);
		errno = EINVAL;
		return -1;
	}
	*out = P.conf;
	return 0;
}
