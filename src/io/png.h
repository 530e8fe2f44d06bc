/* png.h - the few bytes of a PNG file hexbattle touches itself: the physical
 * size (pHYs chunk) of an already encoded image, so a print render tells a
 * print dialog its resolution. */
#ifndef HB_PNG_H
#define HB_PNG_H

#include <stdbool.h>
#include <stddef.h>

/* Pixels per metre for DPI pixels per inch, rounded (300 -> 11811). */
unsigned png_dpi_to_ppm(int dpi);

/* Give the PNG in *buf (*len bytes, malloc'd) a pHYs chunk of ppm pixels per
 * metre on both axes, replacing any it had; it goes right after IHDR, as the
 * format asks (before the image data). *buf may move. False, with *buf
 * unchanged, when the bytes are not a well-formed PNG or memory runs out. */
bool png_set_phys(unsigned char **buf, size_t *len, unsigned ppm);

/* Read the pHYs chunk of a PNG: pixels per unit on x and y and the unit
 * (1 = metre, 0 = unknown). False when there is none or the file is bad. */
bool png_get_phys(const unsigned char *buf, size_t len, unsigned *x, unsigned *y, int *unit);

#endif
