#!/bin/bash
# t-prolog.sh - fabsched-prolog and fabsched-epilog as slurm.conf's Prolog
# and Epilog (PrologFlags=Alloc) in a real Slurm cluster with gres/hugepages:
# a job --gres=hugepages:2m:N maps its pages through its hugetlbfs mount and
# checks them; afterwards the machine's nr_hugepages and the node's mounts
# are back where they were.  A prolog failure of the node drains it with
# the reason; one of the job's own holds the job and leaves the node up.
# An HCA port made RoCE in the node's sysfs tree: its net device down, or
# below RoceMtu, drains the node; with RocePfc=yes its DCB settings are read
# from the kernel (a missing device drains, one without DCB is not checked).  Every slurmd of the cluster runs on this machine, so the pools
# are this machine's (node0): reservations stay a few MiB and are given
# back.  Asks scontrol, the jobs and the node's mount namespace.  Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"

cl_require
cl_require_build plugins/gres/.libs/gres_hugepages.so
cl_require_hugepages
tap_plan 36
TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
FIX=$SRC/tests/fixtures
STAGE=${FABSCHED_PROLOG_TEST_DIR:-/var/lib/fabsched-test/prolog}
BASE_PAGES=$(cat "$NODE0")

# --- stage: plugins, programs, fabsched.conf, wrappers, nodes file
rm -rf "$STAGE" && mkdir -p "$STAGE/plugins" "$STAGE/sysfs" "$STAGE/bin" "$STAGE/out" ||
	tap_bail "cannot write $STAGE"
cp "$FABSCHED_BUILDDIR"/plugins/gres/.libs/gres_*.so "$STAGE/plugins/"
for p in fabsched-prolog fabsched-epilog fabsched-sweep; do
	cp "$FABSCHED_BUILDDIR/prolog/$p" "$STAGE/bin/" || tap_bail "$p not built"
done
cp "$FABSCHED_BUILDDIR/tests/unit/test_prolog_map" "$STAGE/bin/" || tap_bail "test_prolog_map not built"
# the gres plugin sees a node with 128 pages of 2 MiB on NUMA node 0 (the
# machine's pool may be empty); the prolog reserves them for real
cp -r "$FIX/sysfs/nohca" "$STAGE/sysfs/n001"
cp -r "$FIX/sysfs/nohca" "$STAGE/sysfs/n002"
cp -r "$FIX/sysfs/32em64t" "$STAGE/sysfs/n003"
chmod -R a+rX "$STAGE"
chmod 0700 "$STAGE/out"
mkdir -p "$STAGE/prom" && chmod 0755 "$STAGE/prom"
printf 'StateDir=%s/state\nHugepageMountBase=%s/mnt\nMetricsTextfile=%s/prom/fabsched.prom\n' \
	"$STAGE" "$STAGE" "$STAGE" > "$STAGE/fabsched.conf"
for p in prolog epilog; do
	cat > "$STAGE/$p" <<EOF
#!/bin/sh
# slurmd gives the prolog a fresh environment: name the configuration (and
# for this test, the node's recorded sysfs tree for the RDMA checks) here
FABSCHED_CONF=$STAGE/fabsched.conf FABSCHED_SYSFS_ROOT=$STAGE/sysfs/\$SLURMD_NODENAME \\
	exec $STAGE/bin/fabsched-$p 2>>$STAGE/out/$p.log
EOF
	chmod 0755 "$STAGE/$p"
done
cat > "$STAGE/nodes" <<EOF
n001 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n001 sockets=1 cores=4 threads=1 gres=hugepages:2m:128 memory=2000
n002 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n002 sockets=1 cores=4 threads=1 gres=hugepages:2m:128 memory=2000
n003 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n003 xml=$FIX/hwloc/32em64t-2n8c+1mic.xml gres=rdma:mlx4:1 memory=8000
EOF
# the task prolog: fabsched-prolog --task exports FABSCHED_HUGEPAGES_MOUNT
# (this cluster's jobs run no MPI, so the harness's task prolog is not needed)
# (and the account's P_Key variables: it reads the node's P_Key tables)
cat > "$STAGE/task_prolog" <<EOF
#!/bin/sh
FABSCHED_CONF=$STAGE/fabsched.conf FABSCHED_SYSFS_ROOT=$STAGE/sysfs/\$SLURMD_NODENAME \\
	exec $STAGE/bin/fabsched-prolog --task
EOF
chmod 0755 "$STAGE/task_prolog"
printf 'PrologFlags=Alloc\nSlurmdDebug=verbose\nTaskProlog=%s\n' "$STAGE/task_prolog" > "$STAGE/extra.conf"

# 1
cl_up --nodes-file "$STAGE/nodes" --plugin-dir "$STAGE/plugins" \
	--gres-types hugepages,rdma --extra-conf "$STAGE/extra.conf" \
	--prolog "$STAGE/prolog" --epilog "$STAGE/epilog"
tap_ok $? "cluster up: 3 nodes, gres/hugepages and gres/rdma, Prolog=fabsched-prolog Epilog=fabsched-epilog" ||
	tap_bail "the cluster did not come up"
D=$FABSCHED_CLUSTER_DIR
tap_diag "machine's node0 2 MiB pages at start: $BASE_PAGES"

node_mounts() {	# mounts under the base, in the node's own mount namespace
	local pid
	pid=$(cat "$D/nodes/$1/slurmd.pid" 2>/dev/null) || return 1
	nsenter -t "$pid" -m awk -v b="$STAGE/mnt/" 'index($5, b) == 1 { print $5 }' /proc/self/mountinfo
}
is_back() {	# node0 at its base, no ledger left
	[ "$(cat "$NODE0")" = "$BASE_PAGES" ] && [ -z "$(ls -A "$STAGE/state/jobs" 2>/dev/null)" ]
}
wait_back() {	# the epilog runs after the job is reported ended: wait for it
	cl_poll 30 is_back
}
drained() {	# drained NODE: its State has DRAIN (sets st)
	st=$(scontrol -o show node "$1" | tr ' ' '\n' | sed -n 's/^State=//p')
	case "$st" in *DRAIN*) return 0 ;; esac
	return 1
}
requeued() {	# requeued JOBID: PENDING again after a restart
	[ "$(cl_job_field "$1" JobState)" = PENDING ] && [ "$(cl_job_field "$1" Restarts)" != 0 ]
}

# 2-7: a job maps its 8 pages (16 MiB) through the mount
cat > "$STAGE/bin/job.sh" <<EOF
#!/bin/sh
m=$STAGE/mnt/\$SLURM_JOB_ID-2m
echo "huge=\$FABSCHED_HUGEPAGES count=\$FABSCHED_HUGEPAGES_COUNT"
echo "pool=\$(cat $NODE0)"
echo "mount=\$(awk -v m="\$m" '\$5 == m { print \$NF }' /proc/self/mountinfo)"
echo "dir=\$(stat -c '%U %a' "\$m")"
echo "env=\$FABSCHED_HUGEPAGES_MOUNT"
$STAGE/bin/test_prolog_map "\$m" "\$FABSCHED_HUGEPAGES_COUNT"
EOF
chmod 0755 "$STAGE/bin/job.sh"
id=$(cl_sbatch --user "$TUSER" -J huge -w n001 -n 1 -t 5 --gres=hugepages:2m:8 -o huge-%j.out "$STAGE/bin/job.sh")
cl_wait_job "$id" 120
tap_ok $? "job $id --gres=hugepages:2m:8 COMPLETED"
out=$(cat "$(cl_job_output "$id")" 2>/dev/null)
tap_diag "$out"
tap_ok "grep -q '^mapped 8 pages of 2048 kB in $STAGE/mnt/$id-2m: ok\$' <<<'$out'" \
	"the job mapped, wrote and read back its 8 pages through $STAGE/mnt/$id-2m; a 9th was refused"
tap_ok "grep -q '^pool=$((BASE_PAGES + 8))\$' <<<'$out'" "while it ran, node0's pool held 8 more pages"
uid=$(id -u "$TUSER") gid=$(id -g "$TUSER")
tap_ok "grep -q '^mount=rw,uid=$uid,gid=$gid,mode=700,pagesize=2M,size=16777216\$' <<<'$out' && grep -q '^dir=$TUSER 700\$' <<<'$out'" \
	"hugetlbfs owned by the job's user, mode 0700, size of its pages"
tap_ok "grep -q '^env=$STAGE/mnt/$id-2m\$' <<<'$out'" "the task prolog exported FABSCHED_HUGEPAGES_MOUNT to the job"
wait_back
tap_ok $? "after the job: nr_hugepages back to $BASE_PAGES, no ledger left (now $(cat "$NODE0"))"
tap_is "$(node_mounts n001)" "" "after the job: no mount left in n001's mount namespace"
tap_ok "[ -z \"\$(ls -A '$STAGE/mnt')\" ]" "after the job: the per-job directory is gone"

# 9-10: two jobs at once on both nodes, then all back
a=$(cl_sbatch --user "$TUSER" -J h1 -w n001 -n 1 -t 5 --gres=hugepages:2m:4 -o h1-%j.out "$STAGE/bin/job.sh")
b=$(cl_sbatch --user "$TUSER" -J h2 -w n002 -n 1 -t 5 --gres=hugepages:2m:6 -o h2-%j.out "$STAGE/bin/job.sh")
cl_wait_job "$a" 120; ra=$?
cl_wait_job "$b" 120; rb=$?
oa=$(cat "$(cl_job_output "$a")" 2>/dev/null) ob=$(cat "$(cl_job_output "$b")" 2>/dev/null)
tap_ok "[ $ra = 0 ] && [ $rb = 0 ] && grep -q '^mapped 4 pages' <<<'$oa' && grep -q '^mapped 6 pages' <<<'$ob'" \
	"jobs $a (4 pages, n001) and $b (6 pages, n002) both mapped their pages"
wait_back
tap_ok $? "and the pool is back to $BASE_PAGES after both"

# 11: a job without hugepages: the prolog has nothing to do
id=$(cl_sbatch --user "$TUSER" -J plain -w n001 -n 1 -t 5 -o plain-%j.out --wrap 'echo plain')
cl_wait_job "$id" 120
tap_ok $? "job $id without hugepages COMPLETED"

# 12-15: the prolog refuses (world-writable mount base): the node drains with the reason
chmod 0777 "$STAGE/mnt"
id=$(cl_sbatch --user "$TUSER" -J bad -w n002 -n 1 -t 5 --gres=hugepages:2m:2 -o bad-%j.out --wrap true)
cl_poll 30 drained n002
reason=$(scontrol -o show node n002 | sed -n 's/.*Reason=\(.*\) \[.*/\1/p')
tap_ok "grep -q DRAIN <<<'$st' && grep -q 'writable by group or others' <<<'$reason'" \
	"prolog failure drained n002 with the precise reason (State=$st, Reason=$reason)"
tap_ok "grep -q 'writable by group or others' '$STAGE/out/prolog.log'" \
	"the prolog said why: $(grep 'writable' "$STAGE/out/prolog.log" | tail -1)"
scancel "$id" 2>/dev/null
chmod 0755 "$STAGE/mnt"
wait_back
tap_ok $? "nothing reserved by the failed prolog (pool $(cat "$NODE0"))"
scontrol update nodename=n002 state=resume >/dev/null 2>&1
id=$(cl_sbatch --user "$TUSER" -J again -w n002 -n 1 -t 5 --gres=hugepages:2m:2 -o again-%j.out "$STAGE/bin/job.sh")
cl_wait_job "$id" 120
tap_ok $? "after resume, n002 runs a hugepage job again ($id)"

# RDMA: the job's HCA port must be ACTIVE; a port gone DOWN after slurmd
# started drains the node with device, port and state
id=$(cl_sbatch --user "$TUSER" -J rdma -w n003 -n 1 -t 5 --gres=rdma:1 -o rdma-%j.out --wrap 'echo "devs=$FABSCHED_RDMA_DEVICES"')
cl_wait_job "$id" 120
tap_ok "[ $? = 0 ] && grep -q '^devs=mlx4_0\$' '$(cl_job_output "$id")'" "job $id --gres=rdma:1 on n003: the prolog found mlx4_0 port 1 ACTIVE"
echo "1: DOWN" > "$STAGE/sysfs/n003/sys/class/infiniband/mlx4_0/ports/1/state"
id=$(cl_sbatch --user "$TUSER" -J rdmadown -w n003 -n 1 -t 5 --gres=rdma:1 -o rdma-%j.out --wrap true)
cl_poll 30 drained n003
reason=$(scontrol -o show node n003 | sed -n 's/.*Reason=\(.*\) \[.*/\1/p')
tap_ok "grep -q DRAIN <<<'$st' && grep -q 'RDMA device mlx4_0 port 1: state DOWN (physical state LinkUp), expected ACTIVE' <<<'$reason'" \
	"HCA port gone DOWN: n003 drained with device, port and state (State=$st, Reason=$reason)"
scancel "$id" 2>/dev/null
echo "4: ACTIVE" > "$STAGE/sysfs/n003/sys/class/infiniband/mlx4_0/ports/1/state"
scontrol update nodename=n003 state=resume >/dev/null 2>&1
id=$(cl_sbatch --user "$TUSER" -J rdmaup -w n003 -n 1 -t 5 --gres=rdma:1 -o rdma-%j.out --wrap true)
cl_wait_job "$id" 120
tap_ok $? "port ACTIVE again, node resumed: job $id runs"

# RdmaRate: n003's mlx4_0 port runs at 56 Gb/s (4X FDR); asking 100 drains
# the node with device, port, seen and expected rates
wait_drain() {	# wait_drain NODE: sets st and reason
	cl_poll 30 drained "$1"
	reason=$(scontrol -o show node "$1" | sed -n 's/.*Reason=\(.*\) \[.*/\1/p')
}
cp "$STAGE/fabsched.conf" "$STAGE/fabsched.conf.orig"
echo 'RdmaRate=100' >> "$STAGE/fabsched.conf"
id=$(cl_sbatch --user "$TUSER" -J slow -w n003 -n 1 -t 5 --gres=rdma:1 -o rdma-%j.out --wrap true)
wait_drain n003
tap_ok "grep -q DRAIN <<<'$st' && grep -qF 'RDMA device mlx4_0 port 1: rate 56 Gb/s (56 Gb/sec (4X FDR)), expected at least 100 Gb/s (RdmaRate)' <<<'$reason'" \
	"port slower than RdmaRate=100: n003 drained with device, port and rates (State=$st, Reason=$reason)"
scancel "$id" 2>/dev/null

# AccountIbPkeys: the port's P_Key table holds 0x8001 at index 1; a job of
# account chem gets the key, one of an unlisted account none, and one whose
# key the port lacks is held with the reason, the node left up
t=$STAGE/sysfs/n003/sys/class/infiniband/mlx4_0/ports/1/pkeys
mkdir -p "$t" && i=0
for k in 0xffff 0x8001 0x0000 0x0000; do echo "$k" > "$t/$i"; i=$((i + 1)); done
chmod -R a+rX "$t"
cp "$STAGE/fabsched.conf.orig" "$STAGE/fabsched.conf"
printf 'RdmaRate=56\nAccountIbPkeys=chem:0x8001,physics:0x8002\n' >> "$STAGE/fabsched.conf"
scontrol update nodename=n003 state=resume >/dev/null 2>&1
printf '#!/bin/sh\necho "pkey=$FABSCHED_IB_PKEY ucx=$UCX_IB_PKEY ompi=$OMPI_MCA_btl_openib_pkey nccl=$NCCL_IB_PKEY acct=$SLURM_JOB_ACCOUNT"\n' \
	> "$STAGE/bin/pkey.sh"
chmod 0755 "$STAGE/bin/pkey.sh"
id=$(cl_sbatch --user "$TUSER" -J pkey -A chem -w n003 -n 1 -t 5 --gres=rdma:1 -o pkey-%j.out "$STAGE/bin/pkey.sh")
cl_wait_job "$id" 120; rc=$?
out=$(cat "$(cl_job_output "$id")" 2>/dev/null)
tap_ok "[ $rc = 0 ] && grep -q '^pkey=0x8001 ucx=0x0001 ompi=0x0001 nccl=1 acct=chem\$' <<<'$out'" \
	"job $id of account chem, port at RdmaRate=56: the prolog found 0x8001 in mlx4_0 port 1, the job sees it ($out)"
id=$(cl_sbatch --user "$TUSER" -J nopkey -A other -w n003 -n 1 -t 5 --gres=rdma:1 -o pkey-%j.out "$STAGE/bin/pkey.sh")
cl_wait_job "$id" 120; rc=$?
out=$(cat "$(cl_job_output "$id")" 2>/dev/null)
tap_ok "[ $rc = 0 ] && grep -q '^pkey= ucx= ompi= nccl= acct=other\$' <<<'$out'" \
	"job $id of an account without key runs, without P_Key variables ($out)"
id=$(cl_sbatch --user "$TUSER" -J badpkey -A physics -w n003 -n 1 -t 5 --gres=rdma:1 -o pkey-%j.out --wrap true)
cl_poll 60 requeued "$id"
st=$(scontrol -o show node n003 | tr ' ' '\n' | sed -n 's/^State=//p')
ac=$(scontrol -o show job "$id" | grep -o 'AdminComment=.*' | head -c 400)
# shellcheck disable=SC2034 # read by the condition tap_ok evaluates
want="RDMA device mlx4_0 port 1: P_Key 0x8002 of account physics not in the port's P_Key table (0xffff 0x8001)"
tap_ok "! grep -q DRAIN <<<\"\$st\" && [ \"\$(cl_job_field $id JobState)\" = PENDING ] && grep -qF \"\$want\" <<<\"\$ac\"" \
	"key of account physics (0x8002) missing from the port, the job's fault: job $id held with the reason ($(cl_job_field "$id" Reason), ${ac%% StdErr*}), n003 stays up (State=$st)"
scancel "$id" 2>/dev/null
cp "$STAGE/fabsched.conf.orig" "$STAGE/fabsched.conf"
scontrol update nodename=n003 state=resume >/dev/null 2>&1

# RoCE: n003's mlx4_0 port made a RoCE port (link layer Ethernet, a GID
# table naming eth2 with the RoCE v2 GID of 10.10.1.13 at index 3): eth2
# down drains the node naming the device; up, but below RoceMtu=9000,
# drains it naming the MTU; at 9000 the job runs
p=$STAGE/sysfs/n003/sys/class/infiniband/mlx4_0/ports/1
nd=$STAGE/sysfs/n003/sys/class/net/eth2
mkdir -p "$p/gid_attrs/types" "$p/gid_attrs/ndevs" "$nd"
i=0
for g in fe80:0000:0000:0000:0202:c9ff:fef1:2a30 0000:0000:0000:0000:0000:ffff:0a0a:010d; do
	for ty in "IB/RoCE v1" "RoCE v2"; do
		echo "$g" > "$p/gids/$i"; echo "$ty" > "$p/gid_attrs/types/$i"; echo eth2 > "$p/gid_attrs/ndevs/$i"
		i=$((i + 1))
	done
done
echo Ethernet > "$p/link_layer"
echo 1500 > "$nd/mtu"
echo down > "$nd/operstate"
scontrol update nodename=n003 state=resume >/dev/null 2>&1
id=$(cl_sbatch --user "$TUSER" -J rocedown -w n003 -n 1 -t 5 --gres=rdma:1 -o roce-%j.out --wrap true)
wait_drain n003
tap_ok "grep -q DRAIN <<<'$st' && grep -qF 'RDMA device mlx4_0 port 1: its net device eth2 is down, expected up' <<<'$reason'" \
	"RoCE port whose net device is down: n003 drained naming the device (State=$st, Reason=$reason)"
scancel "$id" 2>/dev/null
echo up > "$nd/operstate"
echo 'RoceMtu=9000' >> "$STAGE/fabsched.conf"
scontrol update nodename=n003 state=resume >/dev/null 2>&1
id=$(cl_sbatch --user "$TUSER" -J rocemtu -w n003 -n 1 -t 5 --gres=rdma:1 -o roce-%j.out --wrap true)
wait_drain n003
tap_ok "grep -q DRAIN <<<'$st' && grep -qF 'RDMA device mlx4_0 port 1: its net device eth2 has MTU 1500, expected at least 9000 (RoceMtu)' <<<'$reason'" \
	"RoCE port's net device below RoceMtu=9000: n003 drained naming the MTU (State=$st, Reason=$reason)"
scancel "$id" 2>/dev/null
echo 9000 > "$nd/mtu"
scontrol update nodename=n003 state=resume >/dev/null 2>&1
id=$(cl_sbatch --user "$TUSER" -J roceok -w n003 -n 1 -t 5 --gres=rdma:1 -o roce-%j.out --wrap true)
cl_wait_job "$id" 120
tap_ok $? "RoCE port up at MTU 9000 with a RoCE v2 GID of an IPv4 address: job $id runs"
# RocePfc=yes: the prolog asks the kernel (DCB netlink) for eth2's PFC
# settings: this machine has no eth2, so the node drains naming it; with
# the GID table naming lo (whose driver has no DCB) the job runs, and the
# prolog's log says PFC was not checked
echo 'RocePfc=yes' >> "$STAGE/fabsched.conf"
scontrol update nodename=n003 state=resume >/dev/null 2>&1
id=$(cl_sbatch --user "$TUSER" -J rocepfc -w n003 -n 1 -t 5 --gres=rdma:1 -o roce-%j.out --wrap true)
wait_drain n003
tap_ok "grep -q DRAIN <<<'$st' && grep -qF 'RDMA device mlx4_0 port 1: cannot read the DCB settings of its net device (RocePfc): eth2: No such device' <<<'$reason'" \
	"RocePfc=yes, the port's net device eth2 not on the node: n003 drained naming it (State=$st, Reason=$reason)"
scancel "$id" 2>/dev/null
for f in "$p"/gid_attrs/ndevs/*; do echo lo > "$f"; done
mkdir -p "$STAGE/sysfs/n003/sys/class/net/lo"
echo 65536 > "$STAGE/sysfs/n003/sys/class/net/lo/mtu"
echo unknown > "$STAGE/sysfs/n003/sys/class/net/lo/operstate"
scontrol update nodename=n003 state=resume >/dev/null 2>&1
id=$(cl_sbatch --user "$TUSER" -J rocelo -w n003 -n 1 -t 5 --gres=rdma:1 -o roce-%j.out --wrap true)
cl_wait_job "$id" 120
rc=$?
tap_ok "[ $rc -eq 0 ] && grep -q 'job $id: RDMA: .*(a net device without DCB: PFC not checked)' '$STAGE/out/prolog.log'" \
	"RocePfc=yes on lo, a device without DCB: job $id runs, the prolog says: $(grep "job $id: RDMA" "$STAGE/out/prolog.log" | tail -1)"
echo InfiniBand > "$p/link_layer"
cp "$STAGE/fabsched.conf.orig" "$STAGE/fabsched.conf"
scontrol update nodename=n003 state=resume >/dev/null 2>&1

# fabsched-sweep with the controller's view: nothing to release, exit 0
wait_back
FABSCHED_CONF=$STAGE/fabsched.conf "$STAGE/bin/fabsched-sweep" --node n001 > "$STAGE/out/sweep.log" 2>&1
tap_ok $? "fabsched-sweep finds no ledger left (and asks Slurm nothing then): $(tail -1 "$STAGE/out/sweep.log")"

# the node's figures (MetricsTextfile), read with Prometheus' own parser:
# every prolog and epilog run counted, the failed ones, the port found DOWN
if cl_have_prom; then
	read -r runs inf epi fail inactive short <<<"$(cl_prom "$STAGE/prom/fabsched.prom" \
		'fabsched_helper_run_seconds_count{helper="prolog"}' \
		'fabsched_helper_run_seconds_bucket{helper="prolog",le="+Inf"}' \
		'fabsched_helper_run_seconds_count{helper="epilog"}' \
		'fabsched_helper_failures_total{helper="prolog"}' \
		fabsched_hca_ports_inactive_total fabsched_hugepage_reservations_short_total)"
	ge() { [ "$1" != - ] && [ "${1%.*}" -ge "$2" ]; }
	got="$(ge "$runs" 10 && [ "$inf" = "$runs" ] && ge "$epi" 8 && echo 1 || echo 0)"
	got="$got $(ge "$fail" 4 && echo 1 || echo 0) $(ge "$inactive" 1 && echo 1 || echo 0)"
	got="$got $([ "$short" = 0 ] && echo 1 || echo 0)"
	tap_is "$got" "1 1 1 1" "MetricsTextfile: prolog and epilog runs in the histogram, the failed prologs, the HCA port found DOWN, no short reservation (Prometheus text parser)"
	tap_diag "$(grep -v '^#' "$STAGE/prom/fabsched.prom" | grep -v '_bucket')"
else
	tap_skip "python3-prometheus-client is missing: no Prometheus text parser to read the node's figures with"
fi

cl_down
tap_ok "[ \"\$(cat $NODE0)\" = $BASE_PAGES ]" "after the cluster stopped: node0 pool at $BASE_PAGES"

# 27-31: a node counting its pages in units of 64 (HugepageUnits=2m:64, a
# node of 4096 pages); job_submit/fabsched turns --gres=hugepages:2m:100
# into 2 units (128 pages), and the prolog reserves exactly the 100 asked
mkdir -p "$STAGE/sysfs/units/sys/devices/system/node/node0/hugepages/hugepages-2048kB"
echo 0-3 > "$STAGE/sysfs/units/sys/devices/system/node/node0/cpulist"
for f in nr_hugepages free_hugepages; do
	echo 4096 > "$STAGE/sysfs/units/sys/devices/system/node/node0/hugepages/hugepages-2048kB/$f"
done
chmod -R a+rX "$STAGE/sysfs/units"
echo 'HugepageUnits=2m:64' >> "$STAGE/fabsched.conf"
echo "n001 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/units sockets=1 cores=4 threads=1 gres=hugepages:2mx64:64 memory=2000" > "$STAGE/nodes2"
printf 'PrologFlags=Alloc\nJobSubmitPlugins=fabsched\nTaskProlog=%s\n' "$STAGE/task_prolog" > "$STAGE/extra2.conf"
cp "$FABSCHED_BUILDDIR/plugins/job_submit/fabsched/.libs/job_submit_fabsched.so" "$STAGE/plugins/" ||
	tap_bail "job_submit_fabsched.so not built"
cl_up --nodes-file "$STAGE/nodes2" --plugin-dir "$STAGE/plugins" \
	--gres-types hugepages --extra-conf "$STAGE/extra2.conf" \
	--etc-file "fabsched.conf=$STAGE/fabsched.conf" \
	--prolog "$STAGE/prolog" --epilog "$STAGE/epilog"
tap_ok $? "second cluster up: n001 counts 4096 pages in units of 64, JobSubmitPlugins=fabsched" ||
	tap_bail "the second cluster did not come up"
cat > "$STAGE/bin/job100.sh" <<EOF
#!/bin/sh
echo "pool=\$(cat $NODE0) huge=\$FABSCHED_HUGEPAGES"
$STAGE/bin/test_prolog_map $STAGE/mnt/\$SLURM_JOB_ID-2m 100
EOF
chmod 0755 "$STAGE/bin/job100.sh"
id=$(cl_sbatch --user "$TUSER" -J units -n 1 -t 5 --gres=hugepages:2m:100 -o units-%j.out "$STAGE/bin/job100.sh")
cl_wait_job "$id" 120
tap_ok $? "job $id --gres=hugepages:2m:100 on a node of units of 64 COMPLETED (TresPerNode=$(cl_job_field "$id" TresPerNode))"
out=$(cat "$(cl_job_output "$id")" 2>/dev/null)
tap_diag "$out"
tap_ok "grep -q '^pool=$((BASE_PAGES + 100)) huge=2m:0=128\$' <<<'$out'" \
	"while it ran, node0's pool held the 100 pages asked, not the 128 of its 2 units"
tap_ok "grep -q '^mapped 100 pages of 2048 kB in $STAGE/mnt/$id-2m: ok\$' <<<'$out'" \
	"the job mapped its 100 pages; the 101st was refused (hugetlbfs size of the pages asked)"
wait_back
tap_ok $? "after the job: nr_hugepages back to $BASE_PAGES, no ledger left (now $(cat "$NODE0"))"
cl_down
tap_done
