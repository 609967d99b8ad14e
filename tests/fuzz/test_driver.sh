#!/bin/sh
# The fuzz smoke driver (tests/fuzz/driver.c) itself: an input that runs
# longer than FUZZ_HANG seconds fails the run at once, names the input
# and saves it, instead of holding make check until CI's time runs out
# (TAP).
b=${FABSCHED_BUILDDIR:-.}/tests/fuzz/fuzz_selftest
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
echo "1..3"
mkdir "$tmp/corpus"
printf 'ok' > "$tmp/corpus/a-ok"
printf 'sleep, a hang' > "$tmp/corpus/b-hang"
cd "$tmp" || exit 1
t0=$(date +%s)
FUZZ_HANG=1 FUZZ_COUNT=0 timeout 25 "$b" "$tmp/corpus" > out 2>&1
rc=$?
t=$(($(date +%s) - t0))
[ "$rc" -eq 1 ] && [ "$t" -lt 20 ]
ok $? "a hanging input ends the run with status 1 after FUZZ_HANG=1 s (status $rc, $t s)"
grep -q "^Bail out! .*ran longer than FUZZ_HANG seconds (a hang): corpus input $tmp/corpus/b-hang; it is in fuzz-selftest-hang-input" out
ok $? "the run says so, naming the input: $(grep 'Bail out' out)"
[ "$(cat fuzz-selftest-hang-input 2>/dev/null)" = "sleep, a hang" ]
ok $? "the input is saved in fuzz-selftest-hang-input"
exit $bad
