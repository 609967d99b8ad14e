#!/bin/bash
# test_prolog_real.sh - fabsched-prolog, -epilog and -sweep for real on this
# machine's hugepages (root only: SKIP otherwise): reserve, mount, limit
# (cgroup v2 hugetlb), release; a failure injected after each step, then
# epilog, prolog again or sweep; hostile inputs.  After every case the
# machine's hugepage counts and the mounts under the test directory must be
# exactly where they were.  Everything the test reserves, mounts or creates
# is given back on exit, also on failure.  Prints TAP.
B=${FABSCHED_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
SEAM=$B/tests/unit/test_prolog_seam
MAP=$B/tests/unit/test_prolog_map
NODE0=/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages
TUSER=${FABSCHED_TEST_USER:-fabtest}

if [ "$(id -u)" != 0 ]; then echo "1..0 # SKIP not root: hugepages, mounts and cgroups need root"; exit 0; fi
if [ ! -w "$NODE0" ]; then echo "1..0 # SKIP $NODE0 not writable (no 2 MiB hugepages here)"; exit 0; fi
if [ ! -x "$SEAM" ] || [ ! -x "$MAP" ]; then echo "1..0 # SKIP $SEAM or $MAP not built"; exit 0; fi
if ! id -u "$TUSER" >/dev/null 2>&1; then
	TUSER=nobody
fi
TUID=$(id -u "$TUSER") TGID=$(id -g "$TUSER")

T=${FABSCHED_PROLOG_TEST_DIR:-/var/lib/fabsched-prolog-test}.$$
CONF=$T/fabsched.conf
CG2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
CGP=
CG_ROOT_HUGETLB_ADDED=0
N=0 FAILED=0
pages() { cat "$NODE0"; }
mounts() { awk -v t="$T/" 'index($5, t) == 1 { print $5 }' /proc/self/mountinfo | sort; }
ok() { N=$((N + 1)); if [ "$1" = 0 ]; then echo "ok $N - $2"; else echo "not ok $N - $2"; FAILED=$((FAILED + 1)); fi; }
is() { N=$((N + 1)); if [ "$1" = "$2" ]; then echo "ok $N - $3"; else echo "not ok $N - $3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; FAILED=$((FAILED + 1)); fi; }
diag() { sed 's/^/# /' <<<"$*"; }

# Tests that change the machine's hugepage pools take this lock alone, so
# that two of them (two `make check` in parallel, a cluster test) never mix;
# every other cluster test holds it shared while its nodes count the pools.
LOCK=/run/lock/fabsched-hugepages-test.lock
exec 9>>"$LOCK"
if ! flock -w 900 9; then echo "1..0 # SKIP $LOCK held by another test for 15 minutes"; exit 0; fi
ORIG_PAGES=$(pages)
# Pages that were in the pool before any job (an administrator's boot-time
# reservation): the helpers must never give them back, whatever failed.
echo $((ORIG_PAGES + 2)) > "$NODE0"
BASE_PAGES=$(pages)
cleanup() {
	local m
	# leftover processes of the test user mapping files of ours
	pkill_list=$(pgrep -f "$MAP $T/" 2>/dev/null)
	for p in $pkill_list; do kill -KILL "$p" 2>/dev/null; done
	for m in $(mounts | sort -r); do umount -l "$m" 2>/dev/null; done
	if [ -n "$CGP" ] && [ -d "$CGP" ]; then
		for d in "$CGP"/job_*; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
		rmdir "$CGP" 2>/dev/null
	fi
	if [ "$CG_ROOT_HUGETLB_ADDED" = 1 ]; then
		echo -hugetlb > "$CG2/cgroup.subtree_control" 2>/dev/null
	fi
	[ "$(pages)" != "$ORIG_PAGES" ] && echo "$ORIG_PAGES" > "$NODE0"
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$T" && chmod 0755 "$T"
printf 'StateDir=%s/state\nHugepageMountBase=%s/mnt\n' "$T" "$T" > "$CONF"
export FABSCHED_CONF=$CONF

# run the seam binary with a job environment: job ID PROGRAM [args]
job() {
	local id=$1 prog=$2 e=(); shift 2
	[ -n "${HPC:-}" ] && e=(FABSCHED_HUGEPAGES_COUNT="$HPC")
	env SLURM_JOB_ID="$id" SLURM_JOB_UID="$TUID" SLURM_JOB_GID="$TGID" \
		FABSCHED_HUGEPAGES="${HP-2m:0=4}" "${e[@]}" \
		"$SEAM" "$prog" "$@" 2>"$T/err" >"$T/out"
}
clean_state() {	# pages, mounts, ledgers all back where they were
	[ "$(pages)" = "$BASE_PAGES" ] && [ -z "$(mounts)" ] &&
		[ -z "$(ls -A "$T/state/jobs" 2>/dev/null)" ] &&
		[ -z "$(ls -A "$T/mnt" 2>/dev/null)" ]
}
state() { echo "pages=$(pages) mounts=[$(mounts | tr '\n' ' ')] ledgers=[$(ls -A "$T/state/jobs" 2>/dev/null | tr '\n' ' ')] dirs=[$(ls -A "$T/mnt" 2>/dev/null | tr '\n' ' ')]"; }
CLEAN="pages=$BASE_PAGES mounts=[] ledgers=[] dirs=[]"

echo "1..57"
diag "node0 2 MiB pages at start: $ORIG_PAGES, $BASE_PAGES with the test's own baseline; test user $TUSER ($TUID:$TGID); dir $T"

# --- 1-8: reserve, mount, limit, map, release (cgroup v2 hugetlb when available)
if [ -n "$CG2" ] && grep -qw hugetlb "$CG2/cgroup.controllers" 2>/dev/null; then
	if ! grep -qw hugetlb "$CG2/cgroup.subtree_control"; then
		echo +hugetlb > "$CG2/cgroup.subtree_control" && CG_ROOT_HUGETLB_ADDED=1
	fi
	CGP=$CG2/fabsched-prolog-test.$$
	mkdir "$CGP" && echo +hugetlb > "$CGP/cgroup.subtree_control" && mkdir "$CGP/job_1001"
fi
job 1001 prolog ${CGP:+--cgroup-parent "$CGP"}
rc=$?
ok $rc "prolog of job 1001 (2m:0=4) succeeds"; [ $rc = 0 ] || diag "$(cat "$T/err")"
is "$(cat "$T/out")" "FABSCHED_HUGEPAGES_MOUNT=$T/mnt/1001-2m" "prolog prints the mount path"
is "$(pages)" "$((BASE_PAGES + 4))" "node0 pool grew by exactly 4 pages"
opts=$(awk -v m="$T/mnt/1001-2m" '$5 == m { print $6 "|" $NF }' /proc/self/mountinfo)
is "$opts" "rw,nosuid,nodev,relatime|rw,uid=$TUID,gid=$TGID,mode=700,pagesize=2M,size=8388608" \
	"hugetlbfs mounted with uid, gid, mode 0700, pagesize, size of the job's pages"
is "$(stat -c '%U %a' "$T/state/jobs/1001") $(stat -c '%a' "$T/state/jobs")" "root 600 700" "ledger root-only"
if [ -n "$CGP" ]; then
	is "$(cat "$CGP/job_1001/hugetlb.2MB.max") $(cat "$CGP/job_1001/hugetlb.2MB.rsvd.max" 2>/dev/null)" \
		"8388608 8388608" "hugetlb.2MB.max and .rsvd.max of the job cgroup"
else
	echo "ok $((N += 1)) # SKIP no cgroup v2 hugetlb controller"
fi
out=$(runuser -u "$TUSER" -- "$MAP" "$T/mnt/1001-2m" 4 2>&1)
ok $? "the job's user maps and checks 4 pages, and a 5th is refused ($out)"
job 1001 epilog
rc=$?
ok $rc "epilog of job 1001"
is "$(state)" "$CLEAN" "pages, mounts, directory and ledger back where they were"
if [ -n "$CGP" ]; then
	v=$(cat "$CGP/job_1001/hugetlb.2MB.max")
	ok "$( { [ "$v" = max ] || [ "$v" -gt 8388608 ]; } && echo 0 || echo 1)" "cgroup limit reset to max ($v)"
	rmdir "$CGP/job_1001"
else
	echo "ok $((N += 1)) # SKIP no cgroup v2 hugetlb controller"
fi
job 1001 epilog
ok $? "second epilog of job 1001: nothing to do, success"
out=$(runuser -u "$TUSER" -- env FABSCHED_CONF="$CONF" SLURM_JOB_ID=1001 SLURM_SCRIPT_CONTEXT=prolog_task "$SEAM" prolog 2>&1)
is "$out" "" "TaskProlog mode after the epilog: no mount, no export"

# --- 13-32: a failure injected after each step, then epilog / prolog again / sweep
for step in ledger reserve mkdir mount cgroup "done"; do
	FABSCHED_FAIL_AFTER=$step job 1002 prolog
	rc=$?
	is "$rc" 70 "prolog died after step '$step'"
	FABSCHED_FAIL_AFTER='' job 1002 epilog
	ok $? "then the epilog succeeds"
	is "$(state)" "$CLEAN" "and everything is back (failure after '$step', epilog)"
done
for step in reserve mount; do
	FABSCHED_FAIL_AFTER=$step job 1003 prolog
	job 1003 prolog
	ok $? "prolog died after '$step'; the same job's prolog again succeeds"
	is "$(pages)" "$((BASE_PAGES + 4))" "holding exactly 4 pages, not 8"
	job 1003 epilog
	FABSCHED_FAIL_AFTER=$step job 1004 prolog
	job 0 sweep --query 'echo 1003'
	is "$(state)" "$CLEAN" "epilog, then a prolog dying after '$step' and a sweep (job not running): all back"
done

# --- 33-37: epilog crashes, sweep with a running job, leftover processes
job 1005 prolog
runuser -u "$TUSER" -- "$MAP" "$T/mnt/1005-2m" 2 2048 hold > "$T/hold" 2>&1 &
for _ in $(seq 50); do grep -q holding "$T/hold" && break; sleep 0.1; done
# shellcheck disable=SC2209 # the variable is for the one call of job
FABSCHED_FAIL_AFTER=kill job 1005 epilog
is "$?/$(pgrep -u "$TUSER" -f "$MAP" | wc -l)" "70/0" "epilog killed the user's process holding the mount, then died (injected)"
FABSCHED_FAIL_AFTER=release job 1005 epilog
FABSCHED_FAIL_AFTER='' job 1005 epilog
ok $? "epilog after two crashed epilogs (after kill, after release) succeeds"
is "$(state)" "$CLEAN" "everything back after the crashed epilogs"
HP=2m:0=3 job 1006 prolog
HP=2m:0=5 job 1007 prolog
job 0 sweep --running 1006 --query ''
is "$(pages) $(mounts | tr '\n' ' ')" "$((BASE_PAGES + 3)) $T/mnt/1006-2m " \
	"sweep with job 1006 running: job 1007's 5 pages and mount given back, 1006's kept"
job 0 sweep --query 'exit 3'
is "$?/$(pages)" "1/$((BASE_PAGES + 3))" "sweep whose running-jobs query fails touches nothing"
job 1006 epilog

# --- a process of another user (root here) keeps the job's pages mapped:
# lazy unmount, the epilog fails (the node would drain) with the reason, the
# kernel keeps the pages as surplus until their user ends; then all back
# (free pages the pool had before the job are given back in their place: only
# what exceeds them stays over the pool's count and is named)
free_before=$(cat "${NODE0%/nr_hugepages}/free_hugepages")
over=$((3 - free_before))
if [ "$over" -gt 0 ]; then
	want42="1|1|node 0: $over pages of 2m still in use after the job|"
else
	over=0 want42="0|1||"
fi
job 1017 prolog
"$MAP" "$T/mnt/1017-2m" 3 2048 hold > "$T/hold" 2>&1 &
holder=$!
for _ in $(seq 50); do grep -q holding "$T/hold" && break; sleep 0.1; done
job 1017 epilog
is "$?|$(grep -c 'busy; detaching it (lazy unmount)' "$T/err")|$(grep -o "node 0: $over pages of 2m still in use after the job" "$T/err" | head -1)|$(mounts)" \
	"$want42" \
	"pages held by a root process: lazy unmount; the epilog fails naming the $over pages its pool could not give back ($free_before free before the job)"
kill "$holder"; wait "$holder" 2>/dev/null
for _ in $(seq 50); do [ "$(pages)" = "$BASE_PAGES" ] && break; sleep 0.1; done
is "$(pages)" "$BASE_PAGES" "once their user ended, the kernel freed the surplus pages"
job 1017 epilog
is "$?|$(state)" "0|$CLEAN" "the next epilog finishes: nothing left, nothing given back twice"

# --- hostile inputs
HP=2m:0=4 job 1008 prolog
job 1008 epilog
mkdir -p "$T/elsewhere" && rmdir "$T/mnt" && ln -s "$T/elsewhere" "$T/mnt"
job 1009 prolog
is "$?|$(grep -o 'is a symbolic link: refusing to follow it' "$T/err")|$(pages)|$(ls -A "$T/elsewhere")" \
	"1|is a symbolic link: refusing to follow it|$BASE_PAGES|" "symlinked mount base: refused, nothing reserved or made"
rm "$T/mnt" && mkdir "$T/mnt"
install -d -o "$TUSER" -m 0700 "$T/mnt/1010-2m"
job 1010 prolog
is "$?|$(grep -o 'owned by uid [0-9]*' "$T/err" | head -1)|$(pages)" "1|owned by uid $TUID|$BASE_PAGES" \
	"per-job directory pre-created by another user: refused, pages given back"
is "$(stat -c %U "$T/mnt/1010-2m")" "$TUSER" "and the user's directory is left alone"
rmdir "$T/mnt/1010-2m"
chmod 0777 "$T/mnt"
job 1011 prolog
is "$?|$(grep -o 'writable by group or others' "$T/err" | head -1)" "1|writable by group or others" "world-writable mount base refused"
chmod 0755 "$T/mnt"
HP=2m:0=2147483647 job 1012 prolog
is "$?|$(grep -c "more than the machine's memory" "$T/err")|$(pages)" "1|1|$BASE_PAGES" "absurd size (4 PiB): refused before touching the pool"
HP='2m:0=4;reboot' job 1013 prolog
is "$?|$(cat "$T/err")" "1|fabsched-prolog: job 1013: FABSCHED_HUGEPAGES pages=\"4;reboot\": not a number; expected digits only (1..2147483648)" \
	"malformed FABSCHED_HUGEPAGES: precise message"
HP=2m:0=4 HPC=5 job 1014 prolog
is "$?|$(grep -c 'does not match' "$T/err")" "1|1" "FABSCHED_HUGEPAGES_COUNT disagreeing: refused"
env SLURM_JOB_ID=1015 SLURM_JOB_UID=-5 FABSCHED_HUGEPAGES=2m:0=1 "$SEAM" prolog 2>"$T/err"
is "$?|$(grep -c 'SLURM_JOB_UID="-5": not a number' "$T/err")" "1|1" "negative uid refused"
# shortfall: the pool can only grow by 2 (clamped writes, for real): compaction once, give back, fail
FABSCHED_TEST_POOL_CAP=$((BASE_PAGES + 2)) job 1016 prolog
is "$?|$(grep -c 'compacting memory once' "$T/err")|$(grep -o 'node 0: asked 4 pages of 2048kB, got 2' "$T/err" | head -1)" \
	"1|1|node 0: asked 4 pages of 2048kB, got 2" "shortfall: compaction retried once, then 'node 0: asked 4 pages of 2048kB, got 2'"
is "$(state)" "$CLEAN" "after the hostile inputs, everything is back"
# the job's faults leave the node up (the job held), the node's do not
rm -f "$T/holds"
FABSCHED_TEST_HOLD_LOG=$T/holds FABSCHED_TEST_POOL_CAP=$((BASE_PAGES + 2)) job 1017 prolog
is "$?|$(grep -c 'job 1017: node 0: asked 4 pages of 2048kB, got 2' "$T/holds")|$(grep -c 'the job is held, the node stays up' "$T/err")|$(state)" \
	"0|1|1|$CLEAN" "shortfall with a hold seam: the job held with the reason, exit 0 (no drain), everything given back"
HP='2m:0=4;reboot' FABSCHED_TEST_HOLD_LOG=$T/holds job 1018 prolog
is "$?|$(grep -c 'job 1018: FABSCHED_HUGEPAGES' "$T/holds")" "0|1" "a job's value that cannot be trusted: the job held, exit 0"
ln -s "$T/state" "$T/linkbase"
printf 'StateDir=%s/state\nHugepageMountBase=%s/linkbase\n' "$T" "$T" > "$T/link.conf"
FABSCHED_CONF=$T/link.conf FABSCHED_TEST_HOLD_LOG=$T/holds job 1019 prolog
is "$?|$(grep -c 'job 1019' "$T/holds")|$(grep -c 'symbolic link' "$T/err")" "1|0|1" \
	"a mount base that is a link, the node's fault: exit 1 (drain), the job not held by the prolog"
rm -f "$T/linkbase" "$T/link.conf"

[ "$N" = 57 ] || echo "# ran $N tests, planned 57"
exit 0
