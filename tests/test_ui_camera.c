/* test_ui_camera.c - camera maths, picking and the small drawing helpers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ui/camera.h"
#include "ui/draw.h"

static const hex_layout_t LAYOUTS[4] = {
    {HEX_POINTY, HEX_ODD}, {HEX_POINTY, HEX_EVEN}, {HEX_FLAT, HEX_ODD}, {HEX_FLAT, HEX_EVEN}};

static map_t *grid_map(hex_layout_t lay, int cols, int rows)
{
    map_t *m = map_create(cols, rows);
    assert_non_null(m);
    m->layout = lay;
    m->n_types = 1;
    hb_strlcpy(m->types[0].name, "open", sizeof m->types[0].name);
    m->types[0].move = 1;
    return m;
}

static void test_round_trip(void **state)
{
    (void)state;
    const ui_camera_t cams[] = {{0, 0, 1}, {-12.5, 7.25, 33.3}, {100, -40, 0.75}, {3, 3, 250}};
    for (size_t i = 0; i < sizeof cams / sizeof cams[0]; i++) {
        for (double x = -50; x <= 50; x += 12.5) {
            vec2_t w = {x, x * 0.37 - 4};
            vec2_t s = ui_cam_to_screen(&cams[i], w);
            vec2_t back = ui_cam_to_world(&cams[i], s);
            assert_true(fabs(back.x - w.x) < 1e-9 && fabs(back.y - w.y) < 1e-9);
        }
        /* The screen origin shows the camera's own world point. */
        vec2_t o = ui_cam_to_world(&cams[i], (vec2_t){0, 0});
        assert_true(fabs(o.x - cams[i].x) < 1e-12 && fabs(o.y - cams[i].y) < 1e-12);
    }
}

static void test_zoom_at_cursor_keeps_point(void **state)
{
    (void)state;
    ui_camera_t c = {-3, 5, 20};
    const vec2_t cursors[] = {{0, 0}, {640, 360}, {1279, 17}, {33, 700}};
    const double factors[] = {1.15, 1 / 1.15, 3.0, 0.2};
    for (size_t i = 0; i < 4; i++) {
        vec2_t before = ui_cam_to_world(&c, cursors[i]);
        double z0 = c.zoom;
        ui_cam_zoom_at(&c, cursors[i], factors[i]);
        vec2_t after = ui_cam_to_world(&c, cursors[i]);
        assert_true(fabs(before.x - after.x) < 1e-9 && fabs(before.y - after.y) < 1e-9);
        assert_true(fabs(c.zoom - z0 * factors[i]) < 1e-9);
    }
    /* Clamped zoom still keeps the cursor's point. */
    vec2_t cur = {100, 100};
    vec2_t before = ui_cam_to_world(&c, cur);
    ui_cam_zoom_at(&c, cur, 1e9);
    assert_true(c.zoom == UI_ZOOM_MAX);
    vec2_t after = ui_cam_to_world(&c, cur);
    assert_true(fabs(before.x - after.x) < 1e-9 && fabs(before.y - after.y) < 1e-9);
    ui_cam_zoom_at(&c, cur, 1e-9);
    assert_true(c.zoom == UI_ZOOM_MIN);
}

static void test_pan_moves_view(void **state)
{
    (void)state;
    ui_camera_t c = {0, 0, 10};
    vec2_t w = {5, 5};
    vec2_t s0 = ui_cam_to_screen(&c, w);
    ui_cam_pan(&c, 30, -20);
    vec2_t s1 = ui_cam_to_screen(&c, w);
    /* Panning right shows what lies right: fixed points move left on screen. */
    assert_true(fabs(s1.x - (s0.x - 30)) < 1e-9 && fabs(s1.y - (s0.y + 20)) < 1e-9);
}

static void test_fit_shows_whole_map(void **state)
{
    (void)state;
    for (int l = 0; l < 4; l++) {
        map_t *m = grid_map(LAYOUTS[l], 13, 9);
        ui_camera_t c = {0, 0, 1};
        ui_cam_fit(&c, ui_map_bounds(m), 800, 500, 10);
        for (int row = 0; row < m->rows; row++)
            for (int col = 0; col < m->cols; col++) {
                vec2_t ctr = ui_cell_center(m, (cell_t){col, row});
                for (int k = 0; k < 6; k++) {
                    vec2_t k6 = hex_corner(m->layout.orient, 1.0, k);
                    vec2_t s = ui_cam_to_screen(&c, (vec2_t){ctr.x + k6.x, ctr.y + k6.y});
                    assert_true(s.x >= 10 - 1e-6 && s.x <= 790 + 1e-6);
                    assert_true(s.y >= 10 - 1e-6 && s.y <= 490 + 1e-6);
                }
            }
        /* Tight on the limiting axis: the map spans the room on one side. */
        ui_rect_t b = ui_map_bounds(m);
        double sw = (b.x1 - b.x0) * c.zoom, sh = (b.y1 - b.y0) * c.zoom;
        assert_true(fabs(sw - 780) < 1e-6 || fabs(sh - 480) < 1e-6);
        map_destroy(m);
    }
}

static void test_pick_cell_all_layouts(void **state)
{
    (void)state;
    for (int l = 0; l < 4; l++) {
        map_t *m = grid_map(LAYOUTS[l], 9, 7);
        ui_camera_t c = {0, 0, 1};
        ui_cam_fit(&c, ui_map_bounds(m), 1024, 768, 20);
        for (int row = 0; row < m->rows; row++)
            for (int col = 0; col < m->cols; col++) {
                cell_t want = {col, row};
                vec2_t s = ui_cam_to_screen(&c, ui_cell_center(m, want));
                /* The drawn centre and points most of the way to each corner
                 * all pick this cell. */
                for (int k = -1; k < 6; k++) {
                    vec2_t p = s;
                    if (k >= 0) {
                        vec2_t off = hex_corner(m->layout.orient, c.zoom * 0.85, k);
                        p.x += off.x;
                        p.y += off.y;
                    }
                    cell_t got;
                    assert_true(ui_pick_cell(m, ui_cam_to_world(&c, p), &got));
                    assert_int_equal(got.col, col);
                    assert_int_equal(got.row, row);
                }
            }
        /* Left of column 0 is off the map, and named as such. */
        cell_t got;
        vec2_t left = ui_cell_center(m, (cell_t){0, 3});
        left.x -= 2.0;
        assert_false(ui_pick_cell(m, left, &got));
        assert_true(got.col < 0);
        map_destroy(m);
    }
}

static void test_visible_cells_cover_screen(void **state)
{
    (void)state;
    for (int l = 0; l < 4; l++) {
        map_t *m = grid_map(LAYOUTS[l], 40, 30);
        ui_camera_t c = {7.3, 4.1, 17};
        int w = 320, h = 200;
        ui_rect_t view = {c.x, c.y, c.x + w / c.zoom, c.y + h / c.zoom};
        cell_t lo, hi;
        assert_true(ui_visible_cells(m, view, &lo, &hi));
        int inside = 0;
        for (int row = 0; row < m->rows; row++)
            for (int col = 0; col < m->cols; col++) {
                vec2_t s = ui_cam_to_screen(&c, ui_cell_center(m, (cell_t){col, row}));
                /* Any hex reaching into the view must be in the range. */
                if (s.x > -c.zoom && s.y > -c.zoom && s.x < w + c.zoom && s.y < h + c.zoom) {
                    inside++;
                    assert_true(col >= lo.col && col <= hi.col && row >= lo.row && row <= hi.row);
                }
            }
        assert_true(inside > 0);
        /* And the range is not the whole map: culling does something. */
        assert_true((hi.col - lo.col + 1) * (hi.row - lo.row + 1) < m->cols * m->rows / 2);
        /* A view far off the map sees nothing. */
        ui_rect_t away = {-500, -500, -400, -400};
        assert_false(ui_visible_cells(m, away, &lo, &hi));
        map_destroy(m);
    }
}

static void test_initials(void **state)
{
    (void)state;
    char out[3];
    ui_initials("Kara Voss", out);
    assert_string_equal(out, "KV");
    ui_initials("dren", out);
    assert_string_equal(out, "Dr");
    ui_initials("Ravager", out);
    assert_string_equal(out, "Ra");
    ui_initials("x", out);
    assert_string_equal(out, "X");
    ui_initials("  the-old  mech 7", out);
    assert_string_equal(out, "TO");
    ui_initials("", out);
    assert_string_equal(out, "");
}

static void test_token_marks_tell_tokens_apart(void **state)
{
    (void)state;
    static const char *const NAMES[] = {"Dren Holt", "Dust Hound", "Kara Voss", "Skitter A",
                                        "Skitter B", "Raider",     "Raider",    "Rift Ape"};
    enum { N = sizeof NAMES / sizeof NAMES[0] };
    map_t *m = grid_map(LAYOUTS[0], 4, 4);
    m->combatants = calloc(N, sizeof *m->combatants);
    assert_non_null(m->combatants);
    m->n_combatants = N;
    for (int i = 0; i < N; i++) {
        snprintf(m->combatants[i].id, sizeof m->combatants[i].id, "c%d", i);
        hb_strlcpy(m->combatants[i].name, NAMES[i], sizeof m->combatants[i].name);
    }
    /* "Rift Ape" (RA) would read like the Raiders' "Ra": it says "Ri". */
    static const char *const WANT[N] = {"Dr", "Du", "KV", "SA", "SB", "R1", "R2", "Ri"};
    char mark[UI_MARK_MAX];
    for (int i = 0; i < N; i++) {
        ui_token_mark(m, i, mark);
        assert_string_equal(mark, WANT[i]);
    }
    /* No two tokens on the map read the same. */
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++) {
            char a[UI_MARK_MAX], b[UI_MARK_MAX];
            ui_token_mark(m, i, a);
            ui_token_mark(m, j, b);
            assert_string_not_equal(a, b);
        }
    /* Twelve namesakes count on past 9. */
    map_combatant_t *more = realloc(m->combatants, 12 * sizeof *more);
    assert_non_null(more);
    m->combatants = more;
    for (int i = 0; i < 12; i++) {
        snprintf(m->combatants[i].id, sizeof m->combatants[i].id, "g%d", i);
        hb_strlcpy(m->combatants[i].name, "Grunt", sizeof m->combatants[i].name);
    }
    m->n_combatants = 12;
    ui_token_mark(m, 8, mark);
    assert_string_equal(mark, "G9");
    ui_token_mark(m, 11, mark);
    assert_string_equal(mark, "G12");
    hb_strlcpy(m->combatants[0].name, "Dren Holt", sizeof m->combatants[0].name);
    /* Alone on the map, a Dren Holt is plain DH again. */
    m->n_combatants = 1;
    ui_token_mark(m, 0, mark);
    assert_string_equal(mark, "DH");
    map_destroy(m);
}

static void test_faction_colours(void **state)
{
    (void)state;
    map_t *m = grid_map(LAYOUTS[0], 4, 4);
    m->combatants = calloc(4, sizeof *m->combatants);
    assert_non_null(m->combatants);
    const char *f[4] = {"players", "raiders", "beasts", "raiders"};
    for (int i = 0; i < 4; i++)
        hb_strlcpy(m->combatants[i].faction, f[i], MAP_ID_MAX);
    m->n_combatants = 4;
    hb_strlcpy(m->factions[0].name, "allies", MAP_ID_MAX);
    m->factions[0].player = true;
    m->n_factions = 1;

    SDL_Color p = ui_faction_color(m, "players"), a = ui_faction_color(m, "allies");
    SDL_Color r = ui_faction_color(m, "raiders"), b = ui_faction_color(m, "beasts");
    /* Player sides are cool (more blue than red), Architect sides warm. */
    assert_true(p.b > p.r && a.b > a.r);
    assert_true(r.r > r.b && b.r > b.b);
    /* Distinct within each side. */
    assert_true(memcmp(&p, &a, sizeof p) != 0);
    assert_true(memcmp(&r, &b, sizeof r) != 0);
    map_destroy(m);
}

static void test_hp_colours(void **state)
{
    (void)state;
    SDL_Color full = ui_hp_color(20, 20), half = ui_hp_color(10, 20), low = ui_hp_color(1, 20);
    assert_true(full.g > full.r && full.g > full.b);
    assert_true(half.r > 200 && half.g > 150 && half.b < 100);
    assert_true(low.r > low.g && low.r > 150);
    /* Out-of-range values clamp instead of wrapping round. */
    SDL_Color over = ui_hp_color(50, 20), neg = ui_hp_color(-5, 20);
    assert_memory_equal(&over, &full, sizeof full);
    assert_true(neg.r > neg.g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_zoom_at_cursor_keeps_point),
        cmocka_unit_test(test_pan_moves_view),
        cmocka_unit_test(test_fit_shows_whole_map),
        cmocka_unit_test(test_pick_cell_all_layouts),
        cmocka_unit_test(test_visible_cells_cover_screen),
        cmocka_unit_test(test_initials),
        cmocka_unit_test(test_token_marks_tell_tokens_apart),
        cmocka_unit_test(test_faction_colours),
        cmocka_unit_test(test_hp_colours),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
