/* move.c - the Move action (A16): up to Movement hexes, difficult terrain
 * costing two, a reaction window before and after every step (A6), and a
 * grapple's controller carrying the others (A21). A Move is priced by the
 * one search of the core (move_cost_t), so the reachable set on screen, the
 * AI's paths and apply's check cannot disagree. */
#include "act.h"

const char *const ACT_MOVE_MODES[AM_COUNT] = {[AM_MOVE] = "move", [AM_DASH] = "dash"};

bool act_move_action(const battle_t *b, int i, int mode, act_action_t *out)
{
    *out = (act_action_t){.cost = 1, .slot = -1}; /* a plain Move: one simple action */
    if (mode != AM_DASH) return false;
    /* Dash: the first movement action the mover carries. */
    for (int w = 0; w < b->u[i].n_weapons; w++)
        if (act_action(b, i, w, out) && out->move) return true;
    *out = (act_action_t){.cost = 1, .slot = -1};
    return false;
}

bool act_move_cost(const battle_t *b, int i, int mode, move_cost_t *out)
{
    if (mode < 0 || mode >= AM_COUNT || !battle_active(b, i)) return false;
    act_action_t a;
    if (!act_move_action(b, i, mode, &a) && mode != AM_MOVE) return false;
    /* A23: in a grapple only the plain Move is left (to its controller, "may
     * still move themselves normally"); a movement action without [Grapple]
     * (Dash) is barred like any other action without it (A-G2). */
    if (mode != AM_MOVE && act_has(b, i, AC_GRAPPLED) && !a.grapple) return false;
    if (act_cst(b)->actor == i && !act_affordable(b, i, &a, true)) return false;
    int fph = b->map->feet_per_hex > 0 ? b->map->feet_per_hex : 5;
    /* Terrain x feet per hex, foes' hexes refused, allies passed through:
     * difficult terrain counts two hexes of the Movement score. */
    geom_move_plain(b->board, i, act_move_hexes(b, i) * fph, fph, out);
    out->mode = mode;
    return true;
}

void act_walk(battle_t *b, int i, const cell_t *path, int n, bool dash)
{
    act_trigger_t x = {.user = i, .target = -1, .hit = -1};
    for (int k = 0; k < n; k++) {
        hex_t h0 = act_pos(b, i), h1 = hex_from_cell(b->map->layout, path[k]);
        x.from = h0;
        x.to = h1;
        x.dash = dash && k == 0; /* "dashes": before the Dash's first step */
        act_window(b, WIN_STEP_BEFORE, &x, 0);
        if (act_stopped(b) || !battle_active(b, i)) return;
        /* Reactions strike or hold on; none moves anyone, so the checked
         * path stays open. */
        battle_step(b, i, h1);
        if (act_controls(b, i)) act_carry(b, i, h0);
        act_window(b, WIN_STEP_AFTER, &x, 0);
        if (act_stopped(b) || !battle_active(b, i)) return;
        /* Seized on the way (a held Grab): Bound, it moves no farther (A23). */
        if (act_has(b, i, AC_BOUND)) return;
    }
    x.from = x.to = act_pos(b, i);
    act_window(b, WIN_MOVE_END, &x, 0);
}
