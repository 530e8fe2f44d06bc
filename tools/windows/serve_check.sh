#!/usr/bin/env bash
# serve_check.sh WINDOWS_BUILD - the players' server of the Windows build
# under Wine (make test-windows): `hexbattle.exe serve` talked to from Linux
# as a phone would (tools/windows/serve_check.py; on loopback, then on every
# interface), then `hexbattle.exe bench --quick`, whose sharing figures come
# from 8 pages on loopback sockets of its own (src/app/bench_share.c): they
# must be measured (above 0; a build without the server leaves them at 0). Headless: SDL's dummy driver, a
# WINEPREFIX in the build folder, one Wine server for the run.
set -u
WIN=$(cd "$1" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
export WINEPREFIX="$WIN/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy HEXBATTLE_DATA="$SRC/data"
unset DISPLAY WAYLAND_DISPLAY
export PATH="$PATH:/usr/lib/wine"
trap 'wineserver -k 2>/dev/null || true' EXIT
[ -d "$WINEPREFIX" ] || wine64 wineboot -i >/dev/null 2>&1 || true
wineserver -p 2>/dev/null || true

python3 "$SRC/tools/windows/serve_check.py" "$WIN" "$SRC"
rc=$?
# Listening on every interface, as for the players' phones: the machine's
# own address (Wine's list of adapters) in the join address, the page there.
python3 "$SRC/tools/windows/serve_check.py" "$WIN" "$SRC" --lan || rc=1

out=$(cd "$WIN" && timeout 600 wine64 ./hexbattle.exe bench --quick 2>/dev/null | tr -d '\r')
fig() { printf '%s' "$out" | sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }
lat=$(printf '%s' "$out" | sed -n 's/.*"share_latency_ms":{"median":\([0-9.]*\),"p99":\([0-9.]*\)}.*/\1 \2/p')
cost=$(fig share_frame_cost_ms)
echo "bench under Wine: share_latency_ms median/p99 ${lat:-none}, share_frame_cost_ms ${cost:-none}"
if awk -v l="$lat" -v c="$cost" 'BEGIN { split(l, a, " "); exit !(a[1] > 0 && a[2] > 0 && c > 0) }'; then
    echo "ok   the bench's sharing figures are measured on Windows"
else
    echo "FAIL the bench's sharing figures are measured on Windows"
    rc=1
fi
exit $rc
