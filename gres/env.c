/*
 * env.c - the job environment naming a set of HCAs (UCX, NCCL, Open MPI,
 * fabsched).  See fabsched_gres.h.
 */
#ifdef HAVE_CONFIG_H
#include "fs_env.h"
#include "fabsched_config.h"
#endif

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gres_private.h"

const char *const fs_gres_rdma_env_names[] = {
	"UCX_NET_DEVICES",
	"NCCL_IB_HCA",
	"OMPI_MCA_btl_openib_if_include",
	FS_ENV_RDMA_DEVICES,
	FS_GRES_RDMA_LOCALITY_ENV,
	NULL,
};

const char *const fs_gres_roce_env_names[] = {
	"NCCL_IB_GID_INDEX",	"UCX_IB_GID_INDEX", "NCCL_SOCKET_IFNAME", "NCCL_IB_TC",
	"UCX_IB_TRAFFIC_CLASS", "NCCL_IB_SL",	    "UCX_IB_SL",	  NULL,
};

void fs_gres_env_clear(struct fs_gres_env *env)
{
	if (!env)
		return;
	for (size_t i = 0; i < env->n; i++) {
		free(env->name[i]);
		free(env->value[i]);
	}
	memset(env, 0, sizeof(*env));
}

/* growing string */
struct sbuf {
	char *s;
	size_t len, cap;
	int oom;
};

static void _add(struct sbuf *b, const char *fmt, ...) FS_GRES_PRINTF(2, 3);
static void _add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->oom)
		return;
	va_start(ap, fmt);
	k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (k < 0)
		goto oom;
	if (b->len + (size_t)k + 1 > b->cap) {
		size_t nc = (b->len + (size_t)k + 1) * 2;
		char *ns = realloc(b->s, nc);

		if (!ns)
			goto oom;
		b->s = ns;
		b->cap = nc;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)k;
	return;
oom:
	b->oom = 1;
}

static int _put(struct fs_gres_env *env, const char *name, struct sbuf *b)
{
	if (b->oom || env->n >= FS_GRES_ENV_MAX)
		return -1;
	if (!b->s && !(b->s = strdup("")))
		return -1;
	if (!(env->name[env->n] = strdup(name)))
		return -1;
	env->value[env->n++] = b->s;
	memset(b, 0, sizeof(*b));
	return 0;
}

static int _name_ok(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return 0;
	return 1;
}

/* A number variable, unless v is negative. */
static int _put_int(struct fs_gres_env *env, const char *name, int v)
{
	struct sbuf b = { 0 };

	if (v < 0)
		return 0;
	_add(&b, "%d", v);
	return _put(env, name, &b);
}

/* The RoCE variables of the set (fs_gres_rdma_env): none without a RoCE
 * HCA; the GID index when all agree; the traffic class and service level
 * of the first (one fabsched.conf sets them for the node). */
static int _roce_env(const struct fs_gres_rdma_dev *devs, size_t n, struct fs_gres_env *env)
{
	const struct fs_gres_roce *first = NULL;
	struct sbuf ifs = { 0 };
	int gid = -1;

	for (size_t i = 0; i < n; i++) {
		const struct fs_gres_roce *r = devs[i].roce;
		bool seen = false;

		if (!r || !r->netdev[0])
			continue;
		if (!first)
			gid = (first = r)->gid;
		else if (r->gid != gid)
			gid = -1;
		for (size_t j = 0; j < i; j++)
			seen |= devs[j].roce && !strcmp(devs[j].roce->netdev, r->netdev);
		if (!seen)
			_add(&ifs, "%s%s", ifs.len ? "," : "=", r->netdev);
	}
	if (!first)
		return 0;
	if (_put_int(env, "NCCL_IB_GID_INDEX", gid) || _put_int(env, "UCX_IB_GID_INDEX", gid) ||
	    _put(env, "NCCL_SOCKET_IFNAME", &ifs) || _put_int(env, "NCCL_IB_TC", first->tc) ||
	    _put_int(env, "UCX_IB_TRAFFIC_CLASS", first->tc) ||
	    _put_int(env, "NCCL_IB_SL", first->sl) || _put_int(env, "UCX_IB_SL", first->sl)) {
		free(ifs.s);
		return -1;
	}
	return 0;
}

int fs_gres_rdma_env(const struct fs_gres_rdma_dev *devs, size_t n, struct fs_gres_env *env,
		     char *err, size_t errlen)
{
	struct sbuf ports = { 0 }, names = { 0 }, nccl = { 0 }, loc = { 0 };
	int with_cpus = n > 0;
	char q[80];

	/* check everything first: nothing to undo afterwards */
	for (size_t i = 0; i < n; i++) {
		if (!_name_ok(devs[i].name)) {
			fs_gres_quote(devs[i].name, q, sizeof(q));
			return fs_errf(err, errlen,
				       "HCA name \"%s\": unusable in the "
				       "environment; expected letters, "
				       "digits, '_', '-', '.'",
				       q);
		}
		if (devs[i].roce && devs[i].roce->netdev[0] && !_name_ok(devs[i].roce->netdev)) {
			fs_gres_quote(devs[i].roce->netdev, q, sizeof(q));
			return fs_errf(err, errlen,
				       "net device of HCA %s \"%s\": unusable in the "
				       "environment; expected letters, digits, '_', '-', '.'",
				       devs[i].name, q);
		}
		if (!devs[i].cpus) {
			with_cpus = 0;
		} else if (fs_gres_cpulist_count(devs[i].cpus) < 0) {
			fs_gres_quote(devs[i].cpus, q, sizeof(q));
			return fs_errf(err, errlen,
				       "CPUs of HCA %s \"%s\": not a CPU "
				       "list; expected e.g. 0-7,16-23",
				       devs[i].name, q);
		}
	}
	for (size_t i = 0; i < n; i++) {
		_add(&names, "%s%s", i ? "," : "", devs[i].name);
		_add(&loc, "%s%s", i ? ";" : "", devs[i].name);
		for (size_t p = 0; p < devs[i].nports; p++)
			_add(&loc, "%s%u", p ? "," : ":", devs[i].ports[p]);
		if (devs[i].roce && devs[i].roce->netdev[0])
			_add(&loc, "@%d,%s,%d,%d", devs[i].roce->gid, devs[i].roce->netdev,
			     devs[i].roce->tc, devs[i].roce->sl);
		_add(&loc, "=%s", devs[i].cpus ? devs[i].cpus : "");
		if (!devs[i].nports) {
			_add(&ports, "%s%s", ports.len ? "," : "", devs[i].name);
			continue;
		}
		for (size_t p = 0; p < devs[i].nports; p++)
			_add(&ports, "%s%s:%u", ports.len ? "," : "", devs[i].name,
			     devs[i].ports[p]);
	}
	_add(&nccl, "=%s", ports.s ? ports.s : "");
	if (_put(env, "UCX_NET_DEVICES", &ports) || _put(env, "NCCL_IB_HCA", &nccl))
		goto oom;
	/* same list again for Open MPI's openib BTL */
	_add(&ports, "%s", env->value[0]);
	if (_put(env, "OMPI_MCA_btl_openib_if_include", &ports) ||
	    _put(env, FS_ENV_RDMA_DEVICES, &names))
		goto oom;
	if (with_cpus && _put(env, FS_GRES_RDMA_LOCALITY_ENV, &loc))
		goto oom;
	if (_roce_env(devs, n, env))
		goto oom;
	free(loc.s);
	return 0;
oom:
	free(ports.s);
	free(names.s);
	free(nccl.s);
	free(loc.s);
	fs_gres_env_clear(env);
	return fs_errf(err, errlen, "out of memory");
}
