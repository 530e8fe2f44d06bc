/* test_ui_words.c - game words, not template keys (issue 34, item 7).
 *
 * - Every stat and gauge key a bundled template, map, ruleset slot, stat
 *   event or gauge uses has a name in its ruleset's data (data/<ruleset>/
 *   templates.json, "stat_names"), which the card and the log show
 *   ("Vulnerability" for surface's vln, "Special attack" for activation's
 *   spatk), never a key such as combat_bonus, vln, soak_n, spd, spatk or wc.
 * - Bookkeeping is told on the line of what caused it: in whole battles of
 *   every bundled map, several seeds each, no log line is a bare "X is now N"
 *   and every stat change reads on some line as "AV 333" or "PP 8 -> 7".
 *   (HB_WORDS_DUMP=1 prints the logs, to read them.)
 * - Activation's log opens with how its timeline works and who acts first.
 */
#include <dirent.h>
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/map_io.h"
#include "rules/ruleset.h"
#include "ui/card.h"
#include "ui/hud.h"
#include "ui/play_ui.h"

/* Keys the referee saw on the cards. */
static const char *const KEYS[] = {"combat_bonus", "vln", "soak_n",   "soak_d", "spd",
                                   "spatk",        "wc",  "armor_hp", "pp"};

/* Does line hold a word joined by an underscore ("second_move"), the
 * shape of a data key rather than of a word the table reads? */
static bool has_snake_word(const char *line)
{
    for (const char *u = strchr(line, '_'); u; u = strchr(u + 1, '_'))
        if (u > line && isalpha((unsigned char)u[-1]) && isalpha((unsigned char)u[1]))
            return true;
    return false;
}

static bool has_key(const char *line, const char *key)
{
    size_t n = strlen(key);
    for (const char *s = strstr(line, key); s; s = strstr(s + 1, key)) {
        bool start = s == line || s[-1] == ' ' || s[-1] == ',';
        bool end = s[n] == ' ' || s[n] == ',' || s[n] == '\0';
        if (start && end) return true;
    }
    return false;
}

static void data_dir(char *out, size_t cap)
{
    snprintf(out, cap, "%s/../../data", HB_TEST_DATA);
}

/* Each bundled map (every .json and .tmx file of maps/) in turn: f(path, name). */
static int each_map(void (*f)(const char *path, const char *name, void *ctx), void *ctx)
{
    char dir[512], path[1024];
    snprintf(dir, sizeof dir, "%s/../../maps", HB_TEST_DATA);
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        size_t len = strlen(de->d_name);
        bool json = len > 5 && strcmp(de->d_name + len - 5, ".json") == 0;
        bool tmx = len > 4 && strcmp(de->d_name + len - 4, ".tmx") == 0;
        if (!json && !tmx) continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        f(path, de->d_name, ctx);
        n++;
    }
    closedir(dp);
    return n;
}

static void want_named(const tmpl_db_t *db, const char *key, const char *where)
{
    if (!ruleset_stat_named(db, key))
        fail_msg("%s: stat '%s' has no name in data/%s/templates.json stat_names", where, key,
                 db->ruleset);
}

/* Every ruleset's slots and every template's stats are named in its data. */
static void test_rulesets_name_their_stats(void **state)
{
    (void)state;
    char data[512], err[512];
    data_dir(data, sizeof data);
    const ruleset_t *const *rs;
    int nr = ruleset_list(&rs);
    assert_true(nr >= 5);
    for (int r = 0; r < nr; r++) {
        tmpl_db_t *db = NULL;
        if (tmpl_db_load(data, rs[r]->id, &db, err, sizeof err) != 0) fail_msg("%s", err);
        for (int s = 0; s < rs[r]->n_stats; s++)
            if (rs[r]->stat_names[s]) want_named(db, rs[r]->stat_names[s], rs[r]->id);
        for (int t = 0; t < db->n_templates; t++)
            for (int s = 0; s < db->templates[t].n_stats; s++)
                want_named(db, db->templates[t].stats[s].key, db->templates[t].id);
        want_named(db, "hp", rs[r]->id); /* every ruleset's first gauge */
        tmpl_db_destroy(db);
    }
}

typedef struct {
    int titled, battles, folded, openings;
} words_ctx_t;

/* One whole AI battle of the map at this seed, read as the log shows it. */
static void check_battle(const char *path, const char *name, uint64_t seed, words_ctx_t *cx)
{
    char data[512], err[512];
    data_dir(data, sizeof data);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    if (map_load(path, data, &m, &db, err, sizeof err) != 0) fail_msg("%s", err);
    for (int i = 0; i < m->n_combatants; i++)
        for (int s = 0; s < m->combatants[i].n_stats; s++)
            want_named(db, m->combatants[i].stats[s].key, name);
    pui_t *p = calloc(1, sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, seed), BATTLE_OK);
    pui_run_ai(p, 100);
    const battle_t *b = pui_battle(p);
    /* The cards of everyone a few commands in. */
    for (int i = 0; seed == 1 && i < b->n; i++) {
        ui_card_t c;
        assert_true(ui_card_build(p, i, &c));
        for (int k = 0; k < c.n; k++) {
            for (size_t j = 0; j < sizeof KEYS / sizeof KEYS[0]; j++)
                if (has_key(c.line[k], KEYS[j]))
                    fail_msg("%s: %s's card says '%s': %s", name, pui_name(p, i), KEYS[j],
                             c.line[k]);
            if (has_snake_word(c.line[k]))
                fail_msg("%s: %s's card shows a key: %s", name, pui_name(p, i), c.line[k]);
            cx->titled += strstr(c.line[k], "Vulnerability") != NULL ||
                          strstr(c.line[k], "Special attack") != NULL;
        }
    }
    /* Then the AI plays every side to the end (the rules answer every reaction). */
    pui_set_ask(p, false);
    battle_status_t st = play_auto(&p->play, 30);
    /* A side that rolls physical dice gets faces from a fixed sequence. */
    unsigned face = (unsigned)seed;
    for (int guard = 0; st == BATTLE_NEED_DICE && guard < 100000; guard++) {
        face = face * 1103515245u + 12345u;
        int sides = p->play.b->need.sides > 0 ? p->play.b->need.sides : 6;
        st = play_enter_die(&p->play, 1 + (int)((face >> 8) % (unsigned)sides));
        if (st == BATTLE_OK) st = play_auto(&p->play, 30);
    }
    if (st != BATTLE_OK) fail_msg("%s seed %d: the battle stopped (%d)", name, (int)seed, (int)st);
    b = pui_battle(p);
    assert_true(b->over);
    cx->battles++;
    for (int i = 0; i < b->n; i++) {
        gauge_t g[GAUGES_MAX];
        int ng = ruleset_gauges(p->play.rs, b, i, g, GAUGES_MAX);
        for (int k = 0; k < ng; k++) want_named(db, g[k].key, name);
    }
    /* Every line of the log as the panel shows it. */
    int n = b->log.n;
    char(*line)[320] = calloc((size_t)n + 1, sizeof *line);
    assert_non_null(line);
    for (int k = 0; k < n; k++) {
        const event_t *e = &b->log.ev[k];
        hud_log_kind_t kind = hud_log_text(p, e, line[k], sizeof line[k]);
        if (kind == HUD_LOG_NONE) line[k][0] = '\0';
        if (strstr(line[k], " is now "))
            fail_msg("%s seed %d: a bookkeeping line: %s", name, (int)seed, line[k]);
        for (size_t j = 0; j < sizeof KEYS / sizeof KEYS[0]; j++)
            if (has_key(line[k], KEYS[j]))
                fail_msg("%s seed %d: the log says '%s': %s", name, (int)seed, KEYS[j], line[k]);
        /* A held or readied action names its trigger in words, not "hold:enters reach". */
        if (strstr(line[k], "hold:") || strstr(line[k], "ready: ") || strstr(line[k], "ready move: "))
            fail_msg("%s seed %d: a trigger's key in the log: %s", name, (int)seed, line[k]);
        /* HB_WORDS_DUMP=1 prints every battle's log as the panel shows it. */
        if (line[k][0] && getenv("HB_WORDS_DUMP")) printf("%s %d| %s\n", name, (int)seed, line[k]);
    }
    /* Activation's log opens with how its timeline works and who acts first. */
    int first = 0;
    while (first < n && !line[first][0])
        first++;
    if (strcmp(m->ruleset, "activation") == 0) {
        assert_true(first < n);
        if (!strstr(line[first], "The timeline") || !strstr(line[first], "acts first"))
            fail_msg("%s: the log opens with: %s", name, line[first]);
        cx->openings++;
    }
    /* Every stat change is told, in its short word, on some line. */
    for (int k = 0; k < n; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type != EV_STAT) continue;
        want_named(db, e->name, name);
        if (line[k][0]) fail_msg("%s: a stat change on a line of its own: %s", name, line[k]);
        char word[TMPL_WORD_MAX], want[96];
        ruleset_stat_word(db, e->name, true, word, sizeof word);
        if ((e->opt & EV_OPT_FROM) && e->amount != e->value)
            snprintf(want, sizeof want, "%s %d -> %d", word, e->amount, e->value);
        else
            snprintf(want, sizeof want, "%s %d", word, e->value);
        bool told = false;
        for (int j = 0; j < n && !told; j++)
            told = line[j][0] && strstr(line[j], want) != NULL;
        if (!told) fail_msg("%s seed %d: stat %s (%s) is told nowhere", name, (int)seed, e->name, want);
        cx->folded++;
    }
    free(line);
    pui_free(p);
    free(p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

static void each_seed(const char *path, const char *name, void *ctx)
{
    for (uint64_t seed = 1; seed <= 3; seed++)
        check_battle(path, name, seed, ctx);
}

static void test_cards_and_log_in_game_words(void **state)
{
    (void)state;
    words_ctx_t cx = {0};
    int maps = each_map(each_seed, &cx);
    print_message("%d maps, %d battles, %d stat changes told, %d openings\n", maps, cx.battles,
                  cx.folded, cx.openings);
    assert_true(maps >= 7);
    assert_int_equal(cx.battles, 3 * maps);
    assert_true(cx.titled > 0);
    assert_true(cx.folded > 0);
    assert_true(cx.openings > 0); /* shattered_lane plays activation */
    char buf[TMPL_WORD_MAX];
    /* A key the data leaves out still reads as words; a short one as an abbreviation. */
    assert_string_equal(ruleset_stat_word(NULL, "dual_strike", false, buf, sizeof buf),
                        "Dual strike");
    assert_string_equal(ruleset_stat_word(NULL, "hp", true, buf, sizeof buf), "HP");
}

/* stat_names is read with the same checks as the rest of the file: a bad
 * entry is refused with the file and JSON path, and a name too long for a
 * bar needs its short form. */
static void test_stat_names_checked(void **state)
{
    (void)state;
    static const char W[] = "{\"format\":\"hexbattle-weapons\",\"version\":1,\"weapons\":{}}";
    static const struct {
        const char *names, *err; /* err NULL: loads */
    } CASES[] = {
        {"{\"vln\":\"Vulnerability\",\"pp\":{\"name\":\"Power points\",\"short\":\"PP\"}}", NULL},
        {"{\"vln\":3}", "t.json: stat_names.vln: expected a string"},
        {"{\"vln\":\"\"}", "t.json: stat_names.vln:"},
        {"{\"martial\":\"Martial arts die\"}", "t.json: stat_names.martial.short: required"},
        {"{\"pp\":{\"short\":\"PP\"}}", "t.json: stat_names.pp.name"},
        {"[]", "t.json: stat_names:"},
    };
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        char t[512], err[256] = "";
        snprintf(t, sizeof t,
                 "{\"format\":\"hexbattle-templates\",\"version\":1,\"ruleset\":\"surface\","
                 "\"stat_names\":%s,\"templates\":{}}",
                 CASES[k].names);
        tmpl_db_t *db = NULL;
        int rc = tmpl_db_load_mem("surface", W, strlen(W), "w.json", t, strlen(t), "t.json", &db,
                                  err, sizeof err);
        if (!CASES[k].err) {
            assert_int_equal(rc, 0);
            char buf[TMPL_WORD_MAX];
            assert_string_equal(ruleset_stat_word(db, "pp", false, buf, sizeof buf), "Power points");
            assert_string_equal(ruleset_stat_word(db, "pp", true, buf, sizeof buf), "PP");
            assert_string_equal(ruleset_stat_word(db, "vln", true, buf, sizeof buf), "Vulnerability");
            tmpl_db_destroy(db);
            continue;
        }
        assert_int_not_equal(rc, 0);
        assert_null(db);
        if (!strstr(err, CASES[k].err)) fail_msg("case %d: '%s' lacks '%s'", (int)k, err, CASES[k].err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rulesets_name_their_stats),
        cmocka_unit_test(test_stat_names_checked),
        cmocka_unit_test(test_cards_and_log_in_game_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
