# topology/: fabric model library (parse, discover, names, classify, export, JSON)
# (also compiled into the fuzz target of the files fabsched reads)
TOPOLOGY_SOURCES = \
	topology/fabsched_topo.h \
	topology/topo_private.h \
	topology/topo_names.h \
	topology/model.c \
	topology/hostlist.c \
	topology/parse_ibnet.c \
	topology/parse_lldp.c \
	topology/parse_lldp_snmp.c \
	topology/discover.c \
	topology/names.c \
	topology/classify.c \
	topology/evidence.c \
	topology/export_slurm.c \
	topology/slurm_tree.c \
	topology/switch_graph.c \
	topology/report.c \
	topology/diff.c \
	topology/watch.c \
	topology/counters.c \
	topology/hops.c \
	topology/json.c
noinst_LTLIBRARIES += topology/libfabsched_topology.la
topology_libfabsched_topology_la_SOURCES = $(TOPOLOGY_SOURCES)
topology_libfabsched_topology_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology $(JSONC_CFLAGS)
topology_libfabsched_topology_la_CFLAGS = $(AM_CFLAGS) -fPIC
topology_libfabsched_topology_la_LIBADD = $(JSONC_LIBS)
if HAVE_IBNETDISC
topology_libfabsched_topology_la_LIBADD += $(IBNETDISC_LIBS)
endif

