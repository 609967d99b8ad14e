# sim/: libfabsched_sim, the trace-driven simulator (SWF and sacct readers, fat-tree
# machines, FCFS + EASY backfill, placement policies, reports).  It places
# jobs with select/libfabsched_select.la, the engine the plugins use; its
# users link $(SIM_LIBS).
noinst_LTLIBRARIES += sim/libfabsched_sim.la
sim_libfabsched_sim_la_SOURCES = \
	sim/fabsched_sim.h \
	sim/swf.c \
	sim/trace.c \
	sim/trace_private.h \
	sim/sacct.c \
	sim/sacct_json.c \
	sim/sacct_parsable.c \
	sim/machine.c \
	sim/policy.c \
	sim/sched.c \
	sim/report.c
sim_libfabsched_sim_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim \
	-I$(top_srcdir)/select -I$(top_srcdir)/topology $(ZLIB_CFLAGS) $(JSONC_CFLAGS)
sim_libfabsched_sim_la_CFLAGS = $(AM_CFLAGS) -fPIC
# what a program linking libfabsched_sim.la also links
SIM_LIBS = sim/libfabsched_sim.la select/libfabsched_select.la \
	topology/libfabsched_topology.la libfabsched_common.la libfabsched_json.la \
	$(JSONC_LIBS) $(ZLIB_LIBS) -lm

# `make results`: doc/results.md and its pictures from the traces in
# $(TRACES) (default ../shared/traces next to the source tree).
TRACES = $(abs_top_srcdir)/../shared/traces
EXTRA_DIST += sim/results.sh
results: cli/fabsched$(EXEEXT)
	$(SHELL) $(top_srcdir)/sim/results.sh '$(abs_top_builddir)/cli/fabsched' \
		'$(TRACES)' '$(abs_top_srcdir)/doc'
.PHONY: results
