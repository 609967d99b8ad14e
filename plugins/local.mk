# plugins/: Slurm glue only, one local.mk per plugin kind.  Non-SPANK
# plugins need the configured source tree of the installed release
# (--with-slurm-source) and are built for that exact release; the SPANK plugin
# needs only the installed public headers.
include plugins/spank/local.mk
include plugins/topology/local.mk
include plugins/select/local.mk
include plugins/gres/local.mk
