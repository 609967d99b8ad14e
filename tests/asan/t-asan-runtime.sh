#!/bin/bash
# t-asan-runtime.sh - make check-asan's first test: the sanitizer runtime is
# really in the daemons.  A 4-node cluster with every fabsched plugin of the
# sanitized build; while a job step runs, /proc/PID/maps of slurmctld, of
# every slurmd and of that step's slurmstepd must map libasan (preloaded,
# FABSCHED_ASAN_RUNTIME) and the fabsched plugins they load; the daemons must
# run with the options meant for them.  Whether the job's tasks have it too
# is only reported.  Skips outside make check-asan.  Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"
# shellcheck source=../regression/fabsched-plugins.sh
. "$SRC/tests/regression/fabsched-plugins.sh"

cl_require
cl_require_build
if [ -z "${FABSCHED_ASAN_RUNTIME:-}" ] || [ -z "${FABSCHED_CLUSTER_DAEMON_ENV:-}" ]; then
	echo "1..0 # SKIP FABSCHED_ASAN_RUNTIME is not set: run through 'make check-asan'"
	exit 0
fi
tap_plan 8
RT=$FABSCHED_ASAN_RUNTIME

plugdir=/var/lib/fabsched-test/plugins
fs_stage_plugins "$plugdir" || tap_bail "no plugin found under $FABSCHED_BUILDDIR/plugins: build first"
fs_plugin_env "$plugdir" || tap_bail "no select plugin in this build"
export FABSCHED_CLUSTER_GRES="rdma:1,hugepages:2m:64"

# 1: the plugins of this build are sanitized (else nothing below means much)
tap_ok "readelf -d '$plugdir/fabsched.so' | grep -q 'libasan'" "the plugins of this build need libasan"

# 2
cl_up --nodes 4 --prefix n --fabric "leaves=1,hosts=4,spines=1"
tap_ok $? "cluster up with every fabsched plugin, runtime preloaded" || tap_bail "the cluster did not come up"

maps_has() {	# maps_has PID FILE: FILE is mapped in PID
	grep -qF "$2" "/proc/$1/maps" 2>/dev/null
}
comm_pids() {	# comm_pids NAME: this cluster's processes named NAME
	local p
	for p in $("$CL" pids 2>/dev/null); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$1" ] && echo "$p"
	done
}

# 3: slurmctld maps the runtime and the select (22.05: fabsched's select
# wrapper; later releases run Slurm's own), topology and gres plugins
ctld=$(comm_pids slurmctld | head -1)
sel=$plugdir/topology_fabric.so what="topology and gres plugins"
[ "$(fs_flavour)" = 22.05 ] && sel=$plugdir/select_ what="select, topology and gres plugins"
tap_ok "[ -n '$ctld' ] && maps_has '$ctld' '$RT' && maps_has '$ctld' '$sel' &&
	maps_has '$ctld' '$plugdir/topology_fabric.so' && maps_has '$ctld' '$plugdir/gres_rdma.so'" \
	"slurmctld (pid $ctld) maps $RT and fabsched's $what"
tap_diag "slurmctld $ctld: $(grep -F -e "$RT" -e "$plugdir" "/proc/$ctld/maps" 2>/dev/null | awk '{ print $6 }' | sort -u | tr '\n' ' ')"

# 4: every slurmd maps the runtime and the gres plugins
n=0 all=""
for p in $(comm_pids slurmd); do
	all="$all $p"
	maps_has "$p" "$RT" && maps_has "$p" "$plugdir/gres_hugepages.so" && n=$((n + 1))
done
tap_is "$n" 4 "every slurmd (pids$all) maps $RT and gres/hugepages"

# 5: the daemons run with their own options (leak checking off, own log)
tap_ok "tr '\0' '\n' < /proc/$ctld/environ | grep -q '^ASAN_OPTIONS=.*log_path=[^:]*/daemon:detect_leaks=0'" \
	"slurmctld runs with the daemons' ASAN_OPTIONS"

# 6-8: a step: its slurmstepd maps the runtime and the SPANK plugin
id=$(cl_sbatch --user "${FABSCHED_CLUSTER_USER:-fabtest}" -J asan -N1 -w n002 -t 2 \
	-o asan-%j.out --wrap 'srun -n1 sleep 20')
step="" task=""
for ((i = 0; i < 60; i++)); do
	for p in $(comm_pids slurmstepd); do
		tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q "\[$id\.0\]" && step=$p
	done
	[ -n "$step" ] && task=$(for p in $(comm_pids sleep); do echo "$p"; done | head -1)
	[ -n "$step" ] && [ -n "$task" ] && break
	sleep 0.5
done
tap_ok "[ -n '$step' ] && maps_has '$step' '$RT'" "slurmstepd of step $id.0 (pid ${step:-none}) maps $RT"
tap_ok "[ -n '$step' ] && maps_has '$step' '$plugdir/fabsched.so'" "and the SPANK plugin $plugdir/fabsched.so"
tap_diag "slurmstepd $step: $(grep -F -e "$RT" -e "$plugdir" "/proc/$step/maps" 2>/dev/null | awk '{ print $6 }' | sort -u | tr '\n' ' ')"
if [ -n "$task" ] && maps_has "$task" "$RT"; then
	tap_diag "the job's task (sleep, pid $task) maps the runtime too: LD_PRELOAD came with the job's environment"
	tap_diag "$(tr '\0' '\n' < "/proc/$task/environ" | grep -E '^(LD_PRELOAD|ASAN_OPTIONS)=')"
else
	tap_diag "the job's task (sleep, pid ${task:-none}) does not map the runtime"
fi
cl_wait_job "$id" 60
tap_ok $? "job $id COMPLETED"
tap_done
