/* test_ui_words.c - game words, not template keys (issue 34, item 7): the
 * card of every combatant of every bundled map names each stat as the table
 * does (rules_stat_title: "Vulnerability" for surface's vln, "Special
 * attack" for activation's spatk), never by a key such as combat_bonus,
 * vln, soak_n, spd, spatk or wc; and a stat change in the log reads in the
 * same words ("Delay to the next turn is now ..." for activation's av). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/map_io.h"
#include "rules/stat_titles.h"
#include "ui/card.h"
#include "ui/hud.h"
#include "ui/play_ui.h"

/* Keys the referee saw on the cards. */
static const char *const KEYS[] = {"combat_bonus", "vln", "soak_n",   "soak_d", "spd",
                                   "spatk",        "wc",  "armor_hp", "pp"};

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

static void test_cards_and_log_in_game_words(void **state)
{
    (void)state;
    char dir[512], data[512], path[1024], err[512];
    snprintf(dir, sizeof dir, "%s/../../maps", HB_TEST_DATA);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int titled = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        map_t *m = NULL;
        tmpl_db_t *db = NULL;
        assert_int_equal(map_load(path, data, &m, &db, err, sizeof err), 0);
        pui_t *p = malloc(sizeof *p);
        assert_non_null(p);
        assert_int_equal(pui_start(p, m, db, 1), BATTLE_OK);
        pui_run_ai(p, 100);
        const battle_t *b = pui_battle(p);
        for (int i = 0; i < b->n; i++) {
            ui_card_t c;
            assert_true(ui_card_build(p, i, &c));
            for (int k = 0; k < c.n; k++) {
                for (size_t j = 0; j < sizeof KEYS / sizeof KEYS[0]; j++)
                    if (has_key(c.line[k], KEYS[j]))
                        fail_msg("%s: %s's card says '%s': %s", de->d_name, pui_name(p, i), KEYS[j],
                                 c.line[k]);
                titled += strstr(c.line[k], "Vulnerability") != NULL ||
                          strstr(c.line[k], "Special attack") != NULL;
            }
        }
        /* The log's stat lines in the same words. */
        for (int k = 0; k < b->log.n; k++) {
            if (b->log.ev[k].type != EV_STAT) continue;
            char line[256];
            hud_log_text(p, &b->log.ev[k], line, sizeof line);
            for (size_t j = 0; j < sizeof KEYS / sizeof KEYS[0]; j++)
                if (has_key(line, KEYS[j])) fail_msg("%s: the log says %s", de->d_name, line);
            if (strcmp(b->log.ev[k].name, "av") == 0)
                assert_non_null(strstr(line, "Delay to the next turn"));
        }
        pui_free(p);
        free(p);
        tmpl_db_destroy(db);
        map_destroy(m);
    }
    closedir(dp);
    assert_true(titled > 0);
    char buf[40];
    assert_string_equal(rules_stat_title("surface", "vln", buf, sizeof buf), "Vulnerability");
    assert_string_equal(rules_stat_title("xhalem", "perception", buf, sizeof buf), "Perception");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cards_and_log_in_game_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
