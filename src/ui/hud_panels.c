/* hud_panels.c - the play screen's panels: the tracker, the card and
 * legend, the action bar, help and the end banner, and hud_draw putting
 * them together (see hud.h). */
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
        int w = l->px * 2 + 3 + hud_text_w(d, buf, small, false);
        if (gx > x + l->px + 4 && gx + w > right) {
            gx = x + l->px + 4;
            rows++;
        }
        gx += w + l->px / 2;
    }
    return rows;
}

/* Lines combatant i's conditions take below its HP line: none when the HP
 * numbers and the conditions fit beside the smallest HP bar, else the
 * conditions wrapped to the panel's width (never cut). */
static int cond_rows(ui_draw_t *d, const battle_t *b, int i, const hud_layout_t *l, int x,
                     int right)
{
    char cond[104], buf[160];
    hud_tracker_conditions(b, i, cond, sizeof cond);
    if (!cond[0]) return 0;
    int small = ui_text_quantize(l->px - 2);
    snprintf(buf, sizeof buf, "%d/%d %s", b->u[i].hp, b->u[i].hp_max, cond);
    if (x + l->px + 8 + l->px + hud_text_w(d, buf, small, false) <= right) return 0;
    return hud_text_wrap(d, cond, small, false, C_DIM, x + l->px + 4, 0, right - (x + l->px + 4),
                         l->line, false);
}

static void draw_tracker(hud_t *h, ui_draw_t *d, const ui_state_t *s)
{
    pui_t *p = h->p;
    const battle_t *b = p->play.b;
    SDL_Renderer *r = ui_draw_renderer(d);
    const hud_layout_t *l = &h->lay;
    if (l->tracker.w <= 0) return;
    hud_fill(r, l->tracker, C_PANEL);
    SDL_RenderSetClipRect(r, &l->tracker);
    int x = l->tracker.x + l->px / 2, y = l->tracker.y + l->px / 2;
    char buf[128];
    snprintf(buf, sizeof buf, "Round %d", b->round > 0 ? b->round : 1);
    hud_text(d, buf, ui_text_quantize(l->px + 4), true, C_HEAD, x, y);
    y += l->line + l->px / 2;
    /* The sides rolling physical dice (P), for as long as they do; their
     * rows carry a "dice" tag too. */
    if (p->phys_sides) {
        size_t at = (size_t)snprintf(buf, sizeof buf, "Physical dice:");
        for (int sd = 0, k = 0; sd < b->board->n_sides && sd < 32 && at < sizeof buf; sd++)
            if ((p->phys_sides >> sd) & 1u)
                at += (size_t)snprintf(buf + at, sizeof buf - at, "%s %s", k++ ? "," : "",
                                       b->board->side_name[sd]);
        y += l->line * hud_text_wrap(d, buf, ui_text_quantize(l->px - 2), true, C_DICE, x, y,
                                     l->tracker.x + l->tracker.w - l->px / 2 - x, l->line, true);
    }
    /* The turns to come, when the ruleset forecasts them (its queue hook);
     * first, while the table is asked about a reaction, the answers already
     * declared to that moment, in the order they will resolve. */
    turn_slot_t all[QUEUE_MAX];
    int na = ruleset_queue(p->play.rs, b, all, QUEUE_MAX), nr = 0;
    while (nr < na && all[nr].reaction) nr++;
    if (nr > 0) {
        hud_text(d, "Resolves, in order:", ui_text_quantize(l->px - 2), true, C_INK, x, y);
        y += l->line;
        for (int k = 0; k < nr; k++) {
            snprintf(buf, sizeof buf, "%d. %s: %s", k + 1, pui_name(p, all[k].who), all[k].label);
            hud_text(d, buf, ui_text_quantize(l->px - 2), false, C_INK, x, y);
            y += l->line;
        }
    }
    const turn_slot_t *q = all + nr;
    int nq = na - nr < 4 ? na - nr : 4;
    if (nq > 0) {
        size_t at = (size_t)snprintf(buf, sizeof buf, "Next:");
        for (int k = 0; k < nq && at < sizeof buf; k++)
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s %s%s%s", k ? "," : "",
                                   q[k].who >= 0 ? pui_name(p, q[k].who)
                                                 : b->board->side_name[q[k].side],
                                   q[k].label[0] ? " " : "", q[k].label);
        /* Wrapped, never cut: the whole forecast reads. */
        y += l->line * hud_text_wrap(d, buf, ui_text_quantize(l->px - 2), false, C_DIM, x, y,
                                     l->tracker.x + l->tracker.w - l->px / 2 - x, l->line, true);
    }
    int order[MAP_MAX_COMBATANTS];
    int n = battle_initiative_order(b, order);
    int small = ui_text_quantize(l->px - 2), right = l->tracker.x + l->tracker.w - l->px / 2;
    /* The gauges past HP take lines of their own, wrapped to the panel's
     * width; when every row cannot fit, only the actor keeps them (the card
     * has them all). */
    int need = 0;
    for (int k = 0; k < n; k++) {
        gauge_t g[GAUGES_MAX];
        int k0, ng = hud_token_gauges(h, order[k], g, &k0);
        need += l->line * (2 + cond_rows(d, b, order[k], l, x, right) +
                           (b->u[order[k]].out ? 0 : gauge_rows(d, g, k0, ng, l, x, right))) +
                2;
    }
    bool all_gauges = y + need <= l->tracker.y + l->tracker.h;
    for (int k = 0; k < n && y < l->tracker.y + l->tracker.h - l->line; k++) {
        int i = order[k];
        bool cur = i == p->actor;
        gauge_t g[GAUGES_MAX];
        int k0, ng = hud_token_gauges(h, i, g, &k0);
        /* The first gauge is HP when it matches; the rest get lines below. */
        int more = b->u[i].out || (!all_gauges && !cur) ? 0 : gauge_rows(d, g, k0, ng, l, x, right);
        int conds = cond_rows(d, b, i, l, x, right); /* conditions on lines of their own */
        int row_h = l->line * (2 + conds + more);
        if (y + row_h > l->tracker.y + l->tracker.h) break; /* whole rows only, none cut */
        if (cur)
            hud_fill(r, (SDL_Rect){l->tracker.x, y - 2, l->tracker.w, row_h},
                     (SDL_Color){60, 72, 96, 255});
        if (i == p->sel)
            hud_fill(r, (SDL_Rect){l->tracker.x, y - 2, 4, row_h}, (SDL_Color){86, 180, 233, 255});
        if (pui_needs_die(p) && b->need.who == i) {
            /* The combatant a physical die is awaited for: an orange frame
             * and the die at the end of its row. */
            SDL_Rect fr = {l->tracker.x + 1, y - 2, l->tracker.w - 2, row_h};
            SDL_SetRenderDrawColor(r, C_DICE.r, C_DICE.g, C_DICE.b, 255);
            SDL_RenderDrawRect(r, &fr);
            fr = (SDL_Rect){fr.x + 1, fr.y + 1, fr.w - 2, fr.h - 2};
            SDL_RenderDrawRect(r, &fr);
            char die[24];
            snprintf(die, sizeof die, "rolls d%d", b->need.sides);
            int dw = hud_text_w(d, die, l->px, true);
            hud_text(d, die, l->px, true, C_DICE, l->tracker.x + l->tracker.w - dw - l->px / 2, y);
        } else if (b->board->side[i] >= 0 && b->board->side[i] < 32 &&
                   ((p->phys_sides >> b->board->side[i]) & 1u)) {
            int dw = hud_text_w(d, "dice", small, true);
            hud_text(d, "dice", small, true, C_DICE, l->tracker.x + l->tracker.w - dw - l->px / 2,
                     y + 1);
        }
        SDL_Color fc = ui_faction_color(b->map, b->map->combatants[i].faction);
        hud_fill(r, (SDL_Rect){x, y + 3, l->px - 2, l->px - 2}, fc);
        SDL_Color ink = b->u[i].out ? C_DIM : C_INK;
        snprintf(buf, sizeof buf, "%s%s", cur ? "> " : "", pui_name(p, i));
        hud_text(d, buf, l->px, cur, ink, x + l->px + 4, y);
        /* HP bar and numbers on the second line. */
        char cond[104];
        hud_tracker_conditions(b, i, cond, sizeof cond);
        snprintf(buf, sizeof buf, "%d/%d %s", b->u[i].hp, b->u[i].hp_max, conds ? "" : cond);
        /* The bar gives way to the numbers on a narrow panel. */
        int nw = hud_text_w(d, buf, ui_text_quantize(l->px - 2), false);
        int bw = l->tracker.w / 3, by = y + l->line + 2;
        if (x + l->px + 8 + bw + nw > right) bw = right - (x + l->px + 8) - nw;
        if (bw < l->px) bw = l->px;
        hud_fill(r, (SDL_Rect){x + l->px + 4, by + 3, bw, l->px / 2}, (SDL_Color){50, 50, 56, 255});
        int hpw = b->u[i].hp_max > 0 ? bw * (b->u[i].hp > 0 ? b->u[i].hp : 0) / b->u[i].hp_max : 0;
        hud_fill(r, (SDL_Rect){x + l->px + 4, by + 3, hpw, l->px / 2},
                 ui_hp_color(b->u[i].hp, b->u[i].hp_max));
        hud_text(d, buf, ui_text_quantize(l->px - 2), false, C_DIM, x + l->px + 8 + bw, by - 2);
        if (conds)
            hud_text_wrap(d, cond, small, false, C_DIM, x + l->px + 4, by - 2 + l->line,
                          right - (x + l->px + 4), l->line, true);
        /* Armour, heat, points...: a short bar and its numbers each. */
        int gx = x + l->px + 4, gy = by + l->line * (1 + conds);
        for (int j = k0; j < ng && more; j++) {
            int mw = l->px * 2,
                fw = g[j].max > 0 ? mw * (g[j].value > 0 ? g[j].value : 0) / g[j].max : 0;
            gauge_text(&g[j], buf, sizeof buf);
            int w = mw + 3 + hud_text_w(d, buf, small, false);
            if (gx > x + l->px + 4 && gx + w > right) { /* wrap */
                gx = x + l->px + 4;
                gy += l->line;
            }
            hud_fill(r, (SDL_Rect){gx, gy + 3, mw, l->px / 2}, (SDL_Color){50, 50, 56, 255});
            if (fw > 0)
                hud_fill(r, (SDL_Rect){gx, gy + 3, fw < mw ? fw : mw, l->px / 2},
                         hud_gauge_color(&g[j]));
            hud_text(d, buf, small, false, C_DIM, gx + mw + 3, gy - 2);
            gx += w + l->px / 2;
        }
        y += row_h + 2;
    }
    (void)s;
    SDL_RenderSetClipRect(r, NULL);
}

/* Button label `label` with its key in front, inside br: on one line when
 * it fits; else on two (the part before ": " on the first, "Telegraph:",
 * and what it is about on the second, "Quick Jab (delay 1)"; or the words
 * that fit, then the rest); with room for one line only, the part after
 * ": " (the weapon and what tells it apart). A line still too long is
 * shortened with "..." and the tooltip has the whole label. */
static void button_label(ui_draw_t *d, const hud_layout_t *l, SDL_Rect br, char key,
                         const char *label, SDL_Color ink)
{
    int bpx = ui_text_quantize(l->px - 1), maxw = br.w - l->px, x = br.x + l->px / 2;
    int lh = (int)lround(bpx * 1.2);
    char whole[128], one[128], two[128], buf[128];
    snprintf(whole, sizeof whole, "%c  %s", key ? key : ' ', label);
    const char *colon = strstr(label, ": ");
    if (hud_text_w(d, whole, bpx, false) <= maxw || (br.h < 2 * lh + 2 && !colon)) {
        hud_fit_text(d, whole, bpx, maxw, buf, sizeof buf);
        hud_text(d, buf, bpx, false, ink, x, br.y + (br.h - l->px) / 2 - 1);
        return;
    }
    if (br.h < 2 * lh + 2) { /* one line: what the action is about */
        snprintf(one, sizeof one, "%c  %s", key ? key : ' ', colon + 2);
        hud_fit_text(d, one, bpx, maxw, buf, sizeof buf);
        hud_text(d, buf, bpx, false, ink, x, br.y + (br.h - l->px) / 2 - 1);
        return;
    }
    if (colon) {
        snprintf(one, sizeof one, "%c  %.*s", key ? key : ' ', (int)(colon + 1 - label), label);
        snprintf(two, sizeof two, "%s", colon + 2);
    } else {
        /* The most whole words that fit on the first line, the rest below. */
        size_t n = strlen(whole), cut = 0;
        for (size_t k = 3; k < n; k++) {
            if (whole[k] != ' ') continue;
            snprintf(one, sizeof one, "%.*s", (int)k, whole);
            if (hud_text_w(d, one, bpx, false) > maxw) break;
            cut = k;
        }
        if (cut == 0) cut = n;
        snprintf(one, sizeof one, "%.*s", (int)cut, whole);
        snprintf(two, sizeof two, "%s", whole[cut] ? whole + cut + 1 : "");
    }
    int y = br.y + (br.h - 2 * lh) / 2;
    hud_fit_text(d, one, bpx, maxw, buf, sizeof buf);
    hud_text(d, buf, bpx, false, ink, x, y);
    hud_fit_text(d, two, bpx, maxw - bpx, buf, sizeof buf);
    hud_text(d, buf, bpx, false, ink, x + bpx, y + lh);
}

/* The combatant the card is about: the token under the cursor, else the
 * selection, else the one acting. */
static int card_who(const hud_t *h, const ui_state_t *s)
{
    const pui_t *p = h->p;
    const battle_t *b = p->play.b;
    if (s && s->hover_on_map && hud_in_rect(&h->lay.map, (int)s->mouse_x, (int)s->mouse_y)) {
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
    if (l->log.w <= 0) { /* folded away (Ctrl+2 brings it back) */
        h->side = (SDL_Rect){0, 0, 0, 0};
        return l->log.y;
    }
    hud_fill(r, l->log, C_PANEL);
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
static void draw_bar(hud_t *h, ui_draw_t *d)
{
    pui_t *p = h->p;
    const battle_t *b = p->play.b;
    SDL_Renderer *r = ui_draw_renderer(d);
    const hud_layout_t *l = &h->lay;
    hud_fill(r, l->bar, (SDL_Color){26, 29, 36, 245});
    hud_fill(r, l->status, (SDL_Color){14, 16, 20, 245});
    char buf[256];
    if (pui_needs_die(p)) {
        pui_die_prompt(p, buf, sizeof buf);
        char head[96];
        /* A pool typed as one line shows its last values (the faces keep
         * their place beside it). */
        size_t ne = strlen(p->entry);
        snprintf(head, sizeof head, "d%d: %s%s", b->need.sides, ne > 11 ? "..." : "",
                 p->n_entry ? p->entry + (ne > 11 ? ne - 11 : 0) : "_");
        hud_text(d, head, ui_text_quantize(l->px + 4), true, C_PATH, l->bar.x + l->px,
                 l->bar.y + (l->bar.h - l->px) / 2 - 2);
        int sides = b->need.sides;
        for (int v = 1; v <= sides && v <= 20; v++) {
            SDL_Rect f = hud_face_rect(h, v);
            if (f.x + f.w > l->bar.x + l->bar.w) break;
            hud_fill(r, f, (SDL_Color){70, 76, 90, 255});
            char num[8];
            snprintf(num, sizeof num, "%d", v);
            int w = hud_text_w(d, num, l->px, true);
            hud_text(d, num, l->px, true, C_INK, f.x + (f.w - w) / 2, f.y + (f.h - l->px) / 2 - 2);
        }
        hud_text(d, "type the value + Enter, or click a face", ui_text_quantize(l->px - 1), false,
                 C_DIM, l->bar.x + l->px * 7, l->bar.y + (l->bar.h - l->px) / 2);
    } else if (pui_needs_answer(p)) {
        /* A reaction for the table: each option is a button, 0 lets it pass. */
        const react_request_t *q = &b->ask;
        for (int i = 0; i < q->n; i++) {
            SDL_Rect br = hud_answer_rect(h, i);
            if (br.x + br.w > l->bar.x + l->bar.w) break;
            hud_fill(r, br, i ? (SDL_Color){150, 70, 20, 255} : (SDL_Color){58, 64, 78, 255});
            char whole[160];
            snprintf(whole, sizeof whole, "%d  %s", i,
                     q->labels[i][0] ? q->labels[i]
                     : i             ? "take it"
                                     : "pass");
            int bpx = ui_text_quantize(l->px - 1);
            hud_fit_text(d, whole, bpx, br.w - l->px, buf, sizeof buf);
            hud_text(d, buf, bpx, false, C_INK, br.x + l->px / 2, br.y + (br.h - l->px) / 2 - 1);
        }
    } else if (!p->user_turn && !b->over && p->actor >= 0) {
        snprintf(buf, sizeof buf, "%s (AI) is acting...   Space: skip animation   [ ]: speed x%.2g",
                 pui_name(p, p->actor), p->anim.speed);
        hud_text(d, buf, l->px, false, C_DIM, l->bar.x + l->px,
                 l->bar.y + (l->bar.h - l->px) / 2 - 2);
    } else {
        for (int i = 0; i < p->n_bar; i++) {
            SDL_Rect br = hud_button_rect(h, i);
            if (br.x + br.w > l->bar.x + l->bar.w) break;
            bool on = (p->mode != PUI_IDLE && p->act == i) || h->hover_btn == i;
            bool off = p->bar[i].off; /* refused now: greyed, the tooltip says why */
            hud_fill(r, br,
                     off  ? (SDL_Color){40, 42, 48, 255}
                     : on ? (SDL_Color){0, 114, 178, 255}
                          : (SDL_Color){58, 64, 78, 255});
            button_label(d, l, br, p->bar[i].key, p->bar[i].label, off ? C_DIM : C_INK);
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
            snprintf(held, sizeof held, "%s",
                     bt->u[p->actor].n_weapons ? "Every weapon at hand" : "Unarmed");
        held_w = hud_text_w(d, held, l->px, true) + 2 * l->px;
        hud_text(d, held, l->px, true, C_PATH, l->status.x + l->status.w - held_w + l->px,
                 l->status.y + (l->status.h - l->px) / 2 - 2);
    }
    char live[sizeof p->msg + 200], msg[sizeof live + 4];
    pui_status(p, live, sizeof live); /* whose turn, what is awaited, then the message */
    hud_fit_text(d, live, l->px, l->status.w - held_w - 2 * l->px, msg, sizeof msg);
    hud_text(d, msg, l->px, false, C_INK, l->status.x + l->px,
             l->status.y + (l->status.h - l->px) / 2 - 2);
    /* Cut to fit: the cursor on the line shows it whole, above it. */
    if (h->hover_status && strcmp(msg, live) != 0) {
        int wrap = l->status.w - held_w - 3 * l->px;
        int lines = hud_text_wrap(d, live, l->px, false, C_INK, 0, 0, wrap, l->line, false);
        SDL_Rect tip = {l->status.x, l->status.y - lines * l->line - 8, wrap + 2 * l->px,
                        lines * l->line + 6};
        hud_fill(r, tip, (SDL_Color){250, 246, 220, 245});
        hud_text_wrap(d, live, l->px, false, (SDL_Color){20, 20, 24, 255}, tip.x + l->px,
                      tip.y + 3, wrap, l->line, true);
    }
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
                     a->group      ? ", opens its choices (Esc goes back)"
                     : a->targeted ? ", then click a target (Tab cycles), Enter confirms"
                     : a->kind == CMD_TELEPORT || a->kind == CMD_DISMOUNT || a->kind == CMD_USE ||
                             (a->kind == CMD_STANDBY && a->act == CMD_MOVE)
                         ? ", then click the hex"
                         : "");
        SDL_Rect br = hud_button_rect(h, h->hover_btn);
        int w = hud_text_w(d, buf, l->px, false);
        SDL_Rect tip = {br.x, br.y - l->line - 8, w + l->px, l->line + 4};
        if (tip.x + tip.w > l->bar.x + l->bar.w) tip.x = l->bar.x + l->bar.w - tip.w;
        if (tip.x < 0) tip.x = 0;
        hud_fill(r, tip, (SDL_Color){250, 246, 220, 245});
        hud_text(d, buf, l->px, false, (SDL_Color){20, 20, 24, 255}, tip.x + l->px / 2, tip.y + 2);
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
    "F4: the players' reactions (interrupts...) to the table, 0-9 answer; Shift+F4: one side",
    "[ and ]: animation slower / faster      C: camera follows the actor",
    "Arrows / WASD: pan     + / -: zoom     F or Home: fit the map",
    "F5 reach  F6 threat  F7 flanking  F8 weapon range  F9 sight  F10 area: overlays on/off",
    "Ctrl+M: ruler (click a hex, point or click another: feet, hexes, sight, cover; Esc: off)",
    "Hover a token for its card (right panel): HP, stats, moves left, weapons, conditions",
    "F3: the referee's calls about the selected combatant (a save, a mark, override a hit...)",
    "O: odds from here (AI play on every side); a chosen move or attack shows what it changes",
    "F2 or Ctrl+P: projector window on/off (Ctrl+R rotate, Ctrl+F fit, Ctrl+K calibrate)",
    "Ctrl+L: share the battle with the players' phones or tablets (a page each), or stop",
    "Ctrl+A: pages' moves wait for Enter or not      Ctrl+J: give the selected one to a page",
    "F12: terrain colours over the map's own pictures     Ctrl+1 / Ctrl+2: fold the side panels",
    "?: this help     F11: fullscreen     Q: quit (asks when moves are unsaved)",
};

static void draw_help(hud_t *h, ui_draw_t *d, const ui_state_t *s)
{
    SDL_Renderer *r = ui_draw_renderer(d);
    const hud_layout_t *l = &h->lay;
    int n = (int)(sizeof HELP / sizeof HELP[0]);
    int w = 0;
    for (int i = 0; i < n; i++) {
        int tw = hud_text_w(d, HELP[i], l->px, false);
        if (tw > w) w = tw;
    }
    w += 2 * l->px;
    int hh = (n + 2) * l->line + l->px;
    SDL_Rect box = {(s->view_w - w) / 2, (s->view_h - hh) / 2, w, hh};
    hud_fill(r, (SDL_Rect){0, 0, s->view_w, s->view_h}, (SDL_Color){0, 0, 0, 120});
    hud_fill(r, box, (SDL_Color){24, 28, 36, 250});
    hud_text(d, "Keys", ui_text_quantize(l->px + 4), true, C_HEAD, box.x + l->px,
             box.y + l->px / 2);
    for (int i = 0; i < n; i++)
        hud_text(d, HELP[i], l->px, false, C_INK, box.x + l->px,
                 box.y + l->px / 2 + (i + 1) * l->line + l->px / 2);
    (void)h;
}

/* Lines of the ammunition the battle used (ruleset_t.ammo_used), for the
 * table's Usage rolls: a heading and one line per weapon, at most cap
 * (the last says how many more). Returns the count. */
#define END_AMMO_LINES 9
static int end_ammo_lines(const play_t *pl, char lines[][96], int cap)
{
    ammo_use_t used[64];
    if (!pl->rs || !pl->rs->ammo_used || cap < 2) return 0;
    const battle_t *b = pl->b;
    int n = pl->rs->ammo_used(b, used, 64), k = 0;
    if (n <= 0) return 0;
    snprintf(lines[k++], 96, "Ammunition used (roll Usage for each):");
    for (int j = 0; j < n && j < 64; j++) {
        if (k == cap - 1 && n - j > 1) {
            snprintf(lines[k++], 96, "... and %d more (the log's end lists all)", n - j);
            break;
        }
        const ammo_use_t *u = &used[j];
        const char *wname = u->weapon;
        for (int w = 0; w < b->u[u->who].n_weapons; w++)
            if (strcmp(b->u[u->who].weapon[w]->id, u->weapon) == 0) wname = b->u[u->who].weapon[w]->name;
        const map_combatant_t *c = &b->map->combatants[u->who];
        snprintf(lines[k++], 96, "%.32s: %.32s, %d round%s", c->name[0] ? c->name : c->id, wname,
                 u->rounds, u->rounds == 1 ? "" : "s");
    }
    return k;
}

static void draw_end(hud_t *h, ui_draw_t *d)
{
    char buf[128];
    const char *res = pui_result(h->p, buf, sizeof buf);
    if (!res) return;
    SDL_Renderer *r = ui_draw_renderer(d);
    const hud_layout_t *l = &h->lay;
    char ammo[END_AMMO_LINES][96];
    int na = end_ammo_lines(&h->p->play, ammo, END_AMMO_LINES);
    /* As large as fits in the map area, never over the side panels. */
    int big = ui_text_quantize(l->px * 3);
    int w = hud_text_w(d, res, big, true) + 4 * l->px;
    for (int k = 0; k < 8 && w > l->map.w && big > l->px; k++) {
        big = ui_text_quantize(big * 4 / 5);
        w = hud_text_w(d, res, big, true) + 4 * l->px;
    }
    for (int k = 0; k < na; k++) {
        int tw = hud_text_w(d, ammo[k], l->px, k == 0) + 4 * l->px;
        if (tw > w) w = tw;
    }
    int hh = big * 2 + l->line + (na > 0 ? (na + 1) * l->line : 0);
    int top = l->map.y + l->map.h / 2 - big - (na > 0 ? (na + 1) * l->line / 2 : 0);
    SDL_Rect box = {l->map.x + (l->map.w - w) / 2, top > l->map.y ? top : l->map.y, w, hh};
    hud_fill(r, box, (SDL_Color){16, 18, 24, 235});
    bool win = strncmp(res, "VICTORY", 7) == 0;
    hud_text(d, res, big, true, win ? C_HEAD : C_BAD, box.x + 2 * l->px, box.y + big / 3);
    hud_text(d, "Ctrl+Z undoes the last command, Q quits", l->px, false, C_DIM, box.x + 2 * l->px,
             box.y + big + big / 2);
    for (int k = 0; k < na; k++)
        hud_text(d, ammo[k], l->px, k == 0, k == 0 ? C_HEAD : C_INK, box.x + 2 * l->px,
                 box.y + big * 2 + l->line / 2 + k * l->line);
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
    hud_draw_marks(h, d, s);
    ui_declared_draw(h->p, d, &s->cam, h->lay.map, ui_text_quantize(h->lay.px - 1));
    hud_draw_ruler(h, d, s);
    draw_tracker(h, d, s);
    if (h->lay.log.w > 0) hud_draw_log(h, d, draw_side(h, d, s));
    draw_bar(h, d);
    draw_end(h, d);
    ui_calls_draw(&h->calls, h->p, d, h->lay.map, h->lay.px, h->lay.line);
    SDL_Rect taken[2 * MAP_MAX_COMBATANTS];
    int n_taken = ui_draw_taken_boxes(d, taken, 2 * MAP_MAX_COMBATANTS);
    h->odds_box =
        ui_odds_draw(&h->odds, h->p, d, h->lay.map, h->lay.px, h->lay.line, taken, n_taken);
    ui_token_menu_draw(&h->menu, h->p, d);
    if (h->p->help) draw_help(h, d, s);
}
