/*
 * conf_keys.c - the fabsched.conf schema: one row per key (name, scope,
 * type, default, range, fallback, documentation), and its lookups.
 * See fabsched_conf.h and fabsched.conf(5).
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf_private.h"
#include "fs_hugepages.h"
#include "fs_ib.h"

/* ------------------------------------------------------------ value checks */

static const char *_esc(char *buf, size_t bufsz, const char *s)
{
	return fs_escape(buf, bufsz, s, strlen(s));
}

/* An IP address of the NVMe-oF target (the characters of IPv4 and IPv6). */
static int _check_traddr(const char *key, const char *text, uint64_t u, char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE];

	(void)u;
	for (const char *c = text; *c; c++)
		if (!strchr("0123456789abcdefABCDEF.:", *c))
			return fs_errf(
				err, errlen,
				"%s=%s: not an IP address; expected an IPv4 or IPv6 address of the NVMe-oF target",
				key, _esc(esc, sizeof(esc), text));
	return 0;
}

/* An NQN: "nqn." then printable ASCII, at most 223 bytes (NVMe base spec). */
static int _check_nqn(const char *key, const char *text, uint64_t u, char *err, size_t errlen)
{
	size_t n = strlen(text);
	char esc[FS_ESCAPE_SIZE];
	bool ok = n >= 5 && n <= 223 && !strncmp(text, "nqn.", 4);

	(void)u;
	for (const char *c = text; ok && *c; c++)
		ok = *c > 0x20 && *c < 0x7f;
	if (!ok)
		return fs_errf(
			err, errlen,
			"%s=%s: not an NQN; expected nqn.<yyyy-mm>.<reverse domain>:<name>, printable, at most 223 bytes",
			key, _esc(esc, sizeof(esc), text));
	return 0;
}

static int _check_capacity(const char *key, const char *text, uint64_t u, char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE];

	if (u < (1ULL << 30))
		return fs_errf(err, errlen,
			       "%s=%s: less than 1 GiB; expected the pool's size, e.g. 4T", key,
			       _esc(esc, sizeof(esc), text));
	return 0;
}

/* RdmaRate and AccountIbPkeys in the forms the prolog reads (fs_ib.h). */
static int _check_rate(const char *key, const char *text, uint64_t u, char *err, size_t errlen)
{
	uint64_t mbps;

	(void)u;
	return fs_parse_rate(key, text, &mbps, err, errlen);
}

static int _check_hp_units(const char *key, const char *text, uint64_t u, char *err, size_t errlen)
{
	struct fs_hp_units units;

	(void)u;
	return fs_hp_units_parse(key, text, &units, err, errlen);
}

/* An HCA device name: letters, digits, '_', '.', '-', at most 63. */
static int _check_hca(const char *key, const char *text, uint64_t u, char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE];
	size_t n = strlen(text);
	bool ok = n > 0 && n < 64;

	(void)u;
	for (const char *c = text; ok && *c; c++)
		ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		     (*c >= '0' && *c <= '9') || strchr("_.-", *c);
	if (!ok)
		return fs_errf(
			err, errlen,
			"%s=%s: not an HCA name; expected a device name such as mlx5_0 (letters, digits, _ . -, at most 63)",
			key, _esc(esc, sizeof(esc), text));
	return 0;
}

/* A watch interval: 1 s to a day. */
static int _check_interval(const char *key, const char *text, uint64_t u, char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE];

	if (!u || u > 86400)
		return fs_errf(
			err, errlen,
			"%s=%s: expected 1 second to 1 day in Slurm time format, e.g. 1:00 (a minute) or 0:30",
			key, _esc(esc, sizeof(esc), text));
	return 0;
}

static int _check_pkeys(const char *key, const char *text, uint64_t u, char *err, size_t errlen)
{
	(void)u;
	return fs_pkey_map_find(key, text, NULL, NULL, err, errlen) < 0 ? -1 : 0;
}

static int _check_err_limits(const char *key, const char *text, uint64_t u, char *err,
			     size_t errlen)
{
	(void)u;
	return fs_ib_parse_err_limits(key, text, NULL, err, errlen);
}

/*
 * The schema.  Adding a key is adding a row here (and its paragraph in
 * doc/fabsched.conf.5; the unit tests check that every key is documented).
 */
const struct fs_conf_key fsc_keys[] = {
	/* global keys */
	{ .name = "FabricModel",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .def = FS_SLURM_CONFDIR "/fabsched/fabric.json",
	  .doc = "fabric model JSON file (switches, links, racks) read by "
		 "the controller plugins" },
	{ .name = "NodeNameMap",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .doc = "file mapping HCA node descriptions to Slurm node names" },
	{ .name = "RackMap",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .doc = "file assigning leaf switches or nodes to racks" },
	{ .name = "LogLevel",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_ENUM,
	  .def = "info",
	  .values = "quiet|info|verbose|debug",
	  .doc = "how much the plugins and helpers log" },
	{ .name = "StateDir",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .def = "/var/lib/fabsched",
	  .doc = "directory for state kept across restarts (node ledgers, "
		 "model cache)" },
	{ .name = "HugepageMountBase",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .def = "/dev/hugepages-fabsched",
	  .doc = "directory under which per-job hugetlbfs mounts are made" },
	{ .name = "HugepageUnits",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_STRING,
	  .check = _check_hp_units,
	  .doc = "pages per gres/hugepages unit of each page size on every "
		 "node (2m:64,1g:1: Type=2mx64 and 1g), so that one request "
		 "in pages fits mixed nodes; unset: each node the least unit "
		 "that fits Slurm's 1024 per node" },
	{ .name = "MetricsTextfile",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .doc = "file the prolog and epilog keep the node's figures in, as "
		 "Prometheus text for node_exporter's textfile collector "
		 "(e.g. /var/lib/prometheus/node-exporter/fabsched.prom); "
		 "unset: none" },
	{ .name = "JobRecordDir",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .doc = "directory where each node's prolog and the job's tasks "
		 "record what the job got there, for `fabsched job` (on a "
		 "filesystem the nodes share with where it runs); unset: none" },
	{ .name = "JobRecordKeep",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_UINT,
	  .def = "7",
	  .min = 1,
	  .max = 3650,
	  .doc = "days the records of a job are kept after its last change "
		 "(fabsched-sweep removes older ones)" },
	{ .name = "ScratchBase",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .def = "/scratch",
	  .doc = "directory under which per-job scratch volumes are mounted" },
	{ .name = "ScratchTransport",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_ENUM,
	  .def = "tcp",
	  .values = "tcp|rdma",
	  .doc = "NVMe-oF transport to the scratch pool's target" },
	{ .name = "ScratchTraddr",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_STRING,
	  .check = _check_traddr,
	  .with = "ScratchSubsysNQN",
	  .with_why = "both (the scratch pool's target) or neither (no scratch pool)",
	  .doc = "address of the scratch pool's NVMe-oF target (IP address); "
		 "unset: no scratch pool" },
	{ .name = "ScratchTrsvcid",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_UINT,
	  .def = "4420",
	  .min = 1,
	  .max = 65535,
	  .doc = "port of the scratch pool's NVMe-oF target" },
	{ .name = "ScratchSubsysNQN",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_STRING,
	  .check = _check_nqn,
	  .with = "ScratchTraddr",
	  .with_why = "both (the scratch pool's target) or neither (no scratch pool)",
	  .doc = "NVMe subsystem NQN of the scratch pool (nqn.yyyy-mm.domain:...)" },
	{ .name = "ScratchHostNQNFile",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .def = "/etc/nvme/hostnqn",
	  .doc = "file holding this node's NVMe host NQN (each node its own)" },
	{ .name = "ScratchHostIDFile",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_PATH,
	  .def = "/etc/nvme/hostid",
	  .doc = "file holding this node's NVMe host ID (a UUID)" },
	{ .name = "ScratchCapacity",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_SIZE,
	  .check = _check_capacity,
	  .doc = "capacity of the scratch pool, as slurm.conf's "
		 "Licenses=scratch:<GiB> counts it" },
	{ .name = "RdmaRate",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_STRING,
	  .check = _check_rate,
	  .doc = "least rate in Gb/s (e.g. 100) of every HCA port allocated "
		 "to a job, checked by the prolog; unset: no rate check" },
	{ .name = "AccountIbPkeys",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_STRING,
	  .check = _check_pkeys,
	  .doc = "InfiniBand partition key per Slurm account "
		 "(chem:0x8001,physics:0x8002): checked in the job's HCA ports "
		 "by the prolog and exported to the job" },
	{ .name = "RdmaMaxHcaHandles",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_UINT,
	  .min = 1,
	  .max = 2147483646,
	  .doc = "most HCA handles (open device contexts) a job may hold on "
		 "each of its HCAs, written by the prolog to the job cgroup's "
		 "rdma.max (cgroup v2 with the rdma controller); unset: no "
		 "limit" },
	{ .name = "RdmaMaxHcaObjects",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_UINT,
	  .min = 1,
	  .max = 2147483646,
	  .doc = "most HCA objects (queue pairs, memory regions, ...) a job "
		 "may create on each of its HCAs, written to the job cgroup's "
		 "rdma.max like RdmaMaxHcaHandles; unset: no limit" },
	{ .name = "RoceGidFamily",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_ENUM,
	  .def = "ipv4",
	  .values = "ipv4|ipv6",
	  .doc = "which RoCE v2 GID of a RoCE HCA's port a job is given "
		 "(NCCL_IB_GID_INDEX, UCX_IB_GID_INDEX): that of the port's "
		 "IPv4 address, or of its global IPv6 address" },
	{ .name = "RoceTrafficClass",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_UINT,
	  .min = 0,
	  .max = 255,
	  .doc = "traffic class of a job's RoCE traffic (the IP header's "
		 "DSCP and ECN bits: DSCP 26 is 104, or 106 with ECN), given to "
		 "jobs on RoCE HCAs as NCCL_IB_TC and UCX_IB_TRAFFIC_CLASS, so "
		 "that it lands in the switches' lossless (PFC) class; unset: "
		 "none given" },
	{ .name = "RoceServiceLevel",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_UINT,
	  .min = 0,
	  .max = 7,
	  .doc = "service level of a job's RoCE traffic (its VLAN priority), "
		 "given to jobs on RoCE HCAs as NCCL_IB_SL and UCX_IB_SL; "
		 "unset: none given" },
	{ .name = "RoceMtu",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_UINT,
	  .min = 68,
	  .max = 65535,
	  .doc = "least MTU of the net device of each RoCE port allocated to "
		 "a job, checked by the prolog (e.g. 9000 where the fabric runs "
		 "jumbo frames; 4200 gives RoCE its 4096-byte path MTU); unset: "
		 "no MTU check" },
	{ .name = "RocePfc",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_BOOL,
	  .def = "no",
	  .doc = "the prolog also checks, on each RoCE port allocated to a "
		 "job whose net device's driver has DCB, that PFC is on for "
		 "the priority of the job's RoCE traffic (RoceTrafficClass's "
		 "DSCP through the device's DSCP table when it has one, else "
		 "RoceServiceLevel); a device without DCB is not checked" },
	{ .name = "FabricComputeHca",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_STRING,
	  .check = _check_hca,
	  .doc = "the HCA (e.g. mlx5_0) whose plane gives each node its leaf "
		 "and rack, when compute and storage rails differ; read by "
		 "fabsched topo watch (discover and export: --compute-hca)" },
	{ .name = "DrainOnDegradedLink",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_BOOL,
	  .def = "no",
	  .doc = "fabsched topo watch also drains a node with a link below "
		 "its tier's width or speed (and resumes it when the link is "
		 "back to it)" },
	{ .name = "FabricErrorLimits",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_STRING,
	  .def = FS_IB_ERR_LIMITS_DEFAULT,
	  .check = _check_err_limits,
	  .doc = "how much each port error counter of a node's link may grow "
		 "between two fabsched topo watch cycles before the link is "
		 "reported (and drained with DrainOnDegradedLink=yes); none: "
		 "counters not read" },
	{ .name = "FabricWatchInterval",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_DURATION,
	  .def = "1:00",
	  .check = _check_interval,
	  .doc = "how often fabsched topo watch rediscovers the fabric "
		 "(Slurm time format: 1:00 is a minute, 0:30 half a minute)" },
	{ .name = "DefaultLocality",
	  .scope = FS_SCOPE_GLOBAL,
	  .type = FS_TYPE_LOCALITY,
	  .def = "any",
	  .doc = "locality of partitions that set no Locality, and their "
		 "wait when given as @<wait>" },
	/* partition keys */
	{ .name = "Locality",
	  .scope = FS_SCOPE_PARTITION,
	  .type = FS_TYPE_ENUM,
	  .values = "rack|pod|any|off|observe",
	  .fallback = "DefaultLocality",
	  .doc = "narrowest fabric domain a job of the partition must fit in" },
	{ .name = "LocalityWait",
	  .scope = FS_SCOPE_PARTITION,
	  .type = FS_TYPE_DURATION,
	  .def = "0",
	  .fallback = "DefaultLocality",
	  .doc = "how long a job may wait for its Locality before it is "
		 "placed more widely" },
	{ .name = "LocalityTarget",
	  .scope = FS_SCOPE_PARTITION,
	  .type = FS_TYPE_PERCENT,
	  .def = "0",
	  .doc = "share of the partition's jobs that fit in one domain of "
		 "its Locality and should get one: below it a job waits for "
		 "its domain (up to LocalityWait), above it a job that cannot "
		 "have its domain now starts across domains (0 = no target: "
		 "every job waits)" },
	{ .name = "LocalityWaitRatio",
	  .scope = FS_SCOPE_PARTITION,
	  .type = FS_TYPE_UINT,
	  .def = "0",
	  .min = 0,
	  .max = 1000,
	  .doc = "a job waits for one rack only while the time limits of the "
		 "running jobs say a rack will hold it within this many times "
		 "its own time limit; otherwise, and when it needs more than "
		 "one rack, it starts now on the tightest placement free "
		 "(0 = no ratio: it waits up to LocalityWait)" },
	{ .name = "MaxRacks",
	  .scope = FS_SCOPE_PARTITION,
	  .type = FS_TYPE_UINT,
	  .def = "0",
	  .min = 0,
	  .max = 65535,
	  .doc = "most racks one job may span (0 = unlimited)" },
};

const size_t fsc_nkeys = sizeof(fsc_keys) / sizeof(fsc_keys[0]);
_Static_assert(sizeof(fsc_keys) / sizeof(fsc_keys[0]) <= FSC_KEYS_MAX,
	       "more keys than FSC_KEYS_MAX: raise it in conf_private.h");

const struct fs_conf_key *fs_conf_keys(size_t *n)
{
	if (n)
		*n = fsc_nkeys;
	return fsc_keys;
}

/* A key's index, its name in any case.  Looked up at every placement
 * decision (a partition's Locality and the like): a key whose first
 * letter differs is passed over without a call. */
int fsc_key_index(const char *name)
{
	int first;

	if (!name)
		return -1;
	first = name[0] | 0x20; /* ASCII letters' case bit; a name starts with one */
	for (size_t i = 0; i < fsc_nkeys; i++)
		if ((fsc_keys[i].name[0] | 0x20) == first && fs_strcaseeq(name, fsc_keys[i].name))
			return (int)i;
	return -1;
}

const struct fs_conf_key *fs_conf_key_find(const char *name)
{
	int i = fsc_key_index(name);

	return i < 0 ? NULL : &fsc_keys[i];
}

const char *fs_conf_type_name(enum fs_conf_type type)
{
	switch (type) {
	case FS_TYPE_STRING:
		return "string";
	case FS_TYPE_PATH:
		return "absolute path";
	case FS_TYPE_BOOL:
		return "boolean";
	case FS_TYPE_UINT:
		return "integer";
	case FS_TYPE_DURATION:
		return "duration";
	case FS_TYPE_SIZE:
		return "size";
	case FS_TYPE_ENUM:
		return "enumeration";
	case FS_TYPE_LOCALITY:
		return "locality";
	case FS_TYPE_PERCENT:
		return "percentage";
	}
	return "?";
}

const char *fs_conf_default_path(void)
{
	return FS_SLURM_CONFDIR "/fabsched.conf";
}
