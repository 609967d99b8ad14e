#!/bin/bash
# bench_ctld.sh - slurmctld under a real queue, stock Slurm against fabsched,
# on this build's Slurm release (make bench-ctld; root; not a test).
#
# One emulated cluster of BENCH_NODES nodes (default 128) in racks of
# BENCH_HOSTS (default 8) on a simulated fabric, and a queue of BENCH_JOBS
# (default 5000) pending whole-node jobs of 1 to 2*BENCH_HOSTS nodes (job
# arrays of BENCH_ARRAY tasks, sizes and run times mixed), run these ways
# (BENCH_SETUPS, default "stock stock+sw fabsched"):
#   stock       select/cons_tres + topology/tree (topology.conf of the same
#               fabric), jobs as submitted
#   stock+sw    the same, and the jobs that fit a rack submitted with
#               --switches=1@BENCH_WAIT (the strongest stock setup)
#   fabsched    fabsched's placement (22.05: select/cons_tres_fabric; later:
#               select/cons_tres + topology/fabric), Locality=rack
#               LocalityWait=BENCH_WAIT; nodes configured as stock's
#   fabsched+target  the same with LocalityTarget=100%: a job that fits a
#               rack waits for one up to BENCH_WAIT, a bigger job takes the
#               fewest racks free now (under plain Locality=rack it waits
#               up to BENCH_WAIT for its fewest racks): the requests of
#               stock+sw, whose bigger jobs have no --switches
#   fabsched-off, fabsched-observe  fabsched loaded with Locality=off
#               (stock placement) and with Locality=observe (stock
#               placement, and what fabsched would have done recorded):
#               what an observation costs per scheduling call
#   stock+gres, fabsched+gres  stock and fabsched with GresTypes=rdma,
#               hugepages (fabsched's gres plugins loaded in the second):
#               what configured GRES types cost Slurm itself (each node's
#               GRES state is copied for every backfill plan), the same in
#               both
# For each, over a window of BENCH_WINDOW seconds (default 120) after the
# queue is in: sdiag's main and backfill cycle times (mean, max), slurmctld's
# CPU share and RSS, jobs started per minute, and of the jobs the window
# started of 2 nodes or more that fit a rack the share that got one.  Then fabsched's cycle times over
# stock's.  The harness's own start time and memory are printed too.
# Figures, not a pass/fail test: the machine is shared, compare the ratios.
# A window's cycle means hang on a few long cycles, so BENCH_ROUNDS=N runs
# the setups in turn N times and prints each round and each figure's
# median; BENCH_WINDOWS=N (default 1) measures N windows one after the
# other on each setup's cluster and queue (each a sample, as a round is),
# which costs one start and one queue instead of N (at 1,024 nodes a
# setup's start, queue and stop take about 11 minutes, its window 2).  With fabsched, its own time per placement and the backend's
# (cons_tres's node choice), as slurmctld logs them once a minute.
# BENCH_SPANK=no leaves fabsched's SPANK plugin off the nodes (its work in
# slurmstepd shares this machine's CPUs with slurmctld).
# BENCH_PIN (default yes when the run may use 2 CPUs or more) gives
# slurmctld the first of them to itself and every node's slurmd (and what
# it starts) the others, as a site's controller has its own host: the
# emulated nodes' job launches then no longer stretch the controller's
# cycles by taking its CPU (BENCH_PIN=no: all share every CPU).
# BENCH_SHARED=yes makes the queue's jobs share nodes: each asks 2 tasks
# (-n, of 1 CPU) for each node the whole-node job of its place would have
# asked, without --exclusive (stock+sw: --switches=1 on each, since each
# fits a rack), so that placements count CPUs on nodes other jobs hold.
# BENCH_DRAIN=yes measures, instead of windows, the whole run of the queue
# from its release until every job has ended (one sample a round; set
# BENCH_JOBS to what the nodes run in minutes, e.g. 2,000 at 1,024
# nodes): every setup then does the same work, so slurmctld's CPU and
# cycles per job started are paired, and beside them the makespan and
# the jobs' mean wait from the release (BENCH_DRAIN_TIMEOUT, default
# 3600 s, bounds the wait for the last job).
# BENCH_PERF=1 also records slurmctld with perf over each window and writes
# its hottest functions to perf-SETUP.txt in the work directory (perf's
# own messages to perf-SETUP.log)
# (BENCH_PERF=dwarf: with DWARF call graphs, for perf report --children).
set -u
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"
# shellcheck source=../regression/fabsched-plugins.sh
. "$SRC/tests/regression/fabsched-plugins.sh"
cl_require
cl_require_build

NODES=${BENCH_NODES:-128}
HOSTS=${BENCH_HOSTS:-8}
JOBS=${BENCH_JOBS:-5000}
ARRAY=${BENCH_ARRAY:-100}
WINDOW=${BENCH_WINDOW:-120}
WAIT=${BENCH_WAIT:-10:00}
WHICH=${BENCH_SETUPS:-stock stock+sw fabsched}
ROUNDS=${BENCH_ROUNDS:-1}
WINDOWS=${BENCH_WINDOWS:-1}
SHARED=${BENCH_SHARED:-no}
DRAIN=${BENCH_DRAIN:-no}
DRAIN_TIMEOUT=${BENCH_DRAIN_TIMEOUT:-3600}
# the CPUs this run may use (its affinity list, e.g. "0-3,8"), one by one
CPUS=()
for r in $(awk '/^Cpus_allowed_list:/ { gsub(",", " ", $2); print $2 }' /proc/self/status 2>/dev/null); do
	case $r in
	*-*) for ((c = ${r%-*}; c <= ${r#*-}; c++)); do CPUS+=("$c"); done ;;
	*) CPUS+=("$r") ;;
	esac
done
NCPU=${#CPUS[@]}
PIN=${BENCH_PIN:-$([ "$NCPU" -ge 2 ] && echo yes || echo no)}
case $PIN in
yes)	[ "$NCPU" -ge 2 ] && command -v taskset >/dev/null ||
		{ echo "bench-ctld: BENCH_PIN=yes needs taskset and 2 CPUs or more (this run may use: $NCPU)" >&2; exit 2; } ;;
no)	;;
*)	echo "bench-ctld: BENCH_PIN=$PIN: expected yes or no" >&2; exit 2 ;;
esac
case $ROUNDS in ''|*[!0-9]*|0) echo "bench-ctld: BENCH_ROUNDS=$ROUNDS: expected a whole number of rounds, 1 or more" >&2; exit 2 ;; esac
case $WINDOWS in ''|*[!0-9]*|0) echo "bench-ctld: BENCH_WINDOWS=$WINDOWS: expected a whole number of windows, 1 or more" >&2; exit 2 ;; esac
case $SHARED in yes|no) ;; *) echo "bench-ctld: BENCH_SHARED=$SHARED: expected yes or no" >&2; exit 2 ;; esac
case $DRAIN in yes|no) ;; *) echo "bench-ctld: BENCH_DRAIN=$DRAIN: expected yes or no" >&2; exit 2 ;; esac
case $DRAIN_TIMEOUT in ''|*[!0-9]*|0) echo "bench-ctld: BENCH_DRAIN_TIMEOUT=$DRAIN_TIMEOUT: expected a whole number of seconds, 1 or more" >&2; exit 2 ;; esac
[ "$DRAIN" = yes ] && [ "$WINDOWS" -gt 1 ] &&
	{ echo "bench-ctld: BENCH_DRAIN=yes measures one run of the queue a round: use BENCH_ROUNDS, not BENCH_WINDOWS=$WINDOWS" >&2; exit 2; }
# the samples: each window of each round (#1 .. #SAMPLES)
SAMPLES=$((ROUNDS * WINDOWS))
LEAVES=$(( (NODES + HOSTS - 1) / HOSTS ))
SPINES=$(( LEAVES / 4 > 1 ? LEAVES / 4 : 1 ))
FAB=$FABSCHED_BUILDDIR/cli/fabsched
WORK=/var/lib/fabsched-test/bench-ctld
export FABSCHED_CLUSTER_DIR=/var/lib/fabsched-cluster.bench
D=$FABSCHED_CLUSTER_DIR
TICK=$(getconf CLK_TCK)
rm -rf "$WORK" && mkdir -p "$WORK" && chmod 0755 "$WORK"

SIZES=(1 2 4 1 8 2 3 $((HOSTS * 2)) 4 6 1 "$HOSTS" 2 5 12 1)
MAXSIZE=$(printf '%s\n' "${SIZES[@]}" | sort -n | tail -1)
[ "$MAXSIZE" -gt "$NODES" ] && MAXSIZE=$NODES
ctld_pid() { cat "$D/ctld/slurmctld.pid" 2>/dev/null; }
slurmd_pids() { cat "$D"/nodes/*/slurmd.pid 2>/dev/null; }
# slurmctld on the first CPU of the run's, the nodes' slurmd (every
# thread; what they start later inherits it) on the others (BENCH_PIN)
CTLD_CPU=${CPUS[0]:-0}
NODE_CPUS=$(IFS=,; echo "${CPUS[*]:1}")
# pin CPUS PID: every thread of PID on CPUS; a thread that ends while
# taskset walks them fails the walk, which is tried again for a second
pin() { cl_poll 1 taskset -a -p -c "$1" "$2" >/dev/null 2>&1; }
pin_daemons() {
	local p
	pin "$CTLD_CPU" "$(ctld_pid)" || return 1
	for p in $(slurmd_pids); do
		pin "$NODE_CPUS" "$p" || return 1
	done
}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
rss_mib() { awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null; }
# a process's proportional set size in MiB (pages shared by N processes
# count 1/N in each, so the daemons' sum is what they hold together);
# VmRSS where the kernel has no smaps_rollup
pss_mib() {
	awk '/^Pss:/ { printf "%.0f", $2 / 1024; found = 1; exit } END { if (!found) exit 1 }' \
		"/proc/$1/smaps_rollup" 2>/dev/null ||
		rss_mib "$1"
}
# sdiag (kept in sdiag-SETUP.txt): the main and backfill cycles' mean and
# max (us), their mean depth (jobs tried per cycle; backfill's "try
# depth", the jobs it tested for a start), jobs started and backfilled
sdiag_cycles() {	# sdiag_cycles SETUP
	sdiag > "$WORK/sdiag-$1.txt" 2>/dev/null
	awk '
		/^Jobs started:/ { started = $NF }
		/^Main schedule statistics/ { s = "main" }
		/^Backfilling stats/ { s = "bf" }
		/^(Latency|Remote Procedure|Pending RPC)/ { s = "" }
		s != "" && /Max cycle:/ { max[s] = $NF }
		s != "" && /Mean cycle:/ { mean[s] = $NF }
		s == "main" && /Mean depth cycle:/ { depth[s] = $NF }
		s == "bf" && /Depth Mean \(try depth\):/ { depth[s] = $NF }
		s == "bf" && /Total backfilled jobs \(since last stats cycle start\):/ { bf = $NF }
		s != "" && /Total cycles:/ { cycles[s] = $NF }
		END { printf "%s %s %s %s %s %s %s %s %s\n", mean["main"] + 0, max["main"] + 0, mean["bf"] + 0,
			max["bf"] + 0, depth["main"] + 0, depth["bf"] + 0, started + 0, bf + 0,
			cycles["main"] + 0 }' "$WORK/sdiag-$1.txt"
}
# Slurm's times (2026-12-03T02:25:08[.123], local) as epoch seconds, for awk
EPOCH_AWK='function ep(s) { sub(/\..*/, "", s); gsub(/[-T:]/, " ", s); return mktime(s) }'
# nodes started in the window [T0, T1] by the main scheduler (its info
# line for each start, the node lists counted by Slurm's own hostlist
# code) and by backfill: every node the window's starts took (squeue's
# start times) less the main scheduler's, since backfill logs its starts
# at info level only up to 25.11.  "MAIN BF"
started_nodes() {	# started_nodes T0 T1
	local main all
	main=$(awk -v t0="$1" -v t1="$2" "$EPOCH_AWK"'
		{ t = ep(substr($1, 2)) }
		t < t0 || t > t1 { next }
		/ sched: Allocate JobId=/ { for (i = 1; i <= NF; i++) if ($i ~ /^NodeList=/) print substr($i, 10) }' \
		"$D/ctld/slurmctld.log" 2>/dev/null | paste -sd, - |
		{ read -r l; if [ -n "$l" ]; then scontrol show hostnames "$l" | wc -l; else echo 0; fi; })
	all=$(squeue -h -t all -o '%D|%S|%T' 2>/dev/null | awk -F'|' -v t0="$1" -v t1="$2" "$EPOCH_AWK"'
		$3 != "PENDING" && $2 ~ /^[0-9]/ { s = ep($2); if (s >= t0 && s <= t1) n += $1 }
		END { print n + 0 }')
	echo "$main $((all > main ? all - main : 0))"
}
# of the jobs started in the window (from T0), how many were submitted
# after the oldest job still pending at its end (priority here is FIFO):
# starts that passed a waiting job.  "N of M"
passed_starts() {	# passed_starts T0
	squeue -h -r -t all -o '%F|%K|%T|%S' 2>/dev/null | awk -F'|' -v t0="$1" "$EPOCH_AWK"'
		function before(f, k, g, l) { return f < g || (f == g && k < l) }
		$2 == "N/A" { $2 = 0 }
		$3 == "PENDING" { if (!seen || before($1 + 0, $2 + 0, pf, pk)) { pf = $1 + 0; pk = $2 + 0; seen = 1 }; next }
		$4 ~ /^[0-9]/ && ep($4) >= t0 { f[++n] = $1 + 0; k[n] = $2 + 0 }
		END { for (i = 1; i <= n; i++) if (seen && before(pf, pk, f[i], k[i])) p++
			printf "%d of %d", p, n }'
}
# the share of the nodes' CPU time in the window [T0, T1] (epoch seconds)
# that jobs held (a whole-node job holds every CPU of its nodes): a setup
# that starts fewer, larger jobs may use the nodes as well
node_use() {	# node_use T0 T1
	local n
	n=$(sinfo -h -N -o '%N %c' 2>/dev/null | awk '!seen[$1]++ { t += $2 } END { print t + 0 }')
	squeue -h -t all -o '%C|%S|%e|%T' 2>/dev/null |
		awk -F'|' -v t0="$1" -v t1="$2" -v n="$n" "$EPOCH_AWK"'
		$4 != "PENDING" && $2 ~ /^[0-9]/ {
			s = ep($2); e = ($3 ~ /^[0-9]/) ? ep($3) : t1
			if (s < t0) s = t0; if (e > t1) e = t1
			if (e > s) busy += $1 * (e - s) }
		END { printf "%.1f", (t1 > t0 && n > 0) ? 100 * busy / (n * (t1 - t0)) : 0 }'
}
# the queue: arrays of whole-node jobs, sizes 1..2*HOSTS, run times 10-40 s
# (BENCH_SHARED=yes: 2 tasks a size unit, on shared nodes), submitted held
# and then released together (release_queue): at 1,024 nodes the launches
# of the first jobs started time the nodes' daemons out (one CPU for them
# all) and with them a later sbatch, which a retry could submit twice
submit_queue() {	# submit_queue SWITCHES(yes|no)
	local n=0 k=0 size t sw id ids=() shape
	local sizes=("${SIZES[@]}")
	while [ "$n" -lt "$JOBS" ]; do
		size=${sizes[k % ${#sizes[@]}]}
		[ "$size" -gt "$NODES" ] && size=$NODES
		t=$(( 10 + (k * 7) % 31 ))
		sw=()
		if [ "$SHARED" = yes ]; then
			shape=(-n $((2 * size)))
			[ "$1" = yes ] && sw=(--switches="1@$WAIT")
		else
			shape=(-N "$size" --exclusive)
			[ "$1" = yes ] && [ "$size" -le "$HOSTS" ] && sw=(--switches="1@$WAIT")
		fi
		local cnt=$(( JOBS - n < ARRAY ? JOBS - n : ARRAY ))
		id=$(cl_sbatch --user "$TUSER" -J "b$size" "${shape[@]}" -t 2 "${sw[@]}" -H \
			--array="0-$((cnt - 1))" -o /dev/null --wrap "sleep $t") || return 1
		ids+=("$id")
		n=$((n + cnt)); k=$((k + 1))
	done
	QUEUE_IDS=$(IFS=,; echo "${ids[*]}")
}
release_queue() { [ -z "$QUEUE_IDS" ] || scontrol release "$QUEUE_IDS" >/dev/null; QUEUE_IDS=; }
QUEUE_IDS=
# every job of the queue has ended (not sdiag's job counts: sdiag -r
# zeroes them until slurmctld next counts)
drained() {
	local left
	left=$(squeue -h -t PD,CF,R,S,CG -o %i 2>/dev/null) || return 1
	[ -z "$left" ]
}
# the window: WINDOW seconds, or (BENCH_DRAIN=yes) until the queue has
# drained, polled every 10 s
window_wait() {
	if [ "$DRAIN" = yes ]; then
		local end=$((SECONDS + DRAIN_TIMEOUT))
		sleep 10
		until drained; do
			[ "$SECONDS" -ge "$end" ] && { echo "bench-ctld: the queue did not drain in $DRAIN_TIMEOUT s (BENCH_DRAIN_TIMEOUT): its figures count the jobs ended so far" >&2; return 1; }
			sleep 10
		done
	else
		sleep "$WINDOW"
	fi
}
# BENCH_DRAIN=yes: from the release T0 on, the last job's end less T0
# and the jobs' mean wait (start less T0), in seconds.  "MAKESPAN WAIT N"
drain_times() {	# drain_times T0
	squeue -h -t all -o '%S|%e|%T' 2>/dev/null | awk -F'|' -v t0="$1" "$EPOCH_AWK"'
		$3 != "PENDING" && $1 ~ /^[0-9]/ { s = ep($1); if (s < t0) s = t0; w += s - t0; n++
			if ($2 ~ /^[0-9]/ && ep($2) > last) last = ep($2) }
		END { printf "%d %.1f %d", (last > t0) ? last - t0 : 0, n ? w / n : 0, n }'
}

# of the jobs started from T0 on that fit a rack, how many got one (racks
# of topology.conf)
one_rack_share() {	# one_rack_share T0
	local got=0 fit=0 nn nl r
	while read -r _ nn nl; do
		[ "$nn" -ge 2 ] && [ "$nn" -le "$HOSTS" ] || continue
		fit=$((fit + 1))
		r=$(for h in $(scontrol show hostnames "$nl"); do echo "${RACK_OF[$h]:-?}"; done | sort -u | wc -l)
		[ "$r" = 1 ] && got=$((got + 1))
	done < <(squeue -h -t all -o '%i|%D|%N|%T|%S' | awk -F'|' -v t0="$1" "$EPOCH_AWK"'
		$4 != "PENDING" && $3 != "" && $5 ~ /^[0-9]/ && ep($5) >= t0 { print $1, $2, $3 }')
	[ "$fit" -gt 0 ] && awk -v g="$got" -v f="$fit" 'BEGIN { printf "%.0f%% of %d", 100 * g / f, f }' || echo "-"
}

TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
plugdir=$WORK/plugins
fs_stage_plugins "$plugdir" || { echo "bench-ctld: no plugins built" >&2; exit 1; }
declare -A FIG SHARE HOOK NODES_BY PASSED DRAINED
# measure_window NAME K UP MEM: one window of the setup NAME running,
# sample K (FIG, SHARE, NODES_BY, PASSED); UP and MEM for its line
measure_window() {
	local name=$1 k=$2 up=$3 mem=$4 tag="" t0 pid c0 c1 cyc
	[ "$SAMPLES" -gt 1 ] && tag=-$k
	pid=$(ctld_pid)
	sdiag -r >/dev/null 2>&1
	c0=$(cpu_ticks "$pid")
	t0=$(date +%s.%N)
	release_queue
	if [ -n "${BENCH_PERF:-}" ] && command -v perf >/dev/null; then
		# where slurmctld spends its time in the window (BENCH_PERF=1)
		local how=(-F 499 -g)
		# shellcheck disable=SC2054 # perf's own comma
		[ "$BENCH_PERF" = dwarf ] && how=(-F 99 --call-graph dwarf,16384)
		# beside the window, not its clock: a perf that ends early (it
		# once did, at 1,024 nodes, with an unfinished file) does not
		# shorten the window; what it said goes to perf-SETUP.log
		local prof=$WORK/perf-$name$tag perf_pid
		perf record -q -e cpu-clock "${how[@]}" -p "$pid" -o "$prof.data" >"$prof.log" 2>&1 &
		perf_pid=$!
		window_wait
		kill -INT "$perf_pid" 2>/dev/null
		wait "$perf_pid"
		perf report -i "$prof.data" --stdio --no-children -g none --sort dso,symbol \
			2>>"$prof.log" | grep -E '^ +[0-9]' | head -40 > "$prof.txt"
		if [ -s "$prof.txt" ]; then
			echo "bench-ctld: $name: slurmctld's profile in $prof.txt" >&2
		else
			echo "bench-ctld: $name: no profile of slurmctld (perf: $prof.log)" >&2
		fi
	else
		window_wait
	fi
	c1=$(cpu_ticks "$pid")
	# counted from the first whole second after t0: squeue's times are
	# whole seconds, and the queue's first scheduling pass (a burst of
	# starts just before t0, outside sdiag's figures) often falls in t0's
	# own second
	local ts=$((${t0%.*} + 1)) t1 sn use
	t1=$(date +%s)
	if [ "$DRAIN" = yes ]; then
		# every start since the release, up to the last job's end; the
		# queue is empty: no start passed a job still pending
		ts=${t0%.*}
		DRAINED[$name#$k]=$(drain_times "$ts")
		local ms=${DRAINED[$name#$k]%% *}
		[ "$ms" -gt 0 ] && t1=$((ts + ms))
		PASSED[$name#$k]=-
	else
		PASSED[$name#$k]=$(passed_starts "$ts")
	fi
	use=$(node_use "$ts" "$t1")
	sn=$(started_nodes "$ts" "$t1")
	cyc=$(sdiag_cycles "$name$tag")
	local el
	el=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
	read -r mm mx bm bx md bd js bs mc <<<"$cyc"
	# the nodes the window's starts took, by the main scheduler and by
	# backfill, and the main cycles' time per node they started (what a
	# start costs grows with its nodes)
	NODES_BY[$name#$k]=$(awk -v sn="$sn" -v mm="$mm" -v mc="$mc" 'BEGIN { split(sn, a, " ")
		printf "%d %d %.3f", a[1], a[2], a[1] ? mm * mc / 1000 / a[1] : 0 }')
	# the sample's figures (see FIELDS); per job started: the main cycles'
	# time over the jobs they started, and slurmctld's CPU time over every
	# start (the cycle means depend on how many jobs each cycle starts,
	# which differs between setups), and over every node the window's
	# starts took (the windows of two setups are not paired: each
	# setup's queue reaches arrays of other sizes in the same window)
	FIG[$name#$k]=$(awk -v mm="$mm" -v mx="$mx" -v bm="$bm" -v bx="$bx" -v c="$((c1 - c0))" -v tick="$TICK" \
		-v el="$el" -v rss="$(rss_mib "$pid")" -v s="$js" -v md="$md" -v bd="$bd" \
		-v js="$js" -v bs="$bs" -v mc="$mc" -v use="$use" -v sn="$sn" 'BEGIN { split(sn, a, " "); nn = a[1] + a[2]
		printf "%.3f %.3f %.3f %.3f %.3f %.3f %.3f %d %.3f %.4f %.4f %d %d %.1f %.4f\n", mm / 1000, mx / 1000, bm / 1000,
			bx / 1000, md ? mm / md : 0, bd ? bm / bd : 0, 100 * c / tick / el, rss, 60 * s / el,
			(js > bs) ? mm * mc / 1000 / (js - bs) : 0, (s > 0) ? 1000 * c / tick / s : 0, js, bs, use,
			(nn > 0) ? 1000 * c / tick / nn : 0 }')
	SHARE[$name#$k]=$(one_rack_share "$ts")
	echo "bench-ctld: $name${tag:+ (#$k)}: harness up in ${up}s, daemons $mem MiB (PSS); $js jobs started in ${el%.*} s, the nodes' CPUs held by jobs $use% of the window" >&2
}

run_setup() {	# run_setup NAME ROUND
	local name=$1 round=$2 up mem=0 p w extra=$WORK/extra-$1.conf
	local tag=""
	[ "$ROUNDS" -gt 1 ] && tag=-$round
	cl_down >/dev/null 2>&1
	unset FABSCHED_CLUSTER_PLUGIN_DIR FABSCHED_CLUSTER_PLUGSTACK FABSCHED_CLUSTER_ETC_FILES \
		FABSCHED_CLUSTER_TOPOLOGY_CONF FABSCHED_CLUSTER_GRES_TYPES
	# the logs of 128 nodes stay small; slurmctld's at info, where
	# fabsched logs its timing figures once a minute (the same level in
	# every setup, and the usual one)
	printf 'SlurmctldDebug=info\nSlurmdDebug=error\n' > "$extra"
	# slurmctld refuses jobs beyond MaxJobCount (default 10,000), counting
	# those ended within MinJobAge: room for the queue twice over
	[ $((2 * JOBS + 1000)) -gt 10000 ] && echo "MaxJobCount=$((2 * JOBS + 1000))" >> "$extra"
	# a drain's figures read every ended job from squeue
	[ "$DRAIN" = yes ] && echo "MinJobAge=$((DRAIN_TIMEOUT + 3600))" >> "$extra"
	case $name in
	stock*)
		export FABSCHED_CLUSTER_SELECT=select/cons_tres FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=topology/tree
		export FABSCHED_CLUSTER_TOPOLOGY_CONF=$WORK/topology.conf
		[ "$name" = stock+gres ] && export FABSCHED_CLUSTER_GRES_TYPES=rdma,hugepages ;;
	fabsched*)
		fs_plugin_env "$plugdir" || return 1
		[ "$name" != fabsched+gres ] && unset FABSCHED_CLUSTER_GRES_TYPES
		[ "${BENCH_SPANK:-yes}" = no ] && unset FABSCHED_CLUSTER_PLUGSTACK
		export FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=topology/fabric
		local loc=rack target=""
		case $name in
		fabsched-off) loc=off ;;
		fabsched-observe) loc=observe ;;
		fabsched+target) target=" LocalityTarget=100%" ;;
		esac
		printf 'FabricModel=%s\nPartitionName=batch Locality=%s LocalityWait=%s%s\n' \
			"$WORK/fabric.json" "$loc" "$WAIT" "$target" > "$WORK/fabsched.conf"
		export FABSCHED_CLUSTER_ETC_FILES="fabsched.conf=$WORK/fabsched.conf" ;;
	esac
	export FABSCHED_CLUSTER_EXTRA_CONF=$extra
	cl_up --nodes "$NODES" --prefix n --timeout 600 --fabric "leaves=$LEAVES,hosts=$HOSTS,spines=$SPINES" \
		>"$WORK/up-$name$tag.log" 2>&1 || { echo "bench-ctld: $name: the cluster did not come up (see $WORK/up-$name$tag.log)"; return 1; }
	up=$CL_UP_SECONDS
	if [ "$PIN" = yes ]; then
		pin_daemons || { echo "bench-ctld: $name: taskset could not pin the daemons"; return 1; }
	fi
	for p in $(slurmd_pids) $(ctld_pid); do
		mem=$((mem + $(pss_mib "$p" || echo 0)))
	done
	submit_queue "$([ "$name" = stock+sw ] && echo yes || echo no)" || { echo "bench-ctld: $name: sbatch failed"; return 1; }
	# windows begin after the release's first scheduling pass; a drain
	# counts from the release (measure_window)
	[ "$DRAIN" = yes ] || release_queue
	for ((w = 1; w <= WINDOWS; w++)); do
		measure_window "$name" $(((round - 1) * WINDOWS + w)) "$up" "$mem"
	done
	cl_down >/dev/null 2>&1
	# fabsched's own time per placement, split from the backend's (its
	# node choice: cons_tres), as slurmctld last logged it (over its whole
	# run: from the queue's submission on)
	case $name in fabsched*)
		HOOK[$name#$((round * WINDOWS))]=$(sed -n -E 's/^\[[^]]*\] //; s/^[^:]*: (starts now|plans|[0-9]+ observations|the idle machine.s tasks per node)/\1/p' \
			"$D/ctld/slurmctld.log" 2>/dev/null | tac | awk '{ k = $2 == "observations" ? "obs" : $1 } !seen[k]++' | tac) ;;
	esac
}

# the fabric, once: discovered from the simulated fabric into fabsched's
# model, and exported as stock's topology.conf
export FABSCHED_CLUSTER_SELECT=select/cons_tres FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=topology/none
cl_up --nodes "$NODES" --prefix n --timeout 600 --fabric "leaves=$LEAVES,hosts=$HOSTS,spines=$SPINES" \
	>"$WORK/up-fabric.log" 2>&1 || { echo "bench-ctld: the cluster did not come up (see $WORK/up-fabric.log)"; exit 1; }
"$CL" fabric run timeout 120 "$FAB" topo discover -o "$WORK/fabric.json" >"$WORK/discover.log" 2>&1 &&
	"$FAB" topo export --model "$WORK/fabric.json" > "$WORK/topology.conf" ||
	{ echo "bench-ctld: fabric discovery failed (see $WORK/discover.log)"; exit 1; }
cl_down >/dev/null 2>&1
load_racks "$WORK/topology.conf"

for ((r = 1; r <= ROUNDS; r++)); do
	for s in $WHICH; do run_setup "$s" "$r"; done
done

# FIELDS of a sample (FIG): main ms, max, bf ms, max, main us/job, bf
# us/job, ctld CPU %, RSS MiB, starts/min, main cycles ms per job they
# started, ctld CPU ms per job started, jobs started, by backfill, % of
# the nodes' CPU time held by jobs, ctld CPU ms per node started.  With
# several samples, a setup's row is each field's median over them.
median_figs() {	# median_figs SETUP [ARRAY=FIG]: each field's median over the samples
	local r
	local -n a=${2:-FIG}
	for ((r = 1; r <= SAMPLES; r++)); do [ -n "${a[$1#$r]:-}" ] && echo "${a[$1#$r]}"; done |
		awk '{ for (i = 1; i <= NF; i++) v[i, NR] = $i; nf = NF }
		END { if (!NR) exit
			for (i = 1; i <= nf; i++) {
				n = 0; for (k = 1; k <= NR; k++) a[++n] = v[i, k]
				for (x = 2; x <= n; x++) for (y = x; y > 1 && a[y - 1] > a[y]; y--) { t = a[y]; a[y] = a[y - 1]; a[y - 1] = t }
				m = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
				printf "%s%s", m, (i < nf) ? " " : "\n" } }'
}
share_sum() {	# share_sum SETUP: "N% of M" over the samples
	local r
	for ((r = 1; r <= SAMPLES; r++)); do echo "${SHARE[$1#$r]:--}"; done |
		awk '$2 == "of" { g += $1 * $3 / 100; f += $3 } END { if (f) printf "%.0f%% of %d", 100 * g / f, f; else print "-" }'
}
row() {	# row LABEL FIGS SHARE
	read -r mm mx bm bx mj bj cpu rss spm _ <<<"$2"
	printf '%-19s %8.1f %8.1f %8.1f %8.1f %7.0f %7.0f %6.1f%% %6.0f %8.1f   %s\n' "$1" "$mm" "$mx" "$bm" "$bx" \
		"$mj" "$bj" "$cpu" "$rss" "$spm" "$3"
}
declare -A MED
for s in $WHICH; do MED[$s]=$(median_figs "$s"); done
rel=$(sed -n 's/^SLURM_INSTALLED_VERSION = //p' "$FABSCHED_BUILDDIR/Makefile")
echo
rounds=""
[ "$ROUNDS" -gt 1 ] && rounds=", $ROUNDS rounds (the setups in turn)"
[ "$WINDOWS" -gt 1 ] && rounds="$rounds, $WINDOWS windows one after the other on each setup's cluster"
[ "$SAMPLES" -gt 1 ] && rounds="$rounds; #K: window K; a setup's own row: each figure's median"
if [ "$SHARED" = yes ]; then
	what="jobs on shared nodes (2-$((2 * MAXSIZE)) tasks)"
else
	what="whole-node jobs (1-$MAXSIZE nodes)"
fi
span="window ${WINDOW}s"
[ "$DRAIN" = yes ] && span="measured from the release until the queue drained (BENCH_DRAIN=yes)"
echo "Slurm $rel: $NODES nodes in $LEAVES racks of $HOSTS, $JOBS pending $what, 10-40 s, $span$rounds"
if [ "$PIN" = yes ]; then
	echo "slurmctld alone on CPU $CTLD_CPU, the nodes' daemons and jobs on CPU(s) $NODE_CPUS (BENCH_PIN=yes)"
else
	echo "slurmctld and the nodes' daemons share the run's $NCPU CPU(s) (BENCH_PIN=no)"
fi
echo "(main/bf us/job: the cycle's mean time over its mean depth, the jobs it tried per cycle)"
printf '%-19s %8s %8s %8s %8s %7s %7s %7s %6s %8s   %s\n' setup "main ms" "max" "bf ms" "max" \
	"main us/job" "bf us/job" "ctldCPU" "RSS" "starts/m" "2+ nodes fit a rack: got one"
for s in $WHICH; do
	if [ "$SAMPLES" -gt 1 ]; then
		for ((r = 1; r <= SAMPLES; r++)); do
			[ -n "${FIG[$s#$r]:-}" ] && row "$s #$r" "${FIG[$s#$r]}" "${SHARE[$s#$r]}"
		done
	fi
	if [ -n "${MED[$s]}" ]; then row "$s" "${MED[$s]}" "$(share_sum "$s")"; else printf '%-19s (did not run)\n' "$s"; fi
done
for s in $WHICH; do
	[ -n "${MED[$s]}" ] || continue
	read -r _ _ _ _ _ _ _ _ _ pm pc js bs _ <<<"${MED[$s]}"
	printf '%s: sdiag: %.0f started (%.0f by backfill): main cycles %.2f ms per job they started, slurmctld CPU %.1f ms per job started\n' \
		"$s" "$js" "$bs" "$pm" "$pc"
done
for s in $WHICH; do
	[ -n "${MED[$s]}" ] || continue
	for ((r = 1; r <= SAMPLES; r++)); do
		[ -n "${NODES_BY[$s#$r]:-}" ] || continue
		read -r nm nb npm <<<"${NODES_BY[$s#$r]}"
		echo "$s$([ "$SAMPLES" -gt 1 ] && echo " #$r"): the window's starts took $nm nodes in main cycles, $nb by backfill; main cycles $npm ms per node they started; ${PASSED[$s#$r]:-?} starts passed the oldest job still pending"
	done
	read -r _ _ _ _ _ _ _ _ _ _ _ _ _ u pn _ <<<"${MED[$s]}"
	printf '%s: the nodes'"'"' CPUs held by jobs %.1f%% of the window%s; slurmctld CPU %.2f ms per node started\n' \
		"$s" "$u" "$([ "$SAMPLES" -gt 1 ] && echo " (median)")" "$pn"
done
for s in $WHICH; do
	for ((r = 1; r <= SAMPLES; r++)); do
		[ -n "${HOOK[$s#$r]:-}" ] || continue
		while read -r l; do echo "$s$([ "$SAMPLES" -gt 1 ] && echo " #$r"): placement time, $l"; done <<<"${HOOK[$s#$r]}"
	done
done
for s in $WHICH; do
	[ "$DRAIN" = yes ] || break
	for ((r = 1; r <= SAMPLES; r++)); do
		[ -n "${DRAINED[$s#$r]:-}" ] || continue
		read -r ms mw nj <<<"${DRAINED[$s#$r]}"
		echo "$s$([ "$SAMPLES" -gt 1 ] && echo " #$r"): the queue drained: $nj jobs ran, the last ended $ms s after the release; their mean wait from the release $mw s"
	done
done
# BENCH_DRAIN=yes: F's makespan and mean wait over BASE's, and slurmctld's
# CPU per job (every job of the queue started in both)
drain_ratios() {	# drain_ratios F BASE DRAINED-F DRAINED-BASE FIGS-F FIGS-BASE LABEL
	read -r fms fmw _ <<<"$3"
	read -r sms smw _ <<<"$4"
	read -r _ _ _ _ _ _ _ _ _ fpm fpc _ <<<"$5"
	read -r _ _ _ _ _ _ _ _ _ spm spc _ <<<"$6"
	awk -v fms="$fms" -v sms="$sms" -v fmw="$fmw" -v smw="$smw" -v fpm="$fpm" -v spm="$spm" -v fpc="$fpc" \
		-v spc="$spc" -v l="$1 / $2$7" 'BEGIN {
		printf "%s, the same queue run through: makespan %.2fx, mean wait %.2fx; per job: slurmctld CPU %.2fx, main cycles %.2fx\n", l,
			sms ? fms / sms : 0, smw ? fmw / smw : 0, spc ? fpc / spc : 0, spm ? fpm / spm : 0 }'
}
ratios() {	# ratios F BASE FIGS-F FIGS-BASE LABEL
	read -r fm _ fb _ fmj fbj _ _ _ fpm fpc _ _ _ fpn _ <<<"$3"
	read -r sm _ sb _ smj sbj _ _ _ spm spc _ _ _ spn _ <<<"$4"
	awk -v fm="$fm" -v sm="$sm" -v fb="$fb" -v sb="$sb" -v fmj="$fmj" -v smj="$smj" -v fbj="$fbj" -v sbj="$sbj" \
		-v fpm="$fpm" -v spm="$spm" -v fpc="$fpc" -v spc="$spc" -v fpn="$fpn" -v spn="$spn" -v l="$1 / $2$5" 'BEGIN {
		printf "%s: main cycle %.2fx, backfill cycle %.2fx; per job tried: main %.2fx, backfill %.2fx (goal: at most 1.2x); per job started: main cycles %.2fx, slurmctld CPU %.2fx; per node started: slurmctld CPU %.2fx\n", l,
			sm ? fm / sm : 0, sb ? fb / sb : 0, smj ? fmj / smj : 0, sbj ? fbj / sbj : 0,
			spm ? fpm / spm : 0, spc ? fpc / spc : 0, spn ? fpn / spn : 0 }'
}
for f in fabsched fabsched+target fabsched+gres fabsched-observe; do
	[ -n "${MED[$f]:-}" ] || continue
	bases="stock stock+sw"
	[ "$f" = fabsched+gres ] && bases=stock+gres
	[ "$f" = fabsched-observe ] && bases="fabsched-off stock"
	for base in $bases; do
		[ -n "${MED[$base]:-}" ] || continue
		if [ "$SAMPLES" -gt 1 ]; then
			for ((r = 1; r <= SAMPLES; r++)); do
				[ -n "${FIG[$f#$r]:-}" ] && [ -n "${FIG[$base#$r]:-}" ] &&
					ratios "$f" "$base" "${FIG[$f#$r]}" "${FIG[$base#$r]}" " (#$r)"
			done
			ratios "$f" "$base" "${MED[$f]}" "${MED[$base]}" " (medians)"
		else
			ratios "$f" "$base" "${MED[$f]}" "${MED[$base]}" ""
		fi
		if [ "$DRAIN" = yes ]; then
			for ((r = 1; r <= SAMPLES; r++)); do
				[ "$SAMPLES" -gt 1 ] && [ -n "${DRAINED[$f#$r]:-}" ] && [ -n "${DRAINED[$base#$r]:-}" ] &&
					drain_ratios "$f" "$base" "${DRAINED[$f#$r]}" "${DRAINED[$base#$r]}" \
						"${FIG[$f#$r]}" "${FIG[$base#$r]}" " (#$r)"
			done
			drain_ratios "$f" "$base" "$(median_figs "$f" DRAINED)" "$(median_figs "$base" DRAINED)" \
				"${MED[$f]}" "${MED[$base]}" "$([ "$SAMPLES" -gt 1 ] && echo " (medians)")"
		fi
	done
done
