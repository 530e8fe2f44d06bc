#!/usr/bin/env bash
# render --overlay: every kind draws (exit 0, a PNG of the asked size that
# differs from the plain map), and specs naming what the map lacks exit 2.
source "$(dirname "$0")/lib/assert.bash"
export SDL_VIDEODRIVER=dummy

png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{printf "%dx%d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'; }
sum() { cksum < "$1" | cut -d' ' -f1; }

MAP="$SRC/maps/ridge_ambush.json"
check plain "$HB" render "$MAP" --out "$TMP/plain.png" --size 640x360
n=0
for spec in reach:kara threat:boss flanking:kara,boss range:kara range:kara,pulse_carbine \
            los:kara los:kara,20,12; do
    n=$((n + 1))
    out="$TMP/ov$n.png"
    check "render_$spec" "$HB" render "$MAP" --out "$out" --size 640x360 --overlay "$spec"
    check "size_$spec" test "$(png_size "$out")" = "640x360"
    check "drawn_$spec" test "$(sum "$out")" != "$(sum "$TMP/plain.png")"
done
# several at once, at the default size
check render_all "$HB" render "$MAP" --out "$TMP/all.png" --overlay reach:kara \
    --overlay threat:boss --overlay flanking:kara,boss --overlay range:kara --overlay los:kara,20,12
check size_all test "$(png_size "$TMP/all.png")" = "1280x720"
# a flanking pair exists on the flank test map
check render_flank_pair "$HB" render "$MAPS/flank.json" --out "$TMP/fl.png" --size 320x240 \
    --overlay flanking:a,t

# an area: a scars blast where it would land
SALT="$SRC/maps/salt_flats.json"
check plain_salt "$HB" render "$SALT" --out "$TMP/salt.png" --size 640x360
check render_area "$HB" render "$SALT" --out "$TMP/area.png" --size 640x360 --overlay area:vex,frag_charge,9,9
check drawn_area test "$(sum "$TMP/area.png")" != "$(sum "$TMP/salt.png")"

# bad specs: status 2, a clear message, no picture
expect_fail unknown_id 2 "no combatant 'nobody'" "$HB" render "$MAP" --out "$TMP/bad.png" --overlay reach:nobody
expect_fail unknown_target 2 "no combatant 'ghost'" "$HB" render "$MAP" --out "$TMP/bad.png" --overlay flanking:kara,ghost
expect_fail self_flank 2 "itself" "$HB" render "$MAP" --out "$TMP/bad.png" --overlay flanking:kara,kara
expect_fail unknown_weapon 2 "no weapon 'laser'" "$HB" render "$MAP" --out "$TMP/bad.png" --overlay range:kara,laser
expect_fail off_map_cell 2 "off the" "$HB" render "$MAP" --out "$TMP/bad.png" --overlay los:kara,99,1
expect_fail bad_kind 2 "" "$HB" render "$MAP" --out "$TMP/bad.png" --overlay glow:kara
expect_fail no_area 2 "strikes no area" "$HB" render "$SALT" --out "$TMP/bad.png" --overlay area:vex,service_carbine,9,9
expect_fail area_cell 2 "off the" "$HB" render "$SALT" --out "$TMP/bad.png" --overlay area:vex,frag_charge,9,99
expect_fail area_form 2 "area:ID,WEAPON,C,R" "$HB" render "$SALT" --out "$TMP/bad.png" --overlay area:vex,frag_charge
check no_picture_left test ! -e "$TMP/bad.png"

finish
