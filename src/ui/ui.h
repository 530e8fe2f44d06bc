/* ui.h - the SDL front end: the play window and headless rendering. */
#ifndef HB_UI_H
#define HB_UI_H

#include <stddef.h>

#include "../core/map.h"
#include "../core/tmpl.h"

/* Render MAP to a PNG of w x h pixels at OUT_PNG, without a display (SDL dummy
 * driver, software renderer). Returns 0, or 1 with err filled. */
int ui_render_png(const map_t *m, const tmpl_db_t *db, int w, int h, const char *out_png,
                  char *err, size_t errcap);

/* Open the resizable play window on MAP (loaded from MAP_PATH) and run until it
 * is closed. Returns 0, or 1 with err filled. */
int ui_run_window(map_t *m, const tmpl_db_t *db, const char *map_path, char *err,
                  size_t errcap);

#endif
