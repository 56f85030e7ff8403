#!/usr/bin/env bash
# Throughput of `millbase probe --batch` against one `millbase probe --json` process per
# position (docs/BENCHMARKS.md, "Batch probing"). Issue 11 asks for at least 20 times.
#
#   tools/bench_batch.sh [DIR]
#
# DIR: a table directory holding every moving sector with w + b <= 10 (the default set of
# `millbase generate`). Without it, data/std is used if it holds 5-5's tables, else the
# default set is generated into a temporary directory (about 20 s on 2 quiet cores).
# Environment: N (positions for the batch runs, default 100000), SAMPLE (positions probed one
# process each, default 1000), SEED (default 1), CACHE_MB (an extra batch run with this
# cache size, default 1024; empty for none).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${N:-100000}
sample=${SAMPLE:-1000}
seed=${SEED:-1}
cache_mb=${CACHE_MB-1024}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
rate() { printf '%.0f' "$(echo "scale=3; $1 / $2" | bc)"; }
secs() { printf '%.2f' "$1"; }

cargo build --release --quiet --bin millbase --example random_positions
bin=target/release/millbase
if [ $# -ge 1 ]; then
    dir=$1
elif [ -e data/std/5-5-0-0.mbw ]; then
    dir=data/std
else
    dir=$tmp/tables
    echo "generating the default set (w + b <= 10) into $dir"
    start=$(date +%s.%N)
    $bin generate --quiet --dir "$dir" | tail -1
    echo "  $(secs "$(echo "$(date +%s.%N) - $start" | bc)") s"
fi

# Every moving sector with w + b <= 10, both ways round.
sectors="3-3 3-4 4-3 3-5 5-3 3-6 6-3 3-7 7-3 4-4 4-5 5-4 4-6 6-4 5-5"
target/release/examples/random_positions "$n" "$seed" $sectors > "$tmp/positions"
head -n "$sample" "$tmp/positions" > "$tmp/sample"


# One batch run: prints its seconds; checks that every line got an answer and none an error.
batch() {
    local input=$1; shift
    local start end lines
    start=$(now)
    $bin probe --batch --dir "$dir" "$@" < "$input" > "$tmp/out"
    end=$(now)
    lines=$(wc -l < "$tmp/out")
    [ "$lines" -eq "$(grep -c . "$input")" ] || { echo "batch: $lines answers" >&2; exit 1; }
    ! grep -q '"error"' "$tmp/out" || { echo "batch: errors" >&2; grep -m3 '"error"' "$tmp/out" >&2; exit 1; }
    echo "$end - $start" | bc
}

echo "tables: $dir; $n random positions of $sectors (seed $seed); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
t_plain=$(batch "$tmp/positions")
echo "probe --batch                   $n positions  $(secs "$t_plain") s  $(rate "$n" "$t_plain") positions/s"
t_moves=$(batch "$tmp/positions" --moves)
echo "probe --batch --moves           $n positions  $(secs "$t_moves") s  $(rate "$n" "$t_moves") positions/s"
if [ -n "$cache_mb" ]; then
    t_cache=$(batch "$tmp/positions" --cache-mb "$cache_mb")
    echo "probe --batch --cache-mb $cache_mb   $n positions  $(secs "$t_cache") s  $(rate "$n" "$t_cache") positions/s"
fi

start=$(now)
while IFS= read -r line; do
    $bin probe --json --dir "$dir" "$line" > /dev/null
done < "$tmp/sample"
end=$(now)
t_single=$(echo "$end - $start" | bc)
single=$(rate "$sample" "$t_single")
echo "probe --json, one process each  $sample positions  $(secs "$t_single") s  $single positions/s"

ratio_plain=$(printf '%.0f' "$(echo "scale=3; $n / $t_plain / ($sample / $t_single)" | bc)")
ratio_moves=$(printf '%.0f' "$(echo "scale=3; $n / $t_moves / ($sample / $t_single)" | bc)")
echo "ratio: --batch ${ratio_plain}x, --batch --moves ${ratio_moves}x one process per position (target >= 20x)"
if [ "$(echo "$ratio_moves >= 20" | bc)" -eq 1 ]; then echo "PASS"; else echo "FAIL"; exit 1; fi
