/* test_ui_shell.c - the windows around the battle (issue 17, item 6): the
 * editor window's size, resize and faction wording, F11, the editor coming
 * back after a play-test on the same video driver (and its recovery copy when
 * it cannot), the projector's starting view and fit key, the quit question of
 * a battle with unsaved moves, and the map picker with its recent list. All
 * driven with synthetic SDL events under the dummy video driver. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <math.h>
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
#include <SDL_ttf.h>

#include "core/edit.h"
#include "io/fileio.h"
#include "io/map_io.h"
#include "io/recent.h"
#include "io/recover.h"
#include "ui/draw.h"
#include "ui/editor.h"
#include "ui/hud.h"
#include "ui/menu.h"
#include "ui/projector.h"
#include "ui/ui.h"
#include "ui/window.h"
#include "tmp_fixture.h"

static map_t *load(const char *name, tmpl_db_t **db)
{
    char path[512], err[HB_ERR_MAX];
    snprintf(path, sizeof path, "%s/maps/%s", HB_SOURCE_DIR, name);
    map_t *m = NULL;
    int rc = map_load(path, hb_data_dir(), &m, db, err, sizeof err);
    if (rc != HB_OK) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, HB_OK);
    return m;
}

static SDL_Event key(SDL_Keycode k, Uint16 mod)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    return e;
}

static SDL_Event resize(int w, int h)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_WINDOWEVENT;
    e.window.event = SDL_WINDOWEVENT_SIZE_CHANGED;
    e.window.data1 = w;
    e.window.data2 = h;
    return e;
}

/* ---- window sizes ---- */

static void test_window_fits_the_screen(void **state)
{
    (void)state;
    int w, h;
    /* A small laptop screen: 90 % of it, never the full wanted size. */
    ui_fit_window_size((SDL_Rect){0, 0, 1366, 728}, ED_WANT_W, ED_WANT_H, &w, &h);
    assert_int_equal(w, 1366 * 9 / 10);
    assert_int_equal(h, 728 * 9 / 10);
    /* A large one: the wanted size. */
    ui_fit_window_size((SDL_Rect){0, 0, 2560, 1400}, ED_WANT_W, ED_WANT_H, &w, &h);
    assert_int_equal(w, ED_WANT_W);
    assert_int_equal(h, ED_WANT_H);
    /* Unknown: the wanted size. */
    ui_fit_window_size((SDL_Rect){0, 0, 0, 0}, 1280, 800, &w, &h);
    assert_int_equal(w, 1280);
    assert_int_equal(h, 800);
}

/* The map's world bounds on screen lie inside the editor's free area. */
static void assert_map_between_panels(const ed_state_t *s)
{
    ui_rect_t b = ui_map_bounds(s->map);
    vec2_t lo = ui_cam_to_screen(&s->cam, (vec2_t){b.x0, b.y0});
    vec2_t hi = ui_cam_to_screen(&s->cam, (vec2_t){b.x1, b.y1});
    assert_true(lo.x >= ED_PALETTE_W - 1 && hi.x <= s->view_w - ED_PANEL_W + 1);
    assert_true(lo.y >= -1 && hi.y <= s->view_h + 1);
}

static void test_editor_resizes_like_the_play_window(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load("ridge_ambush.json", &db);
    ed_state_t s;
    ed_init(&s, m, db, NULL, 1400, 860);
    assert_map_between_panels(&s);
    double z = s.cam.zoom;
    SDL_Event e = resize(1000, 600);
    ed_handle_event(&s, &e);
    assert_int_equal(s.view_w, 1000);
    assert_int_equal(s.view_h, 600);
    assert_map_between_panels(&s); /* fitted again to the smaller window */
    assert_true(s.cam.zoom < z);
    /* The template list gets shorter so the panel fits the height. */
    assert_true(ed_template_rows(&s) < 12);
    assert_true(300 + ed_template_rows(&s) * ED_ROW_H + 8 + 12 * 18 <= 600);
    /* Once the referee zooms, a resize keeps the zoom. */
    e = key(SDLK_PLUS, 0);
    ed_handle_event(&s, &e);
    double zoomed = s.cam.zoom;
    e = resize(1200, 700);
    ed_handle_event(&s, &e);
    assert_int_equal(s.view_w, 1200);
    assert_true(fabs(s.cam.zoom - zoomed) < 1e-9);
    /* Home fits again. */
    e = key(SDLK_HOME, 0);
    ed_handle_event(&s, &e);
    assert_map_between_panels(&s);
    ed_free(&s);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* ---- the editor's faction control ---- */

static bool any_message(const ed_state_t *s, const char *needle)
{
    for (int i = 0; i < s->n_msg; i++)
        if (strstr(s->msg[i], needle)) return true;
    return false;
}

static void test_editor_faction_words(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load("ridge_ambush.json", &db);
    ed_state_t s;
    ed_init(&s, m, db, NULL, 1400, 860);
    /* New combatants join "raiders", played by the AI; P hands it to the laptop. */
    assert_false(map_faction_is_player(m, s.faction));
    SDL_Event e = key(SDLK_p, 0);
    ed_handle_event(&s, &e);
    assert_true(map_faction_is_player(m, s.faction));
    assert_true(any_message(&s, "played at this laptop"));
    ed_handle_event(&s, &e);
    assert_false(map_faction_is_player(m, s.faction));
    assert_true(any_message(&s, "played by the AI"));
    assert_false(any_message(&s, "referee controls"));
    ed_free(&s);
    tmpl_db_destroy(db);
    map_destroy(m);
}

static double rgb_distance(SDL_Color a, SDL_Color b)
{
    double dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
    return sqrt(dr * dr + dg * dg + db * db);
}

static void test_ai_faction_colours_differ(void **state)
{
    (void)state;
    tmpl_db_t *db = NULL;
    map_t *m = load("ridge_ambush.json", &db);
    /* Three AI factions and two of players, declared in the map. */
    static const char *const AI[] = {"raiders", "beasts", "cult"};
    m->n_factions = 0;
    m->factions_given = true;
    for (int i = 0; i < 3; i++) {
        hb_strlcpy(m->factions[m->n_factions].name, AI[i], MAP_ID_MAX);
        m->factions[m->n_factions++].player = false;
    }
    hb_strlcpy(m->factions[m->n_factions].name, "players", MAP_ID_MAX);
    m->factions[m->n_factions++].player = true;
    SDL_Color c[3];
    for (int i = 0; i < 3; i++)
        c[i] = ui_faction_color(m, AI[i]);
    SDL_Color pl = ui_faction_color(m, "players");
    for (int i = 0; i < 3; i++) {
        for (int k = i + 1; k < 3; k++) {
            double d = rgb_distance(c[i], c[k]);
            if (d < 140) fprintf(stderr, "AI factions %d and %d: distance %.0f\n", i, k, d);
            assert_true(d >= 140);
        }
        assert_true(rgb_distance(c[i], pl) >= 140);
    }
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* ---- F11 ---- */

static void test_f11_toggles_fullscreen(void **state)
{
    (void)state;
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    SDL_Window *w = SDL_CreateWindow("t", 0, 0, 640, 480, SDL_WINDOW_RESIZABLE);
    assert_non_null(w);
    assert_true(ui_toggle_fullscreen(w));
    assert_true(SDL_GetWindowFlags(w) & SDL_WINDOW_FULLSCREEN);
    assert_false(ui_toggle_fullscreen(w));
    assert_false(SDL_GetWindowFlags(w) & SDL_WINDOW_FULLSCREEN);
    SDL_DestroyWindow(w);

    /* Every window's handler asks its loop for the toggle. */
    tmpl_db_t *db = NULL;
    map_t *m = load("ridge_ambush.json", &db);
    ed_state_t es;
    ed_init(&es, m, db, NULL, 1400, 860);
    SDL_Event e = key(SDLK_F11, 0);
    ed_handle_event(&es, &e);
    assert_true(es.toggle_fullscreen);
    ed_free(&es);
    ui_state_t ps;
    ui_state_init(&ps, m, 1280, 720);
    assert_true(ui_handle_event(&ps, &e));
    assert_true(ps.toggle_fullscreen);
    assert_false(ps.quit);
    tmpl_db_destroy(db);
    map_destroy(m);
    SDL_Quit();
}

/* ---- the editor comes back after a play-test ---- */

typedef struct {
    char seen[8][64]; /* titles of the windows shown, in order */
    char driver[8][32];
    int n;
    Uint32 last; /* the window last counted */
} shown_t;

static int watch_shown(void *data, SDL_Event *e)
{
    shown_t *s = data;
    /* SDL may report one window shown more than once: count windows. */
    if (e->type == SDL_WINDOWEVENT && e->window.event == SDL_WINDOWEVENT_SHOWN && s->n < 8 &&
        e->window.windowID != s->last) {
        s->last = e->window.windowID;
        SDL_Window *w = SDL_GetWindowFromID(e->window.windowID);
        const char *d = SDL_GetCurrentVideoDriver();
        hb_strlcpy(s->seen[s->n], w ? SDL_GetWindowTitle(w) : "?", sizeof s->seen[0]);
        hb_strlcpy(s->driver[s->n], d ? d : "none", sizeof s->driver[0]);
        s->n++;
    }
    return 1;
}

static void test_editor_returns_after_playtest(void **state)
{
    (void)state;
    char dir[256];
    assert_true(tmp_dir_make(dir, sizeof dir, "shell_edit"));
    setenv("XDG_DATA_HOME", dir, 1);
    tmpl_db_t *db = NULL;
    map_t *m = load("ridge_ambush.json", &db);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    shown_t shown;
    memset(&shown, 0, sizeof shown);
    SDL_AddEventWatch(watch_shown, &shown);
    /* F5 in the editor starts a play-test; each window closes by itself. */
    setenv("HEXBATTLE_QUIT_AFTER_MS", "300", 1);
    SDL_Event e = key(SDLK_F5, 0);
    assert_int_equal(SDL_PushEvent(&e), 1);
    char err[HB_ERR_MAX] = "";
    int rc = ui_run_edit(m, db, HB_SOURCE_DIR "/maps/ridge_ambush.json", err, sizeof err);
    unsetenv("HEXBATTLE_QUIT_AFTER_MS");
    SDL_DelEventWatch(watch_shown, &shown);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    /* Editor, play-test, editor again: all on one driver. */
    assert_int_equal(shown.n, 3);
    assert_string_equal(shown.seen[0], "hexbattle editor");
    assert_non_null(strstr(shown.seen[1], "Ridge Ambush"));
    assert_string_equal(shown.seen[2], "hexbattle editor");
    for (int i = 0; i < 3; i++)
        assert_string_equal(shown.driver[i], "dummy");
    /* The session let go of SDL video: only this test's own hold is left. */
    assert_true(SDL_WasInit(SDL_INIT_VIDEO));
    SDL_Quit();
    unsetenv("XDG_DATA_HOME");
    tmp_dir_remove(dir);
    tmpl_db_destroy(db);
    map_destroy(m);
}

static void test_recovery_copy_when_editor_cannot_return(void **state)
{
    (void)state;
    char dir[256], path[400], copy[420], msg[1024];
    assert_true(tmp_dir_make(dir, sizeof dir, "shell_recover"));
    snprintf(path, sizeof path, "%s/keep.json", dir);
    /* The copy goes beside the autosaves (src/io/recover.h). */
    setenv("XDG_DATA_HOME", dir, 1);
    snprintf(copy, sizeof copy, "%s/hexbattle/keep.recover.json", dir);
    tmpl_db_t *db = NULL;
    map_t *m = load("ridge_ambush.json", &db);
    ed_state_t s;
    ed_init(&s, m, db, path, 1400, 860);
    /* Nothing unsaved: nothing written, and the message says so. */
    assert_false(ed_recover(&s, "cannot open the editor window", msg, sizeof msg));
    assert_non_null(strstr(msg, "no unsaved changes"));
    assert_int_equal(access(copy, F_OK), -1);
    /* Paint a hex: now the edit is kept beside the map's path. */
    SDL_Event e = key(SDLK_b, 0);
    ed_handle_event(&s, &e);
    edit_t ed;
    assert_true(edit_paint(m, (cell_t){0, 0}, 1, map_find_type(m, "wall"), &ed));
    assert_true(edit_do(&s.hist, m, &ed));
    assert_true(ed_recover(&s, "cannot open the editor window", msg, sizeof msg));
    assert_non_null(strstr(msg, "cannot open the editor window"));
    assert_non_null(strstr(msg, copy));
    recover_map_t back;
    char err[HB_ERR_MAX];
    assert_int_equal(recover_load_map(copy, hb_data_dir(), &back, err, sizeof err), HB_OK);
    assert_true(recover_belongs(copy, path));
    char *a = map_to_json(m), *b = map_to_json(back.map);
    assert_string_equal(a, b);
    free(a);
    free(b);
    assert_int_equal(back.hist.pos, 1); /* with its undo step */
    recover_map_free(&back);
    assert_int_equal(access(path, F_OK), -1); /* the map's own file is not written */
    ed_free(&s);
    tmpl_db_destroy(db);
    map_destroy(m);
    tmp_dir_remove(dir);
}

/* ---- the projector ---- */

static bool cell_on_canvas(const ui_projector_t *p, const map_t *m, cell_t c)
{
    vec2_t v = ui_cam_to_screen(&p->cam, ui_cell_center(m, c));
    return v.x >= 0 && v.y >= 0 && v.x <= p->tw && v.y <= p->th;
}

static void test_projector_start_view_and_fit(void **state)
{
    (void)state;
    char dir[256];
    assert_true(tmp_dir_make(dir, sizeof dir, "shell_proj"));
    setenv("XDG_CONFIG_HOME", dir, 1);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    tmpl_db_t *db = NULL;
    map_t *m = load("ridge_ambush.json", &db);
    battle_opts_t o = {.seed = 3};
    play_t play;
    assert_int_equal(play_start(&play, m, db, NULL, &o), BATTLE_OK);
    const battle_t *b = play.b;
    ui_projector_t p;
    ui_projector_init(&p, m);
    char err[HB_ERR_MAX];
    assert_true(ui_projector_open(&p, 0, 0, err, sizeof err));
    /* The window does not keep the no-activation hint set for others. */
    assert_null(SDL_GetHint(SDL_HINT_WINDOW_NO_ACTIVATION_WHEN_SHOWN));
    /* 24 columns of 25.4 mm at 96 dpi do not fit 960 px; the players do. */
    assert_int_equal(ui_projector_start_view(&p, b), PROJ_START_PLAYERS);
    for (int i = 0; i < m->n_combatants; i++)
        if (map_faction_is_player(m, m->combatants[i].faction))
            assert_true(cell_on_canvas(&p, m, m->combatants[i].at));
    assert_true(fabs(p.cam.zoom - ui_projector_true_zoom(&p)) < 1e-9);
    /* F (Ctrl+F from the laptop) shows every hex. */
    assert_true(ui_projector_control_key(&p, SDLK_f, 0));
    assert_true(cell_on_canvas(&p, m, (cell_t){0, 0}));
    assert_true(cell_on_canvas(&p, m, (cell_t){m->cols - 1, m->rows - 1}));
    assert_non_null(strstr(p.msg, "whole map"));
    /* Smaller hexes: the whole map fits at true scale and is shown. */
    p.set.hex_mm = 5.0;
    assert_int_equal(ui_projector_start_view(&p, b), PROJ_START_MAP);
    assert_true(cell_on_canvas(&p, m, (cell_t){0, 0}));
    assert_true(cell_on_canvas(&p, m, (cell_t){m->cols - 1, m->rows - 1}));
    /* Huge hexes: neither fits, so the whole map is fitted. */
    p.set.hex_mm = 300.0;
    assert_int_equal(ui_projector_start_view(&p, b), PROJ_START_FIT);
    assert_true(cell_on_canvas(&p, m, (cell_t){m->cols - 1, m->rows - 1}));
    /* The first frame picks the start view by itself. */
    p.set.hex_mm = 25.4;
    p.cam.x = -1e6;
    p.start_pending = true;
    ui_projector_frame(&p, b, NULL, NULL, 0, -1, false, 0.016);
    assert_false(p.start_pending);
    assert_true(cell_on_canvas(&p, m, m->combatants[0].at));
    /* F11 in the projector window goes fullscreen and back. */
    assert_true(ui_projector_control_key(&p, SDLK_F11, 0));
    assert_true(SDL_GetWindowFlags(p.win) & SDL_WINDOW_FULLSCREEN);
    assert_true(ui_projector_control_key(&p, SDLK_F11, 0));
    assert_false(SDL_GetWindowFlags(p.win) & SDL_WINDOW_FULLSCREEN);
    ui_projector_free(&p);
    play_end(&play);
    tmpl_db_destroy(db);
    map_destroy(m);
    TTF_Quit();
    SDL_Quit();
    unsetenv("XDG_CONFIG_HOME");
    tmp_dir_remove(dir);
}

/* ---- Q with unsaved moves ---- */

static void test_quit_asks_with_unsaved_moves(void **state)
{
    (void)state;
    char dir[256], save[400];
    assert_true(tmp_dir_make(dir, sizeof dir, "shell_quit"));
    snprintf(save, sizeof save, "%s/q.battle.json", dir);
    tmpl_db_t *db = NULL;
    map_t *m = load("ridge_ambush.json", &db);
    pui_t *p = calloc(1, sizeof *p);
    assert_non_null(p);
    assert_int_equal(pui_start(p, m, db, 5), BATTLE_OK);
    hb_strlcpy(p->save_path, save, sizeof p->save_path);
    hud_t hud;
    memset(&hud, 0, sizeof hud);
    assert_true(hud_init(&hud, p));
    ui_state_t s;
    ui_state_init(&s, m, 1280, 720);
    s.hud = &hud;
    /* Nothing played yet: Q quits at once. */
    pui_run_ai(p, 200);
    p->saved_cmds = p->play.b->cmds.n;
    SDL_Event q = key(SDLK_q, 0), esc = key(SDLK_ESCAPE, 0), y = key(SDLK_y, 0),
              sv = key(SDLK_s, 0);
    ui_handle_event(&s, &q);
    assert_true(s.quit);
    assert_false(s.ask_quit);
    /* A move: Q asks; Esc goes back to the battle. */
    s.quit = false;
    assert_true(pui_end_turn(p));
    assert_true(pui_unsaved(p));
    ui_handle_event(&s, &q);
    assert_false(s.quit);
    assert_true(s.ask_quit);
    /* While it asks, other keys do nothing to the battle. */
    int before = p->play.b->cmds.n;
    SDL_Event e = key(SDLK_e, 0);
    ui_handle_event(&s, &e);
    assert_int_equal(p->play.b->cmds.n, before);
    assert_true(s.ask_quit);
    ui_handle_event(&s, &esc);
    assert_false(s.ask_quit);
    assert_false(s.quit);
    /* Y answers nothing (issue 34: no letter means "discard" in one window
     * and "keep" in another); D quits without saving. */
    ui_handle_event(&s, &q);
    ui_handle_event(&s, &y);
    assert_false(s.quit);
    assert_true(s.ask_quit);
    SDL_Event dk = key(SDLK_d, 0);
    ui_handle_event(&s, &dk);
    assert_true(s.quit);
    assert_int_equal(access(save, F_OK), -1);
    /* S saves, then quits. */
    s.quit = false;
    ui_handle_event(&s, &q);
    assert_true(s.ask_quit);
    ui_handle_event(&s, &sv);
    assert_true(s.quit);
    assert_int_equal(access(save, F_OK), 0);
    assert_false(pui_unsaved(p));
    hud_free(&hud);
    pui_free(p);
    free(p);
    tmpl_db_destroy(db);
    map_destroy(m);
    tmp_dir_remove(dir);
}

/* ---- the map picker ---- */

static void test_recent_list(void **state)
{
    (void)state;
    char dir[256], file[400], err[HB_ERR_MAX];
    assert_true(tmp_dir_make(dir, sizeof dir, "shell_recent"));
    snprintf(file, sizeof file, "%s/sub/recent.json", dir);
    recent_t r;
    recent_load(file, &r);
    assert_int_equal(r.n, 0); /* no file yet */
    for (int i = 0; i < RECENT_MAX + 3; i++) {
        char p[64];
        snprintf(p, sizeof p, "/maps/m%d.json", i);
        assert_int_equal(recent_add(file, p, err, sizeof err), HB_OK);
    }
    assert_int_equal(recent_add(file, "/maps/m5.json", err, sizeof err), HB_OK);
    recent_load(file, &r);
    assert_int_equal(r.n, RECENT_MAX);
    assert_string_equal(r.path[0], "/maps/m5.json"); /* newest first, once */
    assert_string_equal(r.path[1], "/maps/m10.json");
    for (int i = 1; i < r.n; i++)
        assert_string_not_equal(r.path[i], "/maps/m5.json");
    /* A broken file is an empty list, not an error. */
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("{\"recent\": [1, 2", f);
    fclose(f);
    recent_load(file, &r);
    assert_int_equal(r.n, 0);
    tmp_dir_remove(dir);
}

/* The maps in dir (.json files but saves, and Tiled's .tmj and .tmx); *last
 * (when given) gets the file name the picker lists last, file names being in
 * order. */
static int count_maps(const char *dir, char *last, size_t cap)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    if (last && cap) last[0] = '\0';
    const struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        bool json = len > 5 && strcmp(de->d_name + len - 5, ".json") == 0;
        bool tiled = len > 4 && (strcmp(de->d_name + len - 4, ".tmx") == 0 ||
                                 strcmp(de->d_name + len - 4, ".tmj") == 0);
        if ((!json && !tiled) || strstr(de->d_name, ".battle.")) continue;
        n++;
        if (last && cap && strcmp(de->d_name, last) > 0) snprintf(last, cap, "%s", de->d_name);
    }
    closedir(d);
    return n;
}

static void test_picker_lists_maps(void **state)
{
    (void)state;
    char dir[256], bad[400], maps[512];
    assert_true(tmp_dir_make(dir, sizeof dir, "shell_picker"));
    snprintf(bad, sizeof bad, "%s/broken.json", dir);
    FILE *f = fopen(bad, "w");
    assert_non_null(f);
    fputs("{\"format\": \"hexbattle-map\"", f);
    fclose(f);
    recent_t r = {.n = 2};
    snprintf(r.path[0], RECENT_PATH_MAX, "%s", bad);
    realpath(HB_SOURCE_DIR "/maps/salt_flats.json", r.path[1]);
    snprintf(maps, sizeof maps, "%s/maps", HB_SOURCE_DIR);
    smenu_t m;
    smenu_scan_picker(&m, &r, "", "", NULL, maps);
    assert_true(m.open && m.maps);
    /* Recent first (the broken one says why), the bundled maps (Salt Flats
     * only once), then New map. */
    assert_int_equal(m.e[0].kind, SMENU_MAP);
    assert_false(m.e[0].ok);
    assert_non_null(strstr(m.e[0].detail, "broken.json"));
    assert_non_null(strstr(m.e[1].title, "Salt Flats"));
    assert_true(m.e[1].ok);
    int salt = 0, bundled = 0;
    for (int i = 0; i < m.n; i++) {
        salt += strstr(m.e[i].title, "Salt Flats") != NULL;
        bundled += strncmp(m.e[i].title, "Bundled map", 11) == 0;
    }
    assert_int_equal(salt, 1);
    /* Every other map of the folder (however many ship). */
    assert_int_equal(bundled, count_maps(maps, NULL, 0) - 1);
    assert_int_equal(m.e[m.n - 1].kind, SMENU_NEW_MAP);
    assert_int_equal(smenu_key(&m, SDLK_n), m.n - 1);
    /* Loading a pick: a good map loads, a broken one is refused by name. */
    map_t *mp = NULL;
    tmpl_db_t *db = NULL;
    char msg[512];
    assert_int_equal(smenu_try_load_map(m.e[1].path, &mp, &db, msg, sizeof msg), HB_OK);
    assert_string_equal(mp->ruleset, "scars");
    tmpl_db_destroy(db);
    map_destroy(mp);
    assert_int_equal(smenu_try_load_map(bad, &mp, &db, msg, sizeof msg), HB_ERR_INPUT);
    assert_null(mp);
    assert_non_null(strstr(msg, "broken.json"));
    tmp_dir_remove(dir);
}

/* The whole play window: Ctrl+O, pick a bundled map, and the window comes
 * back with it; then Ctrl+O, N opens the editor on a new map. */
static void test_picker_in_the_play_window(void **state)
{
    (void)state;
    char dir[256];
    assert_true(tmp_dir_make(dir, sizeof dir, "shell_pick"));
    setenv("XDG_DATA_HOME", dir, 1);
    tmpl_db_t *db = NULL;
    map_t *m = load("ridge_ambush.json", &db);
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    shown_t shown;
    memset(&shown, 0, sizeof shown);
    SDL_AddEventWatch(watch_shown, &shown);
    setenv("HEXBATTLE_QUIT_AFTER_MS", "400", 1);
    /* The picker ends with the bundled maps (Ridge Ambush is listed once, as
     * recent) and New map: End, Up, Enter picks the last bundled map, however
     * many ship. */
    char last[256], last_name[MAP_NAME_MAX];
    count_maps(HB_SOURCE_DIR "/maps", last, sizeof last);
    assert_true(strcmp(last, "ridge_ambush.json") > 0);
    tmpl_db_t *ldb = NULL;
    map_t *lm = load(last, &ldb);
    hb_strlcpy(last_name, lm->name, sizeof last_name);
    map_destroy(lm);
    tmpl_db_destroy(ldb);
    SDL_Keycode keys[] = {SDLK_END, SDLK_UP, SDLK_RETURN};
    SDL_Event e = key(SDLK_o, KMOD_LCTRL);
    SDL_PushEvent(&e);
    for (int i = 0; i < 3; i++) {
        e = key(keys[i], 0);
        SDL_PushEvent(&e);
    }
    char err[HB_ERR_MAX] = "";
    int rc = ui_run_window(m, db, HB_SOURCE_DIR "/maps/ridge_ambush.json", err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(shown.n, 2);
    assert_non_null(strstr(shown.seen[0], "Ridge Ambush"));
    assert_non_null(strstr(shown.seen[1], last_name));
    /* Both are now recent, the newest first. */
    char file[RECENT_PATH_MAX];
    assert_true(recent_file(file, sizeof file));
    recent_t r;
    recent_load(file, &r);
    assert_int_equal(r.n, 2);
    assert_non_null(strstr(r.path[0], last));
    assert_non_null(strstr(r.path[1], "ridge_ambush.json"));

    memset(&shown, 0, sizeof shown);
    e = key(SDLK_o, KMOD_LCTRL);
    SDL_PushEvent(&e);
    e = key(SDLK_n, 0);
    SDL_PushEvent(&e);
    rc = ui_run_window(m, db, HB_SOURCE_DIR "/maps/ridge_ambush.json", err, sizeof err);
    assert_int_equal(rc, 0);
    assert_int_equal(shown.n, 2);
    assert_string_equal(shown.seen[1], "hexbattle editor");
    unsetenv("HEXBATTLE_QUIT_AFTER_MS");
    SDL_DelEventWatch(watch_shown, &shown);
    SDL_Quit();
    unsetenv("XDG_DATA_HOME");
    tmp_dir_remove(dir);
    tmpl_db_destroy(db);
    map_destroy(m);
}

/* The editor saves a Tiled map when the name says so, atomically. */
static void test_editor_saves_tiled(void **state)
{
    (void)state;
    char dir[256];
    assert_true(tmp_dir_make(dir, sizeof dir, "shell_tiled"));
    tmpl_db_t *db = NULL;
    map_t *m = load("ridge_ambush.json", &db);
    static const char *const EXT[] = {"tmx", "tmj"};
    for (int k = 0; k < 2; k++) {
        char path[400];
        snprintf(path, sizeof path, "%s/edited.%s", dir, EXT[k]);
        ed_state_t s;
        ed_init(&s, m, db, path, 1400, 860);
        assert_true(ed_save(&s));
        char *text = NULL, err[HB_ERR_MAX];
        size_t len = 0;
        assert_int_equal(hb_read_file(path, 1 << 22, &text, &len, err, sizeof err), HB_OK);
        assert_true(k == 0 ? strncmp(text, "<?xml", 5) == 0 : text[0] == '{');
        assert_non_null(strstr(text, "hexagonal"));
        free(text);
        map_t *back = NULL;
        assert_int_equal(map_load(path, hb_data_dir(), &back, NULL, err, sizeof err), HB_OK);
        char *a = map_to_json(m), *b = map_to_json(back);
        assert_string_equal(a, b);
        free(a);
        free(b);
        map_destroy(back);
        ed_free(&s);
    }
    tmpl_db_destroy(db);
    map_destroy(m);
    tmp_dir_remove(dir);
}

int main(void)
{
    setenv("HEXBATTLE_DATA", HB_SOURCE_DIR "/data", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_fits_the_screen),
        cmocka_unit_test(test_editor_resizes_like_the_play_window),
        cmocka_unit_test(test_editor_faction_words),
        cmocka_unit_test(test_ai_faction_colours_differ),
        cmocka_unit_test(test_f11_toggles_fullscreen),
        cmocka_unit_test(test_editor_returns_after_playtest),
        cmocka_unit_test(test_recovery_copy_when_editor_cannot_return),
        cmocka_unit_test(test_projector_start_view_and_fit),
        cmocka_unit_test(test_quit_asks_with_unsaved_moves),
        cmocka_unit_test(test_recent_list),
        cmocka_unit_test(test_picker_lists_maps),
        cmocka_unit_test(test_picker_in_the_play_window),
        cmocka_unit_test(test_editor_saves_tiled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
