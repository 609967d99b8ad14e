#!/bin/sh
# Static checks of the built select/cons_tres_fabric module (TAP):
# what it exports, what it needs, how it is linked.  The run-time behaviour
# is checked by the cluster tests.
#
# Usage: check_plugin.sh [path/to/select_cons_tres_fabric.so]
# Default: $FABSCHED_BUILDDIR/plugins/select/fabric/.libs/select_cons_tres_fabric.so

so=${1:-${FABSCHED_BUILDDIR:-.}/plugins/select/fabric/.libs/select_cons_tres_fabric.so}

# The 22.05 select API (slurm_select_ops_t) plus what the plugin loader reads.
expected="fini init plugin_id plugin_name plugin_type plugin_version
select_p_get_info_from_plugin select_p_job_begin select_p_job_expand
select_p_job_fini select_p_job_init select_p_job_ready select_p_job_resized
select_p_job_resume select_p_job_signal select_p_job_suspend select_p_job_test
select_p_node_init select_p_reconfigure select_p_resv_test
select_p_select_jobinfo_alloc select_p_select_jobinfo_copy
select_p_select_jobinfo_free select_p_select_jobinfo_get
select_p_select_jobinfo_pack select_p_select_jobinfo_set
select_p_select_jobinfo_sprint select_p_select_jobinfo_unpack
select_p_select_jobinfo_xstrdup select_p_select_nodeinfo_alloc
select_p_select_nodeinfo_free select_p_select_nodeinfo_get
select_p_select_nodeinfo_pack select_p_select_nodeinfo_set
select_p_select_nodeinfo_set_all select_p_select_nodeinfo_unpack
select_p_state_restore select_p_state_save select_p_step_finish
select_p_step_pick_nodes select_p_step_start select_p_update_node_config"

for tool in nm readelf; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "1..0 # SKIP $tool (binutils) not installed"
		exit 0
	fi
done
if [ ! -f "$so" ]; then
	echo "Bail out! $so not built"
	exit 1
fi
echo "1..5"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "$expected" | tr ' ' '\n' | sed '/^$/d' | sort >"$tmp/expected"
nm -D --defined-only "$so" | awk '{ print $3 }' | sort >"$tmp/exported"
readelf -d "$so" >"$tmp/dynamic"
readelf -lW "$so" >"$tmp/segments"

n=0
check() { # check DESCRIPTION COMMAND...
	n=$((n + 1))
	desc=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		sed 's/^/# /' "$tmp/out"
	fi
}

check "exports exactly the plugin symbols and the 36 select_p_* entry points" \
	diff "$tmp/expected" "$tmp/exported"
# select_cons_tres.so must be opened at run time, never linked: as a
# dependency its plugin_id/plugin_type would bind to this module's.
check "no link-time dependency on another select plugin" \
	sh -c "! grep -E 'NEEDED.*select_' '$tmp/dynamic'"
check "needs libslurmfull.so (symbols resolved against the installed Slurm)" \
	grep -q 'NEEDED.*\[libslurmfull\.so\]' "$tmp/dynamic"
check "bound now (-z now)" grep -qE 'FLAGS.*(BIND_NOW|NOW)' "$tmp/dynamic"
check "read-only relocations (-z relro)" grep -q 'GNU_RELRO' "$tmp/segments"
