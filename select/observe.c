/*
 * observe.c - the observation record of Locality=observe: one line per
 * started job saying what fabsched would have done beside what the job
 * got (fabsched_select.h, struct fse_obs).  Written by slurmctld's
 * plugin, read by fabsched job, metrics and report: the reader takes
 * nothing on trust (every field checked, printable ASCII only).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_select.h"

static const char *const _kinds[] = { "rack", "pod", "any", "wait", "stock" };

const char *fse_obs_kind_name(enum fse_obs_kind k)
{
	if ((unsigned)k >= sizeof(_kinds) / sizeof(_kinds[0]))
		return NULL;
	return _kinds[k];
}

bool fse_obs_in_domain(const struct fse_obs_place *p, enum fse_level level)
{
	return p->kind <= FSE_OBS_ANY && (enum fse_level)p->kind <= level;
}

size_t fse_obs_format(const struct fse_obs *o, char *buf, size_t size)
{
	char task[16] = "";
	int n;

	if (o->task != FSE_NO_TASK)
		snprintf(task, sizeof(task), "_%" PRIu32, o->task);
	n = snprintf(buf, size,
		     "time=%" PRId64 " job=%" PRIu32 "%s part=%s level=%s nodes=%" PRIu32
		     " fits=%d got=%s:%" PRIu32 ":%s would=%s:%" PRIu32 ":%s waited=%" PRIu64
		     " why=%s\n",
		     o->time, o->job_id, task, o->part[0] ? o->part : "-",
		     fse_obs_kind_name((enum fse_obs_kind)o->level) ?: "?", o->nodes, o->fits,
		     fse_obs_kind_name(o->got.kind) ?: "?", o->got.nracks,
		     o->got.racks[0] ? o->got.racks : "-", fse_obs_kind_name(o->would.kind) ?: "?",
		     o->would.nracks, o->would.racks[0] ? o->would.racks : "-", o->waited, o->why);

	return n < 0 ? 0 : (size_t)n;
}

static int _fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The value of "<key>=" at *p, up to the next blank, copied to @out. */
static int _field(const char **p, const char *key, char *out, size_t size)
{
	size_t kl = strlen(key), vl;

	if (strncmp(*p, key, kl) || (*p)[kl] != '=')
		return -1;
	*p += kl + 1;
	vl = strcspn(*p, " ");
	if (!vl || vl >= size)
		return -1;
	memcpy(out, *p, vl);
	out[vl] = '\0';
	*p += vl;
	if (**p == ' ')
		(*p)++;
	return 0;
}

static int _num(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* A word of a name: letters, digits and -_.+ (Slurm's partition and
 * fabsched's rack names). */
static bool _name_ok(const char *s, bool commas)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("-_.+", *s) || (commas && *s == ',')))
			return false;
	return true;
}

static int _place(const char *v, struct fse_obs_place *p, bool would)
{
	char kind[8];
	const char *c1 = strchr(v, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	uint64_t n;
	char num[16];
	unsigned k;

	if (!c1 || !c2 || (size_t)(c1 - v) >= sizeof(kind) || (size_t)(c2 - c1 - 1) >= sizeof(num))
		return -1;
	memcpy(kind, v, c1 - v);
	kind[c1 - v] = '\0';
	memcpy(num, c1 + 1, c2 - c1 - 1);
	num[c2 - c1 - 1] = '\0';
	for (k = 0; k < sizeof(_kinds) / sizeof(_kinds[0]); k++)
		if (!strcmp(kind, _kinds[k]))
			break;
	if (k == sizeof(_kinds) / sizeof(_kinds[0]) || (!would && k > FSE_OBS_ANY) ||
	    _num(num, UINT32_MAX, &n) || strlen(c2 + 1) >= sizeof(p->racks) || !c2[1] ||
	    (strcmp(c2 + 1, "-") && !_name_ok(c2 + 1, true)))
		return -1;
	p->kind = (enum fse_obs_kind)k;
	p->nracks = (uint32_t)n;
	snprintf(p->racks, sizeof(p->racks), "%s", c2 + 1);
	return 0;
}

/* "<id>" or "<array id>_<task>" */
static int _job(char *v, struct fse_obs *o)
{
	char *us = strchr(v, '_');
	uint64_t n, t = FSE_NO_TASK;

	if (us) {
		*us = '\0';
		if (_num(us + 1, FSE_NO_TASK - 1, &t))
			return -1;
	}
	if (_num(v, UINT32_MAX, &n) || !n)
		return -1;
	o->job_id = (uint32_t)n;
	o->task = (uint32_t)t;
	return 0;
}

#define PLACE_FORM "<rack|pod|any%s>:<racks>:<rack,...|->"

int fse_obs_parse(const char *line, struct fse_obs *o, char *err, size_t errlen)
{
	const char *p = line;
	char v[320];
	uint64_t n;
	size_t len = strlen(line);

	memset(o, 0, sizeof(*o));
	if (len && line[len - 1] == '\n')
		len--;
	for (size_t i = 0; i < len; i++)
		if (line[i] < 0x20 || line[i] > 0x7e)
			return _fail(err, errlen,
				     "byte 0x%02x at column %zu; expected printable ASCII",
				     (unsigned char)line[i], i + 1);
	if (_field(&p, "time", v, sizeof(v)) || _num(v, INT64_MAX, &n))
		return _fail(err, errlen, "no time; expected time=<seconds since 1970> first");
	o->time = (int64_t)n;
	if (_field(&p, "job", v, sizeof(v)) || _job(v, o))
		return _fail(err, errlen, "no job; expected job=<id from 1 to %u>[_<array task>]",
			     UINT32_MAX);
	if (_field(&p, "part", o->part, sizeof(o->part)) || !_name_ok(o->part, false))
		return _fail(err, errlen, "no partition; expected part=<partition name|->");
	if (!strcmp(o->part, "-"))
		o->part[0] = '\0';
	if (_field(&p, "level", v, sizeof(v)) ||
	    (strcmp(v, "rack") && strcmp(v, "pod") && strcmp(v, "any")))
		return _fail(err, errlen, "no level; expected level=<rack|pod|any>");
	o->level = !strcmp(v, "rack") ? FSE_RACK : !strcmp(v, "pod") ? FSE_POD : FSE_ANY;
	if (_field(&p, "nodes", v, sizeof(v)) || _num(v, UINT32_MAX, &n))
		return _fail(err, errlen, "no nodes; expected nodes=<count>");
	o->nodes = (uint32_t)n;
	if (_field(&p, "fits", v, sizeof(v)) || _num(v, 1, &n))
		return _fail(err, errlen, "no fits; expected fits=<0|1>");
	o->fits = n;
	if (_field(&p, "got", v, sizeof(v)) || _place(v, &o->got, false))
		return _fail(err, errlen, "no got; expected got=" PLACE_FORM, "");
	if (_field(&p, "would", v, sizeof(v)) || _place(v, &o->would, true))
		return _fail(err, errlen, "no would; expected would=" PLACE_FORM, "|wait|stock");
	if (_field(&p, "waited", v, sizeof(v)) || _num(v, UINT64_MAX, &o->waited))
		return _fail(err, errlen, "no waited; expected waited=<seconds>");
	if (strncmp(p, "why=", 4))
		return _fail(err, errlen, "no why; expected why=<text> last");
	p += 4;
	len -= (size_t)(p - line);
	if (len >= sizeof(o->why))
		len = sizeof(o->why) - 1;
	memcpy(o->why, p, len);
	o->why[len] = '\0';
	return 0;
}
