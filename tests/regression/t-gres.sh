#!/bin/bash
# t-gres.sh - gres/rdma and gres/hugepages in a real Slurm cluster whose
# nodes emulate three real machines: each slurmd sees its own hwloc XML
# (tests/fixtures/hwloc) and its own sysfs tree (tests/fixtures/sysfs,
# given to each node's slurmd as FABSCHED_SYSFS_ROOT by the nodes file's
# env= key).  Asks slurmd -G, scontrol and the jobs
# themselves.  Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"

cl_require
if [ -z "${FABSCHED_BUILDDIR:-}" ]; then
	echo "1..0 # SKIP FABSCHED_BUILDDIR is not set: run through 'make check-cluster'"
	exit 0
fi
for so in gres_rdma gres_hugepages; do
	if [ ! -f "$FABSCHED_BUILDDIR/plugins/gres/.libs/$so.so" ]; then
		echo "1..0 # SKIP $so.so not built (configure --with-slurm-source)"
		exit 0
	fi
done
tap_plan 18
TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
FIX=$SRC/tests/fixtures
STAGE=${FABSCHED_GRES_TEST_DIR:-/var/lib/fabsched-test/gres}

# --- stage: plugins, sysfs trees per node, nodes file, configuration
rm -rf "$STAGE" && mkdir -p "$STAGE/plugins" "$STAGE/sysfs" "$STAGE/out" || tap_bail "cannot write $STAGE"
cp "$FABSCHED_BUILDDIR"/plugins/gres/.libs/gres_*.so "$STAGE/plugins/"
cp -r "$FIX/sysfs/lassen" "$STAGE/sysfs/n001"
cp -r "$FIX/sysfs/32em64t" "$STAGE/sysfs/n002"
cp -r "$FIX/sysfs/40intel64" "$STAGE/sysfs/n003"
cp -r "$FIX/sysfs/nohca" "$STAGE/sysfs/n004"
chmod -R a+rX "$STAGE"
chmod 1777 "$STAGE/out"
cat > "$STAGE/nodes" <<EOF
n001 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n001 xml=$FIX/hwloc/coral-lassen.xml gres=rdma:mlx5:3,hugepages:2m:512,hugepages:1g:8 memory=8000
n002 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n002 xml=$FIX/hwloc/32em64t-2n8c+1mic.xml gres=rdma:mlx4:1,hugepages:2m:1024 memory=8000
n003 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n003 xml=$FIX/hwloc/40intel64-2g2n4c+pci.xml gres=rdma:qib:1,hugepages:2m:1024,hugepages:1g:8 memory=8000
n004 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n004 sockets=1 cores=4 threads=1 gres=hugepages:2m:128 memory=2000
EOF
printf 'SlurmdDebug=verbose\nDebugFlags=Gres\n' > "$STAGE/extra.conf"
cat > "$STAGE/prolog" <<EOF
#!/bin/sh
echo "job=\$SLURM_JOB_ID node=\$(hostname) hugepages=\$FABSCHED_HUGEPAGES count=\$FABSCHED_HUGEPAGES_COUNT rdma=\$FABSCHED_RDMA_DEVICES" >> $STAGE/out/prolog.\$SLURM_JOB_ID
exit 0
EOF
chmod 755 "$STAGE/prolog"

# 1
cl_up --nodes-file "$STAGE/nodes" --plugin-dir "$STAGE/plugins" \
	--gres-types rdma,hugepages --extra-conf "$STAGE/extra.conf" \
	--prolog "$STAGE/prolog"
tap_ok $? "cluster up: 4 nodes emulating lassen, 32em64t, 40intel64 and a node without HCA" ||
	tap_bail "the cluster did not come up"
D=$FABSCHED_CLUSTER_DIR

# 2-5: slurmd -G on each emulated machine (records as slurmd builds them)
gres_lines() {	# node xml tree: "Name Type Count [File=] [Cores=]" per record
	env HWLOC_XMLFILE="$2" FABSCHED_SYSFS_ROOT="$3" slurmd -G -N "$1" -f "$SLURM_CONF" 2>&1 |
		grep 'Gres Name=' | tr ' ' '\n' |
		awk '/^Name=/ { if (l) print l; l = substr($0, 6) } /^(Type|Count)=/ { l = l " " substr($0, index($0, "=") + 1) }
		     /^(File|Cores)=/ { l = l " " $0 } END { if (l) print l }'
}
got=$(gres_lines n001 "$FIX/hwloc/coral-lassen.xml" "$STAGE/sysfs/n001")
want="rdma mlx5 1 File=/dev/infiniband/uverbs0 Cores=0-19
rdma mlx5 1 File=/dev/infiniband/uverbs1 Cores=0-19
rdma mlx5 1 File=/dev/infiniband/uverbs2 Cores=20-35
hugepages 2m 256 File=/sys/devices/system/node/node0/hugepages/hugepages-2048kB Cores=0-19
hugepages 1g 4 File=/sys/devices/system/node/node0/hugepages/hugepages-1048576kB Cores=0-19
hugepages 2m 256 File=/sys/devices/system/node/node8/hugepages/hugepages-2048kB Cores=20-35
hugepages 1g 4 File=/sys/devices/system/node/node8/hugepages/hugepages-1048576kB Cores=20-35"
tap_is "$got" "$want" "slurmd -G on lassen: 3 mlx5 (mlx5_3 port DOWN left out), 2m and 1g per NUMA node"
got=$(gres_lines n002 "$FIX/hwloc/32em64t-2n8c+1mic.xml" "$STAGE/sysfs/n002")
want="rdma mlx4 1 File=/dev/infiniband/uverbs0 Cores=8-15
hugepages 2m 512 File=/sys/devices/system/node/node0/hugepages/hugepages-2048kB Cores=0-7
hugepages 2m 512 File=/sys/devices/system/node/node1/hugepages/hugepages-2048kB Cores=8-15"
tap_is "$got" "$want" "slurmd -G on 32em64t: mlx4 on NUMA 1, 2m only (no 1g pool)"
# 40intel64: Slurm numbers sockets in hwloc's package order (P#0 P#2 P#1 P#3),
# so NUMA 1 and 3 are cores 20-39; 1032 pages exceed 22.05's 1024 indexed
# units: counts without File/Cores
got=$(gres_lines n003 "$FIX/hwloc/40intel64-2g2n4c+pci.xml" "$STAGE/sysfs/n003")
want="rdma qib 1 File=/dev/infiniband/uverbs0 Cores=20-39
hugepages 2m 256
hugepages 1g 2
hugepages 2m 256
hugepages 1g 2
hugepages 2m 256
hugepages 1g 2
hugepages 2m 256
hugepages 1g 2"
tap_is "$got" "$want" "slurmd -G on 40intel64: qib spanning NUMA 1 and 3 gets both nodes' cores; pages as counts"
log=$D/nodes/n002/slurmd.log
tap_ok "grep -q 'gres/rdma: autodetected 1 record' '$log'" "slurmd n002 autodetected its HCA"
grep -q 'mlx5_3 port 1 is DOWN (physical state Disabled): not counted' "$D/nodes/n001/slurmd.log"
tap_ok $? "slurmd n001 logged mlx5_3 port 1 DOWN with its physical state"

# 6-7: the controller's view
g1=$(scontrol -o show node n001 | tr ' ' '\n' | sed -n 's/^Gres=//p')
tap_is "$g1" "rdma:mlx5:3(S:0-1),hugepages:2m:512(S:0-1),hugepages:1g:8(S:0-1)" "scontrol show node n001: Gres"
g4=$(scontrol -o show node n004 | tr ' ' '\n' | sed -n 's/^Gres=//p')
tap_ok "grep -q 'hugepages:2m:128' <<<'$g4'" "node without HCA: hugepages only ($g4)"

# 8-11: a job with --gres=rdma:1 on n002: cores of NUMA 1, variables in every task
cat > "$STAGE/out/env.sh" <<'EOF'
#!/bin/sh
echo "task=$SLURM_PROCID node=$(hostname) ucx=$UCX_NET_DEVICES nccl=$NCCL_IB_HCA ompi=$OMPI_MCA_btl_openib_if_include devs=$FABSCHED_RDMA_DEVICES huge=$FABSCHED_HUGEPAGES"
EOF
chmod 755 "$STAGE/out/env.sh"
id=$(cl_sbatch --user "$TUSER" -J rdma1 -w n002 -n 2 -t 5 --gres=rdma:1 --gres-flags=enforce-binding \
	-o rdma-%j.out --wrap "srun --gpu-bind=verbose,none $STAGE/out/env.sh")
cl_wait_job "$id" 120
tap_ok $? "job $id --gres=rdma:1 -n 2 on n002 COMPLETED"
cpus=$(scontrol -d show job "$id" | sed -n 's/.*CPU_IDs=\([^ ]*\).*/\1/p' | head -1)
tap_ok "[ -n '$cpus' ] && [ \"\$(printf '%s\n' \$(echo '$cpus' | tr ',' ' ') | awk -F- '{ a=\$1; b=(\$2==\"\"?\$1:\$2); if (a<8||b>15) bad=1 } END { print bad+0 }')\" = 0 ]" \
	"job $id got cores local to mlx4_0 (NUMA 1 = CPUs 8-15): CPU_IDs=$cpus"
out=$(cl_job_output "$id")
n=$(grep -c '^task=.* ucx=mlx4_0:1 nccl==mlx4_0:1 ompi=mlx4_0:1 devs=mlx4_0 ' "$out" 2>/dev/null)
tap_is "$n" 2 "both tasks: UCX_NET_DEVICES, NCCL_IB_HCA, OMPI_MCA_btl_openib_if_include, FABSCHED_RDMA_DEVICES" ||
	tap_diag "$(cat "$out" 2>/dev/null)"
# job (batch step) environment too
id2=$(cl_sbatch --user "$TUSER" -J rdmab -w n002 -n 1 -t 5 --gres=rdma:1 -o rdmab-%j.out \
	--wrap 'echo "ucx=$UCX_NET_DEVICES devs=$FABSCHED_RDMA_DEVICES"')
cl_wait_job "$id2" 120
tap_is "$(cat "$(cl_job_output "$id2")" 2>/dev/null)" "ucx=mlx4_0:1 devs=mlx4_0" "batch script environment of job $id2"

# 12-13: two HCAs on lassen, one per task
id=$(cl_sbatch --user "$TUSER" -J rdma2 -w n001 -n 4 -t 5 --gres=rdma:2 -o rdma2-%j.out \
	--wrap "srun --gpu-bind=verbose,none $STAGE/out/env.sh")
cl_wait_job "$id" 120
tap_ok $? "job $id --gres=rdma:2 -n 4 on n001 COMPLETED"
out=$(cl_job_output "$id")
devs=$(sed -n 's/.* devs=\([^ ]*\) .*/\1/p' "$out" | sort -u)
ucx=$(sed -n 's/.* ucx=\([^ ]*\) .*/\1/p' "$out" | sort | uniq -c | awk '{ print $1 }' | tr '\n' ' ')
tap_ok "[ \"\$(echo '$devs' | tr ',' '\n' | wc -l)\" = 2 ] && [ '$ucx' = '2 2 ' ]" \
	"each task got one of the job's 2 HCAs ($devs), spread 2+2 (got counts: $ucx)" ||
	tap_diag "$(cat "$out" 2>/dev/null)"

# 14-15: hugepages per NUMA node, in the job and in the prolog
id=$(cl_sbatch --user "$TUSER" -J huge -w n002 -n 1 -t 5 --gres=hugepages:2m:100 -o huge-%j.out \
	--wrap 'echo "huge=$FABSCHED_HUGEPAGES count=$FABSCHED_HUGEPAGES_COUNT"')
cl_wait_job "$id" 120
got=$(cat "$(cl_job_output "$id")" 2>/dev/null)
tap_ok "grep -Eq '^huge=2m:[01]=100 count=100\$' <<<'$got'" "job $id: FABSCHED_HUGEPAGES names the NUMA node ($got)"
got=$(cat "$STAGE/out/prolog.$id" 2>/dev/null)
tap_ok "grep -Eq 'hugepages=2m:[01]=100 count=100' <<<'$got'" "prolog of job $id got the per-NUMA allocation ($got)"

# 16-17: more hugepages than any node holds: refused at submission
msg=$(cd "$(cl_jobdir "$TUSER")" && timeout 30 su -s /bin/sh "$TUSER" -c \
	"sbatch -t 1 --gres=hugepages:2m:100000 --wrap true" 2>&1)
rc=$?
tap_ok "[ $rc -ne 0 ]" "sbatch --gres=hugepages:2m:100000 refused (exit $rc)"
tap_ok "grep -qi 'not available' <<<'$msg'" "with a message: $msg"

tap_done
