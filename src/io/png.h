/* png.h - the few bytes of a PNG file hexbattle touches itself: the physical
 * size (pHYs chunk) of an already encoded image, so a print render tells a
 * print dialog its resolution; a tEXt chunk that marks a picture hexbattle
 * wrote; and the size an image's header declares, checked before decoding. */
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

/* Add a tEXt chunk KEY=VALUE right after IHDR (*buf may move). False, with
 * *buf unchanged, for a malformed PNG or out of memory. */
bool png_add_text(unsigned char **buf, size_t *len, const char *key, const char *value);
/* Does the PNG hold the tEXt chunk KEY=VALUE? */
bool png_has_text(const unsigned char *buf, size_t len, const char *key, const char *value);

/* The pixel size an image file's header declares, read from its first bytes
 * without decoding anything: PNG, JPEG, GIF and BMP. False for anything else
 * or a header cut short. */
bool image_header_size(const unsigned char *buf, size_t len, unsigned *w, unsigned *h);

#endif
