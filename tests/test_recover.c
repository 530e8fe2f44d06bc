/* test_recover.c - recovery copies (src/io/recover.h): where they go, the
 * editor's map and undo history written and read back so that undo and redo
 * go on exactly, a damaged history refused with its JSON path, a battle copy
 * that is a save, and a copy that cannot be written leaving nothing behind. */
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
#include <time.h>
#include <unistd.h>

#include "io/fileio.h"
#include "io/map_io.h"
#include "io/recover.h"
#include "platform/platform.h"
#include "text_fixture.h"
#include "tmp_fixture.h"

typedef struct {
    char dir[64];
    map_t *m;
    tmpl_db_t *db;
} fx_t;

static int setup(void **state)
{
    fx_t *f = calloc(1, sizeof *f);
    if (!f || !tmp_dir_make(f->dir, sizeof f->dir, "recover")) return -1;
    tmp_user_dirs(f->dir);
    char err[HB_ERR_MAX];
    if (map_load(HB_SOURCE_DIR "/maps/ridge_ambush.json", NULL, &f->m, &f->db, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx_t *f = *state;
    hb_fault_set(NULL);
    tmpl_db_destroy(f->db);
    map_destroy(f->m);
    tmp_dir_remove(f->dir);
    free(f);
    return 0;
}

static void test_paths(void **state)
{
    fx_t *f = *state;
    char p[1024], want[1024];
    assert_true(recover_path("maps/ridge_ambush.json", p, sizeof p));
    snprintf(want, sizeof want, "%s/hexbattle/ridge_ambush.recover.json", f->dir);
    assert_string_equal(p, want);
    assert_true(recover_path("/x/ridge_ambush.battle.json", p, sizeof p));
    snprintf(want, sizeof want, "%s/hexbattle/ridge_ambush.battle.recover.json", f->dir);
    assert_string_equal(p, want);
    assert_true(recover_path(NULL, p, sizeof p));
    snprintf(want, sizeof want, "%s/hexbattle/untitled.recover.json", f->dir);
    assert_string_equal(p, want);
    /* The record of whose copy it is resolves the folder. */
    char abs[1024], cwd[900];
    assert_non_null(getcwd(cwd, sizeof cwd));
    recover_abs("some.json", abs, sizeof abs);
#ifdef _WIN32
    /* "Z:\\work\\x" from the CRT; hexbattle's paths use '/'. */
    for (char *c = cwd; *c; c++)
        if (*c == '\\') *c = '/';
    assert_true(cwd[1] == ':' && cwd[2] == '/');
#endif
    snprintf(want, sizeof want, "%s/some.json", cwd);
    assert_string_equal(abs, want);
}

/* A history with every kind of edit, part of it undone. */
static void make_history(map_t *m, edit_history_t *h)
{
    edit_history_init(h);
    edit_t e;
    int wall = map_find_type(m, "wall"), water = map_find_type(m, "water");
    assert_true(edit_paint(m, (cell_t){5, 5}, 2, wall, &e));
    assert_true(edit_do(h, m, &e));
    assert_true(edit_flood(m, (cell_t){0, 0}, water, &e));
    assert_true(edit_do(h, m, &e));
    /* A stroke: two dabs as one undo step. */
    edit_t g, d;
    edit_group_init(&g);
    assert_true(edit_paint(m, (cell_t){1, 1}, 1, wall, &d));
    assert_true(edit_apply(m, &d));
    assert_true(edit_group_push(&g, &d));
    assert_true(edit_paint(m, (cell_t){2, 1}, 1, wall, &d));
    assert_true(edit_apply(m, &d));
    assert_true(edit_group_push(&g, &d));
    assert_true(edit_record(h, &g));
    terrain_t t = m->types[0];
    snprintf(t.name, sizeof t.name, "lava");
    t.move = 0;
    t.color = 0xff4400;
    assert_true(edit_type_add(m, &t, &e));
    assert_true(edit_do(h, m, &e));
    /* Painted with the new type: the copy's map file then names it in its
     * legend, which must not stop undo from dropping the type again. */
    assert_true(edit_paint(m, (cell_t){12, 8}, 1, m->n_types - 1, &e));
    assert_true(edit_do(h, m, &e));
    map_combatant_t c = m->combatants[0];
    snprintf(c.id, sizeof c.id, "newcomer");
    c.at = (cell_t){10, 2};
    c.n_stats = 1;
    snprintf(c.stats[0].key, sizeof c.stats[0].key, "armor");
    c.stats[0].value = 3;
    assert_true(edit_unit_add(m, &c, &e));
    assert_true(edit_do(h, m, &e));
    assert_true(edit_unit_move(m, 1, (cell_t){11, 3}, &e));
    assert_true(edit_do(h, m, &e));
    assert_true(edit_unit_del(m, 2, &e));
    assert_true(edit_do(h, m, &e));
    assert_true(edit_faction_set(m, "raiders", true, &e));
    assert_true(edit_do(h, m, &e));
    edit_props_t pr = {.feet_per_hex = 10};
    snprintf(pr.name, sizeof pr.name, "Renamed");
    snprintf(pr.ruleset, sizeof pr.ruleset, "%s", m->ruleset);
    assert_true(edit_props(m, &pr, &e));
    assert_true(edit_do(h, m, &e));
    assert_true(edit_resize(m, 30, 20, (edit_anchor_t){1, 1}, 0, &e));
    assert_true(edit_do(h, m, &e));
    assert_true(edit_layout(m, (hex_layout_t){HEX_FLAT, HEX_EVEN}, 0, &e));
    assert_true(edit_do(h, m, &e));
    edit_history_mark_saved(h);
    assert_true(edit_paint(m, (cell_t){3, 3}, 3, wall, &e));
    assert_true(edit_do(h, m, &e));
    /* Three steps undone: they stay as redos. */
    assert_true(edit_undo(h, m));
    assert_true(edit_undo(h, m));
    assert_true(edit_undo(h, m));
}

static char *text_of(const map_t *m)
{
    char *t = map_to_json(m);
    assert_non_null(t);
    return t;
}

/* Undo everything, then redo everything, on two maps with their histories:
 * they must agree at every step. */
static void assert_same_walk(map_t *a, edit_history_t *ha, map_t *b, edit_history_t *hb)
{
    assert_int_equal(ha->n, hb->n);
    assert_int_equal(ha->pos, hb->pos);
    assert_int_equal(ha->saved, hb->saved);
    for (;;) {
        char *x = text_of(a), *y = text_of(b);
        assert_string_equal(x, y);
        free(x);
        free(y);
        bool ua = edit_undo(ha, a), ub = edit_undo(hb, b);
        assert_int_equal(ua, ub);
        if (!ua) break;
    }
    for (;;) {
        bool ra = edit_redo(ha, a), rb = edit_redo(hb, b);
        assert_int_equal(ra, rb);
        if (!ra) break;
        char *x = text_of(a), *y = text_of(b);
        assert_string_equal(x, y);
        free(x);
        free(y);
    }
}

static void test_map_copy_round_trip(void **state)
{
    fx_t *f = *state;
    edit_history_t h;
    make_history(f->m, &h);
    char rpath[1024], err[HB_ERR_MAX];
    assert_true(recover_path("maps/ridge_ambush.json", rpath, sizeof rpath));
    /* The autosave folder does not exist yet: writing makes it. */
    assert_int_equal(recover_write_map(rpath, "maps/ridge_ambush.json", f->m, &h, err, sizeof err),
                     HB_OK);
    assert_true(recover_belongs(rpath, "maps/ridge_ambush.json"));
    assert_false(recover_belongs(rpath, "maps/salt_flats.json"));
    assert_false(recover_belongs(rpath, "elsewhere/ridge_ambush.json"));

    recover_map_t r;
    assert_int_equal(recover_load_map(rpath, NULL, &r, err, sizeof err), HB_OK);
    assert_true(r.written > 0);
    assert_true(edit_history_dirty(&r.hist));
    assert_same_walk(f->m, &h, r.map, &r.hist);
    recover_map_free(&r);
    edit_history_free(&h);
}

/* A wall painted on f's map (history h, made here), and the recovery copy
 * of map "x.json" written to rpath. */
static void copy_with_a_wall(fx_t *f, edit_history_t *h, char *rpath, size_t cap)
{
    edit_history_init(h);
    edit_t e;
    assert_true(edit_paint(f->m, (cell_t){5, 5}, 1, map_find_type(f->m, "wall"), &e));
    assert_true(edit_do(h, f->m, &e));
    char err[HB_ERR_MAX];
    assert_true(recover_path("x.json", rpath, cap));
    assert_int_equal(recover_write_map(rpath, "x.json", f->m, h, err, sizeof err), HB_OK);
}

/* Replace the first occurrence of from in the file at path by to. */
static void patch_file(const char *path, const char *from, const char *to)
{
    char *text = NULL;
    size_t len = 0;
    char err[256];
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &text, &len, err, sizeof err), HB_OK);
    char *out = text_patch(text, from, to, false, NULL); /* NULL: from is not there */
    assert_non_null(out);
    assert_int_equal(hb_write_atomic(path, out, strlen(out), false, err, sizeof err), HB_OK);
    free(out);
    free(text);
}

static void test_damaged_history_refused(void **state)
{
    fx_t *f = *state;
    edit_history_t h;
    char rpath[1024], err[HB_ERR_MAX];
    copy_with_a_wall(f, &h, rpath, sizeof rpath);
    edit_history_free(&h);

    recover_map_t r;
    /* A cell index off the 24x16 map: the undo cannot apply. */
    patch_file(rpath, "\"cells\":\t[", "\"cells\":\t[100000, 0, ");
    assert_int_equal(recover_load_map(rpath, NULL, &r, err, sizeof err), HB_ERR_INPUT);
    char want[1200];
    snprintf(want, sizeof want,
             "%s: history.edits[0]: does not fit the map at this point of the history", rpath);
    assert_string_equal(err, want);
    assert_null(r.map);

    /* A cursor past the list. */
    assert_int_equal(recover_write_map(rpath, "x.json", f->m, &h, err, sizeof err), HB_OK);
    patch_file(rpath, "\"pos\":\t0", "\"pos\":\t5");
    assert_int_equal(recover_load_map(rpath, NULL, &r, err, sizeof err), HB_ERR_INPUT);
    snprintf(want, sizeof want, "%s: history.pos: expected an integer from 0 to 0, found 5", rpath);
    assert_string_equal(err, want);

    /* An unknown edit. */
    edit_history_init(&h);
    edit_t e;
    assert_true(edit_paint(f->m, (cell_t){6, 5}, 1, map_find_type(f->m, "water"), &e));
    assert_true(edit_do(&h, f->m, &e));
    assert_int_equal(recover_write_map(rpath, "x.json", f->m, &h, err, sizeof err), HB_OK);
    edit_history_free(&h);
    patch_file(rpath, "\"op\":\t\"cells\"", "\"op\":\t\"explode\"");
    assert_int_equal(recover_load_map(rpath, NULL, &r, err, sizeof err), HB_ERR_INPUT);
    assert_non_null(strstr(err, "history.edits[0].op: expected \"cells\""));
}

static void test_battle_copy_is_a_save(void **state)
{
    fx_t *f = *state;
    play_t p;
    battle_opts_t opts = {.seed = 5, .max_rounds = 3};
    assert_int_equal(play_start(&p, f->m, f->db, NULL, &opts), BATTLE_OK);
    assert_int_equal(play_auto(&p, 2), BATTLE_OK);
    char rpath[1024], err[HB_ERR_MAX];
    assert_true(recover_path("maps/ridge_ambush.battle.json", rpath, sizeof rpath));
    assert_int_equal(recover_write_battle(rpath, "maps/ridge_ambush.battle.json", &p, NULL,
                                          "maps/ridge_ambush.json", err, sizeof err),
                     HB_OK);
    assert_true(recover_belongs(rpath, "maps/ridge_ambush.battle.json"));
    save_t *s = NULL;
    assert_int_equal(save_load(rpath, NULL, &s, err, sizeof err), HB_OK);
    play_t q;
    assert_int_equal(save_rebuild(s, &q, err, sizeof err), HB_OK);
    assert_int_equal(q.b->log.n, p.b->log.n);
    assert_int_equal(q.b->round, p.b->round);
    play_end(&q);
    save_free(s);

    /* Taken back, it becomes the newest autosave and is offered no more. */
    char slot[1024], want[1024];
    assert_int_equal(recover_adopt(rpath, slot, sizeof slot, err, sizeof err), HB_OK);
    snprintf(want, sizeof want, "%s/hexbattle/autosave-1.json", f->dir);
    assert_string_equal(slot, want);
    assert_int_equal(access(rpath, F_OK), -1);
    assert_false(recover_belongs(rpath, "maps/ridge_ambush.battle.json"));
    assert_int_equal(save_load(slot, NULL, &s, err, sizeof err), HB_OK);
    save_free(s);
    play_end(&p);
}

/* A full disk at each step of the write: the copy is reported, nothing is
 * left behind, and an older copy stays whole. */
static void test_failed_copy_leaves_old_one(void **state)
{
    fx_t *f = *state;
    edit_history_t h;
    char rpath[1024], err[HB_ERR_MAX];
    copy_with_a_wall(f, &h, rpath, sizeof rpath);
    char *before = NULL, *after = NULL;
    size_t n1, n2;
    assert_int_equal(hb_read_file(rpath, HB_FILE_MAX, &before, &n1, err, sizeof err), HB_OK);
    edit_t e;
    assert_true(edit_paint(f->m, (cell_t){7, 5}, 2, map_find_type(f->m, "wall"), &e));
    assert_true(edit_do(&h, f->m, &e));
    static const char *const SPECS[] = {"create:1", "write:1", "fsync:1", "close:1", "rename:1"};
    for (size_t k = 0; k < sizeof SPECS / sizeof SPECS[0]; k++) {
        assert_true(hb_fault_set(SPECS[k]));
        assert_int_equal(recover_write_map(rpath, "x.json", f->m, &h, err, sizeof err),
                         HB_ERR_OTHER);
        char want[1200];
        snprintf(want, sizeof want, "%s: cannot write: %s", rpath, strerror(ENOSPC));
        assert_memory_equal(err, want, strlen(want));
        assert_int_equal(hb_read_file(rpath, HB_FILE_MAX, &after, &n2, err, sizeof err), HB_OK);
        assert_string_equal(before, after);
        free(after);
        char folder[1024];
        snprintf(folder, sizeof folder, "%s/hexbattle", f->dir);
        assert_int_equal(tmp_dir_count(folder), 1); /* no temporary file */
    }
    hb_fault_set(NULL);
    free(before);
    edit_history_free(&h);
}

/* A full or read-only data folder: the copy goes beside the map, then to
 * $TMPDIR, says where, and is found there again (issue 30). */
static void test_copy_lands_elsewhere(void **state)
{
    fx_t *f = *state;
    char maps[128], tmp[128], file[192], where[1024], err[HB_ERR_MAX], found[1024];
    snprintf(maps, sizeof maps, "%s/maps", f->dir);
    snprintf(tmp, sizeof tmp, "%s/tmp", f->dir);
    assert_int_equal(mkdir(maps, 0755), 0);
    assert_int_equal(mkdir(tmp, 0755), 0);
    tmp_temp_dir(tmp);
    snprintf(file, sizeof file, "%s/ford.json", maps);
    edit_history_t h;
    edit_history_init(&h);
    edit_t e;
    assert_true(edit_paint(f->m, (cell_t){3, 3}, 1, map_find_type(f->m, "wall"), &e));
    assert_true(edit_do(&h, f->m, &e));
    bool no_history = true;
    /* The data folder takes it when it can. */
    assert_int_equal(
        recover_write_map_any(file, f->m, &h, where, sizeof where, &no_history, err, sizeof err),
        HB_OK);
    assert_false(no_history);
    char want[1024];
    snprintf(want, sizeof want, "%s/hexbattle/ford.recover.json", f->dir);
    assert_string_equal(where, want);
    assert_int_equal(unlink(where), 0);
    /* Its first write fails (a full disk): beside the map. */
    assert_true(hb_fault_set("create:1"));
    assert_int_equal(
        recover_write_map_any(file, f->m, &h, where, sizeof where, &no_history, err, sizeof err),
        HB_OK);
    snprintf(want, sizeof want, "%s/ford.recover.json", maps);
    assert_string_equal(where, want);
    hb_fault_set(NULL);
    assert_int_equal(recover_find(file, found, sizeof found, err, sizeof err), 1);
    assert_string_equal(found, want);
    assert_int_equal(unlink(where), 0);
    /* Both fail: $TMPDIR. */
    assert_true(hb_fault_set("create:1,create:2"));
    assert_int_equal(
        recover_write_map_any(file, f->m, &h, where, sizeof where, &no_history, err, sizeof err),
        HB_OK);
#ifdef _WIN32
    /* GetTempPath gives %TMP% as Windows sees it: Wine puts its drive
     * before a Unix path ("Z:/tmp/..."). */
    char sys_tmp[1024];
    assert_true(hb_plat_temp_dir(sys_tmp, sizeof sys_tmp));
    size_t nt = strlen(sys_tmp), nm = strlen(tmp);
    assert_true(nt >= nm && strcmp(sys_tmp + nt - nm, tmp) == 0);
    snprintf(want, sizeof want, "%s/hexbattle-ford.recover.json", sys_tmp);
#else
    snprintf(want, sizeof want, "%s/hexbattle-ford.recover.json", tmp);
#endif
    assert_string_equal(where, want);
    hb_fault_set(NULL);
    assert_int_equal(recover_find(file, found, sizeof found, err, sizeof err), 1);
    assert_string_equal(found, want);
    recover_map_t back;
    assert_int_equal(recover_load_map(found, NULL, &back, err, sizeof err), HB_OK);
    recover_map_free(&back);
    assert_int_equal(unlink(where), 0);
    /* None takes it: every place's reason is said. */
    assert_true(hb_fault_set("create:1+"));
    assert_int_equal(
        recover_write_map_any(file, f->m, &h, where, sizeof where, &no_history, err, sizeof err),
        HB_ERR_OTHER);
    hb_fault_set(NULL);
    assert_non_null(strstr(err, "/hexbattle/ford.recover.json: cannot write"));
    assert_non_null(strstr(err, "/maps/ford.recover.json: cannot write"));
    assert_non_null(strstr(err, "/tmp/hexbattle-ford.recover.json: cannot write"));
    assert_int_equal(recover_find(file, found, sizeof found, err, sizeof err), 0);
    tmp_temp_dir(NULL);
    edit_history_free(&h);
}

/* Three flood fills on a 1024x1024 map: a copy with every cell of the
 * history would pass the 16 MiB read limit. It is written without the
 * history, reads back with the edits (still unsaved), and quickly. */
static void test_huge_history_copy_reads_back(void **state)
{
    (void)state;
    terrain_t types[MAP_MAX_TERRAIN];
    int n = 0;
    char err[HB_ERR_MAX];
    assert_int_equal(
        terrain_load_builtin(hb_data_dir(), types, MAP_MAX_TERRAIN, &n, err, sizeof err), 0);
    int open = 0, wall = 0, water = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(types[i].name, "open")) open = i;
        if (!strcmp(types[i].name, "wall")) wall = i;
        if (!strcmp(types[i].name, "water")) water = i;
    }
    map_t *m = edit_new_map(1024, 1024, types, n, open);
    assert_non_null(m);
    edit_history_t h;
    edit_history_init(&h);
    const int fills[3] = {wall, water, open};
    for (int k = 0; k < 3; k++) {
        edit_t e;
        assert_true(edit_flood(m, (cell_t){10, 10}, fills[k], &e));
        assert_true(edit_do(&h, m, &e));
    }
    edit_t e;
    assert_true(edit_paint(m, (cell_t){5, 5}, 1, wall, &e));
    assert_true(edit_do(&h, m, &e));
    char where[1024];
    bool no_history = false;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(
        recover_write_map_any("big.json", m, &h, where, sizeof where, &no_history, err, sizeof err),
        HB_OK);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("huge copy written in %.3f s\n", secs);
    assert_true(secs < 1.0); /* it is written when the editor is told to stop */
    assert_true(no_history);
    recover_map_t back;
    assert_int_equal(recover_load_map(where, NULL, &back, err, sizeof err), HB_OK);
    assert_int_equal(back.map->cells[map_index(back.map, (cell_t){5, 5})], wall);
    assert_int_equal(back.map->cells[map_index(back.map, (cell_t){500, 500})], open);
    assert_true(edit_history_dirty(&back.hist)); /* the edits are still unsaved */
    assert_int_equal(back.hist.n, 0);
    recover_map_free(&back);
    char found[1024];
    assert_int_equal(recover_find("big.json", found, sizeof found, err, sizeof err), 1);
    edit_history_free(&h);
    map_destroy(m);
}

/* A copy that is there but cannot be read (damaged, or too large) is
 * reported with its reason, never skipped without a word. */
static void test_unreadable_copy_reported(void **state)
{
    (void)state;
    char rpath[1024], found[1024], err[HB_ERR_MAX];
    assert_true(recover_path("maps/lost.json", rpath, sizeof rpath));
    char folder[1024];
    snprintf(folder, sizeof folder, "%s", rpath);
    *strrchr(folder, '/') = '\0';
    assert_true(hb_make_dirs(folder, 0755));
    FILE *fp = fopen(rpath, "w");
    assert_non_null(fp);
    fputs("{\"format\": \"hexbattle-recover\", \"of\": ", fp);
    fclose(fp);
    assert_int_equal(recover_find("maps/lost.json", found, sizeof found, err, sizeof err), -1);
    assert_string_equal(found, rpath);
    assert_non_null(strstr(err, rpath));
    /* Over the read limit. */
    assert_int_equal(truncate(rpath, (off_t)HB_FILE_MAX + 1), 0);
    assert_int_equal(recover_find("maps/lost.json", found, sizeof found, err, sizeof err), -1);
    assert_non_null(strstr(err, "over the 16 MiB limit"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_map_copy_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged_history_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_battle_copy_is_a_save, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_copy_leaves_old_one, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_lands_elsewhere, setup, teardown),
        cmocka_unit_test_setup_teardown(test_huge_history_copy_reads_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unreadable_copy_reported, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
