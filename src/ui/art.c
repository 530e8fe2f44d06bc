/* art.c - a map's own pictures drawn into the static layer (see
 * draw_internal.h): the battle-map picture, then each hex's tile picture as
 * Tiled places it, then the terrain colours when the referee switches them
 * on (translucent, over the pictures), then the grid. Tokens and overlays
 * come on top as on any map. A hex whose picture could not be loaded shows
 * its terrain colour; the drawer says so once (ui_draw_art_warning).
 *
 * Tiled's pixels go to hexbattle's world per axis (art_xform): each cell's
 * centre in Tiled lands on its hex's centre, so a tileset drawn for other
 * hex proportions is stretched to fit. The layer is cached like the
 * terrain (still.c); it is drawn afresh when the camera moves, never
 * shifted, as scaled pictures do not move by whole pixels.
 */
#include "draw_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <SDL_image.h>

#include "../io/fileio.h"
#include "../io/picture.h"

#define ART_OVERLAY_ALPHA 120
#define ART_MAX_DRAWN 60000 /* tiles in view beyond this: terrain colours (the map seen whole) */

typedef struct {
    SDL_Texture *tex; /* NULL: not loaded */
    int w, h;
} art_pic_t;

struct ui_art {
    map_art_t *src; /* a copy of the art this was loaded for, cells aside: the map
                     * drawn (a battle's copy of it, say) gives its cells */
    art_pic_t sets[ART_MAX_SETS];
    art_pic_t *imgs; /* one per collection tile, src->n_imgs */
    art_pic_t bg;
    bool missing; /* some tile picture did not load */
    shape_buf_t fill, grid;
    char warn[ART_WARN_MAX];
};

/* Load picture REL of the map in DIR, checked (picture.h) before it is
 * decoded; NULL, with the reason put in the warning once, when it fails. */
static SDL_Texture *load_pic(ui_art_t *a, SDL_Renderer *r, const char *dir, const char *rel,
                             int *w, int *h)
{
    char path[4096], err[600];
    SDL_Texture *tex = NULL;
    unsigned char *bytes = NULL;
    size_t len = 0;
    if (hb_picture_path(dir, rel, path, sizeof path, err, sizeof err) == HB_OK &&
        hb_picture_read(path, &bytes, &len, w, h, err, sizeof err) == HB_OK) {
        /* The very bytes whose header was checked are decoded. */
        SDL_Surface *s = IMG_Load_RW(SDL_RWFromConstMem(bytes, (int)len), 1);
        if (s) {
            tex = SDL_CreateTextureFromSurface(r, s);
            SDL_FreeSurface(s);
        }
        if (!tex) snprintf(err, sizeof err, "%.300s: %.200s", path, IMG_GetError());
    }
    free(bytes);
    if (!tex && !a->warn[0])
        snprintf(a->warn, sizeof a->warn, "picture not drawn (terrain colours instead): %.200s",
                 err);
    if (tex) {
        SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_BLEND);
        SDL_SetTextureScaleMode(tex, SDL_ScaleModeLinear);
    }
    return tex;
}

ui_art_t *ui_art_load(SDL_Renderer *r, const map_t *m)
{
    const map_art_t *src = m->art;
    if (!art_any(src)) return NULL;
    ui_art_t *a = calloc(1, sizeof *a);
    map_art_t bare = *src;
    bare.gids = NULL;
    if (!a || !(a->src = art_clone(&bare, 0))) {
        free(a);
        return NULL;
    }
    for (int i = 0; i < src->n_sets; i++) {
        const art_set_t *s = &src->sets[i];
        if (s->columns > 0) {
            a->sets[i].tex = load_pic(a, r, src->dir, s->image, &a->sets[i].w, &a->sets[i].h);
            a->missing |= !a->sets[i].tex;
        }
    }
    if (src->n_imgs > 0 && (a->imgs = calloc((size_t)src->n_imgs, sizeof *a->imgs)))
        for (int i = 0; i < src->n_imgs; i++) {
            art_pic_t *p = &a->imgs[i];
            p->tex = load_pic(a, r, src->dir, src->imgs[i].image, &p->w, &p->h);
            a->missing |= !p->tex;
        }
    if (src->bg[0]) a->bg.tex = load_pic(a, r, src->dir, src->bg, &a->bg.w, &a->bg.h);
    return a;
}

void ui_art_free(ui_art_t *a)
{
    if (!a) return;
    for (int i = 0; i < ART_MAX_SETS; i++)
        if (a->sets[i].tex) SDL_DestroyTexture(a->sets[i].tex);
    for (int i = 0; a->imgs && i < a->src->n_imgs; i++)
        if (a->imgs[i].tex) SDL_DestroyTexture(a->imgs[i].tex);
    if (a->bg.tex) SDL_DestroyTexture(a->bg.tex);
    free(a->imgs);
    art_destroy(a->src);
    shape_free(&a->fill);
    shape_free(&a->grid);
    free(a);
}

const char *ui_art_warning(const ui_art_t *a)
{
    return a && a->warn[0] ? a->warn : NULL;
}

/* Are the map's tile pictures drawable on m as it is now (a reshape in the
 * editor leaves the pictures behind)? */
static bool tiles_fit(const map_art_t *s, const map_t *m)
{
    return s->gids && s->cols == m->cols && s->rows == m->rows &&
           s->layout.orient == m->layout.orient && s->layout.stagger == m->layout.stagger &&
           s->tw > 0 && s->th > 0;
}

/* Is m's art the one a was loaded for (the map itself or a copy of it)? */
static bool same_art(const ui_art_t *a, const map_t *m)
{
    return a && m->art && m->art->n_sets == a->src->n_sets && m->art->n_imgs == a->src->n_imgs &&
           strcmp(m->art->bg, a->src->bg) == 0 && strcmp(m->art->dir, a->src->dir) == 0;
}

bool ui_art_draws(const ui_art_t *a, const map_t *m, const ui_camera_t *cam)
{
    if (!same_art(a, m)) return false;
    if (a->bg.tex) return true;
    return tiles_fit(m->art, m) && cam->zoom >= UI_LOD_ZOOM;
}

uint64_t ui_art_sig(const ui_art_t *a, const map_t *m, bool overlay)
{
    if (!a || !m->art) return 0;
    const map_art_t *s = m->art;
    uint64_t h = 1469598103934665603ull;
    const double v[4] = {s->bg_ox, s->bg_oy, s->bg_sx, s->bg_sy};
    const unsigned char *p = (const unsigned char *)v;
    for (size_t i = 0; i < sizeof v; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    h = (h ^ (uintptr_t)s) * 1099511628211ull;
    return (h ^ (overlay ? 2u : 1u)) * 1099511628211ull;
}

/* The picture and source rectangle of gid; NULL when none loaded. */
static SDL_Texture *tile_pic(const ui_art_t *a, uint32_t gid, SDL_Rect *src, const art_set_t **set)
{
    const map_art_t *s = a->src;
    const art_set_t *st = art_set_of(s, gid);
    if (!st) return NULL;
    *set = st;
    int x, y, w, h;
    const char *img = art_tile_image(s, gid, &x, &y, &w, &h);
    if (!img) return NULL;
    if (st->columns > 0) {
        const art_pic_t *p = &a->sets[st - s->sets];
        if (!p->tex || x + w > p->w || y + h > p->h) return NULL;
        *src = (SDL_Rect){x, y, w, h};
        return p->tex;
    }
    for (int i = st->first_img; i < st->first_img + st->n_img; i++)
        if (s->imgs[i].image == img) {
            const art_pic_t *p = &a->imgs[i];
            *src = (SDL_Rect){0, 0, p->w, p->h};
            return p->tex;
        }
    return NULL;
}

/* The hex of cell c as a filled fan of colour col, into b. */
static void fan(shape_buf_t *b, const map_t *m, const ui_camera_t *cam, cell_t c, SDL_Color col)
{
    vec2_t sc = ui_cam_to_screen(cam, ui_cell_center(m, c));
    vec2_t k[6];
    for (int i = 0; i < 6; i++) {
        vec2_t o = hex_corner(m->layout.orient, cam->zoom, i);
        k[i] = (vec2_t){sc.x + o.x, sc.y + o.y};
    }
    for (int i = 1; i < 5; i++)
        shape_tri(b, k[0], k[i], k[i + 1], col);
}

static SDL_Color colour(uint32_t c, Uint8 alpha)
{
    return (SDL_Color){(Uint8)(c >> 16), (Uint8)(c >> 8), (Uint8)c, alpha};
}

/* The grid: each edge once (directions 0..2, and the map's rim), as thin bands. */
static void grid(ui_art_t *a, const map_t *m, const ui_camera_t *cam, cell_t lo, cell_t hi)
{
    double z = cam->zoom;
    if (z < 5.0) return;
    double lw = fmin(fmax(z * 0.035, 1.0), 2.5);
    SDL_Color gc = {0, 0, 0, (Uint8)(z < 10.0 ? 60 : 90)};
    for (int row = lo.row; row <= hi.row; row++)
        for (int col = lo.col; col <= hi.col; col++) {
            hex_t hx = hex_from_cell(m->layout, (cell_t){col, row});
            vec2_t sc = ui_cam_to_screen(cam, ui_cell_center(m, (cell_t){col, row}));
            for (int dir = 0; dir < 6; dir++) {
                if (dir >= 3 && map_in_bounds(m, hex_to_cell(m->layout, hex_neighbor(hx, dir))))
                    continue;
                vec2_t u = hex_corner(m->layout.orient, z, (6 - dir) % 6);
                vec2_t v = hex_corner(m->layout.orient, z, (7 - dir) % 6);
                shape_segment(&a->grid, (vec2_t){sc.x + u.x, sc.y + u.y},
                              (vec2_t){sc.x + v.x, sc.y + v.y}, lw, gc);
            }
        }
}

void ui_art_static(ui_art_t *a, SDL_Renderer *r, const map_t *m, const ui_camera_t *cam, int w,
                   int h, bool overlay)
{
    const map_art_t *s = m->art; /* its cells and the picture's place; a->src the rest */
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r, 28, 31, 36, 255);
    SDL_RenderClear(r);
    double z = cam->zoom;
    hex_layout_t lay = m->layout;
    const double S3 = sqrt(3.0);
    if (a->bg.tex && s->bg_sx > 0 && s->bg_sy > 0) {
        double kx = S3 / s->bg_sx, ky = S3 / s->bg_sy;
        vec2_t tl = ui_cam_to_screen(cam, art_bg_world(s, lay, (vec2_t){0, 0}));
        SDL_FRect dst = {(float)tl.x, (float)tl.y, (float)(a->bg.w * kx * z),
                         (float)(a->bg.h * ky * z)};
        SDL_RenderCopyF(r, a->bg.tex, NULL, &dst);
    }
    ui_rect_t view = {cam->x, cam->y, cam->x + w / z, cam->y + h / z};
    cell_t lo, hi;
    if (!ui_visible_cells(m, view, &lo, &hi)) return;
    bool tiles = tiles_fit(s, m) && z >= UI_LOD_ZOOM &&
                 (long)(hi.row - lo.row + 1) * (hi.col - lo.col + 1) <= ART_MAX_DRAWN;
    a->fill.n = 0;
    a->grid.n = 0;
    if (tiles) {
        art_xform_t f = art_xform(s, lay);
        bool flat = lay.orient == HEX_FLAT;
        for (int row = lo.row; row <= hi.row; row++)
            /* Flat hexes: the columns shoved up first, so the lower ones overlap them (as Tiled). */
            for (int pass = 0; pass < (flat ? 2 : 1); pass++)
                for (int col = lo.col; col <= hi.col; col++) {
                    vec2_t tc = art_tiled_center(s, lay, col, row);
                    if (flat && pass != (tc.y - s->th / 2.0 > row * s->th)) continue;
                    cell_t cell = {col, row};
                    uint32_t gid = s->gids[map_index(m, cell)];
                    if (!(gid & ART_GID_MASK)) continue;
                    SDL_Rect src;
                    const art_set_t *set = NULL;
                    SDL_Texture *tex = tile_pic(a, gid, &src, &set);
                    if (!tex) {
                        fan(&a->fill, m, cam, cell, colour(map_terrain_at(m, cell)->color, 255));
                        continue;
                    }
                    /* Tiled hangs a tile's picture from the bottom-left corner
                     * of the cell's box, moved by the tileset's offset. */
                    double x0 = tc.x - s->tw / 2.0 + set->offx;
                    double y0 = tc.y + s->th / 2.0 - src.h + set->offy;
                    vec2_t p = ui_cam_to_screen(cam, (vec2_t){f.kx * x0 + f.ox, f.ky * y0 + f.oy});
                    SDL_FRect dst = {(float)p.x, (float)p.y, (float)(src.w * f.kx * z),
                                     (float)(src.h * f.ky * z)};
                    int flip = (gid & 0x80000000u ? SDL_FLIP_HORIZONTAL : 0) |
                               (gid & 0x40000000u ? SDL_FLIP_VERTICAL : 0);
                    SDL_RenderCopyExF(r, tex, &src, &dst, 0, NULL, (SDL_RendererFlip)flip);
                }
    }
    for (int row = lo.row; row <= hi.row; row++)
        for (int col = lo.col; col <= hi.col; col++) {
            cell_t cell = {col, row};
            bool bare = !tiles || !s->gids || !tiles_fit(s, m) ||
                        !(s->gids[map_index(m, cell)] & ART_GID_MASK);
            /* With no picture under it (no tiles, no battle map) a hex shows its terrain. */
            if (overlay)
                fan(&a->fill, m, cam, cell,
                    colour(map_terrain_at(m, cell)->color, ART_OVERLAY_ALPHA));
            else if (bare && !a->bg.tex)
                fan(&a->fill, m, cam, cell, colour(map_terrain_at(m, cell)->color, 255));
        }
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    shape_flush(&a->fill, r);
    grid(a, m, cam, lo, hi);
    shape_flush(&a->grid, r);
}

bool ui_draw_has_art(const ui_draw_t *d)
{
    return d && d->art;
}

void ui_draw_set_terrain_overlay(ui_draw_t *d, bool on)
{
    d->art_overlay = on;
}

bool ui_draw_terrain_overlay(const ui_draw_t *d)
{
    return d->art_overlay;
}

const char *ui_draw_art_warning(const ui_draw_t *d)
{
    return d ? ui_art_warning(d->art) : NULL;
}
