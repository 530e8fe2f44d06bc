/* test_area.c - area templates (core/area.h, docs/geometry.md "Areas").
 *
 * Properties on open ground in every layout (sizes, rotations, growth, the
 * width-1 line against hex_line), line of effect against walls, map edges,
 * and the worked examples of docs/geometry.md cell by cell.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/area.h"
#include "core/sight.h"
#include "map_fixture.h"

#define BIG 41 /* a square open map, the centre hex far from every edge */
#define CAP 4096

static const hex_layout_t LAYOUTS[4] = {
    {HEX_POINTY, HEX_ODD}, {HEX_POINTY, HEX_EVEN}, {HEX_FLAT, HEX_ODD}, {HEX_FLAT, HEX_EVEN}};

static board_t *board_of(hex_layout_t lay, int cols, int rows, const char *const *text)
{
    return fx_board(lay, cols, rows, ".#,f", text);
}

static void drop(board_t *b)
{
    fx_board_free(b);
}

static hex_t at(const board_t *b, int col, int row)
{
    return hex_from_cell(b->map->layout, (cell_t){col, row});
}

static hex_t centre(const board_t *b)
{
    return at(b, BIG / 2, BIG / 2);
}

/* The area's hexes, sorted (q, then r) so sets compare by memcmp. */
static int cmp_hex(const void *x, const void *y)
{
    const hex_t *a = x, *b = y;
    return a->q != b->q ? (a->q > b->q) - (a->q < b->q) : (a->r > b->r) - (a->r < b->r);
}

static int sorted(const board_t *b, const area_t *a, hex_t *out)
{
    int n = area_hexes(b, a, out, CAP);
    assert_true(n <= CAP);
    assert_true(n <= area_max_hexes(a));
    qsort(out, (size_t)n, sizeof *out, cmp_hex);
    for (int k = 1; k < n; k++)
        assert_false(hex_eq(out[k - 1], out[k])); /* never twice */
    return n;
}

static void sort_hexes(hex_t *h, int n)
{
    qsort(h, (size_t)n, sizeof *h, cmp_hex);
}

static bool same_set(const hex_t *a, int na, const hex_t *b, int nb)
{
    return na == nb && memcmp(a, b, sizeof *a * (size_t)na) == 0;
}

static bool contains(const hex_t *h, int n, hex_t x)
{
    for (int k = 0; k < n; k++)
        if (hex_eq(h[k], x)) return true;
    return false;
}

/* Offsets from the origin the tests aim at: along a direction, along a
 * diagonal (where a 60-degree cone's edges run through centres), and odd
 * angles in between. */
static const hex_t AIMS[] = {{1, 0}, {2, -1}, {3, -1}, {5, -2}, {4, 1}, {1, 3}, {-2, 7}, {6, -6}};
#define N_AIMS ((int)(sizeof AIMS / sizeof AIMS[0]))

static void test_burst_sizes_on_open_ground(void **state)
{
    (void)state;
    hex_t *h = malloc(sizeof *h * CAP);
    for (int l = 0; l < 4; l++) {
        board_t *b = board_of(LAYOUTS[l], BIG, BIG, NULL);
        for (int r = 0; r <= 8; r++) {
            area_t a = area_burst(centre(b), r);
            int n = area_hexes(b, &a, h, CAP);
            assert_int_equal(n, 1 + 3 * r * (r + 1));
            assert_int_equal(area_max_hexes(&a), n);
            for (int k = 0; k < n; k++)
                assert_true(hex_distance(h[k], centre(b)) <= r);
            /* Nearest first: ring by ring. */
            for (int k = 1; k < n; k++)
                assert_true(hex_distance(h[k - 1], centre(b)) <= hex_distance(h[k], centre(b)));
            /* A blast is the same burst, only centred where it lands. */
            area_t bl = area_blast(at(b, 2, 2), centre(b), r);
            assert_int_equal(area_hexes(b, &bl, h, CAP), 1 + 3 * r * (r + 1));
        }
        drop(b);
    }
    free(h);
}

/* Rotate h by k sixths of a turn about c. */
static hex_t rot(hex_t h, hex_t c, int k)
{
    hex_t v = hex_sub(h, c);
    for (int i = 0; i < k; i++)
        v = hex_rotate_left(v);
    return hex_add(c, v);
}

static area_t rotated(area_t a, hex_t c, int k)
{
    a.origin = rot(a.origin, c, k);
    a.aim = rot(a.aim, c, k);
    return a;
}

/* Every shape, for one aim offset, from the centre of b. */
static int shapes_for(const board_t *b, hex_t aim, area_t *out)
{
    hex_t o = centre(b), t = hex_add(o, aim);
    int n = 0;
    out[n++] = area_burst(o, 3);
    out[n++] = area_blast(o, t, 2);
    for (int len = 1; len <= 8; len += 3) {
        out[n++] = area_cone(o, t, len, 0.25);
        out[n++] = area_cone(o, t, len, AREA_TAN_30);
        out[n++] = area_line(o, t, len, 1);
        out[n++] = area_line(o, t, len, 3);
    }
    return n;
}

static void test_six_rotations(void **state)
{
    (void)state;
    hex_t *h = malloc(sizeof *h * CAP), *g = malloc(sizeof *g * CAP);
    for (int l = 0; l < 4; l++) {
        board_t *b = board_of(LAYOUTS[l], BIG, BIG, NULL);
        hex_t c = centre(b);
        for (int ai = 0; ai < N_AIMS; ai++) {
            area_t shapes[16];
            int ns = shapes_for(b, AIMS[ai], shapes);
            for (int s = 0; s < ns; s++) {
                int n = sorted(b, &shapes[s], h);
                /* (A narrow cone of length 1 aimed along a diagonal holds no
                 * centre at all: its nearest ones lie 30 degrees off.) */
                assert_true(n > 0 || shapes[s].shape == AREA_CONE);
                for (int k = 1; k < 6; k++) {
                    area_t r = rotated(shapes[s], c, k);
                    int m = sorted(b, &r, g);
                    for (int i = 0; i < n; i++)
                        h[i] = rot(h[i], c, 1);
                    sort_hexes(h, n);
                    if (!same_set(h, n, g, m))
                        fail_msg("layout %d, %s size %d aim (%d,%d): rotation %d gives %d hexes, "
                                 "the rotated area %d",
                                 l, area_shape_name(shapes[s].shape), shapes[s].size, AIMS[ai].q,
                                 AIMS[ai].r, k, m, n);
                }
            }
        }
        drop(b);
    }
    free(h);
    free(g);
}

/* Mirror symmetry: a cone or line aimed along a direction or a diagonal is
 * its own mirror image across the axis. */
static hex_t mirror_q_axis(hex_t v)
{
    return (hex_t){v.q + v.r, -v.r}; /* reflects across the line through (1,0) */
}

static void test_cone_symmetric_about_its_axis(void **state)
{
    (void)state;
    hex_t *h = malloc(sizeof *h * CAP);
    board_t *b = board_of(LAYOUTS[0], BIG, BIG, NULL);
    hex_t o = centre(b);
    for (int len = 1; len <= 9; len++) {
        area_t cones[2] = {area_cone(o, hex_add(o, (hex_t){1, 0}), len, AREA_TAN_30),
                           area_cone(o, hex_add(o, (hex_t){1, 0}), len, 0.25)};
        for (int c = 0; c < 2; c++) {
            int n = area_hexes(b, &cones[c], h, CAP);
            for (int k = 0; k < n; k++)
                assert_true(contains(h, n, hex_add(o, mirror_q_axis(hex_sub(h[k], o)))));
        }
    }
    drop(b);
    free(h);
}

static void test_cones_grow_with_length(void **state)
{
    (void)state;
    hex_t *small = malloc(sizeof *small * CAP), *big = malloc(sizeof *big * CAP);
    for (int l = 0; l < 4; l++) {
        board_t *b = board_of(LAYOUTS[l], BIG, BIG, NULL);
        hex_t o = centre(b);
        for (int ai = 0; ai < N_AIMS; ai++) {
            const double tans[3] = {0.25, AREA_TAN_30, 1.0};
            for (int ti = 0; ti < 3; ti++) {
                int prev = 0;
                for (int len = 1; len <= 12; len++) {
                    area_t s = area_cone(o, hex_add(o, AIMS[ai]), len, tans[ti]);
                    area_t g = area_cone(o, hex_add(o, AIMS[ai]), len + 1, tans[ti]);
                    int ns = area_hexes(b, &s, small, CAP), ng = area_hexes(b, &g, big, CAP);
                    assert_true(ng > ns); /* a longer cone always reaches a new centre */
                    assert_true(ns >= prev);
                    prev = ns;
                    for (int k = 0; k < ns; k++)
                        assert_true(contains(big, ng, small[k]));
                    /* Wider holds narrower. */
                    if (ti > 0) {
                        area_t nar = area_cone(o, hex_add(o, AIMS[ai]), len, tans[ti - 1]);
                        int nn = area_hexes(b, &nar, big, CAP);
                        for (int k = 0; k < nn; k++)
                            assert_true(contains(small, ns, big[k]));
                    }
                }
            }
        }
        drop(b);
    }
    free(small);
    free(big);
}

static void test_line_of_width_one_is_the_hex_line(void **state)
{
    (void)state;
    hex_t *h = malloc(sizeof *h * CAP);
    for (int l = 0; l < 4; l++) {
        board_t *b = board_of(LAYOUTS[l], BIG, BIG, NULL);
        hex_t o = centre(b);
        /* Every aim within 9 hexes: straight, diagonal and everything else. */
        for (int dq = -9; dq <= 9; dq++)
            for (int dr = -9; dr <= 9; dr++) {
                hex_t aim = hex_add(o, (hex_t){dq, dr});
                int dist = hex_distance(o, aim);
                if (dist == 0 || dist > 9) continue;
                /* The two nudged hex lines of RULINGS; the area's spine is
                 * one of them, and where they agree (the true line meets no
                 * edge) it is simply the hex line. */
                hex_t plus[64], minus[64];
                int nl = hex_line(o, aim, HEX_NUDGE_PLUS, plus, 64);
                hex_line(o, aim, HEX_NUDGE_MINUS, minus, 64);
                area_t full = area_line(o, aim, dist, 1);
                hex_t *line = plus;
                int nf = area_hexes(b, &full, h, CAP);
                assert_int_equal(nf, dist);
                if (memcmp(h, plus + 1, sizeof *h * (size_t)dist) != 0) {
                    assert_memory_not_equal(plus, minus, sizeof *plus * (size_t)nl);
                    assert_memory_equal(h, minus + 1, sizeof *h * (size_t)dist);
                    line = minus;
                }
                for (int len = 1; len <= dist; len++) {
                    area_t a = area_line(o, aim, len, 1);
                    int n = area_hexes(b, &a, h, CAP);
                    assert_int_equal(n, len); /* one hex a step */
                    /* Nearest first is the line's own order. */
                    for (int k = 0; k < n; k++)
                        assert_true(hex_eq(h[k], line[k + 1]));
                }
                assert_int_equal(nl, dist + 1);
                /* Longer than the aim: the same line carried on. */
                area_t a = area_line(o, aim, 2 * dist, 1);
                int n = area_hexes(b, &a, h, CAP);
                assert_int_equal(n, 2 * dist);
                for (int k = 0; k < dist; k++)
                    assert_true(hex_eq(h[k], line[k + 1]));
                for (int k = 1; k < n; k++)
                    assert_int_equal(hex_distance(h[k - 1], h[k]), 1);
            }
        drop(b);
    }
    free(h);
}

static void test_wide_line_along_a_row(void **state)
{
    (void)state;
    hex_t h[64];
    for (int l = 0; l < 4; l++) {
        board_t *b = board_of(LAYOUTS[l], BIG, BIG, NULL);
        hex_t o = centre(b);
        for (int len = 1; len <= 6; len++) {
            /* Width 3 along a direction: three rows of len hexes. */
            area_t a = area_line(o, hex_add(o, hex_dir(0)), len, 3);
            assert_int_equal(area_hexes(b, &a, h, 64), 3 * len);
            /* An even width counts as the odd one below it. */
            area_t w4 = area_line(o, hex_add(o, hex_dir(0)), len, 4);
            area_t w2 = area_line(o, hex_add(o, hex_dir(0)), len, 2);
            assert_int_equal(area_hexes(b, &w4, h, 64), 3 * len);
            assert_int_equal(area_hexes(b, &w2, h, 64), len);
            /* Width 5: five rows of len, each cut square across the axis. */
            area_t w5 = area_line(o, hex_add(o, hex_dir(0)), len, 5);
            int n5 = area_hexes(b, &w5, h, 64);
            assert_int_equal(n5, 5 * len);
            assert_false(contains(h, n5, o));
        }
        drop(b);
    }
}

/* The exact cells of docs/geometry.md's worked examples (pointy, odd rows). */
static void expect_cells(const board_t *b, const area_t *a, const int (*cells)[2], int n)
{
    hex_t got[64], want[64];
    int m = area_hexes(b, a, got, 64);
    for (int k = 0; k < n; k++)
        want[k] = at(b, cells[k][0], cells[k][1]);
    sort_hexes(got, m);
    sort_hexes(want, n);
    if (!same_set(got, m, want, n)) {
        char buf[512];
        int p = 0;
        for (int k = 0; k < m && p < 480; k++) {
            cell_t c = hex_to_cell(b->map->layout, got[k]);
            p += snprintf(buf + p, sizeof buf - (size_t)p, " %d,%d", c.col, c.row);
        }
        fail_msg("%s: %d hexes, expected %d; got%s", area_shape_name(a->shape), m, n, buf);
    }
}

static void test_worked_examples(void **state)
{
    (void)state;
    board_t *b = board_of(LAYOUTS[0], 12, 9, NULL);
    /* A 60-degree cone of length 3 from 2,4 aimed east: the diagonals at
     * exactly 30 degrees run through the centres of 5,2 and 5,6, which count. */
    area_t c60 = area_cone(at(b, 2, 4), at(b, 3, 4), 3, AREA_TAN_30);
    static const int C60[][2] = {{3, 4}, {4, 4}, {5, 4}, {3, 3}, {4, 3},
                                 {3, 5}, {4, 5}, {5, 2}, {5, 6}};
    expect_cells(b, &c60, C60, 9);
    /* surface's cone (tan 1/4) of length 4 the same way: the axis, then the
     * first hexes beside it at 3.5 hexes out, 0.866 off the axis (<= 0.875). */
    area_t c14 = area_cone(at(b, 2, 4), at(b, 3, 4), 4, 0.25);
    static const int C14[][2] = {{3, 4}, {4, 4}, {5, 4}, {6, 4}, {5, 3}, {5, 5}};
    expect_cells(b, &c14, C14, 6);
    /* A line of 6 from 1,4 towards 6,2, carried one hex past it. */
    area_t ln = area_line(at(b, 1, 4), at(b, 6, 2), 6, 1);
    static const int LN[][2] = {{2, 4}, {2, 3}, {3, 3}, {4, 3}, {5, 2}, {6, 2}};
    expect_cells(b, &ln, LN, 6);
    /* Width 3, length 5, east from 1,4: three rows of five. */
    area_t wide = area_line(at(b, 1, 4), at(b, 2, 4), 5, 3);
    static const int WIDE[][2] = {{1, 3}, {2, 3}, {3, 3}, {4, 3}, {5, 3}, {2, 4}, {3, 4}, {4, 4},
                                  {5, 4}, {6, 4}, {1, 5}, {2, 5}, {3, 5}, {4, 5}, {5, 5}};
    expect_cells(b, &wide, WIDE, 15);
    drop(b);
    /* The burst of 3 beside a wall: 37 on open ground, less the one hex behind. */
    static const char *const ROWS[9] = {
        "..........", "..........", "..........", "......#...", "......#...",
        "......#...", "..........", "..........", "..........",
    };
    b = board_of(LAYOUTS[0], 10, 9, ROWS);
    area_t burst = area_burst(at(b, 4, 4), 3);
    hex_t h[64];
    int n = area_hexes(b, &burst, h, 64);
    assert_int_equal(n, 36);
    assert_false(contains(h, n, at(b, 7, 4)));
    for (int row = 3; row <= 5; row++)
        assert_true(contains(h, n, at(b, 6, row)));
    drop(b);
}

static void test_wall_cuts_the_area_behind_it(void **state)
{
    (void)state;
    /* A wall two hexes east of the centre, three hexes tall. */
    static const char *const ROWS[9] = {
        "...........", "...........", "...........", "......#....", "......#....",
        "......#....", "...........", "...........", "...........",
    };
    hex_t h[256];
    for (int l = 0; l < 4; l++) {
        board_t *b = board_of(LAYOUTS[l], 11, 9, ROWS);
        hex_t c = at(b, 4, 4);
        area_t a = area_burst(c, 4);
        int n = area_hexes(b, &a, h, 256);
        hex_t wall = at(b, 6, 4), behind = at(b, 7, 4), far = at(b, 8, 4);
        /* The wall face is struck (as an endpoint it never blocks), what lies
         * behind it is not; the open side is. */
        assert_true(contains(h, n, wall));
        assert_false(contains(h, n, behind));
        assert_false(contains(h, n, far));
        assert_true(contains(h, n, at(b, 2, 4)));
        assert_true(n < 1 + 3 * 4 * 5);
        /* Exactly the shape's hexes that sight reaches from the centre. */
        int m = 0;
        for (int idx = 0; idx < 11 * 9; idx++) {
            hex_t x = board_hex_of(b, idx);
            bool in = hex_distance(x, c) <= 4 && sight_clear(b, c, x);
            assert_int_equal(in, contains(h, n, x));
            assert_int_equal(in, area_covers(b, &a, x));
            m += in;
        }
        assert_int_equal(m, n);
        /* A cone and a line into the wall stop there too. */
        area_t cone = area_cone(c, behind, 4, AREA_TAN_30);
        n = area_hexes(b, &cone, h, 256);
        assert_true(contains(h, n, wall));
        assert_false(contains(h, n, behind));
        area_t line = area_line(c, behind, 4, 1);
        n = area_hexes(b, &line, h, 256);
        assert_int_equal(n, 2); /* 5,4 and the wall */
        drop(b);
    }
}

static void test_sight_blocking_terrain_stops_it(void **state)
{
    (void)state;
    /* Fog blocks sight without being a wall: a blast does not pass it. */
    static const char *const ROWS[5] = {".......", ".......", "...f...", ".......", "......."};
    board_t *b = board_of(LAYOUTS[0], 7, 5, ROWS);
    area_t a = area_line(at(b, 1, 2), at(b, 5, 2), 5, 1);
    hex_t h[16];
    int n = area_hexes(b, &a, h, 16);
    assert_int_equal(n, 2); /* 2,2 and the fog hex 3,2 */
    assert_true(contains(h, n, at(b, 3, 2)));
    /* Brush is only cover: the area goes through. */
    static const char *const BRUSH[5] = {".......", ".......", "...,...", ".......", "......."};
    board_t *b2 = board_of(LAYOUTS[0], 7, 5, BRUSH);
    assert_int_equal(area_hexes(b2, &a, h, 16), 5);
    drop(b);
    drop(b2);
}

static void test_shapes_at_map_edges(void **state)
{
    (void)state;
    hex_t h[256];
    for (int l = 0; l < 4; l++) {
        board_t *b = board_of(LAYOUTS[l], 6, 5, NULL);
        for (int idx = 0; idx < 30; idx++) {
            hex_t c = board_hex_of(b, idx);
            for (int r = 0; r <= 3; r++) {
                area_t a = area_burst(c, r);
                int n = area_hexes(b, &a, h, 256);
                int want = 0;
                for (int k = 0; k < 30; k++)
                    want += hex_distance(board_hex_of(b, k), c) <= r;
                assert_int_equal(n, want); /* every on-map hex, none off it */
                for (int k = 0; k < n; k++)
                    assert_true(board_cell_index(b, h[k]) >= 0);
            }
            /* Cones and lines pointing off the map keep only what is on it. */
            for (int d = 0; d < 6; d++) {
                area_t cone = area_cone(c, hex_neighbor(c, d), 5, AREA_TAN_30);
                area_t line = area_line(c, hex_neighbor(c, d), 5, 3);
                int nc = area_hexes(b, &cone, h, 256);
                for (int k = 0; k < nc; k++)
                    assert_true(board_cell_index(b, h[k]) >= 0 && area_shape_has(&cone, h[k]));
                int nl = area_hexes(b, &line, h, 256);
                for (int k = 0; k < nl; k++)
                    assert_true(board_cell_index(b, h[k]) >= 0 && area_shape_has(&line, h[k]));
            }
        }
        /* A short buffer: the full count, and only cap written. */
        hex_t small[3] = {{99, 99}, {99, 99}, {99, 99}};
        area_t a = area_burst(board_hex_of(b, 14), 2);
        int n = area_hexes(b, &a, small, 2);
        assert_true(n > 2);
        assert_false(hex_eq(small[1], (hex_t){99, 99}));
        assert_true(hex_eq(small[2], (hex_t){99, 99}));
        drop(b);
    }
}

static void test_empty_and_bad_shapes(void **state)
{
    (void)state;
    board_t *b = board_of(LAYOUTS[0], 9, 9, NULL);
    hex_t o = at(b, 4, 4), h[64];
    area_t none[] = {
        area_cone(o, o, 3, AREA_TAN_30), /* no direction */
        area_line(o, o, 3, 1),
        area_cone(o, at(b, 6, 4), 0, 0.25), /* no length */
        area_line(o, at(b, 6, 4), 0, 1),
        area_burst(o, -1),
        area_cone(o, at(b, 6, 4), 3, -0.5), /* no such angle */
        area_cone(o, at(b, 6, 4), 3, 1e9),
    };
    for (size_t k = 0; k < sizeof none / sizeof none[0]; k++) {
        assert_int_equal(area_hexes(b, &none[k], h, 64), 0);
        assert_int_equal(area_max_hexes(&none[k]) >= 0, 1);
    }
    area_t bad = area_burst(o, 2);
    bad.shape = AREA_SHAPE_COUNT;
    assert_int_equal(area_hexes(b, &bad, h, 64), 0);
    /* A burst of 0 is its own hex. */
    area_t zero = area_burst(o, 0);
    assert_int_equal(area_hexes(b, &zero, h, 64), 1);
    assert_true(hex_eq(h[0], o));
    drop(b);
}

static void test_event_round_trip(void **state)
{
    (void)state;
    for (int l = 0; l < 4; l++) {
        board_t *b = board_of(LAYOUTS[l], 9, 9, NULL);
        area_t shapes[] = {area_burst(at(b, 4, 4), 2), area_blast(at(b, 1, 1), at(b, 6, 5), 1),
                           area_cone(at(b, 0, 8), at(b, 3, 2), 5, AREA_TAN_30),
                           area_line(at(b, 8, 0), at(b, 1, 7), 6, 3)};
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
            event_t e = area_event(b->map, 3, -1, &shapes[k]);
            assert_int_equal(e.type, EV_AREA);
            assert_int_equal(e.who, 3);
            assert_string_equal(e.name, area_shape_name(shapes[k].shape));
            area_t back = area_from_event(b->map, &e);
            assert_int_equal(back.shape, shapes[k].shape);
            assert_true(hex_eq(back.origin, shapes[k].origin));
            assert_true(hex_eq(back.aim, shapes[k].aim));
            assert_int_equal(back.size, shapes[k].size);
            hex_t x[128], y[128];
            int nx = area_hexes(b, &shapes[k], x, 128), ny = area_hexes(b, &back, y, 128);
            assert_true(same_set(x, nx, y, ny));
        }
        for (int s = 0; s < AREA_SHAPE_COUNT; s++)
            assert_int_equal(area_shape_parse(area_shape_name((area_shape_t)s)), s);
        assert_int_equal(area_shape_parse("square"), -1);
        drop(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_burst_sizes_on_open_ground),
        cmocka_unit_test(test_six_rotations),
        cmocka_unit_test(test_cone_symmetric_about_its_axis),
        cmocka_unit_test(test_cones_grow_with_length),
        cmocka_unit_test(test_line_of_width_one_is_the_hex_line),
        cmocka_unit_test(test_wide_line_along_a_row),
        cmocka_unit_test(test_worked_examples),
        cmocka_unit_test(test_wall_cuts_the_area_behind_it),
        cmocka_unit_test(test_sight_blocking_terrain_stops_it),
        cmocka_unit_test(test_shapes_at_map_edges),
        cmocka_unit_test(test_empty_and_bad_shapes),
        cmocka_unit_test(test_event_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
