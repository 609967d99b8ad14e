# `make check-asan`: the cluster suite (CLUSTER_TESTS) with AddressSanitizer
# and UBSan in fabsched's plugins and helpers, loaded by the real slurmctld,
# slurmd and slurmstepd of the test cluster.  Not part of `make check` nor of
# CI (slow: it builds everything again and runs the whole cluster suite).
#
# The sanitized build is $(ASAN_BUILDDIR), configured from this one's
# configure arguments plus ASAN_CC_FLAGS/ASAN_LD_FLAGS (`make asan-build` alone
# builds it).  Slurm is not instrumented: gcc's libasan is preloaded, with
# the daemons' own options, into slurmctld and slurmd through the harness's
# FABSCHED_CLUSTER_DAEMON_ENV (slurmstepd inherits slurmd's environment),
# and into Slurm's commands (they dlopen the select, gres and SPANK plugins
# too) through wrappers (FABSCHED_CLUSTER_CLIENT_BIN, first in PATH).
# ASAN_OPTIONS/UBSAN_OPTIONS are set for the whole run (only sanitized
# programs read them).
# Every report goes to a file in $(ASAN_REPORTS); after the suite
# tests/asan/asan-reports.sh fails the target on any report with a fabsched
# frame (a plugin .so, a helper, the command, fabsched's sources) and prints
# it.  tests/asan/t-asan-runtime.sh, run first, fails unless the runtime is
# mapped in slurmctld, every slurmd and a slurmstepd.
# Leaks: LeakSanitizer is off in the daemons (Slurm does not free its memory
# at exit and is not instrumented; see tests/cluster/README, "Sanitizers"),
# on in the helpers, the command and Slurm's commands, reported
# without changing exit statuses.
# One file: make check-asan CLUSTER_TESTS=tests/regression/t-gres.sh (after
# the runtime check); that file alone: ASAN_TESTS=tests/regression/t-gres.sh
ASAN_BUILDDIR = $(abs_top_builddir)/asan
ASAN_REPORTS = $(ASAN_BUILDDIR)/reports
ASAN_CC_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -g -O1
ASAN_LD_FLAGS = -fsanitize=address,undefined
ASAN_TESTS = tests/asan/t-asan-runtime.sh $(CLUSTER_TESTS)
# errors abort (a daemon's report is written before it dies); leak reports do
# not change a process's exit status; umad2sim comes before the runtime
# (linked) in `cluster fabric run`; tests/asan/asan.supp: not fabsched's;
# report files named PREFIX.PROGRAM.PID (log_exe_name), so that two
# programs of one PID (reused in a long run) do not meet
ASAN_COMMON = verify_asan_link_order=0:abort_on_error=1:exitcode=0:log_exe_name=1:suppressions=$(abs_top_srcdir)/tests/asan/asan.supp
UBSAN_COMMON = print_stacktrace=1:halt_on_error=0:log_exe_name=1

asan-build:
	@set -e; if [ ! -f '$(ASAN_BUILDDIR)/Makefile' ]; then \
	  mkdir -p '$(ASAN_BUILDDIR)'; \
	  eval "set -- $$(cd '$(abs_top_builddir)' && ./config.status --config)"; \
	  cd '$(ASAN_BUILDDIR)' && '$(abs_top_srcdir)/configure' "$$@" \
	    CFLAGS='$(ASAN_CC_FLAGS)' LDFLAGS='$(ASAN_LD_FLAGS)' \
	    CPPFLAGS='-DFABSCHED_SANITIZER_LOG=\"$(ASAN_REPORTS)\"' \
	    >'$(ASAN_BUILDDIR)/configure.out' || { tail -n 20 '$(ASAN_BUILDDIR)/configure.out'; exit 1; }; \
	fi
	$(MAKE) -C '$(ASAN_BUILDDIR)' all
	$(MAKE) -C '$(ASAN_BUILDDIR)' check TESTS=

# Slurm's commands the harness and the tests run: wrappers that start the
# release's command through its dynamic loader with the runtime preloaded
# (ld.so --preload: no LD_PRELOAD in the environment, which srun and sbatch
# would hand on to the job's tasks), each run with report files of its own
# name: with PREFIX.PID alone, a file left by another user's process of the
# same PID earlier in the run cannot be opened (the reports directory is
# sticky), and the sanitizer aborts the command.
ASAN_SLURM_COMMANDS = sacct sacctmgr salloc sattach sbatch sbcast scancel \
	scontrol scrontab scrun sdiag sinfo sprio squeue sreport srun sshare \
	sstat strigger

check-asan: asan-build
	@asan=`$(CC) -print-file-name=libasan.so`; \
	case $$asan in /*) ;; *) echo "check-asan: $(CC) has no libasan.so" >&2; exit 1 ;; esac; \
	asan=`readlink -f "$$asan"`; R='$(ASAN_REPORTS)'; W='$(ASAN_BUILDDIR)/slurm-bin'; \
	P="$${FABSCHED_CLUSTER_SLURM_PREFIX:-$(SLURM_PREFIX)}"; \
	rm -rf "$$R" "$$W" && mkdir -p "$$R" "$$W" && chmod 1777 "$$R" || exit 1; \
	for c in $(ASAN_SLURM_COMMANDS); do \
	  [ -x "$$P/bin/$$c" ] || continue; \
	  ld=`readelf -l "$$P/bin/$$c" | sed -n 's/.*program interpreter: \(.*\)]/\1/p'`; \
	  printf '#!/bin/sh\nASAN_OPTIONS="log_path=%s/%s-$$(date +%%s%%N):%s"\nUBSAN_OPTIONS="log_path=%s/ubsan-%s-$$(date +%%s%%N):%s"\nexport ASAN_OPTIONS UBSAN_OPTIONS\nexec %s --preload %s %s "$$@"\n' \
	    "$$R" "$$c" '$(ASAN_COMMON)' "$$R" "$$c" '$(UBSAN_COMMON)' "$$ld" "$$asan" "$$P/bin/$$c" > "$$W/$$c"; \
	  chmod 0755 "$$W/$$c"; \
	done; \
	echo "check-asan: runtime $$asan, reports in $$R, Slurm's commands through $$W"; \
	ASAN_OPTIONS="log_path=$$R/proc:$(ASAN_COMMON)"; \
	UBSAN_OPTIONS="log_path=$$R/ubsan-proc:$(UBSAN_COMMON)"; \
	FABSCHED_CLUSTER_DAEMON_ENV="LD_PRELOAD=$$asan ASAN_OPTIONS=log_path=$$R/daemon:detect_leaks=0:$(ASAN_COMMON) UBSAN_OPTIONS=log_path=$$R/ubsan-daemon:$(UBSAN_COMMON)"; \
	FABSCHED_CLUSTER_CLIENT_BIN=$$W; PATH=$$W:$$PATH; FABSCHED_ASAN_RUNTIME=$$asan; \
	export ASAN_OPTIONS UBSAN_OPTIONS FABSCHED_CLUSTER_DAEMON_ENV FABSCHED_CLUSTER_CLIENT_BIN PATH FABSCHED_ASAN_RUNTIME; \
	$(MAKE) -C '$(ASAN_BUILDDIR)' check TESTS='$(ASAN_TESTS)'; rc=$$?; \
	$(SHELL) '$(abs_top_srcdir)/tests/asan/asan-reports.sh' "$$R" \
	  '$(abs_top_srcdir)' "`cd '$(abs_top_srcdir)' && pwd -P`" || rc=1; \
	exit $$rc

.PHONY: asan-build check-asan
EXTRA_DIST += tests/asan
