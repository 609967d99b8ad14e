/*
 * decide.c - the controller's decisions around a placement: which setting
 * wins for a job, whether it has waited long enough for its locality, and
 * what to do when the engine placed nothing.  See fabsched_select.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fabsched_select.h"

void fse_policy_resolve(const struct fse_policy_in *in, struct fse_policy *out)
{
	memset(out, 0, sizeof(*out));
	if (!in)
		return;
	out->level = in->part_level;
	out->wait = in->part_wait;
	out->max_racks = in->part_max_racks;
	out->target = in->part_target > 0 ? in->part_target : 0;
	out->ratio = in->part_ratio;
	out->from = FSE_FROM_PARTITION;
	if (in->job_set) {
		out->level = in->job_level;
		if (in->job_wait_set)
			out->wait = in->job_wait;
		out->from = FSE_FROM_OPTION;
	}
	if (in->switches) {
		/* --switches=N[@wait]: at most N leaf switches (racks) */
		out->level = FSE_RACK;
		out->wait = in->switches_wait;
		out->max_racks = in->switches_racks;
		out->ratio = 0;
		out->from = FSE_FROM_SWITCHES;
	}
}

const char *fse_policy_from_name(enum fse_policy_from from)
{
	switch (from) {
	case FSE_FROM_OPTION:
		return "--fabric-locality";
	case FSE_FROM_SWITCHES:
		return "--switches";
	default:
		return "partition";
	}
}

bool fse_decide_relaxed(const struct fse_policy *pol, uint64_t waited,
			const struct fse_share *share, bool fits_domain, bool *by_target)
{
	if (by_target)
		*by_target = false;
	if (!pol)
		return false;
	if (pol->wait != FSE_WAIT_INFINITE && waited >= pol->wait)
		return true;
	if (share && pol->target > 0 && fse_share_relax_fit(share, pol->target, fits_domain)) {
		if (by_target)
			*by_target = true;
		return true;
	}
	return false;
}

enum fse_action fse_decide_unplaced(const struct fse_request *rq, const struct fse_result *res,
				    int tries)
{
	if (!rq || !res)
		return FSE_ACT_RESOURCES;
	if (res->status == FSE_NEVER && !rq->max_racks)
		return FSE_ACT_BACKEND;
	if (res->status == FSE_NEVER || (res->status == FSE_NOT_NOW && res->could_relax) ||
	    (tries && !rq->relaxed && rq->level != FSE_ANY))
		return FSE_ACT_WAIT;
	if (rq->level == FSE_ANY || rq->relaxed)
		return FSE_ACT_ANY;
	return FSE_ACT_RESOURCES;
}
