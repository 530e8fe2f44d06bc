/* test_ui_still.c - the drawer's cached static layer (draw.c, "The static
 * layer"): every frame drawn with the cache is the same, pixel for pixel, as
 * the frame a drawer without it draws, through edits of the terrain, terrain
 * type changes, pans, zooms, resizes, clip rectangles and render scales; the
 * layer is copied when nothing it shows changed and drawn again the moment
 * something did. */
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

    /* Pan by a pixel, zoom, a smaller view. */
    cam.x += 1.0 / cam.zoom;
    same_frame(&c, &f, m, &cam, SW, SH, hv);
    assert_int_equal(ui_draw_static_redraws(c.d), ++n);
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
        cmocka_unit_test(test_clip_scale_and_targets),
        cmocka_unit_test(test_targets_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
