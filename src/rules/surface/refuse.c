/* refuse.c - why a surface combatant's move or weapon in hand cannot be
 * used now (ruleset_t.refused), so the action bar greys it with the reason
 * instead of dropping it: a sprint or flee with one action left (S-A3), a
 * move after a non-Assault shot or such a shot after a move (S-R10, S9),
 * the turn's one attack spent (S-A4), a Heavy weapon that needs two
 * actions with one left (S-A5, S10), a weapon that is not Handheld while
 * in melee (S-M4, S-R4).
 */
#include <stdio.h>

#include "surface.h"

int sf_refused(const battle_t *b, int a, refusal_t *out, int cap)
{
    if (a < 0 || a >= b->n || !sf_may_act(b, a)) return 0;
    const sf_unit_t *u = &sf_cst(b)->u[a];
    int n = 0;
    /* A move mode that would be open but for the actions it costs, or for
     * a shot already fired from where it stands (S9). */
    bool melee = sf_in_melee(b, a);
    for (int m = 0; m < SF_MODE_COUNT && n < cap; m++) {
        bool fits = (m == SF_MOVE || m == SF_SPRINT) ? !melee : melee;
        if (!fits || sf_er_ft(b, a) <= 0 || sf_mode_open(b, a, m)) continue;
        refusal_t *r = &out[n];
        if (u->fired_still)
            snprintf(r->why, sizeof r->why, "no move after firing (not Assault)");
        else if (sf_mode_actions(m) > u->left)
            snprintf(r->why, sizeof r->why, "needs %d actions, %d left", sf_mode_actions(m), u->left);
        else
            continue;
        r->cmd = cmd_make(CMD_MOVE, a);
        r->cmd.arg = m;
        n++;
    }
    for (int w = 0; w < b->u[a].n_weapons && n < cap; w++) {
        if (!sf_ready(b, a, w)) continue; /* not in hand: the switch offers it */
        const weapon_t *wp = b->u[a].weapon[w];
        if (!wp) continue;
        refusal_t *r = &out[n];
        int need = sf_fire_actions(b, a, wp);
        if (u->attacked)
            snprintf(r->why, sizeof r->why, "one attack a turn, made already");
        else if (wp->cls != WPN_MELEE && u->moved && battle_weapon_tag(wp, "assault") <= 0)
            snprintf(r->why, sizeof r->why, "cannot fire after a move (not Assault)");
        else if (wp->cls != WPN_MELEE && melee && battle_weapon_tag(wp, "handheld") <= 0)
            snprintf(r->why, sizeof r->why, "in melee: only Handheld weapons fire");
        else if (need > u->left)
            snprintf(r->why, sizeof r->why, "needs %d actions, %d left", need, u->left);
        else
            continue;
        r->cmd = cmd_make(CMD_ENGAGE, a);
        r->cmd.weapon = w;
        n++;
    }
    return n;
}
