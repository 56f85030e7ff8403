#!/usr/bin/env bash
# Solve the whole standard game (every sector a game from the empty board reaches), then
# probe the empty board and verify a chosen set of placing sectors. Too slow for CI: about
# 1.5 hours of solving on 2 cores, 10.8 GiB peak memory, 11.5 GB of tables (docs/BENCHMARKS.md,
# "The standard game").
#
#   tools/std-whole-game.sh [DIR]          (default DIR: data/std)
#
# Resumable: run it again after an interruption and finished sectors are kept.
set -euo pipefail
dir=${1:-data/std}
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/millbase
mkdir -p "$dir"
$bin plan | tail -1
/usr/bin/time -v $bin generate --all --quiet --dir "$dir" 2> >(grep -E 'Elapsed|Maximum resident' >&2)
$bin stats --dir "$dir" | tail -3
# The empty board: a draw (Gasser 1996; Gévay & Danner).
$bin probe --dir "$dir" start
# Re-derive from their successors' stored values: the early placing sectors (5 or more stones
# in hand between the two sides), the largest placing sector, the sectors holding the longest
# win and loss, and 9-9 (about 20 minutes in all).
early=$($bin plan --json | python3 -c '
import json, sys
for c in json.load(sys.stdin)["components"]:
    for s in c["sectors"]:
        w, b, wf, bf = map(int, s.split("-"))
        if wf + bf >= 5:
            print(s)')
$bin verify --quiet --dir "$dir" $early 8-8-1-1 6-6-2-1 5-6-2-2 9-9-0-0
