#!/bin/sh
# test_doc_links.sh — every relative link of the Markdown documents
# (README.md, SECURITY.md, doc/*.md) names a file of the tree, and every
# #anchor a heading of that file (GitHub's form: lower case, blanks as
# '-', punctuation dropped).  TAP, one test per document.
set -u
top=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
docs="README.md SECURITY.md examples/README.md $(cd "$top" && ls doc/*.md)"
echo "1..$(echo $docs | wc -w)"
n=0 bad=0
anchors() {	# the anchors of file $1's headings
	sed -n 's/^#\{1,6\} \(.*\)$/\1/p' "$1" |
		tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}
for d in $docs; do
	n=$((n + 1))
	dir=$(dirname "$top/$d")
	miss=""
	# [text](target) with a relative target; an address with a scheme is not checked
	for t in $(grep -o '\]([^)]*)' "$top/$d" | sed 's/^](\(.*\))$/\1/' | grep -v '^[a-z]*:'); do
		f=${t%%#*} a=
		case $t in *'#'*) a=${t#*#} ;; esac
		[ -n "$f" ] && p=$dir/$f || p=$top/$d
		if [ ! -e "$p" ]; then
			miss="$miss $t"
		elif [ -n "$a" ] && ! anchors "$p" | grep -qx "$a"; then
			miss="$miss $t(no heading)"
		fi
	done
	if [ -z "$miss" ]; then
		echo "ok $n - $d: every relative link resolves"
	else
		echo "not ok $n - $d: links that resolve to nothing:$miss"
		bad=1
	fi
done
exit $bad
