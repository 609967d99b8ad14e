#!/bin/sh
# test_man_pages.sh — the man pages agree with each other and with
# configure (tests/unit/test_man_pages.py says how).  TAP.
top=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 not installed (scripts/install-deps.sh installs it)"
	exit 0
fi
FABSCHED_SRCDIR=$top exec python3 "$top/tests/unit/test_man_pages.py"
