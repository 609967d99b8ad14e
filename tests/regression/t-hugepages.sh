#!/bin/bash
# t-hugepages.sh - hugepages at the sizes real nodes reserve, in a real
# Slurm cluster: three nodes hold far more pages than the 1024 units Slurm
# indexes per node (n001: 32,768 2 MiB and 64 1 GiB pages on 2 NUMA nodes;
# n002: the same on 8 NUMA nodes, 4 per socket; n003: 8,192 2 MiB pages,
# which alone it would count in units of 8).  fabsched.conf's
# HugepageUnits=2m:64,1g:1 gives all three one type (2mx64, 1g), so one
# request in pages (--gres=hugepages:2m:N) fits every node:
# job_submit/fabsched puts it in units, the prolog gets the pages asked.
# Each node's slurmd sees its own hwloc XML and sysfs tree
# (tests/fixtures/hwloc, tests/fixtures/sysfs); the prolog here records
# its environment (the real prolog's reservation of the pages asked is in
# t-prolog.sh).  Then the 8-NUMA node alone with
# SlurmdParameters=numa_node_as_socket: records per NUMA node on every
# release, and a job bound to its gres gets cores, HCA and hugepages of one
# NUMA node.  Asks slurmd -G, scontrol, sbatch and the prolog.  TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"

cl_require
cl_require_build plugins/job_submit/fabsched/.libs/job_submit_fabsched.so \
	plugins/gres/.libs/gres_hugepages.so
JS=$FABSCHED_BUILDDIR/plugins/job_submit/fabsched/.libs/job_submit_fabsched.so
HP=$FABSCHED_BUILDDIR/plugins/gres/.libs/gres_hugepages.so
tap_plan 26
TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
FIX=$SRC/tests/fixtures
STAGE=${FABSCHED_HUGEPAGES_TEST_DIR:-/var/lib/fabsched-test/hugepages}
X2=$FIX/hwloc/synthetic-2pkg-2numa-32c.xml
X8=$FIX/hwloc/synthetic-2pkg-8numa.xml

rm -rf "$STAGE" && mkdir -p "$STAGE/plugins" "$STAGE/sysfs" "$STAGE/out" || tap_bail "cannot write $STAGE"
cp "$JS" "$HP" "$STAGE/plugins/"
cp -r "$FIX/sysfs/huge2" "$STAGE/sysfs/n001"
cp -r "$FIX/sysfs/huge8" "$STAGE/sysfs/n002"
cp -r "$FIX/sysfs/hugesmall" "$STAGE/sysfs/n003"
chmod -R a+rX "$STAGE"
chmod 1777 "$STAGE/out"
printf 'HugepageUnits=2m:64,1g:1\n' > "$STAGE/fabsched.conf"
cat > "$STAGE/nodes" <<EOF
n001 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n001 xml=$X2 gres=hugepages:2mx64:512,hugepages:1g:64 memory=4000
n002 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n002 xml=$X8 gres=hugepages:2mx64:512,hugepages:1g:64 memory=4000
n003 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n003 xml=$X2 gres=hugepages:2mx64:128 memory=4000
EOF
printf 'JobSubmitPlugins=fabsched\nSlurmdDebug=verbose\nPrologFlags=Alloc\n' > "$STAGE/extra.conf"
cat > "$STAGE/prolog" <<EOF
#!/bin/sh
echo "node=\$SLURMD_NODENAME hugepages=\$FABSCHED_HUGEPAGES count=\$FABSCHED_HUGEPAGES_COUNT asked=\$SPANK_FABSCHED_HUGEPAGES_ASKED" >> $STAGE/out/prolog.\$SLURM_JOB_ID
exit 0
EOF
chmod 755 "$STAGE/prolog"

# 1
cl_up --nodes-file "$STAGE/nodes" --plugin-dir "$STAGE/plugins" \
	--gres-types hugepages --extra-conf "$STAGE/extra.conf" \
	--etc-file "fabsched.conf=$STAGE/fabsched.conf" --prolog "$STAGE/prolog"
tap_ok $? "cluster up: 3 nodes of 64, 64 and 16 GiB of hugepages, HugepageUnits=2m:64,1g:1, JobSubmitPlugins=fabsched" ||
	tap_bail "the cluster did not come up"

# 2-4: the records, one unit for every node
h=/sys/devices/system/node
got=$(cl_gres_lines n001 "$X2" "$STAGE/sysfs/n001" | cut -d' ' -f1-4)
want="hugepages 2mx64 256 File=$h/node0/hugepages/hugepages-2048kB
hugepages 1g 32 File=$h/node0/hugepages/hugepages-1048576kB
hugepages 2mx64 256 File=$h/node1/hugepages/hugepages-2048kB
hugepages 1g 32 File=$h/node1/hugepages/hugepages-1048576kB"
tap_is "$got" "$want" "slurmd -G on n001: 32,768 2m pages as 512 units of 64, 64 1g pages, per NUMA node"
got=$(cl_gres_lines n002 "$X8" "$STAGE/sysfs/n002" | awk '{ print $2, $3 }' | sort | uniq -c | awk '{ print $1 "x " $2 ":" $3 }' | tr '\n' ' ')
tap_is "$got" "8x 1g:8 8x 2mx64:64 " "slurmd -G on n002: 8 NUMA nodes, each 64 units of 64 2m pages and 8 1g pages"
got=$(cl_gres_lines n003 "$X2" "$STAGE/sysfs/n003" | cut -d' ' -f1-3 | tr '\n' ' ')
tap_is "$got" "hugepages 2mx64 64 hugepages 2mx64 64 " \
	"slurmd -G on n003: its 8,192 pages in the cluster's unit of 64 (alone: 2mx8)"

# 5: a unit too small for a node: refused with the least that fits
printf 'HugepageUnits=2m:16\n' > "$STAGE/small.conf"
chmod a+r "$STAGE/small.conf"
log=$(env HWLOC_XMLFILE="$X2" FABSCHED_SYSFS_ROOT="$STAGE/sysfs/n001" FABSCHED_CONF="$STAGE/small.conf" \
	slurmd -G -N n001 -f "$SLURM_CONF" 2>&1)
grep -q "HugepageUnits: this node's pools make 2112 units, more than the 1024 Slurm indexes per node; expected larger units for this node's pages, at least 2m:64" <<<"$log"
tap_ok $? "HugepageUnits=2m:16 on n001: logged, naming the least unit that fits" ||
	tap_diag "$(grep -i hugepage <<<"$log" | head -5)"

# 6: the controller's view
g=$(scontrol -o show node n002 | tr ' ' '\n' | sed -n 's/^Gres=//p')
tap_ok "grep -q 'hugepages:2mx64:512' <<<'$g' && grep -q 'hugepages:1g:64' <<<'$g'" \
	"scontrol show node n002: Gres $g"

# 7-9: one request in pages over the three nodes
id=$(cl_sbatch --user "$TUSER" -J pages3 -N 3 -t 5 --gres=hugepages:2m:4100 -o pages3-%j.out --wrap true)
cl_wait_job "$id" 120
tap_ok $? "job $id -N 3 --gres=hugepages:2m:4100 over the three nodes COMPLETED"
tpn=$(cl_job_field "$id" TresPerNode)
tap_ok "grep -Eq '^gres[:/]hugepages:2mx64:65\$' <<<'$tpn'" \
	"job_submit put it in the nodes' units: TresPerNode=$tpn (65 units of 64 pages)"
ok=0
for n in n001 n002 n003; do
	l=$(grep "node=$n " "$STAGE/out/prolog.$id" 2>/dev/null)
	sum=$(sed -n 's/.*hugepages=\([^ ]*\) .*/\1/p' <<<"$l" | tr ',' '\n' | awk -F= '{ s += $2 } END { print s + 0 }')
	grep -q 'count=4160 asked=2m:4100$' <<<"$l" && [ "$sum" = 4160 ] && ok=$((ok + 1))
done
tap_ok "[ $ok = 3 ]" "the prolog of each node got 4160 pages of units and the 4100 asked ($(tr '\n' ';' < "$STAGE/out/prolog.$id" 2>/dev/null))"

# 10: 8 NUMA nodes: the units spread over several, the pages asked kept
id=$(cl_sbatch --user "$TUSER" -J pages8 -w n002 -N 1 -t 5 --gres=hugepages:2m:8200 -o pages8-%j.out --wrap true)
cl_wait_job "$id" 120
l=$(cat "$STAGE/out/prolog.$id" 2>/dev/null)
numas=$(sed -n 's/.*hugepages=\([^ ]*\) .*/\1/p' <<<"$l" | tr ',' '\n' | grep -c '^2m:')
tap_ok "grep -q 'count=8256 asked=2m:8200$' <<<'$l' && [ $numas -ge 3 ]" \
	"job $id --gres=hugepages:2m:8200 on the 8-NUMA node: 129 units over $numas NUMA nodes, 8200 pages asked ($l)"

# 11: 1 GiB pages: only where there are some
id=$(cl_sbatch --user "$TUSER" -J huge1g -N 1 -t 5 --gres=hugepages:1g:40 -o huge1g-%j.out --wrap true)
cl_wait_job "$id" 120
tap_ok "[ '$CL_JOB_STATE' = COMPLETED ] && grep -Eq '^n00[12]\$' <<<'$(cl_job_field "$id" NodeList)'" \
	"job $id --gres=hugepages:1g:40 ran on a node with 1g pages ($(cl_job_field "$id" NodeList))"

# 12-14: refused at submission, with what the nodes hold
refused() {	# refused GRES: the message of a refused sbatch (exit 0 when refused)
	local out
	out=$(cd "$(cl_jobdir "$TUSER")" && timeout 30 su -s /bin/sh "$TUSER" -c \
		"sbatch -t 1 --gres=$1 --wrap true" 2>&1) && { echo "accepted: $out"; return 1; }
	echo "$out"
}
msg=$(refused hugepages:2m:40000)
tap_ok "grep -q 'the largest hold 32768 pages of 2m (node n001)' <<<'$msg'" \
	"--gres=hugepages:2m:40000 refused in pages: $msg"
msg=$(refused hugepages:100)
tap_ok "grep -q 'expected the size named, e.g. hugepages:2m:100' <<<'$msg'" \
	"--gres=hugepages:100 (no size, nodes in units) refused: $msg"
msg=$(refused hugepages:2mx8:10)
tap_ok "grep -q 'do not count hugepages in units of 8 pages (they count in 2mx64)' <<<'$msg'" \
	"--gres=hugepages:2mx8:10 refused, naming the nodes' unit: $msg"

# 15-17: a pending job's request updated: units and pages follow
id=$(cl_sbatch --user "$TUSER" -J held -H -N 1 -t 5 --gres=hugepages:2m:100 -o held-%j.out --wrap true)
_cl_as "$TUSER" scontrol update jobid="$id" gres=hugepages:2m:200
tpn=$(cl_job_field "$id" TresPerNode)
tap_ok "grep -Eq 'hugepages:2mx64:4\$' <<<'$tpn'" "scontrol update gres=hugepages:2m:200 of held job $id: TresPerNode=$tpn"
msg=$(_cl_as "$TUSER" scontrol update jobid="$id" gres=hugepages:2m:99999 2>&1)
rc=$?
tpn=$(cl_job_field "$id" TresPerNode)
tap_ok "[ $rc -ne 0 ] && grep -Eq 'hugepages:2mx64:4\$' <<<'$tpn'" \
	"an update beyond every node refused (exit $rc: $msg), the request kept ($tpn)"
scontrol release "$id"
cl_wait_job "$id" 120
tap_ok "grep -q 'count=256 asked=2m:200$' '$STAGE/out/prolog.$id'" \
	"released, the prolog got 4 units and the 200 pages asked: $(cat "$STAGE/out/prolog.$id" 2>/dev/null)"

# 18: 4 NUMA nodes per socket on n002 (Sockets=2 from its XML): from 23.02
# Slurm refuses a GRES splitting a socket, the records are widened and
# slurmd warns with the remedy; 22.05 keeps each NUMA node's cores
log=$FABSCHED_CLUSTER_DIR/nodes/n002/slurmd.log
if [ "${FABSCHED_SLURM_FLAVOUR:-22.05}" = 22.05 ]; then
	got=$(cl_gres_lines n002 "$X8" "$STAGE/sysfs/n002" | awk '$2 == "2mx64" { print $5 }' | tr '\n' ' ')
	tap_is "$got" "Cores=0-3 Cores=4-7 Cores=8-11 Cores=12-15 Cores=16-19 Cores=20-23 Cores=24-27 Cores=28-31 " \
		"Slurm 22.05: n002's records keep each NUMA node's cores"
else
	grep -q "warning: gres/hugepages: cores 0-3 widened to 0-15: .*NUMA locality is lost.*SlurmdParameters=numa_node_as_socket" "$log"
	tap_ok $? "n002 (4 NUMA nodes per socket): slurmd warns that widening loses NUMA locality, naming numa_node_as_socket" ||
		tap_diag "$(grep -i widened "$log" | head -3)"
fi
cl_down
tap_ok $? "cluster down"

# 20-26: the same node with Slurm's sockets made its NUMA nodes
# (SlurmdParameters=numa_node_as_socket; Sockets=8 CoresPerSocket=4 as
# slurmd -C then prints): records per NUMA node on every release, and a
# job bound to its gres gets cores, HCA and hugepages of one NUMA node
echo "n001 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n002 xml=$X8 sockets=8 cores=4 threads=1 gres=rdma:mlx5:1,hugepages:2mx64:512,hugepages:1g:64 memory=4000" > "$STAGE/nodes2"
printf 'JobSubmitPlugins=fabsched\nSlurmdDebug=verbose\nPrologFlags=Alloc\nSlurmdParameters=numa_node_as_socket\n' > "$STAGE/extra2.conf"
cat > "$STAGE/prolog" <<EOF
#!/bin/sh
echo "node=\$SLURMD_NODENAME hugepages=\$FABSCHED_HUGEPAGES count=\$FABSCHED_HUGEPAGES_COUNT asked=\$SPANK_FABSCHED_HUGEPAGES_ASKED rdma=\$FABSCHED_RDMA_DEVICES" >> $STAGE/out/prolog.\$SLURM_JOB_ID
exit 0
EOF
cp "$FABSCHED_BUILDDIR/plugins/gres/.libs/gres_rdma.so" "$STAGE/plugins/" || tap_bail "gres_rdma.so not built"
rm -f "$STAGE"/out/prolog.*
cl_up --nodes-file "$STAGE/nodes2" --plugin-dir "$STAGE/plugins" \
	--gres-types rdma,hugepages --extra-conf "$STAGE/extra2.conf" \
	--etc-file "fabsched.conf=$STAGE/fabsched.conf" --prolog "$STAGE/prolog"
tap_ok $? "cluster up: the 8-NUMA node with SlurmdParameters=numa_node_as_socket, Sockets=8" ||
	tap_bail "the second cluster did not come up"
got=$(cl_gres_lines n001 "$X8" "$STAGE/sysfs/n002" | awk '$2 == "2mx64" { print $5 }' | tr '\n' ' ')
tap_is "$got" "Cores=0-3 Cores=4-7 Cores=8-11 Cores=12-15 Cores=16-19 Cores=20-23 Cores=24-27 Cores=28-31 " \
	"slurmd -G: each NUMA node's hugepages with that node's cores, unwidened"
got=$(cl_gres_lines n001 "$X8" "$STAGE/sysfs/n002" | awk '$1 == "rdma" { print $2, $5 }')
tap_is "$got" "mlx5 Cores=20-23" "slurmd -G: the HCA on NUMA node 5 with its 4 cores"
tap_ok "! grep -q widened '$FABSCHED_CLUSTER_DIR/nodes/n001/slurmd.log'" "slurmd widened no record"
id=$(cl_sbatch --user "$TUSER" -J numa -n 1 -c 4 -t 5 --gres=rdma:1,hugepages:2m:100 \
	--gres-flags=enforce-binding -o numa-%j.out --wrap true)
cl_wait_job "$id" 120
tap_ok $? "job $id -n 1 -c 4 --gres=rdma:1,hugepages:2m:100 --gres-flags=enforce-binding COMPLETED"
cpus=$(scontrol -d show job "$id" | sed -n 's/.*CPU_IDs=\([^ ]*\).*/\1/p' | head -1)
l=$(cat "$STAGE/out/prolog.$id" 2>/dev/null)
tap_ok "[ '$cpus' = 20-23 ] && grep -q 'hugepages=2m:5=128 count=128 asked=2m:100 rdma=mlx5_0' <<<'$l'" \
	"its cores (CPU_IDs=$cpus), HCA and hugepages all of NUMA node 5 ($l)"
cl_down
tap_ok $? "cluster down"
tap_done
