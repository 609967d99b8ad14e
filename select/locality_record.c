/*
 * locality_record.c - the controller's locality record: per partition, the share of
 * recent jobs that got their domain (struct fse_share), and the decisions
 * not yet known to be starts; their state text, kept across restarts.  See
 * fabsched_select.h (struct fse_locality).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_select.h"
#include "fs_err.h"

struct pend {
	uint32_t job_id;
	int part;    /* index in parts */
	bool counts; /* fits one domain of its level */
	bool got;    /* and got one */
	char *note;  /* what the decision added to the job, or NULL */
};

struct fse_locality {
	struct {
		char *name;
		struct fse_share *share;
	} * parts;
	int nparts;
	struct pend *pend; /* oldest first */
	int npend, pend_max;
	bool dirty;
};

struct fse_locality *fse_locality_new(int pend_max)
{
	struct fse_locality *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->pend_max = pend_max > 0 ? pend_max : FSE_LOCALITY_PEND_MAX;
	if (!(l->pend = calloc(l->pend_max, sizeof(*l->pend)))) {
		free(l);
		return NULL;
	}
	return l;
}

void fse_locality_free(struct fse_locality *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->nparts; i++) {
		free(l->parts[i].name);
		fse_share_free(l->parts[i].share);
	}
	for (int i = 0; i < l->npend; i++)
		free(l->pend[i].note);
	free(l->parts);
	free(l->pend);
	free(l);
}

int fse_locality_part(struct fse_locality *l, const char *name)
{
	void *np;
	struct fse_share *sh;
	char *copy;

	if (!l)
		return -1;
	if (!name)
		name = "";
	for (int i = 0; i < l->nparts; i++)
		if (!strcmp(l->parts[i].name, name))
			return i;
	if (!(np = realloc(l->parts, (l->nparts + 1) * sizeof(*l->parts))))
		return -1;
	l->parts = np;
	sh = fse_share_new(0);
	copy = strdup(name);
	if (!sh || !copy) {
		fse_share_free(sh);
		free(copy);
		return -1;
	}
	l->parts[l->nparts].name = copy;
	l->parts[l->nparts].share = sh;
	return l->nparts++;
}

int fse_locality_nparts(const struct fse_locality *l)
{
	return l ? l->nparts : 0;
}

const char *fse_locality_part_name(const struct fse_locality *l, int k)
{
	return (l && k >= 0 && k < l->nparts) ? l->parts[k].name : NULL;
}

struct fse_share *fse_locality_share(const struct fse_locality *l, int k)
{
	return (l && k >= 0 && k < l->nparts) ? l->parts[k].share : NULL;
}

void fse_locality_count(struct fse_locality *l, int k, bool got)
{
	struct fse_share *s = fse_locality_share(l, k);

	if (!s)
		return;
	fse_share_push(s, got);
	l->dirty = true;
}

static int _find(const struct fse_locality *l, uint32_t job_id)
{
	for (int i = 0; i < l->npend; i++)
		if (l->pend[i].job_id == job_id)
			return i;
	return -1;
}

int fse_locality_pend(struct fse_locality *l, uint32_t job_id, int part, bool counts, bool got,
		      const char *note)
{
	char *copy = NULL;
	int i;

	if (!l || part < 0 || part >= l->nparts)
		return -1;
	if (note && !(copy = strdup(note)))
		return -1;
	if ((i = _find(l, job_id)) < 0) {
		if (l->npend == l->pend_max) { /* forget the oldest */
			if (l->pend[0].counts)
				l->dirty = true;
			free(l->pend[0].note);
			memmove(l->pend, l->pend + 1, (l->pend_max - 1) * sizeof(*l->pend));
			l->npend--;
		}
		i = l->npend++;
		memset(&l->pend[i], 0, sizeof(l->pend[i]));
		l->pend[i].counts = !counts; /* differs: dirty below */
	}
	if (counts &&
	    (l->pend[i].counts != counts || l->pend[i].got != got || l->pend[i].part != part))
		l->dirty = true;
	free(l->pend[i].note);
	l->pend[i].job_id = job_id;
	l->pend[i].part = part;
	l->pend[i].counts = counts;
	l->pend[i].got = got;
	l->pend[i].note = copy;
	return 0;
}

const char *fse_locality_note(const struct fse_locality *l, uint32_t job_id)
{
	int i = l ? _find(l, job_id) : -1;

	return i < 0 ? NULL : l->pend[i].note;
}

void fse_locality_drop_note(struct fse_locality *l, uint32_t job_id)
{
	int i = l ? _find(l, job_id) : -1;

	if (i >= 0) {
		free(l->pend[i].note);
		l->pend[i].note = NULL;
	}
}

int fse_locality_npend(const struct fse_locality *l)
{
	return l ? l->npend : 0;
}

int fse_locality_commit(struct fse_locality *l, fse_job_state_f state, void *arg)
{
	int k = 0, counted = 0;

	if (!l || !state)
		return 0;
	for (int i = 0; i < l->npend; i++) {
		enum fse_job_state st = state(l->pend[i].job_id, arg);

		if (st == FSE_JOB_PENDING) {
			l->pend[k++] = l->pend[i];
			continue;
		}
		if (l->pend[i].counts) {
			if (st == FSE_JOB_STARTED) {
				fse_share_push(l->parts[l->pend[i].part].share, l->pend[i].got);
				counted++;
			}
			l->dirty = true;
		}
		free(l->pend[i].note);
	}
	l->npend = k;
	return counted;
}

bool fse_locality_dirty(const struct fse_locality *l)
{
	return l && l->dirty;
}

/* ------------------------------------------------------------ state text */

static const char *_out_name(const char *name)
{
	return name[0] ? name : "-";
}

int fse_locality_write(struct fse_locality *l, FILE *f)
{
	char *buf = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!l || !f)
		return -1;
	fprintf(f,
		"# fabsched: per partition, recent jobs that fit one locality domain, oldest first (1: got it)\n");
	for (int i = 0; i < l->nparts && !rc; i++) {
		size_t n = fse_share_format(l->parts[i].share, NULL, 0);

		if (!n)
			continue; /* nothing remembered: nothing to read back */
		if (n + 1 > cap) {
			char *nb = realloc(buf, n + 1);

			if (!nb) {
				rc = -1;
				break;
			}
			buf = nb;
			cap = n + 1;
		}
		fse_share_format(l->parts[i].share, buf, cap);
		fprintf(f, "share %s %s\n", _out_name(l->parts[i].name), buf);
	}
	for (int i = 0; i < l->npend && !rc; i++)
		if (l->pend[i].counts)
			fprintf(f, "pending %u %s 1%d\n", l->pend[i].job_id,
				_out_name(l->parts[l->pend[i].part].name), l->pend[i].got ? 1 : 0);
	free(buf);
	if (rc || fflush(f) || ferror(f))
		return -1;
	l->dirty = false;
	return 0;
}

/* One line; -1 when malformed. */
static int _read_line(struct fse_locality *l, char *line)
{
	char *f[5], *save = NULL, *end = NULL;
	int n = 0, k;
	unsigned long id;

	for (char *t = strtok_r(line, " ", &save); t && n < 5; t = strtok_r(NULL, " ", &save))
		f[n++] = t;
	if (n == 3 && !strcmp(f[0], "share")) {
		k = fse_locality_part(l, !strcmp(f[1], "-") ? "" : f[1]);
		return (k < 0 || fse_share_parse(l->parts[k].share, f[2])) ? -1 : 0;
	}
	if (n != 4 || strcmp(f[0], "pending"))
		return -1;
	errno = 0;
	id = strtoul(f[1], &end, 10);
	if (errno || *end || !id || id > UINT32_MAX || f[1][0] == '-' || strlen(f[3]) != 2 ||
	    !strchr("01", f[3][0]) || !strchr("01", f[3][1]))
		return -1;
	if ((k = fse_locality_part(l, !strcmp(f[2], "-") ? "" : f[2])) < 0)
		return -1;
	return fse_locality_pend(l, (uint32_t)id, k, f[3][0] == '1', f[3][1] == '1', NULL);
}

int fse_locality_read(struct fse_locality *l, FILE *f, const char *name, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, bad = 0, first_bad = 0;
	ssize_t len;

	if (err && errlen)
		err[0] = '\0';
	if (!l || !f)
		return fs_errf(err, errlen, "bad arguments");
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		if (_read_line(l, line) && !bad++)
			first_bad = lineno;
	}
	free(line);
	l->dirty = false;
	if (bad)
		return fs_errf(
			err, errlen,
			"%s:%d: %d malformed line(s) of %d ignored; expected \"share <partition> <0|1 per job>\" or \"pending <job id> <partition> <0|1><0|1>\"",
			name ? name : "(locality record)", first_bad, bad, lineno);
	return 0;
}
