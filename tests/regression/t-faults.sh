#!/bin/bash
# t-faults.sh - the node helpers under faults and hostile users, in a real
# Slurm cluster with gres/hugepages, job_submit/fabsched and
# fabsched-prolog/epilog (PrologFlags=Alloc, PrologEpilogTimeout=8):
#   - an epilog run once more by hand for a job that ended, while another
#     job holds pages on the node: exit 0, the other job's pages, mount and
#     ledger untouched;
#   - a prolog that exceeds PrologEpilogTimeout after reserving its pages:
#     Slurm kills it and drains the node; once the epilog (or the sweep)
#     has run, the node's pool, mounts and ledgers are as before the job;
#   - slurmd SIGKILLed while the prolog holds the job's pages, then
#     started again after the sweep (which leaves the job alone: Slurm
#     still counts it running): once Slurm has ended the job (requeued, or
#     cancelled while it waits for its prolog) and the epilog or a later
#     sweep has run, the node as before;
#   - a job forging fabsched's variables in its environment (--export of
#     FABSCHED_* and SPANK_FABSCHED_*, a crafted job name and comment) gets
#     nothing it did not ask for;
#   - a job submitted through libslurm with fabsched's job-control variables
#     crafted in its SPANK environment: job_submit/fabsched drops them, the
#     prolog reserves what the gres gives;
#   - the same with Slurm's own prefix (SPANK_FABSCHED_SCRATCH=1024T, a
#     garbage SPANK_FABSCHED_HUGEPAGES_ASKED, SPANK__SLURM_SPANK_OPTION_
#     fabsched_scratch), which Slurm passes to the prolog as it is: dropped
#     at submission, the job runs, the node is not drained;
#   - a job whose own request the node cannot meet (a scratch volume, with
#     the scratch license charged, on nodes whose fabsched.conf names no
#     pool): the job is requeued held with the reason in its
#     AdminComment (which its owner sees), it never ran, the node stays up;
#     one that may not be requeued (--no-requeue) is cancelled instead;
#   - the user cannot plant a link in the hugetlbfs base, and an entry
#     planted there (a symbolic link to another directory) is refused,
#     never followed: nothing mounted over its target, nothing reserved.
# "As before" is a snapshot: node0's 2 MiB pool, the mounts under the base
# in the node's mount namespace, the ledgers and the base's entries.
# Every slurmd runs on this machine: the pools are this machine's (node0).
# Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"

cl_require
cl_require_build plugins/gres/.libs/gres_hugepages.so \
	plugins/job_submit/fabsched/.libs/job_submit_fabsched.so prolog/fabsched-prolog
cl_require_hugepages
tap_plan 23
TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
FIX=$SRC/tests/fixtures
STAGE=${FABSCHED_FAULTS_TEST_DIR:-/var/lib/fabsched-test/faults}
BASE_PAGES=$(cat "$NODE0")
SLURM_PREFIX=${FABSCHED_CLUSTER_SLURM_PREFIX:-/usr}

# --- stage: plugins, helpers, fabsched.conf, wrappers, nodes file
rm -rf "$STAGE" && mkdir -p "$STAGE/plugins" "$STAGE/sysfs" "$STAGE/bin" "$STAGE/out" \
	"$STAGE/mnt" "$STAGE/victim" || tap_bail "cannot write $STAGE"
cp "$FABSCHED_BUILDDIR"/plugins/gres/.libs/gres_hugepages.so \
	"$FABSCHED_BUILDDIR"/plugins/job_submit/fabsched/.libs/job_submit_fabsched.so "$STAGE/plugins/"
for p in fabsched-prolog fabsched-epilog fabsched-sweep; do
	cp "$FABSCHED_BUILDDIR/prolog/$p" "$STAGE/bin/" || tap_bail "$p not built"
done
cp -r "$FIX/sysfs/nohca" "$STAGE/sysfs/n001"
cp -r "$FIX/sysfs/nohca" "$STAGE/sysfs/n002"
echo "another user's file" > "$STAGE/victim/data"
printf 'StateDir=%s/state\nHugepageMountBase=%s/mnt\n' "$STAGE" "$STAGE" > "$STAGE/fabsched.conf"
# the prolog records the fabsched variables it was given; with
# $STAGE/slow.<node> present it then overruns PrologEpilogTimeout
cat > "$STAGE/prolog" <<EOF
#!/bin/sh
FABSCHED_CONF=$STAGE/fabsched.conf FABSCHED_SYSFS_ROOT=$STAGE/sysfs/\$SLURMD_NODENAME \\
	$STAGE/bin/fabsched-prolog 2>>$STAGE/out/prolog.log
rc=\$?
env | grep -E '^(SPANK_)?FABSCHED_|^SPANK__SLURM_SPANK_OPTION_fabsched' | sort | sed "s/^/\$SLURM_JOB_ID /" >> $STAGE/out/prolog-env.log
if [ -e $STAGE/slow.\$SLURMD_NODENAME ]; then
	echo "\$SLURM_JOB_ID" >> $STAGE/out/slow.log
	sleep 60
fi
exit \$rc
EOF
cat > "$STAGE/epilog" <<EOF
#!/bin/sh
FABSCHED_CONF=$STAGE/fabsched.conf FABSCHED_SYSFS_ROOT=$STAGE/sysfs/\$SLURMD_NODENAME \\
	exec $STAGE/bin/fabsched-epilog 2>>$STAGE/out/epilog.log
EOF
cat > "$STAGE/nodes" <<EOF
n001 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n001 sockets=1 cores=4 threads=1 gres=hugepages:2m:128 memory=2000
n002 env=FABSCHED_SYSFS_ROOT=$STAGE/sysfs/n002 sockets=1 cores=4 threads=1 gres=hugepages:2m:128 memory=2000
EOF
cat > "$STAGE/bin/look.sh" <<EOF
#!/bin/sh
echo "pool=\$(cat $NODE0) mounts=\$(awk -v b="$STAGE/" 'index(\$5, b) == 1 { print \$5 }' /proc/self/mountinfo | tr '\n' ' ')"
sleep "\${1:-0}"
EOF
printf 'PrologFlags=Alloc,DeferBatch\nPrologEpilogTimeout=8\nJobSubmitPlugins=fabsched\nSlurmdDebug=verbose\nLicenses=scratch:1000\n' > "$STAGE/extra.conf"
chmod -R a+rX "$STAGE"
chmod 0755 "$STAGE/prolog" "$STAGE/epilog" "$STAGE/bin/look.sh"
chmod 0700 "$STAGE/out" "$STAGE/victim"
# the libslurm submitter, against the release under test
inc=$SLURM_PREFIX/include lib=$SLURM_PREFIX/lib
[ "$SLURM_PREFIX" = /usr ] && lib=/usr/lib/$(uname -m)-linux-gnu
cc -o "$STAGE/bin/craft_submit" "$SRC/tests/regression/craft_submit.c" -I"$inc" \
	-L"$lib" -Wl,-rpath,"$lib" -lslurm 2>"$STAGE/out/cc.log" ||
	tap_diag "craft_submit: $(cat "$STAGE/out/cc.log")"
chmod 0755 "$STAGE/bin/craft_submit" 2>/dev/null

# 1
cl_up --nodes-file "$STAGE/nodes" --plugin-dir "$STAGE/plugins" \
	--gres-types hugepages --extra-conf "$STAGE/extra.conf" \
	--etc-file "fabsched.conf=$STAGE/fabsched.conf" \
	--prolog "$STAGE/prolog" --epilog "$STAGE/epilog"
tap_ok $? "cluster up: 2 nodes, gres/hugepages, JobSubmitPlugins=fabsched, PrologEpilogTimeout=8" ||
	tap_bail "the cluster did not come up"
D=$FABSCHED_CLUSTER_DIR
uid=$(id -u "$TUSER") gid=$(id -g "$TUSER")

slurmd_pid() { cat "$D/nodes/$1/slurmd.pid" 2>/dev/null; }
on_node() {	# on_node NODE CMD...: CMD in NODE's mount namespace
	local pid
	pid=$(slurmd_pid "$1") || return 1
	nsenter -t "$pid" -m "${@:2}"
}
snap() {	# snap NODE: what the helpers must give back
	echo "pool=$(cat "$NODE0") mounts=[$(on_node "$1" awk -v b="$STAGE/" \
		'index($5, b) == 1 { print $5 }' /proc/self/mountinfo | tr '\n' ' ')]" \
		"ledgers=[$(ls "$STAGE/state/jobs" 2>/dev/null | tr '\n' ' ')]" \
		"base=[$(ls -A "$STAGE/mnt" | tr '\n' ' ')]"
}
CLEAN="pool=$BASE_PAGES mounts=[] ledgers=[] base=[]"
is_clean() { [ "$(snap "$1")" = "$CLEAN" ]; }	# is_clean NODE: all given back
wait_clean() {	# wait_clean NODE [SECONDS=30]
	cl_poll "${2:-30}" is_clean "$1"
}
wait_state() {	# wait_state JOBID STATE [SECONDS=60]
	cl_poll "${3:-60}" cl_job_in "$1" "$2"
}
node_state() { scontrol -o show node "$1" | tr ' ' '\n' | sed -n 's/^State=//p'; }
node_reason() { scontrol -o show node "$1" | sed -n 's/.* Reason=\(.*\) \[[^]]*\].*/\1/p'; }
drained() { case "$(node_state "$1")" in *DRAIN*) return 0 ;; esac; return 1; }	# drained NODE
wait_drain() {	# wait_drain NODE [SECONDS=60]
	cl_poll "${2:-60}" drained "$1"
}
pool_is() { [ "$(cat "$NODE0")" = "$1" ]; }	# pool_is PAGES: node0's pool holds PAGES
in_slow_prolog() { grep -qx "$1" "$STAGE/out/slow.log" 2>/dev/null; }	# in_slow_prolog JOBID: overrunning
left_running() {	# left_running JOBID: neither RUNNING nor CONFIGURING
	case "$(cl_job_field "$1" JobState)" in RUNNING|CONFIGURING) return 1 ;; esac
}
not_completing() { case "$(node_state "$1")" in *COMPLETING*) return 1 ;; esac; }	# not_completing NODE
requeued() {	# requeued JOBID: PENDING again after a restart
	[ "$(cl_job_field "$1" JobState)" = PENDING ] && [ "$(cl_job_field "$1" Restarts)" != 0 ]
}
epilog_by_hand() {	# epilog_by_hand NODE JOBID: as slurmd runs it, once more
	on_node "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin SLURM_JOB_ID="$2" \
		SLURM_JOB_UID="$uid" SLURM_JOB_GID="$gid" SLURMD_NODENAME="$1" \
		SLURM_SCRIPT_CONTEXT=epilog_slurmd "$STAGE/epilog"
}
tap_diag "machine's node0 2 MiB pages at start: $BASE_PAGES; n001: $(snap n001)"

# 2-4: the epilog of an ended job once more, while another job holds pages
a=$(cl_sbatch --user "$TUSER" -J first -w n001 -n 1 -t 5 --gres=hugepages:2m:4 -o /dev/null "$STAGE/bin/look.sh")
cl_wait_job "$a" 120
wait_clean n001
b=$(cl_sbatch --user "$TUSER" -J holder -w n001 -n 1 -t 5 --gres=hugepages:2m:6 -o holder-%j.out "$STAGE/bin/look.sh" 60)
wait_state "$b" RUNNING
cl_poll 10 pool_is $((BASE_PAGES + 6))
before=$(snap n001)
epilog_by_hand n001 "$a"
rc=$?
after=$(snap n001)
tap_ok "[ $rc -eq 0 ]" "job $a's epilog run once more by hand: exit 0 ($(grep "job $a" "$STAGE/out/epilog.log" | tail -1))"
tap_ok "[ '$before' = '$after' ] && grep -q 'pool=$((BASE_PAGES + 6))' <<<'$after' && grep -q '$b-2m' <<<'$after'" \
	"job $b, running, keeps its 6 pages, its mount and its ledger ($after)"
scancel "$b"
cl_wait_job "$b" 60
wait_clean n001
epilog_by_hand n001 "$b"
rc=$?
tap_ok "[ $rc -eq 0 ] && [ \"\$(snap n001)\" = '$CLEAN' ]" "after job $b ended, its epilog once more: exit 0, n001 as before ($(snap n001))"

# 5-7: the prolog overruns PrologEpilogTimeout after reserving its pages
touch "$STAGE/slow.n002"
c=$(cl_sbatch --user "$TUSER" -J slow -w n002 -n 1 -t 5 --gres=hugepages:2m:4 -o /dev/null "$STAGE/bin/look.sh")
cl_poll 30 in_slow_prolog "$c"
held=$(snap n002)
wait_drain n002 60
st=$(node_state n002) why=$(node_reason n002)
rm -f "$STAGE/slow.n002"
tap_ok "grep -q 'pool=$((BASE_PAGES + 4))' <<<'$held' && grep -q DRAIN <<<'$st'" \
	"job $c's prolog reserved its 4 pages ($held), then overran PrologEpilogTimeout: Slurm drained n002 (State=$st, Reason=$why)"
by="the epilog"
if ! wait_clean n002 30; then
	by="the sweep"
	on_node n002 env FABSCHED_CONF="$STAGE/fabsched.conf" "$STAGE/bin/fabsched-sweep" \
		--node n002 >>"$STAGE/out/sweep.log" 2>&1
	wait_clean n002 10
fi
tap_ok "[ \"\$(snap n002)\" = '$CLEAN' ]" "after $by: n002 as before the job ($(snap n002)); job $c $(cl_job_field "$c" JobState)"
scancel "$c" 2>/dev/null
scontrol update nodename=n002 state=resume >/dev/null 2>&1
id=$(cl_sbatch --user "$TUSER" -J after -w n002 -n 1 -t 5 --gres=hugepages:2m:4 -o after-%j.out "$STAGE/bin/look.sh")
cl_wait_job "$id" 120
tap_ok "[ $? -eq 0 ] && grep -q 'pool=$((BASE_PAGES + 4)) mounts=$STAGE/mnt/$id-2m' '$(cl_job_output "$id")'" \
	"resumed, n002 runs a hugepage job again ($id: $(cat "$(cl_job_output "$id")" 2>/dev/null))"
wait_clean n002

# 8-9: slurmd SIGKILLed while the prolog holds the job's pages, then
# started again (the sweep first, as fabsched-sweep.service does)
touch "$STAGE/slow.n001"
k=$(cl_sbatch --user "$TUSER" -J crash -w n001 -n 1 -t 5 --gres=hugepages:2m:4 -o /dev/null "$STAGE/bin/look.sh")
cl_poll 30 in_slow_prolog "$k"
held=$(snap n001)
"$CL" node kill n001 >/dev/null 2>&1
rc=$?
rm -f "$STAGE/slow.n001"
env FABSCHED_CONF="$STAGE/fabsched.conf" "$STAGE/bin/fabsched-sweep" --node n001 \
	>>"$STAGE/out/sweep.log" 2>&1
swept=$(tail -1 "$STAGE/out/sweep.log")
"$CL" node start n001 >/dev/null 2>&1
tap_ok "[ $rc -eq 0 ] && grep -q 'pool=$((BASE_PAGES + 4))' <<<'$held'" \
	"job $k's prolog held its 4 pages ($held) when n001's slurmd was SIGKILLed; the sweep before it started again: $swept"
# Slurm may requeue the job, or keep it running as long as it waits for
# its prolog's end (22.05 does): then it is cancelled, as a user would
cl_poll 10 left_running "$k"
how="Slurm $(cl_job_field "$k" JobState) it ($(cl_job_field "$k" Reason))"
if [ "$(cl_job_field "$k" JobState)" = RUNNING ]; then
	how="Slurm kept it RUNNING ($(cl_job_field "$k" Reason)), so it was cancelled"
	scancel "$k"
fi
by="the epilog"
if ! wait_clean n001 60; then
	by="the sweep, run again (fabsched-sweep.timer)"
	on_node n001 env FABSCHED_CONF="$STAGE/fabsched.conf" "$STAGE/bin/fabsched-sweep" \
		--node n001 >>"$STAGE/out/sweep.log" 2>&1
	wait_clean n001 10
fi
tap_ok "[ \"\$(snap n001)\" = '$CLEAN' ]" \
	"after the restart $how; after $by: n001 as before ($(snap n001))"
scancel "$k" 2>/dev/null
cl_poll 30 not_completing n001
scontrol update nodename=n001 state=resume >/dev/null 2>&1

# 10-12: fabsched's variables forged in the job's environment, name and comment
forged="FABSCHED_HUGEPAGES=2m:0=64,FABSCHED_HUGEPAGES_COUNT=64,SPANK_FABSCHED_HUGEPAGES=2m:0=64"
forged="$forged,SPANK_FABSCHED_HUGEPAGES_ASKED=2m:64,FABSCHED_HUGEPAGES_ASKED=2m:64"
forged="$forged,FABSCHED_RDMA_DEVICES=mlx5_0,SPANK_FABSCHED_SCRATCH=100,FABSCHED_SCRATCH_CHARGE=0"
forged="$forged,FABSCHED_LOCALITY=rack@0,SPANK_FABSCHED_RDMA_DEVICES=mlx5_0"
id=$(cl_sbatch --user "$TUSER" -J 'FABSCHED_HUGEPAGES=2m:0=64' --comment 'SPANK_FABSCHED_HUGEPAGES_ASKED=2m:64' \
	--export="ALL,$forged" -w n001 -n 1 -t 5 -o forged-%j.out "$STAGE/bin/look.sh")
cl_wait_job "$id" 120
rc=$?
out=$(cat "$(cl_job_output "$id")" 2>/dev/null)
tap_ok "[ $rc -eq 0 ] && [ '$out' = 'pool=$BASE_PAGES mounts=' ]" \
	"job $id with FABSCHED_* and SPANK_FABSCHED_* forged (--export, -J, --comment): no pages, no mount ($out)"
tap_is "$(grep -c "^$id " "$STAGE/out/prolog-env.log")" 0 "the prolog saw none of the forged variables"
wait_clean n001
tap_ok "[ \"\$(snap n001)\" = '$CLEAN' ] && ! grep -q 'job $id' '$STAGE/out/prolog.log'" \
	"the prolog had nothing to do for it; n001 as before"

# 13-14: crafted SPANK environment through libslurm, with a real request
if [ -x "$STAGE/bin/craft_submit" ]; then
	dir=$(cl_jobdir "$TUSER")
	# the form sbatch puts --gres in: gres:NAME on 22.05, gres/NAME later
	tres=gres/hugepages:2m:4
	[ "${FABSCHED_SLURM_FLAVOUR:-22.05}" = 22.05 ] && tres=gres:hugepages:2m:4
	id=$(cd "$dir" && runuser -u "$TUSER" -- env SLURM_CONF="$SLURM_CONF" "$STAGE/bin/craft_submit" n001 \
		"$tres" "$dir/crafted-%j.out" "#!/bin/sh
$STAGE/bin/look.sh" FABSCHED_HUGEPAGES_ASKED=2m:2 FABSCHED_HUGEPAGES=2m:0=64 \
		FABSCHED_SCRATCH=100 FABSCHED_SCRATCH_CHARGE=0 2>&1)
	cl_wait_job "$id" 120
	rc=$?
	out=$(cat "$(cl_job_output "$id")" 2>/dev/null)
	env=$(sed -n "s/^$id //p" "$STAGE/out/prolog-env.log" | tr '\n' ' ')
	tap_ok "[ $rc -eq 0 ] && grep -q '^pool=$((BASE_PAGES + 4)) mounts=$STAGE/mnt/$id-2m' <<<'$out'" \
		"job $id, --gres=hugepages:2m:4 with SPANK FABSCHED_HUGEPAGES_ASKED=2m:2 and FABSCHED_HUGEPAGES=2m:0=64 crafted: its 4 pages, no more, no fewer ($out)"
	tap_ok "grep -q 'SPANK_FABSCHED_HUGEPAGES_ASKED=2m:4 ' <<<'$env' && ! grep -q 'SPANK_FABSCHED_SCRATCH' <<<'$env' && grep -q '^FABSCHED_HUGEPAGES=2m:0=4 ' <<<'$env'" \
		"job_submit/fabsched replaced the crafted pages asked by the request's (2m:4) and dropped the scratch entries; the prolog saw: $env (it reads the unprefixed FABSCHED_HUGEPAGES of gres/hugepages)"
	wait_clean n001
	# 15-16: the prefixed forms the prolog reads, sent as they are
	id=$(cd "$dir" && runuser -u "$TUSER" -- env SLURM_CONF="$SLURM_CONF" "$STAGE/bin/craft_submit" n001 \
		"" "$dir/prefixed-%j.out" "#!/bin/sh
$STAGE/bin/look.sh" SPANK_FABSCHED_SCRATCH=1024T SPANK_FABSCHED_SCRATCH_CHARGE=0 \
		SPANK_FABSCHED_HUGEPAGES_ASKED=garbage SPANK__SLURM_SPANK_OPTION_fabsched_scratch=1024T 2>&1)
	cl_wait_job "$id" 120
	rc=$?
	out=$(cat "$(cl_job_output "$id")" 2>/dev/null)
	env=$(sed -n "s/^$id //p" "$STAGE/out/prolog-env.log" | tr '\n' ' ')
	tap_ok "[ $rc -eq 0 ] && [ '$out' = 'pool=$BASE_PAGES mounts=' ] && [ -z '$env' ]" \
		"job $id with SPANK_FABSCHED_SCRATCH=1024T, SPANK_FABSCHED_HUGEPAGES_ASKED=garbage and SPANK__SLURM_SPANK_OPTION_fabsched_scratch=1024T crafted: dropped at submission, the prolog saw none (${env:-nothing}), the job ran ($out, $(cl_job_field "$id" JobState))"
	st=$(node_state n001)
	tap_ok "! grep -q DRAIN <<<'$st' && ! grep -q 'job $id' '$STAGE/out/prolog.log'" \
		"n001 not drained by it (State=$st)"
	wait_clean n001
	# 17-18: the job's own request cannot be met here (--scratch as the
	# option entry, charged by job_submit; no pool in fabsched.conf)
	id=$(cd "$dir" && runuser -u "$TUSER" -- env SLURM_CONF="$SLURM_CONF" "$STAGE/bin/craft_submit" n001 \
		"" "$dir/nopool-%j.out" "#!/bin/sh
$STAGE/bin/look.sh" _SLURM_SPANK_OPTION_fabsched_scratch=10G 2>&1)
	cl_poll 60 requeued "$id"
	st=$(cl_job_field "$id" JobState) why=$(cl_job_field "$id" Reason)
	sc=$(runuser -u "$TUSER" -- env SLURM_CONF="$SLURM_CONF" scontrol -o show job "$id" |
		grep -o 'AdminComment=fabsched-prolog job [0-9]*: [^=]*' | sed 's/ [A-Za-z]*$//')
	tap_ok "[ '$st' = PENDING ] && grep -q 'names no scratch pool' <<<'$sc' && [ ! -e '$dir/nopool-$id.out' ]" \
		"job $id, --scratch=10G charged but no pool on the node: requeued held (State=$st Reason=$why), the reason in its AdminComment, as its owner sees it ($sc), it never ran"
	nst=$(node_state n001)
	tap_ok "! grep -q DRAIN <<<'$nst' && grep -q 'the job is held, the node stays up' '$STAGE/out/prolog.log'" \
		"n001 stays up (State=$nst): $(grep "job $id" "$STAGE/out/prolog.log" | tail -1)"
	scancel "$id" 2>/dev/null
	cl_wait_job "$id" 60 >/dev/null 2>&1
	wait_clean n001
	# 19: the same, --no-requeue: Slurm refuses the requeue, so cancelled
	id=$(cd "$dir" && runuser -u "$TUSER" -- env SLURM_CONF="$SLURM_CONF" CRAFT_NO_REQUEUE=1 \
		"$STAGE/bin/craft_submit" n001 "" "$dir/nopool-%j.out" "#!/bin/sh
$STAGE/bin/look.sh" _SLURM_SPANK_OPTION_fabsched_scratch=10G 2>&1)
	cl_wait_job "$id" 120
	st=$(cl_job_field "$id" JobState) nst=$(node_state n001)
	tap_ok "[ '$st' = CANCELLED ] && [ ! -e '$dir/nopool-$id.out' ] && ! grep -q DRAIN <<<'$nst'" \
		"job $id, the same with --no-requeue: $st, never ran, n001 stays up (State=$nst)"
	wait_clean n001
else
	tap_ok 1 "craft_submit builds against $SLURM_PREFIX: $(head -c 300 "$STAGE/out/cc.log")"
	tap_ok 1 "so the crafted SPANK environment could not be submitted"
	tap_ok 1 "nor the prefixed forms"
	tap_ok 1 "(no libslurm submitter)"
	tap_ok 1 "nor a job asking a scratch volume"
	tap_ok 1 "(no libslurm submitter)"
	tap_ok 1 "nor one that may not be requeued"
fi

# 20-22: links in the hugetlbfs base
next=$(cl_sbatch --user "$TUSER" -H -J planted -w n002 -n 1 -t 5 --gres=hugepages:2m:4 -o planted-%j.out "$STAGE/bin/look.sh")
runuser -u "$TUSER" -- ln -s "$STAGE/victim" "$STAGE/mnt/$next-2m" 2>"$STAGE/out/ln.log"
rc=$?
tap_ok "[ $rc -ne 0 ] && [ ! -e '$STAGE/mnt/$next-2m' ]" \
	"$TUSER cannot plant a link in the base: $(cat "$STAGE/out/ln.log")"
ln -s "$STAGE/victim" "$STAGE/mnt/$next-2m"
scontrol release "$next"
wait_drain n002 60
why=$(node_reason n002)
tap_ok "grep -q 'refusing to use it' <<<'$why' && ! on_node n002 grep -q ' $STAGE/victim ' /proc/self/mountinfo" \
	"a link planted at $STAGE/mnt/$next-2m: refused, nothing mounted over its target (Reason=$why)"
rm -f "$STAGE/mnt/$next-2m"
scancel "$next" 2>/dev/null
wait_clean n002
tap_ok "[ \"\$(snap n002)\" = '$CLEAN' ] && [ \"\$(cat '$STAGE/victim/data')\" = \"another user's file\" ] && [ \"\$(stat -c %U:%a '$STAGE/victim')\" = root:700 ]" \
	"nothing reserved, the target as it was ($(snap n002))"
scontrol update nodename=n002 state=resume >/dev/null 2>&1

# 23
cl_down
tap_ok "[ \"\$(cat $NODE0)\" = $BASE_PAGES ]" "after the cluster stopped: node0 pool at $BASE_PAGES"
tap_done
