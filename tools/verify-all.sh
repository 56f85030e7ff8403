#!/usr/bin/env bash
# Verify every table of a directory in chunks of sectors, resumably: each chunk that passes is
# recorded in DIR-verify.done beside the directory, and a rerun skips it. Every chunk's output
# and time go to DIR-verify.log. Exit 1 at the first chunk that fails.
#
#   tools/verify-all.sh DIR [CHUNK] [MILLBASE]   (CHUNK: sectors per run, default 8)
#
# A full verify of the standard game takes hours on 2 cores (docs/BENCHMARKS.md); run it in the
# background, e.g. `setsid nohup nice tools/verify-all.sh /work/std-n50-compact &`.
set -euo pipefail
dir=${1:?usage: tools/verify-all.sh DIR [CHUNK] [MILLBASE]}
chunk=${2:-8}
bin=${3:-$(dirname "$0")/../target/release/millbase}
dir=${dir%/}
done_file="$dir-verify.done"
log="$dir-verify.log"
touch "$done_file"
# In verify's own order (stones, then stones in hand), so that neighbouring sectors of a chunk
# share their successors' loaded tables.
mapfile -t sectors < <(ls "$dir" | grep -E '^[0-9]+-[0-9]+-[0-9]+-[0-9]+\.mbw$' |
    sed 's/\.mbw$//' | grep -vxF -f "$done_file" |
    awk -F- '{ printf "%02d %02d %02d %02d %02d %02d %s\n", $1+$2+$3+$4, $3+$4, $1, $2, $3, $4, $0 }' |
    sort | cut -d' ' -f7 || true)
echo "$(date -u +%FT%TZ) start: ${#sectors[@]} sectors to verify in $dir ($bin)" >> "$log"
for ((i = 0; i < ${#sectors[@]}; i += chunk)); do
    part=("${sectors[@]:i:chunk}")
    start=$(date +%s)
    if "$bin" verify --quiet --dir "$dir" "${part[@]}" >> "$log" 2>&1; then
        printf '%s\n' "${part[@]}" >> "$done_file"
        echo "$(date -u +%FT%TZ) ok in $(($(date +%s) - start)) s: ${part[*]}" >> "$log"
    else
        echo "$(date -u +%FT%TZ) FAILED: ${part[*]}" >> "$log"
        exit 1
    fi
done
echo "$(date -u +%FT%TZ) all $(wc -l < "$done_file") sectors verified" >> "$log"
