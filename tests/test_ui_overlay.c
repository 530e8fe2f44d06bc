/* test_ui_overlay.c - the map overlays: which hexes each kind marks (checked
 * against the geometry core), the move preview's provoke warnings, spec
 * errors, and screenshots rendered headless (SDL dummy driver, software
 * renderer) whose pixels must show the overlay colour where it belongs and
 * the bare terrain elsewhere. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <SDL.h>
#include <SDL_image.h>

#include "core/area.h"
#include "core/geom.h"
#include "core/sight.h"
#include "rules/ruleset.h"
#include "ui/camera.h"
#include "ui/overlay.h"
#include "ui/ui.h"
#include "ui/window.h"

#define OPEN_RGB 0x9db872u
#define WALL_RGB 0x45464fu
#define BRUSH_RGB 0x6f9a45u
#define COLS 17
#define ROWS 11
#define W 800
#define H 560

static void add_type(map_t *m, const char *name, int move, cover_t cover, bool blocks, uint32_t rgb)
{
    terrain_t *t = &m->types[m->n_types++];
    memset(t, 0, sizeof *t);
    hb_strlcpy(t->name, name, sizeof t->name);
    t->move = move;
    t->cover = cover;
    t->blocks_sight = blocks;
    t->color = rgb;
}

static int add_unit(map_t *m, const char *id, const char *faction, int col, int row)
{
    map_combatant_t *c = &m->combatants[m->n_combatants];
    memset(c, 0, sizeof *c);
    hb_strlcpy(c->id, id, sizeof c->id);
    hb_strlcpy(c->name, id, sizeof c->name);
    hb_strlcpy(c->faction, faction, sizeof c->faction);
    c->at = (cell_t){col, row};
    c->kind = KIND_CREATURE;
    c->size = SIZE_MEDIUM;
    c->speed_ft = 30;
    c->hp = c->hp_max = 10;
    return m->n_combatants++;
}

/* An open COLS x ROWS pointy/odd xhalem field; type 1 is wall, 2 brush. */
static map_t *field(const char *ruleset)
{
    map_t *m = map_create(COLS, ROWS);
    assert_non_null(m);
    m->layout = (hex_layout_t){HEX_POINTY, HEX_ODD};
    m->feet_per_hex = 5;
    hb_strlcpy(m->name, "Overlay Field", sizeof m->name);
    hb_strlcpy(m->ruleset, ruleset, sizeof m->ruleset);
    add_type(m, "open", 1, COVER_NONE, false, OPEN_RGB);
    add_type(m, "wall", 0, COVER_TOTAL, true, WALL_RGB);
    add_type(m, "brush", 2, COVER_LIGHT, false, BRUSH_RGB);
    m->combatants = calloc(8, sizeof *m->combatants);
    assert_non_null(m->combatants);
    return m;
}

static void set_cell(map_t *m, int col, int row, int type)
{
    m->cells[row * m->cols + col] = (uint8_t)type;
}

static overlay_spec_t spec(const char *text)
{
    overlay_spec_t s;
    char err[128];
    assert_true(args_parse_overlay(text, &s, err, sizeof err));
    return s;
}

static void add_ok(ui_overlay_t *o, const tmpl_db_t *db, const char *text)
{
    char err[256] = "";
    overlay_spec_t s = spec(text);
    int rc = ui_overlay_add(o, db, &s, err, sizeof err);
    if (rc) fprintf(stderr, "%s: %s\n", text, err);
    assert_int_equal(rc, 0);
}

/* ---- pixels ------------------------------------------------------------- */

static SDL_Surface *render(const map_t *m, const tmpl_db_t *db, const char *const *specs, int n,
                           const char *name)
{
    ui_render_opts_t opts = {.w = W, .h = H};
    for (int k = 0; k < n; k++)
        opts.overlays[opts.n_overlays++] = spec(specs[k]);
    char path[256], err[256] = "";
    /* Kept in /tmp under a stable name so a person can look at them. */
    snprintf(path, sizeof path, "/tmp/hb_overlay_%s.png", name);
    int rc = ui_render_png_opts(m, db, &opts, path, err, sizeof err);
    if (rc) fprintf(stderr, "render: %s\n", err);
    assert_int_equal(rc, 0);
    SDL_Surface *raw = IMG_Load(path);
    assert_non_null(raw);
    SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_FreeSurface(raw);
    assert_non_null(s);
    return s;
}

static SDL_Color pixel(SDL_Surface *s, vec2_t p)
{
    int x = (int)floor(p.x), y = (int)floor(p.y);
    Uint32 px = ((Uint32 *)((Uint8 *)s->pixels + y * s->pitch))[x];
    SDL_Color c;
    SDL_GetRGBA(px, s->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

static vec2_t centre(const map_t *m, cell_t c)
{
    ui_camera_t cam = ui_cam_for_image(m, W, H);
    return ui_cam_to_screen(&cam, ui_cell_center(m, c));
}

static bool near(SDL_Color c, uint32_t rgb, int tol)
{
    return abs(c.r - (int)(rgb >> 16 & 255)) <= tol && abs(c.g - (int)(rgb >> 8 & 255)) <= tol &&
           abs(c.b - (int)(rgb & 255)) <= tol;
}

/* The colour an overlay fill of palette entry k shows over terrain rgb. */
static uint32_t blended(ui_ov_color_t k, uint32_t rgb)
{
    SDL_Color c = ui_overlay_color(k);
    int a = ui_overlay_alpha(k);
    int r = (c.r * a + (int)(rgb >> 16 & 255) * (255 - a)) / 255;
    int g = (c.g * a + (int)(rgb >> 8 & 255) * (255 - a)) / 255;
    int b = (c.b * a + (int)(rgb & 255) * (255 - a)) / 255;
    return (uint32_t)(r << 16 | g << 8 | b);
}

/* No token or its label (which hangs below it) covers cell c. */
static bool clear_of_tokens(const map_t *m, cell_t c)
{
    for (int i = 0; i < m->n_combatants; i++) {
        cell_t t = m->combatants[i].at;
        if (abs(c.col - t.col) <= 1 && c.row >= t.row && c.row <= t.row + 1) return false;
    }
    return true;
}

/* ---- reach -------------------------------------------------------------- */

/* Every hex the core says kara can reach is marked, in the band of its cost
 * (thirds of her speed, then dash); nothing else is; and the picture shows
 * the band's blended colour on marked hexes and bare terrain elsewhere. */
static void test_reach(void **state)
{
    (void)state;
    map_t *m = field("xhalem");
    for (int r = 2; r <= 8; r++)
        set_cell(m, 11, r, 1); /* a wall east of kara */
    for (int c = 5; c <= 7; c++)
        set_cell(m, c, 3, 2); /* brush: difficult, so costs are not just distance */
    int kara = add_unit(m, "kara", "players", 8, 5);
    m->combatants[kara].speed_ft = 15; /* thirds of 5 ft; dash 30 ft */
    add_unit(m, "boss", "raiders", 14, 5);
    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    add_ok(o, NULL, "reach:kara");

    board_t *b = board_create(m);
    path_search_t *ps = path_search_create(COLS * ROWS);
    geom_reach_t got[COLS * ROWS];
    int n = geom_reach(b, kara, 30, 5, ps, got, COLS * ROWS);
    assert_true(n > 20);
    int want[COLS * ROWS];
    for (int k = 0; k < COLS * ROWS; k++)
        want[k] = -1;
    int bands_seen[UI_OV_COLOR_COUNT] = {0};
    for (int k = 0; k < n; k++) {
        int cost = got[k].cost_ft;
        want[map_index(m, got[k].at)] = cost <= 5    ? UI_OV_REACH_1
                                        : cost <= 10 ? UI_OV_REACH_2
                                        : cost <= 15 ? UI_OV_REACH_3
                                                     : UI_OV_DASH;
    }
    for (int k = 0; k < COLS * ROWS; k++) {
        ui_ov_style_t st;
        int mark = ui_overlay_mark_at(o, map_cell_of(m, k), &st);
        assert_int_equal(mark, want[k]);
        if (mark >= 0) {
            assert_int_equal(st, UI_OV_FILL);
            bands_seen[mark]++;
        }
    }
    /* All four bands occur, so the shading really varies with cost. */
    assert_true(bands_seen[UI_OV_REACH_1] && bands_seen[UI_OV_REACH_2] &&
                bands_seen[UI_OV_REACH_3] && bands_seen[UI_OV_DASH]);
    /* Walls are never places to stand. */
    for (int r = 2; r <= 8; r++)
        assert_int_equal(ui_overlay_mark_at(o, (cell_t){11, r}, NULL), -1);

    static const char *const specs[] = {"reach:kara"};
    SDL_Surface *s = render(m, NULL, specs, 1, "reach");
    int checked_in = 0, checked_out = 0;
    for (int k = 0; k < COLS * ROWS; k++) {
        cell_t c = map_cell_of(m, k);
        if (!clear_of_tokens(m, c) || c.row < 4) continue; /* the legend sits top-left */
        uint32_t terrain = m->types[m->cells[k]].color;
        SDL_Color px = pixel(s, centre(m, c));
        if (want[k] >= 0) {
            assert_true(near(px, blended((ui_ov_color_t)want[k], terrain), 4));
            checked_in++;
        } else if (m->cells[k] == 0) {
            assert_true(near(px, OPEN_RGB, 2));
            checked_out++;
        }
    }
    assert_true(checked_in > 20 && checked_out > 20);
    SDL_FreeSurface(s);
    path_search_destroy(ps);
    board_destroy(b);
    ui_overlay_destroy(o);
    map_destroy(m);
}

/* A small picture (hexes under the texture zoom) premixes fills: the pixel is
 * the same blend, drawn opaque. */
static void test_reach_small_picture(void **state)
{
    (void)state;
    map_t *m = field("xhalem");
    add_unit(m, "kara", "players", 14, 9); /* bottom right: the legend is top left */
    ui_render_opts_t opts = {.w = 240, .h = 170};
    opts.overlays[opts.n_overlays++] = spec("reach:kara");
    char err[256] = "";
    const char *path = "/tmp/hb_overlay_reach_small.png";
    assert_int_equal(ui_render_png_opts(m, NULL, &opts, path, err, sizeof err), 0);
    SDL_Surface *raw = IMG_Load(path);
    assert_non_null(raw);
    SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_FreeSurface(raw);
    ui_camera_t cam = ui_cam_for_image(m, 240, 170);
    assert_true(cam.zoom < 14.0);
    /* Two hexes east: 10 ft, the cheapest band; six west: 30 ft; fourteen: none. */
    vec2_t p1 = ui_cam_to_screen(&cam, ui_cell_center(m, (cell_t){16, 9}));
    vec2_t p3 = ui_cam_to_screen(&cam, ui_cell_center(m, (cell_t){8, 9}));
    vec2_t p0 = ui_cam_to_screen(&cam, ui_cell_center(m, (cell_t){0, 9}));
    assert_true(near(pixel(s, p1), blended(UI_OV_REACH_1, OPEN_RGB), 4));
    assert_true(near(pixel(s, p3), blended(UI_OV_REACH_3, OPEN_RGB), 4));
    assert_true(near(pixel(s, p0), OPEN_RGB, 2));
    SDL_FreeSurface(s);
    map_destroy(m);
}

/* ---- threat ------------------------------------------------------------- */

static void test_threat(void **state)
{
    (void)state;
    map_t *m = field("xhalem");
    int boss = add_unit(m, "boss", "raiders", 9, 6);
    m->combatants[boss].reach_ft = 10;
    set_cell(m, 10, 6, 1); /* a wall east: the hex beyond is out of sight */
    add_unit(m, "kara", "players", 3, 8);
    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    add_ok(o, NULL, "threat:boss");
    board_t *b = board_create(m);
    int zone = 0;
    for (int k = 0; k < COLS * ROWS; k++) {
        hex_t h = board_hex_of(b, k);
        bool in = geom_threatens(b, boss, 10, h);
        zone += in;
        assert_int_equal(ui_overlay_mark_at(o, map_cell_of(m, k), NULL), in ? UI_OV_THREAT : -1);
    }
    assert_true(zone > 10 && zone < 18); /* 18 within 2 hexes; the wall hides some */
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){11, 6}, NULL), -1);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){8, 6}, NULL), UI_OV_THREAT);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){7, 6}, NULL), UI_OV_THREAT);

    static const char *const specs[] = {"threat:boss"};
    SDL_Surface *s = render(m, NULL, specs, 1, "threat");
    assert_true(near(pixel(s, centre(m, (cell_t){7, 6})), blended(UI_OV_THREAT, OPEN_RGB), 4));
    assert_true(near(pixel(s, centre(m, (cell_t){11, 6})), OPEN_RGB, 2));
    assert_true(near(pixel(s, centre(m, (cell_t){6, 6})), OPEN_RGB, 2));
    SDL_FreeSurface(s);
    board_destroy(b);
    ui_overlay_destroy(o);
    map_destroy(m);
}

/* ---- flanking ----------------------------------------------------------- */

static void test_flanking(void **state)
{
    (void)state;
    map_t *m = field("xhalem");
    int kara = add_unit(m, "kara", "players", 7, 6);
    int boss = add_unit(m, "boss", "raiders", 8, 6);
    add_unit(m, "dren", "players", 2, 9);
    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    add_ok(o, NULL, "flanking:kara,boss");
    /* With 5 ft reach the only spot is the hex straight across the boss. */
    int spots = 0;
    for (int k = 0; k < COLS * ROWS; k++)
        spots += ui_overlay_mark_at(o, map_cell_of(m, k), NULL) == UI_OV_FLANK_SPOT;
    assert_int_equal(spots, 1);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){9, 6}, NULL), UI_OV_FLANK_SPOT);
    int before = ui_overlay_count(o);

    /* dren steps into the spot: it is taken, and the pair shows as a line. */
    m->combatants[2].at = (cell_t){9, 6};
    ui_overlay_sync(o);
    add_ok(o, NULL, "flanking:kara,boss");
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){9, 6}, NULL), -1);
    assert_int_equal(ui_overlay_count(o), 1); /* one line, no spots */
    assert_true(before >= 1);
    char row[128];
    bool pairs_row = false;
    for (int k = 0; k < ui_overlay_legend_rows(o); k++)
        if (ui_overlay_legend_row(o, k, row, sizeof row) == UI_OV_FLANK_PAIR)
            pairs_row = strstr(row, "1") != NULL;
    assert_true(pairs_row);

    static const char *const specs[] = {"flanking:kara,boss"};
    SDL_Surface *s = render(m, NULL, specs, 1, "flanking");
    /* A point on the line between kara and dren, off both tokens' discs. */
    vec2_t a = centre(m, m->combatants[kara].at), t = centre(m, m->combatants[boss].at);
    vec2_t q = {a.x + (t.x - a.x) * 0.5, a.y + (t.y - a.y) * 0.5 + 0.5};
    SDL_Color pair = ui_overlay_color(UI_OV_FLANK_PAIR);
    assert_true(near(pixel(s, q), (uint32_t)(pair.r << 16 | pair.g << 8 | pair.b), 6));
    SDL_FreeSurface(s);

    /* kara out of reach of the boss: no ally can flank with her. */
    m->combatants[2].at = (cell_t){2, 9};
    m->combatants[kara].at = (cell_t){3, 6};
    ui_overlay_sync(o);
    add_ok(o, NULL, "flanking:kara,boss");
    for (int k = 0; k < COLS * ROWS; k++)
        assert_int_equal(ui_overlay_mark_at(o, map_cell_of(m, k), NULL), -1);
    ui_overlay_destroy(o);
    map_destroy(m);
}

/* ---- range -------------------------------------------------------------- */

static tmpl_db_t *weapons(void)
{
    tmpl_db_t *db = calloc(1, sizeof *db);
    assert_non_null(db);
    weapon_t *w = &db->weapons[db->n_weapons++];
    hb_strlcpy(w->id, "pistol", sizeof w->id);
    hb_strlcpy(w->name, "Pistol", sizeof w->name);
    w->cls = WPN_RANGED;
    w->range_ft = 15;
    w = &db->weapons[db->n_weapons++];
    hb_strlcpy(w->id, "knife", sizeof w->id);
    hb_strlcpy(w->name, "Knife", sizeof w->name);
    w->cls = WPN_MELEE;
    w = &db->weapons[db->n_weapons++];
    hb_strlcpy(w->id, "rifle", sizeof w->id);
    hb_strlcpy(w->name, "Rifle", sizeof w->name);
    w->cls = WPN_RANGED;
    w->range_ft = 30;
    return db;
}

static void test_range_xhalem(void **state)
{
    (void)state;
    map_t *m = field("xhalem");
    int kara = add_unit(m, "kara", "players", 8, 5);
    hb_strlcpy(m->combatants[kara].weapons[0], "knife", MAP_ID_MAX);
    hb_strlcpy(m->combatants[kara].weapons[1], "pistol", MAP_ID_MAX);
    m->combatants[kara].n_weapons = 2;
    tmpl_db_t *db = weapons();
    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    /* No weapon named: the first ranged one, the pistol (3 hexes, beyond to 6). */
    add_ok(o, db, "range:kara");
    hex_t at = hex_from_cell(m->layout, m->combatants[kara].at);
    for (int k = 0; k < COLS * ROWS; k++) {
        cell_t c = map_cell_of(m, k);
        int d = hex_distance(at, hex_from_cell(m->layout, c));
        ui_ov_style_t st;
        int mark = ui_overlay_mark_at(o, c, &st);
        int want = d <= 3 ? UI_OV_RANGE_IN : d <= 6 ? UI_OV_RANGE_OUT : -1;
        assert_int_equal(mark, want);
        if (mark >= 0) assert_int_equal(st, UI_OV_EDGE);
    }
    /* The melee weapon by name: reach 5 ft, one ring, filled. */
    ui_overlay_clear(o);
    add_ok(o, db, "range:kara,knife");
    ui_ov_style_t st;
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){9, 5}, &st), UI_OV_RANGE_IN);
    assert_int_equal(st, UI_OV_FILL);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){10, 5}, NULL), -1);

    /* The picture: the contour of the beyond band shows on the far side of
     * the outermost hex east (6 hexes), and the hex's middle stays bare. */
    static const char *const specs[] = {"range:kara"};
    SDL_Surface *s = render(m, db, specs, 1, "range_xhalem");
    cell_t edge = {14, 5};
    vec2_t c = centre(m, edge);
    ui_camera_t cam = ui_cam_for_image(m, W, H);
    vec2_t on_edge = {c.x + cam.zoom * 0.866 - 2.0, c.y}; /* just inside the east edge */
    SDL_Color out = ui_overlay_color(UI_OV_RANGE_OUT);
    assert_true(near(pixel(s, on_edge), (uint32_t)(out.r << 16 | out.g << 8 | out.b), 12));
    assert_true(near(pixel(s, c), OPEN_RGB, 2));
    assert_true(near(pixel(s, centre(m, (cell_t){16, 5})), OPEN_RGB, 2));
    SDL_FreeSurface(s);
    ui_overlay_destroy(o);
    free(db);
    map_destroy(m);
}

static void test_range_scars(void **state)
{
    (void)state;
    map_t *m = field("scars");
    int kara = add_unit(m, "kara", "players", 8, 5);
    hb_strlcpy(m->combatants[kara].weapons[0], "rifle", MAP_ID_MAX);
    hb_strlcpy(m->combatants[kara].weapons[1], "knife", MAP_ID_MAX);
    m->combatants[kara].n_weapons = 2;
    tmpl_db_t *db = weapons();
    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    /* A 30 ft rifle reaches the nearby band: close (1) and nearby (<= 10). */
    add_ok(o, db, "range:kara,rifle");
    hex_t at = hex_from_cell(m->layout, m->combatants[kara].at);
    int mids = 0;
    for (int k = 0; k < COLS * ROWS; k++) {
        cell_t c = map_cell_of(m, k);
        int d = hex_distance(at, hex_from_cell(m->layout, c));
        int mark = ui_overlay_mark_at(o, c, NULL);
        int want = d <= 1 ? UI_OV_RANGE_IN : d <= 10 ? UI_OV_RANGE_MID : -1;
        assert_int_equal(mark, want);
        mids += mark == UI_OV_RANGE_MID;
    }
    assert_true(mids > 50);
    /* A knife reaches close only. */
    ui_overlay_clear(o);
    add_ok(o, db, "range:kara,knife");
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){9, 5}, NULL), UI_OV_RANGE_IN);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){10, 5}, NULL), -1);
    ui_overlay_destroy(o);
    free(db);
    map_destroy(m);
}

/* ---- line of sight ------------------------------------------------------ */

static void test_los_line(void **state)
{
    (void)state;
    map_t *m = field("xhalem");
    int kara = add_unit(m, "kara", "players", 4, 6);
    set_cell(m, 7, 6, 2); /* brush on the way: light cover */
    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    add_ok(o, NULL, "los:kara,12,6");
    for (int c = 5; c <= 11; c++)
        assert_int_equal(ui_overlay_mark_at(o, (cell_t){c, 6}, NULL), UI_OV_SIGHT_PLUS);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){12, 6}, NULL), -1); /* endpoints are not */
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){8, 5}, NULL), -1);
    char row[128];
    bool light = false;
    for (int k = 0; k < ui_overlay_legend_rows(o); k++)
        if (ui_overlay_legend_row(o, k, row, sizeof row) == UI_OV_COVER_LIGHT)
            light = strstr(row, "light") != NULL;
    assert_true(light);

    /* Along a hex edge the two nudged lines differ: both sets are marked,
     * exactly as hex_line draws them. */
    ui_overlay_clear(o);
    hex_t a = hex_from_cell(m->layout, m->combatants[kara].at);
    hex_t b = hex_add(a, hex_make(2, -4)); /* a direction between two neighbours' axes */
    hex_t la[32], lb[32];
    int na = hex_line(a, b, HEX_NUDGE_PLUS, la, 32), nb = hex_line(a, b, HEX_NUDGE_MINUS, lb, 32);
    cell_t bc = hex_to_cell(m->layout, b);
    char text[32];
    snprintf(text, sizeof text, "los:kara,%d,%d", bc.col, bc.row);
    add_ok(o, NULL, text);
    int minus = 0;
    for (int k = 1; k < na - 1; k++)
        assert_int_equal(ui_overlay_mark_at(o, hex_to_cell(m->layout, la[k]), NULL),
                         UI_OV_SIGHT_PLUS);
    for (int k = 1; k < nb - 1; k++)
        if (!hex_eq(lb[k], la[k])) {
            assert_int_equal(ui_overlay_mark_at(o, hex_to_cell(m->layout, lb[k]), NULL),
                             UI_OV_SIGHT_MINUS);
            minus++;
        }
    assert_true(minus > 0);

    static const char *const specs[] = {"los:kara,12,6"};
    SDL_Surface *s = render(m, NULL, specs, 1, "los_line");
    /* Off the centre line (which runs through the middle) but inside the hex. */
    ui_camera_t cam = ui_cam_for_image(m, W, H);
    vec2_t p = centre(m, (cell_t){9, 6});
    p.y += cam.zoom * 0.5;
    assert_true(near(pixel(s, p), blended(UI_OV_SIGHT_PLUS, OPEN_RGB), 4));
    vec2_t q = centre(m, (cell_t){9, 8});
    assert_true(near(pixel(s, q), OPEN_RGB, 2));
    SDL_FreeSurface(s);
    ui_overlay_destroy(o);
    map_destroy(m);
}

static void test_los_all(void **state)
{
    (void)state;
    map_t *m = field("xhalem");
    int kara = add_unit(m, "kara", "players", 4, 5);
    for (int r = 3; r <= 7; r++)
        set_cell(m, 8, r, 1);
    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    add_ok(o, NULL, "los:kara");
    board_t *b = board_create(m);
    hex_t from = b->pos[kara];
    int seen = 0, hidden = 0;
    for (int k = 0; k < COLS * ROWS; k++) {
        hex_t h = board_hex_of(b, k);
        if (hex_eq(h, from)) continue;
        bool vis = sight_clear(b, from, h);
        ui_ov_style_t st;
        int mark = ui_overlay_mark_at(o, map_cell_of(m, k), &st);
        assert_int_equal(mark, vis ? UI_OV_SEEN : -1);
        if (vis) assert_int_equal(st, UI_OV_DOT);
        seen += vis;
        hidden += !vis;
    }
    assert_true(seen > 50 && hidden > 5);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){10, 5}, NULL), -1); /* behind the wall */

    static const char *const specs[] = {"los:kara"};
    SDL_Surface *s = render(m, NULL, specs, 1, "los_all");
    SDL_Color dot = ui_overlay_color(UI_OV_SEEN);
    uint32_t dot_rgb = (uint32_t)(dot.r << 16 | dot.g << 8 | dot.b);
    assert_true(near(pixel(s, centre(m, (cell_t){6, 8})), dot_rgb, 16));
    assert_true(near(pixel(s, centre(m, (cell_t){10, 5})), OPEN_RGB, 2));
    SDL_FreeSurface(s);
    board_destroy(b);
    ui_overlay_destroy(o);
    map_destroy(m);
}

/* ---- move preview ------------------------------------------------------- */

static void test_preview(void **state)
{
    (void)state;
    map_t *m = field("xhalem");
    int kara = add_unit(m, "kara", "players", 6, 6);
    add_unit(m, "boss", "raiders", 7, 6); /* kara starts in its zone */
    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    int cost = 0;
    assert_true(ui_overlay_preview(o, kara, (cell_t){3, 6}, &cost));
    assert_int_equal(cost, 15);
    cell_t warn[4];
    assert_int_equal(ui_overlay_warnings(o, warn, 4), 1);
    assert_int_equal(warn[0].col, 6); /* the step out of the zone starts at her hex */
    assert_int_equal(warn[0].row, 6);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){8, 6}, NULL), UI_OV_THREAT);

    /* Staying inside the zone provokes nothing. */
    ui_overlay_clear(o);
    assert_true(ui_overlay_preview(o, kara, (cell_t){7, 5}, &cost));
    assert_int_equal(ui_overlay_warnings(o, warn, 4), 0);
    /* Out of the dash budget (60 ft) or onto a wall: no preview at all. */
    ui_overlay_clear(o);
    set_cell(m, 2, 2, 1);
    ui_overlay_t *o2 = ui_overlay_create(m);
    assert_false(ui_overlay_preview(o2, kara, (cell_t){2, 2}, &cost));
    m->combatants[kara].speed_ft = 10; /* dash 20 ft: 4 hexes */
    ui_overlay_sync(o2);
    assert_false(ui_overlay_preview(o2, kara, (cell_t){0, 6}, &cost));
    assert_int_equal(ui_overlay_count(o2), 0);
    assert_true(ui_overlay_preview(o2, kara, (cell_t){3, 6}, &cost));
    assert_int_equal(cost, 15);
    ui_overlay_destroy(o2);
    ui_overlay_destroy(o);
    map_destroy(m);
}

/* ---- the play window ---------------------------------------------------- */

static void key(ui_state_t *s, SDL_Keycode k)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    ui_handle_event(s, &e);
}

/* F5..F9 toggle the kinds; the window's builder aims them with the hover. */
static void test_window(void **state)
{
    (void)state;
    map_t *m = field("xhalem");
    int kara = add_unit(m, "kara", "players", 8, 5);
    add_unit(m, "boss", "raiders", 9, 5);
    ui_state_t s;
    ui_state_init(&s, m, W, H);
    key(&s, SDLK_F5);
    assert_int_equal(s.overlay_on, 1u << OVERLAY_REACH);
    key(&s, SDLK_F9);
    key(&s, SDLK_F7);
    assert_int_equal(s.overlay_on,
                     1u << OVERLAY_REACH | 1u << OVERLAY_LOS | 1u << OVERLAY_FLANKING);
    key(&s, SDLK_F7);
    assert_int_equal(s.overlay_on, 1u << OVERLAY_REACH | 1u << OVERLAY_LOS);
    assert_true(s.dirty);

    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    /* Hovering a hex west: the path leaves the boss's zone at kara's hex, and
     * the sight line runs to the hovered hex. */
    ui_overlay_window(o, NULL, s.overlay_on, kara, true, (cell_t){5, 5});
    cell_t warn[4];
    assert_int_equal(ui_overlay_warnings(o, warn, 4), 1);
    assert_int_equal(warn[0].col, 8);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){6, 5}, NULL), UI_OV_SIGHT_PLUS);
    /* Hovering the boss with flanking on: the spot across from kara. */
    ui_overlay_window(o, NULL, 1u << OVERLAY_FLANKING, kara, true, (cell_t){9, 5});
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){10, 5}, NULL), UI_OV_FLANK_SPOT);
    /* Nothing toggled, or no combatant: nothing at all. */
    ui_overlay_window(o, NULL, 0, kara, true, (cell_t){9, 5});
    assert_int_equal(ui_overlay_count(o), 0);
    ui_overlay_window(o, NULL, 1u << OVERLAY_REACH, -1, false, (cell_t){0, 0});
    assert_int_equal(ui_overlay_count(o), 0);
    /* Positions follow the battle's board, not the map file. */
    tmpl_db_t *db = calloc(1, sizeof *db);
    assert_non_null(db);
    const ruleset_t *rs = ruleset_find("xhalem");
    battle_opts_t bo;
    memset(&bo, 0, sizeof bo);
    battle_t *bt = battle_create(m, db, &bo, rs->stat_names, rs->n_stats, rs->state_size);
    assert_non_null(bt);
    assert_true(battle_reset(bt));
    ruleset_profiles(rs, bt->board, db, bt->prof);
    board_place(bt->board, kara, hex_from_cell(m->layout, (cell_t){2, 2}));
    ui_overlay_window(o, bt, 1u << OVERLAY_THREAT, kara, false, (cell_t){0, 0});
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){3, 2}, NULL), UI_OV_THREAT);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){7, 5}, NULL), -1);
    /* A rebuild frees the battle's map and board; the set kept none of them
     * (under ASan a kept pointer is a use-after-free report here). */
    assert_true(battle_reset(bt));
    ruleset_profiles(rs, bt->board, db, bt->prof);
    ui_overlay_window(o, bt, 1u << OVERLAY_REACH | 1u << OVERLAY_THREAT, kara, true,
                      (cell_t){5, 5});
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){7, 5}, NULL), UI_OV_THREAT);
    battle_destroy(bt);
    free(db);
    ui_overlay_destroy(o);
    map_destroy(m);
}

/* ---- errors, legend, palette -------------------------------------------- */

static void test_errors(void **state)
{
    (void)state;
    map_t *m = field("xhalem");
    int kara = add_unit(m, "kara", "players", 4, 5);
    hb_strlcpy(m->combatants[kara].weapons[0], "knife", MAP_ID_MAX);
    m->combatants[kara].n_weapons = 1;
    add_unit(m, "boss", "raiders", 9, 5);
    tmpl_db_t *db = weapons();
    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    static const struct {
        const char *spec, *says;
    } BAD[] = {
        {"reach:nobody", "nobody"},       {"threat:ghost", "ghost"},
        {"flanking:kara,ghost", "ghost"}, {"flanking:kara,kara", "itself"},
        {"range:kara,laser", "laser"},    {"range:kara,pistol", "does not carry"},
        {"los:kara,40,2", "off the"},     {"los:ghost", "ghost"},
    };
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        char err[256] = "";
        overlay_spec_t s = spec(BAD[k].spec);
        assert_int_equal(ui_overlay_add(o, db, &s, err, sizeof err), 2);
        assert_non_null(strstr(err, BAD[k].says));
    }
    assert_int_equal(ui_overlay_count(o), 0);

    /* Through the renderer: status 2 and no file written. */
    ui_render_opts_t opts = {.w = 320, .h = 200};
    opts.overlays[opts.n_overlays++] = spec("reach:kara");
    opts.overlays[opts.n_overlays++] = spec("threat:nobody");
    const char *path = "/tmp/hb_overlay_never.png";
    remove(path);
    char err[256] = "";
    assert_int_equal(ui_render_png_opts(m, db, &opts, path, err, sizeof err), 2);
    assert_non_null(strstr(err, "nobody"));
    assert_int_equal(access(path, F_OK), -1);
    ui_overlay_destroy(o);
    free(db);
    map_destroy(m);
}

/* Every overlay drawn gets a heading in the legend, every swatch row names a
 * colour, and the legend box shows the swatch colours. */
static void test_legend(void **state)
{
    (void)state;
    map_t *m = field("xhalem");
    add_unit(m, "kara", "players", 8, 6);
    add_unit(m, "boss", "raiders", 9, 6);
    static const char *const specs[] = {"reach:kara", "threat:boss", "flanking:kara,boss",
                                        "range:kara", "los:kara,14,6"};
    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    static const char *const HEAD[] = {"reach", "threat", "flanking", "range", "sight"};
    for (int k = 0; k < 5; k++)
        add_ok(o, NULL, specs[k]);
    int heads = 0;
    char row[128];
    for (int k = 0; k < ui_overlay_legend_rows(o); k++) {
        ui_ov_color_t c = ui_overlay_legend_row(o, k, row, sizeof row);
        assert_true(strlen(row) > 3);
        if (c == UI_OV_COLOR_COUNT) {
            assert_non_null(strstr(row, HEAD[heads]));
            heads++;
        }
    }
    assert_int_equal(heads, 5);

    SDL_Surface *s = render(m, NULL, specs, 5, "all");
    /* The first swatch (reach, cheapest band) sits in the box's second row. */
    bool found = false;
    SDL_Color sw = ui_overlay_color(UI_OV_REACH_1);
    for (int y = 0; y < 80 && !found; y++)
        for (int x = 0; x < 40 && !found; x++)
            found = near(pixel(s, (vec2_t){x, y}), (uint32_t)(sw.r << 16 | sw.g << 8 | sw.b), 0);
    assert_true(found);
    SDL_FreeSurface(s);
    ui_overlay_destroy(o);
    map_destroy(m);
}

/* The reach bands step down in lightness, so their order reads without hue;
 * fills that can meet on one hex differ in colour. */
static void test_palette(void **state)
{
    (void)state;
    double last = 1e9;
    for (int k = UI_OV_REACH_1; k <= UI_OV_REACH_3; k++) {
        SDL_Color c = ui_overlay_color((ui_ov_color_t)k);
        double lum = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
        assert_true(lum < last - 20);
        last = lum;
    }
    static const ui_ov_color_t FILLS[] = {UI_OV_REACH_1, UI_OV_REACH_2,    UI_OV_REACH_3,
                                          UI_OV_DASH,    UI_OV_THREAT,     UI_OV_FLANK_SPOT,
                                          UI_OV_PROVOKE, UI_OV_SIGHT_MINUS};
    size_t n = sizeof FILLS / sizeof FILLS[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            SDL_Color a = ui_overlay_color(FILLS[i]), b = ui_overlay_color(FILLS[j]);
            assert_true(abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b) > 60);
        }
}

/* ---- areas -------------------------------------------------------------- */

/* The area overlay marks exactly the hexes the ruleset's area strikes
 * (core/area.h via ruleset_t.weapon_area), a wall shields what lies behind
 * it, F10 toggles it in the window, and the picture shows its colour. */
static void test_area_overlay(void **state)
{
    (void)state;
    map_t *m = field("scars");
    set_cell(m, 11, 5, 1); /* a wall east of the aim hex */
    int kara = add_unit(m, "kara", "players", 3, 5);
    hb_strlcpy(m->combatants[kara].weapons[0], "pistol", MAP_ID_MAX);
    hb_strlcpy(m->combatants[kara].weapons[1], "mortar", MAP_ID_MAX);
    m->combatants[kara].n_weapons = 2;
    tmpl_db_t *db = weapons();
    weapon_t *w = &db->weapons[db->n_weapons++];
    hb_strlcpy(w->id, "mortar", sizeof w->id);
    hb_strlcpy(w->name, "Mortar", sizeof w->name);
    w->cls = WPN_THROWN;
    w->range_ft = 50;
    hb_strlcpy(w->tags[0].key, "blast", MAP_ID_MAX);
    w->tags[0].value = 2;
    w->n_tags = 1;
    ui_overlay_t *o = ui_overlay_create(m);
    assert_non_null(o);
    add_ok(o, db, "area:kara,mortar,10,5");
    board_t *b = board_create(m);
    hex_t aim = hex_from_cell(m->layout, (cell_t){10, 5});
    area_t a = area_blast(b->pos[kara], aim, 2);
    int struck = 0;
    for (int k = 0; k < COLS * ROWS; k++) {
        cell_t c = map_cell_of(m, k);
        bool in = area_covers(b, &a, hex_from_cell(m->layout, c));
        assert_int_equal(ui_overlay_mark_at(o, c, NULL), in ? UI_OV_AREA : -1);
        struck += in;
    }
    /* Radius 2 is 19 hexes; the wall shields the one straight behind it and
     * the two whose lines run along its edges (sight is blocked if either
     * nudged line is). */
    assert_int_equal(struck, 19 - 3);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){12, 5}, NULL), -1);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){12, 4}, NULL), -1);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){12, 6}, NULL), -1);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){11, 5}, NULL), UI_OV_AREA);
    char row[128];
    assert_int_equal(ui_overlay_legend_rows(o), 2);
    assert_int_equal(ui_overlay_legend_row(o, 1, row, sizeof row), UI_OV_AREA);
    assert_non_null(strstr(row, "blast of 2 at 10,5: 16 hexes"));

    /* A weapon with no area, a hex off the map, a weapon not carried. */
    static const struct {
        const char *spec, *says;
    } BAD[] = {{"area:kara,pistol,10,5", "strikes no area"},
               {"area:kara,mortar,40,2", "off the"},
               {"area:kara,rifle,10,5", "does not carry"},
               {"area:kara,laser,10,5", "laser"}};
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        char err[256] = "";
        overlay_spec_t sp = spec(BAD[k].spec);
        assert_int_equal(ui_overlay_add(o, db, &sp, err, sizeof err), 2);
        assert_non_null(strstr(err, BAD[k].says));
    }

    /* The window: F10 toggles it, and the hovered hex aims the first weapon
     * with an area (the mortar, not the pistol). */
    ui_state_t s;
    ui_state_init(&s, m, W, H);
    key(&s, SDLK_F10);
    assert_int_equal(s.overlay_on, 1u << OVERLAY_AREA);
    ui_overlay_use_db(o, db);
    ui_overlay_window(o, NULL, s.overlay_on, kara, true, (cell_t){10, 5});
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){9, 5}, NULL), UI_OV_AREA);
    assert_int_equal(ui_overlay_mark_at(o, (cell_t){12, 5}, NULL), -1);
    ui_overlay_window(o, NULL, s.overlay_on, kara, false, (cell_t){10, 5});
    assert_int_equal(ui_overlay_count(o), 0); /* nothing hovered, nothing aimed */

    static const char *const specs[] = {"area:kara,mortar,10,5"};
    SDL_Surface *pic = render(m, db, specs, 1, "area");
    assert_true(near(pixel(pic, centre(m, (cell_t){9, 4})), blended(UI_OV_AREA, OPEN_RGB), 3));
    assert_true(near(pixel(pic, centre(m, (cell_t){12, 5})), OPEN_RGB, 2));
    assert_true(near(pixel(pic, centre(m, (cell_t){14, 8})), OPEN_RGB, 2));
    SDL_FreeSurface(pic);
    board_destroy(b);
    ui_overlay_destroy(o);
    free(db);
    map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reach),        cmocka_unit_test(test_reach_small_picture),
        cmocka_unit_test(test_threat),       cmocka_unit_test(test_flanking),
        cmocka_unit_test(test_range_xhalem), cmocka_unit_test(test_range_scars),
        cmocka_unit_test(test_los_line),     cmocka_unit_test(test_los_all),
        cmocka_unit_test(test_preview),      cmocka_unit_test(test_errors),
        cmocka_unit_test(test_legend),       cmocka_unit_test(test_palette),
        cmocka_unit_test(test_window),       cmocka_unit_test(test_area_overlay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
