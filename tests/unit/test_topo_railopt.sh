#!/bin/sh
# test_topo_railopt.sh — racks of a rail-optimized fabric (TAP): each host
# of tests/fixtures/ibnetdiscover/railopt-3su.topo has one HCA on each of
# its scalable unit's 4 rail leaves.  Its rack is the leaf of its first
# HCA by name (mlx5_0: rail 0), or of --compute-hca's, whatever the order
# of the records in the dump (a rediscovery from another host lists them
# in another order and must name the same racks; the order of the lines
# still follows the records).
set -u
fab=${FABSCHED_BUILDDIR:-$(pwd)}/cli/fabsched
fx=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/ibnetdiscover
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
# the racks (leaves with nodes), sorted: the order of the lines follows the
# order of the dump's records, their contents must not
racks() { grep -o '^SwitchName=[^ ]* Nodes=[^ ]*' "$1" | sort | tr '\n' ' '; }

echo "1..5"
# the same dump, its records (blank-line separated) in reverse order
awk 'BEGIN { RS = ""; ORS = "\n\n" } { r[NR] = $0 } END { for (i = NR; i > 0; i--) print r[i] }' \
	"$fx/railopt-3su.topo" >"$tmp/reversed.topo"
cmp -s "$fx/railopt-3su.topo" "$tmp/reversed.topo"
[ $? -ne 0 ] && grep -c '^Switch' "$tmp/reversed.topo" | grep -qx 20
ok $? "the reversed dump differs and keeps its 20 switches"

"$fab" topo export --all-hosts -i "$fx/railopt-3su.topo" >"$tmp/fwd" 2>/dev/null &&
	"$fab" topo export --all-hosts -i "$tmp/reversed.topo" >"$tmp/rev" 2>/dev/null
ok $? "both exports succeed"

want="SwitchName=su1-leaf-r0 Nodes=gpu-su1-[001-004] SwitchName=su2-leaf-r0 Nodes=gpu-su2-[001-004] SwitchName=su3-leaf-r0 Nodes=gpu-su3-[001-004] "
[ "$(racks "$tmp/fwd")" = "$want" ] && [ "$(racks "$tmp/rev")" = "$want" ]
rc=$?
ok $rc "rail 0 (mlx5_0) makes the racks in either order"
[ $rc -eq 0 ] || { racks "$tmp/fwd"; echo; racks "$tmp/rev"; echo; } | sed 's/^/# /'

"$fab" topo export --all-hosts --compute-hca mlx5_2 -i "$fx/railopt-3su.topo" >"$tmp/fwd2" 2>/dev/null &&
	"$fab" topo export --all-hosts --compute-hca mlx5_2 -i "$tmp/reversed.topo" >"$tmp/rev2" 2>/dev/null
want2=$(echo "$want" | sed 's/-r0/-r2/g')
[ "$(racks "$tmp/fwd2")" = "$want2" ] && [ "$(racks "$tmp/rev2")" = "$want2" ]
rc=$?
ok $rc "--compute-hca mlx5_2: rail 2's leaves make the racks in either order"
[ $rc -eq 0 ] || { racks "$tmp/fwd2"; echo; racks "$tmp/rev2"; echo; } | sed 's/^/# /'

# nor do the other lines (spines, cores): the same lines in either order
sed 1d "$tmp/fwd" | sort >"$tmp/a"
sed 1d "$tmp/rev" | sort >"$tmp/b"
diff -u "$tmp/a" "$tmp/b" >"$tmp/d"
ok $? "the whole export but its header has the same lines in either order"
sed 's/^/# /' "$tmp/d" | head -20
exit $bad
