/* test_trigger.c - the shared trigger vocabulary (core/trigger.h): names for
 * files, words for the screen, and the numbers saved commands hold; xhalem's
 * standby takes the triggers it can detect and refuses the rest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/trigger.h"
#include "rules_fixture.h"
#include "rules/xhalem.h"

static void test_names_round_trip(void **state)
{
    (void)state;
    for (int t = 0; t < TRIG_END; t++) {
        const char *n = trigger_name(t);
        assert_true(n[0] != '\0');
        assert_int_equal(trigger_parse(n), t);
        assert_string_not_equal(trigger_label(t), "trigger");
        for (int u = 0; u < t; u++) {
            assert_string_not_equal(trigger_name(u), n);
            assert_string_not_equal(trigger_label(u), trigger_label(t));
        }
    }
    assert_string_equal(trigger_name(TRIG_END), "");
    assert_string_equal(trigger_name(-1), "");
    assert_string_equal(trigger_label(99), "trigger");
    assert_int_equal(trigger_parse("enters reach"), -1);
    assert_int_equal(trigger_parse(NULL), -1);
}

/* Saved standbys hold these numbers: they must never move. */
static void test_numbers_are_stable(void **state)
{
    (void)state;
    assert_int_equal(TRIG_ENTERS_REACH, 0);
    assert_int_equal(TRIG_ATTACKS, 1);
    assert_int_equal(TRIG_DASHES, 2);
    assert_int_equal(TRIG_ATTACKS_RANGED, 3);
    assert_int_equal(TRIG_MOVES_IN_SIGHT, 4);
    assert_int_equal(TRIG_TARGETS_ALLY, 5);
    assert_int_equal(TRIG_DECLARES, 11);
    assert_int_equal(TRIG_ROUND_STARTS, 12);
    assert_int_equal(TRIG_TURN_STARTS, 13);
    assert_int_equal(TRIG_ALLY_HITS, 14);
    assert_int_equal(TRIG_ALLY_TARGETS, 15);
    assert_int_equal(trigger_parse("ally_hits"), TRIG_ALLY_HITS);
    assert_string_equal(trigger_name(XT_ENGAGES_ALLY), "targets_ally");
    assert_string_equal(trigger_label(XT_ENTERS_REACH), "enemy comes in reach");
}

/* xhalem holds for its six triggers and refuses the others. */
static void test_xhalem_takes_its_triggers(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", NULL);
    fx_add(f.m, "t", "raiders", 6, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", NULL);
    f.db = fx_db("xhalem");
    fx_weapon(f.db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    for (int t = 0; t < TRIG_COUNT; t++) {
        cmd_t c = cmd_make(CMD_STANDBY, 0);
        c.arg = t;
        c.act = CMD_ENGAGE;
        c.weapon = 0;
        battle_status_t st = play_apply(&f.p, &c);
        assert_int_equal(st, t < XT_COUNT ? BATTLE_OK : BATTLE_ILLEGAL);
        if (st == BATTLE_OK)
            assert_int_equal(play_undo(&f.p), BATTLE_OK);
    }
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_numbers_are_stable),
        cmocka_unit_test(test_xhalem_takes_its_triggers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
