# plugins/topology/: topology/fabric (Slurm 22.05): the switch table, node
# ranking and node addresses from the JSON fabric model (topology/ library,
# fabsched.conf from common/).
EXTRA_DIST += plugins/topology/fabric/topology_fabric.map

if BUILD_SLURM_PLUGINS
if SLURM_2205
slurmplugin_LTLIBRARIES += plugins/topology/fabric/topology_fabric.la
plugins_topology_fabric_topology_fabric_la_SOURCES = plugins/topology/fabric/topology_fabric.c \
	$(PLUGIN_COMMON_SOURCES)
plugins_topology_fabric_topology_fabric_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) -I$(top_srcdir)/topology
plugins_topology_fabric_topology_fabric_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/topology/fabric/topology_fabric.map
plugins_topology_fabric_topology_fabric_la_LIBADD = topology/libfabsched_topology.la \
	libfabsched_common.la $(SLURM_LIBADD)
EXTRA_plugins_topology_fabric_topology_fabric_la_DEPENDENCIES = \
	plugins/topology/fabric/topology_fabric.map
endif
endif
