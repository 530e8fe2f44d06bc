/* test_ui_still.c - the drawer's cached static layer (still.c, "The static
 * layer"): every frame drawn with the cache is the same, pixel for pixel, as
 * the frame a drawer without it draws, through edits of the terrain, terrain
 * type changes, pans, zooms, resizes, clip rectangles and render scales; the
 * layer is copied when nothing it shows changed, shifted when only the
 * camera moved by whole pixels (only the strips that came into view drawn),
 * and drawn again in full the moment anything else did. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <SDL.h>
#include <SDL_ttf.h>

#include "io/fileio.h"
#include "ui/camera.h"
#include "ui/draw.h"
#include "ui/lod.h"

#define SW 640
#define SH 480

static const hex_layout_t LAYOUTS[4] = {
    {HEX_POINTY, HEX_ODD}, {HEX_POINTY, HEX_EVEN}, {HEX_FLAT, HEX_ODD}, {HEX_FLAT, HEX_EVEN}};

static void add_type(map_t *m, const char *name, uint32_t rgb, const char *texture)
{
    terrain_t *t = &m->types[m->n_types++];
    hb_strlcpy(t->name, name, sizeof t->name);
    t->move = 1;
    t->color = rgb;
    if (texture) hb_strlcpy(t->texture, texture, sizeof t->texture);
}

/* cols x rows of mixed terrain (one type textured) and a few tokens. */
static map_t *mixed_map(hex_layout_t lay, int cols, int rows)
{
    map_t *m = map_create(cols, rows);
    assert_non_null(m);
    m->layout = lay;
    add_type(m, "open", 0x7a9a5a, NULL);
    add_type(m, "wall", 0x505058, NULL);
    add_type(m, "water", 0x3060a0, "textures/water.png");
    add_type(m, "brush", 0x5a7a3a, NULL);
    uint64_t s = 99;
    for (int k = 0; k < cols * rows; k++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)(s >> 33) % 10;
        m->cells[k] = (uint8_t)(r < 6 ? 0 : r - 6);
    }
    m->combatants = calloc(4, sizeof *m->combatants);
    assert_non_null(m->combatants);
    for (int i = 0; i < 3; i++) {
        map_combatant_t *c = &m->combatants[i];
        snprintf(c->id, sizeof c->id, "c%d", i);
        snprintf(c->name, sizeof c->name, "Unit %d", i);
        hb_strlcpy(c->faction, i ? "raiders" : "players", sizeof c->faction);
        c->kind = KIND_CREATURE;
        c->size = SIZE_MEDIUM;
        c->hp = c->hp_max = 10;
        c->at = (cell_t){1 + 2 * i, 1 + i};
    }
    m->n_combatants = 3;
    return m;
}

/* A surface, a software renderer on it and a drawer; the drawer caches its
 * static layer or not. */
typedef struct {
    SDL_Surface *surf;
    SDL_Renderer *r;
    ui_draw_t *d;
} rig_t;

static rig_t rig_make(const map_t *m, bool cache)
{
    rig_t g;
    g.surf = SDL_CreateRGBSurfaceWithFormat(0, SW, SH, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(g.surf);
    g.r = SDL_CreateSoftwareRenderer(g.surf);
    assert_non_null(g.r);
    char err[256];
    g.d = ui_draw_create(g.r, m, err, sizeof err);
    assert_non_null(g.d);
    ui_draw_cache_static(g.d, cache);
    return g;
}

static void rig_free(rig_t *g)
{
    ui_draw_destroy(g->d);
    SDL_DestroyRenderer(g->r);
    SDL_FreeSurface(g->surf);
}

static void frame(rig_t *g, const map_t *m, const ui_camera_t *cam, int w, int h, cell_t hover)
{
    ui_frame_opts_t fo = {.hover = true, .hover_cell = hover};
    ui_draw_map(g->d, m, cam, w, h, &fo);
    SDL_RenderPresent(g->r);
}

/* Pixels of a and b that differ in the w x h view (what lies beyond it is
 * not the drawer's: the window's view is the whole window). */
static long differ(const SDL_Surface *a, const SDL_Surface *b, int w, int h)
{
    long n = 0;
    for (int y = 0; y < h; y++) {
        const Uint32 *pa = (const Uint32 *)((const Uint8 *)a->pixels + y * a->pitch);
        const Uint32 *pb = (const Uint32 *)((const Uint8 *)b->pixels + y * b->pitch);
        for (int x = 0; x < w; x++)
            n += pa[x] != pb[x];
    }
    return n;
}

/* Both rigs draw the frame; the cached one must match the fresh one. */
static void same_frame(rig_t *cached, rig_t *fresh, const map_t *m, const ui_camera_t *cam, int w,
                       int h, cell_t hover)
{
    frame(cached, m, cam, w, h, hover);
    frame(fresh, m, cam, w, h, hover);
    assert_int_equal(differ(cached->surf, fresh->surf, w, h), 0);
    assert_int_equal(ui_draw_last_hexes(cached->d), ui_draw_last_hexes(fresh->d));
}

static Uint32 pixel(const SDL_Surface *s, vec2_t p)
{
    return ((const Uint32 *)((const Uint8 *)s->pixels + (int)p.y * s->pitch))[(int)p.x];
}

/* One layout at one zoom: draw, draw again, edit the terrain, change a type,
 * pan, zoom, resize. */
static void run_story(hex_layout_t lay, double zoom)
{
    map_t *m = mixed_map(lay, 14, 10);
    rig_t c = rig_make(m, true), f = rig_make(m, false);
    ui_camera_t cam = ui_cam_for_image(m, SW, SH);
    if (zoom > 0) cam.zoom = zoom;
    cell_t hv = {2, 2};
    same_frame(&c, &f, m, &cam, SW, SH, hv);
    int n = ui_draw_static_redraws(c.d);
    assert_int_equal(n, 1);
    /* Nothing the layer shows changed: copied, not drawn; the hover moved. */
    same_frame(&c, &f, m, &cam, SW, SH, (cell_t){3, 2});
    assert_int_equal(ui_draw_static_redraws(c.d), n);

    /* An edit of one hex shows at once, and back again. */
    cell_t at = {5, 4};
    int idx = map_index(m, at);
    uint8_t was = m->cells[idx];
    vec2_t p = ui_cam_to_screen(&cam, ui_cell_center(m, at));
    Uint32 before = pixel(c.surf, p);
    m->cells[idx] = was == 1 ? 3 : 1;
    same_frame(&c, &f, m, &cam, SW, SH, hv);
    assert_int_equal(ui_draw_static_redraws(c.d), ++n);
    assert_true(pixel(c.surf, p) != before);
    m->cells[idx] = was;
    same_frame(&c, &f, m, &cam, SW, SH, hv);
    assert_int_equal(ui_draw_static_redraws(c.d), ++n);
    assert_true(pixel(c.surf, p) == before);

    /* A terrain type's colour. */
    m->types[0].color = 0x9a7a5a;
    same_frame(&c, &f, m, &cam, SW, SH, hv);
    assert_int_equal(ui_draw_static_redraws(c.d), ++n);

    /* Pan by a pixel: shifted, not drawn again - but for the whole-map image
     * of tiny hexes, which is drawn from the camera as it is. */
    int shifts = ui_draw_static_shifts(c.d);
    assert_int_equal(shifts, 0);
    ui_cam_pan(&cam, 1, 0);
    same_frame(&c, &f, m, &cam, SW, SH, hv);
    if (cam.zoom >= UI_LOD_ZOOM) {
        assert_int_equal(ui_draw_static_shifts(c.d), ++shifts);
        assert_int_equal(ui_draw_static_redraws(c.d), n);
    } else {
        assert_int_equal(ui_draw_static_redraws(c.d), ++n);
    }
    /* Zoom, a smaller view. */
    ui_cam_zoom_at(&cam, (vec2_t){SW / 2.0, SH / 2.0}, 1.25);
    same_frame(&c, &f, m, &cam, SW, SH, hv);
    assert_int_equal(ui_draw_static_redraws(c.d), ++n);
    same_frame(&c, &f, m, &cam, SW - 100, SH - 60, hv);
    assert_int_equal(ui_draw_static_redraws(c.d), ++n);
    same_frame(&c, &f, m, &cam, SW - 100, SH - 60, (cell_t){4, 4});
    assert_int_equal(ui_draw_static_redraws(c.d), n);

    rig_free(&c);
    rig_free(&f);
    map_destroy(m);
}

/* Every layout at the zooms that draw the terrain differently: 1-px grid
 * lines, band grid with textures, and the whole-map image of tiny hexes. */
static void test_cached_matches_fresh(void **state)
{
    (void)state;
    assert_int_equal(TTF_Init(), 0);
    const double zooms[] = {0, 8.0, 30.0, UI_LOD_ZOOM * 0.5};
    for (int l = 0; l < 4; l++)
        for (size_t z = 0; z < sizeof zooms / sizeof zooms[0]; z++)
            run_story(LAYOUTS[l], zooms[z]);
    TTF_Quit();
}

/* ---- pans ----------------------------------------------------------------
 *
 * A walk: a cached and an uncached drawer draw every frame of a camera's
 * path, and each frame must be the same pixel for pixel, whatever the
 * cache did - copied its picture, shifted it, or drew it again. */

enum { COPIED, SHIFTED, REDRAWN, NOT_SHIFTED };

typedef struct {
    rig_t c, f;
    map_t *m;
    ui_camera_t cam;
    int w, h;
    int redraws, shifts, frames;
} walk_t;

static void walk_start(walk_t *k, hex_layout_t lay, int cols, int rows, int w, int h)
{
    k->m = mixed_map(lay, cols, rows);
    k->c = rig_make(k->m, true);
    k->f = rig_make(k->m, false);
    k->w = w;
    k->h = h;
    k->cam = ui_cam_for_image(k->m, w, h);
    k->redraws = k->shifts = k->frames = 0;
}

static void walk_end(walk_t *k)
{
    rig_free(&k->c);
    rig_free(&k->f);
    map_destroy(k->m);
}

/* One frame; the cache must have done what `expect` says. */
static void walk_frame(walk_t *k, int expect)
{
    int n = k->m->cols * k->m->rows, at = (k->frames++ * 37) % n;
    same_frame(&k->c, &k->f, k->m, &k->cam, k->w, k->h, (cell_t){at % k->m->cols, at / k->m->cols});
    int r = ui_draw_static_redraws(k->c.d), s = ui_draw_static_shifts(k->c.d);
    if (expect != NOT_SHIFTED) assert_int_equal(r - k->redraws, expect == REDRAWN);
    assert_int_equal(s - k->shifts, expect == SHIFTED);
    k->redraws = r;
    k->shifts = s;
}

/* Pan by (dx, dy) screen pixels, as a drag or the arrow keys do. */
static void walk_pan(walk_t *k, double dx, double dy, int expect)
{
    ui_cam_pan(&k->cam, dx, dy);
    walk_frame(k, expect);
}

/* One layout at one zoom, the map's corner in view: pans of one pixel each
 * way, of several, diagonal ones, of nearly the whole view and of more than
 * it; pans of a fraction of a pixel; pans that take the map out of view and
 * back; edits and zooms in between. */
static void pan_story(hex_layout_t lay, double zoom)
{
    walk_t k;
    walk_start(&k, lay, 40, 30, SW, SH);
    k.cam.zoom = zoom;
    k.cam.x = -3.0 - 17.0 / zoom;
    k.cam.y = -2.0 - 23.0 / zoom;
    walk_frame(&k, REDRAWN);
    walk_frame(&k, COPIED);
    const int one[][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
    for (int i = 0; i < 8; i++)
        walk_pan(&k, one[i][0], one[i][1], SHIFTED);
    const int some[][2] = {{5, 0},    {0, -7},  {3, 4},   {-6, -2},   {17, -11},
                           {-40, 33}, {2, 150}, {-97, 1}, {-1, -151}, {128, 64}};
    for (int i = 0; i < 10; i++)
        walk_pan(&k, some[i][0], some[i][1], SHIFTED);
    /* Nearly the whole view, each way; then the whole view and more. */
    walk_pan(&k, SW - 1, 0, SHIFTED);
    walk_pan(&k, -(SW - 1), 0, SHIFTED);
    walk_pan(&k, 0, SH - 1, SHIFTED);
    walk_pan(&k, 3, -(SH - 1), SHIFTED);
    walk_pan(&k, SW, 0, REDRAWN);
    walk_pan(&k, -SW, SH + 9, REDRAWN);
    walk_pan(&k, 0, -(SH + 9), REDRAWN);
    /* The map out of view to the right and below, then back. */
    for (int i = 0; i < 4; i++)
        walk_pan(&k, -(SW / 2 - 3), -(SH / 3), SHIFTED);
    for (int i = 0; i < 4; i++)
        walk_pan(&k, SW / 2 - 3, SH / 3, SHIFTED);
    /* Fractions of a pixel move the layer's grid: drawn again, exactly;
     * whole pixels after that shift again. */
    walk_pan(&k, 0.5, 0, REDRAWN);
    walk_pan(&k, 2, -1, SHIFTED);
    walk_pan(&k, 0.25, 0.375, REDRAWN);
    walk_pan(&k, 0.3, -0.7, REDRAWN);
    walk_pan(&k, -4, 9, SHIFTED);
    /* A billionth of a pixel: the very same picture (copied), or, should it
     * cross a step of the layer's grid, drawn again - exactly either way. */
    walk_pan(&k, 1e-9, -1e-9, NOT_SHIFTED);
    /* An edit and a pan together draw again; the pan after shifts. */
    k.m->cells[map_index(k.m, (cell_t){6, 5})] ^= 1;
    walk_pan(&k, 2, 2, REDRAWN);
    walk_pan(&k, -3, 1, SHIFTED);
    k.m->types[1].color ^= 0x102030;
    walk_frame(&k, REDRAWN);
    walk_pan(&k, 1, 0, SHIFTED);
    /* A zoom draws again; pans at the new zoom shift. */
    ui_cam_zoom_at(&k.cam, (vec2_t){SW / 3.0, SH / 2.0}, 1.1);
    walk_frame(&k, REDRAWN);
    walk_pan(&k, -1, 0, SHIFTED);
    walk_pan(&k, 12, -12, SHIFTED);
    walk_end(&k);
}

/* Every layout at the zooms that draw the terrain differently: thin and
 * thicker 1-px grid lines, textures, band grid lines with and without
 * textures. */
static void test_pans_match_fresh(void **state)
{
    (void)state;
    assert_int_equal(TTF_Init(), 0);
    const double zooms[] = {5.5, 8.0, 11.3, 17.0, 30.0, 61.7};
    for (int l = 0; l < 4; l++)
        for (size_t z = 0; z < sizeof zooms / sizeof zooms[0]; z++)
            pan_story(LAYOUTS[l], zooms[z]);
    TTF_Quit();
}

static uint32_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* A seeded random walk on a view of odd size: pans of every length, some
 * of fractions of a pixel, zooms (now and then into the whole-map image of
 * tiny hexes), edits. Every frame is compared; the cache shifts exactly
 * when the camera moved by whole pixels, less than the view, at a zoom
 * that draws hexes one by one, with nothing else changed. */
static void test_random_walk(void **state)
{
    (void)state;
    assert_int_equal(TTF_Init(), 0);
    for (int l = 0; l < 4; l++) {
        uint64_t s = 1234 + (uint64_t)l;
        walk_t k;
        walk_start(&k, LAYOUTS[l], 36, 27, SW - 3, SH - 7);
        k.cam.zoom = 9.0;
        walk_frame(&k, REDRAWN);
        for (int i = 0; i < 120; i++) {
            uint32_t r = rnd(&s) % 100;
            if (r < 60) { /* whole pixels: short, medium or long */
                int reach = r < 25 ? 3 : r < 45 ? 60 : SW + 40;
                int dx = (int)(rnd(&s) % (uint32_t)(2 * reach + 1)) - reach;
                int dy = (int)(rnd(&s) % (uint32_t)(2 * reach + 1)) - reach;
                /* Keep the map about the view. */
                vec2_t mid = ui_cam_to_screen(&k.cam, ui_cell_center(k.m, (cell_t){18, 13}));
                if (mid.x < -SW / 2.0 && dx > 0) dx = -dx;
                if (mid.x > 1.5 * SW && dx < 0) dx = -dx;
                if (mid.y < -SH / 2.0 && dy > 0) dy = -dy;
                if (mid.y > 1.5 * SH && dy < 0) dy = -dy;
                bool small = abs(dx) < k.w && abs(dy) < k.h;
                int expect = dx == 0 && dy == 0                   ? COPIED
                             : small && k.cam.zoom >= UI_LOD_ZOOM ? SHIFTED
                                                                  : REDRAWN;
                walk_pan(&k, dx, dy, expect);
            } else if (r < 70) { /* a fraction of a pixel */
                walk_pan(&k, (rnd(&s) % 7 + 1) / 8.0, -((rnd(&s) % 3) / 4.0), REDRAWN);
            } else if (r < 82) { /* a zoom, about a point of the view */
                double f = r < 72 ? 0.5 : r < 77 ? 0.9 : 1.15;
                if (k.cam.zoom * f < 3.0 || k.cam.zoom * f > 70.0) f = 1.0 / f;
                ui_cam_zoom_at(&k.cam, (vec2_t){rnd(&s) % SW, rnd(&s) % SH}, f);
                walk_frame(&k, REDRAWN);
            } else if (r < 92) { /* an edit */
                int at = (int)(rnd(&s) % (uint32_t)(k.m->cols * k.m->rows));
                k.m->cells[at] = (uint8_t)((k.m->cells[at] + 1) % k.m->n_types);
                walk_frame(&k, REDRAWN);
            } else {
                walk_frame(&k, COPIED);
            }
        }
        /* The walk went everywhere it should have. */
        assert_true(k.shifts > 35);
        assert_true(k.redraws > 30);
        walk_end(&k);
    }
    TTF_Quit();
}

/* The window draws under a clip rectangle, the projector into a texture of
 * its own; a render scale skips the cache (drawn afresh every frame). */
static void test_clip_scale_and_targets(void **state)
{
    (void)state;
    assert_int_equal(TTF_Init(), 0);
    map_t *m = mixed_map(LAYOUTS[0], 14, 10);
    rig_t c = rig_make(m, true), f = rig_make(m, false);
    ui_camera_t cam = ui_cam_for_image(m, SW, SH);
    SDL_Rect clip = {40, 30, 300, 200};
    SDL_RenderSetClipRect(c.r, &clip);
    SDL_RenderSetClipRect(f.r, &clip);
    same_frame(&c, &f, m, &cam, SW, SH, (cell_t){2, 2});
    same_frame(&c, &f, m, &cam, SW, SH, (cell_t){3, 2});
    assert_int_equal(ui_draw_static_redraws(c.d), 1);
    SDL_RenderSetClipRect(c.r, NULL);
    SDL_RenderSetClipRect(f.r, NULL);
    same_frame(&c, &f, m, &cam, SW, SH, (cell_t){3, 2});
    assert_int_equal(ui_draw_static_redraws(c.d), 1);

    SDL_RenderSetScale(c.r, 2, 2);
    SDL_RenderSetScale(f.r, 2, 2);
    same_frame(&c, &f, m, &cam, SW / 2, SH / 2, (cell_t){3, 2});
    same_frame(&c, &f, m, &cam, SW / 2, SH / 2, (cell_t){3, 2});
    assert_int_equal(ui_draw_static_redraws(c.d), 3);
    SDL_RenderSetScale(c.r, 1, 1);
    SDL_RenderSetScale(f.r, 1, 1);

    /* Into a texture of the caller's (the projector turns its picture so),
     * under a viewport and a clip: cached too, and both come back. */
    SDL_Texture *tc = SDL_CreateTexture(c.r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, SW,
                                        SH);
    SDL_Texture *tf = SDL_CreateTexture(f.r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, SW,
                                        SH);
    assert_non_null(tc);
    assert_non_null(tf);
    Uint32 *pc = calloc((size_t)SW * SH, 4), *pf = calloc((size_t)SW * SH, 4);
    assert_non_null(pc);
    assert_non_null(pf);
    SDL_Rect vp = {20, 10, SW - 40, SH - 20}, cl = {30, 20, 200, 150};
    for (int k = 0; k < 3; k++) {
        rig_t *g[2] = {&c, &f};
        SDL_Texture *t[2] = {tc, tf};
        Uint32 *px[2] = {pc, pf};
        for (int j = 0; j < 2; j++) {
            SDL_SetRenderTarget(g[j]->r, t[j]);
            SDL_SetRenderDrawColor(g[j]->r, 0, 0, 0, 255);
            SDL_RenderClear(g[j]->r);
            SDL_RenderSetViewport(g[j]->r, &vp);
            SDL_RenderSetClipRect(g[j]->r, k == 2 ? &cl : NULL);
            ui_frame_opts_t fo = {.hover = true, .hover_cell = {k, 2}};
            ui_draw_map(g[j]->d, m, &cam, vp.w, vp.h, &fo);
            SDL_Rect now;
            SDL_RenderGetViewport(g[j]->r, &now);
            assert_memory_equal(&now, &vp, sizeof vp);
            assert_int_equal(SDL_RenderIsClipEnabled(g[j]->r), k == 2);
            SDL_RenderSetViewport(g[j]->r, NULL);
            assert_int_equal(SDL_RenderReadPixels(g[j]->r, NULL, SDL_PIXELFORMAT_ARGB8888, px[j],
                                                  SW * 4),
                             0);
            SDL_SetRenderTarget(g[j]->r, NULL);
        }
        assert_memory_equal(pc, pf, (size_t)SW * SH * 4);
    }
    /* One redraw: the view's size changed (and the target's format did not). */
    assert_int_equal(ui_draw_static_redraws(c.d), 4);
    free(pc);
    free(pf);
    SDL_DestroyTexture(tc);
    SDL_DestroyTexture(tf);

    /* Switching the cache off draws afresh; on again draws once more. */
    ui_draw_cache_static(c.d, false);
    same_frame(&c, &f, m, &cam, SW, SH, (cell_t){3, 2});
    assert_int_equal(ui_draw_static_redraws(c.d), 5);
    ui_draw_cache_static(c.d, true);
    same_frame(&c, &f, m, &cam, SW, SH, (cell_t){3, 2});
    same_frame(&c, &f, m, &cam, SW, SH, (cell_t){4, 2});
    assert_int_equal(ui_draw_static_redraws(c.d), 6);
    rig_free(&c);
    rig_free(&f);
    map_destroy(m);
    TTF_Quit();
}

/* Pans under the window's clip rectangle, and into a caller's texture under
 * a viewport and a clip (the projector): shifted as in the window, the same
 * as fresh frames, the caller's viewport and clip given back. At a zoom of
 * 1-px grid lines, which cross the clip's edges. */
static void test_pans_clipped_and_in_texture(void **state)
{
    (void)state;
    assert_int_equal(TTF_Init(), 0);
    walk_t k;
    walk_start(&k, LAYOUTS[1], 40, 30, SW, SH);
    k.cam.zoom = 9.5;
    k.cam.x = -2.0;
    k.cam.y = -1.5;
    SDL_Rect clip = {41, 29, 301, 203};
    SDL_RenderSetClipRect(k.c.r, &clip);
    SDL_RenderSetClipRect(k.f.r, &clip);
    walk_frame(&k, REDRAWN);
    walk_pan(&k, 1, 0, SHIFTED);
    walk_pan(&k, -7, 5, SHIFTED);
    walk_pan(&k, 30, -44, SHIFTED);
    SDL_RenderSetClipRect(k.c.r, NULL);
    SDL_RenderSetClipRect(k.f.r, NULL);
    walk_pan(&k, 0, 1, SHIFTED);

    SDL_Texture *t[2];
    for (int j = 0; j < 2; j++) {
        t[j] = SDL_CreateTexture(j ? k.f.r : k.c.r, SDL_PIXELFORMAT_ARGB8888,
                                 SDL_TEXTUREACCESS_TARGET, SW, SH);
        assert_non_null(t[j]);
    }
    Uint32 *px[2] = {calloc((size_t)SW * SH, 4), calloc((size_t)SW * SH, 4)};
    assert_non_null(px[0]);
    assert_non_null(px[1]);
    SDL_Rect vp = {20, 10, SW - 40, SH - 20}, cl = {33, 21, 203, 151};
    const int pans[][2] = {{0, 0}, {1, 0}, {0, -1}, {-9, 4}, {0, 0}, {50, 31}, {-3, -3}};
    for (int i = 0; i < 7; i++) {
        ui_cam_pan(&k.cam, pans[i][0], pans[i][1]);
        bool clipped = i >= 4;
        rig_t *g[2] = {&k.c, &k.f};
        for (int j = 0; j < 2; j++) {
            SDL_SetRenderTarget(g[j]->r, t[j]);
            SDL_SetRenderDrawColor(g[j]->r, 0, 0, 0, 255);
            SDL_RenderClear(g[j]->r);
            SDL_RenderSetViewport(g[j]->r, &vp);
            SDL_RenderSetClipRect(g[j]->r, clipped ? &cl : NULL);
            ui_frame_opts_t fo = {.hover = true, .hover_cell = {i, 2}};
            ui_draw_map(g[j]->d, k.m, &k.cam, vp.w, vp.h, &fo);
            SDL_Rect now, cnow;
            SDL_RenderGetViewport(g[j]->r, &now);
            assert_memory_equal(&now, &vp, sizeof vp);
            assert_int_equal(SDL_RenderIsClipEnabled(g[j]->r), clipped);
            if (clipped) {
                SDL_RenderGetClipRect(g[j]->r, &cnow);
                assert_memory_equal(&cnow, &cl, sizeof cl);
            }
            SDL_RenderSetViewport(g[j]->r, NULL);
            assert_int_equal(
                SDL_RenderReadPixels(g[j]->r, NULL, SDL_PIXELFORMAT_ARGB8888, px[j], SW * 4), 0);
            SDL_SetRenderTarget(g[j]->r, NULL);
        }
        assert_memory_equal(px[0], px[1], (size_t)SW * SH * 4);
        /* The first frame into the texture: a new view size, drawn in full;
         * whole-pixel pans after it shift. */
        int r = ui_draw_static_redraws(k.c.d), s = ui_draw_static_shifts(k.c.d);
        assert_int_equal(r - k.redraws, i == 0);
        assert_int_equal(s - k.shifts, pans[i][0] != 0 || pans[i][1] != 0 ? i > 0 : 0);
        k.redraws = r;
        k.shifts = s;
    }
    free(px[0]);
    free(px[1]);
    SDL_DestroyTexture(t[0]);
    SDL_DestroyTexture(t[1]);
    walk_end(&k);
    TTF_Quit();
}

/* A window's software renderer (the play window's when there is no GPU),
 * which draws lines through SDL's point method rather than the line method
 * of a renderer on a surface: whole-pixel pans shift there too, and every
 * frame is the one an uncached drawer in a window of its own draws. */
static void test_pans_in_a_window(void **state)
{
    (void)state;
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    map_t *m = mixed_map(LAYOUTS[0], 40, 30);
    SDL_Window *win[2];
    SDL_Renderer *r[2];
    ui_draw_t *d[2];
    char err[256];
    for (int j = 0; j < 2; j++) {
        win[j] = SDL_CreateWindow("still", 0, 0, SW, SH, SDL_WINDOW_HIDDEN);
        assert_non_null(win[j]);
        r[j] = SDL_CreateRenderer(win[j], -1, SDL_RENDERER_SOFTWARE);
        assert_non_null(r[j]);
        d[j] = ui_draw_create(r[j], m, err, sizeof err);
        assert_non_null(d[j]);
        ui_draw_cache_static(d[j], j == 0);
    }
    Uint32 *px[2] = {calloc((size_t)SW * SH, 4), calloc((size_t)SW * SH, 4)};
    assert_non_null(px[0]);
    assert_non_null(px[1]);
    ui_camera_t cam = {-2.5, -1.25, 7.5};
    const int pans[][2] = {{0, 0}, {1, 0}, {0, 1}, {-1, -1}, {13, -7}, {-150, 90}, {2, 2}};
    for (int i = 0; i < 7; i++) {
        ui_cam_pan(&cam, pans[i][0], pans[i][1]);
        for (int j = 0; j < 2; j++) {
            ui_frame_opts_t fo = {.hover = true, .hover_cell = {i, 3}};
            ui_draw_map(d[j], m, &cam, SW, SH, &fo);
            assert_int_equal(
                SDL_RenderReadPixels(r[j], NULL, SDL_PIXELFORMAT_ARGB8888, px[j], SW * 4), 0);
            SDL_RenderPresent(r[j]);
        }
        assert_memory_equal(px[0], px[1], (size_t)SW * SH * 4);
        long map_px = 0; /* the map covers a good part of the view */
        for (long k = 0; k < (long)SW * SH; k++)
            map_px += px[0][k] != px[0][0];
        assert_true(map_px > (long)SW * SH / 4);
        assert_int_equal(ui_draw_static_shifts(d[0]), i);
        assert_int_equal(ui_draw_static_redraws(d[0]), 1);
    }
    for (int j = 0; j < 2; j++) {
        free(px[j]);
        ui_draw_destroy(d[j]);
        SDL_DestroyRenderer(r[j]);
        SDL_DestroyWindow(win[j]);
    }
    map_destroy(m);
    TTF_Quit();
    SDL_Quit();
}

/* A renderer that drops its target textures (SDL_RENDER_TARGETS_RESET)
 * makes the next frame draw the layer again. */
static void test_targets_reset(void **state)
{
    (void)state;
    assert_int_equal(SDL_Init(SDL_INIT_EVENTS), 0);
    assert_int_equal(TTF_Init(), 0);
    map_t *m = mixed_map(LAYOUTS[2], 14, 10);
    rig_t c = rig_make(m, true), f = rig_make(m, false);
    ui_camera_t cam = ui_cam_for_image(m, SW, SH);
    same_frame(&c, &f, m, &cam, SW, SH, (cell_t){2, 2});
    same_frame(&c, &f, m, &cam, SW, SH, (cell_t){2, 3});
    assert_int_equal(ui_draw_static_redraws(c.d), 1);
    SDL_Event e = {0};
    e.type = SDL_RENDER_TARGETS_RESET;
    assert_true(SDL_PushEvent(&e) >= 0);
    same_frame(&c, &f, m, &cam, SW, SH, (cell_t){2, 3});
    assert_int_equal(ui_draw_static_redraws(c.d), 2);
    rig_free(&c);
    rig_free(&f);
    map_destroy(m);
    TTF_Quit();
    SDL_Quit();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cached_matches_fresh),
        cmocka_unit_test(test_pans_match_fresh),
        cmocka_unit_test(test_random_walk),
        cmocka_unit_test(test_clip_scale_and_targets),
        cmocka_unit_test(test_pans_clipped_and_in_texture),
        cmocka_unit_test(test_pans_in_a_window),
        cmocka_unit_test(test_targets_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
