/* window.c - the play window: state, event handling and the idle-friendly
 * event loop (see window.h and ui.h). */
#include "window.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <SDL_ttf.h>

#include "../io/recent.h"
#include "editor.h"
#include "hud.h"
#include "menu.h"
#include "projector.h"
#include "overlay.h"
#include "stop.h"
#include "ui.h"
#include "../io/recover.h"

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
        hud_layout(&s->hud->lay, s->view_w, s->view_h, s->px_per_pt);
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

static bool key_down(ui_state_t *s, SDL_Keycode k)
{
    double step = UI_PAN_STEP * s->px_per_pt;
    vec2_t mid = {s->view_w / 2.0, s->view_h / 2.0};
    switch (k) {
    case SDLK_q:
        /* A battle with moves since its last save asks first. */
        if (s->hud && pui_unsaved(s->hud->p)) {
            s->ask_quit = true;
            s->dirty = true;
            return true;
        }
        s->quit = true;
        return false;
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
    update_hover(s);
    return true;
}

/* The quit question takes every key while it shows: S saves and quits, Y or
 * Q quits, N or Esc goes back to the battle. */
static bool quit_question_event(ui_state_t *s, const SDL_Event *e)
{
    if (e->type != SDL_KEYDOWN) return e->type != SDL_QUIT && e->type != SDL_WINDOWEVENT;
    pui_t *p = s->hud ? s->hud->p : NULL;
    switch (e->key.keysym.sym) {
    case SDLK_s:
        if (p) pui_save(p);
        if (!p || !pui_unsaved(p)) s->quit = true;
        s->ask_quit = false;
        break;
    case SDLK_y:
    case SDLK_q:
        s->quit = true;
        s->ask_quit = false;
        break;
    case SDLK_n:
    case SDLK_ESCAPE:
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
        s->quit = true;
        break;
    case SDL_KEYDOWN:
        redraw = key_down(s, e->key.keysym.sym);
        break;
    case SDL_MOUSEMOTION: {
        double x = e->motion.x * s->px_per_pt, y = e->motion.y * s->px_per_pt;
        if (s->drag_button) {
            ui_cam_pan(&s->cam, s->mouse_x - x, s->mouse_y - y);
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
    const board_t *b = s->hud ? pui_battle(s->hud->p)->board : NULL;
    int who = s->hud ? s->hud->p->sel : -1;
    if (who < 0 && s->hover_on_map) {
        const map_t *m = s->map;
        for (int i = 0; i < m->n_combatants && who < 0; i++)
            if (b ? hex_eq(b->pos[i], hex_from_cell(m->layout, s->hover)) && b->present[i]
                  : m->combatants[i].at.col == s->hover.col && m->combatants[i].at.row == s->hover.row)
                who = i;
    }
    if (who < 0) return;
    ui_overlay_legend_at(s->overlay, s->area.w ? s->area.x : 0, s->area.w ? s->area.y : 0);
    ui_overlay_use_profiles(s->overlay, s->hud ? pui_battle(s->hud->p)->prof : NULL);
    ui_overlay_window(s->overlay, b, s->overlay_on, who, s->hover_on_map, s->hover);
    ui_overlay_draw(s->overlay, ui_draw_renderer(d), ui_draw_text(d), &s->cam, s->view_w,
                    s->view_h, true);
}

void ui_window_draw(ui_draw_t *d, const ui_state_t *s)
{
    ui_frame_opts_t opts = {.hover = s->hover_on_map,
                            .hover_cell = s->hover,
                            .poses = s->hud ? hud_poses(s->hud) : NULL};
    ui_draw_map(d, s->hud ? pui_battle(s->hud->p)->map : s->map, &s->cam, s->view_w, s->view_h,
                &opts);
    if (s->overlay && s->overlay_on) window_overlays(d, s);
    if (s->hud) {
        /* The play screen's panels replace the viewer's status strip. */
        hud_draw(s->hud, d, s);
        if (s->ask_quit)
            ui_draw_quit_question(d, s->view_w, s->view_h, s->px_per_pt,
                                  "There are moves since the last save. Quit?",
                                  "S: save and quit    Y: quit without saving    N or Esc: keep "
                                  "playing");
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

/* Window points -> drawable pixels, for high-DPI displays. */
static double dpi_ratio(SDL_Window *win, SDL_Renderer *r, int *dw, int *dh)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(win, &ww, &wh);
    if (SDL_GetRendererOutputSize(r, dw, dh) != 0) {
        *dw = ww;
        *dh = wh;
    }
    return ww > 0 ? (double)*dw / ww : 1.0;
}

/* What the referee chose to open from the picker, for the caller to run
 * once the window has closed. */
typedef struct {
    save_t *save;     /* a saved battle, or */
    map_t *map;       /* a map with its data, or */
    tmpl_db_t *db;
    bool new_map;     /* a blank map in the editor */
    char path[SAVE_PATH_MAX];
} next_t;

static void next_free(next_t *n)
{
    save_free(n->save);
    tmpl_db_destroy(n->db);
    map_destroy(n->map);
    memset(n, 0, sizeof *n);
}

/* Open the picker: in a play-test (allow_maps false) only the saves. */
static void open_menu(smenu_t *menu, const pui_t *play, bool allow_maps)
{
    if (!allow_maps) {
        smenu_scan(menu, play->save_path, play->autosave_dir, play->map_path);
        return;
    }
    recent_t recent;
    char file[RECENT_PATH_MAX], maps[SAVE_PATH_MAX];
    if (recent_file(file, sizeof file))
        recent_load(file, &recent);
    else
        memset(&recent, 0, sizeof recent);
    ui_bundled_maps_dir(maps, sizeof maps);
    smenu_scan_picker(menu, &recent, play->save_path, play->autosave_dir, play->map_path, maps);
}

/* Load what entry e names into *next; false (the status line says why) when it will not. */
static bool load_pick(const smenu_entry_t *e, pui_t *play, next_t *next)
{
    char msg[sizeof play->msg];
    int rc = HB_OK;
    if (e->kind == SMENU_SAVE)
        rc = smenu_try_load(e->path, &next->save, msg, sizeof msg);
    else if (e->kind == SMENU_MAP)
        rc = smenu_try_load_map(e->path, &next->map, &next->db, msg, sizeof msg);
    else
        next->new_map = true;
    if (rc != HB_OK) {
        snprintf(play->msg, sizeof play->msg, "%s", msg);
        next_free(next);
        return false;
    }
    hb_strlcpy(next->path, e->path, sizeof next->path);
    return true;
}

/* Ctrl+O opens the picker; while it is open it takes the input. A pick that
 * loads (a save is rebuilt, a map checked) is handed out through *next after
 * the battle on screen has been autosaved, and the window closes so the
 * caller reopens it with the choice; anything that fails leaves the battle on
 * screen as it was. */
static bool menu_event(ui_state_t *st, smenu_t *menu, pui_t *play, const SDL_Event *e,
                       bool allow_maps, next_t *next)
{
    if (!menu->open) {
        if (e->type != SDL_KEYDOWN || e->key.keysym.sym != SDLK_o ||
            !(e->key.keysym.mod & KMOD_CTRL))
            return false;
        if (play->replay)
            snprintf(play->msg, sizeof play->msg, "A replay cannot open another battle.");
        else
            open_menu(menu, play, allow_maps);
        st->dirty = true;
        return true;
    }
    int got = SMENU_NONE;
    bool offer = menu->recovery;
    switch (e->type) {
    case SDL_KEYDOWN:
        got = smenu_key(menu, e->key.keysym.sym);
        break;
    case SDL_MOUSEBUTTONDOWN:
        got = smenu_click(menu, (int)lround(e->button.x * st->px_per_pt),
                          (int)lround(e->button.y * st->px_per_pt));
        break;
    case SDL_QUIT:
    case SDL_WINDOWEVENT:
        return false; /* the window still closes, resizes and repaints */
    default:
        return true; /* the map under the menu takes no input */
    }
    st->dirty = true;
    if (got == SMENU_CLOSE && offer)
        snprintf(play->msg, sizeof play->msg,
                 "A new battle. The interrupted one is kept: Ctrl+O lists it.");
    if (got < 0) return true;
    menu->open = false;
    if (!load_pick(&menu->e[got], play, next)) return true;
    if (offer && next->save) {
        /* The copy becomes the newest autosave; Ctrl+S goes on saving to
         * the battle's own file. */
        char err[HB_ERR_MAX];
        if (recover_adopt(next->path, next->save->file, sizeof next->save->file, err,
                          sizeof err) != HB_OK) {
            snprintf(play->msg, sizeof play->msg, "Not restored: %.180s", err);
            next_free(next);
            return true;
        }
        hb_strlcpy(next->path, play->save_path, sizeof next->path);
        st->quit = true;
        return true;
    }
    if (play->autosave_dir[0]) {
        save_table_t t = {.has_rng = true, .rng = play->rng, .phys_sides = play->phys_sides};
        char err[HB_ERR_MAX];
        if (save_autosave(play->autosave_dir, &play->play, &t, play->map_path, err, sizeof err) !=
            HB_OK) {
            snprintf(play->msg, sizeof play->msg,
                     "Not opened: the battle on screen could not be autosaved first: %.120s", err);
            next_free(next);
            return true;
        }
    }
    st->quit = true;
    return true;
}

/* Give one event to the picker, then the projector (its window, F2,
 * Ctrl+keys), then the play window; notices go to the status line. */
static void route_event(ui_state_t *st, ui_projector_t *proj, pui_t *play, SDL_Window *win,
                        smenu_t *menu, const SDL_Event *e, bool allow_maps, next_t *next)
{
    int disp = SDL_GetWindowDisplayIndex(win);
    if (!st->ask_quit && menu_event(st, menu, play, e, allow_maps, next))
        ;
    else if (!st->ask_quit &&
             ui_projector_route(proj, e, SDL_GetWindowID(win), disp < 0 ? 0 : disp, &st->quit))
        st->dirty = true;
    else
        ui_handle_event(st, e);
    if (st->toggle_fullscreen) {
        st->toggle_fullscreen = false;
        ui_toggle_fullscreen(win);
        st->resized = true;
    }
    if (proj->msg[0]) {
        snprintf(play->msg, sizeof play->msg, "%s", proj->msg);
        proj->msg[0] = '\0';
        st->dirty = true;
    }
}

/* A stop signal: the battle (not a replay, which is a file already) goes to
 * its recovery copy before the window closes. */
static void keep_battle(const pui_t *play)
{
    if (play->replay) return;
    char rpath[SAVE_PATH_MAX], err[HB_ERR_MAX];
    const char *file = play->save_path[0] ? play->save_path : NULL;
    if (!recover_path(file ? file : "untitled.battle.json", rpath, sizeof rpath)) {
        fprintf(stderr, "hexbattle: stopped; no folder for a recovery copy of the battle\n");
        return;
    }
    save_table_t t = {.has_rng = true, .rng = play->rng, .phys_sides = play->phys_sides};
    if (recover_write_battle(rpath, file, &play->play, &t, play->map_path, err, sizeof err) !=
        HB_OK)
        fprintf(stderr, "hexbattle: stopped; the battle could not be kept: %s\n", err);
    else
        fprintf(stderr, "hexbattle: stopped; the battle is kept in %s\n", rpath);
}

/* Remember a map or save the referee opened, for the picker; a failure
 * only costs the list an entry. */
static void remember(const char *path)
{
    char file[RECENT_PATH_MAX], err[HB_ERR_MAX];
    if (path && *path && recent_file(file, sizeof file)) recent_add(file, path, err, sizeof err);
}

/* The play window, with the projector opened at once when *PROJECT is set.
 * When the referee opens something from the picker, *next gets it (the
 * caller's to run and free) and *project whether the projector was open, so
 * the caller can reopen the window with it. allow_maps: the picker offers
 * maps and "New map" (not in an editor's play-test). */
static int run_window(const map_t *m, const tmpl_db_t *db, const char *map_path, bool *project,
                      const save_t *save, const char *save_path, bool replay, bool allow_maps,
                      next_t *next, char *err, size_t errcap)
{
    if (!ui_video_open(err, errcap)) return 1;
    int rc = 1;
    SDL_Window *win = NULL;
    SDL_Renderer *ren = NULL;
    ui_draw_t *d = NULL;
    pui_t *play = NULL;
    ui_overlay_t *overlay = NULL;
    hud_t hud;
    memset(&hud, 0, sizeof hud);
    ui_projector_t proj;
    ui_projector_init(&proj, m);
    smenu_t menu;
    memset(&menu, 0, sizeof menu);
    char title[MAP_NAME_MAX + 32];
    snprintf(title, sizeof title, "hexbattle - %s", m->name[0] ? m->name : "untitled");

    int w, h;
    ui_window_size_for(0, 1280, 800, &w, &h);
    win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                           SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!win) {
        snprintf(err, errcap, "cannot open a window: %s", SDL_GetError());
        goto done;
    }
    SDL_SetWindowMinimumSize(win, 320, 240);
    ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!ren) ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
    if (!ren) {
        snprintf(err, errcap, "cannot create a renderer: %s", SDL_GetError());
        goto done;
    }
    d = ui_draw_create(ren, m, err, errcap);
    if (!d) goto done;

    int dw, dh;
    double ratio = dpi_ratio(win, ren, &dw, &dh);
    ui_state_t st;
    ui_state_init(&st, m, dw, dh);
    st.px_per_pt = ratio;

    /* The battle: a fixed seed from HEXBATTLE_SEED replays a session exactly. */
    const char *seed_env = getenv("HEXBATTLE_SEED");
    uint64_t seed = seed_env && *seed_env ? strtoull(seed_env, NULL, 10) : (uint64_t)time(NULL);
    play = malloc(sizeof *play);
    if (!play || (save ? pui_start_save(play, save, replay) : pui_start(play, m, db, seed)) !=
                     BATTLE_OK) {
        snprintf(err, errcap, "%s", play ? play->msg : "out of memory");
        if (play) pui_free(play);
        goto done;
    }
    /* Ctrl+S writes the save being resumed, else NAME.battle.json beside the
     * map; every turn start rotates an autosave (docs/saves.md). */
    if (save) {
        hb_strlcpy(play->save_path, save_path, sizeof play->save_path);
    } else if (map_path) {
        hb_strlcpy(play->map_path, map_path, sizeof play->map_path);
        size_t n = strlen(map_path);
        if (n > 5 && strcmp(map_path + n - 5, ".json") == 0) n -= 5;
        int k = snprintf(play->save_path, sizeof play->save_path, "%.*s.battle.json", (int)n,
                         map_path);
        if (k < 0 || (size_t)k >= sizeof play->save_path) play->save_path[0] = '\0';
    }
    if (!save_autosave_dir(play->autosave_dir, sizeof play->autosave_dir))
        play->autosave_dir[0] = '\0';
    if (allow_maps && !replay) remember(save ? save_path : map_path);
    if (!hud_init(&hud, play)) {
        snprintf(err, errcap, "out of memory");
        goto done;
    }
    st.hud = &hud;
    overlay = ui_overlay_create(pui_battle(play)->map);
    if (overlay) ui_overlay_use_db(overlay, db);
    st.overlay = overlay; /* none on OOM: the window still plays */
    hud_layout(&hud.lay, dw, dh, ratio);
    st.area = hud.lay.map;
    ui_state_fit(&st);

    if (*project) {
        int disp = SDL_GetWindowDisplayIndex(win);
        if (!ui_projector_open(&proj, -1, disp < 0 ? 0 : disp, err, errcap)) goto done;
        snprintf(play->msg, sizeof play->msg, "%.140s F2 closes it; Ctrl+R/L/K steer it.",
                 proj.msg);
        proj.msg[0] = '\0';
    }
    /* A battle stopped by a signal is offered back at the start of play. */
    char rpath[SAVE_PATH_MAX];
    if (!save && !replay && play->save_path[0] &&
        recover_path(play->save_path, rpath, sizeof rpath) &&
        recover_belongs(rpath, play->save_path))
        smenu_offer(&menu, rpath);
    Uint64 last = SDL_GetTicks64();
    bool animating = true;
    /* HEXBATTLE_QUIT_AFTER_MS=N closes the window N ms after it opened, for
     * scripted runs that look at the windows from outside (tests/cli). */
    const char *quit_env = getenv("HEXBATTLE_QUIT_AFTER_MS");
    long quit_ms = quit_env && *quit_env ? strtol(quit_env, NULL, 10) : 0;
    Uint64 quit_at = quit_ms > 0 ? last + (Uint64)quit_ms : 0;
    while (!st.quit) {
        if (quit_at && SDL_GetTicks64() >= quit_at) break;
        if (ui_stop_signal()) {
            keep_battle(play);
            break;
        }
        if (st.resized) {
            ratio = dpi_ratio(win, ren, &dw, &dh);
            ui_state_resize(&st, dw, dh, ratio); /* lays the panels out again too */
            st.resized = false;
        }
        Uint64 now = SDL_GetTicks64();
        double dt = (now - last) / 1000.0;
        last = now;
        bool was_animating = animating;
        animating = pui_tick(play, dt > 0.1 ? 0.1 : dt);
        pui_autosave(play); /* at each turn start; a failure shows on the status line */
        /* The frame after the last moving one shows the settled marks. */
        st.dirty |= was_animating && !animating;
        if (animating && play->follow && play->anim.focus >= 0 && play->anim.focus < play->anim.n) {
            /* Ease the view towards the combatant the story is about. */
            vec2_t want = play->anim.pose[play->anim.focus].world;
            vec2_t mid = ui_cam_to_world(&st.cam, (vec2_t){st.area.x + st.area.w / 2.0,
                                                           st.area.y + st.area.h / 2.0});
            double k = fmin(1.0, dt * 4.0);
            st.cam.x += (want.x - mid.x) * k;
            st.cam.y += (want.y - mid.y) * k;
        }
        if (st.dirty || animating) {
            ui_window_draw(d, &st);
            smenu_draw(&menu, ren, ui_draw_text(d), dw, dh, ratio);
            SDL_RenderPresent(ren);
            st.dirty = false;
        }
        ui_projector_frame(&proj, pui_battle(play), hud_poses(&hud), play->anim.fx,
                           play->anim.n_fx, play->anim.focus, animating, dt);
        /* Block until something happens, so an idle window costs no CPU; then
         * drain the queue so a burst of motion makes one frame, not many.
         * While something moves, wake for the next frame. */
        SDL_Event e;
        if (!SDL_WaitEventTimeout(&e, animating ? 15 : 250)) continue;
        route_event(&st, &proj, play, win, &menu, &e, allow_maps, next);
        while (!st.quit && SDL_PollEvent(&e))
            route_event(&st, &proj, play, win, &menu, &e, allow_maps, next);
    }
    *project = ui_projector_is_open(&proj);
    rc = 0;
done:
    ui_overlay_destroy(overlay);
    ui_projector_free(&proj);
    hud_free(&hud);
    if (play && play->started) pui_free(play);
    free(play);
    ui_draw_destroy(d);
    if (ren) SDL_DestroyRenderer(ren);
    if (win) SDL_DestroyWindow(win);
    ui_video_close();
    return rc;
}

/* Run the window, and again with each map or saved battle the referee opens
 * from its picker, until the window is closed for good ("New map" ends in
 * the editor). */
static int run_session(const map_t *m, const tmpl_db_t *db, const char *map_path, bool project,
                       const save_t *save, const char *save_path, bool replay, bool allow_maps,
                       char *err, size_t errcap)
{
    /* Video stays up between the windows of one session (a battle opened
     * from the picker, a restored one), so the display is not reconnected. */
    if (!ui_video_open(err, errcap)) return 1;
    next_t next;
    memset(&next, 0, sizeof next);
    int rc = run_window(m, db, map_path, &project, save, save_path, replay, allow_maps, &next, err,
                        errcap);
    while (rc == 0 && (next.save || next.map || next.new_map)) {
        next_t now = next;
        memset(&next, 0, sizeof next);
        if (now.new_map) {
            rc = ui_run_edit(NULL, NULL, NULL, err, errcap);
        } else if (now.map) {
            rc = run_window(now.map, now.db, now.path, &project, NULL, NULL, false, true, &next,
                            err, errcap);
        } else {
            const save_t *s = now.save;
            rc = run_window(s->map, s->db, s->map_file[0] ? s->map_file : NULL, &project, s,
                            now.path, false, true, &next, err, errcap);
        }
        next_free(&now);
    }
    next_free(&next); /* only set when a later window failed to open */
    ui_video_close();
    return rc;
}

int ui_run_window(map_t *m, const tmpl_db_t *db, const char *map_path, char *err, size_t errcap)
{
    return run_session(m, db, map_path, false, NULL, NULL, false, true, err, errcap);
}

int ui_run_playtest(map_t *m, const tmpl_db_t *db, const char *map_path, char *err, size_t errcap)
{
    return run_session(m, db, map_path, false, NULL, NULL, false, false, err, errcap);
}

int ui_run_project(map_t *m, const tmpl_db_t *db, const char *map_path, char *err, size_t errcap)
{
    return run_session(m, db, map_path, true, NULL, NULL, false, true, err, errcap);
}

int ui_run_saved(const save_t *s, const char *save_path, bool replay, char *err, size_t errcap)
{
    return run_session(s->map, s->db, s->map_file[0] ? s->map_file : NULL, false, s, save_path,
                       replay, true, err, errcap);
}
