/* test_predict_scars.c - the odds shown before a Scars attack: it lands
 * whenever it reaches, and the expected damage is the kept die minus armor.
 * Expected values are worked out here by walking every face of every die, not
 * by the code under test; and the predicted die is checked against the one
 * apply actually rolls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rules_fixture.h"
#include "rules/predict.h"
#include "rules/scars.h"

static tmpl_db_t *weapons(void)
{
    tmpl_db_t *db = fx_db("scars");
    fx_weapon(db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_weapon(db, "club", WPN_MELEE, false, 5, 0, 1, 8, 0, NULL);
    fx_weapon(db, "rifle", WPN_RANGED, false, 0, 100, 1, 10, 0, NULL);
    fx_weapon(db, "twin", WPN_MELEE, false, 5, 0, 2, 6, 0, NULL);
    fx_weapon(db, "grenade", WPN_THROWN, false, 0, 40, 1, 6, 0, "blast=1");
    return db;
}

/* Mean of max(0, highest face - armor) over every outcome of n1 dS1 and
 * n2 dS2 (n2 0: none), by walking them all. */
static double brute_mean(int n1, int s1, int n2, int s2, int armor)
{
    int faces[4], sides[4], nd = 0;
    for (int i = 0; i < n1; i++)
        sides[nd++] = s1;
    for (int i = 0; i < n2; i++)
        sides[nd++] = s2;
    for (int i = 0; i < nd; i++)
        faces[i] = 1;
    double sum = 0.0;
    long count = 0;
    for (;;) {
        int hi = 0;
        for (int i = 0; i < nd; i++)
            hi = faces[i] > hi ? faces[i] : hi;
        sum += hi - armor > 0 ? hi - armor : 0;
        count++;
        int i = 0;
        while (i < nd && ++faces[i] > sides[i])
            faces[i++] = 1;
        if (i == nd)
            break;
    }
    return sum / (double)count;
}

/* One attacker and one foe side by side (foe2 far off keeps the battle on). */
static void duel(fx_t *f, const char *const *rows3, int foe_col, const char *a_weapons,
                 const char *a_stats, const char *foe_stats)
{
    f->m = fx_map(12, 3, "scars", rows3);
    fx_add(f->m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, a_weapons, a_stats);
    fx_add(f->m, "foe", "raiders", foe_col, 1, KIND_CREATURE, SIZE_MEDIUM, 40, 50, "knife", foe_stats);
    fx_add(f->m, "foe2", "raiders", 11, 2, KIND_CREATURE, SIZE_MEDIUM, 40, 50, "knife", "str=10,dex=10");
    f->db = weapons();
}

static void test_auto_hit_mean_after_armor(void **state)
{
    (void)state;
    fx_t f;
    duel(&f, NULL, 2, "knife", "dex=20,str=10", "armor=1,str=10");
    fx_start_until(&f, 0, 3);
    predict_t pr;
    /* Through the one entry point the play screen calls. */
    assert_true(predict_engage(f.p.b, 0, 1, 0, &pr));
    assert_true(pr.valid);
    assert_float_equal(pr.p_hit, 1.0, 1e-12);
    assert_float_equal(pr.dmg_hit, brute_mean(1, 6, 0, 0, 1), 1e-9); /* 2.5 */
    assert_float_equal(pr.dmg_expected, pr.dmg_hit, 1e-12);
    assert_int_equal(pr.dmg_n, 1);
    assert_int_equal(pr.dmg_sides, 6);
    assert_int_equal(pr.dmg_bonus, 0);
    /* No d20 in Scars. */
    assert_int_equal(pr.atk_n, 0);
    assert_int_equal(pr.def_n, 0);
    /* Heavier armor: every face at or under it deals nothing. */
    fx_free(&f);
    duel(&f, NULL, 2, "knife", "dex=20,str=10", "armor=4,str=10");
    fx_start_until(&f, 0, 3);
    assert_true(predict_engage(f.p.b, 0, 1, 0, &pr));
    assert_float_equal(pr.dmg_hit, brute_mean(1, 6, 0, 0, 4), 1e-9); /* 1.0 */
    fx_free(&f);
}

static void test_several_dice_keep_highest(void **state)
{
    (void)state;
    fx_t f;
    duel(&f, NULL, 2, "twin,club", "dex=20,str=10", "armor=0,str=10");
    fx_start_until(&f, 0, 3);
    predict_t pr;
    assert_true(predict_engage(f.p.b, 0, 1, 0, &pr));
    assert_int_equal(pr.dmg_n, 2);
    assert_int_equal(pr.dmg_sides, 6);
    assert_float_equal(pr.dmg_hit, brute_mean(2, 6, 0, 0, 0), 1e-9); /* 161/36, not 7 */
    /* Dual weapons: 2d6 and a d8, one die kept of all three, armor once. */
    assert_true(scars_predict_dual(f.p.b, 0, 1, 0, 1, &pr));
    assert_float_equal(pr.dmg_hit, brute_mean(2, 6, 1, 8, 0), 1e-9);
    assert_float_equal(pr.p_hit, 1.0, 1e-12);
    /* The same weapon twice is no dual attack, as apply says. */
    assert_false(scars_predict_dual(f.p.b, 0, 1, 1, 1, &pr));
    fx_free(&f);
}

static void test_impaired_and_enhanced(void **state)
{
    (void)state;
    fx_t f;
    /* Brush between: the rifle's d10 becomes an impaired d4. */
    static const char *const COVER[] = {"............", "...,........", "............"};
    duel(&f, COVER, 6, "rifle", "dex=20,str=10", "armor=0,str=10");
    fx_start_until(&f, 0, 3);
    predict_t pr;
    assert_true(predict_engage(f.p.b, 0, 1, 0, &pr));
    assert_int_equal(pr.dmg_sides, 4);
    assert_float_equal(pr.dmg_hit, brute_mean(1, 4, 0, 0, 0), 1e-9);
    fx_free(&f);
    /* A paralyzed foe: the knife's d6 becomes an enhanced d12. */
    duel(&f, NULL, 2, "knife", "dex=20,str=10", "armor=2,str=10,dex=10");
    fx_start_until(&f, 0, 3);
    assert_true(predict_engage(f.p.b, 0, 1, 0, &pr));
    assert_int_equal(pr.dmg_sides, 6);
    scars_lose_ability(f.p.b, 1, SS_DEX, 10);
    assert_true(predict_engage(f.p.b, 0, 1, 0, &pr));
    assert_int_equal(pr.dmg_sides, 12);
    assert_float_equal(pr.dmg_hit, brute_mean(1, 12, 0, 0, 2), 1e-9);
    fx_free(&f);
}

static void test_cannot_land_without_sight(void **state)
{
    (void)state;
    fx_t f;
    static const char *const WALL[] = {"...#........", "...#........", "...#........"};
    duel(&f, WALL, 6, "rifle", "dex=20,str=10", "armor=0,str=10");
    fx_start_until(&f, 0, 3);
    predict_t pr;
    assert_true(predict_engage(f.p.b, 0, 1, 0, &pr));
    assert_true(pr.valid);
    assert_float_equal(pr.p_hit, 0.0, 1e-12);
    assert_float_equal(pr.dmg_expected, 0.0, 1e-12);
    /* And it does not land when made from there. */
    cmd_t c = cmd_make(CMD_DECLARE, 0);
    c.act = CMD_ENGAGE;
    c.target = 1;
    c.weapon = 0;
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"attack\"", "\"hit\":false") >= 0);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"damage\""), -1);
    /* A weapon the attacker does not carry has no odds. */
    assert_false(predict_engage(f.p.b, 0, 1, 5, &pr));
    fx_free(&f);
}

/* For many set-ups the predicted die is the die apply rolls, and the landing
 * chance says whether the attack event hits. */
static void test_prediction_matches_apply(void **state)
{
    (void)state;
    static const char *const COVER[] = {"............", "....,.^.....", "............"};
    struct {
        const char *weapons, *a_stats, *foe_stats;
        int foe_col, weapon;
        bool cover, paralyze;
    } cases[] = {
        {"knife", "dex=20,str=10", "armor=1,str=10", 2, 0, false, false},
        {"rifle", "dex=20,str=10", "armor=0,str=10", 7, 0, true, false},
        {"rifle", "dex=20,str=10", "armor=0,str=10", 3, 0, true, false},
        {"rifle", "dex=20,str=10", "armor=0,str=10", 7, 0, false, false},
        {"twin", "dex=20,str=10", "armor=1,str=10", 2, 0, false, false},
        {"knife", "dex=20,str=10,detachment=1", "armor=1,str=10", 2, 0, false, false},
        {"club", "dex=20,str=10", "armor=1,str=10,detachment=1", 2, 0, false, false},
        {"grenade", "dex=20,str=10", "armor=1,str=10,detachment=1", 5, 0, false, false},
        {"club", "dex=20,str=10", "armor=1,str=10,dex=10", 2, 0, false, true},
        {"rifle", "dex=20,str=10", "armor=0,str=10,dex=10", 7, 0, true, true},
        {"knife", "dex=20,str=10", "armor=0,str=10", 6, 0, false, false}, /* out of reach */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fx_t f;
        duel(&f, cases[k].cover ? COVER : NULL, cases[k].foe_col, cases[k].weapons,
             cases[k].a_stats, cases[k].foe_stats);
        fx_start_until(&f, 0, 5);
        if (cases[k].paralyze)
            scars_lose_ability(f.p.b, 1, SS_DEX, 10);
        predict_t pr;
        assert_true(predict_engage(f.p.b, 0, 1, cases[k].weapon, &pr));
        int from = f.p.b->log.n;
        cmd_t c = cmd_make(CMD_DECLARE, 0);
        c.act = CMD_ENGAGE;
        c.target = 1;
        c.weapon = cases[k].weapon;
        assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
        const event_t *atk = NULL, *roll = NULL;
        for (int e = from; e < f.p.b->log.n; e++) {
            const event_t *ev = &f.p.b->log.ev[e];
            if (ev->type == EV_ATTACK && ev->who == 0 && !atk)
                atk = ev;
            if (ev->type == EV_ROLL && ev->who == 0 && strcmp(ev->name, "damage on foe") == 0 && !roll)
                roll = ev;
        }
        assert_non_null(atk);
        if (pr.p_hit > 0.5) {
            assert_true(atk->hit);
            assert_non_null(roll);
            if (roll->n_dice != pr.dmg_n || roll->sides != pr.dmg_sides)
                fail_msg("case %zu: predicted %dd%d, apply rolled %dd%d", k, pr.dmg_n,
                         pr.dmg_sides, roll->n_dice, roll->sides);
            assert_int_equal(roll->mod, pr.dmg_bonus);
        } else {
            assert_false(atk->hit);
            assert_null(roll);
        }
        fx_free(&f);
    }
}

/* Over many seeds the damage apply deals averages out to the prediction. */
static void test_mean_matches_apply_on_average(void **state)
{
    (void)state;
    double pred = 0.0, sum = 0.0;
    int n = 0;
    for (uint64_t seed = 1; seed <= 3000; seed++) {
        fx_t f;
        duel(&f, NULL, 2, "twin", "dex=20,str=10", "armor=2,str=10");
        fx_start_until(&f, 0, seed);
        predict_t pr;
        assert_true(predict_engage(f.p.b, 0, 1, 0, &pr));
        pred = pr.dmg_hit;
        int hp = f.p.b->u[1].hp;
        cmd_t c = cmd_make(CMD_DECLARE, 0);
        c.act = CMD_ENGAGE;
        c.target = 1;
        c.weapon = 0;
        assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
        sum += hp - f.p.b->u[1].hp;
        n++;
        fx_free(&f);
    }
    /* 2d6 keep the highest, minus 2: sd about 1.4, so 0.1 is several errors. */
    assert_float_equal(sum / n, pred, 0.1);
    assert_float_equal(pred, brute_mean(2, 6, 0, 0, 2), 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auto_hit_mean_after_armor),
        cmocka_unit_test(test_several_dice_keep_highest),
        cmocka_unit_test(test_impaired_and_enhanced),
        cmocka_unit_test(test_cannot_land_without_sight),
        cmocka_unit_test(test_prediction_matches_apply),
        cmocka_unit_test(test_mean_matches_apply_on_average),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
