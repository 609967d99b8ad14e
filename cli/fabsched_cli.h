/* fabsched_cli.h — the fabsched command: subcommand table and exit codes. */
#ifndef FABSCHED_CLI_H
#define FABSCHED_CLI_H

#include <stdio.h>

/* Exit codes of every subcommand (documented in fabsched(1)). */
#define FS_EXIT_OK       0	/* success */
#define FS_EXIT_INPUT    1	/* input error: unreadable or malformed file, discovery failed */
#define FS_EXIT_USAGE    2	/* usage error: unknown subcommand or option */
#define FS_EXIT_PROBLEMS 3	/* a check or diff found problems/differences */

struct fs_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);	/* argv[0] is the subcommand name */
	void (*usage)(FILE *out);
};

/* One entry per subcommand file. */
extern const struct fs_cmd fs_cmd_topo;
extern const struct fs_cmd fs_cmd_config;
extern const struct fs_cmd fs_cmd_sim;
extern const struct fs_cmd fs_cmd_metrics;
extern const struct fs_cmd fs_cmd_job;
extern const struct fs_cmd fs_cmd_show;

#endif
