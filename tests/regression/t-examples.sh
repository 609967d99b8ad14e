#!/bin/bash
# t-examples.sh - the example configuration (examples/) as Slurm itself
# reads it.  A 4-node cluster runs on examples/slurm.conf.22.05 (Debian's
# 22.05) or examples/slurm.conf.24.11 (24.11 to 26.05), added verbatim to the
# harness's own lines, with examples/plugstack.conf, examples/gres.conf and
# examples/fabsched.conf.  Only what names this machine changes: the
# NodeName and PartitionName lines (the harness's nodes stand for them) and
# installed paths (the plugins, helpers and base directories are this
# build's, staged under /var/lib/fabsched-test/examples).  slurmctld and
# every slurmd parse the files and load every plugin they name;
# `scontrol show config` has each of the example's settings; sbatch offers
# the SPANK options of its plugstack.conf; a job asking rack locality runs
# through the example's prolog and epilog.  Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"
# shellcheck source=fabsched-plugins.sh
. "$SRC/tests/regression/fabsched-plugins.sh"

cl_require
cl_require_build
tap_plan 7
TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
EX=$SRC/examples
STAGE=/var/lib/fabsched-test/examples
case $(fs_flavour) in
22.05) example=$EX/slurm.conf.22.05 ;;
*) example=$EX/slurm.conf.24.11 ;;
esac

rm -rf "$STAGE"
mkdir -p "$STAGE/plugins" "$STAGE/bin" "$STAGE/etc" "$STAGE/state" || tap_bail "cannot write $STAGE"
fs_stage_plugins "$STAGE/plugins" || tap_bail "no plugin found under $FABSCHED_BUILDDIR/plugins: build first"
for p in fabsched-prolog fabsched-epilog; do
	cp "$FABSCHED_BUILDDIR/prolog/$p" "$STAGE/bin/" || tap_bail "$p not built"
done
chmod -R a+rX "$STAGE"
chmod 0755 "$STAGE/state"
# the installed paths of the examples, as this build has them (the hugepage
# mount base in each node's own /tmp: the emulated nodes share every other
# directory, and a job's per-node directory has one name)
here() {
	sed -E -e "s#=/var/lib/fabsched([[:space:]]|\$)#=$STAGE/state\\1#g" \
	    -e "s#=/dev/hugepages-fabsched([[:space:]]|\$)#=/tmp/hugepages-fabsched\\1#g" \
	    -e "s#=/scratch([[:space:]]|\$)#=$STAGE/scratch\\1#g" \
	    -e "s#/usr/lib/x86_64-linux-gnu/slurm-wlm/#$STAGE/plugins/#g" \
	    -e "s#/usr/sbin/fabsched-#$STAGE/bin/fabsched-#g" \
	    -e "s#/etc/slurm/fabsched/#$STAGE/etc/#g" "$1"
}
# slurm.conf: every line of the example but its nodes and partitions
here "$example" | grep -v -e '^NodeName=' -e '^PartitionName=' > "$STAGE/extra.conf"
here "$EX/plugstack.conf" > "$STAGE/plugstack.conf"
here "$EX/fabsched.conf" > "$STAGE/fabsched.conf"
cp "$EX/gres.conf" "$STAGE/gres.conf"
cp "$EX/node-name-map" "$STAGE/etc/node-name-map"
# the model FabricModel names: the harness's fabric for 4 nodes, 2 racks
if ! "$SRC/tests/cluster/fabric-gen" --prefix n --leaves 2 --hosts-per-leaf 2 --spines 1 \
	-o "$STAGE/etc/net" >/dev/null ||
   ! "$FABSCHED_BUILDDIR/cli/fabsched" topo discover --nodelist 'n[001-004]' \
	-o "$STAGE/etc/fabric.json" "$STAGE/etc/net" 2>"$STAGE/discover.log"; then
	tap_bail "no fabric model: $(cat "$STAGE/discover.log")"
fi
tap_diag "slurm.conf lines from $example:" "$(grep -v '^#' "$STAGE/extra.conf" | grep .)"

# 1: Slurm parses them: the controller and every node start
cl_up --nodes 4 --prefix n --plugin-dir "$STAGE/plugins" --extra-conf "$STAGE/extra.conf" \
	--plugstack "$STAGE/plugstack.conf" --gres-conf "$STAGE/gres.conf" \
	--etc-file "fabsched.conf=$STAGE/fabsched.conf"
tap_ok $? "cluster up on $(basename "$example") (less its nodes), examples/plugstack.conf, gres.conf and fabsched.conf" ||
	tap_bail "the cluster did not come up on the examples"
D=$FABSCHED_CLUSTER_DIR

# 2: each setting of the example is in force (the example's, where the
# harness writes the key too: Slurm takes the last)
conf=$(scontrol show config)
bad=""
while IFS='=' read -r key value; do
	# (from 24.11 a Prolog or Epilog list is shown as Prolog[0], ...)
	got=$(sed -n "s/^$key\(\[0\]\)\? *= *//p" <<<"$conf")
	got=${got#job_submit/}
	[ "${got,,}" = "${value,,}" ] || bad="$bad $key=$value (got '$got')"
done < <(grep -E '^[A-Za-z]+=' "$STAGE/extra.conf")
tap_ok "[ -z '$bad' ]" "scontrol show config: every setting of the example in force" ||
	tap_diag "differ:$bad"

# 3: no parse error and no plugin the daemons could not load
errs=$(grep -h -i -E 'parsing error|unrecognized|invalid|couldn.t (find|load)|cannot (load|create)' \
	"$D"/ctld/slurmctld.log "$D"/nodes/*/slurmd.log 2>/dev/null | sort -u | head -n 10)
tap_is "$errs" "" "slurmctld and every slurmd: no parse error, no plugin they could not load"

# 4: the SPANK plugin of examples/plugstack.conf gives sbatch its options
sbatch --help >"$STAGE/sbatch-help" 2>&1
tap_ok "grep -q -- '--fabric-locality' '$STAGE/sbatch-help' && grep -q -- '--scratch' '$STAGE/sbatch-help'" \
	"sbatch --help offers --fabric-locality and --scratch (the plugin line of examples/plugstack.conf)"

# 5-7: a job asking rack locality runs through the example's Prolog,
# PrologFlags and Epilog; the prolog took its lock in StateDir of the
# plugstack.conf line / fabsched.conf
id=$(cl_sbatch --user "$TUSER" -J example -N 2 -t 2 --fabric-locality=rack -o example-%j.out \
	--wrap 'srun hostname')
cl_wait_job "$id" 120
tap_ok $? "job $id (sbatch -N 2 --fabric-locality=rack) COMPLETED" ||
	tap_diag "$(scontrol show job "$id" 2>&1 | head -n 20)"
racks=$(for h in $(scontrol show hostnames "$(cl_job_field "$id" NodeList)"); do
	grep -q "^n00[12]$" <<<"$h" && echo leaf01 || echo leaf02; done | sort -u | wc -l)
tap_is "$racks" 1 "its 2 nodes in one rack ($(cl_job_field "$id" NodeList))"
tap_ok "[ -f '$STAGE/state/lock' ]" \
	"the example's prolog ran: its lock in the example's StateDir ($STAGE/state)" ||
	tap_diag "$(ls -la "$STAGE/state" 2>&1)"

tap_done
