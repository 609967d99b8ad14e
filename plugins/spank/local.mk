# plugins/spank/: the fabsched SPANK plugin (public spank.h only).  Links
# libfabsched_common (PIC convenience library) for the value parsers; the
# version script keeps its symbols local.
EXTRA_DIST += plugins/spank/fabsched_spank.map

if BUILD_SPANK
slurmplugin_LTLIBRARIES += plugins/spank/fabsched.la
plugins_spank_fabsched_la_SOURCES = \
	plugins/spank/fabsched_spank.c \
	plugins/spank/args.c \
	plugins/spank/args.h
plugins_spank_fabsched_la_CPPFLAGS = $(SLURM_CPPFLAGS) $(AM_CPPFLAGS)
plugins_spank_fabsched_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/spank/fabsched_spank.map
plugins_spank_fabsched_la_LIBADD = libfabsched_common.la
plugins_spank_fabsched_la_DEPENDENCIES = plugins/spank/fabsched_spank.map \
	libfabsched_common.la
endif
