# plugins/topology/: topology/fabric: the switch table, node ranking and
# node addresses from the JSON fabric model (topology/ library, fabsched.conf
# from common/).  On 24.11 and later it also chooses the nodes of each job with the
# placement engine (select/), as select/cons_tres_fabric does on 22.05.
EXTRA_DIST += plugins/topology/fabric/topology_fabric_22_05.map \
	plugins/topology/fabric/topology_fabric_24_11.map
TOPOLOGY_FABRIC_MODEL_SOURCES = plugins/topology/fabric/fabric_model.c \
	plugins/topology/fabric/fabric_model.h

if BUILD_SLURM_PLUGINS
if SLURM_2205
slurmplugin_LTLIBRARIES += plugins/topology/fabric/topology_fabric.la
plugins_topology_fabric_topology_fabric_la_SOURCES = plugins/topology/fabric/topology_fabric_22_05.c \
	$(TOPOLOGY_FABRIC_MODEL_SOURCES) $(PLUGIN_COMMON_SOURCES)
plugins_topology_fabric_topology_fabric_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) -I$(top_srcdir)/topology
plugins_topology_fabric_topology_fabric_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/topology/fabric/topology_fabric_22_05.map
plugins_topology_fabric_topology_fabric_la_LIBADD = topology/libfabsched_topology.la \
	libfabsched_common.la $(SLURM_LIBADD)
EXTRA_plugins_topology_fabric_topology_fabric_la_DEPENDENCIES = \
	plugins/topology/fabric/topology_fabric_22_05.map
endif
if SLURM_EVAL
slurmplugin_LTLIBRARIES += plugins/topology/fabric/topology_fabric.la
plugins_topology_fabric_topology_fabric_la_SOURCES = \
	plugins/topology/fabric/topology_fabric_24_11.c \
	plugins/topology/fabric/switch_table.c plugins/topology/fabric/switch_table.h \
	plugins/topology/fabric/stock_tree.c plugins/topology/fabric/stock_tree.h \
	$(TOPOLOGY_FABRIC_MODEL_SOURCES) $(FABRIC_PLACE_SOURCES) $(PLUGIN_COMMON_SOURCES)
plugins_topology_fabric_topology_fabric_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) \
	-I$(top_srcdir)/topology -I$(top_srcdir)/select
# Slurm's common node choice (common_topo_choose_nodes) comes from its own
# topology/common convenience library in the built source tree, and
# topology/tree's (eval_nodes_tree, switch_record_validate: Locality=off)
# from that plugin's objects there.  That code
# calls slurmctld functions, which slurmd and the commands (they load this
# plugin too; from 24.11 scontrol does to show the topology) do not have:
# bind lazily, as Slurm's own topology plugins do.  -z lazy comes last on
# the link line (PLUGIN_BIND_LAZY, after the LDFLAGS of a distribution's
# hardened build, whose -z now would win otherwise); the helpers and the
# other plugins keep -z now.
plugins_topology_fabric_topology_fabric_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/topology/fabric/topology_fabric_24_11.map
plugins_topology_fabric_topology_fabric_la_LIBADD = select/libfabsched_select.la \
	topology/libfabsched_topology.la libfabsched_common.la \
	$(SLURM_TOPOLOGY_TREE_LO) $(SLURM_TOPOLOGY_COMMON_LA) $(SLURM_LIBADD) $(PLUGIN_BIND_LAZY)
EXTRA_plugins_topology_fabric_topology_fabric_la_DEPENDENCIES = \
	plugins/topology/fabric/topology_fabric_24_11.map
endif
endif
