#!/usr/bin/env bash
# shot.sh OUT.png [shisen.tcl options...]
#
# Starts the Tk Shisen-Sho game (shisen.tcl, next to this script) with the
# given options on the X display $DISPLAY (one is started with
# tests/e2e/desktop.sh when DISPLAY is unset), waits for its window,
# screenshots just that window (menu bar and status line included) into
# OUT.png, writes the game's board truth to OUT.truth.txt, and closes the
# game.  Prints "WINDOW=<id> TRUTH=<path>".
#
# Needs: tk (wish), xdotool, imagemagick (import), x11-utils; for the
# mahjong faces fonts-symbola; for a display xvfb + evilwm (desktop.sh).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -ge 1 ] || { echo "usage: $0 OUT.png [game options...]" >&2; exit 2; }
out="$1"; shift
truth="${out%.png}.truth.txt"
: "${LINKUP_TIMEOUT:=20}"

if [ -z "${DISPLAY:-}" ]; then
    eval "$("$here/../desktop.sh" start-display)"
fi
for c in wish xdotool import xwininfo; do
    command -v "$c" >/dev/null || { echo "shot.sh: '$c' not found" >&2; exit 1; }
done

before=" $( (xdotool search --name 'Tk Shisen-Sho' 2>/dev/null || true) | tr '\n' ' ') "
rm -f "$truth"
log="$(mktemp /tmp/tk-shisen-log.XXXXXX)"
# -geometry +0+0 first, so that the caller's own -geometry wins
setsid wish "$here/shisen.tcl" -geometry +0+0 "$@" -truth "$truth" </dev/null >"$log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"; }
trap cleanup EXIT

win="" t=0
while :; do
    for w in $(xdotool search --name 'Tk Shisen-Sho' 2>/dev/null); do
        case "$before" in *" $w "*) continue ;; esac
        if xwininfo -id "$w" 2>/dev/null | grep -q 'Map State: IsViewable'; then
            win="$w"; break
        fi
    done
    [ -n "$win" ] && [ -s "$truth" ] && break
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "shot.sh: the game exited:" >&2; cat "$log" >&2; exit 1
    fi
    sleep 0.1; t=$((t + 1))
    [ $t -lt $((LINKUP_TIMEOUT * 10)) ] || { echo "shot.sh: timeout waiting for the window" >&2; exit 1; }
done

# let the drawing settle: two equal captures in a row
prev="" t=0
while :; do
    cur="$(import -window "$win" rgb:- 2>/dev/null | md5sum)"
    [ "$cur" = "$prev" ] && break
    prev="$cur"; sleep 0.2; t=$((t + 1))
    [ $t -lt 50 ] || break
done
import -window "$win" "$out"
echo "WINDOW=$win TRUTH=$truth"
