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

int fst_diff_tree(const struct fst_model *m, const char *path, FILE *out, int *ndiff,
		  char *err, size_t errlen)
{
	FILE *f;
	char line[65536], why[128];
	int ln = 0, nold = 0, cap_old = 0, diffs = 0, rc = -1;
	struct oldsw *old = NULL;
	struct fst_index oldleaf = { 0 };	/* node -> old switch index */
	int *count = NULL, *dominant = NULL;

	*ndiff = 0;
	if (!m->classified)
		return fs_errf(err, errlen, "model not classified");
	f = fs_fopen_regular(path, why, sizeof(why));
	if (!f)
		return fs_errf(err, errlen, "%s: cannot open: %s", path, why);
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#'), *name, *nodes, *sws, *s = line;
		struct oldsw *no;

		ln++;
		if (hash)
			*hash = '\0';
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		name = _value(s, "SwitchName");
		if (!name) {
			if (_value(s, "BlockName") || _value(s, "BlockSizes")) {
				fs_errf(err, errlen, "%s:%d: block topology line; expected a tree "
					"topology.conf (SwitchName=...)", path, ln);
				goto out;
			}
			fs_errf(err, errlen, "%s:%d: no SwitchName=; expected 'SwitchName=<name> "
				"Nodes=<hostlist>|Switches=<hostlist> [LinkSpeed=<n>]'", path, ln);
			goto out;
		}
		nodes = _value(s, "Nodes");
		sws = _value(s, "Switches");
		no = fst_grow(old, &cap_old, nold + 1, sizeof(*old));
		if (!no) {
			free(name);
			free(nodes);
			free(sws);
			fs_errf(err, errlen, "out of memory");
			goto out;
		}
		old = no;
		old[nold].name = name;
		if (nodes && sws) {
			fprintf(out, "invalid: %s:%d: SwitchName=%s has both Nodes= and Switches= (Slurm rejects it)\n",
				path, ln, name);
			diffs++;
		}
		if (nodes) {
			char **v, e2[256];
			int n;

			if (fst_hostlist_expand(nodes, &v, &n, e2, sizeof(e2))) {
				fs_errf(err, errlen, "%s:%d: Nodes=: %s", path, ln, e2);
				free(nodes);
				free(sws);
				nold++;
				goto out;
			}
			for (int i = 0; i < n; i++) {
				if (fst_index_get(&oldleaf, v[i]) >= 0) {
					fprintf(out, "invalid: %s:%d: node %s is under several switches\n",
						path, ln, v[i]);
					diffs++;
				} else if (fst_index_put(&oldleaf, v[i], nold)) {
					fst_strv_free(v, n);
					fs_errf(err, errlen, "out of memory");
					nold++;
					goto out;
				}
			}
			old[nold].nnodes = n;
			fst_strv_free(v, n);
		}
		if (sws)
			old[nold].nswitches = 1;
		nold++;
		free(nodes);
		free(sws);
	}
	/* nodes on one side only */
	for (int h = 0; h < m->nhosts; h++)
		if (m->hosts[h].leaf >= 0 && fst_index_get(&oldleaf, m->hosts[h].name) < 0) {
			fprintf(out, "only in fabric: node %s (leaf %s)\n", m->hosts[h].name,
				m->devs[m->hosts[h].leaf].name);
			diffs++;
		}
	for (size_t i = 0; i < oldleaf.cap; i++) {
		int h;

		if (!oldleaf.keys[i])
			continue;
		h = fst_find_host(m, oldleaf.keys[i]);
		if (h < 0 || m->hosts[h].leaf < 0) {
			fprintf(out, "only in %s: node %s (switch %s)\n", path, oldleaf.keys[i],
				old[oldleaf.vals[i]].name);
			diffs++;
		}
	}
	/* grouping: each old leaf should map onto exactly one fabric leaf */
	count = calloc((size_t)m->ndevs + 1, sizeof(int));
	dominant = calloc((size_t)nold + 1, sizeof(int));
	if (!count || !dominant) {
		fs_errf(err, errlen, "out of memory");
		goto out;
	}
	for (int o = 0; o < nold; o++) {
		int best = -1;

		dominant[o] = -1;
		if (!old[o].nnodes)
			continue;
		memset(count, 0, sizeof(int) * (size_t)m->ndevs);
		for (int h = 0; h < m->nhosts; h++) {
			int l = m->hosts[h].leaf;

			if (l >= 0 && fst_index_get(&oldleaf, m->hosts[h].name) == o)
				count[l]++;
		}
		for (int d = 0; d < m->ndevs; d++)
			if (count[d] && (best < 0 || count[d] > count[best]))
				best = d;
		dominant[o] = best;
		if (best >= 0 && strcmp(old[o].name, m->devs[best].name))
			fprintf(out, "renamed: switch %s is %s in the fabric\n", old[o].name,
				m->devs[best].name);
		for (int h = 0; h < m->nhosts; h++) {
			int l = m->hosts[h].leaf;

			if (l >= 0 && l != best && fst_index_get(&oldleaf, m->hosts[h].name) == o) {
				fprintf(out, "moved: node %s is under %s in %s but under %s in the fabric\n",
					m->hosts[h].name, old[o].name, path, m->devs[l].name);
				diffs++;
			}
		}
	}
	for (int o = 0; o < nold; o++)
		for (int p = o + 1; p < nold; p++)
			if (dominant[o] >= 0 && dominant[o] == dominant[p]) {
				fprintf(out, "merged: switches %s and %s of %s are one leaf (%s) in the fabric\n",
					old[o].name, old[p].name, path, m->devs[dominant[o]].name);
				diffs++;
			}
	fprintf(out, "%d difference(s)\n", diffs);
	*ndiff = diffs;
	rc = 0;
out:
	fclose(f);
	for (int i = 0; i < nold; i++)
		free(old[i].name);
	free(old);
	free(count);
	free(dominant);
	fst_index_clear(&oldleaf);
	return rc;
}
