#!/bin/sh
# fabsched topo fails loudly: a fabric without a compute node (real dumps
# whose HCAs keep their vendor's description), an empty node-name map, a
# node list that names none of the hosts, a --plane the fabric does not
# have, a block topology.conf given to topo diff are errors naming the
# input and what to give, and write nothing;
# the check's summary counts the lines it lists; a file named alone is the
# input (TAP).
fab=${FABSCHED_BUILDDIR:-.}/cli/fabsched
fx=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/ibnetdiscover
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
# the compute nodes by name only: no slurm.conf of this host
SLURM_CONF=$tmp/none/slurm.conf
export SLURM_CONF
echo "1..23"

# X5: every HCA keeps "MT25408 ConnectX Mellanox Technologies"; names come
# from X5.map only
"$fab" topo export -i "$fx/X5.topofile" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] &&
	grep -q "fabsched topo export: $fx/X5.topofile: no compute node among its 89 HCA(s) (89 default-description" "$tmp/err" &&
	grep -q "expected a node-name map naming the HCAs (-m FILE" "$tmp/err"
ok $? "export without a node-name map: exit 1 ($rc), nothing written, the input and -m named: $(tail -1 "$tmp/err")"

: >"$tmp/empty.map"
"$fab" topo export -i "$fx/X5.topofile" -m "$tmp/empty.map" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "$tmp/empty.map names none of them" "$tmp/err"
ok $? "an empty node-name map: exit 1 ($rc), the map named"

echo "the model in use" >"$tmp/fabric.json"
"$fab" topo discover -i "$fx/X5.topofile" -o "$tmp/fabric.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tmp/fabric.json")" = "the model in use" ] &&
	grep -q "fabsched topo discover: $fx/X5.topofile: no compute node" "$tmp/err"
ok $? "discover of a fabric without a compute node: exit 1 ($rc), the model in place kept"

r=0
for f in block yaml json; do
	"$fab" topo export -i "$fx/X5.topofile" -f $f -o "$tmp/x.$f" 2>/dev/null
	[ $? -eq 1 ] && [ ! -e "$tmp/x.$f" ] || r=1
done
ok $r "and so for -f block, yaml, json: exit 1, no file made"

"$fab" topo export -i "$fx/X5.topofile" -m "$fx/X5.map" -n 'a[1-4]' >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "(86 not-in-nodelist, 3 default-description" "$tmp/err" &&
	grep -q "a\[1-4\] names none of them, e.g. r422node69), or --all-hosts" "$tmp/err" &&
	! grep -q "node-name map naming" "$tmp/err"
ok $? "a node list naming none of the hosts: exit 1 ($rc), --nodelist and --all-hosts offered, not the map"

printf 'NodeName=a[1-4] CPUs=1\n' >"$tmp/slurm.conf"
SLURM_CONF=$tmp/slurm.conf "$fab" topo export -i "$fx/X5.topofile" -m "$fx/X5.map" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "the nodes of $tmp/slurm.conf, a\[1-4\], are none of them" "$tmp/err"
ok $? "slurm.conf's nodes none of the fabric's: exit 1 ($rc), slurm.conf named"

# X5.map's hosts all renamed as storage servers: the built-in names
awk '{ n++; print $1, "oss" n }' "$fx/X5.map" >"$tmp/oss.map"
"$fab" topo export -i "$fx/X5.topofile" -m "$tmp/oss.map" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "86 storage-host.*expected --all-hosts or --nodelist HOSTLIST" "$tmp/err"
ok $? "every named host taken for storage: exit 1, --all-hosts offered"
"$fab" topo export -i "$fx/X5.topofile" -m "$tmp/oss.map" --all-hosts >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q '^# 86 nodes' "$tmp/out"
ok $? "and with --all-hosts its 86 nodes are exported"

# --plane: X5 has one plane
r=0
for f in tree block yaml; do
	echo "topology.conf in use" >"$tmp/topology.conf"
	"$fab" topo export -i "$fx/X5.topofile" -m "$fx/X5.map" --plane 3 -f $f \
		-o "$tmp/topology.conf" 2>"$tmp/err"
	[ $? -eq 1 ] && [ "$(cat "$tmp/topology.conf")" = "topology.conf in use" ] &&
		grep -q "fabsched topo export: $fx/X5.topofile: --plane 3: the fabric has one plane, 0 (plane0); expected --plane 0" "$tmp/err" || r=1
done
ok $r "--plane 3 of a one-plane fabric (tree, block, yaml): exit 1, the planes named, the file in place kept: $(tail -1 "$tmp/err")"
"$fab" topo export -i "$fx/X5.topofile" -m "$fx/X5.map" --plane 0 >"$tmp/out" 2>/dev/null
[ $? -eq 0 ] && grep -q '^# 82 nodes' "$tmp/out" && grep -q '^SwitchName=' "$tmp/out"
ok $? "--plane 0: its 82 nodes"

# two rails in one dump: every node has plane0 as its first plane
cat "$fx/rail0.topo" "$fx/rail1.topo" >"$tmp/rails.topo"
"$fab" topo export -i "$tmp/rails.topo" --all-hosts --plane 1 >"$tmp/out" 2>"$tmp/err"
rc1=$?
grep -q -- "--plane 1: plane1 is no node's first plane" "$tmp/err"
rc2=$?
"$fab" topo export -i "$tmp/rails.topo" --all-hosts --plane 2 >"$tmp/out" 2>"$tmp/err"
rc3=$?
[ $rc1 -eq 1 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 1 ] &&
	grep -q -- "--plane 2: the fabric has 2 planes, 0 to 1 (plane0 to plane1); expected a plane with compute nodes: 0" "$tmp/err"
ok $? "two planes: --plane 1 (no node's first plane) and --plane 2 (none) are errors naming the planes with nodes"

"$fab" topo export -i "$fx/X5.topofile" -m "$fx/X5.map" --plane 0 -f json >/dev/null 2>&1
rc1=$?
"$fab" topo discover -i "$fx/X5.topofile" -m "$fx/X5.map" --plane 0 >/dev/null 2>&1
rc2=$?
[ $rc1 -eq 2 ] && [ $rc2 -eq 2 ]
ok $? "--plane where no plane is chosen (-f json, discover): a usage error"

# topo check: the summary counts what it lists, each line with its severity
sum_ok() {
	# shellcheck disable=SC2046 # three numbers, split on purpose
	set -- $(sed -n 's/^  issues: \([0-9]*\) problem(s), \([0-9]*\) warning(s), \([0-9]*\) note(s)$/\1 \2 \3/p' "$1")
	[ "$1" = "$(grep -c '^  PROBLEM ' "$tmp/check")" ] &&
		[ "$2" = "$(grep -c '^  warning ' "$tmp/check")" ] &&
		[ "$3" = "$(grep -c '^  note    ' "$tmp/check")" ]
}
"$fab" topo check -i "$fx/X5.topofile" -m "$fx/X5.map" >"$tmp/check" 2>/dev/null
[ $? -eq 3 ] && grep -q 'issues: 2 problem(s), 4 warning(s), 4 note(s)' "$tmp/check" && sum_ok "$tmp/check"
ok $? "check: 2 problems, 4 warnings, 4 notes counted, and as many lines listed"
grep -q '^  note    HCA H-0002c90300080d28 .* host r510gluster4: not a compute node (storage-host); on 4036-8BBA port 28$' "$tmp/check" &&
	grep -q '^  warning HCA H-003048c749450000 .*(default-description)' "$tmp/check"
ok $? "check: an HCA that is not a compute node is listed with its severity"
"$fab" topo check -i "$fx/X5.topofile" -m "$fx/X5.map" -n 'sl390lin[101-124]' >"$tmp/check" 2>/dev/null
sum_ok "$tmp/check"
ok $? "check with a node list: as many notes listed as counted ($(grep '^  issues:' "$tmp/check"))"

# a file named alone is the dump, as -i
"$fab" topo check -i "$fx/3.topo" >"$tmp/a" 2>&1
"$fab" topo check "$fx/3.topo" >"$tmp/b" 2>&1
[ $? -eq 3 ] && cmp -s "$tmp/a" "$tmp/b"
ok $? "topo check FILE: the same as -i FILE"
"$fab" topo export "$fx/X5.topofile" -m "$fx/X5.map" -o "$tmp/t.conf" 2>/dev/null &&
	grep -q '^# 82 nodes' "$tmp/t.conf" && "$fab" topo -h | grep -q '^usage: fabsched topo <subcommand> \[FILE\] \[options\]$'
ok $? "topo export FILE -m MAP: 82 nodes; the usage shows [FILE]"
"$fab" topo export "$fx/3.topo" -i "$fx/1.topo" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "give one input" "$tmp/err"
ok $? "a file and -i: one input too many, a usage error"

# topo diff against a block topology: refused, the file and line named
"$fab" topo diff "$fx/X5.topofile" -m "$fx/X5.map" -a "$fx/X5.topofile.block" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "$fx/X5.topofile.block:[0-9]*: block topology line; expected a tree topology.conf" "$tmp/err"
ok $? "topo diff -a with a block topology.conf: exit 1, the file and line named: $(tail -1 "$tmp/err")"

# --lldp-max-age: records older than it are left out, said; a wrong value or
# no --lldp is a usage error naming the option and the accepted form
lx=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/lldp/railopt/nodes
mkdir -p "$tmp/lldp" && cp "$lx"/*.json "$tmp/lldp/" && touch -d '-2 hours' "$tmp/lldp/n003.json"
"$fab" topo check --lldp "$tmp/lldp" --all-hosts --lldp-max-age 30:00 >"$tmp/check" 2>&1
[ $? -eq 3 ] && grep -q "nodes: 7\$" "$tmp/check" &&
	grep -q "^  warning ignored-line .*/n003.json: written [0-9]* s ago, more than the records' maximum age of 1800 s: its neighbours left out" "$tmp/check"
ok $? "--lldp-max-age 30:00: a record 2 hours old left out, with a warning ($(grep -c n003 "$tmp/check") line)"
"$fab" topo check --lldp "$tmp/lldp" --all-hosts --lldp-max-age INFINITE >"$tmp/check" 2>&1
[ $? -eq 0 ] && grep -q "nodes: 8\$" "$tmp/check"
ok $? "--lldp-max-age INFINITE: every record kept"
"$fab" topo check --lldp "$tmp/lldp" --lldp-max-age 0 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^fabsched topo: --lldp-max-age 0: expected a duration above 0 in Slurm time format" "$tmp/err"
ok $? "--lldp-max-age 0: a usage error naming the form"
"$fab" topo watch --once -i "$fx/3.topo" --lldp-max-age 10:00 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "lldp-max-age: expected with --lldp DIR" "$tmp/err"
ok $? "watch --lldp-max-age without --lldp: a usage error"
exit $bad
