/* fov.h - everything one eye sees, hex for hex as sight_clear rules it, without
 * tracing a line to every cell of the map.
 *
 * The ruling's hex line from the eye to a hex at distance d, at step k,
 * visits the hex of ring k (around the eye) at ring position j*k/d, j being
 * the target's position on ring d (rounded; at an exact half, the +e and -e
 * lines take the two hexes either side, and sight needs both clear). So a
 * sight-blocking hex at position b of ring k hides exactly the hexes of the
 * farther rings whose position, as a fraction of their ring, lies in the
 * closed interval [(b - 1/2)/k, (b + 1/2)/k] of the same scale: shadows are
 * intervals of one circular coordinate, and the field of view grows ring by
 * ring through the gaps between them (shadowcasting), in exact integer
 * arithmetic. Only hexes in a gap, and the few at its edges, are looked at,
 * so the cost follows what the eye sees, not the size of the map.
 * tests/test_fov.c checks it against sight_clear on random maps of all four
 * layouts. */
#ifndef HB_FOV_H
#define HB_FOV_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

/* Working room for fov_cells, made once per map (nothing is allocated per
 * call). */
typedef struct fov_span fov_span_t;
typedef struct {
    fov_span_t *shade, *next, *add; /* the shadows, merged, and the new ones */
    int cap;
} fov_scratch_t;

/* Room for fov_cells on maps of m's size; false on OOM (free it anyway). */
bool fov_scratch_init(fov_scratch_t *s, const map_t *m);
/* Free what fov_scratch_init allocated (a zeroed one is fine). */
void fov_scratch_free(fov_scratch_t *s);

/* Set bit c of bits (row-major cell indices, n_words words, cleared by the
 * caller) for every cell of b's map that has clear sight from eye (an
 * on-map hex), eye's own cell included: the cells sight_clear(b, eye, cell)
 * passes. *lo and *hi get the first and last word it set (lo > hi: none). */
void fov_cells(const board_t *b, hex_t eye, uint64_t *bits, int *lo, int *hi, fov_scratch_t *s);

#endif
