#!/usr/bin/env bash
# A full disk and a read-only disk (issues 7, 18): the save or picture that cannot be written
# is reported with the file and the reason, the run fails (exit 1, not the
# bad-input 2), and the save already there stays whole and loadable, with no
# temporary file left beside it. Needs a small tmpfs, so it runs as root in a
# private mount namespace (nothing leaks to the host's mounts); elsewhere it
# is skipped (exit 77) and test_fileio's size-limit test still covers a write
# that fails part way.
if [ -z "${HB_DISK_NS:-}" ] && [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
    exec env HB_DISK_NS=1 unshare -m --propagation private bash "$0" "$@"
fi
source "$(dirname "$0")/lib/assert.bash"

DISK="$TMP/disk"
mkdir -p "$DISK"
if [ -z "${HB_DISK_NS:-}" ] || ! mount -t tmpfs -o size=256k tmpfs "$DISK" 2>/dev/null; then
    echo "SKIPPED: cannot mount a small tmpfs here (needs root and unshare -m)"
    exit 77
fi
trap 'umount "$DISK" 2>/dev/null; rm -rf "$TMP"' EXIT

MAP="$SRC/maps/ridge_ambush.json"
SAVE="$DISK/battle.json"

# A first save that fits.
"$HB" simulate "$MAP" --seed 7 --save "$SAVE" >"$TMP/first.txt"
check first_save_written test -s "$SAVE"
sum_before=$(md5sum <"$SAVE")

# A picture that fits, too.
PNG="$DISK/map.png"
"$HB" render "$MAP" --out "$PNG" --size 160x100
check first_render_written test -s "$PNG"
png_before=$(md5sum <"$PNG")

# And a map (convert writes it as the editor does, here in Tiled's format).
TMX="$DISK/map.tmx"
"$HB" convert "$MAP" "$TMX"
check first_map_written test -s "$TMX"
tmx_before=$(md5sum <"$TMX")

# Fill the disk, leaving less room than a save needs.
dd if=/dev/zero of="$DISK/filler" bs=1k count=4096 2>/dev/null # stops at "no space left"
room=$(df --output=avail -B1 "$DISK" | tail -1)
check disk_is_full test "$room" -lt "$(stat -c %s "$SAVE")"

"$HB" simulate "$MAP" --seed 8 --save "$SAVE" >/dev/null 2>"$TMP/full.err"
rc=$?
check full_disk_exit_1 test "$rc" -eq 1
check full_disk_names_file grep -qF "$SAVE" "$TMP/full.err"
check full_disk_says_why grep -qi "no space left" "$TMP/full.err"
check full_disk_keeps_save test "$sum_before" = "$(md5sum <"$SAVE")"
"$HB" render "$MAP" --out "$PNG" --size 640x400 2>"$TMP/render_full.err"
check render_full_disk_exit_1 test $? -eq 1
check render_full_disk_says_why grep -qF "$PNG: cannot write: No space left on device" "$TMP/render_full.err"
check render_full_disk_keeps_picture test "$png_before" = "$(md5sum <"$PNG")"
"$HB" convert "$SRC/maps/salt_flats.json" "$TMX" 2>"$TMP/map_full.err"
check map_full_disk_exit_1 test $? -eq 1
# (the map or its tileset picture, whichever did not fit)
check map_full_disk_says_why grep -qE "$DISK/map\.(tmx|tiles\.png): cannot write: No space left on device" \
    "$TMP/map_full.err"
check map_full_disk_keeps_map test "$tmx_before" = "$(md5sum <"$TMX")"
check full_disk_no_temp_left test "$(ls -A "$DISK" | sort | tr '\n' ' ')" = "battle.json filler map.png map.tiles.png map.tmx "
"$HB" replay "$SAVE" --events >"$TMP/after_full.txt"
check full_disk_save_still_loads cmp -s "$TMP/first.txt" "$TMP/after_full.txt"

# Read-only: room again, but the file system refuses every write.
rm -f "$DISK/filler"
mount -o remount,ro "$DISK"
"$HB" simulate "$MAP" --seed 8 --save "$SAVE" >/dev/null 2>"$TMP/ro.err"
rc=$?
check read_only_exit_1 test "$rc" -eq 1
check read_only_names_file grep -qF "$SAVE" "$TMP/ro.err"
check read_only_says_why grep -qi "read-only" "$TMP/ro.err"
check read_only_keeps_save test "$sum_before" = "$(md5sum <"$SAVE")"
"$HB" render "$MAP" --out "$PNG" --size 640x400 2>"$TMP/render_ro.err"
check render_read_only_exit_1 test $? -eq 1
check render_read_only_says_why grep -qF "$PNG: cannot write: Read-only file system" "$TMP/render_ro.err"
check render_read_only_keeps_picture test "$png_before" = "$(md5sum <"$PNG")"
"$HB" convert "$SRC/maps/salt_flats.json" "$TMX" 2>"$TMP/map_ro.err"
check map_read_only_exit_1 test $? -eq 1
check map_read_only_says_why grep -qE "$DISK/map\.(tmx|tiles\.png): cannot write: Read-only file system" \
    "$TMP/map_ro.err"
check map_read_only_keeps_map test "$tmx_before" = "$(md5sum <"$TMX")"
"$HB" replay "$SAVE" --events >"$TMP/after_ro.txt"
check read_only_save_still_loads cmp -s "$TMP/first.txt" "$TMP/after_ro.txt"

finish
