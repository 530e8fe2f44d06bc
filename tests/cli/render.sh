#!/usr/bin/env bash
# Headless rendering of every bundled map through SDL's dummy driver.
source "$(dirname "$0")/lib/assert.bash"
export SDL_VIDEODRIVER=dummy

# PNG width and height from the IHDR chunk (bytes 16..23, big-endian).
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{printf "%dx%d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'; }

for map in "$SRC"/maps/*.json; do
    name=$(basename "$map" .json)
    out="$TMP/$name.png"
    check "render_$name" "$HB" render "$map" --out "$out" --size 640x360
    check "png_$name" test "$(od -An -tx1 -N8 "$out" 2>/dev/null | tr -d ' ')" = "89504e470d0a1a0a"
    check "size_$name" test "$(png_size "$out")" = "640x360"
done
# --size defaults to 1280x720
check render_default_size "$HB" render "$SRC/maps/ridge_ambush.json" --out "$TMP/d.png"
check default_size test "$(png_size "$TMP/d.png")" = "1280x720"
# an existing file is replaced whole, and a failed render leaves it alone
printf 'keep me' > "$TMP/keep.png"
check failed_render_keeps_file bash -c '! "$0" render "$1" --out "$2" 2>/dev/null; test "$(cat "$2")" = "keep me"' "$HB" "$MAPS/bad_row.json" "$TMP/keep.png"

finish
