/* predict.c - attack odds without rolling (see predict.h).
 *
 * The xhalem reading mirrors the engagement rules (RULINGS.md): d20 +
 * Agility/Systems against d20 + Evasion/Engine, strictly higher hits, cover,
 * range, flanking, hiding and assists shift advantage. Only public battle state
 * is read, so the ruleset's own file stays the one that acts.
 */
#include "predict.h"

#include <string.h>

#include "../core/sight.h"
#include "ruleset.h"
#include "xhalem.h"

#define NMAX MAP_MAX_COMBATANTS

double predict_kept_face(int n, int keep, int k)
{
    if (k < 1 || k > 20 || n < 1) return 0.0;
    if (n == 1 || keep == 0) return 1.0 / 20.0;
    double hi = 1.0, lo = 1.0;
    if (keep > 0) {
        /* P(max <= k) - P(max <= k-1) */
        for (int i = 0; i < n; i++) {
            hi *= k / 20.0;
            lo *= (k - 1) / 20.0;
        }
    } else {
        /* P(min >= k) - P(min >= k+1) */
        for (int i = 0; i < n; i++) {
            hi *= (21 - k) / 20.0;
            lo *= (20 - k) / 20.0;
        }
    }
    return hi - lo;
}

double predict_d20_beats(int an, int akeep, int abonus, int dn, int dkeep, int dbonus,
                         bool naturals)
{
    double p = 0.0;
    for (int a = 1; a <= 20; a++) {
        double pa = predict_kept_face(an, akeep, a);
        if (naturals && a == 1) continue;
        if (naturals && a == 20) {
            p += pa;
            continue;
        }
        if (dn <= 0) {
            p += a + abonus > dbonus ? pa : 0.0;
            continue;
        }
        double win = 0.0;
        for (int d = 1; d <= 20; d++)
            if (a + abonus > d + dbonus) win += predict_kept_face(dn, dkeep, d);
        p += pa * win;
    }
    return p;
}

double predict_damage_mean(int n, int sides, int bonus, bool half)
{
    /* Exact distribution of the dice sum by convolution: halving and the floor
     * at 0 are not linear, so the plain mean would be wrong near 0. */
    enum { MAXSUM = 24 * 100 + 1 };
    static const int MAXN = 24, MAXS = 100;
    if (n < 1) n = 1;
    if (n > MAXN) n = MAXN;
    if (sides < 1) sides = 1;
    if (sides > MAXS) sides = MAXS;
    double dist[MAXSUM], next[MAXSUM];
    memset(dist, 0, sizeof dist);
    dist[0] = 1.0;
    int top = 0;
    for (int i = 0; i < n; i++) {
        memset(next, 0, sizeof(double) * (size_t)(top + sides + 1));
        for (int s = 0; s <= top; s++)
            if (dist[s] > 0)
                for (int f = 1; f <= sides; f++)
                    next[s + f] += dist[s] / sides;
        top += sides;
        memcpy(dist, next, sizeof(double) * (size_t)(top + 1));
    }
    double mean = 0.0;
    for (int s = 0; s <= top; s++) {
        int v = s + bonus;
        if (v < 0) v = 0;
        if (half) v /= 2;
        mean += dist[s] * v;
    }
    return mean;
}

static int stat_of(const battle_t *b, int i, int s)
{
    return b->u[i].stat[s];
}
static bool machine(const battle_t *b, int i)
{
    return b->map->combatants[i].kind == KIND_MACHINE;
}
static bool in_water(const battle_t *b, int i)
{
    cell_t c = hex_to_cell(b->map->layout, b->board->pos[i]);
    return strcmp(map_terrain_at(b->map, c)->name, "water") == 0;
}

/* Dice shape of a d20 roll under these modifiers (as the ruleset rolls it). */
static void shape(xh_mods_t m, int *n, int *keep)
{
    if (m.detriment) {
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

static bool predict_xhalem(const battle_t *b, int a, int t, int wi, predict_t *out)
{
    const xh_state_t *s = (const xh_state_t *)b->rs;
    const weapon_t *w = battle_weapon(b, a, wi);
    if (wi >= 0 && !w) return false;
    hex_t pa = b->board->pos[a], pt = b->board->pos[t];
    sight_t sg = sight_trace(b->board, pa, pt);
    if (sg.cover == COVER_TOTAL) return false;
    int ft = hex_distance(pa, pt) * b->map->feet_per_hex;
    bool melee = !w || w->cls == WPN_MELEE;
    xh_mods_t atk = {0, 0, false}, def = {0, 0, false};
    if (melee) {
        int reach = (w && w->reach_ft > 0) ? w->reach_ft : b->prof[a].reach_ft;
        if (ft > reach) return false;
    } else if (ft > w->range_ft) {
        out->beyond = true;
        atk.dis++;
    }
    bool cloaked = (b->u[t].cond & XC_CLOAKED) != 0, hidden = (b->u[t].cond & XC_HIDDEN) != 0;
    if (!xhalem_aware(b, a, t) && (cloaked || hidden)) {
        if (cloaked && !s->revealed[t])
            atk.detriment = true;
        else
            atk.dis++;
        if (out->beyond) return true; /* valid, but it cannot hit: p_hit stays 0 */
    }
    if (cloaked || hidden) def.adv++;
    if (sg.cover == COVER_LIGHT) def.adv++;
    if (sg.cover == COVER_HEAVY) {
        def.adv++;
        if (!melee) atk.dis++;
    }
    bool unaware = false;
    if (((b->u[a].cond & XC_HIDDEN) || ((b->u[a].cond & XC_CLOAKED) && !s->revealed[a])) &&
        !xhalem_aware(b, t, a)) {
        unaware = true;
        atk.adv++;
    }
    if (melee) {
        int partners[NMAX];
        if (geom_flank_partners(b->board, b->prof, a, t, partners, NMAX) > 0) atk.adv++;
    }
    int as = s->assist_on[t] - 1;
    if (s->assist_on[t] && !board_allies(b->board, as, t) && board_allies(b->board, as, a) &&
        as != a)
        atk.adv++;
    if ((in_water(b, a) || in_water(b, t)) && stat_of(b, a, XS_AQUATIC) <= 0) atk.dis++;

    shape(atk, &out->atk_n, &out->atk_keep);
    out->atk_bonus = stat_of(b, a, machine(b, a) ? XS_SYSTEMS : XS_AGILITY);
    out->def_bonus = stat_of(b, t, machine(b, t) ? XS_ENGINE : XS_EVASION);
    if (unaware) {
        out->def_n = 0;
        out->def_keep = 0;
    } else {
        shape(def, &out->def_n, &out->def_keep);
    }
    out->naturals = !machine(b, a);
    out->p_hit = predict_d20_beats(out->atk_n, out->atk_keep, out->atk_bonus, out->def_n,
                                   out->def_keep, out->def_bonus, out->naturals);

    /* Damage bonus as the rules add it for this weapon class. */
    bool ranged = w && w->cls == WPN_RANGED, energy = w && w->energy;
    int dbonus;
    if (machine(b, a))
        dbonus = !ranged ? stat_of(b, a, XS_HULL) : energy ? stat_of(b, a, XS_REACTOR) : 0;
    else
        dbonus = ranged && energy ? 0 : stat_of(b, a, XS_STRENGTH);
    int n = w ? w->dice_n : 1, sides = w ? w->dice_sides : 4, fixed = w ? w->dice_bonus : 0;
    out->dmg_n = n;
    out->dmg_sides = sides;
    out->dmg_bonus = fixed + dbonus;
    double mean = predict_damage_mean(n, sides, fixed + dbonus, out->beyond);
    if (in_water(b, t) && battle_weapon_tag(w, "fire")) mean = 0.0;
    if (in_water(b, t) && battle_weapon_tag(w, "electric")) mean *= 2.0;
    out->dmg_hit = mean;
    out->dmg_expected = out->p_hit * mean;
    return true;
}

bool predict_engage(const battle_t *b, int a, int t, int w, predict_t *out)
{
    memset(out, 0, sizeof *out);
    if (!b || !battle_active(b, a) || !battle_active(b, t) || a == t) return false;
    const ruleset_t *rs = b->rules;
    if (!rs || strcmp(rs->id, "xhalem") != 0) return false;
    out->valid = predict_xhalem(b, a, t, w, out);
    if (!out->valid) memset(out, 0, sizeof *out);
    return out->valid;
}
