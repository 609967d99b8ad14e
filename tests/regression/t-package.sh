#!/bin/bash
# t-package.sh - fabsched as a site installs it.  `dpkg-buildpackage -b`
# builds the Debian packages from this tree for this build's Slurm and
# lintian checks them.  On Debian's own Slurm (22.05) they are installed and
# a cluster runs from the installed files only (the plugins in Slurm's
# PluginDir, /usr/sbin/fabsched-prolog and -epilog, /usr/bin/fabsched), its
# slurmd configless (--conf-server) with no fabsched file on any node: the
# nodes' settings are fabsched.so's arguments in the controller's
# plugstack.conf, which slurmd fetches.  An MPI job (srun --mpi=pmix) asks
# one rack, gres/rdma and gres/hugepages; the prolog reserves its pages where
# those arguments say.  Then the packages are purged, and no file of theirs,
# no state directory and no systemd link is left; the administrator's own
# fabsched.conf stays.  On a Slurm built from source the packages are built
# and checked only (installing them would write into that shared build), and
# so are the RPMs of fabsched.spec, as a site of the Enterprise Linux family
# builds them from the release tarball (rpmbuild -tb): rpmlint, and the same
# files as the Debian packages.
# Prints TAP.
SRC=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=../cluster/lib.sh
. "$SRC/tests/cluster/lib.sh"
# shellcheck source=fabsched-plugins.sh
. "$SRC/tests/regression/fabsched-plugins.sh"

cl_require
cl_require_build
cl_require_cmd debhelper dh dpkg-buildpackage
cl_require_cmd lintian lintian
cl_require_cmd rpm rpmbuild
cl_require_cmd rpmlint rpmlint
mk() { sed -n "s/^$1 = //p" "$FABSCHED_BUILDDIR/Makefile"; }
prefix=$(mk SLURM_PREFIX) source=$(mk SLURM_SOURCE_DIR) release=$(mk SLURM_INSTALLED_VERSION)
plugindir=$(mk SLURM_PLUGINDIR)
debian=no
[ "$prefix" = /usr ] && debian=yes
# the packages' purge removes /var/lib/fabsched: not on a machine that uses it
if [ "$debian" = yes ] && [ -e /var/lib/fabsched ] && [ ! -e /var/lib/fabsched-test/package-installed ]; then
	echo "1..0 # SKIP /var/lib/fabsched exists here: purging the packages would remove it"
	exit 0
fi
if [ "$debian" = yes ]; then
	cl_require_hugepages
	BASE_PAGES=$(cat "$NODE0")
	tap_plan 19
else
	tap_plan 8
fi
TUSER=${FABSCHED_CLUSTER_USER:-fabtest}
# one directory a release: the run for a source-built release may go on
# beside another release's suite (scripts/check.sh runs the newest's aside)
WORK=/var/lib/fabsched-test/package-$release
MARK=/var/lib/fabsched-test/package-installed	# packages this test installed

purge() { dpkg --purge fabsched-slurm-plugins fabsched >"$WORK/purge.log" 2>&1; }
# only the run on Debian's Slurm installs packages (and may find its own,
# left by an interrupted run); a source-built release's run builds them only
if [ "$debian" = yes ]; then
	if dpkg-query -W -f='${Status}' fabsched 2>/dev/null | grep -q 'ok installed' ||
	   dpkg-query -W -f='${Status}' fabsched-slurm-plugins 2>/dev/null | grep -q 'ok installed'; then
		[ -e "$MARK" ] || tap_bail "fabsched packages are installed on this machine (not by this test): it installs and purges its own"
		mkdir -p "$WORK" && purge	# left by an interrupted run of this test
	fi
	rm -f "$MARK"
fi
rm -rf "$WORK" && mkdir -p "$WORK/src" || tap_bail "cannot write $WORK"

# 1: the packages build from a copy of the tree (no build directory in it)
tar -C "$SRC" --exclude=./build --exclude='./build-*' --exclude=./.git \
	--exclude=./autom4te.cache --exclude='./fabsched-[0-9]*' -cf - . | tar -C "$WORK/src" -xf - ||
	tap_bail "cannot copy $SRC"
t0=$(date +%s)
(cd "$WORK/src" && env DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
	FABSCHED_SLURM_PREFIX="$prefix" FABSCHED_SLURM_SOURCE="$source" \
	dpkg-buildpackage -b -uc -us) >"$WORK/build.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tap_diag "$(tail -n 30 "$WORK/build.log")"
helpers=$(ls "$WORK"/fabsched_*.deb 2>/dev/null)
plugins=$(ls "$WORK"/fabsched-slurm-plugins_*.deb 2>/dev/null)
pver=$(dpkg-deb -f "$plugins" Version 2>/dev/null)
tap_ok "[ $rc -eq 0 ] && [ -f '$helpers' ] && [ -f '$plugins' ] && [ '${pver##*+slurm}' = '$release' ]" \
	"dpkg-buildpackage -b for Slurm $release in $(($(date +%s) - t0)) s: fabsched, fabsched-slurm-plugins $pver"

# 2: what each package holds, and the Slurm release the plugins pin
list() { dpkg-deb -c "$1" 2>/dev/null | awk '{ print substr($6, 2) }' | grep -v '/$' | sort; }
want_plugins="fabsched gres_hugepages gres_rdma job_submit_fabsched topology_fabric"
[ "$(fs_flavour)" = 22.05 ] && want_plugins="$want_plugins select_cons_tres_fabric"
got_plugins=$(list "$plugins" | sed -n "s|^$plugindir/\(.*\)\.so\$|\1|p" | sort | tr '\n' ' ')
want_sorted=$(tr ' ' '\n' <<<"$want_plugins" | sort | tr '\n' ' ')
dep=$(dpkg-deb -f "$plugins" Depends)
if [ "$debian" = yes ]; then
	pin="slurm-wlm-basic-plugins (>= $release), slurm-wlm-basic-plugins (<< $release.0~)"
	pinned=$(grep -c -F "$pin" <<<"$dep")
else
	pinned=0	# no Slurm package to pin: the version names the release
	grep -q slurm <<<"$dep" || pinned=1
fi
hl=$(list "$helpers")
have_helpers=0
for f in /usr/bin/fabsched /usr/sbin/fabsched-prolog /usr/sbin/fabsched-epilog /usr/sbin/fabsched-sweep \
	/lib/systemd/system/fabsched-sweep.service /lib/systemd/system/fabsched-sweep.timer \
	/lib/systemd/system/fabsched-topo-watch.service /usr/share/man/man1/fabsched.1.gz \
	/usr/share/man/man5/fabsched.conf.5.gz /usr/share/man/man8/fabsched-prolog.8.gz \
	/usr/share/bash-completion/completions/fabsched; do
	grep -qx "$f" <<<"$hl" && have_helpers=$((have_helpers + 1))
done
tap_diag "fabsched-slurm-plugins Depends: $dep"
tap_ok "[ '$got_plugins' = '$want_sorted' ] && [ $have_helpers = 11 ] && [ '$pinned' = 1 ]" \
	"fabsched-slurm-plugins: $got_plugins in $plugindir, $([ "$debian" = yes ] && echo "Depends pinned to" || echo "version names") Slurm $release; fabsched: the command and its bash completion, the helpers, their units and man pages"

# 3: binding, with the distribution's hardening flags: the helpers and
# plugins bind at load (-z now); from 24.11 topology/fabric binds lazily (it
# calls slurmctld's functions, and scontrol loads it too); 22.05's is loaded
# by slurmctld only
mkdir -p "$WORK/x" && dpkg-deb -x "$plugins" "$WORK/x" && dpkg-deb -x "$helpers" "$WORK/x"
now() { readelf -d "$WORK/x$1" 2>/dev/null | grep -Eq 'BIND_NOW|FLAGS_1.*[ (]NOW'; }
topo=$plugindir/topology_fabric.so topo_ok=0 now_ok=0
if [ "$(fs_flavour)" = 22.05 ]; then
	now "$topo" && topo_ok=1 topo_is="binds at load (22.05: slurmctld alone loads it)"
else
	now "$topo" || topo_ok=1 topo_is="binds lazily"
fi
now /usr/sbin/fabsched-prolog && now "$plugindir/gres_rdma.so" && now_ok=1
tap_ok "[ -f '$WORK/x$topo' ] && [ $topo_ok = 1 ] && [ $now_ok = 1 ]" \
	"topology_fabric.so ${topo_is:-binds as it should not}; fabsched-prolog and gres_rdma.so bind at load (readelf -d)"

# 5-8 (a source-built Slurm): the RPMs of fabsched.spec, built as an EL
# site builds them: rpmbuild -tb on the release tarball (make dist), with
# EL's systemd macros and post-install steps (rpm-el-macros), checked by
# rpmlint (rpmlint-el.toml: every filter with its reason).  rpmbuild runs
# --nodeps: this machine has no RPM database of the BuildRequires.
rpm_checks() {
	local ver top rplug rhelp rel have want pin rec t0 rc
	ver=$(sed -n 's/^PACKAGE_VERSION = //p' "$FABSCHED_BUILDDIR/Makefile")
	top=$WORK/rpm
	rm -f "$FABSCHED_BUILDDIR/fabsched-$ver.tar.gz"
	if make -s -C "$FABSCHED_BUILDDIR" dist-gzip >"$WORK/dist.log" 2>&1; then
		mv "$FABSCHED_BUILDDIR/fabsched-$ver.tar.gz" "$WORK/"
	else
		tap_diag "make dist-gzip: $(tail -n 20 "$WORK/dist.log")"
	fi
	t0=$(date +%s)
	rpmbuild -tb --nodeps --without check --load "$SRC/tests/regression/rpm-el-macros" \
		--define "rpm_el_strip $SRC/tests/regression/rpm-el-strip" \
		--define "_topdir $top" --define "slurm_prefix $prefix" --define "slurm_source $source" \
		"$WORK/fabsched-$ver.tar.gz" >"$WORK/rpmbuild.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || tap_diag "$(tail -n 30 "$WORK/rpmbuild.log")"
	rhelp=$(ls "$top"/RPMS/*/fabsched-"$ver"-*.rpm 2>/dev/null)
	rplug=$(ls "$top"/RPMS/*/fabsched-slurm-plugins-*.rpm 2>/dev/null)
	rel=$(rpm -qp --qf '%{VERSION}' "$rplug" 2>/dev/null)
	tap_ok "[ $rc -eq 0 ] && [ -f '$rhelp' ] && [ -f '$rplug' ] && [ '${rel##*+slurm}' = '$release' ]" \
		"rpmbuild -tb fabsched-$ver.tar.gz for Slurm $release in $(($(date +%s) - t0)) s: fabsched, fabsched-slurm-plugins $rel"

	rpmlint -c "$SRC/tests/regression/rpmlint-el.toml" "$SRC/fabsched.spec" "$rhelp" "$rplug" >"$WORK/rpmlint.txt" 2>&1
	tap_diag "rpmlint: $(tail -n 1 "$WORK/rpmlint.txt")"
	grep ': [EW]: ' "$WORK/rpmlint.txt" >/dev/null && tap_diag "$(grep ': [EW]: ' "$WORK/rpmlint.txt" | head -n 20)"
	tap_ok "[ -s '$WORK/rpmlint.txt' ] && ! grep -q ': [EW]: ' '$WORK/rpmlint.txt' && grep -q ' 0 errors, 0 warnings' '$WORK/rpmlint.txt'" \
		"rpmlint: no error and no warning on fabsched.spec and either RPM"

	# the same files in the same package as the .debs; what differs by
	# design: units in /usr/lib/systemd (/lib on Debian 12), the docs'
	# directories, EL's preset that enables the sweep (a maintainer script
	# of dh_installsystemd on Debian), rpm's build-id links
	rpmfiles() {
		rpm -qlp "$1" 2>/dev/null | sed 's|^/usr/lib/systemd/system/|/lib/systemd/system/|' |
			grep -v -e '^/usr/share/doc/' -e '^/usr/share/licenses/' -e '^/usr/lib/\.build-id' \
				-e '^/usr/lib/systemd/system-preset/80-fabsched\.preset$' | sort
	}
	debfiles() { list "$1" | grep -v -e '^/usr/share/doc/' -e '^/usr/share/lintian/'; }
	have="$(rpmfiles "$rhelp")|$(rpmfiles "$rplug")"
	want="$(debfiles "$helpers")|$(debfiles "$plugins")"
	tap_is "$have" "$want" "rpm -qlp: the RPMs hold the files of the Debian packages, package for package ($(wc -l <<<"$want") files)"

	# with Slurm installed from its RPMs (prefix /usr, here Debian's
	# libslurm-dev at /usr as the stand-in), the plugins require exactly
	# that release of SchedMD's or OpenHPC's package
	rel=$(rpmspec -q --define 'slurm_prefix /usr' --qf '%{VERSION}\n' "$SRC/fabsched.spec" 2>/dev/null | sed -n 's/.*+slurm//p')
	pin=$(rpmspec -q --define 'slurm_prefix /usr' --requires "$SRC/fabsched.spec" 2>/dev/null | grep slurm)
	rec=$(rpm -qp --recommends "$rplug" 2>/dev/null)
	tap_diag "with Slurm at /usr: Requires: $pin" "fabsched-slurm-plugins Recommends: $rec"
	tap_ok "[ -n '$rel' ] && [ '$pin' = '(slurm(x86-64) = $rel or slurm-ohpc(x86-64) = $rel)' ] && grep -qx 'fabsched = $ver-[^ ]*' <<<'$rec'" \
		"fabsched.spec with Slurm at /usr: fabsched-slurm-plugins requires slurm or slurm-ohpc of exactly ${rel:-no release}, recommends fabsched $ver"
}

# 4: lintian, at the level of Debian's own Slurm packages: no error, no
# warning (its overrides are in debian/*.lintian-overrides, each with why)
if [ "$debian" = yes ]; then
	lintian "$WORK"/fabsched_*_"$(dpkg --print-architecture)".changes >"$WORK/lintian.txt" 2>&1
	tap_diag "lintian: $(grep -v 'root privileges' "$WORK/lintian.txt" | head -20)"
	tap_ok "! grep -q '^[EW]: ' '$WORK/lintian.txt'" "lintian: no error and no warning on either package"
else
	# packages whose files go under $prefix, a site's own Slurm tree, are
	# outside Debian's file layout by design: lintian's verdict says nothing
	tap_ok "dpkg-deb -f '$plugins' Package >/dev/null" \
		"fabsched-slurm-plugins for a source-built Slurm is a well-formed package (lintian is for Debian's layout; not run)"
	rpm_checks
	tap_done
	exit $?
fi

# ---- installed (Debian's Slurm only) ----
export DEBIAN_FRONTEND=noninteractive
policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then	# nothing starts at install
	printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && policy=yes
fi
cleanup() { [ -n "$policy" ] && rm -f /usr/sbin/policy-rc.d; [ -e "$MARK" ] && purge && rm -f "$MARK"; }
trap 'cleanup' EXIT
touch "$MARK"
dpkg -i "$helpers" "$plugins" >"$WORK/install.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tap_diag "$(tail -n 20 "$WORK/install.log")"
files=$( (dpkg -L fabsched; dpkg -L fabsched-slurm-plugins) 2>/dev/null | while read -r f; do [ -d "$f" ] || echo "$f"; done | sort)
ok_files=$(for f in $files; do [ -e "$f" ] && echo "$f"; done | wc -l)

# 5: installed, every file where Slurm and the nodes look
tap_ok "[ $rc -eq 0 ] && [ -x /usr/sbin/fabsched-prolog ] && [ -f $plugindir/topology_fabric.so ] && [ $ok_files -eq $(wc -w <<<"$files") ]" \
	"dpkg -i: $ok_files files installed, plugins in $plugindir"
# 6: the sweep runs before slurmd, its timer is on; the watch is the admin's choice
wants=/etc/systemd/system
tap_ok "[ -L $wants/slurmd.service.wants/fabsched-sweep.service ] && [ -L $wants/timers.target.wants/fabsched-sweep.timer ] && ! ls $wants/*/fabsched-topo-watch.service >/dev/null 2>&1" \
	"systemd: fabsched-sweep.service wanted by slurmd, fabsched-sweep.timer enabled, fabsched-topo-watch not enabled"

# 7: a configless cluster that runs the installed files only.  The
# controller's fabsched.conf (partition policy, model) is beside its
# slurm.conf; the nodes get theirs through plugstack.conf.
mkdir -p "$WORK/state" "$WORK/prom" "$WORK/etc" && chmod 0755 "$WORK" "$WORK/prom"
export FABSCHED_CLUSTER_DIR=/var/lib/fabsched-cluster.package
D=$FABSCHED_CLUSTER_DIR
cat > "$WORK/etc/fabsched.conf" <<EOF
# the administrator's own (kept by a purge)
FabricModel=$D/etc/fabric.json
PartitionName=batch Locality=rack LocalityWait=INFINITE
EOF
# (the mount base in each node's own /tmp: the emulated nodes share every
# other directory, and a job's per-node directory has one name)
HPBASE=/tmp/fabsched-hugepages
printf 'required fabsched.so StateDir=%s HugepageMountBase=%s MetricsTextfile=%s\n' \
	"$WORK/state" "$HPBASE" "$WORK/prom/fabsched.prom" > "$WORK/etc/plugstack.conf"
printf 'PrologFlags=Alloc\nJobSubmitPlugins=fabsched\nSlurmdDebug=verbose\n' > "$WORK/etc/extra.conf"
site_files=$(ls /etc/slurm/fabsched.conf /run/slurm/conf/fabsched.conf 2>/dev/null)
[ -n "$site_files" ] && tap_diag "this machine has $site_files: the nodes could read it"
cl_up --nodes 8 --prefix n --configless --fabric "leaves=2,hosts=4,spines=1" \
	--select "$(fs_select_type)" --topology-plugin topology/fabric \
	--gres-types rdma,hugepages --gres "rdma:1,hugepages:2m:64" \
	--plugstack "$WORK/etc/plugstack.conf" --extra-conf "$WORK/etc/extra.conf" \
	--etc-file "fabsched.conf=$WORK/etc/fabsched.conf" \
	--prolog /usr/sbin/fabsched-prolog --epilog /usr/sbin/fabsched-epilog
up=$?
# cl_up's EXIT trap stops the cluster; the packages go after it
trap 'rc=$?; trap - EXIT; cl_down; cleanup; exit $rc' EXIT
tap_ok $up "configless cluster up: slurmd --conf-server, SelectType=$(fs_select_type), every plugin from $plugindir, Prolog=/usr/sbin/fabsched-prolog" ||
	tap_bail "the cluster did not come up"
"$CL" fabric run timeout 60 /usr/bin/fabsched topo discover -o "$D/etc/fabric.json" >"$WORK/discover.log" 2>&1 ||
	tap_diag "$(tail -n 5 "$WORK/discover.log")"
scontrol reconfigure
has_leaves() { scontrol show topology 2>/dev/null | grep -q '^SwitchName=leaf'; }	# the model's racks in Slurm
cl_poll 20 has_leaves

# 8: no build tree on any path of the daemons, no fabsched file on a node
maps=""
for p in $(cat "$D"/ctld/slurmctld.pid "$D"/nodes/*/slurmd.pid 2>/dev/null); do
	maps="$maps$(grep -o '/[^ ]*fabsched[^ ]*' "/proc/$p/maps" 2>/dev/null | sort -u)"$'\n'
done
stray=$(grep -v -e "^$plugindir/" -e '^$' <<<"$maps" | sort -u)
cache=$D/nodes/n001/spool/conf-cache
tap_diag "fabsched files the daemons map: $(grep -v '^$' <<<"$maps" | sort -u | tr '\n' ' ')" \
	"n001's conf-cache: $(ls "$cache" 2>/dev/null | tr '\n' ' ')"
tap_ok "[ -z '$stray' ] && [ -f '$cache/plugstack.conf' ] && [ ! -e '$cache/fabsched.conf' ] && [ -z '$site_files' ]" \
	"the daemons load fabsched only from $plugindir; each node has slurmd's copy of plugstack.conf and no fabsched.conf"

# 9: the model lives on the controller: a node says so, it is no error
tap_ok "! grep -q 'cannot use fabric model' $D/nodes/*/slurmd.log && grep -q 'is not on this node' $D/nodes/n001/slurmd.log" \
	"no configless node's slurmd logs an error for the fabric model it does not have: $(grep -ho 'fabric model .* not on this node' "$D/nodes/n001/slurmd.log" | head -n 1)"

# 10-13: an MPI job in one rack with gres/rdma and gres/hugepages
id=$(cl_sbatch --user "$TUSER" -J pkg -N 2 -n 4 -t 5 --gres=rdma:1,hugepages:2m:4 \
	-o pkg-%j.out --wrap "srun --mpi=pmix $FABSCHED_MPI_HELLO; awk -v b='$HPBASE/' 'index(\$5, b) == 1 { print \"mount=\" \$5, \$NF }' /proc/self/mountinfo; env | grep -E '^(FABSCHED_|SLURM_JOB_GRES)' | sort")
cl_wait_job "$id" 180
tap_ok $? "MPI job $id (srun --mpi=pmix -N 2 -n 4, --gres=rdma:1,hugepages:2m:4) COMPLETED" ||
	tap_diag "$(scontrol show job "$id" 2>&1 | head -20)"
out=$(cl_job_output "$id")
tap_diag "$(cat "$out" 2>/dev/null)"
nodes=$(scontrol show hostnames "$(cl_job_field "$id" NodeList)" | tr '\n' ' ')
leaf=$(scontrol show topology | sed -n 's/^SwitchName=\([^ ]*\) .*Nodes=\([^ ]*\).*/\1 \2/p' |
	while read -r sw nl; do for h in $(scontrol show hostnames "$nl"); do echo "$h $sw"; done; done |
	awk -v want="$nodes" 'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) m[w[i]] = 1 } ($1 in m) && $2 ~ /^leaf/ { print $2 }' | sort -u)
tap_ok "[ \$(grep -c '^rank=' '$out') = 4 ] && grep -qx 'allreduce=ok' '$out' && [ \$(wc -w <<<'$leaf') = 1 ]" \
	"4 ranks, MPI_Allreduce ok, both nodes ($nodes) in one rack ($leaf)"
# the prolog read the plugstack.conf arguments: the job's pages are mounted
# under HugepageMountBase there, its ledger was kept under StateDir there
tap_ok "grep -q '^mount=$HPBASE/$id-2m .*pagesize=2M,size=8388608' '$out'" \
	"the prolog reserved the pages under HugepageMountBase of fabsched.so's arguments ($HPBASE/$id-2m)"
# (each node's epilog writes its metrics once it has given everything back)
given_back() {	# no ledger, node0 at its base, both epilogs counted (sets prom)
	prom=$(cat "$WORK/prom/fabsched.prom" 2>/dev/null)
	[ -z "$(ls -A "$WORK/state/jobs" 2>/dev/null)" ] && [ "$(cat "$NODE0")" = "$BASE_PAGES" ] &&
		grep -q '^fabsched_helper_run_seconds_count{helper="epilog"} 2$' <<<"$prom"
}
cl_poll 20 given_back
metrics=0
grep -q '^fabsched_helper_run_seconds_count{helper="epilog"} 2$' <<<"$prom" && metrics=1
tap_ok "[ -d '$WORK/state/jobs' ] && [ -z \"\$(ls -A '$WORK/state/jobs')\" ] && [ \$(cat $NODE0) = $BASE_PAGES ] && [ $metrics = 1 ]" \
	"the epilog gave the pages back (node0 at $BASE_PAGES), StateDir $WORK/state empty, node metrics in $WORK/prom"

# 14: the sweep as systemd starts it on a configless node, with no
# SLURM_CONF: it finds slurmd's copy through /run/slurm/conf (the node's own
# /run/slurm here) and the StateDir of fabsched.so's arguments
rm -rf "$WORK/state"
pid=$(cat "$D/nodes/n005/slurmd.pid" 2>/dev/null)
sweep=$(nsenter -t "$pid" -m env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin /usr/sbin/fabsched-sweep --node n005 2>&1)
rc=$?
tap_diag "$sweep"
tap_ok "[ $rc -eq 0 ] && [ -f '$WORK/state/lock' ] && grep -q '0 ledger(s)' <<<'$sweep'" \
	"fabsched-sweep without SLURM_CONF, in n005's namespace: StateDir $WORK/state from /run/slurm/conf/plugstack.conf"

# 15: the cluster goes; the packages are purged
cl_down
tap_ok $? "cluster down"
# the state the units' StateDirectory= makes on a node (a ledger in it)
mkdir -p /var/lib/fabsched/jobs && touch /var/lib/fabsched/jobs/ledger-of-a-node
purge
rc=$?
rm -f "$MARK"
[ $rc -eq 0 ] || tap_diag "$(cat "$WORK/purge.log")"
tap_ok "[ $rc -eq 0 ] && ! dpkg-query -W fabsched fabsched-slurm-plugins 2>/dev/null | grep -q ." "dpkg --purge fabsched fabsched-slurm-plugins"

# 17-19: nothing of fabsched left but what the administrator keeps
left=$(for f in $files; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done)
tap_is "$left" "" "none of the $(wc -w <<<"$files") installed files is left"
# (where a package's files, units, links and state go; /etc/apt holds the
# build's own source lists, scripts/slurm-source.sh)
rest=$(find /etc/systemd /etc/slurm /lib/systemd /usr/lib/systemd /usr/bin /usr/sbin /usr/share/man \
	/usr/share/doc "$plugindir" /var/lib \
	-maxdepth 4 -name '*fabsched*' \
	-not -path '/var/lib/fabsched-test*' -not -path '/var/lib/fabsched-cluster*' \
	-not -path '/var/lib/fabsched-demo*' 2>/dev/null | sort)
tap_is "$rest" "" "no fabsched file, state directory (/var/lib/fabsched) or systemd link left on the machine"
tap_ok "[ -f '$WORK/etc/fabsched.conf' ] && [ -f '$D/etc/fabsched.conf' ]" \
	"the administrator's fabsched.conf is kept"
tap_done
