/*
 * fabsched_gres.h - node inventory for the gres plugins: NUMA nodes and
 * their CPUs (hwloc), PCI locality of HCAs and NVMe (hwloc OS devices),
 * InfiniBand HCAs and ports (sysfs, optionally libibverbs), hugepage pools
 * per NUMA node and page size (sysfs); and the builders that turn a set of
 * HCAs into job environment variables.
 *
 * No Slurm header; no global state; nothing here prints, exits or aborts.
 *
 * Conventions
 *  - Functions returning int: 0 on success, -1 on error.  On error a
 *    NUL-terminated message of at most errlen bytes is written to err (when
 *    err is not NULL), naming the path or value and the expected form:
 *        <path>: "<value>": <what is wrong>; expected <form>
 *    FS_MSG_SIZE is always enough.
 *  - CPU sets are Linux cpulist strings of OS (machine) CPU numbers, e.g.
 *    "0-7,16-23"; "" is the empty set.  They are what sysfs cpulist files,
 *    taskset -c and Slurm's machine CPU ranges use.
 *  - Paths: every sysfs path is <root>/sys/..., where root is the caller's
 *    sysfs root ("" or "/" for the running system, or a recorded tree).
 *  - Ownership: a struct fs_gres_inventory from fs_gres_inventory_load is
 *    the caller's, freed with fs_gres_inventory_free (everything in it
 *    belongs to it).  Strings returned by fs_cpulist_* are malloc'ed and
 *    the caller frees them.  struct fs_gres_env is cleared with
 *    fs_gres_env_clear.
 */
#ifndef FABSCHED_GRES_H
#define FABSCHED_GRES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fs_env.h"
#include "fs_err.h"
#include "fs_hugepages.h"

/* Environment variable naming a sysfs root (see gres_rdma(8)). */
#define FS_GRES_SYSFS_ENV FS_ENV_SYSFS_ROOT

/* ------------------------------------------------------------ inventory */

struct fs_gres_numa {
	int os_index;	 /* NUMA node number (nodeN) */
	char *cpus;	 /* its CPUs (cpulist of OS numbers) */
	unsigned ncores; /* cores in it */
	unsigned npus;	 /* CPUs (hardware threads) in it */
};

enum fs_gres_pci_kind {
	FS_GRES_PCI_HCA,  /* OpenFabrics OS device (mlx5_0, qib0) */
	FS_GRES_PCI_NVME, /* NVMe block device (nvme0n1) */
};

/* A device as hwloc places it. */
struct fs_gres_pcidev {
	enum fs_gres_pci_kind kind;
	char *name;  /* OS device name: mlx5_0, qib0, nvme0n1 */
	char *busid; /* PCI address dddd:bb:dd.f, or "" */
	char *numa;  /* local NUMA nodes, cpulist form: "1,3" */
	char *cpus;  /* the union of their CPUs (cpulist) */
};

enum fs_gres_port_state { /* /sys/class/infiniband/<d>/ports/<n>/state */
			  FS_PORT_NOP = 0,
			  FS_PORT_DOWN = 1,
			  FS_PORT_INIT = 2,
			  FS_PORT_ARMED = 3,
			  FS_PORT_ACTIVE = 4,
			  FS_PORT_ACTIVE_DEFER = 5,
};

struct fs_gres_port {
	unsigned num;	       /* port number (1..) */
	int state;	       /* enum fs_gres_port_state */
	char *state_name;      /* "ACTIVE", "DOWN", ... as in sysfs */
	int phys_state;	       /* 5 = LinkUp; -1 unknown */
	char *phys_state_name; /* "LinkUp", "Disabled", ... or "" */
	char *link_layer;      /* "InfiniBand", "Ethernet" or "" */
	char *rate;	       /* "100 Gb/sec (4X EDR)" or "" */
	unsigned rate_gbps;    /* leading number of rate, 0 unknown */
	unsigned lid;	       /* 0 when none */
	char *gid;	       /* gids/0 or "" */
	bool active;	       /* state ACTIVE */
	/* link layer Ethernet (RoCE): from the port's GID table (gids/<i>,
	 * gid_attrs/types/<i>, gid_attrs/ndevs/<i>) and its net device
	 * (/sys/class/net/<netdev>/{mtu,operstate}); -1, 0, "" when none, and
	 * the strings NULL when the link layer is not Ethernet */
	int gid_v2_ipv4;  /* index of the RoCE v2 GID of an IPv4 address */
	int gid_v2_ipv6;  /* of a global IPv6 address */
	unsigned ngid_v2; /* RoCE v2 GIDs in all */
	char *netdev;	  /* the net device of those GIDs */
	unsigned mtu;	  /* its MTU */
	char *operstate;  /* its operstate: "up", "down", ... */
};

struct fs_gres_hca {
	char *name;	      /* mlx5_0 */
	char *type;	      /* model from the name: mlx5, mlx4, qib, hfi1 */
	char *node_guid;      /* "0002:c903:00f1:2a30" or "" */
	char *uverbs;	      /* uverbs0, or "" when none */
	char *dev_path;	      /* /dev/infiniband/uverbs0, or "" */
	int numa_node;	      /* device/numa_node, -1 unknown */
	char *numa;	      /* local NUMA nodes (cpulist form) */
	char *cpus;	      /* local CPUs (cpulist); all CPUs when unknown */
	const char *locality; /* where cpus came from: "hwloc",
				   "sysfs numa_node", "sysfs local_cpulist",
				   "unknown" (static string) */
	size_t nports;
	struct fs_gres_port *ports;
	unsigned nactive; /* ports in state ACTIVE */
};

struct fs_gres_hugepool {
	int numa_node;	  /* NUMA node number */
	uint64_t page_kb; /* 2048, 1048576 */
	char type[16];	  /* "2m", "1g" (fs_hp_page_name) */
	uint64_t total;	  /* nr_hugepages */
	uint64_t free;	  /* free_hugepages */
};

struct fs_gres_inventory {
	char *cpus; /* every CPU of the machine (cpulist) */
	unsigned npus, ncores;
	size_t nnuma;
	struct fs_gres_numa *numa; /* ordered by os_index */
	size_t npci;
	struct fs_gres_pcidev *pci; /* HCAs and NVMe, hwloc order */
	size_t nhca;
	struct fs_gres_hca *hca; /* ordered by name */
	size_t npools;
	struct fs_gres_hugepool *pools; /* by NUMA node, then page size */
	bool verbs_checked;		/* libibverbs was asked */
};

/* What to read. */
enum {
	FS_GRES_TOPO = 1 << 0,	    /* hwloc: NUMA, CPUs, PCI locality */
	FS_GRES_HCA = 1 << 1,	    /* sysfs InfiniBand */
	FS_GRES_HUGEPAGES = 1 << 2, /* sysfs hugepage pools */
	FS_GRES_VERBS = 1 << 3,	    /* cross-check with libibverbs when
					   built with it (running system only) */
	FS_GRES_ALL = 0xf,
};

struct fs_gres_opts {
	const char *sysfs_root; /* NULL or "" or "/": the running system */
	const char *hwloc_xml;	/* NULL: hwloc's default (which honours
				   HWLOC_XMLFILE); else this XML file */
	unsigned what;		/* FS_GRES_* bits; 0 means FS_GRES_ALL */
};

/*
 * Read the node's inventory.  With FS_GRES_HCA and no FS_GRES_TOPO, HCA
 * locality comes from sysfs only.  A sysfs tree without
 * /sys/class/infiniband is a node without HCA (nhca 0, not an error); one
 * without per-node hugepage directories has no pools.  Malformed values
 * are errors.
 */
int fs_gres_inventory_load(const struct fs_gres_opts *opts, struct fs_gres_inventory **out,
			   char *err, size_t errlen);
void fs_gres_inventory_free(struct fs_gres_inventory *inv);

/* Parts, for callers that need one concern only (same conventions). */
int fs_gres_topo_load(const char *hwloc_xml, struct fs_gres_inventory *inv, char *err,
		      size_t errlen);
int fs_gres_hca_scan(const char *root, struct fs_gres_inventory *inv, char *err, size_t errlen);
/* NUMA nodes and their CPUs from sysfs (inv->numa), without hwloc. */
int fs_gres_sysfs_numa(const char *root, struct fs_gres_inventory *inv, char *err, size_t errlen);
int fs_gres_hugepages_scan(const char *root, struct fs_gres_inventory *inv, char *err,
			   size_t errlen);
/* Fills hca->cpus/numa/locality from inv's topology and sysfs. */
int fs_gres_hca_locate(const char *root, struct fs_gres_inventory *inv, char *err, size_t errlen);

/* Lookups (NULL when absent). */
const struct fs_gres_hca *fs_gres_hca_find(const struct fs_gres_inventory *inv, const char *name);
/* The HCA whose uverbs device is dev ("uverbs0" or "/dev/infiniband/uverbs0"). */
const struct fs_gres_hca *fs_gres_hca_by_uverbs(const struct fs_gres_inventory *inv,
						const char *dev);
const struct fs_gres_numa *fs_gres_numa_find(const struct fs_gres_inventory *inv, int os_index);

/*
 * Validate a sysfs root: NULL/""/"/" are the running system; anything
 * else must be an absolute path to a directory holding sys/.  "%h" in it
 * is replaced by host (the short host name; NULL: this machine's).  On success *out is a
 * malloc'ed normalized root ("" for the running system).
 */
int fs_gres_sysfs_root(const char *spec, const char *host, char **out, char *err, size_t errlen);

/* ------------------------------------------------------------ cpulists */

/*
 * Parse a cpulist into *bits (malloc'ed, *n bytes each 0 or 1, n = the
 * highest CPU + 1; an empty list gives *bits NULL and *n 0).  CPU numbers
 * above FS_CPULIST_MAX are refused.
 */
#define FS_CPULIST_MAX 65535
int fs_gres_cpulist_parse(const char *list, unsigned char **bits, size_t *n, char *err,
			  size_t errlen);
/* Format n flags as a cpulist (malloc'ed; "" when none set); NULL: ENOMEM. */
char *fs_gres_cpulist_format(const unsigned char *bits, size_t n);
/* Number of CPUs in a list, -1 when malformed. */
long fs_gres_cpulist_count(const char *list);
/* CPUs in both lists, -1 when one is malformed. */
long fs_gres_cpulist_overlap(const char *a, const char *b);
/* Union of two lists (malloc'ed), NULL when malformed or out of memory. */
char *fs_gres_cpulist_union(const char *a, const char *b);

/*
 * A GRES's core affinity as Slurm accepts it, in place over the abstract
 * cores cores[0..sockets*per-1] (0/1 each): every socket it touches taken
 * whole (Slurm 23.02 and later refuse a node whose GRES covers part of a
 * socket); and where @one_socket (25.11 and later, which refuse any
 * affinity but one socket or every core), widened to every core when it
 * spans several sockets.  RET 1 when changed, 0 when kept, -1 on bad
 * arguments.
 */
int fs_gres_socket_cores(unsigned char *cores, int sockets, int per, bool one_socket);

/*
 * The candidate nearest to a task: the one whose CPUs overlap task_cpus
 * most; among k equals, the (spread mod k)-th in index order, so that the
 * tasks of a node (spread = their local task id) share equally near
 * candidates out.  *pick is that index, or n when no candidate shares a
 * CPU with the task (or n is 0): the caller then keeps them all.  -1 with
 * a message when a list is malformed.
 */
int fs_gres_pick_nearest(const char *task_cpus, const char *const *cand, size_t n, unsigned spread,
			 size_t *pick, char *err, size_t errlen);

/*
 * The CPUs the calling thread may run on (sched_getaffinity), as a
 * cpulist (malloc'ed); NULL with a message on failure.
 */
char *fs_gres_task_cpus(char *err, size_t errlen);

/* ------------------------------------------------------------ environment */

/*
 * What a job on a RoCE HCA is told beyond the HCA's name: the RoCE v2 GID
 * table index to use (-1: the port has none of the address family
 * fabsched.conf's RoceGidFamily asks), the HCA's net device, and the
 * traffic class and service level of its traffic (RoceTrafficClass,
 * RoceServiceLevel; -1: not set).  netdev "": not a RoCE HCA.
 */
struct fs_gres_roce {
	int gid;
	char netdev[16];
	int tc, sl;
};

/* fabsched.conf's RoCE keys, as slurmd read them. */
struct fs_gres_roce_conf {
	bool ipv6;  /* RoceGidFamily=ipv6 */
	int tc, sl; /* -1: not set */
};

/* One HCA as the environment names it. */
struct fs_gres_rdma_dev {
	const char *name;      /* mlx5_0 */
	const unsigned *ports; /* active ports */
	size_t nports;
	const char *cpus;		 /* its local CPUs (cpulist, "" unknown), or
				   NULL: no FABSCHED_RDMA_LOCALITY */
	const struct fs_gres_roce *roce; /* NULL: not a RoCE HCA */
};

#define FS_GRES_ENV_MAX 16
struct fs_gres_env {
	size_t n;
	char *name[FS_GRES_ENV_MAX];
	char *value[FS_GRES_ENV_MAX];
	/* variables to unset (fs_gres_rdma_task_env; static strings) */
	size_t nunset;
	const char *unset[FS_GRES_ENV_MAX];
};

/*
 * The variables for a set of HCAs (those given to the job, step or task):
 *   UCX_NET_DEVICES                  mlx5_0:1,mlx5_1:1
 *   NCCL_IB_HCA                      =mlx5_0:1,mlx5_1:1
 *   OMPI_MCA_btl_openib_if_include   mlx5_0:1,mlx5_1:1
 *   FABSCHED_RDMA_DEVICES            mlx5_0,mlx5_1
 * and, when every device has cpus (not NULL), the HCAs with their local
 * CPUs, from which each task picks its own (fs_gres_rdma_task_env):
 *   FABSCHED_RDMA_LOCALITY           mlx5_0:1=0-19;mlx5_1:1=20-39
 * An HCA without active port is named without port (mlx5_0).  Names that
 * are not [A-Za-z0-9_.-]+ are refused.  env must be zeroed or cleared.
 * When RoCE HCAs are among them (roce with a netdev), also:
 *   NCCL_IB_GID_INDEX, UCX_IB_GID_INDEX   3 (when every RoCE HCA of the
 *                                   set has that index; otherwise unset,
 *                                   and each task gets its HCA's)
 *   NCCL_SOCKET_IFNAME               =ens1f0np0,ens2f0np0 (exact names)
 *   NCCL_IB_TC, UCX_IB_TRAFFIC_CLASS the traffic class, when set
 *   NCCL_IB_SL, UCX_IB_SL            the service level, when set
 * and each RoCE HCA's entry of FABSCHED_RDMA_LOCALITY carries them:
 *   mlx5_0:1@3,ens1f0np0,106,3=0-19  (gid,netdev,tc,sl; -1 not set)
 */
int fs_gres_rdma_env(const struct fs_gres_rdma_dev *devs, size_t n, struct fs_gres_env *env,
		     char *err, size_t errlen);
/* Names of the variables fs_gres_rdma_env sets for every set of HCAs
 * (NULL-terminated); a step without HCA has none of them. */
extern const char *const fs_gres_rdma_env_names[];
/* Those it sets for RoCE HCAs only (NULL-terminated); left as they are
 * for a step without RoCE HCA. */
extern const char *const fs_gres_roce_env_names[];
void fs_gres_env_clear(struct fs_gres_env *env);

/* ------------------------------------------------------------ per task */

#define FS_GRES_RDMA_LOCALITY_ENV FS_ENV_RDMA_LOCALITY
#define FS_GRES_RDMA_MAX 64 /* HCAs in one FABSCHED_RDMA_LOCALITY */
#define FS_GRES_PORTS_MAX 8 /* ports of one HCA in it */

/* A parsed FABSCHED_RDMA_LOCALITY; dev[] points into the other members. */
struct fs_gres_rdma_set {
	size_t n;
	struct fs_gres_rdma_dev dev[FS_GRES_RDMA_MAX];
	char name[FS_GRES_RDMA_MAX][64];
	unsigned ports[FS_GRES_RDMA_MAX][FS_GRES_PORTS_MAX];
	struct fs_gres_roce roce[FS_GRES_RDMA_MAX];
	char *cpus[FS_GRES_RDMA_MAX]; /* malloc'ed */
};

/*
 * Parse a FABSCHED_RDMA_LOCALITY value:
 *   <hca>[:<port>[,<port>...]]=<cpulist>[;...]
 * e.g. "mlx5_0:1=0-19;mlx5_2:1=20-39" (an empty cpulist is an HCA of
 * unknown locality).  set must be zeroed; clear it with
 * fs_gres_rdma_set_clear, also after an error.
 */
int fs_gres_rdma_locality_parse(const char *value, struct fs_gres_rdma_set *set, char *err,
				size_t errlen);
void fs_gres_rdma_set_clear(struct fs_gres_rdma_set *set);

/*
 * One task's variables (UCX_NET_DEVICES, NCCL_IB_HCA,
 * OMPI_MCA_btl_openib_if_include, FABSCHED_RDMA_DEVICES) from its step's
 * FABSCHED_RDMA_LOCALITY and the task's CPUs: the HCA whose CPUs overlap
 * the task's most (among k equals, the (spread mod k)-th listed: spread
 * is the task's local id, so tasks share equally near HCAs out), or every
 * HCA of the step when none shares a CPU with the task.  The RoCE
 * variables the step's HCAs give and the task's do not (an InfiniBand HCA
 * picked on a node with RoCE ones too) are in env->unset: the task must
 * not keep the step's.  env must be zeroed or cleared.
 */
/* The same for the calling task: its CPUs (into *cpus, malloc'ed, NULL on
 * failure) and its local id @localid (SLURM_LOCALID; NULL, "" or not a
 * number: 0).  -1 with a message on failure. */
int fs_gres_rdma_task(const char *locality, const char *localid, struct fs_gres_env *env,
		      char **cpus, char *err, size_t errlen);
int fs_gres_rdma_task_env(const char *locality, const char *task_cpus, unsigned spread,
			  struct fs_gres_env *env, char *err, size_t errlen);

/* ------------------------------------------------------------ hugepages */

/*
 * Slurm 22.05 keeps one bit per unit of a gres whose records have File=,
 * and at most 1024 units per node and gres (MAX_GRES_BITMAP in its
 * src/common/gres.c).
 */
#define FS_GRES_MAX_INDEXED 1024

/* One gres/hugepages record: a pool counted in units of per_unit pages. */
struct fs_gres_huge_rec {
	int numa_node;
	uint64_t page_kb;
	char type[32];	   /* "2m" (per_unit 1) or "2mx8" */
	uint64_t per_unit; /* pages per unit: 1, 2, 4, ... */
	uint64_t units;	   /* the record's Count */
	uint64_t left;	   /* pages of the pool beyond whole units */
};

/*
 * The records for a node's pools (pools without pages get none; a pool
 * smaller than its unit gets one with units 0, its pages in left): a page
 * size @fixed names (fabsched.conf HugepageUnits; NULL: none) is counted
 * in its unit; any other in pages while the node's units, all sizes
 * together, are at most max_units; otherwise the unit of the page size
 * with the most units (equals: the smaller page) doubles until they are.
 * *out (malloc'ed, *nout entries, NULL when 0) is the caller's.  -1 with a
 * message when even one page per pool would not fit, or the fixed units
 * make too many (the message names the least units that would do).
 */
int fs_gres_huge_plan(const struct fs_gres_hugepool *pools, size_t npools, uint64_t max_units,
		      const struct fs_hp_units *fixed, struct fs_gres_huge_rec **out, size_t *nout,
		      char *err, size_t errlen);

/* ------------------------------------------------------------ unit table */

/*
 * What each gres index of a node is, for the gres plugins: a run of
 * indices [first, first + count) given by one record, and what it names.
 * Kept by slurmd, handed to slurmstepd in its text form.  Ownership: the
 * table's; fs_gres_units_clear frees it (a zeroed table is empty).
 */
struct fs_gres_unit {
	uint64_t first, count;
	char label[64];		  /* rdma: HCA name; hugepages: gres type */
	int numa;		  /* hugepages: NUMA node, -1 unknown */
	uint64_t page_kb;	  /* hugepages: page size (0 unknown type) */
	uint64_t per_unit;	  /* hugepages: pages per gres unit */
	char ports[64];		  /* rdma: active ports "1,2", or "" */
	char *cpus;		  /* machine CPUs (cpulist), malloc'ed */
	struct fs_gres_roce roce; /* rdma: a RoCE HCA's (netdev "": none) */
};

struct fs_gres_units {
	struct fs_gres_unit *u;
	size_t n;
};

void fs_gres_units_clear(struct fs_gres_units *t);
/* A new zeroed unit (numa -1, per_unit 1) at the end; NULL out of memory. */
struct fs_gres_unit *fs_gres_units_add(struct fs_gres_units *t);
/* hugepages: page_kb and per_unit from the unit's label (its gres type);
 * -1 with a message (both then unknown: 0 and 1) when not a type. */
int fs_gres_unit_huge_type(struct fs_gres_unit *u, char *err, size_t errlen);
/* The unit holding gres index @index, NULL none. */
const struct fs_gres_unit *fs_gres_units_of(const struct fs_gres_units *t, uint64_t index);
/* The text form, one line per unit (malloc'ed, "" when empty; NULL out of
 * memory), and back (@huge: the hugepages plugin's, types parsed); -1 with
 * a message (the table then empty). */
char *fs_gres_units_format(const struct fs_gres_units *t);
int fs_gres_units_parse(struct fs_gres_units *t, const char *s, bool huge, char *err,
			size_t errlen);

/*
 * FABSCHED_HUGEPAGES of a job on this node: held[i] units of t->u[i]
 * (NULL: records without File=, @cnt units of the node's one type, on any
 * NUMA node), in pages whatever the units count in: *value
 * "2m:0=256,1g:8=2" or "2m:any=512" (malloc'ed, NULL when none) and
 * *total the pages (the FABSCHED_HUGEPAGES_COUNT).  The prolog reads it
 * with fs_pl_parse_hugepages.  -1 with a message when the page size of
 * @cnt units is unknown (*total then the units).
 */
int fs_gres_huge_value(const struct fs_gres_units *t, const uint64_t *held, uint64_t cnt,
		       char **value, uint64_t *total, char *err, size_t errlen);

/* rdma: the devices of the allocated gres indices (held[i] != 0 for index
 * i < nheld), in index order, for fs_gres_rdma_env.  RET how many. */
struct fs_gres_rdma_sel {
	size_t n;
	struct fs_gres_rdma_dev dev[FS_GRES_RDMA_MAX];
	unsigned ports[FS_GRES_RDMA_MAX][FS_GRES_PORTS_MAX];
};
size_t fs_gres_rdma_devs(const struct fs_gres_units *t, const uint8_t *held, size_t nheld,
			 struct fs_gres_rdma_sel *s);

/* ------------------------------------------------ slurmd's records */

/* Why slurmd keeps the configured records instead of autodetecting
 * (gres.conf's AutoDetect=off, records with File= or Cores=, no
 * inventory); NULL: autodetect. */
const char *fs_gres_autodetect_skip(bool off, int explicit_recs, bool inv);
/* A record's machine CPUs as slurmd takes them: those below @cpu_cnt, in
 * *range (malloc'ed cpulist; NULL when none is left), *dropped the
 * others.  -1 with a message when @cpus is not a cpulist. */
int fs_gres_clip_cpus(const char *cpus, uint32_t cpu_cnt, char **range, size_t *dropped, char *err,
		      size_t errlen);
/* Slurm's abstract core range @cores ("0-3,8") of a node of @sockets x
 * @per cores, widened as fs_gres_socket_cores says: RET 1 with *wide
 * (malloc'ed range), 0 when kept, -1 on bad input. */
int fs_gres_widen_cores(const char *cores, int sockets, int per, bool one, char **wide);
/* Why an HCA gets no gres/rdma record (no ACTIVE port, no uverbs
 * device); NULL: it gets one. */
const char *fs_gres_hca_skip(const struct fs_gres_hca *h);
/* Its ports that are not counted (not ACTIVE), and its active RoCE ports
 * (fs_gres_roce_note), one line each into notes[0..max-1]; RET how many. */
size_t fs_gres_hca_notes(const struct fs_gres_hca *h, char notes[][FS_MSG_SIZE], size_t max);
/* What an Ethernet port offers RoCE, in one line: "mlx5_0 port 1: RoCE on
 * ens1f0np0 (MTU 9000, up): RoCE v2 GID index 3 for IPv4, 5 for IPv6". */
void fs_gres_roce_note(const struct fs_gres_hca *h, const struct fs_gres_port *pt, char *buf,
		       size_t size);
/* The unit of one rdma device file @file of a record: the HCA's name,
 * active ports and local CPUs, and for a RoCE HCA (its first active port
 * on Ethernet) its net device, the RoCE v2 GID of the family @rc asks and
 * rc's traffic class and service level; for a file of no known HCA its
 * base name and @rec_cpus (the record's cores, or NULL).  RET true when
 * the HCA is known. */
bool fs_gres_rdma_unit_set(struct fs_gres_unit *u, const struct fs_gres_inventory *inv,
			   const char *file, const char *rec_cpus,
			   const struct fs_gres_roce_conf *rc);
/* The unit of a gres/hugepages record of File= @file and Type= @type:
 * its NUMA node from the file's /node<N>, page size and unit from the
 * type; -1 with a message when the type is none (fs_gres_unit_huge_type). */
int fs_gres_huge_unit_set(struct fs_gres_unit *u, const char *file, const char *type, char *err,
			  size_t errlen);
/* The units of each t->u[i] that an allocation holds: held[i] (t->n of
 * them) counts the bits[k] != 0 of its indices k < nbits. */
void fs_gres_units_held(const struct fs_gres_units *t, const uint8_t *bits, size_t nbits,
			uint64_t *held);
/*
 * A node's gres/hugepages records (fs_gres_huge_plan of its pools): in
 * the cluster's units @fixed (HugepageUnits) when they fit; else, with
 * the reason in @warn and fixed->n set to 0, in units of its own.  RET 0,
 * or -1 with a message.  *recs is the caller's to free.
 */
int fs_gres_huge_node_plan(const struct fs_gres_inventory *inv, struct fs_hp_units *fixed,
			   struct fs_gres_huge_rec **recs, size_t *nrecs, char *warn, size_t warnsz,
			   char *err, size_t errlen);
/* A hugepages record's File= (the pool's sysfs directory) into @file, and
 * what to tell of it (counted in units, pages short of a unit) into
 * notes[0..1]; RET how many notes. */
size_t fs_gres_huge_rec_notes(const struct fs_gres_huge_rec *r, const struct fs_hp_units *fixed,
			      char notes[][FS_MSG_SIZE], char *file, size_t filesz);

#endif /* FABSCHED_GRES_H */
