/* ruler.h - the play window's ruler: distance in feet and hexes between any
 * two hexes, with line of sight and cover between them, as the rules measure
 * them (hex distance, sight_trace on the battle's board as it stands).
 *
 * Ctrl+M turns it on; a click fixes the start hex, the hovered hex is the end
 * until a second click fixes it; a third click starts again; Esc or Ctrl+M
 * turns it off. While it is on, clicks measure and never act on the battle.
 */
#ifndef HB_UI_RULER_H
#define HB_UI_RULER_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/battle.h"

typedef struct {
    bool on;
    bool has_a; /* the start is fixed */
    bool fixed; /* the end is fixed too */
    cell_t a, b;
} ui_ruler_t;

typedef struct {
    int hexes, feet;
    bool visible; /* neither sight line is blocked */
    cover_t cover;
} ui_ruler_measure_t;

/* Turn the ruler on (from scratch) or off. */
void ui_ruler_toggle(ui_ruler_t *r);
/* A click on cell c while the ruler is on. */
void ui_ruler_click(ui_ruler_t *r, cell_t c);
/* The ends to measure now: the start, and the fixed end or the hovered cell
 * (hover_on false: none). False when there is nothing to measure. */
bool ui_ruler_ends(const ui_ruler_t *r, bool hover_on, cell_t hover, cell_t *a, cell_t *b);
/* Measure from a to e on battle b's board; false when either is off the map. */
bool ui_ruler_measure(const battle_t *b, cell_t a, cell_t e, ui_ruler_measure_t *out);
/* "35 ft, 7 hexes; in sight, light cover" (or "sight blocked"). Returns buf. */
const char *ui_ruler_text(const ui_ruler_measure_t *m, char *buf, size_t cap);

#endif
