/* test_surface_los.c - the surface AI's kept sight lines (src/rules/surface/los.c)
 * answer exactly as the core's tracer: every ordered pair of hexes of
 * scattered terrain, with bodies standing about, before and after the bodies
 * move (the kept terrain must not remember them) and after the terrain
 * changes (the kept lines must be forgotten). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/sight.h"
#include "rules_fixture.h"
#include "rules/surface/surface.h"

enum { COLS = 15, ROWS = 11, BODIES = 9, T_SMOKE = T_COUNT };

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Open ground with walls, brush, rubble, smoke (blocks sight, may be
 * entered) and shut doors scattered over a quarter of it. */
static void scatter(map_t *m, uint32_t *s)
{
    static const int KINDS[] = {T_WALL, T_BRUSH, T_RUBBLE, T_SMOKE, T_DOOR};
    for (int k = 0; k < COLS * ROWS; k++)
        m->cells[k] = (uint8_t)(rnd(s) % 4 ? T_OPEN : KINDS[rnd(s) % 5]);
}

/* Every ordered pair: sf_los_trace, sf_los_level, sf_los_terrain_levels and
 * sf_los_clear against the core. */
static void compare_all(sf_los_t *los, const battle_t *b)
{
    for (int i = 0; i < COLS * ROWS; i++)
        for (int j = 0; j < COLS * ROWS; j++) {
            hex_t from = hex_from_cell(b->map->layout, (cell_t){i % COLS, i / COLS});
            hex_t to = hex_from_cell(b->map->layout, (cell_t){j % COLS, j / COLS});
            bool walled = false, kept_walled = true;
            sight_t want = sight_trace_walls(b->board, from, to, &walled);
            sight_t got = sf_los_trace(los, b, from, to, &kept_walled);
            if (got.visible != want.visible || got.cover != want.cover || got.hexes != want.hexes ||
                kept_walled != walled)
                fail_msg("cell %d to %d: kept %d/%d/%d, traced %d/%d/%d", i, j, got.visible,
                         (int)got.cover, kept_walled, want.visible, (int)want.cover, walled);
            int lvl = !want.visible               ? (walled ? 4 : 3)
                      : want.cover == COVER_HEAVY ? 2
                      : want.cover == COVER_LIGHT ? 1
                                                  : 0;
            assert_int_equal(sf_los_level(los, b, from, to), lvl);
            /* The terrain alone: the core's trace with the bodies left out. */
            bool t_walled = false;
            sight_t terr = sight_trace_terrain(b->board, from, to, &t_walled);
            int t_lvl = !terr.visible               ? (t_walled ? 4 : 3)
                        : terr.cover == COVER_HEAVY ? 2
                        : terr.cover == COVER_LIGHT ? 1
                                                    : 0;
            int8_t got_t = -2;
            int ti = board_cell_index(b->board, to);
            sf_los_terrain_levels(los, b, from, board_cell_index(b->board, from), &to, &ti, 1,
                                  &got_t);
            assert_int_equal(got_t, t_lvl);
            sight_t plain = sight_trace(b->board, from, to);
            assert_int_equal(plain.visible, got.visible);
            assert_int_equal(plain.cover, got.cover);
            assert_int_equal(sf_los_clear(los, b, from, to), sight_clear(b->board, from, to));
        }
}

/* Put the bodies on distinct random cells. */
static void shuffle_bodies(board_t *bd, const map_t *m, uint32_t *s)
{
    for (int i = 0; i < bd->n; i++) board_place(bd, i, (hex_t){1000 + i, 0}); /* off the map */
    for (int i = 0; i < bd->n; i++) {
        hex_t h;
        do {
            int k = (int)(rnd(s) % (COLS * ROWS));
            h = hex_from_cell(m->layout, (cell_t){k % COLS, k / COLS});
        } while (board_occupant(bd, h) >= 0);
        board_place(bd, i, h);
    }
}

static void test_kept_lines_match_the_tracer(void **state)
{
    (void)state;
    map_t *m = fx_map(COLS, ROWS, "surface", NULL);
    fx_type(m, "smoke", 1, COVER_NONE, true, "");
    for (int i = 0; i < BODIES; i++) {
        char id[8];
        snprintf(id, sizeof id, "u%d", i);
        fx_add(m, id, i % 2 ? "a" : "b", i, 0, KIND_CREATURE, SIZE_MEDIUM, 5, 30, "", "");
    }
    board_t *bd = board_create(m);
    assert_non_null(bd);
    static sf_los_t los; /* large: kept off the stack */
    memset(&los, 0, sizeof los);
    battle_t b;
    memset(&b, 0, sizeof b);
    b.map = m;
    b.board = bd;
    uint32_t s = 12345u;
    for (int round = 0; round < 3; round++) {
        scatter(m, &s);
        sf_los_sync(&los, &b); /* new terrain: the kept lines go */
        shuffle_bodies(bd, m, &s);
        compare_all(&los, &b);
        shuffle_bodies(bd, m, &s); /* same terrain, lines kept, bodies elsewhere */
        sf_los_sync(&los, &b);
        compare_all(&los, &b);
    }
    board_destroy(bd);
    map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_lines_match_the_tracer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
