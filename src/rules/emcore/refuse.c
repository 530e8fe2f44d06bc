/* refuse.c - why an emcore combatant's Aim or Evade is not on offer in its
 * slot now (ruleset_t.refused), so the action bar greys it with the points
 * it costs and the points left instead of dropping it: aiming a ranged
 * weapon takes the whole Movement less one, evading half of it (E5, E16).
 */
#include <stdio.h>

#include "emcore.h"

int em_refused(const battle_t *b, int a, refusal_t *out, int cap)
{
    const em_state_t *s = em_cst(b);
    if (b->over || a < 0 || a >= b->n || !battle_active(b, a) || s->phase == EP_IMMEDIATE ||
        s->phase == EP_COMMITMENT || !em_is_slot(b, a) || (b->u[a].cond & EC_PRONE))
        return 0;
    int n = 0, pts = s->points[a];
    int aim = em_full_less_one(b, a), evade = em_half_cost(b, a);
    for (int w = 0; w < b->u[a].n_weapons && n < cap && !s->commit[a]; w++) {
        if (!em_is_ranged(battle_weapon(b, a, w)) || pts >= aim) continue;
        out[n].cmd = cmd_make(CMD_COMMIT, a);
        out[n].cmd.weapon = w;
        snprintf(out[n].why, sizeof out[n].why, "needs %d points, %d left", aim, pts);
        n++;
    }
    if (n < cap && pts < evade && !(b->u[a].cond & EC_EVADING)) {
        out[n].cmd = cmd_make(CMD_EVADE, a);
        snprintf(out[n].why, sizeof out[n].why, "needs %d points, %d left", evade, pts);
        n++;
    }
    return n;
}
