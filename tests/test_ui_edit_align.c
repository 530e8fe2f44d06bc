/* test_ui_edit_align.c - the editor lays the grid on a painted battle map
 * (src/ui/edit_align.c), driven by synthetic SDL events: A, a click on the
 * centre of a hex printed on the picture, the number of hexes to the second
 * one, a click on it; the picture's offset and scale come out as the ones
 * it was painted with, and Ctrl+S saves them in the map file. F12 switches
 * the terrain colours over the picture. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <SDL.h>

#include "io/fileio.h"
#include "io/map_io.h"
#include "tmp_fixture.h"
#include "ui/editor.h"

#define W 1200
#define H 800

static void mouse_click(ed_state_t *s, vec2_t p)
{
    SDL_Event e = {0};
    e.type = SDL_MOUSEMOTION;
    e.motion.x = (int)lround(p.x);
    e.motion.y = (int)lround(p.y);
    ed_handle_event(s, &e);
    for (int k = 0; k < 2; k++) {
        memset(&e, 0, sizeof e);
        e.type = k ? SDL_MOUSEBUTTONUP : SDL_MOUSEBUTTONDOWN;
        e.button.button = SDL_BUTTON_LEFT;
        e.button.x = (int)lround(p.x);
        e.button.y = (int)lround(p.y);
        ed_handle_event(s, &e);
    }
}

static void key(ed_state_t *s, SDL_Keycode k, Uint16 mod)
{
    SDL_Event e = {0};
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    ed_handle_event(s, &e);
}

/* Where on the screen the picture's pixel q lies now. */
static vec2_t screen_of_pixel(const ed_state_t *s, vec2_t q)
{
    return ui_cam_to_screen(&s->cam, art_bg_world(s->map->art, s->map->layout, q));
}

static void test_align_and_save(void **state)
{
    (void)state;
    char dir[256], path[512], err[HB_ERR_MAX];
    assert_true(tmp_dir_make(dir, sizeof dir, "align"));
    /* The picture itself is not read here: only where it lies. */
    snprintf(path, sizeof path, "%s/map.json", dir);
    const char *text =
        "{\"format\":\"hexbattle-map\",\"version\":1,\"grid\":{\"orientation\":\"pointy\","
        "\"stagger\":\"odd\",\"cols\":12,\"rows\":9},\"terrain\":{\"legend\":{\".\":\"open\"},"
        "\"rows\":[\"............\",\"............\",\"............\",\"............\","
        "\"............\",\"............\",\"............\",\"............\",\"............\"]},"
        "\"combatants\":[],\"background\":{\"image\":\"painted.png\",\"offset\":[5,9],"
        "\"scale\":60}}";
    assert_int_equal(hb_write_atomic(path, text, strlen(text), false, err, sizeof err), HB_OK);
    map_t *m = NULL;
    assert_int_equal(map_load(path, HB_SOURCE_DIR "/data", &m, NULL, err, sizeof err), HB_OK);
    ed_state_t s;
    ed_init(&s, m, NULL, path, W, H);
    /* The picture was painted with hex (0,0)'s centre at (40, 32) and 48
     * pixels from centre to centre: hexes (2,3) and (8,3) are printed at: */
    map_art_t painted = *m->art;
    painted.bg_ox = 40;
    painted.bg_oy = 32;
    painted.bg_sx = painted.bg_sy = 48;
    hex_layout_t lay = m->layout;
    vec2_t q1 = art_bg_pixel(&painted, lay, ui_cell_center(m, (cell_t){2, 3}));
    vec2_t q2 = art_bg_pixel(&painted, lay, ui_cell_center(m, (cell_t){8, 3}));
    /* The referee clicks them where the picture shows them now. The first
     * falls in some hex of the misaligned grid: that hex becomes (2,3)'s
     * place only if it is (2,3); find the hex it falls in. */
    key(&s, SDLK_a, 0);
    assert_int_equal(s.align, 1);
    vec2_t p1 = screen_of_pixel(&s, q1);
    cell_t under;
    assert_true(ui_pick_cell(m, ui_cam_to_world(&s.cam, p1), &under));
    mouse_click(&s, p1);
    assert_int_equal(s.align, 2);
    key(&s, SDLK_6, 0);
    assert_int_equal(s.align_n, 6);
    mouse_click(&s, screen_of_pixel(&s, q2));
    assert_int_equal(s.align, 0);
    assert_true(s.art_moved);
    /* Six hexes over 6 * 48 pixels; the first click the centre of `under`. */
    assert_true(fabs(m->art->bg_sx - 48) < 0.5 && fabs(m->art->bg_sy - 48) < 0.5);
    vec2_t at = art_bg_pixel(m->art, lay, ui_cell_center(m, under));
    assert_true(fabs(at.x - q1.x) < 1.0 && fabs(at.y - q1.y) < 1.0);
    /* Where the clicks fell in (2,3) itself, the grid is the painted one. */
    if (under.col == 2 && under.row == 3)
        assert_true(fabs(m->art->bg_ox - 40) < 1.0 && fabs(m->art->bg_oy - 32) < 1.0);
    double ox = m->art->bg_ox, oy = m->art->bg_oy, sc = m->art->bg_sx;
    /* F12: terrain colours off and on again. */
    assert_true(s.art_colours);
    key(&s, SDLK_F12, 0);
    assert_false(s.art_colours);
    /* Saved in the map file, to a hundredth of a pixel. */
    key(&s, SDLK_s, KMOD_CTRL);
    assert_false(s.art_moved);
    ed_free(&s);
    map_destroy(m);
    m = NULL;
    assert_int_equal(map_load(path, HB_SOURCE_DIR "/data", &m, NULL, err, sizeof err), HB_OK);
    assert_true(fabs(m->art->bg_ox - ox) <= 0.006 && fabs(m->art->bg_oy - oy) <= 0.006);
    assert_true(fabs(m->art->bg_sx - sc) <= 0.0006);
    map_destroy(m);
    tmp_dir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_align_and_save),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
