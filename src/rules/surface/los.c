/* los.c - sight for the surface AI, the terrain of each line traced once.
 *
 * The AI asks about the same lines (a foe's hex to a hex it might stand on)
 * call after call, while only the combatants move. A line's answer has two
 * parts: the terrain along its two nudged walks (blocked, walled, the best
 * cover), which stays true until the terrain changes, and whether a body
 * stands on a hex in between (light cover), which is checked each time, hex
 * by hex of the few occupied ones. The answers are those of core sight.c
 * (sight_trace_walls, sight_trace, sight_clear) exactly: tests/test_surface_los.c
 * compares them pair by pair.
 */
#include <string.h>

#include "surface.h"

/* Bits of a kept entry. */
#define LOS_KEPT 0x1u
#define LOS_BLOCKED 0x2u /* a hex in between blocks sight */
#define LOS_WALLED 0x4u  /* ... and cannot be entered */
#define LOS_COVER_SHIFT 3 /* the best terrain cover, 2 bits */

/* What a line reads of terrain type t: sight, walls, cover. */
static uint8_t type_bits(const terrain_t *t)
{
    return (uint8_t)((t->blocks_sight ? 1u : 0u) | (t->move <= 0 ? 2u : 0u) | (unsigned)t->cover << 2);
}

void sf_los_sync(sf_los_t *los, const battle_t *b)
{
    const map_t *m = b->map;
    int cells = m->cols * m->rows;
    if (cells > SF_LOS_CELLS || m->n_types > MAP_MAX_TERRAIN) return;
    uint8_t bits[MAP_MAX_TERRAIN];
    bool types_same = los->ready && los->n_types == m->n_types;
    for (int t = 0; t < m->n_types; t++) {
        bits[t] = type_bits(&m->types[t]);
        types_same = types_same && los->type_bits[t] == bits[t];
    }
    /* Most calls: the very cells and types of the last one. */
    if (types_same && los->cols == m->cols && los->rows == m->rows &&
        memcmp(&los->layout, &m->layout, sizeof m->layout) == 0 &&
        memcmp(los->cells, m->cells, (size_t)cells) == 0)
        return;
    bool same = los->ready && los->cols == m->cols && los->rows == m->rows &&
                memcmp(&los->layout, &m->layout, sizeof m->layout) == 0;
    for (int k = 0; k < cells; k++) {
        uint8_t c = bits[m->cells[k]];
        same = same && los->terrain[k] == c;
        los->terrain[k] = c;
    }
    memcpy(los->cells, m->cells, (size_t)cells);
    memcpy(los->type_bits, bits, (size_t)m->n_types);
    los->n_types = m->n_types;
    los->cols = m->cols;
    los->rows = m->rows;
    los->layout = m->layout;
    if (same && los->ready) return; /* other cells or types, the same lines */
    memset(los->val, 0, (size_t)cells * (size_t)cells);
    los->ready = true;
}

sf_los_t *sf_los_for(const battle_t *b)
{
    static _Thread_local sf_los_t los;
    if (b->map->cols * b->map->rows > SF_LOS_CELLS) return NULL;
    sf_los_sync(&los, b);
    return &los;
}

/* The terrain of both nudged walks from..to, as the bits above: the core's
 * trace with the bodies left out. */
static unsigned walk_terrain(const board_t *bd, hex_t from, hex_t to)
{
    bool walled;
    sight_t s = sight_trace_terrain(bd, from, to, &walled);
    if (walled) return LOS_BLOCKED | LOS_WALLED;
    if (!s.visible) return LOS_BLOCKED;
    return (unsigned)s.cover << LOS_COVER_SHIFT;
}

/* Does an occupied hex lie strictly between from and to on either walk?
 * The k-th hex of a walk is k hexes from `from` and n - k from `to`, so only
 * bodies at such distances are placed on the walk to compare. */
static bool body_between(const board_t *bd, hex_t from, hex_t to, int n)
{
    bool init = false;
    hex_lerp_t lp, lm;
    for (int i = 0; i < bd->n; i++) {
        hex_t p = bd->pos[i];
        int k = hex_distance(from, p);
        if (k < 1 || k >= n || k + hex_distance(p, to) != n) continue;
        int idx = board_cell_index(bd, p);
        if (idx < 0 || bd->occ[idx] < 0) continue;
        if (!init) {
            lp = hex_lerp_init(from, to, HEX_NUDGE_PLUS, n);
            lm = hex_lerp_init(from, to, HEX_NUDGE_MINUS, n);
            init = true;
        }
        if (hex_eq(hex_lerp_at(&lp, k), p) || hex_eq(hex_lerp_at(&lm, k), p)) return true;
    }
    return false;
}

/* The kept terrain bits of from..to, traced now when not kept; 0 when the
 * line cannot be kept (an end off the map, or a map too large). */
static unsigned terrain_of(sf_los_t *los, const battle_t *b, hex_t from, hex_t to)
{
    const board_t *bd = b->board;
    int cells = b->map->cols * b->map->rows;
    if (cells > SF_LOS_CELLS) return 0;
    int fi = board_cell_index(bd, from), ti = board_cell_index(bd, to);
    if (fi < 0 || ti < 0) return 0;
    /* A line's hexes are the same both ways (sight.h): kept once per pair. */
    uint8_t *v = &los->val[fi < ti ? fi * cells + ti : ti * cells + fi];
    if (!*v) *v = (uint8_t)(walk_terrain(bd, from, to) | LOS_KEPT);
    return *v;
}

sight_t sf_los_trace(sf_los_t *los, const battle_t *b, hex_t from, hex_t to, bool *walled)
{
    int n = hex_distance(from, to);
    unsigned bits = los ? terrain_of(los, b, from, to) : 0;
    if (!bits) {
        bool w;
        sight_t s = sight_trace_walls(b->board, from, to, &w);
        if (walled) *walled = w;
        return s;
    }
    sight_t s = {true, COVER_NONE, n};
    if (walled) *walled = (bits & LOS_WALLED) != 0;
    if (bits & LOS_BLOCKED) {
        s.visible = false;
        s.cover = COVER_TOTAL;
        return s;
    }
    s.cover = (cover_t)(bits >> LOS_COVER_SHIFT & 3u);
    if (s.cover < COVER_LIGHT && body_between(b->board, from, to, n)) s.cover = COVER_LIGHT;
    return s;
}

bool sf_los_clear(sf_los_t *los, const battle_t *b, hex_t from, hex_t to)
{
    unsigned bits = los ? terrain_of(los, b, from, to) : 0;
    if (!bits) return sight_clear(b->board, from, to);
    return !(bits & LOS_BLOCKED);
}

int sf_los_level(sf_los_t *los, const battle_t *b, hex_t from, hex_t to)
{
    unsigned bits = los ? terrain_of(los, b, from, to) : 0;
    if (!bits) {
        bool walled;
        sight_t s = sight_trace_walls(b->board, from, to, &walled);
        if (!s.visible) return walled ? 4 : 3;
        return s.cover == COVER_HEAVY ? 2 : s.cover == COVER_LIGHT ? 1 : 0;
    }
    if (bits & LOS_BLOCKED) return bits & LOS_WALLED ? 4 : 3;
    unsigned cover = bits >> LOS_COVER_SHIFT & 3u;
    if (cover == COVER_HEAVY) return 2;
    if (cover == COVER_LIGHT) return 1;
    return body_between(b->board, from, to, hex_distance(from, to)) ? 1 : 0;
}

void sf_los_terrain_levels(sf_los_t *los, const battle_t *b, hex_t from, int from_cell,
                           const hex_t *to, const int *to_cell, int n, int8_t *out)
{
    const board_t *bd = b->board;
    int cells = b->map->cols * b->map->rows;
    int fi = los && cells <= SF_LOS_CELLS ? from_cell : -1;
    for (int k = 0; k < n; k++) {
        int ti = fi < 0 ? -1 : to_cell[k];
        if (ti < 0) {
            out[k] = -1;
            continue;
        }
        uint8_t *v = &los->val[fi < ti ? fi * cells + ti : ti * cells + fi];
        if (!*v) *v = (uint8_t)(walk_terrain(bd, from, to[k]) | LOS_KEPT);
        unsigned bits = *v, cover = bits >> LOS_COVER_SHIFT & 3u;
        out[k] = (int8_t)(bits & LOS_BLOCKED     ? (bits & LOS_WALLED ? 4 : 3)
                          : cover == COVER_HEAVY ? 2
                          : cover == COVER_LIGHT ? 1
                                                 : 0);
    }
}
