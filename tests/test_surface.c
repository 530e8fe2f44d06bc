/* test_surface.c - the Surface Combat ruleset beyond single rule scenarios:
 * its lengths, the odds shown before an attack against what attacks really
 * do over many seeds, the AI's choices, hand-entered initiative dice, and
 * determinism. The rules themselves are pinned one by one in
 * tests/scenarios/surface_*.json.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/dice.h"
#include "io/map_io.h"
#include "rules_fixture.h"
#include "rules/surface/surface.h"

/* The data folder: HEXBATTLE_DATA, else the source tree's. */
static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

static tmpl_db_t *surface_db(void)
{
    char err[HB_ERR_MAX];
    tmpl_db_t *db = NULL;
    if (tmpl_db_load(data_dir(), "surface", &db, err, sizeof err) != HB_OK) fail_msg("%s", err);
    return db;
}

/* The bundled Relay Outpost and its data. */
static void load_relay_outpost(map_t **m, tmpl_db_t **db)
{
    char err[HB_ERR_MAX], path[1024];
    snprintf(path, sizeof path, "%s/../maps/relay_outpost.json", data_dir());
    if (map_load(path, data_dir(), m, db, err, sizeof err) != HB_OK) fail_msg("%s", err);
}

/* A surface fixture: open map, the real data. Smoke is type T_COUNT. */
static void fx_surface(fx_t *f, int cols, int rows, int fph)
{
    f->m = fx_map(cols, rows, "surface", NULL);
    f->m->feet_per_hex = fph;
    fx_type(f->m, "smoke", 1, COVER_NONE, true, "");
    f->db = surface_db();
}

static int add(fx_t *f, const char *id, const char *side, int col, int row, int hp,
               const char *weapons, const char *stats)
{
    return fx_add(f->m, id, side, col, row, KIND_CREATURE, SIZE_MEDIUM, hp, 30, weapons, stats);
}

/* Seeded start; the members of other sides end their turns until it is
 * actor's turn to act (no heat, so nothing rolls). */
static void start_for(fx_t *f, uint64_t seed, int actor)
{
    battle_opts_t o = {.seed = seed};
    assert_int_equal(play_start(&f->p, f->m, f->db, NULL, &o), BATTLE_OK);
    int actors[SF_NMAX];
    for (int guard = 0; guard < 64; guard++) {
        int n = play_actors(&f->p, actors, SF_NMAX);
        assert_true(n > 0);
        for (int k = 0; k < n; k++)
            if (actors[k] == actor) return;
        cmd_t end = cmd_make(CMD_END, actors[0]);
        assert_int_equal(play_apply(&f->p, &end), BATTLE_OK);
    }
    fail_msg("%s never gets to act", f->m->combatants[actor].id);
}

/* ---- lengths -------------------------------------------------------------- */

static void test_reach_by_scale(void **state)
{
    (void)state;
    /* S1: 2 m, 5 m, 50 m to the nearest whole hex, at least one. */
    const int want5[3] = {1, 3, 33}, want15[3] = {1, 1, 11};
    for (int fph = 5; fph <= 15; fph += 10)
        for (int sc = 0; sc < 3; sc++) {
            fx_t f;
            fx_surface(&f, 40, 4, fph);
            char stats[32];
            snprintf(stats, sizeof stats, "scale=%d", sc);
            int a = add(&f, "a", "players", 0, 0, 10, "long_halberd,combat_knife", stats);
            add(&f, "r", "raiders", 39, 3, 10, NULL, NULL);
            start_for(&f, 1, a);
            int want = fph == 5 ? want5[sc] : want15[sc];
            assert_int_equal(sf_body_reach(f.p.b, a), want);
            /* The halberd (Long, two hands) is in hand: twice the reach. */
            assert_int_equal(sf_melee_reach(f.p.b, a), 2 * want);
            assert_int_equal(sf_weapon_reach(f.p.b, a, tmpl_find_weapon(f.db, "combat_knife")), want);
            assert_int_equal(f.p.b->prof[a].reach_ft, 2 * want * fph);
            /* The map-only profile (query threat, overlays) says the same. */
            geo_profile_t g;
            f.p.rs->geo_profile(f.m, f.db, &f.m->combatants[a], &g);
            assert_int_equal(g.reach_ft, 2 * want * fph);
            fx_free(&f);
        }
}

/* ---- odds against frequency -------------------------------------------------- */

/* HP t has lost, nonlethal damage included. */
static int hurt(const battle_t *b, int t)
{
    return b->u[t].hp_max - b->u[t].hp + b->u[t].stat[SF_NONLETHAL];
}

/* Did a's attack (the events from `from` on) hit t? */
static bool hit_since(const battle_t *b, int from, int a, int t)
{
    for (int k = from; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type == EV_ATTACK && e->who == a && e->target == t && e->hit) return true;
    }
    return false;
}

typedef struct {
    const char *weapons, *astats; /* attacker */
    const char *tstats;           /* target */
    int thp, dist, arg;
    char between;                 /* terrain on the hex between: '.', ',', '^', 's' */
    int weapon2;                  /* > 0: a second weapon fired with the first (S24) */
} odds_case_t;

/* The odds shown before an attack (surface_predict, which reads the same
 * shape apply rolls) against the frequency seen over many seeded attacks. */
static void check_odds(const odds_case_t *oc, int runs)
{
    fx_t f;
    fx_surface(&f, 30, 3, 5);
    int a = add(&f, "a", "players", 1, 1, 20, oc->weapons, oc->astats);
    int t = add(&f, "t", "raiders", 1 + oc->dist, 1, oc->thp, NULL, oc->tstats);
    /* A spotter who sees the target plainly, so smoke conceals (S22). */
    add(&f, "s", "players", 1 + oc->dist, 0, 10, NULL, NULL);
    const char *T = ".#,^~D";
    int type = oc->between == 's' ? T_COUNT : (int)(strchr(T, oc->between) - T);
    for (int c = 2; c < 1 + oc->dist; c++) f.m->cells[1 * 30 + c] = (uint8_t)type;
    cmd_t c = cmd_make(CMD_ENGAGE, a);
    c.target = t;
    c.weapon = 0;
    c.arg = oc->arg;
    c.at = (cell_t){1 + oc->dist, 1};
    if (oc->weapon2 > 0) c.weapon2 = oc->weapon2;
    double hits = 0, sum = 0, sum2 = 0, want_p = 0, want_loss = 0;
    for (int r = 0; r < runs; r++) {
        start_for(&f, 1000 + (uint64_t)r * 7919, a);
        /* The odds as the screen would show them now (the target's heat,
         * which weighs its soak, depends on who went first). */
        predict_t pr;
        if (oc->weapon2 > 0)
            assert_true(sf_predict_cmd(f.p.b, &c, &pr));
        else
            assert_true(surface_predict(f.p.b, a, t, 0, oc->arg, &pr));
        assert_true(sf_attack_ok(f.p.b, &c));
        want_p += pr.p_hit / runs;
        want_loss += pr.dmg_expected / runs;
        /* Heat may have hurt t at the end of its own turn: only the attack counts. */
        int from = f.p.b->log.n, before = hurt(f.p.b, t);
        assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
        bool hit = hit_since(f.p.b, from, a, t);
        int lost = hurt(f.p.b, t) - before;
        hits += hit;
        sum += lost;
        sum2 += (double)lost * lost;
        play_end(&f.p);
    }
    double p = hits / runs, mean = sum / runs;
    double sd = sqrt(sum2 / runs - mean * mean);
    double tol_p = 4.5 * sqrt(want_p * (1 - want_p) / runs) + 0.005;
    double tol_m = 4.5 * sd / sqrt(runs) + 0.02;
    if (fabs(p - want_p) > tol_p || fabs(mean - want_loss) > tol_m)
        fail_msg("%s vs %s (%s, %d hexes, '%c'): hit %.3f seen %.3f; loss %.3f seen %.3f",
                 oc->weapons, oc->tstats, oc->astats, oc->dist, oc->between, want_p, p, want_loss,
                 mean);
    map_destroy(f.m);
    free(f.db);
}

static void test_odds_match_frequency(void **state)
{
    (void)state;
    static const odds_case_t CASES[] = {
        /* a plain shot, a multi-shot burst, cover, concealment, stealth */
        {"service_pistol", "combat_bonus=3", "vln=6", 12, 5, 0, '.', 0},
        {"compact_carbine", "combat_bonus=2", "vln=8,armor_hp=3", 14, 6, 0, '.', 0},
        {"compact_carbine", "combat_bonus=4", "vln=9", 20, 6, 0, ',', 0},
        {"marksman_rifle", "combat_bonus=3", "vln=7,armor_hp=2", 9, 8, 0, '^', 0},
        {"service_pistol", "combat_bonus=6,sensor=0", "vln=6,stealth=2", 10, 5, 0, 's', 0},
        /* soak with heat to weigh, and soak the policy declines */
        {"compact_carbine", "combat_bonus=5", "vln=6,soak_n=1,soak_d=6,soak_heat=1,vent=2", 12, 4,
         0, '.', 0},
        {"marksman_rifle", "combat_bonus=4", "vln=6,soak_n=1,soak_d=4,soak_heat=3,heat=4,vent=1",
         10, 6, 0, '.', 0},
        /* saves instead of to-hit: a beam, a homing blast with the area save */
        {"arc_beam", "vent=9", "save=5", 12, 6, 0, '.', 0},
        {"seeker_pod", "", "save=3,save_area=8", 14, 14, 0, '.', 0},
        /* a blast that rolls to hit, melee with strength, a club, bare hands */
        {"frag_grenade", "combat_bonus=2,strength=1", "vln=7,save=4,armor_hp=1", 8, 4, 0, '.', 0},
        {"long_halberd", "combat_bonus=1,strength=3", "vln=8,armor_hp=2", 9, 2, 0, '.', 0},
        {"combat_knife", "combat_bonus=4", "vln=9", 6, 1, SF_ARG_NONLETHAL, '.', 0},
        {"shock_baton", "combat_bonus=2", "vln=10", 7, 1, 0, '.', 0},
        {"plasma_cannon", "combat_bonus=2,strength=4,vent=9", "vln=6,save_area=6,armor_hp=4", 10, 7,
         0, '.', 0},
        /* two weapons at once (S24): armour spent by the first is not there
         * for the second, a soak's heat weighs the next soak, a target put
         * down (or subdued) takes no more */
        {"service_pistol,service_pistol", "combat_bonus=6", "vln=8,armor_hp=3", 30, 5, 0, '.', 1},
        {"service_pistol,service_pistol", "combat_bonus=7",
         "vln=8,soak_n=1,soak_d=4,soak_heat=2,heat=1,vent=2", 30, 5, 0, '.', 1},
        {"combat_knife,combat_knife", "combat_bonus=5,strength=2", "vln=8,armor_hp=2", 5, 1, 0, '.',
         1},
        {"shock_baton,combat_knife", "combat_bonus=6,strength=1", "vln=9", 4, 1, 0, '.', 1},
    };
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) check_odds(&CASES[k], 1500);
}

/* ---- the AI -------------------------------------------------------------------- */

/* The AI's bounds only skip what cannot be its pick: over whole battles of
 * Relay Outpost, every command it gives is the one it gives weighing every
 * candidate in full. */
static void test_ai_bounds_skip_no_pick(void **state)
{
    (void)state;
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    load_relay_outpost(&m, &db);
    int calls = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        play_t p;
        battle_opts_t o = {.seed = seed};
        assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
        battle_t *b = p.b;
        int actors[SF_NMAX];
        for (int step = 0; step < 2000 && !b->over; step++) {
            if (play_actors(&p, actors, SF_NMAX) <= 0) break;
            cmd_t fast, full;
            b->frozen++;
            sf_ai(b, actors[0], &fast);
            sf_ai_exhaustive(true);
            sf_ai(b, actors[0], &full);
            sf_ai_exhaustive(false);
            b->frozen--;
            calls++;
            assert_int_equal(fast.kind, full.kind);
            assert_int_equal(fast.target, full.target);
            assert_int_equal(fast.weapon, full.weapon);
            assert_int_equal(fast.arg, full.arg);
            assert_int_equal(fast.at.col, full.at.col);
            assert_int_equal(fast.at.row, full.at.row);
            assert_int_equal(fast.n_path, full.n_path);
            for (int k = 0; k < fast.n_path; k++) {
                assert_int_equal(fast.path[k].col, full.path[k].col);
                assert_int_equal(fast.path[k].row, full.path[k].row);
            }
            if (play_apply(&p, &fast) == BATTLE_ILLEGAL) {
                cmd_t end = cmd_make(CMD_END, actors[0]);
                assert_int_not_equal(play_apply(&p, &end), BATTLE_ILLEGAL);
            }
        }
        assert_true(b->over);
        play_end(&p);
    }
    assert_true(calls > 300); /* whole battles, not a few commands */
    map_destroy(m);
    tmpl_db_destroy(db);
}


static void test_ai_member_order(void **state)
{
    (void)state;
    fx_t f;
    fx_surface(&f, 20, 5, 5);
    add(&f, "p", "players", 0, 2, 10, NULL, NULL);
    int brute = add(&f, "brute", "raiders", 12, 0, 10, "combat_knife", NULL);
    int gun = add(&f, "gun", "raiders", 12, 1, 10, "service_pistol", NULL);
    int far = add(&f, "far", "raiders", 19, 4, 10, "service_pistol", NULL);
    int eye = add(&f, "eye", "raiders", 12, 3, 10, "combat_knife", "sensor=2");
    /* Raiders first: spotters, then a shot with no move, then movers, melee last. */
    const int dice[] = {1, 20};
    fx_start(&f.p, f.m, f.db, dice, 2);
    int actors[8];
    assert_int_equal(play_actors(&f.p, actors, 8), 4);
    assert_int_equal(actors[0], eye);
    assert_int_equal(actors[1], gun);
    assert_int_equal(actors[2], far);
    assert_int_equal(actors[3], brute);
    (void)far;
    fx_free(&f);
}

/* The first command the AI gives for actor. */
static cmd_t ai_first(fx_t *f, int actor)
{
    cmd_t c;
    f->p.rs->ai(f->p.b, actor, &c);
    return c;
}

static void test_ai_closes_and_strikes(void **state)
{
    (void)state;
    fx_t f;
    fx_surface(&f, 12, 3, 5);
    int a = add(&f, "a", "players", 1, 1, 10, "combat_knife", "combat_bonus=3");
    int t = add(&f, "t", "raiders", 5, 1, 10, NULL, NULL);
    start_for(&f, 3, a);
    /* Out of reach: a move that ends next to the foe, then the blow. */
    cmd_t c = ai_first(&f, a);
    assert_int_equal(c.kind, CMD_MOVE);
    assert_int_equal(c.arg, SF_MOVE);
    hex_t end = hex_from_cell(f.m->layout, c.path[c.n_path - 1]);
    assert_int_equal(hex_distance(end, f.p.b->board->pos[t]), 1);
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    c = ai_first(&f, a);
    assert_int_equal(c.kind, CMD_ENGAGE);
    assert_int_equal(c.target, t);
    fx_free(&f);
}

static void test_ai_stands_and_fires(void **state)
{
    (void)state;
    fx_t f;
    fx_surface(&f, 20, 3, 5);
    /* Heavy 4 at strength 3: both actions, so no move first. */
    int a = add(&f, "a", "players", 1, 1, 10, "plasma_cannon", "combat_bonus=2,strength=3,vent=9");
    int t = add(&f, "t", "raiders", 15, 1, 10, NULL, "vln=6");
    start_for(&f, 5, a);
    cmd_t c = ai_first(&f, a);
    assert_int_equal(c.kind, CMD_ENGAGE);
    assert_int_equal(c.target, t);
    assert_int_equal(c.weapon, 0);
    fx_free(&f);
}

static void test_ai_prefers_the_kill(void **state)
{
    (void)state;
    fx_t f;
    fx_surface(&f, 20, 5, 5);
    int a = add(&f, "a", "players", 1, 2, 10, "service_pistol", "combat_bonus=4");
    add(&f, "whole", "raiders", 8, 1, 12, NULL, "vln=6");
    int hurt = add(&f, "hurt", "raiders", 8, 3, 12, NULL, "vln=6");
    f.m->combatants[hurt].hp = 3; /* hurt: the same shot likely kills it */
    start_for(&f, 2, a);
    cmd_t c = ai_first(&f, a);
    assert_int_equal(c.kind, CMD_ENGAGE);
    assert_int_equal(c.target, hurt);
    fx_free(&f);
}

/* Morale awareness: of two foes alike in every way and placed alike, the one
 * whose faction can break (Morale 7, a lone member) draws the shot, not the
 * one whose faction fights to the death (Morale 12); whichever stands where. */
static void test_ai_morale_aware(void **state)
{
    (void)state;
    for (int swap = 0; swap < 2; swap++) {
        fx_t f;
        fx_surface(&f, 20, 5, 5);
        int a = add(&f, "a", "players", 1, 2, 10, "service_pistol", "combat_bonus=4");
        int first = add(&f, swap ? "drone" : "raider", swap ? "drones" : "raiders", 8, 1, 10, NULL,
                        swap ? "vln=6,morale=12" : "vln=6,morale=7");
        int second = add(&f, swap ? "raider" : "drone", swap ? "raiders" : "drones", 8, 3, 10, NULL,
                         swap ? "vln=6,morale=7" : "vln=6,morale=12");
        int breakable = swap ? second : first;
        start_for(&f, 4, a);
        assert_true(sf_side_morale(f.p.b, f.p.b->board->side[breakable]) == 7);
        cmd_t c = ai_first(&f, a);
        assert_int_equal(c.kind, CMD_ENGAGE);
        assert_int_equal(c.target, breakable);
        fx_free(&f);
    }
}

static void test_soak_when_it_pays(void **state)
{
    (void)state;
    fx_t f;
    fx_surface(&f, 10, 3, 5);
    int cool = add(&f, "cool", "players", 1, 0, 10, NULL, "soak_n=1,soak_d=6,soak_heat=1,vent=2");
    int hot = add(&f, "hot", "players", 1, 2, 10, NULL, "soak_n=1,soak_d=4,soak_heat=4,vent=0,heat=3");
    add(&f, "r", "raiders", 8, 1, 10, NULL, NULL);
    start_for(&f, 1, cool);
    /* Under the vent the heat costs nothing: always soak. */
    assert_true(sf_soak_pays(f.p.b, cool, 1));
    assert_true(sf_soak_pays(f.p.b, cool, 9));
    /* Four heat past the vent (about 2 HP) for a d4 (2.5 at most taken off
     * a 10-point hit): worth it against a big hit, not against a scratch. */
    assert_false(sf_soak_pays(f.p.b, hot, 1));
    assert_true(sf_soak_pays(f.p.b, hot, 10));
    fx_free(&f);
}

/* ---- dice by hand, determinism, visibility ----------------------------------------- */

static void test_manual_rolloff(void **state)
{
    (void)state;
    fx_t f;
    fx_surface(&f, 10, 3, 5);
    add(&f, "p", "players", 0, 0, 10, NULL, NULL);
    int r = add(&f, "r", "raiders", 9, 2, 10, NULL, NULL);
    battle_opts_t o = {.seed = 1, .manual_all = true};
    battle_status_t st = play_start(&f.p, f.m, f.db, NULL, &o);
    assert_int_equal(st, BATTLE_NEED_DICE);
    assert_int_equal(f.p.b->need.sides, 20);
    assert_int_equal(play_enter_die(&f.p, 12), BATTLE_NEED_DICE);
    /* A tie: the battle waits for the roll-off, it does not spin on stand-ins. */
    assert_int_equal(play_enter_die(&f.p, 12), BATTLE_NEED_DICE);
    assert_non_null(strstr(f.p.b->need.why, "roll-off"));
    assert_int_equal(play_enter_die(&f.p, 4), BATTLE_NEED_DICE);
    assert_int_equal(play_enter_die(&f.p, 15), BATTLE_OK);
    int actors[4];
    assert_int_equal(play_actors(&f.p, actors, 4), 1);
    assert_int_equal(actors[0], r);
    fx_free(&f);
}

static void test_same_seed_same_battle(void **state)
{
    (void)state;
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    load_relay_outpost(&m, &db);
    for (uint64_t seed = 1; seed <= 6; seed++) {
        play_t p1 = {0}, p2 = {0};
        int w1, w2;
        assert_int_equal(play_headless(&p1, m, db, NULL, seed, 40, &w1), BATTLE_OK);
        assert_int_equal(play_headless(&p2, m, db, NULL, seed, 40, &w2), BATTLE_OK);
        assert_true(p1.b->over);
        assert_int_equal(w1, w2);
        assert_int_equal(p1.b->log.n, p2.b->log.n);
        for (int k = 0; k < p1.b->log.n; k++) {
            char *x = event_to_line(p1.b->board, &p1.b->log.ev[k]);
            char *y = event_to_line(p2.b->board, &p2.b->log.ev[k]);
            assert_string_equal(x, y);
            free(x);
            free(y);
        }
        play_end(&p1);
        play_end(&p2);
    }
    map_destroy(m);
    tmpl_db_destroy(db);
}

static void test_stealth_hides(void **state)
{
    (void)state;
    fx_t f;
    fx_surface(&f, 10, 3, 5);
    int p = add(&f, "p", "players", 0, 0, 10, NULL, "sensor=1");
    int ghost = add(&f, "ghost", "raiders", 5, 1, 10, NULL, "stealth=5");
    int veiled = add(&f, "veiled", "raiders", 5, 2, 10, NULL, "stealth=4");
    int plain = add(&f, "plain", "raiders", 7, 0, 10, NULL, "stealth=3");
    start_for(&f, 1, p);
    const ruleset_t *rs = f.p.rs;
    battle_t *b = f.p.b;
    int players = b->board->side[p];
    /* 5 - 1 = 4: hidden; 4 - 1 = 3: concealed and placed by no one, so
     * hidden too (S22, S23), as the side's AI reads it; 3 - 1 = 2: shown. */
    assert_true(rs->hidden_from(b, ghost, players));
    assert_true(rs->hidden_from(b, veiled, players));
    assert_false(sf_side_knows(b, p, veiled, NULL));
    assert_false(rs->hidden_from(b, plain, players));
    assert_false(rs->hidden_from(b, p, players));
    /* Sensors matching its stealth tech place it: shown. */
    b->u[p].stat[SF_SENSOR] = 4;
    assert_false(rs->hidden_from(b, veiled, players));
    assert_true(sf_side_knows(b, p, veiled, NULL));
    fx_free(&f);
}

/* A foe in smoke is concealed from a watcher with no sensor for it; the
 * players' view leaves it out until a member sees it with no smoke between
 * or a sensor matches its stealth tech (S22). A foe merely behind a wall is
 * the fog's business, not hidden. */
static void test_smoke_hides_from_view(void **state)
{
    (void)state;
    fx_t f;
    fx_surface(&f, 5, 3, 5);
    f.m->cells[1 * 5 + 3] = T_COUNT; /* smoke at (3,1) */
    int p = add(&f, "p", "players", 0, 1, 10, NULL, NULL);
    int foe = add(&f, "foe", "raiders", 4, 1, 10, NULL, "stealth=1");
    start_for(&f, 3, p);
    battle_t *b = f.p.b;
    int players = b->board->side[p];
    assert_true(f.p.rs->hidden_from(b, foe, players));
    assert_false(sf_side_knows(b, p, foe, NULL));
    /* A sensor that matches the stealth tech places it through the smoke. */
    b->u[p].stat[SF_SENSOR] = 1;
    assert_false(f.p.rs->hidden_from(b, foe, players));
    fx_free(&f);
}

static void test_heat_over_many_dice(void **state)
{
    (void)state;
    fx_t f;
    fx_surface(&f, 10, 3, 5);
    /* 40 heat points: more d6 than one roll may hold, rolled in several. */
    int a = add(&f, "a", "players", 0, 0, 500, NULL, "heat=40");
    add(&f, "r", "raiders", 9, 2, 10, NULL, NULL);
    start_for(&f, 9, a);
    cmd_t end = cmd_make(CMD_END, a);
    assert_int_equal(play_apply(&f.p, &end), BATTLE_OK);
    int dice = 0;
    for (int k = 0; k < f.p.b->log.n; k++) {
        const event_t *e = &f.p.b->log.ev[k];
        if (e->type == EV_ROLL && strcmp(e->name, "heat") == 0) dice += e->n_dice;
    }
    assert_int_equal(dice, 40);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reach_by_scale),
        cmocka_unit_test(test_odds_match_frequency),
        cmocka_unit_test(test_ai_bounds_skip_no_pick),
        cmocka_unit_test(test_ai_member_order),
        cmocka_unit_test(test_ai_closes_and_strikes),
        cmocka_unit_test(test_ai_stands_and_fires),
        cmocka_unit_test(test_ai_prefers_the_kill),
        cmocka_unit_test(test_ai_morale_aware),
        cmocka_unit_test(test_soak_when_it_pays),
        cmocka_unit_test(test_manual_rolloff),
        cmocka_unit_test(test_same_seed_same_battle),
        cmocka_unit_test(test_stealth_hides),
        cmocka_unit_test(test_smoke_hides_from_view),
        cmocka_unit_test(test_heat_over_many_dice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
