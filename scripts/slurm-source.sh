#!/bin/sh
# Obtain the exact source of the installed Slurm from Debian's source package,
# configure it once, and cache it outside the repository.  For 24.11 and
# later (Debian 13's slurm-wlm), the topology code that topology/fabric links
# (src/plugins/topology/common and tree) is built in it too.
#
# Usage: scripts/slurm-source.sh [CACHE_DIR]
# Prints the path of the configured source tree on its last line of stdout.
# CACHE_DIR defaults to $FABSCHED_CACHE or /var/cache/fabsched.
set -eu

cache=${1:-${FABSCHED_CACHE:-/var/cache/fabsched}}
pkgver=$(dpkg-query -W -f='${Version}' slurm-wlm 2>/dev/null || true)
if [ -z "$pkgver" ]; then
	pkgver=$(dpkg-query -W -f='${Version}' libslurm-dev 2>/dev/null || true)
fi
if [ -z "$pkgver" ]; then
	echo "slurm-source: no installed slurm-wlm/libslurm-dev package; run scripts/install-deps.sh first" >&2
	exit 1
fi
upver=${pkgver%%-*}            # 22.05.8-4+deb12u3 -> 22.05.8
dir="$cache/slurm-$pkgver"
tree="$dir/slurm-wlm-$upver"

# 24.11 and later: topology/fabric links topology/common and topology/tree
case $upver in
22.05.*) topo_dirs="" ;;
*) topo_dirs="src/plugins/topology/common src/plugins/topology/tree" ;;
esac
ready() {
	[ -f "$tree/config.h" ] && [ -f "$tree/slurm/slurm_version.h" ] && [ -f "$tree/.fabsched-configured" ] &&
		{ [ -z "$topo_dirs" ] || [ -f "$tree/.fabsched-topology-built" ]; }
}
if ready; then
	echo "$tree"
	exit 0
fi

mkdir -p "$dir"
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$tree" ]; then
	src=/etc/apt/sources.list.d/fabsched-deb-src.sources
	# The installed release's own suites, as deb-src (other deb-src entries,
	# such as a newer release's for scripts/slurm-build.sh, do not count).
	if [ ! -f "$src" ] && ! grep -qs '^deb-src' /etc/apt/sources.list && \
	   ! grep -qs '^Types:.*deb-src' /etc/apt/sources.list.d/debian.sources; then
		if [ -f /etc/apt/sources.list.d/debian.sources ]; then
			sed 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$src"
		else
			echo "slurm-source: no /etc/apt/sources.list.d/debian.sources to derive a deb-src entry from" >&2
			exit 1
		fi
		"$here/apt-get-locked" update -q >&2
	fi
	"$here/debian-source.sh" "$pkgver" "$dir" "$tree" ||
		{ "$here/apt-get-locked" update -q >&2 && "$here/debian-source.sh" "$pkgver" "$dir" "$tree"; }
fi

if [ ! -f "$tree/.fabsched-configured" ]; then
	echo "slurm-source: configuring $tree" >&2
	(cd "$tree" && ./configure -q --prefix=/usr --sysconfdir=/etc/slurm \
		--libdir=/usr/lib/x86_64-linux-gnu >&2)
	touch "$tree/.fabsched-configured"
fi
if [ -n "$topo_dirs" ] && [ ! -f "$tree/.fabsched-topology-built" ]; then
	for d in $topo_dirs; do
		echo "slurm-source: building $d" >&2
		make -C "$tree/$d" -j"$(nproc)" >>"$dir/build-topology.log" 2>&1 ||
			{ tail -n 30 "$dir/build-topology.log" >&2; exit 1; }
	done
	touch "$tree/.fabsched-topology-built"
fi
echo "$tree"
