/* session.h - one play window from opening to closing: the battle, its
 * panels, overlays, the saved-battles menu and the projector, with the three
 * faces of a loop (open, one event, one frame, close).
 *
 * The window's own loop (ui_run_window and friends) is open + (wait for an
 * event, ui_session_event, ui_session_frame) + close; tests drive the same
 * functions with synthetic events under SDL's dummy video driver, so what
 * they exercise is what the referee runs. The caller starts SDL video and
 * SDL_ttf (ui_video_open).
 */
#ifndef HB_UI_SESSION_H
#define HB_UI_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <SDL.h>

#include "../io/save.h"
#include "hud.h"
#include "menu.h"
#include "overlay.h"
#include "play_ui.h"
#include "projector.h"
#include "share_panel.h"
#include "window.h"

/* What a session opens on. The caller holds SDL video (ui_video_open). */
typedef struct {
    const map_t *map;      /* the map (borrowed for the session's life) */
    const tmpl_db_t *db;   /* its data (borrowed) */
    const char *map_path;  /* where the map came from (may be NULL): saves go beside it */
    const save_t *save;    /* a saved battle to resume or replay instead (may be NULL) */
    const char *save_path; /* its file, where Ctrl+S writes */
    bool replay;           /* play the save back rather than resume it */
    bool project;          /* open the projector at once */
    bool allow_maps;       /* the picker (Ctrl+O) offers maps and "New map" too, not
                            * only saves (false in an editor's play-test) */
    uint64_t seed;         /* the dice seed of a new battle */
    int w, h;              /* window size in points (0: 1280 x 800 within the display) */
    /* Windows' end of session (ui_stop_watch): what the caller also keeps
     * there and then besides the battle (an editor's unsaved edits under
     * its play-test), or NULL. */
    void (*also_keep)(void *ctx);
    void *also_ctx;
} ui_session_args_t;

/* What the referee chose to open from the picker, for the caller to run
 * once the window has closed: a saved battle, a map with its data, or a
 * blank map in the editor. */
typedef struct {
    save_t *save;
    map_t *map;
    tmpl_db_t *db;
    bool new_map;
    char path[SAVE_PATH_MAX];
} ui_next_t;

/* Free what a pick holds and empty it. */
void ui_next_free(ui_next_t *n);
/* Does it hold a pick? */
static inline bool ui_next_any(const ui_next_t *n)
{
    return n->save || n->map || n->new_map;
}

typedef struct {
    SDL_Window *win;
    SDL_Renderer *ren;
    ui_draw_t *d;
    pui_t *play;
    hud_t hud;
    ui_overlay_t *overlay;
    ui_projector_t proj;
    ui_share_t share; /* the battle shared with the players' devices (Ctrl+L) */
    smenu_t menu;
    ui_state_t st;
    int dw, dh;       /* drawable size */
    double ratio;     /* drawable pixels per window point */
    bool animating;   /* the last frame had something moving */
    bool opened;      /* open succeeded: close has something to free */
    bool allow_maps;  /* as in the args */
    void (*also_keep)(void *ctx); /* as in the args */
    void *also_ctx;
    /* What the referee picked from the picker (the caller's to run and free
     * with ui_next_free); the session quits so the caller can reopen. */
    ui_next_t next;
} ui_session_t;

/* Open the play window on a: the window, the battle (new, resumed or
 * replayed), panels and overlays, and the projector when asked. False with
 * err filled (and nothing left open) when anything fails. */
bool ui_session_open(ui_session_t *s, const ui_session_args_t *a, char *err, size_t errcap);
/* Give one input event to the menu, then the projector, then the window. */
void ui_session_event(ui_session_t *s, const SDL_Event *e);
/* One step of dt seconds: resize, animation and AI, autosave, then draw the
 * window (when anything changed) and the projector. */
void ui_session_frame(ui_session_t *s, double dt);
/* Has the referee closed the window (or picked a battle from the menu)? */
static inline bool ui_session_done(const ui_session_t *s)
{
    return s->st.quit;
}
/* Close the window and free everything but s->next (a zeroed or failed
 * session is fine). */
void ui_session_close(ui_session_t *s);

#endif
