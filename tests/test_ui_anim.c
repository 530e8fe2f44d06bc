/* test_ui_anim.c - the animation of `area` events (ui/anim.h): the hexes lit
 * are the hexes the rules' own area function gives for the event, they fade
 * with the effect, and their storage is reused once every area has faded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/area.h"
#include "rules_fixture.h"
#include "ui/anim.h"
#include "ui/camera.h"

/* a throws a blast=2 mortar at x, beside a wall that shields the hex behind. */
static void start(fx_t *f)
{
    static const char *const ROWS[] = {"..........", "......#...", "..........", ".........."};
    f->m = fx_map(10, 4, "scars", ROWS);
    fx_add(f->m, "a", "players", 1, 1, KIND_CREATURE, SIZE_MEDIUM, 5, 50, "mortar", "dex=20");
    fx_add(f->m, "x", "raiders", 5, 1, KIND_CREATURE, SIZE_MEDIUM, 10, 50, "knife", "str=10");
    f->db = fx_db("scars");
    fx_weapon(f->db, "mortar", WPN_THROWN, false, 0, 50, 1, 6, 0, "blast=2");
    fx_weapon(f->db, "knife", WPN_MELEE, false, 5, 0, 1, 6, 0, NULL);
    fx_start(&f->p, f->m, f->db, FX_DICE(1));
}

static const anim_fx_t *find_area(const anim_t *a)
{
    for (int i = 0; i < a->n_fx; i++)
        if (a->fx[i].kind == FX_AREA) return &a->fx[i];
    return NULL;
}

static void test_area_event_lights_its_hexes(void **state)
{
    (void)state;
    fx_t f;
    start(&f);
    const battle_t *b = f.p.b;
    anim_t a;
    assert_true(anim_init(&a, b));
    cmd_t c = cmd_make(CMD_DECLARE, 0);
    c.act = CMD_ENGAGE;
    c.target = 1;
    c.weapon = 0;
    assert_int_equal(fx_do(&f.p, c, FX_DICE(4)), BATTLE_OK);
    int k = FX_FIND(b, 0, "\"event\":\"area\"");
    assert_true(k >= 0);
    /* Play up to the area event. */
    for (int i = 0; i < 200 && a.cursor <= k; i++)
        anim_step(&a, 0.02);
    const anim_fx_t *fx = find_area(&a);
    assert_non_null(fx);
    /* The same hexes as area_hexes on the event, in the same order. */
    area_t ar = area_from_event(b->map, &b->log.ev[k]);
    hex_t h[64];
    int n = area_hexes(b->board, &ar, h, 64);
    /* Radius 2 is 19 hexes; three lie off the map's top, three behind the wall. */
    assert_int_equal(n, 19 - 3 - 3);
    assert_int_equal(fx->n_pts, n);
    for (int i = 0; i < n; i++) {
        vec2_t want = ui_cell_center(b->map, hex_to_cell(b->map->layout, h[i]));
        assert_true(fx->pts[i].x == want.x && fx->pts[i].y == want.y);
    }
    assert_int_equal(fx->orient, b->map->layout.orient);
    assert_int_equal(fx->who, 0);
    assert_int_equal(fx->target, 1);
    /* It fades, and the point storage is free again. */
    for (int i = 0; i < 200 && find_area(&a); i++)
        anim_step(&a, 0.05);
    assert_null(find_area(&a));
    assert_int_equal(a.area_n, 0);
    anim_free(&a);
    fx_free(&f);
}

/* Many areas at once: the storage grows and the live effects keep pointing
 * at their own points. */
static void test_many_areas_keep_their_points(void **state)
{
    (void)state;
    fx_t f;
    start(&f);
    battle_t *b = f.p.b;
    anim_t a;
    assert_true(anim_init(&a, b));
    for (int r = 0; r < 30; r++) {
        area_t ar = area_burst(hex_from_cell(b->map->layout, (cell_t){8, 2}), r % 4);
        event_t e = area_event(b->map, 0, -1, &ar);
        assert_true(event_push(&b->log, &e));
    }
    /* One area beat each (0.3 s), each lit for 0.9 s: a second in, three live. */
    for (int i = 0; i < 20; i++)
        anim_step(&a, 0.05);
    int seen = 0;
    for (int i = 0; i < a.n_fx; i++) {
        const anim_fx_t *fx = &a.fx[i];
        if (fx->kind != FX_AREA) continue;
        seen++;
        assert_true(fx->pts >= a.area_pts && fx->pts + fx->n_pts <= a.area_pts + a.area_n);
        /* A burst is listed centre first. */
        vec2_t c = ui_cell_center(b->map, (cell_t){8, 2});
        assert_true(fx->pts[0].x == c.x && fx->pts[0].y == c.y);
    }
    assert_true(seen >= 2);
    anim_snap(&a);
    assert_int_equal(a.n_fx, 0);
    assert_int_equal(a.area_n, 0);
    anim_free(&a);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_area_event_lights_its_hexes),
        cmocka_unit_test(test_many_areas_keep_their_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
