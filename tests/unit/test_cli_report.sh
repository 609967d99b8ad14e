#!/bin/sh
# The observation log of Locality=observe as fabsched report (text, --json,
# --html), metrics and job read it, from a made-up log: three partitions,
# held jobs, a job logged twice (the last line counts), a rotated .1, and
# bad lines (a field out of form, a control byte, a line cut short) that
# are counted and said, never used; and the errors: a bad --since, a
# period that ends before it starts, a missing log, an empty period, a
# link.  No Slurm: job's squeue is a script.  TAP.
fab=$(cd "${FABSCHED_BUILDDIR:-.}" && pwd)/cli/fabsched
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
# has FILE TEXT: FILE holds the line TEXT exactly, else says what it holds
has() {
	grep -qxF -- "$2" "$1" && return 0
	echo "# expected in $(basename "$1"): $2"
	sed 's/^/#   /' "$1" | head -40
	return 1
}
# the block of partition P in a text report
block() { sed -n "/^partition $1\$/,/^\$/p" "$2"; }
TZ=UTC
SLURM_CONF=$tmp/none/slurm.conf
export TZ SLURM_CONF
echo "1..27"

# 2025-12-01T00:00:00 UTC, a Monday
T=1764547200
D=86400
log=$tmp/state/fabsched_observe
mkdir "$tmp/state"
rec() {	# time job part level nodes fits got would why
	printf 'time=%s job=%s part=%s level=%s nodes=%s fits=%s got=%s would=%s waited=0 why=%s\n' "$@"
}
{
	rec $((T + 3600)) 101 mpi rack 4 1 rack:1:r1 rack:1:r1 "rack r1: 4 of 8 nodes free"
	rec $((T + 7200)) 102 mpi rack 8 1 any:3:r1,r2,r5 rack:1:r3 "rack r3: 8 of 8 nodes free"
	rec $((T + D + 3600)) 103 mpi rack 8 1 pod:2:r1,r2 rack:1:r4 "rack r4: 8 of 8 nodes free"
	rec $((T + 2 * D)) 104 gpu rack 2 1 rack:1:g1 wait:0:- \
		"Locality: <script>no</script> rack has 2 free nodes & none soon"
	echo "time=oops job=1 part=mpi level=rack nodes=1 fits=1 got=rack:1:r1 would=rack:1:r1 waited=0 why=x"
	# a NUL byte: what precedes it would be a whole record
	printf 'time=%s job=111 part=mpi level=rack nodes=1 fits=1 got=rack:1:r1 would=rack:1:r1 waited=0 why=x\000y\n' \
		$((T + 7300))
} >"$log.1"
{
	# job 103 again (requeued): this line counts
	rec $((T + 3 * D)) 103 mpi rack 8 1 any:4:r1,r2,r3,r6 rack:1:r2 "rack r2: 8 of 8 nodes free"
	rec $((T + 3 * D + 60)) 105 mpi rack 40 0 any:5:r1,r2,r3,r4,r5 any:5:r1,r2,r3,r4,r5 "larger than a pod"
	rec $((T + 4 * D)) 106 gpu rack 2 1 pod:2:g1,g2 wait:0:- "Locality: waiting for one rack"
	rec $((T + 4 * D + 60)) 107 gpu pod 2 1 pod:2:g1,g2 pod:2:g1,g3 "pod p1: 2 of 4 nodes free"
	printf 'time=%s job=108 part=gpu level=rack nodes=1 fits=1 got=rack:1:g1 would=rack:1:g1 waited=0 why=\a\n' \
		$((T + 4 * D + 120))
	rec $((T + 5 * D)) 109 io rack 1 1 rack:1:s1 stock:0:- "no rack of the model holds these nodes"
	printf 'time=%s job=110 part=io level=rack nodes=1 fits=1 got=rack:1:s1 would=rack:1:s' $((T + 5 * D + 60))
} >"$log"

# --- report, text
"$fab" report --observe "$log" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && has "$tmp/out" "fabsched report: 8 jobs observed from 2025-12-01T01:00:00 to 2025-12-06T00:00:00 (period: from the log's start to its end; one bucket per day)" &&
	has "$tmp/out" "log: $log.1, $log; 4 bad lines (not counted)"
ok $? "report: exit 0 ($rc), 8 jobs (job 103 once, 4 bad lines not counted), day buckets"

block mpi "$tmp/out" >"$tmp/mpi"
has "$tmp/mpi" "  jobs observed   4" && has "$tmp/mpi" "  rack-fittable   3 (fit one domain of their locality on the idle machine)" &&
	has "$tmp/mpi" "  in one domain   got 33.3% (1 of 3); would 100.0% (3 of 3)" &&
	has "$tmp/mpi" "  held back       0 jobs fabsched would have kept waiting for their locality" &&
	has "$tmp/mpi" "  racks per job   got 3.25, would 2.00 (the 4 jobs fabsched would have placed)"
ok $? "report mpi: 4 jobs, 3 rack-fittable, one domain got 1 would 3, racks per job 3.25 against 2.00"

has "$tmp/mpi" "  differs most    job 103 at 2025-12-04T00:00:00: got 4 racks (r1,r2,r3,r6) across pods; fabsched would have placed it in 1 rack (r2)" &&
	has "$tmp/mpi" "                  job 102 at 2025-12-01T02:00:00: got 3 racks (r1,r2,r5) across pods; fabsched would have placed it in 1 rack (r3)" &&
	[ "$(grep -c ' job 10[0-9] at ' "$tmp/mpi")" -eq 2 ]
ok $? "report mpi: differs most, the most racks first; job 103 by its last line (4 racks, not 2)"

block gpu "$tmp/out" >"$tmp/gpu"
has "$tmp/gpu" "  jobs observed   3" &&
	has "$tmp/gpu" "  in one domain   got 66.7% (2 of 3); would 100.0% (3 of 3)" &&
	has "$tmp/gpu" "                  (would: 1 placed at once, 2 held until one was free)" &&
	has "$tmp/gpu" "  held back       2 jobs fabsched would have kept waiting for their locality" &&
	has "$tmp/gpu" "  held (latest)   job 106 at 2025-12-05T00:00:00: Locality: waiting for one rack" &&
	has "$tmp/gpu" "                  job 104 at 2025-12-03T00:00:00: Locality: <script>no</script> rack has 2 free nodes & none soon" &&
	! grep -q "job 108" "$tmp/out"
ok $? "report gpu: level pod counts a pod as one domain, held jobs count as would, newest held first"

block io "$tmp/out" >"$tmp/io"
has "$tmp/io" "  in one domain   got 100.0% (1 of 1); would 0.0% (0 of 1)" && ! grep -q "racks per job" "$tmp/io"
ok $? "report io: a job left to Slurm's choice is not in one domain under would, no racks per job"

grep -qF "$log.1:5: no time; expected time=<seconds since 1970> first (2 lines of $log.1 not of the observation record's form, not counted)" "$tmp/err" &&
	grep -qF "$log:5: byte 0x07 at column 103; expected printable ASCII (2 lines of $log not of" "$tmp/err" &&
	[ "$(wc -l <"$tmp/err")" -eq 2 ]
r=$?
[ $r -eq 0 ] || sed 's/^/# stderr: /' "$tmp/err"
ok $r "report: the first bad line of each file said as file:line: message, with its count"

# --- report --json
"$fab" report --observe "$log" --json >"$tmp/json" 2>/dev/null
rc=$?
python3 - "$tmp/json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
p = {x["partition"]: x for x in r["partitions"]}
mpi, gpu, io = p["mpi"], p["gpu"], p["io"]
want = [
    (sorted(p), ["gpu", "io", "mpi"]), (r["jobs"], 8), (r["bad_lines"], 4), (r["bucket"], "day"),
    (r["since"], None), (r["first"], 1764550800), (r["last"], 1764979200),
    ((mpi["jobs"], mpi["fitting"], mpi["got_one_domain"], mpi["would_one_domain"], mpi["held"]), (4, 3, 1, 3, 0)),
    ((round(mpi["got_share"], 4), mpi["would_share"], mpi["mean_racks_got"], mpi["mean_racks_would"]), (0.3333, 1.0, 3.25, 2.0)),
    ([(d["job"], d["got"]["nracks"], d["got"]["racks"], d["would"]["kind"]) for d in mpi["differs_most"]],
     [(103, 4, ["r1", "r2", "r3", "r6"], "rack"), (102, 3, ["r1", "r2", "r5"], "rack")]),
    ((gpu["would_one_domain"], gpu["held"], gpu["held_fitting"], gpu["would_share"]), (1, 2, 2, 1.0)),
    ([h["why"] for h in gpu["held_latest"]], ["Locality: waiting for one rack",
     "Locality: <script>no</script> rack has 2 free nodes & none soon"]),
    ((io["mean_racks_got"], io["would_share"]), (None, 0.0)),
    (len(mpi["buckets"]), 6), ([b["jobs"] for b in mpi["buckets"]], [2, 0, 0, 2, 0, 0]),
    ([b["would_one_domain"] for b in gpu["buckets"]], [0, 0, 1, 0, 2, 0]),
]
bad = [(got, exp) for got, exp in want if got != exp]
for got, exp in bad:
    print("# got %r, expected %r" % (got, exp))
sys.exit(1 if bad else 0)
EOF
r=$?
[ $rc -eq 0 ] && [ $r -eq 0 ]
ok $? "report --json: valid JSON with the same figures, the held jobs' why, day buckets"

# --- report --html
"$fab" report --observe "$log" --html "$tmp/r.html" >"$tmp/out" 2>/dev/null
rc=$?
[ $rc -eq 0 ] && [ ! -s "$tmp/out" ] && grep -q '<svg xmlns="http://www.w3.org/2000/svg" class="share"' "$tmp/r.html" &&
	[ "$(grep -c '<svg ' "$tmp/r.html")" -eq 3 ] &&
	grep -qF '<td>Locality: &lt;script&gt;no&lt;/script&gt; rack has 2 free nodes &amp; none soon</td>' "$tmp/r.html"
ok $? "report --html: a page with one plot per partition, the log's text escaped, nothing on stdout"
! grep -qiE '<script|<link|<img|<iframe|src=|@import|url\(' "$tmp/r.html" &&
	grep -q '<circle class="would" .*data-start="1764720000"><title>2025-12-03: would 1 of 1 in one domain</title>' "$tmp/r.html" &&
	tail -1 "$tmp/r.html" | grep -qx '</body></html>'
ok $? "report --html: self-contained (no script, link or resource), a point per day with its figures"

# --- report: the period and the partitions
"$fab" report --observe "$log" --since 2025-12-04 --until 2025-12-05T00:00 >"$tmp/out" 2>/dev/null
rc=$?
[ $rc -eq 0 ] && has "$tmp/out" "fabsched report: 2 jobs observed from 2025-12-04T00:00:00 to 2025-12-04T00:01:00 (period: from 2025-12-04T00:00:00 to 2025-12-05T00:00:00; one bucket per hour)" &&
	[ "$(grep -c '^partition ' "$tmp/out")" -eq 1 ] && block mpi "$tmp/out" | grep -qx "  jobs observed   2"
ok $? "report --since DAY --until DAYTHH:MM: the period's 2 jobs (until excluded), hour buckets"
"$fab" report --observe "$log" --since $((T + 3 * D + 60)) --until $((T + 3 * D + 61)) --json 2>/dev/null |
	python3 -c 'import json,sys; r=json.load(sys.stdin); sys.exit(0 if r["jobs"]==1 and r["since"]==1764806460 else 1)'
ok $? "report --since/--until in seconds since 1970"
"$fab" report --observe "$log" --partition gpu,io --partition gpu >"$tmp/out" 2>/dev/null
rc=$?
[ $rc -eq 0 ] && [ "$(grep '^partition ' "$tmp/out" | tr '\n' ' ')" = "partition gpu partition io " ] &&
	has "$tmp/out" "fabsched report: 4 jobs observed from 2025-12-03T00:00:00 to 2025-12-06T00:00:00 (period: from the log's start to its end; one bucket per day)"
ok $? "report --partition LIST, repeated: those partitions only, each once"

# --- metrics
printf 'StateDir=%s/run\n' "$tmp" >"$tmp/fabsched.conf"
"$fab" metrics --no-slurm --conf "$tmp/fabsched.conf" --model "$tmp/none.json" --observe "$log" \
	>"$tmp/prom" 2>"$tmp/err"
rc=$?
r=0
for l in 'fabsched_source_up{source="observe_log"} 1' \
	'fabsched_observed_jobs{partition="mpi"} 4' 'fabsched_observed_jobs{partition="gpu"} 3' \
	'fabsched_observed_jobs{partition="io"} 1' 'fabsched_observed_fitting_jobs{partition="mpi"} 3' \
	'fabsched_observed_one_domain_got{partition="mpi"} 1' 'fabsched_observed_one_domain_got{partition="gpu"} 2' \
	'fabsched_observed_one_domain_would{partition="mpi"} 3' 'fabsched_observed_one_domain_would{partition="gpu"} 1' \
	'fabsched_observed_held_jobs{partition="gpu"} 2' 'fabsched_observed_held_jobs{partition="mpi"} 0' \
	'fabsched_observed_one_domain_got_ratio{partition="mpi"} 0.333333' \
	'fabsched_observed_one_domain_would_ratio{partition="gpu"} 1' \
	'fabsched_observed_one_domain_would_ratio{partition="io"} 0' 'fabsched_observed_bad_lines 4'; do
	has "$tmp/prom" "$l" >/dev/null || { echo "# not in the output: $l"; r=1; }
done
[ $rc -eq 0 ] && [ $r -eq 0 ]
ok $? "metrics --no-slurm --observe: the observed figures per partition, held counted as would in the ratio"
grep -q '^# HELP fabsched_observed_one_domain_would_ratio .*held jobs count as one domain' "$tmp/prom" &&
	! grep -vE '^(# (HELP|TYPE) [a-z_]+ .+|# [a-z_.]+: .+|[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9.e+-]+)$' "$tmp/prom" &&
	grep -qF "$log:5: byte 0x07" "$tmp/err"
ok $? "metrics: every line a sample, HELP/TYPE or a source comment; the bad line said on stderr"
"$fab" metrics --no-slurm --conf "$tmp/fabsched.conf" --observe "$tmp/state/none" >"$tmp/prom" 2>/dev/null
rc=$?
[ $rc -eq 0 ] && has "$tmp/prom" 'fabsched_source_up{source="observe_log"} 0' &&
	grep -qF "# observe_log: $tmp/state/none: not there (nor $tmp/state/none.1)" "$tmp/prom" &&
	! grep -q '^fabsched_observed_' "$tmp/prom"
ok $? "metrics without the log: exit 0, observe_log up 0 with a comment why, no observed figure"

# --- job, with squeue replaced by a script
mkdir "$tmp/bin"
cat >"$tmp/bin/squeue" <<'EOF'
#!/bin/sh
echo '{"jobs": [{"job_id": 103, "name": "a", "user_name": "u", "partition": "mpi", "job_state": "RUNNING", "nodes": "n[1-8]", "start_time": 1764806400},'
echo '{"job_id": 200, "name": "b", "user_name": "u", "partition": "mpi", "job_state": "RUNNING", "nodes": "n9", "start_time": 1764806400}]}'
EOF
chmod +x "$tmp/bin/squeue"
PATH=$tmp/bin:$PATH "$fab" job 103 --conf "$tmp/fabsched.conf" --observe "$log" >"$tmp/out" 2>/dev/null
rc=$?
[ $rc -eq 0 ] && has "$tmp/out" "  observed   got 4 racks (r1,r2,r3,r6) across pods; fabsched would have placed it in 1 rack (r2)"
ok $? "job: the observation beside what the job got (its last line)"
PATH=$tmp/bin:$PATH "$fab" job 103 --json --conf "$tmp/fabsched.conf" --observe "$log" 2>/dev/null |
	python3 -c 'import json,sys; o=json.load(sys.stdin)["observed"]
sys.exit(0 if (o["time"], o["level"], o["fits"], o["got"], o["would"]["kind"], o["would"]["racks"], o["why"]) ==
	(1764806400, "rack", True, {"kind": "any", "racks": ["r1", "r2", "r3", "r6"], "nracks": 4}, "rack", ["r2"],
	 "rack r2: 8 of 8 nodes free") else 1)'
ok $? "job --json: observed{time, level, fits, got, would, why}"
PATH=$tmp/bin:$PATH "$fab" job 200 --json --conf "$tmp/fabsched.conf" --observe "$log" 2>/dev/null |
	python3 -c 'import json,sys; j=json.load(sys.stdin); sys.exit(0 if "observed" in j and j["observed"] is None else 1)'
ok $? "job --json of a job without an observation: observed null"
PATH=$tmp/bin:$PATH "$fab" job 200 --conf "$tmp/fabsched.conf" --observe "$log" >"$tmp/out" 2>/dev/null
rc=$?
[ $rc -eq 0 ] && ! grep -q observed "$tmp/out"
ok $? "job of a job without an observation: no observed line"

# --- errors
"$fab" report --observe "$log" --since 2025-02-29 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -qF "fabsched report: --since '2025-02-29': not a time; expected seconds since 1970 (e.g. 1764800000) or YYYY-MM-DD[THH:MM[:SS]] in local time" "$tmp/err"
ok $? "report --since of a day that does not exist: exit 2 ($rc), the option and the accepted forms named"
r=0
for v in yesterday 2025-12-01T25:00 2025-12-01T10 " 1764800000" 2025-12-1 -5; do
	"$fab" report --observe "$log" --until "$v" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 2 ] || ! grep -qF -- "--until '$v': not a time; expected" "$tmp/err"; then
		r=1
		echo "# --until '$v': exit $rc"
	fi
done
ok $r "report --until: other bad forms refused with exit 2"
"$fab" report --observe "$log" --since 2025-12-05 --until 2025-12-04 2>"$tmp/err" >/dev/null
rc=$?
[ $rc -eq 2 ] && grep -qF -- "--since 2025-12-05 is not before --until 2025-12-04; expected a period that ends after it starts" "$tmp/err"
ok $? "report: a period that ends before it starts, exit 2 ($rc)"
"$fab" report --observe "$tmp/state/none" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] &&
	grep -qF "fabsched report: --observe $tmp/state/none: no such file (nor $tmp/state/none.1); expected the observation log" "$tmp/err"
ok $? "report --observe of a file not there: exit 1 ($rc), the file named"
"$fab" report --observe "$log" --since 2026-01-01 --html "$tmp/empty.html" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/empty.html" ] &&
	grep -qF "fabsched report: no observation from 2026-01-01T00:00:00 to its end in $log.1 and $log (8 jobs in all); nothing to report" "$tmp/err"
ok $? "report of an empty period: exit 1 ($rc), said with the period and the files, no page"
"$fab" report --observe "$log" --partition nosuch >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -qF "no observation from the log's start to its end in partition nosuch in" "$tmp/err"
ok $? "report of a partition without observations: exit 1 ($rc), the partition named"
ln -s "$log" "$tmp/link"
"$fab" report --observe "$tmp/link" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -qF "fabsched report: $tmp/link: cannot read: it is a symbolic link; expected a regular file" "$tmp/err"
ok $? "report --observe of a symbolic link: refused, exit 1 ($rc)"
# tasks of a job array: one job each, named as squeue names them
{
	rec $((T + 60)) 120_0 arr rack 2 1 pod:2:r1,r2 wait:0:- "Locality: waiting for one rack"
	rec $((T + 120)) 120_1 arr rack 2 1 pod:2:r1,r3 wait:0:- "Locality: waiting for one rack"
	rec $((T + 180)) 120_1 arr rack 2 1 pod:2:r2,r3 wait:0:- "Locality: requeued"
} >"$tmp/arr"
"$fab" report --observe "$tmp/arr" >"$tmp/out" 2>"$tmp/err"
block arr "$tmp/out" >"$tmp/a"
has "$tmp/a" "  jobs observed   2" && has "$tmp/a" "  held back       2 jobs fabsched would have kept waiting for their locality" &&
	grep -qF " job 120_1 at 2025-12-01T00:03:00: Locality: requeued" "$tmp/a" && grep -qF " job 120_0 at " "$tmp/a"
ok $? "report: the tasks of an array are jobs of their own (120_0, 120_1; 120_1 by its last line)"
exit $bad
