/* test_edit.c - editor operations: apply/undo as a property over random edit
 * sequences, hand-checked paint, flood fill and resize, layout changes that
 * keep neighbours, and a save/load round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/edit.h"
#include "io/fileio.h"
#include "io/map_io.h"

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d ? d : HB_SOURCE_DIR "/data";
}

/* A new map of the built-in terrain, all "open". */
static map_t *new_map(int cols, int rows, hex_layout_t lay)
{
    terrain_t types[MAP_MAX_TERRAIN];
    int n = 0;
    char err[HB_ERR_MAX];
    assert_int_equal(terrain_load_builtin(data_dir(), types, MAP_MAX_TERRAIN, &n, err, sizeof err),
                     0);
    int open = -1;
    for (int i = 0; i < n; i++)
        if (strcmp(types[i].name, "open") == 0) open = i;
    assert_true(open >= 0);
    map_t *m = edit_new_map(cols, rows, types, n, open);
    assert_non_null(m);
    m->layout = lay;
    return m;
}

static int type_of(const map_t *m, const char *name)
{
    int t = map_find_type(m, name);
    assert_true(t >= 0);
    return t;
}

static bool unit_equal(const map_combatant_t *a, const map_combatant_t *b)
{
    if (strcmp(a->id, b->id) || strcmp(a->name, b->name) || strcmp(a->faction, b->faction) ||
        strcmp(a->template_name, b->template_name) || strcmp(a->token, b->token))
        return false;
    if (a->at.col != b->at.col || a->at.row != b->at.row || a->kind != b->kind ||
        a->size != b->size || a->speed_ft != b->speed_ft || a->fly_ft != b->fly_ft ||
        a->hp != b->hp || a->hp_max != b->hp_max || a->reach_ft != b->reach_ft ||
        a->n_weapons != b->n_weapons || a->n_stats != b->n_stats || a->given != b->given)
        return false;
    for (int i = 0; i < a->n_weapons; i++)
        if (strcmp(a->weapons[i], b->weapons[i])) return false;
    for (int i = 0; i < a->n_stats; i++)
        if (strcmp(a->stats[i].key, b->stats[i].key) || a->stats[i].value != b->stats[i].value)
            return false;
    return true;
}

static bool type_equal(const terrain_t *a, const terrain_t *b)
{
    return !strcmp(a->name, b->name) && a->move == b->move && a->cover == b->cover &&
           a->blocks_sight == b->blocks_sight && a->color == b->color &&
           !strcmp(a->texture, b->texture) && !strcmp(a->opens_to, b->opens_to) &&
           a->in_map == b->in_map;
}

/* Field-by-field equality; the legend is only how a file spells cells, so
 * it is left out. Prints the first difference to help a failing run. */
static bool map_equal(const map_t *a, const map_t *b)
{
#define DIFF(what)                                                                                 \
    do {                                                                                           \
        print_message("maps differ: %s\n", what);                                                  \
        return false;                                                                              \
    } while (0)
    if (strcmp(a->name, b->name) || strcmp(a->ruleset, b->ruleset)) DIFF("name/ruleset");
    if (a->cols != b->cols || a->rows != b->rows || a->feet_per_hex != b->feet_per_hex)
        DIFF("size");
    if (a->layout.orient != b->layout.orient || a->layout.stagger != b->layout.stagger)
        DIFF("layout");
    if (a->n_types != b->n_types) DIFF("type count");
    for (int i = 0; i < a->n_types; i++)
        if (!type_equal(&a->types[i], &b->types[i])) DIFF("a terrain type");
    if (memcmp(a->cells, b->cells, (size_t)a->cols * (size_t)a->rows)) DIFF("cells");
    if (a->n_combatants != b->n_combatants) DIFF("combatant count");
    for (int i = 0; i < a->n_combatants; i++)
        if (!unit_equal(&a->combatants[i], &b->combatants[i])) DIFF("a combatant");
    if (a->n_factions != b->n_factions || a->factions_given != b->factions_given) DIFF("factions");
    for (int i = 0; i < a->n_factions; i++)
        if (strcmp(a->factions[i].name, b->factions[i].name) ||
            a->factions[i].player != b->factions[i].player)
            DIFF("a faction");
    return true;
#undef DIFF
}

/* Cells of m whose type is t. */
static int count_type(const map_t *m, int t)
{
    int n = 0;
    for (int i = 0; i < m->cols * m->rows; i++)
        n += m->cells[i] == t;
    return n;
}

static void test_paint_radius(void **state)
{
    (void)state;
    hex_layout_t lay = {HEX_POINTY, HEX_ODD};
    map_t *m = new_map(9, 9, lay);
    int water = type_of(m, "water");
    cell_t centre = {4, 4};
    edit_history_t h;
    edit_history_init(&h);
    for (int radius = 1; radius <= 3; radius++) {
        edit_t e;
        assert_true(edit_paint(m, centre, radius, water, &e));
        assert_true(edit_do(&h, m, &e));
        /* Radius r covers every hex within r-1 of the centre and nothing else. */
        hex_t c = hex_from_cell(lay, centre);
        int expect = 1 + 3 * (radius - 1) * radius;
        assert_int_equal(count_type(m, water), expect);
        for (int i = 0; i < m->cols * m->rows; i++) {
            int d = hex_distance(c, hex_from_cell(lay, map_cell_of(m, i)));
            assert_int_equal(m->cells[i] == water, d <= radius - 1);
        }
        assert_true(edit_undo(&h, m));
        assert_int_equal(count_type(m, water), 0);
    }
    /* At a corner the brush clips to the map. */
    edit_t e;
    assert_true(edit_paint(m, (cell_t){0, 0}, 2, water, &e));
    assert_int_equal(e.u.cells.n, 3);
    edit_free(&e);
    /* The eraser paints open back. */
    assert_true(edit_paint(m, centre, 3, water, &e));
    assert_true(edit_do(&h, m, &e));
    assert_true(edit_erase(m, centre, 2, &e));
    assert_true(edit_do(&h, m, &e));
    assert_int_equal(count_type(m, water), 19 - 7);
    assert_int_equal(m->cells[map_index(m, centre)], type_of(m, "open"));
    edit_history_free(&h);
    map_destroy(m);
}

static void test_line(void **state)
{
    (void)state;
    map_t *m = new_map(10, 3, (hex_layout_t){HEX_POINTY, HEX_ODD});
    int wall = type_of(m, "wall");
    edit_t e;
    assert_true(edit_line(m, (cell_t){0, 1}, (cell_t){9, 1}, 1, wall, &e));
    assert_true(edit_apply(m, &e));
    for (int c = 0; c < 10; c++) {
        assert_int_equal(m->cells[map_index(m, (cell_t){c, 1})], wall);
        assert_int_not_equal(m->cells[map_index(m, (cell_t){c, 0})], wall);
    }
    assert_true(edit_apply(m, &e));
    assert_int_equal(count_type(m, wall), 0);
    edit_free(&e);
    map_destroy(m);
}

static void test_flood(void **state)
{
    (void)state;
    /* A wall ring around the centre of a pointy map: a fill inside stays inside. */
    hex_layout_t lay = {HEX_POINTY, HEX_ODD};
    map_t *m = new_map(11, 11, lay);
    int wall = type_of(m, "wall"), water = type_of(m, "water");
    hex_t c = hex_from_cell(lay, (cell_t){5, 5});
    hex_t ring[12];
    int n = hex_ring(c, 2, ring, 12);
    for (int i = 0; i < n; i++)
        m->cells[map_index(m, hex_to_cell(lay, ring[i]))] = wall;
    edit_t e;
    assert_true(edit_flood(m, (cell_t){5, 5}, water, &e));
    assert_true(edit_apply(m, &e));
    assert_int_equal(count_type(m, water), 7);
    for (int i = 0; i < m->cols * m->rows; i++)
        if (m->cells[i] == water)
            assert_true(hex_distance(c, hex_from_cell(lay, map_cell_of(m, i))) <= 1);
    edit_free(&e);
    /* Outside the ring, the fill takes everything else that is open. */
    int before = m->cols * m->rows - 7 - 12;
    assert_true(edit_flood(m, (cell_t){0, 0}, water, &e));
    assert_int_equal(e.u.cells.n, before);
    assert_true(edit_apply(m, &e));
    assert_int_equal(count_type(m, water), m->cols * m->rows - 12);
    assert_true(edit_apply(m, &e));
    assert_int_equal(count_type(m, water), 7);
    edit_free(&e);
    /* Filling with the same type is a no-op. */
    assert_true(edit_flood(m, (cell_t){5, 5}, water, &e));
    assert_true(edit_is_noop(&e));
    edit_free(&e);
    map_destroy(m);
}

static void test_resize(void **state)
{
    (void)state;
    map_t *m = new_map(4, 4, (hex_layout_t){HEX_POINTY, HEX_ODD});
    int wall = type_of(m, "wall"), water = type_of(m, "water"), open = type_of(m, "open");
    m->cells[map_index(m, (cell_t){0, 0})] = wall;
    m->cells[map_index(m, (cell_t){3, 3})] = water;
    map_combatant_t u;
    edit_unit_from_template(NULL, "a", "players", (cell_t){3, 3}, &u);
    edit_t e;
    assert_true(edit_unit_add(m, &u, &e));
    assert_true(edit_apply(m, &e));
    edit_free(&e);

    /* Grow anchored bottom-right: everything moves by (+2, +2) (even: parity kept). */
    assert_true(edit_resize(m, 6, 6, (edit_anchor_t){2, 2}, wall, &e));
    assert_true(edit_apply(m, &e));
    assert_int_equal(m->cols, 6);
    assert_int_equal(m->rows, 6);
    assert_int_equal(m->cells[map_index(m, (cell_t){2, 2})], wall);
    assert_int_equal(m->cells[map_index(m, (cell_t){5, 5})], water);
    assert_int_equal(m->cells[map_index(m, (cell_t){3, 3})], open);
    assert_int_equal(m->cells[map_index(m, (cell_t){0, 5})], wall); /* the fill */
    assert_int_equal(count_type(m, wall), 36 - 16 + 1);
    assert_int_equal(m->combatants[0].at.col, 5);
    assert_int_equal(m->combatants[0].at.row, 5);
    assert_true(edit_apply(m, &e)); /* undo */
    edit_free(&e);
    assert_int_equal(m->cols, 4);
    assert_int_equal(m->cells[0], wall);

    /* Shrink anchored top-left: what fits stays, the combatant off the edge goes. */
    assert_true(edit_resize(m, 2, 3, (edit_anchor_t){0, 0}, open, &e));
    assert_true(edit_apply(m, &e));
    assert_int_equal(m->cols * m->rows, 6);
    assert_int_equal(m->cells[0], wall);
    assert_int_equal(count_type(m, water), 0);
    assert_int_equal(m->n_combatants, 0);
    assert_true(edit_apply(m, &e));
    assert_int_equal(m->n_combatants, 1);
    assert_int_equal(m->cells[map_index(m, (cell_t){3, 3})], water);
    edit_free(&e);

    /* Centre anchor on a pointy map, 4 -> 7: columns shift by 1; rows would
     * shift by an odd 1, which would shear the hexes, so they shift by 0. */
    assert_true(edit_resize(m, 7, 7, (edit_anchor_t){1, 1}, open, &e));
    assert_true(edit_apply(m, &e));
    assert_int_equal(m->cells[map_index(m, (cell_t){1, 0})], wall);
    assert_int_equal(m->cells[map_index(m, (cell_t){4, 3})], water);
    edit_free(&e);
    /* 7 -> 11 rows: an even shift of 2 is kept. */
    assert_true(edit_resize(m, 7, 11, (edit_anchor_t){0, 1}, open, &e));
    assert_true(edit_apply(m, &e));
    assert_int_equal(m->cells[map_index(m, (cell_t){1, 2})], wall);
    edit_free(&e);
    map_destroy(m);
}

/* Every pair of neighbours on a stays neighbours on b, where cell (c, r) of a
 * went to to[r * cols + c]. */
static void check_neighbours_kept(const map_t *a, const map_t *b, const cell_t *to)
{
    for (int i = 0; i < a->cols * a->rows; i++) {
        cell_t c = map_cell_of(a, i);
        hex_t h = hex_from_cell(a->layout, c);
        for (int d = 0; d < 6; d++) {
            cell_t nc = hex_to_cell(a->layout, hex_neighbor(h, d));
            if (!map_in_bounds(a, nc)) continue;
            cell_t p = to[i], q = to[map_index(a, nc)];
            if (p.col < 0 || q.col < 0) continue;
            assert_int_equal(hex_distance(hex_from_cell(b->layout, p), hex_from_cell(b->layout, q)),
                             1);
        }
    }
}

static void test_layout(void **state)
{
    (void)state;
    map_t *m = new_map(5, 4, (hex_layout_t){HEX_POINTY, HEX_ODD});
    /* Give every cell its own value by spreading the types, then track them. */
    for (int i = 0; i < 20; i++)
        m->cells[i] = (uint8_t)(i % m->n_types);
    map_t *orig = map_clone(m);
    edit_t e;
    /* Orientation: reflect across the diagonal; all cells kept, cols/rows swap. */
    assert_true(edit_layout(m, (hex_layout_t){HEX_FLAT, HEX_ODD}, 0, &e));
    assert_true(edit_apply(m, &e));
    assert_int_equal(m->cols, 4);
    assert_int_equal(m->rows, 5);
    cell_t to[20];
    for (int i = 0; i < 20; i++) {
        cell_t c = map_cell_of(orig, i);
        to[i] = (cell_t){c.row, c.col};
        assert_int_equal(m->cells[map_index(m, to[i])], orig->cells[i]);
    }
    check_neighbours_kept(orig, m, to);
    assert_true(edit_apply(m, &e));
    assert_true(map_equal(m, orig));
    edit_free(&e);

    /* Stagger: every hex keeps its axial coordinate (so its screen position). */
    hex_layout_t even = {HEX_POINTY, HEX_EVEN};
    assert_true(edit_layout(m, even, 0, &e));
    assert_true(edit_apply(m, &e));
    for (int i = 0; i < 20; i++) {
        cell_t c = map_cell_of(orig, i);
        to[i] = hex_to_cell(even, hex_from_cell(orig->layout, c));
        if (!map_in_bounds(m, to[i])) {
            to[i].col = -1;
            continue;
        }
        assert_int_equal(m->cells[map_index(m, to[i])], orig->cells[i]);
    }
    check_neighbours_kept(orig, m, to);
    assert_true(edit_apply(m, &e));
    assert_true(map_equal(m, orig));
    edit_free(&e);
    map_destroy(orig);
    map_destroy(m);
}

/* ---- the property: random edits, undo all, redo all ---- */

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

static cell_t rnd_cell(const map_t *m, unsigned *s)
{
    return (cell_t){(int)(rnd(s) % (unsigned)m->cols), (int)(rnd(s) % (unsigned)m->rows)};
}

/* One random edit of any kind that applies to m; false if it could not build one. */
static bool random_edit(const map_t *m, unsigned *s, edit_t *e)
{
    int kind = (int)(rnd(s) % 14);
    int type = (int)(rnd(s) % (unsigned)m->n_types);
    switch (kind) {
    case 0:
        return edit_paint(m, rnd_cell(m, s), 1 + (int)(rnd(s) % 3), type, e);
    case 1:
        return edit_line(m, rnd_cell(m, s), rnd_cell(m, s), 1 + (int)(rnd(s) % 2), type, e);
    case 2:
        return edit_flood(m, rnd_cell(m, s), type, e);
    case 3:
        return edit_erase(m, rnd_cell(m, s), 2, e);
    case 4: {
        terrain_t t = {0};
        snprintf(t.name, sizeof t.name, "t%u", rnd(s));
        t.move = (int)(rnd(s) % 3);
        t.color = rnd(s) * 977u;
        return edit_type_add(m, &t, e);
    }
    case 5: {
        terrain_t t = m->types[type];
        t.cover = (cover_t)(rnd(s) % 4);
        t.color ^= 0x00ff00;
        return edit_type_set(m, type, &t, e);
    }
    case 6:
    case 7: {
        map_combatant_t u;
        char id[MAP_ID_MAX];
        edit_unique_id(m, "unit", id);
        edit_unit_from_template(NULL, id, rnd(s) % 2 ? "players" : "raiders", rnd_cell(m, s), &u);
        return edit_unit_add(m, &u, e);
    }
    case 8:
        if (!m->n_combatants) return false;
        return edit_unit_del(m, (int)(rnd(s) % (unsigned)m->n_combatants), e);
    case 9:
        if (!m->n_combatants) return false;
        return edit_unit_move(m, (int)(rnd(s) % (unsigned)m->n_combatants), rnd_cell(m, s), e);
    case 10: {
        if (!m->n_combatants) return false;
        int i = (int)(rnd(s) % (unsigned)m->n_combatants);
        map_combatant_t u = m->combatants[i];
        snprintf(u.name, sizeof u.name, "Name %u", rnd(s));
        u.given |= GIVEN_NAME;
        edit_stat_put(&u, "armor", (int)(rnd(s) % 20), rnd(s) % 3 == 0);
        hb_strlcpy(u.faction, rnd(s) % 2 ? "players" : "beasts", sizeof u.faction);
        return edit_unit_set(m, i, &u, e);
    }
    case 11:
        return edit_faction_set(m, rnd(s) % 2 ? "raiders" : "players", rnd(s) % 2, e);
    case 12: {
        edit_props_t p;
        snprintf(p.name, sizeof p.name, "Map %u", rnd(s));
        hb_strlcpy(p.ruleset, rnd(s) % 2 ? "scars" : "xhalem", sizeof p.ruleset);
        p.feet_per_hex = 1 + (int)(rnd(s) % 10);
        return edit_props(m, &p, e);
    }
    default:
        if (rnd(s) % 2)
            return edit_resize(m, 3 + (int)(rnd(s) % 10), 3 + (int)(rnd(s) % 10),
                               (edit_anchor_t){(int)(rnd(s) % 3), (int)(rnd(s) % 3)}, type, e);
        return edit_layout(
            m, (hex_layout_t){(hex_orient_t)(rnd(s) % 2), (hex_stagger_t)(rnd(s) % 2)}, type, e);
    }
}

static void test_undo_redo_property(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 60; seed++) {
        unsigned s = seed;
        map_t *m = new_map(6 + (int)(seed % 5), 5 + (int)(seed % 4),
                           (hex_layout_t){(hex_orient_t)(seed % 2), (hex_stagger_t)(seed / 2 % 2)});
        map_t *orig = map_clone(m);
        edit_history_t h;
        edit_history_init(&h);
        int done = 0;
        for (int k = 0; k < 40; k++) {
            edit_t e;
            if (!random_edit(m, &s, &e)) continue;
            if (edit_do(&h, m, &e)) done++;
        }
        assert_true(done > 20);
        assert_int_equal(h.n, done);
        map_t *edited = map_clone(m);
        assert_true(edit_history_dirty(&h));
        while (edit_undo(&h, m)) {
        }
        assert_int_equal(h.pos, 0);
        assert_true(map_equal(m, orig));
        assert_false(edit_history_dirty(&h));
        while (edit_redo(&h, m)) {
        }
        assert_int_equal(h.pos, done);
        assert_true(map_equal(m, edited));
        edit_history_free(&h);
        map_destroy(edited);
        map_destroy(orig);
        map_destroy(m);
    }
}

static void test_group_and_redo_drop(void **state)
{
    (void)state;
    map_t *m = new_map(8, 8, (hex_layout_t){HEX_FLAT, HEX_EVEN});
    int water = type_of(m, "water"), wall = type_of(m, "wall");
    map_t *orig = map_clone(m);
    /* A stroke: overlapping dabs applied live, then recorded as one step. */
    edit_t g, e;
    edit_group_init(&g);
    for (int c = 1; c < 5; c++) {
        assert_true(edit_paint(m, (cell_t){c, 3}, 2, c % 2 ? water : wall, &e));
        assert_true(edit_apply(m, &e));
        assert_true(edit_group_push(&g, &e));
    }
    edit_history_t h;
    edit_history_init(&h);
    assert_true(edit_record(&h, &g));
    assert_true(edit_undo(&h, m));
    assert_true(map_equal(m, orig));
    /* A new edit after an undo drops the redo. */
    assert_true(edit_paint(m, (cell_t){0, 0}, 1, wall, &e));
    assert_true(edit_do(&h, m, &e));
    assert_int_equal(h.n, 1);
    assert_false(edit_redo(&h, m));
    edit_history_mark_saved(&h);
    assert_false(edit_history_dirty(&h));
    assert_true(edit_undo(&h, m));
    assert_true(edit_history_dirty(&h));
    edit_history_free(&h);
    map_destroy(orig);
    map_destroy(m);
}

static void test_bad_edits_refused(void **state)
{
    (void)state;
    map_t *m = new_map(4, 4, (hex_layout_t){HEX_POINTY, HEX_ODD});
    edit_t e;
    assert_false(edit_paint(m, (cell_t){1, 1}, 4, 0, &e));
    assert_false(edit_paint(m, (cell_t){1, 1}, 1, m->n_types, &e));
    terrain_t t = m->types[0];
    assert_false(edit_type_add(m, &t, &e)); /* name taken */
    map_combatant_t u;
    edit_unit_from_template(NULL, "a", "players", (cell_t){1, 1}, &u);
    assert_true(edit_unit_add(m, &u, &e));
    assert_true(edit_apply(m, &e));
    edit_free(&e);
    u.at = (cell_t){2, 2};
    assert_false(edit_unit_add(m, &u, &e)); /* id taken */
    hb_strlcpy(u.id, "b", sizeof u.id);
    u.at = (cell_t){1, 1};
    assert_false(edit_unit_add(m, &u, &e)); /* cell taken */
    assert_false(edit_unit_move(m, 0, (cell_t){9, 9}, &e));
    map_destroy(m);
}

/* Combatants placed from one template get "Name", "Name 2", "Name 3". */
static void test_unique_names(void **state)
{
    (void)state;
    map_t *m = new_map(6, 6, (hex_layout_t){HEX_POINTY, HEX_ODD});
    const char *want[] = {"Ridge Scout", "Ridge Scout 2", "Ridge Scout 3"};
    for (int i = 0; i < 3; i++) {
        map_combatant_t u;
        char id[MAP_ID_MAX];
        edit_unique_id(m, "scout", id);
        edit_unit_from_template(NULL, id, "players", (cell_t){i, i}, &u);
        hb_strlcpy(u.name, "Ridge Scout", sizeof u.name);
        edit_unique_name(m, -1, &u);
        assert_string_equal(u.name, want[i]);
        edit_t e;
        assert_true(edit_unit_add(m, &u, &e));
        assert_true(edit_apply(m, &e));
        edit_free(&e);
    }
    /* A combatant keeps its own name when checked against the others. */
    map_combatant_t c = m->combatants[1];
    edit_unique_name(m, 1, &c);
    assert_string_equal(c.name, "Ridge Scout 2");
    /* An empty name stays empty (the id labels it). */
    c.name[0] = '\0';
    edit_unique_name(m, -1, &c);
    assert_string_equal(c.name, "");
    map_destroy(m);
}

static void test_checks(void **state)
{
    (void)state;
    map_t *m = new_map(5, 5, (hex_layout_t){HEX_POINTY, HEX_ODD});
    char out[8][160];
    assert_int_equal(edit_check(m, NULL, out, 8), 1); /* nobody on the map */
    map_combatant_t u;
    edit_unit_from_template(NULL, "a", "players", (cell_t){1, 1}, &u);
    edit_t e;
    assert_true(edit_unit_add(m, &u, &e));
    assert_true(edit_apply(m, &e));
    edit_free(&e);
    assert_int_equal(edit_check(m, NULL, out, 8), 1);
    assert_non_null(strstr(out[0], "one faction"));
    edit_unit_from_template(NULL, "b", "raiders", (cell_t){3, 3}, &u);
    hb_strlcpy(u.template_name, "no_such_template", sizeof u.template_name);
    assert_true(edit_unit_add(m, &u, &e));
    assert_true(edit_apply(m, &e));
    edit_free(&e);
    tmpl_db_t *db = NULL;
    char err[HB_ERR_MAX];
    assert_int_equal(tmpl_db_load(data_dir(), "xhalem", &db, err, sizeof err), 0);
    assert_int_equal(edit_check(m, db, out, 8), 1);
    assert_non_null(strstr(out[0], "no_such_template"));
    m->cells[map_index(m, (cell_t){1, 1})] = (uint8_t)type_of(m, "wall");
    assert_int_equal(edit_check(m, db, out, 8), 2);
    assert_non_null(strstr(out[0], "impassable"));
    tmpl_db_destroy(db);
    map_destroy(m);
}

static void test_save_load_round_trip(void **state)
{
    (void)state;
    char err[HB_ERR_MAX];
    map_t *m = NULL;
    tmpl_db_t *db = NULL;
    assert_int_equal(
        map_load(HB_SOURCE_DIR "/maps/ridge_ambush.json", data_dir(), &m, &db, err, sizeof err), 0);
    edit_history_t h;
    edit_history_init(&h);
    edit_t e;
    terrain_t bog = {.move = 2, .cover = COVER_LIGHT, .color = 0x556b2f};
    hb_strlcpy(bog.name, "mire", sizeof bog.name);
    assert_true(edit_type_add(m, &bog, &e));
    assert_true(edit_do(&h, m, &e));
    assert_true(edit_paint(m, (cell_t){2, 2}, 3, type_of(m, "mire"), &e));
    assert_true(edit_do(&h, m, &e));
    assert_true(db->n_templates > 0);
    const tmpl_t *t = &db->templates[0];
    map_combatant_t u;
    char id[MAP_ID_MAX];
    edit_unique_id(m, t->id, id);
    cell_t free_cell = {0, 0};
    while (edit_unit_at(m, free_cell) >= 0 || map_terrain_at(m, free_cell)->move == 0)
        free_cell.col++;
    edit_unit_from_template(t, id, "raiders", free_cell, &u);
    edit_stat_put(&u, "armor", 3, false);
    assert_true(edit_unit_add(m, &u, &e));
    assert_true(edit_do(&h, m, &e));
    assert_true(edit_faction_set(m, "raiders", true, &e));
    assert_true(edit_do(&h, m, &e));

    char dir[] = "/tmp/hb_edit_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64], bak[72];
    snprintf(path, sizeof path, "%s/m.json", dir);
    snprintf(bak, sizeof bak, "%s.bak", path);
    assert_int_equal(map_save(m, path, err, sizeof err), 0);
    assert_int_equal(map_save(m, path, err, sizeof err), 0);
    map_t *back = NULL;
    assert_int_equal(map_load(path, data_dir(), &back, NULL, err, sizeof err), 0);
    assert_true(map_equal(m, back));
    assert_true(access(bak, F_OK) == 0);
    unlink(bak);
    unlink(path);
    rmdir(dir);
    map_destroy(back);
    edit_history_free(&h);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* Rule options (group initiative...): set, change and remove, each an edit
 * that undoes itself, and the boolean form kept for the file. */
static void test_option_set_and_undo(void **state)
{
    (void)state;
    map_t *m = new_map(4, 3, (hex_layout_t){HEX_POINTY, HEX_ODD});
    edit_t e;
    int v = 0;
    assert_true(edit_option_set(m, "group_initiative", 1, true, false, &e));
    assert_false(map_option(m, "group_initiative", &v)); /* built, not applied */
    assert_true(edit_apply(m, &e));
    assert_true(map_option(m, "group_initiative", &v));
    assert_int_equal(v, 1);
    assert_int_equal(m->options_bool, 1u);
    assert_true(edit_apply(m, &e)); /* the inverse */
    assert_false(map_option(m, "group_initiative", &v));
    assert_int_equal(m->n_options, 0);
    edit_free(&e);
    for (int k = 0; k < MAP_MAX_OPTIONS; k++) {
        char key[16];
        snprintf(key, sizeof key, "o%d", k);
        assert_true(edit_option_set(m, key, k, false, false, &e));
        assert_true(edit_apply(m, &e));
        edit_free(&e);
    }
    assert_false(edit_option_set(m, "one_more", 1, true, false, &e)); /* the table is full */
    assert_true(edit_option_set(m, "o3", 0, false, true, &e));
    assert_true(edit_apply(m, &e));
    assert_int_equal(m->n_options, MAP_MAX_OPTIONS - 1);
    assert_false(map_option(m, "o3", &v));
    assert_true(map_option(m, "o4", &v));
    assert_int_equal(v, 4);
    edit_free(&e);
    map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paint_radius),
        cmocka_unit_test(test_option_set_and_undo),
        cmocka_unit_test(test_line),
        cmocka_unit_test(test_flood),
        cmocka_unit_test(test_resize),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_undo_redo_property),
        cmocka_unit_test(test_group_and_redo_drop),
        cmocka_unit_test(test_bad_edits_refused),
        cmocka_unit_test(test_unique_names),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_save_load_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
