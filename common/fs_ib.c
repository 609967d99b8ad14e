/*
 * fs_ib.c - InfiniBand rates, partition keys and the account map of
 * fabsched.conf.  See fs_ib.h.
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fs_ib.h"

#define _fail fs_value_error

static int _digit(int c)
{
	return c >= '0' && c <= '9';
}

static int _hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * "<digits>[.<1-3 digits>]" at *p into Mb/s, advancing *p; at most 6
 * integer digits.  -1 when not of that form.
 */
static int _gbps(const char **p, uint64_t *mbps)
{
	const char *s = *p;
	uint64_t whole = 0, frac = 0;
	int nd = 0, nf = 0;

	for (; _digit(*s); s++) {
		if (++nd > 6)
			return -1;
		whole = whole * 10 + (uint64_t)(*s - '0');
	}
	if (!nd)
		return -1;
	if (*s == '.') {
		for (s++; _digit(*s); s++) {
			if (++nf > 3)
				return -1;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
		if (!nf)
			return -1;
	}
	for (; nf < 3; nf++)
		frac *= 10;
	*mbps = whole * 1000 + frac;
	*p = s;
	return 0;
}

int fs_parse_rate(const char *name, const char *s, uint64_t *mbps, char *err, size_t errlen)
{
	const char *p = s;
	uint64_t v;

	if (!s || !*s)
		return _fail(err, errlen, name, s, 0, "empty value; expected %s", FS_RATE_FORM);
	if (_gbps(&p, &v) || *p)
		return _fail(err, errlen, name, s, strlen(s), "not a rate; expected %s",
			     FS_RATE_FORM);
	if (!v || v > (uint64_t)FS_RATE_MAX_GBPS * 1000)
		return _fail(err, errlen, name, s, strlen(s), "out of range; expected %s",
			     FS_RATE_FORM);
	*mbps = v;
	return 0;
}

int fs_parse_sysfs_rate(const char *s, uint64_t *mbps)
{
	const char *p = s;
	uint64_t v;

	if (!s || _gbps(&p, &v) || strncmp(p, " Gb/sec", 7))
		return -1;
	p += 7;
	if (p[0] == ' ' && p[1] == '(') {
		/* " (<width>X[ <speed>])": printable, no nested parenthesis */
		const char *q = p + 2;

		if (!_digit(*q))
			return -1;
		while (_digit(*q))
			q++;
		if (*q++ != 'X')
			return -1;
		for (; *q && *q != ')'; q++)
			if (*q < 0x20 || *q > 0x7e || *q == '(')
				return -1;
		if (*q != ')')
			return -1;
		p = q + 1;
	}
	if (*p == '\n')
		p++;
	if (*p)
		return -1;
	*mbps = v;
	return 0;
}

char *fs_format_rate(uint64_t mbps, char *buf, size_t bufsz)
{
	uint64_t f = mbps % 1000;

	if (!f)
		snprintf(buf, bufsz, "%llu", (unsigned long long)(mbps / 1000));
	else if (f % 100 == 0)
		snprintf(buf, bufsz, "%llu.%llu", (unsigned long long)(mbps / 1000),
			 (unsigned long long)(f / 100));
	else if (f % 10 == 0)
		snprintf(buf, bufsz, "%llu.%02llu", (unsigned long long)(mbps / 1000),
			 (unsigned long long)(f / 10));
	else
		snprintf(buf, bufsz, "%llu.%03llu", (unsigned long long)(mbps / 1000),
			 (unsigned long long)f);
	return buf;
}

/* A key of len bytes at s; the message names the key as given. */
static int _pkey(const char *name, const char *s, size_t len, uint16_t *pkey, char *err,
		 size_t errlen)
{
	unsigned v = 0;

	if (!len)
		return _fail(err, errlen, name, s, len, "empty value; expected %s", FS_PKEY_FORM);
	if (len < 3 || len > 6 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return _fail(err, errlen, name, s, len, "not a partition key; expected %s",
			     FS_PKEY_FORM);
	for (size_t i = 2; i < len; i++) {
		int h = _hex((unsigned char)s[i]);

		if (h < 0)
			return _fail(err, errlen, name, s, len, "not a partition key; expected %s",
				     FS_PKEY_FORM);
		v = v * 16 + (unsigned)h;
	}
	if ((v & FS_PKEY_PARTITION) == 0)
		return _fail(err, errlen, name, s, len,
			     "partition 0 is not a valid partition key; "
			     "expected %s",
			     FS_PKEY_FORM);
	if ((v & FS_PKEY_PARTITION) == FS_PKEY_PARTITION)
		return _fail(err, errlen, name, s, len,
			     "the default partition, which every port is in, "
			     "isolates nothing; expected %s",
			     FS_PKEY_FORM);
	*pkey = (uint16_t)v;
	return 0;
}

int fs_parse_pkey(const char *name, const char *s, uint16_t *pkey, char *err, size_t errlen)
{
	return _pkey(name, s, s ? strlen(s) : 0, pkey, err, errlen);
}

static bool _account_ok(const char *s, size_t len)
{
	if (!len || len > FS_ACCOUNT_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || _digit(c) || c == '_' ||
		      c == '-' || c == '.'))
			return false;
	}
	return true;
}

bool fs_account_ok(const char *s)
{
	return s && _account_ok(s, strlen(s));
}

int fs_pkey_map_find(const char *name, const char *map, const char *account, uint16_t *pkey,
		     char *err, size_t errlen)
{
	const char *p = map;
	size_t alen = account ? strlen(account) : 0;
	int found = 0;

	if (!map || !*map)
		return _fail(err, errlen, name, map, 0, "empty value; expected %s",
			     FS_PKEY_MAP_FORM);
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		size_t nlen = colon ? (size_t)(colon - p) : 0;
		char keyname[96];
		uint16_t k;

		if (!colon || !_account_ok(p, nlen)) {
			char esc[FS_ESCAPE_SIZE];

			if (err && errlen)
				snprintf(err, errlen,
					 "%s: entry '%s': %s; expected "
					 "%s",
					 name ? name : "account map",
					 fs_escape(esc, sizeof(esc), p, len),
					 !colon ? "no ':' between account and key"
						: "not an account name",
					 FS_PKEY_MAP_FORM);
			return -1;
		}
		snprintf(keyname, sizeof(keyname), "%s (account %.*s)",
			 name ? name : "partition key", (int)nlen, p);
		if (_pkey(keyname, colon + 1, len - nlen - 1, &k, err, errlen))
			return -1;
		/* each account once */
		for (const char *q = map; q < p;) {
			const char *qe = strchr(q, ',');
			size_t ql = strcspn(q, ":");

			if (ql == nlen && fs_strncaseeq(q, p, nlen)) {
				if (err && errlen)
					snprintf(err, errlen,
						 "%s: account %.*s is "
						 "given twice; expected each "
						 "account once",
						 name ? name : "account map", (int)nlen, p);
				return -1;
			}
			q = qe + 1; /* q < p: there is a comma after it */
		}
		if (account && nlen == alen && fs_strncaseeq(p, account, nlen)) {
			if (pkey)
				*pkey = k;
			found = 1;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return found;
}

/* ------------------------------------------------------------ error counters */

static const char *const counter_names[FS_IB_NCOUNTERS] = { "SymbolErrorCounter",
							    "LinkDownedCounter", "PortRcvErrors" };

const char *fs_ib_counter_name(int k)
{
	return k >= 0 && k < FS_IB_NCOUNTERS ? counter_names[k] : NULL;
}

int fs_ib_parse_err_limits(const char *name, const char *s, struct fs_ib_err_limits *out, char *err,
			   size_t errlen)
{
	struct fs_ib_err_limits l;
	const char *p = s;

	memset(&l, 0, sizeof(l));
	if (!s || !*s)
		return _fail(err, errlen, name, s ? s : "", 0, "empty value; expected %s",
			     FS_IB_ERR_LIMITS_FORM);
	if (fs_strcaseeq(s, "none")) {
		if (out)
			*out = l;
		return 0;
	}
	for (;;) {
		size_t len = strcspn(p, ","), nlen = strcspn(p, ":,");
		char num[24];
		int k;

		for (k = 0; k < FS_IB_NCOUNTERS; k++)
			if (strlen(counter_names[k]) == nlen &&
			    fs_strncaseeq(p, counter_names[k], nlen))
				break;
		if (k == FS_IB_NCOUNTERS || nlen == len || len - nlen - 1 >= sizeof(num))
			return _fail(err, errlen, name, s, strlen(s),
				     "entry '%.*s': %s; "
				     "expected %s",
				     (int)len, p,
				     k == FS_IB_NCOUNTERS ? "not a counter fabsched follows"
				     : nlen == len	  ? "no ':' between counter and limit"
							  : "limit too long",
				     FS_IB_ERR_LIMITS_FORM);
		if (l.on[k])
			return _fail(err, errlen, name, s, strlen(s),
				     "%s is given "
				     "twice; expected each counter once",
				     counter_names[k]);
		memcpy(num, p + nlen + 1, len - nlen - 1);
		num[len - nlen - 1] = '\0';
		if (fs_parse_uint(name, num, 0, UINT32_MAX, &l.most[k], err, errlen))
			return -1;
		l.on[k] = true;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (out)
		*out = l;
	return 0;
}
