/* share_panel.c - sharing the battle from the play window (see share_panel.h). */
#include "share_panel.h"

#include <stdio.h>
#include <string.h>

#ifndef HB_NO_SHARE
#include <qrencode.h>
#endif

#include "../io/cmd_json.h"
#include "text.h"

static const battle_t *host_battle(void *ctx)
{
    return pui_battle(((ui_share_t *)ctx)->play);
}

/* A page's command, checked by the server: applied now through the laptop's
 * own path, or kept for the referee's Enter. */
static battle_status_t host_apply(void *ctx, const cmd_t *c, bool *queued, char *msg, size_t cap)
{
    ui_share_t *u = ctx;
    *queued = false;
    if (u->approve) {
        if (u->pending) {
            snprintf(msg, cap, "another command waits for the referee");
            return BATTLE_ILLEGAL;
        }
        u->pending = true;
        u->pending_cmd = *c;
        const map_t *m = pui_battle(u->play)->map;
        const char *who = c->actor >= 0 && c->actor < m->n_combatants ? m->combatants[c->actor].name : "?";
        if (c->kind == CMD_MOVE && c->n_path > 0)
            snprintf(u->pending_what, sizeof u->pending_what, "%s: move to %d,%d", who,
                     c->path[c->n_path - 1].col, c->path[c->n_path - 1].row);
        else
            snprintf(u->pending_what, sizeof u->pending_what, "%s: %s", who, cmd_kind_name(c->kind));
        *queued = true;
        return BATTLE_OK;
    }
    battle_status_t st = pui_give(u->play, c);
    if (st == BATTLE_ILLEGAL) snprintf(msg, cap, "%s", u->play->msg);
    return st;
}

static battle_status_t host_die(void *ctx, int value, char *msg, size_t cap)
{
    ui_share_t *u = ctx;
    if (pui_enter_die(u->play, value)) return BATTLE_OK;
    snprintf(msg, cap, "%s", u->play->msg);
    return BATTLE_ILLEGAL;
}

/* The address as a QR code texture, one pixel per module with a quiet zone
 * of four; NULL when it cannot be made (the address still shows). */
static SDL_Texture *qr_texture(SDL_Renderer *r, const char *text, int *w_out)
{
#ifdef HB_NO_SHARE
    /* No server in this build (share_off.c): no address to draw. */
    (void)r;
    (void)text;
    *w_out = 0;
    return NULL;
#else
    QRcode *q = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (!q) return NULL;
    int w = q->width + 8;
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, w, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Texture *t = NULL;
    if (s) {
        Uint32 white = SDL_MapRGBA(s->format, 255, 255, 255, 255);
        Uint32 black = SDL_MapRGBA(s->format, 0, 0, 0, 255);
        for (int y = 0; y < w; y++) {
            Uint32 *row = (Uint32 *)((Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch);
            for (int x = 0; x < w; x++) {
                int mx = x - 4, my = y - 4;
                bool dark = mx >= 0 && my >= 0 && mx < q->width && my < q->width &&
                            (q->data[my * q->width + mx] & 1);
                row[x] = dark ? black : white;
            }
        }
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest");
        t = SDL_CreateTextureFromSurface(r, s);
        SDL_FreeSurface(s);
    }
    QRcode_free(q);
    *w_out = w;
    return t;
#endif
}

static void stop(ui_share_t *u)
{
    share_stop(u->srv);
    u->srv = NULL;
    if (u->qr) SDL_DestroyTexture(u->qr);
    u->qr = NULL;
    u->pending = false;
    u->play = NULL;
}

void ui_share_toggle(ui_share_t *u, pui_t *play, SDL_Renderer *r)
{
    if (u->srv) {
        stop(u);
        snprintf(u->msg, sizeof u->msg, "Sharing stopped: every page disconnected.");
        return;
    }
    if (!play || !play->started) {
        snprintf(u->msg, sizeof u->msg, "Nothing to share yet.");
        return;
    }
    u->play = play;
    share_host_t h = {.ctx = u, .battle = host_battle, .apply = host_apply, .enter_die = host_die};
    const char *bind = getenv("HEXBATTLE_SHARE_BIND");
    share_opts_t o = {.loopback = bind && strcmp(bind, "loopback") == 0};
    char err[300];
    u->srv = share_start(&h, &o, err, sizeof err);
    if (!u->srv) {
        u->play = NULL;
        snprintf(u->msg, sizeof u->msg, "Cannot share: %.170s", err);
        return;
    }
    share_url(u->srv, u->url, sizeof u->url);
    u->qr = qr_texture(r, u->url, &u->qr_w);
    u->taken_seen = 0;
    u->pages_seen = 0;
    share_publish(u->srv);
    snprintf(u->msg, sizeof u->msg, "Sharing on %.150s (Ctrl+L stops).", u->url);
}

/* Ctrl+J: give the selected combatant to the next page that is here
 * (after the one holding it; after the last, free again); Ctrl+Shift+J
 * frees it. */
static void assign_selected(ui_share_t *u, bool free_it)
{
    const battle_t *b = pui_battle(u->play);
    int who = u->play->sel;
    if (!b || who < 0 || who >= b->n) {
        snprintf(u->msg, sizeof u->msg, "Select a player's combatant, then Ctrl+J gives it to a page.");
        return;
    }
    const char *name = b->map->combatants[who].name;
    if (!battle_is_player(b, who)) {
        snprintf(u->msg, sizeof u->msg, "%.60s is not on a players' side.", name);
        return;
    }
    int holder = share_holder(u->srv, who), to = 0;
    if (!free_it) {
        share_seat_t seats[SHARE_SEATS_MAX];
        int n = share_seats(u->srv, seats, SHARE_SEATS_MAX);
        for (int k = 0; k < n && to == 0; k++)
            if (seats[k].live && seats[k].number > (holder > 0 ? holder : 0)) to = seats[k].number;
        if (to == 0 && holder == 0) {
            snprintf(u->msg, sizeof u->msg, "No page is open: the players open the address first.");
            return;
        }
    }
    if (!share_assign(u->srv, who, to)) {
        snprintf(u->msg, sizeof u->msg, "Could not give %.60s to a page.", name);
        return;
    }
    share_publish(u->srv);
    if (to > 0)
        snprintf(u->msg, sizeof u->msg, "%.60s is played on Page %d.", name, to);
    else
        snprintf(u->msg, sizeof u->msg, "%.60s is free: any page may pick it.", name);
}

bool ui_share_event(ui_share_t *u, const SDL_Event *e, pui_t *play, SDL_Renderer *r)
{
    if (e->type != SDL_KEYDOWN) return false;
    SDL_Keycode k = e->key.keysym.sym;
    Uint16 mod = e->key.keysym.mod;
    bool ctrl = (mod & KMOD_CTRL) != 0, shift = (mod & KMOD_SHIFT) != 0;
    if (ctrl && !shift && k == SDLK_l) {
        ui_share_toggle(u, play, r);
        return true;
    }
    if (!u->srv) return false;
    if (ctrl && k == SDLK_j) {
        assign_selected(u, shift);
        return true;
    }
    if (ctrl && !shift && k == SDLK_a) {
        u->approve = !u->approve;
        snprintf(u->msg, sizeof u->msg, "%s",
                 u->approve ? "Pages' commands wait for Enter." : "Pages' commands apply at once.");
        if (!u->approve && u->pending) {
            u->pending = false; /* nothing waits once the referee stops approving */
        }
        return true;
    }
    if (u->pending && !ctrl && (k == SDLK_RETURN || k == SDLK_KP_ENTER)) {
        u->pending = false;
        battle_status_t st = pui_give(u->play, &u->pending_cmd);
        snprintf(u->msg, sizeof u->msg, "%s %s", u->pending_what,
                 st == BATTLE_ILLEGAL ? "is no longer allowed." : "applied.");
        return true;
    }
    if (u->pending && !ctrl && k == SDLK_ESCAPE) {
        u->pending = false;
        snprintf(u->msg, sizeof u->msg, "Refused: %s.", u->pending_what);
        return true;
    }
    return false;
}

bool ui_share_frame(ui_share_t *u)
{
    if (!u->srv) return false;
    share_publish(u->srv);
    share_pump(u->srv, 0);
    long taken = share_taken(u->srv);
    int pages = share_pages(u->srv);
    bool changed = taken != u->taken_seen || pages != u->pages_seen;
    u->taken_seen = taken;
    u->pages_seen = pages;
    if (changed) share_publish(u->srv); /* a page's command: its picture at once */
    return changed;
}

void ui_share_draw(const ui_share_t *u, ui_draw_t *d, SDL_Rect area, double px_per_pt)
{
    if (!u->srv) return;
    SDL_Renderer *r = ui_draw_renderer(d);
    ui_text_t *tx = ui_draw_text(d);
    int px = ui_text_quantize((int)(13 * px_per_pt));
    int mod = u->qr_w > 0 ? (int)(3 * px_per_pt) : 0;
    if (mod < 2 && u->qr) mod = 2;
    int qs = u->qr ? u->qr_w * mod : 0;
    char lines[4 + 8][200];
    int n = 0, bright = -1;
    snprintf(lines[n++], sizeof lines[0], "%s", u->url);
    share_seat_t seats[SHARE_SEATS_MAX];
    int ns = share_seats(u->srv, seats, SHARE_SEATS_MAX), open = 0;
    for (int k = 0; k < ns; k++)
        open += seats[k].live;
    snprintf(lines[n++], sizeof lines[0], "%d page%s watching, %d open%s", u->pages_seen,
             u->pages_seen == 1 ? "" : "s", open,
             open == 0 ? " (no phone? same network? firewall?)" : "");
    snprintf(lines[n++], sizeof lines[0], "%s",
             u->approve ? "Ctrl+A: pages' commands wait for Enter" : "Ctrl+A: pages' commands apply at once");
    /* Who plays which combatant (Ctrl+J gives the selected one to a page). */
    const battle_t *b = u->play ? pui_battle(u->play) : NULL;
    for (int i = 0; b && i < b->n && n < 4 + 7; i++) {
        if (!battle_is_player(b, i)) continue;
        int h = share_holder(u->srv, i);
        char on[40];
        if (h > 0)
            snprintf(on, sizeof on, "Page %d", h);
        else
            snprintf(on, sizeof on, "%s", h < 0 ? "a page" : "free");
        snprintf(lines[n++], sizeof lines[0], "%.60s: %s%s", b->map->combatants[i].name, on,
                 u->play->sel == i ? "  (Ctrl+J: next page)" : "");
    }
    if (u->pending) {
        bright = n;
        snprintf(lines[n++], sizeof lines[0], "Waiting: %s (Enter / Esc)", u->pending_what);
    }
    int tw = 0;
    for (int i = 0; i < n; i++) {
        int lw = 0, lh = 0;
        if (ui_text_get(tx, lines[i], px, i == bright, (SDL_Color){255, 255, 255, 255}, &lw, &lh) && lw > tw)
            tw = lw;
    }
    int pad = px / 2, lh = px + px / 3;
    int bw = (qs > tw ? qs : tw) + 2 * pad, bh = qs + n * lh + 2 * pad + (qs ? pad : 0);
    /* In the map area's bottom-right corner: no panel is covered. */
    SDL_Rect box = {area.x + area.w - bw - pad, area.y + area.h - bh - pad, bw, bh};
    if (box.x < area.x) box.x = area.x;
    if (box.y < area.y) box.y = area.y;
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, 16, 18, 22, 235);
    SDL_RenderFillRect(r, &box);
    int y = box.y + pad;
    if (u->qr) {
        SDL_Rect q = {box.x + (bw - qs) / 2, y, qs, qs};
        SDL_RenderCopy(r, u->qr, NULL, &q);
        y += qs + pad;
    }
    for (int i = 0; i < n; i++) {
        SDL_Color c = i == bright ? (SDL_Color){243, 211, 122, 255} : (SDL_Color){232, 230, 225, 255};
        ui_text_draw(tx, lines[i], px, i == bright, c, box.x + pad, y);
        y += lh;
    }
}

void ui_share_free(ui_share_t *u)
{
    stop(u);
    memset(u, 0, sizeof *u);
}
