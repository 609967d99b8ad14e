#!/bin/sh
# test_topo_ibsim.sh — live discovery through libibnetdisc on ibsim fabrics,
# compared with the fabric that was generated (tests/bench/gen_fattree).
# TAP.  Needs ibsim-utils; each case runs its own ibsim on a private socket
# name (IBSIM_SOCKNAME) and the trap stops it even when a step fails.
set -u
B=${FABSCHED_BUILDDIR:-.}
FS=$B/cli/fabsched
GEN=$B/tests/bench/gen_fattree
NTESTS=9

if ! command -v ibsim >/dev/null 2>&1 || ! command -v ibsim-run >/dev/null 2>&1; then
	echo "1..$NTESTS"
	i=1; while [ $i -le $NTESTS ]; do echo "ok $i # SKIP ibsim-utils not installed"; i=$((i+1)); done
	exit 0
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/fst-ibsim.XXXXXX")
IBSIM_PID=""
cleanup() {
	if [ -n "$IBSIM_PID" ]; then kill "$IBSIM_PID" 2>/dev/null; wait "$IBSIM_PID" 2>/dev/null; fi
	rm -rf "$W"
}
trap cleanup EXIT INT TERM
IBSIM_SOCKNAME="fsttopo-$$"
export IBSIM_SOCKNAME

start_ibsim() {	# net file
	stop_ibsim
	ibsim -s -n "$1" >"$W/ibsim.log" 2>&1 &
	IBSIM_PID=$!
	sleep 1
}
stop_ibsim() {
	if [ -n "$IBSIM_PID" ]; then kill "$IBSIM_PID" 2>/dev/null; wait "$IBSIM_PID" 2>/dev/null; fi
	IBSIM_PID=""
}
discover() {	# out.json [extra args]; retries while ibsim starts
	out=$1; shift
	for try in 1 2 3 4 5; do
		if timeout 120 ibsim-run "$FS" topo discover --live -o "$out" "$@" 2>"$W/disc.err"; then
			return 0
		fi
		sleep 1
	done
	cat "$W/disc.err" >&2
	return 1
}
n=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }

echo "1..$NTESTS"

# 1-4: 2-level fat tree, 512 hosts, two rails of single-port HCAs, one
# degraded uplink (1x) and one missing cable on rail 0.
"$GEN" -l 2 -H 512 -k 32 -r 2 -d -x -f net -e "$W/exp2.conf" -o "$W/net2" 2>/dev/null
start_ibsim "$W/net2"
discover "$W/live2.json" --save-cache "$W/live2.cache"; ok $? "2-level 512 hosts: live discovery (rail 0)"
"$FS" topo diff -j "$W/live2.json" -a "$W/exp2.conf" >"$W/diff2" 2>&1; ok $? "2-level: nodes grouped by leaf as generated"
"$FS" topo check -j "$W/live2.json" >"$W/check2" 2>&1
grep -q 'switches: 48 (leaves 32, non-compute leaves 0, spines 16' "$W/check2" &&
	grep -q 'nodes: 512' "$W/check2" && grep -q 'degraded: 1$' "$W/check2" &&
	grep -q 'missing-link .*r0-leaf31 has 15 uplink' "$W/check2"
ok $? "2-level: 48 switches, 512 nodes, the degraded link and the missing cable reported"
"$FS" topo export -j "$W/live2.json" >"$W/a.conf" && "$FS" topo export -C "$W/live2.cache" >"$W/b.conf" &&
	sed 1d "$W/a.conf" >"$W/a2" && sed 1d "$W/b.conf" >"$W/b2" && cmp -s "$W/a2" "$W/b2"
ok $? "2-level: cache file (ibnd_load_fabric) gives the same tree"

# 5-6: rail 1 discovered from a rail-1 switch (SIM_HOST): the other plane
SIM_HOST=$(awk '/^Switch/ && /r1-leaf0"/ {gsub(/"/, "", $3); print $3; exit}' "$W/net2")
export SIM_HOST
discover "$W/live2r1.json"; ok $? "2-level rail 1: live discovery from $SIM_HOST"
"$FS" topo check -j "$W/live2r1.json" >"$W/check2r1" 2>&1
grep -q 'nodes: 512' "$W/check2r1" && grep -q 'degraded: 0$' "$W/check2r1" &&
	grep -q 'switches: 48 ' "$W/check2r1"
ok $? "2-level rail 1: 512 nodes, no degraded link"
unset SIM_HOST

# 7-9: 3-level fat tree, 512 hosts (64 leaves, 64 level-1, 64 cores)
"$GEN" -l 3 -H 512 -k 16 -f net -e "$W/exp3.conf" -o "$W/net3" 2>/dev/null
start_ibsim "$W/net3"
discover "$W/live3.json"; ok $? "3-level 512 hosts: live discovery"
"$FS" topo diff -j "$W/live3.json" -a "$W/exp3.conf" >"$W/diff3" 2>&1; ok $? "3-level: nodes grouped by leaf as generated"
"$FS" topo check -j "$W/live3.json" >"$W/check3" 2>&1
grep -q 'switches: 192 (leaves 64, non-compute leaves 0, spines 128, isolated 0), levels 3' "$W/check3" &&
	grep -q 'pods: 8; racks: 64' "$W/check3"
ok $? "3-level: 3 levels, 8 pods, 64 racks"
stop_ibsim
