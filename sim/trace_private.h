/*
 * trace_private.h - what the trace readers of sim/ share: the jobs array
 * (swf.c), gzip lines of any length (trace.c) and the sacct record that
 * the JSON and -P readers fill and sacct.c turns into jobs.
 */
#ifndef FSS_TRACE_PRIVATE_H
#define FSS_TRACE_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <zlib.h>

#include "fabsched_sim.h"

/* Appends j to tr->jobs (capacity *cap, doubled as needed); -1 out of
 * memory. */
int fss_trace_push(struct fss_trace *tr, long *cap, const struct fss_job *j);
/* Sorts tr->jobs by submit time, line order on ties. */
void fss_trace_sort(struct fss_trace *tr);

/* One line of gz, newline stripped, into *buf (grown as needed): 1 a
 * line, 0 end of file, -1 out of memory. */
int fss_gz_line(gzFile gz, char **buf, size_t *cap);

/* Seconds since the epoch beyond this (year 5138) are no time but one of
 * Slurm's placeholders, or junk: sums of times stay far inside int64. */
#define SACCT_TIME_MAX 100000000000LL

/* One job record of sacct, as the readers found it. */
struct sacct_rec {
	long id;
	long line;		    /* -P: line; JSON: index in "jobs", from 1 */
	int64_t submit, start, end; /* seconds since the epoch, -1 unset */
	int64_t eligible;	    /* the same; -1 unset (no such column) */
	int64_t limit;		    /* seconds, -1 none or unlimited */
	int64_t nodes, cpus;	    /* -1 unknown */
	const char *state;	    /* base state, upper case ("" unknown) */
	const char *partition;	    /* "" none */
	const char *nodelist;	    /* Slurm hostlist, "" or "None assigned": none */
	bool het, array;	    /* a component of a het job, an array task */
};

struct sacct_build {
	struct fss_trace *tr;
	long cap;     /* of tr->jobs */
	int part_cap; /* of tr->parts */
	char **hosts; /* names seen; [0, hsorted) sorted, unique */
	long nhosts, hsorted, hcap;
};

/* A build of a trace read from path: -1 out of memory. */
int fss_sacct_begin(struct sacct_build *b, const char *path, enum fss_trace_format fmt);
/* Applies the rules of fabsched_sim.h to one record. */
int fss_sacct_add(struct sacct_build *b, const struct sacct_rec *r);
/* Submit times, order, limit and machine size; the trace goes to *out. */
int fss_sacct_finish(struct sacct_build *b, const struct fss_swf_opts *o, struct fss_trace **out,
		     char *err, size_t errlen);
void fss_sacct_abort(struct sacct_build *b);

/* The readers: records to fss_sacct_add. */
int fss_sacct_json_read(gzFile gz, const char *path, struct sacct_build *b, char *err,
			size_t errlen);
int fss_sacct_parsable_read(gzFile gz, const char *path, struct sacct_build *b, char *err,
			    size_t errlen);

#endif
