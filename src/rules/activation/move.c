/* move.c - the Move action (A16): up to Movement hexes, difficult terrain
 * costing two, a reaction window before and after every step (A6), and a
 * grapple's controller carrying the others (A21). */
#include "act.h"

int act_path_cost(const battle_t *b, int i, const cell_t *path, int n)
{
    if (n < 1 || n > CMD_PATH_MAX) return -1;
    hex_t at = act_pos(b, i);
    int cost = 0;
    for (int k = 0; k < n; k++) {
        if (!map_in_bounds(b->map, path[k])) return -1;
        hex_t h = hex_from_cell(b->map->layout, path[k]);
        const terrain_t *t = map_terrain_at(b->map, path[k]);
        int occ = board_occupant(b->board, h);
        if (hex_distance(at, h) != 1 || t->move <= 0) return -1;
        if (occ >= 0 && occ != i && act_enemies(b, i, occ)) return -1; /* RULINGS: movement */
        cost += t->move;
        at = h;
    }
    int occ = board_occupant(b->board, at);
    if (occ >= 0 && occ != i) return -1; /* ends on a free hex */
    return cost;
}

void act_walk(battle_t *b, int i, const cell_t *path, int n)
{
    act_trigger_t x = {.user = i, .target = -1, .hit = -1};
    for (int k = 0; k < n; k++) {
        hex_t h0 = act_pos(b, i), h1 = hex_from_cell(b->map->layout, path[k]);
        x.from = h0;
        x.to = h1;
        act_window(b, WIN_STEP_BEFORE, &x, 0);
        if (act_stopped(b) || !battle_active(b, i)) return;
        /* Reactions strike or hold on; none moves anyone, so the checked
         * path stays open. */
        battle_step(b, i, h1);
        if (act_controls(b, i)) act_carry(b, i, h0);
        act_window(b, WIN_STEP_AFTER, &x, 0);
        if (act_stopped(b) || !battle_active(b, i)) return;
    }
    x.from = x.to = act_pos(b, i);
    act_window(b, WIN_MOVE_END, &x, 0);
}
