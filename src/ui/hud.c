/* hud.c - the play screen's HUD (see hud.h): layout, the events it takes
 * first, and the drawing helpers its files share; the map marks are in
 * hud_map.c, the log in hud_log.c, the panels in hud_panels.c. */
#include "declared.h"
#include "hud_internal.h"
#include "telegraph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/condlog.h"
#include "lod.h"
#include "overlay.h"

#define PI 3.14159265358979323846
#define TEXT_MAX 108 /* the text cache keys strings shorter than this */

void hud_layout(hud_layout_t *l, int w, int h, double ppp)
{
    hud_layout_panels(l, w, h, ppp, HUD_PANEL_AUTO, HUD_PANEL_AUTO);
}

void hud_layout_panels(hud_layout_t *l, int w, int h, double ppp, hud_panel_t tracker,
                       hud_panel_t side)
{
    memset(l, 0, sizeof *l);
    bool narrow = w < (int)lround(HUD_FOLD_W * ppp);
    l->px = ui_text_quantize((int)lround(13 * ppp));
    l->line = (int)lround(l->px * 1.45);
    int status_h = (int)lround(l->px * 1.9);
    int bar_h = (int)lround(l->px * 3.5); /* room for two rows of buttons */
    int tw = (int)lround(l->px * 16.0), lw = (int)lround(l->px * 24.0);
    /* On a narrow window the side panels give way first, so the map keeps at
     * least half the width. */
    if (tw + lw > w / 2) {
        double k = (w / 2.0) / (tw + lw);
        tw = (int)(tw * k);
        lw = (int)(lw * k);
    }
    if (tracker == HUD_PANEL_FOLDED || (tracker == HUD_PANEL_AUTO && narrow)) tw = 0;
    if (side == HUD_PANEL_FOLDED || (side == HUD_PANEL_AUTO && narrow)) lw = 0;
    if (bar_h + status_h > h / 3) bar_h = h / 3 - status_h > 0 ? h / 3 - status_h : 0;
    l->tracker = (SDL_Rect){0, 0, tw, h - bar_h - status_h};
    l->log = (SDL_Rect){w - lw, 0, lw, h - bar_h - status_h};
    l->bar = (SDL_Rect){0, h - bar_h - status_h, w, bar_h};
    l->status = (SDL_Rect){0, h - status_h, w, status_h};
    l->map = (SDL_Rect){tw, 0, w - tw - lw, h - bar_h - status_h};
    l->btn_h = bar_h - (int)lround(l->px * 0.8);
    l->btn_w = (int)lround(l->px * 9.5);
}

bool hud_init(hud_t *h, pui_t *p)
{
    memset(h, 0, sizeof *h);
    h->p = p;
    h->hover_btn = -1;
    ui_odds_init(&h->odds);
    int n = p->play.b ? p->play.b->n : 0;
    h->pose = calloc((size_t)(n > 0 ? n : 1), sizeof *h->pose);
    return h->pose != NULL;
}

void hud_free(hud_t *h)
{
    ui_odds_free(&h->odds);
    free(h->pose);
    shape_free(&h->sb);
    h->pose = NULL;
}

bool hud_in_rect(const SDL_Rect *r, int x, int y)
{
    return x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h;
}

/* Button i of a row of n whose longest label has `longest` characters. */
static SDL_Rect row_rect(const hud_t *h, int i, int n, size_t longest)
{
    const hud_layout_t *l = &h->lay;
    int gap = l->px / 2;
    if (n < 1) n = 1;
    /* Buttons keep their width while they fit in one row; then they narrow
     * (the tooltip has the whole label), and below that they take two rows. */
    int min_w = (int)lround(l->px * 6.5);
    int avail = l->bar.w - gap;
    /* Widen up to what the longest label needs (about 0.62 em a character,
     * with the key in front), never narrower than the usual button. */
    int fit = (int)lround((double)(longest + 3) * l->px * 0.62);
    /* Two rows too when the longest label would not fit on two lines of a
     * button in one row ("Telegraph: Long Shot (delay 1)" at 800 px). */
    int rows = n * (min_w + gap) > avail || (n > 1 && fit > 2 * (avail / n - gap)) ? 2 : 1;
    int cols = (n + rows - 1) / rows;
    int cap = fit > l->btn_w ? fit : l->btn_w;
    int w = avail / cols - gap;
    if (w > cap) w = cap;
    int bh = rows == 1 ? l->btn_h : (l->bar.h - 3 * (gap / 2)) / 2;
    int row = i / cols, col = i % cols;
    int y0 = rows == 1 ? l->bar.y + (l->bar.h - bh) / 2 : l->bar.y + gap / 2 + row * (bh + gap / 2);
    return (SDL_Rect){l->bar.x + gap + col * (w + gap), y0, w, bh};
}

SDL_Rect hud_button_rect(const hud_t *h, int i)
{
    size_t longest = 0;
    for (int k = 0; h->p && k < h->p->n_bar; k++) {
        size_t len = strlen(h->p->bar[k].label);
        if (len > longest) longest = len;
    }
    /* A button sits at its slot, so a missing action leaves a gap. */
    const pui_t *p = h->p;
    int slot = p && i >= 0 && i < p->n_bar ? p->bar[i].slot : i;
    return row_rect(h, slot, p ? p->n_bar_slots : 0, longest);
}

SDL_Rect hud_answer_rect(const hud_t *h, int i)
{
    const battle_t *b = h->p ? h->p->play.b : NULL;
    int n = b ? b->ask.n : 0;
    size_t longest = 0;
    for (int k = 0; k < n; k++) {
        size_t len = strlen(b->ask.labels[k]);
        if (len > longest) longest = len;
    }
    return row_rect(h, i, n, longest);
}

SDL_Rect hud_face_rect(const hud_t *h, int v)
{
    const hud_layout_t *l = &h->lay;
    int s = l->btn_h, gap = l->px / 4;
    /* Faces sit to the right of the prompt's first third. */
    int x0 = l->bar.x + l->bar.w / 3;
    return (SDL_Rect){x0 + (v - 1) * (s + gap), l->bar.y + (l->bar.h - s) / 2, s, s};
}

/* Lines the battle log lists. */
static int log_lines(const battle_t *b)
{
    int n = 0;
    for (int k = 0; k < b->log.n; k++)
        n += hud_log_kind(&b->log.ev[k]) != HUD_LOG_NONE;
    return n;
}

#define CLICK_SLOP 4 /* pixels a press may wander and still be a click, not a drag */

static bool near_px(int x0, int y0, int x1, int y1)
{
    return abs(x1 - x0) <= CLICK_SLOP && abs(y1 - y0) <= CLICK_SLOP;
}

/* The combatant whose token stands on the map at drawable pixel (x, y), or -1. */
static int token_at(const hud_t *h, const ui_state_t *s, int x, int y)
{
    const battle_t *b = h->p->play.b;
    cell_t c;
    if (!hud_in_rect(&h->lay.map, x, y) ||
        !ui_pick_cell(s->map, ui_cam_to_world(&s->cam, (vec2_t){x, y}), &c))
        return -1;
    return board_occupant(b->board, hex_from_cell(b->map->layout, c));
}

/* Open the menu of combatant who beside its token. A member of the actor set
 * that may go next is made the actor first (as a click on it does), so the
 * menu lists its own actions. */
static void open_token_menu(hud_t *h, const ui_state_t *s, int who)
{
    pui_t *p = h->p;
    const battle_t *b = p->play.b;
    cell_t at = hex_to_cell(b->map->layout, b->board->pos[who]);
    if (who != p->actor && pui_may_pick(p, who)) pui_click_cell(p, at);
    /* The tokens on the map and their names, as boxes: the menu covers as
     * few as it can. As the last frame drew them when it was drawn through
     * this camera (bars and names included), else the tokens' own discs. */
    SDL_Rect others[2 * MAP_MAX_COMBATANTS];
    SDL_Rect tok = {0, 0, 0, 0};
    int n_others = 0;
    bool drawn = h->n_drawn == b->n && h->drawn_cam.x == s->cam.x && h->drawn_cam.y == s->cam.y &&
                 h->drawn_cam.zoom == s->cam.zoom;
    for (int i = 0; i < b->n; i++) {
        if (drawn && h->drawn[i].on) {
            if (i == who)
                tok = h->drawn[i].token;
            else
                others[n_others++] = h->drawn[i].token;
            if (h->drawn[i].label.w > 0) others[n_others++] = h->drawn[i].label;
            continue;
        }
        if (drawn || (i != who && !battle_active(b, i))) continue;
        cell_t ci = hex_to_cell(b->map->layout, b->board->pos[i]);
        vec2_t c = ui_cam_to_screen(&s->cam, ui_cell_center(s->map, ci));
        int r = (int)ceil(ui_token_screen_radius(b->map->combatants[i].size, s->cam.zoom));
        SDL_Rect box = {(int)lround(c.x) - r, (int)lround(c.y) - r, 2 * r, 2 * r};
        if (i == who)
            tok = box;
        else
            others[n_others++] = box;
    }
    if (tok.w == 0) { /* not drawn last frame (faded?): its disc */
        vec2_t c = ui_cam_to_screen(&s->cam, ui_cell_center(s->map, at));
        int r = (int)ceil(ui_token_screen_radius(b->map->combatants[who].size, s->cam.zoom));
        tok = (SDL_Rect){(int)lround(c.x) - r, (int)lround(c.y) - r, 2 * r, 2 * r};
    }
    ui_token_menu_open(&h->menu, p, who, tok, others, n_others, h->lay.px, h->lay.map);
    if (h->menu.n == 0)
        snprintf(p->msg, sizeof p->msg, "No actions for %.40s now: %.100s.", pui_name(p, who),
                 h->menu.why);
    else
        snprintf(p->msg, sizeof p->msg, "%s: click an action or press its key; Esc closes.",
                 pui_name(p, who));
}

/* Right-click menus and left drags of the actor's token; true when used. */
static bool token_event(hud_t *h, ui_state_t *s, const SDL_Event *e)
{
    pui_t *p = h->p;
    int x = (int)s->mouse_x, y = (int)s->mouse_y;
    if (e->type == SDL_MOUSEMOTION) {
        x = (int)lround(e->motion.x * s->px_per_pt);
        y = (int)lround(e->motion.y * s->px_per_pt);
    } else if (e->type == SDL_MOUSEBUTTONDOWN || e->type == SDL_MOUSEBUTTONUP) {
        x = (int)lround(e->button.x * s->px_per_pt);
        y = (int)lround(e->button.y * s->px_per_pt);
    }
    if (h->menu.open && ui_token_menu_event(&h->menu, p, e, x, y)) return true;
    switch (e->type) {
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_RIGHT) {
            h->right_down = true;
            h->right_x = x;
            h->right_y = y;
        }
        return false;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_RIGHT && h->right_down) {
            h->right_down = false;
            if (!near_px(x, y, h->right_x, h->right_y) || p->play.b->over) return false;
            int who = token_at(h, s, x, y);
            if (who < 0) return false;
            s->drag_button = 0; /* a click, not the end of a pan */
            open_token_menu(h, s, who);
            return true;
        }
        if (e->button.button == SDL_BUTTON_LEFT && h->drag_armed) {
            bool dragged = h->dragging;
            h->drag_armed = h->dragging = false;
            if (!dragged) return false;
            cell_t c;
            vec2_t w = ui_cam_to_world(&s->cam, (vec2_t){x, y});
            if (!ui_pick_cell(s->map, w, &c) || !hud_in_rect(&h->lay.map, x, y))
                c = (cell_t){-1, -1};
            pui_drop_cell(p, c);
            return true;
        }
        return false;
    case SDL_MOUSEMOTION:
        if (h->drag_armed && !h->dragging && !near_px(x, y, h->drag_x, h->drag_y)) {
            h->dragging = true;
            snprintf(p->msg, sizeof p->msg, "Moving %s: drop on a shaded hex.",
                     pui_name(p, p->actor));
        }
        return false;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_LEAVE) h->drag_armed = h->dragging = false;
        return false;
    default:
        return false;
    }
}

/* A left press on the map: arm a drag when it lands on the actor's token on
 * a turn the screen plays (the press still selects it as a click does). */
static void arm_drag(hud_t *h, const ui_state_t *s, int x, int y)
{
    pui_t *p = h->p;
    h->drag_armed = h->dragging = false;
    if (!p->user_turn || p->mode != PUI_IDLE || p->actor < 0 || pui_needs_die(p) ||
        (SDL_GetModState() & KMOD_SHIFT))
        return;
    if (token_at(h, s, x, y) != p->actor) return;
    h->drag_armed = true;
    h->drag_x = x;
    h->drag_y = y;
}

/* Ctrl+1 brings the tracker back or folds it away, Ctrl+2 the card and log;
 * the map takes the room they leave. */
static bool fold_key(hud_t *h, ui_state_t *s, SDL_Keycode k, Uint16 mod)
{
    if (!(mod & KMOD_CTRL) || (k != SDLK_1 && k != SDLK_2)) return false;
    bool tracker = k == SDLK_1;
    hud_panel_t *want = tracker ? &h->want_tracker : &h->want_side;
    bool shown = tracker ? h->lay.tracker.w > 0 : h->lay.log.w > 0;
    *want = shown ? HUD_PANEL_FOLDED : HUD_PANEL_SHOWN;
    ui_state_resize(s, s->view_w, s->view_h, s->px_per_pt);
    snprintf(h->p->msg, sizeof h->p->msg, "%s %s (Ctrl+%c).",
             tracker ? "The turn order" : "The card and the battle log",
             shown ? "folded away" : "shown", tracker ? '1' : '2');
    return true;
}

bool hud_pre_event(hud_t *h, ui_state_t *s, const SDL_Event *e)
{
    pui_t *p = h->p;
    if (!p || !p->started) return false;
    if (token_event(h, s, e)) return true;
    if (hud_ruler_event(h, s, e)) return true;
    switch (e->type) {
    case SDL_KEYDOWN: {
        if (fold_key(h, s, e->key.keysym.sym, e->key.keysym.mod)) return true;
        if (ui_calls_key(&h->calls, p, e->key.keysym.sym)) return true;
        if (ui_odds_key(&h->odds, p, e->key.keysym.sym, e->key.keysym.mod)) return true;
        bool was = p->help;
        bool used = pui_key(p, e->key.keysym.sym, e->key.keysym.mod);
        h->help_by_key = was != p->help;
        /* Esc only ever cancels here: a stray press must not end the battle
         * (Q quits on purpose). */
        return used || e->key.keysym.sym == SDLK_ESCAPE;
    }
    case SDL_TEXTINPUT:
        /* '?' arrives as text on layouts where it is not Shift+/; when its key
         * press already toggled the help, the text must not toggle it back. */
        if (strcmp(e->text.text, "?") == 0) {
            if (!h->help_by_key) p->help = !p->help;
            h->help_by_key = false;
            return true;
        }
        return false;
    case SDL_MOUSEWHEEL: {
        int x = (int)s->mouse_x, y = (int)s->mouse_y;
        if (!hud_in_rect(&h->lay.log, x, y)) return false;
        int notches = e->wheel.y;
        if (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED) notches = -notches;
        int max = log_lines(p->play.b) - 1;
        p->log_scroll += notches * 3;
        if (p->log_scroll > max) p->log_scroll = max > 0 ? max : 0;
        if (p->log_scroll < 0) p->log_scroll = 0;
        return true;
    }
    case SDL_MOUSEBUTTONDOWN: {
        if (e->button.button != SDL_BUTTON_LEFT) return false;
        int x = (int)lround(e->button.x * s->px_per_pt),
            y = (int)lround(e->button.y * s->px_per_pt);
        s->mouse_x = x;
        s->mouse_y = y;
        s->mouse_in = true;
        if (p->help) {
            p->help = false;
            return true;
        }
        if (pui_needs_die(p)) {
            int sides = p->play.b->need.sides;
            for (int v = 1; v <= sides && v <= 20; v++) {
                SDL_Rect r = hud_face_rect(h, v);
                if (hud_in_rect(&r, x, y)) return pui_enter_die(p, v), true;
            }
        }
        if (pui_needs_answer(p)) {
            /* The question's options stand where the action buttons do. */
            for (int i = 0; i < p->play.b->ask.n; i++) {
                SDL_Rect r = hud_answer_rect(h, i);
                if (hud_in_rect(&r, x, y)) return pui_answer(p, i), true;
            }
        }
        if (hud_in_rect(&h->lay.bar, x, y) || hud_in_rect(&h->lay.status, x, y)) {
            for (int i = 0; i < p->n_bar && !pui_needs_die(p); i++) {
                SDL_Rect r = hud_button_rect(h, i);
                if (hud_in_rect(&r, x, y)) return pui_choose(p, i), true;
            }
            if (!p->user_turn && !p->play.b->over && !pui_needs_die(p) && !pui_needs_answer(p))
                pui_not_now(p, "The action bar"); /* it shows no actions while the AI plays */
            return true;
        }
        if (hud_in_rect(&h->lay.tracker, x, y) || hud_in_rect(&h->lay.log, x, y)) return true;
        if (p->play.b->over) return true;
        cell_t c;
        vec2_t w = ui_cam_to_world(&s->cam, (vec2_t){x, y});
        bool on = ui_pick_cell(s->map, w, &c);
        if (!on && p->mode == PUI_IDLE) return false;
        arm_drag(h, s, x, y);
        return pui_click_cell(p, c);
    }
    default:
        return false;
    }
}

bool hud_post_event(hud_t *h, ui_state_t *s, const SDL_Event *e)
{
    pui_t *p = h->p;
    if (!p || !p->started) return false;
    if (e->type != SDL_MOUSEMOTION && e->type != SDL_MOUSEWHEEL && e->type != SDL_KEYDOWN)
        return false;
    bool redraw = false;
    int old = h->hover_btn;
    h->hover_btn = -1;
    for (int i = 0; i < p->n_bar; i++) {
        SDL_Rect r = hud_button_rect(h, i);
        if (hud_in_rect(&r, (int)s->mouse_x, (int)s->mouse_y)) h->hover_btn = i;
    }
    redraw |= old != h->hover_btn;
    bool was = h->hover_status;
    h->hover_status = h->hover_btn < 0 &&
                      hud_in_rect(&h->lay.status, (int)s->mouse_x, (int)s->mouse_y);
    redraw |= was != h->hover_status;
    bool over_map = hud_in_rect(&h->lay.map, (int)s->mouse_x, (int)s->mouse_y);
    redraw |= pui_hover_cell(p, s->hover, s->hover_on_map && over_map);
    if (h->ruler.on && e->type == SDL_MOUSEMOTION) {
        hud_ruler_status(h, s);
        redraw = true;
    }
    return redraw;
}

/* Gauge bars under combatant i's HP bar (draw_token_gauges): k0 is where
 * they start in g (1 when the first gauge is the HP the map draws). */
int hud_token_gauges(const hud_t *h, int i, gauge_t *g, int *k0)
{
    const battle_t *b = h->p->play.b;
    int n = ruleset_gauges(h->p->play.rs, b, i, g, GAUGES_MAX);
    *k0 = n > 0 && g[0].value == b->u[i].hp && g[0].max == b->u[i].hp_max ? 1 : 0;
    return n;
}

const ui_token_pose_t *hud_poses(hud_t *h)
{
    const anim_t *a = &h->p->anim;
    memcpy(h->pose, a->pose, sizeof *h->pose * (size_t)a->n);
    const battle_t *b = h->p->play.b;
    for (int i = 0; i < a->n && i < b->n; i++) {
        gauge_t g[GAUGES_MAX];
        int k0, n = battle_active(b, i) ? hud_token_gauges(h, i, g, &k0) : 0;
        h->pose[i].bars = n > 0 && n > k0 ? n - k0 : 0;
    }
    for (int i = 0; i < a->n_fx; i++) {
        const anim_fx_t *f = &a->fx[i];
        if (f->kind != FX_LUNGE) continue;
        /* Out a third of the way towards the target and back. */
        double k = sin(PI * f->age / f->life) * 0.35;
        for (int j = 0; j < a->n; j++)
            if (fabs(h->pose[j].world.x - f->a.x) < 1e-6 &&
                fabs(h->pose[j].world.y - f->a.y) < 1e-6) {
                h->pose[j].world.x += (f->b.x - f->a.x) * k;
                h->pose[j].world.y += (f->b.y - f->a.y) * k;
                break;
            }
    }
    return h->pose;
}

/* ---- drawing helpers ---------------------------------------------------- */

void hud_hex_fill(hud_t *h, const ui_state_t *s, cell_t c, double scale, SDL_Color col)
{
    vec2_t ctr = ui_cam_to_screen(&s->cam, ui_cell_center(s->map, c));
    vec2_t k[6];
    for (int i = 0; i < 6; i++) {
        vec2_t o = hex_corner(s->map->layout.orient, scale * s->cam.zoom, i);
        k[i] = (vec2_t){ctr.x + o.x, ctr.y + o.y};
    }
    for (int i = 0; i < 6; i++)
        shape_tri(&h->sb, ctr, k[i], k[(i + 1) % 6], col);
}

/* Draw s (measure only when draw is false) in pieces the text cache keys;
 * returns its width. */
static int text_run(ui_draw_t *d, const char *s, int px, bool bold, SDL_Color c, int x, int y,
                    bool draw)
{
    char buf[TEXT_MAX];
    int x0 = x;
    size_t len = strlen(s);
    for (size_t at = 0; at < len;) {
        size_t n = len - at < TEXT_MAX - 1 ? len - at : TEXT_MAX - 1;
        /* Cut after a space where possible so pieces meet at a word gap, and
         * never inside a UTF-8 sequence. */
        if (at + n < len) {
            size_t k = n;
            while (k > n / 2 && s[at + k - 1] != ' ')
                k--;
            if (k > n / 2) n = k;
            while (n > 1 && ((unsigned char)s[at + n] & 0xC0) == 0x80)
                n--;
        }
        memcpy(buf, s + at, n);
        buf[n] = 0;
        if (draw) {
            x += ui_text_draw(ui_draw_text(d), buf, px, bold, c, x, y);
        } else {
            int w = 0, hh = 0;
            ui_text_get(ui_draw_text(d), buf, px, bold, c, &w, &hh);
            x += w;
        }
        at += n;
    }
    return x - x0;
}

int hud_text(ui_draw_t *d, const char *s, int px, bool bold, SDL_Color c, int x, int y)
{
    return text_run(d, s, px, bold, c, x, y, true);
}

int hud_text_w(ui_draw_t *d, const char *s, int px, bool bold)
{
    return text_run(d, s, px, bold, C_INK, 0, 0, false);
}

/* s shortened to fit maxw pixels: whole, or cut at a character boundary with
 * "..." (the button's tooltip has it whole). Few measurements, each cached. */
/* s cut to its first chars + "..." + tail (may be empty) to fit maxw. */
static int fit_cut(ui_draw_t *d, const char *s, const char *tail, int px, int maxw, char *out,
                   size_t cap)
{
    size_t shown = tail[0] ? (size_t)(tail - s) : strlen(s);
    snprintf(out, cap, "%.*s%s", (int)shown, s, tail);
    int w = hud_text_w(d, out, px, false);
    for (int tries = 0; w > maxw && shown > 1 && tries < 8; tries++) {
        /* Guess the length from the width, then step down until it fits. */
        size_t want = (size_t)((double)(shown + 3) * maxw / (w > 0 ? w : 1));
        if (want + 3 >= shown + 3)
            want = shown > 4 ? shown - 1 : 1;
        else
            want = want > 3 ? want - 3 : 1;
        if (want >= shown) want = shown - 1;
        while (want > 1 && ((unsigned char)s[want] & 0xC0) == 0x80)
            want--;
        while (want > 1 && s[want - 1] == ' ')
            want--;
        snprintf(out, cap, "%.*s...%s", (int)want, s, tail);
        shown = want;
        w = hud_text_w(d, out, px, false);
    }
    return w;
}

const char *hud_fit_text(ui_draw_t *d, const char *s, int px, int maxw, char *out, size_t cap)
{
    /* A short closing "(...)" is what tells variants apart ("Telegraph: Long
     * Shot (delay 2)"): the cut goes before it, so it stays. */
    size_t n = strlen(s);
    const char *open = n > 2 && s[n - 1] == ')' ? strrchr(s, '(') : NULL;
    const char *tail =
        open && open > s + 2 && open[-1] == ' ' && s + n - open <= 16 ? open - 1 : "";
    if (fit_cut(d, s, tail, px, maxw, out, cap) > maxw && tail[0])
        fit_cut(d, s, "", px, maxw, out, cap);
    return out;
}

int hud_text_wrap(ui_draw_t *d, const char *s, int px, bool bold, SDL_Color c, int x, int y,
                  int maxw, int line_h, bool draw)
{
    char buf[512];
    int lines = 0;
    while (*s) {
        /* The longest run of whole words that fits, at least one word. */
        size_t n = strlen(s), fit = 0;
        for (size_t k = 1; k <= n && k < sizeof buf; k++) {
            if (k < n && s[k] != ' ') continue;
            memcpy(buf, s, k);
            buf[k] = '\0';
            if (fit > 0 && hud_text_w(d, buf, px, bold) > maxw) break;
            fit = k;
        }
        if (fit == 0) fit = n < sizeof buf ? n : sizeof buf - 1;
        memcpy(buf, s, fit);
        buf[fit] = '\0';
        if (hud_text_w(d, buf, px, bold) > maxw) /* one word longer than the line */
            hud_fit_text(d, s, px, maxw, buf, sizeof buf);
        if (draw) hud_text(d, buf, px, bold, c, x, y + lines * line_h);
        lines++;
        s += fit;
        while (*s == ' ')
            s++;
    }
    return lines;
}

void hud_fill(SDL_Renderer *r, SDL_Rect rc, SDL_Color c)
{
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
    SDL_RenderFillRect(r, &rc);
}

vec2_t hud_cell_screen(const ui_state_t *s, cell_t c)
{
    return ui_cam_to_screen(&s->cam, ui_cell_center(s->map, c));
}
