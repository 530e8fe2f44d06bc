/* timeline.c - the action-value timeline (A2-A4): Base AV from SPD, the
 * lowest AV acts, rounds as the clock passes each thousand ticks, Priority
 * bringing the next activation closer, and the simple actions interrupts owe.
 *
 * Times are absolute ticks: the AV of combatant i is next[i] - clock, so
 * "everyone's AV drops by the time that passed" is the clock moving on. */
#include "act.h"

int act_base_av(const battle_t *b, int i)
{
    int spd = b->u[i].stat[AS_SPD];
    return ACT_AV_NUM / (spd > 0 ? spd : 1);
}

/* Does i come before j at the same moment? Lower time, then lower Base AV,
 * then map order (A2). */
static bool sooner(const act_state_t *s, const int *when, int i, int j)
{
    if (when[i] != when[j]) return when[i] < when[j];
    if (s->base[i] != s->base[j]) return s->base[i] < s->base[j];
    return i < j;
}

/* AV the current actor will have once its activation ends (A3). */
static int av_after(const act_state_t *s, int a)
{
    int x = s->prio < ACT_PRIORITY_CAP ? s->prio : ACT_PRIORITY_CAP;
    int av = s->base[a] - s->base[a] * x / 10;
    return av > 0 ? av : 0;
}

int act_next_actor(const battle_t *b, int *when)
{
    const act_state_t *s = act_cst(b);
    int best = -1;
    for (int i = 0; i < b->n; i++)
        if (battle_active(b, i) && i != s->actor && (best < 0 || sooner(s, s->next, i, best)))
            best = i;
    if (when) *when = best >= 0 ? s->next[best] : 0;
    return best;
}

int act_forecast(const battle_t *b, int *who, int *when, int cap)
{
    const act_state_t *s = act_cst(b);
    int t[ACT_NMAX];
    int live = 0;
    for (int i = 0; i < b->n; i++) {
        t[i] = s->next[i];
        live += battle_active(b, i);
    }
    if (s->actor >= 0 && battle_active(b, s->actor)) t[s->actor] = s->clock + av_after(s, s->actor);
    int n = 0;
    while (live > 0 && n < cap) {
        int best = -1;
        for (int i = 0; i < b->n; i++)
            if (battle_active(b, i) && (best < 0 || sooner(s, t, i, best))) best = i;
        who[n] = best;
        when[n] = t[best];
        n++;
        /* A combatant of SPD 0 would still come round, only rarely. */
        t[best] += s->base[best] > 0 ? s->base[best] : ACT_AV_NUM;
    }
    return n;
}

/* Begin the next activation: close the rounds the clock passes (A2), then
 * the actor starts with the simple actions its debt leaves (A4). */
static void begin_next(battle_t *b)
{
    act_state_t *s = act_st(b);
    int when = 0;
    int i = act_next_actor(b, &when);
    s->actor = -1;
    if (i < 0) return;
    while (when > b->round * ACT_ROUND)
        if (!battle_round_end(b)) return; /* the round limit: the battle stops */
    s->clock = when;
    s->actor = i;
    s->left = ACT_SIMPLE - s->debt[i];
    s->prio = 0;
    s->struck = false;
    s->acts[i]++;
    event_t e = event_make(EV_TURN_START);
    e.who = i;
    e.value = b->round;
    battle_emit(b, &e);
    if (s->debt[i] > 0) {
        /* A4: the line the shortened activation is told on (act_tell). */
        battle_emit_action(b, i, "interrupt_paid", -1, true);
        battle_emit_change(b, i, "simple_actions", ACT_SIMPLE, s->left);
    }
    s->debt[i] = 0;
    if (s->held[i]) act_hold_lost(b, i); /* A8: lost at the holder's next activation */
}

void act_timeline_start(battle_t *b)
{
    act_state_t *s = act_st(b);
    s->clock = 0;
    s->actor = -1;
    s->offer_reactor = -1;
    for (int i = 0; i < b->n; i++) {
        s->base[i] = act_base_av(b, i);
        s->next[i] = s->base[i];
    }
    /* The order of the first activations, announced once for the log. */
    int rank = 0, done[ACT_NMAX] = {0};
    for (;;) {
        int best = -1;
        for (int i = 0; i < b->n; i++)
            if (battle_active(b, i) && !done[i] && (best < 0 || sooner(s, s->next, i, best)))
                best = i;
        if (best < 0) break;
        done[best] = 1;
        event_t e = event_make(EV_INITIATIVE);
        e.who = best;
        e.total = s->base[best];
        e.value = ++rank;
        battle_emit(b, &e);
    }
    b->round = 1;
    begin_next(b);
}

void act_end_activation(battle_t *b)
{
    act_state_t *s = act_st(b);
    int a = s->actor;
    if (a < 0) return;
    if (battle_active(b, a) && act_has(b, a, AC_POISONED)) {
        int loss = b->u[a].hp_max / 8; /* A26 */
        battle_emit_action(b, a, "poison", -1, true);
        act_hurt(b, a, loss > 0 ? loss : 1);
    }
    if (battle_active(b, a)) {
        int av = av_after(s, a);
        s->next[a] = s->clock + av;
        battle_emit_change(b, a, "av", s->base[a], av);
    }
    event_t e = event_make(EV_TURN_END);
    e.who = a;
    e.value = b->round;
    battle_emit(b, &e);
    s->actor = -1;
    s->left = 0;
    s->prio = 0;
    act_delays_tick(b); /* A7: right after the activation ends */
    if (act_stopped(b) || battle_last_side(b) != -2) return;
    begin_next(b);
}
