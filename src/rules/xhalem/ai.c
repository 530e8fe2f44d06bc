/* ai.c - the Architect's AI for xhalem.
 */
#include "xh_int.h"

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
            if (geom_threatens(b->board, e, reach, at) && !geom_threatens(b->board, e, reach, h))
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
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !enemies(b, a, t)) continue;
        for (int w = -1; w < b->u[a].n_weapons; w++) {
            if (!xhalem_equipped(b, a, w)) continue;
            const weapon_t *wp = battle_weapon(b, a, w);
            /* Fists only when nothing better is in hand. */
            if (w < 0 && b->u[a].n_weapons > 0) continue;
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

/* Strike t with w, or assist against it (naming the ally) when that pays better. */
static cmd_t strike_or_assist(battle_t *b, int a, int t, int w)
{
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
     * the one a search of the whole map would make. */
    int lim = round_up((dist_hex(b, a, t) + 2) * b->map->feet_per_hex * 2, iv > 0 ? iv : 1);
    int best_cost = 0x3fffffff, goal = -1;
    for (;;) {
        path_run(b->ps, b->board, start, lim, -1, mv.step, &mv);
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
        if (goal >= 0 || lim >= PATH_NO_BUDGET) break;
        lim = lim >= PATH_NO_BUDGET / 4 ? PATH_NO_BUDGET : lim * 4;
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
        if (!battle_active(b, t) || !enemies(b, a, t)) continue;
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
        /* Holding on stops every other action: let go and fight. */
        for (int t = 0; t < b->n; t++)
            if (s->grappled_by[t] == a + 1) {
                *out = cmd_make(CMD_RELEASE, a);
                out->target = t;
                return;
            }
    }
    int budget = xhalem_move_left(b);
    if (s->turn.acted && !s->turn.second) {
        /* A granted secondary engagement: strike the best target it reaches. */
        int best = -1;
        for (int t = 0; t < b->n; t++)
            for (int w = 0; w < b->u[a].n_weapons && battle_active(b, t) && enemies(b, a, t); w++) {
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
        /* Then a granted hide or cloak, which costs nothing and makes the
         * next strike harder to see coming. */
        int sk = xhalem_secondary_kind(b, a);
        if (!s->turn.second &&
            ((sk == CMD_HIDE && xh_hide_spot_ok(b, a)) ||
             (sk == CMD_CLOAK && stat(b, a, XS_CLOAK) > 0 && !has(b, a, XC_CLOAKED))))
            *out = cmd_make((cmd_kind_t)sk, a);
        return;
    }
    bool ranged = false;
    int pw = preferred_weapon(b, a, &ranged);
    int t = -1, w = -1;
    int here = best_attack_here(b, a, &t, &w, true);
    if (here >= 0 && (s->turn.moved_ft > 0 || budget <= 0 || ranged)) {
        *out = strike_or_assist(b, a, t, w);
        return;
    }
    int goal = nearest_enemy(b, a);
    if (goal < 0) return;
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
