/* fog.c - building the player view (see fog.h). */
#include "fog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/sight.h"
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
    c->bits = calloc(k * (size_t)(c->n_words > 0 ? c->n_words : 1), sizeof *c->bits);
    return c->eye && c->have && c->bits;
}

void ui_fog_cache_free(ui_fog_cache_t *c)
{
    free(c->slot);
    free(c->eye);
    free(c->have);
    free(c->bits);
    memset(c, 0, sizeof *c);
}

void ui_fog_update(ui_fog_cache_t *c, vision_t *v, const board_t *bd)
{
    const map_t *m = bd->map;
    if (m->cols != v->cols || m->rows != v->rows || v->n_words != c->n_words || bd->n != c->n) {
        vision_update(v, bd, c->sides); /* not the board it was made for */
        return;
    }
    uint64_t t = 1469598103934665603ull;
    for (int i = 0; i < v->ncells; i++)
        t = (t ^ m->cells[i]) * 1099511628211ull;
    bool terrain = t != c->terrain;
    c->terrain = t;
    memset(v->visible, 0, sizeof *v->visible * (size_t)v->n_words);
    for (int i = 0; i < bd->n; i++) {
        int k = c->slot[i];
        if (k < 0) continue;
        if (!bd->present[i]) {
            c->have[k] = false;
            continue;
        }
        uint64_t *bits = c->bits + (size_t)k * (size_t)c->n_words;
        if (terrain || !c->have[k] || !hex_eq(c->eye[k], bd->pos[i])) {
            /* Its own sight, from its hex: the one costly part. */
            memset(bits, 0, sizeof *bits * (size_t)c->n_words);
            for (int cell = 0; cell < v->ncells; cell++)
                if (sight_clear(bd, bd->pos[i], board_hex_of(bd, cell)))
                    bits[cell >> 6] |= (uint64_t)1 << (cell & 63);
            c->eye[k] = bd->pos[i];
            c->have[k] = true;
            c->traces++;
        }
        for (int w = 0; w < c->n_words; w++)
            v->visible[w] |= bits[w];
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
