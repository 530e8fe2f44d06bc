/* window.h - the play window's state and its event handler.
 *
 * The handler is a plain function of (state, event) with no SDL calls of its
 * own, so tests drive it with synthetic events and check the camera, the
 * hovered cell and the status line without opening a window.
 */
#ifndef HB_UI_WINDOW_H
#define HB_UI_WINDOW_H

#include <stdbool.h>
#include <stddef.h>

#include <SDL.h>

#include "../core/map.h"
#include "camera.h"
#include "draw.h"

#define UI_ZOOM_STEP 1.25  /* one +/- key press */
#define UI_WHEEL_STEP 1.15 /* one wheel notch */
#define UI_PAN_STEP 80.0   /* one arrow key press, in window points */

typedef struct {
    const map_t *map;
    ui_camera_t cam;
    ui_rect_t bounds;        /* the map in world units, for fitting */
    int view_w, view_h;      /* drawable size in pixels */
    double px_per_pt;        /* drawable pixels per window point (high-DPI) */
    double mouse_x, mouse_y; /* cursor in drawable pixels */
    bool mouse_in;           /* the cursor is over the window */
    cell_t hover;            /* cell under the cursor (may be off the map) */
    bool hover_on_map;
    int drag_button; /* 0, or the button panning the view */
    bool quit;
    bool resized; /* the loop must re-read the drawable size */
    bool dirty;   /* the frame must be redrawn */
    SDL_Rect area;    /* free map area between the panels (w 0: the whole view) */
    struct hud *hud;  /* the play screen's panels, or NULL for a plain viewer */
    bool ask_quit;          /* Q with moves unsaved: the quit question is shown */
    bool toggle_fullscreen; /* F11 was pressed: the loop toggles the window */
    unsigned overlay_on;         /* bit k: overlay kind k shown (F5..F10, overlay.h) */
    struct ui_overlay *overlay;  /* the set they are built in, or NULL for none */
} ui_state_t;

/* Fresh state for map m in a view_w x view_h drawable, with the map fitted. */
void ui_state_init(ui_state_t *s, const map_t *m, int view_w, int view_h);
/* Take a new drawable size and points-to-pixels ratio: the panels (when a HUD
 * is attached) are laid out again and the map area follows; a fitted map is
 * fitted again, else the middle of the map area keeps its spot and the map is
 * pulled back into view if it would fall outside. */
void ui_state_resize(ui_state_t *s, int view_w, int view_h, double px_per_pt);
/* Fit the whole map in the view. */
void ui_state_fit(ui_state_t *s);
/* The zoom's floor and the pan's limit (issue 34, item 11), applied after
 * every pan and zoom of the window: never smaller than UI_ZOOM_FLOOR of the
 * size that fits the whole map in the map area, and the middle of the map
 * area always over the map, so it cannot be panned off the screen. */
void ui_state_clamp(ui_state_t *s);
/* Apply one input event; returns true when the frame must be redrawn. */
bool ui_handle_event(ui_state_t *s, const SDL_Event *e);
/* The status line for the hovered cell: where, terrain, cover, movement cost,
 * occupant; or that the cursor is off the map. */
void ui_status_text(const ui_state_t *s, char *buf, size_t cap);
/* The one quit question of every window with unsaved work, the same keys in
 * each: S saves and quits, D discards the changes and quits, Esc keeps
 * working. No other key answers it: Y and N mean nothing here, so no
 * letter throws work away in one window and keeps it in another. */
typedef enum { UI_QUIT_NONE = 0, UI_QUIT_SAVE, UI_QUIT_DISCARD, UI_QUIT_STAY } ui_quit_t;
#define UI_QUIT_KEYS "S: save and quit    D: discard changes and quit    Esc: keep working"
/* The answer key k gives to the quit question (UI_QUIT_NONE: it gives none). */
ui_quit_t ui_quit_choice(SDL_Keycode k);
/* Q or the window's close button: quit, or with moves unsaved, ask first. */
void ui_close_asked(ui_state_t *s);
/* Draw the quit question (title, then UI_QUIT_KEYS) over a w x h view. */
void ui_draw_quit_question(ui_draw_t *d, int w, int h, double px_per_pt, const char *title,
                           const char *keys);
/* Draw one window frame (map, hover, status line) without presenting. */
void ui_window_draw(ui_draw_t *d, const ui_state_t *s);

/* F11 in any window: fullscreen on the window's display, or back. Returns
 * whether the window is fullscreen afterwards. */
bool ui_toggle_fullscreen(SDL_Window *w);
/* A window size that fits the usable area usable (w or h 0: unknown): the
 * wanted size, shrunk to 90 % of that area where it is larger. */
void ui_fit_window_size(SDL_Rect usable, int want_w, int want_h, int *w, int *h);
/* The same for display index display, as SDL reports it. */
void ui_window_size_for(int display, int want_w, int want_h, int *w, int *h);

/* Start SDL video and SDL_ttf, or take one more hold on them when they run:
 * a window that closes (ui_video_close) leaves them running while a hold
 * remains, so the editor and its play-tests share one video driver. False
 * with err filled when SDL cannot start. */
bool ui_video_open(char *err, size_t errcap);
/* Let go of one hold; the last one shuts SDL down. */
void ui_video_close(void);

/* Folder of the bundled maps (the data folder's sibling maps/). */
void ui_bundled_maps_dir(char *out, size_t cap);

#endif
