/* ai.c - the built-in AI for activation (activation.md 2.5): it weighs every
 * action by the same odds the pipeline rolls, focuses fire on the foes its
 * side has hurt, reads the timeline ahead for Priority and for where a
 * telegraphed blast will still find its targets, holds an action when no
 * foe is in reach, grapples lighter foes, and answers interrupts by what
 * they save or win against the activation they cost. */
#include <string.h>

#include "act.h"

/* How much a foe is worth striking: more when hurt (focus fire) and when it
 * hits hard. */
static double foe_value(const battle_t *b, int t)
{
    const unit_t *u = &b->u[t];
    double hurt = u->hp_max > 0 ? 1.0 - (double)u->hp / u->hp_max : 0.0;
    return 1.0 + 1.5 * hurt;
}

/* Rounds of fighting a poison is counted for: about a third of a battle on
 * the sample map (6 rounds), where a poisoned foe is also likely to fall. */
#define AI_POISON_ROUNDS 2

/* What poisoning t with a hit of a is worth (A26): a max-HP eighth lost at
 * the end of each of t's activations over the next AI_POISON_ROUNDS rounds
 * (the faster t, the more of them), never more than t has left, times the
 * chance the poison takes. Nothing when t is poisoned already. */
static double poison_value(const battle_t *b, const act_action_t *a, int t)
{
    if (a->poison <= 0 || act_has(b, t, AC_POISONED)) return 0.0;
    const act_state_t *s = act_cst(b);
    int loss = b->u[t].hp_max / 8 > 0 ? b->u[t].hp_max / 8 : 1;
    int ticks = s->base[t] > 0 ? AI_POISON_ROUNDS * ACT_ROUND / s->base[t] : 1;
    double lost = (double)loss * ticks;
    if (lost > b->u[t].hp) lost = b->u[t].hp;
    return a->poison / 100.0 * lost;
}

/* Expected worth of i using a on t from hex `from`: the damage it is likely
 * to do, weighed by the foe, with a bonus when it is likely to fell it.
 * seen: the sight from `from` to t, when traced already (else NULL). */
static double strike_value(const battle_t *b, int i, hex_t from, const act_action_t *a, int t,
                           const sight_t *seen)
{
    act_odds_t o;
    act_odds_from(b, i, from, a, t, seen, &o);
    if (!o.legal || o.fails || !o.damages) return 0.0;
    double p = o.chance >= 100 ? 1.0 : o.chance / 100.0;
    double dmg = act_mean_damage(&o);
    double v = p * dmg * foe_value(b, t);
    if (dmg >= b->u[t].hp) v += p * 10.0; /* a faint takes all its activations away */
    return v;
}

/* The poison of i's single-target a on t, weighed like damage and counted
 * once (a second hit poisons no more). Nothing when its mean damage fells t:
 * the felling is counted instead. */
static double poison_worth(const battle_t *b, int i, const act_action_t *a, int t)
{
    if (a->poison <= 0) return 0.0;
    act_odds_t o;
    act_odds(b, i, a, t, &o);
    if (!o.legal || o.fails || act_mean_damage(&o) >= b->u[t].hp) return 0.0;
    double p = o.chance >= 100 ? 1.0 : o.chance / 100.0;
    return p * poison_value(b, a, t) * foe_value(b, t);
}

/* Is i's single-target action a likely (over half the time) to fell t? */
static bool likely_fells(const battle_t *b, int i, const act_action_t *a, int t)
{
    act_odds_t o;
    act_odds(b, i, a, t, &o);
    if (!o.legal || o.fails || !o.damages) return false;
    double p = o.chance >= 100 ? 1.0 : o.chance / 100.0;
    return p > 0.5 && act_mean_damage(&o) >= b->u[t].hp;
}

/* What one PP is worth to i: more as the pool runs low. */
static double pp_price(const battle_t *b, int i)
{
    int left = b->u[i].stat[AS_PP], pool = b->u[i].stat_max[AS_PP];
    if (pool <= 0) return 0.0;
    return 0.4 + 1.2 * (1.0 - (double)left / pool);
}

/* The same for a combatant k that i's area action a would catch. */
static double caught_value(const battle_t *b, int i, const act_action_t *a, int k)
{
    act_odds_t o;
    act_odds_caught(b, i, a, k, &o);
    if (!o.legal || !o.damages) return 0.0;
    double p = o.chance >= 100 ? 1.0 : o.chance / 100.0;
    double dmg = act_mean_damage(&o);
    return p * dmg * foe_value(b, k) +
           (dmg >= b->u[k].hp ? p * 10.0 : p * poison_value(b, a, k) * foe_value(b, k));
}

/* The damage one activation of i is worth, roughly: its best complex strike
 * at an average foe standing next to it. Used to price debt and Priority. */
static double activation_worth(const battle_t *b, int i)
{
    double best = 0.0;
    for (int w = ACT_W_STRUGGLE; w < b->u[i].n_weapons; w++) {
        act_action_t a;
        if (!act_action(b, i, w, &a) || a.move || a.category == CAT_STATUS) continue;
        double m = a.w->dice_n * (a.w->dice_sides + 1) / 2.0 + a.w->dice_bonus;
        m *= a.cost == 2 ? 1.0 : 2.0; /* two simple actions fit one activation */
        if (m > best) best = m;
    }
    return best;
}

/* Foes of i that act before tick `when` (counting each activation). */
static int foe_turns_before(const battle_t *b, int i, int when)
{
    int who[64], at[64];
    int n = act_forecast(b, who, at, 64), k = 0;
    for (int q = 0; q < n; q++)
        if (at[q] < when && who[q] != i && act_enemies(b, i, who[q])) k++;
    return k;
}

/* Worth of Priority X in i's activation: its next one comes sooner, and
 * ahead of foes that would otherwise act first (the timeline read ahead). */
static double priority_value(const battle_t *b, int i, int x)
{
    const act_state_t *s = act_cst(b);
    if (x <= 0) return 0.0;
    int sum = s->prio + x < ACT_PRIORITY_CAP ? s->prio + x : ACT_PRIORITY_CAP;
    int before = s->clock + s->base[i] - s->base[i] * (s->prio < 10 ? s->prio : 10) / 10;
    int after = s->clock + s->base[i] - s->base[i] * sum / 10;
    int overtaken = foe_turns_before(b, i, before) - foe_turns_before(b, i, after);
    return activation_worth(b, i) * (0.1 * x + 0.3 * overtaken);
}

typedef struct {
    double v;
    cmd_t c;
} plan_t;

static void consider(plan_t *best, double v, cmd_t c)
{
    if (v > best->v) {
        best->v = v;
        best->c = c;
    }
}

/* Activations that end before a telegraph of X declared now resolves: the
 * current one, then the next X-1 of the forecast. Those actors may leave. */
static bool acts_before_landing(const battle_t *b, int k, int x)
{
    int who[16], at[16];
    int n = act_forecast(b, who, at, 16);
    for (int q = 0; q < x - 1 && q < n; q++)
        if (who[q] == k) return true;
    return false;
}

/* Worth of a telegraphed area of i (action a, Delay x) aimed at hex h: foes
 * who cannot step out before it lands, less any of its own side caught. */
static double delay_value(const battle_t *b, int i, const act_action_t *a, hex_t h, int x)
{
    double v = 0.0;
    area_t ar;
    if (!act_area_of(b, a, act_pos(b, i), h, &ar)) return 0.0;
    for (int k = 0; k < b->n; k++) {
        if (!battle_active(b, k) || !act_area_catches(b, i, a, &ar, k)) continue;
        if (!act_enemies(b, i, k)) {
            if (!a->foes_only) return 0.0; /* never on its own side */
            continue;
        }
        bool stuck = act_has(b, k, AC_BOUND) || !acts_before_landing(b, k, x);
        if (!stuck) continue;
        v += caught_value(b, i, a, k);
    }
    return v;
}

/* Chance that d20 + m reaches the Lift goal. */
static double lift_chance(int m)
{
    int need = ACT_LIFT_GOAL - m;
    double p = (21 - need) / 20.0;
    return p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
}

/* Does i carry a [Grapple] attack to fight with inside a grapple? */
static int grapple_attack(const battle_t *b, int i)
{
    for (int w = 0; w < b->u[i].n_weapons; w++) {
        act_action_t a;
        if (act_action(b, i, w, &a) && a.grapple && !a.grab && a.category != CAT_STATUS) return w;
    }
    return -100;
}

/* The best use of the actions left from where i stands. */
static void plan_here(battle_t *b, int i, plan_t *best)
{
    const act_state_t *s = act_cst(b);
    hex_t here = act_pos(b, i);
    for (int w = ACT_W_STRUGGLE; w < b->u[i].n_weapons; w++) {
        act_action_t a;
        if (!act_action(b, i, w, &a) || a.move || a.interrupt > 0 || a.intercept) continue;
        if (!act_affordable(b, i, &a, true)) continue;
        for (int t = 0; t < b->n; t++) {
            if (!battle_active(b, t) || !act_enemies(b, i, t)) continue;
            if (!act_grapple_allows(b, i, &a, a.shape == SHAPE_SINGLE ? t : -1)) continue;
            cmd_t c = cmd_make(CMD_ENGAGE, i);
            c.weapon = w;
            c.target = t;
            double v;
            if (a.shape == SHAPE_SINGLE) {
                v = strike_value(b, i, here, &a, t, NULL);
            } else {
                if (a.shape != SHAPE_BURST && !act_area_aim_ok(b, i, &a, act_pos(b, t))) continue;
                if (a.delay > 0) {
                    v = delay_value(b, i, &a, act_pos(b, t), a.delay);
                } else {
                    v = 0.0;
                    area_t ar;
                    if (!act_area_of(b, &a, here, a.shape == SHAPE_BURST ? here : act_pos(b, t), &ar))
                        continue;
                    for (int k = 0; k < b->n; k++) {
                        if (!battle_active(b, k) || !act_area_catches(b, i, &a, &ar, k)) continue;
                        double sv = caught_value(b, i, &a, k);
                        v += act_enemies(b, i, k) ? sv : a.foes_only ? 0.0 : -2.0 * sv;
                    }
                }
                if (a.shape == SHAPE_BURST) c.target = -1;
            }
            if (v <= 0.0) continue;
            /* Two simple actions fit where one complex does. */
            if (a.cost == 1 && s->left >= 2) v *= 1.8;
            if (a.shape == SHAPE_SINGLE) v += poison_worth(b, i, &a, t);
            v += priority_value(b, i, a.priority);
            /* PP budgeting: an expensive action must earn its PP, unless it
             * is likely to fell its target (then the PP are well spent). */
            if (a.pp > 0 && !(a.shape == SHAPE_SINGLE && likely_fells(b, i, &a, t)))
                v -= pp_price(b, i) * a.pp;
            consider(best, v, c);
            if (a.shape == SHAPE_BURST) break;
        }
    }
    /* Grab a foe no heavier than i when it has a [Grapple] attack to follow. */
    act_action_t g;
    if (grapple_attack(b, i) >= 0 && act_action(b, i, ACT_W_GRAB, &g) &&
        act_affordable(b, i, &g, true))
        for (int t = 0; t < b->n; t++) {
            if (!battle_active(b, t) || !act_enemies(b, i, t) || !act_grapple_allows(b, i, &g, t))
                continue;
            int m = act_lift_mod(act_side_wc(b, i), act_side_wc(b, t));
            act_odds_t o;
            act_odds(b, i, &g, t, &o);
            if (!o.legal || m < 0) continue;
            double p = (o.chance >= 100 ? 1.0 : o.chance / 100.0) * lift_chance(m);
            cmd_t c = cmd_make(CMD_GRAPPLE, i);
            c.target = t;
            /* A hold takes the foe's next activations away (about two, until it
             * struggles free), the more of them the faster it is; the
             * grabber's own [Grapple] attacks go on meanwhile. */
            double rate = (double)b->u[t].stat[AS_SPD] / (b->u[i].stat[AS_SPD] > 0 ? b->u[i].stat[AS_SPD] : 1);
            consider(best, p * activation_worth(b, t) * 2.0 * rate * foe_value(b, t), c);
        }
}

/* The actions spot_value weighs for i, read once per plan: its
 * single-target strikes, each with its weight (a simple action still this
 * activation when `now` counts in full, anything else at half). */
typedef struct {
    act_action_t a[MAP_MAX_WEAPONS + 1];
    double k[MAP_MAX_WEAPONS + 1];
    int n;
} strikes_t;

static void strikes_of(const battle_t *b, int i, bool now, strikes_t *out)
{
    out->n = 0;
    for (int w = ACT_W_STRUGGLE; w < b->u[i].n_weapons && out->n < MAP_MAX_WEAPONS + 1; w++) {
        act_action_t *a = &out->a[out->n];
        if (!act_action(b, i, w, a) || a->move || a->interrupt > 0 || a->shape != SHAPE_SINGLE ||
            a->category == CAT_STATUS)
            continue;
        out->k[out->n++] = now && a->cost == 1 ? 1.0 : 0.5;
    }
}

/* How good hex h is for i: what it could strike from there with the
 * actions st (the best of them on the best foe), less the distance to the
 * foe most worth closing on. Each foe's line of sight is traced once. */
static double spot_value(battle_t *b, int i, hex_t h, const strikes_t *st)
{
    double strike = 0.0, near = 1e9;
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !act_enemies(b, i, t) || st->n == 0) continue;
        sight_t seen = sight_trace(b->board, h, act_pos(b, t));
        for (int q = 0; q < st->n; q++) {
            double sv = st->k[q] * strike_value(b, i, h, &st->a[q], t, &seen);
            if (sv > strike) strike = sv;
        }
    }
    for (int t = 0; t < b->n; t++)
        if (battle_active(b, t) && act_enemies(b, i, t)) {
            double d = hex_distance(h, act_pos(b, t)) / foe_value(b, t);
            if (d < near) near = d;
        }
    return 10.0 * strike - (near < 1e9 ? near : 0.0);
}

/* Is hex h inside a telegraphed template still to land? */
static bool doomed(const battle_t *b, hex_t h)
{
    const act_state_t *s = act_cst(b);
    for (int d = 0; d < ACT_DELAY_MAX; d++) {
        const act_delay_t *dl = &s->delay[d];
        act_action_t da;
        if (!dl->used || !act_action(b, dl->who, dl->slot, &da) || da.shape == SHAPE_SINGLE)
            continue;
        area_t ar;
        if (act_area_of(b, &da, hex_from_cell(b->map->layout, dl->from),
                        hex_from_cell(b->map->layout, dl->at), &ar) &&
            act_area_catches_hex(b, &da, &ar, h))
            return true;
    }
    return false;
}

/* The best hex within one Move in `mode`: where i can strike from, now with
 * a simple action when `now`, or next time; out of any telegraphed template.
 * Considered only when it beats staying put. */
static void plan_move(battle_t *b, int i, int mode, bool now, plan_t *best)
{
    move_cost_t mv;
    if (!act_move_cost(b, i, mode, &mv)) return;
    strikes_t st;
    strikes_of(b, i, now, &st);
    double stay = spot_value(b, i, act_pos(b, i), &st) - (doomed(b, act_pos(b, i)) ? 50.0 : 0.0);
    int n = geom_reach_mode(&mv, b->ps, b->reach, b->ncells);
    if (n > b->ncells) n = b->ncells;
    int bi = -1;
    double bv = stay;
    for (int k = 0; k < n; k++) {
        hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
        double v = spot_value(b, i, h, &st) - (doomed(b, h) ? 50.0 : 0.0) -
                   b->reach[k].cost_ft / (double)(mv.interval_ft * 100);
        if (v > bv + 1e-9) {
            bv = v;
            bi = k;
        }
    }
    if (bi < 0) return;
    cmd_t c = cmd_make(CMD_MOVE, i);
    c.arg = mode;
    cell_t path[CMD_PATH_MAX + 1];
    int cost = 0, len = 0;
    if (!geom_path_mode(&mv, b->reach[bi].at, b->ps, &cost, path, CMD_PATH_MAX + 1, &len) || len < 2)
        return;
    for (int k = 1; k < len; k++) c.path[c.n_path++] = path[k];
    double v = 0.01 + 0.001 * (bv - stay);
    act_action_t m;
    if (act_move_action(b, i, mode, &m)) v += 0.1 * priority_value(b, i, m.priority);
    consider(best, v, c);
}

/* A grappled combatant's turn: a [Grapple] strike inside, or Struggle Free. */
static bool plan_grappled(battle_t *b, int i, plan_t *best)
{
    const act_state_t *s = act_cst(b);
    if (!act_in_grapple(b, i)) return false;
    int w = grapple_attack(b, i);
    act_action_t a;
    if (w >= 0 && act_action(b, i, w, &a) && act_affordable(b, i, &a, true))
        for (int t = 0; t < b->n; t++)
            if (battle_active(b, t) && act_enemies(b, i, t) && act_same_grapple(b, i, t)) {
                cmd_t c = cmd_make(CMD_ENGAGE, i);
                c.weapon = w;
                c.target = t;
                consider(best, strike_value(b, i, act_pos(b, i), &a, t, NULL), c);
            }
    if (!act_controls(b, i) && s->left >= 2) {
        int ctl = s->gctl[i] - 1;
        double p = lift_chance(act_lift_mod(act_side_wc(b, i), act_side_wc(b, ctl)));
        /* Free, it acts as it likes again: worth about an activation. */
        consider(best, p * activation_worth(b, i) * (w >= 0 ? 0.6 : 1.5), cmd_make(CMD_ESCAPE, i));
    }
    if (act_controls(b, i) && w < 0) {
        consider(best, 0.05, cmd_make(CMD_RELEASE, i)); /* nothing to do with the hold */
    }
    return true;
}

/* At the end of an activation that struck nobody: hold a Complex action for
 * the foe that comes into reach (overwatch). */
static bool plan_hold(const battle_t *b, int i, cmd_t *out)
{
    const act_state_t *s = act_cst(b);
    if (s->held[i] || s->struck || act_in_grapple(b, i)) return false;
    int bw = -100;
    double bv = 0.0;
    for (int w = ACT_W_STRUGGLE; w < b->u[i].n_weapons; w++) {
        act_action_t a;
        if (!act_action(b, i, w, &a) || a.cost != 2 || a.move || a.interrupt > 0 || a.delay > 0 ||
            a.grab || a.category == CAT_STATUS || a.shape != SHAPE_SINGLE || a.pp > b->u[i].stat[AS_PP])
            continue;
        double m = a.w->dice_n * (a.w->dice_sides + 1) / 2.0 + a.range;
        if (m > bv) {
            bv = m;
            bw = w;
        }
    }
    if (bw == -100) return false;
    /* Fired, it owes the whole next activation: hold only what is worth it. */
    act_action_t held;
    act_action(b, i, bw, &held);
    double mean = held.w->dice_n * (held.w->dice_sides + 1) / 2.0 + held.w->dice_bonus;
    if (mean < 0.6 * activation_worth(b, i)) return false;
    /* Only worth it when a foe acts before i does again. */
    int when = 0;
    int who[8], at[8];
    int n = act_forecast(b, who, at, 8);
    for (int q = 0; q < n; q++)
        if (who[q] == i) {
            when = at[q];
            break;
        }
    if (foe_turns_before(b, i, when) == 0) return false;
    *out = cmd_make(CMD_STANDBY, i);
    out->weapon = bw;
    out->arg = TRIG_ENDS_MOVE_IN_RANGE;
    return true;
}

void act_ai(battle_t *b, int i, cmd_t *out)
{
    const act_state_t *s = act_cst(b);
    *out = cmd_make(CMD_END, i);
    if (i != s->actor || !battle_active(b, i)) return;
    plan_t best = {0.0, cmd_make(CMD_END, i)};
    if (act_in_grapple(b, i)) {
        plan_grappled(b, i, &best);
        if (act_controls(b, i)) plan_here(b, i, &best);
    } else if (s->left > 0) {
        plan_here(b, i, &best);
        /* Moving: a movement action with Priority (Dash) beats a plain Move. */
        move_cost_t mv;
        int mode = act_move_cost(b, i, AM_DASH, &mv) ? AM_DASH : AM_MOVE;
        if (best.v <= 0.0) plan_move(b, i, mode, s->left >= 2, &best);
    }
    if (best.v > 0.0) {
        *out = best.c;
        return;
    }
    cmd_t hold;
    if (plan_hold(b, i, &hold)) *out = hold;
}

int act_ai_react(const battle_t *b, int r, const act_trigger_t *x, int n,
                 const act_action_t *const *opt, const int *subj)
{
    const act_state_t *s = act_cst(b);
    int pick = 0;
    double best = 0.0;
    for (int k = 0; k < n; k++) {
        const act_action_t *a = opt[k];
        double v = 0.0;
        if (a->intercept) {
            /* Guard: step in when the blow would fell the ally, or hurt it
             * much more than it hurts the guard, and the guard stands it. */
            int t = x->target;
            if (t < 0 || !x->a) continue;
            act_odds_t ot, og;
            act_odds(b, x->user, x->a, t, &ot);
            act_odds(b, x->user, x->a, r, &og);
            double dt = act_mean_damage(&ot), dg = act_mean_damage(&og);
            if (dg >= b->u[r].hp) continue;
            if (dt >= b->u[t].hp * 0.8)
                v = dt - dg + 10.0;
            else if (dt > 1.5 * dg + 2.0)
                v = dt - dg;
        } else {
            /* Counter or a held strike, paid from the next activation: worth
             * it when it fells the foe first, or when r is fit and owes
             * nothing yet. */
            int foe = subj[k];
            if (foe < 0) continue;
            act_odds_t o;
            act_odds(b, r, a, foe, &o);
            if (!o.legal || o.fails) continue;
            double p = o.chance >= 100 ? 1.0 : o.chance / 100.0;
            if (a->grab) {
                /* A held Grab: whoever held it wanted this foe seized. */
                v = p >= 0.5 ? 10.0 * p : 0.0;
                if (v > best) {
                    best = v;
                    pick = k + 1;
                }
                continue;
            }
            double dmg = act_mean_damage(&o);
            bool fells = p * dmg >= b->u[foe].hp * 0.9;
            bool fit = b->u[r].hp * 2 >= b->u[r].hp_max && s->debt[r] == 0;
            /* What it costs: that share of r's next activation. */
            double owed = activation_worth(b, r) * a->cost / ACT_SIMPLE;
            if (!fells && (!fit || p * dmg < 0.6 * owed)) continue;
            v = p * dmg + (fells ? 10.0 : 0.0);
        }
        if (v > best) {
            best = v;
            pick = k + 1;
        }
    }
    return pick;
}
