/*
 * fabsched topo — fabric model: discover, export, check, diff.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "fabsched_cli.h"
#include "fabsched_topo.h"
#include "topo_args.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fs_err.h"
#include "fs_values.h"
#include "fs_slurmconf.h"
#include "opts.h"

enum {
	O_CA = 256,
	O_PORT,
	O_SAVE,
	O_KEEP,
	O_PLANE,
	O_BPOD,
	O_NOLS,
	O_ROOT,
	O_ALL,
	O_CONF,
	O_INTERVAL,
	O_ONCE,
	O_NODRAIN,
	O_CHCA,
	O_LOAD,
	O_MODEL,
	O_LLDP,
	O_LLDPSW,
	O_LLDPAGE
};

/* The options of every topo subcommand (opts.h); fabsched(1), TOPO. */
static const struct fs_opt _topo_opts[] = {
	{ 'i', 'i', "input", "FILE", "ibnetdiscover text output ('-' = stdin); also FILE alone",
	  "input (one of; default --live)", NULL },
	{ O_LOAD, 0, "load-cache", "FILE", "a cache of ibnetdiscover --cache (libibnetdisc)", NULL,
	  NULL },
	{ O_MODEL, 0, "model", "FILE", "the JSON model fabsched topo discover wrote", NULL, NULL },
	{ 'L', 'L', "live", NULL, "discover the fabric now (libibnetdisc)", NULL, NULL },
	{ O_LLDP, 0, "lldp", "DIR",
	  "Ethernet: the nodes' LLDP records, <node>.json each\n"
	  "(lldpcli -f json0 show neighbors details)",
	  NULL, NULL },
	{ O_LLDPSW, 0, "lldp-switches", "DIR",
	  "with --lldp: the switches' records, <switch>.json each,\n"
	  "or <switch>.snmpwalk (snmpwalk -On SWITCH 1.0.8802.1.1.2)",
	  NULL, NULL },
	{ O_LLDPAGE, 0, "lldp-max-age", "TIME",
	  "with --lldp: leave out the neighbours of records\n"
	  "written longer ago (Slurm time format; default none)",
	  NULL, NULL },
	{ O_CA, 0, "ca", "NAME", "the local HCA for --live (ibnetdiscover's -C)", NULL, NULL },
	{ O_PORT, 0, "port", "N", "its port (ibnetdiscover's -P; default its first active)", NULL,
	  NULL },
	{ O_SAVE, 0, "save-cache", "FILE", "with --live: also write an ibnetdiscover cache", NULL,
	  NULL },
	{ 'm', 'm', "node-name-map", "FILE", "'0x<guid> \"<desc>\"' or 'H-<guid> <host>' lines",
	  "node mapping", NULL },
	{ 'r', 'r', "host-regex", "RE", "host = group 1 of RE on the description", NULL, NULL },
	{ 'n', 'n', "nodelist", "HOSTLIST",
	  "only these hosts are compute nodes (Slurm hostlist;\n"
	  "default: the NodeName= lines of slurm.conf, when\n"
	  "readable: $SLURM_CONF or " FS_SLURM_CONFDIR "/slurm.conf)",
	  NULL, NULL },
	{ O_ALL, 0, "all-hosts", NULL,
	  "every named host is a compute node (no slurm.conf\n"
	  "node list, no built-in non-compute names)",
	  NULL, NULL },
	{ 'x', 'x', "exclude", "RE",
	  "descriptions/hosts that are not compute nodes\n"
	  "(replaces the built-in names of OS defaults, fabric\n"
	  "managers and storage, used without a node list)",
	  NULL, NULL },
	{ 'R', 'R', "rack-map", "FILE", "'<rack> <hostlist>' lines (default: rack = leaf)", NULL,
	  NULL },
	{ O_KEEP, 0, "keep-domain", NULL, "keep the domain of host names", NULL, NULL },
	{ O_CHCA, 0, "compute-hca", "NAME",
	  "the HCA (mlx5_0) whose plane makes racks when\n"
	  "compute and storage rails differ (watch: default\nFabricComputeHca)",
	  NULL, NULL },
	{ 'o', 'o', "output", "FILE",
	  "write here instead of stdout (watch: the model,\n"
	  "default FabricModel of fabsched.conf)",
	  "output", NULL },
	{ 'f', 'f', "format", "FMT", "export: tree (default), block, yaml, json", NULL, NULL },
	{ O_PLANE, 0, "plane", "N", "export (tree, block, yaml): only plane N", NULL, NULL },
	{ O_BPOD, 0, "block-by-pod", NULL, "block: one block per pod instead of per rack", NULL,
	  NULL },
	{ O_NOLS, 0, "no-link-speed", NULL, "tree: omit LinkSpeed=", NULL, NULL },
	{ O_ROOT, 0, "root", "NAME", "tree: name of a virtual root (default fabric)", NULL, NULL },
	{ 'a', 'a', "against", "FILE", "diff: the existing topology.conf", NULL, NULL },
	{ 'v', 'v', "verbose", NULL, "check: list every switch", NULL, NULL },
	{ O_CONF, 0, "conf", "FILE", "fabsched.conf (default: the search of fabsched.conf(5))",
	  "watch (also FILE, -i, --load-cache and --ca, repeatable: one source per\n"
	  "plane or rail; default: every active local port of a plane not yet seen)",
	  NULL },
	{ O_INTERVAL, 0, "interval", "DURATION",
	  "between discoveries (default FabricWatchInterval)", NULL, NULL },
	{ O_ONCE, 0, "once", NULL, "one discovery, then exit (cron)", NULL, NULL },
	{ O_NODRAIN, 0, "no-drain", NULL, "report only: no scontrol drain or resume", NULL, NULL },
	{ 'h', 'h', "help", NULL, "this help", NULL, NULL },
	/* old spellings: -C is ibnetdiscover's CA, --cache its writing */
	{ O_LOAD, 'C', "cache", "FILE", NULL, NULL, "--load-cache" },
	{ O_MODEL, 'j', "json", "FILE", NULL, NULL, "--model" },
	{ 0, 0, NULL, NULL, NULL, NULL, NULL }
};

static void _topo_usage(FILE *out)
{
	fprintf(out,
		"usage: fabsched topo <subcommand> [FILE] [options]\n"
		"subcommands:\n"
		"  discover   build the fabric model and write it as JSON\n"
		"  export     write topology.conf (tree or block), topology.yaml or JSON\n"
		"  check      report non-compute HCAs, degraded links and other problems\n"
		"  diff       compare with an existing topology.conf\n"
		"  watch      rediscover every interval, write the model when it changes, log\n"
		"             each change, drain nodes whose every rail is down (see fabsched(1))\n");
	fs_cli_opt_help(out, _topo_opts);
	fprintf(out,
		"exit codes: 0 ok, 1 input error, 2 usage error, 3 problems or differences found\n");
}

/*
 * Without --nodelist or --all-hosts, the compute nodes are Slurm's: the
 * NodeName= lines of the slurm.conf in use, when one is readable.  Said
 * on stderr, so that a node left out is never a surprise.
 */
int fs_cli_slurm_nodes(struct topo_args *a)
{
	const char *path;
	char err[FS_MSG_SIZE];
	size_t nlines = 0;

	if (a->opts.nodelist || a->opts.all_hosts || !(path = fs_slurm_conf_path()))
		return 0;
	if (access(path, R_OK)) {
		if (getenv("SLURM_CONF") && *getenv("SLURM_CONF"))
			fprintf(stderr,
				"fabsched topo: SLURM_CONF=%s: %s; compute nodes "
				"by name (see --nodelist, --all-hosts)\n",
				path, strerror(errno));
		return 0;
	}
	if (fs_slurm_conf_nodes(path, &a->slurm_nodes, &nlines, err, sizeof(err))) {
		fprintf(stderr, "fabsched topo: %s (or give --nodelist or --all-hosts)\n", err);
		return -1;
	}
	if (!a->slurm_nodes) {
		fprintf(stderr,
			"fabsched topo: %s names no node (%zu NodeName line(s)); "
			"compute nodes by name (see --nodelist, --all-hosts)\n",
			path, nlines);
		return 0;
	}
	a->opts.nodelist = a->slurm_nodes;
	fprintf(stderr,
		"fabsched topo: compute nodes: the nodes of %s (%s); every "
		"other host is reported as not compute (--nodelist or --all-hosts to "
		"choose otherwise)\n",
		path, a->slurm_nodes);
	return 0;
}

static int _load(struct topo_args *a, struct fst_model **m)
{
	char err[1024];
	int rc, nsrc = !!a->input + !!a->cache + !!a->json + a->live + !!a->lldp;

	if (nsrc > 1) {
		fprintf(stderr,
			"fabsched topo: give one input (FILE, --input, --load-cache, --model, --live or --lldp)\n");
		return FS_EXIT_USAGE;
	}
	if (a->lldp_switches && !a->lldp) {
		fprintf(stderr,
			"fabsched topo: --lldp-switches %s: expected with --lldp DIR (the nodes' records)\n",
			a->lldp_switches);
		return FS_EXIT_USAGE;
	}
	if (a->lldp_max_age && !a->lldp) {
		fprintf(stderr,
			"fabsched topo: --lldp-max-age: expected with --lldp DIR (the nodes' records)\n");
		return FS_EXIT_USAGE;
	}
	if (a->json) {
		if (fst_json_read_file(m, a->json, err, sizeof(err))) {
			fprintf(stderr, "fabsched topo: %s\n", err);
			return FS_EXIT_INPUT;
		}
		return FS_EXIT_OK;
	}
	if (a->input && !strcmp(a->input, "-")) {
		char *buf = NULL;
		size_t len = 0;
		FILE *ms = open_memstream(&buf, &len);
		char chunk[65536];
		size_t n;

		if (!ms)
			return FS_EXIT_INPUT;
		while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
			fwrite(chunk, 1, n, ms);
		fclose(ms);
		rc = fst_parse_ibnet_buf(m, buf, len, "<stdin>", err, sizeof(err));
		free(buf);
	} else if (a->input) {
		rc = fst_parse_ibnet_file(m, a->input, err, sizeof(err));
	} else if (a->cache) {
		rc = fst_load_cache(m, a->cache, err, sizeof(err));
	} else if (a->lldp) {
		rc = fst_parse_lldp_aged(m, a->lldp, a->lldp_switches, a->lldp_max_age, time(NULL),
					 err, sizeof(err));
	} else {
		rc = fst_discover_live(m, a->ca, a->port, a->save_cache, err, sizeof(err));
	}
	if (rc) {
		fprintf(stderr, "fabsched topo: %s\n", err);
		return FS_EXIT_INPUT;
	}
	if (fs_cli_slurm_nodes(a)) {
		fst_model_free(*m); /* what was parsed */
		*m = NULL;
		return FS_EXIT_INPUT;
	}
	if (fst_classify(*m, &a->opts, err, sizeof(err))) {
		fprintf(stderr, "fabsched topo: %s\n", err);
		fst_model_free(*m);
		*m = NULL;
		return FS_EXIT_INPUT;
	}
	return FS_EXIT_OK;
}

static void _source(struct topo_args *a, int kind, const char *arg)
{
	if (a->nsources < TOPO_SOURCES_MAX)
		a->sources[a->nsources++] = (struct topo_source){ kind, arg, 0 };
}

/* An option of the input (--input, --load-cache, --model, --live and its
 * --ca, --port, --save-cache) into @a: 1 taken, 0 not one of them, -1
 * refused (said on stderr). */
static int _input_option(struct topo_args *a, int c)
{
	char *end;

	switch (c) {
	case 'i':
		a->input = optarg;
		_source(a, 'i', optarg);
		break;
	case O_LOAD:
		a->cache = optarg;
		_source(a, 'C', optarg);
		break;
	case O_MODEL:
		a->json = optarg;
		break;
	case O_LLDP:
		a->lldp = optarg;
		_source(a, 'E', optarg);
		break;
	case O_LLDPSW:
		a->lldp_switches = optarg;
		break;
	case O_LLDPAGE: {
		char msg[FS_MSG_SIZE];

		if (fs_parse_duration("--lldp-max-age", optarg, &a->lldp_max_age, msg,
				      sizeof(msg)) ||
		    !a->lldp_max_age) {
			fprintf(stderr,
				"fabsched topo: --lldp-max-age %s: expected a duration above 0 in Slurm time format, e.g. 30:00 (30 minutes) or INFINITE\n",
				optarg);
			return -1;
		}
		if (a->lldp_max_age == FS_DURATION_INFINITE)
			a->lldp_max_age = 0;
		break;
	}
	case 'L':
		a->live = 1;
		break;
	case O_CA:
		a->ca = optarg;
		_source(a, 'L', optarg);
		break;
	case O_PORT:
		errno = 0;
		a->port = (int)strtol(optarg, &end, 10);
		if (errno || *end || a->port < 0 || a->port > 254) {
			fprintf(stderr, "fabsched topo: --port %s: expected a port number 0-254\n",
				optarg);
			return -1;
		}
		if (a->nsources && a->sources[a->nsources - 1].kind == 'L')
			a->sources[a->nsources - 1].port = a->port;
		break;
	case O_SAVE:
		a->save_cache = optarg;
		break;
	default:
		return 0;
	}
	return 1;
}

/* An option of the node mapping (which hosts are compute nodes, their
 * racks) into @a: 1 taken, 0 not one of them. */
static int _naming_option(struct topo_args *a, int c)
{
	switch (c) {
	case 'm':
		a->opts.name_map = optarg;
		break;
	case 'r':
		a->opts.host_regex = optarg;
		break;
	case 'x':
		a->opts.exclude_regex = optarg;
		break;
	case 'n':
		a->opts.nodelist = optarg;
		break;
	case O_ALL:
		a->opts.all_hosts = 1;
		break;
	case O_CHCA:
		a->opts.compute_hca = optarg;
		break;
	case 'R':
		a->opts.rack_map = optarg;
		break;
	case O_KEEP:
		a->opts.keep_domain = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* An option of the output (export's, check's, diff's) into @a: 1 taken,
 * 0 not one of them, -1 refused (said on stderr). */
static int _output_option(struct topo_args *a, int c)
{
	char *end;

	switch (c) {
	case 'o':
		a->output = optarg;
		break;
	case 'f':
		a->format = optarg;
		break;
	case O_PLANE:
		errno = 0;
		a->eo.plane = (int)strtol(optarg, &end, 10);
		if (errno || *end || a->eo.plane < 0) {
			fprintf(stderr, "fabsched topo: --plane %s: expected a plane number >= 0\n",
				optarg);
			return -1;
		}
		break;
	case O_BPOD:
		a->eo.block_by_pod = 1;
		break;
	case O_NOLS:
		a->eo.no_link_speed = 1;
		break;
	case O_ROOT:
		a->eo.root_name = optarg;
		break;
	case 'a':
		a->against = optarg;
		break;
	case 'v':
		a->verbose = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* An option of the watch (--conf, --interval, --once, --no-drain) into
 * @a: 1 taken, 0 not one of them, -1 refused (said on stderr). */
static int _watch_option(struct topo_args *a, int c)
{
	char msg[FS_MSG_SIZE];

	switch (c) {
	case O_CONF:
		a->conf_path = optarg;
		break;
	case O_INTERVAL:
		if (fs_parse_duration("--interval", optarg, &a->interval, msg, sizeof(msg)) ||
		    !a->interval || a->interval > 86400) {
			fprintf(stderr,
				"fabsched topo: --interval %s: expected a duration of "
				"1 s to 1 day in Slurm time format, e.g. 0:30 (30 s) or 5:00\n",
				optarg);
			return -1;
		}
		break;
	case O_ONCE:
		a->once = 1;
		break;
	case O_NODRAIN:
		a->drain = 0;
		break;
	default:
		return 0;
	}
	return 1;
}

/* One option (key c, its value in optarg) into @a: 0, or -1 refused
 * (said on stderr); --help prints the usage and exits. */
static int _option(struct topo_args *a, int c)
{
	int rc;

	if (c == 'h') {
		_topo_usage(stdout);
		exit(FS_EXIT_OK);
	}
	if ((rc = _input_option(a, c)) || (rc = _naming_option(a, c)) ||
	    (rc = _output_option(a, c)) || (rc = _watch_option(a, c)))
		return rc < 0 ? -1 : 0;
	return -1; /* an unknown option, said by fs_cli_opt_next */
}

/* The options that exclude each other, and --root's name: 0, or -1
 * refused (said on stderr). */
static int _parse_check(const struct topo_args *a)
{
	if (a->opts.all_hosts && a->opts.nodelist) {
		fprintf(stderr, "fabsched topo: --all-hosts and --nodelist exclude each other\n");
		return -1;
	}
	if (a->eo.root_name && (!*a->eo.root_name || strlen(a->eo.root_name) > FST_NAME_MAX ||
				strpbrk(a->eo.root_name, " ,=[]#"))) {
		fprintf(stderr,
			"fabsched topo: --root '%s': expected a name of 1-%d characters without spaces, ',', '=', '[', ']', '#'\n",
			a->eo.root_name, FST_NAME_MAX);
		return -1;
	}
	return 0;
}

/* The options and the files named alone into @a: 0, or -1 refused (said
 * on stderr); --help prints the usage and exits. */
static int _parse(int argc, char **argv, struct topo_args *a)
{
	struct fs_optp op = { .prog = "fabsched topo", .tab = _topo_opts };
	int c;

	a->eo.plane = -1;
	a->drain = 1;
	while ((c = fs_cli_opt_next(&op, argc, argv)) != -1) {
		if (a->nsources == TOPO_SOURCES_MAX) {
			fprintf(stderr, "fabsched topo: more than %d inputs\n", TOPO_SOURCES_MAX);
			return -1;
		}
		if (_option(a, c))
			return -1;
	}
	/* a file named alone is an ibnetdiscover dump, as for the tools that
	 * read one (ibnetdiscover > fabric.txt; fabsched topo check fabric.txt) */
	for (; optind < argc; optind++) {
		if (a->nsources == TOPO_SOURCES_MAX) {
			fprintf(stderr, "fabsched topo: more than %d inputs\n", TOPO_SOURCES_MAX);
			return -1;
		}
		a->input = argv[optind];
		_source(a, 'i', argv[optind]);
	}
	return _parse_check(a);
}

static FILE *_open_out(const struct topo_args *a)
{
	FILE *f;

	if (!a->output || !strcmp(a->output, "-"))
		return stdout;
	f = fopen(a->output, "w");
	if (!f)
		fprintf(stderr, "fabsched topo: %s: cannot write: %s\n", a->output,
			strerror(errno));
	return f;
}

static int _close_out(FILE *f, const struct topo_args *a)
{
	if (f == stdout) {
		if (!fflush(f) && !ferror(f))
			return 0;
		fprintf(stderr, "fabsched topo: standard output: write error\n");
		return -1;
	}
	if (fclose(f)) {
		fprintf(stderr, "fabsched topo: %s: write error\n", a->output);
		return -1;
	}
	return 0;
}

/* Append to a message being built; what does not fit is cut. */
static void _cat(char *buf, size_t size, const char *fmt, ...) FS_PRINTF(3, 4);
static void _cat(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* Why the HCAs of a model without a compute node were left out: each
 * reason of names.c with its count (the first 16 reasons), and the HCAs
 * counted by what would have named them compute nodes. */
struct left_out {
	struct reason {
		const char *why;
		int n;
	} r[16];
	int nr, nhca, unnamed, unlisted, builtin, excluded, mismatch;
	const char *example; /* the first HCA not in the node list */
};

/* The HCAs of @m and why each was left out into @lo. */
static void _left_out(const struct fst_model *m, struct left_out *lo)
{
	for (int d = 0; d < m->ndevs; d++) {
		const struct fst_device *dv = &m->devs[d];
		const char *why = dv->reason ? dv->reason : "unknown";
		int k;

		if (dv->type != FST_HCA)
			continue;
		lo->nhca++;
		for (k = 0; k < lo->nr && strcmp(lo->r[k].why, why); k++)
			;
		if (k == lo->nr && lo->nr < (int)(sizeof(lo->r) / sizeof(lo->r[0])))
			lo->r[lo->nr++] = (struct reason){ why, 0 };
		if (k < lo->nr)
			lo->r[k].n++;
		if (!strcmp(why, "not-in-nodelist")) {
			lo->unlisted++;
			if (!lo->example)
				lo->example = dv->name;
		} else if (!strcmp(why, "default-description") || !strcmp(why, "no-description") ||
			   !strcmp(why, "invalid-host-name") || !strcmp(why, "localhost")) {
			lo->unnamed++;
		} else if (!strcmp(why, "regex-mismatch")) {
			lo->mismatch++;
		} else if (!strcmp(why, "excluded")) {
			lo->excluded++;
		} else if (!strcmp(why, "storage-host") || !strcmp(why, "fabric-manager-host") ||
			   !strcmp(why, "os-default-name")) {
			lo->builtin++;
		}
	}
}

/* What would name compute nodes among the HCAs @lo counts, into @fix (""
 * at first).  No HCA got a host name: naming them is the fix; when some
 * did, the node list or the names' rules left them out. */
static void _fix(const struct topo_args *a, const struct left_out *lo, char *fix, size_t size)
{
	int named = lo->unlisted + lo->builtin + lo->excluded;
	const char *path;

	if (!named && lo->unnamed && a->opts.name_map)
		_cat(fix, size,
		     "a node-name map naming the HCAs (%s names none of them; "
		     "lines 'H-<guid> <host>' or '0x<guid> \"<host> mlx5_0\"')",
		     a->opts.name_map);
	else if (!named && lo->unnamed)
		_cat(fix, size,
		     "a node-name map naming the HCAs (-m FILE, lines "
		     "'H-<guid> <host>' or '0x<guid> \"<host> mlx5_0\"')");
	if (!named && lo->mismatch)
		_cat(fix, size,
		     "%sa --host-regex that matches the descriptions ('%s' "
		     "matches none)",
		     *fix ? ", or " : "", a->opts.host_regex ? a->opts.host_regex : "");
	if (lo->unlisted && a->slurm_nodes && (path = fs_slurm_conf_path()))
		_cat(fix, size,
		     "%s--nodelist HOSTLIST of the fabric's host names (the nodes "
		     "of %s, %s, are none of them, e.g. %s), or --all-hosts",
		     *fix ? ", or " : "", path, a->slurm_nodes, lo->example ? lo->example : "?");
	else if (lo->unlisted)
		_cat(fix, size,
		     "%s--nodelist HOSTLIST of the fabric's host names (%s names "
		     "none of them, e.g. %s), or --all-hosts",
		     *fix ? ", or " : "", a->opts.nodelist ? a->opts.nodelist : "?",
		     lo->example ? lo->example : "?");
	if (lo->builtin)
		_cat(fix, size,
		     "%s--all-hosts or --nodelist HOSTLIST (every named host is "
		     "taken for storage, a fabric manager or an OS default name)",
		     *fix ? ", or " : "");
	if (lo->excluded)
		_cat(fix, size,
		     "%san --exclude that leaves the compute nodes ('%s' excludes "
		     "every named host)",
		     *fix ? ", or " : "", a->opts.exclude_regex ? a->opts.exclude_regex : "");
	if (!*fix)
		_cat(fix, size, "HCAs of compute nodes");
}

/*
 * A model without a compute node is nothing Slurm can use: a topology.conf
 * without nodes parses, and every job is then placed as if there were no
 * fabric.  So discover and export refuse it before writing anything, with
 * why each HCA was left out (names.c's reasons) and what would name them.
 * RET 0 when the model has a node, else FS_EXIT_INPUT (said on stderr).
 */
static int _no_nodes(const struct topo_args *a, const struct fst_model *m, const char *sub)
{
	struct left_out lo = { 0 };
	char msg[2048] = "", fix[1536] = "";

	if (m->nhosts)
		return 0;
	_left_out(m, &lo);
	_cat(msg, sizeof(msg), "fabsched topo %s: %s: no compute node", sub,
	     m->source ? m->source : "the fabric");
	if (!lo.nhca) {
		_cat(msg, sizeof(msg),
		     ": the fabric has no HCA; expected the dump of a fabric with "
		     "its nodes' HCAs\n");
		fputs(msg, stderr);
		return FS_EXIT_INPUT;
	}
	_cat(msg, sizeof(msg), " among its %d HCA(s) (", lo.nhca);
	for (int k = 0; k < lo.nr; k++)
		_cat(msg, sizeof(msg), "%s%d %s", k ? ", " : "", lo.r[k].n, lo.r[k].why);
	_cat(msg, sizeof(msg), "; 'fabsched topo check' lists each)");
	if (a->json) {
		/* classified when it was discovered: the options here change nothing */
		_cat(msg, sizeof(msg),
		     "; expected a model discovered with its compute nodes named "
		     "(fabsched topo discover with a node-name map, --nodelist or --all-hosts)\n");
		fputs(msg, stderr);
		return FS_EXIT_INPUT;
	}
	_fix(a, &lo, fix, sizeof(fix));
	_cat(msg, sizeof(msg), "; expected %s\n", fix);
	fputs(msg, stderr);
	return FS_EXIT_INPUT;
}

/*
 * --plane: a plane the fabric does not have, or one that is no node's
 * first plane (each node is exported once, in its first plane), would
 * give a topology without a node; refused with the planes that have
 * nodes.  RET 0, or FS_EXIT_INPUT said on stderr.
 */
static int _plane_ok(const struct topo_args *a, const struct fst_model *m)
{
	char with[128] = "";
	int plane = a->eo.plane, n = 0;

	if (plane < 0)
		return 0;
	for (int h = 0; h < m->nhosts; h++)
		n += m->hosts[h].plane == plane;
	if (n)
		return 0;
	for (int p = 0; p < m->nplanes; p++) {
		int k = 0;

		for (int h = 0; h < m->nhosts && !k; h++)
			k = m->hosts[h].plane == p;
		if (k)
			_cat(with, sizeof(with), "%s%d", *with ? ", " : "", p);
	}
	if (plane >= m->nplanes && m->nplanes == 1)
		fprintf(stderr,
			"fabsched topo export: %s: --plane %d: the fabric has one plane, "
			"0 (plane0); expected --plane 0, or no --plane\n",
			m->source ? m->source : "the fabric", plane);
	else if (plane >= m->nplanes)
		fprintf(stderr,
			"fabsched topo export: %s: --plane %d: the fabric has %d planes, "
			"0 to %d (plane0 to plane%d); expected a plane with compute nodes: %s\n",
			m->source ? m->source : "the fabric", plane, m->nplanes, m->nplanes - 1,
			m->nplanes - 1, with);
	else
		fprintf(stderr,
			"fabsched topo export: %s: --plane %d: plane%d is no node's first "
			"plane (each node is exported once, in its first plane); expected a plane "
			"with compute nodes: %s\n",
			m->source ? m->source : "the fabric", plane, plane, with);
	return FS_EXIT_INPUT;
}

/* The text of discover and export: made whole in memory first, so that a
 * failed export leaves the output file (a topology.conf, the model in
 * use) as it was.  RET an exit code. */
static int _export(const struct topo_args *a, const struct fst_model *m, const char *sub)
{
	char err[1024], *buf = NULL;
	size_t len = 0;
	FILE *ms = open_memstream(&buf, &len), *out;
	int erc, rc = FS_EXIT_OK;

	if (!ms) {
		fprintf(stderr, "fabsched topo %s: out of memory\n", sub);
		return FS_EXIT_INPUT;
	}
	if (!strcmp(a->format, "json"))
		erc = fst_json_write(m, ms, err, sizeof(err));
	else if (!strcmp(a->format, "tree"))
		erc = fst_export_tree(m, ms, &a->eo, err, sizeof(err));
	else if (!strcmp(a->format, "block"))
		erc = fst_export_block(m, ms, &a->eo, err, sizeof(err));
	else
		erc = fst_export_yaml(m, ms, &a->eo, err, sizeof(err));
	if (fclose(ms) && !erc)
		erc = fs_errf(err, sizeof(err), "out of memory");
	if (erc) {
		fprintf(stderr, "fabsched topo %s: %s\n", sub, err);
		free(buf);
		return FS_EXIT_INPUT;
	}
	out = _open_out(a);
	if (!out) {
		rc = FS_EXIT_INPUT;
	} else {
		if (fwrite(buf, 1, len, out) != len)
			rc = FS_EXIT_INPUT;
		if (_close_out(out, a))
			rc = FS_EXIT_INPUT;
	}
	free(buf);
	return rc;
}

/* The subcommand into *@sub and its options into @a, the format and
 * --plane checked: -1 to go on, or the exit code (--help, usage error). */
static int _args(int argc, char **argv, const char **sub, struct topo_args *a)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		_topo_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? FS_EXIT_USAGE : FS_EXIT_OK;
	}
	*sub = argv[1];
	if (strcmp(*sub, "discover") && strcmp(*sub, "export") && strcmp(*sub, "check") &&
	    strcmp(*sub, "diff") && strcmp(*sub, "watch")) {
		fprintf(stderr, "fabsched topo: unknown subcommand '%s'\n", *sub);
		_topo_usage(stderr);
		return FS_EXIT_USAGE;
	}
	if (_parse(argc - 1, argv + 1, a))
		return FS_EXIT_USAGE;
	if (!a->format)
		a->format = !strcmp(*sub, "discover") ? "json" : "tree";
	if (strcmp(a->format, "tree") && strcmp(a->format, "block") && strcmp(a->format, "yaml") &&
	    strcmp(a->format, "json")) {
		fprintf(stderr, "fabsched topo: --format %s: expected tree, block, yaml or json\n",
			a->format);
		return FS_EXIT_USAGE;
	}
	/* a plane is chosen by the Slurm exports only: the model keeps them all */
	if (a->eo.plane >= 0 && (strcmp(*sub, "export") || !strcmp(a->format, "json"))) {
		fprintf(stderr,
			"fabsched topo %s: --plane %d: only for export -f tree, block or "
			"yaml (the JSON model holds every plane)\n",
			*sub, a->eo.plane);
		return FS_EXIT_USAGE;
	}
	return -1;
}

/* fabsched topo watch, with the compute nodes of slurm.conf by default:
 * RET an exit code. */
static int _watch(struct topo_args *a)
{
	int rc;

	if (a->json) {
		fprintf(stderr, "fabsched topo watch: --model is not a fabric source\n");
		return FS_EXIT_USAGE;
	}
	if ((a->lldp_switches || a->lldp_max_age) && !a->lldp) {
		fprintf(stderr,
			"fabsched topo watch: --%s: expected with --lldp DIR (the nodes' records)\n",
			a->lldp_switches ? "lldp-switches" : "lldp-max-age");
		return FS_EXIT_USAGE;
	}
	if (fs_cli_slurm_nodes(a))
		return FS_EXIT_INPUT;
	rc = fs_cli_topo_watch(a);
	free(a->slurm_nodes);
	return rc;
}

/* The other subcommands read one input, diff a topology.conf besides:
 * 0, or FS_EXIT_USAGE said on stderr. */
static int _one_input(const struct topo_args *a, const char *sub)
{
	if (a->nsources > 1) {
		fprintf(stderr, "fabsched topo %s: give one input (more are for watch)\n", sub);
		return FS_EXIT_USAGE;
	}
	if (!strcmp(sub, "diff") && !a->against) {
		fprintf(stderr, "fabsched topo diff: --against FILE is required\n");
		return FS_EXIT_USAGE;
	}
	return 0;
}

/* check and diff: the report of @m, or its differences with --against,
 * into the output.  RET an exit code. */
static int _report(const struct topo_args *a, const struct fst_model *m, const char *sub)
{
	char err[1024];
	int rc;
	FILE *out = _open_out(a);

	if (!out)
		return FS_EXIT_INPUT;
	if (!strcmp(sub, "check")) {
		int problems = fst_report(m, out, a->verbose);

		rc = FS_EXIT_OK;
		for (int i = 0; i < m->nissues; i++)
			if (m->issues[i].severity >= FST_WARNING)
				rc = FS_EXIT_PROBLEMS;
		if (problems < 0)
			rc = FS_EXIT_INPUT;
	} else {
		int nd = 0;

		if (fst_diff_tree(m, a->against, out, &nd, err, sizeof(err))) {
			fprintf(stderr, "fabsched topo: %s\n", err);
			rc = FS_EXIT_INPUT;
		} else {
			rc = nd ? FS_EXIT_PROBLEMS : FS_EXIT_OK;
		}
	}
	if (_close_out(out, a) && !rc)
		rc = FS_EXIT_INPUT;
	return rc;
}

static int _run(int argc, char **argv)
{
	struct topo_args a = { 0 };
	struct fst_model *m = NULL;
	const char *sub = NULL;
	int rc = _args(argc, argv, &sub, &a);

	if (rc >= 0)
		return rc;
	if (!strcmp(sub, "watch"))
		return _watch(&a);
	if ((rc = _one_input(&a, sub)))
		return rc;
	if (!a.input && !a.cache && !a.json && !a.lldp)
		a.live = 1;
	rc = _load(&a, &m);
	if (rc) {
		free(a.slurm_nodes);
		return rc;
	}
	if (!strcmp(sub, "discover") || !strcmp(sub, "export")) {
		rc = _no_nodes(&a, m, sub);
		if (!rc)
			rc = _plane_ok(&a, m);
		if (!rc)
			rc = _export(&a, m, sub);
	} else {
		rc = _report(&a, m, sub);
	}
	fst_model_free(m);
	free(a.slurm_nodes);
	return rc;
}

const struct fs_cmd fs_cmd_topo = {
	.name = "topo",
	.summary = "fabric model: discover, export, check, diff, watch",
	.run = _run,
	.usage = _topo_usage,
	.opts = _topo_opts,
	.verbs = "discover export check diff watch",
};
