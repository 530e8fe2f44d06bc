/* map.h - the battle map model: grid, terrain types, terrain cells, combatants.
 *
 * Pure data with no I/O; src/io/map_io.c fills and writes it. Terrain cells
 * hold an index into the map's terrain type table (built-ins merged with the
 * map's own types). Combatants keep both their resolved values (what the
 * geometry and rules use) and a record of which fields the file gave, so a
 * save writes back what the author wrote and nothing the template supplied.
 */
#ifndef HB_MAP_H
#define HB_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "art.h"
#include "hex.h"

#define MAP_NAME_MAX 96
#define MAP_ID_MAX 32
#define MAP_PATH_MAX 256
#define MAP_MAX_TERRAIN 64   /* terrain types in one map, built-ins included */
#define MAP_MAX_LEGEND 64    /* legend characters in one map */
#define MAP_MAX_DIM 1024     /* cols and rows are each 1..MAP_MAX_DIM */
#define MAP_MAX_COMBATANTS 512
#define MAP_MAX_FACTIONS 16
#define MAP_MAX_STATS 24     /* explicit per-combatant stat overrides */
#define MAP_MAX_WEAPONS 12   /* weapons one combatant or template carries */

typedef enum { COVER_NONE = 0, COVER_LIGHT, COVER_HEAVY, COVER_TOTAL } cover_t;

/* How deep a liquid terrain is (RULINGS, xhalem: water): not at all or
 * wading (the built-in water), a partial immersion, or deep enough to fight
 * underwater. */
typedef enum { DEPTH_NONE = 0, DEPTH_PARTIAL, DEPTH_DEEP } depth_t;

typedef struct {
    char name[MAP_ID_MAX];
    int move;             /* movement multiple: 1, 2, or 0 for impassable */
    cover_t cover;
    bool blocks_sight;
    uint32_t color;       /* 0xRRGGBB */
    char texture[MAP_PATH_MAX]; /* optional image path, "" when none */
    char opens_to[MAP_ID_MAX];  /* a door-like type: what it becomes when opened, "" if none */
    depth_t depth;        /* "depth": "partial" or "deep"; DEPTH_NONE when not given */
    bool builtin;         /* came from data/terrain.json */
    bool in_map;          /* defined or overridden by the map's terrain_types */
} terrain_t;

typedef enum { KIND_CREATURE = 0, KIND_MACHINE = 1 } ckind_t;

/* One enum for every size either kind may have; map_size_valid says which
 * sizes a kind allows. */
typedef enum {
    SIZE_TINY = 0,
    SIZE_SMALL,
    SIZE_MEDIUM,
    SIZE_LARGE,
    SIZE_EXTRA_LARGE,
    SIZE_GIANT,
    SIZE_BEHEMOTH,
    SIZE_GARGANTUAN,
    SIZE_COUNT
} csize_t;

/* Bits of map_combatant_t.given: fields the map file set explicitly. */
enum {
    GIVEN_NAME = 1u << 0,
    GIVEN_KIND = 1u << 1,
    GIVEN_SIZE = 1u << 2,
    GIVEN_SPEED = 1u << 3,
    GIVEN_HP = 1u << 4,
    GIVEN_REACH = 1u << 5,
    GIVEN_TOKEN = 1u << 6,
    GIVEN_WEAPONS = 1u << 7,
    GIVEN_FLY = 1u << 8,
};

typedef struct {
    char key[MAP_ID_MAX];
    int value;
} stat_kv_t;

typedef struct {
    char id[MAP_ID_MAX];
    char name[MAP_NAME_MAX];
    char faction[MAP_ID_MAX];
    char template_name[MAP_ID_MAX]; /* "" when none */
    cell_t at;
    ckind_t kind;
    csize_t size;
    int speed_ft;      /* walking speed in feet */
    int fly_ft;        /* flying speed in feet, 0 when it cannot fly */
    int hp, hp_max;
    int reach_ft;      /* melee reach in feet; 0 means the ruleset's default */
    char token[MAP_PATH_MAX]; /* optional token image, "" when none */
    char weapons[MAP_MAX_WEAPONS][MAP_ID_MAX];
    int n_weapons;
    stat_kv_t stats[MAP_MAX_STATS]; /* explicit overrides only (see header comment) */
    int n_stats;
    unsigned given;    /* GIVEN_* bits */
} map_combatant_t;

#define FACTION_MAX_VALUES 8 /* side-level scores one faction may carry */
#define MAP_MAX_OPTIONS 8    /* rule options one map may set */
#define FACTION_MORALE_MAX 12 /* morale is read against 2d6 */

typedef struct {
    char name[MAP_ID_MAX];
    bool player;       /* player-controlled, else Architect/referee-controlled */
    /* Side-level scores the map gives ("morale": 9...), by name; written in
     * the object form of the map's factions (docs/map-format.md). */
    stat_kv_t values[FACTION_MAX_VALUES];
    int n_values;
} faction_t;

typedef struct {
    int version;
    char name[MAP_NAME_MAX];
    char ruleset[MAP_ID_MAX];
    hex_layout_t layout;
    int cols, rows;
    int feet_per_hex;

    terrain_t types[MAP_MAX_TERRAIN];
    int n_types;

    char legend_ch[MAP_MAX_LEGEND];
    uint8_t legend_type[MAP_MAX_LEGEND]; /* index into types */
    int n_legend;

    uint8_t *cells; /* cols*rows type indices, row-major: cells[row*cols+col] */

    map_combatant_t *combatants;
    int n_combatants;

    faction_t factions[MAP_MAX_FACTIONS];
    int n_factions;
    bool factions_given; /* the file had a "factions" object */

    /* Rule options of the battle on this map ("options": {"group_initiative":
     * true}), by name; booleans are 1 / 0 with their bit set in options_bool. */
    stat_kv_t options[MAP_MAX_OPTIONS];
    int n_options;
    unsigned options_bool;

    /* The map's own pictures (tileset tiles, a battle-map picture), art.h;
     * NULL when it has none. */
    map_art_t *art;
} map_t;

/* Allocate a map of cols x rows filled with type 0; NULL on bad size or OOM. */
map_t *map_create(int cols, int rows);
/* Free a map made by map_create (NULL is fine). */
void map_destroy(map_t *m);
/* Deep copy; NULL on OOM. */
map_t *map_clone(const map_t *m);

/* Is (col,row) on the map? */
static inline bool map_in_bounds(const map_t *m, cell_t c)
{
    return c.col >= 0 && c.row >= 0 && c.col < m->cols && c.row < m->rows;
}
/* Row-major index of an in-bounds cell. */
static inline int map_index(const map_t *m, cell_t c) { return c.row * m->cols + c.col; }
static inline cell_t map_cell_of(const map_t *m, int idx)
{
    return (cell_t){idx % m->cols, idx / m->cols};
}
/* Terrain type at an in-bounds cell. */
static inline const terrain_t *map_terrain_at(const map_t *m, cell_t c)
{
    return &m->types[m->cells[map_index(m, c)]];
}
/* Index of terrain type NAME, or -1. */
int map_find_type(const map_t *m, const char *name);
/* Index of combatant ID, or -1. */
int map_find_combatant(const map_t *m, const char *id);
/* Is FACTION player-controlled (default: only "players" is)? */
bool map_faction_is_player(const map_t *m, const char *faction);
/* Rule option KEY of the map into *out (a boolean as 1 / 0); false when not set. */
bool map_option(const map_t *m, const char *key, int *out);
/* Set (or, remove, take out) option KEY; is_bool writes it as true/false.
 * False when the table is full. */
bool map_option_set(map_t *m, const char *key, int value, bool is_bool, bool remove);
/* Side-level score KEY ("morale") the map gives FACTION; false when it gives none. */
bool map_faction_value(const map_t *m, const char *faction, const char *key, int *out);
/* Does the kind allow this size (creatures tiny..behemoth, machines small, medium,
 * large, gargantuan)? */
bool map_size_valid(ckind_t kind, csize_t size);
/* Size name as in files ("extra_large"), and back (-1 when unknown). */
const char *map_size_name(csize_t size);
int map_size_parse(const char *name);
const char *map_kind_name(ckind_t kind);
const char *map_cover_name(cover_t cover);
int map_cover_parse(const char *name);
/* Depth name as in files ("partial", "deep"; "none"), and back (-1 when unknown). */
const char *map_depth_name(depth_t depth);
int map_depth_parse(const char *name);

/* The value of stat KEY from the combatant's explicit overrides; false if absent. */
bool map_combatant_stat(const map_combatant_t *c, const char *key, int *out);

/* Copy src into dst (size cap) always NUL-terminating; returns false if truncated. */
bool hb_strlcpy(char *dst, const char *src, unsigned cap);

#endif
