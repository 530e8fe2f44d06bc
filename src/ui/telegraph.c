/* telegraph.c - telegraphed actions still to land (see telegraph.h). */
#include "telegraph.h"

#include <string.h>

static bool same(const ui_telegraph_t *t, const event_t *e)
{
    bool at = (e->opt & EV_OPT_AT) != 0;
    if (t->who != e->who || t->has_at != at || strcmp(t->name, e->name) != 0) return false;
    return at ? t->at.col == e->to.col && t->at.row == e->to.row : t->target == e->target;
}

int ui_telegraphs(const battle_t *b, ui_telegraph_t *out, int cap)
{
    int n = 0;
    for (int k = 0; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type != EV_DECLARE || !(e->opt & EV_OPT_VALUE)) continue;
        int at = -1;
        for (int q = 0; q < n && at < 0; q++)
            if (same(&out[q], e)) at = q;
        if (e->value <= 0) {
            if (at >= 0) {
                memmove(out + at, out + at + 1, sizeof *out * (size_t)(n - at - 1));
                n--;
            }
            continue;
        }
        if (at < 0) {
            if (n == cap) continue; /* more than the marks can show: the oldest stay */
            at = n++;
            out[at] = (ui_telegraph_t){.who = e->who, .target = e->target,
                                       .has_at = (e->opt & EV_OPT_AT) != 0,
                                       .at = e->to, .from = e->from};
            memcpy(out[at].name, e->name, sizeof out[at].name);
        }
        out[at].left = e->value;
    }
    /* A declarer that left the fight takes its telegraphs with it. */
    int keep = 0;
    for (int q = 0; q < n; q++)
        if (battle_active(b, out[q].who)) out[keep++] = out[q];
    return keep;
}

const weapon_t *ui_telegraph_weapon(const battle_t *b, const ui_telegraph_t *t)
{
    if (t->who >= 0 && t->who < b->n)
        for (int w = 0; w < b->u[t->who].n_weapons; w++)
            if (strcmp(b->u[t->who].weapon[w]->id, t->name) == 0) return b->u[t->who].weapon[w];
    return tmpl_find_weapon(b->db, t->name);
}

int ui_telegraph_hexes(const battle_t *b, const ui_telegraph_t *t, hex_t *out, int cap)
{
    if (cap < 1) return 0;
    const ruleset_t *rs = b->rules;
    hex_layout_t lay = b->map->layout;
    if (t->has_at) {
        area_t a;
        const weapon_t *w = ui_telegraph_weapon(b, t);
        if (rs && rs->weapon_area && w &&
            rs->weapon_area(b->map, w, hex_from_cell(lay, t->from), hex_from_cell(lay, t->at), &a)) {
            int n = area_hexes(b->board, &a, out, cap);
            return n < cap ? n : cap;
        }
        out[0] = hex_from_cell(lay, t->at);
        return 1;
    }
    if (!battle_active(b, t->target)) return 0;
    out[0] = b->board->pos[t->target];
    return 1;
}
