/* test_scars.c - the Scars rules on hand-entered dice: order, declaring then
 * resolving, pooled damage, impaired / enhanced dice, blast, detachments, the
 * scars table, critical damage and retreat. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rules_fixture.h"
#include "rules/scars.h"

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    play_t p;
} fx_t;

static tmpl_db_t *weapons(void)
{
    tmpl_db_t *db = fx_db("scars");
    fx_weapon(db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_weapon(db, "club", WPN_MELEE, false, 5, 0, 1, 8, 0, NULL);
    fx_weapon(db, "rifle", WPN_RANGED, false, 0, 100, 1, 10, 0, NULL);
    fx_weapon(db, "pistol", WPN_RANGED, false, 0, 40, 1, 6, 0, NULL);
    fx_weapon(db, "grenade", WPN_THROWN, false, 0, 40, 1, 6, 0, "blast=1");
    fx_weapon(db, "twin", WPN_MELEE, false, 5, 0, 2, 6, 0, NULL);
    return db;
}

static void fx_free(fx_t *f)
{
    play_end(&f->p);
    map_destroy(f->m);
    free(f->db);
}

static const event_t *last_of(const battle_t *b, ev_type_t t)
{
    for (int k = b->log.n - 1; k >= 0; k--)
        if (b->log.ev[k].type == t)
            return &b->log.ev[k];
    return NULL;
}

static int count_type(const battle_t *b, ev_type_t t)
{
    int n = 0;
    for (int k = 0; k < b->log.n; k++)
        n += b->log.ev[k].type == t;
    return n;
}

static cmd_t attack(int a, int t, int w)
{
    cmd_t c = cmd_make(CMD_DECLARE, a);
    c.act = CMD_ENGAGE;
    c.target = t;
    c.weapon = w;
    return c;
}

static void test_dex_save_order(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "fast", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife", "dex=12,str=10");
    fx_add(f.m, "slow", "players", 1, 2, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife", "dex=12,str=10");
    fx_add(f.m, "foe", "raiders", 8, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife", "dex=10,str=10");
    f.db = weapons();
    /* DEX saves: 12 passes (equal is a pass), 13 fails. */
    fx_start(&f.p, f.m, f.db, FX_DICE(12, 13));
    int who[4];
    assert_int_equal(play_actors(&f.p, who, 4), 1);
    assert_int_equal(who[0], 0);
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(play_actors(&f.p, who, 4), 1);
    assert_int_equal(who[0], 2); /* then the opposing side */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 2), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(play_actors(&f.p, who, 4), 1);
    assert_int_equal(who[0], 1); /* those who failed come last */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 1), FX_NO_DICE), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"round_end\"", "\"round\":1") >= 0);
    assert_int_equal(play_actors(&f.p, who, 4), 1);
    assert_int_equal(who[0], 0);
    fx_free(&f);
}

static void test_declare_then_resolve_pooled(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife", "dex=20");
    fx_add(f.m, "b", "players", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "club", "dex=20");
    fx_add(f.m, "foe", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 9, 50, "knife", "armor=1,str=10");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(1, 1));
    int who[4];
    assert_int_equal(play_actors(&f.p, who, 4), 2); /* the whole side declares */
    assert_int_equal(fx_do(&f.p, attack(0, 2, 0), FX_NO_DICE), BATTLE_OK);
    /* Declared, nothing rolled yet. */
    assert_int_equal(count_type(f.p.b, EV_DAMAGE), 0);
    assert_int_equal(count_type(f.p.b, EV_ROLL), 2);
    /* b declares; both dice (3 on the d6, 6 on the d8) roll, 6 is kept, armor once. */
    assert_int_equal(fx_do(&f.p, attack(1, 2, 0), FX_DICE(3, 6)), BATTLE_OK);
    assert_int_equal(count_type(f.p.b, EV_DAMAGE), 1);
    const event_t *d = last_of(f.p.b, EV_DAMAGE);
    assert_int_equal(d->amount, 5);
    assert_int_equal(d->hp, 4);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"b\"", "\"dice\":\"1d8\"") >= 0);
    fx_free(&f);
}

static void test_multiple_dice_keep_highest(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "twin,club", "dex=20");
    fx_add(f.m, "foe", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 50, "knife", "armor=0,str=10");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(1));
    /* Dual weapons: 2d6 (keep the higher of 2 and 5) and a d8 (4): 5. */
    cmd_t c = attack(0, 1, 0);
    c.weapon2 = 1;
    assert_int_equal(fx_do(&f.p, c, FX_DICE(2, 5, 4)), BATTLE_OK);
    assert_int_equal(last_of(f.p.b, EV_DAMAGE)->amount, 5);
    fx_free(&f);
}

/* Scars has no hiding: nobody is ever left out of a side's view, even behind a wall. */
static void test_nobody_hidden_from_a_side(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"...#......", "...#......", "...#......"};
    f.m = fx_map(10, 3, "scars", ROWS);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "club", "dex=20");
    fx_add(f.m, "foe", "raiders", 6, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 50, "knife", "armor=0");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(1));
    const ruleset_t *rs = f.p.b->rules;
    assert_ptr_equal(rs, ruleset_find("scars"));
    assert_non_null(rs->hidden_from);
    for (int i = 0; i < f.p.b->n; i++)
        for (int s = 0; s < 2; s++)
            assert_false(rs->hidden_from(f.p.b, i, s));
    fx_free(&f);
}

/* Seeded (no hand dice, so no rebuild undoes a direct change); ends turns until
 * combatant `who` may declare. */
static void seeded_until_actor(fx_t *f, int who)
{
    battle_opts_t o = {.seed = 7};
    assert_int_equal(play_start(&f->p, f->m, f->db, NULL, &o), BATTLE_OK);
    for (int guard = 0; guard < 8; guard++) {
        int act[4];
        int n = play_actors(&f->p, act, 4);
        assert_true(n > 0);
        for (int k = 0; k < n; k++)
            if (act[k] == who)
                return;
        cmd_t end = cmd_make(CMD_END, act[0]);
        assert_int_equal(play_apply(&f->p, &end), BATTLE_OK);
    }
    fail_msg("combatant %d never got to act", who);
}

static void test_dex_and_wil_loss(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife", "dex=10,wil=8,str=10");
    fx_add(f.m, "foe", "raiders", 8, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife", "dex=10,wil=8,str=10");
    f.db = weapons();
    seeded_until_actor(&f, 0);
    battle_t *b = f.p.b;
    /* Part of an ability: the score drops, nothing else. */
    scars_lose_ability(b, 1, SS_WIL, 3);
    assert_int_equal(b->u[1].stat[SS_WIL], 5);
    assert_false(b->u[1].cond & SC_DELIRIOUS);
    assert_true(FX_FIND(b, 0, "\"stat\"", "\"stat\":\"wil\"", "\"value\":5") >= 0);
    /* WIL 0: delirious; DEX 0 (floored, not negative): paralyzed. */
    scars_lose_ability(b, 1, SS_WIL, 9);
    assert_int_equal(b->u[1].stat[SS_WIL], 0);
    assert_true(b->u[1].cond & SC_DELIRIOUS);
    assert_false(b->u[1].cond & SC_PARALYZED);
    scars_lose_ability(b, 0, SS_DEX, 4);
    assert_false(b->u[0].cond & SC_PARALYZED);
    scars_lose_ability(b, 0, SS_DEX, 40);
    assert_int_equal(b->u[0].stat[SS_DEX], 0);
    assert_true(b->u[0].cond & SC_PARALYZED);
    assert_true(FX_FIND(b, 0, "\"condition\"", "\"paralyzed\"") >= 0);
    assert_false(battle_active(b, 0)); /* incapacitated: out of the fight */
    fx_free(&f);
}

/* Enhanced (d12) when a detachment attacks a lone combatant. (Against a
 * helpless target the same branch applies, but helpless targets are out of
 * the fight and cannot be declared against yet: see docs/rules-scars.md.) */
static void test_enhanced_die_detachment_vs_individual(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        fx_t f;
        f.m = fx_map(10, 3, "scars", NULL);
        fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife",
               k == 1 ? "dex=10,str=10,detachment=1" : "dex=10,str=10");
        fx_add(f.m, "foe", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 30, 50, "knife", "dex=10,str=10");
        f.db = weapons();
        seeded_until_actor(&f, 0);
        int from = f.p.b->log.n;
        cmd_t c = attack(0, 1, 0);
        battle_status_t st = play_apply(&f.p, &c);
        /* a's side may still have to finish declaring; a is alone, so it resolves now. */
        assert_true(st == BATTLE_OK || st == BATTLE_OVER);
        int with_d12 = FX_FIND(f.p.b, from, "\"who\":\"a\"", "\"dice\":\"1d12\"");
        int with_d6 = FX_FIND(f.p.b, from, "\"who\":\"a\"", "\"dice\":\"1d6\"");
        if (k == 1) {
            assert_true(with_d12 >= 0); /* enhanced: d12 instead of the knife's d6 */
            assert_int_equal(with_d6, -1);
        } else {
            assert_true(with_d6 >= 0);
            assert_int_equal(with_d12, -1);
        }
        fx_free(&f);
    }
}

static void test_impaired_through_cover(void **state)
{
    (void)state;
    fx_t f;
    static const char *const ROWS[] = {"..........", "...,......", ".........."};
    f.m = fx_map(10, 3, "scars", ROWS);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "rifle", "dex=20");
    fx_add(f.m, "foe", "raiders", 6, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 50, "knife", "str=10");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(1));
    assert_int_equal(fx_do(&f.p, attack(0, 1, 0), FX_DICE(4)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"a\"", "\"dice\":\"1d4\"") >= 0);
    fx_free(&f);
}

static void test_detachment_rules(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "club,grenade", "dex=20,str=10");
    fx_add(f.m, "pack", "raiders", 2, 1, KIND_CREATURE, SIZE_LARGE, 20, 50, "knife", "detachment=1,str=12");
    fx_add(f.m, "c", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "club", "dex=1,str=10");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(1, 20));
    /* An individual's club on a detachment is impaired: d4. */
    assert_int_equal(fx_do(&f.p, attack(0, 1, 0), FX_DICE(3)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"a\"", "\"dice\":\"1d4\"", "\"damage on pack\"") >= 0);
    /* The detachment on a: enhanced d12 (9: 5 HP, then 4 off STR, STR save 2
     * passes), and its blast reaches c beside a with a roll of its own (1). */
    assert_int_equal(fx_do(&f.p, attack(1, 0, 0), FX_DICE(9, 2, 1)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"pack\"", "\"dice\":\"1d12\"", "\"damage on a\"") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"pack\"", "\"dice\":\"1d12\"", "\"damage on c\"") >= 0);
    assert_int_equal(f.p.b->u[2].hp, 4);
    fx_free(&f);
    /* A blast weapon is not impaired against a detachment. */
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "grenade", "dex=20,str=10");
    fx_add(f.m, "pack", "raiders", 4, 1, KIND_CREATURE, SIZE_LARGE, 20, 50, "knife", "detachment=1,str=12");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(1));
    assert_int_equal(fx_do(&f.p, attack(0, 1, 0), FX_DICE(6)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"a\"", "\"dice\":\"1d6\"", "\"damage on pack\"") >= 0);
    assert_int_equal(f.p.b->u[1].hp, 14);
    fx_free(&f);
}

static void test_blast_rolls_per_target(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "grenade", "dex=20");
    fx_add(f.m, "x", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 50, "knife", "str=10");
    fx_add(f.m, "y", "raiders", 6, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 50, "knife", "str=10");
    fx_add(f.m, "z", "raiders", 8, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 50, "knife", "str=10");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(1));
    /* x is the target; y beside it is caught; z two hexes off is not. */
    assert_int_equal(fx_do(&f.p, attack(0, 1, 0), FX_DICE(5, 2)), BATTLE_OK);
    assert_int_equal(f.p.b->u[1].hp, 5);
    assert_int_equal(f.p.b->u[2].hp, 8);
    assert_int_equal(f.p.b->u[3].hp, 10);
    fx_free(&f);
}

static void test_exactly_zero_rolls_scars_table(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "pc", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 3, 50, "knife", "dex=1,str=10");
    fx_add(f.m, "foe", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 50, "knife", "str=10");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(20)); /* the PC fails its DEX save */
    /* The foe's side acts first: 3 damage to 3 HP, then 2d6 = 3+4 = 7: hamstrung. */
    assert_int_equal(fx_do(&f.p, attack(1, 0, 0), FX_DICE(3, 3, 4)), BATTLE_OK);
    assert_int_equal(f.p.b->u[0].hp, 0);
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"scars table\"", "\"total\":7") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"condition\":\"scar:hamstrung\"") >= 0);
    assert_true(f.p.b->u[0].cond & SC_HAMSTRUNG);
    assert_true(battle_active(f.p.b, 0));
    /* Hamstrung: a two-hex move is refused. */
    cmd_t mv = cmd_make(CMD_DECLARE, 0);
    mv.act = CMD_END;
    mv.path[mv.n_path++] = (cell_t){1, 0};
    mv.path[mv.n_path++] = (cell_t){2, 0};
    assert_int_equal(play_apply(&f.p, &mv), BATTLE_ILLEGAL);
    fx_free(&f);
}

static void test_past_zero_str_loss_and_critical(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "pc", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 2, 50, "knife", "dex=1,str=10");
    fx_add(f.m, "foe", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 50, "club", "str=10");
    fx_add(f.m, "pc2", "players", 8, 1, KIND_CREATURE, SIZE_MEDIUM, 2, 50, "knife", "dex=1,str=10");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(20, 20));
    /* 5 damage on 2 HP: 3 comes off STR (10 -> 7); STR save 12 > 7 fails: critical. */
    assert_int_equal(fx_do(&f.p, attack(1, 0, 0), FX_DICE(5, 12)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"stat\"", "\"stat\":\"str\"", "\"value\":7") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"STR save\"", "\"total\":12") >= 0);
    assert_true(f.p.b->u[0].cond & SC_CRITICAL);
    assert_false(battle_active(f.p.b, 0));
    fx_free(&f);
}

static void test_str_zero_is_death(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "pc", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 1, 50, "knife", "dex=1,str=2");
    fx_add(f.m, "foe", "raiders", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 50, "club", "str=10");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(20));
    assert_int_equal(fx_do(&f.p, attack(1, 0, 0), FX_DICE(8)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"defeated\"", "\"id\":\"pc\"") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"end\"", "\"winner\":\"raiders\"") >= 0);
    fx_free(&f);
}

static void test_retreat_needs_edge_and_dex(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    fx_add(f.m, "pc", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife", "dex=12,str=10");
    fx_add(f.m, "pc2", "players", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife", "dex=12,str=10");
    fx_add(f.m, "foe", "raiders", 9, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 50, "club", "str=10");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(1, 1));
    cmd_t r = cmd_make(CMD_DECLARE, 0);
    r.act = CMD_RETREAT;
    cmd_t r2 = cmd_make(CMD_DECLARE, 1);
    r2.act = CMD_RETREAT; /* pc2 is not on an edge: no save, no escape */
    assert_int_equal(fx_do(&f.p, r, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, r2, FX_DICE(12)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"fled\"", "\"id\":\"pc\"") >= 0);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"fled\"", "\"id\":\"pc2\""), -1);
    assert_false(battle_active(f.p.b, 0));
    assert_true(battle_active(f.p.b, 1));
    fx_free(&f);
}

static void test_move_budget_and_second_move(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(30, 3, "scars", NULL);
    fx_add(f.m, "pc", "players", 0, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "knife", "dex=20");
    fx_add(f.m, "foe", "raiders", 29, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 50, "club", "str=10");
    f.db = weapons();
    fx_start(&f.p, f.m, f.db, FX_DICE(1));
    cmd_t c = cmd_make(CMD_DECLARE, 0);
    c.act = CMD_ENGAGE;
    c.target = 1;
    c.weapon = 0;
    for (int k = 1; k <= 15; k++)
        c.path[c.n_path++] = (cell_t){k, 1};
    assert_int_equal(play_apply(&f.p, &c), BATTLE_ILLEGAL); /* 15 hexes > nearby */
    c.act = CMD_MOVE; /* the action spent on a second move */
    c.target = -1;
    assert_int_equal(fx_do(&f.p, c, FX_NO_DICE), BATTLE_OK);
    assert_true(hex_eq(f.p.b->board->pos[0], hex_from_cell(f.m->layout, (cell_t){15, 1})));
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dex_save_order),
        cmocka_unit_test(test_dex_and_wil_loss),
        cmocka_unit_test(test_enhanced_die_detachment_vs_individual),
        cmocka_unit_test(test_nobody_hidden_from_a_side),
        cmocka_unit_test(test_declare_then_resolve_pooled),
        cmocka_unit_test(test_multiple_dice_keep_highest),
        cmocka_unit_test(test_impaired_through_cover),
        cmocka_unit_test(test_detachment_rules),
        cmocka_unit_test(test_blast_rolls_per_target),
        cmocka_unit_test(test_exactly_zero_rolls_scars_table),
        cmocka_unit_test(test_past_zero_str_loss_and_critical),
        cmocka_unit_test(test_str_zero_is_death),
        cmocka_unit_test(test_retreat_needs_edge_and_dex),
        cmocka_unit_test(test_move_budget_and_second_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
