#!/bin/sh
# test_examples.sh — the example configuration (examples/) holds together:
# its node-name map names the HCAs of a fabric whose HCAs report default
# descriptions (each node gets both its HCAs), and its fabsched.conf,
# with its paths moved under a scratch directory, passes
# `fabsched config check` with the model discovered through that map.
# TAP.  (Slurm's own parser does not read the slurm.conf fragments here.)
set -u
fab=${FABSCHED_BUILDDIR:-.}/cli/fabsched
top=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ex=$top/examples
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
echo "1..3"

# one leaf, two hosts of two HCAs each, every HCA with its default description
desc='MT4123 ConnectX6 Mellanox Technologies'
{
	printf 'switchguid=0x2000(2000)\nSwitch\t36 "S-0000000000002000"\t\t# "leaf01" enhanced port 0 lid 1 lmc 0\n'
	p=1
	for g in 0002c90300000101 0002c90300000102 0002c90300000201 0002c90300000202; do
		printf '[%d]\t"H-%s"[1](%s)\t\t# "%s" lid %d 4xHDR\n' "$p" "$g" "$g" "$desc" $((p + 10))
		p=$((p + 1))
	done
	printf '\n'
	p=1
	for g in 0002c90300000101 0002c90300000102 0002c90300000201 0002c90300000202; do
		printf 'caguid=0x%s\nCa\t1 "H-%s"\t\t# "%s"\n[1](%s) \t"S-0000000000002000"[%d]\t\t# lid %d lmc 0 "leaf01" lid 1 4xHDR\n\n' \
			"$g" "$g" "$desc" "$g" "$p" $((p + 10))
		p=$((p + 1))
	done
} > "$tmp/fabric.ibnet"

"$fab" topo discover -i "$tmp/fabric.ibnet" -m "$ex/node-name-map" -o "$tmp/fabric.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q '"n001"' "$tmp/fabric.json" && grep -q '"n002"' "$tmp/fabric.json"
ok $? "examples/node-name-map names the default-description HCAs: n001 and n002 in the model" ||
	sed 's/^/# /' "$tmp/err"

"$fab" topo export -i "$tmp/fabric.ibnet" -m "$ex/node-name-map" -f tree >"$tmp/topology.conf" 2>"$tmp/err"
grep -q 'Nodes=n\[001-002\]' "$tmp/topology.conf"
ok $? "and its topology.conf holds both nodes under leaf01 ($(grep -m1 Nodes= "$tmp/topology.conf"))" ||
	sed 's/^/# /' "$tmp/err" "$tmp/topology.conf"

# the example fabsched.conf, its absolute paths moved under $tmp
cp "$ex/node-name-map" "$tmp/node-name-map"
sed -e "s|/etc/slurm/fabsched/|$tmp/|g" -e "s|=/var/lib/fabsched|=$tmp/state|" \
	-e "s|=/dev/hugepages-fabsched|=$tmp/hugepages|" -e "s|=/scratch|=$tmp/scratch|" \
	"$ex/fabsched.conf" > "$tmp/fabsched.conf"
"$fab" config check --conf "$tmp/fabsched.conf" >"$tmp/out" 2>&1
ok $? "examples/fabsched.conf passes fabsched config check" || sed 's/^/# /' "$tmp/out"
exit $bad
