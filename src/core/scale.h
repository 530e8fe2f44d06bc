/* scale.h - physical scale: hexes of a chosen size in millimetres on a
 * screen, a projected table or paper.
 *
 * "The size" of a hex is its flat-to-flat width, which is also the distance
 * between the centres of two neighbouring hexes: the figure a ruler laid
 * across a printed hex, or from one miniature's base centre to the next,
 * gives. The camera's zoom is the hex circumradius in pixels, which is that
 * width divided by sqrt(3). See docs/projection.md.
 */
#ifndef HB_SCALE_H
#define HB_SCALE_H

#include <stdbool.h>

#include "map.h"

#define SCALE_MM_PER_INCH 25.4
#define SCALE_DEFAULT_HEX_MM 25.4 /* one inch: the usual miniature base grid */
#define SCALE_CARD_MM 85.6        /* long side of an ID-1 card (credit card) */
#define SCALE_PRINT_MARGIN_MM 5.0 /* blank border around a print-scale image */
#define SCALE_MAX_PX 16384        /* largest image side a render makes */

/* Pixels across one hex (flat to flat, = neighbour spacing) for a hex of
 * hex_mm millimetres on a surface of dpi dots per inch. */
double scale_hex_px(double hex_mm, double dpi);
/* The camera zoom (hex circumradius in pixels) for the same. */
double scale_zoom(double hex_mm, double dpi);
/* Dots per inch of a surface where a bar bar_px pixels long measures known_mm
 * millimetres (0 for a non-positive input). */
double scale_dpi_from_bar(double bar_px, double known_mm);
/* Length in pixels of known_mm millimetres at dpi. */
double scale_mm_to_px(double known_mm, double dpi);
/* Dots per inch of a screen w_px pixels wide whose picture is w_mm wide. */
double scale_dpi_from_width(int w_px, double w_mm);

/* Box around every hex of map m in world units (hex circumradius 1), the
 * same frame the camera uses: x0 <= x1, y0 <= y1. */
void scale_map_extent(const map_t *m, double *x0, double *y0, double *x1, double *y1);

/* How a print-scale image of a whole map is laid out. */
typedef struct {
    int w, h;      /* image size in pixels */
    double zoom;   /* hex circumradius in pixels */
    double x, y;   /* world point at the image's top-left corner */
    int margin_px; /* blank border on each side */
} scale_print_t;

/* Lay out map m at hex_mm per hex and dpi: the image holds the whole map with
 * a SCALE_PRINT_MARGIN_MM border. False when a side would exceed SCALE_MAX_PX
 * or the inputs are not positive. */
bool scale_print_layout(const map_t *m, double hex_mm, double dpi, scale_print_t *out);

#endif
