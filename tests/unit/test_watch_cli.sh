#!/bin/sh
# test_watch_cli.sh — fabsched topo watch end to end, without Slurm: one
# cycle at a time (--once) over fabric dumps written here, with sinfo and
# scontrol replaced by scripts first in PATH (sinfo prints Slurm's nodes
# from a file in the fixed-width form the watch asks for; scontrol records
# its arguments).  A spoofing HCA (a new GUID whose description claims
# n003, with escape bytes; its link degraded, DrainOnDegradedLink=yes)
# drains nothing and resumes nothing, and no byte of its description
# reaches the log or scontrol unescaped; once the node-name map
# (NodeNameMap) names it, n003 is acted on.  TAP.
set -u
fab=${FABSCHED_BUILDDIR:-.}/cli/fabsched
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
diag() { sed 's/^/# /' "$@"; }
echo "1..11"

ESC=$(printf '\033')
BEL=$(printf '\007')
TAB=$(printf '\t')
SPOOF="n003 mlx5_0${ESC}[2J${ESC}]0;owned${BEL}\"'"

# fabric OUT: the HCAs of $tmp/hcas ("<guid> TAB <desc> TAB <leaf> TAB
# <port> TAB <width>", 16 hex digits) as ibnetdiscover prints them: one
# spine, leaves 1 and 2 (port 10 up)
fabric() {
	awk -F "$TAB" '
	{ g[NR] = $1; d[NR] = $2; lf[NR] = $3; p[NR] = $4; w[NR] = $5; n = NR }
	END {
		printf "switchguid=0x200000(200000)\nSwitch\t36 \"S-0000000000200000\"\t\t# \"spine01\" enhanced port 0 lid 1 lmc 0\n"
		for (l = 1; l <= 2; l++)
			printf "[%d]\t\"S-000000000020000%d\"[10]\t\t# \"leaf0%d\" lid 2 4xHDR\n", l, l, l
		printf "\n"
		for (l = 1; l <= 2; l++) {
			printf "switchguid=0x20000%d(20000%d)\nSwitch\t36 \"S-000000000020000%d\"\t\t# \"leaf0%d\" enhanced port 0 lid 2 lmc 0\n", l, l, l, l
			for (i = 1; i <= n; i++)
				if (lf[i] == l)
					printf "[%d]\t\"H-%s\"[1](%s)\t\t# \"%s\" lid 11 %dxHDR\n", p[i], g[i], g[i], d[i], w[i]
			printf "[10]\t\"S-0000000000200000\"[%d]\t\t# \"spine01\" lid 1 4xHDR\n\n", l
		}
		for (i = 1; i <= n; i++)
			printf "caguid=0x%s\nCa\t1 \"H-%s\"\t\t# \"%s\"\n[1](%s) \t\"S-000000000020000%d\"[%d]\t\t# lid 13 lmc 0 \"leaf0%d\" lid 2 %dxHDR\n\n", g[i], g[i], d[i], g[i], lf[i], p[i], lf[i], w[i]
	}' "$tmp/hcas" > "$1"
}
base() {	# n001-n004 on leaf01 ports 1-4, n005-n008 on leaf02
	for i in 1 2 3 4 5 6 7 8; do
		printf '000000000010000%d\tn00%d mlx5_0\t%d\t%d\t4\n' "$i" "$i" $(((i + 3) / 4)) $(((i - 1) % 4 + 1))
	done > "$tmp/hcas"
}
spoof() {	# the spoofing HCA on leaf02 port 5, at width $1
	printf '0000000000100099\t%s\t2\t5\t%s\n' "$SPOOF" "$1" >> "$tmp/hcas"
}
nodes() {	# Slurm's nodes: n001-n008 idle, no feature; then "name|state|reason" lines
	for i in 1 2 3 4 5 6 7 8; do echo "n00$i|idle|(null)|none"; done > "$tmp/nodes"
	for l in "$@"; do
		name=${l%%|*}
		rest=${l#*|}
		sed -i "s/^$name|.*/$name|${rest%%|*}|(null)|${rest#*|}/" "$tmp/nodes"
	done
}
cycle() {	# one cycle over $tmp/fabric.ibnet; its log in $tmp/log, scontrol's in $tmp/scontrol
	fabric "$tmp/fabric.ibnet"
	: > "$tmp/scontrol"
	PATH=$tmp/bin:$PATH "$fab" topo watch --once --conf "$tmp/fabsched.conf" --all-hosts \
		-i "$tmp/fabric.ibnet" "$@" >"$tmp/log" 2>&1
}

mkdir "$tmp/bin"
cat > "$tmp/bin/sinfo" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >> "$tmp/sinfo.args"
while IFS='|' read -r name state features reason; do
	printf '%-65.65s%-32.32s%-512.512s%-96.96s\n' "\$name" "\$state" "\$features" "\$reason"
done < "$tmp/nodes"
EOF
cat > "$tmp/bin/scontrol" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >> "$tmp/scontrol"
EOF
chmod +x "$tmp/bin/sinfo" "$tmp/bin/scontrol"
printf 'FabricModel=%s\nDrainOnDegradedLink=yes\n' "$tmp/fabric.json" > "$tmp/fabsched.conf"

# 1: the first model, every HCA bound
base
cycle --no-drain
grep -q '8 HCA(s) seen for the first time bound to their nodes by GUID' "$tmp/log" &&
	[ "$(grep -c '^0x' "$tmp/fabric.json.bindings")" = 8 ] &&
	grep -q '^0x0000000000100003 n003 0x0000000000200001$' "$tmp/fabric.json.bindings"
ok $? "first cycle: the 8 HCAs bound to their nodes in fabric.json.bindings" || diag "$tmp/log"
# its first line says what it does: one discovery, from the source given
grep -q "fabric.json: one discovery, from 1 source given; reports only$" "$tmp/log" &&
	! grep -q 'source(s)' "$tmp/log"
ok $? "the first line: one discovery, from 1 source given, reports only (--no-drain)" || diag "$tmp/log"

# 2-5: a new HCA claims n003 on its plane, its link at 1x (degraded): the
# watch that named HCAs by description drained n003 (DrainOnDegradedLink)
base
spoof 1
nodes
cycle
! grep -q 'nodename=n003' "$tmp/scontrol"
ok $? "a spoofing HCA with a degraded link: n003 neither drained nor given features" ||
	diag "$tmp/log" "$tmp/scontrol"
grep -q 'nodename=n001 availablefeatures=rack_leaf01' "$tmp/scontrol"
ok $? "the other nodes are acted on (n001's features)" || diag "$tmp/scontrol"
grep -q 'n003: HCA 0x0000000000100099 ("n003 mlx5_0\\x1b\[2J\\x1b\]0;owned\\x07"'"'"'") on plane0 claims n003, which is bound to HCA 0x0000000000100003: n003 held' "$tmp/log"
ok $? "the claim is reported, its description escaped" || diag "$tmp/log"
! grep -q "[$ESC$BEL]" "$tmp/log" "$tmp/scontrol"
ok $? "no escape or bell byte in the log or in scontrol's arguments" || diag "$tmp/log"

# 6: n003's own HCA unplugged, n003 drained by the watch; the spoofing HCA
# (at 4x now) makes n003 look alive: it stays drained
base
sed -i '/^0000000000100003/d' "$tmp/hcas"
spoof 4
nodes 'n003|drained|fabsched: every rail down: mlx5_0 port 1 (leaf01 port 3)'
cycle
! grep -q 'nodename=n003' "$tmp/scontrol" && grep -q 'n003 held' "$tmp/log"
ok $? "n003 dead and drained, the spoofing HCA up: not resumed" || diag "$tmp/log" "$tmp/scontrol"

# 7: sinfo was asked for fixed-width records
grep -q -- '-h -N -o %65N%32T%512f%96E$' "$tmp/sinfo.args"
ok $? "sinfo asked for fixed-width records: $(tail -1 "$tmp/sinfo.args")"

# 8-9: the administrator names the HCA in NodeNameMap: bound, and n003,
# alive through it, resumed
printf '0x0000000000100099 "n003 mlx5_9"\n' > "$tmp/map"
printf 'NodeNameMap=%s\n' "$tmp/map" >> "$tmp/fabsched.conf"
cycle
grep -q 'n003: HCA 0x0000000000100099 bound by the node-name map$' "$tmp/log" &&
	grep -q '^0x0000000000100099 n003 0x0000000000200002$' "$tmp/fabric.json.bindings"
ok $? "NodeNameMap names the HCA: bound to n003" || diag "$tmp/log"
grep -q '^update nodename=n003 state=resume$' "$tmp/scontrol"
ok $? "and n003 is acted on: resumed" || diag "$tmp/log" "$tmp/scontrol"

# 10: a state file in the old form (a model without bindings beside it):
# the bindings start from it
rm "$tmp/fabric.json.bindings"
sed -i '/NodeNameMap/d' "$tmp/fabsched.conf"
base
fabric "$tmp/fabric.ibnet"
"$fab" topo discover -i "$tmp/fabric.ibnet" --all-hosts -o "$tmp/fabric.json" 2>/dev/null
spoof 4
nodes
cycle
grep -q 'n003 held' "$tmp/log" && ! grep -q 'nodename=n003' "$tmp/scontrol" &&
	[ "$(grep -c '^0x' "$tmp/fabric.json.bindings")" = 8 ]
ok $? "a model written without bindings: bound from it, the spoofing HCA held" || diag "$tmp/log"
