#!/bin/bash
# The demo: build everything, start an 8-node Slurm cluster on this machine
# with every fabsched plugin and a simulated InfiniBand fabric (2 leaf
# switches of 4 hosts under one spine), run MPI jobs with srun --mpi=pmix,
# print where every rank landed, and stop the cluster.
#
# Usage (root, Debian 12): scripts/demo.sh
# Environment: FABSCHED_BUILD (build dir, default ./build),
#              FABSCHED_CLUSTER_DIR (cluster state, default /var/lib/fabsched-demo).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh"

export FABSCHED_BUILDDIR=${FABSCHED_BUILD:-$top/build}
export FABSCHED_SRCDIR=$top
export FABSCHED_CLUSTER_DIR=${FABSCHED_CLUSTER_DIR:-/var/lib/fabsched-demo}
# shellcheck source=../tests/cluster/lib.sh
. "$top/tests/cluster/lib.sh"
# shellcheck source=../tests/regression/fabsched-plugins.sh
. "$top/tests/regression/fabsched-plugins.sh"
set +e

plugdir=/var/lib/fabsched-demo-plugins
fs_stage_plugins "$plugdir" && fs_plugin_env "$plugdir" || { echo "demo: no plugins built" >&2; exit 1; }
export FABSCHED_CLUSTER_GRES="rdma:1,hugepages:2m:64"

echo "== starting the cluster"
# cl_up stops the cluster again when this script exits, however it exits
cl_up --nodes 8 --prefix n --fabric "leaves=2,hosts=4,spines=1" || exit 1
echo "SelectType=$(scontrol show config | sed -n 's/^SelectType *= *//p')" \
     "TopologyPlugin=$(scontrol show config | sed -n 's/^TopologyPlugin *= *//p')" \
     "GresTypes=$(scontrol show config | sed -n 's/^GresTypes *= *//p')"

echo "== the fabric, as ibnetdiscover finds it"
# switch -> attached hosts, read from the simulated fabric itself
fabric=$("$CL" fabric discover 2>/dev/null | awk '
	/^Switch/ { split($0, q, "\""); sw = q[4] }
	/^\[/ && sw != "" && /"H-/ { split($0, q, "\""); split(q[4], w, " "); print w[1], sw }
	/^$/ { sw = "" }')
awk '{ h[$2] = h[$2] " " $1 } END { for (s in h) print "  " s ":" h[s] }' <<<"$fabric" | sort
declare -A leaf_of
while read -r h s; do leaf_of[$h]=$s; done <<<"$fabric"

echo "== submitting MPI jobs as user ${FABSCHED_CLUSTER_USER:-fabtest}"
ids=()
for spec in "2 4" "4 8" "3 3" "8 16"; do
	set -- $spec
	id=$(cl_sbatch --user "${FABSCHED_CLUSTER_USER:-fabtest}" -J "mpi-$1x$2" -N "$1" -n "$2" -t 5 \
		-o "demo-%j.out" --wrap "srun --mpi=pmix $FABSCHED_MPI_HELLO") || { echo "sbatch failed"; exit 1; }
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
	printf '  job %s %-10s %-9s nodes=%-12s leaves=%s\n' "$id" "$(cl_job_field "$id" JobName)" "$st" "$nl" "$leaves"
	awk '/^rank=/ { split($3, n, "="); r[n[2]] = r[n[2]] " " substr($1, 6) } /^allreduce=/ { a = $0 }
	     END { for (h in r) printf "      %s ranks%s\n", h, r[h]; if (a) print "      " a }' "$out" 2>/dev/null | sort
	[ "$st" = COMPLETED ] || rc=1
done
exit $rc
