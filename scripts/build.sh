#!/bin/sh
# Build fabsched for the installed Slurm release, from a fresh Debian 12
# machine: install the dependencies, fetch and configure the exact Slurm
# source, configure and build in $FABSCHED_BUILD (default: ./build).
#
# Usage: scripts/build.sh [extra configure arguments]
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${FABSCHED_BUILD:-$top/build}

if [ "$(id -u)" -eq 0 ]; then
	"$top/scripts/install-deps.sh"
else
	echo "build: not root: skipping package installation" >&2
fi
slurm_src=$("$top/scripts/slurm-source.sh" | tail -n 1)

if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ]; then
	(cd "$top" && autoreconf -fi)
fi
mkdir -p "$build"
cd "$build"
if [ ! -f Makefile ] || [ "$top/configure" -nt config.status ]; then
	"$top/configure" --with-slurm-source="$slurm_src" "$@"
fi
make -j"$(nproc)"
