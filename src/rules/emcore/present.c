/* present.c - what emcore shows before anything is rolled: the odds of an
 * attack (the chance to win its contest, the expected margin and wounds),
 * read from the same pools the attack rolls. */
#include <stdio.h>
#include <string.h>

#include "../../core/trigger.h"
#include "emcore.h"

static bool can_dodge(const battle_t *b, int t)
{
    return em_cst(b)->points[t] >= 1 || b->u[t].stat[ES_WILLPOWER] >= 1;
}

bool em_forecast(const battle_t *b, int a, int t, int wi, em_forecast_t *out)
{
    const em_state_t *s = em_cst(b);
    if (s->phase == EP_IMMEDIATE && !em_participant(b, a))
        return false;
    if (s->phase == EP_IMMEDIATE)
        return em_forecast_kind(b, a, t, wi, EK_FIGHT, out);
    return em_forecast_kind(b, a, t, wi, s->phase == EP_COMMITMENT ? EK_COMMITTED : EK_HASTY, out);
}

bool em_forecast_kind(const battle_t *b, int a, int t, int wi, em_attack_kind_t want,
                      em_forecast_t *out)
{
    memset(out, 0, sizeof *out);
    if (!battle_active(b, a) || !battle_active(b, t) || a == t || !em_enemies(b, a, t))
        return false;
    if (wi < -1 || wi >= b->u[a].n_weapons)
        return false;
    const weapon_t *w = battle_weapon(b, a, wi);
    out->atk_n = em_aspect_dice(b, a, em_weapon_aspect(w));
    out->soak_n = em_soak_dice(b, t);
    if (want == EK_FIGHT) {
        /* A fight: against the target's own roll, Force if it fights. */
        if (!em_melee_reaches(b, a, t, w))
            return false;
        out->kind = EK_FIGHT;
        out->mode = EPOOL_FULL;
        /* A foe that rolls nothing here (lying prone) may dodge (E17). */
        out->def_n = em_participant(b, t) ? em_aspect_dice(b, t, EA_FORCE)
                     : can_dodge(b, t)    ? em_aspect_dice(b, t, EA_ADEPTNESS)
                                          : 0;
        out->base = em_base_damage(b, a, w, EK_FIGHT, false);
    } else {
        bool melee = (wi < 0 || em_is_melee(w)) && em_melee_reaches(b, a, t, w);
        if (melee && !em_too(b, t))
            return false; /* no blow to strike: only the Engage minor action */
        if (!melee && !em_shot_reaches(b, a, t, w))
            return false;
        out->kind = melee ? EK_OPPORTUNITY : want;
        out->ranged = !melee;
        out->atk_n = em_aspect_dice(b, a, em_attack_aspect(w, out->ranged)); /* a throw: Adeptness */
        out->mode = em_attack_mode(b, t, w, out->kind, out->ranged);
        out->def_src = em_known_defence(b, t, out->kind, out->ranged, &out->def_fixed);
        /* With nothing guarding it, the target is taken to dodge when it can. */
        if (out->def_src == 0 && can_dodge(b, t))
            out->def_n = em_aspect_dice(b, t, EA_ADEPTNESS);
        out->base = em_base_damage(b, a, w, out->kind, out->ranged);
    }
    out->odds = em_odds(out->atk_n, out->mode, out->def_n, out->def_fixed, out->base, out->soak_n);
    out->valid = true;
    return true;
}

bool em_predict(const battle_t *b, int a, int t, int w, predict_t *out)
{
    memset(out, 0, sizeof *out);
    em_forecast_t f;
    if (!em_forecast(b, a, t, w, &f))
        return false;
    out->valid = true;
    out->p_hit = f.odds.p_win;
    out->dmg_expected = f.odds.wounds;
    out->dmg_hit = f.odds.p_win > 0.0 ? f.odds.wounds / f.odds.p_win : 0.0;
    out->atk_n = f.atk_n;
    out->def_n = f.def_n;
    out->def_bonus = f.def_n > 0 ? 0 : f.def_fixed;
    out->dmg_bonus = f.base;
    return true;
}

/* ---- the G3 hooks ----------------------------------------------------------- */

bool em_predict_cmd(const battle_t *b, const cmd_t *c, predict_t *out)
{
    memset(out, 0, sizeof *out);
    bool attack = c->kind == CMD_ENGAGE || c->kind == CMD_COMMIT ||
                  (c->kind == CMD_DECLARE && c->act == CMD_ENGAGE);
    if (!attack || c->target < 0)
        return false;
    em_forecast_t f;
    if (!em_forecast(b, c->actor, c->target, c->weapon, &f) || !em_predict(b, c->actor, c->target, c->weapon, out))
        return false;
    if (f.def_n > 0)
        snprintf(out->detail, sizeof out->detail, "%d dice vs %d, soak %d", f.atk_n, f.def_n,
                 f.soak_n);
    else
        snprintf(out->detail, sizeof out->detail, "%d dice vs %d success%s, soak %d", f.atk_n,
                 f.def_fixed, f.def_fixed == 1 ? "" : "es", f.soak_n);
    return true;
}

int em_gauges(const battle_t *b, int i, gauge_t *out, int cap)
{
    const unit_t *u = &b->u[i];
    const em_state_t *s = em_cst(b);
    int n = 0;
    /* Wounds it may still take, the Movement points left this turn and the
     * Willpower that pays for forced actions. */
    if (n < cap && u->hp_max > 0) out[n++] = gauge_named(b, "hp", u->hp, u->hp_max, GAUGE_HEALTH);
    int mv = em_movement(b, i);
    if (n < cap && mv > 0) out[n++] = gauge_named(b, "points", s->points[i], mv, GAUGE_POOL);
    int will = u->stat_max[ES_WILLPOWER] > u->stat[ES_WILLPOWER] ? u->stat_max[ES_WILLPOWER]
                                                                 : u->stat[ES_WILLPOWER];
    if (n < cap && will > 0)
        out[n++] = gauge_named(b, "willpower", u->stat[ES_WILLPOWER], will, GAUGE_POOL);
    return n;
}

bool em_describe(const battle_t *b, const cmd_t *c, char *label, size_t cap)
{
    const weapon_t *w = battle_weapon(b, c->actor, c->weapon);
    const char *wn = !w ? "unarmed" : w->name[0] ? w->name : w->id;
    if (c->kind == CMD_DECLARE && c->act == CMD_ENGAGE && c->target < 0)
        snprintf(label, cap, "Guard"); /* the fight roll defends, nobody is attacked */
    else if (c->kind == CMD_DECLARE && c->act == CMD_ENGAGE)
        snprintf(label, cap, "Fight: %.30s", wn);
    else if (c->kind == CMD_DECLARE && c->act == CMD_DISENGAGE)
        snprintf(label, cap, "Disengage");
    else if (c->kind == CMD_COMMIT)
        snprintf(label, cap, "Aim: %.30s", wn);
    else if (c->kind == CMD_NOCK)
        snprintf(label, cap, "Nock: %.30s", wn);
    else if (c->kind == CMD_STANDBY && c->act == CMD_MOVE)
        snprintf(label, cap, "Ready a move (%.24s)", trigger_label(c->arg));
    else if (c->kind == CMD_STANDBY)
        snprintf(label, cap, "Ready %s: %.24s (%.24s)",
                 w && em_is_ranged(w) && em_weapon_aspect(w) == EA_SPIRIT ? "spell"
                 : em_is_ranged(w) && !em_is_melee(w)                       ? "shot"
                                                                             : "blow",
                 wn, trigger_label(c->arg));
    else if (c->kind == CMD_COVER)
        snprintf(label, cap, "Take cover");
    else if (c->kind == CMD_EVADE)
        snprintf(label, cap, "Evade");
    else
        return false;
    return true;
}

/* The tracker's order for the phase now (ruleset_t.queue): in the Immediate
 * phase every fighter of each engagement, group by group (what it declared
 * stays hidden); in the Movement phase the slots still to come in initiative
 * order, with the points each has; in the Commitment phase the aimed shots
 * and spells still to go, in initiative order. */
int em_queue(const battle_t *b, turn_slot_t *out, int cap)
{
    const em_state_t *s = em_cst(b);
    int n = 0;
    if (b->over || cap <= 0)
        return 0;
    if (s->phase == EP_IMMEDIATE) {
        int shown = 0; /* engagements numbered as listed */
        for (int g = 1; g <= b->n && n < cap; g++) {
            bool any = false;
            for (int i = 0; i < b->n && n < cap; i++) {
                if (s->group[i] != g || !battle_active(b, i))
                    continue;
                shown += !any;
                any = true;
                out[n].who = i;
                out[n].side = b->board->side[i];
                snprintf(out[n].label, sizeof out[n].label, "melee %d%s", shown,
                         s->decl[i].set ? ", declared" : "");
                n++;
            }
        }
        return n;
    }
    if (s->phase != EP_MOVEMENT && s->phase != EP_COMMITMENT)
        return 0;
    for (int k = s->cur < 0 ? 0 : s->cur; k < s->n_order && n < cap; k++) {
        int i = s->order[k];
        if (!battle_active(b, i) || (s->phase == EP_COMMITMENT && !s->commit[i]))
            continue;
        out[n].who = i;
        out[n].side = b->board->side[i];
        if (s->phase == EP_MOVEMENT) {
            snprintf(out[n].label, sizeof out[n].label, "%d pt%s", s->points[i],
                     s->points[i] == 1 ? "" : "s");
        } else {
            const weapon_t *w = battle_weapon(b, i, s->commit[i] - 1);
            snprintf(out[n].label, sizeof out[n].label, "aims %.20s",
                     !w ? "" : w->name[0] ? w->name : w->id);
        }
        n++;
    }
    return n;
}

/* Range bands (ruleset_t.bands). The text has no bands by distance (E12):
 * a weapon strikes out to its reach or range. What differs is how a shot
 * counts, hasty (criticals only, one each, no base) or aimed (every
 * success, the base added), and a thrown blade's two uses; the bands say so. */
int em_bands(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c, const weapon_t *w,
             const geo_profile_t *prof, range_band_t *out, int cap)
{
    (void)db;
    (void)c;
    (void)prof; /* emcore's reach is the weapon's alone (em_reach_hex) */
    int n = 0;
    if (cap <= 0)
        return 0;
    bool melee = em_is_melee(w), shot = em_is_ranged(w);
    if (melee) {
        int ft = w && w->reach_ft > 0 ? w->reach_ft : m->feet_per_hex;
        out[n].hexes = geom_ft_to_hexes(m, ft);
        out[n].tier = RANGE_NEAR;
        snprintf(out[n].label, sizeof out[n].label, "melee reach %d ft", out[n].hexes * m->feet_per_hex);
        n++;
    }
    if (shot && n < cap) {
        out[n].hexes = geom_ft_to_hexes(m, w->range_ft);
        out[n].tier = melee ? RANGE_MID : RANGE_NEAR;
        bool aimed_only = battle_weapon_tag(w, "committed_only") > 0;
        snprintf(out[n].label, sizeof out[n].label, "%s to %d ft: %s", melee ? "thrown" : "shot",
                 w->range_ft, aimed_only ? "aimed only" : "hasty crits, aimed all");
        n++;
    }
    return n;
}
