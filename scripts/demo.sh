#!/bin/bash
# The demo: build everything, then on this machine run the same MPI job mix
# on two 16-node Slurm clusters over one fabric (4 racks of 4 nodes, each
# rack a leaf switch, 2 spines), loaded so that no rack has room for the
# bigger jobs at first:
#   1. stock Slurm: select/cons_tres with topology/tree on the tree fabsched
#      exports from that fabric (the strongest stock setup: best-fit leaf);
#   2. fabsched: every plugin, the fabric discovered from a simulated
#      InfiniBand fabric (ibsim) into fabsched's model, partition batch
#      with Locality=rack LocalityWait=2:00;
# and print side by side the racks each job got and how long it waited.
# Then the fabric changes: a cable is unplugged, fabsched topo watch drains
# the node and resumes it when the cable is back; and what fabsched decided
# for a job (fabsched job), the racks (fabsched show, also as an HTML page)
# and its figures (fabsched metrics).  Every cluster is stopped at the end.
#
# Usage (root, Debian 12): scripts/demo.sh [--slurm 24.11.5|25.11.7|26.05.3]
#   without --slurm, Debian 12's Slurm 22.05; with it, that Slurm release built
#   from source once (scripts/slurm-build.sh, cached), where topology/fabric
#   places the jobs.
# Environment: FABSCHED_BUILD (build dir, default ./build or
#              ./build-slurm-MAJOR.MINOR), FABSCHED_CLUSTER_DIR (cluster state,
#              default /var/lib/fabsched-demo).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in
"") FABSCHED_BUILDDIR=$("$top/scripts/build.sh" | tail -n 1) ;;
--slurm)
	[ $# -eq 2 ] || { echo "usage: $0 [--slurm 24.11.5|25.11.7|26.05.3]" >&2; exit 2; }
	FABSCHED_BUILDDIR=$("$top/scripts/build.sh" --slurm "$2" | tail -n 1)
	FABSCHED_CLUSTER_SLURM_PREFIX=$(sed -n 's/^SLURM_PREFIX = //p' "$FABSCHED_BUILDDIR/Makefile")
	export FABSCHED_CLUSTER_SLURM_PREFIX ;;
*) echo "usage: $0 [--slurm 24.11.5|25.11.7|26.05.3]" >&2; exit 2 ;;
esac

export FABSCHED_BUILDDIR
export FABSCHED_SRCDIR=$top
export FABSCHED_CLUSTER_DIR=${FABSCHED_CLUSTER_DIR:-/var/lib/fabsched-demo}
# shellcheck source=../tests/cluster/lib.sh
. "$top/tests/cluster/lib.sh"
# shellcheck source=../tests/regression/fabsched-plugins.sh
. "$top/tests/regression/fabsched-plugins.sh"
set +e
fab=$FABSCHED_BUILDDIR/cli/fabsched
D=$FABSCHED_CLUSTER_DIR

plugdir=/var/lib/fabsched-demo-plugins
fs_stage_plugins "$plugdir" || { echo "demo: no plugins built" >&2; exit 1; }
mkdir -p "$plugdir/work"
FABRIC="leaves=4,hosts=4,spines=2"
# Jobs run as root here: with every node on one host, Slurm 22.05's PMIx
# direct connections can be refused while a slurmstepd has dropped
# privileges to the job's user (see tests/regression/t-placement.sh); the
# tests cover MPI jobs of an unprivileged user.
DEMO_USER=${FABSCHED_DEMO_USER:-root}
rc=0

echo "== the fabric: 16 nodes n001-n016, 4 racks (leaf switches) of 4, 2 spines"
"$top/tests/cluster/fabric-gen" --prefix n --leaves 4 --hosts-per-leaf 4 --spines 2 \
	-o "$plugdir/work/net" >/dev/null || exit 1
"$fab" topo discover --nodelist 'n[001-016]' -o "$plugdir/work/fabric.json" "$plugdir/work/net" || exit 1
"$fab" topo export --model "$plugdir/work/fabric.json" -o "$plugdir/work/topology.conf" || exit 1
echo "  the tree fabsched exports from it (topology.conf for stock topology/tree):"
grep '^SwitchName' "$plugdir/work/topology.conf" | sed 's/^/    /'
# the harness's notes, indented (lib.sh prints them through tap_diag)
# shellcheck disable=SC2317
tap_diag() { sed 's/^/  /' <<<"$*"; }

# The job mix, the same on both clusters.  Fillers pinned with -w keep two
# nodes of every rack busy (rack leaf01 for 20 s, the others for 40 s); then
# four MPI jobs, two of which fit a rack but find no rack with room.
MIX=("mpi-a 2 4" "mpi-b 4 8" "mpi-c 2 2" "mpi-d 3 6")
FILL=("n[001-002] 20" "n[005-006] 40" "n[009-010] 40" "n[013-014] 40")
epoch() { date -d "$1" +%s 2>/dev/null || echo 0; }
racks_of() { for h in $(scontrol show hostnames "$1"); do echo "${RACK_OF[$h]:-?}"; done | sort -u | tr '\n' ' ' | sed 's/ $//'; }
# run_mix OUT: submit the mix, say each submission, wait for it; one line
# per MPI job in OUT: name nodes racks wait(s) state
run_mix() {
	local out=$1 spec fid fids=() ids=() id name st wait racks nl i w secs nn nt
	: > "$out"
	for spec in "${FILL[@]}"; do
		read -r w secs <<<"$spec"
		fid=$(cl_sbatch --user "$DEMO_USER" -J fill -w "$w" -N 2 -t 5 --exclusive -o /dev/null \
			--wrap "sleep $secs") || { echo "sbatch failed"; return 1; }
		echo "  job $fid fill      sbatch -w $w --exclusive: sleep $secs (keeps them busy)"
		fids+=("$fid")
	done
	for fid in "${fids[@]}"; do
		for _ in $(seq 1 40); do [ "$(cl_job_field "$fid" JobState)" = RUNNING ] && break; sleep 0.5; done
	done
	for spec in "${MIX[@]}"; do
		read -r name nn nt <<<"$spec"
		id=$(cl_sbatch --user "$DEMO_USER" -J "$name" -N "$nn" -n "$nt" -t 5 --exclusive \
			-o "demo-%j.out" --wrap "srun --mpi=pmix $FABSCHED_MPI_HELLO && sleep 10") ||
			{ echo "sbatch failed"; return 1; }
		echo "  job $id $(printf '%-9s' "$name") sbatch -N $nn -n $nt --exclusive: srun --mpi=pmix mpi_hello; sleep 10"
		ids+=("$id")
	done
	sleep 3
	echo "  3 s later, squeue:"
	squeue -h -o '%i %j %T %R' | sort -n | awk '{ printf "    job %-3s %-6s %-8s %s\n", $1, $2, $3, substr($0, index($0, $4)) }'
	for i in "${!ids[@]}"; do
		id=${ids[i]}
		cl_wait_job "$id" 240 >/dev/null
		st=$CL_JOB_STATE
		nl=$(cl_job_field "$id" NodeList)
		racks=$(racks_of "$nl")
		wait=$(($(epoch "$(cl_job_field "$id" StartTime)") - $(epoch "$(cl_job_field "$id" SubmitTime)")))
		read -r name _ <<<"${MIX[i]}"
		echo "$id $name $nl ${racks// /,} $wait $st" >> "$out"
		[ "$st" = COMPLETED ] || rc=1
	done
	scancel "${fids[@]}" 2>/dev/null
	return 0
}

echo "== 1. stock Slurm: select/cons_tres, topology/tree on that topology.conf"
(
	cl_up --nodes 16 --prefix n --select select/cons_tres --topology-plugin topology/tree \
		--topology-conf "$plugdir/work/topology.conf" >/dev/null || exit 1
	load_racks "$plugdir/work/topology.conf"
	echo "  SelectType=$(scontrol show config | sed -n 's/^SelectType *= *//p')" \
	     "TopologyPlugin=$(scontrol show config | sed -n 's/^TopologyPlugin *= *//p')"
	run_mix "$plugdir/work/stock.txt"
	exit $rc
) || rc=1

echo "== 2. fabsched: its plugins, the model discovered from the fabric, Locality=rack"
fs_plugin_env "$plugdir" || { echo "demo: no plugins built" >&2; exit 1; }
export FABSCHED_CLUSTER_GRES="rdma:1,hugepages:2m:64"
# fabsched.conf: the model's path, and rack-local placement for partition batch
cat > "$plugdir/fabsched.conf" <<CONF
FabricModel=$D/etc/fabric.json
PartitionName=batch Locality=rack LocalityWait=2:00
CONF
export FABSCHED_CLUSTER_ETC_FILES="fabsched.conf=$plugdir/fabsched.conf"
# cl_up stops the cluster again when this script exits, however it exits
cl_up --nodes 16 --prefix n --fabric "$FABRIC" >/dev/null || exit 1
load_racks "$plugdir/work/topology.conf"
# a subnet manager sweeps the fabric once (LIDs, so the watch reads the
# ports' error counters), as opensm does on a real one
"$CL" fabric sm >/dev/null 2>&1 || echo "  (no subnet manager here: the watch reads no error counters)"
echo "  discovering the fabric (libibnetdisc on the simulated fabric):"
"$CL" fabric run timeout 60 "$fab" topo discover -o "$D/etc/fabric.json" 2>&1 |
	grep -v 'ibwarn' | sed 's/^fabsched topo: /    /'
[ -s "$D/etc/fabric.json" ] || exit 1
# the model named by FabricModel exists now: fabsched.conf checks whole
"$fab" config check --conf "$plugdir/fabsched.conf" || exit 1
"$fab" topo check --model "$D/etc/fabric.json" | sed 's/^/    /'
echo "  Slurm reads the model (scontrol reconfigure; scontrol show topology):"
scontrol reconfigure
sleep 2
scontrol show topology | sed 's/^/    /'
echo "  SelectType=$(scontrol show config | sed -n 's/^SelectType *= *//p')" \
     "TopologyPlugin=$(scontrol show config | sed -n 's/^TopologyPlugin *= *//p')" \
     "GresTypes=$(scontrol show config | sed -n 's/^GresTypes *= *//p')"
run_mix "$plugdir/work/fabsched.txt" || exit 1
echo "  where fabsched's MPI ranks ran:"
while read -r id name _; do
	echo "    job $id $name: $(grep -h '^allreduce=' "$(cl_job_output "$id")" 2>/dev/null)"
	awk '/^rank=/ { split($1, r, "="); split($3, n, "="); split($5, t, "="); print n[2], r[2], t[2] }' \
		"$(cl_job_output "$id")" 2>/dev/null | sort -k1,1 -k2,2n |
		awk '{ if ($1 != h) { if (h != "") print line; h = $1; line = sprintf("      %-5s %-22s ranks", $1, $3) } line = line " " $2 }
		     END { if (h != "") print line }'
done < "$plugdir/work/fabsched.txt"

echo "== side by side: the racks each MPI job got and how long it waited (s)"
printf '  %-6s %-6s | %-14s %5s | %-14s %5s\n' job nodes "stock racks" wait "fabsched racks" wait
fits=0 one_stock=0 one_fab=0 wait_stock=0 wait_fab=0
for spec in "${MIX[@]}"; do
	read -r name n _ <<<"$spec"
	read -r _ _ _ rs ws _ < <(grep " $name " "$plugdir/work/stock.txt")
	read -r _ _ _ rf wf _ < <(grep " $name " "$plugdir/work/fabsched.txt")
	printf '  %-6s %-6s | %-14s %5s | %-14s %5s\n' "$name" "$n" "${rs:-?}" "${ws:-?}" "${rf:-?}" "${wf:-?}"
	if [ "$n" -le 4 ]; then
		fits=$((fits + 1))
		[[ ${rs:-,} != *,* ]] && one_stock=$((one_stock + 1))
		[[ ${rf:-,} != *,* ]] && one_fab=$((one_fab + 1))
	fi
	wait_stock=$((wait_stock + ${ws:-0})) wait_fab=$((wait_fab + ${wf:-0}))
done
echo "  jobs that fit a rack and got one rack: stock $one_stock of $fits, fabsched $one_fab of $fits"
echo "  their total wait: stock $wait_stock s, fabsched $wait_fab s: what rack locality cost here" \
     "(a job waits for a rack to free up, at most LocalityWait; the scheduler passes run" \
     "every 2 s on these clusters, so 0-2 s is the next pass on either)"

# The fabric as it changes: a cable fails, fabsched topo watch (one cycle
# here; the systemd unit runs it every FabricWatchInterval) drains the node,
# and resumes it when the cable is back.
node_line() { scontrol -o show node "$1" | sed -n 's/.*\(State=[^ ]*\).*/\1/p' | tr '\n' ' '
	scontrol -o show node "$1" | sed -n 's/.* Reason=\(.*\) \[.*/Reason=\1/p'; echo; }
watch_once() { "$CL" fabric run timeout 60 "$fab" topo watch --once --conf "$plugdir/fabsched.conf" 2>&1 |
	grep -v 'ibwarn\|compute nodes: the nodes of' | sed 's/^[^ ]* fabsched topo watch: /  watch: /'; }
echo "== the fabric changes: n006's cable unplugged (ibsim), fabsched topo watch"
watch_once >/dev/null	# the model as fabsched topo watch writes it (features too)
"$CL" fabric console 'Unlink "H-n006-mlx5_0"' || rc=1
watch_once
echo "  n006: $(node_line n006)"
echo "== the cable back"
"$CL" fabric console 'ReLink "H-n006-mlx5_0"' || rc=1
"$CL" fabric sm >/dev/null 2>&1	# the subnet manager sweeps the changed fabric
watch_once
sleep 1
echo "  n006: $(node_line n006)"
echo "  n006 features, for --constraint (rack_, pod_, plane_ and the model's names):" \
     "$(scontrol -o show node n006 | sed -n 's/.*AvailableFeatures=\([^ ]*\).*/\1/p')"

# What fabsched decided and why, and the racks as they are now: a job
# that runs while they are shown, and the MPI job that waited for a rack
echo "== what fabsched decided (fabsched job), the racks (fabsched show), the figures (fabsched metrics)"
long=$(cl_sbatch --user "$DEMO_USER" -J run-3 -N 3 -t 5 --exclusive -o /dev/null --wrap "sleep 60")
echo "  job $long run-3     sbatch -N 3 --exclusive: sleep 60 (runs while we look)"
for _ in $(seq 1 40); do [ "$(cl_job_field "$long" JobState)" = RUNNING ] && break; sleep 0.5; done
"$fab" job "$long" --conf "$plugdir/fabsched.conf" | sed 's/^/  /'
waited=$(sort -k5,5n "$plugdir/work/fabsched.txt" | tail -n 1 | cut -d' ' -f1)
[ -n "$waited" ] && "$fab" job "$waited" --conf "$plugdir/fabsched.conf" | sed 's/^/  /'
"$fab" show --conf "$plugdir/fabsched.conf" | sed 's/^/  /'
page=$plugdir/racks.html
"$fab" show --conf "$plugdir/fabsched.conf" --html "$page" && echo "  the same as a page: $page"
"$fab" metrics --conf "$plugdir/fabsched.conf" | grep -E '^fabsched_(jobs|locality_share|fabric_(racks|links_degraded))' | sed 's/^/  /'
scancel "$long"
exit $rc
