# tests/unit/gres.mk: unit tests of gres/ (node inventory) on the hwloc XML
# fixtures (tests/fixtures/hwloc) and generated sysfs trees
# (tests/fixtures/sysfs).  cmocka, TAP.
EXTRA_DIST += tests/fixtures/hwloc tests/fixtures/sysfs
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_gres
TESTS += tests/unit/test_gres
tests_unit_test_gres_SOURCES = tests/unit/test_gres.c
tests_unit_test_gres_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/gres $(CMOCKA_CFLAGS)
tests_unit_test_gres_LDADD = gres/libfabsched_gres.la libfabsched_common.la $(CMOCKA_LIBS)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_gres_units
TESTS += tests/unit/test_gres_units
tests_unit_test_gres_units_SOURCES = tests/unit/test_gres_units.c
tests_unit_test_gres_units_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/gres \
	-I$(top_srcdir)/prolog $(CMOCKA_CFLAGS)
tests_unit_test_gres_units_LDADD = prolog/libfabsched_prolog.la \
	gres/libfabsched_gres.la $(CMOCKA_LIBS)
endif
