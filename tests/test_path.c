/* test_path.c - the board, the one Dijkstra (core/path.h), and the reach and
 * path queries built on it (geom_reach, geom_path).
 *
 * Maps are drawn as text rows in pointy/odd layout unless a test says
 * otherwise; there axial (q, r) = (col - (row - (row & 1)) / 2, row). Every
 * expected cost below was counted by hand from RULINGS "Movement": entering a
 * hex costs move x feet_per_hex, the start is free.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/geom.h"
#include "map_fixture.h"

/* ---- map building ---------------------------------------------------- */

enum { T_OPEN, T_BRUSH, T_RUBBLE, T_WATER, T_WALL, T_COUNT };

/* A pointy/odd (or flat/odd) map from text: . open  , brush  ^ rubble  ~ water  # wall. */
static map_t *make_map(hex_orient_t o, int cols, int rows, const char *const *text)
{
    return fx_map((hex_layout_t){o, HEX_ODD}, cols, rows, ".,^~#", text);
}

static int add_unit(map_t *m, const char *id, const char *faction, int col, int row)
{
    return fx_add_unit(m, id, faction, col, row);
}

/* A board and a search sized for it, torn down together. */
typedef struct {
    map_t *m;
    board_t *b;
    path_search_t *ps;
} world_t;

static world_t open_world(map_t *m)
{
    world_t w = {m, board_create(m), path_search_create(m->cols * m->rows)};
    assert_non_null(w.b);
    assert_non_null(w.ps);
    return w;
}

static void close_world(world_t *w)
{
    path_search_destroy(w->ps);
    board_destroy(w->b);
    map_destroy(w->m);
}

static int cell_idx(const map_t *m, int col, int row) { return row * m->cols + col; }

static void assert_path(const cell_t *got, int len, const int (*want)[2], int n)
{
    assert_int_equal(len, n);
    for (int k = 0; k < n; k++) {
        if (got[k].col != want[k][0] || got[k].row != want[k][1])
            fail_msg("path[%d] = [%d,%d], expected [%d,%d]", k, got[k].col, got[k].row, want[k][0],
                     want[k][1]);
    }
}

/* Cost of the reach entry at (col,row), or -1 when it is not in the set. */
static int reach_cost(const geom_reach_t *r, int n, int col, int row)
{
    for (int k = 0; k < n; k++)
        if (r[k].at.col == col && r[k].at.row == row)
            return r[k].cost_ft;
    return -1;
}

static const char *const FIELD15[15] = {
    "...............", "...............", "...............", "...............",
    "...............", "...............", "...............", "...............",
    "...............", "...............", "...............", "...............",
    "...............", "...............", "...............",
};

/* ---- board ----------------------------------------------------------- */

static void test_board_sides_and_occupancy(void **state)
{
    (void)state;
    map_t *m = make_map(HEX_POINTY, 6, 3, NULL);
    add_unit(m, "a", "players", 0, 0);
    add_unit(m, "x", "raiders", 5, 2);
    add_unit(m, "b", "players", 1, 1);
    add_unit(m, "y", "beasts", 2, 2);
    board_t *b = board_create(m);
    assert_non_null(b);

    assert_int_equal(b->n_sides, 3);
    assert_string_equal(b->side_name[0], "players");
    assert_string_equal(b->side_name[1], "raiders");
    assert_string_equal(b->side_name[2], "beasts");
    assert_int_equal(b->side[2], 0);
    assert_true(board_allies(b, 0, 2));
    assert_false(board_allies(b, 0, 1));

    /* (1,1) in pointy/odd is axial (1,1); (5,2) is axial (4,2). */
    assert_int_equal(b->pos[2].q, 1);
    assert_int_equal(b->pos[2].r, 1);
    assert_int_equal(board_occupant(b, hex_make(4, 2)), 1);
    assert_int_equal(board_occupant(b, hex_make(3, 2)), -1);
    assert_int_equal(board_occupant(b, hex_make(-1, 0)), -1);
    assert_int_equal(board_find(b, "y"), 3);
    assert_int_equal(board_find(b, "nobody"), -1);
    for (int i = 0; i < b->n; i++)
        assert_true(b->present[i]);

    board_place(b, 0, hex_make(3, 0));
    assert_int_equal(board_occupant(b, hex_make(0, 0)), -1);
    assert_int_equal(board_occupant(b, hex_make(3, 0)), 0);
    board_remove(b, 0);
    assert_false(b->present[0]);
    assert_int_equal(board_occupant(b, hex_make(3, 0)), -1);

    /* cell index and hex agree both ways on every cell */
    for (int idx = 0; idx < m->cols * m->rows; idx++)
        assert_int_equal(board_cell_index(b, board_hex_of(b, idx)), idx);
    board_destroy(b);
    map_destroy(m);
}

/* ---- path_move_cost and path_run ------------------------------------- */

static void test_move_cost_per_terrain(void **state)
{
    (void)state;
    const char *const rows[] = {".,^~#."};
    map_t *m = make_map(HEX_POINTY, 6, 1, rows);
    m->feet_per_hex = 15;
    int a = add_unit(m, "a", "players", 0, 0);
    add_unit(m, "e", "raiders", 5, 0);
    world_t w = open_world(m);
    path_mover_t mv = {w.b, a};
    assert_int_equal(path_move_cost(&mv, 1, 0), 15);  /* open */
    assert_int_equal(path_move_cost(&mv, 0, 1), 30);  /* brush: difficult */
    assert_int_equal(path_move_cost(&mv, 1, 2), 30);  /* rubble */
    assert_int_equal(path_move_cost(&mv, 2, 3), 30);  /* water */
    assert_int_equal(path_move_cost(&mv, 3, 4), -1);  /* wall */
    assert_int_equal(path_move_cost(&mv, 4, 5), -1);  /* enemy */
    board_remove(w.b, 1);
    assert_int_equal(path_move_cost(&mv, 4, 5), 15);  /* gone, so open again */
    close_world(&w);
}

static void test_open_row_costs(void **state)
{
    (void)state;
    const char *const rows[] = {"......"};
    map_t *m = make_map(HEX_POINTY, 6, 1, rows);
    int a = add_unit(m, "a", "players", 0, 0);
    world_t w = open_world(m);
    path_mover_t mv = {w.b, a};
    int settled = path_run(w.ps, w.b, 0, PATH_NO_BUDGET, -1, path_move_cost, &mv);
    assert_int_equal(settled, 6);
    for (int c = 0; c < 6; c++)
        assert_int_equal(path_cost(w.ps, c), 5 * c);
    const int *order;
    assert_int_equal(path_settled(w.ps, &order), 6);
    for (int k = 1; k < 6; k++)
        assert_true(path_cost(w.ps, order[k - 1]) <= path_cost(w.ps, order[k]));
    int cells[6];
    assert_int_equal(path_extract(w.ps, 4, cells, 6), 5);
    for (int k = 0; k < 5; k++)
        assert_int_equal(cells[k], k);
    assert_int_equal(path_parent(w.ps, 3), 2);
    assert_int_equal(path_parent(w.ps, 0), -1);
    close_world(&w);
}

static void test_difficult_terrain_costs_double(void **state)
{
    (void)state;
    const char *const rows[] = {".,,~^."};
    map_t *m = make_map(HEX_POINTY, 6, 1, rows);
    add_unit(m, "a", "players", 0, 0);
    world_t w = open_world(m);
    path_mover_t mv = {w.b, 0};
    path_run(w.ps, w.b, 0, PATH_NO_BUDGET, -1, path_move_cost, &mv);
    /* 10 + 10 + 10 (water) + 10 (rubble) + 5 */
    static const int want[6] = {0, 10, 20, 30, 40, 45};
    for (int c = 0; c < 6; c++)
        assert_int_equal(path_cost(w.ps, c), want[c]);
    close_world(&w);
}

static void test_budget_stops_expansion(void **state)
{
    (void)state;
    const char *const rows[] = {".,...."};
    map_t *m = make_map(HEX_POINTY, 6, 1, rows);
    add_unit(m, "a", "players", 0, 0);
    world_t w = open_world(m);
    path_mover_t mv = {w.b, 0};
    /* costs are 0, 10, 15, 20, 25, 30 */
    assert_int_equal(path_run(w.ps, w.b, 0, 15, -1, path_move_cost, &mv), 3);
    assert_int_equal(path_cost(w.ps, 2), 15);
    assert_int_equal(path_cost(w.ps, 3), -1);
    assert_int_equal(path_run(w.ps, w.b, 0, 14, -1, path_move_cost, &mv), 2);
    assert_int_equal(path_cost(w.ps, 2), -1);
    assert_int_equal(path_run(w.ps, w.b, 0, 0, -1, path_move_cost, &mv), 1);
    assert_int_equal(path_cost(w.ps, 0), 0);
    close_world(&w);
}

static void test_goal_stops_early_and_reuse_resets(void **state)
{
    (void)state;
    map_t *m = make_map(HEX_POINTY, 15, 15, FIELD15);
    add_unit(m, "a", "players", 7, 7);
    world_t w = open_world(m);
    int centre = cell_idx(w.m, 7, 7);
    path_mover_t mv = {w.b, 0};
    int all = path_run(w.ps, w.b, centre, PATH_NO_BUDGET, -1, path_move_cost, &mv);
    assert_int_equal(all, 15 * 15);
    int corner = cell_idx(w.m, 0, 0);
    assert_true(path_cost(w.ps, corner) > 0);

    /* Stopping at a neighbour settles only the start and part of ring 1. */
    int east = cell_idx(w.m, 8, 7);
    int some = path_run(w.ps, w.b, centre, PATH_NO_BUDGET, east, path_move_cost, &mv);
    assert_true(some >= 2 && some <= 7);
    assert_int_equal(path_cost(w.ps, east), 5);
    /* Nothing of the earlier full run survives. */
    assert_int_equal(path_cost(w.ps, corner), -1);

    /* A new start: the old start is now 7 hexes away on this row. */
    path_run(w.ps, w.b, cell_idx(w.m, 0, 7), 20, -1, path_move_cost, &mv);
    assert_int_equal(path_cost(w.ps, centre), -1);
    assert_int_equal(path_cost(w.ps, cell_idx(w.m, 4, 7)), 20);
    close_world(&w);
}

/* A cost callback unlike movement: a fixed price per step. */
static int flat_cost(void *ud, int from, int to)
{
    (void)from;
    (void)to;
    return *(const int *)ud;
}

static void test_callback_drives_costs(void **state)
{
    (void)state;
    world_t w = open_world(make_map(HEX_POINTY, 15, 15, FIELD15));
    hex_t c = hex_from_cell(w.m->layout, (cell_t){7, 7});
    int centre = cell_idx(w.m, 7, 7);
    /* 1 per step: the cost is the hex distance, walls or no walls in the map. */
    int one = 1;
    path_run(w.ps, w.b, centre, PATH_NO_BUDGET, -1, flat_cost, &one);
    for (int idx = 0; idx < 15 * 15; idx++)
        assert_int_equal(path_cost(w.ps, idx), hex_distance(c, board_hex_of(w.b, idx)));
    /* Steps far longer than the bucket ring still come out in cost order. */
    int big = 5000;
    int settled = path_run(w.ps, w.b, centre, 15000, -1, flat_cost, &big);
    assert_int_equal(settled, 1 + 3 * 3 * 4);
    for (int idx = 0; idx < 15 * 15; idx++) {
        int d = hex_distance(c, board_hex_of(w.b, idx));
        assert_int_equal(path_cost(w.ps, idx), d <= 3 ? 5000 * d : -1);
    }
    close_world(&w);
}

/* A toll on one step only: leaving cell `from` for cell `to` costs 100. */
typedef struct {
    int from, to;
} toll_t;

static int toll_cost(void *ud, int from, int to)
{
    const toll_t *t = ud;
    return from == t->from && to == t->to ? 100 : 1;
}

static void test_cheaper_route_found_later(void **state)
{
    (void)state;
    world_t w = open_world(make_map(HEX_POINTY, 15, 15, FIELD15));
    int centre = cell_idx(w.m, 7, 7), east = cell_idx(w.m, 8, 7);
    toll_t toll = {centre, east};
    path_run(w.ps, w.b, centre, PATH_NO_BUDGET, -1, toll_cost, &toll);
    /* East is first seen at 100 straight from the start, then reached for 2
     * round a neighbour it shares with the start. */
    assert_int_equal(path_cost(w.ps, east), 2);
    int cells[8];
    assert_int_equal(path_extract(w.ps, east, cells, 8), 3);
    assert_int_equal(cells[0], centre);
    assert_int_equal(cells[2], east);
    assert_int_equal(path_parent(w.ps, east), cells[1]);
    assert_int_equal(hex_distance(board_hex_of(w.b, cells[1]), board_hex_of(w.b, east)), 1);
    assert_int_equal(hex_distance(board_hex_of(w.b, cells[1]), board_hex_of(w.b, centre)), 1);
    close_world(&w);
}

/* ---- geom_path ------------------------------------------------------- */

/* A fixed pseudo-random step cost per (from, to): 1..40 feet, some steps
 * refused, and now and then one far longer than the bucket ring. */
static int hashed_cost(void *ud, int from, int to)
{
    uint32_t x = (uint32_t)from * 2654435761u ^ (uint32_t)to * 40503u ^ *(const uint32_t *)ud;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    uint32_t v = x % 100u;
    return v < 8 ? -1 : v == 99 ? 2000 + (int)(x >> 20) % 500 : 1 + (int)(x >> 8) % 40;
}

/* Does search a hold exactly what search b holds (cells settled, in order,
 * with costs and parents, and the budget cut)? */
static void assert_same_search(const path_search_t *a, const path_search_t *b, int ncells)
{
    const int *sa, *sb;
    int na = path_settled(a, &sa), nb = path_settled(b, &sb);
    assert_int_equal(na, nb);
    for (int k = 0; k < na; k++)
        assert_int_equal(sa[k], sb[k]);
    for (int idx = 0; idx < ncells; idx++) {
        assert_int_equal(path_cost(a, idx), path_cost(b, idx));
        assert_int_equal(path_parent(a, idx), path_parent(b, idx));
    }
    assert_int_equal(path_budget_cut(a), path_budget_cut(b));
}

/* path_resume carries a search on to a wider budget exactly as a fresh
 * search to that budget would go (plan_approach widens its ring this way):
 * over many costs, starts and budget ladders, with walls and bodies. */
static void test_resume_matches_fresh_run(void **state)
{
    (void)state;
    map_t *m = make_map(HEX_POINTY, 15, 15, FIELD15);
    add_unit(m, "p", "players", 3, 3);
    add_unit(m, "q", "raiders", 9, 6);
    world_t w = open_world(m);
    path_search_t *fresh = path_search_create(15 * 15);
    assert_non_null(fresh);
    path_mover_t mv = {w.b, 0};
    int grew = 0; /* resumes that really searched farther */
    for (uint32_t seed = 1; seed <= 40; seed++) {
        int start = (int)(seed * 37u % (15u * 15u));
        const int ladder[][4] = {{0, 10, 30, 90}, {5, 6, 200, 3000}, {40, 40, 41, PATH_NO_BUDGET},
                                 {1, 2500, 2600, 9000}};
        for (int l = 0; l < 4; l++) {
            bool plain = seed % 5 == 0; /* now and then the map's own move costs */
            path_cost_fn fn = plain ? path_move_cost : hashed_cost;
            void *ud = plain ? (void *)&mv : (void *)&seed;
            path_run_open(w.ps, w.b, start, ladder[l][0], fn, ud);
            path_run(fresh, w.b, start, ladder[l][0], -1, fn, ud);
            assert_same_search(w.ps, fresh, 15 * 15); /* open or not, the same answers */
            for (int k = 1; k < 4; k++) {
                const int *set;
                int before = path_settled(w.ps, &set);
                path_resume(w.ps, w.b, ladder[l][k], fn, ud);
                path_run(fresh, w.b, start, ladder[l][k], -1, fn, ud);
                assert_same_search(w.ps, fresh, 15 * 15);
                grew += path_settled(w.ps, &set) > before;
            }
        }
    }
    /* After a plain run (here with a goal), it searches afresh. */
    uint32_t seed = 7;
    path_run(w.ps, w.b, 0, 50, 16, hashed_cost, &seed);
    path_resume(w.ps, w.b, 500, hashed_cost, &seed);
    path_run(fresh, w.b, 0, 500, -1, hashed_cost, &seed);
    assert_same_search(w.ps, fresh, 15 * 15);
    assert_true(grew > 100);
    path_search_destroy(fresh);
    close_world(&w);
}

static const char *const DETOUR[3] = {".....", ".###.", ",,,,,"};

static void test_path_detours_around_wall(void **state)
{
    (void)state;
    map_t *m = make_map(HEX_POINTY, 5, 3, DETOUR);
    add_unit(m, "a", "players", 0, 1);
    world_t w = open_world(m);
    cell_t path[16];
    int cost, len;
    /* North row: 5 open steps = 25 ft; the brush row would be 4 x 10 + 5 = 45. */
    assert_true(geom_path(w.b, 0, (cell_t){4, 1}, 5, w.ps, &cost, path, 16, &len));
    assert_int_equal(cost, 25);
    static const int want[6][2] = {{0, 1}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {4, 1}};
    assert_path(path, len, want, 6);

    /* One brush hex straight below: 10 ft. */
    assert_true(geom_path(w.b, 0, (cell_t){0, 2}, 5, w.ps, &cost, path, 16, &len));
    assert_int_equal(cost, 10);
    static const int below[2][2] = {{0, 1}, {0, 2}};
    assert_path(path, len, below, 2);
    close_world(&w);
}

static void test_path_to_self_and_impassable(void **state)
{
    (void)state;
    map_t *m = make_map(HEX_POINTY, 5, 3, DETOUR);
    add_unit(m, "a", "players", 0, 1);
    world_t w = open_world(m);
    cell_t path[16];
    int cost = -7, len = -7;
    assert_true(geom_path(w.b, 0, (cell_t){0, 1}, 5, w.ps, &cost, path, 16, &len));
    assert_int_equal(cost, 0);
    assert_int_equal(len, 1);
    assert_int_equal(path[0].col, 0);
    assert_int_equal(path[0].row, 1);

    assert_false(geom_path(w.b, 0, (cell_t){2, 1}, 5, w.ps, &cost, path, 16, &len)); /* wall */
    assert_int_equal(len, 0);
    assert_false(geom_path(w.b, 0, (cell_t){5, 1}, 5, w.ps, &cost, path, 16, &len)); /* off map */
    assert_false(geom_path(w.b, 0, (cell_t){-1, 0}, 5, w.ps, &cost, path, 16, &len));
    close_world(&w);
}

static void test_path_unreachable_behind_walls(void **state)
{
    (void)state;
    const char *const rows[] = {"..#..", ".#...", "..#.."};
    map_t *m = make_map(HEX_POINTY, 5, 3, rows);
    add_unit(m, "a", "players", 0, 1);
    world_t w = open_world(m);
    cell_t path[16];
    int cost, len;
    /* Axial walls (2,0), (1,1), (1,2): a closed line from top to bottom. */
    assert_false(geom_path(w.b, 0, (cell_t){4, 1}, 5, w.ps, &cost, path, 16, &len));
    assert_true(geom_path(w.b, 0, (cell_t){1, 0}, 5, w.ps, &cost, path, 16, &len));
    assert_int_equal(cost, 5);
    close_world(&w);
}

static void test_path_ignores_budget(void **state)
{
    (void)state;
    map_t *m = make_map(HEX_POINTY, 15, 15, FIELD15);
    add_unit(m, "a", "players", 7, 7);
    world_t w = open_world(m);
    cell_t path[64];
    int cost, len;
    /* (7,7) is axial (4,7); (0,0) is axial (0,0): 11 hexes, far past 30 ft. */
    assert_true(geom_path(w.b, 0, (cell_t){0, 0}, 5, w.ps, &cost, path, 64, &len));
    assert_int_equal(cost, 55);
    assert_int_equal(len, 12);
    for (int k = 1; k < len; k++)
        assert_int_equal(hex_distance(hex_from_cell(m->layout, path[k - 1]),
                                      hex_from_cell(m->layout, path[k])),
                         1);
    close_world(&w);
}

static void test_enemy_blocks_and_forces_detour(void **state)
{
    (void)state;
    const char *const rows[] = {".....", ".....", "....."};
    map_t *m = make_map(HEX_POINTY, 5, 3, rows);
    add_unit(m, "a", "players", 0, 1);
    add_unit(m, "e", "raiders", 1, 1);
    world_t w = open_world(m);
    cell_t path[16];
    int cost, len;
    /* Straight through (1,1) would be 10 ft; around it is 3 steps. */
    assert_true(geom_path(w.b, 0, (cell_t){2, 1}, 5, w.ps, &cost, path, 16, &len));
    assert_int_equal(cost, 15);
    assert_int_equal(len, 4);
    for (int k = 0; k < len; k++)
        assert_false(path[k].col == 1 && path[k].row == 1);
    /* The enemy's own hex can never be a goal. */
    assert_false(geom_path(w.b, 0, (cell_t){1, 1}, 5, w.ps, &cost, path, 16, &len));

    /* In a one-hex corridor the enemy shuts the way completely. */
    const char *const corridor[] = {"....."};
    map_t *m2 = make_map(HEX_POINTY, 5, 1, corridor);
    add_unit(m2, "a", "players", 0, 0);
    add_unit(m2, "e", "raiders", 2, 0);
    world_t w2 = open_world(m2);
    assert_false(geom_path(w2.b, 0, (cell_t){4, 0}, 5, w2.ps, &cost, path, 16, &len));
    close_world(&w2);
    close_world(&w);
}

static void test_ally_passed_not_stood_on(void **state)
{
    (void)state;
    const char *const corridor[] = {"....."};
    map_t *m = make_map(HEX_POINTY, 5, 1, corridor);
    add_unit(m, "a", "players", 0, 0);
    add_unit(m, "b", "players", 1, 0);
    world_t w = open_world(m);
    cell_t path[16];
    int cost, len;
    assert_true(geom_path(w.b, 0, (cell_t){2, 0}, 5, w.ps, &cost, path, 16, &len));
    assert_int_equal(cost, 10);
    static const int want[3][2] = {{0, 0}, {1, 0}, {2, 0}};
    assert_path(path, len, want, 3);
    assert_false(geom_path(w.b, 0, (cell_t){1, 0}, 5, w.ps, &cost, path, 16, &len));

    geom_reach_t r[8];
    int n = geom_reach(w.b, 0, 10, 5, w.ps, r, 8);
    assert_int_equal(n, 1);
    assert_int_equal(reach_cost(r, n, 2, 0), 10);
    assert_int_equal(reach_cost(r, n, 1, 0), -1);
    close_world(&w);
}

/* ---- geom_reach ------------------------------------------------------ */

static void test_reach_open_field_counts(void **state)
{
    (void)state;
    map_t *m = make_map(HEX_POINTY, 15, 15, FIELD15);
    add_unit(m, "a", "players", 7, 7);
    world_t w = open_world(m);
    geom_reach_t r[15 * 15];
    hex_t me = w.b->pos[0];
    for (int k = 1; k <= 6; k++) {
        int n = geom_reach(w.b, 0, 5 * k, 5, w.ps, r, 15 * 15);
        assert_int_equal(n, 3 * k * (k + 1));
        for (int j = 0; j < n; j++) {
            int d = hex_distance(me, hex_from_cell(m->layout, r[j].at));
            assert_true(d >= 1 && d <= k);
            assert_int_equal(r[j].cost_ft, 5 * d);
        }
    }
    int n = geom_reach(w.b, 0, 30, 5, w.ps, r, 15 * 15);
    assert_int_equal(reach_cost(r, n, 7, 7), -1);
    assert_int_equal(reach_cost(r, n, 13, 7), 30);
    assert_int_equal(reach_cost(r, n, 14, 7), -1);
    /* A short buffer still reports the full count. */
    assert_int_equal(geom_reach(w.b, 0, 30, 5, w.ps, r, 10), 126);
    close_world(&w);
}

static void test_reach_interval_rounding(void **state)
{
    (void)state;
    const char *const rows[] = {"........"};
    map_t *m = make_map(HEX_POINTY, 8, 1, rows);
    add_unit(m, "a", "players", 0, 0);
    world_t w = open_world(m);
    geom_reach_t r[8];
    /* Raw costs 5..35; with a 10-ft interval they round to 10,10,20,20,30,30,40. */
    int n = geom_reach(w.b, 0, 30, 10, w.ps, r, 8);
    assert_int_equal(n, 6);
    static const int want[7] = {10, 10, 20, 20, 30, 30, -1};
    for (int c = 1; c <= 7; c++)
        assert_int_equal(reach_cost(r, n, c, 0), want[c - 1]);
    /* 25 ft with a 10-ft interval: 25 and 30 round past it. */
    n = geom_reach(w.b, 0, 25, 10, w.ps, r, 8);
    assert_int_equal(n, 4);
    assert_int_equal(reach_cost(r, n, 5, 0), -1);
    /* The same budget in 5-ft steps keeps the 25-ft hex. */
    n = geom_reach(w.b, 0, 25, 5, w.ps, r, 8);
    assert_int_equal(n, 5);
    assert_int_equal(reach_cost(r, n, 5, 0), 25);
    /* 15-ft interval (giant creatures): 5..15 -> 15, 20..30 -> 30. */
    n = geom_reach(w.b, 0, 29, 15, w.ps, r, 8);
    assert_int_equal(n, 3);
    assert_int_equal(reach_cost(r, n, 3, 0), 15);

    int cost, len;
    cell_t path[8];
    assert_true(geom_path(w.b, 0, (cell_t){3, 0}, 10, w.ps, &cost, path, 8, &len));
    assert_int_equal(cost, 20);
    close_world(&w);
}

static void test_reach_budget_edges_with_terrain(void **state)
{
    (void)state;
    const char *const rows[] = {".,#..", ".....", "....."};
    map_t *m = make_map(HEX_POINTY, 5, 3, rows);
    add_unit(m, "a", "players", 0, 0);
    world_t w = open_world(m);
    geom_reach_t r[16];
    /* (0,0) axial (0,0). Neighbours on the map: brush (1,0) at 10 and (0,1) at 5. */
    int n = geom_reach(w.b, 0, 5, 5, w.ps, r, 16);
    assert_int_equal(n, 1);
    assert_int_equal(reach_cost(r, n, 0, 1), 5);
    n = geom_reach(w.b, 0, 10, 5, w.ps, r, 16);
    assert_int_equal(reach_cost(r, n, 1, 0), 10); /* brush at exactly the budget */
    /* Via (0,1), axial (0,1): cells (1,1), (0,2) and (1,2) are axial (1,1),
     * (-1,2) and (0,2), each 10 ft; going on into the brush would be 15. */
    assert_int_equal(reach_cost(r, n, 1, 1), 10);
    assert_int_equal(reach_cost(r, n, 0, 2), 10);
    assert_int_equal(reach_cost(r, n, 1, 2), 10);
    assert_int_equal(n, 5);
    n = geom_reach(w.b, 0, 9, 5, w.ps, r, 16);
    assert_int_equal(n, 1);
    assert_int_equal(geom_reach(w.b, 0, 0, 5, w.ps, r, 16), 0);
    /* The wall (2,0) is never reachable however large the budget. */
    n = geom_reach(w.b, 0, 1000, 5, w.ps, r, 16);
    assert_int_equal(n, 13);
    assert_int_equal(reach_cost(r, n, 2, 0), -1);
    close_world(&w);
}

static void test_reach_skips_occupied_but_passes_allies(void **state)
{
    (void)state;
    const char *const rows[] = {"...", "...", "..."};
    map_t *m = make_map(HEX_POINTY, 3, 3, rows);
    add_unit(m, "a", "players", 1, 1);
    add_unit(m, "b", "players", 2, 1);
    add_unit(m, "e", "raiders", 0, 1);
    world_t w = open_world(m);
    geom_reach_t r[16];
    /* 9 cells less a, b and e; the two corners off a's ring cost 10. */
    int n = geom_reach(w.b, 0, 100, 5, w.ps, r, 16);
    assert_int_equal(n, 6);
    assert_int_equal(reach_cost(r, n, 0, 0), 10);
    assert_int_equal(reach_cost(r, n, 0, 2), 10);
    assert_int_equal(reach_cost(r, n, 1, 0), 5);
    assert_int_equal(reach_cost(r, n, 2, 1), -1);
    assert_int_equal(reach_cost(r, n, 0, 1), -1);
    board_remove(w.b, 2);
    n = geom_reach(w.b, 0, 100, 5, w.ps, r, 16);
    assert_int_equal(n, 7);
    assert_int_equal(reach_cost(r, n, 0, 1), 5);
    close_world(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board_sides_and_occupancy),
        cmocka_unit_test(test_move_cost_per_terrain),
        cmocka_unit_test(test_open_row_costs),
        cmocka_unit_test(test_difficult_terrain_costs_double),
        cmocka_unit_test(test_budget_stops_expansion),
        cmocka_unit_test(test_goal_stops_early_and_reuse_resets),
        cmocka_unit_test(test_callback_drives_costs),
        cmocka_unit_test(test_cheaper_route_found_later),
        cmocka_unit_test(test_resume_matches_fresh_run),
        cmocka_unit_test(test_path_detours_around_wall),
        cmocka_unit_test(test_path_to_self_and_impassable),
        cmocka_unit_test(test_path_unreachable_behind_walls),
        cmocka_unit_test(test_path_ignores_budget),
        cmocka_unit_test(test_enemy_blocks_and_forces_detour),
        cmocka_unit_test(test_ally_passed_not_stood_on),
        cmocka_unit_test(test_reach_open_field_counts),
        cmocka_unit_test(test_reach_interval_rounding),
        cmocka_unit_test(test_reach_budget_edges_with_terrain),
        cmocka_unit_test(test_reach_skips_occupied_but_passes_allies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
