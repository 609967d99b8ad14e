/*
 * cpulist.c - Linux cpulist strings ("0-3,8,10-11"): parse, format, count,
 * overlap, union, and the nearest-candidate choice.  See fabsched_gres.h.
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_gres.h"
#include "gres_private.h"

static int _num(const char **p, unsigned long *v)
{
	const char *s = *p;
	unsigned long x = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		x = x * 10 + (unsigned long)(*s - '0');
		if (x > FS_CPULIST_MAX)
			return -1;
		s++;
	}
	*p = s;
	*v = x;
	return 0;
}

int fs_gres_cpulist_parse(const char *list, unsigned char **bits, size_t *n, char *err,
			  size_t errlen)
{
	unsigned char *b = NULL;
	size_t len = 0;
	const char *p;

	*bits = NULL;
	*n = 0;
	if (!list)
		return fs_errf(err, errlen, "cpulist: missing value");
	p = list;
	if (*p == '\n' && !p[1])
		return 0;
	while (*p) {
		unsigned long lo, hi;

		if (_num(&p, &lo))
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (_num(&p, &hi) || hi < lo)
				goto bad;
		}
		if (hi + 1 > len) {
			unsigned char *nb = realloc(b, hi + 1);

			if (!nb) {
				free(b);
				return fs_errf(err, errlen, "out of memory");
			}
			memset(nb + len, 0, hi + 1 - len);
			b = nb;
			len = hi + 1;
		}
		memset(b + lo, 1, hi - lo + 1);
		if (*p == ',') {
			p++;
			if (!*p || *p == '\n')
				goto bad;
		} else if (*p == '\n' && !p[1]) {
			break;
		} else if (*p) {
			goto bad;
		}
	}
	*bits = b;
	*n = len;
	return 0;
bad:
	free(b);
	return fs_errf(err, errlen,
		       "\"%.64s\": not a CPU list; expected numbers and "
		       "ranges up to %u separated by commas, e.g. 0-7,16-23",
		       list, FS_CPULIST_MAX);
}

char *fs_gres_cpulist_format(const unsigned char *bits, size_t n)
{
	size_t cap = 64, len = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		char tmp[32];
		int k;

		if (!bits[i])
			continue;
		while (j + 1 < n && bits[j + 1])
			j++;
		if (j == i)
			k = snprintf(tmp, sizeof(tmp), "%s%zu", len ? "," : "", i);
		else
			k = snprintf(tmp, sizeof(tmp), "%s%zu-%zu", len ? "," : "", i, j);
		if (len + (size_t)k + 1 > cap) {
			char *ns;

			cap = (len + (size_t)k + 1) * 2;
			if (!(ns = realloc(s, cap))) {
				free(s);
				return NULL;
			}
			s = ns;
		}
		memcpy(s + len, tmp, (size_t)k + 1);
		len += (size_t)k;
		i = j;
	}
	return s;
}

long fs_gres_cpulist_count(const char *list)
{
	unsigned char *b;
	size_t n;
	long c = 0;

	if (fs_gres_cpulist_parse(list, &b, &n, NULL, 0))
		return -1;
	for (size_t i = 0; i < n; i++)
		c += b[i];
	free(b);
	return c;
}

long fs_gres_cpulist_overlap(const char *a, const char *b)
{
	unsigned char *ba, *bb;
	size_t na, nb;
	long c = 0;

	if (fs_gres_cpulist_parse(a, &ba, &na, NULL, 0))
		return -1;
	if (fs_gres_cpulist_parse(b, &bb, &nb, NULL, 0)) {
		free(ba);
		return -1;
	}
	for (size_t i = 0; i < na && i < nb; i++)
		c += ba[i] & bb[i];
	free(ba);
	free(bb);
	return c;
}

char *fs_gres_cpulist_union(const char *a, const char *b)
{
	unsigned char *ba, *bb;
	size_t na, nb;
	char *s;

	if (fs_gres_cpulist_parse(a, &ba, &na, NULL, 0))
		return NULL;
	if (fs_gres_cpulist_parse(b, &bb, &nb, NULL, 0)) {
		free(ba);
		return NULL;
	}
	if (nb > na) {
		unsigned char *t = ba;
		size_t tn = na;

		ba = bb;
		na = nb;
		bb = t;
		nb = tn;
	}
	for (size_t i = 0; i < nb; i++)
		ba[i] |= bb[i];
	s = fs_gres_cpulist_format(ba, na);
	free(ba);
	free(bb);
	return s;
}

/* 0 when list is a cpulist, else -1 with fs_gres_cpulist_parse's message */
static int _valid(const char *list, char *err, size_t errlen)
{
	unsigned char *b = NULL;
	size_t n;

	if (fs_gres_cpulist_parse(list, &b, &n, err, errlen))
		return -1;
	free(b);
	return 0;
}

int fs_gres_pick_nearest(const char *task_cpus, const char *const *cand, size_t n, unsigned spread,
			 size_t *pick, char *err, size_t errlen)
{
	long best = 0, ties = 0, k;

	*pick = n;
	if (_valid(task_cpus, err, errlen))
		return -1;
	for (size_t i = 0; i < n; i++) {
		long ov = fs_gres_cpulist_overlap(task_cpus, cand[i]);

		if (ov < 0)
			return _valid(cand[i], err, errlen) ? -1
							    : fs_errf(err, errlen, "out of memory");
		if (ov > best) {
			best = ov;
			ties = 1;
		} else if (ov == best && ov > 0) {
			ties++;
		}
	}
	if (!best)
		return 0;
	k = (long)(spread % (unsigned long)ties);
	for (size_t i = 0; i < n; i++)
		if (fs_gres_cpulist_overlap(task_cpus, cand[i]) == best && !k--) {
			*pick = i;
			break;
		}
	return 0;
}

int fs_gres_socket_cores(unsigned char *cores, int sockets, int per, bool one_socket)
{
	int touched = 0, changed = 0, all = sockets * per;

	if (!cores || sockets <= 0 || per <= 0)
		return -1;
	for (int s = 0; s < sockets; s++) {
		int have = 0;

		for (int c = s * per; c < (s + 1) * per; c++)
			have += cores[c] != 0;
		if (!have)
			continue;
		touched++;
		if (have != per) {
			memset(cores + s * per, 1, per);
			changed = 1;
		}
	}
	if (one_socket && touched > 1 && touched < sockets) {
		memset(cores, 1, all);
		changed = 1;
	}
	return changed;
}
