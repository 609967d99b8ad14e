#!/bin/bash
# t-harness.sh - the cluster harness itself, with stock Slurm plugins only:
# 8 namespaced nodes, an ibsim fabric of 2 leaves x 4 hosts under 1 spine,
# discovery, jobs as root and as the test user, MPI over PMIx, and a down that
# leaves nothing behind (also with a job still running). Prints TAP.
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"

cl_require
T0=$(date +%s.%N)
tap_plan 14

NODES="n001 n002 n003 n004 n005 n006 n007 n008"
TUSER=${FABSCHED_CLUSTER_USER:-fabtest}

# 1
cl_up --nodes 8 --prefix n --fabric "leaves=2,hosts=4,spines=1"
tap_ok $? "cluster up: 8 nodes and a 2x4 fabric" || tap_bail "the cluster did not come up"
D=$FABSCHED_CLUSTER_DIR

# 2-4: discovery from the host namespace sees exactly the generated fabric
disc=$(cd "$D/fabric" && mkdir -p work && cd work && timeout 60 ibsim-run ibnetdiscover 2>/dev/null)
hcas=$(awk -F'"' '/^Ca/ { print $4 }' <<<"$disc" | sort | tr '\n' ' ')
want_hcas=$(for n in $NODES; do printf '%s mlx5_0 ' "$n"; done)
tap_is "$hcas" "$want_hcas" "ibnetdiscover: 8 HCAs named n001..n008 mlx5_0"
sws=$(awk -F'"' '/^Switch/ { print $4 }' <<<"$disc" | sort | tr '\n' ' ')
tap_is "$sws" "leaf01 leaf02 spine01 " "ibnetdiscover: switches leaf01 leaf02 spine01"
links=$(awk '/^\[/ && /"[SH]-/ { l++ } END { print l / 2 }' <<<"$disc")
want_links=$(sed -n 's/^# fabric-summary: .*links=\([0-9]*\).*/\1/p' "$FABSCHED_FABRIC_NET")
tap_is "$links" "${want_links:-?}" "ibnetdiscover: $want_links links, as in the net file"

# 5
idle=$(sinfo -h -N -o '%N %T' | sort -u | awk '$2 == "idle" { printf "%s ", $1 }')
tap_is "$idle" "$NODES " "sinfo: 8 idle nodes"

# 6: the nodes count the machine's hugepages, so while they run no test may
# change the pools: the test holds their lock shared, no daemon holds it
flock -n -x "$CL_HP_LOCK" true
busy=$?
holders=$(for p in $("$CL" pids); do ls -l "/proc/$p/fd" 2>/dev/null; done | grep -c -F "$CL_HP_LOCK")
tap_ok "[ $busy -ne 0 ] && [ $holders -eq 0 ]" \
	"while the cluster runs the hugepage pools' lock is the test's, shared: no exclusive hold (flock rc $busy), no cluster process holds it ($holders)"

# 7: every node has its own hostname (job as root)
names=$(cl_srun -N8 hostname 2>&1 | sort | tr '\n' ' ')
tap_is "$names" "$NODES " "srun -N8 hostname: 8 distinct host names"

# 8-11: MPI over PMIx, submitted as the unprivileged user
id=$(cl_sbatch --user "$TUSER" -J hello -N4 -n8 -t 5 -o hello-%j.out \
	--wrap "srun --mpi=pmix $FABSCHED_MPI_HELLO")
cl_wait_job "$id" 120
tap_ok $? "MPI job $id as $TUSER: COMPLETED"
user=$(cl_job_field "$id" UserId)
tap_is "${user%%(*}" "$TUSER" "job ran as $TUSER ($user)"
out=$(cl_job_output "$id")
[ -r "$out" ] || tap_diag "no output file '$out'"
ranks=$(grep -c '^rank=' "$out" 2>/dev/null)
nodes=$(sed -n 's/^rank=.* node=\([^ ]*\) .*/\1/p' "$out" 2>/dev/null | sort -u | wc -l)
tap_ok "[ '$ranks' = 8 ] && [ '$nodes' = 4 ]" "8 ranks on 4 distinct nodes (got $ranks on $nodes)" ||
	tap_diag "$(cat "$out" 2>/dev/null)"
grep -qx "allreduce=ok" "$out" 2>/dev/null
tap_ok $? "allreduce ok"

# 12-14: down with a job still running leaves nothing behind
long=$(cl_sbatch --user "$TUSER" -J sleeper -N2 -n2 -t 5 -o sleeper-%j.out --wrap "srun sleep 300")
cl_poll 10 cl_job_in "$long" RUNNING
tap_diag "job $long before down: $(cl_job_field "$long" JobState)"
# every process of the cluster, with its start time (pids get reused)
pstart() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
before=()
for p in $("$CL" pids); do before+=("$p:$(pstart "$p")"); done
steps=$(for e in "${before[@]}"; do cat "/proc/${e%%:*}/comm" 2>/dev/null; done | grep -c '^slurmstepd')
tap_diag "cluster processes before down: ${#before[@]} ($steps slurmstepd)"

cl_down
tap_ok $? "cluster down"

pid_alive() { [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
# nothing_left: no process of the cluster alive (sets left)
nothing_left() {
	local e p
	left=()
	for e in "${before[@]}"; do
		p=${e%%:*}
		# a zombie has ended; PID 1 of this machine reaps them a few seconds late
		[ -d "/proc/$p" ] && [ "$(pstart "$p")" = "${e#*:}" ] &&
			! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null && left+=("$p")
	done
	for p in $(grep -lzxF "FABSCHED_CLUSTER_OWNER=$D" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do
		pid_alive "$p" && left+=("$p")
	done
	[ ${#left[@]} -eq 0 ]
}
# a process caught while it exits is given a moment
cl_poll 3 nothing_left
tap_ok "[ ${#left[@]} -eq 0 ] && [ ! -d '$FABSCHED_CLUSTER_CGROUP' ]" \
	"no slurmd/slurmctld/slurmstepd/munged/ibsim or job process left, cgroup gone" ||
	tap_diag "left: ${left[*]}" "$(ps -o pid,stat,args -p "$(IFS=,; echo "${left[*]}")" 2>&1)"
mounts=$(grep -lF " $D" /proc/[0-9]*/mountinfo 2>/dev/null | tr '\n' ' ')
tap_ok "[ -z '$mounts' ] && ! grep -q '@$IBSIM_SOCKNAME:' /proc/net/unix" \
	"no mount of $D and no ibsim socket left" || tap_diag "mounts seen by: $mounts"

tap_diag "cluster up took ${CL_UP_SECONDS:-?} s; whole test $(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
tap_done
