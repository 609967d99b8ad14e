/*
 * fs_jobreq.h - what a job asks for, as the controller sees it at submit:
 * the --scratch option and the licenses that charge it to the scratch
 * pool (hugepage requests: fs_hugepages.h).  Used by the SPANK plugin (sbatch/srun), job_submit/fabsched
 * (slurmctld) and the prolog; no Slurm header, no global state.
 *
 * Return convention: as fs_values.h (0, or -1 with a message in err that
 * names the option or value and says what is accepted; FS_MSG_SIZE is
 * always enough).
 */
#ifndef FABSCHED_FS_JOBREQ_H
#define FABSCHED_FS_JOBREQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------ --scratch */

/* Largest volume one node may ask for: 1 PiB, in GiB. */
#define FS_SCRATCH_MAX_GIB (1ULL << 20)
/* The license that counts the scratch pool, in GiB. */
#define FS_SCRATCH_LICENSE "scratch"
#define FS_SCRATCH_FORM                                                 \
	"SIZE[,fs=xfs|ext4], SIZE 1G..1024T with suffix G or T (or M, " \
	"rounded up to whole GiB), e.g. 200G or 2T,fs=ext4"

enum fs_scratch_fs {
	FS_SCRATCH_XFS = 0, /* the default */
	FS_SCRATCH_EXT4 = 1,
};

struct fs_scratch {
	uint64_t gib; /* per node, 1..FS_SCRATCH_MAX_GIB */
	enum fs_scratch_fs fs;
};

/*
 * "--scratch" values: a size (fs_parse_size forms, at least 1 GiB, at
 * most FS_SCRATCH_MAX_GIB GiB, rounded up to whole GiB), optionally
 * followed by ",fs=xfs" or ",fs=ext4" (any case).
 */
int fs_parse_scratch(const char *name, const char *s, struct fs_scratch *out, char *err,
		     size_t errlen);
/* Canonical form "200G,fs=xfs" (32 bytes are enough); returns buf. */
char *fs_format_scratch(const struct fs_scratch *sc, char *buf, size_t bufsz);
/* "xfs" or "ext4". */
const char *fs_scratch_fs_name(enum fs_scratch_fs fs);

/*
 * The job's charge to the scratch pool: gib per node times its node count.
 * min_nodes/max_nodes are the job's (0: not given).  The job is charged
 * for max_nodes when given, else min_nodes, else 1; *cap_nodes receives
 * the node count charged, which the caller makes the job's maximum so that
 * it never runs on more nodes than it paid for.
 */
int fs_scratch_charge(const struct fs_scratch *sc, uint32_t min_nodes, uint32_t max_nodes,
		      uint64_t *gib_total, uint32_t *cap_nodes, char *err, size_t errlen);

/*
 * Can the pool ever hold the charge?  pool_gib is the scratch license's
 * total (slurm.conf Licenses=scratch:<GiB>; 0 when not configured).
 * what names the request in the message ("--scratch=200G,fs=xfs").
 */
int fs_scratch_pool_check(const char *what, uint64_t gib_total, uint32_t nodes, uint64_t pool_gib,
			  char *err, size_t errlen);

/*
 * Merge the scratch license into a job's licenses string (Slurm form
 * "name[:count][,name[:count]...]"; NULL or "" when none): the result in
 * out is the user's licenses with ",scratch:<count>" added.  Refused: a
 * user's string naming the scratch license itself (it is fabsched's to
 * set), or using '|' (either-or licenses), or too long for out.
 */
int fs_licenses_add_scratch(const char *user, uint64_t count, char *out, size_t outsz, char *err,
			    size_t errlen);

/*
 * A job's --scratch at submission (@opt as the user gave it; the job's
 * node counts, 0: not given; the pool's total; its own licenses): checked,
 * charged and merged.  The grant: the canonical value (the prolog's
 * FABSCHED_SCRATCH), the charge in GiB (FABSCHED_SCRATCH_CHARGE), the
 * job's licenses with the charge, and the node count charged, which the
 * caller makes the job's maximum.  RET 0, or -1 (refused) with err.
 */
struct fs_scratch_grant {
	char canon[32];
	uint64_t gib;
	uint32_t max_nodes;
	char licenses[8192];
};
int fs_scratch_submit(const char *opt, uint32_t min_nodes, uint32_t max_nodes, uint64_t pool_gib,
		      const char *licenses, struct fs_scratch_grant *g, char *err, size_t errlen);

/* Count of license name in a licenses string; 0 when absent. */
uint64_t fs_licenses_count(const char *licenses, const char *name);

/*
 * A change to a job that holds a scratch charge (its FABSCHED_SCRATCH
 * value @scratch and FABSCHED_SCRATCH_CHARGE @charge; either NULL: no
 * charge, always allowed): new @licenses (NULL: unchanged) must keep the
 * charge, new node counts (0: unchanged) must stay within what was
 * charged.  RET FS_SCRATCH_MOD_OK, or which change is refused, with err.
 */
enum { FS_SCRATCH_MOD_OK = 0, FS_SCRATCH_MOD_LICENSES, FS_SCRATCH_MOD_NODES };
int fs_scratch_modify_check(const char *scratch, const char *charge, const char *licenses,
			    uint32_t min_nodes, uint32_t max_nodes, char *err, size_t errlen);

/*
 * An environment array of "NAME=value" entries (@n of them; NULL entries
 * skipped).  fs_env_find: the value after the first entry starting with
 * @prefix ("NAME="), NULL when none.  fs_env_remove: every entry starting
 * with @prefix handed to @release and taken out; RET the new count.
 */
const char *fs_env_find(char *const *env, size_t n, const char *prefix);
size_t fs_env_remove(char **env, size_t n, const char *prefix, void (*release)(char *entry));

/*
 * The entries of a job's SPANK environment that only fabsched may write,
 * taken out as a user sent them (at submission and on an update): the
 * values job_submit/fabsched hands to the prolog (FABSCHED_SCRATCH,
 * FABSCHED_SCRATCH_CHARGE, FABSCHED_HUGEPAGES_ASKED), and every entry the
 * prolog would read under Slurm's SPANK_ prefix, which Slurm passes as it
 * is: SPANK_FABSCHED_* and SPANK__SLURM_SPANK_OPTION_fabsched_* (fabsched.so
 * and job_submit/fabsched write unprefixed names only).  A user's own
 * option entry _SLURM_SPANK_OPTION_fabsched_<opt> is kept: it is what
 * --scratch gives, and job_submit/fabsched checks and charges it.  Each
 * removed entry is handed to @release; RET the new count.
 */
bool fs_env_controlled(const char *entry);
size_t fs_env_remove_controlled(char **env, size_t n, void (*release)(char *entry));

#endif /* FABSCHED_FS_JOBREQ_H */
