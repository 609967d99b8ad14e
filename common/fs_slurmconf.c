/*
 * fs_slurmconf.c - the NodeName= lines of slurm.conf (fs_slurmconf.h).
 * Slurm's own parser is case-insensitive on keys, takes '#' to the end of
 * a line as a comment ("\#" is a '#'), and reads "Include FILE" lines in
 * place; that is all this reader needs of it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* asprintf, getline */
#endif
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs_err.h"
#include "fs_file.h"
#include "fs_slurmconf.h"

#define LINE_MAX_LEN 65536 /* longer than any slurm.conf line Slurm takes */
#define INCLUDE_DEPTH 8

const char *fs_slurm_conf_path(void)
{
	const char *env = getenv("SLURM_CONF");
	static const char *const paths[] = { FS_SLURM_CONFDIR "/slurm.conf",
					     FS_SLURM_CONFIGLESS_DIR "/slurm.conf", NULL };

	if (env && *env)
		return env;
	for (int i = 0; paths[i]; i++)
		if (!access(paths[i], R_OK))
			return paths[i];
	return NULL;
}

struct acc {
	char *nodes;
	size_t len, nlines;
};

static int _add(struct acc *a, const char *v, size_t n, char *err, size_t errlen)
{
	char *p = realloc(a->nodes, a->len + n + 2);

	if (!p)
		return fs_errf(err, errlen, "out of memory");
	a->nodes = p;
	if (a->len)
		p[a->len++] = ',';
	memcpy(p + a->len, v, n);
	a->len += n;
	p[a->len] = '\0';
	return 0;
}

/* The value of @key= at the start of a word of @s; NULL none. */
static const char *_value(const char *s, const char *key, size_t *n)
{
	size_t k = strlen(key);

	for (const char *p = s; *p; p++) {
		if ((p == s || isspace((unsigned char)p[-1])) && !strncasecmp(p, key, k) &&
		    p[k] == '=') {
			const char *v = p + k + 1;

			*n = strcspn(v, " \t\r\n");
			return v;
		}
	}
	return NULL;
}

static int _read(const char *path, int depth, struct acc *a, char *err, size_t errlen)
{
	FILE *f;
	char *line = NULL, *dir, *slash, why[128];
	size_t cap = 0;
	ssize_t len;
	int ln = 0, rc = 0;

	if (depth > INCLUDE_DEPTH)
		return fs_errf(err, errlen,
			       "%s: Include nested more than %d deep; "
			       "expected Include files that do not include themselves",
			       path, INCLUDE_DEPTH);
	if (!(f = fs_fopen_regular(path, why, sizeof(why))))
		return fs_errf(err, errlen, "%.200s%s: cannot read: %s", path,
			       strlen(path) > 200 ? "..." : "", why);
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *p, *q;
		size_t n;
		const char *v;

		ln++;
		if (len > LINE_MAX_LEN) {
			rc = fs_errf(err, errlen,
				     "%s:%d: line of %zd bytes; expected "
				     "at most %d",
				     path, ln, len, LINE_MAX_LEN);
			break;
		}
		for (p = q = line; *p; p++) { /* comments, "\#" */
			if (*p == '\\' && p[1] == '#') {
				*q++ = '#';
				p++;
			} else if (*p == '#') {
				break;
			} else {
				*q++ = *p;
			}
		}
		*q = '\0';
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (!strncasecmp(p, "include", 7) && isspace((unsigned char)p[7])) {
			char *inc = p + 8, *e, *full = NULL;

			while (isspace((unsigned char)*inc))
				inc++;
			for (e = inc + strlen(inc); e > inc && isspace((unsigned char)e[-1]); e--)
				;
			*e = '\0';
			if (*inc != '/' && (dir = strdup(path))) {
				slash = strrchr(dir, '/');
				if (slash)
					slash[1] = '\0';
				if (asprintf(&full, "%s%s", slash ? dir : "", inc) < 0)
					full = NULL;
				free(dir);
			} else {
				full = strdup(inc);
			}
			if (!full) {
				rc = fs_errf(err, errlen, "out of memory");
				break;
			}
			rc = _read(full, depth + 1, a, err, errlen);
			free(full);
			if (rc)
				break;
			continue;
		}
		if (strncasecmp(p, "NodeName=", 9) || !(v = _value(p, "NodeName", &n)))
			continue;
		a->nlines++;
		if (!n || (n == 7 && !strncasecmp(v, "DEFAULT", 7)))
			continue;
		if ((rc = _add(a, v, n, err, errlen)))
			break;
	}
	free(line);
	if (!rc && ferror(f))
		rc = fs_errf(err, errlen,
			     "%.200s%s: cannot read: %s; expected a slurm.conf "
			     "file (or one it includes)",
			     path, strlen(path) > 200 ? "..." : "", strerror(errno));
	fclose(f);
	return rc;
}

int fs_slurm_conf_nodes(const char *path, char **nodes, size_t *nlines, char *err, size_t errlen)
{
	struct acc a = { 0 };

	*nodes = NULL;
	*nlines = 0;
	if (_read(path, 0, &a, err, errlen)) {
		free(a.nodes);
		return -1;
	}
	*nodes = a.nodes;
	*nlines = a.nlines;
	return 0;
}

int fs_plugin_dir_each(const char *dirs, const char *file, int (*use)(const char *path, void *arg),
		       void *arg)
{
	char path[4096];

	for (const char *d = dirs; d && *d; d += *d == ':') {
		size_t len = strcspn(d, ":");
		struct stat st;

		if (len &&
		    (size_t)snprintf(path, sizeof(path), "%.*s/%s", (int)len, d, file) <
			    sizeof(path) &&
		    !stat(path, &st) && S_ISREG(st.st_mode) && !use(path, arg))
			return 0;
		d += len;
	}
	return -1;
}
