/* odds_panel.h - the odds panel of the play window (O; docs/odds.md).
 *
 * Who is likely to win from the battle as it stands: the rest of it played
 * many times with the AI on every side, on worker threads (src/io/odds_pool.h)
 * so the frame never waits. The panel shows the runs counted so far and
 * refines as more come in; every command starts the count afresh from the
 * new state. With a move or an attack chosen on the screen (not yet given),
 * it also shows "what if": the runs played again from the same dice with
 * that command first, and how the acting side's win share moves.
 *
 * The panel belongs to the referee's window only: it reads the battle and
 * draws into the play window's HUD; the projector never sees it.
 */
#ifndef HB_UI_ODDS_PANEL_H
#define HB_UI_ODDS_PANEL_H

#include <stdbool.h>

#include <SDL.h>

#include "../io/odds_pool.h"
#include "draw.h"
#include "play_ui.h"

#define UI_ODDS_RUNS 1000   /* runs of the battle as it stands */
#define UI_ODDS_WHATIF 400  /* paired runs of a "what if" */
#define UI_ODDS_SEED 1      /* the same seed for every state: the same state, the same answer */

typedef struct {
    bool open;
    odds_pool_t *pool;   /* made when first opened */
    int threads;         /* its workers: one core is left for the frame */
    bool failed;         /* the pool could not be made */
    /* What the jobs were started from. */
    bool have_base;
    uint64_t base_sig;
    bool have_alt;
    cmd_t alt;
    uint64_t alt_sig;
    char alt_label[96];
    /* The last reading. */
    odds_progress_t base, what_if;
    uint64_t shown_sig;  /* of what is drawn: a change asks for a redraw */
} ui_odds_t;

/* A closed panel with no threads. */
void ui_odds_init(ui_odds_t *o);
/* Stop the runs and the threads (a zeroed or initialised panel is fine). */
void ui_odds_free(ui_odds_t *o);
/* O toggles the panel (without Ctrl, Alt or GUI); true when the key was used. */
bool ui_odds_key(ui_odds_t *o, pui_t *p, SDL_Keycode k, Uint16 mod);
/* Once a frame: start the runs afresh when the battle or the chosen command
 * changed, and read how far they are. True when the panel should be drawn
 * again. Never waits for a run. */
bool ui_odds_frame(ui_odds_t *o, pui_t *p);
/* Are runs still being counted (the window should wake up to show them)? */
bool ui_odds_busy(const ui_odds_t *o);
/* Draw the open panel in a corner of `map` (px: text size): the lower
 * right, unless it covers any of the boxes avoid[0..n_avoid) (the tokens
 * and names drawn) and another corner covers fewer of them. Returns where
 * it was drawn (w 0: closed). */
SDL_Rect ui_odds_draw(const ui_odds_t *o, const pui_t *p, ui_draw_t *d, SDL_Rect map, int px,
                      int line, const SDL_Rect *avoid, int n_avoid);

#endif
