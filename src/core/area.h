/* area.h - area templates: burst, blast, cone and line, on the hex grid.
 *
 * An area is a small value (area_t) built by one of the constructors below;
 * area_hexes lists the map hexes it covers. Which hexes a shape holds is
 * decided on hex centres with exact integer arithmetic (docs/geometry.md,
 * "Areas"), so every layout and every rotation gives the same answer, and
 * every shape is then cut by line of effect from its centre: the same
 * nudged-line test as sight (sight_clear), so whatever blocks sight stops an
 * area and shields the hexes behind it. Rules, overlays and the animation all
 * call these functions, so what is drawn is what is struck.
 *
 * Lengths are whole hexes; callers convert feet first (geom_ft_to_hexes).
 * Nothing here allocates: callers pass the output buffer.
 */
#ifndef HB_AREA_H
#define HB_AREA_H

#include <stdbool.h>

#include "board.h"
#include "event.h"

typedef enum {
    AREA_BURST = 0, /* every hex within `size` of origin, origin included */
    AREA_BLAST,     /* a burst centred on aim (where it lands), thrown from origin */
    AREA_CONE,      /* from origin towards aim, `size` long, half-angle atan(tan_half) */
    AREA_LINE,      /* the hex line from origin towards aim, `size` hexes, `width` across */
    AREA_SHAPE_COUNT
} area_shape_t;

typedef struct {
    area_shape_t shape;
    hex_t origin;    /* burst centre; blast thrower; cone and line apex */
    hex_t aim;       /* blast centre; the hex a cone or line points at (burst: origin) */
    int size;        /* radius (burst, blast) or length (cone, line), in hexes */
    int width;       /* line: hexes across, odd (an even width counts as one less) */
    double tan_half; /* cone: tangent of the half-angle (0.25 for surface, AREA_TAN_30) */
} area_t;

/* tan(30 degrees): the half-angle of a 60-degree cone. */
#define AREA_TAN_30 0.57735026918962576

/* A burst of radius r around center. */
area_t area_burst(hex_t center, int radius);
/* A blast of radius r around at, thrown from origin (line of effect runs from at). */
area_t area_blast(hex_t origin, hex_t at, int radius);
/* A cone from origin towards aim, length hexes along its axis. */
area_t area_cone(hex_t origin, hex_t aim, int length, double tan_half);
/* A line from origin towards aim, length hexes long and width hexes across. */
area_t area_line(hex_t origin, hex_t aim, int length, int width);

/* The walk a line's spine follows (hex_lerp_at at 1..size): the hex line
 * from origin through aim with its ends nudged a hair to the left of travel
 * and less forward, so that where the true line runs along or through an
 * edge the same side is taken however the line is turned. Away from edges it
 * gives the same hexes as hex_line. */
hex_lerp_t area_line_walk(const area_t *a);
/* The hex line of effect starts from: origin, or aim for a blast. */
hex_t area_center(const area_t *a);
/* Does the shape hold h, before line of effect and the map's edges? */
bool area_shape_has(const area_t *a, hex_t h);
/* Does area a strike hex h on board b: in the shape, on the map, and with
 * line of effect from the centre? */
bool area_covers(const board_t *b, const area_t *a, hex_t h);
/* The hexes a strikes on board b, nearest the centre first. Returns the
 * count, writing at most cap. */
int area_hexes(const board_t *b, const area_t *a, hex_t *out, int cap);
/* An upper bound on what area_hexes can return for a, to size a buffer. */
int area_max_hexes(const area_t *a);

/* Wire name of a shape ("cone"), and back (-1 when unknown). */
const char *area_shape_name(area_shape_t s);
int area_shape_parse(const char *name);

/* An `area` event for a, made by combatant who (-1 none) aimed at combatant
 * target (-1 none), with cells in map m's layout. */
event_t area_event(const map_t *m, int who, int target, const area_t *a);
/* The area an `area` event describes (the inverse of area_event). */
area_t area_from_event(const map_t *m, const event_t *e);

#endif
