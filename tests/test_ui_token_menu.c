/* test_ui_token_menu.c - what the play screen lays over the map and the
 * side panel: where the right-click menu of a token opens (beside the
 * token, inside the map, covering as few other tokens as it can: at the
 * relay outpost Ilse Marr starts with Tomas Reyk in the next hex to her
 * right, where the menu used to open over him), and the overlay legend
 * kept to its half of the right panel, never under the battle log's
 * heading. The frames are saved to look at (test_ui_token_menu*.png).
 */
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
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "io/map_io.h"
#include "ui/hud.h"
#include "ui/overlay.h"
#include "ui/play_ui.h"
#include "ui/token_menu.h"
#include "ui/window.h"
#include "ui_bundled_fixture.h"
#include "ui_frame_fixture.h"

#define VIEW_W 1400
#define VIEW_H 900

/* The box of combatant i's token on screen under st's camera. */
static SDL_Rect token_box(const ui_state_t *st, const battle_t *b, int i)
{
    SDL_Point pt = fx_cell_point(st, hex_to_cell(b->map->layout, b->board->pos[i]));
    int r = (int)ceil(ui_token_screen_radius(b->map->combatants[i].size, st->cam.zoom));
    return (SDL_Rect){pt.x - r, pt.y - r, 2 * r, 2 * r};
}

/* Tokens of b other than who that box r covers. */
static int tokens_under(const ui_state_t *st, const battle_t *b, int who, SDL_Rect r)
{
    int n = 0;
    for (int i = 0; i < b->n; i++) {
        if (i == who || !battle_active(b, i)) continue;
        SDL_Rect tb = token_box(st, b, i);
        n += SDL_HasIntersection(&r, &tb) ? 1 : 0;
    }
    return n;
}

static void test_menu_beside_not_over_a_neighbour(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "relay_outpost", 3);
    pui_t *p = f.p;
    map_t *m = f.m;
    pui_run_ai(p, 400);
    assert_true(p->user_turn);
    const battle_t *b = p->play.b;
    int ilse = map_find_combatant(m, "tech"), tomas = map_find_combatant(m, "gunner");
    assert_true(ilse >= 0);

    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    hud_t h;
    assert_true(hud_init(&h, p));
    ui_state_t st;
    fx_state_fit(&st, &h, m, VIEW_W, VIEW_H);
    st.overlay = ui_overlay_create(m);
    assert_non_null(st.overlay);

    /* A frame drawn first, as the window does: the menu keeps off the
     * tokens and names it drew. */
    SDL_FreeSurface(fx_play_surface(p, &h, VIEW_W, VIEW_H, NULL, NULL));
    assert_int_equal(h.n_drawn, b->n);
    assert_true(h.drawn_cam.zoom == st.cam.zoom && h.drawn_cam.x == st.cam.x);

    /* Where the menu used to go: right of the token, level with its top. */
    SDL_Rect tok = token_box(&st, b, ilse);
    fx_click_cell(&st, hex_to_cell(b->map->layout, b->board->pos[ilse]), SDL_BUTTON_RIGHT);
    ui_token_menu_t *menu = &h.menu;
    assert_true(menu->open);
    assert_int_equal(menu->who, ilse);
    assert_true(menu->n >= 2);
    SDL_Rect old = {tok.x + tok.w + 4, tok.y, menu->box.w, menu->box.h};
    if (tomas >= 0) assert_true(tokens_under(&st, b, ilse, old) >= 1); /* the crowd is real */

    /* Now: over no token, not over its own, inside the map, and near it. */
    assert_int_equal(tokens_under(&st, b, ilse, menu->box), 0);
    assert_false(SDL_HasIntersection(&menu->box, &tok));
    for (int i = 0; i < b->n; i++) { /* nor anyone's name, nor the bars under a token */
        if (!h.drawn[i].on) continue;
        if (h.drawn[i].label.w > 0) assert_false(SDL_HasIntersection(&menu->box, &h.drawn[i].label));
        if (i != ilse) assert_false(SDL_HasIntersection(&menu->box, &h.drawn[i].token));
    }
    SDL_Rect inter;
    assert_true(SDL_IntersectRect(&menu->box, &h.lay.map, &inter));
    assert_true(SDL_RectEquals(&inter, &menu->box));
    int dx = menu->box.x > tok.x + tok.w ? menu->box.x - (tok.x + tok.w)
             : tok.x > menu->box.x + menu->box.w ? tok.x - (menu->box.x + menu->box.w) : 0;
    int dy = menu->box.y > tok.y + tok.h ? menu->box.y - (tok.y + tok.h)
             : tok.y > menu->box.y + menu->box.h ? tok.y - (menu->box.y + menu->box.h) : 0;
    assert_true(dx <= 2 * tok.w + 8 && dy <= 2 * tok.h + 8); /* within two token widths */

    /* It still works: Esc closes it. */
    fx_key(&st, SDLK_ESCAPE, 0);
    assert_false(menu->open);
    fx_click_cell(&st, hex_to_cell(b->map->layout, b->board->pos[ilse]), SDL_BUTTON_RIGHT);
    assert_true(menu->open);
    fx_play_frame(p, &h, VIEW_W, VIEW_H, "test_ui_token_menu.png");

    ui_overlay_destroy(st.overlay);
    hud_free(&h);
    TTF_Quit();
    SDL_Quit();
    fx_close(&f);
}

/* Solid 8x8 blocks of one overlay colour with their top left corner in
 * the rectangle (x, y, w, h) of s: the legend's swatches. */
static int swatches(SDL_Surface *s, int x0, int y0, int w, int h)
{
    const int B = 8;
    int n = 0;
    for (int c = 0; c < UI_OV_COLOR_COUNT; c++) {
        SDL_Color col = ui_overlay_color((ui_ov_color_t)c);
        uint32_t want = SDL_MapRGB(s->format, col.r, col.g, col.b) & 0xFFFFFFu;
        for (int y = y0; y < y0 + h && y + B <= s->h; y++)
            for (int x = x0; x < x0 + w && x + B <= s->w; x++) {
                bool solid = true;
                for (int dy = 0; dy < B && solid; dy++)
                    for (int dx = 0; dx < B && solid; dx++) {
                        uint32_t px =
                            ((uint32_t *)((uint8_t *)s->pixels + (y + dy) * s->pitch))[x + dx];
                        solid = (px & 0xFFFFFFu) == want;
                    }
                if (solid) {
                    n++;
                    x += B; /* count a block once along its row */
                }
            }
    }
    return n;
}

/* Three overlays on at 1280x800: the legend outgrows its half of the
 * panel; the rows that do not fit are left off whole, and nothing of the
 * legend (its colour swatches) is drawn where the battle log starts. */
static void test_legend_stays_in_its_half(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "relay_outpost", 3);
    pui_t *p = f.p;
    map_t *m = f.m;
    pui_run_ai(p, 400);
    assert_true(p->user_turn);
    const int W = 1280, H = 800;
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO), 0);
    assert_int_equal(TTF_Init(), 0);
    hud_t h;
    assert_true(hud_init(&h, p));
    ui_state_t st;
    fx_state_fit(&st, &h, m, W, H);
    st.overlay = ui_overlay_create(m);
    assert_non_null(st.overlay);
    ui_overlay_use_db(st.overlay, f.db);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(surf);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(r);
    char err[256];
    ui_draw_t *d = ui_draw_create(r, m, err, sizeof err);
    assert_non_null(d);
    fx_key(&st, SDLK_F5, 0); /* reach */
    fx_key(&st, SDLK_F6, 0); /* threat */
    fx_key(&st, SDLK_F8, 0); /* weapon range */
    fx_hover_cell(&st, (cell_t){8, 8});
    anim_snap(&p->anim);
    ui_window_draw(d, &st);
    SDL_RenderPresent(r);
    assert_int_equal(IMG_SavePNG(surf, "test_ui_token_menu_legend.png"), 0);
    assert_true(ui_overlay_legend_rows(st.overlay) >= 8);
    /* The side part (card and legend) ends at most half way down. */
    assert_true(h.side.h > 0 && h.side.h <= h.lay.log.h / 2 + 1);
    /* Under it, in the log's part of the panel: no legend swatch (a solid
     * square of an overlay colour; the log's text shares the palette, but
     * no glyph is a solid block). Above it, the swatches that fit. */
    int bottom = h.side.y + h.side.h - 8; /* a swatch starting lower runs out of the side part */
    int below = swatches(surf, h.lay.log.x, bottom + 1, h.lay.log.w,
                         h.lay.log.y + h.lay.log.h - (bottom + 1));
    int above = swatches(surf, h.lay.log.x, h.side.y, h.lay.log.w, bottom + 1 - h.side.y);
    assert_int_equal(below, 0);
    assert_true(above >= 4);
    /* And no legend words (their ink, overlay.c) where the log's heading
     * stands, between the side part and the first log line. */
    int words = 0;
    uint32_t ink = SDL_MapRGB(surf->format, 240, 240, 232) & 0xFFFFFFu;
    for (int y = h.side.y + h.side.h; y < h.side.y + h.side.h + h.lay.line + h.lay.px / 4; y++)
        for (int x = h.lay.log.x; x < h.lay.log.x + h.lay.log.w; x++)
            words += (((uint32_t *)((uint8_t *)surf->pixels + y * surf->pitch))[x] & 0xFFFFFFu) == ink;
    assert_int_equal(words, 0);
    ui_draw_destroy(d);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    ui_overlay_destroy(st.overlay);
    hud_free(&h);
    TTF_Quit();
    SDL_Quit();
    fx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_menu_beside_not_over_a_neighbour),
        cmocka_unit_test(test_legend_stays_in_its_half),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
