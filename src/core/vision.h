/* vision.h - what a group of sides can see: fog of war for the player view.
 *
 * A vision keeps two bitsets over the map's cells. "visible" is rebuilt by
 * every update: a cell is visible when some present combatant of the viewing
 * sides has clear sight (sight_clear) from its hex to the cell. "seen" is the
 * memory: every cell ever visible since the vision was made or cleared. The
 * player view draws visible cells plainly, seen ones dimmed, the rest dark.
 * Sides are board side indices (board_t.side) given as a bit mask. Each
 * viewer's sight is worked out by fov_cells (fov.h), which agrees with
 * sight_clear cell for cell and looks only at what the viewer can see.
 */
#ifndef HB_VISION_H
#define HB_VISION_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "fov.h"

typedef struct {
    int cols, rows;
    int ncells;
    uint64_t *visible; /* bit per cell, row-major like map_t.cells */
    uint64_t *seen;    /* bit per cell: visible at some update */
    int n_words;
    fov_scratch_t fov; /* room for the field-of-view walk */
} vision_t;

/* What the player view shows of one cell. */
typedef enum { VIS_UNSEEN = 0, VIS_REMEMBERED = 1, VIS_VISIBLE = 2 } vis_state_t;

/* A vision sized for map m with nothing seen; NULL on OOM. */
vision_t *vision_create(const map_t *m);
/* Free a vision (NULL is fine). */
void vision_destroy(vision_t *v);
/* Forget everything, the memory included. */
void vision_clear(vision_t *v);
/* Recompute the visible cells from board b for the sides in mask (bit s =
 * board side s) and add them to the memory. The viewers' own hexes count as
 * visible. Allocates nothing. */
void vision_update(vision_t *v, const board_t *b, unsigned sides);
/* State of cell c (off the map: unseen). */
vis_state_t vision_state(const vision_t *v, cell_t c);
/* Is cell c visible now? */
bool vision_visible(const vision_t *v, cell_t c);
/* Mask of the board sides whose faction is player-controlled on b's map. */
unsigned vision_player_sides(const board_t *b);
/* Mask of the board side named FACTION, or 0 when no combatant has it. */
unsigned vision_side_mask(const board_t *b, const char *faction);
/* May the viewing sides see combatant i by position: it is present and either
 * on a viewing side or on a visible cell. (Stealth is the ruleset's business.) */
bool vision_sees_combatant(const vision_t *v, const board_t *b, unsigned sides, int i);
/* Visible cells now (for tests and status lines). */
int vision_count_visible(const vision_t *v);

#endif
