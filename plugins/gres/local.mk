# plugins/gres/: gres/rdma and gres/hugepages.
EXTRA_DIST += plugins/gres/gres_fabsched.map

if BUILD_SLURM_PLUGINS
# one glue source, one module per resource and release (22.05, 24.11: the
# source maps the few names that differ)
slurmplugin_LTLIBRARIES += plugins/gres/gres_rdma.la plugins/gres/gres_hugepages.la
plugins_gres_gres_rdma_la_SOURCES = plugins/gres/gres_fabsched.c
plugins_gres_gres_rdma_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) -I$(top_srcdir)/gres -DFS_GRES_NAME='"rdma"'
plugins_gres_gres_rdma_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/gres/gres_fabsched.map
plugins_gres_gres_rdma_la_LIBADD = gres/libfabsched_gres.la $(SLURM_LIBADD)
plugins_gres_gres_hugepages_la_SOURCES = plugins/gres/gres_fabsched.c
plugins_gres_gres_hugepages_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) -I$(top_srcdir)/gres -DFS_GRES_NAME='"hugepages"'
plugins_gres_gres_hugepages_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/gres/gres_fabsched.map
plugins_gres_gres_hugepages_la_LIBADD = gres/libfabsched_gres.la $(SLURM_LIBADD)
endif
