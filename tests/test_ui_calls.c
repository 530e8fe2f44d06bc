/* test_ui_calls.c - the referee's calls in the play window (ui/calls.h): F3
 * lists the ruleset's calls about the selected combatant, a digit makes one
 * (a command in the battle's list, so undo takes it back), Esc closes, and
 * a ruleset with no calls says so. A frame with the list open is saved to
 * /tmp to look at. */
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
#include "rules/scars.h"
#include "ui/calls.h"
#include "ui/hud.h"
#include "ui/window.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1200
#define VIEW_H 800

/* A bundled map in the play window, with its HUD and window state. */
typedef struct {
    map_t *m;
    tmpl_db_t *db;
    pui_t *p;
    hud_t h;
    ui_state_t s;
} table_t;

static void table_open(table_t *t, const char *name)
{
    char data[512], path[600], err[512];
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    snprintf(path, sizeof path, "%s/../../maps/%s", HB_TEST_DATA, name);
    t->m = NULL;
    t->db = NULL;
    assert_int_equal(map_load(path, data, &t->m, &t->db, err, sizeof err), 0);
    t->p = malloc(sizeof *t->p);
    assert_non_null(t->p);
    assert_int_equal(pui_start(t->p, t->m, t->db, 3), BATTLE_OK);
    assert_true(hud_init(&t->h, t->p));
    ui_state_init(&t->s, t->m, VIEW_W, VIEW_H);
}

static void table_close(table_t *t)
{
    hud_free(&t->h);
    pui_free(t->p);
    free(t->p);
    map_destroy(t->m);
    free(t->db);
}

/* Key k pressed: did the HUD take it? */
static bool press(table_t *t, SDL_Keycode k)
{
    SDL_Event e = fx_key_event(k);
    return hud_pre_event(&t->h, &t->s, &e);
}

/* SDL video and text up, and a frame with the list open saved to png. */
static void save_frame(table_t *t, const char *png)
{
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    fx_play_frame(t->p, &t->h, VIEW_W, VIEW_H, png);
}

static void test_calls_listed_made_and_undone(void **state)
{
    (void)state;
    table_t t;
    table_open(&t, "salt_flats.json");
    pui_t *p = t.p;
    int vex = map_find_combatant(t.m, "vex"), chief = map_find_combatant(t.m, "chief");

    /* vex: three saves, and the two marks on its attack. */
    p->sel = vex;
    assert_true(press(&t, SDLK_F3));
    assert_true(t.h.calls.open);
    assert_int_equal(t.h.calls.who, vex);
    assert_int_equal(t.h.calls.n, 5);
    assert_int_equal(t.h.calls.item[0].cmd.kind, CMD_SAVE);
    assert_non_null(strstr(t.h.calls.item[1].label, "DEX save"));
    save_frame(&t, "/tmp/hexbattle_referee_calls.png");

    /* 2: a DEX save, in the battle's commands and its log. */
    int cmds = p->play.b->cmds.n;
    assert_true(press(&t, SDLK_2));
    assert_int_equal(p->play.b->cmds.n, cmds + 1);
    assert_int_equal(p->play.b->cmds.c[cmds].kind, CMD_SAVE);
    assert_int_equal(p->play.b->cmds.c[cmds].arg, SS_DEX);
    assert_non_null(strstr(p->msg, "Called:"));
    const event_t *last = &p->play.b->log.ev[p->play.b->log.n - 1];
    assert_int_equal(last->type, EV_ACTION);
    assert_string_equal(last->name, "save_dex");
    assert_true(t.h.calls.open); /* still open for the next call */
    /* 5: vex's attack enhanced (4 would impair it); the list now offers to unmark it. */
    assert_true(press(&t, SDLK_5));
    assert_int_equal(((const sc_state_t *)p->play.b->rs)->marks[vex], SC_MARK_ENHANCED);
    bool unmark = false;
    for (int i = 0; i < t.h.calls.n; i++)
        unmark |= t.h.calls.item[i].cmd.kind == CMD_MARK && t.h.calls.item[i].cmd.arg == 0;
    assert_true(unmark);
    /* A digit past the list is swallowed, not passed to the action bar. */
    cmds = p->play.b->cmds.n;
    assert_true(press(&t, SDLK_9));
    assert_int_equal(p->play.b->cmds.n, cmds);
    /* Esc closes; undo takes the mark back like any command. */
    assert_true(press(&t, SDLK_ESCAPE));
    assert_false(t.h.calls.open);
    assert_true(pui_undo(p));
    assert_int_equal(((const sc_state_t *)p->play.b->rs)->marks[vex], 0);

    /* The raider chief: telegraph its move, or its whole side's. */
    p->sel = chief;
    assert_true(press(&t, SDLK_F3));
    int all = -1;
    for (int i = 0; i < t.h.calls.n; i++)
        if (t.h.calls.item[i].cmd.kind == CMD_TELEGRAPH && t.h.calls.item[i].cmd.arg == 1) all = i;
    assert_true(all >= 0);
    int from = p->play.b->log.n;
    assert_true(press(&t, (SDL_Keycode)(SDLK_1 + all)));
    int told = 0;
    for (int k = from; k < p->play.b->log.n; k++)
        told += p->play.b->log.ev[k].type == EV_ACTION &&
                strncmp(p->play.b->log.ev[k].name, "telegraph_", 10) == 0;
    assert_int_equal(told, 3); /* pack, chief and gun */
    assert_true(press(&t, SDLK_F3));
    assert_false(t.h.calls.open);

    table_close(&t);
    TTF_Quit();
    SDL_Quit();
}

/* xhalem leaves nothing to the referee this way: F3 says so and opens nothing. */
static void test_no_calls_in_xhalem(void **state)
{
    (void)state;
    table_t t;
    table_open(&t, "ridge_ambush.json");
    pui_t *p = t.p;
    p->sel = 0;
    assert_true(press(&t, SDLK_F3));
    assert_false(t.h.calls.open);
    assert_non_null(strstr(p->msg, "no calls"));
    table_close(&t);
}

/* activation (A27): the referee overrules the dice on the next attack of any
 * combatant, from the same list; the driver refuses a call these rules do
 * not take (a scars mark). */
static void test_override_in_activation(void **state)
{
    (void)state;
    table_t t;
    table_open(&t, "shattered_lane.json");
    pui_t *p = t.p;
    /* Someone other than the one acting: a call waits for no activation. */
    int who = p->actor == 0 ? 1 : 0;
    p->sel = who;
    assert_true(press(&t, SDLK_F3));
    assert_true(t.h.calls.open);
    assert_int_equal(t.h.calls.n, 4); /* miss, hit, critical, hit without critical */
    int miss = -1;
    for (int i = 0; i < t.h.calls.n; i++) {
        assert_int_equal(t.h.calls.item[i].cmd.kind, CMD_OVERRIDE);
        assert_int_equal(t.h.calls.item[i].cmd.actor, who);
        assert_int_not_equal(t.h.calls.item[i].cmd.arg, OVERRIDE_NONE);
        if (t.h.calls.item[i].cmd.arg == OVERRIDE_MISS) miss = i;
    }
    assert_true(miss >= 0);
    assert_non_null(strstr(t.h.calls.item[miss].label, "misses"));
    save_frame(&t, "/tmp/hexbattle_referee_override.png");

    int cmds = p->play.b->cmds.n;
    assert_true(press(&t, (SDL_Keycode)(SDLK_1 + miss)));
    assert_int_equal(p->play.b->cmds.n, cmds + 1);
    assert_int_equal(p->play.b->cmds.c[cmds].kind, CMD_OVERRIDE);
    assert_int_equal(p->play.b->cmds.c[cmds].arg, OVERRIDE_MISS);
    const event_t *last = &p->play.b->log.ev[p->play.b->log.n - 1];
    assert_int_equal(last->type, EV_ACTION);
    assert_string_equal(last->name, "override_miss");
    /* The ruling waits: the list now offers to let the dice decide again. */
    bool clear = false;
    for (int i = 0; i < t.h.calls.n; i++)
        clear |= t.h.calls.item[i].cmd.arg == OVERRIDE_NONE;
    assert_true(clear);
    assert_true(press(&t, SDLK_ESCAPE));

    /* A call kind these rules do not take never reaches them. */
    cmd_t mark = cmd_make(CMD_MARK, who);
    mark.arg = 1;
    assert_int_equal(pui_give(p, &mark), BATTLE_ILLEGAL);
    assert_int_equal(p->play.b->cmds.n, cmds + 1);

    /* Undo takes the ruling back like any command. */
    assert_true(pui_undo(p));
    assert_int_equal(p->play.b->cmds.n, cmds);
    assert_true(press(&t, SDLK_F3));
    assert_int_equal(t.h.calls.n, 4);
    for (int i = 0; i < t.h.calls.n; i++)
        assert_int_not_equal(t.h.calls.item[i].cmd.arg, OVERRIDE_NONE);

    table_close(&t);
    TTF_Quit();
    SDL_Quit();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calls_listed_made_and_undone),
        cmocka_unit_test(test_no_calls_in_xhalem),
        cmocka_unit_test(test_override_in_activation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
