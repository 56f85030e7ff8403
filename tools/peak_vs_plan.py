#!/usr/bin/env python3
"""Measured against planned: time and peak memory per component of a Snakemake run.

Usage:
    millbase plan --variant V --json [SECTOR...] > plan.json
    tools/peak_vs_plan.py plan.json WORKDIR/logs/V [--markdown]
    tools/peak_vs_plan.py plan.json GENERATE.log [--markdown]

Reads each component's job log (`logs/<variant>/<first sector>.log`, written by
`millbase generate --no-deps`: "A + B: N positions in S s (...), peak memory M MiB"), or
the lines of one `millbase generate` run's output, and
prints, per component solved, the plan's estimated seconds and memory next to the measured
ones, then the components whose peak exceeded the estimate and the largest peaks.
"""

import json
import re
import sys
from pathlib import Path

LINE = re.compile(
    r"^(?P<sectors>[0-9+ -]+): (?P<pos>\d+) positions in (?P<secs>[0-9.]+) s .*?"
    r"peak memory (?P<mib>\d+) MiB"
)


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in sys.argv
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    plan = json.loads(Path(args[0]).read_text())
    logs = Path(args[1])
    rows = []
    # One generate run's output: its component lines by their first sector.
    run_lines = {}
    if logs.is_file():
        for line in logs.read_text().splitlines():
            m = LINE.match(line)
            if m:
                run_lines.setdefault(m["sectors"].split(" + ")[0].strip(), []).append(line)
    for c in plan["components"]:
        first = c["sectors"][0]
        if logs.is_file():
            lines = run_lines.get(first, [])
        else:
            log = logs / f"{first}.log"
            lines = log.read_text().splitlines() if log.exists() else []
        for line in lines:
            m = LINE.match(line)
            if m:
                rows.append(
                    (
                        " + ".join(c["sectors"]),
                        sum(c["positions"]),
                        c["estimated_seconds"],
                        float(m["secs"]),
                        c["estimated_memory_bytes"] / 2**20,
                        int(m["mib"]),
                    )
                )
    if not rows:
        print(f"no solved component's log in {logs}", file=sys.stderr)
        return 1
    if markdown:
        print("| component | positions | est. time | time | est. peak MiB | peak MiB | peak/est. |")
        print("|---|---:|---:|---:|---:|---:|---:|")
    else:
        print(f"{'component':<24} {'positions':>13} {'est s':>8} {'s':>8} {'est MiB':>9} {'MiB':>7} {'ratio':>6}")
    for name, pos, est_s, s, est_m, m in sorted(rows, key=lambda r: -r[5])[:25]:
        ratio = m / max(est_m, 1)
        if markdown:
            print(f"| {name} | {pos:,} | {est_s:.0f} s | {s:.0f} s | {est_m:,.0f} | {m:,} | {ratio:.2f} |")
        else:
            print(f"{name:<24} {pos:>13} {est_s:>8.1f} {s:>8.1f} {est_m:>9.0f} {m:>7} {ratio:>6.2f}")
    # What a workflow job asks for (src/cli/workflow.rs, mem_mb): the estimate with a fifth
    # more, plus 256 MB for the program. A peak above it would have the job killed.
    over = [r for r in rows if r[5] > r[4] * 1.2 + 256 * 1e6 / 2**20]
    total_est = sum(r[2] for r in rows)
    total = sum(r[3] for r in rows)
    print(
        f"\n{len(rows)} components; time {total:.0f} s measured against {total_est:.0f} s estimated; "
        f"largest peak {max(r[5] for r in rows)} MiB against {max(r[4] for r in rows):.0f} MiB estimated; "
        f"{len(over)} components above the memory a workflow job asks for (the estimate + 20 % + 256 MB)"
        + "".join(f"\n  over: {r[0]}: {r[5]} MiB against {r[4]:.0f} MiB estimated" for r in over)
    )
    if logs.is_file():
        print(
            "(one generate run: a component's peak includes the memory the process kept from "
            "earlier components, so small components show that floor; a workflow job is a "
            "fresh process)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
