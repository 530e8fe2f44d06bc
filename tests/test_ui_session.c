/* test_ui_session.c - the whole play window (session.h) driven by synthetic
 * SDL events under the dummy video driver: the take-back crash of issue 17
 * (move, Ctrl+Z, F5, hover) replayed step by step, and the window's pieces
 * (overlays, panels, projector) kept consistent with the battle after every
 * kind of rebuild. */
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
#include <SDL_ttf.h>

#include "io/map_io.h"
#include "tmp_fixture.h"
#include "ui/session.h"

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    ui_session_t s;
    char tmp[512];
    char map_path[700];
} sess_fx_t;

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

/* The play window on a bundled map, saving into a temporary folder. */
static sess_fx_t *open_map(const char *name, uint64_t seed, bool project)
{
    sess_fx_t *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_true(tmp_dir_make(f->tmp, sizeof f->tmp, "session"));
    setenv("XDG_DATA_HOME", f->tmp, 1);
    setenv("XDG_CONFIG_HOME", f->tmp, 1);
    char path[1024], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/../maps/%s.json", data_dir(), name);
    assert_int_equal(map_load(path, data_dir(), &f->m, &f->db, err, sizeof err), HB_OK);
    snprintf(f->map_path, sizeof f->map_path, "%s/%s.json", f->tmp, name);
    assert_true(ui_video_open(err, sizeof err));
    ui_session_args_t a = {.map = f->m,
                           .db = f->db,
                           .map_path = f->map_path,
                           .seed = seed,
                           .project = project,
                           .w = 1280,
                           .h = 720};
    bool ok = ui_session_open(&f->s, &a, err, sizeof err);
    if (!ok) fprintf(stderr, "%s\n", err);
    assert_true(ok);
    return f;
}

static void close_fx(sess_fx_t *f)
{
    ui_session_close(&f->s);
    ui_next_free(&f->s.next);
    ui_video_close();
    tmpl_db_destroy(f->db);
    map_destroy(f->m);
    tmp_dir_remove(f->tmp);
    free(f);
}

static void key(sess_fx_t *f, SDL_Keycode k, Uint16 mod)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.windowID = SDL_GetWindowID(f->s.win);
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    ui_session_event(&f->s, &e);
}

static SDL_Point cell_point(const sess_fx_t *f, cell_t c)
{
    vec2_t p = ui_cam_to_screen(&f->s.st.cam, ui_cell_center(f->s.st.map, c));
    return (SDL_Point){(int)lround(p.x), (int)lround(p.y)};
}

static void hover(sess_fx_t *f, cell_t c)
{
    SDL_Point p = cell_point(f, c);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.windowID = SDL_GetWindowID(f->s.win);
    e.motion.x = p.x;
    e.motion.y = p.y;
    ui_session_event(&f->s, &e);
}

static void click(sess_fx_t *f, cell_t c)
{
    hover(f, c);
    SDL_Point p = cell_point(f, c);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.windowID = SDL_GetWindowID(f->s.win);
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = p.x;
    e.button.y = p.y;
    ui_session_event(&f->s, &e);
    e.type = SDL_MOUSEBUTTONUP;
    ui_session_event(&f->s, &e);
}

/* Frames of 0.1 s until the referee has a turn (the AI plays its own). */
static void until_user_turn(sess_fx_t *f)
{
    for (int i = 0; i < 2000 && !(f->s.play->user_turn && !anim_busy(&f->s.play->anim)); i++)
        ui_session_frame(&f->s, 0.1);
    assert_true(f->s.play->user_turn);
}

/* A hex the actor can move to, away from where it stands. */
static cell_t reachable(const sess_fx_t *f)
{
    const pui_t *p = f->s.play;
    assert_true(p->n_reach > 0);
    return p->reach[p->n_reach / 2].at;
}

/* Issue 17, item 1: move, take it back, turn on the reach overlay and move
 * the mouse. The overlay used to keep pointers into the battle's map and
 * board, which the rebuild of the take-back frees (ASan: heap-use-after-free
 * in board_cell_index under ui_overlay_window). */
static void test_undo_then_overlay_hover(void **state)
{
    (void)state;
    sess_fx_t *f = open_map("ridge_ambush", 7, false);
    until_user_turn(f);
    pui_t *p = f->s.play;
    int actor = p->actor;
    hex_t before = pui_battle(p)->board->pos[actor];
    int cmds = pui_battle(p)->cmds.n;
    click(f, reachable(f));
    assert_true(pui_battle(p)->cmds.n > cmds);
    assert_false(hex_eq(pui_battle(p)->board->pos[actor], before));
    ui_session_frame(&f->s, 0.1);
    key(f, SDLK_z, KMOD_LCTRL);
    assert_true(hex_eq(pui_battle(p)->board->pos[actor], before));
    key(f, SDLK_F5, 0);
    for (int i = 0; i < 6; i++) {
        hover(f, reachable(f));
        ui_session_frame(&f->s, 0.05);
        hover(f, hex_to_cell(f->m->layout, before));
        ui_session_frame(&f->s, 0.05);
    }
    /* The overlay drew, for the battle as it is after the take-back. */
    assert_true(ui_overlay_legend_rows(f->s.overlay) > 0);
    ui_ov_style_t st;
    assert_true(ui_overlay_mark_at(f->s.overlay, reachable(f), &st) >= 0);
    close_fx(f);
}

/* Every die typed or rolled rebuilds the battle too: overlays on through a
 * whole AI turn and the referee's attack stay in step with the board. */
static void test_overlays_through_rebuilds(void **state)
{
    (void)state;
    sess_fx_t *f = open_map("salt_flats", 3, true);
    for (SDL_Keycode k = SDLK_F5; k <= SDLK_F9; k++)
        key(f, k, 0);
    for (int round = 0; round < 3; round++) {
        until_user_turn(f);
        pui_t *p = f->s.play;
        hover(f, reachable(f));
        ui_session_frame(&f->s, 0.05);
        key(f, SDLK_e, 0); /* end the turn: the AI and its dice follow */
        ui_session_frame(&f->s, 0.05);
        key(f, SDLK_z, KMOD_LCTRL);
        ui_session_frame(&f->s, 0.05);
        key(f, SDLK_e, 0);
        assert_true(p->started);
    }
    close_fx(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_undo_then_overlay_hover),
        cmocka_unit_test(test_overlays_through_rebuilds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
