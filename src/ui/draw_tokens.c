/* draw_tokens.c - tokens: their size on screen, discs, images, marks,
 * HP bars and condition markers, and where labels may go beside them (see
 * draw.h). */
#include "draw.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw_internal.h"
#include "fog.h"
#include "shapes.h"

#define SHAPE_MAX 32
#define PI 3.14159265358979323846

/* Token radius in hex radii by size: one hex per combatant, but bigger bodies
 * read bigger. */
static double token_radius(csize_t s)
{
    static const double R[SIZE_COUNT] = {0.40, 0.48, 0.56, 0.62, 0.66, 0.70, 0.72, 0.72};
    return (s >= 0 && s < SIZE_COUNT) ? R[s] : 0.56;
}

double ui_token_radius(csize_t s)
{
    return token_radius(s);
}

double ui_token_screen_radius(csize_t s, double zoom)
{
    double r = token_radius(s) * zoom;
    if (zoom < UI_LOD_ZOOM) return r < 2.5 ? 2.5 : r; /* the map seen whole: dots */
    /* Never so small that the initials cannot be read, while the token still
     * sits inside its own hex. */
    double floor_px = fmin(UI_TOKEN_MIN_PX, zoom * 0.8);
    return r > floor_px ? r : floor_px;
}

int ui_token_initials_px(double r, const char *mark)
{
    size_t n = strlen(mark);
    int px = (int)(r * (n > 2 ? 0.6 : n == 2 ? 0.78 : 0.95));
    /* A token at its least size still gets letters a referee can read. */
    if (px < UI_INITIALS_MIN_PX && r >= UI_TOKEN_MIN_PX - 0.5) px = UI_INITIALS_MIN_PX;
    return px >= 6 ? px : 0;
}

bool ui_place_label(int w, int h, SDL_Rect tok, int below_y, const SDL_Rect *boxes, int n_boxes,
                    int self, const SDL_Rect *placed, int n_placed, SDL_Rect *out)
{
    int cx = tok.x + tok.w / 2, cy = tok.y + tok.h / 2;
    /* Below the HP bar, above the token, to its right, to its left. */
    const SDL_Rect spot[4] = {{cx - w / 2, below_y, w, h},
                              {cx - w / 2, tok.y - h - 2, w, h},
                              {tok.x + tok.w + 3, cy - h / 2, w, h},
                              {tok.x - w - 3, cy - h / 2, w, h}};
    for (int k = 0; k < 4; k++) {
        bool clear = true;
        for (int j = 0; j < n_boxes && clear; j++)
            clear = j == self || boxes[j].w <= 0 || !SDL_HasIntersection(&spot[k], &boxes[j]);
        for (int j = 0; j < n_placed && clear; j++)
            clear = placed[j].w <= 0 || !SDL_HasIntersection(&spot[k], &placed[j]);
        if (clear) {
            *out = spot[k];
            return true;
        }
    }
    return false;
}

int ui_draw_taken_boxes(const ui_draw_t *d, SDL_Rect *out, int cap)
{
    int n = 0;
    for (int i = 0; i < d->n_drawn && n < cap; i++) {
        if (!d->drawn[i].on) continue;
        out[n++] = d->drawn[i].token;
        if (d->drawn[i].label.w > 0 && n < cap) out[n++] = d->drawn[i].label;
    }
    return n;
}

bool ui_draw_token_drawn(const ui_draw_t *d, int i, ui_token_drawn_t *out)
{
    if (i < 0 || i >= d->n_drawn || !d->drawn[i].on) return false;
    *out = d->drawn[i];
    return true;
}

typedef struct {
    const char *name;
    SDL_Color color;
    int idx;
} faction_color_t;

/* Radius of a condition marker at zoom z (larger on the projector). */
static double cond_radius(double z, bool big)
{
    double r = z * (big ? 0.2 : 0.16);
    return r < 4 ? 4 : r > 22 ? 22 : r;
}

/* Centre of condition marker k of a token of radius r at (cx, cy): along the
 * rim from its top right round to its right, then the top left. */
static vec2_t cond_spot(float cx, float cy, double r, double z, bool big, int k)
{
    static const double ANG[UI_COND_MARKS] = {-60, -20, 20, -100, -140, 60};
    double a = ANG[k % UI_COND_MARKS] * PI / 180.0;
    double d = r + cond_radius(z, big) * 0.35;
    return (vec2_t){cx + d * cos(a), cy + d * sin(a)};
}

void draw_tokens(ui_draw_t *d, const map_t *m, const ui_camera_t *cam, int w, int h,
                 const ui_token_pose_t *poses, const ui_view_t *view, const event_log_t *log)
{
    double z = cam->zoom;
    vec2_t disc[SHAPE_MAX], plate[8];
    /* Enough segments to look round at this size and no more: tokens are
     * many small triangles, which the software renderer pays for one by one. */
    int n_disc = (int)(z * 0.45);
    n_disc = n_disc < 10 ? 10 : n_disc > 28 ? 28 : n_disc;
    bool fancy = z >= 20.0; /* shadow and sheen only where they can be seen */
    for (int i = 0; i < n_disc; i++) {
        double a = 2.0 * PI * i / n_disc;
        disc[i] = (vec2_t){cos(a), sin(a)};
    }
    /* Machines get a chamfered square plate: it reads as built, not born. */
    static const double PL[8][2] = {{-0.5, -0.92}, {0.5, -0.92}, {0.92, -0.5}, {0.92, 0.5},
                                    {0.5, 0.92},   {-0.5, 0.92}, {-0.92, 0.5}, {-0.92, -0.5}};
    for (int i = 0; i < 8; i++)
        plate[i] = (vec2_t){PL[i][0], PL[i][1]};

    /* Faction colours once per frame rather than once per token. */
    faction_color_t fc[MAP_MAX_FACTIONS * 2];
    int n_fc = 0;

    d->tokens.n = 0;
    d->overlay.n = 0;
    draw_refresh_marks(d, m);
    draw_refresh_conds(d, m, log);
    /* Names from a zoom where they can be read, at least 10 px; each goes
     * where it covers no other token and no name placed before it. */
    int label_px = (int)fmin(fmax(z * 0.34, 10.0), 20.0);
    bool labels = z >= 12.0;
    bool big = view && view->big_labels;
    if (big) {
        /* Read from across a table: larger names on an opaque plate. */
        label_px = (int)fmin(z * 0.5, 48.0);
        labels = label_px >= 9;
    }
    /* Every token's box first, so a name can keep clear of the ones after it. */
    d->n_drawn = m->n_combatants < MAP_MAX_COMBATANTS ? m->n_combatants : MAP_MAX_COMBATANTS;
    SDL_Rect boxes[MAP_MAX_COMBATANTS], names[MAP_MAX_COMBATANTS];
    for (int i = 0; i < d->n_drawn; i++) {
        const map_combatant_t *c = &m->combatants[i];
        const ui_token_pose_t *pz = poses ? &poses[i] : NULL;
        ui_token_drawn_t *dr = &d->drawn[i];
        memset(dr, 0, sizeof *dr);
        boxes[i] = names[i] = (SDL_Rect){0, 0, 0, 0};
        int shown = view ? (i < view->n ? view->show[i] : UI_SHOW_NONE) : UI_SHOW_ALL;
        if (shown == UI_SHOW_NONE || (pz ? pz->alpha <= 0.02f : !map_in_bounds(m, c->at))) continue;
        vec2_t sc = ui_cam_to_screen(cam, pz ? pz->world : ui_cell_center(m, c->at));
        double r = ui_token_screen_radius(c->size, z) + fmax(1.5, z * 0.06);
        int ri = (int)ceil(r);
        /* The box holds the HP bar and the gauges under it too. */
        double bar_h = fmax(3.0, z * 0.09);
        int low = (int)ceil(r + z * 0.03 + bar_h + 1 + (pz ? pz->bars : 0) * (bar_h + 2));
        boxes[i] =
            (SDL_Rect){(int)floor(sc.x) - ri, (int)floor(sc.y) - ri, 2 * ri + 1, ri + low + 1};
        dr->on = true;
        dr->token = boxes[i];
        memcpy(dr->mark, d->marks[i], UI_MARK_MAX);
    }
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            /* Pass 1 draws textures (token images, initials, labels) over the
             * geometry of pass 0. */
            /* With no shadow, sheen or fade every vertex is opaque, and the
             * software renderer fills unblended triangles far faster. */
            bool opaque = true;
            for (int k = 0; k < d->tokens.n && opaque; k++)
                opaque = d->tokens.v[k].color.a == 255;
            if (opaque) SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_NONE);
            if (d->tokens.n) SDL_RenderGeometry(d->r, NULL, d->tokens.v, d->tokens.n, NULL, 0);
            SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_BLEND);
            d->tokens.n = 0;
        }
        for (int i = 0; i < m->n_combatants; i++) {
            const map_combatant_t *c = &m->combatants[i];
            const ui_token_pose_t *pz = poses ? &poses[i] : NULL;
            int shown = view ? (i < view->n ? view->show[i] : UI_SHOW_NONE) : UI_SHOW_ALL;
            if (shown == UI_SHOW_NONE) continue; /* the players may not see it */
            if (pz ? pz->alpha <= 0.02f : !map_in_bounds(m, c->at)) continue;
            float fade = pz ? (pz->alpha > 1.0f ? 1.0f : pz->alpha) : 1.0f;
            double hp_shown = pz ? pz->hp : c->hp;
            vec2_t sc = ui_cam_to_screen(cam, pz ? pz->world : ui_cell_center(m, c->at));
            if (sc.x < -2 * z || sc.y < -2 * z || sc.x > w + 2 * z || sc.y > h + 2 * z) continue;
            float cx = (float)sc.x, cy = (float)sc.y;
            bool dot = z < UI_LOD_ZOOM; /* the map seen whole: a token is a coloured dot */
            double r = ui_token_screen_radius(c->size, z);
            float rim = (float)fmax(1.5, z * 0.06);
            const vec2_t *shape = c->kind == KIND_MACHINE ? plate : disc;
            int ns = c->kind == KIND_MACHINE ? 8 : n_disc;
            SDL_Texture *img = c->token[0] ? draw_token_image(d, c->token) : NULL;
            float bar_w = (float)(r * 1.7), bar_h = (float)fmax(3.0, z * 0.09);
            float bar_x = cx - bar_w / 2, bar_y = cy + (float)r + rim + (float)(z * 0.03);
            if (pass == 0) {
                int f = 0;
                while (f < n_fc && strcmp(fc[f].name, c->faction) != 0)
                    f++;
                if (f == n_fc && n_fc < (int)(sizeof fc / sizeof fc[0])) {
                    fc[n_fc] = (faction_color_t){c->faction, ui_faction_color(m, c->faction), 0};
                    n_fc++;
                }
                SDL_Color col = f < n_fc ? fc[f].color : (SDL_Color){128, 128, 128, 255};
                col.a = (Uint8)(255 * fade);
                /* A soft shadow, the dark rim, then the body. */
                if (fancy)
                    draw_push_poly(&d->tokens, cx + rim * 0.8f, cy + rim * 1.2f, shape, ns,
                                   (float)(r + rim), (SDL_Color){0, 0, 0, 70});
                draw_push_poly(&d->tokens, cx, cy, shape, ns, (float)(r + rim),
                               (SDL_Color){20, 22, 28, (Uint8)(255 * fade)});
                draw_push_poly(&d->tokens, cx, cy, shape, ns, (float)r, col);
                if (!img && fancy)
                    draw_push_poly(&d->tokens, cx, cy - (float)(r * 0.12), shape, ns,
                                   (float)(r * 0.72), (SDL_Color){255, 255, 255, 28});
                if (c->hp_max > 0 && bar_h >= 2 && fade > 0.5f && shown == UI_SHOW_ALL && !dot) {
                    double f2 = hp_shown / c->hp_max;
                    f2 = f2 < 0 ? 0 : f2 > 1 ? 1 : f2;
                    draw_push_rect(&d->tokens, bar_x - 1, bar_y - 1, bar_w + 2, bar_h + 2,
                                   (SDL_Color){15, 15, 18, 255});
                    draw_push_rect(&d->tokens, bar_x, bar_y, (float)(bar_w * f2), bar_h,
                                   ui_hp_color((int)lround(hp_shown), c->hp_max));
                }
                /* Condition markers: discs on the upper right of the rim,
                 * inside the token's own hex, so they cover no other token. */
                for (int k = 0; k < d->n_cond[i] && !dot && fade > 0.5f; k++) {
                    vec2_t mc = cond_spot(cx, cy, r, z, big, k);
                    double mr = cond_radius(z, big);
                    SDL_Color mcol = draw_rgb(COND_RGB[d->cond_hue[i][k]], 255);
                    draw_push_poly(&d->tokens, (float)mc.x, (float)mc.y, disc, n_disc,
                                   (float)(mr + 1.5), (SDL_Color){15, 15, 18, 255});
                    draw_push_poly(&d->tokens, (float)mc.x, (float)mc.y, disc, n_disc, (float)mr,
                                   mcol);
                }
                continue;
            }
            if (fade < 0.6f) continue; /* a fading token keeps no face or name */
            if (img) {
                SDL_Rect dst = {(int)(cx - r * 0.86), (int)(cy - r * 0.86), (int)(r * 1.72),
                                (int)(r * 1.72)};
                SDL_RenderCopy(d->r, img, NULL, &dst);
            } else {
                const char *ini = d->marks[i];
                int px = dot ? 0 : ui_token_initials_px(r, ini);
                SDL_Color col = ui_faction_color(m, c->faction);
                double lum = 0.299 * col.r + 0.587 * col.g + 0.114 * col.b;
                SDL_Color ink =
                    lum > 150 ? (SDL_Color){20, 20, 24, 255} : (SDL_Color){255, 255, 255, 255};
                int tw, th;
                SDL_Texture *t =
                    px >= 6 ? ui_text_get(d->text, ini, px, true, ink, &tw, &th) : NULL;
                if (t) {
                    SDL_Rect dst = {(int)lround(cx - tw / 2.0), (int)lround(cy - th / 2.0), tw, th};
                    SDL_RenderCopy(d->r, t, NULL, &dst);
                    if (i < d->n_drawn) d->drawn[i].initials_px = px;
                }
            }
            for (int k = 0; k < d->n_cond[i] && !dot; k++) {
                vec2_t mc = cond_spot(cx, cy, r, z, big, k);
                int px = (int)(cond_radius(z, big) * 1.25);
                if (px < 7) break; /* too small to read: the colour alone */
                uint32_t v = COND_RGB[d->cond_hue[i][k]];
                double lum = 0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255);
                SDL_Color ink =
                    lum > 140 ? (SDL_Color){15, 15, 18, 255} : (SDL_Color){255, 255, 255, 255};
                int tw, th;
                SDL_Texture *t =
                    ui_text_get(d->text, d->cond[i][k], ui_text_quantize(px), true, ink, &tw, &th);
                if (t) {
                    SDL_Rect dst = {(int)lround(mc.x - tw / 2.0), (int)lround(mc.y - th / 2.0), tw,
                                    th};
                    SDL_RenderCopy(d->r, t, NULL, &dst);
                }
            }
            if (labels) {
                const char *name = c->name[0] ? c->name : c->id;
                int tw, th;
                SDL_Texture *t = ui_text_get(d->text, name, label_px, false,
                                             (SDL_Color){245, 245, 240, 255}, &tw, &th);
                SDL_Rect bg;
                if (t && i < d->n_drawn &&
                    ui_place_label(tw + 8, th, boxes[i], boxes[i].y + boxes[i].h + 1, boxes,
                                   d->n_drawn, i, names, i, &bg)) {
                    SDL_SetRenderDrawColor(d->r, 16, 18, 24, big ? 255 : 170);
                    SDL_RenderFillRect(d->r, &bg);
                    SDL_Rect dst = {bg.x + 4, bg.y, tw, th};
                    SDL_RenderCopy(d->r, t, NULL, &dst);
                    names[i] = d->drawn[i].label = bg;
                }
            }
        }
    }
}
