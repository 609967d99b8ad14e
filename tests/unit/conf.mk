# tests/unit/conf.mk: unit tests of common/ (fabsched.conf and the value
# parsers), cmocka programs speaking TAP.  Fixtures: tests/fixtures/conf.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_conf tests/unit/test_values
TESTS += tests/unit/test_conf tests/unit/test_values

tests_unit_test_conf_SOURCES = tests/unit/test_conf.c
tests_unit_test_conf_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) -pthread
tests_unit_test_conf_LDFLAGS = $(AM_LDFLAGS) -pthread
tests_unit_test_conf_LDADD = libfabsched_common.la $(CMOCKA_LIBS)

tests_unit_test_values_SOURCES = tests/unit/test_values.c
tests_unit_test_values_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_values_LDADD = libfabsched_common.la $(CMOCKA_LIBS)
endif

EXTRA_DIST += tests/fixtures/conf

# a net device's DCB settings (common/fs_dcb.c)
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_dcb
TESTS += tests/unit/test_dcb
tests_unit_test_dcb_SOURCES = tests/unit/test_dcb.c
tests_unit_test_dcb_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_dcb_LDADD = libfabsched_common.la $(CMOCKA_LIBS)
endif
