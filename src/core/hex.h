/* hex.h - hex grid algebra: axial/cube coordinates, offset layouts, lines, pixels.
 *
 * Axial hex_t {q, r} is the working coordinate; s = -q - r is implied. Offset
 * cells {col, row} are what map files and the command line use. Conventions
 * follow Red Blob Games' hex guide: pointy hexes stagger rows, flat hexes
 * stagger columns, "odd" shoves the odd rows/columns by half a hex.
 */
#ifndef HB_HEX_H
#define HB_HEX_H

#include <stdbool.h>

typedef struct {
    int q, r;
} hex_t;

typedef struct {
    int col, row;
} cell_t;

typedef struct {
    double x, y;
} vec2_t;

typedef enum { HEX_POINTY = 0, HEX_FLAT = 1 } hex_orient_t;
typedef enum { HEX_ODD = 0, HEX_EVEN = 1 } hex_stagger_t;

typedef struct {
    hex_orient_t orient;
    hex_stagger_t stagger;
} hex_layout_t;

/* The six directions, counter-clockwise starting east (pointy) / south-east (flat). */
#define HEX_DIRS 6

static inline int hex_s(hex_t h)
{
    return -h.q - h.r;
}
static inline hex_t hex_make(int q, int r)
{
    return (hex_t){q, r};
}
static inline bool hex_eq(hex_t a, hex_t b)
{
    return a.q == b.q && a.r == b.r;
}
static inline hex_t hex_add(hex_t a, hex_t b)
{
    return (hex_t){a.q + b.q, a.r + b.r};
}
static inline hex_t hex_sub(hex_t a, hex_t b)
{
    return (hex_t){a.q - b.q, a.r - b.r};
}
static inline hex_t hex_scale(hex_t a, int k)
{
    return (hex_t){a.q * k, a.r * k};
}

/* Unit offset for direction d (taken modulo 6). Inline, as the next three:
 * path searches, sight lines and area walks call them at every hex. */
static inline hex_t hex_dir(int d)
{
    static const hex_t DIRS[HEX_DIRS] = {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}};
    d %= HEX_DIRS;
    if (d < 0) d += HEX_DIRS;
    return DIRS[d];
}
/* The neighbour of h in direction d. */
static inline hex_t hex_neighbor(hex_t h, int d)
{
    return hex_add(h, hex_dir(d));
}
/* Length of h seen as a vector from the origin. */
static inline int hex_length(hex_t h)
{
    int a = h.q < 0 ? -h.q : h.q, b = h.r < 0 ? -h.r : h.r, s = hex_s(h), c = s < 0 ? -s : s;
    int m = a > b ? a : b;
    return m > c ? m : c;
}
/* Cube distance max(|dq|,|dr|,|ds|). */
static inline int hex_distance(hex_t a, hex_t b)
{
    return hex_length(hex_sub(a, b));
}
/* Rotate 60 degrees about the origin (left = counter-clockwise in cube terms). */
hex_t hex_rotate_left(hex_t h);
hex_t hex_rotate_right(hex_t h);

/* Offset cell -> axial hex for the given layout. (Inline: the sight tracer
 * and the path search convert at every step.) n & 1 is the parity for
 * negative n too. */
static inline hex_t hex_from_cell(hex_layout_t lay, cell_t c)
{
    if (lay.orient == HEX_POINTY) {
        int shove = lay.stagger == HEX_ODD ? (c.row - (c.row & 1)) / 2 : (c.row + (c.row & 1)) / 2;
        return (hex_t){c.col - shove, c.row};
    }
    int shove = lay.stagger == HEX_ODD ? (c.col - (c.col & 1)) / 2 : (c.col + (c.col & 1)) / 2;
    return (hex_t){c.col, c.row - shove};
}
/* Axial hex -> offset cell for the given layout. */
static inline cell_t hex_to_cell(hex_layout_t lay, hex_t h)
{
    if (lay.orient == HEX_POINTY) {
        int shove = lay.stagger == HEX_ODD ? (h.r - (h.r & 1)) / 2 : (h.r + (h.r & 1)) / 2;
        return (cell_t){h.q + shove, h.r};
    }
    int shove = lay.stagger == HEX_ODD ? (h.q - (h.q & 1)) / 2 : (h.q + (h.q & 1)) / 2;
    return (cell_t){h.q, h.r + shove};
}

/* Write the ring of radius k around c (k >= 0; k == 0 gives c) into out.
 * Returns the number of hexes (6k, or 1), writing at most cap of them. */
int hex_ring(hex_t c, int k, hex_t *out, int cap);
/* Spiral of rings 0..k around c; returns 1 + 3k(k+1), writing at most cap. */
int hex_spiral(hex_t c, int k, hex_t *out, int cap);

/* Nearest integer, halves away from zero (as round()), without the libm call:
 * sight traces round three coordinates per hex of thousands of lines. */
static inline double hex_round_half_away(double x)
{
    return (double)(long long)(x >= 0.0 ? x + 0.5 : x - 0.5);
}

/* Round fractional cube coordinates to the nearest hex. */
static inline hex_t hex_round(double fq, double fr, double fs)
{
    double q = hex_round_half_away(fq), r = hex_round_half_away(fr), s = hex_round_half_away(fs);
    double dq = q > fq ? q - fq : fq - q;
    double dr = r > fr ? r - fr : fr - r;
    double ds = s > fs ? s - fs : fs - s;
    if (dq > dr && dq > ds)
        q = -r - s;
    else if (dr > ds)
        r = -q - s;
    return (hex_t){(int)q, (int)r};
}

/* The fractional cube point a hex line visits: endpoints a and b nudged by
 * +e or -e, and the step between its points. hex_line and the sight tracer
 * share it so both round exactly the same points. */
typedef struct {
    double q, r, s;    /* the nudged start */
    double dq, dr, ds; /* nudged end minus nudged start */
    double inv;        /* 1 / distance, or 0 for a one-hex line */
} hex_lerp_t;

/* Which way to nudge the endpoints of a hex line (RULINGS: +e or -e). */
typedef enum { HEX_NUDGE_PLUS = 1, HEX_NUDGE_MINUS = -1 } hex_nudge_t;

/* Set up the walk from a to b with the given nudge. */
static inline hex_lerp_t hex_lerp_init(hex_t a, hex_t b, hex_nudge_t nudge, int n)
{
    double e = (double)nudge;
    double aq = a.q + 1e-6 * e, ar = a.r + 2e-6 * e, as = -a.q - a.r - 3e-6 * e;
    double bq = b.q + 1e-6 * e, br = b.r + 2e-6 * e, bs = -b.q - b.r - 3e-6 * e;
    return (hex_lerp_t){aq, ar, as, bq - aq, br - ar, bs - as, n == 0 ? 0.0 : 1.0 / n};
}

/* The i-th hex of the walk. */
static inline hex_t hex_lerp_at(const hex_lerp_t *l, int i)
{
    double t = i * l->inv;
    return hex_round(l->q + l->dq * t, l->r + l->dr * t, l->s + l->ds * t);
}

/* Hexes of the line a..b, both endpoints included: distance+1 hexes, each the
 * rounded cube lerp at i/N with the endpoints nudged by +e or -e where
 * e = (1e-6, 2e-6, -3e-6). Returns the count, writing at most cap. */
int hex_line(hex_t a, hex_t b, hex_nudge_t nudge, hex_t *out, int cap);

/* Centre of hex h in pixels, for hexes of circumradius size, origin at hex (0,0). */
vec2_t hex_to_pixel(hex_orient_t o, double size, hex_t h);
/* The hex containing pixel p, for the same geometry. */
hex_t hex_from_pixel(hex_orient_t o, double size, vec2_t p);
/* Offset of corner i (0..5) from a hex centre. */
vec2_t hex_corner(hex_orient_t o, double size, int i);
/* Centre-to-centre spacing: horizontal (x) and vertical (y) step between hexes. */
vec2_t hex_spacing(hex_orient_t o, double size);

#endif
