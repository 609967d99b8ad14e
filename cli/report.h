/*
 * report.h - the figures of `fabsched report` (cmd_report.c), shared with
 * its HTML page (report_html.c).
 */
#ifndef FABSCHED_CLI_REPORT_H
#define FABSCHED_CLI_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fabsched_select.h"

#define REPORT_TOP 10	  /* jobs listed of each kind, per partition */
#define REPORT_BUCKETS 60 /* the period's buckets, at most about */

/* One time bucket of a partition: jobs, those that fit one domain, of
 * them those that got one and those fabsched would have placed in one
 * (at once or after holding them). */
struct rep_bucket {
	unsigned long jobs, fit, got, would;
};

struct rep_part {
	char name[64];				   /* the log's: "-" for jobs without one */
	unsigned long jobs, fit;		   /* observed; fit one domain (rack-fittable) */
	unsigned long got, would;		   /* fitting, in one domain: got; would at once */
	unsigned long held, held_fit;		   /* would have kept waiting: all; fitting */
	unsigned long placed;			   /* fabsched would have placed (rack, pod, any) */
	unsigned long long racks_got, racks_would; /* summed over the placed */
	struct fse_obs differ[REPORT_TOP];	   /* would one rack, got the most racks */
	int ndiffer;
	struct fse_obs held_last[REPORT_TOP]; /* the latest held, newest first */
	int nheld;
	struct rep_bucket *b; /* [nb] of struct report */
};

struct report {
	int64_t since, until; /* the period asked: [since, until) */
	bool since_set, until_set;
	int64_t first, last; /* the first and last observation in it */
	int64_t *start;	     /* [nb + 1]: each bucket's start, then the end */
	int nb;
	char bucket[32]; /* "hour", "day", "week", "4 weeks" */
	struct rep_part *p;
	int np;
	unsigned long jobs, bad;
	const char *file[2]; /* the files read, older first (NULL: none) */
};

/* The share @a of @b as "40.0% (2 of 5)" into @buf ("-" when b is 0). */
char *fs_cli_report_share(unsigned long a, unsigned long b, char *buf, size_t n);
/* Local time "YYYY-MM-DDTHH:MM:SS". */
char *fs_cli_report_time(int64_t t, char *buf, size_t n);

/* The whole page to @f: a table, per partition a plot of the one-domain
 * share got and would per bucket, and its jobs; text of the log escaped. */
void fs_cli_report_html(FILE *f, const struct report *r);

#endif
