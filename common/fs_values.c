/*
 * fs_values.c - value parsers shared by fabsched.conf, the SPANK plugin
 * and the fabsched command.  See fs_values.h for the conventions.
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fs_values.h"

#define FS_ESCAPE_MAX 64 /* source bytes echoed in a message */

static int _lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static int _is_digit(int c)
{
	return c >= '0' && c <= '9';
}

int fs_strcaseeq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (_lower((unsigned char)*a) != _lower((unsigned char)*b))
			return 0;
	return *a == *b;
}

int fs_strncaseeq(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (_lower((unsigned char)a[i]) != _lower((unsigned char)b[i]))
			return 0;
		if (!a[i])
			return 1;
	}
	return 1;
}

char *fs_escape(char *dst, size_t dstsz, const char *src, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (!dst || !dstsz)
		return dst;
	for (size_t i = 0; src && i < len; i++) {
		unsigned char c = (unsigned char)src[i];

		if (i == FS_ESCAPE_MAX) {
			if (o + 4 > dstsz)
				break;
			memcpy(dst + o, "...", 3);
			o += 3;
			break;
		}
		if (c >= 0x20 && c < 0x7f) {
			if (o + 2 > dstsz)
				break;
			dst[o++] = (char)c;
		} else {
			if (o + 5 > dstsz)
				break;
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[c >> 4];
			dst[o++] = hex[c & 15];
		}
	}
	dst[o] = '\0';
	return dst;
}

/*
 * Write "<name>=<value>: " or "'<value>': " then the formatted rest into
 * err; returns -1 so that callers can "return _fail(...)".
 */
int fs_value_error(char *err, size_t errlen, const char *name, const char *s, size_t len,
		   const char *fmt, ...)
{
	char esc[FS_ESCAPE_SIZE];
	va_list ap;
	int n;

	if (!err || !errlen)
		return -1;
	fs_escape(esc, sizeof(esc), s, s ? len : 0);
	if (name) {
		char ename[FS_ESCAPE_SIZE];

		fs_escape(ename, sizeof(ename), name, strlen(name));
		n = snprintf(err, errlen, "%s=%s: ", ename, esc);
	} else {
		n = snprintf(err, errlen, "'%s': ", esc);
	}
	if (n < 0 || (size_t)n >= errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* fs_value_error on a whole string */
#define _fail(err, errlen, name, s, ...) \
	fs_value_error(err, errlen, name, s, (s) ? strlen(s) : 0, __VA_ARGS__)

/*
 * Read one run of decimal digits at *p into *v, advancing *p.
 * Returns 0, -1 when there is no digit, -2 on overflow.
 */
static int _digits(const char **p, uint64_t *v)
{
	const char *q = *p;
	uint64_t x = 0;
	int over = 0;

	if (!_is_digit((unsigned char)*q))
		return -1;
	for (; _is_digit((unsigned char)*q); q++) {
		unsigned d = (unsigned)(*q - '0');

		if (x > (UINT64_MAX - d) / 10)
			over = 1;
		else
			x = x * 10 + d;
	}
	*p = q;
	*v = x;
	return over ? -2 : 0;
}

/* *acc = *acc * mul + add, returning -1 on overflow. */
static int _mul_add(uint64_t *acc, uint64_t mul, uint64_t add)
{
	if (mul && *acc > UINT64_MAX / mul)
		return -1;
	*acc *= mul;
	if (*acc > UINT64_MAX - add)
		return -1;
	*acc += add;
	return 0;
}

int fs_parse_duration(const char *name, const char *s, uint64_t *secs, char *err, size_t errlen)
{
	uint64_t f[4] = { 0, 0, 0, 0 }; /* days, hours, minutes, seconds */
	uint64_t v[3], total = 0;
	const char *p = s;
	int n = 0, rc, days = 0;

	if (!s || !*s)
		return _fail(err, errlen, name, s, "empty value; expected %s", FS_DURATION_FORM);
	if (fs_strcaseeq(s, "INFINITE") || fs_strcaseeq(s, "UNLIMITED")) {
		*secs = FS_DURATION_INFINITE;
		return 0;
	}
	if ((rc = _digits(&p, &v[0])) == -1)
		goto bad;
	if (rc == -2)
		goto big;
	if (*p == '-') {
		/* D-HH[:MM[:SS]] */
		days = 1;
		f[0] = v[0];
		p++;
		for (n = 1; n < 4; n++) {
			if ((rc = _digits(&p, &f[n])) == -1)
				goto bad;
			if (rc == -2)
				goto big;
			if (*p != ':')
				break;
			p++;
		}
		if (n == 4 || *p)
			goto bad;
		if (f[1] > 23)
			return _fail(err, errlen, name, s,
				     "hours after D- must be 0-23; expected %s", FS_DURATION_FORM);
	} else {
		/* MM, MM:SS or HH:MM:SS */
		for (n = 1; *p == ':' && n < 3; n++) {
			p++;
			if ((rc = _digits(&p, &v[n])) == -1)
				goto bad;
			if (rc == -2)
				goto big;
		}
		if (*p)
			goto bad;
		if (n == 1) {
			f[2] = v[0];
		} else if (n == 2) {
			f[2] = v[0];
			f[3] = v[1];
		} else {
			f[1] = v[0];
			f[2] = v[1];
			f[3] = v[2];
		}
	}
	/* the leading field is unbounded; the ones after it are not */
	if ((days || n == 3) && f[2] > 59)
		return _fail(err, errlen, name, s, "minutes must be 0-59; expected %s",
			     FS_DURATION_FORM);
	if (f[3] > 59)
		return _fail(err, errlen, name, s, "seconds must be 0-59; expected %s",
			     FS_DURATION_FORM);
	if (_mul_add(&total, 1, f[0]) || _mul_add(&total, 24, f[1]) || _mul_add(&total, 60, f[2]) ||
	    _mul_add(&total, 60, f[3]) || total == FS_DURATION_INFINITE)
		goto big;
	*secs = total;
	return 0;
bad:
	return _fail(err, errlen, name, s, "not a duration; expected %s", FS_DURATION_FORM);
big:
	return _fail(err, errlen, name, s, "too large; expected %s", FS_DURATION_FORM);
}

int fs_parse_size(const char *name, const char *s, uint64_t *bytes, char *err, size_t errlen)
{
	static const char units[] = "kmgt";
	const char *p = s, *u;
	uint64_t v;
	int rc, shift = 0;

	if (!s || !*s)
		return _fail(err, errlen, name, s, "empty value; expected %s", FS_SIZE_FORM);
	rc = _digits(&p, &v);
	if (rc == -1)
		goto bad;
	if (rc == -2)
		goto big;
	if (*p) {
		u = strchr(units, _lower((unsigned char)*p));
		if (!u || !*u)
			goto bad;
		shift = 10 * (int)(u - units + 1);
		p++;
		if (*p && !fs_strcaseeq(p, "ib"))
			goto bad;
	}
	if (shift && v > (UINT64_MAX >> shift))
		goto big;
	*bytes = v << shift;
	return 0;
bad:
	return _fail(err, errlen, name, s, "not a size; expected %s", FS_SIZE_FORM);
big:
	return _fail(err, errlen, name, s, "too large; expected %s", FS_SIZE_FORM);
}

static int _fail_range(char *err, size_t errlen, const char *name, const char *s, const char *what,
		       uint64_t min, uint64_t max)
{
	if (max == UINT64_MAX && min == 0)
		return _fail(err, errlen, name, s, "%s; expected a non-negative integer", what);
	return _fail(err, errlen, name, s, "%s; expected an integer from %llu to %llu", what,
		     (unsigned long long)min, (unsigned long long)max);
}

int fs_parse_percent(const char *name, const char *s, uint64_t *ppm, char *err, size_t errlen)
{
	const char *p = s;
	uint64_t whole = 0, frac = 0;
	int ndig = 0, nfrac = 0;

	if (!s || !*s)
		return _fail(err, errlen, name, s, "empty value; expected %s", FS_PERCENT_FORM);
	for (; *p >= '0' && *p <= '9' && ndig < 4; p++, ndig++)
		whole = whole * 10 + (uint64_t)(*p - '0');
	if (!ndig || (*p >= '0' && *p <= '9'))
		goto bad;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, nfrac++) {
			if (nfrac >= 4)
				goto bad;
			frac = frac * 10 + (uint64_t)(*p - '0');
		}
		if (!nfrac)
			goto bad;
	}
	if (*p == '%')
		p++;
	if (*p)
		goto bad;
	for (; nfrac < 4; nfrac++)
		frac *= 10;
	if (whole > 100 || (whole == 100 && frac))
		return _fail(err, errlen, name, s, "above 100; expected %s", FS_PERCENT_FORM);
	*ppm = whole * 10000 + frac; /* 1 % = 10000 ppm; 0.0001 % = 1 ppm */
	return 0;
bad:
	return _fail(err, errlen, name, s, "not a percentage; expected %s", FS_PERCENT_FORM);
}

int fs_parse_uint(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *out,
		  char *err, size_t errlen)
{
	const char *p = s;
	uint64_t v;
	int rc;

	if (!s || !*s)
		return _fail_range(err, errlen, name, s, "empty value", min, max);
	rc = _digits(&p, &v);
	if (rc == -1 || *p)
		return _fail_range(err, errlen, name, s, "not an integer", min, max);
	if (rc == -2 || v < min || v > max)
		return _fail_range(err, errlen, name, s, "out of range", min, max);
	*out = v;
	return 0;
}

int fs_parse_bool(const char *name, const char *s, bool *out, char *err, size_t errlen)
{
	static const char *const yes[] = { "yes", "true", "1" };
	static const char *const no[] = { "no", "false", "0" };

	if (!s || !*s)
		return _fail(err, errlen, name, s, "empty value; expected %s", FS_BOOL_FORM);
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (fs_strcaseeq(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (fs_strcaseeq(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return _fail(err, errlen, name, s, "not a boolean; expected %s", FS_BOOL_FORM);
}

/* "a|b|c" -> "a, b or c" */
static void _enum_form(const char *values, char *buf, size_t bufsz)
{
	size_t o = 0, nwords = 1, w = 0;

	for (const char *p = values; *p; p++)
		nwords += *p == '|';
	for (const char *p = values; *p && o + 5 < bufsz; p++) {
		if (*p != '|') {
			buf[o++] = *p;
			continue;
		}
		w++;
		if (w + 1 == nwords) {
			memcpy(buf + o, " or ", 4);
			o += 4;
		} else {
			memcpy(buf + o, ", ", 2);
			o += 2;
		}
	}
	buf[o] = '\0';
}

int fs_parse_enum(const char *name, const char *s, const char *values, unsigned *idx, char *err,
		  size_t errlen)
{
	char form[256];
	unsigned i = 0;
	size_t slen = s ? strlen(s) : 0;

	if (s && slen && values) {
		for (const char *p = values;; i++) {
			const char *e = strchr(p, '|');
			size_t wl = e ? (size_t)(e - p) : strlen(p);

			if (wl == slen && fs_strncaseeq(p, s, wl)) {
				*idx = i;
				return 0;
			}
			if (!e)
				break;
			p = e + 1;
		}
	}
	_enum_form(values ? values : "", form, sizeof(form));
	return _fail(err, errlen, name, s, "%s; expected %s%s",
		     slen ? "unknown value" : "empty value",
		     strchr(values ? values : "", '|') ? "one of " : "", form);
}

static const char *const _levels[] = { "rack", "pod", "any", "off", "observe" };

const char *fs_locality_name(enum fs_locality_level level)
{
	if ((unsigned)level >= sizeof(_levels) / sizeof(_levels[0]))
		return NULL;
	return _levels[level];
}

static int _parse_locality(const char *name, const char *s, bool off, struct fs_locality *out,
			   char *err, size_t errlen)
{
	const char *form = off ? FS_LOCALITY_CONF_FORM : FS_LOCALITY_FORM;
	const char *at;
	size_t ll;
	struct fs_locality loc = { .level = FS_LOCALITY_ANY };
	unsigned i;

	if (!s || !*s)
		return _fail(err, errlen, name, s, "empty value; expected %s", form);
	at = strchr(s, '@');
	ll = at ? (size_t)(at - s) : strlen(s);
	for (i = 0; i < sizeof(_levels) / sizeof(_levels[0]); i++)
		if (strlen(_levels[i]) == ll && fs_strncaseeq(s, _levels[i], ll))
			break;
	if (i == sizeof(_levels) / sizeof(_levels[0]))
		return _fail(err, errlen, name, s, "expected %s", form);
	if (i >= FS_LOCALITY_OFF && !off)
		return _fail(err, errlen, name, s,
			     "%s is an administrator's setting (fabsched.conf); expected %s",
			     _levels[i], form);
	if (i == FS_LOCALITY_OFF && at)
		return _fail(err, errlen, name, s, "off takes no @<wait>; expected %s", form);
	loc.level = (enum fs_locality_level)i;
	if (at) {
		char esc[FS_ESCAPE_SIZE];

		if (!at[1])
			return _fail(err, errlen, name, s, "missing wait after '@'; expected %s",
				     form);
		if (fs_parse_duration(NULL, at + 1, &loc.wait, NULL, 0))
			return _fail(err, errlen, name, s,
				     "wait '%s' is not a duration; expected %s",
				     fs_escape(esc, sizeof(esc), at + 1, strlen(at + 1)), form);
		loc.wait_set = true;
	}
	*out = loc;
	return 0;
}

int fs_parse_locality(const char *name, const char *s, struct fs_locality *out, char *err,
		      size_t errlen)
{
	return _parse_locality(name, s, false, out, err, errlen);
}

int fs_parse_locality_conf(const char *name, const char *s, struct fs_locality *out, char *err,
			   size_t errlen)
{
	return _parse_locality(name, s, true, out, err, errlen);
}

char *fs_format_duration(uint64_t secs, char *buf, size_t bufsz)
{
	uint64_t d = secs / 86400;
	unsigned h = (unsigned)(secs / 3600 % 24);
	unsigned m = (unsigned)(secs / 60 % 60);
	unsigned sec = (unsigned)(secs % 60);

	if (!buf || !bufsz)
		return buf;
	if (secs == FS_DURATION_INFINITE)
		snprintf(buf, bufsz, "INFINITE");
	else if (d)
		snprintf(buf, bufsz, "%llu-%02u:%02u:%02u", (unsigned long long)d, h, m, sec);
	else
		snprintf(buf, bufsz, "%02u:%02u:%02u", h, m, sec);
	return buf;
}

char *fs_format_locality(const struct fs_locality *loc, char *buf, size_t bufsz)
{
	const char *lvl;
	char w[32];

	if (!buf || !bufsz)
		return buf;
	lvl = loc ? fs_locality_name(loc->level) : NULL;
	if (!lvl)
		lvl = "?";
	if (loc && loc->wait_set)
		snprintf(buf, bufsz, "%s@%s", lvl, fs_format_duration(loc->wait, w, sizeof(w)));
	else
		snprintf(buf, bufsz, "%s", lvl);
	return buf;
}
