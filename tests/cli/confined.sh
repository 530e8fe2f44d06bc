#!/usr/bin/env bash
# Paths a map names stay where they belong (issue 30): a token or texture is
# a relative path inside assets/ (no "..", no absolute path: exit 2 with the
# JSON path); an image is read only when it is a regular file, and decoded
# only when its header says at most 4096x4096 pixels (a FIFO would block, a
# 12000x12000 PNG of a few bytes would cost gigabytes); a Tiled tileset named
# inside the map's folder may not be a link leading out of it.
source "$(dirname "$0")/lib/assert.bash"

MAP="$SRC/maps/ridge_ambush.json"
T="timeout -s KILL 30"
# with_token TOKEN OUT: the sample map with kara's token set to TOKEN.
with_token() {
    sed "0,/\"template\": \"scout\"/s||\"template\": \"scout\", \"token\": \"$1\"|" "$MAP" >"$2"
}

# --- refused paths ---
with_token "../../etc/passwd" "$TMP/up.json"
expect_fail token_dotdot 2 "up.json: combatants[0].token: '../../etc/passwd' must be a relative path inside assets/" \
    "$HB" query "$TMP/up.json" distance 0,0 1,1
with_token "/etc/passwd" "$TMP/abs.json"
expect_fail token_absolute 2 "abs.json: combatants[0].token: '/etc/passwd' must be a relative path inside assets/" \
    "$HB" query "$TMP/abs.json" distance 0,0 1,1
with_token 'tokens/..\\\\..\\\\x.png' "$TMP/back.json"
expect_fail token_backslash_dotdot 2 "combatants[0].token" "$HB" query "$TMP/back.json" distance 0,0 1,1
# A terrain type's texture, in the map's own types.
sed 's|"smoke":    { "move": 1,|"smoke": { "texture": "../../../etc/shadow", "move": 1,|' \
    "$SRC/maps/relay_outpost.json" >"$TMP/tex.json"
expect_fail texture_dotdot 2 "tex.json: terrain_types.smoke.texture: '../../../etc/shadow' must be a relative path inside assets/" \
    "$HB" query "$TMP/tex.json" distance 0,0 1,1

# --- images read with care: a private assets folder ---
A="$TMP/assets"
mkdir -p "$A/tokens"
ln -s "$SRC/assets/fonts" "$A/fonts"
ln -s "$SRC/assets/textures" "$A/textures"
# A PNG header claiming 12000x12000 pixels, and nothing else.
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x2e\xe0\x00\x00\x2e\xe0\x08\x06\x00\x00\x00\x00\x00\x00\x00' >"$A/tokens/huge.png"
mkfifo "$A/tokens/pipe.png"
cp "$SRC/assets/textures/wall.png" "$A/tokens/fine.png"
with_token "tokens/huge.png" "$TMP/huge.json"
HEXBATTLE_ASSETS="$A" $T "$HB" render "$TMP/huge.json" --out "$TMP/huge.png" --size 300x200 2>"$TMP/err"
check huge_token_render_ok test $? -eq 0
check huge_token_refused grep -qF "huge.png: 12000x12000 pixels, over the 4096x4096 limit" "$TMP/err"
with_token "tokens/pipe.png" "$TMP/pipe.json"
HEXBATTLE_ASSETS="$A" $T "$HB" render "$TMP/pipe.json" --out "$TMP/pipe.png" --size 300x200 2>"$TMP/err"
check fifo_token_render_ok test $? -eq 0
check fifo_token_refused grep -qF "pipe.png: not a regular file" "$TMP/err"
with_token "tokens/fine.png" "$TMP/fine.json"
HEXBATTLE_ASSETS="$A" $T "$HB" render "$TMP/fine.json" --out "$TMP/fine.png" --size 300x200 2>"$TMP/err"
check fine_token_ok test $? -eq 0
check fine_token_no_word test ! -s "$TMP/err"

# --- a Tiled tileset through a link out of the map's folder ---
mkdir -p "$TMP/tiled/src" "$TMP/outside"
cp "$SRC/tests/data/tiled/flat_even.tmx" "$TMP/tiled/"
cp "$SRC/tests/data/tiled/src/terrain.tsx" "$TMP/outside/"
ln -s "$TMP/outside/terrain.tsx" "$TMP/tiled/src/terrain.tsx"
expect_fail tileset_link_out 2 "'src/terrain.tsx' leads out of the map's folder" \
    "$HB" query "$TMP/tiled/flat_even.tmx" distance 0,0 1,1
# The same tileset really inside: read.
rm "$TMP/tiled/src/terrain.tsx"
cp "$TMP/outside/terrain.tsx" "$TMP/tiled/src/"
"$HB" query "$TMP/tiled/flat_even.tmx" distance 0,0 1,1 >/dev/null 2>"$TMP/err"
check tileset_inside_ok test $? -eq 0
finish
