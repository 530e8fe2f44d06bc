/* hud_map.c - what the play screen marks on the map: reach, paths,
 * targets, telegraphs, gauges on tokens, and the ruler (see hud.h). */
#include "declared.h"
#include "hud_internal.h"
#include "telegraph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lod.h"
#include "overlay.h"

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
            hud_hex_fill(h, s, hex_to_cell(b->map->layout, hx[q]), 0.86, C_TELEGRAPH);
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
        vec2_t e = hud_cell_screen(s, hex_to_cell(b->map->layout, hx[0]));
        double low = e.y, sum = 0.0;
        for (int q = 0; q < m; q++) {
            vec2_t c = hud_cell_screen(s, hex_to_cell(b->map->layout, hx[q]));
            sum += c.x;
            if (c.y > low) low = c.y;
        }
        const weapon_t *w = ui_telegraph_weapon(b, &tg[k]);
        char buf[96];
        snprintf(buf, sizeof buf, "%.40s: %.40s in %d", pui_name(h->p, tg[k].who),
                 w && w->name[0] ? w->name : tg[k].name, tg[k].left);
        int tw = hud_text_w(d, buf, px, true);
        SDL_Rect lr = {(int)(sum / m) - tw / 2 - 4, (int)(low + s->cam.zoom * 0.9), tw + 8, px + 6};
        hud_fill(r, lr, (SDL_Color){60, 30, 10, 225});
        hud_text(d, buf, px, true, (SDL_Color){255, 200, 140, 255}, lr.x + 4, lr.y + 1);
    }
}

/* The referee's telegraphs of what the NPCs mean to do (the ruleset's
 * intents hook, scars): the same marks the table sees on the projector, a
 * ring on who, an amber arrow to the hex it means to reach and a red one on
 * to whom it means to attack. The laptop sees every one (the referee's view). */
static const SDL_Color C_INTENT = {255, 196, 40, 255};
static const SDL_Color C_INTENT_ATTACK = {255, 90, 40, 240};

static int laptop_intents(const hud_t *h, intent_t *out)
{
    const battle_t *b = h->p->play.b;
    int n = ruleset_intents(h->p->play.rs, b, out, HUD_INTENTS_MAX);
    int k = 0;
    for (int j = 0; j < n && j < HUD_INTENTS_MAX; j++)
        if (out[j].who >= 0 && out[j].who < b->n && battle_active(b, out[j].who)) out[k++] = out[j];
    return k;
}

static void draw_intent_shapes(hud_t *h, const ui_state_t *s, const intent_t *it, int n)
{
    const battle_t *b = h->p->play.b;
    double z = s->cam.zoom;
    double lw = fmax(2.0, z * 0.1), head = fmax(8.0, z * 0.4);
    for (int k = 0; k < n; k++) {
        vec2_t a = ui_cam_to_screen(&s->cam, h->p->anim.pose[it[k].who].world), from = a;
        double from_r = z * 1.0;
        shape_ring(&h->sb, a, z * 0.9, z * 1.0, C_INTENT);
        if (it[k].has_at) {
            vec2_t at = hud_cell_screen(s, it[k].at);
            shape_ring(&h->sb, at, z * 0.4, z * 0.52, C_INTENT);
            shape_arrow(&h->sb, shape_toward(a, at, from_r), shape_toward(at, a, z * 0.52), lw,
                        head, C_INTENT);
            from = at;
            from_r = z * 0.52;
        }
        if (it[k].target >= 0 && it[k].target < b->n) {
            vec2_t t = ui_cam_to_screen(&s->cam, h->p->anim.pose[it[k].target].world);
            shape_ring(&h->sb, t, z * 0.92, z * 1.02, C_INTENT_ATTACK);
            shape_arrow(&h->sb, shape_toward(from, t, from_r), shape_toward(t, from, z * 1.02), lw,
                        head, C_INTENT_ATTACK);
        }
    }
}

/* A banner over the map in lines (at most four) of colour ink: along the
 * top of the map or along its bottom, whichever covers fewer tokens (the
 * other edge when `not_at` is that one's box). A line too wide for the map
 * is shortened with "...". Returns the banner's box. */
#define BANNER_LINES 4
#define BANNER_CHARS 200
static SDL_Rect map_banner(hud_t *h, ui_draw_t *d, const ui_state_t *s, char text[][BANNER_CHARS],
                           int lines, SDL_Color ink, SDL_Rect not_at)
{
    if (lines <= 0) return (SDL_Rect){0, 0, 0, 0};
    const battle_t *b = h->p->play.b;
    SDL_Renderer *r = ui_draw_renderer(d);
    const SDL_Rect *m = &h->lay.map;
    int px = ui_text_quantize(h->lay.px), line = h->lay.line;
    int band = lines * line + px / 2;
    int top = 0, bottom = 0;
    for (int i = 0; i < b->n && i < h->p->anim.n; i++) {
        if (!battle_active(b, i)) continue;
        vec2_t c = ui_cam_to_screen(&s->cam, h->p->anim.pose[i].world);
        double rad = ui_token_screen_radius(b->map->combatants[i].size, s->cam.zoom);
        top += c.y - rad < m->y + band && c.y + rad > m->y;
        bottom += c.y + rad > m->y + m->h - band && c.y - rad < m->y + m->h;
    }
    bool low = bottom < top;
    if (not_at.w > 0) low = not_at.y <= m->y; /* the other edge is taken */
    int y0 = low ? m->y + m->h - band : m->y;
    int widest = 0;
    char fit[BANNER_LINES][BANNER_CHARS];
    for (int k = 0; k < lines; k++) {
        hud_fit_text(d, text[k], px, m->w - 2 * px, fit[k], sizeof fit[k]);
        int w = hud_text_w(d, fit[k], px, false);
        widest = w > widest ? w : widest;
    }
    SDL_Rect plate = {m->x + (m->w - widest) / 2 - px / 2, y0, widest + px, band};
    if (plate.x < m->x) plate.x = m->x;
    hud_fill(r, plate, (SDL_Color){20, 16, 8, 235});
    for (int k = 0; k < lines; k++)
        hud_text(d, fit[k], px, false, ink, plate.x + px / 2, y0 + px / 4 + k * line);
    return plate;
}

/* The telegraphs' banner: one line each in the table's words, the last of
 * four counting the rest. Recorded in h->banner. */
static void draw_intent_banner(hud_t *h, ui_draw_t *d, const ui_state_t *s, const intent_t *it,
                               int n)
{
    h->banner = (SDL_Rect){0, 0, 0, 0};
    h->n_intents = n;
    const battle_t *b = h->p->play.b;
    int lines = n < BANNER_LINES ? n : BANNER_LINES;
    char text[BANNER_LINES][BANNER_CHARS];
    for (int k = 0; k < lines; k++) {
        const intent_t *t = &it[k];
        if (k == BANNER_LINES - 1 && n > BANNER_LINES)
            snprintf(text[k], sizeof text[k], "... and %d more telegraphed", n - k);
        else if (t->target >= 0 && t->target < b->n)
            snprintf(text[k], sizeof text[k], "Telegraphed: %.50s will %.40s %.50s",
                     pui_name(h->p, t->who), t->label, pui_name(h->p, t->target));
        else
            snprintf(text[k], sizeof text[k], "Telegraphed: %.50s will %.40s",
                     pui_name(h->p, t->who), t->label);
    }
    h->banner = map_banner(h, d, s, text, lines, C_INTENT, (SDL_Rect){0, 0, 0, 0});
}

/* With the tracker folded away (a narrow window), a reaction put to the
 * table still shows the answers declared so far in the order they will
 * resolve, over the map (the tracker's "Resolves, in order"). Recorded in
 * h->resolves. */
static void draw_resolves_banner(hud_t *h, ui_draw_t *d, const ui_state_t *s)
{
    h->resolves = (SDL_Rect){0, 0, 0, 0};
    pui_t *p = h->p;
    if (h->lay.tracker.w > 0 || !pui_needs_answer(p)) return;
    turn_slot_t all[QUEUE_MAX];
    int na = ruleset_queue(p->play.rs, p->play.b, all, QUEUE_MAX), nr = 0;
    while (nr < na && all[nr].reaction)
        nr++;
    if (nr == 0) return;
    char text[BANNER_LINES][BANNER_CHARS];
    int lines = 1;
    snprintf(text[0], sizeof text[0], "Resolves, in order:");
    for (int k = 0; k < nr && lines < BANNER_LINES; k++, lines++) {
        if (lines == BANNER_LINES - 1 && nr > k + 1)
            snprintf(text[lines], sizeof text[lines], "%d. %.50s: %.60s ... and %d more", k + 1,
                     pui_name(p, all[k].who), all[k].label, nr - k - 1);
        else
            snprintf(text[lines], sizeof text[lines], "%d. %.50s: %.60s", k + 1,
                     pui_name(p, all[k].who), all[k].label);
    }
    h->resolves = map_banner(h, d, s, text, lines, C_INK, h->banner);
}

SDL_Color hud_gauge_color(const gauge_t *g)
{
    switch (g->kind) {
    case GAUGE_LOAD: {
        /* Amber when low, red when full: more is worse. */
        double f = g->max > 0 ? (double)g->value / g->max : 0.0;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        return (SDL_Color){(Uint8)(240 - 20 * f), (Uint8)(170 - 120 * f), (Uint8)(40 - 10 * f),
                           255};
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
    memset(h->gauge_box, 0, sizeof h->gauge_box);
    if (z < UI_LOD_ZOOM) return; /* the map seen whole: tokens are dots */
    for (int i = 0; i < b->n && i < h->p->anim.n && i < MAP_MAX_COMBATANTS; i++) {
        if (!battle_active(b, i) || h->pose[i].alpha <= 0.5f) continue;
        gauge_t g[GAUGES_MAX];
        int k0, n = hud_token_gauges(h, i, g, &k0);
        /* The map already draws HP (the first gauge when it is HP). */
        if (n <= k0) continue;
        vec2_t c = ui_cam_to_screen(&s->cam, h->pose[i].world);
        double r = ui_token_screen_radius(b->map->combatants[i].size, z);
        double rim = fmax(1.5, z * 0.06), bw = r * 1.7, bh = fmax(3.0, z * 0.09);
        double x = c.x - bw / 2, y = c.y + r + rim + z * 0.03 + bh + 2;
        /* A stack taller than the token's radius would cover the neighbour
         * below: the gauges collapse to the HP bar (the card, the tracker
         * and the projector show them all). */
        if ((n - k0) * (bh + 2) > r) continue;
        h->gauge_box[i] = (SDL_Rect){(int)floor(x - 1), (int)floor(y - 1), (int)ceil(bw + 2),
                                     (int)ceil((n - k0) * (bh + 2))};
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
            hud_hex_fill(h, s, p->reach[i].at, 0.92, C_REACH);
    ui_telegraph_t tg[UI_TELEGRAPH_MAX];
    int ntg = ui_telegraphs(b, tg, UI_TELEGRAPH_MAX);
    draw_telegraph_hexes(h, s, tg, ntg);
    if (p->n_path >= 2) {
        SDL_Color pc = p->path_ok ? C_PATH : C_BAD;
        for (int i = 0; i + 1 < p->n_path; i++)
            shape_segment(&h->sb, hud_cell_screen(s, p->path[i]),
                          hud_cell_screen(s, p->path[i + 1]), fmax(2.0, z * 0.12), pc);
        shape_ring(&h->sb, hud_cell_screen(s, p->path[p->n_path - 1]), z * 0.25, z * 0.38, pc);
    }
    shape_flush(&h->sb, r);
    SDL_RenderSetClipRect(r, NULL);
}

/* What lies over the tokens: gauges, effects, the path's cost, the odds,
 * floating numbers, telegraph labels. */
void hud_draw_marks(hud_t *h, ui_draw_t *d, const ui_state_t *s)
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
        shape_ring(&h->sb, ui_cam_to_screen(&s->cam, p->anim.pose[p->actor].world), z * 0.78,
                   z * 0.9, (SDL_Color){255, 255, 255, 220});
    /* A reaction put to the table: its combatant is ringed in the options' colour. */
    if (pui_needs_answer(p) && battle_active(b, b->ask.who))
        shape_ring(&h->sb, ui_cam_to_screen(&s->cam, p->anim.pose[b->ask.who].world), z * 0.78,
                   z * 0.95, (SDL_Color){240, 120, 30, 240});
    if (p->sel >= 0 && p->sel != p->actor && !b->u[p->sel].out)
        shape_ring(&h->sb, ui_cam_to_screen(&s->cam, p->anim.pose[p->sel].world), z * 0.78,
                   z * 0.86, (SDL_Color){86, 180, 233, 230});
    if (p->mode == PUI_TARGET || p->mode == PUI_CONFIRM)
        for (int t = 0; t < b->n; t++) {
            if (!pui_is_target(p, t)) continue;
            bool chosen = p->mode == PUI_CONFIRM && t == p->target;
            vec2_t c = ui_cam_to_screen(&s->cam, p->anim.pose[t].world);
            shape_ring(&h->sb, c, z * 0.8, z * (chosen ? 1.0 : 0.9), C_TARGET);
        }
    intent_t it[HUD_INTENTS_MAX];
    int nit = laptop_intents(h, it);
    draw_intent_shapes(h, s, it, nit);
    draw_token_gauges(h, s);
    /* Animation effects. */
    for (int i = 0; i < p->anim.n_fx; i++)
        shape_fx(&h->sb, &p->anim.fx[i], &s->cam, &SHAPE_FX_LAPTOP);
    shape_flush(&h->sb, r);
    /* Text marks: path cost, odds, floating numbers. */
    int px = ui_text_quantize((int)fmax(11, fmin(22, z * 0.42)));
    char buf[96];
    draw_telegraph_labels(h, d, s, tg, ntg, ui_text_quantize((int)fmax(10, fmin(18, z * 0.34))));
    draw_intent_banner(h, d, s, it, nit);
    draw_resolves_banner(h, d, s);
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
        int w = hud_text_w(d, buf, px, true);
        odds = (SDL_Rect){(int)c.x - w / 2 - 5, (int)(c.y - z * 1.1) - px - 4, w + 10, px + 8};
        hud_fill(r, odds, C_PANEL);
        hud_text(d, buf, px, true, C_TARGET, odds.x + 5, odds.y + 3);
    }
    if (p->n_path >= 2) {
        vec2_t e = hud_cell_screen(s, p->path[p->n_path - 1]);
        snprintf(buf, sizeof buf, "%d ft%s", p->path_cost, p->path_ok ? "" : " (too far)");
        int w = hud_text_w(d, buf, px, true);
        SDL_Rect pr = {(int)e.x - w / 2 - 4, (int)(e.y - z * 0.9) - px, w + 8, px + 6};
        if (odds.w > 0 && SDL_HasIntersection(&pr, &odds)) pr.y = (int)(e.y + z * 0.6);
        hud_fill(r, pr, C_PANEL);
        hud_text(d, buf, px, true, p->path_ok ? C_PATH : C_BAD, pr.x + 4, pr.y + 1);
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
        int w = hud_text_w(d, buf, big, true);
        SDL_Color col =
            f->kind == FX_NUMBER ? (SDL_Color){255, 90, 60, 255} : (SDL_Color){220, 220, 220, 255};
        int ty = (int)(a.y - z * (0.6 + u * 0.9)) - big;
        /* A dark copy underneath keeps the number readable on any terrain. */
        hud_text(d, buf, big, true, (SDL_Color){10, 10, 12, 255}, (int)a.x - w / 2 + 2, ty + 2);
        hud_text(d, buf, big, true, col, (int)a.x - w / 2, ty);
    }
    SDL_RenderSetClipRect(r, NULL);
}

/* The ruler's ends now, measured; false when it shows nothing. */
static bool ruler_now(const hud_t *h, const ui_state_t *s, cell_t *a, cell_t *e,
                      ui_ruler_measure_t *m)
{
    bool over = s->hover_on_map && hud_in_rect(&h->lay.map, (int)s->mouse_x, (int)s->mouse_y);
    return ui_ruler_ends(&h->ruler, over, s->hover, a, e) &&
           ui_ruler_measure(h->p->play.b, *a, *e, m);
}

/* The ruler on the map: a line from hex centre to hex centre, a dot on each
 * hex it counts, rings at the ends; green in sight with no cover, yellow to
 * orange with cover, red when sight is blocked. Its words are on the status
 * line (never over a token). */
void hud_draw_ruler(hud_t *h, ui_draw_t *d, const ui_state_t *s)
{
    cell_t a, e;
    ui_ruler_measure_t m;
    if (!ruler_now(h, s, &a, &e, &m)) return;
    SDL_Renderer *r = ui_draw_renderer(d);
    SDL_RenderSetClipRect(r, &h->lay.map);
    double z = s->cam.zoom;
    SDL_Color col = !m.visible               ? (SDL_Color){213, 94, 0, 255}
                    : m.cover == COVER_NONE  ? (SDL_Color){0, 158, 115, 255}
                    : m.cover == COVER_LIGHT ? (SDL_Color){240, 228, 66, 255}
                                             : (SDL_Color){230, 159, 0, 255};
    vec2_t pa = hud_cell_screen(s, a), pe = hud_cell_screen(s, e);
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
            shape_ring(&h->sb, hud_cell_screen(s, hex_to_cell(mp->layout, line[k])), 0,
                       fmax(2.5, z * 0.09), col);
    shape_ring(&h->sb, pa, z * 0.7, z * 0.8, col);
    shape_ring(&h->sb, pe, z * 0.7, z * 0.8, col);
    shape_flush(&h->sb, r);
    SDL_RenderSetClipRect(r, NULL);
}

/* Ctrl+M, a click and Esc for the ruler; true when used. The status line
 * gets what it measures. */
bool hud_ruler_event(hud_t *h, ui_state_t *s, const SDL_Event *e)
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
        int x = (int)lround(e->button.x * s->px_per_pt),
            y = (int)lround(e->button.y * s->px_per_pt);
        if (!hud_in_rect(&h->lay.map, x, y)) return false;
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
        snprintf(h->p->msg, sizeof h->p->msg, "Ruler from (%d, %d): point at a hex.",
                 h->ruler.a.col, h->ruler.a.row);
}
