/* test_ui_shapes.c - the batched shapes shared by the play screen and the
 * projector: where their vertices fall, what each effect adds, and that a
 * flushed batch lands on the picture. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ui/shapes.h"

static const SDL_Color RED = {200, 10, 20, 255};

static double dist(SDL_FPoint p, vec2_t c)
{
    return hypot(p.x - c.x, p.y - c.y);
}

/* Distance from p to the segment a..b. */
static double dist_seg(SDL_FPoint p, vec2_t a, vec2_t b)
{
    double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
    double t = ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

static void test_ring_lies_between_its_radii(void **state)
{
    (void)state;
    shape_buf_t s = {0};
    vec2_t c = {40, -15};
    shape_ring(&s, c, 10, 14, RED);
    assert_int_equal(s.n % 3, 0);
    assert_true(s.n >= 3 * 2 * 12); /* a ring of at least 12 quads */
    double lo = 1e9, hi = 0;
    for (int i = 0; i < s.n; i++) {
        double d = dist(s.v[i].position, c);
        lo = fmin(lo, d);
        hi = fmax(hi, d);
        assert_memory_equal(&s.v[i].color, &RED, sizeof RED);
    }
    assert_true(fabs(lo - 10) < 1e-3 && fabs(hi - 14) < 1e-3);
    /* r0 = 0 makes a disc: its vertices reach the centre. */
    s.n = 0;
    shape_ring(&s, c, 0, 6, RED);
    lo = 1e9;
    for (int i = 0; i < s.n; i++)
        lo = fmin(lo, dist(s.v[i].position, c));
    assert_true(lo < 1e-3);
    shape_free(&s);
    assert_null(s.v);
    assert_int_equal(s.cap, 0);
}

static void test_segment_is_a_band_of_its_width(void **state)
{
    (void)state;
    shape_buf_t s = {0};
    vec2_t a = {0, 0}, b = {30, 40};
    shape_segment(&s, a, b, 8, RED);
    assert_int_equal(s.n, 6);
    for (int i = 0; i < s.n; i++)
        assert_true(fabs(dist_seg(s.v[i].position, a, b) - 4) < 1e-3);
    /* Two triangles cover the band: their areas add up to length x width. */
    double area = 0;
    for (int t = 0; t < 2; t++) {
        SDL_FPoint p = s.v[3 * t].position, q = s.v[3 * t + 1].position, r = s.v[3 * t + 2].position;
        area += fabs((q.x - p.x) * (r.y - p.y) - (r.x - p.x) * (q.y - p.y)) / 2;
    }
    assert_true(fabs(area - 50 * 8) < 1e-2);
    /* A segment with no length draws nothing. */
    shape_segment(&s, a, a, 8, RED);
    assert_int_equal(s.n, 6);
    shape_free(&s);
}

static anim_fx_t fx(anim_fx_kind_t kind, double age)
{
    anim_fx_t f = {0};
    f.kind = kind;
    f.a = (vec2_t){2, 3};
    f.b = (vec2_t){8, 3};
    f.who = f.target = -1;
    f.age = age;
    f.life = 1.0;
    return f;
}

static void test_fx_kinds(void **state)
{
    (void)state;
    shape_buf_t s = {0};
    ui_camera_t cam = {0, 0, 20};
    /* Lunges move tokens and numbers are text: no shape. */
    anim_fx_t f = fx(FX_LUNGE, 0.2);
    assert_false(shape_fx(&s, &f, &cam, &SHAPE_FX_LAPTOP));
    f = fx(FX_NUMBER, 0.2);
    assert_false(shape_fx(&s, &f, &cam, &SHAPE_FX_LAPTOP));
    assert_int_equal(s.n, 0);
    const anim_fx_kind_t drawn[] = {FX_HIT, FX_MISS, FX_TRACER, FX_AREA};
    static const vec2_t struck[2] = {{2, 3}, {3.5, 3.866}};
    for (size_t k = 0; k < sizeof drawn / sizeof drawn[0]; k++) {
        s.n = 0;
        f = fx(drawn[k], 0.25);
        f.pts = struck;
        f.n_pts = 2;
        assert_true(shape_fx(&s, &f, &cam, &SHAPE_FX_LAPTOP));
        assert_true(s.n > 0);
    }
    /* A hit flash is a disc on the struck point, in screen pixels. */
    s.n = 0;
    f = fx(FX_HIT, 0.0);
    shape_fx(&s, &f, &cam, &SHAPE_FX_LAPTOP);
    vec2_t at = ui_cam_to_screen(&cam, f.a);
    for (int i = 0; i < s.n; i++)
        assert_true(dist(s.v[i].position, at) <= 20 * 0.5 + 1e-3);
    /* A tracer half way lies on the line from shooter to target. */
    s.n = 0;
    f = fx(FX_TRACER, 0.5);
    shape_fx(&s, &f, &cam, &SHAPE_FX_LAPTOP);
    vec2_t from = ui_cam_to_screen(&cam, f.a), to = ui_cam_to_screen(&cam, f.b);
    double w_laptop = 0;
    for (int i = 0; i < s.n; i++)
        w_laptop = fmax(w_laptop, dist_seg(s.v[i].position, from, to));
    assert_true(fabs(w_laptop - fmax(SHAPE_FX_LAPTOP.line_min_px, 20 * SHAPE_FX_LAPTOP.line_zoom) / 2) <
                1e-3);
    /* The table's style is bolder. */
    s.n = 0;
    shape_fx(&s, &f, &cam, &SHAPE_FX_TABLE);
    double w_table = 0;
    for (int i = 0; i < s.n; i++)
        w_table = fmax(w_table, dist_seg(s.v[i].position, from, to));
    assert_true(w_table > w_laptop);
    /* A fading effect loses alpha: an area near its end is fainter. */
    s.n = 0;
    f = fx(FX_AREA, 0.2);
    f.pts = struck;
    f.n_pts = 2;
    shape_fx(&s, &f, &cam, &SHAPE_FX_LAPTOP);
    Uint8 early = s.v[0].color.a;
    assert_int_equal(s.n, 2 * 4 * 3); /* two hexes of four triangles */
    s.n = 0;
    f.age = 0.9;
    shape_fx(&s, &f, &cam, &SHAPE_FX_LAPTOP);
    assert_true(s.v[0].color.a < early);
    /* An area that struck no hex draws nothing. */
    s.n = 0;
    f.n_pts = 0;
    assert_false(shape_fx(&s, &f, &cam, &SHAPE_FX_LAPTOP));
    assert_int_equal(s.n, 0);
    shape_free(&s);
}

static void test_reserve_keeps_room(void **state)
{
    (void)state;
    shape_buf_t s = {0};
    assert_true(shape_reserve(&s, 5000));
    assert_true(s.cap >= 5000);
    SDL_Vertex *v = s.v;
    /* Filling up to the reserved room moves nothing. */
    while (s.n + 6 <= s.cap)
        shape_segment(&s, (vec2_t){0, 0}, (vec2_t){1, 1}, 1, RED);
    assert_ptr_equal(s.v, v);
    shape_free(&s);
}

static void test_flush_draws_and_empties(void **state)
{
    (void)state;
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 64, 64, 32, SDL_PIXELFORMAT_RGBA32);
    assert_non_null(surf);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    SDL_SetRenderDrawColor(r, 0, 0, 0, 255);
    SDL_RenderClear(r);
    shape_buf_t s = {0};
    shape_ring(&s, (vec2_t){20, 20}, 0, 10, RED);
    shape_flush(&s, r);
    assert_int_equal(s.n, 0);
    SDL_RenderPresent(r);
    const Uint8 *px = surf->pixels;
    const Uint8 *in = px + 20 * surf->pitch + 20 * 4, *out = px + 50 * surf->pitch + 50 * 4;
    assert_int_equal(in[0], RED.r);
    assert_int_equal(in[1], RED.g);
    assert_int_equal(out[0], 0);
    /* Flushing an empty batch leaves the picture alone. */
    shape_flush(&s, r);
    assert_int_equal(in[0], RED.r);
    shape_free(&s);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring_lies_between_its_radii),
        cmocka_unit_test(test_segment_is_a_band_of_its_width),
        cmocka_unit_test(test_fx_kinds),
        cmocka_unit_test(test_reserve_keeps_room),
        cmocka_unit_test(test_flush_draws_and_empties),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
