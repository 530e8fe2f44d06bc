/* engage.c - xhalem engagements: one shape (advantage, disadvantage,
 * detriment, cover, flanking, naturals, range, water) rolled once.
 */
#include <limits.h>

#include "xh_int.h"

/* Dice count and keep for a d20 roll with these modifiers. */
static void roll_shape(mods_t m, int *n, int *keep)
{
    if (m.detriment) {
        /* Detriment with advantage becomes disadvantage. */
        *n = m.adv ? 2 : 4;
        *keep = -1;
    } else if (m.adv && !m.dis) {
        *n = 2;
        *keep = 1;
    } else if (m.dis && !m.adv) {
        *n = 2;
        *keep = -1;
    } else {
        *n = 1;
        *keep = 0;
    }
}

int xhalem_d20(battle_t *b, int who, xh_mods_t m, int bonus, const char *why, int *natural)
{
    int n, keep;
    roll_shape(m, &n, &keep);
    event_t e;
    int total = battle_roll(b, who, n, 20, keep, bonus, why, &e);
    if (natural) *natural = e.kept[0];
    return total;
}

int xh_d20(battle_t *b, int who, mods_t m, int bonus, const char *why, int *natural)
{
    return xhalem_d20(b, who, m, bonus, why, natural);
}

/* Damage bonus: the score the text adds for this kind of weapon. */
int xh_damage_bonus(const battle_t *b, int a, const weapon_t *w)
{
    bool ranged = w && w->cls == WPN_RANGED;
    bool energy = w && w->energy;
    if (is_machine(b, a)) {
        if (!ranged) return stat(b, a, XS_HULL); /* melee, unarmed, thrown */
        return energy ? stat(b, a, XS_REACTOR) : 0;
    }
    return ranged && energy ? 0 : stat(b, a, XS_STRENGTH);
}

double xh_damage_mean(const battle_t *b, int n, int sides, int bonus, bool half)
{
    /* The state is a cache here, not the battle's story: same answer, once. */
    xh_state_t *s = (xh_state_t *)b->rs;
    for (int k = 0; k < s->n_dmg_memo; k++)
        if (s->dmg_memo[k].n == n && s->dmg_memo[k].sides == sides &&
            s->dmg_memo[k].bonus == bonus && s->dmg_memo[k].half == half)
            return s->dmg_memo[k].mean;
    double mean = predict_damage_mean(n, sides, bonus, half);
    if (s->n_dmg_memo < XH_DMG_MEMO && n >= SHRT_MIN && n <= SHRT_MAX && sides >= SHRT_MIN &&
        sides <= SHRT_MAX && bonus >= SHRT_MIN && bonus <= SHRT_MAX) {
        int k = s->n_dmg_memo++;
        s->dmg_memo[k].n = (short)n;
        s->dmg_memo[k].sides = (short)sides;
        s->dmg_memo[k].bonus = (short)bonus;
        s->dmg_memo[k].half = half;
        s->dmg_memo[k].mean = mean;
    }
    return mean;
}

bool xhalem_engage_shape(const battle_t *b, int a, int t, const weapon_t *w, bool opportunity,
                         bool forced, xh_engage_t *out)
{
    const xh_state_t *s = cst(b);
    eng_t g;
    memset(&g, 0, sizeof g);
    *out = g;
    if (!battle_active(b, a) || !battle_active(b, t) || a == t) return false;
    int d = hex_distance(pos(b, a), pos(b, t));
    bool melee = !w || w->cls == WPN_MELEE;
    /* Out of reach first: no sight line to trace for a blade across the map. */
    if (melee && !within_ft(b, d, melee_reach(b, a, w))) return false;
    sight_t sg = sight_trace(b->board, pos(b, a), pos(b, t));
    if (sg.cover == COVER_TOTAL) return false; /* total cover: cannot be targeted */
    if (!melee && !within_ft(b, d, w->range_ft)) {
        g.beyond = true;
        g.atk.dis++;
    }
    g.legal = true;

    bool cloaked = has(b, t, XC_CLOAKED);
    bool hidden = has(b, t, XC_HIDDEN);
    bool sees = xhalem_aware(b, a, t);
    if (!sees && (cloaked || hidden)) {
        /* Engaging what you cannot detect: detriment (cloaked) or disadvantage. */
        if (cloaked && !s->revealed[t])
            g.atk.detriment = true;
        else
            g.atk.dis++;
        if (g.beyond) g.auto_fail = true;
    }
    if (cloaked || (hidden && !sees))
        g.def.adv++; /* it still evades with advantage while cloaked or concealed */
    /* Cover: light partially conceals; heavy conceals against ranged attacks. */
    if (sg.cover == COVER_LIGHT) g.def.adv++;
    if (sg.cover == COVER_HEAVY) {
        g.def.adv++;
        if (!melee) g.atk.dis++;
    }
    /* An attacker its target cannot detect strikes with advantage, unopposed. */
    if ((has(b, a, XC_HIDDEN) || (has(b, a, XC_CLOAKED) && !s->revealed[a])) &&
        !xhalem_aware(b, t, a)) {
        g.unaware = true;
        g.atk.adv++;
    }
    if (melee) {
        int partners[NMAX];
        g.flank_partners = geom_flank_partners(b->board, b->prof, a, t, partners, NMAX);
        if (g.flank_partners > 0) g.atk.adv++;
    }
    /* An assist helps the one ally it named (RULINGS: assist). */
    if (s->assist_on[t] && s->assist_for[t] - 1 == a)
        g.atk.adv++;
    if (opportunity) {
        if (forced)
            g.atk.dis++;
        else
            g.atk.adv++;
    }
    /* Knocked down (ruling, docs/rules-xhalem.md "Prone"): easier to strike
     * from beside it, harder from farther off; a prone attacker (one reacting
     * before it could stand) fights at disadvantage. */
    if (has(b, t, XC_PRONE)) {
        if (d <= 1)
            g.atk.adv++;
        else
            g.atk.dis++;
    }
    if (has(b, a, XC_PRONE)) g.atk.dis++;
    /* Underwater (deep) engagements have disadvantage unless aquatic. */
    if ((immersion(b, a) == DEPTH_DEEP || immersion(b, t) == DEPTH_DEEP) &&
        stat(b, a, XS_AQUATIC) <= 0)
        g.atk.dis++;

    /* The dice, once: both sides' d20s and the damage roll. */
    roll_shape(g.atk, &g.atk_n, &g.atk_keep);
    g.atk_bonus = engage_bonus(b, a);
    g.def_bonus = evade_bonus(b, t);
    if (!g.unaware) roll_shape(g.def, &g.def_n, &g.def_keep);
    g.naturals = !is_machine(b, a);
    /* A flat weapon ("+2") rolls no dice: its bonus is the whole damage. */
    g.dmg_n = w ? w->dice_n : 1;
    g.dmg_sides = w ? w->dice_sides : 4;
    g.dmg_bonus = (w ? w->dice_bonus : 0) + xh_damage_bonus(b, a, w);
    /* Water: full immersion stops fire; any immersion (partial or deep)
     * makes lightning worse. Wading water does neither. */
    g.dmg_factor = 1;
    if (immersion(b, t) == DEPTH_DEEP && battle_weapon_tag(w, "fire"))
        g.dmg_factor = 0;
    else if (immersion(b, t) != DEPTH_NONE && battle_weapon_tag(w, "electric"))
        g.dmg_factor = 2;
    *out = g;
    return true;
}

eng_t xh_assess(const battle_t *b, int a, int t, const weapon_t *w, bool opportunity, bool forced)
{
    eng_t g;
    xhalem_engage_shape(b, a, t, w, opportunity, forced, &g);
    return g;
}

bool xh_contest(battle_t *b, int a, int t, const eng_t *g, const char *why)
{
    xh_state_t *s = st(b);
    event_t re;
    int atk = battle_roll(b, a, g->atk_n, 20, g->atk_keep, g->atk_bonus, why, &re);
    int nat = re.kept[0];
    bool hit;
    if (g->auto_fail) {
        hit = false;
    } else {
        int def = g->def_n <= 0
                      ? g->def_bonus
                      : battle_roll(b, t, g->def_n, 20, g->def_keep, g->def_bonus, "evade", NULL);
        hit = atk > def;
        if (g->naturals && nat == 1) hit = false;
        if (g->naturals && nat == 20) hit = true;
    }
    /* Striking gives an unseen attacker away. */
    if (has(b, a, XC_HIDDEN)) xh_set_cond(b, a, XC_HIDDEN, "hidden", false);
    if (has(b, a, XC_CLOAKED)) s->revealed[a] = 1;
    /* The assist is spent on the named ally's first engagement after it; no
     * one else's strike (the assister's own granted secondary) gains or spends it. */
    if (s->assist_on[t] && s->assist_for[t] - 1 == a) {
        s->assist_on[t] = 0;
        s->assist_for[t] = 0;
        xh_set_cond(b, t, XC_DISTRACTED, "distracted", false);
    }
    return hit;
}

bool xh_engagement(battle_t *b, int a, int t, const weapon_t *w, const eng_t *g)
{
    bool hit = xh_contest(b, a, t, g, "engage");
    event_t e = event_make(EV_ATTACK);
    e.who = a;
    e.target = t;
    e.hit = hit;
    hb_strlcpy(e.name, w ? w->id : "unarmed", sizeof e.name);
    battle_emit(b, &e);
    return hit;
}

/* Damage for a hit of t by a, rolled as the engagement's shape g says. */
void xh_strike_damage(battle_t *b, int a, int t, const eng_t *g)
{
    int dmg = battle_roll(b, a, g->dmg_n, g->dmg_sides, 0, g->dmg_bonus, "damage", NULL);
    if (g->beyond) dmg /= 2;
    dmg *= g->dmg_factor;
    xh_deal_damage(b, t, dmg);
}

/* A full engagement of t by a: roll, then damage on a hit. Returns hit. */
bool xh_strike(battle_t *b, int a, int t, const weapon_t *w, bool opportunity, bool forced)
{
    eng_t g = xh_assess(b, a, t, w, opportunity, forced);
    if (!g.legal) return false;
    bool hit = xh_engagement(b, a, t, w, &g);
    if (hit) xh_strike_damage(b, a, t, &g);
    return hit;
}
