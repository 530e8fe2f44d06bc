/* camera.h - world <-> screen mapping, zoom and map picking for the front end.
 *
 * World units are hex circumradii: a cell's centre in world space is
 * hex_to_pixel(orient, 1.0, hex_from_cell(layout, cell)). The camera maps a
 * world point w to the screen point (w - origin) * zoom, so zoom is the hex
 * radius in screen pixels. Plain data; no SDL here so tests stay simple.
 */
#ifndef HB_UI_CAMERA_H
#define HB_UI_CAMERA_H

#include <stdbool.h>

#include "../core/hex.h"
#include "../core/map.h"

#define UI_ZOOM_MIN 1.0   /* a hex narrower than this is noise */
#define UI_ZOOM_MAX 400.0 /* beyond this one hex fills a large screen */
#define UI_ZOOM_FLOOR 0.5 /* a window zooms out no further than half the size that fits the map */

typedef struct {
    double x, y; /* world point at the screen's top-left corner */
    double zoom; /* screen pixels per world unit (the hex radius in pixels) */
} ui_camera_t;

typedef struct {
    double x0, y0, x1, y1; /* axis-aligned box, x0 <= x1 and y0 <= y1 */
} ui_rect_t;

/* Screen point of world point w. */
vec2_t ui_cam_to_screen(const ui_camera_t *c, vec2_t w);
/* World point under screen point s. */
vec2_t ui_cam_to_world(const ui_camera_t *c, vec2_t s);
/* Multiply the zoom by factor (clamped to the limits) keeping the world point
 * under screen point s where it was. */
void ui_cam_zoom_at(ui_camera_t *c, vec2_t s, double factor);
/* Move the view by (dx, dy) screen pixels (positive dx shows what lies right). */
void ui_cam_pan(ui_camera_t *c, double dx, double dy);
/* Centre world box b in a w x h view, leaving margin pixels on every side. */
void ui_cam_fit(ui_camera_t *c, ui_rect_t b, int w, int h, double margin);
/* Keep c on a map of bounds b seen in the screen area (ax, ay, aw, ah): the
 * zoom no smaller than floor_frac of the zoom that fits the whole map in the
 * area, and the area's middle over the map, so the map can neither shrink to
 * a speck nor be panned off the screen (issue 34, item 11). */
void ui_cam_clamp(ui_camera_t *c, ui_rect_t b, double ax, double ay, double aw, double ah,
                  double floor_frac);
/* The camera a w x h picture of map m uses: the whole map, a small margin. */
ui_camera_t ui_cam_for_image(const map_t *m, int w, int h);

/* World centre of a cell of map m. */
vec2_t ui_cell_center(const map_t *m, cell_t cell);
/* World box around every hex of map m (corners included). */
ui_rect_t ui_map_bounds(const map_t *m);
/* Cell whose hex contains world point w; false when it is off the map (the
 * cell is still written so callers can name it). */
bool ui_pick_cell(const map_t *m, vec2_t w, cell_t *out);
/* Range of cells whose hexes may touch world box b, clamped to the map.
 * Returns false when none can. */
bool ui_visible_cells(const map_t *m, ui_rect_t b, cell_t *lo, cell_t *hi);

#endif
