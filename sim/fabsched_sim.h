/*
 * fabsched_sim.h - trace-driven simulator of fabsched (libfabsched_sim).
 *
 * Replays a job log in the Standard Workload Format (SWF) of the Parallel
 * Workloads Archive, or a site's own Slurm accounting history (sacct
 * --json or sacct -P), on a fat-tree machine or the site's fabric model
 * with an FCFS + EASY backfill
 * scheduler, and places every job with one of four policies:
 *   - FSS_POL_ENGINE: the fabsched placement engine (select/, fse_place),
 *     the same code the Slurm plugins call, at a locality level with a
 *     wait bound;
 *   - FSS_POL_TREE: what stock Slurm does with topology/tree (best fit on
 *     leaf switches under the lowest switch that fits, no waiting);
 *   - FSS_POL_SWITCHES: the same with --switches=1@wait on every job that
 *     fits in a rack (it waits up to wait for one leaf switch);
 *   - FSS_POL_FIRSTFIT: the first free nodes in node order.
 * Then computes placement-quality and scheduling metrics of the run.
 *
 * Conventions
 *  - Functions returning int: 0 on success, -1 on error with a one-line
 *    message in (err, errlen) (trace errors as "file:line: what").
 *    Nothing exits or aborts; only fss_simulate with opts.progress writes
 *    (progress lines on stderr).
 *  - Ownership: every *_new / *_read / fss_simulate result is freed by its
 *    *_free (NULL is fine).  A machine and a trace are read-only during a
 *    run and may be shared by several runs.
 *  - Deterministic: same trace, machine, policy and options give the same
 *    schedule.  Only the decision-time figures depend on the host.
 */
#ifndef FABSCHED_SIM_H
#define FABSCHED_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fabsched_select.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FSS_INFINITE INT64_MAX
/* Slurm's default max_switch_wait (SchedulerParameters), seconds */
#define FSS_SWITCH_WAIT_DEFAULT 300

/* ------------------------------------------------------------ SWF trace */

/*
 * Rules for the 18 SWF fields (-1 = unknown):
 *  - header lines start with ';'; "; MaxNodes: N", "; MaxProcs: N" and
 *    the notes below are read, other header lines ignored; blank lines
 *    are ignored;
 *  - a job line has exactly 18 numeric fields, else the read fails with
 *    "file:line: ...";
 *  - processors: requested processors (field 8) when > 0, else allocated
 *    processors (field 5); neither known: job dropped (no_procs);
 *  - run time (field 4) unknown (< 0): job dropped (no_run);
 *  - requested time (field 9) unknown (<= 0): the run time; a requested
 *    time shorter than the run time is raised to it (the job would have
 *    been killed at its limit; the log says it was not);
 *  - node types: notes that add node types up with '+', counts
 *    ("; Note: 5040 thin nodes + 360 fat nodes") and processors ("; Note:
 *    80640 in thin nodes + 11520 cores in fat nodes"), matched by type
 *    name; a note of that shape with a term of another form is ignored
 *    (header_why says why, header_ignored counts them), and so are all
 *    the types when they disagree with MaxNodes or MaxProcs, or the
 *    majority type's processors are unknown or not a whole number per
 *    node.  The machine holds nodes of one size only (fss_machine has no
 *    per-node processors; a job asks whole nodes), so the majority type
 *    (most nodes; the first of a tie) gives the node size and the other
 *    types' nodes are modelled as nodes of that type;
 *  - nodes = ceil(processors / procs per node); procs per node, as an
 *    analyst would derive it (procs_why says which and why): the option;
 *    else the majority node type of the notes; else MaxProcs / MaxNodes
 *    of the header when both are given and divide exactly; else a header
 *    note giving it ("; Note: ... 8 processors per node", "... nodes with
 *    8 cores each", "8-way nodes", "16-core nodes", "each node has 2
 *    sockets with 12 cores": 24); else the job widths' divisor: the
 *    largest d that at least 9 in 10 of the multi-processor jobs (at least
 *    20 of them) ask a multiple of, taken only when d >= 8 (2 or 4 divide
 *    most widths of any log) and d is at most twice MaxProcs / MaxNodes,
 *    or at most MaxProcs when only that is given; else MaxProcs / MaxNodes
 *    rounded; else 1;
 *  - machine size: the option, else MaxNodes, else the nodes of the node
 *    types when they are not ignored, else the widest job; a job wider
 *    than the machine is dropped (too_wide);
 *  - submit time unknown: the read fails.  Jobs are replayed in the
 *    order of their submit times (line order on ties).
 */
struct fss_swf_opts {
	int procs_per_node; /* 0: from the header, else 1 (SWF only) */
	int machine_nodes;  /* 0: MaxNodes of the header (sacct: the
				   hosts of the jobs' node lists) */
	long limit;	    /* > 0: only the first limit jobs kept (SWF:
				   in file order; sacct: by submit time) */
};

struct fss_job {
	long id;	/* field 1 */
	long line;	/* line in the file */
	int64_t submit; /* seconds, field 2 */
	int64_t run;	/* seconds, field 4 */
	int64_t req;	/* requested time after the rules, seconds */
	int procs;	/* processors after the rules */
	int nodes;	/* nodes after the rules */
	int status;	/* field 11; -1 when unknown or beyond an int
				   (sacct: 1 COMPLETED, 5 CANCELLED, 0 other
				   ends, -1 other states) */
	int part;	/* index into trace->parts; -1 none (SWF) */
};

/* The formats fss_trace_read tells apart by content. */
enum fss_trace_format {
	FSS_TRACE_SWF = 0,
	FSS_TRACE_SACCT_JSON = 1,     /* sacct --json */
	FSS_TRACE_SACCT_PARSABLE = 2, /* sacct -P or -p, with its header */
};

/* sacct: job records not replayed, by reason (see below). */
struct fss_sacct_counts {
	long steps;	     /* step lines skipped (sacct -P without -X) */
	long cancelled;	     /* cancelled before they started */
	long not_started;    /* other jobs that never started (pending) */
	long running;	     /* started, not ended */
	long no_nodes;	     /* no node count */
	long bad_time;	     /* end before start */
	long het_components; /* kept: components of heterogeneous jobs */
	long array_tasks;    /* kept: tasks of job arrays (JSON only) */
	long from_eligible;  /* kept: arriving at their eligible time */
};

/* A node type of an SWF header's notes. */
#define FSS_NODE_TYPES 16
struct fss_node_type {
	char name[32]; /* as the notes spell it, lower case */
	int nodes;     /* "5040 thin nodes"; 0: no count */
	int procs;     /* "80640 in thin nodes", all its nodes'; 0:
				   not given */
};

struct fss_trace {
	char *name;	      /* file name */
	struct fss_job *jobs; /* by submit time */
	long njobs;
	long lines;				    /* job lines read */
	int max_nodes, max_procs;		    /* header, -1 when absent */
	int procs_per_node;			    /* used */
	char procs_why[256];			    /* where procs_per_node comes from */
	int ppn_note;				    /* from a header note, 0 none */
	struct fss_node_type types[FSS_NODE_TYPES]; /* header notes */
	int ntypes;
	int type_major;	      /* index of the majority type when the types
				   are not ignored, else -1 (SWF) */
	int type_nodes;	      /* their nodes then, else 0 */
	int header_ignored;   /* header notes (and node type sets) ignored */
	char header_why[256]; /* the first of them and why, "" none */
	int machine_nodes;    /* used */
	long dropped_too_wide, dropped_no_run, dropped_no_procs;
	long req_from_run;     /* requested time was unknown */
	long req_raised;       /* requested time < run time */
	long procs_from_alloc; /* requested processors were unknown */
	/* sacct traces (zero, empty or NULL for SWF) */
	enum fss_trace_format format;
	char source[160];    /* "sacct --json of Slurm 24.11.5
				   (data_parser/v0.0.42)", "sacct -P" */
	char nodes_why[160]; /* where machine_nodes comes from */
	int hosts;	     /* distinct hosts of the kept jobs' node lists */
	char **parts;	     /* partition names, by first appearance */
	int nparts;
	struct fss_sacct_counts sacct;
};

/*
 * What a replay of the trace asks of the machine: node-seconds of its jobs
 * over machine nodes x the span from the first submit to the last end (1:
 * the machine is kept full).  And the share of the trace's job lines that
 * were dropped.  fss_trace_warnings writes one "warning: ..." line per
 * figure above its limit (more than 1 % dropped; load above 1) into buf
 * (NUL-terminated) and returns how many.
 */
double fss_trace_load(const struct fss_trace *tr);
double fss_trace_dropped(const struct fss_trace *tr);
int fss_trace_warnings(const struct fss_trace *tr, char *buf, size_t size);

/*
 * Moves each job's submit time by a whole number of seconds drawn evenly
 * from [-seconds, seconds], from the job's place in the trace and @seed
 * alone (the same trace, seconds and seed give the same times on every
 * host), then replays them in the new order (line order on ties) and
 * counts the times again from the earliest.  A replay of a loaded queue
 * is chaotic: one job started elsewhere shifts many later ones, so
 * replays of a few jittered copies tell a policy's effect from that
 * chaos.  seconds 0 changes nothing.  0, or -1 when seconds is negative or
 * above INT32_MAX.
 */
int fss_trace_jitter(struct fss_trace *tr, int64_t seconds, uint64_t seed);

/* Reads a plain or gzip-compressed SWF file (zlib). */
int fss_swf_read(const char *path, const struct fss_swf_opts *opts, struct fss_trace **out,
		 char *err, size_t errlen);
void fss_trace_free(struct fss_trace *tr);

/* ------------------------------------------------------------ sacct trace */

/*
 * A site's Slurm accounting history, plain or gzip-compressed:
 *  - sacct --json: the object with "jobs": [...], as 22.05 prints it
 *    (openapi/dbv0.0.38: plain numbers, null when unset, state/current a
 *    string) and 24.11, 25.11, 26.05 (data_parser v0.0.40 to v0.0.45:
 *    time/limit, array/task_id, het/job_offset as {"set", "infinite",
 *    "number"}, state/current a list, base state first).  Per job:
 *    job_id, time/submission, time/eligible, time/start, time/end (seconds
 *    since the epoch, 0 unset), time/limit (minutes), state/current,
 *    allocation_nodes, required/CPUs, partition, nodes, het/job_id,
 *    array/job_id; steps and every other member ignored;
 *  - sacct -P (or -p) output: a header line naming, in any order, at least
 *    JobIDRaw, Submit, Start, End, Timelimit (or TimelimitRaw), NNodes and
 *    State; Partition, NCPUS (or AllocCPUS), NodeList and Eligible read
 *    when there, other columns ignored.  Times as sacct prints them
 *    (YYYY-MM-DDTHH:MM:SS in the local time zone, or seconds since the
 *    epoch with SLURM_TIME_FORMAT=%s; Unknown and None: unset); a line of another
 *    field count than the header, or a value of another form, fails the
 *    read with "file:line: what; expected ...".
 * Rules, per job record:
 *  - a step line (sacct -P without -X: a JobIDRaw with a '.', 123.batch):
 *    skipped (steps);
 *  - no start time: dropped, as cancelled when its state is CANCELLED,
 *    else not_started; a start but no end: dropped (running); an end
 *    before the start: dropped (bad_time); no submit time: the read fails;
 *  - arrival: the submit time, or the eligible time when it is later
 *    (and not after the start: a job held, with --begin or a dependency
 *    waited before it was eligible, not for the scheduler;
 *    from_eligible);
 *  - run time = end - start; requested time = the time limit; none,
 *    UNLIMITED or Partition_Limit: the run time (req_from_run); shorter
 *    than the run time: raised to it (req_raised);
 *  - nodes: allocated nodes (sacct -P's NNodes: allocated, else
 *    requested); 0: dropped (no_nodes); procs: required/CPUs (JSON) or
 *    NCPUS (-P), 0 when unknown (nodes are not derived from them);
 *  - array tasks are jobs; the components of a heterogeneous job are
 *    replayed as separate jobs, each with its own nodes (het_components);
 *  - every partition is replayed on the one machine; the name is kept per
 *    job (fss_job.part);
 *  - submit times are seconds from the earliest kept submission; jobs are
 *    replayed by submit time (record order on ties), the first limit
 *    ones when limit > 0;
 *  - machine size: machine_nodes of the options, else the larger of the
 *    distinct hosts in the kept jobs' node lists and the widest job
 *    (nodes_why says which); a job wider than it is dropped (too_wide).
 */
int fss_sacct_read(const char *path, enum fss_trace_format fmt, const struct fss_swf_opts *opts,
		   struct fss_trace **out, char *err, size_t errlen);

/* The format of a trace file from its first line: '{' opens sacct --json,
 * a first line with a '|' is sacct -P's header, anything else SWF. */
int fss_trace_detect(const char *path, enum fss_trace_format *fmt, char *err, size_t errlen);
/* fss_trace_detect, then fss_swf_read or fss_sacct_read. */
int fss_trace_read(const char *path, const struct fss_swf_opts *opts, struct fss_trace **out,
		   char *err, size_t errlen);
/* What a sacct trace held and what was not replayed, by reason: one line
 * (no newline) into buf; returns its length as snprintf does. */
int fss_sacct_summary(const struct fss_trace *tr, char *buf, size_t size);

/* ------------------------------------------------------------ machine */

/*
 * Nodes numbered rack by rack; racks numbered pod by pod.  The switch
 * tree is leaf (one per rack), pod switch (one per pod) and one root.
 */
struct fss_machine {
	struct fse_topo *topo; /* the engine's domains */
	int nnodes, nracks, npods;
	int *node_rack;	 /* [nnodes] */
	int *rack_pod;	 /* [nracks], -1 none */
	int *rack_start; /* [nracks + 1] into rack_nodes */
	int *rack_nodes; /* nodes of each rack, index order */
	int max_rack;	 /* nodes in the largest rack */
	char desc[160];	 /* "100 nodes, 5 racks of 20, 1 pod" */
};

/* nnodes nodes in racks of rack_size (the last one may be smaller),
 * racks_per_pod racks per pod (0: one pod). */
int fss_machine_fattree(int nnodes, int rack_size, int racks_per_pod, struct fss_machine **out,
			char *err, size_t errlen);
/* The compute hosts of a fabric model (fabsched topo discover JSON), in
 * the model's host order. */
int fss_machine_from_model(const char *path, struct fss_machine **out, char *err, size_t errlen);
void fss_machine_free(struct fss_machine *m);

/* ------------------------------------------------------------ policies */

enum fss_policy_kind {
	FSS_POL_ENGINE = 0,
	FSS_POL_TREE = 1,
	FSS_POL_FIRSTFIT = 2,
	FSS_POL_SWITCHES = 3, /* tree, jobs that fit a rack --switches=1@wait */
};

struct fss_policy {
	enum fss_policy_kind kind;
	enum fse_level level; /* ENGINE */
	int64_t wait;	      /* ENGINE: seconds a job waits for its level
				   before taking the tightest placement free
				   (relaxed); FSS_INFINITE: never relaxed;
				   SWITCHES: the @wait of --switches=1 */
	double target;	      /* ENGINE: locality target in (0, 1] (see
				   fse_share_relax), 0: none */
	uint32_t ratio;	      /* ENGINE: wait only for a rack expected within
				   ratio times the job's requested time
				   (struct fse_request wait_ratio), 0: none */
	char name[48];	      /* "rack@00:10:00", "rack@1-00:00:00/99%",
				   "rack@2-00:00:00/2x", "tree" */
};

/*
 * "rack|pod|any[@wait][/target[%]][/<ratio>x]" (engine; wait in Slurm time
 * format or INFINITE, no @: INFINITE; target a percentage in (0, 100],
 * rack and pod only: the locality target of fse_share_relax over the last
 * FSE_SHARE_WINDOW counted jobs; ratio 1-1000, rack only: a job
 * waits for a rack only when one is expected within ratio times its
 * requested time, as fse_request's wait_ratio), "tree" (stock Slurm topology/tree),
 * "switches[@wait]" (stock topology/tree with --switches=1@wait on every
 * job that fits in a rack, as a job_submit or cli_filter rule gives it;
 * no @: Slurm's default max_switch_wait, 300 s) or "firstfit".
 */
int fss_policy_parse(const char *s, struct fss_policy *p, char *err, size_t errlen);

/* Placement state shared by the policies. */
struct fss_placer;

struct fss_placer *fss_placer_new(const struct fss_machine *m, const struct fss_policy *p);
void fss_placer_free(struct fss_placer *pl);

enum fss_place_status {
	FSS_PLACED = 0,
	FSS_WAIT = 1, /* not now; could_relax says locality only */
	FSS_NEVER = 2,
};

/*
 * Choose n nodes among avail[i] != 0 for a job that has waited `waited`
 * seconds.  FSS_PLACED: nodes[0..n) filled (index order) and *nracks set.
 * *locality_only (FSS_WAIT) is true when enough nodes are free but not
 * with the required locality.
 */
enum fss_place_status fss_place(struct fss_placer *pl, const uint8_t *avail, int n, int64_t waited,
				int *nodes, int *nracks, bool *locality_only);

/* The nodes of each of the machine's racks (its engine's domains) with
 * avail set, kept by the caller, for the next fss_place calls (struct
 * fse_request rack_free; NULL: counted at each call). */
void fss_placer_racks(struct fss_placer *pl, const int *rack_free);

/* What the next fss_place calls know of time: when each node is expected
 * free (the requested ends of its jobs, free_at[nnodes], kept by the
 * caller), the time now and the job's requested time (s).  Used by the
 * engine with a ratio. */
void fss_placer_clock(struct fss_placer *pl, const int64_t *free_at, int64_t now, int64_t limit);

/* The job of the last FSS_PLACED fss_place started: counts it toward the
 * policy's locality target (nothing for other policies). */
void fss_placer_started(struct fss_placer *pl);

/* ------------------------------------------------------------ simulation */

struct fss_sim_opts {
	int bf_depth;	   /* queued jobs tested per backfill pass after
				   the first blocked one; 0: 500 (Slurm's
				   bf_max_job_test default) */
	bool progress;	   /* progress and ETA on stderr */
	const char *label; /* in progress lines */
	bool check_tally;  /* recount the racks' free nodes at every decision
				   against those kept as jobs start and end; a
				   difference fails the run (tests) */
	bool reserve_all;  /* Slurm's backfill: every blocked job tested gets
				   a reservation (its earliest start on the
				   nodes the policy gives it then), and a later
				   job starts now only on nodes no earlier
				   reservation holds over its requested time;
				   false: EASY (the first blocked job only) */
};

/* Per job of the trace (same index). */
struct fss_jobrun {
	int64_t start; /* -1: never started (FSS_NEVER) */
	int nracks;
	long node_off; /* into run->nodes; nodes count = job nodes */
};

/* Decision-time histogram: 0.1 us bins below 1 ms, 10 us bins above. */
#define FSS_HIST_FINE 10000
#define FSS_HIST_COARSE 10000
struct fss_hist {
	uint64_t fine[FSS_HIST_FINE];
	uint64_t coarse[FSS_HIST_COARSE];
	uint64_t over, n;
};

struct fss_run {
	struct fss_policy policy;
	const struct fss_trace *trace;
	const struct fss_machine *machine;
	struct fss_jobrun *jobs; /* [trace->njobs] */
	int *nodes;		 /* every started job's nodes */
	long never;		 /* jobs that could never be placed */
	long decisions;		 /* placement calls */
	struct fss_hist hist;	 /* their durations */
	double wall_s;		 /* wall time of the run */
};

int fss_simulate(const struct fss_machine *m, const struct fss_trace *tr,
		 const struct fss_policy *p, const struct fss_sim_opts *opts, struct fss_run **out,
		 char *err, size_t errlen);
void fss_run_free(struct fss_run *r);

/* ------------------------------------------------------------ report */

struct fss_metrics {
	long jobs;		      /* started jobs */
	long rack_fit;		      /* of them: nodes <= largest rack */
	long rack_fit_one;	      /* of those: placed in one rack */
	double rack_fit_share;	      /* rack_fit_one / rack_fit */
	double racks_mean, racks_p95; /* racks per job */
	double split_nodehours_share; /* node-hours of jobs over > 1 rack */
	double utilization;	      /* node-seconds / (nodes x makespan) */
	double wait_mean, wait_p95;   /* seconds */
	double bsld_mean;	      /* bounded slowdown, tau 10 s */
	int64_t makespan;	      /* last end - first submit, seconds */
	double decide_median_us, decide_p99_us;
	long decisions;
};

#define FSS_BSLD_TAU 10

void fss_metrics_compute(const struct fss_run *r, struct fss_metrics *mt);

/* Value at quantile q (0..1) of the histogram, microseconds. */
double fss_hist_quantile(const struct fss_hist *h, double q);

/* Reports on several runs of one trace and machine. */
void fss_report_text(FILE *f, struct fss_run *const *runs, int n);
void fss_report_csv(FILE *f, struct fss_run *const *runs, int n, bool header);
void fss_report_json(FILE *f, struct fss_run *const *runs, int n);
/* Locality share vs mean wait, one point per policy. */
void fss_svg_compare(FILE *f, struct fss_run *const *runs, int n, const char *title);
/* Busy share of each rack over time (a heat map), one panel per run. */
void fss_svg_occupancy(FILE *f, struct fss_run *const *runs, int n, const char *title);
/* One line per job: id,submit,start,end,nodes,racks,node list. */
void fss_schedule_csv(FILE *f, const struct fss_run *r);

#ifdef __cplusplus
}
#endif
#endif /* FABSCHED_SIM_H */
