#!/bin/bash
# t-debian13.sh - fabsched's Debian packages on Debian 13 (trixie), against
# Debian 13's own Slurm (slurm-wlm 24.11).  A trixie chroot is made with
# debootstrap from Debian's archive and cached ($FABSCHED_CACHE, default
# /var/cache/fabsched: debian13-trixie); in it, from a copy of this tree:
# dpkg-buildpackage -b (the Slurm source from scripts/slurm-source.sh, as on
# Debian 12), lintian, dpkg -i; then Debian 13's munged, slurmctld and slurmd
# run the installed files: every plugin loads and a job runs in its node's
# rack of the fabric model.  One node only: Debian's slurmd is built without
# multiple-slurmd, and the chroot shares this machine's network.  Then the
# packages are purged.  Not in scripts/check.sh (`make check-debian13`; a
# first run fetches and installs about 1 GB).  Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP needs root (debootstrap, chroot, mounts)"
	exit 0
fi
cl_require_cmd debootstrap debootstrap
MIRROR=${FABSCHED_DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=${FABSCHED_CACHE:-/var/cache/fabsched}
CH=$CACHE/debian13-trixie
PORT_CTLD=${FABSCHED_D13_PORT:-6957}	# apart from the test clusters' ports
tap_plan 9

in_ch() { chroot "$CH" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
MOUNTED=""
umount_all() {
	local m
	for m in $MOUNTED; do umount -l "$m" 2>/dev/null; done
	MOUNTED=""
}
stop_daemons() {
	local f
	for f in "$CH"/run/fabsched-d13/*.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	sleep 1
	for f in "$CH"/run/fabsched-d13/*.pid; do
		[ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
		rm -f "$f"
	done
}
trap 'stop_daemons; umount_all' EXIT

# 1: the chroot (debootstrap once; then only what is missing is installed)
t0=$(date +%s)
if [ ! -x "$CH/usr/bin/apt-get" ]; then
	rm -rf "$CH.tmp"
	debootstrap --variant=minbase trixie "$CH.tmp" "$MIRROR" >"$CACHE/debian13-debootstrap.log" 2>&1 &&
		mv "$CH.tmp" "$CH" || tap_diag "$(tail -n 20 "$CACHE/debian13-debootstrap.log")"
fi
[ -x "$CH/usr/bin/apt-get" ] || tap_bail "debootstrap trixie from $MIRROR failed ($CACHE/debian13-debootstrap.log)"
for m in proc sys dev dev/pts; do
	mkdir -p "$CH/$m"
	case $m in
	proc) mount -t proc proc "$CH/proc" ;;
	*) mount --bind "/$m" "$CH/$m" ;;
	esac && MOUNTED="$CH/$m $MOUNTED"
done
cp /etc/resolv.conf "$CH/etc/resolv.conf" 2>/dev/null
printf '127.0.0.1 localhost %s d13n1\n' "$(hostname -s)" > "$CH/etc/hosts"
rm -f "$CH/etc/apt/sources.list"
cat > "$CH/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: trixie trixie-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
# nothing a package installs starts on its own
printf '#!/bin/sh\nexit 101\n' > "$CH/usr/sbin/policy-rc.d" && chmod 755 "$CH/usr/sbin/policy-rc.d"
PKGS="build-essential debhelper autoconf automake libtool pkgconf systemd-dev dpkg-dev lintian
 libslurm-dev libmunge-dev libhwloc-dev libnvme-dev libpmix-dev libibnetdisc-dev libibumad-dev
 libibmad-dev libibverbs-dev libjson-c-dev libcmocka-dev zlib1g-dev
 slurm-wlm slurmctld slurmd slurm-client munge procps"
# shellcheck disable=SC2086
if ! in_ch dpkg-query -W $PKGS >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	{ in_ch apt-get update -q && in_ch env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends $PKGS; } >"$CACHE/debian13-apt.log" 2>&1 ||
		tap_diag "$(tail -n 20 "$CACHE/debian13-apt.log")"
fi
slurmver=$(in_ch dpkg-query -W -f='${Version}' slurm-wlm 2>/dev/null)
osver=$(cat "$CH/etc/debian_version" 2>/dev/null)
tap_ok "[ -n '$slurmver' ] && [ '${slurmver%%.*}' = 24 ] && [ '${osver%%.*}' = 13 ]" \
	"Debian ${osver:-?} chroot in $CH with Debian's slurm-wlm ${slurmver:-none} ($(($(date +%s) - t0)) s)" ||
	tap_bail "no Debian 13 chroot with slurm-wlm 24.11 ($CACHE/debian13-apt.log)"

# 2: the packages, built in the chroot from a copy of this tree
W=/build
rm -rf "${CH:?}$W" && mkdir -p "$CH$W/src"
tar -C "$SRC" --exclude=./build --exclude='./build-slurm-*' --exclude=./.git \
	--exclude=./autom4te.cache --exclude='./fabsched-[0-9]*' -cf - . | tar -C "$CH$W/src" -xf -
t0=$(date +%s)
in_ch sh -c "cd $W/src && DEB_BUILD_OPTIONS='nocheck parallel=$(nproc)' dpkg-buildpackage -b -uc -us" \
	>"$CH$W/build.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tap_diag "$(tail -n 30 "$CH$W/build.log")"
helpers=$(cd "$CH$W" && ls fabsched_*.deb 2>/dev/null)
plugins=$(cd "$CH$W" && ls fabsched-slurm-plugins_*.deb 2>/dev/null)
pver=$(in_ch dpkg-deb -f "$W/$plugins" Version 2>/dev/null)
sos=$(in_ch dpkg-deb -c "$W/$plugins" 2>/dev/null | grep -o '[a-z_]*\.so$' | sort | tr '\n' ' ')
dep=$(in_ch dpkg-deb -f "$W/$plugins" Depends 2>/dev/null)
up=${slurmver%%-*}
tap_diag "fabsched-slurm-plugins Depends: $dep"
tap_ok "[ $rc -eq 0 ] && [ -n '$helpers' ] && [ '$sos' = 'fabsched.so gres_hugepages.so gres_rdma.so job_submit_fabsched.so topology_fabric.so ' ] && [ '${pver##*+slurm}' = '$up' ] && grep -qF 'slurm-wlm-basic-plugins (>= $up), slurm-wlm-basic-plugins (<< $up.0~)' <<<'$dep'" \
	"dpkg-buildpackage -b on Debian 13 in $(($(date +%s) - t0)) s: fabsched-slurm-plugins $pver (${sos:-no plugin}), pinned to slurm-wlm-basic-plugins $up"

# 3: lintian of Debian 13
in_ch sh -c "lintian $W/fabsched_*.changes" >"$CH$W/lintian.txt" 2>&1
tap_diag "lintian $(in_ch dpkg-query -W -f='${Version}' lintian): $(grep -v 'root privileges' "$CH$W/lintian.txt" | head -n 20)"
tap_ok "ls '$CH$W'/fabsched_*.changes >/dev/null 2>&1 && [ -f '$CH$W/lintian.txt' ] && ! grep -q '^[EW]: ' '$CH$W/lintian.txt'" "lintian (Debian 13's): no error and no warning on either package"

# 4: installed
in_ch sh -c "dpkg --purge fabsched-slurm-plugins fabsched; dpkg -i $W/$helpers $W/$plugins" >"$CH$W/install.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tap_diag "$(tail -n 20 "$CH$W/install.log")"
plugindir=/usr/lib/x86_64-linux-gnu/slurm-wlm
tap_ok "[ $rc -eq 0 ] && [ -f '$CH$plugindir/topology_fabric.so' ] && [ -x '$CH/usr/sbin/fabsched-prolog' ]" \
	"dpkg -i: plugins in $plugindir, helpers in /usr/sbin"

# 5: Debian 13's daemons with every plugin (one node, d13n1, in the rack of
# a fabric model that fabsched topo discover builds from a real ibnetdiscover
# dump, two of its hosts named d13n1 and d13n2)
E=/etc/slurm R=/run/fabsched-d13
mkdir -p "$CH$E/fabsched" "$CH$R" "$CH/var/spool/slurmctld" "$CH/var/spool/slurmd" "$CH/var/log/slurm"
cp "$SRC/tests/fixtures/ibnetdiscover/1.topo" "$CH$E/fabsched/1.topo"
printf 'H-0008f10403960984 d13n1\nH-005442b100004900 d13n2\n' > "$CH$E/fabsched/node-name-map"
in_ch fabsched topo discover -i "$E/fabsched/1.topo" -m "$E/fabsched/node-name-map" -n 'd13n[1-2]' \
	-o "$E/fabsched/fabric.json" >"$CH$W/discover.log" 2>&1 || tap_diag "$(cat "$CH$W/discover.log")"
cat > "$CH$E/slurm.conf" <<EOF
ClusterName=d13
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$PORT_CTLD
SlurmdPort=$((PORT_CTLD + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$R/slurmctld.pid
SlurmdPidFile=$R/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SlurmctldDebug=verbose
SlurmdDebug=verbose
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
TopologyPlugin=topology/fabric
GresTypes=rdma,hugepages
JobSubmitPlugins=fabsched
PlugStackConfig=$E/plugstack.conf
ReturnToService=2
NodeName=d13n1 NodeAddr=127.0.0.1 NodeHostname=d13n1 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=batch Nodes=d13n1 Default=YES State=UP
EOF
printf 'required %s/fabsched.so\n' "$plugindir" > "$CH$E/plugstack.conf"
printf 'FabricModel=%s/fabsched/fabric.json\nPartitionName=batch Locality=rack LocalityWait=INFINITE\n' "$E" > "$CH$E/fabsched.conf"
: > "$CH$E/gres.conf"
# no cgroups: the chroot has no systemd to delegate one (proctrack/linuxproc)
printf 'CgroupPlugin=disabled\n' > "$CH$E/cgroup.conf"
[ -s "$CH/etc/munge/munge.key" ] || { dd if=/dev/urandom of="$CH/etc/munge/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$CH/etc/munge/munge.key"; }
mkdir -p "$CH/run/munge" && chown -R --reference="$CH/etc/munge" "$CH/run/munge" 2>/dev/null
in_ch munged --force --pid-file="$R/munged.pid" --socket=/run/munge/munge.socket.2 >"$CH$W/munged.log" 2>&1
rm -f "$CH"/var/log/slurm/*.log
in_ch slurmctld >"$CH$W/slurmctld.out" 2>&1
in_ch slurmd -N d13n1 >"$CH$W/slurmd.out" 2>&1
node_up() { in_ch sinfo -h -n d13n1 -o %T 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; }
cl_poll 30 node_up
log_ctld=$CH/var/log/slurm/slurmctld.log
topo=$(in_ch scontrol show topology 2>&1)
tap_diag "scontrol show topology: $topo" "slurmctld: $(grep -ihE 'fabsched|topology/fabric|error' "$log_ctld" 2>/dev/null | head -n 8)"
tap_ok "node_up && grep -q 'Nodes=d13n1' <<<'$topo' && [ -s '$CH$E/fabsched/fabric.json' ]" \
	"Debian 13's slurmctld and slurmd up with topology/fabric, d13n1 idle; its switch from the model: $(grep -o '^SwitchName=[^ ]*' <<<"$topo" | head -n 1)"

# 6: every plugin in the daemons that load it
cfg=$(in_ch scontrol show config 2>/dev/null)
loaded=0
for want in 'TopologyPlugin *= topology/fabric' 'JobSubmitPlugins *= fabsched' 'GresTypes *= rdma,hugepages'; do
	grep -Eq "$want" <<<"$cfg" && loaded=$((loaded + 1))
done
maps=""
for p in "$CH$R"/slurmctld.pid "$CH$R"/slurmd.pid; do
	maps="$maps $(grep -o "$plugindir/[a-z_]*\.so" "/proc/$(cat "$p" 2>/dev/null)/maps" 2>/dev/null | sort -u | tr '\n' ' ')"
done
tap_diag "mapped: $maps"
n=0
for so in topology_fabric job_submit_fabsched gres_rdma gres_hugepages; do
	grep -q "/$so\.so" <<<"$maps" && n=$((n + 1))
done
tap_ok "[ $loaded = 3 ] && [ $n = 4 ]" "scontrol show config names them; slurmctld and slurmd map topology_fabric, job_submit_fabsched, gres_rdma, gres_hugepages ($n of 4)"

# 7: a job (an unprivileged user's) runs through the SPANK plugin, in the
# node's rack; fabsched job says so
in_ch id fabtest >/dev/null 2>&1 || in_ch useradd -m fabtest >/dev/null 2>&1
jid=$(in_ch su fabtest -s /bin/sh -c "cd /tmp && sbatch --parsable -N 1 -n 2 -t 2 -o /tmp/d13-%j.out --wrap 'hostname; env | grep ^FABSCHED_VERSION'" 2>"$CH$W/sbatch.err")
state() { in_ch scontrol show job "$jid" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }
done_job() { case $(state) in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL) return 0 ;; esac; return 1; }
[ -n "$jid" ] && cl_poll 60 done_job
js=$(state)
out=$(cat "$CH/tmp/d13-$jid.out" 2>/dev/null)
tap_diag "sbatch: $(cat "$CH$W/sbatch.err")" "job $jid output: $out"
tap_ok "[ '$js' = COMPLETED ] && grep -q '^FABSCHED_VERSION=' <<<'$out'" \
	"job ${jid:-none} of fabtest (sbatch -N 1 -n 2) COMPLETED on Debian 13's Slurm, FABSCHED_VERSION set by the SPANK plugin"
why=$(in_ch fabsched job "$jid" 2>&1)
tap_diag "fabsched job $jid: $why"
rack=$(grep -o '^SwitchName=[^ ]*' <<<"$topo" | head -n 1 | cut -d= -f2)
tap_ok "[ -n '$rack' ] && grep -q 'd13n1' <<<'$why' && grep -q '$rack' <<<'$why'" \
	"fabsched job $jid: d13n1, in rack ${rack:-none}"

# 9: the daemons stop, the packages are purged, nothing of theirs is left
stop_daemons
files=$(in_ch sh -c 'dpkg -L fabsched fabsched-slurm-plugins' 2>/dev/null | while read -r f; do [ -d "$CH$f" ] || echo "$f"; done)
in_ch dpkg --purge fabsched-slurm-plugins fabsched >"$CH$W/purge.log" 2>&1
rc=$?
left=$(for f in $files; do [ -e "$CH$f" ] && echo "$f"; done)
tap_ok "[ $rc -eq 0 ] && [ -n '$files' ] && [ -z '$left' ]" "dpkg --purge: none of the $(wc -w <<<"$files") installed files is left"
tap_done
