/* test_ui_table_view.c - the referee sees what the table sees (issue 34,
 * item 12), on the play window drawn headless: scars' telegraphed
 * intentions are marked on the laptop's map as on the projector (rings and
 * arrows in the telegraph's amber, a banner in words that keeps off the
 * tokens), and a side rolling physical dice is marked on the tracker for as
 * long as it does (P through the window's key handler, on and off). */
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
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define REC_MAX 4096
static ui_text_rec_t rec[REC_MAX];

static void game_open(fx_game_t *g, const char *name, uint64_t seed)
{
    char file[256];
    snprintf(file, sizeof file, "%s.json", name);
    fx_game_open(g, file, seed, 0, 0);
}

/* The telegraph's amber (hud_map.c C_INTENT) in the map area of s. */
static int amber_in(const SDL_Surface *s, SDL_Rect r)
{
    int n = 0;
    for (int y = r.y; y < r.y + r.h; y++) {
        const Uint8 *row = (const Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch;
        for (int x = r.x; x < r.x + r.w; x++) {
            const Uint8 *px = row + 4 * x; /* ARGB8888 little endian: B, G, R, A */
            n += px[2] > 245 && px[1] > 186 && px[1] < 206 && px[0] > 30 && px[0] < 50;
        }
    }
    return n;
}

static void test_laptop_marks_scars_telegraph(void **state)
{
    (void)state;
    fx_game_t g;
    game_open(&g, "salt_flats", 7);
    pui_t *p = g.p;
    const battle_t *b = p->play.b;
    ui_state_t st;
    SDL_Surface *s0 = fx_play_surface(p, &g.hud, 1280, 720, NULL, &st);
    int before = amber_in(s0, g.hud.lay.map);
    assert_int_equal(g.hud.n_intents, 0);
    SDL_FreeSurface(s0);

    /* The referee telegraphs the raiders' moves (the F3 call). */
    int gun = map_find_combatant(g.m, "gun");
    assert_true(gun >= 0);
    cmd_t c = cmd_make(CMD_TELEGRAPH, gun);
    c.arg = 1;
    assert_int_equal(pui_give(p, &c), BATTLE_OK);
    intent_t it[HUD_INTENTS_MAX];
    int n = ruleset_intents(p->play.rs, b, it, HUD_INTENTS_MAX);
    assert_true(n >= 2);

    SDL_Surface *s1 =
        fx_play_surface(p, &g.hud, 1280, 720, "test_ui_table_view_telegraph.png", &st);
    int after = amber_in(s1, g.hud.lay.map);
    /* Every intention marked, a ring at least around each who. */
    assert_int_equal(g.hud.n_intents, n);
    assert_true(after > before + 200 * n);
    for (int k = 0; k < n; k++) {
        SDL_Point at = fx_cell_point(&st, hex_to_cell(g.m->layout, b->board->pos[it[k].who]));
        int r = (int)(st.cam.zoom * 1.05) + 2;
        SDL_Rect box = {at.x - r, at.y - r, 2 * r, 2 * r};
        SDL_Rect in;
        assert_true(SDL_IntersectRect(&box, &g.hud.lay.map, &in));
        assert_true(amber_in(s1, in) > 20);
    }
    /* The banner lies on the map and covers no token. */
    SDL_Rect ban = g.hud.banner, in;
    assert_true(ban.w > 0 && ban.h > 0);
    assert_true(SDL_IntersectRect(&ban, &g.hud.lay.map, &in) && in.w == ban.w && in.h == ban.h);
    for (int i = 0; i < b->n; i++) {
        if (!battle_active(b, i)) continue;
        SDL_Point at = fx_cell_point(&st, hex_to_cell(g.m->layout, b->board->pos[i]));
        int r = (int)ui_token_screen_radius(g.m->combatants[i].size, st.cam.zoom);
        SDL_Rect tok = {at.x - r, at.y - r, 2 * r, 2 * r};
        assert_false(SDL_HasIntersection(&tok, &ban));
    }
    SDL_FreeSurface(s1);
    fx_game_close(&g);
}

/* Draw p's window (st's HUD) at w x ht with texts recorded in rec. */
static int draw_recorded(pui_t *p, ui_state_t *st, int w, int ht, const char *png)
{
    return fx_draw_texts(p, st, w, ht, png, rec, REC_MAX);
}

/* Texts drawn inside r that start with `what`. */
static int texts_in(int n, SDL_Rect r, const char *what)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += strncmp(rec[i].s, what, strlen(what)) == 0 && SDL_HasIntersection(&rec[i].at, &r);
    return k;
}

static void test_tracker_marks_physical_dice(void **state)
{
    (void)state;
    fx_game_t g;
    game_open(&g, "ridge_ambush", 3);
    pui_t *p = g.p;
    const battle_t *b = p->play.b;
    pui_run_ai(p, 200);
    anim_snap(&p->anim);
    assert_true(p->user_turn);
    ui_state_t st;
    fx_state_fit(&st, &g.hud, g.m, 1920, 1080);
    int n = draw_recorded(p, &st, 1920, 1080, NULL);
    assert_int_equal(texts_in(n, g.hud.lay.tracker, "Physical dice"), 0);
    assert_int_equal(texts_in(n, g.hud.lay.tracker, "dice"), 0);

    /* P through the window: the actor's side rolls physical dice. */
    int side = b->board->side[p->actor], members = 0;
    for (int i = 0; i < b->n; i++)
        members += b->board->side[i] == side;
    fx_key(&st, SDLK_p, 0);
    assert_true((p->phys_sides >> side) & 1u);
    n = draw_recorded(p, &st, 1920, 1080, "test_ui_table_view_dice.png");
    assert_int_equal(texts_in(n, g.hud.lay.tracker, "Physical dice"), 1);
    bool named = false;
    for (int i = 0; i < n; i++)
        if (strncmp(rec[i].s, "Physical dice", 13) == 0 &&
            strstr(rec[i].s, b->board->side_name[side]))
            named = true;
    assert_true(named);
    /* A tag on the tracker row of each of the side's combatants. */
    int tags = 0;
    for (int i = 0; i < n; i++)
        tags +=
            strcmp(rec[i].s, "dice") == 0 && SDL_HasIntersection(&rec[i].at, &g.hud.lay.tracker);
    assert_int_equal(tags, members);

    /* Still marked turns later, while the side keeps rolling its own dice. */
    for (int guard = 0; guard < 60 && pui_battle(p)->round < 2 && !b->over; guard++) {
        if (pui_needs_die(p)) {
            pui_enter_die(p, 1);
            continue;
        }
        if (p->user_turn)
            fx_key(&st, SDLK_e, 0);
        else
            pui_run_ai(p, 1);
        anim_snap(&p->anim);
    }
    n = draw_recorded(p, &st, 1920, 1080, NULL);
    assert_int_equal(texts_in(n, g.hud.lay.tracker, "Physical dice"), 1);

    /* P again on one of the side's turns: the mark goes. */
    for (int guard = 0; guard < 60 && !(p->user_turn && b->board->side[p->actor] == side);
         guard++) {
        if (pui_needs_die(p))
            pui_enter_die(p, 1);
        else
            pui_run_ai(p, 1);
    }
    assert_true(p->user_turn && !pui_needs_die(p));
    fx_key(&st, SDLK_p, 0);
    assert_false((p->phys_sides >> side) & 1u);
    n = draw_recorded(p, &st, 1920, 1080, NULL);
    assert_int_equal(texts_in(n, g.hud.lay.tracker, "Physical dice"), 0);
    assert_int_equal(texts_in(n, g.hud.lay.tracker, "dice"), 0);
    fx_game_close(&g);
}

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_laptop_marks_scars_telegraph),
        cmocka_unit_test(test_tracker_marks_physical_dice),
    };
    return cmocka_run_group_tests(tests, fx_video_up, fx_video_down);
}
