/*
 * cli_slurm.c - what `fabsched job` and `fabsched metrics` read from
 * slurmctld's side: where its locality record is (scontrol show config,
 * run without a shell), the record itself (select/'s reader) and where
 * the observation log of Locality=observe is (observe_log.c reads it).
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "fabsched_cli.h"
#include "fabsched_select.h"
#include "fs_file.h"
#include "fs_run.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* StateSaveLocation of `scontrol show config`, asked once per run (job
 * and metrics read two files of it), malloc'ed once, or NULL. */
static const char *_state_save_dir(void)
{
	static char *dir;
	static bool asked;
	char *const argv[] = { "scontrol", "show", "config", NULL };
	const struct fs_run o = { .timeout = 60 };
	char *out = NULL, *save = NULL;

	if (asked)
		return dir;
	asked = true;
	if (fs_run(argv, &o, &out) == 0)
		for (char *l = strtok_r(out, "\n", &save); l && !dir;
		     l = strtok_r(NULL, "\n", &save)) {
			char *v;

			if (strncmp(l, "StateSaveLocation", 17) || !(v = strchr(l, '=')))
				continue;
			for (v++; *v == ' '; v++)
				;
			dir = strdup(v);
		}
	free(out);
	return dir;
}

/* @name in StateSaveLocation, malloc'ed, or NULL. */
static char *_state_save_file(const char *name)
{
	const char *dir = _state_save_dir();
	char *path;

	if (!dir || asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	return path;
}

char *fs_cli_share_file(void)
{
	return _state_save_file(FSE_SHARE_FILE);
}

char *fs_cli_observe_file(void)
{
	return _state_save_file(FSE_OBSERVE_FILE);
}

struct fse_locality *fs_cli_read_record(const char *path, char *why, size_t n)
{
	struct fse_locality *l = fse_locality_new(0);
	char e[128] = "out of memory";
	FILE *f = path && l ? fs_fopen_regular(path, e, sizeof(e)) : NULL;

	why[0] = '\0';
	if (!l || !f) {
		snprintf(why, n, "%s: cannot read: %s", path ? path : "locality record",
			 path ? e : "StateSaveLocation unknown");
		if (f)
			fclose(f);
		fse_locality_free(l);
		return NULL;
	}
	fse_locality_read(l, f, path, why, n); /* good lines kept; why says what was skipped */
	fclose(f);
	return l;
}

void fs_cli_record_counts(const struct fse_locality *l, int k, unsigned *got, unsigned *count)
{
	double share = fse_share_get(fse_locality_share(l, k), count);

	*got = (unsigned)(share * *count + 0.5);
}

void fs_cli_html_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}
