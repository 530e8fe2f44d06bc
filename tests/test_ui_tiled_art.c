/* A Tiled map's own pictures (src/io/tiled_read.c, src/ui/art.c): maps made
 * here in all four hex layouts, with a single-picture tileset (margin,
 * spacing, tile offset, no terrain properties, zlib data) or a collection of
 * pictures in an external tileset, read as Tiled wrote them (its command
 * line, `tiled --export-map`, turns each source into .tmx and .tmj when it is
 * installed) and drawn: the pixel at every hex's centre comes from the
 * picture of that hex's tile. A missing picture draws the terrain colour and
 * says so once; the terrain colours switch on over the pictures; pictures
 * outside the map's folder, not regular files, or claiming a huge size are
 * never decoded. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>
#include <zlib.h>
#include <cjson/cJSON.h>

#include "io/fileio.h"
#include "io/map_io.h"
#include "io/picture.h"
#include "ui/camera.h"
#include "ui/draw.h"
#include "tmp_fixture.h"

#define COLS 7
#define ROWS 5
#define NT 4 /* tiles in the single-picture tileset: 2 x 2 */
#define MARGIN 7
#define SPACING 5
#define W 640
#define H 480

/* Tile k of the single picture: its top third T[k], the rest M[k]. */
static const uint32_t T[NT] = {0xff2020, 0x20c020, 0x2040ff, 0xffd000};
static const uint32_t M[NT] = {0x802000, 0x008080, 0x600090, 0x00ff90};
/* The collection's pictures, one colour each. */
static const uint32_t C[3] = {0xe07000, 0x0070e0, 0x70e070};

static char dir[256];
static bool have_tiled;

typedef struct {
    bool flat, even;
    int tw, th, side;
} layout_t;

static const layout_t LAYOUTS[4] = {
    {false, false, 26, 30, 15}, {false, true, 26, 30, 15}, {true, false, 30, 26, 15}, {true, true, 30, 26, 15}};

/* The gid of cell (c, r): tiles 1..NT, and here and there none. */
static uint32_t gid_at(int c, int r)
{
    int k = (c * 3 + r * 5) % (NT + 1);
    return (uint32_t)k; /* 0: no tile */
}

static void fill(SDL_Surface *s, int x, int y, int w, int h, uint32_t rgb)
{
    SDL_Rect r = {x, y, w, h};
    SDL_FillRect(s, &r, SDL_MapRGBA(s->format, rgb >> 16, (rgb >> 8) & 255, rgb & 255, 255));
}

static void write_png(const char *name, SDL_Surface *s)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    assert_int_equal(IMG_SavePNG(s, p), 0);
}

/* The single picture of a tileset of tw x th tiles: magenta around and between. */
static void make_sheet(const char *name, int tw, int th)
{
    int w = 2 * MARGIN + 2 * tw + SPACING, h = 2 * MARGIN + 2 * th + SPACING;
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
    assert_non_null(s);
    fill(s, 0, 0, w, h, 0xff00ff);
    for (int k = 0; k < NT; k++) {
        int x = MARGIN + (k % 2) * (tw + SPACING), y = MARGIN + (k / 2) * (th + SPACING);
        fill(s, x, y, tw, th, M[k]);
        fill(s, x, y, tw, th / 3, T[k]);
    }
    write_png(name, s);
    SDL_FreeSurface(s);
}

static void write_text(const char *name, const char *text)
{
    char p[512], err[HB_ERR_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    assert_int_equal(hb_write_atomic(p, text, strlen(text), false, err, sizeof err), HB_OK);
}

/* The cells as base64 of zlib of little-endian gids, as Tiled keeps them. */
static void zlib_data(char *out, size_t cap, uint32_t (*gid)(int, int))
{
    unsigned char raw[COLS * ROWS * 4], z[1024];
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
            uint32_t g = gid(c, r);
            for (int b = 0; b < 4; b++)
                raw[(r * COLS + c) * 4 + b] = (unsigned char)(g >> (8 * b));
        }
    uLongf zl = sizeof z;
    assert_int_equal(compress(z, &zl, raw, sizeof raw), Z_OK);
    static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < zl; i += 3) {
        unsigned v = (unsigned)z[i] << 16 | (i + 1 < zl ? (unsigned)z[i + 1] << 8 : 0) |
                     (i + 2 < zl ? z[i + 2] : 0);
        assert_true(o + 5 < cap);
        out[o++] = B64[v >> 18];
        out[o++] = B64[(v >> 12) & 63];
        out[o++] = i + 1 < zl ? B64[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < zl ? B64[v & 63] : '=';
    }
    out[o] = '\0';
}

static const char *map_head(char *buf, size_t cap, const layout_t *l)
{
    snprintf(buf, cap,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<map version=\"1.8\" tiledversion=\"1.8.2\" orientation=\"hexagonal\" "
             "renderorder=\"right-down\" width=\"%d\" height=\"%d\" tilewidth=\"%d\" "
             "tileheight=\"%d\" infinite=\"0\" hexsidelength=\"%d\" staggeraxis=\"%s\" "
             "staggerindex=\"%s\" nextlayerid=\"3\" nextobjectid=\"1\">\n",
             COLS, ROWS, l->tw, l->th, l->side, l->flat ? "x" : "y", l->even ? "even" : "odd");
    return buf;
}

/* A single-picture tileset with no terrain properties, zlib data; offy
 * moves its pictures down by that many pixels. */
static void make_sheet_map(const char *name, const layout_t *l, int offy, const char *image)
{
    char head[600], data[4096], text[8192];
    zlib_data(data, sizeof data, gid_at);
    int iw = 2 * MARGIN + 2 * l->tw + SPACING, ih = 2 * MARGIN + 2 * l->th + SPACING;
    char off[80] = "";
    if (offy) snprintf(off, sizeof off, "  <tileoffset x=\"0\" y=\"%d\"/>\n", offy);
    snprintf(text, sizeof text,
             "%s <tileset firstgid=\"1\" name=\"sheet\" tilewidth=\"%d\" tileheight=\"%d\" "
             "spacing=\"%d\" margin=\"%d\" tilecount=\"%d\" columns=\"2\">\n%s"
             "  <image source=\"%s\" width=\"%d\" height=\"%d\"/>\n </tileset>\n"
             " <layer id=\"1\" name=\"ground\" width=\"%d\" height=\"%d\">\n"
             "  <data encoding=\"base64\" compression=\"zlib\">%s</data>\n </layer>\n</map>\n",
             map_head(head, sizeof head, l), l->tw, l->th, SPACING, MARGIN, NT, off, image, iw,
             ih, COLS, ROWS, data);
    write_text(name, text);
}

/* Tiled's own command line writes SRC as FMT (tmx or json) into OUT. */
static void tiled_export(const char *src, const char *fmt, const char *out)
{
    char cmd[1400];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR='%s' timeout 120 tiled "
             "--export-map %s '%s' '%s' >/dev/null 2>&1",
             dir, dir, fmt, src, out);
    assert_int_equal(system(cmd), 0);
}

typedef struct {
    SDL_Surface *surf;
    SDL_Renderer *r;
    ui_draw_t *d;
    map_t *m;
    ui_camera_t cam;
} rig_t;

static void rig_open(rig_t *g, const char *name)
{
    char p[512], err[HB_ERR_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    memset(g, 0, sizeof *g);
    int rc = map_load(p, HB_SOURCE_DIR "/data", &g->m, NULL, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, HB_OK);
    g->surf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    g->r = SDL_CreateSoftwareRenderer(g->surf);
    assert_non_null(g->r);
    g->d = ui_draw_create(g->r, g->m, err, sizeof err);
    assert_non_null(g->d);
    g->cam = ui_cam_for_image(g->m, W, H);
}

static void rig_draw(rig_t *g)
{
    SDL_SetRenderDrawColor(g->r, 0, 0, 0, 255);
    SDL_RenderClear(g->r);
    ui_draw_map(g->d, g->m, &g->cam, W, H, NULL);
    SDL_RenderPresent(g->r);
}

static void rig_close(rig_t *g)
{
    ui_draw_destroy(g->d);
    SDL_DestroyRenderer(g->r);
    SDL_FreeSurface(g->surf);
    map_destroy(g->m);
}

/* The pixel at the centre of cell (c, r), moved by (tx, ty) of Tiled's pixels. */
static uint32_t centre_at(const rig_t *g, int c, int r, double tx, double ty)
{
    vec2_t w = ui_cell_center(g->m, (cell_t){c, r});
    if (g->m->art) {
        art_xform_t f = art_xform(g->m->art, g->m->layout);
        w.x += tx * f.kx;
        w.y += ty * f.ky;
    }
    vec2_t s = ui_cam_to_screen(&g->cam, w);
    int x = (int)s.x, y = (int)s.y;
    assert_true(x >= 0 && y >= 0 && x < W && y < H);
    uint32_t p = ((uint32_t *)((uint8_t *)g->surf->pixels + (size_t)y * (size_t)g->surf->pitch))[x];
    return p & 0xffffff;
}

static uint32_t centre(const rig_t *g, int c, int r, double dy)
{
    return centre_at(g, c, r, 0, dy);
}

static bool near(uint32_t a, uint32_t b)
{
    for (int k = 0; k < 24; k += 8) {
        int d = (int)((a >> k) & 255) - (int)((b >> k) & 255);
        if (d < -8 || d > 8) return false;
    }
    return true;
}

/* Every hex with a tile shows its tile's colour (want[gid - 1]) at its
 * centre; every hex without one, the open terrain's colour. */
static void check_hexes(const rig_t *g, const uint32_t *want, int n_want)
{
    uint32_t open = g->m->types[map_find_type(g->m, "open")].color;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
            uint32_t gid = g->m->art->gids[r * COLS + c];
            uint32_t exp = gid ? want[(gid - 1) % (uint32_t)n_want] : open;
            uint32_t got = centre(g, c, r, 0);
            if (!near(got, exp))
                fail_msg("hex %d,%d (gid %u): #%06x, expected #%06x", c, r, gid, got, exp);
        }
}

/* The single picture cut right (margin, spacing): just below the top third
 * of each tile, and near its left edge on pointy maps (where no neighbour's
 * picture overlaps it), the pixel is still the tile's middle colour. */
static void check_cut(const rig_t *g, const layout_t *l)
{
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
            uint32_t gid = g->m->art->gids[r * COLS + c];
            if (!gid) continue;
            double below = l->th / 3.0 + 3.5 - l->th / 2.0; /* from the centre */
            uint32_t got = centre_at(g, c, r, 0, below);
            if (!near(got, M[gid - 1]))
                fail_msg("hex %d,%d (gid %u) below its top: #%06x, expected #%06x", c, r, gid, got,
                         M[gid - 1]);
            if (l->flat) continue;
            got = centre_at(g, c, r, 3.5 - l->tw / 2.0, 0);
            if (!near(got, M[gid - 1]))
                fail_msg("hex %d,%d (gid %u) by its left: #%06x, expected #%06x", c, r, gid, got,
                         M[gid - 1]);
        }
}

static void sheet_map_drawn(const char *name, const layout_t *l)
{
    rig_t g;
    rig_open(&g, name);
    /* No tile names a terrain: all of it reads as open, said once. */
    assert_non_null(g.m->art);
    assert_non_null(strstr(g.m->art->warn, "naming no terrain"));
    int open = map_find_type(g.m, "open");
    for (int i = 0; i < COLS * ROWS; i++)
        assert_int_equal(g.m->cells[i], open);
    rig_draw(&g);
    assert_null(ui_draw_art_warning(g.d));
    check_hexes(&g, M, NT);
    check_cut(&g, l);
    rig_close(&g);
}

static void test_single_picture_all_layouts(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        const layout_t *l = &LAYOUTS[i];
        char src[64];
        snprintf(src, sizeof src, "sheet%d.tmx", i);
        make_sheet("sheet.png", l->tw, l->th);
        make_sheet_map(src, l, 0, "sheet.png");
        sheet_map_drawn(src, l); /* as written here */
        if (!have_tiled) continue;
        char out[64];
        snprintf(out, sizeof out, "sheet%d.by_tiled.tmx", i);
        tiled_export(src, "tmx", out);
        sheet_map_drawn(out, l);
        snprintf(out, sizeof out, "sheet%d.by_tiled.tmj", i);
        tiled_export(src, "json", out);
        sheet_map_drawn(out, l);
    }
}

/* A tile offset moves the pictures: at each hex's centre lies the top third
 * of its tile's picture once they are moved down by a third of a tile. */
static void test_tile_offset(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        const layout_t *l = &LAYOUTS[i];
        make_sheet("sheet.png", l->tw, l->th);
        make_sheet_map("offset.tmx", l, l->th / 3, "sheet.png");
        const char *name = "offset.tmx";
        if (have_tiled) {
            tiled_export("offset.tmx", "json", "offset.by_tiled.tmj");
            name = "offset.by_tiled.tmj";
        }
        rig_t g;
        rig_open(&g, name);
        rig_draw(&g);
        check_hexes(&g, T, NT);
        rig_close(&g);
    }
}

/* An image-collection tileset, external (.tsx in a folder of its own, the
 * pictures beside the map), with terrain on one tile. */
static uint32_t gid_coll(int c, int r)
{
    return (uint32_t)((c + 2 * r) % 3 + 1);
}

static void test_collection_tileset(void **state)
{
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/sets", dir);
    mkdir(p, 0755);
    for (int k = 0; k < 3; k++) {
        SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, 26 + 4 * k, 30 + 2 * k, 32,
                                                        SDL_PIXELFORMAT_RGBA32);
        fill(s, 0, 0, s->w, s->h, C[k]);
        char name[32];
        snprintf(name, sizeof name, "c%d.png", k);
        write_png(name, s);
        SDL_FreeSurface(s);
    }
    write_text("sets/coll.tsx",
               "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<tileset version=\"1.8\" tiledversion=\"1.8.2\" name=\"coll\" tilewidth=\"34\" "
               "tileheight=\"34\" tilecount=\"3\" columns=\"0\">\n"
               " <grid orientation=\"orthogonal\" width=\"1\" height=\"1\"/>\n"
               " <tile id=\"0\"><image width=\"26\" height=\"30\" source=\"../c0.png\"/></tile>\n"
               " <tile id=\"1\"><properties><property name=\"terrain\" value=\"water\"/>"
               "</properties><image width=\"30\" height=\"32\" source=\"../c1.png\"/></tile>\n"
               " <tile id=\"2\"><image width=\"34\" height=\"34\" source=\"../c2.png\"/></tile>\n"
               "</tileset>\n");
    for (int i = 0; i < 4; i++) {
        const layout_t *l = &LAYOUTS[i];
        char head[600], data[4096], text[8192];
        zlib_data(data, sizeof data, gid_coll);
        snprintf(text, sizeof text,
                 "%s <tileset firstgid=\"1\" source=\"sets/coll.tsx\"/>\n"
                 " <layer id=\"1\" name=\"terrain\" width=\"%d\" height=\"%d\">\n"
                 "  <data encoding=\"base64\" compression=\"zlib\">%s</data>\n </layer>\n</map>\n",
                 map_head(head, sizeof head, l), COLS, ROWS, data);
        write_text("coll.tmx", text);
        const char *name = "coll.tmx";
        if (have_tiled) {
            tiled_export("coll.tmx", "json", "coll.by_tiled.tmj");
            name = "coll.by_tiled.tmj";
        }
        rig_t g;
        rig_open(&g, name);
        /* The tile with a terrain gives it; the others read as open. */
        assert_int_equal(g.m->cells[1], map_find_type(g.m, "water")); /* cell (1,0): gid 2 */
        assert_int_equal(g.m->cells[0], map_find_type(g.m, "open"));
        rig_draw(&g);
        /* Pictures taller than the tile hang from its bottom: the centre
         * is theirs all the same (they are one colour). */
        check_hexes(&g, C, 3);
        rig_close(&g);
    }
}

/* A missing picture: the terrain colours, and one warning naming it. The
 * terrain colours switched on lie over the pictures. */
static void test_missing_picture_and_overlay(void **state)
{
    (void)state;
    const layout_t *l = &LAYOUTS[0];
    make_sheet("sheet.png", l->tw, l->th);
    make_sheet_map("gone.tmx", l, 0, "no_such.png");
    rig_t g;
    rig_open(&g, "gone.tmx");
    rig_draw(&g);
    const char *w = ui_draw_art_warning(g.d);
    assert_non_null(w);
    assert_non_null(strstr(w, "no_such.png"));
    uint32_t open = g.m->types[map_find_type(g.m, "open")].color;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            assert_true(near(centre(&g, c, r, 0), open));
    rig_close(&g);

    make_sheet_map("over.tmx", l, 0, "sheet.png");
    rig_open(&g, "over.tmx");
    assert_true(ui_draw_has_art(g.d));
    ui_draw_set_terrain_overlay(g.d, true);
    rig_draw(&g);
    /* Cell (1,0) has gid 3: its picture's colour, tinted by open's. */
    uint32_t got = centre(&g, 1, 0, 0);
    assert_false(near(got, M[2]));
    assert_false(near(got, open));
    ui_draw_set_terrain_overlay(g.d, false);
    rig_draw(&g); /* the cached layer follows the switch */
    assert_true(near(centre(&g, 1, 0, 0), M[2]));
    rig_close(&g);
}

/* Pictures that are never decoded: outside the map's folder, not a regular
 * file, a PNG whose header claims a picture too big. */
static void test_unsafe_pictures(void **state)
{
    (void)state;
    const layout_t *l = &LAYOUTS[0];
    char err[HB_ERR_MAX], p[512];
    /* The reader refuses a path climbing out of the folder: not drawn, said. */
    make_sheet_map("out.tmx", l, 0, "../sheet.png");
    rig_t g;
    rig_open(&g, "out.tmx");
    assert_non_null(strstr(g.m->art->warn, "outside the map's folder"));
    rig_close(&g);
    /* A link out of the folder is caught when the picture is opened. */
    snprintf(p, sizeof p, "%s/link.png", dir);
    assert_int_equal(symlink(HB_SOURCE_DIR "/maps/mill_ford.tiles.png", p), 0);
    make_sheet_map("link.tmx", l, 0, "link.png");
    rig_open(&g, "link.tmx");
    rig_draw(&g);
    assert_non_null(ui_draw_art_warning(g.d));
    assert_non_null(strstr(ui_draw_art_warning(g.d), "inside the map's folder"));
    rig_close(&g);
    /* A folder named like a picture. */
    snprintf(p, sizeof p, "%s/dir.png", dir);
    mkdir(p, 0755);
    make_sheet_map("dir.tmx", l, 0, "dir.png");
    rig_open(&g, "dir.tmx");
    rig_draw(&g);
    assert_non_null(strstr(ui_draw_art_warning(g.d), "not a regular file"));
    rig_close(&g);
    /* A PNG header claiming 100000 x 100000 pixels: refused from its header. */
    static const unsigned char HUGE[] = {0x89, 'P',  'N',  'G',  '\r', '\n', 0x1a, '\n',
                                         0,    0,    0,    13,   'I',  'H',  'D',  'R',
                                         0,    1,    0x86, 0xa0, 0,    1,    0x86, 0xa0,
                                         8,    6,    0,    0,    0,    0,    0,    0};
    snprintf(p, sizeof p, "%s/huge.png", dir);
    assert_int_equal(hb_write_atomic(p, HUGE, sizeof HUGE, false, err, sizeof err), HB_OK);
    assert_int_equal(hb_picture_check(p, NULL, NULL, err, sizeof err), HB_ERR_INPUT);
    assert_non_null(strstr(err, "100000 x 100000"));
    make_sheet_map("huge.tmx", l, 0, "huge.png");
    rig_open(&g, "huge.tmx");
    rig_draw(&g);
    assert_non_null(strstr(ui_draw_art_warning(g.d), "100000 x 100000"));
    rig_close(&g);
    /* The path rules themselves. */
    char out[256];
    assert_true(hb_picture_rel("sets", "../a/b.png", out, sizeof out));
    assert_string_equal(out, "a/b.png");
    assert_false(hb_picture_rel("sets", "../../b.png", out, sizeof out));
    assert_false(hb_picture_rel("", "/etc/passwd", out, sizeof out));
    assert_true(hb_picture_rel("", "./x/./y.png", out, sizeof out));
    assert_string_equal(out, "x/y.png");
}

/* A picture with a square of colour C[k] painted where cells[k]'s centre
 * falls (at is where in the picture, per cell), grey elsewhere. */
static void paint_marks(const char *name, int w, int h, const vec2_t *at, int n)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
    assert_non_null(s);
    fill(s, 0, 0, w, h, 0x808080);
    for (int k = 0; k < n; k++)
        fill(s, (int)at[k].x - 4, (int)at[k].y - 4, 9, 9, C[k]);
    write_png(name, s);
    SDL_FreeSurface(s);
}

static const cell_t MARKED[3] = {{0, 0}, {3, 2}, {6, 4}};

static void check_marks(const rig_t *g)
{
    for (int k = 0; k < 3; k++) {
        uint32_t got = centre(g, MARKED[k].col, MARKED[k].row, 0);
        if (!near(got, C[k]))
            fail_msg("hex %d,%d: #%06x, expected #%06x", MARKED[k].col, MARKED[k].row, got, C[k]);
    }
}

/* A map file's background: the picture's pixel `offset` is the centre of
 * hex (0, 0) and neighbouring centres lie `scale` pixels apart. Saved back
 * as read; the grid aligned by two clicked centres finds them again. */
static void test_background_picture(void **state)
{
    (void)state;
    map_art_t truth = {.bg_ox = 23.5, .bg_oy = 17, .bg_sx = 31, .bg_sy = 31};
    for (int flat = 0; flat < 2; flat++) {
        hex_layout_t lay = {flat ? HEX_FLAT : HEX_POINTY, HEX_ODD};
        vec2_t at[3];
        for (int k = 0; k < 3; k++)
            at[k] = art_bg_pixel(&truth, lay, hex_to_pixel(lay.orient, 1.0,
                                                           hex_from_cell(lay, MARKED[k])));
        paint_marks("painted.png", 260, 220, at, 3);
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"format\":\"hexbattle-map\",\"version\":1,\"grid\":{\"orientation\":\"%s\","
                 "\"stagger\":\"odd\",\"cols\":%d,\"rows\":%d},\"terrain\":{\"legend\":{\".\":"
                 "\"open\"},\"rows\":[\".......\",\".......\",\".......\",\".......\",\".......\"]},"
                 "\"combatants\":[],\"background\":{\"image\":\"painted.png\",\"offset\":[23.5,17],"
                 "\"scale\":31}}",
                 flat ? "flat" : "pointy", COLS, ROWS);
        write_text("bg.json", text);
        rig_t g;
        rig_open(&g, "bg.json");
        rig_draw(&g);
        assert_null(ui_draw_art_warning(g.d));
        check_marks(&g);
        /* Written back as read. */
        char *json = map_to_json(g.m);
        cJSON *root = cJSON_Parse(json), *want = cJSON_Parse(
            "{\"image\":\"painted.png\",\"offset\":[23.5,17],\"scale\":31}");
        assert_true(cJSON_Compare(cJSON_GetObjectItem(root, "background"), want, true));
        cJSON_Delete(root);
        cJSON_Delete(want);
        free(json);
        /* Misplaced, then aligned by the centres of two hexes in a line:
         * (1,1) and (6,1) along a row of pointy hexes, five apart; (1,0) and
         * (1,4) down a column of flat ones, four apart. */
        map_art_t *a = g.m->art;
        a->bg_ox = 80;
        a->bg_sx = a->bg_sy = 50;
        cell_t c1 = {1, flat ? 0 : 1}, c2 = {flat ? 1 : 6, flat ? 4 : 1};
        vec2_t q1 = art_bg_pixel(&truth, lay, hex_to_pixel(lay.orient, 1.0, hex_from_cell(lay, c1)));
        vec2_t q2 = art_bg_pixel(&truth, lay, hex_to_pixel(lay.orient, 1.0, hex_from_cell(lay, c2)));
        int n = hex_distance(hex_from_cell(lay, c1), hex_from_cell(lay, c2));
        assert_int_equal(n, flat ? 4 : 5);
        assert_true(art_align(a, lay, c1, q1, q2, n));
        assert_true(fabs(a->bg_ox - 23.5) < 1e-9 && fabs(a->bg_oy - 17) < 1e-9);
        assert_true(fabs(a->bg_sx - 31) < 1e-9 && fabs(a->bg_sy - 31) < 1e-9);
        rig_draw(&g);
        check_marks(&g);
        rig_close(&g);
    }
    /* A picture out of the map's folder is refused, with the path. */
    write_text("bad_bg.json",
               "{\"format\":\"hexbattle-map\",\"version\":1,\"grid\":{\"orientation\":\"pointy\","
               "\"stagger\":\"odd\",\"cols\":1,\"rows\":1},\"terrain\":{\"legend\":{\".\":\"open\"},"
               "\"rows\":[\".\"]},\"combatants\":[],\"background\":{\"image\":\"../x.png\","
               "\"scale\":30}}");
    char p[512], err[HB_ERR_MAX];
    snprintf(p, sizeof p, "%s/bad_bg.json", dir);
    map_t *m = NULL;
    assert_int_equal(map_load(p, HB_SOURCE_DIR "/data", &m, NULL, err, sizeof err), HB_ERR_INPUT);
    assert_non_null(strstr(err, "bad_bg.json: background.image: '../x.png': a picture must be a relative path inside the map's folder or hexbattle's assets folder"));
}

/* A Tiled image layer, moved by its offset, lies under the grid where Tiled
 * shows it: the marks painted at the Tiled centres of three cells. */
static void test_image_layer(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        const layout_t *l = &LAYOUTS[i];
        map_art_t geo = {.tw = l->tw, .th = l->th, .side = l->side};
        hex_layout_t lay = {l->flat ? HEX_FLAT : HEX_POINTY, l->even ? HEX_EVEN : HEX_ODD};
        vec2_t at[3];
        for (int k = 0; k < 3; k++) {
            at[k] = art_tiled_center(&geo, lay, MARKED[k].col, MARKED[k].row);
            at[k].x += 10; /* the layer lies 10 left and 7 up */
            at[k].y += 7;
        }
        paint_marks("backdrop.png", 260, 220, at, 3);
        char head[600], text[4096];
        snprintf(text, sizeof text,
                 "%s <imagelayer id=\"2\" name=\"painted\" offsetx=\"-10\" offsety=\"-7\">\n"
                 "  <image source=\"backdrop.png\" width=\"260\" height=\"220\"/>\n </imagelayer>\n"
                 " <layer id=\"1\" name=\"terrain\" width=\"%d\" height=\"%d\">\n"
                 "  <data encoding=\"csv\">%s</data>\n </layer>\n</map>\n",
                 map_head(head, sizeof head, l), COLS, ROWS,
                 "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0");
        write_text("layer.tmx", text);
        const char *name = "layer.tmx";
        if (have_tiled) {
            tiled_export("layer.tmx", "json", "layer.by_tiled.tmj");
            name = "layer.by_tiled.tmj";
        }
        rig_t g;
        rig_open(&g, name);
        rig_draw(&g);
        check_marks(&g);
        /* Converted to a map file, the layer is its background. */
        char p[512], err[HB_ERR_MAX];
        snprintf(p, sizeof p, "%s/layer.json", dir);
        assert_int_equal(map_save(g.m, p, err, sizeof err), HB_OK);
        rig_close(&g);
        rig_open(&g, "layer.json");
        rig_draw(&g);
        check_marks(&g);
        rig_close(&g);
    }
}

static int setup(void **state)
{
    (void)state;
    if (!tmp_dir_make(dir, sizeof dir, "art")) return -1;
    have_tiled = getenv("HB_NO_TILED") == NULL && system("command -v tiled >/dev/null 2>&1") == 0;
    return SDL_Init(0) != 0 || TTF_Init() != 0 || !IMG_Init(IMG_INIT_PNG);
}

static int teardown(void **state)
{
    (void)state;
    tmp_dir_remove(dir);
    IMG_Quit();
    TTF_Quit();
    SDL_Quit();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_picture_all_layouts),
        cmocka_unit_test(test_tile_offset),
        cmocka_unit_test(test_collection_tileset),
        cmocka_unit_test(test_missing_picture_and_overlay),
        cmocka_unit_test(test_unsafe_pictures),
        cmocka_unit_test(test_background_picture),
        cmocka_unit_test(test_image_layer),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
