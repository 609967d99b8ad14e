# gres/: node inventory library (hwloc NUMA and PCI locality, sysfs HCAs and
# hugepage pools, optional libibverbs) and the job environment builders.
# No Slurm header; PIC so that the gres plugins can link it.
# libfabsched_gres_task: the part without hwloc (cpulists, environment,
# per-task HCA choice), also linked by the SPANK plugin.
noinst_LTLIBRARIES += gres/libfabsched_gres_task.la gres/libfabsched_gres.la
gres_libfabsched_gres_task_la_SOURCES = \
	gres/fabsched_gres.h \
	gres/gres_private.h \
	gres/util.c \
	gres/cpulist.c \
	gres/env.c \
	gres/task.c
gres_libfabsched_gres_task_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/gres
gres_libfabsched_gres_task_la_CFLAGS = $(AM_CFLAGS) -fPIC
gres_libfabsched_gres_la_SOURCES = \
	gres/fabsched_gres.h \
	gres/gres_private.h \
	gres/sysfs.c \
	gres/roce.c \
	gres/topo.c \
	gres/inventory.c \
	gres/huge.c \
	gres/records.c \
	gres/units.c \
	gres/verbs.c
gres_libfabsched_gres_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/gres $(HWLOC_CFLAGS)
gres_libfabsched_gres_la_CFLAGS = $(AM_CFLAGS) -fPIC
gres_libfabsched_gres_la_LIBADD = gres/libfabsched_gres_task.la $(HWLOC_LIBS)
if HAVE_IBVERBS
gres_libfabsched_gres_la_LIBADD += $(IBVERBS_LIBS)
endif
