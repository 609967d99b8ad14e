#!/bin/bash
# t-gres.sh - gres/rdma and gres/hugepages in a real Slurm cluster whose
# nodes emulate three real machines: each slurmd sees its own hwloc XML
# (tests/fixtures/hwloc) and its own sysfs tree (tests/fixtures/sysfs,
# given to each node's slurmd as FABSCHED_SYSFS_ROOT by the nodes file's
# env= key).  Asks slurmd -G, scontrol and the jobs
# themselves.  Then a second cluster whose node emulates this machine's 2
# CPUs as 2 sockets (synthetic-2pkg-2numa.xml + sysfs/twosocket) with
# task/affinity, so that tasks are really bound: each task of a plain
# srun step gets the HCA of its socket (SPANK plugin), and 2 x 4096 2m
# pages (more than Slurm indexes per node) are still placed per NUMA node.
# Then a third whose node has RoCE HCAs (sysfs/roce: ConnectX-6 Dx ports on
# Ethernet with their GID tables and net devices) and a fabsched.conf with
# the RoCE keys: the records, slurmd's RoCE lines, and each task's GID
# index, net device, traffic class and service level.
# Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"

cl_require
cl_require_build plugins/gres/.libs/gres_rdma.so plugins/gres/.libs/gres_hugepages.so \
	plugins/spank/.libs/fabsched.so
tap_plan 37
TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
FIX=$SRC/tests/fixtures
STAGE=${FABSCHED_GRES_TEST_DIR:-/var/lib/fabsched-test/gres}

# --- stage: plugins, sysfs trees per node, nodes file, configuration
rm -rf "$STAGE" && mkdir -p "$STAGE/plugins" "$STAGE/sysfs" "$STAGE/out" || tap_bail "cannot write $STAGE"
cp "$FABSCHED_BUILDDIR"/plugins/gres/.libs/gres_*.so "$STAGE/plugins/"
cp "$FABSCHED_BUILDDIR"/plugins/spank/.libs/fabsched.so "$STAGE/plugins/"
printf 'required %s/fabsched.so\n' "$STAGE/plugins" > "$STAGE/plugstack.conf"
cp -r "$FIX/sysfs/lassen" "$STAGE/sysfs/n001"
cp -r "$FIX/sysfs/32em64t" "$STAGE/sysfs/n002"
cp -r "$FIX/sysfs/40intel64" "$STAGE/sysfs/n003"
cp -r "$FIX/sysfs/nohca" "$STAGE/sysfs/n004"
cp -r "$FIX/sysfs/twosocket" "$STAGE/sysfs/twosocket"
cp -r "$FIX/sysfs/roce" "$STAGE/sysfs/roce"
chmod -R a+rX "$STAGE"
chmod 1777 "$STAGE/out"
cat > "$STAGE/nodes" <<EOF
n001 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n001 xml=$FIX/hwloc/coral-lassen.xml gres=rdma:mlx5:3,hugepages:2m:512,hugepages:1g:8 memory=8000
n002 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n002 xml=$FIX/hwloc/32em64t-2n8c+1mic.xml gres=rdma:mlx4:1,hugepages:2m:1024 memory=8000
n003 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n003 xml=$FIX/hwloc/40intel64-2g2n4c+pci.xml gres=rdma:qib:1,hugepages:2mx2:512,hugepages:1g:8 memory=8000
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
	--prolog "$STAGE/prolog" --plugstack "$STAGE/plugstack.conf"
tap_ok $? "cluster up: 4 nodes emulating lassen, 32em64t, 40intel64 and a node without HCA" ||
	tap_bail "the cluster did not come up"
D=$FABSCHED_CLUSTER_DIR

# 2-5: slurmd -G on each emulated machine (records as slurmd builds them)
got=$(cl_gres_lines n001 "$FIX/hwloc/coral-lassen.xml" "$STAGE/sysfs/n001")
want="rdma mlx5 1 File=/dev/infiniband/uverbs0 Cores=0-19
rdma mlx5 1 File=/dev/infiniband/uverbs1 Cores=0-19
rdma mlx5 1 File=/dev/infiniband/uverbs2 Cores=20-35
hugepages 2m 256 File=/sys/devices/system/node/node0/hugepages/hugepages-2048kB Cores=0-19
hugepages 1g 4 File=/sys/devices/system/node/node0/hugepages/hugepages-1048576kB Cores=0-19
hugepages 2m 256 File=/sys/devices/system/node/node8/hugepages/hugepages-2048kB Cores=20-35
hugepages 1g 4 File=/sys/devices/system/node/node8/hugepages/hugepages-1048576kB Cores=20-35"
tap_is "$got" "$want" "slurmd -G on lassen: 3 mlx5 (mlx5_3 port DOWN left out), 2m and 1g per NUMA node"
got=$(cl_gres_lines n002 "$FIX/hwloc/32em64t-2n8c+1mic.xml" "$STAGE/sysfs/n002")
want="rdma mlx4 1 File=/dev/infiniband/uverbs0 Cores=8-15
hugepages 2m 512 File=/sys/devices/system/node/node0/hugepages/hugepages-2048kB Cores=0-7
hugepages 2m 512 File=/sys/devices/system/node/node1/hugepages/hugepages-2048kB Cores=8-15"
tap_is "$got" "$want" "slurmd -G on 32em64t: mlx4 on NUMA 1, 2m only (no 1g pool)"
# 40intel64: Slurm numbers sockets in hwloc's package order (P#0 P#2 P#1 P#3),
# so NUMA 1 and 3 are cores 20-39; 1032 pages exceed 22.05's 1024 indexed
# units: the 2m pages are counted in pairs (2mx2), still per NUMA node
got=$(cl_gres_lines n003 "$FIX/hwloc/40intel64-2g2n4c+pci.xml" "$STAGE/sysfs/n003")
h=/sys/devices/system/node
want="rdma qib 1 File=/dev/infiniband/uverbs0 Cores=20-39
hugepages 2mx2 128 File=$h/node0/hugepages/hugepages-2048kB Cores=0-9
hugepages 1g 2 File=$h/node0/hugepages/hugepages-1048576kB Cores=0-9
hugepages 2mx2 128 File=$h/node1/hugepages/hugepages-2048kB Cores=20-29
hugepages 1g 2 File=$h/node1/hugepages/hugepages-1048576kB Cores=20-29
hugepages 2mx2 128 File=$h/node2/hugepages/hugepages-2048kB Cores=10-19
hugepages 1g 2 File=$h/node2/hugepages/hugepages-1048576kB Cores=10-19
hugepages 2mx2 128 File=$h/node3/hugepages/hugepages-2048kB Cores=30-39
hugepages 1g 2 File=$h/node3/hugepages/hugepages-1048576kB Cores=30-39"
tap_is "$got" "$want" "slurmd -G on 40intel64: qib spanning NUMA 1 and 3 gets both nodes' cores; 1032 pages: 2m counted in pairs, per NUMA node"
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

# 12-13: two HCAs on lassen, through the gres plugin's own task hook (Slurm
# 22.05 calls it under --gpu-bind): lassen's CPUs (8-175) are not this
# machine's, so no task shares a CPU with an HCA and each gets both
id=$(cl_sbatch --user "$TUSER" -J rdma2 -w n001 -n 4 -t 5 --gres=rdma:2 -o rdma2-%j.out \
	--wrap "srun --gpu-bind=verbose,none $STAGE/out/env.sh")
cl_wait_job "$id" 120
tap_ok $? "job $id --gres=rdma:2 -n 4 on n001 COMPLETED"
out=$(cl_job_output "$id")
devs=$(sed -n 's/.* devs=\([^ ]*\) .*/\1/p' "$out" | sort | uniq -c | awk '{ print $1 " " $2 }')
ucx=$(sed -n 's/.* ucx=\([^ ]*\) .*/\1/p' "$out" | sort -u)
want_ucx=$(echo "${devs#4 }" | sed 's/,/:1,/; s/$/:1/')
tap_ok "[[ '$devs' =~ ^4\ mlx5_[0-2],mlx5_[0-2]\$ ]] && [ '$ucx' = '$want_ucx' ]" \
	"no task near an HCA: all 4 tasks got both of the job's HCAs ($devs; $ucx)" ||
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

# ---------------------------------------------------------------- second cluster
# 19-31: one node, this machine's CPUs 0 and 1 as two sockets, tasks bound
# by task/affinity; plain srun steps (no binding option: Slurm 22.05 does
# not call the gres task hook, the SPANK plugin chooses)
cl_down || tap_diag "first cluster: something survived"
X2=$FIX/hwloc/synthetic-2pkg-2numa.xml
T2=$STAGE/sysfs/twosocket
echo "n001 env=FABSCHED_SYSFS_ROOT=$T2 xml=$X2 gres=rdma:mlx5:2,hugepages:2mx8:1024 memory=4000" > "$STAGE/nodes2"
printf 'SlurmdDebug=verbose\nDebugFlags=Gres\nTaskPlugin=task/affinity\n' > "$STAGE/extra2.conf"
rm -f "$STAGE"/out/prolog.*
cl_up --nodes-file "$STAGE/nodes2" --plugin-dir "$STAGE/plugins" \
	--gres-types rdma,hugepages --extra-conf "$STAGE/extra2.conf" \
	--prolog "$STAGE/prolog" --plugstack "$STAGE/plugstack.conf"
tap_ok $? "cluster up: 1 node, 2 sockets of 1 CPU (this machine's), task/affinity" ||
	tap_bail "the second cluster did not come up"

# 20-22: the records
got=$(cl_gres_lines n001 "$X2" "$T2")
want="rdma mlx5 1 File=/dev/infiniband/uverbs0 Cores=0
rdma mlx5 1 File=/dev/infiniband/uverbs1 Cores=1
hugepages 2mx8 512 File=$h/node0/hugepages/hugepages-2048kB Cores=0
hugepages 2mx8 512 File=$h/node1/hugepages/hugepages-2048kB Cores=1"
tap_is "$got" "$want" "slurmd -G on twosocket: an HCA per socket; 2 x 4096 2m pages in units of 8, per NUMA node"
g1=$(scontrol -o show node n001 | tr ' ' '\n' | sed -n 's/^Gres=//p')
tap_is "$g1" "rdma:mlx5:2(S:0-1),hugepages:2mx8:1K(S:0-1)" "scontrol show node n001: Gres (1024 units shown as 1K)"
msg=$(cd "$(cl_jobdir "$TUSER")" && timeout 30 su -s /bin/sh "$TUSER" -c \
	"sbatch -t 1 --gres=hugepages:2m:8 --wrap true" 2>&1)
rc=$?
tap_ok "[ $rc -ne 0 ] && grep -qi 'not available' <<<'$msg'" \
	"a request for type 2m where the node counts 2mx8 is refused at submission (exit $rc: $msg)"

# 23-27: a 2-task step, plain srun --mpi=pmix: each task the HCA of its CPU
cat > "$STAGE/out/env2.sh" <<'EOF'
#!/bin/sh
echo "task=$SLURM_PROCID cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status) ucx=$UCX_NET_DEVICES nccl=$NCCL_IB_HCA ompi=$OMPI_MCA_btl_openib_if_include devs=$FABSCHED_RDMA_DEVICES loc=$FABSCHED_RDMA_LOCALITY huge=$FABSCHED_HUGEPAGES count=$FABSCHED_HUGEPAGES_COUNT"
EOF
chmod 755 "$STAGE/out/env2.sh"
id=$(cl_sbatch --user "$TUSER" -J near -w n001 -n 2 -t 5 --gres=rdma:2 -o near-%j.out \
	--wrap "echo \"batch ucx=\$UCX_NET_DEVICES loc=\$FABSCHED_RDMA_LOCALITY\"; srun --mpi=pmix $STAGE/out/env2.sh | sort")
cl_wait_job "$id" 120
tap_ok $? "job $id --gres=rdma:2 -n 2, srun --mpi=pmix (no --gpu-bind) COMPLETED"
out=$(cl_job_output "$id")
got=$(sed -n 's/^task=[01] //p' "$out" 2>/dev/null | sed 's/ huge=.*//' | sort)
loc="mlx5_0:1=0;mlx5_1:1=1"
want="cpus=0 ucx=mlx5_0:1 nccl==mlx5_0:1 ompi=mlx5_0:1 devs=mlx5_0 loc=$loc
cpus=1 ucx=mlx5_1:1 nccl==mlx5_1:1 ompi=mlx5_1:1 devs=mlx5_1 loc=$loc"
tap_is "$got" "$want" "task on CPU 0 (NUMA 0) gets mlx5_0, task on CPU 1 (NUMA 1) gets mlx5_1: all four variables" ||
	tap_diag "$(cat "$out" 2>/dev/null)"
tap_is "$(grep '^batch' "$out" 2>/dev/null)" "batch ucx=mlx5_0:1,mlx5_1:1 loc=$loc" \
	"the batch script keeps both HCAs and their locality"
# one task while the other CPU is busy: bound to the free one
idb=$(cl_sbatch --user "$TUSER" -J busy -w n001 -n 1 -t 5 -o busy-%j.out --wrap "sleep 60")
cl_poll 30 cl_job_in "$idb" RUNNING
id=$(cl_sbatch --user "$TUSER" -J near1 -w n001 -n 1 -t 5 --gres=rdma:2 -o near1-%j.out \
	--wrap "srun $STAGE/out/env2.sh")
cl_wait_job "$id" 120
tap_ok $? "job $id -n 1 --gres=rdma:2 beside job $idb COMPLETED"
bcpu=$(scontrol -d show job "$idb" | sed -n 's/.*CPU_IDs=\([^ ]*\).*/\1/p' | head -1)
scancel "$idb"
o=$((1 - ${bcpu:-0}))
got=$(sed -n 's/^task=0 //p' "$(cl_job_output "$id")" 2>/dev/null | sed 's/ huge=.*//')
tap_is "$got" "cpus=$o ucx=mlx5_$o:1 nccl==mlx5_$o:1 ompi=mlx5_$o:1 devs=mlx5_$o loc=$loc" \
	"job $id: its task on CPU $o (CPU ${bcpu:-?} busy) gets mlx5_$o"

# 28-31: more than 1024 pages, still per NUMA node: job A takes all of one
# NUMA node's units, so job B gets its pages, and its CPU, on the other
ida=$(cl_sbatch --user "$TUSER" -J hugeA -w n001 -n 1 -t 5 --gres=hugepages:2mx8:512 \
	--gres-flags=enforce-binding -o hugeA-%j.out --wrap "srun $STAGE/out/env2.sh; sleep 60")
has_output() { [ -s "$(cl_job_output "$1")" ]; }	# has_output JOBID: its stdout not empty
cl_poll 30 has_output "$ida"
id=$(cl_sbatch --user "$TUSER" -J hugeB -w n001 -n 1 -t 5 --gres=hugepages:2mx8:100 \
	--gres-flags=enforce-binding -o hugeB-%j.out --wrap "srun $STAGE/out/env2.sh")
cl_wait_job "$id" 120
tap_ok $? "job $id --gres=hugepages:2mx8:100 beside job $ida (2mx8:512) COMPLETED"
a=$(sed -n 's/^task=0 cpus=\([^ ]*\) .* huge=/cpus=\1 huge=/p' "$(cl_job_output "$ida")" 2>/dev/null)
b=$(sed -n 's/^task=0 cpus=\([^ ]*\) .* huge=/cpus=\1 huge=/p' "$(cl_job_output "$id")" 2>/dev/null)
acpu=$(scontrol -d show job "$ida" | sed -n 's/.*CPU_IDs=\([^ ]*\).*/\1/p' | head -1)
scancel "$ida"
tap_is "$a" "cpus=${acpu:-?} huge=2m:${acpu:-?}=4096 count=4096" \
	"job $ida: 512 units = 4096 2m pages on NUMA node ${acpu:-?}, the node of its CPU"
o=$((1 - ${acpu:-0}))
tap_is "$b" "cpus=$o huge=2m:$o=800 count=800" \
	"job $id: 100 units = 800 2m pages on NUMA node $o, the node of its CPU (FABSCHED_HUGEPAGES in pages)"
tap_ok "grep -q 'hugepages=2m:$o=800 count=800' '$STAGE/out/prolog.$id'" \
	"prolog of job $id got the pages in pages: $(cat "$STAGE/out/prolog.$id" 2>/dev/null)"

# ---------------------------------------------------------------- third cluster
# 32-36: RoCE HCAs (mlx5_0 on CPU 0, mlx5_1 on CPU 1; mlx5_2 DOWN), the
# RoCE v2 GIDs of the ports' IPv6 addresses (mlx5_0: index 5, mlx5_1: 4)
cl_down || tap_diag "second cluster: something survived"
T3=$STAGE/sysfs/roce
echo "n001 env=FABSCHED_SYSFS_ROOT=$T3 xml=$X2 gres=rdma:mlx5:2" > "$STAGE/nodes3"
printf 'RoceGidFamily=ipv6\nRoceTrafficClass=106\nRoceServiceLevel=3\n' > "$STAGE/fabsched3.conf"
cl_up --nodes-file "$STAGE/nodes3" --plugin-dir "$STAGE/plugins" \
	--gres-types rdma --extra-conf "$STAGE/extra2.conf" --plugstack "$STAGE/plugstack.conf" \
	--etc-file "fabsched.conf=$STAGE/fabsched3.conf"
tap_ok $? "cluster up: 1 node with RoCE HCAs, fabsched.conf RoceGidFamily=ipv6 RoceTrafficClass=106 RoceServiceLevel=3" ||
	tap_bail "the third cluster did not come up"
got=$(cl_gres_lines n001 "$X2" "$T3")
want="rdma mlx5 1 File=/dev/infiniband/uverbs0 Cores=0
rdma mlx5 1 File=/dev/infiniband/uverbs1 Cores=1"
tap_is "$got" "$want" "slurmd -G on roce: a unit per RoCE HCA with an ACTIVE port, its NUMA-local core"
log=$FABSCHED_CLUSTER_DIR/nodes/n001/slurmd.log
line='gres/rdma: mlx5_0 port 1: RoCE on ens1f0np0 (MTU 9000, up): RoCE v2 GID index 3 for IPv4, 5 for IPv6'
tap_ok "grep -qF '$line' '$log' && grep -q 'mlx5_1 port 1: RoCE on ens2f0np0 (MTU 4200, up): RoCE v2 GID index none for IPv4, 4 for IPv6' '$log'" \
	"slurmd logs what each RoCE port offers: $line"
cat > "$STAGE/out/env3.sh" <<'EOF'
#!/bin/sh
echo "task=$SLURM_PROCID cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status) ucx=$UCX_NET_DEVICES gid=$NCCL_IB_GID_INDEX/$UCX_IB_GID_INDEX if=$NCCL_SOCKET_IFNAME tc=$NCCL_IB_TC/$UCX_IB_TRAFFIC_CLASS sl=$NCCL_IB_SL/$UCX_IB_SL"
EOF
chmod 755 "$STAGE/out/env3.sh"
id=$(cl_sbatch --user "$TUSER" -J roce -w n001 -n 2 -t 5 --gres=rdma:2 -o roce-%j.out \
	--wrap "echo \"batch gid=\${NCCL_IB_GID_INDEX-unset} if=\$NCCL_SOCKET_IFNAME tc=\$NCCL_IB_TC sl=\$UCX_IB_SL loc=\$FABSCHED_RDMA_LOCALITY\"; srun --mpi=pmix $STAGE/out/env3.sh | sort")
cl_wait_job "$id" 120
tap_ok $? "job $id --gres=rdma:2 -n 2 on the RoCE node COMPLETED"
out=$(cl_job_output "$id")
got=$(sed -n 's/^task=[01] //p' "$out" 2>/dev/null | sort)
want="cpus=0 ucx=mlx5_0:1 gid=5/5 if==ens1f0np0 tc=106/106 sl=3/3
cpus=1 ucx=mlx5_1:1 gid=4/4 if==ens2f0np0 tc=106/106 sl=3/3"
bat="batch gid=unset if==ens1f0np0,ens2f0np0 tc=106 sl=3 loc=mlx5_0:1@5,ens1f0np0,106,3=0;mlx5_1:1@4,ens2f0np0,106,3=1"
tap_is "$got" "$want" "each task its RoCE HCA's GID index (NCCL_IB_GID_INDEX, UCX_IB_GID_INDEX), net device (NCCL_SOCKET_IFNAME), traffic class and service level" ||
	tap_diag "$(cat "$out" 2>/dev/null)"
tap_is "$(grep '^batch' "$out" 2>/dev/null)" "$bat" \
	"the batch script: both net devices, the class and level, no GID index (5 and 4 differ), each HCA's in FABSCHED_RDMA_LOCALITY"

tap_done
