/* tiled_internal.h - private to src/io's Tiled files (tiled_*.c).
 *
 * Both of Tiled's formats are read into one shape: the JSON one (.tmj/.tsj).
 * tiled_xml.c turns a .tmx/.tsx into that shape with expat; tiled_read.c reads
 * the shape into a hexbattle map; tiled_write.c builds the shape from a map
 * and prints it as JSON or as XML. */
#ifndef HB_TILED_INTERNAL_H
#define HB_TILED_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "io_json.h"
#include "tiled.h"

#define TILED_FILE_MAX HB_FILE_MAX

/* Parse a Tiled XML document (root <map> or <tileset>) into the JSON shape;
 * HB_OK with *out owned by the caller, or HB_ERR_INPUT naming the line. */
int tiled_xml_parse(io_ctx_t *cx, const char *text, size_t len, cJSON **out);

/* The hex pixel layout Tiled uses for a staggered hexagonal map. */
typedef struct {
    bool stagger_x;    /* staggeraxis x (flat-topped hexes), else y (pointy) */
    bool stagger_even; /* staggerindex even */
    double tw, th;     /* tilewidth, tileheight */
    double side;       /* hexsidelength */
} tiled_geo_t;

/* The centre of cell (col, row) in Tiled's pixels. */
void tiled_cell_center(const tiled_geo_t *g, int col, int row, double *x, double *y);
/* The cell whose centre is nearest to pixel (x, y), clamped to none: false
 * when the nearest centre is off a cols x rows map. */
bool tiled_pixel_cell(const tiled_geo_t *g, int cols, int rows, double x, double y, int *col,
                      int *row);

/* The tileset hexbattle writes: tile k shows terrain types[k]. */
typedef struct {
    const terrain_t *types[MAP_MAX_TERRAIN + MAP_MAX_LEGEND];
    int n;
    int tw, th;  /* the map's tile size */
    double side; /* hexsidelength */
    bool flat;   /* flat-topped hexes (staggeraxis x) */
} tiled_tiles_t;

/* The tiles side by side, each a hex painted as hexbattle draws its terrain
 * (tiled_tiles.c), as PNG bytes (malloc'd, *len long); NULL on OOM. */
unsigned char *tiled_tiles_png(const tiled_tiles_t *ts, size_t *len);

#endif
