/* present.c - what scars shows before anything is rolled (the G3 hooks of
 * ruleset.h): the odds of a declared attack, from the die and the reach the
 * resolution uses (scars_predict_dual in attack.c); the text's range bands;
 * HP and the three abilities as gauges; the referee's telegraphs still
 * standing, for the projector (intents).
 */
#include <stdio.h>
#include <string.h>

#include "scars_int.h"

/* Stand everyone where the phase's declared moves will leave them before the
 * attacks land, as sc_resolve_phase moves them (map order, each up to the
 * last free hex before an enemy): the moves declared so far and c's own path
 * when c declares one. Trials on the board, put back by unproject; returns
 * their count. The hook's battle is const to its callers: the board is the
 * same afterwards, byte for byte (board_try / board_untry). */
static int project(const battle_t *b, const cmd_t *c, board_trial_t *tr)
{
    const sc_state_t *s = sc_cst(b);
    board_t *bd = b->board;
    int n = 0;
    for (int i = 0; i < b->n; i++) {
        const sc_decl_t *d = &s->decl[i];
        sc_decl_t own;
        if (i == c->actor && c->kind == CMD_DECLARE && !d->set && c->n_path > 0) {
            memset(&own, 0, sizeof own);
            own.set = 1;
            own.n_path = (short)(c->n_path < SCARS_PATH_MAX ? c->n_path : SCARS_PATH_MAX);
            memcpy(own.path, c->path, sizeof own.path[0] * (size_t)own.n_path);
            d = &own;
        }
        if (!d->set || d->n_path <= 0 || !battle_active(b, i)) continue;
        int stop = sc_move_stop(b, i, d);
        if (stop > 0) tr[n++] = board_try(bd, i, hex_from_cell(b->map->layout, d->path[stop - 1]));
    }
    return n;
}

static void unproject(const battle_t *b, const board_trial_t *tr, int n)
{
    for (int k = n - 1; k >= 0; k--)
        board_untry(b->board, &tr[k]);
}

bool sc_predict_hook(const battle_t *b, const cmd_t *c, predict_t *out)
{
    memset(out, 0, sizeof *out);
    bool attack = c->kind == CMD_ENGAGE || (c->kind == CMD_DECLARE && c->act == CMD_ENGAGE);
    if (!attack || c->target < 0 || c->actor < 0 || c->actor >= b->n) return false;
    /* A declared attack lands after the phase's moves: its odds are for the
     * board as they will leave it (an ally stepping into the line of fire
     * gives the target cover). */
    board_trial_t tr[MAP_MAX_COMBATANTS];
    int n = c->kind == CMD_DECLARE ? project(b, c, tr) : 0;
    bool ok = scars_predict_dual(b, c->actor, c->target, c->weapon, c->weapon2, out);
    unproject(b, tr, n);
    if (!ok) return false;
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
    static const int ABIL[] = {SS_STR, SS_DEX, SS_WIL};
    int n = 0;
    const unit_t *u = &b->u[i];
    if (n < cap && u->hp_max > 0) out[n++] = gauge_named(b, "hp", u->hp, u->hp_max, GAUGE_HEALTH);
    for (int k = 0; k < 3 && n < cap; k++)
        if (u->stat_max[ABIL[k]] > 0)
            out[n++] = gauge_named(b, SCARS_STAT_NAMES[ABIL[k]], u->stat[ABIL[k]],
                                   u->stat_max[ABIL[k]], GAUGE_HEALTH);
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
