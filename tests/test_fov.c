/* test_fov.c - the field of view (core/fov.h) against the line-of-sight
 * ruling itself (sight_clear), cell for cell: random maps of all four
 * layouts, of every shape from a single row to a square, with sparse to
 * dense sight-blocking terrain and eyes anywhere, edges and corners
 * included; and maps built to hit the ties where the two nudged lines
 * part. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fov.h"
#include "core/sight.h"
#include "map_fixture.h"

static const hex_layout_t LAYOUTS[4] = {
    {HEX_POINTY, HEX_ODD}, {HEX_POINTY, HEX_EVEN}, {HEX_FLAT, HEX_ODD}, {HEX_FLAT, HEX_EVEN}};

static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* Compare fov_cells with sight_clear from every eye in eyes[0..n). Returns
 * the number of cells compared. */
static long compare(const board_t *b, const cell_t *eyes, int n, fov_scratch_t *s)
{
    const map_t *m = b->map;
    int ncells = m->cols * m->rows, words = (ncells + 63) / 64;
    uint64_t *bits = malloc(sizeof *bits * (size_t)words);
    assert_non_null(bits);
    long compared = 0;
    for (int e = 0; e < n; e++) {
        hex_t eye = hex_from_cell(m->layout, eyes[e]);
        memset(bits, 0, sizeof *bits * (size_t)words);
        int lo, hi;
        fov_cells(b, eye, bits, &lo, &hi, s);
        for (int c = 0; c < ncells; c++) {
            bool want = sight_clear(b, eye, board_hex_of(b, c));
            bool got = (bits[c >> 6] >> (c & 63)) & 1u;
            if (want != got)
                fail_msg("layout %d/%d %dx%d, eye %d,%d: cell %d,%d is %s by the ruling, %s by fov",
                         m->layout.orient, m->layout.stagger, m->cols, m->rows, eyes[e].col,
                         eyes[e].row, c % m->cols, c / m->cols, want ? "visible" : "hidden",
                         got ? "visible" : "hidden");
            if (got) {
                assert_true(c >> 6 >= lo);
                assert_true(c >> 6 <= hi);
            }
            compared++;
        }
    }
    free(bits);
    return compared;
}

/* Random maps: sizes, shapes, layouts and wall densities; every eye on the
 * border and a few inside. */
static void test_random_maps_agree_with_the_ruling(void **state)
{
    (void)state;
    uint64_t seed = 0x5eed1234u;
    long total = 0;
    for (int round = 0; round < 400; round++) {
        hex_layout_t lay = LAYOUTS[round % 4];
        int cols = 1 + (int)(next(&seed) % 40), rows = 1 + (int)(next(&seed) % 40);
        if (round % 25 == 0) cols = rows = 64; /* long lines, many rings */
        if (round % 9 == 0) rows = 1;          /* a single row or column */
        if (round % 11 == 0) cols = 2;
        board_t *b = fx_board(lay, cols, rows, ".#,", NULL);
        map_t *m = (map_t *)b->map;
        int density = (int)(next(&seed) % 45); /* percent of walls, up to dense */
        for (int c = 0; c < cols * rows; c++) {
            uint32_t r = next(&seed) % 100;
            m->cells[c] = (uint8_t)(r < (uint32_t)density ? 1 : r < (uint32_t)density + 15 ? 2 : 0);
        }
        fov_scratch_t s;
        assert_true(fov_scratch_init(&s, m));
        cell_t eyes[16];
        int n = 0;
        eyes[n++] = (cell_t){0, 0};
        eyes[n++] = (cell_t){cols - 1, rows - 1};
        eyes[n++] = (cell_t){cols - 1, 0};
        eyes[n++] = (cell_t){0, rows - 1};
        while (n < 9)
            eyes[n++] =
                (cell_t){(int)(next(&seed) % (uint32_t)cols), (int)(next(&seed) % (uint32_t)rows)};
        total += compare(b, eyes, n, &s);
        fov_scratch_free(&s);
        fx_board_free(b);
    }
    assert_true(total > 1500000);
}

/* An open map: every cell in sight, from every cell (no shadow, so every
 * ring is walked to the map's edge). */
static void test_open_map_sees_everything(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        board_t *b = fx_board(LAYOUTS[k], 13, 9, ".", NULL);
        fov_scratch_t s;
        assert_true(fov_scratch_init(&s, b->map));
        cell_t eyes[13 * 9];
        for (int c = 0; c < 13 * 9; c++)
            eyes[c] = (cell_t){c % 13, c / 13};
        compare(b, eyes, 13 * 9, &s);
        uint64_t bits[2] = {0, 0};
        int lo, hi;
        fov_cells(b, hex_from_cell(LAYOUTS[k], (cell_t){6, 4}), bits, &lo, &hi, &s);
        assert_int_equal(__builtin_popcountll(bits[0]) + __builtin_popcountll(bits[1]), 13 * 9);
        fov_scratch_free(&s);
        fx_board_free(b);
    }
}

/* Walls placed where lines run along hex edges: a single wall at every
 * position of a ring, one at a time, around eyes in the middle; the ties
 * (both hexes either side of an edge count) are where a shadow interval's
 * closed ends matter. */
static void test_single_walls_and_ties(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        board_t *b = fx_board(LAYOUTS[k], 21, 21, ".#", NULL);
        map_t *m = (map_t *)b->map;
        fov_scratch_t s;
        assert_true(fov_scratch_init(&s, m));
        cell_t eye = {10, 10};
        for (int c = 0; c < 21 * 21; c++) {
            if (c == 10 * 21 + 10) continue;
            memset(m->cells, 0, 21 * 21);
            m->cells[c] = 1;
            /* And a second wall somewhere, so shadows meet and merge. */
            m->cells[(c * 7 + 3) % (21 * 21)] = 1;
            m->cells[10 * 21 + 10] = 0;
            compare(b, &eye, 1, &s);
        }
        fov_scratch_free(&s);
        fx_board_free(b);
    }
}

/* An eye off the map sees nothing; the bits stay clear. */
static void test_eye_off_the_map(void **state)
{
    (void)state;
    board_t *b = fx_board(LAYOUTS[0], 5, 5, ".", NULL);
    fov_scratch_t s;
    assert_true(fov_scratch_init(&s, b->map));
    uint64_t bits = 0;
    int lo, hi;
    fov_cells(b, hex_make(-9, -9), &bits, &lo, &hi, &s);
    assert_int_equal(bits, 0);
    assert_true(lo > hi);
    fov_scratch_free(&s);
    fx_board_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_maps_agree_with_the_ruling),
        cmocka_unit_test(test_open_map_sees_everything),
        cmocka_unit_test(test_single_walls_and_ties),
        cmocka_unit_test(test_eye_off_the_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
