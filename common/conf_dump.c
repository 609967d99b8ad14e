/*
 * conf_dump.c - the resolved configuration as text, each value with
 * where it came from (fabsched config show).
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

/* ------------------------------------------------------------ dump */

/* Quote a value when the parser would otherwise split or cut it. */
static const char *_quote(const char *s)
{
	size_t n = strlen(s);

	if (!n || strpbrk(s, " \t#") || s[n - 1] == '\\')
		return "\"";
	return "";
}

static const char *_origin(const struct _val *v, const char *fallback, char *buf, size_t bufsz)
{
	switch (v->origin) {
	case O_BUILTIN:
		return "built-in default";
	case O_FILE:
		snprintf(buf, bufsz, "line %u", v->line);
		return buf;
	case O_DEFAULT_PART:
		snprintf(buf, bufsz, "PartitionName=DEFAULT at line %u", v->line);
		return buf;
	case O_GLOBAL:
		snprintf(buf, bufsz, "from %s", fallback);
		return buf;
	case O_UNSET:
		break;
	}
	return "not set";
}

static void _dump_part(const struct _part *p, const struct _part *dflt, FILE *out)
{
	char buf[64];
	size_t col = strlen("PartitionName=") + strlen(p->name);

	fprintf(out, "PartitionName=%s", p->name);
	for (size_t k = 0; k < fsc_nkeys; k++) {
		const char *q;
		size_t w;

		if (fsc_keys[k].scope != FS_SCOPE_PARTITION || p->v[k].origin == O_UNSET)
			continue;
		q = _quote(p->v[k].text);
		w = strlen(fsc_keys[k].name) + strlen(p->v[k].text) + 4;
		if (col + w > 100) {
			/* long lines are continued, as an admin would */
			fprintf(out, " \\\n   ");
			col = 3;
		}
		col += w;
		fprintf(out, " %s=%s%s%s", fsc_keys[k].name, q, p->v[k].text, q);
	}
	if (p != dflt)
		fprintf(out, "\t# line %u", p->line);
	fprintf(out, "\n");
	for (size_t k = 0; k < fsc_nkeys; k++) {
		if (fsc_keys[k].scope != FS_SCOPE_PARTITION || p->v[k].origin == O_FILE)
			continue;
		fprintf(out, "#   %s: %s\n", fsc_keys[k].name,
			_origin(&p->v[k], fsc_keys[k].fallback, buf, sizeof(buf)));
	}
}

int fs_conf_dump(const struct fs_conf *conf, FILE *out)
{
	char buf[64];

	if (!conf || !out) {
		errno = EINVAL;
		return -1;
	}
	fprintf(out, "# fabsched configuration in effect\n# source: %s%s\n", conf->source,
		conf->builtin ? " (not found: built-in defaults)" : "");
	for (size_t k = 0; k < fsc_nkeys; k++) {
		const struct _val *v = &conf->g[k];
		const char *q;

		if (fsc_keys[k].scope != FS_SCOPE_GLOBAL)
			continue;
		if (v->origin == O_UNSET) {
			fprintf(out, "#%s=\t# not set\n", fsc_keys[k].name);
			continue;
		}
		q = _quote(v->text);
		fprintf(out, "%s=%s%s%s\t# %s\n", fsc_keys[k].name, q, v->text, q,
			_origin(v, "", buf, sizeof(buf)));
	}
	fprintf(out, "\n# partitions not listed below\n");
	_dump_part(&conf->dflt, &conf->dflt, out);
	for (size_t i = 0; i < conf->nparts; i++)
		_dump_part(conf->parts[i], &conf->dflt, out);
	if (fflush(out) || ferror(out))
		return -1;
	return 0;
}
