/*
 * conf_get.c - the getters: global and per-partition values, with
 * partition values falling back to DEFAULT, the global key, the default.
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

/* ------------------------------------------------------------ getters */

const char *fs_conf_source(const struct fs_conf *conf)
{
	return conf ? conf->source : NULL;
}

bool fs_conf_is_builtin(const struct fs_conf *conf)
{
	return conf && conf->builtin;
}

/* The value of key in scope, or NULL with errno set. */
static const struct _val *_lookup(const struct fs_conf *conf, const char *part, const char *key,
				  enum fs_conf_scope scope, int *kidx)
{
	const struct _val *v;
	const struct _part *p;
	int k = fsc_key_index(key);

	if (!conf || k < 0) {
		errno = conf ? ENOENT : EINVAL;
		return NULL;
	}
	if (fsc_keys[k].scope != scope) {
		errno = EINVAL;
		return NULL;
	}
	if (scope == FS_SCOPE_GLOBAL) {
		v = &conf->g[k];
	} else {
		p = part && !fs_strcaseeq(part, "DEFAULT") ? fsc_find_part(conf, part) : NULL;
		v = p ? &p->v[k] : &conf->dflt.v[k];
	}
	if (v->origin == O_UNSET) {
		errno = ENOENT;
		return NULL;
	}
	*kidx = k;
	return v;
}

static int _get_uint(const struct _val *v, int k, uint64_t *out)
{
	if (!v)
		return -1;
	switch (fsc_keys[k].type) {
	case FS_TYPE_UINT:
	case FS_TYPE_DURATION:
	case FS_TYPE_SIZE:
	case FS_TYPE_ENUM:
	case FS_TYPE_PERCENT:
		if (out)
			*out = v->u;
		return 0;
	default:
		errno = EINVAL;
		return -1;
	}
}

static int _get_bool(const struct _val *v, int k, bool *out)
{
	if (!v)
		return -1;
	if (fsc_keys[k].type != FS_TYPE_BOOL) {
		errno = EINVAL;
		return -1;
	}
	if (out)
		*out = v->b;
	return 0;
}

const char *fs_conf_get_str(const struct fs_conf *conf, const char *key)
{
	int k;
	const struct _val *v = _lookup(conf, NULL, key, FS_SCOPE_GLOBAL, &k);

	return v ? v->text : NULL;
}

int fs_conf_get_uint(const struct fs_conf *conf, const char *key, uint64_t *out)
{
	int k = 0;
	const struct _val *v = _lookup(conf, NULL, key, FS_SCOPE_GLOBAL, &k);

	return _get_uint(v, k, out);
}

int fs_conf_get_bool(const struct fs_conf *conf, const char *key, bool *out)
{
	int k = 0;
	const struct _val *v = _lookup(conf, NULL, key, FS_SCOPE_GLOBAL, &k);

	return _get_bool(v, k, out);
}

int fs_conf_get_locality(const struct fs_conf *conf, const char *key, struct fs_locality *out)
{
	int k = 0;
	const struct _val *v = _lookup(conf, NULL, key, FS_SCOPE_GLOBAL, &k);

	if (!v)
		return -1;
	if (fsc_keys[k].type != FS_TYPE_LOCALITY) {
		errno = EINVAL;
		return -1;
	}
	if (out)
		*out = v->loc;
	return 0;
}

size_t fs_conf_part_count(const struct fs_conf *conf)
{
	return conf ? conf->nparts : 0;
}

const char *fs_conf_part_name(const struct fs_conf *conf, size_t i)
{
	return conf && i < conf->nparts ? conf->parts[i]->name : NULL;
}

bool fs_conf_has_part(const struct fs_conf *conf, const char *part)
{
	return conf && fsc_find_part(conf, part);
}

const char *fs_conf_part_get_str(const struct fs_conf *conf, const char *part, const char *key)
{
	int k;
	const struct _val *v = _lookup(conf, part, key, FS_SCOPE_PARTITION, &k);

	return v ? v->text : NULL;
}

int fs_conf_part_get_uint(const struct fs_conf *conf, const char *part, const char *key,
			  uint64_t *out)
{
	int k = 0;
	const struct _val *v = _lookup(conf, part, key, FS_SCOPE_PARTITION, &k);

	return _get_uint(v, k, out);
}

int fs_conf_part_get_bool(const struct fs_conf *conf, const char *part, const char *key, bool *out)
{
	int k = 0;
	const struct _val *v = _lookup(conf, part, key, FS_SCOPE_PARTITION, &k);

	return _get_bool(v, k, out);
}

int fs_conf_part_locality(const struct fs_conf *conf, const char *part, struct fs_locality *out)
{
	uint64_t level, wait;

	if (fs_conf_part_get_uint(conf, part, "Locality", &level) ||
	    fs_conf_part_get_uint(conf, part, "LocalityWait", &wait))
		return -1;
	if (out) {
		out->level = (enum fs_locality_level)level;
		out->wait_set = true;
		out->wait = wait;
	}
	return 0;
}

bool fs_conf_part_off(const struct fs_conf *conf, const char *part)
{
	struct fs_locality loc;

	return conf && !fs_conf_part_locality(conf, part, &loc) && loc.level >= FS_LOCALITY_OFF;
}

bool fs_conf_part_observe(const struct fs_conf *conf, const char *part)
{
	struct fs_locality loc;

	return conf && !fs_conf_part_locality(conf, part, &loc) && loc.level == FS_LOCALITY_OBSERVE;
}

bool fs_conf_all_off(const struct fs_conf *conf)
{
	if (!fs_conf_part_off(conf, NULL))
		return false;
	for (size_t i = 0; i < fs_conf_part_count(conf); i++)
		if (!fs_conf_part_off(conf, fs_conf_part_name(conf, i)))
			return false;
	return true;
}
