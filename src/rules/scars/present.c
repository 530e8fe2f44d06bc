/* present.c - what scars shows before anything is rolled (the G3 hooks of
 * ruleset.h): the odds of a declared attack, from the die and the reach the
 * resolution uses (scars_predict_dual in attack.c); the text's range bands;
 * HP and the three abilities as gauges; the referee's telegraphs still
 * standing, for the projector (intents).
 */
#include <stdio.h>
#include <string.h>

#include "scars_int.h"

bool sc_predict_hook(const battle_t *b, const cmd_t *c, predict_t *out)
{
    memset(out, 0, sizeof *out);
    bool attack = c->kind == CMD_ENGAGE || (c->kind == CMD_DECLARE && c->act == CMD_ENGAGE);
    if (!attack || c->target < 0) return false;
    if (!scars_predict_dual(b, c->actor, c->target, c->weapon, c->weapon2, out)) return false;
    /* No roll to hit: the die is the damage, armour comes off it. */
    int armor = b->u[c->target].stat[SS_ARMOR];
    if (out->p_hit <= 0.0)
        snprintf(out->detail, sizeof out->detail, "out of reach or sight");
    else if (out->dmg_n > 1)
        snprintf(out->detail, sizeof out->detail, "%dd%d keep highest, armour %d%s", out->dmg_n,
                 out->dmg_sides, armor, c->weapon2 >= 0 ? ", dual" : "");
    else
        snprintf(out->detail, sizeof out->detail, "d%d, armour %d%s", out->dmg_sides, armor,
                 c->weapon2 >= 0 ? ", dual" : "");
    return true;
}

int sc_bands(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c, const weapon_t *w,
             const geo_profile_t *prof, range_band_t *out, int cap)
{
    (void)db;
    (void)c;
    (void)prof;
    /* The text's bands: a weapon reaches the band its range falls in. */
    int reach = sc_band_hexes(m, w), n = 0;
    static const struct {
        int hexes;
        const char *label;
    } BANDS[] = {{CLOSE_HEX, "close (1 hex)"},
                 {NEARBY_HEX, "nearby (up to 10 hexes)"},
                 {DISTANT_HEX, "distant (up to 20 hexes)"}};
    for (int k = 0; k < 3 && n < cap && BANDS[k].hexes <= reach; k++) {
        out[n].hexes = BANDS[k].hexes;
        out[n].tier = (range_tier_t)k;
        snprintf(out[n].label, sizeof out[n].label, "%s", BANDS[k].label);
        n++;
    }
    return n;
}

int sc_gauges(const battle_t *b, int i, gauge_t *out, int cap)
{
    static const struct {
        int slot;
        const char *label;
    } ABIL[] = {{SS_STR, "STR"}, {SS_DEX, "DEX"}, {SS_WIL, "WIL"}};
    int n = 0;
    const unit_t *u = &b->u[i];
    if (n < cap && u->hp_max > 0) out[n++] = gauge_make("HP", u->hp, u->hp_max, GAUGE_HEALTH);
    for (int k = 0; k < 3 && n < cap; k++)
        if (u->stat_max[ABIL[k].slot] > 0)
            out[n++] = gauge_make(ABIL[k].label, u->stat[ABIL[k].slot], u->stat_max[ABIL[k].slot],
                                  GAUGE_HEALTH);
    return n;
}

/* The table's words for a telegraph event's name, or NULL when it is none. */
static const char *intent_words(const char *name)
{
    static const struct {
        const char *ev, *words;
    } T[] = {{"telegraph_attack", "attack"},
             {"telegraph_move", "move"},
             {"telegraph_second_move", "move twice"},
             {"telegraph_retreat", "retreat"},
             {"telegraph_hold", "hold"}};
    for (size_t k = 0; k < sizeof T / sizeof T[0]; k++)
        if (strcmp(name, T[k].ev) == 0) return T[k].words;
    return NULL;
}

int sc_intents(const battle_t *b, intent_t *out, int cap)
{
    /* A telegraph (calls.c) stands from its event until the end of the
     * phase in which the telegraphed combatant's side declares and resolves,
     * or until it is out of the fight; a later telegraph of the same
     * combatant replaces it. at[i]: its event's index, -1 none. */
    int at[MAP_MAX_COMBATANTS];
    if (b->over || cap < 1) return 0;
    for (int i = 0; i < b->n; i++)
        at[i] = -1;
    for (int k = 0; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type == EV_ACTION && e->who >= 0 && e->who < b->n && intent_words(e->name))
            at[e->who] = k;
        else if (e->type == EV_TURN_END && e->who < 0)
            for (int i = 0; i < b->n; i++)
                if (at[i] >= 0 && b->board->side[i] == e->side) at[i] = -1;
    }
    /* Oldest first: the order the referee made them in. */
    int n = 0;
    for (int k = 0; k < b->log.n && n < cap; k++) {
        const event_t *e = &b->log.ev[k];
        if (e->type != EV_ACTION || e->who < 0 || e->who >= b->n || at[e->who] != k) continue;
        if (!sc_can_act(b, e->who)) continue;
        intent_t *t = &out[n++];
        t->who = e->who;
        t->target = e->target >= 0 && e->target < b->n && battle_active(b, e->target) ? e->target
                                                                                       : -1;
        t->has_at = (e->opt & EV_OPT_AT) != 0;
        t->at = e->to;
        hb_strlcpy(t->label, intent_words(e->name), sizeof t->label);
    }
    return n;
}
