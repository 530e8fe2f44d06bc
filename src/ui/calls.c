/* calls.c - the referee's calls in the play window (see calls.h). */
#include "calls.h"

#include <stdio.h>

#include "text.h"

/* Gather the calls about c->who; the list closes when there are none. */
static void gather(ui_calls_t *c, pui_t *p)
{
    const ruleset_t *rs = p->play.rs;
    c->n = 0;
    if (rs->calls && c->who >= 0 && !p->replay && !p->play.b->over) {
        int n = rs->calls(p->play.b, c->who, c->item, UI_CALLS_MAX);
        c->n = n < UI_CALLS_MAX ? n : UI_CALLS_MAX;
    }
    if (c->n == 0) {
        c->open = false;
        snprintf(p->msg, sizeof p->msg, "%s",
                 !rs->calls ? "These rules leave no calls to the referee."
                            : "No call to make about that combatant now.");
    }
}

void ui_calls_toggle(ui_calls_t *c, pui_t *p)
{
    if (c->open) {
        c->open = false;
        return;
    }
    c->who = p->sel >= 0 ? p->sel : p->actor;
    c->open = true;
    gather(c, p);
    if (c->open)
        snprintf(p->msg, sizeof p->msg, "Referee's calls: press a digit to make one, Esc closes.");
}

bool ui_calls_key(ui_calls_t *c, pui_t *p, SDL_Keycode k)
{
    if (!p->started) return false;
    if (k == SDLK_F3) {
        ui_calls_toggle(c, p);
        return true;
    }
    if (!c->open) return false;
    if (k == SDLK_ESCAPE) {
        c->open = false;
        return true;
    }
    int i = k >= SDLK_1 && k <= SDLK_9 ? (int)(k - SDLK_1) : -1;
    if (i < 0 || i >= c->n) return true; /* the list has the keys while it is open */
    if (pui_needs_die(p)) {
        snprintf(p->msg, sizeof p->msg, "Enter the die the battle waits for first.");
        return true;
    }
    char what[sizeof c->item[i].label];
    snprintf(what, sizeof what, "%s", c->item[i].label);
    battle_status_t st = pui_give(p, &c->item[i].cmd);
    if (st == BATTLE_OK || st == BATTLE_OVER)
        snprintf(p->msg, sizeof p->msg, "Called: %s.", what);
    else if (st == BATTLE_ILLEGAL)
        snprintf(p->msg, sizeof p->msg, "The rules refuse that call now.");
    gather(c, p); /* what can be called has changed */
    return true;
}

void ui_calls_draw(const ui_calls_t *c, const pui_t *p, ui_draw_t *d, SDL_Rect map, int px,
                   int line)
{
    if (!c->open || c->n == 0) return;
    ui_text_t *tx = ui_draw_text(d);
    SDL_Renderer *r = ui_draw_renderer(d);
    char row[UI_CALLS_MAX + 1][160];
    snprintf(row[0], sizeof row[0], "Referee's calls (F3)");
    int w = 0;
    for (int i = 0; i <= c->n; i++) {
        if (i > 0) snprintf(row[i], sizeof row[i], "%d  %s", i, c->item[i - 1].label);
        int tw = 0, th = 0;
        ui_text_get(tx, row[i], px, i == 0, (SDL_Color){255, 255, 255, 255}, &tw, &th);
        w = tw > w ? tw : w;
    }
    w += 2 * px;
    SDL_Rect box = {map.x + map.w - w - px, map.y + px, w, (c->n + 1) * line + px};
    SDL_SetRenderDrawColor(r, 24, 28, 36, 240);
    SDL_RenderFillRect(r, &box);
    for (int i = 0; i <= c->n; i++) {
        SDL_Color ink = i == 0 ? (SDL_Color){240, 228, 66, 255} : (SDL_Color){235, 235, 235, 255};
        ui_text_draw(tx, row[i], px, i == 0, ink, box.x + px, box.y + px / 2 + i * line);
    }
    (void)p;
}
