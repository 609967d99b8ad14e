/*
 * fabsched config — check fabsched.conf and show the configuration in effect.
 *
 *   fabsched config show  [--conf FILE]   every error (file:line), or the settings
 *   fabsched config check [--conf FILE]   errors only; exit 0 when the file is good
 *
 * Both also check the node helpers' base directories as this host has
 * them (_bases) and the files the settings name (_files).  check needs a
 * file: without one it is an error, where show prints the built-in
 * defaults with a note.
 */
#include "fabsched_config.h"
#include "fabsched_cli.h"
#include "fabsched_conf.h"
#include "fs_slurmconf.h"
#include "opts.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { O_CONF = 256 };

/* fabsched(1), CONFIG. */
static const struct fs_opt _config_opts[] = {
	{ O_CONF, 0, "conf", "FILE",
	  "the file to read (default: $FABSCHED_CONF, else\n"
	  "the search of fabsched.conf(5)); without any, check\n"
	  "fails and show prints the built-in defaults",
	  NULL, NULL },
	{ 'h', 'h', "help", NULL, "this help", NULL, NULL },
	/* old spelling: the other commands name fabsched.conf --conf */
	{ O_CONF, 'f', NULL, "FILE", NULL, NULL, "--conf" },
	{ 0, 0, NULL, NULL, NULL, NULL, NULL }
};

static void _usage(FILE *out)
{
	fprintf(out, "usage: fabsched config show  [--conf FILE]\n"
		     "       fabsched config check [--conf FILE]\n"
		     "\n"
		     "  show   check the file; print every error, or the configuration in\n"
		     "         effect (with the built-in defaults filled in)\n"
		     "  check  check the file; print every error, nothing when it is good\n");
	fs_cli_opt_help(out, _config_opts);
	fprintf(out,
		"\nexit codes: 0 good; 1 the file has errors or cannot be read, a file it names\n"
		"(FabricModel, NodeNameMap, RackMap) cannot be read, or check found no file;\n"
		"2 usage error\n");
}

/*
 * The node helpers' base directories as this host has them: a setting
 * whose directory exists but that the helpers would refuse (a link, not a
 * directory, not root's, writable by group or others: a shared /tmp or
 * /dev/shm) is an error naming the setting.  A missing one is fine: the
 * helpers make it.  RET the number of errors.
 */
static int _bases(const struct fs_conf *conf)
{
	static const char *const keys[] = { "StateDir", "HugepageMountBase", "ScratchBase",
					    "JobRecordDir" };
	int bad = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *p = fs_conf_get_str(conf, keys[i]);
		struct stat st;
		const char *why = NULL;
		char m[64];

		if (!p || !*p || lstat(p, &st))
			continue; /* unset, or made by the helpers */
		if (S_ISLNK(st.st_mode))
			why = "a symbolic link";
		else if (!S_ISDIR(st.st_mode))
			why = "not a directory";
		else if (st.st_uid != 0)
			why = "not owned by root";
		else if (st.st_mode & 022) {
			snprintf(m, sizeof(m), "writable by group or others (mode %04o%s)",
				 (unsigned)(st.st_mode & 07777),
				 (st.st_mode & S_ISVTX) ? ", a shared directory" : "");
			why = m;
		}
		if (why) {
			fprintf(stderr,
				"fabsched config: %s=%s: %s: the node helpers "
				"refuse it; expected a directory of its own, root's, "
				"mode 0755 or 0700 (e.g. %s/fabsched)\n",
				keys[i], p, why, strcmp(p, "/") ? p : "");
			bad++;
		}
	}
	return bad;
}

/*
 * The files the settings name, as this host has them: each must be a
 * regular file this user can read when the file sets it.  A setting at its
 * built-in default path is not checked: left unset it is the file's
 * silence, not a name, and the getters give a value, not where it came
 * from.  Not here: the directories the helpers make (_bases),
 * MetricsTextfile (the helpers write it), ScratchHostNQNFile and
 * ScratchHostIDFile (each compute node its own, read by the prolog there;
 * the controller has none).  Opened without blocking, as every reader
 * does (fs_file.h): a FIFO is refused, not waited on.  RET the number of
 * errors.
 */
static int _files(const struct fs_conf *conf)
{
	static const struct {
		const char *key, *what;
	} files[] = {
		{ "FabricModel", "the fabric model that fabsched topo discover -o FILE "
				 "(or fabsched topo watch) writes" },
		{ "NodeNameMap", "a node-name map, '0x<guid> \"<desc>\"' or 'H-<guid> "
				 "<host>' lines" },
		{ "RackMap", "a rack map, '<rack> <hostlist>' lines" },
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const struct fs_conf_key *k = fs_conf_key_find(files[i].key);
		const char *p = fs_conf_get_str(conf, files[i].key), *why = NULL;
		struct stat st;
		int fd;

		if (!p || !*p || (k && k->def && !strcmp(p, k->def)))
			continue;
		fd = open(p, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd < 0)
			why = strerror(errno);
		else if (fstat(fd, &st))
			why = strerror(errno);
		else if (S_ISDIR(st.st_mode))
			why = "a directory";
		else if (!S_ISREG(st.st_mode))
			why = "not a regular file (a FIFO, a socket or a device)";
		if (fd >= 0)
			close(fd);
		if (why) {
			fprintf(stderr,
				"fabsched config: %s=%s: %s; expected a regular file "
				"readable here: %s\n",
				files[i].key, p, why, files[i].what);
			bad++;
		}
	}
	return bad;
}

static int _run(int argc, char **argv)
{
	struct fs_optp op = { .prog = "fabsched config", .tab = _config_opts };
	const char *path = NULL, *verb;
	struct fs_errors *errs;
	struct fs_conf *conf = NULL;
	int c, rc;

	if (argc < 2 || (strcmp(argv[1], "show") && strcmp(argv[1], "check"))) {
		if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
			_usage(stdout);
			return FS_EXIT_OK;
		}
		_usage(stderr);
		return FS_EXIT_USAGE;
	}
	verb = argv[1];
	while ((c = fs_cli_opt_next(&op, argc - 1, argv + 1)) != -1) {
		switch (c) {
		case O_CONF:
			path = optarg;
			break;
		case 'h':
			_usage(stdout);
			return FS_EXIT_OK;
		default:
			return FS_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "fabsched config: unexpected argument '%s'\n", argv[optind + 1]);
		return FS_EXIT_USAGE;
	}
	errs = fs_errors_new();
	if (!errs) {
		fprintf(stderr, "fabsched config: out of memory\n");
		return FS_EXIT_INPUT;
	}
	if (fs_conf_load(path, &conf, errs) != 0) {
		fs_errors_print(errs, stderr);
		rc = FS_EXIT_INPUT;
	} else if (fs_conf_is_builtin(conf) && !strcmp(verb, "check")) {
		/* an administrator runs check to check a file: none is not "good" */
		fprintf(stderr,
			"fabsched config check: no fabsched.conf to check: none named "
			"(--conf, $FABSCHED_CONF), none beside $SLURM_CONF, in " FS_SLURM_CONFDIR
			" or in " FS_SLURM_CONFIGLESS_DIR ", no fabsched.so arguments in a "
			"plugstack.conf there; expected --conf FILE (without a file the plugins and "
			"helpers use the built-in defaults, which fabsched config show prints)\n");
		rc = FS_EXIT_INPUT;
	} else {
		if (fs_conf_is_builtin(conf))
			fprintf(stderr,
				"fabsched config show: no fabsched.conf (none named, none "
				"beside $SLURM_CONF, in " FS_SLURM_CONFDIR
				" or in " FS_SLURM_CONFIGLESS_DIR "): the built-in defaults\n");
		rc = _bases(conf) + _files(conf) ? FS_EXIT_INPUT : FS_EXIT_OK;
		if (!strcmp(verb, "show") && fs_conf_dump(conf, stdout) != 0) {
			fprintf(stderr, "fabsched config: cannot write the configuration\n");
			rc = FS_EXIT_INPUT;
		}
	}
	fs_conf_destroy(conf);
	fs_errors_free(errs);
	return rc;
}

const struct fs_cmd fs_cmd_config = {
	.name = "config",
	.summary = "check fabsched.conf and show the configuration in effect",
	.run = _run,
	.usage = _usage,
	.opts = _config_opts,
	.verbs = "show check",
};
