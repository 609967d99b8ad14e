# plugins/gres/: gres/rdma and gres/hugepages.
EXTRA_DIST += plugins/gres/gres_fabsched.map

if BUILD_SLURM_PLUGINS
# one entry file per resource, the shared entry points and release shim in
# gres_common.c / gres_shim.h (22.05 and 24.11 differ only in names)
GRES_COMMON_SOURCES = plugins/gres/gres_common.c plugins/gres/gres_shim.h
slurmplugin_LTLIBRARIES += plugins/gres/gres_rdma.la plugins/gres/gres_hugepages.la
plugins_gres_gres_rdma_la_SOURCES = plugins/gres/gres_rdma.c $(GRES_COMMON_SOURCES) $(PLUGIN_COMMON_SOURCES)
plugins_gres_gres_rdma_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) -I$(top_srcdir)/gres
plugins_gres_gres_rdma_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/gres/gres_fabsched.map
plugins_gres_gres_rdma_la_LIBADD = gres/libfabsched_gres.la libfabsched_common.la $(SLURM_LIBADD)
plugins_gres_gres_hugepages_la_SOURCES = plugins/gres/gres_hugepages.c $(GRES_COMMON_SOURCES) $(PLUGIN_COMMON_SOURCES)
plugins_gres_gres_hugepages_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) -I$(top_srcdir)/gres
plugins_gres_gres_hugepages_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/gres/gres_fabsched.map
plugins_gres_gres_hugepages_la_LIBADD = gres/libfabsched_gres.la libfabsched_common.la $(SLURM_LIBADD)
endif
