/* test_ui_save.c - saved battles on the play screen (play_ui.h): a resumed
 * battle and an on-screen replay end with the same events as the battle that
 * was saved; Ctrl+S writes a save that loads; autosaves come at turn starts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sys/stat.h>

#include "io/event_json.h"
#include "io/save.h"
#include "ui/play_ui.h"
#include "tmp_fixture.h"

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

/* Load save text (asserting it is good). */
static save_t *load_text(const char *text)
{
    save_t *s = NULL;
    char err[HB_ERR_MAX] = "";
    int rc = save_load_mem(text, strlen(text), "ui.json", data_dir(), &s, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, HB_OK);
    return s;
}

/* An AI battle on a sample map, played as simulate plays it, saved as text. */
static char *sim_save(const char *map, uint64_t seed, char **events)
{
    char path[1024], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/../maps/%s", data_dir(), map);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load(path, data_dir(), &m, &db, err, sizeof err), HB_OK);
    battle_opts_t o = {.seed = seed, .max_rounds = 100};
    play_t p;
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    assert_int_equal(play_auto(&p, 100), BATTLE_OK);
    char *text = save_to_json(&p, NULL, path);
    assert_non_null(text);
    /* The log as one string of event lines. */
    size_t cap = 1 << 20, n = 0;
    char *ev = malloc(cap);
    assert_non_null(ev);
    for (int k = 0; k < p.b->log.n; k++) {
        char *line = event_to_line(p.b->board, &p.b->log.ev[k]);
        assert_non_null(line);
        size_t l = strlen(line);
        assert_true(n + l + 2 < cap);
        memcpy(ev + n, line, l);
        n += l;
        ev[n++] = '\n';
        free(line);
    }
    ev[n] = '\0';
    *events = ev;
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
    return text;
}

static bool same_log(const battle_t *a, const battle_t *b)
{
    if (a->log.n != b->log.n) return false;
    for (int k = 0; k < a->log.n; k++)
        if (memcmp(&a->log.ev[k], &b->log.ev[k], sizeof a->log.ev[k]) != 0) return false;
    return true;
}

/* The on-screen replay plays the saved commands one by one, at the screen's
 * pace, and ends with exactly the saved battle's events. */
static void test_replay_on_screen_ends_with_the_same_events(void **state)
{
    (void)state;
    char *events = NULL;
    char *text = sim_save("ridge_ambush.json", 7, &events);
    save_t *s = load_text(text);
    play_t ref;
    char err[HB_ERR_MAX];
    assert_int_equal(save_rebuild(s, &ref, err, sizeof err), HB_OK);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start_save(p, s, true), BATTLE_OK);
    assert_true(p->replay);
    assert_int_equal(p->play.b->cmds.n, 0); /* from the setup */
    assert_false(p->user_turn);
    int last = 0;
    for (int frame = 0; frame < 200000 && p->script_pos < p->n_script; frame++) {
        pui_tick(p, 0.05);
        assert_true(p->script_pos >= last); /* forwards only, one at a time */
        assert_true(p->script_pos - last <= 1);
        last = p->script_pos;
    }
    assert_int_equal(p->script_pos, s->n_cmds);
    assert_true(same_log(p->play.b, ref.b));
    /* No input during a replay. */
    assert_false(pui_undo(p));
    assert_false(pui_end_turn(p));
    pui_free(p);
    free(p);
    play_end(&ref);
    save_free(s);
    free(text);
    free(events);
}

/* Resuming a simulated battle on the screen turns every die into an entered
 * one (the screen's way) without changing a single event; Ctrl+S then writes
 * a save that rebuilds to that same battle. */
static void test_resume_then_ctrl_s(void **state)
{
    (void)state;
    char *events = NULL;
    char *text = sim_save("salt_flats.json", 3, &events);
    save_t *s = load_text(text);
    play_t ref;
    char err[HB_ERR_MAX];
    assert_int_equal(save_rebuild(s, &ref, err, sizeof err), HB_OK);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start_save(p, s, false), BATTLE_OK);
    assert_false(p->replay);
    assert_true(p->play.b->opts.manual_all);
    assert_true(same_log(p->play.b, ref.b));
    char dir[] = "/tmp/hb_ui_save_XXXXXX";
    assert_non_null(mkdtemp(dir));
    snprintf(p->save_path, sizeof p->save_path, "%s/b.json", dir);
    assert_true(pui_key(p, SDLK_s, KMOD_LCTRL));
    assert_non_null(strstr(p->msg, "Saved to"));
    save_t *s2 = NULL;
    assert_int_equal(save_load(p->save_path, data_dir(), &s2, err, sizeof err), HB_OK);
    play_t again;
    assert_int_equal(save_rebuild(s2, &again, err, sizeof err), HB_OK);
    assert_true(same_log(again.b, ref.b));
    assert_true(s2->table.has_rng);
    play_end(&again);
    save_free(s2);
    /* A save that cannot be written says so and keeps the battle going. */
    snprintf(p->save_path, sizeof p->save_path, "%s/missing/b.json", dir);
    assert_true(pui_save(p));
    assert_non_null(strstr(p->msg, "Not saved"));
    tmp_dir_remove(dir);
    pui_free(p);
    free(p);
    play_end(&ref);
    save_free(s);
    free(text);
    free(events);
}

/* A new battle autosaves once its first turn has started, then again only
 * after another turn start; three slots rotate. */
static void test_autosave_at_turn_starts(void **state)
{
    (void)state;
    char path[1024], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/../maps/ridge_ambush.json", data_dir());
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load(path, data_dir(), &m, &db, err, sizeof err), HB_OK);
    pui_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 21), BATTLE_OK);
    char dir[] = "/tmp/hb_ui_auto_XXXXXX";
    assert_non_null(mkdtemp(dir));
    snprintf(p->autosave_dir, sizeof p->autosave_dir, "%s/hexbattle", dir);
    assert_true(pui_autosave(p));  /* the first turn began in the setup */
    assert_false(pui_autosave(p)); /* nothing new since */
    char slot[1200];
    struct stat st;
    int saves = 1;
    /* Play on (AI for every side through the screen's own driver) until two
     * more turns have started. */
    for (int k = 0; k < 400 && saves < 4 && !p->play.b->over; k++) {
        if (p->user_turn)
            pui_end_turn(p);
        else
            pui_run_ai(p, 1);
        saves += pui_autosave(p);
    }
    assert_int_equal(saves, 4);
    for (int k = 1; k <= 3; k++) {
        assert_true(save_autosave_path(p->autosave_dir, k, slot, sizeof slot));
        assert_int_equal(stat(slot, &st), 0);
        save_t *s = NULL;
        assert_int_equal(save_load(slot, data_dir(), &s, err, sizeof err), HB_OK);
        play_t q;
        assert_int_equal(save_rebuild(s, &q, err, sizeof err), HB_OK);
        play_end(&q);
        save_free(s);
    }
    assert_true(save_autosave_path(p->autosave_dir, 4, slot, sizeof slot));
    assert_int_not_equal(stat(slot, &st), 0);
    tmp_dir_remove(dir);
    pui_free(p);
    free(p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_on_screen_ends_with_the_same_events),
        cmocka_unit_test(test_resume_then_ctrl_s),
        cmocka_unit_test(test_autosave_at_turn_starts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
