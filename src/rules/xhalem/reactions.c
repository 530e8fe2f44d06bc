/* reactions.c - xhalem reactions: opportunity strikes and held standbys,
 * each put to the table or to the policy (battle_ask_choice).
 */
#include "xh_int.h"

bool xh_can_react(const battle_t *b, int r)
{
    return battle_active(b, r) && !cst(b)->reaction_used[r] && !immobile(b, r);
}

/* Does r take this reaction (KIND "opportunity" or "standby"): the table's
 * answer when its side decides, else the policy (xhalem_react)? g: the
 * strike it would make (NULL for a held move), whose odds the table is shown
 * on the option when it is asked. */
static bool react_ok(battle_t *b, int r, const char *kind, int trigger, const eng_t *g)
{
    bool opp = kind[0] == 'o';
    char take[REACT_LABEL_MAX];
    hb_strlcpy(take, opp ? "strike" : g ? "strike now" : "move now", sizeof take);
    if (g && battle_table_asks(b, r)) {
        /* The same odds the screen shows before an attack (predict.c). */
        double p = g->auto_fail ? 0.0
                                : predict_d20_beats(g->atk_n, g->atk_keep, g->atk_bonus, g->def_n,
                                                    g->def_keep, g->def_bonus, g->naturals);
        double d = xh_damage_mean(b, g->dmg_n, g->dmg_sides, g->dmg_bonus, g->beyond) *
                   g->dmg_factor;
        snprintf(take, sizeof take, "%s: %d%% to hit, %.1f dmg", opp ? "strike" : "strike now",
                 (int)(p * 100.0 + 0.5), d);
    }
    const char *const labels[2] = {opp ? "let it pass" : "keep holding", take};
    return battle_ask_choice(b, r, kind, trigger, 2, labels) != 0;
}

/* The melee weapon in r's hand that reaches farthest (the first of equals),
 * or -1 for none: its reach is r's reach (xhalem_reach). */
int xh_melee_weapon_index(const battle_t *b, int r)
{
    int best = -1;
    for (int w = 0; w < b->u[r].n_weapons; w++)
        if (b->u[r].weapon[w]->cls == WPN_MELEE && xhalem_equipped(b, r, w) &&
            (best < 0 || b->u[r].weapon[w]->reach_ft > b->u[r].weapon[best]->reach_ft))
            best = w;
    return best;
}

/* Mover m is about to step from h0 to h1: enemies whose reach it leaves may
 * strike (RULINGS: opportunity). forced: an unwilling move (by `by`).
 * reacting: a held standby move out of turn, so no engagement of this turn
 * excuses it. Returns false when the mover is no longer standing. */
bool xh_opportunities(battle_t *b, int m, hex_t h0, hex_t h1, bool forced, int by, bool reacting)
{
    xh_state_t *s = st(b);
    const map_combatant_t *c = mc(b, m);
    if (c->kind == KIND_MACHINE && c->size == SIZE_SMALL)
        return true; /* small mechs are immune to opportunities */
    for (int e = 0; e < b->n && battle_active(b, m); e++) {
        if (e == m || e == by || !enemies(b, e, m) || !xh_can_react(b, e)) continue;
        if (!forced && !reacting && s->engaged_by_mover[e])
            continue; /* engaged this turn: leaving is free */
        int w = xh_melee_weapon_index(b, e);
        if (w < 0 || !xhalem_aware(b, e, m)) continue;
        int reach = melee_reach(b, e, b->u[e].weapon[w]);
        if (!geom_threatens(b->board, e, reach, h0) || geom_threatens(b->board, e, reach, h1))
            continue;
        eng_t g = xh_assess(b, e, m, b->u[e].weapon[w], true, forced);
        if (!react_ok(b, e, "opportunity", m, g.legal ? &g : NULL)) continue;
        s->reaction_used[e] = 1;
        event_t ev = event_make(EV_REACTION);
        ev.who = e;
        ev.target = m;
        hb_strlcpy(ev.name, "opportunity", sizeof ev.name);
        battle_emit(b, &ev);
        if (g.legal && xh_engagement(b, e, m, b->u[e].weapon[w], &g)) xh_strike_damage(b, e, m, &g);
    }
    return battle_active(b, m);
}

static bool reserved(const walk_ctx_t *w, cell_t c)
{
    for (; w; w = w->up)
        for (int k = 0; k < w->n; k++)
            if (w->rest[k].col == c.col && w->rest[k].row == c.row) return true;
    return false;
}

/* The path (cells after the start) of r's held move, if r can make it now
 * within the movement its turn left; returns the count, 0 when it cannot. */
static int held_move_path(battle_t *b, int r, const walk_ctx_t *w, cell_t *out)
{
    const xh_state_t *s = cst(b);
    cell_t goal = s->sb_at[r], buf[CMD_PATH_MAX + 1];
    int cost = 0, len = 0;
    move_cost_t mv;
    if (reserved(w, goal) || !xhalem_move_cost(b, r, xh_current_mode(b, r), &mv) ||
        !geom_path_mode(&mv, goal, b->ps, &cost, buf, CMD_PATH_MAX + 1, &len))
        return 0;
    if (len < 2 || buf[len - 1].col != goal.col || buf[len - 1].row != goal.row)
        return 0; /* already there, or farther than one command can carry */
    memcpy(out, buf + 1, sizeof *out * (size_t)(len - 1));
    cost = geom_path_price(&mv, out, len - 1);
    return cost >= 0 && cost <= s->sb_move_ft[r] ? len - 1 : 0;
}

/* Holder r answers trigger t with its held action, if it can and will. */
static void standby_react(battle_t *b, int r, int t, const eng_t *g, const weapon_t *w,
                          const walk_ctx_t *ctx)
{
    xh_state_t *s = st(b);
    cell_t path[CMD_PATH_MAX];
    int n = 0;
    if (s->sb_move[r] && (n = held_move_path(b, r, ctx, path)) == 0)
        return; /* nowhere to go right now: the move stays held */
    if (!react_ok(b, r, "standby", t, s->sb_move[r] ? NULL : g)) return;
    s->standby[r] = 0;
    s->reaction_used[r] = 1;
    event_t ev = event_make(EV_REACTION);
    ev.who = r;
    ev.target = t;
    hb_strlcpy(ev.name, "standby", sizeof ev.name);
    battle_emit(b, &ev);
    if (s->sb_move[r])
        xh_walk(b, r, path, n, true, ctx);
    else if (xh_engagement(b, r, t, w, g))
        xh_strike_damage(b, r, t, g);
}

/* Does standby holder r wait on combatant m (an enemy, the named one if any)? */
static bool waits_on(const battle_t *b, int r, int m)
{
    const xh_state_t *s = cst(b);
    return s->standby[r] && enemies(b, r, m) && (s->sb_target[r] < 0 || s->sb_target[r] == m) &&
           xh_can_react(b, r);
}

/* Holder r's trigger t has just been met: a held strike needs t within the held
 * weapon's reach or range (and detectable) now; a held move needs nothing. */
static void standby_fire(battle_t *b, int r, int t, const walk_ctx_t *ctx)
{
    const xh_state_t *s = cst(b);
    const weapon_t *w = battle_weapon(b, r, s->sb_weapon[r]);
    eng_t g = xh_assess(b, r, t, w, false, false);
    if (!s->sb_move[r] && (!g.legal || g.beyond || g.auto_fail)) return;
    standby_react(b, r, t, &g, w, ctx);
}

/* Standby holders whose trigger this step meets act now, after it: the mover
 * entered the held weapon's reach (XT_ENTERS_REACH), or moved at all where the
 * holder can see it (XT_MOVES_IN_SIGHT). */
void xh_standby_after_move(battle_t *b, int m, const walk_ctx_t *ctx)
{
    xh_state_t *s = st(b);
    for (int r = 0; r < b->n && battle_active(b, m); r++) {
        if (!waits_on(b, r, m)) continue;
        if (s->sb_trigger[r] == XT_MOVES_IN_SIGHT) {
            if (xhalem_aware(b, r, m)) standby_fire(b, r, m, ctx);
            continue;
        }
        if (s->sb_trigger[r] != XT_ENTERS_REACH) continue;
        const weapon_t *w = battle_weapon(b, r, s->sb_weapon[r]);
        eng_t g = xh_assess(b, r, m, w, false, false);
        if (!g.legal || g.beyond || g.auto_fail) continue;
        standby_react(b, r, m, &g, w, ctx);
    }
}

/* After a engaged t with w: XT_ENGAGES (any engagement), XT_ENGAGES_RANGED (a
 * ranged or thrown one) and XT_ENGAGES_ALLY (one aimed at the holder's ally). */
void xh_standby_after_engage(battle_t *b, int a, int t, const weapon_t *used)
{
    xh_state_t *s = st(b);
    bool ranged = used && used->cls != WPN_MELEE;
    for (int r = 0; r < b->n && battle_active(b, a); r++) {
        if (!waits_on(b, r, a)) continue;
        int k = s->sb_trigger[r];
        bool met = k == XT_ENGAGES || (k == XT_ENGAGES_RANGED && ranged) ||
                   (k == XT_ENGAGES_ALLY && t != r && t >= 0 && board_allies(b->board, r, t));
        if (!met) continue;
        const weapon_t *w = battle_weapon(b, r, s->sb_weapon[r]);
        eng_t g = xh_assess(b, r, a, w, false, false);
        /* A held move needs no line to the trigger; a held strike does. */
        if (!g.legal && !s->sb_move[r]) continue;
        standby_react(b, r, a, &g, w, NULL);
    }
}

/* After a dashed or thrust (XT_DASHES): before it has moved a step. */
void xh_standby_after_dash(battle_t *b, int a)
{
    xh_state_t *s = st(b);
    for (int r = 0; r < b->n && battle_active(b, a); r++)
        if (waits_on(b, r, a) && s->sb_trigger[r] == XT_DASHES) standby_fire(b, r, a, NULL);
}

/* The AI (and every side the table leaves to it) takes every opportunity and
 * every held standby; a side the table set to decline lets them pass before
 * this is asked (battle_table_choice). */
int xhalem_react(const battle_t *b, int reactor, const react_offer_t *offer)
{
    (void)b;
    (void)reactor;
    return offer->n > 1 ? 1 : 0;
}
