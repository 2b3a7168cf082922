#!/usr/bin/env bash
# start.sh ['QUERY'] [WIDTHxHEIGHT]
# Open onet.html?QUERY in a real (non-headless) Chromium app window on
# $DISPLAY (e.g. the Xvfb of tests/e2e/desktop.sh start-display), at +0+0,
# default size 1024x768, and wait until its window (title "Onet Web - ...")
# is mapped.  Prints WINDOW= X= Y= WIDTH= HEIGHT= like desktop.sh.
# The browser is recorded in desktop.sh's pid list under the name onet-web,
# so `tests/e2e/desktop.sh stop` ends it (with the display).
# (--test-type hides the "unsupported command-line flag: --no-sandbox" bar.)
# Needs: chromium, xdotool, x11-utils, imagemagick (for the settle check).
set -euo pipefail
query="${1:-seed=1}"; size="${2:-1024x768}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../desktop.sh
source "$here/../desktop.sh"
desktop_load_display
desktop_need chromium xdotool xwininfo
w="${size%x*}"; h="${size#*x}"
prof="$LINKUP_DESKTOP_DIR/onet-web-profile"
rm -rf "$prof"; mkdir -p "$prof"
before="$(xdotool search --onlyvisible --name 'Onet Web' 2>/dev/null | sort -n | tr '\n' ' ' || true)"
pid="$(desktop_spawn "$LINKUP_DESKTOP_DIR/onet-web.log" chromium \
    --no-sandbox --disable-gpu --disable-quic --no-first-run --no-default-browser-check \
    --disable-background-networking --disable-component-update --disable-sync \
    --password-store=basic --test-type --disable-features=Translate,MediaRouter \
    --force-device-scale-factor=1 --user-data-dir="$prof" \
    --window-position=0,0 --window-size="$w,$h" \
    --app="file://$here/onet.html?$query")"
desktop_track "$pid" onet-web
t=0
while :; do
    for win in $(xdotool search --onlyvisible --name 'Onet Web' 2>/dev/null | sort -n || true); do
        case " $before " in *" $win "*) continue ;; esac
        if xwininfo -id "$win" 2>/dev/null | grep -q 'Map State: IsViewable'; then
            # evilwm places new windows by the pointer: put it at the top-left
            xdotool windowmove --sync "$win" 0 0 2>/dev/null || xdotool windowmove "$win" 0 0 || true
            xdotool windowsize "$win" "$w" "$h" 2>/dev/null || true
            desktop_wait_stable "$win"
            echo "$win" >"$LINKUP_DESKTOP_DIR/onet-web.window"
            desktop_window_info "$win"
            exit 0
        fi
    done
    kill -0 "$pid" 2>/dev/null || { desktop_die "chromium exited; see $LINKUP_DESKTOP_DIR/onet-web.log"; exit 1; }
    sleep 0.2; t=$((t + 1))
    [ $t -lt $((LINKUP_TIMEOUT * 5)) ] || { desktop_die "timeout waiting for the Onet Web window"; exit 1; }
done
