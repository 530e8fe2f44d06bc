/* test_ui_projector_marks.c - what the table sees beyond the tokens: the
 * referee's telegraphs of what the NPCs mean to do (scars' CMD_TELEGRAPH,
 * through the ruleset's intents hook), kept from the players where the fog
 * would hide them and cleared when the NPCs' declarations resolve; and the
 * gauges the player view lets through on every bundled map, drawn on the
 * projector's canvas and saved for a person to look at. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "io/fileio.h"
#include "io/map_io.h"
#include "rules/play.h"
#include "rules/surface/surface.h"
#include "ui/camera.h"
#include "ui/fog.h"
#include "ui/projector.h"
#include "tmp_fixture.h"

/* One bundled map in play, with the player view of it. */
typedef struct {
    map_t *map;
    tmpl_db_t *db;
    play_t play;
    vision_t *vis;
    ui_view_t view;
    ui_view_keys_t keys;
} world_t;

/* Start the battle of w's map (loaded) on dice seed `seed`, with a vision. */
static void world_begin(world_t *w, uint64_t seed)
{
    battle_opts_t bo = {.seed = seed};
    assert_int_equal(play_start(&w->play, w->map, w->db, NULL, &bo), BATTLE_OK);
    w->vis = vision_create(w->map);
    assert_non_null(w->vis);
}

static void world_open(world_t *w, const char *name, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    char path[1024], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/maps/%s.json", HB_SOURCE_DIR, name);
    if (map_load(path, hb_data_dir(), &w->map, &w->db, err, sizeof err) != HB_OK)
        fail_msg("%s", err);
    world_begin(w, seed);
    ui_projector_update_view(w->vis, &w->view, w->play.b, &w->keys, NULL);
}

static void world_close(world_t *w)
{
    vision_destroy(w->vis);
    play_end(&w->play);
    tmpl_db_destroy(w->db);
    map_destroy(w->map);
}

static int find(const world_t *w, const char *id)
{
    int i = map_find_combatant(w->map, id);
    assert_true(i >= 0);
    return i;
}

/* The referee telegraphs the moves of who's whole side. */
static void telegraph_side(world_t *w, int who)
{
    cmd_t c = cmd_make(CMD_TELEGRAPH, who);
    c.arg = 1;
    assert_int_equal(play_apply(&w->play, &c), BATTLE_OK);
}

/* Every NPC in sight in view v (as once the crew has closed in). */
static void show_npcs(const battle_t *b, ui_view_t *v)
{
    for (int i = 0; i < b->n; i++)
        if (!battle_is_player(b, i)) v->show[i] = UI_SHOW_NO_HP;
}

/* The intention of combatant who among n, or NULL. */
static const intent_t *intent_of(const intent_t *t, int n, int who)
{
    for (int k = 0; k < n; k++)
        if (t[k].who == who) return &t[k];
    return NULL;
}

/* Has the log, from event k0 on, closed a phase of board side `side`? */
static bool side_phase_ended(const battle_t *b, int k0, int side)
{
    for (int k = k0; k < b->log.n; k++)
        if (b->log.ev[k].type == EV_TURN_END && b->log.ev[k].who < 0 && b->log.ev[k].side == side)
            return true;
    return false;
}

/* The referee telegraphs the raiders' moves: each able raider gets an
 * intention with the table's words; it stands while the players' phase
 * plays out and is gone once the raiders' own declarations resolve. */
static void scars_telegraph_stands_until_resolved(void **state)
{
    (void)state;
    world_t w;
    world_open(&w, "salt_flats", 7);
    battle_t *b = w.play.b;
    int gun = find(&w, "gun"), chief = find(&w, "chief"), pack = find(&w, "pack");
    intent_t t[16];
    assert_int_equal(ruleset_intents(b->rules, b, t, 16), 0);
    /* A telegraph asked of a player's combatant is refused. */
    cmd_t bad = cmd_make(CMD_TELEGRAPH, find(&w, "vex"));
    assert_int_equal(play_apply(&w.play, &bad), BATTLE_ILLEGAL);
    telegraph_side(&w, gun);
    int k0 = b->log.n;
    int n = ruleset_intents(b->rules, b, t, 16);
    assert_int_equal(n, 3);
    const int raiders[3] = {pack, chief, gun};
    for (int k = 0; k < 3; k++) {
        const intent_t *it = intent_of(t, n, raiders[k]);
        assert_non_null(it);
        assert_true(strcmp(it->label, "attack") == 0 || strcmp(it->label, "move") == 0 ||
                    strcmp(it->label, "move twice") == 0 || strcmp(it->label, "retreat") == 0 ||
                    strcmp(it->label, "hold") == 0);
        /* An attack names its target, one of the crew. */
        if (strcmp(it->label, "attack") == 0) {
            assert_true(it->target >= 0);
            assert_true(battle_is_player(b, it->target));
        }
        if (it->has_at) assert_true(map_in_bounds(b->map, it->at));
    }
    /* Telegraphing one again replaces its intention, never doubles it. */
    cmd_t one = cmd_make(CMD_TELEGRAPH, gun);
    assert_int_equal(play_apply(&w.play, &one), BATTLE_OK);
    assert_int_equal(ruleset_intents(b->rules, b, t, 16), 3);

    /* Play on, one AI command at a time: the intentions stand until the
     * raiders' phase closes, and not a step longer. */
    int side = b->board->side[gun];
    bool saw_standing_after_a_command = false, saw_cleared = false;
    for (int step = 0; step < 200 && !b->over; step++) {
        int actors[MAP_MAX_COMBATANTS];
        int na = play_actors(&w.play, actors, MAP_MAX_COMBATANTS);
        assert_true(na > 0);
        cmd_t ai;
        ((const ruleset_t *)b->rules)->ai(b, actors[0], &ai);
        battle_status_t st = play_apply(&w.play, &ai);
        assert_true(st == BATTLE_OK || st == BATTLE_OVER);
        n = ruleset_intents(b->rules, b, t, 16);
        if (side_phase_ended(b, k0, side)) {
            assert_int_equal(n, 0);
            saw_cleared = true;
            break;
        }
        if (battle_active(b, gun)) {
            assert_non_null(intent_of(t, n, gun));
            saw_standing_after_a_command = true;
        }
    }
    assert_true(saw_cleared);
    assert_true(saw_standing_after_a_command);
    world_close(&w);
}

/* The player view keeps a telegraph from giving away what the fog hides:
 * an unseen NPC's is left out, an unseen target is not named, a hex out of
 * sight is not marked. */
static void intents_respect_the_fog(void **state)
{
    (void)state;
    world_t w;
    world_open(&w, "salt_flats", 7);
    battle_t *b = w.play.b;
    int gun = find(&w, "gun");
    telegraph_side(&w, gun);
    ui_projector_update_view(w.vis, &w.view, b, &w.keys, NULL);
    intent_t all[16], t[16];
    int n_all = ruleset_intents(b->rules, b, all, 16);
    assert_int_equal(ui_projector_intents(b, NULL, t, 16), n_all);
    /* Each shown one is of a raider the view draws. */
    int n = ui_projector_intents(b, &w.view, t, 16);
    int drawn = 0;
    for (int k = 0; k < n_all; k++)
        drawn += w.view.show[all[k].who] != UI_SHOW_NONE;
    assert_int_equal(n, drawn);
    /* Synthetic: every raider in sight, then the gun taken out of it. */
    ui_view_t v = w.view;
    show_npcs(b, &v);
    vision_t *seen_all = vision_create(b->map);
    assert_non_null(seen_all);
    vision_update(seen_all, b->board, ~0u); /* every side's sight: the hexes near the raiders too */
    v.vis = seen_all;
    assert_int_equal(ui_projector_intents(b, &v, t, 16), n_all);
    v.show[gun] = UI_SHOW_NONE;
    n = ui_projector_intents(b, &v, t, 16);
    assert_int_equal(n, n_all - 1);
    assert_null(intent_of(t, n, gun));
    /* Targets the view does not draw go unnamed. */
    for (int i = 0; i < b->n; i++)
        if (battle_is_player(b, i)) v.show[i] = UI_SHOW_NONE;
    n = ui_projector_intents(b, &v, t, 16);
    for (int k = 0; k < n; k++)
        assert_int_equal(t[k].target, -1);
    /* With nothing in sight, no hex is marked. */
    vision_clear(seen_all);
    v.show[gun] = UI_SHOW_NO_HP;
    int with_at = 0;
    for (int k = 0; k < n_all; k++)
        with_at += all[k].has_at;
    n = ui_projector_intents(b, &v, t, 16);
    assert_int_equal(n, n_all);
    for (int k = 0; k < n; k++)
        assert_false(t[k].has_at);
    vision_destroy(seen_all);
    (void)with_at;
    world_close(&w);
}

/* Pixels of the telegraph's amber on the projector's canvas. */
static bool is_amber(const Uint8 *px)
{
    /* ARGB8888 in memory (little endian): B, G, R, A. */
    return px[2] > 240 && px[1] > 180 && px[1] < 212 && px[0] > 20 && px[0] < 60;
}

/* Where the battle has everybody now, as the play screen's poses say once
 * its animations have settled (the map's own `at` is where they started). */
static void settled_poses(const battle_t *b, ui_token_pose_t *pose)
{
    for (int i = 0; i < b->n; i++) {
        pose[i].world = ui_cell_center(b->map, hex_to_cell(b->map->layout, b->board->pos[i]));
        pose[i].hp = (float)b->u[i].hp;
        pose[i].alpha = battle_active(b, i) ? 1.0f : 0.0f;
    }
}

/* A copy of p's canvas as last drawn (the caller frees it). */
static SDL_Surface *read_canvas(ui_projector_t *p)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, p->tw, p->th, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(s);
    assert_int_equal(SDL_SetRenderTarget(p->ren, p->target), 0);
    assert_int_equal(
        SDL_RenderReadPixels(p->ren, NULL, SDL_PIXELFORMAT_ARGB8888, s->pixels, s->pitch), 0);
    SDL_SetRenderTarget(p->ren, NULL);
    return s;
}

/* Draw w's player view and the marks on p's canvas; save it to png (may be
 * NULL); return the amber pixels and, in *drawn, what draw_marks returned. */
static int draw_world(ui_projector_t *p, world_t *w, const ui_view_t *v, const char *png,
                      int *drawn)
{
    SDL_Renderer *r = p->ren;
    static ui_token_pose_t pose[MAP_MAX_COMBATANTS];
    settled_poses(w->play.b, pose);
    assert_int_equal(SDL_SetRenderTarget(r, p->target), 0);
    ui_projector_draw_view(p->d, w->play.b, v, pose, &p->cam, p->tw, p->th);
    *drawn = ui_projector_draw_marks(p, w->play.b, v, pose, &p->cam, p->tw, p->th);
    SDL_Surface *s = read_canvas(p);
    if (png) assert_int_equal(IMG_SavePNG(s, png), 0);
    int n = 0;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++)
            n += is_amber((const Uint8 *)s->pixels + y * s->pitch + 4 * x);
    SDL_FreeSurface(s);
    return n;
}

/* SDL video and text up, with a config folder of its own in dir (a
 * mkdtemp template); video_down undoes it all. */
static void video_up(char *dir)
{
    assert_non_null(mkdtemp(dir));
    setenv("XDG_CONFIG_HOME", dir, 1);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
}

static void video_down(const char *dir)
{
    TTF_Quit();
    SDL_Quit();
    unsetenv("XDG_CONFIG_HOME");
    tmp_dir_remove(dir);
}

/* Point p's camera (its zoom kept) at hex h's centre. */
static void centre_on(ui_projector_t *p, const map_t *m, hex_t h)
{
    vec2_t at = ui_cell_center(m, hex_to_cell(m->layout, h));
    p->cam.x = at.x - p->tw / (2 * p->cam.zoom);
    p->cam.y = at.y - p->th / (2 * p->cam.zoom);
}

static void open_projector(ui_projector_t *p, const map_t *m)
{
    ui_projector_init(p, m);
    char err[HB_ERR_MAX] = "";
    if (!ui_projector_open(p, -1, 0, err, sizeof err)) fail_msg("open: %s", err);
    ui_cam_fit(&p->cam, ui_map_bounds(m), p->tw, p->th, 10);
}

/* Close projector p, world w and the video of video_up(dir). */
static void stage_close(ui_projector_t *p, world_t *w, const char *dir)
{
    ui_projector_free(p);
    world_close(w);
    video_down(dir);
}

/* Amber pixels on p's canvas (as last drawn) in rows y0..y1-1. */
static int amber_rows(ui_projector_t *p, int y0, int y1)
{
    SDL_Surface *s = read_canvas(p);
    int n = 0;
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < s->h; y++)
        for (int x = 0; x < s->w; x++)
            n += is_amber((const Uint8 *)s->pixels + y * s->pitch + 4 * x);
    SDL_FreeSurface(s);
    return n;
}

/* The projector draws the telegraph (amber rings, arrow, words, banner)
 * for the raiders in sight, nothing of it before, and less with one of
 * them out of sight. */
static void projector_draws_telegraph(void **state)
{
    (void)state;
    char dir[] = "/tmp/hb_test_projmarks_XXXXXX";
    video_up(dir);
    world_t w;
    world_open(&w, "salt_flats", 7);
    ui_projector_t p;
    open_projector(&p, w.map);
    battle_t *b = w.play.b;
    int drawn = -1;
    int before = draw_world(&p, &w, &w.view, NULL, &drawn);
    assert_int_equal(drawn, 0);
    telegraph_side(&w, find(&w, "gun"));
    ui_projector_update_view(w.vis, &w.view, b, &w.keys, NULL);
    /* Every raider in sight for this picture (as once the crew has closed in). */
    ui_view_t v = w.view;
    show_npcs(b, &v);
    int after = draw_world(&p, &w, &v, "test_ui_projector_marks_telegraph.png", &drawn);
    assert_int_equal(drawn, 3);
    assert_true(after > before + 500);
    v.show[find(&w, "chief")] = UI_SHOW_NONE;
    int fewer = draw_world(&p, &w, &v, NULL, &drawn);
    assert_int_equal(drawn, 2);
    assert_true(fewer < after);
    /* The banner keeps off the tokens: along the top while they stand low,
     * along the bottom once everyone stands in the top rows (drawing reads
     * positions only). */
    int band = p.th / 6;
    assert_true(amber_rows(&p, 0, band) > amber_rows(&p, p.th - band, p.th));
    for (int i = 0; i < b->n; i++)
        b->board->pos[i] = hex_from_cell(w.map->layout, (cell_t){2 + 2 * i, i % 2});
    draw_world(&p, &w, &v, "test_ui_projector_marks_banner_low.png", &drawn);
    assert_true(amber_rows(&p, p.th - band, p.th) > amber_rows(&p, 0, band));
    stage_close(&p, &w, dir);
}

/* On every bundled map: the viewing sides' own combatants show every gauge
 * the ruleset reports, a drawn enemy only those it marks seen by all, a
 * hidden one none; and the projector's picture is saved for a look. */
static void gauges_player_safe_on_every_map(void **state)
{
    (void)state;
    char dir[] = "/tmp/hb_test_projgauge_XXXXXX";
    video_up(dir);
    static const char *const MAPS[] = {"ridge_ambush",   "foundry_breach", "salt_flats",
                                       "relay_outpost",  "river_crossing", "shattered_lane"};
    int enemy_seen_all = 0;
    for (size_t m = 0; m < sizeof MAPS / sizeof MAPS[0]; m++) {
        world_t w;
        world_open(&w, MAPS[m], 3);
        battle_t *b = w.play.b;
        /* A round in: HP lost, heat built, armour shot away. */
        battle_status_t st = play_auto(&w.play, 1);
        assert_true(st == BATTLE_OK || st == BATTLE_OVER);
        ui_projector_update_view(w.vis, &w.view, b, &w.keys, NULL);
        for (int i = 0; i < b->n; i++) {
            gauge_t all[GAUGES_MAX], g[GAUGES_MAX];
            int n_all = ruleset_gauges(b->rules, b, i, all, GAUGES_MAX);
            int n = ui_projector_gauges(b, &w.view, i, g, GAUGES_MAX);
            int want = 0;
            for (int k = 0; k < n_all; k++)
                want += all[k].seen == GAUGE_SEEN_ALL;
            switch (w.view.show[i]) {
            case UI_SHOW_ALL:
                assert_int_equal(n, n_all);
                break;
            case UI_SHOW_NO_HP:
                assert_int_equal(n, want);
                for (int k = 0; k < n; k++)
                    assert_int_equal(g[k].seen, GAUGE_SEEN_ALL);
                enemy_seen_all += n;
                break;
            default:
                assert_int_equal(n, 0);
            }
            /* The referee's own view (no player view) shows them all. */
            assert_int_equal(ui_projector_gauges(b, NULL, i, g, GAUGES_MAX), n_all);
        }
        ui_projector_t p;
        open_projector(&p, w.map);
        /* Close enough to read: true-scale-like zoom on the players. */
        p.cam.zoom = fmax(p.cam.zoom, 40.0);
        int pl = -1;
        for (int i = 0; i < b->n && pl < 0; i++)
            if (battle_is_player(b, i) && battle_active(b, i)) pl = i;
        for (int i = 0; i < b->n && pl < 0; i++)
            if (battle_is_player(b, i)) pl = i;
        centre_on(&p, w.map, b->board->pos[pl]);
        char png[128];
        snprintf(png, sizeof png, "test_ui_projector_marks_%s.png", MAPS[m]);
        int drawn;
        draw_world(&p, &w, &w.view, png, &drawn);
        ui_projector_free(&p);
        world_close(&w);
    }
    (void)enemy_seen_all;
    video_down(dir);
}

/* surface marks armour and heat as seen by all, HP and nonlethal not; a
 * raider in the players' sight shows exactly those on the table. */
static void surface_enemy_shows_armour_not_hp(void **state)
{
    (void)state;
    world_t w;
    world_open(&w, "relay_outpost", 3);
    battle_t *b = w.play.b;
    int boss = find(&w, "boss");
    ui_view_t v = w.view;
    v.show[boss] = UI_SHOW_NO_HP;
    gauge_t all[GAUGES_MAX], g[GAUGES_MAX];
    int n_all = ruleset_gauges(b->rules, b, boss, all, GAUGES_MAX);
    int n = ui_projector_gauges(b, &v, boss, g, GAUGES_MAX);
    assert_true(n_all >= 2);
    assert_string_equal(all[0].label, "HP");
    assert_int_equal(all[0].seen, GAUGE_SEEN_OWN);
    bool armour = false, armour_all = false;
    for (int k = 0; k < n_all; k++)
        armour_all |= strcmp(all[k].label, "armour") == 0;
    for (int k = 0; k < n; k++) {
        assert_string_not_equal(g[k].label, "HP");
        assert_string_not_equal(g[k].label, "nonlethal");
        armour |= strcmp(g[k].label, "armour") == 0;
    }
    assert_true(armour_all); /* the boss is armoured on this map */
    assert_true(armour);

    /* A picture for a person: the boss beside the players' gunner, its
     * plating half gone and running hot; the gunner hot too. */
    char dir[] = "/tmp/hb_test_projsurf_XXXXXX";
    video_up(dir);
    int gunner = find(&w, "gunner");
    hex_t gp = b->board->pos[gunner];
    b->board->pos[boss] = (hex_t){gp.q + 2, gp.r - 1}; /* drawing reads positions only */
    b->u[boss].stat[SF_ARMOR] = b->u[boss].stat_max[SF_ARMOR] / 2;
    b->u[boss].stat[SF_HEAT] = 3;
    b->u[gunner].stat[SF_HEAT] = 2;
    b->u[gunner].hp = b->u[gunner].hp_max - 1;
    ui_projector_t p;
    open_projector(&p, w.map);
    p.cam.zoom = 55.0; /* a 25.4 mm hex at 96 dpi */
    centre_on(&p, w.map, gp);
    int drawn;
    draw_world(&p, &w, &v, "test_ui_projector_marks_surface_gauges.png", &drawn);
    /* The boss shows armour and heat, the gunner heat with its numbers. */
    assert_int_equal(ui_projector_gauges(b, &v, boss, g, GAUGES_MAX), 2);
    ui_projector_free(&p);
    video_down(dir);
    world_close(&w);
}

/* Pixels of the end-of-battle plate's dark blue. */
static int plate_pixels(ui_projector_t *p)
{
    SDL_Surface *s = read_canvas(p);
    int n = 0;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) {
            const Uint8 *px = (const Uint8 *)s->pixels + y * s->pitch + 4 * x; /* B, G, R, A */
            n += px[2] < 30 && px[1] > 18 && px[1] < 32 && px[0] > 34 && px[0] < 50;
        }
    SDL_FreeSurface(s);
    return n;
}

/* When the battle ends, the table reads who won across the middle of the
 * picture; before, no such plate. */
static void projector_says_the_battle_is_over(void **state)
{
    (void)state;
    char dir[] = "/tmp/hb_test_projend_XXXXXX";
    video_up(dir);
    world_t w;
    world_open(&w, "salt_flats", 5);
    ui_projector_t p;
    open_projector(&p, w.map);
    int drawn;
    draw_world(&p, &w, &w.view, NULL, &drawn);
    int before = plate_pixels(&p);
    battle_status_t st = play_auto(&w.play, 60);
    assert_true(st == BATTLE_OK || st == BATTLE_OVER);
    assert_true(w.play.b->over);
    ui_projector_update_view(w.vis, &w.view, w.play.b, &w.keys, NULL);
    draw_world(&p, &w, &w.view, "test_ui_projector_marks_over.png", &drawn);
    int after = plate_pixels(&p);
    assert_true(after > before + 2000);
    stage_close(&p, &w, dir);
}

/* A bulwark of the players with Meteor ([Delay 2]) facing two rivals on
 * open ground (activation). */
static const char DELAY_MAP[] =
    "{\"format\": \"hexbattle-map\", \"version\": 1, \"name\": \"Delay on the table\","
    " \"ruleset\": \"activation\","
    " \"grid\": {\"orientation\": \"pointy\", \"stagger\": \"odd\", \"cols\": 10, \"rows\": 5,"
    " \"feet_per_hex\": 5},"
    " \"terrain\": {\"legend\": {\".\": \"open\"}, \"rows\": [\"..........\", \"..........\","
    " \"..........\", \"..........\", \"..........\"]},"
    " \"combatants\": ["
    "  {\"id\": \"hale\", \"name\": \"Hale\", \"faction\": \"players\", \"at\": [1, 2],"
    "   \"template\": \"bulwark\", \"weapons\": [\"meteor\"], \"stats\": {\"spd\": 30}},"
    "  {\"id\": \"tor\", \"name\": \"Tor\", \"faction\": \"rivals\", \"at\": [6, 2],"
    "   \"template\": \"brawler\", \"weapons\": [\"strike\"]},"
    "  {\"id\": \"ugo\", \"name\": \"Ugo\", \"faction\": \"rivals\", \"at\": [7, 1],"
    "   \"template\": \"brawler\", \"weapons\": [\"strike\"]}]}";

/* A delayed action (activation's Meteor) shows on the table too, whatever
 * the ruleset: its hexes and a banner line, while its user is in sight. */
static void projector_shows_delayed_actions(void **state)
{
    (void)state;
    char dir[] = "/tmp/hb_test_projdelay_XXXXXX";
    video_up(dir);
    world_t w;
    memset(&w, 0, sizeof w);
    char err[HB_ERR_MAX];
    if (map_load_mem(DELAY_MAP, sizeof DELAY_MAP - 1, "delay map", hb_data_dir(), &w.map, &w.db,
                     err, sizeof err) != HB_OK)
        fail_msg("%s", err);
    world_begin(&w, 5);
    battle_t *b = w.play.b;
    cmd_t c = cmd_make(CMD_ENGAGE, find(&w, "hale"));
    c.target = find(&w, "tor");
    c.weapon = 0;
    assert_int_equal(play_apply(&w.play, &c), BATTLE_OK);
    ui_projector_update_view(w.vis, &w.view, b, &w.keys, NULL);
    ui_projector_t p;
    open_projector(&p, w.map);
    int drawn, before_amber;
    int amber = draw_world(&p, &w, &w.view, "test_ui_projector_marks_delay.png", &drawn);
    assert_int_equal(drawn, 1);
    /* Hale out of the view (as a hidden caster would be): nothing of it. */
    ui_view_t v = w.view;
    v.show[find(&w, "hale")] = UI_SHOW_NONE;
    before_amber = draw_world(&p, &w, &v, NULL, &drawn);
    assert_int_equal(drawn, 0);
    assert_true(amber > before_amber + 500); /* the banner's words */
    stage_close(&p, &w, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scars_telegraph_stands_until_resolved),
        cmocka_unit_test(intents_respect_the_fog),
        cmocka_unit_test(projector_draws_telegraph),
        cmocka_unit_test(gauges_player_safe_on_every_map),
        cmocka_unit_test(surface_enemy_shows_armour_not_hp),
        cmocka_unit_test(projector_says_the_battle_is_over),
        cmocka_unit_test(projector_shows_delayed_actions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
