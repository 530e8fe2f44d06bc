/* refuse.c - why an emcore combatant's Aim or Evade is not on offer in its
 * slot now (ruleset_t.refused), so the action bar greys it with its reason
 * instead of dropping it: aiming a ranged weapon takes the whole Movement
 * less one, evading half of it (E5, E16), and after an Immediate or a
 * Committed action the spare point buys only a step or a minor action (E3).
 */
#include <stdio.h>

#include "emcore.h"

/* Why what i has done this turn rules out an aim (commit) or an Evasion;
 * NULL when nothing does. When the points are short as well, that is the
 * reason given (the one the table meets most often). */
static const char *spent_why(const battle_t *b, int i, bool commit)
{
    unsigned d = em_cst(b)->deeds[i];
    if (d & ED_IMMEDIATE)
        return "fought this turn: a step or a minor action only";
    if (d & ED_COMMIT)
        return "aimed this turn: a step or a minor action only";
    if (commit && (d & ED_MAJOR))
        return "moved or evaded this turn: more than a step before the aim";
    return NULL;
}

int em_refused(const battle_t *b, int a, refusal_t *out, int cap)
{
    const em_state_t *s = em_cst(b);
    if (b->over || a < 0 || a >= b->n || !battle_active(b, a) || s->phase == EP_IMMEDIATE ||
        s->phase == EP_COMMITMENT || !em_is_slot(b, a) || (b->u[a].cond & EC_PRONE))
        return 0;
    int n = 0, pts = s->points[a];
    int aim = em_full_less_one(b, a), evade = em_half_cost(b, a);
    const char *no_aim = spent_why(b, a, true), *no_evade = spent_why(b, a, false);
    for (int w = 0; w < b->u[a].n_weapons && n < cap && !s->commit[a]; w++) {
        if (!em_is_ranged(battle_weapon(b, a, w)) || (pts >= aim && !no_aim)) continue;
        out[n].cmd = cmd_make(CMD_COMMIT, a);
        out[n].cmd.weapon = w;
        if (pts < aim)
            snprintf(out[n].why, sizeof out[n].why, "needs %d points, %d left", aim, pts);
        else
            snprintf(out[n].why, sizeof out[n].why, "%s", no_aim);
        n++;
    }
    if (n < cap && (pts < evade || no_evade) && !(b->u[a].cond & EC_EVADING)) {
        out[n].cmd = cmd_make(CMD_EVADE, a);
        if (pts < evade)
            snprintf(out[n].why, sizeof out[n].why, "needs %d points, %d left", evade, pts);
        else
            snprintf(out[n].why, sizeof out[n].why, "%s", no_evade);
        n++;
    }
    return n;
}
