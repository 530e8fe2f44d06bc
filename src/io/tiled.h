/* tiled.h - Tiled hex maps (.tmj JSON, .tmx XML) read into hexbattle maps and
 * written from them (docs/tiled.md).
 *
 * A Tiled map is read wherever a command takes a map: map_load and
 * map_load_mem send names ending in .tmj or .tmx here. Terrain comes from a
 * tile layer (each tile names its type with a `terrain` property or its
 * class), combatants from an object layer, the rest from map properties.
 * Every refusal names the file, the path in Tiled's JSON shape (for a .tmx,
 * the same path over its elements) and the reason, and returns HB_ERR_INPUT.
 */
#ifndef HB_TILED_H
#define HB_TILED_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/map.h"
#include "../core/tmpl.h"

#define TILED_NOTE_MAX 256

typedef enum { TILED_NONE = 0, TILED_TMJ, TILED_TMX } tiled_format_t;

/* Which Tiled format PATH names by its extension, if any. */
tiled_format_t tiled_format_of(const char *path);

/* Read a Tiled map from text[0..len); NAME (its path) picks the format and
 * names messages, and external tilesets are read relative to its folder.
 * HB_OK with *out (and *db_out when given) owned by the caller; note (may be
 * NULL) gets one line naming the layers hexbattle did not read, or "". */
int tiled_load_mem(const char *text, size_t len, const char *name, const char *data_dir,
                   map_t **out, tmpl_db_t **db_out, char *note, size_t notecap, char *err,
                   size_t errcap);
/* The same for the file at PATH. */
int tiled_load(const char *path, const char *data_dir, map_t **out, tmpl_db_t **db_out,
               char *note, size_t notecap, char *err, size_t errcap);

/* Map m as a Tiled map (malloc'd text, caller frees; NULL on OOM): XML when
 * fmt is TILED_TMX, else JSON. OUT_PATH (may be NULL) is where it will be
 * written, so the tileset's image paths can be made relative to it. */
char *tiled_to_text(const map_t *m, tiled_format_t fmt, const char *out_path);
/* Write m to PATH in the format its extension names, atomically, keeping
 * PATH.bak. HB_OK, or an error with err filled. */
int tiled_save(const map_t *m, const char *path, char *err, size_t errcap);

/* The terrains chosen for tiles (a->choices) written as the tiles'
 * `terrain` properties into the Tiled files of the map at MAP_PATH: the map
 * file for a tileset it holds, else the tileset's own file; each written
 * atomically, keeping NAME.bak, and nothing else in it changed. */
int tiled_save_tile_terrain(const map_art_t *a, const char *map_path, char *err, size_t errcap);
/* Does the Tiled map at PATH hold layers hexbattle does not read (which a
 * save over it would drop)? Their names go to note. False too when PATH is
 * not there or not a Tiled map. */
bool tiled_foreign_layers(const char *path, char *note, size_t notecap);

#endif
