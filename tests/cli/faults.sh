#!/usr/bin/env bash
# Every file hexbattle writes goes through one checked writer (issue 18):
# with a failure injected at each step of the write (HEXBATTLE_FAULT, see
# src/io/fileio.h), a render, a battle save and a converted map exit 1 with
# "FILE: cannot write: REASON", keep the file that was there, and leave no
# temporary file; the editor's Ctrl+S says so in the window and keeps the
# edits. (Autosaves, recovery copies and the display settings are covered
# the same way in test_save, test_recover and test_config; a real full and
# read-only disk in disk.sh.)
source "$(dirname "$0")/lib/assert.bash"

MAP="$SRC/maps/ridge_ambush.json"
OUT="$TMP/out"
mkdir -p "$OUT"

# Each step of a write: the temporary file's create, write, fsync and close,
# then the renames (a save keeping a .bak makes a second temporary file and
# renames twice).
FAULTS="create:1 write:1 fsync:1:EIO close:1 rename:1:EROFS"
BAK_FAULTS="$FAULTS create:2 write:2 rename:2"
why() {
    case "$1" in
    *EIO) echo "Input/output error" ;;
    *EROFS) echo "Read-only file system" ;;
    *) echo "No space left on device" ;;
    esac
}
only() { test "$(ls -A "$OUT" | sort | tr '\n' ' ')" = "$1"; }

# --- render ---
"$HB" render "$MAP" --out "$OUT/map.png" --size 320x200
sum=$(md5sum <"$OUT/map.png")
for f in $FAULTS; do
    HEXBATTLE_FAULT="$f" "$HB" render "$MAP" --out "$OUT/map.png" --size 640x400 \
        >"$TMP/stdout" 2>"$TMP/err"
    rc=$?
    check "render_${f}_exit_1" test "$rc" -eq 1
    check "render_${f}_says_file_and_why" grep -qF "$OUT/map.png: cannot write: $(why "$f")" \
        "$TMP/err"
    check "render_${f}_keeps_old_picture" test "$sum" = "$(md5sum <"$OUT/map.png")"
    check "render_${f}_no_temporary" only "map.png "
done
# A new picture that cannot be written leaves no file at all.
HEXBATTLE_FAULT=write:1 "$HB" render "$MAP" --out "$OUT/new.png" 2>/dev/null
check render_new_fails test $? -eq 1
check render_new_leaves_nothing only "map.png "
# A malformed fault spec is said and ignored.
HEXBATTLE_FAULT=nonsense "$HB" render "$MAP" --out "$OUT/map.png" --size 320x200 2>"$TMP/err"
check bad_fault_spec_ignored test $? -eq 0
check bad_fault_spec_said grep -qF "HEXBATTLE_FAULT='nonsense'" "$TMP/err"
rm -f "$OUT/map.png"

# --- a battle save (simulate --save) ---
SAVE="$OUT/battle.json"
"$HB" simulate "$MAP" --seed 3 --save "$SAVE" >/dev/null
"$HB" simulate "$MAP" --seed 3 --save "$SAVE" >/dev/null # now with a .bak
sum=$(md5sum <"$SAVE")
for f in $BAK_FAULTS; do
    HEXBATTLE_FAULT="$f" "$HB" simulate "$MAP" --seed 5 --save "$SAVE" >/dev/null 2>"$TMP/err"
    rc=$?
    check "save_${f}_exit_1" test "$rc" -eq 1
    check "save_${f}_says_file_and_why" grep -qF "$SAVE: cannot write: $(why "$f")" "$TMP/err"
    check "save_${f}_keeps_save" test "$sum" = "$(md5sum <"$SAVE")"
    check "save_${f}_keeps_bak" test "$sum" = "$(md5sum <"$SAVE.bak")"
    check "save_${f}_no_temporary" only "battle.json battle.json.bak "
done
"$HB" replay "$SAVE" --events >/dev/null
check save_still_loads test $? -eq 0
rm -f "$SAVE" "$SAVE.bak"

# --- a map written by convert, in each format (the map writer and Tiled's) ---
# A Tiled map comes with its tileset picture, map.tiles.png: two files, each
# kept as .bak, so the faults go two steps further (the third temporary file
# is the picture's .bak, the fourth the map's).
for ext in json tmj tmx; do
    MOUT="$OUT/map.$ext"
    "$HB" convert "$MAP" "$MOUT"
    "$HB" convert "$MAP" "$MOUT" # now with a .bak
    sum=$(md5sum <"$MOUT")
    files="map.$ext map.$ext.bak "
    faults="$BAK_FAULTS"
    if [ "$ext" != json ]; then
        files="map.tiles.png map.tiles.png.bak map.$ext map.$ext.bak "
        faults="$BAK_FAULTS create:3 write:3 rename:3 create:4 write:4 rename:4"
    fi
    for f in $faults; do
        HEXBATTLE_FAULT="$f" "$HB" convert "$SRC/maps/salt_flats.json" "$MOUT" >/dev/null \
            2>"$TMP/err"
        rc=$?
        check "convert_${ext}_${f}_exit_1" test "$rc" -eq 1
        # The message names the file whose write failed: the map or its picture.
        check "convert_${ext}_${f}_says_file_and_why" grep -qE \
            "$OUT/map\.($ext|tiles\.png): cannot write: $(why "$f")" "$TMP/err"
        check "convert_${ext}_${f}_keeps_map" test "$sum" = "$(md5sum <"$MOUT")"
        check "convert_${ext}_${f}_no_temporary" only "$files"
    done
    "$HB" query "$MOUT" distance 0,0 1,1 >/dev/null
    check "convert_${ext}_map_still_loads" test $? -eq 0
    rm -f "$MOUT" "$MOUT.bak" "$OUT/map.tiles.png" "$OUT/map.tiles.png.bak"
done

# --- the editor's Ctrl+S (a map), in a real window when Xvfb and xdotool are here ---
source "$(dirname "$0")/lib/xvfb.bash"
if command -v Xvfb >/dev/null && command -v xdotool >/dev/null && start_xvfb; then
    cp "$MAP" "$OUT/map.json"
    sum=$(md5sum <"$OUT/map.json")
    export SDL_VIDEODRIVER=x11
    launch "hexbattle editor - $OUT/map.json" "$TMP/edit.err" XDG_DATA_HOME="$TMP/xdg" \
        HEXBATTLE_FAULT=rename:1 -- edit "$OUT/map.json"
    # The title gains " *" once the edit is in (a slow machine takes a while;
    # a hex painted again is the same edit).
    marked() { xdotool getwindowname "$win" 2>/dev/null | grep -q ' \*$'; }
    for _ in 1 2 3; do
        # The editor starts on the select tool: B takes the brush first.
        xdotool windowfocus --sync "$win" key b
        xdotool mousemove --window "$win" 640 420 click 1
        for _ in $(seq 30); do marked && break; sleep 0.1; done
        marked && break
    done
    check map_edited marked
    xdotool windowfocus --sync "$win" key ctrl+s
    sleep 1
    check map_save_fails_keeps_file test "$sum" = "$(md5sum <"$OUT/map.json")"
    check map_save_fails_edits_kept marked
    check map_save_no_temporary only "map.json "
    # The edits are still there to keep: a stop writes them to the recovery copy.
    kill -TERM "$pid"
    wait "$pid"
    check map_kept_after_failed_save test -s "$TMP/xdg/hexbattle/map.recover.json"
else
    echo "(no Xvfb or xdotool: the editor's save is left to test_ui_editor)"
fi

finish
