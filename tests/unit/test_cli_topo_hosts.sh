#!/bin/sh
# fabsched topo: which hosts of a real fabric dump (X5) become compute
# nodes: by default slurm.conf's nodes (SLURM_CONF, Include followed),
# without one the built-in names (storage, fabric managers, OS defaults),
# --nodelist and --all-hosts instead; broken slurm.conf input (TAP).
fab=${FABSCHED_BUILDDIR:-.}/cli/fabsched
fx=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/ibnetdiscover
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
nodes() { sed -n 's/.*; nodes: \([0-9]*\)$/\1/p' "$1"; }
echo "1..10"
in="-i $fx/X5.topofile -m $fx/X5.map"

# slurm.conf with the compute nodes, one of them through an Include
cat > "$tmp/slurm.conf" <<CONF
ClusterName=x5   # a comment
NodeName=DEFAULT CPUs=8
NodeName=sl390lin[101-124] RealMemory=24000
include nodes.conf
PartitionName=batch Nodes=ALL Default=YES
CONF
printf 'nodename=x5570comp[1-2] CPUs=8\n# NodeName=r510gluster[1-4]\n' > "$tmp/nodes.conf"
SLURM_CONF=$tmp/slurm.conf "$fab" topo check $in >"$tmp/out" 2>"$tmp/err"
[ "$(nodes "$tmp/out")" = 26 ]
ok $? "slurm.conf's 26 nodes (one Include) are the compute nodes ($(nodes "$tmp/out"))"
grep -q "compute nodes: the nodes of $tmp/slurm.conf (sl390lin\[101-124\],x5570comp\[1-2\])" "$tmp/err"
ok $? "and it says so on stderr: $(head -1 "$tmp/err")"
grep -q 'host r510gluster1: not a compute node (not-in-nodelist); on 4036-8BBA port 27$' "$tmp/out"
ok $? "every other host is reported by name, with its leaf and port"

# no slurm.conf: the built-in names
SLURM_CONF=$tmp/none.conf "$fab" topo check $in >"$tmp/out" 2>"$tmp/err"
[ "$(nodes "$tmp/out")" = 82 ] && grep -q 'host r510gluster4: not a compute node (storage-host); on 4036-8BBA port 28$' "$tmp/out"
ok $? "without slurm.conf: 82 nodes, the 4 gluster servers reported as storage"
grep -q "SLURM_CONF=$tmp/none.conf: No such file or directory" "$tmp/err"
ok $? "a SLURM_CONF that cannot be read is said: $(head -1 "$tmp/err")"

# --all-hosts, --nodelist
SLURM_CONF=$tmp/slurm.conf "$fab" topo check $in --all-hosts >"$tmp/out" 2>"$tmp/err"
[ "$(nodes "$tmp/out")" = 86 ] && [ ! -s "$tmp/err" ]
ok $? "--all-hosts: every named host, slurm.conf not read ($(nodes "$tmp/out"))"
SLURM_CONF=$tmp/slurm.conf "$fab" topo check $in -n 'r510gluster[1-4]' >"$tmp/out" 2>"$tmp/err"
[ "$(nodes "$tmp/out")" = 4 ]
ok $? "--nodelist wins over slurm.conf ($(nodes "$tmp/out"))"
"$fab" topo check $in --all-hosts -n n1 >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "--all-hosts with --nodelist: a usage error"

# an Include that includes itself: an error naming the file
printf 'NodeName=a1\nInclude %s/loop.conf\n' "$tmp" > "$tmp/loop.conf"
SLURM_CONF=$tmp/loop.conf "$fab" topo export $in >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "loop.conf: Include nested more than 8 deep" "$tmp/err"
ok $? "a slurm.conf whose Include loops: exit 1, naming it: $(cat "$tmp/err")"

# an Include of a FIFO (nothing writes it): refused at once, not waited on
mkfifo "$tmp/fifo.conf"
printf 'NodeName=a1\nInclude fifo.conf\n' > "$tmp/fifo-inc.conf"
SLURM_CONF=$tmp/fifo-inc.conf timeout 20 "$fab" topo export $in >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "fifo.conf: cannot read: it is a FIFO; expected a regular file" "$tmp/err"
ok $? "a slurm.conf that includes a FIFO: exit 1 at once, naming it: $(cat "$tmp/err")"
exit $bad
