# systemd/: units of the node and controller helpers, with the install
# paths of this build substituted (make install puts them in
# $(systemdunitdir), default $(prefix)/lib/systemd/system).
systemdunitdir = $(prefix)/lib/systemd/system
systemdunit_DATA = systemd/fabsched-topo-watch.service
EXTRA_DIST += systemd/fabsched-topo-watch.service.in
CLEANFILES += systemd/fabsched-topo-watch.service

systemd/fabsched-topo-watch.service: $(srcdir)/systemd/fabsched-topo-watch.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	sed -e 's|@bindir[@]|$(bindir)|g' $(srcdir)/systemd/fabsched-topo-watch.service.in > $@
