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
	*.sh) echo "$f"; continue ;;
	*.c | *.h | *.md | *.[158] | *.json | *.svg | *.csv | *.py | *.gz | *.xml) continue ;;
	esac
	head -n 1 "$f" 2>/dev/null | grep -Eq '^#!(/usr)?/bin/(env )?(ba)?sh' && echo "$f"
done > "$tmp/list"
# the bash completion has no shebang: it says its shell in a directive
[ -f completion/fabsched ] && echo ./completion/fabsched >> "$tmp/list"
echo "1..$(wc -l < "$tmp/list")"
n=0 bad=0
while read -r f; do
	n=$((n + 1))
	if shellcheck -x -S warning "$f" > "$tmp/out" 2>&1; then
		echo "ok $n - shellcheck $f"
	else
		echo "not ok $n - shellcheck $f"
		sed 's/^/# /' "$tmp/out" | head -n 40
		bad=1
	fi
done < "$tmp/list"
exit $bad
