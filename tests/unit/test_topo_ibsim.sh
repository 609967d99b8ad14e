#!/bin/sh
# test_topo_ibsim.sh — live discovery through libibnetdisc on ibsim fabrics,
# compared with the fabric that was generated (tests/bench/gen_fattree);
# and fabsched topo watch when an HCA's NodeDescription claims another
# node's name, with escape bytes (sinfo and scontrol replaced by scripts).
# TAP.  Needs ibsim-utils; each case runs its own ibsim on a private socket
# name (IBSIM_SOCKNAME) and the trap stops it even when a step fails.
set -u
B=${FABSCHED_BUILDDIR:-.}
FS=$B/cli/fabsched
GEN=$B/tests/bench/gen_fattree
NTESTS=13

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
	for _ in 1 2 3 4 5; do
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
"$FS" topo diff --model "$W/live2.json" -a "$W/exp2.conf" >"$W/diff2" 2>&1; ok $? "2-level: nodes grouped by leaf as generated"
"$FS" topo check --model "$W/live2.json" >"$W/check2" 2>&1
grep -q 'switches: 48 (leaves 32, non-compute leaves 0, spines 16' "$W/check2" &&
	grep -q 'nodes: 512' "$W/check2" && grep -q 'degraded: 1$' "$W/check2" &&
	grep -q 'missing-link .*r0-leaf31 has 15 uplink' "$W/check2"
ok $? "2-level: 48 switches, 512 nodes, the degraded link and the missing cable reported"
"$FS" topo export --model "$W/live2.json" >"$W/a.conf" && "$FS" topo export --load-cache "$W/live2.cache" >"$W/b.conf" &&
	sed 1d "$W/a.conf" >"$W/a2" && sed 1d "$W/b.conf" >"$W/b2" && cmp -s "$W/a2" "$W/b2"
ok $? "2-level: cache file (ibnd_load_fabric) gives the same tree"

# 5-6: rail 1 discovered from a rail-1 switch (SIM_HOST): the other plane
SIM_HOST=$(awk '/^Switch/ && /r1-leaf0"/ {gsub(/"/, "", $3); print $3; exit}' "$W/net2")
export SIM_HOST
discover "$W/live2r1.json"; ok $? "2-level rail 1: live discovery from $SIM_HOST"
"$FS" topo check --model "$W/live2r1.json" >"$W/check2r1" 2>&1
grep -q 'nodes: 512' "$W/check2r1" && grep -q 'degraded: 0$' "$W/check2r1" &&
	grep -q 'switches: 48 ' "$W/check2r1"
ok $? "2-level rail 1: 512 nodes, no degraded link"
unset SIM_HOST

# 7-9: 3-level fat tree, 512 hosts (64 leaves, 64 level-1, 64 cores)
"$GEN" -l 3 -H 512 -k 16 -f net -e "$W/exp3.conf" -o "$W/net3" 2>/dev/null
start_ibsim "$W/net3"
discover "$W/live3.json"; ok $? "3-level 512 hosts: live discovery"
"$FS" topo diff --model "$W/live3.json" -a "$W/exp3.conf" >"$W/diff3" 2>&1; ok $? "3-level: nodes grouped by leaf as generated"
"$FS" topo check --model "$W/live3.json" >"$W/check3" 2>&1
grep -q 'switches: 192 (leaves 64, non-compute leaves 0, spines 128, isolated 0), levels 3' "$W/check3" &&
	grep -q 'pods: 8; racks: 64' "$W/check3"
ok $? "3-level: 3 levels, 8 pods, 64 racks"

# 10: director chassis (gen_fattree -c 4: 8 chassis of 4 ASICs sharing a
# system image GUID) through libibnetdisc, its cache read back
"$GEN" -l 3 -H 64 -k 8 -c 4 -f net -o "$W/net5" 2>/dev/null
start_ibsim "$W/net5"
discover "$W/live5.json" --save-cache "$W/live5.cache" &&
	"$FS" topo check --load-cache "$W/live5.cache" >"$W/check5" 2>&1 &&
	grep -q 'director chassis: 8$' "$W/check5" &&
	grep -q 'issues: 0 problem(s), 0 warning(s), 0 note(s)' "$W/check5"
ok $? "director chassis over ibsim: 8 counted, every ASIC named, no warning"

# 11-13: the watch through the local port of n00001's HCA (SIM_HOST);
# then a new HCA on leaf1 whose NodeDescription is "n00003 mlx5_0" and
# an escape sequence, its link at 1x (DrainOnDegradedLink=yes)
"$GEN" -l 2 -H 4 -k 4 -f net -o "$W/net4" 2>/dev/null
ESC=$(printf '\033')
awk -v esc="$ESC" '
/^Switch 4 "S-0002c90300001001"/ { sub(/Switch 4/, "Switch 5"); leaf1 = 1 }
leaf1 && /^$/ { print "[5] \"H-0002c904000000ff\"[1] # \"n00003\" lid 0 1xHDR"; leaf1 = 0 }
{ print }
END {
	print "\nHca 1 \"H-0002c904000000ff\" # \"n00003 mlx5_0" esc "[2J\""
	print "[1] \"S-0002c90300001001\"[5] # \"r0-leaf1\" lid 0 1xHDR"
}' "$W/net4" > "$W/net4s"
mkdir "$W/bin"
printf '#!/bin/sh\nfor i in 1 2 3 4; do printf "%%-65s%%-32s%%-512s%%-96s\\n" n0000$i idle "(null)" none; done\n' \
	> "$W/bin/sinfo"
printf '#!/bin/sh\nprintf "%%s\\n" "$*" >> "%s"\n' "$W/scontrol.log" > "$W/bin/scontrol"
chmod +x "$W/bin/sinfo" "$W/bin/scontrol"
printf 'FabricModel=%s\nDrainOnDegradedLink=yes\n' "$W/w.json" > "$W/fabsched.conf"
watch() {	# one cycle, its log in $W/watch.log
	SIM_HOST=H-0002c90400000000 PATH=$W/bin:$PATH timeout 120 ibsim-run "$FS" topo watch --once \
		--conf "$W/fabsched.conf" --all-hosts "$@" >"$W/watch.log" 2>&1
}
start_ibsim "$W/net4"
watch --no-drain
grep -q '4 HCA(s) seen for the first time bound to their nodes by GUID' "$W/watch.log" &&
	[ "$(grep -c '^0x' "$W/w.json.bindings")" = 4 ]
ok $? "watch over ibsim: the 4 HCAs bound by GUID"
start_ibsim "$W/net4s"
watch
grep -q 'n00003: HCA 0x[0-9a-f]* ("n00003 mlx5_0\\x1b\[2J") on plane0 claims n00003, which is bound to HCA 0x[0-9a-f]*: n00003 held' "$W/watch.log"
ok $? "an HCA describing itself as n00003: reported (escaped), n00003 held"
[ -s "$W/scontrol.log" ] && ! grep -q 'n00003' "$W/scontrol.log" && ! grep -q "$ESC" "$W/watch.log"
ok $? "n00003 neither drained (its degraded link) nor given features; no escape byte logged"
stop_ibsim
