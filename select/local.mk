# select/: libfabsched_select, the placement engine (locality domains,
# best fit, policies).  No Slurm header; PIC convenience library, linked
# into the select plugin, the unit tests and the benchmark.  Its users link
# topology/libfabsched_topology.la too (fse_topo_from_model).
noinst_LTLIBRARIES += select/libfabsched_select.la
select_libfabsched_select_la_SOURCES = \
	select/fabsched_select.h \
	select/select_private.h \
	select/ctl.c \
	select/decide.c \
	select/domains.c \
	select/place.c \
	select/locality_record.c \
	select/notes.c \
	select/observe.c \
	select/shape.c \
	select/share.c
select_libfabsched_select_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/select \
	-I$(top_srcdir)/topology
select_libfabsched_select_la_CFLAGS = $(AM_CFLAGS) -fPIC

# `make bench-engine`: decision time at 1k, 10k, 50k and 100k nodes
check_PROGRAMS += tests/bench/bench_engine
tests_bench_bench_engine_SOURCES = tests/bench/bench_engine.c
tests_bench_bench_engine_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/select
tests_bench_bench_engine_LDADD = select/libfabsched_select.la \
	topology/libfabsched_topology.la libfabsched_common.la

bench-engine: tests/bench/bench_engine$(EXEEXT)
	tests/bench/bench_engine
.PHONY: bench-engine
