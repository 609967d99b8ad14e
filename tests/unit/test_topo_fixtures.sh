#!/bin/sh
# Expected outputs kept beside the fabric dumps (TAP): for each dump named
# below (or on the command line), `fabsched topo export --all-hosts -i
# <dump>`, run in tests/fixtures/ibnetdiscover so that the header names the
# dump alone, must print exactly tests/fixtures/ibnetdiscover/<dump>.tree.
# To accept a deliberate change: run the same command there, redirected
# to <dump>.tree, and read the diff before committing it.
fab=${FABSCHED_BUILDDIR:-$(pwd)}/cli/fabsched
fx=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/ibnetdiscover
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
case $fab in /*) ;; *) fab=$(pwd)/$fab ;; esac
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }

[ $# -gt 0 ] || set -- ndr-split.ibdiagnet director.topo
echo "1..$#"
for dump in "$@"; do
	want=$fx/$dump.tree
	(cd "$fx" && "$fab" topo export --all-hosts -i "$dump") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	diff -u "$want" "$tmp/out" >"$tmp/diff"
	[ $rc -eq 0 ] && [ ! -s "$tmp/diff" ]
	same=$?
	ok $same "$dump: export --all-hosts is $dump.tree (exit $rc)"
	[ $same -eq 0 ] || sed 's/^/# /' "$tmp/err" "$tmp/diff"
done
exit $bad
