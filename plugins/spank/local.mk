# plugins/spank/: the fabsched SPANK plugin (public spank.h only).
EXTRA_DIST += plugins/spank/fabsched_spank.map

if BUILD_SPANK
slurmplugin_LTLIBRARIES += plugins/spank/fabsched.la
plugins_spank_fabsched_la_SOURCES = plugins/spank/fabsched_spank.c
plugins_spank_fabsched_la_CPPFLAGS = $(SLURM_CPPFLAGS) $(AM_CPPFLAGS)
plugins_spank_fabsched_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/spank/fabsched_spank.map
plugins_spank_fabsched_la_DEPENDENCIES = plugins/spank/fabsched_spank.map
endif
