/* test_ui_scars_hud.c - the play screen on the bundled scars battle: choosing
 * a target shows the scars odds (an attack that reaches always lands, with
 * the expected damage after armor), and the frame with a helpless raider in
 * the tracker is saved to look at (test_ui_scars_hud.png). */
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

#include "core/condlog.h"
#include "io/map_io.h"
#include "rules/predict.h"
#include "rules/scars.h"
#include "rules_fixture.h"
#include "ui/declared.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1200
#define VIEW_H 800

static void test_scars_target_shows_auto_hit(void **state)
{
    (void)state;
    char path[512], data[512], err[512];
    snprintf(path, sizeof path, "%s/../../maps/salt_flats.json", HB_TEST_DATA);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load(path, data, &m, &db, err, sizeof err), 0);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 9), BATTLE_OK);
    pui_run_ai(p, 200);
    assert_true(p->user_turn);
    battle_t *b = p->play.b;
    /* A declared attack with a target the rules offer, chosen as a referee would. */
    int bar = -1, target = -1;
    for (int i = 0; i < p->n_bar && bar < 0; i++)
        if (p->bar[i].kind == CMD_DECLARE && p->bar[i].act == CMD_ENGAGE && p->bar[i].targeted)
            for (int k = 0; k < p->n_legal && target < 0; k++)
                if (p->legal[k].kind == CMD_DECLARE && p->legal[k].act == CMD_ENGAGE &&
                    p->legal[k].weapon == p->bar[i].weapon) {
                    bar = i;
                    target = p->legal[k].target;
                }
    assert_true(bar >= 0 && target >= 0);
    /* Lay one raider low (DEX 0): it stays on the map, helpless, and the
     * tracker must name its condition. */
    int down = -1;
    for (int i = 0; i < b->n && down < 0; i++)
        if (i != target && battle_active(b, i) && !board_allies(b->board, i, p->actor))
            down = i;
    assert_true(down >= 0);
    scars_lose_ability(b, down, SS_DEX, 99);
    char conds[64];
    assert_string_equal(condlog_text(&b->log, down, conds, sizeof conds), "paralyzed");
    assert_string_equal(hud_tracker_conditions(b, down, conds, sizeof conds), "paralyzed");
    /* Off the board, the tracker says only that (the flag is set just for
     * this check and put back: the battle goes on below). */
    b->u[down].out = true;
    assert_string_equal(hud_tracker_conditions(b, down, conds, sizeof conds), "down");
    b->u[down].out = false;

    /* Roll reasons name combatants as the table knows them. */
    char line[160], wanted[128];
    event_t roll = event_make(EV_ROLL);
    roll.who = p->actor;
    roll.n_dice = 1;
    roll.sides = 8;
    roll.dice[0] = roll.total = 3;
    snprintf(roll.name, sizeof roll.name, "damage on %s", b->map->combatants[target].id);
    hud_roll_text(p, &roll, line, sizeof line);
    snprintf(wanted, sizeof wanted, "damage on %s: 1d8 [3] = 3", pui_name(p, target));
    assert_non_null(strstr(line, wanted));
    assert_string_not_equal(pui_name(p, target), b->map->combatants[target].id);
    /* A reason that names no combatant is left as it is. */
    assert_string_equal(pui_why(p, "DEX save", line, sizeof line), "DEX save");
    assert_string_equal(pui_why(p, "lands on nobody", line, sizeof line), "lands on nobody");

    assert_true(pui_choose(p, bar));
    cell_t tc = hex_to_cell(b->map->layout, b->board->pos[target]);
    if (p->mode != PUI_CONFIRM) assert_true(pui_click_cell(p, tc));
    assert_int_equal(p->mode, PUI_CONFIRM);
    assert_int_equal(p->target, target);
    assert_true(p->pred.valid);
    /* The same answer the rules give for that attack from here. */
    predict_t want;
    assert_true(scars_predict(b, p->actor, target, p->bar[bar].weapon, &want));
    assert_true(fabs(p->pred.p_hit - want.p_hit) < 1e-12);
    assert_true(fabs(p->pred.dmg_expected - want.dmg_expected) < 1e-12);
    assert_true(p->pred.p_hit == 0.0 || p->pred.p_hit == 1.0); /* no roll to hit */
    assert_true(p->pred.dmg_sides > 0);

    /* The frame, to look at: the odds over the target, the tracker rows. */
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    fx_play_frame(p, NULL, VIEW_W, VIEW_H, "test_ui_scars_hud.png");
    TTF_Quit();
    SDL_Quit();
    pui_free(p);
    free(p);
    map_destroy(m);
    tmpl_db_destroy(db);
}

/* Count pixels of colour rgb in surface s. */
static int count_rgb(SDL_Surface *s, uint32_t rgb)
{
    int n = 0;
    const Uint32 *px = s->pixels;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) {
            Uint8 r, g, b;
            SDL_GetRGB(px[y * (s->pitch / 4) + x], s->format, &r, &g, &b);
            n += ((uint32_t)r << 16 | (uint32_t)g << 8 | b) == rgb;
        }
    return n;
}

/* A declared attack stays on the map with its odds until the phase lands,
 * and an ally's later declaration that steps into the line of fire changes
 * them at once (the rifle's d10 becomes an impaired d4). */
static void test_declared_odds_follow_later_declarations(void **state)
{
    (void)state;
    map_t *m = fx_map(10, 4, "scars", NULL);
    tmpl_db_t *db = fx_db("scars");
    fx_weapon(db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_weapon(db, "rifle", WPN_RANGED, false, 0, 100, 1, 10, 0, NULL);
    int a = fx_add(m, "aster", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "rifle", "dex=20");
    int bb = fx_add(m, "brell", "players", 4, 3, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife", "dex=20");
    fx_add(m, "cato", "players", 1, 3, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife", "dex=20");
    int foe = fx_add(m, "foe", "raiders", 8, 1, KIND_CREATURE, SIZE_MEDIUM, 9, 50, "knife", "dex=5");
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 3), BATTLE_OK);
    pui_run_ai(p, 50);
    assert_true(p->user_turn);
    battle_t *b = p->play.b;
    ui_declared_t dc[4];
    assert_int_equal(ui_declared(b, dc, 4), 0);
    cmd_t shot = cmd_make(CMD_DECLARE, a);
    shot.act = CMD_ENGAGE;
    shot.target = foe;
    shot.weapon = 0;
    assert_int_equal(pui_give(p, &shot), BATTLE_OK);
    assert_int_equal(ui_declared(b, dc, 4), 1);
    assert_int_equal(dc[0].cmd.actor, a);
    assert_int_equal(dc[0].cmd.target, foe);
    assert_true(dc[0].odds);
    assert_int_equal(dc[0].pred.dmg_sides, 10);
    double clear = dc[0].pred.dmg_expected;

    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    /* Drawn: its label's plate is on the map. */
    SDL_Surface *f1 = fx_play_surface(p, NULL, VIEW_W, VIEW_H, "test_ui_scars_declared_1.png", NULL);
    assert_true(count_rgb(f1, 0x3C240A) > 100);
    SDL_FreeSurface(f1);

    /* brell declares a move onto the line from aster to the foe. */
    hex_t line[32];
    int n = hex_line(b->board->pos[a], b->board->pos[foe], HEX_NUDGE_PLUS, line, 32);
    assert_true(n >= 5);
    cmd_t mv = cmd_make(CMD_DECLARE, bb);
    mv.act = CMD_END;
    hex_t at = b->board->pos[bb];
    while (!hex_eq(at, line[3])) {
        hex_t step[32];
        assert_true(hex_line(at, line[3], HEX_NUDGE_PLUS, step, 32) >= 2);
        at = step[1];
        mv.path[mv.n_path++] = hex_to_cell(m->layout, at);
    }
    assert_int_equal(pui_give(p, &mv), BATTLE_OK);
    assert_int_equal(ui_declared(b, dc, 4), 1); /* cato has not declared: nothing landed */
    assert_true(dc[0].odds);
    assert_int_equal(dc[0].pred.dmg_sides, 4);
    assert_true(dc[0].pred.dmg_expected < clear);
    fx_play_frame(p, NULL, VIEW_W, VIEW_H, "test_ui_scars_declared_2.png");
    TTF_Quit();
    SDL_Quit();

    /* Once the phase lands, nothing is left pending. */
    cmd_t hold = cmd_make(CMD_DECLARE, p->actor);
    hold.act = CMD_END;
    assert_true(pui_give(p, &hold) != BATTLE_ILLEGAL);
    pui_run_ai(p, 50);
    assert_int_equal(ui_declared(p->play.b, dc, 4), 0);
    pui_free(p);
    free(p);
    map_destroy(m);
    free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scars_target_shows_auto_hit),
        cmocka_unit_test(test_declared_odds_follow_later_declarations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
