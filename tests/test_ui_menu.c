/* test_ui_menu.c - the "open a saved battle" menu (menu.h): what it lists and
 * in which order, how keys and clicks choose, and that a pick is rebuilt
 * before the window gives up the battle on screen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "io/fileio.h"
#include "io/save.h"
#include "ui/menu.h"

#include <SDL_ttf.h>

typedef struct {
    char dir[256];     /* the map's folder */
    char auto_dir[320]; /* the autosave folder */
    char map[320];      /* a map path in dir (the file itself is not needed) */
    char own[320];      /* the battle's own save */
    char other[320];    /* another saved battle beside the map */
    char broken[320];   /* a *.battle.json that is not a save */
    char stray[320];    /* a file the menu must not list */
    char autosave1[400];
} fx_t;

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* An AI battle of the sample map `map`, played for `rounds` rounds, saved at path. */
static void save_battle(const char *map, int rounds, const char *path, time_t when)
{
    char src[512], err[HB_ERR_MAX];
    snprintf(src, sizeof src, "%s/maps/%s", HB_SOURCE_DIR, map);
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(map_load(src, HB_SOURCE_DIR "/data", &m, &db, err, sizeof err), HB_OK);
    battle_opts_t o = {.seed = 11, .max_rounds = rounds};
    play_t p;
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    assert_int_equal(play_auto(&p, rounds), BATTLE_OK);
    assert_int_equal(save_write(path, &p, NULL, src, false, err, sizeof err), HB_OK);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
    struct utimbuf t = {when, when};
    assert_int_equal(utime(path, &t), 0);
}

static int setup(void **state)
{
    setenv("HEXBATTLE_DATA", HB_SOURCE_DIR "/data", 1);
    fx_t *f = calloc(1, sizeof *f);
    if (!f) return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/hb_test_menu_XXXXXX");
    if (!mkdtemp(f->dir)) return -1;
    snprintf(f->auto_dir, sizeof f->auto_dir, "%s/auto", f->dir);
    mkdir(f->auto_dir, 0755);
    snprintf(f->map, sizeof f->map, "%s/skirmish.json", f->dir);
    snprintf(f->own, sizeof f->own, "%s/skirmish.battle.json", f->dir);
    snprintf(f->other, sizeof f->other, "%s/older.battle.json", f->dir);
    snprintf(f->broken, sizeof f->broken, "%s/broken.battle.json", f->dir);
    snprintf(f->stray, sizeof f->stray, "%s/notes.json", f->dir);
    assert_true(save_autosave_path(f->auto_dir, 1, f->autosave1, sizeof f->autosave1));
    time_t now = time(NULL);
    save_battle("ridge_ambush.json", 2, f->own, now - 100);
    save_battle("salt_flats.json", 1, f->other, now - 5000);
    save_battle("ridge_ambush.json", 3, f->autosave1, now - 50);
    write_text(f->broken, "{\"format\": \"hexbattle-save\", \"version\": 1");
    write_text(f->stray, "{}");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx_t *f = *state;
    const char *files[] = {f->own, f->other, f->broken, f->stray, f->autosave1};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) unlink(files[i]);
    rmdir(f->auto_dir);
    rmdir(f->dir);
    free(f);
    return 0;
}

static int find(const smenu_t *m, const char *path)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->e[i].path, path) == 0) return i;
    return -1;
}

static void test_lists_saves_in_order(void **state)
{
    fx_t *f = *state;
    smenu_t m;
    smenu_scan(&m, f->own, f->auto_dir, f->map);
    assert_true(m.open);
    /* Own save, the one autosave present, then the folder's saves (the own
     * save not twice), newest first; notes.json is no save. */
    assert_int_equal(m.n, 4);
    assert_int_equal(find(&m, f->own), 0);
    assert_int_equal(find(&m, f->autosave1), 1);
    assert_int_equal(find(&m, f->stray), -1);
    int older = find(&m, f->other), broken = find(&m, f->broken);
    assert_true(older >= 2 && broken >= 2);
    assert_true(broken < older); /* written just now, so newer than older.battle.json */
    assert_string_equal(m.e[0].title, "This battle's save");
    assert_string_equal(m.e[1].title, "Autosave 1 (newest)");
    /* Each says what it is; the broken one says why it will not open. */
    assert_true(m.e[0].ok);
    assert_non_null(strstr(m.e[0].detail, "Ridge Ambush"));
    assert_non_null(strstr(m.e[older].detail, "Salt Flats"));
    assert_non_null(strstr(m.e[1].detail, "round"));
    assert_false(m.e[broken].ok);
    assert_non_null(strstr(m.e[broken].detail, "cannot be opened"));
    assert_non_null(strstr(m.e[broken].detail, "broken.battle.json"));
}

static void test_nothing_saved_yet(void **state)
{
    fx_t *f = *state;
    smenu_t m;
    char missing[400];
    snprintf(missing, sizeof missing, "%s/none/map.json", f->dir);
    smenu_scan(&m, "", "", missing);
    assert_true(m.open);
    assert_int_equal(m.n, 0);
    assert_int_equal(smenu_key(&m, SDLK_RETURN), SMENU_NONE); /* nothing to pick */
    assert_int_equal(smenu_key(&m, SDLK_ESCAPE), SMENU_CLOSE);
    assert_false(m.open);
}

static void test_keys_choose(void **state)
{
    fx_t *f = *state;
    smenu_t m;
    smenu_scan(&m, f->own, f->auto_dir, f->map);
    assert_int_equal(m.sel, 0);
    assert_int_equal(smenu_key(&m, SDLK_UP), SMENU_NONE); /* already at the top */
    assert_int_equal(m.sel, 0);
    assert_int_equal(smenu_key(&m, SDLK_DOWN), SMENU_NONE);
    assert_int_equal(smenu_key(&m, SDLK_DOWN), SMENU_NONE);
    assert_int_equal(smenu_key(&m, SDLK_RETURN), 2);
    for (int i = 0; i < 10; i++) smenu_key(&m, SDLK_DOWN);
    assert_int_equal(m.sel, m.n - 1); /* stops at the last row */
    assert_int_equal(smenu_key(&m, SDLK_2), 1);
    assert_int_equal(smenu_key(&m, SDLK_9), SMENU_NONE); /* no ninth row */
    assert_int_equal(smenu_key(&m, SDLK_x), SMENU_NONE);
    assert_true(m.open);
    assert_int_equal(smenu_key(&m, SDLK_ESCAPE), SMENU_CLOSE);
    assert_false(m.open);
    assert_int_equal(smenu_key(&m, SDLK_RETURN), SMENU_NONE); /* closed: keys pass by */
}

static void test_clicks_choose(void **state)
{
    fx_t *f = *state;
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 1000, 700, 32, SDL_PIXELFORMAT_RGBA32);
    assert_non_null(surf);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    char err[256];
    ui_text_t *t = ui_text_create(r, HB_SOURCE_DIR "/assets", err, sizeof err);
    assert_non_null(t);
    smenu_t m;
    smenu_scan(&m, f->own, f->auto_dir, f->map);
    smenu_draw(&m, r, t, 1000, 700, 1.0);
    assert_int_equal(m.n_rows, m.n);
    /* Rows are stacked, inside the window, and do not overlap. */
    for (int i = 0; i < m.n_rows; i++) {
        assert_true(m.row[i].x >= 0 && m.row[i].x + m.row[i].w <= 1000);
        assert_true(m.row[i].y >= 0 && m.row[i].y + m.row[i].h <= 700);
        if (i) assert_true(m.row[i].y >= m.row[i - 1].y + m.row[i - 1].h);
    }
    SDL_Rect row = m.row[1];
    assert_int_equal(smenu_click(&m, row.x + row.w / 2, row.y + row.h / 2), 1);
    assert_int_equal(m.sel, 1);
    assert_true(m.open);
    /* Beside the panel: closes. */
    assert_int_equal(smenu_click(&m, 2, 2), SMENU_CLOSE);
    assert_false(m.open);
    ui_text_destroy(t);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    TTF_Quit();
    SDL_Quit();
}

static void test_pick_is_rebuilt_first(void **state)
{
    fx_t *f = *state;
    save_t *s = NULL;
    char msg[512] = "";
    assert_int_equal(smenu_try_load(f->other, &s, msg, sizeof msg), HB_OK);
    assert_non_null(s);
    assert_string_equal(s->map->ruleset, "scars");
    save_free(s);
    /* A broken file is refused with its name; nothing is handed out. */
    s = (save_t *)1;
    assert_int_equal(smenu_try_load(f->broken, &s, msg, sizeof msg), HB_ERR_INPUT);
    assert_null(s);
    assert_non_null(strstr(msg, "Not opened"));
    assert_non_null(strstr(msg, "broken.battle.json"));
    /* A save whose commands no longer rebuild to its state is refused too. */
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(f->own, 1 << 20, &text, &len, msg, sizeof msg), HB_OK);
    char *round = strstr(text, "\"round\":");
    assert_non_null(round);
    char *digit = round + strlen("\"round\":");
    while (*digit == ' ' || *digit == '\t') digit++;
    assert_true(*digit >= '0' && *digit <= '9');
    *digit = *digit == '9' ? '8' : (char)(*digit + 1);
    char tampered[400];
    snprintf(tampered, sizeof tampered, "%s/tampered.battle.json", f->dir);
    write_text(tampered, text);
    free(text);
    assert_int_equal(smenu_try_load(tampered, &s, msg, sizeof msg), HB_ERR_INPUT);
    assert_null(s);
    assert_non_null(strstr(msg, "tampered.battle.json"));
    unlink(tampered);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists_saves_in_order),
        cmocka_unit_test(test_nothing_saved_yet),
        cmocka_unit_test(test_keys_choose),
        cmocka_unit_test(test_clicks_choose),
        cmocka_unit_test(test_pick_is_rebuilt_first),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
