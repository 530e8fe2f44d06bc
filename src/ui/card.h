/* card.h - the combatant card of the play window: who it is, HP, defences
 * (the ruleset's stats, losses shown against the start), speed and the
 * movement left this turn, the weapons with the one in hand, conditions.
 *
 * The card is built as lines of text from the battle as it stands (so a test
 * reads what the referee reads) and drawn in the side panel, never over the
 * map. The play window shows it for the token under the cursor, else for the
 * selected combatant.
 */
#ifndef HB_UI_CARD_H
#define HB_UI_CARD_H

#include <stdbool.h>

#include <SDL.h>

#include "draw.h"
#include "play_ui.h"

#define UI_CARD_LINES 24
#define UI_CARD_TEXT 104 /* shorter than the text cache's key */

typedef enum {
    UI_CARD_TITLE = 0, /* the name */
    UI_CARD_BODY,
    UI_CARD_DIM,       /* side notes: the faction, a weapon not in hand */
    UI_CARD_HELD,      /* the weapon in hand */
    UI_CARD_COND,      /* conditions */
} ui_card_style_t;

typedef struct {
    int who; /* -1: no card */
    int n;
    char line[UI_CARD_LINES][UI_CARD_TEXT];
    ui_card_style_t style[UI_CARD_LINES];
} ui_card_t;

/* The card of combatant who in p's battle; false (c->who -1) when who is not
 * a combatant. */
bool ui_card_build(const pui_t *p, int who, ui_card_t *c);
/* Draw card c at (x, y), w pixels wide, body text px high; lines wider than w
 * wrap at spaces. Returns the height used (0 for no card). */
int ui_card_draw(ui_draw_t *d, const ui_card_t *c, int x, int y, int w, int px);

#endif
