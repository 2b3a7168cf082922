#!/usr/bin/env bash
# capture-fixtures.sh - regenerate the real-game screenshot fixtures in
# tests/fixtures/ (or DIR) deterministically: fixed seeds (LINKUP_SEED via
# fixseed.c), frozen clocks, and scripted clicks on known removable pairs.
#
#   tests/e2e/capture-fixtures.sh [DIR]
#   tests/e2e/capture-fixtures.sh --check     # capture to a temp dir and
#                                             # compare with tests/fixtures
# Only the PNGs are produced; the .grid.txt files are hand-checked and
# committed (the move lists below were planned from them).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FIXTURES="$(cd "$HERE/../fixtures" && pwd)"
# separate state dir so we never touch a desktop started by someone else
export LINKUP_DESKTOP_DIR="${LINKUP_DESKTOP_DIR:-$(mktemp -d /tmp/linkup-capture.XXXXXX)}"
unset DISPLAY
# shellcheck source=desktop.sh
source "$HERE/desktop.sh"

CHECK=0
OUT="$FIXTURES"
if [ "${1:-}" = --check ]; then
    CHECK=1
    OUT="$(mktemp -d /tmp/linkup-fixtures.XXXXXX)"
elif [ -n "${1:-}" ]; then
    OUT="$1"
fi
mkdir -p "$OUT"

cleanup() { desktop_stop; }
trap cleanup EXIT
desktop_start_display >/dev/null

WIN=""
# xshisen geometry: cell (r,c) spans x 32+32c .. +31, y 94+40r .. +39
xs_click() { desktop_click "$WIN" $((32 + 32 * $2 + 16)) $((94 + 40 * $1 + 20)); }
# kshisen geometry (800x600 window): set KS_OX KS_OY KS_PX KS_PY
ks_click() { desktop_click "$WIN" $((KS_OX + KS_PX * $2 + KS_PX / 2)) $((KS_OY + KS_PY * $1 + KS_PY / 2)); }

# play "r1 c1 r2 c2" lines from stdin with click function $1, pause $2 s
play() {
    local fn="$1" pause="$2" r1 c1 r2 c2
    while read -r r1 c1 r2 c2; do
        [ -n "$r1" ] || continue
        "$fn" "$r1" "$c1"; sleep 0.15
        "$fn" "$r2" "$c2"; sleep "$pause"
    done
}

shot() { # shot NAME [root]
    desktop_park_pointer
    sleep 0.3
    desktop_wait_stable "$WIN"
    if [ "${2:-}" = root ]; then
        desktop_screenshot "$OUT/$1.png" root
    else
        desktop_screenshot "$OUT/$1.png" "$WIN"
    fi
    echo "captured $1" >&2
}

start_xs() { # start_xs SEED ARGS...
    local seed="$1"; shift
    eval "$(LINKUP_SEED=$seed desktop_start_xshisen -ctime 100 "$@")"
    WIN="$WINDOW"
}
new_game_xs() { desktop_key "$WIN" ctrl+d; sleep 1; }

# ------------------------------------------------------------ xshisen 8x18
start_xs 1
shot xshisen-sorted-8x18
new_game_xs
shot xshisen-fresh-8x18
play xs_click 0.4 <<'MOVES'
0 5 0 17
4 6 4 7
0 0 4 0
2 8 3 8
5 0 7 0
2 0 7 1
1 8 3 9
6 0 7 4
2 1 4 1
4 13 4 14
0 4 1 17
1 13 2 13
6 4 7 9
7 12 7 14
6 3 6 5
3 13 5 14
7 3 7 15
7 7 7 17
0 13 1 4
0 1 5 1
4 5 5 7
1 7 2 9
0 10 5 13
0 8 0 15
2 2 7 2
2 3 7 5
1 3 3 2
2 14 6 13
2 15 4 15
2 16 4 16
2 12 2 17
1 16 2 11
0 16 3 11
3 16 4 17
2 10 6 17
3 10 3 14
MOVES
shot xshisen-mid-8x18
xs_click 0 3     # select one tile (a 4-circles tile that still has partners)
shot xshisen-selected-8x18
desktop_stop_game xshisen

# ------------------------------------------------------------ xshisen -large
start_xs 2 -large
new_game_xs
shot xshisen-large-fresh-12x24
play xs_click 0.4 <<'MOVES'
0 9 0 18
4 18 4 19
11 21 11 22
6 9 6 10
11 1 11 14
10 17 11 17
4 10 4 11
6 5 7 5
3 19 5 18
9 11 9 12
1 4 1 5
10 14 11 4
8 9 9 9
7 22 8 22
2 2 2 3
11 9 11 19
2 12 2 13
10 21 11 10
10 4 11 3
0 1 0 19
5 10 6 8
6 22 7 23
0 11 0 17
3 21 3 22
10 9 11 12
11 6 11 20
10 3 11 11
10 16 11 18
6 4 6 6
2 1 3 1
2 0 5 0
1 22 2 22
8 18 8 19
1 2 2 4
10 12 11 0
8 12 9 4
7 12 9 17
7 9 11 15
0 2 1 17
10 10 10 22
10 20 11 13
8 17 9 3
10 0 10 11
0 15 1 11
6 7 9 10
5 9 9 21
10 1 10 18
6 11 11 16
8 21 9 0
8 4 11 2
6 0 10 2
8 10 11 7
0 22 1 15
3 0 10 5
1 9 4 22
7 4 7 11
0 0 2 15
0 3 5 1
1 1 5 22
8 11 9 8
8 20 10 19
6 12 8 8
0 4 7 0
6 3 9 5
7 10 8 5
3 2 4 0
5 21 9 22
0 5 4 2
9 2 9 18
8 3 9 6
5 3 5 7
6 2 10 13
MOVES
shot xshisen-large-mid-12x24
desktop_stop_game xshisen

# ------------------------------------------------------------ xshisen -huge
start_xs 3 -huge
new_game_xs
shot xshisen-huge-fresh-16x36
desktop_stop_game xshisen

# ------------------------------------------------------------ xshisen -gravity
start_xs 4 -gravity
new_game_xs
play xs_click 1.0 <<'MOVES'
0 9 0 17
3 17 7 17
7 0 7 8
7 3 7 8
0 13 3 17
1 9 1 13
1 0 5 0
2 8 3 0
0 7 1 7
0 10 0 12
5 4 5 5
2 9 3 8
3 16 5 17
0 14 1 5
0 11 0 15
1 11 4 8
1 4 5 8
6 3 7 3
3 3 4 0
0 2 3 4
1 12 3 4
7 4 7 12
7 4 7 6
2 7 2 11
2 5 3 7
7 8 7 13
1 6 1 10
1 15 4 3
5 7 5 9
1 14 3 2
3 11 5 7
1 16 3 16
4 11 5 11
7 3 7 7
6 4 6 11
3 16 6 3
MOVES
shot xshisen-gravity-mid-8x18
desktop_stop_game xshisen

# ------------------------------------------------------------ whole screen
start_xs 5 -geometry +200+150
new_game_xs
shot xshisen-screen-offset-1280x1024 root
desktop_stop_game xshisen

# ------------------------------------------------------------ kshisen size 2
eval "$(LINKUP_SEED=1 desktop_start_kshisen --size 2 --gravity false)"
WIN="$WINDOW"; KS_OX=40; KS_OY=108; KS_PX=40; KS_PY=52
shot kshisen-fresh-8x18
play ks_click 1.0 <<'MOVES'
0 3 0 16
0 4 0 6
7 2 7 7
0 2 0 10
6 2 7 8
6 16 7 16
6 14 6 15
7 3 7 12
5 2 7 10
4 2 7 4
6 3 6 10
1 2 2 2
4 1 6 1
0 5 1 6
5 3 6 8
6 12 7 17
6 7 7 9
1 3 3 2
0 1 7 1
3 3 4 0
0 7 7 0
5 7 6 9
4 7 7 11
0 0 5 4
0 17 1 7
4 4 5 1
1 17 2 6
0 8 7 5
1 16 2 17
3 1 5 10
2 1 3 0
4 10 7 6
3 10 5 12
3 4 7 13
6 5 6 13
2 3 7 14
MOVES
shot kshisen-mid-8x18
ks_click 0 9     # select the 4-characters tile at the top
shot kshisen-selected-8x18
desktop_stop_game kshisen

# ------------------------------------------------------------ kshisen size 3
eval "$(LINKUP_SEED=2 desktop_start_kshisen --size 3 --gravity false)"
WIN="$WINDOW"
shot kshisen-fresh-12x24
desktop_stop_game kshisen

if [ $CHECK = 1 ]; then
    status=0
    for f in "$OUT"/*.png; do
        b="$(basename "$f")"
        if [ ! -f "$FIXTURES/$b" ]; then
            echo "NEW   $b"; continue
        fi
        ae="$(compare -metric AE "$f" "$FIXTURES/$b" null: 2>&1 || true)"
        if [ "$ae" = 0 ]; then echo "same  $b"; else echo "DIFF  $b ($ae pixels)"; status=1; fi
    done
    rm -rf "$OUT"
    exit $status
fi
