/* sight.c - line of sight and cover (see sight.h, RULINGS "Geometry").
 *
 * The two nudged lines differ only where the true line runs along a hex edge
 * or through a corner, and there the ruling wants the worse of the two
 * straddling hexes, so results are combined as "blocked if either" and
 * "cover is the max of both".
 *
 * A line's hexes, taken relative to its start, depend only on the delta
 * b - a: the rounded points are a + round(nudge + (b - a) * i / n), and the
 * nudge keeps every rounding at least 1e-6 from a tie, so where the line
 * starts never changes how it rounds (tests/test_hex.c checks this). Short
 * lines (the common case: every pair of hexes on the bundled maps) therefore
 * read their in-between hexes, for both nudges at once, from a table filled
 * once per delta on first use and shared by every thread: a trace is then
 * one add per hex. Longer lines lerp in floating point as hex_line does; the
 * -e line is drawn there only when an exact integer test says the true line
 * meets an edge or corner between its ends.
 */
#include "sight.h"

#include <stdatomic.h>
#include <stddef.h>

/* The longest line between two hexes of the largest map is under
 * 2 * MAP_MAX_DIM steps, so this bounds every line with on-map endpoints. */
#define LINE_MAX (2 * MAP_MAX_DIM + 2)

typedef struct {
    bool blocked;
    cover_t cover;
} line_result_t;

/* How a trace treats a hex that blocks sight: stop there (TRACE_SIGHT), or
 * note it and go on to the first one that also cannot be entered, a wall
 * (TRACE_WALLS; res.blocked then stands for "walled"). */
typedef enum { TRACE_SIGHT, TRACE_WALLS } trace_mode_t;

/* Take cell idx into res. Returns true when the trace may stop. */
static inline bool look_at_cell(const board_t *b, int idx, bool with_bodies, trace_mode_t mode,
                                line_result_t *res, bool *sight_blocked)
{
    const terrain_t *t = &b->map->types[b->map->cells[idx]];
    if (t->blocks_sight) {
        *sight_blocked = true;
        if (mode == TRACE_SIGHT) {
            res->blocked = true;
            res->cover = COVER_TOTAL; /* blocked means total cover */
            return true;
        }
        if (t->move <= 0) {
            res->blocked = true;
            return true;
        }
    }
    if (t->cover > res->cover) res->cover = t->cover;
    if (with_bodies && b->occ[idx] >= 0 && res->cover < COVER_LIGHT) res->cover = COVER_LIGHT;
    return false;
}

/* The same for hex h; off the map it neither blocks nor covers. */
static inline bool look_at(const board_t *b, hex_t h, bool with_bodies, trace_mode_t mode,
                           line_result_t *res, bool *sight_blocked)
{
    const map_t *m = b->map;
    cell_t c = hex_to_cell(m->layout, h);
    if (!map_in_bounds(m, c)) return false;
    return look_at_cell(b, map_index(m, c), with_bodies, mode, res, sight_blocked);
}

/* ------------------------------------------------------------ short lines */

/* Lines of up to SHORT_MAX hexes use the table. */
#define SHORT_MAX 48
#define SHORT_SIDE (2 * SHORT_MAX + 1)
#define SHORT_SLOTS (SHORT_SIDE * SHORT_SIDE)

/* Step k of a line relative to its start: the +e hex and the -e hex. */
typedef struct {
    int8_t pq, pr, mq, mr;
} short_step_t;

enum { SLOT_EMPTY, SLOT_FILLING, SLOT_READY };

/* One slot per delta (dq, dr) with |dq|, |dr| <= SHORT_MAX, indexed by
 * short_slot. Static (no allocation, zero pages until used). A slot's steps
 * and split flag are written by the one thread that moved it from EMPTY to
 * FILLING, and read by anyone only after the release store of READY. */
static short_step_t short_steps[SHORT_SLOTS][SHORT_MAX - 1];
static bool short_split[SHORT_SLOTS]; /* do the two lines part anywhere? */
static atomic_uchar short_state[SHORT_SLOTS];

/* Fill slot s with the steps of the line from the origin to d (n = its
 * length), exactly as hex_line would round them. */
static void short_fill(int s, hex_t d, int n)
{
    hex_t o = {0, 0};
    hex_lerp_t lp = hex_lerp_init(o, d, HEX_NUDGE_PLUS, n), lm = hex_lerp_init(o, d, HEX_NUDGE_MINUS, n);
    bool split = false;
    for (int k = 1; k < n; k++) {
        hex_t p = hex_lerp_at(&lp, k), m = hex_lerp_at(&lm, k);
        short_steps[s][k - 1] = (short_step_t){(int8_t)p.q, (int8_t)p.r, (int8_t)m.q, (int8_t)m.r};
        split |= !hex_eq(p, m);
    }
    short_split[s] = split;
}

/* The table's steps for the line from a to b (n = distance), filling them on
 * first use; NULL when the line is too long, or while another thread is
 * filling that slot (the caller then traces in floating point: same answer). */
static const short_step_t *short_line(hex_t a, hex_t b, int n, bool *split)
{
    hex_t d = hex_sub(b, a);
    if (n > SHORT_MAX) return NULL;
    int s = (d.q + SHORT_MAX) * SHORT_SIDE + (d.r + SHORT_MAX);
    unsigned char st = atomic_load_explicit(&short_state[s], memory_order_acquire);
    if (st != SLOT_READY) {
        unsigned char empty = SLOT_EMPTY;
        if (st != SLOT_EMPTY ||
            !atomic_compare_exchange_strong_explicit(&short_state[s], &empty, SLOT_FILLING,
                                                     memory_order_acquire, memory_order_relaxed))
            return NULL;
        short_fill(s, d, n);
        atomic_store_explicit(&short_state[s], SLOT_READY, memory_order_release);
    }
    *split = short_split[s];
    return short_steps[s];
}

/* The in-bounds cell index at hex offset (dq, dr) from cell c0, or -1,
 * without going back to hexes. Offset cells shove every other row (pointy)
 * or column (flat) by half a hex, so the cell offset along the other axis
 * is the hex offset plus floor((par + major) / 2), where major is the offset
 * along the shoved axis and par the start's parity on it, flipped for even
 * staggers (tests/test_sight.c checks this against hex_to_cell). */
static inline int cell_at(const map_t *m, cell_t c0, int par, bool pointy, int dq, int dr)
{
    int major = pointy ? dr : dq, minor = pointy ? dq : dr;
    minor += ((par + major + 2 * SHORT_MAX) >> 1) - SHORT_MAX; /* floor, as the sum is >= 0 */
    int col = c0.col + (pointy ? minor : major), row = c0.row + (pointy ? major : minor);
    if ((unsigned)col >= (unsigned)m->cols || (unsigned)row >= (unsigned)m->rows) return -1;
    return row * m->cols + col;
}

/* Both nudged lines from the table: the -e hex is looked at only where it
 * parts from the +e one. pointy is passed as a constant so each layout gets
 * its own loop. */
static inline line_result_t walk_short(const board_t *b, hex_t from, const short_step_t *st, int n,
                                       bool split, bool with_bodies, trace_mode_t mode,
                                       bool *sight_blocked, bool pointy)
{
    const map_t *m = b->map;
    line_result_t res = {false, COVER_NONE};
    cell_t c0 = hex_to_cell(m->layout, from);
    int par = ((pointy ? c0.row : c0.col) & 1) ^ (m->layout.stagger == HEX_EVEN);
    for (int k = 0; k < n - 1; k++) {
        int idx = cell_at(m, c0, par, pointy, st[k].pq, st[k].pr);
        if (idx >= 0 && look_at_cell(b, idx, with_bodies, mode, &res, sight_blocked)) return res;
        if (split && (st[k].mq != st[k].pq || st[k].mr != st[k].pr)) {
            idx = cell_at(m, c0, par, pointy, st[k].mq, st[k].mr);
            if (idx >= 0 && look_at_cell(b, idx, with_bodies, mode, &res, sight_blocked)) return res;
        }
    }
    return res;
}

static inline line_result_t trace_short(const board_t *b, hex_t from, const short_step_t *st, int n,
                                        bool split, bool with_bodies, trace_mode_t mode,
                                        bool *sight_blocked)
{
    if (b->map->layout.orient == HEX_POINTY)
        return walk_short(b, from, st, n, split, with_bodies, mode, sight_blocked, true);
    return walk_short(b, from, st, n, split, with_bodies, mode, sight_blocked, false);
}

/* ------------------------------------------------------------- long lines */

/* Walk the in-between hexes of one nudged line, generating them as it goes
 * (no buffer), and stop early once the answer is known. */
static line_result_t trace_line(const board_t *b, hex_t from, hex_t to, int n, hex_nudge_t nudge,
                                bool with_bodies, trace_mode_t mode, bool *sight_blocked)
{
    hex_lerp_t l = hex_lerp_init(from, to, nudge, n);
    line_result_t res = {false, COVER_NONE};
    for (int k = 1; k < n; k++)
        if (look_at(b, hex_lerp_at(&l, k), with_bodies, mode, &res, sight_blocked)) break;
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

/* ------------------------------------------------------------ both lines */

/* Both nudged lines from `from` to `to` (n = distance), combined: blocked
 * (or walled) if either is, cover the worse of the two, *sight_blocked if
 * anything blocked sight on either (TRACE_WALLS). */
static inline line_result_t trace_pair(const board_t *b, hex_t from, hex_t to, int n, bool with_bodies,
                                trace_mode_t mode, bool *sight_blocked)
{
    *sight_blocked = false;
    bool split;
    const short_step_t *st = short_line(from, to, n, &split);
    if (st) return trace_short(b, from, st, n, split, with_bodies, mode, sight_blocked);
    line_result_t plus = trace_line(b, from, to, n, HEX_NUDGE_PLUS, with_bodies, mode, sight_blocked);
    /* Where the true line meets no edge, the -e line is the +e line over again. */
    if (plus.blocked || !touches_edge(from, to, n)) return plus;
    line_result_t minus = trace_line(b, from, to, n, HEX_NUDGE_MINUS, with_bodies, mode, sight_blocked);
    if (minus.blocked) return minus;
    if (minus.cover > plus.cover) plus.cover = minus.cover;
    return plus;
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
    bool sight_blocked;
    line_result_t r = trace_pair(b, from, to, s.hexes, true, TRACE_SIGHT, &sight_blocked);
    s.visible = !r.blocked;
    s.cover = r.cover;
    return s;
}

static sight_t trace_walls(const board_t *b, hex_t from, hex_t to, bool with_bodies, bool *walled)
{
    sight_t s = {true, COVER_NONE, hex_distance(from, to)};
    bool sight_blocked;
    line_result_t r = trace_pair(b, from, to, s.hexes, with_bodies, TRACE_WALLS, &sight_blocked);
    *walled = r.blocked;
    /* Beyond LINE_MAX only hexes far off any map: as sight_trace, nothing is seen. */
    if (r.blocked || sight_blocked || s.hexes + 1 > LINE_MAX) {
        s.visible = false;
        s.cover = COVER_TOTAL;
        return s;
    }
    s.cover = r.cover;
    return s;
}

sight_t sight_trace_walls(const board_t *b, hex_t from, hex_t to, bool *walled)
{
    return trace_walls(b, from, to, true, walled);
}

sight_t sight_trace_terrain(const board_t *b, hex_t from, hex_t to, bool *walled)
{
    return trace_walls(b, from, to, false, walled);
}

bool sight_clear(const board_t *b, hex_t from, hex_t to)
{
    int n = hex_distance(from, to);
    if (n + 1 > LINE_MAX) return false;
    bool sight_blocked;
    return !trace_pair(b, from, to, n, false, TRACE_SIGHT, &sight_blocked).blocked;
}
