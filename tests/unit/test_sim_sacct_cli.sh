#!/bin/sh
# fabsched sim on a site's own accounting history: sacct --json (24.11
# form) and sacct -P, told apart by content, replayed end to end; what was
# dropped and why on stderr; errors naming the file (TAP).
fab=${FABSCHED_BUILDDIR:-.}/cli/fabsched
fx=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/sacct
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
echo "1..7"

"$fab" sim "$fx/sacct-24.11.json" -p tree,rack -r 4 --no-progress \
	--json "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
ok $? "sim: sacct --json of 24.11 exits 0"
grep -q '^trace .*sacct-24.11.json: 7 jobs; machine 8 nodes, 2 racks of 4' "$tmp/out" &&
	grep -q '^policy  *1rack%' "$tmp/out" && grep -q '^tree  *[0-9]' "$tmp/out" &&
	grep -q '^rack  *[0-9]' "$tmp/out"
ok $? "sim: a table of tree and rack on the history's 8 hosts" || sed 's/^/# /' "$tmp/out"
grep -q 'sacct-24.11.json: sacct --json of Slurm 24.11.5 (data_parser/v0.0.42): 10 job records, 7 jobs replayed (2 array tasks, 0 heterogeneous job components as jobs of their own); not replayed: 1 cancelled before they started, 1 never started, 1 still running, 0 without nodes, 0 ending before they started, 0 too wide; 0 step lines skipped' "$tmp/err" &&
	grep -q '8 nodes: the distinct hosts of the jobs. node lists (widest job 8); machine 8 nodes' "$tmp/err"
ok $? "sim: stderr says what was read and dropped, and why" || sed 's/^/# /' "$tmp/err"
grep -q '"sacct": {"source": "sacct --json of Slurm 24.11.5 (data_parser/v0.0.42)", "records": 10, "steps": 0, "cancelled": 1, "not_started": 1, "running": 1' "$tmp/r.json"
ok $? "sim: the JSON report has the sacct facts"

# sacct -P with steps, gzip-compressed, on a fabric model: 3.topo has a
# rack of 2 nodes and one of 3; jobs wider than 5 nodes would be dropped
topo=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/ibnetdiscover/3.topo
gzip -c "$fx/sacct-steps.txt" >"$tmp/h.txt.gz"
"$fab" topo discover --all-hosts -i "$topo" -o "$tmp/m.json" 2>/dev/null &&
TZ=UTC "$fab" sim "$tmp/h.txt.gz" -M "$tmp/m.json" -p rack --no-progress \
	--schedule "$tmp/s.csv" >/dev/null 2>"$tmp/err"
ok $? "sim: sacct -P (gzip) on a fabric model exits 0" || sed 's/^/# /' "$tmp/err"
[ "$(cut -d, -f1 "$tmp/s.csv" | tr '\n' ' ')" = "job 401 404 405 407 408 " ] &&
	grep -q '4 step lines skipped' "$tmp/err" && grep -q '5 nodes: the machine given' "$tmp/err"
ok $? "sim: the jobs of sacct -P replayed, steps skipped" || sed 's/^/# /' "$tmp/s.csv" "$tmp/err"

"$fab" sim "$fx/sacct-no-end.txt" --no-progress >/dev/null 2>"$tmp/e1"
r1=$?
"$fab" sim "$fx/sacct-broken.json" --no-progress >/dev/null 2>"$tmp/e2"
r2=$?
[ $r1 -eq 1 ] && grep -q "sacct-no-end.txt:1: no End column in the header; expected the output of sacct -P" "$tmp/e1" &&
	[ $r2 -eq 1 ] && grep -q "sacct-broken.json:6: not valid JSON: " "$tmp/e2"
ok $? "sim: a -P file without a required column, a broken JSON: exit 1 naming file and line" ||
	sed 's/^/# /' "$tmp/e1" "$tmp/e2"
exit $bad
