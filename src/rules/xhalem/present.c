/* present.c - what xhalem shows before anything is rolled (the G3 hooks of
 * ruleset.h): the odds of an engagement, read from xhalem_engage_shape (the
 * shape apply rolls), and the range bands of a weapon.
 */
#include "xh_int.h"

bool xh_predict(const battle_t *b, const cmd_t *c, predict_t *out)
{
    memset(out, 0, sizeof *out);
    if (c->kind != CMD_ENGAGE) return false;
    const weapon_t *w = battle_weapon(b, c->actor, c->weapon);
    if (c->weapon >= 0 && !w) return false;
    eng_t g;
    if (!xhalem_engage_shape(b, c->actor, c->target, w, false, false, &g)) return false;
    out->beyond = g.beyond;
    out->atk_n = g.atk_n;
    out->atk_keep = g.atk_keep;
    out->atk_bonus = g.atk_bonus;
    out->def_n = g.def_n;
    out->def_keep = g.def_keep;
    out->def_bonus = g.def_bonus;
    out->naturals = g.naturals;
    out->dmg_n = g.dmg_n;
    out->dmg_sides = g.dmg_sides;
    out->dmg_bonus = g.dmg_bonus;
    /* An undetected target beyond range: valid to try, but it cannot hit. */
    out->p_hit = g.auto_fail ? 0.0
                             : predict_d20_beats(g.atk_n, g.atk_keep, g.atk_bonus, g.def_n,
                                                 g.def_keep, g.def_bonus, g.naturals);
    out->dmg_hit = xh_damage_mean(b, g.dmg_n, g.dmg_sides, g.dmg_bonus, g.beyond) * g.dmg_factor;
    out->dmg_expected = out->p_hit * out->dmg_hit;
    const char *keep = g.atk_n < 2 ? "" : g.atk_keep > 0 ? " adv" : " dis";
    if (g.def_n > 0)
        snprintf(out->detail, sizeof out->detail, "d20%s%+d vs d20%+d%s", keep, g.atk_bonus,
                 g.def_bonus, g.beyond ? ", beyond range" : "");
    else
        snprintf(out->detail, sizeof out->detail, "d20%s%+d vs %d%s", keep, g.atk_bonus,
                 g.def_bonus, g.beyond ? ", beyond range" : "");
    out->valid = true;
    return true;
}

int xh_bands(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c, const weapon_t *w,
             const geo_profile_t *prof, range_band_t *out, int cap)
{
    int n = ruleset_bands(NULL, m, db, c, w, prof, out, cap);
    if (n < 1 || cap < 2 || !w || w->cls == WPN_MELEE) return n;
    /* A shot goes on past its range with disadvantage and half damage; twice
     * the range shows where that begins to matter. */
    out[1].hexes = 2 * out[0].hexes;
    out[1].tier = RANGE_FAR;
    snprintf(out[1].label, sizeof out[1].label, "beyond: disadvantage, half damage");
    return 2;
}

bool xh_describe(const battle_t *b, const cmd_t *c, char *label, size_t cap)
{
    /* A machine's dash is its thrusters. */
    if (c->kind != CMD_DASH || !is_machine(b, c->actor)) return false;
    snprintf(label, cap, "Thrust");
    return true;
}
