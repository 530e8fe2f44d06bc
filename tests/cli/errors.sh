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

# --help and --version answer on stdout with status 0
out=$("$HB" --help)
check help_lists_query grep -q 'hexbattle query MAP los C,R C,R' <<<"$out"
out=$("$HB" --version)
check version grep -Eq '^hexbattle [0-9]+\.[0-9]+\.[0-9]+$' <<<"$out"

finish
