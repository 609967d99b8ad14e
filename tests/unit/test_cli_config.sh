#!/bin/sh
# fabsched config show|check on good and broken files (TAP).
fab=${FABSCHED_BUILDDIR:-.}/cli/fabsched
fx=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/conf
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
echo "1..7"

"$fab" config check -f "$fx/full.conf" >"$tmp/out" 2>"$tmp/err"
ok $? "check: a good file exits 0"
[ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]
ok $? "check: a good file prints nothing"

"$fab" config show -f "$fx/full.conf" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^FabricModel=' "$tmp/out"
ok $? "show: prints the configuration in effect"

(cd "$fx" && "$fab" config check -f errors.conf) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ]
ok $? "check: a broken file exits 1"
diff "$fx/errors.expected" "$tmp/err" >"$tmp/diff"
ok $? "check: every error with file:line, as expected" || sed 's/^/# /' "$tmp/diff"

"$fab" config check -f "$tmp/missing.conf" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "missing.conf" "$tmp/err"
ok $? "check: a missing file named on the command line is an error naming it"

"$fab" config frobnicate >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "usage error exits 2"
exit $bad
