#!/usr/bin/env bash
# zip_check.sh ZIP LINUX_BUILD WINDOWS_BUILD - the Windows zip as a referee
# gets it (make test-windows): unpacked in a folder of its own, far from the
# source tree (the .exe is built without the source-tree fallback and
# $HEXBATTLE_DATA is unset, so it must find data/ and assets/ beside itself),
# it holds the .exe, the three SDL DLLs and the players' server's two, data,
# assets, maps, docs and a licence for everything bundled; run under Wine from
# there, `simulate` and `odds` of its own maps print what the Linux build
# prints, `render` writes a picture, a missing map is refused with status 2,
# and `serve` serves the page from the zip's own assets. Exit 0 when all hold.
set -u
ZIP=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
LIN=$(cd "$2" && pwd)
WIN=$(cd "$3" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
export WINEPREFIX="$WIN/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
unset DISPLAY WAYLAND_DISPLAY HEXBATTLE_DATA
export PATH="$PATH:/usr/lib/wine"
TMP=$(mktemp -d)
trap 'wineserver -k 2>/dev/null || true; rm -rf "$TMP"' EXIT
[ -d "$WINEPREFIX" ] || wine64 wineboot -i >/dev/null 2>&1 || true
wineserver -p 2>/dev/null || true

pass=0 fail=0
check() { # check NAME COMMAND...
    local name=$1
    shift
    if "$@" >/dev/null 2>&1; then pass=$((pass + 1)); echo "ok   $name"; else
        fail=$((fail + 1))
        echo "FAIL $name"
    fi
}
(cd "$TMP" && unzip -q "$ZIP") || { echo "zip_check: cannot unpack $ZIP" >&2; exit 2; }
TOP=$(ls -d "$TMP"/hexbattle-*-win64)
for f in hexbattle.exe SDL2.dll SDL2_ttf.dll SDL2_image.dll libmicrohttpd-12.dll libqrencode.dll \
    data assets maps docs/README.md licenses/libmicrohttpd.copyright licenses/qrencode.copyright \
    licenses/hexbattle.copyright licenses/libsdl2.copyright licenses/libsdl2-ttf.copyright \
    licenses/libsdl2-image.copyright licenses/freetype.copyright licenses/harfbuzz.copyright \
    licenses/cjson.copyright \
    licenses/expat.copyright licenses/libzstd.copyright licenses/zlib.copyright \
    licenses/mingw-w64.copyright licenses/gcc-mingw-w64.copyright; do
    check "zip holds $f" test -s "$TOP/$f" -o -d "$TOP/$f"
done
for map in "$SRC"/maps/*.json "$SRC"/maps/*.tmx; do
    check "zip holds maps/$(basename "$map")" cmp "$map" "$TOP/maps/$(basename "$map")"
done
# Nothing but system DLLs and the bundled ones: a DLL missing from the zip
# would stop the .exe on a referee's machine (Wine finds none in $TMP).
# The DLLs' imports too (SDL2.dll's GDI32, IMM32... are Windows' own):
# SDL2_ttf.dll holds HarfBuzz, written in C++, and must not want libstdc++.
check "the .exe and its DLLs need no DLL the zip lacks" bash -c '
    for f in hexbattle.exe SDL2.dll SDL2_ttf.dll SDL2_image.dll; do
        x86_64-w64-mingw32-objdump -p "$1/$f" | sed -n "s/.*DLL Name: //p"
    done | while read -r dll; do
        case "$dll" in
        SDL2.dll|SDL2_ttf.dll|SDL2_image.dll|libmicrohttpd-12.dll|libqrencode.dll) test -f "$1/$dll" || exit 1 ;;
        KERNEL32.dll|msvcrt.dll|USER32.dll|ADVAPI32.dll|SHELL32.dll|ole32.dll|bcrypt.dll|IPHLPAPI.DLL|PSAPI.DLL|WS2_32.dll) ;;
        GDI32.dll|IMM32.dll|OLEAUT32.dll|SETUPAPI.dll|VERSION.dll|WINMM.dll) ;;
        *) echo "unexpected $dll"; exit 1 ;;
        esac
    done' _ "$TOP"

cd "$TOP"
win() { wine64 ./hexbattle.exe "$@" | tr -d '\r'; }
map=maps/ridge_ambush.json
check "simulate from the zip = Linux" bash -c 'cmp <("$1/hexbattle" simulate "$2" --seed 4) \
    <(wine64 ./hexbattle.exe simulate maps/ridge_ambush.json --seed 4 | tr -d "\r")' _ "$LIN" "$SRC/$map"
check "odds from the zip = Linux" bash -c 'cmp <("$1/hexbattle" odds "$2" --runs 100 --seed 2 | sed "s/\"ms\":[0-9]*//") \
    <(wine64 ./hexbattle.exe odds maps/mill_ford.tmx --runs 100 --seed 2 | tr -d "\r" | sed "s/\"ms\":[0-9]*//")' \
    _ "$LIN" "$SRC/maps/mill_ford.tmx"
check "render from the zip (fonts and tiles found beside the .exe)" bash -c \
    'wine64 ./hexbattle.exe render maps/mill_ford.tmx --out "$1/zip.png" && test -s "$1/zip.png"' _ "$TMP"
wine64 ./hexbattle.exe simulate maps/no_such_map.json --seed 1 >/dev/null 2>"$TMP/err"
check "a missing map: status 2" test $? = 2
check "a missing map: named in the message" grep -q "no_such_map.json" "$TMP/err"
check "serve from the zip: the page from its own assets, Ctrl+C stops it" \
    python3 "$SRC/tools/windows/serve_check.py" "$TOP" "$SRC" --page-only

echo "zip_check: $pass hold, $fail fail"
[ "$fail" = 0 ]
