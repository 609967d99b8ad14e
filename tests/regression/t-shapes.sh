#!/bin/bash
# t-shapes.sh - the job shapes users submit, on fabsched's placement and on
# stock Slurm, side by side, on one 16-node cluster of 4 racks (4 nodes of
# 4 cores and 2000 MB each; racks 2-4 also hold gres rdma:2 and
# hugepages:2m:512 per node, count-only; the first two nodes of each rack
# have the feature "big", the third "fast").
#
# Run 1: fabsched's placement (select/cons_tres_fabric + topology/fabric on
# Slurm 22.05; select/cons_tres + topology/fabric from 23.11) with
# Locality=rack LocalityWait=INFINITE for the partition: a job that fits a
# rack must get one, and a job that fits none must not wait for one.
# Run 2: stock select/cons_tres + topology/tree on the topology.conf
# exported from the same fabric model (FABSCHED_STOCK_COMPARE=no: not run,
# as check-cluster-core leaves it on the releases between 22.05 and the
# newest; fabsched is then held to what stock does on those two: every
# shape that can run accepted and COMPLETED, one that cannot refused or
# left pending for a reason its partition never lifts: 24.11 refuses such
# a job, 22.05 and 26.05 leave it pending).
# Each shape is submitted alone on the idle cluster (the shared-node case
# beside a job holding half of rack 1; --spread-job beside an exclusive job
# on n002, so that rack 1 holds the tasks but not one node per task).  Per shape, three checks:
#   accepted where stock accepts (and refused where stock refuses),
#   started and COMPLETED where stock's did,
#   on fabsched, in one rack wherever it fits one, else the fewest racks.
# On 22.05, with DebugFlags=SelectType, what select/cons_tres_fabric reads
# of the CPUs and memory cons_tres gave out on a node is checked against
# cons_tres's own full recount.
# After the shapes, fabsched's idle machine's tasks per node, kept per job
# shape between decisions, must follow a change of the partition's nodes,
# and slurmctld's log must show decisions that kept them.
# The table of both runs (racks and nodes per job) is printed at the end.
# Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"
# shellcheck source=fabsched-plugins.sh
. "$SRC/tests/regression/fabsched-plugins.sh"

cl_require
cl_require_build
cl_require_cmd "ibsim-utils, infiniband-diags" ibsim ibnetdiscover

D=${FABSCHED_CLUSTER_DIR:-/var/lib/fabsched-cluster}
export FABSCHED_CLUSTER_DIR=$D
FABRIC="leaves=4,hosts=4,spines=2"
work=$D.shapes
mkdir -p "$work"
chmod 755 "$work"

# The shapes: "name expected-racks sbatch-arguments".  expected-racks is
# what fabsched must give (one rack where the job fits one, else the
# fewest); "-" where the job's nodes are not fabsched's choice (pinned)
# or the job cannot run at all.
SHAPES="n8 1 -n 8
n16 1 -n 16
n17 2 -n 17
n30 2 -n 30
n64 4 -n 64
n65 - -n 65
n30-tpn2 4 -n 30 --ntasks-per-node=2
n6-c2 1 -n 6 -c 2
n12-c2 2 -n 12 -c 2
n8-mpc900 1 -n 8 --mem-per-cpu=900
n8-mpc1200 2 -n 8 --mem-per-cpu=1200
N2-mem1500 1 -N 2 --mem=1500
N2-6 1 -N 2-6
n8-excl 1 -n 8 --exclusive
N4-rdma 1 -N 4 --gres=rdma:1
n12-rdma 1 -n 12 --gres=rdma:1
N3-huge 1 -N 3 --gres=hugepages:2m:256
N3-feat 2 -N 3 --constraint=big
n12-feat 2 -n 12 --constraint=big
N4-feat-or 2 -N 4 --constraint=big|fast
N3-prefer 2 -N 3 --prefer=big
nodelist - -w n005,n009 -n 2
exclude 1 -x n005,n009 -N 4
switches 1 -N 4 --switches=1
array 1 --array=0-3 -n 4
het 1 -n 4 : -n 8
contiguous 1 -N 3 --contiguous
reservation 1 --reservation=shapes -n 8
overcommit 1 -n 8 --overcommit
shared 1 -n 8 --mem-per-cpu=100
spread 1 -n 4 --spread-job"
NSHAPES=$(wc -l <<<"$SHAPES")

# (one more on 22.05: the node counts select/cons_tres_fabric reads)
tap_plan $((6 + 3 * NSHAPES + $([ "$(fs_flavour)" = 22.05 ] && echo 1 || echo 0)))

# nodes: rack 1 (n001-n004) without gres; "big" the first two of a rack
# (no rack holds 3 of them: a job asking for 3 fits none), "fast" the third
# (big|fast: 3 a rack, so -N 4 fits none either); --prefer=big: Slurm
# tries the job on "big" nodes first, and there -N 3 fits no rack either
: > "$work/nodes"
for i in $(seq 1 16); do
	n=$(printf 'n%03d' "$i")
	f=
	[ $(((i - 1) % 4)) -lt 2 ] && f=" features=big"
	[ $(((i - 1) % 4)) -eq 2 ] && f=" features=fast"
	if [ "$i" -le 4 ]; then
		echo "$n$f" >> "$work/nodes"
	else
		echo "$n gres=rdma:2,hugepages:2m:512$f" >> "$work/nodes"
	fi
done
export FABSCHED_CLUSTER_NODES_FILE=$work/nodes
export FABSCHED_CLUSTER_GRES_TYPES=rdma,hugepages
export FABSCHED_CLUSTER_PREFIX=n


# job_records ID: "JobState NodeList" of every record of the job (array
# tasks and het components included)
job_records() {
	scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' |
		awk -F= '$1 == "JobState" { s = $2 } $1 == "NodeList" { print s, $2 }'
}

# racks_of NODELIST: distinct racks
racks_of() {
	local n
	for n in $(scontrol show hostnames "$1" 2>/dev/null); do
		echo "${RACK_OF[$n]:-?}"
	done | sort -u | wc -l
}

# ended_or_never ID: the job has left the queue, or it pends for a reason
# its partition will never lift (more than the partition holds)
ended_or_never() {
	local r
	r=$(squeue -h -j "$1" -o %r 2>/dev/null)
	[ -z "$r" ] || [[ $r =~ ^Partition(Config|NodeLimit|TimeLimit)$ ]]
}

# run_shape ARGS...: submit alone, wait until it ended; sets ACC (1/0),
# DONE (1 when every record COMPLETED), RACKS (most racks of a record),
# NODES (node lists)
run_shape() {
	local id i recs
	ACC=0 DONE=0 RACKS=- NODES=- WHY=-
	id=$(cl_sbatch -t 2 -o /dev/null "$@" --wrap 'srun true' 2>"$work/sbatch.err") || return 0
	[ -n "$id" ] || return 0
	ACC=1
	cl_poll "${WAIT:-60}" ended_or_never "$id"
	recs=$(job_records "$id")
	WHY=$(cl_job_field "$id" Reason)
	if [ -z "$(squeue -h -j "$id" -o %i 2>/dev/null)" ] && [ -n "$recs" ] &&
	   ! awk '$1 != "COMPLETED" { bad = 1 } END { exit !bad }' <<<"$recs"; then
		DONE=1
	fi
	scancel "$id" 2>/dev/null
	RACKS=$(while read -r _ nl; do racks_of "$nl"; done <<<"$recs" | sort -n | tail -1)
	NODES=$(awk '{ print $2 }' <<<"$recs" | sort -u | tr '\n' ' ')
	NODES=${NODES% }
}


# can_run NAME EXP: the shape can run on this cluster (pinned, or it fits)
can_run() { [ "$2" != - ] || [ "$1" = nodelist ]; }

# run_all LABEL: every shape; fills RES[label:name]="acc done racks nodes"
declare -A RES NEVER
run_all() {
	local name exp args filler t_shape
	while read -r name exp args; do
		filler=
		# a job that cannot run (nor is pinned) is not waited for long
		WAIT=60
		can_run "$name" "$exp" || WAIT=10
		if [ "$name" = shared ]; then
			# half of rack 1 busy: 2 cores of each of its nodes
			filler=$(cl_sbatch -t 2 -o /dev/null -w n001,n002,n003,n004 -n 8 \
				--ntasks-per-node=2 --mem-per-cpu=100 --wrap 'sleep 40')
		elif [ "$name" = spread ]; then
			filler=$(cl_sbatch -t 2 -o /dev/null -w n002 --exclusive --wrap 'sleep 40')
		fi
		[ -n "$filler" ] && cl_poll 20 cl_job_in "$filler" RUNNING
		if [ "$name" = reservation ]; then
			# racks 2 and 3 reserved for root, for this job only
			msg=$(scontrol create reservation reservationname=shapes users=root \
				nodes="n[005-012]" starttime=now duration=60 flags=ignore_jobs 2>&1) ||
				tap_diag "$1: reservation not created: $msg"
		fi
		t_shape=$SECONDS
		# shellcheck disable=SC2086
		run_shape $args
		tap_diag "$1: $name: $((SECONDS - t_shape)) s"
		[ "$name" = reservation ] && scontrol delete reservation=shapes >/dev/null 2>&1
		RES[$1:$name]="$ACC $DONE $RACKS $NODES"
		# a job the partition can never run: refused, or pending for good
		if { [ "$ACC" = 0 ] && grep -q 'configuration is not available' "$work/sbatch.err"; } ||
		   { [ "$ACC" = 1 ] && [[ $WHY =~ ^Partition(Config|NodeLimit|TimeLimit)$ ]]; }; then
			NEVER[$1:$name]=1
		fi
		[ "$DONE" = 1 ] || tap_diag "$1: $name: accepted=$ACC, not completed, reason $WHY $(cat "$work/sbatch.err")"
		[ -n "$filler" ] && { scancel "$filler"; cl_wait_job "$filler" 30 >/dev/null; }
	done <<<"$SHAPES"
}

# ------------------------------------------------------------ run 1: fabsched
plugdir=$work/plugins
mkdir -p "$plugdir"
rm -f "$plugdir"/*.so
# the placement plugins and fabsched.so; the gres here are count-only
# (stock's generic GRES on both runs)
for so in "$FABSCHED_BUILDDIR"/plugins/select/*/.libs/*.so \
	  "$FABSCHED_BUILDDIR"/plugins/topology/*/.libs/*.so \
	  "$FABSCHED_BUILDDIR"/plugins/spank/.libs/fabsched.so; do
	[ -f "$so" ] && cp "$so" "$plugdir/"
done
chmod 755 "$plugdir" "$plugdir"/*.so
printf 'required %s/fabsched.so\n' "$plugdir" > "$plugdir/plugstack.conf"
export FABSCHED_CLUSTER_PLUGIN_DIR=$plugdir
export FABSCHED_CLUSTER_PLUGSTACK=$plugdir/plugstack.conf
cat > "$work/fabsched.conf" <<EOF
FabricModel=$D/etc/fabric.json
PartitionName=batch Locality=rack LocalityWait=INFINITE
EOF
FABSCHED_CLUSTER_SELECT=$(fs_select_type) || tap_bail "no placement plugin in this build"
export FABSCHED_CLUSTER_SELECT
export FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=topology/fabric
export FABSCHED_CLUSTER_ETC_FILES="fabsched.conf=$work/fabsched.conf"
# 22.05: select/cons_tres_fabric reads what cons_tres has given out on a
# node from cons_tres's tables; DebugFlags=SelectType has it check each
# such count against cons_tres's own full recount, in slurmctld.log
if [ "$(fs_flavour)" = 22.05 ]; then
	echo DebugFlags=SelectType > "$work/extra.conf"
	export FABSCHED_CLUSTER_EXTRA_CONF=$work/extra.conf
fi
cl_up --fabric "$FABRIC"
tap_ok $? "cluster up: 16 nodes, $FABSCHED_CLUSTER_SELECT + topology/fabric (Slurm $(fs_flavour) flavour), Locality=rack LocalityWait=INFINITE" ||
	tap_bail "the cluster did not come up"
"$CL" fabric run timeout 60 "$FABSCHED_BUILDDIR/cli/fabsched" topo discover --live \
	-o "$D/etc/fabric.json" >"$work/discover.log" 2>&1 &&
	"$FABSCHED_BUILDDIR/cli/fabsched" topo export --model "$D/etc/fabric.json" \
		-o "$work/topology.conf" >>"$work/discover.log" 2>&1 ||
	tap_bail "fabric discovery failed: $(cat "$work/discover.log")"
scontrol reconfigure
# 24.11 restarts slurmctld to reconfigure: wait until it answers again
ctld_answers() { scontrol ping >/dev/null 2>&1; }	# slurmctld answers a ping
cl_poll 30 ctld_answers
load_racks "$work/topology.conf"
run_all fabsched

# --exclusive=topo (24.11 and later): the job's racks are its alone.  A
# 2-node job beside it would best fit the 2 nodes left in its rack.
rack_names() { for n in $(scontrol show hostnames "$1" 2>/dev/null); do echo "${RACK_OF[$n]:-?}"; done | sort -u | tr '\n' ' '; }
if [ "$(fs_flavour)" = 22.05 ]; then
	tap_skip "Slurm 22.05 has no --exclusive=topo" "exclusive topo: a job's rack is its alone"
else
	xa=$(cl_sbatch -N2 --exclusive=topo -t 2 -o /dev/null --wrap 'sleep 60')
	cl_poll 20 cl_job_in "$xa" RUNNING
	xb=$(cl_sbatch -N2 -t 2 -o /dev/null --wrap 'sleep 1')
	cl_wait_job "$xb" 60 >/dev/null
	ra=$(rack_names "$(cl_job_field "$xa" NodeList)")
	rb=$(rack_names "$(job_records "$xb" | awk '{ print $2; exit }')")
	tap_ok "[ -n \"\$ra\" ] && [ -n \"\$rb\" ] && [ \"\$ra\" != \"\$rb\" ] &&
		[ \$(wc -w <<<\"\$ra\") = 1 ]" \
		"exclusive topo: job $xa (-N2 --exclusive=topo) alone in rack $ra; job $xb (-N2) in rack $rb"
	scancel "$xa" 2>/dev/null
	cl_wait_job "$xa" 30 >/dev/null
fi
# The idle machine's tasks per node, which slurmctld's fabsched keeps per
# job shape from one decision to the next, follow a change of the
# partition: with one node of each rack taken out of it, no rack holds
# -n 16 (12 cores a rack), so the job must not wait for one
# (LocalityWait=INFINITE) but run on the fewest racks.  The shape runs
# first on the whole partition, so that its counts are kept.
log=$D/ctld/slurmctld.log
part_nodes=$(scontrol -o show partition batch | tr ' ' '\n' | sed -n 's/^Nodes=//p')
run_shape -n 16
scontrol update partitionname=batch nodes='n[001-003],n[005-007],n[009-011],n[013-015]'
run_shape -n 16
tap_ok "[ $DONE = 1 ] && [ $RACKS = 2 ]" \
	"partition change: -n 16 with 3 nodes a rack in the partition ran on $RACKS racks ($NODES), not waiting for a rack that no longer holds it"
[ "$DONE" = 1 ] || tap_diag "-n 16 after the partition change: $WHY"
scontrol update partitionname=batch nodes="$part_nodes"
# and the decisions took them: slurmctld's timing figures count the
# decisions that reused the counts; they are logged at a decision a minute
# or more after the first (a one-task job every 5 s until they are)
kept_logged() {
	grep -q "tasks per node: kept from an earlier decision" "$log" && return 0
	cl_sbatch -n 1 -t 1 -o /dev/null --wrap true >/dev/null
	return 1
}
CL_POLL_INTERVAL=5 cl_poll 75 kept_logged
kept=$(grep -o "tasks per node: kept from an earlier decision in [0-9]* of [0-9]*" "$log" | tail -1)
tap_ok "[[ \"$kept\" =~ in\ [1-9][0-9]*\ of ]]" \
	"the idle machine's tasks per node kept between decisions of one job shape (slurmctld.log: ${kept:-no count})"
if [ "$(fs_flavour)" = 22.05 ]; then
	# the shared shape asks about rack 1's nodes, each with 2 CPUs and
	# 200 MB given out to the job beside it
	same=$(grep -c 'MB given out, as cons_tres counts' "$log")
	busy=$(grep -c ': 2 CPUs and 200 MB given out, as cons_tres counts' "$log")
	differ=$(grep -c 'MB given out, cons_tres counts' "$log")
	tap_ok "[ $busy -gt 0 ] && [ $differ = 0 ]" \
		"22.05: what cons_tres gave out on a node, as fabsched reads it, equals cons_tres's full recount ($same checks, $busy on rack 1's shared nodes, $differ differ)"
	[ "$differ" = 0 ] || tap_diag "$(grep 'MB given out, cons_tres counts' "$log" | head -5)"
	unset FABSCHED_CLUSTER_EXTRA_CONF
fi
cl_down

# ------------------------------------------------------------ run 2: stock
STOCK=${FABSCHED_STOCK_COMPARE:-yes}
if [ "$STOCK" = no ]; then
	tap_skip "the stock comparison runs on 22.05 and the newest release (FABSCHED_STOCK_COMPARE=no)" \
		"cluster up: stock select/cons_tres + topology/tree (exported topology.conf)"
	while read -r name exp _; do
		if can_run "$name" "$exp"; then
			RES[stock:$name]="1 1 - -"
		elif [ -n "${NEVER[fabsched:$name]:-}" ]; then
			RES[stock:$name]="${RES[fabsched:$name]%% *} 0 - -"
		else
			RES[stock:$name]="refused-or-pending-for-good 0 - -"
		fi
	done <<<"$SHAPES"
else
	export FABSCHED_CLUSTER_SELECT=select/cons_tres
	export FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=topology/tree
	export FABSCHED_CLUSTER_TOPOLOGY_CONF=$work/topology.conf
	unset FABSCHED_CLUSTER_ETC_FILES FABSCHED_CLUSTER_PLUGSTACK FABSCHED_CLUSTER_PLUGIN_DIR
	cl_up --fabric "$FABRIC"
	tap_ok $? "cluster up: stock select/cons_tres + topology/tree (exported topology.conf)" ||
		tap_bail "the stock cluster did not come up"
	run_all stock
	cl_down
fi
# how fabsched's outcome is judged: against this run of stock, or against
# what stock does on 22.05 and the newest release
as_stock="as on stock"
[ "$STOCK" = no ] && as_stock="as stock does (stock runs on 22.05 and the newest release)"

# ------------------------------------------------------------ checks
table=$(printf '%-12s %-38s | %-5s %-24s | %-5s %s\n' shape "sbatch" "fab" "nodes" "stock" "nodes")
more_fab=0 more_stock=0
while read -r name exp args; do
	read -r fa fd fr fn <<<"${RES[fabsched:$name]}"
	read -r sa sd sr sn <<<"${RES[stock:$name]}"
	tap_is "$fa" "$sa" "$name ($args): accepted on fabsched $as_stock"
	tap_is "$fd" "$sd" "$name: COMPLETED on fabsched $as_stock"
	if [ "$exp" = - ]; then
		tap_ok true "$name: nodes not fabsched's choice (fabsched $fr racks, stock $sr)"
	else
		tap_is "$fr" "$exp" "$name: fabsched placed it on $exp rack(s), the fewest that hold it (stock: $sr)"
		[ "$fr" != - ] && [ "$fr" -gt "$exp" ] && more_fab=$((more_fab + 1))
		[ "$sr" != - ] && [ "$sr" -gt "$exp" ] && more_stock=$((more_stock + 1))
	fi
	table+=$'\n'$(printf '%-12s %-38s | %-5s %-24s | %-5s %s' "$name" "$args" \
		"$fr" "$fn" "$sr" "$sn")
done <<<"$SHAPES"
# --spread-job: one node per task, as stock spreads it
read -r _ _ _ sn <<<"${RES[fabsched:spread]}"
n=$(scontrol show hostnames "$sn" 2>/dev/null | wc -l)
tap_is "$n" 4 "spread: -n 4 --spread-job got 4 nodes ($sn), one per task"
table+=$'\n'"jobs on more racks than needed: fabsched $more_fab, stock $more_stock"
echo "$table" > "$work/side-by-side.txt"
tap_diag "$table"
tap_done
