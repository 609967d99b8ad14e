/*
 * conf_load.c - finding and reading the fabsched.conf file (path,
 * permissions, size) and parsing it.
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
#include <limits.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf_private.h"
#include "fs_ib.h"

/* ------------------------------------------------------------ loading */

static const char *_strerror(int e, char *buf, size_t bufsz)
{
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
	return strerror_r(e, buf, bufsz);
#else
	if (strerror_r(e, buf, bufsz))
		snprintf(buf, bufsz, "error %d", e);
	return buf;
#endif
}

/* Read a whole regular file; on error -1 with a message added to errs. */
static int _read_file(const char *path, char **buf, size_t *len, struct fs_errors *errs,
		      int *missing)
{
	char ebuf[128], *b = NULL;
	size_t n = 0, cap = 0;
	struct stat st;
	int fd, e;

	*missing = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		e = errno;
		*missing = e == ENOENT;
		fs_errors_add(errs,
			      "%s: cannot open: %s; expected a readable "
			      "fabsched.conf",
			      path, _strerror(e, ebuf, sizeof(ebuf)));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fs_errors_add(errs,
			      "%s: not a regular file; expected a "
			      "readable fabsched.conf",
			      path);
		goto fail;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			size_t ncap = cap ? cap * 2 : 8192;
			char *nb;

			if (ncap > FS_CONF_MAX_FILE + 2)
				ncap = FS_CONF_MAX_FILE + 2;
			if (n + 1 >= ncap) {
				fs_errors_add(errs,
					      "%s: larger than %u bytes; "
					      "expected a configuration file",
					      path, FS_CONF_MAX_FILE);
				goto fail;
			}
			if (!(nb = realloc(b, ncap))) {
				fs_errors_add(errs, "%s: %s", path, fsc_oom_msg);
				goto fail;
			}
			b = nb;
			cap = ncap;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fs_errors_add(errs,
				      "%s: cannot read: %s; expected a "
				      "readable fabsched.conf",
				      path, _strerror(errno, ebuf, sizeof(ebuf)));
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
fail:
	close(fd);
	free(b);
	return -1;
}

/* ------------------------------------------------------------ site search */

#define PLUGSTACK_LINE_MAX 8192
#define SITE_DIRS 3

/* The directories a host's Slurm configuration may be in, most specific
 * first: the one of $SLURM_CONF (slurmd sets it for the prolog and epilog:
 * on a configless node its copy of the controller's files), /etc/slurm,
 * and a configless node's /run/slurm/conf.  RET how many. */
static int _site_dirs(char dirs[SITE_DIRS][PATH_MAX])
{
#if defined(__GLIBC__)
	const char *sc = secure_getenv("SLURM_CONF");
#else
	const char *sc = getenv("SLURM_CONF");
#endif
	const char *slash;
	int n = 0;

	if (sc && sc[0] == '/' && (slash = strrchr(sc, '/')) && (size_t)(slash - sc) < PATH_MAX) {
		snprintf(dirs[n], PATH_MAX, "%.*s", (int)(slash - sc), sc);
		if (!dirs[n][0])
			snprintf(dirs[n], PATH_MAX, "/");
		n++;
	}
	if (!n || strcmp(dirs[0], FS_SLURM_CONFDIR))
		snprintf(dirs[n++], PATH_MAX, "%s", FS_SLURM_CONFDIR);
	if (strcmp(dirs[0], FS_SLURM_CONFIGLESS_DIR))
		snprintf(dirs[n++], PATH_MAX, "%s", FS_SLURM_CONFIGLESS_DIR);
	return n;
}

/*
 * The arguments of the fabsched.so line of plugstack.conf @path: its
 * Key=Value words as fabsched.conf lines in *text (malloc'ed), a conf=FILE
 * word in *conf_path (malloc'ed), the line in *lineno.  RET 0 found, 1 no
 * such file or line, -1 (a message in errs) when the file cannot be read.
 */
static int _plugstack_args(const char *path, char **text, char **conf_path, unsigned *lineno,
			   struct fs_errors *errs)
{
	char line[PLUGSTACK_LINE_MAX], ebuf[128];
	FILE *f = fopen(path, "re");
	unsigned n = 0;

	*text = *conf_path = NULL;
	if (!f) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 1;
		fs_errors_add(errs,
			      "%s: cannot open: %s; expected a readable "
			      "plugstack.conf",
			      path, _strerror(errno, ebuf, sizeof(ebuf)));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *kind, *plugin, *base, *hash;
		size_t len = 0;

		n++;
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		kind = strtok_r(line, " \t\r\n", &save);
		plugin = kind ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		if (!plugin || (strcasecmp(kind, "required") && strcasecmp(kind, "optional")))
			continue;
		base = strrchr(plugin, '/') ? strrchr(plugin, '/') + 1 : plugin;
		if (strcmp(base, "fabsched.so"))
			continue;
		*lineno = n;
		*text = calloc(1, PLUGSTACK_LINE_MAX + 1);
		for (char *w = strtok_r(NULL, " \t\r\n", &save); w && *text;
		     w = strtok_r(NULL, " \t\r\n", &save)) {
			if (!strncmp(w, "conf=", 5)) {
				free(*conf_path);
				*conf_path = strdup(w + 5);
			} else if (strchr(w, '=')) {
				len += (size_t)snprintf(*text + len, PLUGSTACK_LINE_MAX + 1 - len,
							"%s\n", w);
			}
		}
		fclose(f);
		if (!*text) {
			fs_errors_add(errs, "%s: %s", path, fsc_oom_msg);
			free(*conf_path);
			*conf_path = NULL;
			return -1;
		}
		return 0;
	}
	fclose(f);
	return 1;
}

/*
 * No file named: fabsched.conf in the first site directory holding one;
 * else the fabsched.so line of a plugstack.conf there (its conf=FILE, or
 * its Key=Value arguments: how a configless node gets its settings, since
 * slurmd fetches plugstack.conf from the controller); else the built-in
 * defaults.  RET as fs_conf_load; *path set when a file is to be read.
 */
static int _site_load(char *path, size_t pathsz, struct fs_conf **out, struct fs_errors *errs)
{
	char dirs[SITE_DIRS][PATH_MAX], ps[PATH_MAX + 32];
	int n = _site_dirs(dirs), rc;
	struct stat st;

	for (int i = 0; i < n; i++) {
		snprintf(path, pathsz, "%.*s/fabsched.conf", PATH_MAX - 32, dirs[i]);
		if (!stat(path, &st) || errno != ENOENT)
			return 1; /* read it (an error says why not) */
	}
	for (int i = 0; i < n; i++) {
		char *text = NULL, *conf = NULL, name[PATH_MAX + 96];
		unsigned line = 0;

		snprintf(ps, sizeof(ps), "%.*s/plugstack.conf", PATH_MAX - 32, dirs[i]);
		rc = _plugstack_args(ps, &text, &conf, &line, errs);
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		if (conf) {
			snprintf(path, pathsz, "%s", conf);
			free(conf);
			free(text);
			return 1;
		}
		if (!*text) {
			free(text);
			continue; /* no settings on that line */
		}
		snprintf(name, sizeof(name), "%s:%u (fabsched.so arguments)", ps, line);
		rc = fs_conf_parse(name, text, strlen(text), out, errs);
		free(text);
		return rc;
	}
	snprintf(path, pathsz, "%s", fs_conf_default_path());
	rc = fs_conf_parse(path, "", 0, out, errs);
	if (!rc)
		(*out)->builtin = true;
	return rc;
}

int fs_conf_load(const char *path, struct fs_conf **out, struct fs_errors *errs)
{
	char *buf = NULL, site[PATH_MAX];
	size_t len = 0;
	int missing, rc;

	if (!out) {
		errno = EINVAL;
		return -1;
	}
	*out = NULL;
	if (!path) {
#if defined(__GLIBC__)
		const char *env = secure_getenv(FS_CONF_ENV);
#else
		const char *env = getenv(FS_CONF_ENV);
#endif
		if (env && *env) {
			path = env;
		} else {
			rc = _site_load(site, sizeof(site), out, errs);
			if (rc != 1)
				return rc;
			path = site;
		}
	}
	if (_read_file(path, &buf, &len, errs, &missing)) {
		errno = missing ? ENOENT : EINVAL;
		return -1;
	}
	rc = fs_conf_parse(path, buf, len, out, errs);
	free(buf);
	return rc;
}
