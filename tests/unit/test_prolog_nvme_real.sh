#!/bin/bash
# test_prolog_nvme_real.sh - fabsched-prolog's scratch path with the real
# NVMe-oF operations (libnvme, mkfs, mount; no fake).  Root only.
#  1-3  always: a job with a scratch volume on a node whose kernel cannot
#       reach the pool fails in the prolog with the kernel's reason, and
#       leaves no ledger, no directory and no mount behind.
#  or, only with /dev/nvme-fabrics and a target with namespace management
#       named by FABSCHED_TEST_NVME_TRADDR and FABSCHED_TEST_NVME_NQN
#       (transport FABSCHED_TEST_NVME_TRANSPORT, default tcp): the whole
#       set-up and give-back for real.  Otherwise reported as SKIP with the
#       reason (this machine's kernel has no NVMe-oF).
# Prints TAP.
B=${FABSCHED_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
PROLOG=$B/prolog/fabsched-prolog
EPILOG=$B/prolog/fabsched-epilog

if [ "$(id -u)" != 0 ]; then echo "1..0 # SKIP not root: the scratch path creates root-owned directories and mounts"; exit 0; fi
if [ ! -x "$PROLOG" ] || [ ! -x "$EPILOG" ]; then echo "1..0 # SKIP $PROLOG not built"; exit 0; fi
T=$(mktemp -d /var/tmp/fs-nvme-real.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
N=0 FAILED=0
ok() { N=$((N + 1)); if eval "$1"; then echo "ok $N - $2"; else echo "not ok $N - $2"; FAILED=$((FAILED + 1)); fi; }

real=0
if [ -e /dev/nvme-fabrics ] && [ -n "${FABSCHED_TEST_NVME_TRADDR:-}" ] && [ -n "${FABSCHED_TEST_NVME_NQN:-}" ]; then
	real=1
fi
echo "1..5"

mkdir -p "$T/etc"
echo "nqn.2014-08.org.nvmexpress:uuid:0b5e0f8e-1d1c-4c59-9a7f-3c2f2d5e6a7b" > "$T/etc/hostnqn"
echo "0b5e0f8e-1d1c-4c59-9a7f-3c2f2d5e6a7b" > "$T/etc/hostid"
cat > "$T/fabsched.conf" <<EOF
StateDir=$T/state
ScratchBase=$T/scratch
ScratchTraddr=${FABSCHED_TEST_NVME_TRADDR:-127.0.0.1}
ScratchTransport=${FABSCHED_TEST_NVME_TRANSPORT:-tcp}
ScratchSubsysNQN=${FABSCHED_TEST_NVME_NQN:-nqn.2014-08.org.example:fabsched-test}
ScratchHostNQNFile=$T/etc/hostnqn
ScratchHostIDFile=$T/etc/hostid
EOF

run() {	# run PROG JOBID: the prolog/epilog environment of a small job
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin FABSCHED_NO_DRAIN=1 \
		SLURM_JOB_ID="$2" SLURM_JOB_UID=65534 SLURM_JOB_GID=65534 \
		SPANK_FABSCHED_SCRATCH=1G,fs=xfs "$1" -f "$T/fabsched.conf" 2>&1
}

if [ $real -eq 0 ]; then
	out=$(run "$PROLOG" 9001); rc=$?
	echo "# $out"
	if [ -e /dev/nvme-fabrics ]; then
		# a kernel with NVMe-oF but no test target: the connect itself fails
		ok "[ $rc -eq 1 ] && grep -q 'NVMe-oF connect to tcp 127.0.0.1:4420' <<<\"\$out\"" \
			"prolog fails: the connect to the (absent) target fails, with the address"
	else
		ok "[ $rc -eq 1 ] && grep -q '/dev/nvme-fabrics: No such file or directory: this kernel has no NVMe-oF host (modprobe nvme-tcp)' <<<\"\$out\"" \
			"prolog fails with the kernel's reason: no /dev/nvme-fabrics"
	fi
	ok "[ -z \"\$(ls -A $T/state/jobs 2>/dev/null)\" ]" "no ledger left behind"
	ok "[ ! -e $T/scratch/9001 ]" "no per-job directory left behind"
	ok "! awk '{print \$5}' /proc/self/mountinfo | grep -q '^$T/'" "no mount left behind"
	if [ ! -e /dev/nvme-fabrics ]; then
		echo "ok 5 # SKIP the real set-up and give-back: /dev/nvme-fabrics is missing (this kernel has no NVMe-oF host: nvme-tcp/nvme-rdma)"
	else
		echo "ok 5 # SKIP the real set-up and give-back: FABSCHED_TEST_NVME_TRADDR and FABSCHED_TEST_NVME_NQN name no target with namespace management"
	fi
	exit $((FAILED ? 1 : 0))
fi

# --- a real target
out=$(run "$PROLOG" 9002); rc=$?
echo "# $out"
ok "[ $rc -eq 0 ]" "prolog: a 1 GiB xfs scratch volume set up"
ok "awk '{print \$5, \$9}' /proc/self/mountinfo | grep -q '^$T/scratch/9002 xfs\$'" "mounted at $T/scratch/9002 (xfs)"
ok "[ \"\$(stat -c '%u %a' $T/scratch/9002)\" = '65534 700' ]" "its root belongs to the job's user, mode 0700"
out=$(run "$EPILOG" 9002); rc=$?
echo "# $out"
ok "[ $rc -eq 0 ] && [ ! -e $T/scratch/9002 ] && [ -z \"\$(ls -A $T/state/jobs)\" ]" \
	"epilog: unmounted, discarded, deleted, disconnected; no ledger left"
ok "! awk '{print \$5}' /proc/self/mountinfo | grep -q '^$T/'" "no mount left behind"
exit $((FAILED ? 1 : 0))
