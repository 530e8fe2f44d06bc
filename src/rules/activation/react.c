/* react.c - trigger windows (A6), [Interrupt X] actions and Hold! triggers
 * (A4, A5, A8), Guard's intercept (A-R3), Co-Grapple (A24), and how a
 * reaction is put to the table or to the AI. See docs/rules-activation.md. */
#include <stdio.h>
#include <string.h>

#include "act.h"

#define OPT_MAX (REACT_CHOICES_MAX - 1) /* and "pass" */

/* One way reactor r may answer a window. */
typedef struct {
    int slot;        /* the action (a weapon slot) */
    bool held;       /* the Hold! action, as [Interrupt 1] */
    act_action_t a;
    int level;       /* interrupt level */
} option_t;

/* Does trigger `trig` of r's action a meet window win of x? */
static bool meets(const battle_t *b, act_window_t win, const act_trigger_t *x, int r, int trig,
                  const act_action_t *a)
{
    int u = x->user;
    if (a->trigger_contact && (!x->a || !x->a->contact)) return false;
    bool damaging = x->a && x->a->category != CAT_STATUS;
    switch (trig) {
    case TRIG_ENTERS_REACH:
        return win == WIN_STEP_AFTER && hex_distance(act_pos(b, r), x->to) <= a->range &&
               hex_distance(act_pos(b, r), x->from) > a->range;
    case TRIG_LEAVES_REACH:
        return win == WIN_STEP_BEFORE && hex_distance(act_pos(b, r), x->from) <= a->range &&
               hex_distance(act_pos(b, r), x->to) > a->range;
    case TRIG_DASHES:
        return win == WIN_STEP_BEFORE && x->dash;
    case TRIG_MOVES_IN_SIGHT:
        return win == WIN_STEP_AFTER && sight_clear(b->board, act_pos(b, r), x->to);
    case TRIG_ENDS_MOVE_IN_RANGE:
        return win == WIN_MOVE_END && hex_distance(act_pos(b, r), act_pos(b, u)) <= a->range;
    case TRIG_TARGETS_SELF:
        return win == WIN_DECLARE && x->target == r;
    case TRIG_TARGETS_ALLY:
        return win == WIN_DECLARE && x->target >= 0 && x->target != r &&
               board_allies(b->board, r, x->target);
    case TRIG_ATTACKS:
        return win == WIN_DECLARE && damaging;
    case TRIG_ATTACKS_RANGED:
        return win == WIN_DECLARE && damaging && !x->a->contact;
    case TRIG_DECLARES:
        return win == WIN_DECLARE && x->a;
    case TRIG_HIT_SELF:
        return win == WIN_HIT && x->hit == r;
    case TRIG_HIT_ALLY:
        return win == WIN_HIT && x->hit >= 0 && x->hit != r && board_allies(b->board, r, x->hit);
    default:
        return false;
    }
}

/* Can r answer x with action a right now (paid from its next activation)? */
static bool usable(const battle_t *b, int r, const act_action_t *a, const act_trigger_t *x)
{
    if (!act_affordable(b, r, a, false)) return false;
    int u = x->user;
    /* A-G2: a grappled reactor may take only [Grapple] actions, Guard too. */
    if (act_has(b, r, AC_GRAPPLED) && !a->grapple) return false;
    if (a->intercept) {
        /* Guard: the ally must be within its range, and the guard itself a
         * target the action could be aimed at from where its user stands. */
        int t = x->target;
        if (t < 0 || !x->a || x->a->shape != SHAPE_SINGLE) return false;
        if (hex_distance(act_pos(b, r), act_pos(b, t)) > a->range) return false;
        if (!act_grapple_allows(b, u, x->a, r)) return false;
        act_odds_t o;
        act_odds(b, u, x->a, r, &o);
        return o.legal && !o.fails;
    }
    if (!act_grapple_allows(b, r, a, a->shape == SHAPE_SINGLE ? u : -1)) return false;
    if (a->shape != SHAPE_SINGLE) return act_area_aim_ok(b, r, a, act_pos(b, u));
    act_odds_t o;
    act_odds(b, r, a, u, &o);
    return o.legal && !o.fails;
}

/* Every answer r has to x in window win; returns the count. */
static int options(const battle_t *b, act_window_t win, const act_trigger_t *x, int r,
                   option_t *out)
{
    const act_state_t *s = act_cst(b);
    int n = 0;
    for (int w = 0; w < b->u[r].n_weapons && n < OPT_MAX; w++) {
        option_t o = {.slot = w};
        if (!act_action(b, r, w, &o.a) || o.a.interrupt <= 0) continue;
        if (!meets(b, win, x, r, o.a.trigger, &o.a) || !usable(b, r, &o.a, x)) continue;
        o.level = o.a.interrupt;
        out[n++] = o;
    }
    if (s->held[r] && n < OPT_MAX) {
        option_t o = {.slot = s->held_slot[r], .held = true};
        if (act_action(b, r, o.slot, &o.a) && (s->held_target[r] < 0 || s->held_target[r] == x->user) &&
            meets(b, win, x, r, s->held_trigger[r], &o.a)) {
            o.a.cost = 2; /* A8: a held action fires as [Interrupt 1] and owes the activation */
            o.a.interrupt = o.level = 1;
            if (usable(b, r, &o.a, x)) out[n++] = o;
        }
    }
    return n;
}

int act_offer(battle_t *b, int r, const char *kind, int trigger, int n, const char *const *labels,
              int ai_pick)
{
    act_state_t *s = act_st(b);
    if (n <= 1) return 0;
    s->offer_reactor = r;
    s->offer_pick = ai_pick > 0 && ai_pick < n ? ai_pick : 0;
    int pick = battle_ask_choice(b, r, kind, trigger, n, labels); /* G4: the table or act_react */
    s->offer_reactor = -1;
    return pick;
}

/* The order reactors answer in (A5): the highest interrupt level first, then
 * the lowest Base AV, then map order. */
typedef struct {
    int who, level;
} cand_t;

static bool before(const act_state_t *s, cand_t p, cand_t q)
{
    if (p.level != q.level) return p.level > q.level;
    if (s->base[p.who] != s->base[q.who]) return s->base[p.who] < s->base[q.who];
    return p.who < q.who;
}

/* r answers x with option o. */
static void answer(battle_t *b, int r, const option_t *o, act_trigger_t *x, int depth)
{
    act_state_t *s = act_st(b);
    s->debt[r] = (unsigned char)(s->debt[r] + o->a.cost); /* A4 */
    if (o->held) s->held[r] = 0;
    event_t e = event_make(EV_REACTION);
    e.who = r;
    e.target = x->user;
    hb_strlcpy(e.name, o->a.intercept ? "intercept" : o->held ? "hold" : "interrupt", sizeof e.name);
    battle_emit(b, &e);
    if (o->a.intercept) {
        act_pay_pp(b, r, &o->a);
        battle_emit_action(b, r, o->a.w->id, x->target, true);
        x->target = r; /* A-R3: the attack goes on against the new target */
        return;
    }
    cell_t aim = hex_to_cell(b->map->layout, act_pos(b, x->user));
    act_use(b, r, o->slot, o->a.shape == SHAPE_SINGLE ? x->user : -1, aim, depth + 1);
    if (battle_active(b, r) && !battle_active(b, x->user)) x->cancelled = true;
}

/* The bit of option o in a reactor's mask of options already put to it. */
_Static_assert(MAP_MAX_WEAPONS < 31, "option bits: one per weapon slot, and the held action");
static unsigned option_bit(const option_t *o)
{
    return o->held ? 1u << 31 : 1u << o->slot;
}

/* r's options in window win not yet put to it (mask `asked`); the count. */
static int fresh_options(const battle_t *b, act_window_t win, const act_trigger_t *x, int r,
                         unsigned asked, option_t *out)
{
    option_t all[OPT_MAX];
    int n = options(b, win, x, r, all), m = 0;
    for (int k = 0; k < n; k++)
        if (!(asked & option_bit(&all[k]))) out[m++] = all[k];
    return m;
}

void act_window(battle_t *b, act_window_t win, act_trigger_t *x, int depth)
{
    const act_state_t *s = act_cst(b);
    if (depth >= ACT_DEPTH_MAX || act_stopped(b) || !battle_active(b, x->user)) return;
    /* A-X2: a reactor may answer with any number of its effects, each once.
     * Every option put to a reactor (taken or let pass) is marked; after each
     * answer the order is drawn up again, since the answer may have met new
     * triggers (a Guard that took the blow is now its target) or taken
     * others away (A-X3). Each pass puts at least one fresh option, so the
     * window closes. */
    unsigned asked[ACT_NMAX] = {0};
    option_t opt[OPT_MAX];
    for (;;) {
        cand_t c[ACT_NMAX];
        int nc = 0;
        for (int r = 0; r < b->n; r++) {
            if (!battle_active(b, r) || r == x->user || !act_enemies(b, r, x->user)) continue;
            int n = fresh_options(b, win, x, r, asked[r], opt);
            if (n == 0) continue;
            int level = 0;
            for (int k = 0; k < n; k++)
                if (opt[k].level > level) level = opt[k].level;
            cand_t v = {r, level};
            int j = nc++;
            while (j > 0 && before(s, v, c[j - 1])) {
                c[j] = c[j - 1];
                j--;
            }
            c[j] = v;
        }
        bool answered = false;
        for (int k = 0; k < nc && !answered; k++) {
            if (act_stopped(b) || !battle_active(b, x->user) || x->cancelled) return;
            int r = c[k].who;
            if (!battle_active(b, r)) continue;
            /* A-X3: what answered before may have taken this trigger away. */
            int n = fresh_options(b, win, x, r, asked[r], opt);
            if (n == 0) continue;
            const act_action_t *acts[OPT_MAX];
            const char *labels[OPT_MAX + 1];
            labels[0] = "pass";
            for (int q = 0; q < n; q++) {
                acts[q] = &opt[q].a;
                labels[q + 1] = opt[q].a.w->name;
                asked[r] |= option_bit(&opt[q]);
            }
            int pick = act_offer(b, r, opt[0].held && n == 1 ? "hold" : "interrupt", x->user, n + 1,
                                 labels, act_ai_react(b, r, x, n, acts));
            if (pick <= 0 || pick > n || act_stopped(b)) continue;
            answer(b, r, &opt[pick - 1], x, depth);
            answered = true;
        }
        if (!answered) return;
    }
}

void act_hold_lost(battle_t *b, int i)
{
    act_state_t *s = act_st(b);
    if (!s->held[i]) return;
    s->held[i] = 0;
    /* Named for what happened, not as the held action: it never failed, it
     * lapsed (the `declare` that held it named it). */
    battle_emit_action(b, i, "hold_lost", -1, true);
}

/* The AI's side in a Co-Grapple (0 pass, 1 the user's, 2 the target's): it
 * joins an ally when it has a [Grapple] attack to fight with inside. */
static int cograpple_pick(const battle_t *b, int r, int user, int target)
{
    bool armed = false;
    for (int w = 0; w < b->u[r].n_weapons && !armed; w++) {
        act_action_t a;
        armed = act_action(b, r, w, &a) && a.grapple && !a.grab && a.category != CAT_STATUS;
    }
    if (!armed) return 0;
    if (board_allies(b->board, r, user)) return 1;
    if (board_allies(b->board, r, target)) return 2;
    return 0;
}

void act_offer_cograpple(battle_t *b, int user, int target)
{
    const act_state_t *s = act_cst(b);
    int ctl = s->gctl[user] - 1;
    if (ctl < 0) return;
    /* Other triggered effects answer in current AV order (A5). */
    int c[ACT_NMAX], nc = 0;
    for (int r = 0; r < b->n; r++) {
        if (!battle_active(b, r) || r == user || r == target || act_in_grapple(b, r)) continue;
        int reach = act_reach(b, r);
        if (hex_distance(act_pos(b, r), act_pos(b, user)) > reach ||
            hex_distance(act_pos(b, r), act_pos(b, target)) > reach)
            continue;
        int j = nc++;
        int av = s->next[r] - s->clock;
        while (j > 0 && (s->next[c[j - 1]] - s->clock > av)) {
            c[j] = c[j - 1];
            j--;
        }
        c[j] = r;
    }
    for (int k = 0; k < nc && !act_stopped(b); k++) {
        int r = c[k];
        if (!battle_active(b, user) || !battle_active(b, target) || !act_same_grapple(b, user, target))
            return;
        char l1[EV_NAME_MAX], l2[EV_NAME_MAX];
        snprintf(l1, sizeof l1, "join %.40s", b->map->combatants[user].name);
        snprintf(l2, sizeof l2, "join %.40s", b->map->combatants[target].name);
        const char *labels[3] = {"pass", l1, l2};
        int pick = act_offer(b, r, "co_grapple", user, 3, labels, cograpple_pick(b, r, user, target));
        if (pick <= 0 || act_stopped(b)) continue;
        int with = pick == 1 ? user : target;
        event_t e = event_make(EV_REACTION);
        e.who = r;
        e.target = with;
        hb_strlcpy(e.name, "co_grapple", sizeof e.name);
        battle_emit(b, &e);
        act_join_grapple(b, r, s->gctl[with] - 1, s->gside[with]);
    }
}
