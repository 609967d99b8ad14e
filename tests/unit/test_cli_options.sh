#!/bin/sh
# test_cli_options.sh — every command's option table, its --help and
# fabsched(1) agree; old spellings still work, with a warning
# (tests/unit/test_cli_options.py says how).  TAP.
top=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 not installed (scripts/install-deps.sh installs it)"
	exit 0
fi
FABSCHED_SRCDIR=$top exec python3 "$top/tests/unit/test_cli_options.py" "${FABSCHED_BUILDDIR:-.}/cli/fabsched"
