/*
 * fs_values.h - parsers for the values that admins and users write:
 * durations, sizes, counts, booleans, enumerations and locality requests.
 *
 * Shared by the fabsched.conf parser, the SPANK plugin (sbatch/srun
 * options) and the fabsched command.  No global state; every function is
 * thread-safe and never prints, exits or aborts.
 *
 * Return convention (every fs_parse_*): 0 on success with *out set; -1 on
 * error with *out untouched and, when err is not NULL, a NUL-terminated
 * message of at most errlen bytes in err:
 *
 *     <name>=<value>: <what is wrong>; expected <accepted form>
 *
 * e.g. "LocalityWait=abc: not a duration; expected minutes, MM:SS, ...".
 * When name is NULL the message starts with '<value>' instead.  The value
 * is echoed with non-printable bytes escaped as \xHH and cut after 64
 * bytes, so messages are safe to log.  FS_MSG_SIZE is always enough.
 *
 * Every parser rejects: the empty string, leading or trailing blanks or
 * other junk, signs ("-1", "+1") and values that overflow 64 bits.
 * Only ASCII is recognised; the C locale is never consulted.
 */
#ifndef FABSCHED_FS_VALUES_H
#define FABSCHED_FS_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "fs_err.h"

/* A message buffer of this size never truncates a message. */

#if defined(__GNUC__)
#define FS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define FS_PRINTF(fmt, args)
#endif

/* Durations are in seconds; INFINITE and UNLIMITED parse to this value. */
#define FS_DURATION_INFINITE UINT64_MAX

/* The accepted forms, as quoted in messages and in fabsched.conf(5). */
#define FS_DURATION_FORM "minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (Slurm time format)"
#define FS_SIZE_FORM                                                     \
	"a number of bytes with an optional binary suffix K, M, G or T " \
	"(or KiB, MiB, GiB, TiB), e.g. 512M"
#define FS_BOOL_FORM "yes, no, true, false, 1 or 0"
#define FS_LOCALITY_FORM                                                  \
	"rack, pod or any, optionally followed by @<wait> in Slurm time " \
	"format (e.g. rack@30:00)"
#define FS_LOCALITY_CONF_FORM                                               \
	"off, or rack, pod, any or observe optionally followed by @<wait> " \
	"in Slurm time format (e.g. rack@30:00)"

/*
 * Durations in Slurm time format: "M", "M:S", "H:M:S", "D-H", "D-H:M",
 * "D-H:M:S", plus "INFINITE" and "UNLIMITED" (any case) which give
 * FS_DURATION_INFINITE.  "0" is zero seconds.  The leading field is
 * unbounded; the fields after it must be 0-59 (minutes, seconds) or 0-23
 * (hours after "D-").
 */
int fs_parse_duration(const char *name, const char *s, uint64_t *secs, char *err, size_t errlen);

/*
 * Sizes in bytes: decimal digits with an optional binary suffix K, M, G,
 * T or KiB, MiB, GiB, TiB (any case; K = KiB = 1024).  No fractions.
 */
int fs_parse_size(const char *name, const char *s, uint64_t *bytes, char *err, size_t errlen);

/*
 * Writes "<name>=<value>: <fmt ...>" (or "'<value>': ..." without a name)
 * into err, the name and the first len bytes of the value escaped
 * (fs_escape).  Returns -1, for "return fs_value_error(...)".
 */
int fs_value_error(char *err, size_t errlen, const char *name, const char *s, size_t len,
		   const char *fmt, ...) FS_PRINTF(6, 7);

/*
 * A share in percent: "P" or "P%" with P a decimal number, 0 <= P <= 100,
 * at most 4 decimals ("99", "98.5%", "0" = none), into parts per million
 * (0-1000000).  No exponent, sign or spaces.
 */
#define FS_PERCENT_FORM "a percentage from 0 to 100, e.g. 99% or 98.5%"
int fs_parse_percent(const char *name, const char *s, uint64_t *ppm, char *err, size_t errlen);

/* Unsigned decimal integer within [min, max]. */
int fs_parse_uint(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *out,
		  char *err, size_t errlen);

/* yes/no, true/false, 1/0, in any case. */
int fs_parse_bool(const char *name, const char *s, bool *out, char *err, size_t errlen);

/*
 * One word of a '|'-separated list, e.g. values = "quiet|info|debug";
 * matched in any case; *idx is its position in the list (from 0).
 */
int fs_parse_enum(const char *name, const char *s, const char *values, unsigned *idx, char *err,
		  size_t errlen);

/* Locality levels, from the narrowest to the widest. */
enum fs_locality_level {
	FS_LOCALITY_RACK = 0,
	FS_LOCALITY_POD = 1,
	FS_LOCALITY_ANY = 2,
	/* fabsched does not place the partition's jobs: Slurm's own
	 * topology/tree selection on the tree exported from the model
	 * (fabsched.conf only, never a job's --fabric-locality) */
	FS_LOCALITY_OFF = 3,
	/* placed as with off, and fabsched records what Locality=rack
	 * (with the partition's LocalityWait, LocalityTarget and MaxRacks)
	 * would have done (fabsched.conf only) */
	FS_LOCALITY_OBSERVE = 4,
};

struct fs_locality {
	enum fs_locality_level level;
	bool wait_set; /* false: no "@<wait>" given (use the partition's) */
	uint64_t wait; /* seconds, or FS_DURATION_INFINITE; 0 if !wait_set */
};

/*
 * A locality request "rack|pod|any[@<wait>]", e.g. "rack@30:00" (rack,
 * wait at most 1800 s for one), "rack@0" (rack if free now), "pod"
 * (wait unset).  The level is matched in any case.
 */
int fs_parse_locality(const char *name, const char *s, struct fs_locality *out, char *err,
		      size_t errlen);

/*
 * fs_parse_locality_conf: the same, "off" (fabsched.conf's
 * DefaultLocality: stock placement, no @<wait>) and "observe" (stock
 * placement, observed as rack[@<wait>]).
 */
int fs_parse_locality_conf(const char *name, const char *s, struct fs_locality *out, char *err,
			   size_t errlen);

/* "rack", "pod", "any", "off", "observe"; NULL for a value outside the enum. */
const char *fs_locality_name(enum fs_locality_level level);

/*
 * Formatting, the inverse of the parsers; each writes a NUL-terminated
 * string (truncated to bufsz) and returns buf.
 *   fs_format_duration: "HH:MM:SS", "D-HH:MM:SS" or "INFINITE".
 *   fs_format_locality: "rack" or "rack@HH:MM:SS".
 * A buffer of 32 bytes is always enough.
 */
char *fs_format_duration(uint64_t secs, char *buf, size_t bufsz);
char *fs_format_locality(const struct fs_locality *loc, char *buf, size_t bufsz);

/*
 * Copy len bytes of src into dst (dstsz > 0) for a message: printable
 * ASCII as is, other bytes as \xHH, at most 64 source bytes then "...".
 * Always NUL-terminates; returns dst.  FS_ESCAPE_SIZE bytes always hold
 * the whole result.
 */
#define FS_ESCAPE_SIZE 264
char *fs_escape(char *dst, size_t dstsz, const char *src, size_t len);

/* ASCII-only case-insensitive comparisons (locale-independent). */
int fs_strcaseeq(const char *a, const char *b);
int fs_strncaseeq(const char *a, const char *b, size_t n);

#endif /* FABSCHED_FS_VALUES_H */
