#!/usr/bin/env bash
# bench --quick prints one JSON object with the figures of DESIGN.md, the
# odds figures among them (runs per second on two threads, the speed-up from
# one to two threads, and 1,000 runs of each bundled map in ms). Only the
# shape is checked: timings depend on the machine.
source "$(dirname "$0")/lib/assert.bash"
export SDL_VIDEODRIVER=dummy

out=$("$HB" bench --quick 2>"$TMP/err")
check bench_exit test $? -eq 0
check one_line test "$(printf '%s\n' "$out" | wc -l)" -eq 1
for key in frame_ms frame_vs_bare reach_ms los_pairs_ms battles_per_s startup_ms odds_runs_per_s \
    odds_speedup_2t odds_panel_frame_ms ridge_ambush foundry_breach salt_flats river_crossing relay_outpost shattered_lane; do
    # each key once, with a non-negative number
    check "key_$key" bash -c 'printf "%s" "$1" | grep -Eq "\"$2\":[0-9]+(\.[0-9]+)?[,}]"' _ "$out" "$key"
done
check odds_per_map bash -c 'printf "%s" "$1" | grep -q "\"odds_ms_1000\":{\"ridge_ambush\":"' _ "$out"
check json_object bash -c 'case "$1" in "{"*"}") exit 0;; *) exit 1;; esac' _ "$out"
expect_fail bench_bad_arg 2 "unknown argument" "$HB" bench --slow

finish
