#!/usr/bin/env bash
# compare.sh LINUX_BUILD WINDOWS_BUILD [--no-render] - the Windows hexbattle.exe under
# Wine against the Linux build, on every bundled map (make test-windows):
#  - `simulate MAP --seed S`: the same bytes, for three seeds;
#  - `odds MAP --runs 300 --seed S --threads T`: the same bytes but for the
#    "ms" timing, with one and two threads;
#  - `render MAP --out F.png`: the pictures compared pixel for pixel
#    (same_picture.c: the two PNG writers differ, the pixels must not; a
#    picture of where they differ goes under WINDOWS_BUILD/compare). Both
#    SDL_ttf shape text with HarfBuzz, on FreeType built alike
#    (build-deps.sh), so the labels' letters fall on the same pixels too;
#  - a battle saved on one system goes on on the other: `simulate --save`
#    writes the same file on both, and `odds SAVE` (which loads the save and
#    plays it on) gives the same bytes whichever system wrote the save and
#    whichever reads it.
# Wine's "\r\n" is turned into "\n" before comparing. Exit 0 when all agree.
# --no-render: all but the pictures, for an .exe built without the windows
# (HB_GUI=OFF: `make test`'s quick comparison).
set -u
LIN=$(cd "$1" && pwd)
WIN=$(cd "$2" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
RENDER=1
[ "${3:-}" = --no-render ] && RENDER=0
OUT="$WIN/compare"
rm -rf "$OUT"
mkdir -p "$OUT"
export WINEPREFIX="$WIN/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy HEXBATTLE_DATA="$SRC/data"
unset DISPLAY WAYLAND_DISPLAY
export PATH="$PATH:/usr/lib/wine"
[ -x "$LIN/hexbattle" ] || { echo "compare: no $LIN/hexbattle" >&2; exit 2; }
[ -f "$WIN/hexbattle.exe" ] || { echo "compare: no $WIN/hexbattle.exe" >&2; exit 2; }
[ -d "$WINEPREFIX" ] || wine64 wineboot -i >/dev/null 2>&1 || true
wineserver -p 2>/dev/null || true
trap 'wineserver -k 2>/dev/null || true' EXIT

# The picture comparer, against the Linux SDL2_image.
[ "$RENDER" = 0 ] || cc -O2 -o "$OUT/same_picture" "$SRC/tools/windows/same_picture.c" \
    $(pkg-config --cflags --libs sdl2 SDL2_image) || exit 2

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
lin() { "$LIN/hexbattle" "$@"; }
win() { wine64 "$WIN/hexbattle.exe" "$@" | tr -d '\r'; }
no_ms() { sed -e 's/"ms":[0-9.]*//'; }
# same NAME FILE_A FILE_B: the two outputs, byte for byte.
same() {
    if [ -s "$2" ] && cmp -s "$2" "$3"; then ok "$1 ($(wc -c <"$2") bytes)"; else
        bad "$1"
        diff "$2" "$3" | head -5
    fi
}

for map in "$SRC"/maps/*.json "$SRC"/maps/*.tmx; do
    name=$(basename "$map")
    for seed in 1 7 42; do
        lin simulate "$map" --seed $seed >"$OUT/$name.sim$seed.lin" 2>"$OUT/err"
        win simulate "$map" --seed $seed >"$OUT/$name.sim$seed.win" 2>"$OUT/err"
        same "simulate $name --seed $seed" "$OUT/$name.sim$seed.lin" "$OUT/$name.sim$seed.win"
    done
    for t in 1 2; do
        lin odds "$map" --runs 300 --seed 5 --threads $t 2>"$OUT/err" | no_ms >"$OUT/$name.odds$t.lin"
        win odds "$map" --runs 300 --seed 5 --threads $t 2>"$OUT/err" | no_ms >"$OUT/$name.odds$t.win"
        same "odds $name --threads $t" "$OUT/$name.odds$t.lin" "$OUT/$name.odds$t.win"
    done
    [ "$RENDER" = 1 ] || continue
    lin render "$map" --out "$OUT/$name.lin.png" --size 960x540 2>"$OUT/err"
    win render "$map" --out "$OUT/$name.win.png" --size 960x540 2>"$OUT/err"
    "$OUT/same_picture" "$OUT/$name.lin.png" "$OUT/$name.win.png" "$OUT/$name.diff.png" \
        >"$OUT/why" 2>&1
    case $? in
    0) ok "render $name (960x540, the same pixels)" ;;
    1) bad "render $name: $(cat "$OUT/why") (where: $OUT/$name.diff.png)" ;;
    *) bad "render $name: $(cat "$OUT/why")" ;;
    esac
done

# A battle saved on one system, played on on the other.
map="$SRC/maps/ridge_ambush.json"
lin simulate "$map" --seed 3 --max-rounds 2 --save "$OUT/saved_lin.json" >/dev/null 2>"$OUT/err"
win simulate "$map" --seed 3 --max-rounds 2 --save "$OUT/saved_win.json" >/dev/null 2>"$OUT/err"
same "save written by simulate --save" "$OUT/saved_lin.json" "$OUT/saved_win.json"
lin odds "$OUT/saved_lin.json" --runs 200 --seed 9 | no_ms >"$OUT/resume.lin_lin"
win odds "$OUT/saved_lin.json" --runs 200 --seed 9 | no_ms >"$OUT/resume.lin_win"
lin odds "$OUT/saved_win.json" --runs 200 --seed 9 | no_ms >"$OUT/resume.win_lin"
same "Linux save played on on Windows" "$OUT/resume.lin_lin" "$OUT/resume.lin_win"
same "Windows save played on on Linux" "$OUT/resume.lin_lin" "$OUT/resume.win_lin"

echo "compare: $pass agree, $fail differ"
[ "$fail" = 0 ]
