# Slurm tree records of libfabsched_topology (the builder shared by the
# topology.conf exporter and the topology/fabric plugin).
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_slurm_tree
tests_unit_test_slurm_tree_SOURCES = tests/unit/test_slurm_tree.c
tests_unit_test_slurm_tree_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology $(CMOCKA_CFLAGS)
tests_unit_test_slurm_tree_LDADD = topology/libfabsched_topology.la $(CMOCKA_LIBS)
TESTS += tests/unit/test_slurm_tree
endif
