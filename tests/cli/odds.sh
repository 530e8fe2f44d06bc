#!/usr/bin/env bash
# hexbattle odds (docs/odds.md): the honesty check and the command line.
#
# - Run k of `odds MAP --seed S` is the battle `simulate MAP --seed S+k`
#   plays: counted from simulate's own output, the winners, the rounds and
#   who was defeated come out exactly as odds says.
# - Over simulate runs of other seeds (independent battles), each side's win
#   share differs from odds' by no more than chance allows (a two-proportion
#   test at 99.9%); whether it falls in odds' own 95% interval is printed.
# - The answer is the same whatever the thread count; a save is played on
#   from where it stands; bad input is refused with exit 2.
#
# ODDS_CHECK_RUNS (40) and ODDS_CHECK_MAPS ("ridge_ambush salt_flats") set
# the size; `make odds-check` runs 1,000 on every bundled map.
source "$(dirname "$0")/lib/assert.bash"

RUNS=${ODDS_CHECK_RUNS:-40}
CHECK_MAPS=${ODDS_CHECK_MAPS:-"ridge_ambush salt_flats"}
SEED=1
OTHER_SEEDS=1000001

# The simulate lines of seeds FIRST..FIRST+N-1, one battle after another.
simulate_runs() {
    local map="$1" first="$2" n="$3" k
    for ((k = 0; k < n; k++)); do
        "$HB" simulate "$map" --seed $((first + k)) || return 1
    done
}

# From simulate output on stdin: "win SIDE SHARE" per side that won, "none
# SHARE", "rounds MEAN SD", "defeated ID SHARE" per combatant defeated at
# least once (the last of its defeated / fled events being a defeat), each
# share out of n battles, as odds prints them (4 decimals).
count() {
    awk -v n="$1" '
        function flush() { for (i in last) if (last[i] == "defeated") dead[i]++; delete last }
        /"event":"end"/ {
            flush()
            w = $0; sub(/.*"winner":/, "", w); sub(/,.*/, "", w); gsub(/"/, "", w)
            if (w == "null") none++; else win[w]++
            r = $0; sub(/.*"rounds":/, "", r); sub(/[,}].*/, "", r)
            sum += r; sq += r * r; next
        }
        /"event":"(defeated|fled)"/ {
            e = $0; sub(/.*"event":"/, "", e); sub(/".*/, "", e)
            id = $0; sub(/.*"id":"/, "", id); sub(/".*/, "", id)
            last[id] = e
        }
        END {
            for (s in win) printf "win %s %.4f\n", s, win[s] / n
            printf "none %.4f\n", none / n
            mean = sum / n
            sd = n > 1 ? sqrt((sq - n * mean * mean) / (n - 1)) : 0
            printf "rounds %.4f %.4f\n", mean, sd
            for (i in dead) printf "defeated %s %.4f\n", i, dead[i] / n
        }'
}

# A number from odds' line: json_num JSON REGEX-BEFORE-THE-NUMBER.
json_num() {
    printf '%s' "$1" | grep -oE "$2[-0-9.e]+" | head -1 | sed -E "s/^$2//"
}

# Do two decimal numbers agree to 4 decimals?
same4() {
    awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < 0.00005) }'
}

for name in $CHECK_MAPS; do
    map="$SRC/maps/$name.json"
    out=$("$HB" odds "$map" --runs "$RUNS" --seed "$SEED" --threads 2 2>"$TMP/err")
    check "odds_${name}_exit" test $? -eq 0
    check "odds_${name}_one_line" test "$(printf '%s\n' "$out" | wc -l)" -eq 1
    check "odds_${name}_runs" test "$(json_num "$out" '"runs":')" = "$RUNS"
    check "odds_${name}_ms" bash -c 'printf "%s" "$1" | grep -Eq "\"ms\":[0-9]+\}$"' _ "$out"

    # The same seeds through simulate: exactly odds' numbers.
    simulate_runs "$map" "$SEED" "$RUNS" | count "$RUNS" >"$TMP/same.txt"
    sides=$(printf '%s' "$out" | grep -oE '"[A-Za-z0-9_-]+":\{"win"' | sed -E 's/"([^"]+)".*/\1/')
    check "odds_${name}_has_sides" test -n "$sides"
    for s in $sides; do
        want=$(awk -v s="$s" '$1 == "win" && $2 == s { print $3 }' "$TMP/same.txt")
        got=$(json_num "$out" "\"$s\":\\{\"win\":")
        check "odds_${name}_win_${s}_is_simulate_count" same4 "${want:-0}" "$got"
    done
    check "odds_${name}_none_is_simulate_count" same4 \
        "$(awk '$1 == "none" { print $2 }' "$TMP/same.txt")" "$(json_num "$out" '"none":')"
    check "odds_${name}_rounds_mean" same4 \
        "$(awk '$1 == "rounds" { print $2 }' "$TMP/same.txt")" "$(json_num "$out" '"mean":')"
    check "odds_${name}_rounds_sd" same4 \
        "$(awk '$1 == "rounds" { print $3 }' "$TMP/same.txt")" "$(json_num "$out" '"sd":')"
    ids=$(printf '%s' "$out" | sed -E 's/.*"defeated":\{([^}]*)\}.*/\1/' | grep -oE '"[^"]+":' | tr -d '":')
    for id in $ids; do
        want=$(awk -v i="$id" '$1 == "defeated" && $2 == i { print $3 }' "$TMP/same.txt")
        got=$(printf '%s' "$out" | sed -E 's/.*"defeated":\{//' | json_num "$(cat)" "\"$id\":")
        check "odds_${name}_defeated_${id}" same4 "${want:-0}" "$got"
    done

    # Independent battles (other seeds): the two shares differ by no more
    # than chance allows, by the two-proportion test at 99.9% (|z| <= 3.29:
    # a fixed set of seeds must not fail one run in twenty by luck alone).
    # Whether the share also falls inside odds' own 95% interval is printed.
    simulate_runs "$map" "$OTHER_SEEDS" "$RUNS" | count "$RUNS" >"$TMP/other.txt"
    for s in $sides; do
        p=$(awk -v s="$s" '$1 == "win" && $2 == s { print $3 }' "$TMP/other.txt")
        win=$(json_num "$out" "\"$s\":\\{\"win\":")
        ci=$(printf '%s' "$out" | grep -oE "\"$s\":\\{\"win\":[-0-9.e]+,\"ci\":\\[[-0-9.e]+,[-0-9.e]+" | sed -E 's/.*\[//')
        lo=${ci%,*}
        hi=${ci#*,}
        check "odds_${name}_${s}_agrees_with_other_seeds" awk -v p="${p:-0}" -v w="$win" -v n="$RUNS" \
            'BEGIN { q = (p + w) / 2; se = sqrt(2 * q * (1 - q) / n); d = p - w; if (d < 0) d = -d
                     exit !(d <= 3.29 * se + 1e-9) }'
        inside=$(awk -v p="${p:-0}" -v lo="$lo" -v hi="$hi" 'BEGIN { print (p >= lo && p <= hi) ? "inside" : "outside" }')
        printf 'odds %s %s: %s [%s, %s]; simulate over %d other seeds: %s (%s the interval)\n' \
            "$name" "$s" "$win" "$lo" "$hi" "$RUNS" "${p:-0}" "$inside"
    done
done

# The thread count changes nothing but the time.
a=$("$HB" odds "$SRC/maps/river_crossing.json" --runs 24 --seed 9 --threads 1 | sed -E 's/,"ms":[0-9]+//')
b=$("$HB" odds "$SRC/maps/river_crossing.json" --runs 24 --seed 9 --threads 3 | sed -E 's/,"ms":[0-9]+//')
check odds_threads_same_answer test "$a" = "$b"
check odds_threads_answer_not_empty bash -c 'printf "%s" "$1" | grep -q "\"runs\":24"' _ "$a"

# A save goes on from where it stands: a finished battle has one outcome.
"$HB" simulate "$SRC/maps/ridge_ambush.json" --seed 7 --save "$TMP/done.save.json" >"$TMP/done.txt"
winner=$(tail -1 "$TMP/done.txt" | sed -E 's/.*"winner":"?([^",]*)"?,.*/\1/')
out=$("$HB" odds "$TMP/done.save.json" --runs 10 --seed 3 2>"$TMP/err")
check odds_save_exit test $? -eq 0
check odds_save_certain bash -c 'printf "%s" "$1" | grep -q "\"$2\":{\"win\":1,"' _ "$out" "$winner"

# Bad input: exit 2, the file named, nothing on stdout.
expect_fail odds_missing 2 "nope.json" "$HB" odds "$TMP/nope.json"
expect_fail odds_bad_map 2 "bad_row.json: terrain.rows" "$HB" odds "$MAPS/bad_row.json"
expect_fail odds_no_map 2 "needs a map or a saved battle" "$HB" odds
expect_fail odds_runs_zero 2 "--runs needs" "$HB" odds "$SRC/maps/ridge_ambush.json" --runs 0
expect_fail odds_runs_word 2 "--runs needs" "$HB" odds "$SRC/maps/ridge_ambush.json" --runs many
expect_fail odds_threads_zero 2 "--threads needs" "$HB" odds "$SRC/maps/ridge_ambush.json" --threads 0
expect_fail odds_seed_negative 2 "--seed needs" "$HB" odds "$SRC/maps/ridge_ambush.json" --seed -1
expect_fail odds_unknown_option 2 "unknown option" "$HB" odds "$SRC/maps/ridge_ambush.json" --fast

# More threads than processors: capped at them, and said (issue 30).
cores=$(getconf _NPROCESSORS_ONLN)
"$HB" odds "$SRC/maps/ridge_ambush.json" --runs 4 --threads 64 >/dev/null 2>"$TMP/err"
check odds_threads_capped_exit test $? -eq 0
if [ "$cores" -lt 64 ]; then
    check odds_threads_capped_said grep -qF -- "--threads 64 capped at the $cores processors" "$TMP/err"
fi
# Ctrl+C stops a long run cleanly: the threads are dropped, stderr says how
# far it came, nothing half-printed on stdout, and the process ends by SIGINT.
timeout -s KILL 60 "$HB" odds "$SRC/maps/river_crossing.json" --runs 1000000 >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
check odds_ctrl_c_exit_130 test $? -eq 130
check odds_ctrl_c_said grep -qE "odds: stopped after [0-9]+ of 1000000 runs" "$TMP/int.err"
check odds_ctrl_c_nothing_on_stdout test ! -s "$TMP/int.out"
# On a terminal, stderr shows the runs done so far.
if command -v script >/dev/null; then
    script -qec "'$HB' odds '$SRC/maps/river_crossing.json' --runs 3000 --seed 1" /dev/null >"$TMP/tty.txt"
    check odds_progress_on_a_terminal grep -qE "odds: [0-9]+ of 3000 runs" "$TMP/tty.txt"
fi
finish
