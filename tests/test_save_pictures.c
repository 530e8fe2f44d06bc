/* test_save_pictures.c - a saved battle kept away from its map's folder (an
 * autosave, a recovery copy, a save moved elsewhere) is drawn with the map's
 * own pictures again (save_adopt_pictures, src/io/save_pictures.c): a Tiled
 * map's tiles, which a save does not keep, and a battle-map picture, which a
 * save names relative to the map's folder. Only through the io and platform
 * layers, so the suite runs on Windows too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/art.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "io/picture.h"
#include "io/save.h"
#include "platform/platform.h"
#include "rules/play.h"

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

/* Two folders: the map's (A) and somewhere else (B). */
typedef struct {
    char a[1024], b[1024];
} dirs_t;

static void path_in(char *out, size_t cap, const char *dir, const char *name)
{
    int k = snprintf(out, cap, "%s/%s", dir, name);
    assert_true(k > 0 && (size_t)k < cap);
}

static void put_file(const char *path, const char *text, size_t len)
{
    char err[HB_ERR_MAX];
    assert_int_equal(hb_write_atomic(path, text, len, false, err, sizeof err), HB_OK);
}

/* The bundled file maps/NAME copied to DIR/AS. */
static void copy_bundled(const char *name, const char *dir, const char *as)
{
    char from[1024], to[1024], err[HB_ERR_MAX];
    snprintf(from, sizeof from, "%s/../maps/%s", data_dir(), name);
    path_in(to, sizeof to, dir, as);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(from, HB_FILE_MAX, &text, &len, err, sizeof err), HB_OK);
    put_file(to, text, len);
    free(text);
}

/* DIR/mill_ford.tmx: the bundled Tiled map with its tileset renamed, so its
 * tiles read as the map's own pictures (hexbattle's own "hexbattle terrain"
 * tileset only shows its colours), and the tiles' picture beside it. */
static void write_tiled_map(const char *dir)
{
    char from[1024], to[1024], err[HB_ERR_MAX];
    snprintf(from, sizeof from, "%s/../maps/mill_ford.tmx", data_dir());
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(from, HB_FILE_MAX, &text, &len, err, sizeof err), HB_OK);
    char *name = strstr(text, "\"hexbattle terrain\"");
    assert_non_null(name);
    memcpy(name, "\"ford mill tiles 1\"", strlen("\"ford mill tiles 1\""));
    path_in(to, sizeof to, dir, "mill_ford.tmx");
    put_file(to, text, len);
    free(text);
    copy_bundled("mill_ford.tiles.png", dir, "mill_ford.tiles.png");
}

/* DIR/ford.json: the ridge ambush with the Tiled tiles' picture as its
 * battle-map picture, ford.png beside it. */
static void write_background_map(const char *dir)
{
    char from[1024], to[1024], err[HB_ERR_MAX];
    snprintf(from, sizeof from, "%s/../maps/ridge_ambush.json", data_dir());
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(from, HB_FILE_MAX, &text, &len, err, sizeof err), HB_OK);
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    assert_non_null(root);
    cJSON *bg = cJSON_AddObjectToObject(root, "background");
    assert_non_null(cJSON_AddStringToObject(bg, "image", "ford.png"));
    assert_non_null(cJSON_AddNumberToObject(bg, "scale", 44));
    char *out = cJSON_Print(root);
    cJSON_Delete(root);
    path_in(to, sizeof to, dir, "ford.json");
    put_file(to, out, strlen(out));
    cJSON_free(out);
    copy_bundled("mill_ford.tiles.png", dir, "ford.png");
}

/* A battle on the map at MAP_PATH, saved at SAVE_PATH with map_file as given. */
static void save_battle(const char *map_path, const char *save_path, const char *map_file)
{
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    char err[HB_ERR_MAX];
    int rc = map_load(map_path, data_dir(), &m, &db, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, HB_OK);
    battle_opts_t o = {.seed = 3, .max_rounds = 1};
    play_t p;
    assert_int_equal(play_start(&p, m, db, NULL, &o), BATTLE_OK);
    rc = save_write(save_path, &p, NULL, map_file, false, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, HB_OK);
    play_end(&p);
    tmpl_db_destroy(db);
    map_destroy(m);
}

typedef enum { TILED, BACKGROUND } kind_t;

/* The map of KIND written in folder A (mill_ford.tmx or ford.json), and a
 * battle on it saved as SAVE_DIR/SAVE_NAME recording map_file FILE (NULL: the
 * map's whole path); map and save get the two paths. */
static void saved_battle(const dirs_t *d, kind_t kind, const char *save_dir, const char *save_name,
                         const char *file, char *map, char *save)
{
    if (kind == TILED)
        write_tiled_map(d->a);
    else
        write_background_map(d->a);
    path_in(map, 1200, d->a, kind == TILED ? "mill_ford.tmx" : "ford.json");
    path_in(save, 1200, save_dir, save_name);
    save_battle(map, save, file ? file : map);
}

static save_t *load_save(const char *path)
{
    save_t *s = NULL;
    char err[HB_ERR_MAX];
    int rc = save_load(path, data_dir(), &s, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, HB_OK);
    return s;
}

/* The real form of folder DIR, as the loader records a map's folder. */
static bool same_folder(const char *x, const char *y)
{
    char rx[1024], ry[1024];
    return hb_fs_real_path(x, rx, sizeof rx) == 0 && hb_fs_real_path(y, ry, sizeof ry) == 0 &&
           strcmp(rx, ry) == 0;
}

static int setup(void **state)
{
    dirs_t *d = calloc(1, sizeof *d);
    if (!d || hb_fs_make_temp_dir("hb_pics_a_", d->a, sizeof d->a) != 0 ||
        hb_fs_make_temp_dir("hb_pics_b_", d->b, sizeof d->b) != 0) {
        free(d);
        return -1;
    }
    *state = d;
    return 0;
}

/* Empty both folders (only files are made in them) and remove them. */
static void empty_and_remove(const char *dir)
{
    char names[16][256];
    int n = 0;
    hb_dir_t *it = hb_dir_open(dir);
    for (const char *e; it && n < 16 && (e = hb_dir_next(it));)
        if (strlen(e) < sizeof names[0]) memcpy(names[n++], e, strlen(e) + 1);
    if (it) hb_dir_close(it);
    for (int i = 0; i < n; i++) {
        char p[1400];
        int k = snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (k > 0 && (size_t)k < sizeof p) hb_fs_remove(p);
    }
    hb_fs_remove_dir(dir);
}

static int teardown(void **state)
{
    dirs_t *d = *state;
    empty_and_remove(d->a);
    empty_and_remove(d->b);
    free(d);
    return 0;
}

/* A Tiled battle saved elsewhere: the save has the terrain but no tiles
 * (what the window drew as terrain colours); adopted, the map's tiles come
 * back, read from the map's folder. */
static void test_tiled_save_elsewhere_gets_its_tiles(void **state)
{
    dirs_t *d = *state;
    char map[1200], save[1200];
    saved_battle(d, TILED, d->b, "autosave-1.json", NULL, map, save);
    save_t *s = load_save(save);
    assert_false(s->map->art && s->map->art->gids);
    assert_true(save_adopt_pictures(s, save));
    assert_non_null(s->map->art);
    assert_non_null(s->map->art->gids);
    assert_true(art_any(s->map->art));
    assert_true(same_folder(s->map->art->dir, d->a));
    save_free(s);
}

/* A battle-map picture is named relative to the map's folder: loaded from
 * a save elsewhere it points into the save's folder, where it is not; adopted,
 * it points into the map's. */
static void test_background_save_elsewhere_points_at_the_map_folder(void **state)
{
    dirs_t *d = *state;
    char map[1200], save[1200];
    saved_battle(d, BACKGROUND, d->b, "ford.battle.json", NULL, map, save);
    save_t *s = load_save(save);
    assert_non_null(s->map->art);
    assert_string_equal(s->map->art->bg, "ford.png");
    assert_true(same_folder(s->map->art->dir, d->b));
    assert_true(save_adopt_pictures(s, save));
    assert_string_equal(s->map->art->bg, "ford.png");
    assert_true(same_folder(s->map->art->dir, d->a));
    save_free(s);
}

/* A relative map_file (a map opened by a relative path) is tried as it is,
 * then beside the save: a save kept in the map's folder finds it whatever the
 * working folder is. */
static void test_relative_map_file_found_beside_the_save(void **state)
{
    dirs_t *d = *state;
    char map[1200], save[1200];
    saved_battle(d, TILED, d->a, "mill_ford.battle.json", "mill_ford.tmx", map, save);
    save_t *s = load_save(save);
    assert_string_equal(s->map_file, "mill_ford.tmx");
    assert_true(save_adopt_pictures(s, save));
    assert_non_null(s->map->art->gids);
    save_free(s);
}

/* Tiles drawn for another grid would sit on the wrong hexes: a save whose
 * grid is not the map file's keeps its own (no tiles). */
static void test_tiles_for_another_grid_are_not_taken(void **state)
{
    dirs_t *d = *state;
    char map[1200], save[1200], err[HB_ERR_MAX];
    saved_battle(d, TILED, d->b, "autosave-1.json", NULL, map, save);
    /* The save's map loses its last row of hexes (no one stands there yet). */
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(save, HB_FILE_MAX, &text, &len, err, sizeof err), HB_OK);
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    cJSON *m = cJSON_GetObjectItem(root, "map");
    cJSON *rows = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "terrain"), "rows");
    int n = cJSON_GetArraySize(rows);
    cJSON_DeleteItemFromArray(rows, n - 1);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(m, "grid"), "rows", cJSON_CreateNumber(n - 1));
    char *out = cJSON_Print(root);
    cJSON_Delete(root);
    put_file(save, out, strlen(out));
    cJSON_free(out);

    save_t *s = load_save(save);
    assert_int_equal(s->map->rows, n - 1);
    assert_false(save_adopt_pictures(s, save));
    assert_false(s->map->art && s->map->art->gids);
    save_free(s);
}

/* The map gone (or never recorded): nothing to take, nothing changed. */
static void test_missing_map_leaves_the_save_as_it_is(void **state)
{
    dirs_t *d = *state;
    char map[1200], save[1200];
    saved_battle(d, BACKGROUND, d->b, "ford.battle.json", NULL, map, save);
    assert_int_equal(hb_fs_remove(map), 0);
    save_t *s = load_save(save);
    assert_false(save_adopt_pictures(s, save));
    assert_true(same_folder(s->map->art->dir, d->b));
    s->map_file[0] = '\0';
    assert_false(save_adopt_pictures(s, save));
    save_free(s);
}

/* The picture gone from the map's folder: the save still points where it
 * was (the window then says the picture is missing). */
static void test_background_missing_from_the_map_folder_is_not_followed(void **state)
{
    dirs_t *d = *state;
    char map[1200], save[1200], pic[1200];
    saved_battle(d, BACKGROUND, d->b, "ford.battle.json", NULL, map, save);
    path_in(pic, sizeof pic, d->a, "ford.png");
    assert_int_equal(hb_fs_remove(pic), 0);
    save_t *s = load_save(save);
    assert_false(save_adopt_pictures(s, save));
    assert_true(same_folder(s->map->art->dir, d->b));
    save_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tiled_save_elsewhere_gets_its_tiles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_background_save_elsewhere_points_at_the_map_folder,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_relative_map_file_found_beside_the_save, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_tiles_for_another_grid_are_not_taken, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_missing_map_leaves_the_save_as_it_is, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_background_missing_from_the_map_folder_is_not_followed,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
