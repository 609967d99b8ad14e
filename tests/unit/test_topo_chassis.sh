#!/bin/sh
# test_topo_chassis.sh — a fat tree whose level-1 and core switches are the
# ASICs of director chassis (tests/bench/gen_fattree -c), as ibnetdiscover
# records them: descriptions "MF0;<chassis>:CS7500/S<nn>/U1", one system
# image GUID per chassis.  fabsched topo check counts the chassis and warns
# of nothing (each ASIC named "<chassis>-S<nn>", no shared name), and the
# tree export is the one generated.  The JSON model keeps each switch's
# system image GUID ("sysimgguid"): topo check --model counts the chassis
# of tests/fixtures/ibnetdiscover/director.topo and of the generated tree
# as their dumps do, also in the model topo watch writes; a malformed one
# is refused, a model written before it was kept still reads.  TAP.
set -u
B=${FABSCHED_BUILDDIR:-$(pwd)}
FS=$B/cli/fabsched
GEN=$B/tests/bench/gen_fattree
FX=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/ibnetdiscover
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; return 1; fi; }
diag() { sed 's/^/# /' "$@"; }

echo "1..12"

# 3 levels, 64 hosts, radix 8: 16 leaves, 4 pods of 4 level-1 switches,
# 16 cores; 4 ASICs a chassis: 4 level-1 chassis (one per pod), 4 core ones
"$GEN" -l 3 -H 64 -k 8 -c 4 -f ibnet -e "$tmp/exp.conf" -o "$tmp/fab" 2>"$tmp/gen.err"
rc=$?
[ $rc -eq 0 ] && grep -q '8 director chassis' "$tmp/gen.err" &&
	grep -q '"MF0;r0-core-dir3:CS7500/S04/U1"' "$tmp/fab" &&
	[ "$(grep -c '^sysimgguid=0x2c905' "$tmp/fab")" = 32 ]
ok $? "gen_fattree -c 4: 32 ASICs in 8 chassis, one system image GUID each" || diag "$tmp/gen.err"

"$FS" topo check "$tmp/fab" >"$tmp/check" 2>&1
rc=$?
ok $rc "topo check: exit 0 (no warning, no problem)" || diag "$tmp/check"
grep -q 'planes: 1; pods: 4; racks: 16; director chassis: 8$' "$tmp/check" &&
	grep -q 'switches: 48 (leaves 16, non-compute leaves 0, spines 32, isolated 0), levels 3' "$tmp/check" &&
	grep -q 'issues: 0 problem(s), 0 warning(s), 0 note(s)' "$tmp/check"
ok $? "topo check: 8 director chassis in the summary, 3 levels, no issue" || diag "$tmp/check"
grep -q '^  r0-spine-dir2 0x0002c90500000003: 4 switch ASICs; above them r0-spine-dir2-S01, r0-spine-dir2-S02, r0-spine-dir2-S03, r0-spine-dir2-S04$' "$tmp/check"
ok $? "topo check: each chassis listed with its ASICs by name" || diag "$tmp/check"
! grep -q 'not unique\|S-0002c903' "$tmp/check"
ok $? "topo check: no switch named S-<guid>, no name warning" || diag "$tmp/check"

# the tree: every ASIC by its own name, exactly as generated
"$FS" topo export --no-link-speed "$tmp/fab" >"$tmp/tree" 2>"$tmp/err" &&
	grep -v '^#' "$tmp/tree" | diff -u "$tmp/exp.conf" - >"$tmp/diff"
ok $? "topo export: the generated tree (48 switches, names <chassis>-S<nn>)" || diag "$tmp/err" "$tmp/diff"
"$FS" topo diff "$tmp/fab" -a "$tmp/tree" >"$tmp/d2" 2>&1 &&
	[ "$(cat "$tmp/d2")" = "0 difference(s)" ] &&
	[ "$(grep -c '^SwitchName=' "$tmp/tree")" = 48 ] &&
	[ "$(grep '^SwitchName=' "$tmp/tree" | cut -d' ' -f1 | sort -u | wc -l)" = 48 ]
ok $? "topo diff against its own export: 0 differences; 48 distinct switch names" || diag "$tmp/d2"

# the model keeps the system image GUIDs: the chassis of a model are those
# of its dump (director.topo: one chassis of 4 ASICs)
"$FS" topo export --all-hosts -f json -o "$tmp/dir.json" "$FX/director.topo" 2>"$tmp/err" &&
	[ "$(grep -o '"sysimgguid": "0x7cfe900300a0b000"' "$tmp/dir.json" | wc -l)" = 4 ] &&
	"$FS" topo check --model "$tmp/dir.json" >"$tmp/mcheck" 2>&1 &&
	grep -q 'planes: 1; pods: 1; racks: 2; director chassis: 1$' "$tmp/mcheck" &&
	grep -q '^  core1 0x7cfe900300a0b000: 4 switch ASICs; leaves core1-L01, core1-L02; above them core1-S01, core1-S02$' "$tmp/mcheck"
ok $? "director.topo's model: topo check --model reports director chassis: 1, core1's 4 ASICs" ||
	diag "$tmp/err" "$tmp/mcheck"
"$FS" topo check --all-hosts "$tmp/fab" >"$tmp/dcheck" 2>&1
"$FS" topo discover --all-hosts -o "$tmp/fab.json" "$tmp/fab" 2>"$tmp/err" &&
	"$FS" topo check --model "$tmp/fab.json" >"$tmp/mcheck" 2>&1 &&
	diff -u "$tmp/dcheck" "$tmp/mcheck" >"$tmp/diff"
ok $? "the generated tree's model: topo check --model prints what topo check of the dump does (8 chassis)" ||
	diag "$tmp/err" "$tmp/diff"

# the model topo watch writes (its planes merged into one model) keeps them
mkdir "$tmp/bin" && printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/sinfo" &&
	cp "$tmp/bin/sinfo" "$tmp/bin/scontrol" && chmod +x "$tmp/bin/sinfo" "$tmp/bin/scontrol" &&
	printf 'FabricModel=%s\n' "$tmp/watch.json" >"$tmp/fabsched.conf"
PATH=$tmp/bin:$PATH "$FS" topo watch --once --no-drain --conf "$tmp/fabsched.conf" --all-hosts \
	-i "$tmp/fab" >"$tmp/wlog" 2>&1 &&
	"$FS" topo check --model "$tmp/watch.json" >"$tmp/mcheck" 2>&1 &&
	grep -q 'director chassis: 8$' "$tmp/mcheck"
ok $? "the model of topo watch --once: director chassis: 8" || diag "$tmp/wlog" "$tmp/mcheck"

# a malformed system image GUID is refused, with where it is
sed '0,/"sysimgguid": "0x[0-9a-f]*"/s//"sysimgguid": "0xchassis"/' "$tmp/dir.json" >"$tmp/bad.json"
"$FS" topo check --model "$tmp/bad.json" >"$tmp/mcheck" 2>&1
rc=$?
[ $rc -eq 1 ] &&
	grep -q 'bad.json: switches\[0\].sysimgguid: bad or missing value; expected a system image GUID "0x<1 to 16 hex digits>"' "$tmp/mcheck"
ok $? "a model with sysimgguid \"0xchassis\": refused, switches[0].sysimgguid named (exit $rc)" ||
	diag "$tmp/mcheck"
# a model written before system image GUIDs were kept: read, no chassis
sed 's/ "sysimgguid": "0x[0-9a-f]*",//g' "$tmp/dir.json" >"$tmp/old.json"
! grep -q sysimgguid "$tmp/old.json" &&
	"$FS" topo check --model "$tmp/old.json" >"$tmp/mcheck" 2>&1 &&
	grep -q 'racks: 2; director chassis: 0$' "$tmp/mcheck"
ok $? "a model without sysimgguid (older fabsched): read, director chassis: 0" || diag "$tmp/mcheck"
exit $bad
