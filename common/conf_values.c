/*
 * conf_values.c - one value of a key: parsing it by its type, copying
 * and freeing values, partitions and a whole configuration.
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

/* ------------------------------------------------------------ values */

void fsc_val_clear(struct _val *v)
{
	free(v->text);
	memset(v, 0, sizeof(*v));
}

int fsc_val_copy(struct _val *dst, const struct _val *src)
{
	char *t = src->text ? strdup(src->text) : NULL;

	if (src->text && !t)
		return -1;
	fsc_val_clear(dst);
	*dst = *src;
	dst->text = t;
	return 0;
}

void fsc_part_free(struct _part *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < fsc_nkeys; i++)
		fsc_val_clear(&p->v[i]);
	free(p->name);
	p->name = NULL;
}

void fs_conf_destroy(struct fs_conf *conf)
{
	if (!conf)
		return;
	for (size_t i = 0; i < fsc_nkeys; i++)
		fsc_val_clear(&conf->g[i]);
	fsc_part_free(&conf->dflt);
	for (size_t i = 0; i < conf->nparts; i++) {
		fsc_part_free(conf->parts[i]);
		free(conf->parts[i]);
	}
	free(conf->parts);
	free(conf->source);
	free(conf);
}

/*
 * Parse s as a value of key k into *v (origin and line left to the
 * caller).  -1 with err filled on a bad value or no memory.
 */
int fsc_val_parse(const struct fs_conf_key *k, const char *s, struct _val *v, char *err,
		  size_t errlen)
{
	struct _val t = { 0 };
	char esc[FS_ESCAPE_SIZE];
	const char *text = s;
	char num[24];
	unsigned idx;
	int rc = 0;

	switch (k->type) {
	case FS_TYPE_STRING:
		if (!*s) {
			snprintf(err, errlen,
				 "%s=: empty value; expected a "
				 "non-empty string",
				 k->name);
			rc = -1;
		}
		break;
	case FS_TYPE_PATH:
		if (*s != '/') {
			fs_escape(esc, sizeof(esc), s, strlen(s));
			rc = -1;
			snprintf(err, errlen,
				 "%s=%s: %s; expected an absolute path "
				 "(starting with '/')",
				 k->name, esc, *s ? "not an absolute path" : "empty value");
		} else if (strlen(s) >= 4096) {
			fs_escape(esc, sizeof(esc), s, strlen(s));
			rc = -1;
			snprintf(err, errlen,
				 "%s=%s: path too long; expected at most "
				 "4095 bytes",
				 k->name, esc);
		}
		break;
	case FS_TYPE_BOOL:
		rc = fs_parse_bool(k->name, s, &t.b, err, errlen);
		text = t.b ? "yes" : "no";
		break;
	case FS_TYPE_UINT:
		rc = fs_parse_uint(k->name, s, k->min, k->max, &t.u, err, errlen);
		snprintf(num, sizeof(num), "%llu", (unsigned long long)t.u);
		text = num;
		break;
	case FS_TYPE_DURATION:
		rc = fs_parse_duration(k->name, s, &t.u, err, errlen);
		break;
	case FS_TYPE_SIZE:
		rc = fs_parse_size(k->name, s, &t.u, err, errlen);
		break;
	case FS_TYPE_ENUM:
		rc = fs_parse_enum(k->name, s, k->values, &idx, err, errlen);
		if (!rc) {
			/* canonical spelling: word idx of the list */
			const char *w = k->values;
			size_t wl;

			for (unsigned i = 0; i < idx; i++)
				w = strchr(w, '|') + 1;
			wl = strcspn(w, "|");
			if (wl >= sizeof(esc))
				wl = sizeof(esc) - 1;
			memcpy(esc, w, wl);
			esc[wl] = '\0';
			text = esc;
			t.u = idx;
		}
		break;
	case FS_TYPE_LOCALITY:
		rc = fs_parse_locality_conf(k->name, s, &t.loc, err, errlen);
		break;
	case FS_TYPE_PERCENT:
		rc = fs_parse_percent(k->name, s, &t.u, err, errlen);
		break;
	}
	if (rc)
		return -1;
	if (!(t.text = strdup(text))) {
		snprintf(err, errlen, "%s", fsc_oom_msg);
		return -1;
	}
	fsc_val_clear(v);
	*v = t;
	return 0;
}
