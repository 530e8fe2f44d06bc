#!/usr/bin/env bash
# hexbattle project on a machine with two displays: the projector window goes
# fullscreen on the second display and covers it exactly, while the referee's
# window stays on the first.
#
# Two displays side by side come from Xorg's dummy driver with two RandR
# outputs (DUMMY0, DUMMY1 right of it). Xvfb cannot stand in: SDL 2 reads
# RandR outputs only (no Xinerama), Xvfb has one output, and its separate
# screens (:N.0, :N.1) both start at 0,0, so SDL cannot tell them apart.
# Skipped (77) without Xorg, the dummy driver, xrandr or xwininfo, or when the
# server will not start here (Xorg needs root).
source "$(dirname "$0")/lib/assert.bash"

skip() {
    echo "SKIP: $1"
    exit 77
}
command -v Xorg >/dev/null || skip "no Xorg"
command -v xrandr >/dev/null || skip "no xrandr"
command -v xwininfo >/dev/null || skip "no xwininfo"
have_dummy=""
for f in /usr/lib/xorg/modules/drivers/dummy_drv.so /usr/lib/*/xorg/modules/drivers/dummy_drv.so; do
    [ -e "$f" ] && have_dummy=1
done
[ -n "$have_dummy" ] || skip "no Xorg dummy driver (xserver-xorg-video-dummy)"

# A display number nobody uses.
N=""
for n in $(seq 71 99); do
    if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then
        N=$n
        break
    fi
done
[ -n "$N" ] || skip "no free X display number"

cat >"$TMP/xorg.conf" <<'EOF'
Section "Device"
    Identifier "dummy"
    Driver "dummy"
    VideoRam 256000
EndSection
Section "Monitor"
    Identifier "mon"
    HorizSync 5.0-1000.0
    VertRefresh 5.0-200.0
    Modeline "1280x720" 74.25 1280 1390 1430 1650 720 725 730 750 +hsync +vsync
    Modeline "1024x768" 65.00 1024 1048 1184 1344 768 771 777 806 -hsync -vsync
EndSection
Section "Screen"
    Identifier "screen"
    Device "dummy"
    Monitor "mon"
    DefaultDepth 24
    SubSection "Display"
        Depth 24
        Virtual 2304 768
        Modes "1280x720"
    EndSubSection
EndSection
EOF

XPID=""
HPID=""
# Whatever happens, the server and the program go, then the scratch folder.
cleanup() {
    [ -n "$HPID" ] && kill "$HPID" 2>/dev/null
    if [ -n "$XPID" ]; then
        kill "$XPID" 2>/dev/null
        wait "$XPID" 2>/dev/null
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT

"${ORPHAN_GUARD[@]}" Xorg ":$N" -noreset -nolisten tcp -config "$TMP/xorg.conf" -logfile "$TMP/xorg.log" \
    >"$TMP/xorg.out" 2>&1 &
XPID=$!
export DISPLAY=":$N"
for _ in $(seq 50); do
    xrandr >/dev/null 2>&1 && break
    kill -0 "$XPID" 2>/dev/null || break
    sleep 0.1
done
xrandr >/dev/null 2>&1 || skip "Xorg with the dummy driver did not start here"
xrandr --addmode DUMMY1 1024x768 2>/dev/null &&
    xrandr --output DUMMY1 --mode 1024x768 --right-of DUMMY0 2>/dev/null ||
    skip "this dummy driver has no second output"
# A full query makes the server probe its outputs again; SDL asks only for
# the cached ("current") state, which otherwise still shows one display.
xrandr | grep -q "^DUMMY1 connected 1024x768+1280+0" || skip "the second output did not come up"

# The real X11 driver, a scratch config (no saved display settings) and
# autosaves kept out of the home folder.
export SDL_VIDEODRIVER=x11
export XDG_CONFIG_HOME="$TMP/config" XDG_DATA_HOME="$TMP/data"
# Mesa's software GL driver is opened and closed again by libGL; once it is
# unloaded, LeakSanitizer takes its still-referenced blocks for leaks with no
# name on them. Keeping it loaded leaves them reachable, as they really are.
# (libdbus's own leak is in tests/lsan.supp.)
KEEP_LOADED=$(ls /usr/lib/*/dri/swrast_dri.so 2>/dev/null | head -1)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$SRC/tests/lsan.supp}"
LD_PRELOAD="$KEEP_LOADED" HEXBATTLE_SEED=3 HEXBATTLE_QUIT_AFTER_MS=6000 \
    "${ORPHAN_GUARD[@]}" "$HB" project "$SRC/maps/ridge_ambush.json" >"$TMP/out" 2>"$TMP/err" &
HPID=$!

# xwininfo rows: "0x... "hexbattle - table": (...)  WxH+X+Y  +X+Y"
geom() {
    xwininfo -root -tree 2>/dev/null | grep -F "\"$1" | head -1 |
        sed -E 's/.*\)  *([0-9]+x[0-9]+[+-][0-9]+[+-][0-9]+).*/\1/'
}
table=""
for _ in $(seq 40); do
    table=$(geom "hexbattle - table")
    [ -n "$table" ] && break
    sleep 0.1
done
sleep 0.5 # let a window manager-less fullscreen settle
table=$(geom "hexbattle - table")
referee=$(geom "hexbattle - Ridge")
check projector_covers_display_1 test "$table" = "1024x768+1280+0"
# The referee's window lies inside display 0 (1280x720 at 0,0).
in_display0() {
    local w h x y
    IFS='x+' read -r w h x y <<<"$1"
    [ -n "$1" ] && [ "$x" -ge 0 ] && [ "$y" -ge 0 ] && [ $((x + w)) -le 1280 ] &&
        [ $((y + h)) -le 720 ]
}
check referee_on_display_0 in_display0 "$referee"
wait "$HPID"
rc=$?
HPID=""
check quits_by_itself test "$rc" -eq 0
[ "$FAILS" -eq 0 ] || printf 'table: %s\nreferee: %s\nstderr: %s\n' "$table" "$referee" \
    "$(cat "$TMP/err")"

finish
