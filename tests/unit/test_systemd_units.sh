#!/bin/sh
# The systemd units of systemd/ (TAP): systemd-analyze verify on each, with
# the build tree's programs in place of the installed paths; the sweep
# ordered before slurmd and creating its state directory; the LLDP record's
# command run with a stand-in lldpcli, the SNMP switches' with a stand-in
# snmpwalk.
src=${FABSCHED_SRCDIR:-$(dirname "$0")/../..}
b=${FABSCHED_BUILDDIR:-.}
echo "1..13"
if ! command -v systemd-analyze >/dev/null 2>&1; then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do echo "ok $i # SKIP systemd-analyze is missing (package systemd)"; done
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
for u in fabsched-lldp-record.service fabsched-lldp-record.timer fabsched-lldp-snmp.service \
	fabsched-lldp-snmp.timer; do
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
# the SNMP switches' walks: snmpwalk a stand-in that answers for sw1 only
cat > "$tmp/bin/snmpwalk" <<'SH'
#!/bin/sh
for oid; do :; done
for host; do [ "$host" = "$oid" ] && break; prev=$host; done
[ "$prev" = sw1 ] || { echo "Timeout: No Response from $prev" >&2; exit 1; }
echo ".$oid.1 = STRING: \"args: $*\""
SH
chmod +x "$tmp/bin/snmpwalk"
cmd=$(sed -n "s/^ExecStart=\/bin\/sh -ec '\(.*\)'\$/\1/p" "$src/systemd/fabsched-lldp-snmp.service" | sed 's/\$\$/$/g')
d=$tmp/lldp/switches
mkdir -p "$d"
echo old > "$d/sw2.snmpwalk"
PATH=$tmp/bin:$PATH FABSCHED_LLDP_SWITCH_DIR=$d FABSCHED_LLDP_SNMP_ARGS="-v2c -c public" \
	FABSCHED_LLDP_SNMP_SWITCHES="sw1 sw2 ../x" sh -ec "$cmd" 2>"$tmp/snmp.err"
rc=$?
[ $rc = 1 ] && [ "$(ls -A "$d" | tr '\n' ' ')" = "sw1.snmpwalk sw2.snmpwalk " ] &&
	[ "$(cat "$d/sw2.snmpwalk")" = old ] &&
	grep -qx '.1.0.8802.1.1.2.1 = STRING: "args: -v2c -c public -On sw1 1.0.8802.1.1.2"' "$d/sw1.snmpwalk" &&
	grep -q '^.1.3.6.1.2.1.31.1.1.1.1.1 = ' "$d/sw1.snmpwalk" &&
	grep -q '^.1.3.6.1.2.1.31.1.1.1.15.1 = ' "$d/sw1.snmpwalk" &&
	grep -q 'sw2 gave no LLDP-MIB; its last record kept' "$tmp/snmp.err" &&
	grep -q '\.\./x: not a host name; skipped' "$tmp/snmp.err"
ok $? "fabsched-lldp-snmp: LLDP-MIB, ifName and ifHighSpeed of sw1 into sw1.snmpwalk; sw2 (no answer) keeps its last record, ../x refused, the run fails"
PATH=$tmp/bin:$PATH FABSCHED_LLDP_SWITCH_DIR=$d FABSCHED_LLDP_SNMP_SWITCHES="" sh -ec "$cmd" 2>"$tmp/snmp.err"
rc=$?
[ $rc = 1 ] && grep -q 'FABSCHED_LLDP_SNMP_SWITCHES is empty; expected the switches' "$tmp/snmp.err"
ok $? "fabsched-lldp-snmp: no switches set is an error that says where to set them"
exit $bad
