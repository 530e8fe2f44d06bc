/* sight.h - line of sight and cover between hex centres (RULINGS: geometry). */
#ifndef HB_SIGHT_H
#define HB_SIGHT_H

#include "board.h"

typedef struct {
    bool visible;   /* neither nudged line is blocked */
    cover_t cover;  /* best cover between the endpoints over both lines; total if blocked */
    int hexes;      /* hex distance from one end to the other */
} sight_t;

/* Sight from hex a to hex b on board b (combatants on hexes strictly between
 * give at least light cover). Endpoints never block; off-map hexes count for
 * nothing. b may be used with no combatants. The same both ways (a to b is b
 * to a: tests/test_sight.c), which the AIs rely on to trace a line once. */
sight_t sight_trace(const board_t *b, hex_t from, hex_t to);
/* sight_trace, and *walled: does either nudged line cross a hex whose
 * terrain blocks sight and cannot be entered (a wall or a shut door, not
 * smoke or foliage)? One walk of each line for both answers. */
sight_t sight_trace_walls(const board_t *b, hex_t from, hex_t to, bool *walled);
/* sight_trace_walls of the terrain alone: combatants in between are left
 * out, so the answer holds until the terrain changes (for callers that keep
 * a line's terrain and check the bodies themselves). */
sight_t sight_trace_terrain(const board_t *b, hex_t from, hex_t to, bool *walled);
/* Only whether sight is blocked (cheaper; ignores cover from combatants). */
bool sight_clear(const board_t *b, hex_t from, hex_t to);

#endif
