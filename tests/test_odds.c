/* test_odds.c - outcome odds (src/rules/odds.h, src/io/odds_pool.h).
 *
 * The core and the rules keep no state outside a battle, so battles on two
 * threads play exactly as they do one after the other; the odds of a battle
 * are the same whatever the thread count; run k from a map is the battle
 * `simulate --seed S+k` plays; runs from a battle as it stands start from
 * exactly that state; "what if" pairs each run with the plain one of the same
 * seed, so the AI's own choice makes no difference at all and a bad move a
 * clear one; the tally read while a job runs is that of its first runs.
 */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/event_json.h"
#include "io/map_io.h"
#include "io/odds_pool.h"

static const char *const MAPS[] = {"ridge_ambush.json", "foundry_breach.json",
                                   "salt_flats.json",   "river_crossing.json",
                                   "relay_outpost.json", "shattered_lane.json"};
#define N_MAPS (int)(sizeof MAPS / sizeof MAPS[0])

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

static map_t *load(const char *path, tmpl_db_t **db)
{
    char err[HB_ERR_MAX];
    map_t *m = NULL;
    if (map_load(path, data_dir(), &m, db, err, sizeof err) != HB_OK) fail_msg("%s", err);
    return m;
}

static map_t *load_sample(const char *name, tmpl_db_t **db)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/../maps/%s", data_dir(), name);
    return load(path, db);
}

/* A hash of the battle's event log as JSON Lines (what simulate prints). */
static uint64_t log_hash(const battle_t *b, int from)
{
    uint64_t h = 1469598103934665603ull;
    for (int k = from; k < b->log.n; k++) {
        char *line = event_to_line(b->board, &b->log.ev[k]);
        assert_non_null(line);
        for (const char *c = line; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
        h = (h ^ '\n') * 1099511628211ull;
        free(line);
    }
    return h;
}

static bool tally_equal(const odds_tally_t *x, const odds_tally_t *y)
{
    if (x->runs != y->runs || x->failed != y->failed || x->none != y->none ||
        x->rounds_sum != y->rounds_sum || x->rounds_sq != y->rounds_sq || x->n != y->n ||
        x->paired != y->paired || x->base_none != y->base_none)
        return false;
    for (int s = 0; s < MAP_MAX_FACTIONS; s++)
        if (x->win[s] != y->win[s] || x->base_win[s] != y->base_win[s] ||
            x->diff_sum[s] != y->diff_sum[s] || x->diff_sq[s] != y->diff_sq[s])
            return false;
    for (int i = 0; i < x->n; i++)
        if (x->out[i] != y->out[i]) return false;
    return true;
}

/* ---- two threads, two battles ---------------------------------------------- */

#define SEEDS 6

typedef struct {
    const map_t *m;
    const tmpl_db_t *db;
    uint64_t first_seed;
    uint64_t hash[SEEDS];
} battles_t;

/* Play SEEDS whole battles on one play_t, keeping each one's log hash. */
static void *play_battles(void *arg)
{
    battles_t *w = arg;
    play_t p;
    memset(&p, 0, sizeof p);
    for (int k = 0; k < SEEDS; k++) {
        int winner;
        if (play_headless(&p, w->m, w->db, NULL, w->first_seed + (uint64_t)k, 100, &winner) !=
            BATTLE_OK)
            w->hash[k] = 0;
        else
            w->hash[k] = log_hash(p.b, 0);
    }
    play_end(&p);
    return NULL;
}

/* Two battles on two threads at once give the very logs they give one after
 * the other on one thread: nothing in the core or the rules is shared between
 * battles (no statics, no scratch outside the battle). Each map against
 * itself (the same ruleset's code on both threads), then maps of different
 * rulesets against each other. */
static void test_two_threads_play_as_one(void **state)
{
    (void)state;
    const int pairs[][2] = {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {0, 2}, {3, 5}};
    for (size_t pair = 0; pair < sizeof pairs / sizeof pairs[0]; pair++) {
        tmpl_db_t *db1 = NULL, *db2 = NULL;
        map_t *m1 = load_sample(MAPS[pairs[pair][0]], &db1);
        map_t *m2 = load_sample(MAPS[pairs[pair][1]], &db2);
        battles_t one[2] = {{m1, db1, 21, {0}}, {m2, db2, 57, {0}}};
        battles_t two[2] = {{m1, db1, 21, {0}}, {m2, db2, 57, {0}}};
        play_battles(&one[0]);
        play_battles(&one[1]);
        pthread_t t[2];
        for (int k = 0; k < 2; k++)
            assert_int_equal(pthread_create(&t[k], NULL, play_battles, &two[k]), 0);
        for (int k = 0; k < 2; k++)
            pthread_join(t[k], NULL);
        for (int w = 0; w < 2; w++)
            for (int k = 0; k < SEEDS; k++) {
                assert_true(one[w].hash[k] != 0);
                assert_true(one[w].hash[k] == two[w].hash[k]);
            }
        tmpl_db_destroy(db1);
        tmpl_db_destroy(db2);
        map_destroy(m1);
        map_destroy(m2);
    }
}

/* ---- the same answer whatever the thread count ----------------------------- */

static void test_same_answer_any_thread_count(void **state)
{
    (void)state;
    for (int i = 0; i < N_MAPS; i++) {
        tmpl_db_t *db = NULL;
        map_t *m = load_sample(MAPS[i], &db);
        odds_base_t base = {.map = m, .db = db, .from_start = true};
        odds_progress_t pr[3];
        for (int t = 0; t < 3; t++) {
            assert_true(odds_run_all(&base, NULL, 40 + (uint64_t)i, 12, t + 1, &pr[t]));
            assert_true(pr[t].done);
            assert_int_equal(pr[t].first_failure, -1);
            assert_int_equal(pr[t].tally.runs, 12);
        }
        assert_true(tally_equal(&pr[0].tally, &pr[1].tally));
        assert_true(tally_equal(&pr[0].tally, &pr[2].tally));
        tmpl_db_destroy(db);
        map_destroy(m);
    }
}

/* ---- run k from a map is simulate's battle with seed S+k ------------------- */

static void test_map_runs_are_simulate_battles(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("ridge_ambush.json", &db);
    const uint64_t seed = 1000;
    const int runs = 16;
    odds_base_t base = {.map = m, .db = db, .from_start = true};
    odds_progress_t pr;
    assert_true(odds_run_all(&base, NULL, seed, runs, 2, &pr));
    /* The same battles played one by one, as simulate plays them. */
    odds_tally_t t;
    int sides = 0;
    odds_tally_init(&t, MAP_MAX_FACTIONS, m->n_combatants, false);
    play_t p;
    memset(&p, 0, sizeof p);
    bool defeated[MAP_MAX_COMBATANTS];
    for (int k = 0; k < runs; k++) {
        battle_opts_t o = {.seed = seed + (uint64_t)k, .max_rounds = ODDS_MAX_ROUNDS};
        play_t q;
        assert_int_equal(play_start(&q, m, db, NULL, &o), BATTLE_OK);
        assert_int_equal(play_auto(&q, ODDS_MAX_ROUNDS), BATTLE_OK);
        odds_tally_add(&t, odds_outcome(q.b, defeated), defeated, -1);
        /* odds_play gives the very same battle, event for event. */
        assert_int_equal(odds_play(&p, &base, NULL, odds_run_seed(seed, k)), BATTLE_OK);
        assert_true(log_hash(p.b, 0) == log_hash(q.b, 0));
        sides = q.b->board->n_sides;
        play_end(&q);
    }
    play_end(&p);
    assert_int_equal(sides, 2);
    assert_true(tally_equal(&pr.tally, &t));
    /* Both sides won some: the counts are not trivially equal. */
    assert_true(t.win[0] > 0 && t.win[1] > 0);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* ---- from where a battle stands --------------------------------------------- */

/* Play n AI commands of a battle whose every die is typed in, as the play
 * window plays (the values from a generator of its own). */
static void play_by_hand(play_t *p, int n, uint64_t seed)
{
    rng_t r;
    rng_seed(&r, seed);
    int actors[MAP_MAX_COMBATANTS];
    for (int k = 0; k < n && !p->b->over; k++) {
        assert_true(play_actors(p, actors, MAP_MAX_COMBATANTS) > 0);
        cmd_t c;
        p->b->frozen++;
        p->rs->ai(p->b, actors[0], &c);
        p->b->frozen--;
        battle_status_t st = play_apply(p, &c);
        while (st == BATTLE_NEED_DICE)
            st = play_enter_die(p, rng_die(&r, p->b->need.sides));
        if (st == BATTLE_ILLEGAL) {
            cmd_t end = cmd_make(CMD_END, actors[0]);
            st = play_apply(p, &end);
            while (st == BATTLE_NEED_DICE)
                st = play_enter_die(p, rng_die(&r, p->b->need.sides));
        }
        assert_int_equal(st, BATTLE_OK);
    }
}

static void test_runs_go_on_from_the_state(void **state)
{
    (void)state;
    for (int i = 0; i < N_MAPS; i++) {
        tmpl_db_t *db = NULL;
        map_t *m = load_sample(MAPS[i], &db);
        battle_opts_t o = {.seed = 5, .manual_all = true};
        play_t p;
        battle_status_t st = play_start(&p, m, db, NULL, &o);
        rng_t r;
        rng_seed(&r, 77);
        while (st == BATTLE_NEED_DICE)
            st = play_enter_die(&p, rng_die(&r, p.b->need.sides));
        assert_int_equal(st, BATTLE_OK);
        play_by_hand(&p, 12, 99);
        assert_false(p.b->over);
        int n_log = p.b->log.n, n_cmds = p.b->cmds.n;
        uint64_t before = log_hash(p.b, 0);
        odds_base_t base = odds_base_of(&p);
        play_t run;
        memset(&run, 0, sizeof run);
        uint64_t tail[2];
        for (int k = 0; k < 2; k++) {
            assert_int_equal(odds_play(&run, &base, NULL, 300 + (uint64_t)k), BATTLE_OK);
            /* The run begins with the battle as it stands, then plays on. */
            assert_true(run.b->log.n > n_log);
            assert_true(run.b->over);
            int saved = run.b->log.n;
            run.b->log.n = n_log;
            assert_true(log_hash(run.b, 0) == before);
            run.b->log.n = saved;
            tail[k] = log_hash(run.b, n_log);
        }
        /* Each run rolls its own dice: two seeds go two ways ... */
        assert_true(tail[0] != tail[1]);
        /* ... and one seed always the same way. */
        assert_int_equal(odds_play(&run, &base, NULL, 300), BATTLE_OK);
        assert_true(log_hash(run.b, n_log) == tail[0]);
        /* The battle itself is untouched. */
        assert_int_equal(p.b->log.n, n_log);
        assert_int_equal(p.b->cmds.n, n_cmds);
        assert_true(log_hash(p.b, 0) == before);
        play_end(&run);
        play_end(&p);
        tmpl_db_destroy(db);
        map_destroy(m);
    }
}

/* A finished battle has one outcome, run after run. */
static void test_finished_battle_is_certain(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("ridge_ambush.json", &db);
    battle_opts_t o = {.seed = 3, .max_rounds = 100};
    play_t p;
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    assert_int_equal(play_auto(&p, 100), BATTLE_OK);
    assert_true(p.b->over);
    odds_base_t base = odds_base_of(&p);
    odds_progress_t pr;
    assert_true(odds_run_all(&base, NULL, 1, 10, 2, &pr));
    assert_int_equal(pr.tally.runs, 10);
    if (p.b->winner >= 0)
        assert_int_equal(pr.tally.win[p.b->winner], 10);
    else
        assert_int_equal(pr.tally.none, 10);
    assert_int_equal(pr.tally.rounds_sum, 10L * p.b->round);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* ---- what if ---------------------------------------------------------------- */

/* The duel: dren (12 HP) beside a boss of 6 HP, dren to act. */
static void duel(map_t **m, tmpl_db_t **db, play_t *p)
{
    *m = load(HB_TEST_DATA "/good/odds_duel.json", db);
    battle_opts_t o = {.seed = 11, .max_rounds = 100};
    assert_int_equal(play_start(p, *m, *db, NULL, &o), BATTLE_OK);
    int actors[4];
    assert_true(play_actors(p, actors, 4) > 0);
    assert_string_equal((*m)->combatants[actors[0]].id, "dren");
}

/* The AI's own choice, taken as "what if", changes nothing in any run:
 * the paired runs are the same battles. */
static void test_what_if_own_choice_is_no_difference(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++) {
        tmpl_db_t *db = NULL;
        map_t *m = load_sample(MAPS[i], &db);
        battle_opts_t o = {.seed = 8, .max_rounds = 100};
        play_t p;
        assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
        play_by_hand(&p, 5, 1);
        int actors[MAP_MAX_COMBATANTS];
        assert_true(play_actors(&p, actors, MAP_MAX_COMBATANTS) > 0);
        cmd_t c;
        p.b->frozen++;
        p.rs->ai(p.b, actors[0], &c);
        p.b->frozen--;
        odds_base_t base = odds_base_of(&p);
        odds_progress_t pr;
        assert_true(odds_run_all(&base, &c, 2, 16, 2, &pr));
        assert_int_equal(pr.first_failure, -1);
        assert_true(pr.tally.paired);
        for (int s = 0; s < p.b->board->n_sides; s++) {
            double hw;
            assert_true(odds_diff(&pr.tally, s, &hw) == 0.0);
            assert_true(hw == 0.0);
            assert_int_equal(pr.tally.win[s], pr.tally.base_win[s]);
        }
        play_end(&p);
        tmpl_db_destroy(db);
        map_destroy(m);
    }
}

/* Striking the 6-HP boss is clearly better than ending the turn beside it:
 * the paired difference shows it beyond both intervals. */
static void test_what_if_tells_good_from_bad(void **state)
{
    (void)state;
    map_t *m;
    tmpl_db_t *db;
    play_t p;
    duel(&m, &db, &p);
    int dren = map_find_combatant(m, "dren"), boss = map_find_combatant(m, "boss");
    cmd_t good = cmd_make(CMD_ENGAGE, dren);
    good.target = boss;
    good.weapon = 0; /* the maul */
    cmd_t bad = cmd_make(CMD_END, dren);
    odds_base_t base = odds_base_of(&p);
    odds_progress_t g, w;
    assert_true(odds_run_all(&base, &good, 1, 300, 2, &g));
    assert_true(odds_run_all(&base, &bad, 1, 300, 2, &w));
    assert_int_equal(g.first_failure, -1);
    assert_int_equal(w.first_failure, -1);
    int side = p.b->board->side[dren];
    double hg, hb;
    double dg = odds_diff(&g.tally, side, &hg), db_ = odds_diff(&w.tally, side, &hb);
    /* Ending the turn costs dren's side: the whole interval is below 0. */
    assert_true(db_ + hb < 0.0);
    /* And striking beats it by more than both intervals together. */
    assert_true(dg - db_ > hg + hb);
    /* The plain runs are the same in both jobs (same seeds). */
    assert_int_equal(g.tally.base_win[side], w.tally.base_win[side]);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* A command not allowed where the runs start fails every run, loudly. */
static void test_what_if_illegal_command_fails(void **state)
{
    (void)state;
    map_t *m;
    tmpl_db_t *db;
    play_t p;
    duel(&m, &db, &p);
    cmd_t c = cmd_make(CMD_ENGAGE, map_find_combatant(m, "boss")); /* not its turn */
    c.target = map_find_combatant(m, "dren");
    c.weapon = 0;
    odds_base_t base = odds_base_of(&p);
    odds_progress_t pr;
    assert_true(odds_run_all(&base, &c, 1, 4, 2, &pr));
    assert_int_equal(pr.tally.failed, 4);
    assert_int_equal(pr.first_failure, 0);
    assert_int_equal(pr.failure, BATTLE_ILLEGAL);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* ---- the pool --------------------------------------------------------------- */

/* A job read part way is the tally of its first runs; a job replaced before
 * it finishes leaves nothing behind; the workers serve the higher slot. */
static void test_pool_prefix_and_restart(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("ridge_ambush.json", &db);
    odds_base_t base = {.map = m, .db = db, .from_start = true};
    odds_pool_t *pool = odds_pool_create(2);
    assert_non_null(pool);
    /* Replaced at once, twice: only the last job counts. */
    assert_true(odds_pool_start(pool, 0, &base, NULL, 5, 400));
    assert_true(odds_pool_start(pool, 0, &base, NULL, 6, 400));
    assert_true(odds_pool_start(pool, 0, &base, NULL, 7, 60));
    odds_progress_t part;
    odds_pool_read(pool, 0, &part);
    assert_true(part.active);
    assert_true(part.tally.runs <= 60);
    odds_pool_wait(pool, 0);
    odds_progress_t whole;
    odds_pool_read(pool, 0, &whole);
    assert_true(whole.done);
    assert_int_equal(whole.tally.runs, 60);
    assert_false(odds_pool_busy(pool, 0));
    odds_progress_t fresh;
    assert_true(odds_run_all(&base, NULL, 7, 60, 1, &fresh));
    assert_true(tally_equal(&whole.tally, &fresh.tally));
    /* The part read early is the first runs' tally, whatever finished when. */
    if (part.tally.runs > 0) {
        odds_progress_t first;
        assert_true(odds_run_all(&base, NULL, 7, part.tally.runs, 1, &first));
        assert_true(tally_equal(&part.tally, &first.tally));
    }
    /* Two slots: both finish, each with its own answer. */
    assert_true(odds_pool_start(pool, 0, &base, NULL, 7, 30));
    assert_true(odds_pool_start(pool, 1, &base, NULL, 8, 30));
    odds_pool_wait(pool, 1);
    odds_pool_wait(pool, 0);
    odds_progress_t s0, s1;
    odds_pool_read(pool, 0, &s0);
    odds_pool_read(pool, 1, &s1);
    assert_true(s0.done && s1.done);
    assert_true(odds_run_all(&base, NULL, 8, 30, 2, &fresh));
    assert_true(tally_equal(&s1.tally, &fresh.tally));
    odds_pool_stop(pool, 1);
    odds_pool_read(pool, 1, &s1);
    assert_false(s1.active);
    /* A job still running when the pool goes is dropped cleanly. */
    assert_true(odds_pool_start(pool, 0, &base, NULL, 9, 1000));
    odds_pool_destroy(pool);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* ---- the numbers ------------------------------------------------------------ */

static void test_interval_and_spread(void **state)
{
    (void)state;
    double lo, hi;
    /* Wilson's interval, worked by hand: p = 0.5, n = 100. */
    assert_float_equal(odds_share(50, 100, &lo, &hi), 0.5, 1e-12);
    assert_float_equal(lo, 0.4038, 1e-4);
    assert_float_equal(hi, 0.5962, 1e-4);
    /* Nothing out of ten: not a zero-wide interval. */
    assert_float_equal(odds_share(0, 10, &lo, &hi), 0.0, 1e-12);
    assert_float_equal(lo, 0.0, 1e-12);
    assert_float_equal(hi, 0.2775, 1e-4);
    assert_float_equal(odds_share(10, 10, &lo, &hi), 1.0, 1e-12);
    assert_float_equal(lo, 0.7225, 1e-4);
    assert_float_equal(hi, 1.0, 1e-12);
    odds_share(0, 0, &lo, &hi);
    assert_true(lo == 0.0 && hi == 1.0);
    /* Rounds 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd sqrt(32/7). */
    odds_tally_t t;
    odds_tally_init(&t, 2, 1, true);
    const int rounds[8] = {2, 4, 4, 4, 5, 5, 7, 9};
    const int win[8] = {0, 0, 1, 1, 0, -1, 0, 1}, base[8] = {0, 1, 1, 1, 1, 1, 0, 1};
    bool def[1] = {true};
    for (int k = 0; k < 8; k++)
        odds_tally_add(&t, (odds_outcome_t){true, win[k], rounds[k]}, def, base[k]);
    odds_tally_add(&t, (odds_outcome_t){false, -1, 0}, def, -1); /* a failed run */
    assert_int_equal(t.runs, 9);
    assert_int_equal(odds_played(&t), 8);
    double mean, sd;
    odds_rounds(&t, &mean, &sd);
    assert_float_equal(mean, 5.0, 1e-12);
    assert_float_equal(sd, 2.13809, 1e-5);
    assert_int_equal(t.win[0], 4);
    assert_int_equal(t.none, 1);
    assert_int_equal(t.out[0], 8);
    /* Side 0, run by run (alt won - plain won): 1-1, 1-0, 0-0, 0-0, 1-0,
     * 0-0, 1-1, 0-0: two runs of +1 in eight. */
    double hw, d = odds_diff(&t, 0, &hw);
    assert_float_equal(d, 2.0 / 8.0, 1e-12);
    /* var = (2 - 8 * 0.0625) / 7 */
    assert_float_equal(hw, ODDS_Z95 * sqrt((2.0 - 0.5) / 7.0 / 8.0), 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interval_and_spread),
        cmocka_unit_test(test_two_threads_play_as_one),
        cmocka_unit_test(test_same_answer_any_thread_count),
        cmocka_unit_test(test_map_runs_are_simulate_battles),
        cmocka_unit_test(test_runs_go_on_from_the_state),
        cmocka_unit_test(test_finished_battle_is_certain),
        cmocka_unit_test(test_what_if_own_choice_is_no_difference),
        cmocka_unit_test(test_what_if_tells_good_from_bad),
        cmocka_unit_test(test_what_if_illegal_command_fails),
        cmocka_unit_test(test_pool_prefix_and_restart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
