/* pool.c - emcore's dice: pools of d12 counted for successes (E1), and the
 * exact odds of pools against each other, for the AI and the screen. */
#include <string.h>

#include "emcore.h"

int em_pool_dice(int level)
{
    return 1 + (level > 0 ? (level + 1) / 2 : 0);
}

roll_spec_t em_pool_spec(int n, em_pool_mode_t m)
{
    roll_spec_t s = roll_plain(n, 12, 0, 0);
    /* A 1 takes one away whatever counts (E1). */
    s.botch_at = 1;
    s.botch_value = 1;
    if (m == EPOOL_FULL) {
        s.count_at = 8;
        s.crit_at = 10;
        s.crit_value = 2;
    } else {
        /* Only criticals: one each on a hasty shot, still two against cover. */
        s.count_at = 10;
        s.crit_at = m == EPOOL_CRITS2 ? 10 : 0;
        s.crit_value = m == EPOOL_CRITS2 ? 2 : 0;
    }
    return s;
}

int em_face_value(int face, em_pool_mode_t m)
{
    roll_spec_t s = em_pool_spec(1, m);
    return roll_face_successes(&s, face);
}

em_roll_t em_roll(battle_t *b, int who, int n, em_pool_mode_t m, const char *why)
{
    roll_spec_t spec = em_pool_spec(n, m);
    event_t e;
    int net = battle_roll_spec(b, who, &spec, why, &e);
    em_roll_t r = {.n = n, .net = net};
    for (int k = 0; k < e.n_dice; k++) {
        r.botches += e.dice[k] <= 1;
        r.crits += e.dice[k] >= 10;
    }
    r.succ = net > 0 ? net : 0;
    return r;
}

/* Per-die probabilities of -1, 0, +1, +2 in mode m (out of 12 faces). */
static void face_probs(em_pool_mode_t m, double p[4])
{
    int cnt[4] = {0, 0, 0, 0};
    for (int f = 1; f <= 12; f++)
        cnt[em_face_value(f, m) + 1]++;
    for (int k = 0; k < 4; k++)
        p[k] = cnt[k] / 12.0;
}

#define NET_SPAN (3 * EM_POOL_MAX + 1)

/* Distribution of the net of n dice: net[k + n] for k in -n..2n. */
static void net_dist(int n, em_pool_mode_t m, double *net)
{
    double p[4], next[NET_SPAN];
    face_probs(m, p);
    if (n < 0)
        n = 0;
    if (n > EM_POOL_MAX)
        n = EM_POOL_MAX;
    memset(net, 0, sizeof(double) * NET_SPAN);
    /* Offset by EM_POOL_MAX so every partial sum has a slot. */
    net[EM_POOL_MAX] = 1.0;
    for (int d = 0; d < n; d++) {
        memset(next, 0, sizeof next);
        for (int k = 0; k < NET_SPAN; k++) {
            if (net[k] == 0.0)
                continue;
            for (int v = -1; v <= 2; v++)
                if (k + v >= 0 && k + v < NET_SPAN)
                    next[k + v] += net[k] * p[v + 1];
        }
        memcpy(net, next, sizeof next);
    }
}

int em_pool_dist(int n, em_pool_mode_t m, double *dist)
{
    double net[NET_SPAN];
    net_dist(n, m, net);
    int top = 2 * EM_POOL_MAX;
    memset(dist, 0, sizeof(double) * (size_t)(top + 1));
    for (int k = 0; k < NET_SPAN; k++) {
        int v = k - EM_POOL_MAX;
        dist[v > 0 ? v : 0] += net[k];
    }
    while (top > 0 && dist[top] == 0.0)
        top--;
    return top;
}

double em_pool_botch(int n, em_pool_mode_t m)
{
    double net[NET_SPAN], p = 0.0;
    net_dist(n, m, net);
    for (int k = 0; k < EM_POOL_MAX; k++)
        p += net[k];
    return p;
}

em_odds_t em_odds(int atk_n, em_pool_mode_t am, int def_n, int def_fixed, int base, int soak_n)
{
    double atk[2 * EM_POOL_MAX + 1], def[2 * EM_POOL_MAX + 1], soak[2 * EM_POOL_MAX + 1];
    int at = em_pool_dist(atk_n, am, atk);
    int dt = 0;
    if (def_n > 0) {
        dt = em_pool_dist(def_n, EPOOL_FULL, def);
    } else {
        def[0] = 1.0;
        def_fixed = def_fixed > 0 ? def_fixed : 0;
    }
    int st = soak_n > 0 ? em_pool_dist(soak_n, EPOOL_FULL, soak) : 0;
    if (soak_n <= 0)
        soak[0] = 1.0;
    em_odds_t o = {0.0, 0.0, 0.0};
    double msum = 0.0;
    for (int a = 0; a <= at; a++) {
        for (int d = 0; d <= dt; d++) {
            int dv = def_n > 0 ? d : def_fixed;
            double p = atk[a] * def[d];
            if (p == 0.0 || a <= dv)
                continue;
            int margin = a - dv;
            o.p_win += p;
            msum += p * margin;
            for (int s = 0; s <= st; s++) {
                int w = base + margin - s;
                if (w > 0)
                    o.wounds += p * soak[s] * w;
            }
        }
    }
    o.margin = o.p_win > 0.0 ? msum / o.p_win : 0.0;
    return o;
}
