/* test_save.c - saved battles (src/io/save.h): a save rebuilds the very same
 * battle (event for event, the same bytes as simulate), bad files are refused
 * with the JSON path at fault, autosaves rotate, and a writer killed at any
 * moment never costs the previous save. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <signal.h>
#include <sys/wait.h>
#endif

#include "io/event_json.h"
#include "io/fileio.h"
#include "io/save.h"
#include "rules/scars.h"
#include "rules_fixture.h"
#include "text_fixture.h"
#include "tmp_fixture.h"

#define MAX_ROUNDS 100 /* simulate's default */

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

/* A sample map from maps/. */
static map_t *load_sample(const char *name, tmpl_db_t **db)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/../maps/%s", data_dir(), name);
    map_t *m = NULL;
    char err[HB_ERR_MAX];
    int rc = map_load(path, data_dir(), &m, db, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, HB_OK);
    return m;
}

/* Save p, load the text back and rebuild it into q. */
static save_t *round_trip(const play_t *p, const save_table_t *t, play_t *q)
{
    char *text = save_to_json(p, t, "somewhere/map.json");
    assert_non_null(text);
    save_t *s = NULL;
    char err[HB_ERR_MAX] = "";
    int rc = save_load_mem(text, strlen(text), "rt.json", data_dir(), &s, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, HB_OK);
    free(text);
    rc = save_rebuild(s, q, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, HB_OK);
    return s;
}

/* x and y have logged the very same events (the same JSON Lines). */
static void expect_same_log(const battle_t *x, const battle_t *y)
{
    char *a = fx_log_text(x), *b = fx_log_text(y);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* The events of an AI-only battle as `simulate` plays it (same options), and
 * of its save rebuilt, are the same bytes, for every sample map. */
static void test_simulate_replays_byte_for_byte(void **state)
{
    (void)state;
    static const char *const MAPS[] = {"ridge_ambush.json", "foundry_breach.json",
                                       "salt_flats.json"};
    for (size_t i = 0; i < sizeof MAPS / sizeof MAPS[0]; i++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            tmpl_db_t *db = NULL;
            map_t *m = load_sample(MAPS[i], &db);
            battle_opts_t o = {.seed = seed, .max_rounds = MAX_ROUNDS};
            play_t p;
            assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
            assert_int_equal(play_auto(&p, MAX_ROUNDS), BATTLE_OK);
            assert_true(p.b->over);
            play_t q;
            save_t *s = round_trip(&p, NULL, &q);
            assert_string_equal(s->map_file, "somewhere/map.json");
            expect_same_log(q.b, p.b);
            assert_int_equal(q.b->cmds.n, p.b->cmds.n);
            play_end(&q);
            save_free(s);
            play_end(&p);
            tmpl_db_destroy(db);
            map_destroy(m);
        }
}

/* A battle cut short by a low round limit keeps its stop across the save. */
static void test_round_limit_stop_survives(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("ridge_ambush.json", &db);
    battle_opts_t o = {.seed = 9, .max_rounds = 1};
    play_t p;
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    assert_int_equal(play_auto(&p, 1), BATTLE_OK);
    assert_true(p.b->over && p.b->stopped);
    play_t q;
    save_t *s = round_trip(&p, NULL, &q);
    assert_true(s->stopped);
    expect_same_log(q.b, p.b);
    assert_true(q.b->over);
    play_end(&q);
    save_free(s);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* The table's standing choices about reactions (decline them all, or be
 * asked before each) are battle options, so they travel with the save. */
static void test_reaction_options_survive(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("ridge_ambush.json", &db);
    battle_opts_t o = {.seed = 4, .max_rounds = 1, .decline_sides = 1u << 1, .ask_sides = 1u << 0};
    play_t p;
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    play_t q;
    save_t *s = round_trip(&p, NULL, &q);
    assert_int_equal(s->opts.decline_sides, 1u << 1);
    assert_int_equal(s->opts.ask_sides, 1u << 0);
    assert_int_equal(q.b->opts.ask_sides, 1u << 0);
    play_end(&q);
    save_free(s);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* The play screen's way: every die entered by hand (manual_all), saved in
 * the middle of the fight while a command waits for a die. The rebuilt
 * battle has the same events, the same pending command and asks for the same
 * die; entering it goes on exactly as the original does. */
static void test_hand_dice_and_pending_command(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("ridge_ambush.json", &db);
    battle_opts_t o = {.seed = 5, .manual_all = true, .max_rounds = MAX_ROUNDS};
    play_t p;
    rng_t rng;
    rng_seed(&rng, 77);
    battle_status_t st = play_start(&p, m, db, NULL, &o);
    while (st == BATTLE_NEED_DICE)
        st = play_enter_die(&p, rng_die(&rng, p.b->need.sides));
    assert_int_equal(st, BATTLE_OK);
    /* Play AI commands until one stops for a die after at least 15 commands. */
    int actors[MAP_MAX_COMBATANTS];
    bool pending = false;
    for (int guard = 0; guard < 2000 && !pending && !p.b->over; guard++) {
        int n = play_actors(&p, actors, MAP_MAX_COMBATANTS);
        assert_true(n > 0);
        cmd_t c;
        p.rs->ai(p.b, actors[0], &c);
        st = play_apply(&p, &c);
        if (st == BATTLE_ILLEGAL) {
            cmd_t e = cmd_make(CMD_END, actors[0]);
            st = play_apply(&p, &e);
        }
        if (st == BATTLE_NEED_DICE && p.b->cmds.n >= 15 && p.pending) {
            /* Give one die of several when the roll has more, so the save
             * holds a value typed for the pending command. */
            if (p.b->need.count > 1) st = play_enter_die(&p, rng_die(&rng, p.b->need.sides));
            pending = st == BATTLE_NEED_DICE && p.pending;
        }
        while (!pending && st == BATTLE_NEED_DICE)
            st = play_enter_die(&p, rng_die(&rng, p.b->need.sides));
    }
    assert_true(pending);
    save_table_t t = {.has_rng = true, .rng = rng, .phys_sides = 1};
    play_t q;
    save_t *s = round_trip(&p, &t, &q);
    assert_true(s->has_pending);
    assert_true(s->table.has_rng);
    assert_memory_equal(&s->table.rng, &rng, sizeof rng);
    assert_int_equal(s->table.phys_sides, 1);
    assert_true(q.pending);
    assert_int_equal(q.b->need.sides, p.b->need.sides);
    assert_int_equal(q.b->need.index, p.b->need.index);
    assert_int_equal(q.b->dice.n_entered, p.b->dice.n_entered);
    expect_same_log(p.b, q.b);
    /* Both go on the same way with the same dice. */
    rng_t r2 = rng;
    for (int k = 0; k < 40; k++) {
        battle_status_t s1 =
            play_enter_die(&p, rng_die(&rng, p.b->need.sides > 0 ? p.b->need.sides : 1));
        battle_status_t s2 =
            play_enter_die(&q, rng_die(&r2, q.b->need.sides > 0 ? q.b->need.sides : 1));
        assert_int_equal(s1, s2);
        if (s1 != BATTLE_NEED_DICE) break;
    }
    expect_same_log(p.b, q.b);
    play_end(&q);
    save_free(s);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* ---- refusals ---- */

/* A played-out AI battle of n commands (or to its end). */
static void play_n(play_t *p, const map_t *m, const tmpl_db_t *db, uint64_t seed, int n)
{
    battle_opts_t o = {.seed = seed, .max_rounds = MAX_ROUNDS};
    assert_int_equal(play_start(p, m, db, NULL, &o), BATTLE_OK);
    int actors[MAP_MAX_COMBATANTS];
    while (p->b->cmds.n < n && !p->b->over) {
        assert_true(play_actors(p, actors, MAP_MAX_COMBATANTS) > 0);
        cmd_t c;
        p->rs->ai(p->b, actors[0], &c);
        if (play_apply(p, &c) == BATTLE_ILLEGAL) {
            cmd_t e = cmd_make(CMD_END, actors[0]);
            assert_int_equal(play_apply(p, &e), BATTLE_OK);
        }
    }
}

/* Text of a valid save: a short AI battle on the default map, seed 3. */
static char *sample_save_text(int n_cmds)
{
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("ridge_ambush.json", &db);
    play_t p;
    play_n(&p, m, db, 3, n_cmds);
    char *text = save_to_json(&p, NULL, NULL);
    assert_non_null(text);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
    return text;
}

/* Replace the first FROM in text by TO (FROM must be there). */
static char *patch(const char *text, const char *from, const char *to)
{
    char *out = text_patch(text, from, to, false, NULL);
    assert_non_null(out);
    return out;
}

/* Load (and rebuild) text; it must be refused with exactly WANT. */
static void expect_refused(const char *text, const char *want)
{
    save_t *s = NULL;
    char err[HB_ERR_MAX] = "";
    int rc = save_load_mem(text, strlen(text), "bad.json", data_dir(), &s, err, sizeof err);
    if (rc == HB_OK) {
        play_t p;
        rc = save_rebuild(s, &p, err, sizeof err);
        if (rc == HB_OK) play_end(&p);
        save_free(s);
    } else {
        assert_null(s);
    }
    if (strcmp(err, want) != 0) fprintf(stderr, "want: %s\ngot:  %s\n", want, err);
    assert_int_equal(rc, HB_ERR_INPUT);
    assert_string_equal(err, want);
}

/* A battle whose players are asked about every reaction, answered in turn
 * yes, no, yes...: its save writes the answers as true/false, as saves did
 * before reactions had options, and such a save (or one with the answer
 * given as the option number 1) loads and rebuilds the same battle; an
 * answer that is not one of the question's options is refused. */
static void test_old_reaction_answers_load(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("ridge_ambush.json", &db);
    bool seen = false;
    for (uint64_t seed = 1; seed <= 40 && !seen; seed++) {
        battle_opts_t o = {.seed = seed, .max_rounds = MAX_ROUNDS, .ask_sides = 1u << 0};
        play_t p;
        assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
        int asked = 0;
        battle_status_t st = play_auto(&p, MAX_ROUNDS);
        while (st == BATTLE_NEED_REACTION) {
            assert_int_equal(p.b->ask.n, 2);
            st = play_answer_choice(&p, asked++ % 2 == 0 ? 1 : 0);
            if (st == BATTLE_OK) st = play_auto(&p, MAX_ROUNDS);
        }
        assert_int_equal(st, BATTLE_OK);
        if (asked < 2) {
            play_end(&p);
            continue;
        }
        seen = true;
        char *want = fx_log_text(p.b);
        char *text = save_to_json(&p, NULL, NULL);
        assert_non_null(text);
        /* The first answer was yes: written true, as before there were options. */
        const char *r = strstr(text, "\"reactions\":\t[");
        assert_non_null(r);
        assert_true(strncmp(r, "\"reactions\":\t[true", 18) == 0);
        for (int f = 0; f < 2; f++) {
            char *t = patch(text, "\"reactions\":\t[true", f ? "\"reactions\":\t[1" : "\"reactions\":\t[true");
            save_t *sv = NULL;
            char err[HB_ERR_MAX] = "";
            assert_int_equal(save_load_mem(t, strlen(t), "old.json", data_dir(), &sv, err, sizeof err),
                             HB_OK);
            play_t q;
            if (save_rebuild(sv, &q, err, sizeof err) != HB_OK) fail_msg("%s", err);
            char *got = fx_log_text(q.b);
            assert_string_equal(got, want);
            free(got);
            play_end(&q);
            save_free(sv);
            free(t);
        }
        char *bad = patch(text, "\"reactions\":\t[true", "\"reactions\":\t[2");
        save_t *sv = NULL;
        char err[HB_ERR_MAX] = "";
        assert_int_equal(save_load_mem(bad, strlen(bad), "bad.json", data_dir(), &sv, err, sizeof err),
                         HB_OK);
        play_t q;
        assert_int_equal(save_rebuild(sv, &q, err, sizeof err), HB_ERR_INPUT);
        assert_non_null(strstr(err, "commands["));
        assert_non_null(strstr(err, "answer 2 to a reaction 'opportunity' of 2 options"));
        save_free(sv);
        free(bad);
        free(text);
        free(want);
        play_end(&p);
    }
    assert_true(seen); /* else the test proved nothing */
    tmpl_db_destroy(db);
    map_destroy(m);
}

static void test_bad_saves_name_the_path(void **state)
{
    (void)state;
    char *good = sample_save_text(12);
    struct {
        const char *from, *to, *want;
    } cases[] = {
        {"\"hexbattle-save\"", "\"hexbattle-map\"",
         "bad.json: format: expected \"hexbattle-save\", found \"hexbattle-map\" (this is a map: "
         "play it with 'hexbattle MAP', edit it with 'hexbattle edit MAP')"},
        {"\"version\":\t1", "\"version\":\t2",
         "bad.json: version: this program reads version 1, found 2"},
        {"\"seed\":\t\"3\"", "\"seed\":\t3",
         "bad.json: seed: expected a string of decimal digits, found number"},
        {"\"seed\":\t\"3\"", "\"seed\":\t\"-3\"",
         "bad.json: seed: expected a whole number 0..2^64-1 in decimal digits"},
        {"\"cols\":\t24", "\"cols\":\t25",
         "bad.json: map.terrain.rows[0]: expected 25 characters, found 24"},
        {"\"manual_sides\":\t[]", "\"manual_sides\":\t[\"elves\"]",
         "bad.json: options.manual_sides[0]: no side \"elves\" on this map"},
        {"\"dice\":\t[]", "\"dice\":\t[0]",
         "bad.json: dice[0]: expected an integer from 1 to 1000, found 0"},
        {"\"dice\":\t[]", "\"dice\":\t[4]",
         "bad.json: dice[0]: entered but never used by the battle"},
        {"\"round\":\t", "\"round\":\t1", "bad.json: state.round: the rebuilt battle is in round "},
        {"\"actor\":\t\"", "\"actor\":\t\"nobody",
         "bad.json: commands[0]: \"actor\" must be a combatant id"},
        {"\"state\":", "\"stat\":", "bad.json: state: required but missing"},
        {"\"winner\":\tnull", "\"winner\":\t\"ghosts\"",
         "bad.json: state.winner: no side \"ghosts\" on this map"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *bad = patch(good, cases[k].from, cases[k].to);
        if (k == 8) {
            /* Round: whatever the real one is, one more is wrong. */
            free(bad);
            const char *at = strstr(good, "\"round\":\t");
            assert_non_null(at);
            int r = atoi(at + 9);
            char from[32], to[32], want[200];
            snprintf(from, sizeof from, "\"round\":\t%d", r);
            snprintf(to, sizeof to, "\"round\":\t%d", r + 1);
            bad = patch(good, from, to);
            snprintf(want, sizeof want,
                     "bad.json: state.round: the rebuilt battle is in round %d, the save says %d",
                     r, r + 1);
            expect_refused(bad, want);
        } else {
            expect_refused(bad, cases[k].want);
        }
        free(bad);
    }
    expect_refused("{\"format\": \"hexbattle-save\", \"version\": 1",
                   "bad.json: (root): invalid JSON at line 1, column 41");
    free(good);
}

/* Strict JSON in a save: what cJSON alone would take is refused with the
 * path (the embedded map's paths under "map."). A NUL is written as '@' in
 * the table and put in after the patch, so strstr still works. */
static void test_strict_json_saves(void **state)
{
    (void)state;
    char *good = sample_save_text(6);
    struct {
        const char *from, *to, *want;
    } cases[] = {
        {"\t\"seed\":", "@\t\"seed\":", "bad.json: (root): a NUL byte in the file (line "},
        {"\"seed\":\t\"3\"", "\"seed\":\t\"3@\"", "bad.json: seed: a NUL byte inside a string"},
        {"\t\"seed\":", "\x01\t\"seed\":",
         "bad.json: (root): control character 0x01 outside a string"},
        {"Ridge Ambush", "Ridge\nAmbush",
         "bad.json: map.name: control character 0x0a inside a string (write it escaped)"},
        {"Ridge Ambush", "Ridge \xfe Ambush", "bad.json: map.name: invalid UTF-8 inside a string"},
        {"\"seed\":\t\"3\"", "\"seed\":\t\"3\",\n\t\"seed\":\t\"4\"",
         "bad.json: seed: given twice"},
        {"\"max_rounds\":\t", "\"max_rounds\":\t99999999999",
         "bad.json: options.max_rounds: number 99999999999"},
        {"\"options\":\t{", "\"options\":\t{\"x\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],",
         "bad.json: options.x[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
         "[0][0][0][0][0][0][0]: nested deeper than 32 levels"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t len = 0;
        char *bad = text_patch(good, cases[k].from, cases[k].to, true, &len);
        assert_non_null(bad);
        save_t *s = NULL;
        char err[HB_ERR_MAX] = "";
        int rc = save_load_mem(bad, len, "bad.json", data_dir(), &s, err, sizeof err);
        if (strncmp(err, cases[k].want, strlen(cases[k].want)) != 0)
            fprintf(stderr, "want: %s\ngot:  %s\n", cases[k].want, err);
        assert_int_equal(rc, HB_ERR_INPUT);
        assert_null(s);
        assert_memory_equal(err, cases[k].want, strlen(cases[k].want));
        free(bad);
    }
    free(good);
}

/* A save of another rules revision (or of none: older than the field) that
 * no longer rebuilds as saved still opens, under the current rules, and
 * the note says what differs; the same fault under the current revision is
 * refused. Saved again, it is a save of the current rules that rebuilds
 * exactly. */
static void test_older_rules_open_with_a_note(void **state)
{
    (void)state;
    char *good = sample_save_text(12);
    assert_non_null(strstr(good, "\"rules_revision\":\t0"));
    assert_non_null(strstr(good, "\"written_by\":\t\"hexbattle "));
    /* kara's HP in the summary, one more than the battle gives. */
    const char *st = strstr(good, "\"state\":");
    const char *hp = strstr(strstr(st, "\"kara\""), "\"hp\":\t");
    int v = atoi(hp + 6);
    char from[64], to[64];
    snprintf(from, sizeof from, "\"hp\":\t%d", v);
    snprintf(to, sizeof to, "\"hp\":\t%d", v + 1);
    char *tmp = patch(st, from, to);
    size_t head = (size_t)(st - good);
    char *hp_bad = malloc(head + strlen(tmp) + 1);
    memcpy(hp_bad, good, head);
    strcpy(hp_bad + head, tmp);
    free(tmp);
    /* The first command given to someone else: the rules refuse it now. */
    const char *act = strstr(strstr(good, "\"commands\":"), "\"actor\":\t\"");
    char who[40], other[40];
    sscanf(act + 10, "%39[^\"]", who);
    snprintf(other, sizeof other, "%s", strcmp(who, "dren") ? "dren" : "kara");
    snprintf(from, sizeof from, "\"actor\":\t\"%s\"", who);
    snprintf(to, sizeof to, "\"actor\":\t\"%s\"", other);
    char *cmd_bad = patch(good, from, to);

    const struct {
        const char *text, *revision, *detail;
        int kept;
    } CASES[] = {
        {hp_bad, "\"rules_revision\":\t7", "state.combatants[0].hp: the rebuilt battle gives kara", 12},
        {hp_bad, NULL, "state.combatants[0].hp: the rebuilt battle gives kara", 12},
        {cmd_bad, "\"rules_revision\":\t7", "commands[0] is not allowed at that point any more, so "
                                          "the battle goes on from the 0 commands before it", 0},
    };
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        /* Under the current revision: refused, as ever. */
        save_t *s = NULL;
        play_t p;
        char err[HB_ERR_MAX];
        assert_int_equal(save_load_mem(CASES[k].text, strlen(CASES[k].text), "old.json",
                                       data_dir(), &s, err, sizeof err),
                         HB_OK);
        assert_int_equal(save_rebuild(s, &p, err, sizeof err), HB_ERR_INPUT);
        save_free(s);
        /* Another revision, or none at all. */
        char *old = CASES[k].revision ? patch(CASES[k].text, "\"rules_revision\":\t0",
                                              CASES[k].revision)
                                      : patch(CASES[k].text, "\t\"rules_revision\":\t0,\n", "");
        assert_int_equal(
            save_load_mem(old, strlen(old), "old.json", data_dir(), &s, err, sizeof err), HB_OK);
        assert_int_equal(s->rules_revision, CASES[k].revision ? 7 : SAVE_RULES_UNKNOWN);
        save_note_t note;
        assert_int_equal(save_rebuild_ex(s, &p, &note, err, sizeof err), HB_OK);
        if (!strstr(note.text, CASES[k].detail)) fail_msg("case %zu: note '%s'", k, note.text);
        char want[200];
        snprintf(want, sizeof want, "old.json was saved under %s of the xhalem rules (now 0); "
                 "replayed under the current rules the battle may differ from the one saved: ",
                 CASES[k].revision ? "revision 7" : "an older revision");
        assert_memory_equal(note.text, want, strlen(want));
        assert_int_equal(note.kept_cmds, CASES[k].kept);
        assert_int_equal(p.b->cmds.n, CASES[k].kept);
        /* Saved again: the current rules, and an exact rebuild. */
        char *again = save_to_json(&p, NULL, NULL);
        save_t *s2 = NULL;
        play_t q;
        assert_int_equal(
            save_load_mem(again, strlen(again), "again.json", data_dir(), &s2, err, sizeof err),
            HB_OK);
        assert_int_equal(s2->rules_revision, 0);
        assert_int_equal(save_rebuild_exact(s2, &q, err, sizeof err), HB_OK);
        expect_same_log(p.b, q.b);
        play_end(&q);
        save_free(s2);
        free(again);
        play_end(&p);
        save_free(s);
        free(old);
    }
    free(hp_bad);
    free(cmd_bad);
    free(good);
}

/* HP in the summary that the rebuild does not reach is refused, naming the
 * combatant; so is a command the battle would not take at that point. */
static void test_state_and_command_mismatch(void **state)
{
    (void)state;
    char *good = sample_save_text(12);
    /* kara is the first combatant; find its hp and change it. */
    const char *st = strstr(good, "\"state\":");
    assert_non_null(st);
    const char *at = strstr(st, "\"id\":\t\"kara\",\n");
    assert_non_null(at);
    const char *hp = strstr(at, "\"hp\":\t");
    assert_non_null(hp);
    int v = atoi(hp + 6);
    char from[64], to[64], want[256];
    /* From the id to the end of the number, whatever the layout between. */
    int len = (int)(hp + 6 - at);
    while (hp[6 + (len - (int)(hp + 6 - at))] >= '0' && hp[6 + (len - (int)(hp + 6 - at))] <= '9')
        len++;
    snprintf(from, sizeof from, "%.*s", len, at);
    snprintf(to, sizeof to, "%.*s%d", (int)(hp + 6 - at), at, v + 3);
    char *bad = patch(good, from, to);
    snprintf(want, sizeof want,
             "bad.json: state.combatants[0].hp: the rebuilt battle gives kara %d HP, the save says "
             "%d",
             v, v + 3);
    expect_refused(bad, want);
    free(bad);
    /* Two ends of turn in a row by the same combatant: the second is not its turn. */
    const char *cmds = strstr(good, "\"commands\":\t[");
    assert_non_null(cmds);
    bad = patch(good, "\"commands\":\t[",
                "\"commands\":\t[{\"cmd\": \"end\", \"actor\": \"kara\"}, {\"cmd\": \"end\", "
                "\"actor\": \"kara\"}, ");
    save_t *s = NULL;
    char err[HB_ERR_MAX] = "";
    assert_int_equal(save_load_mem(bad, strlen(bad), "bad.json", data_dir(), &s, err, sizeof err),
                     HB_OK);
    play_t p;
    assert_int_equal(save_rebuild(s, &p, err, sizeof err), HB_ERR_INPUT);
    assert_non_null(strstr(err, "bad.json: commands["));
    assert_null(p.b);
    save_free(s);
    free(bad);
    free(good);
}

/* ---- files ---- */

static void temp_dir(char *out, size_t cap)
{
    assert_true(tmp_dir_make(out, cap, "save"));
}


static int load_cmds(const char *path)
{
    save_t *s = NULL;
    char err[HB_ERR_MAX];
    if (save_load(path, data_dir(), &s, err, sizeof err) != HB_OK) return -1;
    play_t p;
    int rc = save_rebuild(s, &p, err, sizeof err);
    int n = rc == HB_OK ? p.b->cmds.n : -1;
    if (rc == HB_OK) play_end(&p);
    save_free(s);
    return n;
}

/* Four autosaves leave the newest three, newest in slot 1. */
static void test_autosave_rotates_three(void **state)
{
    (void)state;
    char dir[64], sub[128], path[256];
    temp_dir(dir, sizeof dir);
    snprintf(sub, sizeof sub, "%s/a/hexbattle", dir); /* made on the first autosave */
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("ridge_ambush.json", &db);
    for (int k = 1; k <= 4; k++) {
        play_t p;
        play_n(&p, m, db, 11, k * 3);
        char err[HB_ERR_MAX];
        assert_int_equal(save_autosave(sub, &p, NULL, NULL, err, sizeof err), HB_OK);
        play_end(&p);
    }
    for (int slot = 1; slot <= 3; slot++) {
        assert_true(save_autosave_path(sub, slot, path, sizeof path));
        assert_int_equal(load_cmds(path), (5 - slot) * 3);
    }
    assert_true(save_autosave_path(sub, 4, path, sizeof path));
    struct stat st;
    assert_int_not_equal(stat(path, &st), 0);
    /* The folder follows XDG_DATA_HOME (Windows: %LOCALAPPDATA%). */
    tmp_user_dirs(dir);
    char named[256];
    assert_true(save_autosave_dir(named, sizeof named));
    snprintf(path, sizeof path, "%s/hexbattle", dir);
    assert_string_equal(named, path);
    tmpl_db_destroy(db);
    map_destroy(m);
    tmp_dir_remove(dir);
}

/* A save into a folder that cannot take it fails and leaves the old file. */
static void test_failed_write_keeps_old_file(void **state)
{
    (void)state;
    char dir[64], path[256];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/battle.json", dir);
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("ridge_ambush.json", &db);
    play_t p;
    play_n(&p, m, db, 2, 6);
    char err[HB_ERR_MAX];
    assert_int_equal(save_write(path, &p, NULL, NULL, true, err, sizeof err), HB_OK);
    play_end(&p);
    play_n(&p, m, db, 2, 9);
#ifdef _WIN32
    /* Windows has no read-only folders for files (the attribute means
     * nothing on a folder): a read-only file is not replaced. */
    assert_int_equal(chmod(path, S_IRUSR), 0);
    assert_int_equal(save_write(path, &p, NULL, NULL, true, err, sizeof err), HB_ERR_OTHER);
    assert_non_null(strstr(err, path));
    assert_int_equal(chmod(path, S_IRUSR | S_IWUSR), 0);
    assert_int_equal(load_cmds(path), 6);
#else
    if (geteuid() != 0) {
        /* Read-only folder: the temporary file cannot be made. */
        assert_int_equal(chmod(dir, 0555), 0);
        assert_int_equal(save_write(path, &p, NULL, NULL, true, err, sizeof err), HB_ERR_OTHER);
        assert_non_null(strstr(err, path));
        assert_int_equal(chmod(dir, 0755), 0);
        assert_int_equal(load_cmds(path), 6);
    }
#endif
    /* A second save keeps the first as .bak. */
    assert_int_equal(save_write(path, &p, NULL, NULL, true, err, sizeof err), HB_OK);
    assert_int_equal(load_cmds(path), 9);
    char bak[300];
    snprintf(bak, sizeof bak, "%s.bak", path);
    assert_int_equal(load_cmds(bak), 6);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
    tmp_dir_remove(dir);
}

/* A disk that fails at any step of a save or an autosave (write, fsync,
 * close, the renames): the call fails with the file and the reason, no
 * temporary file is left, and the saves already there still load. */
static void test_injected_failures_lose_nothing(void **state)
{
    (void)state;
    char dir[64], path[256], bak[300], sub[128];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/battle.json", dir);
    snprintf(bak, sizeof bak, "%s.bak", path);
    snprintf(sub, sizeof sub, "%s/auto", dir);
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("ridge_ambush.json", &db);
    play_t p;
    char err[HB_ERR_MAX], want[600];
    for (int k = 1; k <= 3; k++) { /* slots 1, 2, 3: 9, 6 and 3 commands */
        play_n(&p, m, db, 2, 3 * k);
        assert_int_equal(save_autosave(sub, &p, NULL, NULL, err, sizeof err), HB_OK);
        if (k < 3) play_end(&p);
    }
    assert_int_equal(save_write(path, &p, NULL, NULL, true, err, sizeof err), HB_OK);
    assert_int_equal(save_write(path, &p, NULL, NULL, true, err, sizeof err), HB_OK);
    play_end(&p);
    play_n(&p, m, db, 2, 12);
    /* With a backup to keep: the new text's temporary file (create, write,
     * fsync, close: call 1 of each), then the backup's (call 2 of each and
     * rename 1), then the rename into place (rename 2). */
    static const char *const SAVE_FAULTS[] = {"create:1", "write:1", "fsync:1", "close:1",
                                              "create:2", "write:2", "fsync:2:EIO", "close:2",
                                              "rename:1:EROFS", "rename:2"};
    for (size_t k = 0; k < sizeof SAVE_FAULTS / sizeof SAVE_FAULTS[0]; k++) {
        assert_true(hb_fault_set(SAVE_FAULTS[k]));
        assert_int_equal(save_write(path, &p, NULL, NULL, true, err, sizeof err), HB_ERR_OTHER);
        int e = strstr(SAVE_FAULTS[k], "EIO") ? EIO : strstr(SAVE_FAULTS[k], "EROFS") ? EROFS : ENOSPC;
        snprintf(want, sizeof want, "%s: cannot write: %s", path, strerror(e));
        assert_memory_equal(err, want, strlen(want));
        assert_int_equal(load_cmds(path), 9);
        assert_int_equal(load_cmds(bak), 9);
        assert_int_equal(tmp_dir_count(dir), 3); /* battle.json, its .bak, auto/ */
    }
    /* Autosave: the new file is written whole before the slots move down. */
    static const char *const AUTO_FAULTS[] = {"create:1", "write:1", "fsync:1", "close:1",
                                              "rename:1", "rename:2", "rename:3"};
    for (size_t k = 0; k < sizeof AUTO_FAULTS / sizeof AUTO_FAULTS[0]; k++) {
        assert_true(hb_fault_set(AUTO_FAULTS[k]));
        assert_int_equal(save_autosave(sub, &p, NULL, NULL, err, sizeof err), HB_ERR_OTHER);
        assert_non_null(strstr(err, ": cannot write: No space left on device"));
        hb_fault_set(NULL);
        /* Every autosave still loads; slots that moved moved whole. The
         * newest two are never lost (the oldest goes when the rotation
         * was done and only the last rename failed). */
        int seen9 = 0, seen6 = 0, files = 0;
        for (int slot = 1; slot <= SAVE_AUTOSAVES; slot++) {
            assert_true(save_autosave_path(sub, slot, bak, sizeof bak));
            if (access(bak, F_OK) != 0) continue;
            int n = load_cmds(bak);
            assert_true(n == 3 || n == 6 || n == 9);
            seen9 += n == 9;
            seen6 += n == 6;
            files++;
        }
        assert_int_equal(seen9, 1);
        assert_int_equal(seen6, 1);
        if (k < 5) assert_int_equal(files, 3); /* failed before any slot moved */
        assert_int_equal(tmp_dir_count(sub), files); /* no temporary file */
        /* Put the three back in place for the next fault. */
        for (int k2 = 1; k2 <= 3; k2++) {
            play_t q;
            play_n(&q, m, db, 2, 3 * k2);
            assert_int_equal(save_autosave(sub, &q, NULL, NULL, err, sizeof err), HB_OK);
            play_end(&q);
        }
    }
    hb_fault_set(NULL);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
    tmp_dir_remove(dir);
}

/* The two battles the kill test's writer saves in turn over PATH: a short
 * one (a) and a long one (b), the same in the parent and in the child. */
static void kill_battles(map_t **m, tmpl_db_t **db, play_t *a, play_t *b)
{
    *m = load_sample("foundry_breach.json", db);
    play_n(a, *m, *db, 4, 8);
    play_n(b, *m, *db, 4, 40);
}

/* What a kill left in DIR: temporary files from kills that landed inside a
 * write (harmless; worth seeing). */
static int stray_temps(const char *dir)
{
    int stray = 0;
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        stray += strstr(e->d_name, ".tmp.") != NULL;
    closedir(d);
    return stray;
}

#ifdef _WIN32
/* The kill test's writer (this program run with --writer PATH): save the
 * two battles over PATH without pause, b first; after the first whole save,
 * one byte on standard output tells the parent. Never returns. */
static int writer_main(const char *path)
{
    map_t *m;
    tmpl_db_t *db = NULL;
    play_t a, b;
    kill_battles(&m, &db, &a, &b);
    char err[HB_ERR_MAX];
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    for (unsigned k = 0;; k++) {
        save_write(path, (k & 1) ? &a : &b, NULL, NULL, false, err, sizeof err);
        DWORD w = 0;
        if (k == 0 && (!WriteFile(out, "x", 1, &w, NULL) || w != 1)) return 1;
    }
}

/* Windows: the writer is a child process (this program again) ended by
 * TerminateProcess at a random moment, the way Task Manager or a shutdown
 * that stopped waiting ends it; then the file must load and rebuild to one
 * of the two battles. ROUNDS times (a process starts slowly under Wine). */
static void test_kill_during_save_keeps_a_whole_save(void **state)
{
    (void)state;
    enum { ROUNDS = 40 };
    char dir[64], path[256];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/battle.json", dir);
    map_t *m;
    tmpl_db_t *db = NULL;
    play_t a, b;
    kill_battles(&m, &db, &a, &b);
    int na = a.b->cmds.n, nb = b.b->cmds.n;
    assert_int_not_equal(na, nb);
    char err[HB_ERR_MAX];
    assert_int_equal(save_write(path, &a, NULL, NULL, false, err, sizeof err), HB_OK);
    char self[MAX_PATH], cmd[2 * MAX_PATH + 64];
    DWORD n = GetModuleFileNameA(NULL, self, sizeof self);
    assert_true(n > 0 && n < sizeof self);
    snprintf(cmd, sizeof cmd, "\"%s\" --writer \"%s\"", self, path);
    srand((unsigned)time(NULL));
    int kills = 0, saw_a = 0, saw_b = 0;
    for (int round = 0; round < ROUNDS; round++) {
        SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
        HANDLE rd, wr;
        assert_true(CreatePipe(&rd, &wr, &sa, 0));
        assert_true(SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0));
        STARTUPINFOA si;
        memset(&si, 0, sizeof si);
        si.cb = sizeof si;
        si.dwFlags = STARTF_USESTDHANDLES;
        si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
        si.hStdOutput = wr;
        si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
        PROCESS_INFORMATION pi;
        assert_true(CreateProcessA(NULL, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi));
        CloseHandle(wr);
        /* Wait for the first whole save (b). */
        char c;
        DWORD got = 0;
        assert_true(ReadFile(rd, &c, 1, &got, NULL) && got == 1);
        CloseHandle(rd);
        /* 0..3 ms more: the kill lands anywhere in the write, the flush or
         * the replace. */
        Sleep((DWORD)(rand() % 4));
        assert_true(TerminateProcess(pi.hProcess, 9));
        assert_int_equal(WaitForSingleObject(pi.hProcess, 10000), WAIT_OBJECT_0);
        DWORD code = 0;
        assert_true(GetExitCodeProcess(pi.hProcess, &code));
        kills += code == 9;
        CloseHandle(pi.hThread);
        CloseHandle(pi.hProcess);
        int got_n = load_cmds(path);
        if (got_n != na && got_n != nb)
            fprintf(stderr, "kill %d: the save holds %d commands\n", round, got_n);
        assert_true(got_n == na || got_n == nb);
        saw_a += got_n == na;
        saw_b += got_n == nb;
    }
    assert_int_equal(kills, ROUNDS);
    assert_true(saw_b > 0);
    if (saw_a == 0) fprintf(stderr, "note: every kill found the second battle\n");
    printf("kill test: %d kills, %d found the short battle, %d the long one, %d inside a write\n",
           kills, saw_a, saw_b, stray_temps(dir));
    play_end(&a);
    play_end(&b);
    tmpl_db_destroy(db);
    map_destroy(m);
    tmp_dir_remove(dir);
}
#else
/* The kill test: a child process saves two different battles over the same
 * file without pause; the parent SIGKILLs it at a random moment, then the
 * file must load and rebuild to one of the two. A hundred times. */
static void test_kill_during_save_keeps_a_whole_save(void **state)
{
    (void)state;
    char dir[64], path[256];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/battle.json", dir);
    map_t *m;
    tmpl_db_t *db = NULL;
    play_t a, b;
    kill_battles(&m, &db, &a, &b);
    int na = a.b->cmds.n, nb = b.b->cmds.n;
    assert_int_not_equal(na, nb);
    char err[HB_ERR_MAX];
    assert_int_equal(save_write(path, &a, NULL, NULL, false, err, sizeof err), HB_OK);
    srand((unsigned)time(NULL));
    int kills = 0, saw_a = 0, saw_b = 0;
    for (int round = 0; round < 100; round++) {
        int pipefd[2];
        assert_int_equal(pipe(pipefd), 0);
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(pipefd[0]);
            for (unsigned k = 0;; k++) {
                save_write(path, (k & 1) ? &a : &b, NULL, NULL, false, err, sizeof err);
                if (k == 0 && write(pipefd[1], "x", 1) != 1) _exit(1);
            }
        }
        close(pipefd[1]);
        /* Wait for the first whole save (b), so a busy machine that is slow
         * to start the child still has the kill land among the writes. */
        char c;
        assert_int_equal(read(pipefd[0], &c, 1), 1);
        close(pipefd[0]);
        /* 0..4 ms more: a save takes about a millisecond, so the kill lands
         * anywhere in the write, the fsync or the rename. */
        struct timespec ts = {0, (long)(rand() % 4000) * 1000L};
        nanosleep(&ts, NULL);
        assert_int_equal(kill(pid, SIGKILL), 0);
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        kills += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
        int n = load_cmds(path);
        if (n != na && n != nb) fprintf(stderr, "kill %d: the save holds %d commands\n", round, n);
        assert_true(n == na || n == nb);
        saw_a += n == na;
        saw_b += n == nb;
    }
    assert_int_equal(kills, 100);
    /* The kills did land while the battles were being written (a only shows
     * once b has been replaced at least once, which a slow machine may miss). */
    assert_true(saw_b > 0);
    if (saw_a == 0) fprintf(stderr, "note: every kill found the second battle\n");
    printf("kill test: %d kills, %d found the short battle, %d the long one, %d inside a write\n",
           kills, saw_a, saw_b, stray_temps(dir));
    play_end(&a);
    play_end(&b);
    tmpl_db_destroy(db);
    map_destroy(m);
    tmp_dir_remove(dir);
}
#endif

/* The referee's calls in scars (a called save, a mark, a telegraph, a
 * detachment's fate) are commands like any other: the save keeps them and the
 * rebuild plays them out the same, byte for byte. */
static void test_referee_calls_survive(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load_sample("salt_flats.json", &db);
    battle_opts_t o = {.seed = 11, .max_rounds = MAX_ROUNDS};
    play_t p;
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    int vex = map_find_combatant(m, "vex"), chief = map_find_combatant(m, "chief");
    int pack = map_find_combatant(m, "pack");
    cmd_t calls[4] = {cmd_make(CMD_TELEGRAPH, chief), cmd_make(CMD_SAVE, vex),
                      cmd_make(CMD_MARK, vex), cmd_make(CMD_WEAKEN, pack)};
    calls[0].arg = 1;            /* every raider's likely move */
    calls[1].arg = 1;            /* a DEX save */
    calls[2].arg = SC_MARK_ENHANCED;
    calls[3].arg = 1;            /* weakened, not routed */
    for (int k = 0; k < 4; k++)
        assert_int_equal(play_apply(&p, &calls[k]), BATTLE_OK);
    assert_int_equal(play_auto(&p, MAX_ROUNDS), BATTLE_OK);
    char *want = fx_log_text(p.b);
    assert_non_null(strstr(want, "\"action\":\"telegraph_"));
    assert_non_null(strstr(want, "\"why\":\"DEX save (called)\""));
    assert_non_null(strstr(want, "\"action\":\"mark_enhanced\""));
    assert_non_null(strstr(want, "\"action\":\"critical_weakens\""));
    play_t q;
    save_t *s = round_trip(&p, NULL, &q);
    char *got = fx_log_text(q.b);
    assert_string_equal(got, want);
    for (int k = 0; k < 4; k++) {
        assert_int_equal(q.b->cmds.c[k].kind, calls[k].kind);
        assert_int_equal(q.b->cmds.c[k].arg, calls[k].arg);
    }
    free(got);
    free(want);
    play_end(&q);
    save_free(s);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

int main(int argc, char **argv)
{
#ifdef _WIN32
    if (argc == 3 && strcmp(argv[1], "--writer") == 0) return writer_main(argv[2]);
#else
    (void)argc;
    (void)argv;
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simulate_replays_byte_for_byte),
        cmocka_unit_test(test_round_limit_stop_survives),
        cmocka_unit_test(test_reaction_options_survive),
        cmocka_unit_test(test_old_reaction_answers_load),
        cmocka_unit_test(test_hand_dice_and_pending_command),
        cmocka_unit_test(test_bad_saves_name_the_path),
        cmocka_unit_test(test_state_and_command_mismatch),
        cmocka_unit_test(test_autosave_rotates_three),
        cmocka_unit_test(test_failed_write_keeps_old_file),
        cmocka_unit_test(test_injected_failures_lose_nothing),
        cmocka_unit_test(test_strict_json_saves),
        cmocka_unit_test(test_older_rules_open_with_a_note),
        cmocka_unit_test(test_kill_during_save_keeps_a_whole_save),
        cmocka_unit_test(test_referee_calls_survive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
