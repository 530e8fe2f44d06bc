/* test_tiled.c - Tiled hex maps (src/io/tiled*.c, docs/tiled.md): the
 * fixtures Tiled 1.8 itself wrote (tests/data/tiled/, all four layouts, both
 * formats) read into the expected terrain and combatants; the hand-written
 * sources with every layer encoding; exact round trips of the bundled maps;
 * Tiled's pixel layout; and bad Tiled files refused with the file, the path
 * and the reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "io/fileio.h"
#include "io/map_io.h"
#include "io/tiled.h"
#include "io/tiled_internal.h"
#include "tmp_fixture.h"

#define DATA HB_TEST_DATA "/tiled/"

static const char *const CASES[] = {"pointy_odd", "pointy_even", "flat_odd", "flat_even",
                                    "pointy_odd_zstd"};
#define N_CASES (sizeof CASES / sizeof CASES[0])

static map_t *load_ok(const char *path, char *note, size_t notecap)
{
    char err[HB_ERR_MAX];
    map_t *m = NULL;
    int rc = tiled_load(path, HB_SOURCE_DIR "/data", &m, NULL, note, notecap, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, HB_OK);
    return m;
}

/* Map m has the layout, terrain and combatants the expected file lists. */
static void assert_as_expected(const map_t *m, const char *expected_path)
{
    char *text = NULL, err[HB_ERR_MAX];
    size_t len = 0;
    assert_int_equal(hb_read_file(expected_path, 1 << 20, &text, &len, err, sizeof err), HB_OK);
    cJSON *e = cJSON_Parse(text);
    free(text);
    assert_non_null(e);
    const char *orient = cJSON_GetObjectItem(e, "orientation")->valuestring;
    const char *stagger = cJSON_GetObjectItem(e, "stagger")->valuestring;
    assert_int_equal(m->layout.orient, strcmp(orient, "flat") == 0 ? HEX_FLAT : HEX_POINTY);
    assert_int_equal(m->layout.stagger, strcmp(stagger, "even") == 0 ? HEX_EVEN : HEX_ODD);
    assert_int_equal(m->cols, cJSON_GetObjectItem(e, "cols")->valueint);
    assert_int_equal(m->rows, cJSON_GetObjectItem(e, "rows")->valueint);
    int r = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(e, "terrain"))
    {
        int c = 0;
        const cJSON *name;
        cJSON_ArrayForEach(name, row)
        {
            const terrain_t *t = map_terrain_at(m, (cell_t){c, r});
            if (strcmp(t->name, name->valuestring) != 0)
                fprintf(stderr, "%s: cell %d,%d is %s, expected %s\n", expected_path, c, r,
                        t->name, name->valuestring);
            assert_string_equal(t->name, name->valuestring);
            c++;
        }
        r++;
    }
    const cJSON *u;
    int n = 0;
    cJSON_ArrayForEach(u, cJSON_GetObjectItem(e, "combatants"))
    {
        int i = map_find_combatant(m, cJSON_GetObjectItem(u, "id")->valuestring);
        assert_true(i >= 0);
        const cJSON *at = cJSON_GetObjectItem(u, "at");
        assert_int_equal(m->combatants[i].at.col, cJSON_GetArrayItem(at, 0)->valueint);
        assert_int_equal(m->combatants[i].at.row, cJSON_GetArrayItem(at, 1)->valueint);
        assert_string_equal(m->combatants[i].faction,
                            cJSON_GetObjectItem(u, "faction")->valuestring);
        n++;
    }
    assert_int_equal(m->n_combatants, n);
    cJSON_Delete(e);
}

/* What Tiled 1.8 wrote (its .tmj and .tmx exports of each source) and the
 * sources themselves all read into the same, expected map. */
static void test_fixtures_from_tiled(void **state)
{
    (void)state;
    for (size_t k = 0; k < N_CASES; k++) {
        char path[512], expected[512], note[TILED_NOTE_MAX];
        snprintf(expected, sizeof expected, DATA "%s.expected.json", CASES[k]);
        static const char *const FORMS[] = {DATA "%s.tmj", DATA "%s.tmx", DATA "src/%s.tmx"};
        char *first = NULL;
        for (int f = 0; f < 3; f++) {
            snprintf(path, sizeof path, FORMS[f], CASES[k]);
            map_t *m = load_ok(path, note, sizeof note);
            assert_as_expected(m, expected);
            assert_string_equal(m->ruleset, "xhalem");
            assert_int_equal(m->feet_per_hex, 5);
            /* The image layer and the second tile layer are named as dropped. */
            assert_non_null(strstr(note, "'backdrop'"));
            assert_non_null(strstr(note, "'notes'"));
            /* All three give the very same map. */
            char *json = map_to_json(m);
            if (!first)
                first = json;
            else {
                assert_string_equal(json, first);
                free(json);
            }
            map_destroy(m);
        }
        free(first);
    }
}

/* A hexbattle map to Tiled and back gives the same map, in both formats,
 * through text and through files written atomically. */
static void test_round_trip_bundled_maps(void **state)
{
    (void)state;
    static const char *const MAPS[] = {"ridge_ambush", "foundry_breach", "salt_flats"};
    char dir[256];
    assert_true(tmp_dir_make(dir, sizeof dir, "tiled_rt"));
    for (size_t k = 0; k < 3; k++) {
        char path[512], err[HB_ERR_MAX];
        snprintf(path, sizeof path, HB_SOURCE_DIR "/maps/%s.json", MAPS[k]);
        map_t *m = NULL;
        assert_int_equal(map_load(path, HB_SOURCE_DIR "/data", &m, NULL, err, sizeof err), HB_OK);
        char *want = map_to_json(m);
        for (int f = 0; f < 2; f++) {
            tiled_format_t fmt = f ? TILED_TMX : TILED_TMJ;
            char out[512];
            snprintf(out, sizeof out, "%s/%s.%s", dir, MAPS[k], f ? "tmx" : "tmj");
            char *text = tiled_to_text(m, fmt, out);
            assert_non_null(text);
            map_t *back = NULL;
            int rc = tiled_load_mem(text, strlen(text), out, HB_SOURCE_DIR "/data", &back, NULL,
                                    NULL, 0, err, sizeof err);
            if (rc) fprintf(stderr, "%s\n", err);
            assert_int_equal(rc, HB_OK);
            char *got = map_to_json(back);
            assert_string_equal(got, want);
            free(got);
            map_destroy(back);
            /* map_save writes Tiled by the name; map_load reads it back. */
            assert_int_equal(map_save(m, out, err, sizeof err), HB_OK);
            assert_int_equal(map_load(out, HB_SOURCE_DIR "/data", &back, NULL, err, sizeof err),
                             HB_OK);
            got = map_to_json(back);
            assert_string_equal(got, want);
            free(got);
            /* and Tiled -> hexbattle -> Tiled gives the same Tiled text. */
            char *again = tiled_to_text(back, fmt, out);
            assert_string_equal(again, text);
            free(again);
            map_destroy(back);
            free(text);
        }
        free(want);
        map_destroy(m);
    }
    tmp_dir_remove(dir);
}

/* Tiled's hex pixel layout: every cell's centre maps back to that cell, in
 * all four layouts, and so does a point a little off the centre. */
static void test_pixel_layout(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        tiled_geo_t g = {.stagger_x = k >= 2, .stagger_even = k % 2 == 1, .side = 37};
        g.tw = g.stagger_x ? 74 : 64;
        g.th = g.stagger_x ? 64 : 74;
        for (int r = 0; r < 20; r++)
            for (int c = 0; c < 20; c++) {
                double x, y;
                int cc = -1, rr = -1;
                tiled_cell_center(&g, c, r, &x, &y);
                assert_true(tiled_pixel_cell(&g, 20, 20, x + 9, y - 9, &cc, &rr));
                assert_int_equal(cc, c);
                assert_int_equal(rr, r);
            }
        int cc, rr;
        assert_false(tiled_pixel_cell(&g, 20, 20, -200, 10, &cc, &rr));
    }
    /* By hand: pointy odd, row 1 is shoved half a hex right; flat even,
     * column 0 is shoved half a hex down. */
    tiled_geo_t py = {.stagger_x = false, .stagger_even = false, .tw = 64, .th = 74, .side = 37};
    double x, y;
    tiled_cell_center(&py, 0, 1, &x, &y);
    assert_true(x == 64 && y == 55.5 + 37);
    tiled_geo_t fx = {.stagger_x = true, .stagger_even = true, .tw = 74, .th = 64, .side = 37};
    tiled_cell_center(&fx, 0, 0, &x, &y);
    assert_true(x == 37 && y == 64);
}

typedef struct {
    const char *file;
    const char *msg; /* what follows "PATH: " */
} bad_t;

static void test_bad_tiled_files(void **state)
{
    (void)state;
    static const bad_t BAD[] = {
        {"tiled_orthogonal.tmx", "orientation: 'orthogonal' is not a hex map"},
        {"tiled_infinite.tmj", "infinite: an infinite map has no edges"},
        {"tiled_no_tile_layer.tmx", "layers: no tile layer"},
        {"tiled_bad_encoding.tmx", "layers[1].data: unknown encoding 'base32'"},
        {"tiled_short_data.tmx", "layers[1].data: expected 35 cells (width x height), found 34"},
        {"tiled_not_xml.tmx", "(root): not well-formed XML at line 36"},
        {"tiled_doctype.tmx", "(root): line 2: a DOCTYPE is not allowed"},
        {"tiled_tileset_escape.tmx", "tilesets[0].source: '../tiled/src/terrain.tsx': a tileset "
                                     "must be a relative path inside the map's folder"},
        {"tiled_unknown_template.tmj",
         "layers[3].objects[2] (combatants[2]).template: no template 'dragon'"},
        {"tiled_object_off_map.tmx", "layers[3].objects[0]: at pixel (-500, 37), off the 7x5 map"},
        {"tiled_bad_int.tmx", "(root): line 4: property value 'five' is not a number"},
        /* Strict reading (issue 18): a property list is an object by another name,
         * and a property holding JSON is read like a file. */
        {"tiled_property_twice.tmj",
         "layers[3].objects[1].properties[1]: property 'faction' given twice"},
        {"tiled_options_trailing.tmj", "properties.options: its JSON: (root): invalid JSON at "
                                       "line 1, column 28: text after the end of the document"},
    };
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        char path[512], expect[1024], err[HB_ERR_MAX] = "";
        snprintf(path, sizeof path, HB_TEST_DATA "/bad/%s", BAD[k].file);
        snprintf(expect, sizeof expect, "%s: %s", path, BAD[k].msg);
        map_t *m = (map_t *)&err;
        tmpl_db_t *db = (tmpl_db_t *)&err;
        int rc = map_load(path, HB_SOURCE_DIR "/data", &m, &db, err, sizeof err);
        if (strncmp(err, expect, strlen(expect)) != 0)
            fprintf(stderr, "got:  %s\nwant: %s\n", err, expect);
        assert_int_equal(rc, HB_ERR_INPUT);
        assert_null(m);
        assert_null(db);
        assert_memory_equal(err, expect, strlen(expect));
    }
}

/* A tile naming no terrain (gid 9 has no tile entry at all) reads as open,
 * and the map says so in one line. */
static void test_tile_without_terrain(void **state)
{
    (void)state;
    char err[HB_ERR_MAX];
    map_t *m = NULL;
    assert_int_equal(map_load(DATA "gid_no_terrain.tmx", HB_SOURCE_DIR "/data", &m, NULL, err,
                              sizeof err),
                     HB_OK);
    assert_int_equal(m->cells[2], map_find_type(m, "open"));
    assert_int_equal(m->cells[1], map_find_type(m, "open"));
    assert_int_equal(m->cells[7 + 1], map_find_type(m, "wall"));
    assert_non_null(m->art);
    assert_non_null(strstr(m->art->warn, "1 hex has a tile naming no terrain (the first: gid 9)"));
    assert_null(strchr(m->art->warn, '\n'));
    map_destroy(m);
}

/* Encodings a hand-written file may use, and the data errors they can hide. */
static void test_bad_layer_data(void **state)
{
    (void)state;
    char *base = NULL, err[HB_ERR_MAX];
    size_t len = 0;
    assert_int_equal(hb_read_file(DATA "src/flat_odd.tmx", 1 << 20, &base, &len, err, sizeof err),
                     HB_OK);
    /* flat_odd's terrain is base64 + zlib: spoil the stream, then the base64. */
    char *data = strstr(base, "compression=\"zlib\">");
    assert_non_null(data);
    char *b64 = strchr(data, '>') + 1;
    while (*b64 == ' ' || *b64 == '\n') b64++;
    static const struct {
        int at;
        char ch;
        const char *msg;
    } SPOIL[] = {{12, 'A', "zlib data that does not inflate to 35 cells"},
                 {3, '*', "not valid base64"}};
    for (size_t k = 0; k < 2; k++) {
        char *copy = strdup(base);
        copy[(b64 - base) + SPOIL[k].at] = SPOIL[k].ch;
        map_t *m = NULL;
        int rc = tiled_load_mem(copy, len, "spoiled.tmx", HB_SOURCE_DIR "/data", &m, NULL, NULL,
                                0, err, sizeof err);
        assert_int_equal(rc, HB_ERR_INPUT);
        assert_null(m);
        assert_non_null(strstr(err, "spoiled.tmx: layers[1].data: "));
        if (!strstr(err, SPOIL[k].msg)) fprintf(stderr, "%s\n", err);
        assert_non_null(strstr(err, SPOIL[k].msg));
        free(copy);
    }
    free(base);
}

int main(void)
{
    setenv("HEXBATTLE_DATA", HB_SOURCE_DIR "/data", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures_from_tiled),
        cmocka_unit_test(test_round_trip_bundled_maps),
        cmocka_unit_test(test_pixel_layout),
        cmocka_unit_test(test_bad_tiled_files),
        cmocka_unit_test(test_tile_without_terrain),
        cmocka_unit_test(test_bad_layer_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
