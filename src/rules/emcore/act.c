/* act.c - emcore's Movement and Commitment phases: what a character does in
 * its slot and what each costs in points (the action table of the text, and
 * E3-E5, E12-E16, E19, E21). */
#include <stdio.h>
#include <string.h>

#include "../../core/trigger.h"
#include "emcore.h"

static hex_t pos(const battle_t *b, int i) { return b->board->pos[i]; }

/* ---- moving ------------------------------------------------------------------- */

/* The first able enemy of i (map order) that i standing at hex h would
 * have within its reach, with a clear line: the foe a charge ending there
 * engages (E5, E6); -1 none. */
static int foe_in_reach_from(const battle_t *b, int i, hex_t h)
{
    int r = em_threat_hex(b, i);
    for (int j = 0; j < b->n; j++) {
        if (!em_able(b, j) || !em_enemies(b, i, j))
            continue;
        int d = hex_distance(pos(b, j), h);
        if (d >= 1 && d <= r && sight_clear(b->board, h, pos(b, j)))
            return j;
    }
    return -1;
}

/* A step of a move in mode mc->mode: passable ground, never into a foe,
 * allies passed (not on a run, whose every hex must be free), open ground
 * only on a run; priced in feet, a point's worth being feet_per_hex for a
 * hasty move and twice that for a run or a charge (E5). */
static int em_step(void *ud, int from, int to)
{
    (void)from;
    const move_cost_t *mc = ud;
    const battle_t *b = mc->data;
    int occ = b->board->occ[to];
    if (occ >= 0 && occ != mc->who && (em_enemies(b, mc->who, occ) || mc->mode == EM_RUN))
        return -1;
    return em_step_cost_ft(b, mc->who, mc->mode, to);
}

/* A charge ends with a foe within the charger's reach (E5). */
static bool em_may_end(const move_cost_t *mc, int idx)
{
    const battle_t *b = mc->data;
    return mc->mode != EM_CHARGE || foe_in_reach_from(b, mc->who, board_hex_of(b->board, idx)) >= 0;
}

bool em_move_cost_hook(const battle_t *b, int i, int mode, move_cost_t *out)
{
    int budget = em_mode_budget_ft(b, i, mode);
    if (mode < 0 || mode >= EM_MODE_COUNT || budget < 0)
        return false;
    *out = (move_cost_t){.step = em_step,
                         .may_end = em_may_end,
                         .budget_ft = budget,
                         .interval_ft = b->map->feet_per_hex,
                         .board = b->board,
                         .who = i,
                         .data = b,
                         .mode = mode};
    return true;
}

/* Points a move's price in feet comes to in its mode. */
static int points_of(const battle_t *b, int mode, int ft)
{
    int fph = b->map->feet_per_hex;
    if (mode == EM_FORCED)
        return 0; /* Willpower pays */
    if (mode == EM_HASTY)
        return (ft + fph - 1) / fph;
    return (ft + 2 * fph - 1) / (2 * fph);
}

int em_move_cost(const battle_t *b, int i, int mode, const cell_t *path, int n)
{
    move_cost_t mc;
    if (n < 1 || n > CMD_PATH_MAX || !em_move_cost_hook(b, i, mode, &mc))
        return -1;
    if (mode == EM_FORCED && n != 1)
        return -1;
    int ft = geom_path_price(&mc, path, n);
    if (ft < 0 || ft > mc.budget_ft)
        return -1;
    return points_of(b, mode, ft);
}

int em_mode_budget_ft(const battle_t *b, int i, int mode)
{
    const em_state_t *s = em_cst(b);
    int fph = b->map->feet_per_hex;
    if (!battle_active(b, i) || (b->u[i].cond & EC_PRONE))
        return -1;
    /* The character in its slot has its points left; anyone else, what a
     * fresh turn gives. */
    bool acting = em_is_slot(b, i) && s->phase == EP_MOVEMENT;
    int pts = acting ? s->points[i] : em_movement(b, i);
    /* After an Immediate or a Committed action the spare point is a one-hex
     * step, never a run or a charge (E3). */
    bool spare = acting && em_spare_only(b, i);
    switch (mode) {
    case EM_HASTY:
        return (spare && pts > 1 ? 1 : pts) * fph;
    case EM_RUN:
    case EM_CHARGE:
        return spare ? -1 : 2 * pts * fph;
    case EM_FORCED:
        return acting && pts == 0 && b->u[i].stat[ES_WILLPOWER] > 0 ? fph : -1;
    default:
        return -1;
    }
}

int em_step_cost_ft(const battle_t *b, int i, int mode, int to_cell)
{
    (void)i;
    int u = b->map->types[b->map->cells[to_cell]].move;
    int fph = b->map->feet_per_hex;
    if (u <= 0)
        return -1;
    if (mode == EM_RUN)
        return u == 1 ? fph : -1;
    if (mode == EM_FORCED)
        return fph;
    return u * fph;
}

int em_reach_mode(battle_t *b, int i, int mode, int budget_ft, geom_reach_t *out, int cap)
{
    move_cost_t mc;
    if (budget_ft <= 0 || !em_move_cost_hook(b, i, mode, &mc))
        return 0;
    mc.budget_ft = budget_ft;
    return geom_reach_mode(&mc, b->ps, out, cap);
}

int em_path_mode(battle_t *b, int i, int mode, cell_t goal, cell_t *out, int cap)
{
    move_cost_t mc;
    int cost = 0, len = 0;
    if (!em_move_cost_hook(b, i, mode, &mc) ||
        !geom_path_mode(&mc, goal, b->ps, &cost, b->path, b->ncells, &len) || len < 2 ||
        len - 1 > cap)
        return 0;
    memcpy(out, b->path + 1, sizeof *out * (size_t)(len - 1));
    return len - 1;
}

/* Leaving its place ends i's cover; a move of `pts` points' worth that
 * takes it past the spare point since it committed (a forced step: always)
 * spoils a Committed action, whatever moves it (E13, E15). */
static void leave_place(battle_t *b, int i, int pts, bool forced)
{
    em_state_t *s = em_st(b);
    em_set_cond(b, i, EC_COVER, false);
    if (!s->commit[i])
        return;
    int moved = s->moved[i] + pts;
    s->moved[i] = (unsigned char)(moved > 255 ? 255 : moved);
    if (forced || moved > 1) {
        s->commit[i] = 0;
        em_set_cond(b, i, EC_COMMITTED, false);
    }
}

/* One step to cell c; a runner gives opportunities to foes it comes near.
 * False when i can go no further (taken out). */
static bool step_to(battle_t *b, int i, cell_t c)
{
    hex_t from = pos(b, i), to = hex_from_cell(b->map->layout, c);
    /* A readied foe waiting for it to leave strikes before it goes. */
    em_ready_check(b, TRIG_LEAVES_REACH, i, -1, from, to);
    if (!battle_active(b, i) || (b->u[i].cond & EC_PRONE))
        return false;
    battle_step(b, i, to);
    if (em_too(b, i))
        em_offer_opportunity(b, i, from, false);
    em_ready_check(b, TRIG_ENTERS_REACH, i, -1, from, to);
    em_ready_check(b, TRIG_MOVES_IN_SIGHT, i, -1, from, to);
    return battle_active(b, i);
}

static void run(battle_t *b, int i, const cmd_t *c, int points)
{
    em_set_cond(b, i, EC_RAN, true);
    /* Running makes it a target at once: the foes it starts beside may strike. */
    em_offer_opportunity(b, i, pos(b, i), true);
    em_ready_check(b, TRIG_DASHES, i, -1, pos(b, i), pos(b, i));
    int k = 0;
    for (int p = 0; p < points && k < c->n_path && battle_active(b, i); p++) {
        em_roll_t r = em_roll(b, i, em_aspect_dice(b, i, EA_ADEPTNESS), EPOOL_FULL, "run");
        int hexes = r.succ >= 1 ? 2 : 1; /* a failed test gives one hex (E5) */
        for (int h = 0; h < hexes && k < c->n_path; h++)
            if (!step_to(b, i, c->path[k++]))
                return;
        if (r.net < 0) { /* a net botch: down it goes */
            em_set_cond(b, i, EC_PRONE, true);
            return;
        }
    }
}

static battle_status_t do_move(battle_t *b, const cmd_t *c)
{
    em_state_t *s = em_st(b);
    int i = c->actor, mode = c->arg;
    if (b->u[i].cond & EC_PRONE)
        return BATTLE_ILLEGAL;
    int cost = em_move_cost(b, i, mode, c->path, c->n_path);
    if (cost < 0)
        return BATTLE_ILLEGAL;
    bool will = mode == EM_FORCED;
    if (will ? (s->points[i] != 0 || b->u[i].stat[ES_WILLPOWER] < 1) : cost > s->points[i])
        return BATTLE_ILLEGAL;
    em_pay(b, i, cost, will);
    if (mode == EM_RUN || mode == EM_CHARGE)
        s->deeds[i] |= ED_MAJOR;
    leave_place(b, i, cost, will);
    if (mode == EM_RUN) {
        run(b, i, c, cost);
    } else {
        for (int k = 0; k < c->n_path; k++)
            if (!step_to(b, i, c->path[k]))
                break;
    }
    if (battle_active(b, i))
        em_ready_check(b, TRIG_ENDS_MOVE_IN_RANGE, i, -1, pos(b, i), pos(b, i));
    if (mode == EM_CHARGE && battle_active(b, i)) {
        /* A charge ends in an engagement: with the first foe in its reach. */
        int j = foe_in_reach_from(b, i, pos(b, i));
        if (j >= 0) {
            s->free_of[i] = s->free_of[j] = 0;
            battle_emit_action(b, i, "charge", j, true);
        }
    }
    em_update_engaged(b);
    return BATTLE_OK;
}

int em_free_move(battle_t *b, int i, cell_t goal)
{
    cell_t path[CMD_PATH_MAX];
    int n = em_path_mode(b, i, EM_HASTY, goal, path, CMD_PATH_MAX), cost = -1;
    /* As far along it as the Movement score pays for, to a hex it may stop on. */
    while (n > 0) {
        cost = em_move_cost(b, i, EM_HASTY, path, n);
        if (cost >= 0 && cost <= em_movement(b, i))
            break;
        n--;
    }
    if (n == 0)
        return 0;
    /* Moving, however it is paid for: past the spare point it spoils an aim. */
    leave_place(b, i, cost, false);
    int k = 0;
    while (k < n && step_to(b, i, path[k]))
        k++;
    if (battle_active(b, i))
        em_ready_check(b, TRIG_ENDS_MOVE_IN_RANGE, i, -1, pos(b, i), pos(b, i));
    em_update_engaged(b);
    return k;
}

/* ---- cover ---------------------------------------------------------------------- */

bool em_cover_allowed(const battle_t *b, int i)
{
    hex_t h = pos(b, i);
    for (int d = -1; d < 6; d++) {
        hex_t n = d < 0 ? h : hex_neighbor(h, d);
        int idx = board_cell_index(b->board, n);
        if (idx < 0)
            continue;
        cover_t cv = b->map->types[b->map->cells[idx]].cover;
        if (cv == COVER_LIGHT || cv == COVER_HEAVY)
            return true;
    }
    for (int j = 0; j < b->n; j++) {
        if (!battle_active(b, j) || !em_enemies(b, i, j))
            continue;
        sight_t sg = sight_trace(b->board, pos(b, j), h);
        if (sg.cover == COVER_LIGHT || sg.cover == COVER_HEAVY)
            return true;
    }
    return false;
}

/* ---- legal lists ------------------------------------------------------------------ */

static bool committed_only(const weapon_t *w) { return battle_weapon_tag(w, "committed_only") > 0; }
static bool needs_nock(const weapon_t *w) { return battle_weapon_tag(w, "nock") > 0; }

static bool nocked(const battle_t *b, int i, int w)
{
    return w >= 0 && w < 16 && (em_cst(b)->nocked[i] >> w) & 1u;
}

/* May a fire weapon w hastily now (ranged, not committed-only, nocked)? */
static bool hasty_ready(const battle_t *b, int a, int w)
{
    const weapon_t *wp = battle_weapon(b, a, w);
    return em_is_ranged(wp) && !committed_only(wp) && (!needs_nock(wp) || nocked(b, a, w));
}

static int legal_commitment(battle_t *b, int a, cmd_t *out, int cap)
{
    const em_state_t *s = em_cst(b);
    int n = 0, w = s->commit[a] - 1;
    const weapon_t *wp = battle_weapon(b, a, w);
    for (int t = 0; t < b->n; t++)
        if (battle_active(b, t) && em_enemies(b, a, t) && em_shot_reaches(b, a, t, wp)) {
            cmd_t c = cmd_make(CMD_ENGAGE, a);
            c.target = t;
            c.weapon = w;
            em_add_cmd(out, cap, &n, c);
        }
    em_add_cmd(out, cap, &n, cmd_make(CMD_END, a));
    return n;
}

int em_legal_slot(battle_t *b, int a, cmd_t *out, int cap)
{
    const em_state_t *s = em_cst(b);
    if (s->phase == EP_COMMITMENT)
        return legal_commitment(b, a, out, cap);
    int n = 0, pts = s->points[a], will = b->u[a].stat[ES_WILLPOWER];
    const unit_t *u = &b->u[a];
    em_add_cmd(out, cap, &n, cmd_make(CMD_END, a));
    if (u->cond & EC_PRONE) {
        if (pts >= em_half_cost(b, a) && !em_spare_only(b, a))
            em_add_cmd(out, cap, &n, cmd_make(CMD_STAND, a));
        return n;
    }
    for (int mode = 0; mode < EM_MODE_COUNT; mode++)
        if (em_mode_budget_ft(b, a, mode) > 0) {
            cmd_t c = cmd_make(CMD_MOVE, a);
            c.arg = mode;
            em_add_cmd(out, cap, &n, c);
        }
    for (int w = -1; w < u->n_weapons; w++) {
        const weapon_t *wp = battle_weapon(b, a, w);
        if (w >= 0 && pts >= 1 && needs_nock(wp) && !nocked(b, a, w)) {
            cmd_t c = cmd_make(CMD_NOCK, a);
            c.weapon = w;
            em_add_cmd(out, cap, &n, c);
        }
        if (w >= 0 && em_is_ranged(wp) && em_may_commit(b, a)) {
            cmd_t c = cmd_make(CMD_COMMIT, a);
            c.weapon = w;
            em_add_cmd(out, cap, &n, c);
        }
        for (int t = 0; t < b->n; t++) {
            if (!battle_active(b, t) || !em_enemies(b, a, t))
                continue;
            cmd_t c = cmd_make(CMD_ENGAGE, a);
            c.target = t;
            c.weapon = w;
            bool shot = w >= 0 && pts >= 1 && hasty_ready(b, a, w) && em_shot_reaches(b, a, t, wp) &&
                        !em_melee_reaches(b, a, t, wp);
            /* In melee reach: an attack on a target of opportunity, or the
             * Engage minor action on anyone else. */
            bool melee = (w < 0 || em_is_melee(wp)) && em_melee_reaches(b, a, t, wp) &&
                         (em_too(b, t) ? em_oa_open(b, a, t) && (pts >= 1 || will >= 1)
                                       : pts >= 1 && em_able(b, t));
            if (shot || melee)
                em_add_cmd(out, cap, &n, c);
        }
    }
    if (pts >= 1 && !(u->cond & EC_COVER) && em_cover_allowed(b, a))
        em_add_cmd(out, cap, &n, cmd_make(CMD_COVER, a));
    if (em_may_evade(b, a))
        em_add_cmd(out, cap, &n, cmd_make(CMD_EVADE, a));
    return em_legal_ready(b, a, out, cap, n);
}

/* ---- carrying out -------------------------------------------------------------------- */

static battle_status_t do_engage(battle_t *b, const cmd_t *c)
{
    em_state_t *s = em_st(b);
    int a = c->actor, t = c->target, w = c->weapon;
    if (t < 0 || t >= b->n || !battle_active(b, t) || !em_enemies(b, a, t) || w < -1 ||
        w >= b->u[a].n_weapons)
        return BATTLE_ILLEGAL;
    const weapon_t *wp = battle_weapon(b, a, w);
    int pts = s->points[a];
    if (s->phase == EP_COMMITMENT) {
        if (w != s->commit[a] - 1 || !em_shot_reaches(b, a, t, wp))
            return BATTLE_ILLEGAL;
        s->nocked[a] &= (unsigned short)~(1u << (w & 15));
        em_attack(b, a, t, w, EK_COMMITTED, true);
        em_end_slot(b);
        return BATTLE_OK;
    }
    if (b->u[a].cond & EC_PRONE)
        return BATTLE_ILLEGAL;
    if ((w < 0 || em_is_melee(wp)) && em_melee_reaches(b, a, t, wp)) {
        if (em_too(b, t)) {
            /* A target of opportunity: one attack a turn, for a point or,
             * with none left, for 1 Willpower (E17, E19). */
            bool will = pts < 1;
            if (!em_oa_open(b, a, t) || (will && b->u[a].stat[ES_WILLPOWER] < 1))
                return BATTLE_ILLEGAL;
            em_pay(b, a, 1, will);
            em_note_oa(b, a, t);
            battle_emit_action(b, a, will ? "opportunity_willpower" : "opportunity", t, true);
            em_attack(b, a, t, w, EK_OPPORTUNITY, false);
        } else {
            /* Engage: lock the foe in melee now (E6's minor action). */
            if (pts < 1 || !em_able(b, t))
                return BATTLE_ILLEGAL;
            em_pay(b, a, 1, false);
            s->free_of[a] = s->free_of[t] = 0;
            battle_emit_action(b, a, "engage", t, true);
        }
        em_update_engaged(b);
        return BATTLE_OK;
    }
    if (w < 0 || pts < 1 || !hasty_ready(b, a, w) || !em_shot_reaches(b, a, t, wp))
        return BATTLE_ILLEGAL;
    em_pay(b, a, 1, false);
    s->nocked[a] &= (unsigned short)~(1u << (w & 15));
    em_attack(b, a, t, w, EK_HASTY, true);
    em_update_engaged(b);
    return BATTLE_OK;
}

static battle_status_t do_simple(battle_t *b, const cmd_t *c)
{
    em_state_t *s = em_st(b);
    int a = c->actor, pts = s->points[a];
    unit_t *u = &b->u[a];
    bool prone = (u->cond & EC_PRONE) != 0;
    const weapon_t *wp = battle_weapon(b, a, c->weapon);
    switch (c->kind) {
    case CMD_STAND:
        if (!prone || pts < em_half_cost(b, a) || em_spare_only(b, a))
            return BATTLE_ILLEGAL;
        em_pay(b, a, em_half_cost(b, a), false);
        s->deeds[a] |= ED_MAJOR;
        battle_emit_action(b, a, "stand", -1, true);
        em_set_cond(b, a, EC_PRONE, false);
        em_update_engaged(b);
        return BATTLE_OK;
    case CMD_NOCK:
        if (prone || !wp || !needs_nock(wp) || nocked(b, a, c->weapon) || pts < 1)
            return BATTLE_ILLEGAL;
        em_pay(b, a, 1, false);
        s->nocked[a] |= (unsigned short)(1u << (c->weapon & 15));
        battle_emit_action(b, a, "nock", -1, true);
        return BATTLE_OK;
    case CMD_COMMIT:
        if (prone || !em_is_ranged(wp) || !em_may_commit(b, a))
            return BATTLE_ILLEGAL;
        em_pay(b, a, em_full_less_one(b, a), false);
        s->commit[a] = (short)(c->weapon + 1);
        s->deeds[a] |= ED_COMMIT;
        s->moved[a] = 0;
        char name[EV_NAME_MAX];
        snprintf(name, sizeof name, "commit: %s", wp->id);
        battle_emit_action(b, a, name, -1, true);
        em_set_cond(b, a, EC_COMMITTED, true);
        return BATTLE_OK;
    case CMD_COVER:
        if (prone || pts < 1 || (u->cond & EC_COVER) || !em_cover_allowed(b, a))
            return BATTLE_ILLEGAL;
        em_pay(b, a, 1, false);
        s->cover[a] = (signed char)em_roll(b, a, em_aspect_dice(b, a, EA_ADEPTNESS), EPOOL_FULL,
                                           "take cover").succ;
        em_set_cond(b, a, EC_COVER, true);
        em_end_slot(b); /* its last Movement action (E15) */
        return BATTLE_OK;
    case CMD_EVADE:
        if (prone || !em_may_evade(b, a))
            return BATTLE_ILLEGAL;
        em_pay(b, a, em_half_cost(b, a), false);
        s->deeds[a] |= ED_MAJOR;
        s->evade[a] = (signed char)em_roll(b, a, em_aspect_dice(b, a, EA_ADEPTNESS), EPOOL_FULL,
                                           "evasion").succ;
        em_set_cond(b, a, EC_EVADING, true);
        return BATTLE_OK;
    default:
        return BATTLE_ILLEGAL;
    }
}

battle_status_t em_apply_slot(battle_t *b, const cmd_t *c)
{
    const em_state_t *s = em_cst(b);
    int a = c->actor;
    if (!em_is_slot(b, a) || !battle_active(b, a))
        return BATTLE_ILLEGAL;
    battle_status_t st;
    if (c->kind == CMD_END) {
        em_end_slot(b);
        return BATTLE_OK;
    }
    if (c->kind == CMD_ENGAGE)
        st = do_engage(b, c);
    else if (s->phase != EP_MOVEMENT)
        return BATTLE_ILLEGAL;
    else if (c->kind == CMD_MOVE)
        st = do_move(b, c);
    else if (c->kind == CMD_STANDBY)
        st = em_do_ready(b, c);
    else
        st = do_simple(b, c);
    /* Taken out in its own slot (an opportunity attack on a runner): it is over. */
    if (st == BATTLE_OK && em_is_slot(b, a) && !battle_active(b, a))
        em_end_slot(b);
    return st;
}
