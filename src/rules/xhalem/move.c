/* move.c - xhalem movement: the move modes (walk, fly, dash), walking a path
 * with what it provokes and sets off, dragging, pushing and keeping a seat.
 */
#include "xh_int.h"

/* A step of a move (move_cost_t.step): passable terrain, no enemy in the
 * hex (allies are passed through); a flier crosses ground at the plain rate. */
int xh_step(void *ud, int from, int to)
{
    const move_cost_t *mv = ud;
    const battle_t *b = mv->data;
    (void)from;
    const terrain_t *t = &b->map->types[b->map->cells[to]];
    /* A flier is above the terrain: it crosses a chasm, never a wall. */
    if (t->move <= 0 && ((mv->flags & XMF_FLY) == 0 || t->blocks_sight)) return -1;
    int occ = b->board->occ[to];
    if (occ >= 0 && occ != mv->who && enemies(b, mv->who, occ)) return -1;
    /* Dragging a foe: the held body cannot follow through anyone's hex. */
    if (occ >= 0 && occ != mv->who && (mv->flags & XMF_DRAG)) return -1;
    return ((mv->flags & XMF_FLY) ? 1 : t->move) * b->map->feet_per_hex;
}

bool xhalem_move_cost(const battle_t *b, int i, int mode, move_cost_t *out)
{
    const xh_state_t *s = cst(b);
    if (mode < 0 || mode >= XM_COUNT || !battle_active(b, i)) return false;
    bool acting = i == s->actor;
    bool up = airborne(b, i), flying = up, dashed = acting && s->turn.dashed;
    if (mode == XM_WALK && up) return false; /* in the air: fly, or land first */
    if (mode == XM_FLY) {
        if (mc(b, carrier(b, i))->fly_ft <= 0) return false;
        flying = true; /* taking off is free */
    }
    if (mode == XM_DASH) {
        if (acting && (s->turn.acted || s->turn.dashed)) return false; /* the dash is the action */
        if (holding_someone(b, i)) return false; /* a grappler takes no action but its strike */
        dashed = true;
    }
    int left = xh_speed_ft(b, i, flying, dashed) - (acting ? s->turn.moved_ft : 0);
    if (acting && s->turn.dash_over) left = 0;
    *out = (move_cost_t){.step = xh_step,
                         .budget_ft = immobile(b, i) || left < 0 ? 0 : left,
                         .interval_ft = b->prof[i].interval_ft,
                         .board = b->board,
                         .who = i,
                         .data = b,
                         .mode = mode,
                         .flags = (flying ? XMF_FLY : 0) | (holding_someone(b, i) ? XMF_DRAG : 0)};
    return true;
}

/* The mode i moves in as it stands: flying once in the air, else walking. */
int xh_current_mode(const battle_t *b, int i)
{
    return airborne(b, i) ? XM_FLY : XM_WALK;
}

/* Whoever i holds is dragged into the hex i just left. */
static void drag_held(battle_t *b, int i, hex_t left)
{
    xh_state_t *s = st(b);
    for (int k = 0; k < b->n; k++) {
        if (s->grappled_by[k] != i + 1 || !battle_active(b, k) || board_occupant(b->board, left) >= 0)
            continue;
        /* Dragged by force: it provokes as a push does, though not from the
         * one dragging it (RULINGS: grapple). */
        if (xh_opportunities(b, k, pos(b, k), left, true, i, false)) battle_step(b, k, left);
    }
}

/* i walks path[0..n) (already checked and paid for) of its own will: on its
 * turn, or out of turn as a held standby move (reacting). Each step may draw
 * opportunities first and set off standbys after; up is the move under way
 * that this one answers, if any. */
void xh_walk(battle_t *b, int i, const cell_t *path, int n, bool reacting, const walk_ctx_t *up)
{
    xh_state_t *s = st(b);
    for (int k = 0; k < n && battle_active(b, i); k++) {
        hex_t h0 = pos(b, i);
        hex_t h1 = hex_from_cell(b->map->layout, path[k]);
        if (!xh_opportunities(b, i, h0, h1, false, -1, reacting)) break;
        int mount = xhalem_mount_of(b, i);
        if (mount >= 0) battle_step(b, mount, h1); /* the mount carries; the rider shares its hex */
        battle_step(b, i, h1);
        drag_held(b, i, h0);
        /* Moving into view of an enemy that sees clearly ends hiding. */
        if (has(b, i, XC_HIDDEN)) {
            for (int e = 0; e < b->n; e++) {
                if (!battle_active(b, e) || !enemies(b, e, i)) continue;
                sight_t sg = sight_trace(b->board, pos(b, e), h1);
                if (sg.visible && sg.cover == COVER_NONE) {
                    xh_set_cond(b, i, XC_HIDDEN, "hidden", false);
                    break;
                }
            }
        }
        walk_ctx_t here = {path + k + 1, n - k - 1, up};
        xh_standby_after_move(b, i, &here);
    }
    /* A cloaked mover that ends out of every enemy's sight is unseen again. */
    if (battle_active(b, i) && has(b, i, XC_CLOAKED) && s->revealed[i]) {
        bool seen = false;
        for (int e = 0; e < b->n && !seen; e++)
            seen = battle_active(b, e) && enemies(b, e, i) &&
                   sight_clear(b->board, pos(b, e), pos(b, i));
        if (!seen) s->revealed[i] = 0;
    }
}

/* The dash (or a machine's thrust): the action, and the move doubles. */
void xh_dash(battle_t *b, int a)
{
    xh_state_t *s = st(b);
    s->turn.acted = s->turn.dashed = true;
    s->turn.dash_from_ft = s->turn.moved_ft;
    battle_emit_action(b, a, is_machine(b, a) ? "thrust" : "dash", -1, true);
    xh_standby_after_dash(b, a);
}

/* A move in mode c->arg (XM_*): the path must be one the mode's cost
 * accepts, within its budget (xhalem_move_cost). Flying takes off first; a
 * dash spends the action first, and the path is checked again after any
 * standby the dash set off. */
battle_status_t xh_do_move(battle_t *b, const cmd_t *c)
{
    xh_state_t *s = st(b);
    int i = c->actor, mode = c->arg;
    if (mode == XM_WALK && airborne(b, i))
        mode = XM_FLY; /* as moves were given before there were modes */
    move_cost_t mv;
    if (c->n_path < 1 || c->n_path > CMD_PATH_MAX || !xhalem_move_cost(b, i, mode, &mv))
        return BATTLE_ILLEGAL;
    int cost = geom_path_price(&mv, c->path, c->n_path);
    if (cost < 0 || cost > mv.budget_ft) return BATTLE_ILLEGAL;
    if (mode == XM_FLY && !airborne(b, i)) xh_set_cond(b, carrier(b, i), XC_FLYING, "flying", true);
    if (mode == XM_DASH) {
        xh_dash(b, i);
        if (!battle_active(b, i) || !xhalem_move_cost(b, i, xh_current_mode(b, i), &mv))
            return BATTLE_OK;
        cost = geom_path_price(&mv, c->path, c->n_path);
        if (cost < 0 || cost > mv.budget_ft)
            return BATTLE_OK; /* a reaction to the dash changed the way: it stays put */
    }
    s->turn.moved_ft += cost;
    xh_walk(b, i, c->path, c->n_path, false, NULL);
    return BATTLE_OK;
}

/* A free, passable hex beside h (5 ft away), first in direction order, or h. */
static hex_t free_beside(const battle_t *b, hex_t h)
{
    for (int d = 0; d < HEX_DIRS; d++) {
        hex_t n = hex_neighbor(h, d);
        int idx = board_cell_index(b->board, n);
        if (idx >= 0 && b->board->occ[idx] < 0 && b->map->types[b->map->cells[idx]].move > 0)
            return n;
    }
    return h;
}

/* Mount m was moved against its will with rider r on it: m keeps its feet on
 * a check or is knocked down; r keeps its seat on a check or falls off, prone,
 * beside m. A rider that passes while its mount goes down is dismounted on its
 * feet beside it. With no free hex beside the mount, the rider clings on. */
static void keep_seat(battle_t *b, int m, int r)
{
    xh_state_t *s = st(b);
    mods_t none = {0, 0, false};
    bool m_up = xh_d20(b, m, none, might_bonus(b, m), "mount keeps footing", NULL) >= XH_MOUNT_DC;
    bool r_on = xh_d20(b, r, none, might_bonus(b, r), "rider keeps seat", NULL) >= XH_MOUNT_DC;
    if (!m_up) xh_set_cond(b, m, XC_PRONE, "prone", true);
    if (m_up && r_on) return;
    hex_t h = free_beside(b, pos(b, m));
    if (hex_eq(h, pos(b, m))) return;
    s->mounted_on[r] = 0;
    s->rider_of[m] = 0;
    battle_step(b, r, h);
    battle_emit_action(b, r, r_on ? "dismounted" : "thrown_off", m, true);
    battle_emit_condition(b, r, "mounted", false);
    if (!r_on) xh_set_cond(b, r, XC_PRONE, "prone", true);
}

/* Where a's push would put t: the first free, passable neighbour of t's
 * hex farthest from a, if it is farther than t stands now. */
bool xh_push_dest(const battle_t *b, int a, int t, hex_t *out)
{
    hex_t ht = pos(b, t), ha = pos(b, a);
    hex_t best = ht;
    int best_d = hex_distance(ha, ht);
    for (int d = 0; d < HEX_DIRS; d++) {
        hex_t h = hex_neighbor(ht, d);
        int idx = board_cell_index(b->board, h);
        if (idx < 0 || b->board->occ[idx] >= 0 || b->map->types[b->map->cells[idx]].move <= 0)
            continue;
        int dd = hex_distance(ha, h);
        if (dd > best_d) {
            best_d = dd;
            best = h;
        }
    }
    *out = best;
    return !hex_eq(best, ht);
}

/* Push t one hex straight away from a, if that hex is free and passable. */
void xh_push_away(battle_t *b, int a, int t)
{
    hex_t ht = pos(b, t), best;
    if (!xh_push_dest(b, a, t, &best)) return;
    /* A pushed rider is unseated; a pushed mount carries its rider along. */
    if (xhalem_mount_of(b, t) >= 0) xh_unmount(b, t);
    /* Forced movement provokes, with disadvantage; the shover already acted on it. */
    if (!xh_opportunities(b, t, ht, best, true, a, false)) return;
    battle_step(b, t, best);
    int r = rider_on(b, t);
    if (r >= 0 && battle_active(b, r)) {
        battle_step(b, r, best);
        keep_seat(b, t, r);
    }
}
