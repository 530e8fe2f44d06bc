/* test_scale.c - calibration and print-scale arithmetic (core/scale.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/scale.h"
#include "map_fixture.h"

#define EPS 1e-9

/* 25.4 mm is one inch, so at 300 dpi a hex is 300 pixels across. */
static void hex_pixels_from_mm_and_dpi(void **state)
{
    (void)state;
    assert_true(fabs(scale_hex_px(25.4, 300) - 300.0) < EPS);
    assert_true(fabs(scale_hex_px(25.4, 96) - 96.0) < EPS);
    assert_true(fabs(scale_hex_px(12.7, 300) - 150.0) < EPS);
    assert_true(fabs(scale_hex_px(30.0, 254) - 300.0) < EPS); /* 254 dpi = 10 px per mm */
    assert_true(scale_hex_px(0.0, 300) == 0.0);
    assert_true(scale_hex_px(25.4, -1) == 0.0);
}

/* The zoom (circumradius) puts neighbouring hex centres exactly the asked
 * number of pixels apart, in both orientations and all six directions. */
static void neighbour_spacing_is_the_hex_size(void **state)
{
    (void)state;
    double z = scale_zoom(25.4, 300);
    assert_true(fabs(z * sqrt(3.0) - 300.0) < 1e-9);
    for (int o = 0; o < 2; o++) {
        vec2_t c = hex_to_pixel((hex_orient_t)o, z, hex_make(0, 0));
        for (int d = 0; d < 6; d++) {
            vec2_t n = hex_to_pixel((hex_orient_t)o, z, hex_dir(d));
            double dist = sqrt((n.x - c.x) * (n.x - c.x) + (n.y - c.y) * (n.y - c.y));
            assert_true(fabs(dist - 300.0) < 1e-6);
        }
        /* ...which is the hex's flat-to-flat width: twice the apothem. */
        vec2_t a = hex_corner((hex_orient_t)o, z, 0), b = hex_corner((hex_orient_t)o, z, 1);
        vec2_t mid = {(a.x + b.x) / 2, (a.y + b.y) / 2};
        assert_true(fabs(2 * sqrt(mid.x * mid.x + mid.y * mid.y) - 300.0) < 1e-6);
    }
}

/* A bar dragged to the length of a card gives the screen's DPI. */
static void dpi_from_a_calibration_bar(void **state)
{
    (void)state;
    /* A card (85.6 mm = 3.370 in) spanning 337 px: 337 / 3.370... = 99.998 dpi. */
    double dpi = scale_dpi_from_bar(337.0, SCALE_CARD_MM);
    assert_true(fabs(dpi - 337.0 * 25.4 / 85.6) < EPS);
    assert_true(fabs(dpi - 99.9977) < 1e-3);
    /* A ruler's 100 mm over 500 px: 127 dpi. */
    assert_true(fabs(scale_dpi_from_bar(500.0, 100.0) - 127.0) < EPS);
    /* Round trip: the bar for a length at some dpi measures back that dpi. */
    for (double d = 50; d <= 600; d += 37.5)
        assert_true(fabs(scale_dpi_from_bar(scale_mm_to_px(SCALE_CARD_MM, d), SCALE_CARD_MM) - d) <
                    1e-9);
    assert_true(scale_dpi_from_bar(0.0, 85.6) == 0.0);
    assert_true(scale_dpi_from_bar(100.0, 0.0) == 0.0);
    /* A 1920 px picture 508 mm wide: 96 dpi. */
    assert_true(fabs(scale_dpi_from_width(1920, 508.0) - 96.0) < EPS);
    assert_true(scale_dpi_from_width(0, 508.0) == 0.0);
}

/* Print layout of the sample battle's grid (24 x 16 pointy, odd rows pushed
 * right): 24.5 hexes wide and 15 * 1.5 + 2 radii high, plus 5 mm each side. */
static void print_layout_of_a_pointy_map(void **state)
{
    (void)state;
    map_t *m = fx_map((hex_layout_t){HEX_POINTY, HEX_ODD}, 24, 16, ".", NULL);
    scale_print_t p;
    assert_true(scale_print_layout(m, 25.4, 300, &p));
    double r = 300.0 / sqrt(3.0);
    int margin = (int)lround(5.0 / 25.4 * 300); /* 59 */
    assert_int_equal(p.margin_px, 59);
    assert_int_equal(margin, 59);
    assert_int_equal(p.w, 24 * 300 + 150 + 2 * 59);                /* 7468 */
    assert_int_equal(p.h, (int)ceil((15 * 1.5 + 2) * r) + 2 * 59); /* 4244 + 118 */
    assert_true(fabs(p.zoom - r) < 1e-9);
    /* The top-left hex's left flat side sits exactly one margin in. */
    vec2_t c = hex_to_pixel(HEX_POINTY, 1.0, hex_from_cell(m->layout, (cell_t){0, 0}));
    double left = (c.x - sqrt(3.0) / 2.0 - p.x) * p.zoom;
    double top = (c.y - 1.0 - p.y) * p.zoom;
    assert_true(fabs(left - 59.0) < 1e-6);
    assert_true(fabs(top - 59.0) < 1e-6);
    /* Twice the hex size, a little over twice the picture (the margin stays). */
    scale_print_t q;
    assert_true(scale_print_layout(m, 50.8, 300, &q));
    assert_int_equal(q.w - 2 * 59, 2 * (p.w - 2 * 59));
    map_destroy(m);
}

/* A single flat hex: 2 radii wide, sqrt(3) radii (the hex size) high. */
static void print_layout_of_one_flat_hex(void **state)
{
    (void)state;
    map_t *m = fx_map((hex_layout_t){HEX_FLAT, HEX_EVEN}, 1, 1, ".", NULL);
    scale_print_t p;
    assert_true(scale_print_layout(m, 25.4, 100, &p));
    int margin = (int)lround(5.0 / 25.4 * 100); /* 20 */
    assert_int_equal(p.h, 100 + 2 * margin);
    assert_int_equal(p.w, (int)ceil(2 * 100 / sqrt(3.0)) + 2 * margin);
    map_destroy(m);
}

/* A picture too big for one image is refused, as are silly inputs. */
static void print_layout_limits(void **state)
{
    (void)state;
    map_t *m = fx_map((hex_layout_t){HEX_POINTY, HEX_ODD}, 64, 64, ".", NULL);
    scale_print_t p;
    assert_false(scale_print_layout(m, 25.4, 300, &p)); /* 64 in at 300 dpi = 19200+ px */
    assert_true(scale_print_layout(m, 25.4, 100, &p));
    assert_true(p.w <= SCALE_MAX_PX && p.h <= SCALE_MAX_PX);
    assert_false(scale_print_layout(m, 0.0, 100, &p));
    assert_false(scale_print_layout(m, 25.4, 0, &p));
    map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hex_pixels_from_mm_and_dpi),
        cmocka_unit_test(neighbour_spacing_is_the_hex_size),
        cmocka_unit_test(dpi_from_a_calibration_bar),
        cmocka_unit_test(print_layout_of_a_pointy_map),
        cmocka_unit_test(print_layout_of_one_flat_hex),
        cmocka_unit_test(print_layout_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
