# shellcheck shell=bash
# lib.sh - helpers for fabsched cluster tests (bash). Source it:
#
#   . "$(dirname "$0")/lib.sh"
#   cl_require                 # "1..0 # SKIP reason" and exit 0 if this machine cannot run it
#   tap_plan 5
#   cl_up --nodes 4 --fabric "leaves=1,hosts=4,spines=1"   # any 'cluster' option
#   id=$(cl_sbatch --user fabtest -N2 --wrap "srun --mpi=pmix $FABSCHED_MPI_HELLO")
#   cl_wait_job "$id" 120; tap_ok $? "job completed"
#   tap_ok '[ "$(cl_job_field "$id" NumNodes)" = 2 ]' "two nodes"
#   tap_done                   # exit status: 0 when every test passed
#
# cl_up registers a trap so that the cluster goes down when the test ends,
# fails, or is interrupted. Cluster settings come from the FABSCHED_CLUSTER_*
# environment variables and the options given to cl_up (see 'cluster --help').
#
# TAP: tap_plan N; tap_ok COND NAME where COND is an exit status (0 = pass) or
# a shell condition string evaluated with eval; tap_is GOT WANT NAME;
# tap_skip REASON [NAME]; tap_diag TEXT...; tap_bail REASON; tap_done.

CL_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CL=$CL_HERE/cluster
CL_UP=0
CL_HP_LOCK=/run/lock/fabsched-hugepages-test.lock	# the hugepage pools' lock (see cl_require_hugepages)
TAP_N=0
TAP_FAILED=0
TAP_PLANNED=

# ---------------------------------------------------------------- TAP
tap_plan() { TAP_PLANNED=$1; echo "1..$1"; }

tap_diag() {	# tap_diag TEXT...: each argument, each of its lines, as "# ..."
	local a line
	for a in "$@"; do
		while IFS= read -r line; do echo "# $line"; done <<<"$a"
	done
}

tap_ok() {	# tap_ok COND NAME
	local cond=$1 name=${2:-} rc
	if [[ $cond =~ ^[0-9]+$ ]]; then
		rc=$cond
	else
		eval "$cond"
		rc=$?
	fi
	TAP_N=$((TAP_N + 1))
	# FABSCHED_TAP_TIMES=1: each result with the seconds since the start
	[ -n "${FABSCHED_TAP_TIMES:-}" ] && name="$name [at ${SECONDS} s]"
	if [ "$rc" -eq 0 ]; then
		echo "ok $TAP_N - $name"
	else
		echo "not ok $TAP_N - $name"
		TAP_FAILED=$((TAP_FAILED + 1))
	fi
	return "$rc"
}

tap_is() {	# tap_is GOT WANT NAME
	if [ "$1" = "$2" ]; then
		tap_ok 0 "$3"
	else
		tap_ok 1 "$3"
		tap_diag "got:  '$1'" "want: '$2'"
		return 1
	fi
}

tap_skip() {	# tap_skip REASON [NAME]
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N ${2:+- $2 }# SKIP $1"
}

# the test file's time, for scripts/check.sh's table (SECONDS: since the
# shell started)
tap_elapsed() { echo "# elapsed: ${SECONDS} s"; }
tap_bail() { echo "Bail out! $*"; tap_elapsed; exit 1; }

tap_done() {
	tap_elapsed
	if [ -n "$TAP_PLANNED" ] && [ "$TAP_N" -ne "$TAP_PLANNED" ]; then
		tap_diag "planned $TAP_PLANNED tests, ran $TAP_N"
		return 1
	fi
	[ "$TAP_FAILED" -eq 0 ]
}

# ---------------------------------------------------------------- requirements
# Skips the whole test (TAP "1..0 # SKIP") only when this machine cannot run a
# cluster at all: not root, no Slurm daemons / munged, no unshare.
cl_require() {
	local p
	if [ "$(id -u)" -ne 0 ]; then
		echo "1..0 # SKIP cluster tests need root (namespaces, mounts, SlurmdUser=root)"
		exit 0
	fi
	local sbin=${FABSCHED_CLUSTER_SLURM_PREFIX:-/usr}/sbin
	for p in "$sbin/slurmctld" "$sbin/slurmd" /usr/sbin/munged; do
		if [ ! -x "$p" ]; then
			echo "1..0 # SKIP $p is missing (packages slurmctld, slurmd, munge)"
			exit 0
		fi
	done
	if ! command -v unshare >/dev/null; then
		echo "1..0 # SKIP unshare is missing (package util-linux)"
		exit 0
	fi
}

# cl_require_build [FILE...]: SKIP unless run through 'make check-cluster'
# (FABSCHED_BUILDDIR set) with each FILE (relative to that build) built.
cl_require_build() {
	local f
	if [ -z "${FABSCHED_BUILDDIR:-}" ]; then
		echo "1..0 # SKIP FABSCHED_BUILDDIR is not set: run through 'make check-cluster'"
		exit 0
	fi
	for f; do
		if [ ! -e "$FABSCHED_BUILDDIR/$f" ]; then
			echo "1..0 # SKIP $FABSCHED_BUILDDIR/$f is not built (the plugins need configure --with-slurm-source)"
			exit 0
		fi
	done
}

# cl_require_cmd PACKAGES CMD...: SKIP unless every CMD is on PATH.
cl_require_cmd() {
	local pkg=$1 c
	shift
	for c; do
		if ! command -v "$c" >/dev/null; then
			echo "1..0 # SKIP $c is missing (package $pkg)"
			exit 0
		fi
	done
}

# cl_require_hugepages: SKIP unless this machine's node0 2 MiB pool is
# writable (NODE0, its nr_hugepages), then hold the lock that lets one
# hugepage test at a time change the machine's pools (fd 9).
cl_require_hugepages() {
	NODE0=/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages
	if [ ! -w "$NODE0" ]; then
		echo "1..0 # SKIP $NODE0 not writable: no 2 MiB hugepages on this machine"
		exit 0
	fi
	# see test_prolog_real.sh
	exec 9>>"$CL_HP_LOCK"
	flock -w 900 9 || { echo "1..0 # SKIP another hugepage test holds the lock"; exit 0; }
	CL_HP_HELD=exclusive
}

# _cl_hp_share: a cluster's nodes count the machine's free hugepages
# (gres/hugepages autodetects them), so no test may change the pools while
# one runs: a cluster test that does not hold the lock already takes it
# shared (fd 8) for the rest of the test.  A test changing the pools
# (cl_require_hugepages, tests/unit/test_prolog_real.sh) takes it alone.
_cl_hp_share() {
	[ -z "${CL_HP_HELD:-}" ] || return 0
	exec 8>>"$CL_HP_LOCK" || return 1
	if ! flock -s -w 900 8; then
		tap_diag "$CL_HP_LOCK: held by a test changing the hugepage pools for 15 minutes"
		exec 8>&-
		return 1
	fi
	CL_HP_HELD=shared
}

# ---------------------------------------------------------------- fabric
# cl_first_model NODES FABRIC MODEL [CMD...]: the fabric model before the
# cluster starts (so that slurmctld reads it at start-up): ibsim up on
# FABRIC for NODES nodes, CMD run against it (default: fabsched topo
# discover -o MODEL), ibsim stopped.  CMD's output in CL_OUT; its status.
cl_first_model() {
	local n=$1 fabric=$2 model=$3 rc
	shift 3
	[ $# -gt 0 ] || set -- "$FABSCHED_BUILDDIR/cli/fabsched" topo discover -o "$model"
	# shellcheck disable=SC2034 # the callers read it
	CL_OUT=$("$CL" --nodes "$n" --fabric "$fabric" fabric start 2>&1 &&
		"$CL" fabric run timeout 60 "$@" 2>&1)
	rc=$?
	"$CL" fabric stop >/dev/null 2>&1
	chmod 644 "$model" 2>/dev/null
	return $rc
}

# cl_stage_topology DIR: topology_fabric.so alone in DIR, the cluster's
# PluginDir, with TopologyPlugin=topology/fabric (Slurm's clients dlopen
# every select plugin of PluginDir: these tests run Slurm's own select).
cl_stage_topology() {
	local so=$FABSCHED_BUILDDIR/plugins/topology/fabric/.libs/topology_fabric.so
	[ -f "$so" ] || tap_bail "$so is not built: build first"
	mkdir -p "$1" && cp "$so" "$1/" && chmod 755 "$1" "$1/topology_fabric.so" ||
		tap_bail "cannot stage $so"
	export FABSCHED_CLUSTER_PLUGIN_DIR=$1
	export FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=topology/fabric
}

# ---------------------------------------------------------------- Prometheus text
# Debian's python3 (where its packages are), also when another comes first in PATH.
cl_py() { if [ -x /usr/bin/python3 ]; then /usr/bin/python3 "$@"; else python3 "$@"; fi; }
cl_have_prom() { cl_py -c 'import prometheus_client.parser' 2>/dev/null; }
# cl_prom FILE SAMPLE...: each sample's value ('name' or 'name{k="v",...}'),
# read with Prometheus' own text parser (python3-prometheus-client); "-"
# when the file has no such sample.
cl_prom() {
	cl_py - "$@" <<'EOF'
import re, sys
from prometheus_client.parser import text_string_to_metric_families
v = {}
for fam in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in fam.samples:
        v[(s.name, tuple(sorted(s.labels.items())))] = s.value
out = []
for want in sys.argv[2:]:
    m = re.match(r'([^{]+)(?:\{(.*)\})?$', want)
    labels = tuple(sorted(re.findall(r'(\w+)="([^"]*)"', m.group(2) or "")))
    x = v.get((m.group(1), labels))
    out.append("-" if x is None else "%g" % x)
print(" ".join(out))
EOF
}

# ---------------------------------------------------------------- cluster
cl_env() { eval "$("$CL" env)"; }

# cl_at_exit CMD...: run CMD when the test ends (before the cluster goes
# down; also without a cluster)
CL_AT_EXIT=()
cl_at_exit() {
	CL_AT_EXIT+=("$(printf '%q ' "$@")")
	trap _cl_trap EXIT
}

_cl_trap() {
	local rc=$? c
	trap - EXIT INT TERM HUP
	for c in "${CL_AT_EXIT[@]+"${CL_AT_EXIT[@]}"}"; do eval "$c" >/dev/null 2>&1; done
	cl_down
	exit "$rc"
}

cl_up() {	# cl_up [cluster options]: start the cluster; output as TAP diagnostics
	local out rc
	trap _cl_trap EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	CL_UP=1
	_cl_hp_share || return 1
	out=$("$CL" "$@" up 2>&1)
	rc=$?
	tap_diag "$out"
	[ $rc -eq 0 ] || return $rc
	# later calls (cl_down, cl_env) must find this cluster's directory
	local a=("$@") i
	for ((i = 0; i < ${#a[@]}; i++)); do
		[ "${a[i]}" = --dir ] && export FABSCHED_CLUSTER_DIR="${a[i + 1]}"
	done
	cl_env
	CL_UP_SECONDS=$(sed -n 's/.* idle in \([0-9.]*\) s.*/\1/p' <<<"$out")
	export CL_UP_SECONDS
	return 0
}

cl_down() {	# cl_down: stop the cluster; output as TAP diagnostics
	local out rc
	[ "$CL_UP" -eq 1 ] || return 0
	out=$("$CL" down 2>&1)
	rc=$?
	tap_diag "$out"
	[ $rc -eq 0 ] && CL_UP=0
	return $rc
}

# ---------------------------------------------------------------- jobs
_cl_as() {	# _cl_as USER CMD...: run a Slurm client as USER against this cluster
	local u=$1; shift
	if [ "$u" = root ] || [ "$u" = "$(id -un)" ]; then
		"$@"
	else
		# PATH too: the client commands of a --slurm-prefix installation
		runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" PATH="$PATH" "$@"
	fi
}

cl_jobdir() {	# cl_jobdir USER: a working directory USER can write, visible on every node
	local u=${1:-root} d
	d=$FABSCHED_CLUSTER_DIR/jobs/$u
	mkdir -p "$d"
	chown "$u:" "$d" 2>/dev/null || chown "$u" "$d"
	echo "$d"
}

cl_sbatch() {	# cl_sbatch [--user U] sbatch-args...: prints the job id
	local u=root dir a chdir=1 id
	if [ "${1:-}" = --user ]; then u=$2; shift 2; fi
	for a in "$@"; do
		case "$a" in -D|--chdir|--chdir=*) chdir=0 ;; esac
	done
	dir=$(cl_jobdir "$u")
	local extra=()
	[ $chdir -eq 1 ] && extra=(--chdir="$dir")
	id=$(cd "$dir" && _cl_as "$u" timeout 30 sbatch --parsable "${extra[@]}" "$@") || return 1
	echo "${id%%;*}"
}

cl_srun() {	# cl_srun [--user U] srun-args...: srun from a directory the nodes see
	local u=root dir
	if [ "${1:-}" = --user ]; then u=$2; shift 2; fi
	dir=$(cl_jobdir "$u")
	(cd "$dir" && _cl_as "$u" srun "$@")
}

# cl_gres_lines NODE XML SYSFS: the node's gres records as slurmd -G builds
# them on that topology and sysfs tree, one "Name Type Count [File=]
# [Cores=]" per line (extra environment: cl_gres_lines NODE XML SYSFS VAR=V)
cl_gres_lines() {
	local node=$1 xml=$2 tree=$3
	shift 3
	env HWLOC_XMLFILE="$xml" FABSCHED_SYSFS_ROOT="$tree" "$@" \
		slurmd -G -N "$node" -f "$SLURM_CONF" 2>&1 |
		grep 'Gres Name=' | tr ' ' '\n' |
		awk '/^Name=/ { if (l) print l; l = substr($0, 6) } /^(Type|Count)=/ { l = l " " substr($0, index($0, "=") + 1) }
		     /^(File|Cores)=/ { l = l " " $0 } END { if (l) print l }'
}

cl_job_field() {	# cl_job_field JOBID FIELD: one field of 'scontrol show job'
	scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1
}

cl_job_in() {	# cl_job_in JOBID STATE: the job's JobState is STATE (for cl_poll)
	[ "$(cl_job_field "$1" JobState)" = "$2" ]
}

cl_job_started() {	# cl_job_started JOBID: RUNNING, COMPLETING or COMPLETED (for cl_poll)
	case $(cl_job_field "$1" JobState) in RUNNING | COMPLETING | COMPLETED) return 0 ;; esac
	return 1
}

cl_planned() {	# cl_planned JOBID: backfill has planned the job's nodes (SchedNodeList; for cl_poll)
	local n
	n=$(cl_job_field "$1" SchedNodeList)
	[ -n "$n" ] && [ "$n" != "(null)" ]
}

cl_epoch() {	# cl_epoch TIME: a time of scontrol's in seconds since the epoch, 0 when none
	date -d "$1" +%s 2>/dev/null || echo 0
}

cl_job_time() {	# cl_job_time JOBID FIELD: a time field of the job (StartTime, ...) as cl_epoch gives it
	cl_epoch "$(cl_job_field "$1" "$2")"
}

cl_job_output() {	# cl_job_output JOBID: path of the job's stdout file
	cl_job_field "$1" StdOut
}

# cl_topo_lines: `scontrol show topology` as one sorted line per switch:
# "name level linkspeed Nodes=...|Switches=..."
cl_topo_lines() {
	scontrol show topology 2>/dev/null | tr ' ' '\n' | awk -F= '
		$1 == "SwitchName" { if (n) print n, l, s, c; n = $2; l = s = c = "" }
		$1 == "Level" { l = $2 } $1 == "LinkSpeed" { s = $2 }
		$1 == "Nodes" || $1 == "Switches" { c = $1 "=" $2 }
		END { if (n) print n, l, s, c }' | sort
}

# cl_gate NAME [SECONDS=120]: a command for a job's --wrap that waits until
# the test calls cl_open NAME (at most SECONDS): a job that must run while
# the test does something, for as long as that takes, not a fixed sleep.
cl_gate() {
	local f=$FABSCHED_CLUSTER_DIR/jobs/gates/$1
	mkdir -p "${f%/*}" && chmod 755 "${f%/*}"
	rm -f "$f"
	echo "i=0; while [ ! -e $f ] && [ \$i -lt $((${2:-120} * 5)) ]; do sleep 0.2; i=\$((i + 1)); done"
}
cl_open() { touch "$FABSCHED_CLUSTER_DIR/jobs/gates/$1"; }	# cl_open NAME: the jobs waiting at NAME go on

# cl_poll SECONDS CMD...: run CMD every CL_POLL_INTERVAL seconds (0.2)
# until it succeeds (0) or SECONDS have passed (1; CMD is run once more at
# the end).
CL_POLL_INTERVAL=${CL_POLL_INTERVAL:-0.2}
cl_poll() {
	local end=$((SECONDS + $1))
	shift
	while [ "$SECONDS" -lt "$end" ]; do
		"$@" && return 0
		sleep "$CL_POLL_INTERVAL"
	done
	"$@"
}

# cl_wait_job JOBID [TIMEOUT=120]: wait until the job has ended. Sets
# CL_JOB_STATE and CL_JOB_EXIT, prints a TAP diagnostic. Returns 0 when it
# COMPLETED, 1 when it ended otherwise, 2 on timeout, 3 when the job is unknown.
cl_wait_job() {
	local id=$1 t=${2:-120} st end
	CL_JOB_STATE='' CL_JOB_EXIT=''
	export CL_JOB_STATE CL_JOB_EXIT
	end=$((SECONDS + t))
	while [ "$SECONDS" -lt "$end" ]; do
		st=$(cl_job_field "$id" JobState)
		if [ -z "$st" ]; then
			CL_JOB_STATE=UNKNOWN
			tap_diag "job $id: not known to slurmctld"
			return 3
		fi
		case "$st" in
		COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE|OUT_OF_MEMORY|SPECIAL_EXIT)
			CL_JOB_STATE=$st
			CL_JOB_EXIT=$(cl_job_field "$id" ExitCode)
			tap_diag "job $id: $st exit=$CL_JOB_EXIT reason=$(cl_job_field "$id" Reason)"
			[ "$st" = COMPLETED ] && return 0
			return 1 ;;
		esac
		sleep "$CL_POLL_INTERVAL"
	done
	CL_JOB_STATE=$st
	tap_diag "job $id: still $st after ${t}s"
	return 2
}
