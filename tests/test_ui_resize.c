/* test_ui_resize.c - the play window resized by a synthetic SDL event: the
 * panels are laid out again, the map area never overlaps them, a fitted map
 * is fitted again, and a panned or zoomed view keeps the map in sight. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <SDL.h>

#include "rules_fixture.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1200
#define VIEW_H 800

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    pui_t *p;
    hud_t hud;
    ui_state_t st;
} ui_fx_t;

static int setup(void **state)
{
    ui_fx_t *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->m = fx_map(24, 14, "xhalem", NULL);
    f->db = fx_db("xhalem");
    fx_weapon(f->db, "blade", WPN_MELEE, false, 5, 0, 1, 8, 0, NULL);
    fx_add(f->m, "kara", "players", 1, 3, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "blade",
           "agility=3,evasion=30,strength=1");
    fx_add(f->m, "grunt", "raiders", 20, 10, KIND_CREATURE, SIZE_MEDIUM, 12, 30, "blade",
           "agility=0,evasion=-10");
    f->p = malloc(sizeof *f->p);
    assert_non_null(f->p);
    assert_int_equal(pui_start(f->p, f->m, f->db, 42), BATTLE_OK);
    assert_true(hud_init(&f->hud, f->p));
    fx_state_fit(&f->st, &f->hud, f->m, VIEW_W, VIEW_H);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    ui_fx_t *f = *state;
    hud_free(&f->hud);
    pui_free(f->p);
    free(f->p);
    map_destroy(f->m);
    free(f->db);
    free(f);
    return 0;
}

static bool overlap(SDL_Rect a, SDL_Rect b)
{
    return a.w > 0 && a.h > 0 && b.w > 0 && b.h > 0 && a.x < b.x + b.w && b.x < a.x + a.w &&
           a.y < b.y + b.h && b.y < a.y + a.h;
}

/* The map's box on screen. */
static SDL_Rect map_on_screen(const ui_fx_t *f)
{
    vec2_t lo = ui_cam_to_screen(&f->st.cam, (vec2_t){f->st.bounds.x0, f->st.bounds.y0});
    vec2_t hi = ui_cam_to_screen(&f->st.cam, (vec2_t){f->st.bounds.x1, f->st.bounds.y1});
    return (SDL_Rect){(int)floor(lo.x), (int)floor(lo.y), (int)ceil(hi.x - lo.x),
                      (int)ceil(hi.y - lo.y)};
}

static bool inside(SDL_Rect in, SDL_Rect out)
{
    return in.x >= out.x && in.y >= out.y && in.x + in.w <= out.x + out.w &&
           in.y + in.h <= out.y + out.h;
}

/* The window reports a new size; the loop reads the drawable size and
 * hands it over, as run_window does. */
static void resize(ui_fx_t *f, int w, int h)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_WINDOWEVENT;
    e.window.event = SDL_WINDOWEVENT_SIZE_CHANGED;
    e.window.data1 = w;
    e.window.data2 = h;
    f->st.resized = false;
    ui_handle_event(&f->st, &e);
    assert_true(f->st.resized);
    ui_state_resize(&f->st, w, h, 1.0);
    f->st.resized = false;
}

/* The map area between the panels, checked against each panel and the view. */
static void assert_area_clear(const ui_fx_t *f, int w, int h)
{
    const hud_layout_t *l = &f->hud.lay;
    SDL_Rect a = f->st.area;
    assert_memory_equal(&a, &l->map, sizeof a); /* the state uses the new layout */
    assert_true(a.w >= w / 2 && a.h > h / 2);
    assert_true(inside(a, (SDL_Rect){0, 0, w, h}));
    assert_false(overlap(a, l->tracker));
    assert_false(overlap(a, l->log));
    assert_false(overlap(a, l->bar));
    assert_false(overlap(a, l->status));
}

/* A fitted map stays fitted: shrink, widen, shrink to the minimum. */
static void fitted_map_refits(void **state)
{
    ui_fx_t *f = *state;
    assert_true(inside(map_on_screen(f), f->st.area));
    const int sizes[][2] = {{700, 500}, {1600, 600}, {320, 240}, {1000, 1000}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        resize(f, w, h);
        assert_int_equal(f->st.view_w, w);
        assert_int_equal(f->st.view_h, h);
        assert_area_clear(f, w, h);
        SDL_Rect m = map_on_screen(f);
        assert_true(inside(m, f->st.area));
        /* Fitted, not merely inside: it fills one side of the area. */
        assert_true(m.w >= f->st.area.w * 0.8 || m.h >= f->st.area.h * 0.8);
    }
}

/* After the referee zooms in, a resize keeps that zoom and the spot in the
 * middle of the map area; panned far off, the map is pulled back in view. */
static void zoomed_view_kept_and_map_visible(void **state)
{
    ui_fx_t *f = *state;
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = SDLK_PLUS;
    ui_handle_event(&f->st, &e);
    ui_handle_event(&f->st, &e);
    double zoom = f->st.cam.zoom;
    SDL_Rect a = f->st.area;
    vec2_t mid = ui_cam_to_world(&f->st.cam, (vec2_t){a.x + a.w / 2.0, a.y + a.h / 2.0});
    resize(f, 900, 640);
    assert_area_clear(f, 900, 640);
    assert_true(fabs(f->st.cam.zoom - zoom) < 1e-9);
    a = f->st.area;
    vec2_t now = ui_cam_to_world(&f->st.cam, (vec2_t){a.x + a.w / 2.0, a.y + a.h / 2.0});
    assert_true(fabs(now.x - mid.x) < 1e-6 && fabs(now.y - mid.y) < 1e-6);
    assert_true(overlap(map_on_screen(f), f->st.area));

    /* Pan the map almost out of the area, then shrink the window: without a
     * pull back the map would be wholly outside the new area. */
    f->st.cam.x = f->st.bounds.x1 - (a.x + 10) / f->st.cam.zoom;
    resize(f, 500, 400);
    assert_area_clear(f, 500, 400);
    assert_true(overlap(map_on_screen(f), f->st.area));
    /* F fits the map again after all that. */
    e.key.keysym.sym = SDLK_f;
    ui_handle_event(&f->st, &e);
    assert_true(inside(map_on_screen(f), f->st.area));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fitted_map_refits, setup, teardown),
        cmocka_unit_test_setup_teardown(zoomed_view_kept_and_map_visible, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
