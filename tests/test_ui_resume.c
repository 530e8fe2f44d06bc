/* test_ui_resume.c - a saved battle beside the map is offered (issue 34, item
 * 5): opening a map whose NAME.battle.json exists shows "Resume the saved
 * battle of this map?"; Enter hands the save out for the window to reopen
 * with (and Ctrl+S goes on writing that file), Esc starts a new battle and
 * says the saved one is kept. Without the file nothing is offered. The
 * whole play window (session.h) is driven by SDL key events under the dummy
 * video driver. */
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

#include "io/fileio.h"
#include "io/map_io.h"
#include "tmp_fixture.h"
#include "ui/session.h"

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    ui_session_t s;
    char tmp[512], map_path[700], save_path[760];
} fx_t;

static const char *data_dir(void)
{
    const char *d = getenv("HEXBATTLE_DATA");
    return d && *d ? d : HB_SOURCE_DIR "/data";
}

static void open_window(fx_t *f)
{
    char err[HB_ERR_MAX];
    ui_session_args_t a = {.map = f->m,
                           .db = f->db,
                           .map_path = f->map_path,
                           .seed = 3,
                           .allow_maps = true,
                           .w = 1280,
                           .h = 720};
    bool ok = ui_session_open(&f->s, &a, err, sizeof err);
    if (!ok) fprintf(stderr, "%s\n", err);
    assert_true(ok);
}

static int setup(void **state)
{
    fx_t *f = calloc(1, sizeof *f);
    if (!f || !tmp_dir_make(f->tmp, sizeof f->tmp, "resume")) return -1;
    setenv("XDG_DATA_HOME", f->tmp, 1);
    setenv("XDG_CONFIG_HOME", f->tmp, 1);
    char path[1024], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/../maps/ridge_ambush.json", data_dir());
    if (map_load(path, data_dir(), &f->m, &f->db, err, sizeof err) != HB_OK) return -1;
    snprintf(f->map_path, sizeof f->map_path, "%s/ridge.json", f->tmp);
    snprintf(f->save_path, sizeof f->save_path, "%s/ridge.battle.json", f->tmp);
    if (!ui_video_open(err, sizeof err)) return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx_t *f = *state;
    ui_session_close(&f->s);
    ui_next_free(&f->s.next);
    ui_video_close();
    tmpl_db_destroy(f->db);
    map_destroy(f->m);
    tmp_dir_remove(f->tmp);
    unsetenv("XDG_DATA_HOME");
    unsetenv("XDG_CONFIG_HOME");
    free(f);
    return 0;
}

static void key(fx_t *f, SDL_Keycode k)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.windowID = SDL_GetWindowID(f->s.win);
    e.key.keysym.sym = k;
    ui_session_event(&f->s, &e);
}

/* A battle played a little and saved with Ctrl+S, as NAME.battle.json. */
static void save_a_battle(fx_t *f)
{
    open_window(f);
    assert_false(f->s.menu.open); /* no save yet: nothing offered */
    pui_run_ai(f->s.play, 200);
    assert_true(pui_end_turn(f->s.play));
    assert_true(pui_save(f->s.play));
    assert_int_equal(access(f->save_path, F_OK), 0);
    ui_session_close(&f->s);
}

static void test_enter_resumes_the_saved_battle(void **state)
{
    fx_t *f = *state;
    save_a_battle(f);
    open_window(f);
    assert_true(f->s.menu.open);
    assert_string_equal(f->s.menu.e[0].path, f->save_path);
    key(f, SDLK_RETURN);
    /* The window closes and hands the save out to be reopened with. */
    assert_true(f->s.st.quit);
    assert_non_null(f->s.next.save);
    assert_string_equal(f->s.next.path, f->save_path);
}

static void test_esc_starts_afresh_and_keeps_the_file(void **state)
{
    fx_t *f = *state;
    save_a_battle(f);
    open_window(f);
    assert_true(f->s.menu.open);
    key(f, SDLK_ESCAPE);
    assert_false(f->s.menu.open);
    assert_false(f->s.st.quit);
    assert_null(f->s.next.save);
    assert_non_null(strstr(f->s.play->msg, "saved one"));
    assert_int_equal(access(f->save_path, F_OK), 0);
}

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_enter_resumes_the_saved_battle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_esc_starts_afresh_and_keeps_the_file, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
