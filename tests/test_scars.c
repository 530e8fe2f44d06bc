/* test_scars.c - the Scars rules on hand-entered dice: order, declaring then
 * resolving, pooled damage, impaired / enhanced dice, blast, detachments, the
 * scars table, critical damage and retreat. */
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
    fx_weapon(db, "pistol", WPN_RANGED, false, 0, 40, 1, 6, 0, NULL);
    fx_weapon(db, "grenade", WPN_THROWN, false, 0, 40, 1, 6, 0, "blast=1");
    fx_weapon(db, "twin", WPN_MELEE, false, 5, 0, 2, 6, 0, NULL);
    fx_weapon(db, "mortar", WPN_THROWN, false, 0, 50, 1, 6, 0, "blast=2");
    return db;
}

/* A medium creature moving 50 ft; stats "key=value,...", weapons "id,id".
 * Returns its index. */
static int add(map_t *m, const char *id, const char *faction, int col, int row, int hp,
               const char *weapons, const char *stats)
{
    return fx_add(m, id, faction, col, row, KIND_CREATURE, SIZE_MEDIUM, hp, 50, weapons, stats);
}

/* Start f's battle on the weapons above, the initiative dice entered by hand. */
static void start(fx_t *f, const int *dice, int n)
{
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, dice, n);
}

/* The raiders' scattergun (a blast) and machete, for the AI tests. */
static void blast_kit(tmpl_db_t *db)
{
    fx_weapon(db, "scatter", WPN_RANGED, false, 0, 50, 1, 8, 0, "blast=1");
    fx_weapon(db, "machete", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
}

/* What the AI would have combatant a do now. */
static cmd_t ai(fx_t *f, int a)
{
    const ruleset_t *rs = f->p.b->rules;
    cmd_t c;
    rs->ai(f->p.b, a, &c);
    return c;
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

static void test_dex_save_order(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    add(f.m, "fast", "players", 1, 1, 5, "knife", "dex=12,str=10");
    add(f.m, "slow", "players", 1, 2, 5, "knife", "dex=12,str=10");
    add(f.m, "foe", "raiders", 8, 1, 5, "knife", "dex=10,str=10");
    /* DEX saves: 12 passes (equal is a pass), 13 fails. */
    start(&f, FX_DICE(12, 13));
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
    add(f.m, "a", "players", 1, 1, 5, "knife", "dex=20");
    add(f.m, "b", "players", 3, 1, 5, "club", "dex=20");
    add(f.m, "foe", "raiders", 2, 1, 9, "knife", "armor=1,str=10");
    start(&f, FX_DICE(1, 1));
    int who[4];
    assert_int_equal(play_actors(&f.p, who, 4), 2); /* the whole side declares */
    assert_int_equal(fx_do(&f.p, fx_declare(0, 2, 0), FX_NO_DICE), BATTLE_OK);
    /* Declared, nothing rolled yet. */
    assert_int_equal(count_type(f.p.b, EV_DAMAGE), 0);
    assert_int_equal(count_type(f.p.b, EV_ROLL), 2);
    /* b declares; both dice (3 on the d6, 6 on the d8) roll, 6 is kept, armor once. */
    assert_int_equal(fx_do(&f.p, fx_declare(1, 2, 0), FX_DICE(3, 6)), BATTLE_OK);
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
    add(f.m, "a", "players", 1, 1, 5, "twin,club", "dex=20");
    add(f.m, "foe", "raiders", 2, 1, 20, "knife", "armor=0,str=10");
    start(&f, FX_DICE(1));
    /* Dual weapons: 2d6 (keep the higher of 2 and 5) and a d8 (4): 5. */
    cmd_t c = fx_declare(0, 1, 0);
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
    add(f.m, "a", "players", 1, 1, 5, "club", "dex=20");
    add(f.m, "foe", "raiders", 6, 1, 20, "knife", "armor=0");
    start(&f, FX_DICE(1));
    const ruleset_t *rs = f.p.b->rules;
    assert_ptr_equal(rs, ruleset_find("scars"));
    assert_non_null(rs->hidden_from);
    for (int i = 0; i < f.p.b->n; i++)
        for (int s = 0; s < 2; s++)
            assert_false(rs->hidden_from(f.p.b, i, s));
    fx_free(&f);
}

/* Start seeded on the weapons above, on to where `who` may declare. */
static void start_seeded(fx_t *f, int who)
{
    f->db = weapons();
    fx_start_until(f, who, 7);
}

static void test_dex_and_wil_loss(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    add(f.m, "a", "players", 1, 1, 5, "knife", "dex=10,wil=8,str=10");
    add(f.m, "foe", "raiders", 8, 1, 5, "knife", "dex=10,wil=8,str=10");
    start_seeded(&f, 0);
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
    /* Helpless: still on the map and a target, but no longer fighting. */
    assert_true(battle_active(b, 0));
    assert_true(scars_helpless(b, 0));
    assert_false(scars_fighting(b, 0));
    assert_true(board_occupant(b->board, b->board->pos[0]) == 0);
    fx_free(&f);
}

/* Enhanced (d12) when a detachment attacks a lone combatant. (Against a
 * helpless target: test_paralyzed_target_rolls_d12.) */
static void test_enhanced_die_detachment_vs_individual(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        fx_t f;
        f.m = fx_map(10, 3, "scars", NULL);
        add(f.m, "a", "players", 1, 1, 5, "knife",
            k == 1 ? "dex=10,str=10,detachment=1" : "dex=10,str=10");
        add(f.m, "foe", "raiders", 2, 1, 30, "knife", "dex=10,str=10");
        start_seeded(&f, 0);
        int from = f.p.b->log.n;
        cmd_t c = fx_declare(0, 1, 0);
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
    add(f.m, "a", "players", 1, 1, 5, "rifle", "dex=20");
    add(f.m, "foe", "raiders", 6, 1, 20, "knife", "str=10");
    start(&f, FX_DICE(1));
    assert_int_equal(fx_do(&f.p, fx_declare(0, 1, 0), FX_DICE(4)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"a\"", "\"dice\":\"1d4\"") >= 0);
    fx_free(&f);
}

static void test_detachment_rules(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    add(f.m, "a", "players", 1, 1, 5, "club,grenade", "dex=20,str=10");
    fx_add(f.m, "pack", "raiders", 2, 1, KIND_CREATURE, SIZE_LARGE, 20, 50, "knife", "detachment=1,str=12");
    add(f.m, "c", "players", 0, 1, 5, "club", "dex=1,str=10");
    start(&f, FX_DICE(1, 20));
    /* An individual's club on a detachment is impaired: d4. */
    assert_int_equal(fx_do(&f.p, fx_declare(0, 1, 0), FX_DICE(3)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"a\"", "\"dice\":\"1d4\"", "\"damage on pack\"") >= 0);
    /* The detachment on a: enhanced d12 (9: 5 HP, then 4 off STR, STR save 2
     * passes), and its blast reaches c beside a with a roll of its own (1). */
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_DICE(9, 2, 1)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"pack\"", "\"dice\":\"1d12\"", "\"damage on a\"") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"pack\"", "\"dice\":\"1d12\"", "\"damage on c\"") >= 0);
    assert_int_equal(f.p.b->u[2].hp, 4);
    fx_free(&f);
    /* A blast weapon is not impaired against a detachment. */
    f.m = fx_map(10, 3, "scars", NULL);
    add(f.m, "a", "players", 1, 1, 5, "grenade", "dex=20,str=10");
    fx_add(f.m, "pack", "raiders", 4, 1, KIND_CREATURE, SIZE_LARGE, 20, 50, "knife", "detachment=1,str=12");
    start(&f, FX_DICE(1));
    assert_int_equal(fx_do(&f.p, fx_declare(0, 1, 0), FX_DICE(6)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"a\"", "\"dice\":\"1d6\"", "\"damage on pack\"") >= 0);
    assert_int_equal(f.p.b->u[1].hp, 14);
    fx_free(&f);
}

static void test_blast_rolls_per_target(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    add(f.m, "a", "players", 1, 1, 5, "grenade", "dex=20");
    add(f.m, "x", "raiders", 5, 1, 10, "knife", "str=10");
    add(f.m, "y", "raiders", 6, 1, 10, "knife", "str=10");
    add(f.m, "z", "raiders", 8, 1, 10, "knife", "str=10");
    start(&f, FX_DICE(1));
    /* x is the target; y beside it is caught; z two hexes off is not. */
    assert_int_equal(fx_do(&f.p, fx_declare(0, 1, 0), FX_DICE(5, 2)), BATTLE_OK);
    assert_int_equal(f.p.b->u[1].hp, 5);
    assert_int_equal(f.p.b->u[2].hp, 8);
    assert_int_equal(f.p.b->u[3].hp, 10);
    fx_free(&f);
}

/* A blast is an area (core/area.h): it sweeps what its centre has line of
 * effect to, so a wall shields the hex behind it; the area event names it. */
static void test_blast_stopped_by_wall(void **state)
{
    (void)state;
    static const char *const ROWS[] = {"..........", "......#...", "..........", ".........."};
    fx_t f;
    f.m = fx_map(10, 4, "scars", ROWS);
    add(f.m, "a", "players", 1, 1, 5, "mortar", "dex=20");
    add(f.m, "x", "raiders", 5, 1, 10, "knife", "str=10");
    add(f.m, "y", "raiders", 7, 1, 10, "knife", "str=10");
    add(f.m, "z", "raiders", 5, 3, 10, "knife", "str=10");
    start(&f, FX_DICE(1));
    /* x is the target (5), z two hexes off in the open is caught (3); y, as
     * far, stands behind the wall and rolls nothing. */
    assert_int_equal(fx_do(&f.p, fx_declare(0, 1, 0), FX_DICE(5, 3)), BATTLE_OK);
    assert_int_equal(f.p.b->u[1].hp, 5);
    assert_int_equal(f.p.b->u[2].hp, 10);
    assert_int_equal(f.p.b->u[3].hp, 7);
    assert_true(FX_FIND(f.p.b, 0, "\"event\":\"attack\"", "\"target\":\"x\"") <
                FX_FIND(f.p.b, 0, "\"event\":\"area\"", "\"who\":\"a\"", "\"target\":\"x\"",
                        "\"shape\":\"blast\"", "\"from\":[1,1]", "\"to\":[5,1]", "\"size\":2"));
    assert_true(FX_FIND(f.p.b, 0, "\"damage on y\"") < 0);
    fx_free(&f);
}

static void test_exactly_zero_rolls_scars_table(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    add(f.m, "pc", "players", 1, 1, 7, "knife", "dex=1,str=10");
    add(f.m, "foe", "raiders", 2, 1, 10, "club", "str=10");
    start(&f, FX_DICE(20)); /* the PC fails its DEX save */
    /* The foe's side acts first: 7 damage to 7 HP is row 7 of the table (the
     * damage picks the row): hamstrung, and its 3d6 (2+2+2 = 6) beats max DEX
     * 1 at once. */
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_DICE(7, 2, 2, 2)), BATTLE_OK);
    assert_int_equal(f.p.b->u[0].hp, 0);
    assert_true(FX_FIND(f.p.b, 0, "\"condition\":\"scar:hamstrung\"") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"stat\":\"max_dex\"", "\"value\":6") >= 0);
    assert_int_equal(f.p.b->u[0].stat_max[SS_DEX], 6);
    assert_int_equal(f.p.b->u[0].stat[SS_DEX], 1);
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
    add(f.m, "pc", "players", 1, 1, 2, "knife", "dex=1,str=10");
    add(f.m, "foe", "raiders", 2, 1, 10, "club", "str=10");
    add(f.m, "pc2", "players", 8, 1, 2, "knife", "dex=1,str=10");
    start(&f, FX_DICE(20, 20));
    /* 5 damage on 2 HP: 3 comes off STR (10 -> 7); STR save 12 > 7 fails: critical. */
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_DICE(5, 12)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"stat\"", "\"stat\":\"str\"", "\"value\":7") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"why\":\"STR save\"", "\"total\":12") >= 0);
    assert_true(f.p.b->u[0].cond & SC_CRITICAL);
    /* Crawling: on the map, not holding the field for its side, and in its
     * phase only to crawl one hex or lie still. */
    assert_true(battle_active(f.p.b, 0));
    assert_false(scars_fighting(f.p.b, 0));
    assert_true(scars_crawling(f.p.b, 0));
    assert_true(scars_in_phase(f.p.b, 0));
    cmd_t hit = fx_declare(0, 1, 0);
    assert_int_equal(play_apply(&f.p, &hit), BATTLE_ILLEGAL);
    cmd_t crawl = cmd_make(CMD_DECLARE, 0);
    crawl.act = CMD_END;
    crawl.path[crawl.n_path++] = (cell_t){0, 1};
    crawl.path[crawl.n_path++] = (cell_t){0, 0};
    assert_int_equal(play_apply(&f.p, &crawl), BATTLE_ILLEGAL);
    crawl.n_path = 1;
    assert_int_equal(fx_do(&f.p, crawl, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 2), FX_NO_DICE), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"move_step\"", "\"id\":\"pc\"", "\"to\":[0,1]") >= 0);
    fx_free(&f);
}

static void test_str_zero_is_death(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    add(f.m, "pc", "players", 1, 1, 1, "knife", "dex=1,str=2");
    add(f.m, "foe", "raiders", 2, 1, 10, "club", "str=10");
    start(&f, FX_DICE(20));
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_DICE(8)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"defeated\"", "\"id\":\"pc\"") >= 0);
    assert_true(FX_FIND(f.p.b, 0, "\"end\"", "\"winner\":\"raiders\"") >= 0);
    fx_free(&f);
}

static void test_retreat_needs_edge_and_dex(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    add(f.m, "pc", "players", 0, 1, 5, "knife", "dex=12,str=10");
    add(f.m, "pc2", "players", 4, 1, 5, "knife", "dex=12,str=10");
    add(f.m, "foe", "raiders", 9, 1, 10, "club", "str=10");
    start(&f, FX_DICE(1, 1));
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
    add(f.m, "pc", "players", 0, 1, 5, "knife", "dex=20");
    add(f.m, "foe", "raiders", 29, 1, 10, "club", "str=10");
    start(&f, FX_DICE(1));
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

/* A crawling PC (critical) stays on the map, may do nothing but crawl, and is
 * attacked enhanced: the foe's knife rolls a d12 instead of its d6. */
static void test_critical_pc_is_attacked_enhanced(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    add(f.m, "pc", "players", 1, 1, 2, "knife", "dex=1,str=10");
    add(f.m, "foe", "raiders", 2, 1, 10, "knife", "str=10");
    add(f.m, "pc2", "players", 8, 1, 5, "knife", "dex=1,str=10");
    start(&f, FX_DICE(20, 20)); /* both PCs fail: the raiders go first */
    /* Round 1: d6 5 on 2 HP, 3 off STR (7), STR save 12 fails: critical. */
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_DICE(5, 12)), BATTLE_OK);
    assert_true(f.p.b->u[0].cond & SC_CRITICAL);
    int who[4];
    /* pc crawls (it may only lie still or crawl) and pc2 acts in the failed phase. */
    assert_int_equal(play_actors(&f.p, who, 4), 2);
    assert_int_equal(who[0], 0);
    assert_int_equal(who[1], 2);
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 2), FX_NO_DICE), BATTLE_OK);
    /* Round 2: pc can still be declared against, and the knife rolls a d12:
     * 6 takes the last of nothing in HP, 6 off STR (1), STR save 1 passes. */
    int from = f.p.b->log.n;
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_DICE(6, 1)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, from, "\"who\":\"foe\"", "\"dice\":\"1d12\"", "\"damage on pc\"") >= 0);
    assert_int_equal(FX_FIND(f.p.b, from, "\"who\":\"foe\"", "\"dice\":\"1d6\""), -1);
    assert_int_equal(f.p.b->u[0].stat[SS_STR], 1);
    assert_true(battle_active(f.p.b, 0));
    /* A second failed critical save does not announce critical again. */
    int crit = 0;
    for (int k = 0; k < f.p.b->log.n; k++)
        crit += f.p.b->log.ev[k].type == EV_CONDITION && strcmp(f.p.b->log.ev[k].name, "critical") == 0;
    assert_int_equal(crit, 1);
    fx_free(&f);
}

/* The helpless do not hold the field: a side whose only combatant lies
 * crawling has lost, though the combatant is still on the map. */
static void test_helpless_side_loses(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    add(f.m, "pc", "players", 1, 1, 2, "knife", "dex=1,str=10");
    add(f.m, "foe", "raiders", 2, 1, 10, "club", "str=10");
    start(&f, FX_DICE(20));
    assert_int_equal(scars_winner(f.p.b), -2);
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_DICE(5, 12)), BATTLE_OK);
    assert_true(f.p.b->u[0].cond & SC_CRITICAL);
    assert_true(battle_active(f.p.b, 0));
    assert_int_equal(board_occupant(f.p.b->board, f.p.b->board->pos[0]), 0);
    assert_true(f.p.b->over);
    assert_true(FX_FIND(f.p.b, 0, "\"end\"", "\"winner\":\"raiders\"") >= 0);
    fx_free(&f);
}

/* RULINGS: an attack on a paralyzed target is enhanced. The same knife
 * rolls its own d6 on a foe who can move, a d12 on one who cannot. */
static void test_paralyzed_target_rolls_d12(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        fx_t f;
        f.m = fx_map(10, 3, "scars", NULL);
        add(f.m, "a", "players", 1, 1, 5, "knife", "dex=20,str=10");
        add(f.m, "foe", "raiders", 2, 1, 30, "knife", "dex=10,str=10");
        add(f.m, "foe2", "raiders", 8, 1, 30, "knife", "dex=10,str=10");
        start_seeded(&f, 0);
        if (k == 1) {
            scars_lose_ability(f.p.b, 1, SS_DEX, 10);
            assert_true(scars_helpless(f.p.b, 1));
        }
        int from = f.p.b->log.n;
        cmd_t c = fx_declare(0, 1, 0);
        assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
        int d12 = FX_FIND(f.p.b, from, "\"who\":\"a\"", "\"dice\":\"1d12\"", "\"damage on foe\"");
        int d6 = FX_FIND(f.p.b, from, "\"who\":\"a\"", "\"dice\":\"1d6\"", "\"damage on foe\"");
        assert_true(k == 1 ? d12 >= 0 : d6 >= 0);
        assert_int_equal(k == 1 ? d6 : d12, -1);
        assert_false(f.p.b->over); /* foe2 still fights */
        fx_free(&f);
    }
}

/* The AI leaves a helpless foe alone while a fighting one is within reach
 * this turn, and strikes it only when nothing else is. */
static void test_ai_prefers_foes_still_fighting(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        fx_t f;
        f.m = fx_map(40, 3, "scars", NULL);
        add(f.m, "a", "players", 1, 1, 5, "knife", "dex=20,str=10");
        add(f.m, "down", "raiders", 2, 1, 3, "knife", "dex=10,str=10");
        /* Near: 5 hexes off, one move and a knife reach it. Far: 30 hexes. */
        add(f.m, "up", "raiders", k == 0 ? 6 : 31, 1, 30, "knife", "dex=10,str=10");
        start_seeded(&f, 0);
        scars_lose_ability(f.p.b, 1, SS_DEX, 10);
        cmd_t c = ai(&f, 0);
        assert_int_equal(c.kind, CMD_DECLARE);
        assert_int_equal(c.act, CMD_ENGAGE);
        assert_int_equal(c.target, k == 0 ? 2 : 1);
        assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
        fx_free(&f);
    }
}

/* A blast catches friend and foe alike, so the AI never throws one where it
 * would catch its own side: with an ally beside the target it takes the
 * machete; with nobody of its own near, the scattergun. */
static void test_ai_blast_spares_own_side(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        fx_t f;
        f.m = fx_map(14, 3, "scars", NULL);
        add(f.m, "pc", "players", 6, 1, 20, "knife", "dex=1,str=10");
        add(f.m, "gun", "raiders", 2, 1, 5, "scatter,machete", "dex=10,str=10");
        add(f.m, "mate", "raiders", k == 0 ? 7 : 13, 1, 5, "machete", "dex=10,str=10");
        f.db = weapons();
        blast_kit(f.db);
        fx_start_until(&f, 1, 7);
        cmd_t c = ai(&f, 1);
        assert_int_equal(c.kind, CMD_DECLARE);
        assert_int_equal(c.act, CMD_ENGAGE);
        assert_int_equal(c.target, 0);
        const weapon_t *w = battle_weapon(f.p.b, 1, c.weapon);
        assert_non_null(w);
        assert_string_equal(w->id, k == 0 ? "machete" : "scatter");
        /* Whatever it declared, the resolution must not touch mate. */
        assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
        assert_int_equal(FX_FIND(f.p.b, 0, "\"why\":\"damage on mate\""), -1);
        fx_free(&f);
    }
}

/* An ally's declared blast is no place to walk into: the second raider
 * keeps out of the hexes the first one's scattergun will sweep. */
static void test_ai_keeps_out_of_declared_blast(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(14, 5, "scars", NULL);
    add(f.m, "pc", "players", 6, 2, 20, "knife", "dex=1,str=10");
    add(f.m, "pc2", "players", 0, 0, 20, "knife", "dex=1,str=10");
    add(f.m, "gun", "raiders", 2, 2, 5, "scatter", "dex=10,str=10");
    add(f.m, "cut", "raiders", 12, 2, 5, "machete", "dex=10,str=10");
    f.db = weapons();
    blast_kit(f.db);
    fx_start_until(&f, 2, 7);
    cmd_t g = fx_declare(2, 0, 0); /* gun blasts pc: every hex next to pc is swept */
    assert_int_equal(play_apply(&f.p, &g), BATTLE_OK);
    cmd_t c = ai(&f, 3);
    hex_t pcpos = f.p.b->board->pos[0];
    /* pc (6 hexes off) is its foe; it closes in but stops just outside. */
    assert_int_equal(c.target, -1);
    assert_true(c.n_path > 0);
    hex_t end = hex_from_cell(f.m->layout, c.path[c.n_path - 1]);
    assert_int_equal(hex_distance(end, pcpos), 2);
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    assert_int_equal(FX_FIND(f.p.b, 0, "\"why\":\"damage on cut\""), -1);
    fx_free(&f);
}

/* A ranged attacker whose line runs through brush (impaired, d4) steps to a
 * hex with a clear line first, and so rolls its rifle's own d10. */
static void test_ai_steps_out_for_a_clear_shot(void **state)
{
    (void)state;
    static const char *const ROWS[] = {"..........", "...,......", ".........."};
    for (int k = 0; k < 2; k++) {
        fx_t f;
        f.m = fx_map(10, 3, "scars", k == 1 ? ROWS : NULL);
        add(f.m, "a", "players", 1, 1, 5, "rifle", "dex=20,str=10");
        add(f.m, "foe", "raiders", 6, 1, 30, "knife", "dex=10,str=10");
        start_seeded(&f, 0);
        hex_t foe = f.p.b->board->pos[1];
        assert_int_equal(sight_trace(f.p.b->board, f.p.b->board->pos[0], foe).cover,
                         k == 1 ? COVER_LIGHT : COVER_NONE);
        cmd_t c = ai(&f, 0);
        assert_int_equal(c.act, CMD_ENGAGE);
        assert_int_equal(c.target, 1);
        if (k == 0) {
            assert_int_equal(c.n_path, 0); /* already clear: it shoots from where it is */
        } else {
            assert_true(c.n_path > 0);
            hex_t end = hex_from_cell(f.m->layout, c.path[c.n_path - 1]);
            sight_t sg = sight_trace(f.p.b->board, end, foe);
            assert_true(sg.visible);
            assert_int_equal(sg.cover, COVER_NONE);
        }
        int from = f.p.b->log.n;
        assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
        assert_true(FX_FIND(f.p.b, from, "\"who\":\"a\"", "\"dice\":\"1d10\"", "\"damage on foe\"") >= 0);
        fx_free(&f);
    }
}

/* Attacks on one target pool (only the highest die counts), so once an ally
 * has declared against the nearest foe, the AI turns to the next one. */
static void test_ai_spreads_pooled_attacks(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        fx_t f;
        f.m = fx_map(10, 3, "scars", NULL);
        add(f.m, "a1", "players", 1, 1, 5, "knife", "dex=20,str=10");
        add(f.m, "a2", "players", 3, 1, 5, "knife", "dex=20,str=10");
        add(f.m, "foe1", "raiders", 2, 1, 10, "knife", "dex=10,str=10");
        add(f.m, "foe2", "raiders", 5, 1, 10, "knife", "dex=10,str=10");
        start_seeded(&f, 1);
        cmd_t first = k == 1 ? fx_declare(0, 2, 0) : cmd_make(CMD_END, 0);
        assert_int_equal(play_apply(&f.p, &first), BATTLE_OK);
        cmd_t c = ai(&f, 1);
        assert_int_equal(c.act, CMD_ENGAGE);
        assert_int_equal(c.target, k == 1 ? 3 : 2);
        assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
        fx_free(&f);
    }
}

/* Aid is on the legal list for a helpless ally next to the combatant, and
 * for nobody else; declared, it steadies the ally. */
static void test_stabilize_listed_for_an_ally_beside(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "scars", NULL);
    add(f.m, "pc", "players", 1, 1, 2, "knife", "dex=1,str=10");
    add(f.m, "foe", "raiders", 1, 2, 10, "club", "str=10");
    add(f.m, "pc2", "players", 2, 1, 2, "knife", "dex=1,str=10");
    add(f.m, "pc3", "players", 8, 2, 2, "knife", "dex=1,str=10");
    start(&f, FX_DICE(20, 20, 20));
    /* 5 on 2 HP, STR 7, save 12 fails: pc lies critical. */
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_DICE(5, 12)), BATTLE_OK);
    cmd_t list[64];
    for (int who = 2; who <= 3; who++) {
        int n = f.p.rs->legal(f.p.b, who, list, 64), aid = -1;
        for (int k = 0; k < n; k++)
            if (list[k].kind == CMD_DECLARE && list[k].act == CMD_STABILIZE) aid = k;
        if (who == 3) {
            assert_int_equal(aid, -1); /* too far to aid */
            continue;
        }
        assert_true(aid >= 0);
        assert_int_equal(list[aid].target, 0);
        assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 0), FX_NO_DICE), BATTLE_OK);
        assert_int_equal(fx_do(&f.p, list[aid], FX_NO_DICE), BATTLE_OK);
    }
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 3), FX_NO_DICE), BATTLE_OK);
    assert_true(f.p.b->u[0].cond & SC_STABLE);
    fx_free(&f);
}

/* An ally's declared move into the line of fire gives the target cover when
 * the phase resolves (moves land before attacks), so the odds of an attack
 * declared before it must change at once: the rifle's d10 becomes an
 * impaired d4. Nothing of the board moves for the prediction itself. */
static void test_declared_move_into_line_changes_odds(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 4, "scars", NULL);
    add(f.m, "a", "players", 1, 1, 5, "rifle", "dex=20");
    add(f.m, "b", "players", 4, 3, 5, "knife", "dex=20");
    add(f.m, "c", "players", 1, 3, 5, "knife", "dex=20");
    add(f.m, "foe", "raiders", 8, 1, 9, "knife", "dex=5");
    start(&f, FX_DICE(1, 1, 1));
    battle_t *b = f.p.b;
    int who[4];
    assert_int_equal(play_actors(&f.p, who, 4), 3); /* a, b and c declare */
    /* A free hex on the line from a to foe, and a way for b to step there. */
    hex_t line[32];
    int n = hex_line(b->board->pos[0], b->board->pos[3], HEX_NUDGE_PLUS, line, 32);
    assert_true(n >= 5);
    hex_t into = line[3];
    assert_true(board_occupant(b->board, into) < 0);
    cmd_t shot = fx_declare(0, 3, 0);
    predict_t before, after;
    assert_true(predict_cmd(b, &shot, &before));
    assert_int_equal(before.dmg_sides, 10);
    assert_int_equal(fx_do(&f.p, shot, FX_NO_DICE), BATTLE_OK);
    /* b declares a move onto that hex (a path the rules accept). */
    cmd_t mv = cmd_make(CMD_DECLARE, 1);
    mv.act = CMD_END;
    hex_t at = b->board->pos[1];
    while (!hex_eq(at, into)) {
        hex_t step[32];
        int m = hex_line(at, into, HEX_NUDGE_PLUS, step, 32);
        assert_true(m >= 2 && mv.n_path < CMD_PATH_MAX);
        at = step[1];
        mv.path[mv.n_path++] = hex_to_cell(f.m->layout, at);
    }
    hex_t pos_before[4];
    for (int i = 0; i < 4; i++) pos_before[i] = b->board->pos[i];
    assert_int_equal(fx_do(&f.p, mv, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(play_actors(&f.p, who, 4), 1); /* c still to declare: not resolved */
    assert_true(predict_cmd(b, &shot, &after));
    assert_int_equal(after.dmg_sides, 4); /* cover from the ally: impaired */
    assert_true(after.dmg_expected < before.dmg_expected);
    for (int i = 0; i < 4; i++) assert_true(hex_eq(b->board->pos[i], pos_before[i]));
    assert_int_equal(board_occupant(b->board, into), -1);
    /* And the resolution agrees: c holds, the phase lands, a's die is a d4. */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_END, 2), FX_DICE(3)), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"who\":\"a\"", "\"dice\":\"1d4\"") >= 0);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dex_save_order),
        cmocka_unit_test(test_stabilize_listed_for_an_ally_beside),
        cmocka_unit_test(test_dex_and_wil_loss),
        cmocka_unit_test(test_enhanced_die_detachment_vs_individual),
        cmocka_unit_test(test_nobody_hidden_from_a_side),
        cmocka_unit_test(test_declare_then_resolve_pooled),
        cmocka_unit_test(test_multiple_dice_keep_highest),
        cmocka_unit_test(test_impaired_through_cover),
        cmocka_unit_test(test_detachment_rules),
        cmocka_unit_test(test_blast_rolls_per_target),
        cmocka_unit_test(test_blast_stopped_by_wall),
        cmocka_unit_test(test_exactly_zero_rolls_scars_table),
        cmocka_unit_test(test_past_zero_str_loss_and_critical),
        cmocka_unit_test(test_str_zero_is_death),
        cmocka_unit_test(test_retreat_needs_edge_and_dex),
        cmocka_unit_test(test_move_budget_and_second_move),
        cmocka_unit_test(test_critical_pc_is_attacked_enhanced),
        cmocka_unit_test(test_helpless_side_loses),
        cmocka_unit_test(test_paralyzed_target_rolls_d12),
        cmocka_unit_test(test_ai_prefers_foes_still_fighting),
        cmocka_unit_test(test_ai_blast_spares_own_side),
        cmocka_unit_test(test_ai_keeps_out_of_declared_blast),
        cmocka_unit_test(test_ai_steps_out_for_a_clear_shot),
        cmocka_unit_test(test_ai_spreads_pooled_attacks),
        cmocka_unit_test(test_declared_move_into_line_changes_odds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
