#!/bin/sh
# bench_watch.sh FABSCHED DUMP: one `fabsched topo watch --once` cycle on a
# recorded dump (e.g. gen_fattree's 20,000-HCA fat tree): the first model
# written, a cycle with nothing changed (diff only), a cycle with one link
# changed (diff and write).  Wall time and peak RSS of each, as printed by
# /usr/bin/time.  Figures, not a pass/fail test.
set -eu
fab=$1 dump=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# the same fabric with the first link of the dump at 1x instead of 4x
sed '0,/\] *"[SH]-[0-9a-f]*"\[[0-9]*\].*4x/s//&/; 0,/ 4x\([A-Z]\)/s// 1x\1/' "$dump" > "$dir/changed"
run() {	# run LABEL INPUT
	/usr/bin/time -f "%e %M" -o "$dir/t" "$fab" topo watch --once --no-drain --all-hosts \
		-i "$2" -o "$dir/model.json" > "$dir/log" 2>&1 || { cat "$dir/log"; exit 1; }
	read -r s kib < "$dir/t"
	printf '%-38s %6.2f s %8.1f MiB   %s\n' "$1" "$s" "$(echo "$kib / 1024" | bc -l)" \
		"$(grep -c 'fabsched topo watch: ' "$dir/log") log line(s)"
}
echo "watch cycle on $dump ($(grep -c '^Ca\|^Hca' "$dump") HCAs, $(grep -c '^Switch' "$dump") switches)"
run "first model (parse, classify, write)" "$dump"
run "nothing changed (diff only)" "$dump"
run "one link 4x -> 1x (diff and write)" "$dir/changed"
grep ' -> 1x' "$dir/log" | sed 's/^[^ ]* /  change: /'
ls -l "$dir/model.json" | awk '{ printf "model: %.1f MiB of JSON\n", $5 / 1048576 }'
