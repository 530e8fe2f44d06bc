/* test_stop.c - the explicit stop: a ruleset that knows nothing of manual
 * dice or asked reactions rolls and asks as it likes; the driver reports
 * what the battle waits for and applies the command again once it is given.
 * Also: a roll over the limits, a roll from AI code and a stat table that is
 * too long are refused loudly. Uses a small probe ruleset defined here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rules_fixture.h"

/* Probe commands: CMD_ENGAGE with arg PROBE_*. */
enum { PROBE_TWO_ROLLS = 1, PROBE_HUGE_ROLL, PROBE_TWO_ASKS, PROBE_POOL, PROBE_CHOICE };

static const char *const GUARD[3] = {"let it be", "parry", "dodge"};

static const char *const PROBE_STATS[] = {"grit"};
static int g_ends;        /* apply calls that ran to their last line */
static bool g_ai_rolls;   /* the probe AI misbehaves and rolls */

static void probe_setup(battle_t *b) { b->round = 1; }

static int probe_actors(const battle_t *b, int *out, int cap)
{
    if (b->over || cap < 1)
        return 0;
    out[0] = 0;
    return 1;
}

static int probe_legal(battle_t *b, int actor, cmd_t *out, int cap)
{
    (void)b;
    if (cap > 0)
        out[0] = cmd_make(CMD_END, actor);
    return 1;
}

static battle_status_t probe_apply(battle_t *b, const cmd_t *c)
{
    if (c->kind == CMD_END) {
        battle_round_end(b);
        return BATTLE_OK;
    }
    if (c->kind != CMD_ENGAGE)
        return BATTLE_ILLEGAL;
    switch (c->arg) {
    case PROBE_TWO_ROLLS: {
        /* A ruleset that uses its rolls at once, as any would. */
        int first = battle_roll(b, 0, 2, 6, 0, 0, "first", NULL);
        battle_emit_action(b, 0, first >= 7 ? "high" : "low", -1, true);
        battle_roll(b, 0, 1, 20, 0, 0, "second", NULL);
        break;
    }
    case PROBE_HUGE_ROLL:
        battle_roll(b, 0, 40, 6, 0, 0, "heat", NULL);
        break;
    case PROBE_TWO_ASKS:
        for (int k = 0; k < 2; k++)
            battle_emit_action(b, 1, "guard", 0, battle_ask_reaction(b, 1, "probe", 0));
        break;
    case PROBE_POOL: {
        roll_spec_t s = roll_plain(3, 12, 0, 0);
        s.count_at = 8;
        s.crit_at = 10;
        s.crit_value = 2;
        s.botch_at = 1;
        s.botch_value = 1;
        battle_roll_spec(b, 0, &s, "fight", NULL);
        break;
    }
    case PROBE_CHOICE: {
        /* Three ways to answer: the option's label is what happens. */
        int k = battle_ask_choice(b, 1, "guard", 0, 3, GUARD);
        battle_emit_action(b, 1, GUARD[k], 0, true);
        break;
    }
    default:
        return BATTLE_ILLEGAL;
    }
    g_ends++;
    return BATTLE_OK;
}

/* The policy: parry when offered a guard, take any yes/no. */
static int probe_react(const battle_t *b, int reactor, const react_offer_t *offer)
{
    (void)b;
    (void)reactor;
    return offer->n > 1 ? 1 : 0;
}

static void probe_ai(battle_t *b, int actor, cmd_t *out)
{
    if (g_ai_rolls)
        battle_roll(b, actor, 1, 6, 0, 0, "peek", NULL);
    *out = cmd_make(CMD_END, actor);
}

static int probe_winner(const battle_t *b)
{
    (void)b;
    return -2;
}

static void probe_geo(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c,
                      geo_profile_t *out)
{
    (void)db;
    (void)c;
    *out = (geo_profile_t){m->feet_per_hex, 30, 60, m->feet_per_hex, 0};
}

static const ruleset_t PROBE = {
    .id = "probe",
    .title = "probe",
    .geo_profile = probe_geo,
    .stat_names = PROBE_STATS,
    .n_stats = 1,
    .state_size = 0,
    .setup = probe_setup,
    .actors = probe_actors,
    .legal = probe_legal,
    .apply = probe_apply,
    .react = probe_react,
    .ai = probe_ai,
    .winner = probe_winner,
};

static cmd_t probe_cmd(int arg)
{
    cmd_t c = cmd_make(CMD_ENGAGE, 0);
    c.target = 1;
    c.arg = arg;
    return c;
}

static void start(fx_t *f, battle_opts_t o)
{
    f->m = fx_map(6, 3, "probe", NULL);
    fx_add(f->m, "p", "players", 0, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, NULL);
    fx_add(f->m, "q", "others", 5, 2, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, NULL);
    f->db = fx_db("probe");
    assert_int_equal(play_start(&f->p, f->m, f->db, &PROBE, &o), BATTLE_OK);
    g_ends = 0;
    g_ai_rolls = false;
}

/* The command starves at its first die, runs on to its end all the same,
 * and is applied again from the start for each die typed in. */
static void test_starved_roll_runs_to_the_end_and_resumes(void **state)
{
    (void)state;
    fx_t f;
    start(&f, (battle_opts_t){.seed = 1, .manual_all = true});
    int before = f.p.b->log.n;
    cmd_t c = probe_cmd(PROBE_TWO_ROLLS);
    assert_int_equal(play_apply(&f.p, &c), BATTLE_NEED_DICE);
    assert_int_equal(g_ends, 1);
    assert_string_equal(f.p.b->need.why, "first");
    assert_int_equal(f.p.b->need.index, 0);
    assert_int_equal(f.p.b->need.count, 2);
    assert_int_equal(f.p.b->need.spec.n, 2);
    assert_int_equal(f.p.b->need.spec.sides, 6);
    /* Wound back to just before the command; nothing kept. */
    assert_int_equal(f.p.b->log.n, before);
    assert_int_equal(f.p.b->cmds.n, 0);
    assert_int_equal(play_apply(&f.p, &c), BATTLE_NEED_DICE); /* still waiting: refused */
    assert_int_equal(play_enter_die(&f.p, 3), BATTLE_NEED_DICE);
    assert_int_equal(f.p.b->need.index, 1);
    assert_int_equal(play_enter_die(&f.p, 5), BATTLE_NEED_DICE);
    assert_string_equal(f.p.b->need.why, "second");
    assert_int_equal(f.p.b->need.sides, 20);
    assert_int_equal(play_enter_die(&f.p, 17), BATTLE_OK);
    assert_int_equal(g_ends, 4);
    assert_int_equal(f.p.b->cmds.n, 1);
    int k = FX_FIND(f.p.b, before, "\"roll\"", "\"why\":\"first\"", "\"rolls\":[3,5]", "\"total\":8");
    assert_true(k >= 0);
    k = FX_FIND(f.p.b, k, "\"action\"", "\"action\":\"high\"");
    assert_true(k >= 0);
    assert_true(FX_FIND(f.p.b, k, "\"roll\"", "\"why\":\"second\"", "\"total\":17") > k);
    fx_free(&f);
}

/* Each asked reaction stops the command; the answers go into it, in order,
 * and a rebuild from the command list replays them. */
static void test_asked_reactions_resume_in_order(void **state)
{
    (void)state;
    fx_t f;
    start(&f, (battle_opts_t){.seed = 1, .ask_sides = 1u << 1});
    cmd_t c = probe_cmd(PROBE_TWO_ASKS);
    assert_int_equal(play_apply(&f.p, &c), BATTLE_NEED_REACTION);
    assert_int_equal(f.p.b->ask.who, 1);
    assert_int_equal(f.p.b->ask.trigger, 0);
    assert_string_equal(f.p.b->ask.kind, "probe");
    assert_int_equal(play_answer_reaction(&f.p, true), BATTLE_NEED_REACTION);
    assert_int_equal(play_answer_reaction(&f.p, false), BATTLE_OK);
    assert_int_equal(play_answer_reaction(&f.p, false), BATTLE_ILLEGAL); /* nothing asked */
    assert_int_equal(f.p.b->cmds.n, 1);
    assert_int_equal(f.p.b->cmds.c[0].n_answers, 2);
    int k = FX_FIND(f.p.b, 0, "\"action\":\"guard\"", "\"ok\":true");
    assert_true(k >= 0);
    assert_true(FX_FIND(f.p.b, k + 1, "\"action\":\"guard\"", "\"ok\":false") > k);
    int n = f.p.b->log.n;
    assert_int_equal(play_rebuild(&f.p), BATTLE_OK);
    assert_int_equal(f.p.b->log.n, n);
    assert_true(FX_FIND(f.p.b, k + 1, "\"action\":\"guard\"", "\"ok\":false") > k);
    fx_free(&f);
}

/* A reaction with three options: the table's pick (kept in the command, so
 * a rebuild replays it), the policy's when the side is not asked, and
 * "let it be" when the side declines everything; a pick beyond the options
 * is refused. */
static void test_reaction_choices_through_a_rebuild(void **state)
{
    (void)state;
    fx_t f;
    start(&f, (battle_opts_t){.seed = 1, .ask_sides = 1u << 1});
    cmd_t c = probe_cmd(PROBE_CHOICE);
    assert_int_equal(play_apply(&f.p, &c), BATTLE_NEED_REACTION);
    assert_int_equal(f.p.b->ask.n, 3);
    assert_string_equal(f.p.b->ask.kind, "guard");
    assert_string_equal(f.p.b->ask.labels[0], "let it be");
    assert_string_equal(f.p.b->ask.labels[2], "dodge");
    assert_int_equal(play_answer_choice(&f.p, 3), BATTLE_ILLEGAL);
    assert_int_equal(play_answer_choice(&f.p, -1), BATTLE_ILLEGAL);
    assert_int_equal(play_answer_choice(&f.p, 2), BATTLE_OK);
    assert_int_equal(f.p.b->cmds.c[0].n_answers, 1);
    assert_int_equal(f.p.b->cmds.c[0].answer[0], 2);
    int n = f.p.b->log.n;
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"dodge\"") >= 0);
    assert_int_equal(play_rebuild(&f.p), BATTLE_OK);
    assert_int_equal(f.p.b->log.n, n);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"dodge\"") >= 0);
    /* The same command carrying an answer it cannot mean is refused. */
    c.n_answers = 1;
    c.answer[0] = 3;
    assert_int_equal(play_apply(&f.p, &c), BATTLE_ERROR);
    assert_non_null(strstr(f.p.error, "answer 3"));
    fx_free(&f);

    start(&f, (battle_opts_t){.seed = 1});
    c = probe_cmd(PROBE_CHOICE);
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"parry\"") >= 0);
    fx_free(&f);

    start(&f, (battle_opts_t){.seed = 1, .decline_sides = 1u << 1, .ask_sides = 1u << 1});
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    assert_true(FX_FIND(f.p.b, 0, "\"action\":\"let it be\"") >= 0);
    fx_free(&f);
}

/* 40 dice is more than a roll may throw: refused with a reason, the
 * command dropped, the battle as it was and able to go on. */
static void test_roll_over_the_limit_fails_loudly(void **state)
{
    (void)state;
    fx_t f;
    start(&f, (battle_opts_t){.seed = 1});
    int before = f.p.b->log.n;
    cmd_t c = probe_cmd(PROBE_HUGE_ROLL);
    assert_int_equal(play_apply(&f.p, &c), BATTLE_ERROR);
    assert_non_null(strstr(f.p.error, "heat"));
    assert_non_null(strstr(f.p.error, "40 dice"));
    assert_int_equal(f.p.b->cmds.n, 0);
    assert_int_equal(f.p.b->log.n, before);
    assert_false(battle_halted(f.p.b));
    c = probe_cmd(PROBE_TWO_ROLLS);
    assert_int_equal(play_apply(&f.p, &c), BATTLE_OK);
    assert_string_equal(f.p.error, "");
    assert_int_equal(f.p.b->cmds.n, 1);
    fx_free(&f);
}

/* The AI only looks: a roll from it stops play_auto with an error. */
static void test_a_roll_from_the_ai_is_a_fault(void **state)
{
    (void)state;
    fx_t f;
    start(&f, (battle_opts_t){.seed = 1, .max_rounds = 3});
    assert_int_equal(play_auto(&f.p, 3), BATTLE_OK); /* a well-behaved AI plays on */
    fx_free(&f);
    start(&f, (battle_opts_t){.seed = 1, .max_rounds = 3});
    g_ai_rolls = true;
    assert_int_equal(play_auto(&f.p, 3), BATTLE_ERROR);
    assert_non_null(strstr(f.p.error, "peek"));
    assert_int_equal(f.p.b->cmds.n, 0);
    fx_free(&f);
}

/* A success-counting pool, typed in by hand: the request carries the spec,
 * the event the successes. */
static void test_pool_typed_in(void **state)
{
    (void)state;
    fx_t f;
    start(&f, (battle_opts_t){.seed = 1, .manual_all = true});
    cmd_t c = probe_cmd(PROBE_POOL);
    assert_int_equal(play_apply(&f.p, &c), BATTLE_NEED_DICE);
    char text[96];
    roll_describe(&f.p.b->need.spec, text, sizeof text);
    assert_string_equal(text, "3d12: 8+ succeeds, 10+ counts 2, a 1 takes one away");
    assert_int_equal(fx_feed(&f.p, BATTLE_NEED_DICE, FX_DICE(1, 9, 11)), BATTLE_OK);
    const event_t *e = &f.p.b->log.ev[f.p.b->log.n - 1];
    assert_int_equal(e->type, EV_ROLL);
    assert_int_equal(e->successes, 2);
    assert_int_equal(e->total, 2);
    assert_int_equal(e->spec.count_at, 8);
    fx_free(&f);
}

/* A ruleset naming more stats than a battle holds is refused, not cut short. */
static void test_too_many_stats_refused(void **state)
{
    (void)state;
    static const char *names[UNIT_MAX_STATS + 1];
    for (int k = 0; k <= UNIT_MAX_STATS; k++)
        names[k] = "s";
    ruleset_t big = PROBE;
    big.stat_names = names;
    big.n_stats = UNIT_MAX_STATS + 1;
    map_t *m = fx_map(6, 3, "probe", NULL);
    fx_add(m, "p", "players", 0, 0, KIND_CREATURE, SIZE_MEDIUM, 10, 30, NULL, NULL);
    tmpl_db_t *db = fx_db("probe");
    play_t p;
    battle_opts_t o = {.seed = 1};
    assert_int_equal(play_start(&p, m, db, &big, &o), BATTLE_ERROR);
    assert_null(p.b);
    assert_non_null(strstr(p.error, "33 stats"));
    play_end(&p);
    big.n_stats = UNIT_MAX_STATS; /* exactly the limit is fine */
    assert_int_equal(play_start(&p, m, db, &big, &o), BATTLE_OK);
    assert_int_equal(p.b->n_stats, UNIT_MAX_STATS);
    play_end(&p);
    map_destroy(m);
    free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_starved_roll_runs_to_the_end_and_resumes),
        cmocka_unit_test(test_asked_reactions_resume_in_order),
        cmocka_unit_test(test_reaction_choices_through_a_rebuild),
        cmocka_unit_test(test_roll_over_the_limit_fails_loudly),
        cmocka_unit_test(test_a_roll_from_the_ai_is_a_fault),
        cmocka_unit_test(test_pool_typed_in),
        cmocka_unit_test(test_too_many_stats_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
