/* fabsched_cli.h — the fabsched command: subcommand table and exit codes. */
#ifndef FABSCHED_CLI_H
#define FABSCHED_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes of every subcommand (documented in fabsched(1)). */
#define FS_EXIT_OK 0	   /* success */
#define FS_EXIT_INPUT 1	   /* input error: unreadable or malformed file, discovery failed */
#define FS_EXIT_USAGE 2	   /* usage error: unknown subcommand or option */
#define FS_EXIT_PROBLEMS 3 /* a check or diff found problems/differences */

struct fs_opt;
struct fs_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
	void (*usage)(FILE *out);
	const struct fs_opt *opts; /* its options (opts.h) */
	const char *verbs;	   /* its subcommands, space-separated, or NULL */
};

/* One entry per subcommand file. */
extern const struct fs_cmd fs_cmd_topo;
extern const struct fs_cmd fs_cmd_config;
extern const struct fs_cmd fs_cmd_sim;
extern const struct fs_cmd fs_cmd_metrics;
extern const struct fs_cmd fs_cmd_job;
extern const struct fs_cmd fs_cmd_show;
extern const struct fs_cmd fs_cmd_report;

/* cli_slurm.c: what `fabsched job` and `fabsched metrics` read from
 * slurmctld's side.  The locality record's path (FSE_SHARE_FILE in the
 * StateSaveLocation of `scontrol show config`), malloc'ed, or NULL. */
char *fs_cli_share_file(void);
/* The observation log of Locality=observe (FSE_OBSERVE_FILE in the same
 * StateSaveLocation), malloc'ed, or NULL. */
char *fs_cli_observe_file(void);
/* @s into an HTML page (text or a quoted attribute value), escaped. */
void fs_cli_html_esc(FILE *f, const char *s);

/*
 * observe_log.c: the observation log read for job, metrics and report.
 * The log is slurmctld's, in a directory others may write to, so it is
 * read as hostile: never through a link, regular files only, at most
 * FSE_OBSERVE_MAX bytes of each file (the writer rotates before that),
 * every line through fse_obs_parse.  A line not of the form is counted,
 * the first of each file kept as "<file>:<line>: <message>", and never
 * used.  "<path>.1" (the older half) is read before <path>; of a job's
 * lines the last one counts.
 */
#define FS_OBS_FILES 2 /* "<path>.1", then <path> */
struct fs_obs_line {
	const char *text; /* NUL-terminated, in the log's buffer */
	uint64_t job;	  /* job id << 32 | array task (FSE_NO_TASK) */
	size_t seq;	  /* its place in the log */
};
struct fs_obs_log {
	char *file[FS_OBS_FILES];	    /* the paths read, older first; NULL: not there */
	char *buf[FS_OBS_FILES];	    /* their text, each line NUL-terminated */
	unsigned long bad[FS_OBS_FILES];    /* lines not of the form */
	char first_bad[FS_OBS_FILES][1280]; /* the first: "<file>:<line>: <message>" */
	bool cut[FS_OBS_FILES];		    /* longer than FSE_OBSERVE_MAX: only its head read */
	struct fs_obs_line *line;	    /* the good lines, the last of each job, log order */
	size_t n, cap;
};
struct fse_obs;
struct fse_obs_place;
/*
 * The log at @path and "<path>.1" into a new *@log (freed with
 * fs_cli_obs_free).  RET 0, also when neither file exists (no file[] set:
 * each caller says what that means); -1 with "<file>: ...; expected ..."
 * in @why when one exists but cannot be read or is not a regular file.
 */
int fs_cli_obs_read(const char *path, struct fs_obs_log **log, char *why, size_t n);
void fs_cli_obs_free(struct fs_obs_log *log); /* NULL is fine */
/* How many files were read (0: none there). */
int fs_cli_obs_nfiles(const struct fs_obs_log *log);
/* Line @i of the log as a record.  RET 0 (it was checked when read). */
int fs_cli_obs_get(const struct fs_obs_log *log, size_t i, struct fse_obs *o);
/* Job @id's record; RET 0, -1 when the log has none. */
/* "12", or "82_0" for a task of an array (as squeue names it). */
char *fs_cli_obs_job_name(const struct fse_obs *o, char *buf, size_t n);
int fs_cli_obs_job(const struct fs_obs_log *log, uint32_t id, uint32_t task, struct fse_obs *o);
/* The bad lines on stderr after "@prog: ", one line per file that has
 * some (its count and first), and the files cut short; RET all bad lines. */
unsigned long fs_cli_obs_warn(const struct fs_obs_log *log, const char *prog);
/* A place in words: "1 rack (r3)", "2 racks (r1,r2) of one pod", "3 racks
 * (r1,r2,r5) across pods". */
char *fs_cli_obs_place(const struct fse_obs_place *p, char *buf, size_t n);
/* What the job got beside what fabsched would have done, one sentence:
 * "got 2 racks (r1,r2) across pods; fabsched would have placed it in 1
 * rack (r3)" (or "... would have kept it waiting: <why>"). */
char *fs_cli_obs_sentence(const struct fse_obs *o, char *buf, size_t n);
/* The record as JSON: {time, level, fits, nodes, waited, got{kind,
 * racks[], nracks}, would{...}, why}. */
struct json_object *fs_cli_obs_json(const struct fse_obs *o);

/* A node's record of job @id under JobRecordDir @dir (job_record.c): a
 * JSON object (hcas, hugepages, mounts, scratch, tasks), NULL when there
 * is none; its lines printed to @text when not NULL. */
struct json_object;
struct json_object *fs_cli_job_record(const char *dir, uint32_t id, const char *node, FILE *text);
/* The locality record's state file read into a new one (freed with
 * fse_locality_free), or NULL with *why; a partly malformed file gives the
 * locality record of its good lines and *why. */
struct fse_locality;
struct fse_locality *fs_cli_read_record(const char *path, char *why, size_t n);
/* Partition @k of @l: how many of its last *count jobs got their domain. */
void fs_cli_record_counts(const struct fse_locality *l, int k, unsigned *got, unsigned *count);

#endif
