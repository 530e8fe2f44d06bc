#!/usr/bin/env bash
# The projector at a table with one display, under a real window manager
# (issue 34, item 2): Debian's openbox on Xvfb, where a new window normally
# takes the keyboard. `hexbattle project MAP` and F2 open the table window
# beside the referee's, never over it; the keyboard stays with the referee's
# window; Esc never closes the table window, not even when the window
# manager hands it the keyboard; F2 closes it.
#
# Real windows driven by xdotool; skipped (77) without Xvfb, openbox,
# xdotool or xprop.
source "$(dirname "$0")/lib/assert.bash"

skip() {
    echo "SKIP: $1"
    exit 77
}
command -v Xvfb >/dev/null || skip "no Xvfb"
command -v openbox >/dev/null || skip "no openbox"
command -v xdotool >/dev/null || skip "no xdotool"
command -v xprop >/dev/null || skip "no xprop"

source "$(dirname "$0")/lib/xvfb.bash"
start_xvfb || skip "Xvfb did not start"
export SDL_VIDEODRIVER=x11 XDG_DATA_HOME="$TMP/xdg" XDG_CONFIG_HOME="$TMP/config" HEXBATTLE_SEED=4
HOME="$TMP/home" "${ORPHAN_GUARD[@]}" openbox --sm-disable >"$TMP/openbox.log" 2>&1 &
for _ in $(seq 100); do
    xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q "window id" && break
    sleep 0.1
done
xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q "window id" || skip "openbox did not start"

# The window that has the keyboard, by name ("" when none).
focused() { xdotool getwindowfocus getwindowname 2>/dev/null; }
# table_id: the table window's id, or "" when it is not open.
table_id() { xdotool search --name "hexbattle - table" 2>/dev/null | head -1; }
# geom WIN: "X Y W H" of the window with its frame as the window manager drew it.
geom() {
    local x y w h
    eval "$(xdotool getwindowgeometry --shell "$1" 2>/dev/null | grep -E '^(X|Y|WIDTH|HEIGHT)=')"
    echo "${X:-0} ${Y:-0} ${WIDTH:-0} ${HEIGHT:-0}"
}
# apart A B: the two windows' rectangles do not overlap.
apart() {
    local ax ay aw ah bx by bw bh
    read -r ax ay aw ah <<<"$(geom "$1")"
    read -r bx by bw bh <<<"$(geom "$2")"
    [ "$aw" -gt 0 ] && [ "$bw" -gt 0 ] || return 1
    [ $((ax + aw)) -le "$bx" ] || [ $((bx + bw)) -le "$ax" ] || [ $((ay + ah)) -le "$by" ] ||
        [ $((by + bh)) -le "$ay" ]
}
# wait_for COND...: up to five seconds for COND to hold.
wait_for() {
    for _ in $(seq 50); do
        "$@" && return 0
        sleep 0.1
    done
    return 1
}
table_open() { [ -n "$(table_id)" ]; }
table_closed() { [ -z "$(table_id)" ]; }
referee_has_keys() { focused | grep -q "^hexbattle - Ridge"; }

launch "hexbattle - Ridge" "$TMP/play.err" -- project "$SRC/maps/ridge_ambush.json"
check play_window_opens test -n "$win"
referee="$win"
check table_opens wait_for table_open
sleep 1 # the window manager's placement and focus settle
table=$(table_id)
echo "referee: $(geom "$referee")  table: $(geom "$table")  keyboard: $(focused)"
check table_beside_the_referee apart "$referee" "$table"
check keyboard_stays_with_the_referee referee_has_keys

# Esc on the referee's window: the table stays.
xdotool key Escape
sleep 0.5
check esc_leaves_the_table table_open

# The window manager hands the table the keyboard (a click on it, say):
# it gives the keyboard back, and Esc there does not close it either.
xdotool windowactivate "$table" 2>/dev/null
xdotool key Escape
sleep 0.5
check esc_on_the_table_leaves_it table_open
check keyboard_back_with_the_referee wait_for referee_has_keys

# F2 closes it; F2 opens it again, beside, without the keyboard.
xdotool windowfocus --sync "$referee" key F2
check f2_closes wait_for table_closed
xdotool windowfocus --sync "$referee" key F2
check f2_opens_again wait_for table_open
sleep 1
table=$(table_id)
echo "after F2: referee: $(geom "$referee")  table: $(geom "$table")  keyboard: $(focused)"
check reopened_beside apart "$referee" "$table"
check reopened_without_the_keyboard referee_has_keys

kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ "$FAILS" -eq 0 ] || grep -av "^ *#" "$TMP/play.err" | head -10
finish
