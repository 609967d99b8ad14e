/*
 * opts.c — a command's option table as its parser, its --help and its
 * machine-readable list (opts.h).
 */
#include "opts.h"

#include <string.h>

#define HELP_COL 28   /* where the help text starts in --help */
#define LONG_VAL 1000 /* getopt_long's value of long option i: LONG_VAL + i */

static void _build(struct fs_optp *p)
{
	size_t nl = 0, ns = 0;

	p->so[ns++] = ':'; /* a missing value is ':', an unknown option '?' */
	for (int i = 0; p->tab[i].key && nl < FS_OPT_MAX; i++) {
		const struct fs_opt *o = &p->tab[i];

		if (o->name)
			p->lo[nl++] =
				(struct option){ o->name, o->arg ? required_argument : no_argument,
						 NULL, LONG_VAL + i };
		if (o->shortc && ns + 3 < sizeof(p->so)) {
			p->so[ns++] = o->shortc;
			if (o->arg)
				p->so[ns++] = ':';
		}
	}
	p->lo[nl] = (struct option){ NULL, 0, NULL, 0 };
	p->so[ns] = '\0';
	p->built = 1;
}

static const struct fs_opt *_by_short(const struct fs_opt *tab, int c)
{
	for (int i = 0; tab[i].key; i++)
		if (tab[i].shortc && tab[i].shortc == c)
			return &tab[i];
	return NULL;
}

/* The entry getopt_long's value @v names (a letter or LONG_VAL + i). */
static const struct fs_opt *_by_val(const struct fs_opt *tab, int v)
{
	/* a long option's value is one _build gave it: an index in @tab */
	if (v >= LONG_VAL)
		return &tab[v - LONG_VAL];
	return v > 0 ? _by_short(tab, v) : NULL;
}

int fs_cli_opt_next(struct fs_optp *p, int argc, char **argv)
{
	const struct fs_opt *o;
	int c;

	if (!p->built) {
		_build(p);
		optind = 1;
	}
	opterr = 0;
	c = getopt_long(argc, argv, p->so, p->lo, NULL);
	if (c == -1)
		return -1;
	if (c == ':' || c == '?') {
		const char *cmd = strncmp(p->prog, "fabsched ", 9) ? p->prog : p->prog + 9;

		o = _by_val(p->tab, optopt);
		if (c == ':' && o)
			fprintf(stderr, "%s: %s needs a value (%s)\n", p->prog, argv[optind - 1],
				o->arg ? o->arg : "?");
		else if (optopt > 0 && optopt < LONG_VAL)
			fprintf(stderr, "%s: unknown option -%c ('fabsched help %s' lists them)\n",
				p->prog, optopt, cmd);
		else
			fprintf(stderr, "%s: unknown option %s ('fabsched help %s' lists them)\n",
				p->prog, argv[optind - 1], cmd);
		return '?';
	}
	o = _by_val(p->tab, c);
	if (!o)
		return '?';
	p->hit = o;
	if (o->now) {
		if (c >= LONG_VAL)
			fprintf(stderr,
				"%s: warning: --%s is an old spelling of %s, accepted "
				"until the next release: use %s\n",
				p->prog, o->name, o->now, o->now);
		else
			fprintf(stderr,
				"%s: warning: -%c is an old spelling of %s, accepted "
				"until the next release: use %s\n",
				p->prog, o->shortc, o->now, o->now);
	}
	return o->key;
}

void fs_cli_opt_help(FILE *out, const struct fs_opt *tab)
{
	for (int i = 0; tab[i].key; i++) {
		const struct fs_opt *o = &tab[i];
		const char *h, *nl;
		int n;

		if (o->now)
			continue;
		if (o->heading)
			fprintf(out, "%s:\n", o->heading);
		if (o->shortc && o->name)
			n = fprintf(out, "  -%c, --%s", o->shortc, o->name);
		else if (o->shortc)
			n = fprintf(out, "  -%c", o->shortc);
		else
			n = fprintf(out, "      --%s", o->name);
		if (o->arg)
			n += fprintf(out, " %s", o->arg);
		if (n + 2 > HELP_COL) {
			fputc('\n', out);
			n = 0;
		}
		for (h = o->help ? o->help : "";; h = nl + 1) {
			nl = strchr(h, '\n');
			fprintf(out, "%*s%.*s\n", HELP_COL - n, "",
				(int)(nl ? nl - h : (long)strlen(h)), h);
			n = 0;
			if (!nl)
				break;
		}
	}
}

void fs_cli_opt_list(FILE *out, const struct fs_opt *tab)
{
	for (int i = 0; tab[i].key; i++) {
		const struct fs_opt *o = &tab[i];
		char s[3] = { '-', o->shortc, '\0' };

		fprintf(out, "%s %s%s %s", o->shortc ? s : "-", o->name ? "--" : "-",
			o->name ? o->name : "", o->arg ? o->arg : "-");
		if (o->now)
			fprintf(out, " old:%s", o->now);
		fputc('\n', out);
	}
}
