#!/usr/bin/env bash
# Generate and verify the default endgame set (moving phase, at most 10 stones on the board)
# of every named rule set with tables, under one N-move rule: `millbase generate --variant
# NAME --n-move-rule N --dir DIR`, then `millbase verify --variant NAME --dir DIR`, each
# under /usr/bin/time -v. Prints a markdown table, one row per set as it finishes (wall and
# peak RSS of both, verify's summary line); exit 1 if any verify fails.
#
# Usage: tools/verify-rule-sets.sh [-b MILLBASE] [-d WORKDIR] [-n N] [-k] [NAME...]
#   -b  the millbase binary [default: millbase on the PATH]
#   -d  where the table directories go, WORKDIR/NAME-nN [default: a new temporary directory]
#   -n  the N-move rule [default: 0, none]
#   -k  keep the tables (default: removed once verified)
#   NAME...  the rule sets [default: every name of `millbase rules --list` but the aliases]
#
# Example (docs/BENCHMARKS.md, "Rule sets (issue 26)"):
#   cargo build --release && tools/verify-rule-sets.sh -b target/release/millbase -n 100
set -euo pipefail

bin=millbase
work=
n=0
keep=0
while getopts "b:d:n:k" opt; do
    case $opt in
        b) bin=$OPTARG ;;
        d) work=$OPTARG ;;
        n) n=$OPTARG ;;
        k) keep=1 ;;
        *) sed -n '2,15p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
command -v "$bin" >/dev/null || { echo "no millbase binary: $bin" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/verify-rule-sets.XXXXXX")
fi
mkdir -p "$work"

if [ $# -gt 0 ]; then
    names=("$@")
else
    mapfile -t names < <("$bin" rules --list | grep -v '(= ' | awk '{print $1}')
fi

# The value of GNU time's line "LABEL: value" (LABEL literal).
field() { awk -v k="$1: " '{ sub(/^[ \t]+/, "") } index($0, k) == 1 { print substr($0, length(k) + 1) }' "$2"; }

failed=0
echo "| set | N | generate wall | generate peak | verify wall | verify peak | verify says |"
echo "|---|---:|---:|---:|---:|---:|---|"
for name in "${names[@]}"; do
    dir=$work/$name-n$n
    rm -rf "$dir"
    if ! /usr/bin/time -v -o "$dir.gen.time" "$bin" generate --quiet --variant "$name" \
        --n-move-rule "$n" --dir "$dir" >"$dir.gen.log" 2>&1; then
        echo "| $name | $n | refused or failed: $(grep -v '^\s' "$dir.gen.log" | tail -1) | | | | |"
        continue
    fi
    status=0
    /usr/bin/time -v -o "$dir.verify.time" "$bin" verify --quiet --variant "$name" \
        --dir "$dir" >"$dir.verify.log" 2>&1 || status=$?
    [ "$status" -eq 0 ] || failed=1
    peak() { echo "$(( $(field 'Maximum resident set size (kbytes)' "$1") / 1024 )) MiB"; }
    echo "| $name | $n | $(field 'Elapsed (wall clock) time (h:mm:ss or m:ss)' "$dir.gen.time") |" \
        "$(peak "$dir.gen.time") | $(field 'Elapsed (wall clock) time (h:mm:ss or m:ss)' "$dir.verify.time") |" \
        "$(peak "$dir.verify.time") | exit $status: $(tail -1 "$dir.verify.log") |"
    [ "$keep" -eq 1 ] || rm -rf "$dir"
done
exit $failed
