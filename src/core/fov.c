/* fov.c - field of view by shadows on a ring coordinate (see fov.h).
 *
 * Positions: ring d around the eye starts at eye + d * dir(4) and walks d
 * steps along each of the six directions, so position j (0 <= j < 6d) lies
 * on side j / d, j % d steps along it, and its angle is a = j / d in [0, 6).
 * A blocking hex at position b of ring k shades the closed angle interval
 * [(2b - 1) / 2k, (2b + 1) / 2k] (for b = 0 it wraps round through 6 = 0).
 * Angles are kept as exact fractions: no rounding can disagree with the
 * ruling's.
 */
#include "fov.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int64_t n, d; /* n / d, d > 0 */
} frac_t;

struct fov_span {
    frac_t lo, hi; /* a closed interval of angle */
};

/* Ring d's side s starts at eye + d * CORNER[s] and runs along dir(s). */
static const hex_t CORNER[6] = {{-1, 1}, {0, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, 0}};
static const hex_t DIR[6] = {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}};

static inline int cmp_frac(frac_t a, frac_t b)
{
    int64_t x = a.n * b.d, y = b.n * a.d;
    return (x > y) - (x < y);
}

static inline int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

bool fov_scratch_init(fov_scratch_t *s, const map_t *m)
{
    memset(s, 0, sizeof *s);
    /* Shadows are disjoint and each at least 1/dmax wide, dmax the longest
     * distance on the map: at most 6 * dmax of them, and as many new ones
     * on one ring. */
    s->cap = 6 * (m->cols + m->rows + 4) + 64;
    s->shade = malloc(sizeof *s->shade * (size_t)s->cap);
    s->next = malloc(sizeof *s->next * (size_t)s->cap);
    s->add = malloc(sizeof *s->add * (size_t)s->cap);
    return s->shade && s->next && s->add;
}

void fov_scratch_free(fov_scratch_t *s)
{
    free(s->shade);
    free(s->next);
    free(s->add);
    memset(s, 0, sizeof *s);
}

/* Column (k = 0) or row (k = 1) of hex h. */
static inline int coord(hex_layout_t lay, hex_t h, int k)
{
    cell_t c = hex_to_cell(lay, h);
    return k ? c.row : c.col;
}

/* First t in [0, n) where the coordinate k of start + t * dir is >= v (ge)
 * or <= v (!ge), for a predicate that holds from some t on; n if never. */
static int first_t(hex_layout_t lay, hex_t start, hex_t dir, int n, int k, int v, bool ge)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int c = coord(lay, hex_add(start, hex_scale(dir, mid)), k);
        if (ge ? c >= v : c <= v)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The on-map positions of side s of ring d, as [*from, *to] (from > to:
 * none). Along a side both the column and the row are monotone, in all
 * four layouts, so each bound is a binary search. */
static void side_span(const map_t *m, hex_t eye, int d, int s, int *from, int *to)
{
    hex_t start = hex_add(eye, hex_scale(CORNER[s], d)), dir = DIR[s];
    int lo = 0, hi = d - 1;
    const int limit[2] = {m->cols - 1, m->rows - 1};
    for (int k = 0; k < 2 && lo <= hi; k++) {
        int a = coord(m->layout, start, k);
        int b = coord(m->layout, hex_add(start, hex_scale(dir, d - 1)), k);
        if (a <= b) { /* rising: from the first >= 0 to the last <= limit */
            int f = first_t(m->layout, start, dir, d, k, 0, true);
            int l = first_t(m->layout, start, dir, d, k, limit[k] + 1, true) - 1;
            if (f > lo) lo = f;
            if (l < hi) hi = l;
        } else { /* falling: from the first <= limit to the last >= 0 */
            int f = first_t(m->layout, start, dir, d, k, limit[k], false);
            int l = first_t(m->layout, start, dir, d, k, -1, false) - 1;
            if (f > lo) lo = f;
            if (l < hi) hi = l;
        }
    }
    *from = s * d + lo;
    *to = s * d + hi;
}

/* The on-map runs of ring d, one per side at most (so each lies along one
 * side), in position order; 0 when the ring misses the map altogether, and
 * so do all farther rings. */
static int ring_spans(const map_t *m, hex_t eye, cell_t ec, int d, int span[6][2])
{
    if (ec.col - d - 1 >= 0 && ec.col + d + 1 < m->cols && ec.row - d - 1 >= 0 &&
        ec.row + d + 1 < m->rows) {
        for (int s = 0; s < 6; s++) { /* all on the map: each side whole */
            span[s][0] = s * d;
            span[s][1] = s * d + d - 1;
        }
        return 6;
    }
    int n = 0;
    for (int s = 0; s < 6; s++) {
        side_span(m, eye, d, s, &span[n][0], &span[n][1]);
        if (span[n][0] <= span[n][1]) n++;
    }
    return n;
}

typedef struct {
    const map_t *m;
    const bool *blocks;
    hex_t eye;
    int d;
    uint64_t *bits;
    int lo, hi; /* words set */
    fov_span_t *add;
    int n_add;
    bool front, back; /* position 0's shadow, split where the angle wraps */
} ring_t;

static inline void mark(ring_t *r, int idx)
{
    int w = idx >> 6;
    r->bits[w] |= (uint64_t)1 << (idx & 63);
    if (w < r->lo) r->lo = w;
    if (w > r->hi) r->hi = w;
}

/* Shadow of a blocking hex at position jw of the ring being walked. */
static void shade_of(ring_t *r, int jw)
{
    if (jw == 0) {
        r->front = r->back = true;
        return;
    }
    fov_span_t sp = {{2 * (int64_t)jw - 1, 2 * (int64_t)r->d},
                     {2 * (int64_t)jw + 1, 2 * (int64_t)r->d}};
    if (r->n_add > 0 && cmp_frac(sp.lo, r->add[r->n_add - 1].hi) <= 0) {
        r->add[r->n_add - 1].hi = sp.hi; /* touching: one shadow */
        return;
    }
    r->add[r->n_add++] = sp;
}

/* Positions [a, b] of the ring (a <= b, within one side's on-map run; the
 * angle of position j is (j + wrap) / d) against the gap (glo, ghi), closed
 * at glo when closed_lo: mark the ones inside it, shade the blocking ones. */
static void walk(ring_t *r, int a, int b, int wrap, frac_t glo, bool closed_lo, frac_t ghi)
{
    const int d = r->d;
    int s = a / d;
    hex_t h = hex_add(hex_add(r->eye, hex_scale(CORNER[s], d)), hex_scale(DIR[s], a - s * d));
    for (int jw = a; jw <= b; jw++, h = hex_add(h, DIR[s])) {
        cell_t c = hex_to_cell(r->m->layout, h);
        int idx = c.row * r->m->cols + c.col;
        int64_t j = (int64_t)jw + wrap;
        int64_t left = j * glo.d - (int64_t)d * glo.n;
        if ((closed_lo ? left >= 0 : left > 0) && j * ghi.d < (int64_t)d * ghi.n) mark(r, idx);
        if (r->blocks[r->m->cells[idx]]) shade_of(r, jw);
    }
}

/* Candidate positions [ja, jb] (0 <= ja, jb <= 6d) against one gap, over
 * the ring's on-map runs. */
static void gap(ring_t *r, int span[6][2], int n_span, int64_t ja, int64_t jb, frac_t glo,
                bool closed_lo, frac_t ghi)
{
    const int64_t full = 6 * (int64_t)r->d;
    for (int pass = 0; pass < 2; pass++) {
        /* Pass 1: candidates past the last position are position 0 again,
         * at angle 6. */
        int64_t a = pass ? ja - full : ja, b = pass ? jb - full : jb;
        if (a < 0) a = 0;
        if (b > full - 1) b = full - 1;
        for (int k = 0; k < n_span && a <= b; k++) {
            int64_t u = span[k][0] > a ? span[k][0] : a;
            int64_t v = span[k][1] < b ? span[k][1] : b;
            if (u <= v) walk(r, (int)u, (int)v, pass ? (int)full : 0, glo, closed_lo, ghi);
        }
    }
}

/* Merge the sorted disjoint shadows sh[0..n) with the sorted new ones
 * (touching or overlapping shadows join) into out; returns the count. */
static int merge(const fov_span_t *sh, int n, const fov_span_t *ad, int m, fov_span_t *out)
{
    int i = 0, k = 0, o = 0;
    while (i < n || k < m) {
        fov_span_t x = (k >= m || (i < n && cmp_frac(sh[i].lo, ad[k].lo) <= 0)) ? sh[i++] : ad[k++];
        if (o > 0 && cmp_frac(x.lo, out[o - 1].hi) <= 0) {
            if (cmp_frac(x.hi, out[o - 1].hi) > 0) out[o - 1].hi = x.hi;
        } else {
            out[o++] = x;
        }
    }
    return o;
}

void fov_cells(const board_t *b, hex_t eye, uint64_t *bits, int *lo, int *hi, fov_scratch_t *s)
{
    const map_t *m = b->map;
    bool blocks[MAP_MAX_TERRAIN] = {false};
    for (int t = 0; t < m->n_types && t < MAP_MAX_TERRAIN; t++)
        blocks[t] = m->types[t].blocks_sight;
    ring_t r = {.m = m, .blocks = blocks, .eye = eye, .bits = bits, .lo = INT_MAX, .hi = -1};
    cell_t ec = hex_to_cell(m->layout, eye);
    if (!map_in_bounds(m, ec)) {
        *lo = INT_MAX;
        *hi = -1;
        return;
    }
    mark(&r, map_index(m, ec)); /* the eye's own hex */
    int n_shade = 0;
    const frac_t zero = {0, 1}, six = {6, 1};
    for (int d = 1;; d++) {
        /* Everything shaded: nothing farther can be seen. */
        if (n_shade == 1 && cmp_frac(s->shade[0].lo, zero) <= 0 &&
            cmp_frac(s->shade[0].hi, six) >= 0)
            break;
        int span[6][2];
        int n_span = ring_spans(m, eye, ec, d, span);
        if (n_span == 0) break;
        r.d = d;
        r.add = s->add;
        r.n_add = 0;
        r.front = r.back = false;
        frac_t glo = zero;
        bool closed_lo = true;
        for (int g = 0; g <= n_shade; g++) {
            frac_t ghi = g < n_shade ? s->shade[g].lo : six;
            if (cmp_frac(glo, ghi) < 0) {
                /* Positions whose own shadow reaches into the gap: the ones
                 * in it, and one either side at most. */
                int64_t ja = closed_lo ? 0 : floor_div(2 * d * glo.n - glo.d, 2 * glo.d) + 1;
                int64_t jb = -floor_div(-(2 * d * ghi.n + ghi.d), 2 * ghi.d) - 1;
                gap(&r, span, n_span, ja, jb, glo, closed_lo, ghi);
            }
            if (g < n_shade) {
                glo = s->shade[g].hi;
                closed_lo = false;
            }
        }
        /* The new shadows, in angle order: position 0's two halves at the ends. */
        if (r.front || r.back) {
            memmove(r.add + 1, r.add, sizeof *r.add * (size_t)r.n_add);
            r.add[0] = (fov_span_t){{0, 1}, {1, 2 * (int64_t)d}};
            r.add[r.n_add + 1] = (fov_span_t){{12 * (int64_t)d - 1, 2 * (int64_t)d}, {6, 1}};
            r.n_add += 2;
        }
        if (r.n_add > 0) {
            n_shade = merge(s->shade, n_shade, r.add, r.n_add, s->next);
            fov_span_t *t = s->shade;
            s->shade = s->next;
            s->next = t;
        }
    }
    *lo = r.lo;
    *hi = r.hi;
}
