/*
 * fabsched_conf.h - fabsched.conf, the one configuration file of fabsched
 * (format: fabsched.conf(5)), read by every plugin, helper and command.
 *
 * The file is Slurm-style: Key=Value pairs, several per line, '#'
 * comments, case-insensitive keys, double-quoted values.  Global keys
 * stand on lines of their own; a line that starts with
 * PartitionName=<name> carries the keys of that partition, and
 * PartitionName=DEFAULT sets defaults for the partition lines after it.
 *
 * Conventions
 *  - No global state: a struct fs_conf is immutable after loading and may
 *    be read from any number of threads.  Nothing here prints, exits or
 *    aborts on bad input.
 *  - Functions returning int: 0 on success, -1 on error.  Loading reports
 *    every problem it finds, each as one line in the caller's struct
 *    fs_errors:
 *        <file>:<line>: <what is wrong>; expected <accepted form>
 *    or "<file>: ..." for problems of the whole file (cannot open ...).
 *  - Ownership: fs_conf_load/fs_conf_parse give the caller a struct
 *    fs_conf that it frees with fs_conf_destroy; fs_errors_new gives a
 *    list freed with fs_errors_free.  Strings returned by getters belong
 *    to the struct fs_conf (or fs_errors) and live as long as it does.
 *  - Key names are matched in any case; partition names exactly, except
 *    DEFAULT (any case).
 */
#ifndef FABSCHED_FABSCHED_CONF_H
#define FABSCHED_FABSCHED_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fs_env.h"
#include "fs_values.h"

/* Limits enforced by the parser (each breach is an error, never a cut). */
#define FS_CONF_MAX_LINE 65536	     /* bytes per physical line */
#define FS_CONF_MAX_VALUE 4096	     /* bytes per value */
#define FS_CONF_MAX_FILE (16u << 20) /* bytes per file */
#define FS_CONF_MAX_PARTITIONS 10000 /* PartitionName lines */
#define FS_CONF_MAX_ERRORS 100	     /* then "too many errors" */
#define FS_CONF_ENV FS_ENV_CONF	     /* overrides the default path */

/* ------------------------------------------------------------ error list */

struct fs_errors; /* opaque list of messages */

/* A new, empty list; NULL when out of memory. */
struct fs_errors *fs_errors_new(void);
/* Free the list and its messages; NULL is accepted. */
void fs_errors_free(struct fs_errors *errs);
/* Drop every message, keeping the list. */
void fs_errors_clear(struct fs_errors *errs);
/* Number of messages (0 for NULL). */
size_t fs_errors_count(const struct fs_errors *errs);
/* Message i (0 <= i < count), without a trailing newline; else NULL. */
const char *fs_errors_get(const struct fs_errors *errs, size_t i);
/*
 * Append a formatted message.  Returns 0, or -1 when errs is NULL or
 * memory ran out (the list then ends with "out of memory").
 */
int fs_errors_add(struct fs_errors *errs, const char *fmt, ...) FS_PRINTF(2, 3);
/* Print every message followed by '\n' to out; -1 on a write error. */
int fs_errors_print(const struct fs_errors *errs, FILE *out);

/* ------------------------------------------------------------ key schema */

enum fs_conf_scope {
	FS_SCOPE_GLOBAL,    /* on lines without PartitionName= */
	FS_SCOPE_PARTITION, /* on PartitionName= lines */
};

enum fs_conf_type {
	FS_TYPE_STRING,	  /* any non-empty text */
	FS_TYPE_PATH,	  /* absolute path */
	FS_TYPE_BOOL,	  /* fs_parse_bool */
	FS_TYPE_UINT,	  /* fs_parse_uint within [min, max] */
	FS_TYPE_DURATION, /* fs_parse_duration, seconds */
	FS_TYPE_SIZE,	  /* fs_parse_size, bytes */
	FS_TYPE_ENUM,	  /* fs_parse_enum over values */
	FS_TYPE_LOCALITY, /* fs_parse_locality */
	FS_TYPE_PERCENT,  /* fs_parse_percent, parts per million */
};

/* One row of the schema: every key of fabsched.conf has one. */
struct fs_conf_key {
	const char *name; /* canonical spelling */
	enum fs_conf_scope scope;
	enum fs_conf_type type;
	const char *def;      /* built-in default, as written in the file;
				    NULL: none (the key is unset) */
	uint64_t min, max;    /* FS_TYPE_UINT */
	const char *values;   /* FS_TYPE_ENUM: "a|b|c" */
	const char *fallback; /* partition keys: global key whose value
				    is used before def (see fs_conf_part_*) */
	const char *doc;      /* one line, for fabsched(1) and the man page */
	/* optional: the value's form beyond its type (an IP address, an NQN,
	   a rate), checked once the file is read: text as written, u as
	   parsed (sizes, integers); -1 with "KEY=VALUE: ...; expected ..." */
	int (*check)(const char *key, const char *text, uint64_t u, char *err, size_t errlen);
	const char *with;     /* a key to be set together with this one:
				    both or neither */
	const char *with_why; /* what the two are, for that message */
};

/* The schema, in file order; *n receives its length. */
const struct fs_conf_key *fs_conf_keys(size_t *n);
/* The row of a key (any case), or NULL. */
const struct fs_conf_key *fs_conf_key_find(const char *name);
/* "string", "path", "yes|no", ... for messages and documentation. */
const char *fs_conf_type_name(enum fs_conf_type type);

/* Values of the LogLevel key, in the order of its enum list. */
enum fs_log_level {
	FS_LOG_QUIET = 0,
	FS_LOG_INFO = 1,
	FS_LOG_VERBOSE = 2,
	FS_LOG_DEBUG = 3,
};

/* ------------------------------------------------------------ loading */

struct fs_conf; /* opaque, immutable once loaded */

/* The file read when fs_conf_load gets no path and FABSCHED_CONF is unset. */
const char *fs_conf_default_path(void);

/*
 * Load a configuration file.  path NULL: $FABSCHED_CONF when set and not
 * empty; else the site's (fabsched.conf(5), FILES): fabsched.conf in the
 * directory of $SLURM_CONF, in /etc/slurm or in /run/slurm/conf, the first
 * that has one; else the fabsched.so line of plugstack.conf in one of them
 * (its conf=FILE, or its Key=Value arguments as the file's lines: how a
 * configless node gets its settings); else the built-in defaults.  Both
 * variables are ignored in setuid programs.  A missing file that was
 * named (path, $FABSCHED_CONF, conf=) is an error.
 * On success *out is a new struct fs_conf; on error *out is NULL and errs
 * (when not NULL) has received one message per problem.
 */
int fs_conf_load(const char *path, struct fs_conf **out, struct fs_errors *errs);

/*
 * Parse len bytes of buf (need not be NUL-terminated, may hold any bytes)
 * as a configuration file called name in messages (NULL:
 * "fabsched.conf").  Same result convention as fs_conf_load.
 */
int fs_conf_parse(const char *name, const char *buf, size_t len, struct fs_conf **out,
		  struct fs_errors *errs);

/* Free a configuration; NULL is accepted. */
void fs_conf_destroy(struct fs_conf *conf);

/* The file the configuration came from, as given. */
const char *fs_conf_source(const struct fs_conf *conf);
/* true when the default file was missing and built-in defaults apply. */
bool fs_conf_is_builtin(const struct fs_conf *conf);

/* ------------------------------------------------------------ getters
 *
 * Global getters take a global key; the value is the file's or the
 * built-in default.  Partition getters take a partition key and a
 * partition name; the value is, in order of precedence:
 *   1. the key on that partition's PartitionName line;
 *   2. the key on a PartitionName=DEFAULT line before that line (for a
 *      partition not in the file, or part NULL: on any DEFAULT line);
 *   3. the key's fallback global key, when set (e.g. Locality falls back
 *      to the level of DefaultLocality, LocalityWait to its @wait);
 *   4. the key's built-in default.
 *
 * Typed getters return 0 with *out set, or -1 with errno set: ENOENT for
 * an unknown key or a key without value, EINVAL for a key of another
 * scope or type.  fs_*_get_str returns NULL in the same cases.
 *   str:      every type; the value as written (enum: canonical spelling,
 *             bool: "yes"/"no", uint: decimal).
 *   uint:     FS_TYPE_UINT, FS_TYPE_DURATION (seconds, or
 *             FS_DURATION_INFINITE), FS_TYPE_SIZE (bytes), FS_TYPE_ENUM
 *             (index in the enum list).
 *   bool:     FS_TYPE_BOOL.
 *   locality: FS_TYPE_LOCALITY.
 */
const char *fs_conf_get_str(const struct fs_conf *conf, const char *key);
int fs_conf_get_uint(const struct fs_conf *conf, const char *key, uint64_t *out);
int fs_conf_get_bool(const struct fs_conf *conf, const char *key, bool *out);
int fs_conf_get_locality(const struct fs_conf *conf, const char *key, struct fs_locality *out);

/* Partitions named in the file (not DEFAULT), in file order. */
size_t fs_conf_part_count(const struct fs_conf *conf);
const char *fs_conf_part_name(const struct fs_conf *conf, size_t i);
bool fs_conf_has_part(const struct fs_conf *conf, const char *part);

const char *fs_conf_part_get_str(const struct fs_conf *conf, const char *part, const char *key);
int fs_conf_part_get_uint(const struct fs_conf *conf, const char *part, const char *key,
			  uint64_t *out);
int fs_conf_part_get_bool(const struct fs_conf *conf, const char *part, const char *key, bool *out);

/*
 * The locality policy of a partition: level from Locality, wait from
 * LocalityWait (both resolved as above); out->wait_set is always true.
 */
int fs_conf_part_locality(const struct fs_conf *conf, const char *part, struct fs_locality *out);

/*
 * Locality=off or observe: fabsched leaves the partition's placement to
 * Slurm's topology/tree (fs_conf_part_off; NULL or "DEFAULT": the
 * partitions that fabsched.conf does not name); with observe it records
 * what it would have done (fs_conf_part_observe).  fs_conf_all_off: every
 * partition is off or observe, those named and the others
 * (DefaultLocality=off): nothing is placed by fabsched, which then changes
 * nothing of stock Slurm's node choice (node order included).  A NULL
 * conf is neither.
 */
bool fs_conf_part_off(const struct fs_conf *conf, const char *part);
bool fs_conf_part_observe(const struct fs_conf *conf, const char *part);
bool fs_conf_all_off(const struct fs_conf *conf);

/*
 * Write the configuration in effect as a fabsched.conf that parses back
 * to the same values: every global key (unset ones commented out), the
 * effective DEFAULT partition and every partition with all its keys,
 * with comments telling where values came from.  -1 on a write error.
 */
int fs_conf_dump(const struct fs_conf *conf, FILE *out);

#endif /* FABSCHED_FABSCHED_CONF_H */
