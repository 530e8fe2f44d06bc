/* test_ui_present.c - the play screen reads the rulesets' presentation hooks
 * (ruleset.h, G3): on each bundled map, an attack chosen through the action
 * bar and confirmed on a target shows the ruleset's own odds (the same as
 * predict_cmd gives for that command); on the surface map the frame shows
 * the odds over the target and the gauges past HP (heat) under the token
 * and in the tracker. The frame is saved to look at (test_ui_present.png).
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

#include "io/map_io.h"
#include "rules/predict.h"
#include "rules/ruleset.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_bundled_fixture.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1400
#define VIEW_H 900

/* Through the action bar, as the referee would: choose an attack and click
 * a target until one is waiting for confirmation with odds shown. The
 * player's side lets the AI play its turns until that is possible. */
static bool confirm_some_attack(pui_t *p)
{
    for (int turn = 0; turn < 60; turn++) {
        pui_run_ai(p, 400);
        if (!p->user_turn) return false;
        const battle_t *b = p->play.b;
        for (int i = 0; i < p->n_bar; i++) {
            if (!p->bar[i].targeted) continue;
            for (int t = 0; t < b->n; t++) {
                if (!pui_choose(p, i)) break;
                if (p->mode != PUI_TARGET || !pui_is_target(p, t)) {
                    pui_cancel(p);
                    continue;
                }
                pui_click_cell(p, hex_to_cell(b->map->layout, b->board->pos[t]));
                if (p->mode == PUI_CONFIRM && p->pred.valid) return true;
                pui_cancel(p);
                pui_cancel(p);
            }
        }
        /* Nothing to attack from here: the AI takes this turn's command. */
        cmd_t c;
        p->play.rs->ai(p->play.b, p->actor, &c);
        if (pui_give(p, &c) != BATTLE_OK) return false;
    }
    return false;
}

/* The odds on screen are the ruleset's for the command waiting. */
static void check_odds_shown(const char *map, uint64_t seed)
{
    fx_t f;
    fx_open(&f, map, seed);
    pui_t *p = f.p;
    if (!confirm_some_attack(p)) fail_msg("%s: no attack could be confirmed", map);
    cmd_t c;
    assert_true(pui_preview_cmd(p, &c));
    assert_int_equal(c.target, p->target);
    /* A move before the attack is judged from where it ends: only a plain
     * attack is compared with the rules from here. */
    if (c.n_path == 0) {
        predict_t want;
        assert_true(predict_cmd(p->play.b, &c, &want));
        assert_true(fabs(p->pred.p_hit - want.p_hit) < 1e-12);
        assert_true(fabs(p->pred.dmg_expected - want.dmg_expected) < 1e-12);
        assert_string_equal(p->pred.detail, want.detail);
    }
    /* The message line says the odds and how they are reached. */
    bool certain = p->pred.p_hit <= 0.0 || p->pred.p_hit >= 1.0;
    assert_non_null(strstr(p->msg, certain ? "expected" : "% to hit"));
    if (p->pred.detail[0]) assert_non_null(strstr(p->msg, p->pred.detail));
    fx_close(&f);
}

static void test_odds_xhalem(void **state)
{
    (void)state;
    check_odds_shown("ridge_ambush", 3);
}

static void test_odds_scars(void **state)
{
    (void)state;
    check_odds_shown("salt_flats", 9);
}

static void test_odds_surface(void **state)
{
    (void)state;
    check_odds_shown("relay_outpost", 3);
}

static void test_odds_emcore(void **state)
{
    (void)state;
    check_odds_shown("river_crossing", 5);
}

static void test_odds_activation(void **state)
{
    (void)state;
    check_odds_shown("shattered_lane", 2);
}

static uint32_t pixel(SDL_Surface *s, int x, int y)
{
    if (x < 0 || y < 0 || x >= s->w || y >= s->h) return 0;
    return ((const uint32_t *)s->pixels)[y * (s->pitch / 4) + x] & 0xFFFFFFu;
}

static uint32_t rgb(SDL_Color c) { return (uint32_t)(c.r << 16 | c.g << 8 | c.b); }

/* Does colour col appear anywhere in the box? */
static bool has_colour(SDL_Surface *s, SDL_Rect box, uint32_t col)
{
    for (int y = box.y; y < box.y + box.h; y++)
        for (int x = box.x; x < box.x + box.w; x++)
            if (pixel(s, x, y) == col) return true;
    return false;
}

/* The surface frame: heat under the token and in the tracker, the odds
 * label above the target. */
static void test_surface_frame(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "relay_outpost", 3);
    pui_t *p = f.p;
    assert_true(confirm_some_attack(p));
    battle_t *b = p->play.b;
    /* Someone of the actor's side, running hot (the state is set by hand:
     * the gauge must show whatever the battle holds). */
    int hot = p->actor;
    int slot = -1;
    for (int k = 0; k < p->play.rs->n_stats; k++)
        if (strcmp(p->play.rs->stat_names[k], "heat") == 0) slot = k;
    assert_true(slot >= 0);
    b->u[hot].stat[slot] = 3;
    gauge_t g[GAUGES_MAX];
    int n = ruleset_gauges(p->play.rs, b, hot, g, GAUGES_MAX);
    int heat = -1;
    for (int k = 0; k < n; k++)
        if (strcmp(g[k].label, "heat") == 0) heat = k;
    assert_true(heat >= 0);
    assert_int_equal(g[heat].value, 3);
    assert_int_equal(g[heat].kind, GAUGE_LOAD);
    uint32_t heat_rgb = rgb(hud_gauge_color(&g[heat]));

    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    hud_t h;
    assert_true(hud_init(&h, p));
    ui_state_t st;
    SDL_Surface *s = fx_play_surface(p, &h, VIEW_W, VIEW_H, "test_ui_present.png", &st);
    double z = st.cam.zoom;
    /* Under the token: the box below its body, as wide as the token. */
    vec2_t c = ui_cam_to_screen(&st.cam, h.pose[hot].world);
    SDL_Rect under = {(int)(c.x - z), (int)c.y, (int)(2 * z), (int)(2 * z)};
    assert_true(has_colour(s, under, heat_rgb));
    /* In the tracker. */
    assert_true(has_colour(s, h.lay.tracker, heat_rgb));
    /* Nowhere else on the map: a heat bar is the ruleset's gauge, not chance. */
    b->u[hot].stat[slot] = 0;
    SDL_Surface *cold = fx_play_surface(p, &h, VIEW_W, VIEW_H, NULL, NULL);
    assert_false(has_colour(cold, under, heat_rgb));
    SDL_FreeSurface(cold);
    /* The odds label sits in a panel box above the target. */
    vec2_t tc = ui_cam_to_screen(&st.cam, h.pose[p->target].world);
    SDL_Rect above = {(int)(tc.x - 4 * z), (int)(tc.y - z * 1.1) - 40, (int)(8 * z), 40};
    assert_true(has_colour(s, above, rgb((SDL_Color){230, 159, 0, 255})));
    SDL_FreeSurface(s);
    hud_free(&h);
    TTF_Quit();
    SDL_Quit();
    fx_close(&f);
}

/* emcore: the tracker's "Next:" line is the phase's own order (its queue
 * hook): on the referee's turn in the Movement phase it starts with the
 * actor, whose points it shows. The frame is saved to look at
 * (test_ui_present_emcore.png). */
static void test_emcore_tracker_queue(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "river_crossing", 5);
    pui_t *p = f.p;
    pui_run_ai(p, 400);
    assert_true(p->user_turn);
    const battle_t *b = p->play.b;
    turn_slot_t q[QUEUE_MAX];
    int n = ruleset_queue(p->play.rs, b, q, QUEUE_MAX);
    assert_true(n >= 1);
    assert_int_equal(q[0].who, p->actor);
    assert_non_null(strstr(q[0].label, "pt"));
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    hud_t h;
    assert_true(hud_init(&h, p));
    fx_play_frame(p, &h, VIEW_W, VIEW_H, "test_ui_present_emcore.png");
    hud_free(&h);
    TTF_Quit();
    SDL_Quit();
    fx_close(&f);
}

/* G7: in surface's free order, a click on another member of the faction
 * that may act makes it the actor; its command is then the one given. */
static void test_pick_actor(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "relay_outpost", 3);
    pui_t *p = f.p;
    pui_run_ai(p, 400);
    assert_true(p->user_turn);
    battle_t *b = p->play.b;
    int set[MAP_MAX_COMBATANTS];
    int n = play_actors(&p->play, set, MAP_MAX_COMBATANTS);
    assert_true(n >= 2);
    assert_int_equal(p->actor, set[0]);
    int other = set[n - 1];
    assert_true(pui_may_pick(p, other));
    /* A foe is no member of the set: clicking it only selects it. */
    int foe = -1;
    for (int i = 0; i < b->n && foe < 0; i++)
        if (battle_active(b, i) && !board_allies(b->board, i, p->actor)) foe = i;
    assert_true(foe >= 0);
    assert_false(pui_may_pick(p, foe));
    assert_true(pui_click_cell(p, hex_to_cell(b->map->layout, b->board->pos[other])));
    assert_int_equal(p->actor, other);
    assert_int_equal(p->sel, other);
    assert_true(p->n_legal > 0);
    for (int k = 0; k < p->n_legal; k++) assert_int_equal(p->legal[k].actor, other);
    /* Its turn, ended: the rules take the command from the picked member. */
    int before = b->log.n;
    assert_true(pui_end_turn(p));
    bool ended = false;
    for (int k = before; k < p->play.b->log.n; k++)
        ended |= p->play.b->log.ev[k].type == EV_TURN_END && p->play.b->log.ev[k].who == other;
    assert_true(ended);
    fx_close(&f);
}

/* The action bar names each command as the ruleset describes it, and no
 * two buttons of a bar read the same (activation's telegraphs, one per
 * delay, and surface's subdue variants used to). */
static void check_bar_labels(const char *map, uint64_t seed, bool want_described)
{
    fx_t f;
    fx_open(&f, map, seed);
    pui_t *p = f.p;
    int described = 0;
    for (int turn = 0; turn < 40; turn++) {
        pui_run_ai(p, 400);
        if (!p->user_turn) break;
        for (int i = 0; i < p->n_bar; i++)
            for (int j = i + 1; j < p->n_bar; j++)
                if (strcmp(p->bar[i].label, p->bar[j].label) == 0)
                    fail_msg("%s: two buttons read \"%s\"", map, p->bar[i].label);
        /* Where the ruleset has words for a legal command, its button shows them. */
        for (int k = 0; k < p->n_legal; k++) {
            char want[64];
            const cmd_t *c = &p->legal[k];
            if (!p->play.rs->describe || !p->play.rs->describe(p->play.b, c, want, sizeof want)) continue;
            for (int i = 0; i < p->n_bar; i++)
                if (p->bar[i].kind == c->kind && p->bar[i].act == c->act &&
                    p->bar[i].weapon == c->weapon && p->bar[i].weapon2 == c->weapon2 &&
                    p->bar[i].arg == c->arg && p->bar[i].group == PUI_GROUP_NONE) {
                    assert_string_equal(p->bar[i].label, want);
                    described++;
                }
        }
        cmd_t c;
        p->play.rs->ai(p->play.b, p->actor, &c);
        if (pui_give(p, &c) != BATTLE_OK) break;
    }
    if (want_described && described == 0) fail_msg("%s: no button the ruleset describes", map);
    fx_close(&f);
}

static void test_bar_labels(void **state)
{
    (void)state;
    /* The surface battle may never offer a subdue or a double shot early. */
    check_bar_labels("relay_outpost", 3, false);
    check_bar_labels("river_crossing", 5, true);
    check_bar_labels("shattered_lane", 2, true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odds_xhalem),   cmocka_unit_test(test_odds_scars),
        cmocka_unit_test(test_odds_surface),  cmocka_unit_test(test_odds_emcore),
        cmocka_unit_test(test_emcore_tracker_queue),
        cmocka_unit_test(test_odds_activation), cmocka_unit_test(test_surface_frame),
        cmocka_unit_test(test_pick_actor),      cmocka_unit_test(test_bar_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
