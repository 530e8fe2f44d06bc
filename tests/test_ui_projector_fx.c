/* test_ui_projector_fx.c - attack effects on the table projection: which
 * effects the player view lets through (a hidden attacker's tracer is left
 * out, the hit on a visible target stays, enemy damage shows no amount),
 * effects made from real attack events by the animation player, and the
 * projector actually drawing them (or not) on its canvas; and the fog worked
 * out again only when a viewer moves. */
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
#include "ui/anim.h"
#include "ui/camera.h"
#include "ui/fog.h"
#include "ui/projector.h"
#include "tmp_fixture.h"

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

/* The sample battle as the player factions see it at the start: the boss
 * inside the walled house is out of sight, the hound on the ridge in sight,
 * kara one of their own. */
typedef struct {
    play_t play;
    vision_t *vis;
    ui_view_t view;
    int kara, hound, boss;
} fx_world_t;

static void world_open(fx_world_t *w)
{
    memset(w, 0, sizeof *w);
    battle_opts_t bo = {.seed = 11};
    assert_int_equal(play_start(&w->play, g_map, g_db, NULL, &bo), BATTLE_OK);
    w->vis = vision_create(g_map);
    assert_non_null(w->vis);
    ui_view_keys_t keys = {0};
    assert_true(ui_projector_update_view(w->vis, &w->view, w->play.b, &keys, NULL));
    w->kara = map_find_combatant(g_map, "kara");
    w->hound = map_find_combatant(g_map, "hound1");
    w->boss = map_find_combatant(g_map, "boss");
    assert_true(w->kara >= 0 && w->hound >= 0 && w->boss >= 0);
    /* The premise of every check below. */
    assert_int_equal(w->view.show[w->kara], UI_SHOW_ALL);
    assert_int_equal(w->view.show[w->hound], UI_SHOW_NO_HP);
    assert_int_equal(w->view.show[w->boss], UI_SHOW_NONE);
}

static void world_close(fx_world_t *w)
{
    vision_destroy(w->vis);
    play_end(&w->play);
}

static anim_fx_t fx_of(anim_fx_kind_t k, int who, int target)
{
    anim_fx_t f;
    memset(&f, 0, sizeof f);
    f.kind = k;
    f.who = who;
    f.target = target;
    f.value = 4;
    f.life = 1.0;
    return f;
}

/* The rule table of docs/projection.md, effect by effect. */
static void view_decides_effects(void **state)
{
    (void)state;
    fx_world_t w;
    world_open(&w);
    const ui_view_t *v = &w.view;
    /* A shot from the hidden boss: no tracer, but the hit on kara shows. */
    anim_fx_t f = fx_of(FX_TRACER, w.boss, w.kara);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_HIDE);
    f = fx_of(FX_HIT, w.boss, w.kara);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_SHOW);
    f = fx_of(FX_MISS, w.boss, w.kara);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_SHOW);
    f = fx_of(FX_LUNGE, w.boss, w.kara);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_HIDE);
    /* The same shot from the hound in plain sight: all of it. */
    f = fx_of(FX_TRACER, w.hound, w.kara);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_SHOW);
    f = fx_of(FX_LUNGE, w.hound, w.kara);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_SHOW);
    /* Aimed at the hidden boss: nothing at all, not even where it landed. */
    f = fx_of(FX_TRACER, w.kara, w.boss);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_HIDE);
    f = fx_of(FX_HIT, w.kara, w.boss);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_HIDE);
    f = fx_of(FX_AREA, w.kara, w.boss);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_HIDE);
    f = fx_of(FX_NUMBER, -1, w.boss);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_HIDE);
    /* Damage: the amount on the players' own, none on an enemy. */
    f = fx_of(FX_NUMBER, -1, w.kara);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_SHOW);
    f = fx_of(FX_NUMBER, -1, w.hound);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_NO_AMOUNT);
    f = fx_of(FX_AREA, w.kara, w.hound);
    assert_int_equal(ui_view_fx(v, &f), UI_FX_SHOW);
    /* The referee's window (no view) shows everything. */
    f = fx_of(FX_TRACER, w.boss, w.kara);
    assert_int_equal(ui_view_fx(NULL, &f), UI_FX_SHOW);
    /* Once the boss is in sight, its shot shows. */
    w.view.show[w.boss] = UI_SHOW_NO_HP;
    assert_int_equal(ui_view_fx(v, &f), UI_FX_SHOW);
    world_close(&w);
}

/* A player weapon that shoots (a tracer, not a lunge). */
static const weapon_t *ranged_weapon(const battle_t *b, int who)
{
    for (int k = 0; k < b->u[who].n_weapons; k++)
        if (b->u[who].weapon[k] && b->u[who].weapon[k]->cls != WPN_MELEE)
            return b->u[who].weapon[k];
    return NULL;
}

/* Effects made by the animation player from attack and damage events carry
 * who they are about, so the view can judge them. */
static void anim_effects_name_their_combatants(void **state)
{
    (void)state;
    fx_world_t w;
    world_open(&w);
    battle_t *b = w.play.b;
    int shooter = -1;
    const weapon_t *gun = NULL;
    for (int i = 0; i < b->n && !gun; i++)
        if (i != w.boss && (gun = ranged_weapon(b, i)) != NULL) shooter = i;
    if (!gun) skip();
    anim_t a;
    assert_true(anim_init(&a, b));
    int base = b->log.n;
    event_t e = event_make(EV_ATTACK);
    e.who = w.boss;
    e.target = w.kara;
    e.hit = true;
    hb_strlcpy(e.name, b->u[w.boss].weapon[0]->id, sizeof e.name);
    assert_true(event_push(&b->log, &e));
    e = event_make(EV_DAMAGE);
    e.target = w.kara;
    e.amount = 3;
    e.hp = b->u[w.kara].hp;
    assert_true(event_push(&b->log, &e));
    anim_step(&a, 0.01); /* the attack beat has begun */
    bool saw_number = false, saw_attack = false;
    for (int i = 0; i < a.n_fx; i++) {
        const anim_fx_t *f = &a.fx[i];
        saw_attack = true;
        assert_int_equal(f->who, w.boss);
        assert_int_equal(f->target, w.kara);
        /* Lunge or tracer from the hidden boss: left out; the flash on kara: shown. */
        bool at_target = f->kind == FX_HIT || f->kind == FX_MISS || f->kind == FX_AREA;
        assert_int_equal(ui_view_fx(&w.view, f), at_target ? UI_FX_SHOW : UI_FX_HIDE);
    }
    anim_step(&a, 0.40); /* past the attack beat, into the damage beat */
    for (int i = 0; i < a.n_fx; i++) {
        const anim_fx_t *f = &a.fx[i];
        if (f->kind != FX_NUMBER) continue;
        saw_number = true;
        assert_int_equal(f->target, w.kara);
        assert_int_equal(f->who, -1);
        assert_int_equal(f->value, 3);
        assert_int_equal(ui_view_fx(&w.view, f), UI_FX_SHOW);
    }
    assert_true(saw_number && saw_attack);
    /* A shot by a visible combatant at the hound: a tracer the view shows. */
    anim_snap(&a);
    e = event_make(EV_ATTACK);
    e.who = shooter;
    e.target = w.hound;
    e.hit = true;
    hb_strlcpy(e.name, gun->id, sizeof e.name);
    assert_true(event_push(&b->log, &e));
    anim_step(&a, 0.01);
    bool tracer = false;
    for (int i = 0; i < a.n_fx; i++)
        if (a.fx[i].kind == FX_TRACER) {
            tracer = true;
            assert_int_equal(a.fx[i].who, shooter);
            assert_int_equal(ui_view_fx(&w.view, &a.fx[i]), UI_FX_SHOW);
        }
    assert_true(tracer);
    b->log.n = base; /* the battle as it was, for play_end */
    anim_free(&a);
    world_close(&w);
}

static bool is_tracer_ink(const Uint8 *px)
{
    /* ARGB8888 in memory (little endian): B, G, R, A. */
    return px[2] > 230 && px[1] > 215 && px[0] > 120 && px[0] < 200;
}

/* Count tracer-coloured pixels on the projector's canvas after drawing f. */
static int tracer_pixels(ui_projector_t *p, const ui_view_t *v, const anim_fx_t *f)
{
    SDL_Renderer *r = p->ren;
    assert_int_equal(SDL_SetRenderTarget(r, p->target), 0);
    SDL_SetRenderDrawColor(r, 0, 0, 0, 255);
    SDL_RenderClear(r);
    ui_projector_draw_fx(p, v, f, 1, &p->cam);
    Uint8 *buf = malloc((size_t)p->tw * (size_t)p->th * 4);
    assert_non_null(buf);
    assert_int_equal(SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_ARGB8888, buf, p->tw * 4), 0);
    int n = 0;
    for (int i = 0; i < p->tw * p->th; i++)
        n += is_tracer_ink(buf + 4 * i);
    free(buf);
    SDL_SetRenderTarget(r, NULL);
    return n;
}

/* The player view with a volley of effects on it, saved for a person to
 * look at: returns how many effects the projector drew. */
static int snapshot(ui_projector_t *p, const fx_world_t *w, const anim_fx_t *fx, int n,
                    const char *path)
{
    SDL_Renderer *r = p->ren;
    assert_int_equal(SDL_SetRenderTarget(r, p->target), 0);
    ui_projector_draw_view(p->d, w->play.b, &w->view, NULL, &p->cam, p->tw, p->th);
    int drawn = ui_projector_draw_fx(p, &w->view, fx, n, &p->cam);
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, p->tw, p->th, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(s);
    assert_int_equal(SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_ARGB8888, s->pixels, s->pitch),
                     0);
    assert_int_equal(IMG_SavePNG(s, path), 0);
    SDL_FreeSurface(s);
    SDL_SetRenderTarget(r, NULL);
    return drawn;
}

/* The projector draws a tracer between two combatants in sight and nothing
 * for the same shot from the hidden boss. */
static void projector_draws_allowed_effects(void **state)
{
    (void)state;
    char dir[] = "/tmp/hb_test_projfx_XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("XDG_CONFIG_HOME", dir, 1);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    fx_world_t w;
    world_open(&w);
    ui_projector_t p;
    ui_projector_init(&p, g_map);
    char err[HB_ERR_MAX] = "";
    if (!ui_projector_open(&p, -1, 0, err, sizeof err)) fail_msg("open: %s", err);
    /* Fit the whole map on the canvas so both ends are on it. */
    ui_cam_fit(&p.cam, ui_map_bounds(g_map), p.tw, p.th, 10);
    const battle_t *b = w.play.b;
    anim_fx_t f = fx_of(FX_TRACER, w.hound, w.kara);
    f.a = ui_cell_center(g_map, hex_to_cell(g_map->layout, b->board->pos[w.hound]));
    f.b = ui_cell_center(g_map, hex_to_cell(g_map->layout, b->board->pos[w.kara]));
    f.age = 0.4; /* mid-flight: a long stretch of the line is lit */
    int seen = tracer_pixels(&p, &w.view, &f);
    assert_true(seen > 20);
    f.who = w.boss;
    f.a = ui_cell_center(g_map, hex_to_cell(g_map->layout, b->board->pos[w.boss]));
    assert_int_equal(tracer_pixels(&p, &w.view, &f), 0);
    assert_true(tracer_pixels(&p, NULL, &f) > 20); /* the referee's view would show it */

    /* A volley: the hound shoots kara (tracer, hit, her damage shown), kara
     * blasts the hound (its hex lit, a plain "hit"), the hidden boss shoots kara
     * (its tracer left out) and is shot at (nothing shown). */
    vec2_t at_k = f.b,
           at_h = ui_cell_center(g_map, hex_to_cell(g_map->layout, b->board->pos[w.hound]));
    vec2_t at_b = f.a;
    anim_fx_t v[8];
    v[0] = fx_of(FX_TRACER, w.hound, w.kara);
    v[1] = fx_of(FX_HIT, w.hound, w.kara);
    v[2] = fx_of(FX_NUMBER, -1, w.kara);
    v[3] = fx_of(FX_AREA, w.kara, w.hound);
    v[4] = fx_of(FX_NUMBER, -1, w.hound);
    v[5] = fx_of(FX_TRACER, w.boss, w.kara);
    v[6] = fx_of(FX_HIT, w.kara, w.boss);
    v[7] = fx_of(FX_NUMBER, -1, w.boss);
    vec2_t from[8] = {at_h, at_k, at_k, at_h, at_h, at_b, at_b, at_b};
    vec2_t to[8] = {at_k, at_k, at_k, at_h, at_h, at_k, at_b, at_b};
    for (int i = 0; i < 8; i++) {
        v[i].a = from[i];
        v[i].b = to[i];
        v[i].age = 0.3;
    }
    v[3].pts = &at_h; /* the blast's one struck hex, where the hound stands */
    v[3].n_pts = 1;
    v[3].orient = g_map->layout.orient;
    /* Close up on the ridge, as a table would see it. */
    p.cam.zoom = fmin(p.tw / (fabs(at_k.x - at_h.x) + 8), p.th / (fabs(at_k.y - at_h.y) + 8));
    p.cam.x = (at_k.x + at_h.x) / 2 - p.tw / (2 * p.cam.zoom);
    p.cam.y = (at_k.y + at_h.y) / 2 - p.th / (2 * p.cam.zoom);
    assert_int_equal(snapshot(&p, &w, v, 8, "/tmp/hb_test_projfx_volley.png"), 5);
    ui_projector_free(&p);
    world_close(&w);
    TTF_Quit();
    SDL_Quit();
    unsetenv("XDG_CONFIG_HOME");
    tmp_dir_remove(dir);
}

/* The fog is worked out again only when a viewer moves; an enemy stepping
 * or a new log event rebuilds just the filters. */
static void fog_only_for_viewer_moves(void **state)
{
    (void)state;
    fx_world_t w;
    world_open(&w);
    battle_t *b = w.play.b;
    board_t *bd = b->board;
    ui_view_keys_t k = {0};
    assert_true(ui_projector_update_view(w.vis, &w.view, b, &k, NULL));
    assert_int_equal(k.fog_updates, 1);
    assert_false(ui_projector_update_view(w.vis, &w.view, b, &k, NULL));
    int visible = vision_count_visible(w.vis);

    /* The hound walks into the dark house where the boss stands: gone from
     * the view, with no new fog. (Only positions are read, so the board's
     * occupancy index may stay as it was for this check.) */
    hex_t hound_at = bd->pos[w.hound], kara_at = bd->pos[w.kara];
    bd->pos[w.hound] = bd->pos[w.boss];
    assert_true(ui_projector_update_view(w.vis, &w.view, b, &k, NULL));
    assert_int_equal(k.fog_updates, 1);
    assert_int_equal(w.view.show[w.hound], UI_SHOW_NONE);
    bd->pos[w.hound] = hound_at;
    assert_true(ui_projector_update_view(w.vis, &w.view, b, &k, NULL));
    assert_int_equal(w.view.show[w.hound], UI_SHOW_NO_HP);
    assert_int_equal(k.fog_updates, 1);

    /* A log event alone (say, a hider found) rebuilds the filters. */
    int n = b->log.n;
    event_t e = event_make(EV_ROUND_END);
    assert_true(event_push(&b->log, &e));
    assert_true(ui_projector_update_view(w.vis, &w.view, b, &k, NULL));
    assert_int_equal(k.fog_updates, 1);
    b->log.n = n;

    /* Kara steps: a new fog from her new hex. */
    bd->pos[w.kara] = bd->pos[w.boss];
    assert_true(ui_projector_update_view(w.vis, &w.view, b, &k, NULL));
    assert_int_equal(k.fog_updates, 2);
    assert_int_not_equal(vision_count_visible(w.vis), visible);
    bd->pos[w.kara] = kara_at;
    world_close(&w);
}

/* Same bits as vision_update? */
static void assert_same_fog(const vision_t *a, const vision_t *b)
{
    assert_int_equal(a->n_words, b->n_words);
    assert_memory_equal(a->visible, b->visible, sizeof *a->visible * (size_t)a->n_words);
    assert_memory_equal(a->seen, b->seen, sizeof *a->seen * (size_t)a->n_words);
}

/* The per-viewer fog gives what vision_update gives, step after step, and
 * traces only the viewer who moved (all of them when the terrain changes). */
static void fog_cache_matches_vision(void **state)
{
    (void)state;
    fx_world_t w;
    world_open(&w);
    battle_t *b = w.play.b;
    board_t *bd = b->board;
    unsigned sides = vision_player_sides(bd);
    vision_t *ref = vision_create(g_map), *got = vision_create(g_map);
    assert_non_null(ref);
    assert_non_null(got);
    ui_fog_cache_t c;
    assert_true(ui_fog_cache_init(&c, bd, sides));
    int viewers = 0;
    for (int i = 0; i < bd->n; i++)
        viewers += bd->present[i] && ((sides >> bd->side[i]) & 1u);
    assert_true(viewers >= 2);
    vision_update(ref, bd, sides);
    ui_fog_update(&c, got, bd);
    assert_same_fog(ref, got);
    assert_int_equal(c.traces, viewers);
    ui_fog_update(&c, got, bd); /* nothing moved: nothing traced */
    assert_int_equal(c.traces, viewers);

    /* Kara walks east along her row, a hex at a time. */
    hex_t kara_at = bd->pos[w.kara];
    for (int step = 1; step <= 6; step++) {
        bd->pos[w.kara] = (hex_t){kara_at.q + step, kara_at.r};
        vision_update(ref, bd, sides);
        ui_fog_update(&c, got, bd);
        assert_same_fog(ref, got);
        assert_int_equal(c.traces, viewers + step);
    }
    /* An enemy moving traces nobody. */
    hex_t hound_at = bd->pos[w.hound];
    bd->pos[w.hound] = kara_at;
    ui_fog_update(&c, got, bd);
    assert_int_equal(c.traces, viewers + 6);
    bd->pos[w.hound] = hound_at;
    /* Kara off the board: her sight goes, the others' stays. */
    bd->present[w.kara] = false;
    vision_update(ref, bd, sides);
    ui_fog_update(&c, got, bd);
    assert_same_fog(ref, got);
    bd->present[w.kara] = true;
    bd->pos[w.kara] = kara_at;
    vision_update(ref, bd, sides);
    ui_fog_update(&c, got, bd);
    assert_same_fog(ref, got);
    /* A wall turned into open ground: everybody traced again. */
    int traced = c.traces;
    map_t *m = (map_t *)bd->map;
    uint8_t open = m->cells[board_cell_index(bd, bd->pos[w.kara])];
    int wall = -1;
    for (int i = 0; i < m->cols * m->rows && wall < 0; i++)
        if (!vision_visible(ref, (cell_t){i % m->cols, i / m->cols}) && m->cells[i] != open)
            wall = i;
    assert_true(wall >= 0);
    uint8_t was = m->cells[wall];
    m->cells[wall] = open;
    vision_update(ref, bd, sides);
    ui_fog_update(&c, got, bd);
    assert_same_fog(ref, got);
    assert_int_equal(c.traces, traced + viewers);
    m->cells[wall] = was;

    ui_fog_cache_free(&c);
    vision_destroy(ref);
    vision_destroy(got);
    world_close(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(view_decides_effects),
        cmocka_unit_test(anim_effects_name_their_combatants),
        cmocka_unit_test(projector_draws_allowed_effects),
        cmocka_unit_test(fog_only_for_viewer_moves),
        cmocka_unit_test(fog_cache_matches_vision),
    };
    return cmocka_run_group_tests(tests, load_sample, free_sample);
}
