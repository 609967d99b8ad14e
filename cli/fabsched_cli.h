/* fabsched_cli.h — the fabsched command: subcommand table and exit codes. */
#ifndef FABSCHED_CLI_H
#define FABSCHED_CLI_H

#include <stdint.h>
#include <stdio.h>

/* Exit codes of every subcommand (documented in fabsched(1)). */
#define FS_EXIT_OK       0	/* success */
#define FS_EXIT_INPUT    1	/* input error: unreadable or malformed file, discovery failed */
#define FS_EXIT_USAGE    2	/* usage error: unknown subcommand or option */
#define FS_EXIT_PROBLEMS 3	/* a check or diff found problems/differences */

struct fs_opt;
struct fs_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);	/* argv[0] is the subcommand name */
	void (*usage)(FILE *out);
	const struct fs_opt *opts;	/* its options (opts.h) */
	const char *verbs;		/* its subcommands, space-separated, or NULL */
};

/* One entry per subcommand file. */
extern const struct fs_cmd fs_cmd_topo;
extern const struct fs_cmd fs_cmd_config;
extern const struct fs_cmd fs_cmd_sim;
extern const struct fs_cmd fs_cmd_metrics;
extern const struct fs_cmd fs_cmd_job;
extern const struct fs_cmd fs_cmd_show;

/* cli_slurm.c: what `fabsched job` and `fabsched metrics` read from
 * slurmctld's side.  The locality record's path (FSE_SHARE_FILE in the
 * StateSaveLocation of `scontrol show config`), malloc'ed, or NULL. */
char *fs_cli_share_file(void);

/* A node's record of job @id under JobRecordDir @dir (job_record.c): a
 * JSON object (hcas, hugepages, mounts, scratch, tasks), NULL when there
 * is none; its lines printed to @text when not NULL. */
struct json_object;
struct json_object *fs_cli_job_record(const char *dir, uint32_t id, const char *node,
				      FILE *text);
/* The record read into a new ledger (the caller frees it with
 * fse_ledger_free), or NULL with *why; a partly malformed file gives the
 * ledger of its good lines and *why. */
struct fse_ledger;
struct fse_ledger *fs_cli_read_record(const char *path, char *why, size_t n);
/* Partition @k of @l: how many of its last *count jobs got their domain. */
void fs_cli_record_counts(const struct fse_ledger *l, int k, unsigned *got, unsigned *count);

#endif
