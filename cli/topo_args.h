/* topo_args.h — the options of fabsched topo, shared by its subcommands
 * (cmd_topo.c) and the watch (watch.c). */
#ifndef FABSCHED_TOPO_ARGS_H
#define FABSCHED_TOPO_ARGS_H

#include <stdint.h>

#include "fabsched_topo.h"

#define TOPO_SOURCES_MAX 16

/* One input: 'i' ibnetdiscover text, 'C' cache file, 'L' live (ca NULL:
 * the first local port; port 0: its first active port), 'E' a directory
 * of nodes' LLDP records (with topo_args.lldp_switches). */
struct topo_source {
	int kind;
	const char *arg;
	int port;
};

struct topo_args {
	const char *input, *cache, *json, *output, *format, *against, *save_cache, *ca;
	const char *lldp, *lldp_switches; /* --lldp, --lldp-switches: record directories */
	uint64_t lldp_max_age;		  /* --lldp-max-age, s; 0: none */
	int live, port, verbose;
	struct fst_opts opts;
	struct fst_export_opts eo;
	char *slurm_nodes; /* slurm.conf's node list, when it is the default */
	/* watch */
	struct topo_source sources[TOPO_SOURCES_MAX];
	int nsources;
	const char *conf_path; /* --conf: fabsched.conf (NULL: the default) */
	uint64_t interval;     /* --interval, seconds (0: FabricWatchInterval) */
	int once, drain, drain_degraded;
	struct fs_ib_err_limits limits; /* FabricErrorLimits */
};

/* fabsched topo watch (watch.c); returns an exit code. */
int fs_cli_topo_watch(struct topo_args *a);
/* The compute nodes from slurm.conf when neither --nodelist nor
 * --all-hosts says otherwise (cmd_topo.c); 0, or -1 said on stderr. */
int fs_cli_slurm_nodes(struct topo_args *a);

#endif
