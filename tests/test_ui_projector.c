/* test_ui_projector.c - the player view and the projector window: what the
 * player view hides in a headless render (checked pixel by pixel), the print
 * scale's placement, the view filters, the turned pan, and the projector
 * window opened, steered and closed under the dummy video driver. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "core/scale.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "rules/play.h"
#include "rules/xhalem.h"
#include "ui/camera.h"
#include "ui/fog.h"
#include "ui/projector.h"
#include "ui/ui.h"
#include "tmp_fixture.h"

#define W 1280
#define H 720

static map_t *g_map;
static tmpl_db_t *g_db;

static int load_sample(void **state)
{
    (void)state;
    char err[HB_ERR_MAX];
    int rc = map_load(HB_SOURCE_DIR "/maps/ridge_ambush.json", hb_data_dir(), &g_map, &g_db, err,
                      sizeof err);
    if (rc != HB_OK) fprintf(stderr, "%s\n", err);
    return rc;
}

static int free_sample(void **state)
{
    (void)state;
    tmpl_db_destroy(g_db);
    map_destroy(g_map);
    return 0;
}

static SDL_Color pixel(SDL_Surface *s, int x, int y)
{
    SDL_Color c = {0, 0, 0, 0};
    if (x < 0 || y < 0 || x >= s->w || y >= s->h) return c;
    Uint32 v;
    memcpy(&v, (Uint8 *)s->pixels + y * s->pitch + x * s->format->BytesPerPixel, sizeof v);
    SDL_GetRGBA(v, s->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

static bool near(SDL_Color a, SDL_Color b, int tol)
{
    return abs(a.r - b.r) <= tol && abs(a.g - b.g) <= tol && abs(a.b - b.b) <= tol;
}

/* Is there an HP-bar green pixel in the column under combatant i's token? */
static bool hp_bar_under(SDL_Surface *s, const ui_camera_t *cam, int i)
{
    vec2_t c = ui_cam_to_screen(cam, ui_cell_center(g_map, g_map->combatants[i].at));
    SDL_Color full = ui_hp_color(1, 1);
    for (int y = (int)c.y; y < (int)(c.y + cam->zoom * 1.1); y++)
        if (near(pixel(s, (int)c.x, y), full, 12)) return true;
    return false;
}

static SDL_Surface *render(const ui_render_opts_t *o, const char *name)
{
    char path[256], err[HB_ERR_MAX];
    /* Per process: other builds may run this test at the same time. */
    snprintf(path, sizeof path, "/tmp/hb_test_projector_%ld_%s.png", (long)getpid(), name);
    int rc = ui_render_png_opts(g_map, g_db, o, path, err, sizeof err);
    if (rc != 0) fail_msg("render %s: %s", name, err);
    SDL_Surface *raw = IMG_Load(path);
    remove(path);
    assert_non_null(raw);
    SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_FreeSurface(raw);
    assert_non_null(s);
    return s;
}

/* The players' view of the sample battle: the raider boss stands inside the
 * walled house (21,12), out of the players' sight, so its hex is dark and
 * its token gone; the dust hound on the open ridge stays, without its HP
 * bar; the players' own tokens keep theirs. The referee render shows all. */
static void player_view_hides_what_players_cannot_see(void **state)
{
    (void)state;
    ui_render_opts_t o = {.w = W, .h = H};
    SDL_Surface *ref = render(&o, "referee");
    o.view_faction = "players";
    SDL_Surface *pv = render(&o, "players");
    ui_camera_t cam = ui_cam_for_image(g_map, W, H);
    int boss = map_find_combatant(g_map, "boss"), kara = map_find_combatant(g_map, "kara");
    int hound = map_find_combatant(g_map, "hound1");
    assert_true(boss >= 0 && kara >= 0 && hound >= 0);

    vec2_t bc = ui_cam_to_screen(&cam, ui_cell_center(g_map, g_map->combatants[boss].at));
    SDL_Color warm = ui_faction_color(g_map, "raiders");
    assert_true(near(pixel(ref, (int)bc.x + 6, (int)bc.y + 6), warm, 40));
    assert_true(near(pixel(pv, (int)bc.x + 6, (int)bc.y + 6), (SDL_Color){8, 9, 12, 255}, 6));
    assert_true(near(pixel(pv, (int)bc.x, (int)bc.y), (SDL_Color){8, 9, 12, 255}, 6));

    vec2_t kc = ui_cam_to_screen(&cam, ui_cell_center(g_map, g_map->combatants[kara].at));
    assert_true(
        near(pixel(pv, (int)kc.x + 6, (int)kc.y + 6), ui_faction_color(g_map, "players"), 40));
    assert_true(hp_bar_under(ref, &cam, kara));
    assert_true(hp_bar_under(pv, &cam, kara));

    vec2_t hc = ui_cam_to_screen(&cam, ui_cell_center(g_map, g_map->combatants[hound].at));
    assert_true(near(pixel(pv, (int)hc.x + 6, (int)hc.y + 6), warm, 40)); /* seen... */
    assert_true(hp_bar_under(ref, &cam, hound));
    assert_false(hp_bar_under(pv, &cam, hound)); /* ...but its health is not shown */

    /* The raiders' own view shows the boss, in full. */
    o.view_faction = "raiders";
    SDL_Surface *rv = render(&o, "raiders");
    assert_true(near(pixel(rv, (int)bc.x + 6, (int)bc.y + 6), warm, 40));
    assert_true(hp_bar_under(rv, &cam, boss));
    SDL_FreeSurface(rv);
    SDL_FreeSurface(ref);
    SDL_FreeSurface(pv);
}

static void unknown_faction_is_bad_input(void **state)
{
    (void)state;
    ui_render_opts_t o = {.w = 64, .h = 64, .view_faction = "martians"};
    char err[HB_ERR_MAX] = "";
    assert_int_equal(
        ui_render_png_opts(g_map, g_db, &o, "/tmp/hb_test_projector_x.png", err, sizeof err), 2);
    assert_non_null(strstr(err, "martians"));
    assert_non_null(strstr(err, "raiders")); /* the message lists what there is */
}

/* At --hex-mm 25.4 --dpi 100 the image is exactly the print layout, and the
 * first hex's flat left side lands one 5 mm margin in: background before it,
 * terrain after it. */
static void print_scale_render(void **state)
{
    (void)state;
    ui_render_opts_t o = {.w = 50, .h = 50, .hex_mm = 25.4, .dpi = 100};
    SDL_Surface *s = render(&o, "print");
    scale_print_t p;
    assert_true(scale_print_layout(g_map, 25.4, 100, &p));
    assert_int_equal(s->w, p.w);
    assert_int_equal(s->h, p.h);
    assert_int_equal(s->w, 24 * 100 + 50 + 2 * 20); /* 24.5 hexes of 100 px, 5 mm = 20 px */
    vec2_t c = ui_cell_center(g_map, (cell_t){0, 0});
    int y = (int)lround((c.y - p.y) * p.zoom);
    SDL_Color bg = {28, 31, 36, 255};
    assert_true(near(pixel(s, p.margin_px - 3, y), bg, 2));
    assert_false(near(pixel(s, p.margin_px + 3, y), bg, 2));
    /* The next hex's centre lies one hex size (100 px) to the right. */
    vec2_t c1 = ui_cell_center(g_map, (cell_t){1, 0});
    assert_true(fabs((c1.x - c.x) * p.zoom - 100.0) < 1e-6);
    SDL_FreeSurface(s);
}

/* Filters from a battle's board: own side in full, seen enemies without HP,
 * unseen ones not at all. */
static void view_filters(void **state)
{
    (void)state;
    board_t *b = board_create(g_map);
    vision_t *v = vision_create(g_map);
    unsigned players = vision_player_sides(b);
    vision_update(v, b, players);
    ui_view_t view;
    ui_view_build(&view, v, b, NULL, players, true);
    assert_int_equal(view.n, g_map->n_combatants);
    assert_true(view.big_labels);
    for (int i = 0; i < g_map->n_combatants; i++) {
        const map_combatant_t *c = &g_map->combatants[i];
        int want = strcmp(c->faction, "players") == 0 ? UI_SHOW_ALL
                   : vision_visible(v, c->at)         ? UI_SHOW_NO_HP
                                                      : UI_SHOW_NONE;
        assert_int_equal(view.show[i], want);
    }
    assert_int_equal(view.show[map_find_combatant(g_map, "boss")], UI_SHOW_NONE);
    assert_int_equal(view.show[map_find_combatant(g_map, "hound1")], UI_SHOW_NO_HP);
    vision_destroy(v);
    board_destroy(b);
}

/* A hidden or cloaked raider in plain sight of the players is left out of
 * their view until detected; a cloaked one whose position is revealed shows. */
static void stealth_hides_from_the_player_view(void **state)
{
    (void)state;
    play_t play;
    battle_opts_t bo = {.seed = 11};
    assert_int_equal(play_start(&play, g_map, g_db, NULL, &bo), BATTLE_OK);
    battle_t *b = play.b;
    for (int i = 0; i < b->n; i++) /* no machine's passive scan among the players */
        if (strcmp(g_map->combatants[i].faction, "players") == 0)
            assert_int_equal(g_map->combatants[i].kind, KIND_CREATURE);
    int hound = map_find_combatant(g_map, "hound1");
    vision_t *v = vision_create(b->map);
    unsigned sides = vision_player_sides(b->board);
    vision_update(v, b->board, sides);
    ui_view_t view;
    ui_view_build(&view, v, b->board, b, sides, true);
    assert_int_equal(view.show[hound], UI_SHOW_NO_HP); /* in sight, not hiding */

    b->u[hound].cond |= XC_HIDDEN;
    ui_view_build(&view, v, b->board, b, sides, true);
    assert_int_equal(view.show[hound], UI_SHOW_NONE);
    assert_true(ui_view_stealthed(b, hound, sides));
    /* Its own side still sees it. */
    unsigned raiders = vision_side_mask(b->board, "raiders");
    assert_false(ui_view_stealthed(b, hound, raiders));

    b->u[hound].cond = (b->u[hound].cond & ~(unsigned)XC_HIDDEN) | XC_CLOAKED;
    ui_view_build(&view, v, b->board, b, sides, true);
    assert_int_equal(view.show[hound], UI_SHOW_NONE);
    ((xh_state_t *)b->rs)->revealed[hound] = 1;
    ui_view_build(&view, v, b->board, b, sides, true);
    assert_int_equal(view.show[hound], UI_SHOW_NO_HP);
    vision_destroy(v);
    play_end(&play);
}

/* A pan on the turned picture, turned back by SDL's clockwise rotation, is
 * the pan the referee asked for. */
static void turned_pan(void **state)
{
    (void)state;
    for (int rot = 0; rot < 360; rot += 90) {
        double a = rot * 3.14159265358979323846 / 180.0;
        for (int k = 0; k < 4; k++) {
            double dx = k == 0   ? 1
                        : k == 1 ? 0
                        : k == 2 ? -3
                                 : 2,
                   dy = k == 0   ? 0
                        : k == 1 ? 1
                        : k == 2 ? 5
                                 : -7;
            vec2_t t = ui_projector_unrotate(rot, dx, dy);
            /* Clockwise on screen (y down): (x, y) -> (x cos - y sin, x sin + y cos). */
            double sx = t.x * cos(a) - t.y * sin(a), sy = t.x * sin(a) + t.y * cos(a);
            assert_true(fabs(sx - dx) < 1e-9 && fabs(sy - dy) < 1e-9);
        }
    }
}

static void display_choice(void **state)
{
    (void)state;
    assert_int_equal(ui_projector_pick_display(1, 0), 0);
    assert_int_equal(ui_projector_pick_display(2, 0), 1);
    assert_int_equal(ui_projector_pick_display(2, 1), 0);
    assert_int_equal(ui_projector_pick_display(3, 0), 1);
    assert_int_equal(ui_projector_pick_display(0, 0), 0);
}

static SDL_Event key_event(SDL_Keycode k, Uint16 mod, Uint32 window)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.windowID = window;
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    return e;
}

/* The projector window under the dummy driver: one display, so a plain
 * window; a broken settings file is reported and ignored; the referee's
 * keys steer it and the settings land in the config file. */
static void projector_window(void **state)
{
    (void)state;
    char dir[] = "/tmp/hb_test_projector_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cfgdir[300], cfg[340];
    snprintf(cfgdir, sizeof cfgdir, "%s/hexbattle", dir);
    snprintf(cfg, sizeof cfg, "%s/displays.json", cfgdir);
    assert_int_equal(mkdir(cfgdir, 0700), 0);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fputs("{ this is not json", f);
    fclose(f);
    setenv("XDG_CONFIG_HOME", dir, 1);

    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    play_t play;
    battle_opts_t bo = {.seed = 7};
    assert_int_equal(play_start(&play, g_map, g_db, NULL, &bo), BATTLE_OK);

    ui_projector_t p;
    ui_projector_init(&p, g_map);
    char err[HB_ERR_MAX] = "";
    if (!ui_projector_open(&p, -1, 0, err, sizeof err)) fail_msg("open: %s", err);
    assert_true(ui_projector_is_open(&p));
    assert_false(p.fullscreen); /* one display: the referee's stays usable */
    assert_non_null(strstr(p.msg, "ignored"));
    assert_true(fabs(p.set.hex_mm - 25.4) < 1e-9);
    assert_true(fabs(p.cam.zoom - ui_projector_true_zoom(&p)) < 1e-9);

    ui_projector_frame(&p, play.b, NULL, NULL, 0, -1, false, 0.016);
    /* The fog was worked out for the player factions. */
    int boss = map_find_combatant(g_map, "boss");
    assert_int_equal(p.view.show[boss], UI_SHOW_NONE);
    assert_true(vision_visible(p.vis, g_map->combatants[map_find_combatant(g_map, "kara")].at));

    bool quit = false;
    Uint32 main_id = 999999;
    SDL_Event e = key_event(SDLK_r, KMOD_LCTRL, main_id);
    assert_true(ui_projector_route(&p, &e, main_id, 0, &quit));
    assert_int_equal(p.set.rotation, 90);
    assert_int_equal(p.tw, p.out_h); /* the canvas turned with it */
    ui_projector_frame(&p, play.b, NULL, NULL, 0, -1, false, 0.016);

    /* Calibrate: a bar of 400 px against the card gives 400 * 25.4 / 85.6 dpi. */
    e = key_event(SDLK_k, KMOD_LCTRL, main_id);
    assert_true(ui_projector_route(&p, &e, main_id, 0, &quit));
    assert_true(p.calibrating);
    p.bar_px = 399;
    e = key_event(SDLK_RIGHTBRACKET, KMOD_LCTRL, main_id);
    assert_true(ui_projector_route(&p, &e, main_id, 0, &quit));
    ui_projector_frame(&p, play.b, NULL, NULL, 0, -1, false, 0.016);
    e = key_event(SDLK_RETURN, KMOD_LCTRL, main_id);
    assert_true(ui_projector_route(&p, &e, main_id, 0, &quit));
    assert_false(p.calibrating);
    assert_true(fabs(p.set.dpi - 400.0 * 25.4 / 85.6) < 1e-9);
    assert_true(fabs(p.cam.zoom - scale_zoom(25.4, p.set.dpi)) < 1e-9);

    /* Plain keys and Ctrl+Z are the play screen's, not the projector's. */
    e = key_event(SDLK_r, 0, main_id);
    assert_false(ui_projector_route(&p, &e, main_id, 0, &quit));
    e = key_event(SDLK_z, KMOD_LCTRL, main_id);
    assert_false(ui_projector_route(&p, &e, main_id, 0, &quit));

    /* The settings were saved over the broken file, for this display. */
    config_t c;
    assert_int_equal(config_load(cfg, &c, err, sizeof err), HB_OK);
    display_cfg_t *d = config_find(&c, p.display_name, p.mode_w, p.mode_h);
    assert_non_null(d);
    assert_int_equal(d->rotation, 90);
    assert_true(fabs(d->dpi - p.set.dpi) < 1e-9);

    /* F2 closes it; the main window's close button quits. */
    e = key_event(SDLK_F2, 0, main_id);
    assert_true(ui_projector_route(&p, &e, main_id, 0, &quit));
    assert_false(ui_projector_is_open(&p));
    ui_projector_frame(&p, play.b, NULL, NULL, 0, -1, true, 0.016); /* closed: a no-op */
    SDL_Event close;
    memset(&close, 0, sizeof close);
    close.type = SDL_WINDOWEVENT;
    close.window.windowID = main_id;
    close.window.event = SDL_WINDOWEVENT_CLOSE;
    assert_true(ui_projector_route(&p, &close, main_id, 0, &quit));
    assert_true(quit);

    ui_projector_free(&p);
    play_end(&play);
    TTF_Quit();
    SDL_Quit();
    unsetenv("XDG_CONFIG_HOME");
    tmp_dir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(player_view_hides_what_players_cannot_see),
        cmocka_unit_test(unknown_faction_is_bad_input),
        cmocka_unit_test(print_scale_render),
        cmocka_unit_test(view_filters),
        cmocka_unit_test(stealth_hides_from_the_player_view),
        cmocka_unit_test(turned_pan),
        cmocka_unit_test(display_choice),
        cmocka_unit_test(projector_window),
    };
    return cmocka_run_group_tests(tests, load_sample, free_sample);
}
