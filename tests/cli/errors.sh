#!/usr/bin/env bash
# Bad input on the command line: a clear message on stderr, nothing on
# stdout, exit status 2; nothing on disk changes.
source "$(dirname "$0")/lib/assert.bash"

expect_fail missing_map 2 "$TMP/nope.json" "$HB" query "$TMP/nope.json" distance 0,0 1,1
expect_fail bad_row 2 "bad_row.json: terrain.rows[1]" "$HB" query "$MAPS/bad_row.json" distance 0,0 1,1
expect_fail bad_cell 2 "'3;4' is not a cell" "$HB" query "$MAPS/field.json" distance 3\;4 1,1
expect_fail cell_off_map 2 "off the 15x15 map" "$HB" query "$MAPS/field.json" distance 0,0 15,0
expect_fail negative_cell 2 "off the 15x15 map" "$HB" query "$MAPS/field.json" los -1,0 1,1
expect_fail unknown_id 2 "no combatant 'zed'" "$HB" query "$MAPS/field.json" reach zed
expect_fail unknown_query 2 "unknown query 'teleport'" "$HB" query "$MAPS/field.json" teleport a
expect_fail reach_bad_flag 2 "query reach takes" "$HB" query "$MAPS/field.json" reach a --sprint
expect_fail flank_self 2 "cannot flank itself" "$HB" query "$MAPS/flank.json" flanking a a
expect_fail render_no_out 2 "render needs a map and --out" "$HB" render "$MAPS/field.json"
expect_fail render_bad_size 2 "--size '12by3'" "$HB" render "$MAPS/field.json" --out "$TMP/x.png" --size 12by3
expect_fail render_bad_overlay 2 "overlay 'fog': expected" "$HB" render "$MAPS/field.json" --out "$TMP/x.png" --overlay fog
expect_fail unknown_option 2 "unknown option '--frobnicate'" "$HB" --frobnicate
expect_fail unknown_command 2 "'simulat' is neither a command nor a map file" "$HB" simulat
# A map path that does not exist is still reported as a missing file.
expect_fail missing_play_map 2 "$TMP/gone.json: No such file" "$HB" "$TMP/gone.json"
check render_bad_map_writes_nothing bash -c '! "$0" render "$1" --out "$2" 2>/dev/null; test ! -e "$2"' "$HB" "$MAPS/bad_row.json" "$TMP/never.png"

# Strict JSON (issue 18): what cJSON alone would read is refused, with the
# JSON path, in maps (every command that reads one), saves and data files.
# The cases are tests/data/bad/json_*.json; a save and a data folder get the
# same faults here.
BAD="$SRC/tests/data/bad"
expect_fail strict_map_nul 2 "json_nul_between.json: (root): a NUL byte in the file" \
    "$HB" query "$BAD/json_nul_between.json" distance 0,0 1,1
expect_fail strict_map_nul_string 2 "json_nul_in_string.json: name: a NUL byte inside a string" \
    "$HB" render "$BAD/json_nul_in_string.json" --out "$TMP/never.png"
expect_fail strict_map_control 2 "json_control_outside.json: (root): control character 0x0c" \
    "$HB" simulate "$BAD/json_control_outside.json" --seed 1
expect_fail strict_map_control_string 2 "terrain.rows[0]: control character 0x09 inside a string" \
    "$HB" edit "$BAD/json_control_in_string.json"
expect_fail strict_map_utf8 2 "json_utf8_invalid.json: name: invalid UTF-8" \
    "$HB" "$BAD/json_utf8_invalid.json"
expect_fail strict_map_overlong 2 "json_utf8_overlong.json: name: invalid UTF-8" \
    "$HB" project "$BAD/json_utf8_overlong.json"
expect_fail strict_map_surrogate 2 "json_utf8_surrogate.json: combatants[2].id: invalid UTF-8" \
    "$HB" query "$BAD/json_utf8_surrogate.json" reach kara
expect_fail strict_map_duplicate 2 "json_key_twice.json: terrain_types.bog.move: given twice" \
    "$HB" query "$BAD/json_key_twice.json" distance 0,0 1,1
expect_fail strict_map_int 2 "json_int_overflow.json: grid.cols: number 4294967302 is out of range" \
    "$HB" query "$BAD/json_int_overflow.json" distance 0,0 1,1
expect_fail strict_map_huge 2 "json_number_huge.json: combatants[1].at[0]: number 1e309" \
    "$HB" query "$BAD/json_number_huge.json" distance 0,0 1,1
expect_fail strict_map_deep 2 "json_nested_deep.json: combatants[2].notes.a" \
    "$HB" query "$BAD/json_nested_deep.json" distance 0,0 1,1
expect_fail strict_map_nul_escape 2 "json_nul_escape.json: name: a NUL (\\u0000) inside a string" \
    "$HB" query "$BAD/json_nul_escape.json" distance 0,0 1,1
check render_strict_map_writes_nothing test ! -e "$TMP/never.png"

# The same faults in a Tiled .tmj map (hexbattle's own map converted), and in
# the JSON a Tiled property holds.
"$HB" convert "$SRC/maps/ridge_ambush.json" "$TMP/good.tmj"
tiled_case() {
    sed "$2" "$TMP/good.tmj" >"$TMP/$1.tmj"
    expect_fail "strict_tmj_$1" 2 "$1.tmj: $3" "$HB" query "$TMP/$1.tmj" distance 0,0 1,1
}
tiled_case nul 's/^\t"height":/\x00\t"height":/' "(root): a NUL byte in the file"
tiled_case control 's/^\t"height":/\x02\t"height":/' "(root): control character 0x02 outside a string"
tiled_case utf8 's/"Ridge Ambush"/"Ridge \xc3\x28 Ambush"/' "properties[2].value: invalid UTF-8 inside a string"
tiled_case nul_escape 's/"Ridge Ambush"/"Ridge\\u0000Ambush"/' "properties[2].value: a NUL (\\u0000) inside a string"
tiled_case duplicate 's/^\t"height":\t16,/\t"height":\t16, "height": 16,/' "height: given twice"
tiled_case int 's/^\t"height":\t16,/\t"height":\t4294967312,/' "height: number 4294967312 is out of range"
tiled_case deep 's/^\t"height":\t16,/\t"height":\t16, "x": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],/' \
    "x[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: nested deeper than 32 levels"
tiled_case property_twice 's/"name":\t"legend",/"name":\t"name",/' "properties[2]: property 'name' given twice"

"$HB" simulate "$SRC/maps/ridge_ambush.json" --seed 2 --save "$TMP/good.save.json" >/dev/null
# save_case NAME SED-EXPRESSION EXPECTED: the save with one fault, refused by
# resume and replay alike.
save_case() {
    sed "$2" "$TMP/good.save.json" >"$TMP/$1.json"
    expect_fail "strict_save_$1_resume" 2 "$1.json: $3" "$HB" resume "$TMP/$1.json"
    expect_fail "strict_save_$1_replay" 2 "$1.json: $3" "$HB" replay "$TMP/$1.json" --events
}
save_case nul 's/^\t"seed":/\x00\t"seed":/' "(root): a NUL byte in the file"
save_case nul_escape 's/"Ridge Ambush"/"Ridge\\u0000Ambush"/' "map.name: a NUL (\\u0000) inside a string"
save_case control 's/^\t"seed":/\x02\t"seed":/' "(root): control character 0x02 outside a string"
save_case control_string 's/"Ridge Ambush"/"Ridge\x0bAmbush"/' "map.name: control character 0x0b"
save_case utf8 's/"Ridge Ambush"/"Ridge \xc3\x28 Ambush"/' "map.name: invalid UTF-8 inside a string"
save_case duplicate 's/^\t"seed":\t"2",/\t"seed":\t"2",\n\t"seed":\t"3",/' "seed: given twice"
save_case int 's/"max_rounds":\t100/"max_rounds":\t10000000000/' \
    "options.max_rounds: number 10000000000 is out of range"
save_case deep 's/^\t"dice":\t\[\]/\t"dice":\t[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]/' \
    "dice[0][0][0]"

# A data folder whose templates file has a key twice, or a NUL.
cp -r "$SRC/data" "$TMP/data"
sed -i '0,/"hp": 18,/s//"hp": 18, "hp": 19,/' "$TMP/data/xhalem/templates.json"
HEXBATTLE_DATA="$TMP/data" expect_fail strict_data_duplicate 2 \
    "xhalem/templates.json: templates.scout.hp: given twice" \
    "$HB" query "$SRC/maps/ridge_ambush.json" distance 0,0 1,1
cp "$SRC/data/xhalem/templates.json" "$TMP/data/xhalem/templates.json"
sed -i '0,/"Ridge Scout"/s//"Ridge\x00Scout"/' "$TMP/data/xhalem/templates.json"
HEXBATTLE_DATA="$TMP/data" expect_fail strict_data_nul 2 \
    "xhalem/templates.json: templates.scout.name: a NUL byte inside a string" \
    "$HB" simulate "$SRC/maps/ridge_ambush.json" --seed 1
cp "$SRC/data/terrain.json" "$TMP/data/terrain.json"
sed -i 's/"open": *{ "move": 1/"open": { "move": 99999999999/' "$TMP/data/terrain.json"
HEXBATTLE_DATA="$TMP/data" expect_fail strict_data_int 2 \
    "terrain.json: types.open.move: number 99999999999 is out of range" \
    "$HB" query "$SRC/maps/ridge_ambush.json" distance 0,0 1,1

# --help and --version answer on stdout with status 0
out=$("$HB" --help)
check help_lists_query grep -q 'hexbattle query MAP los C,R C,R' <<<"$out"
out=$("$HB" --version)
check version grep -Eq '^hexbattle [0-9]+\.[0-9]+\.[0-9]+$' <<<"$out"

finish
