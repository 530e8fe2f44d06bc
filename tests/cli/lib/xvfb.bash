# Processes this script starts go when it goes, on every path: the EXIT
# trap below covers a normal end, a failed check and SIGTERM/SIGHUP/SIGINT;
# a script killed outright is covered by ORPHAN_GUARD (assert.bash).
XVFB_PID=""
stop_started() {
    # Every background job still running (hexbattle windows, the server);
    # a job already waited for is not listed, so no reused pid is hit.
    local j
    for j in $(jobs -p); do
        [ "$j" = "$XVFB_PID" ] || kill "$j" 2>/dev/null
    done
    if [ -n "$XVFB_PID" ]; then
        kill "$XVFB_PID" 2>/dev/null
        wait "$XVFB_PID" 2>/dev/null
    fi
    rm -rf "$TMP"
}
trap stop_started EXIT

# start_xvfb: an Xvfb server of its own on a display number the server picks
# itself (-displayfd), so scripts that run at the same time never share one.
# Sets DISPLAY, XVFB_PID and KEEP_LOADED (for LD_PRELOAD of hexbattle, see
# below); the server stops with the script; returns 1 when no server starts.
start_xvfb() {
    local fifo="$TMP/xvfb.display"
    "${ORPHAN_GUARD[@]}" Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$fifo" \
        >/dev/null 2>&1 &
    XVFB_PID=$!
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

# launch NAME ERR [VAR=VALUE...] -- ARGS...: start hexbattle ($HB) with ARGS (and
# the variables) in the background, stderr to ERR, and wait for its window
# titled NAME; sets pid (stopped on exit if still running) and win. Xvfb on a loaded machine now and then drops
# a new client's connection (SDL then says "x11 not available", or the
# process dies of SIGPIPE on the closed socket) before any window is up: that
# start is tried again, up to three times. A process that opens its window
# and then fails is not.
launch() {
    local name="$1" err="$2" vars=()
    shift 2
    while [ "$1" != "--" ]; do
        vars+=("$1")
        shift
    done
    shift
    for _ in 1 2 3; do
        env LD_PRELOAD="$KEEP_LOADED" "${vars[@]}" "${ORPHAN_GUARD[@]}" "$HB" "$@" 2>"$err" &
        pid=$!
        win=""
        for _ in $(seq 300); do
            win=$(xdotool search --name "$name" 2>/dev/null | head -1)
            [ -n "$win" ] && return 0
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        [ -n "$win" ] && return 0
        if kill -0 "$pid" 2>/dev/null; then return 1; fi
        wait "$pid"
        local rc=$?
        grep -q "x11 not available\|cannot open a window" "$err" || [ "$rc" -eq 141 ] || return 1
        echo "(the X server dropped a start (exit $rc); starting again)"
    done
    return 1
}
