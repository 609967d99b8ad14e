#!/bin/sh
# scripts/slurm-build.sh refuses a release it cannot build before it touches
# anything (TAP): not a micro release of a supported series, not of the form
# MAJOR.MINOR.MICRO, no known source without --tarball, --tarball without a
# sha256.  Each refusal exits 2 and names the value and the accepted form.
# A cached build whose binaries do not run (a cache moved from the path it
# was built in) is refused too, with exit 1, rather than served.
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
echo "1..7"
case_ 2 'release "23.02.1" is not a micro release of a supported series; accepted: 22.05.N, 24.11.N, 25.11.N or 26.05.N' 23.02.1
case_ 2 'release "26.05" is not a micro release' 26.05
case_ 2 'release "26.05.x" is not a micro release' 26.05.x
case_ 2 'release "26.05.3a" is not of the form MAJOR.MINOR.MICRO' 26.05.3a
case_ 2 'no known source of Slurm 26.05.9; known here: 24.11.* (Debian 13, trixie), 25.11.7, 26.05.2 and 26.05.3' 26.05.9
case_ 2 '--tarball x.tar.gz needs --sha256 with its 64 hex digit sum' --tarball x.tar.gz --sha256 123 26.05.4
# a cached build moved: its slurmctld cannot load its libraries
d=$tmp/moved/slurm-26.05.3
mkdir -p "$d/prefix/sbin" "$d/prefix/lib/slurm" "$d/slurm-wlm-26.05.3"
touch "$d/.fabsched-built" "$d/slurm-wlm-26.05.3/config.h" "$d/prefix/lib/slurm/accounting_storage_mysql.so"
printf '#!/bin/sh\necho "slurmctld: error while loading shared libraries: libslurmfull.so" >&2\nexit 127\n' > "$d/prefix/sbin/slurmctld"
cp "$d/prefix/sbin/slurmctld" "$d/prefix/sbin/slurmdbd"
chmod +x "$d/prefix/sbin/slurmctld" "$d/prefix/sbin/slurmdbd"
out=$("$src/scripts/slurm-build.sh" 26.05.3 "$tmp/moved" 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -qF "Slurm 26.05.3 in $d was built for another path" &&
	printf '%s\n' "$out" | grep -qF "libslurmfull.so"; then
	echo "ok 7 - slurm-build.sh 26.05.3 on a moved cache: exit 1, names the build and why"
else
	echo "not ok 7 - slurm-build.sh 26.05.3 on a moved cache: exit $rc (want 1), said: $out"
	bad=1
fi
exit $bad
