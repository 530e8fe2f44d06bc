/* test_dice.c - the seeded generator and the hand-entered dice queue (core/dice.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/dice.h"

/* The published xoshiro256** / splitmix64 outputs for seed 0 pin the algorithm. */
static void test_known_vector(void **state)
{
    (void)state;
    rng_t r;
    rng_seed(&r, 0);
    /* splitmix64(0) first output is e220a8397b1dcdaf; xoshiro256** first output
     * from that state is rotl(s1*5,7)*9 of the second word. */
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    assert_true(z == 0xe220a8397b1dcdafULL);
    assert_true(r.s[0] == 0xe220a8397b1dcdafULL);
    uint64_t s1 = r.s[1];
    uint64_t v = rng_next(&r);
    uint64_t m = s1 * 5;
    assert_true(v == ((m << 7) | (m >> 57)) * 9);
}

static void test_same_seed_same_rolls(void **state)
{
    (void)state;
    rng_t a, b, c;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        int x = rng_die(&a, 20), y = rng_die(&b, 20), z = rng_die(&c, 20);
        assert_int_equal(x, y);
        differ += x != z;
    }
    assert_true(differ > 500);
}

/* Every face turns up about equally often (a chi-square bound loose enough
 * never to flake for a fixed seed, tight enough to catch an off-by-one). */
static void test_faces_uniform(void **state)
{
    (void)state;
    rng_t r;
    rng_seed(&r, 7);
    int count[21] = {0};
    const int n = 200000;
    for (int i = 0; i < n; i++) {
        int v = rng_die(&r, 20);
        assert_in_range(v, 1, 20);
        count[v]++;
    }
    double chi = 0, e = n / 20.0;
    for (int f = 1; f <= 20; f++)
        chi += (count[f] - e) * (count[f] - e) / e;
    assert_true(chi < 60.0); /* 19 degrees of freedom */
    assert_int_equal(count[0], 0);
}

static void test_manual_queue(void **state)
{
    (void)state;
    dice_src_t d;
    dice_init(&d, 5);
    d.manual_sides = 1u << 1; /* side 1 rolls at the table */
    int v = 0;
    /* Side 0 rolls from the generator without asking. */
    assert_true(dice_take(&d, 0, 6, &v));
    assert_in_range(v, 1, 6);
    /* Side 1 has nothing entered: it must stop. */
    assert_false(dice_take(&d, 1, 6, &v));
    assert_true(dice_enter(&d, 4));
    assert_true(dice_enter(&d, 2));
    assert_true(dice_take(&d, 1, 6, &v));
    assert_int_equal(v, 4);
    assert_true(dice_take(&d, 1, 6, &v));
    assert_int_equal(v, 2);
    assert_false(dice_take(&d, 1, 6, &v));
    /* Rewinding replays the same entered values and the same generator. */
    rng_t fresh;
    rng_seed(&fresh, 5);
    dice_rewind(&d);
    assert_true(dice_take(&d, 0, 6, &v));
    assert_int_equal(v, rng_die(&fresh, 6));
    assert_true(dice_take(&d, 1, 6, &v));
    assert_int_equal(v, 4);
    assert_true(dice_unenter(&d));
    assert_int_equal(d.n_entered, 1);
    assert_false(dice_take(&d, 1, 6, &v));
    dice_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_vector),
        cmocka_unit_test(test_same_seed_same_rolls),
        cmocka_unit_test(test_faces_uniform),
        cmocka_unit_test(test_manual_queue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
