# FABSCHED_SLURM
# --------------
# Locate the installed Slurm (public headers, libslurmfull, plugin directory)
# and, with --with-slurm-source, a configured source tree of the very same
# release for the internal headers that non-SPANK plugins need.  Slurm loads
# a non-SPANK plugin only when it was built for its exact major.minor.micro
# release, so a mismatch stops configure.
#
# Sets: SLURM_PREFIX SLURM_INSTALLED_VERSION SLURM_SOURCE_VERSION SLURM_FLAVOUR
#       SLURM_CPPFLAGS (public headers) SLURM_SRC_CPPFLAGS (internal headers)
#       SLURM_FULL_LIB SLURM_PLUGINDIR build_slurm_plugins build_spank
#       SLURM_PLUGINS_SUMMARY (the configure summary's "non-SPANK plugins")
# Conditionals: BUILD_SLURM_PLUGINS BUILD_SPANK SLURM_2205 SLURM_EVAL (24.11+)
#
# Supported releases (flavours): 22.05.* (Debian 12's package) and 24.11.*
# (built from Debian 13's source package into a prefix by
# scripts/slurm-build.sh: --with-slurm=PREFIX --with-slurm-source=TREE, where
# libslurmfull and the plugins are in PREFIX/lib/slurm).

# _FABSCHED_SLURM_VERSION(HEADER, VAR): VAR := "MAJ.MIN.MIC" from HEADER's
# SLURM_VERSION_NUMBER (hex 0xMMmmuu), empty when absent.
AC_DEFUN([_FABSCHED_SLURM_VERSION], [
  $2=""
  AS_IF([test -r "$1"], [
    _fs_hex=`sed -n 's/^#define[[ 	]]*SLURM_VERSION_NUMBER[[ 	]]*0x\(@<:@0-9a-fA-F@:>@*\).*/\1/p' "$1"`
    AS_IF([test -n "$_fs_hex"], [
      $2=`printf '%d.%02d.%d' $(( 0x$_fs_hex >> 16 & 255 )) $(( 0x$_fs_hex >> 8 & 255 )) $(( 0x$_fs_hex & 255 ))`
    ])
  ])
])

AC_DEFUN([FABSCHED_SLURM], [
  AC_ARG_WITH([slurm],
    [AS_HELP_STRING([--with-slurm=PREFIX], [installation prefix of the installed Slurm @<:@default=/usr@:>@])],
    [SLURM_PREFIX=$withval], [SLURM_PREFIX=/usr])
  AC_ARG_WITH([slurm-source],
    [AS_HELP_STRING([--with-slurm-source=DIR],
      [configured source tree of the installed Slurm release (internal headers for non-SPANK plugins; see scripts/slurm-source.sh)])],
    [], [with_slurm_source=])
  AC_ARG_WITH([slurm-plugindir],
    [AS_HELP_STRING([--with-slurm-plugindir=DIR], [where to install the plugins @<:@default: the installed Slurm's PluginDir@:>@])],
    [SLURM_PLUGINDIR=$withval], [SLURM_PLUGINDIR=])

  AS_IF([test "x$with_slurm_source" = xyes || test "x$with_slurm_source" = xno], [with_slurm_source=])

  _FABSCHED_SLURM_VERSION([$SLURM_PREFIX/include/slurm/slurm_version.h], [SLURM_INSTALLED_VERSION])
  AC_MSG_CHECKING([for the installed Slurm release])
  AS_IF([test -n "$SLURM_INSTALLED_VERSION"],
    [AC_MSG_RESULT([$SLURM_INSTALLED_VERSION ($SLURM_PREFIX/include/slurm/slurm_version.h)])],
    [AC_MSG_RESULT([none])])
  SLURM_CPPFLAGS="-I$SLURM_PREFIX/include"

  build_spank=no
  AS_IF([test -r "$SLURM_PREFIX/include/slurm/spank.h"], [build_spank=yes],
    [AC_MSG_WARN([no $SLURM_PREFIX/include/slurm/spank.h: the SPANK plugin will not be built (install libslurm-dev or use --with-slurm=PREFIX)])])

  AS_IF([test -z "$SLURM_PLUGINDIR"], [
    for _fs_d in "$SLURM_PREFIX/lib/x86_64-linux-gnu/slurm-wlm" "$SLURM_PREFIX/lib/slurm" "$SLURM_PREFIX/lib64/slurm"; do
      AS_IF([test -d "$_fs_d"], [SLURM_PLUGINDIR=$_fs_d; break])
    done
    AS_IF([test -z "$SLURM_PLUGINDIR"], [SLURM_PLUGINDIR='${libdir}/slurm'])
  ])

  build_slurm_plugins=no
  SLURM_FLAVOUR=
  SLURM_SOURCE_VERSION=
  SLURM_FULL_LIB=
  AS_IF([test -n "$with_slurm_source"], [
    _fs_src=`cd "$with_slurm_source" 2>/dev/null && pwd`
    AS_IF([test -z "$_fs_src"], [AC_MSG_ERROR([--with-slurm-source=$with_slurm_source: no such directory])])
    with_slurm_source=$_fs_src
    AS_IF([test ! -r "$with_slurm_source/config.h" || test ! -r "$with_slurm_source/slurm/slurm_version.h" || test ! -r "$with_slurm_source/src/common/xmalloc.h"],
      [AC_MSG_ERROR([--with-slurm-source=$with_slurm_source is not a configured Slurm source tree (needs config.h, slurm/slurm_version.h and src/common/); run its ./configure once, or use scripts/slurm-source.sh])])
    _FABSCHED_SLURM_VERSION([$with_slurm_source/slurm/slurm_version.h], [SLURM_SOURCE_VERSION])
    AC_MSG_CHECKING([the Slurm source tree's release])
    AC_MSG_RESULT([$SLURM_SOURCE_VERSION])
    AS_IF([test -z "$SLURM_INSTALLED_VERSION"],
      [AC_MSG_ERROR([a Slurm source tree was given but no installed Slurm was found under $SLURM_PREFIX (no include/slurm/slurm_version.h); install libslurm-dev or use --with-slurm=PREFIX])])
    AS_IF([test "x$SLURM_SOURCE_VERSION" != "x$SLURM_INSTALLED_VERSION"],
      [AC_MSG_ERROR([Slurm release mismatch: the source tree $with_slurm_source is $SLURM_SOURCE_VERSION but the installed Slurm ($SLURM_PREFIX) is $SLURM_INSTALLED_VERSION. Slurm loads non-SPANK plugins only when built for its exact major.minor.micro release: give the source of $SLURM_INSTALLED_VERSION (scripts/slurm-source.sh fetches it)])])
    AS_CASE([$SLURM_SOURCE_VERSION],
      [22.05.*], [SLURM_FLAVOUR=22.05],
      [24.11.*], [SLURM_FLAVOUR=24.11],
      [25.11.*], [SLURM_FLAVOUR=25.11],
      [26.05.*], [SLURM_FLAVOUR=26.05],
      [AC_MSG_ERROR([Slurm $SLURM_SOURCE_VERSION is not supported; supported releases: 22.05.* (Debian 12), 24.11.*, 25.11.* and 26.05.* (scripts/slurm-build.sh)])])
    for _fs_l in "$SLURM_PREFIX/lib/x86_64-linux-gnu/slurm-wlm/libslurmfull.so" "$SLURM_PREFIX/lib/slurm/libslurmfull.so" "$SLURM_PREFIX/lib64/slurm/libslurmfull.so"; do
      AS_IF([test -r "$_fs_l"], [SLURM_FULL_LIB=$_fs_l; break])
    done
    AS_IF([test -z "$SLURM_FULL_LIB"], [AC_MSG_ERROR([libslurmfull.so of the installed Slurm not found under $SLURM_PREFIX])])
    SLURM_SRC_CPPFLAGS="-DHAVE_CONFIG_H -I$with_slurm_source -I$with_slurm_source/src/common"
    SLURM_TOPOLOGY_COMMON_LA=
    SLURM_TOPOLOGY_TREE_LO=
    AS_IF([test "x$SLURM_FLAVOUR" != x22.05], [
      dnl topology/fabric links Slurm's own node-choice code (topology/common)
      dnl and topology/tree's (for Locality=off: stock placement)
      SLURM_TOPOLOGY_COMMON_LA=$with_slurm_source/src/plugins/topology/common/libtopology_common.la
      _fs_tree=$with_slurm_source/src/plugins/topology/tree
      SLURM_TOPOLOGY_TREE_LO="$_fs_tree/eval_nodes_tree.lo $_fs_tree/switch_record.lo"
      for _fs_f in $SLURM_TOPOLOGY_COMMON_LA $SLURM_TOPOLOGY_TREE_LO; do
        AS_IF([test ! -r "$_fs_f"],
          [AC_MSG_ERROR([--with-slurm-source=$with_slurm_source: Slurm $SLURM_FLAVOUR needs a built source tree ($_fs_f is missing); scripts/slurm-build.sh $SLURM_SOURCE_VERSION builds one])])
      done])
    build_slurm_plugins=yes
  ], [
    AC_MSG_WARN([no --with-slurm-source: only the SPANK plugin and the libraries are built (scripts/slurm-source.sh prepares a tree)])
  ])
  AS_CASE([$build_slurm_plugins/$SLURM_FLAVOUR],
    [yes/22.05], [SLURM_PLUGINS_SUMMARY="yes (flavour 22.05)"],
    [yes/2[[4-9]].*], [SLURM_PLUGINS_SUMMARY="yes (flavour $SLURM_FLAVOUR: topology/fabric places jobs; no select plugin)"],
    [SLURM_PLUGINS_SUMMARY=$build_slurm_plugins])
  SLURM_FULL_LIBDIR=`dirname "${SLURM_FULL_LIB:-/}"`
  SLURM_LIBADD=
  AS_IF([test -n "$SLURM_FULL_LIB"], [SLURM_LIBADD="-L$SLURM_FULL_LIBDIR -lslurmfull"])
  SLURM_SOURCE_DIR=$with_slurm_source
  AC_SUBST([SLURM_LIBADD])
  AC_SUBST([SLURM_SOURCE_DIR])
  AC_SUBST([SLURM_TOPOLOGY_COMMON_LA])
  AC_SUBST([SLURM_TOPOLOGY_TREE_LO])
  AC_SUBST([SLURM_PREFIX])
  AC_SUBST([SLURM_CPPFLAGS])
  AC_SUBST([SLURM_SRC_CPPFLAGS])
  AC_SUBST([SLURM_FULL_LIB])
  AC_SUBST([SLURM_FULL_LIBDIR])
  AC_SUBST([SLURM_PLUGINDIR])
  AC_SUBST([SLURM_FLAVOUR])
  AC_SUBST([SLURM_INSTALLED_VERSION])
  AM_CONDITIONAL([BUILD_SLURM_PLUGINS], [test $build_slurm_plugins = yes])
  AM_CONDITIONAL([BUILD_SPANK], [test $build_spank = yes])
  AM_CONDITIONAL([SLURM_2205], [test "x$SLURM_FLAVOUR" = x22.05])
  dnl 24.11 and later: node choice through the topology plugin (eval_nodes)
  AM_CONDITIONAL([SLURM_EVAL], [test -n "$SLURM_FLAVOUR" && test "x$SLURM_FLAVOUR" != x22.05])
])
