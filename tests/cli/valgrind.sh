#!/usr/bin/env bash
# Memcheck over a headless render, a simulate of each ruleset and the play
# window's take-back sequence (move, Ctrl+Z, F5, hover: issue 17): no invalid
# access, no use of uninitialised memory, no leak. Skipped (exit 77) where
# valgrind is missing, and in the sanitizer build, whose runtime valgrind
# cannot host (that build already has ASan's own leak check).
source "$(dirname "$0")/lib/assert.bash"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy

if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIPPED: valgrind is not installed (Debian: apt-get install valgrind)"
    exit 77
fi
if grep -qa __asan_init "$HB"; then
    echo "SKIPPED: $HB is built with AddressSanitizer; valgrind runs in the plain build"
    exit 77
fi

# Errors exit 1 for good runs; a refused map must exit 2 on its own, so there
# valgrind's errors get a status of their own (3) that cannot be mistaken.
VG=(valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible)
RIDGE="$SRC/maps/ridge_ambush.json"
SALT="$SRC/maps/salt_flats.json"
RELAY="$SRC/maps/relay_outpost.json"

check vg_render_overlays "${VG[@]}" "$HB" render "$RIDGE" --out "$TMP/r.png" --size 320x200 \
    --overlay reach:kara --overlay threat:kara --overlay los:kara --overlay range:kara
check vg_render_png test -s "$TMP/r.png"
check vg_simulate_xhalem bash -c '"$@" >"'"$TMP"'/x.jsonl"' _ "${VG[@]}" "$HB" simulate "$RIDGE" --seed 7
check vg_simulate_xhalem_ends grep -q '"event":"end"' "$TMP/x.jsonl"
check vg_simulate_scars bash -c '"$@" >"'"$TMP"'/s.jsonl"' _ "${VG[@]}" "$HB" simulate "$SALT" --seed 3
check vg_simulate_scars_ends grep -q '"event":"end"' "$TMP/s.jsonl"
check vg_simulate_surface bash -c '"$@" >"'"$TMP"'/f.jsonl"' _ "${VG[@]}" "$HB" simulate "$RELAY" --seed 5
check vg_simulate_surface_ends grep -q '"event":"end"' "$TMP/f.jsonl"
# The play window driven by synthetic events (tests/test_ui_session.c), the
# take-back with an overlay on among them.
SESSION="$(dirname "$HB")/tests/test_ui_session"
if [ -x "$SESSION" ]; then
    check vg_play_window_take_back "${VG[@]}" "$SESSION"
fi
# The refusal path frees what it half-built.
check vg_bad_map bash -c '"$@" 2>/dev/null; test $? -eq 2' _ valgrind -q --error-exitcode=3 \
    --leak-check=full "$HB" query "$MAPS/bad_row.json" distance 0,0 1,1

finish
