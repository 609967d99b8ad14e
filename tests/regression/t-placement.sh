#!/bin/bash
# t-placement.sh - rack-local gang placement on a real 16-node cluster in 4
# racks of an ibsim fabric (leaves=4, hosts=4, spines=2).
#
# Run 1, fabsched's placement (select/cons_tres_fabric on Slurm 22.05;
# select/cons_tres with topology/fabric on 24.11): the fabric model is discovered live from
# ibsim (fabsched topo discover), fabsched.conf says Locality=rack for the
# partition; a scripted mix of exclusive Open MPI jobs (srun --mpi=pmix)
# runs.  Asserts: every job that fits a rack got one rack, larger jobs
# spanned the fewest racks, every job started whole (all ranks, all nodes),
# a bad --fabric-locality fails at submission with the parser's message, a
# job that cannot have its rack pends with a Locality reason and, once its
# wait bound (--fabric-locality=rack@0:15) passed, runs and records in its
# SystemComment that locality was relaxed; with a LocalityTarget for the
# partition, the same kind of job waits while the partition's share of
# rack-local jobs would fall below it, and starts at once above it; a job
# wider than a rack that waits for its fewest racks is planned by backfill
# on the racks expected to hold it soonest (SchedNodeList), not on the free
# nodes now, and a later small job starts beside it.
# Run 2, stock select/cons_tres + topology/tree with the topology.conf
# exported from the same model: the same mix.  Run 3, on that stock
# cluster once the mix ended, the strongest stock
# setup for rack locality: the same, with --switches=1@$SWITCH_WAIT on every
# job that fits in a rack (what an administrator's job_submit or
# cli_filter rule adds).  All three are printed side by side (racks per
# job, jobs split across racks, makespan).  FABSCHED_STOCK_COMPARE=no
# (make check-cluster-core: the releases between 22.05 and the newest)
# leaves runs 2 and 3 out, their checks SKIP: they measure stock Slurm.
# Scheduling: SchedulerParameters=bf_interval=5 in every run.
# FABSCHED_PLACEMENT_FABRIC=roce: all of it on the harness's emulated
# Ethernet fabric of the same shape (tests/cluster/ethernet.sh), the model
# discovered from its lldpd records (fabsched topo discover --lldp);
# scripts/check.sh runs it so on 22.05 and the newest release, on
# InfiniBand (ibsim) on the others.  Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"
# shellcheck source=fabsched-plugins.sh
. "$SRC/tests/regression/fabsched-plugins.sh"

cl_require
cl_require_build cli/fabsched
PLACEMENT_FABRIC=${FABSCHED_PLACEMENT_FABRIC:-ib}
case "$PLACEMENT_FABRIC" in
ib) cl_require_cmd "ibsim-utils, infiniband-diags" ibsim ibnetdiscover ;;
roce) cl_require_cmd lldpd lldpd lldpcli ;;
*) tap_bail "FABSCHED_PLACEMENT_FABRIC=$PLACEMENT_FABRIC: expected ib or roce" ;;
esac

TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
# The MPI mix runs as root: with every node on one host, Slurm 22.05's
# slurmstepd can verify a peer's PMIx direct-connection credential while it
# has dropped privileges to the job's user for task setup, and rejects it
# ("Munge decode failed: Unauthorized credential"), hanging that step.  Who
# owns the jobs does not matter to placement; t-harness and t-plugins-load
# run MPI as the unprivileged user.
MPI_USER=root
D=${FABSCHED_CLUSTER_DIR:-/var/lib/fabsched-cluster}
export FABSCHED_CLUSTER_DIR=$D
FABRIC="leaves=4,hosts=4,spines=2"
FABRIC_ARG=$FABRIC
[ "$PLACEMENT_FABRIC" = roce ] && FABRIC_ARG="roce:$FABRIC"
RACK=4
# Open MPI session files of concurrent jobs on one node must not collide
export OMPI_MCA_btl_vader_backing_directory=/dev/shm

# The mix: "name nodes seconds" in submission order.
# Four 3-node jobs first leave one free node per rack: the 2-node jobs
# after them find free nodes but no free rack.
MIX="a 3 6
b 3 6
c 3 6
d 3 6
e 2 3
f 2 3
g 4 4
h 1 2
i 6 4
j 2 3
k 5 3
l 3 3"
NJOBS=$(wc -l <<<"$MIX")
SWITCH_WAIT=2:00	# within Slurm's default max_switch_wait (300 s)

tap_plan 21

# ------------------------------------------------------------ staging
work=$D.placement
mkdir -p "$work"
plugdir=$work/plugins
fs_stage_plugins "$plugdir" || tap_bail "no plugin found under $FABSCHED_BUILDDIR/plugins: build first"
printf 'required %s/fabsched.so\n' "$plugdir" > "$plugdir/plugstack.conf"
chmod 755 "$work"
export FABSCHED_CLUSTER_PLUGIN_DIR=$plugdir
export FABSCHED_CLUSTER_PLUGSTACK=$plugdir/plugstack.conf
export FABSCHED_CLUSTER_NODES=16
export FABSCHED_CLUSTER_PREFIX=n
BF_INTERVAL=5
printf 'SlurmctldDebug=debug\nSchedulerParameters=bf_interval=%s\n' "$BF_INTERVAL" > "$work/extra.conf"
export FABSCHED_CLUSTER_EXTRA_CONF=$work/extra.conf
cat > "$work/fabsched.conf" <<EOF
FabricModel=$D/etc/fabric.json
PartitionName=batch Locality=rack LocalityWait=INFINITE
EOF

# rack of each node, from the exported topology.conf (leaf = rack)

racks_of_job() {	# racks_of_job ID: the distinct racks of its nodes
	local n
	for n in $(scontrol show hostnames "$(cl_job_field "$1" NodeList)"); do
		echo "${RACK_OF[$n]:-?}"
	done | sort -u | wc -l
}


# run_mix LABEL [WAIT]: submit the mix (with WAIT, --switches=1@WAIT on
# the jobs that fit in a rack), wait for it, set IDS, MIX_OK, MAKESPAN
declare -A IDS
run_mix() {
	local name n s id first=0 last=0 st en sw
	IDS=()
	while read -r name n s; do
		sw=()
		[ -n "${2:-}" ] && [ "$n" -le $RACK ] && sw=(--switches="1@$2")
		id=$(cl_sbatch --user "$MPI_USER" -J "mix-$name" -N "$n" --ntasks-per-node=1 \
			--exclusive -t 5 -o "mix-$1-%j.out" "${sw[@]}" \
			--wrap "srun --mpi=pmix $FABSCHED_MPI_HELLO && sleep $s") || id=
		IDS[$name]=$id
	done <<<"$MIX"
	MIX_OK=0 MIX_BAD=""
	for name in $(cut -d' ' -f1 <<<"$MIX"); do
		id=${IDS[$name]}
		if [ -n "$id" ] && cl_wait_job "$id" 300 >/dev/null; then
			MIX_OK=$((MIX_OK + 1))
		else
			MIX_BAD="$MIX_BAD $name=job${id:-?}:${CL_JOB_STATE:-unsubmitted}:$(tail -c 300 "$(cl_job_output "$id")" 2>/dev/null | tr '\n' ' ')"
		fi
		st=$(cl_job_time "$id" StartTime)
		en=$(cl_job_time "$id" EndTime)
		{ [ "$first" -eq 0 ] || [ "$st" -lt "$first" ]; } && first=$st
		[ "$en" -gt "$last" ] && last=$en
	done
	MAKESPAN=$((last - first))
}

# mix_report LABEL: "name nodes racks ranks" lines into REPORT_<label>
mix_report() {
	local name n s id r out ranks hosts
	while read -r name n s; do
		id=${IDS[$name]}
		r=$(racks_of_job "$id")
		out=$(cl_job_output "$id")
		ranks=$(grep -c '^rank=' "$out" 2>/dev/null)
		hosts=$(sed -n 's/^rank=.* node=\([^ ]*\) .*/\1/p' "$out" 2>/dev/null | sort -u | wc -l)
		grep -qx 'allreduce=ok' "$out" 2>/dev/null || ranks="$ranks!"
		echo "$name $n $r $ranks $hosts $(cl_job_field "$id" NodeList)"
	done <<<"$MIX"
}

# ------------------------------------------------------------ run 1: fabsched
FABSCHED_CLUSTER_SELECT=$(fs_select_type) || tap_bail "no placement plugin in this build"
export FABSCHED_CLUSTER_SELECT
FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=$(fs_placement_topology)
export FABSCHED_CLUSTER_TOPOLOGY_PLUGIN
export FABSCHED_CLUSTER_ETC_FILES="fabsched.conf=$work/fabsched.conf"
cl_up --fabric "$FABRIC_ARG"
tap_ok $? "cluster up: 16 nodes, $FABSCHED_CLUSTER_SELECT + $FABSCHED_CLUSTER_TOPOLOGY_PLUGIN (Slurm $(fs_flavour) flavour), fabric $FABRIC_ARG" ||
	tap_bail "the cluster did not come up"

# 2: the model, discovered live from the simulated fabric (InfiniBand), or
# from the lldpd records of the emulated one (Ethernet)
if [ "$PLACEMENT_FABRIC" = roce ]; then
	rm -rf "$work/lldp"
	"$CL" fabric records "$work/lldp" >"$work/discover.log" 2>&1 &&
		"$FABSCHED_BUILDDIR/cli/fabsched" topo discover --lldp "$work/lldp/nodes" \
			--lldp-switches "$work/lldp/switches" -o "$D/etc/fabric.json" >>"$work/discover.log" 2>&1
else
	"$CL" fabric run timeout 60 "$FABSCHED_BUILDDIR/cli/fabsched" topo discover --live \
		-o "$D/etc/fabric.json" >"$work/discover.log" 2>&1
fi
"$FABSCHED_BUILDDIR/cli/fabsched" topo export --model "$D/etc/fabric.json" \
	-o "$work/topology.conf" >>"$work/discover.log" 2>&1
load_racks "$work/topology.conf"
tap_is "${#RACK_OF[@]}" 16 "fabric model ($PLACEMENT_FABRIC): 16 nodes in racks ($(grep -c '^SwitchName=.* Nodes=' "$work/topology.conf") leaves)" ||
	tap_diag "$(cat "$work/discover.log")"

# 3: a bad value fails at submission, with the parser's message
msg=$(cd "$(cl_jobdir "$TUSER")" && runuser -u "$TUSER" -- env SLURM_CONF="$SLURM_CONF" \
	sbatch --fabric-locality=shelf -N1 --wrap true 2>&1)
rc=$?
tap_ok "[ $rc -ne 0 ] && grep -q -- '--fabric-locality=shelf: ' <<<\"\$msg\"" \
	"sbatch --fabric-locality=shelf is refused with the parser's message" || tap_diag "rc=$rc" "$msg"
tap_diag "$msg"

# 4-7: the mix
run_mix fabsched
tap_is "$MIX_OK" "$NJOBS" "fabsched: all $NJOBS jobs of the mix COMPLETED"
FAB_MAKESPAN=$MAKESPAN
REPORT_FAB=$(mix_report fabsched)
bad=$(awk -v R=$RACK '$2 <= R && $3 != 1' <<<"$REPORT_FAB")
tap_ok "[ -z \"\$bad\" ]" "fabsched: every job of at most $RACK nodes ran in one rack" || tap_diag "$bad"
bad=$(awk -v R=$RACK '$2 > R && $3 != int(($2 + R - 1) / R)' <<<"$REPORT_FAB")
tap_ok "[ -z \"\$bad\" ]" "fabsched: every larger job spanned the fewest racks" || tap_diag "$bad"
bad=$(awk '$4 != $2 || $5 != $2' <<<"$REPORT_FAB")
tap_ok "[ -z \"\$bad\" ]" "fabsched: no partial start (every job: all ranks on all its nodes, allreduce ok)" ||
	tap_diag "$bad"

# 8-11: locality that cannot be had now: pend with a reason, relax after
# the wait bound, record why.  Four 3-node fillers leave one free node per
# rack; a 4-node job then has 4 free nodes but no free rack.
fill=()
for x in 1 2 3 4; do
	fill+=("$(cl_sbatch --user "$TUSER" -J "fill$x" -N3 --exclusive -t 5 -o /dev/null --wrap 'sleep 60')")
done
fillers_run() { [ "$(squeue -h -t R -n fill1,fill2,fill3,fill4 | wc -l)" = 4 ]; }	# all four RUNNING
cl_poll 30 fillers_run
spread=$(for id in "${fill[@]}"; do racks_of_job "$id"; done | sort -u | tr '\n' ' ')
tap_is "$spread" "1 " "four 3-node fillers, each in a rack of its own"
t0=$(date +%s)
rid=$(cl_sbatch --user "$TUSER" -J relax -N4 --ntasks-per-node=1 --exclusive -t 5 \
	--fabric-locality=rack@0:15 -o relax-%j.out --wrap "srun --mpi=pmix $FABSCHED_MPI_HELLO")
reason='' seen=()
waits_for_rack() {	# waits_for_rack JOBID: its note says so (sets reason, adds to seen)
	if [ "$(fs_flavour)" = 22.05 ]; then
		reason=$(squeue -h -j "$1" -o %R 2>/dev/null)
	else
		# 24.11 and later replace a plugin's reason text with their
		# own: fabsched's is in the job's SystemComment
		reason=$(squeue -h -j "$1" -O system_comment:600 2>/dev/null)
	fi
	seen+=("$(($(date +%s) - t0))s $reason")
	grep -q 'Locality: waiting for one rack' <<<"$reason"
}
cl_poll 14 waits_for_rack "$rid"
where="squeue's Reason"; [ "$(fs_flavour)" = 22.05 ] || where="squeue -O system_comment"
tap_ok "grep -q 'Locality: waiting for one rack' <<<\"\$reason\"" "pending job $rid: why is in $where: $reason" ||
	tap_diag "${seen[@]}" "$(scontrol show job "$rid")"
cl_wait_job "$rid" 120
tap_ok $? "job $rid ran once its wait bound (15 s) had passed"
started=$(cl_job_time "$rid" StartTime)
comment=$(scontrol show job "$rid" | sed -n 's/.*SystemComment=\(.*\)$/\1/p')
tap_ok "[ $((started - t0)) -ge 14 ] && grep -q 'locality rack@00:00:15 relaxed' <<<\"\$comment\" &&
	! grep -q 'fabsched: Locality:' <<<\"\$comment\"" \
	"job $rid waited $((started - t0)) s, then recorded (its waiting note gone): $comment"
# its ranks rack by rack: the ranks of one rack adjacent (26.05 lays tasks
# out in the order topology/fabric's get_rank gives; earlier releases in
# node order, which is fabric order)
order=$(sed -n 's/^rank=\([0-9]*\) .*node=\([^ ]*\) .*/\1 \2/p' "$(cl_job_output "$rid")" |
	sort -n | while read -r _ n; do echo "${RACK_OF[$n]:-?}"; done | uniq | tr '\n' ' ')
nr=$(wc -w <<<"$order")
tap_ok "[ $nr -ge 2 ] && [ $nr = \$(tr ' ' '\n' <<<\"\$order\" | sed '/^$/d' | sort -u | wc -l) ]" \
	"job $rid: ranks in rack order, each rack's ranks adjacent (racks by rank: $order)"
# 12-13: LocalityTarget, with the fillers still holding 3 nodes per rack.
# Of the jobs so far that fit a rack, all but the relaxed one got a rack
# (the mix's 10, the 4 fillers): 14 of 15.  A 4-node job counted as a miss
# makes 14 of 16 = 87.5 %: under a 95 % target it waits for a rack, under
# 80 % it starts at once across racks.
set_target() {
	sed -i "s/^PartitionName=batch .*/PartitionName=batch Locality=rack LocalityWait=INFINITE LocalityTarget=$1/" \
		"$D/etc/fabsched.conf"
	scontrol reconfigure
}
set_target 95%
tid=$(cl_sbatch --user "$TUSER" -J target -N4 --ntasks-per-node=1 --exclusive -t 5 \
	-o target-%j.out --wrap "srun --mpi=pmix $FABSCHED_MPI_HELLO")
sleep 6
st=$(cl_job_field "$tid" JobState)
tap_is "$st" PENDING "LocalityTarget=95% (share would be 87.5%): job $tid waits for a rack"
set_target 80%
cl_wait_job "$tid" 120
rc=$?
comment=$(scontrol show job "$tid" | sed -n 's/.*SystemComment=\(.*\)$/\1/p')
tap_ok "[ $rc -eq 0 ] && grep -q 'LocalityTarget 80%: 14 of the last 15 jobs got their domain' <<<\"\$comment\"" \
	"LocalityTarget=80%: job $tid ran across racks at once and recorded: $comment"
scancel "${fill[@]}" 2>/dev/null
for id in "${fill[@]}"; do cl_wait_job "$id" 60 >/dev/null; done

# 15-17: backfill's plan of a job waiting for several racks holds the racks
# expected to hold it soonest, not the free nodes now.  Fillers leave one
# free node in each of the first two racks (10 minutes), two in the third
# (3 minutes) and two in the fourth (5 minutes): 6 free nodes, no 2 racks
# holding 6.  A 6-node job waits for 2 racks: the third and the fourth,
# expected when the third's filler's time limit ends.  A 1-node job of 2
# minutes submitted after it starts on a free node backfill does not hold
# for it (on 22.05 before fse_ctl_plan planned such a job on its racks,
# backfill held all 6 free nodes for it and the 1-node job waited).
sed -i "s/^PartitionName=batch .*/PartitionName=batch Locality=rack LocalityWait=INFINITE/" \
	"$D/etc/fabsched.conf"
scontrol reconfigure
ctld_answers() { scontrol ping >/dev/null 2>&1; }	# (24.11 restarts slurmctld to reconfigure)
cl_poll 30 ctld_answers
sfill=()
for spec in "n[001-003] 10" "n[005-007] 10" "n[009-010] 3" "n[013-014] 5"; do
	read -r nl lim <<<"$spec"
	sfill+=("$(cl_sbatch --user "$TUSER" -J sfill -w "$nl" --exclusive -t "$lim" -o /dev/null --wrap 'sleep 600')")
done
sfill_run() { [ "$(squeue -h -t R -n sfill | wc -l)" = 4 ]; }	# all four RUNNING
cl_poll 30 sfill_run
rack_set() { for n in $(scontrol show hostnames "$1" 2>/dev/null); do echo "${RACK_OF[$n]:-?}"; done | sort -u | tr '\n' ' '; }
want=$(printf '%s\n' "${RACK_OF[n009]:-?}" "${RACK_OF[n013]:-?}" | sort -u | tr '\n' ' ')
wid=$(cl_sbatch --user "$TUSER" -J span -N6 --exclusive -t 5 -o /dev/null --wrap 'sleep 1')
small=$(cl_sbatch --user "$TUSER" -J spansmall -N1 --exclusive -t 2 -o /dev/null --wrap 'sleep 5')
t0=$SECONDS
cl_poll $((3 * BF_INTERVAL + 5)) cl_planned "$wid"
pnodes=$(cl_job_field "$wid" SchedNodeList)
prk=$(rack_set "$pnodes")
pstart=$(cl_job_time "$wid" StartTime)
cend=$(cl_job_time "${sfill[2]}" EndTime)
tap_ok "[ '$prk' = '$want' ] && [ '$(cl_job_field "$wid" JobState)' = PENDING ] && [ $pstart -ge $((cend - 2)) ]" \
	"a 6-node job waiting for 2 racks: backfill holds racks $prk(SchedNodeList=$pnodes; expected: $want), from $((pstart - cend)) s after the third rack's filler's time limit" ||
	tap_diag "$(scontrol show job "$wid")"
cl_poll $((3 * BF_INTERVAL + 5)) cl_job_started "$small"
snodes=$(cl_job_field "$small" NodeList)
tap_ok "cl_job_started $small" "beside it, a later 1-node job of 2 minutes started within $((SECONDS - t0)) s of the two submissions, on $snodes"
scancel "${sfill[2]}"
cl_wait_job "$wid" 60 >/dev/null
rnodes=$(cl_job_field "$wid" NodeList)
tap_ok "[ '$(cl_job_field "$wid" JobState)' = COMPLETED ] && [ '$(rack_set "$rnodes")' = '$want' ]" \
	"the 6-node job ran on racks $(rack_set "$rnodes")($rnodes) once the third rack's filler ended"
scancel "${sfill[@]}" "$small" 2>/dev/null
for id in "${sfill[@]}" "$small"; do cl_wait_job "$id" 30 >/dev/null; done

# 12: what the hook costs, from slurmctld's own figures
hook=$(grep -o 'mean fabsched [0-9.]* us over [0-9]* calls, max [0-9]* us' "$D/ctld/slurmctld.log" | tail -1)
sdiag_fab=$(sdiag | grep -E 'Mean cycle|Max cycle|Total cycles' | head -3 | tr -s ' ' | tr '\n' ';')
tap_ok "[ -n \"\$hook\" ]" "the placement logged its time per decision: $hook"
tap_diag "sdiag (fabsched run): $sdiag_fab"
cl_down

if [ "${FABSCHED_STOCK_COMPARE:-yes}" = no ]; then
	why="the stock comparison runs on 22.05 and the newest release (FABSCHED_STOCK_COMPARE=no)"
	tap_skip "$why" "cluster up: stock select/cons_tres + topology/tree"
	tap_skip "$why" "stock: all $NJOBS jobs of the mix COMPLETED"
	tap_skip "$why" "stock with --switches=1@$SWITCH_WAIT: all $NJOBS jobs of the mix COMPLETED"
	tap_diag "fabsched: $(cut -d' ' -f1-3,6 <<<"$REPORT_FAB" | tr '\n' ';') makespan $FAB_MAKESPAN s"
	tap_done
	exit
fi

# ------------------------------------------------------------ run 2: stock
export FABSCHED_CLUSTER_SELECT=select/cons_tres
export FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=topology/tree
export FABSCHED_CLUSTER_TOPOLOGY_CONF=$work/topology.conf
unset FABSCHED_CLUSTER_ETC_FILES
cl_up --fabric "$FABRIC_ARG"
tap_ok $? "cluster up: stock select/cons_tres + topology/tree (exported topology.conf)" ||
	tap_bail "the stock cluster did not come up"
run_mix stock
STOCK_MAKESPAN=$MAKESPAN
REPORT_STOCK=$(mix_report stock)
tap_is "$MIX_OK" "$NJOBS" "stock: all $NJOBS jobs of the mix COMPLETED" || tap_diag "not completed:$MIX_BAD"
sdiag_stock=$(sdiag | grep -E 'Mean cycle|Max cycle|Total cycles' | head -3 | tr -s ' ' | tr '\n' ';')
tap_diag "sdiag (stock run): $sdiag_stock"

# ------------------------------------------------------------ run 3: stock + --switches
# on the same stock cluster, every node idle again
run_mix switches "$SWITCH_WAIT"
if [ "$MIX_OK" != "$NJOBS" ]; then
	# a stock MPI job that did not complete says nothing of placement (seen
	# once on 24.11): the jobs that failed, then the mix again on a fresh cluster
	tap_diag "stock --switches mix: $MIX_OK of $NJOBS COMPLETED;$MIX_BAD; once more"
	cl_down
	cl_up --fabric "$FABRIC_ARG" || tap_bail "the stock cluster did not come up again"
	run_mix switches "$SWITCH_WAIT"
fi
SW_MAKESPAN=$MAKESPAN
REPORT_SW=$(mix_report switches)
tap_is "$MIX_OK" "$NJOBS" "stock with --switches=1@$SWITCH_WAIT: all $NJOBS jobs of the mix COMPLETED"

# side by side
split() { awk -v R=$RACK '$3 > int(($2 + R - 1) / R)' <<<"$1" | wc -l; }
{
	printf '%-4s %5s | %-22s | %-22s | %-22s\n' job nodes "fabsched racks (nodes)" \
		"stock racks (nodes)" "stock --switches=1@$SWITCH_WAIT"
	paste -d' ' <(cut -d' ' -f1-3,6 <<<"$REPORT_FAB") <(cut -d' ' -f3,6 <<<"$REPORT_STOCK") \
		<(cut -d' ' -f3,6 <<<"$REPORT_SW") |
		while read -r name n r1 l1 r2 l2 r3 l3; do
			printf '%-4s %5s | %-22s | %-22s | %-22s\n' "$name" "$n" "$r1 ($l1)" "$r2 ($l2)" "$r3 ($l3)"
		done
	printf 'jobs on more racks than needed: fabsched %s, stock %s, stock --switches %s\n' \
		"$(split "$REPORT_FAB")" "$(split "$REPORT_STOCK")" "$(split "$REPORT_SW")"
	printf 'makespan: fabsched %s s, stock %s s, stock --switches %s s\n' "$FAB_MAKESPAN" \
		"$STOCK_MAKESPAN" "$SW_MAKESPAN"
} > "$work/side-by-side.txt"
tap_diag "$(cat "$work/side-by-side.txt")"
cl_down
tap_done
