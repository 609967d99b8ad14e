# Cluster tests: each starts a real Slurm cluster (munged, slurmctld, N slurmd
# in their own namespaces) with the plugins of this build, and stops it.
# They are not part of `make check` (distcheck runs that as a plain build
# check); `make check-cluster` runs them with the same TAP driver.
CLUSTER_TESTS = \
	tests/cluster/t-harness.sh \
	tests/regression/t-plugins-load.sh \
	tests/regression/t-examples.sh \
	tests/regression/t-placement.sh \
	tests/regression/t-shapes.sh \
	tests/regression/t-topology.sh \
	tests/regression/t-ethernet.sh \
	tests/regression/t-watch.sh \
	tests/regression/t-restart.sh \
	tests/regression/t-rollback.sh \
	tests/regression/t-off.sh \
	tests/regression/t-accounting.sh \
	tests/regression/t-starve.sh \
	tests/regression/t-gres.sh \
	tests/regression/t-hugepages.sh \
	tests/regression/t-prolog.sh \
	tests/regression/t-records.sh \
	tests/regression/t-faults.sh \
	tests/regression/t-scratch.sh \
	tests/regression/t-package.sh

EXTRA_DIST += tests/cluster tests/regression tests/slurm-regression debian

# Of the check programs, the cluster tests run only t-prolog's helper: they
# build that and `all`, not the unit tests and the sanitized fuzz targets
# (`make check`'s), which a build directory of its own for a release
# (scripts/check.sh) otherwise compiled before its first cluster test.
CLUSTER_TEST_HELPERS = tests/unit/test_prolog_map$(EXEEXT)
cluster_check = $(MAKE) $(AM_MAKEFLAGS) check-TESTS \
	check_PROGRAMS='$(CLUSTER_TEST_HELPERS)' check_LTLIBRARIES=

# CLUSTER_TESTS_ASIDE: tests left out here because they run elsewhere
# (scripts/check.sh runs the newest release's t-package, which starts no
# cluster, in the background beside that release's suite)
CLUSTER_TESTS_ASIDE =
check-cluster: all
	$(cluster_check) TESTS="$(filter-out $(CLUSTER_TESTS_ASIDE),$(CLUSTER_TESTS))"

# scripts/check.sh runs these on Debian's 22.05 and on the newest release
# only (--full: on every release), to keep the test command within its
# time: the package build (80 s a release), the starvation bound's two
# timed waits (110 s) and Locality=off against stock topology/tree (three
# 37-step job mixes, 100 s), and the Ethernet fabric's model from LLDP,
# whose discovery is the fabsched command's, not a plugin's.  One plugin source and one packaging rule
# serve 24.11 to 26.05, and Locality=off's code (topology/tree's own node
# choice, called as it is) is theirs alike; Slurm's own scheduler, which
# differs between them, the other cluster tests exercise on every release
# (t-placement, t-shapes, t-topology, t-watch's live model, ...).
# (one line: scripts/check.sh reads it from the Makefile)
CLUSTER_TESTS_TWO_RELEASES = tests/regression/t-starve.sh tests/regression/t-package.sh tests/regression/t-off.sh tests/regression/t-ethernet.sh

# `make check-cluster-core`: every cluster test but those, and t-placement
# and t-shapes without their runs of stock Slurm (FABSCHED_STOCK_COMPARE=no:
# 55 and 70 s a release)
check-cluster-core: all
	FABSCHED_STOCK_COMPARE=no $(cluster_check) \
		TESTS="$(filter-out $(CLUSTER_TESTS_TWO_RELEASES),$(CLUSTER_TESTS))"

.PHONY: check-cluster check-cluster-core

# `make bench-ctld`: slurmctld with a 5,000-job queue on 128 emulated nodes,
# stock Slurm against fabsched (figures, not a test; root; several minutes)
bench-ctld: all
	$(AM_TESTS_ENVIRONMENT) $(SHELL) $(top_srcdir)/tests/bench/bench_ctld.sh
.PHONY: bench-ctld
EXTRA_DIST += tests/bench/bench_ctld.sh

# `make check-micro`: fabsched built against a second micro release of one
# series (MICRO_RELEASE, default 26.05.2: Slurm from its upstream tarball,
# scripts/slurm-build.sh), in its own build directory beside this one, and
# loaded by that release's daemons: t-plugins-load (every plugin, an MPI
# job) and t-topology.  Not in scripts/check.sh: a Slurm build of its own
# (figures in doc/TESTING.md).  Root.
MICRO_RELEASE = 26.05.2
MICRO_TESTS = tests/regression/t-plugins-load.sh tests/regression/t-topology.sh
check-micro:
	FABSCHED_BUILD='$(abs_top_builddir)/../build-slurm-$(MICRO_RELEASE)' \
		$(top_srcdir)/scripts/build.sh --slurm $(MICRO_RELEASE) --enable-werror
	$(MAKE) -C '$(abs_top_builddir)/../build-slurm-$(MICRO_RELEASE)' check-TESTS \
		check_PROGRAMS= check_LTLIBRARIES= TESTS='$(MICRO_TESTS)'
.PHONY: check-micro

# `make check-debian13`: the Debian packages built, checked with lintian and
# installed in a Debian 13 chroot (debootstrap, cached), loaded by Debian
# 13's own slurmctld and slurmd (24.11) with one job.  Not in
# scripts/check.sh: the first run fetches about 1 GB (figures in
# doc/TESTING.md).  Root.
check-debian13: all
	$(cluster_check) TESTS=tests/regression/t-debian13.sh
.PHONY: check-debian13
