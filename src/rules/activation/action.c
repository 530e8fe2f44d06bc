/* action.c - an action read from its data, and what using it would do: cost,
 * range, the accuracy stage and chance, damage. The pipeline rolls exactly
 * these numbers, and the AI and the odds on screen read them, so the three
 * cannot drift apart. See docs/rules-activation.md. */
#include <stdint.h>
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

/* The tags an action is read from, and their names in the data. */
enum {
    T_FREE, T_COMPLEX, T_ACC, T_PP, T_PRIORITY, T_INTERRUPT, T_TRIGGER, T_DELAY, T_CONTACT,
    T_CATEGORY, T_CRIT, T_POISON, T_GRAPPLE, T_GRAB, T_FOES_ONLY, T_INTERCEPT, T_MOVE,
    T_TRIGGER_CONTACT, T_BURST, T_BLAST, T_CONE, T_LINE, T_COUNT
};
static const char *const TAG_NAMES[T_COUNT] = {
    [T_FREE] = "free",           [T_COMPLEX] = "complex",     [T_ACC] = "acc",
    [T_PP] = "pp",               [T_PRIORITY] = "priority",   [T_INTERRUPT] = "interrupt",
    [T_TRIGGER] = "trigger",     [T_DELAY] = "delay",         [T_CONTACT] = "contact",
    [T_CATEGORY] = "category",   [T_CRIT] = "crit",           [T_POISON] = "poison",
    [T_GRAPPLE] = "grapple",     [T_GRAB] = "grab",           [T_FOES_ONLY] = "foes_only",
    [T_INTERCEPT] = "intercept", [T_MOVE] = "move",           [T_TRIGGER_CONTACT] = "trigger_contact",
    [T_BURST] = "burst",         [T_BLAST] = "blast",         [T_CONE] = "cone",
    [T_LINE] = "line",
};

_Static_assert(T_COUNT == ACT_TAG_COUNT, "act_state_t.tags holds every tag an action reads");

/* Every tag of w that an action reads, in one pass over its tags (the AI
 * reads actions in its inner loops): v[T_*] is the tag's value, 0 when w
 * lacks it; the first of two tags of one name counts, as battle_weapon_tag
 * reads it. */
static void read_tags(const weapon_t *w, int *v)
{
    bool seen[T_COUNT] = {false};
    for (int k = 0; k < T_COUNT; k++) v[k] = 0;
    for (int k = 0; k < w->n_tags; k++) {
        const char *key = w->tags[k].key;
        for (int t = 0; t < T_COUNT; t++)
            if (!seen[t] && key[0] == TAG_NAMES[t][0] && strcmp(key, TAG_NAMES[t]) == 0) {
                v[t] = w->tags[k].value;
                seen[t] = true;
                break;
            }
    }
}

/* Index + 1 of weapon ID in b's data, 0 when it has none. */
static short data_weapon(const battle_t *b, const char *id)
{
    const weapon_t *w = tmpl_find_weapon(b->db, id);
    return w ? (short)(w - b->db->weapons + 1) : 0;
}

void act_read_data(battle_t *b)
{
    act_state_t *s = act_st(b);
    s->w_struggle = data_weapon(b, "struggle");
    s->w_grab = data_weapon(b, "grab");
    for (int k = 0; b->db && k < b->db->n_weapons && k < WEAPON_MAX; k++)
        read_tags(&b->db->weapons[k], s->tags[k]);
}

/* The tags of w: read at setup when w is one of the data's weapons. */
static void tags_of(const battle_t *b, const weapon_t *w, int *v)
{
    const tmpl_db_t *db = b->db;
    /* Compared as addresses: w may be a built-in action outside the data. */
    uintptr_t at = (uintptr_t)w, first = db ? (uintptr_t)db->weapons : 0;
    if (db && at >= first && at < first + sizeof(weapon_t) * (size_t)db->n_weapons) {
        memcpy(v, act_cst(b)->tags[(at - first) / sizeof(weapon_t)], sizeof(int) * T_COUNT);
        return;
    }
    read_tags(w, v);
}

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
    if (slot == ACT_W_STRUGGLE || slot == ACT_W_GRAB) {
        /* The data's own Struggle and Grab, found once at setup, else the built-in ones. */
        const act_state_t *s = act_cst(b);
        int k = slot == ACT_W_STRUGGLE ? s->w_struggle : s->w_grab;
        w = k > 0 ? &b->db->weapons[k - 1] : slot == ACT_W_STRUGGLE ? &STRUGGLE : &GRAB;
    } else {
        w = battle_weapon(b, i, slot);
    }
    if (!w) return false;
    out->w = w;
    out->slot = slot;
    int v[T_COUNT];
    tags_of(b, w, v);
    out->cost = v[T_FREE] > 0 ? 0 : v[T_COMPLEX] > 0 ? 2 : 1;
    out->acc = v[T_ACC];
    out->pp = v[T_PP];
    out->priority = v[T_PRIORITY];
    out->interrupt = v[T_INTERRUPT];
    out->trigger = v[T_TRIGGER];
    out->delay = v[T_DELAY];
    out->contact = w->cls == WPN_MELEE || v[T_CONTACT] > 0;
    out->category = v[T_CATEGORY];
    out->crit = v[T_CRIT];
    out->poison = v[T_POISON];
    out->grapple = v[T_GRAPPLE] > 0;
    out->grab = v[T_GRAB] > 0;
    out->foes_only = v[T_FOES_ONLY] > 0;
    out->intercept = v[T_INTERCEPT] > 0;
    out->move = v[T_MOVE] > 0;
    out->trigger_contact = v[T_TRIGGER_CONTACT] > 0;
    /* The first shape in this order that w has. */
    static const int SHAPE_TAG[] = {[SHAPE_BURST] = T_BURST, [SHAPE_BLAST] = T_BLAST,
                                    [SHAPE_CONE] = T_CONE, [SHAPE_LINE] = T_LINE};
    out->shape = SHAPE_SINGLE;
    for (int s = SHAPE_BURST; s <= SHAPE_LINE; s++)
        if (v[SHAPE_TAG[s]] > 0) {
            out->shape = (act_shape_t)s;
            out->size = v[SHAPE_TAG[s]];
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
        /* A23: Grab is the text's exception to "hostile actions must target
         * actors within the grapple": anyone, grappled or Bound too, may take
         * hold of someone in no grapple (ruling: not of someone in another). */
        return t < 0 || !act_in_grapple(b, t);
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
                 const sight_t *seen, act_odds_t *out)
{
    memset(out, 0, sizeof *out);
    if (!battle_active(b, i) || !battle_active(b, t) || (t == i && !caught)) return;
    out->dist = hex_distance(from, act_pos(b, t));
    int s = b->u[i].stat[AS_ACC] - b->u[t].stat[AS_EVA];
    if (!caught) {
        sight_t sg = seen ? *seen : sight_trace(b->board, from, act_pos(b, t));
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
    odds(b, i, act_pos(b, i), a, t, false, NULL, out);
}

void act_odds_from(const battle_t *b, int i, hex_t from, const act_action_t *a, int t,
                   const sight_t *seen, act_odds_t *out)
{
    odds(b, i, from, a, t, false, seen, out);
}

void act_odds_caught(const battle_t *b, int i, const act_action_t *a, int t, act_odds_t *out)
{
    odds(b, i, act_pos(b, i), a, t, true, NULL, out);
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
