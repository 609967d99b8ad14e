# tests/fuzz/fuzz.mk: fuzzing of the parsers of outside input.
#
# The targets (tests/fuzz/fuzz_<name>.c, seeds in tests/fuzz/corpus/<name>,
# each with a smoke test in make check):
#   conf    fabsched.conf and its values
#   values  the job and environment values of the helpers and slurmctld
#   env     the job as the prolog's environment gives it, its P_Key, the
#           --licenses values job_submit/fabsched adds scratch to
#   ibnet   ibnetdiscover text dumps (its smoke test, tests/fuzz/fuzz_ibnet,
#           has its own main: tests/unit/topology.mk)
#   cache   ibnetdiscover cache files (read through libibnetdisc)
#   locality the locality record's state text
#   observe the observation log of Locality=observe
#   files   model JSON, job logs (SWF, sacct), node-name-maps, rack maps, slurm.conf's
#           node lines, the watch's link counters
#   watch   the watch's sinfo records, bindings file and node-name-map GUIDs
#
# make check runs tests/fuzz/fuzz_conf_smoke: the fabsched.conf and value
# parser fuzz target (fuzz_conf.c) with a plain main (driver.c) that
# replays the seed corpus tests/fuzz/corpus/conf and the conf fixtures,
# then 20000 seeded random mutations of them, in a few seconds.  It is
# built with AddressSanitizer and UBSan when $(CC) can link them (set
# FUZZ_SANITIZE= on the make command line to build it without).  In the
# environment, FUZZ_COUNT sets the number of mutations and FUZZ_SEED the
# seed ("time" for a new one each run), e.g.
#   FUZZ_COUNT=1000000 FUZZ_SEED=time ./tests/fuzz/fuzz_conf_smoke
#
# make fuzz builds tests/fuzz/fuzz_conf_libfuzzer with clang's libFuzzer
# (plus ASan and UBSan) and runs it for FUZZ_TIME seconds (default 60) on
# the seed corpus; inputs it finds go to tests/fuzz/work/conf and crashes
# to tests/fuzz/crash-* in the build tree:
#   make fuzz FUZZ_TIME=600
# A crash input worth keeping becomes a seed: copy it to
# tests/fuzz/corpus/conf/regress-<what>.
#
# driver.c serves any LLVMFuzzerTestOneInput target; another parser gets
# its seeds in tests/fuzz/corpus/<name> and a smoke test like this one:
#   check_PROGRAMS += tests/fuzz/fuzz_<name>_smoke
#   TESTS += tests/fuzz/fuzz_<name>_smoke
#   tests_fuzz_fuzz_<name>_smoke_SOURCES = tests/fuzz/fuzz_<name>.c
#	tests/fuzz/driver.c <the library sources, to sanitize them too>
#   tests_fuzz_fuzz_<name>_smoke_CPPFLAGS = $(AM_CPPFLAGS)
#	-DFUZZ_NAME='"<name>"' [-DFUZZ_FIXTURES='"<fixtures folder>"']
#   (one line each)
#   tests_fuzz_fuzz_<name>_smoke_CFLAGS = $(AM_CFLAGS) $(FUZZ_SANITIZE)
#   tests_fuzz_fuzz_<name>_smoke_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_SANITIZE)

FUZZ_SANITIZE_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
# The flags when a test program links with them, else nothing (evaluated
# once per make run).
FUZZ_SANITIZE = $(eval FUZZ_SANITIZE := $(shell \
	t=fuzz-sanitize-probe-$$$$; \
	printf 'int main(void) { return 0; }\n' > $$t.c; \
	if $(CC) $(FUZZ_SANITIZE_FLAGS) -o $$t $$t.c >/dev/null 2>&1 && \
	   ./$$t >/dev/null 2>&1; then echo '$(FUZZ_SANITIZE_FLAGS)'; fi; \
	rm -f $$t $$t.c))$(FUZZ_SANITIZE)

# the library sources of the conf target, for its smoke test and its
# libFuzzer build (make fuzz, make fuzz-long)
FUZZ_CONF_LIB_SRCS = \
	$(FABSCHED_CONF_SOURCES) \
	common/fs_values.c \
	common/fs_hugepages.c \
	common/fs_ib.c
# the library sources of the other targets (their smoke tests, make fuzz-long)
FUZZ_VALUES_LIB_SRCS = common/fs_values.c common/fs_ib.c common/fs_jobreq.c \
	common/fs_hugepages.c gres/util.c gres/cpulist.c gres/env.c gres/task.c
FUZZ_LOCALITY_LIB_SRCS = select/locality_record.c select/share.c
FUZZ_OBSERVE_LIB_SRCS = select/observe.c
FUZZ_FILES_SRCS = \
	$(TOPOLOGY_SOURCES) \
	sim/swf.c \
	sim/trace.c \
	sim/sacct.c \
	sim/sacct_json.c \
	sim/sacct_parsable.c \
	common/fs_json.c \
	common/fs_slurmconf.c \
	common/fs_ib.c \
	common/fs_values.c
FUZZ_ENV_LIB_SRCS = prolog/spec.c common/fs_values.c common/fs_ib.c \
	common/fs_jobreq.c common/fs_hugepages.c
FUZZ_CACHE_LIB_SRCS = $(TOPOLOGY_SOURCES) common/fs_ib.c common/fs_values.c
FUZZ_WATCH_LIB_SRCS = cli/watch_formats.c $(TOPOLOGY_SOURCES) common/fs_ib.c \
	common/fs_values.c

# Every library source of the smoke tests (the union of the lists above,
# each file once), compiled once with the sanitizers into one check-only
# library that each smoke test links (a program takes only the objects it
# uses), instead of once per target.
check_LTLIBRARIES = tests/fuzz/libfuzzsan.la
tests_fuzz_libfuzzsan_la_SOURCES = \
	$(FUZZ_CONF_LIB_SRCS) \
	$(TOPOLOGY_SOURCES) \
	$(FUZZ_LOCALITY_LIB_SRCS) \
	$(FUZZ_OBSERVE_LIB_SRCS) \
	common/fs_jobreq.c \
	common/fs_json.c \
	common/fs_slurmconf.c \
	gres/util.c \
	gres/cpulist.c \
	gres/env.c \
	gres/task.c \
	sim/swf.c \
	sim/trace.c \
	sim/sacct.c \
	sim/sacct_json.c \
	sim/sacct_parsable.c \
	prolog/spec.c \
	cli/watch_formats.c
tests_fuzz_libfuzzsan_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology \
	-I$(top_srcdir)/sim -I$(top_srcdir)/select -I$(top_srcdir)/gres \
	-I$(top_srcdir)/prolog -I$(top_srcdir)/cli $(JSONC_CFLAGS) $(ZLIB_CFLAGS)
tests_fuzz_libfuzzsan_la_CFLAGS = $(AM_CFLAGS) $(FUZZ_SANITIZE)
FUZZ_LDADD = tests/fuzz/libfuzzsan.la $(JSONC_LIBS) $(ZLIB_LIBS) -lm
if HAVE_IBNETDISC
FUZZ_LDADD += $(IBNETDISC_LIBS)
endif

check_PROGRAMS += tests/fuzz/fuzz_conf_smoke
TESTS += tests/fuzz/fuzz_conf_smoke
tests_fuzz_fuzz_conf_smoke_SOURCES = tests/fuzz/fuzz_conf.c tests/fuzz/driver.c
tests_fuzz_fuzz_conf_smoke_CFLAGS = $(AM_CFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_conf_smoke_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_conf_smoke_LDADD = $(FUZZ_LDADD)

# the driver itself: a hanging input fails the run (test_driver.sh)
check_PROGRAMS += tests/fuzz/fuzz_selftest
tests_fuzz_fuzz_selftest_SOURCES = tests/fuzz/fuzz_selftest.c tests/fuzz/driver.c
tests_fuzz_fuzz_selftest_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"selftest"'
TESTS += tests/fuzz/test_driver.sh
EXTRA_DIST += tests/fuzz/test_driver.sh

# the job and environment values of root-run helpers and slurmctld
# (fuzz_values.c; seeds in tests/fuzz/corpus/values)
check_PROGRAMS += tests/fuzz/fuzz_values_smoke
TESTS += tests/fuzz/fuzz_values_smoke
tests_fuzz_fuzz_values_smoke_SOURCES = tests/fuzz/fuzz_values.c tests/fuzz/driver.c
tests_fuzz_fuzz_values_smoke_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_values_smoke_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/gres \
	-DFUZZ_NAME='"values"' -DFUZZ_FIXTURES='"none"'
tests_fuzz_fuzz_values_smoke_CFLAGS = $(AM_CFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_values_smoke_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_SANITIZE)

# the locality record's state text (fuzz_locality.c; seeds in
# tests/fuzz/corpus/locality)
check_PROGRAMS += tests/fuzz/fuzz_locality_smoke
TESTS += tests/fuzz/fuzz_locality_smoke
tests_fuzz_fuzz_locality_smoke_SOURCES = tests/fuzz/fuzz_locality.c tests/fuzz/driver.c
tests_fuzz_fuzz_locality_smoke_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_locality_smoke_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/select \
	-DFUZZ_NAME='"locality"' -DFUZZ_FIXTURES='"none"'
tests_fuzz_fuzz_locality_smoke_CFLAGS = $(AM_CFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_locality_smoke_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_SANITIZE)

# the observation log of Locality=observe (fuzz_observe.c; seeds in
# tests/fuzz/corpus/observe)
check_PROGRAMS += tests/fuzz/fuzz_observe_smoke
TESTS += tests/fuzz/fuzz_observe_smoke
tests_fuzz_fuzz_observe_smoke_SOURCES = tests/fuzz/fuzz_observe.c tests/fuzz/driver.c
tests_fuzz_fuzz_observe_smoke_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_observe_smoke_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/select \
	-DFUZZ_NAME='"observe"' -DFUZZ_FIXTURES='"none"'
tests_fuzz_fuzz_observe_smoke_CFLAGS = $(AM_CFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_observe_smoke_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_SANITIZE)

# the files read from outside besides fabsched.conf and fabric dumps:
# model JSON, job logs (SWF, sacct --json, sacct -P), node-name-maps, rack maps, slurm.conf's node lines,
# the watch's link counters, LLDP records (fuzz_files.c; seeds in tests/fuzz/corpus/files,
# first byte: which reader)
check_PROGRAMS += tests/fuzz/fuzz_files_smoke
TESTS += tests/fuzz/fuzz_files_smoke
tests_fuzz_fuzz_files_smoke_SOURCES = tests/fuzz/fuzz_files.c tests/fuzz/driver.c
tests_fuzz_fuzz_files_smoke_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology \
	-I$(top_srcdir)/sim -I$(top_srcdir)/select $(JSONC_CFLAGS) $(ZLIB_CFLAGS) \
	-DFUZZ_NAME='"files"' -DFUZZ_FIXTURES='"none"'
tests_fuzz_fuzz_files_smoke_CFLAGS = $(AM_CFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_files_smoke_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_files_smoke_LDADD = $(FUZZ_LDADD)

# the job as the prolog environment gives it to the node helpers, its
# P_Key, and the --licenses values (fuzz_env.c; seeds in
# tests/fuzz/corpus/env, one NAME=VALUE a line)
check_PROGRAMS += tests/fuzz/fuzz_env_smoke
TESTS += tests/fuzz/fuzz_env_smoke
tests_fuzz_fuzz_env_smoke_SOURCES = tests/fuzz/fuzz_env.c tests/fuzz/driver.c
tests_fuzz_fuzz_env_smoke_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_env_smoke_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/prolog \
	-DFUZZ_NAME='"env"' -DFUZZ_FIXTURES='"none"'
tests_fuzz_fuzz_env_smoke_CFLAGS = $(AM_CFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_env_smoke_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_SANITIZE)

# ibnetdiscover cache files, read through libibnetdisc (fuzz_cache.c; seeds
# in tests/fuzz/corpus/cache: caches saved from ibsim fabrics); without
# libibnetdisc the reader refuses every file and the run is short
check_PROGRAMS += tests/fuzz/fuzz_cache_smoke
TESTS += tests/fuzz/fuzz_cache_smoke
tests_fuzz_fuzz_cache_smoke_SOURCES = tests/fuzz/fuzz_cache.c tests/fuzz/driver.c
tests_fuzz_fuzz_cache_smoke_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology \
	$(JSONC_CFLAGS) -DFUZZ_NAME='"cache"' -DFUZZ_FIXTURES='"none"'
tests_fuzz_fuzz_cache_smoke_CFLAGS = $(AM_CFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_cache_smoke_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_cache_smoke_LDADD = $(FUZZ_LDADD)

# what the watch reads besides fabric dumps: Slurm's nodes as fixed-width
# sinfo records, its bindings file, a node-name map's GUIDs (fuzz_watch.c;
# seeds in tests/fuzz/corpus/watch, first byte: which reader)
check_PROGRAMS += tests/fuzz/fuzz_watch_smoke
TESTS += tests/fuzz/fuzz_watch_smoke
tests_fuzz_fuzz_watch_smoke_SOURCES = tests/fuzz/fuzz_watch.c tests/fuzz/driver.c
tests_fuzz_fuzz_watch_smoke_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/cli \
	-I$(top_srcdir)/topology $(JSONC_CFLAGS) -DFUZZ_NAME='"watch"' -DFUZZ_FIXTURES='"none"'
tests_fuzz_fuzz_watch_smoke_CFLAGS = $(AM_CFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_watch_smoke_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_SANITIZE)
tests_fuzz_fuzz_watch_smoke_LDADD = $(FUZZ_LDADD)

EXTRA_DIST += tests/fuzz/corpus

FUZZ_CLANG = clang
FUZZ_TIME = 60
FUZZ_CONF_SRCS = \
	$(srcdir)/tests/fuzz/fuzz_conf.c \
	$(filter %.c,$(FUZZ_CONF_LIB_SRCS:%=$(srcdir)/%))

tests/fuzz/fuzz_conf_libfuzzer: $(FUZZ_CONF_SRCS) \
		$(srcdir)/common/fabsched_conf.h $(srcdir)/common/conf_private.h \
		$(srcdir)/common/fs_values.h
	@command -v $(FUZZ_CLANG) >/dev/null 2>&1 || { \
	  echo "make fuzz: $(FUZZ_CLANG) not found; it needs clang with" \
	       "libFuzzer (apt-get install clang)" >&2; exit 1; }
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CLANG) -g -O1 -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=all -I$(top_srcdir)/common -o $@ \
	  $(FUZZ_CONF_SRCS)

fuzz: tests/fuzz/fuzz_conf_libfuzzer
	@$(MKDIR_P) tests/fuzz/work/conf
	./tests/fuzz/fuzz_conf_libfuzzer -max_total_time=$(FUZZ_TIME) \
	  -max_len=8192 -artifact_prefix=tests/fuzz/ \
	  tests/fuzz/work/conf $(srcdir)/tests/fuzz/corpus/conf

.PHONY: fuzz
CLEANFILES += tests/fuzz/fuzz_conf_libfuzzer

# make fuzz-long: every target with libFuzzer for FUZZ_RUNS executions
# each (default 10 million; hours on 2 cores, not in the test command),
# then a table of executions, coverage, crashes and timeouts
# (tests/fuzz/fuzz-long.sh; FUZZ_ONLY="files ibnet" for some,
# FUZZ_MAX_TIME=<seconds> to bound each target's run as well,
# FUZZ_MINIMIZE=1 to replace the tree's corpora by minimized ones, keeping
# the regress-* seeds).  Runs of different targets may go side by side:
#   nice -n 19 make fuzz-long FUZZ_ONLY=conf FUZZ_MINIMIZE=1 &
#   nice -n 19 make fuzz-long FUZZ_ONLY="ibnet files" FUZZ_MINIMIZE=1
# The figures of the last long run: tests/fuzz/RESULTS.md.
FUZZ_RUNS = 10000000
FUZZ_MAX_TIME = 0
FUZZ_ONLY =
fuzz-long:
	FUZZ_CLANG='$(FUZZ_CLANG)' FUZZ_RUNS='$(FUZZ_RUNS)' FUZZ_ONLY='$(FUZZ_ONLY)' \
	FUZZ_MAX_TIME='$(FUZZ_MAX_TIME)' \
	SRCDIR='$(abs_top_srcdir)' BUILDDIR='$(abs_top_builddir)' \
	CFLAGS_EXTRA='-I$(abs_top_srcdir)/common -I$(abs_top_srcdir)/cli -I$(abs_top_srcdir)/topology -I$(abs_top_srcdir)/select -I$(abs_top_srcdir)/sim -I$(abs_top_srcdir)/gres -I$(abs_top_srcdir)/prolog $(JSONC_CFLAGS) $(ZLIB_CFLAGS)' \
	LIBS='$(JSONC_LIBS) $(ZLIB_LIBS) $(IBNETDISC_LIBS) -lm' \
	SRCS_conf='$(FUZZ_CONF_SRCS:$(srcdir)/%=%)' \
	SRCS_values='$(tests_fuzz_fuzz_values_smoke_SOURCES) $(FUZZ_VALUES_LIB_SRCS)' \
	SRCS_ibnet='tests/fuzz/fuzz_ibnet.c $(TOPOLOGY_SOURCES)' \
	SRCS_locality='$(tests_fuzz_fuzz_locality_smoke_SOURCES) $(FUZZ_LOCALITY_LIB_SRCS)' \
	SRCS_observe='$(tests_fuzz_fuzz_observe_smoke_SOURCES) $(FUZZ_OBSERVE_LIB_SRCS)' \
	SRCS_files='$(tests_fuzz_fuzz_files_smoke_SOURCES) $(FUZZ_FILES_SRCS)' \
	SRCS_env='$(tests_fuzz_fuzz_env_smoke_SOURCES) $(FUZZ_ENV_LIB_SRCS)' \
	SRCS_cache='$(tests_fuzz_fuzz_cache_smoke_SOURCES) $(FUZZ_CACHE_LIB_SRCS)' \
	SRCS_watch='$(tests_fuzz_fuzz_watch_smoke_SOURCES) $(FUZZ_WATCH_LIB_SRCS)' \
	$(SHELL) $(srcdir)/tests/fuzz/fuzz-long.sh
.PHONY: fuzz-long
EXTRA_DIST += tests/fuzz/fuzz-long.sh tests/fuzz/RESULTS.md
