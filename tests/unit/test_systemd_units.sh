#!/bin/sh
# The systemd units of systemd/ (TAP): systemd-analyze verify on each, with
# the build tree's programs in place of the installed paths; the sweep
# ordered before slurmd and creating its state directory; the LLDP record's
# command run with a stand-in lldpcli.
src=${FABSCHED_SRCDIR:-$(dirname "$0")/../..}
b=${FABSCHED_BUILDDIR:-.}
echo "1..9"
if ! command -v systemd-analyze >/dev/null 2>&1; then
	for i in 1 2 3 4 5 6 7 8 9; do echo "ok $i # SKIP systemd-analyze is missing (package systemd)"; done
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
bad=0 n=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
for u in fabsched-topo-watch fabsched-sweep fabsched-sweep-periodic; do
	sed -e "s|@bindir@|$(cd "$b/cli" && pwd)|g" -e "s|@sbindir@|$(cd "$b/prolog" && pwd)|g" \
		"$src/systemd/$u.service.in" > "$tmp/$u.service"
	out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no "$tmp/$u.service" 2>&1 |
		grep -v 'slurmd.service\|slurmctld.service\|munge.service\|Failed to \(connect\|load\)\|fsck\|Unit is bound to inactive')
	[ -z "$out" ]
	ok $? "systemd-analyze verify $u.service${out:+: $out}"
done
grep -q '^Before=slurmd.service$' "$tmp/fabsched-sweep.service" && grep -q '^Type=oneshot$' "$tmp/fabsched-sweep.service"
ok $? "the sweep runs once, before slurmd starts"
grep -q '^StateDirectory=fabsched$' "$tmp/fabsched-sweep.service"
ok $? "the sweep's unit creates the state directory (StateDir's default /var/lib/fabsched)"
cp "$src/systemd/fabsched-sweep.timer" "$tmp/"
out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no "$tmp/fabsched-sweep.timer" 2>&1 |
	grep -v 'slurmd.service\|slurmctld.service\|munge.service\|Failed to \(connect\|load\)\|fsck\|Unit is bound to inactive')
[ -z "$out" ] && grep -q '^Unit=fabsched-sweep-periodic.service$' "$tmp/fabsched-sweep.timer" &&
	! grep -q '^RemainAfterExit' "$tmp/fabsched-sweep-periodic.service"
ok $? "systemd-analyze verify fabsched-sweep.timer: it starts the periodic sweep, which can run again${out:+: $out}"
for u in fabsched-lldp-record.service fabsched-lldp-record.timer; do
	cp "$src/systemd/$u" "$tmp/"
	out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no "$tmp/$u" 2>&1 |
		grep -v 'lldpd.service\|Failed to \(connect\|load\)\|fsck\|Unit is bound to inactive')
	[ -z "$out" ]
	ok $? "systemd-analyze verify $u${out:+: $out}"
done
# its command as systemd runs it ($$ is $), lldpcli a stand-in
mkdir -p "$tmp/bin" "$tmp/lldp"
printf '#!/bin/sh\necho "{\\"lldp\\": [{\\"args\\": \\"$*\\"}]}"\n' > "$tmp/bin/lldpcli"
chmod +x "$tmp/bin/lldpcli"
cmd=$(sed -n "s/^ExecStart=\/bin\/sh -ec '\(.*\)'\$/\1/p" "$src/systemd/fabsched-lldp-record.service" | sed 's/\$\$/$/g')
h=$(hostname -s)
PATH=$tmp/bin:$PATH FABSCHED_LLDP_DIR=$tmp/lldp/dir sh -ec "$cmd" &&
	grep -q '"args": "-f json0 show neighbors details"' "$tmp/lldp/dir/$h.json" &&
	[ "$(ls -A "$tmp/lldp/dir")" = "$h.json" ]
ok $? "fabsched-lldp-record: lldpcli -f json0 show neighbors details into FABSCHED_LLDP_DIR/$h.json, nothing else left"
exit $bad
