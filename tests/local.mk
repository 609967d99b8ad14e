# tests/: unit (per library), fuzz smoke, cluster (real Slurm daemons).
# `make check` runs unit and fuzz-smoke tests; `make check-cluster` runs the
# cluster and regression tests, which start their own Slurm cluster as root.
EXTRA_DIST += tests/fixtures
include tests/unit/conf.mk
include tests/unit/topology.mk
include tests/unit/gres.mk
include tests/unit/prolog.mk
include tests/unit/select.mk
include tests/unit/sim.mk
include tests/unit/slurm_tree.mk
include tests/fuzz/fuzz.mk
include tests/cluster.mk
include tests/asan.mk

# every relative link of the Markdown documents resolves
TESTS += tests/unit/test_doc_links.sh
EXTRA_DIST += tests/unit/test_doc_links.sh

# the man pages: one date and version, every page and section reference resolves
TESTS += tests/unit/test_man_pages.sh
EXTRA_DIST += tests/unit/test_man_pages.sh tests/unit/test_man_pages.py

# the example configuration holds together (examples/)
TESTS += tests/unit/test_examples.sh
EXTRA_DIST += tests/unit/test_examples.sh examples
# every shell script passes shellcheck (warnings and errors)
TESTS += tests/unit/test_shellcheck.sh
TESTS += tests/unit/test_slurm_build_args.sh tests/unit/test_apt_lock.sh
EXTRA_DIST += tests/unit/test_slurm_build_args.sh tests/unit/test_apt_lock.sh
EXTRA_DIST += tests/unit/test_shellcheck.sh
# every C file as clang-format leaves it (.clang-format)
TESTS += tests/unit/test_format.sh
EXTRA_DIST += tests/unit/test_format.sh .clang-format

# `make distcheck-tarball`: make distcheck with every test but the lint of
# the source files (shellcheck, clang-format: 80 s of CPU), which reads the
# same files in the tarball as in the tree and ran there with `make check`,
# and but the tests that change this machine's own state (its hugepage
# pools, mounts, cgroups, NVMe-oF targets): scripts/check.sh runs this
# beside the cluster suites, whose clusters snapshot and restore the
# hugepage pools, after `make check` ran those tests on the tree
LINT_TESTS = tests/unit/test_shellcheck.sh tests/unit/test_format.sh
HOST_TESTS = tests/unit/test_prolog_real.sh tests/unit/test_prolog_nvme_real.sh
distcheck-tarball:
	$(MAKE) $(AM_MAKEFLAGS) distcheck TESTS="$(filter-out $(LINT_TESTS) $(HOST_TESTS),$(TESTS))"
.PHONY: distcheck-tarball
