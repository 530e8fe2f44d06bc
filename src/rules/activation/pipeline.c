/* pipeline.c - one action from Declaration to Resolution (A-R1), with a
 * reaction window after each step (A6), damage and critical hits (A13,
 * A14), fainting (A15), on-hit effects (A26), and telegraphed [Delay X]
 * actions (A7, A8). See docs/rules-activation.md. */
#include <stdio.h>
#include <string.h>

#include "act.h"

void act_set_cond(battle_t *b, int i, unsigned bit, const char *name, bool on)
{
    if (act_has(b, i, bit) == on) return;
    if (on)
        b->u[i].cond |= bit;
    else
        b->u[i].cond &= ~bit;
    battle_emit_condition(b, i, name, on);
}

static void telegraph(battle_t *b, int i, const act_action_t *a, int t, cell_t from, cell_t aim,
                      int left);

/* Out of the fight (A15): its grapple, held action and telegraphs go too. */
static void faint(battle_t *b, int t)
{
    act_state_t *s = act_st(b);
    if (act_controls(b, t))
        act_release(b, t);
    else if (act_in_grapple(b, t))
        act_leave_grapple(b, t);
    s->held[t] = 0;
    /* A7: its telegraphs are lost with it (the rest stay in their order). */
    int keep = 0;
    for (int k = 0; k < ACT_DELAY_MAX; k++) {
        act_delay_t d = s->delay[k];
        if (!d.used) continue;
        act_action_t a;
        if (d.who == t) {
            if (act_action(b, t, d.slot, &a)) telegraph(b, t, &a, d.target, d.from, d.at, 0);
            battle_emit_action(b, t, "fizzle", d.target, false);
            continue;
        }
        s->delay[keep++] = d;
    }
    for (int k = keep; k < ACT_DELAY_MAX; k++) s->delay[k].used = 0;
    battle_remove(b, t);
    event_t e = event_make(EV_DEFEATED);
    e.who = t;
    battle_emit(b, &e);
}

void act_hurt(battle_t *b, int t, int amount)
{
    unit_t *u = &b->u[t];
    if (amount < 0) amount = 0;
    u->hp = u->hp > amount ? u->hp - amount : 0;
    event_t e = event_make(EV_DAMAGE);
    e.target = t;
    e.amount = amount;
    e.hp = u->hp;
    battle_emit(b, &e);
    if (u->hp == 0 && !u->out) faint(b, t);
}

/* A d100 for who against chance: true when it comes up at or under it. The
 * reason names the chance, as the log and the dice prompt show it. */
static bool d100(battle_t *b, int who, int chance, const char *what, int on)
{
    char why[DICE_WHY_MAX];
    /* A long name is cut short: the reason is a label, not a key. */
    if (snprintf(why, sizeof why, "%.16s <=%d on %.22s", what, chance, b->map->combatants[on].id) >=
        (int)sizeof why)
        why[sizeof why - 1] = '\0';
    roll_spec_t spec = roll_plain(1, 100, 0, 0);
    spec.goal = ROLL_GOAL_AT_MOST; /* the prompt says "1d100: N or under succeeds" */
    spec.target = chance;
    event_t e;
    battle_roll_spec(b, who, &spec, why, &e);
    return e.successes > 0;
}

/* Accuracy, hit, damage and effect of a against one target t (A-R1 2-3).
 * area: t was caught by the template, so range and cover do not apply. */
static void resolve_on(battle_t *b, int i, const act_action_t *a, int t, bool area,
                       act_trigger_t *x, int depth)
{
    act_odds_t o;
    if (area)
        act_odds_caught(b, i, a, t, &o);
    else
        act_odds(b, i, a, t, &o);
    if (!o.legal) {
        battle_emit_action(b, i, "fizzle", t, false); /* out of range or sight now */
        return;
    }
    if (o.fails) {
        /* A10: beyond the -6 limit at RI2 or farther nothing happens at all. */
        event_t e = event_make(EV_ATTACK);
        e.who = i;
        e.target = t;
        hb_strlcpy(e.name, a->w->id, sizeof e.name);
        battle_emit(b, &e);
        battle_emit_action(b, i, "out_of_range", t, false);
        return;
    }
    /* A27: the referee's ruling on this attack stands in for the dice. */
    act_state_t *s = act_st(b);
    int ovr = s->ovr[i];
    bool hit = true;
    if (ovr != OVERRIDE_NONE) {
        s->ovr_used[i] = 1;
        hit = ovr != OVERRIDE_MISS;
        battle_emit_action(b, i, hit ? "referee_hit" : "referee_miss", t, hit);
    } else if (a->acc > 0 && o.chance < 100) {
        hit = d100(b, i, o.chance, a->w->name, t);
    }
    if (act_stopped(b)) return;
    x->target = t;
    x->hit = -1;
    act_window(b, WIN_ACCURACY, x, depth);
    if (act_stopped(b) || !battle_active(b, i) || !battle_active(b, t)) return;
    event_t e = event_make(EV_ATTACK);
    e.who = i;
    e.target = t;
    e.hit = hit;
    hb_strlcpy(e.name, a->w->id, sizeof e.name);
    battle_emit(b, &e);
    if (!hit) return;
    x->hit = t;
    act_window(b, WIN_HIT, x, depth);
    if (act_stopped(b) || !battle_active(b, i) || !battle_active(b, t)) return;
    if (o.damages) {
        bool crit = ovr == OVERRIDE_CRIT;
        if (ovr == OVERRIDE_NONE || ovr == OVERRIDE_HIT)
            crit = d100(b, i, o.crit_chance, "critical", t);
        char why[DICE_WHY_MAX];
        snprintf(why, sizeof why, "damage on %.31s", b->map->combatants[t].id);
        int roll = battle_roll(b, i, o.dmg_n, o.dmg_sides, 0, o.dmg_bonus, why, NULL);
        if (act_stopped(b)) return;
        int dmg = roll + o.dmg_mod;
        if (dmg < 1) dmg = 1; /* A13 */
        if (crit) {
            dmg = dmg * 3 / 2; /* A14 */
            battle_emit_action(b, i, "critical", t, true);
        }
        act_hurt(b, t, dmg);
        act_window(b, WIN_DAMAGE, x, depth);
        if (act_stopped(b) || !battle_active(b, i) || !battle_active(b, t)) return;
    }
    if (a->grab) act_grab_effect(b, i, t);
    if (a->poison > 0 && battle_active(b, t) && !act_has(b, t, AC_POISONED)) {
        if (d100(b, i, a->poison, "poison", t)) act_set_cond(b, t, AC_POISONED, "poisoned", true);
    }
    if (act_stopped(b)) return;
    act_window(b, WIN_EFFECT, x, depth);
    if (act_stopped(b)) return;
    /* A24: any [Grapple] action between grapple members may draw others in. */
    if (a->grapple && !a->grab && battle_active(b, i) && battle_active(b, t) &&
        act_same_grapple(b, i, t))
        act_offer_cograpple(b, i, t);
}

/* Steps 2 to 4 for an action already declared: on its target, or on every
 * combatant its template catches, then Resolution. */
static void resolve(battle_t *b, int i, const act_action_t *a, act_trigger_t *x, hex_t from,
                    cell_t aim, int depth)
{
    if (a->shape == SHAPE_SINGLE) {
        if (x->target >= 0 && battle_active(b, x->target))
            resolve_on(b, i, a, x->target, false, x, depth);
        else
            battle_emit_action(b, i, "fizzle", x->target, false);
    } else {
        area_t ar;
        if (!act_area_of(b, a, from, hex_from_cell(b->map->layout, aim), &ar)) {
            battle_emit_action(b, i, "fizzle", -1, false);
            return;
        }
        event_t e = area_event(b->map, i, x->target, &ar);
        battle_emit(b, &e);
        /* Whom it strikes is settled once, before anyone is hit: the targets
         * its declaration named (A17; a Guard may have stepped in for one),
         * or for a telegraph landing now whoever stands in it now (A7). */
        if (!x->area) act_area_targets(b, i, a, &ar, x);
        unsigned char caught[ACT_NMAX];
        for (int k = 0; k < b->n; k++)
            caught[k] = battle_active(b, k) && x->tgt[k];
        for (int k = 0; k < b->n && !act_stopped(b) && battle_active(b, i); k++)
            if (caught[k] && battle_active(b, k)) resolve_on(b, i, a, k, true, x, depth);
    }
    /* A ruling holds for one action, on every target it rolled against. */
    act_state_t *s = act_st(b);
    if (s->ovr_used[i]) s->ovr[i] = s->ovr_used[i] = 0;
    if (act_stopped(b)) return;
    x->hit = -1;
    act_window(b, WIN_RESOLUTION, x, depth);
}

void act_area_targets(const battle_t *b, int i, const act_action_t *a, const area_t *ar,
                      act_trigger_t *x)
{
    x->area = true;
    for (int k = 0; k < b->n; k++) x->tgt[k] = act_area_catches(b, i, a, ar, k) ? 1 : 0;
}

void act_pay_pp(battle_t *b, int i, const act_action_t *a)
{
    if (a->pp <= 0) return;
    b->u[i].stat[AS_PP] -= a->pp;
    battle_emit_change(b, i, "pp", b->u[i].stat[AS_PP] + a->pp, b->u[i].stat[AS_PP]);
}

/* Step 1: the declaration and its window. False when the action is off
 * (the user fell, or was stopped). */
static bool declare(battle_t *b, int i, const act_action_t *a, act_trigger_t *x, int depth)
{
    act_window(b, WIN_DECLARE, x, depth);
    if (act_stopped(b)) return false;
    if (!battle_active(b, i) || x->cancelled) {
        if (battle_active(b, i)) battle_emit_action(b, i, "interrupted", x->target, false);
        return false;
    }
    (void)a;
    return true;
}

void act_use(battle_t *b, int i, int slot, int t, cell_t aim, int depth)
{
    act_action_t a;
    if (!battle_active(b, i) || !act_action(b, i, slot, &a)) return;
    if (a.shape != SHAPE_SINGLE && t >= 0) aim = hex_to_cell(b->map->layout, act_pos(b, t));
    if (a.shape == SHAPE_BURST) aim = hex_to_cell(b->map->layout, act_pos(b, i));
    event_t e = event_make(EV_DECLARE);
    e.who = i;
    e.target = a.shape == SHAPE_SINGLE ? t : -1;
    e.to = aim;
    if (a.shape != SHAPE_SINGLE) e.opt = EV_OPT_AT; /* the hex an area is aimed at */
    hb_strlcpy(e.name, a.w->id, sizeof e.name);
    battle_emit(b, &e);
    act_pay_pp(b, i, &a); /* after the declaration, so the log tells it on that line */
    act_trigger_t x = {.user = i, .target = a.shape == SHAPE_SINGLE ? t : -1, .a = &a, .hit = -1};
    area_t ar;
    /* A17: an area targets everyone in it, from its declaration on. */
    if (act_area_of(b, &a, act_pos(b, i), hex_from_cell(b->map->layout, aim), &ar))
        act_area_targets(b, i, &a, &ar, &x);
    if (!declare(b, i, &a, &x, depth)) return;
    resolve(b, i, &a, &x, act_pos(b, i), aim, depth);
    act_state_t *s = act_st(b);
    if (depth == 0 && s->actor == i) s->struck = true;
    /* A3: Priority counts for actions resolved in the user's own activation. */
    if (!act_stopped(b) && a.priority > 0 && depth == 0 && s->actor == i) s->prio += a.priority;
}

/* Announce a telegraph of i (action a on t, or on the hexes at cell aim laid
 * from cell from) with `left` activations to go: at its declaration, as each
 * activation ends, and with 0 as it lands or fizzles (A7). */
static void telegraph(battle_t *b, int i, const act_action_t *a, int t, cell_t from, cell_t aim,
                      int left)
{
    event_t e = event_make(EV_DECLARE);
    e.who = i;
    e.target = t;
    e.from = from;
    e.to = aim;
    e.value = left;
    e.opt = EV_OPT_VALUE | (a->shape != SHAPE_SINGLE ? EV_OPT_AT : 0u);
    hb_strlcpy(e.name, a->w->id, sizeof e.name);
    battle_emit(b, &e);
}

bool act_declare_delay(battle_t *b, int i, int slot, int t, cell_t aim, int x, bool held)
{
    act_state_t *s = act_st(b);
    act_action_t a;
    if (!act_action(b, i, slot, &a)) return false;
    int k = 0;
    while (k < ACT_DELAY_MAX && s->delay[k].used) k++;
    if (k == ACT_DELAY_MAX) return false;
    /* A7: a template stays on the hexes chosen now; a single target is
     * followed by name and must still be in range and sight then. */
    if (a.shape == SHAPE_BURST) aim = hex_to_cell(b->map->layout, act_pos(b, i));
    if (a.shape != SHAPE_SINGLE && t >= 0) aim = hex_to_cell(b->map->layout, act_pos(b, t));
    if (a.shape != SHAPE_SINGLE) t = -1;
    /* A7: announced with the activations left, and the hexes it will strike. */
    cell_t from = hex_to_cell(b->map->layout, act_pos(b, i));
    telegraph(b, i, &a, t, from, aim, x);
    act_pay_pp(b, i, &a); /* told on the telegraph's line */
    act_trigger_t tr = {.user = i, .target = t, .a = &a, .hit = -1};
    /* A17: those in the telegraphed hexes now are its targets at the
     * declaration (who is struck is settled again when it lands, A7). */
    area_t ar;
    if (act_area_of(b, &a, act_pos(b, i), hex_from_cell(b->map->layout, aim), &ar))
        act_area_targets(b, i, &a, &ar, &tr);
    if (!declare(b, i, &a, &tr, 0)) return true;
    /* Stored after the window: a later declaration never overtakes it. */
    k = 0;
    while (k < ACT_DELAY_MAX && s->delay[k].used) k++;
    if (k == ACT_DELAY_MAX) return true;
    s->delay[k] = (act_delay_t){.used = 1, .held = held, .who = (short)i, .slot = (short)slot,
                                .target = (short)tr.target, .left = (short)x, .at = aim,
                                .from = hex_to_cell(b->map->layout, act_pos(b, i))};
    /* Entries are resolved in declaration order: keep them packed in it. */
    return true;
}

void act_delays_tick(battle_t *b)
{
    act_state_t *s = act_st(b);
    act_delay_t due[ACT_DELAY_MAX];
    int nd = 0, keep = 0;
    for (int k = 0; k < ACT_DELAY_MAX; k++) {
        if (!s->delay[k].used) continue;
        act_delay_t d = s->delay[k];
        if (--d.left <= 0)
            due[nd++] = d;
        else
            s->delay[keep++] = d;
    }
    for (int k = keep; k < ACT_DELAY_MAX; k++) s->delay[k].used = 0;
    /* The countdown of those still waiting. */
    for (int k = 0; k < keep; k++) {
        const act_delay_t *d = &s->delay[k];
        act_action_t a;
        if (battle_active(b, d->who) && act_action(b, d->who, d->slot, &a))
            telegraph(b, d->who, &a, d->target, d->from, d->at, d->left);
    }
    for (int k = 0; k < nd && !act_stopped(b); k++) {
        const act_delay_t *d = &due[k];
        act_action_t a;
        bool ok = battle_active(b, d->who) && act_action(b, d->who, d->slot, &a);
        if (ok) telegraph(b, d->who, &a, d->target, d->from, d->at, 0);
        if (!ok) {
            battle_emit_action(b, d->who, "fizzle", d->target, false); /* A7: its user fainted */
            continue;
        }
        battle_emit_action(b, d->who, a.w->id, d->target, true);
        act_trigger_t x = {.user = d->who, .target = d->target, .a = &a, .hit = -1};
        resolve(b, d->who, &a, &x, hex_from_cell(b->map->layout, d->from), d->at, 0);
    }
}
