/* draw_internal.h - private to src/ui's drawer files: draw.c draws the map
 * and its grid; draw_tokens.c the tokens on it; draw_marks.c works out what
 * each token wears (colour, mark, condition markers); still.c keeps the
 * static layer (background, terrain, grid) cached in target textures, shifts
 * it on whole-pixel pans, and draws the grid lines so that no clip changes
 * them. All work on one drawer (struct ui_draw), and each lends the others
 * the functions below. */
#ifndef HB_UI_DRAW_INTERNAL_H
#define HB_UI_DRAW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <SDL.h>

#include "../core/map.h"
#include "camera.h"
#include "draw.h"
#include "fog.h"
#include "lod.h"
#include "shapes.h"
#include "text.h"

#define MAX_TOKEN_IMAGES 64
#define N_BATCH (1 + MAP_MAX_TERRAIN)

typedef shape_buf_t vbuf_t; /* vertices, filled by draw.c with texture coordinates too */

typedef struct {
    char path[MAP_PATH_MAX];
    SDL_Texture *tex; /* NULL when the image could not be loaded */
} token_img_t;

/* Where the static layer puts the world (see "The layer's pixel grid" in draw.c):
 * world point p goes to p * z - f - i, f the fraction of the camera's
 * origin in pixels, i its whole pixels. */
typedef struct {
    double z;      /* the camera's zoom */
    double fx, fy; /* in [0, 1), whole multiples of 1 / ORG_STEPS */
    double ix, iy; /* whole numbers */
} org_t;

/* The static layer: background, terrain and grid as the last frame drew
 * them, and everything they were drawn from, compared in full each frame. */
typedef struct {
    bool off;            /* ui_draw_cache_static(d, false): always draw afresh */
    SDL_atomic_t lost;   /* the renderer dropped its target textures */
    SDL_Texture *tex[2]; /* tex[cur] holds the layer; the other one is the spare
                          * a shifted layer is copied into (NULL: none yet) */
    int cur;
    int tw, th;    /* the textures' size */
    Uint32 format; /* the format asked for them */
    bool valid;    /* tex[cur] holds the layer for the key below */
    ui_camera_t cam;
    org_t org; /* layer_org(&cam) */
    int w, h;
    hex_layout_t layout;
    int cols, rows, n_types;
    terrain_t types[MAP_MAX_TERRAIN];
    uint8_t *cells; /* a copy of the map's cells */
    size_t n_cells, cap_cells;
    int last_hexes; /* d->last_hexes of the cached frame */
    int redraws;    /* times the layer was drawn (ui_draw_static_redraws) */
    int shifts;     /* times it was shifted instead (ui_draw_static_shifts) */
} still_t;

struct ui_draw {
    SDL_Renderer *r;
    ui_text_t *text;
    SDL_Texture *terrain_tex[MAP_MAX_TERRAIN]; /* NULL: plain colour */
    vbuf_t batch[N_BATCH];                     /* 0: plain fills, 1+i: type i textured */
    vbuf_t lines, tokens, overlay;
    int *fan_idx, fan_cap;            /* in hexes */
    int *quad_idx, quad_cap;          /* in quads */
    int *cap_idx, n_cap_idx, cap_cap; /* indices of the plain hexes' end triangles */
    SDL_FRect *zones;                 /* per line of hexes: the strip before it (see zone_rects) */
    int cap_zones;
    SDL_FPoint *pts; /* grid polylines */
    int n_pts, cap_pts;
    SDL_FPoint *dots; /* grid pixels set by grid_poly rather than by SDL's line drawer */
    int n_dots, cap_dots;
    bool soft;        /* the renderer is SDL's software one */
    SDL_FRect *rects; /* grid edges that are axis-aligned */
    int n_rects, cap_rects;
    SDL_FRect *band[MAP_MAX_TERRAIN]; /* flat hexes: the middle band of each, by terrain type */
    int n_band[MAP_MAX_TERRAIN], cap_band[MAP_MAX_TERRAIN];
    token_img_t imgs[MAX_TOKEN_IMAGES];
    int n_imgs;
    int last_hexes;
    ui_lod_t *lod; /* the map seen whole: one cached image (NULL: none) */
    still_t still; /* the static layer of the last frame (see still.c) */
    /* Token marks, worked out again only when the names change. */
    char marks[MAP_MAX_COMBATANTS][UI_MARK_MAX];
    uint64_t marks_sig;
    /* Condition markers, worked out again only when the log grows. */
    char cond[MAP_MAX_COMBATANTS][UI_COND_MARKS][3];
    uint8_t cond_hue[MAP_MAX_COMBATANTS][UI_COND_MARKS];
    int n_cond[MAP_MAX_COMBATANTS];
    const event_log_t *cond_log;
    int cond_log_n;
    uint64_t cond_last;
    /* What the last frame drew of each token (ui_draw_token_drawn). */
    ui_token_drawn_t drawn[MAP_MAX_COMBATANTS];
    int n_drawn;
};

/* Grow a plain array of elem-sized items to hold need of them (ui_grow). */
static inline bool grow(void **p, int *cap, int need, size_t elem)
{
    return ui_grow(p, cap, need, elem, 1024);
}

/* ---- draw.c, for still.c ---- */

/* The camera's origin on the layer's pixel grid. */
org_t layer_org(const ui_camera_t *cam);
/* How many hexes among lo..hi draw_terrain draws in the w x h view. */
int hexes_in_view(const map_t *m, const ui_camera_t *cam, int w, int h, cell_t lo, cell_t hi);
/* Background, terrain and grid of the w x h view, or of `part` of it only
 * (the caller clips to it); d->last_hexes counts the whole view's hexes. */
void draw_static(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h,
                 const SDL_Rect *part);

/* Condition marker colours (Okabe-Ito and two neutrals): text is dark or light to suit. */
static const uint32_t COND_RGB[] = {0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442,
                                    0x0072B2, 0xD55E00, 0xCC79A7, 0xFFFFFF};
#define N_COND_RGB (int)(sizeof COND_RGB / sizeof COND_RGB[0])

/* ---- draw.c, for draw_marks.c and draw_tokens.c ---- */

/* Colour 0xRRGGBB with alpha a. */
SDL_Color draw_rgb(uint32_t c, Uint8 a);
/* Polygon pts[0..n) scaled by `scale` around (cx, cy), as a fan. */
void draw_push_poly(vbuf_t *b, float cx, float cy, const vec2_t *pts, int n, float scale,
                    SDL_Color c);
/* An axis-aligned rectangle as two triangles. */
void draw_push_rect(vbuf_t *b, float x, float y, float w, float h, SDL_Color c);
/* A token's image, loaded once (NULL: none or it failed). */
SDL_Texture *draw_token_image(ui_draw_t *d, const char *rel);

/* ---- draw_marks.c, for draw_tokens.c ---- */

/* Condition markers again when the log grew or changed. */
void draw_refresh_conds(ui_draw_t *d, const map_t *m, const event_log_t *log);
/* Token marks again when the names changed. */
void draw_refresh_marks(ui_draw_t *d, const map_t *m);

/* ---- draw_tokens.c, for draw.c ---- */

/* Tokens, their marks, bars and condition markers. */
void draw_tokens(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h,
                 const ui_token_pose_t *poses, const ui_view_t *view, const event_log_t *log);

/* ---- still.c, for draw.c ---- */

/* The event watch (user: the drawer) that marks the cached layer lost when
 * the renderer drops its target textures. */
int SDLCALL still_watch(void *user, SDL_Event *e);
/* Draw the static layer: copied from the cache, shifted, or drawn afresh. */
void static_layer(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h);
/* Grid polyline p[0..n) of whole-pixel points as SDL draws it unclipped,
 * clipped to `in` (NULL: straight to SDL). */
void grid_poly(ui_draw_t *d, const SDL_FPoint *p, int n, const SDL_Rect *in);
/* The area SDL clips the layer to, in the viewport's coordinates. */
SDL_Rect clip_area(SDL_Renderer *r);

#endif
