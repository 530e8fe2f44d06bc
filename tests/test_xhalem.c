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

#include "rules_fixture.h"
#include "rules/predict.h"
#include "rules/xhalem.h"

static tmpl_db_t *weapons(void)
{
    tmpl_db_t *db = fx_db("xhalem");
    fx_weapon(db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_weapon(db, "pike", WPN_MELEE, false, 10, 0, 1, 8, 0, NULL);
    fx_weapon(db, "rifle", WPN_RANGED, false, 0, 30, 1, 10, 0, NULL);
    fx_weapon(db, "laser", WPN_RANGED, true, 0, 30, 1, 10, 0, NULL);
    fx_weapon(db, "javelin", WPN_THROWN, false, 0, 20, 1, 6, 0, NULL);
    fx_weapon(db, "mech_fist", WPN_MELEE, false, 0, 0, 2, 6, 0, NULL);
    fx_weapon(db, "mech_gun", WPN_RANGED, false, 0, 300, 1, 10, 0, NULL);
    fx_weapon(db, "mech_beam", WPN_RANGED, true, 0, 300, 1, 10, 0, NULL);
    fx_weapon(db, "torch", WPN_MELEE, false, 5, 0, 1, 6, 0, "fire=1");
    fx_weapon(db, "shock", WPN_MELEE, true, 5, 0, 1, 6, 0, "electric=1");
    return db;
}

static const char *const OPEN8[] = {"........", "........", "........", "........"};

/* Creature stat string helpers. */
#define CRE "agility=2,strength=1,evasion=3"

static int count_type(const battle_t *b, ev_type_t t)
{
    int n = 0;
    for (int k = 0; k < b->log.n; k++)
        n += b->log.ev[k].type == t;
    return n;
}

static const event_t *last_of(const battle_t *b, ev_type_t t)
{
    for (int k = b->log.n - 1; k >= 0; k--)
        if (b->log.ev[k].type == t)
            return &b->log.ev[k];
    return NULL;
}

/* A duel: a (players) at (1,1), t (raiders) at (2,1); a goes first. */
static void duel(fx_t *f, const char *a_stats, const char *t_stats)
{
    f->m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f->m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife,rifle", a_stats);
    fx_add(f->m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", t_stats);
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 5));
}

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

/* Apply c entering 10 (or the top face of a smaller die) for every die it asks
 * for: for tests about state, not numbers. */
static battle_status_t do_tens(play_t *p, cmd_t c)
{
    battle_status_t st = play_apply(p, &c);
    for (int k = 0; st == BATTLE_NEED_DICE && k < 64; k++)
        st = play_enter_die(p, p->b->need.sides < 10 ? p->b->need.sides : 10);
    return st;
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

static cmd_t ai_choice(fx_t *f, int actor)
{
    const ruleset_t *rs = f->p.b->rules;
    cmd_t c;
    rs->ai(f->p.b, actor, &c);
    return c;
}

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

/* ---- mounts ---------------------------------------------------------------- */

/* r (rider, medium, 30 ft) beside h (horse, large ally, 60 ft); foe far off.
 * Initiative: r 15, foe 10, h 5. */
static void mount_scene(fx_t *f, csize_t horse_size, ckind_t horse_kind, const char *horse_side)
{
    f->m = fx_map(14, 3, "xhalem", NULL);
    fx_add(f->m, "r", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f->m, "foe", "raiders", 12, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f->m, "h", horse_side, 2, 1, horse_kind, horse_size, 30, 60, "knife", "");
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 10, 5));
}

static void test_mount_needs_willing_larger_mount(void **state)
{
    (void)state;
    struct {
        csize_t size;
        ckind_t kind;
        const char *side;
        battle_status_t want;
    } cases[] = {
        {SIZE_LARGE, KIND_CREATURE, "players", BATTLE_OK},
        {SIZE_MEDIUM, KIND_CREATURE, "players", BATTLE_ILLEGAL},  /* not larger */
        {SIZE_LARGE, KIND_CREATURE, "raiders", BATTLE_ILLEGAL},   /* not willing */
        {SIZE_LARGE, KIND_MACHINE, "players", BATTLE_ILLEGAL},    /* big enough to enter */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fx_t f;
        mount_scene(&f, cases[k].size, cases[k].kind, cases[k].side);
        cmd_t list[64];
        int nl = ((const ruleset_t *)f.p.b->rules)->legal(f.p.b, 0, list, 64);
        bool offered = false;
        for (int q = 0; q < nl && q < 64; q++)
            offered = offered || (list[q].kind == CMD_MOUNT && list[q].target == 2);
        assert_int_equal(offered, cases[k].want == BATTLE_OK);
        cmd_t c = cmd_make(CMD_MOUNT, 0);
        c.target = 2;
        assert_int_equal(play_apply(&f.p, &c), cases[k].want);
        if (cases[k].want == BATTLE_OK) {
            assert_int_equal(xhalem_mount_of(f.p.b, 0), 2);
            hex_t pr = f.p.b->board->pos[0], ph = f.p.b->board->pos[2];
            assert_true(pr.q == ph.q && pr.r == ph.r);
            /* It was the action. */
            assert_int_equal(play_apply(&f.p, &(cmd_t){.kind = CMD_DASH, .actor = 0}), BATTLE_ILLEGAL);
        } else {
            assert_int_equal(xhalem_mount_of(f.p.b, 0), -1);
        }
        fx_free(&f);
    }
    /* Out of reach: two hexes away. */
    fx_t f;
    f.m = fx_map(14, 3, "xhalem", NULL);
    fx_add(f.m, "r", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "foe", "raiders", 12, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "h", "players", 3, 1, KIND_CREATURE, SIZE_LARGE, 30, 60, "knife", "");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 10, 5));
    cmd_t c = cmd_make(CMD_MOUNT, 0);
    c.target = 2;
    assert_int_equal(play_apply(&f.p, &c), BATTLE_ILLEGAL);
    fx_free(&f);
}

/* The AI weighs hexes by standing the rider on them for a look; a rider
 * shares its mount's hex without holding it, so the look must put the hex
 * back as it was (it once handed the mount's hex to the rider, and the
 * next mover could walk onto the mount). */
static void test_ai_look_keeps_the_mount_in_its_hex(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "r", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "foe", "raiders", 6, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "ally", "players", 7, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "h", "players", 2, 1, KIND_CREATURE, SIZE_LARGE, 30, 60, "knife", "");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 10, 8, 5));
    cmd_t c = cmd_make(CMD_MOUNT, 0);
    c.target = 3;
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    for (int k = 0; k < 3; k++) /* r, foe, ally end: r's turn again */
        assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, k), FX_NO_DICE), BATTLE_OK);
    board_t *bd = f.p.b->board;
    int cell = board_cell_index(bd, bd->pos[3]);
    assert_int_equal(bd->occ[cell], 3);
    cmd_t plan;
    f.p.rs->ai(f.p.b, 0, &plan);
    assert_int_equal(plan.kind, CMD_MOVE); /* it weighed hexes beside the foe */
    assert_int_equal(bd->occ[cell], 3);
    assert_true(hex_eq(bd->pos[0], bd->pos[3]));
    fx_free(&f);
}

static void test_mounted_speed_and_shared_turn(void **state)
{
    (void)state;
    fx_t f;
    mount_scene(&f, SIZE_LARGE, KIND_CREATURE, "players");
    cmd_t c = cmd_make(CMD_MOUNT, 0);
    c.target = 2;
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    /* The horse's 60 ft replace the rider's 30. */
    assert_int_equal(xhalem_move_left(f.p.b), 60);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1, 4, 1, 5, 1, 6, 1, 7, 1, 8, 1, 9, 1), FX_NO_DICE),
                     BATTLE_OK);
    hex_t want = hex_from_cell(f.p.b->map->layout, (cell_t){9, 1});
    hex_t pr = f.p.b->board->pos[0], ph = f.p.b->board->pos[2];
    assert_true(pr.q == want.q && pr.r == want.r);
    assert_true(ph.q == want.q && ph.r == want.r);
    assert_int_equal(board_occupant(f.p.b->board, want), 2);
    assert_int_equal(xhalem_move_left(f.p.b), 25);
    /* Shared initiative: r, foe, then r again - the horse has no turn of its own. */
    int from = f.p.b->log.n;
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    assert_int_equal(FX_FIND(f.p.b, from, "\"turn_start\"", "\"id\":\"h\""), -1);
    assert_true(FX_FIND(f.p.b, from, "\"turn_start\"", "\"round\":2", "\"id\":\"r\"") >= 0);
    /* Dismounting is the action, onto a free hex beside the mount; the horse
     * then gets its own turn back. */
    cmd_t off = cmd_make(CMD_DISMOUNT, 0);
    off.at = (cell_t){11, 1}; /* two hexes off: refused */
    assert_int_equal(play_apply(&f.p, &off), BATTLE_ILLEGAL);
    off.at = (cell_t){10, 1};
    assert_int_equal(play_apply(&f.p, &off), BATTLE_OK);
    assert_int_equal(xhalem_mount_of(f.p.b, 0), -1);
    assert_int_equal(board_occupant(f.p.b->board, hex_from_cell(f.p.b->map->layout, (cell_t){10, 1})), 0);
    assert_int_equal(board_occupant(f.p.b->board, want), 2);
    assert_int_equal(xhalem_move_left(f.p.b), 30);
    from = f.p.b->log.n;
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    assert_true(FX_FIND(f.p.b, from, "\"turn_start\"", "\"id\":\"h\"") >= 0);
    fx_free(&f);
}

static void test_fallen_mount_drops_rider(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "r", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "foe", "raiders", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=10,strength=5");
    fx_add(f.m, "h", "players", 2, 1, KIND_CREATURE, SIZE_LARGE, 1, 60, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 10, 5));
    cmd_t c = cmd_make(CMD_MOUNT, 0);
    c.target = 2;
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    assert_int_equal(do_tens(&f.p, fx_engage(1, 2, 0)), BATTLE_OK);
    assert_false(battle_active(f.p.b, 2));
    assert_true(battle_active(f.p.b, 0));
    assert_int_equal(xhalem_mount_of(f.p.b, 0), -1);
    hex_t h = hex_from_cell(f.p.b->map->layout, (cell_t){2, 1});
    assert_int_equal(board_occupant(f.p.b->board, h), 0); /* the rider now holds the hex */
    assert_true(FX_FIND(f.p.b, 0, "\"condition\"", "\"id\":\"r\"", "\"mounted\"", "\"on\":false") >= 0);
    fx_free(&f);
}

static void test_use_door(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", "..D.....", "........"};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", NULL);
    fx_add(f.m, "t", "raiders", 7, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", NULL);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t through = FX_PATH(0, 2, 1);
    assert_int_equal(play_apply(&f.p, &through), BATTLE_ILLEGAL);
    cmd_t use = cmd_make(CMD_USE, 0);
    use.at = (cell_t){2, 1};
    assert_int_equal(fx_do(&f.p, use, FX_NO_DICE), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"terrain\"", "\"at\":[2,1]", "\"door_open\"") >= 0);
    assert_int_equal(fx_do(&f.p, through, FX_NO_DICE), BATTLE_OK);
    /* The source map is untouched: a rebuild starts from the shut door. */
    assert_int_equal(f.m->cells[1 * 8 + 2], T_DOOR);
    fx_free(&f);
}

static void test_flight_switches_speed(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", ".~~~~~..", "........"};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    int a = fx_add(f.m, "a", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 10, "knife", NULL);
    f.m->combatants[a].fly_ft = 30;
    fx_add(f.m, "t", "raiders", 7, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", NULL);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* Walking, water costs double: one water hex is all 10 ft buys. */
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 1, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(xhalem_move_left(f.p.b), 0);
    /* Take off: 30 ft less the 10 already moved leaves 20, at the plain rate. */
    cmd_t fly = cmd_make(CMD_FLY, 0);
    fly.arg = 1;
    assert_int_equal(fx_do(&f.p, fly, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(xhalem_move_left(f.p.b), 20);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 2, 1, 3, 1), FX_NO_DICE), BATTLE_OK);
    fx_free(&f);
}

static void test_underwater_disadvantage_and_fire(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"........", ".~~.....", "........"};
    f.m = fx_map(8, 3, "xhalem", ROWS);
    f.m->types[T_WATER].depth = DEPTH_DEEP; /* underwater is deep water, not wading */
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "torch", "agility=0");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* Both in water: 2d20 keep low (9) beats 3; the torch's fire does nothing there. */
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(9, 15, 3, 6)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"engage\"", "\"dice\":\"2d20\"", "\"kept\":[9]") >= 0);
    assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 0);
    fx_free(&f);
}

static void test_dual_strike(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "m", "players", 1, 1, KIND_MACHINE, SIZE_MEDIUM, 40, 375, "mech_fist,mech_gun",
           "systems=0,hull=0,dual_strike=1");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t c = fx_engage(0, 1, 0);
    c.weapon2 = 1; /* a machine may switch weapons between the two strikes */
    assert_int_equal(fx_do(&f.p, c, FX_DICE(10, 2, 3, 4, 10, 2, 6)), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_ATTACK), 2);
    assert_true(FX_FIND(f.p.b, 0, "\"attack\"", "\"weapon\":\"mech_gun\"") >= 0);
    assert_int_equal(f.p.b->u[1].hp, 40 - 7 - 6);
    fx_free(&f);
    /* Without the program: illegal. */
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "m", "players", 1, 1, KIND_MACHINE, SIZE_MEDIUM, 40, 375, "mech_fist,mech_gun", NULL);
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", NULL);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    assert_int_equal(play_apply(&f.p, &c), BATTLE_ILLEGAL);
    fx_free(&f);
}

static void test_creature_switch_costs_action(void **state)
{
    (void)state;
    fx_t f;
    duel(&f, CRE, CRE);
    /* a holds the knife; the rifle is not at hand. */
    assert_false(xhalem_equipped(f.p.b, 0, 1));
    cmd_t shot = fx_engage(0, 1, 1);
    assert_int_equal(play_apply(&f.p, &shot), BATTLE_ILLEGAL);
    cmd_t sw = cmd_make(CMD_SWITCH, 0);
    sw.weapon = 1;
    assert_int_equal(fx_do(&f.p, sw, FX_NO_DICE), BATTLE_OK);
    assert_true(xhalem_equipped(f.p.b, 0, 1));
    assert_int_equal(play_apply(&f.p, &shot), BATTLE_ILLEGAL); /* the action is spent */
    fx_free(&f);
}

/* w (players, 30 ft) at (1,1) holds a move to `to`, trigger: r enters reach.
 * r (raiders, unarmed so nothing provokes) walks in from (5,1). w first
 * spends `walk_ft` of its move pacing between (1,1) and (0,1). */
static void held_move_scene(fx_t *f, int walk_ft, cell_t to)
{
    f->m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f->m, "w", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f->m, "r", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, NULL, "");
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 5));
    cmd_t pace = cmd_make(CMD_MOVE, 0);
    for (int k = 0; k < walk_ft / 5; k++)
        pace.path[pace.n_path++] = (cell_t){k % 2 == 0 ? 0 : 1, 1};
    if (pace.n_path > 0)
        assert_int_equal(fx_do(&f->p, pace, FX_NO_DICE), BATTLE_OK);
    cmd_t sb = cmd_make(CMD_STANDBY, 0);
    sb.arg = XT_ENTERS_REACH;
    sb.weapon = 0;
    sb.act = CMD_MOVE;
    sb.at = to;
    assert_int_equal(fx_do(&f->p, sb, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f->p, cmd_make(CMD_END, 0), FX_NO_DICE), BATTLE_OK);
}

static void test_standby_move_uses_only_leftover_movement(void **state)
{
    (void)state;
    /* (1,1) to (1,3) is 10 ft: 20 ft walked leaves 10, 30 ft walked leaves 0. */
    static const int WALKED[2] = {20, 30};
    for (int k = 0; k < 2; k++) {
        fx_t f;
        held_move_scene(&f, WALKED[k], (cell_t){1, 3});
        assert_int_equal(fx_do(&f.p, FX_PATH(1, 4, 1, 3, 1, 2, 1), FX_NO_DICE), BATTLE_OK);
        const xh_state_t *s = f.p.b->rs;
        hex_t w = f.p.b->board->pos[0];
        hex_t goal = hex_from_cell(f.p.b->map->layout, (cell_t){1, 3});
        if (k == 0) {
            assert_true(FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"") >= 0);
            assert_true(hex_eq(w, goal));
            assert_int_equal(s->standby[0], 0);
            assert_int_equal(s->reaction_used[0], 1);
        } else {
            /* Too far for what is left: no reaction, and the move stays held. */
            assert_int_equal(FX_FIND(f.p.b, 0, "\"reaction\""), -1);
            assert_false(hex_eq(w, goal));
            assert_int_equal(s->standby[0], 1);
        }
        fx_free(&f);
    }
}

static void test_standby_move_never_ends_on_the_movers_way(void **state)
{
    (void)state;
    fx_t f;
    /* w wants (2,2), the very hex r's move ends on: it cannot go there now. */
    held_move_scene(&f, 0, (cell_t){2, 2});
    assert_int_equal(fx_do(&f.p, FX_PATH(1, 4, 1, 3, 1, 2, 1, 2, 2), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"reaction\""), -1);
    hex_t r = f.p.b->board->pos[1];
    assert_true(hex_eq(r, hex_from_cell(f.p.b->map->layout, (cell_t){2, 2})));
    assert_true(hex_eq(f.p.b->board->pos[0], hex_from_cell(f.p.b->map->layout, (cell_t){1, 1})));
    fx_free(&f);
    /* Somewhere else beside the way is fine, and r still finishes its move. */
    held_move_scene(&f, 0, (cell_t){1, 2});
    assert_int_equal(fx_do(&f.p, FX_PATH(1, 4, 1, 3, 1, 2, 1, 2, 2), FX_NO_DICE), BATTLE_OK);
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"");
    assert_true(re >= 0);
    assert_true(FX_FIND(f.p.b, re, "\"move_step\"", "\"id\":\"w\"", "\"to\":[1,2]") > re);
    assert_true(FX_FIND(f.p.b, re, "\"move_step\"", "\"id\":\"r\"", "\"to\":[2,2]") > re);
    fx_free(&f);
}

/* t (raiders) goes first and walks out of a's reach; the players' side is
 * asked about each reaction. */
static void asked_scene(fx_t *f)
{
    f->m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f->m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0");
    fx_add(f->m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    f->db = weapons();
    battle_opts_t o = {.seed = 1, .manual_all = true};
    o.ask_sides = 1u << 0; /* board side 0: the players, first in the map */
    battle_status_t st = play_start(&f->p, f->m, f->db, NULL, &o);
    assert_int_equal(fx_feed(&f->p, st, FX_DICE(5, 15)), BATTLE_OK);
    assert_string_equal(f->p.b->board->side_name[0], "players");
}

static void test_table_answers_each_reaction(void **state)
{
    (void)state;
    for (int take = 0; take < 2; take++) {
        fx_t f;
        asked_scene(&f);
        cmd_t away = FX_PATH(1, 3, 1, 4, 1);
        /* The move stops before anything happens, naming who may react. */
        assert_int_equal(play_apply(&f.p, &away), BATTLE_NEED_REACTION);
        assert_true(f.p.b->asking);
        assert_int_equal(f.p.b->ask.who, 0);
        assert_int_equal(f.p.b->ask.trigger, 1);
        assert_string_equal(f.p.b->ask.kind, "opportunity");
        assert_int_equal(FX_FIND(f.p.b, 0, "\"move_step\""), -1);
        int actors[4];
        assert_int_equal(play_actors(&f.p, actors, 4), 0);
        assert_int_equal(play_enter_die(&f.p, 3), BATTLE_ILLEGAL); /* not a dice stop */
        assert_int_equal(play_apply(&f.p, &away), BATTLE_NEED_REACTION); /* still waiting */
        battle_status_t st = play_answer_reaction(&f.p, take == 1);
        if (take)
            st = fx_feed(&f.p, st, FX_DICE(12, 3, 5, 4));
        assert_int_equal(st, BATTLE_OK);
        assert_int_equal(play_answer_reaction(&f.p, true), BATTLE_ILLEGAL);
        /* The answer is in the kept command, so a rebuild plays it the same. */
        const battle_t *b = f.p.b;
        assert_int_equal(b->cmds.n, 1);
        assert_int_equal(b->cmds.c[0].n_answers, 1);
        assert_int_equal((int)b->cmds.c[0].answer[0], take);
        int re = FX_FIND(b, 0, "\"reaction\"", "\"opportunity\"");
        assert_true(take ? re >= 0 : re == -1);
        assert_int_equal(b->u[1].hp, take ? 20 - 4 : 20);
        int n_before = b->log.n;
        assert_int_equal(play_rebuild(&f.p), BATTLE_OK);
        assert_int_equal(f.p.b->log.n, n_before);
        assert_int_equal(f.p.b->u[1].hp, take ? 16 : 20);
        assert_true(hex_eq(f.p.b->board->pos[1], hex_from_cell(f.p.b->map->layout, (cell_t){4, 1})));
        fx_free(&f);
    }
}

static void test_unasked_side_reacts_without_stopping(void **state)
{
    (void)state;
    fx_t f;
    asked_scene(&f);
    /* Only the raiders are asked now; a is a player and simply strikes. */
    f.p.b->opts.ask_sides = 1u << 1;
    cmd_t away = FX_PATH(1, 3, 1, 4, 1);
    assert_int_equal(fx_do(&f.p, away, FX_DICE(12, 3, 5, 4)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"reaction\"", "\"opportunity\"") >= 0);
    assert_int_equal(f.p.b->cmds.c[0].n_answers, 0);
    /* Asking the players from now on does not change what was already
     * played: the rebuild takes the reaction as it was taken then. */
    int n_before = f.p.b->log.n;
    f.p.b->opts.ask_sides = 1u << 0;
    assert_int_equal(play_rebuild(&f.p), BATTLE_OK);
    assert_int_equal(f.p.b->log.n, n_before);
    assert_true(FX_FIND(f.p.b, 0, "\"reaction\"", "\"opportunity\"") >= 0);
    fx_free(&f);
}

static void test_creature_dual_strike_keeps_one_weapon(void **state)
{
    (void)state;
    fx_t f;
    /* A dual-striking creature with a knife in hand and a javelin carried. */
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "c", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife,javelin",
           "agility=0,strength=0,dual_strike=1");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t mixed = fx_engage(0, 1, 0);
    mixed.weapon2 = 1; /* switching between strikes: not for a creature */
    assert_int_equal(play_apply(&f.p, &mixed), BATTLE_ILLEGAL);
    cmd_t twice = fx_engage(0, 1, 0);
    twice.weapon2 = 0;
    assert_int_equal(fx_do(&f.p, twice, FX_DICE(10, 2, 3, 10, 2, 5)), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_ATTACK), 2);
    assert_int_equal(f.p.b->u[1].hp, 40 - 3 - 5);
    fx_free(&f);
    /* With dual-weapon fighting both are in hand and it may use one of each. */
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "c", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife,torch",
           "agility=0,strength=0,dual_strike=1,dual_weapon=1");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    assert_int_equal(fx_do(&f.p, mixed, FX_DICE(10, 2, 3, 10, 2, 5)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"attack\"", "\"weapon\":\"knife\"") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"attack\"", "\"weapon\":\"torch\"") >= 0);
    assert_int_equal(f.p.b->u[1].hp, 40 - 3 - 5);
    fx_free(&f);
    /* A grapple replaces both strikes: one attempt, and the action is gone. */
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "c", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife",
           "strength=0,dual_strike=1");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t grab = cmd_make(CMD_GRAPPLE, 0);
    grab.target = 1;
    grab.weapon = grab.weapon2 = 0;
    assert_int_equal(fx_do(&f.p, grab, FX_DICE(4, 9)), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_ACTION), 1);
    assert_int_equal(count_type(f.p.b, EV_ATTACK), 0);
    assert_false(last_of(f.p.b, EV_ACTION)->hit);
    assert_int_equal(play_apply(&f.p, &twice), BATTLE_ILLEGAL);
    assert_int_equal(play_apply(&f.p, &grab), BATTLE_ILLEGAL);
    fx_free(&f);
    /* Without dual strike, one engage action is one attack. */
    f.m = fx_map(8, 3, "xhalem", NULL);
    fx_add(f.m, "c", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "agility=0");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    assert_int_equal(play_apply(&f.p, &twice), BATTLE_ILLEGAL);
    fx_free(&f);
}

/* The shape of one d20 roll for a set of modifiers, read off its roll event. */
static void roll_shape_of(fx_t *f, xh_mods_t m, int *n, int *keep_low)
{
    int before = f->p.b->log.n;
    xhalem_d20(f->p.b, 0, m, 0, "probe", NULL);
    assert_int_equal(f->p.b->log.n, before + 1);
    const event_t *e = &f->p.b->log.ev[before];
    *n = e->n_dice;
    int lo = e->dice[0];
    for (int k = 1; k < e->n_dice; k++)
        lo = e->dice[k] < lo ? e->dice[k] : lo;
    *keep_low = e->kept_n == 1 && e->kept[0] == lo;
}

static void test_roll_modifiers_cancel_and_detriment(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    f.db = weapons();
    battle_opts_t o = {.seed = 11}; /* seeded: the shapes, not the faces, are checked */
    assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
    int n, low;
    roll_shape_of(&f, (xh_mods_t){1, 0, false}, &n, &low);
    assert_int_equal(n, 2); /* advantage: 2d20 keep the higher */
    roll_shape_of(&f, (xh_mods_t){0, 1, false}, &n, &low);
    assert_int_equal(n, 2);
    assert_true(low);
    roll_shape_of(&f, (xh_mods_t){1, 1, false}, &n, &low);
    assert_int_equal(n, 1); /* they cancel to a straight roll */
    roll_shape_of(&f, (xh_mods_t){2, 1, false}, &n, &low);
    assert_int_equal(n, 1); /* however many of each */
    roll_shape_of(&f, (xh_mods_t){0, 0, true}, &n, &low);
    assert_int_equal(n, 4); /* detriment: 4d20 keep the lowest */
    assert_true(low);
    roll_shape_of(&f, (xh_mods_t){1, 0, true}, &n, &low);
    assert_int_equal(n, 2); /* detriment with advantage becomes disadvantage */
    assert_true(low);
    fx_free(&f);
}

static void test_reach_weapon_strikes_farther(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    /* Two hexes apart: 10 ft, inside a pike's reach, outside a knife's. */
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "pike", "");
    fx_add(f.m, "k", "players", 1, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "t", "raiders", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 10, 5));
    assert_int_equal(fx_do(&f.p, fx_engage(0, 2, 0), FX_DICE(10, 5, 3)), BATTLE_OK);
    assert_true(last_of(f.p.b, EV_ATTACK)->hit);
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE), BATTLE_OK);
    cmd_t knife = fx_engage(1, 2, 0);
    assert_int_equal(play_apply(&f.p, &knife), BATTLE_ILLEGAL);
    fx_free(&f);
}

/* ---- secondary actions ----------------------------------------------------- */

/* A template in f->db for combatant i, granting `secondary` ("" for none). */
static void give_template(fx_t *f, int i, const char *id, const char *secondary)
{
    map_combatant_t *c = &f->m->combatants[i];
    tmpl_t *t = &f->db->templates[f->db->n_templates++];
    memset(t, 0, sizeof *t);
    hb_strlcpy(t->id, id, sizeof t->id);
    hb_strlcpy(t->name, id, sizeof t->name);
    t->kind = c->kind;
    t->size = c->size;
    t->speed_ft = c->speed_ft;
    t->hp = c->hp;
    hb_strlcpy(t->secondary, secondary, sizeof t->secondary);
    hb_strlcpy(c->template_name, id, sizeof c->template_name);
}

static bool offered(fx_t *f, int a, cmd_kind_t kind, int weapon)
{
    cmd_t list[128];
    int n = ((const ruleset_t *)f->p.b->rules)->legal(f->p.b, a, list, 128);
    for (int k = 0; k < n && k < 128; k++)
        if (list[k].kind == kind && (kind != CMD_ENGAGE || list[k].weapon == weapon))
            return true;
    return false;
}

/* a (dual-weapon creature: knife, then an off-hand `spur` or plain `dirk`) beside t. */
static void offhand_scene(fx_t *f, bool tagged)
{
    f->m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f->m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30,
           tagged ? "knife,spur" : "knife,dirk", "agility=0,dual_weapon=1");
    fx_add(f->m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 60, 30, "knife", "evasion=0");
    f->db = weapons();
    fx_weapon(f->db, "spur", WPN_MELEE, false, 5, 0, 1, 4, 0, "secondary=1");
    fx_weapon(f->db, "dirk", WPN_MELEE, false, 5, 0, 1, 4, 0, NULL);
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 5));
}

static void test_secondary_engage_after_primary_only(void **state)
{
    (void)state;
    for (int tagged = 0; tagged < 2; tagged++) {
        fx_t f;
        offhand_scene(&f, tagged);
        /* Primary: the knife (misses: 2 against 10). */
        assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10)), BATTLE_OK);
        /* Only a weapon that grants a secondary engagement may strike again. */
        assert_int_equal(offered(&f, 0, CMD_ENGAGE, 1), tagged == 1);
        assert_false(offered(&f, 0, CMD_ENGAGE, 0));
        cmd_t knife = fx_engage(0, 1, 0);
        assert_int_equal(play_apply(&f.p, &knife), BATTLE_ILLEGAL);
        cmd_t off = fx_engage(0, 1, 1);
        if (!tagged) {
            assert_int_equal(play_apply(&f.p, &off), BATTLE_ILLEGAL);
            fx_free(&f);
            continue;
        }
        /* The spur hits (12 against 3) for its d4 plus Strength 0. */
        assert_int_equal(fx_do(&f.p, off, FX_DICE(12, 3, 3)), BATTLE_OK);
        assert_true(FX_FIND(f.p.b, 0, "\"action\":\"secondary\"") >= 0);
        assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 3);
        assert_int_equal(f.p.b->u[1].hp, 57);
        /* One secondary per turn. */
        assert_int_equal(play_apply(&f.p, &off), BATTLE_ILLEGAL);
        assert_false(offered(&f, 0, CMD_ENGAGE, 1));
        fx_free(&f);
    }
}

static void test_secondary_may_follow_a_dash(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(12, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 10, "knife,spur",
           "agility=0,dual_weapon=1");
    fx_add(f.m, "t", "raiders", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 60, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_weapon(f.db, "spur", WPN_MELEE, false, 5, 0, 1, 4, 0, "secondary=1");
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    /* Dash is the primary; then 15 of the doubled 20 ft; the spur strikes
     * after them, which ends the dash (RULINGS: a secondary comes before or
     * after the whole dash, never between its steps)... */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_DASH, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 1, 1, 2, 1, 3, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 1), FX_DICE(2, 10)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"secondary\"") >= 0);
    assert_int_equal(xhalem_move_left(f.p.b), 0);
    cmd_t on = FX_PATH(0, 3, 2);
    assert_int_equal(play_apply(&f.p, &on), BATTLE_ILLEGAL);
    fx_free(&f);
    /* ...or before them, and then the whole dash follows. */
    f.m = fx_map(12, 3, "xhalem", NULL);
    fx_add(f.m, "a", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 10, "knife,spur",
           "agility=0,dual_weapon=1");
    fx_add(f.m, "t", "raiders", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 60, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_weapon(f.db, "spur", WPN_MELEE, false, 5, 0, 1, 4, 0, "secondary=1");
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_DASH, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 1), FX_DICE(2, 10)), BATTLE_OK);
    assert_int_equal(xhalem_move_left(f.p.b), 20);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 2, 0, 1, 0), FX_NO_DICE), BATTLE_OK);
    fx_free(&f);
}

/* m (machine with a cloaking program that may run as a secondary action). */
static void program_scene(fx_t *f, const char *secondary)
{
    f->m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f->m, "m", "players", 1, 1, KIND_MACHINE, SIZE_MEDIUM, 40, 30, "mech_fist", "cloak=1");
    fx_add(f->m, "t", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 60, 30, "knife", "evasion=0");
    f->db = weapons();
    give_template(f, 0, "prowler", secondary);
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 5));
}

static void test_secondary_program_cloak(void **state)
{
    (void)state;
    /* Granted: strike first (the primary), then cloak as the secondary. */
    fx_t f;
    program_scene(&f, "cloak");
    assert_int_equal(xhalem_secondary_kind(f.p.b, 0), CMD_CLOAK);
    assert_true(offered(&f, 0, CMD_CLOAK, -1)); /* as a primary, any time */
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10)), BATTLE_OK);
    assert_true(offered(&f, 0, CMD_CLOAK, -1));
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_CLOAK, 0), FX_NO_DICE), BATTLE_OK);
    assert_true(f.p.b->u[0].cond & XC_CLOAKED);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"secondary\"") >= 0);
    fx_free(&f);
    /* Never the reverse: a cloak first is the primary, and no engagement follows. */
    program_scene(&f, "cloak");
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_CLOAK, 0), FX_NO_DICE), BATTLE_OK);
    assert_false(offered(&f, 0, CMD_ENGAGE, 0));
    cmd_t hit = fx_engage(0, 1, 0);
    assert_int_equal(play_apply(&f.p, &hit), BATTLE_ILLEGAL);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"action\":\"secondary\""), -1);
    fx_free(&f);
    /* Without the program, the cloak after a strike is refused. */
    program_scene(&f, "");
    assert_int_equal(xhalem_secondary_kind(f.p.b, 0), -1);
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10)), BATTLE_OK);
    assert_false(offered(&f, 0, CMD_CLOAK, -1));
    cmd_t cl = cmd_make(CMD_CLOAK, 0);
    assert_int_equal(play_apply(&f.p, &cl), BATTLE_ILLEGAL);
    fx_free(&f);
}

/* After its action the AI takes a granted hide or cloak, when it may. */
static void test_ai_takes_granted_secondary(void **state)
{
    (void)state;
    fx_t f;
    program_scene(&f, "cloak");
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10)), BATTLE_OK);
    cmd_t c = ai_choice(&f, 0);
    assert_int_equal(c.kind, CMD_CLOAK);
    assert_int_equal(fx_do(&f.p, c, FX_NO_DICE), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"secondary\"") >= 0);
    assert_int_equal(ai_choice(&f, 0).kind, CMD_END); /* one secondary a turn */
    fx_free(&f);
    /* No program, no cloak. */
    program_scene(&f, "");
    assert_int_equal(fx_do(&f.p, fx_engage(0, 1, 0), FX_DICE(2, 10)), BATTLE_OK);
    assert_int_equal(ai_choice(&f, 0).kind, CMD_END);
    fx_free(&f);
    /* A scout shoots from behind brush, then hides there; in the open it cannot. */
    static const char *const BRUSH[] = {"........", "...,....", "........"};
    for (int brush = 0; brush < 2; brush++) {
        f.m = fx_map(8, 3, "xhalem", brush ? BRUSH : NULL);
        fx_add(f.m, "h", "players", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle",
               "stealth=3,agility=0");
        fx_add(f.m, "t", "raiders", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
        f.db = weapons();
        give_template(&f, 0, "scout", "hide");
        fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
        c = ai_choice(&f, 0);
        assert_int_equal(c.kind, CMD_ENGAGE);
        assert_int_equal(do_tens(&f.p, c), BATTLE_OK); /* behind brush t evades with advantage */
        c = ai_choice(&f, 0);
        assert_int_equal(c.kind, brush ? CMD_HIDE : CMD_END);
        if (brush) {
            assert_int_equal(fx_do(&f.p, c, FX_DICE(12)), BATTLE_OK);
            assert_true(f.p.b->u[0].cond & XC_HIDDEN);
            assert_int_equal(ai_choice(&f, 0).kind, CMD_END);
        }
        fx_free(&f);
    }
}

/* ---- machine thrust ---------------------------------------------------------- */

static void test_thrust_doubles_machine_budget(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(12, 3, "xhalem", NULL);
    fx_add(f.m, "m", "players", 0, 1, KIND_MACHINE, SIZE_MEDIUM, 40, 15, "mech_fist", "");
    fx_add(f.m, "t", "raiders", 11, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    fx_add(f.m, "u", "raiders", 6, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", CRE);
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5, 4));
    /* 5 ft before the thrust counts against the doubled 30 ft. */
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 1, 1), FX_NO_DICE), BATTLE_OK);
    cmd_t far = FX_PATH(0, 2, 1, 3, 1, 4, 1, 5, 1);
    assert_int_equal(play_apply(&f.p, &far), BATTLE_ILLEGAL); /* 20 ft > 10 left */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_DASH, 0), FX_NO_DICE), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"thrust\"") >= 0);
    assert_int_equal(xhalem_move_left(f.p.b), 25);
    assert_int_equal(fx_do(&f.p, far, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(xhalem_move_left(f.p.b), 5);
    /* u is now beside m, but the thrust was the action: no engagement splits it. */
    cmd_t hit = fx_engage(0, 2, 0);
    assert_int_equal(play_apply(&f.p, &hit), BATTLE_ILLEGAL);
    assert_false(offered(&f, 0, CMD_ENGAGE, 0));
    fx_free(&f);
}

/* ---- standby triggers -------------------------------------------------------- */

static cmd_t standby(int a, int trigger, int weapon)
{
    cmd_t sb = cmd_make(CMD_STANDBY, a);
    sb.arg = trigger;
    sb.weapon = weapon;
    return sb;
}

static void test_standby_on_dash(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f.m, "w", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle", "agility=0");
    fx_add(f.m, "r", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    assert_int_equal(fx_do(&f.p, standby(0, XT_DASHES, 0), FX_NO_DICE), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* Walking is not dashing: nothing. */
    assert_int_equal(fx_do(&f.p, FX_PATH(1, 6, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"reaction\""), -1);
    /* The dash is: w fires after it, before r's next step. */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_DASH, 1), FX_DICE(12, 3, 4)), BATTLE_OK);
    int dash = FX_FIND(f.p.b, 0, "\"action\":\"dash\"");
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"");
    assert_true(dash >= 0 && re > dash);
    assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 4);
    fx_free(&f);
}

static void test_standby_on_ranged_engagement(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "w", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "agility=0,evasion=0");
    fx_add(f.m, "r1", "raiders", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0,evasion=0");
    fx_add(f.m, "r2", "raiders", 2, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "rifle", "agility=0,evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 10, 5));
    assert_int_equal(fx_do(&f.p, standby(0, XT_ENGAGES_RANGED, 0), FX_NO_DICE), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    /* A knife does not set it off. */
    assert_int_equal(fx_do(&f.p, fx_engage(1, 0, 0), FX_DICE(2, 10)), BATTLE_OK);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"reaction\""), -1);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    /* A rifle shot does: w strikes r2 after it. */
    assert_int_equal(fx_do(&f.p, fx_engage(2, 0, 0), FX_DICE(2, 10, 12, 3, 4)), BATTLE_OK);
    int shot = FX_FIND(f.p.b, 0, "\"attack\"", "\"attacker\":\"r2\"");
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"");
    assert_true(shot >= 0 && re > shot);
    assert_true(FX_FIND(f.p.b, re, "\"attack\"", "\"attacker\":\"w\"") > re);
    assert_int_equal(f.p.b->u[2].hp, 16);
    fx_free(&f);
}

static void test_standby_on_engaging_an_ally(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", OPEN8);
    fx_add(f.m, "w", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "agility=0,evasion=0");
    fx_add(f.m, "p", "players", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 30, "knife", "evasion=0");
    fx_add(f.m, "r1", "raiders", 3, 0, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0,evasion=0");
    fx_add(f.m, "r2", "raiders", 3, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0,evasion=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 12, 10, 5));
    assert_int_equal(fx_do(&f.p, standby(0, XT_ENGAGES_ALLY, 0), FX_NO_DICE), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE);
    /* r1 engaging w itself is not the trigger. */
    assert_int_equal(fx_do(&f.p, fx_engage(2, 0, 0), FX_DICE(2, 10)), BATTLE_OK);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"reaction\""), -1);
    fx_do(&f.p, cmd_make(CMD_END, 2), FX_NO_DICE);
    /* r2 engaging the ally p is. */
    assert_int_equal(fx_do(&f.p, fx_engage(3, 1, 0), FX_DICE(2, 10, 12, 3, 4)), BATTLE_OK);
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"", "\"target\":\"r2\"");
    assert_true(re >= 0);
    assert_true(FX_FIND(f.p.b, re, "\"attack\"", "\"attacker\":\"w\"", "\"target\":\"r2\"") > re);
    assert_int_equal(f.p.b->u[3].hp, 16);
    fx_free(&f);
}

/* w holds a move to (0,1) on trigger k; r steps once, from (7,1) to (6,1). */
static int moves_in_sight_case(int trigger, const char *const *rows)
{
    fx_t f;
    f.m = fx_map(8, 4, "xhalem", rows);
    fx_add(f.m, "w", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "");
    fx_add(f.m, "r", "raiders", 7, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, NULL, "");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(15, 5));
    cmd_t sb = standby(0, trigger, 0);
    sb.act = CMD_MOVE;
    sb.at = (cell_t){0, 1};
    assert_int_equal(fx_do(&f.p, sb, FX_NO_DICE), BATTLE_OK);
    fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE);
    assert_int_equal(fx_do(&f.p, FX_PATH(1, 6, 1), FX_NO_DICE), BATTLE_OK);
    int re = FX_FIND(f.p.b, 0, "\"reaction\"", "\"standby\"");
    int moved = FX_FIND(f.p.b, 0, "\"move_step\"", "\"id\":\"w\"", "\"to\":[0,1]");
    assert_true((re >= 0) == (moved > re));
    fx_free(&f);
    return re >= 0;
}

static void test_standby_on_any_move_in_sight(void **state)
{
    (void)state;
    static const char *const WALLED[] = {"........", "...#....", "........", "........"};
    /* Any step in sight sets it off, far outside every reach... */
    assert_true(moves_in_sight_case(XT_MOVES_IN_SIGHT, OPEN8));
    /* ...where "enters reach" does not... */
    assert_false(moves_in_sight_case(XT_ENTERS_REACH, OPEN8));
    /* ...and a step behind a wall is not seen. */
    assert_false(moves_in_sight_case(XT_MOVES_IN_SIGHT, WALLED));
}

/* ---- mounts under forced movement ----------------------------------------- */

/* r rides h (large); foe f pushes h one hex west. The mount's and the rider's
 * checks (d20 + Strength against 10) roll m_die and r_die. */
static void pushed_mount(fx_t *f, int m_die, int r_die)
{
    f->m = fx_map(10, 3, "xhalem", NULL);
    fx_add(f->m, "r", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0,strength=0");
    fx_add(f->m, "f", "raiders", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=0,evasion=0");
    fx_add(f->m, "h", "players", 3, 1, KIND_CREATURE, SIZE_LARGE, 30, 30, "knife", "evasion=0,strength=0");
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 10, 5));
    cmd_t c = cmd_make(CMD_MOUNT, 0);
    c.target = 2;
    assert_int_equal(fx_do(&f->p, c, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f->p, cmd_make(CMD_END, 0), FX_NO_DICE), BATTLE_OK);
    cmd_t push = cmd_make(CMD_SHOVE, 1);
    push.target = 2;
    push.arg = 1;
    /* Engagement 12 v 3 hits; shove 15 v 5 wins; then the two checks. */
    assert_int_equal(fx_do(&f->p, push, FX_DICE(12, 3, 15, 5, m_die, r_die)), BATTLE_OK);
    /* The mount was pushed a hex straight away from f, its rider along. */
    hex_t was = hex_from_cell(f->p.b->map->layout, (cell_t){3, 1});
    assert_int_equal(hex_distance(f->p.b->board->pos[2], was), 1);
    assert_int_equal(hex_distance(f->p.b->board->pos[2], f->p.b->board->pos[1]), 2);
}

static void test_pushed_mount_checks(void **state)
{
    (void)state;
    struct {
        int m_die, r_die;
        bool m_prone, still_on, r_prone;
    } cases[] = {
        {14, 14, false, true, false},  /* both hold */
        {4, 14, true, false, false},   /* mount down, rider lands on its feet */
        {14, 4, false, false, true},   /* rider thrown off, prone */
        {4, 4, true, false, true},     /* both down */
        {10, 10, false, true, false},  /* meeting 10 is enough */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fx_t f;
        pushed_mount(&f, cases[k].m_die, cases[k].r_die);
        const battle_t *b = f.p.b;
        assert_int_equal((b->u[2].cond & XC_PRONE) != 0, cases[k].m_prone);
        assert_int_equal(xhalem_mount_of(b, 0) == 2, cases[k].still_on);
        assert_int_equal((b->u[0].cond & XC_PRONE) != 0, cases[k].r_prone);
        if (cases[k].still_on) {
            assert_true(hex_eq(b->board->pos[0], b->board->pos[2]));
        } else {
            /* Off, within 5 ft of the mount, holding a hex of its own. */
            assert_int_equal(hex_distance(b->board->pos[0], b->board->pos[2]), 1);
            assert_int_equal(board_occupant(b->board, b->board->pos[0]), 0);
            assert_true(FX_FIND(b, 0, "\"condition\"", "\"id\":\"r\"", "\"mounted\"", "\"on\":false") >= 0);
        }
        fx_free(&f);
    }
}

static void test_rider_strikes_from_the_mounts_hex(void **state)
{
    (void)state;
    fx_t f;
    pushed_mount(&f, 14, 14);
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE), BATTLE_OK);
    /* Round 2, r's turn: the mount stands two hexes from f, so r's knife (5 ft,
     * measured from the mount's hex) cannot reach... */
    cmd_t hit = fx_engage(0, 1, 0);
    assert_int_equal(play_apply(&f.p, &hit), BATTLE_ILLEGAL);
    /* ...until the mount carries it back beside f; then r strikes from there. */
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(board_occupant(f.p.b->board, f.p.b->board->pos[0]), 2);
    assert_true(hex_eq(f.p.b->board->pos[0], f.p.b->board->pos[2]));
    assert_int_equal(fx_do(&f.p, hit, FX_DICE(12, 3, 5)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"attack\"", "\"attacker\":\"r\"", "\"target\":\"f\"") >= 0);
    assert_int_equal(f.p.b->u[1].hp, 15);
    fx_free(&f);
}

/* ---- teleport ----------------------------------------------------------------- */

/* m (teleport 15 ft) at (2,1) inside g's knife reach; g at (1,1). */
static void blink_scene(fx_t *f, const char *const *rows)
{
    f->m = fx_map(8, 3, "xhalem", rows);
    fx_add(f->m, "m", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife",
           "agility=0,evasion=0,teleport=15");
    fx_add(f->m, "g", "raiders", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 30, "knife", "agility=1");
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_DICE(15, 5));
}

static cmd_t blink(int a, int col, int row)
{
    cmd_t c = cmd_make(CMD_TELEPORT, a);
    c.at = (cell_t){col, row};
    return c;
}

static void test_teleport_provokes_nothing(void **state)
{
    (void)state;
    fx_t f;
    /* Walking out of g's reach provokes... */
    blink_scene(&f, NULL);
    assert_int_equal(fx_do(&f.p, FX_PATH(0, 3, 1, 4, 1), FX_DICE(14, 2, 3, 5)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"reaction\"", "\"opportunity\"") >= 0);
    fx_free(&f);
    /* ...blinking out of it does not: no die is asked for, no reaction made. */
    blink_scene(&f, NULL);
    assert_true(offered(&f, 0, CMD_TELEPORT, -1));
    cmd_t far = blink(0, 6, 1); /* 20 ft: past its 15 */
    assert_int_equal(play_apply(&f.p, &far), BATTLE_ILLEGAL);
    cmd_t taken = blink(0, 1, 1); /* g's hex */
    assert_int_equal(play_apply(&f.p, &taken), BATTLE_ILLEGAL);
    assert_int_equal(fx_do(&f.p, blink(0, 4, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_REACTION), 0);
    assert_true(hex_eq(f.p.b->board->pos[0], hex_from_cell(f.p.b->map->layout, (cell_t){4, 1})));
    assert_true(FX_FIND(f.p.b, 0, "\"move_step\"", "\"to\":[4,1]", "\"mode\":\"teleport\"") >= 0);
    /* It was the action; the move is still whole. */
    assert_int_equal(xhalem_move_left(f.p.b), 30);
    cmd_t again = blink(0, 5, 1);
    assert_int_equal(play_apply(&f.p, &again), BATTLE_ILLEGAL);
    fx_free(&f);
    /* Only to a hex it can see. */
    static const char *const WALL[] = {"........", "...#....", "........"};
    blink_scene(&f, WALL);
    cmd_t hidden = blink(0, 4, 1);
    assert_int_equal(play_apply(&f.p, &hidden), BATTLE_ILLEGAL);
    fx_free(&f);
}

/* ---- prediction and the roll share one shape ------------------------------- */

/* The first roll event at or after `from` rolled for `why`, or NULL. */
static const event_t *roll_for(const battle_t *b, int from, const char *why)
{
    for (int k = from; k < b->log.n; k++)
        if (b->log.ev[k].type == EV_ROLL && strcmp(b->log.ev[k].name, why) == 0)
            return &b->log.ev[k];
    return NULL;
}

/* Does roll e have the shape n d20 keeping `keep` (1 high, -1 low, 0 one die)? */
static bool shaped(const event_t *e, int n, int keep)
{
    if (e->n_dice != n || e->kept_n != 1)
        return false;
    int hi = e->dice[0], lo = e->dice[0];
    for (int k = 1; k < e->n_dice; k++) {
        hi = e->dice[k] > hi ? e->dice[k] : hi;
        lo = e->dice[k] < lo ? e->dice[k] : lo;
    }
    return keep > 0 ? e->kept[0] == hi : keep < 0 ? e->kept[0] == lo : n == 1;
}

static void test_prediction_matches_the_roll(void **state)
{
    (void)state;
    static const char *const ROWS[] = {"..,.....^.", ".~~..#....", "...,,..^..",
                                       "..#...~~..", ".^....,...", "....#....."};
    unsigned seed = 12345u;
    int checked = 0, hits = 0, flat = 0, adv = 0, dis = 0;
    for (int trial = 0; trial < 600; trial++) {
        fx_t f;
        f.m = fx_map(10, 6, "xhalem", ROWS);
        /* Four combatants on distinct passable cells, picked by a fixed LCG. */
        cell_t used[4];
        for (int k = 0; k < 4; k++) {
            for (;;) {
                seed = seed * 1103515245u + 12345u;
                cell_t c = {(int)((seed >> 8) % 10), (int)((seed >> 20) % 6)};
                char ch = ROWS[c.row][c.col];
                bool clash = ch == '#';
                for (int j = 0; j < k; j++)
                    clash = clash || (used[j].col == c.col && used[j].row == c.row);
                if (!clash) {
                    used[k] = c;
                    break;
                }
            }
        }
        fx_add(f.m, "a", "players", used[0].col, used[0].row, KIND_CREATURE, SIZE_MEDIUM, 40, 30,
               "knife,rifle,laser", "agility=2,strength=1,evasion=3,dual_weapon=1");
        fx_add(f.m, "m", "players", used[1].col, used[1].row, KIND_MACHINE, SIZE_MEDIUM, 40, 30,
               "mech_fist,mech_beam", "systems=3,engine=2,hull=2,reactor=1");
        fx_add(f.m, "t", "raiders", used[2].col, used[2].row, KIND_CREATURE, SIZE_MEDIUM, 40, 30,
               "pike", "agility=1,evasion=2,aquatic=1");
        fx_add(f.m, "u", "raiders", used[3].col, used[3].row, KIND_MACHINE, SIZE_MEDIUM, 40, 30,
               "mech_gun", "systems=2,engine=1");
        f.db = weapons();
        battle_opts_t o = {.seed = (uint64_t)trial + 1};
        assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
        battle_t *b = f.p.b;
        xh_state_t *s = (xh_state_t *)b->rs;
        int a = s->actor;
        /* A random foe, equipped weapon and a sprinkle of conditions. */
        seed = seed * 1103515245u + 12345u;
        int foes[2], nf = 0;
        for (int k = 0; k < 4; k++)
            if (!board_allies(b->board, a, k))
                foes[nf++] = k;
        int t = foes[(seed >> 10) % 2];
        int w = (int)((seed >> 14) % (unsigned)(b->u[a].n_weapons + 1)) - 1;
        if (!xhalem_equipped(b, a, w))
            w = -1;
        unsigned r = seed >> 16;
        if (r & 1) b->u[t].cond |= XC_HIDDEN;
        if (r & 2) b->u[t].cond |= XC_CLOAKED;
        if (r & 4) s->revealed[t] = 1;
        if (r & 8) b->u[a].cond |= XC_HIDDEN;
        if (r & 16) s->assist_on[t] = 1 + (a < 2 ? 1 - a : 5 - a); /* a's ally distracts t */
        predict_t p;
        bool valid = predict_engage(b, a, t, w, &p);
        int from = b->log.n;
        cmd_t c = fx_engage(a, t, w);
        battle_status_t st = play_apply(&f.p, &c);
        assert_int_equal(st == BATTLE_OK, valid);
        if (valid) {
            checked++;
            const event_t *atk = roll_for(b, from, "engage");
            assert_non_null(atk);
            assert_true(shaped(atk, p.atk_n, p.atk_keep));
            assert_int_equal(atk->mod, p.atk_bonus);
            flat += p.atk_n == 1;
            adv += p.atk_keep > 0;
            dis += p.atk_keep < 0;
            const event_t *def = roll_for(b, from, "evade");
            if (def) {
                assert_true(shaped(def, p.def_n, p.def_keep));
                assert_int_equal(def->mod, p.def_bonus);
            } else {
                assert_true(p.def_n == 0 || p.p_hit == 0.0);
            }
            const event_t *at = last_of(b, EV_ATTACK);
            assert_non_null(at);
            /* The naturals rule as predicted: a kept 20 hits, a kept 1 misses. */
            if (p.naturals && atk->kept[0] == 20 && p.p_hit > 0.0)
                assert_true(at->hit);
            if (p.naturals && atk->kept[0] == 1)
                assert_false(at->hit);
            const event_t *dmg = roll_for(b, from, "damage");
            assert_int_equal(dmg != NULL, at->hit);
            if (dmg) {
                hits++;
                assert_int_equal(dmg->n_dice, p.dmg_n);
                assert_int_equal(dmg->sides, p.dmg_sides);
                assert_int_equal(dmg->mod, p.dmg_bonus);
            }
        }
        fx_free(&f);
    }
    /* The sample must reach the interesting shapes, not only plain rolls. */
    assert_true(checked > 200);
    assert_true(hits > 20);
    assert_true(flat > 10 && adv > 10 && dis > 10);
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
        cmocka_unit_test(test_mount_needs_willing_larger_mount),
        cmocka_unit_test(test_mounted_speed_and_shared_turn),
        cmocka_unit_test(test_ai_look_keeps_the_mount_in_its_hex),
        cmocka_unit_test(test_fallen_mount_drops_rider),
        cmocka_unit_test(test_use_door),
        cmocka_unit_test(test_flight_switches_speed),
        cmocka_unit_test(test_underwater_disadvantage_and_fire),
        cmocka_unit_test(test_dual_strike),
        cmocka_unit_test(test_creature_switch_costs_action),
        cmocka_unit_test(test_standby_move_uses_only_leftover_movement),
        cmocka_unit_test(test_standby_move_never_ends_on_the_movers_way),
        cmocka_unit_test(test_table_answers_each_reaction),
        cmocka_unit_test(test_unasked_side_reacts_without_stopping),
        cmocka_unit_test(test_creature_dual_strike_keeps_one_weapon),
        cmocka_unit_test(test_roll_modifiers_cancel_and_detriment),
        cmocka_unit_test(test_reach_weapon_strikes_farther),
        cmocka_unit_test(test_secondary_engage_after_primary_only),
        cmocka_unit_test(test_secondary_may_follow_a_dash),
        cmocka_unit_test(test_secondary_program_cloak),
        cmocka_unit_test(test_ai_takes_granted_secondary),
        cmocka_unit_test(test_thrust_doubles_machine_budget),
        cmocka_unit_test(test_standby_on_dash),
        cmocka_unit_test(test_standby_on_ranged_engagement),
        cmocka_unit_test(test_standby_on_engaging_an_ally),
        cmocka_unit_test(test_standby_on_any_move_in_sight),
        cmocka_unit_test(test_pushed_mount_checks),
        cmocka_unit_test(test_rider_strikes_from_the_mounts_hex),
        cmocka_unit_test(test_teleport_provokes_nothing),
        cmocka_unit_test(test_prediction_matches_the_roll),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
