# shellcheck shell=bash
# Sourced by regression tests and the demo: stage this build's plugins and
# write the Slurm configuration fragments that name them.
#
#   fs_stage_plugins DIR   copy every plugin of $FABSCHED_BUILDDIR into DIR
#   fs_select_type         SelectType of fabsched's placement: select/fabric
#                          (from its .so) on 22.05; select/cons_tres on 24.11,
#                          where topology/fabric places the jobs
#   fs_placement_topology  TopologyPlugin that goes with fs_select_type
#   fs_flavour             the plugins' Slurm flavour (22.05, 24.11)
#   fs_plugin_env DIR      export FABSCHED_CLUSTER_* so that `cluster up`
#                          loads every fabsched plugin from DIR
#   load_racks CONF        RACK_OF[node]=leaf from an exported topology.conf
#   fs_restart_placement SELECT TOPOLOGY
#                          slurm.conf's SelectType and TopologyPlugin set,
#                          slurmctld and every slurmd of the running test
#                          cluster restarted (what changing them requires)

fs_stage_plugins() {
	local dir=$1 so n=0
	mkdir -p "$dir"
	rm -f "$dir"/*.so
	for so in "$FABSCHED_BUILDDIR"/plugins/*/.libs/*.so \
		  "$FABSCHED_BUILDDIR"/plugins/*/*/.libs/*.so; do
		[ -f "$so" ] || continue
		cp "$so" "$dir/" && n=$((n + 1))
	done
	chmod 755 "$dir" "$dir"/*.so 2>/dev/null
	[ "$n" -gt 0 ]
}

fs_flavour() {
	local f=${FABSCHED_SLURM_FLAVOUR:-}
	[ -n "$f" ] || f=$(sed -n 's/^SLURM_FLAVOUR = //p' "$FABSCHED_BUILDDIR/Makefile" 2>/dev/null)
	echo "${f:-22.05}"
}

fs_placement_topology() {
	case $(fs_flavour) in
	22.05) echo topology/none ;;
	*) echo topology/fabric ;;
	esac
}

fs_select_type() {
	local so
	if [ "$(fs_flavour)" != 22.05 ]; then
		[ -f "$FABSCHED_BUILDDIR/plugins/topology/fabric/.libs/topology_fabric.so" ] || return 1
		echo select/cons_tres
		return 0
	fi
	for so in "$FABSCHED_BUILDDIR"/plugins/select/*/.libs/select_*.so; do
		[ -f "$so" ] || continue
		so=${so##*/}; so=${so%.so}
		echo "select/${so#select_}"
		return 0
	done
	return 1
}

fs_plugin_env() {
	local dir=$1
	export FABSCHED_CLUSTER_PLUGIN_DIR=$dir
	FABSCHED_CLUSTER_SELECT=$(fs_select_type) || return 1
	export FABSCHED_CLUSTER_SELECT
	export FABSCHED_CLUSTER_TOPOLOGY_PLUGIN=topology/fabric
	export FABSCHED_CLUSTER_GRES_TYPES=rdma,hugepages
	printf 'required %s/fabsched.so\n' "$dir" > "$dir/plugstack.conf"
	export FABSCHED_CLUSTER_PLUGSTACK=$dir/plugstack.conf
}

# rack (leaf switch) of each node, from an exported topology.conf (read by
# the scripts that source this file)
# shellcheck disable=SC2034
declare -A RACK_OF
load_racks() {	# load_racks TOPOLOGY_CONF
	local sw nodes n
	while read -r sw nodes; do
		# shellcheck disable=SC2034 # read by the scripts that source this file
		for n in $(scontrol show hostnames "$nodes"); do RACK_OF[$n]=$sw; done
	done < <(sed -n 's/^SwitchName=\([^ ]*\) Nodes=\([^ ]*\).*/\1 \2/p' "$1")
}

_fs_ctld_down() { ! scontrol ping 2>/dev/null | grep -q UP; }

fs_restart_placement() {	# fs_restart_placement SELECT TOPOLOGY: 0 when all answer again
	local conf=$FABSCHED_CLUSTER_DIR/etc/slurm.conf n nodes
	nodes=$(sinfo -h -N -o %N 2>/dev/null | sort -u)
	[ -n "$nodes" ] || return 1
	sed -i -e "s|^SelectType=.*|SelectType=$1|" -e "s|^TopologyPlugin=.*|TopologyPlugin=$2|" "$conf"
	scontrol shutdown slurmctld >/dev/null 2>&1
	cl_poll 20 _fs_ctld_down
	"$CL" ctld start >/dev/null 2>&1 || return 1
	for n in $nodes; do
		"$CL" node kill "$n" >/dev/null 2>&1
		"$CL" node start "$n" >/dev/null 2>&1 || return 1
	done
	return 0
}
