/*
 * watch_formats.c — the text forms fabsched topo watch reads and writes
 * besides the model (watch_decide.h): sinfo's fixed-width node records,
 * the bindings file, and the GUIDs of a node-name map.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "watch_decide.h"
#include "fs_err.h"
#include "fs_file.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ sinfo */

static void _node_clear(struct fw_node *x)
{
	free(x->name);
	free(x->state);
	free(x->reason);
	free(x->features);
	memset(x, 0, sizeof(*x));
}

void fw_nodes_free(struct fw_node *v, int n)
{
	for (int i = 0; i < n; i++)
		_node_clear(&v[i]);
	free(v);
}

/* A field of a record, its padding taken off; *full when the text
 * filled the field (so may have been cut). */
static char *_field(const char *p, size_t w, int *full)
{
	size_t l = w;

	*full = w && p[w - 1] != ' ';
	while (l && p[l - 1] == ' ')
		l--;
	return strndup(p, l);
}

static int _cmp_idx_name(const void *a, const void *b, void *arg)
{
	const struct fw_node *v = arg;
	int x = *(const int *)a, y = *(const int *)b, c = strcmp(v[x].name, v[y].name);

	return c ? c : (x > y) - (x < y);
}

/* Each node once (sinfo -N: once per partition), the first kept. */
static void _once(struct fw_node *v, int *n)
{
	int *ix = calloc((size_t)*n + 1, sizeof(int)), k = 0;
	char *dup = calloc((size_t)*n + 1, 1);

	if (ix && dup) {
		for (int i = 0; i < *n; i++)
			ix[i] = i;
		qsort_r(ix, (size_t)*n, sizeof(int), _cmp_idx_name, v);
		for (int i = 1; i < *n; i++)
			dup[ix[i]] = !strcmp(v[ix[i]].name, v[ix[i - 1]].name);
		for (int i = 0; i < *n; i++) {
			if (dup[i]) {
				_node_clear(&v[i]);
				continue;
			}
			v[k++] = v[i];
		}
		*n = k;
	}
	free(ix);
	free(dup);
}

int fw_sinfo_parse(const char *text, size_t len, struct fw_node **out, int *n, char *err,
		   size_t errlen)
{
	size_t nrec = len / FW_SINFO_RECORD;
	struct fw_node *v;
	int k = 0;

	*out = NULL;
	*n = 0;
	if (len % FW_SINFO_RECORD)
		return fs_errf(err, errlen, "sinfo: %zu bytes; expected records of %d", len,
			       FW_SINFO_RECORD);
	for (size_t r = 0; r < nrec; r++)
		if (text[(r + 1) * FW_SINFO_RECORD - 1] != '\n' ||
		    memchr(text + r * FW_SINFO_RECORD, '\0', FW_SINFO_RECORD))
			return fs_errf(err, errlen,
				       "sinfo: record %zu is not %d bytes ending in a "
				       "newline; expected the format %s",
				       r + 1, FW_SINFO_RECORD, FW_SINFO_FORMAT);
	if (!(v = calloc(nrec + 1, sizeof(*v))))
		return fs_errf(err, errlen, "out of memory");
	for (size_t r = 0; r < nrec; r++) {
		const char *p = text + r * FW_SINFO_RECORD;
		struct fw_node *x = &v[k];
		int full, cut;

		x->name = _field(p, FW_SINFO_NAME, &full);
		p += FW_SINFO_NAME;
		x->state = _field(p, FW_SINFO_STATE, &cut);
		p += FW_SINFO_STATE;
		x->features = _field(p, FW_SINFO_FEATURES, &x->features_cut);
		p += FW_SINFO_FEATURES;
		x->reason = _field(p, FW_SINFO_REASON, &cut);
		if (!x->name || !x->state || !x->features || !x->reason) {
			fw_nodes_free(v, k + 1);
			return fs_errf(err, errlen, "out of memory");
		}
		/* "(null)": no feature at all */
		if (!strcmp(x->features, "(null)"))
			x->features[0] = '\0';
		/* a name longer than a fabric's names, or with a blank, is no node here */
		if (full || !x->name[0] || strpbrk(x->name, " \t\n") || !x->state[0]) {
			_node_clear(x);
			continue;
		}
		k++;
	}
	_once(v, &k);
	*out = v;
	*n = k;
	return 0;
}

/* ------------------------------------------------------------ bindings file */

#define BINDINGS_HEADER                                                                     \
	"# fabsched topo watch: each compute HCA's node, bound by GUID when "               \
	"first seen (fabsched(1), WATCH)\n# <HCA node GUID> <node> <GUID of the switch of " \
	"its first link, 0x0: unknown>\n"

/* A node name as the model allows one: letters, digits, '.', '-', '_'. */
static int _name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > FST_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(".-_", *s))
			return 0;
	return 1;
}

static int _hex64(const char *s, uint64_t *out)
{
	char *end;

	if (strncmp(s, "0x", 2) || !isxdigit((unsigned char)s[2]))
		return -1;
	errno = 0;
	*out = strtoull(s + 2, &end, 16);
	return errno || *end ? -1 : 0;
}

int fw_bindings_read(struct fw_bindings *b, FILE *f, const char *path, char *err, size_t errlen)
{
	char line[256];
	int ln = 0;

	b->n = 0;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *g, *name, *leaf;
		struct fw_binding *x;

		ln++;
		if (!strchr(line, '\n') && !feof(f))
			goto bad;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		g = strtok_r(line, " \t\r\n", &save);
		name = strtok_r(NULL, " \t\r\n", &save);
		leaf = strtok_r(NULL, " \t\r\n", &save);
		if (!leaf || strtok_r(NULL, " \t\r\n", &save) || !_name_ok(name))
			goto bad;
		if (b->n == b->cap) {
			int cap = b->cap ? 2 * b->cap : 64;

			if (!(x = realloc(b->v, sizeof(*x) * (size_t)cap)))
				return fs_errf(err, errlen, "out of memory");
			b->v = x;
			b->cap = cap;
		}
		x = &b->v[b->n];
		if (_hex64(g, &x->guid) || !x->guid || _hex64(leaf, &x->leaf))
			goto bad;
		snprintf(x->name, sizeof(x->name), "%s", name);
		b->n++;
	}
	if (ferror(f))
		return fs_errf(err, errlen, "%s: read error", path);
	return 0;
bad:
	b->n = 0;
	return fs_errf(err, errlen,
		       "%s:%d: bad binding; expected '0x<HCA GUID> <node> "
		       "0x<switch GUID>'",
		       path, ln);
}

void fw_bindings_clear(struct fw_bindings *b)
{
	free(b->v);
	memset(b, 0, sizeof(*b));
}

int fw_bindings_write(const struct fw_bindings *b, FILE *f)
{
	fputs(BINDINGS_HEADER, f);
	for (int i = 0; i < b->n; i++)
		fprintf(f, "0x%016" PRIx64 " %s 0x%016" PRIx64 "\n", b->v[i].guid, b->v[i].name,
			b->v[i].leaf);
	return ferror(f) ? -1 : 0;
}

int fw_bindings_equal(const struct fw_bindings *a, const struct fw_bindings *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (a->v[i].guid != b->v[i].guid || a->v[i].leaf != b->v[i].leaf ||
		    strcmp(a->v[i].name, b->v[i].name))
			return 0;
	return 1;
}

/* ------------------------------------------------------------ node-name map */

static int _cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The GUID of each line, read as the classification reads it
 * (fst_map_line).  Only which HCAs are trusted hangs on it: a line the
 * classification refuses fails it before the watch decides anything, and
 * one skipped here (too long) leaves an HCA untrusted: held, never acted on.
 */
int fw_map_guids(const char *path, uint64_t **out, int *n, char *err, size_t errlen)
{
	char line[1024], why[128];
	FILE *f = fs_fopen_regular(path, why, sizeof(why));
	uint64_t *v = NULL;
	int cap = 0;

	*out = NULL;
	*n = 0;
	if (!f)
		return fs_errf(err, errlen, "%s: cannot open: %s", path, why);
	while (fgets(line, sizeof(line), f)) {
		uint64_t g;
		char *name;

		if (fst_map_line(line, &g, &name) != 1)
			continue;
		if (*n == cap) {
			uint64_t *nv = realloc(v, sizeof(*v) * (size_t)(cap = cap ? 2 * cap : 64));

			if (!nv) {
				free(v);
				fclose(f);
				return fs_errf(err, errlen, "out of memory");
			}
			v = nv;
		}
		v[(*n)++] = g;
	}
	fclose(f);
	if (v)
		qsort(v, (size_t)*n, sizeof(*v), _cmp_u64);
	*out = v;
	return 0;
}
