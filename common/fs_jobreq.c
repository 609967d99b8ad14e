/*
 * fs_jobreq.c - --scratch values and the scratch license (fs_jobreq.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fs_env.h"
#include "fs_err.h"
#include "fs_jobreq.h"
#include "fs_values.h"

#define GIB (1ULL << 30)

const char *fs_scratch_fs_name(enum fs_scratch_fs fs)
{
	return fs == FS_SCRATCH_EXT4 ? "ext4" : "xfs";
}

int fs_parse_scratch(const char *name, const char *s, struct fs_scratch *out, char *err,
		     size_t errlen)
{
	char esc[FS_ESCAPE_SIZE], size[64], m2[FS_MSG_SIZE];
	const char *comma, *opt;
	struct fs_scratch sc = { 0, FS_SCRATCH_XFS };
	uint64_t bytes;
	size_t len;

	if (!name)
		name = "--scratch";
	if (!s || !*s)
		return fs_errf(err, errlen, "%s=: empty value; expected %s", name, FS_SCRATCH_FORM);
	comma = strchr(s, ',');
	len = comma ? (size_t)(comma - s) : strlen(s);
	if (len >= sizeof(size) || len == 0)
		return fs_errf(err, errlen, "%s=%s: %s; expected %s", name,
			       fs_escape(esc, sizeof(esc), s, strlen(s)),
			       len ? "size too long" : "no size", FS_SCRATCH_FORM);
	memcpy(size, s, len);
	size[len] = 0;
	if (fs_parse_size(NULL, size, &bytes, m2, sizeof(m2)))
		return fs_errf(err, errlen, "%s=%s: \"%s\" is not a size; expected %s", name,
			       fs_escape(esc, sizeof(esc), s, strlen(s)), size, FS_SCRATCH_FORM);
	if (bytes < GIB)
		return fs_errf(err, errlen,
			       "%s=%s: %" PRIu64 " bytes is less than "
			       "1 GiB (a size without suffix is in bytes); expected %s",
			       name, fs_escape(esc, sizeof(esc), s, strlen(s)), bytes,
			       FS_SCRATCH_FORM);
	sc.gib = bytes / GIB + (bytes % GIB ? 1 : 0);
	if (sc.gib > FS_SCRATCH_MAX_GIB)
		return fs_errf(err, errlen,
			       "%s=%s: more than %llu GiB (1 PiB) per "
			       "node; expected %s",
			       name, fs_escape(esc, sizeof(esc), s, strlen(s)),
			       (unsigned long long)FS_SCRATCH_MAX_GIB, FS_SCRATCH_FORM);
	for (opt = comma; opt; opt = strchr(opt + 1, ',')) {
		const char *o = opt + 1, *end = strchr(o, ',');
		size_t ol = end ? (size_t)(end - o) : strlen(o);

		if (ol == 6 && fs_strncaseeq(o, "fs=xfs", 6))
			sc.fs = FS_SCRATCH_XFS;
		else if (ol == 7 && fs_strncaseeq(o, "fs=ext4", 7))
			sc.fs = FS_SCRATCH_EXT4;
		else
			return fs_errf(err, errlen,
				       "%s=%s: \"%s\" not understood "
				       "(filesystems: xfs, ext4); expected %s",
				       name, fs_escape(esc, sizeof(esc), s, strlen(s)),
				       fs_escape(m2, sizeof(m2), o, ol), FS_SCRATCH_FORM);
	}
	*out = sc;
	return 0;
}

char *fs_format_scratch(const struct fs_scratch *sc, char *buf, size_t bufsz)
{
	snprintf(buf, bufsz, "%" PRIu64 "G,fs=%s", sc->gib, fs_scratch_fs_name(sc->fs));
	return buf;
}

int fs_scratch_charge(const struct fs_scratch *sc, uint32_t min_nodes, uint32_t max_nodes,
		      uint64_t *gib_total, uint32_t *cap_nodes, char *err, size_t errlen)
{
	uint32_t n = max_nodes ? max_nodes : min_nodes ? min_nodes : 1;

	if (max_nodes && min_nodes > max_nodes)
		return fs_errf(err, errlen,
			       "--scratch: node count %u-%u is not a "
			       "range; expected min <= max",
			       min_nodes, max_nodes);
	/* 2^20 GiB * 2^32 nodes fits 64 bits; Licenses counts are 32 bits */
	if (sc->gib * n > UINT32_MAX - 1)
		return fs_errf(err, errlen,
			       "--scratch=%" PRIu64 "G on %u nodes: "
			       "%" PRIu64 " GiB in all, more than a Slurm license "
			       "count can hold; expected a smaller size or fewer nodes",
			       sc->gib, n, sc->gib * n);
	*gib_total = sc->gib * n;
	*cap_nodes = n;
	return 0;
}

int fs_scratch_pool_check(const char *what, uint64_t gib_total, uint32_t nodes, uint64_t pool_gib,
			  char *err, size_t errlen)
{
	if (!pool_gib)
		return fs_errf(err, errlen,
			       "%s: this cluster has no scratch pool; "
			       "expected slurm.conf to declare Licenses=%s:<GiB> "
			       "(ask the administrators)",
			       what, FS_SCRATCH_LICENSE);
	if (gib_total > pool_gib)
		return fs_errf(err, errlen,
			       "%s on %u node(s): %" PRIu64 " GiB in "
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

int fs_licenses_add_scratch(const char *user, uint64_t count, char *out, size_t outsz, char *err,
			    size_t errlen)
{
	char esc[FS_ESCAPE_SIZE];
	int n;

	if (user && strchr(user, '|'))
		return fs_errf(err, errlen,
			       "--scratch cannot be combined with "
			       "--licenses=%s: either-or licenses ('|') cannot "
			       "carry the scratch pool's charge; expected licenses "
			       "separated by ','",
			       fs_escape(esc, sizeof(esc), user, strlen(user)));
	for (const char *p = user; p && *p;) {
		size_t len = strcspn(p, ",");

		if (_lic_is(p, len, FS_SCRATCH_LICENSE))
			return fs_errf(err, errlen,
				       "--licenses=%s names the "
				       "\"%s\" license, which --scratch sets; "
				       "expected --scratch alone (or --licenses "
				       "without %s)",
				       fs_escape(esc, sizeof(esc), user, strlen(user)),
				       FS_SCRATCH_LICENSE, FS_SCRATCH_LICENSE);
		p += len;
		if (*p)
			p++;
	}
	n = snprintf(out, outsz, "%s%s%s:%" PRIu64, user ? user : "", user && *user ? "," : "",
		     FS_SCRATCH_LICENSE, count);
	if (n < 0 || (size_t)n >= outsz)
		return fs_errf(err, errlen,
			       "licenses too long with %s:%" PRIu64 " added (more than %zu bytes)",
			       FS_SCRATCH_LICENSE, count, outsz - 1);
	return 0;
}

int fs_scratch_modify_check(const char *scratch, const char *charge, const char *licenses,
			    uint32_t min_nodes, uint32_t max_nodes, char *err, size_t errlen)
{
	struct fs_scratch sc;
	uint64_t total;

	if (!scratch || !charge || fs_parse_uint(NULL, charge, 1, UINT32_MAX, &total, NULL, 0) ||
	    fs_parse_scratch(NULL, scratch, &sc, NULL, 0))
		return FS_SCRATCH_MOD_OK; /* no --scratch: nothing to keep */
	if (licenses && fs_licenses_count(licenses, FS_SCRATCH_LICENSE) < total) {
		fs_errf(err, errlen,
			"licenses %s refused: --scratch=%s is charged "
			"%s:%" PRIu64,
			licenses, scratch, FS_SCRATCH_LICENSE, total);
		return FS_SCRATCH_MOD_LICENSES;
	}
	if ((max_nodes && (uint64_t)max_nodes * sc.gib > total) ||
	    (min_nodes && (uint64_t)min_nodes * sc.gib > total)) {
		fs_errf(err, errlen,
			"node count refused: --scratch=%s is charged "
			"for %" PRIu64 " node(s)",
			scratch, total / sc.gib);
		return FS_SCRATCH_MOD_NODES;
	}
	return FS_SCRATCH_MOD_OK;
}

const char *fs_env_find(char *const *env, size_t n, const char *prefix)
{
	size_t len = strlen(prefix);

	for (size_t i = 0; env && i < n; i++)
		if (env[i] && !strncmp(env[i], prefix, len))
			return env[i] + len;
	return NULL;
}

size_t fs_env_remove(char **env, size_t n, const char *prefix, void (*release)(char *entry))
{
	size_t len = strlen(prefix), o = 0;

	for (size_t i = 0; env && i < n; i++) {
		if (env[i] && !strncmp(env[i], prefix, len))
			release(env[i]);
		else
			env[o++] = env[i];
	}
	return o;
}

bool fs_env_controlled(const char *e)
{
	static const char *const written[] = {
		FS_ENV_SCRATCH,
		FS_ENV_SCRATCH_CHARGE,
		FS_ENV_HUGEPAGES_ASKED,
	};
	static const char *const prefixed[] = {
		FS_ENV_SPANK "FABSCHED_",
		FS_ENV_SPANK "_SLURM_SPANK_OPTION_fabsched_",
	};
	size_t len;

	if (!e)
		return false;
	len = strcspn(e, "=");
	for (size_t i = 0; i < sizeof(prefixed) / sizeof(prefixed[0]); i++)
		if (!strncmp(e, prefixed[i], strlen(prefixed[i])))
			return true;
	for (size_t i = 0; i < sizeof(written) / sizeof(written[0]); i++)
		if (len == strlen(written[i]) && !strncmp(e, written[i], len))
			return true;
	return false;
}

size_t fs_env_remove_controlled(char **env, size_t n, void (*release)(char *entry))
{
	size_t o = 0;

	for (size_t i = 0; env && i < n; i++) {
		if (fs_env_controlled(env[i]))
			release(env[i]);
		else
			env[o++] = env[i];
	}
	return o;
}

int fs_scratch_submit(const char *opt, uint32_t min_nodes, uint32_t max_nodes, uint64_t pool_gib,
		      const char *licenses, struct fs_scratch_grant *g, char *err, size_t errlen)
{
	struct fs_scratch sc;
	char what[64];

	memset(g, 0, sizeof(*g));
	if (fs_parse_scratch("--scratch", opt, &sc, err, errlen))
		return -1;
	snprintf(what, sizeof(what), "--scratch=%s",
		 fs_format_scratch(&sc, g->canon, sizeof(g->canon)));
	if (fs_scratch_charge(&sc, min_nodes, max_nodes, &g->gib, &g->max_nodes, err, errlen) ||
	    fs_scratch_pool_check(what, g->gib, g->max_nodes, pool_gib, err, errlen) ||
	    fs_licenses_add_scratch(licenses, g->gib, g->licenses, sizeof(g->licenses), err,
				    errlen))
		return -1;
	return 0;
}
