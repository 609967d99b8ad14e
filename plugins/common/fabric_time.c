/*
 * fabric_time.c - time in slurmctld's records, for the engine's wait
 * bound (LocalityWaitRatio): when each node is expected free, from the end
 * times (time limits) of the jobs running there, and a job's own time
 * limit.  Shared by the plugin flavours; compiled against either release's
 * headers.  Callers hold fabric_place.c's lock.
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "slurm/slurm.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"

#include "fabric_place.h"

static struct {
	int64_t *at; /* [n] when each node is expected free */
	int n;
	time_t sec; /* computed in that second ... */
	bool stale; /* ... and no job started since */
} fat;

/* A running job's nodes are expected free at its end time (suspended:
 * not expected). */
static int _job_end(void *x, void *arg)
{
	job_record_t *job = x;
	int64_t *at = arg, end;
	int first, last;

	if ((!IS_JOB_RUNNING(job) && !IS_JOB_SUSPENDED(job)) || !job->node_bitmap ||
	    (first = bit_ffs(job->node_bitmap)) < 0)
		return 0;
	end = IS_JOB_SUSPENDED(job) || !job->end_time ? INT64_MAX : (int64_t)job->end_time;
	last = bit_fls(job->node_bitmap);
	for (int i = first; i <= last && i < node_record_count; i++)
		if (bit_test(job->node_bitmap, i) && end > at[i])
			at[i] = end;
	return 0;
}

const int64_t *fabric_free_at(void *arg)
{
	static void **job_list_p;
	static bool looked;
	time_t now = time(NULL);

	(void)arg;
	if (!looked) {
		job_list_p = dlsym(RTLD_DEFAULT, "job_list");
		looked = true;
	}
	if (!job_list_p || !*job_list_p)
		return NULL;
	if (fat.n == node_record_count && fat.sec == now && !fat.stale)
		return fat.at;
	if (fat.n != node_record_count) {
		xrecalloc(fat.at, node_record_count + 1, sizeof(int64_t));
		fat.n = node_record_count;
	}
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *n = node_record_table_ptr[i];

		fat.at[i] = (!n || IS_NODE_DOWN(n) || IS_NODE_DRAIN(n) || IS_NODE_FAIL(n))
				    ? INT64_MAX
				    : 0;
	}
	list_for_each(*job_list_p, _job_end, fat.at);
	fat.sec = now;
	fat.stale = false;
	return fat.at;
}

void fabric_free_at_stale(void)
{
	fat.stale = true;
}

void fabric_free_at_fini(void)
{
	xfree(fat.at);
	fat.n = 0;
}

int64_t fabric_time_limit(const job_record_t *job)
{
	uint32_t m = job->time_limit;

	if (m == NO_VAL && job->part_ptr)
		m = job->part_ptr->default_time != NO_VAL ? job->part_ptr->default_time
							  : job->part_ptr->max_time;
	return (m == NO_VAL || m == INFINITE) ? INT64_MAX : (int64_t)m * 60;
}
