/* token_menu.h - the menu a right-click on a token opens in the play window:
 * the actions the screen offers for that token now, with the action bar's
 * own labels and keys (play_ui.h pui_token_actions).
 *
 * For the combatant whose turn it is, its whole bar; for anyone else, the
 * targeted actions legal against it (choosing one shows its odds, Enter
 * confirms). A row is chosen by a click or by its key; Esc, a click outside
 * or anything that changes the battle closes the menu.
 */
#ifndef HB_UI_TOKEN_MENU_H
#define HB_UI_TOKEN_MENU_H

#include <stdbool.h>

#include <SDL.h>

#include "draw.h"
#include "play_ui.h"

typedef struct {
    bool open;
    int who;               /* the token's combatant */
    int n;                 /* rows of actions */
    int item[PUI_MAX_BAR]; /* the bar entry of each row */
    int hot;               /* row under the cursor, -1 none */
    SDL_Rect box;          /* the whole menu, header row included */
    int row_h, px;
    int log_n, n_bar; /* the battle and bar it was opened on */
    char why[128];    /* no rows: why not (pui_no_actions_why) */
} ui_token_menu_t;

/* Open the menu for combatant who beside its token's box tok, inside area,
 * where it covers the fewest of the other tokens' boxes tokens[0..n_tokens)
 * (right of the token first, then left, under, over); px is the text size. */
void ui_token_menu_open(ui_token_menu_t *m, const pui_t *p, int who, SDL_Rect tok,
                        const SDL_Rect *tokens, int n_tokens, int px, SDL_Rect area);
/* Close it (a closed menu stays closed). */
void ui_token_menu_close(ui_token_menu_t *m);
/* Screen rectangle of action row k (below the header). */
SDL_Rect ui_token_menu_row(const ui_token_menu_t *m, int k);
/* An input event while the menu is open (x, y: the event's point in drawable
 * pixels for mouse events). True when the menu used it; a key the menu does
 * not know closes it and is left to the screen. */
bool ui_token_menu_event(ui_token_menu_t *m, pui_t *p, const SDL_Event *e, int x, int y);
/* Draw the open menu. */
void ui_token_menu_draw(const ui_token_menu_t *m, const pui_t *p, ui_draw_t *d);

#endif
