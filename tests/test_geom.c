/* test_geom.c - lengths, footprints, threat zones and flanking (core/geom.h).
 *
 * Maps are pointy/odd: axial (q, r) = (col - (row - (row & 1)) / 2, row).
 * The flanking cases follow RULINGS "Flanking" with xhalem's creature numbers:
 * reach 5 ft, partners within 10 ft, offsets from the target exactly opposite.
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

/* . open  , brush  # wall */
static map_t *make_map(int cols, int rows)
{
    return fx_map((hex_layout_t){HEX_POINTY, HEX_ODD}, cols, rows, ".,#", NULL);
}

static void set_cell(map_t *m, int col, int row, char ch)
{
    const char *legend = ".,#";
    m->cells[row * m->cols + col] = (uint8_t)(strchr(legend, ch) - legend);
}

static int add_unit(map_t *m, const char *id, const char *faction, int col, int row)
{
    return fx_add_unit(m, id, faction, col, row);
}

#define MAX_UNITS 8

/* A board plus one profile per combatant (creature defaults). */
typedef struct {
    map_t *m;
    board_t *b;
    geo_profile_t prof[MAX_UNITS];
} world_t;

static world_t open_world(map_t *m)
{
    world_t w = {.m = m, .b = board_create(m)};
    assert_non_null(w.b);
    assert_true(m->n_combatants <= MAX_UNITS);
    for (int i = 0; i < MAX_UNITS; i++)
        w.prof[i] = (geo_profile_t){.reach_ft = 5, .speed_ft = 30, .dash_ft = 60,
                                    .interval_ft = 5, .flank_ft = 10};
    return w;
}

static void close_world(world_t *w)
{
    board_destroy(w->b);
    map_destroy(w->m);
}

static hex_t at(const world_t *w, int col, int row)
{
    return hex_from_cell(w->m->layout, (cell_t){col, row});
}

static bool has_hex(const hex_t *set, int n, hex_t h)
{
    for (int k = 0; k < n; k++)
        if (hex_eq(set[k], h))
            return true;
    return false;
}

/* ---- lengths and footprints ------------------------------------------ */

static void test_ft_to_hexes(void **state)
{
    (void)state;
    map_t *m = make_map(2, 2);
    assert_int_equal(geom_ft_to_hexes(m, 0), 1);
    assert_int_equal(geom_ft_to_hexes(m, 1), 1);
    assert_int_equal(geom_ft_to_hexes(m, 5), 1);
    assert_int_equal(geom_ft_to_hexes(m, 6), 2);
    assert_int_equal(geom_ft_to_hexes(m, 10), 2);
    assert_int_equal(geom_ft_to_hexes(m, 30), 6);
    assert_int_equal(geom_ft_to_hexes(m, 375), 75);
    m->feet_per_hex = 15; /* mech scale */
    assert_int_equal(geom_ft_to_hexes(m, 10), 1);
    assert_int_equal(geom_ft_to_hexes(m, 15), 1);
    assert_int_equal(geom_ft_to_hexes(m, 16), 2);
    assert_int_equal(geom_ft_to_hexes(m, 375), 25);
    assert_int_equal(geom_ft_to_hexes(m, 525), 35);
    map_destroy(m);
}

static void test_footprint_is_own_hex(void **state)
{
    (void)state;
    map_t *m = make_map(6, 4);
    add_unit(m, "a", "players", 3, 3);
    world_t w = open_world(m);
    hex_t fp[4] = {{99, 99}};
    assert_int_equal(geom_footprint(w.b, 0, fp, 4), 1);
    assert_true(hex_eq(fp[0], hex_make(2, 3)));
    hex_t none = {7, 7};
    assert_int_equal(geom_footprint(w.b, 0, &none, 0), 1);
    assert_true(hex_eq(none, hex_make(7, 7)));
    close_world(&w);
}

/* ---- threat ---------------------------------------------------------- */

static void test_threat_open_ground(void **state)
{
    (void)state;
    map_t *m = make_map(15, 15);
    add_unit(m, "a", "players", 7, 7);
    add_unit(m, "e", "raiders", 8, 7); /* occupied hexes are threatened too */
    world_t w = open_world(m);
    hex_t out[256];
    hex_t me = w.b->pos[0];
    for (int reach = 5, k = 1; k <= 4; reach += 5, k++) {
        int n = geom_threat(w.b, 0, reach, out, 256);
        assert_int_equal(n, 3 * k * (k + 1));
        for (int j = 0; j < n; j++) {
            int d = hex_distance(me, out[j]);
            assert_true(d >= 1 && d <= k);
        }
    }
    /* 6 ft of reach is 2 hexes. */
    assert_int_equal(geom_threat(w.b, 0, 6, out, 256), 18);
    assert_true(geom_threatens(w.b, 0, 5, at(&w, 8, 7)));
    assert_false(geom_threatens(w.b, 0, 5, at(&w, 9, 7)));
    assert_true(geom_threatens(w.b, 0, 10, at(&w, 9, 7)));
    assert_false(geom_threatens(w.b, 0, 10, me));
    close_world(&w);
}

static void test_threat_clipped_by_map_edge(void **state)
{
    (void)state;
    map_t *m = make_map(6, 4);
    add_unit(m, "a", "players", 0, 0);
    world_t w = open_world(m);
    hex_t out[32];
    /* Axial (0,0) in the corner: only cells (1,0) and (0,1) of its ring are on the map. */
    int n = geom_threat(w.b, 0, 5, out, 32);
    assert_int_equal(n, 2);
    assert_true(has_hex(out, n, at(&w, 1, 0)));
    assert_true(has_hex(out, n, at(&w, 0, 1)));
    /* Radius 2: two cells in each of rows 0, 1 and 2. */
    assert_int_equal(geom_threat(w.b, 0, 10, out, 32), 6);
    assert_false(geom_threatens(w.b, 0, 5, hex_make(0, -1)));
    close_world(&w);
}

static void test_threat_cut_by_wall(void **state)
{
    (void)state;
    map_t *m = make_map(15, 15);
    add_unit(m, "a", "players", 7, 7); /* axial (4,7) */
    set_cell(m, 8, 7, '#');            /* axial (5,7), the east neighbour */
    world_t w = open_world(m);
    hex_t out[64];
    /* Of the 18 hexes within 2, the wall hides axial (6,7) straight behind it
     * and (6,6), (5,8), whose lines run along its edges. */
    int n = geom_threat(w.b, 0, 10, out, 64);
    assert_int_equal(n, 15);
    assert_true(has_hex(out, n, hex_make(5, 7))); /* the wall itself is seen */
    assert_false(has_hex(out, n, hex_make(6, 7)));
    assert_false(has_hex(out, n, hex_make(6, 6)));
    assert_false(has_hex(out, n, hex_make(5, 8)));
    assert_true(has_hex(out, n, hex_make(2, 7)));
    assert_false(geom_threatens(w.b, 0, 10, hex_make(6, 7)));
    assert_false(geom_threatens(w.b, 0, 10, at(&w, 9, 6)));
    assert_true(geom_threatens(w.b, 0, 10, hex_make(4, 5)));
    /* Brush does not cut the zone. */
    set_cell(m, 8, 7, ',');
    assert_int_equal(geom_threat(w.b, 0, 10, out, 64), 18);
    close_world(&w);
}

/* ---- flanking -------------------------------------------------------- */

static void test_opposite_offsets(void **state)
{
    (void)state;
    assert_true(geom_opposite(hex_make(1, 0), hex_make(-1, 0)));
    assert_true(geom_opposite(hex_make(1, 0), hex_make(-2, 0)));
    assert_true(geom_opposite(hex_make(0, -1), hex_make(0, 1)));
    assert_true(geom_opposite(hex_make(2, -1), hex_make(-2, 1)));
    assert_true(geom_opposite(hex_make(1, 1), hex_make(-2, -2)));
    assert_false(geom_opposite(hex_make(1, 0), hex_make(0, 1)));   /* 120 degrees */
    assert_false(geom_opposite(hex_make(1, 0), hex_make(-1, 1)));  /* 120 degrees the other way */
    assert_false(geom_opposite(hex_make(2, -1), hex_make(-1, 1))); /* nearly, not exactly */
    assert_false(geom_opposite(hex_make(1, 0), hex_make(2, 0)));   /* same side */
    assert_false(geom_opposite(hex_make(0, 0), hex_make(1, 0)));
}

/* The flank map: a (1,1), t (2,1), b (3,1) in one row, c (2,0) beside t. */
static map_t *flank_map(const char *b_faction)
{
    map_t *m = make_map(6, 3);
    add_unit(m, "a", "players", 1, 1);
    add_unit(m, "b", "players", 3, 1);
    add_unit(m, "c", "players", 2, 0);
    add_unit(m, "t", "raiders", 2, 1);
    strcpy(m->combatants[1].faction, b_faction);
    return m;
}

enum { A, B, C, T, D };

static void test_flank_opposite_allies(void **state)
{
    (void)state;
    world_t w = open_world(flank_map("players"));
    int out[8];
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 8), 1);
    assert_int_equal(out[0], B);
    assert_int_equal(geom_flank_partners(w.b, w.prof, B, T, out, 8), 1);
    assert_int_equal(out[0], A);
    /* c is adjacent to t, 120 degrees from both a and b: nobody opposite. */
    assert_int_equal(geom_flank_partners(w.b, w.prof, C, T, out, 8), 0);
    close_world(&w);
}

static void test_flank_third_attacker_needs_own_partner(void **state)
{
    (void)state;
    map_t *m = flank_map("players");
    add_unit(m, "d", "players", 3, 2); /* axial (2,2): t + (0,1), opposite c */
    world_t w = open_world(m);
    int out[8];
    assert_int_equal(geom_flank_partners(w.b, w.prof, C, T, out, 8), 1);
    assert_int_equal(out[0], D);
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 8), 1);
    assert_int_equal(out[0], B);
    close_world(&w);
}

static void test_flank_enemies_and_absent_do_not_count(void **state)
{
    (void)state;
    world_t w = open_world(flank_map("raiders"));
    int out[8];
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 8), 0);
    close_world(&w);

    w = open_world(flank_map("players"));
    board_remove(w.b, B);
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 8), 0);
    close_world(&w);
}

static void test_flank_partner_out_of_reach(void **state)
{
    (void)state;
    map_t *m = flank_map("players");
    m->combatants[B].at = (cell_t){4, 1}; /* axial (4,1): two hexes east of t */
    world_t w = open_world(m);
    int out[8];
    /* Opposite a, but 5 ft of reach does not reach t. */
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 8), 0);
    /* A 10-ft reach does, and 10 ft is within flanking distance. */
    w.prof[B].reach_ft = 10;
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 8), 1);
    assert_int_equal(out[0], B);
    /* Flanking distance is the partner's own: at 5 ft, 2 hexes is too far. */
    w.prof[B].flank_ft = 5;
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 8), 0);
    close_world(&w);
}

static void test_flank_partner_behind_wall(void **state)
{
    (void)state;
    map_t *m = flank_map("players");
    m->combatants[B].at = (cell_t){4, 1};
    set_cell(m, 3, 1, '#'); /* between b and t */
    world_t w = open_world(m);
    w.prof[B].reach_ft = 10;
    int out[8];
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 8), 0);
    assert_int_equal(geom_flank_partners(w.b, w.prof, B, T, out, 8), 0);
    close_world(&w);
}

static void test_flank_attacker_must_threaten(void **state)
{
    (void)state;
    map_t *m = flank_map("players");
    m->combatants[A].at = (cell_t){0, 1}; /* axial (0,1): two hexes west of t */
    world_t w = open_world(m);
    int out[8];
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 8), 0);
    assert_int_equal(geom_flank_partners(w.b, w.prof, B, T, out, 8), 0);
    w.prof[A].reach_ft = 10;
    assert_int_equal(geom_flank_partners(w.b, w.prof, B, T, out, 8), 1);
    assert_int_equal(out[0], A);
    close_world(&w);
}

static void test_flank_two_partners_and_cap(void **state)
{
    (void)state;
    map_t *m = flank_map("players");
    add_unit(m, "b2", "players", 4, 1); /* behind b, also opposite a */
    world_t w = open_world(m);
    w.prof[4].reach_ft = 10;
    int out[8];
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 8), 2);
    assert_int_equal(out[0], B);
    assert_int_equal(out[1], 4);
    out[1] = -5;
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 1), 2);
    assert_int_equal(out[0], B);
    assert_int_equal(out[1], -5);
    close_world(&w);
}

static void test_no_flanking_in_ruleset(void **state)
{
    (void)state;
    world_t w = open_world(flank_map("players"));
    for (int i = 0; i < w.m->n_combatants; i++)
        w.prof[i].flank_ft = 0;
    int out[8];
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, T, out, 8), 0);
    assert_int_equal(geom_flank_partners(w.b, w.prof, A, A, out, 8), 0);
    close_world(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ft_to_hexes),
        cmocka_unit_test(test_footprint_is_own_hex),
        cmocka_unit_test(test_threat_open_ground),
        cmocka_unit_test(test_threat_clipped_by_map_edge),
        cmocka_unit_test(test_threat_cut_by_wall),
        cmocka_unit_test(test_opposite_offsets),
        cmocka_unit_test(test_flank_opposite_allies),
        cmocka_unit_test(test_flank_third_attacker_needs_own_partner),
        cmocka_unit_test(test_flank_enemies_and_absent_do_not_count),
        cmocka_unit_test(test_flank_partner_out_of_reach),
        cmocka_unit_test(test_flank_partner_behind_wall),
        cmocka_unit_test(test_flank_attacker_must_threaten),
        cmocka_unit_test(test_flank_two_partners_and_cap),
        cmocka_unit_test(test_no_flanking_in_ruleset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
