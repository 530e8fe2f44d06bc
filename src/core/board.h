/* board.h - where combatants stand: positions, occupancy and sides.
 *
 * A board reads a map (terrain) and owns the moving parts: each combatant's
 * hex, whether it is on the board, and an occupancy grid for O(1) lookups.
 * The geometry (path.h, sight.h, geom.h) reads boards; battles own one.
 */
#ifndef HB_BOARD_H
#define HB_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "map.h"

typedef struct {
    const map_t *map;
    int n;            /* combatants, same order as map->combatants */
    hex_t *pos;       /* axial position of each combatant */
    bool *present;    /* still on the board (not defeated or removed) */
    int *side;        /* faction index into map->factions-like table below */
    int16_t *occ;     /* per cell: combatant index, or -1 */
    int n_sides;
    char side_name[MAP_MAX_FACTIONS][MAP_ID_MAX];
} board_t;

/* Build a board from the map's combatants; NULL on OOM. */
board_t *board_create(const map_t *m);
/* Free a board (NULL is fine). */
void board_destroy(board_t *b);
/* Cell index of h, or -1 when h is off the map. Inline: sight, paths and
 * the AIs ask it millions of times a second. */
static inline int board_cell_index(const board_t *b, hex_t h)
{
    cell_t c = hex_to_cell(b->map->layout, h);
    return map_in_bounds(b->map, c) ? map_index(b->map, c) : -1;
}
/* Hex of cell index idx. */
hex_t board_hex_of(const board_t *b, int idx);
/* Combatant standing on h, or -1 (also -1 off the map). */
static inline int board_occupant(const board_t *b, hex_t h)
{
    int idx = board_cell_index(b, h);
    return idx < 0 ? -1 : b->occ[idx];
}
/* Move combatant i to h (no rules checks; keeps occupancy in step). */
void board_place(board_t *b, int i, hex_t h);
/* A trial placement: what board_try changed, for board_untry to put back. */
typedef struct {
    int who;
    hex_t pos;          /* where it stood */
    int from, from_occ; /* its cell and who held it (a rider's is its mount's) */
    int to, to_occ;     /* the trial cell and who held it */
} board_trial_t;
/* Stand i on h for a look (the AI weighing a hex, an overlay); board_untry
 * restores the board exactly, whoever held either cell (a rider shares its
 * mount's hex without holding it, which board_place would not keep). */
board_trial_t board_try(board_t *b, int i, hex_t h);
void board_untry(board_t *b, const board_trial_t *t);
/* Take combatant i off the board (defeated, fled). */
void board_remove(board_t *b, int i);
/* Same side? */
static inline bool board_allies(const board_t *b, int i, int j) { return b->side[i] == b->side[j]; }
/* Combatant index of ID, or -1. */
int board_find(const board_t *b, const char *id);

#endif
