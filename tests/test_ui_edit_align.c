/* test_ui_edit_align.c - the editor lays the grid on a painted battle map
 * (src/ui/edit_align.c), driven by synthetic SDL events: A, a click on the
 * centre of a hex printed on the picture, the number of hexes to the second
 * one, a click on it; the picture's offset and scale come out as the ones
 * it was painted with, and Ctrl+S saves them in the map file. F12 switches
 * the terrain colours over the picture. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <SDL.h>
#include <cjson/cJSON.h>

#include "io/fileio.h"
#include "io/map_io.h"
#include "tmp_fixture.h"
#include "ui/editor.h"

#define W 1200
#define H 800

static void mouse_click(ed_state_t *s, vec2_t p)
{
    SDL_Event e = {0};
    e.type = SDL_MOUSEMOTION;
    e.motion.x = (int)lround(p.x);
    e.motion.y = (int)lround(p.y);
    ed_handle_event(s, &e);
    for (int k = 0; k < 2; k++) {
        memset(&e, 0, sizeof e);
        e.type = k ? SDL_MOUSEBUTTONUP : SDL_MOUSEBUTTONDOWN;
        e.button.button = SDL_BUTTON_LEFT;
        e.button.x = (int)lround(p.x);
        e.button.y = (int)lround(p.y);
        ed_handle_event(s, &e);
    }
}

static void key(ed_state_t *s, SDL_Keycode k, Uint16 mod)
{
    SDL_Event e = {0};
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    ed_handle_event(s, &e);
}

/* Where on the screen the picture's pixel q lies now. */
static vec2_t screen_of_pixel(const ed_state_t *s, vec2_t q)
{
    return ui_cam_to_screen(&s->cam, art_bg_world(s->map->art, s->map->layout, q));
}

static void test_align_and_save(void **state)
{
    (void)state;
    char dir[256], path[512], err[HB_ERR_MAX];
    assert_true(tmp_dir_make(dir, sizeof dir, "align"));
    /* The picture itself is not read here: only where it lies. */
    snprintf(path, sizeof path, "%s/map.json", dir);
    const char *text =
        "{\"format\":\"hexbattle-map\",\"version\":1,\"grid\":{\"orientation\":\"pointy\","
        "\"stagger\":\"odd\",\"cols\":12,\"rows\":9},\"terrain\":{\"legend\":{\".\":\"open\"},"
        "\"rows\":[\"............\",\"............\",\"............\",\"............\","
        "\"............\",\"............\",\"............\",\"............\",\"............\"]},"
        "\"combatants\":[],\"background\":{\"image\":\"painted.png\",\"offset\":[5,9],"
        "\"scale\":60}}";
    assert_int_equal(hb_write_atomic(path, text, strlen(text), false, err, sizeof err), HB_OK);
    map_t *m = NULL;
    assert_int_equal(map_load(path, HB_SOURCE_DIR "/data", &m, NULL, err, sizeof err), HB_OK);
    ed_state_t s;
    ed_init(&s, m, NULL, path, W, H);
    /* The picture was painted with hex (0,0)'s centre at (40, 32) and 48
     * pixels from centre to centre: hexes (2,3) and (8,3) are printed at: */
    map_art_t painted = *m->art;
    painted.bg_ox = 40;
    painted.bg_oy = 32;
    painted.bg_sx = painted.bg_sy = 48;
    hex_layout_t lay = m->layout;
    vec2_t q1 = art_bg_pixel(&painted, lay, ui_cell_center(m, (cell_t){2, 3}));
    vec2_t q2 = art_bg_pixel(&painted, lay, ui_cell_center(m, (cell_t){8, 3}));
    /* The referee clicks them where the picture shows them now. The first
     * falls in some hex of the misaligned grid: that hex becomes (2,3)'s
     * place only if it is (2,3); find the hex it falls in. */
    key(&s, SDLK_a, 0);
    assert_int_equal(s.align, 1);
    vec2_t p1 = screen_of_pixel(&s, q1);
    cell_t under;
    assert_true(ui_pick_cell(m, ui_cam_to_world(&s.cam, p1), &under));
    mouse_click(&s, p1);
    assert_int_equal(s.align, 2);
    key(&s, SDLK_6, 0);
    assert_int_equal(s.align_n, 6);
    mouse_click(&s, screen_of_pixel(&s, q2));
    assert_int_equal(s.align, 0);
    assert_true(s.art_moved);
    /* Six hexes over 6 * 48 pixels; the first click the centre of `under`. */
    assert_true(fabs(m->art->bg_sx - 48) < 0.5 && fabs(m->art->bg_sy - 48) < 0.5);
    vec2_t at = art_bg_pixel(m->art, lay, ui_cell_center(m, under));
    assert_true(fabs(at.x - q1.x) < 1.0 && fabs(at.y - q1.y) < 1.0);
    /* Where the clicks fell in (2,3) itself, the grid is the painted one. */
    if (under.col == 2 && under.row == 3)
        assert_true(fabs(m->art->bg_ox - 40) < 1.0 && fabs(m->art->bg_oy - 32) < 1.0);
    double ox = m->art->bg_ox, oy = m->art->bg_oy, sc = m->art->bg_sx;
    /* F12: terrain colours off and on again. */
    assert_true(s.art_colours);
    key(&s, SDLK_F12, 0);
    assert_false(s.art_colours);
    /* Saved in the map file, to a hundredth of a pixel. */
    key(&s, SDLK_s, KMOD_CTRL);
    assert_false(s.art_moved);
    ed_free(&s);
    map_destroy(m);
    m = NULL;
    assert_int_equal(map_load(path, HB_SOURCE_DIR "/data", &m, NULL, err, sizeof err), HB_OK);
    assert_true(fabs(m->art->bg_ox - ox) <= 0.006 && fabs(m->art->bg_oy - oy) <= 0.006);
    assert_true(fabs(m->art->bg_sx - sc) <= 0.0006);
    map_destroy(m);
    tmp_dir_remove(dir);
}

/* text with every occurrence of needle taken out (in place). */
static void remove_all(char *text, const char *needle)
{
    size_t n = strlen(needle), len = strlen(text);
    if (n == 0) return;
    for (size_t at = 0; at + n <= len;) {
        if (memcmp(text + at, needle, n) != 0) {
            at++;
            continue;
        }
        memmove(text + at, text + at + n, len - at - n + 1);
        len -= n;
    }
}

static char *slurp(const char *dir, const char *name)
{
    char p[512], err[HB_ERR_MAX], *text = NULL;
    size_t len = 0;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    assert_int_equal(hb_read_file(p, HB_FILE_MAX, &text, &len, err, sizeof err), HB_OK);
    return text;
}

static void put(const char *dir, const char *name, const char *text)
{
    char p[512], err[HB_ERR_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    assert_int_equal(hb_write_atomic(p, text, strlen(text), false, err, sizeof err), HB_OK);
}

static vec2_t screen_of_cell(const ed_state_t *s, int c, int r)
{
    return ui_cam_to_screen(&s->cam, ui_cell_center(s->map, (cell_t){c, r}));
}

/* Give the tile on cell (c, r) the terrain NAME with the tile palette. */
static void choose(ed_state_t *s, int c, int r, const char *name)
{
    s->type = map_find_type(s->map, name);
    assert_true(s->type >= 0);
    key(s, SDLK_x, 0);
    assert_true(s->tile_pick);
    mouse_click(s, screen_of_cell(s, c, r));
    assert_false(s->tile_pick);
}

/* A Tiled map (as Tiled writes it, when it is installed) through the
 * editor's tile palette and back: the tiles' pictures stay, and the files
 * gain only the terrain properties chosen - in the map for its own
 * tileset, in the .tsx for the external one. */
static bool as_json; /* the map as Tiled's JSON (.tmj) rather than .tmx */

static void test_tile_palette_round_trip(void **state)
{
    (void)state;
    char dir[256], path[512], err[HB_ERR_MAX];
    assert_true(tmp_dir_make(dir, sizeof dir, "palette"));
    put(dir, "coll.tsx",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<tileset version=\"1.8\" tiledversion=\"1.8.2\" name=\"coll\" tilewidth=\"26\" "
        "tileheight=\"30\" tilecount=\"2\" columns=\"0\">\n"
        " <grid orientation=\"orthogonal\" width=\"1\" height=\"1\"/>\n"
        " <tile id=\"0\">\n  <properties>\n   <property name=\"note\" value=\"mossy\"/>\n"
        "  </properties>\n  <image width=\"26\" height=\"30\" source=\"c0.png\"/>\n </tile>\n"
        " <tile id=\"1\">\n  <image width=\"26\" height=\"30\" source=\"c1.png\"/>\n </tile>\n"
        "</tileset>\n");
    /* Cells: gid (c + r) % 6 + 1: 1..4 the sheet's, 5 and 6 the collection's. */
    char csv[400] = "";
    for (int i = 0; i < 35; i++) {
        size_t n = strlen(csv);
        snprintf(csv + n, sizeof csv - n, "%s%d", i ? "," : "", (i % 7 + i / 7) % 6 + 1);
    }
    char src[2000];
    snprintf(src, sizeof src,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<map version=\"1.8\" tiledversion=\"1.8.2\" orientation=\"hexagonal\" "
             "renderorder=\"right-down\" width=\"7\" height=\"5\" tilewidth=\"26\" "
             "tileheight=\"30\" infinite=\"0\" hexsidelength=\"15\" staggeraxis=\"y\" "
             "staggerindex=\"odd\" nextlayerid=\"2\" nextobjectid=\"1\">\n"
             " <tileset firstgid=\"1\" name=\"sheet\" tilewidth=\"26\" tileheight=\"30\" "
             "tilecount=\"4\" columns=\"2\">\n  <image source=\"sheet.png\" width=\"52\" "
             "height=\"60\"/>\n </tileset>\n"
             " <tileset firstgid=\"5\" source=\"coll.tsx\"/>\n"
             " <layer id=\"1\" name=\"ground\" width=\"7\" height=\"5\">\n"
             "  <data encoding=\"csv\">\n%s\n</data>\n </layer>\n</map>\n",
             csv);
    put(dir, "src.tmx", src);
    const char *name = "src.tmx";
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR='%s' timeout 120 tiled "
             "--export-map tmx src.tmx by_tiled.tmx >/dev/null 2>&1",
             dir, dir);
    bool have_tiled = system("command -v tiled >/dev/null 2>&1") == 0;
    if (as_json && !have_tiled) skip(); /* the .tmj comes from Tiled */
    if (as_json) {
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR='%s' timeout 120 tiled "
                 "--export-map json src.tmx by_tiled.tmj >/dev/null 2>&1",
                 dir, dir);
    }
    if (have_tiled) {
        assert_int_equal(system(cmd), 0);
        name = as_json ? "by_tiled.tmj" : "by_tiled.tmx";
    }
    char *map_before = slurp(dir, name), *tsx_before = slurp(dir, "coll.tsx");
    snprintf(path, sizeof path, "%s/%s", dir, name);
    map_t *m = NULL;
    assert_int_equal(map_load(path, HB_SOURCE_DIR "/data", &m, NULL, err, sizeof err), HB_OK);
    ed_state_t s;
    ed_init(&s, m, NULL, path, W, H);
    choose(&s, 1, 0, "water"); /* gid 2, the map's own tileset */
    choose(&s, 4, 0, "wall");  /* gid 5, the .tsx's tile 0 (it has a property) */
    choose(&s, 5, 0, "brush"); /* gid 6, the .tsx's tile 1 (none yet) */
    /* Choices taken back are not written: gid 2 goes back to water, and
     * gid 3 (the sheet's) to its own terrain, with nothing saved for it. */
    choose(&s, 1, 0, "wall");
    key(&s, SDLK_z, KMOD_CTRL);
    choose(&s, 2, 0, "rubble");
    key(&s, SDLK_z, KMOD_CTRL);
    for (int i = 0; i < 35; i++) {
        int g = (i % 7 + i / 7) % 6 + 1;
        const char *want = g == 2 ? "water" : g == 5 ? "wall" : g == 6 ? "brush" : "open";
        assert_int_equal(m->cells[i], map_find_type(m, want));
    }
    key(&s, SDLK_s, KMOD_CTRL);
    ed_free(&s);
    map_destroy(m);
    /* Only the chosen properties were added. */
    char *map_after = slurp(dir, name), *tsx_after = slurp(dir, "coll.tsx");
    if (as_json) {
        /* The JSON map gains one tile with one property, nothing else. */
        cJSON *b = cJSON_Parse(map_before), *a = cJSON_Parse(map_after);
        cJSON *ts = cJSON_GetArrayItem(cJSON_GetObjectItem(a, "tilesets"), 0);
        cJSON *tiles = cJSON_GetObjectItem(ts, "tiles");
        assert_int_equal(cJSON_GetArraySize(tiles), 1);
        cJSON *want = cJSON_Parse("{\"id\":1,\"properties\":[{\"name\":\"terrain\","
                                  "\"type\":\"string\",\"value\":\"water\"}]}");
        assert_true(cJSON_Compare(cJSON_GetArrayItem(tiles, 0), want, true));
        cJSON_DeleteItemFromObject(ts, "tiles");
        assert_true(cJSON_Compare(a, b, true));
        cJSON_Delete(want);
        cJSON_Delete(a);
        cJSON_Delete(b);
    } else {
        assert_non_null(strstr(map_after, "<property name=\"terrain\" value=\"water\"/>"));
    assert_non_null(strstr(tsx_after, "<property name=\"terrain\" value=\"wall\"/>"));
    assert_non_null(strstr(tsx_after, "<property name=\"terrain\" value=\"brush\"/>"));
        remove_all(map_after, " <tile id=\"1\">\n   <properties>\n    <property name=\"terrain\" "
                              "value=\"water\"/>\n   </properties>\n  </tile>\n ");
        assert_string_equal(map_after, map_before);
    }
    remove_all(tsx_after, "<property name=\"terrain\" value=\"wall\"/>");
    remove_all(tsx_after, "<properties><property name=\"terrain\" value=\"brush\"/></properties>");
    assert_string_equal(tsx_after, tsx_before);
    /* Read back: the terrain from the properties, the pictures as before. */
    assert_int_equal(map_load(path, HB_SOURCE_DIR "/data", &m, NULL, err, sizeof err), HB_OK);
    for (int i = 0; i < 35; i++) {
        int g = (i % 7 + i / 7) % 6 + 1;
        const char *want = g == 2 ? "water" : g == 5 ? "wall" : g == 6 ? "brush" : "open";
        assert_int_equal(m->cells[i], map_find_type(m, want));
        assert_int_equal(m->art->gids[i], (uint32_t)g);
    }
    assert_string_equal(m->art->sets[0].image, "sheet.png");
    assert_int_equal(m->art->n_imgs, 2);
    map_destroy(m);
    if (have_tiled) { /* and Tiled reads what was written */
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR='%s' timeout 120 tiled "
                 "--export-map json %s again.tmj >/dev/null 2>&1 && grep -q '\"value\":\"water\"' "
                 "again.tmj",
                 dir, dir, name);
        assert_int_equal(system(cmd), 0);
    }
    free(map_before);
    free(tsx_before);
    free(map_after);
    free(tsx_after);
    tmp_dir_remove(dir);
}

static void test_tile_palette_round_trip_json(void **state)
{
    as_json = true;
    test_tile_palette_round_trip(state);
    as_json = false;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_align_and_save),
        cmocka_unit_test(test_tile_palette_round_trip),
        cmocka_unit_test(test_tile_palette_round_trip_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
