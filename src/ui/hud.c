/* hud.c - panels and map marks of the play screen (see hud.h). */
#include "hud.h"
#include "declared.h"
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

/* Okabe-Ito hues: they stay apart for the common colour-blindnesses. */
static const SDL_Color C_REACH = {86, 180, 233, 105};
static const SDL_Color C_PATH = {240, 228, 66, 255};
static const SDL_Color C_TARGET = {230, 159, 0, 255};
static const SDL_Color C_BAD = {213, 94, 0, 255};
static const SDL_Color C_INK = {235, 235, 228, 255};
static const SDL_Color C_DIM = {160, 164, 170, 255};
static const SDL_Color C_STORY = {150, 200, 235, 255};
static const SDL_Color C_HEAD = {86, 180, 233, 255};
static const SDL_Color C_PANEL = {20, 23, 29, 238};

void hud_layout(hud_layout_t *l, int w, int h, double ppp)
{
    memset(l, 0, sizeof *l);
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

static bool in_rect(const SDL_Rect *r, int x, int y)
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
    int rows = n * (min_w + gap) > avail ? 2 : 1;
    int cols = (n + rows - 1) / rows;
    /* Widen up to what the longest label needs (about 0.62 em a character,
     * with the key in front), never narrower than the usual button. */
    int fit = (int)lround((double)(longest + 3) * l->px * 0.62);
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

static bool ruler_event(hud_t *h, ui_state_t *s, const SDL_Event *e);

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
    if (!in_rect(&h->lay.map, x, y) ||
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
        snprintf(p->msg, sizeof p->msg, "No actions for %s now.", pui_name(p, who));
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
            if (!ui_pick_cell(s->map, w, &c) || !in_rect(&h->lay.map, x, y)) c = (cell_t){-1, -1};
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

bool hud_pre_event(hud_t *h, ui_state_t *s, const SDL_Event *e)
{
    pui_t *p = h->p;
    if (!p || !p->started) return false;
    if (token_event(h, s, e)) return true;
    if (ruler_event(h, s, e)) return true;
    switch (e->type) {
    case SDL_KEYDOWN: {
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
        if (!in_rect(&h->lay.log, x, y)) return false;
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
                if (in_rect(&r, x, y)) return pui_enter_die(p, v), true;
            }
        }
        if (pui_needs_answer(p)) {
            /* The question's options stand where the action buttons do. */
            for (int i = 0; i < p->play.b->ask.n; i++) {
                SDL_Rect r = hud_answer_rect(h, i);
                if (in_rect(&r, x, y)) return pui_answer(p, i), true;
            }
        }
        if (in_rect(&h->lay.bar, x, y) || in_rect(&h->lay.status, x, y)) {
            for (int i = 0; i < p->n_bar && !pui_needs_die(p); i++) {
                SDL_Rect r = hud_button_rect(h, i);
                if (in_rect(&r, x, y)) return pui_choose(p, i), true;
            }
            return true;
        }
        if (in_rect(&h->lay.tracker, x, y) || in_rect(&h->lay.log, x, y)) return true;
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
        if (in_rect(&r, (int)s->mouse_x, (int)s->mouse_y)) h->hover_btn = i;
    }
    redraw |= old != h->hover_btn;
    bool over_map = in_rect(&h->lay.map, (int)s->mouse_x, (int)s->mouse_y);
    redraw |= pui_hover_cell(p, s->hover, s->hover_on_map && over_map);
    if (h->ruler.on && e->type == SDL_MOUSEMOTION) {
        hud_ruler_status(h, s);
        redraw = true;
    }
    return redraw;
}

/* Gauge bars under combatant i's HP bar (draw_token_gauges): k0 is where
 * they start in g (1 when the first gauge is the HP the map draws). */
static int token_gauges(const hud_t *h, int i, gauge_t *g, int *k0)
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
        int k0, n = battle_active(b, i) ? token_gauges(h, i, g, &k0) : 0;
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

static void hex_fill(hud_t *h, const ui_state_t *s, cell_t c, double scale, SDL_Color col)
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

static int text(ui_draw_t *d, const char *s, int px, bool bold, SDL_Color c, int x, int y)
{
    return text_run(d, s, px, bold, c, x, y, true);
}

static int text_w(ui_draw_t *d, const char *s, int px, bool bold)
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
    int w = text_w(d, out, px, false);
    for (int tries = 0; w > maxw && shown > 1 && tries < 8; tries++) {
        /* Guess the length from the width, then step down until it fits. */
        size_t want = (size_t)((double)(shown + 3) * maxw / (w > 0 ? w : 1));
        if (want + 3 >= shown + 3) want = shown > 4 ? shown - 1 : 1;
        else want = want > 3 ? want - 3 : 1;
        if (want >= shown) want = shown - 1;
        while (want > 1 && ((unsigned char)s[want] & 0xC0) == 0x80)
            want--;
        while (want > 1 && s[want - 1] == ' ')
            want--;
        snprintf(out, cap, "%.*s...%s", (int)want, s, tail);
        shown = want;
        w = text_w(d, out, px, false);
    }
    return w;
}

const char *hud_fit_text(ui_draw_t *d, const char *s, int px, int maxw, char *out, size_t cap)
{
    /* A short closing "(...)" is what tells variants apart ("Telegraph: Long
     * Shot (delay 2)"): the cut goes before it, so it stays. */
    size_t n = strlen(s);
    const char *open = n > 2 && s[n - 1] == ')' ? strrchr(s, '(') : NULL;
    const char *tail = open && open > s + 2 && open[-1] == ' ' && s + n - open <= 16 ? open - 1 : "";
    if (fit_cut(d, s, tail, px, maxw, out, cap) > maxw && tail[0])
        fit_cut(d, s, "", px, maxw, out, cap);
    return out;
}

static void fill(SDL_Renderer *r, SDL_Rect rc, SDL_Color c)
{
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
    SDL_RenderFillRect(r, &rc);
}

static vec2_t cell_screen(const ui_state_t *s, cell_t c)
{
    return ui_cam_to_screen(&s->cam, ui_cell_center(s->map, c));
}

/* ---- map marks ---------------------------------------------------------- */

/* Telegraphed actions still to land: their hexes shaded in warning orange,
 * where the rules will strike (ui_telegraph_hexes). */
#define TELEGRAPH_HEX_CAP 512
static const SDL_Color C_TELEGRAPH = {240, 110, 20, 150};

static void draw_telegraph_hexes(hud_t *h, const ui_state_t *s, const ui_telegraph_t *tg, int n)
{
    const battle_t *b = h->p->play.b;
    hex_t hx[TELEGRAPH_HEX_CAP];
    for (int k = 0; k < n; k++) {
        int m = ui_telegraph_hexes(b, &tg[k], hx, TELEGRAPH_HEX_CAP);
        for (int q = 0; q < m; q++)
            hex_fill(h, s, hex_to_cell(b->map->layout, hx[q]), 0.86, C_TELEGRAPH);
    }
}

/* Their labels: what lands, and after how many more turns of the timeline. */
static void draw_telegraph_labels(hud_t *h, ui_draw_t *d, const ui_state_t *s,
                                  const ui_telegraph_t *tg, int n, int px)
{
    const battle_t *b = h->p->play.b;
    SDL_Renderer *r = ui_draw_renderer(d);
    hex_t hx[TELEGRAPH_HEX_CAP];
    for (int k = 0; k < n; k++) {
        /* Under the lowest hex it strikes, clear of the tokens' names. */
        int m = ui_telegraph_hexes(b, &tg[k], hx, TELEGRAPH_HEX_CAP);
        if (m <= 0) continue;
        vec2_t e = cell_screen(s, hex_to_cell(b->map->layout, hx[0]));
        double low = e.y, sum = 0.0;
        for (int q = 0; q < m; q++) {
            vec2_t c = cell_screen(s, hex_to_cell(b->map->layout, hx[q]));
            sum += c.x;
            if (c.y > low) low = c.y;
        }
        const weapon_t *w = ui_telegraph_weapon(b, &tg[k]);
        char buf[96];
        snprintf(buf, sizeof buf, "%.40s: %.40s in %d", pui_name(h->p, tg[k].who),
                 w && w->name[0] ? w->name : tg[k].name, tg[k].left);
        int tw = text_w(d, buf, px, true);
        SDL_Rect lr = {(int)(sum / m) - tw / 2 - 4, (int)(low + s->cam.zoom * 0.9), tw + 8, px + 6};
        fill(r, lr, (SDL_Color){60, 30, 10, 225});
        text(d, buf, px, true, (SDL_Color){255, 200, 140, 255}, lr.x + 4, lr.y + 1);
    }
}

SDL_Color hud_gauge_color(const gauge_t *g)
{
    switch (g->kind) {
    case GAUGE_LOAD: {
        /* Amber when low, red when full: more is worse. */
        double f = g->max > 0 ? (double)g->value / g->max : 0.0;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        return (SDL_Color){(Uint8)(240 - 20 * f), (Uint8)(170 - 120 * f), (Uint8)(40 - 10 * f), 255};
    }
    case GAUGE_POOL:
        return (SDL_Color){86, 150, 233, 255};
    default:
        return ui_hp_color(g->value, g->max);
    }
}

/* A filled rectangle into the shape batch (two triangles). */
static void sb_rect(shape_buf_t *sb, double x, double y, double w, double hh, SDL_Color c)
{
    vec2_t a = {x, y}, b = {x + w, y}, cc = {x + w, y + hh}, dd = {x, y + hh};
    shape_tri(sb, a, b, cc, c);
    shape_tri(sb, a, cc, dd, c);
}

/* The gauges past HP under each token, below the HP bar the map draws (same
 * width and height), one thin bar each: armour, heat, points... */
static void draw_token_gauges(hud_t *h, const ui_state_t *s)
{
    const battle_t *b = h->p->play.b;
    double z = s->cam.zoom;
    if (z < UI_LOD_ZOOM) return; /* the map seen whole: tokens are dots */
    for (int i = 0; i < b->n && i < h->p->anim.n; i++) {
        if (!battle_active(b, i) || h->pose[i].alpha <= 0.5f) continue;
        gauge_t g[GAUGES_MAX];
        int k0, n = token_gauges(h, i, g, &k0);
        /* The map already draws HP (the first gauge when it is HP). */
        if (n <= k0) continue;
        vec2_t c = ui_cam_to_screen(&s->cam, h->pose[i].world);
        double r = ui_token_screen_radius(b->map->combatants[i].size, z);
        double rim = fmax(1.5, z * 0.06), bw = r * 1.7, bh = fmax(3.0, z * 0.09);
        double x = c.x - bw / 2, y = c.y + r + rim + z * 0.03 + bh + 2;
        for (int k = k0; k < n; k++, y += bh + 2) {
            double f = g[k].max > 0 ? (double)g[k].value / g[k].max : 0.0;
            f = f < 0 ? 0 : f > 1 ? 1 : f;
            sb_rect(&h->sb, x - 1, y - 1, bw + 2, bh + 2, (SDL_Color){15, 15, 18, 255});
            if (f > 0) sb_rect(&h->sb, x, y, bw * f, bh, hud_gauge_color(&g[k]));
        }
    }
}

void hud_draw_ground(hud_t *h, ui_draw_t *d, const ui_state_t *s)
{
    pui_t *p = h->p;
    if (!p || !p->started) return;
    const battle_t *b = p->play.b;
    SDL_Renderer *r = ui_draw_renderer(d);
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    SDL_RenderSetClipRect(r, &h->lay.map);
    double z = s->cam.zoom;
    h->sb.n = 0;
    bool busy = anim_busy(&p->anim);
    if (p->user_turn && p->mode == PUI_IDLE && p->sel == p->actor && !busy)
        for (int i = 0; i < p->n_reach; i++)
            hex_fill(h, s, p->reach[i].at, 0.92, C_REACH);
    ui_telegraph_t tg[UI_TELEGRAPH_MAX];
    int ntg = ui_telegraphs(b, tg, UI_TELEGRAPH_MAX);
    draw_telegraph_hexes(h, s, tg, ntg);
    if (p->n_path >= 2) {
        SDL_Color pc = p->path_ok ? C_PATH : C_BAD;
        for (int i = 0; i + 1 < p->n_path; i++)
            shape_segment(&h->sb, cell_screen(s, p->path[i]), cell_screen(s, p->path[i + 1]),
                    fmax(2.0, z * 0.12), pc);
        shape_ring(&h->sb, cell_screen(s, p->path[p->n_path - 1]), z * 0.25, z * 0.38, pc);
    }
    shape_flush(&h->sb, r);
    SDL_RenderSetClipRect(r, NULL);
}

/* What lies over the tokens: gauges, effects, the path's cost, the odds,
 * floating numbers, telegraph labels. */
static void draw_marks(hud_t *h, ui_draw_t *d, const ui_state_t *s)
{
    pui_t *p = h->p;
    const battle_t *b = p->play.b;
    SDL_Renderer *r = ui_draw_renderer(d);
    SDL_RenderSetClipRect(r, &h->lay.map);
    double z = s->cam.zoom;
    h->sb.n = 0;
    ui_telegraph_t tg[UI_TELEGRAPH_MAX];
    int ntg = ui_telegraphs(b, tg, UI_TELEGRAPH_MAX);
    /* The actor and the selection get rings (over the names, so a label never hides a ring). */
    if (p->actor >= 0 && !b->u[p->actor].out)
        shape_ring(&h->sb, ui_cam_to_screen(&s->cam, p->anim.pose[p->actor].world), z * 0.78, z * 0.9,
             (SDL_Color){255, 255, 255, 220});
    /* A reaction put to the table: its combatant is ringed in the options' colour. */
    if (pui_needs_answer(p) && battle_active(b, b->ask.who))
        shape_ring(&h->sb, ui_cam_to_screen(&s->cam, p->anim.pose[b->ask.who].world), z * 0.78,
                   z * 0.95, (SDL_Color){240, 120, 30, 240});
    if (p->sel >= 0 && p->sel != p->actor && !b->u[p->sel].out)
        shape_ring(&h->sb, ui_cam_to_screen(&s->cam, p->anim.pose[p->sel].world), z * 0.78, z * 0.86,
             (SDL_Color){86, 180, 233, 230});
    if (p->mode == PUI_TARGET || p->mode == PUI_CONFIRM)
        for (int t = 0; t < b->n; t++) {
            if (!pui_is_target(p, t)) continue;
            bool chosen = p->mode == PUI_CONFIRM && t == p->target;
            vec2_t c = ui_cam_to_screen(&s->cam, p->anim.pose[t].world);
            shape_ring(&h->sb, c, z * 0.8, z * (chosen ? 1.0 : 0.9), C_TARGET);
        }
    draw_token_gauges(h, s);
    /* Animation effects. */
    for (int i = 0; i < p->anim.n_fx; i++)
        shape_fx(&h->sb, &p->anim.fx[i], &s->cam, &SHAPE_FX_LAPTOP);
    shape_flush(&h->sb, r);
    /* Text marks: path cost, odds, floating numbers. */
    int px = ui_text_quantize((int)fmax(11, fmin(22, z * 0.42)));
    char buf[96];
    draw_telegraph_labels(h, d, s, tg, ntg, ui_text_quantize((int)fmax(10, fmin(18, z * 0.34))));
    /* The odds sit above the target; a path label that would cover them
     * (an attack confirmed after a planned move) drops below its hex. */
    SDL_Rect odds = {0, 0, 0, 0};
    if (p->mode == PUI_CONFIRM && p->target >= 0) {
        vec2_t c = ui_cam_to_screen(&s->cam, p->anim.pose[p->target].world);
        /* The ruleset's odds (predict hook); certain either way said in words. */
        if (p->pred.valid && p->pred.p_hit >= 1.0)
            snprintf(buf, sizeof buf, "auto-hit  %.1f dmg", p->pred.dmg_expected);
        else if (p->pred.valid && p->pred.p_hit <= 0.0)
            snprintf(buf, sizeof buf, "can't land from here");
        else if (p->pred.valid)
            snprintf(buf, sizeof buf, "%.0f%% hit  %.1f dmg", p->pred.p_hit * 100,
                     p->pred.dmg_expected);
        else
            snprintf(buf, sizeof buf, "confirm?");
        int w = text_w(d, buf, px, true);
        odds = (SDL_Rect){(int)c.x - w / 2 - 5, (int)(c.y - z * 1.1) - px - 4, w + 10, px + 8};
        fill(r, odds, C_PANEL);
        text(d, buf, px, true, C_TARGET, odds.x + 5, odds.y + 3);
    }
    if (p->n_path >= 2) {
        vec2_t e = cell_screen(s, p->path[p->n_path - 1]);
        snprintf(buf, sizeof buf, "%d ft%s", p->path_cost, p->path_ok ? "" : " (too far)");
        int w = text_w(d, buf, px, true);
        SDL_Rect pr = {(int)e.x - w / 2 - 4, (int)(e.y - z * 0.9) - px, w + 8, px + 6};
        if (odds.w > 0 && SDL_HasIntersection(&pr, &odds)) pr.y = (int)(e.y + z * 0.6);
        fill(r, pr, C_PANEL);
        text(d, buf, px, true, p->path_ok ? C_PATH : C_BAD, pr.x + 4, pr.y + 1);
    }
    for (int i = 0; i < p->anim.n_fx; i++) {
        const anim_fx_t *f = &p->anim.fx[i];
        if (f->kind != FX_NUMBER && f->kind != FX_MISS) continue;
        double u = f->age / f->life;
        vec2_t a = ui_cam_to_screen(&s->cam, f->a);
        if (f->kind == FX_NUMBER)
            snprintf(buf, sizeof buf, "-%d", f->value);
        else
            snprintf(buf, sizeof buf, "miss");
        /* Read from a chair at arm's length and more: a 28th of the
         * window's height at least, larger when zoomed in. */
        int big = ui_text_quantize((int)fmax(s->view_h / 28.0, fmin(48, z * 0.7)));
        int w = text_w(d, buf, big, true);
        SDL_Color col =
            f->kind == FX_NUMBER ? (SDL_Color){255, 90, 60, 255} : (SDL_Color){220, 220, 220, 255};
        int ty = (int)(a.y - z * (0.6 + u * 0.9)) - big;
        /* A dark copy underneath keeps the number readable on any terrain. */
        text(d, buf, big, true, (SDL_Color){10, 10, 12, 255}, (int)a.x - w / 2 + 2, ty + 2);
        text(d, buf, big, true, col, (int)a.x - w / 2, ty);
    }
    SDL_RenderSetClipRect(r, NULL);
}

/* The ruler's ends now, measured; false when it shows nothing. */
static bool ruler_now(const hud_t *h, const ui_state_t *s, cell_t *a, cell_t *e,
                      ui_ruler_measure_t *m)
{
    bool over = s->hover_on_map && in_rect(&h->lay.map, (int)s->mouse_x, (int)s->mouse_y);
    return ui_ruler_ends(&h->ruler, over, s->hover, a, e) &&
           ui_ruler_measure(h->p->play.b, *a, *e, m);
}

/* The ruler on the map: a line from hex centre to hex centre, a dot on each
 * hex it counts, rings at the ends; green in sight with no cover, yellow to
 * orange with cover, red when sight is blocked. Its words are on the status
 * line (never over a token). */
static void draw_ruler(hud_t *h, ui_draw_t *d, const ui_state_t *s)
{
    cell_t a, e;
    ui_ruler_measure_t m;
    if (!ruler_now(h, s, &a, &e, &m)) return;
    SDL_Renderer *r = ui_draw_renderer(d);
    SDL_RenderSetClipRect(r, &h->lay.map);
    double z = s->cam.zoom;
    SDL_Color col = !m.visible                  ? (SDL_Color){213, 94, 0, 255}
                    : m.cover == COVER_NONE     ? (SDL_Color){0, 158, 115, 255}
                    : m.cover == COVER_LIGHT    ? (SDL_Color){240, 228, 66, 255}
                                                : (SDL_Color){230, 159, 0, 255};
    vec2_t pa = cell_screen(s, a), pe = cell_screen(s, e);
    /* The line runs from ring to ring: a token at either end stays in view. */
    double len = hypot(pe.x - pa.x, pe.y - pa.y), cut = fmax(z * 0.7, UI_TOKEN_MIN_PX + 2.0);
    h->sb.n = 0;
    if (len > 2.0 * cut) {
        vec2_t u = {(pe.x - pa.x) / len, (pe.y - pa.y) / len};
        vec2_t sa = {pa.x + u.x * cut, pa.y + u.y * cut}, se = {pe.x - u.x * cut, pe.y - u.y * cut};
        shape_segment(&h->sb, sa, se, fmax(3.0, z * 0.08) + 2, (SDL_Color){15, 15, 18, 230});
        shape_segment(&h->sb, sa, se, fmax(3.0, z * 0.08), col);
    }
    const battle_t *bt = h->p->play.b;
    const map_t *mp = bt->map;
    hex_t line[256];
    int n = hex_line(hex_from_cell(mp->layout, a), hex_from_cell(mp->layout, e), HEX_NUDGE_PLUS,
                     line, 256);
    for (int k = 1; k + 1 < n && k < 256; k++)
        if (board_occupant(bt->board, line[k]) < 0) /* no dot on a token */
            shape_ring(&h->sb, cell_screen(s, hex_to_cell(mp->layout, line[k])), 0,
                       fmax(2.5, z * 0.09), col);
    shape_ring(&h->sb, pa, z * 0.7, z * 0.8, col);
    shape_ring(&h->sb, pe, z * 0.7, z * 0.8, col);
    shape_flush(&h->sb, r);
    SDL_RenderSetClipRect(r, NULL);
}

/* Ctrl+M, a click and Esc for the ruler; true when used. The status line
 * gets what it measures. */
static bool ruler_event(hud_t *h, ui_state_t *s, const SDL_Event *e)
{
    pui_t *p = h->p;
    if (e->type == SDL_KEYDOWN) {
        SDL_Keycode k = e->key.keysym.sym;
        if (k == SDLK_m && (e->key.keysym.mod & KMOD_CTRL)) {
            ui_ruler_toggle(&h->ruler);
            snprintf(p->msg, sizeof p->msg, "%s",
                     h->ruler.on ? "Ruler: click the hex to measure from (Ctrl+M or Esc: off)."
                                 : "Ruler off.");
            return true;
        }
        if (k == SDLK_ESCAPE && h->ruler.on) {
            ui_ruler_toggle(&h->ruler);
            snprintf(p->msg, sizeof p->msg, "Ruler off.");
            return true;
        }
        return false;
    }
    if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT && h->ruler.on) {
        int x = (int)lround(e->button.x * s->px_per_pt), y = (int)lround(e->button.y * s->px_per_pt);
        if (!in_rect(&h->lay.map, x, y)) return false;
        cell_t c;
        if (!ui_pick_cell(s->map, ui_cam_to_world(&s->cam, (vec2_t){x, y}), &c)) return true;
        ui_ruler_click(&h->ruler, c);
        s->hover = c;
        s->hover_on_map = true;
        s->mouse_x = x;
        s->mouse_y = y;
        hud_ruler_status(h, s);
        return true;
    }
    return false;
}

void hud_ruler_status(hud_t *h, const ui_state_t *s)
{
    cell_t a, e;
    ui_ruler_measure_t m;
    if (!h->ruler.on) return;
    char what[96];
    if (ruler_now(h, s, &a, &e, &m))
        snprintf(h->p->msg, sizeof h->p->msg, "Ruler (%d, %d) to (%d, %d): %s%s", a.col, a.row,
                 e.col, e.row, ui_ruler_text(&m, what, sizeof what),
                 h->ruler.fixed ? ". Click: measure again." : "");
    else if (h->ruler.has_a)
        snprintf(h->p->msg, sizeof h->p->msg, "Ruler from (%d, %d): point at a hex.", h->ruler.a.col,
                 h->ruler.a.row);
}

/* ---- panels ------------------------------------------------------------- */

/* Conditions as the rules announced them in the log (condition events on
 * and off), so every ruleset's show without the HUD knowing its bits; "down"
 * or "fled" first for a combatant out of the fight. */
const char *hud_tracker_conditions(const battle_t *b, int i, char *buf, size_t cap)
{
    char list[96] = "";
    const char *state = "";
    /* Off the board, its conditions (cloaked, prone...) no longer matter. */
    if (!b->u[i].out) condlog_text(&b->log, i, list, sizeof list);
    for (char *c = list; *c; c++)
        if (*c == '_') *c = ' '; /* "target_of_opportunity" reads as words, as in the log */
    if (b->u[i].out) {
        state = "down";
        for (int k = b->log.n - 1; k >= 0; k--)
            if (b->log.ev[k].type == EV_FLED && b->log.ev[k].who == i) {
                state = "fled";
                break;
            }
    }
    snprintf(buf, cap, "%s%s%s", state, state[0] && list[0] ? ", " : "", list);
    return buf;
}

/* Initiative order: the ranks the rules announced, then anyone unranked. */
static int order_of(const battle_t *b, int *out)
{
    int rank[MAP_MAX_COMBATANTS];
    for (int i = 0; i < b->n; i++)
        rank[i] = 1 << 20;
    for (int k = 0; k < b->log.n; k++)
        if (b->log.ev[k].type == EV_INITIATIVE && b->log.ev[k].who >= 0 && b->log.ev[k].who < b->n)
            rank[b->log.ev[k].who] = b->log.ev[k].value;
    int n = 0;
    for (int i = 0; i < b->n; i++)
        out[n++] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && rank[out[j]] < rank[out[j - 1]]; j--) {
            int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* A gauge's numbers in the tracker: "heat 2", "armour 4/4". */
static void gauge_text(const gauge_t *g, char *buf, size_t cap)
{
    if (g->kind == GAUGE_LOAD)
        snprintf(buf, cap, "%s %d", g->label, g->value);
    else
        snprintf(buf, cap, "%s %d/%d", g->label, g->value, g->max);
}

/* Lines the gauges g[k0..ng) take in the tracker between x and right. */
static int gauge_rows(ui_draw_t *d, const gauge_t *g, int k0, int ng, const hud_layout_t *l, int x,
                      int right)
{
    int rows = ng > k0 ? 1 : 0, gx = x + l->px + 4, small = ui_text_quantize(l->px - 2);
    char buf[96];
    for (int j = k0; j < ng; j++) {
        gauge_text(&g[j], buf, sizeof buf);
        int w = l->px * 2 + 3 + text_w(d, buf, small, false);
        if (gx > x + l->px + 4 && gx + w > right) {
            gx = x + l->px + 4;
            rows++;
        }
        gx += w + l->px / 2;
    }
    return rows;
}

static void draw_tracker(hud_t *h, ui_draw_t *d, const ui_state_t *s)
{
    pui_t *p = h->p;
    const battle_t *b = p->play.b;
    SDL_Renderer *r = ui_draw_renderer(d);
    const hud_layout_t *l = &h->lay;
    if (l->tracker.w <= 0) return;
    fill(r, l->tracker, C_PANEL);
    SDL_RenderSetClipRect(r, &l->tracker);
    int x = l->tracker.x + l->px / 2, y = l->tracker.y + l->px / 2;
    char buf[128];
    snprintf(buf, sizeof buf, "Round %d", b->round > 0 ? b->round : 1);
    text(d, buf, ui_text_quantize(l->px + 4), true, C_HEAD, x, y);
    y += l->line + l->px / 2;
    /* The turns to come, when the ruleset forecasts them (its queue hook). */
    turn_slot_t q[QUEUE_MAX];
    int nq = ruleset_queue(p->play.rs, b, q, 4);
    if (nq > 0) {
        size_t at = (size_t)snprintf(buf, sizeof buf, "Next:");
        for (int k = 0; k < nq && at < sizeof buf; k++)
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s %s%s%s", k ? "," : "",
                                   q[k].who >= 0 ? pui_name(p, q[k].who) : b->board->side_name[q[k].side],
                                   q[k].label[0] ? " " : "", q[k].label);
        text(d, buf, ui_text_quantize(l->px - 2), false, C_DIM, x, y);
        y += l->line;
    }
    int order[MAP_MAX_COMBATANTS];
    int n = order_of(b, order);
    int small = ui_text_quantize(l->px - 2), right = l->tracker.x + l->tracker.w - l->px / 2;
    /* The gauges past HP take lines of their own, wrapped to the panel's
     * width; when every row cannot fit, only the actor keeps them (the card
     * has them all). */
    int need = 0;
    for (int k = 0; k < n; k++) {
        gauge_t g[GAUGES_MAX];
        int k0, ng = token_gauges(h, order[k], g, &k0);
        need += l->line * (2 + (b->u[order[k]].out ? 0 : gauge_rows(d, g, k0, ng, l, x, right)))
                + 2;
    }
    bool all_gauges = y + need <= l->tracker.y + l->tracker.h;
    for (int k = 0; k < n && y < l->tracker.y + l->tracker.h - l->line; k++) {
        int i = order[k];
        bool cur = i == p->actor;
        gauge_t g[GAUGES_MAX];
        int k0, ng = token_gauges(h, i, g, &k0);
        /* The first gauge is HP when it matches; the rest get lines below. */
        int more = b->u[i].out || (!all_gauges && !cur) ? 0 : gauge_rows(d, g, k0, ng, l, x, right);
        int row_h = l->line * (2 + more);
        if (cur)
            fill(r, (SDL_Rect){l->tracker.x, y - 2, l->tracker.w, row_h},
                 (SDL_Color){60, 72, 96, 255});
        if (i == p->sel)
            fill(r, (SDL_Rect){l->tracker.x, y - 2, 4, row_h}, (SDL_Color){86, 180, 233, 255});
        if (pui_needs_die(p) && b->need.who == i) {
            /* The combatant a physical die is awaited for: an orange frame
             * and the die at the end of its row. */
            SDL_Rect fr = {l->tracker.x + 1, y - 2, l->tracker.w - 2, row_h};
            SDL_SetRenderDrawColor(r, 230, 159, 0, 255);
            SDL_RenderDrawRect(r, &fr);
            fr = (SDL_Rect){fr.x + 1, fr.y + 1, fr.w - 2, fr.h - 2};
            SDL_RenderDrawRect(r, &fr);
            char die[24];
            snprintf(die, sizeof die, "rolls d%d", b->need.sides);
            int dw = text_w(d, die, l->px, true);
            text(d, die, l->px, true, (SDL_Color){230, 159, 0, 255},
                 l->tracker.x + l->tracker.w - dw - l->px / 2, y);
        }
        SDL_Color fc = ui_faction_color(b->map, b->map->combatants[i].faction);
        fill(r, (SDL_Rect){x, y + 3, l->px - 2, l->px - 2}, fc);
        SDL_Color ink = b->u[i].out ? C_DIM : C_INK;
        snprintf(buf, sizeof buf, "%s%s", cur ? "> " : "", pui_name(p, i));
        text(d, buf, l->px, cur, ink, x + l->px + 4, y);
        /* HP bar and numbers on the second line. */
        int bw = l->tracker.w / 3, by = y + l->line + 2;
        fill(r, (SDL_Rect){x + l->px + 4, by + 3, bw, l->px / 2}, (SDL_Color){50, 50, 56, 255});
        int hpw = b->u[i].hp_max > 0 ? bw * (b->u[i].hp > 0 ? b->u[i].hp : 0) / b->u[i].hp_max : 0;
        fill(r, (SDL_Rect){x + l->px + 4, by + 3, hpw, l->px / 2},
             ui_hp_color(b->u[i].hp, b->u[i].hp_max));
        char cond[104];
        snprintf(buf, sizeof buf, "%d/%d %s", b->u[i].hp, b->u[i].hp_max,
                 hud_tracker_conditions(b, i, cond, sizeof cond));
        text(d, buf, ui_text_quantize(l->px - 2), false, C_DIM, x + l->px + 8 + bw, by - 2);
        /* Armour, heat, points...: a short bar and its numbers each. */
        int gx = x + l->px + 4, gy = by + l->line;
        for (int j = k0; j < ng && more; j++) {
            int mw = l->px * 2, fw = g[j].max > 0 ? mw * (g[j].value > 0 ? g[j].value : 0) / g[j].max : 0;
            gauge_text(&g[j], buf, sizeof buf);
            int w = mw + 3 + text_w(d, buf, small, false);
            if (gx > x + l->px + 4 && gx + w > right) { /* wrap */
                gx = x + l->px + 4;
                gy += l->line;
            }
            fill(r, (SDL_Rect){gx, gy + 3, mw, l->px / 2}, (SDL_Color){50, 50, 56, 255});
            if (fw > 0)
                fill(r, (SDL_Rect){gx, gy + 3, fw < mw ? fw : mw, l->px / 2}, hud_gauge_color(&g[j]));
            text(d, buf, small, false, C_DIM, gx + mw + 3, gy - 2);
            gx += w + l->px / 2;
        }
        y += row_h + 2;
    }
    (void)s;
    SDL_RenderSetClipRect(r, NULL);
}

void hud_roll_text(const pui_t *p, const event_t *e, char *buf, size_t cap)
{
    char dice[64] = "", kept[48] = "";
    size_t n = 0;
    for (int k = 0; k < e->n_dice && k < EV_MAX_DICE; k++) {
        int w = snprintf(dice + n, sizeof dice - n, "%s%d", k ? " " : "", e->dice[k]);
        if (w < 0 || (size_t)w >= sizeof dice - n) break;
        n += (size_t)w;
    }
    if (e->kept_n > 0 && e->kept_n < e->n_dice) {
        n = 0;
        for (int k = 0; k < e->kept_n && k < EV_MAX_DICE; k++) {
            int w = snprintf(kept + n, sizeof kept - n, "%s%d", k ? " " : " k", e->kept[k]);
            if (w < 0 || (size_t)w >= sizeof kept - n) break;
            n += (size_t)w;
        }
    }
    char mod[16] = "", why[96];
    if (e->mod) snprintf(mod, sizeof mod, " %+d", e->mod);
    if (roll_counts(&e->spec)) {
        /* Successes or a pass: say which, not a sum nobody reads. */
        char res[48];
        if (e->spec.count_at > 0 && e->successes < 0)
            /* A net below zero: no successes, and a botch (what it does is the ruleset's). */
            snprintf(res, sizeof res, "0 successes, a botch (net %d)", e->successes);
        else if (e->spec.count_at > 0)
            snprintf(res, sizeof res, "%d success%s", e->successes, e->successes == 1 ? "" : "es");
        else
            snprintf(res, sizeof res, "%d, %s", e->total, e->successes ? "passes" : "fails");
        snprintf(buf, cap, "%s %s: %dd%d [%s]%s = %s", e->who >= 0 ? pui_name(p, e->who) : "table",
                 pui_why(p, e->name, why, sizeof why), e->n_dice, e->sides, dice, kept, res);
        return;
    }
    snprintf(buf, cap, "%s %s: %dd%d [%s]%s%s = %d", e->who >= 0 ? pui_name(p, e->who) : "table",
             pui_why(p, e->name, why, sizeof why), e->n_dice, e->sides, dice, kept, mod, e->total);
}

hud_log_kind_t hud_log_kind(const event_t *e)
{
    switch (e->type) {
    case EV_ROLL:
        return HUD_LOG_ROLL;
    case EV_ROUND_END:
        return HUD_LOG_ROUND; /* a separator between the rounds */
    case EV_ATTACK:
    case EV_DAMAGE:
    case EV_CONDITION:
    case EV_REACTION:
    case EV_DEFEATED:
    case EV_FLED:
    case EV_ACTION:
    case EV_DECLARE:
    case EV_STAT:
    case EV_TERRAIN:
    case EV_PHASE:
    case EV_AREA:
        return HUD_LOG_STORY;
    default:
        return HUD_LOG_NONE; /* turns, rounds, steps and the end have their own displays */
    }
}

/* An identifier as words: "glass_mandibles" -> "glass mandibles". */
static const char *words(const char *id, char *out, size_t cap)
{
    size_t n = 0;
    for (; id[n] && n + 1 < cap; n++)
        out[n] = id[n] == '_' ? ' ' : id[n];
    out[n] = '\0';
    return out;
}

/* What an action event says, in words. */
static void action_text(const event_t *e, const char *who, const char *tgt, char *buf, size_t cap)
{
    const char *n = e->name;
    char w[EV_NAME_MAX];
    if (strcmp(n, "secondary") == 0)
        snprintf(buf, cap, "(that was %s's secondary action)", who);
    else if (strcmp(n, "assist") == 0)
        snprintf(buf, cap, "%s assists against %s", who, tgt);
    else if (strcmp(n, "search") == 0)
        snprintf(buf, cap, e->hit ? "%s searches and finds a hider" : "%s searches: nobody found",
                 who);
    else if (strcmp(n, "dash") == 0 || strcmp(n, "thrust") == 0)
        snprintf(buf, cap, "%s %ses", who, n);
    else if (strcmp(n, "standby") == 0 || strcmp(n, "standby_move") == 0)
        snprintf(buf, cap, "%s stands by%s%s", who, e->target >= 0 ? " for " : "",
                 e->target >= 0 ? tgt : "");
    else if (strcmp(n, "act_first") == 0)
        snprintf(buf, cap, e->hit ? "%s is quick enough to act first" : "%s acts after the enemy",
                 who);
    else if (strcmp(n, "grapple") == 0)
        snprintf(buf, cap, e->hit ? "%s grapples %s" : "%s fails to grapple %s", who, tgt);
    else if (strcmp(n, "shove_push") == 0)
        snprintf(buf, cap, e->hit ? "%s shoves %s back" : "%s fails to shove %s", who, tgt);
    else if (strcmp(n, "shove_knock") == 0)
        snprintf(buf, cap, e->hit ? "%s knocks %s down" : "%s fails to knock %s down", who, tgt);
    else if (strcmp(n, "escape") == 0)
        snprintf(buf, cap, e->hit ? "%s breaks free of %s" : "%s fails to break free of %s", who,
                 tgt);
    else if (e->target >= 0)
        snprintf(buf, cap, "%s: %s %s%s", who, words(n, w, sizeof w), tgt,
                 e->hit ? "" : " (failed)");
    else
        snprintf(buf, cap, "%s: %s%s", who, words(n, w, sizeof w), e->hit ? "" : " (failed)");
}

hud_log_kind_t hud_log_text(const pui_t *p, const event_t *e, char *buf, size_t cap)
{
    hud_log_kind_t kind = hud_log_kind(e);
    buf[0] = '\0';
    if (kind == HUD_LOG_ROLL) {
        hud_roll_text(p, e, buf, cap);
        return kind;
    }
    if (kind == HUD_LOG_ROUND) {
        snprintf(buf, cap, "end of round %d", e->value);
        return kind;
    }
    const char *who = e->who >= 0 ? pui_name(p, e->who) : "table";
    const char *tgt = e->target >= 0 ? pui_name(p, e->target) : "-";
    char w[EV_NAME_MAX];
    switch (e->type) {
    case EV_ATTACK:
        if (e->target < 0) /* an area with nobody singled out: its hexes say who is caught */
            snprintf(buf, cap, "%s attacks an area (%s)", who, words(e->name, w, sizeof w));
        else
            snprintf(buf, cap, "%s %s %s (%s)", who, e->hit ? "hits" : "misses", tgt,
                     words(e->name, w, sizeof w));
        break;
    case EV_DAMAGE: {
        char extra[64] = "";
        int n = 0;
        if (e->opt & EV_OPT_SOAKED) n += snprintf(extra + n, sizeof extra - (size_t)n, ", %d soaked", e->soaked);
        if ((e->opt & EV_OPT_ARMOR) && n >= 0 && (size_t)n < sizeof extra)
            snprintf(extra + n, sizeof extra - (size_t)n, ", %d on armour", e->armor);
        snprintf(buf, cap, "%s takes %d%s%s%s, %d HP left", tgt, e->amount, e->name[0] ? " " : "",
                 e->name[0] ? words(e->name, w, sizeof w) : "", extra, e->hp);
        break;
    }
    case EV_PHASE:
        snprintf(buf, cap, "%s phase, round %d", words(e->name, w, sizeof w), e->value);
        break;
    case EV_CONDITION:
        snprintf(buf, cap, e->on ? "%s is %s" : "%s is no longer %s", who,
                 words(e->name, w, sizeof w));
        break;
    case EV_REACTION:
        snprintf(buf, cap, "%s reacts to %s (%s)", who, tgt, words(e->name, w, sizeof w));
        break;
    case EV_DEFEATED:
        snprintf(buf, cap, "%s is defeated", who);
        break;
    case EV_FLED:
        snprintf(buf, cap, "%s leaves the battle", who);
        break;
    case EV_ACTION:
        action_text(e, who, tgt, buf, cap);
        break;
    case EV_DECLARE:
        if ((e->opt & EV_OPT_VALUE) && e->value > 0)
            snprintf(buf, cap, "%s's %s lands in %d%s%s", who, words(e->name, w, sizeof w),
                     e->value, e->target >= 0 ? " on " : "", e->target >= 0 ? tgt : "");
        else if (e->opt & EV_OPT_VALUE)
            snprintf(buf, cap, "%s's %s lands", who, words(e->name, w, sizeof w));
        else
            snprintf(buf, cap, "%s declares %s%s%s", who, words(e->name, w, sizeof w),
                     e->target >= 0 ? " on " : "", e->target >= 0 ? tgt : "");
        break;
    case EV_STAT:
        snprintf(buf, cap, "%s: %s is now %d", who, words(e->name, w, sizeof w), e->value);
        break;
    case EV_TERRAIN:
        snprintf(buf, cap, "hex %d,%d becomes %s", e->to.col, e->to.row,
                 words(e->name, w, sizeof w));
        break;
    case EV_AREA: /* "Vex: blast of 1 hex at 5,6", "Ada: cone of 6 hexes towards 9,2" */
        snprintf(buf, cap, "%s: %s of %d hex%s %s %d,%d", who, e->name, e->value,
                 e->value == 1 ? "" : "es",
                 strcmp(e->name, "blast") == 0   ? "at"
                 : strcmp(e->name, "burst") == 0 ? "around"
                                                 : "towards",
                 e->to.col, e->to.row);
        break;
    default:
        break;
    }
    return kind;
}

/* The combatant the card is about: the token under the cursor, else the
 * selection, else the one acting. */
static int card_who(const hud_t *h, const ui_state_t *s)
{
    const pui_t *p = h->p;
    const battle_t *b = p->play.b;
    if (s && s->hover_on_map && in_rect(&h->lay.map, (int)s->mouse_x, (int)s->mouse_y)) {
        int o = board_occupant(b->board, hex_from_cell(b->map->layout, s->hover));
        if (o >= 0) return o;
    }
    return p->sel >= 0 ? p->sel : p->actor;
}

/* The top of the right panel: the card, then the overlays' legend (never on
 * the map). Returns where the battle log may start. */
static int draw_side(hud_t *h, ui_draw_t *d, const ui_state_t *s)
{
    const hud_layout_t *l = &h->lay;
    SDL_Renderer *r = ui_draw_renderer(d);
    fill(r, l->log, C_PANEL);
    int x = l->log.x + l->px / 2, y = l->log.y + l->px / 2, w = l->log.w - l->px;
    /* Never more than half the panel: the log keeps the rest. */
    SDL_Rect room = {l->log.x, l->log.y, l->log.w, l->log.h / 2};
    SDL_RenderSetClipRect(r, &room);
    ui_card_build(h->p, card_who(h, s), &h->card);
    int ch = ui_card_draw(d, &h->card, x, y, w, ui_text_quantize(l->px - 1));
    if (ch > 0) y += ch + l->px / 2;
    if (s && s->overlay) {
        /* Whole rows of the legend only: the clip ends at a row's edge (the
         * legend's rows are 1.45 text sizes apart under a half-size pad,
         * overlay.c), so the last one is never cut through its words. */
        int lpx = ui_text_quantize(l->px - 1), row_h = (int)lround(lpx * 1.45);
        int pad = lpx / 2 + 2, rows = (room.y + room.h - y - pad) / (row_h > 0 ? row_h : 1);
        SDL_Rect lroom = room;
        if (rows >= 0) lroom.h = y + pad + rows * row_h - room.y;
        if (lroom.h < room.h) SDL_RenderSetClipRect(r, &lroom);
        int lh = ui_overlay_draw_legend(s->overlay, r, ui_draw_text(d), l->log.x + l->px / 4, y,
                                        l->log.w - l->px / 2, lpx);
        if (lh > 0) y += lh + l->px / 2;
        if (y > lroom.y + lroom.h) y = lroom.y + lroom.h + l->px / 2;
    }
    SDL_RenderSetClipRect(r, NULL);
    if (y > room.y + room.h) y = room.y + room.h;
    h->side = (SDL_Rect){l->log.x, l->log.y, l->log.w, y - l->log.y};
    if (y > l->log.y + l->px / 2) {
        SDL_SetRenderDrawColor(r, 60, 66, 80, 255);
        SDL_RenderDrawLine(r, l->log.x + l->px / 2, y - l->px / 4, l->log.x + l->log.w - l->px / 2,
                           y - l->px / 4);
    }
    return y;
}

/* The battle log from y0 down to the bottom of the right panel. */
static void draw_log(hud_t *h, ui_draw_t *d, int y0)
{
    pui_t *p = h->p;
    const battle_t *b = p->play.b;
    SDL_Renderer *r = ui_draw_renderer(d);
    const hud_layout_t *l = &h->lay;
    if (l->log.w <= 0) return;
    SDL_Rect area = {l->log.x, y0, l->log.w, l->log.y + l->log.h - y0};
    SDL_RenderSetClipRect(r, &area);
    int x = l->log.x + l->px / 2;
    text(d, p->log_scroll ? "Battle log (scrolled; wheel)" : "Battle log", ui_text_quantize(l->px + 4),
         true, C_HEAD, x, y0 + l->px / 4);
    int top = y0 + l->px / 4 + l->line + l->px / 2;
    int small = ui_text_quantize(l->px - 2);
    int lh = (int)lround(small * 1.4);
    /* Newest at the bottom; walk back from the newest, skipping the scroll. */
    int y = l->log.y + l->log.h - lh - l->px / 3;
    int skip = p->log_scroll;
    char buf[160];
    for (int k = b->log.n - 1; k >= 0 && y >= top; k--) {
        const event_t *e = &b->log.ev[k];
        hud_log_kind_t kind = hud_log_kind(e);
        if (kind == HUD_LOG_NONE) continue;
        if (skip-- > 0) continue;
        hud_log_text(p, e, buf, sizeof buf);
        if (kind == HUD_LOG_ROUND) {
            /* A rule across the panel with the round's end in its middle. */
            int tw = text_w(d, buf, small, true), mid = l->log.x + l->log.w / 2;
            SDL_SetRenderDrawColor(r, 86, 180, 233, 200);
            int ly = y + lh / 2;
            SDL_RenderDrawLine(r, x, ly, mid - tw / 2 - small / 2, ly);
            SDL_RenderDrawLine(r, mid + tw / 2 + small / 2, ly, l->log.x + l->log.w - l->px / 2, ly);
            text(d, buf, small, true, C_HEAD, mid - tw / 2, y);
            y -= lh;
            continue;
        }
        /* A line wider than the panel wraps at spaces (a narrow window),
         * the later pieces indented; drawn bottom-up like the log. */
        int cut[4], n_cut = 0, from = 0, len = (int)strlen(buf), avail = l->log.w - l->px;
        while (from < len && n_cut < 4) {
            int end = len;
            char piece[160];
            for (;;) {
                int m = end - from < (int)sizeof piece ? end - from : (int)sizeof piece - 1;
                memcpy(piece, buf + from, (size_t)m);
                piece[m] = 0;
                if (text_w(d, piece, small, false) + (n_cut ? small : 0) <= avail) break;
                int sp = end - 1;
                while (sp > from && buf[sp] != ' ')
                    sp--;
                if (sp <= from) break; /* one long word: let the clip cut it */
                end = sp;
            }
            cut[n_cut++] = end;
            from = end;
            while (from < len && buf[from] == ' ')
                from++;
        }
        /* Rolls in white, what happened in blue; lines not yet animated are
         * there already (the truth), but dimmer. */
        SDL_Color ink = kind == HUD_LOG_ROLL ? C_INK : C_STORY;
        if (k >= p->anim.cursor) ink = C_DIM;
        for (int c = n_cut - 1; c >= 0 && y >= top; c--) {
            int start = c == 0 ? 0 : cut[c - 1];
            while (start < len && buf[start] == ' ')
                start++;
            char piece[160];
            int m = cut[c] - start;
            memcpy(piece, buf + start, (size_t)m);
            piece[m] = 0;
            text(d, piece, small, false, ink, x + (c ? small : 0), y);
            y -= lh;
        }
    }
    SDL_RenderSetClipRect(r, NULL);
}

static void draw_bar(hud_t *h, ui_draw_t *d)
{
    pui_t *p = h->p;
    const battle_t *b = p->play.b;
    SDL_Renderer *r = ui_draw_renderer(d);
    const hud_layout_t *l = &h->lay;
    fill(r, l->bar, (SDL_Color){26, 29, 36, 245});
    fill(r, l->status, (SDL_Color){14, 16, 20, 245});
    char buf[256];
    if (pui_needs_die(p)) {
        pui_die_prompt(p, buf, sizeof buf);
        char head[96];
        snprintf(head, sizeof head, "d%d: %s", b->need.sides, p->n_entry ? p->entry : "_");
        text(d, head, ui_text_quantize(l->px + 4), true, C_PATH, l->bar.x + l->px,
             l->bar.y + (l->bar.h - l->px) / 2 - 2);
        int sides = b->need.sides;
        for (int v = 1; v <= sides && v <= 20; v++) {
            SDL_Rect f = hud_face_rect(h, v);
            if (f.x + f.w > l->bar.x + l->bar.w) break;
            fill(r, f, (SDL_Color){70, 76, 90, 255});
            char num[8];
            snprintf(num, sizeof num, "%d", v);
            int w = text_w(d, num, l->px, true);
            text(d, num, l->px, true, C_INK, f.x + (f.w - w) / 2, f.y + (f.h - l->px) / 2 - 2);
        }
        text(d, "type the value + Enter, or click a face", ui_text_quantize(l->px - 1), false,
             C_DIM, l->bar.x + l->px * 7, l->bar.y + (l->bar.h - l->px) / 2);
    } else if (pui_needs_answer(p)) {
        /* A reaction for the table: each option is a button, 0 lets it pass. */
        const react_request_t *q = &b->ask;
        for (int i = 0; i < q->n; i++) {
            SDL_Rect br = hud_answer_rect(h, i);
            if (br.x + br.w > l->bar.x + l->bar.w) break;
            fill(r, br, i ? (SDL_Color){150, 70, 20, 255} : (SDL_Color){58, 64, 78, 255});
            char whole[160];
            snprintf(whole, sizeof whole, "%d  %s", i,
                     q->labels[i][0] ? q->labels[i] : i ? "take it" : "pass");
            int bpx = ui_text_quantize(l->px - 1);
            hud_fit_text(d, whole, bpx, br.w - l->px, buf, sizeof buf);
            text(d, buf, bpx, false, C_INK, br.x + l->px / 2, br.y + (br.h - l->px) / 2 - 1);
        }
    } else if (!p->user_turn && !b->over && p->actor >= 0) {
        snprintf(buf, sizeof buf, "%s (AI) is acting...   Space: skip animation   [ ]: speed x%.2g",
                 pui_name(p, p->actor), p->anim.speed);
        text(d, buf, l->px, false, C_DIM, l->bar.x + l->px, l->bar.y + (l->bar.h - l->px) / 2 - 2);
    } else {
        for (int i = 0; i < p->n_bar; i++) {
            SDL_Rect br = hud_button_rect(h, i);
            if (br.x + br.w > l->bar.x + l->bar.w) break;
            bool on = (p->mode != PUI_IDLE && p->act == i) || h->hover_btn == i;
            bool off = p->bar[i].off; /* refused now: greyed, the tooltip says why */
            fill(r, br, off ? (SDL_Color){40, 42, 48, 255}
                        : on ? (SDL_Color){0, 114, 178, 255} : (SDL_Color){58, 64, 78, 255});
            char whole[96];
            snprintf(whole, sizeof whole, "%c  %s", p->bar[i].key ? p->bar[i].key : ' ',
                     p->bar[i].label);
            int bpx = ui_text_quantize(l->px - 1);
            hud_fit_text(d, whole, bpx, br.w - l->px, buf, sizeof buf);
            text(d, buf, bpx, false, off ? C_DIM : C_INK, br.x + l->px / 2,
                 br.y + (br.h - l->px) / 2 - 1);
        }
    }
    /* The weapon in hand of the combatant whose bar this is, at the right of
     * the status line (the message keeps the rest). */
    int held_w = 0;
    if (p->user_turn && p->actor >= 0) {
        const battle_t *bt = p->play.b;
        const weapon_t *w = battle_weapon(bt, p->actor, bt->u[p->actor].equipped);
        char held[96];
        if (w)
            snprintf(held, sizeof held, "In hand: %.60s", w->name[0] ? w->name : w->id);
        else
            snprintf(held, sizeof held, "%s", bt->u[p->actor].n_weapons ? "Every weapon at hand"
                                                                       : "Unarmed");
        held_w = text_w(d, held, l->px, true) + 2 * l->px;
        text(d, held, l->px, true, C_PATH, l->status.x + l->status.w - held_w + l->px,
             l->status.y + (l->status.h - l->px) / 2 - 2);
    }
    char msg[sizeof p->msg + 4];
    hud_fit_text(d, p->msg, l->px, l->status.w - held_w - 2 * l->px, msg, sizeof msg);
    text(d, msg, l->px, false, C_INK, l->status.x + l->px,
         l->status.y + (l->status.h - l->px) / 2 - 2);
    /* The tooltip of the hovered button names its shortcut. */
    if (h->hover_btn >= 0 && h->hover_btn < p->n_bar && !pui_needs_die(p)) {
        const pui_action_t *a = &p->bar[h->hover_btn];
        char key[16] = "no key";
        if (a->key) snprintf(key, sizeof key, "key %c", a->key);
        if (a->off)
            snprintf(buf, sizeof buf, "%s - not now: %s", a->label, a->why);
        else if (a->kind == CMD_END)
            snprintf(buf, sizeof buf, "%s - %s, E or Space", a->label, key);
        else
            snprintf(buf, sizeof buf, "%s - %s%s", a->label, key,
                     a->group ? ", opens its choices (Esc goes back)"
                     : a->targeted ? ", then click a target (Tab cycles), Enter confirms"
                     : a->kind == CMD_TELEPORT || a->kind == CMD_DISMOUNT || a->kind == CMD_USE ||
                             (a->kind == CMD_STANDBY && a->act == CMD_MOVE)
                         ? ", then click the hex"
                         : "");
        SDL_Rect br = hud_button_rect(h, h->hover_btn);
        int w = text_w(d, buf, l->px, false);
        SDL_Rect tip = {br.x, br.y - l->line - 8, w + l->px, l->line + 4};
        if (tip.x + tip.w > l->bar.x + l->bar.w) tip.x = l->bar.x + l->bar.w - tip.w;
        if (tip.x < 0) tip.x = 0;
        fill(r, tip, (SDL_Color){250, 246, 220, 245});
        text(d, buf, l->px, false, (SDL_Color){20, 20, 24, 255}, tip.x + l->px / 2, tip.y + 2);
    }
}

static const char *const HELP[] = {
    "Mouse: left-click a token to select it; a shaded hex to move there (or drag your token)",
    "Right-click a token: its actions (click or key, Esc closes); right/middle drag pans",
    "Wheel zooms (over the battle log it scrolls)",
    "1-9, 0, then G J K L M N...: the action bar buttons (hover a button for its key)",
    "A button ending in ... opens its choices (standby, shove, switch, dual strike); Esc goes back",
    "Shift+click: plan a move leg by leg; the click on the last hex moves (Esc drops the plan)",
    "Attack: choose it, click a target (Tab cycles), Enter or click again confirms",
    "Esc: cancel targeting / close this help",
    "E or Space: end the turn (Space during animation: skip ahead)",
    "Ctrl+Z or Backspace: undo the last command      Ctrl+S: save the battle",
    "Ctrl+O: open a map or a saved battle (recent, saves, bundled maps, N: new map)",
    "P: physical dice on/off for the current side; type the value + Enter",
    "F4: put the players' reactions (interrupts, opportunity...) to the table; 0-9 answers",
    "[ and ]: animation slower / faster      C: camera follows the actor",
    "Arrows / WASD: pan     + / -: zoom     F or Home: fit the map",
    "F5 reach  F6 threat  F7 flanking  F8 weapon range  F9 sight  F10 area: overlays on/off",
    "Ctrl+M: ruler (click a hex, point or click another: feet, hexes, sight, cover; Esc: off)",
    "Hover a token for its card (right panel): HP, stats, moves left, weapons, conditions",
    "F3: the referee's calls about the selected combatant (a save, a mark, override a hit...)",
    "O: odds from here (AI play on every side); a chosen move or attack shows what it changes",
    "F2 or Ctrl+P: projector window on/off (Ctrl+R rotate, Ctrl+F fit, Ctrl+K calibrate)",
    "?: this help     F11: fullscreen     Q: quit (asks when moves are unsaved)",
};

static void draw_help(hud_t *h, ui_draw_t *d, const ui_state_t *s)
{
    SDL_Renderer *r = ui_draw_renderer(d);
    const hud_layout_t *l = &h->lay;
    int n = (int)(sizeof HELP / sizeof HELP[0]);
    int w = 0;
    for (int i = 0; i < n; i++) {
        int tw = text_w(d, HELP[i], l->px, false);
        if (tw > w) w = tw;
    }
    w += 2 * l->px;
    int hh = (n + 2) * l->line + l->px;
    SDL_Rect box = {(s->view_w - w) / 2, (s->view_h - hh) / 2, w, hh};
    fill(r, (SDL_Rect){0, 0, s->view_w, s->view_h}, (SDL_Color){0, 0, 0, 120});
    fill(r, box, (SDL_Color){24, 28, 36, 250});
    text(d, "Keys", ui_text_quantize(l->px + 4), true, C_HEAD, box.x + l->px, box.y + l->px / 2);
    for (int i = 0; i < n; i++)
        text(d, HELP[i], l->px, false, C_INK, box.x + l->px,
             box.y + l->px / 2 + (i + 1) * l->line + l->px / 2);
    (void)h;
}

static void draw_end(hud_t *h, ui_draw_t *d)
{
    char buf[128];
    const char *res = pui_result(h->p, buf, sizeof buf);
    if (!res) return;
    SDL_Renderer *r = ui_draw_renderer(d);
    const hud_layout_t *l = &h->lay;
    /* As large as fits in the map area, never over the side panels. */
    int big = ui_text_quantize(l->px * 3);
    int w = text_w(d, res, big, true) + 4 * l->px;
    for (int k = 0; k < 8 && w > l->map.w && big > l->px; k++) {
        big = ui_text_quantize(big * 4 / 5);
        w = text_w(d, res, big, true) + 4 * l->px;
    }
    SDL_Rect box = {l->map.x + (l->map.w - w) / 2, l->map.y + l->map.h / 2 - big, w,
                    big * 2 + l->line};
    fill(r, box, (SDL_Color){16, 18, 24, 235});
    bool win = strncmp(res, "VICTORY", 7) == 0;
    text(d, res, big, true, win ? C_HEAD : C_BAD, box.x + 2 * l->px, box.y + big / 3);
    text(d, "Ctrl+Z undoes the last command, Q quits", l->px, false, C_DIM, box.x + 2 * l->px,
         box.y + big + big / 2);
}

void hud_draw(hud_t *h, ui_draw_t *d, const ui_state_t *s)
{
    if (!h->p || !h->p->started) return;
    /* The tokens and names the map just drew, for the token menu. */
    const battle_t *b = h->p->play.b;
    h->n_drawn = b->n < MAP_MAX_COMBATANTS ? b->n : MAP_MAX_COMBATANTS;
    h->drawn_cam = s->cam;
    for (int i = 0; i < h->n_drawn; i++)
        if (!ui_draw_token_drawn(d, i, &h->drawn[i])) h->drawn[i].on = false;
    SDL_SetRenderDrawBlendMode(ui_draw_renderer(d), SDL_BLENDMODE_BLEND);
    draw_marks(h, d, s);
    ui_declared_draw(h->p, d, &s->cam, h->lay.map, ui_text_quantize(h->lay.px - 1));
    draw_ruler(h, d, s);
    draw_tracker(h, d, s);
    if (h->lay.log.w > 0) draw_log(h, d, draw_side(h, d, s));
    draw_bar(h, d);
    draw_end(h, d);
    ui_calls_draw(&h->calls, h->p, d, h->lay.map, h->lay.px, h->lay.line);
    ui_odds_draw(&h->odds, h->p, d, h->lay.map, h->lay.px, h->lay.line);
    ui_token_menu_draw(&h->menu, h->p, d);
    if (h->p->help) draw_help(h, d, s);
}
