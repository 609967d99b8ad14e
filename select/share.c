/*
 * share.c - locality target of the placement engine: a sliding record of
 * whether the recent jobs that fit in one domain of their level got one,
 * and the decision it drives (wait for locality, or take the tightest
 * placement free now).  See fabsched_select.h.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "fabsched_select.h"
#include "select_private.h"

#define FSE_SHARE_WINDOW_MAX 10000000u

struct fse_share {
	unsigned window; /* jobs remembered at most */
	unsigned count;	 /* jobs remembered now */
	unsigned pos;	 /* next slot of ring */
	unsigned got;	 /* remembered jobs that got their domain */
	uint8_t *ring;	 /* [window] 1: got it */
};

struct fse_share *fse_share_new(unsigned window)
{
	struct fse_share *s;

	if (!window)
		window = FSE_SHARE_WINDOW;
	if (window > FSE_SHARE_WINDOW_MAX || !(s = calloc(1, sizeof(*s))))
		return NULL;
	s->window = window;
	if (!(s->ring = calloc(window, 1))) {
		free(s);
		return NULL;
	}
	return s;
}

void fse_share_free(struct fse_share *s)
{
	if (!s)
		return;
	free(s->ring);
	free(s);
}

bool fse_share_counts(const struct fse_topo *t, uint32_t n, enum fse_level level)
{
	if (!t || n < 1)
		return false;
	if (level == FSE_RACK)
		return (int64_t)n <= t->max_rack;
	if (level == FSE_POD)
		return t->npods > 0 && (int64_t)n <= t->max_pod;
	return false;
}

double fse_share_get(const struct fse_share *s, unsigned *count)
{
	if (count)
		*count = s ? s->count : 0;
	if (!s || !s->count)
		return 1.0;
	return (double)s->got / (double)s->count;
}

bool fse_share_relax(const struct fse_share *s, const struct fse_topo *t, double target, uint32_t n,
		     enum fse_level level)
{
	return fse_share_relax_fit(s, target, fse_share_counts(t, n, level));
}

bool fse_share_relax_fit(const struct fse_share *s, double target, bool counts)
{
	unsigned got, count;

	if (target <= 0)
		return false;
	if (!counts)
		return true;
	if (!s)
		return false;
	/* the share with this job recorded as a miss */
	got = s->got;
	count = s->count + 1;
	if (s->count == s->window) {
		got -= s->ring[s->pos];
		count = s->window;
	}
	return (double)got >= target * (double)count;
}

void fse_share_push(struct fse_share *s, bool got)
{
	if (!s)
		return;
	if (s->count == s->window)
		s->got -= s->ring[s->pos];
	else
		s->count++;
	s->ring[s->pos] = got;
	s->got += got;
	s->pos = (s->pos + 1) % s->window;
}

void fse_share_record(struct fse_share *s, const struct fse_topo *t, const struct fse_request *rq,
		      const struct fse_result *res)
{
	(void)t;
	if (!s || !rq || !res || res->status != FSE_OK || !res->fits_domain)
		return;
	fse_share_push(s, res->level <= rq->level);
}

size_t fse_share_format(const struct fse_share *s, char *buf, size_t size)
{
	size_t n = s ? s->count : 0;
	unsigned first;

	if (!buf || size <= n)
		return n;
	first = (s && s->count == s->window) ? s->pos : 0;
	for (size_t i = 0; i < n; i++)
		buf[i] = s->ring[(first + i) % s->window] ? '1' : '0';
	buf[n] = '\0';
	return n;
}

int fse_share_parse(struct fse_share *s, const char *text)
{
	if (!s || !text)
		return -1;
	for (const char *p = text; *p; p++)
		if (*p != '0' && *p != '1')
			return -1;
	for (; *text; text++)
		fse_share_push(s, *text == '1');
	return 0;
}
