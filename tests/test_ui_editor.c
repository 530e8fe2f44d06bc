/* test_ui_editor.c - the editor driven by synthetic SDL events: paint a
 * stroke, undo and redo it, place and drag a combatant, edit it through the
 * side panel prompts, save through Save As, reload the file; and render a frame. */
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
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "io/fileio.h"
#include "io/map_io.h"
#include "ui/editor.h"

#define W 1200
#define H 800

typedef struct {
    map_t *m;
    tmpl_db_t *db;
    ed_state_t st;
} fx_t;

static int setup(void **state)
{
    fx_t *f = calloc(1, sizeof *f);
    char err[HB_ERR_MAX];
    terrain_t types[MAP_MAX_TERRAIN];
    int n = 0;
    if (terrain_load_builtin(hb_data_dir(), types, MAP_MAX_TERRAIN, &n, err, sizeof err)) return -1;
    int open = 0;
    while (open < n && strcmp(types[open].name, "open") != 0)
        open++;
    f->m = edit_new_map(16, 12, types, n, open);
    if (!f->m || tmpl_db_load(hb_data_dir(), "xhalem", &f->db, err, sizeof err)) return -1;
    ed_init(&f->st, f->m, f->db, NULL, W, H);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx_t *f = *state;
    ed_free(&f->st);
    tmpl_db_destroy(f->db);
    map_destroy(f->m);
    free(f);
    return 0;
}

/* Screen point of a cell's centre. */
static vec2_t screen_of(const ed_state_t *s, cell_t c)
{
    return ui_cam_to_screen(&s->cam, ui_cell_center(s->map, c));
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
    vec2_t p = screen_of(s, c);
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

static int cell_type(const map_t *m, int c, int r)
{
    return m->cells[map_index(m, (cell_t){c, r})];
}

static void test_paint_stroke_undo_redo(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    int wall = map_find_type(f->m, "wall"), open = map_find_type(f->m, "open");
    /* Pick "water" from the palette by clicking its row. */
    int water = map_find_type(f->m, "water");
    mouse(s, SDL_MOUSEBUTTONDOWN, (vec2_t){40, 40 + water * ED_ROW_H + 5});
    mouse(s, SDL_MOUSEBUTTONUP, (vec2_t){40, 40 + water * ED_ROW_H + 5});
    assert_int_equal(s->type, water);
    assert_int_equal(s->tool, ED_BRUSH);
    /* A drag across three cells of row 5 is one stroke, one undo step. */
    mouse(s, SDL_MOUSEMOTION, screen_of(s, (cell_t){2, 5}));
    mouse(s, SDL_MOUSEBUTTONDOWN, screen_of(s, (cell_t){2, 5}));
    /* A fast drag jumps over (3,5); the stroke still paints it. */
    mouse(s, SDL_MOUSEMOTION, screen_of(s, (cell_t){4, 5}));
    mouse(s, SDL_MOUSEBUTTONUP, screen_of(s, (cell_t){4, 5}));
    for (int c = 2; c <= 4; c++)
        assert_int_equal(cell_type(f->m, c, 5), water);
    assert_int_equal(cell_type(f->m, 5, 5), open);
    assert_int_equal(s->hist.n, 1);
    assert_true(edit_history_dirty(&s->hist));

    key(s, SDLK_z, KMOD_LCTRL);
    for (int c = 2; c <= 4; c++)
        assert_int_equal(cell_type(f->m, c, 5), open);
    key(s, SDLK_z, KMOD_LCTRL | KMOD_LSHIFT);
    assert_int_equal(cell_type(f->m, 3, 5), water);
    key(s, SDLK_z, KMOD_LCTRL);
    key(s, SDLK_y, KMOD_LCTRL);
    assert_int_equal(cell_type(f->m, 3, 5), water);

    /* Brush radius 2 paints the seven hexes around a click. */
    key(s, SDLK_2, 0);
    s->type = wall;
    click_cell(s, (cell_t){8, 8});
    int walls = 0;
    for (int i = 0; i < f->m->cols * f->m->rows; i++)
        walls += f->m->cells[i] == wall;
    assert_int_equal(walls, 7);
    /* Flood fill the open region; walls and water stay. */
    key(s, SDLK_f, 0);
    s->type = map_find_type(f->m, "brush");
    click_cell(s, (cell_t){0, 0});
    assert_int_equal(cell_type(f->m, 15, 11), s->type);
    assert_int_equal(cell_type(f->m, 8, 8), wall);
    assert_int_equal(cell_type(f->m, 3, 5), water);
    /* Eyedropper takes the type under the cursor and goes back to the brush. */
    key(s, SDLK_i, 0);
    click_cell(s, (cell_t){3, 5});
    assert_int_equal(s->type, water);
    assert_int_equal(s->tool, ED_BRUSH);
}

/* Shift+G switches the map's group initiative option; Ctrl+Z takes it back. */
static void test_group_initiative_option(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    int v = 0;
    bool before = map_option(s->map, "group_initiative", &v) && v;
    key(s, SDLK_g, KMOD_SHIFT);
    assert_int_equal(map_option(s->map, "group_initiative", &v) && v, !before);
    assert_int_equal(s->prompt, ED_PROMPT_NONE); /* not the faction prompt */
    key(s, SDLK_z, KMOD_CTRL);
    assert_int_equal(map_option(s->map, "group_initiative", &v) && v, before);
}

static void test_place_move_edit_delete(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    /* Search the templates, then place one. */
    key(s, SDLK_SLASH, 0);
    assert_int_equal(s->prompt, ED_PROMPT_SEARCH);
    const tmpl_t *want = &f->db->templates[f->db->n_templates - 1];
    char q[8];
    hb_strlcpy(q, want->id, sizeof q);
    type_text(s, q);
    key(s, SDLK_RETURN, 0);
    const tmpl_t *t = ed_template_match(s, s->tmpl_sel);
    assert_non_null(t);
    assert_non_null(strstr(t->id, q));
    assert_int_equal(s->tool, ED_UNIT);
    click_cell(s, (cell_t){3, 3});
    assert_int_equal(f->m->n_combatants, 1);
    assert_string_equal(f->m->combatants[0].template_name, t->id);
    assert_string_equal(f->m->combatants[0].faction, "raiders");
    assert_int_equal(s->selected, 0);

    /* Side panel: rename, change faction, add a stat override. */
    key(s, SDLK_n, 0);
    s->input[0] = '\0';
    type_text(s, "Big Bad");
    key(s, SDLK_RETURN, 0);
    assert_string_equal(f->m->combatants[0].name, "Big Bad");
    key(s, SDLK_g, 0);
    /* The text event of the key that opened the prompt is not typed. */
    type_text(s, "g");
    assert_string_equal(s->input, "raiders");
    s->input[0] = '\0';
    type_text(s, "players");
    key(s, SDLK_RETURN, 0);
    assert_string_equal(f->m->combatants[0].faction, "players");
    key(s, SDLK_k, 0);
    type_text(s, "armor=4");
    key(s, SDLK_RETURN, 0);
    int v = 0;
    assert_true(map_combatant_stat(&f->m->combatants[0], "armor", &v));
    assert_int_equal(v, 4);

    /* Drag it with the select tool. */
    key(s, SDLK_v, 0);
    mouse(s, SDL_MOUSEBUTTONDOWN, screen_of(s, (cell_t){3, 3}));
    mouse(s, SDL_MOUSEMOTION, screen_of(s, (cell_t){6, 4}));
    mouse(s, SDL_MOUSEBUTTONUP, screen_of(s, (cell_t){6, 4}));
    assert_int_equal(f->m->combatants[0].at.col, 6);
    assert_int_equal(f->m->combatants[0].at.row, 4);

    /* Player control: P flips the selected combatant's faction. */
    key(s, SDLK_p, 0);
    assert_false(map_faction_is_player(f->m, "players"));
    key(s, SDLK_p, 0);
    assert_true(map_faction_is_player(f->m, "players"));

    /* Play needs two factions: the first F5 warns, the second goes ahead. */
    key(s, SDLK_F5, 0);
    assert_false(s->want_play);
    assert_true(s->play_warned);
    key(s, SDLK_F5, 0);
    assert_true(s->want_play);
    s->want_play = false;

    key(s, SDLK_DELETE, 0);
    assert_int_equal(f->m->n_combatants, 0);
    key(s, SDLK_z, KMOD_LCTRL);
    assert_int_equal(f->m->n_combatants, 1);
    assert_string_equal(f->m->combatants[0].name, "Big Bad");
}

static void test_save_as_and_quit(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    s->type = map_find_type(f->m, "wall");
    key(s, SDLK_b, 0); /* the brush: the editor starts on the select tool */
    click_cell(s, (cell_t){1, 1});
    /* Quitting with unsaved changes asks first; Esc stays. */
    key(s, SDLK_q, 0);
    assert_int_equal(s->prompt, ED_PROMPT_QUIT);
    assert_false(s->quit);
    key(s, SDLK_ESCAPE, 0);
    assert_int_equal(s->prompt, ED_PROMPT_NONE);

    char dir[] = "/tmp/hb_uied_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/new.json", dir);
    key(s, SDLK_s, KMOD_LCTRL); /* no path yet: Save As prompt */
    assert_int_equal(s->prompt, ED_PROMPT_SAVE_AS);
    s->input[0] = '\0'; /* it offers the maps folder (test_ui_editor_safe.c); another path */
    type_text(s, path);
    key(s, SDLK_RETURN, 0);
    assert_false(edit_history_dirty(&s->hist));
    map_t *back = NULL;
    char err[HB_ERR_MAX];
    assert_int_equal(map_load(path, hb_data_dir(), &back, NULL, err, sizeof err), 0);
    assert_int_equal(back->cells[map_index(back, (cell_t){1, 1})], map_find_type(back, "wall"));
    assert_int_equal(back->n_combatants, f->m->n_combatants);
    map_destroy(back);
    /* A second save keeps the first as .bak. */
    click_cell(s, (cell_t){2, 1});
    key(s, SDLK_s, KMOD_LCTRL);
    char bak[80];
    snprintf(bak, sizeof bak, "%s.bak", path);
    assert_int_equal(access(bak, F_OK), 0);
    key(s, SDLK_q, 0);
    assert_true(s->quit);
    unlink(bak);
    unlink(path);
    rmdir(dir);
}

static void test_ruleset_follows_templates(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    key(s, SDLK_r, 0);
    s->input[0] = '\0';
    type_text(s, "no_such_rules");
    key(s, SDLK_RETURN, 0);
    assert_string_equal(f->m->ruleset, "xhalem"); /* refused: would not load again */
    key(s, SDLK_r, 0);
    s->input[0] = '\0';
    type_text(s, "scars");
    key(s, SDLK_RETURN, 0);
    assert_string_equal(f->m->ruleset, "scars");
    assert_non_null(s->db);
    assert_string_equal(s->db->ruleset, "scars");
    assert_non_null(ed_template_match(s, 0));
    key(s, SDLK_z, KMOD_LCTRL);
    assert_string_equal(f->m->ruleset, "xhalem");
    assert_string_equal(s->db->ruleset, "xhalem");
    /* Feet per hex and the map name go through the same prompts. */
    key(s, SDLK_h, 0);
    s->input[0] = '\0';
    type_text(s, "10");
    key(s, SDLK_RETURN, 0);
    assert_int_equal(f->m->feet_per_hex, 10);
    key(s, SDLK_m, 0);
    type_text(s, "Quarry");
    key(s, SDLK_RETURN, 0);
    assert_string_equal(f->m->name, "Quarry");
    /* Resize with an anchor, then a new terrain type from the prompt. */
    key(s, SDLK_r, KMOD_LCTRL);
    type_text(s, "20x14 br");
    key(s, SDLK_RETURN, 0);
    assert_int_equal(f->m->cols, 20);
    assert_int_equal(f->m->rows, 14);
    key(s, SDLK_t, 0);
    type_text(s, "lava 0 none n #e04010");
    key(s, SDLK_RETURN, 0);
    int lava = map_find_type(f->m, "lava");
    assert_true(lava >= 0);
    assert_int_equal(s->type, lava);
    assert_int_equal(f->m->types[lava].color, 0xe04010);
    assert_int_equal(f->m->types[lava].move, 0);
}

/* Ctrl+N starts over on a blank map of a given size and terrain, as one
 * undoable step; a malformed answer changes nothing. */
static void test_new_map_from_size_and_fill(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    int open = map_find_type(f->m, "open"), water = map_find_type(f->m, "water");
    /* Something to lose: a painted hex and a combatant. */
    key(s, SDLK_u, 0);
    click_cell(s, (cell_t){3, 3});
    assert_int_equal(f->m->n_combatants, 1);
    f->m->cells[map_index(f->m, (cell_t){5, 5})] = (uint8_t)map_find_type(f->m, "wall");

    key(s, SDLK_n, KMOD_LCTRL);
    assert_int_equal(s->prompt, ED_PROMPT_NEW_MAP);
    type_text(s, "banana");
    key(s, SDLK_RETURN, 0);
    assert_int_equal(f->m->cols, 16);
    assert_int_equal(f->m->n_combatants, 1);

    key(s, SDLK_n, KMOD_LCTRL);
    type_text(s, "10x8 water");
    key(s, SDLK_RETURN, 0);
    assert_int_equal(f->m->cols, 10);
    assert_int_equal(f->m->rows, 8);
    assert_int_equal(f->m->n_combatants, 0);
    for (int i = 0; i < 10 * 8; i++)
        assert_int_equal(f->m->cells[i], water);

    /* One undo brings the whole old map back, one redo the blank one. */
    key(s, SDLK_z, KMOD_LCTRL);
    assert_int_equal(f->m->cols, 16);
    assert_int_equal(f->m->rows, 12);
    assert_int_equal(f->m->n_combatants, 1);
    assert_int_equal(cell_type(f->m, 5, 5), map_find_type(f->m, "wall"));
    assert_int_equal(cell_type(f->m, 0, 0), open);
    key(s, SDLK_y, KMOD_LCTRL);
    assert_int_equal(f->m->cols, 10);
    assert_int_equal(cell_type(f->m, 9, 7), water);
}

static void test_render_frame(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    char err[256];
    ui_draw_t *d = ui_draw_create(r, f->m, err, sizeof err);
    assert_non_null(d);
    s->type = map_find_type(f->m, "rubble");
    key(s, SDLK_3, 0);
    key(s, SDLK_b, 0);
    click_cell(s, (cell_t){12, 6});
    s->selected = -1;
    ed_message(s, "test message");
    ed_draw(d, s);
    SDL_RenderPresent(r);
    /* The palette swatch of the selected type shows its colour. */
    const terrain_t *t = &f->m->types[s->type];
    Uint32 px = ((Uint32 *)surf->pixels)[(40 + s->type * ED_ROW_H + 10) * (surf->pitch / 4) + 14];
    Uint8 pr, pg, pb;
    SDL_GetRGB(px, surf->format, &pr, &pg, &pb);
    assert_int_equal(pr, (t->color >> 16) & 255);
    assert_int_equal(pg, (t->color >> 8) & 255);
    assert_int_equal(pb, t->color & 255);
    const char *out = getenv("HB_EDITOR_PNG");
    if (out) IMG_SavePNG(surf, out);
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    TTF_Quit();
    SDL_Quit();
}

/* A painted hex shows on the very next frame, and so does its undo: the
 * editor's frames, drawn by a drawer that caches the map's static layer, are
 * the same pixel for pixel as those of a drawer that draws it afresh. */
static void test_paint_shows_at_once(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    assert_int_equal(TTF_Init(), 0);
    SDL_Surface *sc = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Surface *sf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *rc = SDL_CreateSoftwareRenderer(sc), *rf = SDL_CreateSoftwareRenderer(sf);
    char err[256];
    ui_draw_t *dc = ui_draw_create(rc, f->m, err, sizeof err);
    ui_draw_t *df = ui_draw_create(rf, f->m, err, sizeof err);
    assert_non_null(dc);
    assert_non_null(df);
    ui_draw_cache_static(df, false);
    cell_t at = {7, 6};
    vec2_t p = screen_of(s, at);
    size_t bytes = (size_t)sc->pitch * (size_t)H;
    int open = cell_type(f->m, at.col, at.row), wall = map_find_type(f->m, "wall");
    Uint32 *px = (Uint32 *)sc->pixels, before = 0;
    int at_px = (int)p.y * (sc->pitch / 4) + (int)p.x;
    for (int step = 0; step < 4; step++) {
        if (step == 1) { /* paint with wall, then move the pointer away */
            s->type = wall;
            key(s, SDLK_b, 0);
            click_cell(s, at);
            mouse(s, SDL_MOUSEMOTION, screen_of(s, (cell_t){2, 2}));
        } else if (step == 2) {
            key(s, SDLK_z, KMOD_LCTRL);
        }
        ed_draw(dc, s);
        ed_draw(df, s);
        SDL_RenderPresent(rc);
        SDL_RenderPresent(rf);
        assert_memory_equal(sc->pixels, sf->pixels, bytes);
        assert_int_equal(cell_type(f->m, at.col, at.row), step == 1 ? wall : open);
        if (step == 0) before = px[at_px];
        /* The hex's centre changes with the paint and comes back with the undo. */
        assert_true(step == 1 ? px[at_px] != before : px[at_px] == before);
    }
    /* Four frames, three of them after a change of the terrain (paint, undo)
     * or of the hover alone: the cache drew the layer for the first frame,
     * the paint and the undo, and copied it for the last. */
    assert_int_equal(ui_draw_static_redraws(dc), 3);
    ui_draw_destroy(dc);
    ui_draw_destroy(df);
    SDL_DestroyRenderer(rc);
    SDL_DestroyRenderer(rf);
    SDL_FreeSurface(sc);
    SDL_FreeSurface(sf);
    TTF_Quit();
}

/* A save onto a failing disk: the window says so, the edits stay in memory
 * (still unsaved) and the file on disk is the one saved before. */
static void test_failed_save_keeps_edits(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    char dir[] = "/tmp/hb_uied_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64], bak[80];
    snprintf(path, sizeof path, "%s/m.json", dir);
    snprintf(bak, sizeof bak, "%s.bak", path);
    hb_strlcpy(s->path, path, sizeof s->path);
    assert_true(ed_save(s));
    char *before = map_to_json(f->m);
    s->type = map_find_type(f->m, "wall");
    key(s, SDLK_b, 0); /* the brush: the editor starts on the select tool */
    click_cell(s, (cell_t){3, 3});
    static const char *const SPECS[] = {"create:1", "write:1", "fsync:1", "close:1", "rename:1"};
    for (size_t k = 0; k < sizeof SPECS / sizeof SPECS[0]; k++) {
        assert_true(hb_fault_set(SPECS[k]));
        s->n_msg = 0;
        key(s, SDLK_s, KMOD_LCTRL);
        hb_fault_set(NULL);
        assert_true(edit_history_dirty(&s->hist));
        assert_int_equal(f->m->cells[map_index(f->m, (cell_t){3, 3})], s->type);
        assert_int_equal(s->n_msg, 1);
        assert_non_null(strstr(s->msg[0], "save failed: "));
        assert_non_null(strstr(s->msg[0], ": cannot write: No space left on device"));
        char *text = NULL, err[256];
        size_t len;
        assert_int_equal(hb_read_file(path, HB_FILE_MAX, &text, &len, err, sizeof err), 0);
        assert_string_equal(text, before);
        free(text);
    }
    /* Room again: the save goes through. */
    key(s, SDLK_s, KMOD_LCTRL);
    assert_false(edit_history_dirty(&s->hist));
    free(before);
    unlink(bak);
    unlink(path);
    assert_int_equal(rmdir(dir), 0); /* nothing else was left in the folder */
}

/* Unsaved edits written as a recovery copy come back in a new editor on
 * the same file, with their undo history; D discards, Esc keeps the copy. */
static void test_recovery_copy_offered_back(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    char dir[] = "/tmp/hb_uied_XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("XDG_DATA_HOME", dir, 1);
    char path[64];
    snprintf(path, sizeof path, "%s/m.json", dir);
    hb_strlcpy(s->path, path, sizeof s->path);
    assert_true(ed_save(s));
    char *saved = map_to_json(f->m);
    bool written = true;
    char msg[HB_ERR_MAX];
    assert_true(ed_write_recovery(s, &written, msg, sizeof msg));
    assert_false(written); /* nothing unsaved: no copy */
    s->type = map_find_type(f->m, "wall");
    key(s, SDLK_b, 0); /* the brush: the editor starts on the select tool */
    click_cell(s, (cell_t){3, 3});
    click_cell(s, (cell_t){4, 3});
    key(s, SDLK_z, KMOD_LCTRL); /* one step undone: a redo in the copy */
    assert_true(ed_write_recovery(s, &written, msg, sizeof msg));
    assert_true(written);
    char *edited = map_to_json(f->m);
    char rpath[256];
    assert_true(recover_path(path, rpath, sizeof rpath));
    assert_string_equal(msg, rpath);

    /* A new session on the file as saved. */
    for (int round = 0; round < 3; round++) {
        map_t *m = NULL;
        char err[HB_ERR_MAX];
        assert_int_equal(map_load(path, hb_data_dir(), &m, NULL, err, sizeof err), 0);
        ed_state_t t;
        ed_init(&t, m, f->db, path, W, H);
        assert_true(recover_belongs(rpath, path));
        ed_offer_recovery(&t, rpath);
        assert_int_equal(t.prompt, ED_PROMPT_RECOVER);
        char *text = map_to_json(m);
        assert_string_equal(text, saved); /* nothing changes before the answer */
        free(text);
        if (round == 0) {
            key(&t, SDLK_ESCAPE, 0); /* later: the copy stays */
            assert_int_equal(access(rpath, F_OK), 0);
        } else if (round == 1) {
            key(&t, SDLK_r, 0);
            assert_int_equal(t.prompt, ED_PROMPT_NONE);
            assert_ptr_equal(t.map, m);
            text = map_to_json(m);
            assert_string_equal(text, edited);
            free(text);
            assert_true(edit_history_dirty(&t.hist));
            assert_true(ed_redo(&t)); /* the undone step is still there */
            assert_true(ed_undo(&t));
            assert_true(ed_undo(&t));
            assert_false(ed_undo(&t));
            text = map_to_json(m);
            assert_string_equal(text, saved);
            free(text);
            assert_false(edit_history_dirty(&t.hist));
            assert_int_equal(access(rpath, F_OK), -1); /* taken back: gone */
            assert_true(ed_redo(&t));
            assert_true(ed_write_recovery(&t, &written, msg, sizeof msg));
        } else {
            key(&t, SDLK_d, 0);
            assert_int_equal(access(rpath, F_OK), -1);
            text = map_to_json(m);
            assert_string_equal(text, saved);
            free(text);
        }
        ed_free(&t);
        map_destroy(m);
    }
    free(saved);
    free(edited);
    char bak[80];
    snprintf(bak, sizeof bak, "%s.bak", path);
    unlink(bak);
    unlink(path);
    char folder[128];
    snprintf(folder, sizeof folder, "%s/hexbattle", dir);
    assert_int_equal(rmdir(folder), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* A "Save as" that fails keeps the editor on its file: the recovery copy and
 * the next Ctrl+S still go to the map that exists (issue 30). */
static void test_failed_save_as_keeps_path(void **state)
{
    fx_t *f = *state;
    ed_state_t *s = &f->st;
    key(s, SDLK_b, 0); /* the brush: the editor starts on the select tool */
    s->type = map_find_type(f->m, "wall");
    click_cell(s, (cell_t){1, 1});
    key(s, SDLK_s, KMOD_LCTRL); /* a new map: Save As */
    assert_int_equal(s->prompt, ED_PROMPT_SAVE_AS);
    for (size_t k = strlen(s->input); k > 0; k--) /* the dialog offers a path: clear it */
        key(s, SDLK_BACKSPACE, 0);
    type_text(s, "/no/such/folder/new.json");
    key(s, SDLK_RETURN, 0);
    assert_string_equal(s->path, "");
    assert_true(edit_history_dirty(&s->hist));
    assert_non_null(strstr(s->msg[s->n_msg - 1], "save failed: /no/such/folder/new.json"));

    char dir[] = "/tmp/hb_uied_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/good.json", dir);
    key(s, SDLK_s, KMOD_LCTRL);
    for (size_t k = strlen(s->input); k > 0; k--)
        key(s, SDLK_BACKSPACE, 0);
    type_text(s, path);
    key(s, SDLK_RETURN, 0);
    assert_string_equal(s->path, path);
    /* Save As again, onto a folder: refused, the editor stays on good.json. */
    click_cell(s, (cell_t){2, 1});
    key(s, SDLK_s, KMOD_LCTRL | KMOD_LSHIFT);
    assert_int_equal(s->prompt, ED_PROMPT_SAVE_AS);
    for (size_t k = strlen(path); k > 0; k--)
        key(s, SDLK_BACKSPACE, 0);
    type_text(s, dir);
    key(s, SDLK_RETURN, 0);
    assert_string_equal(s->path, path);
    assert_true(edit_history_dirty(&s->hist));
    key(s, SDLK_s, KMOD_LCTRL);
    assert_false(edit_history_dirty(&s->hist));
    char bak[80];
    snprintf(bak, sizeof bak, "%s.bak", path);
    unlink(bak);
    unlink(path);
    assert_int_equal(rmdir(dir), 0);
}

/* Two editors on one map: the second to save is asked before it overwrites
 * what the first wrote; Esc keeps the other's file, Y overwrites. */
static void test_two_editors_asked(void **state)
{
    fx_t *f = *state;
    char dir[] = "/tmp/hb_uied_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64], bak[80];
    snprintf(path, sizeof path, "%s/shared.json", dir);
    snprintf(bak, sizeof bak, "%s.bak", path);
    hb_strlcpy(f->st.path, path, sizeof f->st.path);
    assert_true(ed_save(&f->st));

    map_t *ma = NULL, *mb = NULL;
    char err[HB_ERR_MAX];
    assert_int_equal(map_load(path, hb_data_dir(), &ma, NULL, err, sizeof err), 0);
    assert_int_equal(map_load(path, hb_data_dir(), &mb, NULL, err, sizeof err), 0);
    ed_state_t a, b;
    ed_init(&a, ma, f->db, path, W, H);
    ed_init(&b, mb, f->db, path, W, H);
    key(&a, SDLK_b, 0); /* the brush: the editor starts on the select tool */
    key(&b, SDLK_b, 0);
    a.type = b.type = map_find_type(ma, "wall");
    click_cell(&a, (cell_t){1, 1});
    key(&a, SDLK_s, KMOD_LCTRL);
    assert_false(edit_history_dirty(&a.hist));
    char *a_text = NULL;
    size_t len;
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &a_text, &len, err, sizeof err), 0);

    click_cell(&b, (cell_t){5, 5});
    key(&b, SDLK_s, KMOD_LCTRL);
    assert_int_equal(b.prompt, ED_PROMPT_OVERWRITE);
    assert_true(edit_history_dirty(&b.hist));
    key(&b, SDLK_ESCAPE, 0);
    assert_int_equal(b.prompt, ED_PROMPT_NONE);
    char *now = NULL;
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &now, &len, err, sizeof err), 0);
    assert_string_equal(now, a_text); /* the first editor's map is still there */
    free(now);
    key(&b, SDLK_s, KMOD_LCTRL);
    assert_int_equal(b.prompt, ED_PROMPT_OVERWRITE);
    key(&b, SDLK_y, 0);
    assert_false(edit_history_dirty(&b.hist));
    char *b_text = map_to_json(mb);
    assert_int_equal(hb_read_file(path, HB_FILE_MAX, &now, &len, err, sizeof err), 0);
    assert_string_equal(now, b_text);
    free(now);
    free(b_text);
    /* B's own later saves need no question. */
    click_cell(&b, (cell_t){6, 5});
    key(&b, SDLK_s, KMOD_LCTRL);
    assert_int_equal(b.prompt, ED_PROMPT_NONE);
    assert_false(edit_history_dirty(&b.hist));
    free(a_text);
    ed_free(&a);
    ed_free(&b);
    map_destroy(ma);
    map_destroy(mb);
    unlink(bak);
    unlink(path);
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_paint_stroke_undo_redo, setup, teardown),
        cmocka_unit_test_setup_teardown(test_group_initiative_option, setup, teardown),
        cmocka_unit_test_setup_teardown(test_place_move_edit_delete, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_as_and_quit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ruleset_follows_templates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_new_map_from_size_and_fill, setup, teardown),
        cmocka_unit_test_setup_teardown(test_render_frame, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paint_shows_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_save_keeps_edits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recovery_copy_offered_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_save_as_keeps_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_editors_asked, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
