/* token_menu.c - the right-click menu of a token (see token_menu.h). */
#include "token_menu.h"

#include <stdio.h>
#include <string.h>

#include "hud.h"
#include "text.h"

#define PAD 6 /* pixels around the rows' text */

static bool in_rect(SDL_Rect r, int x, int y)
{
    return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h;
}

/* Tokens among boxes[0..n) that r covers. */
static int covered(SDL_Rect r, const SDL_Rect *boxes, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += SDL_HasIntersection(&r, &boxes[i]) ? 1 : 0;
    return k;
}

/* r moved inside area (as far as it fits). */
static SDL_Rect inside(SDL_Rect r, SDL_Rect area)
{
    if (area.w <= 0) return r;
    if (r.x + r.w > area.x + area.w) r.x = area.x + area.w - r.w;
    if (r.y + r.h > area.y + area.h) r.y = area.y + area.h - r.h;
    if (r.x < area.x) r.x = area.x;
    if (r.y < area.y) r.y = area.y;
    return r;
}

void ui_token_menu_open(ui_token_menu_t *m, const pui_t *p, int who, SDL_Rect tok,
                        const SDL_Rect *tokens, int n_tokens, int px, SDL_Rect area)
{
    memset(m, 0, sizeof *m);
    m->who = who;
    m->hot = -1;
    m->n = pui_token_actions(p, who, m->item, PUI_MAX_BAR);
    m->px = px;
    m->row_h = px + 2 * PAD;
    /* Wide enough for the longest row (a key, a gap, the label), within reason. */
    size_t longest = strlen(pui_name(p, who)) + 2;
    for (int k = 0; k < m->n; k++) {
        size_t len = strlen(p->bar[m->item[k]].label) + 4;
        if (len > longest) longest = len;
    }
    if (m->n == 0) {
        pui_no_actions_why(p, who, m->why, sizeof m->why);
        if (longest < strlen(m->why) + 2) longest = strlen(m->why) + 2;
    }
    int w = (int)(longest * (size_t)px * 6 / 10) + 2 * PAD;
    if (w > 30 * px) w = 30 * px;
    int rows = 1 + (m->n > 0 ? m->n : 1);
    int h = rows * m->row_h, gap = 4;
    /* Beside the token and inside the map area: of the spots at most `far`
     * pixels from the token, the one that covers the fewest other tokens,
     * then the nearest, then the nearest to the usual spot (right of the
     * token, level with its top). Never over the token itself. */
    SDL_Rect usual = {tok.x + tok.w + gap, tok.y, w, h};
    int far = 2 * (tok.w > tok.h ? tok.w : tok.h) + 2 * gap, step = 4;
    bool found = false;
    long best[3] = {0, 0, 0};
    for (int y = usual.y - ((usual.y - (tok.y - h - far)) / step) * step; y <= tok.y + tok.h + far;
         y += step)
        for (int x = usual.x - ((usual.x - (tok.x - w - far)) / step) * step;
             x <= tok.x + tok.w + far; x += step) {
            SDL_Rect r = {x, y, w, h};
            if (area.w > 0 &&
                (x < area.x || y < area.y || x + w > area.x + area.w || y + h > area.y + area.h))
                continue;
            if (SDL_HasIntersection(&r, &tok)) continue;
            int dx = x > tok.x + tok.w ? x - (tok.x + tok.w) : tok.x > x + w ? tok.x - (x + w) : 0;
            int dy = y > tok.y + tok.h ? y - (tok.y + tok.h) : tok.y > y + h ? tok.y - (y + h) : 0;
            int d = dx > dy ? dx : dy;
            if (d > far) continue;
            long score[3] = {covered(r, tokens, n_tokens), d < gap ? gap : d,
                             (long)(x - usual.x) * (x - usual.x) +
                                 (long)(y - usual.y) * (y - usual.y)};
            bool better = !found;
            for (int k = 0; k < 3 && !better; k++) {
                if (score[k] != best[k]) {
                    better = score[k] < best[k];
                    break;
                }
            }
            if (better) {
                found = true;
                memcpy(best, score, sizeof best);
                m->box = r;
            }
        }
    if (!found) m->box = inside(usual, area); /* no room beside it: as near as fits */
    m->log_n = p->play.b->log.n;
    m->n_bar = p->n_bar;
    m->open = true;
}

void ui_token_menu_close(ui_token_menu_t *m)
{
    m->open = false;
    m->hot = -1;
}

SDL_Rect ui_token_menu_row(const ui_token_menu_t *m, int k)
{
    return (SDL_Rect){m->box.x, m->box.y + (k + 1) * m->row_h, m->box.w, m->row_h};
}

/* The battle moved on, or the bar changed under the menu: its rows are stale. */
static bool stale(const ui_token_menu_t *m, const pui_t *p)
{
    return p->play.b->log.n != m->log_n || p->n_bar != m->n_bar || !p->user_turn ||
           pui_needs_die(p);
}

static void choose(ui_token_menu_t *m, pui_t *p, int k)
{
    int item = m->item[k], who = m->who;
    ui_token_menu_close(m);
    pui_choose_on(p, item, who);
}

bool ui_token_menu_event(ui_token_menu_t *m, pui_t *p, const SDL_Event *e, int x, int y)
{
    if (!m->open) return false;
    if (stale(m, p)) {
        ui_token_menu_close(m);
        return false;
    }
    switch (e->type) {
    case SDL_KEYDOWN: {
        SDL_Keycode k = e->key.keysym.sym;
        if (k == SDLK_ESCAPE) {
            ui_token_menu_close(m);
            snprintf(p->msg, sizeof p->msg, "Menu closed.");
            return true;
        }
        if (!(e->key.keysym.mod & (KMOD_CTRL | KMOD_ALT | KMOD_GUI)))
            for (int r = 0; r < m->n; r++)
                if (p->bar[m->item[r]].key && (SDL_Keycode)p->bar[m->item[r]].key == k) {
                    choose(m, p, r);
                    return true;
                }
        ui_token_menu_close(m);
        return false;
    }
    case SDL_MOUSEMOTION:
        m->hot = -1;
        for (int r = 0; r < m->n; r++)
            if (in_rect(ui_token_menu_row(m, r), x, y)) m->hot = r;
        return false;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button != SDL_BUTTON_LEFT) {
            ui_token_menu_close(m);
            return false;
        }
        for (int r = 0; r < m->n; r++)
            if (in_rect(ui_token_menu_row(m, r), x, y)) {
                choose(m, p, r);
                return true;
            }
        /* The header keeps the menu; a click elsewhere only closes it. */
        if (!in_rect(m->box, x, y)) ui_token_menu_close(m);
        return true;
    default:
        return false;
    }
}

void ui_token_menu_draw(const ui_token_menu_t *m, const pui_t *p, ui_draw_t *d)
{
    if (!m->open || stale(m, p)) return;
    SDL_Renderer *r = ui_draw_renderer(d);
    ui_text_t *t = ui_draw_text(d);
    const SDL_Color ink = {235, 235, 228, 255}, dim = {160, 164, 170, 255},
                    key = {240, 228, 66, 255};
    SDL_SetRenderDrawColor(r, 20, 23, 29, 255);
    SDL_RenderFillRect(r, &m->box);
    SDL_SetRenderDrawColor(r, 86, 180, 233, 255);
    SDL_RenderDrawRect(r, &m->box);
    char buf[128], fit[128];
    snprintf(buf, sizeof buf, "%s:", pui_name(p, m->who));
    hud_fit_text(d, buf, m->px, m->box.w - 2 * PAD, fit, sizeof fit);
    ui_text_draw(t, fit, m->px, true, dim, m->box.x + PAD, m->box.y + PAD - 2);
    if (m->n == 0) {
        SDL_Rect row = ui_token_menu_row(m, 0);
        hud_fit_text(d, m->why, m->px, m->box.w - 2 * PAD, fit, sizeof fit);
        ui_text_draw(t, fit, m->px, false, dim, row.x + PAD, row.y + PAD - 2);
        return;
    }
    int key_w = m->px * 2;
    for (int k = 0; k < m->n; k++) {
        const pui_action_t *a = &p->bar[m->item[k]];
        SDL_Rect row = ui_token_menu_row(m, k);
        if (k == m->hot) {
            SDL_SetRenderDrawColor(r, 58, 64, 78, 255);
            SDL_RenderFillRect(r, &row);
        }
        char kc[2] = {a->key, 0};
        ui_text_draw(t, kc, m->px, true, key, row.x + PAD, row.y + PAD - 2);
        hud_fit_text(d, a->label, m->px, row.w - key_w - 2 * PAD, fit, sizeof fit);
        ui_text_draw(t, fit, m->px, false, a->off ? dim : ink, row.x + PAD + key_w,
                     row.y + PAD - 2);
    }
}
