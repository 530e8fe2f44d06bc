/* test_sight.c - line of sight and cover (core/sight.h, RULINGS "Geometry").
 *
 * Offset cells to axial, as used in the comments:
 *   pointy/odd: (q, r) = (col - (row - (row & 1)) / 2, row)
 *   flat/even:  (q, r) = (col, row - (col + (col & 1)) / 2)
 * A line between two hexes at distance 2 that are not in one hex row passes
 * exactly along the edge between two "straddling" hexes; the +e nudged line
 * takes one of them and the -e line the other, and either may block.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/sight.h"
#include "map_fixture.h"

/* Legend: . open  , brush (light)  ^ rubble (heavy)  ~ water (no cover)
 *         # wall (blocks, total)  f fog (blocks sight, yet no cover of its own). */
static map_t *make_map(hex_layout_t lay, int cols, int rows, const char *const *text)
{
    return fx_map(lay, cols, rows, ".,^~#f", text);
}

static void add_unit(map_t *m, const char *id, const char *faction, int col, int row)
{
    fx_add_unit(m, id, faction, col, row);
}

static const hex_layout_t POINTY_ODD = {HEX_POINTY, HEX_ODD};
static const hex_layout_t FLAT_EVEN = {HEX_FLAT, HEX_EVEN};

/* Sight between two offset cells of board b. */
static sight_t look(const board_t *b, int c0, int r0, int c1, int r1)
{
    hex_layout_t lay = b->map->layout;
    return sight_trace(b, hex_from_cell(lay, (cell_t){c0, r0}), hex_from_cell(lay, (cell_t){c1, r1}));
}

static bool clear(const board_t *b, int c0, int r0, int c1, int r1)
{
    hex_layout_t lay = b->map->layout;
    return sight_clear(b, hex_from_cell(lay, (cell_t){c0, r0}), hex_from_cell(lay, (cell_t){c1, r1}));
}

#define assert_sight(s, vis, cov, n)                                                               \
    do {                                                                                           \
        sight_t s_ = (s);                                                                          \
        if (s_.visible != (vis) || s_.cover != (cov) || s_.hexes != (n))                           \
            fail_msg("%s = {%d, %s, %d}, expected {%d, %s, %d}", #s, s_.visible,                   \
                     map_cover_name(s_.cover), s_.hexes, (vis), map_cover_name(cov), (n));         \
    } while (0)

/* A board over a fresh map; both freed by drop(). */
static board_t *board_of(hex_layout_t lay, int cols, int rows, const char *const *text)
{
    return fx_board(lay, cols, rows, ".,^~#f", text);
}

static void drop(board_t *b)
{
    fx_board_free(b);
}

static const char *const OPEN4[4] = {"......", "......", "......", "......"};

static void test_clear_row_and_same_hex(void **state)
{
    (void)state;
    board_t *b = board_of(POINTY_ODD, 6, 4, OPEN4);
    assert_sight(look(b, 0, 1, 3, 1), true, COVER_NONE, 3);
    assert_sight(look(b, 2, 2, 2, 2), true, COVER_NONE, 0);
    /* (0,0) axial (0,0) to (5,3) axial (4,3): 7 hexes, all open. */
    assert_sight(look(b, 0, 0, 5, 3), true, COVER_NONE, 7);
    assert_true(clear(b, 0, 0, 5, 3));
    drop(b);
}

static void test_wall_between_blocks(void **state)
{
    (void)state;
    const char *const rows[] = {".#....", "......", "......", "......"};
    board_t *b = board_of(POINTY_ODD, 6, 4, rows);
    assert_sight(look(b, 0, 0, 2, 0), false, COVER_TOTAL, 2);
    assert_sight(look(b, 2, 0, 0, 0), false, COVER_TOTAL, 2);
    assert_false(clear(b, 0, 0, 2, 0));
    assert_sight(look(b, 0, 0, 5, 0), false, COVER_TOTAL, 5);
    /* The row below does not pass the wall. */
    assert_sight(look(b, 0, 1, 5, 1), true, COVER_NONE, 5);
    drop(b);
}

static void test_endpoints_never_block(void **state)
{
    (void)state;
    const char *const rows[] = {".#....", "......", "......", "......"};
    board_t *b = board_of(POINTY_ODD, 6, 4, rows);
    assert_sight(look(b, 0, 0, 1, 0), true, COVER_NONE, 1);
    assert_sight(look(b, 1, 0, 0, 0), true, COVER_NONE, 1);
    assert_sight(look(b, 1, 0, 3, 0), true, COVER_NONE, 2);
    assert_true(clear(b, 1, 0, 3, 0));
    drop(b);
}

static void test_blocking_terrain_is_total_cover(void **state)
{
    (void)state;
    /* Fog blocks sight but has no cover value: blocked still means total. */
    const char *const rows[] = {"......", ".f....", "......", "......"};
    board_t *b = board_of(POINTY_ODD, 6, 4, rows);
    assert_sight(look(b, 0, 1, 2, 1), false, COVER_TOTAL, 2);
    drop(b);
}

static void test_terrain_cover_grades(void **state)
{
    (void)state;
    const char *const brush[] = {"......", ".,....", "......", "......"};
    const char *const rubble[] = {"......", ".^....", "......", "......"};
    const char *const water[] = {"......", ".~....", "......", "......"};
    const char *const mixed[] = {"......", ".,^...", "......", "......"};
    board_t *b = board_of(POINTY_ODD, 6, 4, brush);
    assert_sight(look(b, 0, 1, 2, 1), true, COVER_LIGHT, 2);
    drop(b);
    b = board_of(POINTY_ODD, 6, 4, rubble);
    assert_sight(look(b, 0, 1, 2, 1), true, COVER_HEAVY, 2);
    assert_true(clear(b, 0, 1, 2, 1));
    drop(b);
    b = board_of(POINTY_ODD, 6, 4, water);
    assert_sight(look(b, 0, 1, 2, 1), true, COVER_NONE, 2);
    drop(b);
    /* The best cover along the line wins, whichever end looks. */
    b = board_of(POINTY_ODD, 6, 4, mixed);
    assert_sight(look(b, 0, 1, 3, 1), true, COVER_HEAVY, 3);
    assert_sight(look(b, 3, 1, 0, 1), true, COVER_HEAVY, 3);
    /* Cover on an endpoint does not count. */
    assert_sight(look(b, 1, 1, 0, 1), true, COVER_NONE, 1);
    drop(b);
}

/* Pointy/odd (0,0)->(1,1) is axial (0,0)->(1,1): it runs between axial (1,0)
 * = cell (1,0) and axial (0,1) = cell (0,1). */
static void test_pointy_edge_either_side_blocks(void **state)
{
    (void)state;
    const char *const east[] = {".#....", "......", "......", "......"};
    const char *const south[] = {"......", "#.....", "......", "......"};
    const char *const brush[] = {"......", ",.....", "......", "......"};
    board_t *b = board_of(POINTY_ODD, 6, 4, OPEN4);
    assert_sight(look(b, 0, 0, 1, 1), true, COVER_NONE, 2);
    drop(b);
    b = board_of(POINTY_ODD, 6, 4, east);
    assert_sight(look(b, 0, 0, 1, 1), false, COVER_TOTAL, 2);
    assert_sight(look(b, 1, 1, 0, 0), false, COVER_TOTAL, 2);
    assert_false(clear(b, 0, 0, 1, 1));
    drop(b);
    b = board_of(POINTY_ODD, 6, 4, south);
    assert_sight(look(b, 0, 0, 1, 1), false, COVER_TOTAL, 2);
    assert_sight(look(b, 1, 1, 0, 0), false, COVER_TOTAL, 2);
    drop(b);
    b = board_of(POINTY_ODD, 6, 4, brush);
    assert_sight(look(b, 0, 0, 1, 1), true, COVER_LIGHT, 2);
    assert_sight(look(b, 1, 1, 0, 0), true, COVER_LIGHT, 2);
    drop(b);
}

/* Axial (0,2)->(2,1), cube offset (2,-1,-1): cells (1,2)->(2,1). It runs between
 * axial (1,1) = cell (1,1) and axial (1,2) = cell (2,2). */
static void test_pointy_edge_cover_takes_worse_side(void **state)
{
    (void)state;
    const char *const both[] = {"......", ".^....", "..,...", "......"};
    const char *const only_brush[] = {"......", "......", "..,...", "......"};
    const char *const wall_a[] = {"......", ".#....", "......", "......"};
    const char *const wall_b[] = {"......", "......", "..#...", "......"};
    board_t *b = board_of(POINTY_ODD, 6, 4, both);
    assert_sight(look(b, 1, 2, 2, 1), true, COVER_HEAVY, 2);
    assert_sight(look(b, 2, 1, 1, 2), true, COVER_HEAVY, 2);
    drop(b);
    b = board_of(POINTY_ODD, 6, 4, only_brush);
    assert_sight(look(b, 1, 2, 2, 1), true, COVER_LIGHT, 2);
    drop(b);
    b = board_of(POINTY_ODD, 6, 4, wall_a);
    assert_sight(look(b, 1, 2, 2, 1), false, COVER_TOTAL, 2);
    drop(b);
    b = board_of(POINTY_ODD, 6, 4, wall_b);
    assert_sight(look(b, 1, 2, 2, 1), false, COVER_TOTAL, 2);
    assert_sight(look(b, 2, 1, 1, 2), false, COVER_TOTAL, 2);
    drop(b);
}

/* Flat/even (0,0)->(1,2) is axial (0,0)->(1,1): it runs between axial (1,0)
 * = cell (1,1) and axial (0,1) = cell (0,1). */
static void test_flat_edge_either_side_blocks(void **state)
{
    (void)state;
    const char *const wall_a[] = {"......", ".#....", "......", "......"};
    const char *const wall_b[] = {"......", "#.....", "......", "......"};
    const char *const heavy[] = {"......", "^.....", "......", "......"};
    board_t *b = board_of(FLAT_EVEN, 6, 4, OPEN4);
    assert_sight(look(b, 0, 0, 1, 2), true, COVER_NONE, 2);
    drop(b);
    b = board_of(FLAT_EVEN, 6, 4, wall_a);
    assert_sight(look(b, 0, 0, 1, 2), false, COVER_TOTAL, 2);
    assert_sight(look(b, 1, 2, 0, 0), false, COVER_TOTAL, 2);
    drop(b);
    b = board_of(FLAT_EVEN, 6, 4, wall_b);
    assert_sight(look(b, 0, 0, 1, 2), false, COVER_TOTAL, 2);
    assert_sight(look(b, 1, 2, 0, 0), false, COVER_TOTAL, 2);
    assert_false(clear(b, 1, 2, 0, 0));
    drop(b);
    b = board_of(FLAT_EVEN, 6, 4, heavy);
    assert_sight(look(b, 0, 0, 1, 2), true, COVER_HEAVY, 2);
    drop(b);
}

static void test_combatant_between_gives_light(void **state)
{
    (void)state;
    const char *const rows[] = {"......", "...^..", "......"};
    map_t *m = make_map(POINTY_ODD, 6, 3, rows);
    add_unit(m, "a", "players", 1, 1);
    add_unit(m, "t", "raiders", 2, 1);
    add_unit(m, "b", "players", 4, 1);
    add_unit(m, "r", "raiders", 3, 1); /* on rubble */
    board_t *b = board_create(m);
    assert_non_null(b);
    /* a -> t: adjacent, the body on the endpoint gives nothing. */
    assert_sight(look(b, 1, 1, 2, 1), true, COVER_NONE, 1);
    /* a -> r passes t. */
    assert_sight(look(b, 1, 1, 3, 1), true, COVER_LIGHT, 2);
    assert_true(clear(b, 1, 1, 3, 1));
    /* A body on rubble does not lower the rubble's heavy cover. */
    assert_sight(look(b, 1, 1, 4, 1), true, COVER_HEAVY, 3);
    /* Once t is gone the line is bare. */
    board_remove(b, 1);
    assert_sight(look(b, 1, 1, 3, 1), true, COVER_NONE, 2);
    board_destroy(b);
    map_destroy(m);
}

/* Pointy/odd (0,0)->(0,2) is axial (0,0)->(-1,2): it runs between axial
 * (-1,1), which is cell (-1,1) off the map, and axial (0,1) = cell (0,1). */
static void test_off_map_hexes_count_for_nothing(void **state)
{
    (void)state;
    const char *const wall[] = {"......", "#.....", "......", "......"};
    const char *const brush[] = {"......", ",.....", "......", "......"};
    board_t *b = board_of(POINTY_ODD, 6, 4, OPEN4);
    assert_sight(look(b, 0, 0, 0, 2), true, COVER_NONE, 2);
    assert_true(clear(b, 0, 0, 0, 2));
    drop(b);
    /* The on-map line still counts when the other one runs off the map. */
    b = board_of(POINTY_ODD, 6, 4, wall);
    assert_sight(look(b, 0, 0, 0, 2), false, COVER_TOTAL, 2);
    drop(b);
    b = board_of(POINTY_ODD, 6, 4, brush);
    assert_sight(look(b, 0, 0, 0, 2), true, COVER_LIGHT, 2);
    /* Endpoints off the map: axial (-2,1) -> (2,1) crosses cells (0,1) and (1,1). */
    assert_sight(sight_trace(b, hex_make(-2, 1), hex_make(2, 1)), true, COVER_LIGHT, 4);
    /* Entirely off the map: nothing there to see through or hide behind. */
    assert_sight(sight_trace(b, hex_make(-5, 0), hex_make(-5, 4)), true, COVER_NONE, 4);
    drop(b);
    b = board_of(POINTY_ODD, 6, 4, wall);
    assert_sight(sight_trace(b, hex_make(-2, 1), hex_make(2, 1)), false, COVER_TOTAL, 4);
    drop(b);
}

/* Deterministic scatter of terrain and bodies for the property sweep. */
static void scatter(map_t *m)
{
    uint32_t x = 12345u;
    for (int k = 0; k < m->cols * m->rows; k++) {
        x = x * 1664525u + 1013904223u;
        uint32_t v = (x >> 16) % 20u;
        m->cells[k] = (uint8_t)(v < 2 ? 4 : v < 4 ? 1 : v < 5 ? 2 : 0);
    }
    add_unit(m, "p", "players", 3, 3);
    add_unit(m, "q", "raiders", 6, 5);
    add_unit(m, "s", "raiders", 8, 2);
}

static void test_sight_is_symmetric_and_consistent(void **state)
{
    (void)state;
    const hex_layout_t lays[2] = {POINTY_ODD, FLAT_EVEN};
    for (int l = 0; l < 2; l++) {
        map_t *m = make_map(lays[l], 11, 9, NULL);
        scatter(m);
        board_t *b = board_create(m);
        assert_non_null(b);
        int n = m->cols * m->rows, blocked = 0, covered = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                hex_t hi = board_hex_of(b, i), hj = board_hex_of(b, j);
                sight_t s = sight_trace(b, hi, hj), t = sight_trace(b, hj, hi);
                assert_int_equal(s.visible, t.visible);
                assert_int_equal(s.cover, t.cover);
                assert_int_equal(s.hexes, hex_distance(hi, hj));
                assert_int_equal(sight_clear(b, hi, hj), s.visible);
                assert_int_equal(s.cover == COVER_TOTAL, !s.visible);
                if (hex_distance(hi, hj) <= 1)
                    assert_true(s.visible && s.cover == COVER_NONE);
                blocked += !s.visible;
                covered += s.visible && s.cover != COVER_NONE;
            }
        /* The scatter must really exercise both outcomes. */
        assert_true(blocked > n);
        assert_true(covered > n);
        board_destroy(b);
        map_destroy(m);
    }
}

/* The ruling read literally: draw both nudged lines in full and combine. */
static sight_t reference(const board_t *b, hex_t from, hex_t to)
{
    hex_t line[128];
    const map_t *m = b->map;
    sight_t s = {true, COVER_NONE, hex_distance(from, to)};
    for (int pass = 0; pass < 2; pass++) {
        int n = hex_line(from, to, pass ? HEX_NUDGE_MINUS : HEX_NUDGE_PLUS, line, 128);
        assert_true(n <= 128);
        for (int k = 1; k < n - 1; k++) {
            int idx = board_cell_index(b, line[k]);
            if (idx < 0)
                continue;
            const terrain_t *t = &m->types[m->cells[idx]];
            if (t->blocks_sight)
                s.visible = false;
            cover_t c = t->cover;
            if (b->occ[idx] >= 0 && c < COVER_LIGHT)
                c = COVER_LIGHT;
            if (c > s.cover)
                s.cover = c;
        }
    }
    if (!s.visible)
        s.cover = COVER_TOTAL;
    return s;
}

/* sight.c reads short lines from a table of steps per delta (turned into
 * cell offsets for each of the four layouts), and lerps long ones, skipping
 * the -e line when the true line meets no edge; this checks both against the
 * literal reading over every pair of five maps (the long thin one has lines
 * of up to 70 hexes, beyond the table's 48). */
static void test_matches_two_line_reference(void **state)
{
    (void)state;
    const hex_layout_t lays[5] = {POINTY_ODD, FLAT_EVEN, {HEX_POINTY, HEX_EVEN},
                                  {HEX_FLAT, HEX_ODD}, POINTY_ODD};
    const int cols[5] = {13, 13, 12, 11, 70}, rows[5] = {12, 12, 11, 12, 5};
    for (int l = 0; l < 5; l++) {
        map_t *m = make_map(lays[l], cols[l], rows[l], NULL);
        scatter(m);
        board_t *b = board_create(m);
        assert_non_null(b);
        int n = m->cols * m->rows, edges = 0, longs = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                hex_t hi = board_hex_of(b, i), hj = board_hex_of(b, j);
                sight_t want = reference(b, hi, hj), got = sight_trace(b, hi, hj);
                if (got.visible != want.visible || got.cover != want.cover)
                    fail_msg("cells %d -> %d: got {%d, %s}, reference {%d, %s}", i, j,
                             got.visible, map_cover_name(got.cover), want.visible,
                             map_cover_name(want.cover));
                assert_int_equal(sight_clear(b, hi, hj), want.visible);
                bool walled;
                sight_t w = sight_trace_walls(b, hi, hj, &walled);
                assert_int_equal(w.visible, want.visible);
                assert_int_equal(w.cover, want.cover);
                hex_t p[128], q[128];
                int k = hex_line(hi, hj, HEX_NUDGE_PLUS, p, 128);
                hex_line(hi, hj, HEX_NUDGE_MINUS, q, 128);
                edges += memcmp(p, q, sizeof p[0] * (size_t)k) != 0;
                longs += k > 49;
            }
        /* Plenty of the pairs must actually run along edges. */
        assert_true(edges > n);
        if (l == 4) assert_true(longs > n);
        board_destroy(b);
        map_destroy(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clear_row_and_same_hex),
        cmocka_unit_test(test_wall_between_blocks),
        cmocka_unit_test(test_endpoints_never_block),
        cmocka_unit_test(test_blocking_terrain_is_total_cover),
        cmocka_unit_test(test_terrain_cover_grades),
        cmocka_unit_test(test_pointy_edge_either_side_blocks),
        cmocka_unit_test(test_pointy_edge_cover_takes_worse_side),
        cmocka_unit_test(test_flat_edge_either_side_blocks),
        cmocka_unit_test(test_combatant_between_gives_light),
        cmocka_unit_test(test_off_map_hexes_count_for_nothing),
        cmocka_unit_test(test_sight_is_symmetric_and_consistent),
        cmocka_unit_test(test_matches_two_line_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
