/* io_json.h - private to src/io: checked reads of cJSON values.
 *
 * Every check that fails writes "FILE: JSON.path: reason" into the context's
 * error buffer and returns HB_ERR_INPUT, so loaders can simply propagate the
 * status. Paths are built by the caller with io_path_key / io_path_index; the
 * empty path is the whole document and prints as "(root)".
 */
#ifndef HB_IO_JSON_H
#define HB_IO_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "../core/map.h"
#include "../core/printf_attr.h"
#include "../core/tmpl.h"
#include "fileio.h"

/* Longest JSON path kept for messages; deeper paths are cut, never overrun. */
#define IO_PATH_MAX 160

typedef struct {
    const char *file; /* name used at the start of every message */
    char *err;
    size_t errcap;
} io_ctx_t;

/* Write "FILE: PATH: reason" and return HB_ERR_INPUT. */
int io_fail(io_ctx_t *cx, const char *path, const char *fmt, ...)
    HB_PRINTF(3, 4)
    ;

/* Write "FILE: reason" for failures that are not about the input; returns HB_ERR_OTHER. */
int io_fail_other(io_ctx_t *cx, const char *reason);
/* Rewrite the control characters of s (below 0x20, and DEL) as "\xNN", in
 * place, within cap bytes: every message that echoes input goes through it. */
void io_escape_controls(char *s, size_t cap);

/* Deepest nesting of objects and arrays any file may have; real files stay
 * under ten levels. */
#define IO_JSON_DEPTH_MAX 32

/* Parse text[0..len) as one JSON document, refusing trailing text (the
 * message gives the line and column) and everything io_json_strict_* refuse. */
int io_parse(io_ctx_t *cx, const char *text, size_t len, cJSON **out);

/* Strict JSON, before cJSON reads the text (json_strict.c): refuses a NUL
 * anywhere, a control character outside a string or raw inside one, invalid
 * UTF-8, a number that does not fit an int (-2147483648..2147483647), and
 * nesting deeper than IO_JSON_DEPTH_MAX, each with the JSON path where it is.
 * Plain syntax errors pass, for cJSON to report. */
int io_json_strict_text(io_ctx_t *cx, const char *text, size_t len);
/* Strict JSON, on the parsed tree: refuses a key given twice in one object. */
int io_json_strict_tree(io_ctx_t *cx, const cJSON *root);

/* PARENT.KEY (or PARENT["KEY"] when KEY is not a plain name) into out. */
void io_path_key(char *out, size_t cap, const char *parent, const char *key);
/* PARENT[I] into out. */
void io_path_index(char *out, size_t cap, const char *parent, int i);

/* JSON type of v as a word for messages ("string", "object", ...). */
const char *io_type_name(const cJSON *v);

/* Member KEY of object obj (case-sensitive), or NULL. */
const cJSON *io_get(const cJSON *obj, const char *key);
/* Like io_get, but a missing member is an error naming PATH.KEY. */
int io_require(io_ctx_t *cx, const cJSON *obj, const char *path, const char *key,
               const cJSON **out);

/* v must be an object / an array. */
int io_want_object(io_ctx_t *cx, const cJSON *v, const char *path);
int io_want_array(io_ctx_t *cx, const cJSON *v, const char *path);
/* v must be a whole number in lo..hi. */
int io_want_int(io_ctx_t *cx, const cJSON *v, const char *path, int lo, int hi, int *out);
/* v must be one of the n strings in names; its index goes to *out. */
int io_want_enum(io_ctx_t *cx, const cJSON *v, const char *path, const char *const *names, int n,
                 int *out);
/* v must be true or false. */
int io_want_bool(io_ctx_t *cx, const cJSON *v, const char *path, bool *out);
/* v must be a string shorter than cap (and non-empty unless allow_empty). */
int io_want_string(io_ctx_t *cx, const cJSON *v, const char *path, char *dst, size_t cap,
                   bool allow_empty);
/* v must be an id: 1..cap-1 characters of [A-Za-z0-9_-]. */
int io_want_id(io_ctx_t *cx, const cJSON *v, const char *path, char *dst, size_t cap);
/* Is s a valid id of [A-Za-z0-9_-], non-empty? */
bool io_is_id(const char *s);
/* KEY (an object member name) must be an id shorter than cap; PATH names it. */
int io_want_key_id(io_ctx_t *cx, const char *key, const char *path, size_t cap);

/* Read the fields of one terrain type object at PATH into t. With
 * require_all, move, cover and color must be present (a new type); without,
 * absent fields keep t's values (an override of a built-in). */
int io_terrain_fields(io_ctx_t *cx, const cJSON *obj, const char *path, terrain_t *t,
                      bool require_all);

/* Merge the type definitions of object OBJ (at PATH) into types[0..*n) (data_io.c).
 * From a map, a name already present overrides that type in place (keeping
 * its index, so cells stay valid) and is marked in_map; from terrain.json
 * every name must be new. Every opens_to must name a type. */
int io_terrain_table(io_ctx_t *cx, const cJSON *obj, const char *path, terrain_t *types, int cap,
                     int *n, bool from_map);

/* v must be {name: integer} with at most cap entries, names distinct ids;
 * more are refused ("more than CAP WHAT"), never cut short. */
int io_int_table(io_ctx_t *cx, const cJSON *v, const char *path, stat_kv_t *kv, int cap, int *n,
                 const char *what);
/* io_int_table for stats. */
int io_stats(io_ctx_t *cx, const cJSON *v, const char *path, stat_kv_t *kv, int cap, int *n);
/* v must be an array of at most MAP_MAX_WEAPONS weapon ids, each in db. */
int io_weapon_list(io_ctx_t *cx, const cJSON *v, const char *path, const tmpl_db_t *db,
                   char (*out)[MAP_ID_MAX], int *n);
/* v must be "creature" or "machine". */
int io_kind(io_ctx_t *cx, const cJSON *v, const char *path, ckind_t *out);
/* v must be a size name (tiny .. gargantuan). */
int io_size(io_ctx_t *cx, const cJSON *v, const char *path, csize_t *out);
/* The kind must allow the size (map_size_valid); PATH names the field at fault. */
int io_check_size(io_ctx_t *cx, const char *path, ckind_t kind, csize_t size);

/* Load the file at PATH (bounded by HB_FILE_MAX) and parse it. */
int io_load_json(io_ctx_t *cx, const char *path, cJSON **out);

/* Member KEY of root (an object) is a whole map file's object: load it
 * through the map loader, its messages moved under "KEY." so they point into
 * the file at hand. HB_OK with *out (and *db_out when not NULL) owned by the
 * caller. */
int io_load_member_map(io_ctx_t *cx, const cJSON *root, const char *key, const char *data_dir,
                       map_t **out, tmpl_db_t **db_out);

/* The header every data file starts with: "format" equal to FORMAT, "version" 1. */
int io_check_header(io_ctx_t *cx, const cJSON *root, const char *format);

/* Print root (indented, ending in a newline) into plain malloc memory for the
 * caller to free, and delete root. NULL when ok is false or memory ran out. */
char *io_print_owned(cJSON *root, bool ok);

/* A hexbattle map from a parsed format-1 document (map_io.c); NAME names
 * messages. The Tiled reader builds such a document and hands it here. */
int map_from_json(const cJSON *root, const char *name, const char *data_dir, map_t **out,
                  tmpl_db_t **db_out, char *err, size_t errcap);

/* Is rel a path that stays inside the folder it is read from: not empty,
 * not absolute (no leading / or \\, no drive letter), no ".." part? Texture
 * and token paths (under assets/) and Tiled tilesets (beside the map) must be. */
bool io_safe_relative(const char *rel);
/* Check the string member at p (already read into s) with io_safe_relative:
 * HB_OK, or HB_ERR_INPUT naming p and what it must be (WHERE: the folder). */
int io_want_inside(io_ctx_t *cx, const char *p, const char *s, const char *where);

/* The ranges of the numbers a map, template or save holds (docs/map-format.md,
 * "Ranges"): wide enough for any table, narrow enough that no rule's sums and
 * products overflow an int. */
#define IO_FEET_MAX 10000    /* speed, fly, reach, a weapon's range: feet */
#define IO_HP_MAX 100000     /* hit points */
#define IO_VALUE_MAX 10000 /* stats, weapon tags, rule options, faction scores: -max..max */

#endif
