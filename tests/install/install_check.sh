#!/usr/bin/env bash
# An installed hexbattle works on its own (issue 35): install BUILD to a
# prefix, move that prefix elsewhere (the program must find its data relative
# to itself, not through a path compiled in), then run render, simulate, odds
# and convert of every bundled map from the moved copy, with no HEXBATTLE_DATA
# and the working folder outside the source tree. BUILD must be configured
# with -DHB_SOURCE_FALLBACK=OFF, as packages are, so the source tree is out of
# its reach; a copy missing its data must fail, naming where it looked.
# Then desktop-file-validate and appstreamcli validate on the installed files.
# Usage: install_check.sh BUILD_DIR WORK_DIR
set -u
BUILD="$1"
WORK="$2"
FAILS=0
PASSES=0
check() {
    local name="$1"
    shift
    if "$@"; then
        PASSES=$((PASSES + 1))
    else
        FAILS=$((FAILS + 1))
        printf 'FAIL %s\n  check: %s\n' "$name" "$*"
    fi
}

rm -rf "$WORK"
mkdir -p "$WORK/run"
cmake --install "$BUILD" --prefix "$WORK/prefix" >"$WORK/install.log" || {
    cat "$WORK/install.log"
    exit 1
}
# Moved after installing: nothing may depend on the prefix it was installed to.
mv "$WORK/prefix" "$WORK/moved"
P="$WORK/moved"
APP=org.hexbattle.hexbattle
for f in bin/hexbattle share/hexbattle/data/terrain.json share/hexbattle/assets/fonts/DejaVuSans.ttf \
    share/hexbattle/assets/fonts/LICENSE share/hexbattle/maps/ridge_ambush.json \
    share/hexbattle/maps/mill_ford.tmx share/hexbattle/maps/mill_ford.tiles.png \
    share/doc/hexbattle/README.md share/doc/hexbattle/map-format.md share/man/man1/hexbattle.1.gz \
    share/applications/$APP.desktop share/icons/hicolor/scalable/apps/$APP.svg \
    share/metainfo/$APP.metainfo.xml; do
    check "installed_$f" test -s "$P/$f"
done

# The installed program, with a bare environment, from a folder of its own.
hb() { (cd "$WORK/run" && env -i PATH=/usr/bin:/bin HOME="$WORK/run" SDL_VIDEODRIVER=dummy \
    SDL_AUDIODRIVER=dummy "$P/bin/hexbattle" "$@"); }
check version hb --version >/dev/null
maps=$(cd "$P/share/hexbattle/maps" && ls *.json *.tmx)
check some_maps test "$(echo "$maps" | wc -l)" -ge 7
for m in $maps; do
    map="$P/share/hexbattle/maps/$m"
    name="${m%.*}"
    check "render_$m" hb render "$map" --out "$WORK/run/$name.png" --size 320x200
    check "png_$m" test "$(od -An -tx1 -N8 "$WORK/run/$name.png" 2>/dev/null | tr -d ' ')" = "89504e470d0a1a0a"
    hb simulate "$map" --seed 7 >"$WORK/run/$name.sim" 2>"$WORK/run/$name.err"
    check "simulate_$m" grep -q '"event":"end"' "$WORK/run/$name.sim"
    hb odds "$map" --runs 20 --seed 7 >"$WORK/run/$name.odds" 2>>"$WORK/run/$name.err"
    check "odds_$m" grep -q '"runs":20' "$WORK/run/$name.odds"
    case "$m" in
    *.json) out="$WORK/run/$name.tmx" ;;
    *) out="$WORK/run/$name.json" ;;
    esac
    check "convert_$m" hb convert "$map" "$out"
    check "converted_$m" test -s "$out"
done

# Without its data the copy fails (exit 2) naming the installed folder: it
# did not quietly find the source tree's.
cp -a "$P" "$WORK/nodata"
rm -rf "$WORK/nodata/share/hexbattle/data"
(cd "$WORK/run" && env -i PATH=/usr/bin:/bin HOME="$WORK/run" "$WORK/nodata/bin/hexbattle" \
    simulate "$P/share/hexbattle/maps/ridge_ambush.json" --seed 1 >/dev/null 2>"$WORK/nodata.err")
rc=$?
check nodata_exit_2 test "$rc" -eq 2
check nodata_names_folder grep -q "nodata/bin/../share/hexbattle/data" "$WORK/nodata.err"
rm -rf "$WORK/nodata"

check desktop_file desktop-file-validate "$P/share/applications/$APP.desktop"
check metainfo appstreamcli validate --no-net --pedantic "$P/share/metainfo/$APP.metainfo.xml"
check man_page bash -c 'LC_ALL=C.UTF-8 MANROFFSEQ="" zcat "$0" | groff -man -Tutf8 -ww -z 2>&1 | (! grep .)' \
    "$P/share/man/man1/hexbattle.1.gz"

echo "install check: $PASSES passed, $FAILS failed"
[ "$FAILS" -eq 0 ]
