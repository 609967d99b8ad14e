#!/bin/bash
# t-ethernet.sh - an Ethernet leaf-spine fabric's model from LLDP, and Slurm
# using it.  The harness's emulated fabric (tests/cluster/ethernet.sh: a
# network namespace per switch and node, veth cables, Linux bridges, lldpd
# in every namespace) for 16 nodes: 4 leaves of 4 hosts under 2 spines.
#   - every lldpd's neighbours are recorded (what fabsched-lldp-record
#     writes on a node) and `fabsched topo discover --lldp` builds the model:
#     6 switches on 2 levels, the racks as cabled, 10GbE links (the veths);
#     from the nodes' records alone the same racks under a virtual root;
#   - the switches' LLDP-MIB, walked through snmpd (lldpd its AgentX
#     subagent) as for a switch that speaks SNMP only, gives the same model;
#   - a node's record not rewritten for 2 hours is stale under
#     --lldp-max-age 30:00: its node leaves its rack, a warning says why;
#   - a cable unplugged (ip link set down) takes the node out of the model,
#     plugged again brings it back; a recabled node is seen in its new rack;
#   - slurmctld with topology/fabric on that model: `scontrol show
#     topology` has the leaves and spines LLDP found, tasks see
#     SLURM_TOPOLOGY_ADDR spine.leaf.node, a --switches=1 job of a rack's
#     size runs in one rack;
#   - fabsched topo watch --lldp drains the node whose cable is pulled out
#     and resumes it when it is back, and reports a recabled node in one
#     line, with its new rack as its feature.
# The fabric has a state directory of its own (<cluster dir>.eth), so that
# its model exists before slurmctld starts.  Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"

cl_require
cl_require_build cli/fabsched
cl_require_cmd lldpd lldpd lldpcli
FABSCHED=$FABSCHED_BUILDDIR/cli/fabsched
tap_plan 25

SPEC="roce:leaves=4,hosts=4,spines=2"
SNMP=0	# the switches also speak SNMP (snmpd, lldpd its AgentX subagent)
command -v snmpd >/dev/null && command -v snmpwalk >/dev/null && SNMP=1 SPEC+=",snmp=1"
CL_DIR=${FABSCHED_CLUSTER_DIR:-/var/lib/fabsched-cluster}
ETH=(--dir "$CL_DIR.eth" --nodes 16)
WORK=$CL_DIR.ethernet
REC=$WORK/lldp
MODEL=$WORK/fabric.json
unset FABSCHED_CONF
rm -rf "$WORK"
mkdir -p "$WORK"
chmod 755 "$WORK"
cl_stage_topology "$WORK/plugins"
printf 'FabricModel=%s\n' "$MODEL" > "$WORK/fabsched.conf"

leaf_of() {	# leaf_of nNNN: its leaf as cabled (4 hosts a leaf)
	local i=$((10#${1#n}))
	printf 'leaf%02d' $(((i - 1) / 4 + 1))
}
records() { rm -rf "$REC" && "$CL" "${ETH[@]}" fabric records "$REC" >/dev/null; }
discover() {	# the model from the records, into MODEL
	"$FABSCHED" topo discover --lldp "$REC/nodes" --lldp-switches "$REC/switches" \
		-n "n[001-016]" -o "$MODEL" 2>"$WORK/discover.err"
}
tree() { "$FABSCHED" topo export --model "$MODEL" 2>&1 | grep -v '^#'; }

# 1-2: the fabric and its records
cl_at_exit "$CL" "${ETH[@]}" fabric stop
out=$("$CL" "${ETH[@]}" --fabric "$SPEC" fabric start 2>&1)
tap_ok $? "emulated Ethernet fabric up: $SPEC, lldpd in 22 namespaces$([ "$SNMP" = 1 ] && echo ", snmpd in the 6 switches'")" || {
	tap_diag "$out"
	tap_bail "no Ethernet fabric"
}
tap_diag "$out"
records
tap_is "$(ls "$REC/nodes" | wc -l) $(ls "$REC/switches" | wc -l)" "16 6" \
	"records: 16 nodes' and 6 switches' (lldpcli -f json0 show neighbors details)"

# 3-5: the model
discover
tap_ok $? "fabsched topo discover --lldp --lldp-switches wrote the model" ||
	tap_diag "$(cat "$WORK/discover.err")"
chk=$("$FABSCHED" topo check --model "$MODEL" 2>&1)
tap_diag "$chk"
tap_ok "grep -q 'switches: 6 (leaves 4, non-compute leaves 0, spines 2, isolated 0), levels 2' <<<\"\$chk\" &&
	grep -q 'nodes: 16' <<<\"\$chk\" && grep -q 'racks: 4' <<<\"\$chk\" &&
	grep -q 'links: 24; degraded: 0' <<<\"\$chk\" && grep -q 'issues: 0 problem' <<<\"\$chk\"" \
	"topo check: 4 leaves and 2 spines on 2 levels, 16 nodes in 4 racks, 24 links, no problem"
want_tree=$(for l in 1 2 3 4; do
		printf 'SwitchName=leaf%02d Nodes=n[%03d-%03d] LinkSpeed=10000\n' $l $((l * 4 - 3)) $((l * 4))
	done
	for s in 1 2; do printf 'SwitchName=spine%02d Switches=leaf[01-04] LinkSpeed=10000\n' $s; done)
tap_is "$(tree)" "$want_tree" "topology.conf from LLDP: racks as cabled, spines over the leaves, 10GbE"
cp "$MODEL" "$WORK/fabric.json.good"

# 6: switches that speak SNMP only: their LLDP-MIB (snmpwalk -On) instead
# of lldpd's JSON, with the same nodes' records
if [ "$SNMP" = 1 ]; then
	"$CL" "${ETH[@]}" fabric records "$WORK/snmp" snmp >/dev/null 2>"$WORK/snmp.err" &&
		"$FABSCHED" topo discover --lldp "$REC/nodes" --lldp-switches "$WORK/snmp/switches" \
			-n "n[001-016]" -o "$WORK/snmp.json" 2>>"$WORK/snmp.err"
	rc=$?
	tap_ok "[ $rc = 0 ] && [ \$(ls \"\$WORK/snmp/switches\"/*.snmpwalk | wc -l) = 6 ] &&
		diff <(grep -v '\"source\":' \"\$MODEL\") <(grep -v '\"source\":' \"\$WORK/snmp.json\")" \
		"6 switches' LLDP-MIB walked through snmpd (lldpd its AgentX subagent): the same model as from their lldpd JSON" ||
		tap_diag "$(cat "$WORK/snmp.err"; diff "$MODEL" "$WORK/snmp.json" | head -20)"
else
	tap_skip "no snmpd or snmpwalk (packages snmpd, snmp)" "switches' LLDP-MIB through snmpd"
fi

# 7: the nodes' records alone
"$FABSCHED" topo export --lldp "$REC/nodes" -n 'n[001-016]' >"$WORK/nodes-only.conf" 2>&1
tap_is "$(grep -c '^SwitchName=leaf.* Nodes=' "$WORK/nodes-only.conf") $(grep -c '^SwitchName=fabric Switches=leaf\[01-04\]$' "$WORK/nodes-only.conf")" \
	"4 1" "nodes' records alone: the same 4 racks under a virtual root" ||
	tap_diag "$(cat "$WORK/nodes-only.conf")"
diff <(grep '^SwitchName=leaf' "$WORK/nodes-only.conf") <(grep '^SwitchName=leaf' <<<"$want_tree") >/dev/null ||
	tap_diag "$(cat "$WORK/nodes-only.conf")"

# 8: a record not rewritten (a node powered off keeps its last one)
touch -d '-2 hours' "$REC/nodes/n007.json"
"$FABSCHED" topo discover --lldp "$REC/nodes" -n 'n[001-016]' --lldp-max-age 30:00 \
	-o "$WORK/stale.json" 2>"$WORK/stale.err"
{ "$FABSCHED" topo export --model "$WORK/stale.json"; "$FABSCHED" topo check --model "$WORK/stale.json"; } \
	>"$WORK/stale.out" 2>&1
tap_ok "grep -qx 'SwitchName=leaf02 Nodes=n\[005-006,008\] LinkSpeed=10000' \"\$WORK/stale.out\" &&
	grep -q 'warning ignored-line .*/n007.json: written 72[0-9][0-9] s ago, more than the records. maximum age of 1800 s' \"\$WORK/stale.out\" &&
	grep -q 'not found in the fabric: n007' \"\$WORK/stale.out\"" \
	"n007's record 2 hours old, --lldp-max-age 30:00: n007 left out of leaf02's rack, check names the file and the node" ||
	tap_diag "$(cat "$WORK/stale.err" "$WORK/stale.out")"

# 9-10: a cable unplugged, then plugged again
rack_has() {	# rack_has NODE LEAF: in the model, NODE is in LEAF's rack
	cl_py -c 'import json, sys
m = json.load(open(sys.argv[1]))
sys.exit(0 if any(r["name"] == sys.argv[3] and sys.argv[2] in r["nodes"] for r in m["racks"]) else 1)' \
		"$MODEL" "$1" "$2" 2>/dev/null
}
in_rack() { records && discover && rack_has "$1" "$2"; }	# after a rediscovery
gone() { records && discover && ! rack_has "$1" "$2"; }
"$CL" "${ETH[@]}" fabric link n003 eth0 down >/dev/null
t0=$SECONDS
cl_poll 30 gone n003 leaf01
tap_ok "! rack_has n003 leaf01 && grep -q 'not found in the fabric: n003' <<<\"\$(cat \"\$WORK/discover.err\"; \"\$FABSCHED\" topo check --model \"\$MODEL\" 2>&1)\"" \
	"n003's cable unplugged: n003 leaves the model in $((SECONDS - t0)) s, discovery names it missing" ||
	tap_diag "$("$FABSCHED" topo check --model "$MODEL" 2>&1)"
"$CL" "${ETH[@]}" fabric link n003 eth0 up >/dev/null
t0=$SECONDS
cl_poll 30 in_rack n003 leaf01
tap_ok $? "plugged again: n003 back in leaf01's rack in $((SECONDS - t0)) s"

# 11: a node recabled to another leaf
t0=$SECONDS
"$CL" "${ETH[@]}" fabric recable n005 eth0 leaf04 swp7 >/dev/null
cl_poll 30 in_rack n005 leaf04
tap_ok $? "n005 recabled from leaf02 to leaf04 port swp7 (a free one): seen in leaf04's rack $((SECONDS - t0)) s after its cable was pulled" ||
	tap_diag "$(tree)"
"$CL" "${ETH[@]}" fabric recable n005 eth0 leaf02 swp1 >/dev/null
cl_poll 30 in_rack n005 leaf02 || tap_diag "n005 not back under leaf02: $(tree)"
cp "$WORK/fabric.json.good" "$MODEL"

# 12-: Slurm on the model LLDP gave
cl_up --nodes 16 --etc-file "fabsched.conf=$WORK/fabsched.conf"
tap_ok $? "16-node cluster up with TopologyPlugin=topology/fabric on the LLDP model" ||
	tap_bail "the cluster did not come up"
want_topo=$(for l in 1 2 3 4; do
		printf 'leaf%02d 0 10000 Nodes=n[%03d-%03d]\n' $l $((l * 4 - 3)) $((l * 4))
	done
	for s in 1 2; do printf 'spine%02d 1 10000 Switches=leaf[01-04]\n' $s; done)
got=$(cl_topo_lines)
tap_is "$(grep '^leaf' <<<"$got")" "$(grep '^leaf' <<<"$want_topo")" \
	"scontrol show topology: the 4 leaves LLDP found, with their nodes" ||
	tap_diag "$(scontrol show topology 2>&1)"
tap_is "$(grep '^spine' <<<"$got")" "$(grep '^spine' <<<"$want_topo")" \
	"scontrol show topology: 2 spines over the leaves, LinkSpeed=10000"

# 15-16: the tasks' topology address
want_addr=$(for i in $(seq 1 16); do
		n=$(printf 'n%03d' "$i"); echo "$n spine01.$(leaf_of "$n").$n"
	done)
# shellcheck disable=SC2016
got=$(cl_srun -t 2 -N16 -n16 sh -c 'echo "$SLURMD_NODENAME $SLURM_TOPOLOGY_ADDR"' 2>"$WORK/srun.err" | sort)
tap_is "$got" "$want_addr" "SLURM_TOPOLOGY_ADDR = spine.leaf.node in all 16 tasks" ||
	tap_diag "$(cat "$WORK/srun.err")"

# 16-18: --switches=1 jobs of a rack's size while n[001-002] and n005 are busy
hold=()
for w in 'n[001-002]' 'n005'; do
	hold+=("$(cl_sbatch --exclusive -w "$w" -N "$(scontrol show hostnames "$w" | wc -l)" -t 2 \
		-J hold --wrap 'sleep 30')")
done
for id in "${hold[@]}"; do cl_poll 20 cl_job_in "$id" RUNNING; done
tap_ok "[ \"\$(squeue -h -t R -n hold | wc -l)\" -eq 2 ]" "2 jobs hold n[001-002] and n005"
sw=()
for k in 1 2; do
	sw+=("$(cl_sbatch --exclusive -N4 --switches=1@10:00 -t 2 -J sw$k --wrap 'sleep 3')")
done
racks="" leaves=""
for id in "${sw[@]}"; do
	cl_wait_job "$id" 120 >/dev/null
	nodes=$(scontrol show hostnames "$(cl_job_field "$id" NodeList)" 2>/dev/null)
	racks="$racks$(for n in $nodes; do leaf_of "$n"; echo; done | sort -u | wc -l)"
	leaves="$leaves $(for n in $nodes; do leaf_of "$n"; echo; done | sort -u | head -1)"
	tap_diag "job $id ($CL_JOB_STATE): $(cl_job_field "$id" NodeList)"
done
tap_is "$racks" "11" "two --switches=1 jobs of 4 nodes: each in one rack"
tap_is "$(tr ' ' '\n' <<<"$leaves" | sort | xargs)" "leaf03 leaf04" \
	"they took the two whole free racks, leaf03 and leaf04"

# 19-22: the fabric watch on the records (each cycle after the records are
# written anew, as fabsched-lldp-record.timer does on the nodes)
watch() {	# one watch cycle; its log in $WORK/watch.log
	records && "$FABSCHED" topo watch --once --conf "$WORK/fabsched.conf" \
		--lldp "$REC/nodes" --lldp-switches "$REC/switches" >"$WORK/watch.log" 2>&1
}
node_field() { scontrol -o show node "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
reason_of() { scontrol -o show node "$1" | sed -n 's/.* Reason=\(.*\) \[[^]]*\].*/\1/p'; }
before=$(stat -c %Y.%i "$MODEL")
watch
rc=$?
tap_ok "[ $rc -eq 0 ] && [ '$(stat -c %Y.%i "$MODEL")' = '$before' ]" \
	"watch --lldp: nothing changed, the model is not rewritten" || tap_diag "$(cat "$WORK/watch.log")" \
	"$(diff <(cl_py -m json.tool "$WORK/fabric.json.good") <(cl_py -m json.tool "$MODEL") | head -n 30)"
"$CL" "${ETH[@]}" fabric link n007 eth0 down >/dev/null
t0=$SECONDS
down_seen() { watch && grep -q 'leaf02 port 3 (swp3) (n007 eth0): link down$' "$WORK/watch.log"; }
cl_poll 30 down_seen
tap_ok $? "n007's cable unplugged: the watch logs 'leaf02 port 3 (swp3) (n007 eth0): link down' in $((SECONDS - t0)) s" ||
	tap_diag "$(cat "$WORK/watch.log")"
st=$(node_field n007 State) why=$(reason_of n007)
tap_ok "grep -q DRAIN <<<'$st' && [ '$why' = 'fabsched: every rail down: eth0 port 1 (leaf02 port 3 (swp3))' ]" \
	"n007 drained: State=$st Reason=$why"
"$CL" "${ETH[@]}" fabric link n007 eth0 up >/dev/null
resumed() { watch && ! grep -q DRAIN <<<"$(node_field n007 State)"; }
cl_poll 30 resumed
tap_ok $? "plugged again: n007 resumed ($(node_field n007 State)), $(grep -o 'leaf02 port 3.*link up.*' "$WORK/watch.log")" ||
	tap_diag "$(cat "$WORK/watch.log")"

# 23-25: a node recabled to another leaf: one line, its new rack as a feature
"$CL" "${ETH[@]}" fabric recable n010 eth0 leaf04 swp7 >/dev/null
line="n010 eth0: recabled from leaf03 port 2 (swp2) to leaf04 port 7 (swp7)"
moved() { watch && grep -qF "$line" "$WORK/watch.log"; }
cl_poll 30 moved
tap_ok $? "n010 recabled: the watch says '$line'" || tap_diag "$(cat "$WORK/watch.log")"
# the other ports of leaf03 keep their numbers (swp3 is port 3 whichever
# ports have a neighbour): no other line
tap_ok "grep -q ': 1 change(s) written' '$WORK/watch.log'" \
	"and nothing else: $(grep -o '[0-9]* change(s) written' "$WORK/watch.log")" ||
	tap_diag "$(cat "$WORK/watch.log")"
tap_is "$(node_field n010 AvailableFeatures)" "rack_leaf04,pod_pod0,plane_plane0" \
	"n010's rack feature follows it to leaf04" || tap_diag "$(cat "$WORK/watch.log")"
"$CL" "${ETH[@]}" fabric recable n010 eth0 leaf03 swp2 >/dev/null

tap_done
