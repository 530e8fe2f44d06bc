#!/usr/bin/env bash
# A window told to stop (issue 18): SIGTERM, SIGHUP or SIGINT to the editor
# with unsaved edits, and to the play window, ends the process within a
# second by that signal, after writing a recovery copy beside the autosaves.
# The next `hexbattle edit MAP` offers the edits back (R restores, then Ctrl+S
# saves them), and the next start of play offers the battle back.
#
# Real windows under Xvfb, driven by xdotool (clicks and keys as a user makes
# them); skipped (77) without them.
source "$(dirname "$0")/lib/assert.bash"

skip() {
    echo "SKIP: $1"
    exit 77
}
command -v Xvfb >/dev/null || skip "no Xvfb"
command -v xdotool >/dev/null || skip "no xdotool"

source "$(dirname "$0")/lib/xvfb.bash"
start_xvfb || skip "Xvfb did not start"
export SDL_VIDEODRIVER=x11 XDG_DATA_HOME="$TMP/xdg" HEXBATTLE_SEED=4
DIR="$XDG_DATA_HOME/hexbattle"

# unsaved WIN: its title ends in " *" (the editor's unsaved mark), waiting
# up to five seconds for a slow machine to catch up.
unsaved() {
    for _ in $(seq 50); do
        xdotool getwindowname "$1" 2>/dev/null | grep -q ' \*$' && return 0
        sleep 0.1
    done
    return 1
}
# saved WIN: the mark is gone (same wait).
saved() {
    for _ in $(seq 50); do
        xdotool getwindowname "$1" 2>/dev/null | grep -q ' \*$' || return 0
        sleep 0.1
    done
    return 1
}

# stop PID SIGNAL: send it, wait, and set STATUS and MS (how long it took).
stop() {
    local t0 t1
    t0=$(date +%s%N)
    kill -"$2" "$1"
    wait "$1"
    STATUS=$?
    t1=$(date +%s%N)
    MS=$(((t1 - t0) / 1000000))
}

MAP="$TMP/arena.json"
cp "$SRC/maps/ridge_ambush.json" "$MAP"
cp "$MAP" "$TMP/original.json"
rows() { grep -o '"rows":.*' "$1"; }

# --- the editor, once per signal ---
for sig in TERM HUP INT; do
    rm -f "$DIR/arena.recover.json" # else the editor opens on the offer
    # The title names the map once the editor's loop has drawn a frame.
    launch "hexbattle editor - $MAP" "$TMP/edit.err" -- edit "$MAP"
    check "editor_opens_$sig" test -n "$win"
    [ -n "$win" ] || grep -av "^ *#" "$TMP/edit.err" | head -5
    # Paint two hexes with the brush (a wall) in the middle of the map (again
    # when a loaded machine has not taken the clicks in: a hex painted twice
    # is one edit).
    for _ in 1 2 3; do
        # The editor starts on the select tool: B takes the brush first.
        xdotool windowfocus --sync "$win" key b
        xdotool mousemove --window "$win" 640 420 click 1 mousemove --window "$win" 700 440 click 1
        unsaved "$win" && break
    done
    check "edits_unsaved_$sig" unsaved "$win"
    stop "$pid" "$sig"
    code=$((128 + $(kill -l "$sig")))
    check "editor_ends_by_$sig" test "$STATUS" -eq "$code"
    check "editor_stops_within_a_second_$sig" test "$MS" -lt 1000
    check "map_file_untouched_$sig" cmp -s "$MAP" "$TMP/original.json"
    check "recovery_copy_written_$sig" test -s "$DIR/arena.recover.json"
    check "recovery_names_the_map_$sig" grep -qF "\"of\":	\"$MAP\"" "$DIR/arena.recover.json"
    check "stderr_says_where_$sig" grep -qF "unsaved edits kept in $DIR/arena.recover.json" \
        "$TMP/edit.err"
    ls "$DIR" >"$TMP/ls.txt"
    check "no_temporary_left_$sig" test "$(cat "$TMP/ls.txt")" = "arena.recover.json"
done
echo "editor stopped in ${MS} ms"

# The next edit of that map offers the edits back: R restores them (the
# copy goes), Ctrl+S saves them into the map, Q quits.
launch "hexbattle editor - $MAP" "$TMP/edit2.err" -- edit "$MAP"
# (Sent again when a loaded machine has not taken the first key in.)
for _ in 1 2 3; do
    xdotool windowfocus --sync "$win" key r
    unsaved "$win" && break
done
check restored_edits_unsaved unsaved "$win"
check copy_taken_back test ! -e "$DIR/arena.recover.json"
xdotool key ctrl+s
check restored_edits_saved saved "$win"
xdotool key q
for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
wait "$pid"
status=$?
check editor_quits_after_save test "$status" -eq 0
[ "$status" -eq 0 ] || { echo "status $status"; cat "$TMP/edit2.err"; }
check map_now_holds_the_edits test "$(rows "$MAP")" != "$(rows "$TMP/original.json")"
check backup_is_the_original cmp -s "$MAP.bak" "$TMP/original.json"

# --- the play window ---
launch "hexbattle - " "$TMP/play.err" -- "$MAP"
check play_opens test -n "$win"
sleep 2
stop "$pid" TERM
echo "play window stopped in ${MS} ms"
check play_ends_by_TERM test "$STATUS" -eq 143
check play_stops_within_a_second test "$MS" -lt 1000
COPY="$DIR/arena.battle.recover.json"
check battle_copy_written test -s "$COPY"
check battle_copy_names_its_save grep -qF "\"recover_of\":	\"$TMP/arena.battle.json\"" "$COPY"
"$HB" replay "$COPY" --events >"$TMP/copy.events" 2>"$TMP/replay.err"
check battle_copy_is_a_save test $? -eq 0
check battle_copy_has_events test -s "$TMP/copy.events"

# The next start of play offers it; Enter takes it back as the newest autosave.
cp "$COPY" "$TMP/copy.json"
# (Other dice, so a battle started afresh would not match the copy.)
launch "hexbattle - " "$TMP/play2.err" HEXBATTLE_SEED=9 -- "$MAP"
sleep 1
for _ in 1 2 3 4 5; do
    xdotool windowfocus --sync "$win" key Return
    for _ in $(seq 40); do [ -e "$COPY" ] || break; sleep 0.1; done
    [ -e "$COPY" ] || break
done
sleep 0.5
check battle_copy_taken_back test ! -e "$COPY"
[ -e "$COPY" ] && grep -av "^ *#" "$TMP/play2.err" | head -5
stop "$pid" HUP
check play_ends_by_HUP test "$STATUS" -eq 129
[ "$STATUS" -eq 129 ] || grep -av "^ *#" "$TMP/play2.err" | head -30
check battle_copy_written_again test -s "$COPY"
# The battle went on from the copy: its events start with the copy's.
"$HB" replay "$COPY" --events >"$TMP/copy2.events"
head -n "$(wc -l <"$TMP/copy.events")" "$TMP/copy2.events" >"$TMP/copy2.head"
check restored_battle_went_on_from_the_copy cmp -s "$TMP/copy2.head" "$TMP/copy.events"

# A replay holds nothing unsaved: it just ends.
rm -f "$COPY"
launch "hexbattle - " "$TMP/replay.err" -- replay "$TMP/copy.json"
sleep 0.5
stop "$pid" INT
check replay_ends_by_INT test "$STATUS" -eq 130
[ "$STATUS" -eq 130 ] || grep -av "^ *#" "$TMP/replay.err" | head
check replay_writes_no_copy test ! -e "$COPY"

finish
