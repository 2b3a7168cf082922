#!/usr/bin/env bash
# capture-fixtures.sh - regenerate the real-game screenshot fixtures in
# tests/fixtures/ (or DIR) deterministically: fixed seeds (LINKUP_SEED via
# fixseed.c), frozen clocks, and scripted clicks on known removable pairs.
#
#   tests/e2e/capture-fixtures.sh [--only GROUP] [DIR]
#   tests/e2e/capture-fixtures.sh --check [--only GROUP]
#                            # capture to a temp dir and compare with
#                            # tests/fixtures
# GROUP (a shell pattern) picks some of the groups: xshisen, kshisen (the
# default look), kshisen-tilesets, kshisen-backgrounds.
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
ONLY="*"
OUT="$FIXTURES"
while [ $# -gt 0 ]; do
    case "$1" in
        --check) CHECK=1; OUT="$(mktemp -d /tmp/linkup-fixtures.XXXXXX)"; shift ;;
        --only) ONLY="$2"; shift 2 ;;
        *) OUT="$1"; shift ;;
    esac
done
mkdir -p "$OUT"
# want GROUP: whether this run captures that group
# shellcheck disable=SC2053
want() { [[ "$1" == $ONLY ]]; }

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

if want xshisen; then
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
# 144 pairs chosen at random among the removable ones (border paths), 288 tiles left
play xs_click 0.3 <<'MOVES'
0 27 0 32
0 8 0 28
4 15 5 15
13 21 13 22
0 1 0 26
0 5 0 35
15 11 15 19
8 16 8 17
0 9 0 20
3 35 15 35
12 18 12 19
0 4 0 22
8 0 10 0
0 23 0 29
0 2 0 16
0 11 1 35
8 4 9 4
6 20 6 21
0 10 0 30
2 0 6 0
0 18 1 1
15 4 15 10
13 30 13 31
0 13 0 15
15 3 15 25
1 2 1 16
3 0 15 0
15 31 15 33
15 16 15 23
15 5 15 26
0 12 1 26
15 1 15 15
14 35 15 13
12 25 12 26
0 14 0 21
2 35 14 34
0 7 0 17
14 26 15 24
1 22 1 28
10 19 11 19
14 1 14 31
2 1 9 0
1 27 1 30
11 31 12 31
5 0 8 1
1 11 1 15
15 7 15 29
5 1 14 0
13 13 14 13
1 8 4 35
0 24 3 1
0 19 2 15
4 34 8 35
14 7 15 22
14 24 14 33
13 24 15 30
8 20 9 20
13 35 14 4
13 29 14 29
12 13 14 19
8 15 8 18
5 7 5 8
2 28 2 30
5 2 14 2
0 33 3 15
14 11 15 34
7 18 9 15
14 5 14 15
13 4 15 9
10 31 13 26
12 29 14 16
6 8 6 9
0 25 4 14
1 14 1 24
13 19 14 10
12 12 12 14
1 34 6 35
11 13 15 32
1 23 3 28
12 24 13 15
11 26 13 25
0 3 2 2
1 3 1 10
13 11 14 23
13 14 13 16
9 19 13 5
8 19 14 3
9 17 10 20
13 10 13 34
12 10 14 9
13 0 15 27
11 24 13 1
1 5 4 28
1 18 1 33
4 33 5 34
11 12 15 12
13 9 15 6
13 3 13 23
0 31 2 33
0 6 2 18
14 32 15 2
14 27 15 28
7 19 10 13
12 34 15 18
12 0 15 17
13 12 14 8
10 26 11 27
6 18 7 16
14 18 14 25
8 21 13 20
13 33 14 17
7 20 10 21
0 0 1 31
11 34 12 3
10 24 12 15
2 22 6 15
12 16 14 30
1 21 2 3
11 10 13 27
1 7 7 15
2 21 3 33
3 16 7 14
2 7 3 18
4 7 6 7
10 23 10 25
10 10 13 2
11 11 11 14
1 25 3 29
2 19 4 18
10 34 11 29
9 25 11 25
12 4 12 27
5 14 9 14
2 14 6 14
9 24 12 20
10 35 13 32
5 13 5 16
13 18 15 14
7 0 13 6
6 19 7 17
11 3 13 7
6 34 13 28
3 13 3 14
2 24 3 22
MOVES
shot xshisen-huge-mid-16x36
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

fi

if want kshisen; then
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
fi

# ------------------------------------------------------------ kshisen looks
# Every tileset and background kmahjongg ships (kdegames-mahjongg-data-kf5)
# other than kshisen's own defaults (tileset "default", background
# "egyptian": the fixtures above), each at Size=2 (8x18) and Size=3 (12x24),
# one seed per capture.  Stems say tileset-NAME or background-NAME
# ("_" in kmahjongg's names becomes "-").
# ks_start SEED SIZE --tileset NAME | --background NAME
ks_start() {
    local seed="$1" size="$2"; shift 2
    eval "$(LINKUP_SEED=$seed desktop_start_kshisen --size "$size" --gravity false "$@")"
    WIN="$WINDOW"
}
# ks_fresh STEM SEED SIZE OPTION NAME: start, capture the fresh deal, stop
ks_fresh() {
    local stem="$1"; shift
    ks_start "$@"
    shot "$stem"
    desktop_stop_game kshisen
}

# ks_mid STEM SEED OX OY PX PY OPTION NAME: start the Size=2 game again
# (cell (0,0) at OX,OY, pitch PX x PY), remove the pairs read from stdin
# ("r1 c1 r2 c2" lines), capture, stop
ks_mid() {
    local stem="$1" seed="$2"
    KS_OX="$3"; KS_OY="$4"; KS_PX="$5"; KS_PY="$6"
    shift 6
    ks_start "$seed" 2 "$@"
    play ks_click 1.0
    shot "$stem"
    desktop_stop_game kshisen
}

if want kshisen-tilesets; then
seed=11
for tileset in traditional classic egypt jade alphabet; do
    ks_fresh "kshisen-tileset-$tileset-fresh-8x18" "$seed" 2 --tileset "$tileset"
    ks_fresh "kshisen-tileset-$tileset-fresh-12x24" $((seed + 10)) 3 --tileset "$tileset"
    seed=$((seed + 1))
done
# mid-game: the 8x18 deals above again, 36 pairs removed (the first 36 moves
# of `linkup plan GRID --planner` on the fresh grid), 72 tiles left
ks_mid kshisen-tileset-traditional-mid-8x18 11 40 108 40 52 --tileset traditional <<'MOVES'
0 2 0 15
0 5 0 7
0 6 0 11
0 8 0 13
0 9 1 13
0 10 0 12
1 5 1 6
1 8 1 12
1 9 2 9
1 11 2 11
1 14 2 13
2 6 3 6
3 9 0 4
3 10 4 10
4 6 0 3
4 7 2 7
4 9 1 7
5 6 0 0
5 9 3 7
5 10 1 4
6 0 7 0
6 5 7 5
6 14 6 15
7 8 7 13
7 9 5 0
7 10 6 13
0 1 5 1
0 17 1 3
1 0 2 5
1 1 4 0
1 15 5 7
2 4 2 15
6 8 7 7
7 14 5 8
7 16 6 7
1 2 7 11
MOVES
ks_mid kshisen-tileset-jade-mid-8x18 14 40 124 40 48 --tileset jade <<'MOVES'
0 2 0 16
7 9 7 13
2 0 5 0
3 14 3 15
5 1 5 2
6 0 7 0
1 4 2 4
4 0 7 2
6 9 6 10
0 10 1 2
6 11 7 10
6 2 7 5
0 14 1 14
0 7 2 14
0 15 0 17
6 8 7 11
5 11 7 14
4 11 7 8
1 7 1 15
1 17 2 15
4 2 5 8
3 2 5 9
0 1 0 4
1 16 2 2
0 6 2 17
4 9 6 12
4 12 7 7
4 3 7 3
6 3 7 12
6 7 7 17
0 13 7 16
4 8 5 3
6 16 7 4
0 3 7 6
0 0 1 6
1 13 2 6
MOVES
ks_mid kshisen-tileset-alphabet-mid-8x18 15 37 114 40 50 --tileset alphabet <<'MOVES'
0 8 0 15
0 9 1 15
0 11 2 15
0 12 0 17
0 16 1 14
1 0 6 0
1 8 0 0
1 9 0 7
1 12 2 8
2 0 4 0
2 7 3 8
2 12 0 1
3 0 6 1
4 1 1 1
4 2 2 1
7 1 7 15
7 6 6 15
7 7 7 8
0 3 3 1
1 7 5 1
3 7 1 3
3 9 1 6
4 7 0 14
4 8 3 6
4 9 2 6
4 10 2 5
4 11 3 10
4 12 5 9
5 7 5 11
5 8 4 6
6 8 2 4
0 13 2 17
1 13 0 4
2 13 1 4
2 16 3 17
3 4 1 11
MOVES
fi

if want kshisen-backgrounds; then
seed=31
for background in default chinese_landscape color_plain summerfield wood_light; do
    name="${background//_/-}"
    ks_fresh "kshisen-background-$name-fresh-8x18" "$seed" 2 --background "$background"
    ks_fresh "kshisen-background-$name-fresh-12x24" $((seed + 10)) 3 --background "$background"
    seed=$((seed + 1))
done
fi

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
