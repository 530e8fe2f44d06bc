/* art.h - a map's own pictures: the tiles of a Tiled map's tilesets, cell by
 * cell, and a battle-map picture under the grid (docs/tiled.md,
 * docs/map-format.md "Background").
 *
 * Pure data: src/io fills it from a Tiled map or a map file's `background`,
 * src/ui draws it (art.c). A map without pictures has no art (map_t.art is
 * NULL). Picture paths are relative to the map's folder, `dir`.
 */
#ifndef HB_ART_H
#define HB_ART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hex.h"

#define ART_MAX_SETS 64      /* tilesets with pictures */
#define ART_MAX_IMAGES 1024  /* tiles of image-collection tilesets, all sets together */
#define ART_PATH_MAX 256
#define ART_DIR_MAX 1024
#define ART_WARN_MAX 256
#define ART_GID_MASK 0x0fffffffu /* the top bits flip and turn a tile */

/* One tileset: a single picture cut into tiles (columns > 0), or a
 * collection of pictures, one per tile (imgs[first_img .. first_img + n_img)). */
typedef struct {
    uint32_t firstgid;
    int tilecount;
    int columns;              /* single picture: tiles per row; 0: a collection */
    int tw, th;               /* a tile's size in the picture */
    int margin, spacing;      /* pixels around the tiles and between them */
    int offx, offy;           /* Tiled's tileoffset */
    char image[ART_PATH_MAX]; /* single picture, relative to the map's folder */
    int first_img, n_img;
    char source[ART_PATH_MAX]; /* an external tileset's file, relative to the map's folder;
                                * "" when the map holds the tileset */
} art_set_t;

/* A terrain chosen for a tile in the editor (its palette), to be written as
 * the tile's `terrain` property where Tiled keeps it. */
#define ART_MAX_CHOICES 128
typedef struct {
    uint32_t gid;
    char terrain[32];
} art_choice_t;

/* One tile of a collection. */
typedef struct {
    int id; /* its id in its tileset */
    char image[ART_PATH_MAX];
} art_img_t;

typedef struct {
    char dir[ART_DIR_MAX]; /* the map's folder ("" the current one) */
    int cols, rows;        /* the grid the gids were read for: a reshaped */
    hex_layout_t layout;   /* map no longer shows its tiles */
    /* Tiled's pixel layout of the tiles: tile size and hexsidelength. */
    double tw, th, side;
    uint32_t *gids; /* cols * rows Tiled gids (0: no tile), NULL: no tiles */
    art_set_t sets[ART_MAX_SETS];
    int n_sets;
    art_img_t *imgs; /* ART_MAX_IMAGES of them when any set is a collection */
    int n_imgs;
    /* The battle-map picture: the centre of hex (0, 0) lies on its pixel
     * (bg_ox, bg_oy), and neighbouring hexes' centres lie bg_sx pixels
     * apart across it and bg_sy down it (one scale unless Tiled's tiles
     * are not regular hexes). */
    char bg[ART_PATH_MAX]; /* "" none */
    double bg_ox, bg_oy, bg_sx, bg_sy;
    bool bg_tiled;            /* it came from a Tiled image layer */
    char warn[ART_WARN_MAX]; /* one line for the user ("" none) */
    art_choice_t choices[ART_MAX_CHOICES]; /* terrains chosen for tiles, not yet saved */
    int n_choices;
} map_art_t;

/* A new, empty art record; NULL on OOM. */
map_art_t *art_create(void);
void art_destroy(map_art_t *a);
/* Deep copy for a map of n cells; NULL on OOM. */
map_art_t *art_clone(const map_art_t *a, size_t n);
/* The tileset gid belongs to, or NULL (gid without its flip bits). */
const art_set_t *art_set_of(const map_art_t *a, uint32_t gid);
/* The picture of gid's tile (relative to dir) and, for a single picture,
 * the tile's rectangle in it; NULL when the gid has none. */
const char *art_tile_image(const map_art_t *a, uint32_t gid, int *x, int *y, int *w, int *h);
/* Does the map have anything to draw? */
bool art_any(const map_art_t *a);

/* Tiled's pixel layout of art a, as a per-axis map to hexbattle's world
 * (hex radius 1): world = k * tiled + o, so that every cell's centre in
 * Tiled's pixels lands on the centre of the same hex. */
typedef struct {
    double kx, ky, ox, oy;
} art_xform_t;
art_xform_t art_xform(const map_art_t *a, hex_layout_t layout);
/* The Tiled pixel centre of cell c, for art a's tile size. */
vec2_t art_tiled_center(const map_art_t *a, hex_layout_t layout, int col, int row);

/* The battle-map picture's pixel at world point w (hex radius 1). */
vec2_t art_bg_pixel(const map_art_t *a, hex_layout_t layout, vec2_t w);
/* The world point of the picture's pixel q. */
vec2_t art_bg_world(const map_art_t *a, hex_layout_t layout, vec2_t q);
/* Lay the grid on the hexes printed on the picture: its pixels q1 and q2
 * are the centres of two hexes n apart along a line of hexes, q1 that of
 * cell c1. Sets the picture's offset and one scale for both axes; false
 * (nothing changed) when q1 and q2 coincide or n < 1. */
bool art_align(map_art_t *a, hex_layout_t layout, cell_t c1, vec2_t q1, vec2_t q2, int n);

#endif
