# start_xvfb: an Xvfb server of its own on a display number the server picks
# itself (-displayfd), so scripts that run at the same time never share one.
# Sets DISPLAY, XVFB_PID and KEEP_LOADED (for LD_PRELOAD of hexbattle, see
# below) and stops the server on exit; returns 1 when no server starts.
start_xvfb() {
    local fifo="$TMP/xvfb.display"
    Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$fifo" >/dev/null 2>&1 &
    XVFB_PID=$!
    trap 'kill $XVFB_PID 2>/dev/null; wait $XVFB_PID 2>/dev/null; rm -rf "$TMP"' EXIT
    local n=""
    for _ in $(seq 100); do
        n=$(head -1 "$fifo" 2>/dev/null)
        [ -n "$n" ] && break
        sleep 0.1
    done
    [ -n "$n" ] || return 1
    export DISPLAY=":$n"
    # Under the sanitizers (as in two_displays.sh): Mesa's software GL driver
    # is loaded and unloaded again by libGL, and LeakSanitizer then takes its
    # still-referenced blocks for leaks with no name on them; preloading it
    # keeps them reachable. libdbus's own leak is in tests/lsan.supp.
    KEEP_LOADED=$(ls /usr/lib/*/dri/swrast_dri.so 2>/dev/null | head -1)
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
    export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$SRC/tests/lsan.supp}"
}
