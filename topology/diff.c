/*
 * diff.c — compare the model with an existing topology.conf (tree).
 *
 * Switch names may differ between tools, so the comparison is about what
 * Slurm uses: which nodes exist, which nodes share a leaf switch, and
 * whether each line is valid (no line with both Nodes= and Switches=).
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct oldsw {
	char *name;
	int nnodes, nswitches;
};

static char *_value(char *line, const char *key)
{
	size_t kl = strlen(key);

	for (char *p = line; *p; p++) {
		if ((p == line || isspace((unsigned char)p[-1])) && !strncasecmp(p, key, kl) &&
		    p[kl] == '=') {
			char *v = p + kl + 1, *e = v;

			while (*e && !isspace((unsigned char)*e))
				e++;
			return strndup(v, (size_t)(e - v));
		}
	}
	return NULL;
}

/*
 * The comparison in phases: the old file read (its switches, and which
 * of them each of its nodes is under; what Slurm would reject printed as
 * it is met), the nodes on one side only, how the old leaves map onto
 * the fabric's, and the old leaves that are one in the fabric.  Each
 * difference is a line of @out, counted in diffs.
 */
struct old {
	const char *path;
	FILE *out;
	struct oldsw *sw;
	int n, cap;
	struct fst_index leaf; /* node -> index in sw */
	int *dominant;	       /* per switch: the fabric leaf of most of its nodes, or -1 */
	int diffs;
};

/* A line's Nodes=: each node under switch o->n; a node under two printed. */
static int _old_nodes(struct old *o, const char *nodes, int ln, char *err, size_t errlen)
{
	char **v, e2[256];
	int n;

	if (fst_hostlist_expand(nodes, &v, &n, e2, sizeof(e2)))
		return fs_errf(err, errlen, "%s:%d: Nodes=: %s", o->path, ln, e2);
	for (int i = 0; i < n; i++) {
		if (fst_index_get(&o->leaf, v[i]) >= 0) {
			fprintf(o->out, "invalid: %s:%d: node %s is under several switches\n",
				o->path, ln, v[i]);
			o->diffs++;
		} else if (fst_index_put(&o->leaf, v[i], o->n)) {
			fst_strv_free(v, n);
			return fs_errf(err, errlen, "out of memory");
		}
	}
	o->sw[o->n].nnodes = n;
	fst_strv_free(v, n);
	return 0;
}

/* One line (no comment, no leading blank): its switch into o->sw. */
static int _old_line(struct old *o, char *s, int ln, char *err, size_t errlen)
{
	char *name = _value(s, "SwitchName"), *nodes, *sws;
	struct oldsw *no;
	int rc = 0;

	if (!name) {
		char *block = _value(s, "BlockName");
		bool is_block;

		if (!block)
			block = _value(s, "BlockSizes");
		is_block = block != NULL;
		free(block);
		if (is_block)
			return fs_errf(err, errlen,
				       "%s:%d: block topology line; expected a tree "
				       "topology.conf (SwitchName=...)",
				       o->path, ln);
		return fs_errf(err, errlen,
			       "%s:%d: no SwitchName=; expected 'SwitchName=<name> "
			       "Nodes=<hostlist>|Switches=<hostlist> [LinkSpeed=<n>]'",
			       o->path, ln);
	}
	nodes = _value(s, "Nodes");
	sws = _value(s, "Switches");
	no = fst_grow(o->sw, &o->cap, o->n + 1, sizeof(*o->sw));
	if (!no) {
		free(name);
		free(nodes);
		free(sws);
		return fs_errf(err, errlen, "out of memory");
	}
	o->sw = no;
	o->sw[o->n].name = name;
	if (nodes && sws) {
		fprintf(o->out,
			"invalid: %s:%d: SwitchName=%s has both Nodes= and Switches= "
			"(Slurm rejects it)\n",
			o->path, ln, name);
		o->diffs++;
	}
	if (nodes)
		rc = _old_nodes(o, nodes, ln, err, errlen);
	if (!rc && sws)
		o->sw[o->n].nswitches = 1;
	o->n++; /* its name is freed with the others, even on error */
	free(nodes);
	free(sws);
	return rc;
}

/* The old file, line by line. */
static int _old_read(struct old *o, FILE *f, char *err, size_t errlen)
{
	char line[65536];
	int ln = 0;

	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#'), *s = line;

		ln++;
		if (hash)
			*hash = '\0';
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		if (_old_line(o, s, ln, err, errlen))
			return -1;
	}
	return 0;
}

/* Nodes on one side only: the fabric's first, then the file's. */
static void _one_side(const struct fst_model *m, struct old *o)
{
	for (int h = 0; h < m->nhosts; h++)
		if (m->hosts[h].leaf >= 0 && fst_index_get(&o->leaf, m->hosts[h].name) < 0) {
			fprintf(o->out, "only in fabric: node %s (leaf %s)\n", m->hosts[h].name,
				m->devs[m->hosts[h].leaf].name);
			o->diffs++;
		}
	for (size_t i = 0; i < o->leaf.cap; i++) {
		int h;

		if (!o->leaf.keys[i])
			continue;
		h = fst_find_host(m, o->leaf.keys[i]);
		if (h < 0 || m->hosts[h].leaf < 0) {
			fprintf(o->out, "only in %s: node %s (switch %s)\n", o->path,
				o->leaf.keys[i], o->sw[o->leaf.vals[i]].name);
			o->diffs++;
		}
	}
}

/* Grouping: each old leaf should map onto exactly one fabric leaf, the
   one most of its nodes are under (o->dominant); a name that differs is
   said, a node under another leaf is a difference. */
static int _grouping(const struct fst_model *m, struct old *o, char *err, size_t errlen)
{
	int *count = calloc((size_t)m->ndevs + 1, sizeof(int));

	o->dominant = calloc((size_t)o->n + 1, sizeof(int));
	if (!count || !o->dominant) {
		free(count);
		return fs_errf(err, errlen, "out of memory");
	}
	for (int s = 0; s < o->n; s++) {
		int best = -1;

		o->dominant[s] = -1;
		if (!o->sw[s].nnodes)
			continue;
		memset(count, 0, sizeof(int) * (size_t)m->ndevs);
		for (int h = 0; h < m->nhosts; h++) {
			int l = m->hosts[h].leaf;

			if (l >= 0 && fst_index_get(&o->leaf, m->hosts[h].name) == s)
				count[l]++;
		}
		for (int d = 0; d < m->ndevs; d++)
			if (count[d] && (best < 0 || count[d] > count[best]))
				best = d;
		o->dominant[s] = best;
		if (best >= 0 && strcmp(o->sw[s].name, m->devs[best].name))
			fprintf(o->out, "renamed: switch %s is %s in the fabric\n", o->sw[s].name,
				m->devs[best].name);
		for (int h = 0; h < m->nhosts; h++) {
			int l = m->hosts[h].leaf;

			if (l >= 0 && l != best && fst_index_get(&o->leaf, m->hosts[h].name) == s) {
				fprintf(o->out,
					"moved: node %s is under %s in %s but under %s in the "
					"fabric\n",
					m->hosts[h].name, o->sw[s].name, o->path, m->devs[l].name);
				o->diffs++;
			}
		}
	}
	free(count);
	return 0;
}

/* Old leaves whose nodes are under one fabric leaf. */
static void _merged(const struct fst_model *m, struct old *o)
{
	for (int s = 0; s < o->n; s++)
		for (int p = s + 1; p < o->n; p++)
			if (o->dominant[s] >= 0 && o->dominant[s] == o->dominant[p]) {
				fprintf(o->out,
					"merged: switches %s and %s of %s are one leaf (%s) "
					"in the fabric\n",
					o->sw[s].name, o->sw[p].name, o->path,
					m->devs[o->dominant[s]].name);
				o->diffs++;
			}
}

int fst_diff_tree(const struct fst_model *m, const char *path, FILE *out, int *ndiff, char *err,
		  size_t errlen)
{
	struct old o = { .path = path, .out = out };
	char why[128];
	FILE *f;
	int rc = -1;

	*ndiff = 0;
	if (!m->classified)
		return fs_errf(err, errlen, "model not classified");
	f = fs_fopen_regular(path, why, sizeof(why));
	if (!f)
		return fs_errf(err, errlen, "%s: cannot open: %s", path, why);
	if (!_old_read(&o, f, err, errlen)) {
		_one_side(m, &o);
		if (!_grouping(m, &o, err, errlen)) {
			_merged(m, &o);
			fprintf(out, "%d difference(s)\n", o.diffs);
			*ndiff = o.diffs;
			rc = 0;
		}
	}
	fclose(f);
	for (int i = 0; i < o.n; i++)
		free(o.sw[i].name);
	free(o.sw);
	free(o.dominant);
	fst_index_clear(&o.leaf);
	return rc;
}
