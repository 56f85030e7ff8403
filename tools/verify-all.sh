#!/usr/bin/env bash
# Verify every table of a directory in chunks of sectors, resumably: each sector of a chunk
# that passes is recorded in the done file with the SHA-256 of its two files, and a rerun
# skips the sectors whose files still have those checksums. Generation is deterministic (the
# same binary writes byte-identical tables), so a done file kept in the repository carries a
# verification over to tables regenerated on another machine. Every chunk's output and time
# go to DIR-verify.log. Exit 1 at the first chunk that fails.
#
#   tools/verify-all.sh DIR [CHUNK] [MILLBASE] [DONE_FILE] [VARIANT]
#   (CHUNK: sectors per run, default 8; DONE_FILE: default DIR-verify.done; VARIANT: the rule
#   set of the tables, `--variant` of verify, default std)
#
# A full verify of the standard game takes hours on 2 cores (docs/BENCHMARKS.md); run it in the
# background, e.g. `setsid nohup nice tools/verify-all.sh /work/std-n100 &`.
set -euo pipefail
dir=${1:?usage: tools/verify-all.sh DIR [CHUNK] [MILLBASE] [DONE_FILE] [VARIANT]}
chunk=${2:-8}
bin=${3:-$(dirname "$0")/../target/release/millbase}
dir=${dir%/}
done_file=${4:-$dir-verify.done}
variant=${5:-std}
log="$dir-verify.log"
touch "$done_file"
# "SECTOR WDL_SHA256 DISTANCE_SHA256" of a sector's current files (distance "-" if absent).
fingerprint() {
    local wdl dist
    wdl=$(sha256sum < "$dir/$1.mbw" | cut -c1-64)
    dist=-
    [[ -f "$dir/$1.mbd" ]] && dist=$(sha256sum < "$dir/$1.mbd" | cut -c1-64)
    echo "$1 $wdl $dist"
}
mapfile -t all < <(ls "$dir" | grep -E '^[0-9]+-[0-9]+-[0-9]+-[0-9]+\.mbw$' | sed 's/\.mbw$//')
todo=()
for s in "${all[@]}"; do
    grep -qxF "$(fingerprint "$s")" "$done_file" || todo+=("$s")
done
# In verify's own order (stones, then stones in hand), so that neighbouring sectors of a chunk
# share their successors' loaded tables.
mapfile -t sectors < <(printf '%s\n' "${todo[@]}" | grep . |
    awk -F- '{ printf "%02d %02d %02d %02d %02d %02d %s\n", $1+$2+$3+$4, $3+$4, $1, $2, $3, $4, $0 }' |
    sort | cut -d' ' -f7 || true)
echo "$(date -u +%FT%TZ) start: ${#sectors[@]} of ${#all[@]} sectors of $variant to verify in $dir ($bin)" >> "$log"
for ((i = 0; i < ${#sectors[@]}; i += chunk)); do
    part=("${sectors[@]:i:chunk}")
    start=$(date +%s)
    if "$bin" verify --quiet --variant "$variant" --dir "$dir" "${part[@]}" >> "$log" 2>&1; then
        for s in "${part[@]}"; do fingerprint "$s"; done >> "$done_file"
        echo "$(date -u +%FT%TZ) ok in $(($(date +%s) - start)) s: ${part[*]}" >> "$log"
    else
        echo "$(date -u +%FT%TZ) FAILED: ${part[*]}" >> "$log"
        exit 1
    fi
done
echo "$(date -u +%FT%TZ) all ${#all[@]} sectors verified" >> "$log"
