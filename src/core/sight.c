/* sight.c - line of sight and cover (see sight.h, RULINGS "Geometry").
 *
 * Each of the two nudged lines is traced into one stack buffer in turn; they
 * differ only where the true line runs along a hex edge, and there the ruling
 * wants the worse of the two straddling hexes, so results are combined as
 * "blocked if either" and "cover is the max of both". The -e line is drawn
 * only when an exact integer test says the true line meets an edge or corner
 * between its ends; elsewhere it is the +e line over again, and skipping it
 * roughly halves the cost of an all-pairs sweep.
 */
#include "sight.h"

/* The longest line between two hexes of the largest map is under
 * 2 * MAP_MAX_DIM steps, so this bounds every line with on-map endpoints. */
#define LINE_MAX (2 * MAP_MAX_DIM + 2)

typedef struct {
    bool blocked;
    cover_t cover;
} line_result_t;

/* Walk the in-between hexes of one nudged line, generating them as it goes
 * (no buffer), and stop early once blocked, since blocked means total cover. */
static line_result_t trace_line(const board_t *b, hex_t from, hex_t to, int n, hex_nudge_t nudge,
                                bool with_bodies)
{
    hex_lerp_t l = hex_lerp_init(from, to, nudge, n);
    line_result_t res = {false, COVER_NONE};
    const map_t *m = b->map;
    for (int k = 1; k < n; k++) {
        cell_t c = hex_to_cell(m->layout, hex_lerp_at(&l, k));
        if (!map_in_bounds(m, c)) continue; /* off the map: neither blocks nor covers */
        int idx = map_index(m, c);
        const terrain_t *t = &m->types[m->cells[idx]];
        if (t->blocks_sight) {
            res.blocked = true;
            res.cover = COVER_TOTAL;
            return res;
        }
        if (t->cover > res.cover) res.cover = t->cover;
        if (with_bodies && b->occ[idx] >= 0 && res.cover < COVER_LIGHT) res.cover = COVER_LIGHT;
    }
    return res;
}

/* r + d reduced into [0, n), given r in [0, n) and |d| <= n. */
static inline int wrap(int r, int n)
{
    return r >= n ? r - n : r < 0 ? r + n : r;
}

/* Does the exact line a..b (n = distance) pass through a point where hex
 * rounding is ambiguous (a hex edge or corner) strictly between its ends?
 * Only there can the two nudged lines differ. Coordinates are scaled by n so
 * the lerp at i/n is a whole number; rq, rr, rs are its remainders mod n,
 * kept by adding the delta each step, so the walk needs no division. Away
 * from these exact ties every rounding has a margin of at least 1/(2n), far
 * above hex_line's nudge of a few 1e-6, so both lines round alike there. */
static bool touches_edge(hex_t a, hex_t b, int n)
{
    const int dq = b.q - a.q, dr = b.r - a.r, ds = -dq - dr;
    int rq = 0, rr = 0, rs = 0; /* a itself is whole: remainders start at 0 */
    for (int i = 1; i < n; i++) {
        rq = wrap(rq + dq, n);
        rr = wrap(rr + dr, n);
        rs = wrap(rs + ds, n);
        /* Exactly half way: which way it rounds goes with the nudge. */
        if (2 * rq == n || 2 * rr == n || 2 * rs == n) return true;
        int uq = 2 * rq > n, ur = 2 * rr > n, us = 2 * rs > n;
        /* The whole coordinates sum to 0, so the rounded ones do exactly when
         * the round-ups account for the remainders. If not, hex_round resets
         * the coordinate that missed most, and a tie there is ambiguous too. */
        if ((uq + ur + us) * n != rq + rr + rs) {
            int mq = uq ? n - rq : rq, mr = ur ? n - rr : rr, ms = us ? n - rs : rs;
            int m = mq > mr ? mq : mr;
            m = m > ms ? m : ms;
            if ((mq == m) + (mr == m) + (ms == m) > 1) return true;
        }
    }
    return false;
}

sight_t sight_trace(const board_t *b, hex_t from, hex_t to)
{
    sight_t s = {true, COVER_NONE, hex_distance(from, to)};
    if (s.hexes + 1 > LINE_MAX) {
        /* Only hexes far off any map can be this far apart; nothing there is seen. */
        s.visible = false;
        s.cover = COVER_TOTAL;
        return s;
    }
    line_result_t plus = trace_line(b, from, to, s.hexes, HEX_NUDGE_PLUS, true);
    if (plus.blocked) {
        s.visible = false;
        s.cover = COVER_TOTAL;
        return s;
    }
    if (!touches_edge(from, to, s.hexes)) {
        s.cover = plus.cover;
        return s;
    }
    line_result_t minus = trace_line(b, from, to, s.hexes, HEX_NUDGE_MINUS, true);
    if (minus.blocked) {
        s.visible = false;
        s.cover = COVER_TOTAL;
        return s;
    }
    s.cover = plus.cover > minus.cover ? plus.cover : minus.cover;
    return s;
}

/* One nudged line for sight_trace_walls: like trace_line with bodies, but
 * on past a blocking hex, to the first hex that blocks sight and cannot be
 * entered (res.blocked then stands for "walled"). *sight_blocked gets
 * whether anything blocked sight before that. */
static line_result_t trace_walls(const board_t *b, hex_t from, hex_t to, int n, hex_nudge_t nudge,
                                 bool *sight_blocked)
{
    hex_lerp_t l = hex_lerp_init(from, to, nudge, n);
    line_result_t res = {false, COVER_NONE};
    const map_t *m = b->map;
    *sight_blocked = false;
    for (int k = 1; k < n; k++) {
        cell_t c = hex_to_cell(m->layout, hex_lerp_at(&l, k));
        if (!map_in_bounds(m, c)) continue;
        int idx = map_index(m, c);
        const terrain_t *t = &m->types[m->cells[idx]];
        if (t->blocks_sight) {
            *sight_blocked = true;
            if (t->move <= 0) {
                res.blocked = true;
                return res;
            }
        }
        if (t->cover > res.cover) res.cover = t->cover;
        if (b->occ[idx] >= 0 && res.cover < COVER_LIGHT) res.cover = COVER_LIGHT;
    }
    return res;
}

sight_t sight_trace_walls(const board_t *b, hex_t from, hex_t to, bool *walled)
{
    sight_t s = {true, COVER_NONE, hex_distance(from, to)};
    bool blocked_plus, blocked_minus = false;
    if (s.hexes + 1 > LINE_MAX) {
        /* As sight_trace: nothing there is seen. Walls: walk both lines. */
        s.visible = false;
        s.cover = COVER_TOTAL;
        *walled = trace_walls(b, from, to, s.hexes, HEX_NUDGE_PLUS, &blocked_plus).blocked ||
                  trace_walls(b, from, to, s.hexes, HEX_NUDGE_MINUS, &blocked_minus).blocked;
        return s;
    }
    line_result_t plus = trace_walls(b, from, to, s.hexes, HEX_NUDGE_PLUS, &blocked_plus);
    /* Where the true line meets no edge, the -e line is the +e line over again. */
    line_result_t minus = plus;
    if (!plus.blocked && touches_edge(from, to, s.hexes))
        minus = trace_walls(b, from, to, s.hexes, HEX_NUDGE_MINUS, &blocked_minus);
    *walled = plus.blocked || minus.blocked;
    if (*walled || blocked_plus || blocked_minus) {
        s.visible = false;
        s.cover = COVER_TOTAL;
        return s;
    }
    s.cover = plus.cover > minus.cover ? plus.cover : minus.cover;
    return s;
}

bool sight_clear(const board_t *b, hex_t from, hex_t to)
{
    int n = hex_distance(from, to);
    if (n + 1 > LINE_MAX) return false;
    if (trace_line(b, from, to, n, HEX_NUDGE_PLUS, false).blocked) return false;
    return !touches_edge(from, to, n) ||
           !trace_line(b, from, to, n, HEX_NUDGE_MINUS, false).blocked;
}
