# plugins/spank/: the fabsched SPANK plugin (public spank.h only).  Links
# libfabsched_common (PIC convenience library) for the value parsers,
# gres/libfabsched_gres_task for the per-task HCA choice and
# prolog/libfabsched_prolog_cg for the job cgroup limits; the version
# script keeps their symbols local.
EXTRA_DIST += plugins/spank/fabsched_spank.map

if BUILD_SPANK
slurmplugin_LTLIBRARIES += plugins/spank/fabsched.la
plugins_spank_fabsched_la_SOURCES = \
	plugins/spank/fabsched_spank.c \
	plugins/spank/args.c \
	plugins/spank/args.h \
	plugins/spank/task_rdma.c \
	plugins/spank/task_rdma.h \
	plugins/spank/task_limits.c \
	plugins/spank/task_limits.h
plugins_spank_fabsched_la_CPPFLAGS = $(SLURM_CPPFLAGS) $(AM_CPPFLAGS) -I$(top_srcdir)/gres \
	-I$(top_srcdir)/prolog
plugins_spank_fabsched_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/spank/fabsched_spank.map
plugins_spank_fabsched_la_LIBADD = prolog/libfabsched_prolog_cg.la \
	libfabsched_common.la gres/libfabsched_gres_task.la
plugins_spank_fabsched_la_DEPENDENCIES = plugins/spank/fabsched_spank.map \
	prolog/libfabsched_prolog_cg.la libfabsched_common.la \
	gres/libfabsched_gres_task.la
endif
