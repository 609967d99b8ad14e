# topology library tests: cmocka unit tests on real dumps, live ibsim tests
# (libibnetdisc), a short fuzz smoke run, and the benchmark programs.
EXTRA_DIST += tests/unit/test_topo_ibsim.sh tests/fuzz/corpus/ibnet

# generator of fat-tree fabrics (ibsim net files, ibnetdiscover text)
check_PROGRAMS += tests/bench/gen_fattree tests/bench/bench_topo tests/bench/gen_lldp
tests_bench_gen_fattree_SOURCES = tests/bench/gen_fattree.c
tests_bench_gen_lldp_SOURCES = tests/bench/gen_lldp.c
tests_bench_bench_topo_SOURCES = tests/bench/bench_topo.c
tests_bench_bench_topo_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology
tests_bench_bench_topo_LDADD = topology/libfabsched_topology.la

# fuzz target, run briefly as a TAP test (FST_LIBFUZZER builds it for libFuzzer)
check_PROGRAMS += tests/fuzz/fuzz_ibnet
tests_fuzz_fuzz_ibnet_SOURCES = tests/fuzz/fuzz_ibnet.c
tests_fuzz_fuzz_ibnet_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology
tests_fuzz_fuzz_ibnet_LDADD = topology/libfabsched_topology.la
TESTS += tests/fuzz/fuzz_ibnet

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_topo
tests_unit_test_topo_SOURCES = tests/unit/test_topo.c
tests_unit_test_topo_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology $(CMOCKA_CFLAGS)
tests_unit_test_topo_LDADD = topology/libfabsched_topology.la libfabsched_common.la $(CMOCKA_LIBS)
TESTS += tests/unit/test_topo

# NDR dumps as ibdiagnet writes them: port labels, CRLF, split ports
check_PROGRAMS += tests/unit/test_topo_ndr
tests_unit_test_topo_ndr_SOURCES = tests/unit/test_topo_ndr.c
tests_unit_test_topo_ndr_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology $(CMOCKA_CFLAGS)
tests_unit_test_topo_ndr_LDADD = topology/libfabsched_topology.la libfabsched_common.la $(CMOCKA_LIBS)
TESTS += tests/unit/test_topo_ndr

# Ethernet fabrics from LLDP records (tests/fixtures/lldp)
check_PROGRAMS += tests/unit/test_topo_lldp
tests_unit_test_topo_lldp_SOURCES = tests/unit/test_topo_lldp.c
tests_unit_test_topo_lldp_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology $(CMOCKA_CFLAGS)
tests_unit_test_topo_lldp_LDADD = topology/libfabsched_topology.la libfabsched_common.la $(CMOCKA_LIBS)
TESTS += tests/unit/test_topo_lldp
endif

if HAVE_IBNETDISC
TESTS += tests/unit/test_topo_ibsim.sh
endif

# expected outputs kept beside the dumps (tests/fixtures/ibnetdiscover/
# <dump>.tree, .block, .yaml, .json, .check); FABSCHED_REGEN=1 rewrites them
TESTS += tests/unit/test_topo_fixtures.sh
EXTRA_DIST += tests/unit/test_topo_fixtures.sh

# director chassis (gen_fattree -c): counted, every ASIC named, tree exported;
# counted again from the JSON model (sysimgguid)
TESTS += tests/unit/test_topo_chassis.sh
EXTRA_DIST += tests/unit/test_topo_chassis.sh

# a rail-optimized fabric: rail 0 (or --compute-hca's) makes racks, whatever
# the order of the dump's records
TESTS += tests/unit/test_topo_railopt.sh
EXTRA_DIST += tests/unit/test_topo_railopt.sh

# `make bench-topo`: 3-level fat tree with 20,000 HCAs, figures printed;
# then the same tree whose level-1 and core switches are the ASICs of
# director chassis of 20 (gen_fattree -c 20: 70 chassis); then an Ethernet
# fabric of 20,000 NICs from LLDP records (gen_lldp: 10,000 nodes on 2
# rails, 626 leaves, 160 spines, 16 cores: 10,802 files)
bench-topo: tests/bench/gen_fattree$(EXEEXT) tests/bench/bench_topo$(EXEEXT) tests/bench/gen_lldp$(EXEEXT)
	tests/bench/gen_fattree -l 3 -H 20000 -k 40 -f ibnet -o tests/bench/fattree-20k.ibnet
	tests/bench/bench_topo tests/bench/fattree-20k.ibnet
	tests/bench/gen_fattree -l 3 -H 20000 -k 40 -c 20 -f ibnet -o tests/bench/fattree-20k-chassis.ibnet
	tests/bench/bench_topo tests/bench/fattree-20k-chassis.ibnet
	rm -rf tests/bench/lldp-20k
	tests/bench/gen_lldp -n 10000 -r 2 -H 32 -g 32 -s 8 -c 16 -o tests/bench/lldp-20k
	tests/bench/bench_topo --lldp tests/bench/lldp-20k
	rm -rf tests/bench/lldp-20k
CLEANFILES += tests/bench/fattree-20k.ibnet tests/bench/fattree-20k-chassis.ibnet
.PHONY: bench-topo

# `make bench-watch`: one fabsched topo watch cycle on the same 20,000-HCA
# fat tree: first model, nothing changed, one link changed (time, RSS)
bench-watch: tests/bench/gen_fattree$(EXEEXT) cli/fabsched$(EXEEXT)
	tests/bench/gen_fattree -l 3 -H 20000 -k 40 -f ibnet -o tests/bench/fattree-20k.ibnet
	$(SHELL) $(srcdir)/tests/bench/bench_watch.sh cli/fabsched tests/bench/fattree-20k.ibnet
EXTRA_DIST += tests/bench/bench_watch.sh
.PHONY: bench-watch

# exported hostlists as Slurm writes them (scontrol show hostlistsorted)
check_PROGRAMS += tests/unit/hostlist_compress
tests_unit_hostlist_compress_SOURCES = tests/unit/hostlist_compress.c
tests_unit_hostlist_compress_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology
tests_unit_hostlist_compress_LDADD = topology/libfabsched_topology.la
TESTS += tests/unit/test_hostlist_slurm.sh
EXTRA_DIST += tests/unit/test_hostlist_slurm.sh
