/* test_ui_emcore_dodge.c - an emcore dodge in the Immediate phase reaches
 * the table through the play screen's own reaction prompt (issue 32, E17):
 * a player's character lying prone is attacked in the melee, and with the
 * players' reactions put to the table (F4) the last declaration stops for
 * the answer, shown as the ruleset's two options; the answer is kept in
 * the command, and the dodge is rolled before the blow lands. Nothing in
 * the screen knows it is emcore. A frame of the question is saved to /tmp.
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
#include "rules_fixture.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui_frame_fixture.h"

/* Skirm runs and falls beside the road; Brig comes to stand over it, next
 * to the knight, so the next Immediate phase has Brig and the knight in it. */
static const char MAP[] =
    "{\"format\": \"hexbattle-map\", \"version\": 1, \"name\": \"Dodge test\","
    " \"ruleset\": \"emcore\","
    " \"grid\": {\"orientation\": \"pointy\", \"stagger\": \"odd\", \"cols\": 10, \"rows\": 4,"
    " \"feet_per_hex\": 5},"
    " \"terrain\": {\"legend\": {\".\": \"open\"},"
    " \"rows\": [\"..........\", \"..........\", \"..........\", \"..........\"]},"
    " \"factions\": {\"players\": \"player\", \"brigands\": \"architect\"},"
    " \"combatants\": ["
    "  {\"id\": \"skirm\", \"name\": \"Skirm\", \"faction\": \"players\", \"at\": [0, 1],"
    "   \"template\": \"skirmisher\", \"stats\": {\"insight\": 3}},"
    "  {\"id\": \"brig\", \"name\": \"Brig\", \"faction\": \"brigands\", \"at\": [4, 1],"
    "   \"template\": \"brigand\", \"stats\": {\"insight\": 1, \"health\": 10}},"
    "  {\"id\": \"knight\", \"name\": \"Knight\", \"faction\": \"players\", \"at\": [3, 2],"
    "   \"template\": \"knight\"}]}";

/* Apply c with these dice typed in (every die of the screen's battle is
 * entered: pui_start plays with manual dice). */
static void apply_with(pui_t *p, cmd_t c, const int *dice, int n)
{
    battle_status_t st = play_apply(&p->play, &c);
    int k = 0;
    while (st == BATTLE_NEED_DICE && k < n)
        st = play_enter_die(&p->play, dice[k++]);
    assert_int_equal(st, BATTLE_OK);
    assert_int_equal(k, n);
    pui_refresh(p);
}

static cmd_t declare(int a, int t, int w)
{
    cmd_t c = cmd_make(CMD_DECLARE, a);
    c.act = CMD_ENGAGE;
    c.target = t;
    c.weapon = w;
    return c;
}

static void test_prone_dodge_put_to_the_table(void **state)
{
    (void)state;
    char data[512], err[512];
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load_mem(MAP, sizeof MAP - 1, "dodge test", data, &m, &db, err, sizeof err), 0);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 7), BATTLE_OK);
    assert_true(pui_key(p, SDLK_F4, 0)); /* the players' reactions go to the table */
    /* Round 1: the run's test botches (1, 2, 2): Skirm falls after a hex. */
    cmd_t run = FX_PATH(0, 1, 1, 2, 1);
    run.arg = 1;
    const int botch[] = {1, 2, 2};
    apply_with(p, run, botch, 3);
    assert_true(FX_FIND(p->play.b, 0, "\"condition\"", "\"prone\"", "\"on\":true") >= 0);
    apply_with(p, cmd_make(CMD_END, 0), NULL, 0);
    apply_with(p, cmd_make(CMD_END, 2), NULL, 0);
    apply_with(p, FX_PATH(1, 3, 1, 2, 1), NULL, 0);
    apply_with(p, cmd_make(CMD_END, 1), NULL, 0);
    /* Round 2: Brig (the Architect's) declares first, on the fallen Skirm. */
    apply_with(p, declare(1, 0, 0), NULL, 0);
    assert_true(p->user_turn);
    /* The knight's declaration, given at the screen, is the last: the
     * declarations come out, and before any roll the table is asked. */
    cmd_t kd = declare(2, 1, 0);
    assert_int_equal(pui_give(p, &kd), BATTLE_NEED_REACTION);
    assert_true(pui_needs_answer(p));
    const battle_t *b = p->play.b;
    assert_int_equal(b->ask.who, 0);
    assert_int_equal(b->ask.trigger, 1);
    assert_string_equal(b->ask.kind, "dodge");
    assert_int_equal(b->ask.n, 2);
    assert_string_equal(b->ask.labels[0], "no dodge");
    assert_string_equal(b->ask.labels[1], "dodge for a point");
    char prompt[256];
    pui_answer_prompt(p, prompt, sizeof prompt);
    assert_non_null(strstr(prompt, "Skirm may react to Brig"));
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    fx_play_frame(p, NULL, 1000, 700, "/tmp/hexbattle_emcore_immediate_dodge.png");
    /* 1 takes the dodge: its roll comes before the blow is settled. */
    assert_true(pui_key(p, SDLK_1, 0));
    assert_false(pui_needs_answer(p));
    b = p->play.b;
    int dodge = FX_FIND(b, 0, "\"reaction\"", "\"id\":\"skirm\"", "\"kind\":\"dodge\"");
    int roll = FX_FIND(b, 0, "\"roll\"", "\"who\":\"skirm\"", "\"why\":\"dodge\"");
    int blow = FX_FIND(b, 0, "\"attack\"", "\"attacker\":\"brig\"", "\"target\":\"skirm\"");
    assert_true(dodge >= 0 && roll > dodge && blow > roll);
    /* The answer is kept in the knight's declaration: a rebuild replays it. */
    assert_int_equal(b->cmds.c[b->cmds.n - 1].n_answers, 1);
    assert_int_equal(b->cmds.c[b->cmds.n - 1].answer[0], 1);
    int events = b->log.n;
    assert_int_equal(play_rebuild(&p->play), BATTLE_OK);
    assert_int_equal(p->play.b->log.n, events);
    TTF_Quit();
    SDL_Quit();
    pui_free(p);
    free(p);
    map_destroy(m);
    tmpl_db_destroy(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prone_dodge_put_to_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
