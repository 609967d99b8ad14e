#!/bin/bash
# Build fabsched for a Slurm release, from a fresh Debian 12 machine: install
# the dependencies, fetch and configure (or build) the exact Slurm source,
# configure and build fabsched in $FABSCHED_BUILD.
#
# Usage: scripts/build.sh [--slurm RELEASE] [extra configure arguments]
#   (no --slurm)         the installed Slurm (Debian 12: 22.05.8), its
#                        source from apt-get source; build dir default ./build
#   --slurm 24.11.5      Slurm built from source into /var/cache/fabsched by
#                        scripts/slurm-build.sh (once, cached); build dir
#                        default ./build-slurm-24.11
#   --slurm 26.05.4 --tarball FILE --sha256 SUM
#                        a site's own micro release from its upstream
#                        tarball (any 22.05.N, 24.11.N, 25.11.N, 26.05.N)
# The last line of stdout is the build directory.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
release=
own=()	# --tarball FILE --sha256 SUM, for scripts/slurm-build.sh
if [ "${1:-}" = --slurm ]; then
	[ $# -ge 2 ] || { echo "build: --slurm needs a release, e.g. --slurm 24.11.5" >&2; exit 2; }
	release=$2
	shift 2
	while [ "${1:-}" = --tarball ] || [ "${1:-}" = --sha256 ]; do
		[ $# -ge 2 ] || { echo "build: $1 needs a value" >&2; exit 2; }
		own+=("$1" "$2")
		shift 2
	done
fi

if [ "$(id -u)" -eq 0 ]; then
	"$top/scripts/install-deps.sh"
else
	echo "build: not root: skipping package installation" >&2
fi
if [ -z "$release" ]; then
	build=${FABSCHED_BUILD:-$top/build}
	# without the source only the SPANK plugin would be built: stop here
	out=$("$top/scripts/slurm-source.sh") ||
		{ echo "build: no Slurm source tree for the installed Slurm (scripts/slurm-source.sh failed, above)" >&2; exit 1; }
	slurm_src=$(echo "$out" | tail -n 1)
	set -- --with-slurm-source="$slurm_src" "$@"
else
	build=${FABSCHED_BUILD:-$top/build-slurm-${release%.*}}
	paths=$("$top/scripts/slurm-build.sh" "${own[@]}" "$release")
	set -- --with-slurm="$(echo "$paths" | tail -n 2 | head -n 1)" \
		--with-slurm-source="$(echo "$paths" | tail -n 1)" "$@"
fi

if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ]; then
	(cd "$top" && autoreconf -fi)
fi
mkdir -p "$build"
cd "$build"
# configured again when configure changed or was given other arguments
# (the last ones kept in configure.args)
want=$(printf '%s\n' "$@")
if [ ! -f Makefile ] || [ "$top/configure" -nt config.status ] ||
	[ "$(cat configure.args 2>/dev/null)" != "$want" ]; then
	"$top/configure" "$@"
	printf '%s\n' "$want" >configure.args
fi
make -j"$(nproc)" >&2
echo "$build"
