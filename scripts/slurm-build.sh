#!/bin/sh
# Build a Slurm release that Debian 12 does not package into its own prefix,
# with Debian 12's libraries, and cache it outside the repository.  Nothing
# is rebuilt when the cache is complete.  It is the build fabsched's plugins
# are compiled against and its test clusters run: without slurmrestd.
#
# Usage: scripts/slurm-build.sh [--tarball FILE --sha256 SUM] RELEASE [CACHE_DIR]
#   e.g. 24.11.5, 25.11.7, 26.05.3; with --tarball, any micro release of a
#   supported series (22.05, 24.11, 25.11, 26.05) from a site's own upstream
#   tarball, checked against SUM and against the release it says it is.
# Slurm loads a non-SPANK plugin only when it was built for its exact
# release, micro included: build again for every upgrade.  The flavour of
# fabsched that serves RELEASE is printed (the series: 22.05 places with
# select/cons_tres_fabric, 24.11 and later with topology/fabric).
# Exit status 3: the release's source is not on this machine (the message
# says where it was looked for); 1: any other failure.
# CACHE_DIR defaults to $FABSCHED_CACHE or /var/cache/fabsched.  Result:
#   CACHE_DIR/slurm-RELEASE/prefix              the installation
#   CACHE_DIR/slurm-RELEASE/slurm-wlm-RELEASE   the configured source tree
#                                               (for --with-slurm-source)
# The last two lines of stdout are the prefix and the source tree paths.
#
# Where the source comes from:
#   24.11.*          Debian 13's (trixie) source package, from a deb-src entry
#                    in its own sources file; a pin keeps apt from ever
#                    installing a trixie binary (they need a newer libc than
#                    Debian 12's).
#   25.11.7 26.05.2 26.05.3
#                    the upstream tarball slurm-RELEASE.tar.gz in
#                    $FABSCHED_SLURM_TARBALLS, by default ../shared/slurm
#                    beside the repository; it is checked against its sha256
#                    below (from that directory's SOURCES.md) before it is
#                    extracted.
set -eu

usage() {
	echo "usage: $0 [--tarball FILE --sha256 SUM] RELEASE [CACHE_DIR]   (e.g. 26.05.3)" >&2
	exit 2
}
own_tarball="" own_sha256=""
while [ $# -gt 0 ]; do
	case $1 in
	--tarball) [ $# -ge 2 ] || usage; own_tarball=$2; shift 2 ;;
	--sha256) [ $# -ge 2 ] || usage; own_sha256=$2; shift 2 ;;
	-*) usage ;;
	*) break ;;
	esac
done
if [ $# -lt 1 ] || [ -z "$1" ]; then
	usage
fi
if [ -n "$own_tarball" ] && ! printf '%s\n' "$own_sha256" | grep -Eq '^[0-9a-f]{64}$'; then
	echo "slurm-build: --tarball $own_tarball needs --sha256 with its 64 hex digit sum" >&2
	exit 2
fi
release=$1
case $release in
22.05.[0-9]* | 24.11.[0-9]* | 25.11.[0-9]* | 26.05.[0-9]*)
	flavour=${release%.*} ;;
*)
	echo "slurm-build: release \"$release\" is not a micro release of a supported series; accepted: 22.05.N, 24.11.N, 25.11.N or 26.05.N (e.g. 26.05.3)" >&2
	exit 2 ;;
esac
if ! printf '%s\n' "$release" | grep -Eq '^[0-9]{2}\.[0-9]{2}\.[0-9]+$'; then
	echo "slurm-build: release \"$release\" is not of the form MAJOR.MINOR.MICRO (e.g. 26.05.3)" >&2
	exit 2
fi
case $flavour in
22.05) serves="fabsched's 22.05 flavour (select/cons_tres_fabric places jobs)" ;;
*) serves="fabsched's $flavour flavour (topology/fabric places jobs)" ;;
esac
cache=${2:-${FABSCHED_CACHE:-/var/cache/fabsched}}
top=$(cd "$(dirname "$0")/.." && pwd -P)
tarballs=${FABSCHED_SLURM_TARBALLS:-$(dirname "$top")/shared/slurm}
suite="" sha256=""
if [ -n "$own_tarball" ]; then
	release_case=own
else
	release_case=$release
fi
case $release_case in
own) sha256=$own_sha256 ;;
24.11.*) suite=trixie ;;
25.11.7) sha256=6c2d6cdc6615b850996c803aa3869546c0f584e0d5e640f9bcbc5a851199c6ad ;;
26.05.2) sha256=50eb4f2999979c59efe282415bd73a21d0a538220213459f4aa9e3b030cf78ed ;;
26.05.3) sha256=d41a71248d57816f873a990bcc085a79d746b69a9bbe6f2a0b64dc75536a5b51 ;;
*) echo "slurm-build: no known source of Slurm $release; known here: 24.11.* (Debian 13, trixie), 25.11.7, 26.05.2 and 26.05.3 (upstream tarballs in $tarballs); any other: --tarball FILE --sha256 SUM" >&2
   exit 2 ;;
esac

dir="$cache/slurm-$release"
prefix="$dir/prefix"
tree="$dir/slurm-wlm-$release"
stamp="$dir/.fabsched-built"

done_paths() {
	echo "$prefix"
	echo "$tree"
}

# slurmdbd with its MySQL/MariaDB storage is part of the build (the test
# cluster's accounting): a cached build without it is configured again
if [ -f "$stamp" ] && [ -x "$prefix/sbin/slurmctld" ] && [ -f "$tree/config.h" ] &&
   [ -x "$prefix/sbin/slurmdbd" ] && [ -f "$prefix/lib/slurm/accounting_storage_mysql.so" ]; then
	# the installation names its own directory in its binaries (their
	# library run path): a cache moved to another path builds nothing
	# that runs, so say so rather than serve it
	if ! ran=$("$prefix/sbin/slurmctld" -V 2>&1); then
		echo "slurm-build: Slurm $release in $dir was built for another path ($prefix/sbin/slurmctld -V fails: $(printf '%s\n' "$ran" | head -n 1)); was FABSCHED_CACHE moved? Put it back where it was built, or remove $dir to build it again here" >&2
		exit 1
	fi
	echo "slurm-build: Slurm $release already built in $dir; served by $serves" >&2
	done_paths
	exit 0
fi
[ -f "$prefix/lib/slurm/accounting_storage_mysql.so" ] || rm -f "$tree/.fabsched-configured"

log() { echo "slurm-build: $*" >&2; }
tarball=${own_tarball:-$tarballs/slurm-$release.tar.gz}
if [ -n "$sha256" ] && [ ! -f "$tree/configure" ] && [ ! -f "$tarball" ]; then
	log "no source of Slurm $release: $tarball is missing (FABSCHED_SLURM_TARBALLS names the directory that holds slurm-$release.tar.gz; --tarball names a file)"
	exit 3
fi
start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive

# ---- build dependencies from Debian 12 (only the missing ones are installed)
DEPS="build-essential dpkg-dev pkg-config libmunge-dev munge libjson-c-dev libyaml-dev
 libhttp-parser-dev libjwt-dev liblz4-dev libreadline-dev libpam0g-dev libdbus-1-dev
 libhwloc-dev libpmix-dev"
missing=""
for p in $DEPS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

# ---- trixie deb-src entry and the pin that forbids trixie binaries
# (source package releases only)
need_update=no
if [ -n "$suite" ]; then
	srcfile=/etc/apt/sources.list.d/fabsched-$suite-src.sources
	pinfile=/etc/apt/preferences.d/fabsched-$suite-no-binaries
	if [ ! -f "$pinfile" ]; then
		cat > "$pinfile" <<EOF
# fabsched: $suite is used for source packages only (scripts/slurm-build.sh);
# never install a binary package from it on this release.
Package: *
Pin: release n=$suite
Pin-Priority: -1
EOF
	fi
	if [ ! -f "$srcfile" ]; then
		cat > "$srcfile" <<EOF
# fabsched: source packages of $suite (scripts/slurm-build.sh); binaries are
# pinned away in $pinfile.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
		need_update=yes
	fi
fi
if [ -n "$missing" ] || [ "$need_update" = yes ]; then
	"$top/scripts/apt-get-locked" update -q >&2
fi
if [ -n "$missing" ]; then
	log "installing build dependencies:$missing"
	# packaged daemons (munge) must not start on install
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
		chmod 755 /usr/sbin/policy-rc.d
		trap 'rm -f /usr/sbin/policy-rc.d' EXIT
	fi
	# shellcheck disable=SC2086
	"$top/scripts/apt-get-locked" install -y -q --no-install-recommends $missing >&2
fi

# unpack TARBALL SHA256 WHENCE: extract TARBALL as $tree if its sha256 is
# SHA256 (WHENCE: where that sum comes from); refuse it otherwise.
unpack() {
	got=$(sha256sum "$1" | cut -d' ' -f1)
	if [ "$got" != "$2" ]; then
		log "refusing $1: sha256 mismatch: expected ${2:-none} ($3), found $got"
		exit 1
	fi
	rm -rf "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xaf "$1" -C "$tree.tmp" --strip-components=1
	# the release the tree says it is (Slurm's META: Major, Minor, Micro)
	is=$(awk '$1 == "Major:" { ma = $2 } $1 == "Minor:" { mi = $2 } $1 == "Micro:" { mc = $2 }
		END { if (ma != "" && mi != "" && mc != "") printf "%s.%s.%s", ma, mi, mc }' "$tree.tmp/META" 2>/dev/null)
	if [ "$is" != "$release" ]; then
		log "refusing $1: it holds Slurm ${is:-of no release (no META file with Major, Minor and Micro)}, not $release"
		rm -rf "$tree.tmp"
		exit 1
	fi
	mv "$tree.tmp" "$tree"
}

mkdir -p "$dir"
if [ ! -f "$tree/configure" ] && [ -n "$sha256" ]; then
	# ---- the upstream tarball
	log "checking and extracting $tarball"
	rm -rf "$tree"
	unpack "$tarball" "$sha256" "${own_tarball:+--sha256}${own_tarball:-scripts/slurm-build.sh, from SOURCES.md}"
elif [ ! -f "$tree/configure" ]; then
	# ---- the source package: the newest Debian revision of this release
	pkgver=$(apt-cache showsrc slurm-wlm 2>/dev/null | sed -n 's/^Version: //p' |
		grep "^$release-" | sort -V | tail -n 1 || true)
	if [ -z "$pkgver" ]; then
		"$top/scripts/apt-get-locked" update -q >&2
		pkgver=$(apt-cache showsrc slurm-wlm 2>/dev/null | sed -n 's/^Version: //p' |
			grep "^$release-" | sort -V | tail -n 1 || true)
	fi
	if [ -z "$pkgver" ]; then
		log "no source package slurm-wlm=$release-* in $suite (apt-cache showsrc slurm-wlm lists: $(apt-cache showsrc slurm-wlm 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' '))"
		exit 1
	fi
	log "fetching source package slurm-wlm=$pkgver"
	rm -rf "$tree"
	"$top/scripts/debian-source.sh" "$pkgver" "$dir" "$tree"
fi

# ---- configure, build, install
rm -f "$stamp"
if [ ! -f "$tree/.fabsched-configured" ]; then
	log "configuring $tree (prefix $prefix)"
	# shared libraries only: each file is compiled once instead of twice;
	# debugging symbols without the macro tables of Slurm's default
	# -ggdb3 (-g -O1 as Slurm's default optimizes), no slurmrestd
	# (nothing here runs it); the makefiles and libtool run by dash, not
	# bash (libtool's shell work per file is most of the build's time
	# where starting a process is slow: a plugin directory builds in
	# 40 % less time)
	(cd "$tree" && CONFIG_SHELL=/bin/dash /bin/dash ./configure -q --prefix="$prefix" --disable-static \
		--disable-debug CFLAGS="-g -O1 -fno-strict-aliasing" --disable-slurmrestd \
		--with-pmix=/usr/lib/x86_64-linux-gnu/pmix2 --with-hwloc --with-munge \
		--with-mysql_config=/usr/bin >&2)
	touch "$tree/.fabsched-configured"
fi
log "building (make -j2)"
(cd "$tree" && make -j2 >"$dir/build.log" 2>&1) || { tail -n 40 "$dir/build.log" >&2; exit 1; }
log "installing into $prefix"
(cd "$tree" && make install >"$dir/install.log" 2>&1) || { tail -n 40 "$dir/install.log" >&2; exit 1; }
end=$(date +%s)
echo "release=$release built=$(date -u +%Y-%m-%dT%H:%M:%SZ) seconds=$((end - start))" > "$stamp"
log "Slurm $release built in $((end - start)) s; served by $serves"
done_paths
