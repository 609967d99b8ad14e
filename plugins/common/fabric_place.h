/*
 * fabric_place.h - rack-local placement inside slurmctld, shared by the
 * plugin flavours: select/cons_tres_fabric on Slurm 22.05 (select_p_job_test)
 * and topology/fabric on 24.11 (topology_p_eval_nodes).
 *
 * The placement engine (select/) picks a locality domain from the candidate
 * nodes; a release-specific backend (cons_tres's job_test, or Slurm's
 * common node choice) then picks nodes, cores, memory and GRES inside it.
 * Compiled against either release's headers: it uses only what both share
 * (job_record_t, bitstr_t, xmalloc, log).
 */
#ifndef FABSCHED_FABRIC_PLACE_H
#define FABSCHED_FABRIC_PLACE_H

#include <stdbool.h>
#include <stdint.h>

#include "src/slurmctld/slurmctld.h"

/*
 * Run the release's node choice on @cand (the candidates, narrowed to a
 * domain, or all of them).  RET SLURM_SUCCESS when it placed the job; the
 * backend keeps what it chose (e.g. copies @cand's result where its caller
 * expects it).  @cand is the callee's to modify, not to free.
 */
typedef int (*fabric_try_f)(bitstr_t *cand, void *arg);

struct fse_node_res;

/*
 * What candidate node @node (node_record_table_ptr index) has free for the
 * job now: CPUs (and memory, where the flavour knows it) not held by other
 * jobs.  @r comes filled with the node's configured CPUs, memory and GRES
 * still free and @r->busy; the flavour lowers what it knows better.
 */
typedef void (*fabric_free_f)(int node, struct fse_node_res *r, void *arg);

struct fabric_ask {
	job_record_t *job;
	bitstr_t *cand; /* candidate nodes (read only) */
	uint32_t min_nodes, max_nodes, req_nodes;
	bitstr_t **idle; /* optional: nodes without jobs, tried first */
	/*
	 * --switches=N read as "at most N racks", waiting up to the job's
	 * --switches wait (24.11, where no stock code handles --switches
	 * beside this plugin); when false such jobs go to the backend as is.
	 */
	bool switches_as_racks;
	/*
	 * A successful try is the job's start (22.05: RUN_NOW only).  When
	 * false (24.11, whose node choice also runs for will-run and
	 * test-only calls), a decision counts toward LocalityTarget only once
	 * the job is seen holding an allocation.
	 */
	bool final;
	fabric_try_f try;
	/* optional: free resources per node (see fabric_free_f) */
	fabric_free_f node_free;
	void *arg;
};

struct fse_shape;

/*
 * The job's shape (what it asks of each node) and, per node
 * (node_record_table_ptr index), the tasks of it the node can take now
 * (candidates, with what is free there: ask->node_free) and on the idle
 * partition (its nodes as configured; kept from one call to the next for
 * a few seconds while no partition changed nor slurm.conf was read: RET 1
 * when so, else 0, -1 when
 * counted at a check and the kept counts differed; @idle_key names the
 * idle counts while they are kept, else 0: struct fse_job idle_key).
 * fabric_shape.c.
 */
int fabric_job_tasks(const struct fabric_ask *ask, struct fse_shape *shape, uint32_t *tasks_now,
		     uint32_t *tasks_idle, uint64_t *idle_key);
/* Free what fabric_job_tasks keeps (the idle machine's tasks of the
 * last job shapes). */
void fabric_job_tasks_fini(void);

/*
 * fabric_time.c, for the engine's wait bound (callers hold fabric_place's
 * lock): when each node (node_record_table_ptr index) is expected free,
 * from the end times of the jobs running there (a node down, drained or
 * failing: INT64_MAX, not expected), recounted once a second or after a
 * start here (fabric_free_at_stale; fse_free_at_f, NULL outside
 * slurmctld, whose job list is looked up, not linked: commands load the
 * plugin too); the job's time limit in seconds, its partition's default
 * when it gave none (INT64_MAX: none).
 */
const int64_t *fabric_free_at(void *arg);
void fabric_free_at_stale(void);
void fabric_free_at_fini(void);
int64_t fabric_time_limit(const job_record_t *job);

/*
 * Place a job with locality.  Calls ask->try once or more (at most a few
 * domains, or every candidate when locality is not wanted or the engine is
 * not usable).  RET SLURM_SUCCESS when a try succeeded; otherwise an error
 * and, when locality is what keeps the job waiting, the job's state_desc
 * says why.  Never stops the daemon for a bad configuration: it is logged
 * and the job is handed to the backend unchanged.
 */
int fabric_place(const struct fabric_ask *ask);

/*
 * A plan of a later start (the scheduler's will-run question, where the
 * flavour's node choice is not asked otherwise): ask->try, in will-run mode,
 * on the nodes fse_ctl_plan offers: the domain the job would get now, else
 * for a job waiting for one rack the racks expected to hold it soonest
 * (none: an error, the scheduler asks about a later time), else every
 * candidate.  Records nothing for the job.  RET SLURM_SUCCESS when a try
 * succeeded.
 */
int fabric_plan(const struct fabric_ask *ask);
/* Locality applies to this job: not to one pinned to nodes, nor to one
 * of a partition with Locality=off or observe (its placement is stock
 * Slurm's). */
bool fabric_applies(const job_record_t *job, bool switches_as_racks);
/*
 * Locality=observe for the job's partition: fabric_observe runs ask->try once on every candidate (the
 * flavour's stock choice, which leaves its result in @got) and, when it
 * placed the job, records what fabsched would have done (fse_ctl_observe;
 * for a job pinned to nodes, or with --switches where !switches_as_racks,
 * that it would have left it to Slurm).
 * RET ask->try's.
 */
bool fabric_observes(const job_record_t *job, bool switches_as_racks);
int fabric_observe(const struct fabric_ask *ask, bitstr_t *got);
/* Every partition has Locality=off or observe (fabsched.conf as last
 * loaded). */
bool fabric_place_all_off(void);

/* Reload fabsched.conf and the fabric model at the next placement. */
void fabric_place_reconfigure(void);

/* A changed FabricModel file is looked for at most every few seconds
 * (fse_ctl_refresh) at each placement, and here; a valid one is swapped
 * in and given to the callback (the topology plugin's switch table), with
 * fabric_place's lock held. */
struct fst_model;
typedef void (*fabric_model_f)(const struct fst_model *m);
void fabric_place_on_model(fabric_model_f cb);
void fabric_place_refresh(void);

/* Free the cached configuration and model, log the timing summary. */
void fabric_place_fini(void);

/* Log prefix (plugin type) used by fabric_place; set once at init. */
void fabric_place_set_name(const char *plugin_type);

#endif
