#!/usr/bin/env python3
"""WDL file sizes of a table directory by phase (moving: no stones in hand; placing: the rest),
with how many files store one symbol per byte (header byte 17 = 8, docs/FORMAT.md).

    tools/wdl_sizes.py DIR [BASELINE]

BASELINE is an output of examples/wdl_block_size run per sector with the sector name in front
of each line (as docs/runs/wdl-level19-rdc-std-n100-2026-12-02.txt): the sectors of DIR are
then compared with the baseline's last "level" line for them (plus 136 bytes of header and
trailer), so a run in progress can be compared sector for sector.
"""
import os
import re
import sys


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    d = sys.argv[1]
    base = {}
    if len(sys.argv) == 3:
        for line in open(sys.argv[2]):
            m = re.match(r"(\d+-\d+-\d+-\d+) level .*:\s+(\d+) bytes", line)
            if m:
                base[m.group(1)] = int(m.group(2)) + 136
    totals = {}
    for name in sorted(os.listdir(d)):
        m = re.fullmatch(r"(\d+)-(\d+)-(\d+)-(\d+)\.mbw", name)
        if not m:
            continue
        sector = name[:-4]
        phase = "moving" if m.group(3) == "0" and m.group(4) == "0" else "placing"
        path = os.path.join(d, name)
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            width = f.read(18)[17]
        t = totals.setdefault(phase, [0, 0, 0, 0])
        t[0] += 1
        t[1] += width == 8
        t[2] += size
        t[3] += base.get(sector, 0)
    for phase in ("moving", "placing"):
        n, wide, size, b = totals.get(phase, [0, 0, 0, 0])
        line = f"{phase}: {n} sectors ({wide} one symbol per byte), {size:,} bytes"
        if base:
            line += f"; baseline {b:,} bytes ({100 * (size - b) / max(b, 1):+.2f} %)"
        print(line)
    size = sum(t[2] for t in totals.values())
    print(f"all: {sum(t[0] for t in totals.values())} sectors, {size:,} bytes")


if __name__ == "__main__":
    main()
