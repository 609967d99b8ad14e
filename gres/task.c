/*
 * task.c - one task's HCAs: parse the step's FABSCHED_RDMA_LOCALITY, take
 * the task's CPUs, choose the nearest HCA and build the task's variables.
 * No hwloc, so that the SPANK plugin can link it.  See fabsched_gres.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* sched_getaffinity, CPU_ALLOC */
#endif
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "gres_private.h"

#define LOC_FORM                                                                  \
	"<hca>[:<port>[,<port>...]][@<gid>,<netdev>,<tc>,<sl>]=<cpulist>[;...], " \
	"e.g. mlx5_0:1=0-19;mlx5_2:1=20-39 or mlx5_0:1@3,ens1f0np0,106,-1=0-19"

void fs_gres_rdma_set_clear(struct fs_gres_rdma_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < FS_GRES_RDMA_MAX; i++)
		free(set->cpus[i]);
	memset(set, 0, sizeof(*set));
}

static int _hca_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

/* "<what>: entry "<e>" of FABSCHED_RDMA_LOCALITY="<v>"; expected ..." */
static int _bad(const char *value, const char *e, size_t elen, const char *what, char *err,
		size_t errlen)
{
	char qv[80], qe[80], ebuf[64];

	snprintf(ebuf, sizeof(ebuf), "%.*s", (int)(elen < 63 ? elen : 63), e);
	fs_gres_quote(value, qv, sizeof(qv));
	fs_gres_quote(ebuf, qe, sizeof(qe));
	return fs_errf(err, errlen, "%s=\"%s\": entry \"%s\": %s; expected " LOC_FORM,
		       FS_GRES_RDMA_LOCALITY_ENV, qv, qe, what);
}

/* The RoCE part r[0..len) of entry e ("<gid>,<netdev>,<tc>,<sl>", each
 * number -1 or more) into set->roce[i]. */
static int _roce(const char *value, const char *e, size_t elen, const char *r, size_t len,
		 struct fs_gres_rdma_set *set, size_t i, char *err, size_t errlen)
{
	struct fs_gres_roce *rc = &set->roce[i];
	char buf[64];
	int k = 0;

	if (len >= sizeof(buf))
		return _bad(value, e, elen, "RoCE part too long", err, errlen);
	memcpy(buf, r, len);
	buf[len] = '\0';
	if (sscanf(buf, "%d,%15[A-Za-z0-9_.-],%d,%d%n", &rc->gid, rc->netdev, &rc->tc, &rc->sl,
		   &k) != 4 ||
	    buf[k] || rc->gid < -1 || rc->tc < -1 || rc->tc > 255 || rc->sl < -1 || rc->sl > 15) {
		memset(rc, 0, sizeof(*rc));
		return _bad(value, e, elen,
			    "RoCE part not <gid>,<netdev>,<tc>,<sl> (GID index, net device, "
			    "traffic class 0-255, service level 0-15; -1 not set)",
			    err, errlen);
	}
	return 0;
}

/* one entry e[0..len) into set->dev[set->n] */
static int _entry(const char *value, const char *e, size_t len, struct fs_gres_rdma_set *set,
		  char *err, size_t errlen)
{
	const char *eq = memchr(e, '=', len), *p = e, *end = e + len, *at;
	size_t i = set->n, nlen = 0, np = 0;

	if (!eq)
		return _bad(value, e, len, "no '='", err, errlen);
	/* the RoCE part, then the name and ports before it */
	if ((at = memchr(e, '@', (size_t)(eq - e)))) {
		if (_roce(value, e, len, at + 1, (size_t)(eq - at - 1), set, i, err, errlen))
			return -1;
		eq = at;
	}
	while (p < eq && _hca_char(*p))
		p++;
	nlen = (size_t)(p - e);
	if (!nlen || nlen >= sizeof(set->name[0]))
		return _bad(value, e, len,
			    "no HCA name of 1 to 63 letters, "
			    "digits, '_', '-', '.'",
			    err, errlen);
	memcpy(set->name[i], e, nlen);
	set->name[i][nlen] = '\0';
	if (p < eq && *p != ':')
		return _bad(value, e, len,
			    "unexpected character after the "
			    "HCA name",
			    err, errlen);
	if (p < eq) { /* ports */
		if (++p == eq)
			return _bad(value, e, len, "empty port", err, errlen);
		while (p < eq) {
			unsigned long v = 0;
			const char *d = p;

			while (p < eq && *p >= '0' && *p <= '9' && v <= 255)
				v = v * 10 + (unsigned long)(*p++ - '0');
			if (p == d || v < 1 || v > 255)
				return _bad(value, e, len,
					    "port not a number "
					    "1..255",
					    err, errlen);
			if (np == FS_GRES_PORTS_MAX)
				return _bad(value, e, len, "more than 8 ports", err, errlen);
			set->ports[i][np++] = (unsigned)v;
			if (p < eq && *p++ != ',')
				return _bad(value, e, len,
					    "ports not separated "
					    "by ','",
					    err, errlen);
			if (p == eq && p[-1] == ',')
				return _bad(value, e, len, "empty port", err, errlen);
		}
	}
	eq = memchr(e, '=', len); /* after the RoCE part, if any */
	if (!(set->cpus[i] = malloc((size_t)(end - eq))))
		return fs_errf(err, errlen, "out of memory");
	memcpy(set->cpus[i], eq + 1, (size_t)(end - eq - 1));
	set->cpus[i][end - eq - 1] = '\0';
	if (fs_gres_cpulist_count(set->cpus[i]) < 0)
		return _bad(value, e, len,
			    "CPUs not a cpulist (CPU numbers "
			    "and ranges separated by ',')",
			    err, errlen);
	for (size_t k = 0; k < i; k++)
		if (!strcmp(set->name[k], set->name[i]))
			return _bad(value, e, len, "HCA named twice", err, errlen);
	set->dev[i].name = set->name[i];
	set->dev[i].ports = set->ports[i];
	set->dev[i].nports = np;
	set->dev[i].cpus = set->cpus[i];
	set->dev[i].roce = set->roce[i].netdev[0] ? &set->roce[i] : NULL;
	set->n++;
	return 0;
}

int fs_gres_rdma_locality_parse(const char *value, struct fs_gres_rdma_set *set, char *err,
				size_t errlen)
{
	const char *p = value;

	if (!value || !*value)
		return fs_errf(err, errlen, "%s is empty; expected " LOC_FORM,
			       FS_GRES_RDMA_LOCALITY_ENV);
	for (;;) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (set->n == FS_GRES_RDMA_MAX)
			return _bad(value, p, len, "more than 64 HCAs", err, errlen);
		if (_entry(value, p, len, set, err, errlen))
			return -1;
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

/* True when @env sets @name. */
static bool _has(const struct fs_gres_env *env, const char *name)
{
	for (size_t i = 0; i < env->n; i++)
		if (!strcmp(env->name[i], name))
			return true;
	return false;
}

/* Into task->unset: the RoCE variables the step's set gives, the task's
 * (task) does not. */
static int _roce_unset(const struct fs_gres_rdma_set *set, struct fs_gres_env *task, char *err,
		       size_t errlen)
{
	struct fs_gres_rdma_dev devs[FS_GRES_RDMA_MAX];
	struct fs_gres_env step = { 0 };

	for (size_t i = 0; i < set->n; i++) {
		devs[i] = set->dev[i];
		devs[i].cpus = NULL;
	}
	if (fs_gres_rdma_env(devs, set->n, &step, err, errlen))
		return -1;
	for (size_t i = 0; fs_gres_roce_env_names[i]; i++)
		if (_has(&step, fs_gres_roce_env_names[i]) &&
		    !_has(task, fs_gres_roce_env_names[i]))
			task->unset[task->nunset++] = fs_gres_roce_env_names[i];
	fs_gres_env_clear(&step);
	return 0;
}

int fs_gres_rdma_task_env(const char *locality, const char *task_cpus, unsigned spread,
			  struct fs_gres_env *env, char *err, size_t errlen)
{
	struct fs_gres_rdma_set *set = calloc(1, sizeof(*set));
	struct fs_gres_rdma_dev devs[FS_GRES_RDMA_MAX];
	const char *cand[FS_GRES_RDMA_MAX];
	size_t pick, n;
	int rc = -1;

	if (!set)
		return fs_errf(err, errlen, "out of memory");
	if (fs_gres_rdma_locality_parse(locality, set, err, errlen))
		goto out;
	for (size_t i = 0; i < set->n; i++)
		cand[i] = set->cpus[i];
	if (fs_gres_pick_nearest(task_cpus, cand, set->n, spread, &pick, err, errlen))
		goto out;
	/* the task's variables name its HCAs; the locality stays the step's */
	n = 0;
	for (size_t i = 0; i < set->n; i++) {
		if (pick < set->n && i != pick)
			continue;
		devs[n] = set->dev[i];
		devs[n++].cpus = NULL;
	}
	rc = fs_gres_rdma_env(devs, n, env, err, errlen);
	if (!rc && n < set->n && _roce_unset(set, env, err, errlen)) {
		fs_gres_env_clear(env);
		rc = -1;
	}
out:
	fs_gres_rdma_set_clear(set);
	free(set);
	return rc;
}

char *fs_gres_task_cpus(char *err, size_t errlen)
{
	/* grow the set until the kernel's mask fits (machines > 1024 CPUs) */
	for (size_t ncpu = 1024; ncpu <= FS_CPULIST_MAX + 1; ncpu *= 2) {
		cpu_set_t *set = CPU_ALLOC(ncpu);
		size_t sz = CPU_ALLOC_SIZE(ncpu);
		unsigned char *bits;
		char *s;

		if (!set) {
			fs_errf(err, errlen, "out of memory");
			return NULL;
		}
		if (sched_getaffinity(0, sz, set)) {
			int e = errno;

			CPU_FREE(set);
			if (e == EINVAL)
				continue;
			fs_errf(err, errlen, "sched_getaffinity: %s", strerror(e));
			return NULL;
		}
		if (!(bits = calloc(ncpu, 1))) {
			CPU_FREE(set);
			fs_errf(err, errlen, "out of memory");
			return NULL;
		}
		for (size_t i = 0; i < ncpu; i++)
			bits[i] = CPU_ISSET_S(i, sz, set) ? 1 : 0;
		CPU_FREE(set);
		s = fs_gres_cpulist_format(bits, ncpu);
		free(bits);
		if (!s)
			fs_errf(err, errlen, "out of memory");
		return s;
	}
	fs_errf(err, errlen, "sched_getaffinity: more than %d CPUs", FS_CPULIST_MAX + 1);
	return NULL;
}

int fs_gres_rdma_task(const char *locality, const char *localid, struct fs_gres_env *env,
		      char **cpus, char *err, size_t errlen)
{
	unsigned long local = 0;
	char *end = NULL;

	/* the local task id spreads tasks over equally near HCAs */
	if (localid && *localid) {
		errno = 0;
		local = strtoul(localid, &end, 10);
		if (errno || *end || local > UINT32_MAX)
			local = 0;
	}
	if (!(*cpus = fs_gres_task_cpus(err, errlen)))
		return -1;
	return fs_gres_rdma_task_env(locality, *cpus, (unsigned)local, env, err, errlen);
}
