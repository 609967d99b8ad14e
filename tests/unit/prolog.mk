# tests/unit/prolog.mk: unit tests of prolog/: value and ledger parsing
# (cmocka), the RDMA checks on the sysfs fixtures, and the real hugepage
# tests (test_prolog_real.sh: root only, SKIP otherwise) driven through
# test_prolog_seam, the three programs with failure injection.
check_PROGRAMS += tests/unit/test_prolog_seam
tests_unit_test_prolog_seam_SOURCES = tests/unit/test_prolog_seam.c prolog/slurm_cmds.c prolog/slurm_cmds.h
tests_unit_test_prolog_seam_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog
tests_unit_test_prolog_seam_LDADD = prolog/libfabsched_prolog.la
check_PROGRAMS += tests/unit/test_prolog_map
tests_unit_test_prolog_map_SOURCES = tests/unit/test_prolog_map.c
TESTS += tests/unit/test_prolog_real.sh tests/unit/test_prolog_nvme_real.sh
EXTRA_DIST += tests/unit/test_prolog_real.sh tests/unit/test_prolog_nvme_real.sh
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_prolog
TESTS += tests/unit/test_prolog
tests_unit_test_prolog_SOURCES = tests/unit/test_prolog.c
tests_unit_test_prolog_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog $(CMOCKA_CFLAGS)
tests_unit_test_prolog_LDADD = prolog/libfabsched_prolog.la $(CMOCKA_LIBS)
# RdmaRate and AccountIbPkeys: port rates and P_Key tables on the sysfs trees
check_PROGRAMS += tests/unit/test_prolog_rdma
TESTS += tests/unit/test_prolog_rdma
tests_unit_test_prolog_rdma_SOURCES = tests/unit/test_prolog_rdma.c
tests_unit_test_prolog_rdma_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog $(CMOCKA_CFLAGS)
tests_unit_test_prolog_rdma_LDADD = prolog/libfabsched_prolog.la $(CMOCKA_LIBS)
# RdmaMaxHcaHandles/-Objects: rdma.max on a fake cgroup v2 tree
check_PROGRAMS += tests/unit/test_prolog_rdmacg
TESTS += tests/unit/test_prolog_rdmacg
tests_unit_test_prolog_rdmacg_SOURCES = tests/unit/test_prolog_rdmacg.c tests/unit/test_files.h
tests_unit_test_prolog_rdmacg_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog $(CMOCKA_CFLAGS)
tests_unit_test_prolog_rdmacg_LDADD = prolog/libfabsched_prolog.la $(CMOCKA_LIBS)
# the job cgroup limits from a task (the SPANK plugin's path) on fake
# /proc/<pid>/cgroup and cgroup trees, v2 and v1, hostile ones too
check_PROGRAMS += tests/unit/test_prolog_jobcg
TESTS += tests/unit/test_prolog_jobcg
tests_unit_test_prolog_jobcg_SOURCES = tests/unit/test_prolog_jobcg.c tests/unit/test_files.h
tests_unit_test_prolog_jobcg_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog $(CMOCKA_CFLAGS)
tests_unit_test_prolog_jobcg_LDADD = prolog/libfabsched_prolog.la $(CMOCKA_LIBS)
# the NVMe-oF scratch path against a fake target (the ops seam)
check_PROGRAMS += tests/unit/test_prolog_scratch
TESTS += tests/unit/test_prolog_scratch
tests_unit_test_prolog_scratch_SOURCES = tests/unit/test_prolog_scratch.c
tests_unit_test_prolog_scratch_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog $(CMOCKA_CFLAGS)
tests_unit_test_prolog_scratch_LDADD = prolog/libfabsched_prolog.la $(CMOCKA_LIBS)
# common/fs_jobreq.c: --scratch, the scratch license, hugepage requests
check_PROGRAMS += tests/unit/test_jobreq
TESTS += tests/unit/test_jobreq
tests_unit_test_jobreq_SOURCES = tests/unit/test_jobreq.c
tests_unit_test_jobreq_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_jobreq_LDADD = libfabsched_common.la $(CMOCKA_LIBS)
endif

# `make bench-prolog` (root): prolog and epilog wall time, figures printed
check_PROGRAMS += tests/bench/bench_prolog
tests_bench_bench_prolog_SOURCES = tests/bench/bench_prolog.c
tests_bench_bench_prolog_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog
tests_bench_bench_prolog_LDADD = prolog/libfabsched_prolog.la
bench-prolog: tests/bench/bench_prolog$(EXEEXT)
	tests/bench/bench_prolog
.PHONY: bench-prolog
