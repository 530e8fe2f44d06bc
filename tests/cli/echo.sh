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
finish
