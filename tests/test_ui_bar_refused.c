/* test_ui_bar_refused.c - an action the rules refuse for now stays on the
 * action bar, greyed, with the rules' reason (ruleset_t.refused): at the
 * relay outpost (surface), once Ilse Marr has moved her Arc Beam (a ranged
 * weapon without Assault) may not fire this turn; its button must say so
 * instead of vanishing, its key must only tell why, and nothing is given.
 * The frame is saved to look at (test_ui_bar_refused.png).
 */
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
#include "rules/ruleset.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_bundled_fixture.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1400
#define VIEW_H 900

/* The bar entry whose label is `label`, -1 when none. */
static int bar_find(const pui_t *p, const char *label)
{
    for (int i = 0; i < p->n_bar; i++)
        if (strcmp(p->bar[i].label, label) == 0) return i;
    return -1;
}

/* Does rectangle r of s hold pixels of colour c? */
static bool has_colour(SDL_Surface *s, SDL_Rect r, SDL_Color c)
{
    uint32_t want = SDL_MapRGB(s->format, c.r, c.g, c.b) & 0xFFFFFFu;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) {
            if (x < 0 || y < 0 || x >= s->w || y >= s->h) continue;
            uint32_t px = ((uint32_t *)((uint8_t *)s->pixels + y * s->pitch))[x];
            if ((px & 0xFFFFFFu) == want) return true;
        }
    return false;
}

static void test_beam_after_move_greyed(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "relay_outpost", 3);
    pui_t *p = f.p;
    pui_run_ai(p, 400);
    assert_true(p->user_turn);
    battle_t *b = p->play.b;
    int ilse = map_find_combatant(b->map, "tech");
    assert_true(ilse >= 0);
    /* Her faction acts in any order: a click on her token makes her the actor. */
    assert_true(pui_may_pick(p, ilse));
    assert_true(pui_click_cell(p, hex_to_cell(b->map->layout, b->board->pos[ilse])));
    assert_int_equal(p->actor, ilse);
    int beam = bar_find(p, "Attack: Arc Beam");
    if (beam >= 0) assert_false(p->bar[beam].off); /* unmoved: legal, or not shown */

    pui_action_t before[PUI_MAX_BAR];
    int n_before = p->n_bar;
    memcpy(before, p->bar, sizeof before);
    bool could_sprint = bar_find(p, "Move: sprint") >= 0;

    /* One hex of walking: click the nearest shaded hex. */
    assert_true(p->n_reach > 1);
    cell_t to = {-1, -1};
    hex_t at = b->board->pos[ilse];
    for (int k = 0; k < p->n_reach; k++) {
        hex_t h = hex_from_cell(b->map->layout, p->reach[k].at);
        if (hex_distance(h, at) == 1) {
            to = p->reach[k].at;
            break;
        }
    }
    assert_true(to.col >= 0);
    assert_true(pui_hover_cell(p, to, true) || p->n_path >= 2);
    assert_true(pui_click_cell(p, to));
    assert_int_equal(p->actor, ilse);
    assert_true(hex_eq(b->board->pos[ilse], hex_from_cell(b->map->layout, to)));
    assert_true(p->user_turn);

    /* The beam may not fire after a move: greyed, with the rules' reason. */
    beam = bar_find(p, "Attack: Arc Beam");
    assert_true(beam >= 0);
    assert_true(p->bar[beam].off);
    assert_non_null(strstr(p->bar[beam].why, "after a move"));
    for (int k = 0; k < p->n_legal; k++)
        assert_false(p->legal[k].kind == CMD_ENGAGE && p->legal[k].weapon == p->bar[beam].weapon);
    /* The ruleset says so through its hook, never through a legal command. */
    refusal_t no[8];
    int n_no = ruleset_refused(p->play.rs, b, ilse, no, 8);
    assert_true(n_no >= 1);

    /* Sprinting takes both actions: greyed too, with the count. */
    if (could_sprint) {
        int sprint = bar_find(p, "Move: sprint");
        assert_true(sprint >= 0);
        assert_true(p->bar[sprint].off);
        assert_string_equal(p->bar[sprint].why, "needs 2 actions, 1 left");
    }
    /* Every button she had when picked keeps its key after her first
     * command (surface starts her turn with it). */
    for (int k = 0; k < n_before; k++)
        for (int i = 0; i < p->n_bar; i++)
            if (p->bar[i].kind == before[k].kind && p->bar[i].act == before[k].act &&
                p->bar[i].weapon == before[k].weapon && p->bar[i].arg == before[k].arg &&
                p->bar[i].group == before[k].group && p->bar[i].weapon2 == before[k].weapon2 &&
                p->bar[i].key != before[k].key)
                fail_msg("\"%s\" went from key %c to %c", p->bar[i].label, before[k].key,
                         p->bar[i].key);

    /* Its key only tells why: no targeting, no command given. */
    int cmds = b->cmds.n;
    assert_true(pui_key(p, (SDL_Keycode)p->bar[beam].key, 0));
    assert_int_equal(p->mode, PUI_IDLE);
    assert_int_equal(p->play.b->cmds.n, cmds);
    assert_non_null(strstr(p->msg, "Arc Beam"));
    assert_non_null(strstr(p->msg, "after a move"));

    /* Drawn greyed, and the hovered button's tooltip gives the reason. */
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    hud_t h;
    assert_true(hud_init(&h, p));
    ui_state_t st;
    SDL_FreeSurface(fx_play_surface(p, &h, VIEW_W, VIEW_H, NULL, &st));
    SDL_Rect br = hud_button_rect(&h, beam);
    st.hud = &h;
    fx_motion(&st, br.x + br.w / 2, br.y + br.h / 2);
    assert_int_equal(h.hover_btn, beam);
    SDL_Surface *s = fx_play_surface(p, &h, VIEW_W, VIEW_H, "test_ui_bar_refused.png", NULL);
    SDL_Rect inside = {br.x + 1, br.y + 1, br.w - 2, br.h - 2};
    assert_true(has_colour(s, inside, (SDL_Color){40, 42, 48, 255}));
    SDL_FreeSurface(s);
    hud_free(&h);
    TTF_Quit();
    SDL_Quit();
    fx_close(&f);
}

/* Play MAP through the screen (the AI choosing the referee's commands too)
 * and check every bar: a greyed button has a reason and no legal command,
 * a live one has one. Returns how many greyed buttons were seen. */
static int greyed_in_play(const char *map, uint64_t seed, char *why, size_t cap)
{
    fx_t f;
    fx_open(&f, map, seed);
    pui_t *p = f.p;
    int greyed = 0;
    for (int step = 0; step < 150; step++) {
        pui_run_ai(p, 400);
        if (!p->user_turn || p->play.b->over) break;
        for (int i = 0; i < p->n_bar; i++) {
            const pui_action_t *a = &p->bar[i];
            bool legal = a->group != PUI_GROUP_NONE;
            for (int k = 0; k < p->n_legal && !legal; k++)
                legal = p->legal[k].kind == a->kind && p->legal[k].act == a->act &&
                        p->legal[k].weapon == a->weapon && p->legal[k].weapon2 == a->weapon2 &&
                        p->legal[k].arg == a->arg;
            if (a->off) {
                assert_false(legal);
                assert_true(a->why[0] != 0);
                if (greyed++ == 0) snprintf(why, cap, "%s: %s", a->label, a->why);
            } else {
                assert_true(legal);
            }
        }
        cmd_t c;
        p->play.rs->ai(p->play.b, p->actor, &c);
        if (pui_give(p, &c) != BATTLE_OK) break;
    }
    fx_close(&f);
    return greyed;
}

/* Activation's Complex actions and PP costs, emcore's Aim and Evade:
 * once the actor cannot pay, the action stays greyed with what it costs
 * and what is left. */
static void test_activation_costs_greyed(void **state)
{
    (void)state;
    char why[128] = "";
    int n = greyed_in_play("shattered_lane", 2, why, sizeof why);
    assert_true(n > 0);
    assert_true(strstr(why, " left") != NULL);
    print_message("activation, greyed: %s\n", why);
    /* Surface too, over a whole battle: every greyed one is refused. */
    assert_true(greyed_in_play("relay_outpost", 3, why, sizeof why) > 0);
    /* emcore: Aim and Evade once the slot's points run short. */
    assert_true(greyed_in_play("river_crossing", 5, why, sizeof why) > 0);
    assert_non_null(strstr(why, "points"));
    print_message("emcore, greyed: %s\n", why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_beam_after_move_greyed),
        cmocka_unit_test(test_activation_costs_greyed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
