/* lod.c - the cached image of a big map seen whole (see lod.h).
 *
 * The image gives each hex two pixels along the staggered axis, one across
 * it: rows of pointy hexes (columns of flat ones) sit half a hex apart, so a
 * hex's two pixels start one pixel over in every shoved row. Scaled to the
 * map's place on screen, each hex lands where its hexagon is, give or take a
 * pixel at the zoom where this is used.
 */
#include "lod.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HALF_WIDTH 0.8660254037844386 /* half a hex across its flats, in world units */

typedef struct {
    SDL_Texture *tex;
    SDL_Renderer *r; /* the renderer tex belongs to */
    uint32_t *px;
    int w, h;
    uint64_t sig; /* what the image shows */
} layer_t;

struct ui_lod {
    layer_t terrain, fog;
};

ui_lod_t *ui_lod_create(void)
{
    return calloc(1, sizeof(ui_lod_t));
}

static void layer_free(layer_t *l)
{
    if (l->tex) SDL_DestroyTexture(l->tex);
    free(l->px);
    memset(l, 0, sizeof *l);
}

void ui_lod_destroy(ui_lod_t *l)
{
    if (!l) return;
    layer_free(&l->terrain);
    layer_free(&l->fog);
    free(l);
}

/* How map m lies in the image: its size, where it sits in the world, and
 * the one-pixel shift of each shoved line (0 or 1, for lines 0 and 1; the
 * rest alternate). */
typedef struct {
    bool pointy;
    int w, h;
    int shift[2];
    double x0, y0, ww, wh; /* world rectangle the image covers */
} shape_t;

static shape_t shape_of(const map_t *m)
{
    shape_t s;
    s.pointy = m->layout.orient == HEX_POINTY;
    vec2_t c00 = ui_cell_center(m, (cell_t){0, 0});
    /* The second line's first hex, half a hex over one way or the other. */
    vec2_t c1 = s.pointy ? ui_cell_center(m, (cell_t){0, 1}) : ui_cell_center(m, (cell_t){1, 0});
    double a = s.pointy ? c00.x : c00.y, b = s.pointy ? c1.x : c1.y;
    double lo = a < b ? a : b;
    s.shift[0] = (int)lround((a - lo) / HALF_WIDTH);
    s.shift[1] = (int)lround((b - lo) / HALF_WIDTH);
    if (s.pointy) {
        s.w = 2 * m->cols + 1;
        s.h = m->rows;
        s.x0 = lo - HALF_WIDTH;
        s.y0 = c00.y - 0.75;
        s.ww = s.w * HALF_WIDTH;
        s.wh = s.h * 1.5;
    } else {
        s.w = m->cols;
        s.h = 2 * m->rows + 1;
        s.x0 = c00.x - 0.75;
        s.y0 = lo - HALF_WIDTH;
        s.ww = s.w * 1.5;
        s.wh = s.h * HALF_WIDTH;
    }
    return s;
}

/* The pixel index of the first of cell (col, row)'s two pixels; the second
 * is the next one along the staggered axis (+1, or +w for flat hexes). */
static inline int first_px(const shape_t *s, int col, int row)
{
    if (s->pointy) return row * s->w + 2 * col + s->shift[row & 1];
    return (2 * row + s->shift[col & 1]) * s->w + col;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 1099511628211ull;
}

/* Make sure l has a w x h texture on r and pixel room; false on failure. */
static bool layer_ready(layer_t *l, SDL_Renderer *r, int w, int h, bool blend)
{
    if (l->tex && l->r == r && l->w == w && l->h == h) return true;
    layer_free(l);
    l->px = malloc(sizeof *l->px * (size_t)w * (size_t)h);
    l->tex = l->px ? SDL_CreateTexture(r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STATIC, w, h)
                   : NULL;
    if (!l->tex) {
        layer_free(l);
        return false;
    }
    SDL_SetTextureBlendMode(l->tex, blend ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE);
    SDL_SetTextureScaleMode(l->tex, SDL_ScaleModeNearest);
    l->r = r;
    l->w = w;
    l->h = h;
    l->sig = 0;
    return true;
}

static void put_cell(const shape_t *s, uint32_t *px, int col, int row, uint32_t argb)
{
    int i = first_px(s, col, row);
    px[i] = argb;
    px[i + (s->pointy ? 1 : s->w)] = argb;
}

static void blit(SDL_Renderer *r, const layer_t *l, const shape_t *s, const ui_camera_t *cam)
{
    vec2_t a = ui_cam_to_screen(cam, (vec2_t){s->x0, s->y0});
    vec2_t e = ui_cam_to_screen(cam, (vec2_t){s->x0 + s->ww, s->y0 + s->wh});
    SDL_FRect dst = {(float)a.x, (float)a.y, (float)(e.x - a.x), (float)(e.y - a.y)};
    SDL_RenderCopyF(r, l->tex, NULL, &dst);
}

bool ui_lod_terrain(ui_lod_t *l, SDL_Renderer *r, const map_t *m, const ui_camera_t *cam)
{
    shape_t s = shape_of(m);
    if (!layer_ready(&l->terrain, r, s.w, s.h, false)) return false;
    /* What the image shows: the cells (eight at a time) and the colours. */
    uint64_t sig = mix(mix(1469598103934665603ull, (uint64_t)(uintptr_t)m), (uint64_t)m->cols);
    size_t n = (size_t)m->cols * (size_t)m->rows, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, m->cells + i, 8);
        sig = mix(sig, w);
    }
    for (; i < n; i++)
        sig = mix(sig, m->cells[i]);
    for (int t = 0; t < m->n_types; t++)
        sig = mix(sig, m->types[t].color);
    sig |= 1;
    if (sig != l->terrain.sig) {
        uint32_t *px = l->terrain.px;
        const uint32_t bg = 0xff1c1f24u; /* the window's background */
        for (int k = 0; k < s.w * s.h; k++)
            px[k] = bg;
        for (int row = 0; row < m->rows; row++)
            for (int col = 0; col < m->cols; col++) {
                int ti = m->cells[row * m->cols + col];
                put_cell(&s, px, col, row, 0xff000000u | (m->types[ti].color & 0xffffffu));
            }
        if (SDL_UpdateTexture(l->terrain.tex, NULL, px, s.w * (int)sizeof *px) != 0) return false;
        l->terrain.sig = sig;
    }
    blit(r, &l->terrain, &s, cam);
    return true;
}

bool ui_lod_fog(ui_lod_t *l, SDL_Renderer *r, const map_t *m, const ui_camera_t *cam,
                const vision_t *vis)
{
    if (vis->cols != m->cols || vis->rows != m->rows) return false;
    shape_t s = shape_of(m);
    if (!layer_ready(&l->fog, r, s.w, s.h, true)) return false;
    uint64_t sig = mix(1469598103934665603ull, (uint64_t)(uintptr_t)m);
    for (int w = 0; w < vis->n_words; w++)
        sig = mix(mix(sig, vis->visible[w]), vis->seen[w]);
    sig |= 1;
    if (sig != l->fog.sig) {
        uint32_t *px = l->fog.px;
        const uint32_t dark = 0xff08090cu, dim = 0x9608090cu; /* as draw.c's fog */
        for (int k = 0; k < s.w * s.h; k++)
            px[k] = 0;
        for (int row = 0; row < m->rows; row++)
            for (int col = 0; col < m->cols; col++) {
                vis_state_t st = vision_state(vis, (cell_t){col, row});
                if (st != VIS_VISIBLE) put_cell(&s, px, col, row, st == VIS_UNSEEN ? dark : dim);
            }
        if (SDL_UpdateTexture(l->fog.tex, NULL, px, s.w * (int)sizeof *px) != 0) return false;
        l->fog.sig = sig;
    }
    blit(r, &l->fog, &s, cam);
    return true;
}
