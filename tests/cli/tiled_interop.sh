#!/usr/bin/env bash
# The real Tiled reads what hexbattle writes: each bundled map converted to
# .tmx and .tmj by hexbattle is exported by the `tiled` command line into the
# other format, and hexbattle reads Tiled's file back into the same map.
# Skips (77) where Tiled is not installed (Debian package `tiled`).
source "$(dirname "$0")/lib/assert.bash"
if ! command -v tiled >/dev/null 2>&1; then
    echo "tiled is not installed: skipping the interop check"
    exit 77
fi
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$TMP/run"
mkdir -p "$TMP/run" && chmod 700 "$TMP/run"

for m in ridge_ambush foundry_breach salt_flats; do
    "$HB" convert "$SRC/maps/$m.json" "$TMP/$m.canon.json"
    "$HB" convert "$SRC/maps/$m.json" "$TMP/$m.tmx"
    "$HB" convert "$SRC/maps/$m.json" "$TMP/$m.tmj"
    check "tiled_reads_${m}_tmx" timeout 120 tiled --export-map json "$TMP/$m.tmx" "$TMP/$m.by_tiled.tmj"
    check "tiled_reads_${m}_tmj" timeout 120 tiled --export-map tmx "$TMP/$m.tmj" "$TMP/$m.by_tiled.tmx"
    for f in tmj tmx; do
        check "back_${m}_$f" "$HB" convert "$TMP/$m.by_tiled.$f" "$TMP/$m.by_tiled.$f.json"
        check "unchanged_${m}_$f" cmp -s "$TMP/$m.canon.json" "$TMP/$m.by_tiled.$f.json"
    done
done
finish
