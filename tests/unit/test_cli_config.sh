#!/bin/sh
# fabsched config show|check on good and broken files (TAP).
fab=${FABSCHED_BUILDDIR:-.}/cli/fabsched
fx=${FABSCHED_FIXTURES:-$(dirname "$0")/../fixtures}/conf
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
echo "1..15"

# full.conf with the files it names made here (they must exist)
: >"$tmp/fabric-a.json"; : >"$tmp/node-name-map"; : >"$tmp/racks"
sed "s|/etc/slurm/fabsched/|$tmp/|g" "$fx/full.conf" >"$tmp/full.conf"
"$fab" config check --conf "$tmp/full.conf" >"$tmp/out" 2>"$tmp/err"
ok $? "check: a good file exits 0"
[ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]
ok $? "check: a good file prints nothing"

"$fab" config show --conf "$tmp/full.conf" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^FabricModel=' "$tmp/out"
ok $? "show: prints the configuration in effect"

# the files the settings name: missing, a directory, a FIFO
"$fab" config check --conf "$fx/full.conf" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 3 ] &&
	grep -q "^fabsched config: FabricModel=/etc/slurm/fabsched/fabric-a.json: No such file or directory; expected a regular file readable here: the fabric model" "$tmp/err" &&
	grep -q "^fabsched config: NodeNameMap=/etc/slurm/fabsched/node-name-map: No such file" "$tmp/err" &&
	grep -q "^fabsched config: RackMap=/etc/slurm/fabsched/racks: No such file" "$tmp/err"
ok $? "check: FabricModel, NodeNameMap, RackMap that do not exist: exit 1 ($rc), each named with its path"
mkfifo "$tmp/fifo"
printf 'FabricModel=%s\nRackMap=%s/fifo\n' "$tmp" "$tmp" >"$tmp/kinds.conf"
timeout 20 "$fab" config check --conf "$tmp/kinds.conf" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "FabricModel=$tmp: a directory; expected a regular file" "$tmp/err" &&
	grep -q "RackMap=$tmp/fifo: not a regular file" "$tmp/err"
ok $? "check: a directory and a FIFO named as files: exit 1 at once, each named"
"$fab" config show --conf "$fx/full.conf" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q '^FabricModel=' "$tmp/out" && grep -q 'FabricModel=' "$tmp/err"
ok $? "show: the configuration, and the missing files said: exit 1"
printf 'StateDir=%s/state\nMetricsTextfile=%s/m.prom\nScratchHostNQNFile=%s/nqn\n' \
	"$tmp" "$tmp" "$tmp" >"$tmp/made.conf"
"$fab" config check --conf "$tmp/made.conf" 2>"$tmp/err"
ok $? "check: files the helpers make or each node has (MetricsTextfile, ScratchHostNQNFile) need not exist here"

# no file at all: check says so and fails, show prints the defaults
if [ -e /etc/slurm/fabsched.conf ] || [ -e /run/slurm/conf/fabsched.conf ] ||
   grep -qs 'fabsched\.so' /etc/slurm/plugstack.conf /run/slurm/conf/plugstack.conf; then
	n=$((n + 1)); echo "ok $n # SKIP this host has a fabsched.conf"
	n=$((n + 1)); echo "ok $n # SKIP this host has a fabsched.conf"
else
	(unset FABSCHED_CONF; SLURM_CONF=$tmp/slurm.conf "$fab" config check) >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "^fabsched config check: no fabsched.conf to check: .*; expected --conf FILE" "$tmp/err"
	ok $? "check without any fabsched.conf: exit 1 ($rc), said: $(cat "$tmp/err")"
	(unset FABSCHED_CONF; SLURM_CONF=$tmp/slurm.conf "$fab" config show) >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && grep -q 'not found: built-in defaults' "$tmp/out" &&
		grep -q "^fabsched config show: no fabsched.conf .*: the built-in defaults" "$tmp/err"
	ok $? "show without any fabsched.conf: the built-in defaults, with a note on stderr (exit $rc)"
fi

(cd "$fx" && "$fab" config check --conf errors.conf) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ]
ok $? "check: a broken file exits 1"
diff "$fx/errors.expected" "$tmp/err" >"$tmp/diff"
ok $? "check: every error with file:line, as expected" || sed 's/^/# /' "$tmp/diff"

"$fab" config check --conf "$tmp/missing.conf" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "missing.conf" "$tmp/err"
ok $? "check: a missing file named on the command line is an error naming it"

# a base directory the helpers would refuse: named with its setting
mkdir -p "$tmp/shared" "$tmp/own" && chmod 1777 "$tmp/shared" && chmod 0755 "$tmp/own"
printf 'HugepageMountBase=%s/shared\nStateDir=%s/own\n' "$tmp" "$tmp" > "$tmp/bases.conf"
"$fab" config check --conf "$tmp/bases.conf" 2>"$tmp/err"
rc=$?
if [ "$(id -u)" = 0 ]; then
	[ $rc -eq 1 ] && grep -q "HugepageMountBase=$tmp/shared: writable by group or others (mode 1777, a shared directory): the node helpers refuse it" "$tmp/err" &&
		! grep -q StateDir "$tmp/err"
	ok $? "check: a shared (1777) HugepageMountBase is an error naming the setting; a root-owned 0755 StateDir is fine"
else
	[ $rc -eq 1 ] && grep -q "not owned by root" "$tmp/err"
	ok $? "check: (not root) a base not owned by root is an error naming the setting"
fi
printf 'HugepageMountBase=%s/missing\n' "$tmp" > "$tmp/bases.conf"
"$fab" config check --conf "$tmp/bases.conf" 2>"$tmp/err"
ok $? "check: a base that does not exist yet is fine (the helpers make it)"

"$fab" config frobnicate >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "usage error exits 2"
exit $bad
