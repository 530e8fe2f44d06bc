/* test_xhalem.c - the Xha'lem rules, one test per rule, on hand-entered dice.
 *
 * Every die is typed in (manual mode), so each test knows the exact numbers
 * and would fail if the rule were read differently. Maps are pointy odd-r;
 * most fights happen along one row, where (c,r) and (c+1,r) are adjacent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "xhalem_fixture.h"

/* ---- initiative ---------------------------------------------------------- */

static void test_initiative_highest_first(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "slow", "players", 0, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, "knife", "evasion=1");
    fx_add(f.m, "mech", "raiders", 0, 2, KIND_MACHINE, SIZE_MEDIUM, 10, 375, "mech_fist", "engine=4,evasion=-5");
    f.db = weapons();
    /* slow: 12+1 = 13; mech: 10+engine 4 = 14 (its evasion stat is ignored). */
    fx_start(&f.p, f.m, f.db, FX_DICE(12, 10));
    assert_true(FX_FIND(f.p.b, 0, "\"initiative\"", "\"mech\"", "\"score\":14", "\"rank\":1") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"initiative\"", "\"slow\"", "\"score\":13", "\"rank\":2") >= 0);
    int who;
    assert_int_equal(play_actors(&f.p, &who, 1), 1);
    assert_int_equal(who, 1);
    fx_free(&f);
}

static void test_initiative_player_tie_by_score_then_reroll(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "p1", "players", 0, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=1");
    fx_add(f.m, "p2", "players", 1, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=3");
    fx_add(f.m, "p3", "players", 2, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=3");
    fx_add(f.m, "x", "raiders", 5, 3, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=0");
    f.db = weapons();
    /* All three players total 14: p2 and p3 beat p1 on Evasion, then tie on it
     * and re-roll: p2 4+3 = 7, p3 9+3 = 12, so p3 goes first. */
    fx_start(&f.p, f.m, f.db, FX_DICE(13, 11, 11, 2, 4, 9));
    const xh_state_t *s = f.p.b->rs;
    assert_int_equal(s->order[0], 2);
    assert_int_equal(s->order[1], 1);
    assert_int_equal(s->order[2], 0);
    assert_int_equal(s->order[3], 3);
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"initiative re-roll\"", "\"p3\"") >= 0);
    fx_free(&f);
}

static void test_initiative_player_architect_tie_rerolls(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "p", "players", 0, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=5");
    fx_add(f.m, "x", "raiders", 5, 3, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=0");
    f.db = weapons();
    /* 10+5 = 15 and 15+0 = 15: both re-roll, even though p's score is higher;
     * x's re-roll 18 beats p's 6+5. */
    fx_start(&f.p, f.m, f.db, FX_DICE(10, 15, 6, 18));
    const xh_state_t *s = f.p.b->rs;
    assert_int_equal(s->order[0], 1);
    assert_int_equal(s->order[1], 0);
    fx_free(&f);
}

static void test_initiative_architect_tie_keeps_map_order(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "p", "players", 0, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=0");
    fx_add(f.m, "x1", "raiders", 5, 3, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=0");
    fx_add(f.m, "x2", "raiders", 6, 3, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=4");
    f.db = weapons();
    /* x1 16+0, x2 12+4: tied Architect combatants, no re-roll, map order. */
    fx_start(&f.p, f.m, f.db, FX_DICE(3, 16, 12));
    const xh_state_t *s = f.p.b->rs;
    assert_int_equal(s->order[0], 1);
    assert_int_equal(s->order[1], 2);
    assert_int_equal(count_type(f.p.b, EV_ROLL), 3);
    fx_free(&f);
}

static void test_group_initiative_shares_one_roll(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "p", "players", 0, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=0");
    int g1 = fx_add(f.m, "g1", "raiders", 5, 3, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=1");
    int g2 = fx_add(f.m, "g2", "raiders", 6, 3, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, "evasion=1");
    hb_strlcpy(f.m->combatants[g1].template_name, "grunt", MAP_ID_MAX);
    hb_strlcpy(f.m->combatants[g2].template_name, "grunt", MAP_ID_MAX);
    f.db = weapons();
    battle_opts_t o = {.seed = 1, .manual_all = true, .group_initiative = true};
    battle_status_t st = play_start(&f.p, f.m, f.db, NULL, &o);
    /* Two dice only: p, then one for the whole group. */
    assert_int_equal(fx_feed(&f.p, st, FX_DICE(5, 9)), BATTLE_OK);
    const xh_state_t *s = f.p.b->rs;
    assert_int_equal(s->score[g1], 10);
    assert_int_equal(s->score[g2], 10);
    assert_int_equal(count_type(f.p.b, EV_ROLL), 2);
    fx_free(&f);
}

/* ---- engagement ---------------------------------------------------------- */

static void test_tie_goes_to_defender(void **state)
{
    (void)state;
    fx_t f;
    duel(&f, CRE, CRE);
    /* 10+2 against 9+3: a tie, so a miss and no damage roll. */
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(10, 9)), BATTLE_OK);
    const event_t *e = last_of(f.p.b, EV_ATTACK);
    assert_non_null(e);
    assert_false(e->hit);
    assert_int_equal(count_type(f.p.b, EV_DAMAGE), 0);
    fx_free(&f);
}

static void test_hit_and_damage_adds_strength(void **state)
{
    (void)state;
    fx_t f;
    duel(&f, CRE, CRE);
    /* 10+2 beats 8+3; knife 1d6 rolls 4, plus Strength 1. */
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(10, 8, 4)), BATTLE_OK);
    assert_true(last_of(f.p.b, EV_ATTACK)->hit);
    const event_t *d = last_of(f.p.b, EV_DAMAGE);
    assert_int_equal(d->amount, 5);
    assert_int_equal(d->hp, 15);
    assert_true(FX_FIND(f.p.b, 0, "\"roll\"", "\"why\":\"damage\"", "\"total\":5") >= 0);
    fx_free(&f);
}

/* A flat weapon ("+2" in the data) rolls no damage dice: its bonus and the
 * wielder's Strength are the whole damage, and the odds agree. */
static void test_flat_weapon_rolls_no_damage_dice(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "sap", CRE);
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_weapon(f.db, "sap", WPN_MELEE, false, 5, 0, 0, 0, 2, NULL);
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    predict_t pr;
    assert_true(predict_engage(f.p.b, 0, 1, 0, &pr));
    assert_true(pr.dmg_hit > 2.99 && pr.dmg_hit < 3.01);
    /* 10+2 beats 8+3, and no third die is asked for. */
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(10, 8)), BATTLE_OK);
    assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 3);
    assert_true(FX_FIND(f.p.b, 0, "\"roll\"", "\"why\":\"damage\"", "\"dice\":\"0d0\"", "\"total\":3") >= 0);
    fx_free(&f);
}

static void test_creature_natural_one_and_twenty(void **state)
{
    (void)state;
    fx_t f;
    duel(&f, "agility=30", "evasion=0");
    /* A natural 1 misses even at 1+30 against 2+0. */
    fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(1, 2));
    assert_false(last_of(f.p.b, EV_ATTACK)->hit);
    fx_free(&f);
    duel(&f, "agility=0,evasion=40", "evasion=30");
    /* A natural 20 hits even at 20 against 19+30. */
    fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(20, 19, 3));
    assert_true(last_of(f.p.b, EV_ATTACK)->hit);
    fx_free(&f);
}

static void test_machines_have_no_naturals(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "m", "players", 1, 1, KIND_MACHINE, SIZE_MEDIUM, 30, 375, "mech_gun", "systems=0");
    fx_add(f.m, "t", "raiders", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=5");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* The mech's 20 is just 20; against 16+5 = 21 it misses. */
    fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(20, 16));
    assert_false(last_of(f.p.b, EV_ATTACK)->hit);
    fx_free(&f);
}

static void test_beyond_range_disadvantage_half_damage(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle", "agility=2,strength=3");
    fx_add(f.m, "t", "raiders", 8, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* 40 ft against a 30-ft rifle: 2d20 keep the lower (12), damage 9+3 halved to 6. */
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(18, 12, 4, 9)), BATTLE_OK);
    const event_t *r = NULL;
    for (int k = 0; k < f.p.b->log.n; k++)
        if (f.p.b->log.ev[k].type == EV_ROLL && strcmp(f.p.b->log.ev[k].name, "engage") == 0)
            r = &f.p.b->log.ev[k];
    assert_non_null(r);
    assert_int_equal(r->n_dice, 2);
    assert_int_equal(r->kept[0], 12);
    assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 6);
    fx_free(&f);
}

static void test_flanking_gives_advantage(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "b", "players", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5, 10));
    /* a and b stand exactly across t: 2d20, keep 17. */
    fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(3, 17, 10, 2));
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"engage\"", "\"dice\":\"2d20\"", "\"kept\":[17]") >= 0);
    assert_true(last_of(f.p.b, EV_ATTACK)->hit);
    fx_free(&f);
}

static void test_no_flank_beside_an_ally(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "b", "players", 2, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5, 10));
    /* b touches t but not from across: a straight 1d20. */
    fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(3, 10));
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"engage\"", "\"dice\":\"1d20\"") >= 0);
    fx_free(&f);
}

static void test_cover_light_and_heavy(void **state)
{
    (void)state;
    fx_t f;
    /* Light cover (brush between): the target evades with 2d20 keep high. */
    static const char *const BRUSH[] = {"........", "...,....", "........"};
    f.m = fx_map(8, 3, "xhalem", BRUSH);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle", CRE);
    fx_add(f.m, "t", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(15, 4, 14));
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"evade\"", "\"dice\":\"2d20\"", "\"kept\":[14]") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"engage\"", "\"dice\":\"1d20\"") >= 0);
    assert_false(last_of(f.p.b, EV_ATTACK)->hit); /* 17 against 17 */
    fx_free(&f);
    /* Heavy cover against a ranged attack: disadvantage and advantage to evade. */
    static const char *const RUBBLE[] = {"........", "...^....", "........"};
    f.m = fx_map(8, 3, "xhalem", RUBBLE);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle", CRE);
    fx_add(f.m, "t", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(15, 4, 2, 3));
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"engage\"", "\"dice\":\"2d20\"", "\"kept\":[4]") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"evade\"", "\"dice\":\"2d20\"", "\"kept\":[3]") >= 0);
    fx_free(&f);
}

static void test_total_cover_cannot_be_targeted(void **state)
{
    (void)state;
    fx_t f;
    static const char *const WALL[] = {"........", "...#....", "........"};
    f.m = fx_map(8, 3, "xhalem", WALL);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle", CRE);
    fx_add(f.m, "t", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    int before = f.p.b->log.n;
    cmd_t c = fx_engage(0, 1, 0);
    assert_int_equal(play_apply(&f.p, &c), BATTLE_ILLEGAL);
    assert_int_equal(f.p.b->log.n, before);
    fx_free(&f);
}

static void test_damage_scores_for_machines(void **state)
{
    (void)state;
    struct {
        const char *weapon;
        int range_cells;
        int want;
    } cases[] = {
        {"mech_fist", 1, 2 + 3 + 4},  /* melee: 2d6 (2,3) + Hull 4 */
        {"mech_beam", 3, 5 + 6},      /* energy ranged: + Reactor 6 */
        {"mech_gun", 3, 5},           /* conventional ranged: nothing added */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fx_t f;
        f.m = fx_map(8, 3, "xhalem", NULL);
        fx_add(f.m, "m", "players", 1, 1, KIND_MACHINE, SIZE_MEDIUM, 30, 375, cases[k].weapon,
               "systems=0,hull=4,reactor=6");
        fx_add(f.m, "t", "raiders", 1 + cases[k].range_cells, 1, KIND_CREATURE, SIZE_MEDIUM, 40,
               30, "knife", "evasion=0");
        f.db = weapons();
        fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
        bool fist = strcmp(cases[k].weapon, "mech_fist") == 0;
        battle_status_t st = fist ? fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(15, 2, 2, 3))
                                  : fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(15, 2, 5));
        assert_int_equal(st, BATTLE_OK);
        assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, cases[k].want);
        fx_free(&f);
    }
}

static void test_creature_energy_ranged_adds_nothing(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "laser", "strength=4");
    fx_add(f.m, "t", "raiders", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(15, 2, 7));
    assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 7);
    fx_free(&f);
    /* A thrown javelin adds Strength. */
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "javelin", "strength=4");
    fx_add(f.m, "t", "raiders", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(15, 2, 3));
    assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 7);
    fx_free(&f);
}

static void test_defeat_ends_battle_with_winner(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "strength=3");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(15, 2, 6));
    assert_true(f.p.b->over);
    assert_true(FX_FIND(f.p.b, 0, "\"event\":\"defeated\"", "\"id\":\"t\"") >= 0);
    int k = FX_FIND(f.p.b, 0, "\"event\":\"end\"", "\"winner\":\"players\"", "\"rounds\":1");
    assert_int_equal(k, f.p.b->log.n - 1);
    fx_free(&f);
}

/* ---- turn structure ------------------------------------------------------ */

static void test_move_split_around_action(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 20, "knife", CRE);
    fx_add(f.m, "t", "raiders", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* 20 ft: 10 ft in, strike, then 10 ft on (the enemy was engaged, so no opportunity). */
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 1, 1, 2, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10)), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 2), FX_NO_DICE), BATTLE_OK);
    /* Out of movement now. */
    cmd_t more = FX_PATH(0, 2, 2);
    assert_int_equal(play_apply(&f.p, &more), BATTLE_ILLEGAL);
    /* And only one action. */
    cmd_t again = fx_engage(0, 1, 0);
    assert_int_equal(play_apply(&f.p, &again), BATTLE_ILLEGAL);
    assert_int_equal(count_type(f.p.b, EV_REACTION), 0);
    fx_free(&f);
}

static void test_dash_doubles_budget(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(12, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 15, "knife", CRE);
    fx_add(f.m, "t", "raiders", 11, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t far = FX_PATH(0, 1, 1, 2, 1, 3, 1, 4, 1);
    assert_int_equal(play_apply(&f.p, &far), BATTLE_ILLEGAL); /* 20 ft > 15 */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_DASH, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, far, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(xhalem_move_left(f.p.b), 10);
    /* The dash was the action. */
    cmd_t hit = fx_engage(0, 1, 0);
    assert_int_equal(play_apply(&f.p, &hit), BATTLE_ILLEGAL);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"dash\"") >= 0);
    fx_free(&f);
}

static void test_difficult_terrain_costs_double(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", ".,,.....", "........"};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    fx_add(f.m, "a", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 15, "knife", CRE);
    fx_add(f.m, "t", "raiders", 7, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t two = FX_PATH(0, 1, 1, 2, 1); /* 10 + 10 ft */
    assert_int_equal(play_apply(&f.p, &two), BATTLE_ILLEGAL);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 1, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(xhalem_move_left(f.p.b), 5);
    fx_free(&f);
}

/* ---- opportunity --------------------------------------------------------- */

/* Mover m (players, first) starts next to g (raiders) and walks away. */
static void walk_away(fx_t *f, ckind_t kind, csize_t size, const char *g_weapons)
{
    f->m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f->m, "m", "players", 2, 1, kind, size, 20, kind == KIND_MACHINE ? 375 : 30, "knife",
           "agility=0,evasion=0,engine=0");
    fx_add(f->m, "g", "raiders", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, g_weapons, "agility=1");
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 5));
}

static void test_opportunity_on_leaving_reach(void **state)
{
    (void)state;
    fx_t f;
    walk_away(&f, KIND_CREATURE, SIZE_MEDIUM, "knife");
    /* Leaving g's reach: g strikes with advantage (2d20 keep 14) against 3+0. */
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1, 4, 1), FX_DICE(14, 2, 3, 5)), BATTLE_OK);
    int r = FX_FIND(f.p.b, 0, "\"event\":\"reaction\"", "\"id\":\"g\"", "\"opportunity\"");
    assert_true(r >= 0);
    assert_true(FX_FIND(f.p.b, r, "\"who\":\"g\"", "\"dice\":\"2d20\"", "\"kept\":[14]") >= 0);
    assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 5);
    /* The strike happens before the step out of reach. */
    int step = FX_FIND(f.p.b, 0, "\"move_step\"", "\"to\":[3,1]");
    assert_true(step > r);
    fx_free(&f);
}

static void test_no_opportunity_after_engaging(void **state)
{
    (void)state;
    fx_t f;
    walk_away(&f, KIND_CREATURE, SIZE_MEDIUM, "knife");
    fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10));
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1, 4, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_REACTION), 0);
    fx_free(&f);
}

static void test_no_opportunity_without_melee_weapon(void **state)
{
    (void)state;
    fx_t f;
    walk_away(&f, KIND_CREATURE, SIZE_MEDIUM, "rifle");
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1, 4, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_REACTION), 0);
    fx_free(&f);
}

static void test_small_mech_never_provokes(void **state)
{
    (void)state;
    fx_t f;
    walk_away(&f, KIND_MACHINE, SIZE_SMALL, "knife");
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1, 4, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_REACTION), 0);
    fx_free(&f);
    /* A medium mech does. */
    walk_away(&f, KIND_MACHINE, SIZE_MEDIUM, "knife");
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1, 4, 1), FX_DICE(1, 2, 5)), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_REACTION), 1);
    fx_free(&f);
}

static void test_one_reaction_per_round(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "m1", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    fx_add(f.m, "m2", "players", 2, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    fx_add(f.m, "g", "raiders", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=1");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 14, 5));
    fx_do(&f.p, FX_PATH(0, 3, 1, 4, 1), FX_DICE(1, 2, 5));
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* m2 leaves g's reach too, but g's reaction is spent. */
    assert_int_equal(fx_do(&f.p, FX_PATH(1, 3, 0, 4, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_REACTION), 1);
    fx_free(&f);
}

static void test_forced_move_provokes_with_disadvantage(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "xhalem", NULL);
    /* s shoves t east; g (s's ally? no: t's enemy too) stands west of t. */
    fx_add(f.m, "s", "players", 2, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0,strength=2");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0,strength=0");
    fx_add(f.m, "g", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=1");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5, 10));
    cmd_t c = cmd_make(CMD_SHOVE, 0);
    c.target = 1;
    c.arg = 1;
    /* engage 10 vs 3, shove 9+2 vs 4+0, then g's opportunity at disadvantage
     * (2d20 keep 6) against t's evade 2; damage 3. */
    assert_int_equal(fx_do(&f.p, c, FX_DICE(10, 3, 9, 4, 6, 17, 2, 3)), BATTLE_OK);
    int r = FX_FIND(f.p.b, 0, "\"reaction\"", "\"id\":\"g\"", "\"target\":\"t\"");
    assert_true(r >= 0);
    assert_true(FX_FIND(f.p.b, r, "\"who\":\"g\"", "\"dice\":\"2d20\"", "\"kept\":[6]") >= 0);
    assert_true(FX_FIND(f.p.b, r, "\"move_step\"", "\"id\":\"t\"") >= 0);
    fx_free(&f);
}

/* ---- other actions ------------------------------------------------------- */

/* c cloaks behind a wall, out of a's sight, then walks into the open: a
 * never saw where it went (cloaking in plain view would hide nothing). */
static void test_detriment_against_cloaked(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", "........", "...#...."};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    fx_add(f.m, "c", "raiders", 5, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "cloak=1,evasion=0");
    fx_add(f.m, "a", "players", 1, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle", "agility=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_CLOAK, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 5, 1, 5, 0), FX_NO_DICE), BATTLE_OK);
    assert_false(xhalem_aware(f.p.b, 1, 0));
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE), BATTLE_OK);
    /* 4d20 keep the lowest (6); the cloaked target evades with 2d20 keep high. */
    assert_int_equal(fx_do(&f.p, fx_engage(1, 0, 0), FX_DICE(19, 6, 18, 17, 2, 6)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"engage\"", "\"dice\":\"4d20\"", "\"kept\":[6]") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"evade\"", "\"dice\":\"2d20\"", "\"kept\":[6]") >= 0);
    assert_true(last_of(f.p.b, EV_ATTACK)->hit == false);
    fx_free(&f);
}

static void test_hide_and_unaware_target(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", "...,....", "........"};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    fx_add(f.m, "h", "players", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "stealth=3,agility=0");
    fx_add(f.m, "t", "raiders", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=4");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* Brush between: t cannot see h clearly, so h may hide: stealth 12+3. */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_HIDE, 0), FX_DICE(12)), BATTLE_OK);
    assert_true(f.p.b->u[0].cond & XC_HIDDEN);
    assert_false(xhalem_aware(f.p.b, 1, 0));
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* t searches: 11+0 does not beat 15. */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_SEARCH, 1), FX_DICE(11)), BATTLE_OK);
    assert_true(f.p.b->u[0].cond & XC_HIDDEN);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* 16 beats 15: found. */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_SEARCH, 1), FX_DICE(16)), BATTLE_OK);
    assert_false(f.p.b->u[0].cond & XC_HIDDEN);
    assert_true(xhalem_aware(f.p.b, 1, 0));
    fx_free(&f);
    /* In the open, in plain view, there is no hiding. */
    duel(&f, CRE, CRE);
    cmd_t hide = cmd_make(CMD_HIDE, 0);
    assert_int_equal(play_apply(&f.p, &hide), BATTLE_ILLEGAL);
    fx_free(&f);
}

static void test_unaware_target_uses_base_evasion(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", "...,....", "........"};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    fx_add(f.m, "h", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle", "stealth=3,agility=0");
    fx_add(f.m, "t", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=4");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* Brush between them: t sees h only through light cover, so h may hide. */
    fx_do(&f.p, cmd_make(CMD_HIDE, 0), FX_DICE(14));
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    /* Unseen shot: 2d20 keep 6 (+0) beats t's base evasion 4 with no evade roll. */
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(6, 3, 2)), BATTLE_OK);
    assert_true(last_of(f.p.b, EV_ATTACK)->hit);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"why\":\"evade\""), -1);
    /* Striking gives h away. */
    assert_false(f.p.b->u[0].cond & XC_HIDDEN);
    fx_free(&f);
}

static bool hidden_from(const battle_t *b, int who, int side)
{
    const ruleset_t *rs = b->rules;
    assert_non_null(rs->hidden_from);
    return rs->hidden_from(b, who, side);
}

static void test_hidden_from_follows_hiding(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", "...,....", "........"};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    fx_add(f.m, "h", "players", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "stealth=3,agility=0");
    fx_add(f.m, "t", "raiders", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=4");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    int hs = f.p.b->board->side[0], ts = f.p.b->board->side[1];
    assert_int_not_equal(hs, ts);
    assert_false(hidden_from(f.p.b, 0, ts));
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_HIDE, 0), FX_DICE(12)), BATTLE_OK);
    assert_true(hidden_from(f.p.b, 0, ts));
    assert_false(hidden_from(f.p.b, 0, hs)); /* its own side always knows */
    assert_false(hidden_from(f.p.b, 1, hs)); /* t never hid */
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_SEARCH, 1), FX_DICE(16)), BATTLE_OK);
    assert_false(hidden_from(f.p.b, 0, ts));
    fx_free(&f);
}

static void test_hidden_from_machine_scan(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", "...,....", "........"};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    fx_add(f.m, "h", "players", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "stealth=3,agility=0");
    fx_add(f.m, "t", "raiders", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=4");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    int ts = f.p.b->board->side[1];
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_HIDE, 0), FX_DICE(12)), BATTLE_OK);
    assert_true(hidden_from(f.p.b, 0, ts));
    /* The same scene with a machine on t's side: its passive scan sees through brush. */
    fx_free(&f);
    f.m = fx_map(8, 3, "xhalem", ROWS);
    fx_add(f.m, "h", "players", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "stealth=3,agility=0");
    fx_add(f.m, "t", "raiders", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=4");
    fx_add(f.m, "m", "raiders", 1, 2, KIND_MACHINE, SIZE_MEDIUM, 20, 30, "knife", "");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5, 4));
    assert_int_equal(do_tens(&f.p, cmd_make(CMD_HIDE, 0)), BATTLE_OK);
    assert_false(hidden_from(f.p.b, 0, ts));
    assert_true(xhalem_aware(f.p.b, 2, 0));
    fx_free(&f);
}

static void test_cloaked_revealed_and_lost_again(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"......#...", "......#...", "......#...", "......#...",
                                       ".........."};
    f.m = fx_map(10, 5, "xhalem", ROWS);
    fx_add(f.m, "c", "raiders", 3, 2, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "cloak=1,evasion=0");
    fx_add(f.m, "a", "players", 2, 2, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "agility=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    const xh_state_t *s = f.p.b->rs;
    int as = f.p.b->board->side[1];
    assert_false(hidden_from(f.p.b, 0, as));
    /* Cloaking in plain view of a hides nothing from it (RULINGS). */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_CLOAK, 0), FX_NO_DICE), BATTLE_OK);
    assert_false(hidden_from(f.p.b, 0, as));
    assert_true(xhalem_aware(f.p.b, 1, 0));
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    /* Striking gives its position away while it stays cloaked. */
    assert_int_equal(do_tens(&f.p, fx_engage(0, 1, 0)), BATTLE_OK);
    assert_true(f.p.b->u[0].cond & XC_CLOAKED);
    assert_true(s->revealed[0]);
    assert_false(hidden_from(f.p.b, 0, as));
    assert_true(xhalem_aware(f.p.b, 1, 0));
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    /* Round the wall and out of a's sight: unseen again. */
    assert_int_equal(do_tens(&f.p, FX_PATH(0, 3, 3, 4, 4, 5, 4, 6, 4, 7, 4, 7, 3)), BATTLE_OK);
    assert_true(battle_active(f.p.b, 0));
    assert_false(sight_clear(f.p.b->board, f.p.b->board->pos[1], f.p.b->board->pos[0]));
    assert_false(s->revealed[0]);
    assert_true(hidden_from(f.p.b, 0, as));
    fx_free(&f);
}

static void test_grapple_and_escape(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "g", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "strength=2");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=1,strength=1");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t c = cmd_make(CMD_GRAPPLE, 0);
    c.target = 1;
    /* 10+2 against 9+1: strictly higher, grappled. */
    assert_int_equal(fx_do(&f.p, c, FX_DICE(10, 9)), BATTLE_OK);
    assert_true(f.p.b->u[1].cond & XC_GRAPPLED);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* Held: t cannot move. */
    cmd_t mv = FX_PATH(1, 3, 1);
    assert_int_equal(play_apply(&f.p, &mv), BATTLE_ILLEGAL);
    /* Escape: 11+1 equals 10+2, and equal is enough. */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_ESCAPE, 1), FX_DICE(11, 10)), BATTLE_OK);
    assert_false(f.p.b->u[1].cond & XC_GRAPPLED);
    fx_free(&f);
}

static void test_grapple_size_limit(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "g", "players", 1, 1, KIND_CREATURE, SIZE_SMALL, 20, 30, "knife", NULL);
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_EXTRA_LARGE, 20, 30, "knife", NULL);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t c = cmd_make(CMD_GRAPPLE, 0);
    c.target = 1;
    assert_int_equal(play_apply(&f.p, &c), BATTLE_ILLEGAL);
    fx_free(&f);
}

static void test_shove_knocks_down(void **state)
{
    (void)state;
    fx_t f;
    duel(&f, "agility=0,strength=3", "evasion=0,strength=0");
    cmd_t c = cmd_make(CMD_SHOVE, 0);
    c.target = 1;
    c.arg = 0;
    assert_int_equal(fx_do(&f.p, c, FX_DICE(10, 3, 8, 9)), BATTLE_OK); /* 11 > 9 */
    assert_true(f.p.b->u[1].cond & XC_PRONE);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* Standing up costs half the move. */
    assert_int_equal(xhalem_move_left(f.p.b), 15);
    fx_free(&f);
}

static void test_assist_gives_first_engagement_advantage(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", NULL);
    fx_add(f.m, "h", "players", 2, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 14, 5));
    cmd_t as = cmd_make(CMD_ASSIST, 0);
    as.target = 2;
    assert_int_equal(fx_do(&f.p, as, FX_NO_DICE), BATTLE_OK);
    /* The table sees it: t is distracted until the assist is spent. */
    assert_true(f.p.b->u[2].cond & XC_DISTRACTED);
    assert_true(FX_FIND(f.p.b, 0, "\"condition\":\"distracted\"", "\"on\":true") >= 0);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    fx_do(&f.p, fx_engage(1, 2, 0), FX_DICE(4, 16, 2, 1));
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"a\"", "\"dice\":\"2d20\"", "\"kept\":[16]") >= 0);
    assert_false(f.p.b->u[2].cond & XC_DISTRACTED);
    assert_true(FX_FIND(f.p.b, 0, "\"condition\":\"distracted\"", "\"on\":false") >= 0);
    fx_free(&f);
}

/* An assist nobody uses runs out when the assister's next turn starts. */
static void test_assist_runs_out(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", NULL);
    fx_add(f.m, "h", "players", 2, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 14, 5));
    cmd_t as = cmd_make(CMD_ASSIST, 0);
    as.target = 2;
    assert_int_equal(fx_do(&f.p, as, FX_NO_DICE), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE); /* h done */
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE); /* a does not strike */
    assert_true(f.p.b->u[2].cond & XC_DISTRACTED);
    fx_do(&f.p, cmd_make(CMD_END, 2), FX_NO_DICE); /* t's turn passes; round 2: h again */
    assert_false(f.p.b->u[2].cond & XC_DISTRACTED);
    /* a's strike now is a plain one. */
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    fx_do(&f.p, fx_engage(1, 2, 0), FX_DICE(4, 16));
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"a\"", "\"dice\":\"1d20\"", "\"why\":\"engage\"") >= 0);
    fx_free(&f);
}

/* The assister's own granted strike neither gains the assist nor spends it. */
static void test_assist_outlives_the_assisters_own_strike(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", NULL);
    fx_add(f.m, "h", "players", 2, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife,spur",
           CRE ",dual_weapon=1");
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_weapon(f.db, "spur", WPN_MELEE, false, 5, 0, 1, 4, 0, "secondary=1");
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 14, 5));
    cmd_t as = cmd_make(CMD_ASSIST, 0);
    as.target = 2;
    assert_int_equal(fx_do(&f.p, as, FX_NO_DICE), BATTLE_OK);
    /* h's spur: one d20, no advantage (2 against 10 misses). */
    assert_int_equal(fx_do(&f.p, fx_engage(0, 2, 1), FX_DICE(2, 10)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"h\"", "\"dice\":\"1d20\"", "\"why\":\"engage\"") >= 0);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* a still strikes with advantage. */
    fx_do(&f.p, fx_engage(1, 2, 0), FX_DICE(4, 16, 2, 1));
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"a\"", "\"dice\":\"2d20\"", "\"kept\":[16]") >= 0);
    fx_free(&f);
}

static void test_standby_strikes_when_enemy_enters_reach(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "w", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0");
    fx_add(f.m, "r", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t sb = cmd_make(CMD_STANDBY, 0);
    sb.arg = XT_ENTERS_REACH;
    sb.weapon = 0;
    assert_int_equal(fx_do(&f.p, sb, FX_NO_DICE), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* r steps to (3,1), then (2,1): inside w's reach; w strikes after that step. */
    assert_int_equal(fx_do(&f.p, FX_PATH(1, 4, 1, 3, 1, 2, 1), FX_DICE(12, 3, 4)), BATTLE_OK);
    int step = FX_FIND(f.p.b, 0, "\"move_step\"", "\"to\":[2,1]");
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"");
    assert_true(step >= 0 && re > step);
    assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 4);
    fx_free(&f);
}

static void test_drag_grappled_at_half_speed(void **state)
{
    (void)state;
    static const csize_t SIZES[2] = {SIZE_MEDIUM, SIZE_TINY};
    for (int k = 0; k < 2; k++) {
        fx_t f;
        f.m = fx_map(8, 3, "xhalem", NULL);
        fx_add(f.m, "g", "players", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "strength=2");
        fx_add(f.m, "t", "raiders", 5, 1, KIND_CREATURE, SIZES[k], 20, 30, "knife",
               "evasion=1,strength=1");
        f.db = weapons();
        fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
        cmd_t c = cmd_make(CMD_GRAPPLE, 0);
        c.target = 1;
        assert_int_equal(fx_do(&f.p, c, FX_DICE(10, 9)), BATTLE_OK);
        assert_true(f.p.b->u[1].cond & XC_GRAPPLED);
        /* Dragging a medium foe halves g's 30 ft; a tiny one does not slow it. */
        assert_int_equal(xhalem_move_left(f.p.b), k == 0 ? 15 : 30);
        /* Three hexes west: 15 ft, with t pulled along behind. */
        assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1, 2, 1, 1, 1), FX_NO_DICE), BATTLE_OK);
        hex_t at_t = f.p.b->board->pos[1];
        hex_t want = hex_from_cell(f.p.b->map->layout, (cell_t){2, 1});
        assert_true(at_t.q == want.q && at_t.r == want.r); /* dragged behind */
        if (k == 0) {
            assert_int_equal(xhalem_move_left(f.p.b), 0);
            cmd_t more = FX_PATH(0, 0, 1);
            assert_int_equal(play_apply(&f.p, &more), BATTLE_ILLEGAL);
        } else {
            assert_int_equal(xhalem_move_left(f.p.b), 15);
        }
        fx_free(&f);
    }
}

static void test_electric_doubles_in_water(void **state)
{
    (void)state;
    static const char *const ROWS[] = {"........", ".~......", "........"};
    static const char *const WEAPON[2] = {"shock", "knife"};
    int dealt[2];
    for (int k = 0; k < 2; k++) {
        fx_t f;
        f.m = fx_map(8, 3, "xhalem", ROWS);
        f.m->types[T_WATER].depth = DEPTH_PARTIAL; /* any immersion (wading is none) */
        fx_add(f.m, "a", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, WEAPON[k], "agility=10");
        fx_add(f.m, "t", "raiders", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
        f.db = weapons();
        fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
        assert_int_equal(do_tens(&f.p, fx_engage(0, 1, 0)), BATTLE_OK);
        assert_true(last_of(f.p.b, EV_ATTACK)->hit);
        dealt[k] = last_of(f.p.b, EV_DAMAGE)->amount;
        fx_free(&f);
    }
    /* The d6 rolled 6 both times: lightning in water deals it twice over. */
    assert_int_equal(dealt[1], 6);
    assert_int_equal(dealt[0], 12);
}

static void test_standby_on_engages_trigger(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "w", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0");
    fx_add(f.m, "r", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 30, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t sb = cmd_make(CMD_STANDBY, 0);
    sb.arg = XT_ENGAGES;
    sb.weapon = 0;
    assert_int_equal(fx_do(&f.p, sb, FX_NO_DICE), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* r merely standing beside w does not set it off... */
    assert_int_equal(FX_FIND(f.p.b, 0, "\"reaction\""), -1);
    /* ...r engaging does, and w strikes back after r's attack. */
    assert_int_equal(do_tens(&f.p, fx_engage(1, 0, 0)), BATTLE_OK);
    int atk = FX_FIND(f.p.b, 0, "\"attack\"", "\"attacker\":\"r\"");
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"");
    assert_true(atk >= 0);
    assert_true(re > atk);
    assert_true(FX_FIND(f.p.b, re, "\"attack\"", "\"attacker\":\"w\"") > re);
    fx_free(&f);
}

/* On a map of 15-ft hexes a rule length covers ceil(ft / 15) hexes, as the
 * threat zone and the overlays count it: a 5-ft blade reaches the next hex,
 * a 40-ft weapon three hexes (45 ft), a 30-ft one two. */
static void test_lengths_round_up_to_whole_hexes(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    f.m->feet_per_hex = 15;
    fx_add(f.m, "a", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife,rifle,bow40", CRE);
    fx_add(f.m, "near", "raiders", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "far", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_weapon(f.db, "bow40", WPN_RANGED, false, 0, 40, 1, 8, 0, NULL);
    fx_start(&f.p, f.m, f.db, FX_DICE(19, 5, 5));
    const battle_t *b = f.p.b;
    xh_engage_t g;
    /* The knife reaches the adjacent hex 15 ft away. */
    assert_true(xhalem_engage_shape(b, 0, 1, battle_weapon(b, 0, 0), false, false, &g));
    assert_true(g.legal);
    /* ...and so does the threat zone that draws opportunity attacks. */
    assert_true(geom_threatens(b->board, 0, 5, b->board->pos[1]));
    /* far is 3 hexes (45 ft) off: past the 30-ft rifle (2 hexes), within the 40-ft bow. */
    assert_true(xhalem_engage_shape(b, 0, 2, battle_weapon(b, 0, 1), false, false, &g));
    assert_true(g.beyond);
    assert_true(xhalem_engage_shape(b, 0, 2, battle_weapon(b, 0, 2), false, false, &g));
    assert_false(g.beyond);
    /* No blade reaches 3 hexes. */
    assert_false(xhalem_engage_shape(b, 0, 2, battle_weapon(b, 0, 0), false, false, &g) && g.legal);
    fx_free(&f);
}

/* ---- the AI's choices ----------------------------------------------------- */

static int cells_apart(const battle_t *b, cell_t x, int who)
{
    return hex_distance(hex_from_cell(b->map->layout, x), b->board->pos[who]);
}

static void test_ai_melee_closes_in(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "t", "raiders", 6, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t c = ai_choice(&f, 0);
    assert_int_equal(c.kind, CMD_MOVE);
    assert_int_equal(cells_apart(f.p.b, c.path[c.n_path - 1], 1), 1); /* ends beside t */
    fx_free(&f);
}

static void test_ai_shooter_keeps_range(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle,knife", CRE);
    fx_add(f.m, "t", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* Rifle in hand, 25 ft: inside its 30, so it shoots from where it stands
     * rather than walking up to knife range. */
    cmd_t c = ai_choice(&f, 0);
    assert_int_equal(c.kind, CMD_ENGAGE);
    assert_int_equal(c.target, 1);
    assert_int_equal(c.weapon, 0);
    fx_free(&f);
}

static void test_ai_seeks_flank(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "t", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "b", "players", 6, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5, 4));
    cmd_t c = ai_choice(&f, 0);
    assert_int_equal(c.kind, CMD_MOVE);
    cell_t end = c.path[c.n_path - 1];
    /* The one hex beside t directly opposite b: (4,1). */
    assert_int_equal(end.col, 4);
    assert_int_equal(end.row, 1);
    fx_free(&f);
}

static void test_ai_goes_for_the_wounded(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 5, "knife", CRE);
    fx_add(f.m, "hale", "raiders", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "hurt", "raiders", 8, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5, 4));
    f.p.b->u[2].hp = 2; /* same distance, nearly down */
    cmd_t c = ai_choice(&f, 0);
    assert_int_equal(c.kind, CMD_MOVE);
    cell_t end = c.path[c.n_path - 1];
    assert_true(cells_apart(f.p.b, end, 2) < cells_apart(f.p.b, end, 1));
    fx_free(&f);
}

static void test_ai_stays_put_after_striking(void **state)
{
    (void)state;
    fx_t f;
    duel(&f, CRE, CRE);
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 15)), BATTLE_OK);
    /* Move left, action spent, enemy adjacent: walking off would provoke. */
    assert_true(xhalem_move_left(f.p.b) > 0);
    cmd_t c = ai_choice(&f, 0);
    assert_int_equal(c.kind, CMD_END);
    fx_free(&f);
}

/* Beside a foe, the AI strikes it rather than walk off toward a juicier one
 * and draw an opportunity attack; with nobody beside it, it goes. */
static void test_ai_does_not_provoke_for_a_better_target(void **state)
{
    (void)state;
    for (int beside = 0; beside < 2; beside++) {
        fx_t f;
        f.m = fx_map(10, 3, "xhalem", NULL);
        fx_add(f.m, "a", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
        fx_add(f.m, "t", "raiders", beside ? 1 : 0, beside ? 1 : 0, KIND_CREATURE, SIZE_MEDIUM,
               20, 30, "knife", CRE);
        fx_add(f.m, "u", "raiders", 6, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
        f.db = weapons();
        fx_start(&f.p, f.m, f.db, FX_DICE(19, 5, 5));
        f.p.b->u[2].hp = 1; /* u is nearly down: the one it would rather finish */
        cmd_t c = ai_choice(&f, 0);
        if (beside) {
            assert_int_equal(c.kind, CMD_ENGAGE);
            assert_int_equal(c.target, 1);
        } else {
            assert_int_equal(c.kind, CMD_MOVE);
            assert_int_equal(cells_apart(f.p.b, c.path[c.n_path - 1], 2), 1);
        }
        fx_free(&f);
    }
}

/* A weak striker beside a strong ally assists rather than scratch at a foe
 * it rarely hits; a strong one strikes. */
static void test_ai_assists_when_it_pays(void **state)
{
    (void)state;
    for (int strong = 0; strong < 2; strong++) {
        fx_t f;
        f.m = fx_map(8, 4, "xhalem", NULL);
        /* a cannot move, so the choice is made where it stands. */
        fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 0,
               strong ? "cleaver" : "knife", strong ? CRE : "agility=0,strength=0");
        fx_add(f.m, "x", "players", 2, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "cleaver", CRE);
        fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 90, 30, "knife",
               "agility=2,evasion=6");
        f.db = weapons();
        fx_weapon(f.db, "cleaver", WPN_MELEE, false, 5, 0, 4, 10, 5, NULL);
        fx_start(&f.p, f.m, f.db, FX_DICE(19, 5, 5));
        cmd_t c = ai_choice(&f, 0);
        assert_int_equal(c.kind, strong ? CMD_ENGAGE : CMD_ASSIST);
        assert_int_equal(c.target, 2);
        if (!strong) {
            assert_int_equal(fx_do(&f.p, c, FX_NO_DICE), BATTLE_OK);
            assert_int_equal(ai_choice(&f, 0).kind, CMD_END);
        }
        fx_free(&f);
    }
}

static void test_declining_side_lets_reactions_pass(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        fx_t f;
        f.m = fx_map(8, 4, "xhalem", OPEN8);
        fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
        fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
        f.db = weapons();
        battle_opts_t o = {.seed = 3};
        assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
        const xh_state_t *s = f.p.b->rs;
        /* Whoever goes first walks out of the other's reach. */
        int mover = s->actor, other = 1 - mover;
        /* The table sets the policy; seeded dice, so no rebuild forgets it. */
        if (k == 1)
            f.p.b->opts.decline_sides = 1u << f.p.b->board->side[other];
        cmd_t mv = mover == 0 ? FX_PATH(0, 0, 1, 0, 2) : FX_PATH(1, 3, 1, 4, 1);
        battle_status_t st = play_apply(&f.p, &mv);
        assert_true(st == BATTLE_OK || st == BATTLE_OVER);
        int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"opportunity\"");
        if (k == 0)
            assert_true(re >= 0);
        else
            assert_int_equal(re, -1);
        fx_free(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initiative_highest_first),
        cmocka_unit_test(test_initiative_player_tie_by_score_then_reroll),
        cmocka_unit_test(test_initiative_player_architect_tie_rerolls),
        cmocka_unit_test(test_initiative_architect_tie_keeps_map_order),
        cmocka_unit_test(test_group_initiative_shares_one_roll),
        cmocka_unit_test(test_tie_goes_to_defender),
        cmocka_unit_test(test_hit_and_damage_adds_strength),
        cmocka_unit_test(test_flat_weapon_rolls_no_damage_dice),
        cmocka_unit_test(test_creature_natural_one_and_twenty),
        cmocka_unit_test(test_machines_have_no_naturals),
        cmocka_unit_test(test_beyond_range_disadvantage_half_damage),
        cmocka_unit_test(test_flanking_gives_advantage),
        cmocka_unit_test(test_no_flank_beside_an_ally),
        cmocka_unit_test(test_cover_light_and_heavy),
        cmocka_unit_test(test_total_cover_cannot_be_targeted),
        cmocka_unit_test(test_damage_scores_for_machines),
        cmocka_unit_test(test_creature_energy_ranged_adds_nothing),
        cmocka_unit_test(test_defeat_ends_battle_with_winner),
        cmocka_unit_test(test_move_split_around_action),
        cmocka_unit_test(test_dash_doubles_budget),
        cmocka_unit_test(test_difficult_terrain_costs_double),
        cmocka_unit_test(test_opportunity_on_leaving_reach),
        cmocka_unit_test(test_no_opportunity_after_engaging),
        cmocka_unit_test(test_no_opportunity_without_melee_weapon),
        cmocka_unit_test(test_small_mech_never_provokes),
        cmocka_unit_test(test_one_reaction_per_round),
        cmocka_unit_test(test_forced_move_provokes_with_disadvantage),
        cmocka_unit_test(test_detriment_against_cloaked),
        cmocka_unit_test(test_hide_and_unaware_target),
        cmocka_unit_test(test_unaware_target_uses_base_evasion),
        cmocka_unit_test(test_hidden_from_follows_hiding),
        cmocka_unit_test(test_hidden_from_machine_scan),
        cmocka_unit_test(test_cloaked_revealed_and_lost_again),
        cmocka_unit_test(test_grapple_and_escape),
        cmocka_unit_test(test_grapple_size_limit),
        cmocka_unit_test(test_shove_knocks_down),
        cmocka_unit_test(test_assist_gives_first_engagement_advantage),
        cmocka_unit_test(test_assist_outlives_the_assisters_own_strike),
        cmocka_unit_test(test_assist_runs_out),
        cmocka_unit_test(test_standby_strikes_when_enemy_enters_reach),
        cmocka_unit_test(test_drag_grappled_at_half_speed),
        cmocka_unit_test(test_electric_doubles_in_water),
        cmocka_unit_test(test_standby_on_engages_trigger),
        cmocka_unit_test(test_lengths_round_up_to_whole_hexes),
        cmocka_unit_test(test_ai_melee_closes_in),
        cmocka_unit_test(test_ai_shooter_keeps_range),
        cmocka_unit_test(test_ai_seeks_flank),
        cmocka_unit_test(test_ai_goes_for_the_wounded),
        cmocka_unit_test(test_ai_stays_put_after_striking),
        cmocka_unit_test(test_ai_assists_when_it_pays),
        cmocka_unit_test(test_ai_does_not_provoke_for_a_better_target),
        cmocka_unit_test(test_declining_side_lets_reactions_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
