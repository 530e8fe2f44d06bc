/* test_activation.c - the activation ruleset's timeline, odds and AI as
 * properties: a fast actor acts more often by exactly the ratio of the
 * SPDs, Priority is capped, the forecast is what then happens, the accuracy
 * chance follows the stage multiplier, the Lift modifier rounds away from
 * zero, and the sample battle plays to an end, the same way for a seed.
 * The rulings one by one are the scenarios tests/scenarios/activation_*. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "io/map_io.h"
#include "rules/activation/act.h"
#include "rules_fixture.h"

static tmpl_db_t *actions(void)
{
    tmpl_db_t *db = fx_db("activation");
    fx_weapon(db, "strike", WPN_MELEE, false, 5, 0, 2, 6, 0, "acc=100,complex=1");
    fx_weapon(db, "shot", WPN_RANGED, false, 0, 30, 2, 6, 0, "acc=90,complex=1,category=1");
    /* A free action of Priority 5 that may be used again and again (A3's cap). */
    fx_weapon(db, "blink", WPN_RANGED, false, 0, 200, 0, 0, 0, "free=1,priority=5,category=2");
    return db;
}

/* A battle of idlers far apart, one per SPD given. */
static void idlers(fx_t *f, const int *spd, int n)
{
    f->m = fx_map(40, 4, "activation", NULL);
    for (int k = 0; k < n; k++) {
        char id[16], stats[64];
        snprintf(id, sizeof id, "c%d", k);
        snprintf(stats, sizeof stats, "spd=%d,movement=4", spd[k]);
        fx_add(f->m, id, k % 2 ? "rivals" : "players", 1 + 9 * k, k % 4, KIND_CREATURE, SIZE_MEDIUM,
               20, 20, "strike", stats);
    }
    f->db = actions();
    battle_opts_t o = {.seed = 1};
    assert_int_equal(play_start(&f->p, f->m, f->db, NULL, &o), BATTLE_OK);
}

static int current(const play_t *p)
{
    int who[4];
    return play_actors(p, who, 4) > 0 ? who[0] : -1;
}

/* Everyone ends every activation until `rounds` rounds are over; counts
 * the activations each one had. */
static void idle_rounds(fx_t *f, int rounds, int *count)
{
    const battle_t *b = f->p.b;
    while (b->round <= rounds && !b->over) {
        int a = current(&f->p);
        assert_true(a >= 0);
        count[a]++;
        assert_int_equal(play_apply(&f->p, &(cmd_t){.kind = CMD_END, .actor = a, .target = -1,
                                                  .weapon = -1, .weapon2 = -1}),
                         BATTLE_OK);
    }
}

static void test_activations_follow_spd(void **state)
{
    (void)state;
    fx_t f;
    const int spd[] = {30, 20, 15, 10, 5};
    idlers(&f, spd, 5);
    int count[5] = {0};
    idle_rounds(&f, 60, count);
    /* 60 rounds are 60000 ticks: floor(60000 / floor(10000 / SPD)). */
    assert_int_equal(count[0], 60000 / 333);
    assert_int_equal(count[1], 120);
    assert_int_equal(count[2], 60000 / 666);
    assert_int_equal(count[3], 60);
    assert_int_equal(count[4], 30);
    /* The ratio of the SPDs, to within one activation. */
    for (int k = 1; k < 5; k++) {
        double want = (double)spd[0] / spd[k], got = (double)count[0] / count[k];
        assert_true(got > want * 0.98 && got < want * 1.02);
    }
    fx_free(&f);
}

static void test_forecast_is_what_happens(void **state)
{
    (void)state;
    fx_t f;
    const int spd[] = {27, 19, 13, 8};
    idlers(&f, spd, 4);
    /* Made during the first activation: what comes after it. */
    int who[24], when[24];
    int n = act_forecast(f.p.b, who, when, 24);
    assert_int_equal(n, 24);
    for (int k = 0; k < n; k++) {
        int a = current(&f.p);
        assert_int_equal(play_apply(&f.p, &(cmd_t){.kind = CMD_END, .actor = a, .target = -1,
                                                 .weapon = -1, .weapon2 = -1}),
                         BATTLE_OK);
        assert_int_equal(current(&f.p), who[k]);
        assert_int_equal(act_cst(f.p.b)->clock, when[k]);
        if (k > 0) assert_true(when[k] >= when[k - 1]);
    }
    fx_free(&f);
}

/* The tracker's queue labels say how far off each activation is in AV
 * ticks, and "next" for one on the same tick (never "in 0"). */
static void test_queue_labels_name_the_wait(void **state)
{
    (void)state;
    fx_t f;
    const int spd[] = {20, 20, 13, 8};
    idlers(&f, spd, 4);
    int who[12], when[12];
    int n = act_forecast(f.p.b, who, when, 12);
    turn_slot_t q[12];
    assert_int_equal(ruleset_queue(f.p.rs, f.p.b, q, 12), n);
    int clock = act_cst(f.p.b)->clock, ties = 0;
    for (int k = 0; k < n; k++) {
        char want[32];
        if (when[k] == clock) {
            snprintf(want, sizeof want, "next");
            ties++;
        } else {
            snprintf(want, sizeof want, "in %d AV", when[k] - clock);
        }
        assert_int_equal(q[k].who, who[k]);
        assert_string_equal(q[k].label, want);
    }
    assert_true(ties > 0); /* two SPD 20 actors share the first tick */
    fx_free(&f);
}

/* A player at 1,1 with `weapons` and `mine`, a foe with a Strike and
 * `theirs` at col,1, on a map of open ground; started on seeded dice. */
static void duel(fx_t *f, int col, const char *weapons, const char *mine, const char *theirs)
{
    f->m = fx_map(col + 2, 3, "activation", NULL);
    fx_add(f->m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 20, weapons, mine);
    fx_add(f->m, "t", "rivals", col, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 20, "strike", theirs);
    f->db = actions();
    battle_opts_t o = {.seed = 1};
    assert_int_equal(play_start(&f->p, f->m, f->db, NULL, &o), BATTLE_OK);
}

static void test_priority_is_capped(void **state)
{
    (void)state;
    fx_t f;
    duel(&f, 18, "strike,blink", "spd=20", "spd=20");
    /* Three free Priority 5 uses: 15, capped at 10, so AV 0 (A3). */
    cmd_t blink = fx_engage(0, 1, 1); /* a status action: no roll, no damage */
    act_action_t a;
    assert_true(act_action(f.p.b, 0, 1, &a));
    assert_int_equal(a.cost, 0);
    for (int k = 0; k < 3; k++) assert_int_equal(play_apply(&f.p, &blink), BATTLE_OK);
    assert_int_equal(act_cst(f.p.b)->prio, 15);
    int clock = act_cst(f.p.b)->clock;
    assert_int_equal(play_apply(&f.p, &(cmd_t){.kind = CMD_END, .actor = 0, .target = -1,
                                              .weapon = -1, .weapon2 = -1}),
                     BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"stat\":\"av\"", "\"value\":0") >= 0);
    /* AV 0: it acts again at once, before b's activation at the same tick. */
    assert_int_equal(current(&f.p), 0);
    assert_int_equal(act_cst(f.p.b)->clock, clock);
    fx_free(&f);
}

static void test_accuracy_multiplier(void **state)
{
    (void)state;
    fx_t f;
    duel(&f, 3, "shot", "spd=20", "spd=10");
    battle_t *b = f.p.b;
    act_action_t shot;
    assert_true(act_action(b, 0, 0, &shot));
    /* A9: 90 x (3+s)/3 above stage 0, 90 x 3/(3-s) below; clamped at +-6. */
    const int want[13] = {30, 33, 38, 45, 54, 67, 90, 120, 150, 180, 210, 240, 270};
    for (int s = -6; s <= 6; s++) {
        b->u[0].stat[AS_ACC] = s > 0 ? s : 0;
        b->u[1].stat[AS_EVA] = s < 0 ? -s : 0;
        act_odds_t od;
        act_odds(b, 0, &shot, 1, &od);
        assert_true(od.legal);
        assert_int_equal(od.stage, s);
        assert_int_equal(od.chance, want[s + 6]);
    }
    /* Beyond the clamp the chance stays, within RI1 nothing fails. */
    b->u[1].stat[AS_EVA] = 9;
    b->u[0].stat[AS_ACC] = 0;
    act_odds_t od;
    act_odds(b, 0, &shot, 1, &od);
    assert_int_equal(od.stage_raw, -9);
    assert_int_equal(od.stage, -6);
    assert_false(od.fails);
    assert_int_equal(od.chance, 30);
    fx_free(&f);
}

static void test_lift_modifier(void **state)
{
    (void)state;
    /* (mine - theirs) / 2, rounded up when positive and down when negative. */
    assert_int_equal(act_lift_mod(4, 2), 1);
    assert_int_equal(act_lift_mod(5, 2), 2);
    assert_int_equal(act_lift_mod(2, 5), -2);
    assert_int_equal(act_lift_mod(2, 4), -1);
    assert_int_equal(act_lift_mod(3, 3), 0);
    assert_int_equal(act_lift_mod(6, 1), 3);
    assert_int_equal(act_lift_mod(1, 6), -3);
}

/* A Counter answers a Counter, and so on (A-X1): each is a nested action
 * with its own declaration window, until a debt or the depth limit stops the
 * chain; every one is paid from its user's next activation. */
static void test_counters_chain(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "activation", NULL);
    fx_add(f.m, "a", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 200, 20, "strike,counter", "spd=20");
    fx_add(f.m, "b", "rivals", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 200, 20, "strike,counter", "spd=10");
    f.db = actions();
    fx_weapon(f.db, "counter", WPN_MELEE, false, 5, 0, 1, 8, 0,
              "acc=100,complex=1,interrupt=2,trigger=7,trigger_contact=1");
    battle_opts_t o = {.seed = 1};
    assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
    /* a strikes b; b counters; a (owing nothing yet) counters the counter;
     * b owes 2 already, so the chain stops there. */
    assert_int_equal(play_apply(&f.p, &(cmd_t){.kind = CMD_ENGAGE, .actor = 0, .target = 1,
                                              .weapon = 0, .weapon2 = -1}),
                     BATTLE_OK);
    const battle_t *b = f.p.b;
    int r1 = FX_FIND(b, 0, "\"reaction\"", "\"id\":\"b\"");
    int r2 = FX_FIND(b, r1 + 1, "\"reaction\"", "\"id\":\"a\"");
    assert_true(r1 >= 0 && r2 > r1);
    assert_true(FX_FIND(b, r2 + 1, "\"reaction\"") < 0);
    /* Innermost first: a's counter, then b's, then a's strike. */
    int ca = FX_FIND(b, r2, "\"attack\"", "\"attacker\":\"a\"", "\"weapon\":\"counter\"");
    int cb = FX_FIND(b, r1, "\"attack\"", "\"attacker\":\"b\"", "\"weapon\":\"counter\"");
    int sa = FX_FIND(b, r1, "\"attack\"", "\"attacker\":\"a\"", "\"weapon\":\"strike\"");
    assert_true(ca > r2 && cb > ca && sa > cb);
    assert_int_equal(act_cst(b)->debt[0], 2);
    assert_int_equal(act_cst(b)->debt[1], 2);
    fx_free(&f);
}

/* Telegraphs wait in a queue of ACT_DELAY_MAX; one more is refused, and the
 * refusal changes nothing. */
static void test_delay_queue_is_bounded(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "activation", NULL);
    fx_add(f.m, "a", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 200, 20, "strike", "spd=20");
    fx_add(f.m, "b", "rivals", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 900, 20, "strike", "spd=1");
    f.db = actions();
    battle_opts_t o = {.seed = 1};
    assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
    battle_t *b = f.p.b;
    /* Fill the queue by hand with far-off telegraphs of a's. */
    act_state_t *s = act_st(b);
    for (int k = 0; k < ACT_DELAY_MAX; k++)
        s->delay[k] = (act_delay_t){.used = 1, .who = 0, .slot = 0, .target = 1, .left = 99};
    cmd_t hold = {.kind = CMD_DECLARE, .actor = 0, .target = 1, .weapon = 0, .weapon2 = -1,
                  .act = CMD_ENGAGE, .arg = 2};
    int events = b->log.n;
    assert_int_equal(play_apply(&f.p, &hold), BATTLE_ILLEGAL);
    assert_int_equal(b->log.n, events);
    assert_int_equal(act_cst(b)->left, 2);
    fx_free(&f);
}

static map_t *sample(tmpl_db_t **db)
{
    char err[HB_ERR_MAX];
    map_t *m = NULL;
    int rc = map_load(HB_SOURCE_DIR "/maps/shattered_lane.json", HB_SOURCE_DIR "/data", &m, db, err,
                      sizeof err);
    if (rc != HB_OK) fail_msg("%s", err);
    return m;
}

static void test_sample_battle_plays_out(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = sample(&db);
    int wins[2] = {0, 0}, reactions = 0, priority = 0, grapples = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        play_t p;
        battle_opts_t o = {.seed = seed, .max_rounds = 40};
        assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
        assert_int_equal(play_auto(&p, 40), BATTLE_OK);
        assert_true(p.b->over);
        assert_true(p.b->winner >= 0); /* someone wins before the round limit */
        wins[p.b->winner]++;
        reactions += FX_FIND(p.b, 0, "\"reaction\"") >= 0;
        priority += FX_FIND(p.b, 0, "\"action\":\"dash\"") >= 0 ||
                    FX_FIND(p.b, 0, "\"action\":\"quick_jab\"") >= 0;
        grapples += FX_FIND(p.b, 0, "\"action\":\"grapple\"") >= 0;
        /* The same seed gives the same battle. */
        char *first = fx_log_text(p.b);
        play_end(&p);
        assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
        assert_int_equal(play_auto(&p, 40), BATTLE_OK);
        char *second = fx_log_text(p.b);
        assert_string_equal(first, second);
        free(first);
        free(second);
        play_end(&p);
    }
    printf("# shattered_lane: players %d, rivals %d; reactions in %d, priority in %d, grapples in %d\n",
           wins[0], wins[1], reactions, priority, grapples);
    /* Each side wins some, and the AI uses what the system offers. */
    assert_true(wins[0] > 0 && wins[1] > 0);
    assert_true(reactions > 0 && priority > 0);
    map_destroy(m);
    free(db);
}

/* In the sample battle, while nobody has fallen, the fast act more often:
 * round 1 gives the SPD 30 skirmishers 3 activations, the SPD 20 brawlers 2,
 * the SPD 15 sniper 1 and the SPD 10 bulwark 1. */
static void test_sample_round_one_by_spd(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = sample(&db);
    play_t p;
    battle_opts_t o = {.seed = 3};
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    int count[8] = {0};
    while (p.b->round == 1 && !p.b->over) {
        int a = current(&p);
        assert_true(a >= 0 && a < 8);
        count[a]++;
        cmd_t end = cmd_make(CMD_END, a);
        assert_int_equal(play_apply(&p, &end), BATTLE_OK);
    }
    int vex = map_find_combatant(m, "vex"), tor = map_find_combatant(m, "tor");
    int hale = map_find_combatant(m, "hale"), ash = map_find_combatant(m, "ash");
    assert_int_equal(count[vex], 3);
    assert_int_equal(count[tor], 2);
    assert_int_equal(count[ash], 1);
    assert_int_equal(count[hale], 1);
    play_end(&p);
    map_destroy(m);
    free(db);
}

/* A-Z3, A11: whole hexes first, then the percentage to the nearest hex, any
 * change at least one hex, never below one hex. */
static void test_range_changes(void **state)
{
    (void)state;
    assert_int_equal(act_change_range(6, 0, 0), 6);
    assert_int_equal(act_change_range(6, 2, 50), 12); /* (6+2) x 1.5, not 6 x 1.5 + 2 */
    assert_int_equal(act_change_range(6, 0, 5), 7);   /* 0.3 of a hex is still one */
    assert_int_equal(act_change_range(6, 0, -5), 5);
    assert_int_equal(act_change_range(10, 0, 25), 13); /* 12.5: halves round up */
    assert_int_equal(act_change_range(6, -2, 0), 4);
    assert_int_equal(act_change_range(1, 0, -50), 1);
    assert_int_equal(act_change_range(2, -5, 0), 1);
}

/* A-Z3, A11 on screen: the range bands the overlay shows are the ranges the
 * rules use, after the user's range changes (a shot of 6 hexes with +2 and
 * +50% reaches 12, its increments 24 and 36; a contact strike 1 + 2, +50%). */
static void test_bands_use_changed_range(void **state)
{
    (void)state;
    fx_t f = {0};
    f.m = fx_map(40, 4, "activation", NULL);
    fx_add(f.m, "far", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 20, "shot,strike",
           "spd=20,range_plus=2,range_pct=50");
    fx_add(f.m, "plain", "players", 1, 2, KIND_CREATURE, SIZE_MEDIUM, 20, 20, "shot", "spd=20");
    fx_add(f.m, "foe", "rivals", 30, 1, KIND_CREATURE, SIZE_MEDIUM, 20, 20, "strike", "spd=20");
    f.db = actions();
    battle_opts_t o = {.seed = 1};
    assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
    const battle_t *b = f.p.b;
    static const int WANT[2][2] = {{12, 5}, {6, -1}}; /* [combatant][shot, strike] */
    for (int i = 0; i < 2; i++)
        for (int w = 0; w < b->u[i].n_weapons; w++) {
            act_action_t a;
            assert_true(act_action(b, i, w, &a));
            range_band_t band[RANGE_BANDS_MAX];
            int n = ruleset_bands(f.p.rs, f.m, f.db, &f.m->combatants[i], b->u[i].weapon[w],
                                  &b->prof[i], band, RANGE_BANDS_MAX);
            assert_true(n >= 1);
            assert_int_equal(band[0].hexes, a.range);
            assert_int_equal(band[0].hexes, WANT[i][w]);
            if (!a.contact) {
                assert_int_equal(n, 3);
                assert_int_equal(band[1].hexes, 2 * a.range);
                assert_int_equal(band[2].hexes, 3 * a.range);
            }
        }
    fx_free(&f);
}

/* A-G4, A-G7: inside a grapple even a status [Grapple] action (a set-up
 * move) must be aimed at a member of it; Grab is the one exception. */
static void test_grappled_status_action_stays_inside(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "activation", NULL);
    fx_add(f.m, "a", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 30, 20, "strike,hex", "spd=20");
    fx_add(f.m, "b", "rivals", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 30, 20, "strike", "spd=10");
    fx_add(f.m, "c", "rivals", 6, 1, KIND_CREATURE, SIZE_MEDIUM, 30, 20, "strike", "spd=10");
    f.db = actions();
    fx_weapon(f.db, "hex", WPN_RANGED, false, 0, 30, 0, 0, 0, "acc=90,complex=1,category=2,grapple=1");
    battle_opts_t o = {.seed = 1};
    assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
    battle_t *b = f.p.b;
    act_action_t hex, grab;
    assert_true(act_action(b, 0, 1, &hex));
    assert_true(act_action(b, 0, ACT_W_GRAB, &grab));
    act_join_grapple(b, 0, 0, 0);
    act_join_grapple(b, 1, 0, 1);
    assert_true(act_grapple_allows(b, 0, &hex, 1));  /* its grapple opponent */
    assert_true(act_grapple_allows(b, 0, &hex, 0));  /* itself */
    assert_false(act_grapple_allows(b, 0, &hex, 2)); /* anyone outside */
    assert_true(act_grapple_allows(b, 0, &grab, 2)); /* Grab reaches out */
    fx_free(&f);
}

/* A23 amended: a grapple's controller may still Move (carrying), but Dash
 * and every action without [Grapple] are refused, each with its reason on
 * the action bar (the refused hook); out of the grapple it may Dash again. */
static void test_grappled_dash_refused_with_reason(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(10, 3, "activation", NULL);
    fx_add(f.m, "a", "players", 2, 1, KIND_CREATURE, SIZE_MEDIUM, 30, 20, "strike,dash,slam",
           "spd=20,movement=4");
    fx_add(f.m, "b", "rivals", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 30, 20, "strike", "spd=10");
    f.db = actions();
    fx_weapon(f.db, "dash", WPN_MELEE, false, 5, 0, 0, 0, 0, "move=1,priority=3,category=2");
    fx_weapon(f.db, "slam", WPN_MELEE, false, 5, 0, 2, 6, 0, "complex=1,grapple=1");
    battle_opts_t o = {.seed = 1};
    assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
    battle_t *b = f.p.b;
    move_cost_t mv;
    refusal_t r[16];
    assert_true(act_move_cost(b, 0, AM_DASH, &mv));
    assert_int_equal(ruleset_refused(f.p.rs, b, 0, r, 16), 0);
    act_join_grapple(b, 0, 0, 0);
    act_join_grapple(b, 1, 0, 1);
    assert_true(act_move_cost(b, 0, AM_MOVE, &mv));
    assert_false(act_move_cost(b, 0, AM_DASH, &mv));
    int n = ruleset_refused(f.p.rs, b, 0, r, 16);
    bool dash = false, strike = false, slam = false;
    for (int k = 0; k < n; k++) {
        if (r[k].cmd.kind == CMD_MOVE && r[k].cmd.arg == AM_DASH) {
            dash = true;
            assert_non_null(strstr(r[k].why, "grappled"));
        }
        if (r[k].cmd.kind == CMD_ENGAGE && r[k].cmd.weapon == 0) {
            strike = true;
            assert_non_null(strstr(r[k].why, "[Grapple]"));
        }
        slam |= r[k].cmd.kind == CMD_ENGAGE && r[k].cmd.weapon == 2;
    }
    assert_true(dash && strike && !slam);
    /* None of them is among the legal commands. */
    cmd_t legal[256];
    int nl = f.p.rs->legal(b, 0, legal, 256);
    for (int k = 0; k < nl; k++) {
        assert_false(legal[k].kind == CMD_MOVE && legal[k].arg == AM_DASH);
        assert_false(legal[k].kind == CMD_ENGAGE && legal[k].weapon == 0);
    }
    act_release(b, 0);
    assert_true(act_move_cost(b, 0, AM_DASH, &mv));
    fx_free(&f);
}

/* A5 at the table: each reactor declares first, the answers then resolve
 * by the level each declared. Al could Guard ([Interrupt 3]) but declares
 * its held Strike ([Interrupt 1]); Bo's question lists its Counter with its
 * level, and the tracker (the queue hook) already shows Al's declared
 * Strike, first of what is to come. Bo's Counter resolves before it. */
static void test_table_sees_declared_order(void **state)
{
    (void)state;
    fx_t f;
    f.m = fx_map(8, 3, "activation", NULL);
    fx_add(f.m, "grim", "rivals", 3, 1, KIND_CREATURE, SIZE_MEDIUM, 200, 20, "strike", "spd=30");
    fx_add(f.m, "bo", "players", 4, 1, KIND_CREATURE, SIZE_MEDIUM, 200, 20, "strike,counter", "spd=10");
    fx_add(f.m, "al", "players", 4, 0, KIND_CREATURE, SIZE_MEDIUM, 200, 20, "strike,guard", "spd=40");
    f.db = actions();
    fx_weapon(f.db, "counter", WPN_MELEE, false, 5, 0, 1, 8, 0,
              "acc=100,complex=1,interrupt=2,trigger=7,trigger_contact=1");
    fx_weapon(f.db, "guard", WPN_RANGED, false, 0, 10, 0, 0, 0,
              "free=1,interrupt=3,trigger=5,intercept=1,category=2");
    battle_opts_t o = {.seed = 1};
    assert_int_equal(play_start(&f.p, f.m, f.db, NULL, &o), BATTLE_OK);
    f.p.b->opts.ask_sides |= 1u << f.p.b->board->side[1];
    cmd_t hold = cmd_make(CMD_STANDBY, 2);
    hold.weapon = 0;
    hold.arg = TRIG_TARGETS_ALLY;
    assert_int_equal(play_apply(&f.p, &hold), BATTLE_OK);
    assert_int_equal(play_apply(&f.p, &(cmd_t){.kind = CMD_END, .actor = 2, .target = -1,
                                              .weapon = -1, .weapon2 = -1}),
                     BATTLE_OK);
    cmd_t blow = cmd_make(CMD_ENGAGE, 0);
    blow.target = 1;
    blow.weapon = 0;
    assert_int_equal(play_apply(&f.p, &blow), BATTLE_NEED_REACTION);
    const battle_t *b = f.p.b;
    assert_int_equal(b->ask.who, 2); /* Al first: its best option is level 3 */
    assert_int_equal(b->ask.n, 3);
    assert_string_equal(b->ask.labels[1], "guard [Interrupt 3]");
    assert_string_equal(b->ask.labels[2], "strike (held) [Interrupt 1]");
    assert_int_equal(b->ask.n_order, 0);
    assert_int_equal(play_answer_choice(&f.p, 2), BATTLE_NEED_REACTION);
    b = f.p.b;
    assert_int_equal(b->ask.who, 1);
    assert_string_equal(b->ask.labels[1], "counter [Interrupt 2]");
    assert_int_equal(b->ask.n_order, 1);
    assert_int_equal(b->ask.order_who[0], 2);
    turn_slot_t q[8];
    int nq = ruleset_queue(f.p.rs, b, q, 8);
    assert_true(nq >= 2);
    assert_true(q[0].reaction);
    assert_int_equal(q[0].who, 2);
    assert_string_equal(q[0].label, "strike (held) [Interrupt 1]");
    assert_false(q[1].reaction); /* then the timeline */
    assert_int_equal(play_answer_choice(&f.p, 1), BATTLE_OK);
    b = f.p.b;
    int counter = FX_FIND(b, 0, "\"attack\"", "\"attacker\":\"bo\"", "\"weapon\":\"counter\"");
    int held = FX_FIND(b, 0, "\"attack\"", "\"attacker\":\"al\"", "\"weapon\":\"strike\"");
    int blowed = FX_FIND(b, 0, "\"attack\"", "\"attacker\":\"grim\"");
    assert_true(counter >= 0 && held > counter && blowed > held);
    /* Asked no more: the tracker is the timeline alone. */
    nq = ruleset_queue(f.p.rs, b, q, 8);
    for (int k = 0; k < nq; k++) assert_false(q[k].reaction);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_sees_declared_order),
        cmocka_unit_test(test_grappled_dash_refused_with_reason),
        cmocka_unit_test(test_activations_follow_spd),
        cmocka_unit_test(test_forecast_is_what_happens),
        cmocka_unit_test(test_queue_labels_name_the_wait),
        cmocka_unit_test(test_priority_is_capped),
        cmocka_unit_test(test_accuracy_multiplier),
        cmocka_unit_test(test_lift_modifier),
        cmocka_unit_test(test_counters_chain),
        cmocka_unit_test(test_delay_queue_is_bounded),
        cmocka_unit_test(test_sample_battle_plays_out),
        cmocka_unit_test(test_sample_round_one_by_spd),
        cmocka_unit_test(test_range_changes),
        cmocka_unit_test(test_bands_use_changed_range),
        cmocka_unit_test(test_grappled_status_action_stays_inside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
