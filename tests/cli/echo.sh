#!/usr/bin/env bash
# Messages that echo input never carry its control characters raw (issue 30):
# an ESC in an id prints as \x1b, so a map cannot drive the terminal; faction
# names are held to the rules of ids.
source "$(dirname "$0")/lib/assert.bash"

MAP="$SRC/maps/ridge_ambush.json"
sed 's/"id": "kara"/"id": "ka\\u001b[31mra"/' "$MAP" >"$TMP/esc.json"
"$HB" query "$TMP/esc.json" distance 0,0 1,1 >/dev/null 2>"$TMP/err"
check escaped_id_exit_2 test $? -eq 2
check escaped_id_no_raw_esc bash -c '! grep -q $'"'"'\x1b'"'"' "$1"' _ "$TMP/err"
check escaped_id_shown_as_x1b grep -qF 'combatants[0].id: '"'"'ka\x1b[31mra'"'" "$TMP/err"
# A save's command echoing an actor with a control character.
"$HB" simulate "$MAP" --seed 3 --save "$TMP/s.json" >/dev/null
sed '0,/"actor":[[:space:]]*"[^"]*"/s//"actor": "x\\u0007y"/' "$TMP/s.json" >"$TMP/bell.json"
"$HB" replay "$TMP/bell.json" --events >/dev/null 2>"$TMP/err"
check bell_actor_exit_2 test $? -eq 2
check bell_actor_no_raw_bel bash -c '! grep -q $'"'"'\x07'"'"' "$1"' _ "$TMP/err"
# Faction names: like ids.
sed '0,/"faction": "players"/s//"faction": "play ers"/' "$MAP" >"$TMP/fac.json"
expect_fail faction_with_space 2 "fac.json: combatants[0].faction: 'play ers' is not a valid faction name" \
    "$HB" query "$TMP/fac.json" distance 0,0 1,1
# Messages built outside the map loader (issue 30, item 13): the command
# line's own errors, file errors, Tiled's. One helper: exit 2, no raw
# control byte on stderr, and the escaped text shown (exit 1 when the
# trouble is writing, not the input: ECHO_STATUS).
no_raw() { ! LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$1"); }
echo_case() { # NAME EXPECTED_SUBSTRING CMD...
    local name="$1" want="$2"
    shift 2
    "$@" >/dev/null 2>"$TMP/err"
    check "${name}_exit_${ECHO_STATUS:-2}" test $? -eq "${ECHO_STATUS:-2}"
    check "${name}_no_raw_control" no_raw "$TMP/err"
    check "${name}_shown_escaped" grep -qF -- "$want" "$TMP/err"
}
ESC=$'\e'
NL=$'\n'
echo_case cell_arg "'3\\x1b[2J,4' is not a cell" \
    "$HB" query "$MAP" distance "3${ESC}[2J,4" 1,1
echo_case id_arg "no combatant 'ka\\x1b[31mra'" "$HB" query "$MAP" reach "ka${ESC}[31mra"
echo_case unknown_option "unknown option '--se\\x0aed'" "$HB" simulate "$MAP" "--se${NL}ed" 1
echo_case missing_map "no\\x1b[31m\\x0ahexbattle: forged.json" \
    "$HB" query "$TMP/no${ESC}[31m${NL}hexbattle: forged.json" distance 0,0 1,1
check missing_map_one_line test "$(wc -l <"$TMP/err")" -eq 1
echo_case missing_save "gone\\x07.json" "$HB" replay "$TMP/gone"$'\a'".json"
ECHO_STATUS=1 echo_case render_out_dir "x\\x1b" "$HB" render "$MAP" --out "$TMP/nodir/x${ESC}/y.png"
# A Tiled map naming a tileset that is not there, with an ESC in its name.
mkdir -p "$TMP/tiled"
sed 's|"source":"src\\/terrain.tsx"|"source":"src\\/ter\\u001brain.tsx"|' \
    "$SRC/tests/data/tiled/flat_even.tmj" >"$TMP/tiled/esc.tmj"
check tiled_case_made grep -q 'u001b' "$TMP/tiled/esc.tmj"
echo_case tiled_tileset "ter\\x1brain.tsx" "$HB" query "$TMP/tiled/esc.tmj" distance 0,0 1,1
finish
