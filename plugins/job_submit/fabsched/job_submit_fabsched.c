/*
 * job_submit/fabsched - Slurm glue of fabsched's submit-time checks
 * (common/fs_jobreq.c), see job_submit_fabsched(8), for every supported
 * release (22.05, 24.11, 25.11, 26.05; their differences under
 * SLURM_VERSION_NUMBER):
 *
 *  - --scratch (SPANK option of fabsched.so, reaching slurmctld as the
 *    job's SPANK environment entry _SLURM_SPANK_OPTION_fabsched_scratch):
 *    validated, charged to the scratch pool as license "scratch:<GiB x
 *    nodes>" merged into the job's licenses, the node count capped at what
 *    was charged, and the canonical value handed to the prolog as
 *    FABSCHED_SCRATCH (any value the user put there is replaced);
 *  - a hugepages gres request in pages (--gres=hugepages:2m:8192) is put
 *    in the units the nodes of the job's partition(s) count (2mx64:128),
 *    the pages asked handed to the prolog as FABSCHED_HUGEPAGES_ASKED; one
 *    larger than any of those nodes holds is refused with the request and
 *    the largest capacity, instead of Slurm's generic "Requested node
 *    configuration is not available" (at submission, and when a pending
 *    job's gres is updated);
 *  - job_modify: a job's scratch charge cannot be lowered nor its node
 *    count raised past what was charged.
 *
 * Called with read locks on config, jobs, nodes and partitions.  Bad input
 * gets an error for the user, never a stopped daemon.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fs_env.h"
#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/bitstring.h"
#include "src/common/list.h"
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
#include "src/interfaces/gres.h"
typedef list_itr_t *fs_list_itr_t;
#else
#include "src/common/gres.h"
typedef ListIterator fs_list_itr_t;
#endif
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/licenses.h"
#include "src/slurmctld/slurmctld.h"

#include "fs_hugepages.h"
#include "fs_jobreq.h"
#include "fs_values.h"

const char plugin_name[] = "fabsched job_submit plugin";
const char plugin_type[] = "job_submit/fabsched";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

#define OPT_ENV "_SLURM_SPANK_OPTION_fabsched_scratch="
#define SCRATCH_ENV FS_ENV_SCRATCH "="
#define CHARGE_ENV FS_ENV_SCRATCH_CHARGE "="
#define ASKED_ENV FS_ENV_HUGEPAGES_ASKED "="

extern int init(void)
{
	debug("%s: loaded", plugin_type);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	return SLURM_SUCCESS;
}

/* ------------------------------------------------------------ env */

static void _release(char *entry)
{
	xfree(entry);
}

/* Drop every entry starting with prefix (the pages asked of an update). */
static void _env_drop(char ***env, uint32_t *n, const char *prefix)
{
	*n = (uint32_t)fs_env_remove(*env, *n, prefix, _release);
}

/* Drop what only fabsched writes, in every form a user could send it
 * (fs_env_remove_controlled); logged, as a user who forges them tries. */
static void _env_drop_controlled(char ***env, uint32_t *n, uint32_t uid)
{
	uint32_t before = *n;

	*n = (uint32_t)fs_env_remove_controlled(*env, *n, _release);
	if (*n != before)
		info("%s: job of uid %u: %u SPANK environment entr%s that only "
		     "fabsched writes dropped",
		     plugin_type, uid, before - *n, before - *n == 1 ? "y" : "ies");
}

static void _env_add(char ***env, uint32_t *n, char *entry)
{
	xrecalloc(*env, *n + 1, sizeof(char *));
	(*env)[(*n)++] = entry;
}

/* ------------------------------------------------------------ scratch */

static int _scratch(job_desc_msg_t *jd, char **err_msg)
{
	const char *opt = fs_env_find(jd->spank_job_env, jd->spank_job_env_size, OPT_ENV);
	char msg[FS_MSG_SIZE];
	struct fs_scratch_grant *g;
	bool no_max = jd->max_nodes == NO_VAL || jd->max_nodes == INFINITE;

	if (!opt)
		return SLURM_SUCCESS;
	g = xmalloc(sizeof(*g));
	if (fs_scratch_submit(opt, jd->min_nodes == NO_VAL ? 0 : jd->min_nodes,
			      no_max ? 0 : jd->max_nodes, get_total_license_cnt(FS_SCRATCH_LICENSE),
			      jd->licenses, g, msg, sizeof(msg))) {
		xfree(g);
		goto refuse;
	}
	xfree(jd->licenses);
	jd->licenses = xstrdup(g->licenses);
	if (no_max || jd->max_nodes > g->max_nodes)
		jd->max_nodes = g->max_nodes;
	_env_add(&jd->spank_job_env, &jd->spank_job_env_size,
		 xstrdup_printf("%s%s", SCRATCH_ENV, g->canon));
	_env_add(&jd->spank_job_env, &jd->spank_job_env_size,
		 xstrdup_printf("%s%" PRIu64, CHARGE_ENV, g->gib));
	debug("%s: --scratch=%s on at most %u node(s): licenses %s", plugin_type, g->canon,
	      g->max_nodes, g->licenses);
	xfree(g);
	return SLURM_SUCCESS;
refuse:
	if (err_msg)
		*err_msg = xstrdup(msg);
	info("%s: job of uid %u refused: %s", plugin_type, jd->user_id, msg);
	return ESLURM_INVALID_LICENSES;
}

/* ------------------------------------------------------------ hugepages */

/* What the node's gres/hugepages holds, per type ("2m", "2mx64"). */
static void _node_pages(node_record_t *node, struct fs_hp_node *out)
{
	gres_state_t *gs;
	gres_node_state_t *ns;
	fs_list_itr_t it;
	char msg[FS_MSG_SIZE];

	out->name = node->name;
	if (!node->gres_list)
		return;
	it = list_iterator_create(node->gres_list);
	while ((gs = list_next(it))) {
		if (xstrcmp(gs->gres_name, "hugepages") || !gs->gres_data)
			continue;
		ns = gs->gres_data;
		for (uint16_t t = 0; t < ns->type_cnt; t++)
			if (fs_hp_node_add(out, ns->type_name[t], ns->type_cnt_avail[t], msg,
					   sizeof(msg)))
				debug("%s: node %s: %s", plugin_type, node->name, msg);
	}
	list_iterator_destroy(it);
}

/*
 * A hugepages request (*tres) against the nodes of the partitions @parts:
 * refused with a message (*err_msg) when no node holds it, rewritten into
 * the nodes' units when they count in several pages, and the pages asked
 * written to @asked ("" when it asks none).
 */
static int _hugepages(char **tres, const char *parts, uint32_t uid, char *asked, size_t askedsz,
		      char **err_msg)
{
	struct fs_hp_node *nodes = NULL;
	size_t n = 0;
	char msg[FS_MSG_SIZE], *where = NULL, *names, *save = NULL, *units;
	bitstr_t *seen;
	int rc = SLURM_SUCCESS;

	asked[0] = '\0';
	if (!*tres || !strstr(*tres, "hugepages"))
		return SLURM_SUCCESS;
	seen = bit_alloc(node_record_count);
	nodes = xcalloc(node_record_count ? node_record_count : 1, sizeof(*nodes));
	names = xstrdup(parts);
	if (!names && default_part_loc)
		names = xstrdup(default_part_loc->name);
	for (char *p = strtok_r(names, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		part_record_t *part = find_part_record(p);

		if (!part || !part->node_bitmap)
			continue; /* Slurm reports unknown partitions */
		xstrfmtcat(where, "%s%s", where ? "," : "", p);
		for (int i = 0; i < node_record_count; i++) {
			if (!bit_test(part->node_bitmap, i) || bit_test(seen, i) ||
			    !node_record_table_ptr[i])
				continue;
			bit_set(seen, i);
			_node_pages(node_record_table_ptr[i], &nodes[n++]);
		}
	}
	if (where &&
	    fs_hp_request(*tres, where, nodes, n, &units, asked, askedsz, msg, sizeof(msg))) {
		if (err_msg)
			*err_msg = xstrdup(msg);
		info("%s: job of uid %u refused: %s", plugin_type, uid, msg);
		rc = ESLURM_INVALID_GRES;
	} else if (where && units) {
		debug("%s: %s in the nodes' units: %s (pages %s)", plugin_type, *tres, units,
		      asked);
		xfree(*tres);
		*tres = xstrdup(units);
		free(units);
	}
	xfree(where);
	xfree(names);
	xfree(nodes);
	FREE_NULL_BITMAP(seen);
	return rc;
}

/* ------------------------------------------------------------ entry points */

extern int job_submit(job_desc_msg_t *job_desc, uint32_t submit_uid, char **err_msg)
{
	char asked[256];
	int rc;

	/* only this plugin says what the prolog sets up */
	_env_drop_controlled(&job_desc->spank_job_env, &job_desc->spank_job_env_size,
			     job_desc->user_id);
	rc = _scratch(job_desc, err_msg);
	if (rc == SLURM_SUCCESS)
		rc = _hugepages(&job_desc->tres_per_node, job_desc->partition, job_desc->user_id,
				asked, sizeof(asked), err_msg);
	if (rc == SLURM_SUCCESS && asked[0])
		_env_add(&job_desc->spank_job_env, &job_desc->spank_job_env_size,
			 xstrdup_printf("%s%s", ASKED_ENV, asked));
	return rc;
}

/* A new hugepages request of a pending job: checked and put in the
 * nodes' units as at submission, and the pages the prolog reserves
 * follow it. */
static int _modify_hugepages(job_desc_msg_t *jd, job_record_t *job_ptr)
{
	char asked[256];
	int rc;

	if (!jd->tres_per_node)
		return SLURM_SUCCESS;
	rc = _hugepages(&jd->tres_per_node, jd->partition ? jd->partition : job_ptr->partition,
			job_ptr->user_id, asked, sizeof(asked), NULL);
	if (rc != SLURM_SUCCESS)
		return rc;
	_env_drop(&job_ptr->spank_job_env, &job_ptr->spank_job_env_size, ASKED_ENV);
	if (asked[0])
		_env_add(&job_ptr->spank_job_env, &job_ptr->spank_job_env_size,
			 xstrdup_printf("%s%s", ASKED_ENV, asked));
	return SLURM_SUCCESS;
}

extern int job_modify(job_desc_msg_t *job_desc, job_record_t *job_ptr, uint32_t submit_uid)
{
	int rc = _modify_hugepages(job_desc, job_ptr);
	char msg[FS_MSG_SIZE];
	uint32_t min = job_desc->min_nodes, max = job_desc->max_nodes;

	if (rc != SLURM_SUCCESS)
		return rc;
	rc = fs_scratch_modify_check(
		fs_env_find(job_ptr->spank_job_env, job_ptr->spank_job_env_size, SCRATCH_ENV),
		fs_env_find(job_ptr->spank_job_env, job_ptr->spank_job_env_size, CHARGE_ENV),
		job_desc->licenses, min == NO_VAL ? 0 : min,
		(max == NO_VAL || max == INFINITE) ? 0 : max, msg, sizeof(msg));
	if (rc != FS_SCRATCH_MOD_OK)
		info("%s: %pJ: %s", plugin_type, job_ptr, msg);
	return rc == FS_SCRATCH_MOD_LICENSES ? ESLURM_INVALID_LICENSES
	       : rc == FS_SCRATCH_MOD_NODES  ? ESLURM_INVALID_NODE_COUNT
					     : SLURM_SUCCESS;
}
