/* fog.c - building the player view (see fog.h). */
#include "fog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/ruleset.h"

bool ui_view_stealthed(const battle_t *b, int i, unsigned sides)
{
    const ruleset_t *rs = b ? (const ruleset_t *)b->rules : NULL;
    if (!rs || !rs->hidden_from || i < 0 || i >= b->n) return false;
    const board_t *bd = b->board;
    int own = bd->side[i];
    if (own >= 0 && own < 32 && ((sides >> own) & 1u)) return false; /* a side knows its own */
    /* The table shares what its sides know: hidden only if hidden from each. */
    bool any = false;
    for (int s = 0; s < bd->n_sides && s < 32; s++) {
        if (!((sides >> s) & 1u)) continue;
        any = true;
        if (!rs->hidden_from(b, i, s)) return false;
    }
    return any;
}

void ui_view_build(ui_view_t *v, const vision_t *vis, const board_t *bd, const battle_t *b,
                   unsigned sides, bool big_labels)
{
    v->vis = vis;
    v->sides = sides;
    v->big_labels = big_labels;
    v->n = bd->n < MAP_MAX_COMBATANTS ? bd->n : MAP_MAX_COMBATANTS;
    for (int i = 0; i < v->n; i++) {
        int s = bd->side[i];
        bool own = s >= 0 && s < 32 && ((sides >> s) & 1u);
        if (own) {
            v->show[i] = UI_SHOW_ALL;
            continue;
        }
        /* Judged by the hex, not by presence: a defeated enemy in sight may
         * still fade out on the table. */
        int c = board_cell_index(bd, bd->pos[i]);
        bool in_sight = !vis || (c >= 0 && vision_visible(vis, map_cell_of(bd->map, c)));
        v->show[i] = in_sight && !ui_view_stealthed(b, i, sides) ? UI_SHOW_NO_HP : UI_SHOW_NONE;
    }
}

bool ui_fog_cache_init(ui_fog_cache_t *c, const board_t *bd, unsigned sides)
{
    memset(c, 0, sizeof *c);
    c->sides = sides;
    c->n = bd->n;
    int ncells = bd->map->cols * bd->map->rows;
    c->n_words = (ncells + 63) / 64;
    c->slot = malloc(sizeof *c->slot * (size_t)(bd->n > 0 ? bd->n : 1));
    if (!c->slot) return false;
    for (int i = 0; i < bd->n; i++) {
        int s = bd->side[i];
        c->slot[i] = s >= 0 && s < 32 && ((sides >> s) & 1u) ? (int16_t)c->n_slots++ : -1;
    }
    size_t k = (size_t)(c->n_slots > 0 ? c->n_slots : 1);
    c->eye = calloc(k, sizeof *c->eye);
    c->have = calloc(k, sizeof *c->have);
    c->lo = calloc(k, sizeof *c->lo);
    c->hi = calloc(k, sizeof *c->hi);
    c->bits = calloc(k * (size_t)(c->n_words > 0 ? c->n_words : 1), sizeof *c->bits);
    c->count = calloc((size_t)(ncells > 0 ? ncells : 1), sizeof *c->count);
    return c->eye && c->have && c->lo && c->hi && c->bits && c->count &&
           fov_scratch_init(&c->fov, bd->map);
}

void ui_fog_cache_free(ui_fog_cache_t *c)
{
    free(c->slot);
    free(c->eye);
    free(c->have);
    free(c->lo);
    free(c->hi);
    free(c->bits);
    free(c->count);
    fov_scratch_free(&c->fov);
    memset(c, 0, sizeof *c);
}

/* What decides sight on m: which cells block it, as a fingerprint (a word
 * at a time over the cells, then the types that block). */
static uint64_t sight_fingerprint(const map_t *m)
{
    uint64_t h = 1469598103934665603ull;
    size_t n = (size_t)m->cols * (size_t)m->rows, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, m->cells + i, 8);
        h = (h ^ w) * 1099511628211ull;
    }
    for (; i < n; i++)
        h = (h ^ m->cells[i]) * 1099511628211ull;
    for (int t = 0; t < m->n_types; t++)
        h = (h ^ (uint64_t)m->types[t].blocks_sight) * 1099511628211ull;
    return h;
}

/* Add (sign 1) or take away (-1) the sight of slot k to the per-cell
 * counts, setting or clearing v's visible cells as a count leaves or
 * reaches zero. */
static void count_slot(ui_fog_cache_t *c, vision_t *v, int k, int sign)
{
    const uint64_t *bits = c->bits + (size_t)k * (size_t)c->n_words;
    for (int w = c->lo[k]; w <= c->hi[k]; w++) {
        for (uint64_t x = bits[w]; x; x &= x - 1) {
            int cell = w * 64 + __builtin_ctzll(x);
            uint64_t bit = (uint64_t)1 << (cell & 63);
            if (sign > 0) {
                if (c->count[cell]++ == 0) v->visible[w] |= bit;
            } else if (--c->count[cell] == 0) {
                v->visible[w] &= ~bit;
            }
        }
    }
}

/* Slot k's own sight from hex eye, traced afresh. */
static void trace_slot(ui_fog_cache_t *c, const board_t *bd, int k, hex_t eye)
{
    uint64_t *bits = c->bits + (size_t)k * (size_t)c->n_words;
    /* lo..hi still covers what it saw last, even after it left the board. */
    if (c->lo[k] <= c->hi[k])
        memset(bits + c->lo[k], 0, sizeof *bits * (size_t)(c->hi[k] - c->lo[k] + 1));
    fov_cells(bd, eye, bits, &c->lo[k], &c->hi[k], &c->fov);
    c->eye[k] = eye;
    c->have[k] = true;
    c->traces++;
}

void ui_fog_update(ui_fog_cache_t *c, vision_t *v, const board_t *bd)
{
    const map_t *m = bd->map;
    if (m->cols != v->cols || m->rows != v->rows || v->n_words != c->n_words || bd->n != c->n) {
        vision_update(v, bd, c->sides); /* not the board it was made for */
        return;
    }
    uint64_t t = sight_fingerprint(m);
    if (t != c->terrain || c->synced != v) {
        /* Everyone afresh: the terrain changed, or another vision. */
        c->terrain = t;
        c->synced = v;
        memset(c->count, 0, sizeof *c->count * (size_t)v->ncells);
        memset(v->visible, 0, sizeof *v->visible * (size_t)v->n_words);
        memset(c->bits, 0, sizeof *c->bits * (size_t)c->n_words * (size_t)c->n_slots);
        for (int i = 0; i < bd->n; i++) {
            int k = c->slot[i];
            if (k < 0) continue;
            c->have[k] = false;
            c->lo[k] = 1; /* nothing kept */
            c->hi[k] = 0;
            if (!bd->present[i]) continue;
            trace_slot(c, bd, k, bd->pos[i]);
            count_slot(c, v, k, 1);
        }
    } else {
        /* Only the viewers that moved, came or went. */
        for (int i = 0; i < bd->n; i++) {
            int k = c->slot[i];
            if (k < 0) continue;
            bool here = bd->present[i];
            if (c->have[k] && here && hex_eq(c->eye[k], bd->pos[i])) continue;
            if (!c->have[k] && !here) continue;
            if (c->have[k]) count_slot(c, v, k, -1);
            if (here) {
                trace_slot(c, bd, k, bd->pos[i]);
                count_slot(c, v, k, 1);
            } else {
                c->have[k] = false;
            }
        }
    }
    for (int w = 0; w < v->n_words; w++)
        v->seen[w] |= v->visible[w];
}

/* Is combatant i (-1: nobody in particular) drawn in view v? */
static bool fx_party_shown(const ui_view_t *v, int i)
{
    return i < 0 || (i < v->n && v->show[i] != UI_SHOW_NONE);
}

int ui_view_fx(const ui_view_t *v, const anim_fx_t *f)
{
    if (!v) return UI_FX_SHOW;
    switch (f->kind) {
    case FX_TRACER:
        /* Either end alone would point at the hidden one. */
        return fx_party_shown(v, f->who) && fx_party_shown(v, f->target) ? UI_FX_SHOW : UI_FX_HIDE;
    case FX_LUNGE:
        return fx_party_shown(v, f->who) ? UI_FX_SHOW : UI_FX_HIDE;
    case FX_NUMBER:
        if (!fx_party_shown(v, f->target)) return UI_FX_HIDE;
        return f->target >= 0 && v->show[f->target] == UI_SHOW_ALL ? UI_FX_SHOW : UI_FX_NO_AMOUNT;
    case FX_HIT:
    case FX_MISS:
    case FX_AREA:
    default:
        /* Drawn where the target stands (an area where it struck): a player
         * shot from the dark still sees the hit land, but nothing says where
         * it came from. */
        return fx_party_shown(v, f->target) ? UI_FX_SHOW : UI_FX_HIDE;
    }
}

/* Does map m name FACTION, in its factions object or on a combatant? */
static bool faction_known(const map_t *m, const char *faction)
{
    for (int i = 0; i < m->n_factions; i++)
        if (strcmp(m->factions[i].name, faction) == 0) return true;
    for (int i = 0; i < m->n_combatants; i++)
        if (strcmp(m->combatants[i].faction, faction) == 0) return true;
    return false;
}

int ui_player_view_make(ui_player_view_t *pv, const map_t *m, const char *faction, bool big_labels,
                        char *err, size_t errcap)
{
    memset(pv, 0, sizeof *pv);
    if (!faction_known(m, faction)) {
        int n = snprintf(err, errcap, "--view: no faction '%s' on map '%s'; factions:", faction,
                         m->name);
        /* List what there is, each name once, so the fix is obvious. */
        for (int i = 0; i < m->n_combatants && n > 0 && (size_t)n < errcap; i++) {
            bool dup = false;
            for (int k = 0; k < i && !dup; k++)
                dup = strcmp(m->combatants[k].faction, m->combatants[i].faction) == 0;
            if (!dup) n += snprintf(err + n, errcap - (size_t)n, " %s", m->combatants[i].faction);
        }
        return 2;
    }
    pv->board = board_create(m);
    pv->vis = vision_create(m);
    if (!pv->board || !pv->vis) {
        ui_player_view_free(pv);
        snprintf(err, errcap, "out of memory");
        return 1;
    }
    unsigned sides = vision_side_mask(pv->board, faction); /* 0: nobody there sees anything */
    vision_update(pv->vis, pv->board, sides);
    ui_view_build(&pv->view, pv->vis, pv->board, NULL, sides, big_labels);
    return 0;
}

void ui_player_view_free(ui_player_view_t *pv)
{
    vision_destroy(pv->vis);
    board_destroy(pv->board);
    pv->vis = NULL;
    pv->board = NULL;
}
