#!/bin/bash
# t-scratch.sh - the scratch pool and the submit-time checks in a real Slurm
# cluster: fabsched.so (plugstack.conf) gives sbatch --scratch, and
# job_submit/fabsched (JobSubmitPlugins=fabsched) charges it to the pool
# declared as Licenses=scratch:100 (GiB) in slurm.conf.  A bad value is
# refused with its message; a good one gets Licenses=scratch:<GiB x nodes>;
# a job over the pool's free licenses pends (Reason=Licenses) until the
# licenses come back; a hugepages request no node of the partition holds is
# refused with the largest capacity.  The NVMe-oF volume itself is not set
# up here (this kernel has no NVMe-oF; see test_prolog_scratch for the
# prolog's scratch path through its seam): no Prolog is configured.
# Asks sbatch, scontrol and squeue.  Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"

cl_require
cl_require_build plugins/job_submit/fabsched/.libs/job_submit_fabsched.so \
	plugins/spank/.libs/fabsched.so plugins/gres/.libs/gres_hugepages.so
JS=$FABSCHED_BUILDDIR/plugins/job_submit/fabsched/.libs/job_submit_fabsched.so
SP=$FABSCHED_BUILDDIR/plugins/spank/.libs/fabsched.so
tap_plan 12
TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
STAGE=${FABSCHED_SCRATCH_TEST_DIR:-/var/lib/fabsched-test/scratch-${FABSCHED_CLUSTER_CTLD_PORT:-16817}}

rm -rf "$STAGE" && mkdir -p "$STAGE/plugins" "$STAGE/bin" || tap_bail "cannot write $STAGE"
cp "$JS" "$SP" "$FABSCHED_BUILDDIR"/plugins/gres/.libs/gres_hugepages.so "$STAGE/plugins/"
printf 'required %s/fabsched.so\n' "$STAGE/plugins" > "$STAGE/plugstack.conf"
printf 'JobSubmitPlugins=fabsched\nLicenses=scratch:100\n' > "$STAGE/extra.conf"
cat > "$STAGE/nodes" <<EOF
n001 sockets=1 cores=2 threads=1 gres=hugepages:2m:128 memory=1000
n002 sockets=1 cores=2 threads=1 gres=hugepages:2m:128 memory=1000
EOF
printf '#!/bin/sh\nsleep "${1:-1}"\n' > "$STAGE/bin/job.sh"
chmod -R a+rX "$STAGE"
chmod 0755 "$STAGE/bin/job.sh"

# 1
cl_up --nodes-file "$STAGE/nodes" --plugin-dir "$STAGE/plugins" \
	--gres-types hugepages --extra-conf "$STAGE/extra.conf" \
	--plugstack "$STAGE/plugstack.conf"
tap_ok $? "cluster up: 2 nodes, JobSubmitPlugins=fabsched, Licenses=scratch:100, fabsched.so" ||
	tap_bail "the cluster did not come up"

submit() {	# submit ARGS...: sbatch as the test user; stdout+stderr, rc
	local dir
	dir=$(cl_jobdir "$TUSER")
	(cd "$dir" && runuser -u "$TUSER" -- timeout 30 sbatch --parsable -o /dev/null "$@" 2>&1)
}

# 2: sbatch itself (SPANK, allocator side) refuses a bad value
out=$(submit -N1 -t 2 --scratch=abc "$STAGE/bin/job.sh")
rc=$?
tap_diag "$out"
tap_ok "[ $rc -ne 0 ] && grep -qF -- '--scratch=abc: \"abc\" is not a size; expected SIZE[,fs=xfs|ext4]' <<<'$out'" \
	"sbatch --scratch=abc refused by fabsched.so with the accepted form"

# 3: an absurd size
out=$(submit -N1 -t 2 --scratch=5000T "$STAGE/bin/job.sh")
rc=$?
tap_diag "$out"
tap_ok "[ $rc -ne 0 ] && grep -qF -- 'more than 1048576 GiB (1 PiB) per node' <<<'$out'" \
	"sbatch --scratch=5000T refused: more than 1 PiB per node"

# 4: refused by the controller (job_submit/fabsched): more than the pool
out=$(submit -N2 -t 2 --scratch=60G "$STAGE/bin/job.sh")
rc=$?
tap_diag "$out"
tap_ok "[ $rc -ne 0 ] && grep -qF -- '--scratch=60G,fs=xfs on 2 node(s): 120 GiB in all, more than the whole scratch pool (100 GiB)' <<<'$out'" \
	"sbatch -N2 --scratch=60G refused by job_submit/fabsched: 120 GiB, more than the pool"

# 5: the controller refuses a user's own scratch license next to --scratch
out=$(submit -N1 -t 2 -L scratch:1 --scratch=10G "$STAGE/bin/job.sh")
rc=$?
tap_diag "$out"
tap_ok "[ $rc -ne 0 ] && grep -qF -- 'names the \"scratch\" license, which --scratch sets' <<<'$out'" \
	"sbatch -L scratch:1 --scratch=10G refused with the reason"

# 6-7: a good value: the license is added, GiB x nodes, merged with the user's
out=$(submit -N2 -t 2 --scratch=10G,fs=ext4 -H "$STAGE/bin/job.sh")
rc=$?
id=${out%%;*}
tap_ok "[ $rc -eq 0 ] && [ -n '$id' ]" "sbatch -N2 --scratch=10G,fs=ext4 accepted (job $id)"
lic=$(cl_job_field "$id" Licenses)
tap_ok "[ '$lic' = scratch:20 ]" "job $id: Licenses=scratch:20 (10 GiB x 2 nodes), got '$lic'"
scancel "$id" 2>/dev/null

# 8: the node count is capped at what was charged
out=$(submit -N1 -t 2 --scratch=10G -H "$STAGE/bin/job.sh")
id=${out%%;*}
nodes=$(cl_job_field "$id" NumNodes)
tap_ok "[ '$nodes' = 1 ] || [ '$nodes' = 1-1 ]" "job $id -N1 --scratch=10G: NumNodes=$nodes (capped at the 1 node charged)"
scancel "$id" 2>/dev/null

# 9-11: the pool is never over-committed: 60 + 60 > 100, the second pends
out=$(submit -N1 -t 2 --scratch=60G "$STAGE/bin/job.sh" 60)
a=${out%%;*}
out=$(submit -N1 -t 2 --scratch=60G "$STAGE/bin/job.sh" 1)
b=${out%%;*}
cl_poll 30 cl_job_in "$a" RUNNING
sleep 2
tap_ok "[ '$(cl_job_field "$a" JobState)' = RUNNING ]" "job $a (scratch:60) RUNNING"
st=$(cl_job_field "$b" JobState) reason=$(cl_job_field "$b" Reason)
tap_diag "job $b: $st $reason; licenses: $(scontrol -o show lic scratch 2>/dev/null)"
tap_ok "[ '$st' = PENDING ] && [ '$reason' = Licenses ]" \
	"job $b (scratch:60) PENDING Reason=Licenses while $a holds 60 of 100 GiB (a free node exists)"
scancel "$a"
cl_wait_job "$b" 90
tap_ok $? "job $b ran and COMPLETED once $a gave its licenses back"

# 12: hugepages larger than any node of the partition: a clear message
out=$(submit -N1 -t 2 --gres=hugepages:2m:100000 "$STAGE/bin/job.sh")
rc=$?
tap_diag "$out"
tap_ok "[ $rc -ne 0 ] && grep -qF -- '--gres=hugepages:2m:100000: more hugepages per node than any node of partition' <<<'$out' && grep -qF -- 'the largest hold 128 pages of 2m (node n001)' <<<'$out'" \
	"sbatch --gres=hugepages:2m:100000 refused with the request and the largest node capacity"

cl_down >/dev/null 2>&1
exit 0
