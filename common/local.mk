# common/: libfabsched_common, the code every part of fabsched shares:
# the fabsched.conf parser (fabsched_conf.h) and the value parsers
# (fs_values.h).  No Slurm header; PIC (a libtool convenience library), so
# that plugins, root helpers and the command can all link it:
#   foo_LIBADD = libfabsched_common.la   (or foo_LDADD for programs)
# the fabsched.conf parser, also compiled into the fuzz targets
FABSCHED_CONF_SOURCES = common/conf_private.h common/conf_keys.c common/conf_errors.c common/conf_values.c common/conf_parse.c common/conf_load.c common/conf_get.c common/conf_dump.c

noinst_LTLIBRARIES += libfabsched_common.la
libfabsched_common_la_SOURCES = \
	$(FABSCHED_CONF_SOURCES) \
	common/fabsched_conf.h \
	common/fs_env.h \
	common/fs_values.c \
	common/fs_values.h \
	common/fs_jobreq.c \
	common/fs_jobreq.h \
	common/fs_hugepages.c \
	common/fs_hugepages.h \
	common/fs_slurmconf.c \
	common/fs_slurmconf.h \
	common/fs_ib.c \
	common/fs_ib.h \
	common/fs_run.c \
	common/fs_run.h \
	common/fs_dcb.c \
	common/fs_dcb.h \
	common/fs_err.h \
	common/fs_file.h

# Slurm's JSON in every release's form (fs_json.h), for `fabsched job` and
# the simulator's sacct reader; apart from libfabsched_common because it
# needs json-c, which the plugins do not link:
#   foo_LDADD = libfabsched_json.la $(JSONC_LIBS)
noinst_LTLIBRARIES += libfabsched_json.la
libfabsched_json_la_SOURCES = common/fs_json.c common/fs_json.h
libfabsched_json_la_CPPFLAGS = $(AM_CPPFLAGS) $(JSONC_CFLAGS)
libfabsched_json_la_CFLAGS = $(AM_CFLAGS) -fPIC
libfabsched_json_la_LIBADD = $(JSONC_LIBS)
