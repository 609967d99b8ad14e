/*
 * fabsched_select.h - placement engine of fabsched (libfabsched_select).
 *
 * Decides which nodes a job gets so that it sits in the smallest locality
 * domain of the fabric that holds it: one rack (leaf switch); else the
 * fewest racks under one pod (spine group); else the fewest racks of the
 * whole fabric.  Among the domains that fit, the one with the fewest free
 * nodes wins (best fit: big holes stay for big jobs); ties go to the
 * lowest rank.  All or nothing: a result either names every node of the
 * job or none.
 *
 * No Slurm header: input is plain arrays (or a fabric model of
 * fabsched_topo.h), output plain node indices.  Node index i is whatever
 * the caller uses (the Slurm plugin uses node_record_table_ptr indices).
 *
 * Conventions
 *  - Functions returning int: 0 on success, -1 on error with a one-line
 *    message in (err, errlen) when err is not NULL.  Nothing prints,
 *    exits or aborts.
 *  - Ownership: fse_topo_new / fse_topo_from_model give a topology freed
 *    with fse_topo_free; fse_work_new a workspace freed with
 *    fse_work_free.  A topology is immutable and may be shared by
 *    threads; a workspace belongs to one thread at a time.  Pointers in a
 *    struct fse_result point into the workspace and stay valid until its
 *    next fse_place or fse_work_free.
 */
#ifndef FABSCHED_SELECT_H
#define FABSCHED_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <stdio.h>

#include "fs_values.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fst_model;

/* Locality levels, narrowest first: the levels of fabsched.conf and
 * --fabric-locality (enum fs_locality_level of common/fs_values.h). */
enum fse_level {
	FSE_RACK = FS_LOCALITY_RACK,
	FSE_POD = FS_LOCALITY_POD,
	FSE_ANY = FS_LOCALITY_ANY,
};

/* ------------------------------------------------------------ domains */

/*
 * The fabric's locality domains as plain arrays: node -> rack -> pod ->
 * plane.  Only the arrays are read (copied by fse_topo_new).
 */
struct fse_spec {
	int nnodes;
	const int *node_rack; /* [nnodes] rack of each node; -1: none (the
				   node then forms a rack of its own) */
	const int *node_rank; /* [nnodes] tie-break order, lower first;
				   NULL: the node index */
	int nracks;
	const int *rack_pod; /* [nracks] pod of each rack, -1: none;
				   NULL: no pods */
	int npods;
	const int *pod_plane; /* [npods] plane of each pod (informative),
				   NULL: all 0 */
};

struct fse_topo;

int fse_topo_new(const struct fse_spec *spec, struct fse_topo **out, char *err, size_t errlen);

/*
 * Domains of a fabric model (fst_json_read_file) for the nodes names[0..n):
 * node i is the model host called names[i]; its rack, pod and plane are
 * the host's (its primary leaf, so a multi-rail node is in one rack) and
 * its rank the host's rank.  A name the model does not know gets a rack
 * of its own and ranks after all known nodes; *unknown (when not NULL)
 * receives how many names were unknown.
 */
int fse_topo_from_model(const struct fst_model *m, const char *const *names, int n,
			struct fse_topo **out, int *unknown, char *err, size_t errlen);

void fse_topo_free(struct fse_topo *t); /* NULL is fine */

int fse_topo_nnodes(const struct fse_topo *t);
/* Racks including the one-node racks of nodes without a rack. */
int fse_topo_nracks(const struct fse_topo *t);
int fse_topo_rack_of(const struct fse_topo *t, int node);
/* Pod of a rack, -1 when none. */
int fse_topo_pod_of(const struct fse_topo *t, int rack);
/* Node count of the largest rack. */
int fse_topo_max_rack(const struct fse_topo *t);

/* ------------------------------------------------------------ placement */

struct fse_work;

struct fse_work *fse_work_new(const struct fse_topo *t); /* NULL: ENOMEM */
void fse_work_free(struct fse_work *w);			 /* NULL is fine */

/*
 * What the idle machine says of a job (fse_request_fit): the level it needs
 * (need_level: its own, or looser when no domain of its own holds it even
 * idle) and the racks it needs at least there (need_k; 0: not counted),
 * the racks it needs at least anywhere (kcap; INT32_MAX: never), and
 * whether one domain of its own level holds it (fits_domain).
 */
struct fse_fit {
	enum fse_level need_level;
	int need_k;
	int kcap;
	bool fits_domain;
};

struct fse_request {
	uint32_t min_nodes;	   /* >= 1 */
	uint32_t max_nodes;	   /* 0: same as min_nodes */
	uint32_t want_nodes;	   /* preferred count in [min, max], 0: min */
	enum fse_level level;	   /* locality the job requires */
	uint32_t max_racks;	   /* most racks the job may span, 0: no limit */
	bool relaxed;		   /* the job waited long enough: accept the
				   tightest placement available now */
	const uint8_t *skip_racks; /* [nracks] racks not to use (e.g. tried
				   already), NULL: none */
	/*
	 * A job sized by its tasks (sbatch -n): ntasks > 0 and, per node, how
	 * many of its tasks the node can take now (tasks_now, from its free
	 * CPUs, memory and GRES: fse_node_tasks) and on an idle machine
	 * (tasks_idle, NULL: tasks_now).  A domain then fits when it has
	 * min_nodes usable nodes and, on at most max_nodes of them, room for
	 * ntasks tasks; the level the job needs is the tightest whose domains
	 * can hold it when idle.  ntasks 0: sized by min_nodes alone; then
	 * tasks_idle, when given, says which nodes the job could use at all
	 * (its partition, features, memory and GRES per node: not 0), and
	 * the level it needs is that of the domains those nodes fill (a pass
	 * over every node); NULL: every node of the fabric (racks' sizes).
	 */
	uint32_t ntasks;
	const uint32_t *tasks_now;  /* [nnodes] */
	const uint32_t *tasks_idle; /* [nnodes] */
	/*
	 * Waiting only for a rack expected soon (wait_ratio > 0, free_at
	 * given, level FSE_RACK): a job that would wait for one rack (some
	 * rack holds it when idle) takes the tightest placement free
	 * now (res.relaxed, res.expected_far) unless a rack is expected to
	 * hold it within wait_ratio times its time limit after now; a job
	 * that needs more than one rack does not wait for locality at all.
	 * free_at[i]: when node i is expected to be free for the job, from
	 * the time limits of the jobs on it (seconds, the clock of now; at
	 * most now: free now; INT64_MAX: not expected); a node the job can
	 * use now (avail) is free now.  tasks_idle, when given, says which
	 * nodes the job could use at all (and, sized by tasks, how many of
	 * its tasks each holds then).  time_limit 0 or INT64_MAX: none, so any
	 * rack expected at all is soon enough.
	 */
	uint32_t wait_ratio;
	const int64_t *free_at; /* [nnodes] */
	int64_t now, time_limit;
	/*
	 * A job sized by nodes: the nodes of each rack with avail set, as
	 * fse_rack_tally counts them, kept by the caller as nodes come and go
	 * (NULL: counted here).  With it a decision passes over racks, not
	 * nodes, but for the nodes of the racks it takes.  Ignored for a job
	 * sized by tasks.
	 */
	const int *rack_free; /* [nracks] */
	/*
	 * A job sized by tasks: the tasks each rack's avail nodes hold now,
	 * uncapped (fse_rack_room of tasks_now), or an upper bound of it, as
	 * the caller has them (NULL: counted here).  One rack's best fit is
	 * the least of this room among the racks that hold the job.  With it,
	 * a job that one rack holds is decided in O(racks) plus the nodes of
	 * the racks with room enough, least room first, until one holds it;
	 * rack_room_idle (the same of tasks_idle, NULL: none; for a job sized
	 * by nodes too, whose tasks_idle are 1 on a node it can use) likewise
	 * says that a rack holds it on the idle machine, for a caller that
	 * keeps it (bench-engine; slurmctld's fse_ctl for tasks_idle that its
	 * caller keeps, struct fse_job idle_key).  Otherwise, or when no rack
	 * holds it, the decision passes over every node.
	 */
	const int64_t *rack_room;      /* [nracks] */
	const int64_t *rack_room_idle; /* [nracks] */
	/*
	 * What the idle machine says of this very request (fse_request_fit:
	 * it depends on the size, level, tasks_now and tasks_idle only), when
	 * the caller has it: a request placed several times (other racks
	 * skipped, a plan after a start) then does not count its nodes again.
	 * NULL: found at each call.
	 */
	const struct fse_fit *fit;
};

/* The nodes of each rack with avail[i] != 0 into out[nracks] (what
 * struct fse_request rack_free holds): a pass over every node. */
void fse_rack_tally(const struct fse_topo *t, const uint8_t *avail, int *out);

/* The tasks of each rack's nodes with avail[i] != 0 (NULL: every node),
 * tasks[i] each, into out[nracks] (what struct fse_request rack_room and
 * rack_room_idle hold): a pass over every node. */
void fse_rack_room(const struct fse_topo *t, const uint8_t *avail, const uint32_t *tasks,
		   int64_t *out);

enum fse_status {
	FSE_OK = 0,	 /* nodes chosen */
	FSE_NOT_NOW = 1, /* could run later: not enough free nodes, or
				   none with the required locality */
	FSE_NEVER = 2,	 /* cannot run as asked even on an empty fabric */
};

struct fse_result {
	enum fse_status status;
	enum fse_level level; /* FSE_OK: level of the placement: RACK (one
				   rack), POD (racks of one pod), ANY */
	bool relaxed;	      /* FSE_OK: placed looser than required (only
				   with request.relaxed) */
	bool could_relax;     /* FSE_NOT_NOW: a looser placement exists now */
	uint32_t count;	      /* FSE_OK: number of nodes */
	const int *nodes;     /* FSE_OK: [count] node indices, rank order */
	int nracks;	      /* FSE_OK: number of racks used */
	const int *racks;     /* FSE_OK: [nracks] rack indices */
	bool fits_domain;     /* the job fits one domain of its level on the
				   idle machine (what LocalityTarget counts) */
	bool expected_far;    /* FSE_OK relaxed by wait_ratio: no rack is
				   expected to hold it soon enough */
	int64_t expected;     /* with expected_far: when the first rack is
				   expected to hold it, INT64_MAX: never */
	char reason[192];     /* always: one line saying what and why */
};

/*
 * Choose nodes for a request among the nodes with avail[i] != 0 (the nodes
 * that could run the job now: up, not drained, free enough).  Returns 0
 * with *res filled (status says whether nodes were chosen), -1 on bad
 * arguments (message in res->reason).
 */
int fse_place(const struct fse_topo *t, struct fse_work *w, const struct fse_request *rq,
	      const uint8_t *avail, struct fse_result *res);

/*
 * For a plan of a later start (backfill's will-run question): the racks
 * that could each hold the job by themselves, soonest first, and when.  A
 * rack's time is when enough of its nodes are expected free: a node in
 * @avail (with room for its share, for a job sized by tasks) now, any
 * other node of @cand (NULL: every node) at rq->free_at[i]; nodes the job
 * could not use on the idle machine (rq->tasks_idle 0) and racks in
 * rq->skip_racks do not count.  Ties by rank.  Needs rq->free_at and
 * rq->now.  Fills racks[] and at[] with at most @max; returns how many,
 * -1 on bad arguments.  O(N log R).
 */
int fse_place_expected(const struct fse_topo *t, struct fse_work *w, const struct fse_request *rq,
		       const uint8_t *avail, const uint8_t *cand, int *racks, int64_t *at, int max);

/*
 * The same for a job that the policy makes wait for several racks (wider
 * than a rack: the fewest racks of one pod, or of the fabric): the set of
 * racks expected to hold it soonest, and when.  Each node counts as for
 * fse_place_expected; the time is the earliest of the nodes' free times by
 * which at most the racks the policy asks (one for a job that fits a rack)
 * hold the job, found by a binary search over those times, each step a
 * pass over the nodes and the racks' span.  Sets *racks (by rank; valid
 * until the next call with @w) and *at; returns how many racks, 0 when no
 * racks ever hold it, -1 on bad arguments.  O((N + R + k log R) log N)
 * for k racks taken.
 */
int fse_place_expected_span(const struct fse_topo *t, struct fse_work *w,
			    const struct fse_request *rq, const uint8_t *avail, const uint8_t *cand,
			    const int **racks, int64_t *at);

/* ------------------------------------------------------------ job shape */

/*
 * What one task of a job needs on a node, from sbatch's options, and what
 * a node has free for it: turned into the number of the job's tasks the
 * node can take (tasks_now / tasks_idle of struct fse_request).
 */
#define FSE_SHAPE_GRES 4 /* GRES kinds a shape can name */

struct fse_shape {
	uint32_t ntasks;	 /* -n; 0: sized by nodes (-N) only */
	uint16_t cpus_per_task;	 /* -c; 0: 1 */
	uint16_t tasks_per_node; /* --ntasks-per-node (at most), 0: any */
	uint64_t mem_per_cpu;	 /* --mem-per-cpu, MB; 0: none */
	uint64_t mem_per_node;	 /* --mem, MB; 0: none */
	bool whole_node;	 /* --exclusive: only nodes without jobs */
	bool overcommit;	 /* --overcommit: one CPU per node is enough */
	int ngres;		 /* entries of gres[] used */
	struct {
		uint64_t per_node; /* --gres=name:N */
		uint64_t per_task; /* --gres-per-task / --tres-per-task */
	} gres[FSE_SHAPE_GRES];
};

struct fse_node_res {
	uint32_t cpus;		       /* CPUs the job may use */
	uint64_t mem;		       /* MB the job may use; UINT64_MAX: not counted */
	bool busy;		       /* other jobs run there */
	uint64_t gres[FSE_SHAPE_GRES]; /* free units, same order as the shape's */
};

/* The units of a GRES the job can get on a node: of type @want (0: any,
 * the node's totals @avail and @alloc), else of that entry of the node's
 * types (type_id, type_avail, type_alloc: ntypes each; none: 0); those
 * free (@now) or all of them (on an idle node). */
uint64_t fse_gres_units(uint64_t avail, uint64_t alloc, uint32_t want, const uint32_t *type_id,
			const uint64_t *type_avail, const uint64_t *type_alloc, int ntypes,
			bool now);

/* A node's memory for jobs (MB): its RealMemory less MemSpecLimit where
 * memory is a consumable resource, else UINT64_MAX (not counted). */
uint64_t fse_node_mem(bool counted, uint64_t real, uint64_t spec);

/*
 * Counts kept from one call to the next (the idle machine's tasks of a
 * job shape in slurmctld) while what they were counted from has not
 * changed, as told by generation times that the owner of that data sets
 * to the current second on each change (Slurm's last_part_update, and
 * its configuration's last_update), and for at most FSE_KEPT_AGE seconds
 * (changes that move no generation: a node's GRES set by scontrol).
 * Times are whole seconds: a change in the second the counts were taken
 * leaves the same generation, so counts taken in the second of the
 * newest generation are not kept.
 */
struct fse_kept {
	int64_t gen[2]; /* the generations the counts were taken at */
	int64_t at;	/* when */
	bool valid;
	uint32_t reuses; /* since they were taken */
};

#define FSE_KEPT_AGE 5

/* Record counts taken @now at generations @gen0, @gen1: RET whether they
 * may be kept (@now is after both). */
bool fse_kept_take(struct fse_kept *k, int64_t gen0, int64_t gen1, int64_t now);

/* Whether the kept counts still hold @now, at generations @gen0, @gen1.
 * When they do, counts one reuse more (k->reuses). */
bool fse_kept_fresh(struct fse_kept *k, int64_t gen0, int64_t gen1, int64_t now);

/* Every FSE_KEPT_CHECK-th reuse the owner counts again and compares. */
#define FSE_KEPT_CHECK 64

/* Tasks of @s that fit on a node with @r free (0: none; for a job sized by
 * nodes, 1 when the node can run it).  At most s->ntasks. */
uint32_t fse_node_tasks(const struct fse_shape *s, const struct fse_node_res *r);

/* One feature of a job's --constraint, in the order Slurm lists them. */
struct fse_feature_term {
	const void *set; /* the nodes with the feature, for has(); NULL: not known */
	bool and_next;	 /* the separator after it is '&' (else '|', a bracketed
			  * alternative, or the end) */
	bool counted;	 /* a count ("big*2") */
	bool paren;	 /* inside parentheses */
};

/* Whether fabsched weighs a job's --constraint of @nterms features itself
 * (fse_feature_allows then says which nodes it allows): 1 yes; 0 the
 * expression is left to Slurm and every node counts (no feature, a count,
 * parentheses, a feature whose nodes are not known); -1 bad arguments. */
int fse_feature_folds(const struct fse_feature_term *t, size_t nterms);

/* Whether the --constraint allows @node, for one fse_feature_folds() took
 * (1): the features folded left to right, '&' intersecting and any other
 * separator uniting ("[a|b]", all the job's nodes from one alternative,
 * may give a node of either), each read through @has.  Never leaves out a
 * node the job could get. */
bool fse_feature_allows(const struct fse_feature_term *t, size_t nterms,
			bool (*has)(const void *set, size_t node), size_t node);

/* A job that asks to be spread (srun/sbatch --spread-job): the nodes it
 * needs at least, one per task up to max_nodes (0: no limit), as many as
 * the candidates (cand[i] != 0, NULL: all) can take now.  Never below
 * min_nodes. */
uint32_t fse_spread_nodes(uint32_t ntasks, uint32_t min_nodes, uint32_t max_nodes,
			  const uint32_t *tasks_now, const uint8_t *cand, int nnodes);

/* ------------------------------------------------------------ locality target */

/*
 * A locality target turns the locality from a rule for every job into a
 * share to keep: a job that fits in one domain of its level (one rack for
 * FSE_RACK, one pod for FSE_POD) and could start now, but not in one
 * such domain, takes the tightest placement free now when the recent
 * such jobs would still have got their domain in at least `target` of
 * cases with this job counted as a miss; otherwise it waits for one.  Jobs wider than a domain of their level never wait for
 * locality under a target (they take the fewest racks free now).  The
 * caller's wait bound still applies: a job that has waited it is relaxed
 * whatever the share.
 *
 * A struct fse_share remembers, for the last `window` jobs that counted
 * (started jobs fitting in one domain of their level), whether each got
 * one.  One per scheduler (or per partition); not thread-safe.
 */
#define FSE_SHARE_WINDOW 1000 /* default window, jobs */

struct fse_share;

/* window 0: FSE_SHARE_WINDOW; NULL: ENOMEM or window > 10,000,000. */
struct fse_share *fse_share_new(unsigned window);
void fse_share_free(struct fse_share *s); /* NULL is fine */

/* Whether a job of n nodes at that level counts toward the target: it
 * fits in one domain of its level (FSE_ANY never counts). */
bool fse_share_counts(const struct fse_topo *t, uint32_t n, enum fse_level level);

/*
 * Whether a job of n nodes at that level, not yet past its wait bound,
 * should be placed relaxed now under a target in (0, 1]: it does not
 * count, or the share of the window with this job recorded as a miss
 * (the oldest job dropped when the window is full) is at or above the
 * target.  So a target of 1 relaxes nothing that counts, and an empty
 * record relaxes nothing.  target <= 0: no target, always false.
 */
bool fse_share_relax(const struct fse_share *s, const struct fse_topo *t, double target, uint32_t n,
		     enum fse_level level);

/* Records one job that counts: got its domain or not.  fse_share_record
 * and fse_locality_count / fse_locality_commit go through it. */
void fse_share_push(struct fse_share *s, bool got);

/* The same decision for a job whose fit is known (res->fits_domain of a
 * placement, or fse_share_counts): @counts false relaxes it. */
bool fse_share_relax_fit(const struct fse_share *s, double target, bool counts);

/* Whether the job of @rq fits one domain of its level on the idle machine
 * (node-sized jobs: fse_share_counts; task-sized ones: from tasks_idle).
 * @w is scratch.  false on bad arguments. */
bool fse_request_fits_domain(const struct fse_topo *t, struct fse_work *w,
			     const struct fse_request *rq);

/* The same with what else the idle machine says of the job: a pass over
 * every node for a job sized by tasks, over racks or pods for one sized by
 * nodes; the fit depends on the request's size, level and tasks_idle (or
 * tasks_now) only.  RET 0, -1 on bad arguments. */
int fse_request_fit(const struct fse_topo *t, struct fse_work *w, const struct fse_request *rq,
		    struct fse_fit *f);

/* Records a started job: rq as asked, res its FSE_OK result.  Jobs that
 * do not count (res->fits_domain false) are ignored.  got = placed in one
 * domain of its level. */
void fse_share_record(struct fse_share *s, const struct fse_topo *t, const struct fse_request *rq,
		      const struct fse_result *res);

/*
 * The record as text, oldest job first: '1' got its domain, '0' did not
 * (to keep it across daemon restarts).  Writes it with a NUL when @size
 * exceeds its length; RET its length (the size needed, less one).
 */
size_t fse_share_format(const struct fse_share *s, char *buf, size_t size);

/* Appends the jobs of such a text to the record (the newest stay when it
 * holds more than the window).  RET -1 (nothing appended) on any other
 * character. */
int fse_share_parse(struct fse_share *s, const char *text);

/* Share of the remembered jobs that got their domain (1 when none);
 * *count (when not NULL) receives how many are remembered. */
double fse_share_get(const struct fse_share *s, unsigned *count);

/* ------------------------------------------------------------ decisions */

#define FSE_WAIT_INFINITE FS_DURATION_INFINITE

/* Where a job's locality came from. */
enum fse_policy_from {
	FSE_FROM_PARTITION = 0, /* fabsched.conf: Locality, LocalityWait, ... */
	FSE_FROM_OPTION,	/* --fabric-locality */
	FSE_FROM_SWITCHES,	/* --switches=N[@wait] read as at most N racks */
};

/* What decides a job's locality, from plain inputs. */
struct fse_policy_in {
	enum fse_level part_level; /* the partition's Locality */
	uint64_t part_wait;	   /* LocalityWait, s; FSE_WAIT_INFINITE */
	uint32_t part_max_racks;   /* MaxRacks, 0: none */
	double part_target;	   /* LocalityTarget 0-1, 0: none */
	uint32_t part_ratio;	   /* LocalityWaitRatio, 0: none */
	bool job_set;		   /* --fabric-locality given */
	enum fse_level job_level;
	bool job_wait_set; /* with "@wait" */
	uint64_t job_wait;
	bool switches; /* --switches, where read as racks */
	uint32_t switches_racks;
	uint64_t switches_wait; /* its wait, s */
};

struct fse_policy {
	enum fse_level level;
	uint64_t wait;	    /* s; FSE_WAIT_INFINITE */
	uint32_t max_racks; /* 0: no limit */
	double target;	    /* 0: none */
	uint32_t ratio;	    /* wait only for a rack expected within
				   ratio x the job's time limit; 0: none */
	enum fse_policy_from from;
};

/* --switches wins over --fabric-locality, which wins over the partition
 * (its wait only when given; MaxRacks, LocalityTarget and
 * LocalityWaitRatio stay the partition's, but --switches sets the racks
 * and waits as Slurm's own, without a ratio). */
void fse_policy_resolve(const struct fse_policy_in *in, struct fse_policy *out);
const char *fse_policy_from_name(enum fse_policy_from from);

/* Whether a job that has waited @waited seconds takes the tightest
 * placement free now: its wait bound passed, or its partition's share is
 * above the target (*by_target then true; fits_domain: the job counts,
 * fse_request_fits_domain). */
bool fse_decide_relaxed(const struct fse_policy *pol, uint64_t waited,
			const struct fse_share *share, bool fits_domain, bool *by_target);

/* What to do with a job the engine and the backend did not place (res the
 * engine's last result, tries how many domains the backend refused). */
enum fse_action {
	FSE_ACT_BACKEND,   /* no domain can ever hold it by fabsched's count:
				   Slurm's node choice on every candidate decides */
	FSE_ACT_WAIT,	   /* its locality keeps it waiting: say why */
	FSE_ACT_ANY,	   /* any placement will do: the backend on every
				   candidate, recorded as relaxed */
	FSE_ACT_RESOURCES, /* not enough free: plain Resources */
};
enum fse_action fse_decide_unplaced(const struct fse_request *rq, const struct fse_result *res,
				    int tries);

/* ------------------------------------------------------------ locality record */

/*
 * The controller's locality record: one fse_share per partition (name ""
 * for none), and the latest successful decision of each job not yet known
 * to be its start (where the node choice also runs for will-run and
 * test-only calls).  Such a decision counts toward its partition's share
 * once the job is seen holding an allocation (fse_locality_commit), and is
 * forgotten when the job is gone.  Its state text, kept across daemon
 * restarts:
 *   share <partition|-> <outcomes, oldest first: 1 got its domain>
 *   pending <job id> <partition|-> <counts 0|1><got 0|1>
 * One per scheduler; not thread-safe.
 */
#define FSE_LOCALITY_PEND_MAX 1024 /* decisions kept, the oldest dropped */

struct fse_locality;

struct fse_locality *fse_locality_new(int pend_max); /* 0: default */
void fse_locality_free(struct fse_locality *l);	     /* NULL is fine */

/* Index of a partition's record, made when missing; -1: out of memory. */
int fse_locality_part(struct fse_locality *l, const char *name);
int fse_locality_nparts(const struct fse_locality *l);
const char *fse_locality_part_name(const struct fse_locality *l, int k);
struct fse_share *fse_locality_share(const struct fse_locality *l, int k);

/* A start: count it toward partition k's share. */
void fse_locality_count(struct fse_locality *l, int k, bool got);

/* Keep the latest decision of a job (replacing an earlier one); @note is
 * copied (what the decision added to the job, to take back if the job is
 * asked about again).  RET 0, -1 on bad arguments or out of memory. */
int fse_locality_pend(struct fse_locality *l, uint32_t job_id, int part, bool counts, bool got,
		      const char *note);
const char *fse_locality_note(const struct fse_locality *l, uint32_t job_id);
void fse_locality_drop_note(struct fse_locality *l, uint32_t job_id);
int fse_locality_npend(const struct fse_locality *l);

enum fse_job_state {
	FSE_JOB_PENDING, /* still waiting: keep the decision */
	FSE_JOB_STARTED, /* holds an allocation: count it */
	FSE_JOB_GONE,	 /* unknown, or ended without one: forget it */
};
typedef enum fse_job_state (*fse_job_state_f)(uint32_t job_id, void *arg);

/* Count the kept decisions of started jobs, forget those of jobs gone.
 * RET how many were counted. */
int fse_locality_commit(struct fse_locality *l, fse_job_state_f state, void *arg);

/* Changed since it was last written or read. */
bool fse_locality_dirty(const struct fse_locality *l);

/* The locality record's file in slurmctld's StateSaveLocation (read back at start,
 * and by fabsched metrics). */
#define FSE_SHARE_FILE "fabsched_locality_share"

/* The state text.  write: RET 0, -1 on a write error.  read: appends to
 * the record; every well-formed line is taken, malformed ones are skipped
 * and RET -1 with "<name>:<first bad line>: ... expected ..." in err. */
int fse_locality_write(struct fse_locality *l, FILE *f);
int fse_locality_read(struct fse_locality *l, FILE *f, const char *name, char *err, size_t errlen);

/* ------------------------------------------------------------ observation */

/*
 * Locality=observe: Slurm places the partition's jobs as with off, and
 * for each job that starts fabsched records what it would have done
 * beside what the job got.  One line per job in the observation log
 * (FSE_OBSERVE_FILE in StateSaveLocation, the older half in ".1"):
 *
 *   time=<s> job=<id>[_<task>] part=<partition|-> level=<rack|pod|any> nodes=<n>
 *   fits=<0|1> got=<place> would=<place> waited=<s> why=<text>
 *
 * on one line, where job is the job's id, or for a task of a job array
 * the array's id and the task's (as squeue names it, e.g. 82_0); <place> is <kind>:<racks used>:<rack,rack,...|->,
 * kind rack (one rack), pod (racks of one pod), any (across pods), or for
 * `would` also wait (it would have kept the job waiting for its
 * locality: why says for what) and stock (it would have left the job to
 * Slurm's choice: why says why).  level is the locality the job would
 * have had (rack, or its --fabric-locality); fits: the job fits one
 * domain of that level on the idle machine (the jobs a locality share
 * counts).  why runs to the end of the line.  A rack list longer than
 * the record keeps ends in ",...".
 */
#define FSE_OBSERVE_FILE "fabsched_observe"
#define FSE_OBSERVE_MAX (16 << 20) /* bytes before the log is rotated */

enum fse_obs_kind {
	FSE_OBS_RACK = FSE_RACK,
	FSE_OBS_POD = FSE_POD,
	FSE_OBS_ANY = FSE_ANY,
	FSE_OBS_WAIT,
	FSE_OBS_STOCK,
};

struct fse_obs_place {
	enum fse_obs_kind kind;
	uint32_t nracks;
	char racks[256]; /* "r1,r2", "-" when none */
};

#define FSE_NO_TASK UINT32_MAX

struct fse_obs {
	int64_t time;
	uint32_t job_id; /* with a task: the array's id */
	uint32_t task;	 /* array task, FSE_NO_TASK: none */
	char part[64];	 /* "-": none */
	enum fse_level level;
	uint32_t nodes;
	bool fits;
	struct fse_obs_place got, would;
	uint64_t waited;
	char why[384];
};

const char *fse_obs_kind_name(enum fse_obs_kind k); /* NULL: unknown */
/* The record's line with its newline; RET its length (truncated to @size
 * like snprintf). */
size_t fse_obs_format(const struct fse_obs *o, char *buf, size_t size);
/* One line (without or with its newline).  RET 0; -1 with "<what> ...;
 * expected ..." in @err when it is not a record of the form above (a
 * field missing or out of its range, a byte that is not printable). */
int fse_obs_parse(const char *line, struct fse_obs *o, char *err, size_t errlen);
/* Whether a place keeps the job in one domain of its level. */
bool fse_obs_in_domain(const struct fse_obs_place *p, enum fse_level level);

/* ------------------------------------------------------------ controller */

/*
 * One scheduler's placement state and the whole decision for one job
 * (ctl.c): the caller converts its records into a struct fse_job, runs
 * its node choice when asked (fse_try_f) and carries out the struct
 * fse_outcome.  Messages go to the caller's log function.  Not
 * thread-safe: the caller locks.
 */
#define FSE_CTL_TRIES 4 /* domains offered to the node choice per job */

enum fse_log { FSE_LOG_ERROR, FSE_LOG_INFO, FSE_LOG_VERBOSE, FSE_LOG_DEBUG };
typedef void (*fse_log_f)(enum fse_log level, const char *msg, void *arg);

struct fse_ctl;
struct fs_conf;

/* @name prefixes every message.  NULL: out of memory. */
struct fse_ctl *fse_ctl_new(const char *name, fse_log_f log, void *log_arg);
void fse_ctl_free(struct fse_ctl *c); /* NULL is fine */
/* The most detailed level the caller logs (default FSE_LOG_DEBUG): a
 * placement call formats no message past it (placement runs hundreds of
 * times per scheduling cycle). */
void fse_ctl_log_level(struct fse_ctl *c, enum fse_log most);

/*
 * Take @conf (freed by the ctl; NULL: none usable) and load its
 * FabricModel for the scheduler's nodes names[0..n-1] (NULL entries: no
 * node).  RET 0 when placement can use it; -1, logged, otherwise (jobs
 * then go to the node choice unchanged).  The locality record stays.
 */
int fse_ctl_load(struct fse_ctl *c, struct fs_conf *conf, const char *const *names, int n);
void fse_ctl_unload(struct fse_ctl *c);
/*
 * At most every FSE_CTL_RECHECK seconds (@now: the caller's clock), a
 * stat of the loaded FabricModel; when the file changed, the new model is
 * read and validated for the same nodes and swapped in (RET 1, logged),
 * or logged once and the running one kept (RET 0).  RET 0 otherwise: no
 * file read when nothing changed.
 */
#define FSE_CTL_RECHECK 5
int fse_ctl_refresh(struct fse_ctl *c, time_t now);
/* The model placement uses; NULL when none. */
const struct fst_model *fse_ctl_model(const struct fse_ctl *c);
bool fse_ctl_usable(const struct fse_ctl *c);
/* Locality=off for partition @part (fs_conf_part_off), for all of them
 * (fs_conf_all_off), in the configuration last loaded. */
bool fse_ctl_part_off(struct fse_ctl *c, const char *part);
bool fse_ctl_all_off(const struct fse_ctl *c);
int fse_ctl_nnodes(const struct fse_ctl *c);

/* [nnodes] the job's tasks per node, now (idle false) and on the idle
 * partition, for the caller to fill before fse_ctl_place (fse_node_tasks). */
uint32_t *fse_ctl_tasks(struct fse_ctl *c, bool idle);

/* Where the locality record is kept across restarts (read at the first placement,
 * written when it changed); NULL: nowhere.  RET -1 out of memory. */
int fse_ctl_state_file(struct fse_ctl *c, const char *path);
/* The same as FSE_SHARE_FILE in directory @dir (Slurm's
 * StateSaveLocation); NULL or "": nowhere. */
int fse_ctl_state_dir(struct fse_ctl *c, const char *dir);

/* When each node is expected free for jobs (struct fse_request free_at:
 * the time limits of the jobs on it), asked only for a job whose policy
 * has a wait ratio; NULL: not known. */
typedef const int64_t *(*fse_free_at_f)(void *arg);

struct fse_job {
	uint32_t job_id;
	/* a task of a job array: the array's id and the task's (recorded
	 * as squeue names it: a task started from the array's own record
	 * gets a job id of its own only then); array_task FSE_NO_TASK: none */
	uint32_t array_job_id, array_task;
	const char *label;	/* the job in messages, e.g. "JobId=12" */
	const char *part;	/* partition, NULL: none */
	const char *const *env; /* the job's SPANK environment (its
				   FABSCHED_LOCALITY: --fabric-locality) */
	uint32_t nenv;
	bool switches; /* --switches=N[@wait] read as at most N racks */
	uint32_t switches_racks;
	uint64_t switches_wait; /* s */
	uint64_t waited;	/* s since it could start */
	uint32_t min_nodes, max_nodes, want_nodes;
	uint32_t ntasks; /* sized by tasks (fse_ctl_tasks filled); 0: nodes */
	bool spread;	 /* --spread-job */
	bool may_share;	 /* may run beside other jobs */
	/* a successful node choice is the job's start; when false (it also
	 * runs for will-run and test-only calls) the decision counts once
	 * the job is seen holding an allocation (fse_job_state_f) */
	bool final;
	/* the scheduler's pass (slurmctld's main scheduling cycle count; 0:
	 * not known), and whether this call only plans a later start
	 * (backfill's): both say when a success ends the job's wait (see
	 * fse_outcome.unwait) */
	uint32_t pass;
	bool plan;
	const uint8_t *cand;   /* [nnodes] candidates */
	fse_free_at_f free_at; /* NULL: no wait ratio applies */
	void *free_at_arg;
	int64_t time_limit;  /* s; INT64_MAX: none */
	const uint8_t *idle; /* [nnodes] nodes without jobs, tried first;
				   NULL: not known */
	/* fse_ctl_observe: fabsched would leave the job to Slurm's choice,
	 * for this reason (pinned to nodes, --switches where the flavour
	 * keeps its stock meaning); NULL: it would place it */
	const char *stock_why;
	double prep_us; /* the caller's time turning its records into
				   this and fse_ctl_tasks (counted as
				   fabsched's in the timing figures) */
	bool idle_kept; /* the caller took fse_ctl_tasks' idle machine
			   from an earlier decision (counted in the
			   figures) */
	/* not 0: names the idle machine's tasks the caller gave in
	 * fse_ctl_tasks (equal keys, equal counts): fse_ctl then keeps their
	 * sums per rack (rack_room_idle) from one decision to the next */
	uint64_t idle_key;
};

/* The caller's node choice among the candidates with in[i] != 0 (those of
 * the chosen domain), or (in NULL) among every candidate.  RET true when
 * it placed the job. */
typedef bool (*fse_try_f)(const uint8_t *in, void *arg);

struct fse_outcome {
	bool started;	       /* a node choice placed the job */
	bool waits;	       /* its locality keeps it waiting: */
	char pending[512];     /* why, for the job's pending reason */
	const char *note;      /* add to the job (SystemComment); NULL none */
	const char *take_back; /* remove first: an earlier call's note */
	/*
	 * The job's wait is over: drop its waiting note (FS_WAIT_NOTE) now.
	 * Set on a success that is a start: not on a plan, and not on the
	 * success of Slurm's could-it-ever-run question (a non-final call
	 * right after the same job's failed try, in the same pass).  A
	 * question's success that was a start after all is seen when the
	 * job holds an allocation (the caller's fse_job_state_f drops the
	 * note then).
	 */
	bool unwait;
};

/*
 * Decide for one job: pick a domain and call @try inside it (at most
 * FSE_CTL_TRIES domains), or on every candidate when the job's shape fits
 * no domain, or any placement will do.  @state (optional) tells which kept
 * decisions became starts.  The outcome's strings live until the next
 * call.  RET 0; -1 when the ctl is not usable (then @try ran once on
 * every candidate).
 */
/* Whether locality applies to a job: not to one pinned to nodes
 * (--nodelist), nor to one with --switches where the flavour leaves those
 * to Slurm's own topology handling (!switches_as_racks). */
bool fse_job_applies(bool switches, bool switches_as_racks, bool pinned);

int fse_ctl_place(struct fse_ctl *c, const struct fse_job *j, fse_try_f try, void *arg,
		  fse_job_state_f state, void *state_arg, struct fse_outcome *o);

/*
 * A plan of a later start for @j (the scheduler's will-run question:
 * backfill's, on Slurm releases whose node choice does not go through the
 * topology plugin), without recording anything for the job (no share, no
 * notes, no wait): @try is the node choice in will-run mode, which says
 * when the job could start on the nodes offered.  The nodes offered are
 * those fse_ctl_place would place the job on now, when it would; else,
 * for a job that waits for one rack, the racks expected to hold it
 * soonest (fse_place_expected over j->free_at), one at a time (at most
 * FSE_CTL_TRIES), and none when no rack of the candidates can (the
 * scheduler then asks about a later time); for a job that waits for
 * several racks (wider than one), the racks expected to hold it soonest
 * together (fse_place_expected_span), else none; else (relaxed, no free
 * times) every candidate.  RET 0;
 * -1 when the ctl is not usable (@try ran on every candidate).
 */
struct fse_plan {
	bool placed;	/* a node choice succeeded */
	bool in_domain; /* ... inside the racks in why */
	char why[160];	/* the racks, or why none */
};
int fse_ctl_plan(struct fse_ctl *c, const struct fse_job *j, fse_try_f try, void *arg,
		 struct fse_plan *o);

/*
 * Locality=observe (fs_conf_part_observe) for the job's partition: after
 * Slurm's own node choice placed it on @got ([nnodes] != 0), record what
 * fse_ctl_place would have done with the same candidates (j->cand) and
 * free resources (fse_ctl_tasks), without calling any node choice: the
 * domain, or that the job would have waited.  A final decision is
 * recorded at once, another once @state says the job started.  RET 0; -1
 * when the ctl is not usable or the partition is not observed.
 */
int fse_ctl_observe(struct fse_ctl *c, const struct fse_job *j, const uint8_t *got,
		    fse_job_state_f state, void *state_arg);
bool fse_ctl_part_observe(struct fse_ctl *c, const char *part);
/* Whether the job (@task: of array @job_id; FSE_NO_TASK: job @job_id)
 * holds an allocation, for observations kept until the job is seen
 * started; without one, @job_id alone is asked (the locality record's @state). */
typedef enum fse_job_state (*fse_task_state_f)(uint32_t job_id, uint32_t task, void *arg);
void fse_ctl_observe_state(struct fse_ctl *c, fse_task_state_f state, void *arg);
/* Where the observation log goes (fse_ctl_state_dir sets it beside the
 * state file); NULL: nowhere.  RET -1 out of memory. */
int fse_ctl_observe_file(struct fse_ctl *c, const char *path);

struct fse_ctl_stats {
	uint64_t calls, started, waits, relaxed;
	double hook_us, hook_us_max, backend_us;
	/* Locality=observe: observations and their time */
	uint64_t observed;
	double observe_us;
	/* the same, split by the scheduler's kind of call: [0] a start now
	 * (the main scheduler), [1] a plan (backfill) */
	uint64_t calls_by[2];
	double hook_us_by[2], backend_us_by[2];
	/* the backend's node choices asked for (FSE_CTL_TRIES domains, then
	 * maybe every candidate) and those it refused, by kind of call */
	uint64_t backend_calls_by[2], backend_refused_by[2];
	/* plans (fse_ctl_plan): in all, in a domain free now, in a rack
	 * expected later, in racks expected later (a job wider than a rack),
	 * refused (no rack of the nodes offered), on every candidate;
	 * fabsched's time and the node choice's */
	uint64_t plans, plans_now, plans_later, plans_span, plans_none, plans_any;
	double plan_us, plan_backend_us;
	/* decisions (starts and plans) whose idle machine's tasks per node
	 * the caller kept from an earlier one (struct fse_job idle_kept) */
	uint64_t idle_kept;
};
const struct fse_ctl_stats *fse_ctl_stats(const struct fse_ctl *c);

/* Save the locality record, log the timing figures and each partition's share. */
void fse_ctl_finish(struct fse_ctl *c);

/*
 * fabsched's notes in a job's comment text, edited in place (it only
 * shrinks).  fse_note_drop_wait drops the waiting note ("fabsched:
 * Locality: ...", up to the next "; "); fse_note_drop_last drops @note when
 * it is the last "; "-separated part.  RET true when @c is left empty (the
 * caller may free it).
 */
bool fse_note_drop_wait(char *c);
bool fse_note_drop_last(char *c, const char *note);

const char *fse_level_name(enum fse_level level); /* "rack", ... */
const char *fse_status_name(enum fse_status st);  /* "ok", ... */

#ifdef __cplusplus
}
#endif
#endif /* FABSCHED_SELECT_H */
