/* edit.h - map editor operations as values, and an unbounded undo/redo history.
 *
 * An edit holds exactly the state it changes, never a copy of the map. Applying
 * an edit swaps that state with the map's, so after edit_apply the same value
 * IS its own inverse: applying it again undoes it. A history is then just a
 * list of edits and a cursor; undo and redo both call edit_apply.
 *
 * Builders (edit_paint, edit_flood, edit_resize...) read the map and describe
 * the change; they do not touch the map. The reshaping edits (resize, layout)
 * move every cell, so they carry the old and new grids and rosters - still
 * only cells and combatants, never the terrain table or properties.
 */
#ifndef HB_EDIT_H
#define HB_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "map.h"
#include "tmpl.h"

#define EDIT_BRUSH_MAX 3 /* brush radius 1..3: hexes within radius-1 of the centre */

typedef enum {
    EDIT_CELLS = 0, /* terrain of some cells (paint, line, flood, eraser) */
    EDIT_TYPE_ADD,  /* append a terrain type (inverse: EDIT_TYPE_DROP) */
    EDIT_TYPE_DROP, /* remove the last terrain type */
    EDIT_TYPE_SET,  /* change the fields of one terrain type */
    EDIT_UNIT_ADD,  /* insert a combatant at an index (inverse: EDIT_UNIT_DEL) */
    EDIT_UNIT_DEL,  /* remove the combatant at an index */
    EDIT_UNIT_SET,  /* change one combatant (move, name, faction, stats...) */
    EDIT_FACTIONS,  /* the factions table (who the players control) */
    EDIT_PROPS,     /* name, ruleset, feet_per_hex */
    EDIT_RESHAPE,   /* size, orientation, stagger: grid and roster replaced */
    EDIT_GROUP,     /* several edits as one undo step (a brush stroke) */
    EDIT_OPTIONS,   /* the map's rule options (group initiative...) */
} edit_kind_t;

typedef struct {
    int idx;      /* row-major cell index */
    uint8_t type; /* the type the swap puts there */
} edit_cell_t;

typedef struct edit edit_t;

/* Map-wide properties an EDIT_PROPS swaps. */
typedef struct {
    char name[MAP_NAME_MAX];
    char ruleset[MAP_ID_MAX];
    int feet_per_hex;
} edit_props_t;

/* The factions table an EDIT_FACTIONS swaps. */
typedef struct {
    faction_t factions[MAP_MAX_FACTIONS];
    int n_factions;
    bool factions_given;
} edit_factions_t;

/* The rule options an EDIT_OPTIONS swaps. */
typedef struct {
    stat_kv_t options[MAP_MAX_OPTIONS];
    int n_options;
    unsigned options_bool;
} edit_options_t;

/* The grid and roster an EDIT_RESHAPE swaps. */
typedef struct {
    int cols, rows;
    hex_layout_t layout;
    uint8_t *cells;
    map_combatant_t *combatants;
    int n_combatants;
} edit_shape_t;

struct edit {
    edit_kind_t kind;
    union {
        struct {
            edit_cell_t *v;
            int n;
        } cells;
        terrain_t type; /* TYPE_ADD: the type to append; TYPE_DROP: the type removed */
        struct {
            int index;
            terrain_t t;
        } type_set;
        struct {
            int index;
            map_combatant_t c;
        } unit; /* UNIT_ADD / UNIT_DEL / UNIT_SET */
        edit_factions_t factions;
        edit_options_t options;
        edit_props_t props;
        edit_shape_t shape;
        struct {
            edit_t *v;
            int n, cap;
        } group;
    } u;
};

/* Anchor of a resize: which part of the old map stays put (0 = left/top,
 * 1 = centre, 2 = right/bottom) along each axis. */
typedef struct {
    int x, y;
} edit_anchor_t;

/* Free what edit e owns (NULL is fine); e itself is the caller's. */
void edit_free(edit_t *e);
/* Apply e to m and turn e into its own inverse. Returns false (m and e
 * unchanged) when e no longer fits m, e.g. an index beyond the roster. */
bool edit_apply(map_t *m, edit_t *e);
/* Does e change nothing (an empty paint, a group of no-ops)? */
bool edit_is_noop(const edit_t *e);
/* A short human name of what e does ("paint", "move combatant"...). */
const char *edit_describe(const edit_t *e);

/* ---- builders: describe a change of m without making it ---- */

/* Paint TYPE on hexes within radius-1 of centre (radius 1..3), on the map only. */
bool edit_paint(const map_t *m, cell_t centre, int radius, int type, edit_t *out);
/* Paint a brush of RADIUS along the hex line from a to b. */
bool edit_line(const map_t *m, cell_t a, cell_t b, int radius, int type, edit_t *out);
/* Paint TYPE over the region of same-type hexes connected to start. */
bool edit_flood(const map_t *m, cell_t start, int type, edit_t *out);
/* The eraser: paint "open" (or type 0 if the map has no open). */
bool edit_erase(const map_t *m, cell_t centre, int radius, edit_t *out);
/* Append a new terrain type (its name must be new, the table not full). */
bool edit_type_add(const map_t *m, const terrain_t *t, edit_t *out);
/* Replace the fields of terrain type INDEX (name must stay unique). */
bool edit_type_set(const map_t *m, int index, const terrain_t *t, edit_t *out);
/* Add combatant c at the end of the roster (its id unique, its cell free and on the map). */
bool edit_unit_add(const map_t *m, const map_combatant_t *c, edit_t *out);
/* Remove combatant INDEX. */
bool edit_unit_del(const map_t *m, int index, edit_t *out);
/* Replace combatant INDEX by c (same rules as adding, ignoring itself). */
bool edit_unit_set(const map_t *m, int index, const map_combatant_t *c, edit_t *out);
/* Move combatant INDEX to cell to (on the map and free). */
bool edit_unit_move(const map_t *m, int index, cell_t to, edit_t *out);
/* Say whether FACTION is player-controlled; the table is then written to the file. */
bool edit_faction_set(const map_t *m, const char *faction, bool player, edit_t *out);
/* Set rule option KEY of the map (is_bool: written true/false), or take it
 * out (remove); false when the table is full or the key too long. */
bool edit_option_set(const map_t *m, const char *key, int value, bool is_bool, bool remove,
                     edit_t *out);
/* Set name, ruleset and feet_per_hex (1..1000) together. */
bool edit_props(const map_t *m, const edit_props_t *p, edit_t *out);
/* Resize to cols x rows keeping what fits, the old map placed by anchor. Along
 * the staggered axis the shift is rounded to an even count so hex neighbours
 * stay neighbours. New cells get terrain FILL; combatants that fall off go. */
bool edit_resize(const map_t *m, int cols, int rows, edit_anchor_t anchor, int fill, edit_t *out);
/* Change orientation and stagger keeping content in place (see docs/editor.md):
 * a new orientation reflects the map across its diagonal (cols and rows swap),
 * which keeps every hex's neighbours; a new stagger keeps every hex at its
 * screen position through axial coordinates, dropping the half column (or
 * row) that falls off and filling the gap with FILL. */
bool edit_layout(const map_t *m, hex_layout_t lay, int fill, edit_t *out);
/* Start an empty group; add edits already applied with edit_group_push. */
void edit_group_init(edit_t *out);
/* Move e (applied, so now an inverse) into group g, in front of the older
 * inverses so the group undoes newest first; e is emptied. */
bool edit_group_push(edit_t *g, edit_t *e);

/* ---- helpers for building maps and combatants ---- */

/* A new cols x rows map with the given terrain table, every cell FILL. */
map_t *edit_new_map(int cols, int rows, const terrain_t *types, int n_types, int fill);
/* A combatant of template t (NULL: plain defaults) with id, faction and cell. */
void edit_unit_from_template(const tmpl_t *t, const char *id, const char *faction, cell_t at,
                             map_combatant_t *out);
/* An id based on BASE not yet used on m ("guard", "guard_2"...). */
void edit_unique_id(const map_t *m, const char *base, char out[MAP_ID_MAX]);
/* Make c's name unique among m's other combatants (index self excluded, -1
 * for none): "Ridge Scout", then "Ridge Scout 2", "Ridge Scout 3"... so the
 * initiative tracker and the labels tell them apart. */
void edit_unique_name(const map_t *m, int self, map_combatant_t *c);
/* Set (or with remove, drop) stat override KEY of c; false when full. */
bool edit_stat_put(map_combatant_t *c, const char *key, int value, bool remove);
/* Index of the combatant standing on cell c, or -1. */
int edit_unit_at(const map_t *m, cell_t c);

/* ---- checks before play ---- */

/* Problems that would spoil a battle: combatants on impassable hexes, fewer
 * than two factions, templates db lacks (db may be NULL: skip that check).
 * Writes up to cap lines of text into out; returns how many problems exist. */
int edit_check(const map_t *m, const tmpl_db_t *db, char (*out)[160], int cap);

/* ---- history ---- */

typedef struct {
    edit_t *v;
    int n;   /* edits recorded */
    int pos; /* edits applied: v[0..pos) are inverses, v[pos..n) are redos */
    int cap;
    int saved; /* pos at the last save, -1 when that state is gone */
} edit_history_t;

/* An empty history. */
void edit_history_init(edit_history_t *h);
/* Free every edit in h. */
void edit_history_free(edit_history_t *h);
/* Apply e to m and record it (redos are dropped). e is moved into h and
 * emptied. Returns false, with m unchanged and e freed, when e does not apply. */
bool edit_do(edit_history_t *h, map_t *m, edit_t *e);
/* Record e, already applied to m (so e holds its inverse): for strokes built live. */
bool edit_record(edit_history_t *h, edit_t *e);
/* Undo the last edit; false when there is none. */
bool edit_undo(edit_history_t *h, map_t *m);
/* Redo the next edit; false when there is none. */
bool edit_redo(edit_history_t *h, map_t *m);
/* Does m differ from what was last saved? */
bool edit_history_dirty(const edit_history_t *h);
/* Mark the current state as saved. */
void edit_history_mark_saved(edit_history_t *h);

#endif
