#!/bin/sh
# test_shellcheck.sh — every shell script of the tree passes shellcheck at
# its warning level (errors and warnings; style notes are not counted),
# sourced files followed: the scripts, the tests, the cluster harness, the
# bash completion and the Debian maintainer scripts.  One TAP line per
# script.  A deliberate exception is a `# shellcheck disable=SCnnnn`
# directive with its reason, on the line it concerns.
top=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! command -v shellcheck >/dev/null 2>&1; then
	echo "1..0 # SKIP shellcheck not installed (scripts/install-deps.sh installs it)"
	exit 0
fi
cd "$top" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# the tree's shell scripts: *.sh, and files whose first line runs sh or
# bash (generated autotools scripts and build directories left out)
find . \( -path ./.git -o -path './build*' -o -path ./autom4te.cache -o \
	-path './fabsched-[0-9]*' -o -name '_build' -o -name '_inst' \) -prune -o \
	-type f -print | sort | while read -r f; do
	case $f in
	./configure | ./config.status | ./libtool | */Makefile*) continue ;;
	*.sh) echo "$f" >> "$tmp/list" ;;
	*.c | *.h | *.md | *.[158] | *.json | *.svg | *.csv | *.py | *.gz | *.xml) ;;
	*) echo "$f" >> "$tmp/other" ;;
	esac
done
# the others' first lines, read by one awk (thousands of corpus files)
: >> "$tmp/list"
if [ -s "$tmp/other" ]; then
	tr '\n' '\0' < "$tmp/other" | xargs -0 awk 'FNR == 1 { if ($0 ~ /^#!(\/usr)?\/bin\/(env )?(ba)?sh/) print FILENAME; nextfile }' >> "$tmp/list"
	sort -o "$tmp/list" "$tmp/list"
fi
# the bash completion has no shebang: it says its shell in a directive
[ -f completion/fabsched ] && echo ./completion/fabsched >> "$tmp/list"
echo "1..$(wc -l < "$tmp/list")"
# one shellcheck per script, as many at once as there are CPUs; the
# results in the list's order
awk '{ printf "%d\0%s\0", NR, $0 }' "$tmp/list" |
	xargs -0 -n 2 -P "$(nproc 2>/dev/null || echo 2)" sh -c \
		'shellcheck -x -S warning "$2" > "$0/$1.out" 2>&1; echo $? > "$0/$1.rc"' "$tmp"
n=0 bad=0
while read -r f; do
	n=$((n + 1))
	if [ "$(cat "$tmp/$n.rc" 2>/dev/null)" = 0 ]; then
		echo "ok $n - shellcheck $f"
	else
		echo "not ok $n - shellcheck $f"
		sed 's/^/# /' "$tmp/$n.out" 2>/dev/null | head -n 40
		bad=1
	fi
done < "$tmp/list"
exit $bad
