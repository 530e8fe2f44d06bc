#!/usr/bin/env bash
# Loads are bounded (issue 30): a Tiled map naming one large external tileset
# many times reads it once; the tilesets of one map together may not pass the
# 16 MiB file limit (a 2 KB map naming a 16 MiB tileset eight times once cost
# 5.3 GB).
source "$(dirname "$0")/lib/assert.bash"

D="$TMP/t"
mkdir -p "$D/src"
# A 6 MB tileset: the test fixture with a long comment.
{
    head -n 1 "$SRC/tests/data/tiled/src/terrain.tsx"
    printf '<!-- '
    head -c 6000000 /dev/zero | tr '\0' 'x'
    printf ' -->\n'
    tail -n +2 "$SRC/tests/data/tiled/src/terrain.tsx"
} >"$D/src/big.tsx"
cp "$D/src/big.tsx" "$D/src/big2.tsx"
cp "$D/src/big.tsx" "$D/src/big3.tsx"
# map_with SOURCE... : the fixture map naming each SOURCE as a tileset in turn.
map_with() {
    local out="$1" sets="" gid=1
    shift
    for s in "$@"; do
        sets="$sets <tileset firstgid=\"$gid\" source=\"$s\"/>\n"
        gid=$((gid + 100))
    done
    sed "s|^ <tileset firstgid=\"1\" source=\"src/terrain.tsx\"/>|$sets|" \
        "$SRC/tests/data/tiled/flat_even.tmx" >"$out"
}
# Eight times the same 6 MB tileset: read once, the map loads.
map_with "$D/same.tmx" src/big.tsx src/big.tsx src/big.tsx src/big.tsx src/big.tsx src/big.tsx src/big.tsx src/big.tsx
"$HB" query "$D/same.tmx" distance 0,0 1,1 >"$TMP/out" 2>"$TMP/err"
check same_tileset_eight_times_loads test $? -eq 0
# Three different 6 MB tilesets: 18 MB together, refused.
map_with "$D/three.tmx" src/big.tsx src/big2.tsx src/big3.tsx
expect_fail three_tilesets_over_the_limit 2 "tilesets[2].source: cannot read the tileset" \
    "$HB" query "$D/three.tmx" distance 0,0 1,1
check three_tilesets_say_the_limit grep -qF "together may not pass 16 MiB" "$TMP/err"
finish
