#!/bin/sh
# fuzz-long.sh - `make fuzz-long`: every fuzz target built with clang's
# libFuzzer (ASan + UBSan) and run for FUZZ_RUNS executions (default 10
# million) on its seed corpus, one after the other; then a table: target,
# executions, seconds, coverage (libFuzzer's cov and ft), corpus entries,
# crashes, timeouts.  Not part of the test command (hours on 2 cores).
# Inputs found go to tests/fuzz/work/<target> in the build tree, crashes and
# timeouts to tests/fuzz/<target>-crash-* / -timeout-*.  With
# FUZZ_MINIMIZE=1 each target's corpus is merged into a minimal one that
# replaces tests/fuzz/corpus/<target> in the source tree; the regression
# seeds (regress-*, inputs that once failed) are kept under their names.
#
# FUZZ_MAX_TIME (seconds, default none) bounds each target's run as well:
# the table then shows the executions reached.  A run of some targets
# (FUZZ_ONLY) writes its table to fuzz-long-<targets>.table, so that runs of
# different targets can go side by side.
#
# Set by make: FUZZ_CLANG, FUZZ_RUNS, FUZZ_MAX_TIME, FUZZ_ONLY (targets, default all),
# SRCDIR, BUILDDIR, CFLAGS_EXTRA (include and library flags), LIBS, and
# SRCS_<target> (the target's sources, relative to SRCDIR).
set -u
cc=${FUZZ_CLANG:-clang}
runs=${FUZZ_RUNS:-10000000}
targets=${FUZZ_ONLY:-conf values ibnet locality observe files env cache watch}
out=$BUILDDIR/tests/fuzz
command -v "$cc" >/dev/null 2>&1 || { echo "fuzz-long: $cc not found (apt-get install clang)" >&2; exit 1; }
mkdir -p "$out" || exit 1
if [ -n "${FUZZ_ONLY:-}" ]; then
	table=$out/fuzz-long-$(echo $targets | tr ' ' -).table
else
	table=$out/fuzz-long.table
fi
maxtime=${FUZZ_MAX_TIME:-0}
printf '%-8s %12s %8s %8s %8s %8s %8s %8s\n' target execs seconds cov ft corpus crashes timeouts > "$table"
bad=0
for t in $targets; do
	eval "srcs=\${SRCS_$t:-}"
	[ -n "$srcs" ] || { echo "fuzz-long: no sources for target $t" >&2; bad=1; continue; }
	files=""
	for f in $srcs; do
		case "$f" in *.c) ;; *) continue ;; esac
		case "$f" in */driver.c) continue ;; esac	# libFuzzer has its own main
		files="$files $SRCDIR/$f"
	done
	bin=$out/fuzz_${t}_libfuzzer
	# shellcheck disable=SC2086
	if ! "$cc" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-DFST_LIBFUZZER -DFUZZ_NAME="\"$t\"" -I"$BUILDDIR" $CFLAGS_EXTRA \
		-o "$bin" $files $LIBS 2>"$out/fuzz_${t}_build.log"; then
		echo "fuzz-long: $t does not build:" >&2
		tail -5 "$out/fuzz_${t}_build.log" >&2
		bad=1
		continue
	fi
	work=$out/work/$t
	mkdir -p "$work"
	log=$out/fuzz_${t}_long.log
	t0=$(date +%s)
	"$bin" -runs="$runs" -max_total_time="$maxtime" -max_len=8192 -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$out/$t-" "$work" "$SRCDIR/tests/fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	t1=$(date +%s)
	done_line=$(grep '^#[0-9]*[[:space:]]*DONE' "$log" | tail -1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(echo "$done_line" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$done_line" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$done_line" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	crashes=$(ls "$out/$t-"crash-* "$out/$t-"leak-* "$out/$t-"oom-* 2>/dev/null | wc -l)
	timeouts=$(ls "$out/$t-"timeout-* 2>/dev/null | wc -l)
	[ $rc -eq 0 ] || { [ "$crashes" -gt 0 ] || crashes="rc=$rc"; bad=1; }
	printf '%-8s %12s %8s %8s %8s %8s %8s %8s\n' "$t" "${execs:-?}" $((t1 - t0)) \
		"${cov:-?}" "${ft:-?}" "${corp:-?}" "$crashes" "$timeouts" >> "$table"
	if [ "${FUZZ_MINIMIZE:-0}" = 1 ] && [ $rc -eq 0 ]; then
		min=$out/min/$t
		if rm -rf "$min" && mkdir -p "$min" &&
			"$bin" -merge=1 "$min" "$work" "$SRCDIR/tests/fuzz/corpus/$t" >"$out/fuzz_${t}_merge.log" 2>&1; then
			cp "$SRCDIR/tests/fuzz/corpus/$t/"regress-* "$min/" 2>/dev/null
			rm -rf "$SRCDIR/tests/fuzz/corpus/$t" && cp -r "$min" "$SRCDIR/tests/fuzz/corpus/$t"
		fi
	fi
done
cat "$table"
exit $bad
