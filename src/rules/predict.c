/* predict.c - attack odds without rolling (see predict.h).
 *
 * For xhalem the shape of the engagement (dice, keep, bonuses, naturals,
 * range, damage roll) comes from xhalem_engage_shape(), the same function the
 * ruleset rolls from; this file only turns that shape into odds.
 */
#include "predict.h"

#include <string.h>

#include "../core/sight.h"
#include "ruleset.h"
#include "scars.h"
#include "xhalem.h"


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
    enum { MAXSUM = ROLL_MAX_DICE * 100 + 1 };
    static const int MAXN = ROLL_MAX_DICE, MAXS = 100;
    if (n < 0) n = 0; /* no dice: a flat bonus */
    if (sides < 1) sides = 1;
    if (n > MAXN || sides > MAXS) {
        /* Too big to convolve on the stack: the plain mean, exact while the
         * floor at 0 cannot bite (within half a point when halved). */
        double mean = n * (sides + 1) / 2.0 + bonus;
        if (mean < 0) mean = 0;
        return half ? mean / 2.0 : mean;
    }
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

/* The odds of the engagement shape the ruleset itself rolls (xhalem_engage_shape),
 * so the prediction and the roll can never disagree. */
static bool predict_xhalem(const battle_t *b, int a, int t, int wi, predict_t *out)
{
    const weapon_t *w = battle_weapon(b, a, wi);
    if (wi >= 0 && !w) return false;
    xh_engage_t g;
    if (!xhalem_engage_shape(b, a, t, w, false, false, &g)) return false;
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
    out->dmg_hit = predict_damage_mean(g.dmg_n, g.dmg_sides, g.dmg_bonus, g.beyond) * g.dmg_factor;
    out->dmg_expected = out->p_hit * out->dmg_hit;
    return true;
}

bool predict_engage(const battle_t *b, int a, int t, int w, predict_t *out)
{
    memset(out, 0, sizeof *out);
    if (!b || !battle_active(b, a) || !battle_active(b, t) || a == t) return false;
    const ruleset_t *rs = b->rules;
    if (rs && strcmp(rs->id, "scars") == 0) return scars_predict(b, a, t, w, out);
    if (!rs || strcmp(rs->id, "xhalem") != 0) return false;
    out->valid = predict_xhalem(b, a, t, w, out);
    if (!out->valid) memset(out, 0, sizeof *out);
    return out->valid;
}
