/* ui.h - the SDL front end: the play window and headless rendering. */
#ifndef HB_UI_H
#define HB_UI_H

#include <stddef.h>

#include "../core/args.h"
#include "../core/map.h"
#include "../core/tmpl.h"
#include "../io/save.h"

#define UI_MAX_OVERLAYS 16

/* What `hexbattle render` asks for beyond the plain map. */
typedef struct {
    int w, h;                       /* image size in pixels */
    overlay_spec_t overlays[UI_MAX_OVERLAYS];
    int n_overlays;
    const char *view_faction;       /* draw only what this faction may see; NULL = referee */
    double hex_mm;                  /* > 0: print scale, each hex this many mm across... */
    int dpi;                        /* ...at this many dots per inch */
} ui_render_opts_t;

/* Render MAP to a PNG of w x h pixels at OUT_PNG, without a display (SDL dummy
 * driver, software renderer). Returns 0, or 1 with err filled. */
int ui_render_png(const map_t *m, const tmpl_db_t *db, int w, int h, const char *out_png,
                  char *err, size_t errcap);

/* The same with overlays, a faction's view or a print scale. Returns 0, 2
 * when the options name something the map lacks (err says what), or 1. */
int ui_render_png_opts(const map_t *m, const tmpl_db_t *db, const ui_render_opts_t *opts,
                       const char *out_png, char *err, size_t errcap);

/* Encode surf as a PNG in memory (with a pHYs chunk of DPI dots per inch
 * when dpi > 0) and write it to PATH through hb_write_atomic. 0, or 1 with
 * "PATH: cannot write: REASON" in err; PATH is then as it was. */
struct SDL_Surface;
int ui_png_write(struct SDL_Surface *surf, const char *path, int dpi, char *err, size_t errcap);

/* Open the resizable play window on MAP (loaded from MAP_PATH) and run until it
 * is closed. Returns 0, or 1 with err filled. */
int ui_run_window(map_t *m, const tmpl_db_t *db, const char *map_path, char *err,
                  size_t errcap);

/* The same for an editor's play-test: the picker offers only saves, so the
 * window always returns to the editor. When Windows ends the session before
 * the window's loop came round (src/ui/stop.h), keep_edits(ctx) keeps the
 * editor's unsaved edits too (may be NULL). */
int ui_run_playtest(map_t *m, const tmpl_db_t *db, const char *map_path,
                    void (*keep_edits)(void *ctx), void *ctx, char *err, size_t errcap);

/* The editor on map m (borrowed, with db; edits change it) loaded from PATH,
 * or with m NULL on a new blank map, with play-tests (F5) in between, until
 * the referee quits. SDL video stays up for the whole session, so every
 * window opens on the same video driver. When the editor window cannot be
 * opened again after a play-test, err says so and where the unsaved map's
 * recovery copy went. Returns 0, or 1 with err filled. */
int ui_run_edit(map_t *m, const tmpl_db_t *db, const char *path, char *err, size_t errcap);

/* Open the play window on saved battle s (loaded from SAVE_PATH): resume it
 * (Ctrl+S saves back to SAVE_PATH) or, with replay, play its commands back.
 * Returns 0, or 1 with err filled. */
int ui_run_saved(const save_t *s, const char *save_path, bool replay, char *err, size_t errcap);

#endif
