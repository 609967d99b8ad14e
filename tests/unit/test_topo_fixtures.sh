#!/bin/sh
# test_topo_fixtures.sh — expected outputs kept beside the fabric dumps of
# tests/fixtures/ibnetdiscover (TAP).  For each dump of the table below (or
# each named on the command line), every expected file that exists beside
# it is compared with what fabsched prints now, one TAP line per file:
#
#   <dump>.tree   fabsched topo export OPTIONS <dump>   (default format, exit 0)
#   <dump>.block  fabsched topo export OPTIONS -f block <dump>   (exit 0)
#   <dump>.yaml   fabsched topo export OPTIONS -f yaml <dump>    (exit 0)
#   <dump>.json   fabsched topo export OPTIONS -f json <dump>    (the model, exit 0)
#   <dump>.check  "exit status: N" (fabsched topo check's exit status: 0
#                 nothing, 3 warnings or problems), then its standard output
#
# and, when both <dump>.json and <dump>.check are there, the model read
# back: `fabsched topo check --model <dump>.json` must print <dump>.check
# too (everything check reports survives the JSON model).
#
# OPTIONS are the dump's line in the table (its only place).  Every command
# runs inside tests/fixtures/ibnetdiscover with the dump's and its map's
# names alone, so that no output holds a path of this machine, and with
# SLURM_CONF naming an empty file: without --all-hosts or --nodelist the
# compute nodes are told by their names and the fabric, never by the
# slurm.conf of the machine.  The outputs hold no date.  On a mismatch the
# unified diff follows as TAP comments (the model's one-line sections cut
# at each object, to be read; the comparison itself is of the whole file).
#
# To accept a deliberate change, or to make the files of a new fixture, in
# the build directory (FABSCHED_BUILDDIR names another):
#   FABSCHED_REGEN=1 sh <srcdir>/tests/unit/test_topo_fixtures.sh [dump...]
# (or --regen first) writes every expected file whose command succeeds
# (export: exit 0; check: 0 or 3), says which it wrote and which it left
# alone; each changed file is read, as a diff, before it is committed.
#
# A new fixture: put the dump (and its map) in tests/fixtures/ibnetdiscover
# and its line in the table below; run this script with FABSCHED_REGEN=1
# and check every file it wrote against the fabric (switches, hosts,
# racks, levels); add the dump and its expected files to SOURCES.md there.
set -u

# dump               options of export and check (words, no quoting)
fixtures='
ndr-split.ibdiagnet  --all-hosts
director.topo        --all-hosts
1.topo
X5.topofile          --all-hosts -m X5.map
railopt-3su.topo     --all-hosts
evidence.topo
'

fab=${FABSCHED_BUILDDIR:-$(pwd)}/cli/fabsched
fx=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/ibnetdiscover
regen=${FABSCHED_REGEN:-}
[ "$regen" = 0 ] && regen=
if [ "${1:-}" = --regen ]; then
	regen=1
	shift
fi
case $fab in /*) ;; *) fab=$(pwd)/$fab ;; esac
fx=$(cd "$fx" && pwd) || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/slurm.conf"
SLURM_CONF=$tmp/slurm.conf
LC_ALL=C
export SLURM_CONF LC_ALL
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
diag() { sed 's/^/# /'; }
# fabsched's messages but the one about the empty slurm.conf
errors() { grep -v "^fabsched topo: $SLURM_CONF names no node" "$tmp/err"; }

formats="tree block yaml json check"
# options of dump $1 (the table's line), or status 1 when it has none
opts_of() {
	echo "$fixtures" | awk -v d="$1" '$1 == d { $1 = ""; sub(/^ +/, ""); print; f = 1 } END { exit !f }'
}
# fabsched's output for dump $1 in format $2, with the options $o, into
# $3; its status (check: 0 when it ran, warnings or not)
run() {
	# shellcheck disable=SC2086 # the table's options are words
	case $2 in
	check)
		(cd "$fx" && "$fab" topo check $o "$1") >"$tmp/stdout" 2>"$tmp/err"
		rc=$?
		{ echo "exit status: $rc"; cat "$tmp/stdout"; } >"$3"
		[ $rc -eq 0 ] || [ $rc -eq 3 ]
		;;
	tree)	# the default format
		(cd "$fx" && "$fab" topo export $o "$1") >"$3" 2>"$tmp/err"
		;;
	*)
		(cd "$fx" && "$fab" topo export $o -f "$2" "$1") >"$3" 2>"$tmp/err"
		;;
	esac
}
fmt() { [ "$1" = tree ] || echo "-f $1 "; }
# the model's sections are one line each: one object a line, to be read
readable() {
	if [ "$1" = json ]; then
		sed 's/}, {/},\
{/g' "$2"
	else
		cat "$2"
	fi
}

# shellcheck disable=SC2046 # one word per dump of the table
[ $# -gt 0 ] || set -- $(echo "$fixtures" | awk 'NF { print $1 }')
if [ -n "$regen" ]; then
	for dump in "$@"; do
		if ! o=$(opts_of "$dump"); then
			echo "$dump: not in the table of $0" >&2
			bad=1
			continue
		fi
		for f in $formats; do
			want=$fx/$dump.$f
			if run "$dump" "$f" "$tmp/out"; then
				if [ -f "$want" ] && cmp -s "$want" "$tmp/out"; then
					echo "unchanged $want"
				else
					cp "$tmp/out" "$want" && echo "wrote $want"
				fi
			elif [ -f "$want" ]; then
				echo "FAILED $want kept: $(errors)" >&2
				bad=1
			else
				echo "not written $want: $(errors)"
			fi
		done
	done
	exit $bad
fi

# the plan: one line per expected file, one per dump without any
plan=0
for dump in "$@"; do
	k=0
	for f in $formats; do
		[ -f "$fx/$dump.$f" ] && k=$((k + 1))
	done
	[ $k -gt 0 ] || k=1
	[ -f "$fx/$dump.json" ] && [ -f "$fx/$dump.check" ] && k=$((k + 1))
	plan=$((plan + k))
done
echo "1..$plan"
for dump in "$@"; do
	if ! o=$(opts_of "$dump"); then
		ok 1 "$dump: in the table of fixtures"
		continue
	fi
	k=0
	for f in $formats; do
		want=$fx/$dump.$f
		[ -f "$want" ] || continue
		k=$((k + 1))
		run "$dump" "$f" "$tmp/out"
		rc=$?
		cmp -s "$want" "$tmp/out"
		same=$?
		if [ "$f" = check ]; then
			what="topo check ${o:+$o }is $dump.check ($(head -n 1 "$tmp/out"))"
		else
			what="topo export ${o:+$o }$(fmt "$f")is $dump.$f (exit $rc)"
		fi
		[ $rc -eq 0 ] && [ $same -eq 0 ]
		ok $? "$dump: $what"
		if [ $rc -ne 0 ] || [ $same -ne 0 ]; then
			errors | diag
			readable "$f" "$want" >"$tmp/a"
			readable "$f" "$tmp/out" >"$tmp/b"
			diff -u "$tmp/a" "$tmp/b" | sed "1s|.*|--- $dump.$f (expected)|; 2s|.*|+++ $dump.$f (now)|" |
				diag
		fi
	done
	[ $k -gt 0 ] || ok 1 "$dump: an expected file beside it (FABSCHED_REGEN=1 $0 $dump)"
	[ -f "$fx/$dump.json" ] && [ -f "$fx/$dump.check" ] || continue
	(cd "$fx" && "$fab" topo check --model "$dump.json") >"$tmp/stdout" 2>"$tmp/err"
	{ echo "exit status: $?"; cat "$tmp/stdout"; } >"$tmp/out"
	if cmp -s "$fx/$dump.check" "$tmp/out"; then
		ok 0 "$dump: topo check --model $dump.json is $dump.check"
	else
		ok 1 "$dump: topo check --model $dump.json is $dump.check"
		errors | diag
		diff -u "$fx/$dump.check" "$tmp/out" |
			sed "1s|.*|--- $dump.check (expected)|; 2s|.*|+++ check --model $dump.json (now)|" | diag
	fi
done
exit $bad
