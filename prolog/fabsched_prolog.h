/*
 * fabsched_prolog.h - per-job node setup and teardown, run as root by
 * slurmd: hugepages (per-NUMA reservation, per-job hugetlbfs mount,
 * hugetlb cgroup limits), RDMA port checks and rdma cgroup limits, NVMe-oF
 * scratch volumes (through the ops table struct fs_pl_nvme_ops), and the
 * crash-safe ledger that lets the epilog and the sweep give back exactly
 * what a job got.
 *
 * No Slurm header; the programs fabsched-prolog, fabsched-epilog and
 * fabsched-sweep (fabsched-prolog(8)) are thin mains over this library.
 *
 * Conventions
 *  - Functions returning int: 0 on success, -1 on error with a
 *    NUL-terminated message of at most errlen bytes in err (when not NULL).
 *    FS_MSG_SIZE is always enough.  Messages name the value, path or
 *    device and say what was expected.
 *  - Log lines go to ctx->log (when not NULL) as "<prog>: job <id>: ...".
 *  - Everything works on fixed-size structs owned by the caller: nothing
 *    here allocates memory that the caller must free.
 *  - Every path under a root-owned base is opened component by component
 *    with O_NOFOLLOW: a symbolic link anywhere is refused.
 */
#ifndef FABSCHED_PROLOG_H
#define FABSCHED_PROLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <stdio.h>
#include <sys/types.h>
#include "fs_dcb.h"
#include "fs_err.h"

#define FS_PL_MAX_POOLS 64 /* (NUMA node, page size) pairs per job */
#define FS_PL_MAX_MOUNTS 4 /* page sizes per job */
#define FS_PL_PATH 512	   /* bytes of a path in the ledger */
#define FS_PL_MAX_JOBID 4294967294ULL
#define FS_PL_MAX_NODE 1023 /* highest NUMA node number accepted */
#define FS_PL_NODE_ANY (-1) /* "any": the kernel's global pool */
#define FS_PL_ACCOUNT 65    /* bytes of an account name, NUL included */

/* ------------------------------------------------------------ job input */

struct fs_pl_pages {
	int node;	  /* NUMA node, or FS_PL_NODE_ANY */
	uint64_t page_kb; /* 2048 or 1048576 */
	uint64_t pages;
};

struct fs_pl_job {
	uint32_t jobid;
	uid_t uid;
	gid_t gid;
	size_t npages;
	struct fs_pl_pages pages[FS_PL_MAX_POOLS];
	char rdma[1024];      /* FABSCHED_RDMA_DEVICES as given, or "" */
	uint64_t scratch_gib; /* SPANK_FABSCHED_SCRATCH: GiB, 0 = none */
	int scratch_fs;	      /* enum fs_scratch_fs (fs_jobreq.h) */
	/* SLURM_JOB_ACCOUNT when it is an account name fabsched.conf can
	   map (fs_account_ok), else "" with account_unusable set */
	char account[FS_PL_ACCOUNT];
	bool account_unusable;
	uint16_t ib_pkey; /* the account's P_Key (AccountIbPkeys), 0 none */
};

/* Name of a page size for paths and messages: "2m", "1g". */
const char *fs_pl_page_type(uint64_t page_kb);

/*
 * Parse FABSCHED_HUGEPAGES ("2m:0=256,2m:1=256", "2m:any=100", or ""),
 * checking it against count (FABSCHED_HUGEPAGES_COUNT, NULL when unset)
 * and against mem_kb (the machine's memory; 0: no check).  Known page
 * sizes only; pages 1..2^31; NUMA node 0..FS_PL_MAX_NODE or "any"; no
 * pair twice.
 */
int fs_pl_parse_hugepages(const char *s, const char *count, uint64_t mem_kb, struct fs_pl_job *job,
			  char *err, size_t errlen);

/*
 * SPANK_FABSCHED_HUGEPAGES_ASKED ("2m:8200,1g:4": the pages the job asked
 * per node, set by job_submit/fabsched; NULL or "": none): the job's
 * pages of each size named are cut to that many, taking the excess of
 * its whole gres units from its last pools first.  -1 with a message when
 * it asks more than the job holds, or is malformed.
 */
int fs_pl_trim_hugepages(const char *asked, struct fs_pl_job *job, char *err, size_t errlen);

/*
 * Read the job from an environment lookup (getenv, or a test's):
 * SLURM_JOB_ID, SLURM_JOB_UID, SLURM_JOB_GID (optional: the user's primary
 * group), FABSCHED_HUGEPAGES, FABSCHED_HUGEPAGES_COUNT,
 * FABSCHED_RDMA_DEVICES, FS_PL_SCRATCH_OPT_ENV (an error without
 * SPANK_FABSCHED_SCRATCH), SLURM_JOB_ACCOUNT (never an error: a value that
 * is not a mappable account name leaves job->account "" and sets
 * job->account_unusable).  job->ib_pkey is left 0 (fs_pl_job_pkey).
 */
int fs_pl_job_from_env(const char *(*get)(const char *), uint64_t mem_kb, struct fs_pl_job *job,
		       char *err, size_t errlen);

/* The --scratch option as the prolog sees it (the job's SPANK environment). */
#define FS_PL_SCRATCH_OPT_ENV "SPANK__SLURM_SPANK_OPTION_fabsched_scratch"

/*
 * The job's scratch volume, SPANK_FABSCHED_SCRATCH as job_submit/fabsched
 * set it ("200G,fs=xfs"; NULL or "": none), into job->scratch_gib/_fs.
 */
int fs_pl_parse_scratch(const char *s, struct fs_pl_job *job, char *err, size_t errlen);

/*
 * The job's P_Key from the AccountIbPkeys map (NULL: none) into
 * job->ib_pkey; 0 and no key when the account is not listed.
 */
int fs_pl_job_pkey(struct fs_pl_job *job, const char *map, char *err, size_t errlen);

/* FABSCHED_RDMA_DEVICES: HCA names [A-Za-z0-9_.-] with optional :<port>. */
/*
 * The calling process's locked-memory limit raised to unlimited, for a
 * task that registers RDMA memory.  Where even root may not raise the
 * hard limit (no CAP_SYS_RESOURCE, as in some containers), the soft limit
 * is raised to the hard one: RET 1, and err says so.  RET 0 when
 * unlimited, -1 with a message when neither could be set.
 */
int fs_pl_memlock_unlimited(char *err, size_t errlen);

int fs_pl_parse_rdma(const char *s, char *out, size_t outsz, char *err, size_t errlen);

/* A job id: digits only, 1..FS_PL_MAX_JOBID. */
/* A Slurm job SLUID ("s" and 13 of 0-9 A-Z without I L O U, as Slurm
 * prints it) into out[16].  RET 0, -1 with err naming the variable. */
int fs_pl_parse_sluid(const char *name, const char *s, char out[16], char *err, size_t errlen);
int fs_pl_parse_jobid(const char *name, const char *s, uint32_t *out, char *err, size_t errlen);

/* ------------------------------------------------------------ ledger */

enum fs_pl_pool_state {
	FS_PL_POOL_PLANNED = 0, /* recorded, nr_hugepages not touched yet */
	FS_PL_POOL_PENDING,	/* about to write nr_hugepages */
	FS_PL_POOL_HELD,	/* added pages are the job's */
	FS_PL_POOL_RELEASING,	/* about to write target */
	FS_PL_POOL_RELEASED,
};

enum fs_pl_mount_state {
	FS_PL_MOUNT_PLANNED = 0, /* directory/mount may exist */
	FS_PL_MOUNT_MOUNTED,
	FS_PL_MOUNT_GONE,
};

struct fs_pl_pool_rec {
	int node;
	uint64_t page_kb;
	uint64_t want;	 /* pages asked */
	uint64_t before; /* nr_hugepages before the job's write */
	uint64_t added;	 /* pages the job added (HELD, RELEASING) */
	uint64_t target; /* RELEASING: nr_hugepages being written */
	uint64_t give;	 /* RELEASING: pages being given back */
	int state;	 /* enum fs_pl_pool_state */
};

struct fs_pl_mount_rec {
	uint64_t page_kb;
	uint64_t bytes;
	int state; /* enum fs_pl_mount_state */
	char path[FS_PL_PATH];
};

enum fs_pl_scratch_state {
	FS_PL_SCRATCH_PLANNED = 0, /* recorded, nothing done yet */
	FS_PL_SCRATCH_CONNECTED,   /* ctrl is this node's controller */
	FS_PL_SCRATCH_CREATING,	   /* namespace being created: nsid unknown */
	FS_PL_SCRATCH_CREATED,	   /* nsid attached; dev may be known */
	FS_PL_SCRATCH_FORMATTED,   /* filesystem made on dev */
	FS_PL_SCRATCH_MOUNTED,	   /* mounted at path, handed to the user */
	FS_PL_SCRATCH_GONE,	   /* unmounted, discarded, deleted */
};

struct fs_pl_scratch_rec {
	int state; /* enum fs_pl_scratch_state; -1: no scratch */
	int fs;	   /* enum fs_scratch_fs */
	uint64_t gib;
	uint32_t nsid;	       /* 0: none */
	char ctrl[32];	       /* "nvme3", "" when none */
	char dev[64];	       /* "/dev/nvme3n2", "" when unknown */
	char path[FS_PL_PATH]; /* <ScratchBase>/<jobid> */
};

struct fs_pl_ledger {
	uint32_t jobid;
	uid_t uid;
	gid_t gid;
	char step[32]; /* last step the prolog completed */
	size_t npools;
	struct fs_pl_pool_rec pools[FS_PL_MAX_POOLS];
	size_t nmounts;
	struct fs_pl_mount_rec mounts[FS_PL_MAX_MOUNTS];
	int cg_version; /* 0 none, 1 or 2 */
	char cgroup[FS_PL_PATH];
	bool has_scratch;
	struct fs_pl_scratch_rec scratch;
};

/* Text form (one file per job) and back. */
int fs_pl_ledger_format(const struct fs_pl_ledger *l, char *buf, size_t bufsz);
int fs_pl_ledger_parse(const char *buf, struct fs_pl_ledger *l, char *err, size_t errlen);

/* ------------------------------------------------------------ NVMe-oF */

/* The scratch pool's target, as fabsched.conf and the node's files say. */
struct fs_pl_scratch_target {
	char transport[8]; /* "tcp", "rdma" */
	char traddr[64];
	char trsvcid[8];
	char subsysnqn[224];
	char hostnqn[224];
	char hostid[64];
};

/*
 * The seam around libnvme, the block device and the mount: everything the
 * scratch path does to the machine goes through one of these, so that unit
 * tests replay a fake target (tests/unit/test_prolog_scratch.c).  Each
 * returns 0, or -1 with a message.  fs_pl_nvme_ops_real() are the real
 * ones (libnvme; mkfs.xfs / mkfs.ext4 run with a fixed argv, no shell).
 */
struct fs_pl_nvme_ops {
	/* Connect this host to the target, or find its live controller to
	   it; ctrl receives the controller's name ("nvme3"). */
	int (*connect)(const struct fs_pl_scratch_target *t, char *ctrl, size_t ctrlsz, char *err,
		       size_t errlen);
	int (*disconnect)(const char *ctrl, char *err, size_t errlen);
	/* Namespace management: create bytes, attach it to ctrl. */
	int (*ns_create)(const char *ctrl, uint64_t bytes, uint32_t *nsid, char *err,
			 size_t errlen);
	/* The block device of namespace nsid under ctrl ("/dev/nvme3n2"). */
	int (*ns_blockdev)(const char *ctrl, uint32_t nsid, char *dev, size_t devsz, char *err,
			   size_t errlen);
	/* Detach from ctrl and delete; a namespace already gone is 0. */
	int (*ns_delete)(const char *ctrl, uint32_t nsid, char *err, size_t errlen);
	int (*discard)(const char *dev, char *err, size_t errlen);
	int (*mkfs)(const char *dev, int fs, char *err, size_t errlen);
	/* Mount dev on the directory open as dirfd (path for messages),
	   nosuid,nodev, then hand its root to uid:gid with mode 0700. */
	int (*mount)(const char *dev, int fs, int dirfd, const char *path, uid_t uid, gid_t gid,
		     char *err, size_t errlen);
	int (*umount)(const char *path, char *err, size_t errlen);
	/* 1 mounted, 0 not, -1 error */
	int (*is_mounted)(const char *path);
};

const struct fs_pl_nvme_ops *fs_pl_nvme_ops_real(void);

/* ------------------------------------------------------------ RDMA */

/* What the job's HCA ports must offer besides being ACTIVE. */
struct fs_pl_rdma_want {
	uint64_t rate;	     /* least rate in Mb/s (RdmaRate); 0: any */
	uint16_t pkey;	     /* P_Key the ports must hold; 0: none */
	const char *account; /* whose key it is, for messages */
	/* RoCE ports (link layer Ethernet) whose GID table names their net
	   device: that device up, its MTU at least roce_mtu (RoceMtu; 0:
	   any), and a RoCE v2 GID of the family RoceGidFamily names */
	bool roce_ipv6;
	unsigned roce_mtu;
	/* RocePfc: PFC on for the priority of the job's RoCE traffic (from
	   roce_tclass, RoceTrafficClass, or roce_sl, RoceServiceLevel; -1:
	   unset) where the net device has DCB, read by dcb_read (NULL:
	   fs_dcb_read; tests give their own) */
	bool roce_pfc;
	int roce_tclass, roce_sl;
	int (*dcb_read)(const char *ifname, struct fs_dcb *out, char *err, size_t errlen);
};

/* What the checks found. */
struct fs_pl_rdma_got {
	unsigned nports;   /* ports checked */
	unsigned inactive; /* of them, not ACTIVE */
	unsigned npkey;	   /* InfiniBand ports whose P_Key table held it */
	unsigned nroce;	   /* RoCE ports checked as above */
	unsigned npfc;	   /* of them, PFC found on for the job's priority */
	unsigned nodcb;	   /* of them, on a net device without DCB */
	int pkey_index;	   /* its index, the same in every such table;
				   -1: none, or the indexes differ */
	bool pkey_missing; /* the check failed because a port lacks the
				   account's P_Key: the job's account, not
				   the node, is at fault */
};

/* ------------------------------------------------------------ metrics */
/*
 * The node's figures across runs of the prolog and epilog, kept in
 * <StateDir>/metrics (under the helpers' lock) and written, when
 * MetricsTextfile is set, as Prometheus text for node_exporter's textfile
 * collector (a new file renamed over it): per helper a histogram of run
 * seconds and a count of failed runs; hugepage reservations short of the
 * pages asked; scratch volumes set up; HCA ports found not ACTIVE.
 */
#define FS_PL_METRICS_BUCKETS 10
struct fs_pl_metrics {
	uint64_t runs[2], failed[2]; /* [0] prolog, [1] epilog */
	double seconds[2];
	uint64_t bucket[2][FS_PL_METRICS_BUCKETS]; /* cumulative */
	uint64_t hugepages_short, scratch_set_up, ports_inactive;
};
extern const double fs_pl_metrics_le[FS_PL_METRICS_BUCKETS];
void fs_pl_metrics_add(struct fs_pl_metrics *mx, int helper, double secs, bool failed);
int fs_pl_metrics_read(struct fs_pl_metrics *mx, const char *text, char *err, size_t errlen);
void fs_pl_metrics_write_state(const struct fs_pl_metrics *mx, FILE *f);
void fs_pl_metrics_write_prom(const struct fs_pl_metrics *mx, FILE *f);
struct fs_pl_ctx;
/* Count one run of @helper (0 prolog, 1 epilog) that took @secs, with the
 * ctx's flags, and rewrite the textfile; logged, never fatal. */
void fs_pl_metrics_record(struct fs_pl_ctx *ctx, int helper, double secs, bool failed);

/* ------------------------------------------------------------ context */

struct fs_pl_ctx {
	const char *prog;	   /* for log lines */
	const char *state_dir;	   /* StateDir */
	const char *mount_base;	   /* HugepageMountBase */
	const char *sysfs_root;	   /* "" or a recorded tree (RDMA checks) */
	const char *cgroup_parent; /* NULL: Slurm's job cgroup locations;
				      else job cgroups are <it>/job_<id> */
	/* the job's SLUID (SLURM_JOB_SLUID, fs_pl_parse_sluid), "" unknown:
	   26.05's cgroup/v2 names job cgroups by it unless cgroup.conf says
	   CgroupJobIdPaths=yes; both names are looked for */
	char job_sluid[16];
	FILE *log;
	/* Test seam: called after each prolog step ("ledger", "reserve",
	   "mkdir", "mount", "cgroup", "done") and epilog step ("kill",
	   "umount", "cgroup", "release"); NULL in installed programs. */
	void (*checkpoint)(const char *step, void *arg);
	void *checkpoint_arg;
	/* Test seam: writes nr_hugepages instead of fs_pl_pool_set (e.g. to
	   make the kernel look short of pages); NULL in installed programs. */
	int (*pool_set)(int node, uint64_t page_kb, uint64_t n, char *err, size_t errlen);
	bool compacted; /* compact_memory written in this run */
	int lockfd;
	/* Scratch pool: base of the per-job mounts (ScratchBase), the target
	   (has_target false: no pool configured), the ops (NULL: the real
	   ones; a test's fake otherwise). */
	const char *scratch_base;
	bool has_target;
	struct fs_pl_scratch_target target;
	const struct fs_pl_nvme_ops *nvme;
	/* How a node whose set-up failed is drained with the precise reason
	   (the executables: fs_pl_drain_scontrol of prolog/slurm_cmds.c,
	   which runs scontrol; NULL: not drained, Slurm's own "Prolog
	   error"). */
	void (*drain)(const char *prog, uint32_t jobid, const char *err);
	/* Who a failed set-up is the fault of, said by the step that failed:
	   the node (the default: it is drained) or the job's own request
	   (a bad value, pages or a scratch volume more than can be had
	   now, an account without the port's P_Key): the node stays up
	   and the job is kept from running through @hold. */
	enum fs_pl_fault { FS_PL_FAULT_NODE = 0, FS_PL_FAULT_JOB } fault;
	/* How a job at fault is kept from running, with the reason where
	   its owner sees it (the executables: fs_pl_hold_scontrol of
	   prolog/slurm_cmds.c: AdminComment, requeuehold, else scancel);
	   0 when done; non-zero, or NULL: handled as a node fault. */
	int (*hold)(const char *prog, uint32_t jobid, const char *err);
	/* The sweep's question to Slurm: the ids of the jobs running on
	   @node, one a line, into *out (malloc'ed), through @query (the
	   administrator's --query command) when not NULL; returns the
	   command's exit status.  fabsched-sweep: fs_pl_squeue_running
	   (squeue); NULL: only --running is known. */
	int (*running_jobs)(const char *query, const char *node, char **out);
	char scratch_path[FS_PL_PATH]; /* out of fs_pl_prolog: "" none */
	/* Node metrics (MetricsTextfile; NULL: none), and what this run
	   counts toward them (set by the steps). */
	const char *metrics_file;
	struct timespec started; /* when the program started (CLOCK_MONOTONIC) */
	bool hugepages_short;	 /* a pool could not grow by the pages asked */
	bool scratch_set_up;	 /* a scratch volume was mounted */
	/* RDMA: least port rate in Mb/s (RdmaRate; 0: no rate check); out
	   of fs_pl_prolog: what the port checks found */
	uint64_t rdma_rate;
	struct fs_pl_rdma_got rdma_got;
	/* RoCE: RoceGidFamily=ipv6, RoceMtu (0: any), RocePfc with
	   RoceTrafficClass and RoceServiceLevel (-1: unset) */
	bool roce_ipv6;
	unsigned roce_mtu;
	bool roce_pfc;
	int roce_tclass, roce_sl;
	/* rdma cgroup limits per HCA of the job (RdmaMaxHcaHandles,
	   RdmaMaxHcaObjects): 0 unset ("max"); both 0: rdma.max untouched */
	uint32_t rdma_max_handles;
	uint32_t rdma_max_objects;
	bool verbose; /* LogLevel verbose or debug: notes logged too */
	/* Test seams of fs_pl_task_limits: NULL in installed programs.
	   proc_root stands for /proc; cgroup_root for the cgroup v2 mount,
	   <cgroup_root>/hugetlb for the v1 hugetlb one (default: the mount
	   points in /proc/self/mountinfo). */
	const char *proc_root;
	const char *cgroup_root;
	/* JobRecordDir (NULL: no records), JobRecordKeep in seconds */
	const char *record_dir;
	time_t record_keep;
};

void fs_pl_ctx_init(struct fs_pl_ctx *ctx, const char *prog);

/* ------------------------------------------------------------ job records */
/*
 * What a job got on this node, for `fabsched job` (JobRecordDir; record.c
 * has the layout and the text form).  fs_pl_record_node: the prolog's
 * record (HCAs with their NUMA node and CPUs from @locality, the
 * FABSCHED_RDMA_LOCALITY value, or job->rdma; hugepages per NUMA node,
 * mounts and scratch from ledger @l), into the job's directory, made the
 * owner's.  fs_pl_record_task: one task's line (@step "0", "batch", ...;
 * its CPUs and HCA), appended as the user; RET 1 (err says why) when the
 * job has no directory (no fabsched-prolog ran).  fs_pl_record_sweep: the
 * directories of jobs not in @running whose last change is older than
 * @keep seconds removed; RET how many, -1 with err.  No record dir: 0.
 */
int fs_pl_record_node(struct fs_pl_ctx *ctx, const struct fs_pl_job *job,
		      const struct fs_pl_ledger *l, const char *node, const char *locality,
		      char *err, size_t errlen);
int fs_pl_record_task(const char *dir, uint32_t jobid, const char *node, const char *step,
		      int local, int rank, const char *cpus, const char *hca, char *err,
		      size_t errlen);
long fs_pl_record_sweep(struct fs_pl_ctx *ctx, time_t keep, time_t now, const uint32_t *running,
			size_t nrunning, char *err, size_t errlen);
/* A Slurm node name usable as a file name: [A-Za-z0-9._-], 1..64, not
 * starting with '.' or '-'. */
bool fs_pl_node_name_ok(const char *s);
/*
 * The settings of fabsched.conf @cf into @ctx: StateDir, HugepageMountBase
 * and ScratchBase where ctx has none yet (a program's options win), the
 * metrics file, the NVMe-oF target, the RDMA rate and cgroup limits, the
 * log level; the start time.  RET 0, or -1 when a base is not absolute.
 */
struct fs_conf;
int fs_pl_ctx_conf(struct fs_pl_ctx *ctx, const struct fs_conf *cf, char *err, size_t errlen);
void fs_pl_log(struct fs_pl_ctx *ctx, uint32_t jobid, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Lock StateDir (created root-only when missing); unlock. */
int fs_pl_lock(struct fs_pl_ctx *ctx, char *err, size_t errlen);
void fs_pl_unlock(struct fs_pl_ctx *ctx);

/* Ledger files under <StateDir>/jobs (lock held). load: 1 when absent. */
int fs_pl_ledger_save(struct fs_pl_ctx *ctx, const struct fs_pl_ledger *l, char *err,
		      size_t errlen);
int fs_pl_ledger_load(struct fs_pl_ctx *ctx, uint32_t jobid, struct fs_pl_ledger *l, char *err,
		      size_t errlen);
int fs_pl_ledger_remove(struct fs_pl_ctx *ctx, uint32_t jobid, char *err, size_t errlen);
/* Job ids with a ledger (sorted); returns the count or -1. */
long fs_pl_ledger_list(struct fs_pl_ctx *ctx, uint32_t *ids, size_t max, char *err, size_t errlen);

/* ------------------------------------------------------------ actions */

/*
 * The prolog: undo what a ledger of the same job holds (a prolog that
 * died), then reserve, mount, limit, check RDMA.  On failure, everything
 * done is given back before returning -1.  mount_out receives the 2m
 * mount path (or the first one), "" when the job has no hugepages.
 */
int fs_pl_prolog(struct fs_pl_ctx *ctx, const struct fs_pl_job *job, char *mount_out,
		 size_t mount_sz, char *err, size_t errlen);

/*
 * Give back everything the ledger of jobid records; idempotent (no ledger:
 * 0).  uid (when not (uid_t)-1) must match the ledger's.  -1 when
 * something could not be given back (the ledger is then kept).
 */
int fs_pl_release(struct fs_pl_ctx *ctx, uint32_t jobid, uid_t uid, char *err, size_t errlen);

/*
 * Scratch (scratch.c): set up the job's volume, recording each step in l
 * (saved); give it back (idempotent, any state).  path_out receives the
 * mount path.
 */
int fs_pl_scratch_setup(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, char *path_out,
			size_t pathsz, char *err, size_t errlen);
int fs_pl_scratch_release(struct fs_pl_ctx *ctx, struct fs_pl_ledger *l, char *err, size_t errlen);
/* Read the host NQN and host ID files into t (validated). */
int fs_pl_scratch_host(const char *nqn_file, const char *id_file, struct fs_pl_scratch_target *t,
		       char *err, size_t errlen);

/* RDMA: every port named in list ("mlx5_0,mlx5_1:2") ACTIVE under root. */
int fs_pl_rdma_check(const char *sysfs_root, const char *list, char *err, size_t errlen);
/*
 * The same, and each port at want->rate (Mb/s) or faster, and want->pkey
 * in the P_Key table of each InfiniBand port (rdma.c; fabsched-prolog(8)).
 * got (may be NULL) receives what was found.
 */
int fs_pl_rdma_verify(const char *sysfs_root, const char *list, const struct fs_pl_rdma_want *want,
		      struct fs_pl_rdma_got *got, char *err, size_t errlen);
/*
 * rdma cgroup limits (rdmacg.c; fabsched-prolog(8)).  FS_PL_RDMA_MAX_LIMIT
 * is the largest count written; the kernel shows "max" above it.
 */
#define FS_PL_RDMA_MAX_LIMIT 2147483646U
/*
 * One line for rdma.max: "<hca> hca_handle=<handles> hca_object=<objects>",
 * each 0 written as "max".  hca: 1..63 bytes of [A-Za-z0-9_.-]; counts at
 * most FS_PL_RDMA_MAX_LIMIT.
 */
int fs_pl_rdma_max_line(const char *hca, uint32_t handles, uint32_t objects, char *buf,
			size_t bufsz, char *err, size_t errlen);
/*
 * Write ctx->rdma_max_handles/_objects to rdma.max of the job's cgroup
 * (v2), one line per HCA of list ("mlx5_0,mlx5_1:2": each HCA once, ports
 * ignored).  When the job cgroup does not offer the rdma controller but
 * its parent's cgroup.controllers lists it, "+rdma" is written to the
 * parent's cgroup.subtree_control first.  Returns 1 written, 0 nothing to
 * do (both limits unset, empty list, no job cgroup, cgroup v1, no rdma
 * controller, or the parent refuses to enable it: noted once in the log,
 * at LogLevel=verbose when the kernel has no controller), -1 on error (a
 * bad list, a path that is not a root-owned directory, a write the kernel
 * refuses).
 */
int fs_pl_rdma_limit(struct fs_pl_ctx *ctx, uint32_t jobid, uid_t uid, const char *list, char *err,
		     size_t errlen);

/*
 * The job's cgroup limits (jobcg.c; fabsched-prolog(8)), the one writer of
 * both the prolog and the SPANK plugin.  cg/version: the job's cgroup
 * directory ("<parent>/job_<id>") and its cgroup version.  Writes
 * hugetlb.<size>.max and .rsvd.max (v1: .limit_in_bytes) to the bytes of
 * each mounted page size of l (NULL: none), a value already there left as
 * it is, and rdma.max for the HCAs of rdma (NULL or "": none; v2 only) as
 * fs_pl_rdma_limit says.  cg and its parents must be root's directories,
 * no symbolic link (openat, O_NOFOLLOW).  Returns 1 when limits are set
 * (or were already), 0 when there was nothing to set or the cgroup lacks
 * the controller (logged), -1 on error (err).
 */
int fs_pl_cgroup_apply(struct fs_pl_ctx *ctx, uint32_t jobid, const char *cg, int version,
		       const struct fs_pl_ledger *l, const char *rdma, char *err, size_t errlen);
/*
 * The job cgroup of a task: <proc>/<pid>/cgroup, its cgroup v2 line
 * ("0::/.../job_<id>/step_0/...") or else its v1 hugetlb line, cut after
 * the job_<jobid> component, under the hierarchy's mount point.  1 found
 * (path, *version), 0 none (err says why), -1 error.
 */
int fs_pl_cgroup_of_pid(struct fs_pl_ctx *ctx, pid_t pid, uint32_t jobid, char *path, size_t pathsz,
			int *version, char *err, size_t errlen);
/*
 * From slurmstepd (the SPANK plugin, as root, the task pid in its cgroup):
 * the job's limits as the prolog sets them, for when the job's cgroup did
 * not exist yet when the prolog ran (Slurm 22.05).  The hugetlb limits are
 * the ledger's (ctx->state_dir; no StateDir or no ledger: none), which must
 * name uid; rdma: the job's FABSCHED_RDMA_DEVICES and ctx->rdma_max_*.
 * Returns as fs_pl_cgroup_apply; 0 also when the task is in no job cgroup
 * (err says why).
 */
int fs_pl_task_limits(struct fs_pl_ctx *ctx, uint32_t jobid, uid_t uid, pid_t pid, const char *rdma,
		      char *err, size_t errlen);

/*
 * The job's P_Key variables as "<prefix>NAME=value" lines:
 * FABSCHED_IB_PKEY (0x8001), UCX_IB_PKEY (the 15-bit partition, 0x0001),
 * OMPI_MCA_btl_openib_pkey (the same), NCCL_IB_PKEY (got->pkey_index,
 * only when >= 0).  Nothing when pkey is 0.
 */
void fs_pl_pkey_print(FILE *out, const char *prefix, uint16_t pkey,
		      const struct fs_pl_rdma_got *got);

/* ------------------------------------------------------------ system */

/* nr_hugepages of a pool (node FS_PL_NODE_ANY: the global one). */
int fs_pl_pool_get(int node, uint64_t page_kb, uint64_t *out, char *err, size_t errlen);
int fs_pl_pool_set(int node, uint64_t page_kb, uint64_t n, char *err, size_t errlen);
/* Is path a mount point in /proc/self/mountinfo? 1 yes, 0 no, -1 error. */
int fs_pl_is_mounted(const char *path);
/* MemTotal in KiB, 0 when unknown. */
uint64_t fs_pl_mem_kb(void);

/* Command-line entry points of the three programs (fabsched-prolog(8)). */
int fs_pl_main_prolog(int argc, char **argv, struct fs_pl_ctx *seam);
int fs_pl_main_epilog(int argc, char **argv, struct fs_pl_ctx *seam);
int fs_pl_main_sweep(int argc, char **argv, struct fs_pl_ctx *seam);

#endif /* FABSCHED_PROLOG_H */
