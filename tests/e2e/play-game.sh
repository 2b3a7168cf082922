#!/usr/bin/env bash
# play-game.sh - one end-to-end game: start a real game under Xvfb, let linkup play it, and
# leave the evidence for the caller to judge (tests/suite/e2e_games.rs).
#
# usage: play-game.sh OUT_DIR GAME SEED [GAME ARGS...] [-- LINKUP PLAY ARGS...]
#   GAME       xshisen | kshisen | tk-shisen | onet-web
#   SEED       the deal (LD_PRELOAD seed shim; tk-shisen and onet-web: their own seed option),
#              or "random" for the game's own shuffle
#   GAME ARGS  xshisen: its options (-large, -gravity, ...); kshisen: desktop.sh start-kshisen
#              options (--size N, --gravity true|false); tk-shisen: shisen.tcl options (-rows 6
#              -cols 14 -gap 0 ...); onet-web: one query string (style=letters&rows=8&cols=12),
#              the seed is added here
# tk-shisen (tests/e2e/tk) and onet-web (tests/e2e/web, in Chromium) are our own games with no
# profile: linkup always plays them as with LINKUP_NO_PROFILE=1, by the window's title.
# Needs LINKUP_BIN (the linkup binary). Writes to OUT_DIR:
#   before.png, after.png   the game window (client area) before and after linkup played
#   popups.txt              "X Y W H" (window-relative) of every dialog over the game at the end
#   play.out, play.err      linkup's output; play.code its exit code; play.secs the wall time
#   title.txt               the game window's title at the end (tk-shisen and onet-web say
#                           "You win" there once the board is empty)
# With LINKUP_PRESELECT="X Y" set, the tile at window pixel X Y is clicked (selected) first.
# With LINKUP_CALIBRATE=1 set, linkup first calibrates the live window (`calibrate --window`)
# into OUT_DIR/calibrated/ (calibrate.out, .err, .code) and plays with that profile.
# LINKUP_XSHISEN_CTIME sets xshisen's connectLineTime (ms the matched pair's line shows), 150 by
# default.
# With LINKUP_NO_PROFILE=1 set, linkup plays with `--window CLASS` and no profile, from an empty
# working folder (issue 12).
set -u # no -e: desktop.sh is written for plain bash and checks its own errors

out="$1" game="$2" seed="$3"
shift 3
game_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do game_args+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
play_args=("$@")
: "${LINKUP_BIN:?set LINKUP_BIN to the linkup binary}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export LINKUP_DESKTOP_DIR
LINKUP_DESKTOP_DIR="$(mktemp -d /tmp/linkup-e2e-XXXXXX)"
# shellcheck source=desktop.sh
source "$here/desktop.sh"
trap 'desktop_stop; rm -rf "$LINKUP_DESKTOP_DIR"' EXIT

mkdir -p "$out" || exit 1
if [ "$seed" != random ]; then export LINKUP_SEED="$seed"; fi
eval "$(desktop_start_display)" || exit 1

title=""
case "$game" in
xshisen)
    # -ctime: the connection line shows 150 ms (LINKUP_XSHISEN_CTIME to change it); idleTime:
    # no idle delay before input counts.
    desktop_start_xshisen -ctime "${LINKUP_XSHISEN_CTIME:-150}" -xrm 'XShisen*idleTime: 5000' "${game_args[@]}" >/dev/null || exit 1
    win="$(cat "$LINKUP_DESKTOP_DIR/xshisen.window")"
    # xshisen opens on a sorted board; Ctrl-D deals a shuffled game
    desktop_key "$win" ctrl+d || exit 1
    desktop_wait_stable "$win" || exit 1
    profile="xshisen"
    for a in "${game_args[@]}"; do
        case "$a" in -large) profile="xshisen-large" ;; -huge) profile="xshisen-huge" ;; esac
    done
    class="XShisen"
    ;;
kshisen)
    desktop_start_kshisen "${game_args[@]}" >/dev/null || exit 1
    win="$(cat "$LINKUP_DESKTOP_DIR/kshisen.window")"
    profile="kshisen"
    class="kshisen"
    ;;
tk-shisen)
    desktop_need wish xdotool xwininfo || exit 1
    tk_seed="$seed"
    [ "$seed" = random ] && tk_seed="$RANDOM"
    before_wins=" $( (xdotool search --name 'Tk Shisen-Sho' 2>/dev/null || true) | tr '\n' ' ') "
    # -geometry +0+0 first, so that a -geometry in GAME ARGS wins (as tk/shot.sh does)
    pid="$(desktop_spawn "$LINKUP_DESKTOP_DIR/tk-shisen.log" wish "$here/tk/shisen.tcl" \
        -geometry +0+0 -seed "$tk_seed" "${game_args[@]}")"
    desktop_track "$pid" tk-shisen
    win="" t=0
    while [ -z "$win" ]; do
        for w in $(xdotool search --name 'Tk Shisen-Sho' 2>/dev/null); do
            case "$before_wins" in *" $w "*) continue ;; esac
            xwininfo -id "$w" 2>/dev/null | grep -q 'Map State: IsViewable' && { win="$w"; break; }
        done
        [ -n "$win" ] && break
        kill -0 "$pid" 2>/dev/null ||
            { echo "play-game.sh: wish exited:" >&2; cat "$LINKUP_DESKTOP_DIR/tk-shisen.log" >&2; exit 1; }
        sleep 0.2; t=$((t + 1))
        [ $t -lt $((LINKUP_TIMEOUT * 5)) ] || { echo "play-game.sh: no Tk Shisen-Sho window" >&2; exit 1; }
    done
    desktop_wait_stable "$win" || exit 1
    profile=""
    class="Shisen"
    title="Tk Shisen-Sho"
    ;;
onet-web)
    query="${game_args[*]:-}"
    web_seed="$seed"
    [ "$seed" = random ] && web_seed="$RANDOM"
    bash "$here/web/start.sh" "${query:+$query&}seed=$web_seed" >/dev/null || exit 1
    win="$(cat "$LINKUP_DESKTOP_DIR/onet-web.window")"
    profile=""
    class="Chromium"
    title="Onet Web"
    ;;
*)
    echo "play-game.sh: unknown game '$game' (xshisen, kshisen, tk-shisen or onet-web)" >&2
    exit 2
    ;;
esac
# The window's name for linkup without a profile: its class, or the title of our own games.
window_name="${title:-$class}"
[ -n "$profile" ] || LINKUP_NO_PROFILE=1
if [ -n "${LINKUP_PRESELECT:-}" ]; then
    # Leave a tile selected, as a person might before starting linkup: "X Y" in the window.
    # shellcheck disable=SC2086
    desktop_click "$win" $LINKUP_PRESELECT || exit 1
    sleep 0.5
fi
desktop_park_pointer
desktop_screenshot "$out/before.png" "$win" || exit 1

if [ -n "${LINKUP_CALIBRATE:-}" ]; then
    # Calibrate the live window into a scratch folder and play with that profile instead.
    mkdir -p "$out/calibrated" || exit 1
    ccode=0
    (cd "$out/calibrated" && "$LINKUP_BIN" calibrate --window "$window_name" --name live --templates) \
        >"$out/calibrate.out" 2>"$out/calibrate.err" || ccode=$?
    echo "$ccode" >"$out/calibrate.code"
    profile="$out/calibrated/calibration/live.toml"
fi

target=(--profile "$profile")
workdir="."
if [ -n "${LINKUP_NO_PROFILE:-}" ]; then
    target=(--window "$window_name")
    workdir="$out/empty"
    mkdir -p "$workdir" || exit 1
fi
start=$(date +%s.%N)
code=0
(cd "$workdir" && "$LINKUP_BIN" play "${target[@]}" "${play_args[@]}") >"$out/play.out" 2>"$out/play.err" || code=$?
end=$(date +%s.%N)
echo "$code" >"$out/play.code"
awk "BEGIN { printf \"%.1f\\n\", $end - $start }" >"$out/play.secs"

sleep 1 # let the last removal finish drawing
# The game's own word on the result: its title once it settles ("You win" with the board empty).
final_title="" t=0
while :; do
    final_title="$(xdotool getwindowname "$win" 2>/dev/null)"
    case "$final_title" in *"You win"*) break ;; esac
    [ $t -lt 10 ] || break
    sleep 0.2; t=$((t + 1))
done
echo "$final_title" >"$out/title.txt"
desktop_screenshot "$out/after.png" "$win" || exit 1
# Dialogs the game opened over its window (xshisen's end-of-game message, for instance).
eval "$(desktop_window_info "$win" | sed 's/^/GAME_/')"
: >"$out/popups.txt"
for w in $(xdotool search --onlyvisible --class "$class" 2>/dev/null); do
    [ "$((w))" = "$((win))" ] && continue
    eval "$(desktop_window_info "$w")"
    [ "$WIDTH" -gt 10 ] || continue
    echo "$((X - GAME_X)) $((Y - GAME_Y)) $WIDTH $HEIGHT" >>"$out/popups.txt"
done
