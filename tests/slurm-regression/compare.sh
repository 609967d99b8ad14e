#!/bin/bash
# compare.sh - Slurm's own regression tests (testsuite/expect of the Slurm
# source tree fabsched was built against) on the harness cluster, once with
# fabsched's plugins and once with stock plugins, side by side.
#
# Slow (minutes per test family), so not part of `make check-cluster` or CI.
# Run as root from anywhere, on an idle machine (it starts its own cluster):
#
#   tests/slurm-regression/compare.sh [-b BUILDDIR] [-i REGEX] [-t SECONDS]
#                                     [-o OUTDIR] [--only fabsched|stock]
#
#   -b BUILDDIR  fabsched build to take the plugins from [./build]; its Slurm
#                source tree (SLURM_SOURCE_DIR) holds the tests
#   -i REGEX     tests to run, an extended regex on the test name
#                [^test(1|17)\.[0-9]+$]
#   -t SECONDS   bound of each test [180]
#   -o OUTDIR    results [BUILDDIR/slurm-regression]
#
# The cluster is the one the cluster suite uses: 16 nodes in 4 racks of an
# ibsim fabric, 4 cores and 2000 MB each.  fabsched run: its select/topology
# plugins and fabsched.so, fabsched.conf with Locality=rack for the
# partition (LocalityWait 0:30, so that no test waits long for a rack).
# stock run: select/cons_tres + topology/tree on the topology.conf exported
# from the same fabric.  Writes OUTDIR/{fabsched,stock}.txt ("test result
# seconds") and OUTDIR/compare.txt: the counts, and every test that passed
# on stock and not with fabsched.  Each test's log is in OUTDIR/<run>/.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$top/build include='^test(1|17)\.[0-9]+$' limit=180 out='' only=''
while [ $# -gt 0 ]; do
	case $1 in
	-b) build=$(cd "$2" && pwd); shift 2 ;;
	-i) include=$2; shift 2 ;;
	-t) limit=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	*) echo "compare: unknown argument '$1'; accepted: -b BUILDDIR -i REGEX -t SECONDS -o OUTDIR --only fabsched|stock" >&2
	   exit 2 ;;
	esac
done
[ "$(id -u)" -eq 0 ] || { echo "compare: must run as root (it starts a Slurm cluster)" >&2; exit 2; }
src=$(sed -n 's/^SLURM_SOURCE_DIR = //p' "$build/Makefile" 2>/dev/null)
prefix=$(sed -n 's/^SLURM_PREFIX = //p' "$build/Makefile" 2>/dev/null)
[ -d "$src/testsuite/expect" ] || { echo "compare: $build/Makefile names no Slurm source tree with testsuite/expect (SLURM_SOURCE_DIR=$src)" >&2; exit 2; }
out=${out:-$build/slurm-regression}
mkdir -p "$out" && out=$(cd "$out" && pwd)
case $out/ in
/tmp/*) echo "compare: -o $out is under /tmp, which every node of the test cluster sees as its own: choose a directory elsewhere" >&2
	exit 2 ;;
esac
if ! command -v expect >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends expect >/dev/null ||
		{ echo "compare: expect is missing and could not be installed" >&2; exit 2; }
fi

export FABSCHED_SRCDIR=$top FABSCHED_BUILDDIR=$build
FABSCHED_SLURM_FLAVOUR=$(sed -n 's/^SLURM_FLAVOUR = //p' "$build/Makefile")
export FABSCHED_SLURM_FLAVOUR
export FABSCHED_CLUSTER_SLURM_PREFIX=${prefix:-/usr}
# shellcheck source=../cluster/lib.sh
. "$top/tests/cluster/lib.sh"
# shellcheck source=../regression/fabsched-plugins.sh
. "$top/tests/regression/fabsched-plugins.sh"
D=${FABSCHED_CLUSTER_DIR:-/var/lib/fabsched-cluster}
export FABSCHED_CLUSTER_DIR=$D FABSCHED_CLUSTER_NODES=16 FABSCHED_CLUSTER_PREFIX=n
FABRIC="leaves=4,hosts=4,spines=2"
tests=$(cd "$src/testsuite/expect" && printf '%s\n' * | grep -E "$include" | sort -t. -k1,1 -k2,2n)
[ -n "$tests" ] || { echo "compare: no test matches $include" >&2; exit 2; }
echo "compare: $(wc -w <<<"$tests") tests of $src/testsuite/expect, at most $limit s each"

# run_suite LABEL: the tests on the running cluster
run_suite() {
	local label=$1 t rc res t0
	mkdir -p "$out/$label"
	cat > "$out/testsuite.conf" <<EOF
SlurmSourceDir=$src
SlurmBuildDir=$src
SlurmInstallDir=${prefix:-/usr}
SlurmConfigDir=$D/etc
EOF
	cat > "$out/globals.local" <<EOF
set testsuite_shared_dir "$D/jobs/root"
set testsuite_cleanup_on_failure true
set testsuite_colorize false
EOF
	cl_jobdir root >/dev/null
	: > "$out/$label.txt"
	for t in $tests; do
		t0=$(date +%s)
		(cd "$src/testsuite/expect" &&
			SLURM_TESTSUITE_CONF=$out/testsuite.conf \
			SLURM_LOCAL_GLOBALS_FILE=$out/globals.local \
			timeout -k 10 "$limit" expect "$t" </dev/null >"$out/$label/$t.log" 2>&1)
		rc=$?
		case $rc in
		0) res=PASS ;; 255) res=SKIP ;; 124|137) res=TIMEOUT ;; *) res=FAIL ;;
		esac
		echo "$t $res $(($(date +%s) - t0))" | tee -a "$out/$label.txt"
		# a test that left jobs behind must not disturb the next one
		scancel -u root >/dev/null 2>&1
		for ((i = 0; i < 20; i++)); do
			[ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
			sleep 0.5
		done
	done
}

work=$out/stage
mkdir -p "$work/plugins"
chmod 755 "$work" "$work/plugins"
if [ "$only" != stock ]; then
	rm -f "$work/plugins"/*.so
	for so in "$build"/plugins/select/*/.libs/*.so "$build"/plugins/topology/*/.libs/*.so \
		  "$build"/plugins/spank/.libs/fabsched.so; do
		[ -f "$so" ] && cp "$so" "$work/plugins/"
	done
	chmod 755 "$work/plugins"/*.so
	printf 'required %s/fabsched.so\n' "$work/plugins" > "$work/plugins/plugstack.conf"
	cat > "$work/fabsched.conf" <<EOF
FabricModel=$D/etc/fabric.json
PartitionName=batch Locality=rack LocalityWait=0:30
EOF
	FABSCHED_CLUSTER_SELECT=$(fs_select_type) || { echo "compare: no placement plugin in $build" >&2; exit 2; }
	export FABSCHED_CLUSTER_SELECT FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=topology/fabric
	export FABSCHED_CLUSTER_PLUGIN_DIR=$work/plugins
	export FABSCHED_CLUSTER_PLUGSTACK=$work/plugins/plugstack.conf
	export FABSCHED_CLUSTER_ETC_FILES="fabsched.conf=$work/fabsched.conf"
	cl_up --fabric "$FABRIC" >/dev/null || { echo "compare: the fabsched cluster did not come up" >&2; exit 1; }
	"$CL" fabric run timeout 60 "$build/cli/fabsched" topo discover --live -o "$D/etc/fabric.json" >/dev/null 2>&1 &&
		"$build/cli/fabsched" topo export -j "$D/etc/fabric.json" -o "$work/topology.conf" >/dev/null 2>&1 ||
		{ echo "compare: fabric discovery failed" >&2; cl_down >/dev/null; exit 1; }
	scontrol reconfigure
	for ((i = 0; i < 60; i++)); do scontrol ping >/dev/null 2>&1 && break; sleep 0.5; done
	run_suite fabsched
	cl_down >/dev/null
	unset FABSCHED_CLUSTER_PLUGIN_DIR FABSCHED_CLUSTER_PLUGSTACK FABSCHED_CLUSTER_ETC_FILES
fi
if [ "$only" != fabsched ]; then
	if [ ! -f "$work/topology.conf" ]; then
		# the stock run alone: the topology from the simulated fabric
		cl_up --fabric "$FABRIC" >/dev/null || exit 1
		"$CL" fabric run timeout 60 "$build/cli/fabsched" topo discover --live -o "$work/fabric.json" >/dev/null 2>&1
		"$build/cli/fabsched" topo export -j "$work/fabric.json" -o "$work/topology.conf" >/dev/null 2>&1
		cl_down >/dev/null
	fi
	export FABSCHED_CLUSTER_SELECT=select/cons_tres FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=topology/tree
	export FABSCHED_CLUSTER_TOPOLOGY_CONF=$work/topology.conf
	cl_up --fabric "$FABRIC" >/dev/null || { echo "compare: the stock cluster did not come up" >&2; exit 1; }
	run_suite stock
	cl_down >/dev/null
fi

# side by side
{
	for r in fabsched stock; do
		[ -f "$out/$r.txt" ] || continue
		printf '%-9s %s\n' "$r:" "$(awk '{ n[$2]++ } END { printf "%d run, %d PASS, %d FAIL, %d SKIP, %d TIMEOUT", NR, n["PASS"], n["FAIL"], n["SKIP"], n["TIMEOUT"] }' "$out/$r.txt")"
	done
	if [ -f "$out/fabsched.txt" ] && [ -f "$out/stock.txt" ]; then
		echo "passed on stock, not with fabsched:"
		join <(sort "$out/stock.txt") <(sort "$out/fabsched.txt") |
			awk '$2 == "PASS" && $4 != "PASS" { print "  " $1 ": " $4 }'
		echo "passed with fabsched, not on stock:"
		join <(sort "$out/stock.txt") <(sort "$out/fabsched.txt") |
			awk '$2 != "PASS" && $4 == "PASS" { print "  " $1 ": stock " $2 }'
	fi
} | tee "$out/compare.txt"
