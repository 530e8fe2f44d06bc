/* test_battle.c - the battle driver: seeded dice, stopping for hand-entered
 * dice, rebuilding from commands, undo, and the event log's JSON form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/area.h"
#include "rules_fixture.h"

static map_t *skirmish(tmpl_db_t **db)
{
    map_t *m = fx_map(12, 6, "xhalem", NULL);
    fx_add(m, "a1", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 12, 30, "knife", "agility=2,evasion=2,strength=1");
    fx_add(m, "a2", "players", 1, 3, KIND_CREATURE, SIZE_MEDIUM, 12, 30, "bow", "agility=3,evasion=1");
    fx_add(m, "r1", "raiders", 10, 2, KIND_CREATURE, SIZE_MEDIUM, 14, 30, "knife", "agility=1,evasion=1,strength=2");
    fx_add(m, "r2", "raiders", 10, 4, KIND_CREATURE, SIZE_MEDIUM, 10, 30, "knife", "agility=2,evasion=3");
    *db = fx_db("xhalem");
    fx_weapon(*db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_weapon(*db, "bow", WPN_RANGED, false, 0, 40, 1, 8, 0, NULL);
    return m;
}

/* A raider must run past a pikeman in the rubble to reach the wounded archer
 * it wants: the AI only draws opportunity attacks when it has nobody to
 * strike where it stands, so this is where the players get asked. */
static map_t *gauntlet(tmpl_db_t **db)
{
    static const char *const ROWS[] = {"............", "^^^^^^^^^^^^", "............"};
    map_t *m = fx_map(12, 3, "xhalem", ROWS);
    fx_add(m, "pike", "players", 5, 0, KIND_CREATURE, SIZE_MEDIUM, 40, 0, "pike", "agility=2,strength=1");
    fx_add(m, "archer", "players", 0, 2, KIND_CREATURE, SIZE_MEDIUM, 12, 30, "bow", "agility=3,evasion=1");
    fx_add(m, "runner", "raiders", 11, 2, KIND_CREATURE, SIZE_MEDIUM, 30, 30, "knife", "agility=1,strength=2");
    *db = fx_db("xhalem");
    fx_weapon(*db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_weapon(*db, "pike", WPN_MELEE, false, 10, 0, 1, 8, 0, NULL);
    fx_weapon(*db, "bow", WPN_RANGED, false, 0, 40, 1, 8, 0, NULL);
    return m;
}

/* The skirmish as a bare battle (no driver), dice seed 1, reset. */
static battle_t *bare_battle(map_t **m, tmpl_db_t **db)
{
    *m = skirmish(db);
    battle_opts_t o = {.seed = 1};
    static const char *const names[] = {"x"};
    battle_t *b = battle_create(*m, *db, &o, names, 1, 0);
    assert_non_null(b);
    assert_true(battle_reset(b));
    return b;
}

static void bare_free(battle_t *b, map_t *m, tmpl_db_t *db)
{
    battle_destroy(b);
    map_destroy(m);
    free(db);
}

static char *auto_battle(const map_t *m, const tmpl_db_t *db, uint64_t seed, int *ncmds)
{
    play_t p;
    battle_opts_t o = {.seed = seed, .max_rounds = 50};
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    assert_int_equal(play_auto(&p, 50), BATTLE_OK);
    assert_true(p.b->over);
    if (ncmds)
        *ncmds = p.b->cmds.n;
    char *t = fx_log_text(p.b);
    play_end(&p);
    return t;
}

static void test_same_seed_same_events(void **state)
{
    (void)state;
    tmpl_db_t *db;
    map_t *m = skirmish(&db);
    char *a = auto_battle(m, db, 9, NULL);
    char *b = auto_battle(m, db, 9, NULL);
    char *c = auto_battle(m, db, 10, NULL);
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    /* The log ends with the end event and starts with initiative rolls. */
    assert_non_null(strstr(a, "\"why\":\"initiative\""));
    const char *last = strstr(a, "{\"event\":\"end\"");
    assert_non_null(last);
    assert_null(strchr(last, '\n')[1] ? strchr(last, '\n') + 1 : NULL);
    free(a);
    free(b);
    free(c);
    map_destroy(m);
    free(db);
}

static void test_rebuild_from_commands(void **state)
{
    (void)state;
    tmpl_db_t *db;
    map_t *m = skirmish(&db);
    play_t p;
    battle_opts_t o = {.seed = 77, .max_rounds = 50};
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    assert_int_equal(play_auto(&p, 50), BATTLE_OK);
    char *before = fx_log_text(p.b);
    int hp[4];
    for (int i = 0; i < 4; i++)
        hp[i] = p.b->u[i].hp;
    /* Map + seed + commands: the same battle, byte for byte. */
    assert_int_equal(play_rebuild(&p), BATTLE_OK);
    char *after = fx_log_text(p.b);
    assert_string_equal(before, after);
    for (int i = 0; i < 4; i++)
        assert_int_equal(p.b->u[i].hp, hp[i]);
    free(before);
    free(after);
    play_end(&p);
    map_destroy(m);
    free(db);
}

static void test_undo_restores_previous_state(void **state)
{
    (void)state;
    tmpl_db_t *db;
    map_t *m = skirmish(&db);
    play_t p;
    battle_opts_t o = {.seed = 3};
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    int actor;
    assert_int_equal(play_actors(&p, &actor, 1), 1);
    char *start = fx_log_text(p.b);
    hex_t at = p.b->board->pos[actor];
    cmd_t c;
    p.rs->ai(p.b, actor, &c);
    assert_int_equal(play_apply(&p, &c), BATTLE_OK);
    assert_int_equal(p.b->cmds.n, 1);
    assert_int_equal(play_undo(&p), BATTLE_OK);
    assert_int_equal(p.b->cmds.n, 0);
    char *again = fx_log_text(p.b);
    assert_string_equal(start, again);
    assert_true(hex_eq(p.b->board->pos[actor], at));
    assert_int_equal(play_undo(&p), BATTLE_ILLEGAL);
    free(start);
    free(again);
    play_end(&p);
    map_destroy(m);
    free(db);
}

static void test_manual_roll_stops_and_resumes(void **state)
{
    (void)state;
    tmpl_db_t *db;
    map_t *m = skirmish(&db);
    play_t p;
    /* Only the players' side (board side 0) rolls by hand. */
    battle_opts_t o = {.seed = 5, .manual_sides = 1u};
    battle_status_t st = play_start(&p, m, db, NULL, &o);
    assert_int_equal(st, BATTLE_NEED_DICE);
    /* It says who rolls, what and why. */
    assert_int_equal(p.b->need.who, 0);
    assert_int_equal(p.b->need.sides, 20);
    assert_string_equal(p.b->need.why, "initiative");
    assert_int_equal(p.b->need.mod, 2); /* a1's initiative bonus, told before the die is in */
    int none;
    assert_int_equal(play_actors(&p, &none, 1), 0);
    assert_int_equal(play_enter_die(&p, 21), BATTLE_ILLEGAL); /* not a face of a d20 */
    assert_int_equal(play_enter_die(&p, 20), BATTLE_NEED_DICE);
    assert_int_equal(p.b->need.who, 1);
    assert_int_equal(play_enter_die(&p, 1), BATTLE_OK); /* raiders rolled by the generator */
    /* The entered values appear as ordinary roll events. */
    assert_true(FX_FIND(p.b, 0, "\"roll\"", "\"who\":\"a1\"", "\"rolls\":[20]", "\"total\":22") >= 0);
    assert_true(FX_FIND(p.b, 0, "\"roll\"", "\"who\":\"a2\"", "\"rolls\":[1]", "\"total\":2") >= 0);
    /* a1 (22) acts first. */
    int actor;
    assert_int_equal(play_actors(&p, &actor, 1), 1);
    assert_int_equal(actor, 0);
    /* Rebuilding with the same entered dice gives the same log. */
    char *a = fx_log_text(p.b);
    assert_int_equal(play_rebuild(&p), BATTLE_OK);
    char *b = fx_log_text(p.b);
    assert_string_equal(a, b);
    free(a);
    free(b);
    play_end(&p);
    map_destroy(m);
    free(db);
}

static void test_roll_keeps_highest_and_lowest(void **state)
{
    (void)state;
    tmpl_db_t *db;
    map_t *m;
    battle_t *b = bare_battle(&m, &db);
    assert_true(dice_enter(&b->dice, 0)); /* unused: the generator serves side -1 */
    event_t e;
    int hi = battle_roll_side(b, -1, -1, 4, 6, 1, 2, "hi", &e);
    int mx = 0;
    for (int k = 0; k < 4; k++)
        mx = e.dice[k] > mx ? e.dice[k] : mx;
    assert_int_equal(hi, mx + 2);
    int lo = battle_roll_side(b, -1, -1, 4, 6, -1, 0, "lo", &e);
    int mn = 7;
    for (int k = 0; k < 4; k++)
        mn = e.dice[k] < mn ? e.dice[k] : mn;
    assert_int_equal(lo, mn);
    int all = battle_roll_side(b, -1, -1, 3, 6, 0, 1, "sum", &e);
    assert_int_equal(all, e.dice[0] + e.dice[1] + e.dice[2] + 1);
    assert_int_equal(e.kept_n, 3);
    bare_free(b, m, db);
}

/* A starved roll tells the table its whole shape: the dice, the keep rule and
 * the modifier, whatever the roll is for. The request is the first die the
 * battle lacks: a later roll (the command runs on to its end) changes it not. */
static void test_request_carries_keep_and_modifier(void **state)
{
    (void)state;
    tmpl_db_t *db;
    map_t *m;
    battle_t *b = bare_battle(&m, &db);
    b->dice.manual_all = true; /* every roll from the table, none entered yet */
    battle_roll_side(b, 1, 1, 4, 20, -1, -3, "hide", NULL);
    assert_true(b->needing);
    assert_int_equal(b->need.who, 1);
    assert_int_equal(b->need.count, 4);
    assert_int_equal(b->need.keep, -1);
    assert_int_equal(b->need.mod, -3);
    assert_string_equal(b->need.why, "hide");
    assert_int_equal(b->need.spec.n, 4);
    assert_int_equal(b->need.spec.sides, 20);
    event_t e;
    int total = battle_roll_side(b, 0, 0, 2, 6, 0, 5, "damage", &e);
    assert_int_equal(total, 1 + 1 + 5); /* stand-in faces */
    assert_int_equal(b->need.keep, -1);
    assert_int_equal(b->need.mod, -3);
    assert_int_equal(b->need.sides, 20);
    assert_string_equal(b->need.why, "hide");
    bare_free(b, m, db);
}

/* The JSON line of an area event by combatant 0 aimed at target. */
static void expect_area_line(const battle_t *b, int target, const area_t *a, const char *want)
{
    event_t e = area_event(b->map, 0, target, a);
    char *s = event_to_line(b->board, &e);
    assert_string_equal(s, want);
    free(s);
}

static void test_event_json_shapes(void **state)
{
    (void)state;
    tmpl_db_t *db;
    map_t *m;
    battle_t *b = bare_battle(&m, &db);
    event_t e = event_make(EV_MOVE_STEP);
    e.who = 2;
    e.from = (cell_t){3, 4};
    e.to = (cell_t){4, 4};
    char *s = event_to_line(b->board, &e);
    assert_string_equal(s, "{\"event\":\"move_step\",\"id\":\"r1\",\"from\":[3,4],\"to\":[4,4]}");
    free(s);
    e = event_make(EV_END);
    e.side = -1;
    e.value = 7;
    s = event_to_line(b->board, &e);
    assert_string_equal(s, "{\"event\":\"end\",\"winner\":null,\"rounds\":7}");
    free(s);
    e = event_make(EV_DAMAGE);
    e.target = 0;
    e.amount = 4;
    e.hp = 8;
    s = event_to_line(b->board, &e);
    assert_string_equal(s, "{\"event\":\"damage\",\"target\":\"a1\",\"amount\":4,\"hp\":8}");
    free(s);
    /* An area names its shape and only the fields that shape has. */
    hex_layout_t lay = m->layout;
    hex_t c11 = hex_from_cell(lay, (cell_t){1, 1});
    area_t cone = area_cone(c11, hex_from_cell(lay, (cell_t){4, 1}), 3, 0.25);
    expect_area_line(b, -1, &cone,
                     "{\"event\":\"area\",\"who\":\"a1\",\"shape\":\"cone\",\"from\":[1,1],"
                     "\"to\":[4,1],\"size\":3,\"tan\":0.25}");
    area_t blast = area_blast(c11, hex_from_cell(lay, (cell_t){3, 4}), 2);
    expect_area_line(b, 2, &blast,
                     "{\"event\":\"area\",\"who\":\"a1\",\"target\":\"r1\",\"shape\":\"blast\","
                     "\"from\":[1,1],\"to\":[3,4],\"size\":2}");
    area_t line = area_line(c11, hex_from_cell(lay, (cell_t){1, 4}), 5, 3);
    expect_area_line(b, -1, &line,
                     "{\"event\":\"area\",\"who\":\"a1\",\"shape\":\"line\",\"from\":[1,1],"
                     "\"to\":[1,4],\"size\":5,\"width\":3}");
    bare_free(b, m, db);
}

/* The fields other rulesets need: a phase, a side's initiative, a
 * telegraphed declaration, soak / armour / kind on damage, successes on a
 * counting or pass/fail roll; and none of them where they mean nothing. */
static void test_event_json_optional_fields(void **state)
{
    (void)state;
    tmpl_db_t *db;
    map_t *m;
    battle_t *b = bare_battle(&m, &db);
    typedef struct {
        event_t e;
        const char *json;
    } json_case_t;
    json_case_t cases[9];
    int n = 0;
    event_t e = event_make(EV_PHASE);
    hb_strlcpy(e.name, "immediate", sizeof e.name);
    e.value = 2;
    cases[n++] = (json_case_t){e, "{\"event\":\"phase\",\"name\":\"immediate\",\"round\":2}"};
    e = event_make(EV_INITIATIVE);
    e.side = 1;
    e.total = 17;
    e.value = 1;
    cases[n++] = (json_case_t){e, "{\"event\":\"initiative\",\"side\":\"raiders\",\"score\":17,\"rank\":1}"};
    e.who = 0;
    cases[n++] = (json_case_t){e, "{\"event\":\"initiative\",\"id\":\"a1\",\"score\":17,\"rank\":1}"};
    e = event_make(EV_DECLARE);
    e.who = 2;
    hb_strlcpy(e.name, "charge", sizeof e.name);
    cases[n++] = (json_case_t){e, "{\"event\":\"declare\",\"id\":\"r1\",\"action\":\"charge\"}"};
    e.to = (cell_t){4, 2};
    e.value = 0;
    e.opt = EV_OPT_AT | EV_OPT_VALUE;
    cases[n++] = (json_case_t){e, "{\"event\":\"declare\",\"id\":\"r1\",\"action\":\"charge\",\"at\":[4,2],\"value\":0}"};
    e = event_make(EV_DAMAGE);
    e.target = 1;
    e.amount = 2;
    e.hp = 9;
    e.soaked = 3;
    e.armor = 4;
    e.opt = EV_OPT_SOAKED | EV_OPT_ARMOR;
    hb_strlcpy(e.name, "nonlethal", sizeof e.name);
    cases[n++] = (json_case_t){e, "{\"event\":\"damage\",\"target\":\"a2\",\"amount\":2,\"hp\":9,\"soaked\":3,\"armor\":4,\"kind\":\"nonlethal\"}"};
    /* Rolls through the battle: a pool, a pass/fail and a plain one. */
    roll_spec_t pool = roll_plain(3, 12, 0, 0);
    pool.count_at = 8;
    pool.crit_at = 10;
    pool.crit_value = 2;
    battle_roll_spec_side(b, -1, -1, &pool, "fight", &e);
    char want[256];
    snprintf(want, sizeof want, "\"total\":%d,\"successes\":%d,\"why\":\"fight\"}", e.successes, e.successes);
    char *line = event_to_line(b->board, &e);
    assert_non_null(strstr(line, want));
    free(line);
    roll_spec_t save = roll_plain(1, 20, 0, 0);
    save.goal = ROLL_GOAL_AT_MOST;
    save.target = 10;
    battle_roll_spec_side(b, -1, -1, &save, "save", &e);
    assert_int_equal(e.successes, e.total <= 10);
    snprintf(want, sizeof want, "\"successes\":%d,", e.successes);
    line = event_to_line(b->board, &e);
    assert_non_null(strstr(line, want));
    free(line);
    battle_roll_side(b, -1, -1, 2, 6, 0, 0, "plain", &e);
    line = event_to_line(b->board, &e);
    assert_null(strstr(line, "successes"));
    free(line);
    for (int k = 0; k < n; k++) {
        char *s = event_to_line(b->board, &cases[k].e);
        assert_string_equal(s, cases[k].json);
        free(s);
    }
    bare_free(b, m, db);
}

static void test_round_limit_ends_without_winner(void **state)
{
    (void)state;
    tmpl_db_t *db;
    map_t *m = skirmish(&db);
    play_t p;
    battle_opts_t o = {.seed = 4, .max_rounds = 1};
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    /* Everyone just ends their turn: one round, then the limit. */
    for (int k = 0; k < 4; k++) {
        int a;
        assert_int_equal(play_actors(&p, &a, 1), 1);
        cmd_t c = cmd_make(CMD_END, a);
        assert_int_equal(play_apply(&p, &c), BATTLE_OK);
    }
    assert_true(p.b->over);
    assert_int_equal(FX_FIND(p.b, 0, "\"end\"", "\"winner\":null", "\"rounds\":1"), p.b->log.n - 1);
    play_end(&p);
    map_destroy(m);
    free(db);
}

/* An AI battle in which the players are asked about each of their
 * reactions and give the same answer every time. */
static char *asked_battle(const map_t *m, const tmpl_db_t *db, uint64_t seed, bool take,
                          int *asked)
{
    play_t p;
    battle_opts_t o = {.seed = seed, .max_rounds = 50, .ask_sides = 1u << 0};
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    *asked = 0;
    battle_status_t st = play_auto(&p, 50);
    while (st == BATTLE_NEED_REACTION) {
        assert_true(p.b->asking);
        assert_int_equal(p.b->board->side[p.b->ask.who], 0);
        (*asked)++;
        st = play_answer_reaction(&p, take);
        if (st == BATTLE_OK || st == BATTLE_OVER)
            st = play_auto(&p, 50);
    }
    assert_int_equal(st, BATTLE_OK);
    assert_true(p.b->over);
    char *t = fx_log_text(p.b);
    /* The answers live in the commands: a rebuild gives the same log. */
    assert_int_equal(play_rebuild(&p), BATTLE_OK);
    char *again = fx_log_text(p.b);
    assert_string_equal(t, again);
    free(again);
    play_end(&p);
    return t;
}

static void test_asked_reactions_replay_exactly(void **state)
{
    (void)state;
    tmpl_db_t *db;
    map_t *m = gauntlet(&db);
    bool seen_question = false;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        /* Saying yes to every question plays the battle nobody was asked about. */
        int asked = 0;
        char *plain = auto_battle(m, db, seed, NULL);
        char *yes = asked_battle(m, db, seed, true, &asked);
        assert_string_equal(plain, yes);
        seen_question = seen_question || asked > 0;
        /* Saying no every time plays the battle of a side that declines them all. */
        play_t p;
        battle_opts_t o = {.seed = seed, .max_rounds = 50, .decline_sides = 1u << 0};
        assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
        assert_int_equal(play_auto(&p, 50), BATTLE_OK);
        char *declined = fx_log_text(p.b);
        play_end(&p);
        char *no = asked_battle(m, db, seed, false, &asked);
        assert_string_equal(declined, no);
        free(plain);
        free(yes);
        free(declined);
        free(no);
    }
    assert_true(seen_question); /* else the test proved nothing */
    map_destroy(m);
    free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_events),
        cmocka_unit_test(test_rebuild_from_commands),
        cmocka_unit_test(test_undo_restores_previous_state),
        cmocka_unit_test(test_manual_roll_stops_and_resumes),
        cmocka_unit_test(test_request_carries_keep_and_modifier),
        cmocka_unit_test(test_roll_keeps_highest_and_lowest),
        cmocka_unit_test(test_event_json_shapes),
        cmocka_unit_test(test_event_json_optional_fields),
        cmocka_unit_test(test_round_limit_ends_without_winner),
        cmocka_unit_test(test_asked_reactions_replay_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
