# tests/unit/select.mk: unit tests of the placement engine (select/),
# cmocka programs speaking TAP.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_engine
TESTS += tests/unit/test_engine
tests_unit_test_engine_SOURCES = tests/unit/test_engine.c
tests_unit_test_engine_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/select \
	-I$(top_srcdir)/topology $(CMOCKA_CFLAGS)
tests_unit_test_engine_LDADD = select/libfabsched_select.la \
	topology/libfabsched_topology.la libfabsched_common.la $(CMOCKA_LIBS)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_decide
TESTS += tests/unit/test_decide
tests_unit_test_decide_SOURCES = tests/unit/test_decide.c
tests_unit_test_decide_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/select \
	-I$(top_srcdir)/topology $(CMOCKA_CFLAGS)
tests_unit_test_decide_LDADD = select/libfabsched_select.la \
	topology/libfabsched_topology.la libfabsched_common.la $(CMOCKA_LIBS)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_ctl
TESTS += tests/unit/test_ctl
tests_unit_test_ctl_SOURCES = tests/unit/test_ctl.c
tests_unit_test_ctl_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/select \
	-I$(top_srcdir)/topology $(CMOCKA_CFLAGS)
tests_unit_test_ctl_LDADD = select/libfabsched_select.la \
	topology/libfabsched_topology.la libfabsched_common.la $(CMOCKA_LIBS)
endif
