#!/bin/bash
# t-plugins-load.sh - every fabsched plugin of this build in a real 8-node
# Slurm cluster: select/cons_tres_fabric, topology/fabric, gres/rdma,
# gres/hugepages (slurm.conf) and the SPANK plugin (plugstack.conf).  Asks the
# daemons (scontrol, sinfo, squeue) that they run with them, then runs an
# Open MPI program with `srun --mpi=pmix -N 4 -n 8` as an unprivileged user
# and checks every rank.  Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"
# shellcheck source=fabsched-plugins.sh
. "$SRC/tests/regression/fabsched-plugins.sh"

cl_require
cl_require_build
tap_plan 16
TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
NODES="n001 n002 n003 n004 n005 n006 n007 n008"

# Plugins are staged where every node and the test user can read them.
plugdir=/var/lib/fabsched-test/plugins
fs_stage_plugins "$plugdir" || tap_bail "no plugin found under $FABSCHED_BUILDDIR/plugins: build first"
fs_plugin_env "$plugdir" || tap_bail "no select plugin in this build"
extra=$plugdir/extra.conf
printf 'SlurmdDebug=verbose\nSlurmctldDebug=verbose\n' > "$extra"
export FABSCHED_CLUSTER_EXTRA_CONF=$extra
export FABSCHED_CLUSTER_GRES="rdma:1,hugepages:2m:64"

# 1
cl_up --nodes 8 --prefix n --fabric "leaves=2,hosts=4,spines=1"
tap_ok $? "cluster up with every fabsched plugin" || tap_bail "the cluster did not come up"
D=$FABSCHED_CLUSTER_DIR

# 2-5: the controller runs with them (it refuses to start on a plugin it
# cannot load, so a running slurmctld that reports them has loaded them)
conf=$(scontrol show config)
val() { sed -n "s/^$1 *= *//p" <<<"$conf"; }
tap_is "$(val SelectType)" "$FABSCHED_CLUSTER_SELECT" "scontrol: SelectType"
tap_is "$(val TopologyPlugin)" "topology/fabric" "scontrol: TopologyPlugin"
tap_is "$(val GresTypes)" "rdma,hugepages" "scontrol: GresTypes"
tap_ok "grep -q '$plugdir' <<<\"\$(val PluginDir)\"" "scontrol: PluginDir holds this build's plugins"

# 6: the nodes registered with the gres of both plugins
gres=$(sinfo -h -N -o '%N %G' | sort -u | awk '{ print $1, $2 }' | tr '\n' ';')
want=$(for n in $NODES; do printf '%s rdma:1,hugepages:2m:64;' "$n"; done)
tap_is "$gres" "$want" "sinfo: every node has hugepages:2m:64 and rdma:1"

# 7: each slurmd loaded both gres plugins (the only trace a count-only gres
# plugin leaves: a gres type without plugin is tracked silently by Slurm)
n=0
for node in $NODES; do
	log=$D/nodes/$node/slurmd.log
	grep -q 'gres/rdma: node configuration loaded' "$log" 2>/dev/null &&
		grep -q 'gres/hugepages: node configuration loaded' "$log" 2>/dev/null && n=$((n + 1))
done
tap_is "$n" 8 "every slurmd loaded gres/rdma and gres/hugepages"

# 8: commands load the select wrapper from PluginDir and still work
tap_ok "squeue -h >/dev/null && sinfo -h >/dev/null" "squeue and sinfo work with the select wrapper"

# 9-14: an MPI job through every plugin, as an unprivileged user
id=$(cl_sbatch --user "$TUSER" -J plugins -N4 -n8 -t 5 --gres=rdma:1 \
	-o plugins-%j.out --wrap "srun --mpi=pmix $FABSCHED_MPI_HELLO")
cl_wait_job "$id" 180
tap_ok $? "MPI job $id (srun --mpi=pmix -N 4 -n 8) COMPLETED"
tap_ok "grep -q 'rdma:1' <<<\"\$(cl_job_field $id TresPerNode)\"" "job $id asked gres/rdma per node ($(cl_job_field "$id" TresPerNode))"
out=$(cl_job_output "$id")
ranks=$(grep -c '^rank=' "$out" 2>/dev/null)
nodes=$(sed -n 's/^rank=.* node=\([^ ]*\) .*/\1/p' "$out" 2>/dev/null | sort -u | wc -l)
tap_ok "[ '$ranks' = 8 ] && [ '$nodes' = 4 ]" "8 ranks on 4 distinct nodes (got $ranks on $nodes)" ||
	tap_diag "$(cat "$out" 2>/dev/null)"
# every rank ran where Slurm says the job ran
alloc=$(scontrol show hostnames "$(cl_job_field "$id" NodeList)" | sort | tr '\n' ' ')
seen=$(sed -n 's/^rank=.* node=\([^ ]*\) .*/\1/p' "$out" | sort -u | tr '\n' ' ')
tap_is "$seen" "$alloc" "ranks ran on the job's nodes"
v=$(sed -n 's/^rank=.* fabsched=\([^ ]*\).*/\1/p' "$out" | sort | uniq -c | awk '{ print $1, $2 }')
tap_is "$v" "8 $(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' "$FABSCHED_BUILDDIR/fabsched_config.h")" \
	"SPANK plugin set FABSCHED_VERSION in all 8 tasks"
grep -qx "allreduce=ok" "$out" 2>/dev/null
tap_ok $? "MPI_Allreduce over 8 ranks ok"


# 15: RDMA needs locked memory: tasks get RLIMIT_MEMLOCK unlimited even when
# the submitting shell's limit is small (Slurm would propagate that one).
# Where root itself may not raise a hard limit (no CAP_SYS_RESOURCE, as on
# some container hosts), the best a node can give is its hard limit.
if (ulimit -H -l unlimited) 2>/dev/null; then want_lim=unlimited; else want_lim=$(ulimit -H -l); fi
lim=$(cd "$(cl_jobdir "$TUSER")" && runuser -u "$TUSER" -- env SLURM_CONF="$SLURM_CONF" \
	bash -c 'ulimit -S -l 64 && srun -N2 -n2 -t 1 sh -c "ulimit -l"' 2>&1 | sort | uniq -c | awk '{ print $1, $2 }')
tap_is "$lim" "2 $want_lim" "tasks run with RLIMIT_MEMLOCK $want_lim, not the submitting shell's 64 KiB"

# 16: a forwarded option forged in the job's environment (the variable
# Slurm forwards SPANK options in) is not acted on: the job runs as without
# it, and the node stays in service.  From 25.05 the plugin also exports
# slurm_spank_init_failure_mode (a failed slurm_spank_init in slurmstepd
# fails the job, not the node).
fid=$(cl_sbatch --user "$TUSER" -J forged -w n008 -t 1 -o forged-%j.out \
	--export=ALL,_SLURM_SPANK_OPTION_fabsched_fabric_locality=shelf \
	--wrap 'echo ran')
cl_wait_job "$fid" 60 >/dev/null
fstate=$(cl_job_field "$fid" JobState)
fst=$(sinfo -h -n n008 -o %T)
case $(fs_flavour) in
22.05|24.11) want_sym=0 ;;
*) want_sym=1 ;;
esac
sym=$(nm -D "$plugdir/fabsched.so" 2>/dev/null | grep -c ' slurm_spank_init_failure_mode$')
tap_ok "[ '$fstate' = COMPLETED ] && [ '$fst' = idle ] && [ '$sym' = '$want_sym' ]" \
	"forged --fabric-locality in the job's environment: job $fid $fstate, n008 stays $fst; slurm_spank_init_failure_mode exported: $sym" ||
	tap_diag "$(cat "$(cl_job_output "$fid")" 2>&1)" "$(sinfo -h -n n008 -o '%T %E')"

tap_done
