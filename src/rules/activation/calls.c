/* calls.c - activation: the referee's override of hit and critical (A27).
 *
 * The text lets the referee overrule the dice on whether an attack hits and
 * whether it is critical. Here that is a call (CMD_OVERRIDE) like the other
 * referee's calls: a command in the battle's list, made about any combatant
 * whoever's activation it is, so undo, saves and replays keep it. The
 * ruling waits for the combatant's next action that rolls accuracy (its own
 * or an interrupt), stands in for the accuracy d100 (and the critical d100
 * when it says so) on every target of that action, then clears.
 * docs/rules-activation.md, "The referee's override".
 */
#include <stdio.h>

#include "act.h"

/* Event names of the rulings, by cmd_override_t. */
static const char *const RULING[OVERRIDE_COUNT] = {
    [OVERRIDE_NONE] = "override_cleared", [OVERRIDE_MISS] = "override_miss",
    [OVERRIDE_HIT] = "override_hit",      [OVERRIDE_CRIT] = "override_crit",
    [OVERRIDE_NO_CRIT] = "override_no_crit",
};

/* What each ruling says in the list of calls. */
static const char *const LABEL[OVERRIDE_COUNT] = {
    [OVERRIDE_NONE] = "the dice decide its next attack again",
    [OVERRIDE_MISS] = "its next attack misses",
    [OVERRIDE_HIT] = "its next attack hits (critical rolled)",
    [OVERRIDE_CRIT] = "its next attack is a critical hit",
    [OVERRIDE_NO_CRIT] = "its next attack hits, not critically",
};

battle_status_t act_apply_call(battle_t *b, const cmd_t *c)
{
    act_state_t *s = act_st(b);
    int a = c->actor;
    if (b->over || a < 0 || a >= b->n || !battle_active(b, a)) return BATTLE_ILLEGAL;
    if (c->kind != CMD_OVERRIDE || c->arg < 0 || c->arg >= OVERRIDE_COUNT) return BATTLE_ILLEGAL;
    s->ovr[a] = (unsigned char)c->arg;
    s->ovr_used[a] = 0;
    battle_emit_action(b, a, RULING[c->arg], -1, true);
    return BATTLE_OK;
}

int act_calls(battle_t *b, int who, ref_call_t *out, int cap)
{
    if (b->over || who < 0 || who >= b->n || !battle_active(b, who)) return 0;
    const map_combatant_t *mc = &b->map->combatants[who];
    const char *name = mc->name[0] ? mc->name : mc->id;
    int now = act_cst(b)->ovr[who], n = 0;
    /* The rulings first; "the dice decide" only when a ruling waits. */
    for (int k = 1; k <= OVERRIDE_COUNT; k++) {
        int r = k % OVERRIDE_COUNT;
        if (r == now) continue;
        if (n < cap) {
            out[n].cmd = cmd_make(CMD_OVERRIDE, who);
            out[n].cmd.arg = r;
            snprintf(out[n].label, sizeof out[n].label, "%.40s: %s", name, LABEL[r]);
        }
        n++;
    }
    return n;
}
