/* dice.h - the battle's dice source: a seeded generator, or values entered by hand.
 *
 * The generator is xoshiro256** seeded through splitmix64 (both public-domain
 * algorithms by Vigna and Blackman), implemented here so a seed means the same
 * rolls on every platform. In manual mode the source hands out values typed in
 * at the table, in order; when it runs dry it says so and the caller stops.
 */
#ifndef HB_DICE_H
#define HB_DICE_H

#include <stdbool.h>
#include <stdint.h>

#include "roll.h"

typedef struct {
    uint64_t s[4];
} rng_t;

/* Seed the generator; every seed (0 included) gives a usable state. */
void rng_seed(rng_t *r, uint64_t seed);
/* Next raw 64-bit output. */
uint64_t rng_next(rng_t *r);
/* Uniform integer in 1..sides (sides >= 1), without modulo bias. */
int rng_die(rng_t *r, int sides);

#define DICE_WHY_MAX 48

/* What a starved manual source is waiting for. */
typedef struct {
    int who;        /* combatant index, -1 when the roll belongs to no one */
    int sides;      /* one die of this many sides */
    int index;      /* which die of the roll (0-based) */
    int count;      /* dice in the whole roll */
    int keep;       /* which dice count: n highest (>0), n lowest (<0), all (0) */
    int mod;        /* added to the kept dice for the total */
    roll_spec_t spec; /* the whole roll, so a prompt can say how it is read (roll_describe) */
    char why[DICE_WHY_MAX];
} dice_request_t;

typedef struct {
    rng_t rng;
    uint64_t seed;
    unsigned manual_sides; /* bit s set: side s rolls physical dice */
    bool manual_all;       /* every roll is entered by hand (rolls of no one too) */
    int *entered;          /* values typed in so far, in order */
    int n_entered, cap_entered;
    int cursor;            /* next entered value to use */
} dice_src_t;

/* A fresh source for SEED with nothing entered and nothing manual. */
void dice_init(dice_src_t *d, uint64_t seed);
/* Free the entered values. */
void dice_free(dice_src_t *d);
/* Start over: generator reseeded, entered values kept but not yet used. */
void dice_rewind(dice_src_t *d);
/* Does a roll by a combatant of SIDE (-1: nobody's) come from the table? */
bool dice_is_manual(const dice_src_t *d, int side);
/* Append a hand-entered value; false on OOM. */
bool dice_enter(dice_src_t *d, int value);
/* Drop the last entered value (undo of a typed-in die); false if none. */
bool dice_unenter(dice_src_t *d);
/* One die for a roller of SIDE: from the generator, or the next entered value.
 * Returns false (and leaves the source unchanged) when a manual value is needed
 * and none is left. */
bool dice_take(dice_src_t *d, int side, int sides, int *out);

#endif
