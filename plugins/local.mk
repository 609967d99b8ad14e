# plugins/: Slurm glue only, one local.mk per plugin kind.  Non-SPANK
# plugins need the configured source tree of the installed release
# (--with-slurm-source) and are built for that exact release; the SPANK plugin
# needs only the installed public headers.
# Glue shared by the non-SPANK plugins (compiled into each).
PLUGIN_COMMON_SOURCES = plugins/common/fs_plugin_conf.c plugins/common/fs_plugin_conf.h
FABRIC_PLACE_SOURCES = plugins/common/fabric_place.c plugins/common/fabric_place.h \
	plugins/common/fabric_shape.c plugins/common/fabric_time.c
PLUGIN_CPPFLAGS += -I$(top_srcdir)/plugins/common

include plugins/spank/local.mk
include plugins/topology/local.mk
include plugins/select/local.mk
include plugins/gres/local.mk
include plugins/job_submit/local.mk
