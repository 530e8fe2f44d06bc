/* projector.c - the table projection window (see projector.h). */
#include "projector.h"
#include "window.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/say.h"
#include "../core/scale.h"
#include "hud.h"
#include "lod.h"
#include "telegraph.h"
#include "text.h"

#define PAN_STEP 80.0 /* one Ctrl+arrow, in projected pixels */
#define ZOOM_STEP 1.25
#define HEX_MM_STEP 0.5 /* one Ctrl+PageUp/PageDown */
#define HEX_MM_MIN 5.0
#define HEX_MM_MAX 200.0
#define FALLBACK_DPI 96.0 /* what desktops assume when a display says nothing */
#define PI 3.14159265358979323846

void ui_projector_init(ui_projector_t *p, const map_t *m)
{
    memset(p, 0, sizeof *p);
    p->map = m;
    p->display = -1;
    config_init(&p->cfg);
    p->set.hex_mm = SCALE_DEFAULT_HEX_MM;
}

int ui_projector_pick_display(int n_displays, int referee_display)
{
    if (n_displays <= 1) return 0;
    for (int i = 0; i < n_displays; i++)
        if (i != referee_display) return i;
    return 0;
}

double ui_projector_dpi(const ui_projector_t *p)
{
    if (p->set.dpi > 0.0) return p->set.dpi;
    if (p->reported_dpi > 0.0) return p->reported_dpi;
    return FALLBACK_DPI;
}

double ui_projector_true_zoom(const ui_projector_t *p)
{
    return scale_zoom(p->set.hex_mm, ui_projector_dpi(p));
}

vec2_t ui_projector_unrotate(int rotation, double dx, double dy)
{
    /* SDL turns the target clockwise (y points down); undo that turn. */
    switch (((rotation % 360) + 360) % 360) {
    case 90:
        return (vec2_t){dy, -dx};
    case 180:
        return (vec2_t){-dx, -dy};
    case 270:
        return (vec2_t){-dy, dx};
    default:
        return (vec2_t){dx, dy};
    }
}

/* Store this display's settings in the config file; a failure is a notice,
 * never a stop. */
static void save_settings(ui_projector_t *p)
{
    if (!p->have_cfg_path) {
        snprintf(p->msg, sizeof p->msg, "Projector: no config folder (HOME unset); not saved.");
        return;
    }
    display_cfg_t *d = config_get(&p->cfg, p->display_name, p->mode_w, p->mode_h);
    if (!d) {
        snprintf(p->msg, sizeof p->msg, "Projector: too many displays in the config; not saved.");
        return;
    }
    *d = p->set;
    char err[HB_ERR_MAX];
    if (config_save(p->cfg_path, &p->cfg, err, sizeof err) != HB_OK)
        snprintf(p->msg, sizeof p->msg, "Projector: %.180s", err);
}

/* The drawable size, and a target texture that fits it turned by the rotation. */
static bool fit_target(ui_projector_t *p)
{
    int w = 0, h = 0;
    if (SDL_GetRendererOutputSize(p->ren, &w, &h) != 0) SDL_GetWindowSize(p->win, &w, &h);
    if (w < 1) w = 1;
    if (h < 1) h = 1;
    bool turned = p->set.rotation == 90 || p->set.rotation == 270;
    int tw = turned ? h : w, th = turned ? w : h;
    bool changed = w != p->out_w || h != p->out_h;
    p->out_w = w;
    p->out_h = h;
    if (p->target && tw == p->tw && th == p->th) return changed;
    if (p->target) SDL_DestroyTexture(p->target);
    p->target =
        SDL_CreateTexture(p->ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, tw, th);
    p->tw = tw;
    p->th = th;
    return true;
}

/* Centre the map at the physical scale. */
static void centre_true_scale(ui_projector_t *p)
{
    ui_rect_t b = ui_map_bounds(p->map);
    double z = ui_projector_true_zoom(p);
    if (!(z > 0.0)) z = 20.0;
    p->cam.zoom = z;
    p->cam.x = (b.x0 + b.x1) / 2.0 - p->tw / (2.0 * z);
    p->cam.y = (b.y0 + b.y1) / 2.0 - p->th / (2.0 * z);
    p->dirty = true;
}

/* The world rectangle around the player factions' combatants on the board
 * (each hex whole); false when there are none. */
static bool player_bounds(const battle_t *b, ui_rect_t *out)
{
    const map_t *m = b->map;
    bool any = false;
    for (int i = 0; i < b->board->n && i < m->n_combatants; i++) {
        if (!b->board->present[i] || !map_faction_is_player(m, m->combatants[i].faction)) continue;
        vec2_t c = ui_cell_center(m, hex_to_cell(m->layout, b->board->pos[i]));
        ui_rect_t r = {c.x - 1.0, c.y - 1.0, c.x + 1.0, c.y + 1.0};
        if (!any) {
            *out = r;
            any = true;
        } else {
            out->x0 = fmin(out->x0, r.x0);
            out->y0 = fmin(out->y0, r.y0);
            out->x1 = fmax(out->x1, r.x1);
            out->y1 = fmax(out->y1, r.y1);
        }
    }
    return any;
}

/* Does world rectangle r fit the canvas at zoom z? */
static bool fits(const ui_projector_t *p, ui_rect_t r, double z)
{
    return (r.x1 - r.x0) * z <= p->tw && (r.y1 - r.y0) * z <= p->th;
}

static void centre_on(ui_projector_t *p, ui_rect_t r)
{
    p->cam.x = (r.x0 + r.x1) / 2.0 - p->tw / (2.0 * p->cam.zoom);
    p->cam.y = (r.y0 + r.y1) / 2.0 - p->th / (2.0 * p->cam.zoom);
    p->dirty = true;
}

void ui_projector_fit_map(ui_projector_t *p)
{
    if (!p->win || p->tw < 1 || p->th < 1) return;
    ui_cam_fit(&p->cam, ui_map_bounds(p->map), p->tw, p->th, fmin(p->tw, p->th) * 0.02);
    p->follow = false;
    p->dirty = true;
}

ui_proj_start_t ui_projector_start_view(ui_projector_t *p, const battle_t *b)
{
    ui_rect_t map = ui_map_bounds(p->map), players = map;
    double z = ui_projector_true_zoom(p);
    if (!(z > 0.0)) z = 20.0;
    p->cam.zoom = z;
    if (fits(p, map, z)) {
        centre_on(p, map);
        return PROJ_START_MAP;
    }
    if (b && player_bounds(b, &players) && fits(p, players, z)) {
        centre_on(p, players);
        return PROJ_START_PLAYERS;
    }
    ui_projector_fit_map(p);
    return PROJ_START_FIT;
}

/* A windowed table on the referee's display: beside the referee's window
 * (ui_projector_place), which moves over when there is no room. Sets the
 * window's position and size; false when there is no referee's window on
 * this display. */
static bool place_beside(ui_projector_t *p, int display, int *x, int *y, int *w, int *h)
{
    if (!p->beside || SDL_GetWindowDisplayIndex(p->beside) != display) return false;
    SDL_Rect u;
    if (SDL_GetDisplayUsableBounds(display, &u) != 0) return false;
    int top = 0, left = 0, bottom = 0, right = 0;
    if (SDL_GetWindowBordersSize(p->beside, &top, &left, &bottom, &right) != 0)
        top = left = bottom = right = 0;
    SDL_Rect ref;
    SDL_GetWindowPosition(p->beside, &ref.x, &ref.y);
    SDL_GetWindowSize(p->beside, &ref.w, &ref.h);
    /* Outer rectangles: the table gets a frame like the referee's. */
    int fw = left + right, fh = top + bottom;
    SDL_Rect outer = {ref.x - left, ref.y - top, ref.w + fw, ref.h + fh}, table, moved;
    ui_projector_place(u, outer, *w + fw, *h + fh, 320 + fw, 200 + fh, 8, &table, &moved);
    if (moved.x != outer.x || moved.y != outer.y || moved.w != outer.w || moved.h != outer.h) {
        SDL_SetWindowSize(p->beside, moved.w - fw, moved.h - fh);
        SDL_SetWindowPosition(p->beside, moved.x + left, moved.y + top);
    }
    *x = table.x + left;
    *y = table.y + top;
    *w = table.w - fw;
    *h = table.h - fh;
    return true;
}

bool ui_projector_open(ui_projector_t *p, int display, int referee_display, char *err,
                       size_t errcap)
{
    if (p->win) return true;
    int n = SDL_GetNumVideoDisplays();
    if (n < 1) {
        snprintf(err, errcap, "no display to project on: %s", SDL_GetError());
        return false;
    }
    if (display < 0 || display >= n) display = ui_projector_pick_display(n, referee_display);
    p->display = display;
    /* Fullscreen only on a display of its own; sharing the laptop's would
     * hide the referee's window. */
    p->fullscreen = n > 1 && display != referee_display;
    const char *name = SDL_GetDisplayName(display);
    hb_strlcpy(p->display_name, name ? name : "display", sizeof p->display_name);
    SDL_DisplayMode mode;
    SDL_Rect bounds = {0, 0, PROJ_WINDOWED_W, PROJ_WINDOWED_H};
    SDL_GetDisplayBounds(display, &bounds);
    if (SDL_GetDesktopDisplayMode(display, &mode) == 0) {
        p->mode_w = mode.w;
        p->mode_h = mode.h;
    } else {
        p->mode_w = bounds.w;
        p->mode_h = bounds.h;
    }
    float ddpi = 0, hdpi = 0, vdpi = 0;
    p->reported_dpi = SDL_GetDisplayDPI(display, &ddpi, &hdpi, &vdpi) == 0 && hdpi > 0 ? hdpi : 0.0;

    /* This display's settings from the config file; a bad file is reported once and ignored. */
    char cerr[HB_ERR_MAX];
    p->have_cfg_path = config_path(p->cfg_path, sizeof p->cfg_path) == HB_OK;
    bool cfg_bad =
        p->have_cfg_path && config_load(p->cfg_path, &p->cfg, cerr, sizeof cerr) != HB_OK;
    if (cfg_bad) hb_eprintf("hexbattle: ignoring the display settings: %s\n", cerr);
    const display_cfg_t *known = config_find(&p->cfg, p->display_name, p->mode_w, p->mode_h);
    if (known) {
        p->set = *known;
    } else {
        memset(&p->set, 0, sizeof p->set);
        hb_strlcpy(p->set.name, p->display_name, sizeof p->set.name);
        p->set.w = p->mode_w;
        p->set.h = p->mode_h;
        p->set.hex_mm = SCALE_DEFAULT_HEX_MM;
    }

    Uint32 flags = SDL_WINDOW_ALLOW_HIGHDPI |
                   (p->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : SDL_WINDOW_RESIZABLE);
    int w = p->fullscreen ? bounds.w : PROJ_WINDOWED_W,
        h = p->fullscreen ? bounds.h : PROJ_WINDOWED_H;
    /* Windowed, it keeps out of the middle, where the referee's window sits. */
    int pos = p->fullscreen ? (int)SDL_WINDOWPOS_CENTERED_DISPLAY(display)
                            : (int)SDL_WINDOWPOS_UNDEFINED_DISPLAY(display);
    int px = pos, py = pos;
    bool placed = !p->fullscreen && place_beside(p, display, &px, &py, &w, &h);
    /* The referee keeps typing on the laptop: the table window must not take
     * the keyboard when it appears (nor later: own_event gives it back). */
    SDL_Window *had_focus = SDL_GetKeyboardFocus();
    SDL_SetHint(SDL_HINT_WINDOW_NO_ACTIVATION_WHEN_SHOWN, "1");
    p->win = SDL_CreateWindow("hexbattle - table", px, py, w, h, flags);
    SDL_SetHint(SDL_HINT_WINDOW_NO_ACTIVATION_WHEN_SHOWN, NULL);
    if (p->win && placed) SDL_SetWindowPosition(p->win, px, py); /* some managers place anew */
    if (p->win && had_focus && had_focus != p->win && SDL_GetKeyboardFocus() == p->win)
        SDL_RaiseWindow(had_focus);
    if (!p->win) {
        snprintf(err, errcap, "cannot open the projector window: %s", SDL_GetError());
        return false;
    }
    p->ren = SDL_CreateRenderer(p->win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_TARGETTEXTURE);
    if (!p->ren) p->ren = SDL_CreateRenderer(p->win, -1, SDL_RENDERER_SOFTWARE);
    if (p->ren)
        p->d = ui_draw_create(p->ren, p->map, err, errcap);
    else
        snprintf(err, errcap, "cannot create the projector's renderer: %s", SDL_GetError());
    p->vis = p->d ? vision_create(p->map) : NULL;
    bool fx_room = p->vis && shape_reserve(&p->fx, PROJ_FX_VERTS);
    if (!p->d || !p->vis || !fx_room || (fit_target(p), !p->target)) {
        if (p->d && (!p->vis || !fx_room))
            snprintf(err, errcap, "out of memory");
        else if (p->d && p->vis)
            snprintf(err, errcap, "cannot make the projector's canvas: %s", SDL_GetError());
        ui_projector_close(p);
        return false;
    }
    memset(&p->keys, 0, sizeof p->keys);
    centre_true_scale(p);
    p->start_pending = true; /* the first frame, with the battle, picks the view */
    snprintf(p->msg, sizeof p->msg, "Projector on %.60s (%dx%d%s), %.1f mm hexes at %.0f dpi.%s",
             p->display_name, p->mode_w, p->mode_h, p->fullscreen ? ", fullscreen" : ", windowed",
             p->set.hex_mm, ui_projector_dpi(p),
             cfg_bad ? " Bad settings file ignored (see the terminal)." : "");
    return true;
}

void ui_projector_close(ui_projector_t *p)
{
    vision_destroy(p->vis);
    p->vis = NULL;
    ui_fog_cache_free(&p->fog);
    shape_free(&p->fx);
    ui_draw_destroy(p->d);
    p->d = NULL;
    if (p->target) SDL_DestroyTexture(p->target);
    p->target = NULL;
    if (p->ren) SDL_DestroyRenderer(p->ren);
    p->ren = NULL;
    if (p->win) SDL_DestroyWindow(p->win);
    p->win = NULL;
    p->calibrating = p->dragging = false;
    p->tw = p->th = p->out_w = p->out_h = 0;
}

void ui_projector_free(ui_projector_t *p)
{
    ui_projector_close(p);
}

bool ui_projector_update_view(vision_t *vis, ui_view_t *view, const battle_t *b,
                              ui_view_keys_t *keys, ui_fog_cache_t *cache)
{
    return side_view_update(vis, view, b, vision_player_sides(b->board), keys, cache, true);
}

void ui_projector_draw_view(ui_draw_t *d, const battle_t *b, const ui_view_t *view,
                            const ui_token_pose_t *poses, const ui_camera_t *cam, int w, int h)
{
    ui_frame_opts_t fo = {.poses = poses, .view = view, .log = &b->log};
    ui_draw_map(d, b->map, cam, w, h, &fo);
}

/* ---- attack effects ------------------------------------------------------ */

/* The referee's window's effect shapes and colours (shapes.c), so both
 * screens tell one story; bolder lines and larger text for the table. */
int ui_projector_draw_fx(ui_projector_t *p, const ui_view_t *view, const anim_fx_t *fx, int n_fx,
                         const ui_camera_t *cam)
{
    if (!p->fx.v || !p->d || !fx) return 0;
    SDL_Renderer *r = ui_draw_renderer(p->d);
    double z = cam->zoom;
    int drawn = 0;
    p->fx.n = 0;
    for (int i = 0; i < n_fx; i++) {
        const anim_fx_t *f = &fx[i];
        if (ui_view_fx(view, f) == UI_FX_HIDE) continue;
        if (shape_fx(&p->fx, f, cam, &SHAPE_FX_TABLE)) drawn++;
    }
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    shape_flush(&p->fx, r);
    /* Floating words: damage on the players' own, a plain "hit" on enemies
     * (their health stays the referee's), "miss". */
    ui_text_t *tx = ui_draw_text(p->d);
    for (int i = 0; i < n_fx; i++) {
        const anim_fx_t *f = &fx[i];
        if (f->kind != FX_NUMBER && f->kind != FX_MISS) continue;
        int how = ui_view_fx(view, f);
        if (how == UI_FX_HIDE) continue;
        char buf[32];
        if (f->kind == FX_MISS)
            snprintf(buf, sizeof buf, "miss");
        else if (f->value <= 0)
            snprintf(buf, sizeof buf, "no harm"); /* all soaked or stopped by armour */
        else if (how == UI_FX_NO_AMOUNT)
            snprintf(buf, sizeof buf, "hit");
        else
            snprintf(buf, sizeof buf, "-%d", f->value);
        double u = f->life > 0 ? f->age / f->life : 1.0;
        vec2_t a = ui_cam_to_screen(cam, f->a);
        int big = ui_text_quantize((int)fmax(20, fmin(64, z * 0.8)));
        SDL_Color col =
            f->kind == FX_NUMBER ? (SDL_Color){255, 90, 60, 255} : (SDL_Color){235, 235, 235, 255};
        int w = 0, h = 0;
        if (!ui_text_get(tx, buf, big, true, col, &w, &h)) continue;
        int ty = (int)(a.y - z * (0.6 + u * 0.9)) - big;
        /* A dark copy underneath keeps it readable on any terrain. */
        ui_text_draw(tx, buf, big, true, (SDL_Color){10, 10, 12, 255}, (int)a.x - w / 2 + 2,
                     ty + 2);
        ui_text_draw(tx, buf, big, true, col, (int)a.x - w / 2, ty);
        if (f->kind == FX_NUMBER) drawn++;
    }
    return drawn;
}

/* ---- gauges and telegraphed intentions ------------------------------------ */

int ui_projector_intents(const battle_t *b, const ui_view_t *view, intent_t *out, int cap)
{
    return side_view_intents(b, view, out, cap);
}

int ui_projector_gauges(const battle_t *b, const ui_view_t *view, int i, gauge_t *out, int cap)
{
    return side_view_gauges(b, view, i, out, cap);
}

/* Where combatant i's token is drawn, in canvas pixels. */
static vec2_t token_at(const battle_t *b, const ui_token_pose_t *poses, const ui_camera_t *cam,
                       int i)
{
    vec2_t w = poses ? poses[i].world
                     : ui_cell_center(b->map, hex_to_cell(b->map->layout, b->board->pos[i]));
    return ui_cam_to_screen(cam, w);
}

/* A filled rectangle into the batch. */
static void rect(shape_buf_t *sb, double x, double y, double w, double h, SDL_Color c)
{
    vec2_t a = {x, y}, bb = {x + w, y}, cc = {x + w, y + h}, dd = {x, y + h};
    shape_tri(sb, a, bb, cc, c);
    shape_tri(sb, a, cc, dd, c);
}

#define INTENT_INK ((SDL_Color){255, 196, 40, 255}) /* the telegraph's amber */

/* A text with a dark plate, centred on x, its top at y; returns its height. */
static int plate_text(ui_text_t *tx, SDL_Renderer *r, const char *s, int px, SDL_Color ink,
                      SDL_Color plate, double x, double y)
{
    int w = 0, h = 0;
    if (!ui_text_get(tx, s, px, true, ink, &w, &h)) return 0;
    SDL_Rect bg = {(int)lround(x - w / 2.0) - px / 3, (int)lround(y), w + 2 * (px / 3), h};
    SDL_SetRenderDrawColor(r, plate.r, plate.g, plate.b, plate.a);
    SDL_RenderFillRect(r, &bg);
    ui_text_draw(tx, s, px, true, ink, bg.x + px / 3, bg.y);
    return h;
}

/* What one gauge says on the table: its label, with the numbers only on the
 * viewing sides' own combatants (an enemy's reads as a bar alone). */
static void gauge_words(const gauge_t *g, bool own, char *buf, size_t cap)
{
    if (own)
        snprintf(buf, cap, "%.15s %d/%d", g->label, g->value, g->max);
    else
        snprintf(buf, cap, "%.15s", g->label);
}

/* The bars the table gets over combatant i: the player-safe gauges, less
 * the HP bar the map already draws under the viewing sides' own (draw.c)
 * and less any at rest (health or a pool full, a load empty), which tells
 * the players nothing their sheets do not. Returns the count. */
static int table_bars(const battle_t *b, const ui_view_t *view, int i, gauge_t *out)
{
    gauge_t g[GAUGES_MAX];
    int n = ui_projector_gauges(b, view, i, g, GAUGES_MAX), k = 0;
    bool own = side_view_shows(view, i) == UI_SHOW_ALL;
    for (int j = 0; j < n; j++) {
        if (j == 0 && own && g[0].value == b->u[i].hp && g[0].max == b->u[i].hp_max) continue;
        bool rest = g[j].kind == GAUGE_LOAD ? g[j].value <= 0 : g[j].value >= g[j].max;
        if (!rest) out[k++] = g[j];
    }
    return k;
}

/* The layout of the table's marks at zoom z. */
typedef struct {
    int gpx;      /* a gauge's text */
    double bh;    /* a gauge bar's height */
    int ipx;      /* an intention's word */
} marks_size_t;

static marks_size_t marks_size(double z)
{
    marks_size_t ms;
    ms.gpx = ui_text_quantize((int)fmax(11, fmin(24, z * 0.26)));
    ms.bh = fmax(6.0, ms.gpx * 1.1);
    ms.ipx = ui_text_quantize((int)fmax(14, fmin(40, z * 0.42)));
    return ms;
}

/* The y of the lowest bar over a token of radius rad centred at cy. */
static double bars_base(double cy, double rad, double z, const marks_size_t *ms)
{
    return cy - rad - fmax(1.5, z * 0.06) - 3 - ms->bh;
}

/* Does r cover any of boxes[0..n) but boxes[self] (w 0 entries skipped)? */
static int covers(SDL_Rect r, const SDL_Rect *boxes, int n, int self)
{
    int k = 0;
    for (int j = 0; j < n; j++)
        if (j != self && boxes[j].w > 0 && SDL_HasIntersection(&r, &boxes[j])) k++;
    return k;
}

/* Lay out the gauge stacks of the tokens drawn last (d): each goes over its
 * token, else under, right or left of it, at the first spot on the canvas
 * (w x h) that covers no other token, no name and no stack already placed;
 * with no clear spot, the one that covers the fewest (over it on a tie).
 * out[i] gets combatant i's stack (w 0: no bars). */
static void layout_bars(const ui_draw_t *d, const battle_t *b, const ui_view_t *view,
                        const ui_token_pose_t *poses, const ui_camera_t *cam, int w, int h,
                        const marks_size_t *ms, SDL_Rect *out)
{
    const map_t *m = b->map;
    double z = cam->zoom;
    int n = b->n < MAP_MAX_COMBATANTS ? b->n : MAP_MAX_COMBATANTS;
    /* Every token box and name drawn: tokens[i], names[i]. */
    SDL_Rect tokens[MAP_MAX_COMBATANTS], names[MAP_MAX_COMBATANTS];
    for (int i = 0; i < n; i++) {
        ui_token_drawn_t td;
        bool on = ui_draw_token_drawn(d, i, &td);
        tokens[i] = on ? td.token : (SDL_Rect){0, 0, 0, 0};
        names[i] = on ? td.label : (SDL_Rect){0, 0, 0, 0};
        out[i] = (SDL_Rect){0, 0, 0, 0};
    }
    const SDL_Rect canvas = {0, 0, w, h};
    for (int i = 0; i < n; i++) {
        if (!battle_active(b, i) || (poses && poses[i].alpha <= 0.5f)) continue;
        gauge_t g[GAUGES_MAX];
        int nb = table_bars(b, view, i, g);
        if (nb == 0) continue;
        vec2_t c = token_at(b, poses, cam, i);
        double rad = ui_token_radius(m->combatants[i].size) * z;
        double bw = fmax(rad * 2.2, ms->gpx * 5.0);
        int sw = (int)ceil(bw) + 4, sh = (int)ceil(nb * (ms->bh + 3) + 1);
        int gap = 3;
        /* Over the token as it always was; then under, right and left of its box. */
        SDL_Rect tok = tokens[i].w > 0 ? tokens[i]
                                       : (SDL_Rect){(int)(c.x - rad), (int)(c.y - rad),
                                                    (int)(2 * rad), (int)(2 * rad)};
        double base = bars_base(c.y, rad, z, ms);
        SDL_Rect spot[4] = {
            {(int)lround(c.x - bw / 2) - 2, (int)lround(base + ms->bh + 2) - sh, sw, sh},
            {(int)lround(c.x - bw / 2) - 2, tok.y + tok.h + gap, sw, sh},
            {tok.x + tok.w + gap, (int)lround(c.y) - sh / 2, sw, sh},
            {tok.x - gap - sw, (int)lround(c.y) - sh / 2, sw, sh},
        };
        int best = 0, best_n = -1;
        for (int k = 0; k < 4; k++) {
            SDL_Rect r = spot[k], in;
            /* Off the canvas counts as covered: the bars would not be read. */
            int cov = covers(r, tokens, n, i) + covers(r, names, n, -1) + covers(r, out, i, -1);
            if (!SDL_IntersectRect(&r, &canvas, &in) || !SDL_RectEquals(&in, &r)) cov += 1;
            if (best_n < 0 || cov < best_n) {
                best = k;
                best_n = cov;
            }
            if (cov == 0) break;
        }
        out[i] = spot[best];
    }
}

/* The y of the lowest bar of a stack laid out in r (layout_bars). */
static double stack_base(const SDL_Rect *r, const marks_size_t *ms)
{
    return r->y + r->h - 2 - ms->bh;
}

#define ATTACK_INK ((SDL_Color){255, 90, 40, 240}) /* a telegraphed attack's red */

static const char *name_of(const battle_t *b, int i)
{
    const map_combatant_t *c = &b->map->combatants[i];
    return c->name[0] ? c->name : c->id;
}

/* The banner's words for intention t. */
static void intent_line(const battle_t *b, const intent_t *t, char *buf, size_t cap)
{
    if (t->target >= 0)
        snprintf(buf, cap, "Telegraphed: %.60s will %s %.60s", name_of(b, t->who), t->label,
                 name_of(b, t->target));
    else
        snprintf(buf, cap, "Telegraphed: %.60s will %s", name_of(b, t->who), t->label);
}

/* The banner's words for a delayed action still to land (telegraph.h). */
static void delay_line(const battle_t *b, const ui_telegraph_t *t, char *buf, size_t cap)
{
    const weapon_t *wp = ui_telegraph_weapon(b, t);
    snprintf(buf, cap, "Telegraphed: %.60s: %.40s in %d", name_of(b, t->who),
             wp && wp->name[0] ? wp->name : t->name, t->left);
}

/* The delayed actions of b still to land that view lets the table see: a
 * hidden declarer's are left out (telegraph.h). Returns the count. */
static int table_delays(const battle_t *b, const ui_view_t *view, ui_telegraph_t *out)
{
    int n = ui_telegraphs(b, out, UI_TELEGRAPH_MAX), k = 0;
    for (int j = 0; j < n; j++)
        if (side_view_shows(view, out[j].who) != UI_SHOW_NONE) out[k++] = out[j];
    return k;
}

#define DELAY_HEX_CAP 128 /* most hexes of one delayed action's area drawn */

int ui_projector_draw_marks(ui_projector_t *p, const battle_t *b, const ui_view_t *view,
                            const ui_token_pose_t *poses, const ui_camera_t *cam, int w, int h)
{
    if (!p->fx.v || !p->d || !b) return 0;
    SDL_Renderer *r = ui_draw_renderer(p->d);
    ui_text_t *tx = ui_draw_text(p->d);
    const map_t *m = b->map;
    double z = cam->zoom;
    bool small = z < 3 * UI_LOD_ZOOM; /* the map seen whole: no room for bars and words */
    marks_size_t ms = marks_size(z);
    intent_t it[SIDE_INTENTS_MAX];
    int ni = ui_projector_intents(b, view, it, SIDE_INTENTS_MAX);
    ui_telegraph_t tg[UI_TELEGRAPH_MAX];
    int ntg = table_delays(b, view, tg);
    p->fx.n = 0;
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);

    /* A delayed action's hexes where it will strike, those in sight only. */
    for (int k = 0; k < ntg; k++) {
        hex_t hx[DELAY_HEX_CAP];
        int nh = ui_telegraph_hexes(b, &tg[k], hx, DELAY_HEX_CAP);
        for (int j = 0; j < nh && j < DELAY_HEX_CAP; j++) {
            cell_t cc = hex_to_cell(m->layout, hx[j]);
            if (!map_in_bounds(m, cc) || (view && view->vis && !vision_visible(view->vis, cc)))
                continue;
            vec2_t ctr = ui_cam_to_screen(cam, ui_cell_center(m, cc)), kk[6];
            for (int c = 0; c < 6; c++) {
                vec2_t o = hex_corner(m->layout.orient, 0.9 * z, c);
                kk[c] = (vec2_t){ctr.x + o.x, ctr.y + o.y};
            }
            /* A faint wash and a bold rim: the token inside stays clear. */
            for (int c = 0; c < 6; c++) {
                shape_tri(&p->fx, ctr, kk[c], kk[(c + 1) % 6], (SDL_Color){255, 170, 40, 45});
                shape_segment(&p->fx, kk[c], kk[(c + 1) % 6], fmax(2.0, z * 0.07), INTENT_INK);
            }
        }
    }

    /* Each intention: a ring on who; an amber arrow to the hex it means to
     * reach, a red one on to the combatant it means to attack. */
    double lw = fmax(3.0, z * 0.12), head = fmax(10.0, z * 0.45);
    for (int k = 0; k < ni; k++) {
        vec2_t a = token_at(b, poses, cam, it[k].who), from = a;
        double from_r = z * 1.1;
        shape_ring(&p->fx, a, z * 0.92, z * 1.1, INTENT_INK);
        if (it[k].has_at) {
            vec2_t at = ui_cam_to_screen(cam, ui_cell_center(m, it[k].at));
            shape_ring(&p->fx, at, z * 0.45, z * 0.62, INTENT_INK);
            shape_arrow(&p->fx, shape_toward(a, at, from_r), shape_toward(at, a, z * 0.62), lw,
                        head, INTENT_INK);
            from = at;
            from_r = z * 0.62;
        }
        if (it[k].target >= 0) {
            vec2_t t = token_at(b, poses, cam, it[k].target);
            shape_ring(&p->fx, t, z * 0.95, z * 1.12, ATTACK_INK);
            shape_arrow(&p->fx, shape_toward(from, t, from_r), shape_toward(t, from, z * 1.12), lw,
                        head, ATTACK_INK);
        }
    }
    /* Gauge bars in a stack by each token (layout_bars), the lowest first. */
    if (small)
        for (int i = 0; i < b->n && i < MAP_MAX_COMBATANTS; i++) p->bars[i] = (SDL_Rect){0, 0, 0, 0};
    else
        layout_bars(p->d, b, view, poses, cam, w, h, &ms, p->bars);
    for (int i = 0; i < b->n && i < MAP_MAX_COMBATANTS && !small; i++) {
        if (p->bars[i].w == 0) continue;
        gauge_t g[GAUGES_MAX];
        int n = table_bars(b, view, i, g);
        double bw = p->bars[i].w - 4, x = p->bars[i].x + 2;
        double y = stack_base(&p->bars[i], &ms);
        for (int k = 0; k < n; k++, y -= ms.bh + 3) {
            double f = g[k].max > 0 ? (double)g[k].value / g[k].max : 0.0;
            f = f < 0 ? 0 : f > 1 ? 1 : f;
            rect(&p->fx, x - 2, y - 2, bw + 4, ms.bh + 4, (SDL_Color){12, 12, 16, 235});
            if (f > 0) rect(&p->fx, x, y, bw * f, ms.bh, hud_gauge_color(&g[k]));
        }
    }
    shape_flush(&p->fx, r);

    /* The words: each bar's label on it, each intention over its bars. */
    for (int i = 0; i < b->n && i < MAP_MAX_COMBATANTS && !small; i++) {
        if (p->bars[i].w == 0) continue;
        gauge_t g[GAUGES_MAX];
        int n = table_bars(b, view, i, g);
        bool own = side_view_shows(view, i) == UI_SHOW_ALL;
        double cx = p->bars[i].x + p->bars[i].w / 2.0;
        double y = stack_base(&p->bars[i], &ms);
        for (int k = 0; k < n; k++, y -= ms.bh + 3) {
            char buf[GAUGE_LABEL_MAX + 24];
            gauge_words(&g[k], own, buf, sizeof buf);
            int tw = 0, th = 0;
            if (!ui_text_get(tx, buf, ms.gpx, true, (SDL_Color){255, 255, 255, 255}, &tw, &th))
                continue;
            int tx0 = (int)lround(cx - tw / 2.0), ty = (int)lround(y + ms.bh / 2 - th / 2.0);
            ui_text_draw(tx, buf, ms.gpx, true, (SDL_Color){0, 0, 0, 255}, tx0 + 1, ty + 1);
            ui_text_draw(tx, buf, ms.gpx, true, (SDL_Color){255, 255, 255, 255}, tx0, ty);
        }
    }
    for (int k = 0; k < ni && !small; k++) {
        int i = it[k].who;
        vec2_t c = token_at(b, poses, cam, i);
        /* Over the ring, or over the bars when they stand higher over it. */
        double top = c.y - z * 1.1;
        if (i < MAP_MAX_COMBATANTS && p->bars[i].w > 0 && p->bars[i].y < c.y)
            top = fmin(top, p->bars[i].y - 1.0); /* the top bar, less its gap */
        plate_text(tx, r, it[k].label, ms.ipx, (SDL_Color){20, 14, 0, 255}, INTENT_INK, c.x,
                   top - ms.ipx * 1.25);
    }
    /* The end of the battle, for the whole table to read. */
    if (b->over) {
        char line[160];
        if (b->winner >= 0 && b->winner < b->board->n_sides)
            snprintf(line, sizeof line, "The battle is over: %.60s win (round %d)",
                     b->board->side_name[b->winner], b->round);
        else
            snprintf(line, sizeof line, "The battle is over: nobody wins (round %d)", b->round);
        int epx = ui_text_quantize((int)fmax(24, fmin(72, h / 12.0))), tw = 0, th = 0;
        /* As large as fits across the picture. */
        for (int k = 0; k < 4 && ui_text_get(tx, line, epx, true, (SDL_Color){255, 255, 255, 255},
                                              &tw, &th) && tw > w * 0.9;
             k++)
            epx = ui_text_quantize((int)(epx * w * 0.88 / tw));
        plate_text(tx, r, line, epx, (SDL_Color){255, 255, 255, 255},
                   (SDL_Color){16, 24, 40, 235}, w / 2.0, h / 2.0 - epx);
    }
    /* The banner: one line per telegraph, in the players' words, along the
     * top, or along the bottom when that covers fewer of the tokens drawn. */
    int bpx = ui_text_quantize((int)fmax(18, fmin(44, h / 24.0)));
    int total = ni + ntg, lines = total < 4 ? total : 4;
    double band = bpx / 3.0 + lines * bpx * 1.45, y0 = 0;
    int top = 0, bottom = 0;
    for (int i = 0; i < b->n && lines > 0; i++) {
        if (!battle_active(b, i) || side_view_shows(view, i) == UI_SHOW_NONE) continue;
        double ty = token_at(b, poses, cam, i).y, rad = z;
        top += ty - rad < band;
        bottom += ty + rad > h - band;
    }
    if (bottom < top) y0 = h - band;
    for (int k = 0; k < lines; k++) {
        char line[200];
        if (k == 3 && total > 4)
            snprintf(line, sizeof line, "... and %d more telegraphed", total - 3);
        else if (k < ni)
            intent_line(b, &it[k], line, sizeof line);
        else
            delay_line(b, &tg[k - ni], line, sizeof line);
        plate_text(tx, r, line, bpx, INTENT_INK, (SDL_Color){20, 16, 8, 235}, w / 2.0,
                   y0 + bpx / 3.0 + k * (bpx * 1.45));
    }
    return total;
}

/* The calibration screen: a bar to match against a card's long side. */
static void draw_calibration(ui_projector_t *p)
{
    SDL_Renderer *r = p->ren;
    int w = p->out_w, h = p->out_h;
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, 0, 0, 0, 235);
    SDL_RenderFillRect(r, NULL);
    int len = (int)lround(p->bar_px);
    SDL_Rect bar = {w / 2 - len / 2, h / 2 - 20, len, 40};
    SDL_SetRenderDrawColor(r, 255, 255, 255, 255);
    SDL_RenderFillRect(r, &bar);
    /* End ticks, so the card's edges have something sharp to meet. */
    SDL_Rect t0 = {bar.x, bar.y - 30, 2, 100}, t1 = {bar.x + bar.w - 2, bar.y - 30, 2, 100};
    SDL_SetRenderDrawColor(r, 255, 210, 0, 255);
    SDL_RenderFillRect(r, &t0);
    SDL_RenderFillRect(r, &t1);
    ui_text_t *tx = ui_draw_text(p->d);
    int px = ui_text_quantize(h > 900 ? 28 : 20);
    SDL_Color ink = {255, 255, 255, 255};
    char line[200];
    double dpi = scale_dpi_from_bar(p->bar_px, SCALE_CARD_MM);
    snprintf(line, sizeof line, "Calibration: make the bar as long as a card (%.1f mm).",
             SCALE_CARD_MM);
    ui_text_draw(tx, line, px, true, ink, px, px);
    snprintf(line, sizeof line,
             "Drag here, or Ctrl+[ / Ctrl+] on the laptop. Enter saves, Esc cancels.");
    ui_text_draw(tx, line, px, false, ink, px, px * 5 / 2);
    snprintf(line, sizeof line, "%.0f px = %.1f dpi: a %.1f mm hex is %.0f px across", p->bar_px,
             dpi, p->set.hex_mm, scale_hex_px(p->set.hex_mm, dpi));
    ui_text_draw(tx, line, px, false, ink, px, h - px * 3);
}

void ui_projector_frame(ui_projector_t *p, const battle_t *b, const ui_token_pose_t *poses,
                        const anim_fx_t *fx, int n_fx, int focus, bool animating, double dt)
{
    if (!p->win || !b) return;
    bool redraw = p->dirty || animating;
    if (fit_target(p)) redraw = true;
    if (ui_projector_update_view(p->vis, &p->view, b, &p->keys, &p->fog)) redraw = true;
    if (p->start_pending) {
        p->start_pending = false;
        ui_projector_start_view(p, b);
        redraw = true;
    }
    if (p->follow && focus >= 0 && focus < b->n) {
        /* Ease the middle of the picture towards whom the action is about. */
        vec2_t want =
            poses ? poses[focus].world
                  : ui_cell_center(b->map, hex_to_cell(b->map->layout, b->board->pos[focus]));
        vec2_t mid = ui_cam_to_world(&p->cam, (vec2_t){p->tw / 2.0, p->th / 2.0});
        double k = fmin(1.0, (dt > 0 ? dt : 0.016) * 4.0);
        if (fabs(want.x - mid.x) + fabs(want.y - mid.y) > 1e-3) {
            p->cam.x += (want.x - mid.x) * k;
            p->cam.y += (want.y - mid.y) * k;
            redraw = true;
        }
    }
    if (!redraw) return;
    p->dirty = false;
    SDL_SetRenderTarget(p->ren, p->target);
    ui_projector_draw_view(p->d, b, &p->view, poses, &p->cam, p->tw, p->th);
    ui_projector_draw_marks(p, b, &p->view, poses, &p->cam, p->tw, p->th);
    /* On the unturned canvas, so the effects turn with the map. */
    ui_projector_draw_fx(p, &p->view, fx, n_fx, &p->cam);
    SDL_SetRenderTarget(p->ren, NULL);
    SDL_SetRenderDrawColor(p->ren, 0, 0, 0, 255);
    SDL_RenderClear(p->ren);
    SDL_Rect dst = {(p->out_w - p->tw) / 2, (p->out_h - p->th) / 2, p->tw, p->th};
    SDL_RenderCopyEx(p->ren, p->target, NULL, &dst, p->set.rotation, NULL, SDL_FLIP_NONE);
    if (p->calibrating) draw_calibration(p);
    SDL_RenderPresent(p->ren);
}

static void set_calibrating(ui_projector_t *p, bool on)
{
    p->calibrating = on;
    p->dragging = false;
    if (on) {
        p->bar_px = scale_mm_to_px(SCALE_CARD_MM, ui_projector_dpi(p));
        if (p->bar_px < 20 || p->bar_px > p->out_w - 20) p->bar_px = p->out_w / 3.0;
    }
    p->dirty = true;
}

/* Move the projector to display index d (closing and reopening its window). */
static void move_to_display(ui_projector_t *p, int d, int main_display)
{
    char err[HB_ERR_MAX];
    int rot = p->set.rotation;
    (void)rot;
    ui_projector_close(p);
    if (!ui_projector_open(p, d, main_display, err, sizeof err))
        snprintf(p->msg, sizeof p->msg, "Projector: %.180s", err);
}

bool ui_projector_control_key(ui_projector_t *p, SDL_Keycode k, int main_display)
{
    if (!p->win) return false;
    vec2_t pan = {0, 0};
    switch (k) {
    case SDLK_LEFT:
        pan.x = -PAN_STEP;
        break;
    case SDLK_RIGHT:
        pan.x = PAN_STEP;
        break;
    case SDLK_UP:
        pan.y = -PAN_STEP;
        break;
    case SDLK_DOWN:
        pan.y = PAN_STEP;
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
    case SDLK_MINUS:
    case SDLK_KP_MINUS: {
        bool in = k != SDLK_MINUS && k != SDLK_KP_MINUS;
        ui_cam_zoom_at(&p->cam, (vec2_t){p->tw / 2.0, p->th / 2.0},
                       in ? ZOOM_STEP : 1.0 / ZOOM_STEP);
        snprintf(p->msg, sizeof p->msg, "Projector zoom: %.0f%% of true scale (Ctrl+0 resets).",
                 100.0 * p->cam.zoom / ui_projector_true_zoom(p));
        break;
    }
    case SDLK_0:
    case SDLK_KP_0: {
        vec2_t mid = ui_cam_to_world(&p->cam, (vec2_t){p->tw / 2.0, p->th / 2.0});
        p->cam.zoom = ui_projector_true_zoom(p);
        p->cam.x = mid.x - p->tw / (2.0 * p->cam.zoom);
        p->cam.y = mid.y - p->th / (2.0 * p->cam.zoom);
        snprintf(p->msg, sizeof p->msg, "Projector at true scale: %.1f mm hexes.", p->set.hex_mm);
        break;
    }
    case SDLK_r: {
        vec2_t mid = ui_cam_to_world(&p->cam, (vec2_t){p->tw / 2.0, p->th / 2.0});
        p->set.rotation = (p->set.rotation + 90) % 360;
        fit_target(p);
        p->cam.x = mid.x - p->tw / (2.0 * p->cam.zoom);
        p->cam.y = mid.y - p->th / (2.0 * p->cam.zoom);
        save_settings(p);
        snprintf(p->msg, sizeof p->msg, "Projector turned to %d degrees.", p->set.rotation);
        break;
    }
    case SDLK_l:
        p->follow = !p->follow;
        snprintf(p->msg, sizeof p->msg, "Projector %s.",
                 p->follow ? "follows the action" : "stays put");
        break;
    case SDLK_k:
        set_calibrating(p, !p->calibrating);
        snprintf(p->msg, sizeof p->msg, "%s",
                 p->calibrating ? "Projector calibration: match the bar to a card."
                                : "Calibration closed.");
        break;
    case SDLK_LEFTBRACKET:
    case SDLK_RIGHTBRACKET:
        if (!p->calibrating) return false;
        p->bar_px += k == SDLK_LEFTBRACKET ? -1.0 : 1.0;
        if (p->bar_px < 10) p->bar_px = 10;
        break;
    case SDLK_RETURN:
    case SDLK_KP_ENTER: {
        if (!p->calibrating) return false;
        p->set.dpi = scale_dpi_from_bar(p->bar_px, SCALE_CARD_MM);
        set_calibrating(p, false);
        save_settings(p);
        centre_true_scale(p);
        if (!strstr(p->msg, "Projector:"))
            snprintf(p->msg, sizeof p->msg, "Calibrated %s: %.1f dpi.", p->display_name,
                     p->set.dpi);
        break;
    }
    case SDLK_PAGEUP:
    case SDLK_PAGEDOWN:
        p->set.hex_mm += k == SDLK_PAGEUP ? HEX_MM_STEP : -HEX_MM_STEP;
        p->set.hex_mm = fmax(HEX_MM_MIN, fmin(HEX_MM_MAX, p->set.hex_mm));
        p->cam.zoom = ui_projector_true_zoom(p);
        save_settings(p);
        snprintf(p->msg, sizeof p->msg, "Projected hexes: %.1f mm.", p->set.hex_mm);
        break;
    case SDLK_f:
        ui_projector_fit_map(p);
        snprintf(p->msg, sizeof p->msg,
                 "Projector shows the whole map (%.0f%% of true scale; Ctrl+0 resets).",
                 100.0 * p->cam.zoom / ui_projector_true_zoom(p));
        break;
    case SDLK_F11:
        p->fullscreen = ui_toggle_fullscreen(p->win);
        fit_target(p);
        snprintf(p->msg, sizeof p->msg, "Projector %s.",
                 p->fullscreen ? "fullscreen" : "in a window");
        break;
    case SDLK_d:
        move_to_display(
            p, (p->display + 1) % (SDL_GetNumVideoDisplays() > 0 ? SDL_GetNumVideoDisplays() : 1),
            main_display);
        return true;
    default:
        return false;
    }
    if (pan.x != 0 || pan.y != 0) {
        vec2_t t = ui_projector_unrotate(p->set.rotation, pan.x, pan.y);
        ui_cam_pan(&p->cam, t.x, t.y);
    }
    p->dirty = true;
    return true;
}

/* Events in the projector window itself (someone at the table, or the
 * referee reaching over). */
static bool own_event(ui_projector_t *p, const SDL_Event *e, int main_display)
{
    switch (e->type) {
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_CLOSE) {
            ui_projector_close(p);
            snprintf(p->msg, sizeof p->msg, "Projector closed (F2 opens it again).");
        } else if (e->window.event == SDL_WINDOWEVENT_FOCUS_GAINED && p->beside &&
                   !p->calibrating) {
            /* The window manager gave the table the keyboard (it opened, or
             * was clicked): the referee types on the laptop. */
            SDL_RaiseWindow(p->beside);
            SDL_SetWindowInputFocus(p->beside);
        } else {
            p->dirty = true;
        }
        return true;
    case SDL_KEYDOWN:
        if (e->key.keysym.sym == SDLK_ESCAPE && p->calibrating) {
            set_calibrating(p, false);
            return true;
        }
        if (e->key.keysym.sym == SDLK_ESCAPE) {
            /* Meant for the laptop: the play window takes it (it cancels
             * there). Esc alone never closes the table; F2 does. */
            if (p->beside) SDL_RaiseWindow(p->beside);
            return false;
        }
        ui_projector_control_key(p, e->key.keysym.sym, main_display);
        return true;
    case SDL_MOUSEBUTTONDOWN:
        if (p->calibrating) p->dragging = true;
        return true;
    case SDL_MOUSEBUTTONUP:
        p->dragging = false;
        return true;
    case SDL_MOUSEMOTION:
        if (p->calibrating && p->dragging) {
            int ww = 1, wh = 1;
            SDL_GetWindowSize(p->win, &ww, &wh);
            double ratio = ww > 0 ? (double)p->out_w / ww : 1.0;
            /* The bar stays centred: its half-length follows the cursor. */
            p->bar_px = fmax(10.0, 2.0 * fabs(e->motion.x * ratio - p->out_w / 2.0));
            p->dirty = true;
        }
        return true;
    case SDL_MOUSEWHEEL: {
        if (p->calibrating) {
            p->bar_px = fmax(10.0, p->bar_px + e->wheel.y);
        } else {
            ui_cam_zoom_at(&p->cam, (vec2_t){p->tw / 2.0, p->th / 2.0},
                           e->wheel.y > 0 ? ZOOM_STEP : 1.0 / ZOOM_STEP);
        }
        p->dirty = true;
        return true;
    }
    default:
        return true;
    }
}

/* The window id an event is for, or 0 when it has none. */
static Uint32 event_window(const SDL_Event *e)
{
    switch (e->type) {
    case SDL_WINDOWEVENT:
        return e->window.windowID;
    case SDL_KEYDOWN:
    case SDL_KEYUP:
        return e->key.windowID;
    case SDL_TEXTINPUT:
        return e->text.windowID;
    case SDL_MOUSEMOTION:
        return e->motion.windowID;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        return e->button.windowID;
    case SDL_MOUSEWHEEL:
        return e->wheel.windowID;
    default:
        return 0;
    }
}

bool ui_projector_route(ui_projector_t *p, const SDL_Event *e, Uint32 main_window, int main_display,
                        bool *quit)
{
    Uint32 wid = event_window(e);
    if (p->win && wid != 0 && wid == SDL_GetWindowID(p->win)) return own_event(p, e, main_display);
    if (e->type == SDL_WINDOWEVENT && wid == main_window &&
        e->window.event == SDL_WINDOWEVENT_CLOSE) {
        /* With two windows SDL sends no SDL_QUIT for the first one closed. */
        *quit = true;
        return true;
    }
    if (e->type != SDL_KEYDOWN) return false;
    SDL_Keycode k = e->key.keysym.sym;
    bool ctrl = (e->key.keysym.mod & KMOD_CTRL) != 0;
    if (k == SDLK_F2 || (ctrl && k == SDLK_p)) {
        if (p->win) {
            ui_projector_close(p);
            snprintf(p->msg, sizeof p->msg, "Projector closed.");
        } else {
            char err[HB_ERR_MAX];
            if (!ui_projector_open(p, -1, main_display, err, sizeof err))
                snprintf(p->msg, sizeof p->msg, "Projector: %.180s", err);
        }
        return true;
    }
    if (!ctrl || k == SDLK_z) return false; /* Ctrl+Z stays the play screen's undo */
    return ui_projector_control_key(p, k, main_display);
}
