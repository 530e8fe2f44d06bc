/* shapes.c - batched triangles for marks and effects (see shapes.h). */
#include "shapes.h"

#include <math.h>
#include <stdlib.h>

#define PI 3.14159265358979323846
#define RING_SEGMENTS 28

const shape_fx_style_t SHAPE_FX_LAPTOP = {2.0, 0.08, 0.55, 0.10};
const shape_fx_style_t SHAPE_FX_TABLE = {3.0, 0.12, 0.70, 0.15};

bool shape_reserve(shape_buf_t *s, int more)
{
    if (s->n + more <= s->cap) return true;
    int cap = s->cap ? s->cap : 1024;
    while (cap < s->n + more)
        cap *= 2;
    SDL_Vertex *v = realloc(s->v, sizeof *v * (size_t)cap);
    if (!v) return false;
    s->v = v;
    s->cap = cap;
    return true;
}

void shape_tri(shape_buf_t *s, vec2_t a, vec2_t b, vec2_t c, SDL_Color col)
{
    if (!shape_reserve(s, 3)) return;
    vec2_t p[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        s->v[s->n++] = (SDL_Vertex){{(float)p[i].x, (float)p[i].y}, col, {0, 0}};
}

void shape_ring(shape_buf_t *s, vec2_t c, double r0, double r1, SDL_Color col)
{
    for (int i = 0; i < RING_SEGMENTS; i++) {
        double a0 = 2 * PI * i / RING_SEGMENTS, a1 = 2 * PI * (i + 1) / RING_SEGMENTS;
        vec2_t in0 = {c.x + cos(a0) * r0, c.y + sin(a0) * r0},
               in1 = {c.x + cos(a1) * r0, c.y + sin(a1) * r0};
        vec2_t out0 = {c.x + cos(a0) * r1, c.y + sin(a0) * r1},
               out1 = {c.x + cos(a1) * r1, c.y + sin(a1) * r1};
        shape_tri(s, in0, out0, out1, col);
        shape_tri(s, in0, out1, in1, col);
    }
}

void shape_segment(shape_buf_t *s, vec2_t a, vec2_t b, double wd, SDL_Color col)
{
    double dx = b.x - a.x, dy = b.y - a.y, len = sqrt(dx * dx + dy * dy);
    if (len < 1e-6) return;
    double nx = -dy / len * wd / 2, ny = dx / len * wd / 2;
    vec2_t q0 = {a.x + nx, a.y + ny}, q1 = {a.x - nx, a.y - ny}, q2 = {b.x - nx, b.y - ny},
           q3 = {b.x + nx, b.y + ny};
    shape_tri(s, q0, q1, q2, col);
    shape_tri(s, q0, q2, q3, col);
}

void shape_arrow(shape_buf_t *s, vec2_t a, vec2_t b, double lw, double head, SDL_Color col)
{
    double dx = b.x - a.x, dy = b.y - a.y, len = sqrt(dx * dx + dy * dy);
    if (len < head) return;
    double ux = dx / len, uy = dy / len, hw = head * 0.6;
    vec2_t neck = {b.x - ux * head, b.y - uy * head};
    shape_segment(s, a, neck, lw, col);
    vec2_t l = {neck.x - uy * hw, neck.y + ux * hw}, r = {neck.x + uy * hw, neck.y - ux * hw};
    shape_tri(s, b, l, r, col);
}

vec2_t shape_toward(vec2_t a, vec2_t b, double d)
{
    double dx = b.x - a.x, dy = b.y - a.y, len = sqrt(dx * dx + dy * dy);
    if (len <= 0) return a;
    return (vec2_t){a.x + dx / len * d, a.y + dy / len * d};
}

bool shape_fx(shape_buf_t *s, const anim_fx_t *f, const ui_camera_t *cam,
              const shape_fx_style_t *style)
{
    double z = cam->zoom;
    double u = f->life > 0 ? f->age / f->life : 1.0;
    vec2_t a = ui_cam_to_screen(cam, f->a);
    Uint8 fade = (Uint8)(255 * (1 - u));
    switch (f->kind) {
    case FX_TRACER: {
        /* A short streak that runs from the shooter to the target. */
        vec2_t b = ui_cam_to_screen(cam, f->b);
        double t0 = fmax(0, u * 1.6 - 0.3), t1 = fmin(1, u * 1.6);
        vec2_t p0 = {a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0};
        vec2_t p1 = {a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1};
        shape_segment(s, p0, p1, fmax(style->line_min_px, z * style->line_zoom),
                      (SDL_Color){255, 240, 160, 255});
        return true;
    }
    case FX_AREA: {
        /* The struck hexes flare up at once, then fade; a hair inset so the
         * grid still shows between them. */
        if (f->n_pts <= 0) return false;
        double rise = u < 0.15 ? u / 0.15 : 1.0;
        SDL_Color c = {216, 27, 96, (Uint8)(255 * style->area_alpha * rise * (1 - u))};
        vec2_t corner[6];
        for (int i = 0; i < 6; i++)
            corner[i] = hex_corner(f->orient, 0.9, i);
        for (int k = 0; k < f->n_pts; k++) {
            vec2_t p[6];
            for (int i = 0; i < 6; i++)
                p[i] = ui_cam_to_screen(cam, (vec2_t){f->pts[k].x + corner[i].x,
                                                      f->pts[k].y + corner[i].y});
            for (int i = 1; i < 5; i++)
                shape_tri(s, p[0], p[i], p[i + 1], c);
        }
        return true;
    }
    case FX_HIT:
        shape_ring(s, a, 0, z * (0.5 + 0.3 * u), (SDL_Color){213, 94, 0, (Uint8)(170 * (1 - u))});
        return true;
    case FX_MISS: {
        double r = z * (0.55 + 0.2 * u);
        shape_ring(s, a, r, r + z * style->miss_band, (SDL_Color){200, 200, 200, fade});
        return true;
    }
    default:
        return false;
    }
}

void shape_flush(shape_buf_t *s, SDL_Renderer *r)
{
    if (s->n) SDL_RenderGeometry(r, NULL, s->v, s->n, NULL, 0);
    s->n = 0;
}

void shape_free(shape_buf_t *s)
{
    free(s->v);
    *s = (shape_buf_t){0};
}

bool ui_grow(void **p, int *cap, int need, size_t elem, int first)
{
    if (need <= *cap) return true;
    int c = *cap ? *cap : first;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, elem * (size_t)c);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}
