#!/usr/bin/env bash
# Every number a map, a save or its command list hands to the rules has a
# range (docs/map-format.md and docs/saves.md, "Ranges"); a value outside it
# is refused with exit 2 and its JSON path (issue 30, item 11). At the top of
# every range each ruleset plays a few rounds without an int overflow: in the
# sanitizer build UBSan halts on its first report, so an overflow fails here.
source "$(dirname "$0")/lib/assert.bash"

# edit IN OUT PYTHON: OUT will be the JSON of IN after PYTHON ran on it as
# `d`; flush_edits writes every edit queued so far with one python (one
# python per edit was most of this script's time).
EDITS=()
edit() { EDITS+=("$1" "$2" "$3"); }
flush_edits() {
    python3 - "${EDITS[@]}" <<'EOF'
import json, sys
a = sys.argv[1:]
for i in range(0, len(a), 3):
    g = {"d": json.load(open(a[i]))}
    exec(a[i + 2], g)
    json.dump(g["d"], open(a[i + 1], "w"), indent=1)
EOF
    EDITS=()
}

MAP="$SRC/maps/ridge_ambush.json"

# ---- maps: cell coordinates ----
edit "$MAP" "$TMP/at_huge.json" 'd["combatants"][1]["at"] = [2147483647, 0]'
edit "$MAP" "$TMP/at_neg.json" 'd["combatants"][0]["at"] = [3, -2147483648]'
edit "$MAP" "$TMP/at_frac.json" 'd["combatants"][0]["at"] = [2.5, 3]'
edit "$MAP" "$TMP/at_off.json" 'd["combatants"][0]["at"] = [1023, 0]'
OVERFLOWED="speed:2147483647:10000 fly:2147483647:10000 reach:2147483647:10000 hp:2147483647:100000"
for f in $OVERFLOWED; do
    IFS=: read -r key val max <<<"$f"
    edit "$MAP" "$TMP/$key.json" "d['combatants'][0]['$key'] = $val"
done
edit "$MAP" "$TMP/stat.json" 'd["combatants"][0]["stats"] = {"agility": -2147483648}'
flush_edits
expect_fail at_col_huge 2 "at_huge.json: combatants[1].at[0]: expected an integer from 0 to 1023, found 2147483647" \
    "$HB" query "$TMP/at_huge.json" distance 0,0 1,1
expect_fail at_row_negative 2 "at_neg.json: combatants[0].at[1]: expected an integer from 0 to 1023, found -2147483648" \
    "$HB" query "$TMP/at_neg.json" distance 0,0 1,1
expect_fail at_fraction 2 "at_frac.json: combatants[0].at[0]: expected an integer, found 2.5" \
    "$HB" query "$TMP/at_frac.json" distance 0,0 1,1
# In range but off this map: said as such.
expect_fail at_off_map 2 "at_off.json: combatants[0].at: (1023, 0) is off the" \
    "$HB" query "$TMP/at_off.json" distance 0,0 1,1

# ---- maps: the numbers the rules overflowed on (before issue 30) ----
for f in $OVERFLOWED; do
    IFS=: read -r key val max <<<"$f"
    expect_fail "map_${key}_int_max" 2 "$key.json: combatants[0].$key: expected an integer from" \
        "$HB" simulate "$TMP/$key.json" --seed 1 --max-rounds 2
    grep -qF "to $max, found $val" "$TMP/err"
    check "map_${key}_names_range" test $? -eq 0
done
expect_fail map_stat_int_min 2 "stat.json: combatants[0].stats.agility: expected an integer from -10000 to 10000, found -2147483648" \
    "$HB" simulate "$TMP/stat.json" --seed 1 --max-rounds 2

# ---- saves: state numbers, dice and commands ----
"$HB" simulate "$MAP" --seed 3 --max-rounds 3 --save "$TMP/s.json" >/dev/null
check save_written test -s "$TMP/s.json"
# Each case is queued (its edit and what it must say), then all are checked.
CASES=()
save_case() { # NAME PYTHON EXPECTED_SUBSTRING
    edit "$TMP/s.json" "$TMP/$1.json" "$2"
    CASES+=("$1" "$3")
}
save_case round_huge 'd["state"]["round"] = 2147483647' \
    "state.round: expected an integer from 0 to 1000000, found 2147483647"
save_case hp_negative 'd["state"]["combatants"][0]["hp"] = -2147483648' \
    "state.combatants[0].hp: expected an integer from 0 to 100000, found -2147483648"
save_case hp_huge 'd["state"]["combatants"][1]["hp"] = 2147483647' \
    "state.combatants[1].hp: expected an integer from 0 to 100000, found 2147483647"
save_case revision_huge 'd["rules_revision"] = 2147483647' \
    "rules_revision: expected an integer from 0 to 1000000, found 2147483647"
save_case max_rounds_huge 'd["options"]["max_rounds"] = 2147483647' \
    "options.max_rounds: expected an integer from 0 to 100000, found 2147483647"
save_case die_huge 'd["dice"] = [2147483647]' "dice[0]: expected an integer from 1 to 1000"
save_case die_zero 'd["dice"] = [0]' "dice[0]: expected an integer from 1 to 1000"
save_case seed_negative 'd["seed"] = "-1"' "seed: expected a whole number 0..2^64-1"
save_case rng_zero 'd["table"] = {"rng": ["0"*16]*4}' "table.rng: the generator state cannot be all zero"
# The first command that carries a path (a move), and one that carries none.
MOVE='k = next(i for i, c in enumerate(d["commands"]) if "path" in c); c = d["commands"][k]'
save_case arg_huge 'd["commands"][0]["arg"] = 2147483647' \
    "commands[0]: \"arg\" must be an integer from 0 to 16777215"
save_case arg_negative 'd["commands"][0]["arg"] = -1' \
    "commands[0]: \"arg\" must be an integer from 0 to 16777215"
save_case arg_fraction 'd["commands"][0]["arg"] = 1.5' \
    "\"arg\" must be an integer from 0 to 16777215"
save_case path_fraction "$MOVE; c['path'][0] = [c['path'][0][0] + 0.5, c['path'][0][1]]" \
    "\"path\" step 1 must be a [col, row] on the map"
save_case path_huge "$MOVE; c['path'][0] = [2147483647, 0]" \
    "\"path\" step 1 must be a [col, row] on the map"
save_case weapon_fraction 'd["commands"][0]["weapon"] = 0.5' \
    "commands[0]: \"weapon\" must be a weapon index or an id the actor carries"
save_case reaction_fraction 'd["commands"][0]["reactions"] = [1.5]' \
    "commands[0]: \"reactions\" answer 1 must be true, false or an option 0 to 255"
flush_edits
for ((k = 0; k < ${#CASES[@]}; k += 2)); do
    name=${CASES[k]}
    expect_fail "save_$name" 2 "${CASES[k + 1]}" "$HB" replay "$TMP/$name.json" --events
    check "save_${name}_names_file" grep -qF "$name.json: " "$TMP/err"
done

# ---- the top and the bottom of every range, in every ruleset ----
# The sample map of each ruleset; every combatant at the largest (then the
# smallest) speed, fly, reach, hp and stats, its side's morale at 12 (then
# 0), with weapons of the longest (then the shortest) range and reach, plays
# three rounds: exit 0 (or a refusal, exit 2, from the ruleset's own checks),
# and never a sanitizer report. The weapons' longest range, and every tag
# they carry (blast, shots, burst...) at 10000, play in a run of their own
# ("tags") with speed and fly 0: an AI weighing a 10000 ft cone from every
# hex it can reach takes minutes under the sanitizers (costly but legal, not
# an overflow).
for end in top tags bottom; do
    cp -r "$SRC/data" "$TMP/data-$end"
    for w in "$TMP"/data-$end/*/weapons.json; do
        edit "$w" "$w" "
top = '$end' != 'bottom'
for x in d['weapons'].values():
    if 'range' in x and '$end' != 'top': x['range'] = 10000 if top else 1
    x['reach'] = 10000 if top else 0
    if '$end' == 'tags': x['tags'] = {k: 10000 for k in x.get('tags', {})}"
    done
done
declare -A STATS=(
    [xhalem]="agility strength evasion stealth perception investigation engine systems hull reactor scanners cloak dual_strike dual_weapon aquatic teleport"
    [surface]="combat_bonus vln strength scale morale armor_hp soak_n soak_d soak_heat soak2_n soak2_d soak2_heat vent stealth sensor save save_area save_stun save_beam save_homing hands mounts operators martial intershields heat nonlethal"
    [emcore]="force adeptness insight fortitude spirit might movement health willpower armor initiative_bonus"
    [activation]="spd acc eva atk def spatk spdef pp movement wc lift range_plus range_pct"
    [scars]="str dex wil armor detachment hp"
)
PAIRS="ridge_ambush:xhalem salt_flats:scars relay_outpost:surface river_crossing:emcore shattered_lane:activation"
for pair in $PAIRS; do
    IFS=: read -r name rs <<<"$pair"
    for end in top tags bottom; do
        case $end in
        top) speed=10000 feet=10000 hp=100000 stat=10000 ;;
        tags) speed=0 feet=10000 hp=100000 stat=10000 ;;
        bottom) speed=0 feet=0 hp=1 stat=-10000 ;;
        esac
        edit "$SRC/maps/$name.json" "$TMP/$rs-$end.json" "
names = '${STATS[$rs]}'.split()
for i, c in enumerate(d['combatants']):
    c.update(speed=$speed, fly=$speed, reach=$feet, hp=$hp)
    c['stats'] = {k: $stat for k in (names[:24] if i % 2 == 0 else names[-24:])}
sides = d.get('factions') or {f: 'player' if f == 'players' else 'architect'
                               for f in (c['faction'] for c in d['combatants'])}
d['factions'] = {f: {'control': v if isinstance(v, str) else v['control'],
                     'morale': 12 if $hp > 1 else 0} for f, v in sides.items()}"
    done
done
flush_edits
for pair in $PAIRS; do
    IFS=: read -r name rs <<<"$pair"
    for end in top tags bottom; do
        HEXBATTLE_DATA="$TMP/data-$end" "$HB" simulate "$TMP/$rs-$end.json" --seed 7 --max-rounds 3 \
            >/dev/null 2>"$TMP/err-$rs-$end"
        rc=$?
        check "extreme_${rs}_${end}_exit" test "$rc" -eq 0 -o "$rc" -eq 2
        check "extreme_${rs}_${end}_no_sanitizer_report" \
            bash -c '! grep -E "runtime error|Sanitizer" "$1"' _ "$TMP/err-$rs-$end"
        [ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || cat "$TMP/err-$rs-$end"
    done
done
finish
