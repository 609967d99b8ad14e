/*
 * args.c - the option table of the fabsched SPANK plugin, one callback per
 * option.  Every value is validated where it is given (sbatch, salloc,
 * srun), with the message of the value parser naming the option, so a bad
 * value fails the submission at once.
 */
#include <stdio.h>
#include <string.h>

#include <slurm/spank.h>

#include "args.h"
#include "fs_jobreq.h"
#include "fs_values.h"

enum { OPT_FABRIC_LOCALITY = 1, OPT_SCRATCH = 2 };

static struct {
	bool locality_set;
	char locality[64];
	bool scratch_set;
	char scratch[32];
} args;

static int _opt_fabric_locality(int val, const char *optarg, int remote)
{
	struct fs_locality loc;
	char msg[FS_MSG_SIZE];

	if (fs_parse_locality("--fabric-locality", optarg ? optarg : "", &loc, msg, sizeof(msg))) {
		slurm_error("%s", msg);
		return -1;
	}
	fs_format_locality(&loc, args.locality, sizeof(args.locality));
	args.locality_set = true;
	return 0;
}

static int _opt_scratch(int val, const char *optarg, int remote)
{
	struct fs_scratch sc;
	char msg[FS_MSG_SIZE];

	if (fs_parse_scratch("--scratch", optarg ? optarg : "", &sc, msg, sizeof(msg))) {
		slurm_error("%s", msg);
		return -1;
	}
	fs_format_scratch(&sc, args.scratch, sizeof(args.scratch));
	args.scratch_set = true;
	return 0;
}

struct spank_option fabsched_spank_options[] = {
	{ "fabric-locality", "rack|pod|any[@wait]",
	  "Keep the job's nodes within one rack (leaf switch), one pod "
	  "(spine group) or anywhere; wait at most <wait> (Slurm time "
	  "format) for that, then take the tightest placement free. "
	  "Default: the partition's Locality in fabsched.conf.",
	  1, OPT_FABRIC_LOCALITY, _opt_fabric_locality },
	{ "scratch", "SIZE[,fs=xfs|ext4]",
	  "A private NVMe-oF scratch volume of SIZE (e.g. 200G, 2T) on each "
	  "node of the job, with an xfs (default) or ext4 filesystem, mounted "
	  "at $FABSCHED_SCRATCH; charged to the scratch pool (license "
	  "\"scratch\", in GiB).",
	  1, OPT_SCRATCH, _opt_scratch },
	SPANK_OPTIONS_TABLE_END
};

const char *fabsched_arg_locality(void)
{
	return args.locality_set ? args.locality : NULL;
}

const char *fabsched_arg_scratch(void)
{
	return args.scratch_set ? args.scratch : NULL;
}
