#!/bin/bash
# t-restart.sh - slurmctld SIGKILLed and started again with a queue
# mid-flight, under fabsched's placement (select/cons_tres_fabric on 22.05,
# topology/fabric from 24.11), on an 8-node ibsim fabric of 2 racks:
# two 3-node jobs run, one per rack, and a 2-node job waits for a rack
# (Locality=rack LocalityWait=INFINITE: 2 nodes are free, in different
# racks).  After the crash and the restart:
#   - the running jobs run on, on the same nodes;
#   - the waiting job still waits for one rack, with its reason;
#   - the locality share counts each placement once: the running jobs are
#     not counted again, and the waiting job once it starts (in one rack).
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
tap_plan 18

FABRIC="leaves=2,hosts=4,spines=1"
CL_DIR=${FABSCHED_CLUSTER_DIR:-/var/lib/fabsched-cluster}
WORK=$CL_DIR.restart
MODEL=$WORK/fabric.json
rm -rf "$WORK" && mkdir -p "$WORK/plugins" && chmod 755 "$WORK" || tap_bail "cannot write $WORK"
fs_stage_plugins "$WORK/plugins" || tap_bail "no plugin found under $FABSCHED_BUILDDIR/plugins"
export FABSCHED_CLUSTER_PLUGIN_DIR=$WORK/plugins
FABSCHED_CLUSTER_SELECT=$(fs_select_type) || tap_bail "no placement plugin in this build"
export FABSCHED_CLUSTER_SELECT
FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=$(fs_placement_topology)
export FABSCHED_CLUSTER_TOPOLOGY_PLUGIN
printf 'FabricModel=%s\nPartitionName=batch Locality=rack LocalityWait=INFINITE\n' "$MODEL" > "$WORK/fabsched.conf"
printf 'SlurmctldDebug=verbose\n' > "$WORK/extra.conf"
export FABSCHED_CLUSTER_EXTRA_CONF=$WORK/extra.conf
SHARE_OF() {	# the batch partition's locality record in StateSaveLocation
	sed -n 's/^share batch \([01]*\)$/\1/p' "$FABSCHED_CLUSTER_DIR/ctld/state/fabsched_locality_share" 2>/dev/null
}
total() {	# placements the locality record and the ledger hold for batch
	local f=$FABSCHED_CLUSTER_DIR/ctld/state/fabsched_locality_share
	echo $(($(SHARE_OF | tr -d '\n' | wc -c) + $(grep -c '^pending [0-9]* batch ' "$f" 2>/dev/null)))
}
rack_of() { [ "$((10#${1#n}))" -le 4 ] && echo leaf01 || echo leaf02; }
racks() { for h in $(scontrol show hostnames "$1"); do rack_of "$h"; done | sort -u | wc -l; }
waits_for_rack() {	# waits_for_rack JOBID: its note says so (sets why)
	why=$(squeue -h -j "$1" -O system_comment:300 2>/dev/null | sed 's/ *$//')
	grep -q 'Locality: waiting for one rack' <<<"$why"
}

# 1: the model, then the cluster
cl_first_model 8 "$FABRIC" "$MODEL" || tap_diag "$CL_OUT"
cl_up --nodes 8 --fabric "$FABRIC" --etc-file "fabsched.conf=$WORK/fabsched.conf"
tap_ok $? "8-node cluster up: $FABSCHED_CLUSTER_SELECT + $FABSCHED_CLUSTER_TOPOLOGY_PLUGIN, Locality=rack" ||
	tap_bail "the cluster did not come up"

# 2-3: two racks each 3/4 full, a 2-node job waiting for a rack
a=$(cl_sbatch -J fillA -N 3 --exclusive -t 10 -o /dev/null --wrap "sleep 600")
cl_poll 30 cl_job_in "$a" RUNNING
b=$(cl_sbatch -J fillB -N 3 --exclusive -t 10 -o /dev/null --wrap "sleep 600")
cl_poll 30 cl_job_in "$b" RUNNING
na=$(cl_job_field "$a" NodeList) nb=$(cl_job_field "$b" NodeList)
ra=$(rack_of "$(scontrol show hostnames "$na" | head -1)")
rb=$(rack_of "$(scontrol show hostnames "$nb" | head -1)")
tap_ok "[ '$(cl_job_field "$a" JobState)' = RUNNING ] && [ '$(cl_job_field "$b" JobState)' = RUNNING ] && [ $(racks "$na") = 1 ] && [ $(racks "$nb") = 1 ] && [ '$ra' != '$rb' ]" \
	"job $a on $na, job $b on $nb: one rack each"
c=$(cl_sbatch -J waits -N 2 --exclusive -t 10 -o /dev/null --wrap "sleep 5")
cl_poll 30 waits_for_rack "$c"
tap_ok "[ '$(cl_job_field "$c" JobState)' = PENDING ] && grep -q 'Locality: waiting for one rack' <<<\"\$why\"" \
	"job $c (2 nodes; one free node in each rack) waits: $why"
submit_before=$(cl_job_field "$c" SubmitTime)
# the crash after slurmctld saved its job state (a crash before that loses
# what Slurm had not saved: it would start the jobs again, and fabsched
# count those new starts)
t_seen=$(date +%s)
js=$FABSCHED_CLUSTER_DIR/ctld/state/job_state
saved_since() { [ -f "$js" ] && [ "$(stat -c %Y "$js")" -gt "$1" ]; }	# job_state written after EPOCH
cl_poll 30 saved_since "$t_seen"
total_before=$(total)
# the waiting job may already be held as a decision (from 24.11, backfill's
# plan for it counts once it is seen started)
c_held=$(grep -c "^pending $c batch " "$FABSCHED_CLUSTER_DIR/ctld/state/fabsched_locality_share" 2>/dev/null)
tap_diag "locality record before the crash: $(grep -v '^#' "$FABSCHED_CLUSTER_DIR/ctld/state/fabsched_locality_share" 2>/dev/null | tr '\n' ';')"

# 4-5: the crash and the restart
out=$("$CL" ctld kill 2>&1)
rc=$?
tap_diag "$out"
tap_ok "[ $rc -eq 0 ] && ! scontrol ping 2>/dev/null | grep -q UP" "slurmctld killed with SIGKILL"
t0=$(date +%s)
out=$("$CL" ctld start 2>&1)
rc=$?
tap_diag "$out"
tap_ok "[ $rc -eq 0 ]" "slurmctld started again on its state ($(($(date +%s) - t0)) s)"

# 6-8: running jobs untouched, the waiting job waiting with its reason
tap_ok "[ '$(cl_job_field "$a" JobState)' = RUNNING ] && [ '$(cl_job_field "$a" NodeList)' = '$na' ] && [ '$(cl_job_field "$b" JobState)' = RUNNING ] && [ '$(cl_job_field "$b" NodeList)' = '$nb' ]" \
	"after the restart jobs $a and $b still run on $na and $nb"
cl_poll 30 waits_for_rack "$c"
tap_ok "[ '$(cl_job_field "$c" JobState)' = PENDING ] && grep -q 'Locality: waiting for one rack' <<<\"\$why\"" \
	"job $c still waits for one rack: $why"
tap_is "$(cl_job_field "$c" SubmitTime)" "$submit_before" "its submit time, from which its wait counts, kept"

# 9: fabsched metrics says the same, parsed by Prometheus' own text parser
"$FABSCHED" metrics --conf "$WORK/fabsched.conf" > "$WORK/metrics.txt" 2>"$WORK/metrics.err"
rc=$?
if cl_have_prom; then
	got=$(cl_prom "$WORK/metrics.txt" 'fabsched_jobs_running{partition="batch",racks="one"}' \
		'fabsched_jobs_running{partition="batch",racks="several"}' \
		'fabsched_jobs_waiting_locality{partition="batch"}' 'fabsched_source_up{source="locality_record"}' \
		fabsched_fabric_nodes fabsched_fabric_racks fabsched_fabric_nodes_absent)
	tap_is "$rc $got" "0 2 0 1 1 8 2 0" \
		"fabsched metrics (Prometheus text parser): 2 jobs running in one rack, none across, 1 waiting for its rack, the locality record read, 8 nodes in 2 racks, none absent"
	tap_diag "$(grep -v '^#' "$WORK/metrics.txt")"
else
	tap_skip "python3-prometheus-client is missing: no Prometheus text parser to read fabsched metrics with"
fi

# 10-11: fabsched job, for the waiting job and a running one (--json)
# (the note is there after each pass that finds no rack; as test 7, wait for one)
job_noted() {	# job_noted JOBID: fabsched job shows its waiting note (sets rc)
	"$FABSCHED" job "$1" --conf "$WORK/fabsched.conf" > "$WORK/job-c.txt" 2>&1
	rc=$?
	grep -q 'note       fabsched: Locality: waiting' "$WORK/job-c.txt"
}
cl_poll 30 job_noted "$c"
tap_diag "$(cat "$WORK/job-c.txt")"
tap_ok "[ $rc -eq 0 ] && grep -q 'PENDING' '$WORK/job-c.txt' && grep -q 'note       fabsched: Locality: waiting for one rack' '$WORK/job-c.txt' && grep -q 'until no bound (Locality rack, LocalityWait INFINITE of partition batch)' '$WORK/job-c.txt' && grep -q 'share      [0-9]* of the last [0-9]* jobs of batch' '$WORK/job-c.txt'" \
	"fabsched job $c: pending, what it waits for, since when, no bound, the partition's record"
"$FABSCHED" job "$a" --json --conf "$WORK/fabsched.conf" > "$WORK/job-a.json" 2>&1
got=$(cl_py -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(j["state"], ",".join(j["racks"]), j["switch_hops"], len(j["per_node"]),
      sum(n["cpus"] or 0 for n in j["per_node"]) > 0)' "$WORK/job-a.json" 2>&1)
tap_is "$got" "RUNNING $ra 0 3 True" "fabsched job $a --json: running in one rack ($ra), 0 switch hops, 3 nodes with their CPUs"

# 12-14: fabsched show: the racks with each node's state and job, as text
# and as an HTML page that headless Chromium draws (DOM and screenshot)
"$FABSCHED" show --conf "$WORK/fabsched.conf" --no-color > "$WORK/show.txt" 2>&1
tap_diag "$(cat "$WORK/show.txt")"
tap_ok "grep -q '^rack leaf01, pod .*n001 [a-z]*' '$WORK/show.txt' && grep -q '^rack leaf02' '$WORK/show.txt' && [ \$(grep -o 'job $a' '$WORK/show.txt' | wc -l) = 3 ] && [ \$(grep -o 'job $b' '$WORK/show.txt' | wc -l) = 3 ]" \
	"fabsched show: both racks, jobs $a and $b on their 3 nodes each"
"$FABSCHED" show --conf "$WORK/fabsched.conf" --html "$WORK/racks.html" 2>"$WORK/show.err"
rc=$?
chrome=$(command -v chromium || command -v chromium-browser)
if [ -n "$chrome" ] && cl_py -c 'import PIL' 2>/dev/null; then
	( cd "$WORK" && HOME=$WORK timeout 60 "$chrome" --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --window-size=1000,600 --screenshot="$WORK/racks.png" \
		"file://$WORK/racks.html" >"$WORK/chrome.log" 2>&1 &&
	  HOME=$WORK timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --dump-dom \
		"file://$WORK/racks.html" >"$WORK/racks.dom" 2>>"$WORK/chrome.log" )
	crc=$?
	got=$(cl_py - "$WORK/racks.dom" "$WORK/racks.png" "$a" <<'EOF2'
import re, sys
from PIL import Image
dom, png, job = open(sys.argv[1]).read(), Image.open(sys.argv[2]).convert("RGB"), sys.argv[3]
racks = re.findall(r'<g class="rack" data-rack="([^"]+)"', dom)
mine = re.findall(r'<g class="node" data-node="([^"]+)" data-state="[^"]*" data-jobs="%s" data-fill="(#[0-9a-f]{6})"' % job, dom)
fill = mine[0][1] if mine else "#000000"
rgb = tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))
px = sum(1 for p in png.getdata() if p == rgb)
# each node is a 120x34 box (text inside takes a few pixels)
print(",".join(racks), len(mine), px >= 3 * 120 * 34 * 0.6)
EOF2
)
	tap_is "$rc $crc $got" "0 0 leaf01,leaf02 3 True" \
		"fabsched show --html: Chromium draws both racks and job $a's 3 nodes in its colour (DOM and screenshot)"
	tap_diag "$(grep -v '^\[' "$WORK/chrome.log" | head -5)"
else
	tap_skip "no chromium or python3-pil: the HTML page is not drawn here"
fi
tap_ok "grep -q '<svg' '$WORK/racks.html' && ! grep -v 'xmlns=' '$WORK/racks.html' | grep -qiE 'https?://|<script|<link|src='" \
	"the page is self-contained: an inline SVG, no script, no link, no network resource"

# 15-17: each placement counted once: in the record, or as a decision the
# ledger holds until it sees the job started (then it goes to the record)
tap_is "$(total)" "$total_before" "after the restart the record and ledger hold the $total_before placements they held (record $(SHARE_OF))"
scancel "$a"
cl_wait_job "$c" 120
nc=$(cl_job_field "$c" NodeList)
tap_ok "[ '$CL_JOB_STATE' = COMPLETED ] && [ $(racks "$nc") = 1 ]" "job $c ran in one rack once job $a left ($nc)"
want=$((total_before + 1 - c_held))
total_is() { [ "$(total)" = "$1" ]; }	# total_is N: the record and ledger hold N
cl_poll 10 total_is "$want"
f=$FABSCHED_CLUSTER_DIR/ctld/state/fabsched_locality_share
tap_diag "locality record at the end: $(grep -v '^#' "$f" 2>/dev/null | tr '\n' ';')"
tap_ok "[ $(total) -eq $want ] && [ $(grep -c "^pending $c " "$f") -le 1 ] && ! grep -q 0 <<<'$(SHARE_OF)' && ! grep -q '^pending .* 10\$' '$f'" \
	"job $c counted once, as got its rack ($(total) placements, $want expected; record $(SHARE_OF))"
# 18: the job ran: fabsched job no longer says it waits (on 24.11 and later
# its SystemComment loses the note at the next placement call, maybe none)
"$FABSCHED" job "$c" --json --conf "$WORK/fabsched.conf" > "$WORK/job-c-done.json" 2>&1
got=$(cl_py -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(j["state"], [n for n in j["fabsched_notes"] if "waiting" in n])' "$WORK/job-c-done.json" 2>&1)
tap_is "$got" "COMPLETED []" "fabsched job $c once it ran: COMPLETED, no waiting note"
scancel "$b"
tap_done
