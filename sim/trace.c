/*
 * trace.c - which reader a trace file wants (SWF, sacct --json, sacct -P),
 * told from its content, and lines of any length from zlib.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fabsched_sim.h"
#include "fs_err.h"
#include "trace_private.h"

#define DETECT_BYTES 65536

int fss_gz_line(gzFile gz, char **buf, size_t *cap)
{
	size_t len = 0;

	for (;;) {
		if (*cap - len < 2) {
			size_t ncap = *cap ? *cap * 2 : 4096;
			char *nb = realloc(*buf, ncap);

			if (!nb)
				return -1;
			*buf = nb;
			*cap = ncap;
		}
		if (!gzgets(gz, *buf + len, (int)(*cap - len))) {
			(*buf)[len] = 0;
			return len ? 1 : 0;
		}
		len += strlen(*buf + len);
		if (len && (*buf)[len - 1] == '\n') {
			(*buf)[--len] = 0;
			if (len && (*buf)[len - 1] == '\r')
				(*buf)[--len] = 0;
			return 1;
		}
		if (gzeof(gz))
			return 1;
	}
}

/* SplitMix64 (Steele, Lea, Flood, OOPSLA 2014): one 64-bit draw of a
 * counter. */
static uint64_t _mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

int fss_trace_jitter(struct fss_trace *tr, int64_t seconds, uint64_t seed)
{
	uint64_t span, key;
	int64_t first = INT64_MAX;

	if (!tr || seconds < 0 || seconds > INT32_MAX)
		return -1;
	if (!seconds || !tr->njobs)
		return 0;
	span = 2 * (uint64_t)seconds + 1;
	key = _mix(seed);
	for (long i = 0; i < tr->njobs; i++) {
		struct fss_job *j = &tr->jobs[i];

		/* modulo bias below 2^-32 for spans up to 2^32 */
		j->submit += (int64_t)(_mix(key ^ _mix((uint64_t)i)) % span) - seconds;
		if (j->submit < first)
			first = j->submit;
	}
	for (long i = 0; i < tr->njobs; i++)
		tr->jobs[i].submit -= first;
	fss_trace_sort(tr);
	return 0;
}

/* The format the first non-blank line of text (NUL-terminated) says. */
static enum fss_trace_format _format_of(const char *text)
{
	const char *p = text;
	size_t l;

	p += strspn(p, " \t\r\n");
	if (!strncmp(p, "\xef\xbb\xbf", 3)) /* a UTF-8 byte order mark */
		p += 3 + strspn(p + 3, " \t\r\n");
	if (*p == '{')
		return FSS_TRACE_SACCT_JSON;
	l = strcspn(p, "\n");
	if (*p != ';' && memchr(p, '|', l))
		return FSS_TRACE_SACCT_PARSABLE;
	return FSS_TRACE_SWF;
}

int fss_trace_detect(const char *path, enum fss_trace_format *fmt, char *err, size_t errlen)
{
	char *text;
	gzFile gz;
	int n;

	gz = gzopen(path, "rb");
	if (!gz)
		return fs_errf(err, errlen, "%s: %s", path,
			       errno ? strerror(errno) : "cannot open");
	text = malloc(DETECT_BYTES + 1);
	if (!text) {
		gzclose(gz);
		return fs_errf(err, errlen, "%s: out of memory", path);
	}
	n = gzread(gz, text, DETECT_BYTES);
	gzclose(gz);
	if (n < 0) {
		free(text);
		return fs_errf(
			err, errlen,
			"%s: read error; expected a plain or gzip-compressed trace (SWF, sacct --json or sacct -P)",
			path);
	}
	text[n] = 0;
	*fmt = _format_of(text);
	free(text);
	return 0;
}

int fss_trace_read(const char *path, const struct fss_swf_opts *opts, struct fss_trace **out,
		   char *err, size_t errlen)
{
	enum fss_trace_format fmt;

	if (!path || !out)
		return fs_errf(err, errlen, "bad arguments");
	*out = NULL;
	if (fss_trace_detect(path, &fmt, err, errlen))
		return -1;
	if (fmt == FSS_TRACE_SWF)
		return fss_swf_read(path, opts, out, err, errlen);
	return fss_sacct_read(path, fmt, opts, out, err, errlen);
}
