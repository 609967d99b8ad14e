#!/bin/bash
# t-topology.sh - topology/fabric in a real 16-node Slurm cluster on an ibsim
# fabric of 4 leaves x 4 hosts under 2 spines.  The fabric is discovered with
# `fabsched topo discover` into a JSON model; fabsched.conf (next to
# slurm.conf) names it.  Asks the daemons and the jobs:
#   - `scontrol show topology` lists the leaves with their nodes and the
#     spines with their link speeds;
#   - every task sees SLURM_TOPOLOGY_ADDR = spine.leaf.node;
#   - `--switches=1` jobs of a leaf's size each land on one leaf, also while
#     other jobs hold parts of the fabric;
#   - a bad model + `scontrol reconfigure`: slurmctld keeps running, logs the
#     error, has no topology, tasks see their node name only; the good model
#     back + reconfigure: the topology is back.
# Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"

cl_require
cl_require_build cli/fabsched
cl_require_cmd ibsim-utils ibsim
FABSCHED=$FABSCHED_BUILDDIR/cli/fabsched
tap_plan 22

FABRIC="leaves=4,hosts=4,spines=2"
SPEED=200000	# 4xHDR in Mb/s, fabric-gen's default link
CL_DIR=${FABSCHED_CLUSTER_DIR:-/var/lib/fabsched-cluster}
# outside the state dir (which `up` clears) and outside /tmp (nodes have their own)
WORK=$CL_DIR.topo
MODEL=$WORK/fabric.json
unset FABSCHED_CONF	# the plugin must find fabsched.conf next to slurm.conf
rm -rf "$WORK"
mkdir -p "$WORK"
chmod 755 "$WORK"
cl_stage_topology "$WORK/plugins"
printf 'FabricModel=%s\n' "$MODEL" > "$WORK/fabsched.conf"
printf 'SlurmctldDebug=verbose\nSlurmdDebug=verbose\n' > "$WORK/extra.conf"
export FABSCHED_CLUSTER_EXTRA_CONF=$WORK/extra.conf

leaf_of() {	# leaf_of nNNN: leaf of a node in this fabric (4 hosts per leaf)
	local i=$((10#${1#n}))
	printf 'leaf%02d' $(((i - 1) / 4 + 1))
}

# 1: discover the fabric through ibsim into the JSON model, before the cluster
# starts (so that slurmctld reads it at start-up)
cl_first_model 16 "$FABRIC" "$MODEL"
rc=$?
tap_diag "$CL_OUT"
tap_ok "[ $rc -eq 0 ] && [ -s '$MODEL' ]" "fabsched topo discover wrote the JSON model" ||
	tap_bail "no fabric model"
cp "$MODEL" "$WORK/fabric.json.good"
tap_diag "$("$FABSCHED" topo export --model "$MODEL" 2>&1)"

# 2: the cluster with topology/fabric and fabsched.conf next to slurm.conf
cl_up --nodes 16 --fabric "$FABRIC" --etc-file "fabsched.conf=$WORK/fabsched.conf"
tap_ok $? "16-node cluster up with TopologyPlugin=topology/fabric" ||
	tap_bail "the cluster did not come up"
D=$FABSCHED_CLUSTER_DIR
CTLD_LOG=$D/ctld/slurmctld.log
tap_is "$(scontrol show config | sed -n 's/^TopologyPlugin *= *//p')" "topology/fabric" \
	"scontrol: TopologyPlugin"

# 4-5: scontrol show topology: leaves with their nodes, spines with link speeds
want_topo=$(for l in 1 2 3 4; do
		printf 'leaf%02d 0 %s Nodes=n[%03d-%03d]\n' $l $SPEED $((l * 4 - 3)) $((l * 4))
	done
	for s in 1 2; do printf 'spine%02d 1 %s Switches=leaf[01-04]\n' $s $SPEED; done)
got=$(cl_topo_lines)
tap_is "$(grep '^leaf' <<<"$got")" "$(grep '^leaf' <<<"$want_topo")" \
	"scontrol show topology: 4 leaves with their nodes" || tap_diag "$(scontrol show topology 2>&1)"
tap_is "$(grep '^spine' <<<"$got")" "$(grep '^spine' <<<"$want_topo")" \
	"scontrol show topology: 2 spines over the leaves, LinkSpeed=$SPEED"

# 6-7: SLURM_TOPOLOGY_ADDR in every task of a 16-node job
want_addr=$(for i in $(seq 1 16); do
		n=$(printf 'n%03d' "$i"); echo "$n spine01.$(leaf_of "$n").$n switch.switch.node"
	done)
addr_of_tasks() {	# addr_of_tasks SRUN-ARGS...: "node addr pattern" per task, sorted
	# shellcheck disable=SC2016
	cl_srun -t 2 "$@" sh -c 'echo "$SLURMD_NODENAME $SLURM_TOPOLOGY_ADDR $SLURM_TOPOLOGY_ADDR_PATTERN"' \
		2>"$WORK/srun.err" | sort
	[ -s "$WORK/srun.err" ] && tap_diag "srun: $(cat "$WORK/srun.err")"
	return 0
}
got=$(addr_of_tasks -N16 -n16)
tap_is "$(awk '{ print $1, $2 }' <<<"$got")" "$(awk '{ print $1, $2 }' <<<"$want_addr")" \
	"SLURM_TOPOLOGY_ADDR = spine.leaf.node in all 16 tasks"
tap_is "$(awk '{ print $3 }' <<<"$got" | sort -u)" "switch.switch.node" \
	"SLURM_TOPOLOGY_ADDR_PATTERN = switch.switch.node"

# 8-14: --switches=1 jobs of 4 nodes while other jobs hold parts of leaves 1-3
on_one_leaf() {	# on_one_leaf JOBID: prints "nodelist -> leaves"; true for 4 nodes on one leaf
	local nl nodes leaves
	nl=$(cl_job_field "$1" NodeList)
	nodes=$(scontrol show hostnames "$nl" 2>/dev/null)
	leaves=$(for n in $nodes; do leaf_of "$n"; echo; done | sort -u | tr '\n' ' ')
	echo "$nl -> ${leaves% }"
	[ "$(wc -w <<<"$nodes")" -eq 4 ] && [ "$(wc -w <<<"$leaves")" -eq 1 ]
}
wait_running() {	# wait_running JOBID...: up to 20 s
	local id
	for id in "$@"; do
		cl_poll 20 cl_job_in "$id" RUNNING
	done
}
hold=()
for w in 'n[001-002]' 'n005' 'n[009-011]'; do
	hold+=("$(cl_sbatch --exclusive -w "$w" -N "$(scontrol show hostnames "$w" | wc -l)" -t 2 \
		-J hold --wrap 'sleep 100')")
done
wait_running "${hold[@]}"
tap_ok "[ \"\$(squeue -h -t R -n hold | wc -l)\" -eq 3 ]" \
	"3 jobs hold n[001-002], n005 and n[009-011] (leaves 1-3 partly busy)"
# the first holds leaf04 until the others run beside it (its gate opens
# then: the three run at once); the others are short
sw=()
for k in 1 2 3; do
	w="sleep 1"
	[ "$k" = 1 ] && w=$(cl_gate sw1)
	sw+=("$(cl_sbatch --exclusive -N4 --switches=1@10:00 -t 2 -J sw$k --wrap "$w")")
done
wait_running "${sw[0]}"
r=$(on_one_leaf "${sw[0]}")
tap_is "$r" "n[013-016] -> leaf04" "first --switches=1 job runs on the only free leaf"
# 6 nodes are free (n003 n004 n006-n008 n012), but on no single leaf
st=$(for id in "${sw[1]}" "${sw[2]}" "${hold[@]}"; do cl_job_field "$id" JobState; done | tr '\n' ' ')
tap_is "$st" "PENDING PENDING RUNNING RUNNING RUNNING " \
	"jobs 2 and 3 wait for a whole leaf while 6 nodes are free across leaves 1-3"
# the holders end: jobs 2 and 3 start on the leaves they free, beside job 1
scancel "${hold[@]}"
started() { local st; st=$(cl_job_field "$1" JobState); [ -n "$st" ] && [ "$st" != PENDING ]; }	# started JOBID: no longer pending
cl_poll 30 started "${sw[1]}" && cl_poll 30 started "${sw[2]}"
cl_open sw1
ok=0
for id in "${sw[@]}"; do cl_wait_job "$id" 180 && ok=$((ok + 1)); done
tap_is "$ok" 3 "3 jobs -N4 --switches=1@10:00 COMPLETED"
r=$(on_one_leaf "${sw[1]}")
tap_ok $? "second --switches=1 job on one leaf: $r"
r=$(on_one_leaf "${sw[2]}")
tap_ok $? "third --switches=1 job on one leaf: $r"
leaves=$(for id in "${sw[@]}"; do on_one_leaf "$id" | sed 's/.* -> //'; done | sort -u | wc -l)
tap_is "$leaves" 3 "the 3 concurrent --switches=1 jobs used 3 distinct leaves"

# 15-19: a bad model + reconfigure: error logged, no topology, no crash
printf '{ "format": "fabsched-topology", "version": 1, "devices": [ { oops\n' > "$MODEL"
errs_before=$(grep -c 'topology/fabric: cannot use fabric model' "$CTLD_LOG" 2>/dev/null)
scontrol reconfigure
no_topology() { [ -z "$(cl_topo_lines)" ]; }	# scontrol show topology is empty
cl_poll 20 no_topology
tap_ok "scontrol ping | grep -q 'is UP'" "bad model + reconfigure: slurmctld still up"
errs_after=$(grep -c 'topology/fabric: cannot use fabric model' "$CTLD_LOG" 2>/dev/null)
tap_ok "[ '$errs_after' -gt '$errs_before' ]" "bad model: slurmctld logged the error" ||
	tap_diag "$(tail -20 "$CTLD_LOG")"
tap_diag "$(grep 'topology/fabric: cannot use fabric model' "$CTLD_LOG" | tail -1)"
tap_is "$(cl_topo_lines)" "" "bad model: scontrol show topology is empty"
# slurmd reconfigures too: tasks then see their node name only (an srun
# per try: one a second)
addr_is() {	# addr_is WANT: a task on n006 gives WANT (sets got)
	got=$(addr_of_tasks -w n006 -N1 -n1)
	[ "$got" = "$1" ]
}
CL_POLL_INTERVAL=1 cl_poll 20 addr_is "n006 n006 node"
tap_is "$got" "n006 n006 node" "bad model: SLURM_TOPOLOGY_ADDR falls back to the node name"
tap_ok "[ \"\$(sinfo -h -N -o '%N %T' | sort -u | awk '\$2 == \"idle\"' | wc -l)\" -eq 16 ]" \
	"bad model: all 16 nodes still idle"

# 20-22: the good model back + reconfigure: the topology is back
cp "$WORK/fabric.json.good" "$MODEL"
scontrol reconfigure
topology_back() { [ "$(cl_topo_lines)" = "$want_topo" ]; }	# scontrol show topology as at first
cl_poll 20 topology_back
tap_is "$(cl_topo_lines)" "$want_topo" "model back + reconfigure: scontrol show topology is back"
CL_POLL_INTERVAL=1 cl_poll 20 addr_is "n006 spine01.leaf02.n006 switch.switch.node"
tap_is "$got" "n006 spine01.leaf02.n006 switch.switch.node" \
	"model back: SLURM_TOPOLOGY_ADDR is spine.leaf.node again"
id=$(cl_sbatch --exclusive -N4 --switches=1@10:00 -t 2 -J sw4 --wrap 'sleep 1')
cl_wait_job "$id" 120
r=$(on_one_leaf "$id")
tap_ok $? "model back: a --switches=1 job lands on one leaf again: $r"

tap_done
