#!/bin/bash
# t-rollback.sh - the way back from fabsched's placement to stock Slurm,
# and forth again, with jobs running and waiting, as doc/GUIDE.md
# ("Rolling back") tells an administrator to do it, on an 8-node ibsim
# fabric of 2 racks:
#   1. fabsched places (Locality=rack): two 3-node jobs run, one per rack;
#      a 2-node job waits for a rack; an 8-node job waits for nodes;
#   2. while fabsched is still loaded, its partitions stop waiting for
#      racks (Locality=any, scontrol reconfigure): the waiting job starts
#      and its note goes;
#   3. stock placement: topology.conf from `fabsched topo export`,
#      SelectType=select/cons_tres, TopologyPlugin=topology/tree, slurmctld
#      and every slurmd restarted (what a change of SelectType or
#      TopologyPlugin requires): no job lost or moved, the waiting 8-node
#      job starts under stock Slurm once the others end, no fabsched note
#      on any job, `scontrol show topology` is the exported tree;
#   4. back to fabsched (its SelectType/TopologyPlugin, Locality=rack),
#      restarted again: the running job runs on, a new job is placed in one
#      rack with fabsched's placement.
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
tap_plan 14

FABRIC="leaves=2,hosts=4,spines=1"
CL_DIR=${FABSCHED_CLUSTER_DIR:-/var/lib/fabsched-cluster}
WORK=$CL_DIR.rollback
MODEL=$WORK/fabric.json
rm -rf "$WORK" && mkdir -p "$WORK/plugins" && chmod 755 "$WORK" || tap_bail "cannot write $WORK"
fs_stage_plugins "$WORK/plugins" || tap_bail "no plugin found under $FABSCHED_BUILDDIR/plugins"
export FABSCHED_CLUSTER_PLUGIN_DIR=$WORK/plugins
FAB_SELECT=$(fs_select_type) || tap_bail "no placement plugin in this build"
FAB_TOPO=$(fs_placement_topology)
export FABSCHED_CLUSTER_SELECT=$FAB_SELECT FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=$FAB_TOPO
policy() { printf 'FabricModel=%s\nPartitionName=batch Locality=%s LocalityWait=INFINITE\n' "$MODEL" "$1"; }
policy rack > "$WORK/fabsched.conf"
rack_of() { [ "$((10#${1#n}))" -le 4 ] && echo leaf01 || echo leaf02; }
racks() { for h in $(scontrol show hostnames "$1"); do rack_of "$h"; done | sort -u | wc -l; }
state() { cl_job_field "$1" JobState; }
is_state() { [ "$(state "$1")" = "$2" ]; }
wait_state() { cl_poll "${3:-30}" is_state "$1" "$2"; }	# JOB STATE [SECONDS=30]
notes() { squeue -h -O jobid:10,system_comment:300 2>/dev/null | grep 'fabsched: Locality' | sed 's/ *$//'; }
has_note() { notes | grep -q "^$1 "; }	# JOB has a fabsched waiting note
runs_or_noted() { is_state "$1" RUNNING || has_note "$1"; }	# JOB runs or has a note

# switch stock|fabsched: restart with that placement
switch() {
	case $1 in
	stock) fs_restart_placement select/cons_tres topology/tree ;;
	fabsched) fs_restart_placement "$FAB_SELECT" "$FAB_TOPO" ;;
	esac
}
val() { scontrol show config | sed -n "s/^$1 *= *//p"; }

# 1: the model, then the cluster under fabsched
cl_first_model 8 "$FABRIC" "$MODEL" || tap_diag "$CL_OUT"
cl_up --nodes 8 --fabric "$FABRIC" --etc-file "fabsched.conf=$WORK/fabsched.conf"
tap_ok $? "8-node cluster up: $FAB_SELECT + $FAB_TOPO, Locality=rack" ||
	tap_bail "the cluster did not come up"
D=$FABSCHED_CLUSTER_DIR

# 2: two racks 3/4 full, a 2-node job waiting for one rack, an 8-node job
# waiting for nodes
a=$(cl_sbatch -J runA -N 3 --exclusive -t 10 -o /dev/null --wrap "sleep 600")
wait_state "$a" RUNNING
b=$(cl_sbatch -J runB -N 3 --exclusive -t 10 -o /dev/null --wrap "sleep 600")
wait_state "$b" RUNNING
na=$(cl_job_field "$a" NodeList) nb=$(cl_job_field "$b" NodeList)
c=$(cl_sbatch -J waits -N 2 --exclusive -t 10 -o /dev/null --wrap "sleep 600")
e=$(cl_sbatch -J big -N 8 --exclusive -t 10 -o /dev/null --wrap "sleep 5")
cl_poll 30 has_note "$c"
tap_ok "[ '$(state "$a")' = RUNNING ] && [ '$(state "$b")' = RUNNING ] && [ $(racks "$na") = 1 ] && [ $(racks "$nb") = 1 ] && [ '$(state "$c")' = PENDING ] && notes | grep -q '^$c '" \
	"under fabsched: job $a on $na, job $b on $nb, job $c waits for one rack ($(notes | sed -n "s/^$c *//p"))"

# 3: step 1 of the way back, fabsched still loaded: no partition waits for
# a rack any more; the waiting job starts (one free node per rack) and its
# note goes
policy any > "$D/etc/fabsched.conf"
scontrol reconfigure
wait_state "$c" RUNNING 30
nc=$(cl_job_field "$c" NodeList)
tap_ok "[ '$(state "$c")' = RUNNING ] && [ -z \"\$(notes)\" ]" \
	"Locality=any and scontrol reconfigure: job $c starts on $nc, no job keeps a fabsched waiting note"

# 4-9: step 2: stock placement, restarted
"$FABSCHED" topo export --model "$MODEL" -o "$D/etc/topology.conf" 2>"$WORK/export.err"
jobs_before=$(squeue -h -o '%i %T %N' | sort)
t0=$(date +%s)
switch stock
tap_ok $? "switched to select/cons_tres + topology/tree (topology.conf from fabsched topo export), slurmctld and 8 slurmd restarted in $(($(date +%s) - t0)) s"
tap_ok "[ '$(val SelectType)' = select/cons_tres ] && [ '$(val TopologyPlugin)' = topology/tree ] && scontrol show topology | grep -q '^SwitchName=leaf01 .*Nodes=n\[001-004\]'" \
	"slurmctld runs stock: SelectType=$(val SelectType) TopologyPlugin=$(val TopologyPlugin), scontrol show topology is the exported tree"
jobs_after=$(squeue -h -o '%i %T %N' | sort)
tap_is "$jobs_after" "$jobs_before" "no job lost or moved: the same jobs in the same states on the same nodes"
tap_diag "$jobs_after"
scancel "$a" "$b" "$c"
wait_state "$e" RUNNING 60
ok_e=$?
tap_ok "[ $ok_e -eq 0 ]" "the job that was waiting for nodes under fabsched starts under stock Slurm ($e on $(cl_job_field "$e" NodeList))"
cl_wait_job "$e" 60 >/dev/null
f=$(cl_sbatch -J stock -N 2 --exclusive -t 10 -o /dev/null --wrap "sleep 600")
wait_state "$f" RUNNING 30
tap_ok "[ '$(state "$f")' = RUNNING ] && [ $(racks "$(cl_job_field "$f" NodeList)") = 1 ]" \
	"a new job placed by stock topology/tree: $f on $(cl_job_field "$f" NodeList)"
tap_is "$(scontrol show job | grep -c 'SystemComment=fabsched')" 0 "no job holds a fabsched note"

# 10-14: and back to fabsched
policy rack > "$D/etc/fabsched.conf"
log_lines=$(wc -l < "$D/ctld/slurmctld.log")
t0=$(date +%s)
switch fabsched
tap_ok $? "switched back to $FAB_SELECT + $FAB_TOPO, restarted in $(($(date +%s) - t0)) s"
tap_ok "[ '$(val SelectType)' = '$FAB_SELECT' ] && [ '$(val TopologyPlugin)' = '$FAB_TOPO' ]" \
	"slurmctld runs fabsched's placement again: $(val SelectType), $(val TopologyPlugin)"
tap_ok "[ '$(state "$f")' = RUNNING ]" "the job started under stock Slurm runs on ($f)"
g=$(cl_sbatch -J back -N 4 --exclusive -t 10 -o /dev/null --wrap "sleep 5")
cl_poll 30 runs_or_noted "$g"
# f holds 2 nodes of one rack: a 4-node job fits only the other rack whole
ng=$(cl_job_field "$g" NodeList)
tap_ok "[ '$(state "$g")' = RUNNING ] && [ $(racks "$ng") = 1 ]" \
	"a 4-node job placed by fabsched again: one rack ($ng)"
cl_wait_job "$g" 60 >/dev/null
scancel "$f"
tap_ok "tail -n +$((log_lines + 1)) '$D/ctld/slurmctld.log' | grep -q 'fabric model .*: 8 nodes in 2 racks'" \
	"the restarted slurmctld loaded the fabric model again"

tap_done
