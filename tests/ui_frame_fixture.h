/* ui_frame_fixture.h - one frame of the play window drawn headless into a PNG
 * (software renderer), for the UI tests to look at, and a key press event. */
#ifndef HB_TEST_UI_FRAME_FIXTURE_H
#define HB_TEST_UI_FRAME_FIXTURE_H

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/map_io.h"
#include "ui/hud.h"
#include "ui/play_ui.h"
#include "ui/window.h"

/* Window state *st for map m in a w x ht window with HUD h laid out on it,
 * the map area fitted: the setup the window does before its first frame. */
static inline void fx_state_fit(ui_state_t *st, hud_t *h, const map_t *m, int w, int ht)
{
    ui_state_init(st, m, w, ht);
    st->hud = h;
    hud_layout(&h->lay, w, ht, 1.0);
    st->area = h->lay.map;
    ui_state_fit(st);
}

/* A bundled map's battle as the play window holds it: the map, its
 * templates, the play state, the HUD and the window state. */
typedef struct {
    map_t *m;
    tmpl_db_t *db;
    pui_t *p;
    hud_t hud;
    ui_state_t st;
} fx_game_t;

/* Open maps/FILE, start its battle with seed, and lay out the HUD and fit
 * the map for a w x ht window (st left zeroed when w is 0). */
static inline void fx_game_open(fx_game_t *g, const char *file, uint64_t seed, int w, int ht)
{
    memset(g, 0, sizeof *g);
    char path[1024], data[512], err[512];
    snprintf(path, sizeof path, "%s/../../maps/%s", HB_TEST_DATA, file);
    snprintf(data, sizeof data, "%s/../../data", HB_TEST_DATA);
    if (map_load(path, data, &g->m, &g->db, err, sizeof err) != 0) fail_msg("%s", err);
    g->p = malloc(sizeof *g->p);
    assert_non_null(g->p);
    assert_int_equal(pui_start(g->p, g->m, g->db, seed), BATTLE_OK);
    assert_true(hud_init(&g->hud, g->p));
    if (w > 0) fx_state_fit(&g->st, &g->hud, g->m, w, ht);
}

static inline void fx_game_close(fx_game_t *g)
{
    hud_free(&g->hud);
    pui_free(g->p);
    free(g->p);
    tmpl_db_destroy(g->db);
    map_destroy(g->m);
}

/* Draw p's play window, w x ht pixels, with HUD h (a fresh one when NULL),
 * into a new surface (the caller frees it), saved as the PNG at png too
 * when png is not NULL; *st (may be NULL) gets the window state drawn with
 * (its camera places the tokens). SDL video and TTF must be up. */
static inline SDL_Surface *fx_play_surface(pui_t *p, hud_t *h, int w, int ht, const char *png,
                                           ui_state_t *st_out)
{
    battle_t *b = p->play.b;
    char err[256];
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, ht, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(surf);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    ui_draw_t *d = ui_draw_create(r, b->map, err, sizeof err);
    assert_non_null(d);
    hud_t own;
    if (!h) {
        assert_true(hud_init(&own, p));
        h = &own;
    }
    ui_state_t st;
    fx_state_fit(&st, h, b->map, w, ht);
    anim_snap(&p->anim);
    ui_window_draw(d, &st);
    SDL_RenderPresent(r);
    if (png) assert_int_equal(IMG_SavePNG(surf, png), 0);
    if (st_out) {
        *st_out = st;
        st_out->hud = NULL; /* freed below when it was our own */
    }
    if (h == &own) hud_free(&own);
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    return surf;
}

/* Draw p's window with st (its HUD) at w x ht, every text drawn recorded in
 * rec[0..cap) (ui_text_record), saved as the PNG at png when not NULL;
 * returns how many texts were recorded. SDL video and TTF must be up. */
static inline int fx_draw_texts(pui_t *p, ui_state_t *st, int w, int ht, const char *png,
                                ui_text_rec_t *rec, int cap)
{
    char err[256];
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, ht, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(surf);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    ui_draw_t *d = ui_draw_create(r, p->play.b->map, err, sizeof err);
    assert_non_null(d);
    ui_text_record(ui_draw_text(d), rec, cap);
    ui_window_draw(d, st);
    SDL_RenderPresent(r);
    int n = ui_text_recorded(ui_draw_text(d));
    ui_text_record(ui_draw_text(d), NULL, 0);
    if (png) assert_int_equal(IMG_SavePNG(surf, png), 0);
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    return n < cap ? n : cap;
}

/* Draw p's play window into the PNG at png (see fx_play_surface). */
static inline void fx_play_frame(pui_t *p, hud_t *h, int w, int ht, const char *png)
{
    SDL_FreeSurface(fx_play_surface(p, h, w, ht, png, NULL));
}

/* A key press of k. */
static inline SDL_Event fx_key_event(SDL_Keycode k)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    return e;
}

/* ---- synthetic input, as SDL would report it, into the play window ------ */

/* cmocka group set-up and tear-down of the suites that drive the window's
 * event handler: SDL video (the dummy driver) and TTF up, then down. */
static inline int fx_video_up(void **state)
{
    (void)state;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) return -1;
    return TTF_Init() != 0 ? -1 : 0;
}

static inline int fx_video_down(void **state)
{
    (void)state;
    TTF_Quit();
    SDL_Quit();
    return 0;
}

/* Screen point of cell c's centre under st's camera, rounded. */
static inline SDL_Point fx_cell_point(const ui_state_t *st, cell_t c)
{
    vec2_t p = ui_cam_to_screen(&st->cam, ui_cell_center(st->map, c));
    return (SDL_Point){(int)lround(p.x), (int)lround(p.y)};
}

/* The cursor moves to (x, y). */
static inline void fx_motion(ui_state_t *st, int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.x = x;
    e.motion.y = y;
    ui_handle_event(st, &e);
}

/* Button `button` goes down (down true) or up at (x, y). */
static inline void fx_button(ui_state_t *st, Uint8 button, bool down, int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
    e.button.button = button;
    e.button.x = x;
    e.button.y = y;
    ui_handle_event(st, &e);
}

/* The cursor moves over cell c. */
static inline void fx_hover_cell(ui_state_t *st, cell_t c)
{
    SDL_Point p = fx_cell_point(st, c);
    fx_motion(st, p.x, p.y);
}

/* Button `button` goes down (down true) or up over cell c (a drag's ends). */
static inline void fx_button_cell(ui_state_t *st, cell_t c, Uint8 button, bool down)
{
    SDL_Point p = fx_cell_point(st, c);
    fx_button(st, button, down, p.x, p.y);
}

/* The cursor moves over cell c and `button` clicks there (down, up). */
static inline void fx_click_cell(ui_state_t *st, cell_t c, Uint8 button)
{
    SDL_Point p = fx_cell_point(st, c);
    fx_motion(st, p.x, p.y);
    fx_button(st, button, true, p.x, p.y);
    fx_button(st, button, false, p.x, p.y);
}

/* A left press in the middle of rectangle r (no motion, no release). */
static inline void fx_press_rect(ui_state_t *st, SDL_Rect r)
{
    fx_button(st, SDL_BUTTON_LEFT, true, r.x + r.w / 2, r.y + r.h / 2);
}

/* Key k pressed with modifiers mod. */
static inline void fx_key(ui_state_t *st, SDL_Keycode k, Uint16 mod)
{
    SDL_Event e = fx_key_event(k);
    e.key.keysym.mod = mod;
    ui_handle_event(st, &e);
}

#endif
