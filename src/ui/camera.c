/* camera.c - world <-> screen mapping and picking (see camera.h). */
#include "camera.h"

#include <math.h>

#define SQRT3 1.7320508075688772

vec2_t ui_cam_to_screen(const ui_camera_t *c, vec2_t w)
{
    return (vec2_t){(w.x - c->x) * c->zoom, (w.y - c->y) * c->zoom};
}

vec2_t ui_cam_to_world(const ui_camera_t *c, vec2_t s)
{
    return (vec2_t){c->x + s.x / c->zoom, c->y + s.y / c->zoom};
}

void ui_cam_zoom_at(ui_camera_t *c, vec2_t s, double factor)
{
    vec2_t anchor = ui_cam_to_world(c, s);
    double z = c->zoom * factor;
    if (z < UI_ZOOM_MIN) z = UI_ZOOM_MIN;
    if (z > UI_ZOOM_MAX) z = UI_ZOOM_MAX;
    c->zoom = z;
    /* Solve (anchor - origin) * zoom == s for the new origin. */
    c->x = anchor.x - s.x / z;
    c->y = anchor.y - s.y / z;
}

void ui_cam_pan(ui_camera_t *c, double dx, double dy)
{
    c->x += dx / c->zoom;
    c->y += dy / c->zoom;
}

void ui_cam_fit(ui_camera_t *c, ui_rect_t b, int w, int h, double margin)
{
    double aw = w - 2.0 * margin, ah = h - 2.0 * margin;
    if (aw < 1.0) aw = 1.0;
    if (ah < 1.0) ah = 1.0;
    double bw = b.x1 - b.x0, bh = b.y1 - b.y0;
    double zx = bw > 0 ? aw / bw : UI_ZOOM_MAX, zy = bh > 0 ? ah / bh : UI_ZOOM_MAX;
    double z = zx < zy ? zx : zy;
    if (z < UI_ZOOM_MIN) z = UI_ZOOM_MIN;
    if (z > UI_ZOOM_MAX) z = UI_ZOOM_MAX;
    c->zoom = z;
    c->x = (b.x0 + b.x1) / 2.0 - w / (2.0 * z);
    c->y = (b.y0 + b.y1) / 2.0 - h / (2.0 * z);
}

ui_camera_t ui_cam_for_image(const map_t *m, int w, int h)
{
    ui_camera_t c = {0, 0, 1.0};
    double margin = fmax(6.0, fmin(w, h) * 0.025);
    ui_cam_fit(&c, ui_map_bounds(m), w, h, margin);
    return c;
}

void ui_cam_clamp(ui_camera_t *c, ui_rect_t b, double ax, double ay, double aw, double ah,
                  double floor_frac)
{
    double bw = b.x1 - b.x0, bh = b.y1 - b.y0;
    if (bw <= 0 || bh <= 0 || aw <= 0 || ah <= 0) return;
    vec2_t mid = {ax + aw / 2.0, ay + ah / 2.0};
    /* The floor: the whole map at floor_frac of the size that fits it. */
    double fit = fmin(aw / bw, ah / bh), least = fmax(UI_ZOOM_MIN, fit * floor_frac);
    if (c->zoom < least) ui_cam_zoom_at(c, mid, least / c->zoom);
    /* The limit: the middle of the area stays over the map. */
    vec2_t w = ui_cam_to_world(c, mid);
    c->x += fmin(fmax(w.x, b.x0), b.x1) - w.x;
    c->y += fmin(fmax(w.y, b.y0), b.y1) - w.y;
}

vec2_t ui_cell_center(const map_t *m, cell_t cell)
{
    return hex_to_pixel(m->layout.orient, 1.0, hex_from_cell(m->layout, cell));
}

ui_rect_t ui_map_bounds(const map_t *m)
{
    /* Only the outermost two rows and columns can hold an extreme hex: the
     * stagger moves a line of hexes by half a step at most. */
    ui_rect_t b = {1e300, 1e300, -1e300, -1e300};
    for (int row = 0; row < m->rows; row++) {
        int step = (row < 2 || row >= m->rows - 2) ? 1 : (m->cols > 4 ? m->cols - 4 : 1);
        for (int col = 0; col < m->cols; col++) {
            if (step > 1 && col == 2) col = m->cols - 2;
            vec2_t p = ui_cell_center(m, (cell_t){col, row});
            if (p.x < b.x0) b.x0 = p.x;
            if (p.y < b.y0) b.y0 = p.y;
            if (p.x > b.x1) b.x1 = p.x;
            if (p.y > b.y1) b.y1 = p.y;
        }
    }
    /* Pointy hexes reach 1 up/down and sqrt3/2 sideways; flat ones the reverse. */
    double hx = m->layout.orient == HEX_POINTY ? SQRT3 / 2.0 : 1.0;
    double hy = m->layout.orient == HEX_POINTY ? 1.0 : SQRT3 / 2.0;
    b.x0 -= hx;
    b.x1 += hx;
    b.y0 -= hy;
    b.y1 += hy;
    return b;
}

bool ui_pick_cell(const map_t *m, vec2_t w, cell_t *out)
{
    hex_t h = hex_from_pixel(m->layout.orient, 1.0, w);
    *out = hex_to_cell(m->layout, h);
    return map_in_bounds(m, *out);
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

bool ui_visible_cells(const map_t *m, ui_rect_t b, cell_t *lo, cell_t *hi)
{
    /* Centres sit on a grid of (sqrt3, 1.5) for pointy or (1.5, sqrt3) for flat,
     * give or take half a step of stagger; one extra line each side covers it. */
    double sx = m->layout.orient == HEX_POINTY ? SQRT3 : 1.5;
    double sy = m->layout.orient == HEX_POINTY ? 1.5 : SQRT3;
    double c0 = floor((b.x0 - 1.0) / sx) - 1, c1 = ceil((b.x1 + 1.0) / sx) + 1;
    double r0 = floor((b.y0 - 1.0) / sy) - 1, r1 = ceil((b.y1 + 1.0) / sy) + 1;
    if (c1 < 0 || r1 < 0 || c0 > m->cols - 1 || r0 > m->rows - 1) return false;
    lo->col = clampi((int)fmax(c0, -1.0), 0, m->cols - 1);
    lo->row = clampi((int)fmax(r0, -1.0), 0, m->rows - 1);
    hi->col = clampi((int)fmin(c1, (double)m->cols), 0, m->cols - 1);
    hi->row = clampi((int)fmin(r1, (double)m->rows), 0, m->rows - 1);
    return true;
}
