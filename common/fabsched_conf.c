/*
 * fabsched_conf.c - the fabsched.conf parser: schema, lexer, semantics,
 * getters and dump.  See fabsched_conf.h and fabsched.conf(5).
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
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fabsched_conf.h"
#include "fs_ib.h"

/* Where Slurm's configuration lives; fabsched.conf sits beside slurm.conf. */
#ifndef FS_SLURM_CONFDIR
#define FS_SLURM_CONFDIR "/etc/slurm"
#endif

/*
 * The schema.  Adding a key is adding a row here (and its paragraph in
 * doc/fabsched.conf.5; the unit tests check that every key is documented).
 */
static const struct fs_conf_key _keys[] = {
	/* global keys */
	{ .name = "FabricModel", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .def = FS_SLURM_CONFDIR "/fabsched/fabric.json",
	  .doc = "fabric model JSON file (switches, links, racks) read by "
		 "the controller plugins" },
	{ .name = "NodeNameMap", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .doc = "file mapping HCA node descriptions to Slurm node names" },
	{ .name = "RackMap", .scope = FS_SCOPE_GLOBAL, .type = FS_TYPE_PATH,
	  .doc = "file assigning leaf switches or nodes to racks" },
	{ .name = "LogLevel", .scope = FS_SCOPE_GLOBAL, .type = FS_TYPE_ENUM,
	  .def = "info", .values = "quiet|info|verbose|debug",
	  .doc = "how much the plugins and helpers log" },
	{ .name = "StateDir", .scope = FS_SCOPE_GLOBAL, .type = FS_TYPE_PATH,
	  .def = "/var/lib/fabsched",
	  .doc = "directory for state kept across restarts (node ledgers, "
		 "model cache)" },
	{ .name = "HugepageMountBase", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH, .def = "/dev/hugepages-fabsched",
	  .doc = "directory under which per-job hugetlbfs mounts are made" },
	{ .name = "ScratchBase", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH, .def = "/scratch",
	  .doc = "directory under which per-job scratch volumes are mounted" },
	{ .name = "ScratchTransport", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_ENUM, .def = "tcp", .values = "tcp|rdma",
	  .doc = "NVMe-oF transport to the scratch pool's target" },
	{ .name = "ScratchTraddr", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_STRING,
	  .doc = "address of the scratch pool's NVMe-oF target (IP address); "
		 "unset: no scratch pool" },
	{ .name = "ScratchTrsvcid", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_UINT, .def = "4420", .min = 1, .max = 65535,
	  .doc = "port of the scratch pool's NVMe-oF target" },
	{ .name = "ScratchSubsysNQN", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_STRING,
	  .doc = "NVMe subsystem NQN of the scratch pool (nqn.yyyy-mm.domain:...)" },
	{ .name = "ScratchHostNQNFile", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH, .def = "/etc/nvme/hostnqn",
	  .doc = "file holding this node's NVMe host NQN (each node its own)" },
	{ .name = "ScratchHostIDFile", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH, .def = "/etc/nvme/hostid",
	  .doc = "file holding this node's NVMe host ID (a UUID)" },
	{ .name = "ScratchCapacity", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_SIZE,
	  .doc = "capacity of the scratch pool, as slurm.conf's "
		 "Licenses=scratch:<GiB> counts it" },
	{ .name = "RdmaRate", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_STRING,
	  .doc = "least rate in Gb/s (e.g. 100) of every HCA port allocated "
		 "to a job, checked by the prolog; unset: no rate check" },
	{ .name = "AccountIbPkeys", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_STRING,
	  .doc = "InfiniBand partition key per Slurm account "
		 "(chem:0x8001,physics:0x8002): checked in the job's HCA ports "
		 "by the prolog and exported to the job" },
	{ .name = "RdmaMaxHcaHandles", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_UINT, .min = 1, .max = 2147483646,
	  .doc = "most HCA handles (open device contexts) a job may hold on "
		 "each of its HCAs, written by the prolog to the job cgroup's "
		 "rdma.max (cgroup v2 with the rdma controller); unset: no "
		 "limit" },
	{ .name = "RdmaMaxHcaObjects", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_UINT, .min = 1, .max = 2147483646,
	  .doc = "most HCA objects (queue pairs, memory regions, ...) a job "
		 "may create on each of its HCAs, written to the job cgroup's "
		 "rdma.max like RdmaMaxHcaHandles; unset: no limit" },
	{ .name = "DefaultLocality", .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_LOCALITY, .def = "any",
	  .doc = "locality of partitions that set no Locality, and their "
		 "wait when given as @<wait>" },
	/* partition keys */
	{ .name = "Locality", .scope = FS_SCOPE_PARTITION,
	  .type = FS_TYPE_ENUM, .values = "rack|pod|any",
	  .fallback = "DefaultLocality",
	  .doc = "narrowest fabric domain a job of the partition must fit in" },
	{ .name = "LocalityWait", .scope = FS_SCOPE_PARTITION,
	  .type = FS_TYPE_DURATION, .def = "0",
	  .fallback = "DefaultLocality",
	  .doc = "how long a job may wait for its Locality before it is "
		 "placed more widely" },
	{ .name = "LocalityTarget", .scope = FS_SCOPE_PARTITION,
	  .type = FS_TYPE_PERCENT, .def = "0",
	  .doc = "share of the partition's jobs that fit in one domain of "
		 "its Locality and should get one: below it a job waits for "
		 "its domain (up to LocalityWait), above it a job that cannot "
		 "have its domain now starts across domains (0 = no target: "
		 "every job waits)" },
	{ .name = "MaxRacks", .scope = FS_SCOPE_PARTITION,
	  .type = FS_TYPE_UINT, .def = "0", .min = 0, .max = 65535,
	  .doc = "most racks one job may span (0 = unlimited)" },
};

#define NKEYS (sizeof(_keys) / sizeof(_keys[0]))
#define PARTITION_KEY "PartitionName"

const struct fs_conf_key *fs_conf_keys(size_t *n)
{
	if (n)
		*n = NKEYS;
	return _keys;
}

static int _key_index(const char *name)
{
	for (size_t i = 0; name && i < NKEYS; i++)
		if (fs_strcaseeq(name, _keys[i].name))
			return (int)i;
	return -1;
}

const struct fs_conf_key *fs_conf_key_find(const char *name)
{
	int i = _key_index(name);

	return i < 0 ? NULL : &_keys[i];
}

const char *fs_conf_type_name(enum fs_conf_type type)
{
	switch (type) {
	case FS_TYPE_STRING: return "string";
	case FS_TYPE_PATH: return "absolute path";
	case FS_TYPE_BOOL: return "boolean";
	case FS_TYPE_UINT: return "integer";
	case FS_TYPE_DURATION: return "duration";
	case FS_TYPE_SIZE: return "size";
	case FS_TYPE_ENUM: return "enumeration";
	case FS_TYPE_LOCALITY: return "locality";
	case FS_TYPE_PERCENT: return "percentage";
	}
	return "?";
}

const char *fs_conf_default_path(void)
{
	return FS_SLURM_CONFDIR "/fabsched.conf";
}

/* ------------------------------------------------------------ error list */

struct fs_errors {
	char **msg;
	size_t n, cap;
	bool oom; /* a message was lost: the list ends with "out of memory" */
};

static const char _oom_msg[] = "out of memory";

struct fs_errors *fs_errors_new(void)
{
	return calloc(1, sizeof(struct fs_errors));
}

void fs_errors_clear(struct fs_errors *errs)
{
	if (!errs)
		return;
	for (size_t i = 0; i < errs->n; i++)
		free(errs->msg[i]);
	errs->n = 0;
	errs->oom = false;
}

void fs_errors_free(struct fs_errors *errs)
{
	if (!errs)
		return;
	fs_errors_clear(errs);
	free(errs->msg);
	free(errs);
}

size_t fs_errors_count(const struct fs_errors *errs)
{
	return errs ? errs->n + (errs->oom ? 1 : 0) : 0;
}

const char *fs_errors_get(const struct fs_errors *errs, size_t i)
{
	if (!errs)
		return NULL;
	if (i < errs->n)
		return errs->msg[i];
	if (i == errs->n && errs->oom)
		return _oom_msg;
	return NULL;
}

/* malloc'ed result of a printf format, or NULL */
static char *_vformat(const char *fmt, va_list ap) FS_PRINTF(1, 0);

static char *_vformat(const char *fmt, va_list ap)
{
	va_list ap2;
	char *s;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0 || !(s = malloc((size_t)n + 1)))
		return NULL;
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static int _errors_take(struct fs_errors *errs, char *s)
{
	if (!s)
		goto oom;
	if (errs->n == errs->cap) {
		size_t cap = errs->cap ? errs->cap * 2 : 8;
		char **m = realloc(errs->msg, cap * sizeof(*m));

		if (!m) {
			free(s);
			goto oom;
		}
		errs->msg = m;
		errs->cap = cap;
	}
	errs->msg[errs->n++] = s;
	return 0;
oom:
	errs->oom = true;
	return -1;
}

int fs_errors_add(struct fs_errors *errs, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (!errs || !fmt)
		return -1;
	va_start(ap, fmt);
	s = _vformat(fmt, ap);
	va_end(ap);
	return _errors_take(errs, s);
}

int fs_errors_print(const struct fs_errors *errs, FILE *out)
{
	size_t n = fs_errors_count(errs);

	for (size_t i = 0; i < n; i++)
		if (fprintf(out, "%s\n", fs_errors_get(errs, i)) < 0)
			return -1;
	return 0;
}

/* ------------------------------------------------------------ values */

enum _origin {
	O_UNSET = 0,
	O_BUILTIN,	/* the schema's default */
	O_FILE,		/* set on its own line */
	O_DEFAULT_PART,	/* copied from a PartitionName=DEFAULT line */
	O_GLOBAL,	/* taken from the key's fallback global key */
};

struct _val {
	enum _origin origin;
	unsigned line;
	char *text;
	uint64_t u;
	bool b;
	struct fs_locality loc;
};

struct _part {
	char *name;
	unsigned line;
	struct _val v[NKEYS];
};

struct fs_conf {
	char *source;
	bool builtin;
	struct _val g[NKEYS];
	struct _part dflt;
	struct _part **parts;
	size_t nparts, cap;
};

static void _val_clear(struct _val *v)
{
	free(v->text);
	memset(v, 0, sizeof(*v));
}

static int _val_copy(struct _val *dst, const struct _val *src)
{
	char *t = src->text ? strdup(src->text) : NULL;

	if (src->text && !t)
		return -1;
	_val_clear(dst);
	*dst = *src;
	dst->text = t;
	return 0;
}

static void _part_free(struct _part *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < NKEYS; i++)
		_val_clear(&p->v[i]);
	free(p->name);
	p->name = NULL;
}

void fs_conf_destroy(struct fs_conf *conf)
{
	if (!conf)
		return;
	for (size_t i = 0; i < NKEYS; i++)
		_val_clear(&conf->g[i]);
	_part_free(&conf->dflt);
	for (size_t i = 0; i < conf->nparts; i++) {
		_part_free(conf->parts[i]);
		free(conf->parts[i]);
	}
	free(conf->parts);
	free(conf->source);
	free(conf);
}

/*
 * Parse s as a value of key k into *v (origin and line left to the
 * caller).  -1 with msg filled on a bad value or no memory.
 */
static int _val_parse(const struct fs_conf_key *k, const char *s,
		      struct _val *v, char *msg, size_t msgsz)
{
	struct _val t = { 0 };
	char esc[FS_ESCAPE_SIZE];
	const char *text = s;
	char num[24];
	unsigned idx;
	int rc = 0;

	switch (k->type) {
	case FS_TYPE_STRING:
		if (!*s) {
			snprintf(msg, msgsz, "%s=: empty value; expected a "
				 "non-empty string", k->name);
			rc = -1;
		}
		break;
	case FS_TYPE_PATH:
		if (*s != '/') {
			fs_escape(esc, sizeof(esc), s, strlen(s));
			rc = -1;
			snprintf(msg, msgsz,
				 "%s=%s: %s; expected an absolute path "
				 "(starting with '/')", k->name, esc,
				 *s ? "not an absolute path" : "empty value");
		} else if (strlen(s) >= 4096) {
			fs_escape(esc, sizeof(esc), s, strlen(s));
			rc = -1;
			snprintf(msg, msgsz,
				 "%s=%s: path too long; expected at most "
				 "4095 bytes", k->name, esc);
		}
		break;
	case FS_TYPE_BOOL:
		rc = fs_parse_bool(k->name, s, &t.b, msg, msgsz);
		text = t.b ? "yes" : "no";
		break;
	case FS_TYPE_UINT:
		rc = fs_parse_uint(k->name, s, k->min, k->max, &t.u, msg,
				   msgsz);
		snprintf(num, sizeof(num), "%llu", (unsigned long long)t.u);
		text = num;
		break;
	case FS_TYPE_DURATION:
		rc = fs_parse_duration(k->name, s, &t.u, msg, msgsz);
		break;
	case FS_TYPE_SIZE:
		rc = fs_parse_size(k->name, s, &t.u, msg, msgsz);
		break;
	case FS_TYPE_ENUM:
		rc = fs_parse_enum(k->name, s, k->values, &idx, msg, msgsz);
		if (!rc) {
			/* canonical spelling: word idx of the list */
			const char *w = k->values;
			size_t wl;

			for (unsigned i = 0; i < idx; i++)
				w = strchr(w, '|') + 1;
			wl = strcspn(w, "|");
			if (wl >= sizeof(esc))
				wl = sizeof(esc) - 1;
			memcpy(esc, w, wl);
			esc[wl] = '\0';
			text = esc;
			t.u = idx;
		}
		break;
	case FS_TYPE_LOCALITY:
		rc = fs_parse_locality(k->name, s, &t.loc, msg, msgsz);
		break;
	case FS_TYPE_PERCENT:
		rc = fs_parse_percent(k->name, s, &t.u, msg, msgsz);
		break;
	}
	if (rc)
		return -1;
	if (!(t.text = strdup(text))) {
		snprintf(msg, msgsz, "%s", _oom_msg);
		return -1;
	}
	_val_clear(v);
	*v = t;
	return 0;
}

/* ------------------------------------------------------------ parser */

struct _seg {
	size_t off;	/* where the physical line's content starts in lbuf */
	unsigned line;
};

struct _pair {
	char *key, *val; /* inside lbuf */
	unsigned line;
	bool skip;
};

struct _parser {
	const char *name;
	struct fs_errors *errs;
	struct fs_conf *conf;
	unsigned nerr;
	bool stop;
	unsigned gseen[NKEYS];	/* line where a global key first appeared */
	char *lbuf;	/* the logical line being read, NUL-terminated */
	size_t llen, lcap;
	struct _seg *segs;
	size_t nseg, segcap;
	struct _pair *pairs;
	size_t npairs, paircap;
};

static void _oom(struct _parser *P)
{
	if (!P->stop) {
		P->nerr++;
		if (P->errs)
			fs_errors_add(P->errs, "%s: %s", P->name, _oom_msg);
	}
	P->stop = true;
}

/* Report an error at line (0: of the whole file). */
static void _err(struct _parser *P, unsigned line, const char *fmt, ...)
	FS_PRINTF(3, 4);

static void _err(struct _parser *P, unsigned line, const char *fmt, ...)
{
	va_list ap;
	char *body;

	if (P->stop)
		return;
	if (++P->nerr > FS_CONF_MAX_ERRORS) {
		if (P->errs)
			fs_errors_add(P->errs,
				      "%s:%u: too many errors (more than %d); "
				      "expected fewer: fix these and load "
				      "again",
				      P->name, line, FS_CONF_MAX_ERRORS);
		P->stop = true;
		return;
	}
	if (!P->errs)
		return;
	va_start(ap, fmt);
	body = _vformat(fmt, ap);
	va_end(ap);
	if (!body) {
		_oom(P);
		return;
	}
	if (line)
		fs_errors_add(P->errs, "%s:%u: %s", P->name, line, body);
	else
		fs_errors_add(P->errs, "%s: %s", P->name, body);
	free(body);
}

static int _blank(int c)
{
	return c == ' ' || c == '\t';
}

static int _grow(void **p, size_t *cap, size_t need, size_t elsize)
{
	size_t c = *cap ? *cap : 16;
	void *n;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	if (!(n = realloc(*p, c * elsize)))
		return -1;
	*p = n;
	*cap = c;
	return 0;
}

/*
 * Check a physical line's bytes: no NUL, no control character but TAB,
 * valid UTF-8.  Reports the first problem and returns -1.
 */
static int _check_bytes(struct _parser *P, unsigned line,
			const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned c = s[i], need, lo = 0x80, hi = 0xbf;

		if (c == 0) {
			_err(P, line, "NUL byte at column %zu; expected text",
			     i + 1);
			return -1;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			_err(P, line,
			     "control character 0x%02x at column %zu; "
			     "expected printable text", c, i + 1);
			return -1;
		}
		if (c < 0x80)
			continue;
		if (c >= 0xc2 && c <= 0xdf) {
			need = 1;
		} else if (c >= 0xe0 && c <= 0xef) {
			need = 2;
			if (c == 0xe0)
				lo = 0xa0;	/* overlong */
			else if (c == 0xed)
				hi = 0x9f;	/* surrogates */
		} else if (c >= 0xf0 && c <= 0xf4) {
			need = 3;
			if (c == 0xf0)
				lo = 0x90;	/* overlong */
			else if (c == 0xf4)
				hi = 0x8f;	/* > U+10FFFF */
		} else {
			goto bad;
		}
		for (unsigned j = 1; j <= need; j++) {
			unsigned d = i + j < n ? s[i + j] : 0;

			if (d < lo || d > hi)
				goto bad;
			lo = 0x80;
			hi = 0xbf;
		}
		i += need;
		continue;
bad:
		_err(P, line, "invalid UTF-8 at column %zu; expected UTF-8 text",
		     i + 1);
		return -1;
	}
	return 0;
}

/* Offset off of lbuf -> the physical line it came from. */
static unsigned _line_at(const struct _parser *P, size_t off)
{
	size_t lo = 0, hi = P->nseg; /* last segment starting at or before off */

	if (!P->nseg)
		return 0;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (P->segs[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return P->segs[lo].line;
}

static const char *_esc(char *buf, size_t bufsz, const char *s)
{
	return fs_escape(buf, bufsz, s, strlen(s));
}

/* Unknown key: say which keys the line accepts, and the nearest one. */
static unsigned _distance(const char *a, const char *b)
{
	unsigned d[3][41];
	size_t la = strlen(a), lb = strlen(b);
	unsigned r = 0;

	if (la > 40 || lb > 40)
		return 99;
	/* optimal string alignment distance, ASCII case folded, 3 rows */
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *cur = d[i % 3], *prev = d[(i + 2) % 3],
			 *prev2 = d[(i + 1) % 3];

		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = a[i - 1] | 0x20, cb = b[j - 1] | 0x20;
			unsigned cost = ca != cb, v = prev[j] + 1;

			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + cost < v)
				v = prev[j - 1] + cost;
			if (i > 1 && j > 1 && ca == (b[j - 2] | 0x20) &&
			    (a[i - 2] | 0x20) == cb && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		r = cur[lb];
	}
	return la ? r : (unsigned)lb;
}

static void _unknown_key(struct _parser *P, const struct _pair *pr,
			 enum fs_conf_scope scope)
{
	char esc[FS_ESCAPE_SIZE], list[1024], hint[128] = "";
	const char *best = NULL;
	enum fs_conf_scope best_scope = scope;
	unsigned bestd = 99;
	size_t o = 0;

	list[0] = '\0';
	for (size_t i = 0; i <= NKEYS; i++) {
		const char *name = i < NKEYS ? _keys[i].name : PARTITION_KEY;
		enum fs_conf_scope sc = i < NKEYS ? _keys[i].scope
						  : FS_SCOPE_GLOBAL;
		size_t len = strlen(name);
		unsigned d = _distance(pr->key, name);
		unsigned limit = len <= 5 ? 1 : len < 12 ? 2 : 3;

		if (d <= limit && (d < bestd || (d == bestd && sc == scope &&
						 best_scope != scope))) {
			bestd = d;
			best = name;
			best_scope = sc;
		}
		if (sc != scope)
			continue;
		if (o + len + 3 < sizeof(list))
			o += (size_t)snprintf(list + o, sizeof(list) - o,
					      "%s%s", o ? ", " : "", name);
	}
	if (best)
		snprintf(hint, sizeof(hint), " (did you mean %s%s?)", best,
			 best_scope == scope ? ""
			 : best_scope == FS_SCOPE_GLOBAL ? ", a global key"
							 : ", a partition key");
	_err(P, pr->line, "unknown key '%s'%s; accepted %s keys: %s",
	     _esc(esc, sizeof(esc), pr->key), hint,
	     scope == FS_SCOPE_GLOBAL ? "global" : "partition", list);
}

/* Set key k of vals from the pair; reports a bad value. */
static void _set(struct _parser *P, const struct _pair *pr, int k,
		 struct _val *vals)
{
	char msg[FS_MSG_SIZE];

	if (_val_parse(&_keys[k], pr->val, &vals[k], msg, sizeof(msg))) {
		_err(P, pr->line, "%s", msg);
		return;
	}
	vals[k].origin = O_FILE;
	vals[k].line = pr->line;
}

static void _global_line(struct _parser *P)
{
	char esc[FS_ESCAPE_SIZE];

	for (size_t i = 0; i < P->npairs && !P->stop; i++) {
		const struct _pair *pr = &P->pairs[i];
		int k;

		if (pr->skip)
			continue;
		k = _key_index(pr->key);
		if (k < 0) {
			_unknown_key(P, pr, FS_SCOPE_GLOBAL);
		} else if (_keys[k].scope != FS_SCOPE_GLOBAL) {
			_err(P, pr->line,
			     "%s is a partition key, not a global one; "
			     "expected it on a PartitionName= line "
			     "(PartitionName=DEFAULT sets it for every "
			     "partition)", _keys[k].name);
		} else if (P->gseen[k]) {
			_err(P, pr->line,
			     "%s=%s: %s is already set at line %u; expected "
			     "each global key once", _keys[k].name,
			     _esc(esc, sizeof(esc), pr->val), _keys[k].name,
			     P->gseen[k]);
		} else {
			P->gseen[k] = pr->line;
			_set(P, pr, k, P->conf->g);
		}
	}
}

static struct _part *_find_part(const struct fs_conf *conf, const char *name)
{
	for (size_t i = 0; name && i < conf->nparts; i++)
		if (!strcmp(conf->parts[i]->name, name))
			return conf->parts[i];
	return NULL;
}

static int _valid_part_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= 0x20 || c >= 0x7f || strchr(",=#\"'\\", c))
			return 0;
	}
	return 1;
}

static void _partition_line(struct _parser *P)
{
	const struct _pair *first = &P->pairs[0];
	struct _part *target = NULL, *scratch = NULL, *prev;
	char esc[FS_ESCAPE_SIZE];

	if (!_valid_part_name(first->val)) {
		_err(P, first->line,
		     "PartitionName=%s: %s; expected a partition name "
		     "(printable ASCII without blanks or , = # \" ' \\)",
		     _esc(esc, sizeof(esc), first->val),
		     *first->val ? "not a valid partition name"
				 : "empty value");
	} else if (fs_strcaseeq(first->val, "DEFAULT")) {
		target = &P->conf->dflt;
		target->line = first->line;
	} else if ((prev = _find_part(P->conf, first->val))) {
		_err(P, first->line,
		     "partition '%s' is already defined at line %u; expected "
		     "one PartitionName line per partition, with all its keys",
		     first->val, prev->line);
	} else if (P->conf->nparts == FS_CONF_MAX_PARTITIONS) {
		_err(P, first->line,
		     "more than %d partitions; expected at most %d "
		     "PartitionName lines", FS_CONF_MAX_PARTITIONS,
		     FS_CONF_MAX_PARTITIONS);
	} else {
		struct fs_conf *c = P->conf;

		if (_grow((void **)&c->parts, &c->cap, c->nparts + 1,
			  sizeof(*c->parts)) ||
		    !(target = calloc(1, sizeof(*target))))
			goto oom;
		c->parts[c->nparts++] = target;
		target->line = first->line;
		if (!(target->name = strdup(first->val)))
			goto oom;
		/* as in slurm.conf: the DEFAULT values seen so far */
		for (size_t k = 0; k < NKEYS; k++) {
			if (c->dflt.v[k].origin != O_FILE)
				continue;
			if (_val_copy(&target->v[k], &c->dflt.v[k]))
				goto oom;
			target->v[k].origin = O_DEFAULT_PART;
		}
	}
	if (!target) {
		/* still check the keys of a rejected line */
		if (!(scratch = calloc(1, sizeof(*scratch))))
			goto oom;
		target = scratch;
	}
	for (size_t i = 1; i < P->npairs && !P->stop; i++) {
		const struct _pair *pr = &P->pairs[i];
		int k;

		if (pr->skip)
			continue;
		k = _key_index(pr->key);
		if (k < 0)
			_unknown_key(P, pr, FS_SCOPE_PARTITION);
		else if (_keys[k].scope != FS_SCOPE_PARTITION)
			_err(P, pr->line,
			     "%s is a global key, not a partition one; "
			     "expected it on a line without PartitionName=",
			     _keys[k].name);
		else
			_set(P, pr, k, target->v);
	}
	_part_free(scratch);
	free(scratch);
	return;
oom:
	_part_free(scratch);
	free(scratch);
	_oom(P);
}

/* Split the logical line into Key=Value pairs, then act on them. */
static void _logical_line(struct _parser *P)
{
	char *b = P->lbuf, esc[FS_ESCAPE_SIZE];
	size_t i = 0, n = P->llen;

	P->npairs = 0;
	while (!P->stop) {
		size_t ks, vs;
		unsigned line;
		char *key, *val;

		while (i < n && _blank(b[i]))
			i++;
		if (i >= n)
			break;
		ks = i;
		line = _line_at(P, ks);
		while (i < n && b[i] != '=' && !_blank(b[i]))
			i++;
		if (i >= n || b[i] != '=') {
			if (i - ks == 7 && fs_strncaseeq(b + ks, "include", 7))
				_err(P, line,
				     "Include is not supported; expected "
				     "Key=Value pairs (fabsched.conf is a "
				     "single file)");
			else
				_err(P, line,
				     "'%s' has no '='; expected Key=Value, "
				     "with no blanks around '='",
				     fs_escape(esc, sizeof(esc), b + ks,
					       i - ks));
			break;
		}
		if (i == ks) {
			_err(P, line, "'=' without a key; expected Key=Value");
			break;
		}
		b[i++] = '\0';
		key = b + ks;
		if (i < n && b[i] == '"') {
			vs = ++i;
			while (i < n && b[i] != '"')
				i++;
			if (i >= n) { /* _physical_line saw no such line */
				_err(P, line, "unterminated quote in the "
				     "value of '%s'; expected a closing '\"' "
				     "on the same line",
				     _esc(esc, sizeof(esc), key));
				break;
			}
			b[i++] = '\0';
			if (i < n && !_blank(b[i])) {
				char esc2[FS_ESCAPE_SIZE];

				_err(P, line,
				     "text after the closing quote of %s=\"%s\"; "
				     "expected a blank or the end of the line",
				     _esc(esc, sizeof(esc), key),
				     _esc(esc2, sizeof(esc2), b + vs));
				break;
			}
		} else {
			vs = i;
			while (i < n && !_blank(b[i]) && b[i] != '"')
				i++;
			if (i < n && b[i] == '"') {
				_err(P, line,
				     "stray '\"' in the value of '%s'; "
				     "expected a value quoted as a whole "
				     "(Key=\"...\")",
				     _esc(esc, sizeof(esc), key));
				break;
			}
			b[i] = '\0'; /* b[n] is the terminating NUL */
		}
		val = b + vs;
		if (strlen(val) > FS_CONF_MAX_VALUE) {
			_err(P, line, "the value of '%s' is longer than %d "
			     "bytes; expected a shorter value",
			     _esc(esc, sizeof(esc), key), FS_CONF_MAX_VALUE);
			break;
		}
		i++;
		if (_grow((void **)&P->pairs, &P->paircap, P->npairs + 1,
			  sizeof(*P->pairs))) {
			_oom(P);
			return;
		}
		P->pairs[P->npairs++] = (struct _pair){ key, val, line, false };
	}
	if (!P->npairs || P->stop)
		return;

	/* known keys (and PartitionName) once per line; unknown ones are
	 * each reported by the line's handler */
	bool seen[NKEYS + 1] = { false };

	for (size_t j = 0; j < P->npairs && !P->stop; j++) {
		struct _pair *pj = &P->pairs[j];
		int k = fs_strcaseeq(pj->key, PARTITION_KEY) ? (int)NKEYS
							     : _key_index(pj->key);

		if (k < 0)
			continue;
		if (seen[k]) {
			_err(P, pj->line,
			     "%s given twice on this line; expected each key "
			     "once per line", _esc(esc, sizeof(esc), pj->key));
			pj->skip = true;
		}
		seen[k] = true;
		if (j && !pj->skip && k == (int)NKEYS) {
			_err(P, pj->line,
			     "PartitionName must be the first key of its line; "
			     "expected PartitionName=<name> followed by that "
			     "partition's keys");
			pj->skip = true;
		}
	}
	if (P->stop)
		return;
	if (fs_strcaseeq(P->pairs[0].key, PARTITION_KEY))
		_partition_line(P);
	else
		_global_line(P);
}

/* Length of s[0..n) without trailing blanks. */
static size_t _rtrim(const char *s, size_t n)
{
	while (n && _blank(s[n - 1]))
		n--;
	return n;
}

/*
 * Read one physical line into the logical line.  Returns 1 when the line
 * continues (ends with a backslash outside quotes and comments), 0 when
 * it does not, -1 when it is bad (already reported).
 */
static int _physical_line(struct _parser *P, unsigned line, const char *s,
			  size_t n)
{
	size_t content = n, q = 0;
	bool inq = false, comment = false, cont = false;

	if (n && s[n - 1] == '\r')
		n--, content--;
	if (n > FS_CONF_MAX_LINE) {
		_err(P, line,
		     "line is longer than %d bytes; expected shorter lines "
		     "(end a line with '\\' to continue it on the next)",
		     FS_CONF_MAX_LINE);
		return -1;
	}
	if (_check_bytes(P, line, (const unsigned char *)s, n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"') {
			inq = !inq;
			q = i;
		} else if (s[i] == '#' && !inq) {
			content = i;
			comment = true;
			break;
		}
	}
	if (inq) {
		_err(P, line,
		     "unterminated quote (opened at column %zu); expected a "
		     "closing '\"' on the same line", q + 1);
		return -1;
	}
	if (!comment) {
		content = _rtrim(s, content);
		if (content && s[content - 1] == '\\') {
			cont = true;
			content--;
		}
	}
	if (_grow((void **)&P->segs, &P->segcap, P->nseg + 1,
		  sizeof(*P->segs)) ||
	    _grow((void **)&P->lbuf, &P->lcap, P->llen + content + 1, 1)) {
		_oom(P);
		return -1;
	}
	P->segs[P->nseg++] = (struct _seg){ P->llen, line };
	memcpy(P->lbuf + P->llen, s, content);
	P->llen += content;
	P->lbuf[P->llen] = '\0';
	return cont;
}

static void _parse_buf(struct _parser *P, const char *buf, size_t len)
{
	size_t pos = 0;
	unsigned line = 0;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3; /* UTF-8 byte order mark */
	while (pos < len && !P->stop) {
		bool bad = false;
		int rc;

		P->llen = 0;
		P->nseg = 0;
		do {
			const char *s = buf + pos;
			const char *nl = memchr(s, '\n', len - pos);
			size_t n = nl ? (size_t)(nl - s) : len - pos;

			line++;
			pos += n + (nl ? 1 : 0);
			if (bad) {
				/* the rest of a bad logical line: skip it */
				size_t t = _rtrim(s, n && s[n - 1] == '\r' ? n - 1 : n);

				rc = t && s[t - 1] == '\\';
			} else {
				rc = _physical_line(P, line, s, n);
				if (rc < 0) {
					size_t t = _rtrim(s, n && s[n - 1] == '\r'
							     ? n - 1 : n);

					bad = true;
					rc = t && s[t - 1] == '\\';
				}
			}
			if (rc == 1 && pos >= len && !bad) {
				_err(P, line,
				     "the last line ends with '\\'; expected "
				     "a line to continue it");
				bad = true;
				rc = 0;
			}
		} while (rc == 1 && !P->stop);
		if (!bad && !P->stop)
			_logical_line(P);
	}
}

/* ------------------------------------------------------------ resolving */

/*
 * A partition key's value from its fallback global key: the level of a
 * locality for an enum, its wait for a duration.  0 when converted.
 */
static int _from_fallback(const struct fs_conf_key *k, const struct _val *g,
			  struct _val *v)
{
	char buf[32];
	const char *text = NULL;
	unsigned idx;

	if (g->origin == O_UNSET)
		return -1;
	_val_clear(v);
	if (_keys[_key_index(k->fallback)].type == k->type) {
		if (_val_copy(v, g))
			return -2;
	} else if (k->type == FS_TYPE_ENUM &&
		   _keys[_key_index(k->fallback)].type == FS_TYPE_LOCALITY) {
		text = fs_locality_name(g->loc.level);
		if (fs_parse_enum(NULL, text, k->values, &idx, NULL, 0))
			return -1;
		v->u = idx;
	} else if (k->type == FS_TYPE_DURATION && g->loc.wait_set &&
		   _keys[_key_index(k->fallback)].type == FS_TYPE_LOCALITY) {
		v->u = g->loc.wait;
		text = fs_format_duration(g->loc.wait, buf, sizeof(buf));
	} else {
		return -1;
	}
	if (text && !(v->text = strdup(text)))
		return -2;
	v->origin = O_GLOBAL;
	v->line = g->line;
	return 0;
}

static int _builtin(struct _parser *P, int k, struct _val *v)
{
	char msg[FS_MSG_SIZE];

	if (!_keys[k].def)
		return 0;
	if (_val_parse(&_keys[k], _keys[k].def, v, msg, sizeof(msg))) {
		_err(P, 0, "built-in default: %s", msg);
		return -1;
	}
	v->origin = O_BUILTIN;
	return 0;
}

static void _resolve_part(struct _parser *P, struct _part *p)
{
	for (size_t k = 0; k < NKEYS && !P->stop; k++) {
		int rc = -1;

		if (_keys[k].scope != FS_SCOPE_PARTITION ||
		    p->v[k].origin != O_UNSET)
			continue;
		if (_keys[k].fallback) {
			rc = _from_fallback(&_keys[k],
					    &P->conf->g[_key_index(_keys[k].fallback)],
					    &p->v[k]);
			if (rc == -2)
				_oom(P);
		}
		if (rc == -1)
			_builtin(P, (int)k, &p->v[k]);
	}
}

static void _resolve(struct _parser *P)
{
	struct fs_conf *c = P->conf;

	for (size_t k = 0; k < NKEYS; k++)
		if (_keys[k].scope == FS_SCOPE_GLOBAL &&
		    c->g[k].origin == O_UNSET)
			_builtin(P, (int)k, &c->g[k]);
	_resolve_part(P, &c->dflt);
	for (size_t i = 0; i < c->nparts; i++)
		_resolve_part(P, c->parts[i]);
}

/* An NQN: "nqn." then printable ASCII, at most 223 bytes (NVMe base spec). */
static int _nqn_ok(const char *s)
{
	size_t n = strlen(s);

	if (n < 5 || n > 223 || strncmp(s, "nqn.", 4))
		return 0;
	for (; *s; s++)
		if (*s <= 0x20 || *s >= 0x7f)
			return 0;
	return 1;
}

/* The scratch pool's keys together: a target needs both its address and
 * its subsystem NQN; each value in the form the kernel accepts. */
static void _check_scratch(struct _parser *P)
{
	const struct _val *a = &P->conf->g[_key_index("ScratchTraddr")];
	const struct _val *q = &P->conf->g[_key_index("ScratchSubsysNQN")];
	const struct _val *c = &P->conf->g[_key_index("ScratchCapacity")];
	char esc[FS_ESCAPE_SIZE];

	if (a->origin == O_FILE) {
		for (const char *s = a->text; *s; s++)
			if (!strchr("0123456789abcdefABCDEF.:", *s)) {
				_err(P, a->line, "ScratchTraddr=%s: not an IP "
				     "address; expected an IPv4 or IPv6 address "
				     "of the NVMe-oF target",
				     _esc(esc, sizeof(esc), a->text));
				break;
			}
	}
	if (q->origin == O_FILE && !_nqn_ok(q->text))
		_err(P, q->line, "ScratchSubsysNQN=%s: not an NQN; expected "
		     "nqn.<yyyy-mm>.<reverse domain>:<name>, printable, at most "
		     "223 bytes", _esc(esc, sizeof(esc), q->text));
	if ((a->origin == O_FILE) != (q->origin == O_FILE))
		_err(P, a->origin == O_FILE ? a->line : q->line,
		     "%s is set but %s is not; expected both (the scratch "
		     "pool's target) or neither (no scratch pool)",
		     a->origin == O_FILE ? "ScratchTraddr" : "ScratchSubsysNQN",
		     a->origin == O_FILE ? "ScratchSubsysNQN" : "ScratchTraddr");
	if (c->origin == O_FILE && c->u < (1ULL << 30))
		_err(P, c->line, "ScratchCapacity=%s: less than 1 GiB; expected "
		     "the pool's size, e.g. 4T", _esc(esc, sizeof(esc), c->text));
}

/* RdmaRate and AccountIbPkeys in the forms the prolog reads (fs_ib.h). */
static void _check_ib(struct _parser *P)
{
	const struct _val *r = &P->conf->g[_key_index("RdmaRate")];
	const struct _val *m = &P->conf->g[_key_index("AccountIbPkeys")];
	char msg[FS_MSG_SIZE];
	uint64_t mbps;

	if (r->origin == O_FILE &&
	    fs_parse_rate("RdmaRate", r->text, &mbps, msg, sizeof(msg)))
		_err(P, r->line, "%s", msg);
	if (m->origin == O_FILE &&
	    fs_pkey_map_find("AccountIbPkeys", m->text, NULL, NULL, msg,
			     sizeof(msg)) < 0)
		_err(P, m->line, "%s", msg);
}

int fs_conf_parse(const char *name, const char *buf, size_t len,
		  struct fs_conf **out, struct fs_errors *errs)
{
	struct _parser P = { .name = name ? name : "fabsched.conf",
			     .errs = errs };

	if (!out) {
		errno = EINVAL;
		return -1;
	}
	*out = NULL;
	if (!buf && len) {
		errno = EINVAL;
		return -1;
	}
	if (!(P.conf = calloc(1, sizeof(*P.conf))) ||
	    !(P.conf->source = strdup(P.name)) ||
	    !(P.conf->dflt.name = strdup("DEFAULT"))) {
		_oom(&P);
		goto done;
	}
	if (len)
		_parse_buf(&P, buf, len);
	if (!P.nerr)
		_resolve(&P);
	if (!P.nerr)
		_check_scratch(&P);
	if (!P.nerr)
		_check_ib(&P);
done:
	free(P.lbuf);
	free(P.segs);
	free(P.pairs);
	if (P.nerr) {
		fs_conf_destroy(P.conf);
		errno = EINVAL;
		return -1;
	}
	*out = P.conf;
	return 0;
}

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
static int _read_file(const char *path, char **buf, size_t *len,
		      struct fs_errors *errs, int *missing)
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
		fs_errors_add(errs, "%s: cannot open: %s; expected a readable "
			      "fabsched.conf", path,
			      _strerror(e, ebuf, sizeof(ebuf)));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fs_errors_add(errs, "%s: not a regular file; expected a "
			      "readable fabsched.conf", path);
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
				fs_errors_add(errs, "%s: %s", path, _oom_msg);
				goto fail;
			}
			b = nb;
			cap = ncap;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fs_errors_add(errs, "%s: cannot read: %s; expected a "
				      "readable fabsched.conf", path,
				      _strerror(errno, ebuf, sizeof(ebuf)));
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

int fs_conf_load(const char *path, struct fs_conf **out,
		 struct fs_errors *errs)
{
	bool named = true;
	char *buf = NULL;
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
			path = fs_conf_default_path();
			named = false;
		}
	}
	if (!named) {
		/* a missing default file means "all defaults", silently */
		struct stat st;

		if (stat(path, &st) && errno == ENOENT) {
			rc = fs_conf_parse(path, "", 0, out, errs);
			if (!rc)
				(*out)->builtin = true;
			return rc;
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

/* ------------------------------------------------------------ getters */

const char *fs_conf_source(const struct fs_conf *conf)
{
	return conf ? conf->source : NULL;
}

bool fs_conf_is_builtin(const struct fs_conf *conf)
{
	return conf && conf->builtin;
}

/* The value of key in scope, or NULL with errno set. */
static const struct _val *_lookup(const struct fs_conf *conf, const char *part,
				  const char *key, enum fs_conf_scope scope,
				  int *kidx)
{
	const struct _val *v;
	const struct _part *p;
	int k = _key_index(key);

	if (!conf || k < 0) {
		errno = conf ? ENOENT : EINVAL;
		return NULL;
	}
	if (_keys[k].scope != scope) {
		errno = EINVAL;
		return NULL;
	}
	if (scope == FS_SCOPE_GLOBAL) {
		v = &conf->g[k];
	} else {
		p = part && !fs_strcaseeq(part, "DEFAULT")
			    ? _find_part(conf, part) : NULL;
		v = p ? &p->v[k] : &conf->dflt.v[k];
	}
	if (v->origin == O_UNSET) {
		errno = ENOENT;
		return NULL;
	}
	*kidx = k;
	return v;
}

static int _get_uint(const struct _val *v, int k, uint64_t *out)
{
	if (!v)
		return -1;
	switch (_keys[k].type) {
	case FS_TYPE_UINT:
	case FS_TYPE_DURATION:
	case FS_TYPE_SIZE:
	case FS_TYPE_ENUM:
	case FS_TYPE_PERCENT:
		if (out)
			*out = v->u;
		return 0;
	default:
		errno = EINVAL;
		return -1;
	}
}

static int _get_bool(const struct _val *v, int k, bool *out)
{
	if (!v)
		return -1;
	if (_keys[k].type != FS_TYPE_BOOL) {
		errno = EINVAL;
		return -1;
	}
	if (out)
		*out = v->b;
	return 0;
}

const char *fs_conf_get_str(const struct fs_conf *conf, const char *key)
{
	int k;
	const struct _val *v = _lookup(conf, NULL, key, FS_SCOPE_GLOBAL, &k);

	return v ? v->text : NULL;
}

int fs_conf_get_uint(const struct fs_conf *conf, const char *key,
		     uint64_t *out)
{
	int k = 0;
	const struct _val *v = _lookup(conf, NULL, key, FS_SCOPE_GLOBAL, &k);

	return _get_uint(v, k, out);
}

int fs_conf_get_bool(const struct fs_conf *conf, const char *key, bool *out)
{
	int k = 0;
	const struct _val *v = _lookup(conf, NULL, key, FS_SCOPE_GLOBAL, &k);

	return _get_bool(v, k, out);
}

int fs_conf_get_locality(const struct fs_conf *conf, const char *key,
			 struct fs_locality *out)
{
	int k = 0;
	const struct _val *v = _lookup(conf, NULL, key, FS_SCOPE_GLOBAL, &k);

	if (!v)
		return -1;
	if (_keys[k].type != FS_TYPE_LOCALITY) {
		errno = EINVAL;
		return -1;
	}
	if (out)
		*out = v->loc;
	return 0;
}

size_t fs_conf_part_count(const struct fs_conf *conf)
{
	return conf ? conf->nparts : 0;
}

const char *fs_conf_part_name(const struct fs_conf *conf, size_t i)
{
	return conf && i < conf->nparts ? conf->parts[i]->name : NULL;
}

bool fs_conf_has_part(const struct fs_conf *conf, const char *part)
{
	return conf && _find_part(conf, part);
}

const char *fs_conf_part_get_str(const struct fs_conf *conf, const char *part,
				 const char *key)
{
	int k;
	const struct _val *v = _lookup(conf, part, key, FS_SCOPE_PARTITION,
				       &k);

	return v ? v->text : NULL;
}

int fs_conf_part_get_uint(const struct fs_conf *conf, const char *part,
			  const char *key, uint64_t *out)
{
	int k = 0;
	const struct _val *v = _lookup(conf, part, key, FS_SCOPE_PARTITION,
				       &k);

	return _get_uint(v, k, out);
}

int fs_conf_part_get_bool(const struct fs_conf *conf, const char *part,
			  const char *key, bool *out)
{
	int k = 0;
	const struct _val *v = _lookup(conf, part, key, FS_SCOPE_PARTITION,
				       &k);

	return _get_bool(v, k, out);
}

int fs_conf_part_locality(const struct fs_conf *conf, const char *part,
			  struct fs_locality *out)
{
	uint64_t level, wait;

	if (fs_conf_part_get_uint(conf, part, "Locality", &level) ||
	    fs_conf_part_get_uint(conf, part, "LocalityWait", &wait))
		return -1;
	if (out) {
		out->level = (enum fs_locality_level)level;
		out->wait_set = true;
		out->wait = wait;
	}
	return 0;
}

/* ------------------------------------------------------------ dump */

/* Quote a value when the parser would otherwise split or cut it. */
static const char *_quote(const char *s)
{
	size_t n = strlen(s);

	if (!n || strpbrk(s, " \t#") || s[n - 1] == '\\')
		return "\"";
	return "";
}

static const char *_origin(const struct _val *v, const char *fallback,
			   char *buf, size_t bufsz)
{
	switch (v->origin) {
	case O_BUILTIN:
		return "built-in default";
	case O_FILE:
		snprintf(buf, bufsz, "line %u", v->line);
		return buf;
	case O_DEFAULT_PART:
		snprintf(buf, bufsz, "PartitionName=DEFAULT at line %u",
			 v->line);
		return buf;
	case O_GLOBAL:
		snprintf(buf, bufsz, "from %s", fallback);
		return buf;
	case O_UNSET:
		break;
	}
	return "not set";
}

static void _dump_part(const struct _part *p, const struct _part *dflt,
		       FILE *out)
{
	char buf[64];
	size_t col = strlen("PartitionName=") + strlen(p->name);

	fprintf(out, "PartitionName=%s", p->name);
	for (size_t k = 0; k < NKEYS; k++) {
		const char *q;
		size_t w;

		if (_keys[k].scope != FS_SCOPE_PARTITION ||
		    p->v[k].origin == O_UNSET)
			continue;
		q = _quote(p->v[k].text);
		w = strlen(_keys[k].name) + strlen(p->v[k].text) + 4;
		if (col + w > 100) {
			/* long lines are continued, as an admin would */
			fprintf(out, " \\\n   ");
			col = 3;
		}
		col += w;
		fprintf(out, " %s=%s%s%s", _keys[k].name, q, p->v[k].text, q);
	}
	if (p != dflt)
		fprintf(out, "\t# line %u", p->line);
	fprintf(out, "\n");
	for (size_t k = 0; k < NKEYS; k++) {
		if (_keys[k].scope != FS_SCOPE_PARTITION ||
		    p->v[k].origin == O_FILE)
			continue;
		fprintf(out, "#   %s: %s\n", _keys[k].name,
			_origin(&p->v[k], _keys[k].fallback, buf, sizeof(buf)));
	}
}

int fs_conf_dump(const struct fs_conf *conf, FILE *out)
{
	char buf[64];

	if (!conf || !out) {
		errno = EINVAL;
		return -1;
	}
	fprintf(out, "# fabsched configuration in effect\n# source: %s%s\n",
		conf->source,
		conf->builtin ? " (not found: built-in defaults)" : "");
	for (size_t k = 0; k < NKEYS; k++) {
		const struct _val *v = &conf->g[k];
		const char *q;

		if (_keys[k].scope != FS_SCOPE_GLOBAL)
			continue;
		if (v->origin == O_UNSET) {
			fprintf(out, "#%s=\t# not set\n", _keys[k].name);
			continue;
		}
		q = _quote(v->text);
		fprintf(out, "%s=%s%s%s\t# %s\n", _keys[k].name, q, v->text, q,
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
