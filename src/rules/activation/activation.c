/* activation.c - the activation ruleset (seed 002): its table, setup, the
 * commands of an activation and what is legal in it. See
 * docs/rules-activation.md; the other files of this folder are listed in
 * act.h.
 *
 * Commands: end (the activation), move (a Move; arg is the mode: 0 a plain
 * Move, 1 a Dash with the mover's movement action), engage (an action on target, or an
 * area aimed at target's hex; -1 is Struggle), grapple (Grab), escape
 * (Struggle Free), release, standby (Hold! with trigger `arg` on action
 * `weapon`, aimed at `target` or any enemy) and declare (Hold! with
 * [Delay `arg`] on the engage it carries). */
#include <stdio.h>
#include <string.h>

#include "act.h"

static const char *const STAT_NAMES[AS_COUNT] = {
    [AS_SPD] = "spd",     [AS_ACC] = "acc",         [AS_EVA] = "eva",     [AS_ATK] = "atk",
    [AS_DEF] = "def",     [AS_SPATK] = "spatk",     [AS_SPDEF] = "spdef", [AS_PP] = "pp",
    [AS_MOVEMENT] = "movement", [AS_WC] = "wc",     [AS_LIFT] = "lift",
    [AS_RANGE_PLUS] = "range_plus", [AS_RANGE_PCT] = "range_pct",
};

static void act_geo_profile(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c,
                            geo_profile_t *out)
{
    (void)db;
    int fph = m->feet_per_hex > 0 ? m->feet_per_hex : 5;
    out->reach_ft = c->reach_ft > 0 ? c->reach_ft : fph;
    out->speed_ft = c->speed_ft;
    out->dash_ft = 2 * c->speed_ft; /* two Moves in one activation */
    out->interval_ft = fph;
    out->flank_ft = 0; /* the text has no flanking */
}

static void act_setup(battle_t *b)
{
    act_read_data(b);
    for (int i = 0; i < b->n; i++)
        if (b->u[i].hp <= 0) battle_remove(b, i);
    act_timeline_start(b);
}

static int act_actors(const battle_t *b, int *out, int cap)
{
    const act_state_t *s = act_cst(b);
    if (b->over || b->stopped || s->actor < 0 || cap < 1) return 0;
    out[0] = s->actor;
    return 1;
}

static int act_winner(const battle_t *b) { return battle_last_side(b); }

/* ---- checking a command ---------------------------------------------------- */

/* May action a (own activation) be used by i on t, or at aim when t < 0?
 * For an area, a target stands for its hex. */
static bool aim_ok(const battle_t *b, int i, const act_action_t *a, int t, cell_t aim)
{
    if (!act_grapple_allows(b, i, a, a->shape == SHAPE_SINGLE ? t : -1)) return false;
    if (a->shape == SHAPE_SINGLE) {
        if (t < 0 || t >= b->n || !battle_active(b, t) || !act_enemies(b, i, t)) return false;
        act_odds_t o;
        act_odds(b, i, a, t, &o);
        return o.legal;
    }
    if (a->shape == SHAPE_BURST) return true;
    hex_t h;
    if (t >= 0) {
        if (t >= b->n || !battle_active(b, t)) return false;
        h = act_pos(b, t);
    } else {
        if (!map_in_bounds(b->map, aim)) return false;
        h = hex_from_cell(b->map->layout, aim);
    }
    return act_area_aim_ok(b, i, a, h);
}

/* Is a an action i may start in its own activation (not a movement, not an
 * interrupt-only answer)? */
static bool own_action(const act_action_t *a)
{
    return !a->move && a->interrupt <= 0 && !a->intercept;
}

/* Can Hold! take a (a Complex action of i's that is not already
 * telegraphed)? Grab is one too: the text allows Hold! on "a Complex Action
 * you possess", and Grab is Complex. */
static bool holdable(const act_action_t *a)
{
    return own_action(a) && a->cost == 2 && a->delay <= 0;
}

/* Is t a trigger Hold! may wait for: a foe's deed, or an ally's (the
 * text's "when an ally hits an enemy")? */
static bool hold_trigger(int t)
{
    return (t >= 0 && t < TRIG_COUNT) || t == TRIG_ALLY_HITS || t == TRIG_ALLY_TARGETS;
}

/* The triggers Hold! may wait for, in the order the legal list gives them. */
static const int HOLD_TRIGGERS[] = {
    TRIG_ENTERS_REACH, TRIG_ATTACKS,     TRIG_DASHES,         TRIG_ATTACKS_RANGED,
    TRIG_MOVES_IN_SIGHT, TRIG_TARGETS_ALLY, TRIG_LEAVES_REACH, TRIG_TARGETS_SELF,
    TRIG_HIT_SELF,     TRIG_HIT_ALLY,    TRIG_ENDS_MOVE_IN_RANGE, TRIG_DECLARES,
    TRIG_ALLY_HITS,    TRIG_ALLY_TARGETS,
};
_Static_assert(sizeof HOLD_TRIGGERS / sizeof HOLD_TRIGGERS[0] == TRIG_COUNT + 2,
               "every deed of the vocabulary, and the two of an ally");

static battle_status_t do_move(battle_t *b, const cmd_t *c)
{
    act_state_t *s = act_st(b);
    int i = c->actor;
    act_action_t a;
    move_cost_t mv;
    act_move_action(b, i, c->arg, &a);
    if (!act_move_cost(b, i, c->arg, &mv)) return BATTLE_ILLEGAL;
    int cost = geom_path_price(&mv, c->path, c->n_path);
    if (c->n_path < 1 || cost < 0 || cost > mv.budget_ft) return BATTLE_ILLEGAL;
    s->left -= a.cost;
    battle_emit_action(b, i, a.w ? a.w->id : "move", -1, true);
    act_pay_pp(b, i, &a); /* after the line it is told on */
    act_walk(b, i, c->path, c->n_path, c->arg == AM_DASH);
    if (!act_stopped(b) && battle_active(b, i) && a.priority > 0) s->prio += a.priority;
    return BATTLE_OK;
}

/* engage, grapple and declare: an action used now or telegraphed. */
static battle_status_t do_action(battle_t *b, const cmd_t *c, int slot, int delay, bool held)
{
    act_state_t *s = act_st(b);
    int i = c->actor;
    act_action_t a;
    if (!act_action(b, i, slot, &a) || !own_action(&a)) return BATTLE_ILLEGAL;
    if (held && !holdable(&a)) return BATTLE_ILLEGAL;
    if (!act_affordable(b, i, &a, true) || !aim_ok(b, i, &a, c->target, c->at))
        return BATTLE_ILLEGAL;
    int t = a.shape == SHAPE_SINGLE || c->target >= 0 ? c->target : -1;
    s->left -= a.cost;
    if (delay <= 0) delay = a.delay;
    if (delay > 0) {
        if (!act_declare_delay(b, i, slot, t, c->at, delay, held)) {
            s->left += a.cost;
            return BATTLE_ILLEGAL; /* every telegraph slot is taken */
        }
        return BATTLE_OK;
    }
    act_use(b, i, slot, t, c->at, 0);
    return BATTLE_OK;
}

static battle_status_t do_hold(battle_t *b, const cmd_t *c)
{
    act_state_t *s = act_st(b);
    int i = c->actor;
    act_action_t a;
    if (s->held[i] || !hold_trigger(c->arg)) return BATTLE_ILLEGAL;
    if (!act_action(b, i, c->weapon, &a) || !holdable(&a) || !act_grapple_allows(b, i, &a, -1))
        return BATTLE_ILLEGAL;
    if (c->target >= 0 && (c->target >= b->n || !battle_active(b, c->target) ||
                           !act_enemies(b, i, c->target)))
        return BATTLE_ILLEGAL;
    s->held[i] = 1;
    s->held_slot[i] = (short)c->weapon;
    s->held_trigger[i] = (short)c->arg;
    s->held_target[i] = (short)c->target;
    /* The held action, then what it waits for. */
    event_t e = event_make(EV_DECLARE);
    e.who = i;
    e.target = c->target;
    hb_strlcpy(e.name, a.w->id, sizeof e.name);
    battle_emit(b, &e);
    char what[EV_NAME_MAX];
    snprintf(what, sizeof what, "hold:%s", trigger_name(c->arg));
    battle_emit_action(b, i, what, c->target, true);
    return BATTLE_OK;
}

extern const ruleset_t ruleset_activation;

static battle_status_t act_apply(battle_t *b, const cmd_t *c)
{
    if (ruleset_takes_call(&ruleset_activation, c->kind)) return act_apply_call(b, c);
    act_state_t *s = act_st(b);
    int i = c->actor;
    if (b->over || i < 0 || i >= b->n || i != s->actor || !battle_active(b, i)) return BATTLE_ILLEGAL;
    battle_status_t st = BATTLE_OK;
    switch (c->kind) {
    case CMD_END:
        act_end_activation(b);
        return BATTLE_OK;
    case CMD_MOVE:
        st = do_move(b, c);
        break;
    case CMD_ENGAGE:
        st = do_action(b, c, c->weapon, 0, false);
        break;
    case CMD_GRAPPLE:
        st = do_action(b, c, ACT_W_GRAB, 0, false);
        break;
    case CMD_DECLARE:
        if (c->act != CMD_ENGAGE || c->arg < 1 || c->arg > 3) return BATTLE_ILLEGAL;
        st = do_action(b, c, c->weapon, c->arg, true);
        break;
    case CMD_STANDBY:
        st = do_hold(b, c);
        break;
    case CMD_ESCAPE:
        /* A22: Struggle Free is a Complex [Grapple] action of the held. */
        if (!act_in_grapple(b, i) || act_controls(b, i) || s->left < 2) return BATTLE_ILLEGAL;
        s->left -= 2;
        act_struggle_free(b, i);
        break;
    case CMD_RELEASE:
        if (!act_controls(b, i)) return BATTLE_ILLEGAL;
        act_release(b, i); /* a free action (A22) */
        break;
    default:
        return BATTLE_ILLEGAL;
    }
    /* Felled in its own activation (by an interrupt): it is over. */
    if (st == BATTLE_OK && !act_stopped(b) && s->actor == i && !battle_active(b, i))
        act_end_activation(b);
    return st;
}

/* ---- legal commands --------------------------------------------------------- */

typedef struct {
    cmd_t *out;
    int n, cap;
} list_t;

static void add(list_t *l, cmd_t c)
{
    if (l->n < l->cap) l->out[l->n] = c;
    l->n++;
}

/* Every aim of action `slot` that is worth listing, as kind (with act/arg). */
static void add_aims(const battle_t *b, list_t *l, cmd_t base, const act_action_t *a)
{
    int i = base.actor;
    if (a->shape == SHAPE_BURST) {
        add(l, base);
        return;
    }
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !act_enemies(b, i, t)) continue;
        if (!aim_ok(b, i, a, t, base.at)) continue;
        if (a->shape == SHAPE_SINGLE) {
            act_odds_t o;
            act_odds(b, i, a, t, &o);
            if (o.fails) continue; /* legal, but it could only fail (A10) */
        }
        cmd_t c = base;
        c.target = t;
        add(l, c);
    }
}

static int act_legal(battle_t *b, int i, cmd_t *out, int cap)
{
    const act_state_t *s = act_cst(b);
    list_t l = {out, 0, cap};
    if (b->over || i != s->actor || !battle_active(b, i)) return 0;
    add(&l, cmd_make(CMD_END, i));
    /* One Move per mode that has somewhere to go. */
    for (int mode = 0; mode < AM_COUNT; mode++) {
        move_cost_t mv;
        if (!act_move_cost(b, i, mode, &mv) || geom_reach_mode(&mv, b->ps, b->reach, 1) == 0) continue;
        cmd_t c = cmd_make(CMD_MOVE, i);
        c.arg = mode;
        add(&l, c);
    }
    /* Grab (listed as `grapple` below) may be held too. */
    for (int w = ACT_W_GRAB; w < b->u[i].n_weapons; w++) {
        act_action_t a;
        if (!act_action(b, i, w, &a) || !own_action(&a)) continue;
        cmd_t c = cmd_make(CMD_ENGAGE, i);
        c.weapon = w;
        if (w != ACT_W_GRAB && act_affordable(b, i, &a, true)) add_aims(b, &l, c, &a);
        if (!holdable(&a) || a.pp > b->u[i].stat[AS_PP]) continue;
        /* Hold!: a trigger (free, one held at a time), or [Delay 1-3]. */
        if (!s->held[i] && act_grapple_allows(b, i, &a, -1))
            for (size_t k = 0; k < sizeof HOLD_TRIGGERS / sizeof HOLD_TRIGGERS[0]; k++) {
                cmd_t h = cmd_make(CMD_STANDBY, i);
                h.weapon = w;
                h.arg = HOLD_TRIGGERS[k];
                add(&l, h);
            }
        if (act_affordable(b, i, &a, true))
            for (int x = 1; x <= 3; x++) {
                cmd_t d = cmd_make(CMD_DECLARE, i);
                d.act = CMD_ENGAGE;
                d.weapon = w;
                d.arg = x;
                add_aims(b, &l, d, &a);
            }
    }
    act_action_t grab;
    if (act_action(b, i, ACT_W_GRAB, &grab) && act_affordable(b, i, &grab, true))
        add_aims(b, &l, cmd_make(CMD_GRAPPLE, i), &grab);
    if (act_in_grapple(b, i) && !act_controls(b, i) && s->left >= 2)
        add(&l, cmd_make(CMD_ESCAPE, i));
    if (act_controls(b, i)) add(&l, cmd_make(CMD_RELEASE, i));
    return l.n;
}

/* ruleset_t.refused: the actor's own actions it cannot pay for now (A-Z:
 * a Complex action with one simple action left, an action's PP), each
 * with what it costs and what is left. */
static int act_refused(const battle_t *b, int i, refusal_t *out, int cap)
{
    const act_state_t *s = act_cst(b);
    int n = 0;
    if (b->over || i != s->actor || !battle_active(b, i)) return 0;
    bool grappled = act_has(b, i, AC_GRAPPLED);
    /* A23, A-G2: in a grapple, Dash is barred (the plain Move is not). */
    act_action_t dash;
    if (grappled && n < cap && act_move_action(b, i, AM_DASH, &dash) && !dash.grapple) {
        out[n].cmd = cmd_make(CMD_MOVE, i);
        out[n].cmd.arg = AM_DASH;
        snprintf(out[n].why, sizeof out[n].why, "grappled: only Move and [Grapple] actions");
        n++;
    }
    for (int w = ACT_W_STRUGGLE; w < b->u[i].n_weapons && n < cap; w++) {
        act_action_t a;
        if (!act_action(b, i, w, &a) || !own_action(&a)) continue;
        if (grappled && !a.grapple) {
            out[n].cmd = cmd_make(CMD_ENGAGE, i);
            out[n].cmd.weapon = w;
            snprintf(out[n].why, sizeof out[n].why, "grappled: only [Grapple] actions");
            n++;
            continue;
        }
        if (act_affordable(b, i, &a, true)) continue;
        int pp = b->u[i].stat[AS_PP];
        if (a.pp > pp)
            snprintf(out[n].why, sizeof out[n].why, "needs %d PP, %d left", a.pp, pp);
        else if (a.cost > s->left)
            snprintf(out[n].why, sizeof out[n].why, "needs %d actions, %d left", a.cost, s->left);
        else
            continue;
        out[n].cmd = cmd_make(CMD_ENGAGE, i);
        out[n].cmd.weapon = w;
        n++;
    }
    return n;
}

/* The AI's answer to the reaction being offered (react.c stashes it as it
 * makes the offer); any other offer lets the reaction pass. */
static int act_react(const battle_t *b, int reactor, const react_offer_t *offer)
{
    const act_state_t *s = act_cst(b);
    (void)offer;
    return reactor == s->offer_reactor ? s->offer_pick : 0;
}

/* Nothing hides in this system: everyone sees everyone on the board. */
static bool act_hidden_from(const battle_t *b, int who, int side)
{
    (void)b;
    (void)who;
    (void)side;
    return false;
}

const ruleset_t ruleset_activation = {
    .id = "activation",
    .title = "Activation: an action-value timeline with interrupts",
    .geo_profile = act_geo_profile,
    .stat_names = STAT_NAMES,
    .n_stats = AS_COUNT,
    .state_size = sizeof(act_state_t),
    .setup = act_setup,
    .actors = act_actors,
    .move_modes = ACT_MOVE_MODES,
    .n_move_modes = AM_COUNT,
    .move_cost = act_move_cost,
    .legal = act_legal,
    .apply = act_apply,
    .react = act_react,
    .ai = act_ai,
    .winner = act_winner,
    .hidden_from = act_hidden_from,
    .weapon_area = act_weapon_area,
    .predict = act_predict,
    .bands = act_bands,
    .gauges = act_gauges,
    .queue = act_queue,
    .tell = act_tell,
    .describe = act_describe,
    .refused = act_refused,
    .calls = act_calls,
    .call_kinds = RULESET_CALL(CMD_OVERRIDE),
    /* 1: interrupts resolve by the level declared, areas target all they
     * catch, grapples as the held-out reading amended (issue 33). */
    .revision = 1,
};
