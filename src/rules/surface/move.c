/* move.c - Surface Combat movement: move, sprint, retreat and flee, and the
 * free attacks a flee draws (S3, S5, S6, S9). See docs/rules-surface.md.
 */
#include <stdio.h>
#include <string.h>

#include "../ruleset.h"
#include "surface.h"

/* Actions each mode costs. */
static const int MODE_ACTIONS[SF_MODE_COUNT] = {1, 2, 1, 2};
const char *const SF_MODE_NAMES[SF_MODE_COUNT] = {"move", "sprint", "retreat", "flee"};

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

int sf_mode_actions(int mode)
{
    return mode >= 0 && mode < SF_MODE_COUNT ? MODE_ACTIONS[mode] : 0;
}

bool sf_mode_open(const battle_t *b, int i, int mode)
{
    if (mode < 0 || mode >= SF_MODE_COUNT || !battle_active(b, i) || sf_er_ft(b, i) <= 0)
        return false;
    if (sf_may_act(b, i)) {
        const sf_unit_t *u = &sf_cst(b)->u[i];
        if (u->left < MODE_ACTIONS[mode] || u->fired_still) return false;
    }
    bool melee = sf_in_melee(b, i);
    return (mode == SF_MOVE || mode == SF_SPRINT) ? !melee : melee;
}

/* mc->flags of a retreat or a flee: FOES_LISTED and bit j for each foe j
 * (j < FOES_BITS) the mover was in melee with, found once; else the mover's
 * own melee reach, and each step asks again. */
#define FOES_LISTED (1 << 30)
#define FOES_BITS 30

/* Is enemy j one that mover i is in melee with now (i standing on cell
 * start, reach its melee reach)? */
static bool melee_foe(const battle_t *b, int i, int start, int reach, int j)
{
    if (j == i || !battle_active(b, j) || !sf_enemies(b, i, j)) return false;
    /* Most foes are far off. */
    int d = hex_distance(board_hex_of(b->board, start), sf_pos(b, j));
    if (d > reach && d > sf_melee_reach(b, j)) return false;
    return sf_in_melee_pair(b, i, j);
}

/* Is enemy j one that mc's mover was in melee with when the move began (the
 * board does not change during a search, so "now" is the start)? */
static bool start_foe(const battle_t *b, const move_cost_t *mc, int j)
{
    if (mc->flags & FOES_LISTED) return j < FOES_BITS && ((mc->flags >> j) & 1);
    return melee_foe(b, mc->who, mc->start, mc->flags, j);
}

/* A step of a retreat or a flee: the ordinary cost (terrain, enemies barred,
 * allies passed through), never closer to a foe it was in melee with (S5). */
static int step_cost(void *ud, int from, int to)
{
    const move_cost_t *mc = ud;
    const battle_t *b = mc->data;
    path_mover_t pm = {mc->board, mc->who};
    int c = path_move_cost(&pm, from, to);
    if (c < 0) return c;
    hex_t hf = board_hex_of(b->board, from), ht = board_hex_of(b->board, to);
    for (int j = 0; j < b->n; j++)
        if (start_foe(b, mc, j) && hex_distance(ht, sf_pos(b, j)) < hex_distance(hf, sf_pos(b, j)))
            return -1;
    return c;
}

/* A retreat or a flee ends farther from each of those foes (S5). */
static bool end_ok(const move_cost_t *mc, int idx)
{
    const battle_t *b = mc->data;
    hex_t end = board_hex_of(b->board, idx), start = board_hex_of(b->board, mc->start);
    for (int j = 0; j < b->n; j++)
        if (start_foe(b, mc, j) &&
            hex_distance(end, sf_pos(b, j)) <= hex_distance(start, sf_pos(b, j)))
            return false;
    return true;
}

bool sf_move_cost(const battle_t *b, int i, int mode, move_cost_t *out)
{
    if (!sf_mode_open(b, i, mode)) return false;
    geom_move_plain(b->board, i, sf_mode_budget(b, i, mode), b->map->feet_per_hex, out);
    /* A move or a sprint steps as anyone does; only a retreat or a flee
     * asks more of each step. */
    if (mode == SF_RETREAT || mode == SF_FLEE) out->step = step_cost;
    out->may_end = mode == SF_RETREAT || mode == SF_FLEE ? end_ok : NULL;
    out->data = b;
    out->mode = mode;
    out->flags = sf_melee_reach(b, i);
    out->start = board_cell_index(b->board, sf_pos(b, i));
    if (mode == SF_RETREAT || mode == SF_FLEE) {
        /* The foes it leaves, found once: every step asks about them. */
        int listed = FOES_LISTED;
        for (int j = 0; j < b->n && listed; j++)
            if (melee_foe(b, i, out->start, out->flags, j))
                listed = j < FOES_BITS ? listed | 1 << j : 0;
        if (listed) out->flags = listed;
    }
    return true;
}

bool sf_path_ok(const battle_t *b, int i, int mode, const cell_t *path, int n, int *cost_ft)
{
    *cost_ft = 0;
    move_cost_t mc;
    if (!sf_may_act(b, i) || n < 1 || n > CMD_PATH_MAX || !sf_move_cost(b, i, mode, &mc))
        return false;
    int cost = geom_path_price(&mc, path, n);
    if (cost < 0 || cost > mc.budget_ft) return false;
    *cost_ft = cost;
    return true;
}

/* Would r take its free attack on the fleeing t? A side that declines every
 * reaction lets it pass; a side the table wants asked is asked; otherwise
 * the AI's policy decides. */
static bool take_response(battle_t *b, int r, int t, int w)
{
    const weapon_t *wp = battle_weapon(b, r, w);
    char strike[REACT_LABEL_MAX];
    snprintf(strike, sizeof strike, "strike (%.24s)", wp ? wp->name : "bare hands");
    const char *const labels[2] = {"let it go", strike};
    return battle_ask_choice(b, r, "flee_response", t, 2, labels) == 1;
}

/* Every enemy in melee with t when it flees, with an action unspent this
 * round and its one attack still to make, may attack it first (S6):
 * factions in initiative order, members in map order. */
static void flee_responses(battle_t *b, int t)
{
    const sf_state_t *s = sf_cst(b);
    bool foe[SF_NMAX];
    for (int r = 0; r < b->n; r++)
        foe[r] = r != t && battle_active(b, r) && sf_enemies(b, t, r) && sf_in_melee_pair(b, t, r);
    for (int k = 0; k < s->n_order && battle_active(b, t); k++)
        for (int r = 0; r < b->n && battle_active(b, t); r++) {
            if (!foe[r] || b->board->side[r] != s->order[k] || !battle_active(b, r)) continue;
            if (s->u[r].left < 1 || s->u[r].attacked) continue;
            int w = sf_response_weapon(b, r, t);
            if (w < -1 || !take_response(b, r, t, w)) continue;
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
    if (mode != SF_MOVE) battle_emit_action(b, i, SF_MODE_NAMES[mode], -1, true);
    if (mode == SF_FLEE) flee_responses(b, i);
    sf_st(b)->u[i].moved = 1;
    for (int k = 0; k < c->n_path && battle_active(b, i); k++)
        battle_step(b, i, hex_from_cell(b->map->layout, c->path[k]));
    sf_spend(b, i, MODE_ACTIONS[mode]);
}
