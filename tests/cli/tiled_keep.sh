#!/usr/bin/env bash
# A Tiled save loses nothing without a word (issue 30): a save over a Tiled
# map holding layers hexbattle does not read is refused (naming them) and
# leaves the file as it was; a tileset picture hexbattle did not write is not
# replaced; the picture it replaces is kept as .bak, like the map.
source "$(dirname "$0")/lib/assert.bash"

MAP="$SRC/maps/ridge_ambush.json"
D="$TMP/d"
mkdir -p "$D"

# --- other layers ---
"$HB" convert "$MAP" "$D/art.tmx"
# The user adds a picture layer in Tiled.
sed 's|</map>| <imagelayer id="90" name="sky">\n  <image source="sky.png" width="64" height="64"/>\n </imagelayer>\n</map>|' \
    "$D/art.tmx" >"$D/art2.tmx" && mv "$D/art2.tmx" "$D/art.tmx"
sum=$(md5sum <"$D/art.tmx")
"$HB" convert "$MAP" "$D/art.tmx" >/dev/null 2>"$TMP/err"
check other_layers_save_exit_1 test $? -eq 1
check other_layers_named grep -qF "art.tmx: not saved: it holds Tiled layers hexbattle does not read: 'sky' (imagelayer)" "$TMP/err"
check other_layers_file_unchanged test "$sum" = "$(md5sum <"$D/art.tmx")"
check other_layers_no_temporary test -z "$(ls -A "$D" | grep tmp)"
# Saved under another name, it goes through.
"$HB" convert "$D/art.tmx" "$D/art_copy.tmx" 2>"$TMP/err"
check other_name_ok test $? -eq 0

# --- the tileset picture ---
# A picture of the user's own (a render: hexbattle's PNG, but not its tileset).
"$HB" render "$MAP" --out "$D/mine.tiles.png" --size 64x64
psum=$(md5sum <"$D/mine.tiles.png")
"$HB" convert "$MAP" "$D/mine.tmj" >/dev/null 2>"$TMP/err"
check foreign_picture_exit_1 test $? -eq 1
check foreign_picture_said grep -qF "mine.tiles.png was not written by hexbattle" "$TMP/err"
check foreign_picture_kept test "$psum" = "$(md5sum <"$D/mine.tiles.png")"
check foreign_picture_no_map test ! -e "$D/mine.tmj"
# hexbattle's own picture is replaced, the old one kept as .bak.
"$HB" convert "$MAP" "$D/own.tmj"
first=$(md5sum <"$D/own.tiles.png")
"$HB" convert "$SRC/maps/salt_flats.json" "$D/own.tmj" 2>"$TMP/err"
check own_picture_replaced test $? -eq 0
check own_picture_bak test "$first" = "$(md5sum <"$D/own.tiles.png.bak")"
check own_map_bak test -s "$D/own.tmj.bak"
finish
