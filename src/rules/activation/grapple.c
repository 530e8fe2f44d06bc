/* grapple.c - grapples by weight class (A-G1..A-G7, A20-A24): Grab's Lift
 * check, who controls, Bound, carrying the others with the mount penalty,
 * Co-Grapple sides, Struggle Free and Release. See docs/rules-activation.md. */
#include <stdio.h>

#include "act.h"

static int wc(const battle_t *b, int i)
{
    int v = b->u[i].stat[AS_WC];
    return v > 0 ? v : 1;
}

static int lift(const battle_t *b, int i)
{
    int v = b->u[i].stat[AS_LIFT];
    return v > 0 ? v : 10 * wc(b, i); /* A25 */
}

bool act_in_grapple(const battle_t *b, int i) { return act_cst(b)->gctl[i] != 0; }

bool act_controls(const battle_t *b, int i) { return act_cst(b)->gctl[i] == i + 1; }

bool act_same_grapple(const battle_t *b, int i, int j)
{
    const act_state_t *s = act_cst(b);
    return s->gctl[i] != 0 && s->gctl[i] == s->gctl[j];
}

int act_side_wc(const battle_t *b, int i)
{
    const act_state_t *s = act_cst(b);
    if (!s->gctl[i]) return wc(b, i);
    int sum = 0;
    for (int k = 0; k < b->n; k++)
        if (s->gctl[k] == s->gctl[i] && s->gside[k] == s->gside[i] && battle_active(b, k))
            sum += wc(b, k);
    return sum;
}

int act_lift_mod(int mine, int theirs)
{
    int d = mine - theirs;
    /* Halved, rounded up when positive and down when negative (the text). */
    return d > 0 ? (d + 1) / 2 : d < 0 ? -((-d + 1) / 2) : 0;
}

int act_carry_penalty(const battle_t *b, int ctl)
{
    const act_state_t *s = act_cst(b);
    int riders = 0;
    for (int k = 0; k < b->n; k++)
        if (k != ctl && s->gctl[k] == ctl + 1 && battle_active(b, k)) riders += wc(b, k);
    int p = riders - wc(b, ctl) - lift(b, ctl) / 10; /* A21 */
    return p > 0 ? p : 0;
}

/* A Lift check (A20): d20 + M, where 11 or more succeeds. */
static bool lift_check(battle_t *b, int who, int m, int against, const char *what)
{
    char why[DICE_WHY_MAX];
    snprintf(why, sizeof why, "%.14s on %.29s", what, b->map->combatants[against].id);
    roll_spec_t spec = roll_plain(1, 20, 0, m);
    spec.goal = ROLL_GOAL_AT_LEAST;
    spec.target = ACT_LIFT_GOAL;
    event_t e;
    battle_roll_spec(b, who, &spec, why, &e);
    return e.successes > 0;
}

static void set_member(battle_t *b, int i, int ctl, int side)
{
    act_state_t *s = act_st(b);
    s->gctl[i] = (short)(ctl + 1);
    s->gside[i] = (unsigned char)side;
    s->gseq[i] = ++s->gnext;
    act_set_cond(b, i, AC_GRAPPLED, "grappled", true);
    if (i != ctl) act_set_cond(b, i, AC_BOUND, "bound", true); /* A23 */
}

static void clear_member(battle_t *b, int i)
{
    act_state_t *s = act_st(b);
    s->gctl[i] = 0;
    s->gside[i] = 0;
    s->gseq[i] = 0;
    act_set_cond(b, i, AC_BOUND, "bound", false);
    act_set_cond(b, i, AC_GRAPPLED, "grappled", false);
}

void act_grab_effect(battle_t *b, int user, int t)
{
    if (!battle_active(b, user) || !battle_active(b, t) || act_in_grapple(b, t)) return;
    /* A20, A-G6: the grabber's side (its co-grapplers too) against the target. */
    int m = act_lift_mod(act_side_wc(b, user), wc(b, t));
    bool ok = lift_check(b, user, m, t, "lift check");
    if (act_stopped(b)) return;
    battle_emit_action(b, user, "grapple", t, ok);
    if (!ok) return;
    const act_state_t *s = act_cst(b);
    if (!act_in_grapple(b, user)) {
        set_member(b, user, user, 0);
        set_member(b, t, user, 1);
    } else {
        /* A23: a grappled grabber draws the outsider into its own grapple,
         * Bound, on the side opposite its own. */
        set_member(b, t, s->gctl[user] - 1, 1 - s->gside[user]);
    }
    act_offer_cograpple(b, user, t); /* A24 */
}

void act_join_grapple(battle_t *b, int i, int ctl, int side) { set_member(b, i, ctl, side); }

void act_release(battle_t *b, int ctl)
{
    act_state_t *s = act_st(b);
    battle_emit_action(b, ctl, "release", -1, true);
    for (int k = 0; k < b->n; k++)
        if (k != ctl && s->gctl[k] == ctl + 1) clear_member(b, k);
    clear_member(b, ctl);
}

void act_leave_grapple(battle_t *b, int i)
{
    act_state_t *s = act_st(b);
    int ctl = s->gctl[i] - 1;
    if (ctl < 0) return;
    if (ctl == i) {
        act_release(b, i);
        return;
    }
    clear_member(b, i);
    /* With nobody left on the far side, the hold is over. */
    for (int k = 0; k < b->n; k++)
        if (s->gctl[k] == ctl + 1 && s->gside[k] == 1 && battle_active(b, k) && k != i) return;
    act_release(b, ctl);
}

/* Whom i struggles against: the controller, or for one Bound on the
 * controller's side (a grappled grabber drew it in, A23) the first member
 * on the other side; -1 for none. */
static int opponent(const battle_t *b, int i)
{
    const act_state_t *s = act_cst(b);
    int ctl = s->gctl[i] - 1;
    if (ctl < 0 || s->gside[i] != s->gside[ctl]) return ctl;
    for (int k = 0; k < b->n; k++)
        if (s->gctl[k] == ctl + 1 && s->gside[k] != s->gside[i] && battle_active(b, k)) return k;
    return -1;
}

void act_struggle_free(battle_t *b, int i)
{
    const act_state_t *s = act_cst(b);
    int ctl = s->gctl[i] - 1;
    if (ctl < 0 || ctl == i) return;
    int opp = opponent(b, i);
    if (opp < 0) return;
    /* A22: the Lift check the other way round, side against side. */
    int m = act_lift_mod(act_side_wc(b, i), act_side_wc(b, opp));
    bool ok = lift_check(b, i, m, opp, "struggle free");
    if (act_stopped(b)) return;
    battle_emit_action(b, i, "struggle_free", opp, ok);
    if (ok) act_leave_grapple(b, i);
    /* A24: Struggle Free is a [Grapple] action too; after a failed one the
     * grapple stands, and others may join it. */
    act_offer_cograpple(b, i, opp);
}

void act_carry(battle_t *b, int ctl, hex_t h0)
{
    const act_state_t *s = act_cst(b);
    /* The carried follow in the order they joined, each into the hex the
     * one ahead of it left, while that hex is free. */
    int order[ACT_NMAX], n = 0;
    for (int k = 0; k < b->n; k++) {
        if (k == ctl || s->gctl[k] != ctl + 1 || !battle_active(b, k)) continue;
        int j = n++;
        while (j > 0 && s->gseq[order[j - 1]] > s->gseq[k]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    hex_t prev = h0;
    for (int q = 0; q < n; q++) {
        int k = order[q];
        if (board_occupant(b->board, prev) >= 0) break;
        hex_t old = act_pos(b, k);
        battle_step(b, k, prev);
        event_t *e = b->log.n > 0 ? &b->log.ev[b->log.n - 1] : NULL;
        if (e && e->type == EV_MOVE_STEP && e->who == k)
            hb_strlcpy(e->name, "carried", sizeof e->name); /* the step's mode */
        prev = old;
    }
}
