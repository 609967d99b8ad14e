#!/bin/bash
# test_completion.sh — the bash completion (completion/fabsched) offers
# what the built fabsched takes: commands, subcommands, current options
# (no old spelling), files where an option reads one, the export formats,
# and nothing for a value it cannot guess.  TAP.
top=${FABSCHED_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
fab=$(cd "${FABSCHED_BUILDDIR:-.}" && pwd)/cli/fabsched
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi; }
echo "1..17"
# shellcheck source-path=SCRIPTDIR source=../../completion/fabsched
. "$top/completion/fabsched"
# complete LINE: COMPREPLY for the last word of LINE, sorted, one line
complete_line() {
	read -ra COMP_WORDS <<<"$1"
	case $1 in *" ") COMP_WORDS+=("") ;; esac
	COMP_WORDS[0]=$fab
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_fabsched
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
want() {
	if [ "$2" = "$3" ]; then ok 0 "$1: $2"; else ok 1 "$1"; echo "# got '$2', expected '$3'"; fi
}

want "fabsched <TAB>: the commands" "$(complete_line 'fabsched ')" \
	"--help --version config help job metrics report show sim topo"
want "fabsched topo <TAB>: its subcommands" "$(complete_line 'fabsched topo ')" \
	"check diff discover export watch"
want "fabsched config <TAB>" "$(complete_line 'fabsched config ')" "check show"
want "topo export --lo<TAB>: --load-cache (not the old --cache)" \
	"$(complete_line 'fabsched topo export --lo')" "--load-cache"
c=$(complete_line 'fabsched topo export --c')
want "topo export --c<TAB>: no old spelling" "$c" "--ca --compute-hca --conf"
want "topo export -f <TAB>: the formats" "$(complete_line 'fabsched topo export -f ')" \
	"block json tree yaml"
want "topo export --format=<TAB>: the formats" "$(complete_line 'fabsched topo export --format = ')" \
	"block json tree yaml"
touch "$tmp/fabric.cache" "$tmp/fabric.txt"
want "topo check --load-cache FILE<TAB>: files" \
	"$(complete_line "fabsched topo check --load-cache $tmp/fabric.c")" "$tmp/fabric.cache"
want "topo check FILE<TAB> after the subcommand: files" \
	"$(complete_line "fabsched topo check $tmp/fabric.t")" "$tmp/fabric.txt"
want "config show --c<TAB>: --conf (not the old -f)" "$(complete_line 'fabsched config show --c')" "--conf"
want "sim --interval-like value (--limit N): nothing guessed" \
	"$(complete_line 'fabsched sim --limit ')" ""
want "report --<TAB>: its options" "$(complete_line 'fabsched report --')" \
	"--help --html --json --observe --partition --since --until"
touch "$tmp/fabsched_observe"
want "report --observe FILE<TAB>: files" \
	"$(complete_line "fabsched report --observe $tmp/fabsched_obs")" "$tmp/fabsched_observe"
want "report --since <TAB>: a time, nothing guessed" "$(complete_line 'fabsched report --since ')" ""
# Slurm's partitions from sinfo (a script in its place)
mkdir "$tmp/bin"
printf '#!/bin/sh\nprintf "mpi\\ngpu\\nmpi-long\\n"\n' >"$tmp/bin/sinfo"
chmod +x "$tmp/bin/sinfo"
want "report --partition m<TAB>: Slurm's partitions" \
	"$(PATH=$tmp/bin:$PATH complete_line 'fabsched report --partition m')" "mpi mpi-long"
want "metrics --o<TAB>: --observe" "$(complete_line 'fabsched metrics --o')" "--observe"
if command -v shellcheck >/dev/null 2>&1; then
	shellcheck -s bash "$top/completion/fabsched" >"$tmp/sc" 2>&1
	ok $? "shellcheck: completion/fabsched is clean"
else
	echo "ok $((n += 1)) # SKIP shellcheck not installed (scripts/install-deps.sh installs it)"
fi
exit $bad
