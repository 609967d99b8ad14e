#!/bin/sh
# fabsched sim on hand-checked traces: schedule, reports, errors (TAP).
fab=${FABSCHED_BUILDDIR:-.}/cli/fabsched
fx=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/swf
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
echo "1..16"

"$fab" sim "$fx/locality.swf" -r 4 -p rack@0:20 --no-progress \
	--schedule "$tmp/sched.csv" >"$tmp/out" 2>"$tmp/err"
ok $? "sim: a good trace exits 0"
cat >"$tmp/want.csv" <<'END'
job,submit,start,end,nodes,racks,node_list
1,0,0,100,2,1,0 1
2,0,0,200,3,1,4 5 6
3,1,21,71,3,2,2 3 7
4,2,2,12,1,1,7
END
diff "$tmp/want.csv" "$tmp/sched.csv" >"$tmp/diff"
ok $? "sim: the expected schedule" || sed 's/^/# /' "$tmp/diff"
grep -q '^rack@00:00:20  *75.00 ' "$tmp/out"
ok $? "sim: table row with the one-rack share"

gzip -c "$fx/locality.swf" >"$tmp/locality.swf.gz"
"$fab" sim "$tmp/locality.swf.gz" -r 4 -p rack@0:20,tree,firstfit --no-progress \
	--csv "$tmp/r.csv" --json "$tmp/r.json" --svg "$tmp/c.svg" \
	--occupancy-svg "$tmp/o.svg" >/dev/null 2>&1
ok $? "sim: gzip trace, three policies, every output"
[ "$(wc -l <"$tmp/r.csv")" -eq 4 ] && grep -q ',tree,4,0,4,3,0.750000,' "$tmp/r.csv"
ok $? "sim: CSV has a row per policy"
grep -q '"policy": "firstfit"' "$tmp/r.json" && grep -q '"too_wide": 0' "$tmp/r.json"
ok $? "sim: JSON has runs and trace facts"
grep -q '^<svg' "$tmp/c.svg" && grep -q '</svg>' "$tmp/o.svg"
ok $? "sim: SVG pictures written"

printf '1 0 -1 10 1 -1 -1 1 20 -1 1 1 1\n' >"$tmp/bad.swf"
"$fab" sim "$tmp/bad.swf" --no-progress >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "bad.swf:1: expected 18 fields, found 13" "$tmp/err"
ok $? "sim: a broken trace exits 1 naming file and line"

"$fab" sim "$fx/locality.swf" -p tree,firstfit --schedule "$tmp/x" >/dev/null 2>&1
rc1=$?
"$fab" sim "$fx/locality.swf" -p switch >/dev/null 2>&1
rc2=$?
"$fab" sim "$fx/locality.swf" --backfill conservative >/dev/null 2>"$tmp/err"
rc3=$?
[ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ] &&
	grep -q "\-\-backfill 'conservative': expected easy or slurm" "$tmp/err"
ok $? "sim: usage errors exit 2"
# --backfill slurm: every blocked job reserves (resvall.swf: job 4 waits
# behind job 3's reservation instead of starting at once, as under EASY)
"$fab" sim "$fx/resvall.swf" -r 4 -p firstfit --backfill slurm --no-progress \
	--schedule "$tmp/ra.csv" >/dev/null 2>&1 &&
	"$fab" sim "$fx/resvall.swf" -r 4 -p firstfit --backfill easy --no-progress \
		--schedule "$tmp/re.csv" >/dev/null 2>&1 &&
	"$fab" sim "$fx/resvall.swf" -r 4 -p firstfit --no-progress \
		--schedule "$tmp/rd.csv" >/dev/null 2>&1 &&
	grep -q '^4,3,300,' "$tmp/ra.csv" && grep -q '^4,3,3,' "$tmp/re.csv" &&
	cmp -s "$tmp/ra.csv" "$tmp/rd.csv"
ok $? "sim: --backfill slurm (the default) against easy"
# node types of the header notes: the majority type's size, said on
# stderr; a note of another form is ignored, and stderr says why
{
	echo '; MaxNodes: 5544'
	echo '; Note: 5040 thin nodes + 360 fat nodes + 144 hybrid nodes'
	echo '; MaxProcs: 93312'
	echo '; Note: 80640 in thin nodes + 11520 in fat nodes + 1152 in hybrid nodes'
	i=1
	while [ $i -le 40 ]; do
		echo "$i $((i * 100)) -1 50 $((i * 4 + 2)) -1 -1 $((i * 4 + 2)) 60 -1 1 1 1 -1 -1 -1 -1 -1"
		i=$((i + 1))
	done
} >"$tmp/types.swf"
"$fab" sim "$tmp/types.swf" -p tree --no-progress >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] && grep -q ", 16 procs per node (the log's majority node type, thin: 5040 of 5544 nodes, 80640/5040 processors; 504 nodes of other types (fat: 32, hybrid: 8) modelled as thin); machine 5544 nodes" "$tmp/err" &&
	! grep -q header: "$tmp/err"
ok $? "sim: node types of the header notes" || sed 's/^/# /' "$tmp/err"
sed 's/+ 144 hybrid nodes/+ some hybrid nodes/' "$tmp/types.swf" >"$tmp/types-bad.swf"
"$fab" sim "$tmp/types-bad.swf" -p tree --no-progress >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "types-bad.swf: header: line 2: node type note ignored: term 3 'some hybrid nodes' does not start with a number; expected '<count> <type> nodes' or '<processors> in <type> nodes' joined by '+' (and 1 more)" "$tmp/err"
ok $? "sim: a malformed node type note is ignored, saying why" || sed 's/^/# /' "$tmp/err"
# --jitter: a copy of the log with moved submit times, the same for the
# same seed; a bad span is refused naming the option
"$fab" sim "$fx/locality.swf" -r 4 -p rack@0:20 --no-progress --jitter 60 --seed 3 \
	--schedule "$tmp/j1.csv" >/dev/null 2>"$tmp/err" &&
"$fab" sim "$fx/locality.swf" -r 4 -p rack@0:20 --no-progress --jitter 60 --seed 3 \
	--schedule "$tmp/j2.csv" >/dev/null 2>&1 &&
cmp -s "$tmp/j1.csv" "$tmp/j2.csv" && ! cmp -s "$tmp/j1.csv" "$tmp/sched.csv" &&
grep -q "locality.swf: submit times moved by up to 60 s either way (copy 3)" "$tmp/err"
ok $? "sim: --jitter 60 --seed 3 moves the submit times, the same twice" || sed 's/^/# /' "$tmp/err"
"$fab" sim "$fx/locality.swf" -r 4 -p rack@0:20 --no-progress --jitter 0 --seed 5 \
	--schedule "$tmp/j0.csv" >/dev/null 2>"$tmp/err" && cmp -s "$tmp/j0.csv" "$tmp/sched.csv" &&
grep -q -- "--seed without --jitter: the log's own submit times" "$tmp/err"
ok $? "sim: --jitter 0 replays the log's own times, and says --seed changed nothing"
"$fab" sim "$fx/locality.swf" --jitter 1m --no-progress >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--jitter=1m: not an integer; expected an integer from 0 to 1000000" "$tmp/err"
ok $? "sim: --jitter 1m is refused (exit 2), naming the accepted form" || sed 's/^/# /' "$tmp/err"
# a fabric model instead of a generated fat tree: 3.topo has a rack of
# 2 nodes (0, 1) and one of 3 (2, 3, 4); job 3 waits for the big one
topo=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/ibnetdiscover/3.topo
"$fab" topo discover --all-hosts -i "$topo" -o "$tmp/m.json" 2>/dev/null &&
"$fab" sim "$fx/locality.swf" -M "$tmp/m.json" -p rack --no-progress \
	--schedule "$tmp/msched.csv" >/dev/null 2>&1
cat >"$tmp/mwant.csv" <<'END'
job,submit,start,end,nodes,racks,node_list
1,0,0,100,2,1,0 1
2,0,0,200,3,1,2 3 4
3,1,200,250,3,1,2 3 4
4,2,100,110,1,1,0
END
diff "$tmp/mwant.csv" "$tmp/msched.csv" >"$tmp/diff" 2>&1
ok $? "sim: on a fabric model (topo discover of 3.topo)" || sed 's/^/# /' "$tmp/diff"
exit $bad
