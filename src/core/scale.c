/* scale.c - calibration and print-scale arithmetic (see scale.h). */
#include "scale.h"

#include <math.h>

#define SQRT3 1.7320508075688772

double scale_hex_px(double hex_mm, double dpi)
{
    if (!(hex_mm > 0.0) || !(dpi > 0.0)) return 0.0;
    return hex_mm / SCALE_MM_PER_INCH * dpi;
}

double scale_zoom(double hex_mm, double dpi)
{
    /* Neighbour spacing is sqrt(3) circumradii in both orientations. */
    return scale_hex_px(hex_mm, dpi) / SQRT3;
}

double scale_dpi_from_bar(double bar_px, double known_mm)
{
    if (!(bar_px > 0.0) || !(known_mm > 0.0)) return 0.0;
    return bar_px * SCALE_MM_PER_INCH / known_mm;
}

double scale_mm_to_px(double known_mm, double dpi)
{
    return known_mm / SCALE_MM_PER_INCH * dpi;
}

double scale_dpi_from_width(int w_px, double w_mm)
{
    if (w_px <= 0 || !(w_mm > 0.0)) return 0.0;
    return w_px * SCALE_MM_PER_INCH / w_mm;
}

void scale_map_extent(const map_t *m, double *x0, double *y0, double *x1, double *y1)
{
    double lx = 1e300, ly = 1e300, hx = -1e300, hy = -1e300;
    /* The stagger shifts a line of hexes by at most half a step, so only the
     * first and last two rows and columns can hold an extreme centre. */
    for (int row = 0; row < m->rows; row++) {
        bool edge_row = row < 2 || row >= m->rows - 2;
        for (int col = 0; col < m->cols; col++) {
            if (!edge_row && col >= 2 && col < m->cols - 2) {
                col = m->cols - 3; /* the loop steps on to cols - 2 */
                continue;
            }
            vec2_t c =
                hex_to_pixel(m->layout.orient, 1.0, hex_from_cell(m->layout, (cell_t){col, row}));
            lx = c.x < lx ? c.x : lx;
            hx = c.x > hx ? c.x : hx;
            ly = c.y < ly ? c.y : ly;
            hy = c.y > hy ? c.y : hy;
        }
    }
    /* Pointy hexes reach sqrt(3)/2 sideways and 1 up and down; flat ones the reverse. */
    double ex = m->layout.orient == HEX_POINTY ? SQRT3 / 2.0 : 1.0;
    double ey = m->layout.orient == HEX_POINTY ? 1.0 : SQRT3 / 2.0;
    *x0 = lx - ex;
    *x1 = hx + ex;
    *y0 = ly - ey;
    *y1 = hy + ey;
}

bool scale_print_layout(const map_t *m, double hex_mm, double dpi, scale_print_t *out)
{
    double z = scale_zoom(hex_mm, dpi);
    if (!(z > 0.0)) return false;
    double x0, y0, x1, y1;
    scale_map_extent(m, &x0, &y0, &x1, &y1);
    int margin = (int)lround(scale_mm_to_px(SCALE_PRINT_MARGIN_MM, dpi));
    /* A whisker below ceil so that an exact 300.0000000001 stays 300. */
    double w = ceil((x1 - x0) * z - 1e-6) + 2.0 * margin;
    double h = ceil((y1 - y0) * z - 1e-6) + 2.0 * margin;
    if (w > SCALE_MAX_PX || h > SCALE_MAX_PX) return false;
    out->w = (int)w;
    out->h = (int)h;
    out->zoom = z;
    out->margin_px = margin;
    out->x = x0 - margin / z;
    out->y = y0 - margin / z;
    return true;
}
