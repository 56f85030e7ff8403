#!/bin/bash
# The blunder meter's figures of issue 31 for one engine binary: its move in each position of
# the fixed set data/fixtures/blunders/std-2000.txt at each movetime (default 20, 100 and
# 500 ms) with the default tables, judged by the whole game's tables under the 100-move rule.
# Writes OUT/<ms>ms.txt (the meter's report: rates by phase and stones, worst examples).
#
#   tools/blunder-figures.sh BIN JUDGE ENGINE_TABLES OUT [JOBS] [MOVETIMES]
#
# JUDGE: the answer key data/fixtures/blunders/std-2000-key.txt (the judge's value of every
# legal move of each position, written by `millbase blunders key`; nothing to generate), or a
# directory of the whole game's tables, `millbase generate --all --n-move-rule 100
# --skip-unreachable --dir JUDGE` (1 h 12 min here); ENGINE_TABLES: `millbase generate --dir
# ENGINE_TABLES` (the default set, 30 s).
# JOBS (default 2) positions are searched at once, each by its own engine on its own core:
# keep it at most the number of idle cores, or the times mean less than they say.
set -euo pipefail
bin=$1 judge=$2 tables=$3 out=$4 jobs=${5:-2} times=${6:-"20 100 500"}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
if [ -f "$judge" ]; then referee=(--key "$judge"); else referee=(--judge "$judge"); fi
for ms in $times; do
    f="$out/${ms}ms.txt"
    [ -s "$f" ] && { echo "$f: done before"; continue; }
    "$bin" blunders measure --positions "$here/data/fixtures/blunders/std-2000.txt" \
        "${referee[@]}" --dir "$tables" --movetime "$ms" -j "$jobs" > "$f.tmp"
    mv "$f.tmp" "$f"
    echo "$f"
done
