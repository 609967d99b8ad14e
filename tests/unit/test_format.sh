#!/bin/sh
# test_format.sh — every C file of the tree is as clang-format leaves it
# under the tree's .clang-format (TAP, one line per file).  The format is
# that of clang-format 14 (Debian 12's); another major version formats
# some lines otherwise, so it says SKIP with the version it found.  To
# format a file: clang-format -i FILE.
top=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
	echo "1..0 # SKIP clang-format not installed (scripts/install-deps.sh installs it)"
	exit 0
fi
v=$("$cf" --version | sed -n 's/.*clang-format version \([0-9]*\).*/\1/p')
if [ "$v" != 14 ]; then
	echo "1..0 # SKIP clang-format ${v:-of unknown version}: the format is clang-format 14's"
	exit 0
fi
cd "$top" || exit 1
[ -f .clang-format ] || { echo "1..1"; echo "not ok 1 - $top/.clang-format missing"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
find . \( -path ./.git -o -path './build*' -o -path ./autom4te.cache -o \
	-path './fabsched-[0-9]*' -o -name '_build' -o -name '_inst' \) -prune -o \
	-type f \( -name '*.c' -o -name '*.h' \) -print | sort >"$tmp/list"
echo "1..$(wc -l <"$tmp/list")"
# one clang-format per file, as many at once as there are CPUs; the
# results in the list's order
awk '{ printf "%d\0%s\0", NR, $0 }' "$tmp/list" |
	CF=$cf xargs -0 -n 2 -P "$(nproc 2>/dev/null || echo 2)" sh -c \
		'"$CF" --style=file "$2" | diff -u "$2" - > "$0/$1.diff"; echo $? > "$0/$1.rc"' "$tmp"
n=0 bad=0
while read -r f; do
	n=$((n + 1))
	if [ "$(cat "$tmp/$n.rc" 2>/dev/null)" = 0 ]; then
		echo "ok $n - $f"
	else
		echo "not ok $n - $f: clang-format -i $f"
		head -n 20 "$tmp/$n.diff" 2>/dev/null | sed 's/^/# /'
		bad=1
	fi
done <"$tmp/list"
exit $bad
