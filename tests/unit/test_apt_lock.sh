#!/bin/sh
# scripts/apt-get-locked runs apt-get one at a time (TAP): a second call
# waits until the first's lock is released, instead of failing as two
# apt-get runs do (check.sh's background Slurm builds and the main build
# both install and fetch), passes its arguments and dpkg's lock timeout,
# and returns apt-get's status.  apt-get is a stand-in on PATH here.
src=${FABSCHED_SRCDIR:-$(dirname "$0")/../..}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
cat >"$tmp/bin/apt-get" <<'EOS'
#!/bin/sh
echo "apt-get $*" >>"$OUT"
case $* in *fail*) exit 100 ;; esac
exit 0
EOS
chmod +x "$tmp/bin/apt-get"
export OUT="$tmp/out" FABSCHED_APT_LOCK="$tmp/lock" PATH="$tmp/bin:$PATH"
echo "1..3"
# the holder writes "released" before it lets go of the lock; the call
# started while it holds the lock must come after that line
flock "$FABSCHED_APT_LOCK" sh -c 'touch "$0.held"; sleep 1; echo released >>"$1"' "$tmp/lock" "$OUT" &
while [ ! -e "$tmp/lock.held" ]; do sleep 0.05; done
"$src/scripts/apt-get-locked" update -q
rc=$?
wait
if [ "$rc" -eq 0 ] && [ "$(cat "$OUT")" = "released
apt-get -o DPkg::Lock::Timeout=600 update -q" ]; then
	echo "ok 1 - a second apt-get waits for the first's lock, then runs with its arguments"
else
	echo "not ok 1 - rc $rc, order: $(cat "$OUT")"
fi
"$src/scripts/apt-get-locked" install fail >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 100 ]; then
	echo "ok 2 - apt-get's own exit status is returned"
else
	echo "not ok 2 - exit $rc, expected apt-get's 100"
fi
# no script of the tree calls apt-get but through the wrapper
direct=$(grep -n 'apt-get ' "$src"/scripts/*.sh | grep -v 'apt-get-locked' | grep -v '^[^:]*:[0-9]*:[[:space:]]*#')
if [ -z "$direct" ]; then
	echo "ok 3 - every apt-get of scripts/ goes through apt-get-locked"
else
	echo "not ok 3 - apt-get called directly: $direct"
fi
