# plugins/: Slurm glue only.  Non-SPANK plugins need the configured source
# tree of the installed release (--with-slurm-source) and are built for that
# exact release; the SPANK plugin needs only the installed public headers.

EXTRA_DIST += plugins/topology/fabric/topology_fabric.map \
	plugins/gres/gres_fabsched.map \
	plugins/spank/fabsched_spank.map

if BUILD_SPANK
slurmplugin_LTLIBRARIES += plugins/spank/fabsched.la
plugins_spank_fabsched_la_SOURCES = plugins/spank/fabsched_spank.c
plugins_spank_fabsched_la_CPPFLAGS = $(SLURM_CPPFLAGS) $(AM_CPPFLAGS)
plugins_spank_fabsched_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/spank/fabsched_spank.map
plugins_spank_fabsched_la_DEPENDENCIES = plugins/spank/fabsched_spank.map
endif

if BUILD_SLURM_PLUGINS
if SLURM_2205
# topology/fabric
slurmplugin_LTLIBRARIES += plugins/topology/fabric/topology_fabric.la
plugins_topology_fabric_topology_fabric_la_SOURCES = plugins/topology/fabric/topology_fabric.c
plugins_topology_fabric_topology_fabric_la_CPPFLAGS = $(PLUGIN_CPPFLAGS)
plugins_topology_fabric_topology_fabric_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/topology/fabric/topology_fabric.map
plugins_topology_fabric_topology_fabric_la_LIBADD = $(SLURM_LIBADD)
plugins_topology_fabric_topology_fabric_la_DEPENDENCIES = plugins/topology/fabric/topology_fabric.map

# gres/rdma and gres/hugepages: one glue source, one module per resource
slurmplugin_LTLIBRARIES += plugins/gres/gres_rdma.la plugins/gres/gres_hugepages.la
plugins_gres_gres_rdma_la_SOURCES = plugins/gres/gres_fabsched.c
plugins_gres_gres_rdma_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) -DFS_GRES_NAME='"rdma"'
plugins_gres_gres_rdma_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/gres/gres_fabsched.map
plugins_gres_gres_rdma_la_LIBADD = $(SLURM_LIBADD)
plugins_gres_gres_hugepages_la_SOURCES = plugins/gres/gres_fabsched.c
plugins_gres_gres_hugepages_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) -DFS_GRES_NAME='"hugepages"'
plugins_gres_gres_hugepages_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/gres/gres_fabsched.map
plugins_gres_gres_hugepages_la_LIBADD = $(SLURM_LIBADD)
endif
endif

include plugins/select/local.mk
