#!/bin/bash
# t-records.sh - the job records of JobRecordDir in a real Slurm cluster,
# read back by `fabsched job`: fabsched-prolog (Prolog, PrologFlags=Alloc)
# writes each node's record of a job (HCAs with their NUMA node and CPUs,
# hugepages per NUMA node, the hugetlbfs mount), and the SPANK plugin
# each task's CPUs and HCA.  n001 emulates this machine's 2 CPUs as 2
# sockets with an HCA each (synthetic-2pkg-2numa.xml + sysfs/twosocket,
# task/affinity), so that tasks are really bound; n002 reserves real
# hugepages on node0.  Checks who may read and change the records, a
# record the user put in place of the prolog's, the sweep of old records,
# and a configuration without records.
# Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"

cl_require
cl_require_build plugins/gres/.libs/gres_rdma.so plugins/gres/.libs/gres_hugepages.so \
	plugins/spank/.libs/fabsched.so
cl_require_hugepages
tap_plan 15
TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
FIX=$SRC/tests/fixtures
FAB=$FABSCHED_BUILDDIR/cli/fabsched
STAGE=${FABSCHED_RECORDS_TEST_DIR:-/var/lib/fabsched-test/records}
X2=$FIX/hwloc/synthetic-2pkg-2numa.xml
R=$STAGE/records

rm -rf "$STAGE" && mkdir -p "$STAGE/plugins" "$STAGE/sysfs" "$STAGE/bin" "$STAGE/out" ||
	tap_bail "cannot write $STAGE"
cp "$FABSCHED_BUILDDIR"/plugins/gres/.libs/gres_*.so "$FABSCHED_BUILDDIR"/plugins/spank/.libs/fabsched.so \
	"$STAGE/plugins/"
for p in fabsched-prolog fabsched-epilog fabsched-sweep; do
	cp "$FABSCHED_BUILDDIR/prolog/$p" "$STAGE/bin/" || tap_bail "$p not built"
done
cp -r "$FIX/sysfs/twosocket" "$STAGE/sysfs/n001"
cp -r "$FIX/sysfs/nohca" "$STAGE/sysfs/n002"
chmod -R a+rX "$STAGE"
chmod 0700 "$STAGE/out"
printf 'StateDir=%s/state\nHugepageMountBase=%s/mnt\nJobRecordDir=%s\n' "$STAGE" "$STAGE" "$R" \
	> "$STAGE/fabsched.conf"
printf 'StateDir=%s/state\n' "$STAGE" > "$STAGE/fabsched-norecords.conf"
printf 'required %s/fabsched.so conf=%s/fabsched.conf\n' "$STAGE/plugins" "$STAGE" > "$STAGE/plugstack.conf"
for p in prolog epilog; do
	cat > "$STAGE/$p" <<EOF
#!/bin/sh
FABSCHED_CONF=$STAGE/fabsched.conf FABSCHED_SYSFS_ROOT=$STAGE/sysfs/\$SLURMD_NODENAME \\
	exec $STAGE/bin/fabsched-$p 2>>$STAGE/out/$p.log
EOF
	chmod 0755 "$STAGE/$p"
done
cat > "$STAGE/nodes" <<EOF
n001 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n001 xml=$X2 gres=rdma:mlx5:2 memory=4000
n002 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n002 sockets=1 cores=4 threads=1 gres=hugepages:2m:128 memory=2000
EOF
printf 'PrologFlags=Alloc\nSlurmdDebug=verbose\nTaskPlugin=task/affinity\n' > "$STAGE/extra.conf"

# 1
cl_up --nodes-file "$STAGE/nodes" --plugin-dir "$STAGE/plugins" \
	--gres-types rdma,hugepages --extra-conf "$STAGE/extra.conf" --plugstack "$STAGE/plugstack.conf" \
	--prolog "$STAGE/prolog" --epilog "$STAGE/epilog"
tap_ok $? "cluster up: n001 2 sockets with an HCA each, n002 with hugepages; JobRecordDir=$R" ||
	tap_bail "the cluster did not come up"

# 2-6: two tasks, each bound to a socket, each with its HCA
a=$(cl_sbatch --user "$TUSER" -J rec -w n001 -n 2 -t 5 --gres=rdma:2 -o rec-%j.out \
	--wrap "srun --mpi=pmix hostname")
cl_wait_job "$a" 120
tap_ok $? "job $a -n 2 --gres=rdma:2 (a batch script and a 2-task step) COMPLETED"
uid=$(id -u "$TUSER")
tap_is "$(stat -c '%u %a' "$R/$a" "$R/$a/n001" 2>&1 | tr '\n' ' ')" "$uid 700 0 644 " \
	"the job's record directory is its user's alone (0700), n001's record root's (0644), which the user reads and cannot change"
tap_is "$(grep '^hca' "$R/$a/n001" 2>&1)" "hca mlx5_0 ports 1 numa 0 cpus 0
hca mlx5_1 ports 1 numa 1 cpus 1" "n001's record: each HCA with its NUMA node (sysfs) and CPUs" ||
	tap_diag "$(cat "$R/$a/n001" "$STAGE/out/prolog.log" 2>&1)"
tap_is "$(sort "$R/$a/n001.tasks" 2>&1)" "task 0 0 0 cpus 0 hca mlx5_0:1
task 0 1 1 cpus 1 hca mlx5_1:1
task batch 0 0 cpus 0-1 hca -" \
	"the tasks' lines: rank 0 on CPU 0 with mlx5_0, rank 1 on CPU 1 with mlx5_1, the batch script on both"
"$FAB" job "$a" --conf "$STAGE/fabsched.conf" > "$STAGE/out/job-a.txt" 2>&1
tap_ok "grep -q 'step 0 task 0 (rank 0): CPUs 0 (NUMA 0), HCA mlx5_0:1 (NUMA 0)' '$STAGE/out/job-a.txt' &&
	grep -q 'step 0 task 1 (rank 1): CPUs 1 (NUMA 1), HCA mlx5_1:1 (NUMA 1)' '$STAGE/out/job-a.txt' &&
	grep -q 'hca mlx5_1 port 1: NUMA 1, CPUs 1' '$STAGE/out/job-a.txt' &&
	grep -q 'NUMA nodes of its tasks: 0,1' '$STAGE/out/job-a.txt'" \
	"fabsched job $a: per task its CPUs with their NUMA node and its HCA with the HCA's" ||
	tap_diag "$(cat "$STAGE/out/job-a.txt")"

# 7-9: hugepages per NUMA node and the mount, in text and JSON
b=$(cl_sbatch --user "$TUSER" -J rech -w n002 -n 1 -t 5 --gres=hugepages:2m:4 -o rech-%j.out \
	--wrap "srun true")
cl_wait_job "$b" 120
tap_ok $? "job $b --gres=hugepages:2m:4 COMPLETED"
tap_is "$(grep -E '^(hugepages|mount)' "$R/$b/n002" 2>&1)" "hugepages 2m numa 0 pages 4
mount 2m $STAGE/mnt/$b-2m" "n002's record: 4 pages on NUMA node 0, the job's hugetlbfs mount"
"$FAB" job "$b" --json --conf "$STAGE/fabsched.conf" > "$STAGE/out/job-b.json" 2>"$STAGE/out/job-b.err"
got=$(cl_py -c '
import json, sys
j = json.load(open(sys.argv[1]))
r = j["per_node"][0]["record"]
print(j["state"], [(h["size"], h["numa"], h["pages"]) for h in r["hugepages"]],
      [m["path"] for m in r["mounts"]], len(r["tasks"]), r["task_numa"], r["malformed_lines"])' \
	"$STAGE/out/job-b.json" 2>&1)
tap_is "$got" "COMPLETED [('2m', 0, 4)] ['$STAGE/mnt/$b-2m'] 2 [0] 0" \
	"fabsched job $b --json, after the job: hugepages per NUMA node, mount, its 2 tasks (batch, step 0) on NUMA node 0"

# 10-12: another user cannot read them; the user cannot change the
# node's record, and a file of their own in its place is not shown
tap_ok "! runuser -u nobody -- cat '$R/$a/n001' >/dev/null 2>&1" "another user cannot read job $a's record"
runuser -u "$TUSER" -- sh -c "echo 'hca evil ports 1 numa 0 cpus 0' >> '$R/$a/n001'" 2>"$STAGE/out/append.err"
tap_ok "[ \$? -ne 0 ] && ! grep -q evil '$R/$a/n001'" "$TUSER cannot append to n001's record: $(cat "$STAGE/out/append.err")"
runuser -u "$TUSER" -- sh -c "rm -f '$R/$a/n001' && printf 'fabsched-record 1\nnode n001 job $a\nhca evil ports 1 numa 0 cpus 0\n' > '$R/$a/n001'"
"$FAB" job "$a" --json --conf "$STAGE/fabsched.conf" > "$STAGE/out/job-a2.json" 2>"$STAGE/out/job-a2.err"
"$FAB" job "$a" --conf "$STAGE/fabsched.conf" > "$STAGE/out/job-a2.txt" 2>&1
got=$(cl_py -c '
import json, sys
print(json.load(open(sys.argv[1]))["per_node"][0]["record"])' "$STAGE/out/job-a2.json" 2>&1)
tap_ok "[ '$got' = None ] && grep -q 'not written by fabsched-prolog' '$STAGE/out/job-a2.txt' && ! grep -q evil '$STAGE/out/job-a2.txt'" \
	"a record $TUSER put in its place is not shown: $(grep -o 'no record: .*' "$STAGE/out/job-a2.txt" | head -1)"

# 13: no JobRecordDir: said so
"$FAB" job "$a" --conf "$STAGE/fabsched-norecords.conf" > "$STAGE/out/job-a3.txt" 2>&1
tap_ok "grep -q 'no record: JobRecordDir is not set' '$STAGE/out/job-a3.txt'" \
	"without JobRecordDir, fabsched job says there is no record and why"

# 14-15: the sweep removes the records of jobs last changed more than
# JobRecordKeep days ago (default 7), and keeps the others
find "$R/$a" -exec touch -h -d '10 days ago' {} +
FABSCHED_CONF=$STAGE/fabsched.conf "$STAGE/bin/fabsched-sweep" --node n001 --running "" \
	> "$STAGE/out/sweep.log" 2>&1
tap_ok "[ ! -e '$R/$a' ]" "fabsched-sweep removed job $a's records, 10 days old: $(grep record "$STAGE/out/sweep.log")"
tap_ok "[ -s '$R/$b/n002' ]" "and kept job $b's, written today"

cl_down
tap_done
