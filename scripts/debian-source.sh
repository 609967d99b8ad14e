#!/bin/sh
# Fetch Debian's source package slurm-wlm=PKGVER into DIR and unpack it as
# TREE (scripts/slurm-source.sh, scripts/slurm-build.sh).
#
# Usage: scripts/debian-source.sh PKGVER DIR TREE
# Some mirrors serve a release's upstream tarball but not its Debian
# revision's .dsc and .debian.tar.xz (seen for 24.11.5-4+deb13u1).  Then the
# upstream tarball, checked against the sha256 of apt's signed Sources index,
# is unpacked without Debian's patches (which change packaging, not the
# plugin interface), with a warning.  Exit status 1 when neither comes.
set -eu
if [ $# -ne 3 ]; then
	echo "usage: $0 PKGVER DIR TREE   (e.g. 24.11.5-4 /var/cache/fabsched/x /var/cache/fabsched/x/slurm-wlm-24.11.5)" >&2
	exit 2
fi
pkgver=$1 dir=$2 tree=$3
here=$(cd "$(dirname "$0")" && pwd)
log() { echo "debian-source: $*" >&2; }
up=${pkgver#*:}
up=${up%-*}
dsc="$dir/slurm-wlm_${pkgver#*:}.dsc"
orig="$dir/slurm-wlm_$up.orig.tar.gz"

mkdir -p "$dir"
(cd "$dir" && "$here/apt-get-locked" source -q --download-only "slurm-wlm=$pkgver" >&2) || true
if [ -f "$dsc" ]; then
	dpkg-source -x --no-check "$dsc" "$tree" >&2
	exit 0
fi
if [ ! -f "$orig" ]; then
	log "could not fetch the source package slurm-wlm=$pkgver (neither ${dsc##*/} nor ${orig##*/})"
	exit 1
fi
want=$(apt-cache showsrc slurm-wlm | awk -v ver="$pkgver" -v f="${orig##*/}" '
	/^Package:/ { v = 0 } $0 == "Version: " ver { v = 1 }
	/^Checksums-Sha256:/ { c = 1; next } /^[^ ]/ { c = 0 }
	v && c && $3 == f { print $1; exit }')
got=$(sha256sum "$orig" | cut -d' ' -f1)
if [ -z "$want" ] || [ "$got" != "$want" ]; then
	log "refusing $orig: sha256 $got, the signed Sources index of slurm-wlm=$pkgver says ${want:-nothing}"
	exit 1
fi
rm -rf "$tree.tmp"
mkdir -p "$tree.tmp"
tar -xzf "$orig" -C "$tree.tmp" --strip-components=1
mv "$tree.tmp" "$tree"
log "WARNING: ${dsc##*/} could not be fetched; using the upstream tarball ${orig##*/} (sha256 checked against the signed Sources index) without Debian's patches"
