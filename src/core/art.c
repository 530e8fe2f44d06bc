/* art.c - a map's own pictures (art.h). */
#include "art.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

map_art_t *art_create(void)
{
    return calloc(1, sizeof(map_art_t));
}

void art_destroy(map_art_t *a)
{
    if (!a) return;
    free(a->gids);
    free(a->imgs);
    free(a);
}

map_art_t *art_clone(const map_art_t *a, size_t n)
{
    if (!a) return NULL;
    map_art_t *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *a;
    c->gids = NULL;
    c->imgs = NULL;
    if (a->gids && !(c->gids = malloc(n * sizeof *c->gids))) goto oom;
    if (a->imgs && !(c->imgs = malloc(ART_MAX_IMAGES * sizeof *c->imgs))) goto oom;
    if (a->gids) memcpy(c->gids, a->gids, n * sizeof *c->gids);
    if (a->imgs) memcpy(c->imgs, a->imgs, ART_MAX_IMAGES * sizeof *c->imgs);
    return c;
oom:
    art_destroy(c);
    return NULL;
}

const art_set_t *art_set_of(const map_art_t *a, uint32_t gid)
{
    const art_set_t *best = NULL;
    gid &= ART_GID_MASK;
    if (!a || !gid) return NULL;
    /* Tiled: a gid belongs to the set with the largest firstgid not above it. */
    for (int i = 0; i < a->n_sets; i++)
        if (a->sets[i].firstgid <= gid && (!best || a->sets[i].firstgid > best->firstgid))
            best = &a->sets[i];
    return best;
}

const char *art_tile_image(const map_art_t *a, uint32_t gid, int *x, int *y, int *w, int *h)
{
    const art_set_t *s = art_set_of(a, gid);
    if (!s) return NULL;
    long id = (long)(gid & ART_GID_MASK) - (long)s->firstgid;
    if (s->columns > 0) {
        if (id >= s->tilecount || !s->image[0]) return NULL;
        *x = s->margin + (int)(id % s->columns) * (s->tw + s->spacing);
        *y = s->margin + (int)(id / s->columns) * (s->th + s->spacing);
        *w = s->tw;
        *h = s->th;
        return s->image;
    }
    for (int i = s->first_img; i < s->first_img + s->n_img && i < a->n_imgs; i++)
        if (a->imgs[i].id == id) {
            *x = *y = *w = *h = 0; /* the whole picture */
            return a->imgs[i].image;
        }
    return NULL;
}

bool art_any(const map_art_t *a)
{
    return a && (a->gids || a->bg[0]);
}

static bool shoved(hex_stagger_t st, int i)
{
    return ((i & 1) != 0) != (st == HEX_EVEN);
}

vec2_t art_tiled_center(const map_art_t *a, hex_layout_t layout, int col, int row)
{
    if (layout.orient == HEX_FLAT) {
        double col_w = (a->tw - a->side) / 2.0 + a->side;
        return (vec2_t){col * col_w + a->tw / 2.0,
                        row * a->th + (shoved(layout.stagger, col) ? a->th / 2.0 : 0) +
                            a->th / 2.0};
    }
    double row_h = (a->th - a->side) / 2.0 + a->side;
    return (vec2_t){col * a->tw + (shoved(layout.stagger, row) ? a->tw / 2.0 : 0) + a->tw / 2.0,
                    row * row_h + a->th / 2.0};
}

art_xform_t art_xform(const map_art_t *a, hex_layout_t layout)
{
    /* Cells (0,0), (2,0) and (0,2) are shoved alike in both pixel layouts:
     * the steps between them give the scale, cell (0,0) the offset. */
    vec2_t t0 = art_tiled_center(a, layout, 0, 0), tx = art_tiled_center(a, layout, 2, 0),
           ty = art_tiled_center(a, layout, 0, 2);
    vec2_t w0 = hex_to_pixel(layout.orient, 1.0, hex_from_cell(layout, (cell_t){0, 0}));
    vec2_t wx = hex_to_pixel(layout.orient, 1.0, hex_from_cell(layout, (cell_t){2, 0}));
    vec2_t wy = hex_to_pixel(layout.orient, 1.0, hex_from_cell(layout, (cell_t){0, 2}));
    art_xform_t f;
    f.kx = tx.x != t0.x ? (wx.x - w0.x) / (tx.x - t0.x) : 1.0;
    f.ky = ty.y != t0.y ? (wy.y - w0.y) / (ty.y - t0.y) : 1.0;
    f.ox = w0.x - f.kx * t0.x;
    f.oy = w0.y - f.ky * t0.y;
    return f;
}

/* The centre of hex (0, 0), where the picture's offset is counted from. */
static vec2_t origin(hex_layout_t layout)
{
    return hex_to_pixel(layout.orient, 1.0, hex_from_cell(layout, (cell_t){0, 0}));
}

/* Neighbouring hexes' centres lie sqrt(3) hex radii apart, and `scale`
 * picture pixels apart: picture pixel q lies at world c00 + (q - o) * sqrt(3) / scale. */
vec2_t art_bg_pixel(const map_art_t *a, hex_layout_t layout, vec2_t w)
{
    vec2_t c = origin(layout);
    return (vec2_t){a->bg_ox + (w.x - c.x) * a->bg_sx / sqrt(3.0),
                    a->bg_oy + (w.y - c.y) * a->bg_sy / sqrt(3.0)};
}

vec2_t art_bg_world(const map_art_t *a, hex_layout_t layout, vec2_t q)
{
    vec2_t c = origin(layout);
    return (vec2_t){c.x + (q.x - a->bg_ox) * sqrt(3.0) / a->bg_sx,
                    c.y + (q.y - a->bg_oy) * sqrt(3.0) / a->bg_sy};
}

bool art_align(map_art_t *a, hex_layout_t layout, cell_t c1, vec2_t q1, vec2_t q2, int n)
{
    double d = hypot(q2.x - q1.x, q2.y - q1.y);
    if (n < 1 || !(d > 0)) return false;
    double scale = d / n;
    vec2_t w1 = hex_to_pixel(layout.orient, 1.0, hex_from_cell(layout, c1)), c = origin(layout);
    a->bg_sx = a->bg_sy = scale;
    a->bg_ox = q1.x - (w1.x - c.x) * scale / sqrt(3.0);
    a->bg_oy = q1.y - (w1.y - c.y) * scale / sqrt(3.0);
    return true;
}
