/* recover.h - recovery copies: what a window holds that is not on disk yet,
 * written when the window is told to stop (SIGTERM, SIGHUP, SIGINT) so the
 * next start can offer it back (docs/saves.md, "Recovery copies").
 *
 * A copy lives beside the autosaves as NAME.recover.json, NAME being the name
 * of the file it belongs to without ".json": the editor's map
 * (maps/ridge_ambush.json -> ridge_ambush.recover.json) or the battle's save
 * (ridge_ambush.battle.json -> ridge_ambush.battle.recover.json). It records
 * that file's absolute path, so a copy is only offered for its own file.
 *   - A map copy (format "hexbattle-recover") holds the map as edited and the
 *     undo history with its cursor, so undo and redo go on as before.
 *   - A battle copy is a save (format "hexbattle-save", docs/saves.md) with
 *     one more member, "recover_of"; `hexbattle resume` opens it too.
 * Writing goes through hb_write_atomic like every other file.
 */
#ifndef HB_RECOVER_H
#define HB_RECOVER_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/edit.h"
#include "save.h"

#define RECOVER_FORMAT "hexbattle-recover"
/* A map copy keeps its undo history up to this many changed cells (about
 * 1.5 MB of JSON); a larger one is left out so that a stopped editor writes
 * its copy within a second, and a copy never passes the 16 MiB read limit. */
#define RECOVER_HISTORY_CELLS 100000

/* The recovery copy for FILE (NULL or "" for a new map: "untitled") in the
 * autosave folder; false when no folder can be named. */
bool recover_path(const char *file, char *out, size_t cap);

/* Absolute path of FILE for the "of" records (its folder resolved, the name
 * kept); "" for NULL or "". */
void recover_abs(const char *file, char *out, size_t cap);

/* Write the editor's map m with its history h as the copy RPATH belonging
 * to FILE (may be NULL or ""). The autosave folder is made when missing.
 * HB_OK, or HB_ERR_OTHER with "RPATH: cannot write: REASON". */
int recover_write_map(const char *rpath, const char *file, const map_t *m, const edit_history_t *h,
                      char *err, size_t errcap);

/* Write battle p as a save at RPATH belonging to FILE (the save it would go
 * to), like save_write otherwise. */
int recover_write_battle(const char *rpath, const char *file, const play_t *p,
                         const save_table_t *table, const char *map_file, char *err,
                         size_t errcap);

/* Where a copy may land, in the order tried (docs/saves.md): the autosave
 * folder ($XDG_DATA_HOME/hexbattle), beside FILE (when it has a name), and
 * $TMPDIR (/tmp when unset) as hexbattle-NAME.recover.json. NAMING is the
 * file the copy is named after (FILE, or a stand-in for a new one). Up to max
 * paths into out; how many. */
int recover_places(const char *file, const char *naming, char (*out)[SAVE_PATH_MAX], int max);

/* Write the editor's copy (as recover_write_map) to the first of FILE's
 * places that takes it (a full or read-only data folder: the next); its path
 * goes to where. A copy whose undo history holds more than
 * RECOVER_HISTORY_CELLS cells, or would take it over HB_FILE_MAX, is written
 * without it (*no_history true): the edits are kept, and it reads back.
 * HB_ERR_OTHER with every place's reason when none takes it. */
int recover_write_map_any(const char *file, const map_t *m, const edit_history_t *h, char *where,
                          size_t wcap, bool *no_history, char *err, size_t errcap);
/* The same for a battle's copy (FILE: the save it stands for, or NULL). */
int recover_write_battle_any(const char *file, const play_t *p, const save_table_t *table,
                             const char *map_file, char *where, size_t wcap, char *err,
                             size_t errcap);
/* Look for FILE's copy in its places: 1 found (its path in rpath), 0 none,
 * -1 one is there but cannot be read (too large, damaged): its path in rpath,
 * the reason in err, so that it is reported, never skipped without a word. */
int recover_find(const char *file, char *rpath, size_t cap, char *err, size_t errcap);

/* A battle copy taken back: it becomes the newest autosave (the older ones
 * move down a slot), so it is no longer offered and nothing is lost. Its new
 * path goes to slot. */
int recover_adopt(const char *rpath, char *slot, size_t slotcap, char *err, size_t errcap);

/* Does the copy at RPATH exist and belong to FILE? (Cheap enough for a start.) */
bool recover_belongs(const char *rpath, const char *file);

/* A map copy read back. */
typedef struct {
    char of[SAVE_PATH_MAX]; /* the file it belongs to, "" for a new map */
    long long written;      /* when, in seconds since 1970 (0 unknown) */
    map_t *map;
    tmpl_db_t *db;
    edit_history_t hist; /* checked: it undoes and redoes on map */
} recover_map_t;

/* Load the map copy at RPATH (data_dir NULL: hb_data_dir()). HB_OK with *out
 * filled (free with recover_map_free), or HB_ERR_INPUT / HB_ERR_OTHER with
 * "RPATH: JSON.path: reason". */
int recover_load_map(const char *rpath, const char *data_dir, recover_map_t *out, char *err,
                     size_t errcap);
void recover_map_free(recover_map_t *r);

#endif
