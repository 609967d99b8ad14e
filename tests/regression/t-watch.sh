#!/bin/bash
# t-watch.sh - the fabric as it changes: `fabsched topo watch` on an 8-node
# cluster over an ibsim fabric (2 leaves x 4 hosts, 1 spine) whose links the
# test unplugs and restores through ibsim's console (Unlink, ReLink, Clear,
# PerformanceSet).
# Each step runs one watch cycle (--once, as cron or the systemd unit's
# timer would) and asks Slurm and the model:
#   - no change: the model is not rewritten;
#   - a host link unplugged: one log line, the model rewritten (the old one
#     kept as .prev), that node drained with a reason naming the HCA, port
#     and switch port; a node an administrator drained stays as it was;
#   - from 24.11 (topology/fabric chooses the nodes): scontrol show
#     topology follows the new model within seconds, no reconfigure; a
#     model file that fails validation is logged and the running one kept;
#   - on every release, after the new model is swapped in, fabsched.conf's
#     partition locality still holds: a 3-node job waits while no rack has
#     3 free nodes, then runs in one rack;
#   - the link back: the node resumed, the hand-drained one still drained;
#   - a leaf switch cleared: its nodes drained and the leaf gone from the
#     model; restored: resumed;
#   - a link that trains at 1x (ibsim restarted with it degraded): logged,
#     the node drained only with DrainOnDegradedLink=yes, resumed at 4x;
#   - port error counters raised with ibsim's PerformanceSet (after one
#     OpenSM sweep gave the ports LIDs): logged, the node drained only with
#     DrainOnDegradedLink=yes, resumed after a cycle within the limits;
#   - a dual-rail fabric with a leaf of storage servers: the rails merged
#     into one model, that leaf reported and not a rack, and FabricComputeHca
#     (--compute-hca) choosing the rail that makes racks;
#   - the watch as a daemon, a cycle a second for about 16 s: its memory
#     does not grow with the cycles (each runs in a child; rdma-core before
#     49.1 loses memory at every discovery), a link unplugged meanwhile is
#     logged, SIGTERM ends it with status 0.
# Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"
# shellcheck source=fabsched-plugins.sh
. "$SRC/tests/regression/fabsched-plugins.sh"

cl_require
cl_require_build cli/fabsched
cl_require_cmd ibsim-utils ibsim
FABSCHED=$FABSCHED_BUILDDIR/cli/fabsched
tap_plan 40

FABRIC="leaves=2,hosts=4,spines=1"
CL_DIR=${FABSCHED_CLUSTER_DIR:-/var/lib/fabsched-cluster}
WORK=$CL_DIR.watch
MODEL=$WORK/fabric.json
unset FABSCHED_CONF
rm -rf "$WORK"
mkdir -p "$WORK"
chmod 755 "$WORK"
cl_stage_topology "$WORK/plugins"
# 22.05: fabsched's placement is its select plugin's (topology/fabric serves
# the switch table only); later releases place through topology/fabric
if [ "$(fs_flavour)" = 22.05 ]; then
	fs_stage_plugins "$WORK/plugins" && FABSCHED_CLUSTER_SELECT=$(fs_select_type) ||
		tap_bail "fabsched's select plugin is not built"
	export FABSCHED_CLUSTER_SELECT
fi
printf 'FabricModel=%s\nFabricWatchInterval=0:10\nPartitionName=batch Locality=rack LocalityWait=10:00\n' \
	"$MODEL" > "$WORK/fabsched.conf"
printf 'SlurmctldDebug=verbose\n' > "$WORK/extra.conf"
export FABSCHED_CLUSTER_EXTRA_CONF=$WORK/extra.conf
# 24.11 and later: topology/fabric places jobs and serves show topology
live=1
[ "${FABSCHED_SLURM_FLAVOUR:-22.05}" = 22.05 ] && live=0

watch() {	# one watch cycle through the simulated fabric; its log in $WORK/watch.log
	"$CL" fabric run timeout 60 "$FABSCHED" topo watch --once --conf "$WORK/fabsched.conf" \
		>"$WORK/watch.log" 2>&1
	local rc=$?
	tap_diag "$(grep -v ibwarn "$WORK/watch.log")"
	return $rc
}
node_field() { scontrol -o show node "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
reason_of() { scontrol -o show node "$1" | sed -n 's/.* Reason=\(.*\) \[[^]]*\].*/\1/p'; }
leaf_nodes() {	# leaf_nodes LEAF: its Nodes= in scontrol show topology
	scontrol show topology 2>/dev/null | sed -n "s/^SwitchName=$1 .*Nodes=\([^ ]*\).*/\1/p"
}
leaf_is() { [ "$(leaf_nodes "$1")" = "$2" ]; }	# leaf_is LEAF WANT
wait_leaf() {	# wait_leaf LEAF WANT: up to 20 s for show topology to say WANT
	cl_poll 20 leaf_is "$1" "$2"
}
ctld_logged() { grep -q "$1" "$CTLD_LOG"; }	# ctld_logged PATTERN: in slurmctld's log

# 1: the first model, before the cluster starts
cl_first_model 8 "$FABRIC" "$MODEL" "$FABSCHED" topo watch --once --no-drain --conf "$WORK/fabsched.conf"
rc=$?
printf '%s\n' "$CL_OUT" > "$WORK/watch.log"
tap_diag "$CL_OUT"
tap_ok "[ $rc -eq 0 ] && [ -s '$MODEL' ] && grep -q '8 nodes in 2 racks' '$WORK/watch.log'" \
	"watch --once wrote the first model: $(grep -o '[0-9]* switches, .*' "$WORK/watch.log")" ||
	tap_bail "no fabric model: $(cat "$WORK/watch.log")"

# 2
cl_up --nodes 8 --fabric "$FABRIC" --etc-file "fabsched.conf=$WORK/fabsched.conf"
tap_ok $? "8-node cluster up with TopologyPlugin=topology/fabric" ||
	tap_bail "the cluster did not come up"
D=$FABSCHED_CLUSTER_DIR
CTLD_LOG=$D/ctld/slurmctld.log
scontrol show topology >/dev/null 2>&1	# topology/fabric reads the model once

# 3: nothing changed: nothing written; the places published as features
# (an administrator's feature of n002 kept)
scontrol update nodename=n002 features=bigmem
before=$(stat -c %Y.%i "$MODEL")
watch
tap_ok "[ $? -eq 0 ] && [ '$(stat -c %Y.%i "$MODEL")' = '$before' ] && ! grep -q 'change(s) written' '$WORK/watch.log'" \
	"no change in the fabric: the model is not rewritten"
f2=$(node_field n002 AvailableFeatures) f5=$(node_field n005 ActiveFeatures)
tap_ok "[ '$f2' = 'bigmem,rack_leaf01,pod_pod0,plane_plane0' ] && [ '$f5' = 'rack_leaf02,pod_pod0,plane_plane0' ]" \
	"rack, pod and plane as node features (n002: $f2; n005 active: $f5)"
id=$(cl_sbatch -N 2 -t 2 --constraint=rack_leaf02 -o /dev/null --wrap true)
cl_wait_job "$id" 60
nl=$(cl_job_field "$id" NodeList)
tap_ok "[ '$CL_JOB_STATE' = COMPLETED ] && [ \"\$(scontrol show hostnames '$nl' | grep -cv '^n00[5-8]\$')\" = 0 ]" \
	"--constraint=rack_leaf02: job $id ran on $nl"
id=$(cl_sbatch -N 3 -t 2 --constraint='[rack_leaf01|rack_leaf02]' -o /dev/null --wrap true)
cl_wait_job "$id" 60
nl=$(cl_job_field "$id" NodeList)
r=$(for h in $(scontrol show hostnames "$nl"); do [ "${h#n00}" -le 4 ] && echo 1 || echo 2; done | sort -u | wc -l)
tap_ok "[ '$CL_JOB_STATE' = COMPLETED ] && [ $r = 1 ]" \
	"--constraint=\"[rack_leaf01|rack_leaf02]\" -N 3: job $id all in one rack ($nl)"

# 4-8: n003's only link and n006's unplugged; n006 was drained by hand
scontrol update nodename=n006 state=drain reason="disk check by admin"
"$CL" fabric console 'Unlink "H-n003-mlx5_0"' && "$CL" fabric console 'Unlink "H-n006-mlx5_0"'
tap_ok $? "ibsim console: n003 and n006 unplugged"
t0=$(date +%s.%N)
watch
t1=$(date +%s.%N)
tap_ok "grep -q 'leaf01 port 3 (n003 mlx5_0): link down\$' '$WORK/watch.log' && grep -q 'change(s) written (previous model in $MODEL.prev)' '$WORK/watch.log' && [ -s '$MODEL.prev' ]" \
	"the watch logged the link down in one line and rewrote the model, keeping the previous one"
st=$(node_field n003 State) why=$(reason_of n003)
tap_ok "grep -q DRAIN <<<'$st' && [ '$why' = 'fabsched: every rail down: mlx5_0 port 1 (leaf01 port 3)' ]" \
	"n003 drained in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s: State=$st Reason=$why"
tap_is "$(reason_of n006)" "disk check by admin" "n006, drained by hand, keeps its reason"
tap_ok "grep -q 'n006: every rail down.*already.*left alone' '$WORK/watch.log'" "and the watch says it left it alone"

# 9-11: the new model in Slurm without reconfigure (24.11 and later)
if [ $live = 1 ]; then
	t0=$(date +%s.%N)
	wait_leaf leaf01 'n[001-002,004]'
	rc=$?
	t1=$(date +%s.%N)
	tap_ok "[ $rc -eq 0 ]" "scontrol show topology: leaf01 without n003 after $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s, no reconfigure" ||
		tap_diag "$(scontrol show topology 2>&1)"
	grep -q "fabric model $MODEL changed: 6 nodes in 2 racks" "$CTLD_LOG"
	tap_ok $? "slurmctld logged the model it swapped in"
	cp "$MODEL" "$WORK/good.json"
	echo '{"format": "fabsched-topology", "version": 1, "devices": [' > "$MODEL.tmp" && mv "$MODEL.tmp" "$MODEL"
	sleep 6
	scontrol show topology >/dev/null 2>&1
	cl_poll 10 ctld_logged "fabric model $MODEL changed but cannot be used"
	tap_ok "grep -q 'fabric model $MODEL changed but cannot be used: .*the running one stays' '$CTLD_LOG' && [ '$(leaf_nodes leaf01)' = 'n[001-002,004]' ]" \
		"a broken model file: logged, the running one kept"
	cp "$WORK/good.json" "$MODEL.tmp" && mv "$MODEL.tmp" "$MODEL"
else
	for _ in 1 2 3; do
		tap_skip "Slurm 22.05: scontrol show topology is Slurm's own switch table, rebuilt at reconfigure (fabsched's placement domains follow the model without it)"
	done
fi

# 12-13: the partition's locality on the new model (n003 gone: leaf01 is
# n001, n002, n004; leaf02 n005, n007, n008, n006 drained by hand).  One
# node of each rack taken: no rack has 3 free nodes.
blk=$(cl_sbatch -N 2 -w n001,n005 --exclusive -t 5 -o /dev/null --wrap 'sleep 300')
cl_poll 20 cl_job_in "$blk" RUNNING
id=$(cl_sbatch -N 3 --exclusive -t 2 -o /dev/null --wrap true)
# the placement swaps the new model in (22.05: at a placement, once the
# file is seen changed); then a later placement's note (its wait time
# moves on) must still be the partition's rack wait
job_comment() { scontrol show job "$1" | sed -n 's/.*SystemComment=\(.*\)$/\1/p'; }
swapped=1
cl_poll 30 ctld_logged \
	"select.*fabric model $MODEL changed: 6 nodes in 2 racks\|topology/fabric: fabric model $MODEL changed: 6 nodes" &&
	swapped=0
c0=$(job_comment "$id") comment=$c0
noted_anew() {	# noted_anew JOBID: a new rack wait note, or no longer PENDING (sets comment)
	comment=$(job_comment "$1")
	[ "$comment" != "$c0" ] && grep -q 'Locality: waiting for one rack' <<<"$comment" && return 0
	[ "$(cl_job_field "$1" JobState)" != PENDING ]
}
cl_poll 30 noted_anew "$id"
tap_ok "[ $swapped = 0 ] && [ '$(cl_job_field "$id" JobState)' = PENDING ] && [ '$comment' != '$c0' ] &&
	grep -q 'Locality: waiting for one rack' <<<'$comment'" \
	"after the model changed, Locality=rack of fabsched.conf still holds: job $id waits ($comment)" ||
	tap_diag "$(scontrol show job "$id")" "$(grep 'fabric model' "$CTLD_LOG")"
scancel "$blk"
cl_wait_job "$id" 60
nl=$(cl_job_field "$id" NodeList)
r=$(for h in $(scontrol show hostnames "$nl"); do [ "${h#n00}" -le 4 ] && echo 1 || echo 2; done | sort -u | wc -l)
tap_ok "[ '$CL_JOB_STATE' = COMPLETED ] && [ $r = 1 ]" "a rack free again: job $id ran in one ($nl)"

# 14-16: the links back
"$CL" fabric console 'ReLink "H-n003-mlx5_0"' && "$CL" fabric console 'ReLink "H-n006-mlx5_0"'
watch
st=$(node_field n003 State)
tap_ok "grep -q 'n003: links healthy again: resumed' '$WORK/watch.log' && ! grep -q DRAIN <<<'$st'" \
	"n003's link back: resumed (State=$st)"
tap_is "$(reason_of n006)" "disk check by admin" "n006 stays drained by its administrator"
tap_ok "grep -q 'leaf01 port 3 (n003 mlx5_0): link up' '$WORK/watch.log'" "the link up logged"

# 17-20: leaf02 cleared: its nodes drained (not n006), gone from the model
"$CL" fabric console 'Clear "S-leaf02"'
watch
tap_ok "grep -q '^.*leaf02: gone\$' '$WORK/watch.log'" "leaf02 cleared: 'leaf02: gone' logged"
n=0
for h in n005 n007 n008; do
	[ "$(reason_of $h)" = "fabsched: every rail down: mlx5_0 port 1 (leaf02 port $((10#${h#n} - 4)))" ] && n=$((n + 1))
done
tap_is "$n" 3 "n005, n007 and n008 drained, each with its leaf port"
if [ $live = 1 ]; then
	wait_leaf leaf02 ''
	tap_ok "[ -z \"\$(scontrol show topology 2>/dev/null | grep '^SwitchName=leaf02')\" ]" \
		"scontrol show topology: no leaf02, no reconfigure" || tap_diag "$(scontrol show topology 2>&1)"
else
	tap_skip "Slurm 22.05: scontrol show topology follows at reconfigure"
fi
"$CL" fabric console 'ReLink "S-leaf02"'
watch
n=0
for h in n005 n007 n008; do
	node_field $h State | grep -q DRAIN || n=$((n + 1))
done
tap_is "$n" 3 "leaf02 back: its 3 nodes resumed"

# 24-27: n002's link trains at 1x (ibsim restarted with that link
# degraded): reported; the node drained only with DrainOnDegradedLink=yes
"$CL" fabric stop >/dev/null 2>&1
"$CL" --fabric "$FABRIC,degrade=leaf01:2" fabric start >/dev/null 2>&1
watch
tap_ok "grep -q 'leaf01 port 2 (n002 mlx5_0): 4xHDR -> 1xHDR\$' '$WORK/watch.log' && ! node_field n002 State | grep -q DRAIN" \
	"a link at 1x: logged, n002 stays in service (DrainOnDegradedLink=no)"
echo "DrainOnDegradedLink=yes" >> "$WORK/fabsched.conf"
watch
st=$(node_field n002 State) why=$(reason_of n002)
tap_ok "grep -q DRAIN <<<'$st' && [ '$why' = 'fabsched: degraded link: mlx5_0 port 1 (leaf01 port 2) at 1xHDR' ]" \
	"DrainOnDegradedLink=yes: n002 drained (State=$st, Reason=$why)"
"$CL" fabric stop >/dev/null 2>&1
"$CL" --fabric "$FABRIC" fabric start >/dev/null 2>&1
watch
tap_ok "grep -q 'leaf01 port 2 (n002 mlx5_0): 1xHDR -> 4xHDR\$' '$WORK/watch.log' && grep -q 'n002: links healthy again: resumed' '$WORK/watch.log'" \
	"the link back at 4x: n002 resumed"
tap_ok "! node_field n002 State | grep -q DRAIN" "n002 in service: $(node_field n002 State)"

# 28-32: port error counters (PerformanceSet) once a subnet manager gave
# the ports LIDs: reported; drained only with DrainOnDegradedLink=yes;
# resumed after a cycle within FabricErrorLimits (the default, 10 symbol
# errors and 0 link downs per cycle)
sed -i '/^DrainOnDegradedLink=/d' "$WORK/fabsched.conf"
unread=$(grep -o 'link counters: [0-9]* port(s) not read' "$WORK/watch.log")
if ! command -v opensm >/dev/null; then
	for _ in 26 27 28 29 30; do
		tap_skip "no opensm (package opensm): the simulated ports get no LIDs, which performance queries need"
	done
else
	"$CL" fabric sm >/dev/null 2>&1
	watch
	tap_ok "[ -n '$unread' ] && [ -s '$MODEL.counters' ] && ! grep -q 'not read' '$WORK/watch.log' && [ \$(grep -c '^0x' '$MODEL.counters') = 16 ]" \
		"counters of both ends of 8 links kept in $MODEL.counters once LIDs are assigned (before: '$unread')"
	"$CL" fabric console 'PerformanceSet "H-n004-mlx5_0"[1] PortCounters.SymbolErrorCounter=25' &&
		"$CL" fabric console 'PerformanceSet "S-leaf02"[3] PortCounters.LinkDownedCounter=1'
	watch
	tap_ok "grep -q 'leaf01 port 4 (n004 mlx5_0): SymbolErrorCounter +25 since the last cycle, more than 10 (counted at n004 mlx5_0 port 1)\$' '$WORK/watch.log' && grep -q 'leaf02 port 3 (n007 mlx5_0): LinkDownedCounter +1 since the last cycle, more than 0 (counted at leaf02 port 3)\$' '$WORK/watch.log'" \
		"symbol errors at n004's HCA and a link down counted at leaf02's port to n007: one line each"
	tap_ok "! node_field n004 State | grep -q DRAIN && ! node_field n007 State | grep -q DRAIN" \
		"DrainOnDegradedLink=no: n004 and n007 stay in service"
	echo "DrainOnDegradedLink=yes" >> "$WORK/fabsched.conf"
	"$CL" fabric console 'PerformanceSet "H-n004-mlx5_0"[1] PortCounters.SymbolErrorCounter=60'
	watch
	st=$(node_field n004 State) why=$(reason_of n004)
	tap_ok "grep -q DRAIN <<<'$st' && [ '$why' = 'fabsched: link errors: mlx5_0 port 1 (leaf01 port 4) SymbolErrorCounter +35' ] && ! node_field n007 State | grep -q DRAIN" \
		"DrainOnDegradedLink=yes: n004 drained (State=$st, Reason=$why), n007 (no new link down) not"
	"$CL" fabric console 'PerformanceSet "H-n004-mlx5_0"[1] PortCounters.SymbolErrorCounter=65'
	watch
	tap_ok "grep -q 'n004: links healthy again: resumed' '$WORK/watch.log' && ! grep -q 'SymbolErrorCounter +5' '$WORK/watch.log' && ! node_field n004 State | grep -q DRAIN" \
		"a cycle with 5 more symbol errors (within 10): n004 resumed ($(node_field n004 State))"
fi

# 33-34
tap_is "$(reason_of n006)" "disk check by admin" "n006 still the administrator's"
cl_down
tap_ok $? "cluster down"

# 35-37: a dual-rail fabric (each node an HCA on each of two planes) whose
# leaf01 on both rails carries storage servers only; each rail dumped by
# ibnetdiscover from a switch of its plane, one watch cycle over both dumps
rails="--leaves 3 --hosts 4 --spines 1 --rails 2 --names oss01 oss02 oss03 oss04"
"$CL" fabric start --leaves 3 --hosts 4 --spines 1 --rails 2 --names "oss01 oss02 oss03 oss04" >/dev/null 2>&1 &&
	"$CL" fabric discover >"$WORK/rail0.ibnet" 2>/dev/null &&
	"$CL" fabric run --attach S-leaf01-r1 timeout 60 ibnetdiscover >"$WORK/rail1.ibnet" 2>/dev/null
rc=$?
"$CL" fabric stop >/dev/null 2>&1
dual() {	# dual OUT [options]: one watch cycle over both rails' dumps
	local out=$1
	shift
	"$FABSCHED" topo watch --once --no-drain -i "$WORK/rail0.ibnet" -i "$WORK/rail1.ibnet" \
		-o "$out" --nodelist 'n[005-012]' "$@" >"$WORK/watch.log" 2>&1 &&
		"$FABSCHED" topo check --model "$out" --nodelist 'n[005-012]' >"$WORK/check.log" 2>&1
	tap_diag "$(cat "$WORK/watch.log" "$WORK/check.log")"
}
racks_of() { grep -o '"rack": *"[^"]*"' "$1" | sed 's/.*"\([^"]*\)"$/\1/' | sort -u | tr '\n' ' '; }
dual "$WORK/dual.json"
tap_ok "[ $rc -eq 0 ] && grep -q 'dual.json: 8 switches, 8 nodes in 2 racks' '$WORK/watch.log' && grep -q 'HCAs: 24 (compute 16, not compute 8); nodes: 8' '$WORK/check.log' && grep -q 'planes: 2' '$WORK/check.log'" \
	"$rails: both rails merged into one model (8 nodes, 16 compute HCAs, 2 planes)"
r=$(racks_of "$WORK/dual.json")
tap_ok "[ '$r' = 'leaf02-r0 leaf03-r0 ' ] && grep -q 'non-compute leaves 2' '$WORK/check.log' && grep -q 'oss01 mlx5_0.*not a compute node.*on leaf01-r0' '$WORK/check.log'" \
	"the storage-only leaf is reported, not a rack: racks $r"
dual "$WORK/dual1.json" --compute-hca mlx5_1
r=$(racks_of "$WORK/dual1.json")
tap_is "$r" "leaf02-r1 leaf03-r1 " "--compute-hca mlx5_1: rail 1's leaves make the racks"

# 38-40: the watch as a daemon through the simulated fabric, a cycle a second
rss_kib() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
# (with LIDs from an OpenSM sweep when there is opensm: rdma-core's loss is
# per switch port with a LID)
"$CL" --nodes 8 --fabric "$FABRIC" fabric start >/dev/null 2>&1
command -v opensm >/dev/null && "$CL" fabric sm >/dev/null 2>&1
"$CL" fabric run timeout 120 "$FABSCHED" topo watch --interval 0:01 --no-drain \
	-o "$WORK/daemon.json" --nodelist 'n[001-008]' >"$WORK/daemon.log" 2>&1 &
bg=$!
wpid=""
watch_pid() {	# the watch started (sets wpid)
	local p
	for p in $(pgrep -f "topo watch --interval 0:01"); do	# the watch, not a cycle
		[ "$(ps -o comm= -p "$(ps -o ppid= -p "$p" | tr -d ' ')")" = timeout ] && wpid=$p
	done
	[ -n "$wpid" ]
}
cl_poll 20 watch_pid
sleep 5
rss1=$(rss_kib "$wpid")
sleep 10
"$CL" fabric console 'Unlink "H-n002-mlx5_0"' >/dev/null 2>&1
t_unlink=$SECONDS
cl_poll 10 grep -q 'n002 mlx5_0: gone' "$WORK/daemon.log"
seen=$((SECONDS - t_unlink))
rss2=$(rss_kib "$wpid")
cycles=$((15 + seen))
kill -TERM "$wpid" 2>/dev/null
ended() { ! kill -0 "$1" 2>/dev/null; }	# ended PID: no such process
cl_poll 10 ended "$wpid"
wait "$bg"
rc=$?
"$CL" fabric stop >/dev/null 2>&1
tap_diag "$(grep -v ibwarn "$WORK/daemon.log" | tail -5)"
tap_ok "[ -n '$wpid' ] && [ -n '$rss1' ] && [ -n '$rss2' ] && [ \$(( ${rss2:-0} - ${rss1:-0} )) -le 16 ]" \
	"the watch's memory after $cycles one-second cycles: ${rss1:-?} KiB after 5 s, ${rss2:-?} KiB after $cycles s"
tap_ok "grep -q 'n002 mlx5_0: gone' '$WORK/daemon.log'" "a link unplugged after 15 s: logged by a later cycle, $seen s later"
tap_is "$rc" 0 "SIGTERM: the watch ends, status 0"
tap_done
