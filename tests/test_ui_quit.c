/* test_ui_quit.c - one quit question in every window (issue 34, item 1): the
 * play window and the editor, each with unsaved work, get the same keys
 * through SDL events and answer them the same way. S saves and quits, D
 * discards and quits, Esc keeps working, and Y, N and Q answer nothing in
 * either (a referee once lost edits to an N that meant "keep" next door).
 * The window's close button asks the same question. Dummy video driver. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <SDL.h>

#include "core/edit.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "tmp_fixture.h"
#include "ui/editor.h"
#include "ui/hud.h"
#include "ui/window.h"

static SDL_Event key(SDL_Keycode k)
{
    SDL_Event e = {0};
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    return e;
}

/* One window behind a common face: dirty it, ask to quit, send a key, and
 * read what it did. */
typedef struct {
    /* the play window */
    map_t *m;
    tmpl_db_t *db;
    pui_t *p;
    hud_t hud;
    ui_state_t s;
    /* the editor */
    map_t *em;
    ed_state_t ed;
    char dir[256], save[400], edsave[400];
} fx_t;

static int setup(void **state)
{
    fx_t *f = calloc(1, sizeof *f);
    char err[HB_ERR_MAX], path[512];
    if (!f || !tmp_dir_make(f->dir, sizeof f->dir, "ui_quit")) return -1;
    snprintf(f->save, sizeof f->save, "%s/q.battle.json", f->dir);
    snprintf(f->edsave, sizeof f->edsave, "%s/e.json", f->dir);
    snprintf(path, sizeof path, "%s/maps/ridge_ambush.json", HB_SOURCE_DIR);
    if (map_load(path, hb_data_dir(), &f->m, NULL, err, sizeof err) ||
        tmpl_db_load(hb_data_dir(), f->m->ruleset, &f->db, err, sizeof err))
        return -1;
    f->p = calloc(1, sizeof *f->p);
    if (!f->p || pui_start(f->p, f->m, f->db, 5) != BATTLE_OK) return -1;
    hb_strlcpy(f->p->save_path, f->save, sizeof f->p->save_path);
    if (!hud_init(&f->hud, f->p)) return -1;
    ui_state_init(&f->s, f->m, 1280, 720);
    f->s.hud = &f->hud;
    pui_run_ai(f->p, 200);

    terrain_t types[MAP_MAX_TERRAIN];
    int n = 0;
    if (terrain_load_builtin(hb_data_dir(), types, MAP_MAX_TERRAIN, &n, err, sizeof err)) return -1;
    f->em = edit_new_map(10, 8, types, n, 0);
    if (!f->em) return -1;
    ed_init(&f->ed, f->em, f->db, f->edsave, 1200, 800);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx_t *f = *state;
    ed_free(&f->ed);
    map_destroy(f->em);
    hud_free(&f->hud);
    pui_free(f->p);
    free(f->p);
    tmpl_db_destroy(f->db);
    map_destroy(f->m);
    tmp_dir_remove(f->dir);
    free(f);
    return 0;
}

/* Unsaved work in both windows, and the quit question up in both (by Q, or
 * by the window's close button when `close`). */
static void ask_both(fx_t *f, bool close)
{
    f->s.quit = f->s.ask_quit = false;
    f->ed.quit = false;
    f->ed.prompt = ED_PROMPT_NONE;
    if (!pui_unsaved(f->p)) assert_true(pui_end_turn(f->p));
    pui_run_ai(f->p, 200);
    assert_true(pui_unsaved(f->p));
    if (!edit_history_dirty(&f->ed.hist)) {
        /* A stroke of wall paint: the editor's first unsaved change. */
        f->ed.tool = ED_BRUSH;
        f->ed.type = map_find_type(f->em, "wall");
        vec2_t at = ui_cam_to_screen(&f->ed.cam, ui_cell_center(f->em, (cell_t){2, 2}));
        SDL_Event e = {0};
        e.type = SDL_MOUSEBUTTONDOWN;
        e.button.button = SDL_BUTTON_LEFT;
        e.button.x = (int)at.x;
        e.button.y = (int)at.y;
        ed_handle_event(&f->ed, &e);
        e.type = SDL_MOUSEBUTTONUP;
        ed_handle_event(&f->ed, &e);
    }
    assert_true(edit_history_dirty(&f->ed.hist));
    SDL_Event e = key(SDLK_q);
    if (close) {
        memset(&e, 0, sizeof e);
        e.type = SDL_QUIT;
    }
    ui_handle_event(&f->s, &e);
    ed_handle_event(&f->ed, &e);
    assert_true(f->s.ask_quit);
    assert_false(f->s.quit);
    assert_int_equal(f->ed.prompt, ED_PROMPT_QUIT);
    assert_false(f->ed.quit);
}

/* Key k sent to both questions. */
static void answer_both(fx_t *f, SDL_Keycode k)
{
    SDL_Event e = key(k);
    ui_handle_event(&f->s, &e);
    ed_handle_event(&f->ed, &e);
}

static void test_letters_that_meant_yes_or_no_answer_nothing(void **state)
{
    fx_t *f = *state;
    ask_both(f, false);
    const SDL_Keycode none[] = {SDLK_y, SDLK_n, SDLK_q, SDLK_RETURN, SDLK_SPACE};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        answer_both(f, none[i]);
        /* Both still ask, neither quit, nothing was saved or thrown away. */
        assert_true(f->s.ask_quit);
        assert_false(f->s.quit);
        assert_int_equal(f->ed.prompt, ED_PROMPT_QUIT);
        assert_false(f->ed.quit);
        assert_true(pui_unsaved(f->p));
        assert_true(edit_history_dirty(&f->ed.hist));
    }
    assert_int_equal(access(f->save, F_OK), -1);
    assert_int_equal(access(f->edsave, F_OK), -1);
}

static void test_esc_keeps_working_in_both(void **state)
{
    fx_t *f = *state;
    ask_both(f, false);
    answer_both(f, SDLK_ESCAPE);
    assert_false(f->s.ask_quit);
    assert_false(f->s.quit);
    assert_int_equal(f->ed.prompt, ED_PROMPT_NONE);
    assert_false(f->ed.quit);
    assert_true(pui_unsaved(f->p));
    assert_true(edit_history_dirty(&f->ed.hist));
}

static void test_d_discards_in_both(void **state)
{
    fx_t *f = *state;
    ask_both(f, true); /* the close button asks too */
    answer_both(f, SDLK_d);
    assert_true(f->s.quit);
    assert_true(f->ed.quit);
    assert_int_equal(access(f->save, F_OK), -1);
    assert_int_equal(access(f->edsave, F_OK), -1);
}

static void test_s_saves_in_both(void **state)
{
    fx_t *f = *state;
    ask_both(f, false);
    answer_both(f, SDLK_s);
    assert_true(f->s.quit);
    assert_true(f->ed.quit);
    assert_int_equal(access(f->save, F_OK), 0);
    assert_int_equal(access(f->edsave, F_OK), 0);
    assert_false(pui_unsaved(f->p));
    assert_false(edit_history_dirty(&f->ed.hist));
}

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_letters_that_meant_yes_or_no_answer_nothing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_esc_keeps_working_in_both, setup, teardown),
        cmocka_unit_test_setup_teardown(test_d_discards_in_both, setup, teardown),
        cmocka_unit_test_setup_teardown(test_s_saves_in_both, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
