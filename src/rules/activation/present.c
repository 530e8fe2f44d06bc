/* present.c - what activation shows before anything is rolled (the G3 hooks
 * of ruleset.h): the odds of an action on a target, read from act_odds (the
 * numbers the pipeline rolls); the range increments of an action; HP and
 * PP; the timeline's next activations.
 */
#include <stdio.h>
#include <string.h>

#include "act.h"

bool act_predict(const battle_t *b, const cmd_t *c, predict_t *out)
{
    memset(out, 0, sizeof *out);
    bool use = c->kind == CMD_ENGAGE || c->kind == CMD_GRAPPLE ||
               (c->kind == CMD_DECLARE && c->act == CMD_ENGAGE);
    if (!use || c->target < 0) return false;
    int slot = c->kind == CMD_GRAPPLE ? ACT_W_GRAB : c->weapon;
    act_action_t a;
    if (!act_action(b, c->actor, slot, &a)) return false;
    act_odds_t o;
    /* An area aimed at the target: it stands in the template, which reached it. */
    if (a.shape == SHAPE_SINGLE)
        act_odds(b, c->actor, &a, c->target, &o);
    else
        act_odds_caught(b, c->actor, &a, c->target, &o);
    if (!o.legal) return false;
    /* A d100 at or under the chance hits; no accuracy, or 100 and more, always. */
    int chance = a.acc <= 0 ? 100 : o.fails ? 0 : o.chance;
    /* A27: a ruling waiting for this attack decides it instead. */
    int ovr = act_cst(b)->ovr[c->actor];
    if (ovr != OVERRIDE_NONE && !o.fails) {
        chance = ovr == OVERRIDE_MISS ? 0 : 100;
        if (ovr == OVERRIDE_CRIT) o.crit_chance = 100;
        if (ovr == OVERRIDE_NO_CRIT) o.crit_chance = 0;
    }
    out->valid = true;
    out->p_hit = chance >= 100 ? 1.0 : chance <= 0 ? 0.0 : chance / 100.0;
    out->dmg_hit = act_mean_damage(&o);
    out->dmg_expected = out->p_hit * out->dmg_hit;
    out->atk_n = a.acc > 0 ? 1 : 0;
    out->dmg_n = o.dmg_n;
    out->dmg_sides = o.dmg_sides;
    out->dmg_bonus = o.dmg_bonus + o.dmg_mod;
    if (o.fails)
        snprintf(out->detail, sizeof out->detail, "RI%d: beyond -%d stages, fails", o.ri,
                 ACT_STAGE_MAX);
    else if (ovr != OVERRIDE_NONE)
        snprintf(out->detail, sizeof out->detail, "referee: %s, crit %d%%",
                 chance ? "hits" : "misses", o.crit_chance);
    else if (a.acc <= 0)
        snprintf(out->detail, sizeof out->detail, "no accuracy roll, crit %d%%", o.crit_chance);
    else if (o.ri >= 2)
        snprintf(out->detail, sizeof out->detail, "d100 <= %d (stage %+d, RI%d), crit %d%%",
                 chance, o.stage, o.ri, o.crit_chance);
    else
        snprintf(out->detail, sizeof out->detail, "d100 <= %d (stage %+d), crit %d%%", chance,
                 o.stage, o.crit_chance);
    return true;
}

/* Stat KEY of c as the battle will read it: the map's value, else its
 * template's, else 0. */
static int given_stat(const tmpl_db_t *db, const map_combatant_t *c, const char *key)
{
    int v = 0;
    if (map_combatant_stat(c, key, &v)) return v;
    const tmpl_t *t = db && c->template_name[0] ? tmpl_find(db, c->template_name) : NULL;
    return t && stat_get(t->stats, t->n_stats, key, &v) ? v : 0;
}

int act_bands(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c, const weapon_t *w,
              const geo_profile_t *prof, range_band_t *out, int cap)
{
    (void)prof;
    if (cap < 1) return 0;
    /* A-Z3, A11: the user's changes to every range, as act_action applies them. */
    int plus = given_stat(db, c, "range_plus"), pct = given_stat(db, c, "range_pct");
    int reach = c->reach_ft > 0 ? geom_ft_to_hexes(m, c->reach_ft) : 1;
    /* Bare hands: the Struggle, a contact action. */
    bool contact = !w || w->cls == WPN_MELEE || battle_weapon_tag(w, "contact") > 0;
    bool area = w && (battle_weapon_tag(w, "burst") > 0 || battle_weapon_tag(w, "blast") > 0 ||
                      battle_weapon_tag(w, "cone") > 0 || battle_weapon_tag(w, "line") > 0);
    if (contact) {
        /* A12: its own range plus the user's reach less one. */
        int own = w && w->reach_ft > 0 ? geom_ft_to_hexes(m, w->reach_ft) : 1;
        out[0].hexes = act_change_range(own + reach - 1, plus, pct);
        out[0].tier = RANGE_NEAR;
        snprintf(out[0].label, sizeof out[0].label, "contact (%d hex%s)", out[0].hexes,
                 out[0].hexes == 1 ? "" : "es");
        return 1;
    }
    int r = act_change_range(w->range_ft > 0 ? geom_ft_to_hexes(m, w->range_ft) : 1, plus, pct);
    if (area) {
        /* A template has no increments: it reaches its range, or misses. */
        out[0].hexes = r;
        out[0].tier = RANGE_NEAR;
        snprintf(out[0].label, sizeof out[0].label, "template range (%d hexes)", r);
        return 1;
    }
    /* Range increments (A10): each one farther costs more accuracy stages. */
    int n = 0;
    for (int ri = 1; ri <= 3 && n < cap; ri++, n++) {
        out[n].hexes = ri * r;
        out[n].tier = (range_tier_t)(ri - 1);
        if (ri == 1)
            snprintf(out[n].label, sizeof out[n].label, "RI1 (%d hexes): no penalty", r);
        else
            snprintf(out[n].label, sizeof out[n].label, "RI%d: -%d stage%s", ri,
                     act_ri_penalty(ri), act_ri_penalty(ri) == 1 ? "" : "s");
    }
    return n;
}

int act_gauges(const battle_t *b, int i, gauge_t *out, int cap)
{
    const unit_t *u = &b->u[i];
    int n = 0;
    if (n < cap && u->hp_max > 0) out[n++] = gauge_named(b, "hp", u->hp, u->hp_max, GAUGE_HEALTH);
    if (n < cap && u->stat_max[AS_PP] > 0)
        out[n++] = gauge_named(b, "pp", u->stat[AS_PP], u->stat_max[AS_PP], GAUGE_POOL);
    return n;
}

int act_queue(const battle_t *b, turn_slot_t *out, int cap)
{
    /* While the table is asked about a reaction: the answers already
     * declared to that moment, in the order they will resolve (A5), first. */
    int m = 0;
    for (int k = 0; b->asking && k < b->ask.n_order && m < cap; k++) {
        int w = b->ask.order_who[k];
        if (w < 0 || w >= b->n) continue;
        out[m].who = w;
        out[m].side = b->board->side[w];
        out[m].reaction = true;
        hb_strlcpy(out[m].label, b->ask.order_labels[k], sizeof out[m].label);
        m++;
    }
    out += m;
    cap -= m;
    int who[QUEUE_MAX], when[QUEUE_MAX];
    int n = act_forecast(b, who, when, cap < QUEUE_MAX ? cap : QUEUE_MAX);
    int clock = act_cst(b)->clock;
    for (int k = 0; k < n; k++) {
        out[k].who = who[k];
        out[k].side = b->board->side[who[k]];
        out[k].reaction = false;
        /* The ticks of the AV clock still to pass; none means it acts straight
         * after the current activation (a tie on the clock). */
        int wait = when[k] - clock;
        if (wait <= 0)
            snprintf(out[k].label, sizeof out[k].label, "next");
        else
            snprintf(out[k].label, sizeof out[k].label, "in %d AV", wait);
    }
    return m + n;
}

bool act_describe(const battle_t *b, const cmd_t *c, char *label, size_t cap)
{
    act_action_t a;
    int slot = c->kind == CMD_GRAPPLE ? ACT_W_GRAB : c->weapon;
    bool named = act_action(b, c->actor, slot, &a);
    const char *an = named ? (a.w->name[0] ? a.w->name : a.w->id) : "?";
    if (c->kind == CMD_DECLARE && c->act == CMD_ENGAGE)
        snprintf(label, cap, "Telegraph: %.24s (delay %d)", an, c->arg); /* Hold! [Delay X] */
    else if (c->kind == CMD_ENGAGE && named && a.category == CAT_STATUS)
        snprintf(label, cap, "Use: %.30s", an);
    else if (c->kind == CMD_ENGAGE && named && a.pp > 0)
        snprintf(label, cap, "Attack: %.24s (%d PP)", an, a.pp);
    else if (c->kind == CMD_GRAPPLE)
        snprintf(label, cap, "Grab");
    else if (c->kind == CMD_STANDBY && slot == ACT_W_GRAB)
        snprintf(label, cap, "Hold: Grab"); /* the screen knows no weapon slot -2 */
    else if (c->kind == CMD_ESCAPE)
        snprintf(label, cap, "Struggle free");
    else
        return false;
    return true;
}

/* The log's opening: how the timeline decides who acts, then who acts
 * first, told at the first initiative event (A2, A3); and an activation
 * an interrupt has paid from (A4). */
bool act_tell(const battle_t *b, int k, char *buf, size_t cap)
{
    const event_t *e = &b->log.ev[k];
    if (e->type == EV_ACTION && strcmp(e->name, "interrupt_paid") == 0 && e->who >= 0) {
        snprintf(buf, cap, "%s pays for the interrupt it used: this activation starts short",
                 b->map->combatants[e->who].name);
        return true;
    }
    if (e->type != EV_INITIATIVE || e->value != 1 || e->who < 0 || e->who >= b->n) return false;
    snprintf(buf, cap,
             "The timeline: whoever has the lowest action value (AV) acts next, ties going to "
             "the lower base AV. After an activation (two simple actions) the actor's AV starts "
             "again from its base, %d / SPD, less any Priority; a round is %d.\n"
             "%s acts first: SPD %d, AV %d.",
             ACT_AV_NUM, ACT_ROUND, b->map->combatants[e->who].name, b->u[e->who].stat[AS_SPD],
             e->total);
    return true;
}
