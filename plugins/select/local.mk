# plugins/select/: select/cons_tres_fabric, the fabric-aware select plugin.
# For Slurm 22.05 it wraps select/cons_tres (opened at run time, never
# linked: see select_fabric.c).  The module name follows SelectType=
# select/cons_tres_fabric: Slurm looks for select_cons_tres_fabric.so.

EXTRA_DIST += plugins/select/select.map plugins/select/fabric/check_plugin.sh

if BUILD_SLURM_PLUGINS
if SLURM_2205
slurmplugin_LTLIBRARIES += plugins/select/fabric/select_cons_tres_fabric.la
plugins_select_fabric_select_cons_tres_fabric_la_SOURCES = $(PLUGIN_COMMON_SOURCES) \
	plugins/select/fabric/select_fabric.c \
	plugins/select/fabric/select_forward.c plugins/select/fabric/select_backend.h \
	plugins/select/fabric/fabric_hook.c $(FABRIC_PLACE_SOURCES) \
	plugins/select/fabric/fabric_hook.h
plugins_select_fabric_select_cons_tres_fabric_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) \
	-I$(top_srcdir)/select -I$(top_srcdir)/topology
# -z defs: every symbol must come from libslurmfull or libc, checked at link
# time.  libslurmfull is a NEEDED entry (already loaded in every Slurm
# process, matched by soname); the rpath only helps ldd and test loaders.
plugins_select_fabric_select_cons_tres_fabric_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,-z,defs -Wl,-rpath,$(SLURM_FULL_LIBDIR) \
	-Wl,--version-script=$(top_srcdir)/plugins/select/select.map
# the engine, the fabric model reader and fabsched.conf: PIC convenience
# libraries, their symbols kept local by the version script
plugins_select_fabric_select_cons_tres_fabric_la_LIBADD = \
	select/libfabsched_select.la topology/libfabsched_topology.la \
	libfabsched_common.la $(SLURM_LIBADD)
EXTRA_plugins_select_fabric_select_cons_tres_fabric_la_DEPENDENCIES = \
	plugins/select/select.map

TESTS += plugins/select/fabric/check_plugin.sh
endif
endif
