#!/bin/sh
# test_hostlist_slurm.sh - fabsched's exported hostlists are written as
# Slurm writes them: each set of names compressed by fst_hostlist_compress
# and by `scontrol show hostlistsorted` (the installed Slurm, with a
# throw-away slurm.conf: no daemon is asked).  Prints TAP.
prog=${FABSCHED_BUILDDIR:-.}/tests/unit/hostlist_compress
SETS='n003,n001,n002,gpu10,gpu9,x,n010
gpu-c10,gpu-c11,gpu-c12,gpu-c13,gpu-c14,gpu-c15,gpu-c16,gpu-c17,gpu-c01,gpu-c02,gpu-c03,gpu-c04,gpu-c05,gpu-c06,gpu-c07,gpu-c08,gpu-c09
n1,n5,n01,n05,n10,n100
x001,x100,x1000
a9,a10,a11,b,a
r1n1,r1n2,r2n1
n08,n09,n10,n11,n100
cn7,cn8,cn9,cn10,cn11,cn012
node0,node1,node2,node3
ib-leaf01,ib-leaf02,ib-leaf04,ib-spine1'
n=$(printf '%s\n' "$SETS" | wc -l)
echo "1..$n"
if ! command -v scontrol >/dev/null 2>&1; then
	i=0
	printf '%s\n' "$SETS" | while read -r s; do
		i=$((i + 1))
		echo "ok $i # SKIP no scontrol on this machine to compare with"
	done
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'ClusterName=hl\nSlurmctldHost=localhost\nNodeName=a\nPartitionName=p Nodes=a\n' > "$tmp/slurm.conf"
i=0
printf '%s\n' "$SETS" | while read -r s; do
	i=$((i + 1))
	want=$(SLURM_CONF=$tmp/slurm.conf scontrol show hostlistsorted "$s" 2>&1)
	got=$("$prog" "$s" 2>&1)
	if [ "$got" = "$want" ]; then
		echo "ok $i - $want"
	else
		echo "not ok $i - $s: fabsched $got, scontrol $want"
	fi
done
