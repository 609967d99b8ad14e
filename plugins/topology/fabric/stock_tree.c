/*
 * stock_tree.c - Slurm's own topology/tree node choice inside
 * topology/fabric (24.11 and later), for the jobs fabsched does not place:
 * those of Locality=off partitions and those pinned to nodes.  See
 * stock_tree.h.
 *
 * Slurm's tree code (eval_nodes_tree.c and switch_record.c of the exact
 * release, from its built source tree) is linked in, not rewritten: the
 * switch records it needs are made by its own switch_record_validate from
 * the switches of fabsched's table, which are those `fabsched topo export`
 * writes to topology.conf.  So a job of a Locality=off partition gets the
 * nodes stock Slurm with TopologyPlugin=topology/tree and that
 * topology.conf would give it.
 *
 * switch_record_validate stops the daemon on a switch without
 * children, an unknown child or node, or no node at all: the table is
 * checked for each of these first, and a table that fails is not handed
 * over (the jobs then get Slurm's common node choice, logged once).
 *
 * 25.11 and later take the switches as a topology context of their own
 * (a tree configuration in memory).  24.11 reads them from a file only:
 * StateSaveLocation/fabsched-stock-topology.conf, written here, read
 * through Slurm's topo_conf path for the one call.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "src/common/slurm_xlator.h"

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/bitstring.h"
#include "src/common/hostlist.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/interfaces/topology.h"
#include "src/plugins/topology/tree/eval_nodes_tree.h"

#include "stock_tree.h"
#include "switch_table.h"

#define SINCE_2511 (SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0))

static pthread_mutex_t stock_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t built_gen = UINT64_MAX; /* table generation built from */
static bool ready;			/* Slurm's switch records are made */
#if SINCE_2511
static topology_ctx_t ctx;
static topology_tree_config_t cfg;
#endif

static void _drop(void)
{
#if SINCE_2511
	if (ctx.plugin_ctx)
		switch_record_table_destroy(ctx.plugin_ctx);
	xfree(ctx.plugin_ctx);
	for (int i = 0; i < cfg.config_cnt; i++) {
		xfree(cfg.switch_configs[i].switch_name);
		xfree(cfg.switch_configs[i].nodes);
		xfree(cfg.switch_configs[i].switches);
	}
	xfree(cfg.switch_configs);
	cfg.config_cnt = 0;
#else
	if (ready)
		switch_record_table_destroy();
#endif
	ready = false;
}

/* Would switch_record_validate accept @sw?  Every input on which it would
 * stop the daemon is looked for; the first one found is logged. */
static bool _valid(const struct fabric_switch_conf *sw, int n, const char *plugin_type)
{
	int nodes = 0;

	if (n <= 0 || n > 0xfffe) {
		error("%s: %d switches: no stock tree for Locality=off jobs", plugin_type, n);
		return false;
	}
	for (int i = 0; i < n; i++) {
		const struct fabric_switch_conf *s = &sw[i];
		hostlist_t *hl;
		char *name;
		bool bad = false;

		if (!s->name || (!s->nodes && !s->switches)) {
			error("%s: switch %s has neither nodes nor switches: no stock tree for Locality=off jobs",
			      plugin_type, s->name ? s->name : "(unnamed)");
			return false;
		}
		for (int j = 0; j < i; j++)
			if (!xstrcmp(sw[j].name, s->name)) {
				error("%s: switch %s twice: no stock tree for Locality=off jobs",
				      plugin_type, s->name);
				return false;
			}
		hl = hostlist_create(s->nodes ? s->nodes : s->switches);
		while (hl && !bad && (name = hostlist_shift(hl))) {
			int k = -1;

			if (s->nodes) {
				bad = !find_node_record(name);
				nodes++;
			} else {
				for (k = 0; k < n; k++)
					if (k != i && !xstrcmp(sw[k].name, name))
						break;
				bad = k == n;
			}
			if (bad)
				error("%s: switch %s names %s, which is not %s: no stock tree for Locality=off jobs",
				      plugin_type, s->name, name,
				      s->nodes ? "a node of slurm.conf" : "a switch");
			free(name);
		}
		hostlist_destroy(hl);
		if (!hl || bad)
			return false;
	}
	if (!nodes)
		error("%s: no node on any switch: no stock tree for Locality=off jobs",
		      plugin_type);
	return nodes > 0;
}

#if SINCE_2511
static bool _make(struct fabric_switch_conf *sw, int n)
{
	cfg.switch_configs = xcalloc(n, sizeof(*cfg.switch_configs));
	cfg.config_cnt = n;
	for (int i = 0; i < n; i++) {
		/* the strings move into the configuration */
		cfg.switch_configs[i].switch_name = sw[i].name;
		cfg.switch_configs[i].nodes = sw[i].nodes;
		cfg.switch_configs[i].switches = sw[i].switches;
		cfg.switch_configs[i].link_speed = sw[i].link_speed;
		sw[i].name = sw[i].nodes = sw[i].switches = NULL;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.name = "fabsched-stock";
	ctx.plugin = "topology/tree";
	ctx.config = &cfg;
	return switch_record_validate(&ctx) == SLURM_SUCCESS && ctx.plugin_ctx;
}
#else
static bool _make(struct fabric_switch_conf *sw, int n)
{
	char *path = NULL, *saved;
	FILE *f;
	bool ok;

	xstrfmtcat(path, "%s/fabsched-stock-topology.conf", slurm_conf.state_save_location);
	if (!(f = fopen(path, "w"))) {
		error("topology/fabric: cannot write %s: %m: no stock tree for Locality=off jobs",
		      path);
		xfree(path);
		return false;
	}
	fprintf(f, "# the switches of fabsched's table, for Slurm's topology/tree code\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "SwitchName=%s %s=%s", sw[i].name, sw[i].nodes ? "Nodes" : "Switches",
			sw[i].nodes ? sw[i].nodes : sw[i].switches);
		if (sw[i].link_speed)
			fprintf(f, " LinkSpeed=%u", sw[i].link_speed);
		fputc('\n', f);
	}
	ok = !ferror(f);
	if (fclose(f) || !ok) {
		error("topology/fabric: cannot write %s: %m: no stock tree for Locality=off jobs",
		      path);
		xfree(path);
		return false;
	}
	saved = topo_conf;
	topo_conf = path;
	switch_record_validate();
	topo_conf = saved;
	xfree(path);
	return switch_record_cnt > 0;
}
#endif

/* Caller holds stock_lock.  RET true when Slurm's records are ready. */
static bool _build(const char *plugin_type)
{
	struct fabric_switch_conf *sw = NULL;
	uint64_t gen;
	int n = fabric_table_switch_confs(&sw, &gen);

	if (gen == built_gen) {
		fabric_switch_confs_free(sw, n);
		return ready;
	}
	_drop();
	built_gen = gen;
	if (n > 0 && _valid(sw, n, plugin_type)) {
		ready = _make(sw, n);
		if (ready)
			info("%s: Slurm's topology/tree node choice ready on %d switches, for the jobs fabsched does not place",
			     plugin_type, n);
		else
			error("%s: Slurm's tree code did not take the %d switches: Locality=off jobs get Slurm's common node choice",
			      plugin_type, n);
	}
	fabric_switch_confs_free(sw, n);
	return ready;
}

int fabric_stock_eval(topology_eval_t *te, const char *plugin_type)
{
	int rc;

	slurm_mutex_lock(&stock_lock);
	if (!_build(plugin_type)) {
		slurm_mutex_unlock(&stock_lock);
		return common_topo_choose_nodes(te);
	}
	te->eval_nodes = eval_nodes_tree;
	te->trump_others = false;
#if SINCE_2511
	{
		topology_ctx_t *own = te->tctx;

		te->tctx = &ctx;
		rc = common_topo_choose_nodes(te);
		te->tctx = own;
	}
#else
	rc = common_topo_choose_nodes(te);
#endif
	slurm_mutex_unlock(&stock_lock);
	return rc;
}

void fabric_stock_free(void)
{
	slurm_mutex_lock(&stock_lock);
	_drop();
	built_gen = UINT64_MAX;
	slurm_mutex_unlock(&stock_lock);
}
