#!/bin/sh
# The test command: build everything (installing what is needed), run the
# unit and fuzz-smoke tests (`make check`), the cluster and regression tests
# (`make check-cluster`: real Slurm daemons, needs root) on Debian 12's Slurm
# 22.05, `make distcheck`, then the same cluster suite on Slurm 24.11 (built
# from source once, cached: scripts/slurm-build.sh), and print one line:
# "N passed, N failed, N skipped".
#
# Usage: scripts/check.sh [--no-cluster] [--no-distcheck] [--no-2411]
# Environment: FABSCHED_BUILD (build directory, default ./build; the 24.11
# build goes to $FABSCHED_BUILD-slurm-24.11), FABSCHED_SLURM_2411 (the 24.11
# release, default 24.11.5).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=${FABSCHED_BUILD:-$top/build}
export FABSCHED_BUILD="$build"
run_cluster=yes
run_distcheck=yes
run_2411=yes
for a in "$@"; do
	case $a in
	--no-cluster) run_cluster=no ;;
	--no-distcheck) run_distcheck=no ;;
	--no-2411) run_2411=no ;;
	*) echo "check: unknown argument '$a'; accepted: --no-cluster --no-distcheck --no-2411" >&2; exit 2 ;;
	esac
done
release_2411=${FABSCHED_SLURM_2411:-24.11.5}
build_2411=$build-slurm-24.11

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

if ! "$top/scripts/build.sh"; then
	echo "check: the build failed"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi

cd "$build" || exit 1
# Results are read from the .trs files of this run only.
find "$build/tests" -name '*.trs' -delete 2>/dev/null

make -j"$(nproc)" check
if [ "$run_cluster" = yes ]; then
	make check-cluster
else
	echo "check: cluster tests not run (--no-cluster)"
fi
if [ "$run_distcheck" = yes ]; then
	step "make distcheck" sh -c 'make -j"$(nproc)" distcheck >distcheck.log 2>&1 || { tail -n 40 distcheck.log; exit 1; }'
fi

# The cluster suite again on Slurm 24.11 (unit tests do not depend on the
# release: they ran once above).
slurm_2411() {
	local t0
	t0=$(date +%s)
	FABSCHED_BUILD=$build_2411 "$top/scripts/build.sh" --slurm "$release_2411" \
		>"$build_2411.log" 2>&1 || { tail -n 40 "$build_2411.log"; return 1; }
	echo "check: Slurm $release_2411 and fabsched for it ready in $(($(date +%s) - t0)) s"
}
if [ "$run_cluster" = yes ] && [ "$run_2411" = yes ]; then
	find "$build_2411/tests" -name '*.trs' -delete 2>/dev/null
	t0=$(date +%s)
	mkdir -p "$(dirname "$build_2411")"
	step "Slurm $release_2411: build Slurm (cached) and fabsched for it" slurm_2411
	if [ -f "$build_2411/Makefile" ]; then
		(cd "$build_2411" && make check-cluster)
		echo "check: the cluster suite on Slurm $release_2411 took $(($(date +%s) - t0)) s"
	fi
	cd "$build" || exit 1
fi

# Print the failing tests' logs, then the one summary line.
for t in $(find "$build/tests" "$build_2411/tests" -name '*.trs' 2>/dev/null | sort); do
	if grep -Eq '^:test-result: (FAIL|ERROR|XPASS)' "$t"; then
		echo "---- ${t%.trs}.log"
		cat "${t%.trs}.log"
	fi
done
count() {
	find "$build/tests" "$build_2411/tests" -name '*.trs' -exec cat {} + 2>/dev/null |
		grep -Ec "^:test-result: ($1)"
}
passed=$(( $(count 'PASS|XFAIL') + extra_pass ))
failed=$(( $(count 'FAIL|ERROR|XPASS') + extra_fail ))
skipped=$(( $(count 'SKIP') + extra_skip ))
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
