/* map_io.h - map files (format version 1, DESIGN.md), terrain and ruleset data.
 *
 * Every loader refuses bad input with "FILE: JSON.path: reason" in err and
 * returns HB_ERR_INPUT (2). Nothing here writes except map_save.
 */
#ifndef HB_MAP_IO_H
#define HB_MAP_IO_H

#include <stddef.h>

#include "../core/map.h"
#include "../core/tmpl.h"
#include "fileio.h"

#define HB_ERR_MAX 512

/* Built-in terrain types from DATA_DIR/terrain.json into types[]; sets *n. */
int terrain_load_builtin(const char *data_dir, terrain_t *types, int cap, int *n, char *err,
                         size_t errcap);

/* Templates and weapons of RULESET from DATA_DIR/<ruleset>/. */
int tmpl_db_load(const char *data_dir, const char *ruleset, tmpl_db_t **out, char *err,
                 size_t errcap);
void tmpl_db_destroy(tmpl_db_t *db);
/* The same from two buffers already in memory (weapons.json and
 * templates.json text of RULESET); WNAME and TNAME name them in messages. */
int tmpl_db_load_mem(const char *ruleset, const char *weapons, size_t wlen, const char *wname,
                     const char *templates, size_t tlen, const char *tname, tmpl_db_t **out,
                     char *err, size_t errcap);

/* Give m, a copy of the map at MAP_FILE kept elsewhere (in a save, a
 * recovery copy), that map's pictures again: a copy keeps no Tiled tiles, and
 * names a battle-map picture relative to the map's folder, which the copy is
 * not in. MAP_FILE is taken as written (absolute, or relative to the working
 * folder), else relative to BESIDE's folder (the copy's own file; may be
 * NULL). Tiles m lacks come from MAP_FILE when it still loads with tiles for
 * the very same grid; a battle-map picture of m's is looked for in MAP_FILE's
 * folder, keeping m's placing of it. True when m changed; for drawing only. */
bool map_adopt_pictures(map_t *m, const char *map_file, const char *beside);

/* Load the map at PATH (templates resolved from data_dir); a name ending in
 * .tmj or .tmx is read as a Tiled map (tiled.h). On success *out
 * owns a new map; optionally *db_out receives its ruleset's data (caller frees). */
int map_load(const char *path, const char *data_dir, map_t **out, tmpl_db_t **db_out, char *err,
             size_t errcap);
/* The same from a buffer; NAME is the file name used in messages. */
int map_load_mem(const char *text, size_t len, const char *name, const char *data_dir,
                 map_t **out, tmpl_db_t **db_out, char *err, size_t errcap);

/* Map as format-1 JSON text (malloc'd, caller frees); NULL on OOM. */
char *map_to_json(const map_t *m);
/* Save atomically to PATH, keeping PATH.bak; as a Tiled map when PATH ends
 * in .tmj or .tmx. */
int map_save(const map_t *m, const char *path, char *err, size_t errcap);

#endif
