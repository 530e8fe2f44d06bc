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
    int subj;        /* whom it answers: the foe it strikes (or Guard: the attacker) */
} option_t;

/* Is trigger trig a deed of r's ally (else of r's foe)? */
static bool ally_deed(int trig) { return trig == TRIG_ALLY_HITS || trig == TRIG_ALLY_TARGETS; }

/* The first combatant x's action targets that is r's foe, -1 for none. */
static int foe_targeted(const battle_t *b, const act_trigger_t *x, int r)
{
    if (!x->area) return x->target >= 0 && act_enemies(b, r, x->target) ? x->target : -1;
    for (int k = 0; k < b->n; k++)
        if (x->tgt[k] && battle_active(b, k) && act_enemies(b, r, k)) return k;
    return -1;
}

/* Does x target an ally of r (not r)? For an area, the first such ally
 * within `range` hexes of r when range >= 0. */
static int ally_targeted(const battle_t *b, const act_trigger_t *x, int r, int range)
{
    for (int k = 0; k < b->n; k++)
        if (k != r && act_targets(x, k) && battle_active(b, k) && board_allies(b->board, r, k) &&
            (range < 0 || hex_distance(act_pos(b, r), act_pos(b, k)) <= range))
            return k;
    return -1;
}

/* Does trigger `trig` of r's action a meet window win of x? Then *subj is
 * whom r's answer goes at: the foe whose deed it is, or for an ally's deed
 * the foe the ally hit or aimed at. */
static bool meets(const battle_t *b, act_window_t win, const act_trigger_t *x, int r, int trig,
                  const act_action_t *a, int *subj)
{
    int u = x->user;
    *subj = u;
    if (a->trigger_contact && (!x->a || !x->a->contact)) return false;
    /* The deeds of the vocabulary are a foe's; the two ally triggers an
     * ally's (the text: windows are open to "any other combatant"). */
    if (ally_deed(trig) ? (u == r || !board_allies(b->board, r, u)) : !act_enemies(b, r, u))
        return false;
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
        return win == WIN_DECLARE && act_targets(x, r);
    case TRIG_TARGETS_ALLY:
        return win == WIN_DECLARE && ally_targeted(b, x, r, -1) >= 0;
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
    case TRIG_ALLY_HITS:
        *subj = x->hit;
        return win == WIN_HIT && x->hit >= 0 && act_enemies(b, r, x->hit);
    case TRIG_ALLY_TARGETS:
        *subj = foe_targeted(b, x, r);
        return win == WIN_DECLARE && damaging && *subj >= 0;
    default:
        return false;
    }
}

/* Can r answer x with action a at subj right now (paid from its next
 * activation)? */
static bool usable(const battle_t *b, int r, const act_action_t *a, const act_trigger_t *x, int subj)
{
    if (!act_affordable(b, r, a, false)) return false;
    int u = x->user;
    /* A-G2: a grappled reactor may take only [Grapple] actions, Guard too. */
    if (act_has(b, r, AC_GRAPPLED) && !a->grapple) return false;
    if (a->intercept) {
        /* Guard: the ally must be within its range, and the guard itself a
         * target the action could be aimed at from where its user stands.
         * An area caught the ally: Guard takes its place among the targets. */
        int t = x->area ? ally_targeted(b, x, r, a->range) : x->target;
        if (t < 0 || !x->a) return false;
        if (hex_distance(act_pos(b, r), act_pos(b, t)) > a->range) return false;
        if (!act_grapple_allows(b, u, x->a, x->area ? -1 : r)) return false;
        if (x->area) return true;
        act_odds_t o;
        act_odds(b, u, x->a, r, &o);
        return o.legal && !o.fails;
    }
    if (subj < 0 || !battle_active(b, subj)) return false;
    if (!act_grapple_allows(b, r, a, a->shape == SHAPE_SINGLE ? subj : -1)) return false;
    if (a->shape != SHAPE_SINGLE) return act_area_aim_ok(b, r, a, act_pos(b, subj));
    act_odds_t o;
    act_odds(b, r, a, subj, &o);
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
        if (!meets(b, win, x, r, o.a.trigger, &o.a, &o.subj) || !usable(b, r, &o.a, x, o.subj))
            continue;
        o.level = o.a.interrupt;
        out[n++] = o;
    }
    if (s->held[r] && n < OPT_MAX) {
        option_t o = {.slot = s->held_slot[r], .held = true};
        if (act_action(b, r, o.slot, &o.a) && meets(b, win, x, r, s->held_trigger[r], &o.a, &o.subj) &&
            (s->held_target[r] < 0 || s->held_target[r] == o.subj)) {
            o.a.cost = 2; /* A8: a held action fires as [Interrupt 1] and owes the activation */
            o.a.interrupt = o.level = 1;
            if (usable(b, r, &o.a, x, o.subj)) out[n++] = o;
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

/* An answer declared in a window, waiting to resolve: who, with what, and
 * at which interrupt level. */
typedef struct {
    short who, slot;
    unsigned char held, level;
} decl_t;

/* The order declared answers resolve in (A5): the highest interrupt level
 * first, then the lowest Base AV, then map order. Reactors are asked in the
 * same order, by the highest level among their options. */
static bool before(const act_state_t *s, int p, int plevel, int q, int qlevel)
{
    if (plevel != qlevel) return plevel > qlevel;
    if (s->base[p] != s->base[q]) return s->base[p] < s->base[q];
    return p < q;
}

/* Option o's words: the action and its interrupt level (the reactions
 * prompt shows them, G4). */
static void option_label(const option_t *o, char *out, size_t cap)
{
    const char *an = o->a.w->name[0] ? o->a.w->name : o->a.w->id;
    char whole[64];
    snprintf(whole, sizeof whole, "%.20s%s [Interrupt %d]", an, o->held ? " (held)" : "", o->level);
    hb_strlcpy(out, whole, cap);
}

/* r answers x with option o. */
static void answer(battle_t *b, int r, const option_t *o, act_trigger_t *x, int depth)
{
    act_state_t *s = act_st(b);
    s->debt[r] = (unsigned char)(s->debt[r] + o->a.cost); /* A4 */
    if (o->held) s->held[r] = 0;
    event_t e = event_make(EV_REACTION);
    e.who = r;
    e.target = o->a.intercept ? x->user : o->subj;
    hb_strlcpy(e.name, o->a.intercept ? "intercept" : o->held ? "hold" : "interrupt", sizeof e.name);
    battle_emit(b, &e);
    if (o->a.intercept) {
        act_pay_pp(b, r, &o->a);
        if (x->area) {
            /* A-R3 on an area: the guard takes the ally's place among its targets. */
            int t = ally_targeted(b, x, r, o->a.range);
            battle_emit_action(b, r, o->a.w->id, t, true);
            if (t >= 0) x->tgt[t] = 0;
            x->tgt[r] = 1;
            return;
        }
        battle_emit_action(b, r, o->a.w->id, x->target, true);
        x->target = r; /* A-R3: the attack goes on against the new target */
        return;
    }
    cell_t aim = hex_to_cell(b->map->layout, act_pos(b, o->subj));
    act_use(b, r, o->slot, o->a.shape == SHAPE_SINGLE ? o->subj : -1, aim, depth + 1);
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

/* r's option that declaration d named, if its trigger still holds (A-X3). */
static bool still_met(const battle_t *b, act_window_t win, const act_trigger_t *x, const decl_t *d,
                      option_t *out)
{
    option_t all[OPT_MAX];
    int n = options(b, win, x, d->who, all);
    for (int k = 0; k < n; k++)
        if (all[k].held == (d->held != 0) && all[k].slot == d->slot) {
            *out = all[k];
            return true;
        }
    return false;
}

void act_window(battle_t *b, act_window_t win, act_trigger_t *x, int depth)
{
    const act_state_t *s = act_cst(b);
    if (depth >= ACT_DEPTH_MAX || act_stopped(b) || !battle_active(b, x->user)) return;
    /* A5: every reactor whose trigger the moment meets declares its answer
     * (or lets it pass) first; then the answers resolve by the interrupt
     * level each declared (a held action is [Interrupt 1] even when its
     * holder also has a Counter), then Base AV. Each answer is checked again
     * when its turn comes, since an earlier one may have taken its trigger
     * away (A-X3).
     * A-X2: a reactor may answer with any number of its effects, each once.
     * Every option put to a reactor (taken or let pass) is marked; once the
     * declared answers have resolved, the moment is looked at again, since
     * they may have met new triggers (a Guard that took the blow is now its
     * target), and anyone with an option not yet put to it declares anew.
     * Each pass puts at least one fresh option, so the window closes. */
    unsigned asked[ACT_NMAX] = {0};
    option_t opt[OPT_MAX];
    for (;;) {
        int c[ACT_NMAX], clevel[ACT_NMAX], nc = 0;
        for (int r = 0; r < b->n; r++) {
            if (!battle_active(b, r) || r == x->user) continue;
            int n = fresh_options(b, win, x, r, asked[r], opt);
            if (n == 0) continue;
            int level = 0;
            for (int k = 0; k < n; k++)
                if (opt[k].level > level) level = opt[k].level;
            int j = nc++;
            while (j > 0 && before(s, r, level, c[j - 1], clevel[j - 1])) {
                c[j] = c[j - 1];
                clevel[j] = clevel[j - 1];
                j--;
            }
            c[j] = r;
            clevel[j] = level;
        }
        /* Declarations, kept in the order they will resolve. */
        decl_t d[ACT_NMAX];
        int nd = 0;
        for (int k = 0; k < nc; k++) {
            int r = c[k];
            int n = fresh_options(b, win, x, r, asked[r], opt);
            if (n == 0) continue;
            const act_action_t *acts[OPT_MAX];
            int subj[OPT_MAX];
            char words[OPT_MAX][REACT_LABEL_MAX];
            const char *labels[OPT_MAX + 1];
            labels[0] = "pass";
            for (int q = 0; q < n; q++) {
                acts[q] = &opt[q].a;
                subj[q] = opt[q].subj;
                option_label(&opt[q], words[q], sizeof words[q]);
                labels[q + 1] = words[q];
                asked[r] |= option_bit(&opt[q]);
            }
            int pick = act_offer(b, r, opt[0].held && n == 1 ? "hold" : "interrupt",
                                 opt[0].subj >= 0 ? opt[0].subj : x->user, n + 1, labels,
                                 act_ai_react(b, r, x, n, acts, subj));
            if (act_stopped(b)) {
                /* The table is asked: show it what is declared already. */
                for (int q = 0; q < nd; q++) {
                    act_action_t a;
                    option_t shown = {.slot = d[q].slot, .held = d[q].held, .level = d[q].level};
                    if (!act_action(b, d[q].who, d[q].slot, &a)) continue;
                    shown.a = a;
                    char w[REACT_LABEL_MAX];
                    option_label(&shown, w, sizeof w);
                    battle_ask_order(b, d[q].who, w);
                }
                return;
            }
            if (pick <= 0 || pick > n) continue;
            decl_t v = {(short)r, (short)opt[pick - 1].slot, opt[pick - 1].held,
                        (unsigned char)opt[pick - 1].level};
            int j = nd++;
            while (j > 0 && before(s, r, v.level, d[j - 1].who, d[j - 1].level)) {
                d[j] = d[j - 1];
                j--;
            }
            d[j] = v;
        }
        if (nd == 0) return;
        for (int k = 0; k < nd; k++) {
            if (act_stopped(b) || !battle_active(b, x->user) || x->cancelled) return;
            option_t o;
            if (!battle_active(b, d[k].who) || !still_met(b, win, x, &d[k], &o)) continue;
            answer(b, d[k].who, &o, x, depth);
        }
        if (act_stopped(b) || !battle_active(b, x->user) || x->cancelled) return;
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
