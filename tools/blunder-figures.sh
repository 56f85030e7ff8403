#!/bin/bash
# The blunder meter's figures of issue 31 for one engine binary: its move in each position of
# the fixed set data/fixtures/blunders/std-2000.txt at each movetime (default 20, 100 and
# 500 ms) with the default tables, judged by the whole game's tables under the 100-move rule.
# Writes OUT/<ms>ms.txt (the meter's report: rates by phase and stones, worst examples).
#
#   tools/blunder-figures.sh BIN JUDGE_DIR ENGINE_TABLES OUT [JOBS] [MOVETIMES]
#
# JUDGE_DIR: `millbase generate --all --n-move-rule 100 --skip-unreachable --dir JUDGE_DIR`
# (1 h here); ENGINE_TABLES: `millbase generate --dir ENGINE_TABLES` (the default set).
# JOBS (default 2) positions are searched at once, each by its own engine on its own core:
# keep it at most the number of idle cores, or the times mean less than they say.
set -euo pipefail
bin=$1 judge=$2 tables=$3 out=$4 jobs=${5:-2} times=${6:-"20 100 500"}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
for ms in $times; do
    f="$out/${ms}ms.txt"
    [ -s "$f" ] && { echo "$f: done before"; continue; }
    "$bin" blunders measure --positions "$here/data/fixtures/blunders/std-2000.txt" \
        --judge "$judge" --dir "$tables" --movetime "$ms" -j "$jobs" > "$f.tmp"
    mv "$f.tmp" "$f"
    echo "$f"
done
