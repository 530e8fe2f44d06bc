#!/usr/bin/env bash
# The real Tiled reads what hexbattle writes: each bundled map (and one with
# faction scores) converted to
# .tmx and .tmj by hexbattle is exported by the `tiled` command line into the
# other format, and hexbattle reads Tiled's file back into the same map; Tiled
# keeps the tileset picture and its tmxrasterizer draws the map with it.
# Skips (77) where Tiled is not installed (Debian package `tiled`).
source "$(dirname "$0")/lib/assert.bash"
if ! command -v tiled >/dev/null 2>&1; then
    echo "tiled is not installed: skipping the interop check"
    exit 77
fi
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$TMP/run"
mkdir -p "$TMP/run" && chmod 700 "$TMP/run"

for src in "$SRC"/maps/*.json "$SRC"/tests/fuzz/corpus/map/good_faction_objects.json; do
    m=$(basename "$src" .json)
    "$HB" convert "$src" "$TMP/$m.canon.json"
    "$HB" convert "$src" "$TMP/$m.tmx"
    "$HB" convert "$src" "$TMP/$m.tmj"
    check "tiled_reads_${m}_tmx" timeout 120 tiled --export-map json "$TMP/$m.tmx" "$TMP/$m.by_tiled.tmj"
    check "tiled_reads_${m}_tmj" timeout 120 tiled --export-map tmx "$TMP/$m.tmj" "$TMP/$m.by_tiled.tmx"
    # Tiled keeps the tileset picture hexbattle wrote beside the map
    # (test_ui_tiled_tiles checks what is in it), and draws the map with it.
    check "tiled_keeps_picture_${m}" grep -qF "\"image\":\"$m.tiles.png\"" "$TMP/$m.by_tiled.tmj"
    if command -v tmxrasterizer >/dev/null 2>&1; then
        check "tiled_draws_${m}" timeout 120 tmxrasterizer "$TMP/$m.tmx" "$TMP/$m.tiled.png"
        check "tiled_drew_${m}" test -s "$TMP/$m.tiled.png"
    fi
    for f in tmj tmx; do
        check "back_${m}_$f" "$HB" convert "$TMP/$m.by_tiled.$f" "$TMP/$m.by_tiled.$f.json"
        check "unchanged_${m}_$f" cmp -s "$TMP/$m.canon.json" "$TMP/$m.by_tiled.$f.json"
    done
done
finish
