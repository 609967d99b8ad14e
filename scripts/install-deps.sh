#!/bin/sh
# Install every build and test dependency of fabsched from Debian packages.
# Idempotent: packages already present are left alone; apt-get update runs
# only when something is missing.
set -eu

PKGS="build-essential autoconf automake libtool pkg-config dpkg-dev
 slurm-wlm slurmctld slurmd slurm-client libslurm-dev munge libmunge-dev
 hwloc libhwloc-dev libnvme-dev nvme-cli libpmix-dev
 openmpi-bin libopenmpi-dev
 ibsim-utils infiniband-diags opensm libibnetdisc-dev libibumad-dev libibmad-dev libibverbs-dev
 python3-prometheus-client chromium python3-pil
 libcmocka-dev libjson-c-dev zlib1g-dev iproute2 util-linux psmisc procps lldpd snmpd snmp
 debhelper lintian rpm rpmlint systemd shellcheck clang-format
 mariadb-server slurmdbd libmariadb-dev libmariadb-dev-compat"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "install-deps: all packages present"
	exit 0
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# Packaged daemons (munge, slurmctld, slurmd) must not start on install: the
# test cluster starts its own.
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
	chmod 755 /usr/sbin/policy-rc.d
	trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
"$(dirname "$0")/apt-get-locked" update -q
# shellcheck disable=SC2086
"$(dirname "$0")/apt-get-locked" install -y -q --no-install-recommends $missing
