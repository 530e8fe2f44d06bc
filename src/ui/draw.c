/* draw.c - map, grid and token drawing shared by the window and the PNG render
 * (see draw.h).
 *
 * Textured hexes go into one SDL_RenderGeometry call per texture. Plain hexes
 * are cut for the software renderer, which fills rectangles at memset speed
 * but pays a fixed price for every triangle: a middle band per hex (one
 * rectangle fill call per colour), a strip of the commonest colour between
 * lines of hexes, and one geometry call for the end triangles the strips do
 * not cover. Corners are rounded to shared lattice points so the pieces meet
 * without seams. Grid edges, tokens and HP bars are a few calls more. Vertex,
 * index and rectangle arrays live in the drawer and only grow, so a steady
 * frame allocates nothing. still.c caches the static layer (background,
 * terrain, grid) drawn here and shifts it on pans; draw_internal.h holds
 * what the two files share.
 */
#include "draw.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL_image.h>

#include "../core/condlog.h"
#include "../core/say.h"
#include "../io/fileio.h"
#include "../io/map_io.h"
#include "../io/png.h"
#include "draw_internal.h"
#include "fog.h"
#include "lod.h"
#include "shapes.h"

#define TEX_PERIOD 4.0      /* world units one texture tile spans */
#define TEX_MIN_ZOOM 14.0   /* below this a texture's detail is invisible: plain fills */
#define LINE_GRID_ZOOM 24.0 /* below this the grid is 1-px lines, above it bands */
#define FAN_IDX 12          /* a hex is a fan of 4 triangles over its 6 corners */
#define QUAD_IDX 6

const char *ui_assets_dir(void)
{
    return hb_assets_dir();
}

/* ---- small helpers ------------------------------------------------------ */

/* Index arrays repeat one pattern per shape, so they are filled once as they grow. */
static bool grow_idx(int **idx, int *cap, int need, int per, int verts, const int *pattern)
{
    if (need <= *cap) return true;
    int c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    int *p = realloc(*idx, sizeof *p * (size_t)c * (size_t)per);
    if (!p) return false;
    for (int k = *cap; k < c; k++)
        for (int j = 0; j < per; j++)
            p[k * per + j] = k * verts + pattern[j];
    *idx = p;
    *cap = c;
    return true;
}

SDL_Color draw_rgb(uint32_t c, Uint8 a)
{
    return (SDL_Color){(Uint8)(c >> 16), (Uint8)(c >> 8), (Uint8)c, a};
}

static void push(vbuf_t *b, float x, float y, SDL_Color c, float u, float v)
{
    b->v[b->n++] = (SDL_Vertex){{x, y}, c, {u, v}};
}

/* A band of width wd along a..b, as a quad for the shared quad indices. */
static void push_segment(vbuf_t *b, vec2_t a, vec2_t e, float wd, SDL_Color c)
{
    double dx = e.x - a.x, dy = e.y - a.y, len = sqrt(dx * dx + dy * dy);
    if (len <= 0.0) len = 1.0;
    float nx = (float)(-dy / len * wd / 2.0), ny = (float)(dx / len * wd / 2.0);
    push(b, (float)a.x + nx, (float)a.y + ny, c, 0, 0);
    push(b, (float)a.x - nx, (float)a.y - ny, c, 0, 0);
    push(b, (float)e.x + nx, (float)e.y + ny, c, 0, 0);
    push(b, (float)e.x - nx, (float)e.y - ny, c, 0, 0);
}

/* Plain triangles (no indices) for a filled polygon of n points around (cx, cy). */
void draw_push_poly(vbuf_t *b, float cx, float cy, const vec2_t *pts, int n, float scale,
                    SDL_Color c)
{
    if (!shape_reserve(b, n * 3)) return;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        push(b, cx, cy, c, 0, 0);
        push(b, cx + (float)(pts[i].x * scale), cy + (float)(pts[i].y * scale), c, 0, 0);
        push(b, cx + (float)(pts[j].x * scale), cy + (float)(pts[j].y * scale), c, 0, 0);
    }
}

void draw_push_rect(vbuf_t *b, float x, float y, float w, float h, SDL_Color c)
{
    if (!shape_reserve(b, 6)) return;
    push(b, x, y, c, 0, 0);
    push(b, x + w, y, c, 0, 0);
    push(b, x, y + h, c, 0, 0);
    push(b, x + w, y, c, 0, 0);
    push(b, x + w, y + h, c, 0, 0);
    push(b, x, y + h, c, 0, 0);
}

/* ---- textures ----------------------------------------------------------- */

/* The image REL under assets/, decoded only when it is a regular file of at
 * most HB_FILE_MAX bytes whose header declares at most UI_IMAGE_MAX pixels a
 * side: a FIFO would block, and a small PNG claiming 12000x12000 would cost
 * gigabytes to decode. A refused image is said once on stderr; the map is
 * drawn without it. */
static SDL_Surface *load_image(const char *rel)
{
    char path[4096], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/%s", ui_assets_dir(), rel);
    char *bytes = NULL;
    size_t len = 0;
    if (hb_read_file(path, HB_FILE_MAX, &bytes, &len, err, sizeof err) != HB_OK) {
        hb_eprintf("hexbattle: %s; drawn without it\n", err);
        return NULL;
    }
    unsigned w = 0, h = 0;
    SDL_Surface *img = NULL;
    if (!image_header_size((const unsigned char *)bytes, len, &w, &h))
        hb_eprintf("hexbattle: %s: not a PNG, JPEG, GIF or BMP image; drawn without it\n", path);
    else if (w == 0 || h == 0 || w > UI_IMAGE_MAX || h > UI_IMAGE_MAX)
        hb_eprintf("hexbattle: %s: %ux%u pixels, over the %dx%d limit; drawn without it\n", path, w,
                   h, UI_IMAGE_MAX, UI_IMAGE_MAX);
    else if (!(img = IMG_Load_RW(SDL_RWFromConstMem(bytes, (int)len), 1)))
        hb_eprintf("hexbattle: %s: %s; drawn without it\n", path, IMG_GetError());
    free(bytes);
    return img;
}

/* Load a tileable image as a 2x2 repetition, so any hex (at most one period
 * wide) finds its UVs inside [0,1] without relying on texture wrapping, which
 * SDL2's renderers do not offer for geometry. */
static SDL_Texture *load_tile(SDL_Renderer *r, const char *rel)
{
    SDL_Surface *img = load_image(rel);
    if (!img) return NULL;
    SDL_Texture *tex = NULL;
    SDL_Surface *big =
        SDL_CreateRGBSurfaceWithFormat(0, img->w * 2, img->h * 2, 32, SDL_PIXELFORMAT_ARGB8888);
    if (big) {
        SDL_SetSurfaceBlendMode(img, SDL_BLENDMODE_NONE);
        for (int k = 0; k < 4; k++) {
            SDL_Rect dst = {(k & 1) * img->w, (k >> 1) * img->h, img->w, img->h};
            SDL_BlitSurface(img, NULL, big, &dst);
        }
        tex = SDL_CreateTextureFromSurface(r, big);
        SDL_FreeSurface(big);
    }
    SDL_FreeSurface(img);
    if (tex) {
        SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_NONE);
        SDL_SetTextureScaleMode(tex, SDL_ScaleModeLinear);
    }
    return tex;
}

SDL_Texture *draw_token_image(ui_draw_t *d, const char *rel)
{
    for (int i = 0; i < d->n_imgs; i++)
        if (strcmp(d->imgs[i].path, rel) == 0) return d->imgs[i].tex;
    if (d->n_imgs == MAX_TOKEN_IMAGES) return NULL;
    token_img_t *t = &d->imgs[d->n_imgs++];
    hb_strlcpy(t->path, rel, sizeof t->path);
    SDL_Surface *img = load_image(rel);
    t->tex = img ? SDL_CreateTextureFromSurface(d->r, img) : NULL;
    SDL_FreeSurface(img);
    if (t->tex) {
        SDL_SetTextureBlendMode(t->tex, SDL_BLENDMODE_BLEND);
        SDL_SetTextureScaleMode(t->tex, SDL_ScaleModeLinear);
    }
    return t->tex;
}

/* ---- lifetime ----------------------------------------------------------- */

ui_draw_t *ui_draw_create(SDL_Renderer *r, const map_t *m, char *err, size_t errcap)
{
    ui_draw_t *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    d->r = r;
    d->text = ui_text_create(r, ui_assets_dir(), err, errcap);
    if (!d->text) {
        free(d);
        return NULL;
    }
    for (int i = 0; i < m->n_types && i < MAP_MAX_TERRAIN; i++)
        if (m->types[i].texture[0]) d->terrain_tex[i] = load_tile(r, m->types[i].texture);
    d->art = ui_art_load(r, m); /* the map's own pictures, if any (art.c) */
    d->lod = ui_lod_create(); /* none on OOM: hex by hex, only slower */
    SDL_RendererInfo info;
    d->soft = SDL_GetRendererInfo(r, &info) == 0 && (info.flags & SDL_RENDERER_SOFTWARE);
    SDL_AddEventWatch(still_watch, d);
    return d;
}

void ui_draw_destroy(ui_draw_t *d)
{
    if (!d) return;
    SDL_DelEventWatch(still_watch, d);
    for (int i = 0; i < 2; i++)
        if (d->still.tex[i]) SDL_DestroyTexture(d->still.tex[i]);
    free(d->still.cells);
    ui_art_free(d->art);
    ui_lod_destroy(d->lod);
    ui_text_destroy(d->text);
    for (int i = 0; i < MAP_MAX_TERRAIN; i++)
        if (d->terrain_tex[i]) SDL_DestroyTexture(d->terrain_tex[i]);
    for (int i = 0; i < d->n_imgs; i++)
        if (d->imgs[i].tex) SDL_DestroyTexture(d->imgs[i].tex);
    for (int i = 0; i < N_BATCH; i++)
        free(d->batch[i].v);
    free(d->lines.v);
    free(d->tokens.v);
    free(d->overlay.v);
    free(d->fan_idx);
    free(d->quad_idx);
    free(d->cap_idx);
    free(d->zones);
    free(d->pts);
    free(d->dots);
    free(d->rects);
    for (int i = 0; i < MAP_MAX_TERRAIN; i++)
        free(d->band[i]);
    free(d);
}

ui_text_t *ui_draw_text(ui_draw_t *d)
{
    return d->text;
}
SDL_Renderer *ui_draw_renderer(ui_draw_t *d)
{
    return d->r;
}
int ui_draw_last_hexes(const ui_draw_t *d)
{
    return d->last_hexes;
}

/* ---- the frame ---------------------------------------------------------- */

static const int FAN[FAN_IDX] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5};
static const int QUAD[QUAD_IDX] = {0, 1, 2, 1, 3, 2};

/* Edge toward neighbour direction d joins corners (6-d)%6 and (7-d)%6 for both
 * orientations, given hex.c's direction order and corner angles. */
static int edge_a(int d)
{
    return (6 - d) % 6;
}
static int edge_b(int d)
{
    return (7 - d) % 6;
}

/* A plain hex is drawn as an axis-aligned band (corner 4 to corner 1) plus
 * the two triangles left at its ends: pointy hexes keep their top and bottom
 * caps, flat ones their left and right. The bands go out as rectangle fills,
 * which the software renderer does at memset speed, while every triangle it
 * rasterises alone over its bounding box at a fixed cost per triangle: half
 * the triangles of a corner fan, and half the pixels in triangles. */
#define CAP_IDX 6
#define BAND_PIECE 15.0f /* widest band piece in pixels (see draw_terrain) */
static const int CAPS[2][CAP_IDX] = {{5, 0, 4, 2, 3, 1}, {3, 4, 2, 0, 1, 5}};

/* Corner offsets in lattice steps (see hex_lattice), by orientation. */
static const int LATTICE[2][6][2] = {
    {{1, -1}, {1, 1}, {0, 2}, {-1, 1}, {-1, -1}, {0, -2}},
    {{2, 0}, {1, 1}, {-1, 1}, {-2, 0}, {-1, -1}, {1, -1}},
};

/* ---- the layer's pixel grid -----------------------------------------------
 *
 * The camera puts world point p at (p - origin) * zoom. The static layer
 * (background, terrain, grid) puts it at p * zoom - f - i instead, where
 * origin * zoom = i + f, i a whole number of pixels and f its fraction,
 * rounded to 1/ORG_STEPS of a pixel: a shift of the layer by a millionth of a
 * pixel at most, and steps coarse enough that a pan by whole pixels, whose
 * float error is far smaller, keeps f. Every position the layer draws at is worked out
 * as p * zoom - f, rounded to a whole pixel, and only then has i taken off:
 * whole numbers, so that subtraction is exact. Two cameras with the same zoom
 * and the same f therefore draw the same picture, moved by exactly the
 * difference of their i, down to the last vertex handed to SDL. That is what
 * lets a pan reuse the picture (see "The static layer" in still.c). */
#define ORG_STEPS 1048576.0
#define SQRT3_2 0.8660254037844386

org_t layer_org(const ui_camera_t *cam)
{
    org_t o = {.z = cam->zoom};
    double nx = floor(cam->x * cam->zoom * ORG_STEPS + 0.5);
    double ny = floor(cam->y * cam->zoom * ORG_STEPS + 0.5);
    o.ix = floor(nx / ORG_STEPS);
    o.iy = floor(ny / ORG_STEPS);
    o.fx = (nx - o.ix * ORG_STEPS) / ORG_STEPS;
    o.fy = (ny - o.iy * ORG_STEPS) / ORG_STEPS;
    return o;
}

/* World point (wx, wy) on the layer before rounding, i not yet taken off. */
static vec2_t org_abs(const org_t *o, double wx, double wy)
{
    return (vec2_t){wx * o->z - o->fx, wy * o->z - o->fy};
}

/* A position from org_abs rounded down to its pixel, on the screen. One a
 * hair short of a whole pixel counts as on it: grid lines often fall on
 * exact pixel edges, and float noise must not put them a pixel off (SDL,
 * handed floats, rounds such noise away). */
#define ORG_SNAP (1.0 / 4096.0)
static float org_floor_x(const org_t *o, double ax)
{
    return (float)(floor(ax + ORG_SNAP) - o->ix);
}
static float org_floor_y(const org_t *o, double ay)
{
    return (float)(floor(ay + ORG_SNAP) - o->iy);
}

/* Corner i of hex hx on the layer, before rounding (org_abs of lattice
 * point (kx, ky), see hex_lattice): a shared corner comes out the same,
 * bit for bit, from every hex that has it. */
static void hex_corners_abs(const org_t *o, hex_orient_t orient, hex_t hx, vec2_t out[6])
{
    bool pointy = orient == HEX_POINTY;
    double ux = pointy ? SQRT3_2 : 0.5, uy = pointy ? 0.5 : SQRT3_2;
    int kx = pointy ? 2 * hx.q + hx.r : 3 * hx.q, ky = pointy ? 3 * hx.r : hx.q + 2 * hx.r;
    const int(*off)[2] = LATTICE[pointy ? 0 : 1];
    for (int i = 0; i < 6; i++)
        out[i] = org_abs(o, (kx + off[i][0]) * ux, (ky + off[i][1]) * uy);
}

/* Screen corners of hex hx, rounded to whole pixels. Corners are points of a
 * lattice (half a hex width by half a radius for pointy hexes, the transpose
 * for flat ones), and every hex rounds a shared corner from the same integer
 * lattice point, so neighbours meet exactly: no seam shows the background
 * and no pixel is drawn twice. */
static void hex_lattice(const org_t *o, hex_orient_t orient, hex_t hx, SDL_FPoint out[6])
{
    vec2_t a[6];
    hex_corners_abs(o, orient, hx, a);
    for (int i = 0; i < 6; i++)
        out[i] = (SDL_FPoint){org_floor_x(o, a[i].x + 0.5), org_floor_y(o, a[i].y + 0.5)};
}

/* Lattice corners of the hex at position `along` in line `line` (rows for
 * pointy maps, columns for flat ones). */
static void line_hex(const map_t *m, const org_t *o, int line, int along, SDL_FPoint px[6])
{
    cell_t c = m->layout.orient == HEX_POINTY ? (cell_t){along, line} : (cell_t){line, along};
    hex_lattice(o, m->layout.orient, hex_from_cell(m->layout, c), px);
}

/* Between two lines of hexes lies a strip that their end triangles tile,
 * pointing alternately in and out. Where one colour is most common, the
 * strip is painted in it with one rectangle, and only the end triangles of
 * other colours are drawn over it: most of the triangles go. The rectangle
 * runs between the centres of the lines' end hexes, whose triangles are
 * always drawn, so nothing off the map is painted. zones[L] is the strip
 * before line L (w == 0: none). */
static bool zone_rects(ui_draw_t *d, const map_t *m, const org_t *o)
{
    bool pointy = m->layout.orient == HEX_POINTY;
    int lines = pointy ? m->rows : m->cols, along = pointy ? m->cols : m->rows;
    if (!grow((void **)&d->zones, &d->cap_zones, lines + 1, sizeof *d->zones)) return false;
    for (int l = 0; l < lines; l++) {
        d->zones[l] = (SDL_FRect){0, 0, 0, 0};
        if (l == 0 || along < 3) continue;
        SDL_FPoint a0[6], a1[6], b0[6], b1[6];
        line_hex(m, o, l - 1, 0, a0);
        line_hex(m, o, l - 1, along - 1, a1);
        line_hex(m, o, l, 0, b0);
        line_hex(m, o, l, along - 1, b1);
        /* Hex centres along the line: a pointy hex's bottom corner, a flat
         * hex's right corner. The strip across: corner 1 to corner 2 (pointy)
         * or 1 to 0 (flat) of a hex in the line before. */
        float s0 = pointy ? fmaxf(a0[2].x, b0[2].x) : fmaxf(a0[0].y, b0[0].y);
        float s1 = pointy ? fminf(a1[2].x, b1[2].x) : fminf(a1[0].y, b1[0].y);
        float c0 = pointy ? a0[1].y : a0[1].x, c1 = pointy ? a0[2].y : a0[0].x;
        if (s1 <= s0 || c1 <= c0) continue;
        d->zones[l] =
            pointy ? (SDL_FRect){s0, c0, s1 - s0, c1 - c0} : (SDL_FRect){c0, s0, c1 - c0, s1 - s0};
    }
    return true;
}

static void flush_quads(ui_draw_t *d, vbuf_t *b)
{
    int quads = b->n / 4;
    if (quads && grow_idx(&d->quad_idx, &d->quad_cap, quads, QUAD_IDX, 4, QUAD))
        SDL_RenderGeometry(d->r, NULL, b->v, b->n, d->quad_idx, quads * QUAD_IDX);
    b->n = 0;
}

/* A 1-px grid edge along u..v (corners from hex_corners_abs), as a rect a
 * pixel thick, short of both ends by half a pixel. */
static SDL_FRect grid_edge_rect(const org_t *o, vec2_t u, vec2_t v)
{
    double dx = fabs(u.x - v.x), dy = fabs(u.y - v.y);
    double x = fmin(u.x, v.x), y = fmin(u.y, v.y);
    if (dx < dy) {
        int len = (int)(dy - 1.0);
        return (SDL_FRect){org_floor_x(o, x - 0.5), org_floor_y(o, y + 0.5), 1,
                           (float)(len > 1 ? len : 1)};
    }
    int len = (int)(dx - 1.0);
    return (SDL_FRect){org_floor_x(o, x + 0.5), org_floor_y(o, y - 0.5), (float)(len > 1 ? len : 1),
                       1};
}

/* Grid as 1-px lines, which the software renderer draws far faster than thin
 * triangles: per line of hexes (rows when pointy, columns when flat) one
 * polyline along their leading zigzag, and the axis-aligned edges between
 * neighbours as one batch of rects. Each edge is drawn once so the
 * translucent colour keeps one shade. Flat hexes are pointy ones mirrored
 * across the diagonal: pointy corner i plays flat corner (2 - i) mod 6.
 * Corners come from the lattice (hex_corners_abs), rounded down to their
 * pixel, so an edge is the same whichever hex draws it. */
static void grid_lines(ui_draw_t *d, const map_t *m, const org_t *o, cell_t lo, cell_t hi,
                       Uint8 alpha)
{
    bool pointy = m->layout.orient == HEX_POINTY;
    int l0 = pointy ? lo.row : lo.col, l1 = pointy ? hi.row : hi.col;
    int a0 = pointy ? lo.col : lo.row, a1 = pointy ? hi.col : hi.row;
    int last_line = (pointy ? m->rows : m->cols) - 1, last_along = (pointy ? m->cols : m->rows) - 1;
    int span = a1 - a0 + 1;
    if (!grow((void **)&d->pts, &d->cap_pts, 3 * span + 4, sizeof *d->pts) ||
        !grow((void **)&d->rects, &d->cap_rects, (l1 - l0 + 1) * (span + 1), sizeof *d->rects))
        return;
    float sx = 1, sy = 1;
    SDL_RenderGetScale(d->r, &sx, &sy);
    SDL_Rect area = clip_area(d->r);
    const SDL_Rect *in = d->soft && sx == 1 && sy == 1 ? &area : NULL;
    SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(d->r, 0, 0, 0, alpha);
    d->n_rects = 0;
    d->n_dots = 0;
    for (int line = l0; line <= l1; line++) {
        bool bottom_all = line == last_line;
        for (int pass = 0; pass < (bottom_all ? 2 : 1); pass++) {
            d->n_pts = 0;
            for (int k = a0; k <= a1; k++) {
                cell_t c = pointy ? (cell_t){k, line} : (cell_t){line, k};
                hex_t hx = hex_from_cell(m->layout, c);
                vec2_t ca[6], p[6];
                SDL_FPoint q[6];
                hex_corners_abs(o, m->layout.orient, hx, ca);
                for (int i = 0; i < 6; i++) {
                    p[i] = ca[pointy ? i : (8 - i) % 6];
                    q[i] = (SDL_FPoint){org_floor_x(o, p[i].x), org_floor_y(o, p[i].y)};
                }
                if (pass == 1) { /* the map's far edge: the trailing zigzag */
                    if (k == a0) d->pts[d->n_pts++] = q[3];
                    d->pts[d->n_pts++] = q[2];
                    d->pts[d->n_pts++] = q[1];
                    continue;
                }
                if (k == a0) d->pts[d->n_pts++] = q[4];
                d->pts[d->n_pts++] = q[5];
                d->pts[d->n_pts++] = q[0];
                /* e == 0: the leading side edge of the line's first hex. */
                for (int e = (k == a0 ? 0 : 1); e < 2; e++)
                    d->rects[d->n_rects++] = grid_edge_rect(o, e ? p[0] : p[4], e ? p[1] : p[3]);
                /* Trailing edges with no hex beyond them (the stagger leaves
                 * one at each end of a line) are nobody else's to draw. */
                if (!bottom_all && (k == 0 || k == last_along)) {
                    vec2_t wc = ui_cell_center(m, c);
                    for (int e = 1; e <= 2; e++) {
                        /* The hex across the edge: the centre mirrored in
                         * the edge's middle, in world units. */
                        vec2_t u = hex_corner(m->layout.orient, 1.0, pointy ? e : (8 - e) % 6);
                        vec2_t v = hex_corner(m->layout.orient, 1.0, pointy ? e + 1 : (7 - e) % 6);
                        cell_t nb;
                        if (!ui_pick_cell(m, (vec2_t){wc.x + u.x + v.x, wc.y + u.y + v.y}, &nb))
                            grid_poly(d, (SDL_FPoint[2]){q[e], q[e + 1]}, 2, in);
                    }
                }
            }
            grid_poly(d, d->pts, d->n_pts, in);
        }
    }
    SDL_RenderFillRectsF(d->r, d->rects, d->n_rects);
    if (d->n_dots) SDL_RenderDrawPointsF(d->r, d->dots, d->n_dots);
}

/* A hex centred at screen point sc is left out of box (x, y, w, h) when
 * its centre lies more than pad beyond it: none of its pixels is inside. */
static bool hex_away(vec2_t sc, double x, double y, double w, double h, double pad)
{
    return sc.x < x - pad || sc.y < y - pad || sc.x > x + w + pad || sc.y > y + h + pad;
}

/* How many hexes among lo..hi draw_terrain draws in the w x h view. */
int hexes_in_view(const map_t *m, const ui_camera_t *cam, int w, int h, cell_t lo, cell_t hi)
{
    int n = 0;
    double pad = cam->zoom * 1.1;
    for (int row = lo.row; row <= hi.row; row++)
        for (int col = lo.col; col <= hi.col; col++) {
            vec2_t wc =
                hex_to_pixel(m->layout.orient, 1.0, hex_from_cell(m->layout, (cell_t){col, row}));
            n += !hex_away(ui_cam_to_screen(cam, wc), 0, 0, w, h, pad);
        }
    return n;
}

/* A grid edge a..e (corners from hex_corners_abs) as a band wd wide, a
 * quad for the shared quad indices, with its corners on whole pixels: each
 * rounded down, as SDL's software renderer rounds a triangle's corners - but
 * for a horizontal edge, whose quad that renderer recognises as a rectangle
 * (given the corners in this order) and fills from its corner and its size,
 * each rounded down. Its corners are put on that rectangle (its size from
 * the unrounded ends, so the same wherever it lies). */
static void push_edge(vbuf_t *b, const org_t *o, vec2_t a, vec2_t e, float wd, SDL_Color c)
{
    double dx = e.x - a.x, dy = e.y - a.y, len = sqrt(dx * dx + dy * dy);
    if (len <= 0.0) len = 1.0;
    double nx = -dy / len * wd / 2.0, ny = dx / len * wd / 2.0;
    vec2_t q[4] = {
        {a.x + nx, a.y + ny}, {a.x - nx, a.y - ny}, {e.x + nx, e.y + ny}, {e.x - nx, e.y - ny}};
    if (a.y == e.y) {
        double x0 = fmin(a.x, e.x), x1 = fmax(a.x, e.x), y0 = a.y - fabs(ny);
        float x = org_floor_x(o, x0), y = org_floor_y(o, y0);
        float rw = (float)(int)(x1 - x0 + ORG_SNAP), rh = (float)(int)(2.0 * fabs(ny) + ORG_SNAP);
        rw = rw < 1 ? 1 : rw;
        rh = rh < 1 ? 1 : rh;
        for (int i = 0; i < 4; i++)
            push(b, q[i].x < (x0 + x1) / 2 ? x : x + rw, q[i].y < a.y ? y : y + rh, c, 0, 0);
        return;
    }
    for (int i = 0; i < 4; i++)
        push(b, org_floor_x(o, q[i].x), org_floor_y(o, q[i].y), c, 0, 0);
}

/* Terrain and grid of the w x h view. `part`, when given, is all of the view
 * that is drawn (the caller clips to it): hexes and grid lines away from it
 * are left out. Either way every pixel drawn is the one a draw of the whole
 * view sets, and d->last_hexes counts the hexes of the whole view. */
static void draw_terrain(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h,
                         const SDL_Rect *part)
{
    ui_rect_t view = {cam->x, cam->y, cam->x + w / cam->zoom, cam->y + h / cam->zoom};
    cell_t lo, hi;
    d->last_hexes = 0;
    for (int i = 0; i < N_BATCH; i++)
        d->batch[i].n = 0;
    for (int i = 0; i < MAP_MAX_TERRAIN; i++)
        d->n_band[i] = 0;
    d->lines.n = 0;
    if (!ui_visible_cells(m, view, &lo, &hi)) return;
    if (cam->zoom < UI_LOD_ZOOM && d->lod && ui_lod_terrain(d->lod, d->r, m, cam)) {
        /* Hexes of a few pixels: the cached image of the whole map. */
        d->last_hexes = (hi.row - lo.row + 1) * (hi.col - lo.col + 1);
        return;
    }

    double z = cam->zoom;
    org_t o = layer_org(cam);
    vec2_t corner[6];
    for (int i = 0; i < 6; i++)
        corner[i] = hex_corner(m->layout.orient, z, i);
    /* Lines thicken a little as hexes grow; tiny hexes get no grid at all. */
    bool grid = z >= 5.0, band_grid = grid && z >= LINE_GRID_ZOOM;
    bool textures = z >= TEX_MIN_ZOOM;
    float lw = (float)fmin(fmax(z * 0.035, 1.0), 2.5);
    SDL_Color gc = {0, 0, 0, (Uint8)(z < 10.0 ? 40 : 70)};
    double pad = z * 1.1;
    d->n_cap_idx = 0;

    /* The most common plain colour in view paints the strips between lines. */
    int count[MAP_MAX_TERRAIN] = {0}, zone_ti = -1;
    for (int row = lo.row; row <= hi.row; row++)
        for (int col = lo.col; col <= hi.col; col++) {
            int ti = m->cells[map_index(m, (cell_t){col, row})];
            if (ti < MAP_MAX_TERRAIN && !(textures && d->terrain_tex[ti])) count[ti]++;
        }
    for (int i = 0; i < MAP_MAX_TERRAIN; i++)
        if (count[i] && (zone_ti < 0 || count[i] > count[zone_ti])) zone_ti = i;
    bool pointy = m->layout.orient == HEX_POINTY;
    int n_lines = pointy ? m->rows : m->cols, n_along = pointy ? m->cols : m->rows;
    if (zone_ti >= 0 && !zone_rects(d, m, &o)) zone_ti = -1;
    const int *caps = CAPS[pointy ? 0 : 1];

    /* The cells to draw: those near the part, or the whole view's. */
    cell_t dlo = lo, dhi = hi;
    bool any = true;
    if (part) {
        d->last_hexes = hexes_in_view(m, cam, w, h, lo, hi);
        ui_rect_t pv = {cam->x + part->x / z, cam->y + part->y / z,
                        cam->x + (part->x + part->w) / z, cam->y + (part->y + part->h) / z};
        any = ui_visible_cells(m, pv, &dlo, &dhi);
        if (!any) dhi.row = dlo.row - 1; /* no cells: the loop below draws none */
    }
    for (int row = dlo.row; row <= dhi.row; row++) {
        for (int col = dlo.col; col <= dhi.col; col++) {
            cell_t cell = {col, row};
            hex_t hx = hex_from_cell(m->layout, cell);
            vec2_t wc = hex_to_pixel(m->layout.orient, 1.0, hx);
            vec2_t sc = ui_cam_to_screen(cam, wc);
            if (hex_away(sc, 0, 0, w, h, pad)) continue;
            if (part && hex_away(sc, part->x, part->y, part->w, part->h, pad)) continue;
            int ti = m->cells[map_index(m, cell)];
            const terrain_t *t = &m->types[ti];
            SDL_Texture *tex = textures && ti < MAP_MAX_TERRAIN ? d->terrain_tex[ti] : NULL;
            vbuf_t *b = &d->batch[tex ? 1 + ti : 0];
            if (!shape_reserve(b, 6)) continue;
            SDL_Color c = draw_rgb(t->color, 255);
            SDL_FPoint px[6];
            hex_lattice(&o, m->layout.orient, hx, px);
            /* UVs come from world position so textures run on across hexes;
             * the base is a whole number of periods, half a period before the
             * hex's centre, so every corner stays inside the doubled tile. */
            double bu = (floor(wc.x / TEX_PERIOD - 0.5)) * TEX_PERIOD;
            double bv = (floor(wc.y / TEX_PERIOD - 0.5)) * TEX_PERIOD;
            for (int k = 0; k < 6; k++) {
                float u = 0, v = 0;
                if (tex) {
                    u = (float)((wc.x + corner[k].x / z - bu) / (2.0 * TEX_PERIOD));
                    v = (float)((wc.y + corner[k].y / z - bv) / (2.0 * TEX_PERIOD));
                }
                push(b, px[k].x, px[k].y, c, u, v);
            }
            if (!tex && grow((void **)&d->cap_idx, &d->cap_cap, d->n_cap_idx + CAP_IDX,
                             sizeof *d->cap_idx)) {
                int line = pointy ? row : col, at = pointy ? col : row;
                bool inner = at > 0 && at < n_along - 1 && ti == zone_ti;
                int first = b->n - 6;
                for (int e = 0; e < 2; e++) {
                    /* e == 0: the triangle in the strip before this line. */
                    int zl = line + e;
                    if (inner && zl < n_lines && d->zones[zl].w > 0) continue;
                    for (int j = 0; j < 3; j++)
                        d->cap_idx[d->n_cap_idx++] = first + caps[3 * e + j];
                }
            }
            if (!tex && ti < MAP_MAX_TERRAIN && px[1].x > px[4].x && px[1].y > px[4].y &&
                grow((void **)&d->band[ti], &d->cap_band[ti], d->n_band[ti] + 8,
                     sizeof *d->band[ti])) {
                /* SDL fills rows of 16 pixels or more with streaming stores,
                 * which cost far more than plain ones on short rows that are
                 * read again at once (grid, overlays); narrow pieces avoid them. */
                float x = px[4].x, x1 = px[1].x, bh = px[1].y - px[4].y;
                int pieces = (int)ceil((x1 - x) / BAND_PIECE);
                if (pieces > 8) pieces = 1;
                float step = (float)ceil((x1 - x) / pieces);
                for (; x < x1; x += step)
                    d->band[ti][d->n_band[ti]++] = (SDL_FRect){x, px[4].y, fminf(step, x1 - x), bh};
            }
            if (!part) d->last_hexes++;
            if (!band_grid) continue;
            vec2_t ca[6];
            hex_corners_abs(&o, m->layout.orient, hx, ca);
            for (int dir = 0; dir < 6; dir++) {
                /* Each shared edge is drawn once, by the hex on its 0..2 side,
                 * so translucent lines keep one shade. */
                if (dir >= 3 && map_in_bounds(m, hex_to_cell(m->layout, hex_neighbor(hx, dir))))
                    continue;
                if (!shape_reserve(&d->lines, 4)) break;
                push_edge(&d->lines, &o, ca[edge_a(dir)], ca[edge_b(dir)], lw, gc);
            }
        }
    }

    int max_hexes = 0;
    for (int i = 0; i < N_BATCH; i++)
        if (d->batch[i].n / 6 > max_hexes) max_hexes = d->batch[i].n / 6;
    if (!grow_idx(&d->fan_idx, &d->fan_cap, max_hexes, FAN_IDX, 6, FAN)) return;
    SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_NONE);
    if (zone_ti >= 0) {
        /* Under everything else: the triangles and textured hexes cover it. */
        SDL_Color c = draw_rgb(m->types[zone_ti].color, 255);
        SDL_SetRenderDrawColor(d->r, c.r, c.g, c.b, 255);
        for (int l = 0; l < n_lines; l++)
            if (d->zones[l].w > 0) SDL_RenderFillRectF(d->r, &d->zones[l]);
    }
    for (int i = 0; i < N_BATCH; i++) {
        vbuf_t *b = &d->batch[i];
        if (!b->n) continue;
        if (i)
            SDL_RenderGeometry(d->r, d->terrain_tex[i - 1], b->v, b->n, d->fan_idx,
                               b->n / 6 * FAN_IDX);
        else if (d->n_cap_idx)
            SDL_RenderGeometry(d->r, NULL, b->v, b->n, d->cap_idx, d->n_cap_idx);
    }
    /* The bands of plain hexes, one fill call per colour. */
    for (int i = 0; i < MAP_MAX_TERRAIN; i++) {
        if (!d->n_band[i]) continue;
        SDL_Color c = draw_rgb(m->types[i].color, 255);
        SDL_SetRenderDrawColor(d->r, c.r, c.g, c.b, 255);
        SDL_RenderFillRectsF(d->r, d->band[i], d->n_band[i]);
    }
    SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_BLEND);
    if (band_grid)
        flush_quads(d, &d->lines);
    else if (grid && any)
        grid_lines(d, m, &o, dlo, dhi, gc.a);
}

static void draw_hover(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, cell_t cell)
{
    if (!map_in_bounds(m, cell)) return;
    vec2_t sc = ui_cam_to_screen(cam, ui_cell_center(m, cell));
    vec2_t corner[6];
    for (int i = 0; i < 6; i++)
        corner[i] = hex_corner(m->layout.orient, cam->zoom, i);
    d->overlay.n = 0;
    draw_push_poly(&d->overlay, (float)sc.x, (float)sc.y, corner, 6, 1.0f,
                   (SDL_Color){255, 255, 255, 60});
    SDL_RenderGeometry(d->r, NULL, d->overlay.v, d->overlay.n, NULL, 0);
    d->overlay.n = 0;
    float lw = (float)fmin(fmax(cam->zoom * 0.08, 2.0), 4.0);
    /* Inset the outline so it is not cut by the neighbours' grid lines. */
    double in = 1.0 - lw / (2.0 * cam->zoom);
    for (int i = 0; i < 6 && shape_reserve(&d->overlay, 4); i++) {
        vec2_t a = {sc.x + corner[i].x * in, sc.y + corner[i].y * in};
        vec2_t e = {sc.x + corner[(i + 1) % 6].x * in, sc.y + corner[(i + 1) % 6].y * in};
        push_segment(&d->overlay, a, e, lw, (SDL_Color){255, 250, 205, 235});
    }
    flush_quads(d, &d->overlay);
}

/* Fog of the player view: unseen hexes covered, remembered ones dimmed. One
 * batched call; the vertex buffer is the drawer's and only grows. */
static void draw_fog(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h,
                     const vision_t *vis)
{
    ui_rect_t view = {cam->x, cam->y, cam->x + w / cam->zoom, cam->y + h / cam->zoom};
    cell_t lo, hi;
    if (!ui_visible_cells(m, view, &lo, &hi)) return;
    if (cam->zoom < UI_LOD_ZOOM && d->lod && ui_lod_fog(d->lod, d->r, m, cam, vis)) return;
    vec2_t corner[6];
    for (int i = 0; i < 6; i++)
        corner[i] = hex_corner(m->layout.orient, cam->zoom * 1.02, i); /* cover the grid too */
    const SDL_Color dark = {8, 9, 12, 255}, dim = {8, 9, 12, 150};
    double pad = cam->zoom * 1.1;
    d->overlay.n = 0;
    for (int row = lo.row; row <= hi.row; row++)
        for (int col = lo.col; col <= hi.col; col++) {
            vis_state_t st = vision_state(vis, (cell_t){col, row});
            if (st == VIS_VISIBLE) continue;
            vec2_t sc = ui_cam_to_screen(cam, ui_cell_center(m, (cell_t){col, row}));
            if (sc.x < -pad || sc.y < -pad || sc.x > w + pad || sc.y > h + pad) continue;
            if (!shape_reserve(&d->overlay, 6)) return;
            for (int k = 0; k < 6; k++)
                push(&d->overlay, (float)(sc.x + corner[k].x), (float)(sc.y + corner[k].y),
                     st == VIS_UNSEEN ? dark : dim, 0, 0);
        }
    int hexes = d->overlay.n / 6;
    if (hexes && grow_idx(&d->fan_idx, &d->fan_cap, hexes, FAN_IDX, 6, FAN))
        SDL_RenderGeometry(d->r, NULL, d->overlay.v, d->overlay.n, d->fan_idx, hexes * FAN_IDX);
    d->overlay.n = 0;
}

/* Paint the background only where the terrain will not cover it. Inside the
 * map's box, short of its ragged rim (half a hex across the stagger, half a
 * radius at the caps), hexes tile every pixel, so clearing there first only
 * writes the screen twice - on the software renderer a full clear costs
 * about as much as a tenth of the terrain. */
static void clear_around_map(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h,
                             const SDL_Rect *part)
{
    ui_rect_t b = ui_map_bounds(m);
    bool pointy = m->layout.orient == HEX_POINTY;
    double inx = pointy ? SQRT3_2 : 0.5, iny = pointy ? 0.5 : SQRT3_2;
    org_t o = layer_org(cam);
    vec2_t a = org_abs(&o, b.x0 + inx, b.y0 + iny), e = org_abs(&o, b.x1 - inx, b.y1 - iny);
    /* One pixel in from the rounded corners of the hexes at the rim (whole
     * pixels before the origin's are taken off, as for the hexes). */
    double fx0 = ceil(a.x) - o.ix + 1, fy0 = ceil(a.y) - o.iy + 1;
    double fx1 = floor(e.x) - o.ix - 1, fy1 = floor(e.y) - o.iy - 1;
    int x0 = fx0 < 0 ? 0 : fx0 > w ? w : (int)fx0, y0 = fy0 < 0 ? 0 : fy0 > h ? h : (int)fy0;
    int x1 = fx1 > w ? w : fx1 < 0 ? 0 : (int)fx1, y1 = fy1 > h ? h : fy1 < 0 ? 0 : (int)fy1;
    if (m->cols < 3 || m->rows < 3 || x1 <= x0 || y1 <= y0) {
        /* A clear ignores the clip, which a part of the view is drawn under. */
        if (part)
            SDL_RenderFillRect(d->r, part);
        else
            SDL_RenderClear(d->r);
        return;
    }
    SDL_Rect r[4] = {
        {0, 0, w, y0}, {0, y1, w, h - y1}, {0, y0, x0, y1 - y0}, {x1, y0, w - x1, y1 - y0}};
    for (int i = 0; i < 4; i++)
        if (r[i].w > 0 && r[i].h > 0) SDL_RenderFillRect(d->r, &r[i]);
}

/* The static layer (background, terrain and grid) of the w x h view, or of
 * `part` of it (see draw_terrain); still.c caches it. */
void draw_static(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h,
                 const SDL_Rect *part)
{
    if (ui_art_draws(d->art, m, cam)) { /* the map's own pictures (art.c) */
        ui_art_static(d->art, d->r, m, cam, w, h, d->art_overlay);
        return;
    }
    SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(d->r, 28, 31, 36, 255);
    clear_around_map(d, m, cam, w, h, part);
    draw_terrain(d, m, cam, w, h, part);
}

void ui_draw_map(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h,
                 const ui_frame_opts_t *opts)
{
    static_layer(d, m, cam, w, h);
    SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_BLEND);
    if (opts && opts->hover) draw_hover(d, m, cam, opts->hover_cell);
    const ui_view_t *view = opts ? opts->view : NULL;
    if (view && view->vis) draw_fog(d, m, cam, w, h, view->vis);
    if (!opts || !opts->tokens_later) ui_draw_tokens(d, m, cam, w, h, opts);
}

void ui_draw_tokens(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h,
                    const ui_frame_opts_t *opts)
{
    SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_BLEND);
    draw_tokens(d, m, cam, w, h, opts ? opts->poses : NULL, opts ? opts->view : NULL,
                opts ? opts->log : NULL);
}
