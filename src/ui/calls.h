/* calls.h - the referee's calls in the play window (F3).
 *
 * A small list, over the map, of the calls the ruleset leaves to the referee
 * about the selected combatant (ruleset_t.calls: a save on a risky action, a
 * mark on an attack, telegraphing the NPCs' likely moves...). A digit makes
 * the call: a command given like any other, so undo, saves and replays keep
 * it. Esc or F3 closes the list.
 */
#ifndef HB_UI_CALLS_H
#define HB_UI_CALLS_H

#include <SDL.h>
#include <stdbool.h>

#include "draw.h"
#include "play_ui.h"

#define UI_CALLS_MAX 9 /* one per digit key */

typedef struct {
    bool open;
    int who;            /* the combatant the calls are about */
    int n;
    ref_call_t item[UI_CALLS_MAX];
} ui_calls_t;

/* Open the list for the selected combatant (else the one acting), or close
 * it; p->msg says why when there is nothing to call. */
void ui_calls_toggle(ui_calls_t *c, pui_t *p);
/* While the list is open, key k: a digit makes that call, Esc or F3 closes;
 * true when the key was used. F3 with the list closed opens it. */
bool ui_calls_key(ui_calls_t *c, pui_t *p, SDL_Keycode k);
/* Draw the open list in the top right corner of `map` (px: text size). */
void ui_calls_draw(const ui_calls_t *c, const pui_t *p, ui_draw_t *d, SDL_Rect map, int px,
                   int line);

#endif
