#!/usr/bin/env bash
# desktop.sh - run the real Shisen-Sho games (xshisen, kshisen) on a
# headless X server (Xvfb + evilwm) for end-to-end tests of linkup.
#
# Use as a command:
#   tests/e2e/desktop.sh install                 # apt-get the packages (root)
#   eval "$(tests/e2e/desktop.sh start-display)" # prints: export DISPLAY=:N
#   tests/e2e/desktop.sh start-xshisen -large    # prints WINDOW=... X=... ...
#   tests/e2e/desktop.sh screenshot out.png [WINDOW]
#   tests/e2e/desktop.sh stop
# or as a library:
#   source tests/e2e/desktop.sh
#   desktop_start_display; desktop_start_xshisen; ...; desktop_stop
#
# Deterministic games: set LINKUP_SEED=<n> before starting a game.  The
# LD_PRELOAD shim fixseed.c (built on demand with gcc) then fixes the
# shuffle, and also freezes the on-screen clocks (LINKUP_TIME, default
# 1700000000 when a seed is given; set LINKUP_TIME= (empty) to keep the real
# clock): xshisen's start-screen date is fixed and its in-game "Time:" stays
# 00:00:00 (known build only); kshisen's "Your time" stays 00:00:00.  Same seed => pixel-identical screenshots.
#
# State (pids, display, build of the shim, private HOMEs) lives in
# $LINKUP_DESKTOP_DIR (default /tmp/linkup-desktop-$UID), so separate
# invocations of the command cooperate.  Environment knobs:
#   LINKUP_DISPLAY     display to use (e.g. :99); default: first free >= :99
#   LINKUP_SCREEN      Xvfb screen, default 1280x1024x24
#   LINKUP_TIMEOUT     seconds to wait for windows, default 20
#   LINKUP_FIXSEED_SO  prebuilt shim to use instead of building one

# ---------------------------------------------------------------- settings
DESKTOP_E2E_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${LINKUP_DESKTOP_DIR:=/tmp/linkup-desktop-$(id -u)}"
: "${LINKUP_SCREEN:=1280x1024x24}"
: "${LINKUP_TIMEOUT:=20}"
# tk, fonts-symbola: our Tk Shisen-Sho (tk/shisen.tcl) and its mahjong faces; chromium: our
# browser Onet game (web/onet.html; its emoji come from .ci/install-deps' fonts-noto-color-emoji)
DESKTOP_PACKAGES=(xvfb evilwm xfonts-base x11-utils xdotool imagemagick dbus
    gcc libc6-dev xshisen kshisen kdegames-mahjongg-data-kf5
    tk fonts-symbola chromium)
XSHISEN_BIN=/usr/games/xshisen
KSHISEN_BIN=/usr/games/kshisen

desktop_log() { echo "desktop.sh: $*" >&2; }
desktop_die() { echo "desktop.sh: error: $*" >&2; return 1; }

desktop_need() {
    local c
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 ||
            [ -x "$c" ] ||
            { desktop_die "'$c' not found; run '$0 install' first"; return 1; }
    done
}

# ---------------------------------------------------------------- install
desktop_install() {
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || { desktop_die "install needs root or sudo"; return 1; }
        sudo="sudo"
    fi
    local missing=() p
    for p in "${DESKTOP_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        desktop_log "all packages already installed"
        return 0
    fi
    desktop_log "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null >/dev/null ||
        { desktop_die "apt-get update failed"; return 1; }
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${missing[@]}" </dev/null >/dev/null ||
        { desktop_die "apt-get install failed"; return 1; }
    desktop_log "installed"
}

# ---------------------------------------------------------------- state
desktop_state_init() { mkdir -p "$LINKUP_DESKTOP_DIR"; }

# remember a background process (its process-group id) so stop can kill it
desktop_track() { desktop_state_init; echo "$1 $2" >>"$LINKUP_DESKTOP_DIR/pids"; }

desktop_load_display() {
    if [ -z "${DISPLAY:-}" ] && [ -f "$LINKUP_DESKTOP_DIR/display" ]; then
        DISPLAY="$(cat "$LINKUP_DESKTOP_DIR/display")"
        export DISPLAY
    fi
    [ -n "${DISPLAY:-}" ] || { desktop_die "no DISPLAY; run start-display first"; return 1; }
}

# run "$@" in the background in its own session; prints its pid
desktop_spawn() {
    local log="$1"; shift
    setsid "$@" </dev/null >>"$log" 2>&1 &
    echo $!
}

# ---------------------------------------------------------------- display
desktop_free_display() {
    local n=99
    while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do
        n=$((n + 1))
        [ $n -lt 400 ] || { desktop_die "no free display number"; return 1; }
    done
    echo ":$n"
}

desktop_start_display() {
    desktop_need Xvfb evilwm xdpyinfo || return 1
    desktop_state_init
    if [ -f "$LINKUP_DESKTOP_DIR/display" ]; then
        local d; d="$(cat "$LINKUP_DESKTOP_DIR/display")"
        if DISPLAY="$d" xdpyinfo >/dev/null 2>&1; then
            export DISPLAY="$d"
            desktop_log "display $d already running"
            echo "export DISPLAY=$d"
            return 0
        fi
    fi
    local disp="${LINKUP_DISPLAY:-}"
    [ -n "$disp" ] || disp="$(desktop_free_display)" || return 1
    local log="$LINKUP_DESKTOP_DIR/xvfb.log"
    local pid
    pid="$(desktop_spawn "$log" Xvfb "$disp" -screen 0 "$LINKUP_SCREEN" -nolisten tcp -noreset)"
    desktop_track "$pid" Xvfb
    local t=0
    until DISPLAY="$disp" xdpyinfo >/dev/null 2>&1; do
        if ! kill -0 "$pid" 2>/dev/null; then
            desktop_die "Xvfb $disp exited; see $log:"; tail -5 "$log" >&2; return 1
        fi
        sleep 0.2; t=$((t + 1))
        [ $t -lt $((LINKUP_TIMEOUT * 5)) ] || { desktop_die "Xvfb $disp did not start"; return 1; }
    done
    echo "$disp" >"$LINKUP_DESKTOP_DIR/display"
    export DISPLAY="$disp"
    # evilwm: a window manager is needed so that windows are listed as
    # managed top-level windows (xcap enumerates them via the WM). Its default
    # font "variable" is not in xfonts-base, and on some machines it then exits
    # ("couldn't find a font to use"), so name xfonts-base's "fixed".
    pid="$(desktop_spawn "$LINKUP_DESKTOP_DIR/evilwm.log" env DISPLAY="$disp" evilwm -fn fixed)"
    desktop_track "$pid" evilwm
    t=0
    until xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'; do
        if ! kill -0 "$pid" 2>/dev/null; then
            desktop_die "evilwm exited; see $LINKUP_DESKTOP_DIR/evilwm.log (missing xfonts-base?)"; return 1
        fi
        sleep 0.2; t=$((t + 1))
        [ $t -lt 25 ] || break   # older evilwm may not set the property; go on
    done
    xdotool mousemove 1279 1023 2>/dev/null || true
    desktop_log "display $disp ($LINKUP_SCREEN) with evilwm"
    echo "export DISPLAY=$disp"
}

# ---------------------------------------------------------------- seed shim
desktop_fixseed() {
    if [ -n "${LINKUP_FIXSEED_SO:-}" ]; then
        [ -f "$LINKUP_FIXSEED_SO" ] || { desktop_die "LINKUP_FIXSEED_SO=$LINKUP_FIXSEED_SO missing"; return 1; }
        echo "$LINKUP_FIXSEED_SO"; return 0
    fi
    desktop_state_init
    local so="$LINKUP_DESKTOP_DIR/fixseed.so" src="$DESKTOP_E2E_DIR/fixseed.c"
    if [ ! -f "$so" ] || [ "$src" -nt "$so" ]; then
        desktop_need gcc || return 1
        gcc -shared -fPIC -O2 -Wall -o "$so.tmp" "$src" -ldl >&2 ||
            { desktop_die "building fixseed.so failed"; return 1; }
        mv "$so.tmp" "$so"
    fi
    echo "$so"
}

desktop_build_fixseed() {
    local out="${1:-}"
    if [ -n "$out" ]; then
        gcc -shared -fPIC -O2 -Wall -o "$out" "$DESKTOP_E2E_DIR/fixseed.c" -ldl && echo "$out"
    else
        desktop_fixseed
    fi
}

# fill the array DESKTOP_SEED_ENV with env assignments for a seeded run
desktop_seed_env() {
    DESKTOP_SEED_ENV=()
    if [ -n "${LINKUP_SEED:-}" ]; then
        local so; so="$(desktop_fixseed)" || return 1
        DESKTOP_SEED_ENV=(LD_PRELOAD="$so" LINKUP_SEED="$LINKUP_SEED"
            LINKUP_TIME="${LINKUP_TIME-1700000000}" QT_NO_CPU_FEATURE=rdrnd)
    fi
}

# ---------------------------------------------------------------- windows
# ids of visible top-level windows of a WM_CLASS
desktop_windows() { xdotool search --onlyvisible --class "$1" 2>/dev/null | sort -n; }

# wait until a new visible window (not in the list $2) of class $1 with
# title matching $3 appears and is viewable; prints its id
desktop_wait_window() {
    local class="$1" before="$2" title="$3" pid="$4" t=0 w
    while :; do
        for w in $(desktop_windows "$class"); do
            case " $before " in *" $w "*) continue ;; esac
            if xwininfo -id "$w" 2>/dev/null | grep -q 'Map State: IsViewable' &&
                xdotool getwindowname "$w" 2>/dev/null | grep -Eq "$title"; then
                echo "$w"; return 0
            fi
        done
        if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
            desktop_die "$class exited before showing its window"; return 1
        fi
        sleep 0.2; t=$((t + 1))
        [ $t -lt $((LINKUP_TIMEOUT * 5)) ] ||
            { desktop_die "timeout (${LINKUP_TIMEOUT}s) waiting for a $class window"; return 1; }
    done
}

# print WINDOW=<decimal id> X= Y= (absolute, of the client area) WIDTH= HEIGHT=
desktop_window_info() {
    local w="$1" info
    info="$(xwininfo -id "$w")" || { desktop_die "no window $w"; return 1; }
    echo "WINDOW=$((w))"
    echo "$info" | awk '/Absolute upper-left X/{print "X="$NF}
        /Absolute upper-left Y/{print "Y="$NF}
        /^ *Width:/{print "WIDTH="$NF} /^ *Height:/{print "HEIGHT="$NF}'
}

# wait until the window content stops changing (two equal captures)
desktop_wait_stable() {
    local w="$1" prev="" cur t=0
    while :; do
        cur="$(import -window "$w" rgb:- 2>/dev/null | md5sum)"
        [ -n "$prev" ] && [ "$cur" = "$prev" ] && return 0
        prev="$cur"; sleep 0.3; t=$((t + 1))
        [ $t -lt $((LINKUP_TIMEOUT * 3)) ] || { desktop_die "window $w never settled"; return 1; }
    done
}

# ---------------------------------------------------------------- xshisen
# desktop_start_xshisen [xshisen args...]   (default geometry +0+0)
desktop_start_xshisen() {
    desktop_load_display || return 1
    desktop_need "$XSHISEN_BIN" xdotool xwininfo || return 1
    desktop_seed_env || return 1
    local home="$LINKUP_DESKTOP_DIR/xshisen-home"
    mkdir -p "$home"
    local args=("$@") geo=1 a
    for a in "${args[@]}"; do [ "$a" = -geometry ] && geo=0; done
    [ $geo = 1 ] && args=(-geometry +0+0 "${args[@]}")
    # deterministic mode: freeze the in-game "Time: hh:mm:ss" counter.  It is
    # driven by gettimeofday(), which can only be frozen at the two call
    # sites behind the display (return-address offsets in the binary, see
    # fixseed.c), known for Debian's xshisen 1:1.51-7 amd64 only.
    local freeze=""
    if [ -n "${LINKUP_SEED:-}" ] && [ -n "${LINKUP_TIME-1700000000}" ]; then
        if [ "$(dpkg-query -W -f='${Version} ${Architecture}' xshisen 2>/dev/null)" = "1:1.51-7 amd64" ]; then
            freeze="${LINKUP_FREEZE_GTOD-aa38,ab02}"
        else
            desktop_log "warning: unknown xshisen build; its Time: counter will run"
        fi
    fi
    local before pid w
    before="$(desktop_windows XShisen | tr '\n' ' ')"
    pid="$(desktop_spawn "$LINKUP_DESKTOP_DIR/xshisen.log" env HOME="$home" \
        "${DESKTOP_SEED_ENV[@]}" LINKUP_FREEZE_GTOD="$freeze" \
        "$XSHISEN_BIN" "${args[@]}")"
    desktop_track "$pid" xshisen
    w="$(desktop_wait_window XShisen "$before" '^xshisen$' "$pid")" || return 1
    desktop_wait_stable "$w" || return 1
    echo "$w" >"$LINKUP_DESKTOP_DIR/xshisen.window"
    desktop_window_info "$w"
}

# ---------------------------------------------------------------- kshisen
# desktop_start_kshisen [--size 0-5] [--gravity true|false] [--level 0-2]
#                       [--solvable true|false] [--geometry WxH+X+Y]
#                       [--tileset NAME] [--background NAME]
# NAME is a kmahjongg tileset or background (a .desktop file under
# /usr/share/kmahjongglib/tilesets or .../backgrounds, e.g. "jade",
# "color_plain"); without them kshisen uses its defaults.
desktop_start_kshisen() {
    local size=2 gravity=false level=1 solvable=true geometry=800x600+0+0
    local tileset="" background=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --size) size="$2"; shift 2 ;;
            --gravity) gravity="$2"; shift 2 ;;
            --level) level="$2"; shift 2 ;;
            --solvable) solvable="$2"; shift 2 ;;
            --geometry) geometry="$2"; shift 2 ;;
            --tileset) tileset="$2"; shift 2 ;;
            --background) background="$2"; shift 2 ;;
            *) desktop_die "start-kshisen: unknown option $1"; return 1 ;;
        esac
    done
    desktop_load_display || return 1
    desktop_need "$KSHISEN_BIN" dbus-run-session xdotool xwininfo || return 1
    [ -d /usr/share/kmahjongglib/tilesets ] ||
        { desktop_die "no kmahjongg tilesets (install kdegames-mahjongg-data-kf5)"; return 1; }
    local libdir=/usr/share/kmahjongglib general=""
    if [ -n "$tileset" ]; then
        [ -f "$libdir/tilesets/$tileset.desktop" ] ||
            { desktop_die "no tileset $libdir/tilesets/$tileset.desktop"; return 1; }
        general+="Tileset_file=$libdir/tilesets/$tileset.desktop"$'\n'
    fi
    if [ -n "$background" ]; then
        [ -f "$libdir/backgrounds/$background.desktop" ] ||
            { desktop_die "no background $libdir/backgrounds/$background.desktop"; return 1; }
        general+="Background_file=$libdir/backgrounds/$background.desktop"$'\n'
    fi
    desktop_seed_env || return 1
    # private HOME so that ~/.config/kshisenrc is ours, fresh every start
    local home="$LINKUP_DESKTOP_DIR/kshisen-home"
    rm -rf "$home"
    mkdir -p "$home/.config" "$home/run"
    chmod 700 "$home/run"
    cat >"$home/.config/kshisenrc" <<EOF
[Game]
Size=$size
Gravity=$gravity
Level=$level
Solvable=$solvable
Sounds=false
Speed=4
ShowUnsolvableMessage=false
EOF
    if [ -n "$general" ]; then
        printf '[General]\n%s' "$general" >>"$home/.config/kshisenrc"
    fi
    local before pid w
    before="$(desktop_windows '^kshisen$' | tr '\n' ' ')"
    pid="$(desktop_spawn "$LINKUP_DESKTOP_DIR/kshisen.log" env HOME="$home" \
        XDG_RUNTIME_DIR="$home/run" XDG_CONFIG_HOME="$home/.config" \
        XDG_DATA_HOME="$home/.local/share" XDG_CACHE_HOME="$home/.cache" \
        QT_QPA_PLATFORM=xcb LANG=C.UTF-8 LC_ALL=C.UTF-8 \
        "${DESKTOP_SEED_ENV[@]}" \
        dbus-run-session -- "$KSHISEN_BIN" --qwindowgeometry "$geometry")"
    desktop_track "$pid" kshisen
    w="$(desktop_wait_window '^kshisen$' "$before" 'Shisen-Sho' "$pid")" || return 1
    desktop_wait_stable "$w" || return 1
    echo "$w" >"$LINKUP_DESKTOP_DIR/kshisen.window"
    desktop_window_info "$w"
}

# ---------------------------------------------------------------- input/output
# desktop_screenshot FILE [WINDOW]  - whole screen, or a window's client area
desktop_screenshot() {
    local file="$1" w="${2:-root}"
    [ -n "$file" ] || { desktop_die "screenshot: FILE missing"; return 1; }
    desktop_load_display || return 1
    # strip time stamps so identical pixels give identical files
    import -window "$w" -define png:exclude-chunks=date,time +set date:create \
        +set date:modify "$file" || { desktop_die "screenshot of $w failed"; return 1; }
}

# desktop_click WINDOW X Y [BUTTON]  - click at window-relative pixel
desktop_click() {
    desktop_load_display || return 1
    xdotool mousemove --window "$1" "$2" "$3" click "${4:-1}"
}

# desktop_key WINDOW KEY...
desktop_key() {
    desktop_load_display || return 1
    local w="$1"; shift
    xdotool windowactivate --sync "$w" 2>/dev/null || xdotool windowfocus "$w" 2>/dev/null || true
    xdotool key --window "$w" "$@"
}

# move the pointer out of the way (bottom-right screen corner)
desktop_park_pointer() { desktop_load_display && xdotool mousemove 1279 1023; }

# ---------------------------------------------------------------- stop
desktop_stop() {
    local f="$LINKUP_DESKTOP_DIR/pids" pid name
    if [ -f "$f" ]; then
        # games first, X server last
        tac "$f" | while read -r pid name; do
            kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
        done
        sleep 0.5
        tac "$f" | while read -r pid name; do
            kill -KILL -- "-$pid" 2>/dev/null || true
        done
        rm -f "$f"
    fi
    rm -f "$LINKUP_DESKTOP_DIR/display" "$LINKUP_DESKTOP_DIR"/*.window
}

# desktop_stop_game xshisen|kshisen  - kill just that game
desktop_stop_game() {
    local f="$LINKUP_DESKTOP_DIR/pids" pid name keep
    [ -f "$f" ] || return 0
    keep="$(mktemp)"
    while read -r pid name; do
        if [ "$name" = "$1" ]; then
            kill -TERM -- "-$pid" 2>/dev/null || true
            for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -KILL -- "-$pid" 2>/dev/null || true
        else
            echo "$pid $name" >>"$keep"
        fi
    done <"$f"
    mv "$keep" "$f"
    rm -f "$LINKUP_DESKTOP_DIR/$1.window"
}

# ---------------------------------------------------------------- command mode
desktop_usage() {
    cat <<'EOF'
usage: desktop.sh COMMAND [ARGS]
  install                      apt-get the needed packages (idempotent)
  start-display                Xvfb (1280x1024x24, first free :N >= :99) + evilwm;
                               prints "export DISPLAY=:N"
  start-xshisen [ARGS...]      start xshisen (-geometry +0+0 unless given);
                               prints WINDOW= X= Y= WIDTH= HEIGHT=
  start-kshisen [--size N] [--gravity true|false] [--level N] [--geometry G]
                [--tileset NAME] [--background NAME]   (kmahjongg names)
  screenshot FILE [WINDOW]     capture the screen or one window
  click WINDOW X Y [BUTTON]    click at a window-relative pixel
  key WINDOW KEY...            send keys (e.g. ctrl+d)
  stop-game xshisen|kshisen    stop one game
  stop                         stop everything started here
  build-fixseed [OUT.so]       build the LD_PRELOAD seed shim
Set LINKUP_SEED=<n> for reproducible shuffles.
EOF
}

desktop_main() {
    local cmd="${1:-}"
    [ $# -gt 0 ] && shift
    case "$cmd" in
        install) desktop_install "$@" ;;
        start-display) desktop_start_display "$@" ;;
        start-xshisen) desktop_start_xshisen "$@" ;;
        start-kshisen) desktop_start_kshisen "$@" ;;
        screenshot) desktop_screenshot "$@" ;;
        click) desktop_click "$@" ;;
        key) desktop_key "$@" ;;
        stop-game) desktop_stop_game "$@" ;;
        stop) desktop_stop "$@" ;;
        build-fixseed) desktop_build_fixseed "$@" ;;
        -h | --help | help | "") desktop_usage ;;
        *) desktop_usage >&2; return 2 ;;
    esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -u -o pipefail
    desktop_main "$@"
    exit $?
fi
