# tests/unit/sim.mk: unit tests of the simulator (sim/): cmocka programs
# speaking TAP, and a shell test of `fabsched sim`.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sim_swf tests/unit/test_sim_sched
TESTS += tests/unit/test_sim_swf tests/unit/test_sim_sched
tests_unit_test_sim_swf_SOURCES = tests/unit/test_sim_swf.c
tests_unit_test_sim_swf_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim \
	-I$(top_srcdir)/select $(ZLIB_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_sim_swf_LDADD = $(SIM_LIBS) $(CMOCKA_LIBS)
tests_unit_test_sim_sched_SOURCES = tests/unit/test_sim_sched.c
tests_unit_test_sim_sched_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim \
	-I$(top_srcdir)/select $(CMOCKA_CFLAGS)
tests_unit_test_sim_sched_LDADD = $(SIM_LIBS) $(CMOCKA_LIBS)
endif
TESTS += tests/unit/test_sim_cli.sh
EXTRA_DIST += tests/unit/test_sim_cli.sh
# the sacct readers (sacct --json of 22.05 and 24.11+, sacct -P)
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sim_sacct
TESTS += tests/unit/test_sim_sacct
tests_unit_test_sim_sacct_SOURCES = tests/unit/test_sim_sacct.c
tests_unit_test_sim_sacct_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim \
	-I$(top_srcdir)/select $(ZLIB_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_sim_sacct_LDADD = $(SIM_LIBS) $(CMOCKA_LIBS)
endif
TESTS += tests/unit/test_sim_sacct_cli.sh
EXTRA_DIST += tests/unit/test_sim_sacct_cli.sh
