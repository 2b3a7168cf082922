#!/usr/bin/env python3
"""compare.py TRUTH.txt LINKUP.json|- [LABEL]

Compares the grid linkup read (`linkup solve --json`) with the game's truth
file (written by shisen.tcl -truth), up to a renaming of kinds: linkup's ids
must map one-to-one onto the truth's kinds, and empty is 0 in both.

Prints one line: LABEL VERDICT details, where VERDICT is one of
  ok          same rows/cols, every cell right
  no-board    linkup printed no JSON (it found no board / failed)
  wrong-size  rows/cols differ (and are not just the truth without its
              all-empty edge rows/columns, which no screenshot shows; then the
              grid is compared with the truth cut to the box of its tiles)
  all-empty   linkup's grid has no tiles
  wrong-cells some cells differ (missed = tile read as empty, phantom =
              empty read as a tile, kind = tile of another kind, after the
              best one-to-one renaming)
and after it the geometry linkup found against the truth (origin, pitch).
Exit status 0 for ok, 1 otherwise.
"""
import json
import sys
from collections import Counter


def read_truth(path):
    t = {}
    grid = []
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        parts = lines[i].split()
        i += 1
        if not parts:
            continue
        if parts[0] == "grid":
            grid = [[int(x) for x in l.split()] for l in lines[i:] if l.strip()]
            break
        t[parts[0]] = [int(x) for x in parts[1:]]
    t["grid"] = grid
    return t


def best_bijection(pairs):
    """pairs: Counter of (truth kind, linkup id) over tiles both see as a tile.
    Greedy maximum: take the most frequent pairs first, one-to-one."""
    used_t, used_l, m = set(), set(), {}
    for (tk, lk), _ in sorted(pairs.items(), key=lambda kv: -kv[1]):
        if tk in used_t or lk in used_l:
            continue
        m[tk] = lk
        used_t.add(tk)
        used_l.add(lk)
    return m


def main():
    truth = read_truth(sys.argv[1])
    src = sys.argv[2]
    label = sys.argv[3] if len(sys.argv) > 3 else ""
    text = sys.stdin.read() if src == "-" else open(src).read()
    R, C = truth["rows"][0], truth["cols"][0]
    ntiles = sum(1 for row in truth["grid"] for v in row if v)
    try:
        got = json.loads(text)
    except ValueError:
        print(f"{label} no-board tiles={ntiles}")
        return 1
    geo = ""
    if "origin" in got and "pitch" in got:
        ox, oy = got["origin"]
        px, py = got["pitch"]
        to, tp = truth["origin"], truth["pitch"]
        geo = (f" origin={ox:.0f},{oy:.0f}(truth {to[0]},{to[1]})"
               f" pitch={px:.1f}x{py:.1f}(truth {tp[0]}x{tp[1]})")
    gr, gc = got.get("rows"), got.get("cols")
    g = got.get("grid") or []
    cropped = ""
    if (gr, gc) != (R, C):
        # rows/columns at the board's edge that are all empty cannot be seen:
        # compare with the truth cut to the box of its tiles, if that fits
        occ_r = [r for r in range(R) if any(truth["grid"][r])]
        occ_c = [c for c in range(C) if any(truth["grid"][r][c] for r in range(R))]
        box = (occ_r[-1] - occ_r[0] + 1, occ_c[-1] - occ_c[0] + 1) if occ_r else (0, 0)
        if occ_r and (gr, gc) == box:
            truth["grid"] = [row[occ_c[0]:occ_c[-1] + 1]
                             for row in truth["grid"][occ_r[0]:occ_r[-1] + 1]]
            cropped = f" (truth {R}x{C} has empty edge lines; compared with its {gr}x{gc} box)"
            R, C = gr, gc
        else:
            print(f"{label} wrong-size read={gr}x{gc} truth={R}x{C} tiles={ntiles}{geo}")
            return 1
    if not any(v for row in g for v in row):
        print(f"{label} all-empty truth={R}x{C} tiles={ntiles}{geo}")
        return 1
    pairs = Counter()
    for r in range(R):
        for c in range(C):
            t, l = truth["grid"][r][c], g[r][c]
            if t and l:
                pairs[(t, l)] += 1
    m = best_bijection(pairs)
    missed = phantom = kind = 0
    cells = []
    for r in range(R):
        for c in range(C):
            t, l = truth["grid"][r][c], g[r][c]
            if t and not l:
                missed += 1
            elif l and not t:
                phantom += 1
            elif t and l and m.get(t) != l:
                kind += 1
            else:
                continue
            cells.append(f"({r},{c}):{t}>{l}")
    bad = missed + phantom + kind
    nk_t = len({v for row in truth["grid"] for v in row if v})
    nk_l = len({v for row in g for v in row if v})
    if bad == 0:
        print(f"{label} ok {R}x{C} tiles={ntiles} kinds={nk_t}{geo}{cropped}")
        return 0
    print(f"{label} wrong-cells bad={bad}/{R * C} missed={missed} phantom={phantom}"
          f" kind={kind} kinds truth={nk_t} read={nk_l} tiles={ntiles}{geo}{cropped}"
          f" cells(truth>read)={' '.join(cells[:8])}{' ...' if len(cells) > 8 else ''}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
