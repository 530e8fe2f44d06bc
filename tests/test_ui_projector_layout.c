/* test_ui_projector_layout.c - the projector at the true scale keeps each
 * token's stack of gauge bars off its neighbours: at the relay outpost the
 * crew start shoulder to shoulder, and with heat built and armour shot away
 * each carries two bars, which used to sit over the token above it and its
 * name. Each stack goes over its token, else under, right or left of it,
 * where it covers no other token, name or stack. The frames are saved to
 * look at (test_ui_projector_layout_*.png).
 */
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
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "io/fileio.h"
#include "io/map_io.h"
#include "rules/play.h"
#include "ui/camera.h"
#include "ui/draw.h"
#include "ui/fog.h"
#include "ui/projector.h"
#include "tmp_fixture.h"

typedef struct {
    map_t *map;
    tmpl_db_t *db;
    play_t play;
    vision_t *vis;
    ui_view_t view;
    ui_view_keys_t keys;
} world_t;

static void world_open(world_t *w, const char *name, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    char path[1024], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/maps/%s.json", HB_SOURCE_DIR, name);
    if (map_load(path, hb_data_dir(), &w->map, &w->db, err, sizeof err) != HB_OK)
        fail_msg("%s", err);
    battle_opts_t bo = {.seed = seed};
    assert_int_equal(play_start(&w->play, w->map, w->db, NULL, &bo), BATTLE_OK);
    w->vis = vision_create(w->map);
    assert_non_null(w->vis);
    ui_projector_update_view(w->vis, &w->view, w->play.b, &w->keys, NULL);
}

static void world_close(world_t *w)
{
    vision_destroy(w->vis);
    play_end(&w->play);
    tmpl_db_destroy(w->db);
    map_destroy(w->map);
}

/* The canvas drawn as the projector's frame does (view, then marks), with
 * everybody where the battle has them; saved to png. */
static void draw(ui_projector_t *p, world_t *w, const char *png)
{
    const battle_t *b = w->play.b;
    static ui_token_pose_t pose[MAP_MAX_COMBATANTS];
    for (int i = 0; i < b->n; i++) {
        pose[i].world = ui_cell_center(b->map, hex_to_cell(b->map->layout, b->board->pos[i]));
        pose[i].hp = (float)b->u[i].hp;
        pose[i].alpha = battle_active(b, i) ? 1.0f : 0.0f;
    }
    SDL_Renderer *r = p->ren;
    assert_int_equal(SDL_SetRenderTarget(r, p->target), 0);
    ui_projector_draw_view(p->d, b, &w->view, pose, &p->cam, p->tw, p->th);
    ui_projector_draw_marks(p, b, &w->view, pose, &p->cam, p->tw, p->th);
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, p->tw, p->th, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(s);
    assert_int_equal(SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_ARGB8888, s->pixels, s->pitch),
                     0);
    assert_int_equal(IMG_SavePNG(s, png), 0);
    SDL_FreeSurface(s);
    SDL_SetRenderTarget(r, NULL);
}

/* Stat slot NAME of the battle's ruleset, -1 when it has none. */
static int stat_slot(const battle_t *b, const char *name)
{
    const ruleset_t *rs = b->rules;
    for (int k = 0; k < rs->n_stats; k++)
        if (strcmp(rs->stat_names[k], name) == 0) return k;
    return -1;
}

/* Every stack clear of the other tokens, of every name and of the other
 * stacks; returns how many stacks were drawn. */
static int check_clear(const ui_projector_t *p, const battle_t *b)
{
    int stacks = 0;
    for (int i = 0; i < b->n; i++) {
        SDL_Rect s = p->bars[i];
        if (s.w == 0) continue;
        stacks++;
        for (int j = 0; j < b->n; j++) {
            ui_token_drawn_t td;
            if (!ui_draw_token_drawn(p->d, j, &td)) continue;
            if (j != i && SDL_HasIntersection(&s, &td.token))
                fail_msg("%s's bars cover %s's token", b->map->combatants[i].id,
                         b->map->combatants[j].id);
            if (td.label.w > 0 && SDL_HasIntersection(&s, &td.label))
                fail_msg("%s's bars cover %s's name", b->map->combatants[i].id,
                         b->map->combatants[j].id);
            if (j != i && p->bars[j].w > 0 && SDL_HasIntersection(&s, &p->bars[j]))
                fail_msg("%s's bars cover %s's bars", b->map->combatants[i].id,
                         b->map->combatants[j].id);
        }
    }
    return stacks;
}

static void projector_bars_keep_off_neighbours(void **state)
{
    (void)state;
    char dir[] = "/tmp/hb_test_projlayout_XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("XDG_CONFIG_HOME", dir, 1);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);

    /* relay_outpost (surface): the crew run hot with armour shot away. */
    world_t w;
    world_open(&w, "relay_outpost", 3);
    battle_t *b = w.play.b;
    int heat = stat_slot(b, "heat"), armour = stat_slot(b, "armor_hp");
    assert_true(heat >= 0 && armour >= 0);
    int crew = 0;
    for (int i = 0; i < b->n; i++) {
        if (!battle_is_player(b, i)) continue;
        b->u[i].stat[heat] = 2;
        if (b->u[i].stat[armour] > 1) b->u[i].stat[armour] -= 1;
        crew++;
    }
    assert_true(crew >= 3);
    ui_projector_t p;
    ui_projector_init(&p, w.map);
    char err[HB_ERR_MAX] = "";
    if (!ui_projector_open(&p, -1, 0, err, sizeof err)) fail_msg("open: %s", err);
    ui_projector_start_view(&p, b);
    assert_true(fabs(p.cam.zoom - ui_projector_true_zoom(&p)) < 1e-6); /* the true scale */
    draw(&p, &w, "test_ui_projector_layout_relay_outpost.png");
    assert_true(check_clear(&p, b) >= 3);
    /* The crowd is real: some stack could not stand over its token, where
     * every stack used to go. */
    int crowded = 0;
    for (int i = 0; i < b->n; i++) {
        ui_token_drawn_t me;
        if (p.bars[i].w == 0 || !ui_draw_token_drawn(p.d, i, &me)) continue;
        crowded += p.bars[i].y + p.bars[i].h > me.token.y + me.token.h / 2;
    }
    assert_true(crowded > 0);
    ui_projector_free(&p);
    world_close(&w);

    /* foundry_breach (xhalem): a few rounds in, whatever bars stand. */
    world_open(&w, "foundry_breach", 3);
    b = w.play.b;
    for (int k = 0; k < 12 && !b->over; k++) {
        int actors[MAP_MAX_COMBATANTS];
        if (play_actors(&w.play, actors, MAP_MAX_COMBATANTS) < 1) break;
        cmd_t c;
        ((const ruleset_t *)b->rules)->ai(b, actors[0], &c);
        battle_status_t st = play_apply(&w.play, &c);
        assert_true(st == BATTLE_OK || st == BATTLE_OVER);
    }
    ui_projector_update_view(w.vis, &w.view, b, &w.keys, NULL);
    ui_projector_init(&p, w.map);
    if (!ui_projector_open(&p, -1, 0, err, sizeof err)) fail_msg("open: %s", err);
    ui_projector_start_view(&p, b);
    /* At the true scale, on the middle of the crew (ui_projector_start_view
     * fits the whole map when the crew do not fit at that scale). */
    p.cam.zoom = ui_projector_true_zoom(&p);
    vec2_t mid = {0, 0};
    int n_crew = 0;
    for (int i = 0; i < b->n; i++)
        if (battle_is_player(b, i) && battle_active(b, i)) {
            vec2_t c = ui_cell_center(b->map, hex_to_cell(b->map->layout, b->board->pos[i]));
            mid.x += c.x;
            mid.y += c.y;
            n_crew++;
        }
    assert_true(n_crew > 0);
    p.cam.x = mid.x / n_crew - p.tw / (2 * p.cam.zoom);
    p.cam.y = mid.y / n_crew - p.th / (2 * p.cam.zoom);
    draw(&p, &w, "test_ui_projector_layout_foundry_breach.png");
    check_clear(&p, b);
    ui_projector_free(&p);
    world_close(&w);

    TTF_Quit();
    SDL_Quit();
    unsetenv("XDG_CONFIG_HOME");
    tmp_dir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(projector_bars_keep_off_neighbours),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
