# prolog/: per-job node setup and teardown run as root by slurmd
# (hugepages, hugetlbfs mounts, hugetlb and rdma cgroup limits, RDMA port checks,
# NVMe-oF scratch volumes through libnvme when built with it, crash-safe
# ledger) and its three programs (fabsched-prolog(8)).
# libfabsched_prolog_cg: the part the SPANK plugin links too (job cgroup
# limits from a task, the ledger, the kernel files), needing only common/.
noinst_LTLIBRARIES += prolog/libfabsched_prolog_cg.la
prolog_libfabsched_prolog_cg_la_SOURCES = \
	prolog/fabsched_prolog.h \
	prolog/prolog_private.h \
	prolog/spec.c \
	prolog/sys.c \
	prolog/ledger.c \
	prolog/rdmacg.c \
	prolog/jobcg.c \
	prolog/record_task.c \
	prolog/settings.c
prolog_libfabsched_prolog_cg_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog
prolog_libfabsched_prolog_cg_la_CFLAGS = $(AM_CFLAGS) -fPIC
noinst_LTLIBRARIES += prolog/libfabsched_prolog.la
prolog_libfabsched_prolog_la_SOURCES = \
	prolog/fabsched_prolog.h \
	prolog/prolog_private.h \
	prolog/actions.c \
	prolog/rdma.c \
	prolog/scratch.c \
	prolog/nvme.c \
	prolog/metrics.c \
	prolog/record.c \
	prolog/main.c
prolog_libfabsched_prolog_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog -I$(top_srcdir)/gres
prolog_libfabsched_prolog_la_CFLAGS = $(AM_CFLAGS) -fPIC $(LIBNVME_CFLAGS)
prolog_libfabsched_prolog_la_LIBADD = prolog/libfabsched_prolog_cg.la gres/libfabsched_gres.la libfabsched_common.la $(LIBNVME_LIBS)

sbin_PROGRAMS += prolog/fabsched-prolog prolog/fabsched-epilog prolog/fabsched-sweep
prolog_fabsched_prolog_SOURCES = prolog/fabsched-prolog.c prolog/slurm_cmds.c prolog/slurm_cmds.h common/sanitizer_defaults.c
prolog_fabsched_prolog_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog
prolog_fabsched_prolog_LDADD = prolog/libfabsched_prolog.la
prolog_fabsched_epilog_SOURCES = prolog/fabsched-epilog.c prolog/slurm_cmds.c prolog/slurm_cmds.h common/sanitizer_defaults.c
prolog_fabsched_epilog_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog
prolog_fabsched_epilog_LDADD = prolog/libfabsched_prolog.la
prolog_fabsched_sweep_SOURCES = prolog/fabsched-sweep.c prolog/slurm_cmds.c prolog/slurm_cmds.h common/sanitizer_defaults.c
prolog_fabsched_sweep_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog
prolog_fabsched_sweep_LDADD = prolog/libfabsched_prolog.la

# the man page of the three programs
dist_man_MANS += doc/fabsched-prolog.8
