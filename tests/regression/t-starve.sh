#!/bin/bash
# t-starve.sh - no starvation: a job waiting for its rack starts within its
# wait bound while a stream of small jobs keeps arriving, under fabsched's
# placement (select/cons_tres_fabric on 22.05, topology/fabric from 24.11),
# on an 8-node ibsim fabric of 2 racks of 4 (leaves=2,hosts=4,spines=1).
#
# Two fillers, one per rack, leave no rack whole; then a job (root,
# --fabric-locality=rack@BOUND) that fits a rack waits for one, and another
# user submits a 1-node exclusive job of STREAM_LEN seconds every STREAM_GAP
# seconds for STREAM_FOR seconds (longer than the bound).  The small jobs
# come after the rack job, so they have a lower priority (priority/basic:
# FIFO), and Slurm may start them on the free nodes (backfill) while the
# rack job says "not now".  Two cases, one after the other:
# Both cases: 2-node fillers (two free nodes per rack, so 4 free nodes for
# a 3-node rack job, but no rack with 3), the rack job waits for locality:
#   A. filler A ends FILL_A seconds after the rack job's submission: its
#      rack becomes whole during the wait if the stream leaves it alone;
#   B. both fillers outlive the wait: no rack becomes whole, the job is
#      relaxed at its bound and must then find its 3 nodes despite the
#      stream.
#
# Scheduling, as an administrator would set it: SchedulerParameters=
# bf_interval=5 (default backfill otherwise; sched_interval at its default:
# the main scheduler also runs on every job submission and end, here every
# second or two).
#
# Measured per case: the rack job's wait (StartTime - EligibleTime; fabsched
# counts its bound from the eligible time, the submit time when there is
# none); whether it got one rack or was relaxed (its SystemComment); the
# stream jobs started during that wait and on which racks; the longest gap
# between two stream starts.
# Asserts: the wait is at most BOUND + SLACK, SLACK = one bf_interval +
# STREAM_LEN + 1 s.  fabsched relaxes a job at the first placement call
# after its bound; such calls come at least once a bf_interval (backfill)
# when no job event brings the main scheduler earlier.  The relaxed job may
# then still wait for small jobs that hold the free nodes at that moment:
# backfill's plan for the waiting job goes through fabsched (22.05: its
# will-run test, select/cons_tres_fabric's fabric_plan; from 24.11:
# topology/fabric) and holds the rack expected to hold it, not any free
# nodes now (seen on 24.11 to 26.05: small jobs ran on 3 of the 4 free
# nodes through the wait), so the relaxed job, first in priority, waits
# for the small jobs on its nodes to end (at most STREAM_LEN).  Slurm's
# times are whole seconds (1 s).
# And the stream flowed: small jobs started during the wait, every one of
# them ran to completion, and no gap between two stream starts was longer
# than the bound (no full stop of small jobs).
# C. LocalityWaitRatio=2 (partition ratio): with 3-node fillers of a
# 10-minute time limit in each rack, a 2-node job of a 1-minute limit does
# not wait (no rack expected within 2 minutes): it starts at once over both
# racks, its SystemComment saying why; a 2-node job of a 10-minute limit
# waits for a rack (one is expected within 20 minutes) and gets one when a
# filler ends.
# D. Backfill holds the rack a waiting job is expected to get, not the
# free nodes: fillers of 3 and 10 minutes leave two free nodes per rack, a
# 3-node job waits for a rack (rack 1, when filler A's 3 minutes end); a
# 2-node job of 2 minutes submitted after it starts within three backfill
# intervals (on 22.05 before fabric_plan, backfill held 3 of the 4 free
# nodes for the waiting job and the 2-node job waited for it), and the
# rack job gets rack 1 once filler A ends.  Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"
# shellcheck source=fabsched-plugins.sh
. "$SRC/tests/regression/fabsched-plugins.sh"

cl_require
cl_require_build cli/fabsched
cl_require_cmd ibsim-utils ibsim
tap_plan 20

TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
FABRIC="leaves=2,hosts=4,spines=1"
BOUND=20	# the rack job's --fabric-locality=rack@BOUND, seconds
BF_INTERVAL=5
STREAM_GAP=1.5 STREAM_LEN=4 STREAM_FOR=28
SLACK=$((BF_INTERVAL + STREAM_LEN + 1))
FILL_A=10	# case A: filler A's end, seconds after the rack job's submission
CL_DIR=${FABSCHED_CLUSTER_DIR:-/var/lib/fabsched-cluster}
WORK=$CL_DIR.starve
MODEL=$WORK/fabric.json
rm -rf "$WORK" && mkdir -p "$WORK/plugins" && chmod 755 "$WORK" || tap_bail "cannot write $WORK"
fs_stage_plugins "$WORK/plugins" || tap_bail "no plugin found under $FABSCHED_BUILDDIR/plugins"
printf 'required %s/fabsched.so\n' "$WORK/plugins" > "$WORK/plugins/plugstack.conf"
export FABSCHED_CLUSTER_PLUGIN_DIR=$WORK/plugins
export FABSCHED_CLUSTER_PLUGSTACK=$WORK/plugins/plugstack.conf
FABSCHED_CLUSTER_SELECT=$(fs_select_type) || tap_bail "no placement plugin in this build"
FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=$(fs_placement_topology)
export FABSCHED_CLUSTER_SELECT FABSCHED_CLUSTER_TOPOLOGY_PLUGIN
printf 'FabricModel=%s\nPartitionName=batch Locality=rack LocalityWait=INFINITE\n%s\n' "$MODEL" \
	'PartitionName=ratio Locality=rack LocalityWait=INFINITE LocalityWaitRatio=2' > "$WORK/fabsched.conf"
printf 'SchedulerParameters=bf_interval=%s\nPartitionName=ratio Nodes=ALL MaxTime=INFINITE State=UP\n' \
	"$BF_INTERVAL" > "$WORK/extra.conf"
export FABSCHED_CLUSTER_EXTRA_CONF=$WORK/extra.conf
rack_of() { [ "$((10#${1#n}))" -le 4 ] && echo r1 || echo r2; }
racks() { for h in $(scontrol show hostnames "$1"); do rack_of "$h"; done | sort -u | tr '\n' ' '; }
# locality_why ID: why the job waits for locality (22.05: its reason text;
# from 24.11: its SystemComment); has_why ID: it says so
locality_why() {
	{ squeue -h -j "$1" -o %R; squeue -h -j "$1" -O system_comment:300; } 2>/dev/null |
		grep -o 'Locality: waiting for one rack[^)]*' | head -1
}
has_why() { [ -n "$(locality_why "$1")" ]; }
t_start=$(date +%s)

# 1: the model, then the cluster
cl_first_model 8 "$FABRIC" "$MODEL" || tap_diag "$CL_OUT"
cl_up --nodes 8 --fabric "$FABRIC" --etc-file "fabsched.conf=$WORK/fabsched.conf"
tap_ok $? "8-node cluster up: $FABSCHED_CLUSTER_SELECT + $FABSCHED_CLUSTER_TOPOLOGY_PLUGIN (Slurm $(fs_flavour) flavour), Locality=rack, bf_interval=$BF_INTERVAL" ||
	tap_bail "the cluster did not come up"

# run_case NAME FILL_A_NODES FILL_B_NODES RACK_NODES FILL_A_END: one case, 6 TAP
# lines (the fillers named by --nodelist, so that each holds a rack of its own)
FIGURES=()
run_case() {
	local c=$1 la=$2 lb=$3 rn=$4 fa_end=$5 fn
	local a b na nb rid t0 why id sids=() end killed_a=0 st start elig wait rnodes comment how
	local during=0 done_ok=0 starts=() where=() se s n state gap prev

	# fillers, one per rack
	fn=$(scontrol show hostnames "$la" | wc -l)
	a=$(cl_sbatch -J "fill$c-a" -w "$la" --exclusive -t 10 -o /dev/null --wrap "sleep 600")
	cl_poll 30 cl_job_in "$a" RUNNING
	b=$(cl_sbatch -J "fill$c-b" -w "$lb" --exclusive -t 10 -o /dev/null --wrap "sleep 600")
	cl_poll 30 cl_job_in "$b" RUNNING
	na=$(cl_job_field "$a" NodeList) nb=$(cl_job_field "$b" NodeList)
	tap_ok "[ '$(cl_job_field "$a" JobState)' = RUNNING ] && [ '$(cl_job_field "$b" JobState)' = RUNNING ] && [ '$(racks "$na")' != '$(racks "$nb")' ] && [ \$(wc -w <<<'$(racks "$na")') = 1 ] && [ \$(wc -w <<<'$(racks "$nb")') = 1 ]" \
		"$c: $fn-node fillers $a on $na, $b on $nb: one rack each, no rack whole"

	# the rack job, then the stream
	rid=$(cl_sbatch -J "rack$c" -N "$rn" --exclusive -t 5 --fabric-locality=rack@0:$BOUND \
		-o /dev/null --wrap "sleep 5")
	t0=$(date +%s)
	why=
	end=$((t0 + STREAM_FOR))
	while [ "$(date +%s)" -lt "$end" ]; do
		if [ "$fa_end" -gt 0 ] && [ $killed_a = 0 ] && [ "$(date +%s)" -ge $((t0 + fa_end)) ]; then
			scancel "$a" && killed_a=1
		fi
		id=$(cl_sbatch --user "$TUSER" -J "stream$c" -N 1 --exclusive -t 1 -o /dev/null \
			--wrap "sleep $STREAM_LEN") && sids+=("$id")
		[ -z "$why" ] && why=$(locality_why "$rid")
		sleep "$STREAM_GAP"
	done
	tap_ok "[ -n \"\$why\" ]" "$c: rack job $rid ($rn nodes) waited for a rack: ${why:-no waiting note seen}"

	# its wait, against its bound
	cl_wait_job "$rid" 120 >/dev/null
	st=$(cl_job_field "$rid" JobState)
	start=$(cl_job_time "$rid" StartTime)
	elig=$(cl_job_time "$rid" EligibleTime)
	[ "$elig" -gt 0 ] || elig=$(cl_job_time "$rid" SubmitTime)
	wait=$((start - elig))
	rnodes=$(cl_job_field "$rid" NodeList)
	comment=$(scontrol show job "$rid" | sed -n 's/.*SystemComment=\(.*\)$/\1/p')
	if grep -q relaxed <<<"$comment"; then how="relaxed, racks $(racks "$rnodes")"; else how="one rack, $(racks "$rnodes")"; fi
	how=${how% }
	tap_ok "[ '$st' = COMPLETED ] && [ $start -gt 0 ] && [ $wait -le $((BOUND + SLACK)) ]" \
		"$c: rack job $rid ($st) waited $wait s for a bound of $BOUND s (+ $SLACK s slack): $how ($rnodes)"

	# the stream
	for id in "${sids[@]}"; do cl_wait_job "$id" 60 >/dev/null; done
	squeue -h -t all -n "stream$c" -o '%i %S %N %T' > "$WORK/stream$c.txt" 2>/dev/null
	while read -r id s n state; do
		se=$(cl_epoch "$s")
		[ "$state" = COMPLETED ] && done_ok=$((done_ok + 1))
		[ "$se" -gt 0 ] && starts+=("$se")
		if [ "$se" -ge "$elig" ] && [ "$se" -lt "$start" ]; then
			during=$((during + 1))
			where+=("$n:$(rack_of "$n")")
		fi
	done < "$WORK/stream$c.txt"
	gap=0 prev=
	for se in $(printf '%s\n' "${starts[@]}" | sort -n); do
		[ -n "$prev" ] && [ $((se - prev)) -gt "$gap" ] && gap=$((se - prev))
		prev=$se
	done
	tap_ok "[ $during -gt 0 ]" "$c: $during stream jobs started during the rack job's wait (${where[*]:-none})"
	tap_is "$done_ok" "${#sids[@]}" "$c: all ${#sids[@]} stream jobs ran to completion"
	tap_ok "[ $gap -le $BOUND ]" "$c: longest gap between two stream starts: $gap s (at most the bound, $BOUND s)"
	FIGURES+=("case $c: release $(fs_flavour) bound=${BOUND}s wait=${wait}s ($how) stream_submitted=${#sids[@]} stream_started_during_wait=$during longest_stream_gap=${gap}s slack=${SLACK}s")
	tap_diag "$c: rack job SystemComment=$comment"
	tap_diag "$c: stream (id start node state):" "$(cat "$WORK/stream$c.txt")"
	scancel "$a" "$b" 2>/dev/null
	cl_wait_job "$a" 30 >/dev/null
	cl_wait_job "$b" 30 >/dev/null
}

# 2-7: a rack frees during the wait
run_case A "n[001-002]" "n[005-006]" 3 "$FILL_A"
# 8-13: no rack frees: relaxed at the bound
run_case B "n[001-002]" "n[005-006]" 3 0

# 14-16: C. LocalityWaitRatio=2, no rack whole: fillers of 10 minutes
a=$(cl_sbatch -J fillC-a -w "n[001-003]" --exclusive -t 10 -o /dev/null --wrap "sleep 600")
b=$(cl_sbatch -J fillC-b -w "n[005-007]" --exclusive -t 10 -o /dev/null --wrap "sleep 600")
cl_poll 30 cl_job_in "$a" RUNNING
cl_poll 30 cl_job_in "$b" RUNNING
short=$(cl_sbatch -J ratio-short -p ratio -N 2 --exclusive -t 1 -o /dev/null --wrap "sleep 1")
t0=$SECONDS
cl_wait_job "$short" 60 >/dev/null
comment=$(scontrol show job "$short" | sed -n 's/.*SystemComment=\(.*\)$/\1/p')
rnodes=$(cl_job_field "$short" NodeList)
start=$(cl_job_time "$short" StartTime)
submit=$(cl_job_time "$short" SubmitTime)
tap_ok "[ '$(cl_job_field "$short" JobState)' = COMPLETED ] && [ $((start - submit)) -le 5 ] &&
	[ \$(wc -w <<<'$(racks "$rnodes")') = 2 ] &&
	grep -Eq 'LocalityWaitRatio 2: a rack expected in 00:(0[89]|10):[0-9][0-9], over 2 x its time limit 00:01:00' <<<\"\$comment\"" \
	"C: a 2-node job of 1 minute started $((start - submit)) s after submission over racks $(racks "$rnodes")($rnodes): no rack expected within 2 x 1 minute"
tap_diag "C: SystemComment=$comment"
long=$(cl_sbatch -J ratio-long -p ratio -N 2 --exclusive -t 10 -o /dev/null --wrap "sleep 1")
cl_poll 20 has_why "$long"
why=$(locality_why "$long")
tap_ok "[ -n \"\$why\" ] && [ '$(cl_job_field "$long" JobState)' = PENDING ]" \
	"C: a 2-node job of 10 minutes waits for a rack (expected within 2 x 10 minutes): ${why:-no waiting note seen}"
scancel "$a"
cl_wait_job "$long" 60 >/dev/null
rnodes=$(cl_job_field "$long" NodeList)
tap_ok "[ '$(cl_job_field "$long" JobState)' = COMPLETED ] && [ '$(racks "$rnodes")' = 'r1 ' ]" \
	"C: it got rack 1 ($rnodes) when its filler ended, $((SECONDS - t0)) s into the case"
scancel "$b" 2>/dev/null
cl_wait_job "$b" 30 >/dev/null

# 17-19: D. backfill's plan of a job waiting for a rack holds that rack,
# not any free nodes: fillers of 3 and 10 minutes leave 2 free nodes per
# rack; a 3-node rack job waits (rack 1 expected first, when filler A's
# time limit ends); a 2-node job of 2 minutes submitted after it starts
# at once on free nodes backfill does not hold for the rack job
a=$(cl_sbatch -J fillD-a -w "n[001-002]" --exclusive -t 3 -o /dev/null --wrap "sleep 600")
b=$(cl_sbatch -J fillD-b -w "n[005-006]" --exclusive -t 10 -o /dev/null --wrap "sleep 600")
cl_poll 30 cl_job_in "$a" RUNNING
cl_poll 30 cl_job_in "$b" RUNNING
rid=$(cl_sbatch -J rackD -N 3 --exclusive -t 5 -o /dev/null --wrap "sleep 2")
cl_poll 20 has_why "$rid"
why=$(locality_why "$rid")
small=$(cl_sbatch --user "$TUSER" -J smallD -N 2 --exclusive -t 2 -o /dev/null --wrap "sleep 5")
t0=$SECONDS
cl_poll $((3 * BF_INTERVAL + 5)) cl_job_started "$small"
took=$((SECONDS - t0))
snodes=$(cl_job_field "$small" NodeList)
tap_ok "[ -n \"\$why\" ] && [ '$(cl_job_field "$rid" JobState)' = PENDING ] && cl_job_started $small" \
	"D: with the rack job $rid waiting (${why:-no waiting note seen}), a later 2-node job of 2 minutes started within $took s on $snodes (racks $(racks "$snodes" 2>/dev/null))"
# backfill's plan for the rack job: the nodes it holds (SchedNodeList) and
# when (StartTime), rack 1 at filler A's end
cl_poll $((2 * BF_INTERVAL + 5)) cl_planned "$rid"
pnodes=$(cl_job_field "$rid" SchedNodeList)
pstart=$(cl_job_time "$rid" StartTime)
aend=$(cl_job_time "$a" EndTime)
tap_ok "[ '$(racks "$pnodes" 2>/dev/null)' = 'r1 ' ] && [ $pstart -ge $((aend - 2)) ]" \
	"D: backfill holds rack 1 for the rack job (SchedNodeList=$pnodes), from $((pstart - aend)) s after filler A's time limit ends"
scancel "$a"
cl_wait_job "$rid" 60 >/dev/null
rnodes=$(cl_job_field "$rid" NodeList)
tap_ok "[ '$(cl_job_field "$rid" JobState)' = COMPLETED ] && [ '$(racks "$rnodes")' = 'r1 ' ]" \
	"D: the rack job got rack 1 ($rnodes) once filler A ended"
cl_wait_job "$small" 60 >/dev/null
tap_is "$(cl_job_field "$small" JobState)" COMPLETED "D: the 2-node job ran to completion"
scancel "$b" 2>/dev/null
tap_diag "figures:" "${FIGURES[@]}"
cl_down
tap_diag "test time: $(($(date +%s) - t_start)) s"
tap_done
