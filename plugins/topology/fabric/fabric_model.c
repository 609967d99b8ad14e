/*
 * fabric_model.c - model loading and node ranking shared by the flavours of
 * topology/fabric (see fabric_model.h).
 */
#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"

#include "fabric_model.h"
#include "fabsched_conf.h"
#include "fs_plugin_conf.h"

struct fst_model *fabric_model_load(const char *plugin_type)
{
	struct fs_conf *conf = fs_plugin_conf_load(plugin_type);
	struct fst_model *m = NULL;
	const char *path;
	char err[1024] = "";

	if (!conf) {
		error("%s: no usable fabsched.conf: no fabric topology", plugin_type);
		return NULL;
	}
	path = fs_conf_get_str(conf, "FabricModel");
	if (!path || !*path) {
		error("%s: FabricModel is not set in %s: no fabric topology", plugin_type,
		      fs_conf_source(conf));
	} else if (fst_json_read_file(&m, path, err, sizeof(err)) != 0) {
		error("%s: cannot use fabric model %s: %s; no fabric topology", plugin_type,
		      path, err[0] ? err : "unknown error");
		m = NULL;
	} else {
		verbose("%s: fabric model %s: %d devices, %d nodes", plugin_type, path,
			m->ndevs, m->nhosts);
	}
	fs_conf_destroy(conf);
	return m;
}

bool fabric_model_rank(const struct fst_model *m, const char *plugin_type)
{
	int known = 0;

	if (!m)
		return false;
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *np = node_record_table_ptr[i];

		if (np && fst_host_rank(m, np->name) >= 0)
			known++;
	}
	if (!known)
		return false;
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *np = node_record_table_ptr[i];
		int r;

		if (!np)
			continue;
		r = fst_host_rank(m, np->name);
		np->node_rank = r >= 0 ? (uint32_t)r : (uint32_t)(m->nhosts + i);
	}
	verbose("%s: %d nodes ranked in fabric order", plugin_type, known);
	return true;
}
