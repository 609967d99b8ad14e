#!/bin/sh
# fabsched config show|check on good and broken files (TAP).
fab=${FABSCHED_BUILDDIR:-.}/cli/fabsched
fx=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/conf
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
echo "1..9"

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

# a base directory the helpers would refuse: named with its setting
mkdir -p "$tmp/shared" "$tmp/own" && chmod 1777 "$tmp/shared" && chmod 0755 "$tmp/own"
printf 'HugepageMountBase=%s/shared\nStateDir=%s/own\n' "$tmp" "$tmp" > "$tmp/bases.conf"
"$fab" config check -f "$tmp/bases.conf" 2>"$tmp/err"
rc=$?
if [ "$(id -u)" = 0 ]; then
	[ $rc -eq 1 ] && grep -q "HugepageMountBase=$tmp/shared: writable by group or others (mode 1777, a shared directory): the node helpers refuse it" "$tmp/err" &&
		! grep -q StateDir "$tmp/err"
	ok $? "check: a shared (1777) HugepageMountBase is an error naming the setting; a root-owned 0755 StateDir is fine"
else
	[ $rc -eq 1 ] && grep -q "not owned by root" "$tmp/err"
	ok $? "check: (not root) a base not owned by root is an error naming the setting"
fi
printf 'HugepageMountBase=%s/missing\n' "$tmp" > "$tmp/bases.conf"
"$fab" config check -f "$tmp/bases.conf" 2>"$tmp/err"
ok $? "check: a base that does not exist yet is fine (the helpers make it)"

"$fab" config frobnicate >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "usage error exits 2"
exit $bad
