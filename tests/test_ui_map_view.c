/* test_ui_map_view.c - the map dominates a small window (issue 34, item
 * 11), driven through the play window's event handler at 800x600: the
 * zoom has a floor (keys and wheel), panning has a limit (keys and a right
 * drag) so the map cannot leave the screen, and the odds panel (O) takes a
 * corner of the map that covers no token; and (item 10) a token's gauge
 * bars collapse to its HP bar once their stack would outgrow the token. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "io/map_io.h"
#include "ui/editor.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define W 800
#define H 600

/* maps/NAME.json after the AI's first moves, fitted for a W x H window. */
static void game_open(fx_game_t *g, const char *name)
{
    char file[256];
    snprintf(file, sizeof file, "%s.json", name);
    fx_game_open(g, file, 5, 0, 0);
    pui_run_ai(g->p, 200);
    anim_snap(&g->p->anim);
    fx_state_fit(&g->st, &g->hud, g->m, W, H);
}

/* The zoom at which the whole map just fits the map area. */
static double fit_zoom(const ui_state_t *st)
{
    const ui_rect_t *b = &st->bounds;
    double zx = st->area.w / (b->x1 - b->x0), zy = st->area.h / (b->y1 - b->y0);
    return zx < zy ? zx : zy;
}

/* The map point under the middle of the map area lies on the map. */
static bool middle_on_map(const ui_state_t *st)
{
    vec2_t c = ui_cam_to_world(
        &st->cam, (vec2_t){st->area.x + st->area.w / 2.0, st->area.y + st->area.h / 2.0});
    const ui_rect_t *b = &st->bounds;
    return c.x >= b->x0 - 1e-6 && c.x <= b->x1 + 1e-6 && c.y >= b->y0 - 1e-6 && c.y <= b->y1 + 1e-6;
}

static void wheel(ui_state_t *st, int notches, int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEWHEEL;
    e.wheel.y = notches;
#if SDL_VERSION_ATLEAST(2, 26, 0)
    e.wheel.mouseX = x;
    e.wheel.mouseY = y;
#endif
    fx_motion(st, x, y);
    ui_handle_event(st, &e);
}

static void test_zoom_floor_and_pan_limit(void **state)
{
    (void)state;
    fx_game_t g;
    game_open(&g, "ridge_ambush");
    ui_state_t *st = &g.st;
    assert_true(st->area.w > 0 && st->area.w >= W / 2); /* the panels folded at 800 */
    double fit = fit_zoom(st), z0 = st->cam.zoom;

    /* Zoomed out with '-': it goes down, then stops at the floor. */
    fx_key(st, SDLK_MINUS, 0);
    assert_true(st->cam.zoom < z0);
    for (int k = 0; k < 40; k++)
        fx_key(st, SDLK_MINUS, 0);
    assert_true(st->cam.zoom >= fit * UI_ZOOM_FLOOR - 1e-9);
    assert_true(st->cam.zoom <= fit * UI_ZOOM_FLOOR + 1e-6);
    assert_true(middle_on_map(st));
    /* The wheel stops there too, wherever the cursor is. */
    ui_state_fit(st);
    for (int k = 0; k < 40; k++)
        wheel(st, -1, st->area.x + 5, st->area.y + 5);
    assert_true(st->cam.zoom >= fit * UI_ZOOM_FLOOR - 1e-9);
    assert_true(middle_on_map(st));

    /* Panned with the arrow keys as far as they go, each way, zoomed in
     * and out: the middle of the map area stays over the map. */
    SDL_Keycode keys[4] = {SDLK_LEFT, SDLK_RIGHT, SDLK_UP, SDLK_DOWN};
    for (int zoomed = 0; zoomed < 2; zoomed++) {
        ui_state_fit(st);
        for (int k = 0; k < 6 * zoomed; k++)
            fx_key(st, SDLK_PLUS, 0);
        for (int d = 0; d < 4; d++) {
            for (int k = 0; k < 200; k++)
                fx_key(st, keys[d], 0);
            assert_true(middle_on_map(st));
        }
    }
    /* A right drag far off to the lower right: the same. */
    ui_state_fit(st);
    double x = st->area.x + st->area.w / 2.0, y = st->area.y + st->area.h / 2.0;
    fx_motion(st, (int)x, (int)y);
    fx_button(st, SDL_BUTTON_RIGHT, true, (int)x, (int)y);
    for (int k = 1; k <= 50; k++)
        fx_motion(st, (int)x - 60 * k, (int)y - 60 * k);
    fx_button(st, SDL_BUTTON_RIGHT, false, (int)x - 3000, (int)y - 3000);
    assert_true(middle_on_map(st));
    /* Some of the map is on screen: a hex centre inside the map area. */
    int seen = 0;
    for (int r = 0; r < g.m->rows; r++)
        for (int c = 0; c < g.m->cols; c++) {
            SDL_Point p = fx_cell_point(st, (cell_t){c, r});
            seen += p.x >= st->area.x && p.x < st->area.x + st->area.w && p.y >= st->area.y &&
                    p.y < st->area.y + st->area.h;
        }
    assert_true(seen >= g.m->rows * g.m->cols / 8);
    fx_game_close(&g);
}

/* The odds panel keeps off the tokens: with a token in the lower right
 * corner (where the panel goes first) it takes another corner. */
static void test_odds_panel_covers_no_token(void **state)
{
    (void)state;
    fx_game_t g;
    game_open(&g, "ridge_ambush");
    pui_t *p = g.p;
    battle_t *b = p->play.b;
    fx_key(&g.st, SDLK_o, 0);
    assert_true(g.hud.odds.open);
    /* Combatant 0 to the map's lower right hex, 1 to its lower left (when
     * free), where the panel would otherwise go. */
    cell_t lr = {g.m->cols - 1, g.m->rows - 1}, ll = {0, g.m->rows - 1};
    int there = board_occupant(b->board, hex_from_cell(g.m->layout, lr));
    if (there < 0) board_place(b->board, 0, hex_from_cell(g.m->layout, lr));
    if (board_occupant(b->board, hex_from_cell(g.m->layout, ll)) < 0)
        board_place(b->board, 1, hex_from_cell(g.m->layout, ll));
    assert_true(board_occupant(b->board, hex_from_cell(g.m->layout, lr)) >= 0);
    anim_snap(&p->anim);
    pui_refresh(p);
    ui_odds_frame(&g.hud.odds, p);
    ui_state_t st;
    SDL_Surface *s = fx_play_surface(p, &g.hud, W, H, "test_ui_map_view_odds.png", &st);
    SDL_FreeSurface(s);
    SDL_Rect box = g.hud.odds_box;
    assert_true(box.w > 0 && box.h > 0);
    for (int i = 0; i < b->n; i++) {
        if (!battle_active(b, i)) continue;
        SDL_Point at = fx_cell_point(&st, hex_to_cell(g.m->layout, b->board->pos[i]));
        int r = (int)ui_token_screen_radius(g.m->combatants[i].size, st.cam.zoom);
        SDL_Rect tok = {at.x - r, at.y - r, 2 * r, 2 * r};
        if (SDL_HasIntersection(&tok, &box))
            fail_msg("the odds panel covers %s", g.m->combatants[i].id);
    }
    fx_game_close(&g);
}

/* Draw g's window through camera zoom z centred on combatant who; the
 * frame is saved to png (may be NULL). */
static void draw_at(fx_game_t *g, double z, int who, const char *png)
{
    char err[256];
    ui_state_t *st = &g->st;
    vec2_t c = ui_cell_center(g->m, hex_to_cell(g->m->layout, g->p->play.b->board->pos[who]));
    st->cam.zoom = z;
    st->cam.x = c.x - (st->area.x + st->area.w / 2.0) / z;
    st->cam.y = c.y - (st->area.y + st->area.h / 2.0) / z;
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 1920, 1080, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(surf);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    ui_draw_t *d = ui_draw_create(r, g->m, err, sizeof err);
    assert_non_null(d);
    ui_window_draw(d, st);
    SDL_RenderPresent(r);
    if (png) assert_int_equal(IMG_SavePNG(surf, png), 0);
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
}

/* Scars' tokens carry three gauges past HP (strength, dexterity, will):
 * zoomed in they stack under the HP bar, never taller than the token's
 * radius; zoomed out to where the stack would outgrow the token (and cover
 * the neighbour below) they collapse to the HP bar alone. */
static void test_gauges_collapse_below_a_size(void **state)
{
    (void)state;
    fx_game_t g;
    game_open(&g, "salt_flats");
    const battle_t *b = g.p->play.b;
    fx_state_fit(&g.st, &g.hud, g.m, 1920, 1080);
    int who = g.p->actor >= 0 ? g.p->actor : 0;
    gauge_t gg[GAUGES_MAX];
    int n = ruleset_gauges(g.p->play.rs, b, who, gg, GAUGES_MAX);
    assert_true(n >= 4); /* HP first, then the three the map stacks under it */
    double zooms[6] = {60, 40, 28, 20, 14, 10};
    int stacked = 0, collapsed = 0;
    for (int k = 0; k < 6; k++) {
        char png[64];
        snprintf(png, sizeof png, "test_ui_map_view_gauges_%d.png", (int)zooms[k]);
        draw_at(&g, zooms[k], who, k == 0 || k == 5 ? png : NULL);
        SDL_Rect box = g.hud.gauge_box[who];
        double r = ui_token_screen_radius(g.m->combatants[who].size, zooms[k]);
        if (box.w > 0) {
            stacked++;
            assert_true(box.h <= r + 2); /* never past the token's own size */
        } else {
            collapsed++;
            /* Only once the stack would have outgrown the token. */
            double bh = zooms[k] * 0.09 > 3.0 ? zooms[k] * 0.09 : 3.0;
            assert_true((n - 1) * (bh + 2) > r);
        }
        /* Stacked at the large zooms, collapsed at the small ones, never
         * the other way round. */
        if (k > 0 && g.hud.gauge_box[who].w > 0) assert_int_equal(collapsed, 0);
    }
    assert_true(stacked > 0);
    assert_true(collapsed > 0);
    fx_game_close(&g);
}

/* The editor's view keeps the same floor and limit: '-' and the wheel stop
 * at half the fitted size, a long right drag leaves the map under the
 * middle of the area between the palette and the panel. */
static void test_editor_zoom_floor_and_pan_limit(void **state)
{
    (void)state;
    char path[1024], data[512], err[512];
    snprintf(path, sizeof path, "%s/../../maps/ridge_ambush.json", HB_TEST_DATA);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load(path, data, &m, &db, err, sizeof err), 0);
    ed_state_t *s = calloc(1, sizeof *s);
    assert_non_null(s);
    int vw = 1280, vh = 720;
    ed_init(s, m, db, NULL, vw, vh);
    ui_rect_t b = ui_map_bounds(m);
    double aw = vw - ED_PALETTE_W - ED_PANEL_W, ax = ED_PALETTE_W;
    double fit = fmin(aw / (b.x1 - b.x0), vh / (b.y1 - b.y0));
    SDL_Event e;
    for (int k = 0; k < 40; k++) {
        memset(&e, 0, sizeof e);
        e.type = SDL_KEYDOWN;
        e.key.keysym.sym = SDLK_MINUS;
        ed_handle_event(s, &e);
        memset(&e, 0, sizeof e);
        e.type = SDL_MOUSEWHEEL;
        e.wheel.y = -1;
        ed_handle_event(s, &e);
    }
    assert_true(s->cam.zoom >= fit * UI_ZOOM_FLOOR - 1e-9);
    ed_fit(s);
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_RIGHT;
    e.button.x = (int)(ax + aw / 2);
    e.button.y = vh / 2;
    ed_handle_event(s, &e);
    for (int k = 1; k <= 60; k++) {
        memset(&e, 0, sizeof e);
        e.type = SDL_MOUSEMOTION;
        e.motion.x = (int)(ax + aw / 2) + 50 * k;
        e.motion.y = vh / 2 + 50 * k;
        ed_handle_event(s, &e);
    }
    vec2_t c = ui_cam_to_world(&s->cam, (vec2_t){ax + aw / 2.0, vh / 2.0});
    assert_true(c.x >= b.x0 - 1e-6 && c.x <= b.x1 + 1e-6 && c.y >= b.y0 - 1e-6 &&
                c.y <= b.y1 + 1e-6);
    ed_free(s);
    free(s);
    tmpl_db_destroy(db);
    map_destroy(m);
}

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zoom_floor_and_pan_limit),
        cmocka_unit_test(test_odds_panel_covers_no_token),
        cmocka_unit_test(test_gauges_collapse_below_a_size),
        cmocka_unit_test(test_editor_zoom_floor_and_pan_limit),
    };
    return cmocka_run_group_tests(tests, fx_video_up, fx_video_down);
}
