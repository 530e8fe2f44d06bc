/* ui_frame_fixture.h - one frame of the play window drawn headless into a PNG
 * (software renderer), for the UI tests to look at, and a key press event. */
#ifndef HB_TEST_UI_FRAME_FIXTURE_H
#define HB_TEST_UI_FRAME_FIXTURE_H

#include <SDL.h>
#include <SDL_image.h>
#include <string.h>

#include "ui/hud.h"
#include "ui/window.h"

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
    ui_state_init(&st, b->map, w, ht);
    st.hud = h;
    hud_layout(&h->lay, w, ht, 1.0);
    st.area = h->lay.map;
    ui_state_fit(&st);
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

#endif
