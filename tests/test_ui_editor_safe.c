/* test_ui_editor_safe.c - the editor loses nothing without a word (issue 34,
 * item 4), driven by synthetic SDL events: a new editor starts on the select
 * tool, so a stray first click paints nothing; a resize that drops
 * combatants names them; Ctrl+S on a map never saved opens the Save As
 * prompt on a full path in the user's maps folder ($XDG_DATA_HOME), and a
 * bare name typed there saves into that folder, not the shell's. */
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
#include "ui/editor.h"

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    ed_state_t st;
    char dir[256];
} fx_t;

static int setup(void **state)
{
    fx_t *f = calloc(1, sizeof *f);
    char err[HB_ERR_MAX];
    terrain_t types[MAP_MAX_TERRAIN];
    int n = 0;
    if (!f || !tmp_dir_make(f->dir, sizeof f->dir, "ed_safe")) return -1;
    setenv("XDG_DATA_HOME", f->dir, 1);
    if (terrain_load_builtin(hb_data_dir(), types, MAP_MAX_TERRAIN, &n, err, sizeof err)) return -1;
    int open = 0;
    while (open < n && strcmp(types[open].name, "open") != 0)
        open++;
    f->m = edit_new_map(16, 12, types, n, open);
    if (!f->m || tmpl_db_load(hb_data_dir(), "xhalem", &f->db, err, sizeof err)) return -1;
    ed_init(&f->st, f->m, f->db, NULL, 1200, 800);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx_t *f = *state;
    ed_free(&f->st);
    tmpl_db_destroy(f->db);
    map_destroy(f->m);
    tmp_dir_remove(f->dir);
    unsetenv("XDG_DATA_HOME");
    free(f);
    return 0;
}

static void mouse(ed_state_t *s, Uint32 type, vec2_t p)
{
    SDL_Event e = {0};
    e.type = type;
    if (type == SDL_MOUSEMOTION) {
        e.motion.x = (int)p.x;
        e.motion.y = (int)p.y;
    } else {
        e.button.button = SDL_BUTTON_LEFT;
        e.button.x = (int)p.x;
        e.button.y = (int)p.y;
    }
    ed_handle_event(s, &e);
}

static void click_cell(ed_state_t *s, cell_t c)
{
    vec2_t p = ui_cam_to_screen(&s->cam, ui_cell_center(s->map, c));
    mouse(s, SDL_MOUSEMOTION, p);
    mouse(s, SDL_MOUSEBUTTONDOWN, p);
    mouse(s, SDL_MOUSEBUTTONUP, p);
}

static void key(ed_state_t *s, SDL_Keycode k, Uint16 mod)
{
    SDL_Event e = {0};
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    ed_handle_event(s, &e);
}

static void type_text(ed_state_t *s, const char *t)
{
    SDL_Event e = {0};
    e.type = SDL_TEXTINPUT;
    hb_strlcpy(e.text.text, t, sizeof e.text.text);
    ed_handle_event(s, &e);
}

/* Clear the prompt's text with Backspace, as a user does. */
static void clear_input(ed_state_t *s)
{
    while (s->input[0])
        key(s, SDLK_BACKSPACE, 0);
}

static bool said(const ed_state_t *s, const char *what)
{
    for (int i = 0; i < s->n_msg; i++)
        if (strstr(s->msg[i], what)) return true;
    return false;
}

static void test_a_stray_first_click_paints_nothing(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    assert_int_equal(s->tool, ED_SELECT);
    int before = f->m->cells[map_index(f->m, (cell_t){5, 5})];
    click_cell(s, (cell_t){5, 5});
    assert_int_equal(f->m->cells[map_index(f->m, (cell_t){5, 5})], before);
    assert_false(edit_history_dirty(&s->hist));
    assert_int_equal(f->m->n_combatants, 0);
}

static void test_a_resize_names_what_it_removes(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    /* Two combatants, one far out at (12, 9), one near the corner. */
    key(s, SDLK_u, 0);
    assert_int_equal(s->tool, ED_UNIT);
    click_cell(s, (cell_t){12, 9});
    click_cell(s, (cell_t){1, 1});
    assert_int_equal(f->m->n_combatants, 2);
    char far[MAP_NAME_MAX];
    const map_combatant_t *c0 = &f->m->combatants[0];
    hb_strlcpy(far, c0->name[0] ? c0->name : c0->id, sizeof far);
    /* Ctrl+R, "6x6 tl": the far one falls off the map. */
    key(s, SDLK_r, KMOD_LCTRL);
    assert_int_equal(s->prompt, ED_PROMPT_RESIZE);
    type_text(s, "6x6 tl");
    key(s, SDLK_RETURN, 0);
    assert_int_equal(f->m->cols, 6);
    assert_int_equal(f->m->n_combatants, 1);
    assert_true(said(s, "removed 1 combatant"));
    assert_true(said(s, far));
    /* A resize that removes nobody says nothing of the kind. */
    int n_msg = s->n_msg;
    key(s, SDLK_r, KMOD_LCTRL);
    type_text(s, "8x8 tl");
    key(s, SDLK_RETURN, 0);
    assert_int_equal(f->m->cols, 8);
    for (int i = n_msg; i < s->n_msg; i++)
        assert_null(strstr(s->msg[i], "removed"));
}

static void test_ctrl_s_on_a_new_map_offers_the_maps_folder(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    key(s, SDLK_b, 0);
    click_cell(s, (cell_t){2, 2});
    assert_true(edit_history_dirty(&s->hist));
    char maps[600], want[700];
    snprintf(maps, sizeof maps, "%s/hexbattle/maps", f->dir);
    /* The map's name gives the default file name. */
    hb_strlcpy(f->m->name, "Mill Ford", sizeof f->m->name);
    key(s, SDLK_s, KMOD_LCTRL);
    assert_int_equal(s->prompt, ED_PROMPT_SAVE_AS);
    snprintf(want, sizeof want, "%s/mill_ford.json", maps);
    assert_string_equal(s->input, want);
    key(s, SDLK_RETURN, 0);
    assert_int_equal(access(want, F_OK), 0);
    assert_false(edit_history_dirty(&s->hist));
    assert_string_equal(s->path, want);

    /* Save As with a bare name: into the maps folder, ".json" added; and the
     * default name of a second map skips the file the first one took. */
    s->path[0] = '\0';
    key(s, SDLK_s, KMOD_LCTRL | KMOD_LSHIFT);
    snprintf(want, sizeof want, "%s/mill_ford_2.json", maps);
    assert_string_equal(s->input, want);
    clear_input(s);
    type_text(s, "arena");
    key(s, SDLK_RETURN, 0);
    snprintf(want, sizeof want, "%s/arena.json", maps);
    assert_int_equal(access(want, F_OK), 0);
    assert_int_equal(access("arena.json", F_OK), -1); /* not in the shell's folder */
}

int main(void)
{
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_stray_first_click_paints_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_resize_names_what_it_removes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ctrl_s_on_a_new_map_offers_the_maps_folder, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
