/*
 * conf_private.h - internals of the fabsched.conf parser shared by its
 * files (common/conf_*.c): the schema table, values, the parser state.
 */
#ifndef FABSCHED_CONF_PRIVATE_H
#define FABSCHED_CONF_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabsched_conf.h"
#include "fs_slurmconf.h" /* FS_SLURM_CONFDIR: fabsched.conf sits beside slurm.conf */

#define PARTITION_KEY "PartitionName"
#define FSC_KEYS_MAX 64 /* rows the schema may have */

extern const struct fs_conf_key fsc_keys[]; /* conf_keys.c */
extern const size_t fsc_nkeys;
int fsc_key_index(const char *name); /* -1: not a key */

extern const char fsc_oom_msg[]; /* conf_errors.c */
char *fsc_vformat(const char *fmt, va_list ap) FS_PRINTF(1, 0);

enum _origin {
	O_UNSET = 0,
	O_BUILTIN,	/* the schema's default */
	O_FILE,		/* set on its own line */
	O_DEFAULT_PART, /* copied from a PartitionName=DEFAULT line */
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
	struct _val v[FSC_KEYS_MAX];
};

struct fs_conf {
	char *source;
	bool builtin;
	struct _val g[FSC_KEYS_MAX];
	struct _part dflt;
	struct _part **parts;
	size_t nparts, cap;
};

/* conf_values.c */
void fsc_val_clear(struct _val *v);
int fsc_val_copy(struct _val *dst, const struct _val *src);
void fsc_part_free(struct _part *p);
int fsc_val_parse(const struct fs_conf_key *k, const char *s, struct _val *v, char *err,
		  size_t errlen);

struct _seg {
	size_t off; /* where the physical line's content starts in lbuf */
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
	unsigned gseen[FSC_KEYS_MAX]; /* line where a global key first appeared */
	char *lbuf;		      /* the logical line being read, NUL-terminated */
	size_t llen, lcap;
	struct _seg *segs;
	size_t nseg, segcap;
	struct _pair *pairs;
	size_t npairs, paircap;
};

/* conf_parse.c */
struct _part *fsc_find_part(const struct fs_conf *conf, const char *name);

#endif
