/* test_vision.c - what a faction sees (core/vision.h): hand-worked maps with
 * walls, the union over several viewers, the memory of seen hexes, and which
 * combatants the viewing sides may see. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/sight.h"
#include "core/vision.h"
#include "map_fixture.h"

static const hex_layout_t POINTY_ODD = {HEX_POINTY, HEX_ODD};
static const hex_layout_t FLAT_EVEN = {HEX_FLAT, HEX_EVEN};

/* A closed room: its three inner hexes touch only wall hexes (pointy/odd). */
static const char *const ROOM[] = {
    ".........", /* row 0 */
    ".#####...", /* row 1 */
    ".#...#...", /* row 2: inside (2..4, 2) */
    ".#####...", /* row 3 */
    ".........", /* row 4 */
};

static bool is_wall(const map_t *m, int col, int row)
{
    return m->types[m->cells[row * m->cols + col]].blocks_sight;
}

static bool inside(int col, int row)
{
    return row == 2 && col >= 2 && col <= 4;
}

/* A faction inside the room sees the room and its walls, nothing beyond. */
static void room_hides_the_outside(void **state)
{
    (void)state;
    map_t *m = fx_map(POINTY_ODD, 9, 5, ".#", ROOM);
    fx_add_unit(m, "guard", "raiders", 3, 2);
    fx_add_unit(m, "kara", "players", 7, 2);
    board_t *b = board_create(m);
    vision_t *v = vision_create(m);
    assert_non_null(b);
    assert_non_null(v);

    unsigned raiders = vision_side_mask(b, "raiders");
    assert_int_not_equal(raiders, 0);
    vision_update(v, b, raiders);
    for (int row = 0; row < 5; row++)
        for (int col = 0; col < 9; col++) {
            bool vis = vision_visible(v, (cell_t){col, row});
            if (inside(col, row))
                assert_true(vis);
            else if (!is_wall(m, col, row))
                assert_false(vis); /* every open hex outside lies behind a wall */
        }
    /* The walls next to the guard are seen: an endpoint never blocks. */
    assert_true(vision_visible(v, (cell_t){3, 1}));
    assert_true(vision_visible(v, (cell_t){5, 2}));
    /* From inside, kara outside is not seen; the guard's own side always is. */
    assert_false(vision_sees_combatant(v, b, raiders, 1));
    assert_true(vision_sees_combatant(v, b, raiders, 0));

    /* The players outside see no hex inside the room, so not the guard. */
    unsigned players = vision_player_sides(b);
    assert_int_equal(players, vision_side_mask(b, "players"));
    vision_update(v, b, players);
    for (int col = 2; col <= 4; col++)
        assert_false(vision_visible(v, (cell_t){col, 2}));
    assert_true(vision_visible(v, (cell_t){7, 2}));
    /* Open ground on kara's side of the room; the far side is in its shadow. */
    assert_true(vision_visible(v, (cell_t){6, 0}));
    assert_true(vision_visible(v, (cell_t){8, 4}));
    assert_false(vision_visible(v, (cell_t){0, 2}));
    assert_false(vision_sees_combatant(v, b, players, 0));
    assert_true(vision_sees_combatant(v, b, players, 1));

    vision_destroy(v);
    board_destroy(b);
    map_destroy(m);
}

/* A wall in a row blocks the hexes straight behind it, not those before it. */
static void wall_in_a_row(void **state)
{
    (void)state;
    static const char *const ROW[] = {"...#...."};
    map_t *m = fx_map(POINTY_ODD, 8, 1, ".#", ROW);
    fx_add_unit(m, "kara", "players", 0, 0);
    board_t *b = board_create(m);
    vision_t *v = vision_create(m);
    vision_update(v, b, vision_player_sides(b));
    for (int col = 0; col < 8; col++)
        assert_int_equal(vision_visible(v, (cell_t){col, 0}), col <= 3);
    assert_int_equal(vision_count_visible(v), 4);
    vision_destroy(v);
    board_destroy(b);
    map_destroy(m);
}

/* Two player factions pool their sight; a removed combatant sees nothing. */
static void sight_is_the_union_of_the_viewers(void **state)
{
    (void)state;
    map_t *m = fx_map(POINTY_ODD, 9, 5, ".#", ROOM);
    strcpy(m->factions[0].name, "players");
    m->factions[0].player = true;
    strcpy(m->factions[1].name, "allies");
    m->factions[1].player = true;
    strcpy(m->factions[2].name, "raiders");
    m->factions[2].player = false;
    m->n_factions = 3;
    m->factions_given = true;
    fx_add_unit(m, "scout", "allies", 3, 2); /* inside */
    fx_add_unit(m, "kara", "players", 7, 2); /* outside */
    fx_add_unit(m, "raider", "raiders", 8, 4);
    board_t *b = board_create(m);
    vision_t *v = vision_create(m);
    unsigned sides = vision_player_sides(b);
    assert_int_equal(sides, vision_side_mask(b, "players") | vision_side_mask(b, "allies"));

    vision_update(v, b, sides);
    /* Inside (from the scout) and outside (from kara) at once. */
    assert_true(vision_visible(v, (cell_t){2, 2}));
    assert_true(vision_visible(v, (cell_t){8, 4}));
    assert_true(vision_sees_combatant(v, b, sides, 2));

    /* Every cell is visible exactly when some viewer has clear sight to it. */
    for (int c = 0; c < m->cols * m->rows; c++) {
        hex_t h = board_hex_of(b, c);
        bool want = sight_clear(b, b->pos[0], h) || sight_clear(b, b->pos[1], h);
        assert_int_equal(vision_visible(v, map_cell_of(m, c)), want);
    }

    /* Without kara only the room is seen, and the raider drops out of view. */
    board_remove(b, 1);
    vision_update(v, b, sides);
    assert_false(vision_visible(v, (cell_t){8, 4}));
    assert_false(vision_sees_combatant(v, b, sides, 2));
    assert_false(vision_sees_combatant(v, b, sides, 1)); /* off the board */
    vision_destroy(v);
    board_destroy(b);
    map_destroy(m);
}

/* Hexes seen once stay remembered after the viewer walks away. */
static void memory_of_seen_hexes(void **state)
{
    (void)state;
    map_t *m = fx_map(POINTY_ODD, 9, 5, ".#", ROOM);
    fx_add_unit(m, "kara", "players", 3, 2);
    board_t *b = board_create(m);
    vision_t *v = vision_create(m);
    unsigned sides = vision_player_sides(b);
    vision_update(v, b, sides);
    assert_int_equal(vision_state(v, (cell_t){7, 2}), VIS_UNSEEN);
    assert_int_equal(vision_state(v, (cell_t){2, 2}), VIS_VISIBLE);

    board_place(b, 0, hex_from_cell(m->layout, (cell_t){7, 2}));
    vision_update(v, b, sides);
    assert_int_equal(vision_state(v, (cell_t){2, 2}), VIS_REMEMBERED);
    assert_int_equal(vision_state(v, (cell_t){4, 2}), VIS_REMEMBERED);
    assert_int_equal(vision_state(v, (cell_t){7, 2}), VIS_VISIBLE);
    assert_int_equal(vision_state(v, (cell_t){-1, 0}), VIS_UNSEEN);
    assert_int_equal(vision_state(v, (cell_t){9, 0}), VIS_UNSEEN);

    vision_clear(v);
    assert_int_equal(vision_state(v, (cell_t){2, 2}), VIS_UNSEEN);
    assert_int_equal(vision_count_visible(v), 0);
    vision_destroy(v);
    board_destroy(b);
    map_destroy(m);
}

/* Flat hexes: a wall column between two groups; a faction with nobody on the
 * board sees nothing at all. */
static void flat_wall_column(void **state)
{
    (void)state;
    static const char *const COLS[] = {
        "...#...", "...#...", "...#...", "...#...", "...#...",
    };
    map_t *m = fx_map(FLAT_EVEN, 7, 5, ".#", COLS);
    fx_add_unit(m, "kara", "players", 1, 2);
    fx_add_unit(m, "ogre", "raiders", 5, 2);
    board_t *b = board_create(m);
    vision_t *v = vision_create(m);
    unsigned players = vision_player_sides(b);
    vision_update(v, b, players);
    for (int row = 0; row < 5; row++) {
        for (int col = 0; col < 3; col++)
            assert_true(vision_visible(v, (cell_t){col, row}));
        for (int col = 4; col < 7; col++)
            assert_false(vision_visible(v, (cell_t){col, row}));
    }
    assert_false(vision_sees_combatant(v, b, players, 1));
    vision_update(v, b, 0);
    assert_int_equal(vision_count_visible(v), 0);
    assert_int_equal(vision_side_mask(b, "nobody"), 0);
    vision_destroy(v);
    board_destroy(b);
    map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(room_hides_the_outside),
        cmocka_unit_test(wall_in_a_row),
        cmocka_unit_test(sight_is_the_union_of_the_viewers),
        cmocka_unit_test(memory_of_seen_hexes),
        cmocka_unit_test(flat_wall_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
