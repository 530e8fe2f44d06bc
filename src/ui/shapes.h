/* shapes.h - a growing batch of flat-coloured triangles, and the simple
 * shapes the play screen and the projector draw with it: bands, rings, hexes
 * and the attack effects. One SDL_RenderGeometry call draws the whole batch.
 *
 * The buffer only grows; once it has reached a frame's size, later frames
 * allocate nothing.
 */
#ifndef HB_UI_SHAPES_H
#define HB_UI_SHAPES_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>

#include "anim.h"
#include "camera.h"

typedef struct {
    SDL_Vertex *v;
    int n, cap; /* vertices */
} shape_buf_t;

/* How heavily the effects are drawn: the table's are bolder than the laptop's. */
typedef struct {
    double line_min_px; /* a tracer is at least this wide */
    double line_zoom;   /* ... and this many hex radii wide */
    double area_alpha;  /* an area's hexes at their brightest (0..1) */
    double miss_band;   /* the miss ring's width, in hex radii */
} shape_fx_style_t;

extern const shape_fx_style_t SHAPE_FX_LAPTOP, SHAPE_FX_TABLE;

/* Room for `more` vertices; false when memory ran out (the shape is dropped). */
bool shape_reserve(shape_buf_t *s, int more);
/* Grow the plain array *p of elem-sized items (capacity *cap) to hold need
 * of them: doubling from `first` (or from *cap); false on OOM, *p kept. */
bool ui_grow(void **p, int *cap, int need, size_t elem, int first);
void shape_tri(shape_buf_t *s, vec2_t a, vec2_t b, vec2_t c, SDL_Color col);
/* An annulus between radii r0 and r1 (r0 = 0: a disc). */
void shape_ring(shape_buf_t *s, vec2_t c, double r0, double r1, SDL_Color col);
/* A band of width wd from a to b; nothing when they coincide. */
void shape_segment(shape_buf_t *s, vec2_t a, vec2_t b, double wd, SDL_Color col);
/* An arrow from a to b: a band lw wide, a head `head` long at b; nothing
 * when a and b are closer than the head. */
void shape_arrow(shape_buf_t *s, vec2_t a, vec2_t b, double lw, double head, SDL_Color col);
/* a moved d towards b (a itself when they coincide). */
vec2_t shape_toward(vec2_t a, vec2_t b, double d);
/* The shape of effect f seen through cam (tracer, an area's hexes, hit flash,
 * miss ring); false for the kinds drawn otherwise (lunges, numbers) and for an
 * area that struck no hex. */
bool shape_fx(shape_buf_t *s, const anim_fx_t *f, const ui_camera_t *cam,
              const shape_fx_style_t *style);
/* Draw the batch with r's current blend mode and empty it. */
void shape_flush(shape_buf_t *s, SDL_Renderer *r);
void shape_free(shape_buf_t *s);

#endif
