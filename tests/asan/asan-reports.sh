#!/bin/sh
# asan-reports.sh DIR [SRCDIR...] - make check-asan's verdict on the
# sanitizer reports in DIR (files PREFIX.PID written through log_path by
# AddressSanitizer, LeakSanitizer and UBSan).  A report counts when it has a
# fabsched frame: a fabsched plugin (.so), helper or command, or a source
# file under SRCDIR (fabsched's source tree, as the build names it; a
# source-built Slurm's frames name their own src/common/... files).
# Leak reports are judged one leak at a time ("Direct/Indirect leak of"
# paragraph), others a file at a time.  Prints every counted report whole and
# a summary line; exit 1 if there is any, 0 otherwise (reports of Slurm or
# other programs alone are counted in the summary, not printed).
set -u
dir=${1:?usage: asan-reports.sh DIR [SRCDIR...]}
shift
[ -d "$dir" ] || { echo "asan-reports: no directory $dir" >&2; exit 1; }

# fabsched's modules, and its sources as frames name them
fab='(select_[a-z_]*fabric|topology_fabric|gres_rdma|gres_hugepages|job_submit_fabsched|/fabsched)\.so|fabsched-(prolog|epilog|sweep)|/cli/fabsched|/bin/fabsched[ )]'
for src; do
	src=$(printf '%s' "${src%/}" | sed 's/[][\\.*^$()+?{}|]/\\&/g')
	fab="$fab|$src/(plugins|select|common|gres|topology|prolog|cli|sim)/"
done

total=0 counted=0 other=0
for f in "$dir"/*; do
	[ -f "$f" ] && [ -s "$f" ] || continue
	total=$((total + 1))
	if grep -q 'ERROR: LeakSanitizer' "$f"; then
		# one leak per paragraph; print the file's header once
		out=$(FAB=$fab awk '
			/^(Direct|Indirect) leak of/ { inleak = 1; buf = $0 "\n"; next }
			inleak && /^$/ { if (buf ~ ENVIRON["FAB"]) { printf "%s\n", buf; n++ } inleak = 0; buf = ""; next }
			inleak { buf = buf $0 "\n" }
			END { if (inleak && buf ~ ENVIRON["FAB"]) { printf "%s\n", buf; n++ } exit n > 0 ? 1 : 0 }' "$f")
		rc=$?
	else
		out=$(grep -Eq "$fab" "$f" && cat "$f")
		[ -n "$out" ] && rc=1 || rc=0
	fi
	if [ "$rc" -ne 0 ]; then
		counted=$((counted + 1))
		echo "==== check-asan: $f"
		grep -m1 -E 'ERROR: |runtime error' "$f"
		echo "$out"
	else
		other=$((other + 1))
	fi
done
echo "check-asan: $total report files in $dir: $counted with a fabsched frame, $other without (Slurm or other programs alone)"
[ "$counted" -eq 0 ]
