/* predict.c - attack odds without rolling (see predict.h): the shared
 * helpers that turn a roll's shape into odds, and the call into the
 * ruleset's predict hook. Nothing here knows a ruleset.
 */
#include "predict.h"

#include <string.h>

#include "ruleset.h"


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
    /* below[m]: the chance the defender's kept face is at most m, summed
     * face by face from 1 in the order a direct double loop would add them,
     * so the result is the same to the last bit, at 20 steps instead of 400. */
    double below[21];
    below[0] = 0.0;
    for (int d = 1; d <= 20; d++)
        below[d] = below[d - 1] + (dn > 0 ? predict_kept_face(dn, dkeep, d) : 0.0);
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
        /* The attacker wins against faces d < a + abonus - dbonus. */
        int m = a + abonus - dbonus - 1;
        double win = below[m < 0 ? 0 : m > 20 ? 20 : m];
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
    /* Only dist[0..top] is ever read, and each step writes all of it: no
     * clearing of the whole (large) buffer, which cost more than the sums. */
    double dist[MAXSUM], next[MAXSUM];
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

bool predict_cmd(const battle_t *b, const cmd_t *c, predict_t *out)
{
    memset(out, 0, sizeof *out);
    const ruleset_t *rs = b ? b->rules : NULL;
    if (!rs || !c || !rs->predict) return false;
    int a = c->actor, t = c->target;
    if (a < 0 || a >= b->n || t < 0 || t >= b->n || a == t) return false;
    if (!battle_active(b, a) || !battle_active(b, t)) return false;
    if (!rs->predict(b, c, out) || !out->valid) {
        memset(out, 0, sizeof *out);
        return false;
    }
    return true;
}

bool predict_engage(const battle_t *b, int a, int t, int w, predict_t *out)
{
    cmd_t c = cmd_make(CMD_ENGAGE, a);
    c.target = t;
    c.weapon = w;
    return predict_cmd(b, &c, out);
}
