/* The tileset picture hexbattle writes beside a Tiled map (src/io/tiled_tiles.c),
 * read back with SDL_image, an independent PNG decoder: one hex per tile of the
 * map's tile size, transparent outside, its middle the terrain's colour (times
 * its texture, read here with SDL_image too, as src/ui/draw.c tints it), its
 * rim darkened by the grid line. Both hex orientations. */
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
#include <SDL_image.h>
#include <cjson/cJSON.h>

#include "io/fileio.h"
#include "io/map_io.h"
#include "tmp_fixture.h"

static SDL_Surface *load_rgba(const char *path)
{
    SDL_Surface *s = IMG_Load(path);
    if (!s) return NULL;
    SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_FreeSurface(s);
    return c;
}

static const uint8_t *px(const SDL_Surface *s, int x, int y)
{
    return (const uint8_t *)s->pixels + (size_t)y * (size_t)s->pitch + (size_t)x * 4;
}

static int num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    assert_true(cJSON_IsNumber(v));
    return v->valueint;
}

/* The middle pixel of a tile: the mean of its 4 x 4 samples, each the
 * terrain's colour times the texture there (one texture per 4 hex sides). */
static void expected_middle(const terrain_t *t, const SDL_Surface *tex, int x, int y, double side,
                            double out[3])
{
    double period = 4.0 * side;
    out[0] = out[1] = out[2] = 0;
    for (int sy = 0; sy < 4; sy++)
        for (int sx = 0; sx < 4; sx++) {
            double fx = x + (sx + 0.5) / 4, fy = y + (sy + 0.5) / 4;
            for (int c = 0; c < 3; c++) {
                double v = (double)((t->color >> (16 - 8 * c)) & 0xffu);
                if (tex) {
                    int u = (int)(fmod(fx, period) / period * tex->w);
                    int w = (int)(fmod(fy, period) / period * tex->h);
                    v = v * px(tex, u, w)[c] / 255.0;
                }
                out[c] += v / 16.0;
            }
        }
}

static void check_map(const char *map_path, const char *dir, const char *name)
{
    char err[HB_ERR_MAX], out[512], png[512];
    map_t *m = NULL;
    assert_int_equal(map_load(map_path, HB_SOURCE_DIR "/data", &m, NULL, err, sizeof err), HB_OK);
    snprintf(out, sizeof out, "%s/%s.tmj", dir, name);
    snprintf(png, sizeof png, "%s/%s.tiles.png", dir, name);
    assert_int_equal(map_save(m, out, err, sizeof err), HB_OK);

    char *text = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(out, HB_FILE_MAX, &text, &len, err, sizeof err), HB_OK);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    const cJSON *ts = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "tilesets"), 0);
    assert_non_null(ts);
    const cJSON *image = cJSON_GetObjectItemCaseSensitive(ts, "image");
    char want_name[128];
    snprintf(want_name, sizeof want_name, "%s.tiles.png", name);
    assert_true(cJSON_IsString(image));
    assert_string_equal(image->valuestring, want_name); /* beside the map */
    int tw = num(ts, "tilewidth"), th = num(ts, "tileheight"), n = num(ts, "tilecount");
    assert_int_equal(tw, num(root, "tilewidth")); /* a tile is one hex of the map */
    assert_int_equal(th, num(root, "tileheight"));
    assert_int_equal(num(ts, "columns"), n);
    double side = num(root, "hexsidelength");

    SDL_Surface *atlas = load_rgba(png);
    assert_non_null(atlas);
    assert_int_equal(atlas->w, n * tw);
    assert_int_equal(num(ts, "imagewidth"), n * tw);
    assert_int_equal(atlas->h, th);
    int k = 0, textured = 0;
    const cJSON *tile;
    cJSON_ArrayForEach(tile, cJSON_GetObjectItemCaseSensitive(ts, "tiles"))
    {
        assert_int_equal(num(tile, "id"), k);
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(tile, "type");
        assert_true(cJSON_IsString(type));
        int ti = map_find_type(m, type->valuestring);
        assert_true(ti >= 0);
        const terrain_t *t = &m->types[ti];
        SDL_Surface *tex = NULL;
        if (t->texture[0]) {
            char tp[4200];
            snprintf(tp, sizeof tp, "%s/%s", hb_assets_dir(), t->texture);
            tex = load_rgba(tp);
            assert_non_null(tex);
            textured++;
        }
        int x0 = k * tw, mx = tw / 2, my = th / 2;
        double want[3];
        expected_middle(t, tex, mx, my, side, want);
        const uint8_t *mid = px(atlas, x0 + mx, my);
        assert_int_equal(mid[3], 255);
        for (int c = 0; c < 3; c++) {
            if (fabs(mid[c] - want[c]) > 1.5)
                fail_msg("%s tile %d (%s) channel %d: %d, want %.1f", name, k, t->name, c, mid[c],
                         want[c]);
        }
        /* The tile's corners lie outside the hex. */
        assert_int_equal(px(atlas, x0, 0)[3], 0);
        assert_int_equal(px(atlas, x0 + tw - 1, th - 1)[3], 0);
        /* Where a side of the hex touches the tile's edge (left for pointy
         * hexes, top for flat ones), the grid line darkens a plain colour. */
        bool flat = tw > th;
        const uint8_t *rim = flat ? px(atlas, x0 + mx, 0) : px(atlas, x0, my);
        assert_true(rim[3] > 0);
        if (!tex) assert_true(rim[0] + rim[1] + rim[2] < mid[0] + mid[1] + mid[2]);
        SDL_FreeSurface(tex);
        k++;
    }
    assert_int_equal(k, n);
    assert_true(textured > 0);
    SDL_FreeSurface(atlas);
    cJSON_Delete(root);
    map_destroy(m);
}

static void test_tileset_picture_pointy_and_flat(void **state)
{
    (void)state;
    char dir[256];
    assert_true(tmp_dir_make(dir, sizeof dir, "tiled_tiles"));
    check_map(HB_SOURCE_DIR "/maps/ridge_ambush.json", dir, "ridge"); /* pointy */
    check_map(HB_SOURCE_DIR "/maps/mill_ford.tmx", dir, "mill");       /* flat */
    tmp_dir_remove(dir);
}

/* A picture that cannot be written leaves the map as it was, and nothing else. */
static void test_failed_picture_keeps_map(void **state)
{
    (void)state;
    char dir[256], err[HB_ERR_MAX], out[512], before[512];
    assert_true(tmp_dir_make(dir, sizeof dir, "tiled_tiles_fault"));
    map_t *m = NULL;
    assert_int_equal(map_load(HB_SOURCE_DIR "/maps/ridge_ambush.json", HB_SOURCE_DIR "/data", &m,
                              NULL, err, sizeof err),
                     HB_OK);
    snprintf(out, sizeof out, "%s/r.tmx", dir);
    assert_int_equal(map_save(m, out, err, sizeof err), HB_OK);
    char *old = NULL;
    size_t old_len = 0;
    assert_int_equal(hb_read_file(out, HB_FILE_MAX, &old, &old_len, err, sizeof err), HB_OK);
    /* The picture is the first file begun: its first write fails. */
    assert_true(hb_fault_set("write:1"));
    int rc = map_save(m, out, err, sizeof err);
    hb_fault_set(NULL);
    assert_int_equal(rc, HB_ERR_OTHER);
    snprintf(before, sizeof before, "%s/r.tiles.png: cannot write: No space left on device", dir);
    assert_string_equal(err, before);
    char *now = NULL;
    size_t now_len = 0;
    assert_int_equal(hb_read_file(out, HB_FILE_MAX, &now, &now_len, err, sizeof err), HB_OK);
    assert_int_equal(now_len, old_len);
    assert_memory_equal(now, old, old_len);
    free(old);
    free(now);
    map_destroy(m);
    tmp_dir_remove(dir);
}

int main(void)
{
    if (IMG_Init(IMG_INIT_PNG) == 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tileset_picture_pointy_and_flat),
        cmocka_unit_test(test_failed_picture_keeps_map),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    IMG_Quit();
    return rc;
}
