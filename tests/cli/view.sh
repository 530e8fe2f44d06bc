#!/usr/bin/env bash
# render --view FACTION (the player view) and --hex-mm/--dpi (print scale).
source "$(dirname "$0")/lib/assert.bash"
export SDL_VIDEODRIVER=dummy
MAP="$SRC/maps/ridge_ambush.json"

# PNG width and height from the IHDR chunk (bytes 16..23, big-endian).
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{printf "%dx%d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'; }

check view_players "$HB" render "$MAP" --out "$TMP/p.png" --view players --size 640x360
check view_players_size test "$(png_size "$TMP/p.png")" = "640x360"
check view_raiders "$HB" render "$MAP" --out "$TMP/r.png" --view raiders --size 640x360
# The two sides see different things, and neither sees what the referee does.
check views_differ bash -c '! cmp -s "$0" "$1"' "$TMP/p.png" "$TMP/r.png"
check referee "$HB" render "$MAP" --out "$TMP/all.png" --size 640x360
check view_is_not_referee bash -c '! cmp -s "$0" "$1"' "$TMP/p.png" "$TMP/all.png"
expect_fail view_unknown 2 "no faction 'martians'" "$HB" render "$MAP" --out "$TMP/x.png" --view martians
check view_unknown_writes_nothing test ! -e "$TMP/x.png"

# Ridge Ambush is 24 x 16 pointy hexes, odd rows pushed half a hex right:
# 24.5 hexes wide, and 15 * 1.5 + 2 circumradii high (r = size / sqrt 3).
# At 25.4 mm and 300 dpi a hex is 300 px: 7350 x ceil(24.5 * 173.205) = 4244,
# plus a 5 mm (59 px) margin on each side.
check print_300 "$HB" render "$MAP" --out "$TMP/print.png" --hex-mm 25.4 --dpi 300
check print_300_size test "$(png_size "$TMP/print.png")" = "7468x4362"
# Half the hex size at 300 dpi: 3675 x ceil(2121.76) = 2122, plus margins. --size is ignored.
check print_half "$HB" render "$MAP" --out "$TMP/half.png" --hex-mm 12.7 --dpi 300 --size 100x100
check print_half_size test "$(png_size "$TMP/half.png")" = "3793x2240"
# The same scale with the player view.
check print_view "$HB" render "$MAP" --out "$TMP/pv.png" --hex-mm 12.7 --dpi 300 --view players
check print_view_size test "$(png_size "$TMP/pv.png")" = "3793x2240"
expect_fail mm_without_dpi 2 "go together" "$HB" render "$MAP" --out "$TMP/y.png" --hex-mm 25.4
expect_fail print_too_big 2 "over 16384" "$HB" render "$MAP" --out "$TMP/y.png" --hex-mm 100 --dpi 600
check too_big_writes_nothing test ! -e "$TMP/y.png"

# hexbattle project refuses bad input before it opens any window.
# An overlay about a combatant the faction cannot see would reveal it (the
# boss stands inside the walled house in Ridge Ambush); one about a visible
# combatant is drawn, and the boss's own side may see its threat zone.
expect_fail view_overlay_hidden 2 "cannot see" "$HB" render "$MAP" --out "$TMP/o.png" --view players --overlay threat:boss
check view_overlay_hidden_no_file test ! -e "$TMP/o.png"
check view_overlay_visible "$HB" render "$MAP" --out "$TMP/o2.png" --view players --overlay reach:kara
check view_overlay_own_side "$HB" render "$MAP" --out "$TMP/o3.png" --view raiders --overlay threat:boss

expect_fail project_two_maps 2 "at most one map" "$HB" project "$MAP" "$MAP"
expect_fail project_option 2 "unknown option" "$HB" project --fullscreen
expect_fail project_bad_map 2 "bad_row.json" "$HB" project "$MAPS/bad_row.json"

finish
