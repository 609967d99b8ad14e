#!/bin/sh
# scripts/slurm-build.sh refuses a release it cannot build before it touches
# anything (TAP): not a micro release of a supported series, not of the form
# MAJOR.MINOR.MICRO, no known source without --tarball, --tarball without a
# sha256.  Each refusal exits 2 and names the value and the accepted form.
src=${FABSCHED_SRCDIR:-$(dirname "$0")/../..}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
case_() {	# case_ WANT_RC WANT_TEXT ARGS...
	want_rc=$1 want=$2
	shift 2
	out=$(FABSCHED_SLURM_TARBALLS=$tmp/none "$src/scripts/slurm-build.sh" "$@" "$tmp/cache" 2>&1)
	rc=$?
	n=$((n + 1))
	if [ "$rc" -eq "$want_rc" ] && printf '%s\n' "$out" | grep -qF -- "$want" && [ ! -e "$tmp/cache" ]; then
		echo "ok $n - slurm-build.sh $*: exit $rc, \"$want\""
	else
		echo "not ok $n - slurm-build.sh $*: exit $rc (want $want_rc), said: $out"
		bad=1
	fi
}
echo "1..6"
case_ 2 'release "23.02.1" is not a micro release of a supported series; accepted: 22.05.N, 24.11.N, 25.11.N or 26.05.N' 23.02.1
case_ 2 'release "26.05" is not a micro release' 26.05
case_ 2 'release "26.05.x" is not a micro release' 26.05.x
case_ 2 'release "26.05.3a" is not of the form MAJOR.MINOR.MICRO' 26.05.3a
case_ 2 'no known source of Slurm 26.05.9; known here: 24.11.* (Debian 13, trixie), 25.11.7, 26.05.2 and 26.05.3' 26.05.9
case_ 2 '--tarball x.tar.gz needs --sha256 with its 64 hex digit sum' --tarball x.tar.gz --sha256 123 26.05.4
exit $bad
