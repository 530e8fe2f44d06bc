#!/usr/bin/env bash
# wine_ctest.sh BUILD [JOBS] - run the Windows build's ctest under Wine,
# headless: a Wine prefix of its own under BUILD (made on the first run, about
# 6 s and 700 MB), no X display, SDL's dummy video driver, one Wine server
# started before ctest and stopped after (started inside each test it costs
# seconds per test, and a stale one can hang the run).
set -eu
BUILD=$(cd "$1" && pwd)
JOBS=${2:-2}
export WINEPREFIX="$BUILD/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
unset DISPLAY WAYLAND_DISPLAY
# Debian's wine64 package puts wine64 and wineserver in /usr/lib/wine (the
# wine package adds wrappers in /usr/bin).
export PATH="$PATH:/usr/lib/wine"
command -v wine64 >/dev/null || { echo "wine_ctest: wine64 is missing (make windows-deps)" >&2; exit 1; }
wineserver -k 2>/dev/null || true
wineserver -w 2>/dev/null || true
[ -d "$WINEPREFIX" ] || wine64 wineboot -i >/dev/null 2>&1 || true
wineserver -p 2>/dev/null || true # exits 2 when wineboot left one running
trap 'wineserver -k 2>/dev/null || true' EXIT
# A first program to bring Wine's own services up before the timed tests.
wine64 cmd.exe /c exit 0 >/dev/null 2>&1 || true
cd "$BUILD"
ctest --output-on-failure -j "$JOBS"
