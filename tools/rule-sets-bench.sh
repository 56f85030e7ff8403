#!/usr/bin/env bash
# The default endgame set (moving phase, at most 10 stones on the board) of every named rule
# set with tables, measured: `millbase generate --variant NAME --dir DIR` under
# /usr/bin/time -v (wall time, CPU time user + system, peak RSS), positions and sectors from `millbase stats --json`,
# size on disk (du -b of the table files), bits per position, solve rate, and the plan's
# estimate of the same run (`generate --dry-run` on the empty directory). Prints a markdown
# table on standard output, one row per set as it finishes (progress on standard error).
#
# Usage: tools/rule-sets-bench.sh [-b MILLBASE] [-d WORKDIR] [-k] [NAME...]
#   -b  the millbase binary [default: millbase on the PATH]
#   -d  where the table directories go, WORKDIR/NAME [default: a new temporary directory]
#   -k  keep the tables (default: each set's directory is removed after it is measured)
#   NAME...  the rule sets [default: every name of `millbase rules --list` but the aliases
#            ("(= std)"); a set whose tables are refused gets a row saying why]
#
# Example (docs/BENCHMARKS.md, "Rule sets (issue 26)"):
#   cargo build --release && tools/rule-sets-bench.sh -b target/release/millbase
set -euo pipefail

bin=millbase
work=
keep=0
while getopts "b:d:k" opt; do
    case $opt in
        b) bin=$OPTARG ;;
        d) work=$OPTARG ;;
        k) keep=1 ;;
        *) sed -n '2,16p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
command -v "$bin" >/dev/null || { echo "no millbase binary: $bin" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
command -v jq >/dev/null || { echo "needs jq" >&2; exit 2; }
if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/rule-sets-bench.XXXXXX")
fi
mkdir -p "$work"

if [ $# -gt 0 ]; then
    names=("$@")
else
    # Every named set once: the aliases ("nine-mens-morris ... (= std)") are left out.
    mapfile -t names < <("$bin" rules --list | grep -v '(= ' | awk '{print $1}')
fi

# "h:mm:ss" or "m:ss.ss" of GNU time as seconds.
seconds() {
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.1f", s }' <<<"$1"
}

echo "| set | sectors | positions | wall | CPU | peak RSS | disk | bits/position | M positions/s | plan's estimate |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in "${names[@]}"; do
    dir=$work/$name
    rm -rf "$dir"
    refused=$("$bin" rules --variant "$name" | sed -n 's/^tables //p')
    case $refused in
        "not yet"*)
            refused=${refused#not yet (}
            echo "| $name | refused: ${refused%)} | | | | | | | | |"
            continue ;;
    esac
    # The plan's figures for the same run (nothing solved yet), e.g. "estimated 38.1 s".
    estimate=$("$bin" generate --variant "$name" --dir "$dir" --dry-run |
        sed -n 's/.*estimated \([0-9.]* [a-z]*\) on.*/\1/p')
    echo "$(date +%T) $name: generate (plan: $estimate; load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    /usr/bin/time -v -o "$work/$name.time" \
        "$bin" generate --quiet --variant "$name" --dir "$dir" >"$work/$name.log"
    wall=$(seconds "$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$work/$name.time")")
    user=$(sed -n 's/.*User time (seconds): //p' "$work/$name.time")
    sys=$(sed -n 's/.*System time (seconds): //p' "$work/$name.time")
    rss_kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/$name.time")
    "$bin" stats --variant "$name" --dir "$dir" --json >"$work/$name.stats.json"
    sectors=$(jq length "$work/$name.stats.json")
    positions=$(jq '[.[].positions] | add' "$work/$name.stats.json")
    disk=$(du -cb "$dir"/*.mbw "$dir"/*.mbd | tail -1 | cut -f1)
    awk -v n="$name" -v sec="$sectors" -v p="$positions" -v w="$wall" -v r="$rss_kib" \
        -v d="$disk" -v e="$estimate" -v u="$user" -v s="$sys" 'BEGIN {
            rate = w >= 0.1 ? sprintf("%.2f", p / w / 1e6) : "-"
            size = d >= 1048576 ? sprintf("%.1f MiB", d / 1048576) : sprintf("%.1f KiB", d / 1024)
            printf "| %s | %d | %d | %.1f s | %.1f s | %.0f MiB | %s | %.2f | %s | %s |\n",
                n, sec, p, w, u + s, r / 1024, size, 8 * d / p, rate, e
        }'
    echo "$(date +%T) $name: $(tail -1 "$work/$name.log")" >&2
    [ "$keep" = 1 ] || rm -rf "$dir"
done
