#!/bin/bash
# The demo: build everything, start a 16-node Slurm cluster on this machine
# with every fabsched plugin and a simulated InfiniBand fabric (4 leaf
# switches of 4 hosts under 2 spines), discover the fabric into fabsched's
# model, run MPI jobs with srun --mpi=pmix, print where every rank landed
# (which racks), unplug a cable and let fabsched topo watch drain the node
# and resume it when the cable is back, show what fabsched decided for two
# jobs (fabsched job), the racks (fabsched show, also as an HTML page) and
# its figures (fabsched metrics), and stop the cluster.
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
fs_stage_plugins "$plugdir" && fs_plugin_env "$plugdir" || { echo "demo: no plugins built" >&2; exit 1; }
export FABSCHED_CLUSTER_GRES="rdma:1,hugepages:2m:64"
# fabsched.conf: the model's path, and rack-local placement for partition batch
cat > "$plugdir/fabsched.conf" <<CONF
FabricModel=$D/etc/fabric.json
PartitionName=batch Locality=rack LocalityWait=INFINITE
CONF
export FABSCHED_CLUSTER_ETC_FILES="fabsched.conf=$plugdir/fabsched.conf"

echo "== starting the cluster"
# cl_up stops the cluster again when this script exits, however it exits
cl_up --nodes 16 --prefix n --fabric "leaves=4,hosts=4,spines=2" || exit 1
tap_diag() { sed 's/^/  /' <<<"$*"; }

echo "== discovering the fabric (libibnetdisc on the simulated fabric)"
"$CL" fabric run timeout 60 "$fab" topo discover -o "$D/etc/fabric.json" || exit 1
# the model named by FabricModel exists now: fabsched.conf checks whole
"$fab" config check --conf "$plugdir/fabsched.conf" || exit 1
"$fab" topo check --model "$D/etc/fabric.json" | sed 's/^/  /'
echo "== Slurm reads the model (scontrol reconfigure; scontrol show topology)"
scontrol reconfigure
sleep 2
scontrol show topology | sed 's/^/  /'
declare -A leaf_of
while read -r sw nodes; do
	for h in $(scontrol show hostnames "$nodes"); do leaf_of[$h]=$sw; done
done < <(scontrol show topology | sed -n 's/^SwitchName=\([^ ]*\) .*Nodes=\([^ ]*\).*/\1 \2/p' | grep -v ' n\[001-016\]$')
echo "SelectType=$(scontrol show config | sed -n 's/^SelectType *= *//p')" \
     "TopologyPlugin=$(scontrol show config | sed -n 's/^TopologyPlugin *= *//p')" \
     "GresTypes=$(scontrol show config | sed -n 's/^GresTypes *= *//p')"

# Jobs run as root here: with every node on one host, Slurm 22.05's PMIx
# direct connections can be refused while a slurmstepd has dropped
# privileges to the job's user (see tests/regression/t-placement.sh); the
# tests cover MPI jobs of an unprivileged user.
DEMO_USER=${FABSCHED_DEMO_USER:-root}
echo "== submitting MPI jobs as user $DEMO_USER"
ids=()
for spec in "3 6" "2 4" "4 8" "3 3" "6 6" "2 2"; do
	set -- $spec
	id=$(cl_sbatch --user "$DEMO_USER" -J "mpi-$1x$2" -N "$1" -n "$2" -t 5 --exclusive \
		-o "demo-%j.out" --wrap "srun --mpi=pmix $FABSCHED_MPI_HELLO && sleep 3") ||
		{ echo "sbatch failed"; exit 1; }
	echo "  job $id: srun --mpi=pmix -N $1 -n $2 mpi_hello"
	ids+=("$id")
done

echo "== where they landed"
rc=0
for id in "${ids[@]}"; do
	cl_wait_job "$id" 180 >/dev/null
	st=$CL_JOB_STATE
	out=$(cl_job_output "$id")
	nl=$(cl_job_field "$id" NodeList)
	leaves=$(for h in $(scontrol show hostnames "$nl"); do echo "${leaf_of[$h]:-?}"; done | sort -u | tr '\n' ' ')
	printf '  job %s %-8s %-9s nodes=%-14s racks=%s\n' "$id" "$(cl_job_field "$id" JobName)" "$st" "$nl" "$leaves"
	awk '/^rank=/ { split($3, n, "="); split($5, a, "="); r[n[2]] = r[n[2]] " " substr($1, 6); t[n[2]] = a[2] }
	     /^allreduce=/ { x = $0 }
	     END { for (h in r) printf "      %-5s %-22s ranks%s\n", h, t[h], r[h]; if (x) print "      " x }' \
		"$out" 2>/dev/null | sort
	[ "$st" = COMPLETED ] || rc=1
done

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
watch_once
sleep 1
echo "  n006: $(node_line n006)"
echo "  n006 features: $(scontrol -o show node n006 | sed -n 's/.*AvailableFeatures=\([^ ]*\).*/\1/p')"

# What fabsched decided and why, and the racks as they are now: a job
# that runs while they are shown, and the first MPI job, ended
echo "== what fabsched decided (fabsched job), the racks (fabsched show), the figures (fabsched metrics)"
long=$(cl_sbatch --user "$DEMO_USER" -J hold-3 -N 3 -t 5 --exclusive -o /dev/null --wrap "sleep 60")
for _ in $(seq 1 40); do [ "$(cl_job_field "$long" JobState)" = RUNNING ] && break; sleep 0.5; done
"$fab" job "$long" --conf "$plugdir/fabsched.conf" | sed 's/^/  /'
"$fab" job "${ids[0]}" --conf "$plugdir/fabsched.conf" | sed 's/^/  /'
"$fab" show --conf "$plugdir/fabsched.conf" | sed 's/^/  /'
page=$plugdir/racks.html
"$fab" show --conf "$plugdir/fabsched.conf" --html "$page" && echo "  the same as a page: $page"
"$fab" metrics --conf "$plugdir/fabsched.conf" | grep -E '^fabsched_(jobs|locality_share|fabric_(racks|links_degraded))' | sed 's/^/  /'
scancel "$long"
exit $rc
