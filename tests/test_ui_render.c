/* test_ui_render.c - headless PNG rendering, the text cache and the window's
 * event handler, all without a display (SDL_VIDEODRIVER=dummy). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include <cmocka.h>

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "io/fileio.h"
#include "io/png.h"
#include "ui/camera.h"
#include "ui/draw.h"
#include "ui/text.h"
#include "ui/ui.h"
#include "ui/window.h"

#define OPEN_RGB 0x7a9a5au
#define WALL_RGB 0x505058u
#define WATER_RGB 0x3060a0u

static const hex_layout_t LAYOUTS[4] = {
    {HEX_POINTY, HEX_ODD}, {HEX_POINTY, HEX_EVEN}, {HEX_FLAT, HEX_ODD}, {HEX_FLAT, HEX_EVEN}};

static void add_type(map_t *m, const char *name, int move, cover_t cover, uint32_t rgb)
{
    terrain_t *t = &m->types[m->n_types++];
    hb_strlcpy(t->name, name, sizeof t->name);
    t->move = move;
    t->cover = cover;
    t->color = rgb;
}

static void add_combatant(map_t *m, const char *id, const char *name, const char *faction,
                          cell_t at, ckind_t kind, int hp, int hp_max)
{
    map_combatant_t *c = &m->combatants[m->n_combatants++];
    memset(c, 0, sizeof *c);
    hb_strlcpy(c->id, id, sizeof c->id);
    hb_strlcpy(c->name, name, sizeof c->name);
    hb_strlcpy(c->faction, faction, sizeof c->faction);
    c->at = at;
    c->kind = kind;
    c->size = SIZE_MEDIUM;
    c->hp = hp;
    c->hp_max = hp_max;
}

/* 9 x 7 map: open ground, a wall column at col 6, water in the bottom row,
 * a player at (2,2) and an Architect machine at (4,4). */
static map_t *small_map(hex_layout_t lay)
{
    map_t *m = map_create(9, 7);
    assert_non_null(m);
    m->layout = lay;
    hb_strlcpy(m->name, "Test Field", sizeof m->name);
    add_type(m, "open", 1, COVER_NONE, OPEN_RGB);
    add_type(m, "wall", 0, COVER_TOTAL, WALL_RGB);
    add_type(m, "water", 2, COVER_NONE, WATER_RGB);
    for (int row = 0; row < m->rows; row++)
        for (int col = 0; col < m->cols; col++)
            m->cells[row * m->cols + col] = col == 6 ? 1 : row == 6 ? 2 : 0;
    m->combatants = calloc(4, sizeof *m->combatants);
    assert_non_null(m->combatants);
    add_combatant(m, "kara", "Kara Voss", "players", (cell_t){2, 2}, KIND_CREATURE, 12, 20);
    add_combatant(m, "boss", "Raider Boss", "raiders", (cell_t){4, 4}, KIND_MACHINE, 30, 30);
    return m;
}

static SDL_Color pixel_at(SDL_Surface *s, int x, int y)
{
    Uint32 px = ((Uint32 *)((Uint8 *)s->pixels + y * s->pitch))[x];
    SDL_Color c;
    SDL_GetRGBA(px, s->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

static bool near_rgb(SDL_Color c, uint32_t rgb, int tol)
{
    return abs(c.r - (int)(rgb >> 16 & 255)) <= tol && abs(c.g - (int)(rgb >> 8 & 255)) <= tol &&
           abs(c.b - (int)(rgb & 255)) <= tol;
}

static SDL_Surface *render_and_load(const map_t *m, int w, int h, const char *path)
{
    char err[256] = "";
    remove(path);
    int rc = ui_render_png(m, NULL, w, h, path, err, sizeof err);
    if (rc != 0) fprintf(stderr, "render failed: %s\n", err);
    assert_int_equal(rc, 0);
    SDL_Surface *raw = IMG_Load(path);
    assert_non_null(raw);
    SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_FreeSurface(raw);
    assert_non_null(s);
    return s;
}

static SDL_Point screen_of(const map_t *m, const ui_camera_t *cam, cell_t c)
{
    vec2_t p = ui_cam_to_screen(cam, ui_cell_center(m, c));
    return (SDL_Point){(int)floor(p.x), (int)floor(p.y)};
}

/* Every hex centre of every layout shows its terrain's colour, tokens show
 * their faction colour, and the picture is exactly the size asked for. */
static void test_png_layouts(void **state)
{
    (void)state;
    const int W = 640, H = 480;
    for (int l = 0; l < 4; l++) {
        map_t *m = small_map(LAYOUTS[l]);
        char path[256];
        snprintf(path, sizeof path, "/tmp/hb_test_ui_%d_%d.png", (int)getpid(), l);
        SDL_Surface *s = render_and_load(m, W, H, path);
        assert_int_equal(s->w, W);
        assert_int_equal(s->h, H);
        ui_camera_t cam = ui_cam_for_image(m, W, H);
        for (int row = 0; row < m->rows; row++)
            for (int col = 0; col < m->cols; col++) {
                bool occupied = false;
                for (int i = 0; i < m->n_combatants; i++)
                    occupied |= m->combatants[i].at.col == col && m->combatants[i].at.row == row;
                /* Labels hang below a token into the next row's hexes. */
                bool below = false;
                for (int i = 0; i < m->n_combatants; i++)
                    below |= row > m->combatants[i].at.row && row <= m->combatants[i].at.row + 2 &&
                             abs(col - m->combatants[i].at.col) <= 1;
                if (occupied || below) continue;
                SDL_Point p = screen_of(m, &cam, (cell_t){col, row});
                uint32_t want = m->types[m->cells[row * m->cols + col]].color;
                SDL_Color got = pixel_at(s, p.x, p.y);
                if (!near_rgb(got, want, 2))
                    fail_msg("layout %d cell (%d,%d): got %02x%02x%02x want %06x", l, col, row,
                             got.r, got.g, got.b, want);
            }
        /* Token bodies: below the initials, inside the rim. */
        for (int i = 0; i < m->n_combatants; i++) {
            SDL_Point p = screen_of(m, &cam, m->combatants[i].at);
            int dy = (int)(cam.zoom * 0.56 * 0.8);
            SDL_Color want = ui_faction_color(m, m->combatants[i].faction);
            SDL_Color got = pixel_at(s, p.x, p.y + dy);
            uint32_t rgb = (uint32_t)want.r << 16 | (uint32_t)want.g << 8 | want.b;
            if (!near_rgb(got, rgb, 2))
                fail_msg("layout %d token %d: got %02x%02x%02x want %06x", l, i, got.r, got.g,
                         got.b, rgb);
        }
        /* The corner of the picture is background, not map. */
        SDL_Color bg = pixel_at(s, 0, 0);
        assert_false(near_rgb(bg, OPEN_RGB, 30));
        SDL_FreeSurface(s);
        remove(path);
        map_destroy(m);
    }
}

/* Small hexes take the 1-px line grid: every one of the six edges around an
 * inner hex is drawn (darker than the ground at its middle), centres stay clean. */
static void test_png_line_grid(void **state)
{
    (void)state;
    for (int l = 0; l < 4; l++) {
        map_t *m = map_create(40, 30);
        assert_non_null(m);
        m->layout = LAYOUTS[l];
        add_type(m, "open", 1, COVER_NONE, OPEN_RGB);
        char path[256];
        snprintf(path, sizeof path, "/tmp/hb_test_ui_grid_%d_%d.png", (int)getpid(), l);
        SDL_Surface *s = render_and_load(m, 640, 480, path);
        ui_camera_t cam = ui_cam_for_image(m, 640, 480);
        assert_true(cam.zoom >= 5.0 && cam.zoom < 24.0); /* the line path */
        const cell_t probes[] = {{10, 10}, {11, 10}, {20, 15}, {21, 16}, {5, 22}};
        for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
            hex_t h = hex_from_cell(m->layout, probes[i]);
            SDL_Point c = screen_of(m, &cam, probes[i]);
            assert_true(near_rgb(pixel_at(s, c.x, c.y), OPEN_RGB, 2));
            for (int dir = 0; dir < 6; dir++) {
                cell_t nb = hex_to_cell(m->layout, hex_neighbor(h, dir));
                vec2_t a = ui_cam_to_screen(&cam, ui_cell_center(m, probes[i]));
                vec2_t b = ui_cam_to_screen(&cam, ui_cell_center(m, nb));
                int mx = (int)floor((a.x + b.x) / 2), my = (int)floor((a.y + b.y) / 2);
                int darkest = 255;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        SDL_Color px = pixel_at(s, mx + dx, my + dy);
                        darkest = px.g < darkest ? px.g : darkest;
                    }
                if (darkest >= (int)((OPEN_RGB >> 8) & 255) - 10)
                    fail_msg("layout %d cell (%d,%d) dir %d: no grid line", l, probes[i].col,
                             probes[i].row, dir);
            }
        }
        SDL_FreeSurface(s);
        remove(path);
        map_destroy(m);
    }
}

/* A textured type is drawn with its texture modulated by its colour: never
 * brighter than the colour, close to it, and not flat. */
static void test_png_textured(void **state)
{
    (void)state;
    map_t *m = small_map(LAYOUTS[0]);
    hb_strlcpy(m->types[2].texture, "textures/water.png", sizeof m->types[2].texture);
    m->types[2].color = 0x80c0ff;
    char path[256];
    snprintf(path, sizeof path, "/tmp/hb_test_ui_tex_%d.png", (int)getpid());
    SDL_Surface *s = render_and_load(m, 800, 600, path);
    ui_camera_t cam = ui_cam_for_image(m, 800, 600);
    int differs = 0;
    for (int col = 0; col < 6; col++) {
        SDL_Point p = screen_of(m, &cam, (cell_t){col, 6});
        for (int dx = -6; dx <= 6; dx += 3) {
            SDL_Color c = pixel_at(s, p.x + dx, p.y);
            assert_true(c.r <= 0x80 + 2 && c.g <= 0xc0 + 2 && c.b <= 0xff);
            assert_true(c.r >= 0x80 * 6 / 10 && c.g >= 0xc0 * 6 / 10 && c.b >= 0xff * 6 / 10);
            differs += !near_rgb(c, 0x80c0ff, 1);
        }
    }
    assert_true(differs > 0);
    SDL_FreeSurface(s);
    remove(path);
    map_destroy(m);
}

/* A render that cannot write leaves nothing behind and says why. */
static void test_png_failure_leaves_nothing(void **state)
{
    (void)state;
    map_t *m = small_map(LAYOUTS[1]);
    char err[256] = "";
    const char *bad = "/tmp/hb_no_such_dir_for_ui_tests/out.png";
    assert_int_equal(ui_render_png(m, NULL, 200, 100, bad, err, sizeof err), 1);
    assert_true(strlen(err) > 0);
    assert_int_equal(access(bad, F_OK), -1);
    assert_int_equal(ui_render_png(m, NULL, 0, 100, "/tmp/x0.png", err, sizeof err), 1);
    map_destroy(m);
}

/* A print render carries its resolution (pHYs) and a plain one does not;
 * a render onto a failing disk fails at every step with the file named and
 * leaves the old picture and nothing else. */
static void test_png_print_scale_and_faults(void **state)
{
    (void)state;
    map_t *m = small_map(LAYOUTS[0]);
    char dir[] = "/tmp/hb_test_png_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128], err[512];
    snprintf(path, sizeof path, "%s/print.png", dir);
    ui_render_opts_t opts = {.w = 300, .h = 200, .hex_mm = 25.4, .dpi = 300};
    assert_int_equal(ui_render_png_opts(m, NULL, &opts, path, err, sizeof err), 0);
    char *png = NULL;
    size_t len = 0;
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &png, &len, err, sizeof err), 0);
    unsigned x = 0, y = 0;
    int unit = -1;
    assert_true(png_get_phys((unsigned char *)png, len, &x, &y, &unit));
    assert_int_equal(x, 11811); /* 300 dpi in pixels per metre */
    assert_int_equal(y, 11811);
    assert_int_equal(unit, 1);
    /* SDL_image still reads it, at the size the scale asks for. */
    SDL_Surface *s = IMG_Load(path);
    assert_non_null(s);
    SDL_FreeSurface(s);

    opts = (ui_render_opts_t){.w = 300, .h = 200};
    static const char *const FAULTS[] = {"create:1", "write:1", "fsync:1", "close:1:EIO",
                                         "rename:1:EROFS"};
    for (size_t k = 0; k < sizeof FAULTS / sizeof FAULTS[0]; k++) {
        assert_true(hb_fault_set(FAULTS[k]));
        assert_int_equal(ui_render_png_opts(m, NULL, &opts, path, err, sizeof err), 1);
        hb_fault_set(NULL);
        char want[256];
        snprintf(want, sizeof want, "%s: cannot write: ", path);
        assert_memory_equal(err, want, strlen(want));
        char *now = NULL;
        size_t n = 0;
        assert_int_equal(hb_read_file(path, HB_FILE_MAX, &now, &n, err, sizeof err), 0);
        assert_int_equal(n, len);
        assert_memory_equal(now, png, len);
        free(now);
        DIR *d = opendir(dir);
        int files = 0;
        for (struct dirent *e; (e = readdir(d));)
            files += e->d_name[0] != '.';
        closedir(d);
        assert_int_equal(files, 1);
    }
    /* Without a print scale there is no pHYs chunk. */
    assert_int_equal(ui_render_png_opts(m, NULL, &opts, path, err, sizeof err), 0);
    free(png);
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &png, &len, err, sizeof err), 0);
    assert_false(png_get_phys((unsigned char *)png, len, &x, &y, &unit));
    free(png);
    unlink(path);
    rmdir(dir);
    map_destroy(m);
}

/* An existing picture is replaced whole, and no temporary file remains. */
static void test_png_replaces_atomically(void **state)
{
    (void)state;
    map_t *m = small_map(LAYOUTS[2]);
    char path[256], tmp[300];
    snprintf(path, sizeof path, "/tmp/hb_test_ui_atomic_%d.png", (int)getpid());
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("old", f);
    fclose(f);
    char err[256];
    assert_int_equal(ui_render_png(m, NULL, 320, 200, path, err, sizeof err), 0);
    SDL_Surface *s = IMG_Load(path);
    assert_non_null(s);
    assert_int_equal(s->w, 320);
    assert_int_equal(s->h, 200);
    assert_int_equal(access(tmp, F_OK), -1);
    SDL_FreeSurface(s);
    remove(path);
    map_destroy(m);
}

/* Text textures are made once per (string, size, colour) and reused. */
static void test_text_cache(void **state)
{
    (void)state;
    assert_int_equal(TTF_Init(), 0);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 64, 64, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    char err[256];
    ui_text_t *t = ui_text_create(r, ui_assets_dir(), err, sizeof err);
    assert_non_null(t);
    SDL_Color white = {255, 255, 255, 255}, red = {255, 0, 0, 255};
    int w1, h1, w2, h2;
    SDL_Texture *a = ui_text_get(t, "Kara Voss", 14, false, white, &w1, &h1);
    SDL_Texture *b = ui_text_get(t, "Kara Voss", 14, false, white, &w2, &h2);
    assert_non_null(a);
    assert_ptr_equal(a, b);
    assert_int_equal(ui_text_cached(t), 1);
    /* A size between two rendered sizes reuses the nearer one's texture. */
    int q = ui_text_quantize(17);
    assert_true(q == 16 || q == 18);
    SDL_Texture *q1 = ui_text_get(t, "Kara Voss", 17, false, white, &w2, &h2);
    SDL_Texture *q2 = ui_text_get(t, "Kara Voss", q, false, white, &w2, &h2);
    assert_ptr_equal(q1, q2);
    assert_int_equal(ui_text_cached(t), 2);
    SDL_Texture *c = ui_text_get(t, "Kara Voss", 14, false, red, &w2, &h2);
    assert_ptr_not_equal(a, c);
    SDL_Texture *big = ui_text_get(t, "Kara Voss", 40, false, white, &w2, &h2);
    assert_non_null(big);
    /* Bigger text is rendered bigger, not scaled up from the small one. */
    assert_true(w2 > w1 * 2 && h2 > h1 * 2);
    assert_int_equal(ui_text_cached(t), 4);
    assert_null(ui_text_get(t, "", 14, false, white, &w2, &h2));
    ui_text_destroy(t);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    TTF_Quit();
}

static SDL_Event motion(int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.x = x;
    e.motion.y = y;
    return e;
}

static SDL_Event key(SDL_Keycode k)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    return e;
}

static void test_events_wheel_zooms_at_cursor(void **state)
{
    (void)state;
    map_t *m = small_map(LAYOUTS[0]);
    ui_state_t s;
    ui_state_init(&s, m, 800, 600);
    double z0 = s.cam.zoom;
    SDL_Event e = motion(300, 200);
    ui_handle_event(&s, &e);
    vec2_t under = ui_cam_to_world(&s.cam, (vec2_t){300, 200});
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEWHEEL;
    e.wheel.y = 2;
    e.wheel.preciseY = 2.0f;
    e.wheel.mouseX = 300;
    e.wheel.mouseY = 200;
    s.dirty = false;
    assert_true(ui_handle_event(&s, &e));
    assert_true(s.dirty);
    assert_true(fabs(s.cam.zoom - z0 * UI_WHEEL_STEP * UI_WHEEL_STEP) < 1e-6);
    vec2_t after = ui_cam_to_world(&s.cam, (vec2_t){300, 200});
    assert_true(fabs(after.x - under.x) < 1e-9 && fabs(after.y - under.y) < 1e-9);
    /* Wheel down zooms back out. */
    e.wheel.y = -2;
    e.wheel.preciseY = -2.0f;
    ui_handle_event(&s, &e);
    assert_true(fabs(s.cam.zoom - z0) < 1e-6);
    /* Keyboard zoom too. */
    e = key(SDLK_PLUS);
    ui_handle_event(&s, &e);
    assert_true(s.cam.zoom > z0 * 1.2);
    e = key(SDLK_MINUS);
    ui_handle_event(&s, &e);
    assert_true(fabs(s.cam.zoom - z0) < 1e-6);
    map_destroy(m);
}

static void test_events_hover_and_status(void **state)
{
    (void)state;
    map_t *m = small_map(LAYOUTS[2]);
    ui_state_t s;
    ui_state_init(&s, m, 800, 600);
    char buf[512];
    /* Over an occupied open hex: cell, terrain, cover, cost and occupant. */
    vec2_t p = ui_cam_to_screen(&s.cam, ui_cell_center(m, (cell_t){2, 2}));
    SDL_Event e = motion((int)p.x, (int)p.y);
    assert_true(ui_handle_event(&s, &e));
    assert_true(s.hover_on_map);
    assert_int_equal(s.hover.col, 2);
    assert_int_equal(s.hover.row, 2);
    ui_status_text(&s, buf, sizeof buf);
    assert_non_null(strstr(buf, "(2, 2)"));
    assert_non_null(strstr(buf, "open"));
    assert_non_null(strstr(buf, "Kara Voss"));
    assert_non_null(strstr(buf, "players"));
    assert_non_null(strstr(buf, "12/20"));
    assert_non_null(strstr(buf, "5 ft"));
    /* Moving within the same hex changes nothing to redraw. */
    e = motion((int)p.x + 1, (int)p.y);
    assert_false(ui_handle_event(&s, &e));
    /* A wall hex: impassable, total cover, nobody there. */
    p = ui_cam_to_screen(&s.cam, ui_cell_center(m, (cell_t){6, 3}));
    e = motion((int)p.x, (int)p.y);
    assert_true(ui_handle_event(&s, &e));
    ui_status_text(&s, buf, sizeof buf);
    assert_non_null(strstr(buf, "(6, 3)"));
    assert_non_null(strstr(buf, "wall"));
    assert_non_null(strstr(buf, "total"));
    assert_non_null(strstr(buf, "impassable"));
    assert_null(strstr(buf, "Kara"));
    /* Water costs double. */
    p = ui_cam_to_screen(&s.cam, ui_cell_center(m, (cell_t){1, 6}));
    e = motion((int)p.x, (int)p.y);
    ui_handle_event(&s, &e);
    ui_status_text(&s, buf, sizeof buf);
    assert_non_null(strstr(buf, "water"));
    assert_non_null(strstr(buf, "10 ft"));
    /* Off the map. */
    e = motion(2, 2);
    assert_true(ui_handle_event(&s, &e));
    assert_false(s.hover_on_map);
    ui_status_text(&s, buf, sizeof buf);
    assert_non_null(strstr(buf, "off the map"));
    map_destroy(m);
}

static void test_events_pan_fit_quit(void **state)
{
    (void)state;
    map_t *m = small_map(LAYOUTS[1]);
    ui_state_t s;
    ui_state_init(&s, m, 800, 600);
    ui_camera_t fitted = s.cam;
    SDL_Event e = key(SDLK_RIGHT);
    assert_true(ui_handle_event(&s, &e));
    assert_true(fabs(s.cam.x - (fitted.x + UI_PAN_STEP / s.cam.zoom)) < 1e-9);
    assert_true(s.cam.y == fitted.y);
    e = key(SDLK_w);
    ui_handle_event(&s, &e);
    assert_true(fabs(s.cam.y - (fitted.y - UI_PAN_STEP / s.cam.zoom)) < 1e-9);
    e = key(SDLK_LEFT);
    ui_handle_event(&s, &e);
    e = key(SDLK_DOWN);
    ui_handle_event(&s, &e);
    assert_true(fabs(s.cam.x - fitted.x) < 1e-9 && fabs(s.cam.y - fitted.y) < 1e-9);

    /* Right-drag pans with the cursor: the grabbed world point follows it. */
    e = motion(400, 300);
    ui_handle_event(&s, &e);
    vec2_t grabbed = ui_cam_to_world(&s.cam, (vec2_t){400, 300});
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_RIGHT;
    e.button.x = 400;
    e.button.y = 300;
    ui_handle_event(&s, &e);
    e = motion(460, 270);
    assert_true(ui_handle_event(&s, &e));
    vec2_t now = ui_cam_to_world(&s.cam, (vec2_t){460, 270});
    assert_true(fabs(now.x - grabbed.x) < 1e-9 && fabs(now.y - grabbed.y) < 1e-9);
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONUP;
    e.button.button = SDL_BUTTON_RIGHT;
    ui_handle_event(&s, &e);
    ui_camera_t before = s.cam;
    e = motion(500, 200);
    ui_handle_event(&s, &e);
    assert_true(s.cam.x == before.x && s.cam.y == before.y);

    /* F fits again; Esc and Q and closing the window quit. */
    e = key(SDLK_f);
    ui_handle_event(&s, &e);
    assert_true(fabs(s.cam.x - fitted.x) < 1e-9 && fabs(s.cam.zoom - fitted.zoom) < 1e-9);
    assert_false(s.quit);
    e = key(SDLK_ESCAPE);
    ui_handle_event(&s, &e);
    assert_true(s.quit);
    s.quit = false;
    e = key(SDLK_q);
    ui_handle_event(&s, &e);
    assert_true(s.quit);
    s.quit = false;
    memset(&e, 0, sizeof e);
    e.type = SDL_QUIT;
    ui_handle_event(&s, &e);
    assert_true(s.quit);
    map_destroy(m);
}

/* The window's frame draws the status line over the map on a real renderer. */
static void test_window_frame_draws_status(void **state)
{
    (void)state;
    assert_int_equal(TTF_Init(), 0);
    map_t *m = small_map(LAYOUTS[0]);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 640, 400, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    char err[256];
    ui_draw_t *d = ui_draw_create(r, m, err, sizeof err);
    assert_non_null(d);
    ui_state_t s;
    ui_state_init(&s, m, 640, 400);
    vec2_t p = ui_cam_to_screen(&s.cam, ui_cell_center(m, (cell_t){1, 1}));
    SDL_Event e = motion((int)p.x, (int)p.y);
    ui_handle_event(&s, &e);
    ui_window_draw(d, &s);
    SDL_RenderPresent(r);
    /* The hovered hex is tinted lighter than plain open ground. */
    SDL_Color hov = pixel_at(surf, (int)p.x, (int)p.y);
    assert_true(hov.g > ((OPEN_RGB >> 8) & 255) + 10);
    /* The status strip is dark, and some of its pixels are light text. */
    int light = 0;
    for (int x = 0; x < 400; x++) {
        SDL_Color c = pixel_at(surf, x, 400 - 13);
        light += c.r > 150 && c.g > 150;
    }
    assert_true(light > 5);
    SDL_Color strip = pixel_at(surf, 639, 399);
    assert_true(strip.r < 60 && strip.g < 60);
    assert_true(ui_draw_last_hexes(d) == m->cols * m->rows);
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    map_destroy(m);
    TTF_Quit();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_png_layouts),
        cmocka_unit_test(test_png_line_grid),
        cmocka_unit_test(test_png_textured),
        cmocka_unit_test(test_png_failure_leaves_nothing),
        cmocka_unit_test(test_png_replaces_atomically),
        cmocka_unit_test(test_png_print_scale_and_faults),
        cmocka_unit_test(test_text_cache),
        cmocka_unit_test(test_events_wheel_zooms_at_cursor),
        cmocka_unit_test(test_events_hover_and_status),
        cmocka_unit_test(test_events_pan_fit_quit),
        cmocka_unit_test(test_window_frame_draws_status),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
