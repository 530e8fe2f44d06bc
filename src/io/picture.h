/* picture.h - safe picture files: where a map's pictures may lie, and an
 * image's size read from its header before anything decodes it.
 *
 * A map names pictures (Tiled tileset pictures, image layers, a map file's
 * `background`) by paths relative to its folder. They must stay inside that
 * folder or hexbattle's assets/ folder, name regular files, and be PNG or
 * JPEG pictures of at most HB_PICTURE_MAX_SIDE pixels a side and
 * HB_PICTURE_MAX_BYTES bytes: hb_picture_check says so from the file's
 * first bytes, so a picture claiming to be huge is never handed to a decoder.
 */
#ifndef HB_PICTURE_H
#define HB_PICTURE_H

#include <stdbool.h>
#include <stddef.h>

#define HB_PICTURE_MAX_BYTES (64u * 1024u * 1024u)
#define HB_PICTURE_MAX_SIDE 8192

/* REL (relative to folder BASE, itself relative to the map's folder; ""
 * for the map's folder) as one path relative to the map's folder, with "."
 * and ".." worked out, into out. False when REL is absolute or empty, or
 * climbs out of the map's folder. */
bool hb_picture_rel(const char *base, const char *rel, char *out, size_t cap);

/* hb_picture_rel, or else a path that leaves the map's folder (MAP_DIR)
 * for a file inside hexbattle's assets folder, kept as it is. */
bool hb_picture_allowed(const char *map_dir, const char *base, const char *rel, char *out,
                        size_t cap);

/* The folder of the file at PATH ("" when PATH has none) into out. */
void hb_dir_of(const char *path, char *out, size_t cap);

/* The picture REL of the map whose folder is MAP_DIR, as a path to open,
 * into out: HB_OK when the file is a regular file inside MAP_DIR or inside
 * hexbattle's assets folder (links followed), else HB_ERR_INPUT with the
 * reason in err. */
int hb_picture_path(const char *map_dir, const char *rel, char *out, size_t cap, char *err,
                    size_t errcap);

/* The size a PNG or JPEG's header gives, from its bytes b[0..n) (NAME names
 * it in messages): HB_OK within the limits above, else HB_ERR_INPUT. */
int hb_picture_size(const char *name, const unsigned char *b, size_t n, int *w, int *h, char *err,
                    size_t errcap);
/* All of the picture file at PATH, checked as hb_picture_check does, into
 * *out (malloc'd, *len bytes): decode these very bytes. */
int hb_picture_read(const char *path, unsigned char **out, size_t *len, int *w, int *h, char *err,
                    size_t errcap);
/* Check the image file at PATH before decoding it: a regular file of at
 * most HB_PICTURE_MAX_BYTES, a PNG or JPEG whose header gives a size of 1
 * to HB_PICTURE_MAX_SIDE pixels a side. HB_OK with *w, *h (either may be
 * NULL) set, else HB_ERR_INPUT with "PATH: reason" in err. */
int hb_picture_check(const char *path, int *w, int *h, char *err, size_t errcap);

#endif
