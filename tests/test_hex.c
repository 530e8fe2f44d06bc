/* test_hex.c - property tests and hand-worked vectors for the hex algebra (core/hex.h).
 *
 * Property tests sweep whole spirals or a fixed pseudo-random set so that a sign slip in
 * one sextant cannot hide; the hand-worked vectors pin the conventions (direction order,
 * offset layouts, pixel axes, nudged lines) that the map files and rulings depend on.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/hex.h"

#define SQRT3 1.7320508075688772
/* PI is not ISO C, and the build asks for strict C11. */
#define PI 3.14159265358979323846

/* Radius of the big property sweep: 1 + 3*8*9 = 217 hexes. */
#define SWEEP_R 8
#define SWEEP_N (1 + 3 * SWEEP_R * (SWEEP_R + 1))

#define assert_hex_eq(got, want)                                                                   \
    do {                                                                                           \
        hex_t g_ = (got), w_ = (want);                                                             \
        if (!hex_eq(g_, w_))                                                                       \
            fail_msg("%s = (%d,%d), expected (%d,%d)", #got, g_.q, g_.r, w_.q, w_.r);              \
    } while (0)

#define assert_cell_eq(got, want)                                                                  \
    do {                                                                                           \
        cell_t g_ = (got), w_ = (want);                                                            \
        if (g_.col != w_.col || g_.row != w_.row)                                                  \
            fail_msg("%s = [%d,%d], expected [%d,%d]", #got, g_.col, g_.row, w_.col, w_.row);      \
    } while (0)

#define assert_near(got, want, eps)                                                                \
    do {                                                                                           \
        double g_ = (got), w_ = (want);                                                            \
        if (!(fabs(g_ - w_) <= (eps)))                                                             \
            fail_msg("%s = %.12g, expected %.12g (+-%g)", #got, g_, w_, (double)(eps));            \
    } while (0)

static const hex_layout_t LAYOUTS[4] = {
    {HEX_POINTY, HEX_ODD},
    {HEX_POINTY, HEX_EVEN},
    {HEX_FLAT, HEX_ODD},
    {HEX_FLAT, HEX_EVEN},
};
static const char *const LAYOUT_NAMES[4] = {"pointy/odd", "pointy/even", "flat/odd", "flat/even"};

/* Deterministic LCG so a failing case reproduces exactly on every machine. */
static uint32_t lcg_next(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* A pseudo-random hex with both axial coordinates in [-span, span]. */
static hex_t random_hex(uint32_t *state, int span)
{
    int q = (int)(lcg_next(state) % (uint32_t)(2 * span + 1)) - span;
    int r = (int)(lcg_next(state) % (uint32_t)(2 * span + 1)) - span;
    return hex_make(q, r);
}

/* Fill out with the radius-SWEEP_R spiral around the origin. */
static void sweep(hex_t out[SWEEP_N])
{
    int n = hex_spiral(hex_make(0, 0), SWEEP_R, out, SWEEP_N);
    assert_int_equal(n, SWEEP_N);
}

static int count_in(const hex_t *hs, int n, hex_t h)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += hex_eq(hs[i], h);
    return c;
}

/* ---------------------------------------------------------------- directions, distance */

static void test_directions_are_six_distinct_units(void **state)
{
    (void)state;
    for (int d = 0; d < HEX_DIRS; d++) {
        hex_t u = hex_dir(d);
        assert_int_equal(hex_length(u), 1);
        assert_int_equal(u.q + u.r + hex_s(u), 0);
        /* Opposite directions cancel; callers rely on d+3 being "straight back". */
        assert_hex_eq(hex_add(u, hex_dir(d + 3)), hex_make(0, 0));
        /* Indices wrap in both directions. */
        assert_hex_eq(hex_dir(d + 6), u);
        assert_hex_eq(hex_dir(d - 6), u);
        assert_hex_eq(hex_dir(d + 600), u);
        for (int e = d + 1; e < HEX_DIRS; e++)
            assert_false(hex_eq(u, hex_dir(e)));
    }
    assert_hex_eq(hex_dir(-1), hex_dir(5));
    /* Hand-worked: Red Blob's axial order is E (+1,0), NE (+1,-1), NW (0,-1), W, SW, SE. */
    assert_hex_eq(hex_dir(0), hex_make(1, 0));
    assert_hex_eq(hex_dir(1), hex_make(1, -1));
    assert_hex_eq(hex_dir(2), hex_make(0, -1));
    assert_hex_eq(hex_dir(5), hex_make(0, 1));
}

static void test_neighbours_are_at_distance_one(void **state)
{
    (void)state;
    hex_t hs[SWEEP_N];
    sweep(hs);
    for (int i = 0; i < SWEEP_N; i++) {
        for (int d = 0; d < HEX_DIRS; d++) {
            hex_t n = hex_neighbor(hs[i], d);
            assert_int_equal(hex_distance(hs[i], n), 1);
            assert_hex_eq(hex_sub(n, hs[i]), hex_dir(d));
            /* Stepping back the opposite way returns home. */
            assert_hex_eq(hex_neighbor(n, d + 3), hs[i]);
        }
    }
}

static void test_distance_symmetric_and_triangle(void **state)
{
    (void)state;
    hex_t hs[SWEEP_N];
    sweep(hs);
    for (int i = 0; i < SWEEP_N; i++) {
        assert_int_equal(hex_distance(hs[i], hs[i]), 0);
        for (int j = 0; j < SWEEP_N; j++) {
            int dij = hex_distance(hs[i], hs[j]);
            assert_int_equal(dij, hex_distance(hs[j], hs[i]));
            assert_int_equal(dij == 0, i == j);
            /* Translation invariance: the metric only sees the difference. */
            assert_int_equal(dij, hex_length(hex_sub(hs[j], hs[i])));
        }
    }
    uint32_t seed = 12345u;
    for (int k = 0; k < 20000; k++) {
        hex_t a = random_hex(&seed, 30), b = random_hex(&seed, 30), c = random_hex(&seed, 30);
        assert_true(hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c));
        assert_int_equal(hex_distance(a, b), hex_distance(b, a));
    }
}

/* Breadth-first search over neighbours gives the true step count, independently of the
 * max(|dq|,|dr|,|ds|) formula. A hexagon-shaped region is convex on the grid, so searching
 * only inside it does not lengthen any shortest path between its hexes. */
#define BFS_R 10
#define BFS_W (2 * BFS_R + 1)
static int bfs_index(hex_t h)
{
    return (h.q + BFS_R) * BFS_W + (h.r + BFS_R);
}

static void bfs_from(hex_t start, int dist[BFS_W * BFS_W])
{
    hex_t queue[BFS_W * BFS_W];
    for (int i = 0; i < BFS_W * BFS_W; i++)
        dist[i] = -1;
    int head = 0, tail = 0;
    queue[tail++] = start;
    dist[bfs_index(start)] = 0;
    while (head < tail) {
        hex_t h = queue[head++];
        for (int d = 0; d < HEX_DIRS; d++) {
            hex_t n = hex_neighbor(h, d);
            if (hex_length(n) > BFS_R || dist[bfs_index(n)] >= 0) continue;
            dist[bfs_index(n)] = dist[bfs_index(h)] + 1;
            queue[tail++] = n;
        }
    }
}

static void test_distance_matches_breadth_first_search(void **state)
{
    (void)state;
    static const hex_t starts[] = {{0, 0}, {3, -5}, {-7, 2}, {10, -10}, {-4, -4}};
    int dist[BFS_W * BFS_W];
    for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
        bfs_from(starts[s], dist);
        int seen = 0;
        for (int q = -BFS_R; q <= BFS_R; q++) {
            for (int r = -BFS_R; r <= BFS_R; r++) {
                hex_t h = hex_make(q, r);
                if (hex_length(h) > BFS_R) continue;
                seen++;
                assert_int_equal(dist[bfs_index(h)], hex_distance(starts[s], h));
            }
        }
        assert_int_equal(seen, 1 + 3 * BFS_R * (BFS_R + 1));
    }
}

static void test_distance_hand_vectors(void **state)
{
    (void)state;
    /* (0,0,0) -> (2,1,-3): the s difference, 3, is the largest. */
    assert_int_equal(hex_distance(hex_make(0, 0), hex_make(2, 1)), 3);
    /* (1,-2,1) -> (-3,2,1): dq = 4, dr = 4, ds = 0, so 4. */
    assert_int_equal(hex_distance(hex_make(1, -2), hex_make(-3, 2)), 4);
    /* Along the q axis the distance is just |dq|: (-5,0) -> (4,0) is 9. */
    assert_int_equal(hex_distance(hex_make(-5, 0), hex_make(4, 0)), 9);
    /* A "diagonal" (2,-1,-1) is two steps although no coordinate exceeds 2. */
    assert_int_equal(hex_length(hex_make(2, -1)), 2);
}

/* ---------------------------------------------------------------- rotation */

static void test_rotation_six_times_is_identity(void **state)
{
    (void)state;
    hex_t hs[SWEEP_N];
    sweep(hs);
    for (int i = 0; i < SWEEP_N; i++) {
        hex_t l = hs[i], r = hs[i];
        for (int k = 1; k <= 6; k++) {
            l = hex_rotate_left(l);
            r = hex_rotate_right(r);
            assert_int_equal(hex_length(l), hex_length(hs[i]));
            assert_int_equal(hex_length(r), hex_length(hs[i]));
            /* A non-origin hex only comes back after the full turn. */
            if (k < 6 && hex_length(hs[i]) > 0) {
                assert_false(hex_eq(l, hs[i]));
                assert_false(hex_eq(r, hs[i]));
            }
        }
        assert_hex_eq(l, hs[i]);
        assert_hex_eq(r, hs[i]);
        /* Three turns are a half turn: negation. */
        hex_t h3 = hex_rotate_left(hex_rotate_left(hex_rotate_left(hs[i])));
        assert_hex_eq(h3, hex_scale(hs[i], -1));
    }
}

static void test_rotation_left_right_inverse(void **state)
{
    (void)state;
    hex_t hs[SWEEP_N];
    sweep(hs);
    for (int i = 0; i < SWEEP_N; i++) {
        assert_hex_eq(hex_rotate_left(hex_rotate_right(hs[i])), hs[i]);
        assert_hex_eq(hex_rotate_right(hex_rotate_left(hs[i])), hs[i]);
        /* Rotation is linear, so it preserves distances between any two hexes. */
        hex_t other = hs[(i * 37 + 11) % SWEEP_N];
        assert_int_equal(hex_distance(hex_rotate_left(hs[i]), hex_rotate_left(other)),
                         hex_distance(hs[i], other));
        assert_hex_eq(hex_rotate_left(hex_add(hs[i], other)),
                      hex_add(hex_rotate_left(hs[i]), hex_rotate_left(other)));
    }
    /* Left is the direction order: dir d turns into dir d+1, right into dir d-1. */
    for (int d = 0; d < HEX_DIRS; d++) {
        assert_hex_eq(hex_rotate_left(hex_dir(d)), hex_dir(d + 1));
        assert_hex_eq(hex_rotate_right(hex_dir(d)), hex_dir(d - 1));
    }
    /* Hand-worked: cube (2,-1,-1) turned left is (-s,-q,-r) = (1,-2,1);
     * turned right it is (-r,-s,-q) = (1,1,-2). */
    assert_hex_eq(hex_rotate_left(hex_make(2, -1)), hex_make(1, -2));
    assert_hex_eq(hex_rotate_right(hex_make(2, -1)), hex_make(1, 1));
}

/* ---------------------------------------------------------------- rings and spirals */

static void test_ring_shape(void **state)
{
    (void)state;
    hex_t buf[6 * 12];
    const hex_t centres[] = {{0, 0}, {5, -3}, {-7, 11}};
    for (size_t c = 0; c < sizeof centres / sizeof centres[0]; c++) {
        hex_t ctr = centres[c];
        int n0 = hex_ring(ctr, 0, buf, 1);
        assert_int_equal(n0, 1);
        assert_hex_eq(buf[0], ctr);
        for (int k = 1; k <= 12; k++) {
            int n = hex_ring(ctr, k, buf, (int)(sizeof buf / sizeof buf[0]));
            assert_int_equal(n, 6 * k);
            for (int i = 0; i < n; i++) {
                assert_int_equal(hex_distance(ctr, buf[i]), k);
                /* Each hex touches the next, and the last closes the loop. */
                assert_int_equal(hex_distance(buf[i], buf[(i + 1) % n]), 1);
                assert_int_equal(count_in(buf, n, buf[i]), 1);
            }
        }
    }
    /* Hand-worked: ring 1 starts k steps out in direction 4, (-1,+1), then walks
     * directions 0..5: SW, SE, E, NE, NW, W of the centre. */
    int n = hex_ring(hex_make(0, 0), 1, buf, 6);
    assert_int_equal(n, 6);
    const hex_t want[6] = {{-1, 1}, {0, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, 0}};
    for (int i = 0; i < 6; i++)
        assert_hex_eq(buf[i], want[i]);
}

static void test_spiral_counts_and_covers(void **state)
{
    (void)state;
    enum { KMAX = 9, CAP = 1 + 3 * KMAX * (KMAX + 1) };
    hex_t buf[CAP];
    hex_t ctr = hex_make(-2, 4);
    for (int k = 0; k <= KMAX; k++) {
        int n = hex_spiral(ctr, k, buf, CAP);
        assert_int_equal(n, 1 + 3 * k * (k + 1));
        assert_hex_eq(buf[0], ctr);
        int prev_ring = 0;
        for (int i = 0; i < n; i++) {
            int d = hex_distance(ctr, buf[i]);
            assert_true(d <= k);
            /* Rings come out innermost first. */
            assert_true(d >= prev_ring);
            prev_ring = d;
            assert_int_equal(count_in(buf, n, buf[i]), 1);
        }
        /* Every hex within k of the centre is present (brute force over a box). */
        int within = 0;
        for (int q = -k; q <= k; q++) {
            for (int r = -k; r <= k; r++) {
                hex_t h = hex_add(ctr, hex_make(q, r));
                if (hex_distance(ctr, h) > k) continue;
                within++;
                assert_int_equal(count_in(buf, n, h), 1);
            }
        }
        assert_int_equal(within, n);
    }
}

static void test_ring_spiral_respect_cap(void **state)
{
    (void)state;
    hex_t buf[24];
    const hex_t sentinel = {12345, -12345};
    for (int i = 0; i < 24; i++)
        buf[i] = sentinel;
    /* A short buffer still reports the full count but never writes past cap. */
    assert_int_equal(hex_ring(hex_make(0, 0), 3, buf, 5), 18);
    for (int i = 0; i < 5; i++)
        assert_int_equal(hex_distance(hex_make(0, 0), buf[i]), 3);
    for (int i = 5; i < 24; i++)
        assert_hex_eq(buf[i], sentinel);

    for (int i = 0; i < 24; i++)
        buf[i] = sentinel;
    assert_int_equal(hex_spiral(hex_make(1, 1), 2, buf, 10), 19);
    assert_hex_eq(buf[0], hex_make(1, 1));
    for (int i = 1; i < 7; i++)
        assert_int_equal(hex_distance(hex_make(1, 1), buf[i]), 1);
    for (int i = 7; i < 10; i++)
        assert_int_equal(hex_distance(hex_make(1, 1), buf[i]), 2);
    for (int i = 10; i < 24; i++)
        assert_hex_eq(buf[i], sentinel);
}

/* ---------------------------------------------------------------- cube rounding */

static void test_round_exact_and_perturbed_centres(void **state)
{
    (void)state;
    hex_t hs[SWEEP_N];
    sweep(hs);
    /* Perturbations that keep q+r+s = 0 and stay well inside the hex. */
    static const double wiggle[][2] = {
        {0.0, 0.0}, {0.3, -0.1}, {-0.2, 0.3}, {0.1, 0.25}, {-0.3, 0.1}};
    for (int i = 0; i < SWEEP_N; i++) {
        double q = hs[i].q, r = hs[i].r, s = hex_s(hs[i]);
        assert_hex_eq(hex_round(q, r, s), hs[i]);
        for (size_t w = 0; w < sizeof wiggle / sizeof wiggle[0]; w++) {
            double dq = wiggle[w][0], dr = wiggle[w][1];
            assert_hex_eq(hex_round(q + dq, r + dr, s - dq - dr), hs[i]);
        }
    }
    /* Hand-worked: (0.45, 0.35, -0.8) rounds each to (0, 0, -1), which sums to -1. The q
     * coordinate moved furthest (0.45 vs 0.35 and 0.2), so it is rebuilt as -r-s = 1. */
    assert_hex_eq(hex_round(0.45, 0.35, -0.8), hex_make(1, 0));
    /* (1.2, -0.55, -0.65) rounds to (1, -1, -1); r moved most (0.45), so r = -q-s = 0. */
    assert_hex_eq(hex_round(1.2, -0.55, -0.65), hex_make(1, 0));
    /* (-0.1, -0.6, 0.7) rounds to (0, -1, 1), already valid: kept as is. */
    assert_hex_eq(hex_round(-0.1, -0.6, 0.7), hex_make(0, -1));
}

/* ---------------------------------------------------------------- pixels */

static const double SIZES[] = {1.0, 7.3, 10.0, 23.75, 64.0, 101.1};
#define N_SIZES (sizeof SIZES / sizeof SIZES[0])

static void test_pixel_round_trip(void **state)
{
    (void)state;
    hex_t hs[SWEEP_N];
    sweep(hs);
    for (int o = 0; o < 2; o++) {
        for (size_t z = 0; z < N_SIZES; z++) {
            for (int i = 0; i < SWEEP_N; i++) {
                vec2_t p = hex_to_pixel((hex_orient_t)o, SIZES[z], hs[i]);
                assert_hex_eq(hex_from_pixel((hex_orient_t)o, SIZES[z], p), hs[i]);
            }
        }
    }
}

static void test_pixel_near_centre_maps_back(void **state)
{
    (void)state;
    hex_t hs[SWEEP_N];
    sweep(hs);
    static const double fractions[] = {0.1, 0.45, 0.8};
    for (int o = 0; o < 2; o++) {
        for (size_t z = 0; z < N_SIZES; z++) {
            double size = SIZES[z];
            double inner = size * SQRT3 / 2.0;
            for (int i = 0; i < SWEEP_N; i += 3) {
                vec2_t c = hex_to_pixel((hex_orient_t)o, size, hs[i]);
                for (int deg = 0; deg < 360; deg += 15) {
                    double a = deg * PI / 180.0;
                    for (size_t f = 0; f < sizeof fractions / sizeof fractions[0]; f++) {
                        double rad = fractions[f] * inner;
                        vec2_t p = {c.x + rad * cos(a), c.y + rad * sin(a)};
                        assert_hex_eq(hex_from_pixel((hex_orient_t)o, size, p), hs[i]);
                    }
                }
                /* Just past an edge midpoint, towards a neighbour, lies the neighbour. */
                for (int d = 0; d < HEX_DIRS; d++) {
                    hex_t n = hex_neighbor(hs[i], d);
                    vec2_t cn = hex_to_pixel((hex_orient_t)o, size, n);
                    vec2_t p = {c.x + 0.6 * (cn.x - c.x), c.y + 0.6 * (cn.y - c.y)};
                    assert_hex_eq(hex_from_pixel((hex_orient_t)o, size, p), n);
                }
            }
        }
    }
}

static void test_pixel_hand_vectors(void **state)
{
    (void)state;
    /* Pointy, size 10: q steps sqrt(3)*10 = 17.3205 to the right; r steps half that right
     * and 1.5*10 = 15 down. So (1,0) -> (17.3205, 0) and (0,1) -> (8.66025, 15). */
    vec2_t p = hex_to_pixel(HEX_POINTY, 10.0, hex_make(1, 0));
    assert_near(p.x, 17.320508, 1e-5);
    assert_near(p.y, 0.0, 1e-9);
    p = hex_to_pixel(HEX_POINTY, 10.0, hex_make(0, 1));
    assert_near(p.x, 8.660254, 1e-5);
    assert_near(p.y, 15.0, 1e-9);
    /* (2,-1) pointy: x = 10*(2*1.73205 - 0.866025) = 25.9808, y = -15. */
    p = hex_to_pixel(HEX_POINTY, 10.0, hex_make(2, -1));
    assert_near(p.x, 25.980762, 1e-5);
    assert_near(p.y, -15.0, 1e-9);
    /* Flat, size 10: q steps 15 right and 8.66025 down; r steps 17.3205 straight down. */
    p = hex_to_pixel(HEX_FLAT, 10.0, hex_make(1, 0));
    assert_near(p.x, 15.0, 1e-9);
    assert_near(p.y, 8.660254, 1e-5);
    p = hex_to_pixel(HEX_FLAT, 10.0, hex_make(0, 1));
    assert_near(p.x, 0.0, 1e-9);
    assert_near(p.y, 17.320508, 1e-5);
    /* The origin hex is centred on the pixel origin in both orientations. */
    p = hex_to_pixel(HEX_FLAT, 64.0, hex_make(0, 0));
    assert_near(p.x, 0.0, 1e-12);
    assert_near(p.y, 0.0, 1e-12);
    /* Pointy, size 10: pixel (30, 1) is 1.3 hexes right of the origin row; nearest centre
     * is (2,0) at x = 34.64 (dist 4.7) rather than (1,0) at 17.32 (dist 12.7). */
    assert_hex_eq(hex_from_pixel(HEX_POINTY, 10.0, (vec2_t){30.0, 1.0}), hex_make(2, 0));
}

static void test_direction_angles_on_screen(void **state)
{
    (void)state;
    /* Screen y points down, so counter-clockwise on screen means the angle atan2(y, x)
     * decreases by 60 degrees per direction: pointy starts due east (0 deg), flat starts
     * south-east (+30 deg), as hex.h promises. */
    for (int o = 0; o < 2; o++) {
        double start = o == HEX_POINTY ? 0.0 : 30.0;
        for (int d = 0; d < HEX_DIRS; d++) {
            vec2_t p = hex_to_pixel((hex_orient_t)o, 1.0, hex_dir(d));
            double deg = atan2(p.y, p.x) * 180.0 / PI;
            double want = start - 60.0 * d;
            double diff = fmod(deg - want + 720.0, 360.0);
            if (diff > 180.0) diff -= 360.0;
            assert_near(diff, 0.0, 1e-9);
            /* Neighbour centres are two inner radii apart: sqrt(3) * size. */
            assert_near(hypot(p.x, p.y), SQRT3, 1e-12);
        }
    }
}

static void test_corners_and_spacing(void **state)
{
    (void)state;
    for (int o = 0; o < 2; o++) {
        for (size_t z = 0; z < N_SIZES; z++) {
            double size = SIZES[z];
            for (int i = 0; i < 6; i++) {
                vec2_t c = hex_corner((hex_orient_t)o, size, i);
                vec2_t nx = hex_corner((hex_orient_t)o, size, (i + 1) % 6);
                assert_near(hypot(c.x, c.y), size, 1e-9 * size);
                /* A regular hexagon's side equals its circumradius. */
                assert_near(hypot(nx.x - c.x, nx.y - c.y), size, 1e-9 * size);
            }
            /* Each neighbour shares exactly one edge: two corners of the origin hex are
             * also corners of the neighbour, i.e. at distance size from its centre. */
            for (int d = 0; d < HEX_DIRS; d++) {
                vec2_t cn = hex_to_pixel((hex_orient_t)o, size, hex_dir(d));
                int shared = 0;
                for (int i = 0; i < 6; i++) {
                    vec2_t c = hex_corner((hex_orient_t)o, size, i);
                    if (fabs(hypot(cn.x - c.x, cn.y - c.y) - size) < 1e-9 * size) shared++;
                }
                assert_int_equal(shared, 2);
            }
            /* Spacing is the centre step along a row (pointy) / column (flat) and the
             * step from one row / column to the next. */
            vec2_t sp = hex_spacing((hex_orient_t)o, size);
            vec2_t a = hex_to_pixel((hex_orient_t)o, size, hex_make(0, 0));
            if (o == HEX_POINTY) {
                vec2_t b = hex_to_pixel(HEX_POINTY, size, hex_make(1, 0));
                vec2_t c = hex_to_pixel(HEX_POINTY, size, hex_make(0, 1));
                assert_near(sp.x, b.x - a.x, 1e-9 * size);
                assert_near(sp.y, c.y - a.y, 1e-9 * size);
            } else {
                vec2_t b = hex_to_pixel(HEX_FLAT, size, hex_make(1, 0));
                vec2_t c = hex_to_pixel(HEX_FLAT, size, hex_make(0, 1));
                assert_near(sp.x, b.x - a.x, 1e-9 * size);
                assert_near(sp.y, c.y - a.y, 1e-9 * size);
            }
        }
    }
    /* Hand-worked: pointy corner 0 is at -30 deg: (size*cos30, -size/2); corner 2 is at
     * 90 deg, straight below the centre on screen. Flat corner 0 is due east. */
    vec2_t c0 = hex_corner(HEX_POINTY, 10.0, 0);
    assert_near(c0.x, 8.660254, 1e-5);
    assert_near(c0.y, -5.0, 1e-9);
    vec2_t c2 = hex_corner(HEX_POINTY, 10.0, 2);
    assert_near(c2.x, 0.0, 1e-9);
    assert_near(c2.y, 10.0, 1e-9);
    vec2_t f0 = hex_corner(HEX_FLAT, 10.0, 0);
    assert_near(f0.x, 10.0, 1e-9);
    assert_near(f0.y, 0.0, 1e-9);
    /* Pointy spacing at size 64: sqrt(3)*64 = 110.851 across, 96 down. */
    vec2_t sp = hex_spacing(HEX_POINTY, 64.0);
    assert_near(sp.x, 110.851252, 1e-5);
    assert_near(sp.y, 96.0, 1e-9);
    sp = hex_spacing(HEX_FLAT, 64.0);
    assert_near(sp.x, 96.0, 1e-9);
    assert_near(sp.y, 110.851252, 1e-5);
}

/* ---------------------------------------------------------------- offset cells */

static void test_offset_round_trip_all_layouts(void **state)
{
    (void)state;
    hex_t hs[SWEEP_N];
    sweep(hs);
    for (int l = 0; l < 4; l++) {
        for (int col = -11; col <= 11; col++) {
            for (int row = -11; row <= 11; row++) {
                cell_t c = {col, row};
                hex_t h = hex_from_cell(LAYOUTS[l], c);
                cell_t back = hex_to_cell(LAYOUTS[l], h);
                if (back.col != col || back.row != row)
                    fail_msg("%s: [%d,%d] -> (%d,%d) -> [%d,%d]", LAYOUT_NAMES[l], col, row, h.q,
                             h.r, back.col, back.row);
            }
        }
        for (int i = 0; i < SWEEP_N; i++)
            assert_hex_eq(hex_from_cell(LAYOUTS[l], hex_to_cell(LAYOUTS[l], hs[i])), hs[i]);
    }
}

static void test_offset_unshoved_line_is_axial(void **state)
{
    (void)state;
    /* Row 0 (pointy) / column 0 (flat) is never shoved in either stagger, so there the
     * cell and the axial hex coincide; the other axis keeps its value everywhere. */
    for (int i = -9; i <= 9; i++) {
        for (int l = 0; l < 4; l++) {
            if (LAYOUTS[l].orient == HEX_POINTY) {
                assert_hex_eq(hex_from_cell(LAYOUTS[l], (cell_t){i, 0}), hex_make(i, 0));
                assert_int_equal(hex_from_cell(LAYOUTS[l], (cell_t){3, i}).r, i);
            } else {
                assert_hex_eq(hex_from_cell(LAYOUTS[l], (cell_t){0, i}), hex_make(0, i));
                assert_int_equal(hex_from_cell(LAYOUTS[l], (cell_t){i, 3}).q, i);
            }
        }
    }
    /* Hand-worked negatives, pointy odd: row -1 is odd, q = col - (row - 1)/2 = col + 1,
     * so [0,-1] -> (1,-1); row -3: q = col - (-4)/2 = col + 2, so [2,-3] -> (4,-3). */
    assert_hex_eq(hex_from_cell(LAYOUTS[0], (cell_t){0, -1}), hex_make(1, -1));
    assert_hex_eq(hex_from_cell(LAYOUTS[0], (cell_t){2, -3}), hex_make(4, -3));
    /* Pointy even, row -1: q = col - (row + 1)/2 = col, so [0,-1] -> (0,-1). */
    assert_hex_eq(hex_from_cell(LAYOUTS[1], (cell_t){0, -1}), hex_make(0, -1));
    /* Flat odd, col 5: r = row - (5 - 1)/2 = row - 2, so [5,4] -> (5,2). */
    assert_hex_eq(hex_from_cell(LAYOUTS[2], (cell_t){5, 4}), hex_make(5, 2));
    /* Flat even, col 5: r = row - (5 + 1)/2 = row - 3, so [5,4] -> (5,1). */
    assert_hex_eq(hex_from_cell(LAYOUTS[3], (cell_t){5, 4}), hex_make(5, 1));
}

/* Offset neighbour deltas [dcol, drow] in axial direction order (E, NE, NW, W, SW, SE for
 * pointy; SE, NE, N, NW, SW, S for flat), indexed by the parity of the staggered
 * coordinate. These are Red Blob Games' offset neighbour tables, worked out by hand. */
static const int OFFSET_NEIGHBOURS[4][2][6][2] = {
    /* pointy odd ("odd-r"): odd rows sit half a hex to the right */
    {{{+1, 0}, {0, -1}, {-1, -1}, {-1, 0}, {-1, +1}, {0, +1}},
     {{+1, 0}, {+1, -1}, {0, -1}, {-1, 0}, {0, +1}, {+1, +1}}},
    /* pointy even ("even-r"): even rows sit half a hex to the right */
    {{{+1, 0}, {+1, -1}, {0, -1}, {-1, 0}, {0, +1}, {+1, +1}},
     {{+1, 0}, {0, -1}, {-1, -1}, {-1, 0}, {-1, +1}, {0, +1}}},
    /* flat odd ("odd-q"): odd columns sit half a hex lower */
    {{{+1, 0}, {+1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {0, +1}},
     {{+1, +1}, {+1, 0}, {0, -1}, {-1, 0}, {-1, +1}, {0, +1}}},
    /* flat even ("even-q"): even columns sit half a hex lower */
    {{{+1, +1}, {+1, 0}, {0, -1}, {-1, 0}, {-1, +1}, {0, +1}},
     {{+1, 0}, {+1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {0, +1}}},
};

static cell_t cell_neighbour(hex_layout_t lay, cell_t c, int d)
{
    return hex_to_cell(lay, hex_neighbor(hex_from_cell(lay, c), d));
}

static void test_offset_pointy_odd_cell_0_1(void **state)
{
    (void)state;
    /* Pointy odd, cell [0,1]: row 1 is shoved right, so its upper neighbours are [0,0]
     * (up-left) and [1,0] (up-right), its lower ones [0,2] and [1,2], plus [1,1] east and
     * [-1,1] west. Via axial: [0,1] -> (0,1); E (1,1) -> [1,1]; NE (1,0) -> [1,0];
     * NW (0,0) -> [0,0]; W (-1,1) -> [-1,1]; SW (-1,2) -> [0,2]; SE (0,2) -> [1,2]. */
    const cell_t want[6] = {{1, 1}, {1, 0}, {0, 0}, {-1, 1}, {0, 2}, {1, 2}};
    cell_t c = {0, 1};
    assert_hex_eq(hex_from_cell(LAYOUTS[0], c), hex_make(0, 1));
    for (int d = 0; d < HEX_DIRS; d++)
        assert_cell_eq(cell_neighbour(LAYOUTS[0], c, d), want[d]);
    /* The same cell in pointy even is not shoved, so its upper neighbours lean left. */
    const cell_t want_even[6] = {{1, 1}, {0, 0}, {-1, 0}, {-1, 1}, {-1, 2}, {0, 2}};
    for (int d = 0; d < HEX_DIRS; d++)
        assert_cell_eq(cell_neighbour(LAYOUTS[1], c, d), want_even[d]);
}

static void test_offset_neighbours_of_2_2(void **state)
{
    (void)state;
    /* Cell [2,2] is even in both coordinates, so every layout uses its "even" table row.
     * Written out as absolute cells so the test reads like the reference picture:
     *   pointy odd:  row 2 unshoved, row 1 shoved right -> up-left [1,1], up-right [2,1].
     *   pointy even: row 2 shoved right                 -> up-left [2,1], up-right [3,1].
     *   flat odd:    col 2 unshoved, col 1/3 lower      -> NE [3,1], SE [3,2].
     *   flat even:   col 2 shoved down                  -> NE [3,2], SE [3,3]. */
    const cell_t want[4][6] = {
        {{3, 2}, {2, 1}, {1, 1}, {1, 2}, {1, 3}, {2, 3}},
        {{3, 2}, {3, 1}, {2, 1}, {1, 2}, {2, 3}, {3, 3}},
        {{3, 2}, {3, 1}, {2, 1}, {1, 1}, {1, 2}, {2, 3}},
        {{3, 3}, {3, 2}, {2, 1}, {1, 2}, {1, 3}, {2, 3}},
    };
    cell_t c = {2, 2};
    for (int l = 0; l < 4; l++) {
        for (int d = 0; d < HEX_DIRS; d++) {
            cell_t got = cell_neighbour(LAYOUTS[l], c, d);
            if (got.col != want[l][d].col || got.row != want[l][d].row)
                fail_msg("%s dir %d: [%d,%d], expected [%d,%d]", LAYOUT_NAMES[l], d, got.col,
                         got.row, want[l][d].col, want[l][d].row);
            /* Cross-check the absolute list against the delta table. */
            assert_int_equal(want[l][d].col - 2, OFFSET_NEIGHBOURS[l][0][d][0]);
            assert_int_equal(want[l][d].row - 2, OFFSET_NEIGHBOURS[l][0][d][1]);
        }
    }
}

static void test_offset_neighbour_tables_over_grid(void **state)
{
    (void)state;
    /* The delta depends only on the parity of the staggered coordinate, also for
     * negative cells, where a careless (n % 2) would flip sign. */
    for (int l = 0; l < 4; l++) {
        for (int col = -7; col <= 7; col++) {
            for (int row = -7; row <= 7; row++) {
                cell_t c = {col, row};
                int key = LAYOUTS[l].orient == HEX_POINTY ? row : col;
                int parity = key & 1;
                for (int d = 0; d < HEX_DIRS; d++) {
                    cell_t got = cell_neighbour(LAYOUTS[l], c, d);
                    int dc = got.col - col, dr = got.row - row;
                    if (dc != OFFSET_NEIGHBOURS[l][parity][d][0] ||
                        dr != OFFSET_NEIGHBOURS[l][parity][d][1])
                        fail_msg("%s [%d,%d] dir %d: delta [%d,%d], expected [%d,%d]",
                                 LAYOUT_NAMES[l], col, row, d, dc, dr,
                                 OFFSET_NEIGHBOURS[l][parity][d][0],
                                 OFFSET_NEIGHBOURS[l][parity][d][1]);
                }
            }
        }
    }
}

static void test_offset_distance_depends_on_stagger(void **state)
{
    (void)state;
    /* Cells [0,0] and [1,1]. Pointy odd: [1,1] -> (1,1), cube (1,1,-2): distance 2.
     * Pointy even: [1,1] -> (1 - 1, 1) = (0,1): distance 1 (it is the SE neighbour). */
    cell_t a = {0, 0}, b = {1, 1};
    assert_int_equal(hex_distance(hex_from_cell(LAYOUTS[0], a), hex_from_cell(LAYOUTS[0], b)), 2);
    assert_int_equal(hex_distance(hex_from_cell(LAYOUTS[1], a), hex_from_cell(LAYOUTS[1], b)), 1);
    /* Pointy odd, [3,4] -> (3 - 2, 4) = (1,4), cube (1,4,-5): 5 hexes from [0,0]. */
    assert_int_equal(
        hex_distance(hex_from_cell(LAYOUTS[0], a), hex_from_cell(LAYOUTS[0], (cell_t){3, 4})), 5);
    /* Flat odd, [4,1] -> (4, 1 - 2) = (4,-1), cube (4,-1,-3): 4 hexes from [0,0]. */
    assert_int_equal(
        hex_distance(hex_from_cell(LAYOUTS[2], a), hex_from_cell(LAYOUTS[2], (cell_t){4, 1})), 4);
}

/* ---------------------------------------------------------------- lines */

/* Random lines span [-40,40] per axis, so at most 160 steps long. */
#define LINE_CAP 256

static void check_line_shape(hex_t a, hex_t b, hex_nudge_t nudge)
{
    hex_t line[LINE_CAP];
    int n = hex_line(a, b, nudge, line, LINE_CAP);
    int dist = hex_distance(a, b);
    assert_true(dist < LINE_CAP);
    assert_int_equal(n, dist + 1);
    assert_hex_eq(line[0], a);
    assert_hex_eq(line[n - 1], b);
    for (int i = 0; i < n; i++) {
        /* Steps of one with a total of dist steps force every hex onto a shortest path. */
        assert_int_equal(hex_distance(a, line[i]), i);
        assert_int_equal(hex_distance(line[i], b), dist - i);
        if (i > 0) assert_int_equal(hex_distance(line[i - 1], line[i]), 1);
    }
}

static void test_line_properties(void **state)
{
    (void)state;
    hex_t hs[SWEEP_N];
    sweep(hs);
    /* From a few origins to every hex of the sweep, then random long lines. */
    const hex_t from[] = {{0, 0}, {2, -5}, {-3, 1}};
    for (size_t f = 0; f < sizeof from / sizeof from[0]; f++) {
        for (int i = 0; i < SWEEP_N; i++) {
            check_line_shape(from[f], hs[i], HEX_NUDGE_PLUS);
            check_line_shape(from[f], hs[i], HEX_NUDGE_MINUS);
        }
    }
    uint32_t seed = 777u;
    for (int k = 0; k < 2000; k++) {
        hex_t a = random_hex(&seed, 40), b = random_hex(&seed, 40);
        check_line_shape(a, b, HEX_NUDGE_PLUS);
        check_line_shape(a, b, HEX_NUDGE_MINUS);
    }
}

/* sight.c keeps one table of steps per delta for lines of up to 48 hexes,
 * relying on a line's hexes minus its start depending only on the delta
 * (the nudge keeps every rounding clear of a tie). Check that for every such
 * delta and both nudges, from origins of both signs and far from 0. */
static void test_line_depends_only_on_delta(void **state)
{
    (void)state;
    const hex_t from[] = {{7, -3}, {-5, 11}, {1000, -2000}, {-1023, 1023}};
    hex_t o[LINE_CAP], l[LINE_CAP];
    int parts = 0;
    for (int dq = -48; dq <= 48; dq++)
        for (int dr = -48; dr <= 48; dr++) {
            hex_t d = hex_make(dq, dr);
            if (hex_length(d) > 48) continue;
            for (int nudge = -1; nudge <= 1; nudge += 2) {
                int n = hex_line(hex_make(0, 0), d, (hex_nudge_t)nudge, o, LINE_CAP);
                for (size_t f = 0; f < sizeof from / sizeof from[0]; f++) {
                    assert_int_equal(hex_line(from[f], hex_add(from[f], d), (hex_nudge_t)nudge, l,
                                              LINE_CAP),
                                     n);
                    for (int i = 0; i < n; i++)
                        if (!hex_eq(hex_sub(l[i], from[f]), o[i]))
                            fail_msg("delta (%d,%d) nudge %d from (%d,%d): hex %d differs", dq, dr,
                                     nudge, from[f].q, from[f].r, i);
                }
                if (nudge > 0) {
                    hex_t m[LINE_CAP];
                    hex_line(hex_make(0, 0), d, HEX_NUDGE_MINUS, m, LINE_CAP);
                    parts += memcmp(o, m, sizeof o[0] * (size_t)n) != 0;
                }
            }
        }
    /* Many deltas must have lines that part along an edge. */
    assert_true(parts > 1000);
}

static void test_line_to_itself(void **state)
{
    (void)state;
    const hex_t sentinel = {999, 999};
    hex_t line[3] = {sentinel, sentinel, sentinel};
    hex_t h = hex_make(4, -7);
    assert_int_equal(hex_line(h, h, HEX_NUDGE_PLUS, line, 3), 1);
    assert_hex_eq(line[0], h);
    assert_hex_eq(line[1], sentinel);
    assert_int_equal(hex_line(h, h, HEX_NUDGE_MINUS, line, 3), 1);
    assert_hex_eq(line[0], h);
    assert_hex_eq(line[1], sentinel);
}

static void expect_line(hex_t a, hex_t b, hex_nudge_t nudge, const hex_t *want, int n_want)
{
    hex_t line[LINE_CAP];
    int n = hex_line(a, b, nudge, line, LINE_CAP);
    assert_int_equal(n, n_want);
    for (int i = 0; i < n; i++) {
        if (!hex_eq(line[i], want[i]))
            fail_msg("line (%d,%d)->(%d,%d) nudge %d: hex %d is (%d,%d), expected (%d,%d)", a.q,
                     a.r, b.q, b.r, (int)nudge, i, line[i].q, line[i].r, want[i].q, want[i].r);
    }
}

static void test_line_hand_vectors(void **state)
{
    (void)state;
    /* Straight along +q: only q changes, one hex per step. */
    const hex_t east[] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    expect_line(hex_make(0, 0), hex_make(3, 0), HEX_NUDGE_PLUS, east, 4);
    expect_line(hex_make(0, 0), hex_make(3, 0), HEX_NUDGE_MINUS, east, 4);
    /* Straight along -r from (2,1): (2,1) (2,0) (2,-1). */
    const hex_t north[] = {{2, 1}, {2, 0}, {2, -1}};
    expect_line(hex_make(2, 1), hex_make(2, -1), HEX_NUDGE_PLUS, north, 3);
    expect_line(hex_make(2, 1), hex_make(2, -1), HEX_NUDGE_MINUS, north, 3);
    /* (0,0) -> (2,1), cube (2,1,-3), N = 3. t=1/3: (0.67,0.33,-1) -> (1,0,-1);
     * t=2/3: (1.33,0.67,-2) -> (1,1,-2). No coordinate near .5, so both nudges agree. */
    const hex_t slant[] = {{0, 0}, {1, 0}, {1, 1}, {2, 1}};
    expect_line(hex_make(0, 0), hex_make(2, 1), HEX_NUDGE_PLUS, slant, 4);
    expect_line(hex_make(0, 0), hex_make(2, 1), HEX_NUDGE_MINUS, slant, 4);
    /* (0,0) -> (3,-2), cube (3,-2,-1), N = 3. t=1/3: (1,-0.67,-0.33) -> (1,-1,0);
     * t=2/3: (2,-1.33,-0.67) -> (2,-1,-1). */
    const hex_t slant2[] = {{0, 0}, {1, -1}, {2, -1}, {3, -2}};
    expect_line(hex_make(0, 0), hex_make(3, -2), HEX_NUDGE_PLUS, slant2, 4);
    expect_line(hex_make(0, 0), hex_make(3, -2), HEX_NUDGE_MINUS, slant2, 4);
    /* Long shallow line (0,0) -> (5,-1), cube (5,-1,-4), N = 5: r crosses -0.5 between
     * t=0.4 (r=-0.4 -> 0) and t=0.6 (r=-0.6 -> -1). Hexes: (0,0) (1,0) (2,0) (3,-1)
     * (4,-1) (5,-1). */
    const hex_t shallow[] = {{0, 0}, {1, 0}, {2, 0}, {3, -1}, {4, -1}, {5, -1}};
    expect_line(hex_make(0, 0), hex_make(5, -1), HEX_NUDGE_PLUS, shallow, 6);
    expect_line(hex_make(0, 0), hex_make(5, -1), HEX_NUDGE_MINUS, shallow, 6);
}

static void test_line_along_edge_nudges_differ(void **state)
{
    (void)state;
    /* (0,0) -> (2,-1), cube (2,-1,-1): the midpoint (1,-0.5,-0.5) lies on the edge between
     * (1,0) and (1,-1). e = (1e-6, 2e-6, -3e-6).
     *   +e: (1, -0.499998, -0.500003) rounds to (1, 0, -1); r moved most, r = -q-s = 0,
     *       giving (1,0).
     *   -e: (1, -0.500002, -0.499997) rounds to (1, -1, 0); r moved most, r = -q-s = -1,
     *       giving (1,-1). */
    const hex_t plus_a[] = {{0, 0}, {1, 0}, {2, -1}};
    const hex_t minus_a[] = {{0, 0}, {1, -1}, {2, -1}};
    expect_line(hex_make(0, 0), hex_make(2, -1), HEX_NUDGE_PLUS, plus_a, 3);
    expect_line(hex_make(0, 0), hex_make(2, -1), HEX_NUDGE_MINUS, minus_a, 3);

    /* (0,0) -> (1,1), cube (1,1,-2): midpoint (0.5,0.5,-1), on the edge between (1,0)
     * and (0,1).
     *   +e: (0.500001, 0.500002, -1.000003) rounds to (1, 1, -1); q moved most (0.499999),
     *       q = -r-s = 0, giving (0,1).
     *   -e: (0.499999, 0.499998, -0.999997) rounds to (0, 0, -1); q moved most, q = 1,
     *       giving (1,0). */
    const hex_t plus_b[] = {{0, 0}, {0, 1}, {1, 1}};
    const hex_t minus_b[] = {{0, 0}, {1, 0}, {1, 1}};
    expect_line(hex_make(0, 0), hex_make(1, 1), HEX_NUDGE_PLUS, plus_b, 3);
    expect_line(hex_make(0, 0), hex_make(1, 1), HEX_NUDGE_MINUS, minus_b, 3);

    /* (0,0) -> (4,-2) runs along edges twice: at t=1/4 like the first case, and at t=3/4
     * at (3,-1.5,-1.5), where +e rounds r to -1 (giving (3,-1)) and -e rounds r to -2
     * (giving (3,-2)). The centre hex (2,-1) is on both lines. */
    const hex_t plus_c[] = {{0, 0}, {1, 0}, {2, -1}, {3, -1}, {4, -2}};
    const hex_t minus_c[] = {{0, 0}, {1, -1}, {2, -1}, {3, -2}, {4, -2}};
    expect_line(hex_make(0, 0), hex_make(4, -2), HEX_NUDGE_PLUS, plus_c, 5);
    expect_line(hex_make(0, 0), hex_make(4, -2), HEX_NUDGE_MINUS, minus_c, 5);
}

static void test_line_edge_diagonals_all_directions(void **state)
{
    (void)state;
    /* The six "diagonals" (2,-1) rotated each run along an edge: the two nudges must pick
     * the two different hexes that straddle the edge, both adjacent to both ends. */
    hex_t diag = hex_make(2, -1);
    const hex_t base = hex_make(-3, 5);
    for (int k = 0; k < 6; k++, diag = hex_rotate_left(diag)) {
        hex_t b = hex_add(base, diag);
        hex_t p[3], m[3];
        assert_int_equal(hex_line(base, b, HEX_NUDGE_PLUS, p, 3), 3);
        assert_int_equal(hex_line(base, b, HEX_NUDGE_MINUS, m, 3), 3);
        assert_false(hex_eq(p[1], m[1]));
        assert_int_equal(hex_distance(p[1], m[1]), 1);
        assert_int_equal(hex_distance(base, p[1]), 1);
        assert_int_equal(hex_distance(base, m[1]), 1);
        assert_int_equal(hex_distance(b, p[1]), 1);
        assert_int_equal(hex_distance(b, m[1]), 1);
    }
}

/* True when some cube coordinate of the un-nudged lerp at step i sits exactly on .5,
 * i.e. the exact line passes along a hex edge there. */
static bool lerp_on_edge(hex_t a, hex_t b, int i, int n)
{
    double t = (double)i / n;
    double c[3] = {a.q + (b.q - a.q) * t, a.r + (b.r - a.r) * t,
                   hex_s(a) + (hex_s(b) - hex_s(a)) * t};
    int halves = 0;
    for (int k = 0; k < 3; k++) {
        double frac = c[k] - floor(c[k]);
        halves += fabs(frac - 0.5) < 1e-9;
    }
    return halves >= 2;
}

static void test_line_nudges_differ_only_on_edges(void **state)
{
    (void)state;
    uint32_t seed = 4242u;
    int edge_lines = 0, plain_lines = 0;
    for (int k = 0; k < 4000; k++) {
        hex_t a = random_hex(&seed, 12), b = random_hex(&seed, 12);
        hex_t p[LINE_CAP], m[LINE_CAP], rev[LINE_CAP];
        int n = hex_line(a, b, HEX_NUDGE_PLUS, p, LINE_CAP);
        assert_int_equal(hex_line(a, b, HEX_NUDGE_MINUS, m, LINE_CAP), n);
        bool differ = false;
        for (int i = 0; i < n; i++) {
            if (!hex_eq(p[i], m[i])) {
                differ = true;
                assert_true(lerp_on_edge(a, b, i, n - 1));
            }
        }
        if (differ) {
            edge_lines++;
            continue;
        }
        plain_lines++;
        /* Off the edges the line is a property of the pair, not of the direction. */
        assert_int_equal(hex_line(b, a, HEX_NUDGE_PLUS, rev, LINE_CAP), n);
        for (int i = 0; i < n; i++)
            assert_hex_eq(rev[i], p[n - 1 - i]);
        assert_int_equal(hex_line(b, a, HEX_NUDGE_MINUS, rev, LINE_CAP), n);
        for (int i = 0; i < n; i++)
            assert_hex_eq(rev[i], p[n - 1 - i]);
    }
    /* The random set must exercise both kinds, or the checks above prove nothing. */
    assert_true(edge_lines > 0);
    assert_true(plain_lines > 100);
}

static void test_line_reversed_along_edge_keeps_nudge_side(void **state)
{
    (void)state;
    /* Both ends move by the same e, so b->a with +e is the same set of points as a->b
     * with +e, walked backwards: the nudged line depends on the nudge, not the direction.
     * Hence (2,-1)->(0,0) with +e still passes (1,0), as worked out above. */
    const hex_t plus_rev[] = {{2, -1}, {1, 0}, {0, 0}};
    const hex_t minus_rev[] = {{2, -1}, {1, -1}, {0, 0}};
    expect_line(hex_make(2, -1), hex_make(0, 0), HEX_NUDGE_PLUS, plus_rev, 3);
    expect_line(hex_make(2, -1), hex_make(0, 0), HEX_NUDGE_MINUS, minus_rev, 3);
}

static void test_line_respects_cap(void **state)
{
    (void)state;
    const hex_t sentinel = {-777, 777};
    hex_t line[10];
    for (int i = 0; i < 10; i++)
        line[i] = sentinel;
    /* Distance 6, so 7 hexes exist; only 4 may be written. */
    assert_int_equal(hex_line(hex_make(0, 0), hex_make(6, -3), HEX_NUDGE_PLUS, line, 4), 7);
    assert_hex_eq(line[0], hex_make(0, 0));
    for (int i = 1; i < 4; i++)
        assert_int_equal(hex_distance(hex_make(0, 0), line[i]), i);
    for (int i = 4; i < 10; i++)
        assert_hex_eq(line[i], sentinel);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directions_are_six_distinct_units),
        cmocka_unit_test(test_neighbours_are_at_distance_one),
        cmocka_unit_test(test_distance_symmetric_and_triangle),
        cmocka_unit_test(test_distance_matches_breadth_first_search),
        cmocka_unit_test(test_distance_hand_vectors),
        cmocka_unit_test(test_rotation_six_times_is_identity),
        cmocka_unit_test(test_rotation_left_right_inverse),
        cmocka_unit_test(test_ring_shape),
        cmocka_unit_test(test_spiral_counts_and_covers),
        cmocka_unit_test(test_ring_spiral_respect_cap),
        cmocka_unit_test(test_round_exact_and_perturbed_centres),
        cmocka_unit_test(test_pixel_round_trip),
        cmocka_unit_test(test_pixel_near_centre_maps_back),
        cmocka_unit_test(test_pixel_hand_vectors),
        cmocka_unit_test(test_direction_angles_on_screen),
        cmocka_unit_test(test_corners_and_spacing),
        cmocka_unit_test(test_offset_round_trip_all_layouts),
        cmocka_unit_test(test_offset_unshoved_line_is_axial),
        cmocka_unit_test(test_offset_pointy_odd_cell_0_1),
        cmocka_unit_test(test_offset_neighbours_of_2_2),
        cmocka_unit_test(test_offset_neighbour_tables_over_grid),
        cmocka_unit_test(test_offset_distance_depends_on_stagger),
        cmocka_unit_test(test_line_properties),
        cmocka_unit_test(test_line_to_itself),
        cmocka_unit_test(test_line_depends_only_on_delta),
        cmocka_unit_test(test_line_hand_vectors),
        cmocka_unit_test(test_line_along_edge_nudges_differ),
        cmocka_unit_test(test_line_edge_diagonals_all_directions),
        cmocka_unit_test(test_line_nudges_differ_only_on_edges),
        cmocka_unit_test(test_line_reversed_along_edge_keeps_nudge_side),
        cmocka_unit_test(test_line_respects_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
