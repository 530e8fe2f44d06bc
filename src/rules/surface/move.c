/* move.c - Surface Combat movement: move, sprint, retreat and flee, and the
 * free attacks a flee draws (S3, S5, S6, S9). See docs/rules-surface.md.
 */
#include <string.h>

#include "surface.h"

/* Actions each mode costs. */
static const int MODE_ACTIONS[SF_MODE_COUNT] = {1, 2, 1, 2};
static const char *const MODE_NAMES[SF_MODE_COUNT] = {"move", "sprint", "retreat", "flee"};

int sf_mode_budget(const battle_t *b, int i, int mode)
{
    int er = sf_er_ft(b, i), fph = b->map->feet_per_hex;
    switch (mode) {
    case SF_MOVE:
        return er;
    case SF_SPRINT:
        return 4 * er; /* S3: two moves already give twice the ER */
    case SF_RETREAT: {
        int h = er / 2 / fph; /* half the ER, whole hexes, at least one (S5) */
        return (h < 1 ? 1 : h) * fph;
    }
    case SF_FLEE:
        return 2 * er;
    default:
        return 0;
    }
}

bool sf_mode_open(const battle_t *b, int i, int mode)
{
    const sf_unit_t *u = &sf_cst(b)->u[i];
    if (mode < 0 || mode >= SF_MODE_COUNT || !sf_may_act(b, i)) return false;
    if (u->left < MODE_ACTIONS[mode] || u->fired_still) return false;
    if (sf_er_ft(b, i) <= 0) return false;
    bool melee = sf_in_melee(b, i);
    return (mode == SF_MOVE || mode == SF_SPRINT) ? !melee : melee;
}

void sf_mover_init(sf_mover_t *mv, const battle_t *b, int i, int mode)
{
    memset(mv, 0, sizeof *mv);
    mv->b = b;
    mv->who = i;
    mv->mode = mode;
    if (mode != SF_RETREAT && mode != SF_FLEE) return;
    for (int j = 0; j < b->n && mv->n_foes < 16; j++)
        if (j != i && battle_active(b, j) && sf_enemies(b, i, j) && sf_in_melee_pair(b, i, j))
            mv->foes[mv->n_foes++] = j;
}

int sf_step_cost(void *ud, int from, int to)
{
    const sf_mover_t *mv = ud;
    const battle_t *b = mv->b;
    path_mover_t pm = {b->board, mv->who};
    int c = path_move_cost(&pm, from, to);
    if (c < 0) return -1;
    /* A withdrawal never steps closer to a foe it was in melee with (S5). */
    hex_t hf = board_hex_of(b->board, from), ht = board_hex_of(b->board, to);
    for (int k = 0; k < mv->n_foes; k++) {
        hex_t f = sf_pos(b, mv->foes[k]);
        if (hex_distance(ht, f) < hex_distance(hf, f)) return -1;
    }
    return c;
}

bool sf_end_ok(const sf_mover_t *mv, int idx)
{
    const battle_t *b = mv->b;
    int occ = b->board->occ[idx];
    if (occ >= 0 && occ != mv->who) return false;
    hex_t end = board_hex_of(b->board, idx), start = sf_pos(b, mv->who);
    for (int k = 0; k < mv->n_foes; k++) {
        hex_t f = sf_pos(b, mv->foes[k]);
        if (hex_distance(end, f) <= hex_distance(start, f)) return false;
    }
    return true;
}

bool sf_path_ok(const battle_t *b, int i, int mode, const cell_t *path, int n, int *cost_ft)
{
    *cost_ft = 0;
    if (!sf_mode_open(b, i, mode) || n < 1 || n > CMD_PATH_MAX) return false;
    sf_mover_t mv;
    sf_mover_init(&mv, b, i, mode);
    int from = board_cell_index(b->board, sf_pos(b, i)), cost = 0;
    for (int k = 0; k < n; k++) {
        if (!map_in_bounds(b->map, path[k])) return false;
        int to = map_index(b->map, path[k]);
        if (hex_distance(board_hex_of(b->board, from), board_hex_of(b->board, to)) != 1)
            return false;
        int c = sf_step_cost(&mv, from, to);
        if (c < 0) return false;
        cost += c;
        from = to;
    }
    if (cost > sf_mode_budget(b, i, mode) || !sf_end_ok(&mv, from)) return false;
    *cost_ft = cost;
    return true;
}

/* Would r take its free attack on the fleeing t? A side that declines every
 * reaction lets it pass; a side the table wants asked is asked; otherwise
 * the AI's policy decides. */
static bool take_response(battle_t *b, int r, int t)
{
    unsigned side = (unsigned)b->board->side[r];
    if (side < 32 && (b->opts.decline_sides & (1u << side))) return false;
    if (side < 32 && (b->opts.ask_sides & (1u << side)))
        return battle_ask_reaction(b, r, "flee_response", t);
    return sf_ai_respond(b, r, t);
}

/* Every enemy in melee with t when it flees, with an action unspent this
 * round and its one attack still to make, may attack it first (S6):
 * factions in initiative order, members in map order. */
static void flee_responses(battle_t *b, int t, const sf_mover_t *mv)
{
    const sf_state_t *s = sf_cst(b);
    for (int k = 0; k < s->n_order && battle_active(b, t); k++)
        for (int j = 0; j < mv->n_foes && battle_active(b, t); j++) {
            int r = mv->foes[j];
            if (b->board->side[r] != s->order[k] || !battle_active(b, r)) continue;
            if (s->u[r].left < 1 || s->u[r].attacked) continue;
            int w = sf_response_weapon(b, r, t);
            if (w < -1 || !take_response(b, r, t)) continue;
            event_t e = event_make(EV_REACTION);
            e.who = r;
            e.target = t;
            hb_strlcpy(e.name, "flee_response", sizeof e.name);
            battle_emit(b, &e);
            sf_respond(b, r, t, w);
        }
}

void sf_do_move(battle_t *b, const cmd_t *c)
{
    int i = c->actor, mode = c->arg;
    sf_mover_t mv;
    sf_mover_init(&mv, b, i, mode);
    if (mode != SF_MOVE) battle_emit_action(b, i, MODE_NAMES[mode], -1, true);
    if (mode == SF_FLEE) flee_responses(b, i, &mv);
    sf_st(b)->u[i].moved = 1;
    for (int k = 0; k < c->n_path && battle_active(b, i); k++)
        battle_step(b, i, hex_from_cell(b->map->layout, c->path[k]));
    sf_spend(b, i, MODE_ACTIONS[mode]);
}
