/* side_view.c - what one group of sides may see of a battle (see side_view.h). */
#include "side_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool side_view_stealthed(const battle_t *b, int i, unsigned sides)
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

void side_view_build(side_view_t *v, const vision_t *vis, const board_t *bd, const battle_t *b,
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
            v->show[i] = SIDE_SHOW_ALL;
            continue;
        }
        /* Judged by the hex, not by presence: a defeated enemy in sight may
         * still fade out on the table. */
        int c = board_cell_index(bd, bd->pos[i]);
        bool in_sight = !vis || (c >= 0 && vision_visible(vis, map_cell_of(bd->map, c)));
        v->show[i] = in_sight && !side_view_stealthed(b, i, sides) ? SIDE_SHOW_NO_HP : SIDE_SHOW_NONE;
    }
}

bool side_fog_cache_init(side_fog_cache_t *c, const board_t *bd, unsigned sides)
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

void side_fog_cache_free(side_fog_cache_t *c)
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
static void count_slot(side_fog_cache_t *c, vision_t *v, int k, int sign)
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
static void trace_slot(side_fog_cache_t *c, const board_t *bd, int k, hex_t eye)
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

void side_fog_update(side_fog_cache_t *c, vision_t *v, const board_t *bd)
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

/* Does map m name FACTION, in its factions object or on a combatant? */
static bool faction_known(const map_t *m, const char *faction)
{
    for (int i = 0; i < m->n_factions; i++)
        if (strcmp(m->factions[i].name, faction) == 0) return true;
    for (int i = 0; i < m->n_combatants; i++)
        if (strcmp(m->combatants[i].faction, faction) == 0) return true;
    return false;
}

int side_map_view_make(side_map_view_t *pv, const map_t *m, const char *faction, bool big_labels,
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
        side_map_view_free(pv);
        snprintf(err, errcap, "out of memory");
        return 1;
    }
    unsigned sides = vision_side_mask(pv->board, faction); /* 0: nobody there sees anything */
    vision_update(pv->vis, pv->board, sides);
    side_view_build(&pv->view, pv->vis, pv->board, NULL, sides, big_labels);
    return 0;
}

void side_map_view_free(side_map_view_t *pv)
{
    vision_destroy(pv->vis);
    board_destroy(pv->board);
    pv->vis = NULL;
    pv->board = NULL;
}

/* ---- keeping a view up to date ------------------------------------------ */

#define FNV_BASIS 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

/* Fold where combatant i stands (and whether it is on the board) into h. */
static uint64_t hash_pos(uint64_t h, const board_t *bd, int i)
{
    uint64_t v = (uint64_t)(uint32_t)bd->pos[i].q << 32 ^ (uint32_t)bd->pos[i].r;
    v = v * 2 + (bd->present[i] ? 1 : 0);
    return (h ^ v) * FNV_PRIME;
}

/* What the fog depends on: the viewing sides' positions and the terrain
 * (sight ignores combatants), so only their moves or a door opening cost a
 * new fog. Never 0, which means "not yet worked out". */
static uint64_t fog_fingerprint(const battle_t *b, unsigned sides)
{
    uint64_t h = FNV_BASIS ^ sides;
    const board_t *bd = b->board;
    for (int i = 0; i < bd->n; i++) {
        int s = bd->side[i];
        if (s >= 0 && s < 32 && ((sides >> s) & 1u)) h = hash_pos(h, bd, i);
    }
    const map_t *m = b->map;
    for (int c = 0; c < m->cols * m->rows; c++)
        h = (h ^ m->cells[c]) * FNV_PRIME;
    return h | 1;
}

/* What the filters depend on besides the fog: everybody's position, and the
 * log, whose events carry every change of stealth or awareness. */
static uint64_t view_fingerprint(const battle_t *b)
{
    uint64_t h = FNV_BASIS ^ (uint64_t)b->log.n;
    for (int i = 0; i < b->board->n; i++)
        h = hash_pos(h, b->board, i);
    return h | 1;
}

bool side_view_update(vision_t *vis, side_view_t *view, const battle_t *b, unsigned sides,
                      side_view_keys_t *keys, side_fog_cache_t *cache, bool big_labels)
{
    uint64_t fk = fog_fingerprint(b, sides), vk = view_fingerprint(b);
    bool fog = fk != keys->fog;
    if (!fog && vk == keys->view) return false;
    if (fog && cache && (!cache->slot || cache->sides != sides || cache->n != b->board->n)) {
        /* Made once per battle; on OOM every viewer is traced each time. */
        side_fog_cache_free(cache);
        if (!side_fog_cache_init(cache, b->board, sides)) side_fog_cache_free(cache);
    }
    if (fog) {
        if (cache && cache->slot)
            side_fog_update(cache, vis, b->board);
        else
            vision_update(vis, b->board, sides);
        keys->fog = fk;
        keys->fog_updates++;
    }
    keys->view = vk;
    side_view_build(view, vis, b->board, b, sides, big_labels);
    return true;
}

/* ---- gauges and telegraphed intentions ------------------------------------ */

int side_view_shows(const side_view_t *view, int i)
{
    if (!view) return SIDE_SHOW_ALL;
    return i >= 0 && i < view->n ? view->show[i] : SIDE_SHOW_NONE;
}

int side_view_intents(const battle_t *b, const side_view_t *view, intent_t *out, int cap)
{
    intent_t all[SIDE_INTENTS_MAX];
    int n = ruleset_intents(b->rules, b, all, SIDE_INTENTS_MAX), k = 0;
    for (int j = 0; j < n && k < cap; j++) {
        intent_t t = all[j];
        if (t.who < 0 || t.who >= b->n || !battle_active(b, t.who) ||
            side_view_shows(view, t.who) == SIDE_SHOW_NONE)
            continue; /* telling it would tell where an unseen foe stands */
        if (t.target >= 0 && (t.target >= b->n || side_view_shows(view, t.target) == SIDE_SHOW_NONE))
            t.target = -1;
        if (t.has_at && (!map_in_bounds(b->map, t.at) ||
                         (view && view->vis && !vision_visible(view->vis, t.at))))
            t.has_at = false;
        out[k++] = t;
    }
    return k;
}

int side_view_gauges(const battle_t *b, const side_view_t *view, int i, gauge_t *out, int cap)
{
    int how = side_view_shows(view, i);
    if (how == SIDE_SHOW_NONE || cap < 1) return 0;
    gauge_t g[GAUGES_MAX];
    int n = ruleset_gauges(b->rules, b, i, g, GAUGES_MAX), k = 0;
    for (int j = 0; j < n && k < cap; j++)
        if (how == SIDE_SHOW_ALL || g[j].seen == GAUGE_SEEN_ALL) out[k++] = g[j];
    return k;
}

