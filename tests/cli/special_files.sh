#!/usr/bin/env bash
# Special files and links (issue 30): a FIFO, device or socket is never opened
# as a map or written over as a save (nothing blocks, no temporary file is
# left); a save over a symbolic link replaces the file it points to and keeps
# the link; a replaced file keeps its permissions, and so does its .bak; "-"
# as an output is standard output.
source "$(dirname "$0")/lib/assert.bash"

MAP="$SRC/maps/ridge_ambush.json"
OUT="$TMP/out"
mkdir -p "$OUT"
only() { test "$(ls -A "$OUT" | sort | tr '\n' ' ')" = "$1"; }
# Every command below gets 20 s; a hang (the old blocking open) shows as 124.
T="timeout -s KILL 20"

# --- a FIFO as an output: refused at once, nothing left beside it ---
mkfifo "$OUT/fifo.json"
$T "$HB" convert "$MAP" "$OUT/fifo.json" >"$TMP/stdout" 2>"$TMP/err"
rc=$?
check convert_to_fifo_exit_1 test "$rc" -eq 1
check convert_to_fifo_says_why grep -qF "$OUT/fifo.json: cannot write: not a regular file" "$TMP/err"
check convert_to_fifo_no_temporary only "fifo.json "
$T "$HB" simulate "$MAP" --seed 3 --save "$OUT/fifo.json" >/dev/null 2>"$TMP/err"
rc=$?
check simulate_save_to_fifo_exit_1 test "$rc" -eq 1
check simulate_save_to_fifo_says_why grep -qF "fifo.json: cannot write: not a regular file" "$TMP/err"
check simulate_save_to_fifo_no_temporary only "fifo.json "
$T "$HB" render "$MAP" --out "$OUT/fifo.json" --size 200x120 >/dev/null 2>"$TMP/err"
check render_to_fifo_exit_1 test $? -eq 1
check render_to_fifo_no_temporary only "fifo.json "

# --- a FIFO as an input: refused at once as bad input ---
expect_fail map_is_fifo 2 "fifo.json: not a regular file" $T "$HB" query "$OUT/fifo.json" distance 0,0 1,1
expect_fail save_is_fifo 2 "fifo.json: not a regular file" $T "$HB" replay "$OUT/fifo.json" --events
expect_fail tiled_is_fifo 2 "not a regular file" $T "$HB" convert "$OUT/fifo.json" "$OUT/x.tmj"
mkfifo "$OUT/fifo.tmx"
expect_fail tmx_is_fifo 2 "fifo.tmx: not a regular file" $T "$HB" convert "$OUT/fifo.tmx" "$OUT/x.json"
rm -f "$OUT/fifo.json" "$OUT/fifo.tmx"
# A save to a link to standard output, a pipe read by the caller: refused, no deadlock.
ln -s /dev/stdout "$OUT/stdout.json"
$T "$HB" simulate "$MAP" --seed 3 --save "$OUT/stdout.json" 2>"$TMP/err" | cat >/dev/null
check save_to_link_to_stdout_pipe_exit_1 test "${PIPESTATUS[0]}" -eq 1
check save_to_link_to_stdout_pipe_says_why grep -qF "stdout.json: cannot write: not a regular file" "$TMP/err"
check save_to_link_to_stdout_keeps_link test -L "$OUT/stdout.json"
rm -f "$OUT/stdout.json"

# --- a save over a symbolic link: the link stays, its file is replaced ---
mkdir -p "$OUT/real"
"$HB" simulate "$MAP" --seed 3 --save "$OUT/real/battle.json" >/dev/null
ln -s real/battle.json "$OUT/link.json"
"$HB" simulate "$MAP" --seed 5 --save "$OUT/link.json" >/dev/null 2>"$TMP/err"
check save_over_link_ok test $? -eq 0
check save_over_link_keeps_link test -L "$OUT/link.json"
check save_over_link_replaces_target grep -q '"seed":[[:space:]]*"5"' "$OUT/real/battle.json"
check save_over_link_no_temporary test -z "$(ls -A "$OUT/real" | grep tmp)"
# A link to a link to a file not there yet: the file is made where the chain ends.
ln -s link2.json "$OUT/link1.json"
ln -s real/new.json "$OUT/link2.json"
"$HB" convert "$MAP" "$OUT/link1.json" 2>"$TMP/err"
check dangling_link_chain_ok test $? -eq 0
check dangling_link_chain_keeps_links test -L "$OUT/link1.json" -a -L "$OUT/link2.json"
check dangling_link_chain_writes_target test -f "$OUT/real/new.json"
# The editor's save keeps a .bak: it goes beside the file, not the link.
"$HB" convert "$MAP" "$OUT/link1.json" 2>"$TMP/err"
check link_bak_beside_target test -f "$OUT/real/new.json.bak"
check link_no_bak_beside_link test ! -e "$OUT/link1.json.bak"

# --- permissions kept ---
"$HB" simulate "$MAP" --seed 3 --save "$OUT/private.json" >/dev/null
chmod 600 "$OUT/private.json"
"$HB" simulate "$MAP" --seed 4 --save "$OUT/private.json" >/dev/null
check private_save_stays_0600 test "$(stat -c %a "$OUT/private.json")" = 600
"$HB" convert "$MAP" "$OUT/p.json"
chmod 640 "$OUT/p.json"
"$HB" convert "$MAP" "$OUT/p.json"
"$HB" convert "$MAP" "$OUT/p.json"
check converted_map_stays_0640 test "$(stat -c %a "$OUT/p.json")" = 640
check its_bak_0640_too test "$(stat -c %a "$OUT/p.json.bak")" = 640
# A new file gets the umask's permissions, as before.
(umask 022 && "$HB" convert "$MAP" "$OUT/fresh.json")
check new_file_0644 test "$(stat -c %a "$OUT/fresh.json")" = 644

# --- "-" is standard output ---
"$HB" render "$MAP" --out - --size 200x120 >"$TMP/stdout.png" 2>"$TMP/err"
check render_to_dash_ok test $? -eq 0
check render_to_dash_is_png test "$(head -c 4 "$TMP/stdout.png" | od -An -c | tr -d ' ')" = '211PNG'
check render_to_dash_no_file_named_dash test ! -e ./-
"$HB" convert "$MAP" - >"$TMP/stdout.json" 2>"$TMP/err"
check convert_to_dash_is_the_map grep -q '"format":[[:space:]]*"hexbattle-map"' "$TMP/stdout.json"
finish
