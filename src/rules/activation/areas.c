/* areas.c - the area actions of A17 on the shared templates (src/core/area.h):
 * burst, blast, cone (30 degrees each side) and line, each cut by line of
 * effect from its centre. The rules, the `area:` overlay and the animation
 * all build the shape here, so the hexes shown are the hexes struck. */
#include "act.h"

bool act_weapon_area(const map_t *m, const weapon_t *w, hex_t from, hex_t at, area_t *out)
{
    (void)m;
    int n;
    if ((n = battle_weapon_tag(w, "burst")) > 0) {
        *out = area_burst(from, n);
    } else if ((n = battle_weapon_tag(w, "blast")) > 0) {
        *out = area_blast(from, at, n);
    } else if ((n = battle_weapon_tag(w, "cone")) > 0) {
        if (hex_eq(from, at)) return false; /* no way to point it */
        *out = area_cone(from, at, n, AREA_TAN_30);
    } else if ((n = battle_weapon_tag(w, "line")) > 0) {
        if (hex_eq(from, at)) return false;
        *out = area_line(from, at, n, 1);
    } else {
        return false;
    }
    return true;
}

bool act_area_of(const battle_t *b, const act_action_t *a, hex_t from, hex_t aim, area_t *out)
{
    return a->shape != SHAPE_SINGLE && act_weapon_area(b->map, a->w, from, aim, out);
}

bool act_area_aim_ok(const battle_t *b, int i, const act_action_t *a, hex_t aim)
{
    area_t ar;
    hex_t from = act_pos(b, i);
    if (!act_area_of(b, a, from, aim, &ar)) return false;
    if (a->shape != SHAPE_BLAST) return true;
    /* A blast lands within the action's range, where its user can throw it. */
    return board_cell_index(b->board, aim) >= 0 && hex_distance(from, aim) <= a->range &&
           sight_clear(b->board, from, aim);
}

bool act_area_catches_hex(const battle_t *b, const act_action_t *a, const area_t *ar, hex_t h)
{
    /* A17: a burst spares its user, at its centre; a blast may well catch it. */
    if (a->shape == SHAPE_BURST && hex_eq(h, ar->origin)) return false;
    return area_covers(b->board, ar, h);
}

bool act_area_catches(const battle_t *b, int i, const act_action_t *a, const area_t *ar, int k)
{
    if (!battle_active(b, k)) return false;
    if (a->foes_only && !act_enemies(b, i, k)) return false;
    if (k == i && a->shape != SHAPE_BLAST) return false;
    return act_area_catches_hex(b, a, ar, act_pos(b, k));
}
