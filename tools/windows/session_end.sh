#!/usr/bin/env bash
# session_end.sh WIN_BUILD - Windows' log-off reaches hexbattle.exe's windows
# (make test-windows): the play window with a battle in progress and the
# editor with an unsaved edit, run under Wine on an Xvfb display of their
# own with SDL's Windows video driver (the dummy driver makes no native
# window, so no session message could reach it), are sent what Windows sends
# a program at a log-off, by endsession.exe (tools/windows/endsession.c,
# built here with mingw): WM_QUERYENDSESSION then WM_ENDSESSION, then the
# process is ended if it is still there; or, for a forced log-off,
# WM_ENDSESSION alone and the process ended at once. Each time the recovery
# copy must be written in %LOCALAPPDATA%\hexbattle, and must come back: the
# battle replays from it, the editor offers the edits back (R), and Ctrl+S
# saves them into the map. And during an editor's play-test, a forced
# log-off keeps both the battle and the unsaved edits.
#
# Wine keeps %LOCALAPPDATA% in its prefix (it sets the variable itself, over
# the one given), so the copies are looked for there.
set -u
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
EXE="$BUILD/hexbattle.exe"
export PATH="$PATH:/usr/lib/wine"
for tool in wine64 wineserver Xvfb xdotool x86_64-w64-mingw32-gcc; do
    command -v "$tool" >/dev/null || { echo "session_end: $tool is missing" >&2; exit 1; }
done
[ -x "$EXE" ] || { echo "session_end: no $EXE (make windows-build)" >&2; exit 1; }

TMP="$BUILD/session_end"
rm -rf "$TMP"
mkdir -p "$TMP"
export WINEPREFIX="$BUILD/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
    SDL_AUDIODRIVER=dummy HEXBATTLE_DATA="$SRC/data" HEXBATTLE_SEED=4
unset SDL_VIDEODRIVER WAYLAND_DISPLAY

FAILS=0
PASSES=0
check() {
    local name="$1"
    shift
    if "$@"; then
        PASSES=$((PASSES + 1))
    else
        FAILS=$((FAILS + 1))
        echo "FAIL: $name"
    fi
}

XVFB_PID=""
HB_PID=""
cleanup() {
    [ -n "$HB_PID" ] && kill "$HB_PID" 2>/dev/null
    wineserver -k 2>/dev/null
    if [ -n "$XVFB_PID" ]; then
        kill "$XVFB_PID" 2>/dev/null
        wait "$XVFB_PID" 2>/dev/null
    fi
}
trap cleanup EXIT

# An X server of its own, on the display number it picks (-displayfd).
mkfifo "$TMP/xvfb.fifo"
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$TMP/xvfb.fifo" >/dev/null 2>&1 &
XVFB_PID=$!
n=$(timeout 10 head -1 "$TMP/xvfb.fifo")
[ -n "$n" ] || { echo "session_end: Xvfb did not start" >&2; exit 1; }
export DISPLAY=":$n"

# One Wine server for the run, started with this display (a server left by
# wine_ctest.sh, without one, would give the windows no display).
wineserver -k 2>/dev/null
wineserver -w 2>/dev/null
[ -d "$WINEPREFIX" ] || wine64 wineboot -i >/dev/null 2>&1
x86_64-w64-mingw32-gcc -std=c11 -O1 -Wall -Wextra -Wpedantic -o "$TMP/endsession.exe" \
    "$SRC/tools/windows/endsession.c" || exit 1
LAD=$(wine64 cmd.exe /c echo %LOCALAPPDATA% 2>/dev/null | tr -d '\r')
DIR="$(wine64 winepath.exe -u "$LAD" 2>/dev/null | tr -d '\r')/hexbattle"
case "$DIR" in /*) ;; *) echo "session_end: no %LOCALAPPDATA% ($LAD)" >&2; exit 1 ;; esac

MAP="$TMP/arena.json"
cp "$SRC/maps/ridge_ambush.json" "$MAP"
cp "$MAP" "$TMP/original.json"
rows() { grep -o '"rows":.*' "$1"; }

# launch ERR ARGS...: hexbattle.exe in the background (HB_PID).
launch() {
    local err="$1"
    shift
    wine64 "$EXE" "$@" >/dev/null 2>"$err" &
    HB_PID=$!
}
# window TITLE: the X window of a Windows window whose title starts with
# TITLE (Wine's X11 driver gives it the same name), waited for up to 30 s.
window() {
    local w=""
    for _ in $(seq 300); do
        w=$(xdotool search --name "^$1" 2>/dev/null | head -1)
        [ -n "$w" ] && break
        sleep 0.1
    done
    echo "$w"
}
# title_ends WIN MARK: the window's title ends in " *" (MARK yes) or not.
title_unsaved() {
    for _ in $(seq 50); do
        xdotool getwindowname "$1" 2>/dev/null | grep -q ' \*$' && return 0
        sleep 0.1
    done
    return 1
}
title_saved() {
    for _ in $(seq 50); do
        xdotool getwindowname "$1" 2>/dev/null | grep -q ' \*$' || return 0
        sleep 0.1
    done
    return 1
}
# logoff TITLE [OPTIONS]: endsession.exe on the window; its report to
# $TMP/logoff.txt (how long the process took to end after WM_ENDSESSION to
# standard output); then wait for hexbattle (STATUS: its exit status).
logoff() {
    wine64 "$TMP/endsession.exe" "$@" 2>"$TMP/logoff.err" | tr -d '\r' >"$TMP/logoff.txt"
    tr -d '\r' <"$TMP/logoff.err" | grep -a "^endsession:"
    # (Now and then the Unix side of a process Wine ended lingers: waited
    # for, then killed, which bash reports as "Killed".)
    for _ in $(seq 100); do kill -0 "$HB_PID" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$HB_PID" 2>/dev/null && kill -KILL "$HB_PID"
    wait "$HB_PID"
    STATUS=$?
    HB_PID=""
}
said() { grep -qx "$1" "$TMP/logoff.txt"; }
# The status a stop ends the process with (STATUS_CONTROL_C_EXIT, as Wine
# gives it to its Unix parent: the low byte).
STOPPED=$((0xC000013A & 0xff))

rm -rf "$DIR"

# --- the play window: a battle in progress ---
COPY="$DIR/arena.battle.recover.json"
for mode in logoff force; do
    rm -f "$COPY"
    launch "$TMP/play_$mode.err" "$MAP"
    win=$(window "hexbattle - ")
    check "play_opens_$mode" test -n "$win"
    sleep 2 # the battle under way
    if [ "$mode" = logoff ]; then
        logoff "hexbattle - " --wait 10 --grace 10
        check play_answers_yes said "query: yes"
        # The loop saw the question as a stop, kept the battle and ended
        # (the copy is also written at WM_ENDSESSION if the loop has not
        # come round by then: see the forced log-off).
        check play_ends_by_itself said "process: ended by itself"
        check play_ends_as_stopped test "$STATUS" -eq "$STOPPED"
    else
        logoff "hexbattle - " --wait 10 --force
        check play_told_end said "end: sent"
        # Ended by "Windows" as soon as WM_ENDSESSION was answered: the
        # copy was written while answering it.
    fi
    check "battle_copy_written_$mode" test -s "$COPY"
    check "battle_copy_names_its_save_$mode" grep -q '"recover_of":.*arena.battle.json' "$COPY"
    check "stderr_says_where_$mode" grep -q "the battle is kept in .*arena.battle.recover.json" \
        "$TMP/play_$mode.err"
    # It comes back: a save the battle is rebuilt from.
    wine64 "$EXE" replay "$COPY" --events 2>"$TMP/replay.err" | tr -d '\r' >"$TMP/events_$mode"
    check "battle_copy_replays_$mode" test "${PIPESTATUS[0]}" -eq 0
    check "battle_copy_has_events_$mode" test -s "$TMP/events_$mode"
    [ "$FAILS" -eq 0 ] || { cat "$TMP/logoff.txt" "$TMP/play_$mode.err" "$TMP/replay.err"; }
done

# --- the editor: an unsaved edit ---
ECOPY="$DIR/arena.recover.json"
for mode in logoff force; do
    rm -f "$ECOPY"
    launch "$TMP/edit_$mode.err" edit "$MAP"
    win=$(window "hexbattle editor - ")
    check "editor_opens_$mode" test -n "$win"
    # The brush (B), then two clicks in the middle of the map (again when a
    # loaded machine has not taken them in).
    for _ in 1 2 3; do
        xdotool windowfocus --sync "$win" key b 2>/dev/null
        xdotool mousemove --window "$win" 640 420 click 1 mousemove --window "$win" 700 440 click 1
        title_unsaved "$win" && break
    done
    check "edit_unsaved_$mode" title_unsaved "$win"
    if [ "$mode" = logoff ]; then
        logoff "hexbattle editor - " --wait 10 --grace 10
        check editor_answers_yes said "query: yes"
        check editor_ends_by_itself said "process: ended by itself"
        check editor_ends_as_stopped test "$STATUS" -eq "$STOPPED"
    else
        logoff "hexbattle editor - " --wait 10 --force
        check editor_told_end said "end: sent"
    fi
    check "edit_copy_written_$mode" test -s "$ECOPY"
    check "edit_copy_names_the_map_$mode" grep -q "\"of\":.*arena.json" "$ECOPY"
    check "map_untouched_$mode" cmp -s "$MAP" "$TMP/original.json"
    check "stderr_says_kept_$mode" grep -q "unsaved edits kept in .*arena.recover.json" \
        "$TMP/edit_$mode.err"
    [ "$FAILS" -eq 0 ] || { cat "$TMP/logoff.txt" "$TMP/edit_$mode.err"; }
done

# --- a forced log-off during the editor's play-test: the play window keeps
# the battle and the editor's unsaved edits while answering WM_ENDSESSION ---
rm -f "$ECOPY" "$COPY"
launch "$TMP/edit_test.err" edit "$MAP"
win=$(window "hexbattle editor - ")
check editor_opens_for_a_play_test test -n "$win"
for _ in 1 2 3; do
    xdotool windowfocus --sync "$win" key b 2>/dev/null
    xdotool mousemove --window "$win" 600 380 click 1
    title_unsaved "$win" && break
done
check edit_unsaved_before_the_play_test title_unsaved "$win"
# F5 plays (again when the editor first warns about the map).
for _ in 1 2 3; do
    xdotool windowfocus --sync "$win" key F5 2>/dev/null
    pwin=$(xdotool search --name "^hexbattle - " 2>/dev/null | head -1)
    for _ in $(seq 30); do
        [ -n "$pwin" ] && break
        sleep 0.1
        pwin=$(xdotool search --name "^hexbattle - " 2>/dev/null | head -1)
    done
    [ -n "$pwin" ] && break
done
check play_test_opens test -n "$pwin"
sleep 2
logoff "hexbattle - " --wait 10 --force
check play_test_told_end said "end: sent"
check play_test_battle_kept test -s "$COPY"
check play_test_edits_kept test -s "$ECOPY"
check play_test_stderr_says_edits_kept grep -q "unsaved edits kept in .*arena.recover.json" \
    "$TMP/edit_test.err"
check map_untouched_by_the_play_test cmp -s "$MAP" "$TMP/original.json"
[ "$FAILS" -eq 0 ] || { cat "$TMP/logoff.txt" "$TMP/edit_test.err"; }

# The next edit of the map offers the edits back: R restores them (the copy
# goes), Ctrl+S saves them into the map, Q quits.
launch "$TMP/edit_back.err" edit "$MAP"
win=$(window "hexbattle editor - ")
check editor_reopens test -n "$win"
for _ in 1 2 3; do
    xdotool windowfocus --sync "$win" key r 2>/dev/null
    title_unsaved "$win" && break
done
check edits_restored title_unsaved "$win"
check edit_copy_taken_back test ! -e "$ECOPY"
xdotool key ctrl+s
check edits_saved title_saved "$win"
xdotool key q
for _ in $(seq 100); do kill -0 "$HB_PID" 2>/dev/null || break; sleep 0.1; done
kill -0 "$HB_PID" 2>/dev/null && kill -KILL "$HB_PID"
wait "$HB_PID"
check editor_quits test $? -eq 0
HB_PID=""
check map_holds_the_edits test "$(rows "$MAP")" != "$(rows "$TMP/original.json")"

echo "session_end: $PASSES checks passed, $FAILS failed"
[ "$FAILS" -eq 0 ]
