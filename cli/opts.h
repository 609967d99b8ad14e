/*
 * opts.h — the options of each fabsched command, in one table.
 *
 * A command's table is the one statement of its options: the parser
 * (getopt_long) is built from it, its --help lists it, `fabsched help
 * --options COMMAND` prints it for the bash completion, and a test compares
 * it with fabsched(1) (tests/unit/test_cli_options.sh).
 *
 * An old spelling (.now set) is still accepted, with one warning naming
 * the spelling that replaces it; --help, the completion and the man
 * page's option lists do not offer it.
 */
#ifndef FABSCHED_CLI_OPTS_H
#define FABSCHED_CLI_OPTS_H

#include <getopt.h>
#include <stdio.h>

#define FS_OPT_MAX 48

struct fs_opt {
	int key;	     /* what fs_cli_opt_next returns: a letter, or >= 256 */
	char shortc;	     /* -X, or 0 */
	const char *name;    /* --name, or NULL */
	const char *arg;     /* the value's name (FILE, N), NULL: takes none */
	const char *help;    /* what it does; "\n" continues on the next line */
	const char *heading; /* a group heading printed before it, or NULL */
	const char *now;     /* an old spelling: the option that replaces it */
};

/* --conf and --model as the commands that read fabsched.conf and the
 * model take them (keys 'c' and 'm'). */
#define FS_OPTS_CONF_MODEL                                                                      \
	{ 'c',	0,   "conf", "FILE", "fabsched.conf (default: the search of fabsched.conf(5))", \
	  NULL, NULL },                                                                         \
	{                                                                                       \
		'm', 0, "model", "FILE",                                                        \
			"the fabric model (default: FabricModel of fabsched.conf)", NULL, NULL  \
	}

/* A parse of argv by one table (zeroed, then .prog and .tab set). */
struct fs_optp {
	const char *prog;	  /* "fabsched topo", for messages */
	const struct fs_opt *tab; /* ends with an entry of key 0 */
	struct option lo[FS_OPT_MAX + 1];
	char so[3 * FS_OPT_MAX + 2];
	const struct fs_opt *hit; /* the entry fs_cli_opt_next last matched */
	int built;
};

/*
 * The next option of argv: its table key, -1 at the end of the options
 * (optind at the first operand), or '?' for an unknown option or a
 * missing value, said on stderr with the option as given.  An old
 * spelling is warned about (on stderr) each time it is used.  Starts
 * again at argv[1] on the first call.
 */
int fs_cli_opt_next(struct fs_optp *p, int argc, char **argv);

/* Every current option of @tab for --help, under its headings. */
void fs_cli_opt_help(FILE *out, const struct fs_opt *tab);

/*
 * @tab in the machine form of `fabsched help --options`: one line per
 * option, "-X --name VALUE" ("-" for what it has not), and for an old
 * spelling a fourth field, "old:--new".
 */
void fs_cli_opt_list(FILE *out, const struct fs_opt *tab);

#endif
