/* test_ui_gesture.c - one attack gesture in every ruleset (issue 34, item 3):
 * the action's key, then the target, then Enter or a second click on the same
 * target. A first click on a target never rolls or declares, even when the
 * key already picked it as the only one (xhalem rolled at once there, scars
 * declared). Every bundled map is played through the play window's event
 * handler with SDL events until the referee's side has targeted actions; each
 * one is tried with one click (nothing happens but the odds) and a second
 * click (the command goes to the rules). */
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
#include <SDL_ttf.h>

#include "io/map_io.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

/* A left click (press and release) on combatant t's token. */
static void click_on(fx_game_t *f, int t)
{
    const battle_t *b = pui_battle(f->p);
    fx_click_cell(&f->st, hex_to_cell(b->map->layout, b->board->pos[t]), SDL_BUTTON_LEFT);
}

/* What a command given to the rules leaves behind. */
static int given(const pui_t *p)
{
    return pui_battle(p)->cmds.n + pui_battle(p)->log.n;
}

typedef struct {
    int tried, single, several;
} tally_t;

/* Try bar action i's gesture if it is a targeted one; true when it was. */
static bool try_gesture(fx_game_t *f, int i, tally_t *t)
{
    pui_t *p = f->p;
    const pui_action_t a = p->bar[i];
    if (!a.targeted || a.off || a.group != PUI_GROUP_NONE || !a.key) return false;
    int before = given(p);
    fx_key(&f->st, (SDL_Keycode)a.key, 0);
    if (p->mode != PUI_TARGET && p->mode != PUI_CONFIRM) {
        fx_key(&f->st, SDLK_ESCAPE, 0);
        return false;
    }
    bool single = p->mode == PUI_CONFIRM; /* the key picked the only target */
    int target = single ? p->target : -1;
    for (int k = 0; k < pui_battle(p)->n && target < 0; k++)
        if (pui_is_target(p, k)) target = k;
    if (target < 0) {
        fx_key(&f->st, SDLK_ESCAPE, 0);
        return false;
    }
    /* The first click on the target: the odds, nothing else. */
    click_on(f, target);
    assert_int_equal(given(p), before);
    assert_int_equal(p->mode, PUI_CONFIRM);
    assert_int_equal(p->target, target);
    assert_false(pui_needs_die(p));
    /* The second click on it: the command goes to the rules. */
    click_on(f, target);
    assert_true(given(p) > before);
    assert_int_not_equal(p->mode, PUI_CONFIRM);
    t->tried++;
    t->single += single;
    t->several += !single;
    return true;
}

/* Play map `name` with the screen's AI for the Architect and the rules' AI
 * for the referee's side until `want` gestures were tried. */
static void gestures_on(const char *name, tally_t *t, int want)
{
    fx_game_t f;
    fx_game_open(&f, name, 11, 1280, 800);
    pui_t *p = f.p;
    int tried = 0, single0 = t->single;
    for (int guard = 0; guard < 3000 && tried < want && !pui_battle(p)->over; guard++) {
        anim_snap(&p->anim);
        if (pui_needs_die(p)) {
            pui_enter_die(p, 1);
            continue;
        }
        if (pui_needs_answer(p)) {
            pui_answer(p, 0);
            continue;
        }
        if (!p->user_turn) {
            pui_tick(p, PUI_AI_PAUSE + 0.01);
            continue;
        }
        bool done = false;
        for (int i = 0; i < p->n_bar && !done; i++)
            done = try_gesture(&f, i, t);
        if (done) {
            tried++;
            continue;
        }
        cmd_t c;
        p->play.rs->ai(p->play.b, p->actor, &c);
        pui_give(p, &c);
    }
    printf("# %s: %d gestures (%d with the only target picked by the key)\n", name, tried,
           t->single - single0);
    assert_true(tried > 0);
    fx_game_close(&f);
}

static void test_one_gesture_in_every_ruleset(void **state)
{
    (void)state;
    static const char *maps[] = {"ridge_ambush.json", "foundry_breach.json", "river_crossing.json",
                                 "salt_flats.json",   "relay_outpost.json",  "shattered_lane.json"};
    tally_t t = {0, 0, 0};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        gestures_on(maps[i], &t, 4);
    /* Both ways in: the key picking the only target, and a choice of several. */
    assert_true(t.single > 0);
    assert_true(t.several > 0);
}

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_gesture_in_every_ruleset),
    };
    return cmocka_run_group_tests(tests, fx_video_up, fx_video_down);
}
