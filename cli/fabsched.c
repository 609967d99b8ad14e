/*
 * fabsched — command-line front end.  Generic dispatcher: each subcommand
 * is an entry of _cmds (cli/cmd_<name>.c) with its own options and usage.
 */
#include "fabsched_config.h"
#include "fabsched_cli.h"
#include "opts.h"

#include <stdio.h>
#include <string.h>

static const struct fs_cmd *const _cmds[] = { &fs_cmd_topo,   &fs_cmd_config,
					      &fs_cmd_sim,    &fs_cmd_metrics,
					      &fs_cmd_job,    &fs_cmd_show,
					      &fs_cmd_report, NULL };

static void _usage(FILE *out)
{
	fprintf(out, "usage: fabsched <command> [options]\n"
		     "       fabsched help <command>\n"
		     "       fabsched help --options <command>   (its options, one per line)\n"
		     "       fabsched --version\n\ncommands:\n");
	for (int i = 0; _cmds[i]; i++)
		fprintf(out, "  %-8s %s\n", _cmds[i]->name, _cmds[i]->summary);
	fprintf(out, "\nexit codes: 0 ok, 1 input error, 2 usage error, 3 problems found\n"
		     "(each command's in fabsched(1), EXIT STATUS)\n");
}

static const struct fs_cmd *_find(const char *name)
{
	for (int i = 0; _cmds[i]; i++)
		if (!strcmp(_cmds[i]->name, name))
			return _cmds[i];
	return NULL;
}

/*
 * fabsched help --options [COMMAND]: a command's options in the form of
 * fs_cli_opt_list, after a line "verbs ..." when it has subcommands; without
 * a command, the commands.  For the bash completion and the test that
 * compares the tables with fabsched(1).
 */
static int _options(int argc, char **argv)
{
	const struct fs_cmd *c;

	if (argc == 0) {
		for (int i = 0; _cmds[i]; i++)
			printf("%s\n", _cmds[i]->name);
		return FS_EXIT_OK;
	}
	if (argc > 1 || !(c = _find(argv[0]))) {
		fprintf(stderr, "fabsched help --options: expected one command (%s)\n",
			argc ? argv[0] : "none given");
		return FS_EXIT_USAGE;
	}
	if (c->verbs)
		printf("verbs %s\n", c->verbs);
	fs_cli_opt_list(stdout, c->opts);
	return FS_EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct fs_cmd *c;

	if (argc < 2) {
		_usage(stderr);
		return FS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		_usage(stdout);
		return FS_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("fabsched %s\n", PACKAGE_VERSION);
		return FS_EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc < 3) {
			_usage(stdout);
			return FS_EXIT_OK;
		}
		if (!strcmp(argv[2], "--options"))
			return _options(argc - 3, argv + 3);
		c = _find(argv[2]);
		if (!c) {
			fprintf(stderr, "fabsched: unknown command '%s'\n", argv[2]);
			return FS_EXIT_USAGE;
		}
		c->usage(stdout);
		return FS_EXIT_OK;
	}
	c = _find(argv[1]);
	if (!c) {
		fprintf(stderr, "fabsched: unknown command '%s'\n", argv[1]);
		_usage(stderr);
		return FS_EXIT_USAGE;
	}
	return c->run(argc - 1, argv + 1);
}
