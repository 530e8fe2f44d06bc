/* test_predict_freq.c - the odds a ruleset shows before an attack (its
 * predict hook, through predict_cmd) against what its apply does, for all
 * five rulesets on their bundled maps.
 *
 * Each case plays the map with the AI until some actor has a legal attack
 * whose odds are worth checking, records the commands that led there, then
 * many times: rebuilds that very state (same map, seed and commands), reseeds
 * the dice with the run's own seed, applies the attack and lets the battle
 * run on until that attack is resolved. The share of runs in which it hit
 * must match the predicted chance, and the mean HP it took the mean
 * predicted, within 4 standard errors (plus a small floor for rounding).
 * The target's HP is raised to a large value in every run (and before the
 * prediction), so that no cap at its remaining HP blurs the comparison.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/dice.h"
#include "io/map_io.h"
#include "rules/play.h"
#include "rules/predict.h"

#define MAX_CMDS 400
#define BIG_HP 500

typedef struct {
    const char *map;     /* maps/NAME.json */
    uint64_t seed;       /* the battle's seed */
    bool decline;        /* every side lets reactions pass (the odds assume none) */
    bool check_damage;   /* damage on the target follows the attack event */
    double p_lo, p_hi;   /* the chance wanted for an attack worth checking */
    int runs;
} freq_case_t;

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    battle_opts_t opts;
    cmd_t cmds[MAX_CMDS];
    int n_cmds;
    cmd_t attack;
} freq_state_t;

static void load(const char *name, map_t **m, tmpl_db_t **db)
{
    char path[512], data[512], err[512];
    snprintf(path, sizeof path, "%s/../../maps/%s.json", HB_TEST_DATA, name);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    if (map_load(path, data, m, db, err, sizeof err) != 0) fail_msg("%s: %s", path, err);
}

/* The battle at the recorded state: started with the case's seed and the
 * recorded commands applied again, then the target's HP raised. */
static void rebuild(play_t *p, const freq_state_t *s)
{
    memset(p, 0, sizeof *p);
    assert_int_equal(play_start(p, s->m, s->db, NULL, &s->opts), BATTLE_OK);
    for (int k = 0; k < s->n_cmds; k++) assert_int_equal(play_apply(p, &s->cmds[k]), BATTLE_OK);
    int t = s->attack.target;
    p->b->u[t].hp_max = p->b->u[t].hp = BIG_HP;
}

/* An attack of one of the current actors whose predicted chance lies in
 * [lo, hi]; false when none. */
static bool find_attack(play_t *p, double lo, double hi, cmd_t *out)
{
    int act[MAP_MAX_COMBATANTS];
    int na = play_actors(p, act, MAP_MAX_COMBATANTS);
    static cmd_t legal[4096];
    for (int k = 0; k < na; k++) {
        int n = p->rs->legal(p->b, act[k], legal, 4096);
        for (int j = 0; j < n; j++) {
            const cmd_t *c = &legal[j];
            if (c->target < 0) continue;
            /* Judge it against a sturdy target, as every run will. */
            unit_t *u = &p->b->u[c->target];
            int hp = u->hp, hp_max = u->hp_max;
            u->hp = u->hp_max = BIG_HP;
            predict_t pr;
            bool ok = predict_cmd(p->b, c, &pr);
            u->hp = hp;
            u->hp_max = hp_max;
            if (ok && pr.p_hit >= lo && pr.p_hit <= hi) {
                *out = *c;
                return true;
            }
        }
    }
    return false;
}

/* One AI command of the first actor; false when the battle cannot go on. */
static bool ai_step(play_t *p, cmd_t *out)
{
    int act[MAP_MAX_COMBATANTS];
    if (play_actors(p, act, MAP_MAX_COMBATANTS) < 1) return false;
    p->rs->ai(p->b, act[0], out);
    return play_apply(p, out) == BATTLE_OK;
}

/* The first attack event of a on t from event `from` on: its index, or -1. */
static int attack_event(const battle_t *b, int from, int a, int t)
{
    for (int k = from; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type == EV_ATTACK && e->who == a && e->target == t) return k;
    }
    return -1;
}

static void check_case(const freq_case_t *fc)
{
    freq_state_t *s = calloc(1, sizeof *s);
    assert_non_null(s);
    load(fc->map, &s->m, &s->db);
    s->opts.seed = fc->seed;
    /* Board sides are the map's factions in order: a bit for each. */
    if (fc->decline) s->opts.decline_sides = ~0u;
    play_t p;
    memset(&p, 0, sizeof p);
    assert_int_equal(play_start(&p, s->m, s->db, NULL, &s->opts), BATTLE_OK);
    bool found = false;
    while (!found && s->n_cmds < MAX_CMDS) {
        if (find_attack(&p, fc->p_lo, fc->p_hi, &s->attack)) {
            found = true;
            break;
        }
        if (!ai_step(&p, &s->cmds[s->n_cmds])) break;
        s->n_cmds++;
    }
    play_end(&p);
    if (!found) fail_msg("%s: no attack with odds in [%.2f, %.2f]", fc->map, fc->p_lo, fc->p_hi);

    int a = s->attack.actor, t = s->attack.target;
    rebuild(&p, s);
    predict_t pr;
    assert_true(predict_cmd(p.b, &s->attack, &pr));
    play_end(&p);

    double hits = 0, sum = 0, sum2 = 0;
    for (int r = 0; r < fc->runs; r++) {
        rebuild(&p, s);
        rng_seed(&p.b->dice.rng, 0x9e3779b9u + (uint64_t)r * 7919u);
        int from = p.b->log.n;
        assert_int_equal(play_apply(&p, &s->attack), BATTLE_OK);
        /* A declaration resolves later: the battle runs on until it does. */
        int ev = attack_event(p.b, from, a, t);
        cmd_t c;
        for (int steps = 0; ev < 0 && steps < 200 && ai_step(&p, &c); steps++)
            ev = attack_event(p.b, from, a, t);
        if (ev < 0) fail_msg("%s run %d: the attack never resolved", fc->map, r);
        const event_t *e = &p.b->log.ev[ev];
        hits += e->hit;
        /* HP the target lost to it: the damage events up to the next attack. */
        int lost = 0;
        for (int k = ev + 1; k < p.b->log.n; k++) {
            const event_t *x = &p.b->log.ev[k];
            if (x->type == EV_ATTACK || x->type == EV_TURN_END || x->type == EV_PHASE) break;
            if (x->type == EV_DAMAGE && x->target == t && strcmp(x->name, "heat") != 0)
                lost += x->amount;
        }
        sum += lost;
        sum2 += (double)lost * lost;
        play_end(&p);
    }
    int n = fc->runs;
    double freq = hits / n, mean = sum / n, sd = sqrt(fmax(0.0, sum2 / n - mean * mean));
    double tol_p = 4.0 * sqrt(pr.p_hit * (1 - pr.p_hit) / n) + 0.002;
    double tol_m = 4.0 * sd / sqrt(n) + 0.01;
    print_message("%-20s %s -> %s (%s): predicted %.3f hit, %.2f loss; seen %.3f, %.2f\n",
                  fc->map, s->m->combatants[a].id, s->m->combatants[t].id, pr.detail, pr.p_hit,
                  pr.dmg_expected, freq, mean);
    if (fabs(freq - pr.p_hit) > tol_p)
        fail_msg("%s: hit chance %.4f predicted, %.4f seen over %d runs (tolerance %.4f)",
                 fc->map, pr.p_hit, freq, n, tol_p);
    if (fc->check_damage && fabs(mean - pr.dmg_expected) > tol_m)
        fail_msg("%s: loss %.3f predicted, %.3f seen over %d runs (tolerance %.3f)", fc->map,
                 pr.dmg_expected, mean, n, tol_m);
    map_destroy(s->m);
    tmpl_db_destroy(s->db);
    free(s);
}

static void test_xhalem(void **state)
{
    (void)state;
    const freq_case_t c = {"ridge_ambush", 11, false, true, 0.15, 0.85, 10000};
    check_case(&c);
}

static void test_scars(void **state)
{
    (void)state;
    /* No roll to hit: an attack that reaches always lands. The die behind
     * the damage is checked against the roll in test_predict_scars; here the
     * damage of a pooled resolution is not the attacker's alone. */
    const freq_case_t c = {"salt_flats", 5, false, false, 1.0, 1.0, 300};
    check_case(&c);
}

static void test_surface(void **state)
{
    (void)state;
    const freq_case_t c = {"relay_outpost", 3, false, true, 0.15, 0.85, 10000};
    check_case(&c);
}

static void test_emcore(void **state)
{
    (void)state;
    const freq_case_t c = {"river_crossing", 7, false, true, 0.15, 0.85, 10000};
    check_case(&c);
}

static void test_activation(void **state)
{
    (void)state;
    /* Interrupts may change an action midway; the odds are those of the
     * action itself, so the runs let every reaction pass. */
    const freq_case_t c = {"shattered_lane", 4, true, true, 0.15, 0.85, 10000};
    check_case(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xhalem),  cmocka_unit_test(test_scars),
        cmocka_unit_test(test_surface), cmocka_unit_test(test_emcore),
        cmocka_unit_test(test_activation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
