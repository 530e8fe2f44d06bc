/* window.c - the play window's map view: state, event handling and drawing
 * (see window.h); the window's lifetime and loop are in session.c. */
#include "window.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL_ttf.h>

#include "../io/fileio.h"
#include "hud.h"
#include "overlay.h"

void ui_state_init(ui_state_t *s, const map_t *m, int view_w, int view_h)
{
    memset(s, 0, sizeof *s);
    s->map = m;
    s->bounds = ui_map_bounds(m);
    s->view_w = view_w > 0 ? view_w : 1;
    s->view_h = view_h > 0 ? view_h : 1;
    s->px_per_pt = 1.0;
    s->cam.zoom = 1.0;
    ui_state_fit(s);
}

void ui_state_fit(ui_state_t *s)
{
    double margin = fmax(8.0, fmin(s->view_w, s->view_h) * 0.03);
    /* Keep the bottom row clear of the status strip. */
    int strip = (int)lround(ui_text_quantize((int)lround(14 * s->px_per_pt)) * 1.9);
    int h = s->view_h - strip > s->view_h / 2 ? s->view_h - strip : s->view_h;
    if (s->area.w > 0 && s->area.h > 0) {
        /* Fit into the free area between the panels, then shift it there. */
        ui_cam_fit(&s->cam, s->bounds, s->area.w, s->area.h, margin);
        s->cam.x -= s->area.x / s->cam.zoom;
        s->cam.y -= s->area.y / s->cam.zoom;
        s->dirty = true;
        return;
    }
    ui_cam_fit(&s->cam, s->bounds, s->view_w, h, margin);
    s->dirty = true;
}

/* The free map area: between the panels, else the whole view. */
static SDL_Rect map_area(const ui_state_t *s)
{
    if (s->area.w > 0 && s->area.h > 0) return s->area;
    return (SDL_Rect){0, 0, s->view_w, s->view_h};
}

void ui_state_resize(ui_state_t *s, int view_w, int view_h, double px_per_pt)
{
    /* Was the map fitted as it stands (nobody panned or zoomed since)? Then
     * it is fitted again to the new size rather than left at the old zoom. */
    ui_camera_t was = s->cam;
    ui_state_fit(s);
    bool fitted = fabs(was.zoom - s->cam.zoom) <= 1e-6 * s->cam.zoom &&
                  fabs(was.x - s->cam.x) * s->cam.zoom < 0.5 &&
                  fabs(was.y - s->cam.y) * s->cam.zoom < 0.5;
    s->cam = was;
    SDL_Rect a = map_area(s);
    vec2_t centre = ui_cam_to_world(&s->cam, (vec2_t){a.x + a.w / 2.0, a.y + a.h / 2.0});
    s->view_w = view_w > 0 ? view_w : 1;
    s->view_h = view_h > 0 ? view_h : 1;
    s->px_per_pt = px_per_pt > 0 ? px_per_pt : 1.0;
    if (s->hud) {
        /* The panels follow the window, so the map area between them does. */
        hud_layout_panels(&s->hud->lay, s->view_w, s->view_h, s->px_per_pt,
                          s->hud->want_tracker, s->hud->want_side);
        s->area = s->hud->lay.map;
    }
    if (fitted) {
        ui_state_fit(s);
        return;
    }
    /* Otherwise the same spot stays in the middle of the map area, pulled
     * back if that would leave the map wholly outside it. */
    a = map_area(s);
    s->cam.x = centre.x - (a.x + a.w / 2.0) / s->cam.zoom;
    s->cam.y = centre.y - (a.y + a.h / 2.0) / s->cam.zoom;
    vec2_t lo = ui_cam_to_world(&s->cam, (vec2_t){a.x, a.y});
    vec2_t hi = ui_cam_to_world(&s->cam, (vec2_t){a.x + a.w, a.y + a.h});
    const ui_rect_t *b = &s->bounds;
    double keep = 1.0; /* world units of map that stay in view at least (a hex radius) */
    if (lo.x > b->x1 - keep) s->cam.x -= lo.x - (b->x1 - keep);
    if (hi.x < b->x0 + keep) s->cam.x += (b->x0 + keep) - hi.x;
    if (lo.y > b->y1 - keep) s->cam.y -= lo.y - (b->y1 - keep);
    if (hi.y < b->y0 + keep) s->cam.y += (b->y0 + keep) - hi.y;
    s->dirty = true;
}

void ui_state_clamp(ui_state_t *s)
{
    SDL_Rect a = map_area(s);
    ui_cam_clamp(&s->cam, s->bounds, a.x, a.y, a.w, a.h, UI_ZOOM_FLOOR);
}

/* Re-pick the hovered cell after the cursor or the camera moved; true if it changed. */
static bool update_hover(ui_state_t *s)
{
    cell_t old = s->hover;
    bool old_on = s->hover_on_map;
    if (s->mouse_in) {
        vec2_t w = ui_cam_to_world(&s->cam, (vec2_t){s->mouse_x, s->mouse_y});
        s->hover_on_map = ui_pick_cell(s->map, w, &s->hover);
    } else {
        s->hover_on_map = false;
    }
    return old_on != s->hover_on_map || old.col != s->hover.col || old.row != s->hover.row;
}

void ui_close_asked(ui_state_t *s)
{
    /* A battle with moves since its last save asks first. */
    if (s->hud && pui_unsaved(s->hud->p)) {
        s->ask_quit = true;
        s->dirty = true;
        return;
    }
    s->quit = true;
}

static bool key_down(ui_state_t *s, SDL_Keycode k)
{
    double step = UI_PAN_STEP * s->px_per_pt;
    vec2_t mid = {s->view_w / 2.0, s->view_h / 2.0};
    switch (k) {
    case SDLK_q:
        ui_close_asked(s);
        return s->ask_quit;
    case SDLK_ESCAPE:
        s->quit = true;
        return false;
    case SDLK_F11:
        s->toggle_fullscreen = true;
        return false;
    case SDLK_LEFT:
    case SDLK_a:
        ui_cam_pan(&s->cam, -step, 0);
        break;
    case SDLK_RIGHT:
    case SDLK_d:
        ui_cam_pan(&s->cam, step, 0);
        break;
    case SDLK_UP:
    case SDLK_w:
        ui_cam_pan(&s->cam, 0, -step);
        break;
    case SDLK_DOWN:
    case SDLK_s:
        ui_cam_pan(&s->cam, 0, step);
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        ui_cam_zoom_at(&s->cam, mid, UI_ZOOM_STEP);
        break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        ui_cam_zoom_at(&s->cam, mid, 1.0 / UI_ZOOM_STEP);
        break;
    case SDLK_f:
    case SDLK_HOME:
        ui_state_fit(s);
        break;
    case SDLK_F5: /* F5..F10: reach, threat, flanking, range, sight, area (overlay_kind_t order) */
    case SDLK_F6:
    case SDLK_F7:
    case SDLK_F8:
    case SDLK_F9:
    case SDLK_F10:
        s->overlay_on ^= 1u << (k - SDLK_F5);
        break;
    default:
        return false;
    }
    ui_state_clamp(s);
    update_hover(s);
    return true;
}

ui_quit_t ui_quit_choice(SDL_Keycode k)
{
    switch (k) {
    case SDLK_s:
        return UI_QUIT_SAVE;
    case SDLK_d:
        return UI_QUIT_DISCARD;
    case SDLK_ESCAPE:
        return UI_QUIT_STAY;
    default:
        return UI_QUIT_NONE;
    }
}

/* The quit question takes every key while it shows (ui_quit_choice). */
static bool quit_question_event(ui_state_t *s, const SDL_Event *e)
{
    if (e->type != SDL_KEYDOWN) return e->type != SDL_QUIT && e->type != SDL_WINDOWEVENT;
    pui_t *p = s->hud ? s->hud->p : NULL;
    switch (ui_quit_choice(e->key.keysym.sym)) {
    case UI_QUIT_SAVE:
        if (p) pui_save(p);
        if (!p || !pui_unsaved(p)) s->quit = true;
        s->ask_quit = false;
        break;
    case UI_QUIT_DISCARD:
        s->quit = true;
        s->ask_quit = false;
        break;
    case UI_QUIT_STAY:
        s->ask_quit = false;
        if (p) snprintf(p->msg, sizeof p->msg, "Back to the battle.");
        break;
    default:
        break;
    }
    s->dirty = true;
    return true;
}

bool ui_handle_event(ui_state_t *s, const SDL_Event *e)
{
    bool redraw = false;
    if (s->ask_quit && quit_question_event(s, e)) return true;
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_F11) {
        s->toggle_fullscreen = true;
        return true;
    }
    /* The play screen sees input first: its keys and panel clicks win. */
    if (s->hud && hud_pre_event(s->hud, s, e)) {
        s->dirty = true;
        return true;
    }
    switch (e->type) {
    case SDL_QUIT:
        ui_close_asked(s);
        redraw = true;
        break;
    case SDL_KEYDOWN:
        redraw = key_down(s, e->key.keysym.sym);
        break;
    case SDL_MOUSEMOTION: {
        double x = e->motion.x * s->px_per_pt, y = e->motion.y * s->px_per_pt;
        if (s->drag_button) {
            ui_cam_pan(&s->cam, s->mouse_x - x, s->mouse_y - y);
            ui_state_clamp(s);
            redraw = true;
        }
        s->mouse_x = x;
        s->mouse_y = y;
        s->mouse_in = true;
        redraw |= update_hover(s);
        break;
    }
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_RIGHT || e->button.button == SDL_BUTTON_MIDDLE) {
            s->drag_button = e->button.button;
            s->mouse_x = e->button.x * s->px_per_pt;
            s->mouse_y = e->button.y * s->px_per_pt;
        }
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == s->drag_button) s->drag_button = 0;
        break;
    case SDL_MOUSEWHEEL: {
        double notches = e->wheel.preciseY != 0.0f ? e->wheel.preciseY : e->wheel.y;
        if (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED) notches = -notches;
        if (notches == 0.0) break;
#if SDL_VERSION_ATLEAST(2, 26, 0)
        /* The event's own cursor position is exact even if no motion came first. */
        s->mouse_x = e->wheel.mouseX * s->px_per_pt;
        s->mouse_y = e->wheel.mouseY * s->px_per_pt;
        s->mouse_in = true;
#endif
        ui_cam_zoom_at(&s->cam, (vec2_t){s->mouse_x, s->mouse_y}, pow(UI_WHEEL_STEP, notches));
        ui_state_clamp(s);
        update_hover(s);
        redraw = true;
        break;
    }
    case SDL_WINDOWEVENT:
        switch (e->window.event) {
        case SDL_WINDOWEVENT_SIZE_CHANGED:
            s->resized = true;
            redraw = true;
            break;
        case SDL_WINDOWEVENT_LEAVE:
            s->mouse_in = false;
            s->drag_button = 0;
            redraw = update_hover(s);
            break;
        case SDL_WINDOWEVENT_EXPOSED:
            redraw = true;
            break;
        default:
            break;
        }
        break;
    default:
        break;
    }
    if (s->hud) redraw |= hud_post_event(s->hud, s, e);
    s->dirty |= redraw;
    return redraw;
}

void ui_status_text(const ui_state_t *s, char *buf, size_t cap)
{
    const map_t *m = s->map;
    if (!s->mouse_in) {
        snprintf(buf, cap,
                 "wheel or +/-: zoom   right/middle drag or arrows/WASD: pan   F: fit"
                 "   Q: quit");
        return;
    }
    if (!s->hover_on_map) {
        snprintf(buf, cap, "(%d, %d)  off the map", s->hover.col, s->hover.row);
        return;
    }
    const terrain_t *t = map_terrain_at(m, s->hover);
    char move[48];
    if (t->move <= 0)
        snprintf(move, sizeof move, "impassable");
    else
        snprintf(move, sizeof move, "move %d ft%s", t->move * m->feet_per_hex,
                 t->move > 1 ? " (difficult)" : "");
    int n = snprintf(buf, cap, "(%d, %d)  %s  |  cover: %s  |  %s", s->hover.col, s->hover.row,
                     t->name, map_cover_name(t->cover), move);
    for (int i = 0; i < m->n_combatants && n >= 0 && (size_t)n < cap; i++) {
        const map_combatant_t *c = &m->combatants[i];
        if (c->at.col == s->hover.col && c->at.row == s->hover.row) {
            snprintf(buf + n, cap - (size_t)n, "  |  %s (%s)  HP %d/%d",
                     c->name[0] ? c->name : c->id, c->faction, c->hp, c->hp_max);
            break;
        }
    }
}

/* The toggled overlays for the selected combatant (else the hovered one),
 * drawn over the map; the hovered hex aims the preview, flanking and sight. */
static void window_overlays(ui_draw_t *d, const ui_state_t *s)
{
    const battle_t *bt = s->hud ? pui_battle(s->hud->p) : NULL;
    const board_t *b = bt ? bt->board : NULL;
    int who = s->hud ? s->hud->p->sel : -1;
    if (who < 0 && s->hover_on_map) {
        const map_t *m = s->map;
        for (int i = 0; i < m->n_combatants && who < 0; i++)
            if (b ? hex_eq(b->pos[i], hex_from_cell(m->layout, s->hover)) && b->present[i]
                  : m->combatants[i].at.col == s->hover.col && m->combatants[i].at.row == s->hover.row)
                who = i;
    }
    if (who < 0) {
        ui_overlay_clear(s->overlay); /* no legend left over from before */
        return;
    }
    ui_overlay_legend_at(s->overlay, s->area.w ? s->area.x : 0, s->area.w ? s->area.y : 0);
    ui_overlay_window(s->overlay, bt, s->overlay_on, who, s->hover_on_map, s->hover);
    /* The play screen draws the legend in its side panel, off the map. */
    ui_overlay_draw(s->overlay, ui_draw_renderer(d), ui_draw_text(d), &s->cam, s->view_w,
                    s->view_h, !s->hud, false);
}

void ui_window_draw(ui_draw_t *d, const ui_state_t *s)
{
    ui_frame_opts_t opts = {.hover = s->hover_on_map,
                            .hover_cell = s->hover,
                            .poses = s->hud ? hud_poses(s->hud) : NULL,
                            .log = s->hud ? &pui_battle(s->hud->p)->log : NULL,
                            .tokens_later = true};
    const map_t *m = s->hud ? pui_battle(s->hud->p)->map : s->map;
    ui_draw_map(d, m, &s->cam, s->view_w, s->view_h, &opts);
    /* Overlays lie on the ground, under the tokens: a line or a shading
     * never hides who stands there. */
    if (s->overlay && s->overlay_on)
        window_overlays(d, s);
    else if (s->overlay)
        ui_overlay_clear(s->overlay);
    if (s->hud) hud_draw_ground(s->hud, d, s);
    ui_draw_tokens(d, m, &s->cam, s->view_w, s->view_h, &opts);
    if (s->overlay && s->overlay_on) {
        /* The badges go beside their hexes, clear of every token and name. */
        SDL_Rect avoid[2 * MAP_MAX_COMBATANTS];
        int n = ui_draw_taken_boxes(d, avoid, 2 * MAP_MAX_COMBATANTS);
        ui_overlay_draw_badges(s->overlay, ui_draw_renderer(d), ui_draw_text(d), &s->cam, avoid,
                               n);
    }
    if (s->hud) {
        /* The play screen's panels replace the viewer's status strip. */
        hud_draw(s->hud, d, s);
        if (s->ask_quit)
            ui_draw_quit_question(d, s->view_w, s->view_h, s->px_per_pt,
                                  "There are moves since the last save. Quit?",
                                  UI_QUIT_KEYS);
        return;
    }

    char status[512];
    ui_status_text(s, status, sizeof status);
    int px = ui_text_quantize((int)lround(14 * s->px_per_pt));
    int bar = (int)lround(px * 1.9);
    SDL_Renderer *r = ui_draw_renderer(d);
    SDL_Rect strip = {0, s->view_h - bar, s->view_w, bar};
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, 14, 16, 20, 215);
    SDL_RenderFillRect(r, &strip);
    SDL_Color ink = {235, 235, 228, 255};
    int tw = 0, th = 0;
    if (ui_text_get(ui_draw_text(d), status, px, false, ink, &tw, &th))
        ui_text_draw(ui_draw_text(d), status, px, false, ink, px, strip.y + (bar - th) / 2);
}

void ui_draw_quit_question(ui_draw_t *d, int w, int h, double px_per_pt, const char *title,
                           const char *keys)
{
    SDL_Renderer *r = ui_draw_renderer(d);
    ui_text_t *t = ui_draw_text(d);
    int big = ui_text_quantize((int)lround(18 * px_per_pt));
    int px = ui_text_quantize((int)lround(14 * px_per_pt));
    SDL_Color ink = {240, 240, 232, 255}, dim = {190, 195, 205, 255};
    int tw = 0, th = 0, kw = 0, kh = 0;
    ui_text_get(t, title, big, true, ink, &tw, &th);
    ui_text_get(t, keys, px, false, dim, &kw, &kh);
    int bw = (tw > kw ? tw : kw) + 4 * px, bh = th + kh + 3 * px;
    if (bw > w) bw = w;
    SDL_Rect box = {(w - bw) / 2, (h - bh) / 2, bw, bh};
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, 0, 0, 0, 130);
    SDL_RenderFillRect(r, &(SDL_Rect){0, 0, w, h});
    SDL_SetRenderDrawColor(r, 28, 32, 42, 250);
    SDL_RenderFillRect(r, &box);
    SDL_SetRenderDrawColor(r, 235, 190, 90, 255);
    SDL_RenderDrawRect(r, &box);
    ui_text_draw(t, title, big, true, ink, box.x + 2 * px, box.y + px);
    ui_text_draw(t, keys, px, false, dim, box.x + 2 * px, box.y + px + th + px);
}

bool ui_toggle_fullscreen(SDL_Window *w)
{
    if (!w) return false;
    bool on = (SDL_GetWindowFlags(w) & SDL_WINDOW_FULLSCREEN) != 0;
    if (SDL_SetWindowFullscreen(w, on ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP) != 0) return on;
    return !on;
}

void ui_fit_window_size(SDL_Rect usable, int want_w, int want_h, int *w, int *h)
{
    *w = want_w;
    *h = want_h;
    if (usable.w > 0 && *w > usable.w * 9 / 10) *w = usable.w * 9 / 10;
    if (usable.h > 0 && *h > usable.h * 9 / 10) *h = usable.h * 9 / 10;
    if (*w < 320) *w = 320;
    if (*h < 240) *h = 240;
}

void ui_window_size_for(int display, int want_w, int want_h, int *w, int *h)
{
    SDL_Rect usable = {0, 0, 0, 0};
    if (SDL_GetDisplayUsableBounds(display < 0 ? 0 : display, &usable) != 0)
        usable = (SDL_Rect){0, 0, 0, 0};
    ui_fit_window_size(usable, want_w, want_h, w, h);
}

bool ui_video_open(char *err, size_t errcap)
{
    /* A display server that is slow to let go of a connection can refuse
     * the next one at once (SDL's x11 driver connects twice in a row; Xvfb
     * on a busy machine drops a few such connections): try again briefly. */
    int tries = 0;
    while (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0 && ++tries < 4)
        SDL_Delay(50);
    if (tries == 4) {
        snprintf(err, errcap, "cannot start SDL video: %s", SDL_GetError());
        return false;
    }
    if (TTF_Init() != 0) {
        snprintf(err, errcap, "cannot start SDL_ttf: %s", TTF_GetError());
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        if (SDL_WasInit(SDL_INIT_EVERYTHING) == 0) SDL_Quit();
        return false;
    }
    return true;
}

void ui_video_close(void)
{
    if (TTF_WasInit()) TTF_Quit();
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    if (SDL_WasInit(SDL_INIT_EVERYTHING) == 0) SDL_Quit();
}

void ui_bundled_maps_dir(char *out, size_t cap)
{
    snprintf(out, cap, "%s/../maps", hb_data_dir());
}
