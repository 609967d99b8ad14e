/*
 * fs_ib.h - InfiniBand values written in fabsched.conf or read from sysfs:
 * link rates, partition keys (P_Keys) and the map of Slurm accounts to
 * partition keys (fabsched.conf keys RdmaRate and AccountIbPkeys), and the
 * port error counters the fabric watch follows (FabricErrorLimits).
 *
 * Shared by the fabsched.conf parser (validation, with the line) and the
 * prolog (checks against the HCA ports).  Same conventions as fs_values.h:
 * 0 on success, -1 with "<name>=<value>: <what is wrong>; expected <form>"
 * in err (FS_MSG_SIZE is enough); no global state; nothing printed.
 */
#ifndef FABSCHED_FS_IB_H
#define FABSCHED_FS_IB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fs_values.h"

/*
 * Rates are kept in Mb/s (1 Gb/s = 1000 Mb/s), so that the kernel's half
 * steps ("2.5 Gb/sec") and any decimal an admin writes compare exactly.
 */
#define FS_RATE_MAX_GBPS 100000
#define FS_RATE_FORM                                                            \
	"a rate in Gb/s as the port's sysfs rate file shows it, e.g. 100, 200 " \
	"or 12.5 (at most 3 decimals, 0.001 to 100000)"
int fs_parse_rate(const char *name, const char *s, uint64_t *mbps, char *err, size_t errlen);

/*
 * The kernel's rate text (/sys/class/infiniband/<dev>/ports/<n>/rate):
 * "<Gb/s>[.<decimals>] Gb/sec" optionally followed by " (<width>X[ <speed>])",
 * e.g. "100 Gb/sec (4X EDR)", "2.5 Gb/sec (1X)".  A trailing newline is
 * accepted.  -1 when the text is not of that form.
 */
int fs_parse_sysfs_rate(const char *s, uint64_t *mbps);

/* "100", "12.5", "0.001": a rate in Mb/s as Gb/s; buf of 32 bytes. */
char *fs_format_rate(uint64_t mbps, char *buf, size_t bufsz);

/*
 * A partition key as admins and sysfs write it: "0x" and 1 to 4
 * hexadecimal digits (any case).  Bit 0x8000 is full membership, the 15
 * low bits the partition.  Refused: partition 0 (0x0000, 0x8000: invalid)
 * and partition 0x7fff (0x7fff, 0xffff: the default partition every port
 * is in, which isolates nothing).
 */
#define FS_PKEY_FULL 0x8000u
#define FS_PKEY_PARTITION 0x7fffu
#define FS_PKEY_FORM                                                        \
	"0x and 1 to 4 hexadecimal digits, 0x0001-0x7ffe (limited member) " \
	"or 0x8001-0xfffe (full member), e.g. 0x8001; not the default "     \
	"partition 0x7fff/0xffff"
int fs_parse_pkey(const char *name, const char *s, uint16_t *pkey, char *err, size_t errlen);

/*
 * A Slurm account name the map can hold: 1 to FS_ACCOUNT_MAX bytes of
 * letters, digits, '_', '-' and '.'.
 */
#define FS_ACCOUNT_MAX 64
bool fs_account_ok(const char *s);

/*
 * The account map: comma-separated <account>:<pkey> entries, e.g.
 * "chem:0x8001,physics:0x8002"; each account once (accounts compare
 * without regard to ASCII case, as Slurm stores them in lower case);
 * several accounts may share a key.  The whole map is validated.  With
 * account not NULL, returns 1 and sets *pkey when the map lists it, 0
 * when it does not; -1 on a malformed map.
 */
#define FS_PKEY_MAP_FORM                                                   \
	"comma-separated <account>:<pkey> entries, e.g. "                  \
	"chem:0x8001,physics:0x8002 (account: letters, digits, _ - ., at " \
	"most 64 bytes, each once)"
int fs_pkey_map_find(const char *name, const char *map, const char *account, uint16_t *pkey,
		     char *err, size_t errlen);

/*
 * The port error counters fabsched topo watch follows (PortCounters of
 * the performance management agent), by their names in perfquery's
 * output, and how much each may grow between two watch cycles before the
 * link is reported (FabricErrorLimits): comma-separated <counter>:<most>
 * entries (names in any case, each once), or "none".  A counter not named
 * is not followed.
 */
enum fs_ib_counter {
	FS_IB_SYMBOL_ERRORS, /* SymbolErrorCounter */
	FS_IB_LINK_DOWNED,   /* LinkDownedCounter */
	FS_IB_RCV_ERRORS,    /* PortRcvErrors */
	FS_IB_NCOUNTERS
};
const char *fs_ib_counter_name(int k); /* NULL out of range */
struct fs_ib_err_limits {
	bool on[FS_IB_NCOUNTERS];
	uint64_t most[FS_IB_NCOUNTERS]; /* growth per cycle still fine */
};
#define FS_IB_ERR_LIMITS_DEFAULT "SymbolErrorCounter:10,LinkDownedCounter:0,PortRcvErrors:10"
#define FS_IB_ERR_LIMITS_FORM                                                 \
	"none, or comma-separated <counter>:<most growth per cycle> entries " \
	"of SymbolErrorCounter, LinkDownedCounter and PortRcvErrors, each "   \
	"once, e.g. SymbolErrorCounter:10,LinkDownedCounter:0"
int fs_ib_parse_err_limits(const char *name, const char *s, struct fs_ib_err_limits *out, char *err,
			   size_t errlen);

#endif /* FABSCHED_FS_IB_H */
