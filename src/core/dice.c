/* dice.c - xoshiro256** with splitmix64 seeding, and the manual-entry queue. */
#include "dice.h"

#include <stdlib.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void rng_seed(rng_t *r, uint64_t seed)
{
    /* splitmix64 never yields four zero words, which xoshiro cannot leave. */
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

int rng_die(rng_t *r, int sides)
{
    if (sides <= 1)
        return 1;
    uint64_t n = (uint64_t)sides;
    /* Reject the top sliver so every face is equally likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t v;
    do
        v = rng_next(r);
    while (v >= limit);
    return (int)(v % n) + 1;
}

void dice_init(dice_src_t *d, uint64_t seed)
{
    *d = (dice_src_t){0};
    d->seed = seed;
    rng_seed(&d->rng, seed);
}

void dice_free(dice_src_t *d)
{
    free(d->entered);
    d->entered = NULL;
    d->n_entered = d->cap_entered = d->cursor = 0;
}

void dice_rewind(dice_src_t *d)
{
    rng_seed(&d->rng, d->seed);
    d->cursor = 0;
}

bool dice_is_manual(const dice_src_t *d, int side)
{
    if (d->manual_all)
        return true;
    return side >= 0 && side < 32 && (d->manual_sides >> side) & 1u;
}

bool dice_enter(dice_src_t *d, int value)
{
    if (d->n_entered == d->cap_entered) {
        int cap = d->cap_entered ? d->cap_entered * 2 : 32;
        int *p = realloc(d->entered, sizeof *p * (size_t)cap);
        if (!p)
            return false;
        d->entered = p;
        d->cap_entered = cap;
    }
    d->entered[d->n_entered++] = value;
    return true;
}

bool dice_unenter(dice_src_t *d)
{
    if (d->n_entered == 0)
        return false;
    d->n_entered--;
    if (d->cursor > d->n_entered)
        d->cursor = d->n_entered;
    return true;
}

bool dice_take(dice_src_t *d, int side, int sides, int *out)
{
    if (!dice_is_manual(d, side)) {
        *out = rng_die(&d->rng, sides);
        return true;
    }
    if (d->cursor >= d->n_entered)
        return false;
    *out = d->entered[d->cursor++];
    return true;
}
