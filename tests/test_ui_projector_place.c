/* test_ui_projector_place.c - the table window on the referee's own display
 * (issue 34, item 2) opens beside the referee's window, never over it:
 * in the free strip with the most room, shrunk to fit; with no room the
 * referee's window gives up the right part. tests/cli/projector_wm.sh checks
 * the same with real windows under openbox. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ui/projector.h"

static bool overlap(SDL_Rect a, SDL_Rect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

static bool inside(SDL_Rect a, SDL_Rect u)
{
    return a.x >= u.x && a.y >= u.y && a.x + a.w <= u.x + u.w && a.y + a.h <= u.y + u.h;
}

static void test_room_on_the_right(void **state)
{
    (void)state;
    SDL_Rect u = {0, 0, 1920, 1080}, ref = {0, 40, 1000, 800}, t, r;
    ui_projector_place(u, ref, 960, 600, 320, 200, 8, &t, &r);
    assert_memory_equal(&r, &ref, sizeof r); /* the referee's window stays */
    assert_false(overlap(t, ref));
    assert_true(inside(t, u));
    assert_true(t.x >= ref.x + ref.w);
    assert_int_equal(t.w * 600, t.h * 960); /* the shape kept */
}

static void test_room_on_the_left_only(void **state)
{
    (void)state;
    SDL_Rect u = {0, 0, 1920, 1080}, ref = {900, 0, 1020, 1080}, t, r;
    ui_projector_place(u, ref, 960, 600, 320, 200, 8, &t, &r);
    assert_false(overlap(t, ref));
    assert_true(inside(t, u));
    assert_int_equal(t.x + t.w + 8, ref.x); /* against it */
}

static void test_no_room_the_referee_moves_over(void **state)
{
    (void)state;
    /* A centred 1280x800 window on 1366x768 (bigger than the display). */
    SDL_Rect u = {0, 0, 1366, 740}, ref = {43, -30, 1280, 800}, t, r;
    ui_projector_place(u, ref, 960, 600, 320, 200, 8, &t, &r);
    assert_false(overlap(t, r));
    assert_true(inside(t, u));
    assert_true(t.w >= 320 && t.h >= 200);
    assert_true(r.w < ref.w);
    assert_true(r.w >= 320);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_room_on_the_right),
        cmocka_unit_test(test_room_on_the_left_only),
        cmocka_unit_test(test_no_room_the_referee_moves_over),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
