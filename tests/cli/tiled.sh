#!/usr/bin/env bash
# hexbattle convert and Tiled maps on the command line: exact round trips of
# the bundled maps through .tmj and .tmx, every command taking a Tiled map,
# bad Tiled files refused with exit 2 and nothing written.
source "$(dirname "$0")/lib/assert.bash"

# Every map of the tree that loads (the bundled ones, the golden maps with
# map-defined terrain and faction scores) goes to .tmj and .tmx and back to
# the very same file.
n=0
for src in "$SRC"/maps/*.json "$SRC"/tests/data/*.json "$SRC"/tests/cli/maps/*.json \
           "$SRC"/tests/fuzz/corpus/map/good_*.json; do
    "$HB" convert "$src" "$TMP/canon.json" 2>/dev/null || continue
    n=$((n + 1))
    m=$(basename "$src" .json)
    for f in tmj tmx; do
        check "convert_${m}_to_$f" "$HB" convert "$src" "$TMP/$m.$f"
        check "convert_${m}_from_$f" "$HB" convert "$TMP/$m.$f" "$TMP/$m.$f.json"
        check "round_trip_${m}_$f" cmp -s "$TMP/canon.json" "$TMP/$m.$f.json"
    done
done
check round_trip_maps_found test "$n" -ge 8
# A Tiled map comes with its tileset picture, named in the map.
check tiles_picture_written test -s "$TMP/ridge_ambush.tiles.png"
check tiles_picture_named grep -qF '<image source="ridge_ambush.tiles.png"' "$TMP/ridge_ambush.tmx"

# The sample Tiled map works wherever a map is taken.
RC="$SRC/maps/mill_ford.tmx"
expect_out query_tmx '{"hexes":3,"feet":15}' "$HB" query "$RC" distance 2,6 5,6
check render_tmx "$HB" render "$RC" --out "$TMP/rc.png" --size 320x200
check render_tmx_png test -s "$TMP/rc.png"
check simulate_tmx bash -c '"$0" simulate "$1" --seed 5 | tail -1 | grep -q "\"event\":\"end\""' "$HB" "$RC"
check query_tmj bash -c '"$0" convert "$1" "$2" && "$0" query "$2" los 2,6 13,6 | grep -q visible' \
    "$HB" "$RC" "$TMP/rc.tmj"

# A Tiled layer hexbattle does not read is named in one line.
check dropped_layers_named bash -c '"$0" convert "$1" "$2" 2>&1 | grep -c "dropped Tiled layers" | grep -qx 1' \
    "$HB" "$SRC/tests/data/tiled/pointy_odd.tmx" "$TMP/p.json"

# A tile naming no terrain reads as open: the answer on stdout as ever, one
# line on stderr, exit 0 - for query, simulate and render alike.
NT="$SRC/tests/data/tiled/gid_no_terrain.tmx"
expect_out query_no_terrain_tile '{"hexes":2,"feet":10}' "$HB" query "$NT" distance 0,0 2,0
check query_no_terrain_one_line bash -c '"$0" query "$1" distance 0,0 2,0 2>&1 >/dev/null | grep -c "naming no terrain" | grep -qx 1' "$HB" "$NT"
check query_no_terrain_stderr_one_line bash -c '[ "$("$0" query "$1" distance 0,0 2,0 2>&1 >/dev/null | wc -l)" -eq 1 ]' "$HB" "$NT"
check simulate_no_terrain bash -c '"$0" simulate "$1" --seed 2 2>/dev/null | tail -1 | grep -q "\"event\":\"end\""' "$HB" "$NT"
check simulate_no_terrain_stdout_json bash -c '! "$0" simulate "$1" --seed 2 2>/dev/null | grep -v "^{"' "$HB" "$NT"
check render_no_terrain "$HB" render "$NT" --out "$TMP/nt.png" --size 200x150

# A map's own pictures: a missing one draws the terrain colours, said in one
# line; converting says what the other file does not hold.
mkdir -p "$TMP/art"
sed 's|<tileset firstgid="1" name="terrain" tilewidth="64" tileheight="74" tilecount="5" columns="0">|<tileset firstgid="1" name="terrain" tilewidth="64" tileheight="74" tilecount="5" columns="5"><image source="gone.png" width="320" height="74"/>|' \
    "$SRC/tests/data/tiled/pointy_odd.tmx" > "$TMP/art/gone.tmx"
check render_missing_picture bash -c '"$0" render "$1" --out "$2" --size 200x150 2>&1 | grep -c "gone.png" | grep -qx 1' \
    "$HB" "$TMP/art/gone.tmx" "$TMP/art/gone.png.out.png"
check convert_says_pictures_dropped bash -c '"$0" convert "$1" "$2" 2>&1 | grep -q "pictures are not written"' \
    "$HB" "$TMP/art/gone.tmx" "$TMP/art/gone.json"

# Bad input: exit 2, the file and the path named, nothing written.
expect_fail convert_bad_tmx 2 "tiled_orthogonal.tmx: orientation" \
    "$HB" convert "$SRC/tests/data/bad/tiled_orthogonal.tmx" "$TMP/never.json"
check convert_bad_writes_nothing test ! -e "$TMP/never.json"
expect_fail convert_bad_to_tmx 2 "tiled_orthogonal.tmx: orientation" \
    "$HB" convert "$SRC/tests/data/bad/tiled_orthogonal.tmx" "$TMP/never.tmx"
check convert_bad_writes_no_picture test ! -e "$TMP/never.tmx" -a ! -e "$TMP/never.tiles.png"
expect_fail query_bad_tmj 2 "tiled_infinite.tmj: infinite" \
    "$HB" query "$SRC/tests/data/bad/tiled_infinite.tmj" distance 0,0 1,1
expect_fail convert_bad_ext 2 "must end in .json, .tmj or .tmx" \
    "$HB" convert "$SRC/maps/ridge_ambush.json" "$TMP/x.txt"
expect_fail convert_usage 2 "convert takes a map" "$HB" convert "$SRC/maps/ridge_ambush.json"
finish
