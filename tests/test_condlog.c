/* test_condlog.c - current conditions read back from the event log, the
 * ruleset-neutral source of the initiative tracker's conditions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/condlog.h"
#include "rules_fixture.h"
#include "rules/scars.h"

static void push_cond(event_log_t *log, int who, const char *name, bool on)
{
    event_t e = event_make(EV_CONDITION);
    e.who = who;
    e.on = on;
    hb_strlcpy(e.name, name, sizeof e.name);
    assert_true(event_push(log, &e));
}

static void test_on_and_off_in_order(void **state)
{
    (void)state;
    event_log_t log = {0};
    push_cond(&log, 0, "hidden", true);
    push_cond(&log, 0, "prone", true);
    push_cond(&log, 1, "critical", true);
    event_t other = event_make(EV_DAMAGE); /* other events are no conditions */
    other.target = 0;
    assert_true(event_push(&log, &other));
    push_cond(&log, 0, "hidden", false);
    push_cond(&log, 0, "grappled", true);
    push_cond(&log, 0, "prone", true);   /* already on: no second copy */
    push_cond(&log, 0, "flying", false); /* never on: nothing to take off */
    const char *names[CONDLOG_MAX];
    assert_int_equal(condlog_current(&log, 0, names, CONDLOG_MAX), 2);
    assert_string_equal(names[0], "prone");
    assert_string_equal(names[1], "grappled");
    char buf[64];
    assert_string_equal(condlog_text(&log, 0, buf, sizeof buf), "prone, grappled");
    assert_string_equal(condlog_text(&log, 1, buf, sizeof buf), "critical");
    assert_string_equal(condlog_text(&log, 2, buf, sizeof buf), "");
    /* A short buffer keeps whole names only. */
    char small[12];
    assert_string_equal(condlog_text(&log, 0, small, sizeof small), "prone");
    /* cap limits what is written. */
    assert_int_equal(condlog_current(&log, 0, names, 1), 1);
    assert_string_equal(names[0], "prone");
    /* Off again, and back on: it goes to the end. */
    push_cond(&log, 0, "prone", false);
    push_cond(&log, 0, "prone", true);
    assert_string_equal(condlog_text(&log, 0, buf, sizeof buf), "grappled, prone");
    event_log_free(&log);
}

/* A real Scars battle: the conditions its rules announce (critical, the
 * scars table's results) come back for the tracker, per combatant. */
static void test_scars_conditions_from_a_battle(void **state)
{
    (void)state;
    map_t *m = fx_map(10, 3, "scars", NULL);
    fx_add(m, "pc", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 3, 50, "knife", "dex=1,str=10");
    fx_add(m, "foe", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 50, "knife", "str=10");
    fx_add(m, "pc2", "players", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 2, 50, "knife", "dex=1,str=10");
    tmpl_db_t *db = fx_db("scars");
    fx_weapon(db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    play_t p;
    fx_start(&p, m, db, FX_DICE(20, 20));
    /* pc: 3 damage on 3 HP is row 3 of the scars table: walloped (deprived),
     * and its 1d6 (4) goes onto max HP. */
    cmd_t c = cmd_make(CMD_DECLARE, 1);
    c.act = CMD_ENGAGE;
    c.target = 0;
    c.weapon = 0;
    assert_int_equal(fx_do(&p, c, FX_DICE(3, 4)), BATTLE_OK);
    char buf[96];
    assert_string_equal(condlog_text(&p.b->log, 0, buf, sizeof buf), "scar:walloped, deprived");
    assert_string_equal(condlog_text(&p.b->log, 2, buf, sizeof buf), "");
    /* pc2 ends its turn; round 2: the foe leaves pc2 critical (5 on 2 HP, STR 7, save 12). */
    assert_int_equal(fx_do(&p, cmd_make(CMD_END, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&p, cmd_make(CMD_END, 2), FX_NO_DICE), BATTLE_OK);
    c.target = 2;
    assert_int_equal(fx_do(&p, c, FX_DICE(5, 12)), BATTLE_OK);
    assert_true(scars_helpless(p.b, 2));
    assert_string_equal(condlog_text(&p.b->log, 2, buf, sizeof buf), "critical");
    assert_string_equal(condlog_text(&p.b->log, 0, buf, sizeof buf), "scar:walloped, deprived");
    play_end(&p);
    map_destroy(m);
    free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_on_and_off_in_order),
        cmocka_unit_test(test_scars_conditions_from_a_battle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
