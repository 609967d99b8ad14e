/*
 * fs_jobreq.c - --scratch values, the scratch license and hugepage gres
 * requests against node capacities (fs_jobreq.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fs_err.h"
#include "fs_jobreq.h"
#include "fs_values.h"

#define GIB (1ULL << 30)

const char *fs_scratch_fs_name(enum fs_scratch_fs fs)
{
	return fs == FS_SCRATCH_EXT4 ? "ext4" : "xfs";
}

int fs_parse_scratch(const char *name, const char *s, struct fs_scratch *out,
		     char *msg, size_t msgsz)
{
	char esc[FS_ESCAPE_SIZE], size[64], m2[FS_MSG_SIZE];
	const char *comma, *opt;
	struct fs_scratch sc = { 0, FS_SCRATCH_XFS };
	uint64_t bytes;
	size_t len;

	if (!name)
		name = "--scratch";
	if (!s || !*s)
		return fs_errf(msg, msgsz, "%s=: empty value; expected %s", name,
			    FS_SCRATCH_FORM);
	comma = strchr(s, ',');
	len = comma ? (size_t)(comma - s) : strlen(s);
	if (len >= sizeof(size) || len == 0)
		return fs_errf(msg, msgsz, "%s=%s: %s; expected %s", name,
			    fs_escape(esc, sizeof(esc), s, strlen(s)),
			    len ? "size too long" : "no size", FS_SCRATCH_FORM);
	memcpy(size, s, len);
	size[len] = 0;
	if (fs_parse_size(NULL, size, &bytes, m2, sizeof(m2)))
		return fs_errf(msg, msgsz, "%s=%s: \"%s\" is not a size; expected %s",
			    name, fs_escape(esc, sizeof(esc), s, strlen(s)),
			    size, FS_SCRATCH_FORM);
	if (bytes < GIB)
		return fs_errf(msg, msgsz, "%s=%s: %" PRIu64 " bytes is less than "
			    "1 GiB (a size without suffix is in bytes); expected %s",
			    name, fs_escape(esc, sizeof(esc), s, strlen(s)),
			    bytes, FS_SCRATCH_FORM);
	sc.gib = bytes / GIB + (bytes % GIB ? 1 : 0);
	if (sc.gib > FS_SCRATCH_MAX_GIB)
		return fs_errf(msg, msgsz, "%s=%s: more than %llu GiB (1 PiB) per "
			    "node; expected %s", name,
			    fs_escape(esc, sizeof(esc), s, strlen(s)),
			    (unsigned long long)FS_SCRATCH_MAX_GIB, FS_SCRATCH_FORM);
	for (opt = comma; opt; opt = strchr(opt + 1, ',')) {
		const char *o = opt + 1, *end = strchr(o, ',');
		size_t ol = end ? (size_t)(end - o) : strlen(o);

		if (ol == 6 && fs_strncaseeq(o, "fs=xfs", 6))
			sc.fs = FS_SCRATCH_XFS;
		else if (ol == 7 && fs_strncaseeq(o, "fs=ext4", 7))
			sc.fs = FS_SCRATCH_EXT4;
		else
			return fs_errf(msg, msgsz, "%s=%s: \"%s\" not understood "
				    "(filesystems: xfs, ext4); expected %s", name,
				    fs_escape(esc, sizeof(esc), s, strlen(s)),
				    fs_escape(m2, sizeof(m2), o, ol),
				    FS_SCRATCH_FORM);
	}
	*out = sc;
	return 0;
}

char *fs_format_scratch(const struct fs_scratch *sc, char *buf, size_t bufsz)
{
	snprintf(buf, bufsz, "%" PRIu64 "G,fs=%s", sc->gib,
		 fs_scratch_fs_name(sc->fs));
	return buf;
}

int fs_scratch_charge(const struct fs_scratch *sc, uint32_t min_nodes,
		      uint32_t max_nodes, uint64_t *gib_total,
		      uint32_t *cap_nodes, char *msg, size_t msgsz)
{
	uint32_t n = max_nodes ? max_nodes : min_nodes ? min_nodes : 1;

	if (max_nodes && min_nodes > max_nodes)
		return fs_errf(msg, msgsz, "--scratch: node count %u-%u is not a "
			    "range; expected min <= max", min_nodes, max_nodes);
	/* 2^20 GiB * 2^32 nodes fits 64 bits; Licenses counts are 32 bits */
	if (sc->gib * n > UINT32_MAX - 1)
		return fs_errf(msg, msgsz, "--scratch=%" PRIu64 "G on %u nodes: "
			    "%" PRIu64 " GiB in all, more than a Slurm license "
			    "count can hold; expected a smaller size or fewer nodes",
			    sc->gib, n, sc->gib * n);
	*gib_total = sc->gib * n;
	*cap_nodes = n;
	return 0;
}

int fs_scratch_pool_check(const char *what, uint64_t gib_total,
			  uint32_t nodes, uint64_t pool_gib, char *msg,
			  size_t msgsz)
{
	if (!pool_gib)
		return fs_errf(msg, msgsz, "%s: this cluster has no scratch pool; "
			    "expected slurm.conf to declare Licenses=%s:<GiB> "
			    "(ask the administrators)", what, FS_SCRATCH_LICENSE);
	if (gib_total > pool_gib)
		return fs_errf(msg, msgsz, "%s on %u node(s): %" PRIu64 " GiB in "
			    "all, more than the whole scratch pool (%" PRIu64
			    " GiB); expected at most %" PRIu64 " GiB per node",
			    what, nodes, gib_total, pool_gib, pool_gib / nodes);
	return 0;
}

/* Is [s, s+len) the license name? (the part before ':') */
static bool _lic_is(const char *s, size_t len, const char *name)
{
	size_t nl = strcspn(s, ":");

	if (nl > len)
		nl = len;
	return nl == strlen(name) && !strncmp(s, name, nl);
}

uint64_t fs_licenses_count(const char *licenses, const char *name)
{
	uint64_t total = 0;

	for (const char *p = licenses; p && *p;) {
		size_t len = strcspn(p, ",|");

		if (_lic_is(p, len, name)) {
			const char *c = memchr(p, ':', len);
			uint64_t v = 0;

			if (!c)
				v = 1;
			for (c = c ? c + 1 : p + len; c < p + len; c++) {
				if (*c < '0' || *c > '9' || v > UINT32_MAX)
					break;
				v = v * 10 + (uint64_t)(*c - '0');
			}
			total += v;
		}
		p += len;
		if (*p)
			p++;
	}
	return total;
}

int fs_licenses_add_scratch(const char *user, uint64_t count, char *out,
			    size_t outsz, char *msg, size_t msgsz)
{
	char esc[FS_ESCAPE_SIZE];
	int n;

	if (user && strchr(user, '|'))
		return fs_errf(msg, msgsz, "--scratch cannot be combined with "
			    "--licenses=%s: either-or licenses ('|') cannot "
			    "carry the scratch pool's charge; expected licenses "
			    "separated by ','",
			    fs_escape(esc, sizeof(esc), user, strlen(user)));
	for (const char *p = user; p && *p;) {
		size_t len = strcspn(p, ",");

		if (_lic_is(p, len, FS_SCRATCH_LICENSE))
			return fs_errf(msg, msgsz, "--licenses=%s names the "
				    "\"%s\" license, which --scratch sets; "
				    "expected --scratch alone (or --licenses "
				    "without %s)",
				    fs_escape(esc, sizeof(esc), user, strlen(user)),
				    FS_SCRATCH_LICENSE, FS_SCRATCH_LICENSE);
		p += len;
		if (*p)
			p++;
	}
	n = snprintf(out, outsz, "%s%s%s:%" PRIu64, user ? user : "",
		     user && *user ? "," : "", FS_SCRATCH_LICENSE, count);
	if (n < 0 || (size_t)n >= outsz)
		return fs_errf(msg, msgsz, "licenses too long with %s:%" PRIu64
			    " added (more than %zu bytes)", FS_SCRATCH_LICENSE,
			    count, outsz - 1);
	return 0;
}

/* ------------------------------------------------------------ hugepages */

static int _count(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;
	int shift = 0;

	if (!len)
		return -1;
	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == 0)
		return -1;
	if (i + 1 == len) {
		switch (s[i] | 0x20) {
		case 'k': shift = 10; break;
		case 'm': shift = 20; break;
		case 'g': shift = 30; break;
		default: return -1;
		}
	} else if (i != len)
		return -1;
	if (v > (UINT64_MAX >> shift))
		return -1;
	*out = v << shift;
	return 0;
}

int fs_hp_parse_request(const char *tres, struct fs_hp_req *req, bool *found,
			char *msg, size_t msgsz)
{
	char esc[FS_ESCAPE_SIZE], buf[256];

	memset(req, 0, sizeof(*req));
	*found = false;
	for (const char *p = tres; p && *p;) {
		size_t len = strcspn(p, ",");
		char *tok[4], *save = NULL, *e = buf;
		size_t nt = 0;
		uint64_t v = 1;
		const char *ent = p;

		if (len >= sizeof(buf))
			return fs_errf(msg, msgsz, "gres request \"%s\": an entry "
				    "too long; expected entries of at most %zu "
				    "bytes, e.g. gres:hugepages:2m:512",
				    fs_escape(esc, sizeof(esc), p, len),
				    sizeof(buf) - 1);
		memcpy(buf, p, len);
		buf[len] = 0;
		p += len + (p[len] ? 1 : 0);
		/* 22.05 "gres:name:type:count", later "gres/name:type:count" */
		if (!strncmp(buf, "gres:", 5) || !strncmp(buf, "gres/", 5))
			e = buf + 5;
		for (char *t = strtok_r(e, ":", &save); t && nt < 4;
		     t = strtok_r(NULL, ":", &save))
			tok[nt++] = t;
		if (!nt || strcmp(tok[0], "hugepages"))
			continue;
		*found = true;
		if (nt > 3 || (nt > 1 && _count(tok[nt - 1], strlen(tok[nt - 1]), &v)))
			return fs_errf(msg, msgsz, "gres request \"%s\": not a "
				    "hugepage request; expected "
				    "hugepages:2m|1g:<pages>",
				    fs_escape(esc, sizeof(esc), ent, len));
		if (nt <= 2)
			req->pages_any += v;
		else if (!strcmp(tok[1], "2m"))
			req->pages_2m += v;
		else if (!strcmp(tok[1], "1g"))
			req->pages_1g += v;
		else
			return fs_errf(msg, msgsz, "gres request hugepages:%s:%s: "
				    "hugepage type must be 2m or 1g; expected "
				    "hugepages:2m|1g:<pages>",
				    fs_escape(esc, sizeof(esc), tok[1], strlen(tok[1])),
				    tok[2]);
	}
	return 0;
}

static bool _fits(const struct fs_hp_req *r, const struct fs_hp_node *n)
{
	uint64_t free_2m, free_1g;

	if (r->pages_2m > n->pages_2m || r->pages_1g > n->pages_1g)
		return false;
	free_2m = n->pages_2m - r->pages_2m;
	free_1g = n->pages_1g - r->pages_1g;
	/* pages of any type: counted as pages, of either size */
	return r->pages_any <= free_2m + free_1g;
}

int fs_hp_check(const struct fs_hp_req *req, const char *what,
		const char *where, const struct fs_hp_node *nodes,
		size_t nnodes, char *msg, size_t msgsz)
{
	const struct fs_hp_node *b2 = NULL, *b1 = NULL, *ba = NULL;
	char part[512] = "";
	size_t o = 0;

	if (!req->pages_2m && !req->pages_1g && !req->pages_any)
		return 0;
	for (size_t i = 0; i < nnodes; i++) {
		if (_fits(req, &nodes[i]))
			return 0;
		if (!b2 || nodes[i].pages_2m > b2->pages_2m)
			b2 = &nodes[i];
		if (!b1 || nodes[i].pages_1g > b1->pages_1g)
			b1 = &nodes[i];
		if (!ba || nodes[i].pages_2m + nodes[i].pages_1g >
			   ba->pages_2m + ba->pages_1g)
			ba = &nodes[i];
	}
	if (!nnodes)
		return fs_errf(msg, msgsz, "%s: no node of %s has hugepages; "
			    "expected a partition whose nodes have "
			    "gres/hugepages", what, where);
	if (req->pages_2m)
		o += (size_t)snprintf(part + o, sizeof(part) - o, "%" PRIu64
				      " pages of 2m (node %s)", b2->pages_2m,
				      b2->name);
	if (req->pages_1g && o < sizeof(part))
		o += (size_t)snprintf(part + o, sizeof(part) - o, "%s%" PRIu64
				      " pages of 1g (node %s)", o ? ", " : "",
				      b1->pages_1g, b1->name);
	if (req->pages_any && o < sizeof(part))
		snprintf(part + o, sizeof(part) - o, "%s%" PRIu64 " hugepages "
			 "of any size (node %s)", o ? ", " : "",
			 ba->pages_2m + ba->pages_1g, ba->name);
	return fs_errf(msg, msgsz, "%s: more hugepages per node than any node of "
		    "%s holds; the largest hold %s; expected at most that",
		    what, where, part);
}
