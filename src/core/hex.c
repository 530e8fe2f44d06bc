/* hex.c - hex grid algebra (see hex.h). */
#include "hex.h"

#include <math.h>
#include <stddef.h>

/* In cube terms, left takes (q,r,s) to (-s,-q,-r) and right to (-r,-s,-q). */
hex_t hex_rotate_left(hex_t h)
{
    return (hex_t){-hex_s(h), -h.q};
}
hex_t hex_rotate_right(hex_t h)
{
    return (hex_t){-h.r, -hex_s(h)};
}

int hex_ring(hex_t c, int k, hex_t *out, int cap)
{
    if (k <= 0) {
        if (cap > 0) out[0] = c;
        return 1;
    }
    int n = 0;
    hex_t h = hex_add(c, hex_scale(hex_dir(4), k));
    for (int side = 0; side < HEX_DIRS; side++) {
        for (int j = 0; j < k; j++) {
            if (n < cap) out[n] = h;
            n++;
            h = hex_neighbor(h, side);
        }
    }
    return n;
}

int hex_spiral(hex_t c, int k, hex_t *out, int cap)
{
    int n = 0;
    for (int ring = 0; ring <= k; ring++) {
        int room = cap - n;
        /* Once the buffer is full, keep counting without touching out. */
        n += room > 0 ? hex_ring(c, ring, out + n, room) : hex_ring(c, ring, NULL, 0);
    }
    return n;
}

int hex_line(hex_t a, hex_t b, hex_nudge_t nudge, hex_t *out, int cap)
{
    int n = hex_distance(a, b);
    hex_lerp_t l = hex_lerp_init(a, b, nudge, n);
    for (int i = 0; i <= n && i < cap; i++)
        out[i] = hex_lerp_at(&l, i);
    return n + 1;
}

#define SQRT3 1.7320508075688772

vec2_t hex_to_pixel(hex_orient_t o, double size, hex_t h)
{
    if (o == HEX_POINTY)
        return (vec2_t){size * (SQRT3 * h.q + SQRT3 / 2.0 * h.r), size * (1.5 * h.r)};
    return (vec2_t){size * (1.5 * h.q), size * (SQRT3 / 2.0 * h.q + SQRT3 * h.r)};
}

hex_t hex_from_pixel(hex_orient_t o, double size, vec2_t p)
{
    double q, r;
    if (o == HEX_POINTY) {
        q = (SQRT3 / 3.0 * p.x - 1.0 / 3.0 * p.y) / size;
        r = (2.0 / 3.0 * p.y) / size;
    } else {
        q = (2.0 / 3.0 * p.x) / size;
        r = (-1.0 / 3.0 * p.x + SQRT3 / 3.0 * p.y) / size;
    }
    return hex_round(q, r, -q - r);
}

vec2_t hex_corner(hex_orient_t o, double size, int i)
{
    double deg = 60.0 * i - (o == HEX_POINTY ? 30.0 : 0.0);
    double rad = deg * 3.14159265358979323846 / 180.0;
    return (vec2_t){size * cos(rad), size * sin(rad)};
}

vec2_t hex_spacing(hex_orient_t o, double size)
{
    if (o == HEX_POINTY) return (vec2_t){SQRT3 * size, 1.5 * size};
    return (vec2_t){1.5 * size, SQRT3 * size};
}
