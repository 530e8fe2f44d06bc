#!/usr/bin/env bash
# bench --quick prints one JSON object with the figures of DESIGN.md, the
# odds figures among them (runs per second on two threads, the speed-up from
# one to two threads, and 1,000 runs of each bundled map in ms). Only the
# shape is checked: timings depend on the machine.
# bench without --quick adds the big-map figures, the scars round among them.
source "$(dirname "$0")/lib/assert.bash"
export SDL_VIDEODRIVER=dummy

out=$("$HB" bench --quick 2>"$TMP/err")
check bench_exit test $? -eq 0
check one_line test "$(printf '%s\n' "$out" | wc -l)" -eq 1
for key in frame_ms frame_vs_bare frame_pan_ms frame_pan_vs_bare frame_zoom_ms frame_zoom_vs_bare bare_ms reach_ms los_pairs_ms battles_per_s startup_ms odds_runs_per_s \
    odds_speedup_2t odds_panel_frame_ms frame_art_ms frame_art_vs_bare ridge_ambush foundry_breach salt_flats river_crossing relay_outpost shattered_lane; do
    # each key once, with a non-negative number
    check "key_$key" bash -c 'printf "%s" "$1" | grep -Eq "\"$2\":[0-9]+(\.[0-9]+)?[,}]"' _ "$out" "$key"
done
check odds_per_map bash -c 'printf "%s" "$1" | grep -q "\"odds_ms_1000\":{\"ridge_ambush\":"' _ "$out"
# The players' server (issue 36): latency to 8 pages as median and p99, and a frame's cost.
check key_share_latency bash -c 'printf "%s" "$1" | grep -Eq "\"share_latency_ms\":\{\"median\":[0-9]+(\.[0-9]+)?,\"p99\":[0-9]+(\.[0-9]+)?\}"' _ "$out"
check key_share_frame_cost_ms bash -c 'printf "%s" "$1" | grep -Eq "\"share_frame_cost_ms\":[0-9]+(\.[0-9]+)?[,}]"' _ "$out"
check json_object bash -c 'case "$1" in "{"*"}") exit 0;; *) exit 1;; esac' _ "$out"
check quick_has_no_big_map bash -c '! printf "%s" "$1" | grep -q view_update_ms' _ "$out"

# The full bench adds the big-map figures (issue 19). Its 512x512 battle
# would take minutes under the sanitizers, so only the plain build runs it.
if grep -qa __asan_init "$HB"; then
    echo "(sanitizer build: the full bench is left to the plain build)"
else
    out=$("$HB" bench 2>"$TMP/err")
    check full_bench_exit test $? -eq 0
    for key in view_update_ms view_full_ms render_512_ms view_full_vs_render frame_512_ms \
        frame_64_ms frame_512_vs_64 ai_turn_512_ms ai_turn_512_median_ms scars_round_512_ms max_rss_mb; do
        check "key_$key" bash -c 'printf "%s" "$1" | grep -Eq "\"$2\":[0-9]+(\.[0-9]+)?[,}]"' _ "$out" "$key"
    done
    echo "$out"
fi
expect_fail bench_bad_arg 2 "unknown argument" "$HB" bench --slow

finish
