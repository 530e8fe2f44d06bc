/* lod.h - a big map seen whole: when a hex is a few pixels across, grid
 * lines, textures and hex outlines cannot be seen, and drawing each hex as
 * triangles costs the software renderer a frame per quarter of a million
 * hexes. Instead the terrain (and the player view's fog) is one small image
 * of a couple of pixels per hex, made again only when the terrain (or the
 * fog) changes, and each frame scales it onto the screen in one copy. */
#ifndef HB_UI_LOD_H
#define HB_UI_LOD_H

#include <stdbool.h>

#include <SDL.h>

#include "../core/map.h"
#include "../core/vision.h"
#include "camera.h"

/* Below this zoom (pixels from a hex's centre to a corner) the map is drawn
 * from the cached image. */
#define UI_LOD_ZOOM 4.0

typedef struct ui_lod ui_lod_t;

/* An empty cache (NULL on OOM: the caller draws hex by hex). */
ui_lod_t *ui_lod_create(void);
/* Free the cache and its textures (NULL is fine). */
void ui_lod_destroy(ui_lod_t *l);
/* Draw map m's terrain through cam on r from the cached image, making it
 * first when the map or its terrain changed. False (nothing drawn) when the
 * image cannot be made. */
bool ui_lod_terrain(ui_lod_t *l, SDL_Renderer *r, const map_t *m, const ui_camera_t *cam);
/* Draw the fog of vision vis the same way (unseen hexes dark, remembered
 * ones dimmed), blended over the terrain. False when it cannot. */
bool ui_lod_fog(ui_lod_t *l, SDL_Renderer *r, const map_t *m, const ui_camera_t *cam,
                const vision_t *vis);

#endif
