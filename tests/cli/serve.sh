#!/usr/bin/env bash
# hexbattle serve MAP|SAVE [--port N] (docs/sharing.md): the join address with
# its 128-bit secret as the first line on stdout, then the battle's events;
# SIGINT or SIGTERM stop it with status 0; bad arguments exit 2 naming the
# fault. Loopback only (HEXBATTLE_SHARE_BIND), every wait bounded.
source "$(dirname "$0")/lib/assert.bash"
export HEXBATTLE_SHARE_BIND=loopback
RIDGE="$SRC/maps/ridge_ambush.json"

expect_fail serve_no_map 2 "needs a map or a saved battle" "$HB" serve
expect_fail serve_bad_port 2 "not a port" "$HB" serve "$RIDGE" --port 70000
expect_fail serve_port_word 2 "not a port" "$HB" serve "$RIDGE" --port http
expect_fail serve_unknown_option 2 "unknown option '--public'" "$HB" serve "$RIDGE" --public
expect_fail serve_two_maps 2 "not also" "$HB" serve "$RIDGE" "$RIDGE"
expect_fail serve_missing_file 2 "$TMP/none.json" "$HB" serve "$TMP/none.json"

# serve_until NAME SIGNAL FILE [ARGS...]: start serve, wait (at most 10 s) for
# its first line, send SIGNAL, and check the status (0) and the first line.
serve_until() {
    local name="$1" sig="$2"
    shift 2
    "${ORPHAN_GUARD[@]}" "$HB" serve "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
    local pid=$! i
    for i in $(seq 100); do
        [ -s "$TMP/$name.out" ] && break
        sleep 0.1
    done
    kill "-$sig" "$pid"
    local rc=124
    for i in $(seq 100); do
        if ! kill -0 "$pid" 2>/dev/null; then
            wait "$pid"
            rc=$?
            break
        fi
        sleep 0.1
    done
    [ "$rc" -eq 124 ] && kill -KILL "$pid" 2>/dev/null
    check "${name}_exit_0" test "$rc" -eq 0
    check "${name}_first_line_is_the_address" \
        grep -Eq '^http://127\.0\.0\.1:[0-9]+/\?k=[0-9a-f]{32}$' <(head -n 1 "$TMP/$name.out")
}

serve_until sigint INT "$RIDGE"
serve_until sigterm TERM "$RIDGE" --port 0
check sigterm_events_follow grep -q '"event":"turn_start"' "$TMP/sigterm.out"
# Two runs, two secrets.
check secrets_differ bash -c '[ "$(head -n1 "$0")" != "$(head -n1 "$1")" ]' "$TMP/sigint.out" "$TMP/sigterm.out"

# A saved battle is served from where it stands.
"$HB" simulate "$RIDGE" --seed 3 --max-rounds 2 --save "$TMP/s.json" >/dev/null 2>&1
serve_until save INT "$TMP/s.json"

finish
