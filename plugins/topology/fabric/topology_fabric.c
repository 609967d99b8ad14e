/*
 * topology/fabric — Slurm 22.05 glue of fabsched's fabric model.
 *
 * Foundation stage: the plugin loads with the real 22.05 entry points and
 * answers exactly as a topology without switches does (every node is its own
 * address).  Building Slurm's switch table from the fabric model, node
 * ranking and fabric addresses come with the fabric-model change.
 */
#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/log.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

const char plugin_name[] = "fabsched fabric topology plugin";
const char plugin_type[] = "topology/fabric";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

extern int init(void)
{
	verbose("%s: %s loaded", plugin_type, plugin_name);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	return SLURM_SUCCESS;
}

/* Called by slurmctld at start-up and on reconfiguration. */
extern int topo_build_config(void)
{
	debug("%s: no fabric model in use yet: no switches", plugin_type);
	return SLURM_SUCCESS;
}

/* No node_rank values are set: Slurm keeps its node order. */
extern bool topo_generate_node_ranking(void)
{
	return false;
}

/* Address of a node in the fabric: the node alone, until the model is read. */
extern int topo_get_node_addr(char *node_name, char **paddr, char **ppattern)
{
	if (!node_name || !find_node_record(node_name))
		return SLURM_ERROR;
	*paddr = xstrdup(node_name);
	*ppattern = xstrdup("node");
	return SLURM_SUCCESS;
}
