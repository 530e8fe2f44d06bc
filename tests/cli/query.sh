#!/usr/bin/env bash
# The query contract (DESIGN.md): exact output shapes, on cases worked out by
# hand from RULINGS.md. See tests/cli/maps/ for the maps.
source "$(dirname "$0")/lib/assert.bash"

# distance: pointy odd (5,3) is axial (4,3): max(4,3,7) = 7 hexes
expect_out distance_pointy '{"hexes":7,"feet":35}' "$HB" query "$MAPS/edge_pointy_wall.json" distance 0,0 5,3
# flat even (1,2) is axial (1,1): 2 hexes
expect_out distance_flat '{"hexes":2,"feet":10}' "$HB" query "$MAPS/edge_flat_wall.json" distance 0,0 1,2
expect_out distance_zero '{"hexes":0,"feet":0}' "$HB" query "$MAPS/field.json" distance 4,4 4,4

# Along an edge: pointy odd (0,0)->(1,1) runs exactly between (1,0) and (0,1).
# A wall on just one of them blocks sight, whichever way we look.
expect_out los_edge_wall '{"visible":false,"cover":"total","hexes":2}' "$HB" query "$MAPS/edge_pointy_wall.json" los 0,0 1,1
expect_out los_edge_wall_back '{"visible":false,"cover":"total","hexes":2}' "$HB" query "$MAPS/edge_pointy_wall.json" los 1,1 0,0
# Brush on the other straddling hex gives its light cover.
expect_out los_edge_brush '{"visible":true,"cover":"light","hexes":2}' "$HB" query "$MAPS/edge_pointy_brush.json" los 0,0 1,1
# Flat even (0,0)->(1,2) runs between (1,1) and (0,1).
expect_out los_flat_edge_wall '{"visible":false,"cover":"total","hexes":2}' "$HB" query "$MAPS/edge_flat_wall.json" los 0,0 1,2
expect_out los_flat_edge_wall_back '{"visible":false,"cover":"total","hexes":2}' "$HB" query "$MAPS/edge_flat_wall.json" los 1,2 0,0
expect_out los_flat_edge_heavy '{"visible":true,"cover":"heavy","hexes":2}' "$HB" query "$MAPS/edge_flat_heavy.json" los 0,0 1,2
# Endpoints never block: looking at the adjacent wall hex itself.
expect_out los_wall_endpoint '{"visible":true,"cover":"none","hexes":1}' "$HB" query "$MAPS/edge_pointy_wall.json" los 0,0 1,0
# A wall straight between.
expect_out los_wall_between '{"visible":false,"cover":"total","hexes":2}' "$HB" query "$MAPS/edge_pointy_wall.json" los 0,0 2,0
expect_out los_clear_row '{"visible":true,"cover":"none","hexes":3}' "$HB" query "$MAPS/edge_pointy_wall.json" los 0,1 3,1
# A combatant between the endpoints gives light cover.
expect_out los_through_body '{"visible":true,"cover":"light","hexes":2}' "$HB" query "$MAPS/flank.json" los 1,1 3,1

# path: around the wall by the open northern row, 5 steps of 5 ft.
expect_out path_detour '{"reachable":true,"cost_ft":25,"path":[[0,1],[1,0],[2,0],[3,0],[4,0],[4,1]]}' "$HB" query "$MAPS/detour.json" path a 4,1
expect_out path_to_self '{"reachable":true,"cost_ft":0,"path":[[0,1]]}' "$HB" query "$MAPS/detour.json" path a 0,1
expect_out path_into_wall '{"reachable":false,"cost_ft":0,"path":[]}' "$HB" query "$MAPS/detour.json" path a 2,1
# brush costs double: (0,1)->(0,2) enters one brush hex = 10 ft
expect_out path_brush '{"reachable":true,"cost_ft":10,"path":[[0,1],[0,2]]}' "$HB" query "$MAPS/detour.json" path a 0,2
# ignores this turn's budget: far corner of the field is 7+ hexes away, speed 30
out=$("$HB" query "$MAPS/field.json" path a 0,0)
check path_beyond_budget grep -q '^{"reachable":true,"cost_ft":[0-9]*,"path":\[\[7,7\],' <<<"$out"

# reach: default creature speed 30 ft on open ground: every hex within 6, own hex left out
out=$("$HB" query "$MAPS/field.json" reach a)
check reach_header grep -q '^{"id":"a","budget_ft":30,"hexes":\[' <<<"$out"
check reach_count test "$(grep -o '"at"' <<<"$out" | wc -l)" -eq 126
check reach_no_self bash -c '! grep -q "\"at\":\[7,7\]" <<<"$0"' "$out"
check reach_edge grep -q '{"at":\[13,7\],"cost_ft":30}' <<<"$out"
out=$("$HB" query "$MAPS/field.json" reach a --dash)
check reach_dash_budget grep -q '^{"id":"a","budget_ft":60,' <<<"$out"

# reach --mode: the ruleset's own move modes (xhalem walk, fly, dash; scars
# move, second_move), the same answer as reach for the plain walk
check reach_mode_walk_is_reach test "$("$HB" query "$MAPS/field.json" reach a --mode walk)" = \
    "$("$HB" query "$MAPS/field.json" reach a)"
check reach_mode_dash_is_dash test "$("$HB" query "$MAPS/field.json" reach a --mode dash)" = "$out"
# a cannot fly: it reaches nothing that way
expect_out reach_mode_no_wings '{"id":"a","budget_ft":0,"hexes":[]}' "$HB" query "$MAPS/field.json" reach a --mode fly
# over brush, 30 ft of walking is 3 hexes and 30 ft of flying 6
expect_out reach_mode_walk_brush '{"id":"a","budget_ft":30,"hexes":[{"at":[1,0],"cost_ft":10},{"at":[2,0],"cost_ft":20},{"at":[3,0],"cost_ft":30}]}' "$HB" query "$MAPS/flier.json" reach a --mode walk
expect_out reach_mode_fly_brush '{"id":"a","budget_ft":30,"hexes":[{"at":[1,0],"cost_ft":5},{"at":[2,0],"cost_ft":10},{"at":[3,0],"cost_ft":15},{"at":[4,0],"cost_ft":20},{"at":[5,0],"cost_ft":25},{"at":[6,0],"cost_ft":30}]}' "$HB" query "$MAPS/flier.json" reach a --mode fly
out=$("$HB" query "$SRC/maps/salt_flats.json" reach vex --mode second_move)
check reach_mode_scars_second grep -q '^{"id":"vex","budget_ft":100,"hexes":\[{' <<<"$out"
out=$("$HB" query "$SRC/maps/salt_flats.json" reach vex --mode move)
check reach_mode_scars_move grep -q '^{"id":"vex","budget_ft":50,"hexes":\[{' <<<"$out"
expect_fail reach_mode_unknown 2 "no move mode 'swim'; modes: walk fly dash" "$HB" query "$MAPS/field.json" reach a --mode swim
expect_fail reach_mode_missing 2 "--mode M" "$HB" query "$MAPS/field.json" reach a --mode

# threat: reach 5 ft, the six neighbours
out=$("$HB" query "$MAPS/field.json" threat a)
check threat_header grep -q '^{"id":"a","reach_ft":5,"hexes":\[' <<<"$out"
check threat_count test "$(grep -o '\[[0-9]*,[0-9]*\]' <<<"$out" | wc -l)" -eq 6

# threat with a weapon that reaches 10 ft: two rings (RULINGS: the reach with
# the weapon in hand makes the threat zone); bare reach for the knife
out=$("$HB" query "$MAPS/lash.json" threat a)
check threat_weapon_reach_header grep -q '^{"id":"a","reach_ft":10,"hexes":\[' <<<"$out"
check threat_weapon_reach_count test "$(grep -o '\[[0-9]*,[0-9]*\]' <<<"$out" | wc -l)" -eq 18
out=$("$HB" query "$MAPS/lash.json" threat b)
check threat_knife_reach grep -q '^{"id":"b","reach_ft":5,' <<<"$out"

# flanking: a and b stand exactly opposite across t; c beside t has no partner
expect_out flank_ab '{"flanking":true,"partners":["b"]}' "$HB" query "$MAPS/flank.json" flanking a t
expect_out flank_ba '{"flanking":true,"partners":["a"]}' "$HB" query "$MAPS/flank.json" flanking b t
expect_out flank_c '{"flanking":false,"partners":[]}' "$HB" query "$MAPS/flank.json" flanking c t

finish
