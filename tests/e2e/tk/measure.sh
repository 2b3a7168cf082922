#!/usr/bin/env bash
# measure.sh [OUTDIR] [N]
#
# How well does linkup read a board drawn by a toolkit it was not tuned on?
# Shoots the Tk Shisen-Sho game (shot.sh) over a spread of options and
# compares `linkup solve --json` with the game's truth (compare.py: grid up
# to a renaming of kinds, rows/cols).  One line per shot, then a summary
# and the failure rate by option.  The 36 shots are every combination of
# board (6x14, 8x18, 4x8) x tile (32x42, 40x52, 56x72) x gap (0, 3) x
# wallpaper (none, a photo) with sparse 0 / 0.6 alternating (a half
# fraction: each pair of options is balanced); seeds SEED_BASE+1.. (SEED_BASE
# 100 by default: the seeds looked at; take another base for figures on deals
# never looked at). N takes the first N.  LINKUP (default the release build,
# target/release/linkup) is the binary measured.
#
# Leaves OUTDIR/NN.png, NN.truth.txt, NN.json, NN.err and results.txt.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-/tmp/tk-shisen-measure}"
max="${2:-999}"
linkup="${LINKUP:-$here/../../../target/release/linkup}"
wall="${WALLPAPER:-/usr/local/share/linkup-art/desktop-base/softwaves.png}"
mkdir -p "$out"
[ -x "$linkup" ] || { echo "measure.sh: no linkup binary at $linkup" >&2; exit 1; }
[ -f "$wall" ] || { echo "measure.sh: no wallpaper $wall" >&2; exit 1; }
if [ -z "${DISPLAY:-}" ]; then
    eval "$("$here/../desktop.sh" start-display)"
fi

res="$out/results.txt"
: >"$res"
i=0
for board in 6x14 8x18 4x8; do
    for tile in 32x42 40x52 56x72; do
        for gap in 0 3; do
            for w in 0 1; do
                [ $i -lt "$max" ] || break 4
                i=$((i + 1))
                n=$(printf %02d $i)
                rows=${board%x*} cols=${board#*x}
                # sparse 0.6 on every other combination (by the parity of the
                # option indices), so that each pair of options is balanced
                case $board in 6x14) bi=0 ;; 8x18) bi=1 ;; 4x8) bi=2 ;; esac
                case $tile in 32x42) ti=0 ;; 40x52) ti=1 ;; 56x72) ti=2 ;; esac
                gi=$((gap > 0))
                sparse=0
                [ $(((bi + ti + gi + w) % 2)) = 1 ] && sparse=0.6
                seed=$((${SEED_BASE:-100} + i))
                args=(-rows "$rows" -cols "$cols" -tile "$tile" -gap "$gap" -sparse "$sparse" -seed "$seed")
                wl=none
                if [ $w = 1 ]; then args+=(-wallpaper "$wall"); wl=photo; fi
                label="$n board=$board tile=$tile gap=$gap wall=$wl sparse=$sparse seed=$seed"
                if ! "$here/shot.sh" "$out/$n.png" "${args[@]}" >/dev/null 2>"$out/$n.shot.err"; then
                    echo "$label shot-failed $(head -1 "$out/$n.shot.err")" | tee -a "$res"
                    continue
                fi
                "$linkup" solve --json "$out/$n.png" >"$out/$n.json" 2>"$out/$n.err"
                line="$(python3 "$here/compare.py" "$out/$n.truth.txt" "$out/$n.json" "$label")"
                if [ ! -s "$out/$n.json" ]; then
                    line="$line ($(head -c 160 "$out/$n.err" | tr '\n' ' '))"
                fi
                echo "$line" | tee -a "$res"
            done
        done
    done
done

echo
echo "== summary"
python3 - "$res" <<'EOF'
import re, sys
from collections import Counter, defaultdict
lines = [l for l in open(sys.argv[1]) if l.strip()]
verdicts = Counter()
by = defaultdict(lambda: [0, 0])
for l in lines:
    m = re.match(r"(\d+) (.*?) (ok|no-board|wrong-size|all-empty|wrong-cells|shot-failed)\b", l)
    if not m:
        continue
    v = m.group(3)
    verdicts[v] += 1
    for kv in m.group(2).split():
        k = kv.split("=")[0]
        if k == "seed":
            continue
        by[kv][0] += 1
        by[kv][1] += v != "ok"
n = sum(verdicts.values())
print(f"shots {n}: " + ", ".join(f"{k} {v}" for k, v in verdicts.most_common()))
print("failures by option:")
for kv in sorted(by):
    t, f = by[kv]
    print(f"  {kv:16s} {f}/{t} fail")
EOF
