# systemd/: units of the node and controller helpers, with the install
# paths of this build substituted (make install puts them in
# $(systemdunitdir), default $(prefix)/lib/systemd/system).
systemdunitdir = $(prefix)/lib/systemd/system
SYSTEMD_UNITS = systemd/fabsched-topo-watch.service systemd/fabsched-sweep.service \
	systemd/fabsched-sweep-periodic.service
systemdunit_DATA = $(SYSTEMD_UNITS) systemd/fabsched-sweep.timer
EXTRA_DIST += $(SYSTEMD_UNITS:=.in) systemd/fabsched-sweep.timer
CLEANFILES += $(SYSTEMD_UNITS)

$(SYSTEMD_UNITS): %: $(srcdir)/%.in Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	sed -e 's|@bindir[@]|$(bindir)|g' -e 's|@sbindir[@]|$(sbindir)|g' $(srcdir)/$@.in > $@

TESTS += tests/unit/test_systemd_units.sh
EXTRA_DIST += tests/unit/test_systemd_units.sh
