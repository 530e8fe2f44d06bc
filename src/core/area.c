/* area.c - area templates (see area.h and docs/geometry.md, "Areas").
 *
 * Shapes are judged on hex centres in a frame where neighbouring centres lie
 * 1 apart: an axial offset (q, r) has squared length q*q + q*r + r*r, twice
 * the dot product of two offsets is an integer, and so is their cross product
 * divided by sqrt(3)/2. Those integers decide every cone and line test, so a
 * centre exactly on an edge (a 60-degree cone's diagonals) always lands the
 * same way, and the six rotations of the grid, which keep dots and crosses,
 * give rotated areas. Both layouts map axial offsets to the same lengths and
 * angles (one is the other mirrored), so the answer does not depend on them.
 */
#include "area.h"

#include <math.h>
#include <string.h>

#include "sight.h"

/* Cone half-angles wider than this (about 89 degrees) are refused. */
#define TAN_MAX 64.0
/* A centre this close (relative) to a cone's edge counts as on it: covers the
 * rounding in a tangent such as AREA_TAN_30, far below any real gap. */
#define EDGE_TOL 1e-9
/* No shape reaches farther than any two hexes of the largest map. */
#define RADIUS_MAX (2 * MAP_MAX_DIM + 2)

static const char *const SHAPE_NAMES[AREA_SHAPE_COUNT] = {
    [AREA_BURST] = "burst", [AREA_BLAST] = "blast", [AREA_CONE] = "cone", [AREA_LINE] = "line"};

area_t area_burst(hex_t center, int radius)
{
    return (area_t){AREA_BURST, center, center, radius, 1, 0.0};
}

area_t area_blast(hex_t origin, hex_t at, int radius)
{
    return (area_t){AREA_BLAST, origin, at, radius, 1, 0.0};
}

area_t area_cone(hex_t origin, hex_t aim, int length, double tan_half)
{
    return (area_t){AREA_CONE, origin, aim, length, 1, tan_half};
}

area_t area_line(hex_t origin, hex_t aim, int length, int width)
{
    return (area_t){AREA_LINE, origin, aim, length, width, 0.0};
}

hex_t area_center(const area_t *a)
{
    return a->shape == AREA_BLAST ? a->aim : a->origin;
}

/* Twice the dot product of offsets u and v in the unit frame. */
static long long dot2(hex_t u, hex_t v)
{
    return 2LL * u.q * v.q + (long long)u.q * v.r + (long long)u.r * v.q + 2LL * u.r * v.r;
}

/* Squared length of offset v in the unit frame. */
static long long norm2(hex_t v)
{
    return (long long)v.q * v.q + (long long)v.q * v.r + (long long)v.r * v.r;
}

/* The cross product of u and v over sqrt(3)/2 (its sign says which side). */
static long long cross(hex_t u, hex_t v)
{
    return (long long)u.q * v.r - (long long)u.r * v.q;
}

static bool valid_tan(double t)
{
    return t >= 0.0 && t <= TAN_MAX; /* false for NaN too */
}

/* Centre of h strictly ahead of the apex and no farther along the axis d than
 * length: 0 < t <= length, where t = dot / |d| = D / (2 |d|). */
static bool in_slab(long long dd, long long len2_times4_norm)
{
    return dd > 0 && dd * dd <= len2_times4_norm;
}

/* What a cone's test reads for every hex, worked out once per cone. */
typedef struct {
    bool ok;          /* the cone is not empty */
    hex_t d;          /* its axis, aim - origin */
    long long slab;   /* 4 size^2 |d|^2, in_slab's bound */
} cone_pre_t;

static cone_pre_t cone_pre(const area_t *a)
{
    cone_pre_t c = {false, hex_sub(a->aim, a->origin), 0};
    if (a->size <= 0 || hex_length(c.d) == 0 || !valid_tan(a->tan_half)) return c;
    long long len = a->size;
    c.ok = true;
    c.slab = 4 * len * len * norm2(c.d);
    return c;
}

static bool cone_has_pre(const area_t *a, const cone_pre_t *pre, hex_t h)
{
    if (!pre->ok) return false;
    hex_t v = hex_sub(h, a->origin);
    long long dd = dot2(v, pre->d);
    if (!in_slab(dd, pre->slab)) return false;
    /* |perpendicular| <= t * tan: (sqrt3/2 |C|)^2 <= (D/2)^2 tan^2. */
    double c = (double)cross(v, pre->d), dv = (double)dd;
    return 3.0 * c * c <= dv * dv * a->tan_half * a->tan_half * (1.0 + EDGE_TOL);
}

static bool cone_has(const area_t *a, hex_t h)
{
    cone_pre_t pre = cone_pre(a);
    return cone_has_pre(a, &pre, h);
}

hex_lerp_t area_line_walk(const area_t *a)
{
    /* The walk of hex_lerp_init, with both ends moved by one nudge that turns
     * with the line: a hair to its left (n, the direction turned a quarter
     * turn: R(d) - R^-1(d) in cube terms, R a sixth of a turn) and a smaller
     * hair forward. Where the true line runs along an edge or through one,
     * the hex on its left is taken, whichever way the line points, so the six
     * rotations of a line are the same line turned. */
    hex_t d = hex_sub(a->aim, a->origin);
    int n = hex_length(d);
    double dq = d.q, dr = d.r, ds = -dq - dr;
    double nq = dr - ds, nr = ds - dq, ns = dq - dr;
    double side = n ? 1e-6 / n : 0.0, ahead = n ? 1e-9 / n : 0.0;
    double q0 = a->origin.q + side * nq + ahead * dq, r0 = a->origin.r + side * nr + ahead * dr;
    double s0 = -a->origin.q - a->origin.r + side * ns + ahead * ds;
    return (hex_lerp_t){q0, r0, s0, dq, dr, ds, n ? 1.0 / n : 0.0};
}

/* Hexes of the line's spine: step i (1..size) of area_line_walk, carried on
 * past aim when the line is longer. */
static bool line_has(const area_t *a, hex_t h)
{
    int n = hex_distance(a->origin, a->aim);
    if (a->size <= 0 || n == 0) return false;
    int half = a->width > 1 ? (a->width - 1) / 2 : 0;
    int far = hex_distance(a->origin, h);
    if (far < 1 || far > a->size + half + 1) return false;
    hex_lerp_t l = area_line_walk(a);
    bool near_spine = false;
    for (int i = 1; i <= a->size; i++) {
        int d = hex_distance(hex_lerp_at(&l, i), h);
        if (d == 0) return true; /* the spine itself: the width-1 line */
        if (d <= half) near_spine = true;
    }
    if (!near_spine) return false;
    /* Widened hexes stay between the apex and the line's end, across its
     * axis: 0 < t <= size * |d| / n, that is 0 < D and D * n <= 2 size |d|^2. */
    hex_t d = hex_sub(a->aim, a->origin);
    long long dd = dot2(hex_sub(h, a->origin), d);
    return dd > 0 && dd * n <= 2LL * a->size * norm2(d);
}

bool area_shape_has(const area_t *a, hex_t h)
{
    switch (a->shape) {
    case AREA_BURST:
    case AREA_BLAST:
        return a->size >= 0 && hex_distance(area_center(a), h) <= a->size;
    case AREA_CONE:
        return cone_has(a, h);
    case AREA_LINE:
        return line_has(a, h);
    default:
        return false;
    }
}

bool area_covers(const board_t *b, const area_t *a, hex_t h)
{
    return area_shape_has(a, h) && board_cell_index(b, h) >= 0 && sight_clear(b, area_center(a), h);
}

/* How far (in hexes) from its centre the shape can reach; -1 when empty. */
static int reach_of(const area_t *a)
{
    if (a->size < 0) return -1;
    double r;
    switch (a->shape) {
    case AREA_BURST:
    case AREA_BLAST:
        r = a->size;
        break;
    case AREA_CONE:
        if (!valid_tan(a->tan_half)) return -1;
        /* Farthest centre: sqrt(1 + tan^2) * size away; a hex step is at
         * least sqrt(3)/2 long. */
        r = ceil(a->size * sqrt(1.0 + a->tan_half * a->tan_half) * 1.1547005383792515) + 1;
        break;
    case AREA_LINE:
        r = a->size + (a->width > 1 ? (a->width - 1) / 2 : 0) + 1;
        break;
    default:
        return -1;
    }
    return r > RADIUS_MAX ? RADIUS_MAX : (int)r;
}

int area_max_hexes(const area_t *a)
{
    int r = reach_of(a);
    return r < 0 ? 0 : 1 + 3 * r * (r + 1);
}

/* area_covers, with a cone's invariants worked out once (pre, for cones). */
static void visit(const board_t *b, const area_t *a, const cone_pre_t *pre, hex_t h, hex_t *out,
                  int cap, int *n)
{
    bool in = a->shape == AREA_CONE ? cone_has_pre(a, pre, h) : area_shape_has(a, h);
    if (!in || board_cell_index(b, h) < 0 || !sight_clear(b, area_center(a), h)) return;
    if (*n < cap) out[*n] = h;
    (*n)++;
}

int area_hexes(const board_t *b, const area_t *a, hex_t *out, int cap)
{
    int reach = reach_of(a), n = 0;
    hex_t c = area_center(a);
    cone_pre_t pre = cone_pre(a);
    for (int k = 0; k <= reach; k++) {
        if (k == 0) {
            visit(b, a, &pre, c, out, cap, &n);
            continue;
        }
        /* Ring k, walked as hex_ring does, without a buffer. */
        hex_t h = hex_add(c, hex_scale(hex_dir(4), k));
        for (int side = 0; side < HEX_DIRS; side++)
            for (int j = 0; j < k; j++) {
                visit(b, a, &pre, h, out, cap, &n);
                h = hex_neighbor(h, side);
            }
    }
    return n;
}

const char *area_shape_name(area_shape_t s)
{
    return (unsigned)s < AREA_SHAPE_COUNT ? SHAPE_NAMES[s] : "?";
}

int area_shape_parse(const char *name)
{
    for (int s = 0; s < AREA_SHAPE_COUNT; s++)
        if (strcmp(name, SHAPE_NAMES[s]) == 0) return s;
    return -1;
}

event_t area_event(const map_t *m, int who, int target, const area_t *a)
{
    event_t e = event_make(EV_AREA);
    e.who = who;
    e.target = target;
    e.from = hex_to_cell(m->layout, a->origin);
    e.to = hex_to_cell(m->layout, a->aim);
    e.value = a->size;
    e.amount = a->shape == AREA_LINE ? a->width : 0;
    e.tan_half = a->shape == AREA_CONE ? a->tan_half : 0.0;
    hb_strlcpy(e.name, area_shape_name(a->shape), sizeof e.name);
    return e;
}

area_t area_from_event(const map_t *m, const event_t *e)
{
    int s = area_shape_parse(e->name);
    area_t a = {s < 0 ? AREA_SHAPE_COUNT : (area_shape_t)s,
                hex_from_cell(m->layout, e->from),
                hex_from_cell(m->layout, e->to),
                e->value,
                e->amount,
                e->tan_half};
    return a;
}
