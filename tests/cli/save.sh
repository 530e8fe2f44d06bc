#!/usr/bin/env bash
# Saved battles on the command line (docs/saves.md): `replay SAVE --events`
# prints the very bytes `simulate` printed for the battle that was saved; bad
# saves are refused with the JSON path, exit 2 and nothing written; the play
# window autosaves, and `resume` / `replay` open saved battles.
source "$(dirname "$0")/lib/assert.bash"

# simulate and replay --events: the same bytes, for each sample map.
for map in ridge_ambush foundry_breach salt_flats; do
    for seed in 7 12345; do
        "$HB" simulate "$SRC/maps/$map.json" --seed "$seed" --save "$TMP/$map.save.json" >"$TMP/sim.txt"
        "$HB" replay "$TMP/$map.save.json" --events >"$TMP/rep.txt" 2>"$TMP/rep.err"
        check "replay_equals_simulate_${map}_$seed" cmp -s "$TMP/sim.txt" "$TMP/rep.txt"
    done
done
# The map is inside the save: moving the map file away changes nothing.
cp "$SRC/maps/salt_flats.json" "$TMP/moved_map.json"
"$HB" simulate "$TMP/moved_map.json" --seed 3 --save "$TMP/moved.save.json" >/dev/null
rm "$TMP/moved_map.json"
"$HB" simulate "$SRC/maps/salt_flats.json" --seed 3 >"$TMP/sim.txt"
"$HB" replay "$TMP/moved.save.json" --events >"$TMP/rep.txt"
check replay_without_map_file cmp -s "$TMP/sim.txt" "$TMP/rep.txt"

# Bad saves: the file and JSON path, exit 2, and nothing on disk changes.
good="$TMP/ridge_ambush.save.json"
bad_dir="$TMP/bad"
mkdir -p "$bad_dir"
sed 's/"hexbattle-save"/"hexbattle-map"/' "$good" >"$bad_dir/format.json"
expect_fail bad_format 2 "format.json: format: expected \"hexbattle-save\"" "$HB" replay "$bad_dir/format.json" --events
# A map given where a save belongs, and the other way round: the message says what the file is.
expect_fail resume_a_map 2 "this is a map: play it with" "$HB" resume "$SRC/maps/ridge_ambush.json"
expect_fail edit_a_save 2 "this is a saved battle: go on with" "$HB" edit "$TMP/ridge_ambush.save.json"
# kara's HP in the state summary, one more than the rebuilt battle gives.
awk '/"state":/ {s=1} s && /"id":\t"kara"/ {k=1}
     k && /"hp":/ {match($0, /[0-9]+/); $0 = substr($0, 1, RSTART - 1) (substr($0, RSTART, RLENGTH) + 1) substr($0, RSTART + RLENGTH); k=0}
     {print}' "$good" >"$bad_dir/hp.json"
expect_fail bad_hp 2 "hp.json: state.combatants[0].hp: the rebuilt battle gives kara" "$HB" replay "$bad_dir/hp.json" --events
expect_fail bad_hp_resume 2 "state.combatants[0].hp" "$HB" resume "$bad_dir/hp.json"
# The same summary in a save older than the rules revision it records (no
# "rules_revision" at all) opens all the same, replayed under the current
# rules, with a note that the battle may differ (docs/saves.md).
sed '/"rules_revision":/d' "$bad_dir/hp.json" >"$TMP/older.json"
"$HB" replay "$TMP/older.json" --events >"$TMP/older.events" 2>"$TMP/older.err"
check older_save_opens test $? -eq 0
check older_save_says_it_may_differ grep -qF \
    "note: $TMP/older.json was saved under an older revision of the xhalem rules" "$TMP/older.err"
check older_save_names_the_difference grep -qF "state.combatants[0].hp" "$TMP/older.err"
"$HB" replay "$good" --events >"$TMP/good.events"
check older_save_replays_its_commands cmp -s "$TMP/older.events" "$TMP/good.events"
sed '0,/"cols":\t24/s//"cols":\t25/' "$good" >"$bad_dir/map.json"
expect_fail bad_map 2 "map.json: map.terrain.rows[0]: expected 25 characters" "$HB" resume "$bad_dir/map.json"
printf '{"format": "hexbattle-save", "version": 1' >"$bad_dir/cut.json"
expect_fail cut_short 2 "cut.json: (root): invalid JSON" "$HB" replay "$bad_dir/cut.json"
expect_fail missing 2 "$TMP/none.json" "$HB" resume "$TMP/none.json"
expect_fail replay_no_file 2 "replay: needs a save file" "$HB" replay
expect_fail replay_bad_option 2 "unknown option '--frames'" "$HB" replay "$good" --frames
before=$(cd "$bad_dir" && ls -la --time-style=full-iso | md5sum)
sums=$(md5sum "$bad_dir"/*)
"$HB" resume "$bad_dir/hp.json" 2>/dev/null
"$HB" replay "$bad_dir/map.json" 2>/dev/null
check refusals_write_nothing test "$before" = "$(cd "$bad_dir" && ls -la --time-style=full-iso | md5sum)"
check refusals_change_nothing test "$sums" = "$(md5sum "$bad_dir"/*)"

# The window (SDL dummy driver): a new battle autosaves at the start of the
# turn; HEXBATTLE_QUIT_AFTER_MS closes the window like its close button
# (exit 0). (SIGTERM keeps a recovery copy and ends by the signal: signals.sh.)
export XDG_DATA_HOME="$TMP/xdg"
run_window() {
    HEXBATTLE_QUIT_AFTER_MS=1500 "$HB" "$@" >/dev/null 2>"$TMP/win.err"
}
run_window "$SRC/maps/ridge_ambush.json"
check window_exit_0 test $? -eq 0
auto="$XDG_DATA_HOME/hexbattle/autosave-1.json"
check autosave_written test -s "$auto"
check autosave_replays bash -c '"$0" replay "$1" --events | grep -q "\"event\":\"turn_start\""' "$HB" "$auto"
run_window resume
check resume_newest_autosave test $? -eq 0
run_window resume "$good"
check resume_finished_battle test $? -eq 0
run_window replay "$good"
check replay_on_screen test $? -eq 0
run_window resume "$TMP/older.json"
check resume_older_save test $? -eq 0
check no_stray_files test -z "$(ls "$TMP" | grep '\.tmp\.')"

finish
