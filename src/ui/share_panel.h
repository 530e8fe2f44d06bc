/* share_panel.h - sharing the battle from the play window (docs/sharing.md).
 *
 * Ctrl+L starts the players' server (src/share) on the local network and
 * shows its join address with a QR code in a corner of the play window;
 * Ctrl+L again stops it and closes every page's connection. Commands from
 * the pages go through the laptop's own command path (pui_give), so Ctrl+Z
 * takes them back like any other. Ctrl+A switches between commands that
 * apply at once and commands that wait for the referee: then the panel
 * names the waiting command, Enter applies it and Esc refuses it. Ctrl+J
 * gives the selected player-side combatant to the next open page ("Page
 * N"), then the next, then frees it; Ctrl+Shift+J frees it. The server is
 * pumped once a frame, never waiting.
 */
#ifndef HB_UI_SHARE_PANEL_H
#define HB_UI_SHARE_PANEL_H

#include <stdbool.h>

#include <SDL.h>

#include "../share/share.h"
#include "draw.h"
#include "play_ui.h"

typedef struct {
    share_t *srv;     /* NULL: not sharing */
    pui_t *play;      /* the battle's screen (borrowed while sharing) */
    bool approve;     /* page commands wait for Enter */
    bool pending;     /* a page command waits */
    cmd_t pending_cmd;
    char pending_what[120];
    long taken_seen;  /* share_taken at the last frame */
    int pages_seen;
    char url[SHARE_URL_MAX];
    SDL_Texture *qr;  /* the address as a QR code, one pixel per module */
    int qr_w;         /* its width in modules, quiet zone included */
    char msg[200];    /* for the status line ("" none) */
} ui_share_t;

/* Is the battle being shared? */
static inline bool ui_share_on(const ui_share_t *u)
{
    return u->srv != NULL;
}
/* Start sharing play's battle (its address and QR code made for renderer r),
 * or stop; msg says what happened. */
void ui_share_toggle(ui_share_t *u, pui_t *play, SDL_Renderer *r);
/* The play window's keys for sharing: Ctrl+L, Ctrl+A, Ctrl+J, and Enter / Esc while
 * a page's command waits. True when e was used. */
bool ui_share_event(ui_share_t *u, const SDL_Event *e, pui_t *play, SDL_Renderer *r);
/* Serve for this frame: pages' requests answered, the battle's changes sent.
 * True when something the window shows changed. */
bool ui_share_frame(ui_share_t *u);
/* The panel (QR code, address, pages, the approval setting, a waiting
 * command) in the bottom-right corner of the map area. */
void ui_share_draw(const ui_share_t *u, ui_draw_t *d, SDL_Rect area, double px_per_pt);
/* Stop sharing and free everything (a zeroed one is fine). */
void ui_share_free(ui_share_t *u);

#endif
