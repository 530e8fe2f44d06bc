/* ai.c - the Architect's AI for xhalem.
 *
 * It plays fair: it decides only from what its side has detected (a foe
 * hidden or cloaked from its whole side is not a target; a hider is looked
 * for where it was seen to hide). It uses its whole kit: the weapon that
 * does most at the range it can reach (switching to it), a search for a
 * hidden foe, a grapple or a shove when they pay better than a strike, an
 * assist. Candidates are filtered by distance before anything costly, so a
 * turn's work grows with the foes in reach, not with the whole roster.
 */
#include "xh_int.h"

/* Does a's side know where t is: an enemy in the fight it has detected? */
static bool known(const battle_t *b, int a, int t)
{
    return battle_active(b, t) && enemies(b, a, t) &&
           !xhalem_hidden_from(b, t, b->board->side[a]);
}

/* Hexes a weapon strikes to without penalty (NULL: unarmed). */
static int weapon_hexes(const battle_t *b, int a, const weapon_t *w)
{
    return geom_ft_to_hexes(b->map, !w || w->cls == WPN_MELEE ? melee_reach(b, a, w) : w->range_ft);
}

/* Expected damage of w for a (dice average plus bonus). */
static int expected_damage(const battle_t *b, int a, const weapon_t *w)
{
    int n = w ? w->dice_n : 1, sides = w ? w->dice_sides : 4, bonus = w ? w->dice_bonus : 0;
    return n * (sides + 1) / 2 + bonus + xh_damage_bonus(b, a, w);
}

/* How much a wants to hit t: finish the wounded, then the close. */
static int target_value(const battle_t *b, int a, int t, int dmg)
{
    int v = 1000 - b->u[t].hp * 10 - dist_hex(b, a, t);
    if (b->u[t].hp <= dmg) v += 500;
    return v;
}

/* Provocations a path would draw (cells after the start). */
static int provocations(battle_t *b, int i, const cell_t *path, int n)
{
    const xh_state_t *s = cst(b);
    const map_combatant_t *c = mc(b, i);
    if (c->kind == KIND_MACHINE && c->size == SIZE_SMALL) return 0;
    int count = 0;
    hex_t at = pos(b, i);
    for (int k = 0; k < n; k++) {
        hex_t h = hex_from_cell(b->map->layout, path[k]);
        for (int e = 0; e < b->n; e++) {
            if (!enemies(b, e, i) || !xh_can_react(b, e) || s->engaged_by_mover[e]) continue;
            int w = xh_melee_weapon_index(b, e);
            if (w < 0) continue;
            int reach = melee_reach(b, e, b->u[e].weapon[w]);
            /* A foe its side has not found draws no fear: the AI cannot know. */
            if (geom_threatens(b->board, e, reach, at) && !geom_threatens(b->board, e, reach, h) &&
                known(b, i, e))
                count++;
        }
        at = h;
    }
    return count;
}

/* The first cells of b->path[0..len) (the start first) that i can afford
 * within `budget` feet, cut back to a hex it may stop on. Returns the count. */
static int clip_path(battle_t *b, int i, int len, int budget, cell_t *out)
{
    int spent = 0, n = 0, last_ok = 0;
    move_cost_t mv;
    if (len < 2 || !xhalem_move_cost(b, i, xh_current_mode(b, i), &mv)) return 0;
    for (int k = 1; k < len && n < CMD_PATH_MAX; k++) {
        int sc = xh_step(&mv, map_index(b->map, b->path[k - 1]), map_index(b->map, b->path[k]));
        if (sc < 0 || round_up(spent + sc, b->prof[i].interval_ft) > budget) break;
        spent += sc;
        out[n++] = b->path[k];
        int occ = board_occupant(b->board, hex_from_cell(b->map->layout, b->path[k]));
        if (occ < 0) last_ok = n;
    }
    return last_ok;
}

/* Path from i's hex to cell index g (cells after the start) cut to `budget`
 * feet and to a hex it may stop on, read from the search already run from
 * i's hex that settled g (no second search). Returns the count (0: none). */
static int path_toward_searched(battle_t *b, int i, int g, int budget, cell_t *out)
{
    int len = 0;
    for (int c = g; c >= 0; c = path_parent(b->ps, c))
        len++;
    if (len < 2 || len > b->ncells) return 0;
    int k = len;
    for (int c = g; c >= 0; c = path_parent(b->ps, c))
        b->path[--k] = map_cell_of(b->map, c);
    return clip_path(b, i, len, budget, out);
}

/* Can a, standing on h, engage t with weapon w without range penalty? */
static bool can_hit_from(battle_t *b, int a, hex_t h, int t, const weapon_t *w, cover_t *cover)
{
    int d = hex_distance(h, pos(b, t));
    bool melee = !w || w->cls == WPN_MELEE;
    if (!within_ft(b, d, melee ? melee_reach(b, a, w) : w->range_ft)) return false;
    sight_t sg = sight_trace(b->board, h, pos(b, t));
    if (cover) *cover = sg.cover;
    return sg.cover != COVER_TOTAL;
}

/* Best (target, weapon) engageable from the current hex; value or -1. */
static int best_attack_here(battle_t *b, int a, int *tw, int *ww, bool need_in_range)
{
    int best = -1;
    /* Nothing farther than the longest weapon in hand reaches without penalty. */
    int far = weapon_hexes(b, a, NULL);
    for (int w = 0; w < b->u[a].n_weapons; w++)
        if (xhalem_equipped(b, a, w) && weapon_hexes(b, a, b->u[a].weapon[w]) > far)
            far = weapon_hexes(b, a, b->u[a].weapon[w]);
    for (int t = 0; t < b->n; t++) {
        if ((need_in_range && dist_hex(b, a, t) > far) || !known(b, a, t)) continue;
        for (int w = -1; w < b->u[a].n_weapons; w++) {
            if (!xhalem_equipped(b, a, w)) continue;
            const weapon_t *wp = battle_weapon(b, a, w);
            /* Fists only when no weapon is in hand. */
            bool armed = false;
            for (int k = 0; k < b->u[a].n_weapons && !armed; k++)
                armed = xhalem_equipped(b, a, k);
            if (w < 0 && armed) continue;
            /* Beyond range is skipped below: no sight line to trace for it
             * (on a big map, most foes are). */
            if (need_in_range && wp && wp->cls != WPN_MELEE &&
                !within_ft(b, dist_hex(b, a, t), wp->range_ft))
                continue;
            eng_t g = xh_assess(b, a, t, wp, false, false);
            if (!g.legal || g.auto_fail || (need_in_range && g.beyond)) continue;
            int v = target_value(b, a, t, expected_damage(b, a, wp)) +
                    expected_damage(b, a, wp) * 4 + g.atk.adv * 60 - g.atk.dis * 60 -
                    g.def.adv * 40 - (g.beyond ? 200 : 0);
            if (v > best) {
                best = v;
                *tw = t;
                *ww = w;
            }
        }
    }
    return best;
}

/* Does the unit prefer to fight at range (its best ranged weapon outdamages melee)? */
static int preferred_weapon(const battle_t *b, int a, bool *ranged)
{
    int best = -1, best_v = -1;
    *ranged = false;
    for (int w = 0; w < b->u[a].n_weapons; w++) {
        if (!xhalem_equipped(b, a, w)) continue;
        const weapon_t *wp = b->u[a].weapon[w];
        int v = expected_damage(b, a, wp) * 10 + (wp->cls != WPN_MELEE ? 5 : 0);
        if (v > best_v) {
            best_v = v;
            best = w;
            *ranged = wp->cls != WPN_MELEE;
        }
    }
    return best;
}

/* Would a do more for its side by assisting against t than by striking t
 * with w? Its own expected damage is set against the most that one ally it
 * may name (within 5 ft), able to engage t from where it stands, would gain
 * from striking with advantage. Every ally has its turn before a's next one,
 * when the assist lapses. Returns the ally to name, or -1 to strike. */
static int assist_pays(battle_t *b, int a, int t, int w)
{
    xh_state_t *s = st(b);
    predict_t own;
    if (s->assist_on[t] || !predict_engage(b, a, t, w, &own)) return -1;
    if (own.p_hit > 0.25 && own.dmg_hit >= b->u[t].hp) return -1; /* a fair chance to finish it now */
    double best = 0;
    int pick = -1;
    for (int x = 0; x < b->n; x++) {
        if (!xh_assist_ok(b, a, t, x)) continue;
        bool ranged;
        int xw = preferred_weapon(b, x, &ranged);
        predict_t plain, helped;
        if (!predict_engage(b, x, t, xw, &plain)) continue;
        s->assist_on[t] = a + 1;
        s->assist_for[t] = x + 1;
        bool ok = predict_engage(b, x, t, xw, &helped);
        s->assist_on[t] = s->assist_for[t] = 0;
        if (ok && helped.dmg_expected - plain.dmg_expected > best) {
            best = helped.dmg_expected - plain.dmg_expected;
            pick = x;
        }
    }
    return best > own.dmg_expected * 1.25 + 0.5 ? pick : -1;
}

static bool grab_pays(battle_t *b, int a, int t, int w, cmd_t *out);

/* Strike t with w, or grapple, shove or assist against it (naming the ally)
 * when that pays better. */
static cmd_t strike_or_assist(battle_t *b, int a, int t, int w)
{
    cmd_t grab;
    if (grab_pays(b, a, t, w, &grab)) return grab;
    int ally = assist_pays(b, a, t, w);
    cmd_t c = cmd_make(ally >= 0 ? CMD_ASSIST : CMD_ENGAGE, a);
    c.target = t;
    if (ally >= 0)
        c.arg = ally + 1;
    else
        c.weapon = w;
    return c;
}

/* How good hex h is for a to strike t from, before the cost of getting there:
 * a flank with an ally across (melee), or cover from t and distance kept (ranged). */
static int strike_spot_value(battle_t *b, int a, int t, hex_t h, bool melee)
{
    int v = 0;
    if (melee) {
        board_trial_t trial = board_try(b->board, a, h);
        int partners[NMAX];
        if (geom_flank_partners(b->board, b->prof, a, t, partners, NMAX) > 0) v += 400;
        board_untry(b->board, &trial);
    } else {
        sight_t back = sight_trace(b->board, pos(b, t), h);
        if (back.cover == COVER_LIGHT) v += 150;
        if (back.cover == COVER_HEAVY) v += 250;
        v += hex_distance(h, pos(b, t)) * 5;
        /* A foe that has hidden before hides again behind the same cover:
         * keep it in plain view instead. */
        if (cst(b)->hid_seen[t] && back.cover != COVER_NONE) v -= 400;
    }
    return v;
}

/* Could a melee unit gain by moving to strike t with w? Not when it can
 * strike t from here and either flanks it already or no ally stands close
 * enough to t to be a flanking partner (the only thing a melee move buys). */
static bool move_can_help(battle_t *b, int a, int t, int w)
{
    const weapon_t *wp = battle_weapon(b, a, w);
    if (wp && wp->cls != WPN_MELEE) return true;
    if (!can_hit_from(b, a, pos(b, a), t, wp, NULL)) return true;
    if (strike_spot_value(b, a, t, pos(b, a), true) > 0) return false; /* flanking already */
    for (int x = 0; x < b->n; x++)
        if (x != a && battle_active(b, x) && board_allies(b->board, a, x) &&
            within_ft(b, dist_hex(b, x, t), b->prof[x].flank_ft))
            return true;
    return false;
}

/* Choose a destination from the reachable set where a can strike t with w,
 * preferring flanks (melee) or cover (ranged), then no provocation, then
 * cheap. Writes a move command; false when none fits. */
static bool plan_attack_move(battle_t *b, int a, int t, int w, int budget, cmd_t *out)
{
    const weapon_t *wp = battle_weapon(b, a, w);
    bool melee = !wp || wp->cls == WPN_MELEE;
    move_cost_t mv;
    if (!xhalem_move_cost(b, a, xh_current_mode(b, a), &mv)) return false;
    mv.budget_ft = budget;
    int n = geom_reach_mode(&mv, b->ps, b->reach, b->ncells);
    if (n > b->ncells) n = b->ncells;
    int best_v = -1000000;
    cell_t best_cell = {0, 0};
    bool found = false;
    int lim = melee ? melee_reach(b, a, wp) : wp->range_ft;
    int lim_hex = geom_ft_to_hexes(b->map, lim);
    /* Staying put is a candidate too: a move must buy something. */
    int stay_v = -1000000;
    if (can_hit_from(b, a, pos(b, a), t, wp, NULL))
        stay_v = strike_spot_value(b, a, t, pos(b, a), melee);
    for (int k = 0; k < n; k++) {
        hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
        if (hex_distance(h, pos(b, t)) > lim_hex) continue;
        if (!can_hit_from(b, a, h, t, wp, NULL)) continue;
        int v = strike_spot_value(b, a, t, h, melee) - b->reach[k].cost_ft;
        if (v > best_v) {
            best_v = v;
            best_cell = b->reach[k].at;
            found = true;
        }
    }
    if (!found || best_v <= stay_v) return false;
    cmd_t c = cmd_make(CMD_MOVE, a);
    /* b->ps still holds the reach search, which settled best_cell. */
    c.n_path = path_toward_searched(b, a, map_index(b->map, best_cell), budget, c.path);
    if (c.n_path == 0) return false;
    cell_t last = c.path[c.n_path - 1];
    if (last.col != best_cell.col || last.row != best_cell.row) return false;
    if (provocations(b, a, c.path, c.n_path) > 0 && !melee)
        return false; /* a shooter does not run past blades */
    *out = c;
    return true;
}

/* Move toward t as far as `budget` allows; false when no step helps. One
 * search from a's hex prices every hex beside t at once. */
static bool plan_approach(battle_t *b, int a, int t, int budget, cmd_t *out)
{
    hex_t ring[6];
    int nr = hex_ring(pos(b, t), 1, ring, 6);
    int start = board_cell_index(b->board, pos(b, a));
    if (start < 0) return false;
    int iv = b->prof[a].interval_ft;
    move_cost_t mv;
    if (!xhalem_move_cost(b, a, xh_current_mode(b, a), &mv)) return false;
    /* Search outward in growing rings of cost: once some hex beside t is
     * settled within a budget that is a whole number of intervals, every hex
     * that could tie or beat it (rounded) is settled too, so the choice is
     * the one a search of the whole map would make. The first ring is the
     * cheapest the hexes beside t could cost (a search costs its area, the
     * square of its reach, so starting no farther than needed is what keeps
     * a turn on a big map cheap); each miss goes half as far again. */
    int d = dist_hex(b, a, t);
    int lim = round_up((d > 1 ? d - 1 : 1) * b->map->feet_per_hex, iv > 0 ? iv : 1);
    int best_cost = 0x3fffffff, goal = -1;
    /* Each wider ring carries the last search on (path_resume: the same as a
     * fresh search to the wider budget, without searching the inside again). */
    path_run_open(b->ps, b->board, start, lim, mv.step, &mv);
    for (;;) {
        for (int k = 0; k < nr; k++) {
            int idx = board_cell_index(b->board, ring[k]);
            if (idx < 0 || b->board->occ[idx] >= 0 || b->map->types[b->map->cells[idx]].move <= 0)
                continue;
            int cost = path_cost(b->ps, idx);
            if (cost < 0) continue;
            cost = round_up(cost, iv);
            if (cost < best_cost) {
                best_cost = cost;
                goal = idx;
            }
        }
        /* Nothing cut off by the budget: a bigger one would find no more. */
        if (goal >= 0 || lim >= PATH_NO_BUDGET || !path_budget_cut(b->ps)) break;
        lim = lim >= PATH_NO_BUDGET / 2 ? PATH_NO_BUDGET
                                        : round_up(lim + lim / 2 + 1, iv > 0 ? iv : 1);
        path_resume(b->ps, b->board, lim, mv.step, &mv);
    }
    if (goal < 0) return false;
    cmd_t c = cmd_make(CMD_MOVE, a);
    c.n_path = path_toward_searched(b, a, goal, budget, c.path);
    if (c.n_path == 0) return false;
    *out = c;
    return true;
}

static int nearest_enemy(const battle_t *b, int a)
{
    int best = -1, bd = 0x3fffffff;
    for (int t = 0; t < b->n; t++) {
        if (!known(b, a, t)) continue;
        int d = dist_hex(b, a, t);
        /* Wounded foes count as a little closer: finish them first. */
        d = d * 4 + b->u[t].hp;
        if (d < bd) {
            bd = d;
            best = t;
        }
    }
    return best;
}

/* ---- the kit: which weapon, a search, a grapple or a shove ------------- */

/* Turns of its own the AI looks ahead when it weighs a weapon. */
#define LOOK_TURNS 3

/* Expected damage of one plain engagement of t by a with w (NULL: unarmed):
 * a's bonus against t's evasion, one die each, no circumstance. */
static double plain_value(const battle_t *b, int a, int t, const weapon_t *w)
{
    double p = predict_d20_beats(1, 0, engage_bonus(b, a), 1, 0, evade_bonus(b, t),
                                 !is_machine(b, a));
    return p * xh_damage_mean(b, w ? w->dice_n : 1, w ? w->dice_sides : 4,
                                   (w ? w->dice_bonus : 0) + xh_damage_bonus(b, a, w), false);
}

/* Expected damage of one engagement of t by a with w as things stand when a
 * could make it from here (cover, flanking, naturals...), else plain_value. */
static double engage_value(const battle_t *b, int a, int t, const weapon_t *w)
{
    eng_t g;
    if (xhalem_engage_shape(b, a, t, w, false, false, &g) && !g.beyond && !g.auto_fail)
        return predict_d20_beats(g.atk_n, g.atk_keep, g.atk_bonus, g.def_n, g.def_keep,
                                 g.def_bonus, g.naturals) *
               xh_damage_mean(b, g.dmg_n, g.dmg_sides, g.dmg_bonus, false) * g.dmg_factor;
    return plain_value(b, a, t, w);
}

/* The weapon in t's hand that does most (index, -1 unarmed): what t fights with. */
static const weapon_t *held_best(const battle_t *b, int t)
{
    const weapon_t *best = NULL;
    int bv = -1;
    for (int w = 0; w < b->u[t].n_weapons; w++)
        if (xhalem_equipped(b, t, w) && expected_damage(b, t, b->u[t].weapon[w]) > bv) {
            bv = expected_damage(b, t, b->u[t].weapon[w]);
            best = b->u[t].weapon[w];
        }
    return best;
}

/* What weapon w (index; -1 unarmed) is worth to a against t over its next
 * LOOK_TURNS turns, hex distance d away now, with `budget` feet of this
 * turn's move left: each turn it either takes the weapon up (the action,
 * unless it is in hand), strikes (when a move brings t within reach or
 * range) or dashes closer. A ranged weapon against a foe that fights in
 * melee is worth a little more (it strikes before the foe can), a melee one
 * a little more otherwise (it threatens opportunity strikes and flanks). */
static double weapon_worth(const battle_t *b, int a, int t, int w, int d, int budget, double p_hit)
{
    const weapon_t *wp = battle_weapon(b, a, w);
    bool melee = !wp || wp->cls == WPN_MELEE;
    int fph = b->map->feet_per_hex;
    int lim = geom_ft_to_hexes(b->map, melee ? melee_reach(b, a, wp) : wp->range_ft);
    int speed = xh_speed_ft(b, a, airborne(b, a), false) / fph;
    double per = p_hit * xh_damage_mean(b, wp ? wp->dice_n : 1, wp ? wp->dice_sides : 4,
                                             (wp ? wp->dice_bonus : 0) + xh_damage_bonus(b, a, wp),
                                             false),
           sum = 0;
    bool in_hand = xhalem_equipped(b, a, w);
    for (int k = 0; k < LOOK_TURNS; k++) {
        int mv = k == 0 ? budget / fph : speed;
        if (!in_hand) {
            in_hand = true; /* the action goes on taking it up; the move still closes */
        } else if (d - mv <= lim) {
            sum += per;
        } else {
            mv += speed; /* a dash */
        }
        d = d > lim ? (d - mv > lim ? d - mv : lim) : d;
    }
    const weapon_t *theirs = held_best(b, t);
    bool they_melee = !theirs || theirs->cls == WPN_MELEE;
    if (!melee && they_melee) sum *= 1.15;
    if (melee && !they_melee) sum *= 1.05;
    return sum;
}

/* How far t is for a blade, in hexes of a's walking: one more than the
 * cheapest walk to a free hex beside t, found within limit_ft (else a number
 * too large to matter). The hex count undercounts water, brush and walls. */
static int melee_distance(const battle_t *b, int a, int t, int limit_ft)
{
    move_cost_t mv;
    int start = board_cell_index(b->board, pos(b, a));
    if (start < 0 || !xhalem_move_cost(b, a, xh_current_mode(b, a), &mv)) return 0x3fff;
    path_run(b->ps, b->board, start, limit_ft, -1, mv.step, &mv);
    hex_t ring[6];
    int nr = hex_ring(pos(b, t), 1, ring, 6), best = -1;
    for (int k = 0; k < nr; k++) {
        int idx = board_cell_index(b->board, ring[k]);
        if (idx < 0 || (b->board->occ[idx] >= 0 && idx != start)) continue;
        int c = idx == start ? 0 : path_cost(b->ps, idx);
        if (c >= 0 && (best < 0 || c < best)) best = c;
    }
    return best < 0 ? 0x3fff : best / b->map->feet_per_hex + 1;
}

/* weapon_worth of each weapon, t d hexes away (a blade's walk d_blade):
 * the best in hand (returned, -1 for none) and in *take one worth taking up
 * now in place of *put_away (see choose_weapon), else -1. */
static int weigh_weapons(const battle_t *b, int a, int t, int d, int d_blade, int budget,
                         int *take, int *put_away)
{
    *take = *put_away = -1;
    int best_held = -1, best_any = -1;
    double v_held = -1, v_any = -1, worth[WEAPON_MAX];
    /* The plain chance to hit is the same for every weapon (plain_value). */
    double p = predict_d20_beats(1, 0, engage_bonus(b, a), 1, 0, evade_bonus(b, t),
                                 !is_machine(b, a));
    for (int w = 0; w < b->u[a].n_weapons && w < WEAPON_MAX; w++) {
        bool is_blade = b->u[a].weapon[w]->cls == WPN_MELEE;
        double v = worth[w] = weapon_worth(b, a, t, w, is_blade ? d_blade : d, budget, p);
        if (xhalem_equipped(b, a, w) && v > v_held) {
            v_held = v;
            best_held = w;
        }
        if (v > v_any) {
            v_any = v;
            best_any = w;
        }
    }
    /* A clear gain only: switching back and forth wastes turns. */
    if (best_any != best_held && v_any > v_held * 1.1 + 0.2 && !holding_someone(b, a)) {
        if (is_machine(b, a)) {
            /* It puts away the held weapon that does least. */
            double worst = 1e9;
            for (int w = 0; w < b->u[a].n_weapons && w < WEAPON_MAX; w++)
                if (xhalem_equipped(b, a, w) && worth[w] < worst) {
                    worst = worth[w];
                    *put_away = w;
                }
        }
        if (xh_switch_ok(b, a, best_any, *put_away)) *take = best_any;
    }
    return best_held;
}

/* The weapon a should fight t with (index; -1 unarmed only when it carries
 * none), judged by weapon_worth. *take: a weapon worth taking up now (the
 * action) in place of *put_away (a machine's other hand; -1 for a creature),
 * or -1 when the best is in hand or not worth a turn. */
static int choose_weapon(const battle_t *b, int a, int t, int budget, int *take, int *put_away)
{
    *take = *put_away = -1;
    if (t < 0 || b->u[a].n_weapons == 0) return -1;
    int d = dist_hex(b, a, t);
    int held = weigh_weapons(b, a, t, d, d, budget, take, put_away);
    bool blade = false, missile = false;
    for (int w = 0; w < b->u[a].n_weapons; w++)
        if (b->u[a].weapon[w]->cls == WPN_MELEE)
            blade = true;
        else
            missile = true;
    if (!blade || !missile || d <= 1) return held;
    /* A blade's distance is the walk (water, brush and walls count), never
     * less than the hex count. Only when that could change the choice (it
     * does not with the blade out of reach altogether) is the walk measured:
     * one path search, bounded. */
    int far_take, far_put;
    int far_held = weigh_weapons(b, a, t, d, 0x3fff, budget, &far_take, &far_put);
    if (far_held == held && far_take == *take && far_put == *put_away) return held;
    int speed_ft = xh_speed_ft(b, a, airborne(b, a), false);
    int limit = 2 * LOOK_TURNS * speed_ft, straight = (2 * d + 2) * b->map->feet_per_hex;
    int d_blade = melee_distance(b, a, t, limit < straight ? limit : straight);
    return weigh_weapons(b, a, t, d, d_blade, budget, take, put_away);
}

/* Chance that a's search (d20 + Perception or Investigation, or Scanners)
 * beats the stealth total of h, judged from h's Stealth alone (a roll of
 * 10.5 on average): the searcher cannot know the total. */
static double search_odds(const battle_t *b, int a, int h)
{
    int bonus = is_machine(b, a) ? stat(b, a, XS_SCANNERS)
                                 : (stat(b, a, XS_PERCEPTION) > stat(b, a, XS_INVESTIGATION)
                                        ? stat(b, a, XS_PERCEPTION)
                                        : stat(b, a, XS_INVESTIGATION));
    /* P(d20 + bonus > 10 + stealth) = (20 - (10 + stealth - bonus)) / 20. */
    double p = (10.0 - stat(b, h, XS_STEALTH) + bonus) / 20.0;
    return p < 0.05 ? 0.05 : p > 0.95 ? 0.95 : p;
}

/* Would a search now pay: a foe hidden from a's side that the side saw hide
 * where a can see the spot from here (no more than `range` hexes off), with
 * fair odds? Returns the best chance found (0: none). */
static double search_worth(const battle_t *b, int a, int range)
{
    const xh_state_t *s = cst(b);
    int side = b->board->side[a];
    double best = 0;
    for (int h = 0; h < b->n; h++) {
        if (!battle_active(b, h) || !enemies(b, a, h) || !has(b, h, XC_HIDDEN) ||
            side >= 32 || !(s->hid_seen[h] >> side & 1u) || !xhalem_hidden_from(b, h, side))
            continue;
        hex_t spot = hex_from_cell(b->map->layout, s->hid_at[h]);
        if (hex_distance(pos(b, a), spot) > range || !sight_clear(b->board, pos(b, a), spot))
            continue;
        double p = search_odds(b, a, h);
        if (p > best) best = p;
    }
    return best >= 0.3 ? best : 0;
}

/* Would t walk away from a's blows: it fights with a ranged weapon and
 * moves at least as fast? */
static bool kiter(const battle_t *b, int a, int t)
{
    const weapon_t *theirs = held_best(b, t);
    return theirs && theirs->cls != WPN_MELEE &&
           xh_speed_ft(b, t, airborne(b, t), false) >= xh_speed_ft(b, a, airborne(b, a), false);
}

/* Expected damage of an engagement shaped g (its odds times its damage). */
static double shape_value(const battle_t *b, const eng_t *g)
{
    if (!g->legal || g->auto_fail) return 0;
    return predict_d20_beats(g->atk_n, g->atk_keep, g->atk_bonus, g->def_n, g->def_keep,
                             g->def_bonus, g->naturals) *
           xh_damage_mean(b, g->dmg_n, g->dmg_sides, g->dmg_bonus, g->beyond) * g->dmg_factor;
}

/* What a's side gains from t lying prone until its next turn (docs/rules-
 * xhalem.md, "Prone"): a's own granted secondary strike, and each ally
 * acting before t that goes for it (beside
 * it now, or t is its target) strikes with advantage from beside it, or at
 * disadvantage from farther off; a blade not yet beside t that can get there
 * this turn gains the plain advantage. */
static double prone_gain(battle_t *b, int a, int t)
{
    const xh_state_t *s = cst(b);
    double gain = 0;
    /* a's own granted secondary strike, after the shove, lands on it too. */
    for (int w = 0; w < b->u[a].n_weapons && !s->turn.second; w++) {
        const weapon_t *wp = b->u[a].weapon[w];
        if (!xhalem_equipped(b, a, w) || battle_weapon_tag(wp, "secondary") <= 0) continue;
        eng_t up = xh_assess(b, a, t, wp, false, false);
        b->u[t].cond |= XC_PRONE;
        eng_t down = xh_assess(b, a, t, wp, false, false);
        b->u[t].cond &= ~XC_PRONE;
        gain += shape_value(b, &down) - shape_value(b, &up);
        break;
    }
    for (int k = 1; k < s->n_order; k++) {
        int x = s->order[(s->cur + k) % s->n_order];
        if (x == t) break; /* it stands up at the start of its turn */
        if (x == a || !battle_active(b, x) || enemies(b, a, x) || !known(b, x, t) ||
            s->grappled_by[x])
            continue;
        int d = dist_hex(b, x, t);
        if (d > 1 && nearest_enemy(b, x) != t) continue;
        bool ranged;
        const weapon_t *wp = battle_weapon(b, x, preferred_weapon(b, x, &ranged));
        if (!ranged && d > 1) {
            if ((d - 1) * b->map->feet_per_hex > xh_speed_ft(b, x, airborne(b, x), false))
                continue;
            bool nat = !is_machine(b, x);
            gain += (predict_d20_beats(2, 1, engage_bonus(b, x), 1, 0, evade_bonus(b, t), nat) -
                     predict_d20_beats(1, 0, engage_bonus(b, x), 1, 0, evade_bonus(b, t), nat)) *
                    xh_damage_mean(b, wp ? wp->dice_n : 1, wp ? wp->dice_sides : 4,
                                        (wp ? wp->dice_bonus : 0) + xh_damage_bonus(b, x, wp),
                                        false);
            continue;
        }
        eng_t up = xh_assess(b, x, t, wp, false, false);
        b->u[t].cond |= XC_PRONE;
        eng_t down = xh_assess(b, x, t, wp, false, false);
        b->u[t].cond &= ~XC_PRONE;
        gain += shape_value(b, &down) - shape_value(b, &up);
    }
    return gain;
}

/* What the blows a push draws are worth: allies (not a) whose reach t is
 * pushed out of strike it, at disadvantage (forced movement). */
static double push_draws(const battle_t *b, int a, int t, hex_t to)
{
    const map_combatant_t *c = mc(b, t);
    if (c->kind == KIND_MACHINE && c->size == SIZE_SMALL) return 0;
    double v = 0;
    for (int y = 0; y < b->n; y++) {
        if (y == a || y == t || !enemies(b, y, t) || !xh_can_react(b, y)) continue;
        int w = xh_melee_weapon_index(b, y);
        if (w < 0 || !xhalem_aware(b, y, t)) continue;
        int reach = melee_reach(b, y, b->u[y].weapon[w]);
        if (!geom_threatens(b->board, y, reach, pos(b, t)) || geom_threatens(b->board, y, reach, to))
            continue;
        eng_t g = xh_assess(b, y, t, b->u[y].weapon[w], true, true);
        v += shape_value(b, &g);
    }
    return v;
}

/* The best hand-to-hand alternative to striking t with w, when it pays
 * better over this turn, t's next turn and a's next (docs/rules-xhalem.md,
 * "The Architect's AI"). With S a's blow, B t's blow on a, g the chance to
 * seize t and q = 1/2 the chance that a held foe spends its turn breaking
 * free rather than striking, and k the chance that a shove lands (an
 * engagement hit, then might against might):
 * - a grapple beats a strike when g * q * B > S, or against a foe that would
 *   walk away from a's reach (a kiter) when g * (S + q * B) > S;
 * - a push when k * (what it buys) > S: it frees an ally t holds (the hold
 *   ends out of reach; worth the ally's next blow), lets a shooter step off
 *   without t's blow (worth B) when t fights in melee, and draws the
 *   opportunity strikes of allies whose reach t is pushed out of;
 * - a knock-down when k * (what the allies acting before t gain from it
 *   lying prone, prone_gain) > S.
 * *out gets the command. */
static bool grab_pays(battle_t *b, int a, int t, int w, cmd_t *out)
{
    if (!xh_grab_ok(b, a, t)) return false;
    const weapon_t *wp = battle_weapon(b, a, w);
    eng_t g;
    if (!xhalem_engage_shape(b, a, t, NULL, false, false, &g) || g.auto_fail) return false;
    double strike = engage_value(b, a, t, wp);
    /* A fair chance to finish it now: strike. */
    if (xh_damage_mean(b, g.dmg_n, g.dmg_sides, g.dmg_bonus, false) >= b->u[t].hp ||
        (wp && xh_damage_mean(b, wp->dice_n, wp->dice_sides,
                                   wp->dice_bonus + xh_damage_bonus(b, a, wp), false) >= b->u[t].hp))
        return false;
    double touch = predict_d20_beats(g.atk_n, g.atk_keep, g.atk_bonus, g.def_n, g.def_keep,
                                     g.def_bonus, g.naturals);
    double grip = predict_d20_beats(g.atk_n, g.atk_keep, might_bonus(b, a), g.def_n, g.def_keep,
                                    g.def_bonus, g.naturals);
    const weapon_t *theirs = held_best(b, t);
    double blow = engage_value(b, t, a, theirs), q = 0.5;
    double v_grapple = kiter(b, a, t) ? grip * (strike + q * blow) - strike : grip * q * blow - strike;
    if (has(b, t, XC_GRAPPLED)) v_grapple = -1;
    double shove = touch * predict_d20_beats(1, 0, might_bonus(b, a), 1, 0, might_bonus(b, t), false);
    /* The push (only when a free hex farther from a can take t). */
    double v_push = -1;
    hex_t to;
    if (xh_push_dest(b, a, t, &to)) {
        double freed = 0;
        const xh_state_t *s = cst(b);
        for (int x = 0; x < b->n; x++)
            if (s->grappled_by[x] == t + 1 && battle_active(b, x) && !enemies(b, a, x)) {
                int xw = -1;
                for (int k = 0; k < b->u[x].n_weapons; k++)
                    if (xhalem_equipped(b, x, k)) xw = k;
                freed += engage_value(b, x, t, battle_weapon(b, x, xw));
            }
        bool shooter = wp && wp->cls != WPN_MELEE && (!theirs || theirs->cls == WPN_MELEE);
        v_push = shove * (freed + (shooter ? blow : 0) + push_draws(b, a, t, to)) - strike;
    }
    double v_knock = has(b, t, XC_PRONE) ? -1 : shove * prone_gain(b, a, t) - strike;
    if (v_grapple > 0 && v_grapple >= v_push && v_grapple >= v_knock) {
        *out = cmd_make(CMD_GRAPPLE, a);
        out->target = t;
        return true;
    }
    if (v_push <= 0 && v_knock <= 0) return false;
    *out = cmd_make(CMD_SHOVE, a);
    out->target = t;
    out->arg = v_push >= v_knock ? 1 : 0;
    return true;
}

/* Could a hide on h from every foe its side knows of: none would see it
 * clearly there, and cover heavy enough to block scanners lies between it
 * and every machine that would see it (docs/rules-xhalem.md, "Hide")? */
static bool hide_proof(const battle_t *b, int a, hex_t h)
{
    if (is_machine(b, a)) return false;
    for (int e = 0; e < b->n; e++) {
        if (!known(b, a, e)) continue;
        sight_t sg = sight_trace(b->board, pos(b, e), h);
        if (sg.visible && (sg.cover == COVER_NONE || (is_machine(b, e) && sg.cover < COVER_HEAVY)))
            return false;
    }
    return true;
}

/* Does a lie in wait: a creature granted a hide as its secondary action,
 * hidden or able to hide where it stands from every foe its side knows
 * (hide_proof), while an ally of its own still fights (alone, it must go
 * and fight, or the battle would stall)? */
static bool lurks(const battle_t *b, int a)
{
    if (is_machine(b, a) || xhalem_secondary_kind(b, a) != CMD_HIDE) return false;
    bool ally = false;
    for (int x = 0; x < b->n && !ally; x++)
        ally = x != a && battle_active(b, x) && board_allies(b->board, a, x);
    return ally && (has(b, a, XC_HIDDEN) || hide_proof(b, a, pos(b, a)));
}

/* A move within `budget` to a hex where a could hide from every foe it knows
 * (hide_proof), provoking nothing: one from which wp can still hit goal
 * first, and unless need_range, else the nearest to goal no more than
 * `near` hexes from it; the cheapest of equals. False when none fits. */
static bool plan_hide_move(battle_t *b, int a, int goal, const weapon_t *wp, int budget,
                           bool need_range, int near, cmd_t *out)
{
    move_cost_t mv;
    if (!xhalem_move_cost(b, a, xh_current_mode(b, a), &mv)) return false;
    mv.budget_ft = budget;
    int n = geom_reach_mode(&mv, b->ps, b->reach, b->ncells);
    if (n > b->ncells) n = b->ncells;
    int best_k = -1, best_key = 0x7fffffff;
    for (int k = 0; k < n; k++) {
        hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
        if (board_occupant(b->board, h) >= 0) continue;
        bool hits = can_hit_from(b, a, h, goal, wp, NULL);
        int d = hex_distance(h, pos(b, goal));
        if ((need_range && !hits) || (!hits && d > near)) continue;
        int key = (hits ? 0 : 1 << 24) + d * 4096 + b->reach[k].cost_ft;
        if (key >= best_key || !hide_proof(b, a, h)) continue;
        best_key = key;
        best_k = k;
    }
    if (best_k < 0) return false;
    cell_t at = b->reach[best_k].at;
    cmd_t c = cmd_make(CMD_MOVE, a);
    /* b->ps still holds the reach search, which settled `at`. */
    c.n_path = path_toward_searched(b, a, map_index(b->map, at), budget, c.path);
    if (c.n_path == 0) return false;
    cell_t last = c.path[c.n_path - 1];
    if (last.col != at.col || last.row != at.row || provocations(b, a, c.path, c.n_path) > 0)
        return false;
    *out = c;
    return true;
}

/* After its action, the move left takes a somewhere to fight goal from with
 * the weapon in hand: in reach or range, in cover (plan_attack_move), else
 * closer. Never a move that provokes; a shooter stays where it can shoot. */
static bool reposition(battle_t *b, int a, int goal, int budget, cmd_t *out)
{
    const xh_state_t *s = cst(b);
    /* What the action was: this turn's own events say (back to its start). */
    bool struck = false, pushed = false;
    for (int k = b->log.n - 1; k >= 0; k--) {
        const event_t *e = &b->log.ev[k];
        if (e->type == EV_TURN_START) break;
        if (e->type == EV_ATTACK && e->who == a) struck = true;
        if (e->type == EV_ACTION && e->who == a && strcmp(e->name, "shove_push") == 0 && e->hit)
            pushed = true;
    }
    bool ranged = false;
    int w = preferred_weapon(b, a, &ranged);
    const weapon_t *wp = battle_weapon(b, a, w);
    /* After a strike only a shooter that pushed a blade away moves (to get clear). */
    if ((struck && !pushed) || (pushed && !ranged)) return false;
    /* A shooter that can hit its target from here stays (unless getting clear,
     * or the target hides again behind the cover between them). */
    cover_t cover = COVER_NONE;
    if (ranged && !pushed && can_hit_from(b, a, pos(b, a), goal, wp, &cover) &&
        !(s->hid_seen[goal] && cover != COVER_NONE))
        return false;
    cmd_t c;
    bool planned = plan_attack_move(b, a, goal, w, budget, &c);
    bool in_range = planned;
    if (!planned && !ranged) planned = dist_hex(b, a, goal) > 1 && plan_approach(b, a, goal, budget, &c);
    if (!planned && ranged && !can_hit_from(b, a, pos(b, a), goal, wp, NULL))
        planned = plan_approach(b, a, goal, budget, &c);
    if (planned && provocations(b, a, c.path, c.n_path) > 0) planned = false;
    /* One that hides after moving goes where it can (hide_proof) when the
     * place planned would not let it: in range of goal if it can, else no
     * farther from goal than it would have come. */
    if (!pushed && xhalem_secondary_kind(b, a) == CMD_HIDE && !s->turn.second) {
        hex_t end = planned ? hex_from_cell(b->map->layout, c.path[c.n_path - 1]) : pos(b, a);
        if (ranged && !in_range && lurks(b, a)) return false; /* waits, and hides */
        cmd_t h;
        if (!hide_proof(b, a, end) &&
            plan_hide_move(b, a, goal, wp, budget, in_range, hex_distance(end, pos(b, goal)), &h)) {
            *out = h;
            return true;
        }
    }
    if (!planned) return false;
    if (pushed) {
        /* Only to get clear: the shooter must still reach goal from there. */
        hex_t end = hex_from_cell(b->map->layout, c.path[c.n_path - 1]);
        if (!can_hit_from(b, a, end, goal, wp, NULL)) return false;
    }
    *out = c;
    return true;
}

void xhalem_ai(battle_t *b, int a, cmd_t *out)
{
    const xh_state_t *s = cst(b);
    *out = cmd_make(CMD_END, a);
    if (a != s->actor) return;
    if (s->grappled_by[a]) {
        if (!s->turn.acted) *out = cmd_make(CMD_ESCAPE, a);
        return;
    }
    if (holding_someone(b, a)) {
        /* Holding on allows one action: strike the one it holds, with the
         * weapon in hand that does most to it. Nothing left to do: let go
         * when a known foe it could fight instead is free. */
        for (int t = 0; t < b->n; t++) {
            if (s->grappled_by[t] != a + 1) continue;
            int bw = -2;
            double bv = 0;
            for (int w = -1; w < b->u[a].n_weapons && !s->turn.acted; w++) {
                if (!xhalem_equipped(b, a, w)) continue;
                eng_t g = xh_assess(b, a, t, battle_weapon(b, a, w), false, false);
                if (!g.legal || g.auto_fail || g.beyond) continue;
                double v = engage_value(b, a, t, battle_weapon(b, a, w));
                if (v > bv) {
                    bv = v;
                    bw = w;
                }
            }
            if (bw > -2) {
                *out = xh_engage_cmd(a, t, bw);
                return;
            }
            if (!s->turn.acted) {
                *out = cmd_make(CMD_RELEASE, a);
                out->target = t;
            }
            return;
        }
    }
    int budget = xhalem_move_left(b);
    if (s->turn.acted && !s->turn.second) {
        /* A granted secondary engagement: strike the best target it reaches. */
        int best = -1;
        for (int t = 0; t < b->n; t++)
            for (int w = 0; w < b->u[a].n_weapons && known(b, a, t); w++) {
                cmd_t c = xh_engage_cmd(a, t, w);
                if (!xhalem_equipped(b, a, w) || !xh_secondary_grant(b, a, &c) ||
                    holding_someone(b, a))
                    continue;
                const weapon_t *wp = battle_weapon(b, a, w);
                eng_t g = xh_assess(b, a, t, wp, false, false);
                if (!g.legal || g.auto_fail || g.beyond) continue;
                int v = target_value(b, a, t, expected_damage(b, a, wp));
                if (v > best) {
                    best = v;
                    *out = c;
                }
            }
        if (best >= 0) return;
    }
    if (s->turn.acted) {
        /* After a dash, run on; after a strike, stay put rather than provoke. */
        int goal = nearest_enemy(b, a);
        if (s->turn.dashed && budget > 0 && goal >= 0 && dist_hex(b, a, goal) > 1 &&
            plan_approach(b, a, goal, budget, out))
            return;
        /* After an action that struck no one (a switch, a search) or a shove
         * that left a shooter out of reach: the move goes on to a place to
         * fight from with the weapon in hand, if it provokes nothing. */
        if (!s->turn.dashed && budget > 0 && goal >= 0 && s->turn.moved_ft == 0 &&
            reposition(b, a, goal, budget, out))
            return;
        /* Then a granted hide or cloak, which costs nothing and makes the
         * next strike harder to see coming. */
        int sk = xhalem_secondary_kind(b, a);
        if (!s->turn.second &&
            ((sk == CMD_HIDE && xh_hide_spot_ok(b, a)) ||
             (sk == CMD_CLOAK && stat(b, a, XS_CLOAK) > 0 && !has(b, a, XC_CLOAKED))))
            *out = cmd_make((cmd_kind_t)sk, a);
        return;
    }
    int goal = nearest_enemy(b, a);
    if (goal < 0) {
        /* Nobody it knows of: look for the ones it saw hide. */
        if (search_worth(b, a, 0x3fff) > 0) *out = cmd_make(CMD_SEARCH, a);
        return;
    }
    /* The weapon that does most at the range it can reach: take it up first. */
    int take, put_away;
    int pw = choose_weapon(b, a, goal, budget, &take, &put_away);
    if (take >= 0) {
        *out = cmd_make(CMD_SWITCH, a);
        out->weapon = take;
        out->weapon2 = put_away;
        return;
    }
    bool ranged = false;
    if (pw >= 0)
        ranged = b->u[a].weapon[pw]->cls != WPN_MELEE;
    else
        pw = preferred_weapon(b, a, &ranged);
    int t = -1, w = -1;
    int here = best_attack_here(b, a, &t, &w, true);
    if (here < 0 && ranged && lurks(b, a)) {
        /* A shooter in hiding with no one in range waits there rather than
         * walk into the open: it moves only to another such place in range,
         * and hides first if it is not hidden yet. */
        cmd_t c;
        if (budget > 0 && s->turn.moved_ft == 0 &&
            plan_hide_move(b, a, goal, battle_weapon(b, a, pw), budget, true, 0, &c)) {
            *out = c;
            return;
        }
        if (!has(b, a, XC_HIDDEN) && xh_hide_ok(b, a)) *out = cmd_make(CMD_HIDE, a);
        return;
    }
    if (here >= 0 && (s->turn.moved_ft > 0 || budget <= 0 || ranged)) {
        *out = strike_or_assist(b, a, t, w);
        return;
    }
    if (budget > 0) {
        /* Somewhere reachable to strike from (flanking or covered)? */
        int tries[2] = {goal, t};
        for (int k = 0; k < 2; k++) {
            if (tries[k] < 0 || (k == 1 && tries[1] == tries[0])) continue;
            if (!ranged && !move_can_help(b, a, tries[k], pw))
                continue; /* saves a search: staying put is as good as any hex */
            bool planned =
                plan_attack_move(b, a, tries[k], pw, budget, out) ||
                (pw >= 0 && b->u[a].weapon[pw]->cls != WPN_MELEE &&
                 plan_attack_move(b, a, tries[k], xh_melee_weapon_index(b, a), budget, out));
            if (!planned) continue;
            /* A better hex is not worth an opportunity attack when there is
             * already someone to strike from here. */
            if (here >= 0 && provocations(b, a, out->path, out->n_path) > 0) continue;
            return;
        }
    }
    if (here >= 0) {
        *out = strike_or_assist(b, a, t, w);
        return;
    }
    if (budget > 0 && plan_approach(b, a, goal, budget, out)) return;
    /* Nothing to strike this turn: a search for a foe seen hiding near
     * enough to matter, rather than a dash. */
    int near = geom_ft_to_hexes(b->map, 3 * xh_speed_ft(b, a, airborne(b, a), false));
    if (search_worth(b, a, near) > 0) {
        *out = cmd_make(CMD_SEARCH, a);
        return;
    }
    if (!s->turn.dashed && s->turn.moved_ft > 0 && xh_mode_speed(b, a) > 0) {
        /* Still out of reach with the action unused: run. */
        *out = cmd_make(CMD_DASH, a);
        return;
    }
    /* Out of range but in sight: a long shot beats nothing. */
    if (best_attack_here(b, a, &t, &w, false) >= 0) {
        *out = cmd_make(CMD_ENGAGE, a);
        out->target = t;
        out->weapon = w;
    }
}
