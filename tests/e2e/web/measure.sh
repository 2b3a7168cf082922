#!/usr/bin/env bash
# measure.sh [N] [OUTDIR]
# Shoot N (default 40) screenshots of onet.html over a spread of options
# (seeds, styles, gap, tile size, dots, sparse, background, page size, board
# size), run `linkup solve --json` on each and compare its grid with the truth
# up to a renaming of kinds (0 = empty in both).  One line per shot, then a
# summary.  Env: LINKUP (default the release build, target/release/linkup);
# MEASURE_SEED (default 20240601, the spread looked at) deals other shots and
# seeds, for figures on deals never looked at.  Shots are kept in OUTDIR
# (default /tmp/onet-web-measure): NN.png, NN.truth.txt/json, NN.linkup.json/err.
# Verdicts: OK, NO-BOARD (linkup found none), WRONG-SIZE (rows x cols differ),
# EXTRA-EMPTY (every cell right, plus extra rows/cols read, all empty),
# WRONG-CELLS (size right, some cells not matching under the best renaming;
# "merged" = one linkup kind covering several true kinds, "split" = one true
# kind read as several linkup kinds).
set -euo pipefail
n="${1:-40}"; outdir="${2:-/tmp/onet-web-measure}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
linkup="${LINKUP:-$here/../../../target/release/linkup}"
[ -x "$linkup" ] || { echo "measure.sh: no linkup at $linkup" >&2; exit 1; }
mkdir -p "$outdir"

# the option spread: each option's values are dealt evenly over the N shots
# and paired at random (fixed RNG seed, so the same N gives the same shots)
python3 - "$n" "${MEASURE_SEED:-20240601}" >"$outdir/queries.txt" <<'PY'
import random, sys
n, base = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(base)
opts = dict(style=["letters", "colours", "glyphs", "emoji"], gap=[0, 2, 6], tile=[32, 48, 64],
            dots=[0, 1], sparse=[0, 0.5], bg=["white", "grey", "gradient"],
            size=["1024x768", "1280x1024"], board=["8x12", "8x12", "6x8", "10x16"])
cols = {}
for k, vals in opts.items():
    deal = (vals * (n // len(vals) + 1))[:n]
    rng.shuffle(deal)
    cols[k] = deal
for i in range(n):
    o = {k: cols[k][i] for k in opts}
    w, h = map(int, o["size"].split("x"))
    r, c = map(int, o["board"].split("x"))
    p = o["tile"] + o["gap"]
    while 60 + c * p > w or 150 + r * p > h:      # keep the board on the page
        r, c = r - 2, c - 4
    print("seed=%d&rows=%d&cols=%d&style=%s&gap=%d&tile=%d&dots=%d&sparse=%s&bg=%s %s" % (
        (1000 if base == 20240601 else base % 100000) + 7 * i, r, c, o["style"], o["gap"], o["tile"], o["dots"], o["sparse"], o["bg"], o["size"]))
PY

i=0
while read -r q sz; do
    f="$outdir/$(printf %02d "$i")"; i=$((i + 1))
    "$here/shot.sh" "$f.png" "$q" "$sz" </dev/null
    "$linkup" solve --json "$f.png" >"$f.linkup.json" 2>"$f.linkup.err" </dev/null || true
    echo "$f|$q&size=$sz"
done <"$outdir/queries.txt" >"$outdir/list.txt"

python3 - "$outdir/list.txt" <<'PY'
import json, sys
from collections import Counter

def compare(truth, got):
    """cells right under the best kind renaming (greedy by overlap, injective, 0<->0)"""
    tg, lg = truth["grid"], got["grid"]
    R, C = truth["rows"], truth["cols"]
    # align linkup's grid onto the truth's by origin (it may have found a sub/superset)
    p = truth["pitch"][0]
    dr = round((got["origin"][1] - truth["origin"][1]) / p)
    dc = round((got["origin"][0] - truth["origin"][0]) / p)
    pairs = Counter()
    for r in range(R):
        for c in range(C):
            lr, lc = r - dr, c - dc
            lk = lg[lr][lc] if 0 <= lr < len(lg) and 0 <= lc < len(lg[0]) else None
            pairs[(lk, tg[r][c])] += 1
    m, used = {0: 0}, {0}
    for (lk, tk), k in pairs.most_common():
        if lk is None or lk in m or tk in used or (lk == 0) != (tk == 0):
            continue
        m[lk] = tk
        used.add(tk)
    right = sum(k for (lk, tk), k in pairs.items() if lk is not None and m.get(lk) == tk)
    fwd, back = {}, {}
    for (lk, tk) in pairs:
        if lk is not None:
            fwd.setdefault(lk, set()).add(tk)
            back.setdefault(tk, set()).add(lk)
    merged = sum(1 for v in fwd.values() if len(v) > 1)
    split = sum(1 for v in back.values() if len(v) > 1)
    inside = {(r - dr, c - dc) for r in range(R) for c in range(C)}
    extra_empty = all(lg[r][c] == 0 for r in range(len(lg)) for c in range(len(lg[0])) if (r, c) not in inside)
    return right, R * C, merged, split, extra_empty

tally, by = Counter(), {}
for line in open(sys.argv[1]):
    f, q = line.rstrip("\n").split("|")
    truth = json.load(open(f + ".truth.json"))
    opts = dict(kv.split("=") for kv in q.split("&"))
    label = ("{size:>9} {rows:>2}x{cols:<2} {style:<7} tile={tile:<2} gap={gap} dots={dots} "
             "sparse={sparse:<3} bg={bg:<8} seed={seed}").format(**opts)
    try:
        got = json.load(open(f + ".linkup.json"))
    except Exception:
        err = open(f + ".linkup.err").read().strip().splitlines()
        verdict, right, cells = "NO-BOARD", 0, truth["rows"] * truth["cols"]
        extra = err[-1][:100] if err else ""
    else:
        right, cells, merged, split, extra_empty = compare(truth, got)
        geo = "origin %+.0f,%+.0f pitch %.1f" % (got["origin"][0] - truth["origin"][0],
                                                  got["origin"][1] - truth["origin"][1], got["pitch"][0])
        if (got["rows"], got["cols"]) != (truth["rows"], truth["cols"]) and right == cells and extra_empty:
            verdict, extra = "EXTRA-EMPTY", "read %dx%d, all extra cells empty, %s" % (got["rows"], got["cols"], geo)
        elif (got["rows"], got["cols"]) != (truth["rows"], truth["cols"]):
            verdict, extra = "WRONG-SIZE", "read %dx%d, %s" % (got["rows"], got["cols"], geo)
        elif right != cells:
            verdict, extra = "WRONG-CELLS", "%d merged, %d split kinds; %s" % (merged, split, geo)
        else:
            verdict, extra = "OK", ""
    tally[verdict] += 1
    for k in ("style", "gap", "tile", "dots", "sparse", "bg", "size"):
        by.setdefault((k, opts[k]), Counter())[verdict == "OK"] += 1
    print("%s  %-11s %3d/%-3d %s" % (label, verdict, right, cells, extra))
print()
print("summary: %d shots: " % sum(tally.values()) + ", ".join("%s %d" % kv for kv in sorted(tally.items())))
print("OK by option: " + "  ".join("%s=%s %d/%d" % (k, v, c[True], c[True] + c[False])
                                   for (k, v), c in sorted(by.items())))
PY
