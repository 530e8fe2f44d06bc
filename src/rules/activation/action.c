/* action.c - an action read from its data, and what using it would do: cost,
 * range, the accuracy stage and chance, damage. The pipeline rolls exactly
 * these numbers, and the AI and the odds on screen read them, so the three
 * cannot drift apart. See docs/rules-activation.md. */
#include <string.h>

#include "act.h"

/* The basic Struggle (A25) and Grab (the text: a Status attack of 90
 * Accuracy) when the data folder does not define them. */
static const weapon_t STRUGGLE = {
    .id = "struggle", .name = "Struggle", .cls = WPN_MELEE, .reach_ft = 5,
    .dice_n = 1, .dice_sides = 6,
    .tags = {{"acc", 100}, {"complex", 1}}, .n_tags = 2,
};
static const weapon_t GRAB = {
    .id = "grab", .name = "Grab", .cls = WPN_MELEE, .reach_ft = 5,
    .tags = {{"acc", 90}, {"complex", 1}, {"category", CAT_STATUS}, {"grapple", 1}, {"grab", 1}},
    .n_tags = 5,
};

static int tag(const weapon_t *w, const char *k) { return battle_weapon_tag(w, k); }

int act_change_range(int r, int plus, int pct)
{
    r += plus; /* whole numbers first */
    if (pct != 0) {
        int mag = pct > 0 ? pct : -pct;
        int d = (r * mag * 2 + 100) / 200; /* to the nearest hex, halves up */
        if (d < 1) d = 1;                  /* any change is at least one hex */
        r += pct > 0 ? d : -d;
    }
    return r > 1 ? r : 1;
}

int act_reach(const battle_t *b, int i)
{
    int ft = b->map->combatants[i].reach_ft;
    return ft > 0 ? geom_ft_to_hexes(b->map, ft) : 1;
}

bool act_action(const battle_t *b, int i, int slot, act_action_t *out)
{
    memset(out, 0, sizeof *out);
    const weapon_t *w = NULL;
    if (slot == ACT_W_STRUGGLE) {
        w = tmpl_find_weapon(b->db, "struggle");
        if (!w) w = &STRUGGLE;
    } else if (slot == ACT_W_GRAB) {
        w = tmpl_find_weapon(b->db, "grab");
        if (!w) w = &GRAB;
    } else {
        w = battle_weapon(b, i, slot);
    }
    if (!w) return false;
    out->w = w;
    out->slot = slot;
    out->cost = tag(w, "free") > 0 ? 0 : tag(w, "complex") > 0 ? 2 : 1;
    out->acc = tag(w, "acc");
    out->pp = tag(w, "pp");
    out->priority = tag(w, "priority");
    out->interrupt = tag(w, "interrupt");
    out->trigger = tag(w, "trigger");
    out->delay = tag(w, "delay");
    out->contact = w->cls == WPN_MELEE || tag(w, "contact") > 0;
    out->category = tag(w, "category");
    out->crit = tag(w, "crit");
    out->poison = tag(w, "poison");
    out->grapple = tag(w, "grapple") > 0;
    out->grab = tag(w, "grab") > 0;
    out->foes_only = tag(w, "foes_only") > 0;
    out->intercept = tag(w, "intercept") > 0;
    out->move = tag(w, "move") > 0;
    out->trigger_contact = tag(w, "trigger_contact") > 0;
    static const char *const SHAPES[] = {"", "burst", "blast", "cone", "line"};
    out->shape = SHAPE_SINGLE;
    for (int s = SHAPE_BURST; s <= SHAPE_LINE; s++)
        if (tag(w, SHAPES[s]) > 0) {
            out->shape = (act_shape_t)s;
            out->size = tag(w, SHAPES[s]);
            break;
        }
    /* A12: a [Contact] action's range is its own (one hex unless it says)
     * plus the user's reach less one. Ranges are held in feet, 1 m = 5 ft =
     * one hex (A1). */
    if (out->contact) {
        int own = w->reach_ft > 0 ? geom_ft_to_hexes(b->map, w->reach_ft) : 1;
        out->range = own + act_reach(b, i) - 1;
    } else {
        out->range = w->range_ft > 0 ? geom_ft_to_hexes(b->map, w->range_ft) : 1;
    }
    /* A-Z3, A11: the user's changes to range, whole hexes then percent. */
    out->range = act_change_range(out->range, b->u[i].stat[AS_RANGE_PLUS], b->u[i].stat[AS_RANGE_PCT]);
    return true;
}

int act_move_hexes(const battle_t *b, int i)
{
    if (act_has(b, i, AC_BOUND)) return 0;
    int mv = b->u[i].stat[AS_MOVEMENT];
    if (mv <= 0) {
        int fph = b->map->feet_per_hex > 0 ? b->map->feet_per_hex : 5;
        mv = b->map->combatants[i].speed_ft / fph;
    }
    if (act_controls(b, i)) mv -= act_carry_penalty(b, i);
    return mv > 0 ? mv : 0;
}

bool act_affordable(const battle_t *b, int i, const act_action_t *a, bool own)
{
    const act_state_t *s = act_cst(b);
    if (b->u[i].stat[AS_PP] < a->pp) return false;
    if (own) return s->actor == i && s->left >= a->cost;
    return s->debt[i] + a->cost <= ACT_SIMPLE;
}

bool act_grapple_allows(const battle_t *b, int i, const act_action_t *a, int t)
{
    if (a->grab) {
        /* Grab reaches outside a grapple (the text's exception), but only a
         * free combatant or a grapple's controller can take hold of someone,
         * and only of someone in no grapple. */
        if (t >= 0 && act_in_grapple(b, t)) return false;
        return !act_in_grapple(b, i) || act_controls(b, i);
    }
    /* Ruling: a [Grapple] action other than Grab is a grapple's own (Slam):
     * it needs its user in a grapple, at a member of it. */
    if (!act_has(b, i, AC_GRAPPLED)) return !a->grapple;
    if (!a->grapple) return false;
    if (a->shape != SHAPE_SINGLE) return false; /* an area would reach past the grapple */
    /* A-G4, A-G7: hostile and set-up actions alike stay inside the grapple. */
    return t < 0 || act_same_grapple(b, i, t);
}

int act_ri_penalty(int ri)
{
    return ri > 1 ? ri * (ri - 1) / 2 : 0; /* A10: RI2 -1, RI3 -3, RI4 -6 */
}

/* The odds of i (standing at from) using a on t. caught: t stands in a's
 * template, which reached it, so range, sight and cover play no part (A-Z5)
 * and a blast may catch its own user. */
static void odds(const battle_t *b, int i, hex_t from, const act_action_t *a, int t, bool caught,
                 act_odds_t *out)
{
    memset(out, 0, sizeof *out);
    if (!battle_active(b, i) || !battle_active(b, t) || (t == i && !caught)) return;
    out->dist = hex_distance(from, act_pos(b, t));
    int s = b->u[i].stat[AS_ACC] - b->u[t].stat[AS_EVA];
    if (!caught) {
        sight_t sg = sight_trace(b->board, from, act_pos(b, t));
        if (!sg.visible || sg.cover == COVER_TOTAL) return; /* A18 */
        if (a->contact || a->shape != SHAPE_SINGLE) {
            if (out->dist > a->range) return; /* A-Z5: no increments, a miss beyond */
        } else {
            int r = a->range > 0 ? a->range : 1;
            out->ri = (out->dist + r - 1) / r;
            if (out->ri < 1) out->ri = 1;
            s -= act_ri_penalty(out->ri);
        }
        if (sg.cover == COVER_LIGHT) s -= 1; /* A18 */
        if (sg.cover == COVER_HEAVY) s -= 2;
    }
    if (act_has(b, i, AC_GRAPPLED)) s -= 1; /* A-G2 */
    if (act_has(b, t, AC_GRAPPLED)) s += 1;
    out->legal = true;
    out->stage_raw = s;
    out->fails = out->ri >= 2 && s < -ACT_STAGE_MAX;
    out->stage = s < -ACT_STAGE_MAX ? -ACT_STAGE_MAX : s > ACT_STAGE_MAX ? ACT_STAGE_MAX : s;
    if (a->acc <= 0) {
        out->chance = 100; /* A-R2 */
    } else if (out->stage >= 0) {
        out->chance = a->acc * (3 + out->stage) / 3; /* A9 */
    } else {
        out->chance = a->acc * 3 / (3 - out->stage);
    }
    if (out->fails) out->chance = 0;
    out->damages = a->category != CAT_STATUS && a->w->dice_n + a->w->dice_bonus > 0;
    out->crit_chance = out->damages ? ACT_CRIT_BASE + a->crit : 0;
    if (out->damages) {
        out->dmg_n = a->w->dice_n;
        out->dmg_sides = a->w->dice_sides;
        out->dmg_bonus = a->w->dice_bonus;
        out->dmg_mod = a->category == CAT_SPECIAL
                           ? b->u[i].stat[AS_SPATK] - b->u[t].stat[AS_SPDEF]
                           : b->u[i].stat[AS_ATK] - b->u[t].stat[AS_DEF];
    }
}

void act_odds(const battle_t *b, int i, const act_action_t *a, int t, act_odds_t *out)
{
    odds(b, i, act_pos(b, i), a, t, false, out);
}

void act_odds_from(const battle_t *b, int i, hex_t from, const act_action_t *a, int t,
                   act_odds_t *out)
{
    odds(b, i, from, a, t, false, out);
}

void act_odds_caught(const battle_t *b, int i, const act_action_t *a, int t, act_odds_t *out)
{
    odds(b, i, act_pos(b, i), a, t, true, out);
}

double act_mean_damage(const act_odds_t *o)
{
    if (!o->damages) return 0.0;
    /* The exact distribution of the dice, then the floor of 1 (A13) and the
     * critical x1.5 rounded down (A14): neither is linear. */
    enum { TOP = 400 };
    int n = o->dmg_n, sd = o->dmg_sides;
    if (n < 1 || sd < 1 || n * sd > TOP) {
        double m = n * (sd + 1) / 2.0 + o->dmg_bonus + o->dmg_mod;
        if (m < 1.0) m = 1.0;
        double pc = o->crit_chance / 100.0;
        return m * (1.0 - pc) + 1.5 * m * pc;
    }
    double dist[TOP + 1], next[TOP + 1];
    memset(dist, 0, sizeof dist);
    dist[0] = 1.0;
    int top = 0;
    for (int k = 0; k < n; k++) {
        memset(next, 0, sizeof(double) * (size_t)(top + sd + 1));
        for (int v = 0; v <= top; v++)
            if (dist[v] > 0.0)
                for (int f = 1; f <= sd; f++)
                    next[v + f] += dist[v] / sd;
        top += sd;
        memcpy(dist, next, sizeof(double) * (size_t)(top + 1));
    }
    double plain = 0.0, crit = 0.0;
    for (int v = 0; v <= top; v++) {
        if (dist[v] <= 0.0) continue;
        int d = v + o->dmg_bonus + o->dmg_mod;
        if (d < 1) d = 1;
        plain += dist[v] * d;
        crit += dist[v] * (d * 3 / 2);
    }
    double pc = o->crit_chance / 100.0;
    if (pc > 1.0) pc = 1.0;
    return plain * (1.0 - pc) + crit * pc;
}
