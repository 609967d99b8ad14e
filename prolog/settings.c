/*
 * settings.c - what the node helpers and the SPANK plugin take from
 * fabsched.conf into their context, and the task's locked-memory limit
 * (see fabsched_prolog.h).  In libfabsched_prolog_cg: the SPANK plugin
 * links it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "fabsched_conf.h"
#include "fabsched_prolog.h"
#include "fs_err.h"
#include "fs_ib.h"

int fs_pl_ctx_conf(struct fs_pl_ctx *ctx, const struct fs_conf *cf, char *err, size_t errlen)
{
	const char *s;
	uint64_t u;

	if (!ctx->state_dir)
		ctx->state_dir = fs_conf_get_str(cf, "StateDir");
	if (!ctx->mount_base)
		ctx->mount_base = fs_conf_get_str(cf, "HugepageMountBase");
	if (!ctx->scratch_base)
		ctx->scratch_base = fs_conf_get_str(cf, "ScratchBase");
	ctx->metrics_file = fs_conf_get_str(cf, "MetricsTextfile");
	ctx->record_dir = fs_conf_get_str(cf, "JobRecordDir");
	if (!fs_conf_get_uint(cf, "JobRecordKeep", &u))
		ctx->record_keep = (time_t)u * 86400;
	clock_gettime(CLOCK_MONOTONIC, &ctx->started);
	if (!ctx->state_dir || ctx->state_dir[0] != '/' || !ctx->mount_base ||
	    ctx->mount_base[0] != '/' || !ctx->scratch_base || ctx->scratch_base[0] != '/')
		return fs_errf(err, errlen,
			       "StateDir, HugepageMountBase and "
			       "ScratchBase (%s) must be absolute paths",
			       fs_conf_source(cf));
	if ((s = fs_conf_get_str(cf, "ScratchTraddr"))) {
		struct fs_pl_scratch_target *t = &ctx->target;
		uint64_t port = 4420;

		ctx->has_target = true;
		fs_conf_get_uint(cf, "ScratchTrsvcid", &port);
		snprintf(t->transport, sizeof(t->transport), "%s",
			 fs_conf_get_str(cf, "ScratchTransport"));
		snprintf(t->traddr, sizeof(t->traddr), "%s", s);
		snprintf(t->trsvcid, sizeof(t->trsvcid), "%" PRIu64, port);
		snprintf(t->subsysnqn, sizeof(t->subsysnqn), "%s",
			 fs_conf_get_str(cf, "ScratchSubsysNQN"));
	}
	/* validated when the file was loaded */
	if ((s = fs_conf_get_str(cf, "RdmaRate")) &&
	    fs_parse_rate("RdmaRate", s, &ctx->rdma_rate, NULL, 0))
		ctx->rdma_rate = 0;
	/* validated (1..FS_PL_RDMA_MAX_LIMIT) when loaded; unset stays 0 */
	if (!fs_conf_get_uint(cf, "RdmaMaxHcaHandles", &u))
		ctx->rdma_max_handles = (uint32_t)u;
	if (!fs_conf_get_uint(cf, "RdmaMaxHcaObjects", &u))
		ctx->rdma_max_objects = (uint32_t)u;
	/* RoceGidFamily: ipv4 (0) or ipv6 (1); RoceMtu validated 68..65535 */
	if (!fs_conf_get_uint(cf, "RoceGidFamily", &u))
		ctx->roce_ipv6 = u == 1;
	if (!fs_conf_get_uint(cf, "RoceMtu", &u))
		ctx->roce_mtu = (unsigned)u;
	/* RoceTrafficClass 0..255, RoceServiceLevel 0..7 (validated) */
	if (fs_conf_get_bool(cf, "RocePfc", &ctx->roce_pfc))
		ctx->roce_pfc = false;
	ctx->roce_tclass = !fs_conf_get_uint(cf, "RoceTrafficClass", &u) ? (int)u : -1;
	ctx->roce_sl = !fs_conf_get_uint(cf, "RoceServiceLevel", &u) ? (int)u : -1;
	if (!fs_conf_get_uint(cf, "LogLevel", &u) && u >= FS_LOG_VERBOSE)
		ctx->verbose = true;
	return 0;
}

int fs_pl_memlock_unlimited(char *err, size_t errlen)
{
	struct rlimit r = { .rlim_cur = RLIM_INFINITY, .rlim_max = RLIM_INFINITY };

	if (setrlimit(RLIMIT_MEMLOCK, &r) == 0)
		return 0;
	if (getrlimit(RLIMIT_MEMLOCK, &r) == 0) {
		r.rlim_cur = r.rlim_max;
		if (setrlimit(RLIMIT_MEMLOCK, &r) == 0) {
			snprintf(err, errlen,
				 "RLIMIT_MEMLOCK kept at the hard "
				 "limit (%llu bytes): raising it needs "
				 "CAP_SYS_RESOURCE",
				 (unsigned long long)r.rlim_max);
			return 1;
		}
	}
	return fs_errf(err, errlen, "cannot set RLIMIT_MEMLOCK: %s", strerror(errno));
}
