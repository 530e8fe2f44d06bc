/* test_ui_reasons.c - the play window says why (issue 34, item 6): a click
 * on a combatant that is no target of the chosen action names the reason
 * (out of range with the distance against the range, no line of sight, the
 * rules' refusal, itself); a token menu with no actions says why (not its
 * turn, a die awaited, the actor's refusals); hovering or dragging toward a
 * hex out of reach shows the red path and its cost. Driven with SDL events
 * through the play window's event handler on the bundled maps. */
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

static cell_t cell_of(fx_game_t *f, int who)
{
    const battle_t *b = pui_battle(f->p);
    return hex_to_cell(b->map->layout, b->board->pos[who]);
}

static void open_map(fx_game_t *f, const char *name)
{
    fx_game_open(f, name, 7, 1280, 800);
}

/* Let the AI and the dice run until the referee's side acts. */
static void to_user_turn(fx_game_t *f)
{
    pui_t *p = f->p;
    for (int guard = 0; guard < 500 && !p->user_turn && !pui_battle(p)->over; guard++) {
        anim_snap(&p->anim);
        if (pui_needs_die(p))
            pui_enter_die(p, 1);
        else if (pui_needs_answer(p))
            pui_answer(p, 0);
        else
            pui_tick(p, PUI_AI_PAUSE + 0.01);
    }
    anim_snap(&p->anim);
}

typedef struct {
    int range, sight, refused, itself;
} why_t;

/* With a targeted action chosen by its key, click every combatant that is
 * no target of it and read the status line. */
static void not_targets(fx_game_t *f, why_t *w)
{
    pui_t *p = f->p;
    const battle_t *b = pui_battle(p);
    for (int i = 0; i < p->n_bar; i++) {
        const pui_action_t a = p->bar[i];
        if (!a.targeted || a.off || a.group != PUI_GROUP_NONE || !a.key) continue;
        fx_key(&f->st, (SDL_Keycode)a.key, 0);
        if (p->mode != PUI_TARGET && p->mode != PUI_CONFIRM) {
            fx_key(&f->st, SDLK_ESCAPE, 0);
            continue;
        }
        for (int t = 0; t < b->n; t++) {
            if (b->u[t].out || pui_is_target(p, t)) continue;
            fx_click_cell(&f->st, cell_of(f, t), SDL_BUTTON_LEFT);
            assert_non_null(strstr(p->msg, "Not a target for"));
            char want[64];
            snprintf(want, sizeof want, "is %d hexes away",
                     hex_distance(b->board->pos[p->actor], b->board->pos[t]));
            if (t == p->actor) {
                assert_non_null(strstr(p->msg, "cannot target itself"));
                w->itself++;
            } else if (strstr(p->msg, "out of range")) {
                assert_non_null(strstr(p->msg, want));
                w->range++;
            } else if (strstr(p->msg, "no line of sight")) {
                w->sight++;
            } else {
                assert_non_null(strstr(p->msg, "the rules refuse"));
                w->refused++;
            }
        }
        fx_key(&f->st, SDLK_ESCAPE, 0);
        fx_key(&f->st, SDLK_ESCAPE, 0);
    }
}

static void test_not_a_target_says_why(void **state)
{
    (void)state;
    static const char *maps[] = {"ridge_ambush.json", "foundry_breach.json", "river_crossing.json",
                                 "relay_outpost.json", "shattered_lane.json"};
    why_t w = {0};
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
        fx_game_t f;
        open_map(&f, maps[m]);
        pui_t *p = f.p;
        for (int round = 0; round < 30 && !pui_battle(p)->over; round++) {
            to_user_turn(&f);
            if (!p->user_turn) break;
            not_targets(&f, &w);
            cmd_t c;
            p->play.rs->ai(p->play.b, p->actor, &c);
            pui_give(p, &c);
        }
        fx_game_close(&f);
    }
    printf("# not a target: %d out of range, %d out of sight, %d refused, %d itself\n", w.range,
           w.sight, w.refused, w.itself);
    assert_true(w.range > 0);
    assert_true(w.itself > 0);
}

/* The farthest free, passable hex from the actor. */
static cell_t far_cell(fx_game_t *f)
{
    const battle_t *b = pui_battle(f->p);
    const map_t *m = b->map;
    hex_t at = b->board->pos[f->p->actor];
    cell_t best = {0, 0};
    int best_d = -1;
    for (int r = 0; r < m->rows; r++)
        for (int c = 0; c < m->cols; c++) {
            cell_t cl = {c, r};
            hex_t h = hex_from_cell(m->layout, cl);
            if (m->types[m->cells[map_index(m, cl)]].move <= 0) continue;
            if (board_occupant(b->board, h) >= 0) continue;
            int d = hex_distance(at, h);
            if (d > best_d) best = cl, best_d = d;
        }
    return best;
}

static void test_unreachable_hex_shows_red_path(void **state)
{
    (void)state;
    fx_game_t f;
    open_map(&f, "ridge_ambush.json");
    pui_t *p = f.p;
    to_user_turn(&f);
    assert_true(p->user_turn);
    cell_t home = cell_of(&f, p->actor);
    fx_click_cell(&f.st, home, SDL_BUTTON_LEFT); /* select the actor */
    assert_int_equal(p->sel, p->actor);
    cell_t far = far_cell(&f);
    /* Hovering: the path there, red (not ok), its cost over the feet left. */
    fx_hover_cell(&f.st, far);
    assert_true(p->n_path >= 2);
    assert_false(p->path_ok);
    assert_int_equal(p->path[p->n_path - 1].col, far.col);
    assert_int_equal(p->path[p->n_path - 1].row, far.row);
    assert_true(p->path_cost > p->budget_ft);
    int cost = p->path_cost;
    fx_hover_cell(&f.st, home);
    /* A drag of the actor's token toward it: the same red path, then the
     * reason on the status line when it is let go, and nobody moved. */
    fx_hover_cell(&f.st, home);
    fx_button_cell(&f.st, home, SDL_BUTTON_LEFT, true);
    fx_hover_cell(&f.st, far);
    assert_true(p->n_path >= 2);
    assert_false(p->path_ok);
    assert_int_equal(p->path_cost, cost);
    int cmds = pui_battle(p)->cmds.n;
    fx_button_cell(&f.st, far, SDL_BUTTON_LEFT, false);
    assert_int_equal(pui_battle(p)->cmds.n, cmds);
    assert_non_null(strstr(p->msg, "Too far"));
    char want[32];
    snprintf(want, sizeof want, "takes %d ft", cost);
    assert_non_null(strstr(p->msg, want));
    fx_game_close(&f);
}

static void test_no_actions_says_why(void **state)
{
    (void)state;
    fx_game_t f;
    open_map(&f, "ridge_ambush.json");
    pui_t *p = f.p;
    to_user_turn(&f);
    assert_true(p->user_turn);
    const battle_t *b = pui_battle(p);
    /* Another of the referee's side that does not act now. */
    int other = -1;
    for (int i = 0; i < b->n && other < 0; i++)
        if (i != p->actor && !b->u[i].out && battle_is_player(b, i) && !pui_may_pick(p, i))
            other = i;
    assert_true(other >= 0);
    fx_click_cell(&f.st, cell_of(&f, other), SDL_BUTTON_RIGHT);
    assert_true(f.hud.menu.open);
    assert_int_equal(f.hud.menu.n, 0);
    char want[160];
    snprintf(want, sizeof want, "not %s's turn: %s acts", pui_name(p, other),
             pui_name(p, p->actor));
    assert_non_null(strstr(p->msg, want));
    assert_non_null(strstr(f.hud.menu.why, want));
    fx_game_close(&f);
}

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_a_target_says_why),
        cmocka_unit_test(test_unreachable_hex_shows_red_path),
        cmocka_unit_test(test_no_actions_says_why),
    };
    return cmocka_run_group_tests(tests, fx_video_up, fx_video_down);
}
