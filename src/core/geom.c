/* geom.c - footprints, reach, paths, threat and flanking (see geom.h).
 *
 * Everything that asks "where is combatant i" goes through its footprint, so
 * when sizes grow past one hex only geom_footprint has to learn the shapes.
 */
#include "geom.h"

/* Largest footprint any size will need (a 7-hex flower); room to spare. */
#define FOOTPRINT_MAX 19

int geom_ft_to_hexes(const map_t *m, int ft)
{
    int fph = m->feet_per_hex > 0 ? m->feet_per_hex : 1;
    if (ft <= 0)
        return 1;
    int h = ft / fph + (ft % fph != 0);
    return h < 1 ? 1 : h;
}

int geom_footprint(const board_t *b, int i, hex_t *out, int cap)
{
    if (cap > 0)
        out[0] = b->pos[i];
    return 1;
}

/* Footprint of i into a local buffer; returns the count actually held. */
static int footprint(const board_t *b, int i, hex_t fp[FOOTPRINT_MAX])
{
    int n = geom_footprint(b, i, fp, FOOTPRINT_MAX);
    return n < FOOTPRINT_MAX ? n : FOOTPRINT_MAX;
}

static bool in_set(const hex_t *set, int n, hex_t h)
{
    for (int k = 0; k < n; k++)
        if (hex_eq(set[k], h))
            return true;
    return false;
}

/* Round a cost up to the movement interval (none when interval <= 1). */
static int round_up(int cost, int interval)
{
    if (interval <= 1)
        return cost;
    return (cost + interval - 1) / interval * interval;
}

/* The ordinary step (path_move_cost) for a move_cost_t. */
static int plain_step(void *ud, int from, int to)
{
    const move_cost_t *mc = ud;
    path_mover_t mv = {mc->board, mc->who};
    return path_move_cost(&mv, from, to);
}

void geom_move_plain(const board_t *b, int i, int budget_ft, int interval_ft, move_cost_t *out)
{
    *out = (move_cost_t){.step = plain_step,
                         .budget_ft = budget_ft,
                         .interval_ft = interval_ft,
                         .board = b,
                         .who = i};
}

/* May mc's mover end on cell c (not its start): nobody holds it, and the
 * mode agrees. */
static bool may_end_on(const move_cost_t *mc, int c)
{
    return mc->board->occ[c] < 0 && (!mc->may_end || mc->may_end(mc, c));
}

int geom_reach_mode(const move_cost_t *mc, path_search_t *ps, geom_reach_t *out, int cap)
{
    const board_t *b = mc->board;
    int i = mc->who;
    if (mc->budget_ft < 0 || i < 0 || i >= b->n || !b->present[i])
        return 0;
    int start = board_cell_index(b, b->pos[i]);
    if (start < 0)
        return 0;
    /* A rounded cost fits the budget exactly when the raw cost fits the budget
     * floored to the interval, so the search can stop there. */
    int iv = mc->interval_ft;
    int limit = iv > 1 ? mc->budget_ft / iv * iv : mc->budget_ft;
    path_run(ps, b, start, limit, -1, mc->step, (void *)mc);

    const int *settled;
    int ns = path_settled(ps, &settled);
    int n = 0;
    for (int k = 0; k < ns; k++) {
        int c = settled[k];
        if (c == start || !may_end_on(mc, c))
            continue; /* may pass allies, never stop on anyone */
        if (n < cap) {
            out[n].at = map_cell_of(b->map, c);
            out[n].cost_ft = round_up(path_cost(ps, c), iv);
        }
        n++;
    }
    return n;
}

int geom_reach(const board_t *b, int i, int budget_ft, int interval_ft, path_search_t *ps,
               geom_reach_t *out, int cap)
{
    move_cost_t mc;
    geom_move_plain(b, i, budget_ft, interval_ft, &mc);
    return geom_reach_mode(&mc, ps, out, cap);
}

bool geom_path_mode(const move_cost_t *mc, cell_t goal, path_search_t *ps, int *cost_ft,
                    cell_t *path, int cap, int *len)
{
    *cost_ft = 0;
    *len = 0;
    const board_t *b = mc->board;
    const map_t *m = b->map;
    int start = board_cell_index(b, b->pos[mc->who]);
    if (start < 0 || !map_in_bounds(m, goal))
        return false;
    int g = map_index(m, goal);
    if (g == start) {
        if (cap > 0)
            path[0] = goal;
        *len = 1;
        return true;
    }
    if (map_terrain_at(m, goal)->move <= 0 || !may_end_on(mc, g))
        return false;

    path_run(ps, b, start, PATH_NO_BUDGET, g, mc->step, (void *)mc);
    int cost = path_cost(ps, g);
    if (cost < 0)
        return false;

    int n = 0;
    for (int c = g; c >= 0; c = path_parent(ps, c))
        n++;
    int k = n;
    for (int c = g; c >= 0; c = path_parent(ps, c))
        if (--k < cap)
            path[k] = map_cell_of(m, c);
    *cost_ft = round_up(cost, mc->interval_ft);
    *len = n < cap ? n : cap;
    return true;
}

bool geom_path(const board_t *b, int i, cell_t goal, int interval_ft, path_search_t *ps,
               int *cost_ft, cell_t *path, int cap, int *len)
{
    move_cost_t mc;
    geom_move_plain(b, i, PATH_NO_BUDGET, interval_ft, &mc);
    return geom_path_mode(&mc, goal, ps, cost_ft, path, cap, len);
}

int geom_path_price(const move_cost_t *mc, const cell_t *path, int n)
{
    const board_t *b = mc->board;
    const map_t *m = b->map;
    if (n < 1 || mc->who < 0 || mc->who >= b->n)
        return -1;
    int start = board_cell_index(b, b->pos[mc->who]);
    if (start < 0)
        return -1;
    int at = start;
    hex_t ah = b->pos[mc->who];
    long cost = 0;
    for (int k = 0; k < n; k++) {
        if (!map_in_bounds(m, path[k]))
            return -1;
        hex_t h = hex_from_cell(m->layout, path[k]);
        if (hex_distance(ah, h) != 1)
            return -1;
        int idx = map_index(m, path[k]);
        int step = mc->step((void *)mc, at, idx);
        if (step < 0)
            return -1;
        cost += step;
        if (cost > PATH_NO_BUDGET)
            return -1;
        at = idx;
        ah = h;
    }
    if (at != start && !may_end_on(mc, at))
        return -1;
    return round_up((int)cost, mc->interval_ft);
}

/* The threat test with the footprint already in hand: h is another hex on the
 * map, within k hexes of a footprint hex that has clear sight to it. */
static bool threatens_from(const board_t *b, const hex_t *fp, int nfp, int k, hex_t h)
{
    if (board_cell_index(b, h) < 0 || in_set(fp, nfp, h))
        return false;
    for (int f = 0; f < nfp; f++)
        if (hex_distance(fp[f], h) <= k && sight_clear(b, fp[f], h))
            return true;
    return false;
}

int geom_threat(const board_t *b, int i, int reach_ft, hex_t *out, int cap)
{
    hex_t fp[FOOTPRINT_MAX];
    int nfp = footprint(b, i, fp);
    int k = geom_ft_to_hexes(b->map, reach_ft);
    hex_t c = b->pos[i];
    int spread = 0; /* how far the footprint strays from pos */
    for (int f = 0; f < nfp; f++) {
        int d = hex_distance(c, fp[f]);
        spread = d > spread ? d : spread;
    }
    int r = k + spread;
    int n = 0;
    for (int dq = -r; dq <= r; dq++) {
        int lo = -r > -dq - r ? -r : -dq - r;
        int hi = r < -dq + r ? r : -dq + r;
        for (int dr = lo; dr <= hi; dr++) {
            hex_t h = {c.q + dq, c.r + dr};
            if (!threatens_from(b, fp, nfp, k, h))
                continue;
            if (n < cap)
                out[n] = h;
            n++;
        }
    }
    return n;
}

bool geom_threatens(const board_t *b, int i, int reach_ft, hex_t h)
{
    hex_t fp[FOOTPRINT_MAX];
    int nfp = footprint(b, i, fp);
    return threatens_from(b, fp, nfp, geom_ft_to_hexes(b->map, reach_ft), h);
}

bool geom_opposite(hex_t a, hex_t b)
{
    long cross = (long)a.q * b.r - (long)a.r * b.q;
    long dot = (long)a.q * b.q + (long)a.r * b.r + (long)hex_s(a) * hex_s(b);
    return cross == 0 && dot < 0;
}

/* Fewest hexes between any hex of one footprint and any of another. */
static int gap(const hex_t *p, int np, const hex_t *q, int nq)
{
    int best = -1;
    for (int x = 0; x < np; x++)
        for (int y = 0; y < nq; y++) {
            int d = hex_distance(p[x], q[y]);
            if (best < 0 || d < best)
                best = d;
        }
    return best;
}

/* x may take part in flanking t: its melee reach covers a hex of t and it
 * stands within its flanking distance of t. */
static bool flank_ready(const board_t *b, const geo_profile_t *prof, int x, const hex_t *tfp,
                        int ntfp)
{
    if (prof[x].flank_ft <= 0)
        return false;
    hex_t fp[FOOTPRINT_MAX];
    int nfp = footprint(b, x, fp);
    if (gap(fp, nfp, tfp, ntfp) > geom_ft_to_hexes(b->map, prof[x].flank_ft))
        return false;
    int k = geom_ft_to_hexes(b->map, prof[x].reach_ft);
    for (int t = 0; t < ntfp; t++)
        if (threatens_from(b, fp, nfp, k, tfp[t]))
            return true;
    return false;
}

/* Some hex of a and some hex of p point exactly opposite ways from some hex of t. */
static bool stand_opposite(const board_t *b, int a, int p, const hex_t *tfp, int ntfp)
{
    hex_t afp[FOOTPRINT_MAX], pfp[FOOTPRINT_MAX];
    int na = footprint(b, a, afp), np = footprint(b, p, pfp);
    for (int t = 0; t < ntfp; t++)
        for (int x = 0; x < na; x++)
            for (int y = 0; y < np; y++)
                if (geom_opposite(hex_sub(afp[x], tfp[t]), hex_sub(pfp[y], tfp[t])))
                    return true;
    return false;
}

int geom_flank_partners(const board_t *b, const geo_profile_t *prof, int a, int t, int *out,
                        int cap)
{
    if (prof[a].flank_ft <= 0 || a == t || !b->present[a] || !b->present[t])
        return 0;
    hex_t tfp[FOOTPRINT_MAX];
    int ntfp = footprint(b, t, tfp);
    if (!flank_ready(b, prof, a, tfp, ntfp))
        return 0;
    int n = 0;
    for (int p = 0; p < b->n; p++) {
        if (p == a || p == t || !b->present[p] || !board_allies(b, a, p))
            continue;
        if (!flank_ready(b, prof, p, tfp, ntfp) || !stand_opposite(b, a, p, tfp, ntfp))
            continue;
        if (n < cap)
            out[n] = p;
        n++;
    }
    return n;
}
