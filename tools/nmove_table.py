#!/usr/bin/env python3
"""Per-sector table of a directory solved under the N-move rule, from `millbase stats --json`.

Usage: millbase stats --dir DIR --json | tools/nmove_table.py [--moving]

Prints a Markdown table (one row per sector: wins, cursed wins, draws, blessed losses, losses,
longest DTR of a win and of a loss) and the totals, and checks that every row adds up.
With --moving only moving-phase sectors (nothing in hand) are listed.
"""
import json
import sys


def main():
    rows = json.load(sys.stdin)
    if "--moving" in sys.argv[1:]:
        rows = [r for r in rows if r["sector"].endswith("-0-0")]
    if not rows:
        sys.exit("no sectors")
    n = rows[0]["n_move_rule"]
    keys = ["positions", "wins", "cursed_wins", "draws", "blessed_losses", "losses"]
    total = dict.fromkeys(keys, 0)
    longest_win = longest_loss = (0, "")
    print(f"N = {n}\n")
    print("| sector | positions | wins | cursed wins | draws | blessed losses | losses "
          "| longest win (DTR) | longest loss (DTR) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        assert r["n_move_rule"] == n, r
        parts = sum(r[k] for k in keys[1:])
        assert parts == r["positions"], f"{r['sector']}: {parts} != {r['positions']}"
        for k in keys:
            total[k] += r[k]
        name = r["sector"].removesuffix("-0-0")
        mw, ml = r["max_win"], r["max_loss"]
        if mw is not None and mw > longest_win[0]:
            longest_win = (mw, name)
        if ml is not None and ml > longest_loss[0]:
            longest_loss = (ml, name)
        cells = [f"{r[k]:,}" for k in keys]
        cells += ["-" if mw is None else str(mw), "-" if ml is None else str(ml)]
        print(f"| {name} | " + " | ".join(cells) + " |")
    cells = [f"**{total[k]:,}**" for k in keys]
    cells += [f"**{longest_win[0]}** ({longest_win[1]})", f"**{longest_loss[0]}** ({longest_loss[1]})"]
    print(f"| **all {len(rows)}** | " + " | ".join(cells) + " |")
    print()
    print(f"decided without the rule: wins + cursed wins = {total['wins'] + total['cursed_wins']:,}, "
          f"losses + blessed losses = {total['losses'] + total['blessed_losses']:,}, draws = {total['draws']:,}")


if __name__ == "__main__":
    main()
