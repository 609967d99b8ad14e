#!/bin/bash
# The test command: build everything (installing what is needed), run the
# unit and fuzz-smoke tests (`make check`), the cluster and regression tests
# (`make check-cluster`: real Slurm daemons, needs root) on Debian 12's Slurm
# 22.05, then the same cluster suite on each Slurm release built from source
# (the newest, 26.05.3, first, then 24.11.5 and 25.11.7; each built once and cached:
# scripts/slurm-build.sh), and `make distcheck`, and print one line:
# "N passed, N failed, N skipped".  The source-built releases' Slurm and
# fabsched builds and distcheck run in the background at the lowest
# priority, one after the other, while the suites run; so do the unit and
# fuzz-smoke tests, once the 22.05 suite is done (with --no-cluster: in the
# foreground), their output at the end.  Every build here is
# configured --enable-werror: a compiler warning fails the check.  On the
# source-built releases other than the newest, the cluster suite leaves out
# the tests of CLUSTER_TESTS_TWO_RELEASES (tests/cluster.mk says why); --full
# runs them there too.
#
# Usage: scripts/check.sh [--no-cluster] [--no-distcheck] [--full]
#                         [--releases "24.11.5 25.11.7 26.05.3" | --slurm R ...]
#   --releases LIST   the source-built releases to run the cluster suite on
#                     ("" for none); default $FABSCHED_SLURM_RELEASES or all
#   --slurm R         that release (repeatable): --slurm 26.05.3
# Environment: FABSCHED_BUILD (build directory, default ./build; release R's
# build goes to $FABSCHED_BUILD-slurm-MAJOR.MINOR of R).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=${FABSCHED_BUILD:-$top/build}
export FABSCHED_BUILD="$build"
run_cluster=yes
run_distcheck=yes
full=no
releases=${FABSCHED_SLURM_RELEASES-24.11.5 25.11.7 26.05.3}
while [ $# -gt 0 ]; do
	case $1 in
	--no-cluster) run_cluster=no ;;
	--no-distcheck) run_distcheck=no ;;
	--full) full=yes ;;
	--releases)
		[ $# -ge 2 ] || { echo "check: --releases needs a list, e.g. --releases \"25.11.7 26.05.3\" (\"\" for none)" >&2; exit 2; }
		releases=$2
		shift ;;
	--slurm)	# one release; repeatable
		[ $# -ge 2 ] || { echo "check: --slurm needs a release, e.g. --slurm 26.05.3" >&2; exit 2; }
		[ -n "${slurm_given:-}" ] || releases=
		slurm_given=yes
		releases="$releases $2"
		shift ;;
	*) echo "check: unknown argument '$1'; accepted: --no-cluster --no-distcheck --full --releases LIST --slurm RELEASE" >&2; exit 2 ;;
	esac
	shift
done
# the build directory of each release, and every build directory
rbuild() { echo "$build-slurm-${1%.*}"; }
builds=$build
for r in $releases; do
	builds="$builds $(rbuild "$r")"
done
newest=$(for r in $releases; do echo "$r"; done | sort -V | tail -n 1)
# phase NAME T0: how long a phase took, for the end of the output
phases=
phase() { phases="$phases$(printf '%6d  %s' $(($(date +%s) - $2)) "$1")"$'\n'; }

extra_pass=0 extra_fail=0 extra_skip=0
step() {  # step NAME CMD...: one counted result for a whole command
	name=$1; shift
	echo "== $name"
	if "$@"; then
		echo "PASS: $name"; extra_pass=$((extra_pass + 1))
	else
		echo "FAIL: $name"; extra_fail=$((extra_fail + 1))
	fi
}

t0=$(date +%s)
# the packages first (scripts/build.sh installs them too), so that the
# background below can start at once
if [ "$(id -u)" -eq 0 ] && ! "$top/scripts/install-deps.sh"; then
	echo "check: the packages could not be installed"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
# In the background, one after the other at the lowest priority (nice 19),
# from before fabsched's own build, while the unit tests and the suites
# run (they mostly wait on Slurm's daemons): each source-built release's
# Slurm (built once and cached) and fabsched for it (once fabsched's own
# build, which makes the configure script, is done), then `make distcheck`
# in a build directory of its own ($build-dist).  Each release's suite
# below waits for its own builds, the summary for distcheck.  The newest
# release comes first: its suite is the longest, and the last suite waits
# for the last build.  With every Slurm build cached this is fabsched's
# builds and distcheck only.
bg=$build/background
bg_pid=
unit_pid=
# a check that ends early stops what runs in the background (make resumes
# the builds next time)
kill_tree() { local c; for c in $(pgrep -P "$1"); do kill_tree "$c"; done; kill "$1" 2>/dev/null; }
stop_background() { local p; for p in $bg_pid $unit_pid; do kill -0 "$p" 2>/dev/null && kill_tree "$p"; done; }
mkdir -p "$build"
rm -rf "$bg" && mkdir -p "$bg"
bg_releases=
[ "$run_cluster" = yes ] && bg_releases="$newest $(for r in $releases; do [ "$r" = "$newest" ] || echo "$r"; done)"
bg_distcheck=no
# distcheck in the foreground when no cluster suite gives it time to hide in
[ "$run_distcheck" = yes ] && [ "$run_cluster" = yes ] && bg_distcheck=yes
if [[ $bg_releases = *[0-9]* ]] || [ "$bg_distcheck" = yes ]; then
	(
		for r in $bg_releases; do
			date +%s >"$bg/$r.t0"
			nice -n 19 "$top/scripts/slurm-build.sh" "$r" >"$bg/$r.log" 2>&1
			rc=$?
			while [ ! -f "$bg/main.done" ]; do sleep 2; done
			if [ "$rc" -eq 0 ]; then
				mkdir -p "$(dirname "$(rbuild "$r")")"
				FABSCHED_BUILD=$(rbuild "$r") nice -n 19 "$top/scripts/build.sh" --slurm "$r" \
					--enable-werror >"$(rbuild "$r").log" 2>&1 || rc=4
			fi
			date +%s >"$bg/$r.t1"
			echo "$rc" >"$bg/$r.rc"
		done
		if [ "$bg_distcheck" = yes ]; then
			while [ ! -f "$bg/main.done" ]; do sleep 2; done
			date +%s >"$bg/distcheck.t0"
			# the build's own configure arguments (--with-slurm-source ...)
			mapfile -t args <"$build/configure.args"
			rm -rf "$build-dist" && mkdir -p "$build-dist" && cd "$build-dist" &&
				nice -n 19 "$top/configure" "${args[@]}" >distcheck.log 2>&1 &&
				nice -n 19 make -j"$(nproc)" distcheck-tarball >>distcheck.log 2>&1
			echo $? >"$bg/distcheck.rc"
			date +%s >"$bg/distcheck.t1"
		fi
	) &
	bg_pid=$!
	trap stop_background EXIT
fi
# bg_wait NAME: wait for the background's NAME (a release, distcheck); its status
bg_wait() {
	[ -n "$bg_pid" ] || return 1
	while [ ! -f "$bg/$1.rc" ] && kill -0 "$bg_pid" 2>/dev/null; do
		sleep 5
	done
	[ -f "$bg/$1.rc" ] || return 1
	return "$(cat "$bg/$1.rc")"
}
# bg_phase NAME LABEL: the background's NAME in the phases, by its own clock
bg_phase() {
	[ -f "$bg/$1.t0" ] && [ -f "$bg/$1.t1" ] || return 0
	phases="$phases$(printf '%6d  %s' $(($(cat "$bg/$1.t1") - $(cat "$bg/$1.t0"))) "$2 (in the background)")"$'\n'
}

if ! "$top/scripts/build.sh" --enable-werror; then
	echo "check: the build failed"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
touch "$bg/main.done"
phase "build (scripts/build.sh)" "$t0"

cd "$build" || exit 1
# Results (and the test files' times) are read from this run's files only
# (every release's: a test of a release may run before its suite).
for b in $builds; do
	find "$b/tests" \( -name '*.trs' -o -name '*.log' \) -delete 2>/dev/null
done
# The newest release's t-package builds and checks the packages (two
# builds of fabsched) and starts no cluster: it runs in the background
# after the unit tests, beside the suites, not in the newest's suite.
aside=
[ "$run_cluster" = yes ] && [ -n "$newest" ] && aside=tests/regression/t-package.sh

if [ "$run_cluster" = yes ]; then
	t0=$(date +%s)
	# t-placement on the emulated Ethernet fabric here and on the newest
	# release, on InfiniBand on the others
	FABSCHED_PLACEMENT_FABRIC=roce make check-cluster
	phase "cluster suite, Slurm 22.05 (Debian)" "$t0"
	# The unit and fuzz-smoke tests (no cluster, no Slurm release) in
	# the background at the lowest priority while the source-built
	# releases' suites run, each in its own build directory (not beside
	# the 22.05 suite: both would build and test in $build); the tests
	# that change the machine's hugepage pools take one lock with the
	# cluster tests that do.  Their output comes at the end.
	(
		date +%s >"$bg/unit.t0"
		nice -n 19 make -j"$(nproc)" check >"$bg/unit.log" 2>&1
		echo $? >"$bg/unit.rc"
		date +%s >"$bg/unit.t1"
		if [ -n "$aside" ] && bg_wait "$newest"; then
			date +%s >"$bg/aside.t0"
			(cd "$(rbuild "$newest")" && nice -n 19 make check-TESTS check_PROGRAMS= \
				check_LTLIBRARIES= TESTS="$aside" TEST_SUITE_LOG=aside-suite.log) \
				>"$bg/aside.log" 2>&1
			echo $? >"$bg/aside.rc"
			date +%s >"$bg/aside.t1"
		fi
	) &
	unit_pid=$!
	trap stop_background EXIT
else
	t0=$(date +%s)
	make -j"$(nproc)" check
	phase "unit and fuzz-smoke tests" "$t0"
	echo "check: cluster tests not run (--no-cluster)"
fi
if [ "$run_distcheck" = yes ] && [ "$bg_distcheck" = no ]; then
	t0=$(date +%s)
	# distcheck without the lint of the source files (ran above)
	step "make distcheck" sh -c 'make -j"$(nproc)" distcheck-tarball >distcheck.log 2>&1 || { tail -n 40 distcheck.log; exit 1; }'
	phase "make distcheck" "$t0"
fi

# The cluster suite again on each source-built release (unit tests do not
# depend on the release: they ran once above).
slurm_release() {
	local t0 rc
	t0=$(date +%s)
	bg_wait "$1"
	rc=$?
	case $rc in
	0) echo "check: Slurm $1 and fabsched for it ready (waited $(($(date +%s) - t0)) s)" ;;
	4) tail -n 40 "$(rbuild "$1").log" ;;	# fabsched's build for it
	*) tail -n 40 "$bg/$1.log" ;;
	esac
	return "$rc"
}
if [ "$run_cluster" = yes ]; then
	for r in $bg_releases; do
		rb=$(rbuild "$r")
		t0=$(date +%s)
		mkdir -p "$(dirname "$rb")"
		echo "== Slurm $r: Slurm (cached) and fabsched for it, built in the background"
		slurm_release "$r"
		case $? in
		0) echo "PASS: Slurm $r: build"; extra_pass=$((extra_pass + 1))
		   phase "Slurm $r: waiting for its builds" "$t0"
		   bg_phase "$r" "Slurm $r and fabsched for it: build"
		   t1=$(date +%s)
		   suite=check-cluster
		   if [ "$full" = no ] && [ "$r" != "$newest" ]; then
			suite=check-cluster-core
			for t in $(sed -n 's/^CLUSTER_TESTS_TWO_RELEASES = //p' "$rb/Makefile"); do
				echo "SKIP: Slurm $r: $(basename "$t" .sh) runs on 22.05 and $newest only (the check's time; --full runs it on every release)"
				extra_skip=$((extra_skip + 1))
			done
		   fi
		   pf=ib asidev=
		   [ "$r" = "$newest" ] && pf=roce asidev=$aside
		   (cd "$rb" && FABSCHED_PLACEMENT_FABRIC=$pf make "$suite" CLUSTER_TESTS_ASIDE="$asidev")
		   phase "cluster suite, Slurm $r ($suite)" "$t1"
		   echo "check: the cluster suite on Slurm $r ($suite) took $(($(date +%s) - t1)) s" ;;
		3) echo "SKIP: Slurm $r: its source is not on this machine (see above): the cluster suite did not run on it"
		   extra_skip=$((extra_skip + 1)) ;;
		*) echo "FAIL: Slurm $r: build"; extra_fail=$((extra_fail + 1)) ;;
		esac
	done
	cd "$build" || exit 1
fi
if [ -n "$unit_pid" ]; then
	t0=$(date +%s)
	wait "$unit_pid"
	echo "== unit and fuzz-smoke tests (make check, run in the background)"
	cat "$bg/unit.log"
	# a make that failed before its tests ran leaves no result to count
	if [ "$(cat "$bg/unit.rc" 2>/dev/null)" != 0 ] &&
	   ! grep -Eqs '^:test-result: (FAIL|ERROR|XPASS)' "$build"/tests/*/*.trs; then
		echo "FAIL: make check (its output above)"
		extra_fail=$((extra_fail + 1))
	fi
	if [ -f "$bg/aside.rc" ]; then
		echo "== Slurm $newest: $aside (run in the background)"
		cat "$bg/aside.log"
		if [ "$(cat "$bg/aside.rc")" != 0 ] &&
		   ! grep -Eqs '^:test-result: (FAIL|ERROR|XPASS)' "$(rbuild "$newest")"/tests/regression/*.trs; then
			echo "FAIL: Slurm $newest: $aside (its output above)"
			extra_fail=$((extra_fail + 1))
		fi
	elif [ -n "$aside" ] && [ -f "$bg/$newest.rc" ] && [ "$(cat "$bg/$newest.rc")" = 0 ]; then
		echo "FAIL: Slurm $newest: $aside did not run"
		extra_fail=$((extra_fail + 1))
	fi
	phase "unit and fuzz-smoke tests: waiting for them" "$t0"
	bg_phase unit "unit and fuzz-smoke tests"
	bg_phase aside "Slurm $newest: $aside"
	cd "$build" || exit 1
fi
distcheck_done() {	# the background's distcheck: its status, its log's end on failure
	bg_wait distcheck && return 0
	tail -n 40 "$build-dist/distcheck.log" 2>/dev/null
	return 1
}
if [ "$bg_distcheck" = yes ]; then
	t0=$(date +%s)
	step "make distcheck" distcheck_done
	phase "make distcheck: waiting for it" "$t0"
	bg_phase distcheck "make distcheck"
fi

# Print the failing tests' logs, then the one summary line.
for t in $(for b in $builds; do find "$b/tests" -name '*.trs'; done 2>/dev/null | sort); do
	if grep -Eq '^:test-result: (FAIL|ERROR|XPASS)' "$t"; then
		echo "---- ${t%.trs}.log"
		cat "${t%.trs}.log"
	fi
done
# Each cluster test file's time on each release, longest first (the
# elapsed line tests/cluster/lib.sh's tap_done writes), and the total.
echo "---- cluster test files by time (s)"
for b in $builds; do
	for l in "$b"/tests/regression/*.log "$b"/tests/cluster/*.log; do
		[ -f "$l" ] || continue
		s=$(sed -n 's/^# elapsed: \([0-9]*\) s$/\1/p' "$l" | tail -n 1)
		[ -n "$s" ] && echo "$s $(basename "$b") $(basename "${l%.log}")"
	done
done 2>/dev/null | sort -rn | awk '{ printf "%6d  %-20s %s\n", $1, $2, $3; t += $1 } END { printf "%6d  total\n", t }'
echo "---- the check's phases by time (s)"
printf '%s' "$phases"
count() {
	for b in $builds; do find "$b/tests" -name '*.trs' -exec cat {} +; done 2>/dev/null |
		grep -Ec "^:test-result: ($1)"
}
passed=$(( $(count 'PASS|XFAIL') + extra_pass ))
failed=$(( $(count 'FAIL|ERROR|XPASS') + extra_fail ))
skipped=$(( $(count 'SKIP') + extra_skip ))
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
