/* test_emcore.c - the emcore rules on hand-entered dice: the pools and their
 * odds, initiative, engagement groups, hidden declarations, contests, shots
 * and the defences they meet, moves and their costs, and the AI's manners
 * (it never looks at what the other side declared). The rulings that change
 * a battle are pinned again, as the table reads them, in
 * tests/scenarios/emcore_*.json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/trigger.h"
#include "rules_fixture.h"
#include "rules/emcore/emcore.h"

static tmpl_db_t *weapons(void)
{
    tmpl_db_t *db = fx_db("emcore");
    fx_weapon(db, "sword", WPN_MELEE, false, 5, 0, 0, 0, 1, NULL);
    fx_weapon(db, "spear", WPN_MELEE, false, 10, 0, 0, 0, 1, NULL);
    fx_weapon(db, "shortbow", WPN_RANGED, false, 0, 150, 0, 0, 2, "nock=1");
    fx_weapon(db, "crossbow", WPN_RANGED, false, 0, 200, 0, 0, 3, "committed_only=1");
    fx_weapon(db, "dagger", WPN_THROWN, false, 5, 20, 0, 0, 0, "thrown_base=1");
    fx_weapon(db, "firebolt", WPN_RANGED, true, 0, 100, 0, 0, 3, "aspect=2,committed_only=1");
    return db;
}

/* A creature of the fixture: emcore reads only its stats and weapons. */
static int add(map_t *m, const char *id, const char *faction, int col, int row, const char *weapons,
               const char *stats)
{
    return fx_add(m, id, faction, col, row, KIND_CREATURE, SIZE_MEDIUM, 5, 20, weapons, stats);
}

static const em_state_t *st_of(const fx_t *f) { return (const em_state_t *)f->p.b->rs; }

/* Start f's battle on the weapons above, no dice entered. */
static void start(fx_t *f)
{
    f->db = weapons();
    fx_start(&f->p, f->m, f->db, FX_NO_DICE);
}

/* What the AI would have combatant a do now. */
static cmd_t ai(fx_t *f, int a)
{
    cmd_t c;
    f->p.rs->ai(f->p.b, a, &c);
    return c;
}

/* Commit (aim) a's weapon w. */
static cmd_t commit(int a, int w)
{
    cmd_t c = cmd_make(CMD_COMMIT, a);
    c.weapon = w;
    return c;
}

static cmd_t disengage(int a)
{
    cmd_t c = cmd_make(CMD_DECLARE, a);
    c.act = CMD_DISENGAGE;
    return c;
}

static cmd_t end(int a) { return cmd_make(CMD_END, a); }

static cmd_t move(int a, int mode, int n, const int *cr)
{
    cmd_t c = fx_move(a, n, cr);
    c.arg = mode;
    return c;
}
#define MOVE(a, mode, ...) move((a), (mode), (int)(sizeof((const int[]){__VA_ARGS__}) / sizeof(int) / 2), (const int[]){__VA_ARGS__})

static void expect(const fx_t *f, int from, const char *a, const char *b, const char *c)
{
    if (FX_FIND(f->p.b, from, a, b ? b : a, c ? c : a) < 0) {
        fx_dump(f->p.b);
        fail_msg("no event with %s %s %s", a, b ? b : "", c ? c : "");
    }
}

static void expect_none(const fx_t *f, const char *a, const char *b)
{
    if (FX_FIND(f->p.b, 0, a, b ? b : a) >= 0) {
        fx_dump(f->p.b);
        fail_msg("an event with %s %s", a, b ? b : "");
    }
}

/* ---- the dice ------------------------------------------------------------------- */

static void test_pool_size_and_faces(void **state)
{
    (void)state;
    /* Levels 1-5 give 2, 2, 3, 3, 4 dice (E1). */
    const int want[6] = {1, 2, 2, 3, 3, 4};
    for (int l = 0; l <= 5; l++)
        assert_int_equal(em_pool_dice(l), want[l]);
    int full[13] = {0, -1, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 2};
    for (int f = 1; f <= 12; f++) {
        assert_int_equal(em_face_value(f, EPOOL_FULL), full[f]);
        assert_int_equal(em_face_value(f, EPOOL_CRITS1), f == 1 ? -1 : f >= 10 ? 1 : 0);
        assert_int_equal(em_face_value(f, EPOOL_CRITS2), f == 1 ? -1 : f >= 10 ? 2 : 0);
    }
}

/* The odds by brute force over every face of every die. */
static em_odds_t brute(int an, em_pool_mode_t am, int dn, int base, int sn)
{
    int total = an + dn + sn, faces[8] = {0};
    em_odds_t o = {0, 0, 0};
    double msum = 0.0, p = 1.0;
    for (int k = 0; k < total; k++)
        p /= 12.0;
    for (;;) {
        int a = 0, d = 0, s = 0;
        for (int k = 0; k < an; k++)
            a += em_face_value(faces[k] + 1, am);
        for (int k = an; k < an + dn; k++)
            d += em_face_value(faces[k] + 1, EPOOL_FULL);
        for (int k = an + dn; k < total; k++)
            s += em_face_value(faces[k] + 1, EPOOL_FULL);
        a = a > 0 ? a : 0;
        d = d > 0 ? d : 0;
        s = s > 0 ? s : 0;
        if (a > d) {
            o.p_win += p;
            msum += p * (a - d);
            if (base + a - d - s > 0)
                o.wounds += p * (base + a - d - s);
        }
        int k = 0;
        while (k < total && ++faces[k] == 12)
            faces[k++] = 0;
        if (k == total)
            break;
    }
    o.margin = o.p_win > 0 ? msum / o.p_win : 0;
    return o;
}

static void test_odds_exact(void **state)
{
    (void)state;
    /* One die against nothing: 8+ wins, 10+ by two. */
    em_odds_t o = em_odds(1, EPOOL_FULL, 0, 0, 0, 0);
    assert_true(o.p_win > 5.0 / 12 - 1e-12 && o.p_win < 5.0 / 12 + 1e-12);
    assert_true(o.margin > 1.6 - 1e-12 && o.margin < 1.6 + 1e-12);
    const struct {
        int an;
        em_pool_mode_t am;
        int dn, base, sn;
    } cases[] = {{2, EPOOL_FULL, 2, 2, 1}, {3, EPOOL_CRITS1, 2, 0, 1}, {2, EPOOL_CRITS2, 2, 3, 2},
                 {3, EPOOL_FULL, 1, 1, 2}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        em_odds_t e = brute(cases[k].an, cases[k].am, cases[k].dn, cases[k].base, cases[k].sn);
        em_odds_t g = em_odds(cases[k].an, cases[k].am, cases[k].dn, 0, cases[k].base, cases[k].sn);
        assert_true(g.p_win > e.p_win - 1e-9 && g.p_win < e.p_win + 1e-9);
        assert_true(g.margin > e.margin - 1e-9 && g.margin < e.margin + 1e-9);
        assert_true(g.wounds > e.wounds - 1e-9 && g.wounds < e.wounds + 1e-9);
    }
    /* A defence already rolled is a fixed number. */
    em_odds_t fixed = em_odds(2, EPOOL_FULL, 0, 2, 0, 0);
    double dist[2 * EM_POOL_MAX + 1];
    em_pool_dist(2, EPOOL_FULL, dist);
    double want = 0.0;
    for (int k = 3; k <= 4; k++)
        want += dist[k];
    assert_true(fixed.p_win > want - 1e-12 && fixed.p_win < want + 1e-12);
}

/* ---- order and phases ------------------------------------------------------------- */

static void test_initiative_by_insight_ties_rolled(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(16, 6, "emcore", NULL);
    int a = add(f.m, "a", "players", 1, 1, "sword", "insight=2");
    int b = add(f.m, "b", "players", 1, 3, "sword", "insight=4");
    int c = add(f.m, "c", "brigands", 14, 1, "sword", "insight=2");
    int d = add(f.m, "d", "brigands", 14, 3, "sword", "insight=1,initiative_bonus=2");
    f.db = weapons();
    /* Levels: a 2, b 4, c 2, d 1 + 2 = 3. a and c tie and roll Insight
     * (2 dice each): a 2, 3 is none, c 10, 5 is two successes. */
    fx_start(&f.p, f.m, f.db, FX_DICE(2, 3, 10, 5));
    const em_state_t *s = st_of(&f);
    assert_int_equal(s->n_order, 4);
    assert_int_equal(s->order[0], b);
    assert_int_equal(s->order[1], d);
    assert_int_equal(s->order[2], c);
    assert_int_equal(s->order[3], a);
    expect(&f, 0, "\"initiative\"", "\"id\":\"c\"", "\"rank\":3");
    fx_free(&f);
}

static void test_groups_are_connected(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(20, 8, "emcore", NULL);
    int a = add(f.m, "a", "players", 2, 2, "sword", "insight=5");
    int b = add(f.m, "b", "brigands", 3, 2, "sword", "insight=4");
    int c = add(f.m, "c", "players", 4, 2, "sword", "insight=3");
    int d = add(f.m, "d", "players", 10, 5, "sword", "insight=2");
    int e = add(f.m, "e", "brigands", 11, 5, "sword", "insight=1");
    int g = add(f.m, "g", "brigands", 17, 7, "sword", "insight=0");
    start(&f);
    const em_state_t *s = st_of(&f);
    assert_int_equal(em_phase(f.p.b), EP_IMMEDIATE);
    assert_true(s->group[a] > 0 && s->group[a] == s->group[b] && s->group[b] == s->group[c]);
    assert_true(s->group[d] > 0 && s->group[d] == s->group[e] && s->group[d] != s->group[a]);
    assert_int_equal(s->group[g], 0);
    /* The Architect's characters declare first (E7). */
    int act[8];
    int n = f.p.rs->actors(f.p.b, act, 8);
    assert_int_equal(n, 5);
    assert_int_equal(act[0], b);
    assert_int_equal(act[1], e);
    assert_int_equal(act[2], a);
    fx_free(&f);
}

/* Knight (force 4: 3 dice, might 2, sword +1) against a brigand (force 3). */
static void duel(fx_t *f)
{
    f->m = fx_map(10, 4, "emcore", NULL);
    add(f->m, "knight", "players", 2, 1, "sword", "force=4,insight=2,fortitude=4,might=2,armor=2,health=7");
    add(f->m, "brig", "brigands", 3, 1, "sword", "force=3,insight=1,fortitude=3");
    start(f);
}

static void test_declarations_hidden_until_resolved(void **state)
{
    (void)state;
    fx_t f;
    duel(&f);
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_NO_DICE), BATTLE_OK);
    /* The brigand's choice is made and paid for, but nothing of it shows. */
    assert_int_equal(FX_FIND(f.p.b, 0, "\"declare\""), -1);
    assert_int_equal(st_of(&f)->points[1], 1);
    int before = f.p.b->log.n;
    /* Knight 10,8,2 = 3; brigand 9,3,4 = 1. The knight wins by 2: might 2 +
     * sword 1 + 2 = 5; the brigand soaks 8,2,2 = 1 and takes 4 wounds. */
    assert_int_equal(fx_do(&f.p, fx_declare(0, 1, 0), FX_DICE(10, 8, 2, 9, 3, 4, 8, 2, 2)), BATTLE_OK);
    int k = FX_FIND(f.p.b, before, "\"declare\"", "\"knight\"");
    int k2 = FX_FIND(f.p.b, before, "\"declare\"", "\"id\":\"brig\"");
    int r = FX_FIND(f.p.b, before, "\"roll\"", "fight on brig");
    assert_true(k >= 0 && k2 > k && r > k2);
    expect(&f, r, "\"attack\"", "\"attacker\":\"knight\"", "\"hit\":true");
    expect(&f, r, "\"damage\"", "\"target\":\"brig\"", "\"amount\":4");
    expect(&f, r, "\"attack\"", "\"attacker\":\"brig\"", "\"hit\":false");
    assert_int_equal(f.p.b->u[1].hp, 2);
    assert_int_equal(em_phase(f.p.b), EP_MOVEMENT);
    fx_free(&f);
}

static void test_tie_deals_nothing(void **state)
{
    (void)state;
    fx_t f;
    duel(&f);
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, fx_declare(0, 1, 0), FX_DICE(8, 2, 2, 9, 3, 4)), BATTLE_OK);
    expect(&f, 0, "\"attack\"", "\"attacker\":\"knight\"", "\"hit\":false");
    expect(&f, 0, "\"attack\"", "\"attacker\":\"brig\"", "\"hit\":false");
    expect_none(&f, "\"damage\"", NULL);
    fx_free(&f);
}

static void test_one_roll_defends_against_all(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 4, "emcore", NULL);
    int a = add(f.m, "a", "players", 2, 1, "sword", "force=2,insight=3");
    int b = add(f.m, "b", "brigands", 3, 1, "sword", "force=2,insight=2,fortitude=6");
    int c = add(f.m, "c", "players", 4, 1, "sword", "force=2,insight=1");
    start(&f);
    assert_int_equal(fx_do(&f.p, fx_declare(b, a, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, fx_declare(a, b, 0), FX_NO_DICE), BATTLE_OK);
    /* a 8,2 = 1; b 10,2 = 2; c 10,9 = 3. b beats a, c beats b: b wounds one
     * foe and is wounded by another. Soaks: a 2 (one die); b 2,2,2,2. */
    assert_int_equal(fx_do(&f.p, fx_declare(c, b, 0), FX_DICE(8, 2, 10, 2, 10, 9, 2, 2, 2, 2, 2)),
                     BATTLE_OK);
    expect(&f, 0, "\"attack\"", "\"attacker\":\"a\"", "\"hit\":false");
    expect(&f, 0, "\"attack\"", "\"attacker\":\"b\"", "\"hit\":true");
    expect(&f, 0, "\"attack\"", "\"attacker\":\"c\"", "\"hit\":true");
    /* b on a: might 1 + 1 + margin 1 = 3; c on b: 1 + 1 + 1 = 3. */
    expect(&f, 0, "\"damage\"", "\"target\":\"a\"", "\"amount\":3");
    expect(&f, 0, "\"damage\"", "\"target\":\"b\"", "\"amount\":3");
    fx_free(&f);
}

static void test_disengage(void **state)
{
    (void)state;
    fx_t f;
    duel(&f);
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_NO_DICE), BATTLE_OK);
    /* The knight breaks off (adeptness 0: 1 die) with an 8: one success, and
     * that success is its defence: the brigand's 1 does not beat it. */
    assert_int_equal(fx_do(&f.p, disengage(0), FX_DICE(8, 9, 3, 4)), BATTLE_OK);
    expect(&f, 0, "\"declare\"", "\"knight\"", "\"disengage\"");
    expect(&f, 0, "\"roll\"", "\"why\":\"disengage\"", NULL);
    expect(&f, 0, "\"attack\"", "\"attacker\":\"brig\"", "\"hit\":false");
    expect(&f, 0, "\"action\"", "\"disengage\"", "\"ok\":true");
    assert_true(st_of(&f)->free_of[0]);
    assert_false(f.p.b->u[0].cond & EC_ENGAGED);
    fx_free(&f);
}

/* After a fight the spare point buys a step or a minor action (E3): with
 * Movement 2 the points would pay for an aim or an Evasion, and the action
 * bar greys both with the reason instead. */
static void test_spare_point_refusals(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 4, "emcore", NULL);
    add(f.m, "archer", "players", 2, 1, "shortbow,dagger", "force=2,adeptness=4,insight=3,movement=2");
    add(f.m, "brig", "brigands", 3, 1, "sword", "force=3,insight=1");
    start(&f);
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, fx_declare(0, 1, 1), FX_DICE(2, 2, 2, 2, 2)), BATTLE_OK);
    assert_int_equal(st_of(&f)->points[0], 1);
    refusal_t r[4];
    int n = f.p.rs->refused(f.p.b, 0, r, 4);
    bool aim = false, evade = false;
    for (int k = 0; k < n; k++) {
        aim = aim || (r[k].cmd.kind == CMD_COMMIT && strstr(r[k].why, "fought this turn"));
        evade = evade || (r[k].cmd.kind == CMD_EVADE && strstr(r[k].why, "fought this turn"));
    }
    assert_true(aim);
    assert_true(evade);
    cmd_t legal[64];
    int nl = f.p.rs->legal(f.p.b, 0, legal, 64);
    for (int k = 0; k < nl && k < 64; k++) {
        assert_int_not_equal(legal[k].kind, CMD_COMMIT);
        assert_int_not_equal(legal[k].kind, CMD_EVADE);
        if (legal[k].kind == CMD_MOVE)
            assert_true(legal[k].arg == EM_HASTY || legal[k].arg == EM_FORCED);
    }
    fx_free(&f);
}

static void test_points_and_slots(void **state)
{
    (void)state;
    fx_t f;
    duel(&f);
    assert_int_equal(fx_do(&f.p, fx_declare(1, 0, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, fx_declare(0, 1, 0), FX_DICE(2, 2, 2, 2, 2, 2)), BATTLE_OK);
    /* The fight cost M - 1: one point left each for the Movement phase. */
    assert_int_equal(st_of(&f)->points[0], 1);
    assert_int_equal(st_of(&f)->actor, 0);
    /* Two hexes cost two points: refused. */
    assert_int_equal(fx_do(&f.p, MOVE(0, EM_HASTY, 1, 1, 0, 1), FX_NO_DICE), BATTLE_ILLEGAL);
    assert_int_equal(fx_do(&f.p, MOVE(0, EM_HASTY, 1, 1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(st_of(&f)->points[0], 0);
    assert_int_equal(fx_do(&f.p, end(0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(st_of(&f)->actor, 1);
    assert_int_equal(fx_do(&f.p, end(1), FX_NO_DICE), BATTLE_OK);
    /* No Committed action: on to the next turn, points back to M (E20). */
    assert_int_equal(f.p.b->round, 2);
    assert_int_equal(st_of(&f)->points[0], 4);
    fx_free(&f);
}

/* Archer (adeptness 4: 3 dice) at range of a brigand that cannot dodge (its
 * side declines every reaction). */
static void range(fx_t *f, const char *terrain_row)
{
    const char *rows[4] = {"..........", terrain_row, "..........", ".........."};
    f->m = fx_map(10, 4, "emcore", rows);
    add(f->m, "archer", "players", 1, 1, "shortbow,dagger,crossbow", "adeptness=4,insight=3,movement=5");
    add(f->m, "brig", "brigands", 8, 1, "sword", "force=3,adeptness=3,insight=1,health=10");
    f->db = weapons();
    battle_opts_t o = {.seed = 1, .manual_all = true, .decline_sides = 2};
    battle_status_t st = play_start(&f->p, f->m, f->db, NULL, &o);
    assert_int_equal(fx_feed(&f->p, st, NULL, 0), BATTLE_OK);
}

/* An attack (a shot in the Movement phase, aimed in the Commitment phase). */
static cmd_t shot(int a, int t, int w) { return fx_engage(a, t, w); }

static void test_hasty_shot_counts_crits_once(void **state)
{
    (void)state;
    fx_t f;
    range(&f, "..........");
    assert_int_equal(em_phase(f.p.b), EP_MOVEMENT);
    /* The bow needs an arrow first. */
    assert_int_equal(fx_do(&f.p, shot(0, 1, 0), FX_NO_DICE), BATTLE_ILLEGAL);
    cmd_t nock = cmd_make(CMD_NOCK, 0);
    nock.weapon = 0;
    assert_int_equal(fx_do(&f.p, nock, FX_NO_DICE), BATTLE_OK);
    /* 9, 10, 8 would be 4 successes; hasty, only the 10 counts, as one. No
     * base damage: 1 wound unless soaked (fortitude 0: one die, a 2). */
    assert_int_equal(fx_do(&f.p, shot(0, 1, 0), FX_DICE(9, 10, 8, 2)), BATTLE_OK);
    expect(&f, 0, "\"roll\"", "hasty shot on brig", "\"successes\":1");
    expect(&f, 0, "\"damage\"", "\"target\":\"brig\"", "\"amount\":1");
    assert_int_equal(st_of(&f)->points[0], 3);
    /* The arrow is gone; the crossbow is for aimed shots only. */
    assert_int_equal(fx_do(&f.p, shot(0, 1, 0), FX_NO_DICE), BATTLE_ILLEGAL);
    assert_int_equal(fx_do(&f.p, shot(0, 1, 2), FX_NO_DICE), BATTLE_ILLEGAL);
    fx_free(&f);
}

static void test_committed_fires_in_commitment_phase(void **state)
{
    (void)state;
    fx_t f;
    range(&f, "..........");
    assert_int_equal(fx_do(&f.p, commit(0, 2), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(st_of(&f)->points[0], 1);
    assert_true(f.p.b->u[0].cond & EC_COMMITTED);
    assert_int_equal(fx_do(&f.p, end(0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, end(1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(em_phase(f.p.b), EP_COMMITMENT);
    assert_int_equal(st_of(&f)->actor, 0);
    /* 10, 8, 2: 3 successes; base 3 + 3 = 6; soak 2. */
    assert_int_equal(fx_do(&f.p, shot(0, 1, 2), FX_DICE(10, 8, 2, 2)), BATTLE_OK);
    expect(&f, 0, "\"roll\"", "aimed shot on brig", "\"successes\":3");
    expect(&f, 0, "\"damage\"", "\"target\":\"brig\"", "\"amount\":6");
    assert_int_equal(f.p.b->round, 2);
    fx_free(&f);
}

static void test_run_spoils_commit_hasty_step_keeps_it(void **state)
{
    (void)state;
    fx_t f;
    range(&f, "..........");
    assert_int_equal(fx_do(&f.p, MOVE(0, EM_HASTY, 1, 2), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, commit(0, 2), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(st_of(&f)->points[0], 0);
    /* Out of points: one hex more for Willpower, which spoils the aim. */
    assert_int_equal(fx_do(&f.p, MOVE(0, EM_FORCED, 0, 2), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(f.p.b->u[0].stat[ES_WILLPOWER], 1);
    assert_false(f.p.b->u[0].cond & EC_COMMITTED);
    expect(&f, 0, "\"stat\"", "\"willpower\"", "\"value\":1");
    fx_free(&f);
}

static void test_cover_only_crits_count_two(void **state)
{
    (void)state;
    fx_t f;
    range(&f, ".......^..");
    assert_int_equal(fx_do(&f.p, end(0), FX_NO_DICE), BATTLE_OK);
    /* The brigand stands beside rubble: cover (adeptness 3: 3 dice, 8,2,3 = 1). */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_COVER, 1), FX_DICE(8, 2, 3)), BATTLE_OK);
    assert_true(f.p.b->u[1].cond & EC_COVER);
    /* Taking cover is its last action: its slot is over, and with it the
     * turn; the cover lasts into the next turn until its own slot (E15). */
    assert_int_equal(f.p.b->round, 2);
    assert_int_equal(st_of(&f)->actor, 0);
    assert_true(f.p.b->u[1].cond & EC_COVER);
    assert_int_equal(fx_do(&f.p, end(0), FX_NO_DICE), BATTLE_OK);
    assert_false(f.p.b->u[1].cond & EC_COVER);
    fx_free(&f);
}

static void test_cover_against_aimed_shot(void **state)
{
    (void)state;
    fx_t f;
    range(&f, ".......^..");
    assert_int_equal(fx_do(&f.p, commit(0, 2), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, end(0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_COVER, 1), FX_DICE(8, 2, 3)), BATTLE_OK);
    assert_int_equal(em_phase(f.p.b), EP_COMMITMENT);
    /* 9, 9, 10 would be 4; against cover only the 10 counts, as two: 2 > 1,
     * margin 1: base 3 + 1 = 4, soak 2. */
    assert_int_equal(fx_do(&f.p, shot(0, 1, 2), FX_DICE(9, 9, 10, 2)), BATTLE_OK);
    expect(&f, 0, "\"roll\"", "aimed shot on brig", "\"successes\":2");
    expect(&f, 0, "\"damage\"", "\"target\":\"brig\"", "\"amount\":4");
    fx_free(&f);
}

static void test_cover_needs_cover_about(void **state)
{
    (void)state;
    fx_t f;
    range(&f, "..........");
    assert_int_equal(fx_do(&f.p, end(0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_COVER, 1), FX_NO_DICE), BATTLE_ILLEGAL);
    fx_free(&f);
}

static void test_evasion_and_dodge(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 4, "emcore", NULL);
    add(f.m, "archer", "players", 1, 1, "crossbow", "adeptness=4,insight=3");
    add(f.m, "brig", "brigands", 8, 1, "sword", "adeptness=2,insight=1,willpower=1");
    start(&f);
    assert_int_equal(fx_do(&f.p, commit(0, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, end(0), FX_NO_DICE), BATTLE_OK);
    /* Evasion (M/2 = 2 points), 10, 2: 2 successes for the rest of the turn. */
    assert_int_equal(fx_do(&f.p, cmd_make(CMD_EVADE, 1), FX_DICE(10, 2)), BATTLE_OK);
    assert_int_equal(st_of(&f)->points[1], 2);
    assert_int_equal(fx_do(&f.p, end(1), FX_NO_DICE), BATTLE_OK);
    /* 10, 8, 2 = 3 beats 2 by 1: no dodge is offered, Evasion stands. */
    assert_int_equal(fx_do(&f.p, shot(0, 1, 0), FX_DICE(10, 8, 2, 2)), BATTLE_OK);
    expect_none(&f, "\"reaction\"", NULL);
    expect(&f, 0, "\"damage\"", "\"target\":\"brig\"", "\"amount\":4");
    fx_free(&f);
}

/* An archer with a crossbow takes an aimed shot at a brigand that walked
 * `steps` hexes of its 4 points in the open. */
static void walked_into_a_shot(fx_t *f, int steps, const char *brig_stats)
{
    f->m = fx_map(10, 4, "emcore", NULL);
    add(f->m, "archer", "players", 1, 1, "crossbow", "adeptness=4,insight=3");
    add(f->m, "brig", "brigands", 3, 1, "sword", brig_stats);
    start(f);
    assert_int_equal(fx_do(&f->p, commit(0, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f->p, end(0), FX_NO_DICE), BATTLE_OK);
    cmd_t mv = cmd_make(CMD_MOVE, 1);
    for (int k = 0; k < steps; k++)
        mv.path[mv.n_path++] = (cell_t){4 + k, 1};
    assert_int_equal(fx_do(&f->p, mv, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f->p, end(1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(em_phase(f->p.b), EP_COMMITMENT);
}

static void test_dodge_for_a_point(void **state)
{
    (void)state;
    fx_t f;
    walked_into_a_shot(&f, 3, "adeptness=2,insight=1,health=20");
    /* A point left: it dodges (2 dice, 9, 9: 2) the shot's 10, 8, 2 (3). */
    assert_int_equal(fx_do(&f.p, shot(0, 1, 0), FX_DICE(10, 8, 2, 9, 9, 2)), BATTLE_OK);
    int r = FX_FIND(f.p.b, 0, "\"reaction\"", "\"kind\":\"dodge\"");
    int a = FX_FIND(f.p.b, 0, "\"roll\"", "aimed shot");
    assert_true(r >= 0 && a > r); /* chosen before anyone rolls */
    expect(&f, a, "\"roll\"", "\"why\":\"dodge\"", "\"successes\":2");
    expect(&f, a, "\"damage\"", "\"target\":\"brig\"", "\"amount\":4");
    fx_free(&f);
}

static void test_dodge_for_willpower(void **state)
{
    (void)state;
    fx_t f;
    walked_into_a_shot(&f, 4, "adeptness=2,insight=1,health=3,willpower=1");
    /* No point left, and the shot could take its last wounds: it spends
     * its Willpower on a forced dodge (E19). 2, 2 saves nothing. */
    assert_int_equal(fx_do(&f.p, shot(0, 1, 0), FX_DICE(10, 8, 2, 2, 2, 2)), BATTLE_OK);
    expect(&f, 0, "\"reaction\"", "\"dodge_willpower\"", NULL);
    expect(&f, 0, "\"stat\"", "\"willpower\"", "\"value\":0");
    expect(&f, 0, "\"defeated\"", "\"brig\"", NULL);
    fx_free(&f);
}

static void test_no_dodge_when_healthy_and_out_of_points(void **state)
{
    (void)state;
    fx_t f;
    walked_into_a_shot(&f, 4, "adeptness=2,insight=1,health=20,willpower=1");
    assert_int_equal(fx_do(&f.p, shot(0, 1, 0), FX_DICE(10, 2, 2, 2)), BATTLE_OK);
    expect_none(&f, "\"reaction\"", NULL);
    expect(&f, 0, "\"attack\"", "\"attacker\":\"archer\"", "\"hit\":true");
    fx_free(&f);
}

/* A readied blow is priced as the blow it is (Might, the sword and the
 * margin, all successes counting), like any attack the AI is asked to
 * dodge: out of points, the brigand spends its Willpower on a forced dodge
 * of the knight's readied blow that could take its last wounds (E18, E19). */
static void test_ai_dodges_a_readied_blow(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 4, "emcore", NULL);
    add(f.m, "knight", "players", 1, 1, "sword", "force=4,might=2,insight=3");
    add(f.m, "brig", "brigands", 6, 1, "sword", "adeptness=2,fortitude=1,insight=1,health=3,willpower=1");
    start(&f);
    cmd_t rd = cmd_make(CMD_STANDBY, 0);
    rd.arg = TRIG_ENTERS_REACH;
    rd.act = CMD_ENGAGE;
    rd.weapon = 0;
    assert_int_equal(fx_do(&f.p, rd, FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, end(0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, end(1), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, end(0), FX_NO_DICE), BATTLE_OK);
    /* Four hexes for its four points, the last into the sword's reach. The
     * blow 10, 8, 2 (3) against the dodge 2, 2 (0): 2 + 1 + 3 = 6, soak 2, 2. */
    assert_int_equal(fx_do(&f.p, MOVE(1, EM_HASTY, 5, 1, 4, 1, 3, 1, 2, 1),
                           FX_DICE(10, 8, 2, 2, 2, 2, 2)),
                     BATTLE_OK);
    expect(&f, 0, "\"reaction\"", "\"kind\":\"readied\"", NULL);
    expect(&f, 0, "\"reaction\"", "\"dodge_willpower\"", NULL);
    expect(&f, 0, "\"stat\"", "\"willpower\"", "\"value\":0");
    expect(&f, 0, "\"roll\"", "\"why\":\"dodge\"", NULL);
    fx_free(&f);
}

/* The AI in the Immediate phase decides from what it may know: whatever the
 * players have declared before it (the referee may pick them first), its
 * choice is the one it makes with nothing declared. */
static void test_ai_blind_to_declarations(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 5, "emcore", NULL);
    int p1 = add(f.m, "p1", "players", 3, 1, "sword,spear", "force=3,adeptness=2,insight=4");
    int p2 = add(f.m, "p2", "players", 5, 1, "sword", "force=2,adeptness=4,insight=3,health=3");
    int b1 = add(f.m, "b1", "brigands", 4, 1, "sword", "force=3,adeptness=3,insight=2");
    int b2 = add(f.m, "b2", "brigands", 4, 2, "spear", "force=2,adeptness=3,insight=1");
    start(&f);
    cmd_t base1, base2;
    f.p.rs->ai(f.p.b, b1, &base1);
    f.p.rs->ai(f.p.b, b2, &base2);
    assert_int_equal(base1.kind, CMD_DECLARE);
    cmd_t l1[32], l2[32];
    int n1 = f.p.rs->legal(f.p.b, p1, l1, 32), n2 = f.p.rs->legal(f.p.b, p2, l2, 32);
    assert_true(n1 >= 3 && n2 >= 3);
    int tried = 0;
    for (int i = 0; i < n1; i++)
        for (int j = 0; j < n2; j++) {
            while (f.p.b->cmds.n > 0)
                play_undo(&f.p);
            assert_int_equal(play_apply(&f.p, &l1[i]), BATTLE_OK);
            assert_int_equal(play_apply(&f.p, &l2[j]), BATTLE_OK);
            cmd_t c1, c2;
            f.p.rs->ai(f.p.b, b1, &c1);
            f.p.rs->ai(f.p.b, b2, &c2);
            assert_int_equal(c1.act, base1.act);
            assert_int_equal(c1.target, base1.target);
            assert_int_equal(c1.weapon, base1.weapon);
            assert_int_equal(c2.act, base2.act);
            assert_int_equal(c2.target, base2.target);
            assert_int_equal(c2.weapon, base2.weapon);
            tried++;
        }
    assert_int_equal(tried, n1 * n2);
    (void)p1;
    (void)p2;
    fx_free(&f);
}

/* The AI with a bow: an aimed shot when a foe is in range, then cover with
 * its last point when enemy shooters can see it and cover is about. */
static void test_ai_commits_then_takes_cover(void **state)
{
    (void)state;
    fx_t f;
    const char *rows[4] = {"..........", ".^........", "..........", ".........."};
    f.m = fx_map(10, 4, "emcore", rows);
    int a = add(f.m, "archer", "players", 1, 2, "shortbow", "adeptness=4,insight=3,movement=5");
    add(f.m, "bow", "brigands", 8, 2, "shortbow", "adeptness=3,insight=1");
    start(&f);
    cmd_t c = ai(&f, a);
    assert_int_equal(c.kind, CMD_COMMIT);
    assert_int_equal(fx_do(&f.p, c, FX_NO_DICE), BATTLE_OK);
    c = ai(&f, a);
    assert_int_equal(c.kind, CMD_COVER);
    fx_free(&f);
}

/* The AI with a sword charges a lone shooter in the open, but not into a
 * crowd of foes that outnumber it. */
static void test_ai_charges_only_where_not_outnumbered(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(14, 5, "emcore", NULL);
    int a = add(f.m, "brute", "brigands", 2, 2, "sword", "force=4,insight=3");
    int t = add(f.m, "archer", "players", 8, 2, "shortbow", "adeptness=3,insight=1");
    start(&f);
    cmd_t c = ai(&f, a);
    assert_int_equal(c.kind, CMD_MOVE);
    assert_int_equal(c.arg, EM_CHARGE);
    hex_t end = hex_from_cell(f.m->layout, c.path[c.n_path - 1]);
    assert_int_equal(hex_distance(end, f.p.b->board->pos[t]), 1);
    fx_free(&f);

    f.m = fx_map(14, 5, "emcore", NULL);
    a = add(f.m, "brute", "brigands", 2, 2, "sword", "force=4,insight=4");
    add(f.m, "archer", "players", 8, 2, "shortbow", "adeptness=3,insight=1");
    add(f.m, "k1", "players", 9, 1, "sword", "force=3,insight=0");
    add(f.m, "k2", "players", 9, 3, "sword", "force=3,insight=2");
    start(&f);
    c = ai(&f, a);
    assert_false(c.kind == CMD_MOVE && c.arg == EM_CHARGE);
    fx_free(&f);
}

/* The AI runs where no foe can come at it before its next slot (a fall
 * then costs only the points to get up, so a two-dice pool may run a few
 * points), stopping out of the foe's charge; where a foe could catch it, a
 * target of opportunity, it moves hastily instead. */
static void test_ai_runs_only_with_a_safe_pool(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        fx_t f;
        f.m = fx_map(22, 3, "emcore", NULL);
        int a = add(f.m, "runner", "brigands", 0, 1, "sword",
                    k == 0 ? "force=3,adeptness=9,insight=3,movement=6"
                           : "force=3,adeptness=2,insight=3,movement=6");
        add(f.m, "foe", "players", k == 2 ? 15 : 19, 1, "sword", "force=3,insight=1");
        start(&f);
        cmd_t c = ai(&f, a);
        assert_int_equal(c.kind, CMD_MOVE);
        hex_t end = hex_from_cell(f.m->layout, c.path[c.n_path - 1]);
        if (k < 2) {
            assert_int_equal(c.arg, EM_RUN);
            /* It stops out of the foe's charge: 2 hexes a point for 3 points
             * (one kept for the blow), plus the sword's reach. */
            assert_true(hex_distance(end, f.p.b->board->pos[1]) > 7);
            /* A two-dice pool runs no more than 4 points (a fall about one
             * time in three). */
            if (k == 1)
                assert_true(c.n_path <= 8);
        } else {
            assert_int_equal(c.arg, EM_HASTY); /* the foe could strike it running */
        }
        fx_free(&f);
    }
}

/* Out of every foe's sight with a point to spare, the AI nocks its bow for a
 * later hasty shot; with no foe in range but one that could come within it
 * next turn, it readies a shot for that moment. */
static void test_ai_nocks_and_readies_a_shot(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(60, 3, "emcore", NULL);
    int a = add(f.m, "archer", "players", 1, 1, "shortbow", "adeptness=4,insight=3,movement=5");
    add(f.m, "foe", "brigands", 36, 1, "sword", "force=3,insight=1");
    start(&f);
    cmd_t c = ai(&f, a);
    assert_int_equal(c.kind, CMD_STANDBY);
    assert_int_equal(c.arg, TRIG_ENTERS_REACH);
    assert_int_equal(c.weapon, 0);
    assert_int_equal(fx_do(&f.p, c, FX_NO_DICE), BATTLE_OK);
    fx_free(&f);

    f.m = fx_map(60, 3, "emcore", NULL);
    a = add(f.m, "archer", "players", 1, 1, "shortbow", "adeptness=4,insight=3,movement=5");
    add(f.m, "foe", "brigands", 50, 1, "sword", "force=3,insight=1");
    start(&f);
    /* Too far for anything: it closes in, then nocks with the point it kept. */
    c = ai(&f, a);
    assert_int_equal(c.kind, CMD_MOVE);
    assert_int_equal(fx_do(&f.p, c, FX_NO_DICE), BATTLE_OK);
    c = ai(&f, a);
    assert_int_equal(c.kind, CMD_NOCK);
    fx_free(&f);
}

/* With no cover about, the AI evades two shooters (one roll against both)
 * rather than keep a point to dodge one; against one it keeps the point. It
 * stands on a ledge it cannot leave (a chasm all round, no cover). */
static void test_ai_evades_many_shooters(void **state)
{
    (void)state;
    for (int two = 0; two < 2; two++) {
        fx_t f;
        f.m = fx_map(16, 5, "emcore", NULL);
        fx_type(f.m, "chasm", 0, COVER_NONE, false, "");
        for (int r = 1; r <= 3; r++)
            for (int col = 0; col <= 2; col++)
                if (r != 2 || col != 1)
                    f.m->cells[r * 16 + col] = (uint8_t)(f.m->n_types - 1);
        int a = add(f.m, "mark", "players", 1, 2, "sword", "adeptness=3,insight=3");
        add(f.m, "bow1", "brigands", 14, 1, "shortbow", "adeptness=3,insight=1");
        if (two)
            add(f.m, "bow2", "brigands", 14, 3, "shortbow", "adeptness=3,insight=2");
        start(&f);
        assert_false(em_cover_allowed(f.p.b, a));
        cmd_t c = ai(&f, a);
        assert_int_equal(c.kind, two ? CMD_EVADE : CMD_END);
        fx_free(&f);
    }
}

/* The AI disengages from a fight it would lose badly, and fights one it
 * can win. */
static void test_ai_weighs_the_contest(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 4, "emcore", NULL);
    int weak = add(f.m, "weak", "brigands", 2, 1, "sword", "force=0,adeptness=5,fortitude=0,insight=2,health=2");
    add(f.m, "ogre", "players", 3, 1, "sword", "force=8,might=6,insight=1");
    start(&f);
    cmd_t c = ai(&f, weak);
    assert_int_equal(c.kind, CMD_DECLARE);
    assert_int_equal(c.act, CMD_DISENGAGE);
    fx_free(&f);

    f.m = fx_map(10, 4, "emcore", NULL);
    int strong = add(f.m, "strong", "brigands", 2, 1, "sword", "force=8,might=4,insight=2");
    int foe = add(f.m, "foe", "players", 3, 1, "sword", "force=1,adeptness=1,insight=1");
    start(&f);
    c = ai(&f, strong);
    assert_int_equal(c.act, CMD_ENGAGE);
    assert_int_equal(c.target, foe);
    fx_free(&f);
}

/* Readied actions in the legal list, on every trigger emcore can see (the
 * moments too, "declares" never), blows, spells and moves, each named by
 * the action-label hook. */
static void test_ready_choices_and_labels(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(12, 4, "emcore", NULL);
    int mystic = add(f.m, "mystic", "players", 2, 1, "firebolt,spear", "spirit=4,insight=3");
    add(f.m, "brig", "brigands", 9, 1, "sword", "insight=1");
    start(&f);
    cmd_t l[512];
    int n = f.p.rs->legal(f.p.b, mystic, l, 512);
    assert_true(n <= 512);
    int seen[TRIG_END][3] = {{0}}; /* per trigger: blow, spell, move */
    char label[128];
    for (int k = 0; k < n; k++) {
        if (l[k].kind != CMD_STANDBY)
            continue;
        assert_true(l[k].arg >= 0 && l[k].arg < TRIG_END);
        assert_true(f.p.rs->describe(f.p.b, &l[k], label, sizeof label));
        int kind = l[k].act == CMD_MOVE ? 2 : l[k].weapon == 0 ? 1 : 0;
        seen[l[k].arg][kind]++;
        if (l[k].arg == TRIG_ROUND_STARTS && kind == 2)
            assert_string_equal(label, "Ready a move (the round begins)");
        if (l[k].arg == TRIG_TURN_STARTS && kind == 1)
            assert_string_equal(label, "Ready spell: firebolt (enemy's turn begins)");
        if (l[k].arg == TRIG_ENTERS_REACH && kind == 0 && l[k].weapon == 1)
            assert_string_equal(label, "Ready blow: spear (enemy comes in reach)");
    }
    /* Every trigger but a hidden declaration, and an ally's deeds (activation's). */
    for (int t = 0; t < TRIG_END; t++)
        for (int kind = 0; kind < 3; kind++)
            if ((seen[t][kind] > 0) !=
                (t != TRIG_DECLARES && t != TRIG_ALLY_HITS && t != TRIG_ALLY_TARGETS))
                fail_msg("trigger %d, kind %d: %d offered", t, kind, seen[t][kind]);
    fx_free(&f);
}

/* The tracker's order through the queue hook: the engagements in the
 * Immediate phase, the initiative order with points in the Movement phase,
 * the aimed shots still to go in the Commitment phase. */
static void test_queue_follows_the_phase(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(16, 6, "emcore", NULL);
    int k1 = add(f.m, "k1", "players", 2, 1, "sword", "insight=4");
    int b1 = add(f.m, "b1", "brigands", 3, 1, "sword", "insight=1");
    int k2 = add(f.m, "k2", "players", 10, 4, "sword", "insight=3");
    int b2 = add(f.m, "b2", "brigands", 11, 4, "sword", "insight=2");
    int bow = add(f.m, "bow", "players", 6, 4, "shortbow", "insight=5,adeptness=3");
    start(&f);
    turn_slot_t q[QUEUE_MAX];
    assert_non_null(f.p.rs->queue);
    int n = ruleset_queue(f.p.rs, f.p.b, q, QUEUE_MAX);
    assert_int_equal(n, 4); /* two engagements of two, the archer in none */
    assert_int_equal(q[0].who, k1);
    assert_int_equal(q[1].who, b1);
    assert_int_equal(q[2].who, k2);
    assert_int_equal(q[3].who, b2);
    assert_string_equal(q[0].label, "melee 1");
    assert_string_equal(q[3].label, "melee 2");
    assert_int_equal(fx_do(&f.p, fx_declare(b1, k1, 0), FX_NO_DICE), BATTLE_OK);
    n = ruleset_queue(f.p.rs, f.p.b, q, QUEUE_MAX);
    assert_string_equal(q[1].label, "melee 1, declared");
    assert_int_equal(fx_do(&f.p, fx_declare(b2, k2, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, fx_declare(k1, b1, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, fx_declare(k2, b2, 0), FX_DICE(2, 2, 2, 2)), BATTLE_OK);
    /* Movement: the initiative order, the archer first with all its points. */
    n = ruleset_queue(f.p.rs, f.p.b, q, QUEUE_MAX);
    assert_int_equal(n, 5);
    int want[5] = {bow, k1, k2, b2, b1};
    for (int k = 0; k < 5; k++)
        assert_int_equal(q[k].who, want[k]);
    assert_string_equal(q[0].label, "4 pts");
    assert_string_equal(q[1].label, "1 pt"); /* fought: one point left */
    assert_int_equal(fx_do(&f.p, commit(bow, 0), FX_NO_DICE), BATTLE_OK);
    assert_int_equal(fx_do(&f.p, end(bow), FX_NO_DICE), BATTLE_OK);
    n = ruleset_queue(f.p.rs, f.p.b, q, QUEUE_MAX);
    assert_int_equal(n, 4);
    assert_int_equal(q[0].who, k1);
    for (int k = 0; k < 4; k++)
        assert_int_equal(fx_do(&f.p, end(want[k + 1]), FX_NO_DICE), BATTLE_OK);
    /* Commitment: the archer's aimed shot alone. */
    n = ruleset_queue(f.p.rs, f.p.b, q, QUEUE_MAX);
    assert_int_equal(n, 1);
    assert_int_equal(q[0].who, bow);
    assert_string_equal(q[0].label, "aims shortbow");
    fx_free(&f);
}

/* Range bands through the hook: reach, a throw and a shot, saying how a
 * shot counts (hasty or aimed); the text has no bands by distance. */
static void test_bands_say_how_shots_count(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "emcore", NULL);
    add(f.m, "a", "players", 1, 1, "dagger,shortbow,crossbow,spear", "insight=2");
    add(f.m, "t", "brigands", 6, 1, "sword", "insight=1");
    start(&f);
    const battle_t *b = f.p.b;
    range_band_t band[RANGE_BANDS_MAX];
    assert_non_null(f.p.rs->bands);
    const map_combatant_t *c = &b->map->combatants[0];
    int n = ruleset_bands(f.p.rs, b->map, f.db, c, b->u[0].weapon[0], &b->prof[0], band,
                          RANGE_BANDS_MAX);
    assert_int_equal(n, 2); /* the dagger: a blow, then a throw */
    assert_int_equal(band[0].hexes, 1);
    assert_int_equal(band[0].tier, RANGE_NEAR);
    assert_int_equal(band[1].hexes, 4);
    assert_int_equal(band[1].tier, RANGE_MID);
    assert_string_equal(band[1].label, "thrown to 20 ft: hasty crits, aimed all");
    n = ruleset_bands(f.p.rs, b->map, f.db, c, b->u[0].weapon[1], &b->prof[0], band,
                      RANGE_BANDS_MAX);
    assert_int_equal(n, 1);
    assert_int_equal(band[0].hexes, 30);
    assert_string_equal(band[0].label, "shot to 150 ft: hasty crits, aimed all");
    n = ruleset_bands(f.p.rs, b->map, f.db, c, b->u[0].weapon[2], &b->prof[0], band,
                      RANGE_BANDS_MAX);
    assert_int_equal(n, 1);
    assert_string_equal(band[0].label, "shot to 200 ft: aimed only");
    n = ruleset_bands(f.p.rs, b->map, f.db, c, b->u[0].weapon[3], &b->prof[0], band,
                      RANGE_BANDS_MAX);
    assert_int_equal(n, 1);
    assert_int_equal(band[0].hexes, 2);
    assert_string_equal(band[0].label, "melee reach 10 ft");
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_size_and_faces),
        cmocka_unit_test(test_odds_exact),
        cmocka_unit_test(test_initiative_by_insight_ties_rolled),
        cmocka_unit_test(test_groups_are_connected),
        cmocka_unit_test(test_declarations_hidden_until_resolved),
        cmocka_unit_test(test_tie_deals_nothing),
        cmocka_unit_test(test_one_roll_defends_against_all),
        cmocka_unit_test(test_disengage),
        cmocka_unit_test(test_spare_point_refusals),
        cmocka_unit_test(test_points_and_slots),
        cmocka_unit_test(test_hasty_shot_counts_crits_once),
        cmocka_unit_test(test_committed_fires_in_commitment_phase),
        cmocka_unit_test(test_run_spoils_commit_hasty_step_keeps_it),
        cmocka_unit_test(test_cover_only_crits_count_two),
        cmocka_unit_test(test_cover_against_aimed_shot),
        cmocka_unit_test(test_cover_needs_cover_about),
        cmocka_unit_test(test_evasion_and_dodge),
        cmocka_unit_test(test_dodge_for_a_point),
        cmocka_unit_test(test_dodge_for_willpower),
        cmocka_unit_test(test_no_dodge_when_healthy_and_out_of_points),
        cmocka_unit_test(test_ai_dodges_a_readied_blow),
        cmocka_unit_test(test_ai_blind_to_declarations),
        cmocka_unit_test(test_ai_commits_then_takes_cover),
        cmocka_unit_test(test_ai_charges_only_where_not_outnumbered),
        cmocka_unit_test(test_ai_weighs_the_contest),
        cmocka_unit_test(test_ai_runs_only_with_a_safe_pool),
        cmocka_unit_test(test_ai_nocks_and_readies_a_shot),
        cmocka_unit_test(test_ai_evades_many_shooters),
        cmocka_unit_test(test_ready_choices_and_labels),
        cmocka_unit_test(test_queue_follows_the_phase),
        cmocka_unit_test(test_bands_say_how_shots_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
