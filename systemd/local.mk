# systemd/: units of the node and controller helpers, with the install
# paths of this build substituted (make install puts them in
# $(systemdunitdir), default $(prefix)/lib/systemd/system).
systemdunitdir = $(prefix)/lib/systemd/system
SYSTEMD_UNITS = systemd/fabsched-topo-watch.service systemd/fabsched-sweep.service \
	systemd/fabsched-sweep-periodic.service
SYSTEMD_PLAIN = systemd/fabsched-sweep.timer systemd/fabsched-lldp-record.service \
	systemd/fabsched-lldp-record.timer systemd/fabsched-lldp-snmp.service \
	systemd/fabsched-lldp-snmp.timer
systemdunit_DATA = $(SYSTEMD_UNITS) $(SYSTEMD_PLAIN)
EXTRA_DIST += $(SYSTEMD_UNITS:=.in) $(SYSTEMD_PLAIN)
CLEANFILES += $(SYSTEMD_UNITS)

$(SYSTEMD_UNITS): %: $(srcdir)/%.in Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	sed -e 's|@bindir[@]|$(bindir)|g' -e 's|@sbindir[@]|$(sbindir)|g' $(srcdir)/$@.in > $@

TESTS += tests/unit/test_systemd_units.sh
EXTRA_DIST += tests/unit/test_systemd_units.sh
